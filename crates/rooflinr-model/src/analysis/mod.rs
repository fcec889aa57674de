//! Whole-model analysis: the operator list of one forward pass (prefill or one decode
//! step), each operator's roofline time, and the model's memory footprint.
//!
//! Conventions, each a choice where the seeds are silent or wrong:
//! - Operators run one after another; their roofline times add (no overlap).
//! - Embeddings and the LM head stay in the activation format unless
//!   [`Scenario::quantize_embeddings`] is set, as AWQ, GPTQ and ModelOpt checkpoints ship
//!   them. Norms, biases and MoE routers are never quantised.
//! - Prefill computes logits for the last token of each sequence only, as a server does
//!   (seed 002 charges the LM head for every prompt token).
//! - MoE routing is uniform: a batch of T tokens choosing k of E experts touches
//!   E(1 - (1 - k/E)^T) distinct experts, whose weights are read once.
//! - DeepSeek's MLA runs in its absorbed form in decode (attention over the 576-wide latent
//!   cache, as FlashMLA does) and in its expanded form in prefill (K and V rebuilt from the
//!   latent by `kv_b_proj`), as vLLM and SGLang do.
//! - The KV cache holds `seq` tokens per sequence; decode attends over all of them.

mod params;

use crate::config::{Mla, ModelConfig, Moe};
use crate::error::ModelError;
use crate::format::Format;
use crate::hardware::Hardware;
use crate::ops::{AttentionShape, NormKind, Op, OpPrediction, Precision};
use crate::roofline::{Bound, Efficiency, Work};
use crate::units::{Bytes, Flops, Seconds};

pub use params::ParamCounts;

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
}

/// Largest batch x sequence product accepted (2^40 tokens): far beyond any real run, and
/// small enough that every count stays exact in f64.
pub const MAX_TOKENS: u64 = 1 << 40;

impl Scenario {
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

/// One operator of the forward pass, with how many times it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct OpReport {
    /// Stable name (`q_proj`, `experts.down_proj`, `attention`, ...).
    pub name: &'static str,
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

/// Which of the scenario's formats an operator's operands use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// A quantised linear layer: weights in the weights format.
    Linear,
    /// A linear layer whose output is written to the KV cache.
    KvWrite,
    /// Never-quantised parameters (norms, routers) and elementwise work.
    Plain,
    /// Embedding and LM head: plain unless quantize_embeddings.
    Embedding,
    /// Attention reading the KV cache.
    Attention,
    /// Attention over keys and values rebuilt in the activation format (MLA prefill).
    ExpandedAttention,
}

fn precision_for(role: Role, s: &Scenario) -> Precision {
    let p = s.precision;
    let act = p.activations;
    let base = Precision {
        activations: act,
        weights: p.weights,
        kv: p.kv,
        output: act,
    };
    match role {
        Role::Linear => base,
        Role::KvWrite => Precision {
            output: p.kv,
            ..base
        },
        Role::Plain => Precision {
            weights: act,
            ..base
        },
        Role::Embedding if s.quantize_embeddings => base,
        Role::Embedding => Precision {
            weights: act,
            ..base
        },
        Role::Attention => base,
        Role::ExpandedAttention => Precision { kv: act, ..base },
    }
}

struct Builder<'a> {
    scenario: &'a Scenario,
    hardware: &'a Hardware,
    efficiency: &'a Efficiency,
    ops: Vec<OpReport>,
}

impl Builder<'_> {
    fn push(&mut self, name: &'static str, count: f64, op: Op, role: Role) {
        if count <= 0.0 {
            return;
        }
        let precision = precision_for(role, self.scenario);
        let result = op.predict(&precision, self.hardware, self.efficiency);
        self.ops.push(OpReport {
            name,
            count,
            op,
            precision,
            result,
            time: result.prediction.time * count,
            share: 0.0,
        });
    }
}

fn gemm(m: f64, n: f64, k: f64) -> Op {
    Op::Gemm {
        m,
        n,
        k,
        bias: false,
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
    let t = match scenario.phase {
        Phase::Prefill => s,
        Phase::Decode => 1.0,
    };
    let tokens = b * t;
    let layers = c.layers as f64;
    let h = c.hidden as f64;
    let mut w = Builder {
        scenario,
        hardware,
        efficiency,
        ops: Vec::with_capacity(40),
    };

    w.push(
        "embedding",
        1.0,
        Op::Embedding { tokens, dim: h },
        Role::Embedding,
    );
    w.push("attn_norm", layers, norm(tokens, h), Role::Plain);
    match &c.mla {
        Some(mla) => mla_attention(&mut w, c, mla, b, t, s),
        None => standard_attention(&mut w, c, b, t, s),
    }
    w.push(
        "residual_add",
        2.0 * layers,
        Op::ResidualAdd { tokens, dim: h },
        Role::Plain,
    );
    w.push("mlp_norm", layers, norm(tokens, h), Role::Plain);
    let dense_layers = c.moe.as_ref().map_or(layers, |m| m.dense_layers as f64);
    let i = c.intermediate as f64;
    w.push("gate_proj", dense_layers, gemm(tokens, i, h), Role::Linear);
    w.push("up_proj", dense_layers, gemm(tokens, i, h), Role::Linear);
    w.push(
        "silu_mul",
        dense_layers,
        Op::SiluMul { tokens, dim: i },
        Role::Plain,
    );
    w.push("down_proj", dense_layers, gemm(tokens, h, i), Role::Linear);
    if let Some(moe) = &c.moe {
        moe_block(&mut w, moe, layers - dense_layers, tokens, h);
    }
    w.push("final_norm", 1.0, norm(tokens, h), Role::Plain);
    // Logits for the last position of each sequence only (see the module comment).
    w.push("lm_head", 1.0, gemm(b, c.vocab as f64, h), Role::Embedding);

    let mut ops = w.ops;
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
    let kv_cache_bytes = kv_bytes_per_token * (b * s);
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

fn norm(tokens: f64, dim: f64) -> Op {
    Op::Norm {
        tokens,
        dim,
        kind: NormKind::Rms,
    }
}

fn attention(w: &mut Builder<'_>, layers: f64, shape: AttentionShape, role: Role) {
    match w.scenario.attention {
        AttentionKernel::Fused => w.push("attention", layers, Op::FusedAttention(shape), role),
        AttentionKernel::Unfused => {
            w.push("attn_scores", layers, Op::AttentionScores(shape), role);
            w.push("attn_softmax", layers, Op::AttentionSoftmax(shape), role);
            w.push("attn_context", layers, Op::AttentionContext(shape), role);
        }
    }
}

fn standard_attention(w: &mut Builder<'_>, c: &ModelConfig, b: f64, t: f64, s: f64) {
    let (layers, h, tokens) = (c.layers as f64, c.hidden as f64, b * t);
    let (heads, kv_heads, hd) = (c.heads as f64, c.kv_heads as f64, c.head_dim as f64);
    let bias = c.qkv_bias;
    w.push(
        "q_proj",
        layers,
        Op::Gemm {
            m: tokens,
            n: heads * hd,
            k: h,
            bias,
        },
        Role::Linear,
    );
    w.push(
        "k_proj",
        layers,
        Op::Gemm {
            m: tokens,
            n: kv_heads * hd,
            k: h,
            bias,
        },
        Role::KvWrite,
    );
    w.push(
        "v_proj",
        layers,
        Op::Gemm {
            m: tokens,
            n: kv_heads * hd,
            k: h,
            bias,
        },
        Role::KvWrite,
    );
    if c.qk_norm {
        w.push(
            "qk_norm",
            layers,
            norm(tokens * (heads + kv_heads), hd),
            Role::Plain,
        );
    }
    w.push(
        "rope",
        layers,
        Op::Rope {
            tokens,
            heads: heads + kv_heads,
            rotary_dim: hd,
        },
        Role::Plain,
    );
    let shape = AttentionShape {
        batch: b,
        q_len: t,
        kv_len: s,
        heads,
        kv_heads,
        qk_dim: hd,
        v_dim: hd,
        causal: true,
        shared_kv: false,
    };
    attention(w, layers, shape, Role::Attention);
    w.push("o_proj", layers, gemm(tokens, h, heads * hd), Role::Linear);
}

fn mla_attention(w: &mut Builder<'_>, c: &ModelConfig, mla: &Mla, b: f64, t: f64, s: f64) {
    let (layers, h, tokens, heads) = (c.layers as f64, c.hidden as f64, b * t, c.heads as f64);
    let (nope, rope, v) = (
        mla.qk_nope_dim as f64,
        mla.qk_rope_dim as f64,
        mla.v_head_dim as f64,
    );
    let latent = mla.kv_lora_rank as f64;
    match mla.q_lora_rank {
        Some(r) => {
            let r = r as f64;
            w.push("q_a_proj", layers, gemm(tokens, r, h), Role::Linear);
            w.push("q_a_norm", layers, norm(tokens, r), Role::Plain);
            w.push(
                "q_b_proj",
                layers,
                gemm(tokens, heads * (nope + rope), r),
                Role::Linear,
            );
        }
        None => w.push(
            "q_proj",
            layers,
            gemm(tokens, heads * (nope + rope), h),
            Role::Linear,
        ),
    }
    w.push(
        "kv_a_proj",
        layers,
        gemm(tokens, latent + rope, h),
        Role::KvWrite,
    );
    w.push("kv_a_norm", layers, norm(tokens, latent), Role::Plain);
    w.push(
        "rope",
        layers,
        Op::Rope {
            tokens,
            heads: heads + 1.0,
            rotary_dim: rope,
        },
        Role::Plain,
    );
    match w.scenario.phase {
        Phase::Decode => {
            // Absorbed: fold W_UK into the query and W_UV into the output, per head, and
            // attend over the latent cache as multi-query attention.
            let absorb_q = Op::BatchedGemm {
                batch: heads,
                m: tokens,
                n: latent,
                k: nope,
            };
            w.push("q_absorb", layers, absorb_q, Role::Linear);
            let shape = AttentionShape {
                batch: b,
                q_len: t,
                kv_len: s,
                heads,
                kv_heads: 1.0,
                qk_dim: latent + rope,
                v_dim: latent,
                causal: true,
                shared_kv: true,
            };
            attention(w, layers, shape, Role::Attention);
            let absorb_v = Op::BatchedGemm {
                batch: heads,
                m: tokens,
                n: v,
                k: latent,
            };
            w.push("v_absorb", layers, absorb_v, Role::Linear);
        }
        Phase::Prefill => {
            w.push(
                "kv_b_proj",
                layers,
                gemm(tokens, heads * (nope + v), latent),
                Role::Linear,
            );
            let shape = AttentionShape {
                batch: b,
                q_len: t,
                kv_len: s,
                heads,
                kv_heads: heads,
                qk_dim: nope + rope,
                v_dim: v,
                causal: true,
                shared_kv: false,
            };
            attention(w, layers, shape, Role::ExpandedAttention);
        }
    }
    w.push("o_proj", layers, gemm(tokens, h, heads * v), Role::Linear);
}

fn moe_block(w: &mut Builder<'_>, moe: &Moe, moe_layers: f64, tokens: f64, h: f64) {
    let (e, k, ie) = (
        moe.experts as f64,
        moe.top_k as f64,
        moe.expert_intermediate as f64,
    );
    w.push("router", moe_layers, gemm(tokens, e, h), Role::Plain);
    w.push(
        "router_topk",
        moe_layers,
        Op::RouterTopK {
            tokens,
            experts: e,
            top_k: k,
        },
        Role::Plain,
    );
    let touched = expected_distinct_experts(e, k, tokens);
    let per_expert = tokens * k / touched;
    let experts = |n, kk| Op::BatchedGemm {
        batch: touched,
        m: per_expert,
        n,
        k: kk,
    };
    w.push(
        "experts.gate_proj",
        moe_layers,
        experts(ie, h),
        Role::Linear,
    );
    w.push("experts.up_proj", moe_layers, experts(ie, h), Role::Linear);
    w.push(
        "experts.silu_mul",
        moe_layers,
        Op::SiluMul {
            tokens: tokens * k,
            dim: ie,
        },
        Role::Plain,
    );
    w.push(
        "experts.down_proj",
        moe_layers,
        experts(h, ie),
        Role::Linear,
    );
    w.push(
        "moe_combine",
        moe_layers,
        Op::MoeCombine {
            tokens,
            top_k: k,
            dim: h,
        },
        Role::Plain,
    );
    if moe.shared_experts > 0 {
        let is = moe.shared_experts as f64 * ie;
        w.push(
            "shared_expert.gate_proj",
            moe_layers,
            gemm(tokens, is, h),
            Role::Linear,
        );
        w.push(
            "shared_expert.up_proj",
            moe_layers,
            gemm(tokens, is, h),
            Role::Linear,
        );
        w.push(
            "shared_expert.silu_mul",
            moe_layers,
            Op::SiluMul { tokens, dim: is },
            Role::Plain,
        );
        w.push(
            "shared_expert.down_proj",
            moe_layers,
            gemm(tokens, h, is),
            Role::Linear,
        );
    }
}

/// KV-cache bytes one token adds across all layers.
pub fn kv_bytes_per_token(c: &ModelConfig, kv: Format) -> Bytes {
    let per_layer = match &c.mla {
        // One compressed latent plus the shared rotary key (REFERENCE.md).
        Some(mla) => (mla.kv_lora_rank + mla.qk_rope_dim) as f64,
        None => 2.0 * (c.kv_heads * c.head_dim) as f64,
    };
    Bytes::from_bits(per_layer * kv.bits_per_element()) * c.layers as f64
}

#[cfg(test)]
mod tests;
