//! Fused MoE layers: experts touched, copies, whole tiles.

use super::*;

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
