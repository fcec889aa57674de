//! Fitting: each term recovered from times it made, the ladders, refinement.

use super::*;

#[test]
fn the_roofline_is_the_bound_and_the_terms_the_expectation() {
    let t = gemm(2e-6, 5e-6);
    assert_eq!(KernelTerms::ROOFLINE.predict(t), 5e-6);
    let terms = KernelTerms {
        fixed_s: 3e-6,
        bandwidth: 0.8,
        compute: 0.5,
        per_wave_s: 0.0,
        tile_bandwidth: 1.0,
        l2_bandwidth: f64::INFINITY,
        overlap: f64::INFINITY,
        ..KernelTerms::ROOFLINE
    };
    assert!((terms.predict(t) - 13e-6).abs() < 1e-18);
    assert_eq!(terms.regime(t), Regime::Compute);
    assert_eq!(terms.regime(gemm(1e-9, 1e-9)), Regime::Fixed);
    assert_eq!(terms.regime(gemm(1e-3, 1e-6)), Regime::Memory);
}

#[test]
fn fitting_recovers_the_terms_that_made_the_times() {
    let truth = KernelTerms {
        fixed_s: 4e-6,
        bandwidth: 0.82,
        compute: 0.71,
        per_wave_s: 0.0,
        tile_bandwidth: 1.0,
        l2_bandwidth: f64::INFINITY,
        overlap: f64::INFINITY,
        ..KernelTerms::ROOFLINE
    };
    // Sizes over five decades, both regimes, with +-3 % noise from a fixed pattern.
    let samples: Vec<(KernelTimes, f64)> = (0..400)
        .map(|i| {
            let scale = 10f64.powf(-7.0 + 5.0 * (i as f64) / 400.0);
            let mut t = if i % 2 == 0 {
                gemm(scale, scale / 4.0)
            } else {
                gemm(scale / 4.0, scale)
            };
            t.quantise_s = if i % 3 == 0 { scale / 8.0 } else { 0.0 };
            let noise = 1.0 + 0.03 * (((i * 7919) % 13) as f64 / 6.0 - 1.0);
            (t, truth.predict(t) * noise)
        })
        .collect();
    let fitted = KernelTerms::fit(&samples);
    assert!(
        (fitted.fixed_s / truth.fixed_s - 1.0).abs() < 0.1,
        "{fitted:?}"
    );
    assert!(
        (fitted.bandwidth / truth.bandwidth - 1.0).abs() < 0.05,
        "{fitted:?}"
    );
    assert!(
        (fitted.compute / truth.compute - 1.0).abs() < 0.05,
        "{fitted:?}"
    );
    assert_eq!(KernelTerms::fit(&[]), KernelTerms::ROOFLINE);
}

/// Block-scaled FP8 on Hopper in miniature: the GEMM streams its operands at 85 % of
/// the datasheet, its quantisation pass at 30 %. Kernels whose pass is most of their
/// time (large M, small N) tell the pass's rate apart, and the fit finds it on its
/// ladder; where every pass runs at the GEMM's rate, none is fitted apart.
#[test]
fn a_quantisation_pass_slower_than_the_gemm_is_fitted_its_own_rate() {
    let truth = KernelTerms {
        fixed_s: 4e-6,
        bandwidth: 0.85,
        compute: 0.75,
        quantise_bandwidth: Some(0.3),
        ..KernelTerms::ROOFLINE
    };
    let samples = |truth: KernelTerms| {
        // From a pass a tenth of the GEMM's bytes to one three times them.
        spread_of_gemms(&truth, |t, i| {
            t.quantise_s = t.memory_s * [0.1, 0.5, 1.0, 3.0][i % 4];
        })
    };
    let fitted = KernelTerms::fit(&samples(truth));
    let rate = fitted.quantise_bandwidth.expect("a rate of its own");
    assert!((rate / 0.3 - 1.0).abs() < 0.1, "{fitted:?}");
    assert!((fitted.bandwidth / 0.85 - 1.0).abs() < 0.05, "{fitted:?}");
    // The pass's time is its bytes at its own rate, outside the throughput terms.
    let t = KernelTimes {
        quantise_s: 1e-4,
        ..gemm(0.0, 0.0)
    };
    assert!((truth.predict(t) - (4e-6 + 1e-4 / 0.3)).abs() < 1e-12);
    let same = KernelTerms {
        quantise_bandwidth: None,
        ..truth
    };
    let refitted = KernelTerms::fit(&samples(same));
    assert!(
        refitted
            .quantise_bandwidth
            .is_none_or(|q| (q / 0.85 - 1.0).abs() < 0.1),
        "{refitted:?}"
    );
}

/// GEMMs whose activations a block per token quantises first, from no steps to a few
/// thousand a kernel, at 0.5 us a step (vLLM's FP8 GEMMs on H200 fit 0.50 us): the fit
/// finds the step on its ladder beside the fixed time, and where no sample quantises so,
/// fits none.
#[test]
fn a_per_token_quantisation_pass_is_fitted_the_latency_of_its_step() {
    let truth = KernelTerms {
        fixed_s: 5e-6,
        bandwidth: 0.8,
        compute: 0.7,
        quantise_step_s: 0.5e-6,
        ..KernelTerms::ROOFLINE
    };
    let samples = spread_of_gemms(&truth, |t, i| {
        t.quantise_steps = [0.0, 2.0, 40.0, 500.0, 3000.0][(i / 5) % 5];
    });
    let fitted = KernelTerms::fit(&samples);
    assert_eq!(fitted.quantise_step_s, 0.5e-6, "{fitted:?}");
    assert!((fitted.fixed_s / 5e-6 - 1.0).abs() < 0.05, "{fitted:?}");
    // The steps add their latency outside the throughput terms.
    let stepped = KernelTimes {
        quantise_steps: 100.0,
        ..gemm(0.0, 0.0)
    };
    assert!((truth.predict(stepped) - 55e-6).abs() < 1e-12);
    let none = spread_of_gemms(&truth, |_, _| {});
    assert_eq!(KernelTerms::fit(&none).quantise_step_s, 0.0);
}

/// A prefill kernel that walks every causal tile under a sliding window, in miniature:
/// a tile the window hides costs three eighths of a computed one. Kernels whose hidden tiles
/// are from none to three times the tiles they compute tell the share apart, and the
/// fit finds it on its ladder; where hidden tiles cost nothing, none is fitted.
#[test]
fn a_tile_the_window_hides_is_fitted_the_share_of_a_computed_one_it_costs() {
    let truth = KernelTerms {
        fixed_s: 8e-6,
        bandwidth: 0.7,
        compute: 0.5,
        hidden_tile_share: 0.375,
        ..KernelTerms::ROOFLINE
    };
    let samples = |truth: KernelTerms| {
        spread_of_gemms(&truth, |t, i| {
            t.hidden_tiles_s = t.compute_s * [0.0, 0.5, 1.0, 3.0][i % 4];
        })
    };
    let fitted = KernelTerms::fit(&samples(truth));
    assert_eq!(fitted.hidden_tile_share, 0.375, "{fitted:?}");
    assert!((fitted.compute / 0.5 - 1.0).abs() < 0.05, "{fitted:?}");
    // A hidden tile's time adds to the compute term at its share.
    let t = KernelTimes {
        hidden_tiles_s: 1e-3,
        ..gemm(0.0, 1e-3)
    };
    assert!((truth.predict(t) - (8e-6 + (1e-3 + 0.375e-3) / 0.5)).abs() < 1e-12);
    let free = KernelTerms {
        hidden_tile_share: 0.0,
        ..truth
    };
    assert_eq!(KernelTerms::fit(&samples(free)).hidden_tile_share, 0.0);
}

/// Block-scaled GEMMs of which every other one first copies its activations' scales
/// into another layout, at 50 us a copy (vLLM's DeepGEMM path on B200 takes 56 us more
/// where M is not a multiple of 4): the fit reads the copy's time apart from the fixed
/// time, and where no sample copies, fits none.
#[test]
fn a_copy_of_the_scales_before_the_gemm_is_fitted_its_own_time() {
    let truth = KernelTerms {
        fixed_s: 20e-6,
        bandwidth: 0.8,
        compute: 0.7,
        scale_copy_s: 50e-6,
        ..KernelTerms::ROOFLINE
    };
    let samples = spread_of_gemms(&truth, |t, i| t.scale_copies = (i % 2) as f64);
    let fitted = KernelTerms::fit(&samples);
    assert!(
        (fitted.scale_copy_s / 50e-6 - 1.0).abs() < 0.05,
        "{fitted:?}"
    );
    assert!((fitted.fixed_s / 20e-6 - 1.0).abs() < 0.05, "{fitted:?}");
    let copied = KernelTimes {
        scale_copies: 1.0,
        ..gemm(0.0, 0.0)
    };
    assert!((truth.predict(copied) - 70e-6).abs() < 1e-12);
    let none = spread_of_gemms(&truth, |_, _| {});
    assert_eq!(KernelTerms::fit(&none).scale_copy_s, 0.0);
}

/// An epilogue slower than the main loop in miniature: the GEMM reads its operands at
/// 80 % of the datasheet bandwidth and writes its output at 30 %. GEMMs whose output is
/// most of their bytes (large M and N, small K) tell the write's rate apart, and the
/// fit finds it on its ladder; where the output is written at the operands' rate, no
/// slower rate is fitted.
#[test]
fn an_output_written_slower_than_the_operands_stream_is_fitted_its_own_rate() {
    let truth = KernelTerms {
        fixed_s: 3e-6,
        bandwidth: 0.8,
        compute: 0.7,
        write_bandwidth: Some(0.2973),
        ..KernelTerms::ROOFLINE
    };
    let samples = |truth: KernelTerms| {
        // From an output a twentieth of the bytes (decode) to nine tenths (K = 128
        // over a large M x N).
        spread_of_gemms(&truth, |t, i| {
            t.write_s = t.memory_s * [0.05, 0.3, 0.6, 0.9][i % 4];
        })
    };
    let fitted = KernelTerms::fit(&samples(truth));
    let rate = fitted.write_bandwidth.expect("a rate of its own");
    assert!((rate / 0.2973 - 1.0).abs() < 0.1, "{fitted:?}");
    assert!((fitted.bandwidth / 0.8 - 1.0).abs() < 0.05, "{fitted:?}");
    // A memory-bound GEMM's memory term: its reads at the bandwidth fraction, its
    // write at its own rate.
    let t = KernelTimes {
        write_s: 1e-4,
        ..gemm(3e-4, 0.0)
    };
    let want = 3e-6 + 2e-4 / 0.8 + 1e-4 / 0.2973;
    assert!(
        (truth.predict(t) / want - 1.0).abs() < 1e-12,
        "{}",
        truth.predict(t)
    );
    // Unfitted, the write moves at the bandwidth fraction, as the roofline counts it.
    let plain = KernelTerms {
        write_bandwidth: None,
        ..truth
    };
    assert!((plain.predict(t) - (3e-6 + 3e-4 / 0.8)).abs() < 1e-15);
    let refitted = KernelTerms::fit(&samples(plain));
    assert!(
        refitted
            .write_bandwidth
            .is_none_or(|w| (w / 0.8 - 1.0).abs() < 0.15),
        "{refitted:?}"
    );
}

/// MoE layers (which route) whose token traffic moves at 40 % of the datasheet
/// bandwidth while their weights stream at 80 %: the fit finds the slower rate for the
/// activations they write, as for a GEMM's output.
#[test]
fn a_moe_layers_token_traffic_moved_slower_than_its_weights_is_fitted_its_own_rate() {
    let truth = KernelTerms {
        fixed_s: 20e-6,
        bandwidth: 0.8,
        compute: 0.7,
        write_bandwidth: Some(0.4204),
        ..KernelTerms::ROOFLINE
    };
    // From decode (the weights nearly all the bytes) to prefill (the copies most).
    let samples = spread_of_gemms(&truth, |t, i| {
        t.route_s = t.memory_s * 0.01;
        t.write_s = t.memory_s * [0.02, 0.3, 0.6, 0.9][i % 4];
    });
    let fitted = KernelTerms::fit(&samples);
    let rate = fitted.write_bandwidth.expect("a rate of its own");
    assert!((rate / 0.4204 - 1.0).abs() < 0.1, "{fitted:?}");
    assert!((fitted.bandwidth / 0.8 - 1.0).abs() < 0.05, "{fitted:?}");
}

/// Terms a fifth off in each continuous term, refined against the times they made:
/// each comes back within a few percent, and the error never rises.
#[test]
fn refining_walks_terms_back_to_the_times_they_made() {
    let truth = KernelTerms {
        fixed_s: 3e-6,
        bandwidth: 0.8,
        compute: 0.7,
        per_wave_s: 1e-6,
        ..KernelTerms::ROOFLINE
    };
    let samples = spread_of_gemms(&truth, |t, i| {
        t.waves = [0.0, 2.0][i % 2];
        t.write_s = t.memory_s * 0.2;
    });
    let error = |terms: &KernelTerms| {
        samples
            .iter()
            .map(|(t, s)| (terms.predict(*t) / s).ln().abs())
            .sum::<f64>()
    };
    let off = KernelTerms {
        fixed_s: 3.6e-6,
        bandwidth: 0.64,
        compute: 0.84,
        per_wave_s: 0.8e-6,
        ..truth
    };
    let refined = KernelTerms::refine(off, &error);
    assert!(error(&refined) < error(&off));
    for (got, want) in [
        (refined.fixed_s, truth.fixed_s),
        (refined.bandwidth, truth.bandwidth),
        (refined.compute, truth.compute),
        (refined.per_wave_s, truth.per_wave_s),
    ] {
        assert!((got / want - 1.0).abs() < 0.05, "{refined:?}");
    }
    // From the terms that made the times (with their noise): the error does not rise.
    let exact = spread_of_gemms(&truth, |_, _| {});
    let exact_error = |terms: &KernelTerms| {
        exact
            .iter()
            .map(|(t, s)| (terms.predict(*t) / s).ln().abs())
            .sum::<f64>()
    };
    assert!(exact_error(&KernelTerms::refine(truth, &exact_error)) <= exact_error(&truth));
    // Unfitted terms stay unfitted: no tile rate, no latency.
    let plain = KernelTerms::refine(KernelTerms::ROOFLINE, &exact_error);
    assert_eq!((plain.tile_bandwidth, plain.per_wave_s), (1.0, 0.0));
}

#[test]
fn fitting_recovers_the_rate_one_tile_streams_at() {
    let truth = KernelTerms {
        fixed_s: 6e-6,
        bandwidth: 0.5,
        compute: 0.45,
        per_wave_s: 0.0,
        tile_bandwidth: 0.005,
        l2_bandwidth: f64::INFINITY,
        overlap: f64::INFINITY,
        ..KernelTerms::ROOFLINE
    };
    // Decode-like GEMMs over 148 SMs: 1 to 600 tiles, K from 512 to 64k, with +-2 %
    // noise from a fixed pattern; a quarter compute-bound.
    let samples: Vec<(KernelTimes, f64)> = (0..800)
        .map(|i| {
            let n = 128 * (1 + (i * 37) % 600) as u64;
            let k = 512u64 << (i % 8);
            let memory_s = (n * k) as f64 / 8e12;
            let t = KernelTimes {
                memory_s,
                compute_s: if i % 4 == 0 {
                    memory_s * 3.0
                } else {
                    memory_s / 50.0
                },
                quantise_s: 0.0,
                waves: 0.0,
                tile_stream_s: memory_s * serial_tile_share(8, n, 128, 148),
                write_s: 0.0,
                l2_s: 0.0,
                l2_share: 0.0,
                head_dim: None,
                route_s: 0.0,
                hidden_tiles_s: 0.0,
                scale_copies: 0.0,
                padded_rows_s: 0.0,
                quantise_steps: 0.0,
            };
            (t, measured(&truth, t, i))
        })
        .collect();
    let fitted = KernelTerms::fit(&samples);
    for (got, want) in [
        (fitted.tile_bandwidth, truth.tile_bandwidth),
        (fitted.bandwidth, truth.bandwidth),
        (fitted.compute, truth.compute),
        (fitted.fixed_s, truth.fixed_s),
    ] {
        assert!((got / want - 1.0).abs() < 0.1, "{fitted:?}");
    }
}

#[test]
fn the_fractions_alone_are_medians_of_datasheet_over_measured_time() {
    // Three memory-bound kernels at 50, 60 and 70 % of the bandwidth, two compute-bound
    // at 40 and 50 % of the peak: the medians, and no fixed time however small they are.
    let samples = [
        (gemm(1e-6, 1e-8), 1e-6 / 0.5),
        (gemm(2e-6, 1e-8), 2e-6 / 0.6),
        (gemm(3e-6, 1e-8), 3e-6 / 0.7),
        (gemm(1e-8, 4e-6), 4e-6 / 0.4),
        (gemm(1e-8, 5e-6), 5e-6 / 0.5),
    ];
    let t = KernelTerms::fit_fractions(&samples);
    assert!((t.bandwidth - 0.6).abs() < 1e-12, "{t:?}");
    assert!((t.compute - 0.45).abs() < 1e-12, "{t:?}");
    assert_eq!((t.fixed_s, t.per_wave_s, t.tile_bandwidth), (0.0, 0.0, 1.0));
    assert_eq!(KernelTerms::fit_fractions(&[]), KernelTerms::ROOFLINE);
}

#[test]
fn fitting_recovers_the_latency_of_each_wave_of_blocks() {
    let truth = KernelTerms {
        fixed_s: 10e-6,
        bandwidth: 0.6,
        compute: 0.4,
        per_wave_s: 1.5e-6,
        tile_bandwidth: 1.0,
        l2_bandwidth: f64::INFINITY,
        overlap: f64::INFINITY,
        ..KernelTerms::ROOFLINE
    };
    // Attention-like kernels: one to 300 waves of blocks, throughput from tiny to large.
    let samples: Vec<(KernelTimes, f64)> = (0..600)
        .map(|i| {
            let scale = 10f64.powf(-8.0 + 5.0 * ((i * 37) % 600) as f64 / 600.0);
            let t = KernelTimes {
                memory_s: if i % 2 == 0 { scale } else { scale / 5.0 },
                compute_s: if i % 2 == 0 { scale / 5.0 } else { scale },
                quantise_s: 0.0,
                waves: 1.0 + (i % 300) as f64,
                tile_stream_s: 0.0,
                write_s: 0.0,
                l2_s: 0.0,
                l2_share: 0.0,
                head_dim: None,
                route_s: 0.0,
                hidden_tiles_s: 0.0,
                scale_copies: 0.0,
                padded_rows_s: 0.0,
                quantise_steps: 0.0,
            };
            (t, measured(&truth, t, i))
        })
        .collect();
    let fitted = KernelTerms::fit(&samples);
    for (got, want) in [
        (fitted.fixed_s, truth.fixed_s),
        (fitted.per_wave_s, truth.per_wave_s),
        (fitted.bandwidth, truth.bandwidth),
        (fitted.compute, truth.compute),
    ] {
        assert!((got / want - 1.0).abs() < 0.1, "{fitted:?}");
    }
}

/// Prefill kernels of two head widths, the second reaching 40 % of the first's share
/// of the peak: the fit reads each width's compute time apart and predicts both within
/// the samples' noise, where one fraction for both misses each by a wide margin.
#[test]
fn fitting_reads_each_prefill_head_width_apart() {
    let mut truth = KernelTerms {
        fixed_s: 8e-6,
        bandwidth: 0.7,
        compute: 0.6,
        ..KernelTerms::ROOFLINE
    };
    let narrow = ATTENTION_HEAD_DIMS.iter().position(|&d| d == 128).unwrap();
    let wide = ATTENTION_HEAD_DIMS.iter().position(|&d| d == 256).unwrap();
    truth.head_compute[wide] = 2.5;
    let samples = two_head_widths(&truth, [128, 256], 1e-6);
    let fitted = KernelTerms::fit(&samples);
    let ratio = fitted.head_compute[wide] / fitted.head_compute[narrow];
    assert!((ratio / 2.5 - 1.0).abs() < 0.05, "{fitted:?}");
    let worst = |terms: &KernelTerms| worst_error(terms, &samples);
    assert!(worst(&fitted) < 0.05, "{fitted:?}");
    // One fraction for both widths: the large kernels of one width or the other miss.
    let one = KernelTerms {
        head_compute: KernelTerms::ROOFLINE.head_compute,
        ..fitted
    };
    assert!(worst(&one) > 0.5, "{one:?}");
    // Kernels with no listed width keep the group's fraction.
    let other = KernelTimes::throughput(1e-6, 1e-3);
    assert_eq!(fitted.predict(other), one.predict(other));
}

/// Prefill kernels of two head widths whose fixed times differ, 12 us for width 192 and
/// 6 us for 256 (SGLang's Triton kernels on B200 take 15-19 and 10 us at one token):
/// the fit reads each width's fixed time off its own smallest kernels, where one fixed
/// time for both misses the small kernels of each.
#[test]
fn fitting_reads_each_prefill_head_widths_fixed_time_apart() {
    let mut truth = KernelTerms {
        fixed_s: 12e-6,
        bandwidth: 0.7,
        compute: 0.6,
        ..KernelTerms::ROOFLINE
    };
    let narrow = ATTENTION_HEAD_DIMS.iter().position(|&d| d == 192).unwrap();
    let wide = ATTENTION_HEAD_DIMS.iter().position(|&d| d == 256).unwrap();
    truth.head_fixed[wide] = 0.5;
    let samples = two_head_widths(&truth, [192, 256], 1e-7);
    let fitted = KernelTerms::fit(&samples);
    let fixed = |i: usize| fitted.fixed_s * fitted.head_fixed[i];
    assert!((fixed(narrow) / 12e-6 - 1.0).abs() < 0.05, "{fitted:?}");
    assert!((fixed(wide) / 6e-6 - 1.0).abs() < 0.05, "{fitted:?}");
    let worst = |terms: &KernelTerms| worst_error(terms, &samples);
    assert!(worst(&fitted) < 0.05, "{fitted:?}");
    let one = KernelTerms {
        head_fixed: KernelTerms::ROOFLINE.head_fixed,
        ..fitted
    };
    assert!(worst(&one) > 0.3, "{one:?}");
}

/// MoE layers whose routing pass runs at an eighth of the datasheet bandwidth, with
/// the experts' work spread over 1 to 128 GPUs (so the pass, which grows with the
/// whole batch, and the experts' work vary apart): the fit finds the rate and predicts
/// every sample within the noise; not counting the pass misses the wide groups by far.
/// Layers with no such cost fit no slow pass.
#[test]
fn fitting_reads_the_routing_pass_rate() {
    let truth = KernelTerms {
        fixed_s: 20e-6,
        bandwidth: 0.8,
        compute: 0.6,
        route_rate: 0.125,
        ..KernelTerms::ROOFLINE
    };
    let layers = |truth: &KernelTerms| -> Vec<(KernelTimes, f64)> {
        (0..800)
            .map(|i| {
                let tokens = 2f64.powi((i % 14) as i32);
                let parallel = 2f64.powi(((i / 14) % 8) as i32);
                let t = KernelTimes {
                    route_s: tokens * 4e-9,
                    hidden_tiles_s: 0.0,
                    scale_copies: 0.0,
                    padded_rows_s: 0.0,
                    quantise_steps: 0.0,
                    ..KernelTimes::throughput(
                        (200e-6 + tokens * 20e-9) / parallel,
                        tokens * 60e-9 / parallel,
                    )
                };
                (t, measured(truth, t, i))
            })
            .collect()
    };
    let worst = worst_error;
    let samples = layers(&truth);
    let fitted = KernelTerms::fit(&samples);
    assert_eq!(fitted.route_rate, 0.125, "{fitted:?}");
    assert!(worst(&fitted, &samples) < 0.05, "{fitted:?}");
    let uncounted = KernelTerms {
        route_rate: f64::INFINITY,
        ..fitted
    };
    assert!(worst(&uncounted, &samples) > 0.5, "{uncounted:?}");
    let free = KernelTerms {
        route_rate: f64::INFINITY,
        ..truth
    };
    let samples = layers(&free);
    let fitted = KernelTerms::fit(&samples);
    assert!(fitted.route_rate >= 4.0, "{fitted:?}");
    assert!(worst(&fitted, &samples) < 0.05, "{fitted:?}");
}

#[test]
fn fitting_leaves_out_a_wave_latency_the_kernels_do_not_have() {
    // Kernels of 1 to 40 waves whose work grows with their waves, memory-bound at 40 %
    // of the bandwidth and with no latency per wave: started at the full bandwidth, the
    // rounds read their excess as a latency per wave and settle there, unless a fit
    // without that term is tried too.
    let truth = KernelTerms {
        fixed_s: 7e-6,
        bandwidth: 0.4,
        ..KernelTerms::ROOFLINE
    };
    let samples: Vec<(KernelTimes, f64)> = (0..600)
        .map(|i| {
            let waves = (1 + i % 40) as f64;
            let memory_s = 1e-6 * waves * (1.0 + 0.05 * ((i * 13) % 7) as f64);
            let t = KernelTimes {
                waves,
                ..KernelTimes::throughput(memory_s, memory_s / 50.0)
            };
            (t, measured(&truth, t, i))
        })
        .collect();
    let fitted = KernelTerms::fit(&samples);
    assert!(fitted.per_wave_s < 0.05e-6, "{fitted:?}");
    assert!(
        (fitted.bandwidth / truth.bandwidth - 1.0).abs() < 0.1,
        "{fitted:?}"
    );
}

#[test]
fn fitting_finds_a_compute_limit_far_below_the_peak() {
    let truth = KernelTerms {
        fixed_s: 5e-6,
        bandwidth: 0.9,
        compute: 0.08,
        ..KernelTerms::ROOFLINE
    };
    // Kernels whose datasheet compute time is 1 to 20 % of their memory time: at the
    // full peak none reads as compute-bound, at 8 % of it two thirds are.
    let samples: Vec<(KernelTimes, f64)> = (0..600)
        .map(|i| {
            let memory_s = 1e-7 * (1 + (i * 37) % 400) as f64;
            let t = KernelTimes::throughput(memory_s, memory_s * (1 + i % 20) as f64 / 100.0);
            (t, measured(&truth, t, i))
        })
        .collect();
    let fitted = KernelTerms::fit(&samples);
    for (got, want) in [
        (fitted.compute, truth.compute),
        (fitted.bandwidth, truth.bandwidth),
        (fitted.fixed_s, truth.fixed_s),
    ] {
        assert!((got / want - 1.0).abs() < 0.1, "{fitted:?}");
    }
}

#[test]
fn overlapped_terms_run_from_the_max_to_the_sum() {
    let (m, c) = (3e-6, 4e-6);
    assert_eq!(overlapped(m, c, f64::INFINITY), 4e-6);
    assert!((overlapped(m, c, 1.0) - 7e-6).abs() < 1e-18);
    // The p-norm: (3^2 + 4^2)^(1/2) = 5.
    assert!((overlapped(m, c, 2.0) - 5e-6).abs() < 1e-18);
    // Two equal terms take 2^(1/p) times either.
    assert!((overlapped(c, c, 1.5) / c - 2f64.powf(1.0 / 1.5)).abs() < 1e-12);
    assert_eq!(overlapped(0.0, 0.0, 2.0), 0.0);
    // `unoverlapped` inverts it: the share the memory term takes of the whole.
    for p in [1.0, 1.5, 2.0, 4.0, f64::INFINITY] {
        let total = overlapped(m, c, p);
        let back = if p.is_infinite() { c } else { m };
        let other = if p.is_infinite() { m } else { c };
        assert!(
            (unoverlapped(total, other, p) / back - 1.0).abs() < 1e-9,
            "p = {p}"
        );
    }
}

#[test]
fn fitting_recovers_how_far_a_kernel_overlaps_memory_and_compute() {
    let truth = KernelTerms {
        fixed_s: 3e-6,
        bandwidth: 0.8,
        compute: 0.85,
        overlap: 1.5,
        ..KernelTerms::ROOFLINE
    };
    // Kernels from a tenth to ten times the ridge point's intensity, +-2 % noise: near
    // the ridge they take up to 2^(2/3) times the larger term.
    let samples: Vec<(KernelTimes, f64)> = (0..800)
        .map(|i| {
            let memory_s = 1e-7 * (1 + (i * 37) % 400) as f64;
            let intensity = 10f64.powf(((i * 13) % 200) as f64 / 100.0 - 1.0);
            let t = KernelTimes::throughput(memory_s, memory_s * intensity);
            (t, measured(&truth, t, i))
        })
        .collect();
    let fitted = KernelTerms::fit(&samples);
    assert_eq!(fitted.overlap, truth.overlap, "{fitted:?}");
    for (got, want) in [
        (fitted.compute, truth.compute),
        (fitted.bandwidth, truth.bandwidth),
        (fitted.fixed_s, truth.fixed_s),
    ] {
        assert!((got / want - 1.0).abs() < 0.1, "{fitted:?}");
    }
}

#[test]
fn fitting_recovers_the_rate_the_l2_serves_re_reads_at() {
    let truth = KernelTerms {
        fixed_s: 5e-6,
        bandwidth: 0.8,
        compute: 1.0,
        per_wave_s: 0.0,
        tile_bandwidth: 1.0,
        l2_bandwidth: 2.5,
        overlap: f64::INFINITY,
        ..KernelTerms::ROOFLINE
    };
    // Half the kernels read their bytes once; the other half read them again 32 to 127
    // times (a block per query head), with +-2 % noise from a fixed pattern.
    let samples: Vec<(KernelTimes, f64)> = (0..800)
        .map(|i| {
            let memory_s = 1e-7 * (1 + (i * 37) % 400) as f64;
            let t = KernelTimes {
                l2_s: if i % 2 == 0 {
                    0.0
                } else {
                    memory_s * (32 + i % 96) as f64
                },
                ..KernelTimes::throughput(memory_s, memory_s / 100.0)
            };
            (t, measured(&truth, t, i))
        })
        .collect();
    let fitted = KernelTerms::fit(&samples);
    for (got, want) in [
        (fitted.l2_bandwidth, truth.l2_bandwidth),
        (fitted.bandwidth, truth.bandwidth),
        (fitted.fixed_s, truth.fixed_s),
    ] {
        assert!((got / want - 1.0).abs() < 0.1, "{fitted:?}");
    }
    // With no re-reads the L2 is no limit, as in the plain roofline.
    let once: Vec<(KernelTimes, f64)> = samples.iter().step_by(2).copied().collect();
    assert_eq!(KernelTerms::fit(&once).l2_bandwidth, f64::INFINITY);
}
