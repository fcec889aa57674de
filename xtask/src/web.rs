//! The calculator's WebAssembly, as Trunk's pre-build hook makes it (`Trunk.toml`): the
//! crate built for wasm32, split at its split points, bound to JavaScript by wasm-bindgen
//! and shrunk by wasm-opt, into `target/web/pkg/`, which `web/index.html` copies into the
//! bundle and loads. Trunk's post-build hook then names the copied folder by its contents
//! ([`name_by_contents`]), so that a browser never mixes files of two builds from its cache.
//!
//! The release build is split: the lab's code (`rooflinr_web::lab::lazy`) goes to a second
//! module that the page fetches on its first use, so the first load carries only the
//! calculator. Splitting needs the linker's relocations (`--emit-relocs`) and happens
//! before wasm-bindgen, which is why Trunk's own Rust pipeline cannot do it. A debug build
//! (`trunk serve`) is one module, unoptimised.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::{root, step};

/// The crate's name, which names its files.
const NAME: &str = "rooflinr-web";

/// Builds the calculator's WebAssembly into `target/web/pkg/`, for Trunk's profile
/// (`TRUNK_PROFILE`: `release`, or anything else for a debug build).
pub fn build() -> Result<()> {
    let release = std::env::var("TRUNK_PROFILE").is_ok_and(|p| p == "release");
    let out = root().join("target/web");
    let pkg = out.join("pkg");
    // Nothing from an earlier build survives: a chunk the page no longer names must not
    // be served.
    if pkg.exists() {
        std::fs::remove_dir_all(&pkg).with_context(|| format!("cannot empty {}", pkg.display()))?;
    }
    std::fs::create_dir_all(&pkg)?;
    let wasm = if release {
        split_release(&out, &pkg)?
    } else {
        cargo_build(&[])?;
        root().join(format!("target/wasm32-unknown-unknown/debug/{NAME}.wasm"))
    };
    let wasm = wasm.display().to_string();
    let pkg_arg = pkg.display().to_string();
    let mut bindgen = vec![
        "--target",
        "web",
        "--no-typescript",
        "--out-name",
        NAME,
        "--out-dir",
        &pkg_arg,
    ];
    if release {
        // The split modules import the main module's functions by their linker names.
        bindgen.extend(["--keep-lld-exports", "--no-demangle"]);
    }
    bindgen.push(&wasm);
    step("wasm-bindgen", &bindgen)?;
    if release {
        for entry in std::fs::read_dir(&pkg)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "wasm") {
                let path = path.display().to_string();
                step("wasm-opt", &["-Oz", &path, "-o", &path])?;
            }
        }
    }
    Ok(())
}

/// `cargo build` of the calculator for wasm32, with `extra` arguments.
fn cargo_build(extra: &[&str]) -> Result<()> {
    let base = [
        "build",
        "--package",
        NAME,
        "--target",
        "wasm32-unknown-unknown",
        "--locked",
    ];
    step("cargo", &[&base[..], extra].concat())
}

/// Builds the release module with its relocations and splits it: the chunks and their
/// loader go to `pkg`, and the main module, for wasm-bindgen, is returned.
fn split_release(out: &Path, pkg: &Path) -> Result<PathBuf> {
    cargo_build(&[
        "--profile",
        "wasm-release",
        "--features",
        "split",
        // Appended to `.cargo/config.toml`'s flags for wasm32 (RUSTFLAGS would replace
        // them).
        "--config",
        r#"target.wasm32-unknown-unknown.rustflags=["-Clink-args=--emit-relocs"]"#,
    ])?;
    let input = root().join(format!(
        "target/wasm32-unknown-unknown/wasm-release/{NAME}.wasm"
    ));
    let input_wasm =
        std::fs::read(&input).with_context(|| format!("cannot read {}", input.display()))?;
    let main = out.join(format!("{NAME}_split.wasm"));
    let main_module = format!("./{NAME}.js");
    println!("\n==> wasm-split {} -> {}", input.display(), pkg.display());
    let split = wasm_split_cli_support::transform({
        let mut options = wasm_split_cli_support::Options::new(&input_wasm);
        options.output_dir = pkg;
        options.main_out_path = &main;
        options.main_module = &main_module;
        options
    })
    .map_err(|e| anyhow::anyhow!("cannot split {}: {e:#}", input.display()))?;
    if split.split_modules.is_empty() {
        bail!(
            "{} has no split points: the `split` feature should make the lab's code one",
            input.display()
        );
    }
    for module in &split.split_modules {
        println!("    split module {}", module.display());
    }
    Ok(main)
}

/// Renames the bundle's `pkg/` (in Trunk's staging folder, `TRUNK_STAGING_DIR`) to
/// `pkg-HASH/`, HASH the first 16 hex digits of the SHA-256 of its files, and points
/// `index.html` at it. The JavaScript and the modules refer to each other by fixed names
/// relative to their folder, so a new folder name per build is what keeps them together.
pub fn name_by_contents() -> Result<()> {
    use sha2::{Digest, Sha256};
    let staging = PathBuf::from(
        std::env::var_os("TRUNK_STAGING_DIR")
            .context("TRUNK_STAGING_DIR is not set: Trunk's post-build hook runs this")?,
    );
    let pkg = staging.join("pkg");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&pkg)
        .with_context(|| format!("cannot read {}", pkg.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    files.sort();
    let mut hasher = Sha256::new();
    for file in &files {
        hasher.update(file.file_name().unwrap_or_default().as_encoded_bytes());
        hasher.update(std::fs::read(file)?);
    }
    let hash: String = hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let folder = format!("pkg-{hash}");
    std::fs::rename(&pkg, staging.join(&folder))?;
    let index = staging.join("index.html");
    let html = std::fs::read_to_string(&index)?;
    if !html.contains("./pkg/") {
        bail!("{} does not load ./pkg/", index.display());
    }
    std::fs::write(&index, html.replace("./pkg/", &format!("./{folder}/")))?;
    println!("==> the bundle's code is in {folder}/");
    Ok(())
}
