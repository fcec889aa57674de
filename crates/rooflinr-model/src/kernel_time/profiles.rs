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
///   256: those kernels likely multiply in FP8 (our reading, not verified). The latency
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
    ph("b200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.4747, 0.304908, 0.474352, 2.68714, 1.0, f64::INFINITY, 2.0], [1.29844, 0.911335, 1.0, 0.933123, 1.3156], 0.069, 0.238),
    ph("b200", Sglang, attention(Prefill, Bf16, Bf16), [7.3047, 1.0, 0.58335, 3.12317, 1.0, f64::INFINITY, f64::INFINITY], [1.40661, 0.927581, 6.95414, 0.918394, 1.63704], 0.140, 0.637).walks_hidden_tiles_at(0.625),
    ph("b200", Vllm, attention(Prefill, Bf16, Bf16), [5.20608, 0.853202, 0.433484, 2.98462, 1.0, f64::INFINITY, 2.0], [1.21912, 0.802097, 1.0, 0.818761, 1.48887], 0.157, 0.395),
    ph("b200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.628, 0.321022, 0.586421, 2.41391, 1.0, f64::INFINITY, 1.5], [1.38277, 0.911538, 1.0, 0.854503, 1.01133], 0.064, 0.209),
    ph("b200", Sglang, attention(Prefill, Bf16, Fp8E4m3), [16.7496, 0.21385, 0.0984371, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.180677, 0.977891, 1.25869, 1.0], 0.162, 0.508).walks_hidden_tiles_at(0.75),
    ph("b200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [4.75779, 1.0, 0.448088, 4.27621, 1.0, f64::INFINITY, f64::INFINITY], [1.1459, 0.632551, 13.6261, 1.07683, 1.53034], 0.231, 0.604),
    ph("b200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.5965, 0.212224, 0.319304, 2.42707, 0.000463946, f64::INFINITY, 1.5], [1.49188, 0.931131, 1.0, 0.888453, 1.0], 0.061, 0.212),
    ph("b200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.2007, 0.436706, 0.32399, 4.40315, 1.0, f64::INFINITY, 4.0], [1.3207, 0.831712, 4.62982, 0.920571, 1.41311], 0.145, 0.570).walks_hidden_tiles_at(1.0),
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
    ph("b300", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.4151, 0.330788, 0.562957, 2.41553, 1.0, f64::INFINITY, 1.5], [1.128, 0.879693, 1.0, 0.991396, 1.45099], 0.058, 0.211),
    ph("b300", Sglang, attention(Prefill, Bf16, Bf16), [5.33449, 1.0, 0.676386, 3.16306, 1.0, f64::INFINITY, f64::INFINITY], [1.13463, 0.858533, 7.81048, 0.990477, 1.74006], 0.172, 0.676).walks_hidden_tiles_at(0.625),
    ph("b300", Vllm, attention(Prefill, Bf16, Bf16), [5.58963, 0.410885, 0.545765, 3.27603, 1.0, f64::INFINITY, 4.0], [1.11526, 0.812386, 1.0, 1.06779, 1.70611], 0.153, 0.372),
    ph("b300", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.511, 0.369647, 0.907051, 2.08997, 1.0, f64::INFINITY, 1.0], [1.36267, 0.910991, 1.0, 0.907051, 1.12417], 0.055, 0.173),
    ph("b300", Sglang, attention(Prefill, Bf16, Fp8E4m3), [16.5749, 0.221783, 0.100475, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.146029, 0.976423, 1.23274, 1.0], 0.162, 0.540).walks_hidden_tiles_at(0.75),
    ph("b300", Vllm, attention(Prefill, Bf16, Fp8E4m3), [8.99286, 0.16503, 0.648717, 0.0, 1.0, f64::INFINITY, 1.0], [1.08525, 0.648717, 17.724, 0.648717, 0.740405], 0.193, 0.516),
    ph("b300", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.4922, 0.249413, 0.484242, 2.16989, 0.000223623, f64::INFINITY, 1.0], [1.43924, 0.955361, 1.0, 0.930776, 1.0], 0.055, 0.177),
    ph("b300", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [11.2306, 0.307292, 0.540931, 3.37918, 1.0, f64::INFINITY, 1.0], [1.44925, 0.907738, 7.36572, 0.954009, 1.60561], 0.119, 0.525).walks_hidden_tiles_at(1.0),
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
    ph("gb200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.7229, 0.30231, 0.458672, 2.56878, 1.0, f64::INFINITY, 2.0], [1.28208, 0.879356, 1.0, 0.940513, 1.28427], 0.071, 0.243),
    ph("gb200", Sglang, attention(Prefill, Bf16, Bf16), [7.47272, 1.0, 0.553562, 3.02466, 1.0, f64::INFINITY, f64::INFINITY], [1.35139, 0.911587, 6.04514, 0.96081, 1.57083], 0.157, 0.641).walks_hidden_tiles_at(0.75),
    ph("gb200", Vllm, attention(Prefill, Bf16, Bf16), [6.42715, 0.363571, 0.388836, 3.37264, 1.0, f64::INFINITY, f64::INFINITY], [1.1699, 0.789274, 1.0, 0.897716, 1.50146], 0.157, 0.387),
    ph("gb200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [13.0149, 0.318964, 0.603653, 2.28337, 1.0, f64::INFINITY, 1.5], [1.45422, 0.923931, 1.0, 0.829753, 1.04494], 0.067, 0.214),
    ph("gb200", Sglang, attention(Prefill, Bf16, Fp8E4m3), [18.6002, 0.215619, 0.0964533, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.203952, 0.991474, 1.26592, 1.0], 0.154, 0.532).walks_hidden_tiles_at(0.75),
    ph("gb200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [10.896, 0.157164, 0.423226, 0.0, 1.0, f64::INFINITY, 1.0], [1.13863, 0.574639, 12.3535, 0.495814, 0.73001], 0.175, 0.473),
    ph("gb200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.9143, 0.204739, 0.331774, 2.30006, 0.000464463, f64::INFINITY, 1.5], [1.57405, 0.942568, 1.0, 0.860979, 1.0], 0.064, 0.222),
    ph("gb200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.3543, 1.0, 0.348515, 4.27076, 1.0, f64::INFINITY, 1.0], [1.45547, 0.856508, 5.04367, 0.867752, 1.54276], 0.134, 0.581).walks_hidden_tiles_at(1.0),
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
    ph("gb300", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.7226, 0.315679, 0.598267, 2.36957, 1.0, f64::INFINITY, 1.5], [1.22469, 0.863723, 1.0, 0.967421, 1.42835], 0.057, 0.216),
    ph("gb300", Sglang, attention(Prefill, Bf16, Bf16), [7.60909, 1.0, 0.678049, 2.84108, 1.0, f64::INFINITY, f64::INFINITY], [1.18432, 0.864703, 7.3567, 0.972816, 1.81008], 0.146, 0.630).walks_hidden_tiles_at(0.75),
    ph("gb300", Vllm, attention(Prefill, Bf16, Bf16), [5.95697, 0.444489, 0.546116, 3.23339, 1.0, f64::INFINITY, 2.0], [1.13562, 0.772385, 1.0, 1.01372, 1.7083], 0.156, 0.382),
    ph("gb300", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.9755, 0.29962, 0.793448, 2.0632, 1.0, f64::INFINITY, 1.5], [1.39813, 0.901394, 1.0, 0.841915, 1.01538], 0.056, 0.180),
    ph("gb300", Sglang, attention(Prefill, Bf16, Fp8E4m3), [16.7427, 0.235327, 0.09469, 0.0, 1.0, f64::INFINITY, 1.0], [1.0, 0.161058, 0.976162, 1.22957, 1.0], 0.161, 0.501).walks_hidden_tiles_at(0.75),
    ph("gb300", Vllm, attention(Prefill, Bf16, Fp8E4m3), [9.96845, 0.169033, 0.61389, 0.0, 1.0, f64::INFINITY, 1.0], [1.08177, 0.61389, 17.8157, 0.61389, 0.68505], 0.186, 0.505),
    ph("gb300", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.8097, 0.236263, 0.511696, 2.12736, 0.000167433, f64::INFINITY, 1.0], [1.58763, 0.961972, 1.0, 0.892208, 1.0], 0.054, 0.190),
    ph("gb300", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [13.3146, 0.306397, 0.504933, 3.18183, 1.0, f64::INFINITY, 1.0], [1.45592, 0.866943, 7.25458, 0.897237, 1.52203], 0.114, 0.522).walks_hidden_tiles_at(1.0),
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
    ph("h100-sxm", TensorRtLlm, attention(Prefill, Bf16, Bf16), [13.2745, 0.485954, 0.548081, 3.15509, 1.0, 0.485954, 1.5], [1.08632, 0.951642, 1.05353, 0.989812, 1.0], 0.058, 0.236),
    ph("h100-sxm", Sglang, attention(Prefill, Bf16, Bf16), [10.1767, 0.487764, 0.607865, 0.0, 1.0, 0.487764, 1.5], [1.35992, 1.01721, 0.92147, 0.935022, 5.95944], 0.097, 0.433).walks_hidden_tiles_at(1.0),
    ph("h100-sxm", Vllm, attention(Prefill, Bf16, Bf16), [11.3139, 0.429318, 0.625282, 0.0, 1.0, 0.429318, 1.0], [1.19693, 0.888659, 0.773427, 0.777044, 1.60384], 0.109, 0.346),
    ph("h100-sxm", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [12.7272, 0.826097, 0.921944, 4.15684, 1.0, 0.826097, 1.0], [1.31885, 0.956546, 1.27764, 0.971308, 1.0], 0.091, 0.316),
    ph("h100-sxm", Sglang, attention(Prefill, Bf16, Fp8E4m3), [14.2424, 0.192529, 0.0631086, 0.0, 1.0, 0.245804, f64::INFINITY], [1.0, 1.0, 1.0, 0.82148, 1.05572], 0.087, 0.593).walks_hidden_tiles_at(0.125),
    ph("h100-sxm", Vllm, attention(Prefill, Bf16, Fp8E4m3), [12.6709, 0.301904, 0.59483, 0.0, 1.0, 0.301904, 1.0], [1.02121, 0.910563, 0.957574, 1.30661, 1.0], 0.138, 0.414),
    ph("h100-sxm", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [11.3902, 0.443436, 0.414149, 4.43954, 0.000044693, 0.443436, 1.5], [1.27663, 0.980266, 1.2069, 0.917902, 1.0], 0.093, 0.317),
    ph("h100-sxm", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [9.92802, 0.335993, 0.412037, 0.0, 1.0, 0.335993, 1.0], [1.422, 1.03615, 0.775901, 0.780387, 7.61627], 0.101, 0.429).walks_hidden_tiles_at(1.0),
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
    ph("h200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [12.5482, 0.551866, 0.604673, 3.44875, 1.0, 1.0, 1.0], [1.1154, 0.959513, 1.04984, 0.993325, 1.0], 0.069, 0.249),
    ph("h200", Sglang, attention(Prefill, Bf16, Bf16), [10.0083, 0.382667, 0.581706, 0.0, 1.0, 0.384845, 1.5], [2.17255, 0.994988, 0.909645, 0.926103, 5.77002], 0.103, 0.447).walks_hidden_tiles_at(1.0),
    ph("h200", Vllm, attention(Prefill, Bf16, Bf16), [11.1531, 0.325641, 0.618011, 0.0, 1.0, 0.325641, 1.0], [1.22691, 0.891225, 0.780632, 0.795271, 1.63132], 0.106, 0.349),
    ph("h200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [11.8787, 0.880636, 0.915862, 4.6028, 1.0, 0.923363, 1.0], [1.31081, 0.958758, 1.27867, 0.981377, 1.0], 0.090, 0.331),
    ph("h200", Sglang, attention(Prefill, Bf16, Fp8E4m3), [14.0334, 0.13959, 0.0635303, 0.0, 1.0, 0.150435, f64::INFINITY], [1.0, 1.0, 1.0, 0.732584, 1.05571], 0.095, 0.556).walks_hidden_tiles_at(0.25),
    ph("h200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [12.4451, 0.219632, 0.581485, 0.0, 1.0, 0.219632, 1.0], [1.02846, 0.906068, 0.964325, 1.27225, 1.0], 0.134, 0.406),
    ph("h200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [11.836, 1.0, 0.425843, 4.72357, 1.0, 1.0, 1.0], [1.27099, 0.987897, 1.19714, 0.920927, 1.0], 0.095, 0.313),
    ph("h200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [9.78041, 0.253518, 0.400031, 0.0, 1.0, 0.255788, 1.0], [2.03034, 1.02953, 0.79626, 0.778883, 7.47688], 0.110, 0.437).walks_hidden_tiles_at(1.0),
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
    ph("l40s", TensorRtLlm, attention(Prefill, Bf16, Bf16), [9.5224, 0.33387, 0.388722, 0.0, 1.0, 0.950317, 1.5], [1.02465, 1.00687, 1.74079, 0.914406, 1.0], 0.088, 0.306),
    ph("l40s", Sglang, attention(Prefill, Bf16, Bf16), [6.80741, 0.677486, 0.419052, 0.0, 1.0, 3.15746, 2.0], [1.87061, 0.775914, 1.40282, 1.00749, 1.0], 0.148, 0.517).walks_hidden_tiles_at(0.5),
    ph("l40s", Vllm, attention(Prefill, Bf16, Bf16), [3.84199, 0.781295, 0.50002, 4.68953, 1.0, 5.88506, f64::INFINITY], [1.0227, 0.95825, 0.995399, 1.11622, 1.0], 0.101, 0.358),
    ph("l40s", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [9.56682, 0.410666, 0.422023, 0.0, 1.0, 1.27181, 1.0], [1.05716, 1.0032, 1.68361, 0.897552, 1.0], 0.079, 0.308),
    ph("l40s", Sglang, attention(Prefill, Bf16, Fp8E4m3), [9.15178, 0.648639, 0.409498, 0.0, 1.0, 2.60676, 2.0], [1.76486, 0.767861, 1.47693, 1.00672, 1.0], 0.151, 0.501).walks_hidden_tiles_at(0.5),
    ph("l40s", Vllm, attention(Prefill, Bf16, Fp8E4m3), [8.64349, 0.729439, 0.383386, 0.0, 0.000101601, 1.03293, 2.0], [0.910987, 0.920349, 1.84073, 1.35096, 1.0], 0.146, 0.485),
    ph("l40s", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [7.54776, 0.404795, 0.157481, 5.35861, 1.0, 2.81905, 1.5], [0.979738, 0.415038, 0.569729, 1.56538, 1.0], 0.092, 0.407),
    ph("l40s", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [11.837, 0.678402, 0.201025, 0.0, 1.0, 0.744758, 1.5], [1.31072, 1.0, 0.901954, 1.0, 1.0], 0.201, 0.701).walks_hidden_tiles_at(0.625),
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
    ph("rtx-pro-6000", TensorRtLlm, attention(Prefill, Bf16, Bf16), [11.1558, 0.440257, 0.463286, 0.0, 1.0, 0.609086, 1.0], [0.842801, 0.977869, 1.5851, 1.03938, 1.0], 0.065, 0.315),
    ph("rtx-pro-6000", Sglang, attention(Prefill, Bf16, Bf16), [8.33493, 0.813744, 0.55106, 0.0, 1.0, 1.84648, 1.5], [2.01341, 0.822837, 2.0942, 0.855867, 2.59802], 0.210, 0.608).walks_hidden_tiles_at(0.875),
    ph("rtx-pro-6000", Vllm, attention(Prefill, Bf16, Bf16), [4.55777, 1.0, 0.625366, 3.6841, 0.000330688, 1.15471, 1.5], [1.03388, 0.951704, 0.980953, 1.09434, 1.0], 0.085, 0.302),
    ph("rtx-pro-6000", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [11.1988, 0.447786, 0.457574, 0.0, 1.0, 0.61882, 1.0], [0.840237, 0.974397, 1.5841, 1.03393, 1.0], 0.068, 0.327),
    ph("rtx-pro-6000", Sglang, attention(Prefill, Bf16, Fp8E4m3), [10.4128, 1.0, 0.573071, 0.0, 1.0, 1.65908, 1.0], [1.63174, 0.799876, 2.1821, 0.847788, 4.61643], 0.213, 0.584).walks_hidden_tiles_at(1.0),
    ph("rtx-pro-6000", Vllm, attention(Prefill, Bf16, Fp8E4m3), [10.8509, 0.784967, 0.475514, 0.0, 1.0, 0.847182, 1.5], [0.882297, 0.899449, 2.26119, 1.18797, 1.0], 0.156, 0.475),
    ph("rtx-pro-6000", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [12.071, 1.0, 0.177467, 5.04807, 1.0, 1.33743, 1.5], [0.904687, 0.390752, 0.968336, 1.65611, 1.0], 0.107, 0.435),
    ph("rtx-pro-6000", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [10.4527, 1.0, 0.203058, 0.0, 1.0, 1.0, 1.0], [1.70596, 0.864268, 0.876206, 1.61287, 1.14213], 0.218, 0.706).walks_hidden_tiles_at(0.375),
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
