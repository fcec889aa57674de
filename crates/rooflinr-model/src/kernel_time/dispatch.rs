//! Which kernel a framework runs a GEMM or an attention with, and that kernel's datasheet
//! times: one function ([`kernel_times`]) for every caller. `rooflinr validate` fits and
//! scores NVIDIA's measured rows with it, then adds only what the tables' collectors did
//! to time them (a benchmark loop's warm L2, an eager quantisation of their own); the
//! product's calibrated figures ([`super::calibrated_with`]) predict with it as a model's
//! forward pass runs, cold.

use super::{DecodeLayout, Framework, GemmTile, KernelTimes, Profiled};
use crate::analysis::Phase;
use crate::format::Format;
use crate::hardware::Hardware;
use crate::ops::{AttentionShape, Op, Precision};
use crate::roofline::{Efficiency, Prediction};

/// The prefill attention kernel a framework's backend runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PrefillKernel {
    /// The kernel the framework picks on its own. SGLang's default backends are FA3 on
    /// Hopper and FlashInfer elsewhere (SGLang `docs/backend/attention_backend.md`); they
    /// and TensorRT-LLM's and vLLM's kernels start a query tile's loop past the keys its
    /// sliding window hides.
    #[default]
    Default,
    /// SGLang's Triton backend (`--attention-backend triton`; `extend_attention.py`'s
    /// `_fwd_kernel`): it walks a query tile's key tiles from the first key whatever the
    /// window, masks each, and skips a tile's loads and products only when its mask hides
    /// all of it. The tiles it walks hidden are counted apart
    /// ([`KernelTimes::hidden_tiles_s`]), their cost fitted
    /// ([`super::KernelTerms::hidden_tile_share`]).
    SglangTriton,
}

/// How a GEMM's operands are scaled, which picks the kernel family that runs it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GemmScales {
    /// A scale per tensor (or per channel), as the catalogue's formats are.
    #[default]
    PerTensor,
    /// FP8 with a scale per 128 x 128 block of the weights and per 1 x 128 of the
    /// activations (DeepSeek-V3's recipe), read as the catalogue's FP8 for its bytes: its
    /// scales are 1/16384 of the weights. The catalogue has no format for it, so only
    /// `rooflinr validate` asks for it.
    Block128 {
        /// Whether vLLM runs it through DeepGEMM (NVIDIA's tables name the kernel
        /// `DeepGemmFp8BlockScaledMMKernel`), which copies misaligned activation scales
        /// ([`DEEPGEMM_SCALE_ALIGNMENT`]).
        deep_gemm: bool,
    },
}

/// The kernels an operator runs with: the framework and, where it has several, its
/// choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dispatch {
    /// The serving framework.
    pub framework: Framework,
    /// Its prefill attention kernel.
    pub prefill: PrefillKernel,
    /// How its GEMMs' operands are scaled.
    pub gemm_scales: GemmScales,
}

impl Dispatch {
    /// `framework` with the kernels it picks on its own.
    pub fn of(framework: Framework) -> Dispatch {
        Dispatch {
            framework,
            ..Dispatch::default()
        }
    }
}

/// The least M TensorRT-LLM's block-scaled FP8 GEMM on Hopper computes as it is; below it
/// the kernel swaps the operands, the weights' rows filling its tiles' M
/// (`fp8_blockscale_gemm_kernel.cuh`, `gemm_dispatch`: `m_threshold`).
pub const TRTLLM_DEEPGEMM_SWAP_BELOW: u64 = 32;

/// The tile TensorRT-LLM's block-scaled FP8 GEMM on Hopper runs an `m x n` output in from
/// M = 32 ([`TRTLLM_DEEPGEMM_SWAP_BELOW`]), as its DeepGEMM launcher picks it (`deep_gemm::
/// jit::get_best_gemm_config`): 64 rows up to M = 64, else 128; of the widths 16 to 128 in
/// steps of 8, the one with the fewest waves of tiles on the SMs, then the fullest last
/// wave, then the narrowest; no clusters. The kernel computes whole tiles in whole waves
/// and its last row block reads the rows past M ([`KernelTimes::in_whole_tiles`]). Read off
/// NVIDIA's H100 and H200 tables, not the kernel's source: at M = 129 against 256 (two row
/// blocks either way, the same tiles) the time grows by 10 us at K = 4,096 and 20 us at
/// K = 8,192 whatever the tile's width, in proportion to the tiles of the last row block
/// (8.7 us for 32 of them, 20 us for 64, 50 us for 128 at K = 8,192) and to its missing
/// rows (7, 12, 17 and 20 us for 32, 64, 96 and 127 missing at N = K = 8,192): 2.5-3.9
/// TB/s, the DRAM's rate. The same GEMMs in BF16 show no such step.
pub fn trtllm_deep_gemm_tile(m: u64, n: u64, sms: u32) -> GemmTile {
    let sms = u64::from(sms.max(1));
    let rows = if m <= 64 { 64 } else { 128 };
    let columns = (16..=128)
        .step_by(8)
        .min_by_key(|&width: &u64| {
            let tiles = m.div_ceil(rows) * n.div_ceil(width);
            let last_wave = match tiles % sms {
                0 => sms,
                partial => partial,
            };
            (tiles.div_ceil(sms), std::cmp::Reverse(last_wave), width)
        })
        .unwrap_or(128);
    GemmTile {
        rows,
        columns,
        cluster: (1, 1),
        swapped: false,
    }
}

/// Rows of M that TensorRT-LLM's block-scaled FP8 GEMM on SM120 (RTX PRO 6000) takes a
/// step at ([`sm120_fp8_block_m_steps`]).
const SM120_FP8_BLOCK_M_STEP: u64 = 64;

/// The steps TensorRT-LLM's block-scaled FP8 GEMM on SM120 runs one after another, each
/// exposing a latency of its own (the fitted latency per wave): every 64 rows of M, for
/// each wave of 128-wide N tiles. Read off NVIDIA's RTX PRO 6000 tables, not the kernel's
/// source: at N = 128 and 256 and K = 128 the time is 5.5 us up to M = 64 and grows by
/// about 1 us every 64 rows (69 us at M = 4,096, 264 us at 16,384) whatever N, while the
/// bytes take under 6 us; the M tiles of an N tile run in series. Counted so (latency fitted
/// at 1.4 us a step), the held-out median went from 15 to 8 %, the p90 from 54 to 28 %.
pub fn sm120_fp8_block_m_steps(m: u64, n: u64, sms: u32) -> f64 {
    (m.div_ceil(SM120_FP8_BLOCK_M_STEP) * n.div_ceil(128).div_ceil(u64::from(sms.max(1)))) as f64
}

/// The multiple of M that DeepGEMM reads the activations' scales at without a copy: it
/// loads them column-major through TMA, whose rows must be 16 bytes apart (4 FP32 scales;
/// DeepGEMM `get_mn_major_tma_aligned_tensor`).
pub const DEEPGEMM_SCALE_ALIGNMENT: u64 = 4;

/// Whether `framework`'s attention layer writes a prefill's new keys and values into the
/// cache in a kernel of its own before the attention: vLLM's attention layer calls
/// `reshape_and_cache_flash`, SGLang's backends `set_kv_buffer`, each reading the keys and
/// values in the model's format and writing them in the cache's. NVIDIA's tables time
/// them with the op: counted, vLLM's prefill own fits improved in 35 of 39 groups (B200's
/// FlashInfer TRT-LLM prefill kernel over an FP8 cache 17 -> 13 %, whose errors had grown
/// with the share of key and value bytes: -27 % at one query head per KV head, +20-35 % at
/// 16-64), SGLang's in 35 of 43. TensorRT-LLM's are not counted: its context path writes
/// the cache in the pass that applies the rotary embedding, and counted, its held-out
/// prefill p90 rose 1-9 points on Blackwell, A100, L40S and RTX PRO 6000.
pub fn writes_cache_apart(framework: Framework) -> bool {
    matches!(framework, Framework::Vllm | Framework::Sglang)
}

/// Bytes of the new keys and values a prefill writes into the cache
/// ([`writes_cache_apart`]): read in BF16, written in the cache's format `kv`.
pub fn new_cache_bytes(shape: &AttentionShape, kv: Format) -> f64 {
    let elements = shape.batch * shape.q_len * shape.kv_heads * (shape.qk_dim + shape.v_dim);
    Format::Bf16.tensor_bytes(elements).get() + kv.tensor_bytes(elements).get()
}

/// The phase an attention of `shape` runs in as the product's analysis builds it: more
/// than one query per sequence is a prefill (a prompt, or a chunk of one), one a decode
/// step. NVIDIA's tables say the phase of their rows themselves: their prefill tables
/// have prompts of one token too.
pub fn phase_of(shape: &AttentionShape) -> Phase {
    if shape.q_len > 1.0 {
        Phase::Prefill
    } else {
        Phase::Decode
    }
}

/// How `framework`'s decode attention kernel on an `sm` device lays out its blocks over
/// `op`, with its cache in `kv` ([`DecodeLayout::of`]); a prefill, and every operator but
/// an attention, holds a KV head's group in a block. The shape's window is the one the
/// layer is configured with, binding or not, as the kernels dispatch on it.
pub fn decode_layout(
    op: &Op,
    phase: Phase,
    kv: Format,
    sm: Option<u32>,
    framework: Framework,
) -> DecodeLayout {
    match (op, phase) {
        (Op::FusedAttention(shape), Phase::Decode) => DecodeLayout::of(framework, shape, sm, kv),
        _ => DecodeLayout::PerKvHead,
    }
}

/// The profiled kernel `op` runs as in `phase` with `framework`'s kernels on an `sm`
/// device (its kind, laid out as its decode kernel lays out its blocks:
/// [`decode_layout`]); `None` where no profile kind covers it.
pub fn profiled_kind(
    op: &Op,
    phase: Phase,
    precision: &Precision,
    sm: Option<u32>,
    framework: Framework,
) -> Option<Profiled> {
    let layout = decode_layout(op, phase, precision.kv, sm, framework);
    Some(Profiled::of(op, precision)?.laid_out(layout))
}

/// The datasheet times of `op` in `precision` on `hw` as `dispatch`'s kernels run it once
/// in `phase` (an attention's; a GEMM's is either), from its datasheet roofline
/// `prediction`; `None` for operators that are not a GEMM or
/// a fused attention. A GEMM's activations are quantised first by a pass of their own
/// unless `in_format` ([`super::Activations::InFormat`]).
///
/// GEMM: [`KernelTimes::gemm`] for per-tensor scales. Block-scaled FP8 keeps each tile on
/// one SM with no split-K reduction, like every block-scaled GEMM
/// (`kernel_time::reduces_partial_sums`); TensorRT-LLM's on SM120 steps through M
/// ([`sm120_fp8_block_m_steps`]) and on Hopper computes whole DeepGEMM tiles from
/// [`TRTLLM_DEEPGEMM_SWAP_BELOW`] rows ([`trtllm_deep_gemm_tile`]); vLLM's DeepGEMM copies
/// its activation scales where M is not a multiple of [`DEEPGEMM_SCALE_ALIGNMENT`].
///
/// Attention: [`KernelTimes::attention_of`] in the decode kernel's layout
/// ([`decode_layout`]); for ordinary (not latent) attention, a prefill kernel that walks every causal key tile
/// ([`PrefillKernel::SglangTriton`]) under a sliding window counts the tiles it finds
/// hidden, and vLLM's and SGLang's prefill writes the new keys and values into the cache
/// first ([`writes_cache_apart`]).
pub fn kernel_times(
    op: &Op,
    precision: &Precision,
    hw: &Hardware,
    (dispatch, phase): (Dispatch, Phase),
    prediction: &Prediction,
    in_format: bool,
) -> Option<KernelTimes> {
    let framework = dispatch.framework;
    match *op {
        Op::Gemm { m, n, k, .. } => {
            let shape = (m as u64, n as u64, k as u64);
            let mut times = match dispatch.gemm_scales {
                GemmScales::PerTensor => {
                    KernelTimes::gemm(prediction, shape, precision, hw, framework)
                }
                GemmScales::Block128 { deep_gemm } => {
                    block_fp8_times(prediction, shape, precision, hw, framework, deep_gemm)
                }
            };
            if in_format {
                times.quantise_s = 0.0;
                times.quantise_steps = 0.0;
            }
            Some(times)
        }
        Op::FusedAttention(shape) => {
            let layout = decode_layout(op, phase, precision.kv, hw.sm_version(), framework);
            let times_of = |shape: &AttentionShape| {
                let p = Op::FusedAttention(*shape).predict(precision, hw, &Efficiency::IDEAL);
                KernelTimes::attention_of(shape, &p.prediction, precision, hw, (framework, layout))
            };
            let mut times =
                KernelTimes::attention_of(&shape, prediction, precision, hw, (framework, layout));
            // Latent attention's prefill attends over keys and values rebuilt from the
            // latent cache, which it writes in its own layout: neither rule is its.
            let prefill = phase == Phase::Prefill && !shape.is_latent();
            if prefill && shape.window.is_some() && dispatch.prefill == PrefillKernel::SglangTriton
            {
                let every_tile = times_of(&AttentionShape {
                    window: None,
                    ..shape
                });
                times.hidden_tiles_s = (every_tile.compute_s - times.compute_s).max(0.0);
            }
            if prefill && writes_cache_apart(framework) {
                times.memory_s +=
                    new_cache_bytes(&shape, precision.kv) / hw.memory_bandwidth.value.get();
            }
            Some(times)
        }
        _ => None,
    }
}

/// [`kernel_times`] of a GEMM with 128 x 128 block scales ([`GemmScales::Block128`]).
fn block_fp8_times(
    prediction: &Prediction,
    (m, n, k): (u64, u64, u64),
    precision: &Precision,
    hw: &Hardware,
    framework: Framework,
    deep_gemm: bool,
) -> KernelTimes {
    let sms = hw.sms();
    let mut times = KernelTimes::of(prediction, (m, n, k), precision, hw);
    times.waves = 0.0;
    let sm = hw.sm_version();
    if sm == Some(120) && framework == Framework::TensorRtLlm {
        times.waves = sm120_fp8_block_m_steps(m, n, sms);
    }
    if framework == Framework::Vllm && deep_gemm && !m.is_multiple_of(DEEPGEMM_SCALE_ALIGNMENT) {
        times.scale_copies = 1.0;
    }
    if sm == Some(90) && framework == Framework::TensorRtLlm && m >= TRTLLM_DEEPGEMM_SWAP_BELOW {
        times = times.in_whole_tiles(
            prediction.compute_time.get(),
            (m, n, k),
            trtllm_deep_gemm_tile(m, n, sms),
            precision,
            hw,
        );
    }
    times
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel_time::{Activations, calibrated_with, profiles};
    use proptest::prelude::*;

    /// Every shipped profile's device, framework and kernel with one of its operators.
    fn profiled_ops() -> Vec<(Hardware, Framework, Precision, bool)> {
        profiles()
            .filter_map(|p| {
                let hw = crate::hardware::registry::get(p.hardware).ok()?;
                let (precision, attention) = match p.kernel {
                    Profiled::Gemm { format } => (Precision::uniform(format), false),
                    Profiled::Attention { queries, kv, .. } => (
                        Precision {
                            kv,
                            ..Precision::uniform(queries)
                        },
                        true,
                    ),
                    _ => return None,
                };
                Some((hw, p.framework, precision, attention))
            })
            .collect()
    }

    fn operator(attention: bool, (a, b, c): (f64, f64, f64), window: bool) -> Op {
        if attention {
            Op::FusedAttention(AttentionShape {
                batch: a.min(256.0),
                q_len: if b < 64.0 { 1.0 } else { b },
                kv_len: b + c,
                heads: 32.0,
                kv_heads: 8.0,
                qk_dim: 128.0,
                v_dim: 128.0,
                causal: true,
                shared_kv: false,
                window: window.then_some(1024.0),
            })
        } else {
            Op::Gemm {
                m: a,
                n: b,
                k: c,
                bias: false,
            }
        }
    }

    /// How much less time a GEMM twice as wide or deep may take under one profile: the
    /// tensor-core fragments can pad a wider GEMM proportionally less (129 x 128 pads to
    /// 144 x 128, 90 % useful; 129 x 256 to 136 x 256, 95 %), and a K of 1,000 shares out
    /// 7 whole chunks where 2,000 shares out 15. Both come to under 3 % on the shipped
    /// profiles (L40S's BF16 at 129 x 128 x 300: 4.18 -> 4.06 us); a rule that adds or
    /// drops a kernel at some width would show as more.
    const GROWTH_TOLERANCE: f64 = 0.04;

    /// Every shipped GEMM profile's time grows with N and K over shapes that cross the
    /// split-K rule's edges ([`crate::kernel_time::reduces_partial_sums`]: K from 512 or
    /// 2,048, tiles from one per SM): N = 1,025 to 2,050 at K = 2,048 on H200 is 9 tiles to
    /// 17 of 132 SMs.
    #[test]
    fn a_calibrated_gemm_grows_across_the_split_rules_edges() {
        let ops: Vec<_> = profiled_ops().into_iter().filter(|o| !o.3).collect();
        for (hw, framework, precision, _) in &ops {
            let time = |m: u64, n: u64, k: u64| {
                let op = operator(false, (m as f64, n as f64, k as f64), false);
                let bound = op.predict(precision, hw, &Efficiency::IDEAL).prediction;
                calibrated_with(
                    &op,
                    precision,
                    hw,
                    *framework,
                    &bound,
                    Activations::QuantisedFirst,
                )
                .map(|(t, _)| t)
            };
            for m in [1u64, 8, 129, 1024] {
                for n in [128u64, 225, 1025, 2048, 4096, 8448] {
                    for k in [256u64, 512, 1024, 2048, 4096] {
                        let (Some(t), Some(wider), Some(deeper)) =
                            (time(m, n, k), time(m, 2 * n, k), time(m, n, 2 * k))
                        else {
                            continue;
                        };
                        for (what, v) in [("N", wider), ("K", deeper)] {
                            assert!(
                                v >= t * (1.0 - GROWTH_TOLERANCE),
                                "{} {framework:?} {:?}: {what} x 2 at {m} x {n} x {k}: {t} -> {v} s",
                                hw.key,
                                precision.activations
                            );
                        }
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A shipped profile's expected time, as the product computes it, is never faster
        /// than the datasheet roofline bound: its fractions are at most 1, its tiles at
        /// most full, its fixed time positive, and a forward pass finds nothing in the L2.
        #[test]
        fn a_calibrated_time_is_at_least_the_bound(
            which in any::<prop::sample::Index>(),
            a in 1u32..16_384,
            b in 1u32..32_768,
            c in 64u32..16_384,
            window in any::<bool>(),
        ) {
            let ops = profiled_ops();
            let (hw, framework, precision, attention) = &ops[which.index(ops.len())];
            let op = operator(*attention, (f64::from(a), f64::from(b), f64::from(c)), window);
            let bound = op.predict(precision, hw, &Efficiency::IDEAL).prediction;
            if let Some((t, _)) =
                calibrated_with(&op, precision, hw, *framework, &bound, Activations::QuantisedFirst)
            {
                prop_assert!(t >= bound.time.get() * (1.0 - 1e-9), "{t} < {:?} for {op:?}", bound.time);
            }
        }

        /// More bytes or more FLOPs never take less time: a GEMM grown along N or K, under
        /// the same profile, is at least as slow, to within the padding of its fragments
        /// and chunks ([`GROWTH_TOLERANCE`]).
        #[test]
        fn a_calibrated_gemm_grows_with_its_sides(
            which in any::<prop::sample::Index>(),
            m in 1u32..8_192,
            n in 128u32..16_384,
            k in 128u32..16_384,
        ) {
            let ops: Vec<_> = profiled_ops().into_iter().filter(|o| !o.3).collect();
            let (hw, framework, precision, _) = &ops[which.index(ops.len())];
            let time = |m: u32, n: u32, k: u32| {
                let op = operator(false, (f64::from(m), f64::from(n), f64::from(k)), false);
                let bound = op.predict(precision, hw, &Efficiency::IDEAL).prediction;
                calibrated_with(&op, precision, hw, *framework, &bound, Activations::QuantisedFirst)
                    .map(|(t, _)| t)
            };
            let (Some(t), Some(wider)) = (time(m, n, k), time(m, 2 * n, k)) else {
                return Ok(());
            };
            prop_assert!(wider >= t * (1.0 - GROWTH_TOLERANCE), "N x 2: {wider} < {t}");
            let deeper = time(m, n, 2 * k).unwrap();
            prop_assert!(deeper >= t * (1.0 - GROWTH_TOLERANCE), "K x 2: {deeper} < {t}");
        }
    }

    /// vLLM's and SGLang's prefill writes its new keys and values into the cache as the
    /// product predicts it too, not only where `rooflinr validate` scores a table's row:
    /// read in BF16 and written in the cache's format, on top of TensorRT-LLM's bytes.
    #[test]
    fn the_products_prefill_writes_the_new_keys_and_values_apart() {
        let hw = crate::hardware::registry::get("h100-sxm").unwrap();
        let precision = Precision {
            kv: Format::Fp8E4m3,
            ..Precision::uniform(Format::Bf16)
        };
        let op = operator(true, (2.0, 1024.0, 0.0), false);
        let bound = op.predict(&precision, &hw, &Efficiency::IDEAL).prediction;
        let memory = |framework| {
            kernel_times(
                &op,
                &precision,
                &hw,
                (Dispatch::of(framework), Phase::Prefill),
                &bound,
                false,
            )
            .unwrap()
            .memory_s
        };
        // 2 x 1,024 tokens x 8 KV heads x 256 elements, 2 bytes read and 1 written.
        let written = 2.0 * 1024.0 * 8.0 * 256.0 * 3.0 / hw.memory_bandwidth.value.get();
        for framework in [Framework::Vllm, Framework::Sglang] {
            let extra = memory(framework) - memory(Framework::TensorRtLlm);
            assert!(
                (extra / written - 1.0).abs() < 1e-4,
                "{framework:?}: {extra}"
            );
        }
        // Decode writes one token a step inside its kernel: not counted apart.
        let decode = operator(true, (2.0, 1.0, 1024.0), false);
        let p = decode
            .predict(&precision, &hw, &Efficiency::IDEAL)
            .prediction;
        let decode_memory = |framework| {
            kernel_times(
                &decode,
                &precision,
                &hw,
                (Dispatch::of(framework), Phase::Decode),
                &p,
                false,
            )
            .unwrap()
            .memory_s
        };
        assert_eq!(
            decode_memory(Framework::Vllm),
            decode_memory(Framework::TensorRtLlm)
        );
    }
}
