//! Operators and their FLOP and byte counts, with separate formats for activations,
//! weights, KV cache and outputs.
//!
//! Bytes are compulsory DRAM traffic: each input read once, each output written once.
//! The prototype's per-operator formulas are the reference; where this module departs from
//! them the comment at the operator says why. FLOP counts follow the usual convention:
//! one multiply-add is two FLOPs, and a transcendental (exp, rsqrt) counts as one.

use crate::format::{Format, Math, product_is_block_scaled, product_math};
use crate::hardware::{ComputeCeiling, Hardware};
use crate::roofline::{Efficiency, Prediction, Roof, Work};
use crate::units::{Bytes, Flops};

/// The largest operator dimension predicted (2^32): past any real tensor's, and it keeps
/// a GEMM's element counts (m x k, k x n) exact in `f64`.
pub const MAX_DIM: u64 = 1 << 32;

/// The formats of an operation's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Precision {
    /// Activations (GEMM A operands, elementwise tensors, attention queries).
    pub activations: Format,
    /// Weights (GEMM B operands).
    pub weights: Format,
    /// Keys and values as stored in the KV cache.
    pub kv: Format,
    /// GEMM and attention outputs.
    pub output: Format,
}

impl Precision {
    /// Everything in one format (the prototype's single "precision").
    pub fn uniform(format: Format) -> Self {
        Precision {
            activations: format,
            weights: format,
            kv: format,
            output: format,
        }
    }
}

/// Normalisation flavour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormKind {
    /// RMSNorm (Llama, Qwen, DeepSeek).
    Rms,
    /// LayerNorm with bias.
    Layer,
}

/// The shape of one attention computation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttentionShape {
    /// Sequences.
    pub batch: f64,
    /// Query tokens per sequence (the prompt in prefill, 1 in decode).
    pub q_len: f64,
    /// Key/value tokens per sequence (the context).
    pub kv_len: f64,
    /// Query heads.
    pub heads: f64,
    /// Key/value heads (fewer than `heads` under GQA, 1 under MQA).
    pub kv_heads: f64,
    /// Query/key dimension per head.
    pub qk_dim: f64,
    /// Value dimension per head.
    pub v_dim: f64,
    /// Causal mask (each query sees only earlier keys).
    pub causal: bool,
    /// Values are the first `v_dim` channels of the keys (MLA's latent cache), so a fused
    /// kernel reads one tensor for both.
    pub shared_kv: bool,
    /// Sliding-window attention: each query sees at most this many keys, ending at its own
    /// position (Mistral's `sliding_window`; Beltagy et al., arXiv 2004.05150). `None`: all
    /// earlier keys.
    pub window: Option<f64>,
}

impl AttentionShape {
    /// Whether this is DeepSeek's latent attention as the analysis runs it
    /// (`analysis::mla_attention_shape`): over the shared latent cache in decode, with keys
    /// wider than values in the expanded prefill; ordinary attention has neither.
    pub fn is_latent(&self) -> bool {
        self.shared_kv || self.qk_dim != self.v_dim
    }

    /// Query heads per KV head (the group a KV head's cache serves); at least 1.
    pub fn group(&self) -> f64 {
        (self.heads / self.kv_heads.max(1.0)).max(1.0)
    }

    /// Query-key pairs a kernel that skips masked blocks evaluates: all of them without a
    /// mask; with a causal mask the i-th of `q_len` queries (whose context ends at
    /// `kv_len`) sees `kv_len - q_len + i + 1` keys; with a window `w`, at most `w` of them.
    pub fn visible_pairs(&self) -> f64 {
        let (t, s) = (self.q_len, self.kv_len);
        let w = self.window.unwrap_or(f64::INFINITY);
        if !(self.causal && t > 1.0) {
            return t * s.min(w);
        }
        // The queries see a = s - t + 1, a + 1, ..., s keys before the window caps them:
        // the sum of min(x, w) for x from a to s.
        let a = s - t + 1.0;
        if w >= s {
            t * (a + s) / 2.0
        } else if w <= a {
            t * w
        } else {
            (w - a + 1.0) * (a + w) / 2.0 + (s - w) * w
        }
    }

    /// Keys (per sequence and KV head) some query sees: all of them, or under a window the
    /// last `window + q_len - 1`.
    pub fn keys_read(&self) -> f64 {
        match self.window {
            Some(w) => self.kv_len.min(w + self.q_len - 1.0),
            None => self.kv_len,
        }
    }

    /// Bytes of the KV cache the attention reads once, in the cache format `kv`: each
    /// sequence's and KV head's keys read ([`AttentionShape::keys_read`]), keys and values
    /// apart, or one latent row serving as both where they are shared (MLA).
    pub fn cache_bytes(&self, kv: Format) -> Bytes {
        let tokens = self.batch * self.kv_heads * self.keys_read();
        if self.shared_kv {
            kv.tensor_bytes(tokens * self.qk_dim.max(self.v_dim))
        } else {
            kv.tensor_bytes(tokens * self.qk_dim) + kv.tensor_bytes(tokens * self.v_dim)
        }
    }
}

/// The tokens the chunked delta rule processes together (the `chunk_size` 64 of the
/// flash-linear-attention kernels that vLLM and SGLang run, `chunk_gated_delta_rule`).
pub const DELTA_RULE_CHUNK: f64 = 64.0;

/// The delta rule of one gated DeltaNet layer over a group of sequences (Yang, Kautz and
/// Hatamizadeh, ICLR 2025): for each token and value head, the state `S` (`key_dim x
/// value_dim`) decays by the token's gate, takes `beta (v - S^T k) k^T`, and gives the
/// output `S^T q`. Queries and keys have `key_heads` heads, each serving `value_heads /
/// key_heads` value heads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeltaRuleShape {
    /// Sequences.
    pub batch: f64,
    /// New tokens per sequence.
    pub new_tokens: f64,
    /// Query and key heads.
    pub key_heads: f64,
    /// Value heads, each with its own state.
    pub value_heads: f64,
    /// Channels per query and key head.
    pub key_dim: f64,
    /// Channels per value head.
    pub value_dim: f64,
    /// Whether each sequence's state from earlier tokens is read (else it starts at zero).
    pub carries_state: bool,
    /// Whether the chunked form runs (a prompt's tokens; Yang et al., NeurIPS 2024,
    /// "Parallelizing Linear Transformers with the Delta Rule over Sequence Length"), else
    /// the recurrent one, token by token (decoding).
    pub chunked: bool,
    /// The state's storage format.
    pub state: Format,
}

impl DeltaRuleShape {
    /// The state's elements of one sequence.
    fn state_elements(&self) -> f64 {
        self.value_heads * self.key_dim * self.value_dim
    }
}

/// One operator instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// `C[m,n] = A[m,k] x W[k,n] (+ bias[n])`. GEMV is m = 1 (decode); the LM head is a GEMM.
    Gemm {
        /// Rows of A (tokens).
        m: f64,
        /// Output features.
        n: f64,
        /// Reduction dimension.
        k: f64,
        /// Adds a bias vector.
        bias: bool,
    },
    /// `batch` independent GEMMs, each with its own weights: MoE experts (batch = experts
    /// touched, m = tokens per expert) and per-head weight products (MLA absorption).
    BatchedGemm {
        /// Independent products.
        batch: f64,
        /// Rows of each A.
        m: f64,
        /// Columns of each W.
        n: f64,
        /// Reduction dimension.
        k: f64,
    },
    /// Unfused attention, step 1: S = Q K^T, materialised.
    AttentionScores(AttentionShape),
    /// Unfused attention, step 2: softmax over S, in place.
    AttentionSoftmax(AttentionShape),
    /// Unfused attention, step 3: O = P V.
    AttentionContext(AttentionShape),
    /// Fused (FlashAttention-style) attention: scores never leave the chip.
    FusedAttention(AttentionShape),
    /// RMSNorm or LayerNorm over `tokens` rows of `dim`.
    Norm {
        /// Rows.
        tokens: f64,
        /// Row length.
        dim: f64,
        /// Flavour.
        kind: NormKind,
    },
    /// y = x + residual.
    ResidualAdd {
        /// Rows.
        tokens: f64,
        /// Row length.
        dim: f64,
    },
    /// Rotary position embedding applied in place to `heads` heads of `rotary_dim` channels.
    Rope {
        /// Rows.
        tokens: f64,
        /// Heads rotated (query heads plus key heads).
        heads: f64,
        /// Rotated channels per head.
        rotary_dim: f64,
    },
    /// SwiGLU activation: silu(gate) * up.
    SiluMul {
        /// Rows.
        tokens: f64,
        /// Intermediate width.
        dim: f64,
    },
    /// MoE routing: softmax (or sigmoid) over expert logits and top-k selection.
    RouterTopK {
        /// Rows.
        tokens: f64,
        /// Experts.
        experts: f64,
        /// Experts chosen per token.
        top_k: f64,
    },
    /// Weighted sum of each token's `top_k` expert outputs.
    MoeCombine {
        /// Rows.
        tokens: f64,
        /// Expert outputs per token.
        top_k: f64,
        /// Row length.
        dim: f64,
    },
    /// A depthwise causal convolution of `kernel` taps over `channels`, then SiLU (gated
    /// DeltaNet's short convolution over its queries, keys and values), each sequence
    /// carrying its last `kernel - 1` inputs between steps.
    CausalConv1d {
        /// Rows (every sequence's new tokens).
        tokens: f64,
        /// Sequences, each with its window.
        sequences: f64,
        /// Channels convolved.
        channels: f64,
        /// Taps.
        kernel: f64,
        /// The window's storage format.
        state: Format,
    },
    /// Gated DeltaNet's delta rule ([`DeltaRuleShape`]).
    DeltaRule(DeltaRuleShape),
    /// Embedding lookup: a gather of `tokens` rows.
    Embedding {
        /// Rows gathered.
        tokens: f64,
        /// Row length.
        dim: f64,
    },
}

/// What an operator costs and which compute type it runs as.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpCost {
    /// FLOPs and bytes.
    pub work: Work,
    /// The operation type its FLOPs run as.
    pub math: Math,
    /// Whether native execution needs block-scaled MMA.
    pub block_scaled: bool,
}

/// A prediction for one operator on one device.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpPrediction {
    /// Work and compute type.
    pub cost: OpCost,
    /// The ceiling met (with any conversion).
    pub ceiling: ComputeCeiling,
    /// The roofline result.
    pub prediction: Prediction,
}

fn vector(flops: f64, bytes: Bytes) -> OpCost {
    // Elementwise work runs on the FP32 vector units, never on tensor cores.
    OpCost {
        work: Work {
            flops: Flops(flops),
            bytes,
        },
        math: Math::Fp32,
        block_scaled: false,
    }
}

impl Op {
    /// The FLOPs, bytes and compute type of this operator under `p`.
    pub fn cost(&self, p: &Precision) -> OpCost {
        let act = |n: f64| p.activations.tensor_bytes(n);
        match *self {
            Op::Gemm { m, n, k, bias } => {
                // The prototype writes the output in the activation format in one document and
                // in FP16 in another; here it is the caller's `output` format.
                let mut flops = 2.0 * m * n * k;
                let mut bytes =
                    act(m * k) + p.weights.tensor_bytes(k * n) + p.output.tensor_bytes(m * n);
                if bias {
                    flops += m * n;
                    bytes += act(n);
                }
                OpCost {
                    work: Work {
                        flops: Flops(flops),
                        bytes,
                    },
                    math: product_math(p.activations, p.weights),
                    block_scaled: product_is_block_scaled(p.activations, p.weights),
                }
            }
            Op::BatchedGemm { batch, m, n, k } => {
                let bytes =
                    (act(m * k) + p.weights.tensor_bytes(k * n) + p.output.tensor_bytes(m * n))
                        * batch;
                OpCost {
                    work: Work {
                        flops: Flops(2.0 * batch * m * n * k),
                        bytes,
                    },
                    math: product_math(p.activations, p.weights),
                    block_scaled: product_is_block_scaled(p.activations, p.weights),
                }
            }
            Op::AttentionScores(a) => {
                // The unfused kernel computes the whole t x s matrix; the mask (causal or a
                // sliding window) is applied afterwards, so no pairs are skipped. K is read once per KV head (the prototype, docs/prototype.md).
                let scores = a.batch * a.heads * a.q_len * a.kv_len;
                let bytes = act(a.batch * a.heads * a.q_len * a.qk_dim)
                    + p.kv
                        .tensor_bytes(a.batch * a.kv_heads * a.kv_len * a.qk_dim)
                    + act(scores);
                attention_cost(2.0 * scores * a.qk_dim, bytes, p)
            }
            Op::AttentionSoftmax(a) => {
                // max, subtract, exp, sum, divide: 5 per score (the prototype, docs/prototype.md); read and write S.
                let scores = a.batch * a.heads * a.q_len * a.kv_len;
                vector(5.0 * scores, act(scores) * 2.0)
            }
            Op::AttentionContext(a) => {
                let scores = a.batch * a.heads * a.q_len * a.kv_len;
                let bytes = act(scores)
                    + p.kv.tensor_bytes(a.batch * a.kv_heads * a.kv_len * a.v_dim)
                    + p.output.tensor_bytes(a.batch * a.heads * a.q_len * a.v_dim);
                attention_cost(2.0 * scores * a.v_dim, bytes, p)
            }
            Op::FusedAttention(a) => {
                // Compulsory traffic: Q, K and V read once, O written once; re-reads of K/V
                // across query tiles are served by L2. A causal kernel skips masked tiles,
                // so only visible pairs cost FLOPs (the prototype counts all S^2 pairs in
                // prefill, twice what a causal FlashAttention kernel does).
                let pairs = a.batch * a.heads * a.visible_pairs();
                let flops = pairs * (2.0 * a.qk_dim + 2.0 * a.v_dim + 5.0);
                let bytes = act(a.batch * a.heads * a.q_len * a.qk_dim)
                    + a.cache_bytes(p.kv)
                    + p.output.tensor_bytes(a.batch * a.heads * a.q_len * a.v_dim);
                attention_cost(flops, bytes, p)
            }
            Op::Norm { tokens, dim, kind } => {
                // RMSNorm per element: square, accumulate, scale by 1/rms, scale by gamma
                // = 4 (the per-row rsqrt is negligible). The prototype says 5 in one place and lists
                // a subtraction RMSNorm does not have. LayerNorm adds the mean (2) and beta (1).
                let elements = tokens * dim;
                let (per_element, params) = match kind {
                    NormKind::Rms => (4.0, dim),
                    NormKind::Layer => (7.0, 2.0 * dim),
                };
                vector(per_element * elements, act(elements) * 2.0 + act(params))
            }
            Op::ResidualAdd { tokens, dim } => {
                let elements = tokens * dim;
                vector(elements, act(elements) * 3.0)
            }
            Op::Rope {
                tokens,
                heads,
                rotary_dim,
            } => {
                // Each channel pair: 4 multiplies and 2 adds = 3 FLOPs per element, applied
                // to queries and keys (the prototype counts queries only, at 6 per element), with
                // the cos/sin table (FP32) read per token.
                let elements = tokens * heads * rotary_dim;
                let table = Format::Fp32.tensor_bytes(tokens * rotary_dim);
                vector(3.0 * elements, act(elements) * 2.0 + table)
            }
            Op::SiluMul { tokens, dim } => {
                // silu(g) * u = g / (1 + exp(-g)) * u: exp, add, divide, multiply = 4 per
                // element (the prototype says 3); read gate and up, write one.
                let elements = tokens * dim;
                vector(4.0 * elements, act(elements) * 3.0)
            }
            Op::RouterTopK {
                tokens,
                experts,
                top_k,
            } => {
                // Softmax over the FP32 logits (5 per logit) plus one comparison per logit
                // for the selection; writes an FP32 weight and an int32 index per choice.
                let logits = tokens * experts;
                let bytes = Format::Fp32.tensor_bytes(logits)
                    + Format::Fp32.tensor_bytes(tokens * top_k) * 2.0;
                vector(6.0 * logits, bytes)
            }
            Op::MoeCombine { tokens, top_k, dim } => {
                let inputs = tokens * top_k * dim;
                vector(2.0 * inputs, act(inputs) + act(tokens * dim))
            }
            Op::CausalConv1d {
                tokens,
                sequences,
                channels,
                kernel,
                state,
            } => {
                // A multiply-add per tap and SiLU (4) per output; the input read and the
                // output written once, the taps read, each sequence's window read and
                // written back.
                let elements = tokens * channels;
                let window = state.tensor_bytes(sequences * channels * (kernel - 1.0));
                vector(
                    (2.0 * kernel + 4.0) * elements,
                    act(elements) * 2.0 + act(channels * kernel) + window * 2.0,
                )
            }
            Op::DeltaRule(d) => delta_rule_cost(&d, p),
            Op::Embedding { tokens, dim } => {
                // A gather: rows of the table in the weights format, written as activations.
                vector(
                    0.0,
                    p.weights.tensor_bytes(tokens * dim) + act(tokens * dim),
                )
            }
        }
    }

    /// Predicts this operator on `hardware`.
    pub fn predict(
        &self,
        p: &Precision,
        hardware: &Hardware,
        efficiency: &Efficiency,
    ) -> OpPrediction {
        let cost = self.cost(p);
        let ceiling = hardware.ceiling(cost.math, cost.block_scaled);
        let prediction = Roof::new(hardware, &ceiling, efficiency).predict(cost.work);
        OpPrediction {
            cost,
            ceiling,
            prediction,
        }
    }
}

/// The delta rule's work ([`DeltaRuleShape`]).
///
/// Recurrent (decoding), per token and value head: the decay (`dk dv`), `S^T k` (2), the
/// rank-one update (2) and `S^T q` (2) multiply-adds over the state: `7 dk dv` FLOPs on
/// the vector units.
///
/// Chunked (a prompt), per chunk of `C` tokens and value head, as the
/// flash-linear-attention kernels compute it: `K K^T` (`2 C^2 dk`), the inverse of its
/// unit-triangular part (`2 C^3 / 3`), the WY factors `W = A K` and `U = A V` (`2 C^2
/// (dk + dv)`), `U - W S` (`2 C dk dv`), the state's update `K^T (U - W S)` (`2 C dk
/// dv`), and the output `Q S + mask(Q K^T) (U - W S)` (`2 C dk dv + 2 C^2 (dk + dv)`), on
/// tensor cores. Beside queries, keys, values, gates and output, the kernels write and
/// read back the WY factors, the triangular matrix (FP32) and the state at each chunk's
/// start (`chunk_gated_delta_rule_fwd_h`'s `h`, in the activation format).
///
/// The kernels take 16-bit operands: activations narrower than that are counted in BF16.
fn delta_rule_cost(d: &DeltaRuleShape, p: &Precision) -> OpCost {
    let format = if p.activations.bits_per_element() >= 16.0 {
        p.activations
    } else {
        Format::Bf16
    };
    let act = |n: f64| format.tensor_bytes(n);
    let (dk, dv, vh) = (d.key_dim, d.value_dim, d.value_heads);
    let tokens = d.batch * d.new_tokens;
    let inputs = act(tokens * (2.0 * d.key_heads * dk + vh * dv))
        + Format::Fp32.tensor_bytes(tokens * 2.0 * vh);
    let output = act(tokens * vh * dv);
    let reads = if d.carries_state { 2.0 } else { 1.0 };
    let state = d.state.tensor_bytes(d.batch * d.state_elements()) * reads;
    if !d.chunked {
        return vector(7.0 * tokens * vh * dk * dv, inputs + output + state);
    }
    let c = DELTA_RULE_CHUNK.min(d.new_tokens);
    let chunks = d.batch * (d.new_tokens / DELTA_RULE_CHUNK).ceil();
    let per_token = 6.0 * dk * dv + c * (6.0 * dk + 4.0 * dv) + 2.0 * c * c / 3.0;
    let staged = act(tokens * vh * (dk + dv))
        + Format::Fp32.tensor_bytes(tokens * vh * c)
        + act(chunks * d.state_elements());
    OpCost {
        work: Work {
            flops: Flops(per_token * tokens * vh),
            bytes: inputs + output + state + staged * 2.0,
        },
        math: product_math(format, format),
        block_scaled: false,
    }
}

fn attention_cost(flops: f64, bytes: Bytes, p: &Precision) -> OpCost {
    // Q K^T and P V run on tensor cores in the wider of the query and cache formats
    // (an FP8 cache with BF16 queries is upconverted; FlashAttention-3 FP8 needs both FP8).
    OpCost {
        work: Work {
            flops: Flops(flops),
            bytes,
        },
        math: product_math(p.activations, p.kv),
        block_scaled: product_is_block_scaled(p.activations, p.kv),
    }
}

#[cfg(test)]
mod tests;
