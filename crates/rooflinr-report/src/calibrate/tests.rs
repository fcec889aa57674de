//! Calibration recovers the fractions a synthetic machine was built with, and its errors
//! are honest (leave-one-out).

use rooflinr_model::format::Math;
use rooflinr_model::hardware::{Hardware, registry};
use rooflinr_model::roofline::{Bound, Efficiency};

use super::*;
use crate::kernel::{KernelPoint, MeasuredPeak};

fn h100() -> Hardware {
    registry::get("h100-sxm").unwrap()
}

/// A GEMV/GEMM of `m x n x k` with FP16 weights and activations, "measured" on a machine
/// that reaches `bw` of the datasheet bandwidth and `compute` of the FP16 peak.
fn point(format: &str, m: f64, n: f64, k: f64, bw: f64, compute: f64) -> KernelPoint {
    let bytes = 2.0 * (m * k + k * n + m * n);
    let flops = 2.0 * m * n * k;
    let mut p = KernelPoint {
        kernel: format!("gemm {m}x{n}x{k}"),
        op: "gemm".into(),
        phase: if m < 64.0 { "decode" } else { "prefill" }.into(),
        format: Some(format.parse().unwrap()),
        math: Math::Fp16,
        block_scaled: false,
        flops,
        flops_counted: true,
        bytes,
        time_s: 1.0,
        energy_j: None,
        source: KernelSource::Other("synthetic".into()),
    };
    let eff = Efficiency {
        bandwidth: bw,
        compute,
        compute_by_math: Vec::new(),
    };
    p.time_s = p.predict(&h100(), &eff).time.get();
    p
}

fn grid(bw: f64, compute: f64) -> Vec<KernelPoint> {
    let mut v = Vec::new();
    for m in [1.0, 4.0, 16.0, 2048.0, 4096.0, 8192.0] {
        for n in [4096.0, 8192.0] {
            v.push(point("fp16", m, n, 4096.0, bw, compute));
        }
    }
    v
}

#[test]
fn the_fit_recovers_the_machines_fractions() {
    let points = grid(0.8, 0.6);
    let cal = Calibration::fit(&points, &h100(), &MeasuredCeilings::default());
    assert!(
        (cal.bandwidth.value - 0.8).abs() < 1e-9,
        "{:?}",
        cal.bandwidth
    );
    assert_eq!(cal.bandwidth.from, "operators");
    assert_eq!(cal.bandwidth.points, 6);
    let c = cal.compute.as_ref().unwrap();
    assert!((c.value - 0.6).abs() < 1e-9, "{c:?}");
    assert!((cal.compute_for("fp16").value - 0.6).abs() < 1e-9);
    let e = cal.efficiency_for("fp16");
    assert!((e.bandwidth - 0.8).abs() < 1e-9 && (e.compute - 0.6).abs() < 1e-9);
}

#[test]
fn errors_before_and_after_calibration() {
    let points = grid(0.8, 0.6);
    let (rows, loo) = compare(&points, &h100(), &MeasuredCeilings::default());
    assert!(loo);
    for r in &rows {
        // The datasheet is 1/0.8 or 1/0.6 times too fast; the calibrated roof is exact.
        let expected = match r.datasheet_bound {
            Bound::Memory => 0.8 - 1.0,
            Bound::Compute => 0.6 - 1.0,
        };
        assert!((r.datasheet_error() - expected).abs() < 1e-9, "{r:?}");
        assert!(r.calibrated_error().abs() < 1e-9, "{r:?}");
    }
    let summary = summarise(&rows);
    assert_eq!(summary.len(), 2);
    assert_eq!(summary.iter().map(|s| s.points).sum::<usize>(), rows.len());
    let memory = summary.iter().find(|s| s.bound == Bound::Memory).unwrap();
    assert!((memory.datasheet_mean - 0.2).abs() < 1e-9);
    assert!(memory.calibrated_max < 1e-9);
}

#[test]
fn a_format_measured_once_is_not_predicted_by_itself() {
    let mut points = grid(0.8, 0.6);
    // One INT8 GEMV on a kernel that reaches only half the bandwidth.
    let mut odd = point("int8", 1.0, 4096.0, 4096.0, 0.4, 0.6);
    odd.math = Math::Fp16;
    points.push(odd);
    let (rows, _) = compare(&points, &h100(), &MeasuredCeilings::default());
    let last = rows.last().unwrap();
    assert_eq!(last.key, "int8");
    // Left out, it is predicted with the FP16 kernels' fraction: 0.4 / 0.8 - 1 = -50%.
    assert!((last.calibrated_error() + 0.5).abs() < 1e-9, "{last:?}");
    // In the full fit, INT8 has its own fraction.
    let cal = Calibration::fit(&points, &h100(), &MeasuredCeilings::default());
    assert!((cal.bandwidth_for("int8").value - 0.4).abs() < 1e-9);
}

#[test]
fn measured_ceilings_stand_in_where_no_operator_says() {
    let hw = h100();
    // Only compute-bound points: the bandwidth comes from the copy ceiling.
    let points: Vec<KernelPoint> = grid(0.8, 0.6)
        .into_iter()
        .filter(|p| p.phase == "prefill")
        .collect();
    let ceilings = MeasuredCeilings {
        bandwidth: Some((0.9 * hw.memory_bandwidth.value.get(), "copy".into())),
        read: None,
        peaks: vec![MeasuredPeak {
            format: rooflinr_model::format::Format::Int8,
            math: Math::Int8,
            flops_per_s: 0.5 * hw.peak(Math::Int8).unwrap().get(),
        }],
        device: None,
    };
    let cal = Calibration::fit(&points, &hw, &ceilings);
    assert!((cal.bandwidth.value - 0.9).abs() < 1e-9);
    assert_eq!(cal.bandwidth.from, "bandwidth ceiling");
    assert!((cal.compute_for("int8").value - 0.5).abs() < 1e-9);
    assert_eq!(cal.compute_for("int8").from, "peak GEMM ceiling");
    // Nothing at all: the datasheet.
    let none = Calibration::fit(&[], &hw, &MeasuredCeilings::default());
    assert_eq!(none, Calibration::datasheet());
}

#[test]
fn each_source_is_calibrated_on_its_own() {
    let hw = h100();
    // One machine reaches 80% of the bandwidth, an imported file's machine 40%.
    let mut points = grid(0.8, 0.6);
    let mut other = grid(0.4, 0.3);
    for p in &mut other {
        p.source = KernelSource::KernelCsv;
    }
    points.extend(other);
    let (rows, _) = compare(&points, &hw, &MeasuredCeilings::default());
    for r in &rows {
        assert!(r.calibrated_error().abs() < 1e-9, "{r:?}");
    }
    let fits = by_source(&points, &hw, &MeasuredCeilings::default());
    assert_eq!(fits.len(), 2);
    let imported = &fits
        .iter()
        .find(|(s, _)| *s == KernelSource::KernelCsv)
        .unwrap()
        .1;
    assert!((imported.bandwidth.value - 0.4).abs() < 1e-9);
    let summary = summarise(&rows);
    assert_eq!(summary.len(), 4, "two sources x two regimes");
    // Ceilings apply only to the agent points of the device they were measured on.
    let ceilings = MeasuredCeilings {
        bandwidth: Some((0.5 * hw.memory_bandwidth.value.get(), "copy".into())),
        read: None,
        peaks: Vec::new(),
        device: Some("box".into()),
    };
    let compute_only: Vec<KernelPoint> = points
        .iter()
        .filter(|p| p.phase == "prefill")
        .cloned()
        .map(|mut p| {
            if p.source == KernelSource::Other("synthetic".into()) {
                p.source = KernelSource::Agent {
                    backend: rooflinr_protocol::BackendKind::Cuda,
                    device: "box".into(),
                };
            }
            p
        })
        .collect();
    let fits = by_source(&compute_only, &hw, &ceilings);
    let agent = &fits
        .iter()
        .find(|(s, _)| s.agent_device().is_some())
        .unwrap()
        .1;
    assert_eq!(agent.bandwidth.from, "bandwidth ceiling");
    let imported = &fits
        .iter()
        .find(|(s, _)| *s == KernelSource::KernelCsv)
        .unwrap()
        .1;
    assert_eq!(imported.bandwidth.from, "datasheet");
}

#[test]
fn the_fractions_are_the_kernel_term_fit_of_the_shipped_profiles() {
    use rooflinr_model::kernel_time::{KernelTerms, KernelTimes};
    let hw = h100();
    // Scattered fractions: the report's figures are the model crate's fit of the same
    // samples, not a second estimate.
    let mut points = grid(0.8, 0.6);
    for (i, p) in points.iter_mut().enumerate() {
        p.time_s *= 1.0 + 0.05 * ((i % 5) as f64 - 2.0);
    }
    let samples: Vec<(KernelTimes, f64)> = points
        .iter()
        .map(|p| (kernel_times(p, &hw), p.time_s))
        .collect();
    let terms = KernelTerms::fit_fractions(&samples);
    let cal = Calibration::fit(&points, &hw, &MeasuredCeilings::default());
    assert_eq!(cal.bandwidth.value, terms.bandwidth);
    assert_eq!(cal.compute.as_ref().unwrap().value, terms.compute);
    assert_eq!(terms.fixed_s, 0.0);
    // A kernel faster than the datasheet reads as the datasheet, as in the profiles' fit.
    let fast = grid(1.3, 0.6);
    let cal = Calibration::fit(&fast, &hw, &MeasuredCeilings::default());
    assert_eq!(cal.bandwidth.value, 1.0);
}

#[test]
fn a_measured_peak_is_held_against_its_own_product_types_datasheet_peak() {
    // The first H200 run (docs/gpu-runs): cuBLASLt's FP8 x FP8 and INT8 x INT8 peaks at
    // about 1.5 P/s, beside weight-only FP8 and INT8 GEMVs that multiply in FP16. Held
    // against FP16's 990 TFLOP/s they read as 152 % of the datasheet; against their own
    // 1,979, 76 %.
    let run = include_str!("../../../../docs/gpu-runs/h200-2026-11-26/after.jsonl");
    let imported = crate::import::import(run).expect("the agent's JSONL");
    let ceilings = MeasuredCeilings::from_measurements(&imported.measurements);
    let hw = registry::get("h200").unwrap();
    let cal = Calibration::fit(&imported.all_kernels(), &hw, &ceilings);
    for (format, math) in [
        ("fp8-e4m3", Math::Fp8),
        ("int8", Math::Int8),
        ("bf16", Math::Bf16),
    ] {
        let fraction = cal.compute_for(format);
        assert_eq!(fraction.from, "peak GEMM ceiling");
        let measured = ceilings.peak(format.parse().unwrap()).unwrap();
        let datasheet = hw.ceiling(math, false).peak.get();
        assert!((fraction.value - measured / datasheet).abs() < 1e-12);
        assert!(
            (0.7..0.85).contains(&fraction.value),
            "{format}: {}",
            fraction.value
        );
    }
}
