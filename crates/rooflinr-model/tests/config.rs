//! config.json parsing: every family, and errors that name the field.

use rooflinr_model::config::{Family, ModelConfig};
use rooflinr_model::presets;

#[track_caller]
fn check_error(json: &str, expected: &str) {
    let message = ModelConfig::from_json(json).unwrap_err().to_string();
    assert!(
        message.contains(expected),
        "{message:?} should contain {expected:?}"
    );
}

#[test]
fn every_preset_parses_to_its_family() {
    let table = [
        ("llama-3-8b", Family::Llama),
        ("llama-3-70b", Family::Llama),
        ("llama-2-70b", Family::Llama),
        ("mixtral-8x7b", Family::Mixtral),
        ("qwen2.5-7b", Family::Qwen2),
        ("deepseek-v3", Family::DeepSeek),
        ("deepseek-r1", Family::DeepSeek),
    ];
    for (key, family) in table {
        assert_eq!(presets::get(key).unwrap().family, family, "{key}");
    }
    let q = presets::get("qwen2.5-7b").unwrap();
    assert!(q.qkv_bias && !q.qk_norm);
    let d = presets::get("deepseek-v3").unwrap();
    let moe = d.moe.unwrap();
    assert_eq!(
        (moe.experts, moe.top_k, moe.shared_experts, moe.dense_layers),
        (256, 8, 1, 3)
    );
    assert_eq!(d.mla.unwrap().kv_lora_rank, 512);
    assert_eq!(
        presets::get("deepseek-r1").unwrap().name,
        "deepseek-ai/DeepSeek-R1"
    );
    assert!(
        presets::get("gpt-5")
            .unwrap_err()
            .to_string()
            .contains("unknown model preset `gpt-5`")
    );
}

#[test]
fn qwen3_and_mistral_configs() {
    let qwen3 = r#"{"model_type": "qwen3", "hidden_size": 4096, "num_hidden_layers": 36, "num_attention_heads": 32,
        "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 12288, "vocab_size": 151936, "tie_word_embeddings": false}"#;
    let c = ModelConfig::from_json(qwen3).unwrap();
    assert!(c.qk_norm && !c.qkv_bias);
    assert_eq!(c.head_dim, 128);
    let mistral = r#"{"model_type": "mistral", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
        "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 32768, "sliding_window": null}"#;
    let c = ModelConfig::from_json(mistral).unwrap();
    assert_eq!(
        (c.family, c.head_dim, c.kv_heads),
        (Family::Mistral, 128, 8)
    );
}

#[test]
fn errors_name_the_field() {
    let base = r#""hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "intermediate_size": 14336, "vocab_size": 32000"#;
    check_error(&format!("{{{base}}}"), "missing field `model_type`");
    check_error(
        &format!(r#"{{"model_type": "gpt2", {base}}}"#),
        "unsupported model family `gpt2` (supported: llama, mistral",
    );
    check_error(
        &format!(r#"{{"model_type": 7, {base}}}"#),
        "field `model_type`: expected a string, got 7",
    );
    check_error(
        r#"{"model_type": "llama", "hidden_size": 4096}"#,
        "missing field `num_hidden_layers`",
    );
    check_error(
        &format!(r#"{{"model_type": "llama", {base}, "num_key_value_heads": 5}}"#),
        "field `num_key_value_heads`: 5 does not divide num_attention_heads (32)",
    );
    check_error(
        r#"{"model_type": "llama", "hidden_size": "big"}"#,
        "field `hidden_size`: expected a whole number, got \"big\"",
    );
    check_error(
        r#"{"model_type": "llama", "hidden_size": 0}"#,
        "field `hidden_size`: 0 is outside 1..=1048576",
    );
    check_error(
        r#"{"model_type": "llama", "hidden_size": 1e300}"#,
        "field `hidden_size`: expected a whole number",
    );
    check_error(
        r#"{"model_type": "llama", "hidden_size": 4096.5}"#,
        "field `hidden_size`: expected a whole number",
    );
    check_error(
        &format!(r#"{{"model_type": "llama", {base}, "tie_word_embeddings": "yes"}}"#),
        "field `tie_word_embeddings`: expected true or false",
    );
    check_error(
        &format!(r#"{{"model_type": "mixtral", {base}}}"#),
        "missing field `num_local_experts`",
    );
    check_error(
        &format!(
            r#"{{"model_type": "mixtral", {base}, "num_local_experts": 8, "num_experts_per_tok": 9}}"#
        ),
        "field `num_experts_per_tok`: 9 is outside 1..=8",
    );
    check_error(
        &format!(r#"{{"model_type": "deepseek_v3", {base}}}"#),
        "missing field `kv_lora_rank`",
    );
    check_error("[1, 2]", "expected a JSON object at the top level");
    check_error(
        "{\"model_type\": ",
        "cannot parse config.json: EOF while parsing",
    );
    check_error(
        &format!(r#"{{"model_type": "llama", {base}, "head_dim": null, "hidden_size": 4097}}"#),
        "field `head_dim`: absent, and hidden_size (4097)",
    );
}

#[test]
fn qwen3_moe_and_kimi_k2_read_their_published_configs() {
    let q = presets::get("qwen3-235b-a22b").unwrap();
    assert_eq!(q.family, Family::Qwen3Moe);
    assert!(q.qk_norm && !q.qkv_bias);
    let moe = q.moe.clone().unwrap();
    assert_eq!(
        (
            moe.experts,
            moe.top_k,
            moe.expert_intermediate,
            moe.shared_experts,
            moe.dense_layers
        ),
        (128, 8, 1536, 0, 0)
    );
    assert_eq!(
        (q.heads, q.kv_heads, q.head_dim, q.layers),
        (64, 4, 128, 94)
    );

    let k2 = presets::get("kimi-k2").unwrap();
    assert_eq!(k2.family, Family::DeepSeek);
    let moe = k2.moe.clone().unwrap();
    assert_eq!(
        (moe.experts, moe.shared_experts, moe.dense_layers),
        (384, 1, 1)
    );
    assert_eq!(k2.heads, 64);
    // Kimi-K2.5's language model is Kimi K2's.
    let k25 = presets::get("kimi-k2.5").unwrap();
    assert_eq!(k25.name, "moonshotai/Kimi-K2.5");
    assert_eq!(
        ModelConfig {
            name: k2.name.clone(),
            ..k25
        },
        k2
    );
}

#[test]
fn new_families_name_what_they_do_not_model() {
    let qwen = presets::PRESETS
        .iter()
        .find(|(k, _, _)| *k == "qwen3-30b-a3b")
        .unwrap()
        .2;
    check_error(
        &qwen.replace("\"decoder_sparse_step\": 1", "\"decoder_sparse_step\": 2"),
        "field `decoder_sparse_step`",
    );
    check_error(
        &qwen.replace("\"mlp_only_layers\": []", "\"mlp_only_layers\": [0, 1]"),
        "field `mlp_only_layers`",
    );
    check_error(
        &qwen.replace("\"num_experts\": 128,", ""),
        "missing field `num_experts`",
    );
    check_error(
        r#"{"model_type": "kimi_k25"}"#,
        "missing field `text_config`",
    );
    check_error(
        r#"{"model_type": "kimi_k25", "text_config": {"model_type": "kimi_k25"}}"#,
        "field `text_config.model_type`",
    );
    check_error(
        r#"{"model_type": "kimi_k25", "text_config": [1]}"#,
        "expected a JSON object",
    );
}

#[test]
fn minimax_m2_reads_its_published_config() {
    let m = presets::get("minimax-m2.5").unwrap();
    assert_eq!(m.family, Family::MiniMaxM2);
    assert!(m.qk_norm);
    assert_eq!((m.rotary_dim, m.head_dim), (64, 128));
    let moe = m.moe.clone().unwrap();
    assert_eq!(
        (
            moe.experts,
            moe.top_k,
            moe.expert_intermediate,
            moe.shared_experts
        ),
        (256, 8, 1536, 0)
    );
    let text = presets::PRESETS
        .iter()
        .find(|(k, _, _)| *k == "minimax-m2.5")
        .unwrap()
        .2;
    check_error(
        &text.replace(
            "\"shared_intermediate_size\": 0",
            "\"shared_intermediate_size\": 512",
        ),
        "field `shared_intermediate_size`",
    );
    check_error(
        &text.replace("\"per_layer\"", "\"per_group\""),
        "field `qk_norm_type`",
    );
    check_error(
        &text.replace("\"rotary_dim\": 64", "\"rotary_dim\": 256"),
        "field `rotary_dim`",
    );
}
