use super::attention::{KEY_TILE, QUERY_TILE};
use super::fit::FRACTION;
use super::*;

/// TensorRT-LLM's prefill tile on Hopper: 64 query rows by 128 keys.
const TRTLLM_HOPPER: PrefillTile = PrefillTile {
    queries: QUERY_TILE,
    keys: KEY_TILE,
};

fn gemm(memory_s: f64, compute_s: f64) -> KernelTimes {
    KernelTimes::throughput(memory_s, compute_s)
}

/// The roofline prediction of 1 GFLOP over 1 MB on a roof of 1,000 GB/s and 200 TFLOPS.
fn one_gflop_on_a_small_roof() -> Prediction {
    crate::roofline::Roof {
        bandwidth: crate::units::BytesPerSecond::gb_s(1000.0),
        peak: crate::units::FlopsPerSecond::tflops(200.0),
    }
    .predict(crate::roofline::Work {
        flops: crate::units::Flops(1e9),
        bytes: crate::units::Bytes(1e6),
    })
}

/// Sample `i`'s measured time: `truth`'s prediction with +-2 % noise from a fixed
/// pattern.
fn measured(truth: &KernelTerms, t: KernelTimes, i: usize) -> f64 {
    truth.predict(t) * (1.0 + 0.02 * (((i * 7919) % 11) as f64 / 5.0 - 1.0))
}

/// 400 GEMMs from a microsecond to 10 ms of datasheet time, memory over compute from
/// a sixteenth to sixteen times, each changed by `vary` (given its index), measured as
/// `truth` predicts them.
fn spread_of_gemms(
    truth: &KernelTerms,
    vary: impl Fn(&mut KernelTimes, usize),
) -> Vec<(KernelTimes, f64)> {
    (0..400)
        .map(|i| {
            let scale = 10f64.powf(-6.0 + 4.0 * (i as f64) / 400.0);
            let ratio: f64 = [16.0, 4.0, 1.0, 0.25, 0.0625][i % 5];
            let mut t = gemm(scale * ratio.min(1.0), scale / ratio.max(1.0));
            vary(&mut t, i);
            (t, measured(truth, t, i))
        })
        .collect()
}

/// A 256-key window over a 1024-token prompt: query tile i (64 rows) reads key tiles
/// (128 keys) from floor((64 i + 1 - 256) / 128) to ceil(64 (i + 1) / 128), so 1, 1,
/// 2, 2, then 3 tiles each: 42 tiles of 64 x 128 pairs.
#[test]
fn a_sliding_window_skips_the_tiles_before_it() {
    let shape = AttentionShape {
        batch: 1.0,
        q_len: 1024.0,
        kv_len: 1024.0,
        heads: 1.0,
        kv_heads: 1.0,
        qk_dim: 128.0,
        v_dim: 128.0,
        causal: true,
        shared_kv: false,
        window: Some(256.0),
    };
    assert_eq!(
        attention_tile_pairs(&shape, TRTLLM_HOPPER),
        42.0 * 64.0 * 128.0
    );
    assert!(attention_tile_pairs(&shape, TRTLLM_HOPPER) >= shape.visible_pairs());
    let full = AttentionShape {
        window: None,
        ..shape
    };
    assert_eq!(
        attention_tile_pairs(&full, TRTLLM_HOPPER),
        72.0 * 64.0 * 128.0
    );
}

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

/// A benchmark loop's share of the bytes found in the L2 moves to the L2's time, served
/// at the fitted L2 rate; the rest stays the DRAM's.
#[test]
fn a_benchmark_loop_reads_what_its_previous_runs_left_from_the_l2() {
    let cold = gemm(20e-6, 5e-6);
    let warm = cold.warm(1.0);
    assert_eq!(warm.l2_share, 1.0);
    // The datasheet bound is still the DRAM's.
    assert_eq!(warm.bound_s(), cold.bound_s());
    assert_eq!(cold.warm(0.0), cold);
    assert_eq!(cold.warm(f64::NAN), cold);
    assert_eq!(cold.warm(3.0).l2_share, 1.0);
    let terms = KernelTerms {
        bandwidth: 0.8,
        l2_bandwidth: 2.0,
        ..KernelTerms::ROOFLINE
    };
    assert!((terms.predict(cold) - 25e-6).abs() < 1e-15);
    assert!((terms.predict(warm) - 10e-6).abs() < 1e-15);
    // Half from each: the DRAM's 10 us at 0.8 (12.5 us) outlast the L2's at 2 (5 us).
    assert!((terms.predict(cold.warm(0.5)) - 12.5e-6).abs() < 1e-15);
    assert_eq!(terms.regime(warm), Regime::Memory);
    assert!(terms.l2_bound(warm) && !terms.l2_bound(cold));
    // One set of operands: found up to the whole L2, none 1/16 past it.
    assert_eq!(found_in_l2(96e6, 96e6), 1.0);
    assert!((found_in_l2(99e6, 96e6) - 0.5).abs() < 1e-12);
    assert_eq!(found_in_l2(102e6, 96e6), 0.0);
    assert_eq!(found_in_l2(1e6, 0.0), 0.0);
    assert_eq!(found_in_l2(0.0, 96e6), 0.0);
}

/// A loop over copies of a GEMM's weights with one shared input (TensorRT-LLM's
/// collector on an L40S, 96 MB of L2): the input stays in the L2 while one run's bytes
/// fit, the weights only while all their copies do.
#[test]
fn a_gemm_loop_keeps_what_fits_between_two_reads() {
    let l2 = 96e6;
    let looped = |activations: f64, weights: f64, copies: f64| GemmLoop {
        activations,
        staging: 0.0,
        weights,
        output: 1e6,
        copies,
        activations_rotate: false,
    };
    // 70 MB of input, 1 MB of weights in 5 copies: one run is 72 MB, the loop 76 MB.
    assert_eq!(looped(70e6, 1e6, 5.0).l2_share(l2), 1.0);
    // 1 MB of input, 33.6 MB of weights in 3 copies (past the L2 together): the input
    // and output are found, the weights are not.
    let share = looped(1e6, 33.6e6, 3.0).l2_share(l2);
    assert!((share - 2e6 / 35.6e6).abs() < 1e-12);
    // One run 1/32 past the L2 (97 MB of weights in one copy, 1 MB of input and 1 MB
    // of output): half is found, halfway through the overflow's fade.
    let past = looped(1e6, 97e6, 1.0).l2_share(l2);
    assert!((past - 0.5).abs() < 1e-9, "{past}");
    // 10 MB of weights: 5 copies and the rest fit.
    assert_eq!(looped(1e6, 10e6, 5.0).l2_share(l2), 1.0);
    // One copy of 90 MB of weights: one run (92 MB) fits.
    assert_eq!(looped(1e6, 90e6, 1.0).l2_share(l2), 1.0);
    // A staging input the quantisation reads counts towards what must fit: 30 MB more
    // takes one run to 102 MB.
    let staged = GemmLoop {
        staging: 30e6,
        ..looped(70e6, 1e6, 5.0)
    };
    assert_eq!(staged.l2_share(l2), 0.0);
    // Every operand rotating through 6 copies (SGLang's collector): the whole loop of
    // 6 x 12 MB must fit.
    let rotating = GemmLoop {
        activations_rotate: true,
        copies: 6.0,
        ..looped(10e6, 1e6, 6.0)
    };
    assert_eq!(rotating.l2_share(l2), 1.0);
    let too_many = GemmLoop {
        activations: 20e6,
        ..rotating
    };
    assert_eq!(too_many.l2_share(l2), 0.0);
    assert_eq!(looped(1e6, 1e6, 5.0).l2_share(0.0), 0.0);
}

#[test]
fn low_precision_activations_are_quantised_in_a_pass_of_their_own() {
    assert_eq!(activation_quantisation_bytes(16, 4096, Format::Bf16), 0.0);
    // FP8: 16 x 4096 BF16 read, the same count of bytes written (+ its tensor scale).
    let fp8 = activation_quantisation_bytes(16, 4096, Format::Fp8E4m3);
    assert_eq!(fp8, 16.0 * 4096.0 * 3.0 + 4.0);
    let terms = KernelTerms {
        fixed_s: 1e-6,
        bandwidth: 0.5,
        compute: 1.0,
        per_wave_s: 0.0,
        tile_bandwidth: 1.0,
        l2_bandwidth: f64::INFINITY,
        overlap: f64::INFINITY,
        ..KernelTerms::ROOFLINE
    };
    let t = KernelTimes {
        memory_s: 4e-6,
        compute_s: 1e-6,
        quantise_s: 1e-6,
        waves: 0.0,
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
    // Sequential: fixed + quantisation at half the bandwidth + the GEMM's memory term.
    assert!((terms.predict(t) - (1e-6 + 2e-6 + 8e-6)).abs() < 1e-18);
    // In a loop whose previous runs left three quarters of the bytes in an L2 serving
    // them at twice the DRAM's datasheet rate, the pass reads a quarter from the DRAM
    // (0.5 us at half the bandwidth) and all through the L2 (0.5 us), as the GEMM does.
    let l2 = KernelTerms {
        l2_bandwidth: 2.0,
        ..terms
    };
    let warm = t.warm(0.75);
    assert!((quantise_time(&warm, l2.bandwidth, l2.l2_bandwidth, 0.0) - 0.5e-6).abs() < 1e-18);
    assert!((l2.predict(warm) - (1e-6 + 0.5e-6 + 2e-6)).abs() < 1e-18);
    // An L2 that serves no faster than the DRAM's fraction bounds the pass instead.
    let slow = KernelTerms {
        l2_bandwidth: 0.5,
        ..terms
    };
    assert!((quantise_time(&warm, slow.bandwidth, slow.l2_bandwidth, 0.0) - 2e-6).abs() < 1e-18);
    // Cold, as in a model's forward pass: the DRAM's time, whatever the L2's rate.
    assert_eq!(quantise_time(&t, l2.bandwidth, l2.l2_bandwidth, 0.0), 2e-6);
}

/// NVFP4 on the RTX PRO 6000 in miniature: a loop leaves every byte in an L2 that serves
/// the GEMM at the DRAM's datasheet rate and its quantisation pass, a kernel of its own,
/// at 2.38x it. The pass's time is its bytes at its own L2 rate; the fit finds that rate
/// on its ladder, and a cold pass (a model's forward pass) still takes the DRAM's time.
#[test]
fn the_l2_serves_the_quantisation_pass_at_a_rate_of_its_own() {
    let truth = KernelTerms {
        fixed_s: 4e-6,
        bandwidth: 0.6,
        compute: 0.9,
        l2_bandwidth: 1.0,
        quantise_l2_bandwidth: Some(2.3784),
        ..KernelTerms::ROOFLINE
    };
    let pass = KernelTimes {
        quantise_s: 1e-4,
        ..gemm(0.0, 0.0)
    };
    assert!((truth.predict(pass.warm(1.0)) - (4e-6 + 1e-4 / 2.3784)).abs() < 1e-12);
    assert!((truth.predict(pass) - (4e-6 + 1e-4 / 0.6)).abs() < 1e-12);
    let samples = spread_of_gemms(&truth, |t, i| {
        t.quantise_s = t.memory_s * [0.1, 0.5, 1.0, 3.0][i % 4];
        *t = t.warm(1.0);
    });
    let fitted = KernelTerms::fit(&samples);
    assert_eq!(fitted.quantise_l2_bandwidth, Some(2.3784), "{fitted:?}");
    // Every byte warm: the L2 serves the GEMM, and its rate is what the fit reads.
    assert!((fitted.l2_bandwidth - 1.0).abs() < 0.01, "{fitted:?}");
}

#[test]
fn few_tiles_over_a_long_k_reduce_their_partial_sums_in_a_second_kernel() {
    let h100 = crate::hardware::registry::get("h100-sxm").unwrap();
    // H100, 132 SMs: M = 8, N = 256 is 2 tiles; from K = 2,048 it splits and reduces.
    assert!(!reduces_partial_sums(8, 256, 1536, Format::Bf16, &h100));
    assert!(reduces_partial_sums(8, 256, 2048, Format::Bf16, &h100));
    // 16 tiles fill at most an eighth of 132 SMs; 17 do not.
    assert!(reduces_partial_sums(
        128,
        2048,
        4096,
        Format::Fp8E4m3,
        &h100
    ));
    assert!(!reduces_partial_sums(
        128,
        2176,
        4096,
        Format::Fp8E4m3,
        &h100
    ));
    // Block-scaled GEMMs keep each tile on one SM; an unknown SM count says nothing.
    assert!(!reduces_partial_sums(8, 256, 4096, Format::NvFp4, &h100));
    let mut unknown = h100.clone();
    unknown.sm_count = None;
    assert!(!reduces_partial_sums(8, 256, 4096, Format::Bf16, &unknown));
    // A100, L40S and RTX PRO 6000 split 16-bit GEMMs from K = 512, 8-bit ones from 2,048;
    // the sm_100 family as Hopper does.
    for key in ["a100-sxm", "l40s", "rtx-pro-6000"] {
        let hw = crate::hardware::registry::get(key).unwrap();
        for (k, format, splits) in [
            (256, Format::Bf16, false),
            (512, Format::Bf16, true),
            (1536, Format::Fp8E4m3, false),
            (2048, Format::Fp8E4m3, true),
        ] {
            assert_eq!(
                reduces_partial_sums(8, 256, k, format, &hw),
                splits,
                "{key}, K = {k}, {format}"
            );
        }
    }
    let b200 = crate::hardware::registry::get("b200").unwrap();
    assert!(!reduces_partial_sums(8, 256, 1536, Format::Bf16, &b200));
    assert!(reduces_partial_sums(8, 256, 2048, Format::Bf16, &b200));
    // The GEMM's times carry it as two dependent steps, and only then.
    let times = |m: f64, n: f64, k: f64| {
        let op = Op::Gemm {
            m,
            n,
            k,
            bias: false,
        };
        let p = op.predict(&Precision::uniform(Format::Bf16), &h100, &Efficiency::IDEAL);
        let shape = (m as u64, n as u64, k as u64);
        KernelTimes::of(
            &p.prediction,
            shape,
            &Precision::uniform(Format::Bf16),
            &h100,
        )
    };
    assert_eq!(times(8.0, 256.0, 4096.0).waves, 2.0);
    assert_eq!(times(8.0, 256.0, 1024.0).waves, 0.0);
    assert_eq!(times(4096.0, 4096.0, 4096.0).waves, 0.0);
}

#[test]
fn tile_efficiency_counts_padding_and_the_last_wave() {
    // H100: 132 SMs. 8192^2 outputs: 4096 tiles of 64 chunks of K = 262,144 chunks,
    // 1,986 rounds of 132 -> 262,144 / (1,986 x 132).
    let e = tile_efficiency(8192, 8192, 8192, 132);
    assert!((e - 262_144.0 / (1986.0 * 132.0)).abs() < 1e-12, "{e}");
    // A few more tiles than SMs: 140 tiles x 8 chunks = 1,120 over 9 rounds, not the
    // 140 / 264 of two waves of whole tiles.
    let e = tile_efficiency(1280, 1792, 1024, 132);
    assert!((e - 1120.0 / (9.0 * 132.0)).abs() < 1e-12, "{e}");
    // M = 1: one row of a 8-row fragment; 32 tiles x 32 chunks = 1,024 over 8 rounds.
    let e = tile_efficiency(1, 4096, 4096, 132);
    assert!(
        (e - (1.0 / 8.0) * (1024.0 / (8.0 * 132.0))).abs() < 1e-12,
        "{e}"
    );
    // K shorter than a chunk is one chunk: 4 tiles on 132 SMs.
    let e = tile_efficiency(256, 256, 64, 132);
    assert!((e - 4.0 / 132.0).abs() < 1e-12, "{e}");
    assert_eq!(tile_efficiency(0, 1, 1, 132), 1.0);
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

/// FP8 activations and weights with a BF16 output, as NVIDIA's FP8 GEMM tables run.
fn fp8() -> Precision {
    Precision {
        activations: Format::Fp8E4m3,
        weights: Format::Fp8E4m3,
        kv: Format::Bf16,
        output: Format::Bf16,
    }
}

/// An `m x n x k` FP8 GEMM's times on `hw` as `framework`'s kernels run it, and its
/// datasheet prediction.
fn fp8_gemm(
    (m, n, k): (u64, u64, u64),
    hw: &Hardware,
    framework: Framework,
) -> (KernelTimes, Prediction) {
    let op = Op::Gemm {
        m: m as f64,
        n: n as f64,
        k: k as f64,
        bias: false,
    };
    let p = op.predict(&fp8(), hw, &Efficiency::IDEAL).prediction;
    (KernelTimes::gemm(&p, (m, n, k), &fp8(), hw, framework), p)
}

/// vLLM's per-tensor FP8 GEMM on sm_90 picks its tile by M and N as its dispatch does,
/// SGLang's rows read with the same; other frameworks, formats and architectures have
/// none.
#[test]
fn vllms_hopper_fp8_gemm_tile_follows_its_dispatch() {
    let tile = |m, n| {
        let t = GemmTile::cutlass_sm90_fp8(m, n);
        (t.rows, t.columns, t.cluster, t.swapped)
    };
    assert_eq!(tile(16, 8192), (64, 16, (1, 1), true));
    assert_eq!(tile(16, 1280), (64, 16, (1, 2), true));
    assert_eq!(tile(17, 8192), (64, 64, (1, 1), true));
    assert_eq!(tile(64, 1024), (64, 16, (1, 4), true));
    assert_eq!(tile(65, 8192), (64, 128, (2, 1), false));
    assert_eq!(tile(129, 8192), (128, 128, (2, 1), false));
    let registry = |key| crate::hardware::registry::get(key).unwrap();
    let (h200, b200) = (registry("h200"), registry("b200"));
    let fp8 = fp8();
    let bf16 = Precision::uniform(Format::Bf16);
    assert!(GemmTile::of(Framework::Vllm, 129, 8192, &fp8, &h200).is_some());
    assert!(GemmTile::of(Framework::Sglang, 129, 8192, &fp8, &h200).is_some());
    assert!(GemmTile::of(Framework::TensorRtLlm, 129, 8192, &fp8, &h200).is_none());
    assert!(GemmTile::of(Framework::Vllm, 129, 8192, &bf16, &h200).is_none());
    assert!(GemmTile::of(Framework::Vllm, 129, 8192, &fp8, &b200).is_none());
}

/// Whole tiles in whole clusters: at M = 129 an H200 computes the same 128 x 128 tiles
/// as at M = 256 and its last row block reads the 127 rows past M; at M = 513 the third
/// cluster's empty tile adds 128 rows more. Swapped, a few tokens fill 16-wide tiles.
#[test]
fn whole_tiles_count_the_clusters_and_the_rows_past_m() {
    let h200 = crate::hardware::registry::get("h200").unwrap();
    let times = |m: u64| fp8_gemm((m, 16384, 8192), &h200, Framework::Sglang);
    let bandwidth = h200.memory_bandwidth.value.get();
    let (t129, _) = times(129);
    let (t256, _) = times(256);
    assert!((t129.compute_s / t256.compute_s - 1.0).abs() < 1e-12);
    assert!((t129.padded_rows_s * bandwidth / (127.0 * 8192.0 * 128.0) - 1.0).abs() < 1e-12);
    assert_eq!(t256.padded_rows_s, 0.0);
    assert_eq!(t256.waves, 0.0);
    let (t513, _) = times(513);
    assert!((t513.padded_rows_s * bandwidth / (255.0 * 8192.0 * 128.0) - 1.0).abs() < 1e-12);
    // 4 tokens: 256 tiles of 64 weight rows by 16 tokens, two waves on 132 SMs.
    let (t4, p4) = times(4);
    let slots = 2.0 * 132.0 * 64.0 * 16.0;
    assert!((t4.compute_s / p4.compute_time.get() - slots / (4.0 * 16384.0)).abs() < 1e-9);
    assert_eq!(t4.padded_rows_s, 0.0);
}

/// vLLM quantises FP8 activations with a block per token: steps in waves of rows over
/// the SMs, one per 2,048-wide chunk of K and one more; the bandwidth-bound pass is not
/// counted beside them. TensorRT-LLM's pass stays bandwidth-bound.
#[test]
fn vllm_quantises_fp8_activations_in_steps_per_token() {
    assert_eq!(per_token_quantise_steps(32768, 128, 132), 249.0 * 2.0);
    assert_eq!(per_token_quantise_steps(32768, 2560, 132), 249.0 * 3.0);
    assert_eq!(per_token_quantise_steps(1, 16384, 132), 9.0);
    assert_eq!(per_token_quantise_steps(8, 4096, 0), 0.0);
    let h100 = crate::hardware::registry::get("h100-sxm").unwrap();
    let shape = (4096, 32, 4096);
    let (vllm, _) = fp8_gemm(shape, &h100, Framework::Vllm);
    let (trtllm, _) = fp8_gemm(shape, &h100, Framework::TensorRtLlm);
    assert_eq!(vllm.quantise_steps, 32.0 * 3.0);
    assert_eq!(vllm.quantise_s, 0.0);
    assert_eq!(trtllm.quantise_steps, 0.0);
    assert!(trtllm.quantise_s > 0.0);
}

/// The DRAM's floor: the memory time less all an L2 holds, at the datasheet bandwidth,
/// and never below 0 when the L2 holds every byte.
#[test]
fn the_dram_floor_is_the_memory_time_less_what_the_l2_can_hold() {
    // 1 GB at 2 TB/s is 500 us; a 40 MB L2 holds 20 us of it.
    let t = KernelTimes::throughput(500e-6, 10e-6);
    assert!((t.dram_floor_s(40e6, 2e12) - 480e-6).abs() < 1e-12);
    assert_eq!(t.dram_floor_s(0.0, 2e12), 500e-6);
    assert_eq!(t.dram_floor_s(2e9, 2e12), 0.0);
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

/// GEMMs of which every other one also reads rows past M (TensorRT-LLM's block-scaled
/// FP8 GEMM on Hopper): the reads take their datasheet time over the bandwidth fraction,
/// after the rest, and the fit still finds the fraction and the fixed time.
#[test]
fn rows_read_past_m_take_their_time_at_the_fitted_bandwidth() {
    let truth = KernelTerms {
        fixed_s: 5e-6,
        bandwidth: 0.8,
        compute: 0.7,
        ..KernelTerms::ROOFLINE
    };
    let read = KernelTimes {
        padded_rows_s: 8e-6,
        quantise_steps: 0.0,
        ..gemm(0.0, 0.0)
    };
    assert!((truth.predict(read) - 15e-6).abs() < 1e-12);
    let samples = spread_of_gemms(&truth, |t, i| {
        t.padded_rows_s = (i % 2) as f64 * 0.5 * t.memory_s.max(t.compute_s);
    });
    let fitted = KernelTerms::fit(&samples);
    assert!((fitted.bandwidth / 0.8 - 1.0).abs() < 0.05, "{fitted:?}");
    assert!((fitted.fixed_s / 5e-6 - 1.0).abs() < 0.05, "{fitted:?}");
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
fn frameworks_are_named_as_the_tables_and_the_command_line_name_them() {
    for f in Framework::ALL {
        assert_eq!(Framework::parse(f.key()), Some(f));
        assert_eq!(Framework::parse(f.name()), Some(f));
    }
    assert_eq!(Framework::parse("TRTLLM"), Some(Framework::TensorRtLlm));
    assert_eq!(Framework::parse("VLLM"), Some(Framework::Vllm));
    assert_eq!(Framework::parse("SGLang"), Some(Framework::Sglang));
    assert_eq!(Framework::parse("tgi"), None);
    // Every shipped profile is one of a kind: no device, framework and kernel twice.
    let shipped: Vec<Profile> = profiles().collect();
    for (i, a) in shipped.iter().enumerate() {
        assert!(
            !shipped[i + 1..]
                .iter()
                .any(|b| (a.hardware, a.framework, a.kernel)
                    == (b.hardware, b.framework, b.kernel)),
            "{a:?}"
        );
    }
    // Each framework has profiles of its own.
    for f in Framework::ALL {
        assert!(profiles().any(|p| p.framework == f), "{f:?}");
    }
}

/// A decode block streams its share of the cache; its queries and output are not part
/// of that stream. DeepSeek's latent attention at 64 heads over 4 tokens: the queries
/// (64 x 576 in BF16, 74 KB) and the output (64 KB) outweigh the cache (4 x 576 in
/// FP8) sixtyfold, and the block's serial stream is the cache alone.
#[test]
fn a_decode_block_streams_the_cache_alone() {
    let hw = crate::hardware::registry::get("rtx-pro-6000").unwrap();
    let shape = AttentionShape {
        batch: 1.0,
        q_len: 1.0,
        kv_len: 4.0,
        heads: 64.0,
        kv_heads: 1.0,
        qk_dim: 576.0,
        v_dim: 512.0,
        causal: true,
        shared_kv: true,
        window: None,
    };
    let precision = Precision {
        kv: Format::Fp8E4m3,
        ..Precision::uniform(Format::Bf16)
    };
    // The format's own layout (FP8's per-tensor scale included).
    let latent = Format::Fp8E4m3.tensor_bytes(4.0 * 576.0);
    assert_eq!(shape.cache_bytes(Format::Fp8E4m3), latent);
    let bf16_pair = AttentionShape {
        shared_kv: false,
        ..shape
    };
    assert_eq!(
        bf16_pair.cache_bytes(Format::Bf16).get(),
        (4.0 * 576.0 + 4.0 * 512.0) * 2.0
    );
    let p = Op::FusedAttention(shape)
        .predict(&precision, &hw, &Efficiency::IDEAL)
        .prediction;
    let layout = DecodeLayout::of(
        Framework::TensorRtLlm,
        &shape,
        hw.sm_version(),
        precision.kv,
    );
    let times = KernelTimes::attention_of(
        &shape,
        &p,
        &precision,
        &hw,
        (Framework::TensorRtLlm, layout),
    );
    let bandwidth = hw.memory_bandwidth.value.get();
    // One block, one wave: its stream is the whole cache, at the datasheet bandwidth.
    assert!((times.tile_stream_s - latent.get() / bandwidth).abs() < 1e-15);
    assert!(times.memory_s > 50.0 * times.tile_stream_s);
}

#[test]
fn one_sm_streams_the_tiles_of_the_fullest_wave() {
    // M = 8, N = 128: one output tile, so one SM reads all the weights.
    assert_eq!(serial_tile_share(8, 128, 128, 148), 1.0);
    // N = 256: two tiles on two SMs, each half the weights.
    assert_eq!(serial_tile_share(8, 256, 128, 148), 0.5);
    // 148 tiles on 148 SMs: each SM a 148th; 149 tiles: one SM runs two of them.
    assert_eq!(serial_tile_share(8, 148 * 128, 128, 148), 1.0 / 148.0);
    assert_eq!(serial_tile_share(8, 149 * 128, 128, 148), 2.0 / 149.0);
    assert_eq!(serial_tile_share(8, 128, 128, 0), 0.0);
    // A second row block streams the same column panels again on other SMs: no
    // faster while the tiles fit on the SMs, twice as long once they take two rounds.
    assert_eq!(serial_tile_share(129, 2048, 128, 148), 1.0 / 16.0);
    assert_eq!(serial_tile_share(129, 148 * 128, 128, 148), 2.0 / 148.0);
    // 256-row tiles (a pair of SMs each, sm_100): M = 256 is still one row block.
    assert_eq!(serial_tile_share(256, 148 * 128, 256, 148), 1.0 / 148.0);
    assert_eq!(serial_tile_share(257, 148 * 128, 256, 148), 2.0 / 148.0);
}

#[test]
fn tcgen05_parts_compute_256_row_tiles_on_pairs_of_sms() {
    let rows = |key: &str| gemm_tile_rows(&crate::hardware::registry::get(key).unwrap());
    assert_eq!(rows("b200"), 256);
    assert_eq!(rows("gb300"), 256);
    // Hopper's warpgroup MMA and sm_120's warp-level MMA: one SM per 128-row tile.
    assert_eq!(rows("h100-sxm"), 128);
    assert_eq!(rows("rtx-pro-6000"), 128);
    assert_eq!(rows("a100-sxm"), 128);
}

#[test]
fn a_skinny_gemm_is_as_slow_as_one_sm_streaming_its_tile() {
    // B200-like: 148 SMs, each tile streaming 0.5 % of the bandwidth, the whole chip
    // 50 %. At M = 8 the time then grows with K and not with N while N has fewer
    // tiles than SMs, as NVIDIA's NVFP4 tables show.
    let terms = KernelTerms {
        fixed_s: 5e-6,
        bandwidth: 0.5,
        compute: 0.5,
        per_wave_s: 0.0,
        tile_bandwidth: 0.005,
        l2_bandwidth: f64::INFINITY,
        overlap: f64::INFINITY,
        ..KernelTerms::ROOFLINE
    };
    let gemm = |n: u64, k: u64| {
        // 1 byte per weight over 8 TB/s: the datasheet memory time.
        let memory_s = (n * k) as f64 / 8e12;
        KernelTimes {
            memory_s,
            compute_s: memory_s / 100.0,
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
        }
    };
    let one_tile = terms.predict(gemm(128, 65536));
    assert!((terms.predict(gemm(4096, 65536)) / one_tile - 1.0).abs() < 1e-12);
    assert!((terms.predict(gemm(128, 32768)) - 5e-6) / (one_tile - 5e-6) < 0.51);
    assert_eq!(terms.regime(gemm(128, 65536)), Regime::Memory);
    // Enough tiles to fill every SM twice: the whole chip's bandwidth binds.
    let wide = gemm(2 * 148 * 128, 8192);
    assert!((terms.predict(wide) - (5e-6 + wide.memory_s / 0.5)).abs() < 1e-15);
    // The plain roofline never takes the tile term: one tile at the whole bandwidth.
    assert_eq!(
        KernelTerms::ROOFLINE.predict(gemm(128, 65536)),
        gemm(128, 65536).memory_s
    );
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

/// The largest |predicted / measured - 1| of `terms` over `samples`.
fn worst_error(terms: &KernelTerms, samples: &[(KernelTimes, f64)]) -> f64 {
    samples
        .iter()
        .map(|(t, s)| (terms.predict(*t) / s - 1.0).abs())
        .fold(0.0, f64::max)
}

/// 800 compute-bound attention kernels, alternately of the two head `widths`, from
/// `smallest` to 10^4 times it of datasheet compute time, measured as `truth` predicts
/// them.
fn two_head_widths(
    truth: &KernelTerms,
    widths: [u32; 2],
    smallest: f64,
) -> Vec<(KernelTimes, f64)> {
    (0..800)
        .map(|i| {
            let scale = smallest * 10f64.powf(4.0 * ((i * 37) % 800) as f64 / 800.0);
            let t = KernelTimes {
                head_dim: Some(widths[i % 2]),
                ..KernelTimes::throughput(scale / 20.0, scale)
            };
            (t, measured(truth, t, i))
        })
        .collect()
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
fn only_attention_of_equal_widths_has_a_head_width() {
    let shape = AttentionShape {
        batch: 2.0,
        q_len: 512.0,
        kv_len: 512.0,
        heads: 8.0,
        kv_heads: 8.0,
        qk_dim: 64.0,
        v_dim: 64.0,
        causal: true,
        shared_kv: false,
        window: None,
    };
    let p = one_gflop_on_a_small_roof();
    let width = |s: &AttentionShape| {
        KernelTimes::attention(s, &p, 132, TRTLLM_HOPPER, DecodeLayout::PerKvHead).head_dim
    };
    assert_eq!(width(&shape), Some(64));
    // Decode kernels are built per head width too.
    let decode = AttentionShape {
        q_len: 1.0,
        ..shape
    };
    assert_eq!(width(&decode), Some(64));
    // MLA's shared latent cache and its expanded prefill (keys wider than values):
    // kernels profiled apart.
    let latent = AttentionShape {
        shared_kv: true,
        ..decode
    };
    assert_eq!(width(&latent), None);
    let mla = AttentionShape {
        qk_dim: 192.0,
        v_dim: 128.0,
        ..shape
    };
    assert_eq!(width(&mla), None);
}

/// A 16-token prompt fills one tile: 64 x 32 pairs on sm_80 to sm_89 and sm_120, 64 x
/// 128 on Hopper, the sm_100 family and an unknown architecture.
#[test]
fn the_key_tile_is_the_architectures_kernels() {
    let prompt = AttentionShape {
        batch: 1.0,
        q_len: 16.0,
        kv_len: 16.0,
        heads: 8.0,
        kv_heads: 8.0,
        qk_dim: 128.0,
        v_dim: 128.0,
        causal: true,
        shared_kv: false,
        window: None,
    };
    for (sm, keys) in [
        (Some(80), 32.0),
        (Some(89), 32.0),
        (Some(120), 32.0),
        (Some(90), 128.0),
        (Some(100), 128.0),
        (None, 128.0),
    ] {
        let tile = PrefillTile {
            queries: QUERY_TILE,
            keys: prefill_key_tile(sm),
        };
        assert_eq!(attention_tile_pairs(&prompt, tile), 64.0 * keys, "{sm:?}");
    }
}

/// vLLM's kernels on tcgen05 parts compute 128 query rows a tile; TensorRT-LLM's and
/// SGLang's there, and vLLM's elsewhere, 64.
#[test]
fn vllm_on_tcgen05_parts_computes_128_query_rows_a_tile() {
    let get = |key: &str| crate::hardware::registry::get(key).unwrap();
    let (b200, h100) = (get("b200"), get("h100-sxm"));
    assert_eq!(PrefillTile::of(Framework::Vllm, &b200).queries, 128.0);
    assert_eq!(PrefillTile::of(Framework::TensorRtLlm, &b200).queries, 64.0);
    assert_eq!(PrefillTile::of(Framework::Sglang, &b200).queries, 64.0);
    assert_eq!(PrefillTile::of(Framework::Vllm, &h100).queries, 64.0);
    assert_eq!(
        PrefillTile::of(Framework::Vllm, &get("rtx-pro-6000")).keys,
        32.0
    );
    // A 1024-token causal prompt: 8 query tiles of 128 rows see 1, 2, ..., 8 key tiles
    // of 128 (36), against 72 tiles of 64 x 128; blocks per head 8, not 16.
    let prompt = AttentionShape {
        batch: 1.0,
        q_len: 1024.0,
        kv_len: 1024.0,
        heads: 132.0,
        kv_heads: 8.0,
        qk_dim: 128.0,
        v_dim: 128.0,
        causal: true,
        shared_kv: false,
        window: None,
    };
    let vllm = PrefillTile::of(Framework::Vllm, &b200);
    assert_eq!(attention_tile_pairs(&prompt, vllm), 36.0 * 128.0 * 128.0);
    let p = one_gflop_on_a_small_roof();
    let waves =
        |tile| KernelTimes::attention(&prompt, &p, 132, tile, DecodeLayout::PerKvHead).waves;
    assert_eq!(waves(vllm), 8.0);
    assert_eq!(waves(TRTLLM_HOPPER), 16.0);
}

#[test]
fn prefill_attention_computes_whole_tiles_and_decode_each_pair() {
    let shape = |q_len: f64, kv_len: f64, causal: bool| AttentionShape {
        batch: 1.0,
        q_len,
        kv_len,
        heads: 8.0,
        kv_heads: 2.0,
        qk_dim: 128.0,
        v_dim: 128.0,
        causal,
        shared_kv: false,
        window: None,
    };
    // 1024 causal: 16 query tiles of 64 rows see 1, 1, 2, 2, ..., 8, 8 = 72 key tiles of
    // 128.
    assert_eq!(
        attention_tile_pairs(&shape(1024.0, 1024.0, true), TRTLLM_HOPPER),
        72.0 * 64.0 * 128.0
    );
    // 16 tokens still fill one whole tile; no mask: every tile of the 4 x 3 grid.
    assert_eq!(
        attention_tile_pairs(&shape(16.0, 16.0, true), TRTLLM_HOPPER),
        64.0 * 128.0
    );
    assert_eq!(
        attention_tile_pairs(&shape(256.0, 300.0, false), TRTLLM_HOPPER),
        12.0 * 64.0 * 128.0
    );
    // Decode: each visible pair once.
    let decode = shape(1.0, 5000.0, true);
    assert_eq!(
        attention_tile_pairs(&decode, TRTLLM_HOPPER),
        decode.visible_pairs()
    );
    // Waves: prefill blocks per query tile and head, decode per sequence and KV head.
    let p = one_gflop_on_a_small_roof();
    let prefill = KernelTimes::attention(
        &shape(1024.0, 1024.0, true),
        &p,
        132,
        TRTLLM_HOPPER,
        DecodeLayout::PerKvHead,
    );
    assert_eq!(prefill.waves, 1.0);
    assert!(
        (prefill.compute_s / p.compute_time.get() - 72.0 * 8192.0 / (1024.0 * 1025.0 / 2.0)).abs()
            < 1e-12
    );
    let many = AttentionShape {
        batch: 100.0,
        ..decode
    };
    assert_eq!(
        KernelTimes::attention(&many, &p, 132, TRTLLM_HOPPER, DecodeLayout::PerKvHead).waves,
        2.0
    );
    assert_eq!(
        KernelTimes::attention(&many, &p, 132, TRTLLM_HOPPER, DecodeLayout::PerKvHead).memory_s,
        p.memory_time.get()
    );
    // A decode block streams its share in series with the next block on its SM: 200
    // blocks on 132 SMs, two in a row on the fullest, 2 / 200 of the bytes. Prefill has
    // no such term (its blocks are compute-bound tiles).
    let stream = KernelTimes::attention(&many, &p, 132, TRTLLM_HOPPER, DecodeLayout::PerKvHead)
        .tile_stream_s;
    assert!((stream - p.memory_time.get() * 2.0 / 200.0).abs() < 1e-18);
    assert_eq!(prefill.tile_stream_s, 0.0);
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

/// `preset` decoding in BF16 on `hw` at `batch` sequences of 4,096 tokens: the scenario
/// and its analysis.
fn bf16_decode(
    preset: &str,
    hw: &Hardware,
    batch: u64,
) -> (crate::analysis::Scenario, crate::analysis::ModelAnalysis) {
    use crate::analysis::{self, AttentionKernel, Scenario};
    let scenario = Scenario {
        phase: analysis::Phase::Decode,
        batch,
        seq: 4096,
        precision: Precision::uniform(Format::Bf16),
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
    };
    let config = crate::presets::get(preset).unwrap();
    let a = analysis::analyze(&config, hw, &scenario, &crate::roofline::Efficiency::IDEAL).unwrap();
    (scenario, a)
}

#[test]
fn a_calibrated_pass_takes_the_gemms_expected_time_and_the_rest_at_the_bound() {
    use crate::analysis;
    let hw = crate::hardware::registry::get("h100-sxm").unwrap();
    let config = crate::presets::get("llama-3-8b").unwrap();
    let (scenario, a) = bf16_decode("llama-3-8b", &hw, 1);
    let pass = calibrated_pass(&a.ops, &hw, Framework::TensorRtLlm);
    assert!(pass.calibrated_ops > 0 && pass.bound_ops > 0, "{pass:?}");
    assert_eq!(pass.calibrated_ops + pass.bound_ops, a.ops.len());
    assert!(
        pass.time_s > a.time.get(),
        "{} vs {}",
        pass.time_s,
        a.time.get()
    );
    // A device with no profile: every operator at the bound, the same total.
    let gb10 = crate::hardware::registry::get("gb10").unwrap();
    let a = analysis::analyze(
        &config,
        &gb10,
        &scenario,
        &crate::roofline::Efficiency::IDEAL,
    )
    .unwrap();
    let pass = calibrated_pass(&a.ops, &gb10, Framework::TensorRtLlm);
    assert_eq!(pass.calibrated_ops, 0);
    assert!((pass.time_s - a.time.get()).abs() <= 1e-12 * a.time.get());
}

/// The engines' fused GEMMs: Llama-3-8B's keys and values run in the queries' GEMM
/// (4,096 + 1,024 + 1,024 columns), its up projection in the gate's (2 x 14,336);
/// DeepSeek-V3's KV down-projection in its query down-projection (1,536 + 576).
#[test]
fn the_engines_run_fused_qkv_and_gate_up_gemms() {
    use crate::analysis::OpId;
    let hw = crate::hardware::registry::get("h100-sxm").unwrap();
    let (_, a) = bf16_decode("llama-3-8b", &hw, 8);
    let launches = launched(&a.ops);
    let at = |id: OpId| a.ops.iter().position(|o| o.id == id).unwrap();
    let n_of = |i: usize| match launches[i] {
        Launch::Runs(Op::Gemm { n, .. }, _) => n,
        other => panic!("{other:?}"),
    };
    assert_eq!(n_of(at(OpId::QProj)), 6144.0);
    assert_eq!(launches[at(OpId::KProj)], Launch::Inside(at(OpId::QProj)));
    assert_eq!(launches[at(OpId::VProj)], Launch::Inside(at(OpId::QProj)));
    assert_eq!(n_of(at(OpId::GateProj)), 2.0 * 14336.0);
    assert_eq!(
        launches[at(OpId::UpProj)],
        Launch::Inside(at(OpId::GateProj))
    );
    assert_eq!(n_of(at(OpId::OProj)), 4096.0);
    // One fused GEMM's expected time is below its parts' apart: one fixed cost.
    let apart = calibrated_pass(&a.ops, &hw, Framework::TensorRtLlm);
    let unfused: f64 = a
        .ops
        .iter()
        .map(|o| {
            calibrated(
                &o.op,
                &o.precision,
                &hw,
                Framework::TensorRtLlm,
                &o.result.prediction,
            )
            .map_or(o.time.get(), |(t, _)| t * o.count)
        })
        .sum();
    assert!(apart.time_s < unfused, "{} vs {unfused}", apart.time_s);
    let (_, d) = bf16_decode("deepseek-v3", &hw, 8);
    let launches = launched(&d.ops);
    let q = d.ops.iter().position(|o| o.id == OpId::QAProj).unwrap();
    let kv = d.ops.iter().position(|o| o.id == OpId::KvAProj).unwrap();
    assert_eq!(launches[kv], Launch::Inside(q));
    assert!(matches!(launches[q], Launch::Runs(Op::Gemm { n, .. }, _) if n == 1536.0 + 576.0));
}

/// Mixtral-8x7B decode in BF16 on the H100: its routed experts (routing, gate, up,
/// SwiGLU, down and the weighted sum) are one fused layer at the MoE profile's expected
/// time, read from the analysis's own operators; every other operator keeps its own
/// time. With experts whole on each of 2 GPUs, each GPU's layer has half the experts
/// local (TRT-LLM-Gen's tile size follows the copies per local expert).
#[test]
fn a_moe_blocks_routed_experts_are_one_fused_layer_at_its_profiles_time() {
    use crate::analysis::{self, OpId};
    let hw = crate::hardware::registry::get("h100-sxm").unwrap();
    let config = crate::presets::get("mixtral-8x7b").unwrap();
    let (scenario, a) = bf16_decode("mixtral-8x7b", &hw, 64);
    let moe = FusedMoe::of(&a.ops, 1.0).unwrap();
    // Mixtral: 4096 wide, 8 experts of 14336, top 2, 32 layers; 64 tokens touch all 8.
    assert_eq!(
        (moe.shape.tokens, moe.shape.hidden, moe.shape.intermediate),
        (64.0, 4096.0, 14336.0)
    );
    assert_eq!(
        (moe.shape.top_k, moe.shape.experts, moe.count),
        (2.0, 8.0, 32.0)
    );
    assert!((moe.load.assignments - 128.0).abs() < 1e-9, "{moe:?}");
    assert!((moe.load.experts_touched - 8.0).abs() < 1e-3, "{moe:?}");
    assert_eq!(
        moe.kind(),
        Profiled::Moe {
            activations: Format::Bf16,
            weights: Format::Bf16
        }
    );
    let profile = profile("h100-sxm", Framework::TensorRtLlm, moe.kind()).unwrap();
    let layer = profile.terms.predict(moe.times(&hw, profile.tiling));
    let pass = calibrated_pass(&a.ops, &hw, Framework::TensorRtLlm);
    // The rest: every other kernel the engine launches (the fused QKV and gate-up
    // GEMMs once) at its own expected time or its bound.
    let rest: f64 = a
        .ops
        .iter()
        .zip(launched(&a.ops))
        .filter(|(o, _)| !FUSED_MOE_OPS.contains(&o.id))
        .map(|(o, launch)| match launch {
            Launch::Runs(op, p) => calibrated(&op, &o.precision, &hw, Framework::TensorRtLlm, &p)
                .map_or(o.time.get(), |(t, _)| t * o.count),
            Launch::Inside(_) => 0.0,
        })
        .sum();
    let expected = rest + layer * 32.0;
    assert!(
        (pass.time_s / expected - 1.0).abs() < 1e-12,
        "{pass:?} vs {expected}"
    );
    assert_eq!(pass.calibrated_ops + pass.bound_ops, a.ops.len());
    assert_eq!(pass.moe_note(), Some(FUSED_MOE_NOTE));
    let fused = a
        .ops
        .iter()
        .filter(|o| FUSED_MOE_OPS.contains(&o.id))
        .count();
    assert_eq!(fused, FUSED_MOE_OPS.len());
    // The fused layer is slower than its six operators' bounds together.
    let experts_at_bound: f64 = a
        .ops
        .iter()
        .filter(|o| FUSED_MOE_OPS.contains(&o.id))
        .map(|o| o.time.get())
        .sum();
    assert!(
        layer * 32.0 > experts_at_bound,
        "{layer} vs {experts_at_bound}"
    );
    // No MoE profile (A100 has SGLang's only): the six operators stay at the bound.
    let a100 = crate::hardware::registry::get("a100-sxm").unwrap();
    let a = analysis::analyze(
        &config,
        &a100,
        &scenario,
        &crate::roofline::Efficiency::IDEAL,
    )
    .unwrap();
    let trtllm = calibrated_pass(&a.ops, &a100, Framework::TensorRtLlm);
    let sglang = calibrated_pass(&a.ops, &a100, Framework::Sglang);
    assert!(a.ops.iter().any(|o| o.id == OpId::ExpertsGateProj));
    assert!(sglang.calibrated_ops >= trtllm.calibrated_ops + FUSED_MOE_OPS.len());
    assert!(sglang.fused_moe && !trtllm.fused_moe && trtllm.moe_note().is_none());
    // Placed over 2 GPUs, each GPU's fused layer has 4 local experts.
    let placed = FusedMoe::of(&a.ops, 2.0).unwrap();
    assert_eq!(placed.shape.experts / placed.shape.expert_parallel, 4.0);
}

/// Llama-3-8B prefill in FP8 on the H100: with activations arriving in their format,
/// the pass is shorter by exactly each FP8 GEMM's quantisation pass (its bytes at the
/// profile's pass rate, times the layers), and nothing else moves; in BF16 there is no
/// pass to leave out.
#[test]
fn a_pass_with_activations_in_format_leaves_out_every_gemms_quantisation_pass() {
    use crate::analysis::{self, AttentionKernel, Scenario};
    let hw = crate::hardware::registry::get("h100-sxm").unwrap();
    let config = crate::presets::get("llama-3-8b").unwrap();
    let analyse = |format: Format| {
        let scenario = Scenario {
            phase: analysis::Phase::Prefill,
            batch: 1,
            seq: 4096,
            precision: Precision::uniform(format),
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
        };
        analysis::analyze(&config, &hw, &scenario, &crate::roofline::Efficiency::IDEAL).unwrap()
    };
    let fp8 = analyse(Format::Fp8E4m3);
    let first = calibrated_pass(&fp8.ops, &hw, Framework::TensorRtLlm);
    let in_format =
        calibrated_pass_with(&fp8.ops, &hw, Framework::TensorRtLlm, Activations::InFormat);
    assert_eq!(first.calibrated_ops, in_format.calibrated_ops);
    let terms = profile(
        "h100-sxm",
        Framework::TensorRtLlm,
        Profiled::Gemm {
            format: Format::Fp8E4m3,
        },
    )
    .unwrap()
    .terms;
    let rate = hw.memory_bandwidth.value.get() * terms.quantise_bandwidth.unwrap();
    // One pass per GEMM launched: the keys and values share the queries' input and
    // its quantisation, the up projection the gate's.
    let passes: f64 = fp8
        .ops
        .iter()
        .zip(launched(&fp8.ops))
        .filter_map(|(o, launch)| match launch {
            Launch::Runs(op @ Op::Gemm { m, k, .. }, _)
                if Profiled::of(&op, &o.precision).is_some() =>
            {
                Some(
                    o.count * activation_quantisation_bytes(m as u64, k as u64, Format::Fp8E4m3)
                        / rate,
                )
            }
            _ => None,
        })
        .sum();
    assert!(passes > 0.0);
    let saved = first.time_s - in_format.time_s;
    assert!((saved / passes - 1.0).abs() < 1e-9, "{saved} vs {passes}");
    let bf16 = analyse(Format::Bf16);
    assert_eq!(
        calibrated_pass(&bf16.ops, &hw, Framework::TensorRtLlm).time_s,
        calibrated_pass_with(
            &bf16.ops,
            &hw,
            Framework::TensorRtLlm,
            Activations::InFormat
        )
        .time_s
    );
}

#[test]
fn the_h200_profiles_predict_cublaslt_on_a_real_h200() {
    // cuBLASLt GEMMs timed by the agent on an H200 (docs/gpu-runs: the agent's
    // `compare` table, one operand set per shape). The profiles were fitted on
    // NVIDIA's TensorRT-LLM tables alone: BF16 should predict the bare cuBLASLt
    // product; FP8 times TensorRT-LLM's FP8 linear layer, which also quantises its
    // BF16 activations, so it must never predict less than the bare FP8 product.
    let table = include_str!("../../../../docs/gpu-runs/h200-2026-11-26/cublaslt-compare.txt");
    let hw = crate::hardware::registry::get("h200").unwrap();
    let mut bf16_errors = Vec::new();
    let mut fp8_rows = 0;
    for line in table.lines().filter(|l| l.contains("│ gemm ")) {
        let cells: Vec<&str> = line
            .trim_matches(|c| c == '│' || c == ' ')
            .split_whitespace()
            .collect();
        // gemm MxNxK FORMAT predicted UNIT measured UNIT error bound
        let dims: Vec<f64> = cells[1].split('x').map(|d| d.parse().unwrap()).collect();
        let format: Format = cells[2].parse().unwrap();
        let unit = match cells[6] {
            "µs" => 1e-6,
            "ms" => 1e-3,
            other => panic!("unit {other}"),
        };
        let measured = cells[5].parse::<f64>().unwrap() * unit;
        let op = Op::Gemm {
            m: dims[0],
            n: dims[1],
            k: dims[2],
            bias: false,
        };
        let precision = Precision {
            output: Format::Bf16,
            ..Precision::uniform(format)
        };
        let predicted = op.predict(&precision, &hw, &Efficiency::IDEAL).prediction;
        let (time, _) =
            calibrated(&op, &precision, &hw, Framework::TensorRtLlm, &predicted).unwrap();
        match format {
            Format::Bf16 => bf16_errors.push((time / measured - 1.0).abs()),
            _ => {
                assert!(time > measured, "{line}: calibrated {time}");
                fp8_rows += 1;
            }
        }
    }
    assert_eq!((bf16_errors.len(), fp8_rows), (8, 8));
    bf16_errors.sort_by(f64::total_cmp);
    // Measured on 2026-11-26: median 4 %, worst 11 %.
    assert!(bf16_errors[4] < 0.06, "{bf16_errors:?}");
    assert!(bf16_errors[7] < 0.15, "{bf16_errors:?}");
}

#[test]
fn shipped_profiles_name_registry_devices_and_keep_their_terms_in_range() {
    for p in profiles() {
        assert!(
            crate::hardware::registry::get(p.hardware).is_ok(),
            "{}",
            p.hardware
        );
        let t = p.terms;
        assert!(t.fixed_s >= 0.0 && t.fixed_s < SHIPPED_MAX_FIXED_S, "{p:?}");
        // Stored in f32: a fraction at a clamp reads back within 1e-7 of it.
        let fraction = FRACTION.0 - 1e-7..=FRACTION.1 + 1e-7;
        assert!(fraction.contains(&t.bandwidth), "{p:?}");
        assert!(fraction.contains(&t.compute), "{p:?}");
        assert!(p.held_out_median < p.held_out_p90, "{p:?}");
    }
    let gemm = |format| Profiled::Gemm { format };
    assert!(profile("h100-sxm", Framework::TensorRtLlm, gemm(Format::Bf16)).is_some());
    // Weight-only INT8 has no profile kind: activations and weights differ.
    let w8 = Precision {
        weights: Format::Int8,
        ..Precision::uniform(Format::Bf16)
    };
    let op = Op::Gemm {
        m: 1.0,
        n: 4096.0,
        k: 4096.0,
        bias: false,
    };
    assert_eq!(Profiled::of(&op, &w8), None);
    let decode = Profiled::Attention {
        phase: Phase::Decode,
        queries: Format::Bf16,
        kv: Format::Fp8E4m3,
    };
    assert!(profile("h100-sxm", Framework::TensorRtLlm, decode).is_some());
    assert!(profiles().all(|p| p.held_out_median <= SHIPPED_MEDIAN_ERROR));
    assert_eq!(decode.name(), "decode attention bf16, KV fp8-e4m3");
}

#[test]
fn a_moe_layer_reads_the_experts_it_touches_and_permutes_its_copies() {
    let hw = crate::hardware::registry::get("h100-sxm").unwrap();
    let p = Precision::uniform(Format::Bf16);
    let shape = MoeShape {
        tokens: 4096.0,
        hidden: 4096.0,
        intermediate: 1024.0,
        top_k: 8.0,
        experts: 128.0,
        expert_parallel: 1.0,
        gated: true,
    };
    let load = MoeLoad::uniform(&shape);
    // 4096 tokens x 8 choices touch every one of 128 experts.
    assert_eq!(load.assignments, 4096.0 * 8.0);
    assert!((load.experts_touched - 128.0).abs() < 1e-6, "{load:?}");
    let t = KernelTimes::moe(&shape, &load, &p, &hw, None);
    // All of the experts' weights (gate and up 2 x 1024 x 4096, down 4096 x 1024),
    // the GEMMs' activations, and the permutation: each token's 8 copies gathered
    // (read and written), read back, and one output row per token written; apart,
    // the routing pass over every copy.
    let bw = hw.memory_bandwidth.value.get();
    let weights = 128.0 * 3.0 * 1024.0 * 4096.0 * 2.0;
    let every_copy = 4096.0 * 8.0 * 4096.0 * 2.0;
    assert!((t.route_s * bw / every_copy - 1.0).abs() < 1e-9, "{t:?}");
    let permutation = (3.0 * 4096.0 * 8.0 + 4096.0) * 4096.0 * 2.0;
    assert!(t.memory_s > (weights + permutation) / bw, "{t:?}");
    assert!(t.memory_s < (weights + permutation) * 1.5 / bw, "{t:?}");
    // Its written activations: every byte but the weights, the GEMMs' inputs (the
    // gathered copies, then the 1024-wide intermediate) and outputs (the 2048-wide gate
    // and up, the 4096-wide down) with the permutation.
    let gemm_activations = 4096.0 * 8.0 * (4096.0 + 2048.0 + 1024.0 + 4096.0) * 2.0;
    let written = (gemm_activations + permutation) / bw;
    assert!((t.write_s / written - 1.0).abs() < 1e-9, "{t:?}");
    assert!(
        (t.memory_s - t.write_s - weights / bw).abs() < 1e-12,
        "{t:?}"
    );
    // FLOPs: 2 x tokens x top-k x (3 x 1024 x 4096) at the BF16 peak.
    let peak = hw.ceiling(crate::format::Math::Bf16, false).peak.get();
    let flops = 2.0 * 4096.0 * 8.0 * 3.0 * 1024.0 * 4096.0;
    assert!((t.compute_s / (flops / peak) - 1.0).abs() < 1e-9, "{t:?}");
    // Spread evenly over 8 GPUs: an eighth of the copies, experts and expert work
    // each; every token's output row is still written, and every copy routed.
    let wide = MoeShape {
        expert_parallel: 8.0,
        ..shape
    };
    let ep = KernelTimes::moe(&wide, &MoeLoad::uniform(&wide), &p, &hw, None);
    assert!((ep.compute_s * 8.0 / t.compute_s - 1.0).abs() < 1e-9);
    assert_eq!(ep.route_s, t.route_s);
    let output_rows = 4096.0 * 4096.0 * 2.0 / bw;
    let shared = (ep.memory_s - output_rows) * 8.0 / (t.memory_s - output_rows);
    assert!((shared - 1.0).abs() < 1e-9, "{ep:?} vs {t:?}");
    // A GPU that receives nothing still writes the zero rows of its output (and routes
    // every copy).
    let idle = KernelTimes::moe(
        &shape,
        &MoeLoad {
            assignments: 0.0,
            experts_touched: 0.0,
        },
        &p,
        &hw,
        None,
    );
    assert_eq!(idle.compute_s, 0.0);
    assert!((idle.memory_s - output_rows).abs() < 1e-12, "{idle:?}");
    assert_eq!(idle.write_s, idle.memory_s);
    assert_eq!(idle.route_s, t.route_s);
    // Not gated: no gate projection.
    let up_only = MoeShape {
        gated: false,
        ..shape
    };
    let up_only = KernelTimes::moe(&up_only, &load, &p, &hw, None);
    assert!((up_only.compute_s / t.compute_s - 2.0 / 3.0).abs() < 1e-9);
    // The same bytes on any device: whether and how fast the routing pass runs is
    // fitted (`KernelTerms::route_rate`), not assumed per architecture.
    let l40s = crate::hardware::registry::get("l40s").unwrap();
    let lt = KernelTimes::moe(&shape, &load, &p, &l40s, None);
    let bytes = |t: &KernelTimes, hw: &Hardware| {
        let bw = hw.memory_bandwidth.value.get();
        (t.memory_s * bw, t.route_s * bw)
    };
    let (h100, l40s) = (bytes(&t, &hw), bytes(&lt, &l40s));
    assert!((h100.0 / l40s.0 - 1.0).abs() < 1e-9 && (h100.1 / l40s.1 - 1.0).abs() < 1e-9);
    // The plain roofline does not count the routing pass: the bound is the layer's
    // own bytes and FLOPs.
    assert_eq!(KernelTerms::ROOFLINE.predict(t), t.bound_s());
}

#[test]
fn trtllm_gen_moe_experts_compute_whole_tiles_from_the_launchers_ladder() {
    let w4a8 = Precision {
        activations: Format::MxFp8E4m3,
        weights: Format::MxFp4,
        kv: Format::MxFp8E4m3,
        output: Format::Bf16,
    };
    let w4a16 = Precision {
        weights: Format::MxFp4,
        ..Precision::uniform(Format::Bf16)
    };
    let bf16 = Precision::uniform(Format::Bf16);
    // 16 local experts, top 6: 160 tokens average 60 copies an expert (a 64-row tile),
    // 192 tokens 72 (128 rows), 384 tokens 144 (256 rows), whatever share is local.
    assert_eq!(trtllm_gen_moe_tile(160, 6, 16, &w4a8), 64);
    assert_eq!(trtllm_gen_moe_tile(192, 6, 16, &w4a8), 128);
    assert_eq!(trtllm_gen_moe_tile(384, 6, 16, &w4a8), 256);
    // The ladder: 8 rows at the least, at most 64 for BF16 activations on 4-bit
    // weights and 128 for BF16 weights.
    assert_eq!(trtllm_gen_moe_tile(1, 1, 256, &w4a8), 8);
    assert_eq!(trtllm_gen_moe_tile(16384, 8, 4, &w4a8), 256);
    assert_eq!(trtllm_gen_moe_tile(16384, 8, 4, &w4a16), 64);
    assert_eq!(trtllm_gen_moe_tile(16384, 8, 4, &bf16), 128);
    assert_eq!(
        trtllm_gen_moe_tile(100, 8, 0, &bf16),
        128,
        "no experts: no division by 0"
    );

    // 192 tokens over 16 GPUs: rank 0's 16 experts get 4.5 copies each and compute
    // 128-row tiles; only the compute grows, by 128 / 4.5.
    let hw = crate::hardware::registry::get("b200").unwrap();
    let shape = MoeShape {
        tokens: 192.0,
        hidden: 4096.0,
        intermediate: 2048.0,
        top_k: 6.0,
        experts: 256.0,
        expert_parallel: 16.0,
        gated: true,
    };
    let load = MoeLoad {
        assignments: 72.0,
        experts_touched: 16.0,
    };
    let copies = KernelTimes::moe(&shape, &load, &w4a8, &hw, None);
    let tiles = KernelTimes::moe(&shape, &load, &w4a8, &hw, Some(128));
    assert!(
        (tiles.compute_s / copies.compute_s - 128.0 / 4.5).abs() < 1e-9,
        "{tiles:?}"
    );
    assert_eq!(tiles.memory_s, copies.memory_s);
    // More copies than one tile holds: whole tiles, the last one padded.
    let full = MoeLoad {
        assignments: 16.0 * 130.0,
        ..load
    };
    let exact = KernelTimes::moe(&shape, &full, &w4a8, &hw, None);
    let padded = KernelTimes::moe(&shape, &full, &w4a8, &hw, Some(128));
    assert!((padded.compute_s / exact.compute_s - 256.0 / 130.0).abs() < 1e-9);
    // An idle GPU computes no tiles.
    let idle = MoeLoad {
        assignments: 0.0,
        experts_touched: 0.0,
    };
    assert_eq!(
        KernelTimes::moe(&shape, &idle, &w4a8, &hw, Some(128)).compute_s,
        0.0
    );
}

#[test]
fn the_triton_fused_moe_computes_16_row_tiles_while_tokens_are_at_most_its_experts() {
    let w4a16 = Precision {
        weights: Format::MxFp4,
        ..Precision::uniform(Format::Bf16)
    };
    let fp8 = Precision::uniform(Format::Fp8E4m3);
    // SGLang's default configuration: 16 rows up to one token per local expert, 64 past.
    assert_eq!(triton_moe_tile(32, 32, &w4a16), 16);
    assert_eq!(triton_moe_tile(33, 32, &w4a16), 64);
    assert_eq!(
        triton_moe_tile(1, 8, &fp8),
        64,
        "block-scaled FP8: always 64"
    );
    assert_eq!(
        MoeTiling::Triton.tile_rows(48, 4, 32, &w4a16),
        Some(64),
        "tokens, not copies, against the experts"
    );
    assert_eq!(MoeTiling::Copies.tile_rows(48, 4, 32, &w4a16), None);
    assert_eq!(
        MoeTiling::TrtllmGen.tile_rows(160, 6, 16, &w4a16),
        Some(trtllm_gen_moe_tile(160, 6, 16, &w4a16))
    );

    // One token to top 4 of 32 experts: each of the 4 computes a 16-row tile, 16x the
    // compute of its one copy; the bytes are the same.
    let hw = crate::hardware::registry::get("l40s").unwrap();
    let layer = FusedMoe::uniform(
        MoeShape {
            tokens: 1.0,
            hidden: 2880.0,
            intermediate: 2880.0,
            top_k: 4.0,
            experts: 32.0,
            expert_parallel: 1.0,
            gated: true,
        },
        w4a16,
    );
    let copies = layer.times(&hw, MoeTiling::Copies);
    let tiles = layer.times(&hw, MoeTiling::Triton);
    assert!((tiles.compute_s / copies.compute_s - 16.0).abs() < 1e-9);
    assert_eq!(tiles.memory_s, copies.memory_s);
}

#[test]
fn flash_attention_2_splits_decode_as_its_heuristic_does() {
    // FlashAttention's own example: 48 blocks on 108 slots (54 SMs here, two blocks
    // each): 2 parts fill 89 % of a wave, and the fullest eligible split (22 parts of 3
    // key tiles each, 9.78 waves) 98 %; 2 is the fewest within 85 % of that.
    assert_eq!(flash_attention_2_splits(48, 1, 1, 8192, 128, 54), 2);
    // A100 (108 SMs), 2 sequences x 8 KV heads of 1,024 tokens, width 128: 8 key
    // tiles, so at most 8 parts; 5 to 7 are 8 parts again (2 tiles each), and 8 parts
    // (59 % of a wave) is the fullest.
    assert_eq!(flash_attention_2_splits(2, 8, 4, 1024, 128, 108), 8);
    // 256 blocks fill 80 % of 216 slots: no split; nor for a single key tile.
    assert_eq!(flash_attention_2_splits(32, 8, 4, 1024, 128, 108), 1);
    assert_eq!(flash_attention_2_splits(1, 1, 8, 100, 128, 108), 1);
    // 128 query heads on a KV head are two blocks of 64.
    assert_eq!(flash_attention_2_splits(87, 1, 128, 1024, 128, 108), 1);
    assert!(flash_attention_2_splits(87, 1, 64, 1024, 128, 108) > 1);
}

#[test]
fn sglangs_triton_latent_decode_launches_blocks_of_16_heads_and_8_parts() {
    let hw = crate::hardware::registry::get("l40s").unwrap();
    // DeepSeek-V3's latent attention at TP 1: 128 query heads on one 576-wide latent head.
    let shape = AttentionShape {
        batch: 4.0,
        q_len: 1.0,
        kv_len: 4096.0,
        heads: 128.0,
        kv_heads: 1.0,
        qk_dim: 576.0,
        v_dim: 512.0,
        causal: true,
        shared_kv: true,
        window: None,
    };
    let layout = DecodeLayout::of(Framework::Sglang, &shape, hw.sm_version(), Format::Bf16);
    assert_eq!(layout, DecodeLayout::TritonSplitKv);
    // Hopper and Blackwell run other kernels; so does SGLang's grouped-query decode.
    assert_eq!(
        DecodeLayout::of(Framework::Sglang, &shape, Some(90), Format::Bf16),
        DecodeLayout::PerKvHead
    );
    let grouped = AttentionShape {
        shared_kv: false,
        kv_heads: 8.0,
        ..shape
    };
    assert_eq!(
        DecodeLayout::of(Framework::Sglang, &grouped, Some(89), Format::Bf16),
        DecodeLayout::PerKvHead
    );
    let p = Op::FusedAttention(shape)
        .predict(&Precision::uniform(Format::Bf16), &hw, &Efficiency::IDEAL)
        .prediction;
    let times = KernelTimes::attention(&shape, &p, hw.sms(), TRTLLM_HOPPER, layout);
    // 4 sequences x 8 blocks of 16 heads x 8 parts = 256 blocks: 2 waves on 142 SMs,
    // then the merge.
    assert_eq!(hw.sms(), 142);
    assert_eq!(times.waves, 3.0);
    // Each block streams an eighth of its sequence's cache: 2 waves of that.
    let per_sequence = p.memory_time.get() / 4.0;
    assert!((times.tile_stream_s - 2.0 * per_sequence / 8.0).abs() < 1e-15);
}

#[test]
fn xqa_splits_sequences_as_tensorrt_llm_does() {
    // 1,024 tokens: 8 parts of 128 (the square-root cap, round(sqrt(64)) = 8, allows
    // them), 64 blocks: under a wave of 132 SMs.
    assert_eq!(xqa_parts(1, 8, 1024, 132), 8);
    // 131,072 tokens: 1,024 parts capped at round(sqrt(8192)) = 91.
    assert_eq!(xqa_parts(1, 8, 131_072, 132), 91);
    // 64 sequences of 256 tokens: 2 parts, 1,024 blocks, 7.8 waves: kept.
    assert_eq!(xqa_parts(64, 8, 256, 132), 2);
    // 256 sequences of 4,096 tokens: 16 parts would be 248 waves, so floor(16 x 8 /
    // 248) = 0, and at least 1.
    assert_eq!(xqa_parts(256, 8, 4096, 132), 1);
    // Short sequences are one part; the workspace caps parts at 6,000 over the batch.
    assert_eq!(xqa_parts(1, 1, 100, 132), 1);
    assert_eq!(xqa_parts(3000, 1, 131_072, 1_000_000), 2);
}

#[test]
fn vllms_flash_attention_2_decode_packs_a_groups_heads_and_splits_only_without_a_window() {
    let shape = |window: Option<f64>| AttentionShape {
        batch: 1024.0,
        q_len: 1.0,
        kv_len: 3.0,
        heads: 64.0,
        kv_heads: 1.0,
        qk_dim: 128.0,
        v_dim: 128.0,
        causal: true,
        shared_kv: false,
        window,
    };
    let vllm = Framework::Vllm;
    // A configured window, even one the 3-token sequence has not reached.
    for sm in [Some(80), Some(86), Some(89), Some(120)] {
        assert_eq!(
            DecodeLayout::of(vllm, &shape(Some(128.0)), sm, Format::Bf16),
            DecodeLayout::PerQueryHead
        );
        assert_eq!(
            DecodeLayout::of(vllm, &shape(None), sm, Format::Bf16),
            DecodeLayout::FlashSplitKv
        );
    }
    // Hopper runs FlashAttention-3, Blackwell FlashInfer; an FP8 cache FlashInfer too.
    for sm in [Some(90), Some(100)] {
        assert_eq!(
            DecodeLayout::of(vllm, &shape(Some(128.0)), sm, Format::Bf16),
            DecodeLayout::PerKvHead
        );
    }
    assert_eq!(
        DecodeLayout::of(vllm, &shape(Some(128.0)), Some(89), Format::Fp8E4m3),
        DecodeLayout::PerKvHead
    );
    // Plain multi-head attention has no group to pack: a block per head, window or
    // not, and no split of its sequences (the heuristic runs only on packed heads).
    let plain = AttentionShape {
        kv_heads: 64.0,
        kv_len: 8192.0,
        ..shape(Some(128.0))
    };
    let layout = DecodeLayout::of(vllm, &plain, Some(89), Format::Bf16);
    assert_eq!(layout, DecodeLayout::FlashSplitKv);
    let hw = crate::hardware::registry::get("l40s").unwrap();
    let l40s_sms = hw.sms();
    let times = |shape: &AttentionShape| {
        let p = Op::FusedAttention(*shape)
            .predict(&Precision::uniform(Format::Bf16), &hw, &Efficiency::IDEAL)
            .prediction;
        KernelTimes::attention(shape, &p, l40s_sms, TRTLLM_HOPPER, layout).waves
    };
    let few = AttentionShape {
        batch: 1.0,
        ..plain
    };
    assert_eq!(times(&few), 1.0);
    // Packed, one sequence of 8,192 tokens on one KV head is 64 key tiles: split.
    let packed = AttentionShape {
        kv_heads: 1.0,
        window: None,
        ..few
    };
    let parts = flash_attention_2_splits(1, 1, 64, 8192, 128, l40s_sms);
    assert!(parts > 1);
    assert_eq!(
        times(&packed),
        (parts as f64 / f64::from(l40s_sms)).ceil() + 1.0
    );
}

#[test]
fn decode_layouts_follow_tensorrt_llms_dispatch() {
    let shape = |heads: f64, kv_heads: f64| AttentionShape {
        batch: 4.0,
        q_len: 1.0,
        kv_len: 4096.0,
        heads,
        kv_heads,
        qk_dim: 128.0,
        v_dim: 128.0,
        causal: true,
        shared_kv: false,
        window: None,
    };
    let trt = Framework::TensorRtLlm;
    assert_eq!(
        DecodeLayout::of(trt, &shape(32.0, 8.0), Some(90), Format::Bf16),
        DecodeLayout::Xqa
    );
    assert_eq!(
        DecodeLayout::of(trt, &shape(32.0, 8.0), Some(80), Format::Bf16),
        DecodeLayout::Xqa
    );
    // sm_100 runs trtllm-gen kernels, which hold the group in a block.
    assert_eq!(
        DecodeLayout::of(trt, &shape(32.0, 8.0), Some(100), Format::Bf16),
        DecodeLayout::PerKvHead
    );
    assert_eq!(
        DecodeLayout::of(trt, &shape(32.0, 8.0), None, Format::Bf16),
        DecodeLayout::PerKvHead
    );
    // 32 query heads per KV head is XQA's limit; 64 runs a block per query head,
    // on every device.
    assert_eq!(
        DecodeLayout::of(trt, &shape(32.0, 1.0), Some(90), Format::Bf16),
        DecodeLayout::Xqa
    );
    for sm in [Some(90), Some(100), None] {
        assert_eq!(
            DecodeLayout::of(trt, &shape(64.0, 1.0), sm, Format::Bf16),
            DecodeLayout::PerQueryHead
        );
    }
    // On sm_80 to sm_90 XQA refuses plain multi-head attention; trtllm-gen takes it.
    for (sm, layout) in [
        (Some(90), DecodeLayout::PerQueryHead),
        (Some(80), DecodeLayout::PerQueryHead),
        (Some(100), DecodeLayout::PerKvHead),
    ] {
        assert_eq!(
            DecodeLayout::of(trt, &shape(32.0, 32.0), sm, Format::Bf16),
            layout
        );
    }
    // An 8-bit cache on sm_89 (L40S): no XQA split, a block per KV head; on sm_90 and
    // with a BF16 cache, XQA.
    let fp8 = Format::Fp8E4m3;
    assert_eq!(
        DecodeLayout::of(trt, &shape(32.0, 8.0), Some(89), fp8),
        DecodeLayout::PerKvHead
    );
    assert_eq!(
        DecodeLayout::of(trt, &shape(32.0, 8.0), Some(89), Format::Bf16),
        DecodeLayout::Xqa
    );
    assert_eq!(
        DecodeLayout::of(trt, &shape(32.0, 8.0), Some(90), fp8),
        DecodeLayout::Xqa
    );
    // MLA's shared latent cache (128 query heads on one) and prefill are other kernels.
    let latent = AttentionShape {
        shared_kv: true,
        ..shape(128.0, 1.0)
    };
    assert_eq!(
        DecodeLayout::of(trt, &latent, Some(90), Format::Bf16),
        DecodeLayout::PerKvHead
    );
    // On sm_120 exactly, DeepSeek's 576-wide latent head serving 128 query heads from
    // an FP8 cache runs XQA's MLA kernel; a BF16 cache, 64 heads, another width,
    // another device or framework do not.
    let deepseek = AttentionShape {
        qk_dim: 576.0,
        v_dim: 512.0,
        ..latent
    };
    assert_eq!(
        DecodeLayout::of(trt, &deepseek, Some(120), fp8),
        DecodeLayout::XqaMla
    );
    for (framework, shape, sm, kv) in [
        (trt, deepseek, Some(120), Format::Bf16),
        (
            trt,
            AttentionShape {
                heads: 64.0,
                ..deepseek
            },
            Some(120),
            fp8,
        ),
        (trt, latent, Some(120), fp8),
        (trt, deepseek, Some(121), fp8),
        (trt, deepseek, Some(90), fp8),
        (Framework::Sglang, deepseek, Some(120), fp8),
    ] {
        assert_eq!(
            DecodeLayout::of(framework, &shape, sm, kv),
            DecodeLayout::PerKvHead,
            "{framework:?} {sm:?} {kv:?} {} heads, width {}",
            shape.heads,
            shape.qk_dim
        );
    }
    assert_eq!(DecodeLayout::XqaMla.run_shape(&deepseek), deepseek);
    let mla_decode = Profiled::of(
        &Op::FusedAttention(deepseek),
        &Precision {
            kv: fp8,
            ..Precision::uniform(Format::Bf16)
        },
    )
    .unwrap();
    assert_eq!(
        mla_decode.laid_out(DecodeLayout::XqaMla),
        Profiled::XqaMlaDecode {
            queries: Format::Bf16,
            kv: fp8
        }
    );
    assert_eq!(mla_decode.laid_out(DecodeLayout::PerKvHead), mla_decode);
    let prefill = AttentionShape {
        q_len: 512.0,
        ..shape(64.0, 1.0)
    };
    assert_eq!(
        DecodeLayout::of(trt, &prefill, Some(90), Format::Bf16),
        DecodeLayout::PerKvHead
    );
    for other in [Framework::Vllm, Framework::Sglang] {
        assert_eq!(
            DecodeLayout::of(other, &shape(64.0, 1.0), Some(90), Format::Bf16),
            DecodeLayout::PerKvHead
        );
    }
    // A block per query head reads the cache once per query head: 64 times the bytes
    // of the KV head's cache here.
    let s = shape(64.0, 1.0);
    let run = DecodeLayout::PerQueryHead.run_shape(&s);
    assert_eq!((run.heads, run.kv_heads), (64.0, 64.0));
    assert_eq!(DecodeLayout::Xqa.run_shape(&s), s);
    let p = Precision::uniform(Format::Bf16);
    let hw = crate::hardware::registry::get("h100-sxm").unwrap();
    let cache = |a: &AttentionShape| {
        Op::FusedAttention(*a)
            .predict(&p, &hw, &Efficiency::IDEAL)
            .cost
            .work
            .bytes
            .get()
    };
    let kv_bytes = |heads: f64| 4.0 * 4096.0 * heads * 128.0 * 2.0 * 2.0;
    assert!((cache(&run) - cache(&s) - (kv_bytes(64.0) - kv_bytes(1.0))).abs() < 1.0);
    // The profile kind follows: a kernel of its own.
    let decode = Profiled::Attention {
        phase: Phase::Decode,
        queries: Format::Bf16,
        kv: Format::Bf16,
    };
    let own = decode.laid_out(DecodeLayout::PerQueryHead);
    assert_eq!(
        own,
        Profiled::PerQueryHeadDecode {
            queries: Format::Bf16,
            kv: Format::Bf16
        }
    );
    assert_eq!(
        own.name(),
        "decode attention bf16, KV bf16, a block per query head"
    );
    assert_eq!(decode.laid_out(DecodeLayout::Xqa), decode);
    // calibrated() takes it for such a shape in TensorRT-LLM: the cache read once from
    // the DRAM (the datasheet bound's bytes), the 63 further reads from the L2 at the
    // profile's fitted rate.
    let op = Op::FusedAttention(s);
    let r = op.predict(&p, &hw, &Efficiency::IDEAL);
    let (t, profile) = calibrated(&op, &p, &hw, Framework::TensorRtLlm, &r.prediction).unwrap();
    assert_eq!(profile.kernel, own);
    let times = KernelTimes::attention_of(
        &s,
        &r.prediction,
        &p,
        &hw,
        (Framework::TensorRtLlm, DecodeLayout::PerQueryHead),
    );
    let once = r.prediction.memory_time.get();
    let every_read = Op::FusedAttention(run)
        .predict(&p, &hw, &Efficiency::IDEAL)
        .prediction
        .memory_time
        .get();
    assert_eq!(times.memory_s, once);
    assert!((times.l2_s - (every_read - once)).abs() <= 1e-9 * every_read);
    assert_eq!(t, profile.terms.predict(times));
    assert!(profile.terms.l2_bandwidth.is_finite());
    assert!(t > times.l2_s / profile.terms.l2_bandwidth);
    // Every other layout re-reads nothing.
    let xqa = KernelTimes::attention_of(
        &s,
        &r.prediction,
        &p,
        &hw,
        (Framework::TensorRtLlm, DecodeLayout::Xqa),
    );
    assert_eq!((xqa.memory_s, xqa.l2_s), (once, 0.0));
}

#[test]
fn decode_attention_and_mla_are_calibrated_by_their_own_profiles() {
    let hw = crate::hardware::registry::get("h100-sxm").unwrap();
    let p = Precision {
        kv: Format::Fp8E4m3,
        ..Precision::uniform(Format::Bf16)
    };
    let shape = AttentionShape {
        batch: 8.0,
        q_len: 1.0,
        kv_len: 8192.0,
        heads: 32.0,
        kv_heads: 8.0,
        qk_dim: 128.0,
        v_dim: 128.0,
        causal: true,
        shared_kv: false,
        window: None,
    };
    let op = Op::FusedAttention(shape);
    let r = op.predict(&p, &hw, &crate::roofline::Efficiency::IDEAL);
    let (t, profile) = calibrated(&op, &p, &hw, Framework::TensorRtLlm, &r.prediction).unwrap();
    let terms = profile.terms;
    // XQA (H100 is sm_90): 64 sequence-and-KV-head blocks, each sequence in 16 parts
    // (`xqa_parts`), so 1,024 blocks: 8 waves on 132 SMs, then the parts' merge.
    assert_eq!(xqa_parts(8, 8, 8192, 132), 16);
    // The 128-wide decode kernel's own fixed time and share of the peak.
    let width = ATTENTION_HEAD_DIMS.iter().position(|&d| d == 128).unwrap();
    // Memory: the chip's fraction, or one block streaming its share of the cache.
    let tile_stream_s = KernelTimes::attention_of(
        &shape,
        &r.prediction,
        &p,
        &hw,
        (Framework::TensorRtLlm, DecodeLayout::Xqa),
    )
    .tile_stream_s;
    let want = terms.fixed_s * terms.head_fixed[width]
        + 9.0 * terms.per_wave_s
        + overlapped(
            (r.prediction.memory_time.get() / terms.bandwidth)
                .max(tile_stream_s / terms.tile_bandwidth),
            r.prediction.compute_time.get() * terms.head_compute[width] / terms.compute,
            terms.overlap,
        );
    assert!((t - want).abs() < 1e-15, "{t} vs {want}");
    assert!(t > r.prediction.time.get());
    // MLA's shared latent cache (576-wide heads) is another kernel, with its own
    // profile fitted on the MLA tables.
    let mla = Op::FusedAttention(AttentionShape {
        qk_dim: 576.0,
        v_dim: 512.0,
        kv_heads: 1.0,
        shared_kv: true,
        window: None,
        ..shape
    });
    let r = mla.predict(&p, &hw, &crate::roofline::Efficiency::IDEAL);
    let (_, profile) = calibrated(&mla, &p, &hw, Framework::TensorRtLlm, &r.prediction).unwrap();
    assert_eq!(
        profile.kernel,
        Profiled::Mla {
            phase: Phase::Decode,
            queries: Format::Bf16,
            kv: Format::Fp8E4m3
        }
    );
    // The expanded prefill (192-wide keys, 128-wide values) is MLA too.
    let prefill = AttentionShape {
        q_len: 4096.0,
        kv_len: 4096.0,
        kv_heads: 32.0,
        qk_dim: 192.0,
        v_dim: 128.0,
        ..shape
    };
    assert!(matches!(
        Profiled::of(&Op::FusedAttention(prefill), &p),
        Some(Profiled::Mla {
            phase: Phase::Prefill,
            ..
        })
    ));
}
