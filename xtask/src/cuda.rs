//! `cargo xtask cuda-check`: the GPU kernels verified on a machine without a GPU. The
//! agent compiles every kernel through its own NVRTC path (`rooflinr-agent kernels`) for
//! each architecture the project targets; ptxas assembles each PTX with `-v`; the check
//! fails on a compile error, a register spill or any local memory (a stack frame), and
//! keeps the registers and shared memory of every kernel on every architecture in a
//! checked-in table, so a change that costs registers shows in review.

use std::collections::BTreeMap;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::{root, setup};

/// The architectures checked: Hopper, Blackwell data centre, GB10.
pub const ARCHITECTURES: [&str; 3] = ["sm_90a", "sm_100a", "sm_121a"];

/// The checked-in table.
pub const TABLE: &str = "agent/src/backend/cuda/kernels/registers.md";

/// What ptxas said about one kernel on one architecture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Registers per thread.
    pub registers: u32,
    /// Static shared memory, bytes.
    pub shared: u32,
    /// Stack frame, bytes (local memory).
    pub stack: u32,
    /// Spill stores + loads, bytes.
    pub spills: u32,
}

/// Parses `ptxas -v` output into (kernel, usage) pairs.
pub fn parse_ptxas(text: &str) -> Vec<(String, Usage)> {
    let mut out: Vec<(String, Usage)> = Vec::new();
    let number_before = |line: &str, unit: &str| -> u32 {
        line.split(',')
            .find(|part| part.trim_end().ends_with(unit))
            .and_then(|part| part.split_whitespace().find_map(|w| w.parse().ok()))
            .unwrap_or(0)
    };
    for line in text.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            let name = rest.split('\'').next().unwrap_or_default().to_string();
            out.push((name, Usage::default()));
        } else if let Some((_, usage)) = out.last_mut() {
            if line.contains("bytes stack frame") {
                usage.stack = number_before(line, "bytes stack frame");
                usage.spills = number_before(line, "bytes spill stores")
                    + number_before(line, "bytes spill loads");
            } else if line.contains("Used ") && line.contains(" registers") {
                usage.registers = line
                    .split("Used ")
                    .nth(1)
                    .and_then(|r| r.split_whitespace().next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                usage.shared = number_before(line, "bytes smem");
            }
        }
    }
    out
}

/// The Markdown table: one row per kernel, registers and shared memory per architecture.
pub fn table(usage: &BTreeMap<String, BTreeMap<String, Usage>>) -> String {
    let mut text = String::from(
        "<!-- Written by `cargo xtask cuda-check --bless` from `ptxas -v`; checked by `cargo xtask cuda-check`. -->\n\
         # GPU kernel resources\n\n\
         Registers per thread and static shared memory (bytes) of every kernel, as ptxas\n\
         assembles the PTX that the agent's NVRTC path writes (CUDA 13.0 wheels). No kernel\n\
         spills or uses local memory: the check fails if one does.\n\n| kernel |",
    );
    for arch in ARCHITECTURES {
        text += &format!(" {arch} registers | {arch} smem |");
    }
    text += "\n| --- |";
    text += &" ---: | ---: |".repeat(ARCHITECTURES.len());
    text.push('\n');
    for (kernel, per_arch) in usage {
        text += &format!("| {kernel} |");
        for arch in ARCHITECTURES {
            match per_arch.get(arch) {
                Some(u) => text += &format!(" {} | {} |", u.registers, u.shared),
                None => text += " - | - |",
            }
        }
        text.push('\n');
    }
    text
}

/// Compiles, assembles and checks every kernel; with `bless`, rewrites the table.
pub fn check(bless: bool) -> Result<()> {
    let tools = setup::cuda_tools()?;
    crate::step(
        "cargo",
        &["build", "--package", "rooflinr-agent", "--locked"],
    )?;
    let out = root().join("target/cuda-check");
    let _ = std::fs::remove_dir_all(&out);
    let agent = root().join("target/debug/rooflinr-agent");
    let out_text = out.display().to_string();
    let archs = ARCHITECTURES.join(",");
    crate::step_with(
        &agent.display().to_string(),
        &["kernels", "--arch", &archs, "--out", &out_text],
        &[("LD_LIBRARY_PATH", tools.lib.display().to_string())],
    )
    .context("compiling the kernels with NVRTC")?;
    let mut usage: BTreeMap<String, BTreeMap<String, Usage>> = BTreeMap::new();
    let mut problems = Vec::new();
    for arch in ARCHITECTURES {
        for module in ["gemv", "stream"] {
            let ptx = out.join(format!("{module}.{arch}.ptx"));
            let assembled = Command::new(&tools.ptxas)
                .args([&format!("-arch={arch}"), "-v"])
                .arg(&ptx)
                .args(["-o", "/dev/null"])
                .output()
                .with_context(|| format!("cannot run {}", tools.ptxas.display()))?;
            let log = String::from_utf8_lossy(&assembled.stderr);
            if !assembled.status.success() {
                bail!("ptxas could not assemble {}:\n{log}", ptx.display());
            }
            for (kernel, u) in parse_ptxas(&log) {
                if u.spills > 0 || u.stack > 0 {
                    problems.push(format!(
                        "{kernel} on {arch}: {} bytes spilled, {} bytes of stack (local memory)",
                        u.spills, u.stack
                    ));
                }
                usage.entry(kernel).or_default().insert(arch.to_string(), u);
            }
        }
    }
    if !problems.is_empty() {
        bail!("kernels use local memory:\n  {}", problems.join("\n  "));
    }
    let kernels = usage.len();
    let written = table(&usage);
    let path = root().join(TABLE);
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    if bless {
        std::fs::write(&path, &written)
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("cuda-check: wrote {TABLE}");
    } else if checked_in != written {
        let changed: Vec<String> = written
            .lines()
            .filter(|l| !checked_in.lines().any(|c| c == *l))
            .map(|l| format!("  now: {l}"))
            .collect();
        bail!(
            "the kernels' registers or shared memory changed; review and run `cargo xtask cuda-check --bless`:\n{}",
            changed.join("\n")
        );
    }
    println!(
        "cuda-check: {kernels} kernels compiled by the agent's NVRTC path and assembled by ptxas for {}: no spills, no local memory, {TABLE} up to date",
        ARCHITECTURES.join(", ")
    );
    Ok(())
}

/// The command that runs the device check on a GPU machine from `carry/`: it puts the
/// machine's NVRTC and cuBLASLt (the CUDA toolkit's or PyTorch's wheels) on the loader path.
pub const DEVICE_COMMAND: &str = "LIBS=$(find /usr /opt /root /home -name 'libnvrtc.so.1[23]' -o -name 'libcublasLt.so.1[23]' 2>/dev/null | xargs -r -n1 dirname | sort -u | tr '\\n' ':'); LD_LIBRARY_PATH=$LIBS$LD_LIBRARY_PATH carry/rooflinr-agent gpu-check --max-seconds 0.5 --out ${OUT:-.}/gpu-check";

/// Builds the release agent into `carry/` (ignored by git, carried to the device machine)
/// and prints the device command.
pub fn bundle() -> Result<()> {
    crate::step(
        "cargo",
        &[
            "build",
            "--release",
            "--package",
            "rooflinr-agent",
            "--locked",
        ],
    )?;
    let carry = root().join("carry");
    std::fs::create_dir_all(&carry).context("cannot create carry/")?;
    std::fs::copy(
        root().join("target/release/rooflinr-agent"),
        carry.join("rooflinr-agent"),
    )
    .context("cannot copy the agent into carry/")?;
    println!(
        "\ncarry/rooflinr-agent is ready. On the GPU machine (the device tool with carry [\"carry\"]), run:\n\n    {DEVICE_COMMAND}\n\n(the whole check took 285 s on an H200; add --gemv-only for the GEMV kernels alone, without the GEMMs, torch and telemetry)\n"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptxas_reports_are_read_per_kernel() {
        let log = "ptxas info    : 0 bytes gmem\n\
ptxas info    : Compiling entry function 'rf_a' for 'sm_90a'\n\
ptxas info    : Function properties for rf_a\n\
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
ptxas info    : Used 32 registers, used 0 barriers\n\
ptxas info    : Compiling entry function 'rf_b' for 'sm_90a'\n\
ptxas info    : Function properties for rf_b\n\
    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n\
ptxas info    : Used 255 registers, used 1 barriers, 1024 bytes smem, 380 bytes cmem[0]\n";
        let parsed = parse_ptxas(log);
        assert_eq!(
            parsed,
            [
                (
                    "rf_a".to_string(),
                    Usage {
                        registers: 32,
                        shared: 0,
                        stack: 0,
                        spills: 0
                    }
                ),
                (
                    "rf_b".to_string(),
                    Usage {
                        registers: 255,
                        shared: 1024,
                        stack: 16,
                        spills: 12
                    }
                ),
            ]
        );
    }
}
