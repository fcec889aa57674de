//! What real GEMM and attention kernels add to the roofline bound, as parameters with a
//! physical meaning, fitted from measured kernel times:
//!
//! time = fixed + quantisation bytes / (bandwidth x datasheet bandwidth)
//!        + (memory^p + compute^p)^(1/p)
//!        + waves of blocks x per-wave latency
//! memory = max(bytes read / (bandwidth x datasheet bandwidth)
//!                + output written / (write bandwidth x datasheet bandwidth),
//!              one SM's serial share of the weights / (tile bandwidth x datasheet bandwidth),
//!              bytes the L2 serves / (L2 bandwidth x datasheet bandwidth))
//! compute = FLOPs / (compute x datasheet peak x tile efficiency)
//!
//! - `fixed_s`: time every kernel spends whatever its size (launch, prologue, epilogue,
//!   the tail of the last wave's pipeline): the floor small GEMMs sit on.
//! - `bandwidth`: the fraction of the datasheet bandwidth a streaming GEMM reaches.
//! - `write_bandwidth`: the fraction a GEMM's epilogue writes its output at, where that is
//!   slower than its operands stream (the bandwidth fraction where not fitted): at small K
//!   over a large output a GEMM is its output's write, and NVIDIA's tables show kernels
//!   whose epilogue writes at a third of the datasheet rate. A MoE layer's token traffic
//!   (its copies gathered, its intermediate, its rows summed back) moves at it too.
//! - `tile_bandwidth`: the fraction of the datasheet bandwidth one output tile's 128
//!   columns of the weights stream at ([`serial_tile_share`]; a tile is 128 rows, 256 on
//!   B200 and B300: [`gemm_tile_rows`]). A skinny GEMM (decode: small M) has few output tiles; when they
//!   leave SMs idle, the whole bandwidth is out of reach and the time is that of one SM
//!   walking its tiles' share of the bytes. NVIDIA's NVFP4 tables show it plainly: at M = 8
//!   the time grows with K and not with N until N passes about 12,000 (one tile per 128
//!   columns, K never split), each tile streaming about 40 GB/s on B200. Kernels that split
//!   K over several SMs (cuBLAS's BF16) show it as a higher rate per tile.
//! - `l2_bandwidth`: the rate the L2 serves the bytes a kernel reads again (attention's
//!   re-reads of a KV head's cache) or finds there from its previous runs in a benchmark
//!   loop ([`KernelTimes::warm`], [`GemmLoop::l2_share`], [`found_in_l2`]); a
//!   model's forward pass reads its weights and caches cold.
//! - `compute`: the fraction of the datasheet peak the tensor cores reach on full tiles.
//! - `overlap` (p above): how far a kernel hides its memory traffic behind its tensor-core
//!   work. The roofline's max is p = infinity (perfect overlap); p = 1 is their sum (none).
//!   Near the ridge point a real kernel is slower than either term alone: NVIDIA's A100
//!   BF16 tables at M = 160 (160 FLOPs a byte, the A100's ridge is 153) take 24 us beyond
//!   the fixed time at N = 2,048, K = 4,096, where the memory and compute terms are 12 and
//!   11 us at the fitted fractions: nearer their sum than their max. Fitted p is 1-4 (see
//!   `profiles.rs`).
//! - `per_wave_s`: the latency one wave of attention blocks pays that no throughput hides
//!   (a block's dependent chain: load its queries, walk the KV pages, reduce the softmax
//!   across warps, write). GEMM tiles hide theirs behind their pipeline, except a GEMM
//!   split into partial products and a reduction ([`reduces_partial_sums`]): two
//!   dependent kernels, counted as two waves.
//!
//! The activation quantisation ([`activation_quantisation_bytes`]: FP8 and FP4 GEMMs first
//! turn their BF16 activations into the low format, a pass of its own) and the tile
//! efficiency ([`tile_efficiency`]: tensor-core fragments padded at small M or N,
//! and the SMs left idle when the tiles' K loops, shared out stream-K style, do not fill
//! the last round) is computed, not fitted. The plain roofline (fixed 0, both fractions 1, every tile
//! full) stays the bound; these terms give the expectation.

/// Rows and columns of the smallest tensor-core operand fragment: `mma.m16n8k16` (PTX ISA,
/// "Matrix shape") works on 16 x 8 outputs, and kernels swap A and B so the smaller side
/// takes the 8; a GEMM with M = 1 still runs whole fragments.
const FRAGMENT: (u64, u64) = (16, 8);
/// The output tile most Hopper and Blackwell GEMM kernels use (CUTLASS's and cuBLAS's
/// default 128 x 128).
const TILE: u64 = 128;
/// The least K one SM takes of a tile when a GEMM's work is shared out along K: two
/// 64-deep k-blocks. Chosen on NVIDIA's GEMM tables (`rooflinr validate`): 512 left the
/// shapes just past a whole wave of tiles 25-55 % slower than measured on H100. Against
/// 256, 128 brought the L40S's BF16 held-out p90 from 35 to 31 % (one 128 x 128 x 256 tile
/// there takes 2.8 us, less than one SM's share of the peak allows) and moved no other
/// held-out group by more than a point; 64 raised B200's FP8 from 4 / 12 to 7 / 19 % and
/// A100's BF16 p90 from 25 to 27 %.
const MIN_SPLIT_K: u64 = 128;

/// The fraction of the tensor cores' work that is useful for an `m x n x k` GEMM on `sms`
/// multiprocessors: fragment padding times wave efficiency. The work is shared out as
/// stream-K kernels do (Osama et al., "Stream-K: Work-centric Parallel Decomposition for
/// Dense Matrix-Matrix Multiplication on the GPU", PPoPP 2023; CUTLASS's and cuBLAS's
/// Hopper and Blackwell GEMMs): each 128 x 128 output tile's K loop in chunks of at least
/// `MIN_SPLIT_K` (128), spread evenly over the SMs, so only the last round of chunks leaves
/// SMs idle, and a GEMM with fewer chunks than SMs leaves the rest idle. A GEMM with a
/// few more tiles than SMs no longer pays a second, nearly empty wave of whole tiles:
/// NVIDIA's BF16 tables show it does not (H100 BF16 held-out p90 30 -> 26 %).
pub fn tile_efficiency(m: u64, n: u64, k: u64, sms: u32) -> f64 {
    if m == 0 || n == 0 || k == 0 || sms == 0 {
        return 1.0;
    }
    let (small, large) = (m.min(n), m.max(n));
    let padded = small.div_ceil(FRAGMENT.1) * FRAGMENT.1 * large.div_ceil(FRAGMENT.0) * FRAGMENT.0;
    let padding = (m * n) as f64 / padded as f64;
    let sms = u64::from(sms);
    let tiles = m.div_ceil(TILE) * n.div_ceil(TILE);
    let units = tiles * (k / MIN_SPLIT_K).max(1);
    let wave = units as f64 / (units.div_ceil(sms) * sms) as f64;
    padding * wave
}

/// K from which a GEMM with few output tiles is split into partial products and a
/// reduction of them ([`reduces_partial_sums`]) on Hopper and the sm_100 family, and for
/// 8-bit or narrower activations everywhere.
const REDUCED_SPLIT_K: u64 = 2048;
/// K from which 16-bit GEMMs with few output tiles split and reduce on the other
/// architectures ([`reduced_split_k`]).
const REDUCED_SPLIT_K_16_BIT_ELSEWHERE: u64 = 512;

/// The K from which a GEMM with few output tiles on `hw` with `activations` splits K and
/// reduces the partial sums ([`reduces_partial_sums`]). On A100 (sm_80), L40S (sm_89) and
/// RTX PRO 6000 (sm_120) NVIDIA's BF16 tables at M = 2-16 run 18-36 % slower than the
/// single-step prediction from K = 512 (A100 8 x 4096 x 512: 10.6 us, 8 x 4096 x 256:
/// 4.9 us); counting the second step from there brought the held-out BF16 p90 from 25 to
/// 23 % on A100, 31 to 29 % on L40S and 28 to 26 % on RTX PRO 6000 (vLLM's and SGLang's
/// tables under TensorRT-LLM's terms 1-3 points lower too) and moved no other group. Their
/// FP8 GEMMs, counted so, fitted worse (L40S p90 17 -> 19 %), and Hopper's and Blackwell's
/// tables split from 2,048 ([`REDUCED_SPLIT_K`]).
pub fn reduced_split_k(hw: &Hardware, activations: Format) -> u64 {
    let hopper_or_blackwell = hw.sm_version() == Some(90) || hw.has_tcgen05();
    if hopper_or_blackwell || activations.bits_per_element() < 16.0 {
        REDUCED_SPLIT_K
    } else {
        REDUCED_SPLIT_K_16_BIT_ELSEWHERE
    }
}

/// Whether an `m x n x k` GEMM with `activations` on `hw` runs as two dependent kernels:
/// partial products over slices of K, then a reduction of the partial sums. A GEMM whose
/// 128 x 128 output tiles fill at most an eighth of the SMs, over a K of at least 2,048
/// ([`reduced_split_k`]), leaves most of the GPU idle unless K is split; the split's second step is
/// a kernel of its own, whose launch and prologue no pipeline hides. Kernels with block
/// scales keep each tile on one SM and do not split (NVFP4's tables grow with K at one
/// SM's rate). Read off NVIDIA's GEMM tables, not a kernel library's source: H100 BF16 at
/// M = 8, N = 256 takes 2.7 us at K = 64 and 4.7 us at K = 1,536, flat at 5.9 us from
/// K = 2,560 to 7,168, while its bytes take under 1 us; counting this step brings BF16's
/// held-out p90 from 26-30 % to 18-23 % on Hopper and Blackwell (NVFP4's would rise from
/// 23 to 40 %, so block-scaled GEMMs are left out).
pub fn reduces_partial_sums(m: u64, n: u64, k: u64, activations: Format, hw: &Hardware) -> bool {
    let sms = hw.sms();
    let tiles = m.div_ceil(TILE) * n.div_ceil(TILE);
    sms > 0
        && !activations.is_block_scaled()
        && tiles * 8 <= u64::from(sms)
        && k >= reduced_split_k(hw, activations)
}

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
const QUERY_TILE: f64 = 64.0;
/// Key columns per tile of TensorRT-LLM's warp-specialised TMA prefill kernels on Hopper
/// (`..._64_128_S_qkv_128_tma_ws_sm90`; [`QUERY_TILE`]); kept for the sm_100 family, whose
/// tables fit 32 no better.
const KEY_TILE: f64 = 128.0;
/// Key columns per tile of the prefill kernels TensorRT-LLM builds for sm_80 to sm_89
/// (`fmha_v2_flash_attention_fp16_64_32_S_qkv_128_sm80`, `..._sm86`, `..._sm89` beside the
/// tiled `..._64_128_...` ones); sm_120's tables (RTX PRO 6000) fit it too. On NVIDIA's
/// tables, against 128: A100's held-out p90 22 -> 14 %, L40S BF16's median 16 -> 13 % and
/// p90 62 -> 46 % (16- to 32-token prompts had run 1.2-1.6x faster than whole 128-key tiles
/// predict), RTX PRO 6000's 1-2 points lower; Hopper and Blackwell moved by a point either
/// way, so they keep 128.
const NARROW_KEY_TILE: f64 = 32.0;

/// Query rows per tile of vLLM's prefill attention on tcgen05 parts (sm_100, sm_103): the
/// kernels it runs there (FlashInfer's and trtllm-gen's Blackwell attention) compute with
/// tcgen05's 128-row MMA. Read off NVIDIA's tables, against [`QUERY_TILE`]: vLLM's own fit
/// on B200 20 -> 16 % median (p90 53 -> 39 %), on B300, GB200 and GB300 p90 48-52 -> 37-39 %
/// (the rows of its Triton kernel, which a table with an FP8 cache also holds, fit worse:
/// p90 84-122 -> 174-246 %; their median is unchanged).
/// TensorRT-LLM's own kernels there fit 64 rows better (p90 17-21 % against 29-30 %), and
/// SGLang's tables, whose Triton kernel has 64-row tiles beside FlashInfer's, no better
/// with 128 (medians 1-2 points worse).
const TCGEN05_QUERY_TILE: f64 = 128.0;

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
fn attention_head_dim(shape: &AttentionShape) -> Option<u32> {
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
const TRITON_DECODE_HEADS: f64 = 16.0;
/// Parts SGLang's Triton decode launches per sequence (`--triton-attention-num-kv-splits`,
/// default 8; the grid's third dimension).
const TRITON_DECODE_SPLITS: u64 = 8;

/// The most query heads per KV head TensorRT-LLM's XQA decode kernels take (TensorRT-LLM
/// `decoderXQAImplJIT/kernelUtils.cpp`, `supportConfigHMMA` and `supportConfigQGMMA`:
/// `head_grp_size * beam_width > 32` is refused); above it the masked multi-head attention
/// kernel runs. NVIDIA's Blackwell tables switch at the same point (their rows past 32 run
/// about 6x over what a grouped kernel takes, and fitted as a kernel of their own reach an
/// 8-10 % held-out median), so the limit is taken for every device.
pub const XQA_MAX_GROUP: f64 = 32.0;

/// The query heads TensorRT-LLM's sm_120 MLA kernel serves from one latent head
/// (`XQAParams::isMLA`: `num_q_heads == 128`).
const XQA_MLA_HEADS: f64 = 128.0;
/// The latent head width it takes (`XQAParams::isMLA`: `head_size == 576`, DeepSeek's 512
/// latent plus 64 rotary channels).
const XQA_MLA_HEAD_DIM: f64 = 576.0;

/// History tokens each XQA part keeps at least (TensorRT-LLM `kMinHistoryTokensPerBlock`).
const XQA_MIN_TOKENS_PER_PART: u64 = 128;
/// Waves of blocks XQA aims at before it stops splitting sequences (`kTargetWaveFactor`).
const XQA_TARGET_WAVES: f64 = 8.0;
/// Sequence parts XQA's workspace holds over the whole batch (`kXQA_MAX_NUM_SUB_SEQ`).
const XQA_MAX_PARTS: u64 = 6000;

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

use crate::analysis::Phase;
use crate::format::Format;
use crate::hardware::Hardware;
use crate::ops::{AttentionShape, Op, Precision};
use crate::roofline::{Efficiency, Prediction};
use crate::stats::median;

/// A fused MoE layer on one GPU: what NVIDIA's MoE tables measure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoeShape {
    /// Tokens in the batch.
    pub tokens: f64,
    /// Model width.
    pub hidden: f64,
    /// Each expert's intermediate width on this GPU (after tensor parallelism).
    pub intermediate: f64,
    /// Experts each token is routed to.
    pub top_k: f64,
    /// Routed experts in the model.
    pub experts: f64,
    /// GPUs the experts are spread over.
    pub expert_parallel: f64,
    /// SwiGLU (gate and up) rather than a single up projection.
    pub gated: bool,
}

/// The routed work that lands on one GPU of an expert-parallel group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoeLoad {
    /// Token copies routed to this GPU's experts.
    pub assignments: f64,
    /// This GPU's experts that receive at least one copy (their weights are read).
    pub experts_touched: f64,
}

impl MoeShape {
    /// The width of each expert's first GEMM: gate and up fused, or the single up
    /// projection.
    pub fn first_width(&self) -> f64 {
        let matrices = if self.gated { 2.0 } else { 1.0 };
        matrices * self.intermediate
    }

    /// The experts' two GEMMs on a GPU carrying `load`, each expert over the copies routed
    /// to it: gate and up fused (or the single up projection), then down.
    pub fn expert_gemms(&self, load: &MoeLoad) -> [Op; 2] {
        let (batch, m) = (load.experts_touched, load.per_expert());
        [
            Op::BatchedGemm {
                batch,
                m,
                n: self.first_width(),
                k: self.hidden,
            },
            Op::BatchedGemm {
                batch,
                m,
                n: self.hidden,
                k: self.intermediate,
            },
        ]
    }
}

impl MoeLoad {
    /// Copies per touched expert (0 where none is touched).
    pub fn per_expert(&self) -> f64 {
        if self.experts_touched > 0.0 {
            self.assignments / self.experts_touched
        } else {
            0.0
        }
    }

    /// The expected load under a router that spreads tokens evenly at random: a share
    /// `1 / expert_parallel` of every copy and of the experts touched.
    pub fn uniform(shape: &MoeShape) -> MoeLoad {
        MoeLoad {
            assignments: shape.tokens * shape.top_k / shape.expert_parallel,
            experts_touched: crate::analysis::expected_distinct_experts(
                shape.experts,
                shape.top_k,
                shape.tokens,
            ) / shape.expert_parallel,
        }
    }
}

/// A kernel's datasheet times, before the fitted terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KernelTimes {
    /// Bytes over the datasheet bandwidth, seconds.
    pub memory_s: f64,
    /// FLOPs over the datasheet peak and the tile efficiency, seconds.
    pub compute_s: f64,
    /// The activation quantisation pass over the datasheet bandwidth, seconds (0 for
    /// 16- and 32-bit activations); in a loop, the L2 serves its [`KernelTimes::l2_share`]
    /// too.
    pub quantise_s: f64,
    /// Waves of thread blocks whose latency is exposed (attention; for GEMMs 2 when split
    /// into partial products and their reduction, else 0).
    pub waves: f64,
    /// The datasheet memory time of the bytes one SM streams in series when each 128 x
    /// 128 output tile runs on one SM ([`serial_tile_share`]), seconds (0 where the
    /// kernel is not a GEMM or the SM count is unknown). For decode attention, one
    /// block's share of the cache ([`KernelTimes::attention_of`]).
    pub tile_stream_s: f64,
    /// The datasheet memory time of the activations the kernel writes, seconds: part of
    /// `memory_s`, moved at [`KernelTerms::write_bandwidth`]. A GEMM's `m x n` output; a
    /// MoE layer's token traffic, every byte but its experts' weights (the copies gathered
    /// in expert order, the GEMMs' inputs and outputs, the rows summed back), which its
    /// passes write and read again ([`KernelTimes::moe`]); 0 for other kernels.
    pub write_s: f64,
    /// The datasheet memory time (at the DRAM bandwidth) of the bytes the kernel reads
    /// again after its first read, which the L2 serves: TensorRT-LLM's masked multi-head
    /// attention reading its KV head's cache once more for each further query head
    /// ([`KernelTimes::attention_of`]), seconds; 0 for other kernels.
    pub l2_s: f64,
    /// The share of `memory_s`'s bytes the L2 holds, left there by the kernel's previous
    /// runs in a benchmark loop ([`KernelTimes::warm`]): the L2 serves that share and the
    /// DRAM the rest. `memory_s` stays the datasheet (DRAM) time of them all, the roofline
    /// bound. 0 for a kernel run once, as in a model's forward pass.
    pub l2_share: f64,
    /// The head width of an attention kernel (keys and values equally wide), which picks the
    /// kernel that runs ([`ATTENTION_HEAD_DIMS`]); `None` for every other kernel.
    pub head_dim: Option<u32>,
    /// The datasheet memory time of one pass over every token's routed copies (`tokens x
    /// top_k` rows of `hidden`, local expert or not, in the activation format), seconds:
    /// the routing work of a fused MoE layer that grows with the whole batch at any expert
    /// parallelism ([`KernelTimes::moe`], [`KernelTerms::route_rate`]); 0 for other kernels.
    pub route_s: f64,
    /// The compute time at the datasheet peak of the key tiles a prefill attention kernel
    /// walks and finds hidden by its sliding window, seconds: a kernel that tests each
    /// tile's mask at run time instead of starting its loop past them (SGLang's Triton
    /// prefill kernel; `rooflinr validate` says which rows ran one). It costs
    /// [`KernelTerms::hidden_tile_share`] of its compute time; 0 for every other kernel.
    pub hidden_tiles_s: f64,
    /// Copies of the activations' per-token scales into the layout a block-scaled GEMM
    /// reads them in, each a few eager steps of the framework's before the GEMM: vLLM's
    /// DeepGEMM path where M is not a multiple of 4 (`rooflinr validate` says which rows
    /// made them). Each takes [`KernelTerms::scale_copy_s`]; 0 for every other kernel.
    pub scale_copies: f64,
    /// The datasheet memory time of the rows past M that the tiles of a GEMM's last, partly
    /// filled row block read, seconds: every such tile reads its block's missing rows over
    /// the whole of K again, from the DRAM, and not overlapped with its compute
    /// ([`KernelTimes::in_whole_tiles`]). Seen in TensorRT-LLM's block-scaled FP8 GEMM on
    /// Hopper and in vLLM's and SGLang's per-tensor FP8 GEMMs there ([`GemmTile::of`]);
    /// moved at the fitted bandwidth ([`KernelTerms::bandwidth`]); 0 for every other
    /// kernel.
    pub padded_rows_s: f64,
    /// The steps of an activation quantisation pass that runs a block per token, in series
    /// on each SM: the waves of token rows over the SMs, times the steps each row's block
    /// takes ([`per_token_quantise_steps`]). Such a pass is bound by its steps' latency,
    /// not by its bytes: it replaces [`KernelTimes::quantise_s`] for vLLM's FP8 GEMMs
    /// ([`KernelTimes::gemm`]); each step takes [`KernelTerms::quantise_step_s`]; 0 for
    /// every other kernel.
    pub quantise_steps: f64,
}

/// The token rows of one tile of the TRT-LLM-Gen fused MoE kernels (sm_100 and sm_103;
/// TensorRT-LLM's `TRTLLMGenFusedMoE`, and FlashInfer's `trtllm_fused_moe` that SGLang and
/// vLLM call), as their launcher picks it: the average copies per local expert, `tokens x
/// top_k / local_experts` as if every copy were local, rounded up to a power of two and
/// held to the kernel's ladder of tiles, 8 to 64 rows for 4-bit weights with BF16
/// activations, 8 to 256 for 4-bit weights with 8- or 4-bit activations and for MXFP8, 8
/// to 128 otherwise (FlashInfer `csrc/trtllm_fused_moe_kernel_launcher.cu`:
/// `computeSelectedTileN` and each launcher's supported tiles). Every expert with a copy
/// computes whole tiles of rows ([`KernelTimes::moe`]), so at expert parallelism, where a
/// `1 / ep` share of the copies is local, most of a tile is padding: NVIDIA's B200
/// W4A8 MXFP4 table (TensorRT-LLM, hidden 4,096, 16 of 256 experts local, top 6) takes
/// 74 us at 160 tokens (a 64-row tile), 112 at 192 (128 rows) and 205 at 384 (256 rows).
/// The launcher also offers the autotuner the ladder's neighbours of this tile; held
/// against the tables, this tile fits better than the next smaller one.
pub fn trtllm_gen_moe_tile(
    tokens: u64,
    top_k: u64,
    local_experts: u64,
    precision: &Precision,
) -> u64 {
    let average = (tokens * top_k).div_ceil(local_experts.max(1));
    let widest = match (precision.activations, precision.weights) {
        (Format::Bf16, Format::NvFp4 | Format::MxFp4) => 64,
        (_, Format::NvFp4 | Format::MxFp4) | (Format::MxFp8E4m3, Format::MxFp8E4m3) => 256,
        _ => 128,
    };
    average.next_power_of_two().clamp(8, widest)
}

/// How a fused MoE kernel lays each local expert's rows into tiles: every expert with a
/// copy computes whole tiles of rows ([`KernelTimes::moe`]), so where an expert has fewer
/// copies than a tile holds, the rest of the tile is padding the tensor cores compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoeTiling {
    /// Each expert computes its copies and no more rows.
    Copies,
    /// TRT-LLM-Gen's tiles ([`trtllm_gen_moe_tile`]).
    TrtllmGen,
    /// The Triton fused MoE kernel's tiles at its default configuration
    /// ([`triton_moe_tile`]).
    Triton,
}

impl MoeTiling {
    /// Whose tiles, for people: `TRT-LLM-Gen's`.
    pub fn name(self) -> &'static str {
        match self {
            MoeTiling::Copies => "none",
            MoeTiling::TrtllmGen => "TRT-LLM-Gen's",
            MoeTiling::Triton => "the Triton fused MoE's default",
        }
    }

    /// The rows of one tile for `tokens` tokens, each routed to `top_k` of
    /// `local_experts`, in `precision`; `None` for [`MoeTiling::Copies`].
    pub fn tile_rows(
        self,
        tokens: u64,
        top_k: u64,
        local_experts: u64,
        precision: &Precision,
    ) -> Option<u64> {
        match self {
            MoeTiling::Copies => None,
            MoeTiling::TrtllmGen => {
                Some(trtllm_gen_moe_tile(tokens, top_k, local_experts, precision))
            }
            MoeTiling::Triton => Some(triton_moe_tile(tokens, local_experts, precision)),
        }
    }
}

/// The token rows of one tile (`BLOCK_SIZE_M`) of the Triton fused MoE kernel at the
/// default configuration SGLang picks where it ships no tuned one for the shape and device
/// (`fused_moe_triton_config.py`, `get_default_config`): 64 for FP8 activations (the
/// block-scaled configuration; the tables' FP8 rows are all block-scaled), else 16 while
/// the tokens are at most the local experts and 64 past them. NVIDIA's L40S W4A16 MXFP4
/// table (SGLang's Triton kernel, hidden 2,880, top 4 of 32 experts) steps there: 2.36 ms
/// at 32 tokens, 3.41 at 48; top 4 of 128, 9.35 ms at 128 tokens and 12.99 at 160.
pub fn triton_moe_tile(tokens: u64, local_experts: u64, precision: &Precision) -> u64 {
    match precision.activations {
        Format::Fp8E4m3 => 64,
        _ if tokens <= local_experts => 16,
        _ => 64,
    }
}

/// Rows of the output one GEMM tile spans on `hw`: 256 where a pair of SMs computes one
/// tile together (`tcgen05.mma.cta_group::2`, PTX ISA 9.0, on sm_100 and sm_103: each SM
/// of the pair holds 128 rows and half the weights' columns), 128 elsewhere ([`TILE`]).
/// NVIDIA's B200 NVFP4 GEMM tables take as long at M = 256 as at M = 128 (N = 2,048,
/// K = 65,536: 134.5 and 132.8 us), and 1.7-2.0x as long at M = 257 (N = 51,200 and
/// 65,536).
pub fn gemm_tile_rows(hw: &Hardware) -> u64 {
    if hw.has_tcgen05() { 2 * TILE } else { TILE }
}

/// The output tile a persistent Hopper GEMM kernel computes, and the cluster of tiles it
/// launches together ([`KernelTimes::in_whole_tiles`]). Rows and columns are of the kernel's
/// own M and N: where it swaps the operands, its M is the weights' rows (the GEMM's N).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmTile {
    /// Rows of the kernel's M per tile.
    pub rows: u64,
    /// Columns of the kernel's N per tile.
    pub columns: u64,
    /// Tiles per cluster along the kernel's M and N: the grid is rounded up to whole
    /// clusters, and every tile of a cluster runs, in bounds or not.
    pub cluster: (u64, u64),
    /// Whether the kernel computes the transposed product (the weights as its first
    /// operand), so that a few tokens fill its tiles' columns instead of its rows.
    pub swapped: bool,
}

impl GemmTile {
    /// The tile of vLLM's per-tensor FP8 GEMM on sm_90 (`cutlass_scaled_mm`) for an
    /// `m x n` output, as its dispatch picks it (vLLM `csrc/quantization/w8a8/cutlass/c3x/
    /// scaled_mm_sm90_fp8_dispatch.cuh`): up to 16 tokens the operands swapped in 64 x 16
    /// tiles (clusters of 2 along the tokens where N <= 1,280), up to 64 swapped in 64 x 64
    /// (64 x 16 in clusters of 4 where N <= 1,280), up to 128 64 x 128 tiles in clusters of
    /// 2 along M, past that 128 x 128 in clusters of 2 along M. SGLang 0.5.14's tables step
    /// at the same M (its time at N = 16,384, K = 8,192 is 43 us at M = 128, 86 at 129 and
    /// 57 at 256, as vLLM's 44, 87 and 54), so its rows are read with the same tiles.
    pub fn cutlass_sm90_fp8(m: u64, n: u64) -> GemmTile {
        let narrow = n <= 1280;
        let swapped = |columns, cluster| GemmTile {
            rows: 64,
            columns,
            cluster: (1, cluster),
            swapped: true,
        };
        match m {
            0..=16 => swapped(16, if narrow { 2 } else { 1 }),
            17..=64 if narrow => swapped(16, 4),
            17..=64 => swapped(64, 1),
            65..=128 => GemmTile {
                rows: 64,
                columns: 128,
                cluster: (2, 1),
                swapped: false,
            },
            _ => GemmTile {
                rows: 128,
                columns: 128,
                cluster: (2, 1),
                swapped: false,
            },
        }
    }

    /// The tile the kernel `framework` runs an `m x n` GEMM in `precision` on `hw` with, where
    /// the model knows it: vLLM's and SGLang's per-tensor FP8 GEMMs on sm_90
    /// ([`GemmTile::cutlass_sm90_fp8`]). `None` elsewhere: those GEMMs are counted as shared
    /// out over the SMs ([`tile_efficiency`]).
    pub fn of(
        framework: Framework,
        m: u64,
        n: u64,
        precision: &Precision,
        hw: &Hardware,
    ) -> Option<GemmTile> {
        let fp8 = Format::Fp8E4m3;
        let per_tensor_fp8 = precision.activations == fp8 && precision.weights == fp8;
        (framework != Framework::TensorRtLlm && per_tensor_fp8 && hw.sm_version() == Some(90))
            .then(|| GemmTile::cutlass_sm90_fp8(m, n))
    }

    /// The kernel's tiles along its M and N for an `m x n` output, each rounded up to whole
    /// clusters.
    fn grid(&self, m: u64, n: u64) -> (u64, u64) {
        let (kernel_m, kernel_n) = if self.swapped { (n, m) } else { (m, n) };
        let whole = |extent: u64, tile: u64, cluster: u64| {
            extent.div_ceil(tile).div_ceil(cluster.max(1)) * cluster.max(1)
        };
        (
            whole(kernel_m, self.rows, self.cluster.0),
            whole(kernel_n, self.columns, self.cluster.1),
        )
    }
}

/// The share of a GEMM's weights one SM streams in series when each output tile of
/// `tile_rows` x 128 of an `m x n` output runs whole on one of `sms` SMs and streams its
/// own 128-column panel of the weights (the whole of `k`): the tiles of the fullest wave
/// over the column panels, ceil(tiles / SMs) / ceil(n / 128) (1 for one tile; 1 / 148 for
/// 148 column panels on 148 SMs; 2 / 148 for twice as many tiles, two row blocks: each SM
/// streams two panels). Row blocks over one column panel each stream it, side by side, so
/// more rows do not share out the weights: B200's NVFP4 tables take as long at M = 129 as
/// at M = 128, where a share of all the bytes over all the tiles had them twice as fast
/// (B200 and GB200 NVFP4 held-out p90 22 -> 13 %, with [`gemm_tile_rows`]). 0 when the
/// SM count is unknown.
pub fn serial_tile_share(m: u64, n: u64, tile_rows: u64, sms: u32) -> f64 {
    if sms == 0 || m == 0 || n == 0 || tile_rows == 0 {
        return 0.0;
    }
    let panels = n.div_ceil(TILE);
    let tiles = m.div_ceil(tile_rows) * panels;
    tiles.div_ceil(u64::from(sms)) as f64 / panels as f64
}

/// Elements of a token's row that a per-token quantisation pass's block takes in one step
/// ([`per_token_quantise_steps`]).
const PER_TOKEN_QUANTISE_CHUNK: u64 = 2048;

/// The steps of a pass that quantises `m` token rows of `k` activations with a block per
/// token on `sms` SMs, in series on each SM ([`KernelTimes::quantise_steps`]): ceil(m / sms)
/// waves of rows, each row's block walking its K in chunks of 2,048 and taking one step
/// more. Read off NVIDIA's tables of vLLM's FP8 GEMMs, whose pass is such a kernel, not
/// from its source: at N = 32 (where the GEMM itself is a few microseconds) the time grows
/// in proportion to M whatever K within a chunk (H200 at M = 32,768: 240 us at K = 128,
/// 262 at 2,048) and by a step for each further chunk (394 us at K = 2,560, 548 at
/// 5,120, 1,288 at 16,384): about 0.5 us a step on each SM, on every GPU the tables cover
/// (B200 213 us, RTX PRO 6000 126 us at M = 32,768, K = 128 on their 148 and 188 SMs).
/// 0 when the SM count is unknown.
pub fn per_token_quantise_steps(m: u64, k: u64, sms: u32) -> f64 {
    if sms == 0 || m == 0 || k == 0 {
        return 0.0;
    }
    (m.div_ceil(u64::from(sms)) * (k.div_ceil(PER_TOKEN_QUANTISE_CHUNK) + 1)) as f64
}

/// Bytes of the pass that quantises a GEMM's activations before an FP8 or FP4 GEMM: the
/// `m x k` activations read in BF16 and written in their format (scales included). Low-
/// precision GEMMs in serving frameworks take BF16 activations and run this first;
/// 0 for 16- and 32-bit activations.
pub fn activation_quantisation_bytes(m: u64, k: u64, activations: Format) -> f64 {
    if activations.bits_per_element() >= 16.0 {
        return 0.0;
    }
    let elements = (m * k) as f64;
    elements * 2.0 + activations.tensor_bytes(elements).get()
}

impl KernelTimes {
    /// A kernel known only by its work: its datasheet memory and compute times, with no
    /// quantisation pass, waves or tile shape (a measured kernel gives its FLOPs and bytes,
    /// not its launch).
    pub fn throughput(memory_s: f64, compute_s: f64) -> KernelTimes {
        KernelTimes {
            memory_s,
            compute_s,
            quantise_s: 0.0,
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
        }
    }

    /// The times of an `m x n x k` GEMM in `precision` on `hw` from its datasheet roofline
    /// prediction: the compute term stretched by the tile efficiency on the device's SMs,
    /// the activation quantisation at the datasheet bandwidth, the weights one SM streams
    /// in series ([`serial_tile_share`]) and the output written.
    pub fn of(
        prediction: &Prediction,
        (m, n, k): (u64, u64, u64),
        precision: &Precision,
        hw: &Hardware,
    ) -> KernelTimes {
        let (activations, weights) = (precision.activations, precision.weights);
        let bandwidth = hw.memory_bandwidth.value.get();
        let sms = hw.sms();
        let weights_s = weights.tensor_bytes((n * k) as f64).get() / bandwidth;
        KernelTimes {
            memory_s: prediction.memory_time.get(),
            compute_s: prediction.compute_time.get() / tile_efficiency(m, n, k, sms),
            quantise_s: activation_quantisation_bytes(m, k, activations) / bandwidth,
            // Split-K's two dependent steps, each exposing its latency.
            waves: if reduces_partial_sums(m, n, k, activations, hw) {
                2.0
            } else {
                0.0
            },
            tile_stream_s: weights_s * serial_tile_share(m, n, gemm_tile_rows(hw), sms),
            write_s: precision.output.tensor_bytes((m * n) as f64).get() / bandwidth,
            l2_s: 0.0,
            l2_share: 0.0,
            head_dim: None,
            route_s: 0.0,
            hidden_tiles_s: 0.0,
            scale_copies: 0.0,
            padded_rows_s: 0.0,
            quantise_steps: 0.0,
        }
    }

    /// The times of an `m x n x k` GEMM in `precision` on `hw` as `framework`'s kernels run
    /// it: [`KernelTimes::of`], in whole tiles ([`KernelTimes::in_whole_tiles`]) where the
    /// model knows the kernel's tile ([`GemmTile::of`]); vLLM quantises FP8 activations with
    /// a block per token ([`per_token_quantise_steps`]).
    pub fn gemm(
        prediction: &Prediction,
        (m, n, k): (u64, u64, u64),
        precision: &Precision,
        hw: &Hardware,
        framework: Framework,
    ) -> KernelTimes {
        let mut times = KernelTimes::of(prediction, (m, n, k), precision, hw);
        if framework == Framework::Vllm && precision.activations == Format::Fp8E4m3 {
            times.quantise_steps = per_token_quantise_steps(m, k, hw.sms());
            if times.quantise_steps > 0.0 {
                times.quantise_s = 0.0;
            }
        }
        match GemmTile::of(framework, m, n, precision, hw) {
            Some(tile) => times.in_whole_tiles(
                prediction.compute_time.get(),
                (m, n, k),
                tile,
                precision,
                hw,
            ),
            None => times,
        }
    }

    /// These times for a persistent GEMM kernel that computes an `m x n x k` GEMM in whole
    /// tiles of `tile` ([`GemmTile`]), `dense_compute_s` being its FLOPs at the datasheet
    /// peak. Its compute is every tile of the grid (whole clusters included) in whole waves
    /// over the SMs, idle SMs of the last wave too: it neither shares K out nor splits it,
    /// so no reduction step follows. The tiles of its last, partly filled row block read
    /// the missing rows of their first operand over the whole of K
    /// ([`KernelTimes::padded_rows_s`]), the tiles a cluster adds past M whole: on NVIDIA's
    /// H200 tables vLLM's FP8 GEMM at N = K = 8,192 takes 113 us at M = 513 (five row
    /// tiles of 128 in three clusters of two) and 89 us at M = 768, the 255 missing rows of
    /// 64 column tiles being 134 MB, 28 us at the DRAM's rate.
    pub fn in_whole_tiles(
        self,
        dense_compute_s: f64,
        (m, n, k): (u64, u64, u64),
        tile: GemmTile,
        precision: &Precision,
        hw: &Hardware,
    ) -> KernelTimes {
        if m == 0 || n == 0 || k == 0 || tile.rows == 0 || tile.columns == 0 {
            return self;
        }
        let (tiles_m, tiles_n) = tile.grid(m, n);
        let sms = u64::from(hw.sms().max(1));
        let slots = (tiles_m * tiles_n).div_ceil(sms) * sms;
        let (kernel_m, first) = if tile.swapped {
            (n, precision.weights)
        } else {
            (m, precision.activations)
        };
        let missing = tiles_m * tile.rows - kernel_m;
        KernelTimes {
            compute_s: dense_compute_s * (slots * tile.rows * tile.columns) as f64 / (m * n) as f64,
            waves: 0.0,
            padded_rows_s: (missing * k * tiles_n) as f64 * first.bits_per_element()
                / 8.0
                / hw.memory_bandwidth.value.get(),
            ..self
        }
    }

    /// The times of a kernel run again and again in a loop, as benchmarks and NVIDIA's
    /// kernel tables time it, where its previous runs leave `l2_share` of its bytes in the
    /// L2 (clamped to 0..1; [`GemmLoop::l2_share`] for a GEMM, [`found_in_l2`] for a
    /// kernel looped on one set of operands): the L2 serves that share of the memory time ([`KernelTimes::l2_share`]),
    /// the DRAM the rest. A model's forward pass is not like that: each layer's weights are
    /// evicted by the rest of the model's before they are read again, so the product's
    /// predictions use the times as they are.
    pub fn warm(self, l2_share: f64) -> KernelTimes {
        KernelTimes {
            l2_share: if l2_share.is_nan() {
                0.0
            } else {
                l2_share.clamp(0.0, 1.0)
            },
            ..self
        }
    }

    /// The datasheet time of the output the DRAM takes, seconds: the output's write less
    /// the share a loop's L2 holds ([`KernelTimes::l2_share`]).
    fn written_s(&self) -> f64 {
        self.write_s * (1.0 - self.l2_share)
    }

    /// The datasheet (DRAM) times of the bytes the DRAM and the L2 serve, seconds: every
    /// byte passes through the L2 (the first read of each with the re-reads), and the DRAM
    /// serves the share the L2 does not hold.
    fn dram_and_l2_s(&self) -> (f64, f64) {
        (
            self.memory_s * (1.0 - self.l2_share),
            self.memory_s + self.l2_s,
        )
    }

    /// Whether the L2 serves more than the bytes passing through on their way from the
    /// DRAM: re-reads, or what a loop's previous runs left there.
    fn reads_from_l2(&self) -> bool {
        self.l2_s > 0.0 || self.l2_share > 0.0
    }

    /// The times of a fused attention kernel of `shape` (as the kernel runs it:
    /// [`DecodeLayout::run_shape`]) from its datasheet roofline `prediction` (that shape's
    /// FLOPs and bytes) on `sms` multiprocessors: the compute term counts whole tiles of
    /// `tile` ([`attention_tile_pairs`], [`PrefillTile`]), and the blocks run in waves, one
    /// block per query tile and head in prefill; in decode, one per sequence and KV head,
    /// times the sequence's parts under XQA and FlashAttention-2's split
    /// ([`DecodeLayout::FlashSplitKv`]), whose merge of the parts is one more dependent step
    /// (a wave's latency). A decode block streams its share of the bytes in series with the
    /// blocks that follow it on its SM (the tile term: the bytes over the blocks, times the
    /// waves of blocks): read off NVIDIA's tables, TensorRT-LLM's MLA decode on A100, L40S
    /// and RTX PRO 6000 (no dedicated MLA kernel there, but [`DecodeLayout::XqaMla`]'s,
    /// timed the same way) runs a block per sequence, its time flat in the batch up to a
    /// block per SM and in proportion to the sequence length, about 10-15 GB/s for each
    /// block; vLLM's FlashAttention-2 decode on the same three, its split counted, 22-29
    /// GB/s; kernels that split a sequence over blocks the model does not count (FlashMLA,
    /// trtllm-gen, FlashInfer) fit a rate many SMs' worth.
    pub fn attention(
        shape: &AttentionShape,
        prediction: &Prediction,
        sms: u32,
        tile: PrefillTile,
        layout: DecodeLayout,
    ) -> KernelTimes {
        let visible = shape.visible_pairs();
        let padding = if visible > 0.0 {
            attention_tile_pairs(shape, tile) / visible
        } else {
            1.0
        };
        let parts = match layout {
            DecodeLayout::Xqa if shape.q_len <= 1.0 => xqa_parts(
                shape.batch as u64,
                shape.kv_heads as u64,
                shape.kv_len as u64,
                sms,
            ),
            DecodeLayout::FlashSplitKv
                if shape.q_len <= 1.0 && shape.heads > shape.kv_heads && shape.window.is_none() =>
            {
                flash_attention_2_splits(
                    shape.batch as u64,
                    shape.kv_heads as u64,
                    shape.group().ceil() as u64,
                    shape.kv_len as u64,
                    shape.qk_dim as u64,
                    sms,
                )
            }
            DecodeLayout::TritonSplitKv if shape.q_len <= 1.0 => TRITON_DECODE_SPLITS,
            _ => 1,
        };
        // Blocks of query heads per KV head, each reading the KV head's cache.
        let head_blocks = match layout {
            DecodeLayout::TritonSplitKv if shape.q_len <= 1.0 => {
                let group = shape.group();
                (group / TRITON_DECODE_HEADS.min(group)).ceil()
            }
            _ => 1.0,
        };
        let blocks = if shape.q_len > 1.0 {
            shape.batch * shape.heads * (shape.q_len / tile.queries).ceil()
        } else {
            shape.batch * shape.kv_heads * head_blocks * parts as f64
        };
        let merge = if parts > 1 { 1.0 } else { 0.0 };
        let memory_s = prediction.memory_time.get();
        KernelTimes {
            memory_s,
            compute_s: prediction.compute_time.get() * padding,
            quantise_s: 0.0,
            waves: if sms == 0 {
                0.0
            } else {
                (blocks / f64::from(sms)).ceil() + merge
            },
            tile_stream_s: if shape.q_len <= 1.0 && sms > 0 && blocks >= 1.0 {
                memory_s * (blocks / f64::from(sms)).ceil() * head_blocks / blocks
            } else {
                0.0
            },
            write_s: 0.0,
            l2_s: 0.0,
            l2_share: 0.0,
            head_dim: attention_head_dim(shape),
            route_s: 0.0,
            hidden_tiles_s: 0.0,
            scale_copies: 0.0,
            padded_rows_s: 0.0,
            quantise_steps: 0.0,
        }
    }

    /// The times of a fused attention kernel of `shape` on `hw` in `precision`, laid out as
    /// `layout` runs it, from the shape's datasheet roofline `prediction`:
    /// [`KernelTimes::attention`] over the shape the kernel runs
    /// ([`DecodeLayout::run_shape`]), where the bytes a block per query head reads again
    /// (its KV head's cache, once more for each further query head of the group) are the
    /// L2's ([`KernelTimes::l2_s`]) and the datasheet memory time is the cache read once.
    /// Read off NVIDIA's tables: L40S's masked multi-head attention over 128 query heads
    /// and a 1 GB re-read total takes 225 us, 4.8 TB/s against its 864 GB/s DRAM. Knowing
    /// the cache's format, it narrows a decode block's serial stream
    /// ([`KernelTimes::tile_stream_s`], which [`KernelTimes::attention`] takes over all the
    /// bytes) to the block's share of the cache ([`AttentionShape::cache_bytes`]).
    pub fn attention_of(
        shape: &AttentionShape,
        prediction: &Prediction,
        precision: &Precision,
        hw: &Hardware,
        (framework, layout): (Framework, DecodeLayout),
    ) -> KernelTimes {
        let sms = hw.sms();
        let tile = PrefillTile::of(framework, hw);
        let run = layout.run_shape(shape);
        // A decode block streams its share of the cache in series; its queries and output
        // are a read and a write apart, not part of that stream.
        let cache_share = |shape: &AttentionShape, p: &Prediction| {
            let all = p.work.bytes.get();
            if all > 0.0 {
                (shape.cache_bytes(precision.kv).get() / all).min(1.0)
            } else {
                1.0
            }
        };
        if run == *shape {
            let mut times = KernelTimes::attention(shape, prediction, sms, tile, layout);
            times.tile_stream_s *= cache_share(shape, prediction);
            return times;
        }
        let every_read = Op::FusedAttention(run)
            .predict(precision, hw, &Efficiency::IDEAL)
            .prediction;
        let mut times = KernelTimes::attention(&run, &every_read, sms, tile, layout);
        times.tile_stream_s *= cache_share(&run, &every_read);
        let once = prediction.memory_time.get();
        times.l2_s = (times.memory_s - once).max(0.0);
        times.memory_s = once;
        times
    }

    /// The times of a fused MoE layer (routed experts only) on one GPU of an
    /// expert-parallel group carrying `load`: its experts' GEMMs (gate and up fused, then
    /// down) over the copies routed to them, the weights of the experts it touches, and
    /// the permutation around them: the routed copies gathered in expert order (read and
    /// written in the activation format), then read back and summed into one output row
    /// per token, every token of the batch (in the output format; rows with no local
    /// expert are written as zeros for the group's all-reduce or combine); and, apart
    /// ([`KernelTimes::route_s`]), one pass over every token's routed copies, local or
    /// not, in the activation format: the routing work NVIDIA's tables show growing with
    /// the whole batch at any expert parallelism, at a rate of its own per device and
    /// format ([`KernelTerms::route_rate`]). With `tile_rows`, each expert's GEMMs compute
    /// whole tiles of that many rows, padding included ([`trtllm_gen_moe_tile`]); without,
    /// its copies only.
    pub fn moe(
        shape: &MoeShape,
        load: &MoeLoad,
        precision: &Precision,
        hw: &Hardware,
        tile_rows: Option<u64>,
    ) -> KernelTimes {
        let assignments = load.assignments;
        let touched = load.experts_touched;
        let per_expert = load.per_expert();
        // Each expert's GEMMs compute its copies, or whole tiles of them: the rows computed
        // over the copies.
        let padding = match tile_rows {
            Some(rows) if per_expert > 0.0 => {
                let rows = rows as f64;
                (per_expert / rows).ceil() * rows / per_expert
            }
            _ => 1.0,
        };
        let first = shape.first_width();
        let gemms = shape.expert_gemms(load);
        let bandwidth = hw.memory_bandwidth.value.get();
        let mut times = KernelTimes {
            memory_s: 0.0,
            compute_s: 0.0,
            quantise_s: activation_quantisation_bytes(
                shape.tokens as u64,
                shape.hidden as u64,
                precision.activations,
            ) / bandwidth,
            waves: 0.0,
            tile_stream_s: 0.0,
            write_s: 0.0,
            l2_s: 0.0,
            l2_share: 0.0,
            head_dim: None,
            route_s: precision
                .activations
                .tensor_bytes(shape.tokens * shape.top_k * shape.hidden)
                .get()
                / bandwidth,
            hidden_tiles_s: 0.0,
            scale_copies: 0.0,
            padded_rows_s: 0.0,
            quantise_steps: 0.0,
        };
        // The tile term is left out for MoE: tried (each expert's tiles on their own), it
        // moved the held-out medians by -1 to +3 points and fitted unphysical rates on
        // L40S; the MoE kernels' 20-50 us fixed cost (routing, several launches) dominates.
        for op in gemms {
            let p = op
                .predict(precision, hw, &crate::roofline::Efficiency::IDEAL)
                .prediction;
            times.memory_s += p.memory_time.get();
            times.compute_s += p.compute_time.get() * padding;
        }
        let gather = precision
            .activations
            .tensor_bytes(2.0 * assignments * shape.hidden)
            .get();
        let finalize = precision
            .output
            .tensor_bytes((assignments + shape.tokens) * shape.hidden)
            .get();
        times.memory_s += (gather + finalize) / bandwidth;
        // Every byte but the experts' weights, which the GEMMs read once per touched expert.
        let weights = touched
            * (precision.weights.tensor_bytes(first * shape.hidden).get()
                + precision
                    .weights
                    .tensor_bytes(shape.hidden * shape.intermediate)
                    .get());
        times.write_s = (times.memory_s - weights / bandwidth).max(0.0);
        times
    }

    /// The least time the DRAM takes to serve these times' bytes, seconds, on a device of
    /// `bandwidth` bytes a second whose L2 holds `l2_bytes`: the datasheet memory time less
    /// the L2's whole capacity at that bandwidth (all a loop's previous runs can leave
    /// there), never below 0. A kernel measured faster than this did not move the bytes its
    /// shape says; `rooflinr validate` lists NVIDIA's table rows that are.
    pub fn dram_floor_s(&self, l2_bytes: f64, bandwidth: f64) -> f64 {
        (self.memory_s - l2_bytes / bandwidth).max(0.0)
    }

    /// The roofline bound: max of the two.
    pub fn bound_s(&self) -> f64 {
        self.memory_s.max(self.compute_s)
    }

    /// Which of the two is the bound, as the roofline names it (compute on a tie, as
    /// [`crate::roofline::Roof::predict`] has it).
    pub fn bound(&self) -> crate::roofline::Bound {
        if self.compute_s >= self.memory_s && self.compute_s > 0.0 {
            crate::roofline::Bound::Compute
        } else {
            crate::roofline::Bound::Memory
        }
    }
}

/// The fitted terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KernelTerms {
    /// Fixed time per kernel, seconds.
    pub fixed_s: f64,
    /// Fraction of the datasheet bandwidth reached.
    pub bandwidth: f64,
    /// Fraction of the datasheet peak reached on full tiles.
    pub compute: f64,
    /// Exposed latency per wave of blocks, seconds.
    pub per_wave_s: f64,
    /// Fraction of the datasheet bandwidth one output tile streams at (GEMMs; 1 where the
    /// term is not fitted: one tile at the whole bandwidth never binds). For decode
    /// attention, the rate one block streams its share at.
    pub tile_bandwidth: f64,
    /// The rate the L2 serves bytes at, as a multiple of the datasheet DRAM bandwidth: every
    /// byte a kernel reads passes through it, with its re-reads ([`KernelTimes::l2_s`]) and
    /// the operands a benchmark loop left in it ([`KernelTimes::l2_share`]). At least the
    /// bandwidth fraction, and above 1 where the L2 outruns the DRAM (fitted where samples
    /// read from the L2; infinite, no limit, where not: the plain roofline counts each byte
    /// once, from DRAM).
    pub l2_bandwidth: f64,
    /// The exponent p the memory and compute terms combine with, (memory^p +
    /// compute^p)^(1/p) ([`overlapped`]): infinite for the roofline's max (the kernel hides
    /// one term entirely behind the other), 1 for their sum (no overlap at all). Near the
    /// ridge point, where both terms are about equal, a kernel with a finite p takes up to
    /// 2^(1/p) times the larger.
    pub overlap: f64,
    /// The compute time of the attention kernel for each head width of
    /// [`ATTENTION_HEAD_DIMS`] relative to the compute fraction's: the kernel built for that
    /// width reaches `compute / head_compute[i]` of the peak (1 for every width where not
    /// fitted, and for every other kernel).
    pub head_compute: [f64; ATTENTION_HEAD_DIMS.len()],
    /// The fixed time of the attention kernel for each head width of
    /// [`ATTENTION_HEAD_DIMS`] relative to [`KernelTerms::fixed_s`]: each width's kernel
    /// is built apart, with a prologue and epilogue of its own (1 for every width where not
    /// fitted, and for every other kernel).
    pub head_fixed: [f64; ATTENTION_HEAD_DIMS.len()],
    /// The rate a fused MoE layer's routing pass ([`KernelTimes::route_s`]) runs at, as a
    /// multiple of the datasheet bandwidth: its time adds to the kernel's, outside the
    /// throughput terms (infinite, not counted, where not fitted: the roofline). Fitted
    /// where the samples route ([`KernelTerms::fit`]). Read off NVIDIA's tables
    /// (TensorRT-LLM, `rooflinr validate`'s Fitted terms table): the MoE layers' time grows
    /// with the whole batch's copies at any expert parallelism. H100's MXFP4 W4A16 layers
    /// (gpt-oss's shapes: 60-70 ns more per token at EP 32 to 128) fit an eighth of the
    /// bandwidth; its BF16 layers twice it and its FP8 layers once (the same time per
    /// copied element: a rate above 1 means less than one pass per copy); L40S's gated
    /// BF16 and FP8 layers fit none.
    pub route_rate: f64,
    /// The fraction of the datasheet bandwidth the activation quantisation pass
    /// ([`KernelTimes::quantise_s`]) runs at, where it is a kernel of its own that reaches
    /// less than the GEMM's bandwidth fraction (`None`: the GEMM's). Fitted where the samples
    /// quantise ([`KernelTerms::fit`]). Read off NVIDIA's tables (TensorRT-LLM's block-scaled
    /// FP8 GEMMs on Hopper, whose activations `fp8_quantize_1x128` quantises on a fixed grid of
    /// eight blocks per SM, `scale_1x128_kernel`): at M = 2,048-16,384 the time grows with N
    /// from an intercept that is the pass alone, 1.3-1.6 TB/s on both H100 and H200 whatever
    /// their HBM; fitted, 1.7 TB/s on both (50 and 35 % of their datasheet bandwidths), where
    /// the GEMM's own operands stream at 81-85 %.
    pub quantise_bandwidth: Option<f64>,
    /// The rate the activation quantisation pass reads from and writes to the L2 at, as a
    /// multiple of the datasheet DRAM bandwidth, where it is a kernel of its own that the L2
    /// serves faster than it serves the GEMM (`None`: at [`KernelTerms::l2_bandwidth`], the
    /// GEMM's). Fitted where the samples quantise ([`KernelTerms::fit`],
    /// [`QUANTISE_L2_BANDWIDTHS`]). Read off NVIDIA's tables (TensorRT-LLM's NVFP4 GEMMs on
    /// the RTX PRO 6000, 128 MB of L2): at N = 128 and 256 the GEMM is mostly its pass, and
    /// with 50-84 MB of BF16 activations, which a benchmark loop leaves in the L2, the pass's
    /// bytes over the whole GEMM's time come to 2.3-3.1 TB/s (16,384 x 128 x 2,560: 35 us);
    /// past the L2, 1.0-1.2 TB/s, the DRAM's rate. Fitted, the L2 serves the pass at 4.3 TB/s
    /// and the GEMM's own re-reads at 1.4 TB/s.
    pub quantise_l2_bandwidth: Option<f64>,
    /// The fraction of the datasheet bandwidth a kernel writes its activations at
    /// ([`KernelTimes::write_s`]), where its epilogue writes slower than its operands
    /// stream (`None`: at the bandwidth fraction, as the roofline counts every byte).
    /// Fitted where the samples write activations ([`KernelTerms::fit`],
    /// [`WRITE_BANDWIDTHS`]): a GEMM's output, a MoE layer's token traffic. Read off NVIDIA's
    /// tables (TensorRT-LLM): at M = 8,192 and K = 128 a GEMM is its output's write, and
    /// H200's BF16 and FP8 GEMMs write it at 2.7-2.9 TB/s at N = 8,192-65,536, its
    /// block-scaled FP8 GEMMs at 1.4-1.5 TB/s; B300's NVFP4 GEMMs at 1.9-2.1 TB/s of its
    /// 7.7 TB/s.
    pub write_bandwidth: Option<f64>,
    /// The share of a computed key tile's time a prefill attention kernel spends on a tile
    /// its sliding window hides, where it walks every causal tile and skips at run time
    /// ([`KernelTimes::hidden_tiles_s`]; 0 where not fitted: skipped tiles cost nothing, as
    /// the roofline counts them). Fitted where the samples walk hidden tiles
    /// ([`KernelTerms::fit`], [`HIDDEN_TILE_SHARES`]). Read off NVIDIA's tables (SGLang's
    /// Triton prefill kernel): at 16,384 tokens under a 128-token window, 1/64 of the
    /// causal pairs, it takes 0.79-0.80 of the full causal kernel's time on B200, B300,
    /// GB200 and GB300, 0.71-0.95 on RTX PRO 6000 and 0.37-0.67 on L40S.
    pub hidden_tile_share: f64,
    /// The time of one copy of the activations' scales into the layout the GEMM reads
    /// ([`KernelTimes::scale_copies`]), seconds, outside the throughput terms (0 where not
    /// fitted). Read off the samples that make one, as the fixed time is off the smallest
    /// ([`KernelTerms::fit`]). NVIDIA's tables (vLLM's DeepGEMM block-scaled FP8 GEMMs):
    /// DeepGEMM reads the scales column-major with M padded to a multiple of 4 for TMA
    /// (16-byte columns of FP32), and where M is not one, vLLM lays them out again before
    /// the GEMM: those rows take 56 us more on B200 and 126-144 us more on GB300 than
    /// their neighbours at M = 4, 12 and 16, whatever N and K.
    pub scale_copy_s: f64,
    /// The latency of one step of an activation quantisation pass that runs a block per
    /// token ([`KernelTimes::quantise_steps`]), seconds; 0 where no such pass was fitted.
    /// Fitted on a ladder ([`QUANTISE_STEP_S`]).
    pub quantise_step_s: f64,
}

/// `memory` and `compute` seconds combined with the overlap exponent `p`
/// ([`KernelTerms::overlap`]): their max for an infinite `p`, their sum for 1, in between
/// the p-norm.
pub fn overlapped(memory: f64, compute: f64, p: f64) -> f64 {
    let larger = memory.max(compute);
    if p.is_infinite() || larger <= 0.0 {
        return larger;
    }
    // Scaled by the larger so the powers neither overflow nor vanish.
    let (a, b) = (memory / larger, compute / larger);
    larger * root(power(a, p) + power(b, p), p)
}

/// x^p, without `powf` for the exponents the fit tries ([`OVERLAPS`]): `powf` took 40 % of
/// `validate`'s time, the fit predicting every sample in every round.
fn power(x: f64, p: f64) -> f64 {
    if p == 1.0 {
        x
    } else if p == 1.5 {
        x * x.sqrt()
    } else if p == 2.0 {
        x * x
    } else if p == 4.0 {
        (x * x) * (x * x)
    } else {
        x.powf(p)
    }
}

/// x^(1/p), the inverse of [`power`].
fn root(x: f64, p: f64) -> f64 {
    if p == 1.0 {
        x
    } else if p == 1.5 {
        let c = x.cbrt();
        c * c
    } else if p == 2.0 {
        x.sqrt()
    } else if p == 4.0 {
        x.sqrt().sqrt()
    } else {
        x.powf(1.0 / p)
    }
}

/// The share of `total` seconds one term of an overlapped pair accounts for when the other
/// takes `other`: the inverse of [`overlapped`], (total^p - other^p)^(1/p); `total` itself
/// for an infinite `p` (the roofline's max: the binding term is the whole). At least 5 % of
/// `total`, so a kernel at the ridge point, where the other term nearly explains the time,
/// does not read as infinitely fast.
fn unoverlapped(total: f64, other: f64, p: f64) -> f64 {
    let floor = 0.05 * total;
    if p.is_infinite() {
        return total.max(floor);
    }
    if total <= other {
        return floor;
    }
    let b = other / total;
    (total * root(1.0 - power(b, p), p)).max(floor)
}

/// Which term a prediction is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Regime {
    /// The memory term binds and outweighs the fixed time.
    Memory,
    /// The compute term binds and outweighs the fixed time.
    Compute,
    /// The fixed time and the waves' latency are the larger part.
    Fixed,
}

impl Regime {
    /// `memory`, `compute`, `fixed`.
    pub fn name(self) -> &'static str {
        match self {
            Regime::Memory => "memory",
            Regime::Compute => "compute",
            Regime::Fixed => "fixed",
        }
    }
}

/// Fractions are kept in this range while fitting: a kernel cannot beat the datasheet, and
/// one reaching under 2 % of it is measuring something else.
const FRACTION: (f64, f64) = (0.02, 1.0);

/// Which terms a run of the fitting rounds fits, and where the compute fraction starts.
#[derive(Clone, Copy, Debug, PartialEq)]
struct FitStart {
    /// The rate one tile streams at.
    tile_term: bool,
    /// The fixed time and the latency per wave (the waves' only where `waves` too).
    overheads: bool,
    /// The latency per wave.
    waves: bool,
    /// The compute fraction the rounds start from.
    compute: f64,
    /// The overlap exponent the rounds fit the other terms under ([`KernelTerms::overlap`]).
    overlap: f64,
    /// The routing pass's rate the rounds hold ([`KernelTerms::route_rate`]).
    route_rate: f64,
    /// The quantisation pass's bandwidth fraction the rounds hold
    /// ([`KernelTerms::quantise_bandwidth`]).
    quantise_bandwidth: Option<f64>,
    /// The quantisation pass's L2 rate the rounds hold
    /// ([`KernelTerms::quantise_l2_bandwidth`]).
    quantise_l2_bandwidth: Option<f64>,
    /// The output's write bandwidth fraction the rounds hold
    /// ([`KernelTerms::write_bandwidth`]).
    write_bandwidth: Option<f64>,
    /// The share of a computed tile's time a hidden tile costs, which the rounds hold
    /// ([`KernelTerms::hidden_tile_share`]).
    hidden_tile_share: f64,
    /// The latency of a per-token quantisation pass's step the rounds hold
    /// ([`KernelTerms::quantise_step_s`]).
    quantise_step_s: f64,
}

impl FitStart {
    /// `terms` with the terms this start holds ([`FitStart::route_rate`],
    /// [`FitStart::quantise_bandwidth`], [`FitStart::write_bandwidth`]) in place of theirs.
    fn held(self, terms: KernelTerms) -> KernelTerms {
        KernelTerms {
            route_rate: self.route_rate,
            quantise_bandwidth: self.quantise_bandwidth,
            quantise_l2_bandwidth: self.quantise_l2_bandwidth,
            write_bandwidth: self.write_bandwidth,
            hidden_tile_share: self.hidden_tile_share,
            quantise_step_s: self.quantise_step_s,
            ..terms
        }
    }

    /// Every term but the tile's, from the full peak.
    const FULL: FitStart = FitStart {
        tile_term: false,
        overheads: true,
        waves: true,
        compute: 1.0,
        overlap: f64::INFINITY,
        route_rate: f64::INFINITY,
        quantise_bandwidth: None,
        quantise_l2_bandwidth: None,
        write_bandwidth: None,
        hidden_tile_share: 0.0,
        quantise_step_s: 0.0,
    };
}

/// The overlap exponents a fit tries after its best start ([`KernelTerms::overlap`]), from
/// the roofline's max down to the sum: 4, 2, 1.5 and 1 cover what NVIDIA's tables show
/// (4, 3, 2, 1.5, 1.25, 1.1 and 1 moved no held-out median by more than a point).
const OVERLAPS: [f64; 4] = [4.0, 2.0, 1.5, 1.0];

/// The routing pass's rates a fit tries ([`KernelTerms::route_rate`]), as multiples of the
/// datasheet bandwidth: from not counted (infinite) down to a 64th of it, in halves.
const ROUTE_RATES: [f64; 10] = [
    f64::INFINITY,
    4.0,
    2.0,
    1.0,
    0.5,
    0.25,
    0.125,
    0.0625,
    0.03125,
    0.015625,
];

/// The activation write's bandwidth fractions a fit tries ([`KernelTerms::write_bandwidth`])
/// besides the kernel's own: the datasheet bandwidth down to an eighth of it, as for the
/// quantisation pass ([`QUANTISE_BANDWIDTHS`]).
const WRITE_BANDWIDTHS: [f64; 13] = QUANTISE_BANDWIDTHS;

/// The range an attention head width's fixed time is kept in while fitting, relative to the
/// samples' ([`KernelTerms::head_fixed`]).
const HEAD_FIXED: (f64, f64) = (0.25, 4.0);

/// The shares of a computed tile's time a fit tries for a tile a sliding window hides
/// ([`KernelTerms::hidden_tile_share`]): from free (the roofline's count) to a whole tile,
/// in eighths.
pub const HIDDEN_TILE_SHARES: [f64; 9] = [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0];

/// The quantisation pass's bandwidth fractions a fit tries
/// ([`KernelTerms::quantise_bandwidth`]) besides the GEMM's own: the datasheet bandwidth
/// down to an eighth of it in quarter powers of two (2^(-i/4), i = 0..12).
const QUANTISE_BANDWIDTHS: [f64; 13] = [
    1.0,
    0.8409,
    std::f64::consts::FRAC_1_SQRT_2,
    0.5946,
    0.5,
    0.4204,
    0.3536,
    0.2973,
    0.25,
    0.2102,
    0.1768,
    0.1487,
    0.125,
];

/// The quantisation pass's L2 rates a fit tries ([`KernelTerms::quantise_l2_bandwidth`])
/// besides the GEMM's L2 rate, as multiples of the datasheet DRAM bandwidth: once to four
/// times it in quarter powers of two (2^(i/4), i = 0..8).
const QUANTISE_L2_BANDWIDTHS: [f64; 9] = [
    1.0,
    1.1892,
    std::f64::consts::SQRT_2,
    1.6818,
    2.0,
    2.3784,
    2.8284,
    3.3636,
    4.0,
];

/// The latencies of a per-token quantisation pass's step a fit tries
/// ([`KernelTerms::quantise_step_s`]): an eighth of a microsecond to two microseconds in
/// quarter powers of two (2^(i/4) / 8 us, i = 0..16), about one to a few round trips to the
/// DRAM with the block's reduction.
const QUANTISE_STEP_S: [f64; 17] = [
    0.125e-6, 0.1487e-6, 0.1768e-6, 0.2102e-6, 0.25e-6, 0.2973e-6, 0.3536e-6, 0.4204e-6, 0.5e-6,
    0.5946e-6, 0.7071e-6, 0.8409e-6, 1.0e-6, 1.1892e-6, 1.4142e-6, 1.6818e-6, 2.0e-6,
];

/// The compute fraction a second fit starts from: starting at the full peak, the rounds
/// never see a compute limit the kernels reach at a small fraction of it (decode
/// attention's tensor-core work on Hopper), since no kernel reads as compute-bound.
const LOW_COMPUTE_START: f64 = 0.1;

/// A GEMM's operands as a benchmark loop touches them: the loop runs the GEMM once on each
/// of `copies` operand sets in turn, some operands rotating through the copies and the
/// rest shared by every run. NVIDIA's tables are timed so, each framework's collector
/// looping its own way (aiconfigurator, Apache-2.0, `collector/<framework>/collect_gemm.py`;
/// `rooflinr validate` builds each row's loop from them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmLoop {
    /// Bytes of the activations the GEMM reads, in its activation format.
    pub activations: f64,
    /// Bytes of the BF16 activations a quantisation pass reads before an FP8 or FP4 GEMM
    /// ([`activation_quantisation_bytes`]); 0 for 16-bit activations.
    pub staging: f64,
    /// Bytes of the weights, scales included.
    pub weights: f64,
    /// Bytes of the output.
    pub output: f64,
    /// Operand sets the loop runs in turn (at least 1).
    pub copies: f64,
    /// Whether the activations and output rotate with the weights (each run its own), or
    /// one set serves every run.
    pub activations_rotate: bool,
}

impl GemmLoop {
    /// The share of the GEMM's bytes (activations, weights and output) its previous runs
    /// leave in an L2 of `l2_bytes`: an operand is found there when every byte the loop
    /// touches between two reads of it fits in the L2: for an operand every run shares,
    /// one run's bytes; for one that rotates, the whole loop's. Past the L2's size the
    /// share found falls to none over [`L2_OVERFLOW`] of it. Read off NVIDIA's GEMM
    /// tables: on the L40S (96 MB of L2, GDDR6 at 864 GB/s) BF16 GEMMs whose bytes are
    /// mostly activations (N = 32 to 128, K = 8,192) read 38-83 MB at 1.8-2.2x the DRAM's
    /// bandwidth, and those whose bytes are mostly weights fell to the DRAM's between 16
    /// and 32 MB, where five copies pass the L2. 0 where the L2 is not known.
    pub fn l2_share(&self, l2_bytes: f64) -> f64 {
        let own = self.activations + self.weights + self.output;
        if !(l2_bytes > 0.0 && own > 0.0) {
            return 0.0;
        }
        let copies = self.copies.max(1.0);
        let run = own + self.staging;
        let per_copy = if self.activations_rotate {
            run
        } else {
            self.weights
        };
        let whole_loop = run + (copies - 1.0) * per_copy;
        let found = |between_reads: f64| found_in_l2(between_reads, l2_bytes);
        let weights = self.weights * found(if copies > 1.0 { whole_loop } else { run });
        let shared_reuse = if self.activations_rotate && copies > 1.0 {
            whole_loop
        } else {
            run
        };
        let activations_and_output = (self.activations + self.output) * found(shared_reuse);
        (weights + activations_and_output) / own
    }
}

/// How far past the L2's size the bytes a loop touches between two reads of an operand
/// may go before none of it is found there ([`GemmLoop::l2_share`]): the share found falls
/// from all at the L2's size to none at 1/16 beyond it. A cache that always replaced its
/// least recently used line would keep nothing of a loop over even one line more than it
/// holds; the L2 keeps most of it: NVIDIA's L40S and RTX PRO 6000 BF16 tables (TensorRT-LLM, whose loop's
/// weight copies fill the L2 to within a copy) run memory-bound GEMMs whose loops pass the
/// L2 by under 2.5 % at 1.8-2.1x the time the DRAM alone allows, 2.5-7.5 % past it at
/// 1.2-1.3x, and further past it at the DRAM's.
pub const L2_OVERFLOW: f64 = 1.0 / 16.0;

/// The share of an operand a benchmark loop finds in an L2 of `l2_bytes` when it touches
/// `between_reads` bytes between two reads of it: all of it while they fit in the L2,
/// falling to none over [`L2_OVERFLOW`] past its size; none where the L2 is not known. For a
/// kernel looped on one set of operands (attention, a MoE layer) `between_reads` is the
/// kernel's own bytes: NVIDIA's L40S and RTX PRO 6000 decode attention tables (96 and 128
/// MB of L2, GDDR6 and GDDR7) run kernels reading 4 MB up to about the L2's size up to 2.4x
/// faster than the DRAM allows, and slower than predicted only past it (counted up to
/// three eighths of the L2 instead, their held-out medians were 9 and 16 %; up to all of
/// it, 8 and 14 %, their p90s 43 -> 29 % and 80 -> 64 %).
pub fn found_in_l2(between_reads: f64, l2_bytes: f64) -> f64 {
    if !(l2_bytes > 0.0 && between_reads > 0.0) {
        return 0.0;
    }
    ((1.0 + L2_OVERFLOW - between_reads / l2_bytes) / L2_OVERFLOW).clamp(0.0, 1.0)
}

/// The activation quantisation pass ([`KernelTimes::quantise_s`]) at the fitted rates,
/// seconds: its bytes from the DRAM at `bandwidth`, less the share a loop's previous runs
/// left in the L2 ([`KernelTimes::l2_share`]; the pass reads the BF16 activations the
/// GEMM's loop reads again each run), and every byte through the L2 at `l2_bandwidth`,
/// whichever is slower. Read off NVIDIA's tables: the RTX PRO 6000's NVFP4 GEMM at M =
/// 16,384, N = 128, K = 3,072 takes 42 us where its 128 MB pass at 1.8 TB/s alone would
/// take 71 us, and the L40S's FP8 GEMMs' held-out p90 fell from 30 to 18 % counted so.
/// A pass that runs a block per token takes its steps' latency instead, `step_s` each
/// ([`KernelTimes::quantise_steps`]).
fn quantise_time(t: &KernelTimes, bandwidth: f64, l2_bandwidth: f64, step_s: f64) -> f64 {
    (t.quantise_s * (1.0 - t.l2_share) / bandwidth).max(t.quantise_s / l2_bandwidth)
        + t.quantise_steps * step_s
}

impl KernelTerms {
    /// The plain roofline.
    pub const ROOFLINE: KernelTerms = KernelTerms {
        fixed_s: 0.0,
        bandwidth: 1.0,
        compute: 1.0,
        per_wave_s: 0.0,
        tile_bandwidth: 1.0,
        l2_bandwidth: f64::INFINITY,
        overlap: f64::INFINITY,
        head_compute: [1.0; ATTENTION_HEAD_DIMS.len()],
        head_fixed: [1.0; ATTENTION_HEAD_DIMS.len()],
        route_rate: f64::INFINITY,
        quantise_bandwidth: None,
        quantise_l2_bandwidth: None,
        write_bandwidth: None,
        hidden_tile_share: 0.0,
        scale_copy_s: 0.0,
        quantise_step_s: 0.0,
    };

    /// The compute time of `t`'s tiles at the datasheet peak, seconds: those it computes,
    /// and [`KernelTerms::hidden_tile_share`] of those it walks hidden.
    fn tile_compute_s(&self, t: KernelTimes) -> f64 {
        t.compute_s + self.hidden_tile_share * t.hidden_tiles_s
    }

    /// The fitted throughput terms, seconds: memory (the whole chip's bandwidth, one SM
    /// streaming its tiles, or the L2 serving the re-reads, whichever is slowest) and
    /// compute.
    fn terms(&self, t: KernelTimes) -> (f64, f64) {
        (
            self.memory_limits(t).into_iter().fold(0.0, f64::max),
            self.tile_compute_s(t) * self.head_scale(t) / self.compute,
        )
    }

    /// The index in [`ATTENTION_HEAD_DIMS`] of `t`'s head width, where it has one listed.
    fn head_index(t: KernelTimes) -> Option<usize> {
        let d = t.head_dim?;
        ATTENTION_HEAD_DIMS.iter().position(|&h| h == d)
    }

    /// `t`'s compute time relative to the compute fraction's ([`KernelTerms::head_compute`]).
    fn head_scale(&self, t: KernelTimes) -> f64 {
        Self::head_index(t).map_or(1.0, |i| self.head_compute[i])
    }

    /// The memory term's three limits, seconds: the chip's bandwidth, one SM streaming its
    /// tiles, the L2 serving the re-reads.
    fn memory_limits(&self, t: KernelTimes) -> [f64; 3] {
        let (dram_s, l2_s) = t.dram_and_l2_s();
        let written_s = t.written_s();
        [
            (dram_s - written_s) / self.bandwidth
                + written_s / self.write_bandwidth.unwrap_or(self.bandwidth),
            t.tile_stream_s / self.tile_bandwidth,
            l2_s / self.l2_bandwidth,
        ]
    }

    /// Whether one SM streaming its tiles, rather than the whole chip's bandwidth or the
    /// L2, sets the memory term.
    fn tile_bound(&self, t: KernelTimes) -> bool {
        let [chip, tile, l2] = self.memory_limits(t);
        tile > chip && tile >= l2
    }

    /// Whether the L2 serving the re-reads sets the memory term.
    fn l2_bound(&self, t: KernelTimes) -> bool {
        let [chip, tile, l2] = self.memory_limits(t);
        l2 > chip && l2 > tile
    }

    /// `t`'s fixed time, seconds: its head width's where fitted apart
    /// ([`KernelTerms::head_fixed`]).
    fn fixed_of(&self, t: KernelTimes) -> f64 {
        self.fixed_s * Self::head_index(t).map_or(1.0, |i| self.head_fixed[i])
    }

    /// The rate the L2 serves the quantisation pass at, as a multiple of the datasheet
    /// bandwidth: its own where fitted ([`KernelTerms::quantise_l2_bandwidth`]), else the
    /// GEMM's.
    fn quantise_l2(&self) -> f64 {
        self.quantise_l2_bandwidth.unwrap_or(self.l2_bandwidth)
    }

    /// The time outside the kernel's own throughput terms: the fixed time, the activation
    /// quantisation pass, the waves' latency, the routing pass, the copies of the scales and
    /// the reads of rows past M, seconds.
    fn overhead(&self, t: KernelTimes) -> f64 {
        self.fixed_of(t)
            + quantise_time(
                &t,
                self.quantise_bandwidth.unwrap_or(self.bandwidth),
                self.quantise_l2(),
                self.quantise_step_s,
            )
            + t.waves * self.per_wave_s
            + t.route_s / self.route_rate
            + t.scale_copies * self.scale_copy_s
            + t.padded_rows_s / self.bandwidth
    }

    /// The throughput terms overlapped ([`overlapped`]), seconds.
    fn throughput_s(&self, t: KernelTimes) -> f64 {
        let (m, c) = self.terms(t);
        overlapped(m, c, self.overlap)
    }

    /// The expected time of a GEMM, seconds.
    pub fn predict(&self, t: KernelTimes) -> f64 {
        self.overhead(t) + self.throughput_s(t)
    }

    /// Which term the prediction is made of.
    pub fn regime(&self, t: KernelTimes) -> Regime {
        let (m, c) = self.terms(t);
        if self.overhead(t) > overlapped(m, c, self.overlap) {
            Regime::Fixed
        } else if c > m {
            Regime::Compute
        } else {
            Regime::Memory
        }
    }

    /// Fits the terms to `(datasheet times, measured seconds)` samples: robust (medians,
    /// so a few odd kernels do not drag it), by alternating estimates. The fixed time is
    /// the median excess of the smallest kernels (the tenth with the least datasheet work,
    /// among those of at most one wave) over their other terms; the per-wave latency the
    /// median excess per wave of the kernels of two or more waves whose throughput terms
    /// are under half their time; each fraction the median, over the kernels its term
    /// binds and outweighs the fixed time and latency, of datasheet time over measured time
    /// less the rest. The tile bandwidth starts where every SM streams an equal share of
    /// the datasheet bandwidth (the smallest serial share of the bytes among the samples), so GEMMs with
    /// fewer tiles than SMs start bound by it, and is then read off the kernels it binds
    /// like the fractions; it is kept only where it lowers the samples' mean |log error|
    /// against the same fit without it (kernels that split K over idle SMs show no such
    /// limit). The L2's rate, where the samples re-read ([`KernelTimes::l2_s`]), starts at
    /// the DRAM's and is read off the kernels it binds the same way, never below the
    /// bandwidth fraction. Where the samples are attention of two or more head
    /// widths, each width's compute time relative to the fraction's is read the same way off
    /// that width's compute-bound kernels ([`KernelTerms::head_compute`]), and its fixed
    /// time relative to the samples' off its own smallest tenth ([`KernelTerms::head_fixed`],
    /// kept within a quarter to four times). Twenty rounds
    /// settle each fit. Rounds that start from the full
    /// bandwidth and peak can settle where they started: a compute limit reached at a small
    /// fraction of the peak never reads as binding, and kernels whose work grows with their
    /// waves read their throughput's shortfall as a latency per wave. So the rounds run
    /// from several starts (compute from the full peak and from `LOW_COMPUTE_START` (10 %) of
    /// it; with and without the latency per wave; with and without the tile term where
    /// the samples have one) and the fit with the smallest mean |log error| over the
    /// samples is kept. Where the samples are MoE layers with a routing pass
    /// ([`KernelTimes::route_s`]), its rate is then picked from [`ROUTE_RATES`] as the one
    /// with the smallest error with the other terms held, and the others refitted under it,
    /// twice, each kept only where it lowers the error. Where the samples quantise their
    /// activations ([`KernelTimes::quantise_s`]), the pass's bandwidth fraction is then
    /// picked the same way from [`QUANTISE_BANDWIDTHS`] (or none: the GEMM's own), twice,
    /// and where a loop leaves the pass's bytes in the L2, the L2's rate for the pass from
    /// [`QUANTISE_L2_BANDWIDTHS`] (or none: the GEMM's L2 rate), twice. Where the samples
    /// quantise with a block per token ([`KernelTimes::quantise_steps`]), the step's
    /// latency from [`QUANTISE_STEP_S`], twice.
    /// With no samples, the plain roofline.
    pub fn fit(samples: &[(KernelTimes, f64)]) -> KernelTerms {
        let usable = usable(samples);
        if usable.is_empty() {
            return KernelTerms::ROOFLINE;
        }
        let error = |terms: &KernelTerms| {
            usable
                .iter()
                .map(|(t, s)| (terms.predict(*t) / s).ln().abs())
                .sum::<f64>()
        };
        let tiled = usable.iter().any(|(t, _)| t.tile_stream_s > 0.0);
        let mut best_start = FitStart::FULL;
        let mut best = Self::fit_usable(&usable, FitStart::FULL);
        for tile_term in [false, true] {
            for compute in [1.0, LOW_COMPUTE_START] {
                for waves in [true, false] {
                    let start = FitStart {
                        tile_term,
                        compute,
                        waves,
                        ..FitStart::FULL
                    };
                    if start == FitStart::FULL || (tile_term && !tiled) {
                        continue;
                    }
                    let other = Self::fit_usable(&usable, start);
                    if error(&other) < error(&best) {
                        best = other;
                        best_start = start;
                    }
                }
            }
        }
        // Where the samples route: the routing pass's rate (the first time, the other terms
        // were fitted with no routing pass).
        if usable.iter().any(|(t, _)| t.route_s > 0.0) {
            Self::refit_holding(&usable, &error, (&mut best, &mut best_start), |start| {
                ROUTE_RATES
                    .into_iter()
                    .map(|route_rate| FitStart {
                        route_rate,
                        ..start
                    })
                    .collect()
            });
        }
        // Where the samples quantise their activations: the quantisation pass's bandwidth
        // fraction (none held first: the GEMM's own).
        if usable.iter().any(|(t, _)| t.quantise_s > 0.0) {
            Self::refit_holding(&usable, &error, (&mut best, &mut best_start), |start| {
                std::iter::once(None)
                    .chain(QUANTISE_BANDWIDTHS.into_iter().map(Some))
                    .map(|quantise_bandwidth| FitStart {
                        quantise_bandwidth,
                        ..start
                    })
                    .collect()
            });
            // And the L2's rate for the pass, where a loop leaves its bytes there (none held
            // first: the GEMM's).
            if usable
                .iter()
                .any(|(t, _)| t.quantise_s > 0.0 && t.l2_share > 0.0)
            {
                Self::refit_holding(&usable, &error, (&mut best, &mut best_start), |start| {
                    std::iter::once(None)
                        .chain(QUANTISE_L2_BANDWIDTHS.into_iter().map(Some))
                        .map(|quantise_l2_bandwidth| FitStart {
                            quantise_l2_bandwidth,
                            ..start
                        })
                        .collect()
                });
            }
        }
        // Where the samples quantise a block per token: the latency of the pass's step.
        if usable.iter().any(|(t, _)| t.quantise_steps > 0.0) {
            Self::refit_holding(&usable, &error, (&mut best, &mut best_start), |start| {
                QUANTISE_STEP_S
                    .into_iter()
                    .map(|quantise_step_s| FitStart {
                        quantise_step_s,
                        ..start
                    })
                    .collect()
            });
        }
        // Where the samples write activations (a GEMM's output, a MoE layer's token
        // traffic): their bandwidth fraction, each of the ladder's with the other terms
        // refitted under it (held with the others as fitted, a slower write only adds time,
        // and the bandwidth fraction read with it would not move).
        if usable.iter().any(|(t, _)| t.write_s > 0.0) {
            for write_bandwidth in WRITE_BANDWIDTHS {
                let start = FitStart {
                    write_bandwidth: Some(write_bandwidth),
                    ..best_start
                };
                let other = Self::fit_usable(&usable, start);
                if error(&other) < error(&best) {
                    best = other;
                    best_start = start;
                }
            }
        }
        // Where the samples walk tiles their window hides: the share of a computed tile's
        // time such a tile costs, each of the ladder's with the other terms refitted under
        // it.
        if usable.iter().any(|(t, _)| t.hidden_tiles_s > 0.0) {
            for hidden_tile_share in HIDDEN_TILE_SHARES {
                let start = FitStart {
                    hidden_tile_share,
                    ..best_start
                };
                let other = Self::fit_usable(&usable, start);
                if error(&other) < error(&best) {
                    best = other;
                    best_start = start;
                }
            }
        }
        for overlap in OVERLAPS {
            let other = Self::fit_usable(
                &usable,
                FitStart {
                    overlap,
                    ..best_start
                },
            );
            if error(&other) < error(&best) {
                best = other;
            }
        }
        // GEMMs: the samples that write activations and route none.
        if usable
            .iter()
            .any(|(t, _)| t.write_s > 0.0 && t.route_s == 0.0)
        {
            best = Self::refine(best, &error);
        }
        best
    }

    /// `terms` nudged one at a time while `error` falls: each continuous term (the fixed
    /// time, the bandwidth, compute and tile fractions, the latency per wave) scaled by
    /// factors from 0.8 to 1.25, the best kept, for up to ten sweeps; the L2's rate kept at
    /// least the bandwidth fraction. The rounds of [`KernelTerms::fit_usable`] read each
    /// term off the samples its term binds, a fixed point that need not be the least error
    /// over all of them.
    fn refine(mut terms: KernelTerms, error: &dyn Fn(&KernelTerms) -> f64) -> KernelTerms {
        const FACTORS: [f64; 8] = [0.8, 0.9, 0.95, 0.98, 1.02, 1.05, 1.1, 1.25];
        let mut best = error(&terms);
        for _ in 0..10 {
            let before = best;
            for field in 0..5 {
                for factor in FACTORS {
                    let mut other = terms;
                    let value = match field {
                        0 => &mut other.fixed_s,
                        1 => &mut other.bandwidth,
                        2 => &mut other.compute,
                        3 => &mut other.tile_bandwidth,
                        _ => &mut other.per_wave_s,
                    };
                    // Terms not fitted (a tile rate of 1, no latency) stay unfitted.
                    if *value == 0.0 || (field == 3 && *value >= 1.0) {
                        continue;
                    }
                    *value *= factor;
                    if field != 0 && field != 4 {
                        *value = value.clamp(FRACTION.0, FRACTION.1);
                    }
                    // The L2 never serves slower than the DRAM, as the rounds hold it.
                    other.l2_bandwidth = other.l2_bandwidth.max(other.bandwidth);
                    let e = error(&other);
                    if e < best {
                        best = e;
                        terms = other;
                    }
                }
            }
            if best >= before * (1.0 - 1e-6) {
                break;
            }
        }
        terms
    }

    /// Twice: among `candidates` of the best start (each holding one more term at a value
    /// of its ladder), the one whose held terms fit best with the other terms as fitted,
    /// then the others refitted under it; kept only where it lowers `error`.
    fn refit_holding(
        usable: &[(KernelTimes, f64)],
        error: &dyn Fn(&KernelTerms) -> f64,
        (best, best_start): (&mut KernelTerms, &mut FitStart),
        candidates: impl Fn(FitStart) -> Vec<FitStart>,
    ) {
        for _ in 0..2 {
            let Some(start) = candidates(*best_start)
                .into_iter()
                .min_by(|a, b| error(&a.held(*best)).total_cmp(&error(&b.held(*best))))
            else {
                return;
            };
            let other = Self::fit_usable(usable, start);
            if error(&other) < error(best) {
                *best = other;
                *best_start = start;
            }
        }
    }

    /// The bandwidth and compute fractions alone, by the same rounds as [`KernelTerms::fit`]
    /// with the fixed time, the waves' latency and the tile term held at none: each
    /// fraction the median of datasheet time over measured time among the samples its
    /// term binds, reclassified until settled. For a few measurements of one size each
    /// (the agent's kernels, an imported profile), which cannot tell a fixed time from a
    /// fraction. With no samples, the plain roofline.
    pub fn fit_fractions(samples: &[(KernelTimes, f64)]) -> KernelTerms {
        let usable = usable(samples);
        if usable.is_empty() {
            return KernelTerms::ROOFLINE;
        }
        Self::fit_usable(
            &usable,
            FitStart {
                overheads: false,
                waves: false,
                ..FitStart::FULL
            },
        )
    }

    /// [`KernelTerms::fit`] over finite positive samples, with or without the tile term,
    /// and with or without the overheads (fixed time, waves' latency).
    fn fit_usable(usable: &[(KernelTimes, f64)], start: FitStart) -> KernelTerms {
        let FitStart {
            tile_term,
            overheads,
            waves,
            compute: compute_start,
            overlap,
            route_rate,
            quantise_bandwidth,
            quantise_l2_bandwidth,
            write_bandwidth,
            hidden_tile_share,
            quantise_step_s,
        } = start;
        // The quantisation pass's rate: the held one, or the GEMM's fraction at `bandwidth`.
        let quantise_rate = |bandwidth: f64| quantise_bandwidth.unwrap_or(bandwidth);
        let mut by_size: Vec<&(KernelTimes, f64)> =
            usable.iter().filter(|(t, _)| t.waves <= 1.0).collect();
        if by_size.is_empty() {
            by_size = usable.iter().collect();
        }
        crate::sort::sort_by(&mut by_size, |a, b| a.0.bound_s().total_cmp(&b.0.bound_s()));
        let small = &by_size[..(by_size.len() / 10).max(1)];
        let mut terms = KernelTerms {
            compute: compute_start,
            overlap,
            route_rate,
            quantise_bandwidth,
            quantise_l2_bandwidth,
            write_bandwidth,
            hidden_tile_share,
            quantise_step_s,
            ..KernelTerms::ROOFLINE
        };
        let tiled = usable
            .iter()
            .filter(|(t, _)| tile_term && t.tile_stream_s > 0.0 && t.memory_s > 0.0)
            // One SM's share of all the bytes the blocks stream, re-reads included.
            .map(|(t, _)| t.tile_stream_s / (t.memory_s + t.l2_s))
            .min_by(f64::total_cmp);
        if let Some(share) = tiled {
            terms.tile_bandwidth = share;
        }
        let rereads = usable.iter().any(|(t, _)| t.reads_from_l2());
        if rereads {
            terms.l2_bandwidth = 1.0;
        }
        // Attention head widths are read apart where the samples have two or more; with one,
        // the compute fraction is that width's.
        let mut widths: Vec<usize> = usable
            .iter()
            .filter_map(|(t, _)| Self::head_index(*t))
            .collect();
        widths.sort_unstable();
        widths.dedup();
        let by_head_width = widths.len() >= 2;
        // Each width's smallest tenth, as `small` is the samples'.
        let small_by_width: Vec<Vec<&(KernelTimes, f64)>> = (0..ATTENTION_HEAD_DIMS.len())
            .map(|i| {
                let of: Vec<&(KernelTimes, f64)> = by_size
                    .iter()
                    .copied()
                    .filter(|(t, _)| Self::head_index(*t) == Some(i))
                    .collect();
                let tenth = (of.len() / 10).max(1).min(of.len());
                of[..tenth].to_vec()
            })
            .collect();
        for _ in 0..20 {
            let fixed = if overheads {
                median(
                    small
                        .iter()
                        .map(|(t, s)| {
                            s - terms.throughput_s(*t)
                                - quantise_time(
                                    t,
                                    quantise_rate(terms.bandwidth),
                                    terms.quantise_l2(),
                                    quantise_step_s,
                                )
                                - t.waves * terms.per_wave_s
                                - t.route_s / terms.route_rate
                                - t.scale_copies * terms.scale_copy_s
                                - t.padded_rows_s / terms.bandwidth
                        })
                        .collect(),
                )
                .unwrap_or(0.0)
                .max(0.0)
            } else {
                0.0
            };
            // Each attention head width's fixed time relative to the samples': the median
            // excess of its own smallest kernels over their other terms.
            let mut head_fixed = terms.head_fixed;
            if by_head_width && fixed > 0.0 {
                for (ratio, small) in head_fixed.iter_mut().zip(&small_by_width) {
                    let excess = median(
                        small
                            .iter()
                            .map(|(t, s)| {
                                s - terms.throughput_s(*t)
                                    - quantise_time(
                                        t,
                                        quantise_rate(terms.bandwidth),
                                        terms.quantise_l2(),
                                        quantise_step_s,
                                    )
                                    - t.waves * terms.per_wave_s
                            })
                            .collect(),
                    );
                    if let Some(excess) = excess {
                        *ratio = (excess / fixed).clamp(HEAD_FIXED.0, HEAD_FIXED.1);
                    }
                }
            }
            let fixed_of =
                |t: &KernelTimes| fixed * Self::head_index(*t).map_or(1.0, |i| head_fixed[i]);
            let per_wave = if overheads && waves {
                median(
                    usable
                        .iter()
                        .filter(|(t, s)| {
                            t.waves >= 2.0 && terms.throughput_s(*t) < 0.5 * (s - fixed_of(t))
                        })
                        .map(|(t, s)| {
                            (s - fixed_of(t)
                                - terms.throughput_s(*t)
                                - quantise_time(
                                    t,
                                    quantise_rate(terms.bandwidth),
                                    terms.quantise_l2(),
                                    quantise_step_s,
                                )
                                - t.route_s / terms.route_rate
                                - t.scale_copies * terms.scale_copy_s
                                - t.padded_rows_s / terms.bandwidth)
                                / t.waves
                        })
                        .collect(),
                )
                .unwrap_or(0.0)
                .max(0.0)
            } else {
                0.0
            };
            // A copy of the scales: the median excess per copy of the samples that make one
            // over their other terms.
            let scale_copy = if overheads {
                median(
                    usable
                        .iter()
                        .filter(|(t, _)| t.scale_copies > 0.0)
                        .map(|(t, s)| {
                            (s - fixed_of(t)
                                - terms.throughput_s(*t)
                                - quantise_time(
                                    t,
                                    quantise_rate(terms.bandwidth),
                                    terms.quantise_l2(),
                                    quantise_step_s,
                                )
                                - t.waves * per_wave
                                - t.route_s / terms.route_rate
                                - t.padded_rows_s / terms.bandwidth)
                                / t.scale_copies
                        })
                        .collect(),
                )
                .unwrap_or(0.0)
                .max(0.0)
            } else {
                0.0
            };
            // A fraction is read off the kernels its term binds and outweighs the rest:
            // where the fixed time or the waves' latency dominate, a measured time says
            // little about throughput.
            // Each sample's regime under the round's terms, found once for every fraction.
            let regimes: Vec<Regime> = usable.iter().map(|(t, _)| terms.regime(*t)).collect();
            let bound_by = |bound: Regime| {
                usable
                    .iter()
                    .zip(&regimes)
                    .filter(move |(_, r)| **r == bound)
                    .map(|(sample, _)| sample)
            };
            // What the throughput terms have to account for: the measured time less the
            // fixed time and the waves' latency (at least 5 % of it).
            let rest = |t: &KernelTimes, s: f64| {
                (s - fixed_of(t)
                    - t.waves * per_wave
                    - t.route_s / route_rate
                    - t.scale_copies * scale_copy
                    - t.padded_rows_s / terms.bandwidth)
                    .max(s * 0.05)
            };
            // What one throughput term accounts for when the other takes `other` seconds:
            // the rest less the quantisation pass at `bandwidth`, unoverlapped.
            let share = |t: &KernelTimes, s: f64, bandwidth: f64, other: f64| {
                let rest = (rest(t, s)
                    - quantise_time(
                        t,
                        quantise_rate(bandwidth),
                        terms.quantise_l2(),
                        quantise_step_s,
                    ))
                .max(s * 0.05);
                unoverlapped(rest, other, overlap)
            };
            let memory_term = |t: &KernelTimes| terms.terms(*t).0;
            let compute_term = |t: &KernelTimes| terms.terms(*t).1;
            // Memory-bound: the kernel's bytes and the quantisation pass both move at the
            // bandwidth fraction (the pass at its own where held), the latter at the current one (the same fixed point as
            // solving for both: bandwidth = (bytes + quantisation) / rest under a max).
            let bandwidth = median(
                bound_by(Regime::Memory)
                    .filter(|(t, _)| !terms.tile_bound(*t) && !terms.l2_bound(*t))
                    .map(|(t, s)| {
                        let share = share(t, *s, terms.bandwidth, compute_term(t));
                        // Where the output's write has a rate of its own held, the rest of
                        // the bytes over the rest of the time.
                        let (read_s, write_time) = match write_bandwidth {
                            Some(w) => (t.memory_s - t.written_s(), t.written_s() / w),
                            None => (t.memory_s, 0.0),
                        };
                        read_s / (share - write_time).max(share * 0.05)
                    })
                    .collect(),
            )
            .unwrap_or(terms.bandwidth)
            .clamp(FRACTION.0, FRACTION.1);
            // One tile streaming: its serial share of the bytes over what is left of the
            // measured time once the quantisation pass is taken out; never above the
            // whole chip's fraction.
            let tile_bandwidth = if tiled.is_some() {
                median(
                    bound_by(Regime::Memory)
                        .filter(|(t, _)| terms.tile_bound(*t))
                        .map(|(t, s)| t.tile_stream_s / share(t, *s, bandwidth, compute_term(t)))
                        .collect(),
                )
                .unwrap_or(terms.tile_bandwidth)
                .min(bandwidth)
            } else {
                terms.tile_bandwidth
            };
            // When every SM streaming its tile falls short of the whole chip's fraction,
            // that fraction is never reached: the chip's rate is then all SMs' together
            // (the tile rate over the smallest serial share, 1 / SMs).
            let bandwidth = match tiled {
                Some(share) => bandwidth.min(tile_bandwidth / share),
                None => bandwidth,
            };
            // The L2 serving re-reads: the re-read bytes' datasheet time over what is left
            // of the measured time; never slower than the DRAM's fraction.
            let l2_bandwidth = if rereads {
                median(
                    bound_by(Regime::Memory)
                        .filter(|(t, _)| terms.l2_bound(*t))
                        .map(|(t, s)| {
                            t.dram_and_l2_s().1 / share(t, *s, bandwidth, compute_term(t))
                        })
                        .collect(),
                )
                .unwrap_or(terms.l2_bandwidth)
                .max(bandwidth)
            } else {
                terms.l2_bandwidth
            };
            let compute = median(
                bound_by(Regime::Compute)
                    .map(|(t, s)| {
                        terms.tile_compute_s(*t) / share(t, *s, bandwidth, memory_term(t))
                    })
                    .collect(),
            )
            .unwrap_or(terms.compute)
            .clamp(FRACTION.0, FRACTION.1);
            // Each attention head width's compute time relative to the fraction's: the same
            // share of the measured time over the compute term at the group's fraction,
            // among that width's kernels; never faster than the peak.
            let mut head_compute = terms.head_compute;
            if by_head_width {
                for (i, scale) in head_compute.iter_mut().enumerate() {
                    let read = median(
                        bound_by(Regime::Compute)
                            .filter(|(t, _)| Self::head_index(*t) == Some(i))
                            .map(|(t, s)| {
                                share(t, *s, bandwidth, memory_term(t))
                                    / (terms.tile_compute_s(*t) / compute)
                            })
                            .collect(),
                    );
                    if let Some(read) = read {
                        *scale = read.clamp(compute, compute / FRACTION.0);
                    }
                }
            }
            let next = KernelTerms {
                fixed_s: fixed,
                bandwidth,
                compute,
                per_wave_s: per_wave,
                tile_bandwidth,
                l2_bandwidth,
                overlap,
                head_compute,
                head_fixed,
                route_rate,
                quantise_bandwidth,
                quantise_l2_bandwidth,
                write_bandwidth,
                hidden_tile_share,
                scale_copy_s: scale_copy,
                quantise_step_s,
            };
            if next == terms {
                break;
            }
            terms = next;
        }
        terms
    }
}

/// The samples a fit can use: a finite positive measured time and finite datasheet times.
fn usable(samples: &[(KernelTimes, f64)]) -> Vec<(KernelTimes, f64)> {
    samples
        .iter()
        .copied()
        .filter(|(t, s)| s.is_finite() && *s > 0.0 && t.bound_s().is_finite())
        .collect()
}

/// What a profile's terms were fitted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profiled {
    /// GEMMs with activations and weights in `format`.
    Gemm {
        /// Activations and weights.
        format: Format,
    },
    /// Fused attention (head dimensions up to 256, keys and values stored apart) in one
    /// phase: prefill (many queries, causal) or decode (one query per sequence).
    Attention {
        /// Prefill or decode.
        phase: Phase,
        /// Queries, outputs and the tensor-core type.
        queries: Format,
        /// The KV cache.
        kv: Format,
    },
    /// Decode attention run by TensorRT-LLM's masked multi-head attention kernel, a block
    /// per query head ([`DecodeLayout::PerQueryHead`]): another kernel, fitted apart.
    PerQueryHeadDecode {
        /// Queries, outputs and the tensor-core type.
        queries: Format,
        /// The KV cache.
        kv: Format,
    },
    /// DeepSeek's latent attention in decode run by TensorRT-LLM's XQA MLA kernel on sm_120
    /// ([`DecodeLayout::XqaMla`]): another kernel, fitted apart.
    XqaMlaDecode {
        /// Queries, outputs and the tensor-core type.
        queries: Format,
        /// The latent cache.
        kv: Format,
    },
    /// DeepSeek's multi-head latent attention: absorbed over the shared latent cache in
    /// decode, expanded (keys wider than values) in prefill, as the analysis runs it
    /// (`analysis::mla_attention_shape`) and NVIDIA's MLA tables measure it.
    Mla {
        /// Prefill or decode.
        phase: Phase,
        /// Queries, outputs and the tensor-core type.
        queries: Format,
        /// The latent cache (decode); prefill attends in the activation format.
        kv: Format,
    },
    /// A fused MoE layer's routed experts ([`FusedMoe`], timed by [`KernelTimes::moe`]):
    /// routing, gate and up fused, SwiGLU, down and the weighted sum, one kernel group.
    Moe {
        /// The tokens' copies and the tensor-core type.
        activations: Format,
        /// The experts' weights.
        weights: Format,
    },
}

/// The widest head the attention profiles were fitted on (the tables' `head_dim` runs to
/// 256).
const PROFILED_HEAD_DIM: f64 = 256.0;

impl Profiled {
    /// The kernel `op` runs as under `precision`, when profiles are fitted for its kind:
    /// GEMMs with activations and weights in one format, fused attention of the kind the
    /// tables measured (heads up to 256 wide), and MLA.
    pub fn of(op: &Op, precision: &Precision) -> Option<Profiled> {
        match *op {
            Op::Gemm { .. } if precision.activations == precision.weights => Some(Profiled::Gemm {
                format: precision.activations,
            }),
            Op::FusedAttention(a) if a.is_latent() => Some(Profiled::Mla {
                phase: if a.shared_kv {
                    Phase::Decode
                } else {
                    Phase::Prefill
                },
                queries: precision.activations,
                kv: precision.kv,
            }),
            Op::FusedAttention(a) if a.qk_dim.max(a.v_dim) <= PROFILED_HEAD_DIM => {
                Some(Profiled::Attention {
                    phase: phase_of(&a),
                    queries: precision.activations,
                    kv: precision.kv,
                })
            }
            _ => None,
        }
    }

    /// `GEMM FP8`, `decode attention BF16, KV FP8`.
    pub fn name(&self) -> String {
        match self {
            Profiled::Gemm { format } => format!("GEMM {}", format.name()),
            Profiled::Attention { phase, queries, kv } => format!(
                "{} attention {}, KV {}",
                phase.name(),
                queries.name(),
                kv.name()
            ),
            Profiled::PerQueryHeadDecode { queries, kv } => format!(
                "decode attention {}, KV {}, a block per query head",
                queries.name(),
                kv.name()
            ),
            Profiled::Mla { phase, queries, kv } => {
                format!("{} MLA {}, KV {}", phase.name(), queries.name(), kv.name())
            }
            Profiled::XqaMlaDecode { queries, kv } => format!(
                "decode MLA {}, KV {}, XQA's sm_120 MLA kernel",
                queries.name(),
                kv.name()
            ),
            Profiled::Moe {
                activations,
                weights,
            } if activations == weights => format!("MoE {}", weights.name()),
            Profiled::Moe {
                activations,
                weights,
            } => format!(
                "MoE {} weights, {} activations",
                weights.name(),
                activations.name()
            ),
        }
    }

    /// The profile kind of a kernel of this kind laid out as `layout`: decode attention
    /// with a block per query head, and latent attention through XQA's sm_120 MLA kernel,
    /// are kernels of their own.
    pub fn laid_out(self, layout: DecodeLayout) -> Profiled {
        match (self, layout) {
            (
                Profiled::Attention {
                    phase: Phase::Decode,
                    queries,
                    kv,
                },
                DecodeLayout::PerQueryHead,
            ) => Profiled::PerQueryHeadDecode { queries, kv },
            (
                Profiled::Mla {
                    phase: Phase::Decode,
                    queries,
                    kv,
                },
                DecodeLayout::XqaMla,
            ) => Profiled::XqaMlaDecode { queries, kv },
            _ => self,
        }
    }
}

/// The serving framework whose kernels a profile was measured with: the same GEMM or
/// attention runs different kernels, with different fixed costs, in each (NVIDIA's tables
/// for B200 give a 4096-wide FP8 GEMM with 128 x 128 block scales at M = 8 11.6 us in
/// TensorRT-LLM and 61 us in vLLM).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Framework {
    /// NVIDIA TensorRT-LLM.
    #[default]
    TensorRtLlm,
    /// vLLM.
    Vllm,
    /// SGLang.
    Sglang,
}

impl Framework {
    /// Every framework, in a stable order.
    pub const ALL: [Framework; 3] = [Framework::TensorRtLlm, Framework::Vllm, Framework::Sglang];

    /// `TensorRT-LLM`, `vLLM`, `SGLang`.
    pub fn name(self) -> &'static str {
        match self {
            Framework::TensorRtLlm => "TensorRT-LLM",
            Framework::Vllm => "vLLM",
            Framework::Sglang => "SGLang",
        }
    }

    /// The short name on the command line and in links: `trtllm`, `vllm`, `sglang`.
    pub fn key(self) -> &'static str {
        match self {
            Framework::TensorRtLlm => "trtllm",
            Framework::Vllm => "vllm",
            Framework::Sglang => "sglang",
        }
    }

    /// The framework of a short name, or of the name NVIDIA's tables give it
    /// (`TRTLLM`, `VLLM`, `SGLang`), in any case.
    pub fn parse(name: &str) -> Option<Framework> {
        let name = name.to_ascii_lowercase();
        Framework::ALL
            .into_iter()
            .find(|f| name == f.key() || name == f.name().to_ascii_lowercase())
    }
}

/// Fitted terms for one device, framework and kernel, with the error they reach on shapes
/// they were not fitted on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Registry key.
    pub hardware: &'static str,
    /// The framework whose kernels were measured.
    pub framework: Framework,
    /// The kernel and its formats.
    pub kernel: Profiled,
    /// The terms.
    pub terms: KernelTerms,
    /// Median |predicted / measured - 1| on held-out shapes.
    pub held_out_median: f64,
    /// 90th percentile of the same.
    pub held_out_p90: f64,
    /// How a MoE profile's kernel tiles each expert's rows, as every row it was fitted on
    /// ran: [`MoeTiling::TrtllmGen`] or [`MoeTiling::Triton`]; [`MoeTiling::Copies`] for
    /// every other kernel.
    pub tiling: MoeTiling,
}

/// Where the shipped [`profiles`] come from.
pub const PROFILE_SOURCE: &str = "fitted by `rooflinr validate` on half of one framework's GEMM, attention and MoE shapes in NVIDIA's measured kernel tables (PyPI aiconfigurator-core 0.12.0, Apache-2.0), judged on the other half";

/// Profiles are shipped where their held-out median error is at most this: a fit that
/// misses by more (vLLM's block-scaled FP8 GEMMs on Hopper, 91-96 %; SGLang's BF16 MoE
/// layers on B300, GB200 and GB300, 26-27 %) would mislead more than the bound.
pub const SHIPPED_MEDIAN_ERROR: f64 = 0.25;

/// Profiles are shipped where their fixed time is under this: the launches, prologue and
/// epilogue of the slowest shipped kernels take 60-90 us (MoE layers of several launches
/// on Hopper); a fit past it has folded into its fixed time work it does not model
/// (vLLM's W4A16 MXFP4 MoE on B200, two kernels in one table: 123 us, with 7 % of the
/// peak compute rate).
pub const SHIPPED_MAX_FIXED_S: f64 = 100e-6;

mod dispatch;
mod profiles;

pub use dispatch::{
    DEEPGEMM_SCALE_ALIGNMENT, Dispatch, GemmScales, PrefillKernel, TRTLLM_DEEPGEMM_SWAP_BELOW,
    decode_layout, kernel_times, new_cache_bytes, phase_of, profiled_kind, sm120_fp8_block_m_steps,
    trtllm_deep_gemm_tile, writes_cache_apart,
};

/// The shipped profiles, per device, framework and kernel (`profiles.rs`, one line each).
pub fn profiles() -> impl ExactSizeIterator<Item = Profile> + Clone {
    profiles::PROFILES
        .iter()
        .map(profiles::StoredProfile::profile)
}

/// The profile of `kernel` in `framework` on `hardware`, when one is shipped.
pub fn profile(hardware: &str, framework: Framework, kernel: Profiled) -> Option<Profile> {
    profiles::PROFILES
        .iter()
        .find(|p| p.is(hardware, framework, kernel))
        .map(profiles::StoredProfile::profile)
}

/// Where a GEMM's activations come from, which decides whether a low-precision GEMM
/// runs the activation quantisation pass ([`KernelTimes::quantise_s`]) first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activations {
    /// BF16, quantised by a pass of their own before the GEMM: a serving framework's
    /// linear layer, and what NVIDIA's tables time.
    QuantisedFirst,
    /// Already in the GEMM's format: a library GEMM on low-precision operands (cuBLASLt's
    /// in the agent's `gpu-check`). The profile's fixed time still counts the pass's
    /// launch, which the tables do not time apart.
    InFormat,
}

impl Activations {
    /// What a calibrated figure says of activations in `format`: that no quantisation
    /// pass is counted, where the activations are low-precision and arrive in their
    /// format; `None` otherwise (16- and 32-bit activations need no pass either way).
    pub fn note(self, format: Format) -> Option<String> {
        (self == Activations::InFormat && format.bits_per_element() < 16.0)
            .then(|| format!("activations already in {format}: no quantisation pass"))
    }

    /// [`Activations::InFormat`] where `in_format`, else [`Activations::QuantisedFirst`]
    /// (a command line's `--activations-in-format`).
    pub fn in_format(in_format: bool) -> Activations {
        if in_format {
            Activations::InFormat
        } else {
            Activations::QuantisedFirst
        }
    }
}

/// The expected time of `op` on `hw` in `precision` under the shipped profile, with the
/// profile; `None` for operators with no profile for their kind, device and formats.
/// `prediction` is the datasheet roofline's. A GEMM's activations are quantised first
/// ([`Activations::QuantisedFirst`]), as in the tables the profiles are fitted on.
pub fn calibrated(
    op: &Op,
    precision: &Precision,
    hw: &Hardware,
    framework: Framework,
    prediction: &Prediction,
) -> Option<(f64, Profile)> {
    calibrated_with(
        op,
        precision,
        hw,
        framework,
        prediction,
        Activations::QuantisedFirst,
    )
}

/// [`calibrated`], with a GEMM's activations from `activations`.
pub fn calibrated_with(
    op: &Op,
    precision: &Precision,
    hw: &Hardware,
    framework: Framework,
    prediction: &Prediction,
    activations: Activations,
) -> Option<(f64, Profile)> {
    let (times, profile) = calibrated_times(
        op,
        precision,
        hw,
        Dispatch::of(framework),
        prediction,
        activations,
    )?;
    Some((profile.terms.predict(times), profile))
}

/// The datasheet times of `op` as `dispatch`'s kernels run it ([`kernel_times`]) and the
/// shipped profile that turns them into an expected time ([`KernelTerms::predict`]);
/// `None` where no profile is shipped for its kind, device and formats.
pub fn calibrated_times(
    op: &Op,
    precision: &Precision,
    hw: &Hardware,
    dispatch: Dispatch,
    prediction: &Prediction,
    activations: Activations,
) -> Option<(KernelTimes, Profile)> {
    let phase = match op {
        Op::FusedAttention(shape) => phase_of(shape),
        _ => Phase::Prefill,
    };
    let kind = profiled_kind(op, phase, precision, hw.sm_version(), dispatch.framework)?;
    let profile = profile(&hw.key, dispatch.framework, kind)?;
    let in_format = activations == Activations::InFormat;
    let times = kernel_times(op, precision, hw, (dispatch, phase), prediction, in_format)?;
    Some((times, profile))
}

/// The operators of a MoE block that a fused MoE kernel runs as one ([`FusedMoe`]): the
/// top-k routing over the router's logits, the routed experts' gate, up, SwiGLU and down,
/// and the weighted sum of each token's expert outputs. TensorRT-LLM's fused MoE module
/// applies its routing method inside its forward, after the router's GEMM (a GEMM of its
/// own, profiled as one), and NVIDIA's MoE tables time that forward.
pub const FUSED_MOE_OPS: [crate::analysis::OpId; 6] = {
    use crate::analysis::OpId;
    [
        OpId::RouterTopk,
        OpId::ExpertsGateProj,
        OpId::ExpertsUpProj,
        OpId::ExpertsSiluMul,
        OpId::ExpertsDownProj,
        OpId::MoeCombine,
    ]
};

/// A MoE block's routed experts on one GPU as the fused kernel runs them
/// ([`FUSED_MOE_OPS`]), read from the pass's operators.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FusedMoe {
    /// The layer's shape on this GPU.
    pub shape: MoeShape,
    /// The copies routed to this GPU's experts and the experts they touch.
    pub load: MoeLoad,
    /// The experts' formats.
    pub precision: Precision,
    /// Instances per pass (the MoE layers this GPU runs).
    pub count: f64,
}

impl FusedMoe {
    /// The fused layer of `ops` (one GPU's operators, its routed experts whole on each of
    /// `expert_parallel` GPUs, 1 where every expert is local or split by columns); `None`
    /// for a pass with no routed experts.
    pub fn of(ops: &[crate::analysis::OpReport], expert_parallel: f64) -> Option<FusedMoe> {
        use crate::analysis::OpId;
        let find = |id: OpId| ops.iter().find(|o| o.id == id);
        let gate = find(OpId::ExpertsGateProj)?;
        let Op::BatchedGemm {
            batch: touched,
            m: per_expert,
            k: hidden,
            ..
        } = gate.op
        else {
            return None;
        };
        let Op::BatchedGemm {
            k: intermediate, ..
        } = find(OpId::ExpertsDownProj)?.op
        else {
            return None;
        };
        let Op::MoeCombine { tokens, top_k, .. } = find(OpId::MoeCombine)?.op else {
            return None;
        };
        let Op::RouterTopK { experts, .. } = find(OpId::RouterTopk)?.op else {
            return None;
        };
        Some(FusedMoe {
            shape: MoeShape {
                tokens,
                hidden,
                intermediate,
                top_k,
                experts,
                expert_parallel,
                // The analysis runs routed experts as SwiGLU: gate and up.
                gated: true,
            },
            load: MoeLoad {
                assignments: touched * per_expert,
                experts_touched: touched,
            },
            precision: gate.precision,
            count: gate.count,
        })
    }

    /// One layer of `shape` in `precision` under a router that spreads tokens evenly at
    /// random ([`MoeLoad::uniform`]).
    pub fn uniform(shape: MoeShape, precision: Precision) -> FusedMoe {
        FusedMoe {
            shape,
            load: MoeLoad::uniform(&shape),
            precision,
            count: 1.0,
        }
    }

    /// Its profile kind.
    pub fn kind(&self) -> Profiled {
        Profiled::Moe {
            activations: self.precision.activations,
            weights: self.precision.weights,
        }
    }

    /// Its datasheet times on `hw`, each expert's rows computed in `tiling`'s tiles
    /// ([`Profile::tiling`]).
    pub fn times(&self, hw: &Hardware, tiling: MoeTiling) -> KernelTimes {
        KernelTimes::moe(
            &self.shape,
            &self.load,
            &self.precision,
            hw,
            self.tile_rows(tiling),
        )
    }

    /// The token rows of each expert's tiles under `tiling`; `None` for
    /// [`MoeTiling::Copies`].
    pub fn tile_rows(&self, tiling: MoeTiling) -> Option<u64> {
        tiling.tile_rows(
            self.shape.tokens.round() as u64,
            self.shape.top_k.round() as u64,
            (self.shape.experts / self.shape.expert_parallel).round() as u64,
            &self.precision,
        )
    }

    /// Its expected time per instance under the shipped profile for `framework` on `hw`,
    /// with the profile; `None` where none is shipped.
    pub fn calibrated(
        &self,
        hw: &Hardware,
        framework: Framework,
        activations: Activations,
    ) -> Option<(f64, Profile)> {
        let profile = profile(&hw.key, framework, self.kind())?;
        let mut times = self.times(hw, profile.tiling);
        if activations == Activations::InFormat {
            times.quantise_s = 0.0;
        }
        Some((profile.terms.predict(times), profile))
    }
}

/// A whole pass with every operator that has a shipped profile (GEMMs, attention, and a
/// MoE block's routed experts as one fused layer, [`FusedMoe`]) at its expected time and
/// every other operator at its roofline bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CalibratedPass {
    /// Seconds for the pass.
    pub time_s: f64,
    /// Operators (kinds, not instances) at their expected time.
    pub calibrated_ops: usize,
    /// Operators left at the bound (no profile for their kind, device and formats).
    pub bound_ops: usize,
    /// Whether a MoE block's routed experts ([`FUSED_MOE_OPS`], counted among
    /// `calibrated_ops`) are at the fused layer's expected time.
    pub fused_moe: bool,
}

/// What a calibrated pass says where a MoE block's routed experts ([`FUSED_MOE_OPS`]) are
/// at the fused layer's expected time.
pub const FUSED_MOE_NOTE: &str =
    "a MoE block's routing, gate, up, SwiGLU, down and weighted sum as one fused MoE layer";

impl CalibratedPass {
    /// [`FUSED_MOE_NOTE`] where the routed experts are one fused layer
    /// ([`CalibratedPass::fused_moe`]).
    pub fn moe_note(&self) -> Option<&'static str> {
        self.fused_moe.then_some(FUSED_MOE_NOTE)
    }
}

/// The calibrated time of a pass made of `ops` on `hw` with `framework`'s kernels.
pub fn calibrated_pass(
    ops: &[crate::analysis::OpReport],
    hw: &Hardware,
    framework: Framework,
) -> CalibratedPass {
    calibrated_pass_with(ops, hw, framework, Activations::QuantisedFirst)
}

/// [`calibrated_pass`], with every GEMM's and fused MoE layer's activations from
/// `activations` ([`Activations::InFormat`]: a what-if where each low-precision GEMM's
/// quantisation pass is fused into the kernel before it, so none runs on its own).
pub fn calibrated_pass_with(
    ops: &[crate::analysis::OpReport],
    hw: &Hardware,
    framework: Framework,
    activations: Activations,
) -> CalibratedPass {
    calibrated_pass_placed(ops, hw, framework, activations, 1.0)
}

/// The operator whose GEMM the serving engines run `id`'s in, over the concatenated
/// weights of both (one kernel, one fixed cost): the key and value projections in the
/// query's (`QKVParallelLinear` in vLLM's and SGLang's models; TensorRT-LLM's fused QKV
/// linear), the up projections in the gates' (`MergedColumnParallelLinear`; TensorRT-LLM's
/// fused gate-up linear), and MLA's KV down-projection in the query's
/// (`fused_qkv_a_proj_with_mqa` in SGLang's and vLLM's DeepSeek models).
pub fn fused_into(id: crate::analysis::OpId) -> Option<crate::analysis::OpId> {
    use crate::analysis::OpId;
    Some(match id {
        OpId::KProj | OpId::VProj => OpId::QProj,
        OpId::UpProj => OpId::GateProj,
        OpId::SharedExpertUpProj => OpId::SharedExpertGateProj,
        OpId::KvAProj => OpId::QAProj,
        _ => return None,
    })
}

/// How the engines launch an operator of a pass ([`fused_into`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Launch {
    /// As its own kernel, or with the GEMMs fused into it: the GEMM it runs as (its own
    /// shape widened by theirs) with its roofline prediction under its own roof.
    Runs(Op, Prediction),
    /// Inside the GEMM of the operator at this index.
    Inside(usize),
}

/// How the engines launch each operator of `ops` ([`Launch`]).
pub fn launched(ops: &[crate::analysis::OpReport]) -> Vec<Launch> {
    let mut out: Vec<Launch> = ops
        .iter()
        .map(|o| Launch::Runs(o.op, o.result.prediction))
        .collect();
    for (i, o) in ops.iter().enumerate() {
        let (Some(target), Op::Gemm { m, n, k, .. }) = (fused_into(o.id), o.op) else {
            continue;
        };
        let Some(t) = ops.iter().position(|x| {
            x.id == target
                && x.count == o.count
                && x.precision.weights == o.precision.weights
                && x.precision.activations == o.precision.activations
                && matches!(x.op, Op::Gemm { m: tm, k: tk, .. } if tm == m && tk == k)
        }) else {
            continue;
        };
        let Launch::Runs(
            Op::Gemm {
                m: tm,
                n: tn,
                k: tk,
                bias,
            },
            p,
        ) = out[t]
        else {
            continue;
        };
        let wide = Op::Gemm {
            m: tm,
            n: tn + n,
            k: tk,
            bias,
        };
        // The target's roof: its bandwidth and compute rate as its prediction used them.
        let roof = crate::roofline::Roof {
            bandwidth: p.work.bytes / p.memory_time,
            peak: p.work.flops / p.compute_time,
        };
        out[t] = Launch::Runs(wide, roof.predict(wide.cost(&ops[t].precision).work));
        out[i] = Launch::Inside(t);
    }
    out
}

/// [`calibrated_pass_with`] for one GPU of a deployment whose routed experts are whole on
/// each of `expert_parallel` GPUs (1: every expert local, or each split by columns). GEMMs
/// the engines fuse run as one ([`fused_into`]).
pub fn calibrated_pass_placed(
    ops: &[crate::analysis::OpReport],
    hw: &Hardware,
    framework: Framework,
    activations: Activations,
    expert_parallel: f64,
) -> CalibratedPass {
    let moe = FusedMoe::of(ops, expert_parallel)
        .and_then(|m| Some(m.calibrated(hw, framework, activations)?.0 * m.count));
    let mut pass = CalibratedPass {
        time_s: moe.unwrap_or(0.0),
        calibrated_ops: 0,
        bound_ops: 0,
        fused_moe: moe.is_some(),
    };
    let launches = launched(ops);
    for (i, (o, launch)) in ops.iter().zip(&launches).enumerate() {
        if moe.is_some() && FUSED_MOE_OPS.contains(&o.id) {
            pass.calibrated_ops += 1;
            continue;
        }
        // Run inside another operator's GEMM: costed with it.
        let Launch::Runs(op, prediction) = launch else {
            continue;
        };
        let inside: Vec<&crate::analysis::OpReport> = ops
            .iter()
            .zip(&launches)
            .filter(|(_, l)| **l == Launch::Inside(i))
            .map(|(x, _)| x)
            .collect();
        match calibrated_with(op, &o.precision, hw, framework, prediction, activations) {
            Some((t, _)) => {
                pass.time_s += t * o.count;
                pass.calibrated_ops += 1 + inside.len();
            }
            None => {
                // No profile: each at its own bound, as the analysis has them.
                pass.time_s += o.time.get() + inside.iter().map(|x| x.time.get()).sum::<f64>();
                pass.bound_ops += 1 + inside.len();
            }
        }
    }
    pass
}

#[cfg(test)]
mod tests {
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
        assert!(
            (quantise_time(&warm, slow.bandwidth, slow.l2_bandwidth, 0.0) - 2e-6).abs() < 1e-18
        );
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
            (prefill.compute_s / p.compute_time.get() - 72.0 * 8192.0 / (1024.0 * 1025.0 / 2.0))
                .abs()
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
        let a =
            analysis::analyze(&config, hw, &scenario, &crate::roofline::Efficiency::IDEAL).unwrap();
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
                Launch::Runs(op, p) => {
                    calibrated(&op, &o.precision, &hw, Framework::TensorRtLlm, &p)
                        .map_or(o.time.get(), |(t, _)| t * o.count)
                }
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
                        o.count
                            * activation_quantisation_bytes(m as u64, k as u64, Format::Fp8E4m3)
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
        let table = include_str!("../../../docs/gpu-runs/h200-2026-11-26/cublaslt-compare.txt");
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
        let (_, profile) =
            calibrated(&mla, &p, &hw, Framework::TensorRtLlm, &r.prediction).unwrap();
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
}
