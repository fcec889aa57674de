//! Project automation, run as `cargo xtask <command>`:
//!
//! - `setup`: install what the build and the tests need, skipping what is there.
//! - `test`: set up, then every check CI runs (formatting, lints on the host and on
//!   wasm32, the wasm build of the model crate, every test).
//! - `run`: set up, then the main job (until the web calculator lands, a model analysis).
//! - `bench`: the criterion benchmarks, with their targets.

mod setup;

use std::process::Command;

use anyhow::{Context, Result, bail};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::all(),
        Some("test") => test(),
        Some("run") => run(&args[1..]),
        Some("bench") => bench(),
        _ => {
            eprintln!("usage: cargo xtask <setup|test|run|bench>\n");
            eprintln!(
                "  setup   install the wasm target, Trunk, wasm-bindgen, wasm-opt, Chromium (idempotent)"
            );
            eprintln!("  test    set up, then run every check and test CI runs");
            eprintln!("  run     set up, then run the main job");
            eprintln!("  bench   run the benchmarks");
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
    println!("\n==> {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
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
    // The model crate's invariant: it builds, lint-clean, for the browser.
    let wasm = [
        "--package",
        "rooflinr-model",
        "--target",
        "wasm32-unknown-unknown",
        "--locked",
    ];
    step(
        "cargo",
        &[&["clippy"][..], &wasm, &["--", "-D", "warnings"]].concat(),
    )?;
    step("cargo", &[&["build", "--release"][..], &wasm].concat())?;
    step("cargo", &["test", "--workspace", "--locked"])?;
    println!(
        "\nGPU checks: none run here. This build has no GPU code yet (the CUDA backend is its own issue); CI has no GPU."
    );
    Ok(())
}

fn run(extra: &[String]) -> Result<()> {
    setup::all()?;
    // Until the browser calculator exists, the main job is the CLI's whole-model analysis.
    let mut args = vec![
        "run",
        "--release",
        "--locked",
        "--quiet",
        "--package",
        "rooflinr-cli",
        "--",
        "model",
    ];
    let defaults = [
        "--preset",
        "llama-3-8b",
        "--hardware",
        "gb10",
        "--phase",
        "decode",
        "--seq",
        "4096",
        "--weights",
        "nvfp4",
        "--kv",
        "fp8-e4m3",
    ];
    if extra.is_empty() {
        args.extend(defaults);
    } else {
        args.extend(extra.iter().map(String::as_str));
    }
    step("cargo", &args)
}

fn bench() -> Result<()> {
    println!(
        "targets on the 2-core reference machine: DeepSeek-V3 decode analysis < 1 ms per format; 100,000-point GEMM sweep < 20 ms"
    );
    step(
        "cargo",
        &[
            "bench",
            "--package",
            "rooflinr-model",
            "--bench",
            "model",
            "--locked",
        ],
    )
}
