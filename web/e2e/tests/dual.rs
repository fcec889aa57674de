//! End to end, the loop the product exists for: the release calculator in headless
//! Chromium pairs (from a pairing link) with a real agent on another loopback port — the
//! agent's own server, job queue, JSONL store and CPU backend, taking real measurements —
//! measures the ceilings, runs a small sweep, shows the measured points on the chart and the
//! error table, exports a report, and keeps everything across a reload. The figures the
//! page shows are checked against the agent's own results file. Screenshots are saved in
//! `target/e2e/`.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use fantoccini::{Client, Locator};
use rooflinr_agent::backend::Backend;
use rooflinr_agent::backend::cpu::{CpuBackend, CpuOptions};
use rooflinr_agent::jobs::Jobs;
use rooflinr_agent::jobs::store::Store;
use rooflinr_agent::server::{self, AppState, ServerConfig};
use rooflinr_agent::stats::StopRule;
use rooflinr_agent::telemetry::Telemetry;
use rooflinr_model::units::si;
use rooflinr_web_e2e::{open_browser, release_bundle, root, serve, start_driver, text_of};

const TOKEN: &str = "e2e-token-0123456789abcdef";

/// A real agent on a free loopback port with small working sets (a debug build measures).
async fn start_agent(results: &std::path::Path) -> Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let cpu: Arc<dyn Backend> = Arc::new(CpuBackend::new(CpuOptions {
        peak_gemm_size: 64,
        stream_array_bytes: Some(4 << 20),
    }));
    let rule = StopRule {
        min_samples: 3,
        max_time: Duration::from_millis(100),
        warmup_runs: 1,
        ..StopRule::DEFAULT
    };
    let jobs = Jobs::new(vec![cpu], Store::open(results)?, rule);
    jobs.spawn_worker()?;
    let state = Arc::new(AppState {
        config: ServerConfig {
            token: TOKEN.into(),
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            web_dir: None,
        },
        jobs,
        telemetry: Telemetry::start(100.0),
    });
    tokio::spawn(server::serve(listener, state, std::future::pending()));
    Ok(format!("http://{addr}"))
}

/// Waits until the text of `css` satisfies `ok`; returns it.
async fn wait_text(
    client: &Client,
    css: &str,
    secs: u64,
    ok: impl Fn(&str) -> bool,
) -> Result<String> {
    let mut last = String::new();
    for _ in 0..secs * 5 {
        if let Ok(el) = client.find(Locator::Css(css)).await {
            last = el.text().await.unwrap_or_default();
            if ok(&last) {
                return Ok(last);
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    bail!("`{css}` never showed what was expected; last text: {last:?}")
}

async fn count(client: &Client, css: &str) -> Result<usize> {
    Ok(client.find_all(Locator::Css(css)).await?.len())
}

async fn type_into(client: &Client, css: &str, text: &str) -> Result<()> {
    let el = client
        .find(Locator::Css(css))
        .await
        .with_context(|| format!("no `{css}`"))?;
    el.clear().await?;
    el.send_keys(text).await?;
    Ok(())
}

async fn screenshot(client: &Client, name: &str) -> Result<()> {
    let dir = root().join("target/e2e");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(name);
    std::fs::write(&path, client.screenshot().await?)?;
    println!("screenshot: {}", path.display());
    Ok(())
}

/// The measured medians the agent wrote to its results files, as the page formats them.
fn measured_times(results: &std::path::Path) -> Result<Vec<String>> {
    let mut times = Vec::new();
    for entry in std::fs::read_dir(results)? {
        let text = std::fs::read_to_string(entry?.path())?;
        let imported = rooflinr_report::import::import(&text)?;
        times.extend(imported.all_kernels().iter().map(|k| si(k.time_s, "s")));
    }
    times.sort();
    Ok(times)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_calculator_pairs_measures_calibrates_and_reports() -> Result<()> {
    let dist = tokio::task::spawn_blocking(release_bundle).await??;
    let page = serve(&dist).await?;
    let results = tempfile::tempdir()?;
    let agent = start_agent(results.path()).await?;
    let driver = start_driver().await?;
    let client = open_browser(&driver, 1440, 3400).await?;

    // Operator mode, GEMV on a custom CPU-sized device; the agent from a pairing link.
    let query = "v=1&mode=op&hw=h100-sxm&op=gemv&m=1&n=4096&k=4096&act=fp16&w=fp16&kv=fp16&out=fp16&vary=all";
    client
        .goto(&format!("{page}?{query}#agent={agent}&token={TOKEN}"))
        .await?;
    let state = wait_text(&client, "#link-state", 20, |t| t.starts_with("Paired with")).await?;
    assert!(state.contains(&agent), "{state}");
    // The token left the address bar.
    let url = client.current_url().await?;
    assert!(!url.as_str().contains(TOKEN), "{url}");
    // Live host telemetry (no NVML here), and the page says why there is no GPU telemetry.
    wait_text(&client, "#telemetry .spark strong", 10, |t| {
        t.ends_with('%')
    })
    .await?;
    let telemetry = text_of(&client, "#telemetry").await?;
    assert!(telemetry.contains("CPU utilisation"), "{telemetry}");

    // Ceilings: bandwidth and a peak GEMM per format.
    type_into(&client, "#sweep-seconds", "0.05").await?;
    client
        .find(Locator::Css("#measure-ceilings"))
        .await?
        .click()
        .await?;
    let notice = wait_text(&client, "#lab-notice", 120, |t| t.contains("finished")).await?;
    assert!(notice.contains("The ceilings finished"), "{notice}");
    assert_eq!(count(&client, "#roofline-chart .measured-roof").await?, 1);

    // A sweep: 2 shapes x every format the backend offers.
    let formats = count(&client, ".formats-pick input[type=checkbox]").await?;
    assert_eq!(
        formats, 5,
        "the CPU backend measures fp32, bf16, fp16, int8 and int4-g128"
    );
    type_into(&client, "#sweep-shapes", "1x256x256, 32x256x256").await?;
    client
        .find(Locator::Css("#measure-sweep"))
        .await?
        .click()
        .await?;
    wait_text(&client, "#job-progress", 20, |t| {
        t.contains("points") || t.contains("Starting")
    })
    .await?;
    let notice = wait_text(&client, "#lab-notice", 180, |t| t.contains("sweep")).await?;
    assert!(
        notice.starts_with("The sweep finished: 10 point(s) measured and checked."),
        "{notice}"
    );

    // Every measured point is in the table and on the chart, beside its datasheet twin.
    assert_eq!(count(&client, "#theory-table tbody tr").await?, 10);
    // Measured on this machine's CPU against the H100's datasheet: the table says so.
    let elsewhere = text_of(&client, "#lab-elsewhere").await?;
    assert!(
        elsewhere.starts_with("Measured on ") && elsewhere.contains("not on NVIDIA H100"),
        "{elsewhere}"
    );
    assert_eq!(count(&client, "#roofline-chart .measured-mark").await?, 10);
    assert!(count(&client, "#error-summary tbody tr").await? >= 1);
    // The times shown are the agent's, as written to its results file.
    let mut shown = Vec::new();
    for row in client
        .find_all(Locator::Css("#theory-table tbody tr"))
        .await?
    {
        let cells = row.find_all(Locator::Css("td")).await?;
        shown.push(cells[5].text().await?);
    }
    shown.sort();
    assert_eq!(shown, measured_times(results.path())?);

    // Kernels from a benchmark script's CSV join them, grouped by phase.
    let csv = results.path().join("../e2e-kernels.csv");
    std::fs::write(
        &csv,
        "kernel,op,flops,bytes,time_us,phase,format\ncutlass_scaled_fp4_mm,q_b_proj,9.7e9,26.1e6,40.0,prefill,nvfp4\nrmsnorm,layernorm,35840,28672,3.0,decode,fp16\n",
    )?;
    let csv = csv.canonicalize()?;
    client
        .find(Locator::Css("#lab-import"))
        .await?
        .send_keys(&csv.display().to_string())
        .await?;
    let notice = wait_text(&client, "#lab-notice", 20, |t| t.starts_with("Imported")).await?;
    assert!(
        notice.starts_with("Imported 2 record(s) from e2e-kernels.csv (kernel CSV)."),
        "{notice}"
    );
    std::fs::remove_file(&csv)?;
    assert_eq!(count(&client, "#theory-table tbody tr").await?, 12);
    assert_eq!(count(&client, "#roofline-chart .measured-mark").await?, 12);
    let phases = text_of(&client, "#phase-summary tbody").await?;
    assert!(
        phases.contains("decode") && phases.contains("prefill"),
        "{phases}"
    );

    let fractions = text_of(&client, "#lab-fractions").await?;
    // One fit for the agent's points (with its ceilings), one for the imported file.
    assert!(fractions.contains("measured: agent cpu on"), "{fractions}");
    assert!(
        fractions.contains("imported: kernel CSV: bandwidth"),
        "{fractions}"
    );
    screenshot(&client, "dual-roofline.png").await?;

    // The report: Markdown in the prototype's shape, one placement row per point.
    client
        .find(Locator::Css("#lab-report"))
        .await?
        .click()
        .await?;
    let report = text_of(&client, "#report-preview").await?;
    for section in [
        "## Hardware Limits",
        "## Kernel Placement",
        "## Calibration",
        "## Bottleneck Analysis",
        "## Scaling Behavior",
    ] {
        assert!(report.contains(section), "missing {section}");
    }
    assert_eq!(
        report.lines().filter(|l| l.starts_with("| `gem")).count(),
        10
    );
    assert!(
        ["read", "copy", "triad"]
            .iter()
            .any(|k| report.contains(&format!("| Bandwidth ({k})")))
    );

    // A reload keeps the measurements and pairs again from the browser's storage.
    client.refresh().await?;
    wait_text(&client, "#link-state", 20, |t| t.starts_with("Paired with")).await?;
    assert_eq!(count(&client, "#theory-table tbody tr").await?, 12);
    screenshot(&client, "dual-roofline-reloaded.png").await?;

    // Many GPUs mode, still paired: this host has no NVML, so no energy window is offered,
    // and the page says why.
    client
        .goto(&format!(
            "{page}?v=1&mode=deploy&hw=h200&model=llama-3.1-8b&tp=1&pp=1&dp=1"
        ))
        .await?;
    let energy = wait_text(&client, "#energy-window-status", 30, |t| {
        t.contains("no NVML GPUs")
    })
    .await?;
    assert!(energy.contains("no energy is measured"), "{energy}");
    assert_eq!(count(&client, "#energy-window").await?, 0);
    client.close().await?;
    Ok(())
}

/// A real GPU run, the agent's `gpu-check` on an H200 (docs/gpu-runs), imported into the
/// calculator with no agent paired: every timed point joins the chart and the error
/// table, and every fitted fraction of the datasheet is a fraction (the run first showed
/// FP8 and INT8 peaks at 152 % of the wrong datasheet roof).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_h200_run_imports_into_the_calculator() -> Result<()> {
    let dist = tokio::task::spawn_blocking(release_bundle).await??;
    let page = serve(&dist).await?;
    let driver = start_driver().await?;
    let client = open_browser(&driver, 1440, 3000).await?;
    let query = "v=1&mode=op&hw=h200&op=gemv&m=1&n=8192&k=8192&act=fp16&w=fp16&kv=fp16&out=fp16";
    client.goto(&format!("{page}?{query}")).await?;
    let run = root().join("docs/gpu-runs/h200-2026-11-26/after.jsonl");
    let expected = rooflinr_report::import::import(&std::fs::read_to_string(&run)?)?;
    let operators = expected.all_kernels().len();
    client
        .find(Locator::Css("#lab-import"))
        .await?
        .send_keys(&run.display().to_string())
        .await?;
    let notice = wait_text(&client, "#lab-notice", 20, |t| t.starts_with("Imported")).await?;
    assert!(
        notice.starts_with(&format!(
            "Imported {} record(s) from after.jsonl",
            expected.measurements.len()
        )),
        "{notice}"
    );
    assert_eq!(count(&client, "#theory-table tbody tr").await?, operators);
    assert_eq!(
        count(&client, "#roofline-chart .measured-mark").await?,
        operators
    );
    let fractions = text_of(&client, "#lab-fractions").await?;
    assert!(fractions.contains("NVIDIA H200"), "{fractions}");
    // Measured on the device selected: no warning about another device.
    assert_eq!(count(&client, "#lab-elsewhere").await?, 0);
    let percents: Vec<f64> = fractions
        .split('%')
        .filter_map(|part| part.rsplit(' ').next()?.parse().ok())
        .collect();
    assert!(!percents.is_empty(), "{fractions}");
    assert!(
        percents.iter().all(|p| (0.0..=100.0).contains(p)),
        "{fractions}"
    );
    // The measured roof's label sits clear of the measured points (it was drawn over
    // them at a fixed spot on the roof).
    let covered = client
        .execute(
            r#"const t = document.querySelector('#roofline-chart .measured-roof text').getBBox();
               return [...document.querySelectorAll('#roofline-chart .measured-mark path')]
                 .map(p => p.getBBox())
                 .filter(b => b.x < t.x + t.width && t.x < b.x + b.width
                           && b.y < t.y + t.height && t.y < b.y + b.height).length;"#,
            vec![],
        )
        .await?;
    assert_eq!(
        covered.as_u64(),
        Some(0),
        "marks under the measured roof's label"
    );
    screenshot(&client, "h200-import.png").await?;
    client.close().await?;
    Ok(())
}
