//! Attention kernels as the engines tile them: prefill's query and key tiles, and the
//! decode layouts (split-KV, XQA, Triton) with their parts per sequence.

use super::*;

/// Query rows per tile of a prefill (FlashAttention-style) kernel. TensorRT-LLM's context
/// attention kernels name their tile: `fmha_v2_flash_attention_bf16_64_128_S_qkv_128_
/// causal_tma_ws_sm90_kernel` computes 64 query rows against 128 keys at a time for head
/// size 128 (Hopper; sm_89's tiled kernel for that head size is 64 x 128 too; for the key
/// tile of each architecture see [`prefill_key_tile`]). A
/// tile is computed whole even where the causal mask or the sequence's end leaves part of
/// it empty. On NVIDIA's tables 64 x 128 against the 128 x 128 of FlashAttention-3 (Shah et
/// al., 2024, section 4) brought prefill attention's held-out p90 from 34-56 % to 21-32 % on
/// A100, Hopper and Blackwell (64 x 64 and 32 x 32 tried: 64 x 64 fit about as well, a
/// little better on L40S; 32 x 32 worse on Hopper and Blackwell).
pub(super) const QUERY_TILE: f64 = 64.0;
/// Key columns per tile of TensorRT-LLM's warp-specialised TMA prefill kernels on Hopper
/// (`..._64_128_S_qkv_128_tma_ws_sm90`; [`QUERY_TILE`]); kept for the sm_100 family, whose
/// tables fit 32 no better.
pub(super) const KEY_TILE: f64 = 128.0;
/// Key columns per tile of the prefill kernels TensorRT-LLM builds for sm_80 to sm_89
/// (`fmha_v2_flash_attention_fp16_64_32_S_qkv_128_sm80`, `..._sm86`, `..._sm89` beside the
/// tiled `..._64_128_...` ones); sm_120's tables (RTX PRO 6000) fit it too. On NVIDIA's
/// tables, against 128: A100's held-out p90 22 -> 14 %, L40S BF16's median 16 -> 13 % and
/// p90 62 -> 46 % (16- to 32-token prompts had run 1.2-1.6x faster than whole 128-key tiles
/// predict), RTX PRO 6000's 1-2 points lower; Hopper and Blackwell moved by a point either
/// way, so they keep 128.
pub(super) const NARROW_KEY_TILE: f64 = 32.0;

/// Query rows per tile of vLLM's prefill attention on tcgen05 parts (sm_100, sm_103): the
/// kernels it runs there (FlashInfer's and trtllm-gen's Blackwell attention) compute with
/// tcgen05's 128-row MMA. Read off NVIDIA's tables, against [`QUERY_TILE`]: vLLM's own fit
/// on B200 20 -> 16 % median (p90 53 -> 39 %), on B300, GB200 and GB300 p90 48-52 -> 37-39 %
/// (the rows of its Triton kernel, which a table with an FP8 cache also holds, fit worse:
/// p90 84-122 -> 174-246 %; their median is unchanged).
/// TensorRT-LLM's own kernels there fit 64 rows better (p90 17-21 % against 29-30 %), and
/// SGLang's tables, whose Triton kernel has 64-row tiles beside FlashInfer's, no better
/// with 128 (medians 1-2 points worse).
pub(super) const TCGEN05_QUERY_TILE: f64 = 128.0;

/// The key columns per tile of a prefill attention kernel on compute capability `sm`
/// ([`KEY_TILE`], [`NARROW_KEY_TILE`]): 32 on sm_80 to sm_89 and sm_120 and later consumer
/// parts, 128 on Hopper, the sm_100 family and where the architecture is not known.
pub fn prefill_key_tile(sm: Option<u32>) -> f64 {
    match sm {
        Some(80..=89 | 120..=129) => NARROW_KEY_TILE,
        _ => KEY_TILE,
    }
}

/// The tile a prefill attention kernel computes whole: query rows by key columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrefillTile {
    /// Query rows ([`QUERY_TILE`], [`TCGEN05_QUERY_TILE`]).
    pub queries: f64,
    /// Key columns ([`prefill_key_tile`]).
    pub keys: f64,
}

impl PrefillTile {
    /// The tile of `framework`'s prefill attention kernels on `hw`.
    pub fn of(framework: Framework, hw: &Hardware) -> PrefillTile {
        let queries = if framework == Framework::Vllm && hw.has_tcgen05() {
            TCGEN05_QUERY_TILE
        } else {
            QUERY_TILE
        };
        PrefillTile {
            queries,
            keys: prefill_key_tile(hw.sm_version()),
        }
    }
}

/// The head widths of the attention kernels NVIDIA's tables measure (`head_dim` 64, 128,
/// 192 and 256; 512 in BF16 prefill on Blackwell), each a kernel of its own: TensorRT-LLM
/// builds one context attention kernel per head size and architecture, its key tile chosen
/// for the width (its `fmha_cubin.h` lists `fmha_v2_flash_attention_bf16_64_256_S_qkv_64_
/// tma_ws_sm90`, `..._64_128_S_qkv_128_...` and `..._64_64_S_qkv_256_...`), and its decode
/// kernels and Triton's are compiled per head size too, so each width reaches its own share
/// of the tensor-core peak ([`KernelTerms::head_compute`]) after a fixed time of its own
/// ([`KernelTerms::head_fixed`]).
pub const ATTENTION_HEAD_DIMS: [u32; 5] = [64, 128, 192, 256, 512];

/// Query-key pairs a prefill attention kernel computes: whole tiles of `tile.queries`
/// queries by `tile.keys` keys ([`PrefillTile`]), skipping only tiles the causal
/// mask hides entirely. Decode (one query)
/// computes each visible pair once: its kernels hold a sequence's few query heads in one
/// block.
pub fn attention_tile_pairs(shape: &AttentionShape, tile: PrefillTile) -> f64 {
    let PrefillTile {
        queries: query_tile,
        keys: key_tile,
    } = tile;
    let (t, s) = (shape.q_len, shape.kv_len);
    if t <= 1.0 {
        return shape.visible_pairs();
    }
    let query_tiles = (t / query_tile).ceil();
    let key_tiles = if shape.causal {
        // Query tile i (q rows a tile) ends at row min((i + 1) x q, t), which sees the
        // first s - t + that many keys; under a window w its first row's first visible key
        // is s - t + i x q + 1 - w, and the key tiles before that one are skipped.
        (0..query_tiles as u64)
            .map(|i| {
                let last = ((i + 1) as f64 * query_tile).min(t);
                let end = ((s - t + last).max(0.0) / key_tile).ceil();
                let start = shape.window.map_or(0.0, |w| {
                    ((s - t + i as f64 * query_tile + 1.0 - w).max(0.0) / key_tile).floor()
                });
                end - start
            })
            .sum::<f64>()
    } else {
        query_tiles * (s / key_tile).ceil()
    };
    key_tiles * query_tile * key_tile
}

/// The head width of `shape` when its keys and values are of one width, prefill or decode
/// ([`KernelTimes::head_dim`]); `None` for MLA (a shared latent cache, or keys wider than
/// values in its expanded prefill: kernels of their own, profiled apart).
pub(super) fn attention_head_dim(shape: &AttentionShape) -> Option<u32> {
    (!shape.shared_kv && shape.qk_dim == shape.v_dim && shape.qk_dim >= 1.0)
        .then_some(shape.qk_dim as u32)
}

/// How a decode attention kernel spreads its work over thread blocks, which sets its waves
/// and, for one layout, its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DecodeLayout {
    /// A block per sequence and KV head holding the KV head's whole group of query heads,
    /// reading the cache once (FlashInfer and FlashAttention's decode kernels, TensorRT-LLM's
    /// trtllm-gen kernels on sm_100, and its decode with an 8-bit cache on sm_89).
    PerKvHead,
    /// TensorRT-LLM's XQA kernels (sm_80 to sm_90): a block per KV head and part of each
    /// sequence ([`xqa_parts`]), the parts' partial softmaxes merged by the last block to
    /// finish; the cache is read once.
    Xqa,
    /// TensorRT-LLM's masked multi-head attention, which it runs where XQA does not
    /// ([`DecodeLayout::of`]: a KV head serving more than [`XQA_MAX_GROUP`] query heads, and
    /// on sm_80 to sm_90 plain multi-head attention): a block per query head, each reading
    /// its KV head's cache, so the cache is read once per query head.
    PerQueryHead,
    /// TensorRT-LLM's XQA kernel for DeepSeek's latent attention on sm_120 (`mla_sm120.cu`),
    /// which it runs where `supportConfigMLA` and `XQAParams::isMLA` allow: compute
    /// capability 12.0 exactly, an FP8 (E4M3) latent cache, and one 576-wide latent head
    /// serving 128 query heads (DeepSeek-V3 at attention TP 1). A kernel of its own, fitted
    /// apart ([`Profiled::XqaMlaDecode`]); its blocks are counted as a block per sequence,
    /// as NVIDIA's RTX PRO 6000 tables time it: at 131,072 tokens batch 1 to 32 take 2.2 ms
    /// (one sequence's latent cache at 34 GB/s; 7.3 ms at 64 heads, where the generic
    /// kernel runs), then the time grows with the batch at 60-78 % of the DRAM's rate.
    XqaMla,
    /// vLLM's FlashAttention-2 decode ([`DecodeLayout::of`]): a block per sequence and KV
    /// head holding the KV head's group of query heads (`seqlenq_ngroups_swapped`), each
    /// sequence split into the parts [`flash_attention_2_splits`] chooses, whose partial
    /// softmaxes a second kernel merges. The cache is read once.
    FlashSplitKv,
    /// SGLang's Triton decode of latent attention (`decode_attention.py`,
    /// `_decode_grouped_att_m_fwd`), which NVIDIA's L40S and RTX PRO 6000 tables record: a
    /// block per sequence, [`TRITON_DECODE_HEADS`] query heads and each of
    /// [`TRITON_DECODE_SPLITS`] parts of the sequence (every part launched, however short
    /// the sequence), a second kernel merging the parts. Each block of heads reads its
    /// part of the latent cache.
    TritonSplitKv,
}

/// Query heads a block of SGLang's Triton grouped decode holds (`BLOCK_H`).
pub(super) const TRITON_DECODE_HEADS: f64 = 16.0;
/// Parts SGLang's Triton decode launches per sequence (`--triton-attention-num-kv-splits`,
/// default 8; the grid's third dimension).
pub(super) const TRITON_DECODE_SPLITS: u64 = 8;

/// The most query heads per KV head TensorRT-LLM's XQA decode kernels take (TensorRT-LLM
/// `decoderXQAImplJIT/kernelUtils.cpp`, `supportConfigHMMA` and `supportConfigQGMMA`:
/// `head_grp_size * beam_width > 32` is refused); above it the masked multi-head attention
/// kernel runs. NVIDIA's Blackwell tables switch at the same point (their rows past 32 run
/// about 6x over what a grouped kernel takes, and fitted as a kernel of their own reach an
/// 8-10 % held-out median), so the limit is taken for every device.
pub const XQA_MAX_GROUP: f64 = 32.0;

/// The query heads TensorRT-LLM's sm_120 MLA kernel serves from one latent head
/// (`XQAParams::isMLA`: `num_q_heads == 128`).
pub(super) const XQA_MLA_HEADS: f64 = 128.0;
/// The latent head width it takes (`XQAParams::isMLA`: `head_size == 576`, DeepSeek's 512
/// latent plus 64 rotary channels).
pub(super) const XQA_MLA_HEAD_DIM: f64 = 576.0;

/// History tokens each XQA part keeps at least (TensorRT-LLM `kMinHistoryTokensPerBlock`).
pub(super) const XQA_MIN_TOKENS_PER_PART: u64 = 128;
/// Waves of blocks XQA aims at before it stops splitting sequences (`kTargetWaveFactor`).
pub(super) const XQA_TARGET_WAVES: f64 = 8.0;
/// Sequence parts XQA's workspace holds over the whole batch (`kXQA_MAX_NUM_SUB_SEQ`).
pub(super) const XQA_MAX_PARTS: u64 = 6000;

/// The parts XQA splits each sequence into (TensorRT-LLM `computeMultiBlockCount`): one per
/// 128 history tokens, at most the rounded square root of 8 x that (so the merge does not
/// dominate), fewer when the blocks would pass 8 waves of `sms` multiprocessors, and no
/// more than the workspace holds for the batch; at least 1.
pub fn xqa_parts(batch: u64, kv_heads: u64, kv_len: u64, sms: u32) -> u64 {
    let mut parts = kv_len / XQA_MIN_TOKENS_PER_PART;
    parts = parts
        .min(((parts as f64) * 8.0).sqrt().round() as u64)
        .max(1);
    let waves = (batch * kv_heads * parts) as f64 / f64::from(sms.max(1));
    if waves > XQA_TARGET_WAVES {
        parts = ((parts as f64) * XQA_TARGET_WAVES / waves).floor() as u64;
    }
    parts.min(XQA_MAX_PARTS / batch.max(1)).max(1)
}

/// The parts FlashAttention-2 splits each sequence of a decode step into (FlashAttention
/// `flash_api.cpp`, `set_params_splitkv` and `num_splits_heuristic`, which `mha_varlen_fwd`
/// applies to decode only, with its query heads packed per KV head): none while the blocks
/// (a block per sequence, KV head and 64 packed query heads) fill 80 % of twice the `sms`
/// (two blocks of 128 threads per multiprocessor); otherwise the fewest parts, each a whole
/// number of key tiles (256 keys at head width 64 or less, 128 up to 128, 64 above), at most
/// 128, whose last wave is within 85 % of the fullest any split reaches.
pub fn flash_attention_2_splits(
    batch: u64,
    kv_heads: u64,
    group: u64,
    kv_len: u64,
    head_dim: u64,
    sms: u32,
) -> u64 {
    let slots = 2 * u64::from(sms.max(1));
    let blocks = batch * kv_heads * group.div_ceil(64).max(1);
    // The heuristic computes in `float`; so does this, to choose as it does.
    if blocks as f32 >= 0.8 * slots as f32 {
        return 1;
    }
    let key_tile = match head_dim {
        0..=64 => 256,
        65..=128 => 128,
        _ => 64,
    };
    let key_tiles = kv_len.div_ceil(key_tile).max(1);
    let most = 128.min(slots).min(key_tiles);
    // A split is a whole number of key tiles: one whose tiles per part equal the previous
    // split's is that split again.
    let eligible =
        |parts: u64| parts == 1 || key_tiles.div_ceil(parts) != key_tiles.div_ceil(parts - 1);
    let fill = |parts: u64| {
        let waves = (blocks * parts) as f32 / slots as f32;
        waves / waves.ceil()
    };
    let best = (1..=most)
        .filter(|&parts| eligible(parts))
        .map(fill)
        .fold(0.0_f32, f32::max);
    (1..=most)
        .find(|&parts| eligible(parts) && fill(parts) >= 0.85 * best)
        .unwrap_or(1)
}

impl DecodeLayout {
    /// The layout `framework`'s decode kernel takes for `shape` on a GPU of compute
    /// capability `sm` (`sm_90` -> 90). TensorRT-LLM runs its masked multi-head attention
    /// above 32 query heads per KV head; on sm_80 to sm_90 it runs XQA, except for plain
    /// multi-head attention (one query head per KV head), which XQA refuses
    /// (`decoderXQAImplJIT/kernelUtils.cpp`, `supportConfigCommon`: "for performance
    /// reasons"), so that runs the masked multi-head attention too. The rest hold a KV
    /// head's group in one block, as do prefill and MLA's shared latent cache (kernels of
    /// their own), but for DeepSeek's latent attention on sm_120 with an FP8 cache, which
    /// runs XQA's MLA kernel ([`DecodeLayout::XqaMla`]). XQA's other refusals were tried
    /// and are not applied: its check for too few blocks (`mayHavePerfGain`) and for a
    /// sliding window the cache has outgrown (`supportConfigHMMA`) each raised the held-out
    /// medians of NVIDIA's Hopper, A100 and L40S tables by 1-8 points, so those tables were
    /// not timed under them. With an 8-bit
    /// cache (`kv`) on sm_89, NVIDIA's L40S tables show no split of the sequence: batch 1 at
    /// 131,072 tokens takes 2.1 ms at head width 128 and 4.2 ms at 256 whatever the number
    /// of heads (one block streaming each KV head's 33 MB at about 16 GB/s), ten times the
    /// same shapes with a BF16 cache; read off the tables, not the kernels' source, so that
    /// layout is a block per KV head. vLLM decodes over a 16-bit cache on sm_80 to sm_89 and
    /// sm_120 with FlashAttention-2, which packs a KV head's query heads into one block
    /// only without a sliding window (FlashAttention `mha_varlen_fwd`:
    /// `seqlenq_ngroups_swapped` needs `window_size_left < 0`); with one, every query head
    /// is a block of its own. NVIDIA's L40S tables: batch 1,024, 64 query heads on one KV
    /// head, width 128, 2 tokens: 45 us without a window, 1.7 ms with a 128-token one.
    /// Packed, it splits the sequences ([`DecodeLayout::FlashSplitKv`]); counting those
    /// parts brought vLLM's A100 decode fit from a 17 % median to 12 % (batches of 2 to 32
    /// had been predicted 13-30 % short), L40S's from 11 to 9 %, RTX PRO 6000's from 14
    /// to 9 %. SGLang decodes latent attention over a 16-bit cache on sm_89 and sm_120 with
    /// Triton (NVIDIA's L40S and RTX PRO 6000 tables, which time only a BF16 cache there:
    /// `kernel_source` "triton"), whose blocks hold 16 query
    /// heads and an eighth of the sequence ([`DecodeLayout::TritonSplitKv`]): its fits went
    /// from a 22 and 23 % median to 9 and 10 %.
    /// `shape.window` is the window the layer is configured with, binding or not.
    pub fn of(
        framework: Framework,
        shape: &AttentionShape,
        sm: Option<u32>,
        kv: Format,
    ) -> DecodeLayout {
        if framework == Framework::Vllm
            && shape.q_len <= 1.0
            && !shape.shared_kv
            && matches!(sm, Some(80..=89 | 120))
            && kv.bits_per_element() >= 16.0
        {
            return if shape.window.is_some() && shape.heads > shape.kv_heads {
                DecodeLayout::PerQueryHead
            } else {
                DecodeLayout::FlashSplitKv
            };
        }
        if framework == Framework::Sglang
            && shape.q_len <= 1.0
            && shape.shared_kv
            && matches!(sm, Some(89 | 120))
            && kv.bits_per_element() >= 16.0
        {
            return DecodeLayout::TritonSplitKv;
        }
        if framework != Framework::TensorRtLlm || shape.q_len > 1.0 {
            return DecodeLayout::PerKvHead;
        }
        if shape.shared_kv {
            let xqa_mla = sm == Some(120)
                && kv == Format::Fp8E4m3
                && shape.heads == XQA_MLA_HEADS
                && shape.kv_heads == 1.0
                && shape.qk_dim == XQA_MLA_HEAD_DIM;
            return if xqa_mla {
                DecodeLayout::XqaMla
            } else {
                DecodeLayout::PerKvHead
            };
        }
        if shape.kv_heads > 0.0 && shape.heads / shape.kv_heads > XQA_MAX_GROUP {
            return DecodeLayout::PerQueryHead;
        }
        match sm {
            Some(80..=90) if shape.heads == shape.kv_heads => DecodeLayout::PerQueryHead,
            Some(89) if kv.bits_per_element() <= 8.0 => DecodeLayout::PerKvHead,
            Some(80..=90) => DecodeLayout::Xqa,
            _ => DecodeLayout::PerKvHead,
        }
    }

    /// The attention as the kernel runs it: with a block per query head, as if each query
    /// head had a KV head of its own (the cache read once per query head).
    pub fn run_shape(self, shape: &AttentionShape) -> AttentionShape {
        match self {
            DecodeLayout::PerQueryHead => AttentionShape {
                kv_heads: shape.heads,
                ..*shape
            },
            DecodeLayout::PerKvHead
            | DecodeLayout::Xqa
            | DecodeLayout::XqaMla
            | DecodeLayout::FlashSplitKv
            | DecodeLayout::TritonSplitKv => *shape,
        }
    }
}
