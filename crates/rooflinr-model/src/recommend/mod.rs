//! The recommender: rank quantisation strategies for an operator or a whole model on a
//! device by predicted speed-up, memory saved and *measured* quality, and say why.
//!
//! Quality is the worst SQNR (dB) over the tensors a strategy quantises, each measured by
//! quantising a sample tensor with the strategy's codec ([`QualitySamples`]): weights
//! (synthetic Gaussian, or a real weight the caller supplies), activations (synthetic
//! with outlier channels, quantised per token as dynamic scaling does) and keys/values
//! (synthetic heavy-tailed). Speed and memory come from the roofline analysis.
//!
//! Conventions:
//! - Activation quantisation is dynamic and per token: before each linear layer whose
//!   activations are quantised, a kernel reads the FP16 input, finds each token's absmax,
//!   and writes the quantised copy and its scales (q/k/v and gate/up share an input and
//!   pay once). That work is added to the strategy's time at the FP32 vector rate.
//! - Attention kernels ([`AttentionChoice`]): FlashAttention 2 computes in FP16/BF16
//!   (an FP8 KV cache is dequantised in the kernel: fewer bytes, same math);
//!   FlashAttention 3 (Hopper, sm_90 only) and the Blackwell generation (sm_100; not
//!   sm_12x, which lacks tcgen05) compute attention in FP8 when the KV cache is FP8.
//! - The mixed-precision strategy keeps attention (projections and KV) in FP8 and runs
//!   the MLP or experts in the best 4-bit format; embeddings and LM head stay FP16 in
//!   every strategy.

use crate::analysis::{
    self, AttentionKernel, Block, ModelAnalysis, OpId, OpReport, Phase, Scenario,
};
use crate::config::ModelConfig;
use crate::error::ModelError;
use crate::format::{Format, GroupedInt, Math};
use crate::hardware::Hardware;
use crate::ops::{Op, OpPrediction, Precision};
use crate::quant::quality::ErrorStats;
use crate::quant::{Codec, Synthetic};
use crate::roofline::{Bound, Efficiency, Roof, Work};
use crate::units::{Bytes, Flops, Seconds};

/// What is being optimised.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// One GEMM (`m` = 1 is a decode GEMV).
    Gemm {
        /// Tokens.
        m: u64,
        /// Output features.
        n: u64,
        /// Input features.
        k: u64,
    },
    /// A whole model.
    Model(Box<ModelConfig>),
}

/// An attention kernel a user can choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttentionChoice {
    /// FlashAttention 2: FP16/BF16 math on sm_80 and later.
    Fa2,
    /// FlashAttention 3: Hopper (sm_90) only, with FP8 attention.
    Fa3,
    /// The Blackwell generation (FlashAttention 4, cuDNN): sm_100, with FP8 attention.
    Blackwell,
}

impl AttentionChoice {
    /// Command-line name.
    pub fn name(self) -> &'static str {
        match self {
            AttentionChoice::Fa2 => "fa2",
            AttentionChoice::Fa3 => "fa3",
            AttentionChoice::Blackwell => "blackwell",
        }
    }

    /// Why the kernel cannot run on `hardware`, if it cannot.
    pub fn unsupported_on(self, hardware: &Hardware) -> Option<String> {
        let sm = hardware.sm_version();
        let ok = match self {
            AttentionChoice::Fa2 => sm.is_none_or(|v| v >= 80),
            AttentionChoice::Fa3 => sm == Some(90),
            AttentionChoice::Blackwell => sm.is_some_and(|v| (100..110).contains(&v)),
        };
        (!ok).then(|| {
            let arch = &hardware.architecture;
            match self {
                AttentionChoice::Fa2 => format!("FlashAttention 2 needs sm_80 or later ({arch})"),
                AttentionChoice::Fa3 => {
                    format!("FlashAttention 3 runs on Hopper sm_90 only ({arch})")
                }
                AttentionChoice::Blackwell => {
                    format!("Blackwell attention kernels need sm_100 tcgen05 ({arch})")
                }
            }
        })
    }

    /// The most capable kernel the device runs.
    pub fn best_for(hardware: &Hardware) -> AttentionChoice {
        [AttentionChoice::Blackwell, AttentionChoice::Fa3]
            .into_iter()
            .find(|k| k.unsupported_on(hardware).is_none())
            .unwrap_or(AttentionChoice::Fa2)
    }

    /// Whether it computes attention in FP8 over an FP8 KV cache.
    pub fn fp8_attention(self) -> bool {
        self != AttentionChoice::Fa2
    }
}

impl std::str::FromStr for AttentionChoice {
    type Err = ModelError;

    fn from_str(s: &str) -> Result<Self, ModelError> {
        [
            AttentionChoice::Fa2,
            AttentionChoice::Fa3,
            AttentionChoice::Blackwell,
        ]
        .into_iter()
        .find(|k| k.name() == s.trim())
        .ok_or_else(|| {
            ModelError::invalid(
                "attention",
                format!("`{s}` is not one of fa2, fa3, blackwell"),
            )
        })
    }
}

/// Sample tensors the quality of each strategy is measured on.
#[derive(Clone, Debug, PartialEq)]
pub struct QualitySamples {
    /// Weight sample and its row length.
    pub weights: (Vec<f32>, usize),
    /// Activation sample (rows are tokens) and its row length.
    pub activations: (Vec<f32>, usize),
    /// Key/value sample and its row length (a head dimension).
    pub kv: (Vec<f32>, usize),
    /// Where the weight sample came from, for reports.
    pub weights_source: String,
}

impl QualitySamples {
    /// Synthetic samples: 32 x 1024 Gaussian weights, 32 tokens x 1024 activations with
    /// outlier channels, 256 x 128 heavy-tailed keys/values; fixed seeds.
    pub fn synthetic() -> Self {
        QualitySamples {
            weights: (Synthetic::Gaussian.generate(32, 1024, 1), 1024),
            activations: (Synthetic::OutlierChannels.generate(32, 1024, 2), 1024),
            kv: (Synthetic::HeavyTailed.generate(256, 128, 3), 128),
            weights_source: "synthetic Gaussian weights (32 x 1024)".into(),
        }
    }
}

/// What a strategy quantises, to what.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrategyFormats {
    /// Formats of the MLP / expert layers (and of everything when not mixed).
    pub main: Precision,
    /// Formats of the attention layers when they differ (mixed precision).
    pub attention: Option<Precision>,
    /// Attention computed in FP8 by an FP8-capable kernel.
    pub fp8_attention: bool,
}

/// A scheme for the linear layers' weights and activations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Everything in FP16: the baseline.
    Fp16,
    /// FP8 E4M3 weights and activations.
    Fp8W8A8,
    /// INT8 weights and activations.
    Int8W8A8,
    /// INT4 weights in groups of 128 with FP16 scales and zero points (AWQ/GPTQ), FP16
    /// activations.
    Int4Awq,
    /// NVFP4 weights and activations.
    NvFp4W4A4,
    /// MXFP4 weights and activations.
    MxFp4W4A4,
}

impl Scheme {
    /// The label candidates are shown with.
    pub fn label(self) -> &'static str {
        match self {
            Scheme::Fp16 => "FP16 baseline",
            Scheme::Fp8W8A8 => "FP8 W8A8",
            Scheme::Int8W8A8 => "INT8 W8A8",
            Scheme::Int4Awq => "INT4 weight-only (AWQ/GPTQ g128)",
            Scheme::NvFp4W4A4 => "NVFP4 W4A4",
            Scheme::MxFp4W4A4 => "MXFP4 W4A4",
        }
    }

    /// Its formats, with an FP16 KV cache and outputs.
    fn precision(self) -> Precision {
        match self {
            Scheme::Fp16 => uniform(Format::Fp16, Format::Fp16),
            Scheme::Fp8W8A8 => uniform(Format::Fp8E4m3, Format::Fp8E4m3),
            Scheme::Int8W8A8 => uniform(Format::Int8, Format::Int8),
            Scheme::Int4Awq => uniform(Format::Grouped(GroupedInt::AWQ_INT4), Format::Fp16),
            Scheme::NvFp4W4A4 => uniform(Format::NvFp4, Format::NvFp4),
            Scheme::MxFp4W4A4 => uniform(Format::MxFp4, Format::MxFp4),
        }
    }
}

/// Which strategy a candidate is, apart from its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrategyId {
    /// Every linear layer in one scheme; the KV cache in `kv` when it is quantised.
    Uniform {
        /// The linear layers' scheme.
        scheme: Scheme,
        /// The KV cache's format, when not the activations' FP16.
        kv: Option<Format>,
    },
    /// Attention in FP8 with an FP8 KV cache, the MLP in `mlp` (the best 4-bit scheme).
    Mixed {
        /// The MLP's scheme.
        mlp: Scheme,
    },
}

impl StrategyId {
    /// A scheme alone, FP16 cache.
    pub const fn plain(scheme: Scheme) -> StrategyId {
        StrategyId::Uniform { scheme, kv: None }
    }
}

/// One ranked strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Which strategy it is.
    pub id: StrategyId,
    /// Short label (`NVFP4 W4A4 + FP8 KV`).
    pub name: String,
    /// Its formats.
    pub formats: StrategyFormats,
    /// Predicted time of the operator or forward pass.
    pub time: Seconds,
    /// Baseline time over this time.
    pub speedup: f64,
    /// Weights (plus KV cache for a model) in bytes.
    pub memory: Bytes,
    /// 1 - memory / baseline memory.
    pub memory_saved: f64,
    /// The worst measured SQNR over the quantised tensors, dB.
    pub quality_db: f64,
    /// Which tensor that worst SQNR is.
    pub quality_limited_by: TensorRole,
    /// Quality at or above the budget.
    pub within_budget: bool,
    /// Not beaten on all of speed, memory and quality by another candidate.
    pub pareto: bool,
    /// Fits the device's memory.
    pub fits: bool,
    /// Why it is as fast as it is, in words.
    pub reason: String,
}

/// The recommender's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Recommendation {
    /// What limits the baseline, in words (`decode GEMV: intensity 1.0 ...`).
    pub bottleneck: String,
    /// Candidates, fastest first; the first is the FP16 baseline's position wherever
    /// it falls.
    pub candidates: Vec<Candidate>,
    /// Index of the recommended candidate: the fastest within the quality budget that
    /// fits in memory, or, when none fits, the fastest within the budget.
    pub best: Option<usize>,
    /// Strategies not offered on this device, with the reason.
    pub skipped: Vec<(String, String)>,
    /// The attention kernel assumed.
    pub attention: AttentionChoice,
    /// The weight sample quality was measured on.
    pub weights_source: String,
}

/// What to recommend for.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// Operator or model.
    pub target: Target,
    /// The device.
    pub hardware: &'a Hardware,
    /// Prefill or decode (models only).
    pub phase: Phase,
    /// Sequences in the batch (models only).
    pub batch: u64,
    /// Prompt or context length (models only).
    pub seq: u64,
    /// Smallest acceptable SQNR, dB.
    pub min_sqnr_db: f64,
    /// The attention kernel (default: the best the device runs).
    pub attention: Option<AttentionChoice>,
    /// Achievable fractions of the peaks.
    pub efficiency: Efficiency,
}

/// Ranks the strategies.
pub fn recommend(req: &Request, samples: &QualitySamples) -> Result<Recommendation, ModelError> {
    if !req.min_sqnr_db.is_finite() {
        return Err(ModelError::invalid(
            "min_sqnr_db",
            "must be a finite number of dB",
        ));
    }
    let hw = req.hardware;
    let attention = req
        .attention
        .unwrap_or_else(|| AttentionChoice::best_for(hw));
    if let Some(why) = attention.unsupported_on(hw) {
        return Err(ModelError::invalid("attention", why));
    }
    let (strategies, skipped) = strategies(req, attention);
    let mut quality = QualityCache::new(samples);
    let mut candidates = Vec::with_capacity(strategies.len());
    // Every strategy evaluated once; the first is the FP16 baseline the others compare to.
    let evaluations = strategies
        .iter()
        .map(|strategy| evaluate(req, &strategy.formats))
        .collect::<Result<Vec<_>, _>>()?;
    let baseline = &evaluations[0];
    for (strategy, e) in strategies.iter().zip(&evaluations) {
        let (quality_db, limited_by) = quality.strategy(&strategy.formats);
        candidates.push(Candidate {
            id: strategy.id,
            name: strategy.label.clone(),
            formats: strategy.formats,
            time: e.time,
            speedup: baseline.time / e.time,
            memory: e.memory,
            memory_saved: 1.0 - e.memory / baseline.memory,
            quality_db,
            quality_limited_by: limited_by,
            within_budget: quality_db >= req.min_sqnr_db,
            pareto: false,
            fits: e.memory <= hw.memory_capacity.value,
            reason: e.reason(baseline),
        });
    }
    mark_pareto(&mut candidates);
    candidates.sort_by(|a, b| {
        b.speedup
            .total_cmp(&a.speedup)
            .then(b.quality_db.total_cmp(&a.quality_db))
    });
    let best = candidates
        .iter()
        .position(|c| c.within_budget && c.fits)
        .or_else(|| candidates.iter().position(|c| c.within_budget));
    Ok(Recommendation {
        bottleneck: baseline.bottleneck.clone(),
        candidates,
        best,
        skipped,
        attention,
        weights_source: samples.weights_source.clone(),
    })
}

fn uniform(weights: Format, activations: Format) -> Precision {
    Precision {
        activations,
        weights,
        kv: Format::Fp16,
        output: Format::Fp16,
    }
}

/// A strategy: its id, label and formats.
struct Strategy {
    id: StrategyId,
    label: String,
    formats: StrategyFormats,
}

/// The strategies offered on the device, and those skipped with the reason.
fn strategies(req: &Request, attention: AttentionChoice) -> (Vec<Strategy>, Vec<(String, String)>) {
    let hw = req.hardware;
    let fp4_native = hw.ceiling(Math::Fp4, true).native;
    let fp8_native = hw.ceiling(Math::Fp8, false).native;
    let mut bases = vec![
        Scheme::Fp16,
        Scheme::Fp8W8A8,
        Scheme::Int8W8A8,
        Scheme::Int4Awq,
    ];
    let mut skipped = Vec::new();
    for scheme in [Scheme::NvFp4W4A4, Scheme::MxFp4W4A4] {
        if fp4_native {
            bases.push(scheme);
        } else {
            skipped.push((
                scheme.label().to_string(),
                format!("{} has no block-scaled FP4 tensor cores", hw.name),
            ));
        }
    }
    if !fp8_native {
        skipped.push((
            "FP8 natively".to_string(),
            format!(
                "{} has no FP8 tensor cores: FP8 runs as FP16 after conversion",
                hw.name
            ),
        ));
    }
    let mut out: Vec<Strategy> = bases
        .iter()
        .map(|&scheme| Strategy {
            id: StrategyId::plain(scheme),
            label: scheme.label().to_string(),
            formats: StrategyFormats {
                main: scheme.precision(),
                attention: None,
                fp8_attention: false,
            },
        })
        .collect();
    let Target::Model(_) = &req.target else {
        return (out, skipped);
    };
    // KV-cache quantisation on top of each weight strategy.
    let fp8_attention = attention.fp8_attention();
    for &scheme in &bases {
        for (kv_name, kv) in [("FP8 KV", Format::Fp8E4m3), ("NVFP4 KV", Format::NvFp4)] {
            let fp8 = fp8_attention && kv == Format::Fp8E4m3;
            let name = scheme.label();
            let label = if fp8 {
                format!(
                    "{name} + {kv_name} ({} FP8 attention)",
                    attention.name().to_uppercase()
                )
            } else {
                format!("{name} + {kv_name}")
            };
            out.push(Strategy {
                id: StrategyId::Uniform {
                    scheme,
                    kv: Some(kv),
                },
                label,
                formats: StrategyFormats {
                    main: Precision {
                        kv,
                        ..scheme.precision()
                    },
                    attention: None,
                    fp8_attention: fp8,
                },
            });
        }
    }
    // Mixed precision: attention in FP8 (with an FP8 KV cache), MLP in the best 4-bit.
    let mlp = if fp4_native {
        Scheme::NvFp4W4A4
    } else {
        Scheme::Int4Awq
    };
    let attention_side = Precision {
        kv: Format::Fp8E4m3,
        ..Scheme::Fp8W8A8.precision()
    };
    out.push(Strategy {
        id: StrategyId::Mixed { mlp },
        label: format!(
            "Mixed: attention FP8 + FP8 KV, MLP {}",
            if fp4_native { "NVFP4" } else { "INT4 AWQ" }
        ),
        formats: StrategyFormats {
            main: Precision {
                kv: Format::Fp8E4m3,
                ..mlp.precision()
            },
            attention: Some(attention_side),
            fp8_attention,
        },
    });
    (out, skipped)
}

/// The operator that takes the largest share of a strategy's time, as the explanation
/// names it.
struct Dominant {
    /// `GEMV`, `GEMM`, or the model operator's name.
    name: String,
    /// Its FLOPs per byte.
    intensity: f64,
    /// The ridge point of the roof it meets.
    ridge: f64,
    /// Which ceiling binds.
    bound: Bound,
    /// The compute type it runs as.
    math: Math,
    /// Whether it runs natively (no conversion).
    native: bool,
}

impl Dominant {
    fn of(name: String, r: &OpPrediction) -> Dominant {
        let p = r.prediction;
        Dominant {
            name,
            intensity: p.intensity.get(),
            ridge: p.ridge.get(),
            bound: p.bound,
            math: r.ceiling.executed_as,
            native: r.ceiling.native,
        }
    }
}

/// Time, memory and the words explaining them, for one strategy.
struct Evaluation {
    time: Seconds,
    memory: Bytes,
    weight_bytes: Bytes,
    /// The largest-share operator.
    dominant: Dominant,
    quantize_overhead: Seconds,
    bottleneck: String,
}

impl Evaluation {
    fn reason(&self, baseline: &Evaluation) -> String {
        let Dominant {
            name,
            intensity: ai,
            ridge,
            bound,
            math,
            native,
        } = &self.dominant;
        let how = match bound {
            Bound::Memory => format!(
                "{name} is memory-bound (intensity {ai:.1} vs ridge {ridge:.0} FLOP/B): weights {:.2}x smaller",
                baseline.weight_bytes / self.weight_bytes
            ),
            Bound::Compute => format!(
                "{name} is compute-bound (intensity {ai:.0} vs ridge {ridge:.0} FLOP/B): runs as {}{}",
                math.name(),
                if *native { "" } else { " (converted)" }
            ),
        };
        if self.quantize_overhead.get() > 0.0 {
            format!(
                "{how}; per-token activation quantisation adds {}",
                self.quantize_overhead
            )
        } else {
            how
        }
    }
}

fn evaluate(req: &Request, formats: &StrategyFormats) -> Result<Evaluation, ModelError> {
    match &req.target {
        Target::Gemm { m, n, k } => {
            let (m, n, k) = (*m as f64, *n as f64, *k as f64);
            let op = Op::Gemm {
                m,
                n,
                k,
                bias: false,
            };
            let p = formats.main;
            let r = op.predict(&p, req.hardware, &req.efficiency);
            let overhead = activation_quantisation(req, p.activations, &[(m, k)]);
            let weight_bytes = p.weights.tensor_bytes(n * k);
            let pr = r.prediction;
            let dominant = Dominant::of(if m == 1.0 { "GEMV" } else { "GEMM" }.to_string(), &r);
            let bottleneck = bottleneck_words(&dominant, 1.0, req.phase, false);
            Ok(Evaluation {
                time: pr.time + overhead,
                memory: weight_bytes,
                weight_bytes,
                dominant,
                quantize_overhead: overhead,
                bottleneck,
            })
        }
        Target::Model(config) => evaluate_model(req, config, formats),
    }
}

fn scenario(req: &Request, p: Precision) -> Scenario {
    Scenario {
        phase: req.phase,
        batch: req.batch,
        seq: req.seq,
        precision: p,
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
    }
}

fn evaluate_model(
    req: &Request,
    config: &ModelConfig,
    formats: &StrategyFormats,
) -> Result<Evaluation, ModelError> {
    let run =
        |p: Precision| analysis::analyze(config, req.hardware, &scenario(req, p), &req.efficiency);
    let main = run(formats.main)?;
    let side = formats.attention.map(run).transpose()?;
    // The attention kernel decides attention's math: FP8 with an FP8-capable kernel over
    // an FP8 cache, FP16 otherwise (FlashAttention 2 dequantises whatever the cache holds).
    let attention_side = formats.attention.unwrap_or(formats.main);
    let attention_math = if formats.fp8_attention {
        Format::Fp8E4m3
    } else {
        Format::Fp16
    };
    let kernel = (attention_side.activations != attention_math)
        .then(|| {
            run(Precision {
                activations: attention_math,
                ..attention_side
            })
        })
        .transpose()?;
    // The same operator in another analysis of the model, matched by id.
    let same = |other: &ModelAnalysis, o: &OpReport| -> OpReport {
        other.ops.iter().find(|x| x.id == o.id).unwrap_or(o).clone()
    };
    let pick = |o: &OpReport| -> OpReport {
        if o.id == OpId::Attention
            && let Some(a) = &kernel
        {
            return same(a, o);
        }
        match &side {
            // Mixed precision: everything but the MLP block takes the attention side's
            // formats (the norms, embedding and LM head included).
            Some(s) if o.id.block() != Block::Mlp => same(s, o),
            _ => o.clone(),
        }
    };
    let ops: Vec<OpReport> = main.ops.iter().map(pick).collect();
    let time: Seconds = ops.iter().map(|o| o.time).sum();
    // Activation quantisation: one per linear input, shared inputs once.
    let inputs: Vec<(f64, f64)> = ops
        .iter()
        .filter(|o| !o.id.shares_input() && o.precision.activations != Format::Fp16)
        .filter_map(|o| match o.op {
            Op::Gemm { m, k, .. } if o.id != OpId::LmHead => Some((m * o.count, k)),
            _ => None,
        })
        .collect();
    let act_format = formats.main.activations;
    let overhead = activation_quantisation(req, act_format, &inputs);
    let weight_bytes = match (&side, formats.attention) {
        (Some(s), Some(_)) => mixed_weight_bytes(config, &main, s),
        _ => main.weight_bytes,
    };
    let kv_bytes = match &side {
        Some(s) => s.kv_cache_bytes,
        None => main.kv_cache_bytes,
    };
    let dominant = ops
        .iter()
        .max_by(|a, b| a.time.get().total_cmp(&b.time.get()))
        .map(|o| Dominant::of(o.name().to_string(), &o.result))
        .ok_or_else(|| ModelError::invalid("model", "has no operators"))?;
    let memory_share = ops
        .iter()
        .filter(|o| o.bound() == Bound::Memory)
        .map(|o| o.time.get())
        .sum::<f64>()
        / time.get();
    let bottleneck = bottleneck_words(&dominant, memory_share, req.phase, true);
    Ok(Evaluation {
        time: time + overhead,
        memory: weight_bytes + kv_bytes,
        weight_bytes,
        dominant,
        quantize_overhead: overhead,
        bottleneck,
    })
}

/// Weight bytes with the MLP from `mlp` and everything else from `attention`: storage is
/// linear in bits per element, so the MLP's elements move from one format to the other.
fn mixed_weight_bytes(
    config: &ModelConfig,
    mlp: &ModelAnalysis,
    attention: &ModelAnalysis,
) -> Bytes {
    let (h, l) = (config.hidden as f64, config.layers as f64);
    let mlp_elements = match &config.moe {
        Some(m) => {
            let dense = m.dense_layers as f64;
            let experts = (m.experts + m.shared_experts) as f64;
            3.0 * h
                * (dense * config.intermediate as f64
                    + (l - dense) * experts * m.expert_intermediate as f64)
        }
        None => 3.0 * h * config.intermediate as f64 * l,
    };
    // The first down projection (dense, routed or shared) holds the MLP's weight format.
    let down = |o: &&OpReport| {
        matches!(
            o.id,
            OpId::DownProj | OpId::ExpertsDownProj | OpId::SharedExpertDownProj
        )
    };
    let mlp_format = mlp.ops.iter().find(down).map(|o| o.precision.weights);
    let attention_format = attention.ops.iter().find(down).map(|o| o.precision.weights);
    match (mlp_format, attention_format) {
        (Some(m), Some(a)) => {
            attention.weight_bytes + m.tensor_bytes(mlp_elements) - a.tensor_bytes(mlp_elements)
        }
        _ => mlp.weight_bytes,
    }
}

/// Time of dynamic per-token quantisation of linear inputs (`(tokens, features)` each):
/// read FP16, write the format plus one FP32 scale per token; about 3 FLOPs per element
/// (absmax, scale, round), at the FP32 vector rate.
fn activation_quantisation(req: &Request, format: Format, inputs: &[(f64, f64)]) -> Seconds {
    if matches!(format, Format::Fp16 | Format::Bf16 | Format::Fp32) {
        return Seconds(0.0);
    }
    let hw = req.hardware;
    let roof = Roof::new(hw, &hw.ceiling(Math::Fp32, false), &req.efficiency);
    inputs
        .iter()
        .map(|&(tokens, features)| {
            let n = tokens * features;
            let work = Work {
                flops: Flops(3.0 * n),
                bytes: Format::Fp16.tensor_bytes(n) + format.tensor_bytes(n) + Bytes(4.0 * tokens),
            };
            roof.predict(work).time
        })
        .sum()
}

fn bottleneck_words(dominant: &Dominant, memory_share: f64, phase: Phase, model: bool) -> String {
    let Dominant {
        name,
        intensity: ai,
        ridge,
        bound,
        ..
    } = dominant;
    let what = if model {
        format!(
            "{}: {:.0}% of the time is memory-bound; the largest operator, {name}, has intensity {ai:.1} against a ridge of {ridge:.0} FLOP/B",
            phase.name(),
            memory_share * 100.0
        )
    } else {
        format!("{name}: intensity {ai:.1} against a ridge of {ridge:.0} FLOP/B")
    };
    match bound {
        Bound::Memory => format!("{what}, memory-bound, so bytes decide"),
        Bound::Compute => {
            format!("{what}, compute-bound, so the format's tensor-core rate decides")
        }
    }
}

/// Marks candidates no other candidate beats on speed, memory and quality at once.
fn mark_pareto(candidates: &mut [Candidate]) {
    let keys: Vec<(f64, f64, f64)> = candidates
        .iter()
        .map(|c| (c.speedup, c.memory_saved, c.quality_db))
        .collect();
    for (i, c) in candidates.iter_mut().enumerate() {
        let a = keys[i];
        c.pareto = !keys.iter().any(|b| {
            b.0 >= a.0 && b.1 >= a.1 && b.2 >= a.2 && (b.0 > a.0 || b.1 > a.1 || b.2 > a.2)
        });
    }
}

/// The tensors a strategy stores in a low format, each judged on its own sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorRole {
    /// Linear layers' weights.
    Weights,
    /// Linear layers' inputs (scaled per token).
    Activations,
    /// The KV cache.
    Kv,
}

impl TensorRole {
    /// `weights`, `activations`, `kv`.
    pub fn name(self) -> &'static str {
        match self {
            TensorRole::Weights => "weights",
            TensorRole::Activations => "activations",
            TensorRole::Kv => "kv",
        }
    }
}

/// Measured SQNR per (role, format), each measured once.
struct QualityCache<'a> {
    samples: &'a QualitySamples,
    measured: Vec<(TensorRole, Format, f64)>,
}

impl<'a> QualityCache<'a> {
    fn new(samples: &'a QualitySamples) -> Self {
        QualityCache {
            samples,
            measured: Vec::new(),
        }
    }

    fn sqnr(&mut self, role: TensorRole, format: Format) -> f64 {
        if let Some((_, _, db)) = self
            .measured
            .iter()
            .find(|(r, f, _)| *r == role && *f == format)
        {
            return *db;
        }
        let (values, cols) = match role {
            TensorRole::Weights => &self.samples.weights,
            TensorRole::Activations => &self.samples.activations,
            TensorRole::Kv => &self.samples.kv,
        };
        // Activations are scaled per token: INT8 per row, the block formats per block.
        let codec = match (role, format) {
            (TensorRole::Activations, Format::Int8) => {
                "int8-channel".parse().unwrap_or(Codec::for_format(format))
            }
            _ => Codec::for_format(format),
        };
        let db = codec
            .round_trip(values, *cols)
            .map(|q| ErrorStats::between(values, &q).sqnr_db)
            .unwrap_or(f64::NEG_INFINITY);
        self.measured.push((role, format, db));
        db
    }

    /// The worst SQNR over the tensors a strategy stores in each format.
    fn strategy(&mut self, f: &StrategyFormats) -> (f64, TensorRole) {
        let roles_of = |p: Precision| {
            [
                (TensorRole::Weights, p.weights),
                (TensorRole::Activations, p.activations),
                (TensorRole::Kv, p.kv),
            ]
        };
        let mut roles = roles_of(f.main).to_vec();
        if let Some(a) = f.attention {
            roles.extend(roles_of(a));
        }
        roles
            .into_iter()
            .map(|(role, format)| (self.sqnr(role, format), role))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap_or((f64::INFINITY, TensorRole::Weights))
    }
}

#[cfg(test)]
mod tests;
