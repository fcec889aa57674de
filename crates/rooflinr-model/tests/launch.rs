//! `deploy::launch`: each engine's command for a layout, its flags checked against every flag
//! the named release accepts (`testdata/engine-flags/`, read off each release's parser).

use std::collections::HashSet;

use rooflinr_model::config::ModelConfig;
use rooflinr_model::deploy::launch::{Launch, LaunchSpec, launch, release};
use rooflinr_model::deploy::{AdpBalance, Layout, Scheduler, Speculation, Workload};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::registry;
use rooflinr_model::kernel_time::Framework;
use rooflinr_model::presets;

/// The names a file of `testdata/engine-flags/` lists (its first line says where from).
fn names(file: &str, text: &str) -> HashSet<String> {
    let names: HashSet<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect();
    assert!(names.len() > 5, "{file} lists only {} names", names.len());
    names
}

fn accepted(engine: Framework) -> HashSet<String> {
    match engine {
        Framework::Vllm => names(
            "vllm-0.19.0.txt",
            include_str!("../testdata/engine-flags/vllm-0.19.0.txt"),
        ),
        Framework::Sglang => names(
            "sglang-0.5.9.txt",
            include_str!("../testdata/engine-flags/sglang-0.5.9.txt"),
        ),
        Framework::TensorRtLlm => names(
            "trtllm-serve-00209af.txt",
            include_str!("../testdata/engine-flags/trtllm-serve-00209af.txt"),
        ),
    }
}

/// The dotted paths of a YAML file's leaf keys, as `deploy::launch` writes it (two spaces a
/// level, one key a line).
fn yaml_paths(text: &str) -> Vec<String> {
    let mut parents: Vec<String> = Vec::new();
    let mut paths = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let depth = (line.len() - line.trim_start().len()) / 2;
        let (key, value) = line.trim().split_once(':').expect("a key: value line");
        parents.truncate(depth);
        if value.trim().is_empty() {
            parents.push(key.to_string());
        } else {
            let mut path = parents.join(".");
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(key);
            paths.push(path);
        }
    }
    paths
}

/// Asserts every flag `l` writes is one its release accepts, and every YAML path one the
/// LLM API reads.
fn assert_known(l: &Launch) {
    let known = accepted(l.engine);
    assert!(!l.flags.is_empty());
    for f in &l.flags {
        // vLLM's boolean options are BooleanOptionalAction: `--no-x` is `--x` turned off.
        let name = match (l.engine, f.name.strip_prefix("--no-")) {
            (Framework::Vllm, Some(rest)) => format!("--{rest}"),
            _ => f.name.to_string(),
        };
        assert!(
            known.contains(&name),
            "{} does not accept {} (in {})",
            l.release,
            f.name,
            l.shell()
        );
    }
    if let Some(file) = &l.config_file {
        assert_eq!(l.engine, Framework::TensorRtLlm);
        let keys = names(
            "trtllm-llm-api-keys.txt",
            include_str!("../testdata/engine-flags/trtllm-llm-api-keys.txt"),
        );
        let paths = yaml_paths(&file.text);
        assert!(!paths.is_empty());
        for p in paths {
            assert!(keys.contains(&p), "the LLM API has no option {p}");
        }
        assert!(
            l.shell()
                .contains(&format!("--extra_llm_api_options {}", file.name))
        );
    }
}

fn value<'a>(l: &'a Launch, name: &str) -> Option<&'a str> {
    l.flags
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.value.as_deref().unwrap_or(""))
}

fn spec<'a>(model: &'a ModelConfig, layout: Layout, scheduler: Scheduler) -> LaunchSpec<'a> {
    LaunchSpec {
        model,
        layout,
        scheduler,
        workload: Workload {
            prompt: 1024,
            output: 256,
            concurrency: 64,
        },
        weights: Format::Bf16,
        expert_weights: None,
        kv: Format::Bf16,
        speculation: None,
    }
}

fn layout(spec: &str) -> Layout {
    spec.parse().expect("a layout")
}

fn scheduler(engine: Framework) -> Scheduler {
    Scheduler::default_for(engine, &registry::get("h200").expect("an H200"))
}

#[test]
fn every_flag_written_is_one_the_named_release_accepts() {
    let llama = presets::get("llama-3.1-70b").unwrap();
    let qwen = presets::get("qwen3-32b").unwrap();
    let deepseek = presets::get("deepseek-v3").unwrap();
    let qwen_moe = presets::get("qwen3-235b-a22b").unwrap();
    let mut written = 0;
    for engine in Framework::ALL {
        let s = scheduler(engine);
        let mut cases = vec![
            spec(&llama, layout("tp4"), s),
            spec(&qwen, layout("tp4-dp2"), s),
            spec(&qwen, layout("tp2-pp2"), s),
            spec(&qwen_moe, layout("tp8-ep"), s),
            LaunchSpec {
                kv: Format::Fp8E4m3,
                weights: Format::Fp8E4m3,
                speculation: Some(Speculation::DEEPSEEK_V3_MTP),
                ..spec(&deepseek, layout("tp1-dp8-ep"), s)
            },
            LaunchSpec {
                scheduler: Scheduler {
                    chunked_prefill: !s.chunked_prefill,
                    ..s
                },
                ..spec(&llama, layout("tp8"), s)
            },
        ];
        if engine != Framework::Vllm {
            cases.push(spec(&qwen_moe, layout("tp8-ep2"), s));
        }
        for case in &cases {
            let l = launch(engine, case).unwrap_or_else(|e| panic!("{}: {e}", engine.name()));
            assert_eq!(l.release, release(engine));
            assert_known(&l);
            written += 1;
        }
    }
    assert_eq!(written, 6 * 3 + 2);
}

#[test]
fn each_engine_names_the_layout_its_own_way() {
    let deepseek = presets::get("deepseek-v3").unwrap();
    let dep = spec(
        &deepseek,
        layout("tp1-dp8-ep"),
        scheduler(Framework::Sglang),
    );
    // SGLang counts the stage's GPUs in --tp-size and turns on DP attention.
    let l = launch(Framework::Sglang, &dep).unwrap();
    assert_eq!(value(&l, "--tp-size"), Some("8"));
    assert_eq!(value(&l, "--dp-size"), Some("8"));
    assert_eq!(value(&l, "--enable-dp-attention"), Some(""));
    assert_eq!(value(&l, "--ep-size"), Some("8"));
    // vLLM: TP per replica, DP replicas, whole experts over all.
    let l = launch(
        Framework::Vllm,
        &LaunchSpec {
            scheduler: scheduler(Framework::Vllm),
            ..dep
        },
    )
    .unwrap();
    assert_eq!(value(&l, "--tensor-parallel-size"), Some("1"));
    assert_eq!(value(&l, "--data-parallel-size"), Some("8"));
    assert_eq!(value(&l, "--enable-expert-parallel"), Some(""));
    // TensorRT-LLM: tp_size of the stage, attention DP in the YAML.
    let l = launch(
        Framework::TensorRtLlm,
        &LaunchSpec {
            scheduler: scheduler(Framework::TensorRtLlm),
            ..dep
        },
    )
    .unwrap();
    assert_eq!(value(&l, "--tp_size"), Some("8"));
    assert_eq!(value(&l, "--ep_size"), Some("8"));
    let yaml = &l.config_file.as_ref().expect("a YAML file").text;
    assert!(yaml.contains("enable_attention_dp: true"), "{yaml}");
}

#[test]
fn what_a_release_cannot_express_is_refused_by_name() {
    let qwen_moe = presets::get("qwen3-235b-a22b").unwrap();
    let mixed = spec(&qwen_moe, layout("tp8-ep2"), scheduler(Framework::Vllm));
    let e = launch(Framework::Vllm, &mixed).unwrap_err().to_string();
    assert!(
        e.contains("layout") && e.contains("tp8-ep2") && e.contains("MoE TP x EP"),
        "{e}"
    );
    // TensorRT-LLM's attention DP has attention TP 1.
    let e = launch(
        Framework::TensorRtLlm,
        &spec(
            &qwen_moe,
            layout("tp2-dp4-ep"),
            scheduler(Framework::TensorRtLlm),
        ),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("TP 2 x DP 4"), "{e}");
    // An SGLang-only knob on another engine.
    let e = launch(
        Framework::Vllm,
        &spec(
            &qwen_moe,
            layout("tp8"),
            Scheduler {
                recv_interval: 10,
                ..scheduler(Framework::Vllm)
            },
        ),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("--scheduler-recv-interval"), "{e}");
    // A KV cache format the engine does not store.
    let e = launch(
        Framework::Vllm,
        &LaunchSpec {
            kv: Format::NvFp4,
            ..spec(&qwen_moe, layout("tp8"), scheduler(Framework::Vllm))
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("nvfp4"), "{e}");
}

#[test]
fn a_dense_model_over_replicas_on_tensorrt_llm_is_one_command_per_replica() {
    let qwen = presets::get("qwen3-32b").unwrap();
    let l = launch(
        Framework::TensorRtLlm,
        &spec(&qwen, layout("tp4-dp2"), scheduler(Framework::TensorRtLlm)),
    )
    .unwrap();
    assert_eq!(l.replicas, 2);
    assert_eq!(value(&l, "--tp_size"), Some("4"));
    assert!(l.notes.iter().any(|n| n.contains("start 2 of these")));
}

#[test]
fn without_chunked_prefill_the_budget_holds_a_whole_prompt_beside_the_batch() {
    let llama = presets::get("llama-3.1-8b").unwrap();
    let s = scheduler(Framework::TensorRtLlm);
    assert!(!s.chunked_prefill);
    let case = LaunchSpec {
        workload: Workload {
            prompt: 8192,
            output: 1024,
            concurrency: 256,
        },
        ..spec(&llama, layout("tp1"), s)
    };
    let l = launch(Framework::TensorRtLlm, &case).unwrap();
    // 256 running + 8,192 prompt + 64, rounded up to 64 (InferenceX's recipes).
    assert_eq!(value(&l, "--max_num_tokens"), Some("8512"));
    assert_eq!(value(&l, "--enable_chunked_prefill"), None);
    // Over attention DP each replica runs its share: 256 / 8 = 32 beside the prompt.
    let deepseek = presets::get("deepseek-v3").unwrap();
    let dep = launch(
        Framework::TensorRtLlm,
        &LaunchSpec {
            model: &deepseek,
            layout: layout("tp1-dp8-ep"),
            ..case
        },
    )
    .unwrap();
    assert_eq!(value(&dep, "--max_num_tokens"), Some("8320"));
}

#[test]
fn mtp_and_the_attention_dp_balance_are_written_where_each_engine_reads_them() {
    let deepseek = presets::get("deepseek-v3").unwrap();
    assert_eq!(deepseek.mtp_layers, 1);
    let mtp = LaunchSpec {
        speculation: Some(Speculation {
            draft_tokens: 3,
            acceptance: 0.7,
        }),
        ..spec(&deepseek, layout("tp8"), scheduler(Framework::Vllm))
    };
    let l = launch(Framework::Vllm, &mtp).unwrap();
    assert_eq!(
        value(&l, "--speculative-config"),
        Some(r#"{"method":"mtp","num_speculative_tokens":3}"#)
    );
    // The JSON is quoted for the shell.
    assert!(
        l.shell()
            .contains(r#"--speculative-config '{"method":"mtp","num_speculative_tokens":3}'"#),
        "{}",
        l.shell()
    );
    let l = launch(Framework::Sglang, &mtp).unwrap();
    assert_eq!(value(&l, "--speculative-algorithm"), Some("NEXTN"));
    assert_eq!(value(&l, "--speculative-num-draft-tokens"), Some("4"));
    let l = launch(
        Framework::TensorRtLlm,
        &LaunchSpec {
            layout: layout("tp1-dp8-ep"),
            scheduler: Scheduler {
                adp_balance: Some(AdpBalance {
                    timeout_steps: 60,
                    batching_wait_steps: 0,
                }),
                ..scheduler(Framework::TensorRtLlm)
            },
            ..mtp
        },
    )
    .unwrap();
    let yaml = &l.config_file.as_ref().unwrap().text;
    assert!(
        yaml.contains("decoding_type: MTP\n  num_nextn_predict_layers: 3"),
        "{yaml}"
    );
    assert!(yaml.contains("timeout_iters: 60"), "{yaml}");
    assert!(
        l.shell()
            .starts_with("cat > extra-llm-api-options.yaml <<'EOF'\n")
    );
    // A model without MTP modules drafts with a separate model, named as a placeholder.
    let llama = presets::get("llama-3.1-8b").unwrap();
    let draft = LaunchSpec {
        speculation: Some(Speculation {
            draft_tokens: 2,
            acceptance: 0.6,
        }),
        ..spec(&llama, layout("tp1"), scheduler(Framework::Vllm))
    };
    let l = launch(Framework::Vllm, &draft).unwrap();
    assert!(
        value(&l, "--speculative-config")
            .unwrap()
            .contains("<draft-model>")
    );
    assert!(launch(Framework::TensorRtLlm, &draft).is_err());
}

#[test]
fn a_config_without_a_hub_id_gets_a_path_to_fill_in() {
    let mut llama = presets::get("llama-3.1-8b").unwrap();
    llama.name = "llama".into();
    let l = launch(
        Framework::Vllm,
        &spec(&llama, layout("tp1"), scheduler(Framework::Vllm)),
    )
    .unwrap();
    assert_eq!(l.model, "/path/to/llama");
    assert!(l.shell().starts_with("vllm serve /path/to/llama \\\n"));
    assert!(l.notes.iter().any(|n| n.contains("_name_or_path")));
}
