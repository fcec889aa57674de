//! Project automation, run as `cargo xtask <command>`:
//!
//! - `setup`: install what the build and the tests need, skipping what is there.
//! - `test`: set up, then every check CI runs (formatting, lints on the host and on
//!   wasm32, the release bundle of the calculator, every native test, the browser
//!   component tests and the end-to-end test in headless Chromium).
//! - `run`: set up, build the calculator, and start the measurement agent serving it
//!   on loopback (`rooflinr-agent --listen 127.0.0.1:7878 --web dist`).
//! - `bench`: the model's criterion benchmarks, with their targets.
//! - `bench-web`: the calculator's size and speed benchmark in headless Chromium.
//! - `cuda-check`: every GPU kernel compiled (NVRTC) and assembled (ptxas) for each target
//!   architecture, with no GPU: fails on spills and local memory, keeps the registers
//!   table (`--bless` rewrites it).
//! - `gpu-bundle`: the release agent in `carry/` and the one command that runs the device
//!   check on a GPU machine.
//! - `web-wasm`: the calculator's WebAssembly, split and optimised (Trunk's pre-build
//!   hook runs it; see `web.rs`); `web-name`: its folder named by its contents (the
//!   post-build hook).
//! - `validate`: `rooflinr validate` over NVIDIA's measured GEMM tables (set-up fetches them).
//! - `screenshot`: the README's picture of the calculator, taken by an end-to-end test in
//!   headless Chromium and copied into the book's images.
//! - `docs`: the book into `target/book` and the links of every Markdown file checked;
//!   `--check` fails where a generated part (README's accuracy table, the CLI reference,
//!   the calibration tables) differs from what the code produces, `--bless` rewrites them.

mod cuda;
mod docs;
mod setup;
mod web;

use std::process::Command;

use anyhow::{Context, Result, bail};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::all(),
        Some("test") => test(),
        Some("run") => run(&args[1..]),
        Some("bench") => bench(),
        Some("bench-web") => bench_web(),
        Some("cuda-check") => cuda::check(args.iter().any(|a| a == "--bless")),
        Some("gpu-bundle") => cuda::bundle(),
        Some("validate") => validate(
            args.iter().any(|a| a == "--serving"),
            args.iter().any(|a| a == "--check"),
        ),
        Some("docs") => docs::run(if args.iter().any(|a| a == "--bless") {
            docs::Mode::Bless
        } else if args.iter().any(|a| a == "--check") {
            docs::Mode::Check
        } else {
            docs::Mode::Build
        }),
        Some("screenshot") => screenshot(),
        Some("web-wasm") => web::build(),
        Some("web-name") => web::name_by_contents(),
        _ => {
            eprintln!(
                "usage: cargo xtask <setup|test|run|bench|bench-web|cuda-check|gpu-bundle|validate|docs|screenshot>\n"
            );
            eprintln!(
                "  setup   install the wasm target, Trunk, wasm-bindgen, wasm-opt, Chromium (idempotent)"
            );
            eprintln!("  test    set up, then run every check and test CI runs");
            eprintln!(
                "  run     set up, then start the agent serving the calculator at http://127.0.0.1:7878/"
            );
            eprintln!("  bench   run the model benchmarks");
            eprintln!(
                "  bench-web  measure the calculator's bundle size, first chart and slider speed"
            );
            eprintln!(
                "  cuda-check  compile and assemble every GPU kernel with no GPU (--bless: update the registers table)"
            );
            eprintln!(
                "  gpu-bundle  build the release agent into carry/ and print the command that runs gpu-check on a GPU machine"
            );
            eprintln!(
                "  validate  hold the kernel model against NVIDIA's measured kernel tables (downloads them once); --serving: the serving model against its measured serving sample"
            );
            eprintln!(
                "  docs    build the book into target/book and check links (--check: generated parts match the code; --bless: rewrite them)"
            );
            eprintln!(
                "  screenshot  take the README's picture of the calculator in headless Chromium"
            );
            return std::process::ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The workspace root (xtask lives one level below it).
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace")
        .to_path_buf()
}

/// Runs a command in the workspace root, echoing it; fails if it fails.
pub fn step(program: &str, args: &[&str]) -> Result<()> {
    step_with(program, args, &[])
}

/// Like [`step`], with extra environment variables.
pub fn step_with(program: &str, args: &[&str], env: &[(&str, String)]) -> Result<()> {
    println!("\n==> {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .current_dir(root())
        .status()
        .with_context(|| format!("cannot start `{program}`"))?;
    if !status.success() {
        bail!("`{program} {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

fn test() -> Result<()> {
    setup::all()?;
    step("cargo", &["fmt", "--all", "--", "--check"])?;
    step(
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--locked",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    // The agent builds, lint-clean, for aarch64 Linux (GB10's and Grace's Arm cores): its
    // SIMD loops have a NEON version, and nothing in it may be x86-only.
    step(
        "cargo",
        &[
            "clippy",
            "--package",
            "rooflinr-agent",
            "--target",
            setup::AARCH64,
            "--locked",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    // The model and report crates' invariant: they build, lint-clean, for the browser.
    let wasm = [
        "--package",
        "rooflinr-model",
        "--package",
        "rooflinr-report",
        "--target",
        "wasm32-unknown-unknown",
        "--locked",
    ];
    step(
        "cargo",
        &[&["clippy"][..], &wasm, &["--", "-D", "warnings"]].concat(),
    )?;
    step("cargo", &[&["build", "--release"][..], &wasm].concat())?;
    // The calculator: lint-clean for the browser, its release bundle, its tests.
    step(
        "cargo",
        &[
            "clippy",
            "--package",
            "rooflinr-web",
            "--target",
            "wasm32-unknown-unknown",
            "--all-targets",
            "--locked",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    let dist = build_bundle()?;
    let browser_env = [
        ("ROOFLINR_WEB_DIST", dist.display().to_string()),
        ("CHROMEDRIVER", "/usr/bin/chromedriver".to_string()),
        ("ROOFLINR_AXE", setup::axe_core()?.display().to_string()),
        (
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
            "wasm-bindgen-test-runner".to_string(),
        ),
    ];
    // Native tests, including the end-to-end test against the bundle just built.
    step_with("cargo", &["test", "--workspace", "--locked"], &browser_env)?;
    // Component tests in headless Chromium.
    step_with(
        "cargo",
        &[
            "test",
            "--package",
            "rooflinr-web",
            "--target",
            "wasm32-unknown-unknown",
            "--test",
            "browser",
            "--locked",
        ],
        &browser_env,
    )?;
    // The serving model's fitted constants are what a fit on NVIDIA's sample gives today.
    validate(true, true)?;
    // The book builds, its links and the README's resolve, and every generated part
    // (accuracy tables, the CLI reference, command examples) is what the code gives now.
    docs::run(docs::Mode::Check)?;
    // The GPU kernels, compiled and assembled with no GPU.
    cuda::check(false)?;
    println!(
        "\nGPU checks run here, with no GPU: every kernel's decoding header against the model crate (host build, bit-exact), launch configurations, byte counts and probe messages (native tests), and cuda-check (NVRTC + ptxas for {}). NOT run: the device run (`rooflinr-agent gpu-check`, the book's \"On a GPU\", docs/book/src/gpu.md), which needs an NVIDIA GPU; CI has none (the runs so far: docs/gpu-runs/).",
        cuda::ARCHITECTURES.join(", ")
    );
    Ok(())
}

/// Builds the calculator's release bundle into `dist/`.
fn build_bundle() -> Result<std::path::PathBuf> {
    step("trunk", &["build", "--release", "--offline"])?;
    Ok(root().join("dist"))
}

fn run(extra: &[String]) -> Result<()> {
    setup::all()?;
    // The agent serves the release bundle itself, with the API and the pairing channel
    // on the same loopback port; extra arguments go to the agent (`-- --listen ADDR`).
    let dist = build_bundle()?;
    let dist = dist.to_string_lossy().into_owned();
    let mut args = vec![
        "run",
        "--release",
        "--locked",
        "--package",
        "rooflinr-agent",
        "--",
        "--web",
        dist.as_str(),
    ];
    if !extra.iter().any(|a| a == "--listen") {
        args.extend(["--listen", "127.0.0.1:7878"]);
    }
    args.extend(extra.iter().map(String::as_str));
    let address = extra
        .iter()
        .position(|a| a == "--listen")
        .and_then(|i| extra.get(i + 1))
        .map_or("127.0.0.1:7878", String::as_str);
    println!(
        "\nStarting the agent: the calculator and the pairing link will be at http://{address}/ (Ctrl-C stops it)."
    );
    step("cargo", &args)
}

/// `rooflinr validate` on NVIDIA's kernel tables, or with `--serving` on its measured
/// serving sample (with `--check`: refits the serving model's host overheads and fails
/// where they differ from the shipped ones).
fn validate(serving: bool, check: bool) -> Result<()> {
    let (flag, path) = if serving {
        ("--serving", setup::serving_sample()?)
    } else {
        ("--tables", setup::kernel_tables()?)
    };
    let path = path.display().to_string();
    let mut args = vec![
        "run",
        "--release",
        "--locked",
        "--package",
        "rooflinr-cli",
        "--",
        "validate",
        flag,
        &path,
    ];
    if serving && check {
        args.push("--check");
        step("cargo", &args)?;
        args.push("--fit");
    }
    step("cargo", &args)
}

/// The README's picture: the end-to-end test `readme` takes it from the release bundle,
/// and it is copied to where the README and the book show it.
fn screenshot() -> Result<()> {
    setup::all()?;
    let dist = build_bundle()?;
    step_with(
        "cargo",
        &[
            "test",
            "--locked",
            "--package",
            "rooflinr-web-e2e",
            "--test",
            "readme",
        ],
        &[
            ("ROOFLINR_WEB_DIST", dist.display().to_string()),
            ("CHROMEDRIVER", "/usr/bin/chromedriver".to_string()),
        ],
    )?;
    let taken = root().join("target/e2e/readme-calculator.png");
    let shown = root().join("docs/book/src/images/calculator.png");
    std::fs::copy(&taken, &shown)
        .with_context(|| format!("cannot copy {} to {}", taken.display(), shown.display()))?;
    println!("wrote {} (commit it)", shown.display());
    Ok(())
}

fn bench() -> Result<()> {
    println!(
        "targets on the 2-core reference machine: DeepSeek-V3 decode analysis < 1 ms per format; 100,000-point GEMM sweep < 20 ms; NVFP4 and MXFP4 quantise-and-pack >= 200 M values/s; a DeepSeek-V3 recommendation < 10 ms; telemetry to 50 clients at 100 Hz <= 5 % of one core"
    );
    // The fan-out bench's second set of clients is Node's `ws`.
    let node_ws = [("ROOFLINR_NODE_WS", setup::node_ws()?.display().to_string())];
    for (package, bench) in [
        ("rooflinr-model", "model"),
        ("rooflinr-model", "quant"),
        ("rooflinr-agent", "telemetry_fanout"),
    ] {
        step_with(
            "cargo",
            &["bench", "--package", package, "--bench", bench, "--locked"],
            &node_ws,
        )?;
    }
    Ok(())
}

fn bench_web() -> Result<()> {
    setup::all()?;
    let dist = build_bundle()?;
    println!(
        "targets on the 2-core reference machine: bundle < 400 KB gzipped; first chart < 1 s; slider recompute and re-render < 16 ms"
    );
    step_with(
        "cargo",
        &[
            "run",
            "--release",
            "--locked",
            "--package",
            "rooflinr-web-e2e",
            "--bin",
            "web-bench",
        ],
        &[
            ("ROOFLINR_WEB_DIST", dist.display().to_string()),
            ("CHROMEDRIVER", "/usr/bin/chromedriver".to_string()),
        ],
    )
}
