//! The terminal subcommands: `ceilings`, `bench` and `compare` (the prototype's theory-versus-
//! reality table), run on the backends directly, one point at a time, with progress on
//! standard error.

use std::sync::atomic::AtomicBool;

use comfy_table::{Table, presets::UTF8_BORDERS_ONLY};
use rooflinr_model::format::Format;
use rooflinr_model::roofline::Bound;
use rooflinr_model::units::si;
use rooflinr_protocol::{BackendKind, Measurement, MeasurementKind, OperatorShape};
use rooflinr_report::kernel::MeasuredCeilings;

use crate::backend::{Backend, MeasureError, Work};
use crate::jobs::{ceiling_items, compare_with_ceilings};
use crate::stats::StopRule;

fn run(
    backend: &dyn Backend,
    items: &[Work],
    rule: &StopRule,
    ceilings: &mut MeasuredCeilings,
) -> Result<Vec<Measurement>, MeasureError> {
    let cancel = AtomicBool::new(false);
    let mut out = Vec::new();
    for (i, work) in items.iter().enumerate() {
        eprintln!("[{}/{}] measuring {}", i + 1, items.len(), work.label());
        let began = std::time::Instant::now();
        let mut m = backend.measure(work, rule, &cancel)?;
        // Each median as it is measured, so a run cut short still reports what it measured.
        eprintln!("  {}", measured_line(&m, began.elapsed()));
        ceilings.record(&m);
        compare_with_ceilings(ceilings, &mut m);
        out.push(m);
    }
    Ok(out)
}

/// The ceilings of a backend: read, copy, triad and every format's peak GEMM.
pub fn measure_ceilings(
    backend: &dyn Backend,
    rule: &StopRule,
) -> Result<(Vec<Measurement>, MeasuredCeilings), MeasureError> {
    let items = ceiling_items(backend, backend.peak_gemm_size());
    let mut ceilings = MeasuredCeilings::default();
    let measured = run(backend, &items, rule, &mut ceilings)?;
    Ok((measured, ceilings))
}

/// One measurement as the progress lines print it: its median and sample count, and the
/// `wall` time the point took, of which the sampling was `stats.elapsed_s` (the rest is
/// preparing and uploading the operands and checking the output against its reference:
/// on a lent GPU, device time the samples do not use).
pub fn measured_line(m: &Measurement, wall: std::time::Duration) -> String {
    format!(
        "{}: {} (median of {} samples; {:.1} s in all, {:.1} s of it sampling)",
        m.label,
        si(m.stats.median_s, "s"),
        m.stats.samples,
        wall.as_secs_f64(),
        m.stats.elapsed_s
    )
}

fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_BORDERS_ONLY).set_header(header.to_vec());
    t
}

fn noise(m: &Measurement) -> String {
    let mark = if m.stats.converged {
        ""
    } else {
        " (time limit)"
    };
    format!("{:.2}%{mark}", m.stats.noise * 100.0)
}

/// The `ceilings` table.
pub fn ceilings_table(measured: &[Measurement]) -> String {
    let mut t = table(&[
        "ceiling",
        "measured (median)",
        "best sample",
        "noise",
        "samples",
        "counted",
    ]);
    for m in measured {
        let (rate, best) = match m.kind {
            MeasurementKind::Read | MeasurementKind::Copy | MeasurementKind::Triad => (
                si(m.achieved_bytes_per_s, "B/s"),
                si(m.bytes / m.stats.min_s, "B/s"),
            ),
            _ => (
                si(m.achieved_flops_per_s, "FLOP/s"),
                si(m.flops / m.stats.min_s, "FLOP/s"),
            ),
        };
        t.add_row(vec![
            m.label.clone(),
            rate,
            best,
            noise(m),
            m.stats.samples.to_string(),
            m.bytes_counted.clone(),
        ]);
    }
    t.to_string()
}

/// One shape in every format, against the measured ceilings.
pub fn bench(
    backend: &dyn Backend,
    shape: OperatorShape,
    formats: &[Format],
    rule: &StopRule,
) -> Result<String, MeasureError> {
    let (_, mut ceilings) = measure_ceilings(backend, rule)?;
    let items: Vec<Work> = formats
        .iter()
        .map(|&format| Work::Operator { shape, format })
        .collect();
    let measured = run(backend, &items, rule, &mut ceilings)?;
    let fp32 = measured
        .iter()
        .find(|m| m.format == Some(Format::Fp32))
        .map(|m| m.stats.median_s);
    let mut t = table(&[
        "format",
        "median",
        "min",
        "noise",
        "bandwidth",
        "FLOP/s",
        "of ceiling",
        "vs fp32",
        "checked",
    ]);
    for m in &measured {
        t.add_row(vec![
            m.format.map(|f| f.name()).unwrap_or_default(),
            si(m.stats.median_s, "s"),
            si(m.stats.min_s, "s"),
            noise(m),
            si(m.achieved_bytes_per_s, "B/s"),
            si(m.achieved_flops_per_s, "FLOP/s"),
            m.fraction_of_ceiling
                .map(|f| format!("{:.0}%", f * 100.0))
                .unwrap_or_default(),
            fp32.map(|t| format!("{:.2}x", t / m.stats.median_s))
                .unwrap_or_default(),
            m.check
                .as_ref()
                .map(|c| format!("{} outputs", c.outputs_checked))
                .unwrap_or_default(),
        ]);
    }
    let op = if shape.m == 1 { "gemv" } else { "gemm" };
    let device = measured
        .first()
        .map(|m| m.device.clone())
        .unwrap_or_default();
    Ok(format!(
        "{op} {}x{}x{} on {device} ({} backend); of ceiling = roofline time from the measured ceilings / measured median\n{t}",
        shape.m,
        shape.n,
        shape.k,
        backend.kind()
    ))
}

/// One row of the theory-versus-reality table.
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    /// What was measured.
    pub label: String,
    /// Roofline time from the measured ceilings, seconds.
    pub predicted_s: f64,
    /// Measured median, seconds.
    pub measured_s: f64,
    /// (predicted - measured) / measured.
    pub error: f64,
    /// The ceiling that binds.
    pub bound: Bound,
}

/// The prototype's table: every shape in every format, predicted from the measured ceilings
/// (bandwidth and each format's peak) and measured.
pub fn compare(
    backend: &dyn Backend,
    shapes: &[OperatorShape],
    formats: &[Format],
    rule: &StopRule,
) -> Result<(Vec<Compared>, String), MeasureError> {
    let (_, mut ceilings) = measure_ceilings(backend, rule)?;
    let items: Vec<Work> = shapes
        .iter()
        .flat_map(|&shape| {
            formats
                .iter()
                .map(move |&format| Work::Operator { shape, format })
        })
        .collect();
    let measured = run(backend, &items, rule, &mut ceilings)?;
    let read_after = match ceilings.read {
        Some(_) => Some(read_again(backend, rule)?),
        None => None,
    };
    let (bandwidth, bandwidth_kernel) = ceilings
        .bandwidth
        .clone()
        .unwrap_or((f64::NAN, "no".into()));
    let rows: Vec<Compared> = measured
        .iter()
        .filter_map(|m| {
            let predicted = ceilings.predict(m)?.prediction;
            Some(Compared {
                label: m.label.clone(),
                predicted_s: predicted.time.get(),
                measured_s: m.stats.median_s,
                error: (predicted.time.get() - m.stats.median_s) / m.stats.median_s,
                bound: predicted.bound,
            })
        })
        .collect();
    let mut t = table(&["operator", "predicted", "measured", "error", "bound"]);
    for r in &rows {
        t.add_row(vec![
            r.label.clone(),
            si(r.predicted_s, "s"),
            si(r.measured_s, "s"),
            format!("{:+.1}%", r.error * 100.0),
            r.bound.name().to_string(),
        ]);
    }
    let text = format!(
        "THEORY VS REALITY on {} ({} backend)\npredicted: roofline from this machine's measured ceilings ({bandwidth_kernel} bandwidth {}{}, per-format compute peaks); measured: median of the samples\n{t}\nerror = (predicted - measured) / measured; under 10% is a good prediction{}",
        measured
            .first()
            .map(|m| m.device.clone())
            .unwrap_or_default(),
        backend.kind(),
        si(bandwidth, "B/s"),
        ceilings
            .read
            .map(|r| format!(
                "; GEMVs against the read bandwidth {}, as they only read{}",
                si(r, "B/s"),
                read_after
                    .map(|after| format!(" ({} measured again after the points)", si(after, "B/s")))
                    .unwrap_or_default()
            ))
            .unwrap_or_default(),
        slow_memory_note(&rows, backend.kind())
            + &slow_compute_note(&rows)
            + &beaten_roof_note(&rows)
            + &ceilings
                .read
                .zip(read_after)
                .map(|(before, after)| drift_note(before, after))
                .unwrap_or_default(),
    );
    Ok((rows, text))
}

/// The read bandwidth measured once more, after the points, B/s; not recorded as a
/// ceiling (the predictions keep the one measured before the points).
fn read_again(backend: &dyn Backend, rule: &StopRule) -> Result<f64, MeasureError> {
    eprintln!("[again] measuring {}", Work::Read.label());
    let began = std::time::Instant::now();
    let m = backend.measure(&Work::Read, rule, &AtomicBool::new(false))?;
    eprintln!("  {}", measured_line(&m, began.elapsed()));
    Ok(m.achieved_bytes_per_s)
}

/// How far the read bandwidth may move between the measurement before the points and
/// the one after before the table says so.
const BANDWIDTH_DRIFT: f64 = 0.1;

/// A note when the read bandwidth measured after the points differs from the one
/// measured before them by more than [`BANDWIDTH_DRIFT`]; empty otherwise. On a shared
/// machine (a cloud VM's memory is shared with its neighbours) it moves while the points
/// run, and a memory-bound point's error then moves with it.
fn drift_note(before: f64, after: f64) -> String {
    let moved = after / before - 1.0;
    if moved.abs() <= BANDWIDTH_DRIFT {
        return String::new();
    }
    format!(
        "\nthe read bandwidth moved {:+.0}% while the points ran ({} before them, {} after): this machine's memory bandwidth is not steady (its memory is likely shared), so a memory-bound point's error is uncertain by about that much; the predictions use the figure measured before the points. Rerun to compare.",
        moved * 100.0,
        si(before, "B/s"),
        si(after, "B/s"),
    )
}

/// A point measured this much slower than its roofline is called out (memory- or
/// compute-bound).
const SLOW_ERROR: f64 = -0.2;

/// A point measured this much faster than its roofline is called out.
const BEATEN_ROOF_ERROR: f64 = 0.1;

/// `heading: labels. why` for the rows `pick` keeps, on a line of its own; empty when it
/// keeps none.
fn note(rows: &[Compared], pick: impl Fn(&Compared) -> bool, heading: &str, why: &str) -> String {
    let picked: Vec<&str> = rows
        .iter()
        .filter(|r| pick(r))
        .map(|r| r.label.as_str())
        .collect();
    if picked.is_empty() {
        return String::new();
    }
    format!("\n{heading}: {}. {why}", picked.join(", "))
}

/// Why memory-bound points fall short of the bandwidth they are predicted from on
/// `backend`, naming those more than 20 % short; empty when none is.
fn slow_memory_note(rows: &[Compared], backend: BackendKind) -> String {
    let why = match backend {
        BackendKind::Cpu => {
            "These kernels do more work per byte than the read kernel the roof comes from (converting FP16 and BF16, unpacking INT4, integer multiply-adds), and on a few cores that work does not fully overlap the loads; the roofline is the bound, the measurement is what these kernels reach."
        }
        BackendKind::Cuda => {
            "The roofline has no fixed time per kernel, and one launch on a GPU takes several microseconds before and after its bytes stream (on an H200 about 6-7 us, for these kernels and for cuBLASLt's small GEMMs alike), which weighs most on the smallest and lowest-bit points; the 4-bit kernels also decode more per byte than they hide behind the loads. The roofline is the bound; the calibrated predictions (`--calibrated`) add a fitted fixed time per kernel."
        }
    };
    note(
        rows,
        |r| r.bound == Bound::Memory && r.error < SLOW_ERROR,
        "more than 20% short of the bandwidth roof",
        why,
    )
}

/// Why compute-bound points fall short of the compute roof they are predicted from,
/// naming those more than 20 % short; empty when none is.
fn slow_compute_note(rows: &[Compared]) -> String {
    note(
        rows,
        |r| r.bound == Bound::Compute && r.error < SLOW_ERROR,
        "more than 20% short of the compute roof",
        "A format's compute roof is the fastest this backend's kernels ran it with the data in cache (a large GEMM, or on the CPU a full GEMV batch); a point that also streams its weights from memory takes longer where the loads and the arithmetic do not fully overlap, as on a few CPU cores. The roofline is the bound; the measurement is what these kernels reach.",
    )
}

/// Why points ran faster than their roof, naming those more than 10 % faster; empty when
/// none did.
fn beaten_roof_note(rows: &[Compared]) -> String {
    note(
        rows,
        |r| r.error > BEATEN_ROOF_ERROR,
        "faster than the roof",
        "A ceiling is what this backend's ceiling kernels reached (a sum over one large array for bandwidth; for compute, per format, the faster of a large GEMM and, on the CPU, a full GEMV batch over weights in cache), so a kernel that beats it shows the ceiling is low for that kernel, not a kernel beating the hardware; measured bandwidth moves by 10-40 % between runs on shared machines.",
    )
}

/// `rooflinr-agent energy --out FILE -- COMMAND`: every GPU's NVML energy counter before
/// and after `command` runs (its output is the terminal's), written to `out`
/// ([`rooflinr_report::import::energy::EnergyFile`]) and printed. Refused, before the command
/// runs, where NVML or a GPU's counter is missing: nothing would be measured.
pub fn energy_window(command: &[String], out: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::{Context, bail};
    use rooflinr_report::import::energy::{EnergyFile, GpuCounter};
    let (gpus, status) = crate::telemetry::nvml::Gpus::open();
    let Some(gpus) = gpus.filter(|_| status.gpus > 0) else {
        bail!(
            "no energy can be measured here: {}",
            status
                .reason
                .unwrap_or_else(|| "NVML found no GPUs".to_string())
        );
    };
    let Some((program, args)) = command.split_first() else {
        bail!("give the command to measure after --");
    };
    let before = gpus.energy_counters().map_err(anyhow::Error::msg)?;
    let started_unix_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let start = std::time::Instant::now();
    let exit = std::process::Command::new(program)
        .args(args)
        .status()
        .with_context(|| format!("cannot run {program}"))?;
    let seconds = start.elapsed().as_secs_f64();
    let after = gpus.energy_counters().map_err(anyhow::Error::msg)?;
    let file = EnergyFile {
        kind: EnergyFile::KIND.into(),
        command: command.to_vec(),
        exit_code: exit.code(),
        started_unix_ms,
        seconds,
        gpus: before
            .iter()
            .zip(&after)
            .map(|(&(index, first_mj), &(_, last_mj))| GpuCounter {
                index,
                first_mj,
                last_mj,
            })
            .collect(),
    };
    let window = file.energy().map_err(anyhow::Error::from)?;
    std::fs::write(out, serde_json::to_string_pretty(&file)? + "\n")
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "{:.1} kJ over {:.1} s on {} GPU(s), {:.0} W per GPU (measured: NVML energy counters); written to {}",
        window.joules / 1000.0,
        window.seconds,
        window.gpus,
        window.watts_per_gpu(),
        out.display()
    );
    if !exit.success() {
        bail!(
            "{program} ended with {exit}: the window was recorded, but the run may not have finished"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::backend::cpu::{CpuBackend, CpuOptions};

    #[test]
    fn compare_predicts_from_measured_ceilings_and_measures_every_point() {
        let cpu = CpuBackend::new(CpuOptions {
            peak_gemm_size: 64,
            stream_array_bytes: Some(4 << 20),
        });
        let rule = StopRule {
            min_samples: 3,
            max_time: Duration::from_millis(30),
            ..StopRule::DEFAULT
        };
        let shapes = [
            OperatorShape {
                m: 1,
                n: 256,
                k: 256,
            },
            OperatorShape {
                m: 64,
                n: 64,
                k: 64,
            },
        ];
        let formats = [Format::Fp32, Format::Int8];
        let (rows, text) = compare(&cpu, &shapes, &formats, &rule).expect("measures");
        assert_eq!(rows.len(), 4);
        for r in &rows {
            assert!(r.predicted_s > 0.0 && r.measured_s > 0.0, "{r:?}");
            assert!(text.contains(&r.label));
        }
        // The peak GEMM shape itself is predicted compute-bound from its own ceiling.
        assert_eq!(rows[2].bound, Bound::Compute);
        assert!(text.contains("THEORY VS REALITY"));
        // The read bandwidth is measured again after the points, and the header says so.
        assert!(text.contains("measured again after the points"), "{text}");
    }

    #[test]
    fn a_read_bandwidth_that_moved_during_the_run_is_named_with_both_figures() {
        let note = drift_note(72.7e9, 47.0e9);
        assert!(
            note.contains("moved -35%") && note.contains("72.7 GB/s") && note.contains("47.0 GB/s"),
            "{note}"
        );
        // Within the drift allowed, in either direction, nothing is said.
        assert_eq!(drift_note(50e9, 54e9), "");
        assert_eq!(drift_note(50e9, 46e9), "");
        assert!(drift_note(50e9, 56e9).contains("moved +12%"));
    }

    fn row(label: &str, error: f64, bound: Bound) -> Compared {
        Compared {
            label: label.into(),
            predicted_s: 1.0 + error,
            measured_s: 1.0,
            error,
            bound,
        }
    }

    #[test]
    fn the_note_names_memory_bound_points_far_below_the_roof_and_only_those() {
        let rows = [
            row("gemv 1x4096x4096 fp32", -0.15, Bound::Memory),
            row("gemv 1x4096x4096 int4-g128-fp16", -0.55, Bound::Memory),
            row("gemm 2048x4096x4096 fp32", -0.6, Bound::Compute),
        ];
        let note = slow_memory_note(&rows, BackendKind::Cpu);
        assert!(note.contains("gemv 1x4096x4096 int4-g128-fp16"), "{note}");
        assert!(!note.contains("fp32"), "{note}");
        assert!(note.contains("few cores"), "{note}");
        assert_eq!(slow_memory_note(&rows[..1], BackendKind::Cpu), "");
        // On a GPU the reason is the launch's fixed time, not a few cores.
        let note = slow_memory_note(&rows, BackendKind::Cuda);
        assert!(
            note.contains("int4-g128-fp16") && note.contains("fixed time"),
            "{note}"
        );
        assert!(!note.contains("few cores"), "{note}");
    }

    #[test]
    fn the_note_names_compute_bound_points_far_below_the_roof_and_only_those() {
        let rows = [
            row("gemv 4x4096x4096 int8", -0.27, Bound::Compute),
            row("gemv 8x4096x4096 bf16", -0.08, Bound::Compute),
            row("gemv 1x4096x4096 fp32", -0.4, Bound::Memory),
        ];
        let note = slow_compute_note(&rows);
        assert!(
            note.contains("more than 20% short of the compute roof: gemv 4x4096x4096 int8."),
            "{note}"
        );
        assert!(!note.contains("bf16") && !note.contains("fp32"), "{note}");
        assert_eq!(slow_compute_note(&rows[1..]), "");
    }

    #[test]
    fn the_note_names_points_faster_than_their_roof_and_only_those() {
        let rows = [
            row("gemv 1x4096x4096 fp32", 0.05, Bound::Memory),
            row("gemm 8x4096x4096 int4-g128-fp16", 0.38, Bound::Compute),
            row("gemv 1x4096x4096 bf16", -0.3, Bound::Memory),
        ];
        let note = beaten_roof_note(&rows);
        assert!(
            note.contains("faster than the roof: gemm 8x4096x4096 int4-g128-fp16."),
            "{note}"
        );
        assert!(!note.contains("fp32") && !note.contains("bf16"), "{note}");
        assert_eq!(beaten_roof_note(&rows[..1]), "");
    }
}
