//! Built-in model presets: the published `config.json` of each model, trimmed to the fields
//! rooflinr reads (and `architectures`), parsed by the same code as a user's upload.

use crate::config::ModelConfig;
use crate::error::ModelError;

/// (key, published parameter count in billions with its source, config.json text)
pub const PRESETS: [(&str, &str, &str); 20] = [
    (
        "llama-3-8b",
        "8.03 B (model card)",
        include_str!("../presets/llama-3-8b.json"),
    ),
    (
        "llama-3-70b",
        "70.6 B (model card)",
        include_str!("../presets/llama-3-70b.json"),
    ),
    (
        "llama-2-70b",
        "69 B (paper: 70 B class)",
        include_str!("../presets/llama-2-70b.json"),
    ),
    (
        "mixtral-8x7b",
        "46.7 B total, 12.9 B active (Mistral AI)",
        include_str!("../presets/mixtral-8x7b.json"),
    ),
    (
        "qwen2.5-7b",
        "7.61 B (model card)",
        include_str!("../presets/qwen2.5-7b.json"),
    ),
    (
        "deepseek-v3",
        "671 B total, 37 B active (model card; R1 shares it)",
        include_str!("../presets/deepseek-v3.json"),
    ),
    (
        "llama-3.1-8b",
        "8.03 B (model card)",
        include_str!("../presets/llama-3.1-8b.json"),
    ),
    (
        "llama-3.1-70b",
        "70.6 B (model card)",
        include_str!("../presets/llama-3.1-70b.json"),
    ),
    (
        "qwen3-32b",
        "32.8 B (model card)",
        include_str!("../presets/qwen3-32b.json"),
    ),
    (
        "qwen3-30b-a3b",
        "30.5 B total, 3.3 B active (model card)",
        include_str!("../presets/qwen3-30b-a3b.json"),
    ),
    (
        "qwen3-235b-a22b",
        "235 B total, 22 B active (model card)",
        include_str!("../presets/qwen3-235b-a22b.json"),
    ),
    (
        "kimi-k2",
        "1 T total, 32 B active (model card of Kimi-K2-Instruct)",
        include_str!("../presets/kimi-k2.json"),
    ),
    (
        "kimi-k2.5",
        "1 T total, 32 B active (model card; the language model, its vision encoder apart)",
        include_str!("../presets/kimi-k2.5.json"),
    ),
    (
        "minimax-m2.5",
        "229.9 B total, 9.8 B active (MiniMax's report, 2026)",
        include_str!("../presets/minimax-m2.5.json"),
    ),
    (
        "gpt-oss-20b",
        "20.9 B total, 3.6 B active (OpenAI's model card; the active count without the embedding)",
        include_str!("../presets/gpt-oss-20b.json"),
    ),
    (
        "gpt-oss-120b",
        "116.8 B total, 5.1 B active (OpenAI's model card; the active count without the embedding)",
        include_str!("../presets/gpt-oss-120b.json"),
    ),
    (
        "qwen3.5-27b",
        "27 B (model card)",
        include_str!("../presets/qwen3.5-27b.json"),
    ),
    (
        "qwen3.5-35b-a3b",
        "35 B total, 3 B active (model card)",
        include_str!("../presets/qwen3.5-35b-a3b.json"),
    ),
    (
        "qwen3.5-122b-a10b",
        "122 B total, 10 B active (model card)",
        include_str!("../presets/qwen3.5-122b-a10b.json"),
    ),
    (
        "qwen3.5-397b-a17b",
        "397 B total, 17 B active (model card)",
        include_str!("../presets/qwen3.5-397b-a17b.json"),
    ),
];

/// Looks a preset up by key; `deepseek-r1` is the same architecture as `deepseek-v3`.
pub fn get(key: &str) -> Result<ModelConfig, ModelError> {
    let wanted = key.trim().to_ascii_lowercase();
    let wanted = match wanted.as_str() {
        "deepseek-r1" => "deepseek-v3",
        other => other,
    };
    let (_, _, text) = PRESETS
        .iter()
        .find(|(k, _, _)| *k == wanted)
        .ok_or_else(|| ModelError::UnknownPreset(key.trim().to_string()))?;
    let mut config = ModelConfig::from_json(text)?;
    if key.trim().eq_ignore_ascii_case("deepseek-r1") {
        config.name = "deepseek-ai/DeepSeek-R1".into();
    }
    Ok(config)
}

/// Keys of every preset.
pub fn keys() -> impl Iterator<Item = &'static str> {
    PRESETS.iter().map(|(k, _, _)| *k)
}
