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

mod attention;
pub use attention::{
    ATTENTION_HEAD_DIMS, DecodeLayout, PrefillTile, XQA_MAX_GROUP, attention_tile_pairs,
    flash_attention_2_splits, prefill_key_tile, xqa_parts,
};
use attention::{TRITON_DECODE_HEADS, TRITON_DECODE_SPLITS, attention_head_dim};

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
    /// [`fit::QUANTISE_L2_BANDWIDTHS`]). Read off NVIDIA's tables (TensorRT-LLM's NVFP4 GEMMs on
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
    /// [`fit::WRITE_BANDWIDTHS`]): a GEMM's output, a MoE layer's token traffic. Read off NVIDIA's
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
    /// Fitted on a ladder ([`fit::QUANTISE_STEP_S`]).
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

/// x^p, without `powf` for the exponents the fit tries ([`fit::OVERLAPS`]): `powf` took 40 % of
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
mod fit;
pub use fit::HIDDEN_TILE_SHARES;
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

mod calibrate;
pub use calibrate::{
    Activations, CalibratedPass, FUSED_MOE_NOTE, FUSED_MOE_OPS, FusedMoe, Launch, calibrated,
    calibrated_pass, calibrated_pass_placed, calibrated_pass_with, calibrated_times,
    calibrated_with, fused_into, launched,
};

#[cfg(test)]
mod tests;
