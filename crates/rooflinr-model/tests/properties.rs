//! Property tests: the roofline's monotonicity, format bits, and parsers that never panic.

use proptest::prelude::*;
use rooflinr_model::analysis::{self, AttentionKernel, Phase, Scenario};
use rooflinr_model::config::ModelConfig;
use rooflinr_model::format::Format;
use rooflinr_model::hardware::{custom, registry};
use rooflinr_model::ops::{Op, Precision};
use rooflinr_model::roofline::{Bound, Efficiency, Roof, Work};
use rooflinr_model::units::{Bytes, BytesPerSecond, Flops, FlopsPerSecond};

fn roof() -> impl Strategy<Value = Roof> {
    (1e9..1e13f64, 1e12..1e16f64).prop_map(|(bw, peak)| Roof {
        bandwidth: BytesPerSecond(bw),
        peak: FlopsPerSecond(peak),
    })
}

fn format() -> impl Strategy<Value = Format> {
    prop::sample::select(Format::CATALOGUE.to_vec())
}

fn arbitrary_json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-z_]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 32, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("model_type".to_string()),
                    Just("hidden_size".to_string()),
                    Just("num_hidden_layers".to_string()),
                    Just("num_attention_heads".to_string()),
                    Just("num_key_value_heads".to_string()),
                    Just("intermediate_size".to_string()),
                    Just("vocab_size".to_string()),
                    Just("n_routed_experts".to_string()),
                    Just("kv_lora_rank".to_string()),
                    "[a-z_]{1,10}",
                ],
                inner,
                0..10
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A config.json of a supported (or, rarely, unknown) family: sizes mostly valid so that
/// the analysis runs, sometimes zero or huge so that the range checks do.
fn near_valid_config() -> impl Strategy<Value = serde_json::Value> {
    let dim =
        prop_oneof![12 => 1u64..20_000, 1 => 0u64..4, 1 => Just(u64::MAX), 1 => Just(1 << 40)];
    (
        prop::sample::select(vec![
            "llama", "mistral", "qwen2", "qwen3", "qwen3_moe", "mixtral", "minimax_m2", "gpt_oss",
            "deepseek_v3", "gpt2", "qwen3_5_text", "qwen3_5_moe_text",
        ]),
        prop::collection::vec(dim, 16),
        0u64..4,
        0u64..4,
    )
        .prop_map(|(family, d, gqa, windows)| {
            let heads = d[2];
            // Mostly a divisor of the head count (MHA, MQA, GQA by 8), sometimes anything.
            let kv_heads = match gqa {
                0 => heads,
                1 => 1,
                2 if heads % 8 == 0 => heads / 8,
                _ => d[3],
            };
            let experts = 1 + d[6] % 300;
            let layers = 1 + d[1] % 100;
            // gpt-oss's windowed layers (Qwen3.5's linear ones): alternating, all full,
            // absent, or one entry short.
            let other = if family.starts_with("qwen3_5") { "linear_attention" } else { "sliding_attention" };
            let layer_types: Vec<&str> = (0..layers)
                .map(|i| if windows == 1 || i % 2 == 1 { "full_attention" } else { other })
                .take(if windows == 3 { layers as usize - 1 } else { layers as usize })
                .collect();
            let mut config = serde_json::json!({
                "model_type": family, "hidden_size": d[0], "num_hidden_layers": layers,
                "num_attention_heads": heads, "num_key_value_heads": kv_heads, "intermediate_size": d[4],
                "vocab_size": d[5], "num_local_experts": experts, "num_experts_per_tok": 1 + d[7] % experts.min(16),
                "n_routed_experts": experts, "moe_intermediate_size": d[8], "kv_lora_rank": d[9],
                "qk_nope_head_dim": d[10] % 300, "qk_rope_head_dim": d[11] % 300, "v_head_dim": d[12],
                "first_k_dense_replace": d[13] % 4, "q_lora_rank": d[14], "head_dim": 1 + d[15] % 512,
                "num_experts": experts, "sliding_window": 1 + d[15] % 4096,
                "linear_num_key_heads": 1 + d[3] % 32, "linear_num_value_heads": (1 + d[3] % 32) * (1 + gqa),
                "linear_key_head_dim": d[10] % 300, "linear_value_head_dim": d[12] % 300,
                "linear_conv_kernel_dim": 1 + d[13] % 8, "full_attention_interval": 1 + d[7] % 8,
                "shared_expert_intermediate_size": d[8] * (windows % 2), "mamba_ssm_dtype": "float32",
                "attn_output_gate": gqa % 2 == 0, "partial_rotary_factor": 0.25
            });
            if windows != 2 {
                config["layer_types"] = serde_json::json!(layer_types);
            }
            if windows == 0 {
                // Experts stored apart (refused for a model without experts).
                config["quantization_config"] = serde_json::json!({"quant_method": "mxfp4"});
            }
            if family.starts_with("qwen3_5") && gqa == 3 {
                // The published nesting: the language model as the whole model's text_config.
                let outer = family.trim_end_matches("_text");
                return serde_json::json!({"model_type": outer, "text_config": config});
            }
            config
        })
}

proptest! {
    #[test]
    fn time_is_monotonic_in_bytes_and_flops(r in roof(), f in 0.0..1e15f64, b in 1.0..1e12f64, df in 0.0..1e15f64, db in 0.0..1e12f64) {
        let base = r.predict(Work { flops: Flops(f), bytes: Bytes(b) }).time;
        let more_flops = r.predict(Work { flops: Flops(f + df), bytes: Bytes(b) }).time;
        let more_bytes = r.predict(Work { flops: Flops(f), bytes: Bytes(b + db) }).time;
        prop_assert!(more_flops.get() >= base.get());
        prop_assert!(more_bytes.get() >= base.get());
        let p = r.predict(Work { flops: Flops(f), bytes: Bytes(b) });
        prop_assert_eq!(p.time.get(), p.memory_time.get().max(p.compute_time.get()));
        prop_assert!(p.attainable.get() <= r.peak.get() * (1.0 + 1e-12));
    }

    #[test]
    fn fewer_bits_never_slow_a_memory_bound_gemv(a in format(), b in format(), n in 1u64..16384, k in 1u64..16384, key in prop::sample::select(registry::keys())) {
        // Weights-only quantisation at batch 1: the op stays memory-bound on every chip,
        // so the format with fewer bits per element is never slower.
        let hw = registry::get(key).unwrap();
        let op = Op::Gemm { m: 1.0, n: n as f64, k: k as f64, bias: false };
        let time = |w: Format| {
            let p = Precision { activations: Format::Fp16, weights: w, kv: Format::Fp16, output: Format::Fp16 };
            op.predict(&p, &hw, &Efficiency::IDEAL).prediction
        };
        let (pa, pb) = (time(a), time(b));
        prop_assume!(pa.bound == Bound::Memory && pb.bound == Bound::Memory);
        let (ba, bb) = (a.tensor_bytes((n * k) as f64).get(), b.tensor_bytes((n * k) as f64).get());
        if ba < bb {
            prop_assert!(pa.time.get() <= pb.time.get());
        }
    }

    #[test]
    fn tensor_bytes_are_at_least_the_element_bits(f in format(), n in 1u64..10_000_000) {
        let bytes = f.tensor_bytes(n as f64).get();
        prop_assert!(bytes * 8.0 >= n as f64 * f.element_bits() as f64);
        prop_assert!(bytes * 8.0 <= n as f64 * f.bits_per_element() + 64.0 + 32.0 * 2.0);
        prop_assert_eq!(f.name().parse::<Format>().unwrap(), f);
    }

    #[test]
    fn config_parsing_never_panics_on_arbitrary_json(v in arbitrary_json()) {
        let _ = ModelConfig::from_value(&v);
        let _ = ModelConfig::from_json(&v.to_string());
        let _ = custom::from_json(&v.to_string());
    }

    #[test]
    fn config_parsing_never_panics_on_arbitrary_text(s in "\\PC{0,200}", bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = ModelConfig::from_json(&s);
        let _ = ModelConfig::from_json(&String::from_utf8_lossy(&bytes));
        let _ = custom::parse(&s);
        let _ = s.parse::<Format>();
    }

    #[test]
    fn any_config_that_parses_analyses_to_finite_numbers(v in near_valid_config(), batch in 1u64..512, seq in 1u64..200_000, decode in any::<bool>()) {
        if let Ok(config) = ModelConfig::from_value(&v) {
            let hw = registry::get("h100-sxm").unwrap();
            let s = Scenario {
                phase: if decode { Phase::Decode } else { Phase::Prefill },
                batch, seq,
                precision: Precision::uniform(Format::Bf16),
                attention: AttentionKernel::Fused,
                quantize_embeddings: false,
                experts: config.checkpoint_experts.map(|weights| analysis::ExpertFormats {
                    weights,
                    activations: Format::Bf16,
                }),
            };
            let a = analysis::analyze(&config, &hw, &s, &Efficiency::IDEAL).unwrap();
            prop_assert!(a.time.get().is_finite() && a.time.get() > 0.0);
            prop_assert!(a.params.total.is_finite() && a.params.active <= a.params.total);
            for o in &a.ops {
                prop_assert!(o.time.get().is_finite(), "{}", o.name());
            }
        }
    }
}

mod quantisation {
    use proptest::prelude::*;
    use rooflinr_model::quant::quality::{self, read_safetensors};
    use rooflinr_model::quant::{Codec, Overflow, Scalar};

    fn codec() -> impl Strategy<Value = Codec> {
        prop::sample::select(quality::default_codecs())
    }

    proptest! {
        #[test]
        fn codec_names_never_panic(name in "\\PC{0,24}") {
            let _ = name.parse::<Codec>();
        }

        #[test]
        fn safetensors_parsing_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..256), name in "[a-z]{0,4}") {
            let _ = read_safetensors(&bytes, &name);
        }

        #[test]
        fn any_finite_tensor_round_trips_to_finite_values_of_the_same_length(
            codec in codec(),
            cols in 1usize..80,
            rows in 1usize..4,
            seed in prop::collection::vec(-1e4f32..1e4, 1..400),
        ) {
            let values: Vec<f32> = seed.iter().cycle().take(rows * cols).copied().collect();
            let q = codec.quantize(&values, cols).unwrap();
            let back = q.dequantize();
            prop_assert_eq!(back.len(), values.len());
            prop_assert!(back.iter().all(|v| v.is_finite()), "{}: {:?}", codec, back);
            // Symmetric codecs keep signs (or flush to zero).
            let asymmetric = codec.name().contains("-zp");
            if !asymmetric {
                for (x, y) in values.iter().zip(&back) {
                    prop_assert!(x * y >= 0.0, "{}: {} -> {}", codec, x, y);
                }
            }
        }

        #[test]
        fn scalar_rounding_is_monotonic(a in -1e5f32..1e5, b in -1e5f32..1e5) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            for s in [Scalar::Fp8E4m3, Scalar::Fp8E5m2, Scalar::Fp6E3m2, Scalar::Fp6E2m3, Scalar::Fp4E2m1, Scalar::Bf16, Scalar::Fp16] {
                prop_assert!(s.round(lo, Overflow::Saturate) <= s.round(hi, Overflow::Saturate), "{}", s);
            }
        }
    }
}
