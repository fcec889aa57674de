//! Parameter inventory of a model: counts (total and active per token) and storage bytes
//! with each tensor in its format.

use crate::config::ModelConfig;
use crate::format::Format;
use crate::units::Bytes;

use super::{Scenario, expected_distinct_experts};

/// Parameter counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamCounts {
    /// Every parameter (the MTP module of DeepSeek-V3, shipped separately, excluded).
    pub total: f64,
    /// Parameters one token uses: all but the routed experts it does not choose. Counts
    /// the embedding and LM head, as Mixtral's published 12.9 B active does.
    pub active: f64,
}

/// How a group of tensors is stored.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// In the weights format.
    Quantised,
    /// In the activation format (norms, biases, routers).
    Plain,
    /// Embedding table and LM head.
    Embedding,
    /// Routed experts: quantised, and only top_k / experts of them active.
    Routed,
}

/// How a group of tensors divides across GPUs (Megatron-LM's tensor parallelism,
/// Shoeybi et al., arXiv 1909.08053: attention split by heads, the MLP by intermediate
/// columns; expert parallelism places whole experts).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
    /// Embedding table and LM head: split by vocabulary rows over tensor parallelism,
    /// held by the first and last pipeline stage.
    Vocab,
    /// Split by query heads or intermediate columns over tensor parallelism.
    Heads,
    /// Key/value projections: split by KV heads, one head per GPU at least (replicated
    /// when there are fewer KV heads than GPUs).
    KvHeads,
    /// Small or shared tensors every GPU holds whole (norms, routers, MLA's down
    /// projections, whose outputs every head needs).
    Replicated,
    /// Routed experts: spread over the whole stage (expert parallelism places whole
    /// experts; without it each expert is split by columns over the same GPUs).
    Experts,
}

/// One group of identical tensors: `instances` tensors of `elements` each.
struct Group {
    elements: f64,
    instances: f64,
    kind: Kind,
    split: Split,
}

fn inventory(c: &ModelConfig) -> Vec<Group> {
    let mut g = Vec::with_capacity(24);
    let mut add = |elements: f64, instances: f64, kind: Kind, split: Split| {
        if elements > 0.0 && instances > 0.0 {
            g.push(Group {
                elements,
                instances,
                kind,
                split,
            });
        }
    };
    let (h, l, v) = (c.hidden as f64, c.layers as f64, c.vocab as f64);
    // Attention's tensors are in its layers only, a hybrid's linear layers have their own.
    let la = c.attention_layers() as f64;
    add(v * h, 1.0, Kind::Embedding, Split::Vocab);
    if !c.tie_embeddings {
        add(v * h, 1.0, Kind::Embedding, Split::Vocab);
    }
    add(h, 1.0, Kind::Plain, Split::Replicated); // final norm
    add(h, 2.0 * l, Kind::Plain, Split::Replicated); // attention and MLP norms
    match &c.mla {
        Some(m) => {
            let heads = c.heads as f64;
            let (nope, rope, vd) = (
                m.qk_nope_dim as f64,
                m.qk_rope_dim as f64,
                m.v_head_dim as f64,
            );
            let latent = m.kv_lora_rank as f64;
            match m.q_lora_rank {
                Some(r) => {
                    let r = r as f64;
                    add(h * r, la, Kind::Quantised, Split::Replicated);
                    add(r, la, Kind::Plain, Split::Replicated);
                    add(r * heads * (nope + rope), la, Kind::Quantised, Split::Heads);
                }
                None => add(h * heads * (nope + rope), la, Kind::Quantised, Split::Heads),
            }
            add(h * (latent + rope), la, Kind::Quantised, Split::Replicated);
            add(latent, la, Kind::Plain, Split::Replicated);
            add(
                latent * heads * (nope + vd),
                la,
                Kind::Quantised,
                Split::Heads,
            );
            add(heads * vd * h, la, Kind::Quantised, Split::Heads);
        }
        None => {
            let q = (c.heads * c.head_dim) as f64;
            let kv = (c.kv_heads * c.head_dim) as f64;
            // The output gate's logits are projected beside the queries.
            let gate = if c.attn_output_gate { 2.0 } else { 1.0 };
            add(h * q * gate, la, Kind::Quantised, Split::Heads);
            add(h * kv, 2.0 * la, Kind::Quantised, Split::KvHeads);
            add(q * h, la, Kind::Quantised, Split::Heads);
            if c.qkv_bias {
                add(q, la, Kind::Plain, Split::Heads);
                add(kv, 2.0 * la, Kind::Plain, Split::KvHeads);
            }
            if c.qk_norm {
                add(c.head_dim as f64, 2.0 * la, Kind::Plain, Split::Replicated);
            }
        }
    }
    if let Some(lin) = &c.linear_attention {
        // vLLM's `Qwen3_5MoeGatedDeltaNet`: in_proj_qkv, in_proj_z, in_proj_b and in_proj_a
        // (column-parallel), the depthwise convolution's taps, dt_bias and A_log per value
        // head, the gated norm over a head's values, out_proj (row-parallel).
        let ll = lin.layers as f64;
        let (kw, vw) = (lin.key_width() as f64, lin.value_width() as f64);
        let vh = lin.value_heads as f64;
        add(h * (2.0 * kw + vw), ll, Kind::Quantised, Split::Heads);
        add(h * vw, ll, Kind::Quantised, Split::Heads);
        add(h * vh, 2.0 * ll, Kind::Quantised, Split::Heads);
        let taps = (lin.conv_channels() * lin.conv_kernel) as f64;
        add(taps, ll, Kind::Plain, Split::Heads);
        add(vh, 2.0 * ll, Kind::Plain, Split::Heads);
        add(lin.value_dim as f64, ll, Kind::Plain, Split::Replicated);
        add(vw * h, ll, Kind::Quantised, Split::Heads);
    }
    let dense_layers = c.moe.as_ref().map_or(l, |m| m.dense_layers as f64);
    add(
        h * c.intermediate as f64,
        3.0 * dense_layers,
        Kind::Quantised,
        Split::Heads,
    );
    if let Some(m) = &c.moe {
        let moe_layers = l - dense_layers;
        let (e, ie) = (m.experts as f64, m.expert_intermediate as f64);
        add(e * h, moe_layers, Kind::Plain, Split::Replicated); // router
        if m.shared_gate {
            add(h, moe_layers, Kind::Plain, Split::Replicated); // Qwen3.5's shared_expert_gate
        } else if m.shared_experts > 0 {
            add(e, moe_layers, Kind::Plain, Split::Replicated); // DeepSeek's e_score_correction_bias
        }
        if m.shared_experts > 0 {
            add(
                h * ie * m.shared_experts as f64,
                3.0 * moe_layers,
                Kind::Quantised,
                Split::Heads,
            );
        }
        add(h * ie, 3.0 * e * moe_layers, Kind::Routed, Split::Experts);
    }
    g
}

fn active_fraction(c: &ModelConfig) -> f64 {
    c.moe
        .as_ref()
        .map_or(1.0, |m| m.top_k as f64 / m.experts as f64)
}

/// Total and active parameter counts.
pub fn count(c: &ModelConfig) -> ParamCounts {
    let routed_active = active_fraction(c);
    let mut counts = ParamCounts {
        total: 0.0,
        active: 0.0,
    };
    for g in inventory(c) {
        let n = g.elements * g.instances;
        counts.total += n;
        counts.active += if g.kind == Kind::Routed {
            n * routed_active
        } else {
            n
        };
    }
    counts
}

fn format_of(kind: Kind, s: &Scenario) -> Format {
    match kind {
        Kind::Quantised => s.precision.weights,
        Kind::Routed => s.experts.map_or(s.precision.weights, |e| e.weights),
        Kind::Embedding if s.quantize_embeddings => s.precision.weights,
        Kind::Embedding | Kind::Plain => s.precision.activations,
    }
}

/// Weight storage under a scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Storage {
    /// Every weight, each tensor in its format.
    pub total: Bytes,
    /// What one decode step of the batch reads: everything but the routed experts no token
    /// chose, and the embedding table, of which only `batch` rows are gathered.
    pub decode_read: Bytes,
}

/// Weight storage of `c` under `s`, and what a decode step of `batch` sequences reads.
pub fn storage(c: &ModelConfig, s: &Scenario, batch: f64) -> Storage {
    let routed_touched = c.moe.as_ref().map_or(1.0, |m| {
        let (e, k) = (m.experts as f64, m.top_k as f64);
        expected_distinct_experts(e, k, batch) / e
    });
    let mut total = Bytes::ZERO;
    let mut unread = Bytes::ZERO;
    for g in inventory(c) {
        let bytes = format_of(g.kind, s).tensor_bytes(g.elements) * g.instances;
        total += bytes;
        if g.kind == Kind::Routed {
            unread += bytes * (1.0 - routed_touched);
        }
    }
    // The input embedding is a gather of `batch` rows, not a read of the table.
    let embedding = format_of(Kind::Embedding, s);
    let table = embedding.tensor_bytes((c.vocab * c.hidden) as f64);
    let gathered = embedding.tensor_bytes(batch * c.hidden as f64);
    Storage {
        total,
        decode_read: total - unread - table + gathered,
    }
}

/// How one GPU's share of the weights is cut: the parallel layout's degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightShard {
    /// Tensor-parallel degree (attention heads, MLP columns, vocabulary rows).
    pub tensor: f64,
    /// GPUs the routed experts are spread over (one pipeline stage's GPUs).
    pub experts: f64,
    /// Layers on the GPU's pipeline stage over the model's layers (1 without pipelining).
    pub layer_fraction: f64,
    /// Whether the model is pipelined: the embedding and LM head then sit on different
    /// stages, so a GPU holds one of them (a tied matrix is held by both).
    pub pipelined: bool,
}

impl WeightShard {
    /// One GPU holding everything.
    pub const WHOLE: WeightShard = WeightShard {
        tensor: 1.0,
        experts: 1.0,
        layer_fraction: 1.0,
        pipelined: false,
    };
}

/// The weight bytes one GPU holds under `shard` (the heaviest stage's GPU). Under
/// [`WeightShard::WHOLE`] this is `storage`'s total exactly.
pub fn weights_per_gpu(c: &ModelConfig, s: &Scenario, shard: &WeightShard) -> Bytes {
    let kv_split = shard.tensor.min(c.kv_heads as f64).max(1.0);
    let mut total = Bytes::ZERO;
    for g in inventory(c) {
        let bytes = format_of(g.kind, s).tensor_bytes(g.elements) * g.instances;
        total += match g.split {
            Split::Vocab if shard.pipelined && !c.tie_embeddings => bytes * (0.5 / shard.tensor),
            Split::Vocab => bytes * (1.0 / shard.tensor),
            Split::Heads => bytes * (shard.layer_fraction / shard.tensor),
            Split::KvHeads => bytes * (shard.layer_fraction / kv_split),
            Split::Replicated => bytes * shard.layer_fraction,
            Split::Experts => bytes * (shard.layer_fraction / shard.experts),
        };
    }
    total
}
