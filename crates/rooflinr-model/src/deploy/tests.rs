//! Deployment tests: one GPU equals the single-device analysis, and hand-computed
//! collectives, shards and pipeline figures.

use proptest::prelude::*;

use super::*;
use crate::analysis::{self, AttentionKernel, analyze};
use crate::format::Format;

use crate::hardware::{LinkKind, registry};

use crate::ops::Precision;
use crate::presets;

fn scenario(weights: Format, kv: Format) -> Scenario {
    Scenario {
        phase: Phase::Decode,
        batch: 1,
        seq: 1,
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

fn deploy(
    preset: &str,
    hw: &str,
    s: &Scenario,
    layout: Layout,
    workload: Workload,
    options: &DeployOptions,
) -> Deployment {
    evaluate(
        &presets::get(preset).unwrap(),
        &registry::get(hw).unwrap(),
        s,
        &Efficiency::IDEAL,
        layout,
        workload,
        options,
    )
    .unwrap()
}

/// A layout with whole experts per GPU (`expert`) or experts split by columns.
fn layout(tensor: u32, pipeline: u32, data: u32, expert: bool) -> Layout {
    Layout {
        tensor,
        pipeline,
        data,
        expert: 1,
    }
    .with_whole_experts(expert)
}

#[test]
fn one_gpu_is_the_single_device_analysis_exactly() {
    for (preset, hw, weights) in [
        ("llama-3-8b", "h100-sxm", Format::Bf16),
        ("mixtral-8x7b", "b200", Format::Fp8E4m3),
        ("deepseek-v3", "b200", Format::Fp8E4m3),
        ("qwen2.5-7b", "m4-max", Format::Int4),
        ("qwen3.5-35b-a3b", "h200", Format::Bf16),
    ] {
        let s = scenario(weights, Format::Bf16);
        let w = Workload {
            prompt: 1000,
            output: 200,
            concurrency: 16,
        };
        let d = deploy(preset, hw, &s, Layout::SINGLE, w, &DeployOptions::default());
        let config = presets::get(preset).unwrap();
        let device = registry::get(hw).unwrap();
        let single = |phase, seq| {
            let sc = Scenario {
                phase,
                batch: 16,
                seq,
                ..s.clone()
            };
            analyze(&config, &device, &sc, &Efficiency::IDEAL).unwrap()
        };
        let prefill = single(Phase::Prefill, 1000);
        let decode = single(Phase::Decode, 1100);
        assert_eq!(d.prefill.time, prefill.time, "{preset} prefill");
        assert_eq!(d.decode.time, decode.time, "{preset} decode");
        assert_eq!(d.prefill.ops, prefill.ops, "{preset} prefill operators");
        assert_eq!(d.decode.ops, decode.ops, "{preset} decode operators");
        assert!(d.decode.comms.is_empty() && d.prefill.comms.is_empty());
        assert_eq!((d.prefill.bubble, d.decode.bubble), (0.0, 0.0));
        let at_end = single(Phase::Decode, 1200);
        assert_eq!(d.memory.weights, at_end.weight_bytes, "{preset} weights");
        let kv = d.memory.kv_cache.get() / at_end.kv_cache_bytes.get();
        assert!((kv - 1.0).abs() < 1e-12, "{preset} KV {kv}");
        assert_eq!(d.serving.ttft, prefill.time);
        assert_eq!(d.serving.tpot, decode.time);
    }
}

/// Llama-3-70B decode at batch 64 on TP8: each all-reduce's message is 64 tokens x 8192
/// x 2 bytes = 1,048,576 B; a ring sends 2 x 7/8 of it, 1,835,008 B per GPU, in 14
/// steps; over NVLink 4's 450 GB/s that is 4.0778 µs plus 14 x 1 µs. Two per layer, 80
/// layers.
#[test]
fn tp8_all_reduce_of_llama_3_70b_decode_is_hand_computed() {
    let s = scenario(Format::Bf16, Format::Bf16);
    let w = Workload {
        prompt: 2048,
        output: 2,
        concurrency: 64,
    };
    let d = deploy(
        "llama-3-70b",
        "h100-sxm",
        &s,
        layout(8, 1, 1, false),
        w,
        &DeployOptions::default(),
    );
    let comms = &d.decode.comms;
    let attention = comms
        .iter()
        .find(|c| c.id == CommId::AttentionAllReduce)
        .unwrap();
    assert_eq!(attention.message, Bytes(1_048_576.0));
    assert_eq!(attention.sent, Bytes(1_835_008.0));
    assert_eq!((attention.gpus, attention.count), (8, 80.0));
    assert_eq!(attention.link, LinkKind::NvLink(4));
    let one = 14e-6 + 1_835_008.0 / 450e9;
    assert!((attention.time.get() / (80.0 * one) - 1.0).abs() < 1e-12);
    let mlp = comms.iter().find(|c| c.id == CommId::MlpAllReduce).unwrap();
    assert_eq!(mlp.sent, attention.sent);
    assert_eq!(mlp.count, 80.0);
    // The LM head's logits: 64 rows x 128,256 x 2 B gathered, 7/8 of it sent, 7 steps.
    let logits = comms
        .iter()
        .find(|c| c.id == CommId::LogitsAllGather)
        .unwrap();
    assert_eq!(logits.message, Bytes(64.0 * 128_256.0 * 2.0));
    assert_eq!(logits.sent, Bytes(64.0 * 128_256.0 * 2.0 * 7.0 / 8.0));
    assert_eq!(comms.len(), 3);
    let total: f64 = comms.iter().map(|c| c.time.get()).sum();
    assert_eq!(d.decode.stage, d.decode.compute + Seconds(total));
    // Overlap: the stage takes the longer of compute and communication.
    let overlapped = deploy(
        "llama-3-70b",
        "h100-sxm",
        &s,
        layout(8, 1, 1, false),
        w,
        &DeployOptions {
            comm: CommModel {
                overlap: true,
                ..CommModel::default()
            },
            ..DeployOptions::default()
        },
    );
    let longer = d.decode.compute.get().max(total);
    assert_eq!(overlapped.decode.stage.get(), longer);
}

/// TP8 splits every weight matrix eightfold, so a memory-bound decode step's operators
/// take about an eighth of one GPU's time (norms and the replicated parts keep it above).
#[test]
fn tensor_parallel_compute_divides_the_weight_reads() {
    let s = scenario(Format::Bf16, Format::Bf16);
    let w = Workload {
        prompt: 1024,
        output: 128,
        concurrency: 8,
    };
    let one = deploy(
        "llama-3-70b",
        "h100-sxm",
        &s,
        Layout::SINGLE,
        w,
        &DeployOptions::default(),
    );
    let eight = deploy(
        "llama-3-70b",
        "h100-sxm",
        &s,
        layout(8, 1, 1, false),
        w,
        &DeployOptions::default(),
    );
    let ratio = one.decode.compute / eight.decode.compute;
    assert!((7.0..=8.0).contains(&ratio), "{ratio}");
    let weights = one.memory.weights / eight.memory.weights;
    assert!((7.9..=8.0).contains(&weights), "{weights}");
    // Llama-3-70B has 8 KV heads: TP8 holds one per GPU.
    let kv = one.memory.kv_cache / eight.memory.kv_cache;
    assert!((kv - 8.0).abs() < 1e-9, "{kv}");
}

/// DeepSeek-V3 with FP8 weights at EP8 with attention DP8 (one GPU per attention
/// replica): each GPU holds 32 of the 256 routed experts of the 58 MoE layers and
/// everything else whole; each of the 8 replicas holds its own sequences' latent cache
/// (61 layers x 576 values x 2 bytes per token).
#[test]
fn deepseek_v3_ep8_with_attention_dp_per_gpu_memory() {
    let s = scenario(Format::Fp8E4m3, Format::Bf16);
    let w = Workload {
        prompt: 3072,
        output: 1024,
        concurrency: 64,
    };
    let d = deploy(
        "deepseek-v3",
        "b200",
        &s,
        layout(1, 1, 8, true),
        w,
        &DeployOptions::default(),
    );
    let config = presets::get("deepseek-v3").unwrap();
    let whole = analyze(
        &config,
        &registry::get("b200").unwrap(),
        &Scenario {
            batch: 64,
            seq: 4096,
            ..s.clone()
        },
        &Efficiency::IDEAL,
    )
    .unwrap();
    let routed = Format::Fp8E4m3.tensor_bytes(7168.0 * 2048.0).get() * 3.0 * 256.0 * 58.0;
    let expected = whole.weight_bytes.get() - routed * 7.0 / 8.0;
    assert!((d.memory.weights.get() / expected - 1.0).abs() < 1e-12);
    // About 101 GB: 654 GB of experts over 8, and 19 GB every GPU holds.
    assert!(
        (95e9..105e9).contains(&d.memory.weights.get()),
        "{}",
        d.memory.weights
    );
    // 8 sequences per GPU x 4096 tokens x 61 x 576 x 2 B.
    assert_eq!(d.memory.kv_cache, Bytes(8.0 * 4096.0 * 61.0 * 576.0 * 2.0));
    assert!(d.memory.fits());
    // Dispatch: each GPU holds 64/8 tokens x top-8 copies x 7168 x 2 B, sends 7/8 of it.
    let dispatch = d
        .decode
        .comms
        .iter()
        .find(|c| c.id == CommId::MoeDispatch)
        .unwrap();
    assert_eq!(dispatch.message, Bytes(8.0 * 8.0 * 7168.0 * 2.0));
    assert_eq!(dispatch.sent, Bytes(8.0 * 8.0 * 7168.0 * 2.0 * 7.0 / 8.0));
    assert_eq!(dispatch.count, 58.0);
    assert!(
        d.decode
            .comms
            .iter()
            .all(|c| c.id != CommId::AttentionAllReduce)
    );
}

/// Qwen3.5-397B-A17B on TP4: the attention layers' cache splits over its 2 KV heads,
/// the recurrent state over all 4 GPUs (by value heads).
#[test]
fn a_hybrids_state_splits_over_the_whole_tensor_parallelism() {
    let s = scenario(Format::Fp8E4m3, Format::Bf16);
    let w = Workload {
        prompt: 8192,
        output: 1024,
        concurrency: 32,
    };
    let d = deploy(
        "qwen3.5-397b-a17b",
        "b200",
        &s,
        layout(4, 1, 1, false),
        w,
        &DeployOptions::default(),
    );
    let c = presets::get("qwen3.5-397b-a17b").unwrap();
    let state = analysis::recurrent_state_bytes(&c).get();
    let per_token = analysis::kv_bytes_per_token(&c, Format::Bf16).get();
    let expected = 32.0 * (per_token * 9216.0 / 2.0 + state / 4.0);
    assert!(
        (d.memory.kv_cache.get() / expected - 1.0).abs() < 1e-12,
        "{} {expected}",
        d.memory.kv_cache
    );
}

/// Four stages and eight micro-batches: 11 stage times, 3 of 11 idle (GPipe's bubble).
#[test]
fn pipeline_bubble_of_four_stages_and_eight_micro_batches() {
    let s = scenario(Format::Bf16, Format::Bf16);
    let w = Workload {
        prompt: 512,
        output: 64,
        concurrency: 32,
    };
    let options = DeployOptions {
        prefill_micro_batches: Some(8),
        ..DeployOptions::default()
    };
    let d = deploy(
        "llama-3-70b",
        "h100-sxm",
        &s,
        layout(2, 4, 1, false),
        w,
        &options,
    );
    assert_eq!(d.prefill.micro_batches, 8);
    assert_eq!(d.prefill.bubble, 3.0 / 11.0);
    assert_eq!(d.prefill.time, d.prefill.stage * 11.0);
    // Decode keeps 4 micro-batches in flight: a token takes 4 stage times, none idle.
    assert_eq!(d.decode.micro_batches, 4);
    assert_eq!(d.decode.time, d.decode.stage * 4.0);
    assert_eq!(d.decode.bubble, 0.0);
    // 80 layers over 4 stages: 20 each; the hand-off sends one micro-batch's activations.
    let send = d
        .prefill
        .comms
        .iter()
        .find(|c| c.id == CommId::PipelineSend)
        .unwrap();
    assert_eq!(send.message, Bytes(4.0 * 512.0 * 8192.0 * 2.0));
    let attention = d
        .prefill
        .comms
        .iter()
        .find(|c| c.id == CommId::AttentionAllReduce)
        .unwrap();
    assert_eq!(attention.count, 20.0);
}

#[test]
fn collectives_follow_the_ring_and_exchange_rules() {
    let m = Bytes(800.0);
    assert_eq!(Collective::AllReduce.bytes_sent(m, 8), Bytes(1400.0));
    assert_eq!(Collective::AllGather.bytes_sent(m, 8), Bytes(700.0));
    assert_eq!(Collective::AllToAll.bytes_sent(m, 8), Bytes(700.0));
    assert_eq!(Collective::SendRecv.bytes_sent(m, 2), m);
    assert_eq!(Collective::AllReduce.bytes_sent(m, 1), Bytes(0.0));
    assert_eq!(Collective::AllReduce.steps(8), 14.0);
    assert_eq!(Collective::AllGather.steps(8), 7.0);
    assert_eq!(Collective::AllToAll.steps(8), 1.0);
}

#[test]
fn groups_beyond_the_domain_use_the_network() {
    let s = scenario(Format::Fp8E4m3, Format::Bf16);
    let w = Workload {
        prompt: 1024,
        output: 256,
        concurrency: 128,
    };
    // 16 H100s in two HGX nodes: EP16 crosses nodes at 50 GB/s per GPU.
    let d = deploy(
        "deepseek-v3",
        "h100-sxm",
        &s,
        layout(1, 1, 16, true),
        w,
        &DeployOptions::default(),
    );
    let dispatch = d
        .decode
        .comms
        .iter()
        .find(|c| c.id == CommId::MoeDispatch)
        .unwrap();
    assert_eq!(dispatch.link, LinkKind::Network);
    let one = 5e-6 + dispatch.sent.get() / 50e9;
    assert!((dispatch.time.get() / (58.0 * one) - 1.0).abs() < 1e-12);
    // On a GB200 NVL72 rack the same layout stays on NVLink.
    let rack = deploy(
        "deepseek-v3",
        "gb200",
        &s,
        layout(1, 1, 16, true),
        w,
        &DeployOptions::default(),
    );
    let nvlink = rack
        .decode
        .comms
        .iter()
        .find(|c| c.id == CommId::MoeDispatch)
        .unwrap();
    assert_eq!(nvlink.link, LinkKind::NvLink(5));
}

#[test]
fn bad_layouts_name_the_problem() {
    let config = presets::get("llama-3-8b").unwrap();
    let err = layout(3, 1, 1, false).validate(&config).unwrap_err();
    assert!(err.to_string().contains("32 query heads"), "{err}");
    let err = layout(1, 1, 2, true).validate(&config).unwrap_err();
    assert!(err.to_string().contains("no experts"), "{err}");
    let err = layout(1, 40, 1, false).validate(&config).unwrap_err();
    assert!(err.to_string().contains("40 stages for 32 layers"), "{err}");
    let err = layout(0, 1, 1, false).validate(&config).unwrap_err();
    assert!(err.to_string().contains("tp"), "{err}");
    let err = layout(64, 64, 2, false).validate(&config).unwrap_err();
    assert!(err.to_string().contains("exceeds"), "{err}");
    // A device with no published interconnect cannot be deployed on two.
    let e = evaluate(
        &config,
        &registry::get("m4-max").unwrap(),
        &scenario(Format::Bf16, Format::Bf16),
        &Efficiency::IDEAL,
        layout(2, 1, 1, false),
        Workload {
            prompt: 1,
            output: 1,
            concurrency: 1,
        },
        &DeployOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("no published interconnect"), "{e}");
    assert!(e.to_string().contains("all-reduce among 2 GPUs"), "{e}");
    // Two replicas of a dense model never talk: no interconnect needed.
    let replicas = evaluate(
        &config,
        &registry::get("m4-max").unwrap(),
        &scenario(Format::Bf16, Format::Bf16),
        &Efficiency::IDEAL,
        layout(1, 1, 2, false),
        Workload {
            prompt: 16,
            output: 4,
            concurrency: 2,
        },
        &DeployOptions::default(),
    )
    .unwrap();
    assert!(replicas.decode.comms.is_empty());
    let e = evaluate(
        &config,
        &registry::get("h100-sxm").unwrap(),
        &scenario(Format::Bf16, Format::Bf16),
        &Efficiency::IDEAL,
        Layout::SINGLE,
        Workload {
            prompt: 0,
            output: 1,
            concurrency: 1,
        },
        &DeployOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("prompt"), "{e}");
}

#[test]
fn serving_figures_follow_from_the_passes() {
    let s = scenario(Format::Fp8E4m3, Format::Fp8E4m3);
    let w = Workload {
        prompt: 1000,
        output: 500,
        concurrency: 32,
    };
    let d = deploy(
        "llama-3-70b",
        "h100-sxm",
        &s,
        layout(4, 1, 1, false),
        w,
        &DeployOptions::default(),
    );
    let sv = d.serving;
    assert_eq!(sv.request_time, sv.ttft + sv.tpot * 499.0);
    assert_eq!(sv.tokens_per_s_per_user, 1.0 / sv.tpot.get());
    assert_eq!(
        sv.tokens_per_s_per_gpu,
        32.0 * 500.0 / sv.request_time.get() / 4.0
    );
    assert_eq!(sv.decode_tokens_per_s_per_gpu, 32.0 / sv.tpot.get() / 4.0);
    // The KV limit: the most requests whose weights, KV cache and activations fit.
    let at = |concurrency| {
        deploy(
            "llama-3-70b",
            "h100-sxm",
            &s,
            layout(4, 1, 1, false),
            Workload { concurrency, ..w },
            &DeployOptions::default(),
        )
        .memory
    };
    assert!(d.max_concurrency > 32);
    assert!(at(d.max_concurrency).fits());
    assert!(!at(d.max_concurrency + 1).fits());
}

#[test]
fn search_ranks_layouts_and_says_why_losers_lost() {
    let config = presets::get("deepseek-v3").unwrap();
    let hw = registry::get("h200").unwrap();
    let base = scenario(Format::Fp8E4m3, Format::Bf16);
    let space = SearchSpace {
        gpu_counts: Vec::new(),
        max_gpus: 32,
        precisions: vec![base.precision],
        prompt: 2048,
        output: 512,
        min_tokens_per_user: 20.0,
        max_ttft: Some(Seconds(10.0)),
    };
    let r = search(
        &config,
        &hw,
        &base,
        &Efficiency::IDEAL,
        &space,
        &DeployOptions::default(),
    )
    .unwrap();
    let first = &r.candidates[0];
    let best = first.best.as_ref().expect("a winner meets the floor");
    assert!(best.memory.fits());
    assert!(best.serving.tokens_per_s_per_user >= 20.0);
    assert!(best.serving.ttft.get() <= 10.0);
    assert!(first.loss.is_none());
    // DeepSeek-V3 in FP8 (about 680 GB) fits on no fewer than eight 141 GB H200s... at 4
    // it does not.
    for c in r.candidates.iter().filter(|c| c.layout.gpus() <= 4) {
        assert!(
            matches!(c.loss, Some(Loss::DoesNotFit { .. })),
            "{}",
            c.layout
        );
    }
    for c in &r.candidates[1..] {
        assert!(c.loss.is_some(), "{} has no reason", c.layout);
        if let (Some(b), Some(_)) = (&c.best, &c.loss) {
            assert!(b.serving.tokens_per_s_per_gpu <= best.serving.tokens_per_s_per_gpu);
        }
    }
    // The front: faster per user first, more per GPU each step, every point on a curve.
    for pair in r.pareto.windows(2) {
        assert!(pair[0].tokens_per_s_per_user >= pair[1].tokens_per_s_per_user);
        assert!(pair[0].tokens_per_s_per_gpu < pair[1].tokens_per_s_per_gpu);
    }
    for p in &r.pareto {
        assert!(r.candidates[p.candidate].curve.contains(p));
    }
    assert!(r.evaluated > r.candidates.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// No layout loses weights or KV cache: GPUs x per-GPU shares cover the whole, and
    /// every figure is finite and positive.
    #[test]
    fn layouts_cover_the_model(
        t in prop::sample::select(vec![1u32, 2, 4, 8]),
        p in 1u32..=5,
        d in 1u32..=4,
        expert in any::<bool>(),
        moe in any::<bool>(),
        concurrency in 1u64..=256,
    ) {
        let preset = if moe { "mixtral-8x7b" } else { "llama-3-70b" };
        let l = layout(t, p, d, expert && moe && t * d > 1);
        let s = scenario(Format::Fp8E4m3, Format::Bf16);
        let w = Workload { prompt: 700, output: 300, concurrency };
        let one = deploy(preset, "b200", &s, Layout::SINGLE, w, &DeployOptions::default());
        let many = deploy(preset, "b200", &s, l, w, &DeployOptions::default());
        let gpus = f64::from(l.gpus());
        prop_assert!(many.memory.weights.get() * gpus >= one.memory.weights.get() * 0.999);
        prop_assert!(many.memory.kv_cache.get() * gpus >= one.memory.kv_cache.get() * 0.999);
        for pass in [&many.prefill, &many.decode] {
            prop_assert!(pass.time.get().is_finite() && pass.time.get() > 0.0);
            prop_assert!((0.0..1.0).contains(&pass.bubble));
        }
        prop_assert!(many.serving.tokens_per_s_per_gpu.is_finite());
    }
}

/// Calibrated: compute at the kernel profiles' expected time (never below the bound) and
/// each collective with an NCCL profile at its fitted latency and bandwidth.
#[test]
fn a_calibrated_deployment_takes_the_fitted_terms() {
    let s = scenario(Format::Fp8E4m3, Format::Bf16);
    let w = Workload {
        prompt: 2048,
        output: 2,
        concurrency: 64,
    };
    let bound = deploy(
        "llama-3-70b",
        "h100-sxm",
        &s,
        layout(8, 1, 1, false),
        w,
        &DeployOptions::default(),
    );
    let options = DeployOptions {
        calibrated: true,
        ..DeployOptions::default()
    };
    let expected = deploy(
        "llama-3-70b",
        "h100-sxm",
        &s,
        layout(8, 1, 1, false),
        w,
        &options,
    );
    assert!(bound.decode.calibration.is_none());
    let c = expected.decode.calibration.unwrap();
    // The two all-reduces and the logits all-gather of 8 GPUs have profiles on the H100.
    assert!(
        c.profiled_ops > 0 && c.profiled_comms == 3 && c.bound_comms == 0,
        "{c:?}"
    );
    assert!(expected.decode.compute.get() > bound.decode.compute.get());
    let p = collective_profile("h100-sxm", Collective::AllReduce, 8).unwrap();
    assert_eq!(p.gpus, 8);
    // Latency per step over 2 x 7 steps, the bytes at the fitted fraction of NVLink, and
    // NCCL's pipeline fill between them.
    let latency = 14.0 * p.latency_per_step_us * 1e-6;
    let transfer = 1_835_008.0 / (450e9 * p.bandwidth_fraction);
    let one = latency + transfer + NCCL_PIPELINE_FILL * (latency * transfer).sqrt();
    let attention = expected
        .decode
        .comms
        .iter()
        .find(|c| c.id == CommId::AttentionAllReduce)
        .unwrap();
    assert!((attention.time.get() / (80.0 * one) - 1.0).abs() < 1e-12);
    assert!(expected.serving.tokens_per_s_per_gpu < bound.serving.tokens_per_s_per_gpu);
}

/// Calibrated with experts whole on each of 4 GPUs: each GPU's routed experts are one fused
/// MoE layer at its profile's expected time, with a quarter of the experts local, and the
/// decode step's compute is exactly the calibrated pass of the GPU's own operators.
#[test]
fn a_calibrated_expert_parallel_deployment_runs_each_gpus_experts_as_one_fused_layer() {
    use crate::kernel_time::{self, Activations, FUSED_MOE_OPS, Framework, FusedMoe};
    let s = Scenario {
        precision: Precision::uniform(Format::Bf16),
        ..scenario(Format::Bf16, Format::Bf16)
    };
    let w = Workload {
        prompt: 1024,
        output: 2,
        concurrency: 64,
    };
    let options = DeployOptions {
        calibrated: true,
        ..DeployOptions::default()
    };
    let hw = registry::get("h100-sxm").unwrap();
    let d = deploy(
        "mixtral-8x7b",
        "h100-sxm",
        &s,
        layout(4, 1, 1, true),
        w,
        &options,
    );
    let ops = &d.decode.ops;
    let layer = FusedMoe::of(ops, 4.0).unwrap();
    assert_eq!(layer.shape.experts / layer.shape.expert_parallel, 2.0);
    assert!(
        layer
            .calibrated(&hw, Framework::TensorRtLlm, Activations::QuantisedFirst)
            .is_some()
    );
    let pass = kernel_time::calibrated_pass_placed(
        ops,
        &hw,
        Framework::TensorRtLlm,
        Activations::QuantisedFirst,
        4.0,
    );
    assert!(
        (d.decode.compute.get() / pass.time_s - 1.0).abs() < 1e-12,
        "{pass:?}"
    );
    let c = d.decode.calibration.unwrap();
    assert_eq!(
        (c.profiled_ops, c.bound_ops),
        (pass.calibrated_ops, pass.bound_ops)
    );
    assert!(c.profiled_ops >= FUSED_MOE_OPS.len(), "{c:?}");
    // The calibration says so.
    assert!(c.fused_moe);
    let line = record::calibration_line(&c);
    assert!(line.contains(kernel_time::FUSED_MOE_NOTE), "{line}");
}

#[test]
fn layouts_read_as_written_and_as_printed() {
    let read = |s: &str| s.parse::<Layout>();
    let tp8 = Layout {
        tensor: 8,
        ..Layout::SINGLE
    };
    assert_eq!(read("tp8").unwrap(), tp8);
    assert_eq!(read("TP8 PP1 DP1").unwrap(), tp8);
    let dep = Layout {
        tensor: 1,
        pipeline: 1,
        data: 8,
        expert: 8,
    };
    assert_eq!(read("tp1-dp8-ep").unwrap(), dep);
    assert_eq!(read("tp1-dp8-ep8").unwrap(), dep);
    // Experts over 2 groups, each expert's columns over the 4 GPUs of its group.
    let mixed = Layout {
        tensor: 8,
        expert: 2,
        ..Layout::SINGLE
    };
    assert_eq!(read("tp8-ep2").unwrap(), mixed);
    assert_eq!(read("tp8-moe-tp4").unwrap(), mixed);
    assert_eq!(read("tp8-ep2-moe-tp4").unwrap(), mixed);
    assert_eq!(mixed.to_string(), "TP8 PP1 DP1 EP2 MoE-TP4");
    assert_eq!(mixed.spec(), "tp8-ep2");
    assert_eq!(read(&mixed.to_string()).unwrap(), mixed);
    assert_eq!(mixed.moe_tensor(), 4);
    assert_eq!(dep.spec(), "tp1-dp8-ep");
    assert_eq!(read(&dep.to_string()).unwrap(), dep, "{dep}");
    assert_eq!(
        read("tp4,pp2").unwrap(),
        Layout {
            tensor: 4,
            pipeline: 2,
            ..Layout::SINGLE
        }
    );
    for (bad, says) in [
        ("", "empty"),
        ("tp0", "degree of 1 or more"),
        ("tq4", "use tpN"),
        ("tp4 ep8", "TP x DP = 4"),
        ("tp4-ep3", "does not divide"),
        ("tp8-ep2-moe-tp2", "product must be"),
        ("tp8-moe-pp2", "write moe-tpN"),
        ("tp4-ep-ep2", "write one"),
    ] {
        let e = read(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad:?}: {e}");
    }
}

proptest! {
    #[test]
    fn any_layout_text_reads_or_is_refused(text in "\\PC{0,24}") {
        if let Ok(layout) = text.parse::<Layout>() {
            prop_assert_eq!(layout.to_string().parse::<Layout>().unwrap(), layout);
        }
    }

    #[test]
    fn every_layout_reads_back_from_its_print(
        tensor in 1u32..65, pipeline in 1u32..9, data in 1u32..65, pick in 0usize..64
    ) {
        // An expert-parallel degree among the divisors of the stage's GPUs.
        let stage = tensor * data;
        let divisors: Vec<u32> = (1..=stage).filter(|e| stage.is_multiple_of(*e)).collect();
        let expert = divisors[pick % divisors.len()];
        let layout = Layout { tensor, pipeline, data, expert };
        prop_assert_eq!(layout.to_string().parse::<Layout>().unwrap(), layout);
        prop_assert_eq!(layout.spec().parse::<Layout>().unwrap(), layout);
    }
}

/// DeepSeek-V3 on 8 GPUs at TP8 with its experts over 4 groups of 2 (EP4, MoE TP2): each
/// GPU holds 64 of the 256 routed experts, each expert's columns halved, so the same
/// weight bytes as whole experts or columns over all 8; the experts' GEMMs run a quarter of
/// the touched experts at half width, and each token's copies go to both GPUs of its experts' group.
#[test]
fn mixed_moe_tp_and_ep_splits_experts_by_group_then_by_columns() {
    let s = scenario(Format::Fp8E4m3, Format::Bf16);
    let w = Workload {
        prompt: 1024,
        output: 256,
        concurrency: 32,
    };
    let at = |expert| {
        deploy(
            "deepseek-v3",
            "b200",
            &s,
            Layout {
                tensor: 8,
                expert,
                ..Layout::SINGLE
            },
            w,
            &DeployOptions::default(),
        )
    };
    let (columns, mixed, whole) = (at(1), at(4), at(8));
    assert_eq!(mixed.memory.weights, whole.memory.weights);
    assert!((mixed.memory.weights.get() / columns.memory.weights.get() - 1.0).abs() < 1e-12);
    let gate = |d: &Deployment| {
        d.decode
            .ops
            .iter()
            .find(|o| o.id == analysis::OpId::ExpertsGateProj)
            .map(|o| o.op)
            .unwrap()
    };
    let (
        crate::ops::Op::BatchedGemm { batch, n, .. },
        crate::ops::Op::BatchedGemm {
            batch: whole_batch,
            n: whole_n,
            ..
        },
    ) = (gate(&mixed), gate(&whole))
    else {
        panic!("the routed experts are a batched GEMM");
    };
    // The experts the step's tokens touch, a quarter of them on each GPU (an eighth with
    // whole experts), at half the width.
    assert_eq!((batch, n), (whole_batch * 2.0, whole_n / 2.0));
    assert_eq!(whole_n, 2048.0);
    let dispatch = |d: &Deployment| {
        d.decode
            .comms
            .iter()
            .find(|c| c.id == CommId::MoeDispatch)
            .map(|c| c.message)
    };
    assert_eq!(dispatch(&columns), None);
    assert_eq!(dispatch(&mixed).unwrap(), dispatch(&whole).unwrap() * 2.0);
}
