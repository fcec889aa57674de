//! Transformer architecture from a Hugging Face `config.json`.
//!
//! Fields are read one by one from the parsed JSON so that every error names the field at
//! fault, and every size is bounded so that no input can overflow or exhaust anything
//! downstream. Nothing here panics on any input.

use serde_json::{Map, Value};

use crate::error::ModelError;
use crate::format::Format;

/// `model_type` values understood.
pub const SUPPORTED_FAMILIES: [&str; 12] = [
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
        }
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
    /// Mixture of experts, if sparse.
    pub moe: Option<Moe>,
    /// Multi-head latent attention, if used.
    pub mla: Option<Mla>,
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
}

/// Upper bounds that keep every product finite and every allocation small.
const MAX_DIM: u64 = 1 << 20;
const MAX_LAYERS: u64 = 4096;
const MAX_VOCAB: u64 = 1 << 24;
const MAX_EXPERTS: u64 = 1 << 16;
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
        if map.get("model_type").and_then(Value::as_str) == Some("kimi_k25") {
            let text = map
                .get("text_config")
                .ok_or_else(|| ModelError::MissingField("text_config".into()))?;
            if text.get("model_type").and_then(Value::as_str) == Some("kimi_k25") {
                return Err(ModelError::invalid(
                    "text_config.model_type",
                    "a language model of its own kind, kimi_k25, nests without end",
                ));
            }
            let mut config = ModelConfig::from_value(text)?;
            if let Some(name) = map.get("_name_or_path").and_then(Value::as_str)
                && !name.is_empty()
            {
                config.name = name.chars().take(128).collect();
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
        let intermediate = f.int("intermediate_size", 1, MAX_DIM)?;
        let tie_embeddings = f.flag("tie_word_embeddings")?.unwrap_or(false);
        let qkv_bias = f.flag("attention_bias")?.unwrap_or(family == Family::Qwen2);

        let moe = match family {
            Family::Mixtral => {
                let experts = f.int("num_local_experts", 1, MAX_EXPERTS)?;
                let top_k = f.int("num_experts_per_tok", 1, experts)?;
                Some(Moe::routed(experts, top_k, intermediate))
            }
            Family::Qwen3Moe => {
                // `decoder_sparse_step` k puts the experts in every k-th layer and
                // `mlp_only_layers` lists dense ones; the published checkpoints set 1 and
                // none, the only layout modelled.
                if let Some(step) = f.optional_int("decoder_sparse_step", 1, MAX_LAYERS)?
                    && step != 1
                {
                    let problem =
                        format!("only 1 (experts in every layer) is modelled, got {step}");
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
                Some(Moe::routed(experts, top_k, width))
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
            Family::Qwen2 | Family::Qwen3 | Family::Qwen3Moe => {
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
            Family::Qwen3 | Family::Qwen3Moe => true,
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
        let rotary_dim = f
            .optional_int("rotary_dim", 1, head_dim)?
            .unwrap_or(head_dim);
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
            moe,
            mla,
            sliding_window,
            window_layers,
            checkpoint_experts,
        })
    }
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
    let Some(types) = f.get("layer_types") else {
        return Ok(layers.div_ceil(2));
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
    let mut windowed = 0;
    for kind in types {
        match kind.as_str() {
            Some("sliding_attention") => windowed += 1,
            Some("full_attention") => {}
            _ => {
                let problem = format!(
                    "expected \"sliding_attention\" or \"full_attention\", got {}",
                    kind.to_string().chars().take(64).collect::<String>()
                );
                return Err(ModelError::invalid("layer_types", problem));
            }
        }
    }
    Ok(windowed)
}
