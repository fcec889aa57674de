//! Attention kernels: prefill tiles, windows, decode layouts.

use super::*;

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
