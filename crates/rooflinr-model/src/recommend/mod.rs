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

use crate::analysis::Phase;
use crate::config::ModelConfig;
use crate::error::ModelError;
use crate::hardware::Hardware;
use crate::ops::Precision;
use crate::quant::Synthetic;
use crate::roofline::Efficiency;
use crate::units::{Bytes, Seconds};

mod evaluate;
mod quality;
mod strategy;

use evaluate::evaluate;
use quality::QualityCache;
pub use quality::TensorRole;
use strategy::strategies;
pub use strategy::{Scheme, StrategyId};

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
            AttentionChoice::Blackwell => hardware.has_tcgen05(),
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
    crate::sort::sort_by(&mut candidates, |a, b| {
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

#[cfg(test)]
mod tests;
