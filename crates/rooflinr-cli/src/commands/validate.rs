//! `rooflinr validate --tables DIR`: predictions held against NVIDIA's measured kernel
//! tables (the `aiconfigurator-core` wheel's `systems/data`, Apache-2.0: parquet files
//! `<system>/<op>/<framework>/<version>/<table>.parquet` with `latency` in milliseconds,
//! measured with TensorRT-LLM, vLLM and SGLang kernels on real H100, H200, B200, GB200,
//! B300, GB300, A100, L40S and RTX PRO 6000 machines): GEMMs (`m, n, k`, `gemm_dtype`),
//! context and generation attention (batch, tokens, heads, KV heads, head size, the
//! attention and KV-cache dtypes) and fused MoE layers (tokens, widths, top-k, experts,
//! tensor and expert parallelism, the router's token distribution).
//!
//! Every row is predicted twice: by the datasheet roofline (the bound) and by the roofline
//! with fitted kernel terms ([`rooflinr_model::kernel_time`]: a fixed time per kernel, the
//! achievable fractions of bandwidth and peak, a latency per wave of attention blocks;
//! tile efficiency and the activation quantisation computed). The terms are fitted per
//! device, kernel and dtype and always judged on rows they were not fitted on: half of
//! the shapes held out (by a hash of their dimensions), and the other frameworks' tables
//! when fitted on TensorRT-LLM's.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use rayon::prelude::*;
use rooflinr_model::analysis::{Phase, mla_attention_shape};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::{Hardware, registry};
use rooflinr_model::kernel_time::{
    self, DecodeLayout, Dispatch, Framework, GemmLoop, GemmScales, KernelTerms, KernelTimes,
    MoeLoad, MoeShape, MoeTiling, PrefillKernel, Profiled, Regime,
};
use rooflinr_model::ops::{AttentionShape, Op, Precision};
use rooflinr_model::roofline::Efficiency;
use rooflinr_model::stats::nearest_rank;
use serde::Serialize;

/// Arguments of `rooflinr validate`.
#[derive(clap::Args)]
pub struct Args {
    /// The tables: the wheel's `systems/data` folder (`cargo xtask setup` puts it in
    /// `~/.cache/rooflinr/aiconfigurator-core-0.12.0/systems/data`).
    #[arg(long, value_name = "DIR", required_unless_present = "serving")]
    tables: Option<PathBuf>,
    /// Instead of the kernel tables: NVIDIA's measured serving sample, the wheel's
    /// `systems/silicon_sample.csv`, every usable row predicted as its benchmark ran.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["tables", "profiles", "residuals"])]
    serving: Option<PathBuf>,
    /// With `--serving`: fit each engine's host overhead on the development rows and print
    /// the lines of `deploy::serving::HOST_OVERHEADS` instead.
    #[arg(long, requires = "serving")]
    fit: bool,
    /// With `--serving`: fail where the shipped `SERVING_ERRORS` (or with `--fit`, the
    /// shipped `HOST_OVERHEADS`) differ from what the sample gives.
    #[arg(long, requires = "serving")]
    check: bool,
    /// With `--serving`: print the lines of `deploy::serving::SERVING_ERRORS` instead.
    #[arg(long, requires = "serving", conflicts_with_all = ["fit", "check"])]
    errors: bool,
    /// With `--serving`: print the sample's usable aggregated rows as the calculator's
    /// serving chart reads them (`web/assets/measured-serving-runs.csv`) instead.
    #[arg(long, requires = "serving", conflicts_with_all = ["fit", "check", "errors"])]
    runs: bool,
    /// Stable JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// Print the lines of `kernel_time::PROFILES` and `deploy::COLLECTIVE_PROFILES` the fits
    /// make (every device, framework and kernel, and every device, collective and group
    /// size, whose held-out median is at most 25 %) instead of tables.
    #[arg(long, conflicts_with = "json")]
    profiles: bool,
    /// Also write every held-out row to FILE as CSV (device, framework, kernel, dtype,
    /// shape, measured, datasheet and calibrated seconds, regime): where the terms miss, row
    /// by row. The fitting framework's rows are predicted with its terms; every other
    /// framework's (and each kernel's where its table dispatched to several, labelled
    /// `SGLang (triton)`) with its own fit, on the half it was not fitted on.
    #[arg(long, value_name = "FILE")]
    residuals: Option<PathBuf>,
}

/// The framework the terms are fitted on when a table has it.
const FIT_FRAMEWORK: &str = "TRTLLM";

/// What a table measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
enum Kernel {
    /// `gemm_perf.parquet`.
    Gemm,
    /// `context_attention_perf.parquet`: prefill, causal, `isl` queries and keys.
    ContextAttention,
    /// `generation_attention_perf.parquet`: decode, one query over `isl + step` keys.
    GenerationAttention,
    /// `moe_perf.parquet`: a fused MoE layer on one GPU of an expert-parallel group.
    Moe,
    /// `context_mla_perf.parquet`: DeepSeek's multi-head latent attention in prefill (keys
    /// and values rebuilt from the latent, `isl` queries and keys).
    ContextMla,
    /// `generation_mla_perf.parquet`: MLA in decode (absorbed: one query per sequence over
    /// `isl + step` tokens of the latent cache).
    GenerationMla,
}

impl Kernel {
    const ALL: [Kernel; 6] = [
        Kernel::Gemm,
        Kernel::ContextAttention,
        Kernel::GenerationAttention,
        Kernel::Moe,
        Kernel::ContextMla,
        Kernel::GenerationMla,
    ];

    /// The columns every table of this kernel must have, whose names [`read_tables`]
    /// reads; a table without one is refused, naming it (a column renamed by a new release
    /// of the tables would otherwise leave every row incomplete, and the table silently
    /// empty). `kernel_source`, `kv_cache_dtype`, `window_size` and `distribution` are
    /// optional: older tables lack them and their absence has a meaning.
    fn columns(self) -> Vec<&'static str> {
        const COMMON: [&str; 4] = ["framework", "version", "device", "latency"];
        let (dtype, shape): (&str, &[&str]) = match self {
            Kernel::Gemm => ("gemm_dtype", &["m", "n", "k"]),
            Kernel::ContextAttention | Kernel::GenerationAttention => (
                "attn_dtype",
                &[
                    "batch_size",
                    "isl",
                    "step",
                    "num_heads",
                    "num_key_value_heads",
                    "head_dim",
                ],
            ),
            Kernel::Moe => (
                "moe_dtype",
                &[
                    "num_tokens",
                    "hidden_size",
                    "inter_size",
                    "topk",
                    "num_experts",
                    "moe_tp_size",
                    "moe_ep_size",
                ],
            ),
            Kernel::ContextMla | Kernel::GenerationMla => (
                "mla_dtype",
                &["batch_size", "isl", "step", "num_heads", "tp_size"],
            ),
        };
        COMMON
            .into_iter()
            .chain([dtype])
            .chain(shape.iter().copied())
            .collect()
    }

    fn file(self) -> &'static str {
        match self {
            Kernel::Gemm => "gemm_perf.parquet",
            Kernel::ContextAttention => "context_attention_perf.parquet",
            Kernel::GenerationAttention => "generation_attention_perf.parquet",
            Kernel::Moe => "moe_perf.parquet",
            Kernel::ContextMla => "context_mla_perf.parquet",
            Kernel::GenerationMla => "generation_mla_perf.parquet",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kernel::Gemm => "GEMM",
            Kernel::ContextAttention => "prefill attention",
            Kernel::GenerationAttention => "decode attention",
            Kernel::Moe => "MoE",
            Kernel::ContextMla => "prefill MLA",
            Kernel::GenerationMla => "decode MLA",
        }
    }
}

/// A measured kernel's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shape {
    Gemm {
        m: u64,
        n: u64,
        k: u64,
    },
    /// The tables' attention columns: `batch_size`, `isl`, `step`, `num_heads`,
    /// `num_key_value_heads`, `head_dim`, `window_size` (0: none).
    Attention {
        batch: u64,
        isl: u64,
        step: u64,
        heads: u64,
        kv_heads: u64,
        head_dim: u64,
        window: u64,
    },
    /// The MoE tables' columns: `num_tokens`, `hidden_size`, `inter_size`, `topk`,
    /// `num_experts`, `moe_tp_size`, `moe_ep_size`; gated unless the kernel is
    /// `*_nongated`; `distribution` balanced or a power law; `min_latency` for
    /// TensorRT-LLM's `moe_torch_flow_min_latency` kernel (Blackwell NVFP4: another kernel,
    /// with DeepSeek-V3's grouped router, so judged as a group of its own).
    Moe {
        tokens: u64,
        hidden: u64,
        inter: u64,
        top_k: u64,
        experts: u64,
        tp: u64,
        ep: u64,
        gated: bool,
        balanced: bool,
        min_latency: bool,
    },
    /// The MLA tables' columns: `batch_size`, `isl`, `step`, `num_heads` (query heads on
    /// the GPU: the tables hold 8 heads at TP 8, 16 at TP 4, 32 at TP 2, 64 and 128 at TP
    /// 1, so 64- and 128-head models split over `tp_size` GPUs), `tp_size`; the latent and
    /// head dimensions are DeepSeek-V3's (Kimi K2's are the same).
    Mla {
        batch: u64,
        isl: u64,
        step: u64,
        heads: u64,
        tp: u64,
    },
}

impl Shape {
    fn values(&self) -> [u64; 6] {
        match *self {
            Shape::Gemm { m, n, k } => [m, n, k, 0, 0, 0],
            Shape::Attention {
                batch,
                isl,
                step,
                heads,
                kv_heads,
                head_dim,
                ..
            } => [batch, isl, step, heads, kv_heads, head_dim],
            Shape::Moe {
                tokens,
                hidden,
                inter,
                top_k,
                experts,
                tp,
                ep,
                gated,
                ..
            } => [
                tokens,
                hidden,
                inter,
                top_k * 1_000 + experts,
                tp * 1_000 + ep,
                u64::from(gated),
            ],
            Shape::Mla {
                batch,
                isl,
                step,
                heads,
                tp,
            } => [batch, isl, step, heads, tp, 1],
        }
    }

    fn is_complete(&self) -> bool {
        match *self {
            Shape::Gemm { m, n, k } => m > 0 && n > 0 && k > 0,
            Shape::Attention {
                batch,
                isl,
                heads,
                kv_heads,
                head_dim,
                ..
            } => batch > 0 && isl > 0 && heads > 0 && kv_heads > 0 && head_dim > 0,
            Shape::Moe {
                tokens,
                hidden,
                inter,
                top_k,
                experts,
                tp,
                ep,
                ..
            } => {
                tokens > 0
                    && hidden > 0
                    && inter > 0
                    && top_k > 0
                    && experts >= top_k
                    && tp > 0
                    && ep > 0
                    && ep <= experts
            }
            Shape::Mla {
                batch,
                isl,
                heads,
                tp,
                ..
            } => batch > 0 && isl > 0 && heads > 0 && tp > 0,
        }
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Shape::Gemm { m, n, k } => write!(f, "{m}x{n}x{k}"),
            Shape::Attention {
                batch,
                isl,
                step,
                heads,
                kv_heads,
                head_dim,
                window,
            } => {
                write!(
                    f,
                    "batch {batch}, {} tokens, heads {heads}/{kv_heads}, dim {head_dim}",
                    isl + step
                )?;
                if window > 0 {
                    write!(f, ", window {window}")?;
                }
                Ok(())
            }
            Shape::Moe {
                tokens,
                hidden,
                inter,
                top_k,
                experts,
                tp,
                ep,
                ..
            } => write!(
                f,
                "{tokens} tokens, {hidden} -> {inter}/{tp}, top {top_k} of {experts}, EP {ep}"
            ),
            Shape::Mla {
                batch,
                isl,
                step,
                heads,
                tp,
            } => write!(
                f,
                "batch {batch}, {} tokens, {heads} heads per GPU at TP {tp}",
                isl + step
            ),
        }
    }
}

/// One measured kernel.
#[derive(Clone, Debug)]
struct Row {
    system: String,
    /// The GPU as the table names it (`NVIDIA H100 80GB HBM3`).
    device: String,
    framework: String,
    kernel: Kernel,
    /// `gemm_dtype`, or attention's `attn_dtype`.
    dtype: String,
    /// Attention's `kv_cache_dtype`.
    kv_dtype: Option<String>,
    /// The framework's version the table was measured with.
    version: String,
    /// The table's `kernel_source`: the kernel the framework dispatched the shape to
    /// (vLLM's block-scaled FP8 GEMMs run FlashInfer's, DeepGEMM's or CUTLASS's by shape).
    kernel_source: Option<String>,
    shape: Shape,
    measured_s: f64,
    /// The device's compute capability (`sm_90` -> 90), which its decode kernels'
    /// dispatch reads ([`DecodeLayout::of`]); none for a device the registry does not list.
    sm: Option<u32>,
}

/// The compute capability of the device the tables name (`NVIDIA H100 80GB HBM3`), by the
/// registry's own matching.
fn compute_capability(device: &str) -> Option<u32> {
    registry::key_for_device(device, None)
        .and_then(|key| registry::get(key).ok())
        .and_then(|hw| hw.sm_version())
}

impl Row {
    /// Whether the row's decode attention ran a block per query head (TensorRT-LLM's
    /// masked multi-head attention, a kernel of its own; [`DecodeLayout::PerQueryHead`]).
    fn per_query_head(&self) -> bool {
        attention(self).is_ok_and(|(shape, precision)| {
            decode_layout(self, &shape, precision.kv) == DecodeLayout::PerQueryHead
        })
    }

    /// Whether the row's decode MLA ran TensorRT-LLM's XQA MLA kernel on sm_120, a kernel of
    /// its own ([`DecodeLayout::XqaMla`]).
    fn xqa_mla(&self) -> bool {
        self.kernel == Kernel::GenerationMla
            && mla(self).is_ok_and(|(shape, precision)| {
                decode_layout(self, &shape, precision.kv) == DecodeLayout::XqaMla
            })
    }

    /// The dtype as reported: `fp8`, `bfloat16, KV fp8` for attention (`, a block per
    /// query head` for the masked multi-head attention kernel, `, XQA's MLA kernel` for
    /// TensorRT-LLM's sm_120 MLA kernel); for the MoE kernels judged apart, `nvfp4,
    /// min-latency kernel` and `fp8, non-gated`.
    fn dtype_label(&self) -> String {
        match (&self.kv_dtype, self.shape) {
            (Some(kv), Shape::Attention { .. }) if self.per_query_head() => {
                format!("{}, KV {kv}, a block per query head", self.dtype)
            }
            (Some(kv), Shape::Mla { .. }) if self.xqa_mla() => {
                format!("{}, KV {kv}, XQA's MLA kernel", self.dtype)
            }
            (Some(kv), _) => format!("{}, KV {kv}", self.dtype),
            (
                None,
                Shape::Moe {
                    min_latency: true, ..
                },
            ) => format!("{}, min-latency kernel", self.dtype),
            (None, Shape::Moe { gated: false, .. }) => format!("{}, non-gated", self.dtype),
            (None, _) => self.dtype.clone(),
        }
    }
}

/// Bytes per activation element of the per-token INT8 quantisation SGLang's collector runs
/// in PyTorch before each `int8_scaled_mm` of its `int8_wo` table ([`sglang_eager_int8`]):
/// FP16 to FP32 (2 + 4), abs (4 + 4), the row's max (4), the division by the scale (4 + 4),
/// round (4 + 4), clamp (4 + 4), to INT8 (4 + 1), each a kernel of its own.
const SGLANG_INT8_QUANTISE_BYTES: f64 = 47.0;

/// Whether `row` is from SGLang's `int8_wo` GEMM table, which is not weight-only: the
/// collector that made it (aiconfigurator `collector/sglang/collect_gemm.py` at the commit
/// that added SGLang 0.5.6.post2's tables, 699677931) quantises the activations to INT8 per
/// token in eager PyTorch (`per_token_quant_int8`) and runs sgl-kernel's `int8_scaled_mm`,
/// INT8 by INT8 on the tensor cores. TensorRT-LLM's `int8_wo` (A100) is weight-only.
fn sglang_eager_int8(row: &Row) -> bool {
    row.dtype == "int8_wo" && Framework::parse(&row.framework) == Some(Framework::Sglang)
}

/// The table's `kernel_source` for vLLM's block-scaled FP8 GEMMs through DeepGEMM.
const VLLM_DEEPGEMM: &str = "DeepGemmFp8BlockScaledMMKernel";

/// The table's `kernel_source` for SGLang's Triton attention backend
/// ([`PrefillKernel::SglangTriton`]).
const SGLANG_TRITON_ATTENTION: &str = "triton";

/// The kernels `row` ran, in the model crate's words ([`Dispatch`]): its framework (a
/// table of no framework the model knows is read with TensorRT-LLM's kernels), the
/// prefill kernel its `kernel_source` names, and 128 x 128 block scales for `fp8_block`.
fn dispatch(row: &Row) -> Dispatch {
    let framework = Framework::parse(&row.framework).unwrap_or(Framework::TensorRtLlm);
    let source = row.kernel_source.as_deref();
    Dispatch {
        framework,
        prefill: if framework == Framework::Sglang && source == Some(SGLANG_TRITON_ATTENTION) {
            PrefillKernel::SglangTriton
        } else {
            PrefillKernel::Default
        },
        gemm_scales: if row.dtype == "fp8_block" {
            GemmScales::Block128 {
                deep_gemm: source == Some(VLLM_DEEPGEMM),
            }
        } else {
            GemmScales::PerTensor
        },
    }
}

/// The formats of a GEMM table dtype: (activations, weights). `fp8_block` is FP8 with a
/// scale per 128 x 128 block (DeepSeek-V3's recipe), counted as FP8: its scales are
/// 1/16384 of the weights. `int8_wo` is weight-only INT8 with 16-bit activations (SGLang's
/// table is not: [`sglang_eager_int8`]).
fn formats(dtype: &str) -> Option<(Format, Format)> {
    Some(match dtype {
        "fp8_block" => (Format::Fp8E4m3, Format::Fp8E4m3),
        "int8_wo" => (Format::Bf16, Format::Int8),
        "w4a16_mxfp4" => (Format::Bf16, Format::MxFp4),
        "w4a8_mxfp4_mxfp8" => (Format::MxFp8E4m3, Format::MxFp4),
        _ => {
            let f = format(dtype)?;
            (f, f)
        }
    })
}

/// The catalogue format of a table's dtype name.
fn format(dtype: &str) -> Option<Format> {
    Some(match dtype {
        "bfloat16" => Format::Bf16,
        "float16" => Format::Fp16,
        "fp8" => Format::Fp8E4m3,
        "nvfp4" => Format::NvFp4,
        _ => return None,
    })
}

/// The attention computed by a row, and its formats (queries, outputs and the tensor-core
/// type in the attention dtype; keys and values in the cache's), or why it is not
/// predicted.
fn attention(row: &Row) -> Result<(AttentionShape, Precision), &'static str> {
    let Shape::Attention {
        batch,
        isl,
        step,
        heads,
        kv_heads,
        head_dim,
        window,
    } = row.shape
    else {
        return Err("not attention");
    };
    let (q_len, kv_len) = match row.kernel {
        Kernel::GenerationAttention => (1, isl + step),
        _ => (isl, isl),
    };
    let attn = format(&row.dtype).ok_or("no format for this dtype")?;
    let kv = format(row.kv_dtype.as_deref().unwrap_or(&row.dtype))
        .ok_or("no format for this KV cache dtype")?;
    let shape = AttentionShape {
        batch: batch as f64,
        q_len: q_len as f64,
        kv_len: kv_len as f64,
        heads: heads as f64,
        kv_heads: kv_heads as f64,
        qk_dim: head_dim as f64,
        v_dim: head_dim as f64,
        causal: true,
        shared_kv: false,
        // The window the layer is configured with, binding or not, as the analysis gives
        // it and the kernels dispatch on it: one no shorter than the context changes no
        // count.
        window: (window > 0).then_some(window as f64),
    };
    let precision = Precision {
        activations: attn,
        weights: attn,
        kv,
        output: attn,
    };
    Ok((shape, precision))
}

/// The phase the row's kernel ran in, as its table says: its decode tables are decode
/// steps, every other table's rows (prefill attention of prompts down to one token among
/// them) are not.
fn phase(row: &Row) -> Phase {
    match row.kernel {
        Kernel::GenerationAttention | Kernel::GenerationMla => Phase::Decode,
        _ => Phase::Prefill,
    }
}

/// How the row's decode attention kernel lays out its blocks (the model crate's
/// [`kernel_time::decode_layout`] for the row's kernels, phase and device).
fn decode_layout(row: &Row, shape: &AttentionShape, kv: Format) -> DecodeLayout {
    let op = Op::FusedAttention(*shape);
    kernel_time::decode_layout(&op, phase(row), kv, row.sm, dispatch(row).framework)
}

/// The latent attention a DeepSeek-V3 MLA row computes on one GPU, in the analysis's own
/// form (absorbed over the 576-wide latent cache in decode, expanded in prefill: the model
/// crate's `analysis` module states both), and its formats.
fn mla(row: &Row) -> Result<(AttentionShape, Precision), &'static str> {
    let Shape::Mla {
        batch,
        isl,
        step,
        heads,
        // `num_heads` is already the GPU's share (see `Shape::Mla`).
        tp: _,
    } = row.shape
    else {
        return Err("not MLA");
    };
    let config =
        rooflinr_model::presets::get("deepseek-v3").map_err(|_| "no DeepSeek-V3 preset")?;
    let m = config
        .mla
        .as_ref()
        .ok_or("the DeepSeek-V3 preset has no MLA")?;
    let (batch, heads) = (batch as f64, heads as f64);
    let shape = match row.kernel {
        Kernel::GenerationMla => {
            mla_attention_shape(m, Phase::Decode, batch, 1.0, (isl + step) as f64, heads)
        }
        _ => mla_attention_shape(m, Phase::Prefill, batch, isl as f64, isl as f64, heads),
    };
    let attn = format(&row.dtype).ok_or("no format for this dtype")?;
    let kv = format(row.kv_dtype.as_deref().unwrap_or(&row.dtype))
        .ok_or("no format for this KV cache dtype")?;
    let precision = Precision {
        activations: attn,
        weights: attn,
        // Prefill attends over keys and values rebuilt in the activation format.
        kv: if row.kernel == Kernel::GenerationMla {
            kv
        } else {
            attn
        },
        output: attn,
    };
    Ok((shape, precision))
}

/// [`times_with`] for one row.
#[cfg(test)]
fn times(row: &Row, hw: &Hardware) -> Result<KernelTimes, &'static str> {
    times_with(row, hw, &mut MoeLoads::default())
}

/// How the collector of a GEMM row's framework looped over its operands ([`GemmLoop`]):
/// TensorRT-LLM's rotates max(1, min(5, ceil(L2 / weight bytes))) copies of the weights
/// over one input, vLLM's six copies of the weights (one for block-scaled FP8 and NVFP4)
/// over one input, SGLang's six copies of input, weights and output. The output is one
/// buffer where the input is (each run's output freed before the next run allocates).
fn gemm_loop(
    row: &Row,
    (m, n, k): (u64, u64, u64),
    activations: Format,
    weights: Format,
    l2_bytes: f64,
) -> GemmLoop {
    let weight_bytes = weights.tensor_bytes((n * k) as f64).get();
    let (copies, activations_rotate) = match Framework::parse(&row.framework) {
        Some(Framework::TensorRtLlm) => {
            let copies = if weight_bytes > 0.0 && l2_bytes > 0.0 {
                (l2_bytes / weight_bytes).ceil().clamp(1.0, 5.0)
            } else {
                1.0
            };
            (copies, false)
        }
        Some(Framework::Vllm) if matches!(row.dtype.as_str(), "fp8_block" | "nvfp4") => {
            (1.0, false)
        }
        Some(Framework::Vllm) => (6.0, false),
        Some(Framework::Sglang) => (6.0, true),
        None => (1.0, false),
    };
    let elements = (m * k) as f64;
    GemmLoop {
        activations: activations.tensor_bytes(elements).get(),
        staging: if activations.bits_per_element() < 16.0 {
            Format::Bf16.tensor_bytes(elements).get()
        } else {
            0.0
        },
        weights: weight_bytes,
        output: Format::Bf16.tensor_bytes((m * n) as f64).get(),
        copies,
        activations_rotate,
    }
}

/// The GEMM or attention a row timed, in its formats, as the model crate's operators
/// name it; `Err` for a MoE layer (its times come from its timed load: [`times_with`]) and
/// for a row of no format the catalogue has. SGLang's `int8_wo` GEMMs run INT8 by INT8
/// ([`sglang_eager_int8`]).
fn operator(row: &Row) -> Result<(Op, Precision), &'static str> {
    match row.shape {
        Shape::Gemm { m, n, k } => {
            let (activations, weights) = formats(&row.dtype).ok_or("no format for this dtype")?;
            let activations = if sglang_eager_int8(row) {
                Format::Int8
            } else {
                activations
            };
            let op = Op::Gemm {
                m: m as f64,
                n: n as f64,
                k: k as f64,
                bias: false,
            };
            let precision = Precision {
                activations,
                weights,
                kv: Format::Bf16,
                output: Format::Bf16,
            };
            Ok((op, precision))
        }
        Shape::Attention { .. } => attention(row).map(|(s, p)| (Op::FusedAttention(s), p)),
        Shape::Mla { .. } => mla(row).map(|(s, p)| (Op::FusedAttention(s), p)),
        Shape::Moe { .. } => Err("a MoE layer"),
    }
}

/// `times`, the kernel's times as a model's forward pass runs it once
/// ([`kernel_time::kernel_times`]), as NVIDIA's collector timed `row`'s `op`: in a loop whose
/// previous runs leave part of its bytes in the L2 ([`gemm_loop`] for a GEMM,
/// [`kernel_time::found_in_l2`] for an attention looped on one set of operands;
/// [`KernelTimes::warm`]), and for SGLang's `int8_wo` GEMMs after the collector's own eager
/// quantisation ([`SGLANG_INT8_QUANTISE_BYTES`]). Nothing here is a fact of the kernel.
fn as_collected(
    row: &Row,
    op: &Op,
    precision: &Precision,
    hw: &Hardware,
    mut times: KernelTimes,
) -> KernelTimes {
    let l2 = hw.l2_bytes();
    match (*op, row.shape) {
        (Op::Gemm { .. }, Shape::Gemm { m, n, k }) => {
            if sglang_eager_int8(row) {
                times.quantise_s =
                    (m * k) as f64 * SGLANG_INT8_QUANTISE_BYTES / hw.memory_bandwidth.value.get();
            }
            let looped = gemm_loop(row, (m, n, k), precision.activations, precision.weights, l2);
            times.warm(looped.l2_share(l2))
        }
        _ => {
            let bytes = op
                .predict(precision, hw, &Efficiency::IDEAL)
                .prediction
                .work
                .bytes;
            times.warm(kernel_time::found_in_l2(bytes.get(), l2))
        }
    }
}

/// A row's datasheet times on `hw`, or why it has none. GEMM: bytes (inputs in their
/// formats, a BF16 output) over the bandwidth, FLOPs over the product's peak and the tile
/// efficiency; the tables time each GEMM in a loop, so what the loop's previous runs left
/// in the L2 is read from it ([`gemm_loop`], [`KernelTimes::warm`]). Attention: the fused attention operator's bytes and FLOPs (whole tiles in
/// prefill) and its waves of blocks. MoE: the layer on the load the tables timed, from
/// `loads`.
fn times_with(row: &Row, hw: &Hardware, loads: &mut MoeLoads) -> Result<KernelTimes, &'static str> {
    match row.shape {
        Shape::Gemm { .. } | Shape::Attention { .. } | Shape::Mla { .. } => {
            let (op, precision) = operator(row)?;
            let p = op.predict(&precision, hw, &Efficiency::IDEAL);
            let times = kernel_time::kernel_times(
                &op,
                &precision,
                hw,
                (dispatch(row), phase(row)),
                &p.prediction,
                false,
            )
            .ok_or("no kernel times for this operator")?;
            Ok(as_collected(row, &op, &precision, hw, times))
        }
        Shape::Moe {
            tokens,
            hidden,
            inter,
            top_k,
            experts,
            tp,
            ep,
            gated,
            balanced,
            min_latency,
        } => {
            if !balanced {
                return Err("a power-law router (load imbalance is not modelled)");
            }
            let (activations, weights) = formats(&row.dtype).ok_or("no format for this dtype")?;
            let activations = if row.kernel_source.as_deref() == Some(TRTLLM_SM120_FP8_BLOCK_MOE) {
                Format::Bf16
            } else {
                activations
            };
            let shape = MoeShape {
                tokens: tokens as f64,
                hidden: hidden as f64,
                intermediate: inter as f64 / tp as f64,
                top_k: top_k as f64,
                experts: experts as f64,
                expert_parallel: ep as f64,
                gated,
            };
            let precision = Precision {
                activations,
                weights,
                kv: activations,
                output: Format::Bf16,
            };
            let router = if min_latency {
                Router::DeepSeekGroups
            } else {
                Router::TopK
            };
            let timed = loads.get(tokens, experts, top_k, ep, router, remote_copies(row));
            let shape = MoeShape {
                tokens: timed.tokens,
                ..shape
            };
            let tile =
                moe_tiling(row, hw).tile_rows(timed.tokens as u64, top_k, experts / ep, &precision);
            // The collector loops the layer on one set of weights and tokens.
            let times = KernelTimes::moe(&shape, &timed.load, &precision, hw, tile);
            let bytes = times.memory_s * hw.memory_bandwidth.value.get();
            Ok(times.warm(kernel_time::found_in_l2(bytes, hw.l2_bytes())))
        }
    }
}

/// Whether `row` timed a TRT-LLM-Gen fused MoE kernel, which computes whole tiles of rows
/// per expert ([`kernel_time::trtllm_gen_moe_tile`]): on sm_100 and sm_103, TensorRT-LLM's
/// `moe_torch_flow` (its collector's `TRTLLMGenFusedMoE`, for the MXFP4 formats and
/// gpt-oss there) and `moe_torch_flow_min_latency`, and SGLang's and vLLM's FlashInfer
/// `flashinfer_trtllm` kernels.
fn runs_trtllm_gen_moe(row: &Row, hw: &Hardware) -> bool {
    let source = row.kernel_source.as_deref().unwrap_or_default();
    row.kernel == Kernel::Moe
        && hw.has_tcgen05()
        && match Framework::parse(&row.framework) {
            Some(Framework::TensorRtLlm) => {
                matches!(source, "moe_torch_flow" | "moe_torch_flow_min_latency")
            }
            _ => source.contains("flashinfer_trtllm"),
        }
}

/// How the MoE kernel `row` timed tiles each expert's rows on `hw`: TRT-LLM-Gen's tiles
/// ([`runs_trtllm_gen_moe`]), the Triton fused MoE's (SGLang's `sglang_fused_moe_triton`
/// kernels, [`kernel_time::triton_moe_tile`]), or none (every other kernel, and every
/// row that is not a MoE's).
fn moe_tiling(row: &Row, hw: &Hardware) -> MoeTiling {
    let source = row.kernel_source.as_deref().unwrap_or_default();
    if runs_trtllm_gen_moe(row, hw) {
        MoeTiling::TrtllmGen
    } else if row.kernel == Kernel::Moe && source.starts_with(SGLANG_TRITON_MOE) {
        MoeTiling::Triton
    } else {
        MoeTiling::Copies
    }
}

/// The table's `kernel_source` for SGLang's Triton fused MoE (with a suffix where the
/// collector ran a variant of it: `_situ_as_silu`).
const SGLANG_TRITON_MOE: &str = "sglang_fused_moe_triton";

/// The tiling every one of `rows` ran on `hw` ([`moe_tiling`]); `None` where they ran
/// kernels of different tilings.
fn tile_rule(rows: &[&Row], hw: &Hardware) -> Option<MoeTiling> {
    let mut tilings = rows.iter().map(|r| moe_tiling(r, hw));
    let first = tilings.next().unwrap_or(MoeTiling::Copies);
    tilings.all(|t| t == first).then_some(first)
}

/// Those of a framework's `rows` that ran the MoE tiling most of them ran on `hw`
/// ([`moe_tiling`]): a profile follows one tiling, so where a framework's table timed
/// kernels of different tilings (SGLang's on the H100: its Triton fused MoE for 90 % of the
/// rows, FlashInfer's CUTLASS kernel for the rest), its profile is its most timed kernel's
/// and the others are judged apart, each kernel on its own.
fn of_most_rows_tiling<'a>(
    rows: Vec<&'a (&'a Row, KernelTimes)>,
    hw: &Hardware,
) -> Vec<&'a (&'a Row, KernelTimes)> {
    let mut counts: Vec<(MoeTiling, usize)> = Vec::new();
    for (r, _) in &rows {
        let tiling = moe_tiling(r, hw);
        match counts.iter_mut().find(|(t, _)| *t == tiling) {
            Some((_, n)) => *n += 1,
            None => counts.push((tiling, 1)),
        }
    }
    let Some(&(most, _)) = counts.iter().max_by_key(|(_, n)| *n) else {
        return rows;
    };
    rows.into_iter()
        .filter(|(r, _)| moe_tiling(r, hw) == most)
        .collect()
}

/// Those of a framework's `rows` its newest release timed, and that release, where its
/// releases ran different kernels (by the tables' `kernel_source`); all of them, and none,
/// where every release ran the same. A profile describes the kernel the framework runs
/// now: vLLM 0.19's H200 FP8 MoE rows ran its Triton fused MoE, 0.24's FlashInfer's
/// CUTLASS kernel, and one set of terms fitted on both missed by 48 % (median).
fn of_newest_release<'a>(
    rows: Vec<&'a (&'a Row, KernelTimes)>,
) -> (Vec<&'a (&'a Row, KernelTimes)>, Option<String>) {
    let mut kernels: Vec<(&str, Option<&str>)> = rows
        .iter()
        .map(|(r, _)| (r.version.as_str(), r.kernel_source.as_deref()))
        .collect();
    kernels.sort_unstable();
    kernels.dedup();
    let kernels_of = |version: &str| -> Vec<Option<&str>> {
        kernels
            .iter()
            .filter(|(v, _)| *v == version)
            .map(|(_, k)| *k)
            .collect()
    };
    let Some(newest) = kernels
        .iter()
        .map(|(v, _)| *v)
        .max_by(|a, b| release_order(a).cmp(&release_order(b)))
    else {
        return (rows, None);
    };
    let same = kernels
        .iter()
        .all(|(v, _)| kernels_of(v) == kernels_of(newest));
    if same {
        return (rows, None);
    }
    let newest = newest.to_string();
    let kept = rows
        .into_iter()
        .filter(|(r, _)| r.version == newest)
        .collect();
    (kept, Some(newest))
}

/// A release's place in time, from the tables' version folders (`0.24.0`, `1.3.0rc20`,
/// `0.5.6.post2`): its numbers in order, then a release candidate before the release and a
/// post-release after it (PEP 440's order, for the forms the tables use).
fn release_order(version: &str) -> (Vec<u64>, i8, u64) {
    let mut numbers = Vec::new();
    let mut stage = (0, 0);
    for part in version.split('.') {
        let digits = part.len() - part.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (number, suffix) = part.split_at(digits);
        if let Ok(n) = number.parse() {
            numbers.push(n);
        }
        let (kind, rest) = if let Some(rest) = suffix.strip_prefix("rc") {
            (-1, rest)
        } else if let Some(rest) = suffix.strip_prefix("post") {
            (1, rest)
        } else {
            continue;
        };
        stage = (kind, rest.parse().unwrap_or(0));
    }
    (numbers, stage.0, stage.1)
}

/// The router a MoE table's rows were timed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Router {
    /// Each token's `top_k` highest logits.
    TopK,
    /// DeepSeek-V3's grouped routing (TensorRT-LLM's `DeepseekV3Gate` as the collector
    /// builds it for the min-latency kernel: 8 groups, the best 4 by the sum of their two
    /// best scores, then the `top_k` best experts of those groups).
    DeepSeekGroups,
}

/// Groups and the groups kept by [`Router::DeepSeekGroups`].
const DEEPSEEK_GROUPS: (u64, usize) = (8, 4);

/// The experts the collectors' balanced router gives token `i` of `tokens`
/// (aiconfigurator, `collector/helper.py`, `balanced_logits`): with `stride =
/// ceil(experts / top_k)`, its `j`-th expert is `(i + j stride) mod experts` when there
/// are at least `stride` tokens, else `(floor(i stride / tokens) + j stride) mod experts`.
/// Those experts get the high logits; a grouped router then picks from them as
/// [`grouped_choice`] says.
fn balanced_choice(i: u64, tokens: u64, experts: u64, top_k: u64, router: Router) -> Vec<u64> {
    let stride = experts.div_ceil(top_k);
    let first = if tokens >= stride {
        i
    } else {
        i * stride / tokens
    };
    let high: Vec<u64> = (0..top_k).map(|j| (first + j * stride) % experts).collect();
    match router {
        Router::TopK => high,
        Router::DeepSeekGroups => grouped_choice(&high, experts, top_k),
    }
}

/// DeepSeek-V3's grouped choice when the experts in `high` score above all others: each
/// group scores its two best (so by how many of `high` it holds, up to two), the best
/// groups are kept, and the `top_k` best experts of the kept groups are chosen. Ties
/// (equal scores) go to the lower index, as a stable sort leaves them.
fn grouped_choice(high: &[u64], experts: u64, top_k: u64) -> Vec<u64> {
    let (groups, kept) = DEEPSEEK_GROUPS;
    let size = (experts / groups).max(1);
    let score = |g: u64| high.iter().filter(|&&e| e / size == g).count().min(2);
    let mut order: Vec<u64> = (0..groups).collect();
    order.sort_by_key(|&g| std::cmp::Reverse(score(g)));
    order.truncate(kept);
    let mut candidates: Vec<u64> = (0..experts)
        .filter(|e| order.contains(&(e / size)))
        .collect();
    candidates.sort_by_key(|e| !high.contains(e));
    candidates.truncate(top_k as usize);
    candidates
}

/// What the collector's kernel does with a token's copies routed to other GPUs' experts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum RemoteCopies {
    /// Left out: the framework's own expert map skips them, or the token never reaches
    /// rank 0 (TensorRT-LLM's and vLLM's collectors, SGLang's own layer).
    Skipped,
    /// Computed on local expert 0. The SGLang 0.5.10 collector (aiconfigurator,
    /// `collector/sglang/collect_moe.py` as of the commit that added its 0.5.10 tables,
    /// cb4d907c7) hands its Triton and Marlin kernels rank 0's tokens (every token with a
    /// local expert) with the other ranks' expert ids set to -1 and then clamped to 0, "the
    /// zero weight ensures no contribution": each such token's every copy is multiplied,
    /// so the work does not shrink with expert parallelism.
    OnExpertZero,
    /// Every copy of every token multiplied on rank 0, the remote ones on a local expert
    /// (counted on the last). TensorRT-LLM's Triton FP8 block-scale MoE for SM120
    /// (`CutlassFusedMoE` at 1.3.0rc20, `fused_moe_cutlass.py`, passes
    /// `(ids - slot_start).clamp(0, local_n - 1)` with the other ranks' weights zeroed to
    /// `run_triton_fp8_block_scale_moe`, which has no expert map): the kernel's behaviour
    /// in serving too, not only the collector's. Read off the tables, not the source:
    /// SGLang 0.5.14's Marlin MXFP4 layer and vLLM 0.19's MXFP4 MoE, whose times at 2,048
    /// tokens and more are the same at EP 2 to 16 as at EP 1 (median ratio 0.90-1.00 over
    /// 10-16 shapes each on the RTX PRO 6000; 1.00 on the B200 and H200).
    EveryCopy,
}

impl RemoteCopies {
    /// How the tables' notes name the rule.
    fn name(self) -> &'static str {
        match self {
            RemoteCopies::Skipped => "skipped",
            RemoteCopies::OnExpertZero => "on expert 0",
            RemoteCopies::EveryCopy => "every copy",
        }
    }

    /// The local expert (of `local`) rank 0 multiplies other ranks' copies on, where it
    /// multiplies them.
    fn computed_on(self, local: u64) -> Option<usize> {
        match self {
            RemoteCopies::Skipped => None,
            RemoteCopies::OnExpertZero => Some(0),
            RemoteCopies::EveryCopy => Some(local as usize - 1),
        }
    }
}

/// TensorRT-LLM's kernel for block-scaled FP8 MoE on SM120 (RTX PRO 6000): BF16
/// activations times FP8 weights dequantised to BF16 in the K loop
/// (`fused_moe_triton_fp8_block_scale.py`, "activations never go through FP8"), every copy
/// computed ([`RemoteCopies::EveryCopy`]).
const TRTLLM_SM120_FP8_BLOCK_MOE: &str = "moe_torch_flow_triton_fp8_block";

/// The MoE layers (hidden size, intermediate size, top-k, experts) the SGLang 0.5.14
/// collector runs with SGLang's default routing, so on the Triton backend its own clamped
/// path rather than SGLang's layer (aiconfigurator at the commit that added the 0.5.14
/// tables, e23be5a79: `collector/sglang/collect_moe.py` takes the layer for any routing
/// option a model's case sets, and `collector/cases/models/*_cases.yaml` sets one for
/// every other model): Mixtral 8x7B and 8x22B, Gemma 4, gpt-oss.
const SGLANG_DEFAULT_ROUTING: [(u64, u64, u64, u64); 5] = [
    (4096, 14336, 2, 8),
    (6144, 16384, 2, 8),
    (2816, 704, 8, 128),
    (2880, 2880, 4, 128),
    (2880, 2880, 4, 32),
];

/// How the collector behind `row` handled remote copies ([`RemoteCopies`]): SGLang's
/// 0.5.10 collector on its clamped path for every row; its 0.5.14 collector only for BF16
/// and block-scaled FP8 on the Triton kernel, for the models it runs with default routing
/// ([`SGLANG_DEFAULT_ROUTING`]; the other formats and models go through SGLang's layer),
/// and every copy for its Marlin MXFP4 layer; every copy for TensorRT-LLM's SM120 FP8
/// block-scale kernel and vLLM 0.19's MXFP4 MoE.
fn remote_copies(row: &Row) -> RemoteCopies {
    let Shape::Moe {
        hidden,
        inter,
        top_k,
        experts,
        ..
    } = row.shape
    else {
        return RemoteCopies::Skipped;
    };
    let source = row.kernel_source.as_deref().unwrap_or_default();
    match Framework::parse(&row.framework) {
        Some(Framework::Sglang)
            if row.version == "0.5.14"
                && row.dtype == "w4a16_mxfp4"
                && source.starts_with("sglang_marlin_moe") =>
        {
            return RemoteCopies::EveryCopy;
        }
        Some(Framework::Sglang) => {}
        Some(Framework::TensorRtLlm) if source == TRTLLM_SM120_FP8_BLOCK_MOE => {
            return RemoteCopies::EveryCopy;
        }
        Some(Framework::Vllm) if source == "vllm_mxfp4_moe" => return RemoteCopies::EveryCopy,
        _ => return RemoteCopies::Skipped,
    }
    let clamped = match row.version.as_str() {
        "0.5.10" => true,
        "0.5.14" => {
            source == "sglang_fused_moe_triton"
                && matches!(row.dtype.as_str(), "bfloat16" | "fp8_block")
                && SGLANG_DEFAULT_ROUTING.contains(&(hidden, inter, top_k, experts))
        }
        _ => false,
    };
    if clamped {
        RemoteCopies::OnExpertZero
    } else {
        RemoteCopies::Skipped
    }
}

/// The load a MoE row timed, and the tokens its kernels were given.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimedLoad {
    tokens: f64,
    load: MoeLoad,
}

/// [`collector_load`]s already worked out: millions of rows share a few thousand loads.
#[derive(Default)]
struct MoeLoads(HashMap<(u64, u64, u64, u64, Router, RemoteCopies), TimedLoad>);

impl MoeLoads {
    fn get(
        &mut self,
        tokens: u64,
        experts: u64,
        top_k: u64,
        ep: u64,
        router: Router,
        remote: RemoteCopies,
    ) -> TimedLoad {
        *self
            .0
            .entry((tokens, experts, top_k, ep, router, remote))
            .or_insert_with(|| collector_load(tokens, experts, top_k, ep, router, remote))
    }
}

/// The load of the GPU NVIDIA's MoE tables time: rank 0 of the expert-parallel group,
/// which holds experts `0 .. experts / ep` (TensorRT-LLM's `Mapping` at rank 0; the
/// SGLang collector's `build_rank0_local_workload`), under the collectors' balanced
/// router ([`balanced_choice`]). Few tokens land on the first experts, rank 0's, rather
/// than a `1 / ep` share of them: the expected share under a random router misjudges
/// small batches at wide expert parallelism by up to the whole of rank 0's experts.
/// Where the kernel computes remote copies on a local expert, rank 0 is given every copy of
/// the tokens it is given: those with a local expert ([`RemoteCopies::OnExpertZero`]) or
/// all of them ([`RemoteCopies::EveryCopy`]).
fn collector_load(
    tokens: u64,
    experts: u64,
    top_k: u64,
    ep: u64,
    router: Router,
    remote: RemoteCopies,
) -> TimedLoad {
    let local = experts / ep.max(1);
    let mut touched = vec![false; local as usize];
    let mut assignments = 0;
    let mut given = 0;
    if local > 0 && top_k > 0 {
        let stride = experts.div_ceil(top_k);
        // From `stride` tokens on, token i's choice depends on i mod experts only.
        let periodic = tokens >= stride;
        let distinct = if periodic {
            tokens.min(experts)
        } else {
            tokens
        };
        let copies = |i: u64| {
            if periodic {
                tokens / experts + u64::from(i < tokens % experts)
            } else {
                1
            }
        };
        for i in 0..distinct {
            let chosen = balanced_choice(i, tokens, experts, top_k, router);
            let here = chosen.iter().filter(|&&e| e < local).count() as u64;
            for &e in chosen.iter().filter(|&&e| e < local) {
                touched[e as usize] = true;
            }
            let Some(on) = remote.computed_on(local) else {
                assignments += here * copies(i);
                continue;
            };
            if here == 0 && remote == RemoteCopies::OnExpertZero {
                continue;
            }
            given += copies(i);
            assignments += chosen.len() as u64 * copies(i);
            if here < chosen.len() as u64 {
                touched[on] = true;
            }
        }
    }
    TimedLoad {
        tokens: if remote == RemoteCopies::Skipped {
            tokens as f64
        } else {
            given as f64
        },
        load: MoeLoad {
            assignments: assignments as f64,
            experts_touched: touched.iter().filter(|&&t| t).count() as f64,
        },
    }
}

/// The profiled kernel a row runs as (the model crate's [`Profiled::of`] on its operator).
fn profiled(row: &Row) -> Option<Profiled> {
    match row.shape {
        Shape::Gemm { .. } => {
            let (activations, weights) = formats(&row.dtype)?;
            let op = Op::Gemm {
                m: 1.0,
                n: 1.0,
                k: 1.0,
                bias: false,
            };
            Profiled::of(
                &op,
                &Precision {
                    activations,
                    weights,
                    ..Precision::uniform(activations)
                },
            )
        }
        // Prefill attends over keys and values rebuilt in the activation format, so its
        // profile is the one fitted on the table whose cache dtype matches; the FP8-cache
        // prefill table is judged, not shipped.
        Shape::Mla { .. }
            if row.kernel == Kernel::ContextMla && row.kv_dtype.as_deref() != Some(&row.dtype) =>
        {
            None
        }
        Shape::Attention { .. } | Shape::Mla { .. } => {
            let (op, precision) = operator(row).ok()?;
            let framework = dispatch(row).framework;
            kernel_time::profiled_kind(&op, phase(row), &precision, row.sm, framework)
        }
        // The gated kernel that ordinary routing runs (the non-gated and min-latency
        // kernels are groups of their own, judged, not shipped); FP8 with 128 x 128 block
        // scales has no catalogue format of its own (see `validate`).
        Shape::Moe {
            gated: true,
            min_latency: false,
            ..
        } if row.dtype != "fp8_block" => {
            let (activations, weights) = formats(&row.dtype)?;
            Some(Profiled::Moe {
                activations,
                weights,
            })
        }
        Shape::Moe { .. } => None,
    }
}

/// Reads every GEMM and attention table under `dir`.
fn read_tables(dir: &Path) -> Result<Tables> {
    let mut files = Vec::new();
    find(dir, &mut files)?;
    if files.is_empty() {
        bail!(
            "no kernel tables under {} (expected <system>/gemm/<framework>/<version>/gemm_perf.parquet and <system>/attention/...; `cargo xtask setup` unpacks them)",
            dir.display()
        );
    }
    files.sort();
    // Each file on its own, on every core; the rows kept in the files' order.
    let read: Vec<(Vec<Row>, Option<String>)> = files
        .par_iter()
        .map(|(path, kernel)| read_table(dir, path, *kernel))
        .collect::<Result<_>>()?;
    let mut rows = Vec::with_capacity(read.iter().map(|(r, _)| r.len()).sum());
    let mut left_out = Vec::new();
    for (file_rows, left) in read {
        rows.extend(file_rows);
        left_out.extend(left);
    }
    Ok(Tables { rows, left_out })
}

/// The rows of one table, `kernel`'s, at `path` under `dir`, and what it left out.
fn read_table(dir: &Path, path: &Path, kernel: Kernel) -> Result<(Vec<Row>, Option<String>)> {
    let mut rows: Vec<Row> = Vec::new();
    let system = path
        .strip_prefix(dir)
        .ok()
        .and_then(|p| p.components().next())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let reader = SerializedFileReader::new(file)
        .with_context(|| format!("{} is not a parquet file", path.display()))?;
    let schema = reader.metadata().file_metadata().schema_descr();
    let has = |name: &str| schema.columns().iter().any(|c| c.name() == name);
    if let Some(missing) = kernel.columns().into_iter().find(|c| !has(c)) {
        bail!(
            "{} has no `{missing}` column: a {} table needs {}",
            path.display(),
            kernel.name(),
            kernel.columns().join(", ")
        );
    }
    let mut incomplete = 0;
    for record in reader.get_row_iter(None)? {
        let record = record.with_context(|| format!("in {}", path.display()))?;
        let mut row = Row {
            system: system.clone(),
            device: String::new(),
            framework: String::new(),
            kernel,
            dtype: String::new(),
            kv_dtype: None,
            version: String::new(),
            kernel_source: None,
            shape: match kernel {
                Kernel::Gemm => Shape::Gemm { m: 0, n: 0, k: 0 },
                Kernel::Moe => Shape::Moe {
                    tokens: 0,
                    hidden: 0,
                    inter: 0,
                    top_k: 0,
                    experts: 0,
                    tp: 0,
                    ep: 0,
                    gated: true,
                    balanced: false,
                    min_latency: false,
                },
                Kernel::ContextMla | Kernel::GenerationMla => Shape::Mla {
                    batch: 0,
                    isl: 0,
                    step: 0,
                    heads: 0,
                    tp: 0,
                },
                _ => Shape::Attention {
                    batch: 0,
                    isl: 0,
                    step: 0,
                    heads: 0,
                    kv_heads: 0,
                    head_dim: 0,
                    window: 0,
                },
            },
            measured_s: f64::NAN,
            sm: None,
        };
        for (name, field) in record.get_column_iter() {
            let whole = match field {
                Field::Long(v) => u64::try_from(*v).unwrap_or(0),
                Field::Int(v) => u64::try_from(*v).unwrap_or(0),
                _ => 0,
            };
            match (name.as_str(), field, &mut row.shape) {
                ("framework", Field::Str(s), _) => row.framework.clone_from(s),
                ("version", Field::Str(s), _) => row.version.clone_from(s),
                ("device", Field::Str(s), _) => row.device.clone_from(s),
                ("gemm_dtype" | "attn_dtype" | "moe_dtype" | "mla_dtype", Field::Str(s), _) => {
                    row.dtype.clone_from(s);
                }
                ("kv_cache_dtype", Field::Str(s), _) => row.kv_dtype = Some(s.clone()),
                (
                    "kernel_source",
                    Field::Str(s),
                    Shape::Gemm { .. } | Shape::Attention { .. } | Shape::Mla { .. },
                ) => row.kernel_source = Some(s.clone()),
                ("latency", Field::Double(ms), _) => row.measured_s = ms / 1e3,
                ("latency", Field::Float(ms), _) => row.measured_s = f64::from(*ms) / 1e3,
                ("m", _, Shape::Gemm { m, .. }) => *m = whole,
                ("n", _, Shape::Gemm { n, .. }) => *n = whole,
                ("k", _, Shape::Gemm { k, .. }) => *k = whole,
                ("batch_size", _, Shape::Attention { batch, .. }) => *batch = whole,
                ("isl", _, Shape::Attention { isl, .. }) => *isl = whole,
                ("step", _, Shape::Attention { step, .. }) => *step = whole,
                ("num_heads", _, Shape::Attention { heads, .. }) => *heads = whole,
                ("num_key_value_heads", _, Shape::Attention { kv_heads, .. }) => {
                    *kv_heads = whole;
                }
                ("head_dim", _, Shape::Attention { head_dim, .. }) => *head_dim = whole,
                ("window_size", _, Shape::Attention { window, .. }) => *window = whole,
                ("batch_size", _, Shape::Mla { batch, .. }) => *batch = whole,
                ("isl", _, Shape::Mla { isl, .. }) => *isl = whole,
                ("step", _, Shape::Mla { step, .. }) => *step = whole,
                ("num_heads", _, Shape::Mla { heads, .. }) => *heads = whole,
                ("tp_size", _, Shape::Mla { tp, .. }) => *tp = whole,
                ("num_tokens", _, Shape::Moe { tokens, .. }) => *tokens = whole,
                ("hidden_size", _, Shape::Moe { hidden, .. }) => *hidden = whole,
                ("inter_size", _, Shape::Moe { inter, .. }) => *inter = whole,
                ("topk", _, Shape::Moe { top_k, .. }) => *top_k = whole,
                ("num_experts", _, Shape::Moe { experts, .. }) => *experts = whole,
                ("moe_tp_size", _, Shape::Moe { tp, .. }) => *tp = whole,
                ("moe_ep_size", _, Shape::Moe { ep, .. }) => *ep = whole,
                (
                    "kernel_source",
                    Field::Str(s),
                    Shape::Moe {
                        gated, min_latency, ..
                    },
                ) => {
                    *gated = !s.ends_with("nongated");
                    *min_latency = s == "moe_torch_flow_min_latency";
                    row.kernel_source = Some(s.clone());
                }
                ("distribution", Field::Str(s), Shape::Moe { balanced, .. }) => {
                    *balanced = s == "balanced";
                }
                _ => {}
            }
        }
        if row.shape.is_complete() && row.measured_s > 0.0 {
            // One registry look-up per device, not per row.
            row.sm = match rows.last() {
                Some(last) if last.device == row.device => last.sm,
                _ => compute_capability(&row.device),
            };
            rows.push(row);
        } else {
            incomplete += 1;
        }
    }
    let left_out = (incomplete > 0).then(|| {
        format!(
            "{}: {incomplete} rows with an empty or non-positive shape column or latency",
            path.strip_prefix(dir).unwrap_or(path).display()
        )
    });
    Ok((rows, left_out))
}

/// The rows of NVIDIA's kernel tables ([`read_tables`]).
struct Tables {
    /// Every complete row.
    rows: Vec<Row>,
    /// A line for each table with rows left out, and how many.
    left_out: Vec<String>,
}

fn find(dir: &Path, out: &mut Vec<(PathBuf, Kernel)>) -> Result<()> {
    let kernel_of = |name: &std::ffi::OsStr| Kernel::ALL.into_iter().find(|k| name == k.file());
    let mut paths = Vec::new();
    super::table_files::files_under(dir, &|name| kernel_of(name).is_some(), &mut paths)?;
    out.extend(paths.into_iter().filter_map(|p| {
        let kernel = p.file_name().and_then(kernel_of)?;
        Some((p, kernel))
    }));
    Ok(())
}

/// Whether a shape is in the fitting half (a fixed hash of its dimensions; for a GEMM,
/// of m, n, k as before attention was added, so the GEMM split is unchanged).
fn fitting_half(shape: &Shape) -> bool {
    const MIX: [u64; 6] = [
        0x9e37_79b9_7f4a_7c15,
        0xc2b2_ae3d_27d4_eb4f,
        0x1656_67b1_9e37_79f9,
        0x27d4_eb2f_1656_67c5,
        0x94d0_49bb_1331_11eb,
        0xbf58_476d_1ce4_e5b9,
    ];
    let h = shape
        .values()
        .iter()
        .zip(MIX)
        .fold(0u64, |h, (v, mix)| h.wrapping_add(v.wrapping_mul(mix)));
    (h >> 32) & 1 == 0
}

/// Error figures of predictions against measurements, |pred / measured - 1|.
#[derive(Clone, Debug, Default, Serialize)]
struct Errors {
    rows: usize,
    median: f64,
    p90: f64,
    worst: f64,
    /// The worst shape, `m x n x k`.
    worst_shape: String,
}

fn errors(errs: &mut [(f64, String)]) -> Errors {
    if errs.is_empty() {
        return Errors::default();
    }
    errs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let sorted: Vec<f64> = errs.iter().map(|e| e.0).collect();
    let at = |q: f64| nearest_rank(&sorted, q).unwrap_or(f64::NAN);
    Errors {
        rows: errs.len(),
        median: at(0.5),
        p90: at(0.9),
        worst: errs[errs.len() - 1].0,
        worst_shape: errs[errs.len() - 1].1.clone(),
    }
}

/// Each shape's measured time in some rows of one table: the yardstick a framework's own
/// measurements set for another's. Where a table timed a shape more than once, its first
/// row.
fn measured_times(rows: &[&(&Row, KernelTimes)]) -> HashMap<Shape, f64> {
    let mut times = HashMap::new();
    for (r, _) in rows {
        times.entry(r.shape).or_insert(r.measured_s);
    }
    times
}

/// `reference`'s measured times taken as the prediction of the rows that share its shapes:
/// how far two tables' timings of the same shapes are apart. No model is involved: this
/// is what terms that fitted the reference's table exactly would score on these rows.
fn against_measured(reference: &HashMap<Shape, f64>, rows: &[&(&Row, KernelTimes)]) -> Errors {
    let mut errs: Vec<(f64, String)> = rows
        .iter()
        .filter_map(|(r, _)| {
            let predicted = reference.get(&r.shape)?;
            Some(((predicted / r.measured_s - 1.0).abs(), r.shape.to_string()))
        })
        .collect();
    errors(&mut errs)
}

/// One device, kernel and dtype's fit and held-out errors.
#[derive(Clone, Debug, Serialize)]
struct Group {
    system: String,
    hardware: &'static str,
    kernel: Kernel,
    dtype: String,
    /// The framework the group's terms are fitted on, as the tables name it.
    framework: String,
    /// That framework, its release where only its newest is fitted
    /// ([`of_newest_release`]), and the shapes fitted.
    fitted_on: String,
    /// The first framework's terms.
    #[serde(flatten)]
    fitted: Fitted,
    /// Held-out shapes of the fitting framework, by the calibrated regime.
    held_out_shapes: Vec<(String, Errors, Errors)>,
    /// The same held-out rows against each other framework's measurements of the same
    /// shapes ([`against_measured`]), where it timed any: how far apart two measurements
    /// of one shape are, what terms that fitted the other table exactly would score here.
    held_out_measured_elsewhere: Vec<(String, Errors)>,
    /// Every other framework's rows: (framework, datasheet, calibrated).
    other_frameworks: Vec<OtherFramework>,
    /// Each framework's rows measured faster than the DRAM allows ([`faster_than_dram`]),
    /// where any are.
    faster_than_dram: Vec<FasterThanDram>,
    /// The kernel a profile of this group describes (none for MoE, FP8 with block scales,
    /// weight-only formats and MLA prefill over an FP8 cache).
    #[serde(skip)]
    kind: Option<Profiled>,
}

/// One framework's fitted terms, as the tables and the JSON show them.
#[derive(Clone, Debug, Serialize)]
struct Fitted {
    fixed_us: f64,
    bandwidth_fraction: f64,
    compute_fraction: f64,
    per_wave_us: f64,
    /// The fraction of the datasheet bandwidth one output tile (a decode attention block)
    /// streams at (1 where the term was not fitted: prefill attention, MoE, an unknown SM
    /// count, or where it did not lower the error).
    tile_bandwidth_fraction: f64,
    /// The same as a rate, GB/s, where fitted.
    tile_stream_gb_s: Option<f64>,
    /// The rate the L2 serves re-reads at, GB/s, where fitted (TensorRT-LLM's masked
    /// multi-head attention).
    l2_gb_s: Option<f64>,
    /// The exponent the memory and compute terms combine with
    /// (`kernel_time::overlapped`), where finite (none: the roofline's max).
    overlap: Option<f64>,
    /// The share of the peak the attention kernel of each head width reaches, where
    /// fitted apart (`KernelTerms::head_compute`): head width and fraction.
    compute_by_head_width: Vec<(u32, f64)>,
    /// The fixed time of the attention kernel of each head width, us, where fitted
    /// apart (`KernelTerms::head_fixed`): head width and time.
    fixed_by_head_width: Vec<(u32, f64)>,
    /// The rate a MoE layer's routing pass over every token's copies runs at, GB/s, where
    /// fitted (`KernelTerms::route_rate`; none: not counted).
    route_gb_s: Option<f64>,
    /// The rate the activation quantisation pass runs at, GB/s, where fitted apart from the
    /// GEMM's bandwidth (`KernelTerms::quantise_bandwidth`; none: at the GEMM's).
    quantise_gb_s: Option<f64>,
    /// The rate the L2 serves the activation quantisation pass at, GB/s, where fitted apart
    /// from the kernel's L2 rate (`KernelTerms::quantise_l2_bandwidth`; none: at the
    /// kernel's).
    quantise_l2_gb_s: Option<f64>,
    /// The latency of a step of a per-token activation quantisation pass, us, where fitted
    /// (`KernelTerms::quantise_step_s`; rows that run one: `kernel_time::KernelTimes::gemm`).
    quantise_step_us: Option<f64>,
    /// The rate activations are written at (a GEMM's output, a MoE layer's token
    /// traffic), GB/s, where fitted apart from the kernel's bandwidth
    /// (`KernelTerms::write_bandwidth`; none: at the kernel's).
    write_gb_s: Option<f64>,
    /// The share of a computed tile's time a tile the window hides costs, where fitted
    /// above none (`KernelTerms::hidden_tile_share`; rows that walk such tiles:
    /// `walks_every_causal_tile`).
    hidden_tile_share: Option<f64>,
    /// The time of one copy of the activations' scales, us, where fitted
    /// (`KernelTerms::scale_copy_s`; rows that make one: `copies_scales_for_deepgemm`).
    scale_copy_us: Option<f64>,
    /// Whether the model crate ships these terms: `matches`, `differs ...`, or `none`.
    shipped: String,
    #[serde(skip)]
    terms: KernelTerms,
    /// The tiling every row fitted ran ([`moe_tiling`]); `None` where they ran kernels of
    /// different tilings, which no one profile can follow.
    #[serde(skip)]
    tiling: Option<MoeTiling>,
}

impl Fitted {
    /// `terms` fitted on `hw` over rows that ran `tiling`, and whether `shipped` holds
    /// them.
    fn new(
        terms: KernelTerms,
        tiling: Option<MoeTiling>,
        hw: &Hardware,
        shipped: Option<kernel_time::Profile>,
    ) -> Fitted {
        Fitted {
            tiling,
            fixed_us: terms.fixed_s * 1e6,
            bandwidth_fraction: terms.bandwidth,
            compute_fraction: terms.compute,
            per_wave_us: terms.per_wave_s * 1e6,
            tile_bandwidth_fraction: terms.tile_bandwidth,
            tile_stream_gb_s: (terms.tile_bandwidth < 1.0)
                .then(|| terms.tile_bandwidth * hw.memory_bandwidth.value.get() / 1e9),
            l2_gb_s: terms
                .l2_bandwidth
                .is_finite()
                .then(|| terms.l2_bandwidth * hw.memory_bandwidth.value.get() / 1e9),
            overlap: terms.overlap.is_finite().then_some(terms.overlap),
            compute_by_head_width: kernel_time::ATTENTION_HEAD_DIMS
                .into_iter()
                .zip(terms.head_compute)
                .filter(|&(_, scale)| scale != 1.0)
                .map(|(width, scale)| (width, terms.compute / scale))
                .collect(),
            fixed_by_head_width: kernel_time::ATTENTION_HEAD_DIMS
                .into_iter()
                .zip(terms.head_fixed)
                .filter(|&(_, ratio)| ratio != 1.0)
                .map(|(width, ratio)| (width, terms.fixed_s * ratio * 1e6))
                .collect(),
            route_gb_s: terms
                .route_rate
                .is_finite()
                .then(|| terms.route_rate * hw.memory_bandwidth.value.get() / 1e9),
            quantise_gb_s: terms
                .quantise_bandwidth
                .map(|q| q * hw.memory_bandwidth.value.get() / 1e9),
            quantise_l2_gb_s: terms
                .quantise_l2_bandwidth
                .map(|q| q * hw.memory_bandwidth.value.get() / 1e9),
            quantise_step_us: (terms.quantise_step_s > 0.0).then_some(terms.quantise_step_s * 1e6),
            write_gb_s: terms
                .write_bandwidth
                .map(|w| w * hw.memory_bandwidth.value.get() / 1e9),
            hidden_tile_share: (terms.hidden_tile_share > 0.0).then_some(terms.hidden_tile_share),
            scale_copy_us: (terms.scale_copy_s > 0.0).then_some(terms.scale_copy_s * 1e6),
            shipped: shipped_status(shipped, &terms, tiling),
            terms,
        }
    }

    /// The "activation quantisation" cell: the pass's own rate from the DRAM, then from the
    /// L2, where fitted apart, and its step's latency where it runs a block per token
    /// (`1507 GB/s, L2 3012 GB/s`; `0.50 us a step`; `-` where none is).
    fn quantisation(&self) -> String {
        let dram = self.quantise_gb_s.map(|r| format!("{r:.0} GB/s"));
        let l2 = self.quantise_l2_gb_s.map(|r| format!("L2 {r:.0} GB/s"));
        let steps = self.quantise_step_us.map(|us| format!("{us:.2} us a step"));
        let cell = dram
            .into_iter()
            .chain(l2)
            .chain(steps)
            .collect::<Vec<_>>()
            .join(", ");
        if cell.is_empty() {
            "-".to_string()
        } else {
            cell
        }
    }

    /// The "by head width" cell: each width's share of the peak, then each width's fixed
    /// time, where fitted apart (`64: 45%, 128: 60%; fixed 64: 6.1 us, 256: 3.0 us`).
    fn by_head_width(&self) -> String {
        let compute = self
            .compute_by_head_width
            .iter()
            .map(|(width, fraction)| format!("{width}: {}", pct(*fraction)))
            .collect::<Vec<_>>()
            .join(", ");
        let fixed = self
            .fixed_by_head_width
            .iter()
            .map(|(width, us)| format!("{width}: {us:.1} us"))
            .collect::<Vec<_>>()
            .join(", ");
        match (compute.is_empty(), fixed.is_empty()) {
            (true, true) => "-".to_string(),
            (false, true) => compute,
            (true, false) => format!("fixed {fixed}"),
            (false, false) => format!("{compute}; fixed {fixed}"),
        }
    }

    /// The row of the "Fitted terms" table, `fitted_on` naming the framework and shapes.
    fn row(&self, g: &Group, fitted_on: &str) -> String {
        format!(
            "| {} | {} | {} | {fitted_on} | {:.1} us | {} | {} | {} | {:.2} us | {} | {} | {} | {} | {} | {} | {} | {} |",
            g.hardware,
            g.kernel.name(),
            g.dtype,
            self.fixed_us,
            pct(self.bandwidth_fraction),
            pct(self.compute_fraction),
            self.by_head_width(),
            self.per_wave_us,
            self.tile_stream_gb_s
                .map_or_else(|| "-".to_string(), |r| format!("{r:.0} GB/s")),
            self.l2_gb_s
                .map_or_else(|| "-".to_string(), |r| format!("{r:.0} GB/s")),
            self.overlap
                .map_or_else(|| "max".to_string(), |p| format!("p = {p}")),
            self.route_gb_s
                .map_or_else(|| "-".to_string(), |r| format!("{r:.0} GB/s")),
            self.quantisation(),
            self.write_gb_s
                .map_or_else(|| "-".to_string(), |r| format!("{r:.0} GB/s")),
            self.hidden_tile_share.map_or_else(|| "-".to_string(), pct),
            self.shipped
        )
    }
}

/// One framework's rows of a group measured faster than the DRAM can serve the bytes the
/// model counts for their shapes ([`faster_than_dram`]).
#[derive(Clone, Debug, Serialize)]
struct FasterThanDram {
    framework: String,
    /// The framework's rows in the group.
    rows: usize,
    /// Those measured faster than the floor.
    faster: usize,
    /// The least measured time over its floor, and that row's shape.
    fastest: f64,
    fastest_shape: String,
}

/// How far under the DRAM's floor a row must be measured to be listed: 2 %, so that timing
/// noise at the floor is not.
const DRAM_FLOOR_MARGIN: f64 = 0.98;

/// Each framework's rows among `predicted` measured more than 2 % faster than the DRAM of
/// `hw` can serve the bytes the model counts for their shapes, less all its L2 holds
/// ([`KernelTimes::dram_floor_s`]): no reuse explains them, so either the table's labels or
/// the model's count of the kernel's bytes is wrong for them. NVIDIA's A100 TensorRT-LLM
/// decode attention table is so: 32 sequences of 4,096 tokens over 8 KV heads of 128 in a
/// BF16 cache are 537 MB, 263 us at the A100's 2.04 TB/s, and it measured 203 us, where
/// vLLM's table of the same shape measured 420 us. Frameworks with none are left out, and
/// every framework where the device's L2 size is not published.
fn faster_than_dram(predicted: &[(&Row, KernelTimes)], hw: &Hardware) -> Vec<FasterThanDram> {
    let Some(l2) = hw.l2_cache.as_ref().map(|f| f.value.get()) else {
        return Vec::new();
    };
    let bandwidth = hw.memory_bandwidth.value.get();
    let mut by_framework: BTreeMap<&str, FasterThanDram> = BTreeMap::new();
    for (r, t) in predicted {
        let entry = by_framework
            .entry(r.framework.as_str())
            .or_insert_with(|| FasterThanDram {
                framework: r.framework.clone(),
                rows: 0,
                faster: 0,
                fastest: f64::INFINITY,
                fastest_shape: String::new(),
            });
        entry.rows += 1;
        let floor = t.dram_floor_s(l2, bandwidth);
        if floor > 0.0 && r.measured_s < DRAM_FLOOR_MARGIN * floor {
            entry.faster += 1;
            let ratio = r.measured_s / floor;
            if ratio < entry.fastest {
                entry.fastest = ratio;
                entry.fastest_shape = r.shape.to_string();
            }
        }
    }
    by_framework
        .into_values()
        .filter(|f| f.faster > 0)
        .collect()
}

/// Another framework's rows of the same device, kernel and dtype, or one kernel of any
/// framework's where its table dispatched the shapes to several.
#[derive(Clone, Debug, Serialize)]
struct OtherFramework {
    framework: String,
    /// One kernel (the table's `kernel_source`) where the framework's table dispatched its
    /// shapes to several, fitted and judged apart besides the framework as a whole: one
    /// set of terms cannot hold kernels whose fixed times differ threefold (vLLM's
    /// block-scaled FP8 on the H100: about 60 us through FlashInfer, 90 us through
    /// DeepGEMM, 180 us through CUTLASS). `None`: the framework's every kernel of one MoE
    /// tiling, the one most of its rows ran ([`of_most_rows_tiling`]), as its profile is
    /// fitted.
    kernel: Option<String>,
    /// The framework as a whole where its releases ran different kernels: the newest
    /// release, whose rows alone are judged and fitted ([`of_newest_release`]).
    release: Option<String>,
    /// Every row: the datasheet bound.
    datasheet: Errors,
    /// Every row: the terms fitted on the first framework.
    calibrated: Errors,
    /// Every row whose shape the first framework timed too: its measured time as the
    /// prediction ([`against_measured`]): what terms that fitted the first framework's
    /// table exactly would score. Where these are far apart, the two frameworks ran
    /// different kernels, or timed them differently. None for the first framework's own
    /// kernels.
    fit_measured: Errors,
    /// Its own held-out half: terms fitted on its own other half, as the first framework's
    /// are (what its own profile reaches).
    own_fit: Errors,
    /// Shapes its own terms were fitted on.
    fitted_shapes: usize,
    /// Its own terms.
    #[serde(flatten)]
    fitted: Fitted,
}

impl OtherFramework {
    /// The framework as the tables name it, and its kernel where fitted apart
    /// (`VLLM (DeepGemmFp8BlockScaledMMKernel)`), or its release where only its newest is
    /// judged (`VLLM 0.24.0`).
    fn label(&self) -> String {
        framework_label(
            &self.framework,
            self.kernel.as_deref(),
            self.release.as_deref(),
        )
    }
}

/// A framework as the tables name it, and one of its kernels where judged apart
/// (`VLLM (DeepGemmFp8BlockScaledMMKernel)`), or its release where only its newest is
/// judged (`VLLM 0.24.0`, [`of_newest_release`]).
fn framework_label(framework: &str, kernel: Option<&str>, release: Option<&str>) -> String {
    match (kernel, release) {
        (Some(kernel), _) => format!("{framework} ({kernel})"),
        (None, Some(release)) => format!("{framework} {release}"),
        (None, None) => framework.to_string(),
    }
}

/// Whether `shipped` holds `terms` and the tile rule (each term within 1 %): `matches`,
/// `differs (...)`, `none`.
fn shipped_status(
    shipped: Option<kernel_time::Profile>,
    terms: &KernelTerms,
    tiling: Option<MoeTiling>,
) -> String {
    let Some(p) = shipped else {
        return "none".to_string();
    };
    let close = |a: f64, b: f64| a == b || (a - b).abs() <= 0.01 * b.abs().max(1e-12);
    if tiling == Some(p.tiling)
        && close(p.terms.route_rate, terms.route_rate)
        && close(p.terms.fixed_s, terms.fixed_s)
        && close(p.terms.bandwidth, terms.bandwidth)
        && close(p.terms.compute, terms.compute)
        && close(p.terms.per_wave_s, terms.per_wave_s)
        && close(p.terms.tile_bandwidth, terms.tile_bandwidth)
        && close(p.terms.l2_bandwidth, terms.l2_bandwidth)
        && close(p.terms.overlap, terms.overlap)
        && close(p.terms.hidden_tile_share, terms.hidden_tile_share)
        && close(p.terms.scale_copy_s, terms.scale_copy_s)
        && close(p.terms.quantise_step_s, terms.quantise_step_s)
        && [
            (p.terms.quantise_bandwidth, terms.quantise_bandwidth),
            (p.terms.quantise_l2_bandwidth, terms.quantise_l2_bandwidth),
            (p.terms.write_bandwidth, terms.write_bandwidth),
        ]
        .into_iter()
        .all(|pair| match pair {
            (Some(a), Some(b)) => close(a, b),
            (a, b) => a == b,
        })
        && p.terms
            .head_compute
            .iter()
            .chain(&p.terms.head_fixed)
            .zip(terms.head_compute.iter().chain(&terms.head_fixed))
            .all(|(&a, &b)| close(a, b))
    {
        "matches".to_string()
    } else {
        format!(
            "differs (shipped {:.1} us, {}, {}, {:.2} us, tile {:.2}%, L2 {:.2}x, overlap {}, head widths {:?} {:?}, quantisation {:?}, its L2 {:?}, steps {:.3} us, activations written {:?}, routing {:.3}x, hidden tiles {}, tiles {:?}): update kernel_time/profiles.rs",
            p.terms.fixed_s * 1e6,
            pct(p.terms.bandwidth),
            pct(p.terms.compute),
            p.terms.per_wave_s * 1e6,
            p.terms.tile_bandwidth * 100.0,
            p.terms.l2_bandwidth,
            p.terms.overlap,
            p.terms.head_compute,
            p.terms.head_fixed,
            p.terms.quantise_bandwidth,
            p.terms.quantise_l2_bandwidth,
            p.terms.quantise_step_s * 1e6,
            p.terms.write_bandwidth,
            p.terms.route_rate,
            p.terms.hidden_tile_share,
            p.tiling
        )
    }
}

/// One held-out row as predicted: a line of `--residuals`.
#[derive(Clone, Debug)]
struct Residual {
    hardware: &'static str,
    /// The framework as the tables name it, with the kernel where judged apart
    /// ([`OtherFramework::label`]).
    framework: String,
    kernel: Kernel,
    dtype: String,
    shape: Shape,
    measured_s: f64,
    datasheet_s: f64,
    calibrated_s: f64,
    regime: Regime,
}

impl Residual {
    /// `row` of the group (device, kernel, dtype) and `framework` as `terms` predict it
    /// from its datasheet `times`.
    fn of(
        (hardware, kernel, dtype): (&'static str, Kernel, &str),
        framework: &str,
        (row, times): (&Row, KernelTimes),
        terms: &KernelTerms,
    ) -> Residual {
        Residual {
            hardware,
            framework: framework.to_string(),
            kernel,
            dtype: dtype.to_string(),
            shape: row.shape,
            measured_s: row.measured_s,
            datasheet_s: times.bound_s(),
            calibrated_s: terms.predict(times),
            regime: terms.regime(times),
        }
    }

    const HEADER: &'static str =
        "device,framework,kernel,dtype,shape,measured_s,datasheet_s,calibrated_s,regime";

    /// The CSV line (the dtype and shape quoted: they hold commas).
    fn csv(&self) -> String {
        format!(
            "{},\"{}\",{},\"{}\",\"{}\",{:e},{:e},{:e},{}",
            self.hardware,
            self.framework,
            self.kernel.name(),
            self.dtype,
            self.shape,
            self.measured_s,
            self.datasheet_s,
            self.calibrated_s,
            self.regime.name()
        )
    }
}

/// Tokens from which [`ep_scaling`] compares a MoE table's times across expert parallelism:
/// where the routed copies' work, not the fixed time, sets the layer's time.
const EP_SCALING_MIN_TOKENS: u64 = 2048;

/// How one MoE table's times change with expert parallelism: the evidence for
/// [`RemoteCopies`]. A layer that skips the other ranks' copies takes about 1 / EP of its
/// time at EP 1; one that multiplies every copy about the same time.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct EpScaling {
    system: String,
    framework: String,
    version: String,
    /// The table's `kernel_source`.
    kernel: Option<String>,
    dtype: String,
    /// How `validate` reads the table's remote copies ([`RemoteCopies::name`]; "mixed" where
    /// its rows differ).
    remote_copies: String,
    /// (EP, median over shapes of the time at that EP over the time at EP 1, shapes).
    ratios: Vec<(u64, f64, usize)>,
}

/// The time at each expert parallelism over the time at EP 1, per device, framework,
/// version, kernel and dtype of the MoE tables: every pair of balanced-router rows alike but
/// for their EP (same tokens, at least [`EP_SCALING_MIN_TOKENS`], widths, top-k, experts and
/// tensor parallelism), the median over shapes for each EP.
fn ep_scaling(rows: &[Row]) -> Vec<EpScaling> {
    type Table = (String, String, String, Option<String>, String);
    let mut at_ep: BTreeMap<(Table, [u64; 6]), BTreeMap<u64, f64>> = BTreeMap::new();
    let mut rules: BTreeMap<Table, Vec<RemoteCopies>> = BTreeMap::new();
    for r in rows {
        let Shape::Moe {
            tokens,
            hidden,
            inter,
            top_k,
            experts,
            tp,
            ep,
            balanced: true,
            ..
        } = r.shape
        else {
            continue;
        };
        if tokens < EP_SCALING_MIN_TOKENS {
            continue;
        }
        let table = (
            r.system.clone(),
            r.framework.clone(),
            r.version.clone(),
            r.kernel_source.clone(),
            r.dtype_label(),
        );
        if ep > 1 {
            let rule = remote_copies(r);
            let seen = rules.entry(table.clone()).or_default();
            if !seen.contains(&rule) {
                seen.push(rule);
            }
        }
        at_ep
            .entry((table, [tokens, hidden, inter, top_k, experts, tp]))
            .or_default()
            .insert(ep, r.measured_s);
    }
    let mut by_table: BTreeMap<Table, BTreeMap<u64, Vec<f64>>> = BTreeMap::new();
    for ((table, _), times) in at_ep {
        let Some(&one) = times.get(&1) else {
            continue;
        };
        for (&ep, &t) in times.range(2..) {
            by_table
                .entry(table.clone())
                .or_default()
                .entry(ep)
                .or_default()
                .push(t / one);
        }
    }
    by_table
        .into_iter()
        .map(|(table, by_ep)| {
            let rule = match rules.get(&table).map(Vec::as_slice) {
                Some([one]) => one.name().to_string(),
                Some([_, _, ..]) => "mixed".to_string(),
                _ => RemoteCopies::Skipped.name().to_string(),
            };
            let (system, framework, version, kernel, dtype) = table;
            EpScaling {
                system,
                framework,
                version,
                kernel,
                dtype,
                remote_copies: rule,
                ratios: by_ep
                    .into_iter()
                    .filter_map(|(ep, v)| {
                        Some((ep, rooflinr_model::stats::median(v.clone())?, v.len()))
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The validation of every table.
#[derive(Clone, Debug, Serialize)]
struct Validation {
    rows: usize,
    seconds: f64,
    /// The groups within the accuracy targets ([`targets`]).
    targets: Targets,
    groups: Vec<Group>,
    /// Every held-out row of the fitting frameworks, where asked for (`--residuals`).
    #[serde(skip)]
    residuals: Vec<Residual>,
    skipped: Vec<String>,
    /// NCCL collectives against the deployment model's collective cost.
    collectives: super::collectives::Collectives,
    /// The MoE tables' times across expert parallelism ([`ep_scaling`]).
    ep_scaling: Vec<EpScaling>,
}

/// The kernels `framework`'s rows among `predicted` ran, where one of its tables (one
/// version) dispatched its shapes to more than one, or its kernels tile a MoE's rows
/// differently on `hw` (the framework's profile takes one tiling's rows,
/// [`of_most_rows_tiling`]); each kernel is then also fitted apart, over every version.
/// None otherwise: two versions that each ran one kernel are one framework's releases.
fn kernels_of(predicted: &[(&Row, KernelTimes)], framework: &str, hw: &Hardware) -> Vec<String> {
    let mut kernels: Vec<(&str, &str)> = predicted
        .iter()
        .filter(|(r, _)| r.framework == framework)
        .filter_map(|(r, _)| Some((r.kernel_source.as_deref()?, r.version.as_str())))
        .collect();
    kernels.sort_unstable();
    kernels.dedup();
    let dispatched = kernels
        .iter()
        .any(|(kernel, version)| kernels.iter().any(|(k, v)| v == version && k != kernel));
    let rows: Vec<&Row> = predicted
        .iter()
        .filter(|(r, _)| r.framework == framework)
        .map(|(r, _)| *r)
        .collect();
    if !dispatched && tile_rule(&rows, hw).is_some() {
        return Vec::new();
    }
    let mut names: Vec<String> = kernels
        .into_iter()
        .map(|(kernel, _)| kernel.to_string())
        .collect();
    names.dedup();
    names
}

/// What validating one group (a system, kernel and format) gives.
#[derive(Default)]
struct GroupOutcome {
    skipped: Vec<String>,
    group: Option<Group>,
    residuals: Vec<Residual>,
}

/// Fits `members`' terms and judges them ([`validate`]).
fn validate_group(
    system: String,
    kernel: Kernel,
    dtype: String,
    members: &[&Row],
    keep_residuals: bool,
) -> GroupOutcome {
    let mut out = GroupOutcome::default();
    let mut loads = MoeLoads::default();
    // The registry's own matching of device names, as for the agent and ncu files.
    let device = members.first().map_or("", |r| r.device.as_str());
    let what = format!("{system} {} {dtype}", kernel.name());
    let Some(key) = registry::key_for_device(device, None) else {
        out.skipped.push(format!(
            "{what}: the registry does not list {device} ({} rows)",
            members.len()
        ));
        return out;
    };
    let Ok(hw) = registry::get(key) else {
        return out;
    };
    let mut predicted: Vec<(&Row, KernelTimes)> = Vec::new();
    let mut unpredicted: BTreeMap<&'static str, usize> = BTreeMap::new();
    for r in members {
        match times_with(r, &hw, &mut loads) {
            Ok(t) => predicted.push((*r, t)),
            Err(why) => *unpredicted.entry(why).or_default() += 1,
        }
    }
    for (why, count) in unpredicted {
        out.skipped.push(format!("{what}: {count} rows, {why}"));
    }
    if predicted.is_empty() {
        return out;
    }
    let faster_than_dram = faster_than_dram(&predicted, &hw);
    let mut frameworks: Vec<&str> = predicted
        .iter()
        .map(|(r, _)| r.framework.as_str())
        .collect();
    frameworks.sort_unstable();
    frameworks.dedup();
    let fit_framework = if frameworks.contains(&FIT_FRAMEWORK) {
        FIT_FRAMEWORK.to_string()
    } else {
        frameworks
            .first()
            .map_or_else(String::new, |f| f.to_string())
    };
    // Its newest release's rows where its releases ran different kernels, as every
    // framework's profile is fitted.
    let (fit_rows, fit_release) = of_newest_release(
        predicted
            .iter()
            .filter(|(r, _)| r.framework == fit_framework)
            .collect(),
    );
    let fitting: Vec<(KernelTimes, f64)> = fit_rows
        .iter()
        .filter(|(r, _)| fitting_half(&r.shape))
        .map(|(r, t)| (*t, r.measured_s))
        .collect();
    let terms = KernelTerms::fit(&fitting);
    let tiling = |rows: &[&(&Row, KernelTimes)]| {
        tile_rule(&rows.iter().map(|(r, _)| *r).collect::<Vec<_>>(), &hw)
    };
    let shape = |r: &Row| r.shape.to_string();
    let judge = |held: &[&(&Row, KernelTimes)]| {
        let mut datasheet: Vec<(f64, String)> = held
            .iter()
            .map(|(r, t)| ((t.bound_s() / r.measured_s - 1.0).abs(), shape(r)))
            .collect();
        let mut calibrated: Vec<(f64, String)> = held
            .iter()
            .map(|(r, t)| ((terms.predict(*t) / r.measured_s - 1.0).abs(), shape(r)))
            .collect();
        (errors(&mut datasheet), errors(&mut calibrated))
    };
    let held_out: Vec<&(&Row, KernelTimes)> = fit_rows
        .iter()
        .copied()
        .filter(|(r, _)| !fitting_half(&r.shape))
        .collect();
    if keep_residuals {
        out.residuals.extend(
            held_out
                .iter()
                .map(|(r, t)| Residual::of((key, kernel, &dtype), &fit_framework, (r, *t), &terms)),
        );
    }
    let mut held_out_shapes = Vec::new();
    let (d, c) = judge(&held_out);
    held_out_shapes.push(("all".to_string(), d, c));
    for regime in [Regime::Memory, Regime::Compute, Regime::Fixed] {
        let part: Vec<&(&Row, KernelTimes)> = held_out
            .iter()
            .copied()
            .filter(|(_, t)| terms.regime(*t) == regime)
            .collect();
        if !part.is_empty() {
            let (d, c) = judge(&part);
            held_out_shapes.push((regime.name().to_string(), d, c));
        }
    }
    // The kernel the group's rows run as, by the model crate's own rule. FP8 with
    // 128 x 128 block scales reads as FP8 in the catalogue, whose profile is per-tensor
    // FP8's: it has none of its own.
    let kind = members
        .iter()
        .filter(|r| r.dtype != "fp8_block")
        .find_map(|r| profiled(r));
    let shipped_profile = |framework: &str| {
        let framework = kernel_time::Framework::parse(framework)?;
        kernel_time::profile(key, framework, kind?)
    };
    // Every other framework as a whole (its profile: the product cannot tell which
    // kernel a framework dispatches a shape to), then each kernel of every framework
    // whose table dispatched its shapes to several, judged on the rows the group's
    // terms were not fitted on.
    let whole = frameworks
        .iter()
        .filter(|f| **f != fit_framework)
        .map(|f| (*f, None));
    let by_kernel = frameworks.iter().flat_map(|f| {
        kernels_of(&predicted, f, &hw)
            .into_iter()
            .map(move |source| (*f, Some(source)))
    });
    // A framework's rows as its profile is fitted (its newest release's, of the MoE
    // tiling most of them ran), or one of its kernels' rows.
    let rows_of = |f: &str, source: Option<&str>| {
        let rows_of: Vec<&(&Row, KernelTimes)> = predicted
            .iter()
            .filter(|(r, _)| {
                r.framework == f && (source.is_none() || r.kernel_source.as_deref() == source)
            })
            .collect();
        if source.is_none() {
            let (rows_of, release) = of_newest_release(rows_of);
            (of_most_rows_tiling(rows_of, &hw), release)
        } else {
            (rows_of, None)
        }
    };
    let fit_measured = measured_times(&fit_rows);
    let held_out_measured_elsewhere = frameworks
        .iter()
        .filter(|f| **f != fit_framework)
        .filter_map(|f| {
            let (rows, release) = rows_of(f, None);
            let errs = against_measured(&measured_times(&rows), &held_out);
            (errs.rows > 0).then(|| (framework_label(f, None, release.as_deref()), errs))
        })
        .collect();
    let other_frameworks = whole
        .chain(by_kernel)
        .map(|(f, source): (&str, Option<String>)| {
            let (rows_of, release) = rows_of(f, source.as_deref());
            // Judged on the rows the group's terms were not fitted on.
            let part: Vec<&(&Row, KernelTimes)> = rows_of
                .iter()
                .copied()
                .filter(|(r, _)| !(r.framework == fit_framework && fitting_half(&r.shape)))
                .collect();
            let (datasheet, calibrated) = judge(&part);
            let fit_measured = if f == fit_framework {
                Errors::default()
            } else {
                against_measured(&fit_measured, &part)
            };
            let own_fitting: Vec<(KernelTimes, f64)> = rows_of
                .iter()
                .filter(|(r, _)| fitting_half(&r.shape))
                .map(|(r, t)| (*t, r.measured_s))
                .collect();
            let own_terms = KernelTerms::fit(&own_fitting);
            let own_held: Vec<&(&Row, KernelTimes)> = part
                .iter()
                .copied()
                .filter(|(r, _)| !fitting_half(&r.shape))
                .collect();
            let mut own: Vec<(f64, String)> = own_held
                .iter()
                .map(|(r, t)| ((own_terms.predict(*t) / r.measured_s - 1.0).abs(), shape(r)))
                .collect();
            if keep_residuals {
                let label = framework_label(f, source.as_deref(), release.as_deref());
                out.residuals.extend(own_held.iter().map(|(r, t)| {
                    Residual::of((key, kernel, &dtype), &label, (r, *t), &own_terms)
                }));
            }
            let shipped = if source.is_none() {
                shipped_profile(f)
            } else {
                None
            };
            OtherFramework {
                framework: f.to_string(),
                kernel: source,
                release,
                datasheet,
                calibrated,
                fit_measured,
                own_fit: errors(&mut own),
                fitted_shapes: own_fitting.len(),
                fitted: Fitted::new(own_terms, tiling(&rows_of), &hw, shipped),
            }
        })
        .collect();
    out.group = Some(Group {
        system,
        hardware: key,
        kernel,
        dtype,
        fitted_on: format!(
            "{}, {} shapes",
            framework_label(&fit_framework, None, fit_release.as_deref()),
            fitting.len()
        ),
        fitted: Fitted::new(
            terms,
            tiling(&fit_rows),
            &hw,
            shipped_profile(&fit_framework),
        ),
        framework: fit_framework,
        held_out_shapes,
        held_out_measured_elsewhere,
        other_frameworks,
        faster_than_dram,
        kind,
    });
    out
}

/// Validates `rows`; with `keep_residuals`, keeps every held-out row as predicted.
fn validate(rows: &[Row], keep_residuals: bool) -> Validation {
    let began = Instant::now();
    let mut residuals = Vec::new();
    let mut by_group: BTreeMap<(String, Kernel, String), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by_group
            .entry((r.system.clone(), r.kernel, r.dtype_label()))
            .or_default()
            .push(r);
    }
    let by_group: Vec<_> = by_group.into_iter().collect();
    // Each group is fitted and judged on its own, on every core; the outcomes are kept in
    // the groups' order, so the report is the same on any number of cores.
    let outcomes: Vec<GroupOutcome> = by_group
        .into_par_iter()
        .map(|((system, kernel, dtype), members)| {
            validate_group(system, kernel, dtype, &members, keep_residuals)
        })
        .collect();
    let (mut skipped, mut groups) = (Vec::new(), Vec::new());
    for outcome in outcomes {
        skipped.extend(outcome.skipped);
        groups.extend(outcome.group);
        residuals.extend(outcome.residuals);
    }
    Validation {
        rows: rows.len(),
        seconds: began.elapsed().as_secs_f64(),
        targets: targets(&groups),
        groups,
        residuals,
        skipped,
        collectives: Default::default(),
        ep_scaling: ep_scaling(rows),
    }
}

/// `x` as a Rust float literal of six significant digits (`0.0201323`, `14.1417`, `1.0`).
fn literal(x: f64) -> String {
    if x == f64::INFINITY {
        return "f64::INFINITY".to_string();
    }
    if x == 0.0 || !x.is_finite() {
        return "0.0".to_string();
    }
    let decimals = (5 - x.abs().log10().floor() as i32).max(1) as usize;
    let s = format!("{x:.decimals$}");
    let s = s.trim_end_matches('0');
    if s.ends_with('.') {
        format!("{s}0")
    } else {
        s.to_string()
    }
}

/// The lines of `PROFILES` in `kernel_time/profiles.rs` (its `p(...)` calls): every group
/// with a profile kind, each framework whose own held-out median is at most
/// [`kernel_time::SHIPPED_MEDIAN_ERROR`] and whose fixed time is under
/// [`kernel_time::SHIPPED_MAX_FIXED_S`]. Enum variants are written by their derived
/// `Debug` names, which are the identifiers `profiles.rs` imports.
fn profile_lines(v: &Validation) -> String {
    let mut out = String::new();
    for g in &v.groups {
        let Some(kind) = g.kind else { continue };
        let kernel = match kind {
            Profiled::Gemm { format } => format!("gemm({format:?})"),
            Profiled::Attention { phase, queries, kv } => {
                format!("attention({phase:?}, {queries:?}, {kv:?})")
            }
            Profiled::PerQueryHeadDecode { queries, kv } => {
                format!("per_query_head({queries:?}, {kv:?})")
            }
            Profiled::Mla { phase, queries, kv } => format!("mla({phase:?}, {queries:?}, {kv:?})"),
            Profiled::XqaMlaDecode { queries, kv } => format!("xqa_mla({queries:?}, {kv:?})"),
            Profiled::Moe {
                activations,
                weights,
            } => format!("moe({activations:?}, {weights:?})"),
        };
        let first = g.framework.clone();
        let held = g.held_out_shapes.first().map(|(_, _, c)| c.clone());
        let fits = std::iter::once((first, &g.fitted, held.unwrap_or_default())).chain(
            g.other_frameworks
                .iter()
                // A profile is per framework: none for one of several kernels.
                .filter(|o| o.kernel.is_none())
                .map(|o| (o.framework.clone(), &o.fitted, o.own_fit.clone())),
        );
        for (framework, fitted, held) in fits {
            let Some(framework) = kernel_time::Framework::parse(&framework) else {
                continue;
            };
            if held.rows == 0
                || held.median > kernel_time::SHIPPED_MEDIAN_ERROR
                || fitted.terms.fixed_s >= kernel_time::SHIPPED_MAX_FIXED_S
            {
                continue;
            }
            // A framework whose MoE rows ran kernels of different tilings has no one rule
            // for the product to follow.
            let Some(tiling) = fitted.tiling else {
                continue;
            };
            let t = fitted.terms;
            let terms = [
                t.fixed_s * 1e6,
                t.bandwidth,
                t.compute,
                t.per_wave_s * 1e6,
                t.tile_bandwidth,
                t.l2_bandwidth,
                t.overlap,
            ]
            .map(literal)
            .join(", ");
            let (function, heads) = if t.head_compute == KernelTerms::ROOFLINE.head_compute {
                ("p", String::new())
            } else {
                let widths = t.head_compute.map(literal).join(", ");
                ("ph", format!(" [{widths}],"))
            };
            let quantised = t
                .quantise_bandwidth
                .map_or_else(String::new, |q| format!(".quantised_at({})", literal(q)));
            let quantised_from_l2 = t.quantise_l2_bandwidth.map_or_else(String::new, |q| {
                format!(".quantised_from_l2_at({})", literal(q))
            });
            let steps = if t.quantise_step_s > 0.0 {
                format!(
                    ".quantised_in_steps_of({})",
                    literal(t.quantise_step_s * 1e6)
                )
            } else {
                String::new()
            };
            let writes = t
                .write_bandwidth
                .map_or_else(String::new, |w| format!(".writes_at({})", literal(w)));
            let routes = if t.route_rate.is_finite() {
                format!(".routes_at({})", literal(t.route_rate))
            } else {
                String::new()
            };
            let hidden = if t.hidden_tile_share > 0.0 {
                format!(".walks_hidden_tiles_at({})", literal(t.hidden_tile_share))
            } else {
                String::new()
            };
            let fixed_by_width = if t.head_fixed == KernelTerms::ROOFLINE.head_fixed {
                String::new()
            } else {
                let ratios = t.head_fixed.map(literal).join(", ");
                format!(".fixed_by_head_width([{ratios}])")
            };
            let copies = if t.scale_copy_s > 0.0 {
                format!(".copies_scales_in({})", literal(t.scale_copy_s * 1e6))
            } else {
                String::new()
            };
            let tiles = match tiling {
                MoeTiling::Copies => String::new(),
                tiling => format!(".in_tiles({tiling:?})"),
            };
            let _ = writeln!(
                out,
                "    {function}(\"{}\", {framework:?}, {kernel}, [{terms}],{heads} {:.3}, {:.3}){fixed_by_width}{quantised}{quantised_from_l2}{steps}{writes}{routes}{hidden}{copies}{tiles},",
                g.hardware, held.median, held.p90
            );
        }
    }
    out
}

fn pct(v: f64) -> String {
    format!("{:.0}%", v * 100.0)
}

/// The held-out median a GEMM group is held to.
const GEMM_MEDIAN_TARGET: f64 = 0.10;
/// The held-out p90 a GEMM group is held to.
const GEMM_P90_TARGET: f64 = 0.25;
/// The held-out median an attention, MLA or MoE group is held to.
const OTHER_MEDIAN_TARGET: f64 = 0.15;

/// How many groups are within the accuracy targets, each as (within, of): held-out rows
/// of the fitting framework (GEMM median and p90, attention, MLA and MoE median), and every
/// row of the other frameworks' table, each framework as a whole and each kernel judged
/// apart (its median under the fitting framework's terms and under its own), with the
/// held-out groups outside named.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
struct Targets {
    gemm_medians: (usize, usize),
    gemm_p90s: (usize, usize),
    other_medians: (usize, usize),
    frameworks_under_fit: (usize, usize),
    /// Other frameworks whose rows the fitting framework's own measurements of the same
    /// shapes come within the median target of ([`OtherFramework::fit_measured`]): where
    /// the two ran the same kernel the same way, as far as their timings tell.
    frameworks_measured: (usize, usize),
    /// Of those, the ones the fitting framework's terms come within the target of.
    frameworks_under_fit_where_measured: (usize, usize),
    frameworks_own: (usize, usize),
    /// `device kernel dtype (median / p90)` of each held-out group outside, and other
    /// frameworks' measurements of its shapes where they timed any.
    outside: Vec<String>,
}

fn targets(groups: &[Group]) -> Targets {
    let mut t = Targets::default();
    let count = |tally: &mut (usize, usize), within: bool| {
        tally.0 += usize::from(within);
        tally.1 += 1;
    };
    for g in groups {
        let gemm = g.kernel == Kernel::Gemm;
        let median_target = if gemm {
            GEMM_MEDIAN_TARGET
        } else {
            OTHER_MEDIAN_TARGET
        };
        if let Some((_, _, held)) = g.held_out_shapes.first().filter(|(_, _, e)| e.rows > 0) {
            let median_within = held.median <= median_target;
            let p90_within = !gemm || held.p90 <= GEMM_P90_TARGET;
            if gemm {
                count(&mut t.gemm_medians, median_within);
                count(&mut t.gemm_p90s, p90_within);
            } else {
                count(&mut t.other_medians, median_within);
            }
            if !(median_within && p90_within) {
                let elsewhere: String = g
                    .held_out_measured_elsewhere
                    .iter()
                    .map(|(f, e)| {
                        format!(
                            "; {f}'s measurements of {} of its shapes: {} / {}",
                            e.rows,
                            pct(e.median),
                            pct(e.p90)
                        )
                    })
                    .collect();
                t.outside.push(format!(
                    "{} {} {} ({} / {}{elsewhere})",
                    g.hardware,
                    g.kernel.name(),
                    g.dtype,
                    pct(held.median),
                    pct(held.p90)
                ));
            }
        }
        for o in &g.other_frameworks {
            let within = o.calibrated.median <= median_target;
            if o.calibrated.rows > 0 {
                count(&mut t.frameworks_under_fit, within);
            }
            if o.fit_measured.rows > 0 {
                let alike = o.fit_measured.median <= median_target;
                count(&mut t.frameworks_measured, alike);
                if alike {
                    count(&mut t.frameworks_under_fit_where_measured, within);
                }
            }
            if o.own_fit.rows > 0 {
                count(&mut t.frameworks_own, o.own_fit.median <= median_target);
            }
        }
    }
    t
}

fn markdown(v: &Validation) -> String {
    let mut out = String::from(
        "# Predictions against NVIDIA's measured kernel tables\n\nError = |predicted / measured - 1| on rows the terms were not fitted on. Datasheet: the roofline bound (a GEMM's compute over the tiles it computes, padding and the last round of its split K loops included; prefill attention's over whole tiles of 64 queries (128 for vLLM's kernels on sm_100 and sm_103) by 128 keys (32 on sm_80 to sm_89 and sm_120); a TRT-LLM-Gen MoE kernel's over whole tiles of rows per expert). Calibrated: the bound with the fitted kernel terms (fixed time, bandwidth and compute fractions, latency per wave of blocks, the rate one output tile or decode block streams at, the rate the L2 serves re-reads at, the overlap of memory and compute, the compute fraction of each prefill attention head width, the rate of a MoE layer's routing pass over every token's copies, the rate of an FP8 or FP4 kernel's activation quantisation pass, from the DRAM and from the L2, where it is not the kernel's own, or its step's latency where it runs a block per token (vLLM's FP8), the rate a GEMM writes its output and a MoE layer moves its token traffic at where it is not the operands'; tile efficiency computed; whole tiles and the rows past M read, at the bandwidth fraction, where the kernel's tile is known: TensorRT-LLM's block-scaled FP8 GEMM and vLLM's and SGLang's FP8 GEMMs on Hopper).\n",
    );
    let t = &v.targets;
    let _ = write!(
        out,
        "\n## Against the targets\n\nGroups within them: held-out rows of the fitting framework (GEMM median <= 10 % and p90 <= 25 %; attention, MLA and MoE median <= 15 %), and every row of the other frameworks' table, each framework as a whole and each kernel judged apart (median, under the fitting framework's terms and under its own). The fitting framework's own measurements of the same shapes, taken as the prediction, are what terms that fitted its table exactly would score on another's: where they are outside, the two frameworks ran different kernels or timed them differently.\n\n| targets | within | groups |\n| --- | ---: | ---: |\n| GEMM median | {} | {} |\n| GEMM p90 | {} | {} |\n| attention, MLA and MoE median | {} | {} |\n| other frameworks, fitting framework's terms | {} | {} |\n| other frameworks, fitting framework's measurements of the same shapes | {} | {} |\n| other frameworks, fitting framework's terms, where its measurements are within | {} | {} |\n| other frameworks, own terms | {} | {} |\n\nHeld-out groups outside: {}.\n",
        t.gemm_medians.0,
        t.gemm_medians.1,
        t.gemm_p90s.0,
        t.gemm_p90s.1,
        t.other_medians.0,
        t.other_medians.1,
        t.frameworks_under_fit.0,
        t.frameworks_under_fit.1,
        t.frameworks_measured.0,
        t.frameworks_measured.1,
        t.frameworks_under_fit_where_measured.0,
        t.frameworks_under_fit_where_measured.1,
        t.frameworks_own.0,
        t.frameworks_own.1,
        if t.outside.is_empty() {
            "none".to_string()
        } else {
            t.outside.join(", ")
        }
    );
    out.push_str(
        "\n## Held-out shapes (same framework as the fit)\n\n| device | kernel | dtype | regime | rows | datasheet median | p90 | calibrated median | p90 | worst | worst shape |\n| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
    );
    for g in &v.groups {
        for (regime, d, c) in &g.held_out_shapes {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {regime} | {} | {} | {} | {} | {} | {} | {} |",
                g.hardware,
                g.kernel.name(),
                g.dtype,
                c.rows,
                pct(d.median),
                pct(d.p90),
                pct(c.median),
                pct(c.p90),
                pct(c.worst),
                c.worst_shape
            );
        }
    }
    out += "\n## Other frameworks (terms fitted on the first framework's shapes; own fit: fitted on half of the framework's own shapes, judged on the other half; the first framework's measurements: its measured time of the same shape as the prediction, on the rows whose shape it timed)\n\n| device | kernel | dtype | framework | rows | datasheet median | p90 | calibrated median | p90 | first framework's measurements: rows | median | p90 | own fit median | p90 |\n| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    for g in &v.groups {
        for o in &g.other_frameworks {
            let measured = |x: f64| {
                if o.fit_measured.rows > 0 {
                    pct(x)
                } else {
                    "-".to_string()
                }
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                g.hardware,
                g.kernel.name(),
                g.dtype,
                o.label(),
                o.calibrated.rows,
                pct(o.datasheet.median),
                pct(o.datasheet.p90),
                pct(o.calibrated.median),
                pct(o.calibrated.p90),
                o.fit_measured.rows,
                measured(o.fit_measured.median),
                measured(o.fit_measured.p90),
                pct(o.own_fit.median),
                pct(o.own_fit.p90)
            );
        }
    }
    out += "\n## Rows faster than the DRAM allows\n\nRows measured more than 2 % faster than the DRAM can serve the bytes the model counts for their shape, less all the L2 can hold from a previous run (datasheet bandwidth and L2 size): no reuse explains them, so the table's labels or the model's count of the kernel's bytes are wrong for them. Devices whose L2 size is not published are left out.\n\n| device | kernel | dtype | framework | rows | faster | fastest (measured / floor) | its shape |\n| --- | --- | --- | --- | ---: | ---: | ---: | --- |\n";
    for g in &v.groups {
        for f in &g.faster_than_dram {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {:.2} | {} |",
                g.hardware,
                g.kernel.name(),
                g.dtype,
                f.framework,
                f.rows,
                f.faster,
                f.fastest,
                f.fastest_shape
            );
        }
    }
    if v.groups.iter().all(|g| g.faster_than_dram.is_empty()) {
        out += "| none | | | | | | | |\n";
    }
    out += "\n## Fitted terms\n\n| device | kernel | dtype | fitted on | fixed time | bandwidth reached | peak reached on full tiles | by head width | latency per wave | one tile streams | L2 serves re-reads | memory and compute overlap | MoE routing pass | activation quantisation | activations written | tile the window hides | shipped profile |\n| --- | --- | --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
    for g in &v.groups {
        let _ = writeln!(out, "{}", g.fitted.row(g, &g.fitted_on));
        for o in &g.other_frameworks {
            let fitted_on = format!("{}, {} shapes", o.label(), o.fitted_shapes);
            let _ = writeln!(out, "{}", o.fitted.row(g, &fitted_on));
        }
    }
    out += "\n## MoE times across expert parallelism\n\nTime at each EP over the time at EP 1 (median over shapes alike but for their EP, 2,048 tokens and more; shapes in brackets). A layer that skips the other ranks' routed copies takes about 1 / EP; one that multiplies every copy about 1. Remote copies: how `validate` reads the table.\n\n| device | framework | version | kernel | dtype | remote copies | EP 2 | EP 4 | EP 8 | EP 16 |\n| --- | --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: |\n";
    for e in &v.ep_scaling {
        let at = |ep: u64| {
            e.ratios
                .iter()
                .find(|(x, _, _)| *x == ep)
                .map_or_else(|| "-".to_string(), |(_, r, n)| format!("{r:.2} ({n})"))
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            e.system,
            e.framework,
            e.version,
            e.kernel.as_deref().unwrap_or("-"),
            e.dtype,
            e.remote_copies,
            at(2),
            at(4),
            at(8),
            at(16)
        );
    }
    for s in &v.skipped {
        let _ = writeln!(out, "\nskipped: {s}");
    }
    out += &super::collectives::markdown(&v.collectives);
    let _ = writeln!(out, "\n{} rows validated in {:.2} s.", v.rows, v.seconds);
    out
}

/// Reads the tables, validates, prints.
pub fn run(args: Args) -> Result<()> {
    if let Some(sample) = &args.serving {
        return super::serving_fit::run(
            sample,
            args.json,
            args.fit,
            args.check,
            args.errors,
            args.runs,
        );
    }
    let Some(tables) = &args.tables else {
        bail!("give --tables DIR (or --serving FILE)");
    };
    let Tables { rows, left_out } = read_tables(tables)?;
    let mut v = validate(&rows, args.residuals.is_some());
    v.skipped.extend(left_out);
    v.collectives = super::collectives::validate(tables)?;
    if let Some(path) = &args.residuals {
        let mut csv = String::from(Residual::HEADER);
        csv.push('\n');
        for r in &v.residuals {
            csv += &r.csv();
            csv.push('\n');
        }
        std::fs::write(path, csv).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        super::print_json(&v)?;
    } else if args.profiles {
        println!("// kernel_time/profiles.rs, PROFILES:");
        print!("{}", profile_lines(&v));
        println!("// deploy/measured.rs, COLLECTIVE_PROFILES:");
        print!("{}", super::collectives::profile_lines(&v.collectives));
    } else {
        print!("{}", markdown(&v));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(dtype: &str, m: u64, n: u64, k: u64, measured_s: f64) -> Row {
        Row {
            system: "h100_sxm".into(),
            device: "NVIDIA H100 80GB HBM3".into(),
            framework: FIT_FRAMEWORK.into(),
            kernel: Kernel::Gemm,
            dtype: dtype.into(),
            kv_dtype: None,
            version: "1.0".into(),
            kernel_source: None,
            shape: Shape::Gemm { m, n, k },
            measured_s,
            sm: Some(90),
        }
    }

    fn decode(batch: u64, step: u64, kv: &str, window: u64) -> Row {
        Row {
            kernel: Kernel::GenerationAttention,
            kv_dtype: Some(kv.into()),
            shape: Shape::Attention {
                batch,
                isl: 1,
                step,
                heads: 32,
                kv_heads: 8,
                head_dim: 128,
                window,
            },
            ..row("bfloat16", 0, 0, 0, 1e-4)
        }
    }

    /// vLLM's and SGLang's prefill attention ops write the new keys and values into the
    /// cache apart, read in BF16 and written in the cache's format; TensorRT-LLM's, and
    /// every decode op, are not counted so.
    #[test]
    fn vllm_and_sglang_prefill_write_the_new_keys_and_values_apart() {
        let h100 = registry::get("h100-sxm").unwrap();
        let prefill = |framework: &str, kernel: Kernel, kv: &str| Row {
            framework: framework.into(),
            kernel,
            kv_dtype: Some(kv.into()),
            shape: Shape::Attention {
                batch: 2,
                isl: 1024,
                step: 0,
                heads: 32,
                kv_heads: 8,
                head_dim: 128,
                window: 0,
            },
            ..row("bfloat16", 0, 0, 0, 1e-4)
        };
        let memory = |framework: &str, kernel: Kernel, kv: &str| {
            times(&prefill(framework, kernel, kv), &h100)
                .unwrap()
                .memory_s
        };
        let bandwidth = h100.memory_bandwidth.value.get();
        // 2 x 1024 tokens x 8 KV heads x 256 (keys and values) elements.
        let elements = 2.0 * 1024.0 * 8.0 * 256.0;
        for (kv, bytes) in [("bfloat16", 4.0), ("fp8", 3.0)] {
            let trtllm = memory("TRTLLM", Kernel::ContextAttention, kv);
            for framework in ["VLLM", "SGLang"] {
                let written = memory(framework, Kernel::ContextAttention, kv) - trtllm;
                // Within FP8's few bytes of tensor scale.
                let ratio = written * bandwidth / (elements * bytes);
                assert!((ratio - 1.0).abs() < 1e-5, "{framework} {kv}: {ratio}");
            }
        }
        let decode = |framework| memory(framework, Kernel::GenerationAttention, "bfloat16");
        assert_eq!(decode("VLLM"), decode("TRTLLM"));
    }

    /// vLLM's DeepGEMM path lays the activations' scales out again where M is not a
    /// multiple of 4; its other kernels and other frameworks never do.
    #[test]
    fn vllms_deepgemm_copies_the_scales_of_an_unaligned_m() {
        let b200 = registry::get("b200").unwrap();
        let gemm = |framework: &str, source: &str, m: u64| {
            let row = Row {
                system: "b200_sxm".into(),
                device: "NVIDIA B200".into(),
                framework: framework.into(),
                kernel_source: Some(source.into()),
                sm: Some(100),
                ..row("fp8_block", m, 4096, 4096, 2e-4)
            };
            times(&row, &b200).unwrap().scale_copies
        };
        for m in [1, 2, 3, 5, 17, 129] {
            assert_eq!(gemm("VLLM", VLLM_DEEPGEMM, m), 1.0, "M = {m}");
        }
        for m in [4, 8, 16, 128, 4096] {
            assert_eq!(gemm("VLLM", VLLM_DEEPGEMM, m), 0.0, "M = {m}");
        }
        assert_eq!(gemm("VLLM", "CutlassFp8BlockScaledMMKernel", 5), 0.0);
        assert_eq!(gemm("SGLang", VLLM_DEEPGEMM, 5), 0.0);
    }

    /// SGLang's Triton prefill kernel walks every causal key tile under a sliding window;
    /// its other kernels, and TensorRT-LLM's, start past the hidden ones. The tiles it
    /// walks hidden are counted apart from those it computes, and a fit over rows of both
    /// kinds finds what a hidden tile costs.
    #[test]
    fn sglangs_triton_prefill_walks_the_tiles_its_window_hides() {
        let b200 = registry::get("b200").unwrap();
        let prefill = |source: &str, isl: u64, window: u64| Row {
            system: "b200_sxm".into(),
            device: "NVIDIA B200".into(),
            framework: "SGLang".into(),
            kernel: Kernel::ContextAttention,
            kv_dtype: Some("bfloat16".into()),
            kernel_source: Some(source.into()),
            shape: Shape::Attention {
                batch: 1,
                isl,
                step: 0,
                heads: 32,
                kv_heads: 8,
                head_dim: 128,
                window,
            },
            sm: Some(100),
            ..row("bfloat16", 0, 0, 0, 1e-4)
        };
        let full = times(&prefill("triton", 16384, 0), &b200).unwrap();
        let windowed = times(&prefill("triton", 16384, 128), &b200).unwrap();
        // 128 of 16,384 keys: the window computes a sliver of the causal tiles, and the
        // rest are walked hidden.
        assert!(
            windowed.compute_s < 0.05 * full.compute_s,
            "{windowed:?} {full:?}"
        );
        let walked = windowed.compute_s + windowed.hidden_tiles_s;
        assert!(
            (walked / full.compute_s - 1.0).abs() < 1e-9,
            "{windowed:?} {full:?}"
        );
        assert_eq!(full.hidden_tiles_s, 0.0);
        // FlashInfer's kernel starts past them.
        let flashinfer = times(&prefill("flashinfer", 16384, 128), &b200).unwrap();
        assert_eq!(flashinfer.hidden_tiles_s, 0.0);
        assert_eq!(flashinfer.compute_s, windowed.compute_s);
        // Rows timed as if a hidden tile cost half a computed one: the fit finds a half.
        let truth = KernelTerms {
            fixed_s: 10e-6,
            bandwidth: 0.8,
            compute: 0.4,
            hidden_tile_share: 0.5,
            ..KernelTerms::ROOFLINE
        };
        let samples: Vec<(KernelTimes, f64)> = [1024, 2048, 4096, 8192, 16384]
            .into_iter()
            .flat_map(|isl| [0, 128, 1024].map(|window| prefill("triton", isl, window)))
            .map(|r| {
                let t = times(&r, &b200).unwrap();
                (t, truth.predict(t))
            })
            .collect();
        let fitted = KernelTerms::fit(&samples);
        assert_eq!(fitted.hidden_tile_share, 0.5, "{fitted:?}");
    }

    /// NVIDIA's tables time each GEMM in a loop over copies of its operands, so what the
    /// loop's previous runs left in the L2 is read from it ([`gemm_loop`]).
    #[test]
    fn gemms_are_timed_with_what_their_loop_left_in_the_l2() {
        let l40s = registry::get("l40s").unwrap();
        let on = |framework: &str, m, n, k, hw: &Hardware| {
            let row = Row {
                framework: framework.into(),
                ..row("bfloat16", m, n, k, 1e-4)
            };
            times(&row, hw).unwrap().l2_share
        };
        // TensorRT-LLM on the L40S (96 MiB of L2). 67 MB of input and 0.5 MB of weights in
        // five copies: one run and the loop fit, everything is found.
        assert_eq!(on("TRTLLM", 4096, 32, 8192, &l40s), 1.0);
        // 134 MB of input: past the L2.
        assert_eq!(on("TRTLLM", 8192, 32, 8192, &l40s), 0.0);
        // 5120 x 4096 weights (41.9 MB) in three copies pass the L2: only the input and
        // output (18 KB of 41.9 MB) are found.
        let weights_cold = on("TRTLLM", 1, 5120, 4096, &l40s);
        assert!(weights_cold > 0.0 && weights_cold < 1e-3, "{weights_cold}");
        // 4096 x 4096 weights (32 MiB) in three copies fill the L2 exactly, the 16 KB of
        // input and output just past it: nearly all is found.
        let filled = on("TRTLLM", 1, 4096, 4096, &l40s);
        assert!(filled > 0.99 && filled < 1.0, "{filled}");
        // 2048 x 2048 weights (8.4 MB) in five copies fit.
        assert_eq!(on("TRTLLM", 1, 2048, 2048, &l40s), 1.0);
        // SGLang's loop rotates six copies of the input too: 6 x 68 MB is past the L2.
        assert_eq!(on("SGLang", 4096, 32, 8192, &l40s), 0.0);
        // H100's tables (50 MiB of L2): one run of the first shape no longer fits.
        let h100 = registry::get("h100-sxm").unwrap();
        assert_eq!(on("TRTLLM", 4096, 32, 8192, &h100), 0.0);
    }

    /// MLA rows are the analysis's own latent attention: decode absorbed over the
    /// 576-wide latent cache in the cache's format (one shared head), prefill expanded
    /// (192-wide keys, 128-wide values, in the activation format); `num_heads` is the GPU's.
    #[test]
    fn mla_rows_are_the_analysis_latent_attention() {
        let mla_row = |kernel, heads, tp| Row {
            kernel,
            dtype: "bfloat16".into(),
            kv_dtype: Some("fp8".into()),
            shape: Shape::Mla {
                batch: 64,
                isl: 4000,
                step: 96,
                heads,
                tp,
            },
            ..row("bfloat16", 0, 0, 0, 1e-4)
        };
        let (shape, precision) = mla(&mla_row(Kernel::GenerationMla, 16, 8)).unwrap();
        assert_eq!((shape.heads, shape.kv_heads), (16.0, 1.0));
        assert_eq!((shape.qk_dim, shape.v_dim), (576.0, 512.0));
        assert_eq!((shape.q_len, shape.kv_len), (1.0, 4096.0));
        assert!(shape.shared_kv);
        assert_eq!(precision.kv, Format::Fp8E4m3);
        let (shape, precision) = mla(&mla_row(Kernel::ContextMla, 128, 1)).unwrap();
        assert_eq!((shape.heads, shape.kv_heads), (128.0, 128.0));
        assert_eq!((shape.qk_dim, shape.v_dim), (192.0, 128.0));
        assert_eq!((shape.q_len, shape.kv_len), (4000.0, 4000.0));
        assert!(!shape.shared_kv);
        assert_eq!(precision.kv, Format::Bf16);
        // The analysis of DeepSeek-V3 decode costs its attention with the same shape.
        let config = rooflinr_model::presets::get("deepseek-v3").unwrap();
        let scenario = rooflinr_model::analysis::Scenario {
            phase: rooflinr_model::analysis::Phase::Decode,
            batch: 64,
            seq: 4096,
            precision: Precision {
                kv: Format::Fp8E4m3,
                ..Precision::uniform(Format::Bf16)
            },
            attention: rooflinr_model::analysis::AttentionKernel::Fused,
            quantize_embeddings: false,
        };
        let a = rooflinr_model::analysis::analyze(
            &config,
            &registry::get("h100-sxm").unwrap(),
            &scenario,
            &Efficiency::IDEAL,
        )
        .unwrap();
        let attention = a
            .ops
            .iter()
            .find(|o| o.id == rooflinr_model::analysis::OpId::Attention)
            .unwrap();
        let (decode, _) = mla(&mla_row(Kernel::GenerationMla, 128, 1)).unwrap();
        assert_eq!(attention.op, Op::FusedAttention(decode));
        // TensorRT-LLM's decode rows at 128 heads with an FP8 cache on sm_120 ran XQA's MLA
        // kernel: a group and a profile of their own. At 64 heads, or on the H100, not.
        let mut sm120 = mla_row(Kernel::GenerationMla, 128, 1);
        sm120.sm = Some(120);
        assert!(sm120.xqa_mla());
        assert_eq!(sm120.dtype_label(), "bfloat16, KV fp8, XQA's MLA kernel");
        assert_eq!(
            profiled(&sm120),
            Some(Profiled::XqaMlaDecode {
                queries: Format::Bf16,
                kv: Format::Fp8E4m3
            })
        );
        let mut half = mla_row(Kernel::GenerationMla, 64, 2);
        half.sm = Some(120);
        assert!(!half.xqa_mla());
        assert_eq!(half.dtype_label(), "bfloat16, KV fp8");
        assert!(!mla_row(Kernel::GenerationMla, 128, 1).xqa_mla());
    }

    #[test]
    fn tables_map_to_registry_devices_and_formats() {
        // The device names the tables hold, matched by the registry's one rule.
        for (device, key) in [
            ("NVIDIA A100-SXM4-80GB", Some("a100-sxm")),
            ("NVIDIA H100 80GB HBM3", Some("h100-sxm")),
            ("NVIDIA H200", Some("h200")),
            ("NVIDIA B200", Some("b200")),
            ("NVIDIA GB200", Some("gb200")),
            ("NVIDIA L40S", Some("l40s")),
            ("NVIDIA B300 SXM6 AC", Some("b300")),
            ("NVIDIA GB300", Some("gb300")),
        ] {
            assert_eq!(registry::key_for_device(device, None), key, "{device}");
        }
        assert_eq!(formats("int8_wo"), Some((Format::Bf16, Format::Int8)));
        assert_eq!(formats("mxfp6"), None);
    }

    #[test]
    fn the_datasheet_times_are_the_roofline_of_the_gemm() {
        let hw = registry::get("h100-sxm").unwrap();
        // 8192^3 BF16: compute-bound; 2 x 8192^3 FLOPs over the dense BF16 peak, over the
        // tile efficiency (4096 tiles are 31.03 waves on 132 SMs).
        let t = times(&row("bfloat16", 8192, 8192, 8192, 1e-3), &hw).unwrap();
        let peak = hw
            .ceiling(rooflinr_model::format::Math::Bf16, false)
            .peak
            .get();
        let bare = 2.0 * 8192f64.powi(3) / peak;
        assert!(t.compute_s >= bare && t.compute_s < bare * 1.2, "{t:?}");
        assert!(t.memory_s < t.compute_s);
        // A GEMV-shaped row is memory-bound: 8192 x 8192 BF16 weights over the bandwidth.
        let g = times(&row("bfloat16", 1, 8192, 8192, 1e-4), &hw).unwrap();
        let bytes = 8192.0 * 8192.0 * 2.0;
        let bw = hw.memory_bandwidth.value.get();
        assert!(g.memory_s > bytes / bw && g.memory_s < bytes / bw * 1.01);
    }

    #[test]
    fn held_out_rows_are_judged_by_terms_fitted_without_them() {
        let hw = registry::get("h100-sxm").unwrap();
        // Rows made by known terms: the calibrated error on held-out shapes is small,
        // the datasheet's is what the terms add.
        let truth = KernelTerms {
            fixed_s: 5e-6,
            bandwidth: 0.8,
            compute: 0.7,
            per_wave_s: 0.0,
            tile_bandwidth: 1.0,
            l2_bandwidth: f64::INFINITY,
            overlap: f64::INFINITY,
            ..KernelTerms::ROOFLINE
        };
        let mut rows = Vec::new();
        for m in [1u64, 8, 64, 512, 4096] {
            for n in [1024u64, 4096, 8192, 16384] {
                for k in [1024u64, 4096, 8192] {
                    let mut r = row("bfloat16", m, n, k, 0.0);
                    r.measured_s = truth.predict(times(&r, &hw).unwrap());
                    rows.push(r);
                }
            }
        }
        // Another framework's kernels with a fixed time eight times longer: judged by the
        // first framework's terms, and by its own fitted on half its shapes.
        let slower = KernelTerms {
            fixed_s: 40e-6,
            ..truth
        };
        let first = rows.len();
        for i in 0..first {
            let mut r = rows[i].clone();
            r.framework = "VLLM".into();
            r.measured_s = slower.predict(times(&r, &hw).unwrap());
            rows.push(r);
        }
        let v = validate(&rows, true);
        let g = &v.groups[0];
        let other = &g.other_frameworks[0];
        assert_eq!(other.framework, "VLLM");
        // `--residuals`: every held-out row as predicted, the fitting framework's with its
        // terms, the other's with its own fit. Their errors are the ones the tables
        // summarise.
        let worst_of = |framework: &str| {
            let of: Vec<&Residual> = v
                .residuals
                .iter()
                .filter(|r| r.framework == framework)
                .collect();
            let worst = of
                .iter()
                .map(|r| (r.calibrated_s / r.measured_s - 1.0).abs())
                .fold(0.0, f64::max);
            (of.len(), worst)
        };
        let held = &g.held_out_shapes[0].2;
        let (rows, worst) = worst_of("TRTLLM");
        assert_eq!(rows, held.rows);
        assert!((worst - held.worst).abs() < 1e-12, "{worst} {held:?}");
        let (rows, worst) = worst_of("VLLM");
        assert_eq!(rows, other.own_fit.rows);
        assert!(
            (worst - other.own_fit.worst).abs() < 1e-12,
            "{worst} {other:?}"
        );
        assert_eq!(v.residuals.len(), held.rows + other.own_fit.rows);
        for r in &v.residuals {
            assert!(r.datasheet_s < r.measured_s, "{r:?}");
            let line = r.csv();
            let start = format!("h100-sxm,\"{}\",GEMM,\"bfloat16\",\"", r.framework);
            assert!(line.starts_with(&start), "{line}");
            assert_eq!(line.split(',').count(), Residual::HEADER.split(',').count());
        }
        assert!(other.calibrated.median > 0.3, "{other:?}");
        assert!(other.own_fit.median < 0.02, "{other:?}");
        assert!((other.fitted.fixed_us - 40.0).abs() < 4.0, "{other:?}");
        let (_, datasheet, calibrated) = &g.held_out_shapes[0];
        assert!(calibrated.rows > 10 && calibrated.rows < first);
        assert!(calibrated.median < 0.02, "{calibrated:?}");
        assert!(datasheet.median > 0.15, "{datasheet:?}");
        assert!((g.fitted.fixed_us - 5.0).abs() < 0.5, "{g:?}");
        let md = markdown(&v);
        assert!(md.contains("| h100-sxm | GEMM | bfloat16 | all |"), "{md}");
        // The group meets its targets; vLLM's slower kernels miss the median under
        // TensorRT-LLM's terms and meet it under their own.
        assert_eq!(
            targets(&v.groups),
            Targets {
                gemm_medians: (1, 1),
                gemm_p90s: (1, 1),
                other_medians: (0, 0),
                frameworks_under_fit: (0, 1),
                // TensorRT-LLM's own timings of vLLM's shapes miss them too: the two
                // ran different kernels.
                frameworks_measured: (0, 1),
                frameworks_under_fit_where_measured: (0, 0),
                frameworks_own: (1, 1),
                outside: Vec::new(),
            }
        );
        assert_eq!(v.targets, targets(&v.groups));
        assert!(md.contains("| GEMM median | 1 | 1 |"), "{md}");
        assert!(md.contains("Held-out groups outside: none."), "{md}");
        // A held-out p90 over 25 % puts the group outside, named with its figures.
        let mut worse = v.groups.clone();
        worse[0].held_out_shapes[0].2.p90 = 0.3;
        let t = targets(&worse);
        assert_eq!((t.gemm_medians, t.gemm_p90s), ((1, 1), (0, 1)));
        assert_eq!(t.outside.len(), 1);
        // With how far vLLM's timings of its held-out shapes are from its own.
        let elsewhere = &worse[0].held_out_measured_elsewhere;
        assert_eq!(elsewhere.len(), 1);
        assert_eq!(elsewhere[0].1.rows, calibrated.rows);
        assert!(
            t.outside[0].starts_with("h100-sxm GEMM bfloat16 (")
                && t.outside[0].contains("/ 30%; VLLM's measurements of ")
                && t.outside[0].ends_with(&format!(
                    "{} of its shapes: {} / {})",
                    calibrated.rows,
                    pct(elsewhere[0].1.median),
                    pct(elsewhere[0].1.p90)
                )),
            "{t:?}"
        );
        // Both frameworks' fits pass the shipping rule: one profile line each.
        let lines = profile_lines(&v);
        assert_eq!(lines.lines().count(), 2, "{lines}");
        let fixed_us = |framework: &str| -> f64 {
            lines
                .split(&format!("p(\"h100-sxm\", {framework}, gemm(Bf16), ["))
                .nth(1)
                .and_then(|rest| rest.split(',').next())
                .and_then(|fixed| fixed.parse().ok())
                .unwrap_or_else(|| panic!("no {framework} line in {lines}"))
        };
        assert!(
            lines.starts_with("    p(\"h100-sxm\", TensorRtLlm,"),
            "{lines}"
        );
        assert!((fixed_us("TensorRtLlm") - 5.0).abs() < 0.5, "{lines}");
        assert!((fixed_us("Vllm") - 40.0).abs() < 4.0, "{lines}");
    }

    /// Another framework's rows are held against the fitting framework's own timings of
    /// the same shapes, and the fitting framework's held-out rows against theirs: how far
    /// apart two tables are with no model between them.
    #[test]
    fn other_frameworks_are_held_against_the_fitting_frameworks_measurements() {
        let hw = registry::get("h100-sxm").unwrap();
        let truth = KernelTerms {
            fixed_s: 5e-6,
            bandwidth: 0.8,
            compute: 0.7,
            ..KernelTerms::ROOFLINE
        };
        let mut rows = Vec::new();
        for m in [1u64, 8, 64, 512, 4096] {
            for n in [1024u64, 4096, 8192] {
                for k in [1024u64, 4096] {
                    let mut r = row("bfloat16", m, n, k, 0.0);
                    r.measured_s = truth.predict(times(&r, &hw).unwrap());
                    rows.push(r);
                }
            }
        }
        let first = rows.len();
        for i in 0..first {
            // vLLM timed every shape as TensorRT-LLM did; SGLang took twice as long.
            let mut alike = rows[i].clone();
            alike.framework = "VLLM".into();
            rows.push(alike);
            let mut slower = rows[i].clone();
            slower.framework = "SGLang".into();
            slower.measured_s *= 2.0;
            rows.push(slower);
        }
        // A shape only SGLang timed has nothing to be held against.
        let mut only_sglang = row("bfloat16", 3, 1024, 1024, 1e-5);
        only_sglang.framework = "SGLang".into();
        rows.push(only_sglang);
        let v = validate(&rows, false);
        let g = &v.groups[0];
        let other = |label: &str| {
            g.other_frameworks
                .iter()
                .find(|o| o.label() == label)
                .unwrap()
        };
        assert_eq!(other("VLLM").fit_measured.rows, first);
        assert_eq!(other("VLLM").fit_measured.worst, 0.0);
        // Every shared SGLang row: 1 x its time predicted for 2 x.
        let sglang = &other("SGLang").fit_measured;
        assert_eq!(sglang.rows, first, "{sglang:?}");
        assert_eq!((sglang.median, sglang.worst), (0.5, 0.5));
        let held = g.held_out_shapes[0].2.rows;
        let elsewhere: Vec<(&str, usize, f64)> = g
            .held_out_measured_elsewhere
            .iter()
            .map(|(f, e)| (f.as_str(), e.rows, e.median))
            .collect();
        assert_eq!(elsewhere, [("SGLang", held, 1.0), ("VLLM", held, 0.0)]);
        // vLLM's timings are within the target of TensorRT-LLM's, and so are the terms
        // fitted on TensorRT-LLM's; SGLang's are not.
        assert_eq!(v.targets.frameworks_measured, (1, 2));
        assert_eq!(v.targets.frameworks_under_fit_where_measured, (1, 1));
        let md = markdown(&v);
        assert!(
            md.contains(
                "| other frameworks, fitting framework's measurements of the same shapes | 1 | 2 |"
            ),
            "{md}"
        );
    }

    /// vLLM dispatches block-scaled FP8 by shape to FlashInfer's, DeepGEMM's or CUTLASS's
    /// kernel, whose fixed times differ threefold: each is fitted and judged apart, and none
    /// makes a profile (a profile is per framework).
    #[test]
    fn a_framework_that_ran_several_kernels_is_fitted_per_kernel() {
        let hw = registry::get("h100-sxm").unwrap();
        let trtllm = KernelTerms {
            fixed_s: 5e-6,
            bandwidth: 0.8,
            compute: 0.7,
            ..KernelTerms::ROOFLINE
        };
        let kernels = [("FlashInferKernel", 60e-6), ("DeepGemmKernel", 90e-6)];
        let mut rows = Vec::new();
        for m in [1u64, 8, 16, 64, 512, 4096] {
            for n in [1024u64, 4096, 8192, 16384] {
                for k in [1024u64, 4096, 8192] {
                    let mut r = row("bfloat16", m, n, k, 0.0);
                    r.measured_s = trtllm.predict(times(&r, &hw).unwrap());
                    rows.push(r.clone());
                    // Two releases of another framework, each with a kernel of its own
                    // name: the framework is judged on its newest release's.
                    let mut release = r.clone();
                    release.framework = "SGLang".into();
                    release.version = ["0.5.6", "0.5.14"][usize::from(n > 4096)].into();
                    release.kernel_source = Some(format!("sglang-{}", release.version));
                    rows.push(release);
                    // Small M on one kernel, the rest on the other, as vLLM dispatches.
                    let (kernel, fixed_s) = kernels[usize::from(m > 16)];
                    r.framework = "VLLM".into();
                    r.kernel_source = Some(kernel.into());
                    r.measured_s =
                        KernelTerms { fixed_s, ..trtllm }.predict(times(&r, &hw).unwrap());
                    rows.push(r);
                }
            }
        }
        let v = validate(&rows, false);
        let others = &v.groups[0].other_frameworks;
        let labels: Vec<String> = others.iter().map(OtherFramework::label).collect();
        assert_eq!(
            labels,
            [
                "SGLang 0.5.14",
                "VLLM",
                "VLLM (DeepGemmKernel)",
                "VLLM (FlashInferKernel)"
            ],
            "{others:?}"
        );
        // Each kernel apart: its own fixed time. As one, the two pull one fit apart: its
        // tail misses by far more than either kernel's own fit.
        assert!(others[1].own_fit.p90 > 0.1, "{others:?}");
        for (o, fixed_us) in others
            .iter()
            .zip([5.0, 75.0, 90.0, 60.0])
            .skip(2)
            .chain(others.iter().zip([5.0, 0.0, 0.0, 0.0]).take(1))
        {
            assert!(o.own_fit.median < 0.02, "{o:?}");
            assert!((o.fitted.fixed_us - fixed_us).abs() < 6.0, "{o:?}");
        }
        assert!(markdown(&v).contains("| VLLM (FlashInferKernel) |"));
        // Profile lines are per framework, none per kernel.
        let lines = profile_lines(&v);
        assert_eq!(lines.lines().count(), 3, "{lines}");
        assert_eq!(lines.matches("Vllm").count(), 1, "{lines}");
    }

    #[test]
    fn profile_figures_are_float_literals_of_six_digits() {
        assert_eq!(literal(0.020_132_34), "0.0201323");
        assert_eq!(literal(14.141_67), "14.1417");
        assert_eq!(literal(1.0), "1.0");
        assert_eq!(literal(0.0), "0.0");
        assert_eq!(literal(0.5), "0.5");
    }

    #[test]
    fn decode_attention_reads_its_kv_cache_in_the_cache_format() {
        let hw = registry::get("h100-sxm").unwrap();
        // 64 sequences of 4096 tokens, 8 KV heads of 128: K and V, 2 bytes each in BF16.
        let bf16 = times(&decode(64, 4095, "bfloat16", 0), &hw).unwrap();
        let kv_bytes = 64.0 * 4096.0 * 8.0 * 128.0 * 2.0 * 2.0;
        let bw = hw.memory_bandwidth.value.get();
        assert!(bf16.memory_s > kv_bytes / bw && bf16.memory_s < kv_bytes / bw * 1.01);
        // An FP8 cache halves it. XQA's blocks (H100): 512 sequence-and-KV-head blocks,
        // each sequence in 2 parts (16 would make 62 waves, over XQA's 8), so 1,024 blocks:
        // 8 waves on 132 SMs, and the parts' merge.
        let fp8 = times(&decode(64, 4095, "fp8", 0), &hw).unwrap();
        assert!((fp8.memory_s / bf16.memory_s - 0.5).abs() < 0.01);
        assert_eq!(kernel_time::xqa_parts(64, 8, 4096, 132), 2);
        assert_eq!(bf16.waves, 9.0);
        // A window shorter than the context caps the keys read: 9001 tokens under an
        // 8192-token window read what 8192 tokens read; a longer one is no window at all.
        assert_eq!(
            times(&decode(1, 9000, "bfloat16", 8192), &hw)
                .unwrap()
                .memory_s,
            times(&decode(1, 8191, "bfloat16", 0), &hw)
                .unwrap()
                .memory_s
        );
        assert_eq!(
            times(&decode(1, 4095, "bfloat16", 8192), &hw),
            times(&decode(1, 4095, "bfloat16", 0), &hw)
        );
        let mut unknown = decode(1, 1, "int4", 0);
        assert!(times(&unknown, &hw).is_err());
        unknown.kv_dtype = Some("fp8".into());
        assert!(times(&unknown, &hw).is_ok());
    }

    /// A row measured faster than the DRAM can serve its bytes, less all the L2 holds, is
    /// listed under its framework with its shape; rows at or above the floor are not, and a
    /// device whose L2 size is not published lists none.
    #[test]
    fn rows_faster_than_the_dram_allows_are_listed() {
        let hw = registry::get("h100-sxm").unwrap();
        // 64 sequences of 4,096 tokens, 8 KV heads of 128 in BF16: 1.07 GB, 320 us at
        // 3.35 TB/s, of which the 52 MB L2 can hold 16 us: a floor of 305 us (a row 1 %
        // under it is within the margin).
        let at = |measured_s: f64, framework: &str| Row {
            measured_s,
            framework: framework.into(),
            ..decode(64, 4095, "bfloat16", 0)
        };
        let rows = [
            at(150e-6, FIT_FRAMEWORK),
            at(250e-6, FIT_FRAMEWORK),
            at(400e-6, FIT_FRAMEWORK),
            at(302e-6, "VLLM"),
        ];
        let predicted: Vec<(&Row, KernelTimes)> =
            rows.iter().map(|r| (r, times(r, &hw).unwrap())).collect();
        let floor = predicted[0]
            .1
            .dram_floor_s(hw.l2_bytes(), hw.memory_bandwidth.value.get());
        assert!(floor > 300e-6 && floor < 310e-6, "{floor}");
        let listed = faster_than_dram(&predicted, &hw);
        assert_eq!(listed.len(), 1, "{listed:?}");
        let trtllm = &listed[0];
        assert_eq!(
            (trtllm.framework.as_str(), trtllm.rows, trtllm.faster),
            (FIT_FRAMEWORK, 3, 2)
        );
        assert!((trtllm.fastest - 150e-6 / floor).abs() < 1e-9);
        assert_eq!(trtllm.fastest_shape, rows[0].shape.to_string());
        let mut unpublished = hw.clone();
        unpublished.l2_cache = None;
        assert!(faster_than_dram(&predicted, &unpublished).is_empty());
    }

    #[test]
    fn moe_rows_are_predicted_when_the_router_is_balanced() {
        let hw = registry::get("h100-sxm").unwrap();
        let moe = |tokens: u64, balanced: bool| Row {
            kernel: Kernel::Moe,
            shape: Shape::Moe {
                tokens,
                hidden: 4096,
                inter: 2048,
                top_k: 8,
                experts: 128,
                tp: 2,
                ep: 4,
                gated: true,
                balanced,
                min_latency: false,
            },
            ..row("fp8", 0, 0, 0, 1e-4)
        };
        let t = times(&moe(64, true), &hw).unwrap();
        // 64 tokens x 8 copies spread evenly: rank 0's 32 experts get 4 copies each.
        let model = KernelTimes::moe(
            &MoeShape {
                tokens: 64.0,
                hidden: 4096.0,
                intermediate: 1024.0,
                top_k: 8.0,
                experts: 128.0,
                expert_parallel: 4.0,
                gated: true,
            },
            &MoeLoad {
                assignments: 128.0,
                experts_touched: 32.0,
            },
            &Precision {
                output: Format::Bf16,
                ..Precision::uniform(Format::Fp8E4m3)
            },
            &hw,
            None,
        );
        assert_eq!(t, model);
        assert!(t.quantise_s > 0.0, "FP8 activations are quantised first");
        // The collector loops the layer on one set of weights and tokens: 32 experts' 403 MB
        // pass H100's L2, one token's few experts (at most 8 x 12.6 MB) fit in the RTX PRO
        // 6000's 128 MiB.
        assert_eq!(t.l2_share, 0.0);
        let rtx = registry::get("rtx-pro-6000").unwrap();
        assert_eq!(times(&moe(1, true), &rtx).unwrap().l2_share, 1.0);
        assert!(times(&moe(64, false), &hw).is_err());
        assert_eq!(
            moe(64, true).shape.to_string(),
            "64 tokens, 4096 -> 2048/2, top 8 of 128, EP 4"
        );
    }

    /// A B200 MoE row of `framework`'s table timed with kernel `source`: 192 tokens over
    /// 256 experts, top 6, EP 16.
    fn b200_moe(framework: &str, source: &str) -> Row {
        Row {
            kernel: Kernel::Moe,
            framework: framework.into(),
            kernel_source: Some(source.into()),
            shape: Shape::Moe {
                tokens: 192,
                hidden: 4096,
                inter: 2048,
                top_k: 6,
                experts: 256,
                tp: 1,
                ep: 16,
                gated: true,
                balanced: true,
                min_latency: false,
            },
            sm: Some(100),
            ..row("w4a8_mxfp4_mxfp8", 0, 0, 0, 1e-4)
        }
    }

    #[test]
    fn trtllm_gen_moe_rows_compute_whole_tiles_per_expert() {
        let b200 = registry::get("b200").unwrap();
        let moe = b200_moe;
        // TensorRT-LLM's TRT-LLM-Gen kernel: rank 0's experts compute 128-row tiles (192 x 6
        // copies over 16 local experts average 72), a few copies each.
        let trtllm_gen = moe(FIT_FRAMEWORK, "moe_torch_flow");
        assert!(runs_trtllm_gen_moe(&trtllm_gen, &b200));
        let cutlass = moe(FIT_FRAMEWORK, "moe_torch_flow_cutlass");
        assert!(!runs_trtllm_gen_moe(&cutlass, &b200));
        let (tiles, copies) = (
            times(&trtllm_gen, &b200).unwrap(),
            times(&cutlass, &b200).unwrap(),
        );
        assert!(
            tiles.compute_s > 10.0 * copies.compute_s,
            "{tiles:?} vs {copies:?}"
        );
        assert_eq!(tiles.memory_s, copies.memory_s);
        // FlashInfer's kernels in SGLang's and vLLM's tables; not on Hopper, where
        // TensorRT-LLM's `moe_torch_flow` is its Triton kernel.
        assert!(runs_trtllm_gen_moe(
            &moe("SGLang", "sglang_flashinfer_trtllm_moe"),
            &b200
        ));
        assert!(!runs_trtllm_gen_moe(
            &moe("SGLang", "sglang_fused_moe_triton"),
            &b200
        ));
        let h200 = registry::get("h200").unwrap();
        assert!(!runs_trtllm_gen_moe(&trtllm_gen, &h200));
    }

    /// SGLang's Triton fused MoE rows compute 16-row tiles while the tokens are at most the
    /// local experts and 64-row tiles past them: at 12 tokens over 16 experts each expert
    /// computes 16 rows; at 17, 64.
    #[test]
    fn sglangs_triton_moe_rows_compute_its_default_tiles() {
        let l40s = registry::get("l40s").unwrap();
        let triton = |tokens| Row {
            shape: Shape::Moe {
                tokens,
                hidden: 2880,
                inter: 2880,
                top_k: 4,
                experts: 16,
                tp: 1,
                ep: 1,
                gated: true,
                balanced: true,
                min_latency: false,
            },
            sm: Some(89),
            ..Row {
                dtype: "w4a16_mxfp4".into(),
                ..b200_moe("SGLang", "sglang_fused_moe_triton")
            }
        };
        let (few, many) = (triton(12), triton(17));
        assert_eq!(moe_tiling(&few, &l40s), MoeTiling::Triton);
        let copies = |row: &Row| Row {
            kernel_source: Some("sglang_marlin_moe".into()),
            ..row.clone()
        };
        let padding = |row: &Row| {
            times(row, &l40s).unwrap().compute_s / times(&copies(row), &l40s).unwrap().compute_s
        };
        // 12 tokens x 4 copies over 16 experts: 3 an expert, in a 16-row tile.
        assert!(
            (padding(&few) - 16.0 / 3.0).abs() < 1e-6,
            "{}",
            padding(&few)
        );
        // 17 tokens: 4.25 copies an expert, in a 64-row tile.
        assert!(
            (padding(&many) - 64.0 / 4.25).abs() < 1e-6,
            "{}",
            padding(&many)
        );

        // A framework whose table ran kernels of different tilings is profiled on the
        // rows of the tiling most of them ran, its other kernels judged apart.
        let cutlass = Row {
            kernel_source: Some("sglang_flashinfer_cutlass_moe".into()),
            ..few.clone()
        };
        let t = times(&few, &l40s).unwrap();
        let rows = [(&few, t), (&many, t), (&cutlass, t)];
        let kept = of_most_rows_tiling(rows.iter().collect(), &l40s);
        assert_eq!(kept.len(), 2);
        assert!(
            kept.iter()
                .all(|(r, _)| moe_tiling(r, &l40s) == MoeTiling::Triton)
        );
        // Each kernel is judged apart too, even where each release ran one of them.
        let (older, newer) = (
            Row {
                version: "0.5.10".into(),
                ..cutlass.clone()
            },
            Row {
                version: "0.5.14".into(),
                ..few.clone()
            },
        );
        assert_eq!(
            kernels_of(&[(&older, t), (&newer, t)], "SGLang", &l40s),
            ["sglang_flashinfer_cutlass_moe", "sglang_fused_moe_triton"]
        );
        // Two releases of one tiling, one kernel each: the framework's releases.
        let same_tiles = Row {
            kernel_source: Some("sglang_marlin_moe".into()),
            version: "0.5.14".into(),
            ..older.clone()
        };
        assert!(kernels_of(&[(&same_tiles, t), (&older, t)], "SGLang", &l40s).is_empty());
    }

    #[test]
    fn a_framework_whose_releases_ran_different_kernels_is_judged_on_its_newest() {
        // PEP 440's order for the forms the tables' folders use.
        let mut versions = [
            "1.3.0rc20",
            "0.5.6.post2",
            "1.3.0",
            "0.24.0",
            "0.5.14",
            "0.5.6",
        ];
        versions.sort_by_key(|v| release_order(v));
        assert_eq!(
            versions,
            [
                "0.5.6",
                "0.5.6.post2",
                "0.5.14",
                "0.24.0",
                "1.3.0rc20",
                "1.3.0"
            ]
        );

        let h200 = registry::get("h200").unwrap();
        let release = |version: &str, source: &str| Row {
            version: version.into(),
            ..b200_moe("VLLM", source)
        };
        let older = release("0.19.0", "vllm_fused_moe");
        let newer = release(
            "0.24.0",
            "vllm_modeloptfp8moe_flashinfer_cutlass_flashinferexperts",
        );
        let t = times(&older, &h200).unwrap();
        let rows = [(&older, t), (&newer, t), (&newer, t)];
        let (kept, newest) = of_newest_release(rows.iter().collect());
        assert_eq!(newest.as_deref(), Some("0.24.0"));
        assert_eq!(kept.len(), 2);
        assert!(kept.iter().all(|(r, _)| r.version == "0.24.0"));

        // Releases that ran the same kernels are one framework's rows, all of them.
        let same = release("0.24.0", "vllm_fused_moe");
        let rows = [(&older, t), (&same, t)];
        let (kept, newest) = of_newest_release(rows.iter().collect());
        assert_eq!((kept.len(), newest), (2, None));
    }

    #[test]
    fn sglangs_int8_table_quantises_its_activations_in_eager_pytorch() {
        let h100 = registry::get("h100-sxm").unwrap();
        let sglang = Row {
            framework: "SGLang".into(),
            ..row("int8_wo", 1024, 4096, 4096, 1e-4)
        };
        let trtllm = row("int8_wo", 1024, 4096, 4096, 1e-4);
        assert!(sglang_eager_int8(&sglang));
        assert!(!sglang_eager_int8(&trtllm));
        let (eager, weight_only) = (
            times(&sglang, &h100).unwrap(),
            times(&trtllm, &h100).unwrap(),
        );
        // 47 bytes an activation element at the datasheet bandwidth, against a weight-only
        // kernel's none; INT8 by INT8 runs at twice BF16's peak on an H100.
        let bandwidth = h100.memory_bandwidth.value.get();
        assert!((eager.quantise_s * bandwidth / (1024.0 * 4096.0) - 47.0).abs() < 1e-9);
        assert_eq!(weight_only.quantise_s, 0.0);
        assert!((weight_only.compute_s / eager.compute_s - 2.0).abs() < 1e-9);
    }

    /// TensorRT-LLM's block-scaled FP8 GEMM on Hopper: its DeepGEMM launcher's tile, the
    /// rows past M its last row block reads, and the whole tiles it computes.
    #[test]
    fn tensorrt_llms_hopper_block_scaled_fp8_gemm_reads_the_rows_past_m() {
        // 64 rows up to M = 64. On 132 SMs, N = 4,096 fills one wave with 64-wide tiles
        // (128 of them over two row blocks, against 64 at 128 wide); N = 8,192 with 128-wide.
        let tile = |m, n| {
            let t = kernel_time::trtllm_deep_gemm_tile(m, n, 132);
            (t.rows, t.columns)
        };
        assert_eq!(tile(64, 4096), (64, 32));
        assert_eq!(tile(129, 4096), (128, 64));
        assert_eq!(tile(256, 8192), (128, 128));
        // 32 row blocks: only 128-wide tiles (2,048) fit in 16 waves.
        assert_eq!(tile(4096, 8192), (128, 128));
        let h200 = registry::get("h200").unwrap();
        let on_h200 = |framework: &str, m: u64| Row {
            system: "h200_sxm".into(),
            device: "NVIDIA H200".into(),
            framework: framework.into(),
            sm: Some(90),
            ..row("fp8_block", m, 8192, 8192, 1e-4)
        };
        let t = |framework: &str, m: u64| times(&on_h200(framework, m), &h200).unwrap();
        let bandwidth = h200.memory_bandwidth.value.get();
        assert!(
            (t(FIT_FRAMEWORK, 129).padded_rows_s * bandwidth / (64.0 * 127.0 * 8192.0) - 1.0).abs()
                < 1e-12
        );
        // Whole 128 x 128 tiles in one wave: M = 129 computes as M = 256 does.
        assert!(
            (t(FIT_FRAMEWORK, 129).compute_s / t(FIT_FRAMEWORK, 256).compute_s - 1.0).abs() < 1e-12
        );
        assert_eq!(t("SGLang", 129).padded_rows_s, 0.0);
        assert_eq!(t(FIT_FRAMEWORK, 256).padded_rows_s, 0.0);
        // Below M = 32 the kernel swaps its operands: no rows past M.
        assert_eq!(t(FIT_FRAMEWORK, 16).padded_rows_s, 0.0);
    }

    /// vLLM's and SGLang's per-tensor FP8 rows on Hopper are read with their CUTLASS
    /// kernel's tiles (whole tiles, the rows past M), vLLM's with its per-token quantisation
    /// steps; their block-scaled FP8 rows keep neither.
    #[test]
    fn vllms_and_sglangs_hopper_fp8_rows_run_their_kernels_tiles() {
        let h200 = registry::get("h200").unwrap();
        let on_h200 = |framework: &str, dtype: &str, m: u64| Row {
            system: "h200_sxm".into(),
            device: "NVIDIA H200".into(),
            framework: framework.into(),
            sm: Some(90),
            ..row(dtype, m, 16384, 8192, 1e-4)
        };
        let t = |framework: &str, dtype: &str, m: u64| {
            times(&on_h200(framework, dtype, m), &h200).unwrap()
        };
        let bandwidth = h200.memory_bandwidth.value.get();
        for framework in ["VLLM", "SGLang"] {
            let padded = t(framework, "fp8", 129).padded_rows_s * bandwidth;
            assert!(
                (padded / (127.0 * 8192.0 * 128.0) - 1.0).abs() < 1e-12,
                "{framework}"
            );
            assert_eq!(
                t(framework, "fp8_block", 129).padded_rows_s,
                0.0,
                "{framework}"
            );
        }
        assert!(t("VLLM", "fp8", 129).quantise_steps > 0.0);
        assert_eq!(t("SGLang", "fp8", 129).quantise_steps, 0.0);
        assert_eq!(t(FIT_FRAMEWORK, "fp8", 129).padded_rows_s, 0.0);
    }

    #[test]
    fn tensorrt_llms_sm120_block_scaled_fp8_gemm_steps_through_m() {
        // A step every 64 rows of M, for each wave of 128-wide N tiles over 188 SMs.
        assert_eq!(kernel_time::sm120_fp8_block_m_steps(64, 128, 188), 1.0);
        assert_eq!(kernel_time::sm120_fp8_block_m_steps(65, 256, 188), 2.0);
        assert_eq!(kernel_time::sm120_fp8_block_m_steps(16384, 128, 188), 256.0);
        assert_eq!(
            kernel_time::sm120_fp8_block_m_steps(128, 128 * 189, 188),
            4.0
        );
        // The RTX PRO 6000's TensorRT-LLM rows take them (64 steps at M = 4,096); the same
        // GEMM in SGLang's table, or on an H100, does not.
        let rtx = registry::get("rtx-pro-6000").unwrap();
        let on_rtx = |framework: &str| Row {
            system: "rtx_pro_6000_server".into(),
            device: "NVIDIA RTX PRO 6000 Blackwell Server Edition".into(),
            framework: framework.into(),
            sm: Some(120),
            ..row("fp8_block", 4096, 128, 128, 1e-4)
        };
        assert_eq!(times(&on_rtx(FIT_FRAMEWORK), &rtx).unwrap().waves, 64.0);
        assert_eq!(times(&on_rtx("SGLang"), &rtx).unwrap().waves, 0.0);
        let h100 = registry::get("h100-sxm").unwrap();
        assert_eq!(
            times(&row("fp8_block", 4096, 128, 128, 1e-4), &h100)
                .unwrap()
                .waves,
            0.0
        );
    }

    #[test]
    fn moe_tables_show_how_their_times_scale_with_expert_parallelism() {
        let moe = |version: &str, tokens, ep, measured_s| Row {
            framework: "SGLang".into(),
            version: version.into(),
            kernel: Kernel::Moe,
            kernel_source: Some("sglang_fused_moe_triton".into()),
            shape: Shape::Moe {
                tokens,
                hidden: 4096,
                inter: 14336,
                top_k: 2,
                experts: 8,
                tp: 1,
                ep,
                gated: true,
                balanced: true,
                min_latency: false,
            },
            ..row("bfloat16", 0, 0, 0, measured_s)
        };
        // Two shapes at EP 1, 2 and 4 in a table that multiplies every copy (SGLang 0.5.10),
        // one with half the time at EP 2 in another; rows under 2,048 tokens and an EP with
        // no EP-1 twin are left out.
        let rows = [
            moe("0.5.10", 2048, 1, 1.0e-3),
            moe("0.5.10", 2048, 2, 0.9e-3),
            moe("0.5.10", 2048, 4, 0.8e-3),
            moe("0.5.10", 4096, 1, 2.0e-3),
            moe("0.5.10", 4096, 2, 2.0e-3),
            moe("0.5.10", 1024, 1, 1.0e-3),
            moe("0.5.10", 1024, 2, 0.1e-3),
            moe("0.5.10", 8192, 8, 1.0e-3),
            moe("0.5.14", 2048, 1, 1.0e-3),
            moe("0.5.14", 2048, 2, 0.5e-3),
        ];
        let scaling = ep_scaling(&rows);
        assert_eq!(scaling.len(), 2);
        let (old, new) = (&scaling[0], &scaling[1]);
        assert_eq!(
            (old.version.as_str(), old.remote_copies.as_str()),
            ("0.5.10", "on expert 0")
        );
        assert_eq!(old.ratios.len(), 2);
        assert_eq!((old.ratios[0].0, old.ratios[0].2), (2, 2));
        assert!((old.ratios[0].1 - 0.95).abs() < 1e-12);
        assert_eq!((old.ratios[1].0, old.ratios[1].2), (4, 1));
        assert!((old.ratios[1].1 - 0.8).abs() < 1e-12);
        // Mixtral's shape keeps the clamped path in 0.5.14 too.
        assert_eq!(new.remote_copies, "on expert 0");
        assert!((new.ratios[0].1 - 0.5).abs() < 1e-12);
    }

    #[test]
    fn clamped_expert_ids_compute_every_copy_of_rank_zeros_tokens() {
        let clamped = |tokens, experts, top_k, ep| {
            let l = collector_load(
                tokens,
                experts,
                top_k,
                ep,
                Router::TopK,
                RemoteCopies::OnExpertZero,
            );
            (l.tokens, l.load.assignments, l.load.experts_touched)
        };
        // Mixtral at EP 4: rank 0 holds experts 0 and 1. Token i goes to i mod 8 and
        // (i + 4) mod 8, so half the tokens have a local expert and are given to rank 0
        // with both copies computed (the remote one on expert 0); the other half never
        // reach it. The skipping collectors compute the 8 local copies only.
        assert_eq!(clamped(16, 8, 2, 4), (8.0, 16.0, 2.0));
        let skipped = collector_load(16, 8, 2, 4, Router::TopK, RemoteCopies::Skipped);
        assert_eq!(skipped.load.assignments, 8.0);
        // At EP 2 every token has one local expert: all 2 x 16 copies, as at EP 1, so
        // the clamped work does not shrink with expert parallelism.
        assert_eq!(clamped(16, 8, 2, 2), (16.0, 32.0, 4.0));
        assert_eq!(clamped(16, 8, 2, 1), (16.0, 32.0, 8.0));
        // Wide EP: 64 tokens, each with 2 of its 8 copies on rank 0's 32 experts of 128.
        assert_eq!(clamped(64, 128, 8, 4), (64.0, 512.0, 32.0));
        // TensorRT-LLM's SM120 kernel takes every token: all 32 copies at EP 4, the remote
        // ones on expert 1 (rank 0's last), and 16 of 16 tokens at EP 8 too.
        let every = |ep| {
            let l = collector_load(16, 8, 2, ep, Router::TopK, RemoteCopies::EveryCopy);
            (l.tokens, l.load.assignments, l.load.experts_touched)
        };
        assert_eq!(every(4), (16.0, 32.0, 2.0));
        assert_eq!(every(8), (16.0, 32.0, 1.0));

        // Which tables were timed so: SGLang 0.5.10 always; 0.5.14 only on the Triton
        // kernel in BF16 or block-scaled FP8, for models run with default routing.
        let moe =
            |framework: &str, version: &str, dtype: &str, hidden, inter, top_k, experts| Row {
                framework: framework.into(),
                version: version.into(),
                kernel: Kernel::Moe,
                kernel_source: Some("sglang_fused_moe_triton".into()),
                shape: Shape::Moe {
                    tokens: 64,
                    hidden,
                    inter,
                    top_k,
                    experts,
                    tp: 1,
                    ep: 4,
                    gated: true,
                    balanced: true,
                    min_latency: false,
                },
                ..row(dtype, 0, 0, 0, 1e-4)
            };
        let mixtral = ("bfloat16", 4096, 14336, 2, 8);
        let qwen3 = ("bfloat16", 4096, 1536, 8, 128);
        let of = |framework, version, (dtype, h, i, k, e): (&str, u64, u64, u64, u64)| {
            remote_copies(&moe(framework, version, dtype, h, i, k, e))
        };
        assert_eq!(of("SGLang", "0.5.10", qwen3), RemoteCopies::OnExpertZero);
        assert_eq!(of("SGLang", "0.5.14", mixtral), RemoteCopies::OnExpertZero);
        assert_eq!(of("SGLang", "0.5.14", qwen3), RemoteCopies::Skipped);
        assert_eq!(
            of("SGLang", "0.5.14", ("nvfp4", 4096, 14336, 2, 8)),
            RemoteCopies::Skipped
        );
        assert_eq!(of("TRTLLM", "1.0.0", mixtral), RemoteCopies::Skipped);
        let sm120 = Row {
            kernel_source: Some(TRTLLM_SM120_FP8_BLOCK_MOE.into()),
            ..moe("TRTLLM", "1.3.0rc20", "fp8_block", 4096, 1536, 8, 128)
        };
        assert_eq!(remote_copies(&sm120), RemoteCopies::EveryCopy);
        let marlin = |version: &str, dtype: &str| Row {
            kernel_source: Some("sglang_marlin_moe".into()),
            ..moe("SGLang", version, dtype, 2880, 2880, 4, 32)
        };
        assert_eq!(
            remote_copies(&marlin("0.5.14", "w4a16_mxfp4")),
            RemoteCopies::EveryCopy
        );
        assert_eq!(
            remote_copies(&marlin("0.5.14", "int4_wo")),
            RemoteCopies::Skipped
        );
        let vllm = Row {
            kernel_source: Some("vllm_mxfp4_moe".into()),
            ..moe("VLLM", "0.19.0", "w4a16_mxfp4", 2880, 2880, 4, 32)
        };
        assert_eq!(remote_copies(&vllm), RemoteCopies::EveryCopy);
        assert_eq!(of("VLLM", "0.14.0", mixtral), RemoteCopies::Skipped);
    }

    #[test]
    fn the_collectors_router_loads_rank_zero_as_the_tables_were_timed() {
        let load = |tokens, experts, top_k, ep, router| {
            let l = collector_load(tokens, experts, top_k, ep, router, RemoteCopies::Skipped);
            assert_eq!(l.tokens, tokens as f64);
            (l.load.assignments, l.load.experts_touched)
        };
        // One token's one choice is expert 0: rank 0's, whatever the parallelism (a random
        // router's share would be 1 / 128 of a copy).
        assert_eq!(load(1, 128, 1, 128, Router::TopK), (1.0, 1.0));
        // Even spread: rank 0 of 4 gets a quarter of 64 x 8 copies, on all 32 experts.
        assert_eq!(load(64, 128, 8, 4, Router::TopK), (128.0, 32.0));
        // Fewer tokens than the stride (32): token 0 starts at expert 0, token 1 at 16.
        assert_eq!(load(2, 256, 8, 8, Router::TopK), (2.0, 2.0));
        // DeepSeek-V3's groups: every token's high experts score alike in all 8 groups, so
        // the first 4 groups are kept (experts 0..127, rank 0's of 2) and all 8 choices
        // land there; top-k alone sends rank 0 half of them.
        assert_eq!(load(64, 256, 8, 2, Router::DeepSeekGroups), (512.0, 128.0));
        assert_eq!(load(64, 256, 8, 2, Router::TopK), (256.0, 128.0));
        // The shortcut over token residues equals walking every token.
        for (tokens, experts, top_k, ep) in [
            (1, 8, 2, 1),
            (3, 128, 8, 16),
            (31, 256, 8, 8),
            (100, 384, 8, 32),
            (1000, 160, 6, 8),
            (4097, 512, 22, 64),
        ] {
            for router in [Router::TopK, Router::DeepSeekGroups] {
                let local = experts / ep;
                let mut copies = 0;
                let mut touched = std::collections::BTreeSet::new();
                for i in 0..tokens {
                    for e in balanced_choice(i, tokens, experts, top_k, router) {
                        assert!(e < experts);
                        if e < local {
                            copies += 1;
                            touched.insert(e);
                        }
                    }
                }
                assert_eq!(
                    load(tokens, experts, top_k, ep, router),
                    (f64::from(copies), touched.len() as f64),
                    "{tokens} tokens, {experts} experts, top {top_k}, EP {ep}, {router:?}"
                );
            }
        }
    }

    #[test]
    fn moe_kernels_other_than_the_gated_one_are_groups_of_their_own() {
        let moe = |gated, min_latency| Row {
            kernel: Kernel::Moe,
            shape: Shape::Moe {
                tokens: 8,
                hidden: 4096,
                inter: 2048,
                top_k: 8,
                experts: 256,
                tp: 1,
                ep: 1,
                gated,
                balanced: true,
                min_latency,
            },
            ..row("nvfp4", 0, 0, 0, 1e-4)
        };
        assert_eq!(moe(true, false).dtype_label(), "nvfp4");
        assert_eq!(moe(false, false).dtype_label(), "nvfp4, non-gated");
        assert_eq!(moe(true, true).dtype_label(), "nvfp4, min-latency kernel");
        // Only the gated kernel's group is the product's fused MoE layer, in the formats of
        // its dtype; block-scaled FP8 has no catalogue format of its own.
        let nvfp4 = Profiled::Moe {
            activations: Format::NvFp4,
            weights: Format::NvFp4,
        };
        assert_eq!(profiled(&moe(true, false)), Some(nvfp4));
        assert_eq!(profiled(&moe(false, false)), None);
        assert_eq!(profiled(&moe(true, true)), None);
        let with = |dtype: &str| Row {
            dtype: dtype.into(),
            ..moe(true, false)
        };
        assert_eq!(
            profiled(&with("w4a16_mxfp4")),
            Some(Profiled::Moe {
                activations: Format::Bf16,
                weights: Format::MxFp4
            })
        );
        assert_eq!(profiled(&with("fp8_block")), None);
        // The analysis's own MoE block reads as that kind: NVFP4 experts.
        let config = rooflinr_model::presets::get("mixtral-8x7b").unwrap();
        let hw = registry::get("b200").unwrap();
        let a = rooflinr_model::analysis::analyze(
            &config,
            &hw,
            &rooflinr_model::analysis::Scenario {
                phase: rooflinr_model::analysis::Phase::Decode,
                batch: 8,
                seq: 1024,
                precision: Precision::uniform(Format::NvFp4),
                attention: rooflinr_model::analysis::AttentionKernel::Fused,
                quantize_embeddings: false,
            },
            &Efficiency::IDEAL,
        )
        .unwrap();
        let layer = kernel_time::FusedMoe::of(&a.ops, 1.0).unwrap();
        assert_eq!(layer.kind(), nvfp4);
    }

    /// A framework's MoE profile follows the tiling of the kernel every row it was fitted
    /// on ran (TRT-LLM-Gen's, the Triton fused MoE's, or none), and has no one rule where
    /// its rows mixed kernels of different tilings.
    #[test]
    fn a_moe_profile_follows_one_tile_rule_or_none() {
        let b200 = registry::get("b200").unwrap();
        let trtllm_gen = b200_moe("SGLang", "sglang_flashinfer_trtllm_moe");
        let triton = b200_moe("SGLang", "sglang_fused_moe_triton");
        let triton_variant = b200_moe("SGLang", "sglang_fused_moe_triton_situ_as_silu");
        let cutlass = b200_moe("TRTLLM", "moe_torch_flow_cutlass");
        assert_eq!(
            tile_rule(&[&trtllm_gen, &trtllm_gen], &b200),
            Some(MoeTiling::TrtllmGen)
        );
        assert_eq!(
            tile_rule(&[&triton, &triton_variant], &b200),
            Some(MoeTiling::Triton)
        );
        assert_eq!(tile_rule(&[&cutlass], &b200), Some(MoeTiling::Copies));
        assert_eq!(tile_rule(&[&trtllm_gen, &triton], &b200), None);
        assert_eq!(tile_rule(&[&cutlass, &triton], &b200), None);
        // Not a MoE row: no tiles per expert, whatever its kernel's name.
        let attention = Row {
            kernel: Kernel::GenerationAttention,
            ..triton.clone()
        };
        assert_eq!(tile_rule(&[&attention], &b200), Some(MoeTiling::Copies));
    }

    /// TensorRT-LLM's decode rows with more than 32 query heads per KV head ran its masked
    /// multi-head attention kernel: a group of their own, predicted with the cache read
    /// once per query head; other frameworks' rows stay in the main group. H100's XQA rows
    /// count the parts XQA splits each sequence into.
    #[test]
    fn decode_rows_past_xqas_group_limit_are_a_kernel_of_their_own() {
        let hw = registry::get("h100-sxm").unwrap();
        let wide = |framework: &str| {
            let mut r = decode(4, 4095, "bfloat16", 0);
            r.framework = framework.into();
            if let Shape::Attention { heads, .. } = &mut r.shape {
                *heads = 8 * 64;
            }
            r
        };
        let trt = wide(FIT_FRAMEWORK);
        assert!(trt.per_query_head());
        assert_eq!(
            trt.dtype_label(),
            "bfloat16, KV bfloat16, a block per query head"
        );
        assert_eq!(wide("VLLM").dtype_label(), "bfloat16, KV bfloat16");
        // Plain multi-head attention (8 query heads on 8 KV heads) runs the same kernel on
        // the H100 (XQA refuses it on sm_80 to sm_90), not on a B200.
        let mut mha = decode(4, 4095, "bfloat16", 0);
        if let Shape::Attention { heads, .. } = &mut mha.shape {
            *heads = 8;
        }
        assert!(mha.per_query_head());
        mha.sm = Some(100);
        assert!(!mha.per_query_head());
        assert_eq!(
            profiled(&trt),
            Some(Profiled::PerQueryHeadDecode {
                queries: Format::Bf16,
                kv: Format::Bf16
            })
        );
        // The per-query-head rows read the cache once per query head, 64 times: once from
        // the DRAM, as vLLM's kernel does (the queries and outputs are the same in both),
        // and 63 times more from the L2; 2,048 blocks.
        let (own, other) = (
            times(&trt, &hw).unwrap(),
            times(&wide("VLLM"), &hw).unwrap(),
        );
        let cache = 4.0 * 4096.0 * 8.0 * 128.0 * 2.0 * 2.0;
        assert_eq!((own.memory_s, other.l2_s), (other.memory_s, 0.0));
        let rereads = own.l2_s * hw.memory_bandwidth.value.get();
        assert!(
            (rereads / (63.0 * cache) - 1.0).abs() < 1e-9,
            "{own:?} {other:?}"
        );
        assert_eq!(own.waves, 16.0);
        // 4 x 8 XQA blocks of a 4,096-token cache: 16 parts each (32 of 128 tokens,
        // capped at round(sqrt(32 x 8))), 512 blocks: 4 waves on 132 SMs, and the merge.
        let xqa = decode(4, 4095, "bfloat16", 0);
        assert_eq!(kernel_time::xqa_parts(4, 8, 4096, 132), 16);
        assert_eq!(times(&xqa, &hw).unwrap().waves, 5.0);
    }

    #[test]
    fn attention_groups_are_fitted_and_judged_apart_from_gemms() {
        let hw = registry::get("h100-sxm").unwrap();
        let truth = KernelTerms {
            fixed_s: 9e-6,
            bandwidth: 0.7,
            compute: 0.5,
            per_wave_s: 1.2e-6,
            tile_bandwidth: 1.0,
            l2_bandwidth: f64::INFINITY,
            overlap: f64::INFINITY,
            ..KernelTerms::ROOFLINE
        };
        let mut rows = Vec::new();
        for batch in [1u64, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024] {
            for step in [1u64, 15, 127, 1023, 8191, 32767] {
                let mut r = decode(batch, step, "bfloat16", 0);
                r.measured_s = truth.predict(times(&r, &hw).unwrap());
                rows.push(r);
            }
        }
        rows.push(row("bfloat16", 4096, 4096, 4096, 1e-3));
        let v = validate(&rows, false);
        let g = v
            .groups
            .iter()
            .find(|g| g.kernel == Kernel::GenerationAttention)
            .unwrap();
        assert_eq!(g.dtype, "bfloat16, KV bfloat16");
        let (_, _, calibrated) = &g.held_out_shapes[0];
        assert!(calibrated.median < 0.05, "{g:?}");
        // Within a quarter of the latency that made the times: a decode block's stream
        // counting the cache alone (since 2026-11-27) moved this fit's rounds to 0.99 us.
        assert!((g.fitted.per_wave_us - 1.2).abs() < 0.3, "{g:?}");
        // H100 decode attention in BF16 has a shipped profile, which these made-up terms
        // are not.
        assert!(
            g.fitted.shipped.starts_with("differs (shipped"),
            "{}",
            g.fitted.shipped
        );
        assert!(v.groups.iter().any(|g| g.kernel == Kernel::Gemm));
    }

    /// One path from the fit to what users run: every GEMM and attention row, as `validate`
    /// scores it, has the times the product's calibrated figures predict with
    /// ([`kernel_time::calibrated_times`], whose kernels a framework picks on its own are
    /// the row's: [`Dispatch::of`]) once the collector's adjustments are made
    /// ([`as_collected`]), and so under the shipped profile the same expected time.
    #[test]
    fn validate_scores_the_times_the_product_predicts_with() {
        let prefill = |isl: u64, window: u64| Row {
            kernel: Kernel::ContextAttention,
            kv_dtype: Some("bfloat16".into()),
            shape: Shape::Attention {
                batch: 2,
                isl,
                step: 0,
                heads: 32,
                kv_heads: 8,
                head_dim: 128,
                window,
            },
            ..row("bfloat16", 0, 0, 0, 1e-4)
        };
        let devices = [
            ("h100_sxm", "NVIDIA H100 80GB HBM3", "h100-sxm", 90),
            ("h200_sxm", "NVIDIA H200", "h200", 90),
            ("b200_sxm", "NVIDIA B200", "b200", 100),
        ];
        let mut rows = Vec::new();
        for (system, device, key, sm) in devices {
            for framework in ["TRTLLM", "VLLM", "SGLang"] {
                let on = |r: Row| Row {
                    system: system.into(),
                    device: device.into(),
                    framework: framework.into(),
                    sm: Some(sm),
                    ..r
                };
                for dtype in ["bfloat16", "fp8", "nvfp4", "fp8_block"] {
                    for m in [1, 5, 129, 4096] {
                        rows.push((key, on(row(dtype, m, 8192, 4096, 1e-4))));
                    }
                }
                for (isl, window) in [(1024, 0), (8192, 0), (8192, 4096)] {
                    rows.push((key, on(prefill(isl, window))));
                    rows.push((
                        key,
                        Row {
                            kernel_source: Some(SGLANG_TRITON_ATTENTION.into()),
                            ..on(prefill(isl, window))
                        },
                    ));
                }
                for (step, window) in [(1024, 0), (8192, 0), (8192, 128)] {
                    for kv in ["bfloat16", "fp8"] {
                        rows.push((key, on(decode(64, step, kv, window))));
                    }
                }
            }
        }
        let (mut compared, mut defaults) = (0, 0);
        for (key, r) in &rows {
            let hw = registry::get(key).unwrap();
            let scored = times(r, &hw).unwrap();
            let (op, precision) = operator(r).unwrap();
            let prediction = op.predict(&precision, &hw, &Efficiency::IDEAL).prediction;
            let framework = Framework::parse(&r.framework).unwrap();
            let activations = kernel_time::Activations::QuantisedFirst;
            let product = |d: Dispatch| {
                kernel_time::calibrated_times(&op, &precision, &hw, d, &prediction, activations)
            };
            let Some((ran, profile)) = product(dispatch(r)) else {
                continue;
            };
            compared += 1;
            let label = format!("{key} {} {:?} {:?}", r.framework, r.kernel_source, r.shape);
            assert_eq!(
                as_collected(r, &op, &precision, &hw, ran),
                scored,
                "{label}"
            );
            assert_eq!(profiled(r), Some(profile.kernel), "{label}");
            assert_eq!(
                profile
                    .terms
                    .predict(as_collected(r, &op, &precision, &hw, ran)),
                profile.terms.predict(scored),
                "{label}"
            );
            // What the product asks for by naming the framework alone is the row's kernel
            // wherever the row ran the kernel its framework picks on its own.
            if dispatch(r) == Dispatch::of(framework) {
                defaults += 1;
                let (by_name, _) = product(Dispatch::of(framework)).unwrap();
                assert_eq!(by_name, ran, "{label}");
                let (t, _) = kernel_time::calibrated_with(
                    &op,
                    &precision,
                    &hw,
                    framework,
                    &prediction,
                    activations,
                )
                .unwrap();
                assert_eq!(t, profile.terms.predict(ran), "{label}");
            }
        }
        // Most of these kernels have a shipped profile on these devices.
        assert!(compared > rows.len() / 2, "{compared} of {}", rows.len());
        assert!(defaults > compared / 2, "{defaults} of {compared}");
    }

    /// Writes a GEMM table of `rows` (m, latency in ms) with every column a GEMM table
    /// needs but `without`, under `dir` as the wheel lays its tables out.
    fn gemm_table(dir: &Path, rows: &[(i64, f64)], without: Option<&str>) -> PathBuf {
        use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
        use parquet::file::properties::WriterProperties;
        use parquet::file::writer::SerializedFileWriter;
        let texts = [
            ("framework", "TRTLLM"),
            ("version", "1.0"),
            ("device", "NVIDIA H100 80GB HBM3"),
            ("gemm_dtype", "bfloat16"),
        ];
        let numbers = ["m", "n", "k"];
        let mut fields: Vec<String> = Vec::new();
        fields.extend(
            texts
                .iter()
                .filter(|(c, _)| Some(*c) != without)
                .map(|(c, _)| format!("REQUIRED BYTE_ARRAY {c} (UTF8);")),
        );
        fields.extend(
            numbers
                .iter()
                .filter(|c| Some(**c) != without)
                .map(|c| format!("REQUIRED INT64 {c};")),
        );
        if without != Some("latency") {
            fields.push("REQUIRED DOUBLE latency;".into());
        }
        let schema = parquet::schema::parser::parse_message_type(&format!(
            "message gemm {{ {} }}",
            fields.join(" ")
        ))
        .unwrap();
        let folder = dir.join("h100_sxm/gemm/TRTLLM/1.0");
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("gemm_perf.parquet");
        let file = File::create(&path).unwrap();
        let mut writer = SerializedFileWriter::new(
            file,
            schema.into(),
            WriterProperties::builder().build().into(),
        )
        .unwrap();
        let mut group = writer.next_row_group().unwrap();
        for (name, text) in texts.iter().filter(|(c, _)| Some(*c) != without) {
            let mut column = group.next_column().unwrap().unwrap();
            let values = vec![ByteArray::from(*text); rows.len()];
            column
                .typed::<ByteArrayType>()
                .write_batch(&values, None, None)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            column.close().unwrap();
        }
        for name in numbers.iter().filter(|c| Some(**c) != without) {
            let mut column = group.next_column().unwrap().unwrap();
            let values: Vec<i64> = rows
                .iter()
                .map(|&(m, _)| if *name == "m" { m } else { 4096 })
                .collect();
            column
                .typed::<Int64Type>()
                .write_batch(&values, None, None)
                .unwrap();
            column.close().unwrap();
        }
        if without != Some("latency") {
            let mut column = group.next_column().unwrap().unwrap();
            let values: Vec<f64> = rows.iter().map(|&(_, ms)| ms).collect();
            column
                .typed::<DoubleType>()
                .write_batch(&values, None, None)
                .unwrap();
            column.close().unwrap();
        }
        group.close().unwrap();
        writer.close().unwrap();
        path
    }

    /// A table missing a column it needs is refused, naming the column; rows with an empty
    /// shape or no latency are left out and counted, not dropped in silence.
    #[test]
    fn tables_name_a_missing_column_and_count_the_rows_they_leave_out() {
        let dir = std::env::temp_dir().join(format!("rooflinr-tables-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        gemm_table(&dir, &[(16, 0.01), (0, 0.01), (32, 0.0), (64, 0.02)], None);
        let tables = read_tables(&dir).unwrap();
        let ms: Vec<u64> = tables
            .rows
            .iter()
            .map(|r| match r.shape {
                Shape::Gemm { m, .. } => m,
                _ => 0,
            })
            .collect();
        assert_eq!(ms, [16, 64]);
        assert_eq!(tables.rows[0].framework, "TRTLLM");
        assert_eq!(tables.rows[0].sm, Some(90));
        assert!((tables.rows[1].measured_s - 2e-5).abs() < 1e-15);
        assert_eq!(tables.left_out.len(), 1);
        assert!(
            tables.left_out[0].contains("h100_sxm/gemm/TRTLLM/1.0/gemm_perf.parquet: 2 rows"),
            "{:?}",
            tables.left_out
        );
        for column in ["latency", "m", "gemm_dtype", "device"] {
            let _ = std::fs::remove_dir_all(&dir);
            gemm_table(&dir, &[(16, 0.01)], Some(column));
            let error = read_tables(&dir)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                error.contains(&format!("no `{column}` column")),
                "{column}: {error}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
