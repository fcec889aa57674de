//! `rooflinr-agent gpu-check`: the whole device run in one command, for a session that has
//! a GPU for a few minutes. The probe; every GEMV kernel's correctness in every format on
//! odd shapes (tails, rows starting mid-byte, K not a multiple of the group) and aligned
//! ones; the ceilings (read, copy, triad, cuBLASLt peaks); GEMV per format at the sizes
//! decode meets; `torch.matmul` beside cuBLASLt when a Python with torch is there; the
//! comparison with the roofline (measured ceilings, datasheet and leave-one-out
//! calibrated); and NVML telemetry. Every timed result goes to `gpu-check.jsonl` (the
//! agent's JSONL, so `rooflinr report --input` reads it), the correctness runs to
//! `gpu-check-correctness.jsonl`, telemetry to `telemetry.jsonl`, and a Markdown summary
//! to `summary.md`, printed at the end.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::registry;
use rooflinr_model::kernel_time;
use rooflinr_model::ops::{Op, Precision};
use rooflinr_model::roofline::Efficiency;
use rooflinr_model::units::si;
use rooflinr_protocol::{
    JobId, JobResult, Measurement, MeasurementKind, OperatorShape, ServerMessage,
};
use rooflinr_report::calibrate;
use rooflinr_report::kernel::{KernelPoint, MeasuredCeilings};

use crate::backend::cuda::CudaBackend;
use crate::backend::{Backend, MeasureError, Work};
use crate::jobs::store::Store;
use crate::jobs::{ceiling_items, compare_with_ceilings};
use crate::stats::StopRule;
use crate::telemetry::nvml::Gpus;

/// Shapes whose results are checked but whose times are not the point: rows that start
/// mid-byte (odd k), tails of every block size, k not a multiple of the INT4 group, the
/// 16-byte kernels at several batches (k not a whole tensor-core tile), and the
/// tensor-core kernels with a last block of rows partly empty.
pub const CORRECTNESS_SHAPES: [(u64, u64, u64); 6] = [
    (1, 4097, 4111),
    (3, 4097, 4111),
    (8, 1031, 4128),
    (5, 333, 4160),
    (2, 4096, 4096),
    (7, 333, 4096),
];

/// GEMV sizes timed per format: a 7B projection, a 70B projection, and Llama-3-70B's
/// down projection (n = 8192 outputs over k = 28672) and up projection (28672 over 8192,
/// where the tensor-core kernels take one warp a block).
pub const GEMV_SHAPES: [(u64, u64, u64); 4] = [
    (1, 4096, 4096),
    (1, 8192, 8192),
    (1, 8192, 28672),
    (1, 28672, 8192),
];

/// Batches timed at 8192 x 8192.
pub const BATCHES: [u64; 3] = [2, 4, 8];

/// cuBLASLt GEMMs held against the shipped calibration: shapes on the grid of NVIDIA's
/// measured GEMM tables (aiconfigurator's `collector/cases/base_ops/gemm.yaml`: token
/// counts and feature sizes), from decode-sized to square, in the formats those tables
/// have profiles for on every GPU with FP8 (BF16 and per-tensor FP8).
pub const GEMM_SHAPES: [(u64, u64, u64); 8] = [
    (16, 4096, 4096),
    (128, 4096, 4096),
    (512, 8192, 8192),
    (2048, 4096, 4096),
    (4096, 8192, 8192),
    (8192, 8192, 8192),
    (1024, 16384, 4096),
    (64, 28672, 8192),
];
const GEMM_FORMATS: [Format; 2] = [Format::Bf16, Format::Fp8E4m3];

/// Targets the summary checks (issue targets for a GPU run).
const READ_FRACTION_TARGET: f64 = 0.85;
const SPEEDUP_TARGETS: [(&str, f64); 3] =
    [("fp8-e4m3", 1.8), ("int4-g128-fp16", 3.2), ("nvfp4", 3.2)];

fn shape((m, n, k): (u64, u64, u64)) -> OperatorShape {
    OperatorShape { m, n, k }
}

/// What a gpu-check run covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Everything the module's documentation lists.
    Everything,
    /// The GEMV kernels alone: correctness, the read bandwidth and the GEMV sizes and
    /// batches, for iterating on the kernels within a short lease (no peak or cuBLASLt
    /// GEMMs, torch or telemetry).
    Gemv,
}

/// Runs the check into `out`, timing each point by `rule` (the correctness runs are
/// timed briefly whatever it says).
pub fn run(
    cuda: &CudaBackend,
    out: &Path,
    telemetry_seconds: f64,
    rule: &StopRule,
    scope: Scope,
) -> Result<()> {
    let began = Instant::now();
    let store = Store::open(out)?;
    // Timed points in `gpu-check.jsonl`; the correctness runs (a few samples each, and
    // misaligned shapes run by the element-by-element kernels) apart in
    // `gpu-check-correctness.jsonl`, so that a calibration read from the first file fits
    // the timed kernels only.
    let job = JobId("gpu-check".into());
    let correctness_job = JobId("gpu-check-correctness".into());
    for j in [&job, &correctness_job] {
        let _ = std::fs::remove_file(store.path(j));
    }
    let mut summary = String::from("# rooflinr gpu-check\n\n");
    let info = cuda.info();
    summary += "## Probe\n\n| capability | available | detail |\n| --- | --- | --- |\n";
    for c in &info.capabilities {
        let _ = writeln!(summary, "| {} | {} | {} |", c.name, c.available, c.detail);
    }
    if !info.available {
        let why = info.reason.unwrap_or_default();
        let _ = writeln!(summary, "\nNo GPU run: {why}");
        write_summary(out, &summary)?;
        bail!("no usable GPU: {why}");
    }
    let device = info.device.clone().unwrap_or_default();
    let _ = writeln!(
        summary,
        "\nDevice: {} (compute capability {}, {} SMs, L2 {}, {} memory, unified: {}), driver {}, CUDA {}; registry: {}; theoretical bandwidth from clock and bus: {}\n",
        device.name,
        device.compute_capability.as_deref().unwrap_or("?"),
        device.compute_units,
        device
            .last_level_cache_bytes
            .map_or("?".into(), |b| si(b as f64, "B")),
        si(device.memory_total_bytes as f64, "B"),
        device.unified_memory,
        device.driver_version.as_deref().unwrap_or("?"),
        device.cuda_version.as_deref().unwrap_or("?"),
        device.registry_key.as_deref().unwrap_or("no entry"),
        device
            .theoretical_bandwidth_bytes_per_s
            .map_or("not reported".into(), |b| si(b, "B/s")),
    );
    let cancel = AtomicBool::new(false);
    let mut results: Vec<Measurement> = Vec::new();
    let mut indices = [0usize; 2];
    let mut record = |correctness: bool, m: &Measurement| -> Result<()> {
        let (job, index) = if correctness {
            (&correctness_job, &mut indices[1])
        } else {
            (&job, &mut indices[0])
        };
        store.append(
            job,
            &ServerMessage::Result(JobResult {
                job: job.clone(),
                index: *index,
                measurement: Box::new(m.clone()),
            }),
        )?;
        *index += 1;
        Ok(())
    };

    // 1. Correctness: every format on odd and aligned shapes, quickly timed.
    let quick = StopRule {
        min_samples: 3,
        max_time: Duration::from_millis(50),
        warmup_runs: 1,
        ..StopRule::DEFAULT
    };
    summary += "## Correctness (every output against the model crate's decoding)\n\n| format | shape | result |\n| --- | --- | --- |\n";
    let mut failures = 0;
    for format in cuda.formats() {
        for s in CORRECTNESS_SHAPES {
            let work = Work::Operator {
                shape: shape(s),
                format,
            };
            eprintln!("correctness: {}", work.label());
            let verdict = match cuda.measure(&work, &quick, &cancel) {
                Ok(m) => {
                    record(true, &m)?;
                    let c = m.check.clone().unwrap_or_else(|| rooflinr_protocol::Check {
                        worst_error_ratio: f64::NAN,
                        outputs_checked: 0,
                        reference: String::new(),
                    });
                    format!(
                        "passed: {} outputs, worst error {:.3} of its bound",
                        c.outputs_checked, c.worst_error_ratio
                    )
                }
                Err(e) => {
                    failures += 1;
                    format!("**FAILED**: {e}")
                }
            };
            let _ = writeln!(
                summary,
                "| {format} | {}x{}x{} | {verdict} |",
                s.0, s.1, s.2
            );
        }
    }
    eprintln!(
        "correctness: {:.1} s since the start (the kernels' compilation included)",
        began.elapsed().as_secs_f64()
    );

    // 2. Ceilings, then the GEMV sizes and batches, then cuBLASLt GEMMs.
    let mut ceilings = MeasuredCeilings::default();
    let mut failed: Vec<(String, MeasureError)> = Vec::new();
    let mut items = match scope {
        Scope::Everything => ceiling_items(cuda, cuda.peak_gemm_size()),
        Scope::Gemv => vec![Work::Read],
    };
    for format in cuda.formats() {
        let shapes = GEMV_SHAPES
            .into_iter()
            .chain(BATCHES.map(|m| (m, 8192, 8192)));
        items.extend(shapes.map(|s| Work::Operator {
            shape: shape(s),
            format,
        }));
    }
    let gemm_formats: Vec<Format> = GEMM_FORMATS
        .into_iter()
        .filter(|f| cuda.peak_formats().contains(f))
        .collect();
    let gemm_shapes: &[(u64, u64, u64)] = match scope {
        Scope::Everything => &GEMM_SHAPES,
        Scope::Gemv => &[],
    };
    for &s in gemm_shapes {
        items.extend(gemm_formats.iter().map(|&format| Work::Operator {
            shape: shape(s),
            format,
        }));
    }
    for (i, work) in items.iter().enumerate() {
        eprintln!("[{}/{}] measuring {}", i + 1, items.len(), work.label());
        let began = Instant::now();
        match cuda.measure(work, rule, &cancel) {
            Ok(mut m) => {
                eprintln!("  {}", crate::commands::measured_line(&m, began.elapsed()));
                ceilings.record(&m);
                compare_with_ceilings(&ceilings, &mut m);
                record(false, &m)?;
                results.push(m);
            }
            Err(e) => {
                eprintln!("  failed: {e}");
                failed.push((work.label(), e));
            }
        }
    }
    summary += &ceilings_section(&results, &device.registry_key);
    summary += &gemv_section(&results);
    if scope == Scope::Everything {
        summary += &torch_section(&results);
        summary += &calibration_section(&results, &ceilings, device.registry_key.as_deref());
        summary += &shipped_profiles_section(&results, device.registry_key.as_deref());
    }
    if !failed.is_empty() {
        summary += "\n## Not measured\n\n";
        for (what, why) in &failed {
            let _ = writeln!(summary, "- {what}: {why}");
        }
    }

    // 3. Telemetry.
    if scope == Scope::Everything {
        summary += &telemetry(out, telemetry_seconds)?;
    }
    let _ = writeln!(
        summary,
        "\n{failures} correctness failure(s); {} timed point(s); {:.0} s in all.",
        results.len(),
        began.elapsed().as_secs_f64()
    );
    write_summary(out, &summary)?;
    println!("{summary}");
    if failures > 0 {
        bail!(
            "{failures} kernel(s) gave wrong results: see {}",
            out.join("summary.md").display()
        );
    }
    Ok(())
}

fn write_summary(out: &Path, text: &str) -> Result<()> {
    let path = out.join("summary.md");
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn ceilings_section(results: &[Measurement], registry_key: &Option<String>) -> String {
    let datasheet = registry_key
        .as_deref()
        .and_then(|k| registry::get(k).ok())
        .map(|hw| hw.memory_bandwidth.value.get());
    let mut s = String::from(
        "\n## Ceilings\n\n| ceiling | median | best sample | noise | of datasheet | SM clock (median, min) | throttled samples |\n| --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for m in results.iter().filter(|m| {
        matches!(
            m.kind,
            MeasurementKind::Read
                | MeasurementKind::Copy
                | MeasurementKind::Triad
                | MeasurementKind::PeakGemm
        )
    }) {
        let bandwidth = m.kind != MeasurementKind::PeakGemm;
        let (rate, best) = if bandwidth {
            (
                si(m.achieved_bytes_per_s, "B/s"),
                si(m.bytes / m.stats.min_s, "B/s"),
            )
        } else {
            (
                si(m.achieved_flops_per_s, "FLOP/s"),
                si(m.flops / m.stats.min_s, "FLOP/s"),
            )
        };
        let of_datasheet = match (bandwidth, datasheet) {
            (true, Some(d)) => format!("{:.1}%", m.achieved_bytes_per_s / d * 100.0),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "| {} | {rate} | {best} | {:.2}% | {of_datasheet} | {} | {} |",
            m.label,
            m.stats.noise * 100.0,
            m.clocks.as_ref().map_or("n/a".into(), |c| format!(
                "{:.0} / {:.0} MHz",
                c.sm_clock_mhz_median, c.sm_clock_mhz_min
            )),
            m.clocks.as_ref().map_or("n/a".into(), |c| format!(
                "{} {}",
                c.throttled_samples,
                c.throttle_reasons.join(", ")
            )),
        );
    }
    s
}

fn gemv_section(results: &[Measurement]) -> String {
    let read = results
        .iter()
        .find(|m| m.kind == MeasurementKind::Read)
        .map(|m| m.achieved_bytes_per_s);
    let fp16 = |shape: OperatorShape| {
        results
            .iter()
            .find(|m| m.shape == Some(shape) && m.format == Some(Format::Fp16))
            .map(|m| m.stats.median_s)
    };
    let mut s = String::from(
        "\n## GEMV (FP16 activations, FP32 accumulation)\n\n| point | median | noise | bandwidth | of read bandwidth | vs fp16 | vs roofline (measured ceilings) | J/run |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let mut targets = String::new();
    for m in results
        .iter()
        .filter(|m| matches!(m.kind, MeasurementKind::Gemv | MeasurementKind::Gemm))
    {
        let Some(shape) = m.shape else { continue };
        let of_read = read.map(|r| m.achieved_bytes_per_s / r);
        let speedup = fp16(shape).map(|t| t / m.stats.median_s);
        let _ = writeln!(
            s,
            "| {} | {} | {:.2}% | {} | {} | {} | {} | {} |",
            m.label,
            si(m.stats.median_s, "s"),
            m.stats.noise * 100.0,
            si(m.achieved_bytes_per_s, "B/s"),
            of_read.map_or(String::new(), |f| format!("{:.0}%", f * 100.0)),
            speedup.map_or(String::new(), |x| format!("{x:.2}x")),
            m.fraction_of_ceiling
                .map_or(String::new(), |f| format!("{:.0}%", f * 100.0)),
            m.energy_j.map_or("n/a".into(), |j| format!("{j:.4}")),
        );
        if (shape.m, shape.n, shape.k) == (1, 8192, 8192) {
            if let Some(f) = of_read {
                let _ = writeln!(
                    targets,
                    "- {} at 1x8192x8192: {:.0}% of the read bandwidth (target {:.0}%): {}",
                    m.format.map_or_else(|| "?".to_string(), |f| f.name()),
                    f * 100.0,
                    READ_FRACTION_TARGET * 100.0,
                    if f >= READ_FRACTION_TARGET {
                        "met"
                    } else {
                        "**not met**"
                    }
                );
            }
            for (name, target) in SPEEDUP_TARGETS {
                if m.format.is_some_and(|f| f.name() == name)
                    && let Some(x) = speedup
                {
                    let _ = writeln!(
                        targets,
                        "- {name} {x:.2}x faster than fp16 at batch 1 (target {target}x): {}",
                        if x >= target { "met" } else { "**not met**" }
                    );
                }
            }
        }
    }
    s + "\n### Targets\n\n" + &targets
}

/// `torch.matmul` BF16 8192^3 timed with CUDA events, when a Python with torch is there.
const TORCH_SCRIPT: &str = r#"
import json
try:
    import torch
except Exception as e:
    print(json.dumps({"error": "no torch: %s" % e})); raise SystemExit
if not torch.cuda.is_available():
    print(json.dumps({"error": "torch sees no GPU"})); raise SystemExit
n = 8192
a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
for _ in range(10):
    torch.matmul(a, b)
torch.cuda.synchronize()
times = []
for _ in range(50):
    s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
    s.record(); torch.matmul(a, b); e.record(); e.synchronize()
    times.append(s.elapsed_time(e) / 1e3)
times.sort()
print(json.dumps({"torch": torch.__version__, "median_s": times[len(times) // 2], "min_s": times[0]}))
"#;

fn torch_section(results: &[Measurement]) -> String {
    let mut s = String::from("\n## cuBLASLt against torch.matmul (BF16 8192^3)\n\n");
    let ours = results.iter().find(|m| {
        m.kind == MeasurementKind::PeakGemm
            && m.format == Some(Format::Bf16)
            && m.shape.is_some_and(|x| x.m == 8192)
    });
    let output = std::process::Command::new("python3")
        .args(["-c", TORCH_SCRIPT])
        .output();
    let torch: Option<serde_json::Value> = output.ok().and_then(|o| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .last()
            .and_then(|l| serde_json::from_str(l).ok())
    });
    match (ours, torch) {
        (Some(m), Some(t)) if t.get("median_s").is_some() => {
            let theirs = t["median_s"].as_f64().unwrap_or(f64::NAN);
            let _ = writeln!(
                s,
                "rooflinr (cuBLASLt) {} ({}); torch {} {} ({}); rooflinr / torch time = {:.3} (target within 5%)",
                si(m.stats.median_s, "s"),
                si(m.achieved_flops_per_s, "FLOP/s"),
                t["torch"].as_str().unwrap_or("?"),
                si(theirs, "s"),
                si(m.flops / theirs, "FLOP/s"),
                m.stats.median_s / theirs
            );
        }
        (_, Some(t)) if t.get("error").is_some() => {
            let _ = writeln!(s, "torch not compared: {}", t["error"]);
        }
        (None, _) => s += "cuBLASLt BF16 8192^3 was not measured (see the ceilings).\n",
        _ => s += "torch not compared: python3 did not answer.\n",
    }
    s
}

fn calibration_section(
    results: &[Measurement],
    ceilings: &MeasuredCeilings,
    registry_key: Option<&str>,
) -> String {
    let mut s = String::from("\n## Predictions against the measurements\n\n");
    let Some(hw) = registry_key.and_then(|k| registry::get(k).ok()) else {
        s += "The device has no registry entry, so there is no datasheet to compare with.\n";
        return s;
    };
    let points: Vec<KernelPoint> = results
        .iter()
        .filter_map(KernelPoint::from_measurement)
        .collect();
    let (rows, leave_one_out) = calibrate::compare(&points, &hw, ceilings);
    let _ = writeln!(
        s,
        "Datasheet: {}; calibrated: fitted on this run's points ({}).\n\n| point | measured | datasheet | error | calibrated | error |\n| --- | --- | --- | --- | --- | --- |",
        hw.name,
        if leave_one_out {
            "leave-one-out"
        } else {
            "in-sample"
        }
    );
    for r in &rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:+.1}% | {} | {:+.1}% |",
            r.point.kernel,
            si(r.point.time_s, "s"),
            si(r.datasheet_s, "s"),
            r.datasheet_error() * 100.0,
            si(r.calibrated_s, "s"),
            r.calibrated_error() * 100.0
        );
    }
    let abs: Vec<f64> = rows.iter().map(|r| r.calibrated_error().abs()).collect();
    if let Some(median) = rooflinr_model::stats::median(abs.clone()) {
        let _ = writeln!(
            s,
            "\nMedian |calibrated error| {:.1}% over {} points (target under 10%).",
            median * 100.0,
            abs.len()
        );
    }
    s
}

/// The cuBLASLt GEMMs against the calibrated times the model crate ships (fitted on
/// NVIDIA's TensorRT-LLM tables): the first check of those profiles on a GPU of our own.
fn shipped_profiles_section(results: &[Measurement], registry_key: Option<&str>) -> String {
    let mut s = String::from(
        "\n## cuBLASLt GEMMs against the shipped calibration\n\nPredicted: the datasheet roofline, and the kernel terms fitted on NVIDIA's measured TensorRT-LLM GEMM tables for this device (BF16 output). This run times cuBLASLt alone on operands already in their format, rotating copies so that no operand is in the L2: the calibrated time of that GEMM alone leaves out the activation quantisation pass that TensorRT-LLM's FP8 linear layer runs first (`rooflinr predict gemm --calibrated` counts it, as the tables do; the last column).\n\n",
    );
    let Some(hw) = registry_key.and_then(|k| registry::get(k).ok()) else {
        s += "The device has no registry entry, so there is no profile to compare with.\n";
        return s;
    };
    s += "| point | measured | datasheet | error | calibrated: the GEMM alone | error | calibrated: TensorRT-LLM's linear layer | error |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n";
    let mut errors = Vec::new();
    for m in results.iter().filter(|m| m.kind == MeasurementKind::Gemm) {
        let (Some(shape), Some(format)) = (m.shape, m.format) else {
            continue;
        };
        let op = Op::Gemm {
            m: shape.m as f64,
            n: shape.n as f64,
            k: shape.k as f64,
            bias: false,
        };
        let precision = Precision {
            output: Format::Bf16,
            ..Precision::uniform(format)
        };
        let predicted = op.predict(&precision, &hw, &Efficiency::IDEAL);
        let datasheet = predicted.prediction.time.get();
        let measured = m.stats.median_s;
        let error = |t: f64| format!("{:+.1}%", (t - measured) / measured * 100.0);
        let calibrated = |activations| {
            kernel_time::calibrated_with(
                &op,
                &precision,
                &hw,
                kernel_time::Framework::TensorRtLlm,
                &predicted.prediction,
                activations,
            )
            .map(|(t, _)| t)
        };
        let cells = |t: Option<f64>| match t {
            Some(t) => (si(t, "s"), error(t)),
            None => ("no profile".to_string(), String::new()),
        };
        let alone = calibrated(kernel_time::Activations::InFormat);
        if let Some(t) = alone {
            errors.push(((t - measured) / measured, format));
        }
        let (alone_s, alone_error) = cells(alone);
        let (layer_s, layer_error) = cells(calibrated(kernel_time::Activations::QuantisedFirst));
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {alone_s} | {alone_error} | {layer_s} | {layer_error} |",
            m.label,
            si(measured, "s"),
            si(datasheet, "s"),
            error(datasheet),
        );
    }
    for format in GEMM_FORMATS {
        let abs: Vec<f64> = errors
            .iter()
            .filter(|(_, f)| *f == format)
            .map(|(e, _)| e.abs())
            .collect();
        let worst = abs.iter().copied().reduce(f64::max);
        if let (Some(median), Some(worst)) = (rooflinr_model::stats::median(abs.clone()), worst) {
            let _ = writeln!(
                s,
                "\n{format}: median |calibrated error| of the GEMM alone {:.1}%, worst {:.1}%, over {} GEMMs.",
                median * 100.0,
                worst * 100.0,
                abs.len()
            );
        }
    }
    s
}

fn telemetry(out: &Path, seconds: f64) -> Result<String> {
    let (gpus, status) = Gpus::open();
    let Some(gpus) = gpus else {
        return Ok(format!(
            "\n## Telemetry\n\nNVML unavailable: {}\n",
            status.reason.unwrap_or_default()
        ));
    };
    let path = out.join("telemetry.jsonl");
    let mut lines = String::new();
    let began = Instant::now();
    let mut samples = 0;
    let mut power: Vec<f64> = Vec::new();
    while began.elapsed().as_secs_f64() < seconds.clamp(0.0, 600.0) {
        let sample = gpus.sample();
        power.extend(sample.iter().filter_map(|g| g.power_w));
        lines += &serde_json::to_string(&sample)?;
        lines.push('\n');
        samples += 1;
        std::thread::sleep(Duration::from_millis(100));
    }
    std::fs::write(&path, lines).with_context(|| format!("cannot write {}", path.display()))?;
    let mean = if power.is_empty() {
        "n/a".to_string()
    } else {
        format!("{:.1} W", power.iter().sum::<f64>() / power.len() as f64)
    };
    Ok(format!(
        "\n## Telemetry\n\n{samples} samples over {seconds:.0} s at 10 Hz in telemetry.jsonl (idle mean power {mean}).\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gemm(format: Format, (m, n, k): (u64, u64, u64), median_s: f64) -> Measurement {
        let flops = 2.0 * (m * n * k) as f64;
        let mut g = crate::jobs::tests::measured(MeasurementKind::Gemm, flops, 1.0, median_s);
        g.label = format!("gemm {m}x{n}x{k} {format}");
        g.format = Some(format);
        g.activation_format = Some(format);
        g.shape = Some(OperatorShape { m, n, k });
        g
    }

    /// The cuBLASLt GEMMs of a whole `gpu-check` on an H200 (docs/gpu-runs/h200-2026-11-27).
    fn h200_gemms() -> Vec<Measurement> {
        include_str!("../../docs/gpu-runs/h200-2026-11-27/gpu-check.jsonl")
            .lines()
            .filter_map(|l| {
                match rooflinr_protocol::decode(l.as_bytes()).expect("a server message") {
                    rooflinr_protocol::ServerMessage::Result(r) => Some(*r.measurement),
                    _ => None,
                }
            })
            .filter(|m: &Measurement| m.kind == MeasurementKind::Gemm)
            .collect()
    }

    #[test]
    fn the_shipped_h200_profiles_predict_a_real_h200s_cublaslt_gemms() {
        let gemms = h200_gemms();
        assert_eq!(gemms.len(), 16, "eight shapes in BF16 and FP8");
        let text = shipped_profiles_section(&gemms, Some("h200"));
        // Each row: the error of the GEMM alone (column 6) and of the linear layer
        // (column 8), whose FP8 quantisation pass cuBLASLt does not run.
        let mut alone = [Vec::new(), Vec::new()];
        let mut large_fp8 = Vec::new();
        for (line, gemm) in text
            .lines()
            .filter(|l| l.starts_with("| gemm "))
            .zip(&gemms)
        {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(cells[1], gemm.label);
            let percent = |c: &str| c.trim_end_matches('%').parse::<f64>().expect(line);
            let (alone_error, layer_error) = (percent(cells[6]), percent(cells[8]));
            if gemm.format == Some(Format::Bf16) {
                assert_eq!(
                    alone_error, layer_error,
                    "no pass for 16-bit activations: {line}"
                );
                alone[0].push(alone_error.abs());
            } else {
                assert!(alone_error < layer_error, "the pass takes time: {line}");
                alone[1].push(alone_error.abs());
                if gemm.flops >= 1e11 {
                    large_fp8.push(alone_error.abs());
                }
            }
        }
        for errors in &mut alone {
            errors.sort_by(f64::total_cmp);
        }
        // Measured 2026-11-27: BF16 median 3.6 %; FP8, the GEMM alone, 18 % (the linear
        // layer's 33 %), and within 3 % from 100 GFLOP up, where the profile's fixed time,
        // which counts TensorRT-LLM's quantisation launch too, weighs least.
        assert!(alone[0][4] < 6.0, "{alone:?}\n{text}");
        assert!(alone[1][4] < 25.0, "{alone:?}\n{text}");
        assert_eq!(large_fp8.len(), 3, "{text}");
        assert!(large_fp8.iter().all(|e| *e < 5.0), "{large_fp8:?}\n{text}");
    }

    #[test]
    fn cublaslt_gemms_are_held_against_the_shipped_profiles() {
        // The first H200 run's BF16 8192^3 (1.38 ms) and an INT8 GEMM, which no
        // TensorRT-LLM table profiles.
        let results = [
            gemm(Format::Bf16, (8192, 8192, 8192), 1.38e-3),
            gemm(Format::Int8, (8192, 8192, 8192), 0.75e-3),
        ];
        let text = shipped_profiles_section(&results, Some("h200"));
        let row = |label: &str| {
            text.lines()
                .find(|l| l.starts_with(&format!("| {label} ")))
                .unwrap_or_else(|| panic!("no row for {label} in\n{text}"))
                .to_string()
        };
        let bf16: Vec<String> = row("gemm 8192x8192x8192 bf16")
            .split('|')
            .map(|c| c.trim().to_string())
            .collect();
        // The datasheet bound is faster than any kernel: its error is negative.
        assert!(bf16[4].starts_with('-'), "{bf16:?}");
        // A calibrated time, with an error a fit of real kernels keeps within 25 %.
        let error: f64 = bf16[6].trim_end_matches('%').parse().expect("an error");
        assert!(error.abs() < 25.0, "{bf16:?}");
        assert!(row("gemm 8192x8192x8192 int8").contains("no profile"));
        assert!(text.contains("bf16: median |calibrated error|"), "{text}");
        assert!(!text.contains("int8: median"), "{text}");
        let unknown = shipped_profiles_section(&results, None);
        assert!(unknown.contains("no registry entry"), "{unknown}");
    }

    #[test]
    fn without_a_gpu_either_scope_says_so_and_writes_its_summary() {
        use crate::backend::cuda::CudaOptions;
        let cuda = CudaBackend::probe(CudaOptions::default());
        if cuda.info().available {
            // A GPU machine runs the real thing (`gpu-check`), not this test.
            eprintln!("a GPU is present: the no-GPU path is not exercised here");
            return;
        }
        for scope in [Scope::Everything, Scope::Gemv] {
            let out = tempfile::tempdir().expect("temporary folder");
            let err = run(&cuda, out.path(), 0.0, &StopRule::DEFAULT, scope)
                .expect_err("no GPU, no run")
                .to_string();
            assert!(err.contains("no usable GPU"), "{err}");
            let summary = std::fs::read_to_string(out.path().join("summary.md")).unwrap();
            assert!(summary.contains("No GPU run:"), "{summary}");
            assert!(summary.contains("| driver |"), "{summary}");
        }
    }
}
