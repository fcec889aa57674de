//! The shipped kernel profiles, one line each. `rooflinr validate --tables DIR --profiles`
//! prints these lines from its fits; `cargo xtask validate` refits them and says whether
//! each still matches.

use super::{Framework, KernelTerms, Profile, Profiled};
use crate::analysis::Phase::{self, Decode, Prefill};
use crate::format::Format::{self, Bf16, Fp8E4m3, NvFp4};
use Framework::{Sglang, TensorRtLlm, Vllm};

/// One profile; `terms` are [fixed time in µs, bandwidth fraction, compute fraction,
/// latency per wave in µs, tile bandwidth fraction, L2 rate for re-reads as a multiple of the
/// DRAM bandwidth (`f64::INFINITY` where the kernel re-reads nothing)].
const fn p(
    hardware: &'static str,
    framework: Framework,
    kernel: Profiled,
    terms: [f64; 6],
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
        },
        held_out_median,
        held_out_p90,
    }
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

/// The shipped profiles, per device, framework and kernel (`cargo xtask validate` refits
/// them and says whether each still matches): TensorRT-LLM's fitted on half its shapes and
/// judged on the other half, vLLM's and SGLang's the same way on their own tables (terms
/// fitted on TensorRT-LLM miss their kernels by 20-95 % median: other kernels, other fixed
/// costs). Not every term is a property of the chip alone:
///
/// - GEMM: FP8's fixed time (12-14 us, against 2-3 us for BF16) is several kernels' worth,
///   consistent with the measured FP8 path running more than the GEMM and the quantisation
///   pass counted here (a scale reduction, for one; not verified), and NVFP4's bandwidth
///   fraction (53-54 % on B200/GB200, 31 % on B300/GB300) is low for a streaming kernel:
///   its GEMMs read more than the packed bytes this model counts, or B300's tables ran a
///   kernel built for B200 (not verified). The tile rate is one SM's for kernels that keep
///   each output tile on one SM (TensorRT-LLM's NVFP4: 40-57 GB/s) and several SMs' for
///   those that split K (BF16 and FP8 on Blackwell: 1,100-2,700 GB/s; Hopper's and A100's
///   BF16 show no such limit, fitted at the whole bandwidth). Kernels that split K reduce
///   the partial sums in a second kernel ([`super::reduces_partial_sums`]): the per-wave
///   latency of its two dependent steps reads 1.0-1.8 us in TensorRT-LLM's tables, about
///   a kernel launch each. The L2 rate of a GEMM profile is the one a benchmark loop's
///   cached operands are read at ([`super::KernelTimes::warm`]): 1.2-1.5x the DRAM's
///   datasheet rate on L40S, the DRAM's fraction on A100 and Hopper (no gain), infinite
///   (unused) where the registry has no L2 size; the product's own predictions read
///   weights from DRAM and never use it.
/// - Attention: the tables time each framework's whole attention op, so the fixed time
///   (3-13 us in TensorRT-LLM) holds the kernels around the attention proper (rotary
///   embedding, the KV cache append). Decode's compute fraction reads 6-17 % of the dense
///   tensor peak for TensorRT-LLM on Hopper and Blackwell (found from the fit's second
///   start, [`super::KernelTerms::fit`]): a KV head's few query heads fill a few rows of
///   each matrix instruction's tile (4-8 of Hopper's 64: 6-12 %), our reading, not
///   verified; where it reads 100 % its compute term never binds, not because the tensor
///   cores run at peak. Prefill's bandwidth fraction (24-82 %) is read off short prompts,
///   whose bytes hardly matter. The latency per wave (about 1-11 us) is one block's chain of
///   dependent steps; 35 prefill profiles (L40S's, RTX PRO 6000's and A100's, and most of
///   vLLM's and SGLang's) fit better with none, their work growing with their waves. Decode's tile rate is one block's: 22-36 GB/s for TensorRT-LLM's XQA
///   blocks on A100, Hopper and L40S (on H100 and H200, 26 and 36 GB/s: each one's
///   bandwidth over its 132 SMs),
///   5-15 GB/s for its MLA decode on A100, L40S and RTX PRO 6000 (a block per sequence,
///   walking the latent cache; no dedicated MLA kernel there), and 1,250-2,700 GB/s where
///   the kernel splits each sequence over many SMs (Hopper's MLA, Blackwell's trtllm-gen
///   kernels), so there it is the rate one sequence streams at. The MLA fits with an FP8
///   cache on A100 and L40S read only 20-41 % of the bandwidth: their kernels convert the
///   cache on the way, not verified.
/// - TensorRT-LLM's masked multi-head attention (`per_query_head`: above 32 query heads per
///   KV head, and plain multi-head attention on sm_80 to sm_90) reads its KV head's cache
///   once from the DRAM and once more from the L2 for each further query head: the L2 fits
///   at 4.3 TB/s on A100, 6.7-9 TB/s on Hopper, Blackwell, L40S and RTX PRO 6000 with a
///   BF16 cache (0.9-6 TB/s for FP8 caches, which are converted as they are read). On
///   A100, Blackwell and RTX PRO 6000 each block streams at 41-55 GB/s in BF16, 28-32 in
///   FP8; on Hopper and L40S, whose group also holds plain multi-head attention (which
///   this kernel splits over blocks when sequences are long), no such per-block limit
///   fits, and the tile rate there has no physical reading.
// Fitted figures: one may happen to lie near a mathematical constant (0.318).
#[allow(clippy::approx_constant)]
#[rustfmt::skip]
pub const PROFILES: &[Profile] = &[
    p("a100-sxm", TensorRtLlm, gemm(Bf16), [3.16108, 0.697318, 0.700188, 1.42209, 0.697318, 0.697318], 0.121, 0.279),
    p("a100-sxm", Sglang, gemm(Bf16), [3.50002, 0.665101, 0.714026, 1.58533, 0.662177, 0.665101], 0.107, 0.289),
    p("a100-sxm", Vllm, gemm(Bf16), [3.09978, 0.669927, 0.705559, 1.47195, 1.0, 0.669927], 0.113, 0.293),
    p("a100-sxm", TensorRtLlm, attention(Prefill, Bf16, Bf16), [13.7077, 0.231674, 0.4375, 0.0, 1.0, f64::INFINITY], 0.111, 0.383),
    p("a100-sxm", Sglang, attention(Prefill, Bf16, Bf16), [13.9864, 0.413534, 0.628446, 0.0, 1.0, f64::INFINITY], 0.095, 0.513),
    p("a100-sxm", Vllm, attention(Prefill, Bf16, Bf16), [11.8327, 0.290928, 0.527173, 0.0, 0.00398398, f64::INFINITY], 0.122, 0.407),
    p("a100-sxm", TensorRtLlm, attention(Decode, Bf16, Bf16), [4.62578, 1.0, 1.0, 5.96545, 0.0134472, f64::INFINITY], 0.138, 0.489),
    p("a100-sxm", Sglang, attention(Decode, Bf16, Bf16), [10.6689, 0.516726, 0.157196, 3.35686, 0.191038, f64::INFINITY], 0.116, 0.358),
    p("a100-sxm", Vllm, attention(Decode, Bf16, Bf16), [8.49534, 0.705599, 0.179363, 3.98498, 0.126811, f64::INFINITY], 0.171, 0.362),
    p("a100-sxm", TensorRtLlm, per_query_head(Bf16, Bf16), [9.23022, 0.899686, 1.0, 1.65465, 0.0199294, 2.13103], 0.100, 0.439),
    p("a100-sxm", TensorRtLlm, mla(Prefill, Bf16, Bf16), [15.3673, 0.492001, 0.450414, 0.0, 1.0, f64::INFINITY], 0.119, 0.434),
    p("a100-sxm", TensorRtLlm, mla(Decode, Bf16, Bf16), [1.95888, 0.379174, 0.273134, 10.9546, 0.00490995, f64::INFINITY], 0.110, 0.516),
    p("a100-sxm", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [0.676579, 0.196207, 0.267165, 10.7255, 0.00251191, f64::INFINITY], 0.135, 0.954),
    p("b200", TensorRtLlm, gemm(Bf16), [2.10599, 0.691444, 0.655566, 1.27293, 0.324385, f64::INFINITY], 0.078, 0.226),
    p("b200", Sglang, gemm(Bf16), [2.11418, 0.677309, 0.640747, 1.5467, 0.287975, f64::INFINITY], 0.096, 0.281),
    p("b200", Vllm, gemm(Bf16), [2.0759, 0.715396, 0.682998, 1.39183, 0.315253, f64::INFINITY], 0.080, 0.230),
    p("b200", TensorRtLlm, gemm(Fp8E4m3), [14.0761, 0.69902, 0.550989, 1.55759, 0.134658, f64::INFINITY], 0.075, 0.203),
    p("b200", Sglang, gemm(Fp8E4m3), [5.48899, 0.550107, 0.51816, 0.0, 0.0207012, f64::INFINITY], 0.112, 0.316),
    p("b200", Vllm, gemm(Fp8E4m3), [5.83391, 0.633373, 0.396525, 0.0, 0.020181, f64::INFINITY], 0.202, 0.613),
    p("b200", TensorRtLlm, gemm(NvFp4), [6.02743, 0.542504, 0.413065, 0.0, 0.0050356, f64::INFINITY], 0.071, 0.233),
    p("b200", Sglang, gemm(NvFp4), [4.20665, 0.520091, 0.463815, 0.0, 0.0136546, f64::INFINITY], 0.111, 0.296),
    p("b200", Vllm, gemm(NvFp4), [6.74239, 0.618525, 0.491317, 0.0, 0.0158546, f64::INFINITY], 0.075, 0.233),
    p("b200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [10.337, 0.278612, 0.408689, 4.84121, 1.0, f64::INFINITY], 0.113, 0.387),
    p("b200", Sglang, attention(Prefill, Bf16, Bf16), [5.08039, 0.561104, 0.591804, 5.34448, 1.0, f64::INFINITY], 0.204, 0.790),
    p("b200", Vllm, attention(Prefill, Bf16, Bf16), [5.01103, 0.477654, 0.437655, 3.17782, 1.0, f64::INFINITY], 0.199, 0.426),
    p("b200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [10.4252, 0.281052, 0.473787, 4.65644, 1.0, f64::INFINITY], 0.107, 0.425),
    p("b200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [9.02057, 0.477204, 0.299057, 6.07148, 1.0, f64::INFINITY], 0.120, 0.447),
    p("b200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [16.5879, 0.0865691, 0.21787, 0.0, 1.0, f64::INFINITY], 0.210, 0.708),
    p("b200", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.31618, 0.946567, 0.0865009, 1.64863, 0.321765, f64::INFINITY], 0.060, 0.281),
    p("b200", Sglang, attention(Decode, Bf16, Bf16), [7.00652, 0.945742, 0.209033, 1.9538, 0.212285, f64::INFINITY], 0.140, 0.504),
    p("b200", Vllm, attention(Decode, Bf16, Bf16), [7.35834, 0.95561, 0.146478, 1.33832, 0.346225, f64::INFINITY], 0.132, 0.420),
    p("b200", TensorRtLlm, per_query_head(Bf16, Bf16), [7.2051, 0.819568, 1.0, 1.5388, 0.00677588, 1.0], 0.068, 0.227),
    p("b200", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [9.65732, 0.915755, 0.160231, 1.33691, 0.224746, f64::INFINITY], 0.060, 0.243),
    p("b200", Sglang, attention(Decode, Bf16, Fp8E4m3), [15.081, 0.889948, 0.366133, 1.46023, 0.10655, f64::INFINITY], 0.124, 0.429),
    p("b200", Vllm, attention(Decode, Bf16, Fp8E4m3), [7.66009, 0.909837, 0.164898, 1.33054, 0.179664, f64::INFINITY], 0.154, 0.470),
    p("b200", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.93944, 0.528916, 1.0, 1.21846, 0.00361784, 1.0], 0.089, 0.217),
    p("b200", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.3633, 0.932027, 0.534158, 3.59951, 1.0, f64::INFINITY], 0.079, 0.367),
    p("b200", Sglang, mla(Prefill, Bf16, Bf16), [8.31047, 0.910626, 0.610023, 4.17374, 1.0, f64::INFINITY], 0.097, 0.399),
    p("b200", TensorRtLlm, mla(Decode, Bf16, Bf16), [5.26569, 0.730376, 0.587719, 5.35655, 0.289891, f64::INFINITY], 0.073, 0.273),
    p("b200", Sglang, mla(Decode, Bf16, Bf16), [4.44318, 0.70977, 0.485366, 6.00105, 0.275154, f64::INFINITY], 0.101, 0.265),
    p("b200", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [4.02974, 0.754465, 1.0, 4.95519, 0.217648, f64::INFINITY], 0.133, 0.334),
    p("b200", Sglang, mla(Decode, Bf16, Fp8E4m3), [6.38315, 0.768339, 0.843315, 4.01762, 0.265854, f64::INFINITY], 0.101, 0.268),
    p("b300", TensorRtLlm, gemm(Bf16), [1.91044, 0.696535, 0.692843, 1.20753, 0.332531, f64::INFINITY], 0.081, 0.223),
    p("b300", Sglang, gemm(Bf16), [1.94163, 0.691133, 0.689775, 1.3655, 0.28696, f64::INFINITY], 0.092, 0.255),
    p("b300", Vllm, gemm(Bf16), [1.83996, 0.722284, 0.747811, 1.34212, 0.332988, f64::INFINITY], 0.078, 0.228),
    p("b300", TensorRtLlm, gemm(Fp8E4m3), [12.4887, 0.66655, 0.578547, 1.80258, 0.141073, f64::INFINITY], 0.088, 0.213),
    p("b300", Sglang, gemm(Fp8E4m3), [5.37271, 0.545874, 0.543439, 0.0, 0.0214409, f64::INFINITY], 0.111, 0.295),
    p("b300", Vllm, gemm(Fp8E4m3), [5.50408, 0.644992, 0.417555, 0.0, 0.021149, f64::INFINITY], 0.185, 0.609),
    p("b300", TensorRtLlm, gemm(NvFp4), [6.82356, 0.305025, 0.402734, 0.0, 0.00716854, f64::INFINITY], 0.112, 0.341),
    p("b300", Sglang, gemm(NvFp4), [3.73082, 0.519116, 0.31551, 0.0, 0.0141636, f64::INFINITY], 0.109, 0.282),
    p("b300", Vllm, gemm(NvFp4), [6.63095, 0.639258, 0.343378, 0.0, 0.0173177, f64::INFINITY], 0.073, 0.234),
    p("b300", TensorRtLlm, attention(Prefill, Bf16, Bf16), [10.3215, 0.290774, 0.48772, 4.52401, 1.0, f64::INFINITY], 0.103, 0.349),
    p("b300", Sglang, attention(Prefill, Bf16, Bf16), [8.50818, 0.240022, 0.533458, 0.0, 1.0, f64::INFINITY], 0.211, 0.753),
    p("b300", Vllm, attention(Prefill, Bf16, Bf16), [5.59901, 0.421682, 0.543435, 3.3058, 1.0, f64::INFINITY], 0.162, 0.388),
    p("b300", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [10.6641, 0.273149, 0.612164, 4.1413, 1.0, f64::INFINITY], 0.106, 0.391),
    p("b300", Vllm, attention(Prefill, Bf16, Fp8E4m3), [8.98841, 0.128656, 0.532888, 0.0, 1.0, f64::INFINITY], 0.226, 0.652),
    p("b300", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [8.92582, 0.495983, 0.387835, 5.92004, 1.0, f64::INFINITY], 0.112, 0.425),
    p("b300", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [14.5966, 0.0858448, 0.338096, 0.0, 1.0, f64::INFINITY], 0.196, 0.697),
    p("b300", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.31493, 0.927519, 0.0871114, 1.54182, 0.344602, f64::INFINITY], 0.052, 0.289),
    p("b300", Sglang, attention(Decode, Bf16, Bf16), [6.5918, 0.918652, 0.484202, 1.88335, 0.210494, f64::INFINITY], 0.157, 0.495),
    p("b300", Vllm, attention(Decode, Bf16, Bf16), [7.43414, 0.915632, 0.175279, 1.44215, 0.213831, f64::INFINITY], 0.043, 0.241),
    p("b300", TensorRtLlm, per_query_head(Bf16, Bf16), [7.10054, 0.910438, 1.0, 1.57354, 0.00666329, 1.07926], 0.073, 0.224),
    p("b300", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [9.64008, 0.903138, 0.166571, 1.24393, 0.300806, f64::INFINITY], 0.048, 0.237),
    p("b300", Sglang, attention(Decode, Bf16, Fp8E4m3), [13.0325, 0.848212, 0.383205, 1.63454, 0.0996723, f64::INFINITY], 0.117, 0.414),
    p("b300", Vllm, attention(Decode, Bf16, Fp8E4m3), [7.66181, 0.869255, 0.22234, 1.33121, 0.183696, f64::INFINITY], 0.052, 0.267),
    p("b300", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.75874, 0.558596, 1.0, 1.25152, 0.00362715, 1.0], 0.071, 0.207),
    p("b300", TensorRtLlm, mla(Prefill, Bf16, Bf16), [10.3113, 0.776155, 0.571165, 2.73038, 1.0, f64::INFINITY], 0.096, 0.303),
    p("b300", Sglang, mla(Prefill, Bf16, Bf16), [6.73321, 1.0, 0.669279, 3.89125, 1.0, f64::INFINITY], 0.122, 0.416),
    p("b300", TensorRtLlm, mla(Decode, Bf16, Bf16), [3.40516, 0.719372, 0.582528, 5.5428, 0.268632, f64::INFINITY], 0.107, 0.295),
    p("b300", Sglang, mla(Decode, Bf16, Bf16), [4.78411, 0.720341, 0.532307, 5.60927, 0.295367, f64::INFINITY], 0.079, 0.249),
    p("b300", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [4.18543, 0.750081, 1.0, 4.57826, 0.226795, f64::INFINITY], 0.108, 0.323),
    p("b300", Sglang, mla(Decode, Bf16, Fp8E4m3), [4.33422, 0.738087, 0.94603, 4.137, 0.238101, f64::INFINITY], 0.154, 0.291),
    p("gb200", TensorRtLlm, gemm(Bf16), [2.11466, 0.686927, 0.632321, 1.17928, 0.275451, f64::INFINITY], 0.077, 0.226),
    p("gb200", Sglang, gemm(Bf16), [2.10973, 0.695851, 0.632936, 1.31607, 0.247567, f64::INFINITY], 0.094, 0.259),
    p("gb200", Vllm, gemm(Bf16), [2.09646, 0.715535, 0.6681, 1.27012, 0.268765, f64::INFINITY], 0.091, 0.257),
    p("gb200", TensorRtLlm, gemm(Fp8E4m3), [13.6481, 0.693731, 0.502905, 1.53464, 0.145731, f64::INFINITY], 0.076, 0.201),
    p("gb200", Sglang, gemm(Fp8E4m3), [5.42703, 0.538972, 0.514766, 0.0, 0.0210175, f64::INFINITY], 0.108, 0.294),
    p("gb200", Vllm, gemm(Fp8E4m3), [5.89483, 0.615068, 0.393673, 0.0, 0.0199585, f64::INFINITY], 0.185, 0.601),
    p("gb200", TensorRtLlm, gemm(NvFp4), [5.86276, 0.526772, 0.398845, 0.0, 0.00518378, f64::INFINITY], 0.070, 0.235),
    p("gb200", Sglang, gemm(NvFp4), [3.80328, 0.519278, 0.452615, 0.0, 0.0139377, f64::INFINITY], 0.112, 0.309),
    p("gb200", Vllm, gemm(NvFp4), [7.13095, 0.630656, 0.469782, 0.0, 0.0161278, f64::INFINITY], 0.081, 0.238),
    p("gb200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [10.7783, 0.276976, 0.391732, 4.56102, 1.0, f64::INFINITY], 0.112, 0.388),
    p("gb200", Sglang, attention(Prefill, Bf16, Bf16), [10.494, 0.235887, 0.432452, 0.0, 1.0, f64::INFINITY], 0.214, 0.734),
    p("gb200", Vllm, attention(Prefill, Bf16, Bf16), [6.49432, 0.360023, 0.38765, 3.34823, 1.0, f64::INFINITY], 0.166, 0.423),
    p("gb200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [11.3112, 0.232774, 0.471163, 3.86441, 0.00159123, f64::INFINITY], 0.117, 0.411),
    p("gb200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [10.8913, 0.121832, 0.343392, 0.0, 1.0, f64::INFINITY], 0.210, 0.632),
    p("gb200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [9.51914, 0.442503, 0.308492, 5.75912, 1.0, f64::INFINITY], 0.123, 0.442),
    p("gb200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [16.6156, 0.0854902, 0.229703, 0.0, 1.0, f64::INFINITY], 0.209, 0.693),
    p("gb200", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.7829, 0.936695, 0.077387, 1.54818, 0.311792, f64::INFINITY], 0.074, 0.278),
    p("gb200", Sglang, attention(Decode, Bf16, Bf16), [8.62297, 0.947092, 0.386354, 1.77622, 0.210604, f64::INFINITY], 0.167, 0.473),
    p("gb200", Vllm, attention(Decode, Bf16, Bf16), [7.91399, 0.917961, 0.145532, 1.47784, 0.209428, f64::INFINITY], 0.103, 0.241),
    p("gb200", TensorRtLlm, per_query_head(Bf16, Bf16), [7.7704, 0.832323, 1.0, 1.41849, 0.00687421, 1.06818], 0.071, 0.223),
    p("gb200", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [10.0802, 0.902027, 0.150445, 1.28143, 0.209366, f64::INFINITY], 0.077, 0.241),
    p("gb200", Sglang, attention(Decode, Bf16, Fp8E4m3), [14.0185, 0.871691, 0.34408, 1.49457, 0.106017, f64::INFINITY], 0.104, 0.428),
    p("gb200", Vllm, attention(Decode, Bf16, Fp8E4m3), [9.65675, 0.875506, 0.21321, 1.16637, 0.189498, f64::INFINITY], 0.043, 0.238),
    p("gb200", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [9.66515, 0.527618, 1.0, 1.11907, 0.00368739, 1.0], 0.081, 0.212),
    p("gb200", TensorRtLlm, mla(Prefill, Bf16, Bf16), [11.3997, 0.941677, 0.529467, 3.81423, 1.0, f64::INFINITY], 0.111, 0.406),
    p("gb200", Sglang, mla(Prefill, Bf16, Bf16), [9.04357, 1.0, 0.508735, 3.77468, 1.0, f64::INFINITY], 0.121, 0.369),
    p("gb200", TensorRtLlm, mla(Decode, Bf16, Bf16), [5.25642, 0.720445, 0.538004, 5.25219, 0.281836, f64::INFINITY], 0.082, 0.271),
    p("gb200", Sglang, mla(Decode, Bf16, Bf16), [5.02861, 0.718721, 0.470654, 5.83479, 0.286145, f64::INFINITY], 0.125, 0.261),
    p("gb200", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [4.56727, 0.771296, 0.992222, 4.77872, 0.189083, f64::INFINITY], 0.127, 0.322),
    p("gb200", Sglang, mla(Decode, Bf16, Fp8E4m3), [6.78046, 0.757108, 0.852686, 3.9951, 0.261607, f64::INFINITY], 0.111, 0.268),
    p("gb300", TensorRtLlm, gemm(Bf16), [2.09718, 0.689991, 0.719967, 1.15583, 0.289477, f64::INFINITY], 0.074, 0.228),
    p("gb300", Sglang, gemm(Bf16), [2.05856, 0.703743, 0.705675, 1.2576, 0.262426, f64::INFINITY], 0.084, 0.234),
    p("gb300", Vllm, gemm(Bf16), [2.06793, 0.723272, 0.741255, 1.23722, 0.277148, f64::INFINITY], 0.077, 0.223),
    p("gb300", TensorRtLlm, gemm(Fp8E4m3), [12.9411, 0.679369, 0.58858, 1.69199, 0.167356, f64::INFINITY], 0.085, 0.209),
    p("gb300", Sglang, gemm(Fp8E4m3), [5.3019, 0.541522, 0.590683, 0.0, 0.021942, f64::INFINITY], 0.096, 0.261),
    p("gb300", Vllm, gemm(Fp8E4m3), [5.86022, 0.624902, 0.422535, 0.0, 0.0206324, f64::INFINITY], 0.184, 0.595),
    p("gb300", TensorRtLlm, gemm(NvFp4), [6.94146, 0.305615, 0.408766, 0.0, 0.00703226, f64::INFINITY], 0.109, 0.340),
    p("gb300", Sglang, gemm(NvFp4), [3.75561, 0.53196, 0.32434, 0.0, 0.0143893, f64::INFINITY], 0.101, 0.276),
    p("gb300", Vllm, gemm(NvFp4), [7.17783, 0.633922, 0.348905, 0.0, 0.0162713, f64::INFINITY], 0.075, 0.221),
    p("gb300", TensorRtLlm, attention(Prefill, Bf16, Bf16), [10.6014, 0.284966, 0.491362, 4.52154, 1.0, f64::INFINITY], 0.105, 0.359),
    p("gb300", Sglang, attention(Prefill, Bf16, Bf16), [10.4419, 0.262584, 0.523805, 0.0, 1.0, f64::INFINITY], 0.212, 0.732),
    p("gb300", Vllm, attention(Prefill, Bf16, Bf16), [5.84023, 0.419681, 0.533239, 3.25856, 1.0, f64::INFINITY], 0.170, 0.401),
    p("gb300", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [11.0255, 0.274628, 0.602728, 4.05248, 1.0, f64::INFINITY], 0.104, 0.407),
    p("gb300", Vllm, attention(Prefill, Bf16, Fp8E4m3), [9.96488, 0.132295, 0.511414, 0.0, 1.0, f64::INFINITY], 0.218, 0.645),
    p("gb300", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [10.9007, 0.172331, 0.349728, 4.2068, 1.0, f64::INFINITY], 0.115, 0.378),
    p("gb300", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [16.5114, 0.0898986, 0.321154, 0.0, 1.0, f64::INFINITY], 0.188, 0.694),
    p("gb300", TensorRtLlm, attention(Decode, Bf16, Bf16), [9.61161, 0.913383, 1.0, 1.56326, 0.336969, f64::INFINITY], 0.060, 0.277),
    p("gb300", Sglang, attention(Decode, Bf16, Bf16), [8.62155, 0.922335, 1.0, 1.7585, 0.212764, f64::INFINITY], 0.179, 0.472),
    p("gb300", Vllm, attention(Decode, Bf16, Bf16), [7.67249, 0.900353, 0.152757, 1.48143, 0.210336, f64::INFINITY], 0.074, 0.240),
    p("gb300", TensorRtLlm, per_query_head(Bf16, Bf16), [7.78251, 0.880185, 1.0, 1.51254, 0.00665492, 1.09335], 0.074, 0.211),
    p("gb300", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [9.87653, 0.891341, 0.146859, 1.31165, 0.220159, f64::INFINITY], 0.062, 0.246),
    p("gb300", Sglang, attention(Decode, Bf16, Fp8E4m3), [13.121, 0.851707, 0.347821, 1.65303, 0.0981377, f64::INFINITY], 0.114, 0.420),
    p("gb300", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.0044, 0.855938, 0.208797, 1.33741, 0.177662, f64::INFINITY], 0.111, 0.275),
    p("gb300", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [9.70902, 0.555309, 1.0, 1.19391, 0.00359574, 1.0], 0.080, 0.227),
    p("gb300", TensorRtLlm, mla(Prefill, Bf16, Bf16), [12.1278, 0.794259, 0.550242, 2.62222, 1.0, f64::INFINITY], 0.104, 0.324),
    p("gb300", Sglang, mla(Prefill, Bf16, Bf16), [9.22081, 1.0, 0.675383, 3.52448, 1.0, f64::INFINITY], 0.094, 0.407),
    p("gb300", TensorRtLlm, mla(Decode, Bf16, Bf16), [4.62122, 0.707158, 0.531256, 5.37366, 0.273938, f64::INFINITY], 0.097, 0.277),
    p("gb300", Sglang, mla(Decode, Bf16, Bf16), [5.05656, 0.706948, 0.515771, 5.76432, 0.28905, f64::INFINITY], 0.113, 0.255),
    p("gb300", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [4.7222, 0.715963, 0.969153, 4.46099, 0.231442, f64::INFINITY], 0.142, 0.319),
    p("gb300", Sglang, mla(Decode, Bf16, Fp8E4m3), [6.66609, 0.754649, 0.934673, 3.92241, 0.263828, f64::INFINITY], 0.099, 0.257),
    p("h100-sxm", TensorRtLlm, gemm(Bf16), [2.69093, 0.796132, 0.760596, 1.30043, 1.0, 0.816239], 0.055, 0.182),
    p("h100-sxm", Sglang, gemm(Bf16), [2.81632, 0.812833, 0.740332, 1.44154, 1.0, 0.812833], 0.065, 0.206),
    p("h100-sxm", Vllm, gemm(Bf16), [2.63468, 0.83867, 0.790827, 1.32075, 1.0, 0.83867], 0.061, 0.186),
    p("h100-sxm", TensorRtLlm, gemm(Fp8E4m3), [12.5196, 0.780054, 0.618073, 1.31323, 1.0, 0.822793], 0.042, 0.165),
    p("h100-sxm", Sglang, gemm(Fp8E4m3), [5.4474, 0.715964, 0.561925, 0.0, 0.0511954, 0.715964], 0.125, 0.321),
    p("h100-sxm", Vllm, gemm(Fp8E4m3), [5.15398, 0.713647, 0.459794, 0.0, 0.0408373, 0.713647], 0.176, 0.504),
    p("h100-sxm", TensorRtLlm, attention(Prefill, Bf16, Bf16), [9.94642, 0.390287, 0.504628, 6.50823, 1.0, f64::INFINITY], 0.102, 0.476),
    p("h100-sxm", Sglang, attention(Prefill, Bf16, Bf16), [10.2769, 0.385089, 0.563293, 0.0, 1.0, f64::INFINITY], 0.143, 0.492),
    p("h100-sxm", Vllm, attention(Prefill, Bf16, Bf16), [11.2832, 0.285915, 0.495114, 0.0, 1.0, f64::INFINITY], 0.148, 0.403),
    p("h100-sxm", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [9.247, 0.484134, 0.718195, 7.68649, 1.0, f64::INFINITY], 0.158, 0.514),
    p("h100-sxm", Sglang, attention(Prefill, Bf16, Fp8E4m3), [14.4529, 0.227303, 0.0619939, 0.0, 1.0, f64::INFINITY], 0.184, 1.515),
    p("h100-sxm", Vllm, attention(Prefill, Bf16, Fp8E4m3), [12.731, 0.21272, 0.455903, 0.0, 1.0, f64::INFINITY], 0.174, 0.448),
    p("h100-sxm", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [9.38499, 0.324001, 0.360674, 7.55692, 1.0, f64::INFINITY], 0.145, 0.475),
    p("h100-sxm", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [10.0098, 0.216468, 0.346918, 0.0, 1.0, f64::INFINITY], 0.186, 0.484),
    p("h100-sxm", TensorRtLlm, attention(Decode, Bf16, Bf16), [3.6107, 0.990046, 0.0597347, 4.18988, 0.007673, f64::INFINITY], 0.123, 0.319),
    p("h100-sxm", Sglang, attention(Decode, Bf16, Bf16), [6.17033, 0.885886, 0.173752, 3.33079, 0.374618, f64::INFINITY], 0.106, 0.390),
    p("h100-sxm", Vllm, attention(Decode, Bf16, Bf16), [7.50989, 0.896882, 0.177189, 3.69296, 0.366786, f64::INFINITY], 0.097, 0.273),
    p("h100-sxm", TensorRtLlm, per_query_head(Bf16, Bf16), [6.76459, 0.900213, 1.0, 1.18164, 0.699712, 2.05599], 0.099, 0.316),
    p("h100-sxm", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [6.6621, 0.935719, 0.0692521, 1.12859, 1.0, f64::INFINITY], 0.162, 0.395),
    p("h100-sxm", Sglang, attention(Decode, Bf16, Fp8E4m3), [9.30933, 0.643688, 0.24567, 3.61717, 0.27114, f64::INFINITY], 0.132, 0.387),
    p("h100-sxm", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.72148, 0.697829, 0.269143, 4.02849, 0.151906, f64::INFINITY], 0.142, 0.302),
    p("h100-sxm", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.92295, 0.739401, 1.0, 1.18692, 1.0, 1.04802], 0.116, 0.340),
    p("h100-sxm", TensorRtLlm, mla(Prefill, Bf16, Bf16), [15.4023, 0.4443, 0.50473, 0.0, 1.0, f64::INFINITY], 0.133, 0.365),
    p("h100-sxm", Sglang, mla(Prefill, Bf16, Bf16), [11.9067, 0.272935, 0.177479, 0.0, 1.0, f64::INFINITY], 0.094, 0.419),
    p("h100-sxm", TensorRtLlm, mla(Decode, Bf16, Bf16), [6.33456, 0.913113, 0.588047, 7.07411, 0.434046, f64::INFINITY], 0.055, 0.231),
    p("h100-sxm", Sglang, mla(Decode, Bf16, Bf16), [5.86741, 0.874421, 0.554016, 5.88879, 0.382023, f64::INFINITY], 0.055, 0.237),
    p("h100-sxm", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [5.4184, 0.824981, 0.679026, 7.57735, 0.372374, f64::INFINITY], 0.075, 0.262),
    p("h100-sxm", Sglang, mla(Decode, Bf16, Fp8E4m3), [17.1199, 0.0833048, 0.12925, 0.0, 0.0684051, f64::INFINITY], 0.056, 0.606),
    p("h200", TensorRtLlm, gemm(Bf16), [2.69141, 0.766852, 0.76032, 1.34196, 0.766563, 0.766852], 0.064, 0.188),
    p("h200", Sglang, gemm(Bf16), [2.76572, 0.778582, 0.696246, 1.44564, 0.713102, 0.778582], 0.086, 0.222),
    p("h200", Vllm, gemm(Bf16), [2.62597, 0.782976, 0.782716, 1.36017, 0.782976, 0.782976], 0.064, 0.194),
    p("h200", TensorRtLlm, gemm(Fp8E4m3), [12.2876, 0.757983, 0.615251, 1.57782, 1.0, 0.757983], 0.054, 0.192),
    p("h200", Sglang, gemm(Fp8E4m3), [5.03871, 0.603713, 0.564519, 0.0, 0.0335906, 1.0], 0.173, 0.389),
    p("h200", Vllm, gemm(Fp8E4m3), [5.16471, 0.624127, 0.465457, 0.0, 0.0274752, 1.0], 0.222, 0.587),
    p("h200", TensorRtLlm, attention(Prefill, Bf16, Bf16), [9.23833, 0.300993, 0.521725, 6.81331, 1.0, f64::INFINITY], 0.096, 0.505),
    p("h200", Sglang, attention(Prefill, Bf16, Bf16), [10.211, 0.291373, 0.550259, 0.0, 1.0, f64::INFINITY], 0.147, 0.507),
    p("h200", Vllm, attention(Prefill, Bf16, Bf16), [11.1468, 0.20572, 0.491018, 0.0, 1.0, f64::INFINITY], 0.147, 0.406),
    p("h200", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [8.4277, 0.433973, 0.745786, 8.10264, 1.0, f64::INFINITY], 0.150, 0.513),
    p("h200", Sglang, attention(Prefill, Bf16, Fp8E4m3), [14.3362, 0.171731, 0.061861, 0.0, 1.0, f64::INFINITY], 0.187, 1.620),
    p("h200", Vllm, attention(Prefill, Bf16, Fp8E4m3), [12.6891, 0.152093, 0.453639, 0.0, 1.0, f64::INFINITY], 0.173, 0.439),
    p("h200", TensorRtLlm, attention(Prefill, Fp8E4m3, Fp8E4m3), [8.49597, 0.294005, 0.377469, 8.07838, 1.0, f64::INFINITY], 0.144, 0.501),
    p("h200", Sglang, attention(Prefill, Fp8E4m3, Fp8E4m3), [10.0723, 0.156938, 0.343364, 0.0, 1.0, f64::INFINITY], 0.183, 0.499),
    p("h200", TensorRtLlm, attention(Decode, Bf16, Bf16), [3.08056, 0.95994, 1.0, 4.62629, 0.00748373, f64::INFINITY], 0.119, 0.331),
    p("h200", Sglang, attention(Decode, Bf16, Bf16), [5.83081, 0.832107, 0.220934, 3.5727, 0.207448, f64::INFINITY], 0.118, 0.407),
    p("h200", Vllm, attention(Decode, Bf16, Bf16), [7.18778, 0.837131, 0.2248, 3.84127, 0.270513, f64::INFINITY], 0.103, 0.284),
    p("h200", TensorRtLlm, per_query_head(Bf16, Bf16), [6.58447, 0.822579, 1.0, 1.20819, 1.0, 1.42098], 0.111, 0.329),
    p("h200", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [6.51537, 0.899159, 0.0749916, 1.11521, 1.0, f64::INFINITY], 0.155, 0.374),
    p("h200", Sglang, attention(Decode, Bf16, Fp8E4m3), [8.96776, 0.517246, 0.285532, 3.76168, 0.204904, f64::INFINITY], 0.137, 0.394),
    p("h200", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.49086, 0.512176, 1.0, 4.06128, 0.112426, f64::INFINITY], 0.148, 0.305),
    p("h200", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.78036, 0.564941, 1.0, 1.19772, 1.0, 0.725101], 0.115, 0.348),
    p("h200", TensorRtLlm, mla(Prefill, Bf16, Bf16), [9.72662, 1.0, 0.607785, 5.73552, 1.0, f64::INFINITY], 0.101, 0.493),
    p("h200", Sglang, mla(Prefill, Bf16, Bf16), [11.6865, 0.211318, 0.177835, 0.0, 1.0, f64::INFINITY], 0.082, 0.434),
    p("h200", TensorRtLlm, mla(Decode, Bf16, Bf16), [5.648, 0.913079, 0.615925, 7.36251, 0.418809, f64::INFINITY], 0.075, 0.232),
    p("h200", Sglang, mla(Decode, Bf16, Bf16), [5.3943, 0.863743, 0.582052, 6.1881, 0.335548, f64::INFINITY], 0.068, 0.265),
    p("h200", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [5.42147, 0.638335, 0.700421, 7.34834, 0.272273, f64::INFINITY], 0.080, 0.270),
    p("h200", Sglang, mla(Decode, Bf16, Fp8E4m3), [11.6277, 0.0629972, 0.134028, 5.22975, 0.0506644, f64::INFINITY], 0.052, 0.597),
    p("l40s", TensorRtLlm, gemm(Bf16), [1.98097, 0.784663, 0.561581, 0.0, 0.72951, 1.514], 0.110, 0.448),
    p("l40s", Sglang, gemm(Bf16), [2.05217, 0.742164, 0.529355, 0.0, 0.575469, 1.16726], 0.120, 0.409),
    p("l40s", Vllm, gemm(Bf16), [1.90534, 0.767057, 0.601669, 0.0, 0.767057, 1.31542], 0.116, 0.406),
    p("l40s", TensorRtLlm, gemm(Fp8E4m3), [12.0935, 0.773314, 0.539543, 0.731171, 1.0, 1.51953], 0.093, 0.402),
    p("l40s", Sglang, gemm(Fp8E4m3), [3.80929, 0.722859, 0.463013, 0.0, 0.113553, 1.21198], 0.132, 0.424),
    p("l40s", Vllm, gemm(Fp8E4m3), [5.5722, 0.671483, 0.534735, 0.0, 0.0814339, 0.769961], 0.171, 0.560),
    p("l40s", TensorRtLlm, attention(Prefill, Bf16, Bf16), [9.43342, 0.418884, 0.379397, 0.0, 0.0571321, f64::INFINITY], 0.232, 0.889),
    p("l40s", Vllm, attention(Prefill, Bf16, Bf16), [8.10991, 0.563552, 0.462166, 0.0, 0.00721912, f64::INFINITY], 0.193, 0.628),
    p("l40s", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [9.54854, 0.405465, 0.38441, 0.0, 1.0, f64::INFINITY], 0.219, 0.830),
    p("l40s", Vllm, attention(Prefill, Bf16, Fp8E4m3), [10.7343, 0.671918, 0.418103, 0.0, 1.0, f64::INFINITY], 0.220, 0.752),
    p("l40s", TensorRtLlm, attention(Decode, Bf16, Bf16), [4.80564, 1.0, 1.0, 2.65708, 0.0331338, f64::INFINITY], 0.180, 1.062),
    p("l40s", Sglang, attention(Decode, Bf16, Bf16), [5.60197, 0.943973, 1.0, 0.0, 0.943973, f64::INFINITY], 0.206, 1.606),
    p("l40s", TensorRtLlm, per_query_head(Bf16, Bf16), [6.84581, 0.912743, 1.0, 0.821307, 0.912743, 7.79789], 0.123, 1.068),
    p("l40s", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [6.06187, 0.858321, 0.283774, 3.54676, 0.0254492, f64::INFINITY], 0.176, 0.963),
    p("l40s", Sglang, attention(Decode, Bf16, Fp8E4m3), [6.45445, 1.0, 0.127885, 2.44367, 1.0, f64::INFINITY], 0.179, 0.815),
    p("l40s", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.527, 1.0, 0.262448, 2.03062, 1.0, f64::INFINITY], 0.128, 0.711),
    p("l40s", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [10.0353, 0.774833, 1.0, 2.92766, 0.651307, 1.04829], 0.147, 0.390),
    p("l40s", TensorRtLlm, mla(Prefill, Bf16, Bf16), [10.4352, 1.0, 0.417339, 0.0, 1.0, f64::INFINITY], 0.213, 0.748),
    p("l40s", Sglang, mla(Prefill, Bf16, Bf16), [5.0347, 0.502517, 0.0633679, 4.40983, 1.0, f64::INFINITY], 0.091, 2.788),
    p("l40s", TensorRtLlm, mla(Decode, Bf16, Bf16), [0.0, 0.798881, 0.297021, 8.44683, 0.0178899, f64::INFINITY], 0.084, 0.707),
    p("l40s", Sglang, mla(Decode, Bf16, Bf16), [14.3146, 0.73313, 0.116754, 0.0, 0.582508, f64::INFINITY], 0.216, 0.767),
    p("l40s", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [7.34857, 0.399639, 0.299347, 0.0, 0.00908184, f64::INFINITY], 0.107, 1.189),
    p("rtx-pro-6000", TensorRtLlm, gemm(Bf16), [2.13541, 0.831581, 0.771, 0.981401, 0.831581, f64::INFINITY], 0.110, 0.505),
    p("rtx-pro-6000", Sglang, gemm(Bf16), [1.97019, 0.811089, 0.778099, 0.985543, 0.811089, f64::INFINITY], 0.091, 0.425),
    p("rtx-pro-6000", Vllm, gemm(Bf16), [1.98817, 0.838594, 0.792253, 0.984531, 0.838594, f64::INFINITY], 0.101, 0.439),
    p("rtx-pro-6000", TensorRtLlm, gemm(Fp8E4m3), [11.9189, 0.828766, 0.734106, 1.13609, 0.476084, f64::INFINITY], 0.085, 0.304),
    p("rtx-pro-6000", Sglang, gemm(Fp8E4m3), [4.92981, 0.746273, 0.751181, 0.0, 0.0107215, f64::INFINITY], 0.083, 0.343),
    p("rtx-pro-6000", Vllm, gemm(Fp8E4m3), [4.63032, 0.789661, 0.797389, 0.0, 0.051082, f64::INFINITY], 0.100, 0.385),
    p("rtx-pro-6000", TensorRtLlm, gemm(NvFp4), [3.46888, 0.730899, 0.759833, 0.0, 0.0107831, f64::INFINITY], 0.094, 0.345),
    p("rtx-pro-6000", Sglang, gemm(NvFp4), [3.69493, 0.72135, 0.695595, 0.0, 0.0117358, f64::INFINITY], 0.075, 0.255),
    p("rtx-pro-6000", Vllm, gemm(NvFp4), [6.35345, 0.807341, 0.717034, 0.0, 0.0120959, f64::INFINITY], 0.094, 0.384),
    p("rtx-pro-6000", TensorRtLlm, attention(Prefill, Bf16, Bf16), [11.1632, 0.322943, 0.417266, 0.0, 1.0, f64::INFINITY], 0.146, 0.503),
    p("rtx-pro-6000", Vllm, attention(Prefill, Bf16, Bf16), [4.30933, 0.43514, 0.585542, 4.11284, 0.00233718, f64::INFINITY], 0.151, 0.643),
    p("rtx-pro-6000", TensorRtLlm, attention(Prefill, Bf16, Fp8E4m3), [11.1961, 0.321418, 0.418093, 0.0, 1.0, f64::INFINITY], 0.151, 0.475),
    p("rtx-pro-6000", Vllm, attention(Prefill, Bf16, Fp8E4m3), [10.8549, 0.524771, 0.504471, 0.0, 1.0, f64::INFINITY], 0.194, 0.656),
    p("rtx-pro-6000", TensorRtLlm, attention(Decode, Bf16, Bf16), [4.25391, 1.0, 1.0, 2.75085, 1.0, f64::INFINITY], 0.173, 0.733),
    p("rtx-pro-6000", Sglang, attention(Decode, Bf16, Bf16), [4.62795, 1.0, 0.57419, 1.6991, 0.725976, f64::INFINITY], 0.220, 0.926),
    p("rtx-pro-6000", TensorRtLlm, per_query_head(Bf16, Bf16), [5.58062, 1.0, 1.0, 1.21918, 0.0246781, 5.04688], 0.099, 0.312),
    p("rtx-pro-6000", TensorRtLlm, attention(Decode, Bf16, Fp8E4m3), [5.72465, 1.0, 1.0, 2.8495, 0.0153645, f64::INFINITY], 0.095, 0.683),
    p("rtx-pro-6000", Sglang, attention(Decode, Bf16, Fp8E4m3), [5.7766, 1.0, 0.320583, 2.63151, 0.381913, f64::INFINITY], 0.187, 0.493),
    p("rtx-pro-6000", Vllm, attention(Decode, Bf16, Fp8E4m3), [8.52736, 1.0, 0.201977, 2.32387, 1.0, f64::INFINITY], 0.135, 0.449),
    p("rtx-pro-6000", TensorRtLlm, per_query_head(Bf16, Fp8E4m3), [7.73266, 1.0, 1.0, 0.979009, 0.0178167, 3.34474], 0.102, 0.259),
    p("rtx-pro-6000", TensorRtLlm, mla(Prefill, Bf16, Bf16), [9.76131, 0.936596, 0.490536, 4.82877, 1.0, f64::INFINITY], 0.131, 0.508),
    p("rtx-pro-6000", Sglang, mla(Prefill, Bf16, Bf16), [6.14144, 0.281508, 0.0660066, 4.43821, 1.0, f64::INFINITY], 0.103, 2.285),
    p("rtx-pro-6000", TensorRtLlm, mla(Decode, Bf16, Bf16), [1.65447, 0.770334, 0.291349, 8.01188, 0.00763834, f64::INFINITY], 0.130, 0.589),
    p("rtx-pro-6000", Sglang, mla(Decode, Bf16, Bf16), [16.5749, 0.630437, 0.114536, 0.0, 0.222345, f64::INFINITY], 0.217, 0.682),
    p("rtx-pro-6000", TensorRtLlm, mla(Decode, Bf16, Fp8E4m3), [0.0, 0.435658, 1.0, 8.54341, 0.0060356, f64::INFINITY], 0.217, 0.932),
];
