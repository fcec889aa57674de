//! The shipped kernel profiles, one line each. `rooflinr validate --tables DIR --profiles`
//! prints these lines from its fits; `cargo xtask validate` refits them and says whether
//! each still matches.

use super::{Framework, KernelTerms, PREFILL_HEAD_DIMS, Profile, Profiled};
use crate::analysis::Phase::{self, Decode, Prefill};
use crate::format::Format::{self, Bf16, Fp8E4m3, MxFp4, MxFp8E4m3, NvFp4};
use Framework::{Sglang, TensorRtLlm, Vllm};

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
) -> Profile {
    Profile {
        hardware,
        framework,
        kernel,
        terms: KernelTerms {
            fixed_s: terms[0] * 1e-6,
            bandwidth: terms[1],
            compute: terms[2],
            per_wave_s: terms[3] * 1e-6,
            tile_bandwidth: terms[4],
            l2_bandwidth: terms[5],
            overlap: terms[6],
            head_compute: [1.0; PREFILL_HEAD_DIMS.len()],
            head_fixed: [1.0; PREFILL_HEAD_DIMS.len()],
            route_rate: f64::INFINITY,
            quantise_bandwidth: None,
            write_bandwidth: None,
            hidden_tile_share: 0.0,
        },
        held_out_median,
        held_out_p90,
        whole_tiles: false,
    }
}

/// One prefill attention profile whose kernels reach their own share of the peak at each
/// head width: `p`'s terms and `head_compute`, the compute time of each width of
/// [`PREFILL_HEAD_DIMS`] relative to the compute fraction's ([`KernelTerms::head_compute`]).
const fn ph(
    hardware: &'static str,
    framework: Framework,
    kernel: Profiled,
    terms: [f64; 7],
    head_compute: [f64; PREFILL_HEAD_DIMS.len()],
    held_out_median: f64,
    held_out_p90: f64,
) -> Profile {
    let mut profile = p(
        hardware,
        framework,
        kernel,
        terms,
        held_out_median,
        held_out_p90,
    );
    profile.terms.head_compute = head_compute;
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
/// costs). Not every term is a property of the chip alone:
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
///   those that split K (BF16 and FP8 on Blackwell: 800-2,700 GB/s; Hopper's and A100's
///   BF16 show no such limit, fitted at the whole bandwidth). Kernels that split K reduce
///   the partial sums in a second kernel ([`super::reduces_partial_sums`]): the per-wave
///   latency of its two dependent steps reads 1.2-1.8 us in TensorRT-LLM's tables on
///   Hopper and Blackwell, about a kernel launch each. The L2 rate of a GEMM profile is the one a benchmark loop's
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
///   Triton kernel) takes 15-16 us on Blackwell, 2.1-2.9x its other widths', which one
///   fixed time for all had missed by 40-60 % on short prompts. The latency
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
///   time: a tile the window hides fits 5/8 to a whole computed tile's time on Blackwell,
///   1/2-5/8 on L40S, 3/8-1 on RTX PRO 6000, and on Hopper a whole one for BF16 and FP8
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
///   fits, and the tile rate there has no physical reading.
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
///   share at ([`super::found_in_l2`]): 0.2-1.8x the DRAM's datasheet rate on Hopper
///   (TensorRT-LLM's at its bandwidth fraction), none fitted on Blackwell, 0.9-5.5x on L40S
///   and RTX PRO 6000; vLLM's W4A16 MXFP4 on H200 fits 50x, which has no physical
///   reading. The product's layers read their weights from DRAM and never use it.
///   Profiles marked
///   `in_whole_tiles` were fitted on TRT-LLM-Gen kernels only, which compute whole tiles of
///   rows per expert ([`super::trtllm_gen_moe_tile`]), and a framework whose MoE table
///   mixes such kernels with others has no profile.
// Fitted figures: one may happen to lie near a mathematical constant (0.318).
#[allow(clippy::approx_constant)]
#[rustfmt::skip]
pub const PROFILES: &[Profile] = &[
    p("a100-sxm", TensorRtLlm, gemm(Bf16), [3.56235, 0.794236, 0.851786, 1.01494, 1.0, 0.794236, 1.5], 0.080, 0.220).writes_at(0.5),
    p("a100-sxm", Sglang, gemm(Bf16), [3.69021, 0.741473, 0.797962, 1.20744, 0.525673, 0.741473, 1.5], 0.076, 0.241).writes_at(0.3536),
    p("a100-sxm", Vllm, gemm(Bf16), [3.43915, 0.736097, 0.877092, 1.0496, 0.497532, 0.75112, 1.5], 0.081, 0.224).writes_at(0.4204),
    p("a100-sxm", TensorRtLlm, attention(Prefill, Bf16, Bf16), [11.7741, 0.484033, 0.493322, 1.94471, 1.0, 0.484033, 1.0], 0.032, 0.135),
    p("a100-sxm", Sglang, attention(Prefill, Bf16, Bf16), [14.0016, 0.765159, 0.67095, 0.0, 1.0, 0.786428, 1.0], 0.072, 0.341),
    p("a100-sxm", Vllm, attention(Prefill, Bf16, Bf16), [9.0317, 0.833725, 0.604171, 3.38756, 1.0, 0.833725, 1.0], 0.099, 0.334),
    p("a100-sxm", TensorRtLlm, attention(Decode, Bf16, Bf16), [4.87289, 1.0, 1.0, 6.05623, 0.0111209, 1.0, 4.0], 0.149, 0.505),
    p("a100-sxm", Sglang, attention(Decode, Bf16, Bf16), [10.6605, 0.534417, 0.234541, 3.37177, 1.0, 0.534417, 2.0], 0.111, 0.365),
    p("a100-sxm", Vllm, attention(Decode, Bf16, Bf16), [8.50396, 0.7558, 1.0, 3.99957, 0.128471, 0.7558, 1.0], 0.169, 0.358),
    p("a100-sxm", TensorRtLlm, per_query_head(Bf16, Bf16), [9.19969, 0.905822, 1.0, 1.69808, 0.0201925, 2.25673, 1.0], 0.098, 0.424),
    p("a100-sxm", Sglang, moe(Bf16, Bf16), [35.343, 0.771092, 0.530718, 0.0, 1.0, 0.771092, 1.0], 0.124, 0.317),
    p("a100-sxm", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.4288, 1.0, 0.498217, 3.87387, 1.0, 1.3027, 2.0], 0.068, 0.290),
    p("a100-sxm", TensorRtLlm, mla(Decode, Bf16, Bf16), [2.1073, 1.0, 0.368766, 12.0346, 0.00468408, 1.0, 1.5], 0.088, 0.270),
    p("a100-sxm", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [1.66103, 0.7314, 0.368455, 12.5343, 0.00234629, 1.0, 1.5], 0.086, 0.274),
    p("b200", TensorRtLlm, gemm(Bf16), [2.15405, 0.756001, 0.693475, 1.28789, 1.0, f64::INFINITY, 2.0], 0.068, 0.202),
    p("b200", Sglang, gemm(Bf16), [2.2514, 0.767392, 0.680037, 1.5058, 1.0, f64::INFINITY, 2.0], 0.086, 0.252).writes_at(0.5946),
    p("b200", Vllm, gemm(Bf16), [2.12063, 0.795092, 0.727702, 1.4428, 1.0, f64::INFINITY, 2.0], 0.072, 0.212).writes_at(0.5946),
    p("b200", TensorRtLlm, gemm(Fp8E4m3), [14.0577, 0.721468, 0.706634, 0.950818, 0.110054, f64::INFINITY, 2.0], 0.043, 0.125).quantised_at(0.2973).writes_at(0.5946),
    p("b200", Sglang, gemm(Fp8E4m3), [5.50879, 0.700591, 0.609892, 0.0, 0.0192154, f64::INFINITY, 2.0], 0.095, 0.259).quantised_at(0.4204).writes_at(0.2973),
    p("b200", Vllm, gemm(Fp8E4m3), [5.83434, 0.754862, 0.756786, 0.0, 0.0228112, f64::INFINITY, 4.0], 0.103, 0.418).quantised_at(0.1487).writes_at(0.1768),
    p("b200", TensorRtLlm, gemm(NvFp4), [6.41874, 0.605819, 0.93636, 0.0, 0.00515676, f64::INFINITY, 2.0], 0.036, 0.130).quantised_at(0.4204).writes_at(0.4204),
    p("b200", Sglang, gemm(NvFp4), [4.38691, 0.614044, 0.593672, 0.0, 0.0131763, f64::INFINITY, 1.5], 0.088, 0.256).writes_at(0.4204),
    p("b200", Vllm, gemm(NvFp4), [6.82813, 0.777809, 0.589002, 0.0, 0.0156204, f64::INFINITY, 1.5], 0.059, 0.187).writes_at(0.5),
    ph("b200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.3653, 0.327469, 0.506894, 2.67911, 0.000532996, f64::INFINITY, 1.5], [1.35588, 0.930758, 1.0, 0.940933, 1.38533], 0.067, 0.232).fixed_by_head_width([0.990477, 1.00785, 1.0, 0.993048, 0.777631]),
    ph("b200", Sglang, attention(Prefill, Bf16, Bf16), [6.37973, 0.649685, 0.582499, 2.98622, 0.0000632377, f64::INFINITY, f64::INFINITY], [1.42256, 0.9368, 5.97156, 0.922799, 1.6478], 0.136, 0.628).fixed_by_head_width([1.15915, 1.16324, 2.44059, 1.15919, 1.16525]).walks_hidden_tiles_at(0.75),
    ph("b200", Vllm, attention(Prefill, Bf16, Bf16), [5.15058, 0.583074, 0.435379, 3.03902, 1.0, f64::INFINITY, 4.0], [1.22416, 0.809459, 1.0, 0.816537, 1.45809], 0.159, 0.392).fixed_by_head_width([0.997999, 1.00082, 1.0, 1.38588, 1.37569]),
    ph("b200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.619, 0.320296, 0.587547, 2.42304, 1.0, f64::INFINITY, 1.5], [1.38465, 0.911443, 1.0, 0.854953, 1.01305], 0.064, 0.210).fixed_by_head_width([0.989419, 1.00985, 1.0, 0.998758, 0.998419]),
    ph("b200", Sglang, attention(Prefill, Bf16, Fp8E4m3), [16.7496, 0.215724, 0.104603, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.192546, 0.952864, 1.33526, 1.0], 0.115, 0.445).fixed_by_head_width([1.0, 0.989341, 1.23286, 0.729891, 1.0]).walks_hidden_tiles_at(0.875),
    ph("b200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [5.20507, 1.0, 0.439695, 3.82724, 1.0, f64::INFINITY, f64::INFINITY], [1.14135, 0.634175, 13.7156, 1.02023, 1.49996], 0.209, 0.577).fixed_by_head_width([1.35599, 1.32589, 0.82729, 1.38331, 1.36221]),
    ph("b200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.587, 0.212684, 0.319844, 2.43692, 0.000463946, f64::INFINITY, 1.5], [1.4938, 0.931112, 1.0, 0.889466, 1.0], 0.061, 0.213).fixed_by_head_width([0.992928, 1.0065, 1.0, 0.999343, 1.0]),
    ph("b200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.1932, 0.438298, 0.324517, 4.40998, 1.0, f64::INFINITY, 4.0], [1.32238, 0.832579, 4.63693, 0.921863, 1.38083], 0.144, 0.571).fixed_by_head_width([0.996129, 1.0, 0.997654, 0.993473, 1.15681]).walks_hidden_tiles_at(1.0),
    p("b200", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.3195, 0.956521, 0.235062, 1.64554, 0.325431, f64::INFINITY, 1.5], 0.059, 0.280),
    p("b200", Sglang, attention(Decode, Bf16, Bf16), [7.02994, 0.959135, 1.0, 1.93123, 0.213525, f64::INFINITY, 1.0], 0.139, 0.501),
    p("b200", Vllm, attention(Decode, Bf16, Bf16), [7.35996, 0.965123, 0.28308, 1.33715, 0.348816, f64::INFINITY, 1.5], 0.131, 0.421),
    p("b200", TensorRtLlm, per_query_head(Bf16, Bf16), [7.20815, 1.0, 1.0, 1.54064, 0.00677458, 1.06001, f64::INFINITY], 0.069, 0.227),
    p("b200", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [9.65949, 0.934521, 0.314902, 1.33499, 0.21721, f64::INFINITY, 1.5], 0.059, 0.243),
    p("b200", Sglang, attention(Decode, Bf16, Fp8E4m3), [15.0884, 0.91155, 1.0, 1.45587, 0.109895, f64::INFINITY, 1.0], 0.123, 0.426),
    p("b200", Vllm, attention(Decode, Bf16, Fp8E4m3), [7.66322, 0.93219, 1.0, 1.32792, 0.18403, f64::INFINITY, 1.0], 0.154, 0.470),
    p("b200", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.93526, 0.839375, 1.0, 1.23177, 0.00360845, 1.0, f64::INFINITY], 0.091, 0.217),
    p("b200", TensorRtLlm, moe(Bf16, Bf16), [26.1476, 0.841301, 0.80942, 0.0, 1.0, f64::INFINITY, 2.0], 0.083, 0.365).writes_at(0.5).routes_at(1.0),
    p("b200", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [28.6275, 0.792957, 0.845041, 0.0, 1.0, f64::INFINITY, 2.0], 0.094, 0.338).quantised_at(0.3536).writes_at(0.4204).routes_at(0.5),
    p("b200", TensorRtLlm, moe(NvFp4, NvFp4), [34.9799, 0.44074, 0.448235, 0.0, 1.0, f64::INFINITY, 4.0], 0.138, 0.420).quantised_at(0.2973).writes_at(0.2973).routes_at(1.0),
    p("b200", Sglang, moe(NvFp4, NvFp4), [18.6362, 0.931667, 1.0, 0.0, 1.0, f64::INFINITY, 2.0], 0.152, 0.376).quantised_at(1.0).writes_at(0.8409).routes_at(0.25).in_whole_tiles(),
    p("b200", TensorRtLlm, moe(Bf16, MxFp4), [45.3058, 0.194593, 0.135134, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.034, 0.105).routes_at(0.5).in_whole_tiles(),
    p("b200", Sglang, moe(Bf16, MxFp4), [19.9997, 0.551036, 0.328698, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.106, 0.301).writes_at(0.4204).routes_at(0.25).in_whole_tiles(),
    p("b200", TensorRtLlm, moe(MxFp8E4m3, MxFp4), [20.0688, 0.808881, 0.295717, 0.0, 1.0, f64::INFINITY, 2.0], 0.149, 0.419).quantised_at(1.0).writes_at(0.707107).routes_at(0.5).in_whole_tiles(),
    p("b200", Sglang, moe(MxFp8E4m3, MxFp4), [19.9439, 0.821106, 0.912706, 0.0, 1.0, f64::INFINITY, 1.5], 0.130, 0.360).quantised_at(1.0).routes_at(0.25).in_whole_tiles(),
    p("b200", Vllm, moe(MxFp8E4m3, MxFp4), [26.1022, 0.851819, 0.702876, 0.0, 1.0, f64::INFINITY, 4.0], 0.104, 0.408).quantised_at(0.3536).writes_at(0.4204).routes_at(0.5).in_whole_tiles(),
    p("b200", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.6808, 1.0, 0.611773, 3.24184, 1.0, f64::INFINITY, f64::INFINITY], 0.087, 0.427),
    p("b200", Sglang, mla(Prefill, Bf16, Bf16), [9.29787, 0.906807, 0.653589, 3.19986, 1.0, f64::INFINITY, f64::INFINITY], 0.106, 0.435),
    p("b200", TensorRtLlm, mla(Decode, Bf16, Bf16), [5.26549, 0.730724, 1.0, 5.35674, 0.289757, f64::INFINITY, 4.0], 0.073, 0.273),
    p("b200", Sglang, mla(Decode, Bf16, Bf16), [4.43487, 0.749622, 1.0, 6.02312, 0.282031, f64::INFINITY, 1.5], 0.101, 0.265),
    p("b200", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [3.98593, 0.846454, 1.0, 5.00155, 0.200589, f64::INFINITY, 1.5], 0.120, 0.349),
    p("b200", Sglang, mla(Decode, Bf16, Fp8E4m3), [6.34766, 0.849843, 1.0, 4.06149, 0.199057, f64::INFINITY, 1.5], 0.076, 0.258),
    p("b300", TensorRtLlm, gemm(Bf16), [1.98167, 0.760008, 0.739285, 1.1593, 0.317884, f64::INFINITY, 2.0], 0.078, 0.202),
    p("b300", Sglang, gemm(Bf16), [2.0947, 0.758163, 0.737457, 1.34722, 1.0, f64::INFINITY, 2.0], 0.083, 0.233),
    p("b300", Vllm, gemm(Bf16), [1.97259, 0.782967, 0.799099, 1.28828, 0.335872, f64::INFINITY, 2.0], 0.071, 0.204),
    p("b300", TensorRtLlm, gemm(Fp8E4m3), [13.3849, 0.720194, 0.750897, 0.963836, 0.126465, f64::INFINITY, 2.0], 0.051, 0.122).quantised_at(0.2973).writes_at(0.5946),
    p("b300", Sglang, gemm(Fp8E4m3), [5.40098, 0.651098, 0.601656, 0.0, 0.02, f64::INFINITY, 4.0], 0.091, 0.248).quantised_at(0.4204).writes_at(0.2973),
    p("b300", Vllm, gemm(Fp8E4m3), [5.50877, 0.753244, 0.829541, 0.0, 0.0253165, f64::INFINITY, 4.0], 0.088, 0.336).quantised_at(0.1487).writes_at(0.1768),
    p("b300", TensorRtLlm, gemm(NvFp4), [7.17813, 0.618344, 1.0, 0.0, 0.00636891, f64::INFINITY, 1.5], 0.084, 0.210).quantised_at(0.4204).writes_at(0.1768),
    p("b300", Sglang, gemm(NvFp4), [3.8748, 0.62576, 0.433985, 0.0, 0.0137501, f64::INFINITY, 1.5], 0.085, 0.250).quantised_at(0.5).writes_at(0.4204),
    p("b300", Vllm, gemm(NvFp4), [6.56219, 0.766333, 0.36827, 0.0, 0.0167938, f64::INFINITY, 2.0], 0.059, 0.198).writes_at(0.5),
    ph("b300", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.3616, 0.333947, 0.565382, 2.47022, 1.0, f64::INFINITY, 1.5], [1.13011, 0.876394, 1.0, 0.996343, 1.4626], 0.058, 0.209).fixed_by_head_width([0.939122, 1.00656, 1.0, 0.992613, 0.680875]),
    ph("b300", Sglang, attention(Prefill, Bf16, Bf16), [4.96016, 1.0, 0.680413, 3.12412, 0.000105467, f64::INFINITY, f64::INFINITY], [1.14502, 0.866325, 6.73011, 0.99723, 1.71293], 0.158, 0.655).fixed_by_head_width([1.06995, 1.08799, 3.10095, 1.13447, 1.46594]).walks_hidden_tiles_at(0.75),
    ph("b300", Vllm, attention(Prefill, Bf16, Bf16), [6.03251, 0.429179, 0.548316, 2.8126, 1.0, f64::INFINITY, 2.0], [1.13725, 0.805433, 1.0, 0.984746, 1.66018], 0.120, 0.321).fixed_by_head_width([1.03305, 1.31569, 1.0, 1.31528, 1.35498]),
    ph("b300", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.37, 0.381226, 0.930366, 2.23104, 1.0, f64::INFINITY, 1.0], [1.38417, 0.930366, 1.0, 0.930366, 1.15634], 0.063, 0.184).fixed_by_head_width([0.886974, 1.02508, 1.0, 1.00743, 1.01294]),
    ph("b300", Sglang, attention(Prefill, Bf16, Fp8E4m3), [16.5747, 0.216519, 0.107462, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.155761, 0.955933, 1.321, 1.0], 0.124, 0.481).fixed_by_head_width([1.0, 0.883262, 1.2433, 0.736817, 1.0]).walks_hidden_tiles_at(0.875),
    ph("b300", Vllm, attention(Prefill, Bf16, Fp8E4m3), [8.08005, 0.177527, 0.609019, 0.0, 0.0000249668, f64::INFINITY, 1.0], [1.09676, 0.609019, 17.5834, 0.609019, 0.800989], 0.175, 0.493).fixed_by_head_width([1.20735, 1.32645, 0.950178, 1.32514, 1.32782]),
    ph("b300", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.3707, 0.250245, 0.491758, 2.26831, 0.000194365, f64::INFINITY, 1.0], [1.44982, 0.958362, 1.0, 0.93691, 1.0], 0.063, 0.190).fixed_by_head_width([0.885863, 1.01658, 1.0, 1.00514, 1.0]),
    ph("b300", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [11.2625, 0.245426, 0.476229, 3.34755, 1.0, f64::INFINITY, 1.5], [1.36262, 0.882271, 6.72191, 0.947706, 1.57785], 0.117, 0.520).fixed_by_head_width([0.994727, 0.999008, 1.17036, 0.99186, 1.16888]).walks_hidden_tiles_at(1.0),
    p("b300", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.31655, 0.936005, 0.274377, 1.54058, 0.348069, f64::INFINITY, 1.5], 0.051, 0.290),
    p("b300", Sglang, attention(Decode, Bf16, Bf16), [6.58793, 0.933244, 1.0, 1.88799, 0.212631, f64::INFINITY, 1.0], 0.156, 0.495),
    p("b300", Vllm, attention(Decode, Bf16, Bf16), [7.44121, 0.930503, 1.0, 1.43594, 0.217243, f64::INFINITY, 1.0], 0.042, 0.242),
    p("b300", TensorRtLlm, per_query_head(Bf16, Bf16), [7.10427, 1.0, 1.0, 1.57475, 0.00666265, 1.09197, f64::INFINITY], 0.072, 0.223),
    p("b300", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [9.63942, 0.936455, 0.74372, 1.24478, 0.228973, f64::INFINITY, 1.0], 0.048, 0.233),
    p("b300", Sglang, attention(Decode, Bf16, Fp8E4m3), [13.0335, 0.87076, 1.0, 1.63385, 0.102139, f64::INFINITY, 1.0], 0.117, 0.411),
    p("b300", Vllm, attention(Decode, Bf16, Fp8E4m3), [7.66782, 0.895371, 1.0, 1.32817, 0.191021, f64::INFINITY, 1.0], 0.050, 0.263),
    p("b300", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.7513, 0.915822, 1.0, 1.26803, 0.00362562, 1.0, f64::INFINITY], 0.072, 0.209),
    p("b300", TensorRtLlm, moe(Bf16, Bf16), [24.9478, 0.82406, 0.781736, 0.0, 1.0, f64::INFINITY, 4.0], 0.082, 0.351).writes_at(0.5).routes_at(1.0),
    p("b300", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [26.98, 0.763158, 0.915301, 0.0, 1.0, f64::INFINITY, 2.0], 0.096, 0.336).quantised_at(0.4204).writes_at(0.4204).routes_at(0.5),
    p("b300", TensorRtLlm, moe(NvFp4, NvFp4), [32.8782, 0.673765, 1.0, 0.0, 1.0, f64::INFINITY, 1.5], 0.110, 0.340).quantised_at(0.2973).writes_at(0.2973).routes_at(0.5),
    p("b300", Sglang, moe(NvFp4, NvFp4), [17.7023, 0.899967, 1.0, 0.0, 1.0, f64::INFINITY, 2.0], 0.153, 0.389).quantised_at(1.0).routes_at(0.25).in_whole_tiles(),
    p("b300", TensorRtLlm, moe(Bf16, MxFp4), [44.3235, 0.201034, 0.141376, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.025, 0.101).routes_at(0.5).in_whole_tiles(),
    p("b300", Sglang, moe(Bf16, MxFp4), [18.4482, 0.546389, 0.262807, 0.0, 1.0, f64::INFINITY, 4.0], 0.062, 0.203).writes_at(0.4204).routes_at(0.25).in_whole_tiles(),
    p("b300", TensorRtLlm, moe(MxFp8E4m3, MxFp4), [19.3642, 0.827157, 0.338001, 0.0, 1.0, f64::INFINITY, 2.0], 0.147, 0.438).quantised_at(1.0).routes_at(0.5).in_whole_tiles(),
    p("b300", Sglang, moe(MxFp8E4m3, MxFp4), [18.4275, 0.786447, 0.614373, 0.0, 1.0, f64::INFINITY, 4.0], 0.128, 0.312).quantised_at(0.3536).writes_at(0.5946).routes_at(0.5).in_whole_tiles(),
    p("b300", Vllm, moe(MxFp8E4m3, MxFp4), [23.9216, 0.829998, 0.750025, 0.0, 1.0, f64::INFINITY, 4.0], 0.106, 0.428).quantised_at(0.3536).writes_at(0.4204).routes_at(0.5).in_whole_tiles(),
    p("b300", TensorRtLlm, mla(Prefill, Bf16, Bf16), [9.96183, 1.0, 0.684492, 2.99784, 1.0, f64::INFINITY, f64::INFINITY], 0.105, 0.417),
    p("b300", Sglang, mla(Prefill, Bf16, Bf16), [7.48674, 1.0, 0.733653, 3.03947, 1.0, f64::INFINITY, f64::INFINITY], 0.140, 0.438),
    p("b300", TensorRtLlm, mla(Decode, Bf16, Bf16), [3.43182, 0.722837, 0.794692, 5.53999, 0.269278, f64::INFINITY, 4.0], 0.107, 0.293),
    p("b300", Sglang, mla(Decode, Bf16, Bf16), [4.78675, 0.734467, 1.0, 5.61297, 0.296407, f64::INFINITY, 2.0], 0.079, 0.251),
    p("b300", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [4.0906, 0.829919, 1.0, 4.67831, 0.196574, f64::INFINITY, 1.5], 0.095, 0.333),
    p("b300", Sglang, mla(Decode, Bf16, Fp8E4m3), [4.22732, 0.825949, 1.0, 4.24566, 0.195052, f64::INFINITY, 1.5], 0.151, 0.308),
    p("gb200", TensorRtLlm, gemm(Bf16), [2.16195, 0.755829, 0.674569, 1.1973, 0.29237, f64::INFINITY, 2.0], 0.069, 0.205),
    p("gb200", Sglang, gemm(Bf16), [2.24565, 0.759138, 0.673925, 1.23581, 0.20142, f64::INFINITY, 2.0], 0.079, 0.239),
    p("gb200", Vllm, gemm(Bf16), [2.19306, 0.78008, 0.717966, 1.28019, 0.355151, f64::INFINITY, 2.0], 0.075, 0.236),
    p("gb200", TensorRtLlm, gemm(Fp8E4m3), [13.9557, 0.587473, 0.547321, 0.998807, 0.082781, f64::INFINITY, 2.0], 0.067, 0.189).writes_at(0.5946),
    p("gb200", Sglang, gemm(Fp8E4m3), [5.47425, 0.682485, 0.613595, 0.0, 0.0189372, f64::INFINITY, 2.0], 0.088, 0.242).quantised_at(0.4204).writes_at(0.3536),
    p("gb200", Vllm, gemm(Fp8E4m3), [5.89418, 0.717849, 0.784265, 0.0, 0.0233781, f64::INFINITY, 4.0], 0.093, 0.339).quantised_at(0.1487).writes_at(0.1768),
    p("gb200", TensorRtLlm, gemm(NvFp4), [6.1626, 0.602824, 1.0, 0.0, 0.00532909, f64::INFINITY, 1.5], 0.035, 0.131).quantised_at(0.5).writes_at(0.4204),
    p("gb200", Sglang, gemm(NvFp4), [3.90588, 0.625446, 0.627204, 0.0, 0.013324, f64::INFINITY, 1.5], 0.087, 0.262).quantised_at(0.5).writes_at(0.4204),
    p("gb200", Vllm, gemm(NvFp4), [7.36795, 0.760724, 0.513618, 0.0, 0.0157113, f64::INFINITY, 2.0], 0.067, 0.199).quantised_at(0.707107).writes_at(0.5),
    ph("gb200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.7507, 0.322931, 0.49296, 2.54154, 1.0, f64::INFINITY, 1.5], [1.3396, 0.900373, 1.0, 0.95792, 1.35958], 0.070, 0.235).fixed_by_head_width([0.999882, 1.00529, 1.0, 0.983865, 0.810726]),
    ph("gb200", Sglang, attention(Prefill, Bf16, Bf16), [6.77159, 1.0, 0.554758, 3.01459, 0.0000878831, f64::INFINITY, f64::INFINITY], [1.35577, 0.914373, 5.35234, 0.963381, 1.57426], 0.150, 0.633).fixed_by_head_width([1.09393, 1.10601, 2.301, 1.09873, 1.11491]).walks_hidden_tiles_at(0.875),
    ph("gb200", Vllm, attention(Prefill, Bf16, Bf16), [6.63342, 0.35867, 0.372492, 2.69917, 0.000118227, f64::INFINITY, 4.0], [1.16658, 0.781818, 1.0, 0.864626, 1.43058], 0.115, 0.320).fixed_by_head_width([1.25804, 1.28759, 1.0, 1.336, 1.52133]),
    ph("gb200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [13.0065, 0.319286, 0.6047, 2.29175, 1.0, f64::INFINITY, 1.5], [1.45559, 0.923394, 1.0, 0.831102, 1.04677], 0.067, 0.214).fixed_by_head_width([0.988216, 1.01664, 1.0, 0.99813, 0.99479]),
    ph("gb200", Sglang, attention(Prefill, Bf16, Fp8E4m3), [18.6002, 0.21443, 0.102329, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.218027, 0.974928, 1.35158, 1.0], 0.123, 0.468).fixed_by_head_width([1.0, 0.898536, 1.21646, 0.663733, 1.0]).walks_hidden_tiles_at(0.875),
    ph("gb200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [9.82088, 0.163937, 0.41435, 0.0, 0.0000262003, f64::INFINITY, 1.0], [1.13809, 0.577003, 12.7365, 0.497274, 0.71955], 0.164, 0.462).fixed_by_head_width([1.12216, 1.29362, 0.922948, 1.15373, 1.27165]),
    ph("gb200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.9096, 0.205188, 0.331582, 2.30031, 0.000448863, f64::INFINITY, 1.5], [1.57297, 0.942111, 1.0, 0.859807, 1.0], 0.063, 0.221).fixed_by_head_width([0.998144, 1.01108, 1.0, 0.997986, 1.0]),
    ph("gb200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.2972, 1.0, 0.352508, 4.32785, 1.0, f64::INFINITY, 1.0], [1.47393, 0.863069, 5.07369, 0.867761, 1.51683], 0.134, 0.588).fixed_by_head_width([0.851288, 1.00209, 1.15039, 0.994245, 1.04164]).walks_hidden_tiles_at(1.0),
    p("gb200", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.78403, 0.946221, 1.0, 1.54669, 0.313069, f64::INFINITY, 1.0], 0.073, 0.276),
    p("gb200", Sglang, attention(Decode, Bf16, Bf16), [8.62346, 0.948305, 1.0, 1.77609, 0.196715, f64::INFINITY, 1.5], 0.167, 0.475),
    p("gb200", Vllm, attention(Decode, Bf16, Bf16), [7.91875, 0.945807, 0.578885, 1.47374, 0.212624, f64::INFINITY, 1.0], 0.102, 0.241),
    p("gb200", TensorRtLlm, per_query_head(Bf16, Bf16), [7.77049, 1.0, 1.0, 1.423, 0.00687029, 1.08698, f64::INFINITY], 0.072, 0.223),
    p("gb200", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [10.0863, 0.942022, 0.57055, 1.27572, 0.217872, f64::INFINITY, 1.0], 0.076, 0.241),
    p("gb200", Sglang, attention(Decode, Bf16, Fp8E4m3), [14.0169, 0.895076, 1.0, 1.49775, 0.108364, f64::INFINITY, 1.0], 0.103, 0.425),
    p("gb200", Vllm, attention(Decode, Bf16, Fp8E4m3), [9.66296, 0.898307, 1.0, 1.16069, 0.193257, f64::INFINITY, 1.0], 0.042, 0.234),
    p("gb200", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [9.65792, 0.900641, 1.0, 1.1348, 0.00367814, 1.0, f64::INFINITY], 0.081, 0.213),
    p("gb200", TensorRtLlm, moe(Bf16, Bf16), [25.6488, 0.840147, 0.699753, 0.0, 1.0, f64::INFINITY, 4.0], 0.078, 0.285).writes_at(0.4204).routes_at(2.0),
    p("gb200", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [28.0273, 0.798985, 0.805583, 0.0, 1.0, f64::INFINITY, 2.0], 0.083, 0.309).quantised_at(0.4204).writes_at(0.4204).routes_at(0.5),
    p("gb200", TensorRtLlm, moe(NvFp4, NvFp4), [33.4006, 0.569175, 0.518483, 0.0, 1.0, f64::INFINITY, 2.0], 0.131, 0.375).writes_at(0.2973).routes_at(0.5),
    p("gb200", Sglang, moe(NvFp4, NvFp4), [18.257, 0.943475, 1.0, 0.0, 1.0, f64::INFINITY, 2.0], 0.152, 0.380).quantised_at(1.0).writes_at(0.8409).routes_at(0.25).in_whole_tiles(),
    p("gb200", TensorRtLlm, moe(Bf16, MxFp4), [42.1549, 0.202764, 0.132629, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.035, 0.111).routes_at(0.5).in_whole_tiles(),
    p("gb200", Sglang, moe(Bf16, MxFp4), [19.6763, 0.54583, 0.285136, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.117, 0.310).writes_at(0.4204).routes_at(0.25).in_whole_tiles(),
    p("gb200", TensorRtLlm, moe(MxFp8E4m3, MxFp4), [20.0458, 0.840755, 0.297473, 0.0, 1.0, f64::INFINITY, 2.0], 0.141, 0.419).quantised_at(1.0).routes_at(0.5).in_whole_tiles(),
    p("gb200", Sglang, moe(MxFp8E4m3, MxFp4), [19.2793, 0.840902, 0.826002, 0.0, 1.0, f64::INFINITY, 1.5], 0.121, 0.351).quantised_at(1.0).writes_at(0.707107).routes_at(0.25).in_whole_tiles(),
    p("gb200", Vllm, moe(MxFp8E4m3, MxFp4), [26.2406, 0.904994, 0.842007, 0.0, 1.0, f64::INFINITY, 1.5], 0.110, 0.431).quantised_at(0.3536).writes_at(0.4204).routes_at(0.5).in_whole_tiles(),
    p("gb200", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.9261, 0.97139, 0.584041, 3.24994, 1.0, f64::INFINITY, f64::INFINITY], 0.120, 0.448),
    p("gb200", Sglang, mla(Prefill, Bf16, Bf16), [9.76791, 0.984609, 0.568772, 3.06244, 1.0, f64::INFINITY, f64::INFINITY], 0.131, 0.413),
    p("gb200", TensorRtLlm, mla(Decode, Bf16, Bf16), [5.27629, 0.720134, 1.0, 5.24944, 0.281994, f64::INFINITY, 4.0], 0.081, 0.271),
    p("gb200", Sglang, mla(Decode, Bf16, Bf16), [5.05116, 0.742386, 1.0, 5.81333, 0.288847, f64::INFINITY, 1.5], 0.124, 0.259),
    p("gb200", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [4.63239, 0.831146, 1.0, 4.72993, 0.189557, f64::INFINITY, 1.5], 0.123, 0.330),
    p("gb200", Sglang, mla(Decode, Bf16, Fp8E4m3), [6.7558, 0.841197, 1.0, 4.02264, 0.192431, f64::INFINITY, 1.5], 0.090, 0.271),
    p("gb300", TensorRtLlm, gemm(Bf16), [2.14579, 0.736556, 0.773571, 1.14129, 0.335973, f64::INFINITY, 2.0], 0.065, 0.205),
    p("gb300", Sglang, gemm(Bf16), [2.14919, 0.761354, 0.753024, 1.20236, 0.204816, f64::INFINITY, 2.0], 0.070, 0.210),
    p("gb300", Vllm, gemm(Bf16), [2.16435, 0.778984, 0.791009, 1.23409, 0.317656, f64::INFINITY, 2.0], 0.064, 0.199),
    p("gb300", TensorRtLlm, gemm(Fp8E4m3), [13.4843, 0.719967, 0.760571, 0.959371, 0.129948, f64::INFINITY, 2.0], 0.048, 0.118).quantised_at(0.2973).writes_at(0.5946),
    p("gb300", Sglang, gemm(Fp8E4m3), [5.34599, 0.684355, 0.708072, 0.0, 0.0204408, f64::INFINITY, 2.0], 0.079, 0.204).quantised_at(0.4204).writes_at(0.3536),
    p("gb300", Vllm, gemm(Fp8E4m3), [5.86744, 0.745467, 0.985862, 0.0, 0.0249013, f64::INFINITY, 2.0], 0.088, 0.333).quantised_at(0.1487).writes_at(0.2102),
    p("gb300", TensorRtLlm, gemm(NvFp4), [7.371, 0.589247, 1.0, 0.0, 0.00650608, f64::INFINITY, 1.5], 0.079, 0.188).quantised_at(0.4204).writes_at(0.2102),
    p("gb300", Sglang, gemm(NvFp4), [3.88433, 0.637194, 0.452509, 0.0, 0.0138083, f64::INFINITY, 1.5], 0.079, 0.230).quantised_at(0.5).writes_at(0.4204),
    p("gb300", Vllm, gemm(NvFp4), [7.43321, 0.752674, 0.342653, 0.0, 0.0159324, f64::INFINITY, f64::INFINITY], 0.067, 0.198).quantised_at(0.707107).writes_at(0.5),
    ph("gb300", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.716, 0.315868, 0.598279, 2.37587, 1.0, f64::INFINITY, 1.5], [1.22351, 0.863154, 1.0, 0.966874, 1.43877], 0.057, 0.210).fixed_by_head_width([0.993559, 1.00363, 1.0, 0.99392, 0.712705]),
    ph("gb300", Sglang, attention(Prefill, Bf16, Bf16), [6.90867, 1.0, 0.683791, 2.88141, 0.000101729, f64::INFINITY, f64::INFINITY], [1.1992, 0.871418, 7.16823, 0.977356, 1.80866], 0.143, 0.625).fixed_by_head_width([0.865332, 1.09103, 2.2871, 1.09179, 1.09581]).walks_hidden_tiles_at(0.75),
    ph("gb300", Vllm, attention(Prefill, Bf16, Bf16), [6.46437, 0.431395, 0.531202, 2.72756, 1.0, f64::INFINITY, 2.0], [1.12939, 0.768024, 1.0, 0.980546, 1.64457], 0.117, 0.318).fixed_by_head_width([1.2457, 1.26859, 1.0, 1.27047, 1.51869]),
    ph("gb300", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.966, 0.300535, 0.795116, 2.07302, 1.0, f64::INFINITY, 1.5], [1.40205, 0.902595, 1.0, 0.843652, 1.01778], 0.056, 0.181).fixed_by_head_width([0.990661, 1.00723, 1.0, 1.00288, 0.997074]),
    ph("gb300", Sglang, attention(Prefill, Bf16, Fp8E4m3), [16.7428, 0.234778, 0.101186, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.170533, 0.954715, 1.31455, 1.0], 0.125, 0.430).fixed_by_head_width([1.0, 0.988086, 1.33858, 0.734307, 1.0]).walks_hidden_tiles_at(0.875),
    ph("gb300", Vllm, attention(Prefill, Bf16, Fp8E4m3), [8.70448, 0.176113, 0.593411, 0.0, 0.0000251605, f64::INFINITY, 1.0], [1.07995, 0.593411, 18.1075, 0.593411, 0.671069], 0.170, 0.489).fixed_by_head_width([1.24694, 1.24792, 1.00244, 1.24504, 1.26689]),
    ph("gb300", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.7696, 0.238499, 0.511135, 2.11296, 0.00012817, f64::INFINITY, 1.0], [1.59189, 0.960513, 1.0, 0.889427, 1.0], 0.053, 0.186).fixed_by_head_width([1.00823, 1.01749, 1.0, 1.0127, 1.0]),
    ph("gb300", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [13.2727, 0.311768, 0.505854, 3.23062, 1.0, f64::INFINITY, 1.0], [1.45554, 0.866108, 7.23131, 0.89629, 1.52218], 0.114, 0.521).fixed_by_head_width([0.866707, 1.00234, 1.14987, 0.997048, 1.00374]).walks_hidden_tiles_at(1.0),
    p("gb300", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.61514, 0.925028, 1.0, 1.56019, 0.342339, f64::INFINITY, 1.0], 0.060, 0.276),
    p("gb300", Sglang, attention(Decode, Bf16, Bf16), [8.61837, 0.937102, 1.0, 1.76174, 0.19801, f64::INFINITY, 1.0], 0.179, 0.479),
    p("gb300", Vllm, attention(Decode, Bf16, Bf16), [7.67775, 0.920005, 0.71011, 1.47622, 0.212761, f64::INFINITY, 1.0], 0.073, 0.239),
    p("gb300", TensorRtLlm, per_query_head(Bf16, Bf16), [7.78606, 1.0, 1.0, 1.51371, 0.00665219, 1.11017, f64::INFINITY], 0.074, 0.211),
    p("gb300", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [9.87887, 0.929889, 0.575847, 1.3099, 0.215768, f64::INFINITY, 1.0], 0.061, 0.245),
    p("gb300", Sglang, attention(Decode, Bf16, Fp8E4m3), [13.1276, 0.869589, 1.0, 1.64871, 0.102558, f64::INFINITY, 1.0], 0.113, 0.418),
    p("gb300", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.00676, 0.876527, 1.0, 1.33547, 0.181015, f64::INFINITY, 1.0], 0.110, 0.274),
    p("gb300", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [9.7036, 0.941412, 1.0, 1.20818, 0.00359457, 1.0, f64::INFINITY], 0.079, 0.228),
    p("gb300", TensorRtLlm, moe(Bf16, Bf16), [25.5027, 0.811137, 0.848077, 0.0, 1.0, f64::INFINITY, 2.0], 0.071, 0.252).writes_at(0.5).routes_at(2.0),
    p("gb300", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [27.4943, 0.785334, 0.865321, 0.0, 1.0, f64::INFINITY, 2.0], 0.083, 0.299).quantised_at(0.4204).writes_at(0.4204).routes_at(0.5),
    p("gb300", TensorRtLlm, moe(NvFp4, NvFp4), [33.0858, 0.681809, 0.311517, 0.0, 1.0, f64::INFINITY, 4.0], 0.101, 0.317).quantised_at(0.3536).writes_at(0.2973).routes_at(0.5),
    p("gb300", Sglang, moe(NvFp4, NvFp4), [17.7129, 0.905889, 0.909229, 0.0, 1.0, f64::INFINITY, 2.0], 0.151, 0.387).quantised_at(1.0).routes_at(0.25).in_whole_tiles(),
    p("gb300", TensorRtLlm, moe(Bf16, MxFp4), [42.2875, 0.203354, 0.133529, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.028, 0.095).routes_at(0.5).in_whole_tiles(),
    p("gb300", Sglang, moe(Bf16, MxFp4), [19.1579, 0.55669, 0.288489, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.116, 0.303).writes_at(0.4204).routes_at(0.25).in_whole_tiles(),
    p("gb300", TensorRtLlm, moe(MxFp8E4m3, MxFp4), [19.977, 0.827463, 0.307429, 0.0, 1.0, f64::INFINITY, 2.0], 0.144, 0.434).quantised_at(1.0).routes_at(0.5).in_whole_tiles(),
    p("gb300", Sglang, moe(MxFp8E4m3, MxFp4), [18.6946, 0.820901, 0.81614, 0.0, 1.0, f64::INFINITY, 1.5], 0.111, 0.319).quantised_at(0.3536).writes_at(0.707107).routes_at(0.5).in_whole_tiles(),
    p("gb300", Vllm, moe(MxFp8E4m3, MxFp4), [24.2623, 0.842329, 0.539245, 0.0, 1.0, f64::INFINITY, f64::INFINITY], 0.113, 0.462).quantised_at(0.3536).writes_at(0.4204).routes_at(0.5).in_whole_tiles(),
    p("gb300", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.7398, 1.0, 0.685324, 2.80641, 1.0, f64::INFINITY, f64::INFINITY], 0.093, 0.406),
    p("gb300", Sglang, mla(Prefill, Bf16, Bf16), [9.83554, 1.0, 0.747605, 2.89694, 1.0, f64::INFINITY, f64::INFINITY], 0.107, 0.433),
    p("gb300", TensorRtLlm, mla(Decode, Bf16, Bf16), [4.63535, 0.707694, 1.0, 5.37185, 0.273983, f64::INFINITY, 4.0], 0.096, 0.277),
    p("gb300", Sglang, mla(Decode, Bf16, Bf16), [5.05273, 0.720283, 1.0, 5.77296, 0.289092, f64::INFINITY, 2.0], 0.115, 0.254),
    p("gb300", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [4.5777, 0.815189, 1.0, 4.60751, 0.191023, f64::INFINITY, 1.5], 0.127, 0.329),
    p("gb300", Sglang, mla(Decode, Bf16, Fp8E4m3), [6.72991, 0.833827, 1.0, 3.91658, 0.194078, f64::INFINITY, 1.5], 0.077, 0.267),
    p("h100-sxm", TensorRtLlm, gemm(Bf16), [2.70306, 0.817275, 0.763496, 1.13938, 1.0, 0.817275, 4.0], 0.050, 0.163).writes_at(0.707107),
    p("h100-sxm", Sglang, gemm(Bf16), [2.8465, 0.830055, 0.745519, 1.31897, 0.785838, 0.830055, 4.0], 0.060, 0.188).writes_at(0.707107),
    p("h100-sxm", Vllm, gemm(Bf16), [2.64404, 0.893369, 0.833218, 1.18824, 0.68165, 0.893369, 2.0], 0.056, 0.165).writes_at(0.707107),
    p("h100-sxm", TensorRtLlm, gemm(Fp8E4m3), [12.5455, 0.834271, 0.767239, 1.00878, 0.344388, 0.834271, 2.0], 0.030, 0.100).quantised_at(0.3536).writes_at(0.707107),
    p("h100-sxm", Sglang, gemm(Fp8E4m3), [5.74505, 0.811835, 0.666586, 0.0, 0.0460817, 1.0, 2.0], 0.099, 0.310).quantised_at(0.5).writes_at(0.5946),
    p("h100-sxm", Vllm, gemm(Fp8E4m3), [6.36221, 0.828328, 0.640102, 0.0, 0.0366851, 0.828328, 1.5], 0.166, 0.464).quantised_at(0.3536).writes_at(0.5),
    ph("h100-sxm", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.5818, 0.609805, 0.600746, 3.00906, 0.000109966, 0.609805, 1.0], [1.116, 0.975817, 1.07518, 0.974575, 1.0], 0.056, 0.211).fixed_by_head_width([1.07746, 0.820832, 1.02748, 1.1142, 1.0]),
    ph("h100-sxm", Sglang, attention(Prefill, Bf16, Bf16), [7.48126, 0.651984, 0.663575, 0.0, 0.0000562493, 0.678501, 1.0], [2.09159, 1.00858, 0.892085, 0.936523, 6.34347], 0.084, 0.365).fixed_by_head_width([1.35821, 1.376, 2.47364, 1.71752, 1.23469]).walks_hidden_tiles_at(1.0),
    ph("h100-sxm", Vllm, attention(Prefill, Bf16, Bf16), [7.86453, 0.286292, 0.527392, 0.0, 0.0000344101, 0.312476, 2.0], [1.16516, 0.880792, 0.749387, 0.747889, 1.504], 0.102, 0.334).fixed_by_head_width([1.57743, 1.53671, 1.69608, 1.79359, 1.53125]),
    ph("h100-sxm", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.7599, 0.67431, 0.818975, 4.12573, 1.0, 0.679977, 1.5], [1.23921, 0.921859, 1.22112, 0.955914, 1.0], 0.080, 0.309).fixed_by_head_width([0.984621, 1.05669, 0.978063, 0.993464, 1.0]),
    ph("h100-sxm", Sglang, attention(Prefill, Bf16, Fp8E4m3), [13.3464, 0.367335, 0.0634815, 0.0, 0.000184676, 3.82207, 2.0], [1.0, 1.0, 1.0, 0.810433, 1.05463], 0.088, 0.569).fixed_by_head_width([1.0, 1.0, 1.0, 1.05556, 1.10207]).walks_hidden_tiles_at(0.125),
    ph("h100-sxm", Vllm, attention(Prefill, Bf16, Fp8E4m3), [8.42934, 0.264282, 0.613503, 0.0, 0.0000160093, 0.275937, 1.0], [1.02958, 0.902471, 0.963599, 1.30849, 1.0], 0.131, 0.416).fixed_by_head_width([1.51553, 1.54157, 1.78425, 1.99874, 1.0]),
    ph("h100-sxm", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [11.623, 0.436496, 0.408582, 4.19813, 0.000044693, 0.436496, 1.5], [1.2739, 0.978423, 1.19543, 0.914325, 1.0], 0.084, 0.300).fixed_by_head_width([1.08887, 0.944163, 1.06941, 1.09528, 1.0]),
    ph("h100-sxm", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [6.94001, 0.315397, 0.417922, 0.0, 0.000025404, 0.336165, 1.0], [1.4249, 1.04051, 0.756843, 0.780475, 7.71893], 0.081, 0.351).fixed_by_head_width([1.41112, 1.46562, 2.79901, 1.88738, 1.35748]).walks_hidden_tiles_at(1.0),
    p("h100-sxm", TensorRtLlm, attention(Decode, Bf16, Bf16), [3.67603, 1.0, 0.155785, 4.21921, 0.00775278, 1.0, 2.0], 0.123, 0.319),
    p("h100-sxm", Sglang, attention(Decode, Bf16, Bf16), [6.06075, 0.897519, 1.0, 3.44345, 0.383966, 1.04453, 1.0], 0.106, 0.395),
    p("h100-sxm", Vllm, attention(Decode, Bf16, Bf16), [7.50566, 0.889085, 1.0, 3.80698, 0.368341, 0.889085, 4.0], 0.097, 0.272),
    p("h100-sxm", TensorRtLlm, per_query_head(Bf16, Bf16), [6.71996, 0.915858, 1.0, 1.21846, 0.0746213, 2.09487, 1.0], 0.101, 0.326),
    p("h100-sxm", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [6.62958, 1.0, 0.178043, 1.1014, 1.0, 1.96808, 1.0], 0.152, 0.372),
    p("h100-sxm", Sglang, attention(Decode, Bf16, Fp8E4m3), [9.30725, 0.645047, 0.24567, 3.61927, 0.271074, 0.645047, f64::INFINITY], 0.131, 0.387),
    p("h100-sxm", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.71737, 0.713557, 0.499136, 4.03758, 0.153696, 0.713557, 2.0], 0.141, 0.303),
    p("h100-sxm", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.91252, 0.774107, 1.0, 1.19702, 1.0, 1.04323, 1.0], 0.116, 0.362),
    p("h100-sxm", TensorRtLlm, moe(Bf16, Bf16), [26.9371, 0.87829, 0.831614, 0.0, 1.0, 0.878308, 2.0], 0.065, 0.449).writes_at(0.707107).routes_at(2.0),
    p("h100-sxm", Sglang, moe(Bf16, Bf16), [28.3875, 0.719089, 0.255281, 0.0, 1.0, 1.1511, f64::INFINITY], 0.179, 0.544).writes_at(0.8409).routes_at(0.25),
    p("h100-sxm", Vllm, moe(Bf16, Bf16), [39.35, 0.905063, 0.533056, 0.0, 1.0, 1.28391, 4.0], 0.096, 0.413).writes_at(1.0).routes_at(0.25),
    p("h100-sxm", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [28.205, 0.84342, 0.813945, 0.0, 1.0, 0.843424, 2.0], 0.080, 0.440).quantised_at(0.5946).writes_at(0.5946).routes_at(1.0),
    p("h100-sxm", Vllm, moe(Fp8E4m3, Fp8E4m3), [46.2928, 0.184495, 0.14102, 0.0, 1.0, 0.383055, 4.0], 0.135, 0.476).quantised_at(1.0).writes_at(0.2973),
    p("h100-sxm", TensorRtLlm, moe(Bf16, MxFp4), [72.7295, 0.826703, 1.0, 0.0, 1.0, 0.826703, f64::INFINITY], 0.091, 0.283).writes_at(0.125).routes_at(0.125),
    p("h100-sxm", Sglang, moe(Bf16, MxFp4), [25.1762, 0.226419, 0.215336, 0.0, 1.0, 0.226804, 4.0], 0.201, 0.848).writes_at(1.0).routes_at(0.25),
    p("h100-sxm", Vllm, moe(Bf16, MxFp4), [63.6345, 0.806022, 0.778391, 0.0, 1.0, 0.846071, 1.5], 0.208, 0.600).writes_at(0.8409).routes_at(0.25),
    p("h100-sxm", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.5293, 1.0, 0.635597, 3.88632, 1.0, 1.0, f64::INFINITY], 0.109, 0.335),
    p("h100-sxm", Sglang, mla(Prefill, Bf16, Bf16), [11.8622, 0.365945, 0.180046, 0.0, 1.0, 0.367927, 1.5], 0.050, 0.370),
    p("h100-sxm", TensorRtLlm, mla(Decode, Bf16, Bf16), [6.33613, 0.93043, 0.887204, 7.07344, 0.433188, 0.93043, 2.0], 0.055, 0.221),
    p("h100-sxm", Sglang, mla(Decode, Bf16, Bf16), [5.84206, 0.885996, 0.632659, 5.92029, 0.370433, 0.885996, 4.0], 0.055, 0.238),
    p("h100-sxm", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [5.90267, 0.87006, 0.805279, 7.13549, 0.376072, 0.87006, 2.0], 0.078, 0.255),
    p("h100-sxm", Sglang, mla(Decode, Bf16, Fp8E4m3), [17.1444, 0.0832982, 0.129053, 0.0, 0.0681991, 0.084704, f64::INFINITY], 0.057, 0.595),
    p("h200", TensorRtLlm, gemm(Bf16), [2.75995, 0.834597, 0.800049, 1.18356, 0.593756, 0.834597, 2.0], 0.055, 0.163).writes_at(0.5946),
    p("h200", Sglang, gemm(Bf16), [2.90934, 0.841857, 0.747668, 1.32442, 0.618066, 0.841857, 2.0], 0.075, 0.191).writes_at(0.5946),
    p("h200", Vllm, gemm(Bf16), [2.74207, 0.849397, 0.817015, 1.22932, 0.627739, 0.849397, 2.0], 0.060, 0.169).writes_at(0.5946),
    p("h200", TensorRtLlm, gemm(Fp8E4m3), [12.5696, 0.82125, 0.747572, 1.13723, 0.340995, 0.82125, 2.0], 0.035, 0.120).quantised_at(0.2973).writes_at(0.5946),
    p("h200", Sglang, gemm(Fp8E4m3), [5.66013, 0.831499, 0.977233, 0.0, 0.0304043, 1.0, 1.0], 0.136, 0.345).quantised_at(0.3536).writes_at(0.4204),
    p("h200", Vllm, gemm(Fp8E4m3), [6.66001, 0.810035, 0.920182, 0.0, 0.0272451, 0.810035, 1.0], 0.199, 0.542).quantised_at(0.25).writes_at(0.2973),
    ph("h200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [11.5254, 0.55822, 0.603079, 3.45597, 0.0000653605, 0.92282, 1.0], [1.11385, 0.964156, 1.05373, 0.991285, 1.0], 0.066, 0.249).fixed_by_head_width([1.10202, 0.846781, 1.04897, 1.15608, 1.0]),
    ph("h200", Sglang, attention(Prefill, Bf16, Bf16), [7.31867, 0.387712, 0.580893, 0.0, 0.0000390131, 0.467647, 1.5], [2.32504, 0.995193, 0.878234, 0.923248, 5.77006], 0.087, 0.378).fixed_by_head_width([1.36838, 1.53859, 2.47998, 1.74075, 1.28058]).walks_hidden_tiles_at(1.0),
    ph("h200", Vllm, attention(Prefill, Bf16, Bf16), [7.60924, 0.198916, 0.521246, 0.0, 0.0000239082, 0.23517, 2.0], [1.17656, 0.871737, 0.734614, 0.743006, 1.50459], 0.105, 0.358).fixed_by_head_width([1.59055, 1.69226, 1.73374, 1.79438, 1.56941]),
    ph("h200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [10.776, 0.786488, 0.929764, 4.62158, 0.0000318384, 0.996588, 1.0], [1.3227, 0.961429, 1.28618, 0.983042, 1.0], 0.095, 0.340).fixed_by_head_width([1.08403, 1.15947, 1.08781, 1.09343, 1.0]),
    ph("h200", Sglang, attention(Prefill, Bf16, Fp8E4m3), [13.2262, 0.314708, 0.0648067, 0.0, 0.000144631, 2.09523, 1.5], [1.0, 1.0, 1.0, 0.736094, 1.06381], 0.090, 0.578).fixed_by_head_width([1.0, 1.0, 1.0, 1.06713, 1.14363]).walks_hidden_tiles_at(0.25),
    ph("h200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [8.31937, 0.180076, 0.509613, 0.0, 0.0000112795, 0.180076, 1.5], [1.02005, 0.907388, 0.920665, 1.24578, 1.0], 0.119, 0.385).fixed_by_head_width([1.4912, 1.73281, 1.78749, 1.99451, 1.0]),
    ph("h200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [10.6638, 0.400173, 0.422544, 4.77974, 0.0000322324, 0.641741, 1.5], [1.27164, 0.994078, 1.19476, 0.921192, 1.0], 0.096, 0.327).fixed_by_head_width([1.0974, 0.966968, 1.08929, 1.10375, 1.0]),
    ph("h200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [6.75317, 0.202406, 0.359648, 0.0, 0.0000175822, 0.231586, 1.5], [2.27817, 1.0462, 0.754417, 0.772101, 6.99169], 0.085, 0.358).fixed_by_head_width([1.41819, 1.74014, 2.8194, 1.92815, 1.36569]).walks_hidden_tiles_at(1.0),
    p("h200", TensorRtLlm, attention(Decode, Bf16, Bf16), [3.13727, 1.0, 0.074152, 4.57024, 0.00770843, 1.0, 4.0], 0.122, 0.326),
    p("h200", Sglang, attention(Decode, Bf16, Bf16), [5.82897, 0.834536, 0.224433, 3.5777, 0.207444, 0.834536, f64::INFINITY], 0.118, 0.407),
    p("h200", Vllm, attention(Decode, Bf16, Bf16), [7.18915, 0.861811, 0.893823, 3.84087, 1.0, 0.861811, 1.0], 0.104, 0.288),
    p("h200", TensorRtLlm, per_query_head(Bf16, Bf16), [6.54284, 0.882634, 1.0, 1.2459, 0.0497868, 1.44999, 1.0], 0.108, 0.349),
    p("h200", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [6.52298, 0.94282, 0.076378, 1.10766, 1.0, 0.94282, 4.0], 0.154, 0.373),
    p("h200", Sglang, attention(Decode, Bf16, Fp8E4m3), [8.95415, 0.528452, 0.457662, 3.78256, 1.0, 0.528452, 1.5], 0.139, 0.396),
    p("h200", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.48896, 0.525634, 0.492636, 4.07358, 1.0, 0.525634, 1.5], 0.150, 0.313),
    p("h200", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.77267, 0.593505, 1.0, 1.20629, 1.0, 0.723382, 1.0], 0.113, 0.373),
    p("h200", TensorRtLlm, moe(Bf16, Bf16), [27.4203, 0.89126, 0.837829, 0.0, 1.0, 0.894485, 2.0], 0.079, 0.512).writes_at(0.5946).routes_at(1.0),
    p("h200", Sglang, moe(Bf16, Bf16), [30.2475, 0.600135, 0.296065, 0.0, 1.0, 1.81113, 2.0], 0.176, 0.527).writes_at(1.0).routes_at(0.25),
    p("h200", Vllm, moe(Bf16, Bf16), [35.0787, 0.904744, 0.628266, 0.0, 1.0, 1.15665, 4.0], 0.087, 0.428).writes_at(1.0).routes_at(0.125),
    p("h200", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [28.3467, 0.824403, 0.816218, 0.0, 1.0, 0.824403, 2.0], 0.095, 0.529).quantised_at(0.5946).writes_at(0.5).routes_at(0.5),
    p("h200", TensorRtLlm, moe(Bf16, MxFp4), [68.8027, 0.618232, 0.461146, 0.0, 1.0, 0.626982, f64::INFINITY], 0.122, 0.310).writes_at(0.125).routes_at(0.0625),
    p("h200", Sglang, moe(Bf16, MxFp4), [24.6056, 0.214803, 0.25149, 0.0, 1.0, 0.214803, f64::INFINITY], 0.232, 0.682).writes_at(0.2973).routes_at(0.125),
    p("h200", Vllm, moe(Bf16, MxFp4), [85.5993, 0.591952, 0.614252, 0.0, 1.0, 49.724, 1.0], 0.246, 0.776).writes_at(1.0).routes_at(0.25),
    p("h200", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.9818, 1.0, 0.61792, 3.48144, 1.0, 1.0, 4.0], 0.109, 0.356),
    p("h200", Sglang, mla(Prefill, Bf16, Bf16), [11.657, 0.305068, 0.181264, 0.0, 1.0, 0.305068, 1.5], 0.047, 0.361),
    p("h200", TensorRtLlm, mla(Decode, Bf16, Bf16), [5.65444, 0.925014, 0.63344, 7.35872, 0.418809, 0.927549, 4.0], 0.075, 0.229),
    p("h200", Sglang, mla(Decode, Bf16, Bf16), [5.38356, 0.874545, 0.598563, 6.20024, 0.335849, 0.876954, 4.0], 0.067, 0.265),
    p("h200", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [5.43207, 0.638645, 0.700455, 7.3446, 0.271851, 0.638645, f64::INFINITY], 0.080, 0.270),
    p("h200", Sglang, mla(Decode, Bf16, Fp8E4m3), [16.861, 0.0628674, 0.134028, 0.0, 0.0505329, 0.0628674, f64::INFINITY], 0.054, 0.556),
    p("l40s", TensorRtLlm, gemm(Bf16), [1.97417, 0.803668, 0.582931, 0.868479, 1.0, 2.03568, 2.0], 0.084, 0.271).writes_at(0.707107),
    p("l40s", Sglang, gemm(Bf16), [2.06261, 0.78383, 0.557024, 1.01126, 1.0, 1.86776, 2.0], 0.091, 0.302).writes_at(1.0),
    p("l40s", Vllm, gemm(Bf16), [1.95822, 0.793959, 0.636007, 0.873832, 1.0, 1.99824, 2.0], 0.088, 0.254).writes_at(0.5946),
    p("l40s", TensorRtLlm, gemm(Fp8E4m3), [12.2057, 0.818668, 0.558127, 1.4467, 1.0, 2.13751, 2.0], 0.055, 0.166).quantised_at(0.5946).writes_at(0.707107),
    p("l40s", Sglang, gemm(Fp8E4m3), [4.10315, 0.748801, 0.485442, 0.0, 0.0876331, 1.91404, 2.0], 0.125, 0.428).quantised_at(0.707107).writes_at(1.0),
    p("l40s", Vllm, gemm(Fp8E4m3), [5.68189, 0.749955, 0.618145, 0.0, 0.06231, 0.749955, 1.5], 0.157, 0.609).writes_at(0.4204),
    ph("l40s", TensorRtLlm, attention(Prefill, Bf16, Bf16), [9.52256, 0.333597, 0.388611, 0.0, 1.0, 0.954536, 1.5], [1.02532, 1.00641, 1.71456, 0.913922, 1.0], 0.089, 0.306).fixed_by_head_width([0.995901, 1.02665, 1.15485, 1.00846, 1.0]),
    ph("l40s", Sglang, attention(Prefill, Bf16, Bf16), [3.56841, 0.676529, 0.418381, 0.0, 0.000327836, 3.0604, 2.0], [1.86433, 0.776043, 1.33826, 1.00883, 1.0], 0.119, 0.467).fixed_by_head_width([1.926, 1.57391, 3.80829, 1.74983, 1.0]).walks_hidden_tiles_at(0.5),
    ph("l40s", Vllm, attention(Prefill, Bf16, Bf16), [3.85362, 0.779942, 0.499351, 4.67789, 1.0, 5.85621, f64::INFINITY], [1.0216, 0.958822, 0.999367, 1.11512, 1.0], 0.098, 0.358).fixed_by_head_width([1.03849, 0.888583, 0.774494, 1.03464, 1.0]),
    ph("l40s", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [9.56635, 0.334592, 0.386287, 0.0, 1.0, 0.902665, 1.5], [1.02236, 1.00696, 1.72263, 0.911662, 1.0], 0.086, 0.316).fixed_by_head_width([1.00357, 1.04, 1.10959, 1.06772, 1.0]),
    ph("l40s", Sglang, attention(Prefill, Bf16, Fp8E4m3), [5.64864, 0.709256, 0.419673, 0.0, 0.000143386, 2.70756, 1.5], [1.79853, 0.768613, 1.41042, 1.0067, 1.0], 0.123, 0.483).fixed_by_head_width([1.61535, 1.38969, 2.8392, 1.50841, 1.0]).walks_hidden_tiles_at(0.5),
    ph("l40s", Vllm, attention(Prefill, Bf16, Fp8E4m3), [8.64361, 0.865769, 0.368499, 0.0, 0.000101605, 1.82579, 1.5], [0.926543, 0.881544, 1.76789, 1.27154, 1.0], 0.147, 0.466).fixed_by_head_width([1.00246, 1.62675, 0.78085, 1.14659, 1.0]),
    ph("l40s", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [7.5141, 0.410436, 0.157864, 5.38962, 1.0, 2.80773, 1.5], [0.980999, 0.417122, 0.581906, 1.56255, 1.0], 0.086, 0.392).fixed_by_head_width([1.01638, 0.542026, 0.635978, 1.0761, 1.0]),
    ph("l40s", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [11.8371, 0.678826, 0.197991, 0.0, 1.0, 0.745321, 1.5], [1.3165, 1.0, 0.887398, 1.0, 1.0], 0.215, 0.580).fixed_by_head_width([0.580638, 1.0, 1.02705, 1.0, 1.0]).walks_hidden_tiles_at(0.625),
    p("l40s", TensorRtLlm, attention(Decode, Bf16, Bf16), [4.55157, 0.823177, 0.566956, 3.07467, 0.0445248, 5.53288, 1.0], 0.078, 0.292),
    p("l40s", Sglang, attention(Decode, Bf16, Bf16), [4.1062, 0.854992, 0.879315, 1.51886, 0.853991, 4.22745, 1.0], 0.128, 0.533),
    p("l40s", Vllm, attention(Decode, Bf16, Bf16), [0.0, 0.835704, 1.0, 8.86035, 0.419365, 2.37368, 1.0], 0.238, 0.851),
    p("l40s", TensorRtLlm, per_query_head(Bf16, Bf16), [6.80608, 0.87186, 1.0, 0.87187, 0.87186, 7.02725, 1.0], 0.091, 0.331),
    p("l40s", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [5.74073, 0.827117, 1.0, 3.69691, 0.0185345, 2.52436, 2.0], 0.060, 0.223),
    p("l40s", Sglang, attention(Decode, Bf16, Fp8E4m3), [6.25055, 0.83445, 0.153453, 2.65039, 0.603621, 2.5617, f64::INFINITY], 0.121, 0.394),
    p("l40s", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.32262, 0.824232, 0.165288, 2.24778, 1.0, 3.09502, f64::INFINITY], 0.106, 0.322),
    p("l40s", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [10.007, 0.787773, 1.0, 2.95847, 1.0, 0.916668, f64::INFINITY], 0.153, 0.416),
    p("l40s", TensorRtLlm, moe(Bf16, Bf16), [23.788, 0.813422, 0.355617, 0.0, 1.0, 4.20737, 4.0], 0.051, 0.294),
    p("l40s", Sglang, moe(Bf16, Bf16), [21.1514, 0.784916, 0.548204, 0.0, 1.0, 3.71342, 1.0], 0.205, 0.511).writes_at(1.0).routes_at(0.5),
    p("l40s", Vllm, moe(Bf16, Bf16), [26.7054, 0.835702, 0.584092, 0.0, 1.0, 4.77648, 4.0], 0.094, 0.509).writes_at(1.0).routes_at(0.25),
    p("l40s", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [24.7949, 0.807338, 0.419257, 0.0, 1.0, 4.31812, 4.0], 0.053, 0.220).quantised_at(1.0).writes_at(0.8409).routes_at(4.0),
    p("l40s", Vllm, moe(Fp8E4m3, Fp8E4m3), [26.493, 0.791585, 0.560493, 0.0, 1.0, 5.46493, 4.0], 0.107, 0.664).quantised_at(0.3536).writes_at(1.0).routes_at(0.125),
    p("l40s", Vllm, moe(Bf16, MxFp4), [34.6, 0.78426, 0.482939, 0.0, 1.0, 3.11672, f64::INFINITY], 0.110, 0.375).writes_at(1.0).routes_at(0.25),
    p("l40s", TensorRtLlm, mla(Prefill, Bf16, Bf16), [7.1269, 0.608525, 0.427025, 3.66996, 1.0, 178.056, 4.0], 0.071, 0.254),
    p("l40s", Sglang, mla(Prefill, Bf16, Bf16), [4.464, 0.554501, 0.061231, 4.67384, 0.00196296, 122.366, 4.0], 0.062, 0.474),
    p("l40s", TensorRtLlm, mla(Decode, Bf16, Bf16), [0.0, 0.791863, 0.298428, 9.54221, 0.0174379, 2.02619, f64::INFINITY], 0.067, 0.304),
    p("l40s", Sglang, mla(Decode, Bf16, Bf16), [14.3592, 0.819711, 0.140411, 0.0, 0.712257, 0.819711, 1.5], 0.215, 0.765),
    p("l40s", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [0.0, 0.399388, 0.29624, 10.3999, 0.00863225, 2.52454, f64::INFINITY], 0.071, 0.397),
    p("rtx-pro-6000", TensorRtLlm, gemm(Bf16), [2.38753, 0.831862, 0.825489, 0.750556, 1.0, 1.63013, 1.5], 0.082, 0.248).writes_at(0.8409),
    p("rtx-pro-6000", Sglang, gemm(Bf16), [2.07371, 0.82107, 0.816285, 0.865477, 1.0, 1.46321, 2.0], 0.062, 0.236).writes_at(0.8409),
    p("rtx-pro-6000", Vllm, gemm(Bf16), [2.07215, 0.845425, 0.851156, 0.825119, 1.0, 1.54884, 1.5], 0.076, 0.238).writes_at(0.8409),
    p("rtx-pro-6000", TensorRtLlm, gemm(Fp8E4m3), [12.3057, 0.828213, 0.739618, 0.93818, 0.28032, 1.4656, 2.0], 0.064, 0.178).quantised_at(0.5946).writes_at(0.8409),
    p("rtx-pro-6000", Sglang, gemm(Fp8E4m3), [5.43563, 0.662305, 0.915699, 0.0, 0.010817, 1.19238, 4.0], 0.043, 0.235).quantised_at(0.707107).writes_at(1.0),
    p("rtx-pro-6000", Vllm, gemm(Fp8E4m3), [4.91406, 0.81718, 0.844512, 0.0, 0.0413042, 0.831184, 2.0], 0.090, 0.378).quantised_at(0.707107).writes_at(0.8409),
    p("rtx-pro-6000", TensorRtLlm, gemm(NvFp4), [4.18674, 0.600341, 0.969, 0.0, 0.0110596, 0.910893, 4.0], 0.050, 0.273).quantised_at(0.8409).writes_at(0.8409),
    p("rtx-pro-6000", Sglang, gemm(NvFp4), [4.31392, 0.659542, 1.0, 0.0, 0.0120123, 1.01655, 2.0], 0.040, 0.158).quantised_at(0.8409).writes_at(1.0),
    p("rtx-pro-6000", Vllm, gemm(NvFp4), [6.71206, 0.578613, 1.0, 0.0, 0.0123646, 1.14974, 2.0], 0.055, 0.303).quantised_at(0.8409).writes_at(0.8409),
    ph("rtx-pro-6000", TensorRtLlm, attention(Prefill, Bf16, Bf16), [6.28808, 0.392658, 0.471981, 0.0, 0.0000316251, 0.630951, 1.0], [0.848807, 0.977134, 1.65752, 1.04054, 1.0], 0.071, 0.282).fixed_by_head_width([1.75331, 2.07954, 2.05898, 2.68679, 1.0]),
    ph("rtx-pro-6000", Sglang, attention(Prefill, Bf16, Bf16), [6.32046, 1.0, 0.598739, 0.0, 0.000167839, 2.07439, 1.0], [1.96285, 0.819335, 1.99126, 0.87461, 2.70146], 0.188, 0.585).fixed_by_head_width([1.32702, 1.00049, 2.29703, 0.997076, 1.29493]).walks_hidden_tiles_at(1.0),
    ph("rtx-pro-6000", Vllm, attention(Prefill, Bf16, Bf16), [4.55324, 1.0, 0.623553, 3.57479, 0.000330892, 1.35366, 1.5], [1.02987, 0.952992, 1.00015, 1.07893, 1.0], 0.082, 0.301).fixed_by_head_width([1.10802, 1.09897, 1.05152, 1.10985, 1.0]),
    ph("rtx-pro-6000", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [5.968, 0.351739, 0.414119, 0.0, 0.0000149474, 0.498476, 1.5], [0.847718, 0.98325, 1.71552, 1.0248, 1.0], 0.077, 0.277).fixed_by_head_width([1.85288, 2.21628, 2.17531, 2.8326, 1.0]),
    ph("rtx-pro-6000", Sglang, attention(Prefill, Bf16, Fp8E4m3), [7.42095, 1.0, 0.56913, 0.0, 0.0000764063, 1.50891, 1.0], [1.6249, 0.830341, 2.08681, 0.84375, 4.5756], 0.187, 0.574).fixed_by_head_width([1.39716, 1.12886, 2.23207, 1.39099, 1.91468]).walks_hidden_tiles_at(1.0),
    ph("rtx-pro-6000", Vllm, attention(Prefill, Bf16, Fp8E4m3), [8.43525, 0.67932, 0.470597, 0.0, 0.0000411609, 0.865692, 1.5], [0.893836, 0.880614, 2.32252, 1.18192, 1.0], 0.149, 0.441).fixed_by_head_width([1.04352, 1.4735, 0.789576, 1.04278, 1.0]),
    ph("rtx-pro-6000", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [11.3075, 1.0, 0.177131, 5.15621, 0.000133278, 1.95374, 1.5], [0.902694, 0.393905, 1.02315, 1.64912, 1.0], 0.099, 0.380).fixed_by_head_width([1.06977, 0.547871, 0.681804, 1.06494, 1.0]),
    ph("rtx-pro-6000", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [5.53047, 0.856983, 0.203358, 4.80538, 0.000295381, 1.90511, f64::INFINITY], [1.38416, 0.853411, 0.85897, 1.74173, 1.19736], 0.169, 0.669).fixed_by_head_width([0.288027, 0.62558, 1.38915, 1.73414, 0.278044]).walks_hidden_tiles_at(0.375),
    p("rtx-pro-6000", TensorRtLlm, attention(Decode, Bf16, Bf16), [3.92048, 0.874242, 0.471377, 3.08908, 0.874242, 2.12636, 1.0], 0.138, 0.531),
    p("rtx-pro-6000", Sglang, attention(Decode, Bf16, Bf16), [4.48408, 0.860455, 0.946141, 1.85087, 0.549081, 2.39056, 1.0], 0.176, 0.556),
    p("rtx-pro-6000", TensorRtLlm, per_query_head(Bf16, Bf16), [5.57447, 1.0, 1.0, 1.23165, 0.0245141, 7.31405, f64::INFINITY], 0.100, 0.317),
    p("rtx-pro-6000", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [5.54574, 0.863484, 0.355218, 3.13802, 0.0156387, 2.56823, f64::INFINITY], 0.065, 0.365),
    p("rtx-pro-6000", Sglang, attention(Decode, Bf16, Fp8E4m3), [5.69152, 0.824481, 0.187038, 2.71852, 0.334102, 1.53478, f64::INFINITY], 0.174, 0.416),
    p("rtx-pro-6000", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.47064, 0.837777, 0.196406, 2.38299, 0.803788, 2.08945, f64::INFINITY], 0.114, 0.266),
    p("rtx-pro-6000", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.72902, 1.0, 1.0, 0.989283, 0.0177734, 3.63554, f64::INFINITY], 0.102, 0.257),
    p("rtx-pro-6000", TensorRtLlm, moe(Bf16, Bf16), [27.1393, 0.856769, 0.658368, 0.0, 1.0, 1.90133, 2.0], 0.065, 0.297).writes_at(1.0).routes_at(4.0),
    p("rtx-pro-6000", Sglang, moe(Bf16, Bf16), [26.4684, 0.846056, 0.502426, 0.0, 1.0, 1.949, 4.0], 0.224, 0.469).writes_at(1.0).routes_at(0.5),
    p("rtx-pro-6000", Vllm, moe(Bf16, Bf16), [34.0285, 0.843034, 0.368483, 0.0, 1.0, 1.67442, 4.0], 0.064, 0.429).writes_at(0.8409).routes_at(4.0),
    p("rtx-pro-6000", TensorRtLlm, moe(Fp8E4m3, Fp8E4m3), [25.7903, 0.842078, 0.672792, 0.0, 1.0, 2.16881, 2.0], 0.072, 0.303).quantised_at(1.0).writes_at(0.8409).routes_at(4.0),
    p("rtx-pro-6000", Vllm, moe(Fp8E4m3, Fp8E4m3), [32.6414, 0.820891, 0.328127, 0.0, 1.0, 1.8947, 4.0], 0.057, 0.321).quantised_at(0.4204).writes_at(0.8409).routes_at(2.0),
    p("rtx-pro-6000", TensorRtLlm, moe(NvFp4, NvFp4), [41.9738, 0.772157, 0.630626, 0.0, 1.0, 1.06509, 4.0], 0.081, 0.251).quantised_at(1.0).writes_at(0.8409),
    p("rtx-pro-6000", Sglang, moe(NvFp4, NvFp4), [55.9179, 1.0, 0.603204, 0.0, 1.0, 1.21819, f64::INFINITY], 0.176, 0.481).quantised_at(1.0).writes_at(0.5946).routes_at(1.0),
    p("rtx-pro-6000", Vllm, moe(NvFp4, NvFp4), [40.1563, 0.794662, 0.565932, 0.0, 1.0, 0.851358, 4.0], 0.071, 0.304).quantised_at(0.3536).writes_at(0.707107).routes_at(2.0),
    p("rtx-pro-6000", Sglang, moe(Bf16, MxFp4), [55.0007, 0.814271, 0.486071, 0.0, 1.0, 2.0489, 2.0], 0.093, 0.366).writes_at(0.707107),
    p("rtx-pro-6000", Vllm, moe(Bf16, MxFp4), [51.1539, 0.807162, 0.558793, 0.0, 1.0, 3.75503, 4.0], 0.134, 0.487).writes_at(1.0).routes_at(0.25),
    p("rtx-pro-6000", TensorRtLlm, moe(MxFp8E4m3, MxFp4), [61.6138, 0.713539, 0.604058, 0.0, 1.0, 0.845664, 4.0], 0.065, 0.219).quantised_at(1.0).writes_at(1.0),
    p("rtx-pro-6000", TensorRtLlm, mla(Prefill, Bf16, Bf16), [9.51767, 0.905576, 0.494504, 4.81684, 1.0, 3.82978, 4.0], 0.079, 0.285),
    p("rtx-pro-6000", Sglang, mla(Prefill, Bf16, Bf16), [5.73295, 1.0, 0.0632695, 4.82567, 1.0, 1.0, 2.0], 0.070, 0.438),
    p("rtx-pro-6000", TensorRtLlm, mla(Decode, Bf16, Bf16), [2.1259, 0.778944, 0.496604, 8.44685, 0.00750616, 2.19909, 1.5], 0.067, 0.297),
    p("rtx-pro-6000", Sglang, mla(Decode, Bf16, Bf16), [16.6042, 0.72764, 0.136194, 0.0, 0.279516, 0.72764, 1.5], 0.227, 0.660),
    p("rtx-pro-6000", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [0.0, 0.41339, 0.743123, 9.6674, 0.00575122, 1.31909, 1.5], 0.105, 0.262),
    p("rtx-pro-6000", TensorRtLlm, xqa_mla(Bf16, Fp8E4m3), [13.876, 0.564376, 1.0, 0.0, 0.0192369, 0.788671, f64::INFINITY], 0.048, 0.314),
];
