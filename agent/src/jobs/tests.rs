//! Request validation and the comparison with measured ceilings.

use rooflinr_model::format::Format;
use rooflinr_protocol::{MeasurementKind, OperatorShape, Stats};

use super::*;
use crate::backend::cpu::kernels::GEMV_MAX_BATCH;
use crate::backend::cpu::{CpuBackend, CpuOptions};

fn cpu() -> CpuBackend {
    CpuBackend::new(CpuOptions {
        peak_gemm_size: 64,
        stream_array_bytes: Some(1 << 20),
    })
}

/// A job measuring every shape in every format (names the model crate parses; an unknown
/// name never reaches a job: the protocol refuses the message, naming it).
fn operators(shapes: &[(u64, u64, u64)], formats: &[&str]) -> JobRequest {
    JobRequest {
        kind: JobKind::Operators {
            shapes: shapes
                .iter()
                .map(|&(m, n, k)| OperatorShape { m, n, k })
                .collect(),
            formats: formats.iter().map(|f| f.parse().unwrap()).collect(),
        },
        backend: None,
        budget: None,
    }
}

#[track_caller]
fn check_refused(request: JobRequest, fragment: &str) {
    let err = plan(&request, &cpu()).expect_err("refused").to_string();
    assert!(
        err.contains(fragment),
        "`{err}` should contain `{fragment}`"
    );
}

#[test]
fn bad_requests_are_refused_with_the_field_named() {
    check_refused(operators(&[], &["fp16"]), "at least one shape");
    check_refused(
        operators(&[(1, 0, 8)], &["fp16"]),
        "shapes[0]: N = 0 is outside",
    );
    check_refused(
        operators(&[(1, 8, 8), (1, 8, 1 << 21)], &["fp16"]),
        "shapes[1]: K = 2097152 is outside",
    );
    check_refused(
        operators(&[(1, 8, 8)], &["nvfp4"]),
        "does not measure `nvfp4`",
    );
    check_refused(
        operators(
            &[
                (1, OperatorShape::MAX_DIM, OperatorShape::MAX_DIM),
                (1, 8, 8),
            ],
            &["fp32"],
        ),
        "is free",
    );
    let many: Vec<(u64, u64, u64)> = (1..=300).map(|n| (1, n, 8)).collect();
    check_refused(
        operators(&many, &["fp16", "fp32", "int8", "bf16"]),
        "over the limit",
    );
}

#[test]
fn http_api_spellings_of_formats_are_accepted() {
    // The model crate's one parser reads the API's spellings.
    assert_eq!("FP8_E4M3".parse::<Format>().ok(), Some(Format::Fp8E4m3));
    assert_eq!(
        " INT4_G128 ".parse::<Format>().map(|f| f.name()).ok(),
        Some("int4-g128-fp16".into())
    );
    let items = plan(
        &operators(&[(1, 8, 8), (4, 8, 8)], &["FP16", "int8"]),
        &cpu(),
    )
    .expect("valid");
    assert_eq!(items.len(), 4);
}

#[test]
fn ceilings_jobs_measure_bandwidth_then_every_peak_format() {
    let request = JobRequest {
        kind: JobKind::Ceilings,
        backend: Some(rooflinr_protocol::BackendKind::Cpu),
        budget: None,
    };
    let items = plan(&request, &cpu()).expect("valid");
    assert_eq!(items[..3], [Work::Read, Work::Copy, Work::Triad]);
    // Each format's peaks, as the backend names them: the square GEMM and the full GEMV
    // batches from cache.
    let backend = cpu();
    let formats = backend.peak_formats();
    let expected: Vec<Vec<OperatorShape>> = formats
        .iter()
        .map(|&f| backend.peak_shapes(f, backend.peak_gemm_size()))
        .collect();
    assert_eq!(
        items.len(),
        3 + expected.iter().map(Vec::len).sum::<usize>()
    );
    for (format, expected) in formats.into_iter().zip(expected) {
        let peaks: Vec<OperatorShape> = items
            .iter()
            .filter_map(|w| match *w {
                Work::PeakGemm { format: f, shape } if f == format => Some(shape),
                _ => None,
            })
            .collect();
        assert_eq!(peaks, expected, "{format}");
        assert!(peaks.iter().any(|s| s.m == s.n && s.n == s.k));
        assert!(peaks.iter().any(|s| s.m == GEMV_MAX_BATCH as u64));
    }
}

/// A CPU measurement of `flops` and `bytes` in FP32 with `median_s` as every statistic
/// (the other modules' tests change the fields they need).
pub(crate) fn measured(
    kind: MeasurementKind,
    flops: f64,
    bytes: f64,
    median_s: f64,
) -> Measurement {
    // Ten samples of the same time, one second of sampling.
    let stats = Stats::summarize(&[median_s; 10], true, 1.0);
    Measurement {
        format: Some(Format::Fp32),
        ..Measurement::sampled(
            kind,
            String::new(),
            rooflinr_protocol::BackendKind::Cpu,
            String::new(),
            (flops, bytes, ""),
            stats,
            0.0,
        )
    }
}

#[test]
fn operators_are_compared_with_the_binding_measured_ceiling() {
    let mut ceilings = MeasuredCeilings::default();
    ceilings.record(&measured(MeasurementKind::Copy, 0.0, 10e9, 1.0));
    ceilings.record(&measured(MeasurementKind::Triad, 0.0, 12e9, 1.0));
    ceilings.record(&measured(MeasurementKind::PeakGemm, 100e9, 1.0, 1.0));
    // A slower repeat of a peak does not lower it.
    ceilings.record(&measured(MeasurementKind::PeakGemm, 50e9, 1.0, 1.0));
    assert_eq!(ceilings.bandwidth, Some((12e9, "triad".to_string())));
    assert_eq!(ceilings.peak(Format::Fp32), Some(100e9));

    // Memory-bound: 6 GB at 12 GB/s is 0.5 s; measured 1 s.
    let mut gemv = measured(MeasurementKind::Gemv, 1e9, 6e9, 1.0);
    compare_with_ceilings(&ceilings, &mut gemv);
    assert_eq!(gemv.fraction_of_ceiling, Some(0.5));
    assert_eq!(
        gemv.ceiling_name.as_deref(),
        Some("measured triad bandwidth 12.0 GB/s")
    );

    // Compute-bound: 400 GFLOP at 100 GFLOP/s is 4 s; measured 5 s.
    let mut gemm = measured(MeasurementKind::Gemm, 400e9, 1.2e9, 5.0);
    compare_with_ceilings(&ceilings, &mut gemm);
    assert_eq!(gemm.fraction_of_ceiling, Some(0.8));
    assert_eq!(
        gemm.ceiling_name.as_deref(),
        Some("measured fp32 gemm peak 100.0 GFLOP/s")
    );
}
