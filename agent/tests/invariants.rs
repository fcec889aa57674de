//! ARCHITECTURE.md's invariants about the agent, checked on its source: where `unsafe` is
//! allowed, and which modules read the clock (kernels are timed only in `backend` and
//! `stats`; the rest read wall time for logs, progress, budgets and power).

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("agent/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every source file of the agent, as (path under `src/`, text), tests left out.
fn files() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    sources(&src, &mut paths);
    assert!(
        paths.len() > 20,
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
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .filter(|(rel, _)| !rel.ends_with("tests.rs") && !rel.contains("/tests/"))
        .collect()
}

#[test]
fn unsafe_is_allowed_only_in_the_cuda_backend_and_the_x86_dispatch() {
    let mut allowing: Vec<String> = files()
        .into_iter()
        .filter(|(_, text)| text.contains("allow(unsafe_code)"))
        .map(|(rel, _)| rel)
        .collect();
    allowing.sort();
    assert_eq!(
        allowing,
        ["backend/cpu/simd.rs", "backend/cuda/mod.rs"],
        "where the workspace's deny(unsafe_code) is lifted"
    );
    // In simd.rs only inside its three dispatch macros, each once.
    let simd = files()
        .into_iter()
        .find(|(rel, _)| rel == "backend/cpu/simd.rs")
        .expect("simd.rs")
        .1;
    assert_eq!(simd.matches("allow(unsafe_code)").count(), 3);
    for name in ["dispatch", "dispatch_float", "dispatch_integer"] {
        assert!(simd.contains(&format!("macro_rules! {name} {{")), "{name}!");
    }
}

#[test]
fn only_the_backends_and_stats_time_kernels_and_the_rest_read_wall_time_by_name() {
    // Wall time, never a kernel's: each module here and why it reads the clock.
    const WALL_TIME: [(&str, &str); 5] = [
        (
            "commands.rs",
            "each measurement's wall time in the terminal log",
        ),
        ("jobs/mod.rs", "a job's progress and time left"),
        (
            "gpu_check.rs",
            "the check's total time, its log and its telemetry window",
        ),
        ("telemetry/mod.rs", "the sampling period"),
        (
            "telemetry/nvml.rs",
            "power from the energy counter over time",
        ),
    ];
    let reading: Vec<String> = files()
        .into_iter()
        .filter(|(_, text)| text.contains("Instant::now"))
        .map(|(rel, _)| rel)
        .collect();
    for rel in &reading {
        let timing = rel.starts_with("backend/") || rel == "stats.rs";
        assert!(
            timing || WALL_TIME.iter().any(|(m, _)| m == rel),
            "{rel} reads the clock: time kernels in a backend or stats, or name it here"
        );
    }
    for (module, why) in WALL_TIME {
        assert!(
            reading.iter().any(|r| r == module),
            "{module} no longer reads the clock ({why})"
        );
    }
    assert!(
        reading.iter().any(|r| r == "stats.rs"),
        "stats times the samples"
    );
}

/// Files with a line outside comments that `matches`, sorted.
fn files_where(matches: impl Fn(&str) -> bool) -> Vec<String> {
    let mut found: Vec<String> = files()
        .into_iter()
        .filter(|(_, source)| {
            source
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .any(&matches)
        })
        .map(|(rel, _)| rel)
        .collect();
    found.sort();
    found
}

#[test]
fn the_agent_defines_no_wire_type_and_parses_messages_only_through_the_protocol_decoder() {
    // What crosses the wire is the protocol crate's: the agent derives serde only for the
    // HTTP API's `?hardware_key=` query (a URL's query string, not a message).
    let derives =
        |name: &'static str| move |line: &str| line.contains("derive(") && line.contains(name);
    assert_eq!(files_where(derives("Serialize")), Vec::<String>::new());
    assert_eq!(files_where(derives("Deserialize")), ["server/api.rs"]);
    let api = files()
        .into_iter()
        .find(|(rel, _)| rel == "server/api.rs")
        .expect("server/api.rs")
        .1;
    assert_eq!(api.matches("derive(Deserialize)").count(), 1);
    assert!(api.contains("#[derive(Deserialize)]\npub struct HardwareQuery"));
    // WebSocket messages and request bodies go through `rooflinr_protocol::decode`;
    // serde_json reads only the GPU check's torch script output (a local subprocess's one
    // line of JSON).
    assert_eq!(
        files_where(|line| line.contains("serde_json::from_")),
        ["gpu_check.rs"]
    );
}
