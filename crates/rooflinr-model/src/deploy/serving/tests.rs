//! Tests for serving: schedulers' defaults, speculation, the steady state of in-flight
//! batching against static batching, and the benchmark simulation against steps costed by
//! hand.

use super::simulate::{Benchmark, Clients};
use super::*;
use crate::analysis::{AttentionKernel, Scenario};
use crate::deploy::{self, DeployOptions, Layout, Workload};
use crate::format::Format;
use crate::hardware::registry;
use crate::ops::Precision;
use crate::presets;
use crate::roofline::Efficiency;

pub(super) fn scenario(weights: Format) -> Scenario {
    Scenario {
        phase: Phase::Decode,
        batch: 1,
        seq: 1,
        precision: Precision {
            activations: Format::Bf16,
            weights,
            kv: Format::Bf16,
            output: Format::Bf16,
        },
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: None,
    }
}

fn tp(t: u32) -> Layout {
    Layout {
        tensor: t,
        ..Layout::SINGLE
    }
}

pub(super) fn evaluate(
    preset: &str,
    hw: &str,
    layout: Layout,
    w: Workload,
    o: &DeployOptions,
) -> deploy::Deployment {
    deploy::evaluate(
        &presets::get(preset).unwrap(),
        &registry::get(hw).unwrap(),
        &scenario(Format::Bf16),
        &Efficiency::IDEAL,
        layout,
        w,
        o,
    )
    .unwrap()
}

pub(super) fn bench(
    preset: &str,
    hw: &str,
    layout: Layout,
    b: &Benchmark,
    o: &DeployOptions,
) -> deploy::BenchmarkRun {
    deploy::benchmark(
        &presets::get(preset).unwrap(),
        &registry::get(hw).unwrap(),
        &scenario(Format::Bf16),
        &Efficiency::IDEAL,
        layout,
        b,
        o,
    )
    .unwrap()
}

#[track_caller]
fn check_scheduler(
    framework: Framework,
    hw: &str,
    policy: Policy,
    budget: u64,
    seqs: u64,
    chunked: bool,
) {
    let s = Scheduler::default_for(framework, &registry::get(hw).unwrap());
    assert_eq!(
        (s.policy, s.token_budget, s.max_sequences, s.chunked_prefill),
        (policy, budget, seqs, chunked),
        "{framework:?} on {hw}"
    );
}

#[test]
fn each_engine_schedules_with_its_own_defaults() {
    check_scheduler(Framework::Vllm, "h100-sxm", Policy::Mixed, 8192, 1024, true);
    check_scheduler(Framework::Vllm, "a100-sxm", Policy::Mixed, 2048, 256, true);
    check_scheduler(Framework::Vllm, "l4", Policy::Mixed, 2048, 256, true);
    check_scheduler(
        Framework::TensorRtLlm,
        "h200",
        Policy::Mixed,
        8192,
        2048,
        false,
    );
    check_scheduler(
        Framework::Sglang,
        "h200",
        Policy::PrefillFirst,
        8192,
        MAX_SCHEDULED,
        true,
    );
    check_scheduler(
        Framework::Sglang,
        "b200",
        Policy::PrefillFirst,
        16384,
        MAX_SCHEDULED,
        true,
    );
    check_scheduler(
        Framework::Sglang,
        "l4",
        Policy::PrefillFirst,
        2048,
        MAX_SCHEDULED,
        true,
    );
}

#[test]
fn a_verify_step_yields_the_expected_run_of_accepted_drafts() {
    assert!((Speculation::DEEPSEEK_V3_MTP.tokens_per_step() - 1.85).abs() < 1e-12);
    let three = Speculation {
        draft_tokens: 3,
        acceptance: 0.5,
    };
    assert!((three.tokens_per_step() - 1.875).abs() < 1e-12);
    let none = Speculation {
        draft_tokens: 2,
        acceptance: 0.0,
    };
    assert_eq!(none.tokens_per_step(), 1.0);
    for bad in [
        Speculation {
            draft_tokens: 0,
            acceptance: 0.5,
        },
        Speculation {
            draft_tokens: 1,
            acceptance: 1.5,
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?}");
    }
}

const WORK: Workload = Workload {
    prompt: 1024,
    output: 256,
    concurrency: 64,
};

#[test]
fn in_flight_batching_reaches_the_first_token_long_before_a_static_batch() {
    let hw = registry::get("h100-sxm").unwrap();
    let stat = evaluate(
        "llama-3-8b",
        "h100-sxm",
        Layout::SINGLE,
        WORK,
        &DeployOptions::default(),
    );
    let flight = evaluate(
        "llama-3-8b",
        "h100-sxm",
        Layout::SINGLE,
        WORK,
        &DeployOptions::in_flight(Framework::Vllm, &hw),
    );
    // A static batch prefills all 64 prompts before any first token; in steady state a
    // request waits for one step and its own prefill.
    assert!(
        flight.serving.ttft.get() < stat.serving.ttft.get() / 5.0,
        "{flight:?}"
    );
    // Its decode steps carry other requests' prompts, so a token takes longer than a
    // decode-only step of the same batch.
    let state = flight.in_flight.unwrap();
    assert!(state.prefill_tokens > 0.0);
    assert!(
        flight.serving.tpot.get() > flight.decode.time.get() * 0.9,
        "{state:?}"
    );
    assert_eq!(stat.in_flight, None);
}

#[test]
fn prefill_first_pauses_decode_and_mixed_steps_carry_the_prompts() {
    let hw = registry::get("h100-sxm").unwrap();
    let sglang = evaluate(
        "llama-3-8b",
        "h100-sxm",
        Layout::SINGLE,
        WORK,
        &DeployOptions::in_flight(Framework::Sglang, &hw),
    );
    let s = sglang.in_flight.unwrap();
    assert_eq!(s.scheduler.policy, Policy::PrefillFirst);
    assert!(s.prefill_pause.get() > 0.0);
    // TPOT is the decode step and the prefill it waits for.
    let per_token =
        (s.step + s.prefill_pause) * (((WORK.output - 1) as f64).ceil() / (WORK.output - 1) as f64);
    assert!((sglang.serving.tpot.get() / per_token.get() - 1.0).abs() < 1e-9);
}

#[test]
fn a_cached_prefix_shortens_the_prefill_and_speculation_the_token() {
    let hw = registry::get("h100-sxm").unwrap();
    let base = DeployOptions::in_flight(Framework::Vllm, &hw);
    let one = Workload {
        concurrency: 1,
        ..WORK
    };
    let plain = evaluate("llama-3-8b", "h100-sxm", Layout::SINGLE, one, &base);
    let cached = evaluate(
        "llama-3-8b",
        "h100-sxm",
        Layout::SINGLE,
        one,
        &DeployOptions {
            prefix_hit: 0.75,
            ..base
        },
    );
    assert!(cached.serving.ttft.get() < plain.serving.ttft.get() * 0.6);
    let mtp = evaluate(
        "llama-3-8b",
        "h100-sxm",
        Layout::SINGLE,
        one,
        &DeployOptions {
            speculation: Some(Speculation {
                draft_tokens: 2,
                acceptance: 0.8,
            }),
            ..base
        },
    );
    // One request decodes memory-bound: verifying three tokens costs about one, and yields
    // 2.44 of them; the one-layer draft costs a little.
    let ratio = mtp.serving.tpot / plain.serving.tpot;
    assert!(ratio > 1.0 / 2.44 && ratio < 0.6, "{ratio}");
    assert!(mtp.in_flight.unwrap().tokens_per_step > 2.4);
}

#[test]
fn static_batching_refuses_what_only_an_engine_does() {
    let r = deploy::evaluate(
        &presets::get("llama-3-8b").unwrap(),
        &registry::get("h100-sxm").unwrap(),
        &scenario(Format::Bf16),
        &Efficiency::IDEAL,
        Layout::SINGLE,
        WORK,
        &DeployOptions {
            prefix_hit: 0.5,
            ..DeployOptions::default()
        },
    );
    let e = r.unwrap_err().to_string();
    assert!(e.contains("batching") && e.contains("in-flight"), "{e}");
}

fn closed(c: u64, requests: u64) -> Benchmark {
    Benchmark {
        prompt: 1024,
        output: 128,
        clients: Clients::Concurrency(c),
        requests,
        length_floor: 1.0,
        prefix_hit: 0.0,
        seed: 1,
    }
}

/// The deployment context of `config` on one `hw` at the roofline, to cost steps directly.
fn one_gpu<'a>(
    config: &'a crate::config::ModelConfig,
    hw: &'a crate::hardware::Hardware,
    options: &'a DeployOptions,
) -> crate::deploy::Context<'a> {
    static IDEAL: Efficiency = Efficiency::IDEAL;
    crate::deploy::Context {
        config,
        hardware: hw,
        efficiency: &IDEAL,
        layout: Layout::SINGLE,
        options,
    }
}

#[test]
fn one_client_waits_for_nothing_but_its_own_prefill() {
    let hw = registry::get("h100-sxm").unwrap();
    let o = DeployOptions::in_flight(Framework::Vllm, &hw);
    let run = bench("llama-3-8b", "h100-sxm", Layout::SINGLE, &closed(1, 4), &o);
    // The prefill step of one 1,024-token prompt, costed directly.
    let config = presets::get("llama-3-8b").unwrap();
    let s = scenario(Format::Bf16);
    let cx = one_gpu(&config, &hw, &o);
    let prefill = cx
        .step_time(&s, &Step::uniform(Phase::Prefill, 1.0, 1024.0))
        .unwrap()
        .time;
    assert!(
        (run.ttft.mean / prefill - 1.0).abs() < 1e-9,
        "{run:?} {prefill:?}"
    );
    assert!((run.ttft.mean / run.ttft.p90 - 1.0).abs() < 1e-9);
    // 127 decode steps of one sequence over 1,025 to 1,151 tokens.
    let decode = cx
        .step_time(&s, &Step::uniform(Phase::Decode, 1.0, 1088.0))
        .unwrap()
        .time;
    assert!(
        (run.tpot.mean / decode - 1.0).abs() < 0.01,
        "{run:?} {decode:?}"
    );
    assert_eq!(run.requests, 4);
}

#[test]
fn an_eager_step_adds_its_hosts_time_per_kernel_to_its_kernels() {
    let hw = registry::get("h100-sxm").unwrap();
    let o = DeployOptions {
        host: HostOverhead {
            launch: Seconds(50e-6),
            step: Seconds(1e-3),
            ..HostOverhead::NONE
        },
        ..DeployOptions::in_flight(Framework::Vllm, &hw)
    };
    let run = bench("llama-3-8b", "h100-sxm", Layout::SINGLE, &closed(1, 4), &o);
    let config = presets::get("llama-3-8b").unwrap();
    let s = scenario(Format::Bf16);
    let cx = one_gpu(&config, &hw, &o);
    let prefill = cx
        .step_time(&s, &Step::uniform(Phase::Prefill, 1.0, 1024.0))
        .unwrap();
    assert!(prefill.launches > 100.0, "{prefill:?}");
    // The prompt's step runs eager: its kernels, then 50 us for each of them, then the
    // step's 1 ms.
    let eager = prefill.time.get() + 50e-6 * prefill.launches + 1e-3;
    assert!(
        (run.ttft.mean.get() / eager - 1.0).abs() < 1e-9,
        "{run:?} {prefill:?}"
    );
    // A decode step runs its CUDA graph: the kernels and the step's 1 ms, no launches.
    let decode = cx
        .step_time(&s, &Step::uniform(Phase::Decode, 1.0, 1088.0))
        .unwrap()
        .time
        .get()
        + 1e-3;
    assert!(
        (run.tpot.mean.get() / decode - 1.0).abs() < 0.01,
        "{run:?} {decode:?}"
    );
}

#[test]
fn the_first_wave_queues_behind_its_own_prefill() {
    let hw = registry::get("h100-sxm").unwrap();
    let o = DeployOptions::in_flight(Framework::Vllm, &hw);
    // 64 prompts of 1,024 tokens at once fill eight 8,192-token steps: the first wave's
    // first tokens come after 1 to 8 steps, later waves' after about one.
    let first = bench(
        "llama-3-8b",
        "h100-sxm",
        Layout::SINGLE,
        &closed(64, 64),
        &o,
    );
    let ten = bench(
        "llama-3-8b",
        "h100-sxm",
        Layout::SINGLE,
        &closed(64, 640),
        &o,
    );
    assert!(
        first.ttft.p90.get() > 3.0 * first.ttft.median.get() / 2.0,
        "{first:?}"
    );
    assert!(
        ten.ttft.mean.get() < first.ttft.mean.get(),
        "{ten:?} {first:?}"
    );
    assert!(ten.ttft.median.get() < first.ttft.median.get() / 2.0);
}

/// Closed-loop clients with lengths uniform in [0.8, 1] x (1,024, 256), so that their
/// requests do not end in step.
pub(super) fn clients(c: u64) -> Benchmark {
    Benchmark {
        prompt: 1024,
        output: 256,
        clients: Clients::Concurrency(c),
        requests: c * 40,
        length_floor: 0.8,
        prefix_hit: 0.0,
        seed: 7,
    }
}

/// The mean lengths of [`clients`].
pub(super) fn workload(c: u64) -> Workload {
    Workload {
        prompt: 922,
        output: 230,
        concurrency: c,
    }
}

#[test]
fn a_long_run_settles_to_the_steady_state() {
    let hw = registry::get("h100-sxm").unwrap();
    let o = DeployOptions::in_flight(Framework::Vllm, &hw);
    // Lengths uniform in [0.8, 1] x (1,024, 256) keep the clients' requests from ending in
    // step; the steady state is of the mean lengths.
    for c in [8, 32, 128] {
        let steady = evaluate("llama-3-8b", "h100-sxm", Layout::SINGLE, workload(c), &o);
        let run = bench("llama-3-8b", "h100-sxm", Layout::SINGLE, &clients(c), &o);
        let tpot = run.tpot.mean / steady.serving.tpot;
        assert!(
            (tpot - 1.0).abs() < 0.05,
            "{c}: TPOT simulated over steady {tpot}"
        );
        // The mean TTFT carries the first wave's queue; the median is a later request's.
        let ttft = run.ttft.median / steady.serving.ttft;
        assert!(
            (ttft - 1.0).abs() < 0.25,
            "{c}: median TTFT simulated over steady {ttft}"
        );
        assert!(run.ttft.mean.get() > run.ttft.median.get());
    }
}

#[test]
fn a_benchmark_names_what_it_refuses() {
    let hw = registry::get("h100-sxm").unwrap();
    let o = DeployOptions::in_flight(Framework::Vllm, &hw);
    for (b, field) in [
        (
            Benchmark {
                requests: 0,
                ..closed(1, 1)
            },
            "requests",
        ),
        (
            Benchmark {
                length_floor: 0.0,
                ..closed(1, 1)
            },
            "length_floor",
        ),
        (
            Benchmark {
                clients: Clients::Rate(f64::NAN),
                ..closed(1, 1)
            },
            "rate",
        ),
    ] {
        let e = deploy::benchmark(
            &presets::get("llama-3-8b").unwrap(),
            &hw,
            &scenario(Format::Bf16),
            &Efficiency::IDEAL,
            Layout::SINGLE,
            &b,
            &o,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains(field), "{e}");
    }
    let e = deploy::benchmark(
        &presets::get("llama-3-8b").unwrap(),
        &hw,
        &scenario(Format::Bf16),
        &Efficiency::IDEAL,
        Layout::SINGLE,
        &closed(1, 1),
        &DeployOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("static"), "{e}");
}

#[test]
fn an_open_loop_at_a_low_rate_sees_an_idle_engine() {
    let hw = registry::get("h100-sxm").unwrap();
    let o = DeployOptions::in_flight(Framework::Vllm, &hw);
    let b = Benchmark {
        clients: Clients::Rate(0.05),
        ..closed(1, 20)
    };
    let run = bench("llama-3-8b", "h100-sxm", tp(1), &b, &o);
    let alone = bench("llama-3-8b", "h100-sxm", tp(1), &closed(1, 4), &o);
    // Requests 20 s apart on average rarely meet: the median one finds the engine idle.
    assert!(
        (run.ttft.median / alone.ttft.mean - 1.0).abs() < 0.05,
        "{run:?}"
    );
    assert!(run.duration.get() > 100.0);
}

fn fp8(weights: Format) -> Scenario {
    Scenario {
        precision: Precision {
            activations: Format::Fp8E4m3,
            weights,
            kv: Format::Fp8E4m3,
            output: Format::Bf16,
        },
        ..scenario(weights)
    }
}

#[test]
fn a_disaggregated_deployment_sends_each_prompts_cache_and_decodes_apart() {
    let config = presets::get("llama-3-70b").unwrap();
    let hw = registry::get("h200").unwrap();
    let s = fp8(Format::Fp8E4m3);
    let o = DeployOptions::in_flight(Framework::Sglang, &hw);
    let d = super::disagg::Disaggregated {
        prefill: tp(4),
        prefill_workers: 1,
        decode: tp(4),
        decode_workers: 1,
    };
    let w = Workload {
        prompt: 2048,
        output: 256,
        concurrency: 16,
    };
    let r =
        deploy::evaluate_disaggregated(&config, &hw, &s, &Efficiency::IDEAL, &d, w, &o).unwrap();
    // 2,048 tokens x 80 layers x 2 x 8 KV heads x 128 x 1 byte (FP8).
    assert_eq!(r.transfer_bytes.get(), 2048.0 * 80.0 * 2.0 * 8.0 * 128.0);
    // Both workers in one 8-GPU NVLink domain: 4 GPUs send at 450 GB/s each.
    let sent = r.transfer_bytes.get() / (4.0 * 450e9) + 1e-6;
    assert!((r.transfer.get() / sent - 1.0).abs() < 1e-9, "{r:?}");
    assert!(r.serving.ttft.get() > r.prefill_step.get() + r.transfer.get());
    assert!(r.prefill_utilisation > 0.0 && r.prefill_utilisation <= 1.0);
    assert!(r.decode_batch > 1.0 && r.decode_batch <= 16.0, "{r:?}");
    // Closed loop: the clients' requests over their time are the output rate.
    let rate = 16.0 * 256.0 / r.serving.request_time.get() / 8.0;
    assert!((r.serving.tokens_per_s_per_gpu / rate - 1.0).abs() < 1e-9);
    // Twice the clients on the same workers: each waits longer somewhere.
    let busier = deploy::evaluate_disaggregated(
        &config,
        &hw,
        &s,
        &Efficiency::IDEAL,
        &d,
        Workload {
            concurrency: 256,
            ..w
        },
        &o,
    )
    .unwrap();
    assert!(busier.serving.tpot > r.serving.tpot);
    assert!(busier.serving.tokens_per_s_per_gpu > r.serving.tokens_per_s_per_gpu);
    for (bad, field) in [
        (
            super::disagg::Disaggregated {
                prefill_workers: 0,
                ..d
            },
            "workers",
        ),
        (super::disagg::Disaggregated { decode: tp(3), ..d }, "tp"),
    ] {
        let e = deploy::evaluate_disaggregated(&config, &hw, &s, &Efficiency::IDEAL, &bad, w, &o)
            .unwrap_err()
            .to_string();
        assert!(e.contains(field), "{e}");
    }
    let e = deploy::evaluate_disaggregated(
        &config,
        &hw,
        &s,
        &Efficiency::IDEAL,
        &d,
        w,
        &DeployOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("static"), "{e}");
}

#[test]
fn disaggregated_workers_serve_no_faster_than_their_slower_side_and_queue_the_rest() {
    let config = presets::get("llama-3-70b").unwrap();
    let hw = registry::get("h100-sxm").unwrap();
    let s = fp8(Format::Fp8E4m3);
    let o = DeployOptions::in_flight(Framework::TensorRtLlm, &hw);
    // One prefill GPU for four decode GPUs: the prefill side sets the rate.
    let d = super::disagg::Disaggregated {
        prefill: tp(1),
        prefill_workers: 1,
        decode: tp(4),
        decode_workers: 1,
    };
    let at = |concurrency| {
        let w = Workload {
            prompt: 1024,
            output: 256,
            concurrency,
        };
        deploy::evaluate_disaggregated(&config, &hw, &s, &Efficiency::IDEAL, &d, w, &o).unwrap()
    };
    let (few, many) = (at(256), at(1024));
    assert_eq!(few.prefill_utilisation, 1.0);
    let prompts =
        |r: &super::disagg::DisaggregatedServing| r.serving.tokens_per_s_per_gpu * 5.0 / 256.0;
    // Four times the clients, the same rate: the prefill workers' full batches.
    for r in [&few, &many] {
        assert!(
            (prompts(r) / r.prefill_capacity - 1.0).abs() < 1e-9,
            "{r:?}"
        );
    }
    // Little's law: the clients' requests over the request time are the rate, so the
    // others wait for their first token.
    for (c, r) in [(256.0, &few), (1024.0, &many)] {
        let little = c / r.serving.request_time.get();
        assert!((little / r.prefill_capacity - 1.0).abs() < 1e-9, "{r:?}");
    }
    assert!(
        many.serving.ttft.get() > 3.5 * few.serving.ttft.get(),
        "{few:?} {many:?}"
    );
}

#[test]
fn a_disaggregated_search_matches_prefill_to_the_decode_rate_and_returns_its_front() {
    let config = presets::get("llama-3-70b").unwrap();
    let hw = registry::get("h200").unwrap();
    let s = fp8(Format::Fp8E4m3);
    let o = DeployOptions::in_flight(Framework::Vllm, &hw);
    let space = super::disagg::DisaggregatedSpace {
        max_gpus: 16,
        prompt: 2048,
        output: 256,
        min_tokens_per_user: 30.0,
        max_ttft: Some(crate::units::Seconds(1.0)),
    };
    let r = deploy::search_disaggregated(&config, &hw, &s, &Efficiency::IDEAL, &space, &o).unwrap();
    let best = r.best.unwrap();
    assert!(best.tokens_per_s_per_user >= 30.0);
    assert!(best.deployment.gpus() <= 16 && best.ttft.get() <= 1.0);
    assert!(r.evaluated > r.pareto.len());
    // Fastest per user first, each point giving up speed for more tokens/s per GPU.
    for pair in r.pareto.windows(2) {
        assert!(pair[0].tokens_per_s_per_user >= pair[1].tokens_per_s_per_user);
        assert!(pair[0].tokens_per_s_per_gpu < pair[1].tokens_per_s_per_gpu);
    }
    // The best point at the floor is on or under the front.
    assert!(
        r.pareto
            .iter()
            .any(|p| p.tokens_per_s_per_gpu >= best.tokens_per_s_per_gpu
                && p.tokens_per_s_per_user >= 30.0)
    );
    // Each point's figures are its deployment's steady state at its concurrency.
    for p in &r.pareto {
        let w = Workload {
            prompt: 2048,
            output: 256,
            concurrency: p.concurrency,
        };
        let e = deploy::evaluate_disaggregated(
            &config,
            &hw,
            &s,
            &Efficiency::IDEAL,
            &p.deployment,
            w,
            &o,
        )
        .unwrap();
        assert_eq!(e.serving.tokens_per_s_per_gpu, p.tokens_per_s_per_gpu);
        assert_eq!(e.serving.ttft, p.ttft);
    }
}
