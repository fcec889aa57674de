//! `rooflinr validate --tables DIR`: predictions held against NVIDIA's measured GEMM
//! kernel tables (the `aiconfigurator-core` wheel's `systems/data`, Apache-2.0: parquet
//! files `<system>/gemm/<framework>/<version>/gemm_perf.parquet` with `m, n, k`,
//! `gemm_dtype` and `latency` in milliseconds, measured with TensorRT-LLM, vLLM and SGLang
//! kernels on real H100, H200, B200, GB200, A100 and L40S machines).
//!
//! Every row is predicted twice: by the datasheet roofline (the bound) and by the roofline
//! with fitted kernel terms ([`rooflinr_model::kernel_time`]: a fixed time per kernel and
//! the achievable fractions of bandwidth and peak, with the tile efficiency computed). The terms are fitted per device and dtype and always
//! judged on rows they were not fitted on: half of the shapes held out (by a hash of
//! m, n, k), and the other frameworks' tables when fitted on TensorRT-LLM's.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use rooflinr_model::format::{Format, product_is_block_scaled, product_math};
use rooflinr_model::hardware::{Hardware, registry};
use rooflinr_model::kernel_time::{self, GemmTimes, KernelTerms, Regime};
use rooflinr_model::ops::{Op, Precision};
use rooflinr_model::roofline::{Efficiency, Roof};
use serde::Serialize;

/// Arguments of `rooflinr validate`.
#[derive(clap::Args)]
pub struct Args {
    /// The tables: the wheel's `systems/data` folder (`cargo xtask setup` puts it in
    /// `~/.cache/rooflinr/aiconfigurator-core-0.12.0/systems/data`).
    #[arg(long, value_name = "DIR")]
    tables: PathBuf,
    /// Stable JSON instead of tables.
    #[arg(long)]
    json: bool,
}

/// The framework the terms are fitted on when a table has it.
const FIT_FRAMEWORK: &str = "TRTLLM";

/// One measured GEMM.
#[derive(Clone, Debug)]
struct Row {
    system: String,
    /// The GPU as the table names it (`NVIDIA H100 80GB HBM3`).
    device: String,
    framework: String,
    dtype: String,
    m: u64,
    n: u64,
    k: u64,
    measured_s: f64,
}

/// The formats of a table dtype: (activations, weights). `fp8_block` is FP8 with a scale
/// per 128 x 128 block (DeepSeek-V3's recipe), counted as FP8: its scales are 1/16384 of
/// the weights. `int8_wo` is weight-only INT8 with 16-bit activations.
fn formats(dtype: &str) -> Option<(Format, Format)> {
    Some(match dtype {
        "bfloat16" => (Format::Bf16, Format::Bf16),
        "float16" => (Format::Fp16, Format::Fp16),
        "fp8" | "fp8_block" => (Format::Fp8E4m3, Format::Fp8E4m3),
        "nvfp4" => (Format::NvFp4, Format::NvFp4),
        "int8_wo" => (Format::Bf16, Format::Int8),
        _ => return None,
    })
}

/// A row's datasheet times on `hw`: bytes (inputs in their formats, a BF16 output) over
/// the bandwidth; FLOPs over the product's peak and the best tile plan's efficiency.
fn times(row: &Row, hw: &Hardware) -> Option<GemmTimes> {
    let (activations, weights) = formats(&row.dtype)?;
    let cost = Op::Gemm {
        m: row.m as f64,
        n: row.n as f64,
        k: row.k as f64,
        bias: false,
    }
    .cost(&Precision {
        activations,
        weights,
        kv: Format::Bf16,
        output: Format::Bf16,
    });
    let ceiling = hw.ceiling(
        product_math(activations, weights),
        product_is_block_scaled(activations, weights),
    );
    let roof = Roof::new(hw, &ceiling, &Efficiency::IDEAL);
    let p = roof.predict(cost.work);
    let sms = hw.sm_count.as_ref().map_or(0, |f| f.value);
    Some(GemmTimes::of(
        &p,
        (row.m, row.n, row.k),
        activations,
        roof.bandwidth.get(),
        sms,
    ))
}

/// Reads every `gemm_perf.parquet` under `dir`.
fn read_tables(dir: &Path) -> Result<Vec<Row>> {
    let mut files = Vec::new();
    find(dir, &mut files)?;
    if files.is_empty() {
        bail!(
            "no gemm_perf.parquet under {} (expected <system>/gemm/<framework>/<version>/gemm_perf.parquet; `cargo xtask setup` unpacks them)",
            dir.display()
        );
    }
    files.sort();
    let mut rows = Vec::new();
    for path in files {
        let system = path
            .strip_prefix(dir)
            .ok()
            .and_then(|p| p.components().next())
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .unwrap_or_default();
        let file = File::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
        let reader = SerializedFileReader::new(file)
            .with_context(|| format!("{} is not a parquet file", path.display()))?;
        for record in reader.get_row_iter(None)? {
            let record = record.with_context(|| format!("in {}", path.display()))?;
            let mut row = Row {
                system: system.clone(),
                device: String::new(),
                framework: String::new(),
                dtype: String::new(),
                m: 0,
                n: 0,
                k: 0,
                measured_s: f64::NAN,
            };
            for (name, field) in record.get_column_iter() {
                let whole = || match field {
                    Field::Long(v) => u64::try_from(*v).ok(),
                    Field::Int(v) => u64::try_from(*v).ok(),
                    _ => None,
                };
                match (name.as_str(), field) {
                    ("framework", Field::Str(s)) => row.framework.clone_from(s),
                    ("device", Field::Str(s)) => row.device.clone_from(s),
                    ("gemm_dtype", Field::Str(s)) => row.dtype.clone_from(s),
                    ("m", _) => row.m = whole().unwrap_or(0),
                    ("n", _) => row.n = whole().unwrap_or(0),
                    ("k", _) => row.k = whole().unwrap_or(0),
                    ("latency", Field::Double(ms)) => row.measured_s = ms / 1e3,
                    ("latency", Field::Float(ms)) => row.measured_s = f64::from(*ms) / 1e3,
                    _ => {}
                }
            }
            if row.m > 0 && row.n > 0 && row.k > 0 && row.measured_s > 0.0 {
                rows.push(row);
            }
        }
    }
    Ok(rows)
}

fn find(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            find(&path, out)?;
        } else if path.file_name().is_some_and(|n| n == "gemm_perf.parquet") {
            out.push(path);
        }
    }
    Ok(())
}

/// Whether a shape is in the fitting half (a fixed hash of m, n, k).
fn fitting_half(m: u64, n: u64, k: u64) -> bool {
    let h = m
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(n.wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
        .wrapping_add(k.wrapping_mul(0x1656_67b1_9e37_79f9));
    (h >> 32) & 1 == 0
}

/// Error figures of predictions against measurements, |pred / measured - 1|.
#[derive(Clone, Debug, Default, Serialize)]
struct Errors {
    rows: usize,
    median: f64,
    p90: f64,
    worst: f64,
    /// The worst shape, `m x n x k`.
    worst_shape: String,
}

fn errors(errs: &mut [(f64, String)]) -> Errors {
    if errs.is_empty() {
        return Errors::default();
    }
    errs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let at = |q: f64| errs[((errs.len() - 1) as f64 * q).round() as usize].0;
    Errors {
        rows: errs.len(),
        median: at(0.5),
        p90: at(0.9),
        worst: errs[errs.len() - 1].0,
        worst_shape: errs[errs.len() - 1].1.clone(),
    }
}

/// One device and dtype's fit and held-out errors.
#[derive(Clone, Debug, Serialize)]
struct Group {
    system: String,
    hardware: &'static str,
    dtype: String,
    fitted_on: String,
    fixed_us: f64,
    bandwidth_fraction: f64,
    compute_fraction: f64,
    /// Held-out shapes of the fitting framework, by the calibrated regime.
    held_out_shapes: Vec<(String, Errors, Errors)>,
    /// Every other framework's rows: (framework, datasheet, calibrated).
    other_frameworks: Vec<(String, Errors, Errors)>,
    /// Whether the model crate ships these terms: `matches`, `differs ...`, or `none`.
    shipped: String,
}

/// The validation of every table.
#[derive(Clone, Debug, Serialize)]
struct Validation {
    rows: usize,
    seconds: f64,
    groups: Vec<Group>,
    skipped: Vec<String>,
}

fn validate(rows: &[Row]) -> Validation {
    let began = Instant::now();
    let mut by_group: BTreeMap<(String, String), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by_group
            .entry((r.system.clone(), r.dtype.clone()))
            .or_default()
            .push(r);
    }
    let mut skipped = Vec::new();
    let mut groups = Vec::new();
    for ((system, dtype), members) in by_group {
        // The registry's own matching of device names, as for the agent and ncu files.
        let device = members.first().map_or("", |r| r.device.as_str());
        let Some(key) = registry::key_for_device(device, None) else {
            skipped.push(format!(
                "{system} {dtype}: the registry does not list {device} ({} rows)",
                members.len()
            ));
            continue;
        };
        let Ok(hw) = registry::get(key) else { continue };
        if formats(&dtype).is_none() {
            skipped.push(format!(
                "{system} {dtype}: no format for this dtype ({} rows)",
                members.len()
            ));
            continue;
        }
        let predicted: Vec<(&Row, GemmTimes)> = members
            .iter()
            .filter_map(|r| Some((*r, times(r, &hw)?)))
            .collect();
        let mut frameworks: Vec<&str> = predicted
            .iter()
            .map(|(r, _)| r.framework.as_str())
            .collect();
        frameworks.sort_unstable();
        frameworks.dedup();
        let fit_framework = if frameworks.contains(&FIT_FRAMEWORK) {
            FIT_FRAMEWORK.to_string()
        } else {
            frameworks
                .first()
                .map_or_else(String::new, |f| f.to_string())
        };
        let fitting: Vec<(GemmTimes, f64)> = predicted
            .iter()
            .filter(|(r, _)| r.framework == fit_framework && fitting_half(r.m, r.n, r.k))
            .map(|(r, t)| (*t, r.measured_s))
            .collect();
        let terms = KernelTerms::fit(&fitting);
        let shape = |r: &Row| format!("{}x{}x{}", r.m, r.n, r.k);
        let judge = |held: &[&(&Row, GemmTimes)]| {
            let mut datasheet: Vec<(f64, String)> = held
                .iter()
                .map(|(r, t)| ((t.bound_s() / r.measured_s - 1.0).abs(), shape(r)))
                .collect();
            let mut calibrated: Vec<(f64, String)> = held
                .iter()
                .map(|(r, t)| ((terms.predict(*t) / r.measured_s - 1.0).abs(), shape(r)))
                .collect();
            (errors(&mut datasheet), errors(&mut calibrated))
        };
        let held_out: Vec<&(&Row, GemmTimes)> = predicted
            .iter()
            .filter(|(r, _)| r.framework == fit_framework && !fitting_half(r.m, r.n, r.k))
            .collect();
        let mut held_out_shapes = Vec::new();
        let (d, c) = judge(&held_out);
        held_out_shapes.push(("all".to_string(), d, c));
        for regime in [Regime::Memory, Regime::Compute, Regime::Fixed] {
            let part: Vec<&(&Row, GemmTimes)> = held_out
                .iter()
                .copied()
                .filter(|(_, t)| terms.regime(*t) == regime)
                .collect();
            if !part.is_empty() {
                let (d, c) = judge(&part);
                held_out_shapes.push((regime.name().to_string(), d, c));
            }
        }
        let other_frameworks = frameworks
            .iter()
            .filter(|f| **f != fit_framework)
            .map(|f| {
                let part: Vec<&(&Row, GemmTimes)> = predicted
                    .iter()
                    .filter(|(r, _)| r.framework == *f)
                    .collect();
                let (d, c) = judge(&part);
                (f.to_string(), d, c)
            })
            .collect();
        // FP8 with 128 x 128 block scales reads as FP8 in the catalogue, whose profile is
        // per-tensor FP8's: it has none of its own.
        let profiled = formats(&dtype)
            .filter(|_| dtype != "fp8_block")
            .and_then(|(a, w)| kernel_time::profile(key, a, w));
        let shipped = match profiled {
            None => "none".to_string(),
            Some(p) => {
                let close = |a: f64, b: f64| (a - b).abs() <= 0.01 * b.abs().max(1e-12);
                if close(p.terms.fixed_s, terms.fixed_s)
                    && close(p.terms.bandwidth, terms.bandwidth)
                    && close(p.terms.compute, terms.compute)
                {
                    "matches".to_string()
                } else {
                    format!(
                        "differs (shipped {:.1} us, {}, {}): update kernel_time::PROFILES",
                        p.terms.fixed_s * 1e6,
                        pct(p.terms.bandwidth),
                        pct(p.terms.compute)
                    )
                }
            }
        };
        groups.push(Group {
            shipped,
            system,
            hardware: key,
            dtype,
            fitted_on: format!("{fit_framework}, {} shapes", fitting.len()),
            fixed_us: terms.fixed_s * 1e6,
            bandwidth_fraction: terms.bandwidth,
            compute_fraction: terms.compute,
            held_out_shapes,
            other_frameworks,
        });
    }
    Validation {
        rows: rows.len(),
        seconds: began.elapsed().as_secs_f64(),
        groups,
        skipped,
    }
}

fn pct(v: f64) -> String {
    format!("{:.0}%", v * 100.0)
}

fn markdown(v: &Validation) -> String {
    let mut out = String::from(
        "# GEMM predictions against NVIDIA's measured kernel tables\n\nError = |predicted / measured - 1| on rows the terms were not fitted on. Datasheet: the roofline bound. Calibrated: the bound with the fitted kernel terms (fixed time, bandwidth and compute fractions; tile efficiency computed).\n\n## Held-out shapes (same framework as the fit)\n\n| device | dtype | regime | rows | datasheet median | p90 | calibrated median | p90 | worst | worst shape |\n| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
    );
    for g in &v.groups {
        for (regime, d, c) in &g.held_out_shapes {
            let _ = writeln!(
                out,
                "| {} | {} | {regime} | {} | {} | {} | {} | {} | {} | {} |",
                g.hardware,
                g.dtype,
                c.rows,
                pct(d.median),
                pct(d.p90),
                pct(c.median),
                pct(c.p90),
                pct(c.worst),
                c.worst_shape
            );
        }
    }
    out += "\n## Other frameworks (terms fitted on the first framework's shapes)\n\n| device | dtype | framework | rows | datasheet median | p90 | calibrated median | p90 |\n| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n";
    for g in &v.groups {
        for (framework, d, c) in &g.other_frameworks {
            let _ = writeln!(
                out,
                "| {} | {} | {framework} | {} | {} | {} | {} | {} |",
                g.hardware,
                g.dtype,
                c.rows,
                pct(d.median),
                pct(d.p90),
                pct(c.median),
                pct(c.p90)
            );
        }
    }
    out += "\n## Fitted terms\n\n| device | dtype | fitted on | fixed time | bandwidth reached | peak reached on full tiles | shipped profile |\n| --- | --- | --- | ---: | ---: | ---: | --- |\n";
    for g in &v.groups {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.1} us | {} | {} | {} |",
            g.hardware,
            g.dtype,
            g.fitted_on,
            g.fixed_us,
            pct(g.bandwidth_fraction),
            pct(g.compute_fraction),
            g.shipped
        );
    }
    for s in &v.skipped {
        let _ = writeln!(out, "\nskipped: {s}");
    }
    let _ = writeln!(out, "\n{} rows validated in {:.2} s.", v.rows, v.seconds);
    out
}

/// Reads the tables, validates, prints.
pub fn run(args: Args) -> Result<()> {
    let rows = read_tables(&args.tables)?;
    let v = validate(&rows);
    if args.json {
        super::print_json(&v)?;
    } else {
        print!("{}", markdown(&v));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(dtype: &str, m: u64, n: u64, k: u64, measured_s: f64) -> Row {
        Row {
            system: "h100_sxm".into(),
            device: "NVIDIA H100 80GB HBM3".into(),
            framework: FIT_FRAMEWORK.into(),
            dtype: dtype.into(),
            m,
            n,
            k,
            measured_s,
        }
    }

    #[test]
    fn tables_map_to_registry_devices_and_formats() {
        // The device names the tables hold, matched by the registry's one rule.
        for (device, key) in [
            ("NVIDIA A100-SXM4-80GB", Some("a100-sxm")),
            ("NVIDIA H100 80GB HBM3", Some("h100-sxm")),
            ("NVIDIA H200", Some("h200")),
            ("NVIDIA B200", Some("b200")),
            ("NVIDIA GB200", Some("gb200")),
            ("NVIDIA L40S", Some("l40s")),
            ("NVIDIA B300 SXM6 AC", None),
            ("NVIDIA GB300", None),
        ] {
            assert_eq!(registry::key_for_device(device, None), key, "{device}");
        }
        assert_eq!(formats("int8_wo"), Some((Format::Bf16, Format::Int8)));
        assert_eq!(formats("mxfp6"), None);
    }

    #[test]
    fn the_datasheet_times_are_the_roofline_of_the_gemm() {
        let hw = registry::get("h100-sxm").unwrap();
        // 8192^3 BF16: compute-bound; 2 x 8192^3 FLOPs over the dense BF16 peak, over the
        // tile efficiency (4096 tiles are 31.03 waves on 132 SMs).
        let t = times(&row("bfloat16", 8192, 8192, 8192, 1e-3), &hw).unwrap();
        let peak = hw
            .ceiling(rooflinr_model::format::Math::Bf16, false)
            .peak
            .get();
        let bare = 2.0 * 8192f64.powi(3) / peak;
        assert!(t.compute_s >= bare && t.compute_s < bare * 1.2, "{t:?}");
        assert!(t.memory_s < t.compute_s);
        // A GEMV-shaped row is memory-bound: 8192 x 8192 BF16 weights over the bandwidth.
        let g = times(&row("bfloat16", 1, 8192, 8192, 1e-4), &hw).unwrap();
        let bytes = 8192.0 * 8192.0 * 2.0;
        let bw = hw.memory_bandwidth.value.get();
        assert!(g.memory_s > bytes / bw && g.memory_s < bytes / bw * 1.01);
    }

    #[test]
    fn held_out_rows_are_judged_by_terms_fitted_without_them() {
        let hw = registry::get("h100-sxm").unwrap();
        // Rows made by known terms: the calibrated error on held-out shapes is small,
        // the datasheet's is what the terms add.
        let truth = KernelTerms {
            fixed_s: 5e-6,
            bandwidth: 0.8,
            compute: 0.7,
        };
        let mut rows = Vec::new();
        for m in [1u64, 8, 64, 512, 4096] {
            for n in [1024u64, 4096, 8192, 16384] {
                for k in [1024u64, 4096, 8192] {
                    let mut r = row("bfloat16", m, n, k, 0.0);
                    r.measured_s = truth.predict(times(&r, &hw).unwrap());
                    rows.push(r);
                }
            }
        }
        let v = validate(&rows);
        let g = &v.groups[0];
        let (_, datasheet, calibrated) = &g.held_out_shapes[0];
        assert!(calibrated.rows > 10 && calibrated.rows < rows.len());
        assert!(calibrated.median < 0.02, "{calibrated:?}");
        assert!(datasheet.median > 0.15, "{datasheet:?}");
        assert!((g.fixed_us - 5.0).abs() < 0.5, "{g:?}");
        let md = markdown(&v);
        assert!(md.contains("| h100-sxm | bfloat16 | all |"), "{md}");
    }
}
