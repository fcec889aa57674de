//! A strategy's predicted time and memory, and the words that explain them.

use crate::analysis::{
    self, AttentionKernel, Block, ModelAnalysis, OpId, OpReport, Phase, Scenario,
};
use crate::config::ModelConfig;
use crate::error::ModelError;
use crate::format::{Format, Math};
use crate::ops::{Op, OpPrediction, Precision};
use crate::roofline::{Bound, Roof, Work};
use crate::units::{Bytes, Flops, Seconds};

use super::{Request, StrategyFormats, Target};

/// The operator that takes the largest share of a strategy's time, as the explanation
/// names it.
pub(super) struct Dominant {
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
pub(super) struct Evaluation {
    pub(super) time: Seconds,
    pub(super) memory: Bytes,
    pub(super) weight_bytes: Bytes,
    /// The largest-share operator.
    pub(super) dominant: Dominant,
    pub(super) quantize_overhead: Seconds,
    pub(super) bottleneck: String,
}

impl Evaluation {
    pub(super) fn reason(&self, baseline: &Evaluation) -> String {
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

pub(super) fn evaluate(req: &Request, formats: &StrategyFormats) -> Result<Evaluation, ModelError> {
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
        experts: None,
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
    // The same operator in another analysis of the model: the one at the same place in its
    // list (an id can come more than once: attention over a window and over all tokens),
    // else the first with its id.
    let same = |other: &ModelAnalysis, i: usize, o: &OpReport| -> OpReport {
        other
            .ops
            .get(i)
            .filter(|x| x.id == o.id)
            .or_else(|| other.ops.iter().find(|x| x.id == o.id))
            .unwrap_or(o)
            .clone()
    };
    let pick = |(i, o): (usize, &OpReport)| -> OpReport {
        if o.id == OpId::Attention
            && let Some(a) = &kernel
        {
            return same(a, i, o);
        }
        match &side {
            // Mixed precision: everything but the MLP block takes the attention side's
            // formats (the norms, embedding and LM head included).
            Some(s) if o.id.block() != Block::Mlp => same(s, i, o),
            _ => o.clone(),
        }
    };
    let ops: Vec<OpReport> = main.ops.iter().enumerate().map(pick).collect();
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
