//! The browser calculator's speed and size benchmark (`cargo xtask bench-web`):
//!
//! - release wasm + JS loaded with the page, gzipped (target: under 400 KB), and the
//!   modules loaded on first use (the lab's, the exports', deployment mode's);
//! - first chart drawn after navigation, from the page's `rooflinr:first-chart` mark
//!   (target: under 1 s), over several cold loads;
//! - dragging the context slider on DeepSeek-V3 decode: time from the input event until
//!   the DOM has been updated (target: under 16 ms per change). Each change starts after
//!   the previous one has been drawn (two animation frames), so the figure is this change's
//!   work alone, not the previous change's layout and paint landing inside it; the time
//!   until the change itself is on screen (the next frame) is reported beside it.
//!
//! Prints the figures; asserts nothing (targets are judged by people, from the note).

use std::io::Write;
use std::time::Duration;

use anyhow::{Context, Result};
use flate2::Compression;
use flate2::write::GzEncoder;
use rooflinr_web_e2e::{code_dir, open_browser, release_bundle, serve, start_driver, text_of};

fn gzipped(bytes: &[u8]) -> Result<usize> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(bytes)?;
    Ok(gz.finish()?.len())
}

fn stats(name: &str, unit: &str, mut v: Vec<f64>) {
    v.sort_by(f64::total_cmp);
    let median = v[v.len() / 2];
    let p95 = v[((v.len() as f64 * 0.95) as usize).min(v.len() - 1)];
    println!(
        "{name}: median {median:.2} {unit}, p95 {p95:.2} {unit}, min {:.2}, max {:.2} ({} samples)",
        v[0],
        v[v.len() - 1],
        v.len()
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<()> {
    let dist = tokio::task::spawn_blocking(release_bundle).await??;
    // The release bundle's code is in `pkg-HASH/`: the main module and the JavaScript load with
    // the page; every other module only when first used.
    let (mut first, mut lazy) = (0, 0);
    let mut files: Vec<_> = std::fs::read_dir(code_dir(&dist)?)?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    files.sort();
    for path in files {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext != "wasm" && ext != "js" {
            continue;
        }
        let raw = std::fs::read(&path)?;
        let gz = gzipped(&raw)?;
        let loads = if ext == "js" || name == "rooflinr-web_bg.wasm" {
            first += gz;
            "with the page"
        } else {
            lazy += gz;
            "on first use"
        };
        println!(
            "{name}: {} KB raw, {} KB gzipped, loads {loads}",
            raw.len() / 1024,
            gz / 1024
        );
    }
    println!(
        "bundle loaded with the page (wasm + JS), gzipped: {} KB (target < 400 KB); the modules loaded on first use (the lab's, the exports', deployment mode's): {} KB; all: {} KB",
        first / 1024,
        lazy / 1024,
        (first + lazy) / 1024
    );

    let page = serve(&dist).await?;
    let driver = start_driver().await?;
    let client = open_browser(&driver, 1440, 1000).await?;

    let mut first = Vec::new();
    for i in 0..8 {
        // A fresh query each time, so nothing is restored from a previous state.
        client
            .goto(&format!(
                "{page}?v=1&mode=model&hw=h100-sxm&model=llama-3-8b&phase=decode&batch=1&seq={}",
                1024 << i
            ))
            .await?;
        text_of(&client, "[data-figure=model-time]").await?;
        let t = client
            .execute(
                "const m = performance.getEntriesByName('rooflinr:first-chart'); return m.length ? m[0].startTime : null",
                vec![],
            )
            .await?;
        first.push(
            t.as_f64()
                .context("the page set no rooflinr:first-chart mark")?,
        );
    }
    stats("first chart after navigation", "ms", first);

    client
        .goto(&format!("{page}?v=1&mode=model&hw=b200&model=deepseek-v3&phase=decode&batch=8&seq=4096&w=nvfp4&kv=fp8-e4m3"))
        .await?;
    text_of(&client, "[data-figure=model-time]").await?;
    let times = client
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            const slider = document.getElementById('slider-context-length');
            const out = [];
            (async () => {
              const frame = () => new Promise(r => requestAnimationFrame(() => r()));
              for (let i = 0; i < 60; i++) {
                // Let the previous change be laid out and painted first.
                await frame();
                await frame();
                const t0 = performance.now();
                slider.value = String(6 + (i % 15));
                slider.dispatchEvent(new Event('input', { bubbles: true }));
                // Yield through a message (runs after every microtask, so after Leptos has
                // patched the DOM) rather than setTimeout, which Chrome clamps to 4 ms.
                await new Promise(r => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });
                const total = performance.now() - t0;
                // Then until this change has been drawn: the next frame's callback runs
                // before its layout and paint, so wait for the frame after it.
                await frame();
                await frame();
                const drawn = performance.now() - t0;
                // The card must already show this context's time (its note names the length).
                const note = document.querySelector('[data-figure=model-time]').nextElementSibling.textContent;
                if (!note.includes(`${2 ** (6 + (i % 15))} tokens`)) { done({ stale: i, note }); return; }
                const timing = document.querySelector('.timing');
                const compute = timing ? parseFloat(timing.textContent.replace('Computed in ', '')) : NaN;
                out.push([total, compute, drawn]);
              }
              done(out);
            })();"#,
            vec![],
        )
        .await?;
    if let Some(i) = times.get("stale") {
        anyhow::bail!(
            "change {i} was not on the page when measured: {}",
            times["note"]
        );
    }
    let samples: Vec<[f64; 3]> = times
        .as_array()
        .context("slider timings")?
        .iter()
        .filter_map(|v| Some([v[0].as_f64()?, v[1].as_f64()?, v[2].as_f64()?]))
        .collect();
    stats(
        "DeepSeek-V3 decode, slider change to DOM updated",
        "ms",
        samples.iter().map(|p| p[0]).collect(),
    );
    stats(
        "  of which the model analysis (both phases)",
        "ms",
        samples.iter().map(|p| p[1]).collect(),
    );
    stats(
        "  until drawn (two frames after the change; the display's frame rate included)",
        "ms",
        samples.iter().map(|p| p[2]).collect(),
    );
    tokio::time::sleep(Duration::from_millis(10)).await;
    client.close().await?;
    Ok(())
}
