//! `rooflinr predict`: one operator on one device.

use anyhow::{Result, bail};
use clap::Subcommand;
use rooflinr_model::hardware::Hardware;
use rooflinr_model::kernel_time::{self, FusedMoe, MoeShape, PROFILE_SOURCE};
use rooflinr_model::ops::{AttentionShape, MAX_DIM, NormKind, Op, OpPrediction, Precision};
use rooflinr_model::units::si;
use serde::Serialize;

use crate::args::{HardwareArgs, PrecisionArgs};
use crate::table;

/// Arguments of `rooflinr predict`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    op: OpArgs,
    #[command(flatten)]
    hardware: HardwareArgs,
    #[command(flatten)]
    precision: PrecisionArgs,
    /// Print JSON instead of a table.
    #[arg(long, global = true)]
    json: bool,
    /// GEMM, GEMV, attention and a MoE layer: the expected time with the fitted kernel
    /// terms the model crate ships for this device and format (fixed time, bandwidth and
    /// peak fractions, tile efficiency); `datasheet_time_s` keeps the roofline bound.
    #[arg(long, global = true)]
    calibrated: bool,
    /// With `--calibrated`: whose kernels the terms were fitted on (`trtllm`, `vllm`,
    /// `sglang`): the same operator runs different kernels with different fixed costs in
    /// each serving framework.
    #[arg(long, value_parser = crate::args::parse_framework, default_value = "trtllm", global = true)]
    framework: rooflinr_model::kernel_time::Framework,
    /// With `--calibrated`: a low-precision GEMM's activations arrive already in their
    /// format (a library GEMM on FP8 or FP4 operands), so the pass that quantises BF16
    /// activations first, which the serving frameworks' linear layers run and the profiles
    /// count by default, is left out.
    #[arg(long, global = true, requires = "calibrated")]
    activations_in_format: bool,
}

/// The operator to predict.
#[derive(Subcommand)]
enum OpArgs {
    /// C[m,n] = A[m,k] x W[k,n].
    Gemm {
        #[arg(long)]
        m: u64,
        #[arg(long)]
        n: u64,
        #[arg(long)]
        k: u64,
        /// Add a bias vector.
        #[arg(long)]
        bias: bool,
    },
    /// y[n] = W[n,k] x[k] for each of `batch` vectors (GEMM with m = batch).
    Gemv {
        #[arg(long)]
        n: u64,
        #[arg(long)]
        k: u64,
        #[arg(long, default_value_t = 1)]
        batch: u64,
    },
    /// `batch` independent GEMMs, each with its own weights.
    Bmm {
        #[arg(long)]
        batch: u64,
        #[arg(long)]
        m: u64,
        #[arg(long)]
        n: u64,
        #[arg(long)]
        k: u64,
    },
    /// Attention: fused (FlashAttention-style) unless --unfused.
    Attention {
        #[arg(long, default_value_t = 1)]
        batch: u64,
        /// Query tokens per sequence (1 for decode).
        #[arg(long, default_value_t = 1)]
        q_len: u64,
        /// Key/value tokens per sequence.
        #[arg(long)]
        kv_len: u64,
        #[arg(long)]
        heads: u64,
        /// Defaults to --heads (no GQA).
        #[arg(long)]
        kv_heads: Option<u64>,
        #[arg(long, default_value_t = 128)]
        head_dim: u64,
        /// Three kernels with the score matrix in memory.
        #[arg(long)]
        unfused: bool,
        /// No causal mask.
        #[arg(long)]
        no_causal: bool,
    },
    /// RMSNorm over tokens x dim.
    Rmsnorm(Rows),
    /// LayerNorm over tokens x dim.
    Layernorm(Rows),
    /// Residual add over tokens x dim.
    ResidualAdd(Rows),
    /// Rotary embedding of `heads` heads of `rotary-dim` channels.
    Rope {
        #[arg(long)]
        tokens: u64,
        #[arg(long)]
        heads: u64,
        #[arg(long, default_value_t = 128)]
        rotary_dim: u64,
    },
    /// SwiGLU: silu(gate) x up over tokens x dim.
    SiluMul(Rows),
    /// MoE router softmax and top-k selection.
    RouterTopk {
        #[arg(long)]
        tokens: u64,
        #[arg(long)]
        experts: u64,
        #[arg(long)]
        top_k: u64,
    },
    /// Embedding lookup of `tokens` rows of `dim`.
    Embedding(Rows),
    /// A fused MoE layer's routed experts on one GPU (routing, gate and up, SwiGLU, down,
    /// the weighted sum), the tokens spread evenly at random over the experts; with
    /// `--calibrated`, at the MoE profile fitted on NVIDIA's MoE tables.
    Moe {
        /// Tokens in the batch.
        #[arg(long)]
        tokens: u64,
        /// Model width.
        #[arg(long)]
        hidden: u64,
        /// Each expert's intermediate width (before tensor parallelism).
        #[arg(long)]
        intermediate: u64,
        /// Routed experts in the model.
        #[arg(long)]
        experts: u64,
        /// Experts each token is routed to.
        #[arg(long)]
        top_k: u64,
        /// GPUs the experts are spread over, whole (expert parallelism).
        #[arg(long, default_value_t = 1)]
        ep: u64,
        /// GPUs each expert is split over by columns (tensor parallelism).
        #[arg(long, default_value_t = 1)]
        tp: u64,
    },
}

/// Shape of a row-wise operator: `tokens` rows of `dim` elements.
#[derive(clap::Args)]
struct Rows {
    #[arg(long)]
    tokens: u64,
    #[arg(long)]
    dim: u64,
}

impl Rows {
    fn checked(&self) -> Result<(f64, f64)> {
        Ok((check("tokens", self.tokens)?, check("dim", self.dim)?))
    }
}

fn check(name: &str, v: u64) -> Result<f64> {
    if v == 0 || v > MAX_DIM {
        bail!("--{name} must be between 1 and {MAX_DIM}, got {v}");
    }
    Ok(v as f64)
}

impl OpArgs {
    fn ops(&self) -> Result<Vec<(&'static str, Op)>> {
        let ops = match *self {
            OpArgs::Gemm { m, n, k, bias } => vec![(
                "gemm",
                Op::Gemm {
                    m: check("m", m)?,
                    n: check("n", n)?,
                    k: check("k", k)?,
                    bias,
                },
            )],
            OpArgs::Gemv { n, k, batch } => vec![(
                "gemv",
                Op::Gemm {
                    m: check("batch", batch)?,
                    n: check("n", n)?,
                    k: check("k", k)?,
                    bias: false,
                },
            )],
            OpArgs::Bmm { batch, m, n, k } => {
                vec![(
                    "bmm",
                    Op::BatchedGemm {
                        batch: check("batch", batch)?,
                        m: check("m", m)?,
                        n: check("n", n)?,
                        k: check("k", k)?,
                    },
                )]
            }
            OpArgs::Attention {
                batch,
                q_len,
                kv_len,
                heads,
                kv_heads,
                head_dim,
                unfused,
                no_causal,
            } => {
                let kv_heads = kv_heads.unwrap_or(heads);
                if kv_heads == 0 || heads % kv_heads != 0 {
                    bail!("--kv-heads ({kv_heads}) must divide --heads ({heads})");
                }
                if q_len > kv_len {
                    bail!(
                        "--q-len ({q_len}) cannot exceed --kv-len ({kv_len}): queries attend to the context they are part of"
                    );
                }
                let shape = AttentionShape {
                    batch: check("batch", batch)?,
                    q_len: check("q-len", q_len)?,
                    kv_len: check("kv-len", kv_len)?,
                    heads: check("heads", heads)?,
                    kv_heads: kv_heads as f64,
                    qk_dim: check("head-dim", head_dim)?,
                    v_dim: head_dim as f64,
                    causal: !no_causal,
                    shared_kv: false,
                    window: None,
                };
                if unfused {
                    vec![
                        ("attn_scores", Op::AttentionScores(shape)),
                        ("attn_softmax", Op::AttentionSoftmax(shape)),
                        ("attn_context", Op::AttentionContext(shape)),
                    ]
                } else {
                    vec![("attention", Op::FusedAttention(shape))]
                }
            }
            OpArgs::Rmsnorm(ref r) => {
                let (tokens, dim) = r.checked()?;
                vec![(
                    "rmsnorm",
                    Op::Norm {
                        tokens,
                        dim,
                        kind: NormKind::Rms,
                    },
                )]
            }
            OpArgs::Layernorm(ref r) => {
                let (tokens, dim) = r.checked()?;
                vec![(
                    "layernorm",
                    Op::Norm {
                        tokens,
                        dim,
                        kind: NormKind::Layer,
                    },
                )]
            }
            OpArgs::ResidualAdd(ref r) => {
                let (tokens, dim) = r.checked()?;
                vec![("residual_add", Op::ResidualAdd { tokens, dim })]
            }
            OpArgs::Rope {
                tokens,
                heads,
                rotary_dim,
            } => {
                vec![(
                    "rope",
                    Op::Rope {
                        tokens: check("tokens", tokens)?,
                        heads: check("heads", heads)?,
                        rotary_dim: check("rotary-dim", rotary_dim)?,
                    },
                )]
            }
            OpArgs::SiluMul(ref r) => {
                let (tokens, dim) = r.checked()?;
                vec![("silu_mul", Op::SiluMul { tokens, dim })]
            }
            OpArgs::RouterTopk {
                tokens,
                experts,
                top_k,
            } => {
                if top_k > experts {
                    bail!("--top-k ({top_k}) cannot exceed --experts ({experts})");
                }
                vec![(
                    "router_topk",
                    Op::RouterTopK {
                        tokens: check("tokens", tokens)?,
                        experts: check("experts", experts)?,
                        top_k: check("top-k", top_k)?,
                    },
                )]
            }
            OpArgs::Embedding(ref r) => {
                let (tokens, dim) = r.checked()?;
                vec![("embedding", Op::Embedding { tokens, dim })]
            }
            OpArgs::Moe { .. } => unreachable!("a MoE layer is predicted by `moe`"),
        };
        Ok(ops)
    }
}

/// JSON of one prediction; field names are a stable interface.
#[derive(Serialize)]
pub struct PredictionJson {
    /// Operator name.
    pub op: &'static str,
    /// Device key.
    pub hardware: String,
    /// Operand formats.
    pub activations: String,
    /// Weight format.
    pub weights: String,
    /// KV-cache format.
    pub kv: String,
    /// Output format.
    pub output: String,
    /// FLOPs.
    pub flops: f64,
    /// Bytes moved.
    pub bytes: f64,
    /// FLOPs per byte.
    pub arithmetic_intensity: f64,
    /// Ridge point of the ceiling met, FLOPs per byte.
    pub critical_intensity: f64,
    /// Predicted time, seconds: the roofline bound, or with `--calibrated` the expected
    /// time under the shipped kernel terms where there are some.
    pub time_s: f64,
    /// The datasheet roofline bound, seconds.
    pub datasheet_time_s: f64,
    /// Where the calibrated time comes from, or why there is none (absent without
    /// `--calibrated`).
    pub calibration: Option<String>,
    /// bytes / bandwidth.
    pub memory_time_s: f64,
    /// FLOPs / peak.
    pub compute_time_s: f64,
    /// `memory` or `compute`.
    pub bound: &'static str,
    /// min(peak, intensity x bandwidth).
    pub attainable_flops_per_s: f64,
    /// Operation type requested.
    pub math: &'static str,
    /// Operation type run (differs when the chip converts).
    pub executed_as: &'static str,
    /// Whether the chip runs the requested type natively.
    pub native: bool,
    /// How it runs, in words (`fp16 (converted from fp8)`, `fp64: no published rate`).
    pub runs_as: String,
    /// Says these are model predictions, not measurements.
    pub kind: &'static str,
}

/// Builds the JSON of one prediction.
pub fn prediction_json(
    op: &'static str,
    hw: &Hardware,
    p: &Precision,
    r: &OpPrediction,
) -> PredictionJson {
    PredictionJson {
        op,
        hardware: hw.key.clone(),
        activations: p.activations.name(),
        weights: p.weights.name(),
        kv: p.kv.name(),
        output: p.output.name(),
        flops: r.cost.work.flops.get(),
        bytes: r.cost.work.bytes.get(),
        arithmetic_intensity: r.prediction.intensity.get(),
        critical_intensity: r.prediction.ridge.get(),
        time_s: r.prediction.time.get(),
        datasheet_time_s: r.prediction.time.get(),
        calibration: None,
        memory_time_s: r.prediction.memory_time.get(),
        compute_time_s: r.prediction.compute_time.get(),
        bound: r.prediction.bound.name(),
        attainable_flops_per_s: r.prediction.attainable.get(),
        math: r.ceiling.requested.name(),
        executed_as: r.ceiling.executed_as.name(),
        native: r.ceiling.native,
        runs_as: r.ceiling.runs_as(),
        kind: "predicted",
    }
}

/// Puts the shipped kernel terms' expected time on a GEMM or a fused attention, or says
/// why there is none.
fn calibrate(
    json: &mut PredictionJson,
    op: &Op,
    r: &OpPrediction,
    hw: &Hardware,
    p: &Precision,
    (framework, activations): (kernel_time::Framework, kernel_time::Activations),
) {
    let Some(kind) = kernel_time::Profiled::of(op, p) else {
        json.calibration = Some(format!(
            "none: kernel terms are fitted for GEMMs (activations and weights in one format), fused attention (heads up to 256 wide, not MLA) and whole MoE layers (`predict moe`) only, so {} shows the datasheet bound",
            json.op
        ));
        return;
    };
    match kernel_time::calibrated_with(op, p, hw, framework, &r.prediction, activations) {
        Some((time_s, profile)) => {
            json.time_s = time_s;
            json.calibration = Some(format!(
                "{} kernels ({}), {PROFILE_SOURCE}; held-out median error {:.0}%, p90 {:.0}%{}",
                framework.name(),
                profile.kernel.name(),
                profile.held_out_median * 100.0,
                profile.held_out_p90 * 100.0,
                activations
                    .note(p.activations)
                    .map_or_else(String::new, |note| format!("; {note}"))
            ));
        }
        None => {
            let shipped: Vec<String> = kernel_time::profiles()
                .filter(|q| q.hardware == hw.key && q.framework == framework)
                .map(|q| q.kernel.name())
                .collect();
            json.calibration = Some(format!(
                "none for {} on {} with {} kernels: the datasheet bound (profiles for this device and framework: {})",
                kind.name(),
                hw.key,
                framework.name(),
                if shipped.is_empty() {
                    "none".to_string()
                } else {
                    shipped.join("; ")
                }
            ));
        }
    }
}

/// The shape of a fused MoE layer on one GPU from `predict moe`'s arguments, checked.
fn moe_shape(op: &OpArgs) -> Result<Option<MoeShape>> {
    let OpArgs::Moe {
        tokens,
        hidden,
        intermediate,
        experts,
        top_k,
        ep,
        tp,
    } = *op
    else {
        return Ok(None);
    };
    if top_k > experts {
        bail!("--top-k ({top_k}) cannot exceed --experts ({experts})");
    }
    if ep == 0 || experts % ep != 0 {
        bail!("--ep ({ep}) must divide --experts ({experts}): each GPU holds whole experts");
    }
    if tp == 0 || intermediate % tp != 0 {
        bail!("--tp ({tp}) must divide --intermediate ({intermediate})");
    }
    Ok(Some(MoeShape {
        tokens: check("tokens", tokens)?,
        hidden: check("hidden", hidden)?,
        intermediate: check("intermediate", intermediate)? / tp as f64,
        top_k: check("top-k", top_k)?,
        experts: check("experts", experts)?,
        expert_parallel: ep as f64,
        gated: true,
    }))
}

/// JSON of a fused MoE layer's prediction; field names are a stable interface.
#[derive(Serialize)]
pub struct MoeJson {
    /// `moe`.
    pub op: &'static str,
    /// Device key.
    pub hardware: String,
    /// The tokens' copies and the tensor-core type.
    pub activations: String,
    /// The experts' weights.
    pub weights: String,
    /// Token copies routed to this GPU's experts (expected, under a uniform router).
    pub copies_per_gpu: f64,
    /// This GPU's experts that receive a copy (their weights are read; expected).
    pub experts_touched_per_gpu: f64,
    /// FLOPs of the experts' GEMMs on this GPU.
    pub flops: f64,
    /// The layer's bytes over the datasheet bandwidth (weights touched, the GEMMs'
    /// activations, the permutation), seconds.
    pub memory_time_s: f64,
    /// The experts' GEMMs over the datasheet peak, seconds.
    pub compute_time_s: f64,
    /// One pass over every token's routed copies at the datasheet bandwidth, seconds:
    /// routing work counted apart by the calibrated time, not by the bound.
    pub routing_time_s: f64,
    /// `memory` or `compute`.
    pub bound: &'static str,
    /// Predicted time, seconds: the roofline bound, or with `--calibrated` the expected
    /// time under the shipped MoE profile where there is one.
    pub time_s: f64,
    /// The datasheet roofline bound, seconds.
    pub datasheet_time_s: f64,
    /// Where the calibrated time comes from, or why there is none (absent without
    /// `--calibrated`).
    pub calibration: Option<String>,
    /// Says these are model predictions, not measurements.
    pub kind: &'static str,
}

/// Predicts one fused MoE layer of `shape` on one GPU.
fn moe(args: &Args, hw: &Hardware, precision: Precision, shape: MoeShape) -> Result<()> {
    let layer = FusedMoe::uniform(shape, precision);
    let times = layer.times(hw, kernel_time::MoeTiling::Copies);
    let flops: f64 = shape
        .expert_gemms(&layer.load)
        .iter()
        .map(|op| {
            op.predict(&precision, hw, &rooflinr_model::roofline::Efficiency::IDEAL)
                .cost
                .work
                .flops
                .get()
        })
        .sum();
    let mut json = MoeJson {
        op: "moe",
        hardware: hw.key.clone(),
        activations: precision.activations.name(),
        weights: precision.weights.name(),
        copies_per_gpu: layer.load.assignments,
        experts_touched_per_gpu: layer.load.experts_touched,
        flops,
        memory_time_s: times.memory_s,
        compute_time_s: times.compute_s,
        routing_time_s: times.route_s,
        bound: times.bound().name(),
        time_s: times.bound_s(),
        datasheet_time_s: times.bound_s(),
        calibration: None,
        kind: "predicted",
    };
    if args.calibrated {
        let activations = kernel_time::Activations::in_format(args.activations_in_format);
        json.calibration = Some(match layer.calibrated(hw, args.framework, activations) {
            Some((time_s, profile)) => {
                json.time_s = time_s;
                let tiles = layer
                    .tile_rows(profile.tiling)
                    .map_or_else(String::new, |rows| {
                        format!(
                            "; each expert computes whole tiles of {rows} token rows ({} tiles)",
                            profile.tiling.name()
                        )
                    });
                format!(
                    "{} kernels ({}), {PROFILE_SOURCE}; held-out median error {:.0}%, p90 {:.0}%{tiles}",
                    args.framework.name(),
                    profile.kernel.name(),
                    profile.held_out_median * 100.0,
                    profile.held_out_p90 * 100.0,
                )
            }
            None => format!(
                "none for {} on {} with {} kernels: the datasheet bound",
                layer.kind().name(),
                hw.key,
                args.framework.name()
            ),
        });
    }
    if args.json {
        return super::print_json(&json);
    }
    let basis = if args.calibrated {
        "predicted (roofline with fitted kernel terms; `bound` is the datasheet roofline's), not measured"
    } else {
        "predicted (roofline), not measured"
    };
    println!(
        "{} | activations {}, weights {} | {basis}\n",
        hw.name, precision.activations, precision.weights
    );
    let mut t = table::new(
        &[
            "op",
            "copies / GPU",
            "experts touched",
            "FLOPs",
            "memory time",
            "compute time",
            "time",
            "bound",
        ],
        1,
    );
    t.add_row(vec![
        json.op.to_string(),
        format!("{:.1}", json.copies_per_gpu),
        format!("{:.1}", json.experts_touched_per_gpu),
        si(json.flops, "FLOP"),
        si(json.memory_time_s, "s"),
        si(json.compute_time_s, "s"),
        si(json.time_s, "s"),
        json.bound.to_string(),
    ]);
    table::print(&t);
    if let Some(c) = &json.calibration {
        println!(
            "moe: {} (datasheet bound {}): {c}",
            si(json.time_s, "s"),
            si(json.datasheet_time_s, "s")
        );
    }
    Ok(())
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let hw = args.hardware.load()?;
    let efficiency = args.hardware.efficiency()?;
    let precision = args.precision.resolve();
    if let Some(shape) = moe_shape(&args.op)? {
        return moe(&args, &hw, precision, shape);
    }
    let results: Vec<PredictionJson> = args
        .op
        .ops()?
        .into_iter()
        .map(|(name, op)| {
            let predicted = op.predict(&precision, &hw, &efficiency);
            let mut json = prediction_json(name, &hw, &precision, &predicted);
            if args.calibrated {
                let activations = kernel_time::Activations::in_format(args.activations_in_format);
                calibrate(
                    &mut json,
                    &op,
                    &predicted,
                    &hw,
                    &precision,
                    (args.framework, activations),
                );
            }
            json
        })
        .collect();
    if args.json {
        return match results.as_slice() {
            [one] => super::print_json(one),
            many => super::print_json(&many),
        };
    }
    let basis = if args.calibrated {
        "predicted (roofline with fitted kernel terms; `bound` is the datasheet roofline's), not measured"
    } else {
        "predicted (roofline), not measured"
    };
    println!(
        "{} | activations {}, weights {}, kv {}, output {} | {basis}\n",
        hw.name, precision.activations, precision.weights, precision.kv, precision.output
    );
    let mut t = table::new(
        &[
            "op",
            "FLOPs",
            "bytes",
            "intensity",
            "ridge",
            "time",
            "bound",
            "attainable",
            "runs as",
        ],
        1,
    );
    for r in &results {
        let runs_as = r.runs_as.clone();
        t.add_row(vec![
            r.op.to_string(),
            si(r.flops, "FLOP"),
            si(r.bytes, "B"),
            format!("{:.2} FLOP/B", r.arithmetic_intensity),
            format!("{:.0} FLOP/B", r.critical_intensity),
            si(r.time_s, "s"),
            r.bound.to_string(),
            si(r.attainable_flops_per_s, "FLOP/s"),
            runs_as,
        ]);
    }
    table::print(&t);
    for r in &results {
        if let Some(c) = &r.calibration {
            println!(
                "{}: {} (datasheet bound {}): {c}",
                r.op,
                si(r.time_s, "s"),
                si(r.datasheet_time_s, "s")
            );
        }
    }
    Ok(())
}
