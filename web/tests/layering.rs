//! ARCHITECTURE.md's layering of the calculator, checked on its source: web APIs only in
//! the modules that exist to call them, and the pure modules independent of the lab and
//! the chart.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("web/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every source file of the calculator, as (path under `src/`, text).
fn files() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    sources(&src, &mut paths);
    assert!(
        paths.len() > 10,
        "found {} files under {src:?}",
        paths.len()
    );
    paths
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&p).unwrap();
            (rel, text)
        })
        .collect()
}

#[test]
fn web_apis_are_called_only_where_the_architecture_says() {
    // browser: storage, location, downloads, clipboard, files, timing; lab::link: the
    // WebSocket; chart::view: pointer events on the SVG; lib: mounting the app.
    let allowed = ["browser.rs", "lab/link.rs", "chart/view.rs", "lib.rs"];
    for (path, text) in files() {
        if allowed.contains(&path.as_str()) {
            continue;
        }
        for api in ["web_sys::", "js_sys::"] {
            assert!(!text.contains(api), "{path} calls {api} directly");
        }
    }
}

#[test]
fn pure_modules_do_not_depend_on_the_lab_or_the_chart() {
    // Their tests may draw what they compute; the modules themselves may not.
    for (path, text) in files() {
        let pure = ["compute/", "state/", "export/", "browser.rs"]
            .iter()
            .any(|p| path.starts_with(p))
            && !path.ends_with("tests.rs");
        if pure {
            for layer in ["crate::lab", "crate::chart::data", "crate::ui"] {
                assert!(!text.contains(layer), "{path} depends on {layer}");
            }
        }
    }
}

#[test]
fn the_calculator_defines_no_wire_type_and_parses_messages_only_through_the_protocol_decoder() {
    // The protocol crate owns what crosses the wire: nothing here derives serde, and
    // serde_json only writes (exports, the lab file); the agent's messages are read by
    // `rooflinr_protocol::decode` in the one module that holds the WebSocket.
    for (path, text) in files() {
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            assert!(
                !(line.contains("derive(") && line.contains("Serialize")),
                "{path} derives serde: {line}"
            );
            assert!(
                !line.contains("serde_json::from_"),
                "{path} parses JSON itself: {line}"
            );
        }
    }
    let readers: Vec<String> = files()
        .into_iter()
        .filter(|(_, text)| text.contains("decode::<ServerMessage>"))
        .map(|(path, _)| path)
        .collect();
    assert_eq!(readers, ["lab/link.rs"]);
}
