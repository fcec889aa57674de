//! Transformer architecture from a Hugging Face `config.json`.
//!
//! Fields are read one by one from the parsed JSON so that every error names the field at
//! fault, and every size is bounded so that no input can overflow or exhaust anything
//! downstream. Nothing here panics on any input.

use serde_json::{Map, Value};

use crate::error::ModelError;
use crate::format::Format;
use crate::units::Bytes;

/// `model_type` values understood.
pub const SUPPORTED_FAMILIES: [&str; 16] = [
    "llama",
    "mistral",
    "qwen2",
    "qwen3",
    "qwen3_moe",
    "mixtral",
    "deepseek_v3",
    "deepseek_v2",
    "kimi_k2",
    "kimi_k25",
    "minimax_m2",
    "gpt_oss",
    "qwen3_5",
    "qwen3_5_moe",
    "qwen3_5_text",
    "qwen3_5_moe_text",
];

/// Architecture family, from `model_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Llama 2/3 and kin.
    Llama,
    /// Mistral (dense).
    Mistral,
    /// Qwen2 / Qwen2.5 (QKV bias).
    Qwen2,
    /// Qwen3 (per-head QK norm).
    Qwen3,
    /// Qwen3's mixture of experts (`qwen3_moe`: Qwen3-30B-A3B, Qwen3-235B-A22B): Qwen3's
    /// attention, routed experts in every layer, no shared expert.
    Qwen3Moe,
    /// Mixtral (sparse MoE).
    Mixtral,
    /// MiniMax-M2 and M2.5 (`minimax_m2`): grouped-query attention with its norm over each
    /// token's whole query and key (`qk_norm_type: per_layer`), rotary embedding on part of
    /// each head (`rotary_dim`), routed experts in every layer, no shared expert.
    MiniMaxM2,
    /// OpenAI's gpt-oss (`gpt_oss`: gpt-oss-20b and -120b): grouped-query attention with
    /// biases and a learned sink per head, layers alternating between a 128-token sliding
    /// window and full attention (`layer_types`), routed experts with biases in every
    /// layer, no shared expert (OpenAI, "gpt-oss-120b & gpt-oss-20b Model Card", 2025).
    GptOss,
    /// Qwen3.5 (`qwen3_5`, `qwen3_5_moe`: Qwen3.5-27B, -35B-A3B, -122B-A10B, -397B-A17B), a
    /// hybrid: three of every four layers are gated DeltaNet linear attention
    /// ([`LinearAttention`]; Yang, Kautz and Hatamizadeh, ICLR 2025, "Gated Delta Networks"),
    /// whose recurrent state replaces a KV cache, the fourth grouped-query attention with
    /// Qwen3's norm on queries and keys, a sigmoid gate on its output (`attn_output_gate`)
    /// and rotary embedding on a quarter of each head; the MoE models route experts in every
    /// layer beside one gated shared expert.
    Qwen35,
    /// DeepSeek-V2/V3/R1 (MLA, shared experts, leading dense layers), and Moonshot's Kimi
    /// K2 (`kimi_k2`), whose published config is DeepSeek-V3's architecture
    /// (`DeepseekV3ForCausalLM`) with its own sizes.
    DeepSeek,
}

/// Mixture-of-experts layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Moe {
    /// Routed experts per MoE layer.
    pub experts: u64,
    /// Experts chosen per token.
    pub top_k: u64,
    /// Intermediate size of one routed expert.
    pub expert_intermediate: u64,
    /// Shared (always-on) experts per MoE layer.
    pub shared_experts: u64,
    /// Leading layers that use a dense MLP instead (DeepSeek's `first_k_dense_replace`).
    pub dense_layers: u64,
    /// The shared experts' output is scaled by a sigmoid of a logit of its own (Qwen3.5's
    /// `shared_expert_gate`, one weight row per MoE layer).
    pub shared_gate: bool,
}

impl Moe {
    /// `experts` routed experts of `width` in every layer, `top_k` per token, no shared
    /// expert and no dense layer (Mixtral's, Qwen3's, MiniMax-M2's and gpt-oss's layout).
    fn routed(experts: u64, top_k: u64, width: u64) -> Moe {
        Moe {
            experts,
            top_k,
            expert_intermediate: width,
            shared_experts: 0,
            dense_layers: 0,
            shared_gate: false,
        }
    }
}

/// Gated DeltaNet linear attention (Qwen3.5's `linear_attention` layers; the layer is
/// vLLM's `Qwen3_5MoeGatedDeltaNet`): per token, projections to queries and keys of
/// `key_heads` heads, values and an output gate of `value_heads` heads, and a decay and a
/// write strength per value head; a short causal convolution over the queries, keys and
/// values; then the delta rule updates each value head's `key_dim x value_dim` state and
/// reads the output from it. Each sequence holds that state and the convolution's last
/// `conv_kernel - 1` inputs, whatever its length.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearAttention {
    /// Layers of linear attention (the `linear_attention` entries of `layer_types`).
    pub layers: u64,
    /// Query and key heads (`linear_num_key_heads`).
    pub key_heads: u64,
    /// Value heads (`linear_num_value_heads`), each with a state of its own.
    pub value_heads: u64,
    /// Channels per query and key head (`linear_key_head_dim`).
    pub key_dim: u64,
    /// Channels per value head (`linear_value_head_dim`).
    pub value_dim: u64,
    /// Taps of the causal convolution (`linear_conv_kernel_dim`).
    pub conv_kernel: u64,
    /// The format the engines keep the recurrent state in: the config's `mamba_ssm_dtype`
    /// (FP32 in Qwen3.5's; vLLM's `Qwen3_5ForConditionalGenerationConfig` sets its
    /// `mamba_ssm_cache_dtype` from it), else the checkpoint's `dtype`.
    pub state_format: Format,
    /// The format of the convolution's window: the checkpoint's `dtype` (vLLM's
    /// `mamba_cache_dtype` "auto").
    pub conv_format: Format,
}

impl LinearAttention {
    /// Query (or key) channels of one token: `key_heads x key_dim`.
    pub fn key_width(&self) -> u64 {
        self.key_heads * self.key_dim
    }

    /// Value (or gate) channels of one token: `value_heads x value_dim`.
    pub fn value_width(&self) -> u64 {
        self.value_heads * self.value_dim
    }

    /// Channels the causal convolution runs over: queries, keys and values.
    pub fn conv_channels(&self) -> u64 {
        2 * self.key_width() + self.value_width()
    }

    /// The recurrent state's elements in one layer: `value_heads x key_dim x value_dim`.
    pub fn state_elements(&self) -> u64 {
        self.value_heads * self.key_dim * self.value_dim
    }

    /// What one sequence holds in one layer: the recurrent state and the convolution's last
    /// `conv_kernel - 1` inputs (vLLM's `MambaStateShapeCalculator.gated_delta_net_state_shape`).
    pub fn state_bytes(&self) -> Bytes {
        let window = (self.conv_channels() * (self.conv_kernel - 1)) as f64;
        self.state_format.tensor_bytes(self.state_elements() as f64)
            + self.conv_format.tensor_bytes(window)
    }
}

/// Multi-head latent attention (DeepSeek).
#[derive(Clone, Debug, PartialEq)]
pub struct Mla {
    /// Query down-projection rank (`None`: queries are projected directly).
    pub q_lora_rank: Option<u64>,
    /// Rank of the compressed key/value latent that the KV cache holds.
    pub kv_lora_rank: u64,
    /// Per-head query/key channels without rotary embedding.
    pub qk_nope_dim: u64,
    /// Per-head (and shared key) rotary channels.
    pub qk_rope_dim: u64,
    /// Per-head value channels.
    pub v_head_dim: u64,
}

/// A decoder-only transformer's architecture.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelConfig {
    /// Display name.
    pub name: String,
    /// Family.
    pub family: Family,
    /// Model width (d_model).
    pub hidden: u64,
    /// Decoder layers.
    pub layers: u64,
    /// Vocabulary size.
    pub vocab: u64,
    /// Query heads.
    pub heads: u64,
    /// Key/value heads.
    pub kv_heads: u64,
    /// Channels per head.
    pub head_dim: u64,
    /// Dense MLP intermediate size.
    pub intermediate: u64,
    /// Input embedding and LM head share one matrix.
    pub tie_embeddings: bool,
    /// Q, K and V projections carry biases (Qwen2).
    pub qkv_bias: bool,
    /// RMSNorm on queries and keys (Qwen3's per head; MiniMax-M2's over each token's whole
    /// query and key, the same elements normalised, its weights of every head: counted as
    /// Qwen3's, a 0.0002 % difference in parameters).
    pub qk_norm: bool,
    /// Channels of each query and key head that the rotary embedding turns (MiniMax-M2's
    /// `rotary_dim`, 64 of 128); every channel where the config does not say.
    pub rotary_dim: u64,
    /// A sigmoid gate on each attention layer's output, its logits projected beside the
    /// queries (Qwen3.5's `attn_output_gate`: `q_proj` twice as wide).
    pub attn_output_gate: bool,
    /// Mixture of experts, if sparse.
    pub moe: Option<Moe>,
    /// Multi-head latent attention, if used.
    pub mla: Option<Mla>,
    /// Linear-attention layers in place of some attention layers, if a hybrid.
    pub linear_attention: Option<LinearAttention>,
    /// Sliding-window attention: each token of a windowed layer attends to at most this
    /// many tokens and that layer's KV cache keeps only them (Mistral-7B-v0.1's
    /// `sliding_window`, 4096, in every layer; gpt-oss's 128 in every other layer).
    pub sliding_window: Option<u64>,
    /// Layers under the sliding window ([`ModelConfig::sliding_window`]): every layer
    /// for Mistral and Mixtral, the `sliding_attention` entries of `layer_types` for
    /// gpt-oss, 0 without a window.
    pub window_layers: u64,
    /// The format the published checkpoint stores its routed experts in where its
    /// `quantization_config` quantises only them: gpt-oss's `quant_method` `mxfp4`, whose
    /// `modules_to_not_convert` leave attention, the router, the embedding and the LM head
    /// in BF16. `None` for any other checkpoint.
    pub checkpoint_experts: Option<Format>,
    /// Multi-token-prediction modules the checkpoint ships beside its decoder layers, each
    /// drafting one more token for speculative decoding: DeepSeek-V3's
    /// `num_nextn_predict_layers` (1; arXiv 2412.19437, section 2.2), Qwen's
    /// `mtp_num_hidden_layers`; 0 where the config names none.
    pub mtp_layers: u64,
}

/// Upper bounds that keep every product finite and every allocation small.
const MAX_DIM: u64 = 1 << 20;
const MAX_LAYERS: u64 = 4096;
const MAX_VOCAB: u64 = 1 << 24;
const MAX_EXPERTS: u64 = 1 << 16;
const MAX_MTP_LAYERS: u64 = 16;
const MAX_CONTEXT: u64 = 1 << 30;

struct Fields<'a> {
    map: &'a Map<String, Value>,
}

impl Fields<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn optional_int(&self, key: &str, min: u64, max: u64) -> Result<Option<u64>, ModelError> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        let n = value
            .as_u64()
            .or_else(|| {
                value
                    .as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1e18)
                    .map(|f| f as u64)
            })
            .ok_or_else(|| {
                ModelError::invalid(key, format!("expected a whole number, got {value}"))
            })?;
        if n < min || n > max {
            return Err(ModelError::invalid(
                key,
                format!("{n} is outside {min}..={max}"),
            ));
        }
        Ok(Some(n))
    }

    fn int(&self, key: &str, min: u64, max: u64) -> Result<u64, ModelError> {
        self.optional_int(key, min, max)?
            .ok_or_else(|| ModelError::MissingField(key.into()))
    }

    fn flag(&self, key: &str) -> Result<Option<bool>, ModelError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(ModelError::invalid(
                key,
                format!("expected true or false, got {other}"),
            )),
        }
    }
}

impl ModelConfig {
    /// Layers of softmax attention (standard or latent): all but a hybrid's linear ones.
    pub fn attention_layers(&self) -> u64 {
        self.layers - self.linear_attention.as_ref().map_or(0, |l| l.layers)
    }

    /// Parses `config.json` text.
    pub fn from_json(text: &str) -> Result<ModelConfig, ModelError> {
        let value: Value = serde_json::from_str(text).map_err(|e| ModelError::Syntax {
            what: "config.json",
            message: e.to_string(),
        })?;
        ModelConfig::from_value(&value)
    }

    /// Builds the architecture from already-parsed JSON.
    ///
    /// A model that reads images beside text (Kimi-K2.5's `kimi_k25`) is its language
    /// model, the config's `text_config`, named as the whole: the vision encoder and its
    /// projector run only on images, and the analysis is of text requests.
    pub fn from_value(value: &Value) -> Result<ModelConfig, ModelError> {
        let map = value.as_object().ok_or_else(|| {
            ModelError::invalid("config", "expected a JSON object at the top level")
        })?;
        if let Some(outer @ ("kimi_k25" | "qwen3_5" | "qwen3_5_moe")) =
            map.get("model_type").and_then(Value::as_str)
        {
            let text = map
                .get("text_config")
                .ok_or_else(|| ModelError::MissingField("text_config".into()))?;
            if text.get("model_type").and_then(Value::as_str) == Some(outer) {
                return Err(ModelError::invalid(
                    "text_config.model_type",
                    format!("a language model of its own kind, {outer}, nests without end"),
                ));
            }
            let mut config = ModelConfig::from_value(text)?;
            if let Some(name) = map.get("_name_or_path").and_then(Value::as_str)
                && !name.is_empty()
            {
                config.name = name.chars().take(128).collect();
            }
            // The whole model's flag ties the language model's embedding and LM head
            // (transformers' `PreTrainedModel.tie_weights` reads the top-level config).
            if let Some(tied) = (Fields { map }).flag("tie_word_embeddings")? {
                config.tie_embeddings = tied;
            }
            return Ok(config);
        }
        let f = Fields { map };
        let model_type = match f.get("model_type") {
            None => return Err(ModelError::MissingField("model_type".into())),
            Some(Value::String(s)) => s.as_str(),
            Some(other) => {
                return Err(ModelError::invalid(
                    "model_type",
                    format!("expected a string, got {other}"),
                ));
            }
        };
        let family = match model_type {
            "llama" => Family::Llama,
            "mistral" => Family::Mistral,
            "qwen2" => Family::Qwen2,
            "qwen3" => Family::Qwen3,
            "qwen3_moe" => Family::Qwen3Moe,
            "mixtral" => Family::Mixtral,
            "deepseek_v3" | "deepseek_v2" | "kimi_k2" => Family::DeepSeek,
            "minimax_m2" => Family::MiniMaxM2,
            "gpt_oss" => Family::GptOss,
            "qwen3_5_text" | "qwen3_5_moe_text" => Family::Qwen35,
            other => {
                return Err(ModelError::UnknownFamily {
                    family: other.chars().take(64).collect(),
                    supported: &SUPPORTED_FAMILIES,
                });
            }
        };
        let name = map
            .get("_name_or_path")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map_or_else(|| model_type.to_string(), |s| s.chars().take(128).collect());

        let hidden = f.int("hidden_size", 1, MAX_DIM)?;
        let layers = f.int("num_hidden_layers", 1, MAX_LAYERS)?;
        let vocab = f.int("vocab_size", 1, MAX_VOCAB)?;
        let heads = f.int("num_attention_heads", 1, MAX_DIM)?;
        let kv_heads = f
            .optional_int("num_key_value_heads", 1, MAX_DIM)?
            .unwrap_or(heads);
        if heads % kv_heads != 0 {
            return Err(ModelError::invalid(
                "num_key_value_heads",
                format!("{kv_heads} does not divide num_attention_heads ({heads})"),
            ));
        }
        let head_dim = match f.optional_int("head_dim", 1, MAX_DIM)? {
            Some(d) => d,
            None => {
                if hidden % heads != 0 {
                    return Err(ModelError::invalid(
                        "head_dim",
                        format!(
                            "absent, and hidden_size ({hidden}) is not a multiple of num_attention_heads ({heads})"
                        ),
                    ));
                }
                hidden / heads
            }
        };
        let intermediate = match f.optional_int("intermediate_size", 1, MAX_DIM)? {
            Some(width) => width,
            // Qwen3.5's MoE configs have no dense MLP, and no `intermediate_size`: every
            // layer's MLP is its experts (`mlp_only_layers` is empty), whose width stands in.
            None if model_type == "qwen3_5_moe_text" => {
                f.int("moe_intermediate_size", 1, MAX_DIM)?
            }
            None => return Err(ModelError::MissingField("intermediate_size".into())),
        };
        let tie_embeddings = f.flag("tie_word_embeddings")?.unwrap_or(false);
        let qkv_bias = f.flag("attention_bias")?.unwrap_or(family == Family::Qwen2);

        let moe = match family {
            Family::Mixtral => {
                let experts = f.int("num_local_experts", 1, MAX_EXPERTS)?;
                let top_k = f.int("num_experts_per_tok", 1, experts)?;
                Some(Moe::routed(experts, top_k, intermediate))
            }
            Family::Qwen3Moe => Some(qwen_routed_experts(&f)?),
            Family::Qwen35 if model_type == "qwen3_5_moe_text" => {
                // One shared expert of `shared_expert_intermediate_size` beside the routed
                // ones, its output scaled by a sigmoid gate (`shared_expert_gate`).
                let mut moe = qwen_routed_experts(&f)?;
                let shared = f.int("shared_expert_intermediate_size", 0, MAX_DIM)?;
                if shared % moe.expert_intermediate != 0 {
                    let problem = format!(
                        "{shared} is not a multiple of moe_intermediate_size ({})",
                        moe.expert_intermediate
                    );
                    return Err(ModelError::invalid(
                        "shared_expert_intermediate_size",
                        problem,
                    ));
                }
                moe.shared_experts = shared / moe.expert_intermediate;
                moe.shared_gate = moe.shared_experts > 0;
                Some(moe)
            }
            Family::GptOss => {
                // Its experts are `intermediate_size` wide (transformers'
                // `GptOssConfig`); `experts_per_token` is the name in OpenAI's own config.
                let experts = f.int("num_local_experts", 1, MAX_EXPERTS)?;
                let top_k = match f.optional_int("num_experts_per_tok", 1, experts)? {
                    Some(k) => k,
                    None => f.int("experts_per_token", 1, experts)?,
                };
                Some(Moe::routed(experts, top_k, intermediate))
            }
            Family::MiniMaxM2 => {
                // A shared expert of its own width is not modelled.
                if let Some(shared) = f.optional_int("shared_intermediate_size", 0, MAX_DIM)?
                    && shared != 0
                {
                    let problem = format!("a shared expert is not modelled, got {shared}");
                    return Err(ModelError::invalid("shared_intermediate_size", problem));
                }
                let experts = f.int("num_local_experts", 1, MAX_EXPERTS)?;
                let top_k = f.int("num_experts_per_tok", 1, experts)?;
                Some(Moe::routed(experts, top_k, intermediate))
            }
            Family::DeepSeek => match f.optional_int("n_routed_experts", 1, MAX_EXPERTS)? {
                None => None,
                Some(experts) => Some(Moe {
                    experts,
                    top_k: f.int("num_experts_per_tok", 1, experts)?,
                    expert_intermediate: f.int("moe_intermediate_size", 1, MAX_DIM)?,
                    shared_experts: f
                        .optional_int("n_shared_experts", 0, MAX_EXPERTS)?
                        .unwrap_or(0),
                    dense_layers: f
                        .optional_int("first_k_dense_replace", 0, layers)?
                        .unwrap_or(0),
                    shared_gate: false,
                }),
            },
            _ => None,
        };
        if let Some(freq) = f.optional_int("moe_layer_freq", 1, MAX_LAYERS)?
            && freq != 1
        {
            let problem = format!("only 1 is supported, got {freq}");
            return Err(ModelError::invalid("moe_layer_freq", problem));
        }
        let mla = match family {
            Family::DeepSeek => Some(Mla {
                q_lora_rank: f.optional_int("q_lora_rank", 1, MAX_DIM)?,
                kv_lora_rank: f.int("kv_lora_rank", 1, MAX_DIM)?,
                qk_nope_dim: f.int("qk_nope_head_dim", 0, MAX_DIM)?,
                qk_rope_dim: f.int("qk_rope_head_dim", 0, MAX_DIM)?,
                v_head_dim: f.int("v_head_dim", 1, MAX_DIM)?,
            }),
            _ => None,
        };
        // Mistral and Mixtral apply `sliding_window` in every layer when it is set; Qwen2 and
        // Qwen3 only with `use_sliding_window`, and then only from `max_window_layers` on,
        // which this analysis does not model, so such a config is refused rather than
        // costed as full attention.
        let sliding_window = match family {
            Family::Mistral | Family::Mixtral => {
                f.optional_int("sliding_window", 1, MAX_CONTEXT)?
            }
            Family::Qwen2 | Family::Qwen3 | Family::Qwen3Moe | Family::Qwen35 => {
                if f.flag("use_sliding_window")?.unwrap_or(false) {
                    return Err(ModelError::invalid(
                        "use_sliding_window",
                        "sliding windows on some layers (max_window_layers) are not modelled",
                    ));
                }
                None
            }
            Family::GptOss => Some(f.int("sliding_window", 1, MAX_CONTEXT)?),
            Family::Llama | Family::DeepSeek | Family::MiniMaxM2 => None,
        };
        let window_layers = match (family, sliding_window) {
            (_, None) => 0,
            (Family::GptOss, Some(_)) => windowed_layers(&f, layers)?,
            (_, Some(_)) => layers,
        };
        let qk_norm = match family {
            Family::Qwen3 | Family::Qwen3Moe | Family::Qwen35 => true,
            Family::MiniMaxM2 => {
                match f.get("qk_norm_type") {
                    None => {}
                    Some(Value::String(t)) if t == "per_layer" || t == "per_head" => {}
                    Some(other) => {
                        let problem = format!(
                            "expected \"per_layer\" or \"per_head\", got {}",
                            other.to_string().chars().take(64).collect::<String>()
                        );
                        return Err(ModelError::invalid("qk_norm_type", problem));
                    }
                }
                f.flag("use_qk_norm")?.unwrap_or(false)
            }
            _ => false,
        };
        let checkpoint_experts = checkpoint_experts(&f, moe.is_some())?;
        let mtp_layers = match family {
            Family::DeepSeek => f.optional_int("num_nextn_predict_layers", 0, MAX_MTP_LAYERS)?,
            Family::Qwen35 => f.optional_int("mtp_num_hidden_layers", 0, MAX_MTP_LAYERS)?,
            _ => None,
        }
        .unwrap_or(0);
        let rotary_dim = match family {
            Family::Qwen35 => partial_rotary_dim(&f, head_dim)?,
            _ => f
                .optional_int("rotary_dim", 1, head_dim)?
                .unwrap_or(head_dim),
        };
        let (attn_output_gate, linear_attention) = match family {
            Family::Qwen35 => (
                f.flag("attn_output_gate")?.unwrap_or(false),
                Some(linear_attention(&f, layers)?),
            ),
            _ => (false, None),
        };
        Ok(ModelConfig {
            name,
            family,
            hidden,
            layers,
            vocab,
            heads,
            kv_heads,
            head_dim,
            intermediate,
            tie_embeddings,
            qkv_bias,
            qk_norm,
            rotary_dim,
            attn_output_gate,
            moe,
            mla,
            linear_attention,
            sliding_window,
            window_layers,
            checkpoint_experts,
            mtp_layers,
        })
    }
}

/// Qwen's routed experts (`qwen3_moe`, Qwen3.5's MoE): `num_experts` of
/// `moe_intermediate_size`, `num_experts_per_tok` per token, in every layer.
fn qwen_routed_experts(f: &Fields<'_>) -> Result<Moe, ModelError> {
    // `decoder_sparse_step` k puts the experts in every k-th layer and `mlp_only_layers`
    // lists dense ones; the published checkpoints set 1 and none, the only layout modelled.
    if let Some(step) = f.optional_int("decoder_sparse_step", 1, MAX_LAYERS)?
        && step != 1
    {
        let problem = format!("only 1 (experts in every layer) is modelled, got {step}");
        return Err(ModelError::invalid("decoder_sparse_step", problem));
    }
    match f.get("mlp_only_layers") {
        None => {}
        Some(Value::Array(a)) if a.is_empty() => {}
        Some(other) => {
            let problem = format!(
                "dense layers among the sparse ones are not modelled, got {}",
                other.to_string().chars().take(64).collect::<String>()
            );
            return Err(ModelError::invalid("mlp_only_layers", problem));
        }
    }
    let experts = f.int("num_experts", 1, MAX_EXPERTS)?;
    let top_k = f.int("num_experts_per_tok", 1, experts)?;
    let width = f.int("moe_intermediate_size", 1, MAX_DIM)?;
    Ok(Moe::routed(experts, top_k, width))
}

/// The rotated channels of a head of `head_dim` under `partial_rotary_factor` (in
/// `rope_parameters`, where Qwen3.5's configs put it, or at the top level); every channel
/// without one.
fn partial_rotary_dim(f: &Fields<'_>, head_dim: u64) -> Result<u64, ModelError> {
    let nested = f
        .get("rope_parameters")
        .and_then(|r| r.get("partial_rotary_factor"))
        .filter(|v| !v.is_null());
    let Some(factor) = nested.or_else(|| f.get("partial_rotary_factor")) else {
        return Ok(head_dim);
    };
    let channels = factor
        .as_f64()
        .filter(|x| *x > 0.0 && *x <= 1.0)
        .map(|x| x * head_dim as f64)
        .filter(|c| c.fract() == 0.0 && *c >= 1.0)
        .ok_or_else(|| {
            let problem = format!(
                "expected a fraction in (0, 1] of head_dim ({head_dim}) that gives whole channels, got {factor}"
            );
            ModelError::invalid("partial_rotary_factor", problem)
        })?;
    Ok(channels as u64)
}

/// A storage format named as the configs name torch dtypes (`bfloat16`, `float16`,
/// `float32`); `None` where `key` is absent.
fn dtype(f: &Fields<'_>, key: &str) -> Result<Option<Format>, ModelError> {
    match f.get(key) {
        None => Ok(None),
        Some(Value::String(s)) if s == "bfloat16" => Ok(Some(Format::Bf16)),
        Some(Value::String(s)) if s == "float16" => Ok(Some(Format::Fp16)),
        Some(Value::String(s)) if s == "float32" => Ok(Some(Format::Fp32)),
        Some(other) => {
            let problem = format!(
                "expected \"bfloat16\", \"float16\" or \"float32\", got {}",
                other.to_string().chars().take(64).collect::<String>()
            );
            Err(ModelError::invalid(key, problem))
        }
    }
}

/// Qwen3.5's gated DeltaNet layers: their shape from the `linear_*` fields and which layers
/// they are from `layer_types`, or, without it, every layer but each
/// `full_attention_interval`-th (transformers' `Qwen3_5TextConfig` fills `layer_types` so).
fn linear_attention(f: &Fields<'_>, layers: u64) -> Result<LinearAttention, ModelError> {
    let linear_layers = match layers_of_kind(f, layers, "linear_attention")? {
        Some(linear) => linear,
        None => {
            let interval = f.int("full_attention_interval", 1, MAX_LAYERS)?;
            layers - layers / interval
        }
    };
    let key_heads = f.int("linear_num_key_heads", 1, MAX_DIM)?;
    let value_heads = f.int("linear_num_value_heads", 1, MAX_DIM)?;
    if value_heads % key_heads != 0 {
        let problem =
            format!("{value_heads} is not a multiple of linear_num_key_heads ({key_heads})");
        return Err(ModelError::invalid("linear_num_value_heads", problem));
    }
    let model_format = dtype(f, "dtype")?
        .or(dtype(f, "torch_dtype")?)
        .unwrap_or(Format::Bf16);
    Ok(LinearAttention {
        layers: linear_layers,
        key_heads,
        value_heads,
        key_dim: f.int("linear_key_head_dim", 1, MAX_DIM)?,
        value_dim: f.int("linear_value_head_dim", 1, MAX_DIM)?,
        conv_kernel: f.int("linear_conv_kernel_dim", 1, 64)?,
        state_format: dtype(f, "mamba_ssm_dtype")?.unwrap_or(model_format),
        conv_format: model_format,
    })
}

/// The routed experts' format of a checkpoint whose `quantization_config` quantises only
/// them ([`ModelConfig::checkpoint_experts`]): `mxfp4` (gpt-oss; transformers' `Mxfp4Config`
/// quantises the experts' projections alone). Other methods say nothing here.
fn checkpoint_experts(f: &Fields<'_>, has_experts: bool) -> Result<Option<Format>, ModelError> {
    let Some(config) = f.get("quantization_config") else {
        return Ok(None);
    };
    let config = config
        .as_object()
        .ok_or_else(|| ModelError::invalid("quantization_config", "expected an object"))?;
    match config.get("quant_method").and_then(Value::as_str) {
        Some("mxfp4") if has_experts => Ok(Some(Format::MxFp4)),
        Some("mxfp4") => Err(ModelError::invalid(
            "quantization_config.quant_method",
            "mxfp4 quantises routed experts, and this model has none",
        )),
        _ => Ok(None),
    }
}

/// The layers of `layers` that `layer_types` puts under the sliding window: its
/// `sliding_attention` entries. Where a gpt-oss config has no `layer_types`, every other
/// layer from the first, as transformers' `GptOssConfig` fills it in.
fn windowed_layers(f: &Fields<'_>, layers: u64) -> Result<u64, ModelError> {
    Ok(layers_of_kind(f, layers, "sliding_attention")?.unwrap_or(layers.div_ceil(2)))
}

/// How many of the `layers` entries of `layer_types` are `kind`, every other entry
/// `full_attention`; `None` where the config has no `layer_types`.
fn layers_of_kind(f: &Fields<'_>, layers: u64, kind: &str) -> Result<Option<u64>, ModelError> {
    let Some(types) = f.get("layer_types") else {
        return Ok(None);
    };
    let types = types
        .as_array()
        .ok_or_else(|| ModelError::invalid("layer_types", "expected a list of attention kinds"))?;
    if types.len() as u64 != layers {
        let problem = format!(
            "{} entries for {layers} layers (num_hidden_layers)",
            types.len()
        );
        return Err(ModelError::invalid("layer_types", problem));
    }
    let mut counted = 0;
    for entry in types {
        match entry.as_str() {
            Some(k) if k == kind => counted += 1,
            Some("full_attention") => {}
            _ => {
                let problem = format!(
                    "expected \"{kind}\" or \"full_attention\", got {}",
                    entry.to_string().chars().take(64).collect::<String>()
                );
                return Err(ModelError::invalid("layer_types", problem));
            }
        }
    }
    Ok(Some(counted))
}
