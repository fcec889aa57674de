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
mod tests;
