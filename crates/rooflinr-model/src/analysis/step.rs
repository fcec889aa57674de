//! The operator list of one forward step: a batch of sequence groups, each adding new
//! tokens after the tokens its sequences already hold in the KV cache.
//!
//! A uniform prefill (every sequence its whole prompt) and a uniform decode step (every
//! sequence one token) are the two steps [`super::analyze`] describes; a serving engine's
//! step mixes them: decode tokens of running requests beside a chunk of an arriving
//! request's prompt (in-flight batching with chunked prefill, Yu et al., OSDI 2022 "Orca";
//! Agrawal et al., OSDI 2024 "Sarathi-Serve"). The rules, each where it is applied:
//! - Every operator that acts on tokens one at a time (projections, norms, the MLP and the
//!   experts, the residual adds) runs once over all the step's new tokens: its weights are
//!   read once for the whole step.
//! - Attention runs once per group: `new` queries per sequence over `past + new` keys,
//!   causal ([`AttentionShape::visible_pairs`] counts a chunk after a prefix).
//! - MLA: decode groups attend in the absorbed form over the latent cache, prefill groups
//!   in the expanded form, rebuilding keys and values of every key they attend to (`past +
//!   new` tokens) with `kv_b_proj`.
//! - The LM head computes the logits of [`Step::logits`] positions: one per decoding
//!   sequence (each of its positions when it verifies drafted tokens) and one per sequence
//!   whose prompt ends in this step.

use crate::config::{LinearAttention, Mla, ModelConfig, Moe};
use crate::error::ModelError;
use crate::hardware::Hardware;
use crate::ops::{AttentionShape, DeltaRuleShape, NormKind, Op, Precision};
use crate::roofline::Efficiency;

use super::{
    AttentionKernel, MAX_TOKENS, OpId, OpReport, Phase, Scenario, expected_distinct_experts,
};

/// Sequences of one kind in a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeqGroup {
    /// Which kernel their attention runs: a prompt's chunk, or decoding.
    pub phase: Phase,
    /// Sequences (a mean over steps may be fractional).
    pub sequences: f64,
    /// New tokens per sequence in this step (1 when decoding; 1 + drafted tokens when
    /// verifying a draft).
    pub new_tokens: f64,
    /// Tokens each sequence already holds in the KV cache.
    pub past: f64,
}

impl SeqGroup {
    /// New tokens of the whole group.
    pub fn tokens(&self) -> f64 {
        self.sequences * self.new_tokens
    }
}

/// One forward step: its sequence groups and the positions whose logits it computes.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The groups, in the order their attention runs.
    pub groups: Vec<SeqGroup>,
    /// Positions whose logits the LM head computes.
    pub logits: f64,
}

impl Step {
    /// The step [`super::analyze`] describes: `batch` whole prompts of `seq` tokens
    /// (prefill), or one new token for each of `batch` sequences that hold `seq` tokens
    /// counting it (decode).
    pub fn uniform(phase: Phase, batch: f64, seq: f64) -> Step {
        let group = match phase {
            Phase::Prefill => SeqGroup {
                phase,
                sequences: batch,
                new_tokens: seq,
                past: 0.0,
            },
            Phase::Decode => SeqGroup {
                phase,
                sequences: batch,
                new_tokens: 1.0,
                past: seq - 1.0,
            },
        };
        Step {
            groups: vec![group],
            logits: batch,
        }
    }

    /// New tokens of the whole step.
    pub fn tokens(&self) -> f64 {
        self.groups.iter().map(SeqGroup::tokens).sum()
    }

    /// Sequences of the whole step.
    pub fn sequences(&self) -> f64 {
        self.groups.iter().map(|g| g.sequences).sum()
    }

    /// Refuses an empty step, a group of no sequences or no new tokens, a negative past,
    /// and more than [`MAX_TOKENS`] tokens, naming the field.
    pub fn validate(&self) -> Result<(), ModelError> {
        if self.groups.is_empty() {
            return Err(ModelError::invalid("step", "has no sequences"));
        }
        for g in &self.groups {
            for (field, v, least) in [
                ("sequences", g.sequences, f64::MIN_POSITIVE),
                ("new_tokens", g.new_tokens, 1.0),
                ("past", g.past, 0.0),
            ] {
                if !(v >= least && v.is_finite()) {
                    return Err(ModelError::invalid(
                        field,
                        format!("must be at least {least}, got {v}"),
                    ));
                }
            }
        }
        let tokens = self.tokens()
            + self
                .groups
                .iter()
                .map(|g| g.sequences * g.past)
                .sum::<f64>();
        if tokens > MAX_TOKENS as f64 {
            return Err(ModelError::invalid(
                "seq",
                format!("a step over {tokens} tokens exceeds {MAX_TOKENS}"),
            ));
        }
        if !(self.logits >= 0.0 && self.logits.is_finite()) {
            return Err(ModelError::invalid(
                "logits",
                format!("must be 0 or more, got {}", self.logits),
            ));
        }
        Ok(())
    }
}

/// The operators of `step` with the formats of `scenario` (its phase, batch and seq are
/// not read: the step sets them), in execution order.
pub fn step_ops(
    config: &ModelConfig,
    hardware: &Hardware,
    scenario: &Scenario,
    step: &Step,
    efficiency: &Efficiency,
) -> Result<Vec<OpReport>, ModelError> {
    step.validate()?;
    let c = config;
    let tokens = step.tokens();
    let layers = c.layers as f64;
    let h = c.hidden as f64;
    let mut w = Builder {
        scenario,
        hardware,
        efficiency,
        ops: Vec::with_capacity(40),
    };

    w.push(
        OpId::Embedding,
        1.0,
        Op::Embedding { tokens, dim: h },
        Role::Embedding,
    );
    w.push(OpId::AttnNorm, layers, norm(tokens, h), Role::Plain);
    match &c.mla {
        Some(mla) => mla_attention(&mut w, c, mla, step),
        None => standard_attention(&mut w, c, step),
    }
    if let Some(lin) = &c.linear_attention {
        linear_attention(&mut w, c, lin, step);
    }
    w.push(
        OpId::ResidualAdd,
        2.0 * layers,
        Op::ResidualAdd { tokens, dim: h },
        Role::Plain,
    );
    w.push(OpId::MlpNorm, layers, norm(tokens, h), Role::Plain);
    let dense_layers = c.moe.as_ref().map_or(layers, |m| m.dense_layers as f64);
    let i = c.intermediate as f64;
    w.push(
        OpId::GateProj,
        dense_layers,
        gemm(tokens, i, h),
        Role::Linear,
    );
    w.push(OpId::UpProj, dense_layers, gemm(tokens, i, h), Role::Linear);
    w.push(
        OpId::SiluMul,
        dense_layers,
        Op::SiluMul { tokens, dim: i },
        Role::Plain,
    );
    w.push(
        OpId::DownProj,
        dense_layers,
        gemm(tokens, h, i),
        Role::Linear,
    );
    if let Some(moe) = &c.moe {
        moe_block(&mut w, moe, layers - dense_layers, tokens, h);
    }
    w.push(OpId::FinalNorm, 1.0, norm(tokens, h), Role::Plain);
    if step.logits > 0.0 {
        w.push(
            OpId::LmHead,
            1.0,
            gemm(step.logits, c.vocab as f64, h),
            Role::Embedding,
        );
    }
    Ok(w.ops)
}

/// Which of the scenario's formats an operator's operands use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// A quantised linear layer: weights in the weights format.
    Linear,
    /// A routed expert's linear layer: in the experts' formats where the scenario gives
    /// them ([`Scenario::experts`]), else as [`Role::Linear`].
    Experts,
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
        Role::Experts => match s.experts {
            Some(e) => Precision {
                activations: e.activations,
                weights: e.weights,
                ..base
            },
            None => base,
        },
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
    fn push(&mut self, id: OpId, count: f64, op: Op, role: Role) {
        if count <= 0.0 {
            return;
        }
        let precision = precision_for(role, self.scenario);
        let result = op.predict(&precision, self.hardware, self.efficiency);
        self.ops.push(OpReport {
            id,
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

fn norm(tokens: f64, dim: f64) -> Op {
    Op::Norm {
        tokens,
        dim,
        kind: NormKind::Rms,
    }
}

fn attention(w: &mut Builder<'_>, layers: f64, shape: AttentionShape, role: Role) {
    match w.scenario.attention {
        AttentionKernel::Fused => w.push(OpId::Attention, layers, Op::FusedAttention(shape), role),
        AttentionKernel::Unfused => {
            w.push(OpId::AttnScores, layers, Op::AttentionScores(shape), role);
            w.push(OpId::AttnSoftmax, layers, Op::AttentionSoftmax(shape), role);
            w.push(OpId::AttnContext, layers, Op::AttentionContext(shape), role);
        }
    }
}

fn standard_attention(w: &mut Builder<'_>, c: &ModelConfig, step: &Step) {
    let (layers, h, tokens) = (c.attention_layers() as f64, c.hidden as f64, step.tokens());
    let (heads, kv_heads, hd) = (c.heads as f64, c.kv_heads as f64, c.head_dim as f64);
    let bias = c.qkv_bias;
    // An output gate's logits come out of the query projection beside the queries.
    let gate = if c.attn_output_gate { 2.0 } else { 1.0 };
    w.push(
        OpId::QProj,
        layers,
        Op::Gemm {
            m: tokens,
            n: gate * heads * hd,
            k: h,
            bias,
        },
        Role::Linear,
    );
    w.push(
        OpId::KProj,
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
        OpId::VProj,
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
            OpId::QkNorm,
            layers,
            norm(tokens * (heads + kv_heads), hd),
            Role::Plain,
        );
    }
    w.push(
        OpId::Rope,
        layers,
        Op::Rope {
            tokens,
            heads: heads + kv_heads,
            rotary_dim: c.rotary_dim as f64,
        },
        Role::Plain,
    );
    for g in &step.groups {
        let shape = AttentionShape {
            batch: g.sequences,
            q_len: g.new_tokens,
            kv_len: g.past + g.new_tokens,
            heads,
            kv_heads,
            qk_dim: hd,
            v_dim: hd,
            causal: true,
            shared_kv: false,
            window: None,
        };
        // Layers under a sliding window attend to its last tokens only; the rest to all.
        let windowed = c.window_layers as f64;
        let window = c.sliding_window.map(|w| w as f64);
        attention(w, layers - windowed, shape, Role::Attention);
        attention(
            w,
            windowed,
            AttentionShape { window, ..shape },
            Role::Attention,
        );
    }
    if c.attn_output_gate {
        // sigmoid(gate) x output costs what silu(gate) x up does (the `SiluMul` operator).
        let gated = Op::SiluMul {
            tokens,
            dim: heads * hd,
        };
        w.push(OpId::AttnGate, layers, gated, Role::Plain);
    }
    w.push(
        OpId::OProj,
        layers,
        gemm(tokens, h, heads * hd),
        Role::Linear,
    );
}

/// A hybrid's gated DeltaNet layers (see [`LinearAttention`]): the projections run over
/// the step's tokens; the convolution and the delta rule per group, prompts in the chunked
/// form and decoding sequences in the recurrent one, each reading the state its earlier
/// tokens left.
fn linear_attention(w: &mut Builder<'_>, c: &ModelConfig, lin: &LinearAttention, step: &Step) {
    let (layers, h, tokens) = (lin.layers as f64, c.hidden as f64, step.tokens());
    let (kw, vw) = (lin.key_width() as f64, lin.value_width() as f64);
    let value_heads = lin.value_heads as f64;
    let qkv = gemm(tokens, 2.0 * kw + vw, h);
    w.push(OpId::LinearQkvProj, layers, qkv, Role::Linear);
    w.push(OpId::LinearZProj, layers, gemm(tokens, vw, h), Role::Linear);
    let ba = gemm(tokens, 2.0 * value_heads, h);
    w.push(OpId::LinearBaProj, layers, ba, Role::Linear);
    for g in &step.groups {
        let conv = Op::CausalConv1d {
            tokens: g.tokens(),
            sequences: g.sequences,
            channels: lin.conv_channels() as f64,
            kernel: lin.conv_kernel as f64,
            state: lin.conv_format,
        };
        w.push(OpId::LinearConv, layers, conv, Role::Plain);
    }
    for g in &step.groups {
        let rule = DeltaRuleShape {
            batch: g.sequences,
            new_tokens: g.new_tokens,
            key_heads: lin.key_heads as f64,
            value_heads,
            key_dim: lin.key_dim as f64,
            value_dim: lin.value_dim as f64,
            carries_state: g.past > 0.0,
            chunked: g.phase == Phase::Prefill,
            state: lin.state_format,
        };
        w.push(OpId::DeltaRule, layers, Op::DeltaRule(rule), Role::Plain);
    }
    let normed = norm(tokens * value_heads, lin.value_dim as f64);
    w.push(OpId::LinearNorm, layers, normed, Role::Plain);
    let gated = Op::SiluMul { tokens, dim: vw };
    w.push(OpId::LinearGate, layers, gated, Role::Plain);
    w.push(
        OpId::LinearOutProj,
        layers,
        gemm(tokens, h, vw),
        Role::Linear,
    );
}

fn mla_attention(w: &mut Builder<'_>, c: &ModelConfig, mla: &Mla, step: &Step) {
    let (layers, h, heads) = (c.attention_layers() as f64, c.hidden as f64, c.heads as f64);
    let tokens = step.tokens();
    let (nope, rope, v) = (
        mla.qk_nope_dim as f64,
        mla.qk_rope_dim as f64,
        mla.v_head_dim as f64,
    );
    let latent = mla.kv_lora_rank as f64;
    match mla.q_lora_rank {
        Some(r) => {
            let r = r as f64;
            w.push(OpId::QAProj, layers, gemm(tokens, r, h), Role::Linear);
            w.push(OpId::QANorm, layers, norm(tokens, r), Role::Plain);
            w.push(
                OpId::QBProj,
                layers,
                gemm(tokens, heads * (nope + rope), r),
                Role::Linear,
            );
        }
        None => w.push(
            OpId::QProj,
            layers,
            gemm(tokens, heads * (nope + rope), h),
            Role::Linear,
        ),
    }
    w.push(
        OpId::KvAProj,
        layers,
        gemm(tokens, latent + rope, h),
        Role::KvWrite,
    );
    w.push(OpId::KvANorm, layers, norm(tokens, latent), Role::Plain);
    w.push(
        OpId::Rope,
        layers,
        Op::Rope {
            tokens,
            heads: heads + 1.0,
            rotary_dim: rope,
        },
        Role::Plain,
    );
    let of = |phase: Phase| step.groups.iter().filter(move |g| g.phase == phase);
    // Each group of `phase` attends in that phase's form (see the module comment).
    let attend_groups = |w: &mut Builder<'_>, phase: Phase, role: Role| {
        for g in of(phase) {
            let shape = mla_attention_shape(
                mla,
                phase,
                g.sequences,
                g.new_tokens,
                g.past + g.new_tokens,
                heads,
            );
            attention(w, layers, shape, role);
        }
    };
    // Decode: absorbed. Fold W_UK into the query and W_UV into the output, per head, and
    // attend over the latent cache as multi-query attention.
    let decode_tokens: f64 = of(Phase::Decode).map(SeqGroup::tokens).sum();
    if decode_tokens > 0.0 {
        let absorb_q = Op::BatchedGemm {
            batch: heads,
            m: decode_tokens,
            n: latent,
            k: nope,
        };
        w.push(OpId::QAbsorb, layers, absorb_q, Role::Linear);
        attend_groups(w, Phase::Decode, Role::Attention);
        let absorb_v = Op::BatchedGemm {
            batch: heads,
            m: decode_tokens,
            n: v,
            k: latent,
        };
        w.push(OpId::VAbsorb, layers, absorb_v, Role::Linear);
    }
    // Prefill: expanded. Keys and values of every key a chunk attends to are rebuilt from
    // the latent.
    let attended: f64 = of(Phase::Prefill)
        .map(|g| g.sequences * (g.past + g.new_tokens))
        .sum();
    if attended > 0.0 {
        w.push(
            OpId::KvBProj,
            layers,
            gemm(attended, heads * (nope + v), latent),
            Role::Linear,
        );
        attend_groups(w, Phase::Prefill, Role::ExpandedAttention);
    }
    w.push(
        OpId::OProj,
        layers,
        gemm(tokens, h, heads * v),
        Role::Linear,
    );
}

/// MLA's attention as kernels run it (see the module comment): in decode, absorbed, `heads`
/// queries over the shared latent cache (`kv_lora_rank + qk_rope_head_dim` wide keys, the
/// first `kv_lora_rank` channels as values); in prefill, expanded, keys of
/// `qk_nope + qk_rope` and values of `v_head_dim` per head rebuilt from the latent.
pub fn mla_attention_shape(
    mla: &Mla,
    phase: Phase,
    batch: f64,
    q_len: f64,
    kv_len: f64,
    heads: f64,
) -> AttentionShape {
    let (latent, rope) = (mla.kv_lora_rank as f64, mla.qk_rope_dim as f64);
    let (kv_heads, qk_dim, v_dim, shared_kv) = match phase {
        Phase::Decode => (1.0, latent + rope, latent, true),
        Phase::Prefill => (
            heads,
            mla.qk_nope_dim as f64 + rope,
            mla.v_head_dim as f64,
            false,
        ),
    };
    AttentionShape {
        batch,
        q_len,
        kv_len,
        heads,
        kv_heads,
        qk_dim,
        v_dim,
        causal: true,
        shared_kv,
        window: None,
    }
}

fn moe_block(w: &mut Builder<'_>, moe: &Moe, moe_layers: f64, tokens: f64, h: f64) {
    let (e, k, ie) = (
        moe.experts as f64,
        moe.top_k as f64,
        moe.expert_intermediate as f64,
    );
    w.push(OpId::Router, moe_layers, gemm(tokens, e, h), Role::Plain);
    w.push(
        OpId::RouterTopk,
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
        OpId::ExpertsGateProj,
        moe_layers,
        experts(ie, h),
        Role::Experts,
    );
    w.push(
        OpId::ExpertsUpProj,
        moe_layers,
        experts(ie, h),
        Role::Experts,
    );
    w.push(
        OpId::ExpertsSiluMul,
        moe_layers,
        Op::SiluMul {
            tokens: tokens * k,
            dim: ie,
        },
        Role::Plain,
    );
    w.push(
        OpId::ExpertsDownProj,
        moe_layers,
        experts(h, ie),
        Role::Experts,
    );
    w.push(
        OpId::MoeCombine,
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
            OpId::SharedExpertGateProj,
            moe_layers,
            gemm(tokens, is, h),
            Role::Linear,
        );
        w.push(
            OpId::SharedExpertUpProj,
            moe_layers,
            gemm(tokens, is, h),
            Role::Linear,
        );
        w.push(
            OpId::SharedExpertSiluMul,
            moe_layers,
            Op::SiluMul { tokens, dim: is },
            Role::Plain,
        );
        w.push(
            OpId::SharedExpertDownProj,
            moe_layers,
            gemm(tokens, h, is),
            Role::Linear,
        );
        if moe.shared_gate {
            let logit = gemm(tokens, 1.0, h);
            w.push(OpId::SharedExpertGate, moe_layers, logit, Role::Plain);
        }
    }
}
