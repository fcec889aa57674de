//! The CPU backend: kernels against the reference on odd shapes in every format, a
//! corrupted kernel caught by the check, memory refusal, and real bandwidth samples.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use ndarray::Array2;
use rooflinr_model::format::Format;
use rooflinr_model::quant::Codec;
use rooflinr_protocol::OperatorShape;

use super::weights::{Packed, Weights, cpu_formats};
use super::*;
use crate::backend::check::{Compared, reference_dot, verdict};

fn quick() -> StopRule {
    StopRule {
        min_samples: 3,
        max_time: Duration::from_millis(20),
        warmup_runs: 1,
        ..StopRule::DEFAULT
    }
}

fn backend() -> CpuBackend {
    CpuBackend::new(CpuOptions {
        peak_gemm_size: 64,
        stream_array_bytes: Some(1 << 20),
    })
}

#[track_caller]
fn check_cache_size(text: &str, expected: Option<u64>) {
    assert_eq!(parse_cache_size(text), expected, "{text}");
}

#[test]
fn cache_sizes_parse_as_sysfs_writes_them() {
    check_cache_size("32K", Some(32 << 10));
    check_cache_size("1024K", Some(1 << 20));
    check_cache_size("36M", Some(36 << 20));
    check_cache_size("512", Some(512));
    check_cache_size("lots", None);
}

fn sample_weights(format: Format, n: usize, k: usize) -> (Weights, Vec<f32>) {
    let values: Vec<f32> = (0..n * k)
        .map(|i| ((i * 37 % 101) as f32 - 50.0) / 25.0)
        .collect();
    let q = Codec::for_format(format)
        .quantize(&values, k)
        .expect("quantises");
    (
        Weights::from_quantized(&q).expect("cpu format"),
        q.dequantize(),
    )
}

#[test]
fn panels_dequantise_to_the_model_crates_values() {
    // k = 300: groups of 128 end mid-row, and odd rows start mid-byte for INT4.
    for format in cpu_formats() {
        for (n, k) in [(5, 300), (3, 129), (4, 7)] {
            let (w, reference) = sample_weights(format, n, k);
            let mut out = vec![0.0f32; n * k];
            w.dequantize_rows(0, n, &mut out);
            assert_eq!(out, reference, "{format} {n}x{k}");
        }
    }
}

#[test]
fn every_format_measures_on_odd_shapes() {
    let cpu = backend();
    for format in cpu_formats() {
        for shape in [
            OperatorShape {
                m: 1,
                n: 37,
                k: 301,
            },
            OperatorShape {
                m: 5,
                n: 70,
                k: 129,
            },
        ] {
            let work = Work::Operator { shape, format };
            let m = cpu
                .measure(&work, &quick(), &AtomicBool::new(false))
                .unwrap_or_else(|e| panic!("{}: {e}", work.label()));
            let check = m.check.expect("checked");
            assert!(check.outputs_checked > 0 && check.worst_error_ratio <= 1.0);
            assert!(m.stats.samples >= 3 && m.stats.median_s > 0.0);
            assert_eq!(m.flops, 2.0 * (shape.m * shape.n * shape.k) as f64);
            assert!(m.achieved_flops_per_s > 0.0);
        }
    }
}

#[test]
fn a_corrupted_kernel_is_caught_before_any_time() {
    let (n, k) = (8, 256);
    let (mut w, reference) = sample_weights(Format::Grouped(weights::INT4_G128), n, k);
    if let Packed::Int4 { bytes, .. } = &mut w.packed {
        bytes[3 * k / 2 + 5] ^= 0x77; // row 3
    }
    let x: Vec<f32> = (0..k).map(|i| (i as f32).sin()).collect();
    let mut y = vec![0.0f32; n];
    kernels::gemv(&w, &x, &mut y);
    let result = verdict(
        "gemv",
        (0..n).map(|r| {
            let (expected, bound) = reference_dot(&reference[r * k..(r + 1) * k], &x);
            Compared {
                index: r,
                got: f64::from(y[r]),
                expected,
                bound,
            }
        }),
        "test",
    );
    match result {
        Err(MeasureError::WrongResult { index, .. }) => assert_eq!(index, 3),
        other => panic!("expected a wrong result at row 3, got {other:?}"),
    }
}

#[test]
fn gemm_matches_gemv_row_by_row() {
    let (n, k, m) = (130, 96, 3);
    let (w, _) = sample_weights(Format::Bf16, n, k);
    let x = Array2::from_shape_fn((m, k), |(i, j)| ((i * k + j) as f32 * 0.37).cos());
    let mut c = Array2::<f32>::zeros((m, n));
    kernels::gemm(&w, x.view(), c.view_mut());
    for i in 0..m {
        let mut y = vec![0.0f32; n];
        kernels::gemv(&w, x.row(i).as_slice().expect("row-major"), &mut y);
        for j in 0..n {
            assert!(
                (c[[i, j]] - y[j]).abs() <= 1e-4 * (1.0 + y[j].abs()),
                "({i},{j})"
            );
        }
    }
}

#[test]
fn a_shape_larger_than_memory_is_refused_with_both_sizes() {
    let cpu = backend();
    let work = Work::Operator {
        shape: OperatorShape {
            m: 1,
            n: 1 << 24,
            k: 1 << 24,
        },
        format: Format::Fp32,
    };
    let err = cpu
        .measure(&work, &quick(), &AtomicBool::new(false))
        .expect_err("refused");
    let text = err.to_string();
    assert!(matches!(err, MeasureError::OutOfMemory { .. }), "{text}");
    assert!(text.contains("GiB") && text.contains("is free"), "{text}");
}

#[test]
fn bandwidth_kernels_measure_and_check_every_element() {
    let cpu = backend();
    for work in [Work::Copy, Work::Triad] {
        let m = cpu
            .measure(&work, &quick(), &AtomicBool::new(false))
            .expect("measures");
        assert!(m.achieved_bytes_per_s > 0.0);
        assert_eq!(m.check.expect("checked").outputs_checked, (1 << 20) / 8);
    }
}

#[test]
fn unsupported_formats_are_named() {
    let err = backend()
        .measure(
            &Work::Operator {
                shape: OperatorShape { m: 1, n: 8, k: 8 },
                format: Format::NvFp4,
            },
            &quick(),
            &AtomicBool::new(false),
        )
        .expect_err("not a cpu format");
    assert!(err.to_string().contains("nvfp4"), "{err}");
}
