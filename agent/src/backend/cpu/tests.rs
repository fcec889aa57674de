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
            // Whole blocks of 128: INT8 and INT4 take the integer path, checked against
            // the activations as they were quantised.
            OperatorShape {
                m: 3,
                n: 40,
                k: 256,
            },
            // A GEMM (more vectors than the GEMV takes).
            OperatorShape { m: 9, n: 24, k: 64 },
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
fn every_format_has_checked_peaks_the_gemm_and_gemv_batches() {
    let cpu = backend();
    for format in cpu_formats() {
        let shapes = cpu.peak_shapes(format, 64);
        // The wider batch only where its weights take at most half the last-level cache.
        let wide_bytes = format.tensor_bytes(4096.0 * 4096.0).get();
        let llc = cpu
            .info()
            .device
            .and_then(|d| d.last_level_cache_bytes)
            .unwrap_or(super::ASSUMED_LLC) as f64;
        assert_eq!(
            shapes.len(),
            if wide_bytes <= llc / 2.0 { 3 } else { 2 },
            "{format}"
        );
        assert_eq!(
            shapes[0],
            OperatorShape {
                m: 64,
                n: 64,
                k: 64
            }
        );
        assert_eq!(shapes[1].m, kernels::GEMV_MAX_BATCH as u64);
        for shape in shapes {
            let work = Work::PeakGemm { format, shape };
            let m = cpu
                .measure(&work, &quick(), &AtomicBool::new(false))
                .unwrap_or_else(|e| panic!("{}: {e}", work.label()));
            assert_eq!(m.kind, MeasurementKind::PeakGemm);
            assert_eq!(m.shape, Some(shape));
            assert!(m.check.expect("checked").worst_error_ratio <= 1.0);
            assert_eq!(m.flops, 2.0 * (shape.m * shape.n * shape.k) as f64);
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
    // k = 256 is whole blocks: the kernel multiplies int8 activations, and so does the
    // reference.
    assert!(w.integer_path());
    let inputs = kernels::gemv_inputs(&w, &x);
    let result = verdict(
        "gemv",
        (0..n).map(|r| {
            let (expected, bound) = reference_dot(&reference[r * k..(r + 1) * k], &inputs);
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

#[test]
fn simd_dots_match_a_plain_fp64_sum_on_every_length() {
    // Lengths around the lane width (16) and the FP16 chunk (256), tails included.
    for len in [0usize, 1, 15, 16, 17, 255, 256, 257, 1000] {
        let w: Vec<f32> = (0..len)
            .map(|i| ((i * 31 % 17) as f32 - 8.0) / 3.0)
            .collect();
        let x: Vec<f32> = (0..len).map(|i| (i as f32 * 0.1).cos()).collect();
        let bf16: Vec<u16> = w
            .iter()
            .map(|v| half::bf16::from_f32(*v).to_bits())
            .collect();
        let f16: Vec<u16> = w
            .iter()
            .map(|v| half::f16::from_f32(*v).to_bits())
            .collect();
        for (name, got, values) in [
            ("fp32", simd::dot_f32([&w[..]], [&x])[0][0], w.clone()),
            (
                "bf16",
                simd::dot_bf16([&bf16[..]], [&x])[0][0],
                bf16.iter()
                    .map(|b| half::bf16::from_bits(*b).to_f32())
                    .collect(),
            ),
            (
                "fp16",
                simd::dot_f16([&f16[..]], [&x])[0][0],
                f16.iter()
                    .map(|h| half::f16::from_bits(*h).to_f32())
                    .collect(),
            ),
        ] {
            let (expected, bound) = reference_dot(&values, &x);
            assert!(
                (f64::from(got) - expected).abs() <= bound,
                "{name} len {len}: {got} vs {expected}"
            );
        }
    }
}

#[test]
fn activations_quantise_per_block_and_integer_dots_are_exact_per_block() {
    let k = 2 * simd::ACT_BLOCK;
    let x: Vec<f32> = (0..k)
        .map(|i| (i as f32 * 0.37).sin() * (1 + i / 128) as f32)
        .collect();
    let q = simd::QuantizedActs::new(&x);
    assert_eq!(q.scales.len(), 2);
    // Each value within half a step of its block's scale; the largest maps to +-127.
    for (b, block) in x.chunks(simd::ACT_BLOCK).enumerate() {
        let s = q.scales[b];
        let amax = block.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        assert!((s - amax / 127.0).abs() < 1e-9);
        for (j, v) in block.iter().enumerate() {
            let c = q.codes[b * simd::ACT_BLOCK + j];
            assert!((f32::from(c) * s - v).abs() <= 0.5 * s + 1e-6);
        }
        // The split order: even elements, then odd ones.
        let split = &q.split[b * simd::ACT_BLOCK..(b + 1) * simd::ACT_BLOCK];
        for j in 0..simd::ACT_BLOCK / 2 {
            assert_eq!(split[j], q.codes[b * simd::ACT_BLOCK + 2 * j]);
            assert_eq!(
                split[simd::ACT_BLOCK / 2 + j],
                q.codes[b * simd::ACT_BLOCK + 2 * j + 1]
            );
        }
    }
    // INT8 and INT4 rows against the plain integer sums.
    let w8: Vec<i8> = (0..k)
        .map(|i| ((i * 53 % 255) as i32 - 127) as i8)
        .collect();
    let plain8: f32 = w8
        .chunks(simd::ACT_BLOCK)
        .zip(q.codes.chunks(simd::ACT_BLOCK))
        .zip(&q.scales)
        .map(|((w, c), s)| {
            w.iter()
                .zip(c)
                .map(|(a, b)| i32::from(*a) * i32::from(*b))
                .sum::<i32>() as f32
                * s
        })
        .sum();
    assert_eq!(simd::dot_i8([&w8[..]], [&q]), [[plain8]]);
    let codes4: Vec<i8> = (0..k).map(|i| ((i * 7 % 16) as i8) - 8).collect();
    assert!(q.codes.iter().all(|c| (-127..=127).contains(c)));
    let bytes: Vec<u8> = codes4
        .chunks(2)
        .map(|p| (p[0] as u8 & 0x0f) | ((p[1] as u8) << 4))
        .collect();
    let wscales = [
        half::f16::from_f32(0.5).to_bits(),
        half::f16::from_f32(0.25).to_bits(),
    ];
    let plain4: f32 = codes4
        .chunks(simd::ACT_BLOCK)
        .zip(q.codes.chunks(simd::ACT_BLOCK))
        .zip(q.scales.iter().zip(wscales))
        .map(|((w, c), (s, ws))| {
            w.iter()
                .zip(c)
                .map(|(a, b)| i32::from(*a) * i32::from(*b))
                .sum::<i32>() as f32
                * (half::f16::from_bits(ws).to_f32() * s)
        })
        .sum();
    assert_eq!(simd::dot_i4([&bytes[..]], [&wscales[..]], [&q]), [[plain4]]);
}

#[test]
fn a_batched_gemv_equals_one_vector_at_a_time() {
    // Integer weights: bit for bit (exact integer sums per block, the same scales). Float
    // weights: within FP32 rounding of the FP64 reference's bound, since a batch of four
    // runs the wide kernels where the CPU has AVX-512 (sixteen lanes a sum, not eight).
    for format in cpu_formats() {
        let (n, k, m) = (37, 256, 5);
        let (w, dequantized) = sample_weights(format, n, k);
        let x: Vec<f32> = (0..m * k).map(|i| (i as f32 * 0.11).sin()).collect();
        let mut batched = vec![0.0f32; m * n];
        kernels::gemv(&w, &x, &mut batched);
        for i in 0..m {
            let xi = &x[i * k..(i + 1) * k];
            let mut one = vec![0.0f32; n];
            kernels::gemv(&w, xi, &mut one);
            let batch_row = &batched[i * n..(i + 1) * n];
            if w.integer_path() {
                assert_eq!(batch_row, &one[..], "{format} vector {i}");
                continue;
            }
            for (r, (b, o)) in batch_row.iter().zip(&one).enumerate() {
                let (_, bound) = reference_dot(&dequantized[r * k..(r + 1) * k], xi);
                let diff = f64::from((b - o).abs());
                assert!(
                    diff <= bound,
                    "{format} vector {i} row {r}: {b} vs {o}, bound {bound}"
                );
            }
        }
    }
}

#[test]
fn every_fp16_bit_pattern_converts_exactly() {
    // All 65,536 halves, sixteen copies each (a whole chunk of lanes, so the F16C
    // conversion runs where the CPU has it, and the bit arithmetic in the portable loop),
    // times x = 1: the dot is 16 times the value, exactly (at most 15 significant bits);
    // infinities stay infinite and NaNs stay NaN. The one-element dot runs the tail.
    let x = [1.0f32; 16];
    for bits in 0..=u16::MAX {
        let want = half::f16::from_bits(bits).to_f32();
        let w = [bits; 16];
        for (path, got) in [
            ("dispatched", simd::dot_f16([&w[..]], [&x])[0][0]),
            ("portable", simd::dot_f16_portable([&w[..]], [&x])[0][0]),
            ("tail", simd::dot_f16([&w[..1]], [&x[..1]])[0][0] * 16.0),
        ] {
            if want.is_nan() {
                assert!(got.is_nan(), "{path} {bits:#06x}");
            } else {
                assert_eq!(
                    got.to_bits(),
                    (want * 16.0 + 0.0).to_bits(),
                    "{path} {bits:#06x}"
                );
            }
        }
    }
}

#[test]
fn rows_multiplied_together_equal_rows_multiplied_alone() {
    // Every format, on the float and the integer path: the GEMV multiplies rows in groups
    // (one row from each quarter of a task's rows) and the last few one by one; each row's
    // sum is the same arithmetic in the same order either way, so the results are equal
    // bit for bit. 302 rows of 256 values: one task of 75 groups and 2 rows left for
    // INT4; tasks of 256 and 46 rows for FP32 (64 groups, then 11 groups and 2 rows).
    for format in cpu_formats() {
        let (n, k) = (302, 256);
        let (w, _) = sample_weights(format, n, k);
        let x: Vec<f32> = (0..k).map(|i| (i as f32 * 0.07).cos()).collect();
        let mut y = vec![0.0f32; n];
        kernels::gemv(&w, &x, &mut y);
        let inputs = kernels::gemv_inputs(&w, &x);
        let q = simd::QuantizedActs::new(&x);
        for (r, got) in y.iter().enumerate() {
            let [alone] = if w.integer_path() {
                w.rows_dot_q8([r], [&q])[0]
            } else {
                w.rows_dot([r], [&inputs])[0]
            };
            assert_eq!(got.to_bits(), alone.to_bits(), "{format} row {r}");
        }
        let together: [f32; 4] = if w.integer_path() {
            w.rows_dot_q8([0, 7, 150, 301], [&q])[0]
        } else {
            w.rows_dot([0, 7, 150, 301], [&inputs])[0]
        };
        for (r, v) in [0, 7, 150, 301].into_iter().zip(together) {
            assert_eq!(
                v.to_bits(),
                y[r].to_bits(),
                "{format} row {r} in a group of four"
            );
        }
    }
}

#[test]
fn integer_kernels_equal_their_portable_loops_at_the_extremes() {
    // The dispatched kernels (AVX2's byte multiply-adds on x86-64) against the portable
    // loops, bit for bit, on the codes that would overflow a careless 16-bit sum: every
    // INT4 nibble at -8 or 7, INT8 weights at -128 and 127, activations at +-127, with
    // ordinary rows between them. Four rows at once, eight blocks.
    let k = 8 * simd::ACT_BLOCK;
    let x: Vec<f32> = (0..k)
        .map(|i| match i % 5 {
            0 => 1.0,
            1 => -1.0,
            _ => (i as f32 * 0.31).sin(),
        })
        .collect();
    let q = simd::QuantizedActs::new(&x);
    assert!(q.codes.contains(&127) && q.codes.contains(&-127));
    let int8_rows: [Vec<i8>; 4] = [
        vec![-128; k],
        vec![127; k],
        (0..k)
            .map(|i| if i % 2 == 0 { -128 } else { 127 })
            .collect(),
        (0..k)
            .map(|i| ((i * 37 % 256) as i32 - 128) as i8)
            .collect(),
    ];
    let rows8: [&[i8]; 4] = std::array::from_fn(|r| &int8_rows[r][..]);
    let (fast, portable) = (
        simd::dot_i8(rows8, [&q])[0],
        simd::dot_i8_portable(rows8, [&q])[0],
    );
    assert_eq!(fast.map(f32::to_bits), portable.map(f32::to_bits));
    let int4_rows: [Vec<u8>; 4] = [
        vec![0x88; k / 2], // -8, -8
        vec![0x77; k / 2], // 7, 7
        vec![0x78; k / 2], // -8, 7
        (0..k / 2).map(|i| (i * 59 % 256) as u8).collect(),
    ];
    let scales: Vec<u16> = (0..k / simd::ACT_BLOCK)
        .map(|g| half::f16::from_f32(0.01 * (g + 1) as f32).to_bits())
        .collect();
    let rows4: [&[u8]; 4] = std::array::from_fn(|r| &int4_rows[r][..]);
    let scales4 = [&scales[..]; 4];
    let (fast, portable) = (
        simd::dot_i4(rows4, scales4, [&q])[0],
        simd::dot_i4_portable(rows4, scales4, [&q])[0],
    );
    assert_eq!(fast.map(f32::to_bits), portable.map(f32::to_bits));
    // Batches (two and four vectors: the kernels' paths that prefetch the rows) give each
    // vector the same bits as the portable loops.
    let q2 = simd::QuantizedActs::new(&x.iter().rev().copied().collect::<Vec<_>>());
    let pair = [&q, &q2];
    let four = [&q, &q2, &q2, &q];
    assert_eq!(
        simd::dot_i8(rows8, pair).map(|v| v.map(f32::to_bits)),
        simd::dot_i8_portable(rows8, pair).map(|v| v.map(f32::to_bits))
    );
    assert_eq!(
        simd::dot_i8(rows8, four).map(|v| v.map(f32::to_bits)),
        simd::dot_i8_portable(rows8, four).map(|v| v.map(f32::to_bits))
    );
    assert_eq!(
        simd::dot_i4(rows4, scales4, pair).map(|v| v.map(f32::to_bits)),
        simd::dot_i4_portable(rows4, scales4, pair).map(|v| v.map(f32::to_bits))
    );
    assert_eq!(
        simd::dot_i4(rows4, scales4, four).map(|v| v.map(f32::to_bits)),
        simd::dot_i4_portable(rows4, scales4, four).map(|v| v.map(f32::to_bits))
    );
    // And the all -8 row is -8 times the activations' sum, group by group.
    let expected: f32 = q
        .sums
        .iter()
        .zip(&q.scales)
        .zip(&scales)
        .map(|((sum, s), ws)| (-8 * sum) as f32 * (half::f16::from_bits(*ws).to_f32() * s))
        .sum();
    assert_eq!(fast[0], expected);
}

#[test]
fn a_batch_of_up_to_eight_vectors_is_a_gemv_judged_by_the_read_bandwidth() {
    let cpu = backend();
    let measure = |work: Work| {
        cpu.measure(&work, &quick(), &AtomicBool::new(false))
            .unwrap_or_else(|e| panic!("{}: {e}", work.label()))
    };
    let operator = |m: u64| Work::Operator {
        shape: OperatorShape { m, n: 16, k: 128 },
        format: Format::Bf16,
    };
    let batch = crate::backend::GEMV_MAX_BATCH;
    let (gemv, gemm) = (measure(operator(batch)), measure(operator(batch + 1)));
    assert_eq!(
        (gemv.label.as_str(), gemv.kind),
        ("gemv 8x16x128 bf16", MeasurementKind::Gemv)
    );
    assert_eq!(
        (gemm.label.as_str(), gemm.kind),
        ("gemm 9x16x128 bf16", MeasurementKind::Gemm)
    );
    // A GEMV's roof is the read bandwidth, a GEMM's the best of the three.
    let read = measure(Work::Read);
    let ceiling = |kind: MeasurementKind, rate: f64| Measurement {
        kind,
        achieved_bytes_per_s: rate,
        ..read.clone()
    };
    let ceilings = rooflinr_report::MeasuredCeilings::from_measurements(&[
        ceiling(MeasurementKind::Read, 10e9),
        ceiling(MeasurementKind::Triad, 20e9),
    ]);
    let roof = |m: &Measurement| ceilings.predict(m).expect("predicts").bandwidth;
    assert_eq!((roof(&gemv), roof(&gemm)), (10e9, 20e9));
}
