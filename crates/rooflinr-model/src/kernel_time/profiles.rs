//! The shipped kernel profiles, one line each. `rooflinr validate --tables DIR --profiles`
//! prints these lines from its fits; `cargo xtask validate` refits them and says whether
//! each still matches.

use super::{ATTENTION_HEAD_DIMS, Framework, KernelTerms, MoeTiling, Profile, Profiled};
use crate::analysis::Phase::{self, Decode, Prefill};
use crate::format::Format::{self, Bf16, Fp8E4m3, MxFp4, MxFp8E4m3, NvFp4};
use Framework::{Sglang, TensorRtLlm, Vllm};
use MoeTiling::{Triton, TrtllmGen};

/// One shipped profile as the bundle stores it: the figures in `f32` (the fits print six
/// significant digits, which an `f32` holds to within 1e-7), so the 344 profiles take 9 KB
/// less of the calculator's gzipped bundle than as [`Profile`]s; [`StoredProfile::profile`]
/// widens one for use.
#[derive(Clone, Copy, Debug)]
pub(super) struct StoredProfile {
    hardware: &'static str,
    framework: Framework,
    kernel: Profiled,
    /// `p`'s terms, as there.
    terms: [f32; 7],
    head_compute: [f32; ATTENTION_HEAD_DIMS.len()],
    head_fixed: [f32; ATTENTION_HEAD_DIMS.len()],
    route_rate: f32,
    quantise_bandwidth: Option<f32>,
    quantise_l2_bandwidth: Option<f32>,
    write_bandwidth: Option<f32>,
    hidden_tile_share: f32,
    /// Microseconds.
    scale_copy_us: f32,
    /// Microseconds.
    quantise_step_us: f32,
    held_out_median: f32,
    held_out_p90: f32,
    tiling: MoeTiling,
}

impl StoredProfile {
    /// Whether this is the profile of `kernel` in `framework` on `hardware`.
    pub(super) fn is(&self, hardware: &str, framework: Framework, kernel: Profiled) -> bool {
        self.hardware == hardware && self.framework == framework && self.kernel == kernel
    }

    /// The profile this stores.
    pub(super) fn profile(&self) -> Profile {
        let wide = |x: [f32; ATTENTION_HEAD_DIMS.len()]| x.map(f64::from);
        let t = self.terms.map(f64::from);
        Profile {
            hardware: self.hardware,
            framework: self.framework,
            kernel: self.kernel,
            terms: KernelTerms {
                fixed_s: t[0] * 1e-6,
                bandwidth: t[1],
                compute: t[2],
                per_wave_s: t[3] * 1e-6,
                tile_bandwidth: t[4],
                l2_bandwidth: t[5],
                overlap: t[6],
                head_compute: wide(self.head_compute),
                head_fixed: wide(self.head_fixed),
                route_rate: f64::from(self.route_rate),
                quantise_bandwidth: self.quantise_bandwidth.map(f64::from),
                quantise_l2_bandwidth: self.quantise_l2_bandwidth.map(f64::from),
                write_bandwidth: self.write_bandwidth.map(f64::from),
                hidden_tile_share: f64::from(self.hidden_tile_share),
                scale_copy_s: f64::from(self.scale_copy_us) * 1e-6,
                quantise_step_s: f64::from(self.quantise_step_us) * 1e-6,
            },
            held_out_median: f64::from(self.held_out_median),
            held_out_p90: f64::from(self.held_out_p90),
            tiling: self.tiling,
        }
    }

    /// This profile with its activation quantisation pass at `fraction` of the datasheet
    /// bandwidth ([`KernelTerms::quantise_bandwidth`]).
    const fn quantised_at(mut self, fraction: f64) -> StoredProfile {
        self.quantise_bandwidth = Some(fraction as f32);
        self
    }

    /// This profile with its activation quantisation pass served by the L2 at `rate` times
    /// the datasheet bandwidth ([`KernelTerms::quantise_l2_bandwidth`]).
    const fn quantised_from_l2_at(mut self, rate: f64) -> StoredProfile {
        self.quantise_l2_bandwidth = Some(rate as f32);
        self
    }

    /// This profile with its output written at `fraction` of the datasheet bandwidth
    /// ([`KernelTerms::write_bandwidth`]).
    const fn writes_at(mut self, fraction: f64) -> StoredProfile {
        self.write_bandwidth = Some(fraction as f32);
        self
    }

    /// This MoE profile with its routing pass at `rate` times the datasheet bandwidth
    /// ([`KernelTerms::route_rate`]).
    const fn routes_at(mut self, rate: f64) -> StoredProfile {
        self.route_rate = rate as f32;
        self
    }

    /// This attention profile with each head width's fixed time at `ratios` of its fixed
    /// time ([`KernelTerms::head_fixed`]).
    const fn fixed_by_head_width(
        mut self,
        ratios: [f64; ATTENTION_HEAD_DIMS.len()],
    ) -> StoredProfile {
        self.head_fixed = narrow(ratios);
        self
    }

    /// This prefill attention profile with a tile its window hides costing `share` of a
    /// computed one ([`KernelTerms::hidden_tile_share`]).
    const fn walks_hidden_tiles_at(mut self, share: f64) -> StoredProfile {
        self.hidden_tile_share = share as f32;
        self
    }

    /// This GEMM profile with a copy of the activations' scales taking `us` microseconds
    /// ([`KernelTerms::scale_copy_s`]). `validate --profiles` writes it for fits with a copy;
    /// none ships today (vLLM's block-scaled FP8 GEMMs miss the shipping median).
    #[allow(dead_code)]
    const fn copies_scales_in(mut self, us: f64) -> StoredProfile {
        self.scale_copy_us = us as f32;
        self
    }

    /// This GEMM profile with a per-token quantisation pass whose steps take `us`
    /// microseconds each ([`KernelTerms::quantise_step_s`]).
    const fn quantised_in_steps_of(mut self, us: f64) -> StoredProfile {
        self.quantise_step_us = us as f32;
        self
    }

    /// This MoE profile computing each expert's rows in `tiling`'s tiles
    /// ([`Profile::tiling`]).
    const fn in_tiles(mut self, tiling: MoeTiling) -> StoredProfile {
        self.tiling = tiling;
        self
    }
}

/// The plain roofline's terms, whose optional ones a stored profile starts from.
const ROOFLINE: KernelTerms = KernelTerms::ROOFLINE;

/// `x` in `f32`.
const fn narrow_option(x: Option<f64>) -> Option<f32> {
    match x {
        Some(x) => Some(x as f32),
        None => None,
    }
}

/// `x` in `f32`.
const fn narrow<const N: usize>(x: [f64; N]) -> [f32; N] {
    let mut out = [0.0; N];
    let mut i = 0;
    while i < N {
        out[i] = x[i] as f32;
        i += 1;
    }
    out
}

/// One profile; `terms` are [fixed time in µs, bandwidth fraction, compute fraction,
/// latency per wave in µs, tile bandwidth fraction, L2 rate for re-reads as a multiple of the
/// DRAM bandwidth (`f64::INFINITY` where the kernel re-reads nothing), overlap exponent
/// (`f64::INFINITY` for the roofline's max)].
const fn p(
    hardware: &'static str,
    framework: Framework,
    kernel: Profiled,
    terms: [f64; 7],
    held_out_median: f64,
    held_out_p90: f64,
) -> StoredProfile {
    StoredProfile {
        hardware,
        framework,
        kernel,
        terms: narrow(terms),
        // The roofline's: each term below is set by the builder that names it.
        head_compute: narrow(ROOFLINE.head_compute),
        head_fixed: narrow(ROOFLINE.head_fixed),
        route_rate: ROOFLINE.route_rate as f32,
        quantise_bandwidth: narrow_option(ROOFLINE.quantise_bandwidth),
        quantise_l2_bandwidth: narrow_option(ROOFLINE.quantise_l2_bandwidth),
        write_bandwidth: narrow_option(ROOFLINE.write_bandwidth),
        hidden_tile_share: ROOFLINE.hidden_tile_share as f32,
        scale_copy_us: (ROOFLINE.scale_copy_s * 1e6) as f32,
        quantise_step_us: (ROOFLINE.quantise_step_s * 1e6) as f32,
        held_out_median: held_out_median as f32,
        held_out_p90: held_out_p90 as f32,
        tiling: MoeTiling::Copies,
    }
}

/// One attention profile whose kernels reach their own share of the peak at each
/// head width: `p`'s terms and `head_compute`, the compute time of each width of
/// [`ATTENTION_HEAD_DIMS`] relative to the compute fraction's ([`KernelTerms::head_compute`]).
const fn ph(
    hardware: &'static str,
    framework: Framework,
    kernel: Profiled,
    terms: [f64; 7],
    head_compute: [f64; ATTENTION_HEAD_DIMS.len()],
    held_out_median: f64,
    held_out_p90: f64,
) -> StoredProfile {
    let mut profile = p(
        hardware,
        framework,
        kernel,
        terms,
        held_out_median,
        held_out_p90,
    );
    profile.head_compute = narrow(head_compute);
    profile
}

const fn gemm(format: Format) -> Profiled {
    Profiled::Gemm { format }
}

const fn attention(phase: Phase, queries: Format, kv: Format) -> Profiled {
    Profiled::Attention { phase, queries, kv }
}

const fn per_query_head(queries: Format, kv: Format) -> Profiled {
    Profiled::PerQueryHeadDecode { queries, kv }
}

const fn mla(phase: Phase, queries: Format, kv: Format) -> Profiled {
    Profiled::Mla { phase, queries, kv }
}

const fn xqa_mla(queries: Format, kv: Format) -> Profiled {
    Profiled::XqaMlaDecode { queries, kv }
}

const fn moe(activations: Format, weights: Format) -> Profiled {
    Profiled::Moe {
        activations,
        weights,
    }
}

/// The shipped profiles, per device, framework and kernel (`cargo xtask validate` refits
/// them and says whether each still matches): TensorRT-LLM's fitted on half its shapes and
/// judged on the other half, vLLM's and SGLang's the same way on their own tables (terms
/// fitted on TensorRT-LLM miss their kernels by 20-95 % median: other kernels, other fixed
/// costs); where a framework's releases ran different kernels, on its newest release's
/// tables alone (vLLM 0.24 on B200 and H200, SGLang 0.5.14 on Hopper), the kernels it runs now. Not every term is a property of the chip alone:
///
/// - GEMM: FP8's fixed time (12-14 us, against 2-3 us for BF16) is several kernels' worth,
///   consistent with the measured FP8 path running more than the GEMM and the quantisation
///   pass counted here (a scale reduction, for one; not verified), and NVFP4's bandwidth
///   fraction (59-62 % on B200, GB200, B300 and GB300) is low for a streaming kernel: its
///   GEMMs read more than the packed bytes this model counts (not verified). Epilogues
///   write the output slower than the operands stream ([`KernelTerms::write_bandwidth`]):
///   TensorRT-LLM's GEMMs at 50-84 % of the datasheet bandwidth, its NVFP4 GEMMs on B300
///   and GB300 at 18-21 % (about 1.4-1.7 TB/s, where B200's reach 42 %, 3.4 TB/s): before
///   that term, B300's NVFP4 profile read its slow writes as a bandwidth fraction of 34 %
///   (held-out p90 28 %; with it, and the terms refined, 21 %). The tile rate is one SM's for kernels that keep
///   each output tile on one SM (TensorRT-LLM's NVFP4: 40-60 GB/s of weights) and several SMs' for
///   those that split K (TensorRT-LLM's BF16 and FP8 on Blackwell: 0.55-1.7 TB/s, B200's
///   FP8 at the whole bandwidth; Hopper's BF16 2.1-2.8 TB/s; A100's BF16 shows no such
///   limit, fitted at the whole bandwidth). Kernels that split K reduce the partial sums
///   in a second kernel ([`super::reduces_partial_sums`]): the per-wave latency of its
///   two dependent steps reads 0.8-1.2 us in TensorRT-LLM's tables (none for H100's FP8),
///   about a kernel launch each. The L2 rate of a GEMM profile is the one a benchmark loop's
///   cached operands are read at ([`super::KernelTimes::warm`]): 1.2-1.8x the DRAM's
///   datasheet rate on L40S, the DRAM's fraction on A100 and Hopper (no gain), infinite
///   (unused) where the registry has no L2 size; the product's own predictions read
///   weights from DRAM and never use it. The overlap of memory traffic and tensor-core
///   work ([`super::overlapped`]) fits p = 4 for TensorRT-LLM's BF16 on H100, 2 on H200,
///   Blackwell and L40S, 1.5 on A100; FP8 and NVFP4 GEMMs 1-2, vLLM's often 1 (the sum):
///   the quantisation and scale handling around the low-precision GEMMs is not hidden
///   behind their tensor-core work, our reading, not verified. TensorRT-LLM's NVFP4 GEMMs
///   on B200, B300, GB200 and GB300 fit their compute fraction at or near its cap
///   (0.94-1.0; on RTX PRO 6000 too, 0.97, and SGLang's there 1.0): with each
///   SM walking its tiles' K loops in series ([`super::serial_tile_share`]), that walk,
///   not the tensor cores, is what binds their large GEMMs (B200 at 16,384 cubed takes
///   2.8 ms, 35 % of the datasheet FP4 peak), so the tensor cores' own fraction is not
///   measured by these tables.
/// - Attention: the tables time each framework's whole attention op, so the fixed time
///   (3-13 us in TensorRT-LLM) holds the kernels around the attention proper (rotary
///   embedding, the KV cache append). Decode's compute fraction reads 6-8 % of the dense
///   tensor peak for TensorRT-LLM on Hopper (found from the fit's second start,
///   [`super::KernelTerms::fit`]): a KV head's few query heads fill a few rows of each
///   matrix instruction's tile (4-8 of Hopper's 64: 6-12 %), our reading, not verified. On
///   Blackwell it reads 14-60 %, with an overlap of 1-2: there a lower overlap and a higher
///   fraction fit the same rows about equally (the two terms trade off near the ridge
///   point). Where it reads 100 % its compute term never binds, not because the tensor
///   cores run at peak. Prefill's bandwidth fraction (23-100 % in TensorRT-LLM's tables) is
///   read off short prompts, whose bytes hardly matter. Prefill fits no overlap (p = 1, the
///   sum) for 9 of TensorRT-LLM's 25 devices and dtypes (14 of 23 before each head width
///   had its own compute fraction: the sum had absorbed part of the widths' different
///   rates): FlashAttention's softmax sits between its two matrix products, our reading,
///   not verified. Prefill's compute
///   fraction is read off each head width apart where a group has two or more (`ph`:
///   [`super::KernelTerms::head_compute`]), one kernel per head size as TensorRT-LLM builds
///   them: on L40S and RTX PRO 6000 FP8 reaches 37 / 46 % of its peak at width 128 and
///   10 / 11 % at 256 (that width's kernel is slower than BF16's there; not verified
///   why), BF16 at width 192 55-60 % of the other widths' share; on Blackwell width 64
///   two thirds to three quarters of width 128's (Hopper: 75-90 %). With an FP8 cache,
///   BF16 prefill reads 83-100 % of the BF16 peak on Hopper and B300 at widths 128 and
///   256: those kernels likely multiply in FP8 (our reading, not verified). Each width's
///   kernel has a fixed time of its own too (`fixed_by_head_width`,
///   [`super::KernelTerms::head_fixed`]: the profile's fixed time times each width's
///   ratio): TensorRT-LLM's widths mostly sit within 15 % of one another (width 512 on
///   Blackwell 20-30 % under the rest, H100's width 128 18 % under, the FP8 kernels of
///   widths 128 and 192 on L40S and RTX PRO 6000 35-45 % under); SGLang's width 192 (its
///   Triton kernel) takes 14-16 us on Blackwell, 2.0-2.5x its other widths', which one
///   fixed time for all had missed by 40-60 % on short prompts. Decode kernels are read
///   per width the same way: SGLang's width 192 (Triton again) takes 1.6-2.3x its other
///   widths' fixed time, TensorRT-LLM's Hopper decode over an FP8 cache 0.7x at widths 128
///   to 256. Decode's per-width compute shares are read off few compute-bound rows, and
///   where one sits at its clamp (2 % or the whole peak: vLLM's and SGLang's decode over an
///   FP8 cache on Blackwell) it absorbs that width's kernel running slower or faster than
///   the group's, with no physical reading of its own. The latency
///   per wave (about 1-6 us) is one block's chain of dependent steps; 27 prefill profiles
///   (TensorRT-LLM's BF16 on L40S and RTX PRO 6000, and most of vLLM's and SGLang's) fit
///   better with none, their work growing with their waves. Decode's tile rate is one
///   block's: 21-36 GB/s for TensorRT-LLM's XQA
///   blocks on A100, Hopper and L40S (on H100 and H200, 26 and 36 GB/s: each one's
///   bandwidth over its 132 SMs),
///   5-15 GB/s for its MLA decode on A100, L40S and RTX PRO 6000 (a block per sequence,
///   walking the latent cache; no dedicated MLA kernel there), and 1,250-2,700 GB/s where
///   the kernel splits each sequence over many SMs (Hopper's MLA, Blackwell's trtllm-gen
///   kernels), so there it is the rate one sequence streams at. The MLA fits with an FP8
///   cache on A100 and L40S read only 20-41 % of the bandwidth: their kernels convert the
///   cache on the way, not verified. SGLang's prefill tables hold its Triton kernel's rows,
///   which walk every causal key tile under a sliding window and skip hidden ones at run
///   time: a tile the window hides fits 3/4 to a whole computed tile's time on Blackwell,
///   1/2 on L40S, 3/8-1 on RTX PRO 6000, and on Hopper a whole one for BF16 and FP8
///   queries, 1/8-1/4 with an FP8 cache under BF16 queries
///   ([`super::KernelTerms::hidden_tile_share`], `walks_hidden_tiles_at`). The product
///   cannot tell which kernel a framework runs, and counts no hidden tiles: the share
///   changes its SGLang predictions only through the other terms fitted with it.
/// - TensorRT-LLM's masked multi-head attention (`per_query_head`: above 32 query heads per
///   KV head, and plain multi-head attention on sm_80 to sm_90) reads its KV head's cache
///   once from the DRAM and once more from the L2 for each further query head: the L2 fits
///   at 4.6 TB/s on A100, 6.1-9.2 TB/s on Hopper, Blackwell, L40S and RTX PRO 6000 with a
///   BF16 cache (0.8-8 TB/s for FP8 caches, which are converted as they are read). On
///   A100, Blackwell and RTX PRO 6000 each block streams at 41-55 GB/s in BF16, 28-32 in
///   FP8; on Hopper and L40S, whose group also holds plain multi-head attention (which
///   this kernel splits over blocks when sequences are long), no such per-block limit
///   fits, and the tile rate there has no physical reading. vLLM's FlashAttention-2 decode
///   under a sliding window on L40S and RTX PRO 6000 ([`super::DecodeLayout::of`]) runs a
///   block per query head too, and fits the same way: the L2 at 4.7 and 8.3 TB/s, each
///   block streaming at 28-29 GB/s, and 3.6 us of latency per wave of blocks, which is what
///   its many blocks cost at short sequences (batch 1,024 by 64 query heads: 1.7 ms).
/// - MoE (`moe`: a fused layer's routed experts, [`super::FusedMoe`]; gated kernels under
///   ordinary routing, the non-gated and min-latency kernels judged in `validate`, not
///   shipped): the fixed time is 20-45 us for TensorRT-LLM on every device (69-73 us for
///   its W4A16 MXFP4 kernel on Hopper, 62 us for W4A8 on RTX PRO 6000), several kernels'
///   worth (routing, the gather in expert order, two grouped GEMMs, the weighted sum).
///   BF16 and FP8 layers reach 76-89 % of the bandwidth. NVFP4 reads lower (44 % on B200,
///   57 % on GB200, 67-68 % on B300 and GB300) and TRT-LLM-Gen's W4A16 MXFP4 kernel on
///   Blackwell 19-20 %: one fraction holds both the many layers whose time is mostly per
///   expert overhead and the few that stream gigabytes of weights, and the latter are
///   predicted long (B200 NVFP4 rows whose weights take 500 us or more at the datasheet
///   bandwidth: median +36 %, where the bound is -50 %; a DeepSeek-V3-shaped layer with
///   all 256 experts on one B200, 256 tokens: 1.95 ms against 1.08 ms measured). The routing pass
///   ([`KernelTerms::route_rate`]) fits at a sixteenth to four times the datasheet
///   bandwidth (see `validate`'s "MoE routing pass" column). The L2 rate of a MoE profile
///   is the one the tables' loop over one layer's weights and tokens reads its cached
///   share at ([`super::found_in_l2`]): 0.2-3.3x the DRAM's datasheet rate on Hopper
///   (TensorRT-LLM's at its bandwidth fraction), none fitted on Blackwell, 0.9-5.5x on L40S
///   and RTX PRO 6000. Some have no physical reading: vLLM 0.24's BF16 on H200 fits 42x,
///   and SGLang's Triton kernel, once its padded tiles are counted, 35x on the A100 and
///   183x for W4A16 MXFP4 on L40S (3.1x on the H100): the fit then finds the loop's cached
///   share nearly free, which we have not explained. Held at the bandwidth fraction (the L2
///   no faster than the DRAM), the L40S's fit was worse: held-out p90 75 -> 139 %. The product's layers read
///   their weights from DRAM and never use it.
///   Profiles marked
///   `in_tiles(TrtllmGen)` were fitted on TRT-LLM-Gen kernels only, which compute whole
///   tiles of rows per expert ([`super::trtllm_gen_moe_tile`]), `in_tiles(Triton)` on
///   SGLang's Triton fused MoE only ([`super::triton_moe_tile`]); a framework whose MoE
///   table mixes kernels of different tiles is fitted on the tiling most of its rows ran.
// Fitted figures: one may happen to lie near a mathematical constant (0.318).
#[allow(clippy::approx_constant)]
#[rustfmt::skip]
pub(super) const PROFILES: &[StoredProfile] = &[
    p("a100-sxm", TensorRtLlm, gemm(Bf16), [3.33706, 0.821972, 0.871104, 1.14592, 1.0, 0.821972, 1.5], 0.074, 0.221).writes_at(0.4204),
    p("a100-sxm", Sglang, gemm(Bf16), [3.43247, 0.74131, 0.766982, 1.36156, 0.508155, 0.74131, 2.0], 0.069, 0.218).writes_at(0.3536),
    p("a100-sxm", Vllm, gemm(Bf16), [3.25026, 0.782287, 0.890155, 1.15109, 1.0, 0.782287, 1.5], 0.078, 0.219).writes_at(0.3536),
    p("a100-sxm", TensorRtLlm, attention(Prefill, Bf16, Bf16), [11.7741, 0.484033, 0.493322, 1.94471, 1.0, 0.484033, 1.0], 0.032, 0.135),
    p("a100-sxm", Sglang, attention(Prefill, Bf16, Bf16), [13.9667, 0.934684, 0.679866, 0.0, 1.0, 0.951468, 1.0], 0.056, 0.283),
    p("a100-sxm", Vllm, attention(Prefill, Bf16, Bf16), [8.95594, 1.0, 0.602609, 2.85795, 0.000391133, 1.0, 1.0], 0.080, 0.284),
    p("a100-sxm", TensorRtLlm, attention(Decode, Bf16, Bf16), [4.87289, 1.0, 1.0, 6.05623, 0.0111209, 1.0, 4.0], 0.149, 0.505),
    p("a100-sxm", Sglang, attention(Decode, Bf16, Bf16), [10.6605, 0.534417, 0.234541, 3.37177, 1.0, 0.534417, 2.0], 0.111, 0.365),
    p("a100-sxm", Vllm, attention(Decode, Bf16, Bf16), [7.91034, 0.78229, 1.0, 4.39624, 0.0109673, 0.78229, 1.5], 0.116, 0.334),
    p("a100-sxm", TensorRtLlm, per_query_head(Bf16, Bf16), [9.19969, 0.905822, 1.0, 1.69808, 0.0201925, 2.25673, 1.0], 0.098, 0.424),
    p("a100-sxm", Sglang, moe(Bf16, Bf16), [45.5962, 0.858102, 0.446292, 0.0, 1.0, 35.0148, 1.5], 0.101, 0.312).writes_at(0.707107).routes_at(4.0).in_tiles(Triton),
    p("a100-sxm", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.4288, 1.0, 0.498217, 3.87387, 1.0, 1.3027, 2.0], 0.068, 0.290),
    p("a100-sxm", TensorRtLlm, mla(Decode, Bf16, Bf16), [2.1073, 1.0, 0.368766, 12.0346, 0.00468408, 1.0, 1.5], 0.088, 0.270),
    p("a100-sxm", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [1.66103, 0.7314, 0.368455, 12.5343, 0.00234629, 1.0, 1.5], 0.086, 0.274),
    p("b200", TensorRtLlm, gemm(Bf16), [2.11893, 0.809415, 0.700937, 1.06143, 0.171476, f64::INFINITY, 2.0], 0.072, 0.223).writes_at(0.5946),
    p("b200", Sglang, gemm(Bf16), [2.19907, 0.859197, 0.680115, 1.33043, 0.155311, f64::INFINITY, 2.0], 0.077, 0.247).writes_at(0.5946),
    p("b200", Vllm, gemm(Bf16), [2.08431, 0.859846, 0.729357, 1.20274, 0.167111, f64::INFINITY, 2.0], 0.069, 0.216).writes_at(0.5946),
    p("b200", TensorRtLlm, gemm(Fp8E4m3), [14.0278, 0.765219, 0.660697, 1.00908, 1.0, f64::INFINITY, 2.0], 0.045, 0.121).quantised_at(0.3536).writes_at(0.5946),
    p("b200", Sglang, gemm(Fp8E4m3), [5.50339, 0.70026, 0.609871, 0.0, 0.0192111, f64::INFINITY, 2.0], 0.095, 0.259).quantised_at(0.4204).writes_at(0.2973),
    p("b200", Vllm, gemm(Fp8E4m3), [4.73938, 0.791293, 0.719674, 0.0, 0.0239374, f64::INFINITY, 2.0], 0.060, 0.247).quantised_in_steps_of(0.5).writes_at(0.3536),
    p("b200", TensorRtLlm, gemm(NvFp4), [6.41874, 0.605819, 0.93636, 0.0, 0.00515676, f64::INFINITY, 2.0], 0.036, 0.130).quantised_at(0.4204).writes_at(0.4204),
    p("b200", Sglang, gemm(NvFp4), [4.38691, 0.614044, 0.593672, 0.0, 0.0131763, f64::INFINITY, 1.5], 0.088, 0.256).writes_at(0.4204),
    p("b200", Vllm, gemm(NvFp4), [6.82813, 0.777809, 0.589002, 0.0, 0.0156204, f64::INFINITY, 1.5], 0.059, 0.187).writes_at(0.5),
    ph("b200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.4966, 0.33105, 0.507422, 2.66505, 1.0, f64::INFINITY, 1.5], [1.35815, 0.932444, 1.0, 0.939057, 1.38654], 0.065, 0.229).fixed_by_head_width([0.987237, 1.00773, 1.0, 1.00237, 0.812983]),
    ph("b200", Sglang, attention(Prefill, Bf16, Bf16), [7.41552, 1.0, 0.587394, 3.01222, 1.0, f64::INFINITY, f64::INFINITY], [1.43285, 0.941555, 5.48815, 0.927124, 1.66423], 0.134, 0.624).fixed_by_head_width([0.901576, 1.00101, 2.09709, 0.997916, 1.00906]).walks_hidden_tiles_at(0.875),
    ph("b200", Vllm, attention(Prefill, Bf16, Bf16), [5.85028, 0.550139, 0.423952, 3.16502, 1.0, f64::INFINITY, 2.0], [1.20402, 0.757914, 1.0, 0.808859, 1.39546], 0.132, 0.331).fixed_by_head_width([0.99116, 1.00418, 1.0, 1.08761, 1.34104]),
    ph("b200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.6271, 0.320433, 0.58711, 2.41446, 1.0, f64::INFINITY, 1.5], [1.38441, 0.911699, 1.0, 0.854281, 1.0126], 0.063, 0.208).fixed_by_head_width([0.993735, 1.017, 1.0, 1.00491, 0.991262]),
    ph("b200", Sglang, attention(Prefill, Bf16, Fp8E4m3), [16.6551, 0.246435, 0.104722, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.202708, 0.955144, 1.33478, 1.0], 0.106, 0.452).fixed_by_head_width([1.0, 1.0, 1.21873, 0.747739, 1.0]).walks_hidden_tiles_at(0.875),
    ph("b200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [9.11004, 0.193599, 0.431008, 0.0, 1.0, f64::INFINITY, 1.0], [1.09958, 0.552796, 11.9336, 0.472057, 0.62424], 0.164, 0.406).fixed_by_head_width([0.991103, 1.00051, 1.22123, 1.06313, 1.1805]),
    ph("b200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.649, 0.212586, 0.319574, 2.42578, 1.0, f64::INFINITY, 1.5], [1.49362, 0.932212, 1.0, 0.889468, 1.0], 0.061, 0.211).fixed_by_head_width([0.992312, 1.01374, 1.0, 1.00608, 1.0]),
    ph("b200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.4999, 1.0, 0.34875, 4.10106, 1.0, f64::INFINITY, 1.0], [1.4146, 0.862127, 4.96061, 0.875162, 1.45388], 0.129, 0.556).fixed_by_head_width([0.996595, 1.00383, 1.00005, 0.99602, 1.10194]).walks_hidden_tiles_at(1.0),
    ph("b200", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.31927, 0.956254, 0.235911, 1.64565, 0.324927, f64::INFINITY, 1.5], [1.4004, 0.806981, 1.0, 1.03108, 1.0], 0.059, 0.280).fixed_by_head_width([0.99595, 0.998062, 1.0, 1.00859, 0.999756]),
    p("b200", Sglang, attention(Decode, Bf16, Bf16), [7.19389, 0.967294, 1.0, 1.76732, 0.214594, f64::INFINITY, 1.0], 0.127, 0.437).fixed_by_head_width([0.928041, 1.07313, 1.91619, 1.19857, 1.48553]),
    ph("b200", Vllm, attention(Decode, Bf16, Bf16), [7.43889, 0.938627, 0.327347, 1.55237, 0.213584, f64::INFINITY, 1.5], [1.11766, 0.872963, 1.0, 1.0, 1.0], 0.062, 0.236).fixed_by_head_width([0.99621, 1.00301, 1.0, 1.01764, 1.27639]),
    p("b200", TensorRtLlm, per_query_head(Bf16, Bf16), [7.20795, 1.0, 1.0, 1.54084, 0.00677521, 1.05993, f64::INFINITY], 0.068, 0.227).fixed_by_head_width([0.992717, 1.00512, 1.0, 1.00832, 1.0]),
    ph("b200", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [9.6567, 0.952088, 0.717588, 1.33778, 0.221167, f64::INFINITY, 1.0], [2.47593, 0.861215, 1.0, 0.861627, 1.0], 0.056, 0.229).fixed_by_head_width([0.997958, 0.992675, 1.0, 1.00994, 1.22458]),
    ph("b200", Sglang, attention(Decode, Bf16, Fp8E4m3), [15.0528, 1.0, 0.436389, 1.46937, 1.0, f64::INFINITY, 1.0], [0.911414, 0.579401, 21.8194, 0.02, 0.450038], 0.114, 0.393).fixed_by_head_width([0.875816, 1.0014, 1.00886, 0.998413, 1.1364]),
    ph("b200", Vllm, attention(Decode, Bf16, Fp8E4m3), [7.68601, 0.907169, 0.02, 1.39562, 1.0, f64::INFINITY, 1.5], [0.110625, 0.047364, 1.0, 0.195638, 0.238459], 0.104, 0.246).fixed_by_head_width([0.993813, 0.998632, 1.24914, 1.00137, 1.21918]),
    p("b200", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.9406, 0.83822, 1.0, 1.22653, 0.00362148, 1.0, f64::INFINITY], 0.088, 0.222).fixed_by_head_width([0.995562, 1.0031, 1.0, 1.32094, 1.0]),
    p("b200", TensorRtLlm, moe(Bf16, Bf16), [26.1476, 0.841301, 0.80942, 0.0, 1.0, f64::INFINITY, 2.0], 0.083, 0.365).writes_at(0.5).routes_at(1.0),
    p("b200", Sglang, moe(Bf16, Bf16), [17.7674, 0.962064, 0.695016, 0.0, 1.0, f64::INFINITY, 4.0], 0.092, 0.349).writes_at(1.0).routes_at(1.0).in_tiles(TrtllmGen),
    p("b200", Vllm, moe(Bf16, Bf16), [19.0697, 0.953976, 0.452412, 0.0, 1.0, f64::INFINITY, 4.0], 0.062, 0.348).writes_at(1.0).routes_at(1.0).in_tiles(TrtllmGen),
    p("b200", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [28.6275, 0.792957, 0.845041, 0.0, 1.0, f64::INFINITY, 2.0], 0.094, 0.338).quantised_at(0.3536).writes_at(0.4204).routes_at(0.5),
    p("b200", Vllm, moe(Fp8E4m3, Fp8E4m3), [19.5068, 0.895891, 0.454822, 0.0, 1.0, f64::INFINITY, 4.0], 0.066, 0.305).quantised_at(0.5946).writes_at(0.8409).routes_at(0.5).in_tiles(TrtllmGen),
    p("b200", TensorRtLlm, moe(NvFp4, NvFp4), [34.9799, 0.44074, 0.448235, 0.0, 1.0, f64::INFINITY, 4.0], 0.138, 0.420).quantised_at(0.2973).writes_at(0.2973).routes_at(1.0),
    p("b200", Sglang, moe(NvFp4, NvFp4), [18.6362, 0.931667, 1.0, 0.0, 1.0, f64::INFINITY, 2.0], 0.152, 0.376).quantised_at(1.0).writes_at(0.8409).routes_at(0.25).in_tiles(TrtllmGen),
    p("b200", Vllm, moe(NvFp4, NvFp4), [21.5687, 0.914577, 0.480002, 0.0, 1.0, f64::INFINITY, 4.0], 0.105, 0.374).quantised_at(0.5).writes_at(0.5946).routes_at(0.25).in_tiles(TrtllmGen),
    p("b200", TensorRtLlm, moe(Bf16, MxFp4), [45.3058, 0.194593, 0.135134, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.034, 0.105).routes_at(0.5).in_tiles(TrtllmGen),
    p("b200", Sglang, moe(Bf16, MxFp4), [19.9997, 0.551036, 0.328698, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.106, 0.301).writes_at(0.4204).routes_at(0.25).in_tiles(TrtllmGen),
    p("b200", Vllm, moe(Bf16, MxFp4), [21.9925, 0.550826, 0.248576, 0.0, 1.0, f64::INFINITY, 4.0], 0.089, 0.295).writes_at(0.3536).routes_at(0.25).in_tiles(TrtllmGen),
    p("b200", TensorRtLlm, moe(MxFp8E4m3, MxFp4), [20.0688, 0.808881, 0.295717, 0.0, 1.0, f64::INFINITY, 2.0], 0.149, 0.419).quantised_at(1.0).writes_at(0.707107).routes_at(0.5).in_tiles(TrtllmGen),
    p("b200", Sglang, moe(MxFp8E4m3, MxFp4), [19.9439, 0.821106, 0.912706, 0.0, 1.0, f64::INFINITY, 1.5], 0.130, 0.360).quantised_at(1.0).routes_at(0.25).in_tiles(TrtllmGen),
    p("b200", Vllm, moe(MxFp8E4m3, MxFp4), [26.1022, 0.851819, 0.702876, 0.0, 1.0, f64::INFINITY, 4.0], 0.104, 0.408).quantised_at(0.3536).writes_at(0.4204).routes_at(0.5).in_tiles(TrtllmGen),
    p("b200", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.6808, 1.0, 0.611773, 3.24184, 1.0, f64::INFINITY, f64::INFINITY], 0.087, 0.427),
    p("b200", Sglang, mla(Prefill, Bf16, Bf16), [9.29787, 0.906807, 0.653589, 3.19986, 1.0, f64::INFINITY, f64::INFINITY], 0.106, 0.435),
    p("b200", TensorRtLlm, mla(Decode, Bf16, Bf16), [5.26549, 0.730724, 1.0, 5.35674, 0.289757, f64::INFINITY, 4.0], 0.073, 0.273),
    p("b200", Sglang, mla(Decode, Bf16, Bf16), [4.43487, 0.749622, 1.0, 6.02312, 0.282031, f64::INFINITY, 1.5], 0.101, 0.265),
    p("b200", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [3.98593, 0.846454, 1.0, 5.00155, 0.200589, f64::INFINITY, 1.5], 0.120, 0.349),
    p("b200", Sglang, mla(Decode, Bf16, Fp8E4m3), [6.34766, 0.849843, 1.0, 4.06149, 0.199057, f64::INFINITY, 1.5], 0.076, 0.258),
    p("b300", TensorRtLlm, gemm(Bf16), [1.93206, 0.775435, 0.702977, 1.08005, 0.217526, f64::INFINITY, 4.0], 0.078, 0.231).writes_at(0.5946),
    p("b300", Sglang, gemm(Bf16), [2.00027, 0.844838, 0.745737, 1.24593, 0.175402, f64::INFINITY, 2.0], 0.078, 0.239).writes_at(0.5946),
    p("b300", Vllm, gemm(Bf16), [1.89361, 0.839022, 0.810068, 1.16287, 0.178065, f64::INFINITY, 2.0], 0.071, 0.228).writes_at(0.5946),
    p("b300", TensorRtLlm, gemm(Fp8E4m3), [12.9766, 0.752433, 0.704476, 1.00523, 0.0800641, f64::INFINITY, 2.0], 0.049, 0.122).quantised_at(0.3536).writes_at(0.5),
    p("b300", Sglang, gemm(Fp8E4m3), [5.48477, 0.649433, 0.601596, 0.0, 0.02, f64::INFINITY, 4.0], 0.093, 0.248).quantised_at(0.4204).writes_at(0.2973),
    p("b300", Vllm, gemm(Fp8E4m3), [4.5187, 0.795402, 0.738897, 0.0, 0.0262909, f64::INFINITY, 2.0], 0.052, 0.163).quantised_in_steps_of(0.5).writes_at(0.3536),
    p("b300", TensorRtLlm, gemm(NvFp4), [7.17813, 0.618344, 1.0, 0.0, 0.00636891, f64::INFINITY, 1.5], 0.084, 0.210).quantised_at(0.4204).writes_at(0.1768),
    p("b300", Sglang, gemm(NvFp4), [3.8748, 0.62576, 0.433985, 0.0, 0.0137501, f64::INFINITY, 1.5], 0.085, 0.250).quantised_at(0.5).writes_at(0.4204),
    p("b300", Vllm, gemm(NvFp4), [6.56219, 0.766333, 0.36827, 0.0, 0.0167938, f64::INFINITY, 2.0], 0.059, 0.198).writes_at(0.5),
    ph("b300", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.3583, 0.334295, 0.565487, 2.47364, 1.0, f64::INFINITY, 1.5], [1.1299, 0.876285, 1.0, 0.996264, 1.46283], 0.058, 0.208).fixed_by_head_width([0.943586, 1.00785, 1.0, 1.00293, 0.695873]),
    ph("b300", Sglang, attention(Prefill, Bf16, Bf16), [5.50165, 1.0, 0.678765, 2.99383, 1.0, f64::INFINITY, f64::INFINITY], [1.14084, 0.872533, 6.74028, 0.998979, 1.71116], 0.159, 0.651).fixed_by_head_width([0.984581, 1.00707, 2.49622, 0.99988, 1.3557]).walks_hidden_tiles_at(0.75),
    ph("b300", Vllm, attention(Prefill, Bf16, Bf16), [6.2377, 0.591265, 0.564651, 2.60829, 1.0, f64::INFINITY, 1.5], [1.15526, 0.797748, 1.0, 0.925123, 1.63439], 0.109, 0.293).fixed_by_head_width([0.993471, 1.01267, 1.0, 1.03213, 1.33776]),
    ph("b300", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.3727, 0.380951, 0.929637, 2.22839, 1.0, f64::INFINITY, 1.0], [1.38328, 0.929637, 1.0, 0.929637, 1.15765], 0.063, 0.186).fixed_by_head_width([0.89246, 1.02535, 1.0, 1.01727, 0.929873]),
    ph("b300", Sglang, attention(Prefill, Bf16, Fp8E4m3), [16.3305, 0.279187, 0.107703, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.159028, 0.945627, 1.32499, 1.0], 0.111, 0.444).fixed_by_head_width([1.0, 1.0, 1.26606, 0.699047, 1.0]).walks_hidden_tiles_at(0.875),
    ph("b300", Vllm, attention(Prefill, Bf16, Fp8E4m3), [8.99573, 0.219667, 0.634931, 0.0, 1.0, f64::INFINITY, 1.0], [1.09438, 0.634931, 17.08, 0.634931, 0.718033], 0.157, 0.410).fixed_by_head_width([0.995445, 0.999846, 1.20569, 0.999856, 1.07653]),
    ph("b300", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.4601, 0.250851, 0.488521, 2.22686, 0.000261531, f64::INFINITY, 1.0], [1.44568, 0.95695, 1.0, 0.934754, 1.0], 0.058, 0.183).fixed_by_head_width([0.927623, 1.00751, 1.0, 0.994212, 1.0]),
    ph("b300", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [10.6176, 0.916154, 0.504317, 3.99365, 1.0, f64::INFINITY, 1.0], [1.3473, 0.861159, 8.42033, 0.94221, 1.79846], 0.127, 0.552).fixed_by_head_width([0.994184, 1.00178, 1.19075, 0.995006, 1.04368]).walks_hidden_tiles_at(0.75),
    ph("b300", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.31832, 0.937124, 0.28035, 1.53879, 0.347269, f64::INFINITY, 1.5], [0.98948, 0.930089, 1.0, 1.19658, 1.0], 0.051, 0.288).fixed_by_head_width([0.995936, 0.998294, 1.0, 1.01417, 1.01202]),
    p("b300", Sglang, attention(Decode, Bf16, Bf16), [6.76038, 0.941099, 1.0, 1.71559, 0.214583, f64::INFINITY, 1.0], 0.121, 0.428).fixed_by_head_width([0.991108, 1.00016, 1.91571, 1.27091, 1.58785]),
    ph("b300", Vllm, attention(Decode, Bf16, Bf16), [7.44683, 0.932147, 1.0, 1.42979, 0.217029, f64::INFINITY, 1.0], [1.16678, 1.0, 1.0, 1.0, 1.0], 0.041, 0.239).fixed_by_head_width([0.994345, 1.00766, 1.0, 1.01737, 1.264]),
    p("b300", TensorRtLlm, per_query_head(Bf16, Bf16), [7.10492, 1.0, 1.0, 1.57418, 0.00666545, 1.09206, f64::INFINITY], 0.073, 0.225).fixed_by_head_width([1.00136, 1.06098, 1.0, 0.980632, 1.0]),
    ph("b300", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [9.6429, 0.935309, 0.748558, 1.24129, 0.226787, f64::INFINITY, 1.0], [1.88569, 0.748558, 1.0, 0.854094, 1.0], 0.045, 0.226).fixed_by_head_width([0.99893, 0.993913, 1.0, 1.0147, 1.22979]),
    p("b300", Sglang, attention(Decode, Bf16, Fp8E4m3), [13.1363, 0.889031, 1.0, 1.53108, 0.106752, f64::INFINITY, 1.0], 0.108, 0.405).fixed_by_head_width([0.991921, 1.0989, 1.30211, 0.999422, 1.2965]),
    ph("b300", Vllm, attention(Decode, Bf16, Fp8E4m3), [7.67812, 0.881258, 0.02, 1.31786, 1.0, f64::INFINITY, 2.0], [0.106345, 0.044908, 1.0, 0.0825016, 0.250833], 0.046, 0.237).fixed_by_head_width([0.99145, 0.999512, 1.25146, 1.0022, 1.2103]),
    p("b300", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.75491, 0.926188, 1.0, 1.26449, 0.0036285, 1.0, f64::INFINITY], 0.071, 0.215).fixed_by_head_width([0.976724, 1.00759, 1.0, 1.19437, 1.0]),
    p("b300", TensorRtLlm, moe(Bf16, Bf16), [24.9478, 0.82406, 0.781736, 0.0, 1.0, f64::INFINITY, 4.0], 0.082, 0.351).writes_at(0.5).routes_at(1.0),
    p("b300", Sglang, moe(Bf16, Bf16), [16.0527, 0.936313, 0.705268, 0.0, 1.0, f64::INFINITY, 4.0], 0.100, 0.381).writes_at(1.0).routes_at(1.0).in_tiles(TrtllmGen),
    p("b300", Vllm, moe(Bf16, Bf16), [17.4042, 0.930096, 0.466082, 0.0, 1.0, f64::INFINITY, 4.0], 0.062, 0.360).writes_at(1.0).routes_at(1.0).in_tiles(TrtllmGen),
    p("b300", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [26.98, 0.763158, 0.915301, 0.0, 1.0, f64::INFINITY, 2.0], 0.096, 0.336).quantised_at(0.4204).writes_at(0.4204).routes_at(0.5),
    p("b300", Vllm, moe(Fp8E4m3, Fp8E4m3), [17.1387, 0.856777, 0.457386, 0.0, 1.0, f64::INFINITY, 4.0], 0.066, 0.282).writes_at(0.8409).routes_at(0.5).in_tiles(TrtllmGen),
    p("b300", TensorRtLlm, moe(NvFp4, NvFp4), [32.8782, 0.673765, 1.0, 0.0, 1.0, f64::INFINITY, 1.5], 0.110, 0.340).quantised_at(0.2973).writes_at(0.2973).routes_at(0.5),
    p("b300", Sglang, moe(NvFp4, NvFp4), [17.7023, 0.899967, 1.0, 0.0, 1.0, f64::INFINITY, 2.0], 0.153, 0.389).quantised_at(1.0).routes_at(0.25).in_tiles(TrtllmGen),
    p("b300", Vllm, moe(NvFp4, NvFp4), [18.5565, 0.85803, 0.284597, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.097, 0.350).quantised_at(0.707107).writes_at(0.707107).routes_at(0.25).in_tiles(TrtllmGen),
    p("b300", TensorRtLlm, moe(Bf16, MxFp4), [44.3235, 0.201034, 0.141376, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.025, 0.101).routes_at(0.5).in_tiles(TrtllmGen),
    p("b300", Sglang, moe(Bf16, MxFp4), [18.4482, 0.546389, 0.262807, 0.0, 1.0, f64::INFINITY, 4.0], 0.062, 0.203).writes_at(0.4204).routes_at(0.25).in_tiles(TrtllmGen),
    p("b300", Vllm, moe(Bf16, MxFp4), [20.1105, 0.535276, 0.261762, 0.0, 1.0, f64::INFINITY, 4.0], 0.082, 0.276).writes_at(0.4204).routes_at(0.25).in_tiles(TrtllmGen),
    p("b300", TensorRtLlm, moe(MxFp8E4m3, MxFp4), [19.3642, 0.827157, 0.338001, 0.0, 1.0, f64::INFINITY, 2.0], 0.147, 0.438).quantised_at(1.0).routes_at(0.5).in_tiles(TrtllmGen),
    p("b300", Sglang, moe(MxFp8E4m3, MxFp4), [18.4275, 0.786447, 0.614373, 0.0, 1.0, f64::INFINITY, 4.0], 0.128, 0.312).quantised_at(0.3536).writes_at(0.5946).routes_at(0.5).in_tiles(TrtllmGen),
    p("b300", Vllm, moe(MxFp8E4m3, MxFp4), [23.9216, 0.829998, 0.750025, 0.0, 1.0, f64::INFINITY, 4.0], 0.106, 0.428).quantised_at(0.3536).writes_at(0.4204).routes_at(0.5).in_tiles(TrtllmGen),
    p("b300", TensorRtLlm, mla(Prefill, Bf16, Bf16), [9.96183, 1.0, 0.684492, 2.99784, 1.0, f64::INFINITY, f64::INFINITY], 0.105, 0.417),
    p("b300", Sglang, mla(Prefill, Bf16, Bf16), [7.48674, 1.0, 0.733653, 3.03947, 1.0, f64::INFINITY, f64::INFINITY], 0.140, 0.438),
    p("b300", TensorRtLlm, mla(Decode, Bf16, Bf16), [3.43182, 0.722837, 0.794692, 5.53999, 0.269278, f64::INFINITY, 4.0], 0.107, 0.293),
    p("b300", Sglang, mla(Decode, Bf16, Bf16), [4.78675, 0.734467, 1.0, 5.61297, 0.296407, f64::INFINITY, 2.0], 0.079, 0.251),
    p("b300", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [4.0906, 0.829919, 1.0, 4.67831, 0.196574, f64::INFINITY, 1.5], 0.095, 0.333),
    p("b300", Sglang, mla(Decode, Bf16, Fp8E4m3), [4.22732, 0.825949, 1.0, 4.24566, 0.195052, f64::INFINITY, 1.5], 0.151, 0.308),
    p("gb200", TensorRtLlm, gemm(Bf16), [2.13074, 0.808368, 0.677342, 1.03595, 0.170471, f64::INFINITY, 2.0], 0.070, 0.217).writes_at(0.707107),
    p("gb200", Sglang, gemm(Bf16), [2.15472, 0.847294, 0.680423, 1.21345, 0.166855, f64::INFINITY, 2.0], 0.077, 0.241).writes_at(0.5946),
    p("gb200", Vllm, gemm(Bf16), [2.15904, 0.854223, 0.722666, 1.15467, 0.182543, f64::INFINITY, 2.0], 0.070, 0.236).writes_at(0.707107),
    p("gb200", TensorRtLlm, gemm(Fp8E4m3), [13.8291, 0.674754, 0.53149, 0.898391, 0.0688426, f64::INFINITY, 2.0], 0.068, 0.180).writes_at(0.5946),
    p("gb200", Sglang, gemm(Fp8E4m3), [5.47657, 0.682607, 0.613609, 0.0, 0.0189383, f64::INFINITY, 2.0], 0.088, 0.242).quantised_at(0.4204).writes_at(0.3536),
    p("gb200", Vllm, gemm(Fp8E4m3), [4.89663, 0.76129, 0.752454, 0.0, 0.0250687, f64::INFINITY, 2.0], 0.055, 0.160).quantised_in_steps_of(0.5).writes_at(0.4204),
    p("gb200", TensorRtLlm, gemm(NvFp4), [6.1626, 0.602824, 1.0, 0.0, 0.00532909, f64::INFINITY, 1.5], 0.035, 0.131).quantised_at(0.5).writes_at(0.4204),
    p("gb200", Sglang, gemm(NvFp4), [3.90588, 0.625446, 0.627204, 0.0, 0.013324, f64::INFINITY, 1.5], 0.087, 0.262).quantised_at(0.5).writes_at(0.4204),
    p("gb200", Vllm, gemm(NvFp4), [7.36795, 0.760724, 0.513618, 0.0, 0.0157113, f64::INFINITY, 2.0], 0.067, 0.199).quantised_at(0.707107).writes_at(0.5),
    ph("gb200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.7537, 0.324985, 0.49214, 2.53831, 1.0, f64::INFINITY, 1.5], [1.33842, 0.899478, 1.0, 0.958023, 1.35585], 0.069, 0.233).fixed_by_head_width([0.996848, 1.0169, 1.0, 0.998963, 0.832782]),
    ph("gb200", Sglang, attention(Prefill, Bf16, Bf16), [7.59773, 1.0, 0.554791, 2.90019, 1.0, f64::INFINITY, 4.0], [1.37249, 0.921025, 5.10036, 0.964153, 1.55141], 0.152, 0.632).fixed_by_head_width([0.990111, 1.00294, 2.0729, 0.995733, 1.25446]).walks_hidden_tiles_at(1.0),
    ph("gb200", Vllm, attention(Prefill, Bf16, Bf16), [6.85442, 0.559428, 0.389155, 2.82035, 1.0, f64::INFINITY, 2.0], [1.20082, 0.766786, 1.0, 0.814205, 1.41689], 0.124, 0.314).fixed_by_head_width([0.939115, 1.13847, 1.0, 1.18589, 1.29905]),
    ph("gb200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [13.0166, 0.318933, 0.60401, 2.28166, 1.0, f64::INFINITY, 1.5], [1.45561, 0.923398, 1.0, 0.8303, 1.0448], 0.066, 0.212).fixed_by_head_width([0.993596, 1.02128, 1.0, 0.998451, 1.03342]),
    ph("gb200", Sglang, attention(Prefill, Bf16, Fp8E4m3), [18.5439, 0.274297, 0.100853, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.221011, 0.953402, 1.33654, 1.0], 0.115, 0.438).fixed_by_head_width([1.0, 0.939394, 1.11963, 0.675263, 1.0]).walks_hidden_tiles_at(0.875),
    ph("gb200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [10.9194, 0.205923, 0.415286, 0.0, 1.0, f64::INFINITY, 1.0], [1.09751, 0.5608, 11.7965, 0.487815, 0.686948], 0.139, 0.375).fixed_by_head_width([0.988411, 0.994293, 1.19464, 1.01284, 1.01613]),
    ph("gb200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.9084, 0.205178, 0.3316, 2.30216, 0.000448863, f64::INFINITY, 1.5], [1.57261, 0.942115, 1.0, 0.859802, 1.0], 0.063, 0.222).fixed_by_head_width([0.999608, 1.00264, 1.0, 0.993172, 1.0]),
    ph("gb200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.6278, 1.0, 0.359818, 3.9984, 1.0, f64::INFINITY, 1.0], [1.50752, 0.869964, 5.21802, 0.86488, 1.58478], 0.122, 0.556).fixed_by_head_width([0.998829, 1.00129, 1.0157, 0.990881, 1.0106]).walks_hidden_tiles_at(1.0),
    p("gb200", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.77941, 0.947657, 1.0, 1.55166, 0.311347, f64::INFINITY, 1.0], 0.073, 0.276).fixed_by_head_width([1.00339, 0.992392, 1.0, 1.03255, 0.981789]),
    p("gb200", Sglang, attention(Decode, Bf16, Bf16), [8.68813, 0.962273, 1.0, 1.71147, 0.20603, f64::INFINITY, 1.0], 0.114, 0.430).fixed_by_head_width([0.793511, 0.999393, 1.70001, 1.00745, 1.2459]),
    ph("gb200", Vllm, attention(Decode, Bf16, Bf16), [7.94559, 0.935946, 0.277855, 1.4469, 0.211508, f64::INFINITY, 1.5], [1.17679, 0.859619, 1.0, 1.0, 1.0], 0.084, 0.231).fixed_by_head_width([0.982951, 1.04014, 1.0, 1.18504, 1.27386]),
    p("gb200", TensorRtLlm, per_query_head(Bf16, Bf16), [7.76969, 1.0, 1.0, 1.42379, 0.00686878, 1.08601, f64::INFINITY], 0.072, 0.224).fixed_by_head_width([0.992776, 0.988492, 1.0, 0.963838, 1.0]),
    ph("gb200", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [10.0818, 0.942105, 0.570301, 1.27985, 0.212965, f64::INFINITY, 1.0], [2.05464, 0.832423, 1.0, 0.816085, 1.0], 0.071, 0.228).fixed_by_head_width([1.00086, 0.990008, 1.0, 1.00954, 1.3591]),
    p("gb200", Sglang, attention(Decode, Bf16, Fp8E4m3), [14.0563, 0.903857, 1.0, 1.45849, 0.10988, f64::INFINITY, 1.0], 0.097, 0.422).fixed_by_head_width([0.939652, 0.998246, 1.21747, 1.07137, 1.17695]),
    ph("gb200", Vllm, attention(Decode, Bf16, Fp8E4m3), [9.66142, 0.989172, 0.214905, 1.1493, 1.0, f64::INFINITY, 1.5], [1.16367, 0.375764, 10.7452, 0.182351, 0.936422], 0.042, 0.211).fixed_by_head_width([0.987536, 0.992601, 1.22105, 1.01198, 1.02807]),
    p("gb200", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [9.66849, 0.91572, 1.0, 1.12452, 0.00369309, 1.0, f64::INFINITY], 0.080, 0.216).fixed_by_head_width([1.00148, 1.01658, 1.0, 1.10997, 1.0]),
    p("gb200", TensorRtLlm, moe(Bf16, Bf16), [25.6488, 0.840147, 0.699753, 0.0, 1.0, f64::INFINITY, 4.0], 0.078, 0.285).writes_at(0.4204).routes_at(2.0),
    p("gb200", Sglang, moe(Bf16, Bf16), [17.3939, 0.972109, 0.616134, 0.0, 1.0, f64::INFINITY, 4.0], 0.094, 0.372).writes_at(1.0).routes_at(1.0).in_tiles(TrtllmGen),
    p("gb200", Vllm, moe(Bf16, Bf16), [18.3984, 0.946742, 0.434927, 0.0, 1.0, f64::INFINITY, 4.0], 0.064, 0.349).writes_at(1.0).routes_at(1.0).in_tiles(TrtllmGen),
    p("gb200", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [28.0273, 0.798985, 0.805583, 0.0, 1.0, f64::INFINITY, 2.0], 0.083, 0.309).quantised_at(0.4204).writes_at(0.4204).routes_at(0.5),
    p("gb200", Vllm, moe(Fp8E4m3, Fp8E4m3), [17.631, 0.856363, 0.423361, 0.0, 1.0, f64::INFINITY, 4.0], 0.078, 0.240).quantised_at(0.707107).writes_at(1.0).routes_at(0.5).in_tiles(TrtllmGen),
    p("gb200", TensorRtLlm, moe(NvFp4, NvFp4), [33.4006, 0.569175, 0.518483, 0.0, 1.0, f64::INFINITY, 2.0], 0.131, 0.375).writes_at(0.2973).routes_at(0.5),
    p("gb200", Sglang, moe(NvFp4, NvFp4), [18.257, 0.943475, 1.0, 0.0, 1.0, f64::INFINITY, 2.0], 0.152, 0.380).quantised_at(1.0).writes_at(0.8409).routes_at(0.25).in_tiles(TrtllmGen),
    p("gb200", Vllm, moe(NvFp4, NvFp4), [21.0312, 0.904576, 0.459703, 0.0, 1.0, f64::INFINITY, 4.0], 0.099, 0.366).quantised_at(0.5).writes_at(0.707107).routes_at(0.25).in_tiles(TrtllmGen),
    p("gb200", TensorRtLlm, moe(Bf16, MxFp4), [42.1549, 0.202764, 0.132629, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.035, 0.111).routes_at(0.5).in_tiles(TrtllmGen),
    p("gb200", Sglang, moe(Bf16, MxFp4), [19.6763, 0.54583, 0.285136, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.117, 0.310).writes_at(0.4204).routes_at(0.25).in_tiles(TrtllmGen),
    p("gb200", Vllm, moe(Bf16, MxFp4), [20.3126, 0.523189, 0.246286, 0.0, 1.0, f64::INFINITY, 4.0], 0.087, 0.264).writes_at(0.3536).routes_at(0.25).in_tiles(TrtllmGen),
    p("gb200", TensorRtLlm, moe(MxFp8E4m3, MxFp4), [20.0458, 0.840755, 0.297473, 0.0, 1.0, f64::INFINITY, 2.0], 0.141, 0.419).quantised_at(1.0).routes_at(0.5).in_tiles(TrtllmGen),
    p("gb200", Sglang, moe(MxFp8E4m3, MxFp4), [19.2793, 0.840902, 0.826002, 0.0, 1.0, f64::INFINITY, 1.5], 0.121, 0.351).quantised_at(1.0).writes_at(0.707107).routes_at(0.25).in_tiles(TrtllmGen),
    p("gb200", Vllm, moe(MxFp8E4m3, MxFp4), [26.2406, 0.904994, 0.842007, 0.0, 1.0, f64::INFINITY, 1.5], 0.110, 0.431).quantised_at(0.3536).writes_at(0.4204).routes_at(0.5).in_tiles(TrtllmGen),
    p("gb200", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.9261, 0.97139, 0.584041, 3.24994, 1.0, f64::INFINITY, f64::INFINITY], 0.120, 0.448),
    p("gb200", Sglang, mla(Prefill, Bf16, Bf16), [9.76791, 0.984609, 0.568772, 3.06244, 1.0, f64::INFINITY, f64::INFINITY], 0.131, 0.413),
    p("gb200", TensorRtLlm, mla(Decode, Bf16, Bf16), [5.27629, 0.720134, 1.0, 5.24944, 0.281994, f64::INFINITY, 4.0], 0.081, 0.271),
    p("gb200", Sglang, mla(Decode, Bf16, Bf16), [5.05116, 0.742386, 1.0, 5.81333, 0.288847, f64::INFINITY, 1.5], 0.124, 0.259),
    p("gb200", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [4.63239, 0.831146, 1.0, 4.72993, 0.189557, f64::INFINITY, 1.5], 0.123, 0.330),
    p("gb200", Sglang, mla(Decode, Bf16, Fp8E4m3), [6.7558, 0.841197, 1.0, 4.02264, 0.192431, f64::INFINITY, 1.5], 0.090, 0.271),
    p("gb300", TensorRtLlm, gemm(Bf16), [2.11658, 0.788972, 0.776171, 0.989373, 0.174239, f64::INFINITY, 2.0], 0.065, 0.208).writes_at(0.707107),
    p("gb300", Sglang, gemm(Bf16), [2.11773, 0.827054, 0.757041, 1.13311, 0.176183, f64::INFINITY, 2.0], 0.065, 0.205).writes_at(0.707107),
    p("gb300", Vllm, gemm(Bf16), [2.13146, 0.832697, 0.795093, 1.08357, 0.176744, f64::INFINITY, 2.0], 0.064, 0.203).writes_at(0.707107),
    p("gb300", TensorRtLlm, gemm(Fp8E4m3), [13.33, 0.773676, 0.77318, 0.836628, 0.0793184, f64::INFINITY, 1.5], 0.049, 0.123).quantised_at(0.3536).writes_at(0.5),
    p("gb300", Sglang, gemm(Fp8E4m3), [5.39194, 0.679915, 0.707598, 0.0, 0.0204, f64::INFINITY, 2.0], 0.080, 0.205).quantised_at(0.4204).writes_at(0.3536),
    p("gb300", Vllm, gemm(Fp8E4m3), [4.86806, 0.769238, 0.789796, 0.0, 0.0260341, f64::INFINITY, 2.0], 0.050, 0.158).quantised_in_steps_of(0.5).writes_at(0.4204),
    p("gb300", TensorRtLlm, gemm(NvFp4), [7.371, 0.589247, 1.0, 0.0, 0.00650608, f64::INFINITY, 1.5], 0.079, 0.188).quantised_at(0.4204).writes_at(0.2102),
    p("gb300", Sglang, gemm(NvFp4), [3.88433, 0.637194, 0.452509, 0.0, 0.0138083, f64::INFINITY, 1.5], 0.079, 0.230).quantised_at(0.5).writes_at(0.4204),
    p("gb300", Vllm, gemm(NvFp4), [7.43321, 0.752674, 0.342653, 0.0, 0.0159324, f64::INFINITY, f64::INFINITY], 0.067, 0.198).quantised_at(0.707107).writes_at(0.5),
    ph("gb300", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.7157, 0.316117, 0.598312, 2.37613, 1.0, f64::INFINITY, 1.5], [1.2239, 0.86321, 1.0, 0.967123, 1.43875], 0.057, 0.209).fixed_by_head_width([0.991342, 1.00982, 1.0, 1.00393, 0.739724]),
    ph("gb300", Sglang, attention(Prefill, Bf16, Bf16), [7.73841, 1.0, 0.682083, 2.70978, 1.0, f64::INFINITY, f64::INFINITY], [1.20549, 0.878859, 6.22348, 0.981436, 1.80994], 0.138, 0.611).fixed_by_head_width([0.885322, 1.00282, 2.05082, 0.997552, 1.0147]).walks_hidden_tiles_at(1.0),
    ph("gb300", Vllm, attention(Prefill, Bf16, Bf16), [6.41824, 0.619359, 0.561761, 2.77386, 1.0, f64::INFINITY, 1.5], [1.16255, 0.776158, 1.0, 0.911589, 1.67726], 0.126, 0.309).fixed_by_head_width([0.985641, 1.00582, 1.0, 1.2195, 1.29439]),
    ph("gb300", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.9766, 0.29983, 0.793687, 2.06204, 1.0, f64::INFINITY, 1.5], [1.3989, 0.901642, 1.0, 0.842394, 1.01591], 0.056, 0.180).fixed_by_head_width([0.998262, 1.01221, 1.0, 1.00077, 0.9979]),
    ph("gb300", Sglang, attention(Prefill, Bf16, Fp8E4m3), [16.7109, 0.282905, 0.101859, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.172316, 0.945646, 1.32216, 1.0], 0.111, 0.435).fixed_by_head_width([1.0, 0.995787, 1.24487, 0.748563, 1.0]).walks_hidden_tiles_at(0.875),
    ph("gb300", Vllm, attention(Prefill, Bf16, Fp8E4m3), [9.97533, 0.221249, 0.604055, 0.0, 1.0, f64::INFINITY, 1.0], [1.08538, 0.604055, 17.2721, 0.604055, 0.645181], 0.154, 0.403).fixed_by_head_width([0.951879, 0.95071, 1.19995, 1.06575, 1.10411]),
    ph("gb300", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.7964, 0.235972, 0.512131, 2.12339, 0.000148147, f64::INFINITY, 1.0], [1.58897, 0.962136, 1.0, 0.891768, 1.0], 0.054, 0.190).fixed_by_head_width([1.00264, 1.00708, 1.0, 0.980669, 1.0]),
    ph("gb300", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.5172, 1.0, 0.47865, 3.99751, 1.0, f64::INFINITY, 1.0], [1.3892, 0.821037, 6.90924, 0.907957, 1.6903], 0.122, 0.559).fixed_by_head_width([0.85202, 0.992571, 1.11857, 0.998903, 1.13722]).walks_hidden_tiles_at(1.0),
    p("gb300", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.61122, 0.924927, 1.0, 1.56411, 0.341956, f64::INFINITY, 1.0], 0.060, 0.276).fixed_by_head_width([0.997633, 0.998056, 1.0, 0.999079, 0.993896]),
    p("gb300", Sglang, attention(Decode, Bf16, Bf16), [8.7073, 0.937987, 1.0, 1.67254, 0.203147, f64::INFINITY, 1.0], 0.117, 0.434).fixed_by_head_width([0.784212, 1.00019, 1.70104, 1.00644, 1.24251]),
    ph("gb300", Vllm, attention(Decode, Bf16, Bf16), [7.68326, 0.920304, 0.694627, 1.47071, 0.209887, f64::INFINITY, 1.0], [1.13748, 0.724448, 1.0, 1.0, 1.0], 0.066, 0.232).fixed_by_head_width([0.994553, 1.00157, 1.0, 1.17421, 1.25386]),
    p("gb300", TensorRtLlm, per_query_head(Bf16, Bf16), [7.78589, 1.0, 1.0, 1.51397, 0.00665513, 1.11013, f64::INFINITY], 0.075, 0.212).fixed_by_head_width([0.998236, 1.03155, 1.0, 0.988398, 1.0]),
    ph("gb300", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [9.88303, 0.930423, 0.583083, 1.30575, 0.220549, f64::INFINITY, 1.0], [1.78473, 0.896874, 1.0, 0.90392, 1.0], 0.059, 0.235).fixed_by_head_width([0.99765, 0.997613, 1.0, 1.01288, 1.21929]),
    p("gb300", Sglang, attention(Decode, Bf16, Fp8E4m3), [13.2948, 0.882398, 1.0, 1.48203, 0.164185, f64::INFINITY, 1.0], 0.100, 0.417).fixed_by_head_width([0.988008, 1.00904, 1.28707, 1.13028, 1.27963]),
    ph("gb300", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.03283, 0.866177, 0.02, 1.31111, 1.0, f64::INFINITY, 2.0], [0.114295, 0.0578047, 1.0, 0.0241747, 0.428327], 0.103, 0.235).fixed_by_head_width([0.988351, 0.998754, 1.25439, 1.14143, 1.18451]),
    p("gb300", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [9.7108, 0.956789, 1.0, 1.20178, 0.0036145, 1.0, f64::INFINITY], 0.081, 0.231).fixed_by_head_width([1.00567, 1.00635, 1.0, 1.09909, 1.0]),
    p("gb300", TensorRtLlm, moe(Bf16, Bf16), [25.5027, 0.811137, 0.848077, 0.0, 1.0, f64::INFINITY, 2.0], 0.071, 0.252).writes_at(0.5).routes_at(2.0),
    p("gb300", Sglang, moe(Bf16, Bf16), [16.5795, 0.941202, 0.665072, 0.0, 1.0, f64::INFINITY, 4.0], 0.099, 0.376).writes_at(1.0).routes_at(1.0).in_tiles(TrtllmGen),
    p("gb300", Vllm, moe(Bf16, Bf16), [18.0264, 0.921901, 0.455509, 0.0, 1.0, f64::INFINITY, 4.0], 0.062, 0.363).writes_at(1.0).routes_at(1.0).in_tiles(TrtllmGen),
    p("gb300", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [27.4943, 0.785334, 0.865321, 0.0, 1.0, f64::INFINITY, 2.0], 0.083, 0.299).quantised_at(0.4204).writes_at(0.4204).routes_at(0.5),
    p("gb300", Vllm, moe(Fp8E4m3, Fp8E4m3), [17.5962, 0.844908, 0.437723, 0.0, 1.0, f64::INFINITY, 4.0], 0.064, 0.253).writes_at(1.0).routes_at(0.5).in_tiles(TrtllmGen),
    p("gb300", TensorRtLlm, moe(NvFp4, NvFp4), [33.0858, 0.681809, 0.311517, 0.0, 1.0, f64::INFINITY, 4.0], 0.101, 0.317).quantised_at(0.3536).writes_at(0.2973).routes_at(0.5),
    p("gb300", Sglang, moe(NvFp4, NvFp4), [17.7129, 0.905889, 0.909229, 0.0, 1.0, f64::INFINITY, 2.0], 0.151, 0.387).quantised_at(1.0).routes_at(0.25).in_tiles(TrtllmGen),
    p("gb300", Vllm, moe(NvFp4, NvFp4), [19.4878, 0.86353, 0.283628, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.090, 0.338).quantised_at(0.8409).writes_at(0.707107).routes_at(0.25).in_tiles(TrtllmGen),
    p("gb300", TensorRtLlm, moe(Bf16, MxFp4), [42.2875, 0.203354, 0.133529, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.028, 0.095).routes_at(0.5).in_tiles(TrtllmGen),
    p("gb300", Sglang, moe(Bf16, MxFp4), [19.1579, 0.55669, 0.288489, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.116, 0.303).writes_at(0.4204).routes_at(0.25).in_tiles(TrtllmGen),
    p("gb300", Vllm, moe(Bf16, MxFp4), [20.3204, 0.528165, 0.246966, 0.0, 1.0, f64::INFINITY, 4.0], 0.076, 0.272).writes_at(0.4204).routes_at(0.25).in_tiles(TrtllmGen),
    p("gb300", TensorRtLlm, moe(MxFp8E4m3, MxFp4), [19.977, 0.827463, 0.307429, 0.0, 1.0, f64::INFINITY, 2.0], 0.144, 0.434).quantised_at(1.0).routes_at(0.5).in_tiles(TrtllmGen),
    p("gb300", Sglang, moe(MxFp8E4m3, MxFp4), [18.6946, 0.820901, 0.81614, 0.0, 1.0, f64::INFINITY, 1.5], 0.111, 0.319).quantised_at(0.3536).writes_at(0.707107).routes_at(0.5).in_tiles(TrtllmGen),
    p("gb300", Vllm, moe(MxFp8E4m3, MxFp4), [24.2623, 0.842329, 0.539245, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.113, 0.462).quantised_at(0.3536).writes_at(0.4204).routes_at(0.5).in_tiles(TrtllmGen),
    p("gb300", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.7398, 1.0, 0.685324, 2.80641, 1.0, f64::INFINITY, f64::INFINITY], 0.093, 0.406),
    p("gb300", Sglang, mla(Prefill, Bf16, Bf16), [9.83554, 1.0, 0.747605, 2.89694, 1.0, f64::INFINITY, f64::INFINITY], 0.107, 0.433),
    p("gb300", TensorRtLlm, mla(Decode, Bf16, Bf16), [4.63535, 0.707694, 1.0, 5.37185, 0.273983, f64::INFINITY, 4.0], 0.096, 0.277),
    p("gb300", Sglang, mla(Decode, Bf16, Bf16), [5.05273, 0.720283, 1.0, 5.77296, 0.289092, f64::INFINITY, 2.0], 0.115, 0.254),
    p("gb300", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [4.5777, 0.815189, 1.0, 4.60751, 0.191023, f64::INFINITY, 1.5], 0.127, 0.329),
    p("gb300", Sglang, mla(Decode, Bf16, Fp8E4m3), [6.72991, 0.833827, 1.0, 3.91658, 0.194078, f64::INFINITY, 1.5], 0.077, 0.267),
    p("h100-sxm", TensorRtLlm, gemm(Bf16), [2.71228, 0.846255, 0.765933, 1.09679, 0.640976, 0.866634, 4.0], 0.049, 0.161).writes_at(0.707107),
    p("h100-sxm", Sglang, gemm(Bf16), [2.85101, 0.857868, 0.743503, 1.23359, 0.654748, 0.857868, 4.0], 0.061, 0.169).writes_at(0.707107),
    p("h100-sxm", Vllm, gemm(Bf16), [2.6544, 0.926916, 0.832808, 1.19341, 1.0, 0.96051, 2.0], 0.057, 0.176).writes_at(0.707107),
    p("h100-sxm", TensorRtLlm, gemm(Fp8E4m3), [12.768, 0.831816, 0.782529, 0.0, 0.0948641, 0.831816, 2.0], 0.034, 0.113).quantised_at(0.3536).writes_at(0.707107),
    p("h100-sxm", Sglang, gemm(Fp8E4m3), [5.41812, 0.817883, 0.742443, 0.0, 0.0597924, 0.817883, 4.0], 0.082, 0.242).quantised_at(0.5946).writes_at(0.5946),
    p("h100-sxm", Vllm, gemm(Fp8E4m3), [4.55302, 0.835657, 0.704117, 0.0, 0.0721515, 0.835657, f64::INFINITY], 0.061, 0.185).quantised_in_steps_of(0.4204).writes_at(0.707107),
    ph("h100-sxm", TensorRtLlm, attention(Prefill, Bf16, Bf16), [13.3956, 0.611392, 0.60111, 3.03084, 1.0, 0.611392, 1.0], [1.11516, 0.97591, 1.07573, 0.975065, 1.0], 0.054, 0.208).fixed_by_head_width([1.00488, 0.770244, 0.950012, 1.03538, 1.0]),
    ph("h100-sxm", Sglang, attention(Prefill, Bf16, Bf16), [10.1627, 0.894039, 0.66182, 0.0, 1.0, 0.932233, 1.0], [2.25558, 1.01611, 0.902983, 0.920596, 6.32647], 0.075, 0.356).fixed_by_head_width([0.951922, 0.981971, 1.75773, 1.15561, 0.946295]).walks_hidden_tiles_at(1.0),
    ph("h100-sxm", Vllm, attention(Prefill, Bf16, Bf16), [11.2856, 0.555712, 0.645692, 0.0, 1.0, 0.555712, 1.0], [1.24487, 0.910571, 0.796677, 0.776657, 1.61287], 0.093, 0.306).fixed_by_head_width([0.9161, 1.02101, 1.07015, 1.10205, 1.53173]),
    ph("h100-sxm", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.7612, 0.670518, 0.818838, 4.12252, 1.0, 0.678836, 1.5], [1.23909, 0.922369, 1.22104, 0.955672, 1.0], 0.081, 0.307).fixed_by_head_width([0.991667, 1.0472, 0.972956, 0.991686, 1.0]),
    ph("h100-sxm", Sglang, attention(Prefill, Bf16, Fp8E4m3), [14.2475, 0.307708, 0.0633194, 0.0, 1.0, 0.487054, f64::INFINITY], [1.0, 1.0, 1.0, 0.818816, 1.05917], 0.087, 0.585).fixed_by_head_width([1.0, 1.0, 1.0, 0.989613, 1.05615]).walks_hidden_tiles_at(0.125),
    ph("h100-sxm", Vllm, attention(Prefill, Bf16, Fp8E4m3), [12.705, 0.373375, 0.597544, 0.0, 1.0, 0.373375, 1.0], [1.02722, 0.901339, 0.959876, 1.26962, 1.0], 0.111, 0.340).fixed_by_head_width([0.862716, 1.02953, 1.06696, 1.22405, 1.0]),
    ph("h100-sxm", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.3039, 0.617493, 0.447094, 4.62735, 1.0, 1.0, 1.0], [1.31311, 1.00229, 1.23109, 0.909339, 1.0], 0.096, 0.330).fixed_by_head_width([1.00314, 0.871149, 1.00052, 1.02817, 1.0]),
    ph("h100-sxm", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [7.39171, 1.0, 0.421207, 2.55341, 1.0, 1.0, 2.0], [1.18427, 1.05342, 0.794331, 0.881646, 8.13142], 0.084, 0.412).fixed_by_head_width([0.909413, 0.979293, 2.21002, 1.36637, 0.954327]).walks_hidden_tiles_at(1.0),
    ph("h100-sxm", TensorRtLlm, attention(Decode, Bf16, Bf16), [3.73142, 1.0, 0.0483159, 4.18138, 0.0078262, 1.0, 4.0], [0.408023, 0.387283, 0.926452, 1.0, 1.0], 0.113, 0.311).fixed_by_head_width([0.962759, 1.18555, 0.978757, 1.20699, 1.0]),
    p("h100-sxm", Sglang, attention(Decode, Bf16, Bf16), [6.13561, 0.905435, 1.0, 3.38751, 0.401245, 0.947152, 1.0], 0.071, 0.258).fixed_by_head_width([0.99016, 0.96447, 2.16463, 1.26094, 0.969094]),
    ph("h100-sxm", Vllm, attention(Decode, Bf16, Bf16), [7.46537, 0.902788, 1.0, 3.79123, 1.0, 0.902788, 1.0], [1.0, 0.596534, 1.0, 1.0, 1.0], 0.080, 0.296).fixed_by_head_width([0.885438, 1.04508, 1.11485, 1.15374, 1.68235]),
    p("h100-sxm", TensorRtLlm, per_query_head(Bf16, Bf16), [6.7463, 0.912501, 1.0, 1.20322, 0.547143, 2.10955, 1.0], 0.096, 0.327).fixed_by_head_width([0.976303, 1.11053, 1.00551, 1.13909, 1.0]),
    ph("h100-sxm", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [6.53233, 1.0, 0.0595057, 1.18362, 0.00737254, 1.15328, 4.0], [0.544467, 0.716221, 1.30519, 1.11704, 1.0], 0.094, 0.360).fixed_by_head_width([1.04491, 0.716204, 0.740597, 0.743763, 1.0]),
    p("h100-sxm", Sglang, attention(Decode, Bf16, Fp8E4m3), [9.35126, 0.654213, 1.0, 3.58842, 0.293799, 0.689237, 1.5], 0.077, 0.261).fixed_by_head_width([0.994021, 0.97578, 1.92471, 1.27708, 0.872895]),
    ph("h100-sxm", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.65994, 0.740853, 0.103653, 4.09514, 0.16241, 0.740853, 1.0], [0.126305, 0.142718, 0.895752, 1.12981, 1.0], 0.105, 0.305).fixed_by_head_width([0.800283, 1.0328, 1.09254, 1.33238, 1.0]),
    p("h100-sxm", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.89663, 0.787166, 1.0, 1.20126, 0.0445364, 1.04927, 1.0], 0.111, 0.342).fixed_by_head_width([1.00261, 0.984605, 1.04472, 1.00153, 1.0]),
    p("h100-sxm", TensorRtLlm, moe(Bf16, Bf16), [26.9371, 0.87829, 0.831614, 0.0, 1.0, 0.878308, 2.0], 0.065, 0.449).writes_at(0.707107).routes_at(2.0),
    p("h100-sxm", Sglang, moe(Bf16, Bf16), [28.3752, 0.938812, 0.296967, 0.0, 1.0, 3.0931, 1.5], 0.133, 0.433).writes_at(1.0).routes_at(0.25).in_tiles(Triton),
    p("h100-sxm", Vllm, moe(Bf16, Bf16), [39.35, 0.905063, 0.533056, 0.0, 1.0, 1.28391, 4.0], 0.096, 0.413).writes_at(1.0).routes_at(0.25),
    p("h100-sxm", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [28.3149, 0.833305, 0.71702, 0.0, 1.0, 0.833305, 4.0], 0.080, 0.438).quantised_at(0.5946).quantised_from_l2_at(1.6818).writes_at(0.5946).routes_at(1.0),
    p("h100-sxm", Vllm, moe(Fp8E4m3, Fp8E4m3), [34.4663, 0.176221, 0.140437, 0.0, 1.0, 0.212779, 4.0], 0.134, 0.492).quantised_at(1.0).quantised_from_l2_at(1.0).writes_at(1.0),
    p("h100-sxm", TensorRtLlm, moe(Bf16, MxFp4), [72.7295, 0.826703, 1.0, 0.0, 1.0, 0.826703, f64::INFINITY], 0.091, 0.283).writes_at(0.125).routes_at(0.125),
    p("h100-sxm", Sglang, moe(Bf16, MxFp4), [24.9058, 0.257699, 0.272806, 0.0, 1.0, 0.257699, 1.5], 0.175, 0.520).writes_at(0.2973).routes_at(0.25).in_tiles(Triton),
    p("h100-sxm", Vllm, moe(Bf16, MxFp4), [63.6345, 0.806022, 0.778391, 0.0, 1.0, 0.846071, 1.5], 0.208, 0.600).writes_at(0.8409).routes_at(0.25),
    p("h100-sxm", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.5293, 1.0, 0.635597, 3.88632, 1.0, 1.0, f64::INFINITY], 0.109, 0.335),
    p("h100-sxm", Sglang, mla(Prefill, Bf16, Bf16), [11.8622, 0.365945, 0.180046, 0.0, 1.0, 0.367927, 1.5], 0.050, 0.370),
    p("h100-sxm", TensorRtLlm, mla(Decode, Bf16, Bf16), [6.33613, 0.93043, 0.887204, 7.07344, 0.433188, 0.93043, 2.0], 0.055, 0.221),
    p("h100-sxm", Sglang, mla(Decode, Bf16, Bf16), [5.84206, 0.885996, 0.632659, 5.92029, 0.370433, 0.885996, 4.0], 0.055, 0.238),
    p("h100-sxm", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [5.90267, 0.87006, 0.805279, 7.13549, 0.376072, 0.87006, 2.0], 0.078, 0.255),
    p("h100-sxm", Sglang, mla(Decode, Bf16, Fp8E4m3), [17.1444, 0.0832982, 0.129053, 0.0, 0.0681991, 0.084704, f64::INFINITY], 0.057, 0.595),
    p("h200", TensorRtLlm, gemm(Bf16), [2.75979, 0.866175, 0.804523, 1.17029, 0.583379, 0.883852, 2.0], 0.054, 0.171).writes_at(0.5946),
    p("h200", Sglang, gemm(Bf16), [2.86464, 0.888704, 0.759633, 1.2685, 0.476361, 0.906841, 2.0], 0.072, 0.200).writes_at(0.5946),
    p("h200", Vllm, gemm(Bf16), [2.74202, 0.888074, 0.822032, 1.17658, 0.539297, 0.906198, 2.0], 0.061, 0.184).writes_at(0.5946),
    p("h200", TensorRtLlm, gemm(Fp8E4m3), [12.5377, 0.873724, 0.747248, 1.01084, 1.0, 0.873724, 2.0], 0.039, 0.129).quantised_at(0.2973).writes_at(0.5946),
    p("h200", Sglang, gemm(Fp8E4m3), [5.55461, 0.787305, 0.756522, 0.0, 0.0415831, 1.0, 4.0], 0.086, 0.238).quantised_at(0.5946).writes_at(0.4204),
    p("h200", Vllm, gemm(Fp8E4m3), [4.6029, 0.793848, 0.822666, 0.0, 0.0527004, 0.793848, 4.0], 0.050, 0.146).quantised_in_steps_of(0.5).writes_at(0.5),
    ph("h200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.4637, 0.565332, 0.604515, 3.53289, 1.0, 1.0, 1.0], [1.11087, 0.964254, 1.04918, 0.992479, 1.0], 0.067, 0.253).fixed_by_head_width([1.00786, 0.772079, 0.949518, 1.04325, 1.0]),
    ph("h200", Sglang, attention(Prefill, Bf16, Bf16), [10.0059, 0.73135, 0.633724, 0.0, 1.0, 0.765713, 1.0], [2.30243, 1.01708, 0.894863, 0.925233, 6.04876], 0.087, 0.362).fixed_by_head_width([0.958248, 0.981411, 1.74835, 1.15976, 0.956085]).walks_hidden_tiles_at(1.0),
    ph("h200", Vllm, attention(Prefill, Bf16, Bf16), [11.151, 0.410537, 0.630719, 0.0, 1.0, 0.410537, 1.0], [1.2554, 0.901549, 0.787192, 0.772549, 1.6101], 0.093, 0.320).fixed_by_head_width([0.90881, 1.01424, 1.06688, 1.09287, 1.57695]),
    ph("h200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [11.9679, 0.855918, 0.914764, 4.51356, 1.0, 0.916674, 1.0], [1.31737, 0.95914, 1.27866, 0.980531, 1.0], 0.086, 0.323).fixed_by_head_width([0.989101, 1.05125, 0.973828, 0.999109, 1.0]),
    ph("h200", Sglang, attention(Prefill, Bf16, Fp8E4m3), [14.0964, 0.936849, 0.0658964, 0.0, 1.0, 4.36656, 1.0], [1.0, 1.0, 1.0, 0.724893, 1.0723], 0.086, 0.574).fixed_by_head_width([1.0, 1.0, 1.0, 0.987967, 1.05307]).walks_hidden_tiles_at(0.25),
    ph("h200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [12.641, 0.269007, 0.585474, 0.0, 1.0, 0.269007, 1.0], [1.03005, 0.901579, 0.963492, 1.24318, 1.0], 0.109, 0.334).fixed_by_head_width([0.857955, 1.02356, 1.06808, 1.23145, 1.0]),
    ph("h200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [11.7729, 1.0, 0.427395, 4.78665, 1.0, 1.0, 1.0], [1.27138, 0.991008, 1.19487, 0.919847, 1.0], 0.091, 0.316).fixed_by_head_width([1.00667, 0.885769, 1.00814, 1.0239, 1.0]),
    ph("h200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [7.24368, 1.0, 0.411084, 2.54895, 1.0, 1.0, 2.0], [1.1729, 1.04112, 0.79838, 0.867315, 8.02713], 0.088, 0.420).fixed_by_head_width([0.920586, 0.978133, 2.2029, 1.37448, 0.959799]).walks_hidden_tiles_at(1.0),
    ph("h200", TensorRtLlm, attention(Decode, Bf16, Bf16), [3.24919, 1.0, 0.068612, 4.51636, 0.00769997, 1.0, 2.0], [0.206385, 0.214045, 0.603195, 1.0001, 1.0], 0.105, 0.311).fixed_by_head_width([0.936805, 1.21938, 0.987223, 1.2361, 1.0]),
    ph("h200", Sglang, attention(Decode, Bf16, Bf16), [5.93404, 0.837021, 0.234514, 3.47337, 0.345693, 0.837021, f64::INFINITY], [1.0, 0.938201, 1.0, 1.11882, 1.0], 0.085, 0.258).fixed_by_head_width([0.984001, 0.964702, 2.13172, 1.26963, 0.952566]),
    ph("h200", Vllm, attention(Decode, Bf16, Bf16), [7.16193, 0.835884, 0.252084, 3.86801, 1.0, 0.835884, 4.0], [0.993232, 1.08913, 1.0, 1.0, 1.0], 0.091, 0.308).fixed_by_head_width([0.876929, 1.04752, 1.11201, 1.16438, 1.7176]),
    p("h200", TensorRtLlm, per_query_head(Bf16, Bf16), [6.56088, 0.885947, 1.0, 1.22796, 0.0503275, 1.45824, 1.0], 0.098, 0.333).fixed_by_head_width([0.973508, 1.1234, 1.00276, 1.1517, 1.0]),
    ph("h200", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [6.35137, 1.0, 0.0708198, 1.21753, 0.00708921, 1.0, 4.0], [0.605025, 0.780294, 1.39766, 1.16618, 1.0], 0.092, 0.343).fixed_by_head_width([1.04199, 0.704623, 0.753908, 0.73815, 1.0]),
    ph("h200", Sglang, attention(Decode, Bf16, Fp8E4m3), [8.99919, 0.526946, 0.443, 3.73751, 1.0, 0.526946, 2.0], [1.0, 1.01361, 1.26042, 0.986753, 1.0], 0.084, 0.273).fixed_by_head_width([0.992272, 0.972847, 1.93542, 1.28242, 0.85625]),
    ph("h200", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.43038, 0.545734, 0.106374, 4.13237, 1.0, 0.545734, 1.0], [0.18587, 0.155282, 0.874342, 1.1267, 1.0], 0.117, 0.315).fixed_by_head_width([0.793731, 1.03669, 1.10007, 1.3503, 1.0]),
    p("h200", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.77244, 0.593569, 1.0, 1.20652, 1.0, 0.722053, 1.0], 0.114, 0.373).fixed_by_head_width([1.00084, 0.983215, 1.00711, 1.0048, 1.0]),
    p("h200", TensorRtLlm, moe(Bf16, Bf16), [27.4203, 0.89126, 0.837829, 0.0, 1.0, 0.894485, 2.0], 0.079, 0.512).writes_at(0.5946).routes_at(1.0),
    p("h200", Sglang, moe(Bf16, Bf16), [27.7374, 0.84176, 0.322058, 0.0, 1.0, 1.0, 1.5], 0.136, 0.434).writes_at(1.0).routes_at(0.25).in_tiles(Triton),
    p("h200", Vllm, moe(Bf16, Bf16), [39.6349, 0.912149, 0.695207, 0.0, 1.0, 42.3028, 4.0], 0.098, 0.438).writes_at(1.0).routes_at(0.125),
    p("h200", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [28.5607, 0.826315, 0.816863, 0.0, 1.0, 0.826315, 2.0], 0.094, 0.527).quantised_at(0.5946).quantised_from_l2_at(4.0).writes_at(0.5).routes_at(0.5),
    p("h200", Vllm, moe(Fp8E4m3, Fp8E4m3), [37.1338, 0.120968, 0.178513, 0.0, 1.0, 0.161229, 4.0], 0.143, 0.528).quantised_at(1.0).quantised_from_l2_at(1.0).writes_at(0.8409),
    p("h200", TensorRtLlm, moe(Bf16, MxFp4), [68.8027, 0.618232, 0.461146, 0.0, 1.0, 0.626982, f64::INFINITY], 0.122, 0.310).writes_at(0.125).routes_at(0.0625),
    p("h200", Sglang, moe(Bf16, MxFp4), [26.3389, 0.230834, 0.179466, 0.0, 1.0, 0.776045, f64::INFINITY], 0.212, 0.482).writes_at(1.0).routes_at(0.125).in_tiles(Triton),
    p("h200", Vllm, moe(Bf16, MxFp4), [66.6944, 0.587324, 0.853645, 0.0, 1.0, 1.74997, 1.0], 0.250, 0.578).writes_at(1.0).routes_at(0.25),
    p("h200", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.9818, 1.0, 0.61792, 3.48144, 1.0, 1.0, 4.0], 0.109, 0.356),
    p("h200", Sglang, mla(Prefill, Bf16, Bf16), [11.657, 0.305068, 0.181264, 0.0, 1.0, 0.305068, 1.5], 0.047, 0.361),
    p("h200", TensorRtLlm, mla(Decode, Bf16, Bf16), [5.65444, 0.925014, 0.63344, 7.35872, 0.418809, 0.927549, 4.0], 0.075, 0.229),
    p("h200", Sglang, mla(Decode, Bf16, Bf16), [5.38356, 0.874545, 0.598563, 6.20024, 0.335849, 0.876954, 4.0], 0.067, 0.265),
    p("h200", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [5.43207, 0.638645, 0.700455, 7.3446, 0.271851, 0.638645, f64::INFINITY], 0.080, 0.270),
    p("h200", Sglang, mla(Decode, Bf16, Fp8E4m3), [16.861, 0.0628674, 0.134028, 0.0, 0.0505329, 0.0628674, f64::INFINITY], 0.054, 0.556),
    p("l40s", TensorRtLlm, gemm(Bf16), [2.01225, 0.815694, 0.579792, 0.799873, 1.0, 2.26809, 2.0], 0.086, 0.275).writes_at(0.707107),
    p("l40s", Sglang, gemm(Bf16), [2.15123, 0.764267, 0.535757, 0.994648, 1.0, 2.01841, 4.0], 0.097, 0.311).writes_at(1.0),
    p("l40s", Vllm, gemm(Bf16), [1.96689, 0.807773, 0.638763, 0.805485, 1.0, 2.15201, 2.0], 0.089, 0.250).writes_at(0.707107),
    p("l40s", TensorRtLlm, gemm(Fp8E4m3), [12.2006, 0.827529, 0.558213, 0.950138, 0.450494, 2.21125, 2.0], 0.056, 0.167).quantised_at(0.5946).quantised_from_l2_at(2.3784).writes_at(0.707107),
    p("l40s", Sglang, gemm(Fp8E4m3), [4.11721, 0.728258, 0.463403, 0.0, 0.092881, 1.92992, 4.0], 0.121, 0.405).quantised_at(0.707107).quantised_from_l2_at(1.0).writes_at(1.0),
    p("l40s", Vllm, gemm(Fp8E4m3), [3.5588, 0.742702, 0.575631, 0.0, 0.0481992, 0.773429, 1.5], 0.132, 0.556).quantised_in_steps_of(0.5946).writes_at(0.4204),
    ph("l40s", TensorRtLlm, attention(Prefill, Bf16, Bf16), [9.52217, 0.333762, 0.388896, 0.0, 1.0, 0.94389, 1.5], [1.02423, 1.00726, 1.73528, 0.914748, 1.0], 0.087, 0.306).fixed_by_head_width([0.985111, 1.00317, 0.99934, 0.977197, 1.0]),
    ph("l40s", Sglang, attention(Prefill, Bf16, Bf16), [6.65379, 0.818386, 0.424405, 0.0, 1.0, 4.01109, 2.0], [1.903, 0.781189, 1.35815, 1.01068, 1.0], 0.099, 0.476).fixed_by_head_width([1.00368, 0.791243, 1.94227, 1.04204, 1.0]).walks_hidden_tiles_at(0.5),
    ph("l40s", Vllm, attention(Prefill, Bf16, Bf16), [4.57308, 1.0, 0.493691, 3.9461, 1.0, 2.48565, 4.0], [1.04415, 0.950805, 0.978905, 1.09304, 1.0], 0.083, 0.279).fixed_by_head_width([1.03575, 0.886248, 0.80819, 1.07313, 1.0]),
    ph("l40s", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [9.56633, 0.33459, 0.386406, 0.0, 1.0, 0.894661, 1.5], [1.02062, 1.00731, 1.73228, 0.912018, 1.0], 0.085, 0.310).fixed_by_head_width([0.998089, 1.02969, 1.0294, 0.975608, 1.0]),
    ph("l40s", Sglang, attention(Prefill, Bf16, Fp8E4m3), [9.14581, 0.744846, 0.41446, 0.0, 1.0, 2.99694, 2.0], [1.77927, 0.768927, 1.44612, 1.01074, 1.0], 0.111, 0.458).fixed_by_head_width([1.00681, 0.821896, 1.68708, 1.00603, 1.0]).walks_hidden_tiles_at(0.5),
    ph("l40s", Vllm, attention(Prefill, Bf16, Fp8E4m3), [10.5753, 0.87215, 0.388485, 0.0, 1.0, 1.56756, 2.0], [0.931227, 0.934223, 1.8679, 1.35087, 1.0], 0.126, 0.422).fixed_by_head_width([0.983683, 1.11182, 0.773993, 1.0633, 1.0]),
    ph("l40s", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [7.44325, 0.41329, 0.158105, 5.44497, 1.0, 2.78071, 1.5], [0.981639, 0.417515, 0.583143, 1.56456, 1.0], 0.086, 0.387).fixed_by_head_width([1.00109, 0.496711, 0.564852, 1.02385, 1.0]),
    ph("l40s", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [11.7655, 0.908078, 0.194004, 0.0, 1.0, 1.19327, 1.5], [1.56542, 1.0, 0.876763, 1.0, 1.0], 0.192, 0.594).fixed_by_head_width([0.520895, 1.0, 1.00587, 1.0, 1.0]).walks_hidden_tiles_at(0.5),
    ph("l40s", TensorRtLlm, attention(Decode, Bf16, Bf16), [4.55534, 0.801855, 0.207312, 3.06533, 0.0395719, 4.44592, f64::INFINITY], [0.80057, 0.864742, 1.84216, 0.966668, 1.0], 0.082, 0.304).fixed_by_head_width([1.00497, 1.00008, 0.993352, 0.96261, 1.0]),
    ph("l40s", Sglang, attention(Decode, Bf16, Bf16), [4.12036, 0.854156, 0.900326, 1.50499, 0.854156, 4.40441, 1.0], [1.0, 0.937166, 1.0, 1.00298, 1.0], 0.104, 0.468).fixed_by_head_width([0.951223, 0.996375, 2.32372, 1.00672, 0.881308]),
    ph("l40s", Vllm, attention(Decode, Bf16, Bf16), [4.4507, 0.830991, 0.492135, 4.23555, 0.0333947, 3.57561, f64::INFINITY], [0.86086, 1.00207, 1.0, 1.0, 1.0], 0.089, 0.293).fixed_by_head_width([1.07669, 0.963703, 0.853066, 1.00564, 1.0]),
    p("l40s", TensorRtLlm, per_query_head(Bf16, Bf16), [6.80536, 0.871733, 1.0, 0.872578, 1.0, 6.98676, 1.0], 0.092, 0.331).fixed_by_head_width([0.999697, 0.974214, 1.09956, 0.997371, 1.0]),
    p("l40s", Vllm, per_query_head(Bf16, Bf16), [4.86777, 0.545449, 1.0, 3.59395, 0.0330997, 5.47608, f64::INFINITY], 0.089, 0.263).fixed_by_head_width([1.01103, 0.867114, 0.74722, 0.950228, 1.0]),
    p("l40s", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [5.6921, 0.828012, 1.0, 3.75866, 0.0186102, 2.52629, 2.0], 0.047, 0.210).fixed_by_head_width([0.975148, 0.975148, 1.277, 1.28818, 1.0]),
    ph("l40s", Sglang, attention(Decode, Bf16, Fp8E4m3), [6.28322, 0.834982, 0.162311, 2.61777, 0.607362, 2.55964, f64::INFINITY], [1.0, 1.07699, 0.905891, 0.711284, 1.0], 0.085, 0.372).fixed_by_head_width([0.779767, 0.999463, 1.57833, 1.17757, 1.0]),
    ph("l40s", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.37033, 0.825182, 0.160993, 2.20058, 1.0, 3.21692, f64::INFINITY], [0.921145, 1.04432, 1.74354, 0.862426, 1.0], 0.093, 0.312).fixed_by_head_width([0.980316, 1.10036, 0.694742, 1.08104, 1.0]),
    p("l40s", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [10.0661, 0.789272, 1.0, 2.89918, 1.0, 0.945315, f64::INFINITY], 0.119, 0.383).fixed_by_head_width([0.915445, 1.08278, 1.71206, 1.6382, 1.0]),
    p("l40s", TensorRtLlm, moe(Bf16, Bf16), [23.788, 0.813422, 0.355617, 0.0, 1.0, 4.20737, 4.0], 0.051, 0.294),
    p("l40s", Sglang, moe(Bf16, Bf16), [21.6671, 0.848417, 0.51405, 0.0, 1.0, 3.79267, 1.0], 0.191, 0.531).writes_at(1.0).routes_at(0.5).in_tiles(Triton),
    p("l40s", Vllm, moe(Bf16, Bf16), [26.7054, 0.835702, 0.584092, 0.0, 1.0, 4.77648, 4.0], 0.094, 0.509).writes_at(1.0).routes_at(0.25),
    p("l40s", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [24.729, 0.807161, 0.419379, 0.0, 1.0, 4.28659, 4.0], 0.054, 0.225).quantised_at(1.0).quantised_from_l2_at(2.3784).writes_at(0.8409).routes_at(4.0),
    p("l40s", Vllm, moe(Fp8E4m3, Fp8E4m3), [26.1752, 0.791434, 0.560482, 0.0, 1.0, 5.11139, 4.0], 0.108, 0.673).quantised_at(0.3536).quantised_from_l2_at(1.0).writes_at(1.0).routes_at(0.125),
    p("l40s", Sglang, moe(Bf16, MxFp4), [18.1737, 0.222459, 0.127046, 0.0, 1.0, 182.633, 1.5], 0.188, 0.745).writes_at(0.8409).routes_at(0.5).in_tiles(Triton),
    p("l40s", Vllm, moe(Bf16, MxFp4), [34.6, 0.78426, 0.482939, 0.0, 1.0, 3.11672, f64::INFINITY], 0.110, 0.375).writes_at(1.0).routes_at(0.25),
    p("l40s", TensorRtLlm, mla(Prefill, Bf16, Bf16), [7.1269, 0.608525, 0.427025, 3.66996, 1.0, 178.056, 4.0], 0.071, 0.254),
    p("l40s", Sglang, mla(Prefill, Bf16, Bf16), [4.464, 0.554501, 0.061231, 4.67384, 0.00196296, 122.366, 4.0], 0.062, 0.474),
    p("l40s", TensorRtLlm, mla(Decode, Bf16, Bf16), [0.0, 0.791863, 0.298428, 9.54221, 0.0174379, 2.02619, f64::INFINITY], 0.067, 0.304),
    p("l40s", Sglang, mla(Decode, Bf16, Bf16), [0.0, 0.8423, 0.153115, 9.90128, 0.0887195, 2.04422, 2.0], 0.090, 0.358),
    p("l40s", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [0.0, 0.399388, 0.29624, 10.3999, 0.00863225, 2.52454, f64::INFINITY], 0.071, 0.397),
    p("rtx-pro-6000", TensorRtLlm, gemm(Bf16), [2.37907, 0.850069, 0.829747, 0.840064, 1.0, 1.98408, 1.5], 0.081, 0.255).writes_at(0.8409),
    p("rtx-pro-6000", Sglang, gemm(Bf16), [2.08016, 0.839909, 0.821063, 0.923581, 1.0, 1.7602, 2.0], 0.061, 0.230).writes_at(0.8409),
    p("rtx-pro-6000", Vllm, gemm(Bf16), [2.0849, 0.838456, 0.823665, 0.850668, 1.0, 1.57244, 2.0], 0.076, 0.240).writes_at(0.8409),
    p("rtx-pro-6000", TensorRtLlm, gemm(Fp8E4m3), [12.3053, 0.833959, 0.745492, 0.83433, 0.265089, 1.48268, 2.0], 0.063, 0.179).quantised_at(0.5946).writes_at(0.8409),
    p("rtx-pro-6000", Sglang, gemm(Fp8E4m3), [5.3642, 0.662894, 0.91613, 0.0, 0.0108097, 1.18157, 4.0], 0.041, 0.236).quantised_at(0.707107).quantised_from_l2_at(1.6818).writes_at(1.0),
    p("rtx-pro-6000", Vllm, gemm(Fp8E4m3), [3.80766, 0.882853, 1.0, 0.0, 0.0444198, 1.70306, 1.0], 0.084, 0.315).quantised_in_steps_of(0.4204).writes_at(0.8409),
    p("rtx-pro-6000", TensorRtLlm, gemm(NvFp4), [4.10855, 0.614642, 0.918, 0.0, 0.0106261, 0.785581, 4.0], 0.047, 0.207).quantised_at(0.8409).quantised_from_l2_at(2.3784).writes_at(1.0),
    p("rtx-pro-6000", Sglang, gemm(NvFp4), [4.27816, 0.689892, 1.0, 0.0, 0.0118884, 0.864835, 2.0], 0.037, 0.137).quantised_at(0.8409).quantised_from_l2_at(1.6818).writes_at(1.0),
    p("rtx-pro-6000", Vllm, gemm(NvFp4), [6.70876, 0.590531, 1.0, 0.0, 0.0121164, 1.09331, 2.0], 0.048, 0.251).quantised_at(0.8409).quantised_from_l2_at(2.0).writes_at(0.8409),
    ph("rtx-pro-6000", TensorRtLlm, attention(Prefill, Bf16, Bf16), [11.1563, 0.443702, 0.464332, 0.0, 1.0, 0.635583, 1.0], [0.84792, 0.979983, 1.65294, 1.03882, 1.0], 0.060, 0.273).fixed_by_head_width([0.989409, 1.18944, 1.0872, 1.54171, 1.0]),
    ph("rtx-pro-6000", Sglang, attention(Prefill, Bf16, Bf16), [8.30509, 0.983925, 0.574405, 0.0, 1.0, 3.13619, 1.5], [1.95552, 0.822896, 1.95967, 0.875493, 2.6752], 0.146, 0.584).fixed_by_head_width([1.01356, 0.761169, 1.74964, 0.99383, 0.999009]).walks_hidden_tiles_at(1.0),
    ph("rtx-pro-6000", Vllm, attention(Prefill, Bf16, Bf16), [5.38818, 1.0, 0.629466, 3.49294, 1.0, 1.59261, 1.5], [1.04211, 0.95365, 0.972138, 1.06391, 1.0], 0.078, 0.269).fixed_by_head_width([1.00142, 0.997525, 0.944504, 1.01462, 1.0]),
    ph("rtx-pro-6000", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [11.1991, 0.448898, 0.458446, 0.0, 1.0, 0.643059, 1.0], [0.846573, 0.975949, 1.58606, 1.03351, 1.0], 0.061, 0.280).fixed_by_head_width([0.98825, 1.20595, 1.14737, 1.53709, 1.0]),
    ph("rtx-pro-6000", Sglang, attention(Prefill, Bf16, Fp8E4m3), [10.4036, 0.899617, 0.558541, 0.0, 1.0, 2.38985, 1.5], [1.67535, 0.825296, 2.0788, 0.865455, 4.60808], 0.162, 0.559).fixed_by_head_width([1.00166, 0.806371, 1.59436, 1.00049, 1.2007]).walks_hidden_tiles_at(1.0),
    ph("rtx-pro-6000", Vllm, attention(Prefill, Bf16, Fp8E4m3), [10.8525, 0.886742, 0.511817, 0.0, 1.0, 1.10731, 1.5], [0.920054, 0.921613, 2.54416, 1.25736, 1.0], 0.115, 0.418).fixed_by_head_width([0.982701, 1.04237, 0.817916, 1.00189, 1.0]),
    ph("rtx-pro-6000", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.0719, 0.389121, 0.191199, 5.04692, 1.0, 1.0, 1.5], [0.965029, 0.417898, 0.91703, 1.73164, 1.0], 0.090, 0.380).fixed_by_head_width([1.00693, 0.501633, 0.641888, 1.0116, 1.0]),
    ph("rtx-pro-6000", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [6.04762, 1.0, 0.203589, 4.87044, 1.0, 2.43523, f64::INFINITY], [1.39065, 0.85401, 0.857578, 1.74189, 1.19949], 0.158, 0.665).fixed_by_head_width([0.25, 0.572804, 1.26208, 1.54958, 0.25]).walks_hidden_tiles_at(0.375),
    p("rtx-pro-6000", TensorRtLlm, attention(Decode, Bf16, Bf16), [3.88931, 0.861671, 1.0, 3.12016, 0.861671, 1.9602, 1.0], 0.137, 0.533).fixed_by_head_width([0.999249, 0.992109, 1.02572, 1.01441, 1.0]),
    p("rtx-pro-6000", Sglang, attention(Decode, Bf16, Bf16), [4.50914, 0.860876, 0.9174, 1.82622, 0.586763, 2.47145, 1.0], 0.126, 0.511).fixed_by_head_width([0.997794, 0.997932, 2.18124, 1.00654, 1.45215]),
    p("rtx-pro-6000", Vllm, attention(Decode, Bf16, Bf16), [4.2797, 0.873048, 1.0, 4.49869, 0.0140337, 3.16968, 1.0], 0.094, 0.317).fixed_by_head_width([1.01026, 1.00051, 0.938539, 0.98227, 1.0]),
    p("rtx-pro-6000", TensorRtLlm, per_query_head(Bf16, Bf16), [5.57485, 1.0, 1.0, 1.2312, 0.024515, 7.31884, f64::INFINITY], 0.101, 0.309).fixed_by_head_width([1.00499, 1.01302, 1.0, 1.02035, 1.0]),
    p("rtx-pro-6000", Vllm, per_query_head(Bf16, Bf16), [5.16582, 0.683872, 1.0, 3.57529, 0.0157061, 4.61435, 2.0], 0.084, 0.251).fixed_by_head_width([1.01075, 0.983001, 0.927066, 0.965818, 1.0]),
    ph("rtx-pro-6000", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [5.46519, 0.864564, 0.341251, 3.21946, 0.0157156, 2.59475, f64::INFINITY], [1.00982, 0.9447, 1.65206, 0.945964, 1.0], 0.065, 0.361).fixed_by_head_width([0.921099, 1.01835, 1.04039, 1.04018, 1.0]),
    ph("rtx-pro-6000", Sglang, attention(Decode, Bf16, Fp8E4m3), [5.76846, 0.826281, 0.18913, 2.64244, 0.358144, 1.62014, f64::INFINITY], [1.0, 1.01038, 0.898147, 0.547223, 1.0], 0.119, 0.352).fixed_by_head_width([0.99488, 1.00018, 1.71118, 1.34705, 1.34179]),
    ph("rtx-pro-6000", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.47507, 0.838139, 0.180668, 2.37868, 0.833732, 2.10982, f64::INFINITY], [0.877922, 0.956784, 1.93127, 1.01808, 1.0], 0.106, 0.267).fixed_by_head_width([0.996356, 1.0175, 0.759676, 1.00434, 1.0]),
    p("rtx-pro-6000", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.73153, 1.0, 1.0, 0.987355, 0.0177215, 3.45033, f64::INFINITY], 0.098, 0.253).fixed_by_head_width([0.999183, 1.01036, 1.0, 0.940967, 1.0]),
    p("rtx-pro-6000", TensorRtLlm, moe(Bf16, Bf16), [27.1393, 0.856769, 0.658368, 0.0, 1.0, 1.90133, 2.0], 0.065, 0.297).writes_at(1.0).routes_at(4.0),
    p("rtx-pro-6000", Sglang, moe(Bf16, Bf16), [26.3593, 0.907829, 0.682793, 0.0, 1.0, 3.17293, 1.0], 0.139, 0.362).writes_at(1.0).routes_at(0.5).in_tiles(Triton),
    p("rtx-pro-6000", Vllm, moe(Bf16, Bf16), [34.0285, 0.843034, 0.368483, 0.0, 1.0, 1.67442, 4.0], 0.064, 0.429).writes_at(0.8409).routes_at(4.0),
    p("rtx-pro-6000", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [25.5447, 0.835625, 0.588688, 0.0, 1.0, 2.27917, 4.0], 0.069, 0.288).quantised_at(1.0).quantised_from_l2_at(1.0).writes_at(0.8409).routes_at(4.0),
    p("rtx-pro-6000", Vllm, moe(Fp8E4m3, Fp8E4m3), [32.6434, 0.820713, 0.328046, 0.0, 1.0, 1.8778, 4.0], 0.057, 0.321).quantised_at(0.4204).quantised_from_l2_at(1.41421).writes_at(0.8409).routes_at(2.0),
    p("rtx-pro-6000", TensorRtLlm, moe(NvFp4, NvFp4), [41.9888, 0.772212, 0.626149, 0.0, 1.0, 1.05559, 4.0], 0.081, 0.244).quantised_at(1.0).quantised_from_l2_at(1.6818).writes_at(0.8409),
    p("rtx-pro-6000", Sglang, moe(NvFp4, NvFp4), [55.9179, 1.0, 0.603204, 0.0, 1.0, 1.21819, f64::INFINITY], 0.176, 0.481).quantised_at(1.0).writes_at(0.5946).routes_at(1.0),
    p("rtx-pro-6000", Vllm, moe(NvFp4, NvFp4), [40.2018, 0.794799, 0.565945, 0.0, 1.0, 0.848793, 4.0], 0.071, 0.293).quantised_at(0.3536).quantised_from_l2_at(1.41421).writes_at(0.707107).routes_at(2.0),
    p("rtx-pro-6000", Sglang, moe(Bf16, MxFp4), [55.0007, 0.814271, 0.486071, 0.0, 1.0, 2.0489, 2.0], 0.093, 0.366).writes_at(0.707107),
    p("rtx-pro-6000", Vllm, moe(Bf16, MxFp4), [51.1539, 0.807162, 0.558793, 0.0, 1.0, 3.75503, 4.0], 0.134, 0.487).writes_at(1.0).routes_at(0.25),
    p("rtx-pro-6000", TensorRtLlm, moe(MxFp8E4m3, MxFp4), [61.2807, 0.704109, 0.600266, 0.0, 1.0, 0.810586, 4.0], 0.066, 0.204).quantised_at(1.0).quantised_from_l2_at(4.0).writes_at(1.0),
    p("rtx-pro-6000", TensorRtLlm, mla(Prefill, Bf16, Bf16), [9.51767, 0.905576, 0.494504, 4.81684, 1.0, 3.82978, 4.0], 0.079, 0.285),
    p("rtx-pro-6000", Sglang, mla(Prefill, Bf16, Bf16), [5.73295, 1.0, 0.0632695, 4.82567, 1.0, 1.0, 2.0], 0.070, 0.438),
    p("rtx-pro-6000", TensorRtLlm, mla(Decode, Bf16, Bf16), [2.1259, 0.778944, 0.496604, 8.44685, 0.00750616, 2.19909, 1.5], 0.067, 0.297),
    p("rtx-pro-6000", Sglang, mla(Decode, Bf16, Bf16), [0.0, 0.775015, 0.145227, 10.0812, 0.0309542, 1.12345, 2.0], 0.102, 0.271),
    p("rtx-pro-6000", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [0.0, 0.41339, 0.743123, 9.6674, 0.00575122, 1.31909, 1.5], 0.105, 0.262),
    p("rtx-pro-6000", TensorRtLlm, xqa_mla(Bf16, Fp8E4m3), [13.876, 0.564376, 1.0, 0.0, 0.0192369, 0.788671, f64::INFINITY], 0.048, 0.314),
];
