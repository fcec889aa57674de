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

mod attention;
mod calibrate;
mod dispatch;
mod fit;
mod gemm;
mod moe;
mod profiles;
mod times;

pub use attention::{
    ATTENTION_HEAD_DIMS, DecodeLayout, PrefillTile, XQA_MAX_GROUP, attention_tile_pairs,
    flash_attention_2_splits, prefill_key_tile, xqa_parts,
};
use attention::{TRITON_DECODE_HEADS, TRITON_DECODE_SPLITS, attention_head_dim};
pub use calibrate::{
    Activations, CalibratedPass, FUSED_MOE_NOTE, FUSED_MOE_OPS, FusedMoe, Launch, calibrated,
    calibrated_pass, calibrated_pass_placed, calibrated_pass_with, calibrated_times,
    calibrated_with, fused_into, launched,
};
pub use dispatch::{
    DEEPGEMM_SCALE_ALIGNMENT, Dispatch, GemmScales, PrefillKernel, TRTLLM_DEEPGEMM_SWAP_BELOW,
    decode_layout, kernel_times, new_cache_bytes, phase_of, profiled_kind, sm120_fp8_block_m_steps,
    trtllm_deep_gemm_tile, writes_cache_apart,
};
pub use fit::HIDDEN_TILE_SHARES;
pub use gemm::{
    GemmTile, activation_quantisation_bytes, gemm_tile_rows, per_token_quantise_steps,
    reduced_split_k, reduces_partial_sums, serial_tile_share, tile_efficiency,
};
pub use moe::{MoeLoad, MoeShape, MoeTiling, triton_moe_tile, trtllm_gen_moe_tile};
pub use times::KernelTimes;

use crate::analysis::Phase;
use crate::format::Format;
use crate::hardware::Hardware;
use crate::ops::{AttentionShape, Op, Precision};
use crate::roofline::{Efficiency, Prediction};
use crate::stats::median;

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

#[cfg(test)]
mod tests;
