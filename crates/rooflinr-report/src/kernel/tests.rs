//! Kernel points from agent measurements, and the measured ceilings.

use rooflinr_model::format::Math;
use rooflinr_model::hardware::registry;
use rooflinr_model::roofline::{Bound, Efficiency};
use rooflinr_protocol::{Measurement, MeasurementKind, OperatorShape, Stats};

use super::*;

/// A measurement as the agent reports it.
pub(crate) fn measurement(
    kind: MeasurementKind,
    format: Option<&str>,
    flops: f64,
    bytes: f64,
    median_s: f64,
) -> Measurement {
    // Ten samples of the same time, one second of sampling.
    let stats = Stats::summarize(&[median_s; 10], true, 1.0);
    Measurement {
        format: format.map(|f| f.parse().unwrap()),
        activation_format: format.map(|_| Format::Fp32),
        shape: format.map(|_| OperatorShape {
            m: 1,
            n: 4096,
            k: 4096,
        }),
        energy_j: Some(0.5),
        ..Measurement::sampled(
            kind,
            format!("{kind:?} {}", format.unwrap_or("")).to_lowercase(),
            rooflinr_protocol::BackendKind::Cpu,
            "test cpu".into(),
            (flops, bytes, "read + write"),
            stats,
            0.0,
        )
    }
}

#[test]
fn operator_measurements_become_points_with_the_product_type() {
    let m = measurement(
        MeasurementKind::Gemv,
        Some("int8"),
        2.0 * 4096.0 * 4096.0,
        16.8e6,
        3e-3,
    );
    let p = KernelPoint::from_measurement(&m).expect("a GEMV is a kernel point");
    assert_eq!(p.op, "gemv");
    assert_eq!(p.phase, "decode");
    // FP32 activations with INT8 weights run as FP32 on the CPU backend.
    assert_eq!(p.math, Math::Fp32);
    assert_eq!(p.time_s, 3e-3);
    assert_eq!(p.energy_j, Some(0.5));
    assert!((p.intensity() - 2.0 * 4096.0 * 4096.0 / 16.8e6).abs() < 1e-12);
    let gemm = measurement(MeasurementKind::Gemm, Some("int4_g128"), 1e9, 1e6, 1e-3);
    let p = KernelPoint::from_measurement(&gemm).expect("a GEMM is a kernel point");
    assert_eq!((p.op.as_str(), p.phase.as_str()), ("gemm", "prefill"));
    // Ceilings are not kernels; nor is a point without a time.
    assert!(
        KernelPoint::from_measurement(&measurement(MeasurementKind::Copy, None, 0.0, 1e9, 0.1))
            .is_none()
    );
    assert!(
        KernelPoint::from_measurement(&measurement(
            MeasurementKind::Gemv,
            Some("fp16"),
            1.0,
            1.0,
            0.0
        ))
        .is_none()
    );
}

#[test]
fn a_point_predicts_like_the_roofline() {
    let hw = registry::get("h100-sxm").unwrap();
    let m = measurement(
        MeasurementKind::Gemv,
        Some("fp16"),
        2.0 * 4096.0 * 4096.0,
        2.0 * 4096.0 * 4096.0,
        1e-4,
    );
    let mut p = KernelPoint::from_measurement(&m).unwrap();
    p.math = Math::Fp16;
    let d = p.predict(&hw, &Efficiency::IDEAL);
    assert_eq!(d.bound, Bound::Memory);
    assert!((d.time.get() - p.bytes / hw.memory_bandwidth.value.get()).abs() < 1e-15);
}

#[test]
fn ceilings_keep_the_best_bandwidth_and_each_formats_best_peak() {
    let ms = vec![
        measurement(MeasurementKind::Copy, None, 0.0, 2e9, 0.1),
        measurement(MeasurementKind::Triad, None, 0.0, 3e9, 0.1),
        measurement(MeasurementKind::PeakGemm, Some("fp32"), 1e11, 1e7, 1.0),
        measurement(MeasurementKind::PeakGemm, Some("fp32"), 2e11, 1e7, 1.0),
        measurement(MeasurementKind::PeakGemm, Some("int8"), 5e10, 1e7, 1.0),
        measurement(MeasurementKind::Gemv, Some("int8"), 5e10, 1e7, 1.0),
    ];
    let c = MeasuredCeilings::from_measurements(&ms);
    assert_eq!(c.bandwidth, Some((3e10, "triad".to_string())));
    // The test agent multiplies in FP32 activations: both products run as FP32.
    let peak = |format, flops_per_s| MeasuredPeak {
        format,
        math: Math::Fp32,
        flops_per_s,
    };
    assert_eq!(
        c.peaks,
        vec![peak(Format::Fp32, 2e11), peak(Format::Int8, 5e10)]
    );
    assert_eq!(c.device.as_deref(), Some("test cpu"));
    assert_eq!(
        MeasuredCeilings::from_measurements(&ms[5..]),
        MeasuredCeilings::default()
    );
}

#[test]
fn a_gemv_is_predicted_from_the_read_bandwidth_a_gemm_from_the_best() {
    // Triad (3 GB/s) beats read (2 GB/s) here; a GEMV only reads, so it meets the read
    // figure; a GEMM meets the best.
    let ms = vec![
        measurement(MeasurementKind::Read, None, 0.0, 2e9, 1.0),
        measurement(MeasurementKind::Triad, None, 0.0, 3e9, 1.0),
    ];
    let c = MeasuredCeilings::from_measurements(&ms);
    assert_eq!(c.read, Some(2e9));
    let gemv = measurement(MeasurementKind::Gemv, Some("fp32"), 1e6, 4e6, 1e-3);
    let p = c.predict(&gemv).unwrap();
    assert_eq!((p.bandwidth, p.bandwidth_kernel.as_str()), (2e9, "read"));
    assert!((p.prediction.time.get() - 4e6 / 2e9).abs() < 1e-15);
    let gemm = measurement(MeasurementKind::Gemm, Some("fp32"), 1e6, 4e6, 1e-3);
    assert_eq!(c.predict(&gemm).unwrap().bandwidth_kernel, "triad");
    // Without a read measurement a GEMV falls back to the best bandwidth.
    let c = MeasuredCeilings::from_measurements(&ms[1..]);
    assert_eq!(c.predict(&gemv).unwrap().bandwidth_kernel, "triad");
}

#[test]
fn a_source_is_stored_as_its_text_and_read_back_as_the_same_source() {
    let agent = KernelSource::Agent {
        backend: rooflinr_protocol::BackendKind::Cuda,
        device: "NVIDIA H100 80GB HBM3".into(),
    };
    for source in [
        agent.clone(),
        KernelSource::NsightCompute,
        KernelSource::KernelCsv,
        KernelSource::Other("hand-timed".into()),
    ] {
        let json = serde_json::to_string(&source).unwrap();
        assert_eq!(json, format!("\"{source}\""));
        assert_eq!(serde_json::from_str::<KernelSource>(&json).unwrap(), source);
    }
    // Lab files written before the type read the same: the agent's text names its device.
    let old: KernelSource =
        serde_json::from_str("\"measured: agent cuda on NVIDIA H100 80GB HBM3\"").unwrap();
    assert_eq!(old, agent);
    assert_eq!(old.agent_device(), Some("NVIDIA H100 80GB HBM3"));
    assert_eq!(KernelSource::KernelCsv.agent_device(), None);
}
