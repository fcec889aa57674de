//! Whole-model analysis: the operator list of one forward pass (prefill or one decode
//! step), each operator's roofline time, and the model's memory footprint.
//!
//! Conventions, each a choice where the prototype (docs/prototype.md) is silent or wrong:
//! - Operators run one after another; their roofline times add (no overlap).
//! - Embeddings and the LM head stay in the activation format unless
//!   [`Scenario::quantize_embeddings`] is set, as AWQ, GPTQ and ModelOpt checkpoints ship
//!   them. Norms, biases and MoE routers are never quantised.
//! - Prefill computes logits for the last token of each sequence only, as a server does
//!   (the prototype charges the LM head for every prompt token).
//! - MoE routing is uniform: a batch of T tokens choosing k of E experts touches
//!   E(1 - (1 - k/E)^T) distinct experts, whose weights are read once.
//! - DeepSeek's MLA runs in its absorbed form in decode (attention over the 576-wide latent
//!   cache, as FlashMLA does) and in its expanded form in prefill (K and V rebuilt from the
//!   latent by `kv_b_proj`), as vLLM and SGLang do.
//! - The KV cache holds `seq` tokens per sequence; decode attends over all of them. Under a
//!   sliding window (Mistral-7B-v0.1) it holds and attends over the last `window` only.

mod params;
mod step;

use crate::config::ModelConfig;
use crate::error::ModelError;
use crate::format::Format;
use crate::hardware::Hardware;
use crate::ops::{Op, OpPrediction, Precision};
use crate::roofline::{Bound, Efficiency, Work};
use crate::units::{Bytes, Flops, Seconds};

pub use params::{ParamCounts, WeightShard, weights_per_gpu};
pub use step::{SeqGroup, Step, mla_attention_shape, step_ops};

/// Which pass is analysed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The whole prompt at once (batch x seq tokens).
    Prefill,
    /// One new token per sequence against a KV cache of seq tokens.
    Decode,
}

impl Phase {
    /// `prefill` or `decode`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Prefill => "prefill",
            Phase::Decode => "decode",
        }
    }
}

/// How attention is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttentionKernel {
    /// FlashAttention-style: one fused kernel, scores stay on chip.
    Fused,
    /// Three kernels with the score matrix in memory.
    Unfused,
}

/// What to analyse.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Prefill or decode.
    pub phase: Phase,
    /// Sequences in the batch.
    pub batch: u64,
    /// Prompt length (prefill) or context length (decode).
    pub seq: u64,
    /// Formats of activations, weights, KV cache (outputs follow activations).
    pub precision: Precision,
    /// Attention implementation.
    pub attention: AttentionKernel,
    /// Quantise the embedding table and LM head with the other weights.
    pub quantize_embeddings: bool,
    /// The routed experts' formats where they differ from the other linear layers'
    /// (`precision`): gpt-oss's checkpoint stores its experts in MXFP4 and leaves attention
    /// in BF16 (its `quantization_config`). `None`: as the other layers'.
    pub experts: Option<ExpertFormats>,
}

/// The formats of the routed experts' GEMMs ([`Scenario::experts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpertFormats {
    /// The experts' weights.
    pub weights: Format,
    /// What their GEMMs multiply the weights with (the tokens' activations, quantised to
    /// this format first where it is not the scenario's).
    pub activations: Format,
}

/// Largest batch x sequence product accepted (2^40 tokens): far beyond any real run, and
/// small enough that every count stays exact in f64.
pub const MAX_TOKENS: u64 = 1 << 40;

impl Scenario {
    /// The scenario's formats in words: "weights bf16, activations bf16, kv bf16", and the
    /// experts' where they are their own ("experts mxfp4 x bf16").
    pub fn formats(&self) -> String {
        let p = &self.precision;
        let mut words = format!(
            "weights {}, activations {}, kv {}",
            p.weights, p.activations, p.kv
        );
        if let Some(e) = self.experts {
            words += &format!(", experts {} x {}", e.weights, e.activations);
        }
        words
    }

    fn validate(&self) -> Result<(), ModelError> {
        if self.batch == 0 {
            return Err(ModelError::invalid("batch", "must be at least 1"));
        }
        if self.seq == 0 {
            return Err(ModelError::invalid("seq", "must be at least 1"));
        }
        match self.batch.checked_mul(self.seq) {
            Some(t) if t <= MAX_TOKENS => Ok(()),
            _ => Err(ModelError::invalid(
                "seq",
                format!(
                    "batch x seq = {} x {} exceeds {MAX_TOKENS} tokens",
                    self.batch, self.seq
                ),
            )),
        }
    }
}

/// Which operator of the model an [`OpReport`] is: the same id in two analyses of one
/// model is the same operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OpId {
    /// Token embedding lookup. (`embedding`)
    Embedding,
    /// Norm before attention. (`attn_norm`)
    AttnNorm,
    /// The two residual adds of a layer. (`residual_add`)
    ResidualAdd,
    /// Norm before the MLP. (`mlp_norm`)
    MlpNorm,
    /// Dense MLP gate projection. (`gate_proj`)
    GateProj,
    /// Dense MLP up projection. (`up_proj`)
    UpProj,
    /// Dense MLP SwiGLU. (`silu_mul`)
    SiluMul,
    /// Dense MLP down projection. (`down_proj`)
    DownProj,
    /// Norm after the last layer. (`final_norm`)
    FinalNorm,
    /// Logits of the last position. (`lm_head`)
    LmHead,
    /// Fused attention. (`attention`)
    Attention,
    /// Unfused attention: Q K^T. (`attn_scores`)
    AttnScores,
    /// Unfused attention: softmax. (`attn_softmax`)
    AttnSoftmax,
    /// Unfused attention: P V. (`attn_context`)
    AttnContext,
    /// Query projection. (`q_proj`)
    QProj,
    /// Key projection. (`k_proj`)
    KProj,
    /// Value projection. (`v_proj`)
    VProj,
    /// Per-head query and key norms. (`qk_norm`)
    QkNorm,
    /// Rotary embedding. (`rope`)
    Rope,
    /// Attention output projection. (`o_proj`)
    OProj,
    /// MLA query down-projection. (`q_a_proj`)
    QAProj,
    /// MLA query latent norm. (`q_a_norm`)
    QANorm,
    /// MLA query up-projection. (`q_b_proj`)
    QBProj,
    /// MLA key-value down-projection. (`kv_a_proj`)
    KvAProj,
    /// MLA key-value latent norm. (`kv_a_norm`)
    KvANorm,
    /// MLA decode: queries absorbed into the latent space. (`q_absorb`)
    QAbsorb,
    /// MLA decode: values out of the latent space. (`v_absorb`)
    VAbsorb,
    /// MLA prefill: keys and values rebuilt from the latent. (`kv_b_proj`)
    KvBProj,
    /// MoE router logits. (`router`)
    Router,
    /// MoE softmax and top-k. (`router_topk`)
    RouterTopk,
    /// Routed experts' gate projections. (`experts.gate_proj`)
    ExpertsGateProj,
    /// Routed experts' up projections. (`experts.up_proj`)
    ExpertsUpProj,
    /// Routed experts' SwiGLU. (`experts.silu_mul`)
    ExpertsSiluMul,
    /// Routed experts' down projections. (`experts.down_proj`)
    ExpertsDownProj,
    /// Weighted sum of each token's expert outputs. (`moe_combine`)
    MoeCombine,
    /// Shared experts' gate projection. (`shared_expert.gate_proj`)
    SharedExpertGateProj,
    /// Shared experts' up projection. (`shared_expert.up_proj`)
    SharedExpertUpProj,
    /// Shared experts' SwiGLU. (`shared_expert.silu_mul`)
    SharedExpertSiluMul,
    /// Shared experts' down projection. (`shared_expert.down_proj`)
    SharedExpertDownProj,
    /// The sigmoid gate's logit of a shared expert's output (Qwen3.5).
    /// (`shared_expert.gate`)
    SharedExpertGate,
    /// Sigmoid gate on the attention output (Qwen3.5's `attn_output_gate`). (`attn_gate`)
    AttnGate,
    /// Linear attention's query, key and value projection. (`linear_attn.in_proj_qkv`)
    LinearQkvProj,
    /// Linear attention's output-gate projection. (`linear_attn.in_proj_z`)
    LinearZProj,
    /// Linear attention's write strength and decay per value head.
    /// (`linear_attn.in_proj_ba`)
    LinearBaProj,
    /// Linear attention's short causal convolution. (`linear_attn.conv1d`)
    LinearConv,
    /// Gated DeltaNet's delta rule over the recurrent state. (`linear_attn.delta_rule`)
    DeltaRule,
    /// Linear attention's norm over each value head's output. (`linear_attn.norm`)
    LinearNorm,
    /// Linear attention's SiLU gate on the normed output. (`linear_attn.gate`)
    LinearGate,
    /// Linear attention's output projection. (`linear_attn.out_proj`)
    LinearOutProj,
}

/// The part of the model an operator belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Block {
    /// The attention block: projections, rotary embedding, attention itself.
    Attention,
    /// The MLP or MoE block: projections, activation, routing, combining.
    Mlp,
    /// Per-layer glue: the norms and residual adds.
    Layer,
    /// Once per model: embedding, final norm, LM head.
    Model,
}

impl OpId {
    /// The stable name (`q_proj`, `experts.down_proj`, `attention`, ...).
    pub fn name(self) -> &'static str {
        match self {
            OpId::Embedding => "embedding",
            OpId::AttnNorm => "attn_norm",
            OpId::ResidualAdd => "residual_add",
            OpId::MlpNorm => "mlp_norm",
            OpId::GateProj => "gate_proj",
            OpId::UpProj => "up_proj",
            OpId::SiluMul => "silu_mul",
            OpId::DownProj => "down_proj",
            OpId::FinalNorm => "final_norm",
            OpId::LmHead => "lm_head",
            OpId::Attention => "attention",
            OpId::AttnScores => "attn_scores",
            OpId::AttnSoftmax => "attn_softmax",
            OpId::AttnContext => "attn_context",
            OpId::QProj => "q_proj",
            OpId::KProj => "k_proj",
            OpId::VProj => "v_proj",
            OpId::QkNorm => "qk_norm",
            OpId::Rope => "rope",
            OpId::OProj => "o_proj",
            OpId::QAProj => "q_a_proj",
            OpId::QANorm => "q_a_norm",
            OpId::QBProj => "q_b_proj",
            OpId::KvAProj => "kv_a_proj",
            OpId::KvANorm => "kv_a_norm",
            OpId::QAbsorb => "q_absorb",
            OpId::VAbsorb => "v_absorb",
            OpId::KvBProj => "kv_b_proj",
            OpId::Router => "router",
            OpId::RouterTopk => "router_topk",
            OpId::ExpertsGateProj => "experts.gate_proj",
            OpId::ExpertsUpProj => "experts.up_proj",
            OpId::ExpertsSiluMul => "experts.silu_mul",
            OpId::ExpertsDownProj => "experts.down_proj",
            OpId::MoeCombine => "moe_combine",
            OpId::SharedExpertGateProj => "shared_expert.gate_proj",
            OpId::SharedExpertUpProj => "shared_expert.up_proj",
            OpId::SharedExpertSiluMul => "shared_expert.silu_mul",
            OpId::SharedExpertDownProj => "shared_expert.down_proj",
            OpId::SharedExpertGate => "shared_expert.gate",
            OpId::AttnGate => "attn_gate",
            OpId::LinearQkvProj => "linear_attn.in_proj_qkv",
            OpId::LinearZProj => "linear_attn.in_proj_z",
            OpId::LinearBaProj => "linear_attn.in_proj_ba",
            OpId::LinearConv => "linear_attn.conv1d",
            OpId::DeltaRule => "linear_attn.delta_rule",
            OpId::LinearNorm => "linear_attn.norm",
            OpId::LinearGate => "linear_attn.gate",
            OpId::LinearOutProj => "linear_attn.out_proj",
        }
    }

    /// The block it belongs to.
    pub fn block(self) -> Block {
        match self {
            OpId::Attention
            | OpId::AttnScores
            | OpId::AttnSoftmax
            | OpId::AttnContext
            | OpId::QProj
            | OpId::KProj
            | OpId::VProj
            | OpId::QkNorm
            | OpId::Rope
            | OpId::OProj
            | OpId::QAProj
            | OpId::QANorm
            | OpId::QBProj
            | OpId::KvAProj
            | OpId::KvANorm
            | OpId::QAbsorb
            | OpId::VAbsorb
            | OpId::KvBProj
            | OpId::AttnGate
            | OpId::LinearQkvProj
            | OpId::LinearZProj
            | OpId::LinearBaProj
            | OpId::LinearConv
            | OpId::DeltaRule
            | OpId::LinearNorm
            | OpId::LinearGate
            | OpId::LinearOutProj => Block::Attention,
            OpId::GateProj
            | OpId::UpProj
            | OpId::SiluMul
            | OpId::DownProj
            | OpId::Router
            | OpId::RouterTopk
            | OpId::ExpertsGateProj
            | OpId::ExpertsUpProj
            | OpId::ExpertsSiluMul
            | OpId::ExpertsDownProj
            | OpId::MoeCombine
            | OpId::SharedExpertGateProj
            | OpId::SharedExpertUpProj
            | OpId::SharedExpertSiluMul
            | OpId::SharedExpertDownProj
            | OpId::SharedExpertGate => Block::Mlp,
            OpId::AttnNorm | OpId::ResidualAdd | OpId::MlpNorm => Block::Layer,
            OpId::Embedding | OpId::FinalNorm | OpId::LmHead => Block::Model,
        }
    }

    /// Whether its input is the input of the operator before it (keys and values read
    /// the queries' input; up the gate's), so that input is quantised once.
    pub fn shares_input(self) -> bool {
        matches!(
            self,
            OpId::UpProj
                | OpId::KProj
                | OpId::VProj
                | OpId::ExpertsUpProj
                | OpId::LinearZProj
                | OpId::LinearBaProj
        )
    }
}

/// One operator of the forward pass, with how many times it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct OpReport {
    /// Which operator it is.
    pub id: OpId,
    /// Instances per forward pass (usually the number of layers it appears in).
    pub count: f64,
    /// The operator's shape.
    pub op: Op,
    /// The formats it was costed with.
    pub precision: Precision,
    /// Per-instance prediction.
    pub result: OpPrediction,
    /// count x per-instance time.
    pub time: Seconds,
    /// Fraction of the whole pass's time.
    pub share: f64,
}

impl OpReport {
    /// The stable name (`q_proj`, `experts.down_proj`, `attention`, ...).
    pub fn name(&self) -> &'static str {
        self.id.name()
    }

    /// FLOPs of all instances.
    pub fn flops(&self) -> Flops {
        self.result.cost.work.flops * self.count
    }
    /// Bytes of all instances.
    pub fn bytes(&self) -> Bytes {
        self.result.cost.work.bytes * self.count
    }
    /// Which ceiling binds each instance.
    pub fn bound(&self) -> Bound {
        self.result.prediction.bound
    }
}

/// Memory needed against memory available.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemoryFit {
    /// Weights plus KV cache (activations and workspace are not counted).
    pub required: Bytes,
    /// The device's capacity.
    pub capacity: Bytes,
    /// `required <= capacity`.
    pub fits: bool,
}

/// The result of a whole-model analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelAnalysis {
    /// Operators in execution order.
    pub ops: Vec<OpReport>,
    /// Total predicted time of the pass.
    pub time: Seconds,
    /// Total work of the pass.
    pub work: Work,
    /// Tokens processed per second (prompt tokens in prefill, new tokens in decode).
    pub tokens_per_s: f64,
    /// Parameter counts.
    pub params: ParamCounts,
    /// Storage of all weights in their formats.
    pub weight_bytes: Bytes,
    /// KV cache for batch x seq tokens.
    pub kv_cache_bytes: Bytes,
    /// KV cache per token (all layers).
    pub kv_bytes_per_token: Bytes,
    /// Memory fit.
    pub memory: MemoryFit,
    /// Weight bytes one decode step of this batch reads (distinct experts only).
    pub decode_weight_read_bytes: Bytes,
    /// Context length at which one decode step's KV reads equal its weight reads.
    pub kv_crossover_tokens: f64,
}

impl ModelAnalysis {
    /// The fraction of the pass's time spent in memory-bound operators (0 to 1).
    pub fn memory_bound_share(&self) -> f64 {
        if self.time.get() <= 0.0 {
            return 0.0;
        }
        self.ops
            .iter()
            .filter(|o| o.bound() == Bound::Memory)
            .map(|o| o.time.get())
            .sum::<f64>()
            / self.time.get()
    }

    /// The operator that takes the most time in the pass (all its instances together).
    pub fn slowest_op(&self) -> Option<&OpReport> {
        self.ops
            .iter()
            .max_by(|x, y| x.time.get().total_cmp(&y.time.get()))
    }

    /// The ceiling the pass's heaviest operator (most FLOPs) meets: the compute roof the
    /// whole pass is measured against.
    pub fn main_ceiling(&self) -> Option<crate::hardware::ComputeCeiling> {
        self.ops
            .iter()
            .max_by(|x, y| x.flops().get().total_cmp(&y.flops().get()))
            .map(|o| o.result.ceiling)
    }
}

/// Expected distinct experts touched when `tokens` tokens each pick `top_k` of `experts`.
pub fn expected_distinct_experts(experts: f64, top_k: f64, tokens: f64) -> f64 {
    if experts <= 0.0 {
        return 0.0;
    }
    let miss = 1.0 - top_k / experts;
    experts * (1.0 - miss.powf(tokens))
}

/// Analyses one forward pass of `config` on `hardware`.
pub fn analyze(
    config: &ModelConfig,
    hardware: &Hardware,
    scenario: &Scenario,
    efficiency: &Efficiency,
) -> Result<ModelAnalysis, ModelError> {
    scenario.validate()?;
    let c = config;
    let (b, s) = (scenario.batch as f64, scenario.seq as f64);
    let tokens = match scenario.phase {
        Phase::Prefill => b * s,
        Phase::Decode => b,
    };
    let step = Step::uniform(scenario.phase, b, s);
    let mut ops = step_ops(config, hardware, scenario, &step, efficiency)?;
    let time: Seconds = ops.iter().map(|o| o.time).sum();
    let work = ops.iter().fold(Work::default(), |acc, o| Work {
        flops: acc.flops + o.flops(),
        bytes: acc.bytes + o.bytes(),
    });
    for o in &mut ops {
        o.share = if time.get() > 0.0 { o.time / time } else { 0.0 };
    }

    let params = params::count(c);
    let storage = params::storage(c, scenario, b);
    let weight_bytes = storage.total;
    let kv_bytes_per_token = kv_bytes_per_token(c, scenario.precision.kv);
    let kv_cache_bytes = kv_cache_bytes(c, scenario.precision.kv, scenario.seq) * b;
    let required = weight_bytes + kv_cache_bytes;
    let capacity = hardware.memory_capacity.value;
    let kv_crossover_tokens = storage.decode_read / (kv_bytes_per_token * b);
    Ok(ModelAnalysis {
        ops,
        time,
        work,
        tokens_per_s: tokens / time.get(),
        params,
        weight_bytes,
        kv_cache_bytes,
        kv_bytes_per_token,
        memory: MemoryFit {
            required,
            capacity,
            fits: required.get() <= capacity.get(),
        },
        decode_weight_read_bytes: storage.decode_read,
        kv_crossover_tokens,
    })
}

/// KV-cache bytes one sequence of `seq` tokens holds across all layers: every token in the
/// layers of full attention, the last `window` in those under a sliding window (older ones
/// are never attended to again), and a hybrid's recurrent state
/// ([`recurrent_state_bytes`]), whatever `seq`.
pub fn kv_cache_bytes(c: &ModelConfig, kv: Format, seq: u64) -> Bytes {
    let windowed = c.sliding_window.map_or(0, |w| c.window_layers * seq.min(w));
    let full = c.attention_layers().saturating_sub(c.window_layers) * seq;
    kv_bytes_per_layer_token(c, kv) * (full + windowed) as f64 + recurrent_state_bytes(c)
}

/// The recurrent state one sequence holds across a hybrid's linear-attention layers
/// ([`crate::config::LinearAttention::state_bytes`]); zero for a transformer.
pub fn recurrent_state_bytes(c: &ModelConfig) -> Bytes {
    c.linear_attention
        .as_ref()
        .map_or(Bytes::ZERO, |l| l.state_bytes() * l.layers as f64)
}

/// KV-cache bytes one token adds across all layers of attention (while every layer still
/// keeps it).
pub fn kv_bytes_per_token(c: &ModelConfig, kv: Format) -> Bytes {
    kv_bytes_per_layer_token(c, kv) * c.attention_layers() as f64
}

/// KV-cache bytes one token adds in one layer.
fn kv_bytes_per_layer_token(c: &ModelConfig, kv: Format) -> Bytes {
    let per_layer = match &c.mla {
        // One compressed latent plus the shared rotary key per token and layer (DeepSeek-V2
        // paper, arXiv 2405.04434, section 2.1: kv_lora_rank + qk_rope_head_dim values).
        Some(mla) => (mla.kv_lora_rank + mla.qk_rope_dim) as f64,
        None => 2.0 * (c.kv_heads * c.head_dim) as f64,
    };
    Bytes::from_bits(per_layer * kv.bits_per_element())
}

#[cfg(test)]
mod tests;
