//! Idempotent installation of the toolchain: each step checks what is
//! installed, installs only what is missing or at the wrong version, and says what it did.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::{root, step};

const TRUNK_VERSION: &str = "0.21.14";
const BINARYEN_VERSION: &str = "132";
/// mdBook, which builds the book (`cargo xtask docs`); only its search feature (no
/// live-reload server).
const MDBOOK_VERSION: &str = "0.5.4";

/// The CUDA wheels the kernel checks use (PyPI), pinned to CUDA 13.0: the lent GPU
/// machines run driver 580 (CUDA 13.0), and PTX from a newer NVRTC would not load there.
/// NVRTC compiles; the nvcc wheel brings ptxas. No header wheel: the kernels include no
/// CUDA header (their decoding header is self-contained).
pub const CUDA_WHEELS: [(&str, &str); 2] = [
    ("nvidia-cuda-nvrtc", "13.0.88"),
    ("nvidia-cuda-nvcc", "13.0.88"),
];

/// Installs everything; prints one line per tool.
pub fn all() -> Result<()> {
    println!("==> set-up (skips what is installed)");
    rust_targets()?;
    trunk()?;
    mdbook()?;
    wasm_bindgen()?;
    wasm_opt()?;
    chromium()?;
    axe_core()?;
    cuda_tools()?;
    kernel_tables()?;
    Ok(())
}

/// NVIDIA's measured kernel tables: the `aiconfigurator-core` wheel (PyPI, Apache-2.0).
pub const KERNEL_TABLES_WHEEL: (&str, &str) = ("aiconfigurator-core", "0.12.0");

fn cache_dir() -> Result<PathBuf> {
    let home = std::env::var_os("HOME").context("HOME is not set")?;
    Ok(std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(home).join(".cache"))
        .join("rooflinr"))
}

/// The tables `rooflinr validate` reads from NVIDIA's measured kernel data, unpacked into
/// the cache (the wheel is downloaded with pip, 82 MB; only the GEMM, context and
/// generation attention, MLA, MoE and NCCL tables of `systems/data` are kept, about 60 MB,
/// and the measured serving sample `systems/silicon_sample.csv`, 2 MB).
/// Returns the `systems/data` folder `rooflinr validate --tables` reads; the sample is
/// [`serving_sample`].
pub fn kernel_tables() -> Result<PathBuf> {
    let (name, version) = KERNEL_TABLES_WHEEL;
    let root = cache_dir()?.join(format!("{name}-{version}"));
    let data = root.join("aiconfigurator_core/systems/data");
    // The marker names what was unpacked, so a cache from before a kind of table was read
    // is unpacked again.
    let done = root.join("unpacked-gemm-attention-moe-nccl-mla-serving");
    if done.is_file() {
        ok(
            "kernel tables and serving sample (aiconfigurator-core GEMM, attention, MLA, MoE, NCCL, silicon_sample.csv)",
            version,
        );
        return Ok(data);
    }
    println!(
        "    fetching {name} {version} (82 MB) for its measured GEMM, attention, MLA, MoE and NCCL tables and serving sample"
    );
    let wheels = root.join("wheel");
    let wheels_text = wheels.display().to_string();
    step(
        "python3",
        &[
            "-m",
            "pip",
            "download",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            &format!("{name}=={version}"),
            "-d",
            &wheels_text,
        ],
    )
    .context("download the kernel tables' wheel with pip")?;
    let unpack = r#"
import pathlib, sys, zipfile
root = pathlib.Path(sys.argv[1])
for wheel in (root / "wheel").glob("*.whl"):
    with zipfile.ZipFile(wheel) as z:
        for n in z.namelist():
            gemm = "/gemm/" in n and n.endswith("/gemm_perf.parquet")
            attention = "/attention/" in n and n.endswith(
                ("/context_attention_perf.parquet", "/generation_attention_perf.parquet"))
            moe = "/moe/" in n and n.endswith("/moe_perf.parquet")
            nccl = "/comm/nccl/" in n and n.endswith("/nccl_perf.parquet")
            mla = "/mla/" in n and n.endswith(
                ("/context_mla_perf.parquet", "/generation_mla_perf.parquet"))
            serving = n.endswith("/systems/silicon_sample.csv")
            if serving or ("/systems/data/" in n and (gemm or attention or moe or nccl or mla)):
                z.extract(n, root)
"#;
    let root_text = root.display().to_string();
    step("python3", &["-c", unpack, &root_text]).context("unpack the kernel tables")?;
    std::fs::remove_dir_all(&wheels).ok();
    std::fs::write(
        &done,
        "GEMM, attention, MLA, MoE and NCCL tables and the serving sample unpacked\n",
    )
    .context("cannot mark the tables unpacked")?;
    Ok(data)
}

/// NVIDIA's measured serving sample (`systems/silicon_sample.csv` of the same wheel),
/// unpacked with the kernel tables.
pub fn serving_sample() -> Result<PathBuf> {
    let data = kernel_tables()?;
    let sample = data
        .parent()
        .map(|systems| systems.join("silicon_sample.csv"))
        .context("the kernel tables' folder has no parent")?;
    if !sample.is_file() {
        anyhow::bail!(
            "{} is missing: remove {} and run `cargo xtask setup` again",
            sample.display(),
            data.display()
        );
    }
    Ok(sample)
}

/// Where the CUDA wheels' tools are.
pub struct CudaTools {
    /// The folder holding `libnvrtc.so.13` (for LD_LIBRARY_PATH).
    pub lib: PathBuf,
    /// `ptxas`.
    pub ptxas: PathBuf,
}

/// The CUDA wheels in the user's cache (`~/.cache/rooflinr/cuda-13.0.88`), installed with
/// pip when missing (about 150 MB to download, 330 MB unpacked).
pub fn cuda_tools() -> Result<CudaTools> {
    let dir = cache_dir()?.join(format!("cuda-{}", CUDA_WHEELS[0].1));
    let cu13 = dir.join("nvidia/cu13");
    let tools = CudaTools {
        lib: cu13.join("lib"),
        ptxas: cu13.join("bin/ptxas"),
    };
    let installed = |(name, version): &(&str, &str)| {
        dir.join(format!("{}-{version}.dist-info", name.replace('-', "_")))
            .is_dir()
    };
    if CUDA_WHEELS.iter().all(installed)
        && tools.lib.join("libnvrtc.so.13").is_file()
        && tools.ptxas.is_file()
    {
        ok("cuda wheels (nvrtc, ptxas)", CUDA_WHEELS[0].1);
        return Ok(tools);
    }
    println!(
        "    installing the CUDA {} wheels (NVRTC, ptxas) into {}",
        CUDA_WHEELS[0].1,
        dir.display()
    );
    let pins: Vec<String> = CUDA_WHEELS
        .iter()
        .map(|(n, v)| format!("{n}=={v}"))
        .collect();
    let target = dir.display().to_string();
    let mut args = vec![
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        "--upgrade",
        "--target",
        &target,
    ];
    args.extend(pins.iter().map(String::as_str));
    step("python3", &args).context(
        "install the CUDA wheels with pip (python3 -m pip install --target DIR nvidia-cuda-nvrtc nvidia-cuda-nvcc)",
    )?;
    if !tools.ptxas.is_file() {
        bail!("the nvcc wheel did not bring {}", tools.ptxas.display());
    }
    Ok(tools)
}

/// The first line a command prints, if it runs at all.
fn version_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    text.lines().next().map(|l| l.trim().to_string())
}

fn ok(what: &str, version: &str) {
    println!("    ok: {what} ({version})");
}

/// Keeps `tool` if `version_of(program --version)` passes `wanted`, else runs `install`.
fn ensure(
    tool: &str,
    program: &str,
    wanted: impl Fn(&str) -> bool,
    note: &str,
    install: impl FnOnce() -> Result<()>,
) -> Result<()> {
    match version_of(program, &["--version"]) {
        Some(v) if wanted(&v) => {
            ok(tool, &v);
            Ok(())
        }
        found => {
            println!(
                "    installing {tool} (found: {}; {note})",
                found.unwrap_or_else(|| "none".into())
            );
            install()
        }
    }
}

/// Targets the project builds for besides the host: the calculator's WebAssembly, and
/// aarch64 Linux, for which the agent is checked (GB10's and Grace's CPUs).
const TARGETS: [&str; 2] = ["wasm32-unknown-unknown", AARCH64];

/// The aarch64 target the agent is linted for.
pub const AARCH64: &str = "aarch64-unknown-linux-gnu";

fn rust_targets() -> Result<()> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .current_dir(root())
        .output()
        .context("cannot run rustup")?;
    let installed = String::from_utf8_lossy(&installed.stdout).into_owned();
    for target in TARGETS {
        if installed.lines().any(|l| l.trim() == target) {
            ok(&format!("{target} target"), "installed");
        } else {
            step("rustup", &["target", "add", target])?;
        }
    }
    Ok(())
}

fn trunk() -> Result<()> {
    ensure(
        "trunk",
        "trunk",
        |v| v.ends_with(TRUNK_VERSION),
        "about 9 minutes on 2 cores",
        || {
            step(
                "cargo",
                &["install", "--locked", "trunk", "--version", TRUNK_VERSION],
            )
        },
    )
}

/// mdBook, for the book (`cargo xtask docs`).
pub fn mdbook() -> Result<()> {
    ensure(
        "mdbook",
        "mdbook",
        |v| v.ends_with(MDBOOK_VERSION),
        "about 5 minutes on 2 cores",
        || {
            step(
                "cargo",
                &[
                    "install",
                    "--locked",
                    "mdbook",
                    "--version",
                    MDBOOK_VERSION,
                    "--no-default-features",
                    "--features",
                    "search",
                ],
            )
        },
    )
}

/// The wasm-bindgen version the CLI must match: Cargo.lock's, or Trunk.toml's pin while no
/// crate depends on wasm-bindgen yet. The two must agree when both exist.
pub fn wasm_bindgen_version() -> Result<String> {
    let trunk_toml =
        std::fs::read_to_string(root().join("Trunk.toml")).context("cannot read Trunk.toml")?;
    let pinned = trunk_toml
        .lines()
        .find_map(|l| l.trim().strip_prefix("wasm_bindgen"))
        .and_then(|rest| rest.split('"').nth(1))
        .map(str::to_string)
        .context("Trunk.toml has no [tools] wasm_bindgen pin")?;
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).unwrap_or_default();
    let mut lines = lock.lines();
    let locked = loop {
        match lines.next() {
            None => break None,
            Some("name = \"wasm-bindgen\"") => {
                break lines
                    .next()
                    .and_then(|l| l.strip_prefix("version = \""))
                    .map(|v| v.trim_end_matches('"').to_string());
            }
            Some(_) => {}
        }
    };
    match locked {
        Some(v) if v != pinned => {
            bail!("Cargo.lock has wasm-bindgen {v} but Trunk.toml pins {pinned}: make them equal")
        }
        _ => Ok(pinned),
    }
}

fn wasm_bindgen() -> Result<()> {
    let want = wasm_bindgen_version()?;
    ensure(
        "wasm-bindgen",
        "wasm-bindgen",
        |v| v.ends_with(&want),
        "about 3 minutes",
        || {
            // No --locked: the published lockfile of wasm-bindgen-cli names a crate version
            // the registry mirror lacks, so the build resolves its own.
            step(
                "cargo",
                &["install", "wasm-bindgen-cli", "--version", &want],
            )
        },
    )
}

fn wasm_opt() -> Result<()> {
    let wanted = format!("version {BINARYEN_VERSION}");
    ensure(
        "wasm-opt",
        "wasm-opt",
        |v| v.contains(&wanted),
        "binaryen from npm, seconds",
        || {
            step(
                "npm",
                &["install", "-g", &format!("binaryen@{BINARYEN_VERSION}")],
            )
        },
    )
}

fn chromium() -> Result<()> {
    let browser = version_of("/usr/bin/chromium", &["--version"]);
    let driver = version_of("/usr/bin/chromedriver", &["--version"]);
    if let (Some(b), Some(d)) = (&browser, &driver) {
        ok("chromium", b);
        ok("chromedriver", d);
        return Ok(());
    }
    println!("    installing chromium and chromium-driver from Debian (about 1 minute)");
    let root_user = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    // Through `env` so that apt never prompts (CI has no terminal); under sudo when not root.
    let apt = vec!["DEBIAN_FRONTEND=noninteractive", "apt-get"];
    let (program, prefix): (&str, Vec<&str>) = if root_user {
        ("env", apt)
    } else {
        ("sudo", [vec!["env"], apt].concat())
    };
    let with = |args: &[&'static str]| [prefix.clone(), args.to_vec()].concat();
    step(program, &with(&["update"]))?;
    step(
        program,
        &with(&["install", "-y", "chromium", "chromium-driver"]),
    )
    .context("install Chromium and its driver (Debian packages chromium, chromium-driver)")
}

/// Node's `ws` (npm, MIT), the WebSocket client the telemetry fan-out bench runs as clients
/// no one here wrote, pinned.
pub const NODE_WS_VERSION: &str = "8.23.1";

/// Installs `ws` into the tool cache with npm (once); returns its `node_modules` folder.
pub fn node_ws() -> Result<PathBuf> {
    Ok(npm_package("ws", NODE_WS_VERSION)?.join("node_modules"))
}

/// Installs npm's `package` at `version` into its own folder of the tool cache (once);
/// returns that folder (its `node_modules/PACKAGE` holds the package).
fn npm_package(package: &str, version: &str) -> Result<PathBuf> {
    let prefix = cache_dir()?.join(format!("{package}-{version}"));
    if prefix
        .join("node_modules")
        .join(package)
        .join("package.json")
        .is_file()
    {
        ok(package, version);
        return Ok(prefix);
    }
    println!("    installing {package} {version} from npm (a few seconds)");
    std::fs::create_dir_all(&prefix)?;
    let prefix_text = prefix.display().to_string();
    step(
        "npm",
        &[
            "install",
            "--no-audit",
            "--no-fund",
            "--prefix",
            &prefix_text,
            &format!("{package}@{version}"),
        ],
    )
    .with_context(|| format!("install {package} from npm"))?;
    Ok(prefix)
}

/// axe-core, the accessibility rules engine (npm, MPL-2.0) the end-to-end test runs inside
/// Chromium, pinned.
pub const AXE_CORE_VERSION: &str = "4.11.0";

/// Installs axe-core into the tool cache with npm (once); returns the path of `axe.min.js`.
pub fn axe_core() -> Result<PathBuf> {
    Ok(npm_package("axe-core", AXE_CORE_VERSION)?.join("node_modules/axe-core/axe.min.js"))
}
