//! Tests for how an engine takes in new requests: SGLang's read interval and TensorRT-LLM's
//! attention-DP balance, in the steady state and in the simulated benchmark.

use super::simulate::{Benchmark, BenchmarkRun};
use super::tests::{clients, workload};
use super::*;
use crate::deploy::{self, DeployOptions, Layout, Workload};
use crate::hardware::registry;

const MODEL: &str = "llama-3-8b";
const GPU: &str = "h100-sxm";

/// `framework`'s defaults on the test GPU, changed by `change`.
fn options(framework: Framework, change: impl FnOnce(&mut Scheduler)) -> DeployOptions {
    let hw = registry::get(GPU).unwrap();
    let mut scheduler = Scheduler::default_for(framework, &hw);
    change(&mut scheduler);
    DeployOptions {
        batching: Batching::InFlight(scheduler),
        ..DeployOptions::in_flight(framework, &hw)
    }
}

fn steady(layout: Layout, w: Workload, o: &DeployOptions) -> deploy::Deployment {
    super::tests::evaluate(MODEL, GPU, layout, w, o)
}

fn run(layout: Layout, b: &Benchmark, o: &DeployOptions) -> BenchmarkRun {
    super::tests::bench(MODEL, GPU, layout, b, o)
}

fn mean_step(r: &BenchmarkRun) -> f64 {
    r.duration.get() / r.steps as f64
}

#[test]
fn a_read_interval_holds_new_requests_until_the_next_read() {
    let every = options(Framework::Sglang, |_| {});
    for reads in [10, 30] {
        let o = options(Framework::Sglang, |s| s.recv_interval = reads);
        let r = f64::from(reads);
        let (s1, sr) = (
            steady(Layout::SINGLE, workload(32), &every),
            steady(Layout::SINGLE, workload(32), &o),
        );
        let state = sr.in_flight.unwrap();
        // A request waits (R + 1) / 2 decode steps for the read instead of one.
        let waited = (sr.serving.ttft - s1.serving.ttft).get();
        assert!(
            waited >= (r - 1.0) / 2.0 * state.step.get() * 0.99,
            "{reads}: {waited} s more, steps of {:?}",
            state.step
        );
        // The cycle's prompts prefill together: no more prefill per token than one by one.
        assert!(sr.serving.tpot.get() <= s1.serving.tpot.get() * 1.001);

        // The simulation steps the same reads: after the first wave, its median request
        // waits as the steady state says, and so more than with a read every step.
        let (b1, br) = (
            run(Layout::SINGLE, &clients(32), &every),
            run(Layout::SINGLE, &clients(32), &o),
        );
        let ratio = br.ttft.median / sr.serving.ttft;
        assert!(
            (ratio - 1.0).abs() < 0.25,
            "{reads}: simulated median TTFT over steady {ratio}"
        );
        let simulated_wait = (br.ttft.median - b1.ttft.median).get();
        assert!(
            simulated_wait > (r - 1.0) / 4.0 * mean_step(&br),
            "{reads}: simulated {simulated_wait} s more, steps of {} s",
            mean_step(&br)
        );
        // Fewer, larger prefills: no slower a token, and as the steady state says.
        assert!(
            br.tpot.mean.get() <= b1.tpot.mean.get() * 1.001,
            "{br:?}\n{b1:?}"
        );
        let tpot = br.tpot.mean / sr.serving.tpot;
        assert!(
            (tpot - 1.0).abs() < 0.1,
            "{reads}: simulated TPOT over steady {tpot}"
        );
    }
}

#[test]
fn a_balance_on_one_replica_holds_nothing() {
    let plain = options(Framework::TensorRtLlm, |_| {});
    let balanced = options(Framework::TensorRtLlm, |s| {
        s.adp_balance = Some(AdpBalance {
            timeout_steps: 60,
            batching_wait_steps: 0,
        })
    });
    let (a, b) = (
        run(Layout::SINGLE, &clients(16), &plain),
        run(Layout::SINGLE, &clients(16), &balanced),
    );
    assert_eq!((a.ttft, a.tpot, a.steps), (b.ttft, b.tpot, b.steps));
    let (a, b) = (
        steady(Layout::SINGLE, workload(16), &plain),
        steady(Layout::SINGLE, workload(16), &balanced),
    );
    assert_eq!(a.serving, b.serving);
}

#[test]
fn a_balance_holds_new_prompts_for_the_other_replicas_at_most_its_timeout() {
    let replicas = Layout {
        data: 4,
        ..Layout::SINGLE
    };
    let balance = |timeout_steps| {
        options(Framework::TensorRtLlm, move |s| {
            s.adp_balance = Some(AdpBalance {
                timeout_steps,
                batching_wait_steps: 0,
            })
        })
    };
    let plain = run(
        replicas,
        &clients(64),
        &options(Framework::TensorRtLlm, |_| {}),
    );
    let short = run(replicas, &clients(64), &balance(5));
    let long = run(replicas, &clients(64), &balance(60));
    assert!(
        plain.ttft.mean < short.ttft.mean && short.ttft.mean < long.ttft.mean,
        "{plain:?}\n{short:?}\n{long:?}"
    );
    let held = (long.ttft.mean - plain.ttft.mean).get();
    assert!(
        held <= 60.0 * mean_step(&long),
        "held {held} s, steps of {} s",
        mean_step(&long)
    );
    let tpot = long.tpot.mean / plain.tpot.mean;
    assert!((tpot - 1.0).abs() < 0.03, "TPOT ratio {tpot}");

    // The steady state holds a prompt between nothing and half the timeout.
    let o = balance(60);
    let (s0, s60) = (
        steady(
            replicas,
            workload(64),
            &options(Framework::TensorRtLlm, |_| {}),
        ),
        steady(replicas, workload(64), &o),
    );
    let step = s60.in_flight.unwrap().step.get();
    let held = (s60.serving.ttft - s0.serving.ttft).get();
    assert!(
        held > 0.0 && held <= 30.0 * step * 1.0001,
        "{held} s, steps of {step} s"
    );
    assert_eq!(s0.serving.tpot, s60.serving.tpot);
}

#[test]
fn the_steady_balance_waits_less_as_prompts_come_faster() {
    let b = AdpBalance {
        timeout_steps: 60,
        batching_wait_steps: 0,
    };
    assert_eq!(balance_hold(b, 1.0, 0.01), 0.0);
    // Prompts that hardly ever come wait for the timeout's release, half of it on average.
    assert!((balance_hold(b, 8.0, 1e-9) - 30.0).abs() < 1e-6);
    let mut last = f64::INFINITY;
    for rate in [0.01, 0.05, 0.2, 1.0, 5.0] {
        let held = balance_hold(b, 8.0, rate);
        assert!(held < last || held == 30.0, "{rate}: {held} after {last}");
        assert!(held <= balance_hold(b, 64.0, rate));
        last = held;
    }
    // Five prompts a step reach every other replica within a step or two.
    assert!(last < 1.5, "{last}");
    let waiting = AdpBalance {
        batching_wait_steps: 3,
        ..b
    };
    assert_eq!(balance_hold(waiting, 8.0, 5.0), last + 3.0);
}

#[test]
fn a_scheduler_refuses_what_its_engine_does_not_do() {
    let hw = registry::get(GPU).unwrap();
    let balance = Some(AdpBalance {
        timeout_steps: 60,
        batching_wait_steps: 0,
    });
    for (framework, change, field) in [
        (
            Framework::Vllm,
            Scheduler {
                recv_interval: 10,
                ..Scheduler::default_for(Framework::Vllm, &hw)
            },
            "recv_interval",
        ),
        (
            Framework::Sglang,
            Scheduler {
                adp_balance: balance,
                ..Scheduler::default_for(Framework::Sglang, &hw)
            },
            "adp_balance",
        ),
        (
            Framework::Sglang,
            Scheduler {
                recv_interval: 0,
                ..Scheduler::default_for(Framework::Sglang, &hw)
            },
            "recv_interval",
        ),
        (
            Framework::TensorRtLlm,
            Scheduler {
                adp_balance: Some(AdpBalance {
                    timeout_steps: 0,
                    batching_wait_steps: 0,
                }),
                ..Scheduler::default_for(Framework::TensorRtLlm, &hw)
            },
            "adp_balance.timeout_steps",
        ),
    ] {
        let e = change.validate().unwrap_err().to_string();
        assert!(e.contains(field), "{framework:?}: {e}");
    }
}
