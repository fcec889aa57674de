//! GEMM kernels: tiles, split-K, the L2 in a benchmark loop, the quantisation pass.

use super::*;

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
    // 131 tiles leave one of 132 SMs idle; 132 fill them.
    assert!(reduces_partial_sums(
        128,
        131 * 128,
        4096,
        Format::Fp8E4m3,
        &h100
    ));
    assert!(!reduces_partial_sums(
        128,
        132 * 128,
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
