//! Tests for whole-model analysis: published parameter counts, KV cache, MoE and MLA.

use super::*;
use crate::hardware::registry;
use crate::presets;

fn scenario(phase: Phase, batch: u64, seq: u64, weights: Format, kv: Format) -> Scenario {
    Scenario {
        phase,
        batch,
        seq,
        precision: Precision {
            activations: Format::Bf16,
            weights,
            kv,
            output: Format::Bf16,
        },
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: None,
    }
}

fn run(preset: &str, hw: &str, s: &Scenario) -> ModelAnalysis {
    analyze(
        &presets::get(preset).unwrap(),
        &registry::get(hw).unwrap(),
        s,
        &Efficiency::IDEAL,
    )
    .unwrap()
}

#[track_caller]
fn check_params(preset: &str, total_b: f64, active_b: f64, tolerance: f64) {
    let p = params::count(&presets::get(preset).unwrap());
    let (total, active) = (p.total / 1e9, p.active / 1e9);
    assert!(
        (total / total_b - 1.0).abs() < tolerance,
        "{preset}: {total:.3} B total, published {total_b}"
    );
    assert!(
        (active / active_b - 1.0).abs() < tolerance,
        "{preset}: {active:.3} B active, published {active_b}"
    );
}

#[test]
fn parameter_counts_match_the_published_ones() {
    // The models' Hugging Face model cards: within 0.5 % of the published rounding.
    check_params("llama-3-8b", 8.03, 8.03, 0.005);
    check_params("llama-3-70b", 70.6, 70.6, 0.005);
    check_params("llama-2-70b", 69.0, 69.0, 0.005);
    check_params("mixtral-8x7b", 46.7, 12.9, 0.005);
    check_params("qwen2.5-7b", 7.61, 7.61, 0.005);
    check_params("llama-3.1-8b", 8.03, 8.03, 0.005);
    check_params("llama-3.1-70b", 70.6, 70.6, 0.005);
    check_params("qwen3-32b", 32.8, 32.8, 0.005);
    // DeepSeek-V3: 671 B; "37 B activated" is a round figure: we count 37.5 B.
    check_params("deepseek-v3", 671.0, 37.0, 0.02);
    // Qwen3's MoE cards round the active count to two figures: we count 30.53 B total and
    // 3.353 B active, 235.09 B and 22.19 B.
    check_params("qwen3-30b-a3b", 30.5, 3.3, 0.02);
    check_params("qwen3-235b-a22b", 235.0, 22.0, 0.01);
    // Kimi K2's card gives "1T" and "32B": we count 1,026 B and 32.9 B (DeepSeek-V3's
    // layers with 384 routed experts and 64 heads).
    check_params("kimi-k2", 1000.0, 32.0, 0.03);
    check_params("kimi-k2.5", 1000.0, 32.0, 0.03);
    // MiniMax-M2.5: we count 228.69 B, 0.53 % under; the checkpoint's three
    // multi-token-prediction modules (`num_mtp_modules`), whose layout the config does not
    // give and which the engines do not run here, are not counted. Its 9.8 B active leave
    // out the embedding and the LM head (two of 200,064 x 3,072).
    let m = presets::get("minimax-m2.5").unwrap();
    let p = params::count(&m);
    assert!((p.total / 229.9e9 - 1.0).abs() < 0.006, "{p:?}");
    let embeddings = 2.0 * (m.vocab * m.hidden) as f64;
    let active = (p.active - embeddings) / 1e9;
    assert!((active / 9.8 - 1.0).abs() < 0.005, "{active} B active");
    // gpt-oss (OpenAI's model card, table 1): 20.91 / 116.83 B total, 3.61 / 5.13 B active,
    // the active counts with the LM head but not the embedding table. The experts' and the
    // output projection's biases (0.03 % of the whole) are not counted.
    for (preset, total_b, active_b) in
        [("gpt-oss-20b", 20.91, 3.61), ("gpt-oss-120b", 116.83, 5.13)]
    {
        let c = presets::get(preset).unwrap();
        let p = params::count(&c);
        let active = (p.active - (c.vocab * c.hidden) as f64) / 1e9;
        assert!(
            (p.total / 1e9 / total_b - 1.0).abs() < 0.002,
            "{preset}: {p:?}"
        );
        assert!(
            (active / active_b - 1.0).abs() < 0.005,
            "{preset}: {active} B active"
        );
    }
}

#[test]
fn exact_parameter_count_of_llama_3_8b() {
    // 32 x (4 x 4096^2 attention with GQA: 2 x 4096^2 + 2 x 4096 x 1024; 3 x 4096 x 14336
    // MLP; two norms) + 2 x 128256 x 4096 + 4096.
    let per_layer =
        2.0 * 4096f64.powi(2) + 2.0 * 4096.0 * 1024.0 + 3.0 * 4096.0 * 14336.0 + 2.0 * 4096.0;
    let expected = 32.0 * per_layer + 2.0 * 128256.0 * 4096.0 + 4096.0;
    assert_eq!(
        params::count(&presets::get("llama-3-8b").unwrap()).total,
        expected
    );
    assert_eq!(expected, 8_030_261_248.0);
}

#[test]
fn deepseek_kv_cache_holds_the_latent_not_full_heads() {
    let a = run(
        "deepseek-v3",
        "b200",
        &scenario(Phase::Decode, 1, 4096, Format::Fp8E4m3, Format::Bf16),
    );
    assert_eq!(a.kv_bytes_per_token.get(), 61.0 * (512.0 + 64.0) * 2.0);
    assert_eq!(a.kv_cache_bytes.get(), 4096.0 * 61.0 * 576.0 * 2.0);
    let names: Vec<&str> = a.ops.iter().map(|o| o.name()).collect();
    for name in [
        "q_a_proj",
        "kv_a_proj",
        "q_absorb",
        "attention",
        "v_absorb",
        "router",
        "experts.down_proj",
        "shared_expert.up_proj",
        "gate_proj",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    assert!(!names.contains(&"kv_b_proj"));
    let dense = a.ops.iter().find(|o| o.id == OpId::GateProj).unwrap();
    assert_eq!(dense.count, 3.0);
    let routed = a
        .ops
        .iter()
        .find(|o| o.id == OpId::ExpertsGateProj)
        .unwrap();
    assert_eq!(routed.count, 58.0);
    // Batch 1 touches exactly top_k = 8 experts.
    assert!(
        matches!(routed.op, Op::BatchedGemm { batch, m, .. } if (batch - 8.0).abs() < 1e-9 && (m - 1.0).abs() < 1e-9)
    );
    // Prefill uses the expanded form.
    let p = run(
        "deepseek-v3",
        "b200",
        &scenario(Phase::Prefill, 1, 1024, Format::Fp8E4m3, Format::Bf16),
    );
    assert!(p.ops.iter().any(|o| o.id == OpId::KvBProj));
    assert!(!p.ops.iter().any(|o| o.id == OpId::QAbsorb));
}

#[test]
fn distinct_experts_grow_with_the_batch() {
    assert!((expected_distinct_experts(256.0, 8.0, 1.0) - 8.0).abs() < 1e-9);
    assert!(expected_distinct_experts(256.0, 8.0, 4096.0) > 255.99);
    let two = expected_distinct_experts(8.0, 2.0, 2.0);
    assert!((two - 8.0 * (1.0 - 0.75f64.powi(2))).abs() < 1e-12);
}

#[test]
fn llama_decode_is_memory_bound_and_weight_dominated() {
    let s = scenario(Phase::Decode, 1, 4096, Format::Bf16, Format::Bf16);
    let a = run("llama-3-8b", "h100-sxm", &s);
    for o in &a.ops {
        assert_eq!(o.bound(), Bound::Memory, "{}", o.name());
    }
    // Time is bytes over bandwidth, and the bytes are mostly the 16 GB of weights.
    assert!((a.time.get() - a.work.bytes.get() / 3.35e12).abs() / a.time.get() < 1e-9);
    assert!((a.weight_bytes.get() - 2.0 * 8_030_261_248.0).abs() < 1.0);
    let shares: f64 = a.ops.iter().map(|o| o.share).sum();
    assert!((shares - 1.0).abs() < 1e-9);
    assert!((a.tokens_per_s - 1.0 / a.time.get()).abs() < 1e-9);
    // KV per token: 32 layers x 2 x 8 heads x 128 x 2 bytes.
    assert_eq!(a.kv_bytes_per_token.get(), 131_072.0);
    // Crossover: weight bytes read per step (all but the embedding table) over KV per token.
    let expected = (a.weight_bytes.get() - 128256.0 * 4096.0 * 2.0 + 4096.0 * 2.0) / 131_072.0;
    assert!((a.kv_crossover_tokens - expected).abs() < 1e-6);
}

#[test]
fn fewer_weight_bits_make_decode_faster_and_smaller() {
    let mut last = f64::INFINITY;
    for w in [Format::Bf16, Format::Fp8E4m3, Format::NvFp4, Format::Int4] {
        let a = run(
            "llama-3-8b",
            "gb10",
            &scenario(Phase::Decode, 1, 4096, w, Format::Bf16),
        );
        assert!(a.time.get() <= last, "{w}");
        last = a.time.get();
    }
}

#[test]
fn memory_fit_against_capacity() {
    let fp16 = run(
        "llama-3-70b",
        "h100-sxm",
        &scenario(Phase::Decode, 1, 8192, Format::Bf16, Format::Bf16),
    );
    assert!(!fp16.memory.fits);
    let fp4 = run(
        "llama-3-70b",
        "h100-sxm",
        &scenario(Phase::Decode, 1, 8192, Format::NvFp4, Format::Fp8E4m3),
    );
    assert!(fp4.memory.fits);
    assert_eq!(fp4.memory.required, fp4.weight_bytes + fp4.kv_cache_bytes);
}

#[test]
fn prefill_is_compute_bound_in_the_big_gemms() {
    let a = run(
        "llama-3-8b",
        "h100-sxm",
        &scenario(Phase::Prefill, 1, 4096, Format::Bf16, Format::Bf16),
    );
    let q = a.ops.iter().find(|o| o.id == OpId::QProj).unwrap();
    assert_eq!(q.bound(), Bound::Compute);
    assert!((a.tokens_per_s - 4096.0 / a.time.get()).abs() < 1e-6);
    let lm = a.ops.iter().find(|o| o.id == OpId::LmHead).unwrap();
    assert!(matches!(lm.op, Op::Gemm { m, .. } if m == 1.0));
}

#[test]
fn unfused_attention_lists_three_kernels() {
    let mut s = scenario(Phase::Prefill, 1, 2048, Format::Bf16, Format::Bf16);
    s.attention = AttentionKernel::Unfused;
    let a = run("qwen2.5-7b", "a100-sxm", &s);
    let names: Vec<&str> = a.ops.iter().map(|o| o.name()).collect();
    assert!(
        names.contains(&"attn_scores")
            && names.contains(&"attn_softmax")
            && names.contains(&"attn_context")
    );
    assert!(!names.contains(&"attention"));
}

#[test]
fn bad_scenarios_are_errors_naming_the_field() {
    let config = presets::get("llama-3-8b").unwrap();
    let hw = registry::get("h100-sxm").unwrap();
    let cases = [
        (0, 10, "field `batch`: must be at least 1"),
        (1, 0, "field `seq`: must be at least 1"),
        (u64::MAX, 2, "field `seq`: batch x seq"),
        (1 << 30, 1 << 20, "exceeds 1099511627776 tokens"),
    ];
    for (batch, seq, message) in cases {
        let s = scenario(Phase::Decode, batch, seq, Format::Bf16, Format::Bf16);
        let err = analyze(&config, &hw, &s, &Efficiency::IDEAL)
            .unwrap_err()
            .to_string();
        assert!(err.contains(message), "{err}");
    }
}

#[test]
fn quantized_embeddings_shrink_the_weights() {
    let mut s = scenario(Phase::Decode, 1, 1, Format::Int4, Format::Bf16);
    let plain = run("llama-3-8b", "gb10", &s).weight_bytes;
    s.quantize_embeddings = true;
    let quantized = run("llama-3-8b", "gb10", &s).weight_bytes;
    let table = 128256.0 * 4096.0;
    assert!((plain.get() - quantized.get() - 2.0 * table * (2.0 - 0.5)).abs() < 16.0);
}

#[test]
fn each_operator_has_one_id_and_the_id_says_its_block() {
    // DeepSeek-V3 (MLA, MoE with shared experts and dense layers) in both phases.
    for phase in [Phase::Prefill, Phase::Decode] {
        let s = scenario(phase, 4, 512, Format::Fp8E4m3, Format::Bf16);
        let a = run("deepseek-v3", "b200", &s);
        let mut ids: Vec<OpId> = a.ops.iter().map(|o| o.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), a.ops.len(), "an id appears twice");
        for o in &a.ops {
            assert_eq!(o.name(), o.id.name());
            let mlp = ["gate_proj", "up_proj", "down_proj", "silu", "router", "moe"]
                .iter()
                .any(|w| o.name().contains(w));
            assert_eq!(o.id.block() == Block::Mlp, mlp, "{}", o.name());
        }
        assert!(a.ops.iter().any(|o| o.id.block() == Block::Attention));
    }
    assert!(OpId::KProj.shares_input() && !OpId::QProj.shares_input());
}

#[test]
fn what_binds_a_pass_is_read_off_its_operators() {
    // Llama-3-8B decode at batch 1 on H100: every operator reads more bytes than it can
    // compute on, so the whole pass is memory-bound; its heaviest GEMMs (FP16 weights,
    // BF16 activations) meet the BF16 roof.
    let decode = run(
        "llama-3-8b",
        "h100-sxm",
        &scenario(Phase::Decode, 1, 4096, Format::Fp16, Format::Fp16),
    );
    assert_eq!(decode.memory_bound_share(), 1.0);
    let slowest = decode.slowest_op().unwrap();
    assert!(decode.ops.iter().all(|o| o.time <= slowest.time));
    assert_eq!(
        decode.main_ceiling().unwrap().executed_as,
        crate::format::Math::Bf16
    );
    // A long prompt is mostly compute-bound: the share is the memory-bound operators' time
    // over the pass's, by its definition.
    let prefill = run(
        "llama-3-8b",
        "h100-sxm",
        &scenario(Phase::Prefill, 8, 4096, Format::Fp16, Format::Fp16),
    );
    let share = prefill.memory_bound_share();
    let by_hand: f64 = prefill
        .ops
        .iter()
        .filter(|o| o.bound() == crate::roofline::Bound::Memory)
        .map(|o| o.time.get())
        .sum::<f64>()
        / prefill.time.get();
    assert!((share - by_hand).abs() < 1e-12);
    assert!(share < 0.5, "{share}");
}

/// Mistral-7B-v0.1's config.json (Hugging Face mistralai/Mistral-7B-v0.1): a 4096-token
/// sliding window in every layer.
const MISTRAL_7B_V01: &str = r#"{"model_type": "mistral", "hidden_size": 4096,
    "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
    "num_key_value_heads": 8, "vocab_size": 32000, "max_position_embeddings": 32768,
    "sliding_window": 4096, "tie_word_embeddings": false, "rope_theta": 10000.0,
    "_name_or_path": "mistralai/Mistral-7B-v0.1"}"#;

#[test]
fn a_sliding_window_caps_the_cache_and_the_keys_decode_reads() {
    let windowed = ModelConfig::from_json(MISTRAL_7B_V01).unwrap();
    assert_eq!(windowed.sliding_window, Some(4096));
    let full = ModelConfig::from_json(
        &MISTRAL_7B_V01.replace("\"sliding_window\": 4096", "\"sliding_window\": null"),
    )
    .unwrap();
    assert_eq!(full.sliding_window, None);
    let h100 = registry::get("h100-sxm").unwrap();
    let at = |c: &ModelConfig, seq| {
        analyze(
            c,
            &h100,
            &scenario(Phase::Decode, 4, seq, Format::Bf16, Format::Bf16),
            &Efficiency::IDEAL,
        )
        .unwrap()
    };
    // At 32k tokens the windowed cache holds 4096 per sequence: the full model's at 4096.
    let long = at(&windowed, 32768);
    assert_eq!(long.kv_cache_bytes, at(&full, 4096).kv_cache_bytes);
    assert_eq!(
        long.kv_cache_bytes,
        Bytes(4.0 * 4096.0 * 32.0 * 2.0 * 8.0 * 128.0 * 2.0)
    );
    // And decode attention reads those 4096 keys, not 32k.
    let attention = |a: &ModelAnalysis| {
        a.ops
            .iter()
            .find(|o| o.id == OpId::Attention)
            .unwrap()
            .result
            .cost
            .work
    };
    assert_eq!(attention(&long), attention(&at(&full, 4096)));
    assert!(long.time < at(&full, 32768).time);
    // Within the window nothing changes.
    assert_eq!(at(&windowed, 2048).time, at(&full, 2048).time);
}

#[test]
fn qwen_sliding_windows_on_some_layers_are_refused_not_ignored() {
    let text = r#"{"model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864,
        "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2,
        "vocab_size": 151936, "use_sliding_window": true, "sliding_window": 32768,
        "max_window_layers": 21}"#;
    let e = ModelConfig::from_json(text).unwrap_err();
    assert!(e.to_string().contains("use_sliding_window"), "{e}");
    let off = ModelConfig::from_json(&text.replace(
        "\"use_sliding_window\": true",
        "\"use_sliding_window\": false",
    ))
    .unwrap();
    assert_eq!(off.sliding_window, None);
}

#[test]
fn gpt_oss_windows_every_other_layer_and_caches_only_the_window_there() {
    let c = presets::get("gpt-oss-120b").unwrap();
    assert_eq!(
        (c.sliding_window, c.window_layers, c.layers),
        (Some(128), 18, 36)
    );
    let h200 = registry::get("h200").unwrap();
    let at = |seq| {
        analyze(
            &c,
            &h200,
            &scenario(Phase::Decode, 2, seq, Format::Bf16, Format::Bf16),
            &Efficiency::IDEAL,
        )
        .unwrap()
    };
    // 18 full layers hold all 8,192 tokens, 18 windowed ones the last 128: two sequences
    // of 8 KV heads x 64 channels, keys and values, 2 bytes each.
    let per_token_layer = 2.0 * 8.0 * 64.0 * 2.0;
    assert_eq!(
        at(8192).kv_cache_bytes,
        Bytes(2.0 * per_token_layer * (18.0 * 8192.0 + 18.0 * 128.0))
    );
    // Decode attends to every key in the full layers and to 128 in the windowed ones.
    let long = at(8192);
    let attention: Vec<_> = long
        .ops
        .iter()
        .filter(|o| o.id == OpId::Attention)
        .map(|o| (o.count, o.op))
        .collect();
    assert_eq!(attention.len(), 2, "{attention:?}");
    assert!(matches!(attention[0], (18.0, Op::FusedAttention(s)) if s.window.is_none()));
    assert!(matches!(attention[1], (18.0, Op::FusedAttention(s)) if s.window == Some(128.0)));
    // Within the window both kinds of layer cost the same.
    let short = at(64);
    let per_op: Vec<_> = short
        .ops
        .iter()
        .filter(|o| o.id == OpId::Attention)
        .map(|o| o.time)
        .collect();
    assert_eq!(per_op[0], per_op[1]);
}

#[test]
fn gpt_oss_layer_types_are_read_and_checked() {
    let text = presets::PRESETS
        .iter()
        .find(|(k, _, _)| *k == "gpt-oss-20b")
        .unwrap()
        .2;
    let all_full = text.replace("sliding_attention", "full_attention");
    assert_eq!(ModelConfig::from_json(&all_full).unwrap().window_layers, 0);
    // Without layer_types, every other layer from the first, as transformers fills it in.
    let mut value: serde_json::Value = serde_json::from_str(text).unwrap();
    value.as_object_mut().unwrap().remove("layer_types");
    assert_eq!(ModelConfig::from_value(&value).unwrap().window_layers, 12);
    for (bad, names) in [
        (
            text.replace("\"full_attention\"]", "\"chunked_attention\"]"),
            "chunked_attention",
        ),
        (
            text.replace("\"full_attention\", ", ""),
            "13 entries for 24 layers",
        ),
        (
            text.replace("\"sliding_window\": 128", "\"sliding_window\": null"),
            "sliding_window",
        ),
    ] {
        let e = ModelConfig::from_json(&bad).unwrap_err().to_string();
        assert!(
            e.contains("layer_types") || e.contains("sliding_window"),
            "{e}"
        );
        assert!(e.contains(names), "{e}");
    }
}

#[test]
fn gpt_oss_runs_its_checkpoints_formats_experts_apart() {
    let c = presets::get("gpt-oss-120b").unwrap();
    assert_eq!(c.checkpoint_experts, Some(Format::MxFp4));
    let h200 = registry::get("h200").unwrap();
    let bf16 = scenario(Phase::Decode, 64, 2048, Format::Bf16, Format::Bf16);
    let checkpoint = Scenario {
        experts: Some(ExpertFormats {
            weights: Format::MxFp4,
            activations: Format::Bf16,
        }),
        ..bf16
    };
    let a = analyze(&c, &h200, &checkpoint, &Efficiency::IDEAL).unwrap();
    let weights_of = |id: OpId| a.ops.iter().find(|o| o.id == id).unwrap().precision.weights;
    assert_eq!(weights_of(OpId::ExpertsGateProj), Format::MxFp4);
    assert_eq!(weights_of(OpId::ExpertsDownProj), Format::MxFp4);
    assert_eq!(weights_of(OpId::QProj), Format::Bf16);
    assert_eq!(weights_of(OpId::OProj), Format::Bf16);
    // The stored weights: 36 layers x 128 experts x 3 x 2880^2 in MXFP4 (4.25 bits with
    // its scale per 32), every other tensor as with BF16 experts.
    let all_bf16 = analyze(&c, &h200, &bf16, &Efficiency::IDEAL).unwrap();
    let experts = 36.0 * 128.0 * 3.0 * 2880.0 * 2880.0;
    let saved = all_bf16.weight_bytes.get() - a.weight_bytes.get();
    assert!(
        (saved / (experts * (2.0 - 4.25 / 8.0)) - 1.0).abs() < 1e-9,
        "{saved}"
    );
    // A checkpoint that quantises experts it does not have is refused.
    let dense = presets::PRESETS
        .iter()
        .find(|(k, _, _)| *k == "llama-3.1-8b")
        .unwrap()
        .2
        .trim_end()
        .trim_end_matches('}')
        .to_string();
    let e = ModelConfig::from_json(&format!(
        "{dense}, \"quantization_config\": {{\"quant_method\": \"mxfp4\"}}}}"
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("quantization_config.quant_method"), "{e}");
    let e = ModelConfig::from_json(&format!("{dense}, \"quantization_config\": 4}}"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("quantization_config"), "{e}");
    // Other methods say nothing of the experts.
    let other = ModelConfig::from_json(&format!(
        "{dense}, \"quantization_config\": {{\"quant_method\": \"fp8\"}}}}"
    ))
    .unwrap();
    assert_eq!(other.checkpoint_experts, None);
}

#[test]
fn qwen3_5_counts_match_its_model_cards_to_their_precision() {
    // The model cards give whole billions ("397B in total and 17B activated"): each count
    // is within 0.5 % of the card or within the card's rounding (half a billion), whichever
    // is looser. We count the language model: its vision encoder (0.46 B by its
    // `vision_config`) and its multi-token-prediction layer are apart; the active count
    // includes the embedding and the LM head, as Mixtral's published one does.
    for (preset, total_b, active_b) in [
        ("qwen3.5-27b", 27.0, 27.0),
        ("qwen3.5-35b-a3b", 35.0, 3.0),
        ("qwen3.5-122b-a10b", 122.0, 10.0),
        ("qwen3.5-397b-a17b", 397.0, 17.0),
    ] {
        let p = params::count(&presets::get(preset).unwrap());
        for (count, card) in [(p.total / 1e9, total_b), (p.active / 1e9, active_b)] {
            let tolerance = f64::max(0.005 * card, 0.5);
            assert!((count - card).abs() <= tolerance, "{preset}: {p:?}");
        }
    }
}

#[test]
fn a_hybrid_holds_a_constant_state_beside_its_attention_layers_cache() {
    let c = presets::get("qwen3.5-397b-a17b").unwrap();
    let lin = c.linear_attention.clone().unwrap();
    assert_eq!((lin.layers, c.attention_layers()), (45, 15));
    // Per sequence: 45 layers x 64 value heads x 128 x 128 FP32 state, and the
    // convolution's last 3 inputs of 2 x 2048 + 8192 BF16 channels.
    let state = 45.0 * (64.0 * 128.0 * 128.0 * 4.0 + 12288.0 * 3.0 * 2.0);
    assert_eq!(recurrent_state_bytes(&c).get(), state);
    // Only the 15 attention layers cache tokens: 2 KV heads x 256 x 2 (K and V).
    let per_token = 15.0 * 2.0 * 2.0 * 256.0 * 2.0;
    assert_eq!(kv_bytes_per_token(&c, Format::Bf16).get(), per_token);
    for seq in [1, 4096, 131_072] {
        let bytes = kv_cache_bytes(&c, Format::Bf16, seq).get();
        assert_eq!(bytes, state + per_token * seq as f64, "{seq}");
    }
    // A decode step reads and writes each sequence's state once per linear layer, and
    // its delta rule is the recurrent form on the vector units.
    let h200 = registry::get("h200").unwrap();
    let s = scenario(Phase::Decode, 8, 4096, Format::Bf16, Format::Bf16);
    let a = analyze(&c, &h200, &s, &Efficiency::IDEAL).unwrap();
    let rule = a.ops.iter().find(|o| o.id == OpId::DeltaRule).unwrap();
    assert_eq!(rule.count, 45.0);
    let one_layer_state = 8.0 * 64.0 * 128.0 * 128.0 * 4.0;
    let io = 8.0 * (2.0 * 2048.0 + 8192.0) * 2.0 + 8.0 * 2.0 * 64.0 * 4.0 + 8.0 * 8192.0 * 2.0;
    assert_eq!(
        rule.result.cost.work.bytes.get(),
        2.0 * one_layer_state + io
    );
    assert_eq!(
        rule.result.cost.work.flops.0,
        7.0 * 8.0 * 64.0 * 128.0 * 128.0
    );
    assert_eq!(
        a.ops.iter().find(|o| o.id == OpId::QProj).unwrap().count,
        15.0
    );
    // A prompt runs the chunked form on tensor cores, chunks of 64 tokens: per token and
    // value head 6 dk dv + 64 (6 dk + 4 dv) + 2 x 64^2 / 3 FLOPs, more than decoding's 7 dk dv.
    let p = scenario(Phase::Prefill, 1, 4096, Format::Bf16, Format::Bf16);
    let pre = analyze(&c, &h200, &p, &Efficiency::IDEAL).unwrap();
    let chunked = pre.ops.iter().find(|o| o.id == OpId::DeltaRule).unwrap();
    assert!(chunked.result.cost.math != rule.result.cost.math);
    let per_token = 6.0 * 128.0 * 128.0 + 64.0 * (10.0 * 128.0) + 2.0 * 64.0 * 64.0 / 3.0;
    let flops = chunked.result.cost.work.flops.0;
    assert!(
        (flops / (4096.0 * 64.0 * per_token) - 1.0).abs() < 1e-12,
        "{flops}"
    );
    assert!(per_token > 7.0 * 128.0 * 128.0);
}

#[test]
fn qwen3_5_configs_name_the_field_at_fault() {
    let text = presets::PRESETS
        .iter()
        .find(|(k, _, _)| *k == "qwen3.5-35b-a3b")
        .unwrap()
        .2;
    for (bad, field) in [
        (
            text.replace("\"full_attention\"]", "\"mamba\"]"),
            "layer_types",
        ),
        (
            text.replace("\"linear_num_key_heads\": 16, ", ""),
            "linear_num_key_heads",
        ),
        (
            text.replace(
                "\"linear_num_value_heads\": 32",
                "\"linear_num_value_heads\": 24",
            ),
            "linear_num_value_heads",
        ),
        (
            text.replace(
                "\"partial_rotary_factor\": 0.25",
                "\"partial_rotary_factor\": 0.3",
            ),
            "partial_rotary_factor",
        ),
        (text.replace("\"float32\"", "\"int3\""), "mamba_ssm_dtype"),
        (
            text.replace(
                "\"shared_expert_intermediate_size\": 512",
                "\"shared_expert_intermediate_size\": 700",
            ),
            "shared_expert_intermediate_size",
        ),
        (
            text.replace(
                "\"model_type\": \"qwen3_5_moe_text\"",
                "\"model_type\": \"qwen3_5_moe\"",
            ),
            "text_config.model_type",
        ),
    ] {
        assert_ne!(bad, text, "{field}: the replacement must change the config");
        let e = ModelConfig::from_json(&bad).unwrap_err().to_string();
        assert!(e.contains(field), "{e}");
    }
    // Without layer_types, every fourth layer is attention (`full_attention_interval`).
    let mut value: serde_json::Value = serde_json::from_str(text).unwrap();
    value["text_config"]
        .as_object_mut()
        .unwrap()
        .remove("layer_types");
    let c = ModelConfig::from_value(&value).unwrap();
    assert_eq!((c.attention_layers(), c.rotary_dim), (10, 64));
    assert!(c.attn_output_gate && c.qk_norm);
    assert_eq!(c.moe.unwrap().shared_experts, 1);
}
