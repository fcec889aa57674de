//! How a serving engine batches requests, and the serving figures that follow: static
//! batching, in-flight batching under each engine's scheduler (steady state here; a
//! benchmark run from a cold start in [`simulate`]), speculative decoding and prefix
//! caching.
//!
//! In-flight (continuous) batching (Yu et al., OSDI 2022 "Orca") schedules every step
//! anew: requests join as others finish, and a step carries the decode tokens of running
//! requests beside prompt chunks of arriving ones (chunked prefill, Agrawal et al., OSDI
//! 2024 "Sarathi-Serve"). Each engine's rules, with their source, are on [`Policy`] and
//! [`Scheduler::default_for`]. The steady state of a closed loop of `C` clients (each
//! sending its next request when its last one ends, as `vllm bench serve
//! --max-concurrency` does), per attention replica, prompt `P` of which a share `h` is
//! cached, output `O`:
//! - A request takes `s_p` steps to prefill its `P' = P (1 - h)` new tokens and
//!   `s_d = ceil((O - 1) / a)` decode steps, where `a` is the tokens a step yields per
//!   sequence (1, or [`Speculation::tokens_per_step`]). With `n` requests running, each step
//!   completes `r = n / (s_p + s_d)` of them, so it carries `D = r s_d` decoding sequences
//!   and `r P'` prompt tokens (Little's law over steps).
//! - [`Policy::Mixed`]: one step holds both, decode first; `s_p = P' / (B - D q)` steps
//!   of what the budget `B` leaves after the `q` tokens of each decoding sequence
//!   (at least one step; a whole prompt in one step without chunked prefill). TPOT is
//!   `s_d` steps over `O - 1` tokens; TTFT is the step during which the request arrives
//!   (a closed-loop client's next request reaches the engine after it began its next
//!   step) plus its `s_p` prefill steps.
//! - [`Policy::PrefillFirst`]: a step either prefills or decodes. The engine reads new
//!   requests every `R` decode steps ([`Scheduler::recv_interval`], 1 by default) and
//!   prefills what it read before its next decode step: a cycle of `R` decode steps of
//!   `tau_d` and one prefill of the `m = lambda tau` requests that arrived in it (`lambda`
//!   the completion rate, `tau` the cycle's time). TPOT is `tau_d` plus the cycle's prefill
//!   over its `R` steps (a one-request prefill in a fraction `m` of cycles when `m < 1`);
//!   TTFT is the `(R + 1) / 2` decode steps a request waits for the read plus the prefill
//!   of its own batch, `1 + m` prompts on average.
//! - [`AdpBalance`] (TensorRT-LLM with attention DP): a new prompt is also held until the
//!   other replicas each have one, at most half the timeout ([`balance_hold`]).
//! - More clients than the engine runs at once (its sequence cap, or what the KV memory
//!   holds) wait in a queue: `waiting / completion rate` more before their first token.

mod cost;
pub mod disagg;
pub mod runs;
mod scheduler;
pub mod simulate;

use crate::analysis::{Phase, SeqGroup, Step};
use crate::error::ModelError;
use crate::kernel_time::Framework;
use crate::units::Seconds;

pub(super) use cost::StepCost;
pub(in crate::deploy) use scheduler::balance_hold;
pub use scheduler::{AdpBalance, Batching, MAX_HOLD_STEPS, MAX_SCHEDULED, Policy, Scheduler};

/// What an engine's host adds to a step beyond its kernels.
///
/// A step that carries prompt tokens runs without a CUDA graph (the engines capture decode
/// batches only: vLLM up to `max_capture_size` tokens, SGLang's and TensorRT-LLM's decode
/// graphs), so its kernels are launched one by one from Python, each after the host work of
/// the module that calls it. Such a step takes its kernels' time plus the host's: the sum,
/// not the longer of the two, since a step's host waits on its GPU inside the step (MoE
/// routing's token counts, attention metadata, the sampled tokens), so neither hides the
/// other. Fitted both ways on the development rows of NVIDIA's serving sample, the sum has
/// the smaller error for every engine (median |TTFT| + median |TPOT| error 0.671, 0.279,
/// 0.415 for TensorRT-LLM, vLLM, SGLang against 0.706, 0.338, 0.495 with the longer, each
/// with its own fitted overhead). The host time
/// per modelled kernel stands for its launch and the Python and small kernels around it
/// that the operator list does not model (norms, rotary embedding, routing), so it is tens
/// of microseconds, not a bare launch's few. Between steps the GPU waits for the engine's
/// scheduling, sampling and output processing. Neither is in the kernel tables; both are
/// fitted per engine by `rooflinr validate --serving --fit` ([`HostOverhead::fitted`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostOverhead {
    /// Host time per modelled kernel launched in a step without a CUDA graph.
    pub launch: Seconds,
    /// Host time per step the GPU waits for.
    pub step: Seconds,
    /// The API server's time before a request reaches the scheduler (HTTP, chat template,
    /// tokenisation), in every request's time to first token.
    pub request: Seconds,
}

impl HostOverhead {
    /// None: the kernels alone (the bound, and what the kernel tables measure).
    pub const NONE: HostOverhead = HostOverhead {
        launch: Seconds(0.0),
        step: Seconds(0.0),
        request: Seconds(0.0),
    };

    /// The host overhead `framework` shows in NVIDIA's measured serving sample
    /// ([`HOST_OVERHEADS`]), or none where it was not fitted.
    pub fn fitted(framework: Framework) -> HostOverhead {
        HOST_OVERHEADS
            .iter()
            .find(|(f, _)| *f == framework)
            .map_or(HostOverhead::NONE, |(_, h)| *h)
    }

    /// A step's time from its kernels' time and launches, `eager` when it carries prompt
    /// tokens: `kernels + launch x launches` (eager) `+ step`.
    pub fn step_time(&self, kernels: Seconds, launches: f64, eager: bool) -> Seconds {
        let launched = if eager {
            self.launch * launches
        } else {
            Seconds(0.0)
        };
        kernels + launched + self.step
    }

    /// Refuses a negative or non-finite time.
    pub fn validate(&self) -> Result<(), ModelError> {
        for (field, v) in [
            ("host.launch", self.launch),
            ("host.step", self.step),
            ("host.request", self.request),
        ] {
            if !(v.get() >= 0.0 && v.get().is_finite()) {
                return Err(ModelError::invalid(
                    field,
                    format!("must be 0 or more seconds, got {}", v.get()),
                ));
            }
        }
        Ok(())
    }
}

/// Where [`HOST_OVERHEADS`] come from.
pub const HOST_OVERHEAD_SOURCE: &str = "fitted by `rooflinr validate --serving --fit` on the development rows (Llama-3.1-70B, DeepSeek-R1) of NVIDIA's measured serving sample (PyPI aiconfigurator-core 0.12.0, Apache-2.0), judged on the held-out (Llama-3.1-8B, DeepSeek-V3, Qwen3-235B-A22B, Kimi-K2.5, MiniMax-M2.5, gpt-oss-120b) and frozen (Qwen3-32B) rows";

/// Each engine's host overhead, fitted ([`HOST_OVERHEAD_SOURCE`]); the lines `rooflinr
/// validate --serving --fit` prints.
pub const HOST_OVERHEADS: [(Framework, HostOverhead); 3] = [
    (
        Framework::TensorRtLlm,
        HostOverhead {
            step: Seconds(0e0),
            launch: Seconds(3e-5),
            ..HostOverhead::NONE
        },
    ),
    (
        Framework::Vllm,
        HostOverhead {
            step: Seconds(1.25e-3),
            launch: Seconds(4e-5),
            ..HostOverhead::NONE
        },
    ),
    (
        Framework::Sglang,
        HostOverhead {
            step: Seconds(1.5e-3),
            launch: Seconds(8e-5),
            ..HostOverhead::NONE
        },
    ),
];

/// How far the calibrated in-flight figures were from NVIDIA's measured serving runs of one
/// device and engine, on the rows nothing was fitted or chosen on (the held-out and frozen
/// parts of `rooflinr validate --serving`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ServingError {
    /// The device's registry key.
    pub hardware: &'static str,
    /// The engine.
    pub framework: Framework,
    /// Measured runs compared.
    pub rows: u32,
    /// Median |predicted / measured - 1| of the time to first token, percent.
    pub ttft_median_pct: f64,
    /// The same of the time per output token, percent.
    pub tpot_median_pct: f64,
}

/// The calibrated in-flight error by device and engine ([`ServingError`]); the lines
/// `rooflinr validate --serving --errors` prints, checked by `--check`.
pub const SERVING_ERRORS: &[ServingError] = &[
    ServingError {
        hardware: "b200",
        framework: Framework::TensorRtLlm,
        rows: 189,
        ttft_median_pct: 24.2,
        tpot_median_pct: 29.4,
    },
    ServingError {
        hardware: "b200",
        framework: Framework::Vllm,
        rows: 458,
        ttft_median_pct: 31.8,
        tpot_median_pct: 16.0,
    },
    ServingError {
        hardware: "b200",
        framework: Framework::Sglang,
        rows: 321,
        ttft_median_pct: 50.4,
        tpot_median_pct: 12.4,
    },
    ServingError {
        hardware: "b300",
        framework: Framework::Vllm,
        rows: 132,
        ttft_median_pct: 24.5,
        tpot_median_pct: 11.5,
    },
    ServingError {
        hardware: "b300",
        framework: Framework::Sglang,
        rows: 113,
        ttft_median_pct: 43.0,
        tpot_median_pct: 27.8,
    },
    ServingError {
        hardware: "gb200",
        framework: Framework::TensorRtLlm,
        rows: 21,
        ttft_median_pct: 38.1,
        tpot_median_pct: 66.2,
    },
    ServingError {
        hardware: "h100-sxm",
        framework: Framework::TensorRtLlm,
        rows: 489,
        ttft_median_pct: 32.5,
        tpot_median_pct: 11.9,
    },
    ServingError {
        hardware: "h100-sxm",
        framework: Framework::Vllm,
        rows: 192,
        ttft_median_pct: 39.0,
        tpot_median_pct: 13.0,
    },
    ServingError {
        hardware: "h100-sxm",
        framework: Framework::Sglang,
        rows: 84,
        ttft_median_pct: 30.6,
        tpot_median_pct: 13.9,
    },
    ServingError {
        hardware: "h200",
        framework: Framework::TensorRtLlm,
        rows: 127,
        ttft_median_pct: 32.2,
        tpot_median_pct: 10.3,
    },
    ServingError {
        hardware: "h200",
        framework: Framework::Vllm,
        rows: 212,
        ttft_median_pct: 31.9,
        tpot_median_pct: 74.7,
    },
    ServingError {
        hardware: "h200",
        framework: Framework::Sglang,
        rows: 130,
        ttft_median_pct: 40.4,
        tpot_median_pct: 26.9,
    },
];

/// The measured error of `framework` on `hardware` ([`SERVING_ERRORS`]), where runs of both
/// were compared.
pub fn serving_error(hardware: &str, framework: Framework) -> Option<&'static ServingError> {
    SERVING_ERRORS
        .iter()
        .find(|e| e.hardware == hardware && e.framework == framework)
}

/// Speculative decoding: each step verifies `draft_tokens` drafted tokens per sequence
/// beside the one it always yields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speculation {
    /// Tokens drafted per step (MTP modules chained, or a draft model's steps).
    pub draft_tokens: u32,
    /// The chance each drafted token is accepted, given that those before it were.
    pub acceptance: f64,
}

/// Most drafted tokens per step accepted.
pub const MAX_DRAFT_TOKENS: u32 = 16;

impl Speculation {
    /// DeepSeek-V3's multi-token prediction, one module: "the acceptance rate of the second
    /// token prediction ranges between 85% and 90%" (DeepSeek-V3 technical report, arXiv
    /// 2412.19437, section 5.4.3); the lower end.
    pub const DEEPSEEK_V3_MTP: Speculation = Speculation {
        draft_tokens: 1,
        acceptance: 0.85,
    };

    /// Tokens a verify step yields per sequence on average: the first rejected draft ends
    /// the run and the target's own token is kept, so `1 + a + a^2 + ... + a^k` (Leviathan
    /// et al., ICML 2023, "Fast Inference from Transformers via Speculative Decoding").
    pub fn tokens_per_step(&self) -> f64 {
        (0..=self.draft_tokens)
            .map(|i| self.acceptance.powi(i as i32))
            .sum()
    }

    /// Refuses more than [`MAX_DRAFT_TOKENS`] drafts or an acceptance outside [0, 1].
    pub fn validate(&self) -> Result<(), ModelError> {
        if self.draft_tokens == 0 || self.draft_tokens > MAX_DRAFT_TOKENS {
            return Err(ModelError::invalid(
                "draft_tokens",
                format!("must be 1 to {MAX_DRAFT_TOKENS}, got {}", self.draft_tokens),
            ));
        }
        if !(0.0..=1.0).contains(&self.acceptance) {
            return Err(ModelError::invalid(
                "acceptance",
                format!("must be 0 to 1, got {}", self.acceptance),
            ));
        }
        Ok(())
    }
}

/// What a request asks of the engine, once its cached prefix is taken off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::deploy) struct RequestShape {
    /// Prompt tokens in all.
    pub prompt: f64,
    /// Prompt tokens found in the prefix cache: never prefilled, still attended to.
    pub cached: f64,
    /// Output tokens.
    pub output: f64,
}

impl RequestShape {
    pub(crate) fn new(prompt: u64, output: u64, prefix_hit: f64) -> RequestShape {
        let prompt = prompt as f64;
        // At least the last prompt token is computed: its logits are the first output.
        let cached = (prompt * prefix_hit).floor().min(prompt - 1.0).max(0.0);
        RequestShape {
            prompt,
            cached,
            output: output as f64,
        }
    }

    /// Prompt tokens to prefill.
    pub(crate) fn new_prompt(&self) -> f64 {
        self.prompt - self.cached
    }
}

/// The steady state of in-flight batching ([`crate::deploy::Deployment::in_flight`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InFlightState {
    /// The scheduler.
    pub scheduler: Scheduler,
    /// Requests running at once on the busiest replica.
    pub running: f64,
    /// Requests waiting for a place on it.
    pub waiting: f64,
    /// Mean time of a step (decode steps under [`Policy::PrefillFirst`]).
    pub step: Seconds,
    /// Decoding sequences per step.
    pub decode_sequences: f64,
    /// Prompt tokens per step (per prefill under [`Policy::PrefillFirst`]).
    pub prefill_tokens: f64,
    /// Steps a request's prefill takes.
    pub prefill_steps: f64,
    /// Mean time of the prefill a decode step waits for ([`Policy::PrefillFirst`]; 0 for
    /// [`Policy::Mixed`], whose steps carry the prefill).
    pub prefill_pause: Seconds,
    /// Time in the queue before the request runs.
    pub queue: Seconds,
    /// Tokens a decode step yields per sequence (1 without speculation).
    pub tokens_per_step: f64,
}

/// TTFT and TPOT of the steady state.
pub(in crate::deploy) struct SteadyServing {
    pub ttft: Seconds,
    pub tpot: Seconds,
    pub state: InFlightState,
}

/// The steady state of `clients` closed-loop clients on one attention replica that runs
/// at most `capacity` requests at once (see the module comment for every formula).
pub(in crate::deploy) fn steady(
    cost: &mut StepCost<'_>,
    scheduler: Scheduler,
    request: RequestShape,
    clients: f64,
    capacity: f64,
) -> Result<SteadyServing, ModelError> {
    let n = clients.min(capacity).max(1.0);
    let waiting = (clients - n).max(0.0);
    let a = cost.tokens_per_step();
    let decode_steps = ((request.output - 1.0) / a).ceil().max(0.0);
    let new = request.new_prompt();
    // The mean context a decoding sequence holds over its output.
    let decode_past = request.prompt + request.output / 2.0;
    let q = cost.verify_tokens();
    let budget = scheduler.budget_for(new, n, q);
    let scheduler = Scheduler {
        token_budget: budget as u64,
        ..scheduler
    };
    let decode_group = |sequences: f64| SeqGroup {
        phase: Phase::Decode,
        sequences,
        new_tokens: q,
        past: decode_past,
    };
    let (ttft, tpot, state) = match scheduler.policy {
        Policy::Mixed => {
            let mut prefill_steps: f64 = 1.0;
            let (mut rate, mut decode) = (0.0, 0.0);
            // A fixed point in the prefill steps: more decoding sequences leave less of
            // the budget for prompts; where the prompts arriving need more than the budget
            // leaves, the budget sets the rate and the rest wait. Monotone, so a few rounds
            // settle it.
            for _ in 0..16 {
                rate = n / (prefill_steps + decode_steps);
                decode = rate * decode_steps;
                let mut left = (budget - decode * q).max(1.0);
                if rate * new > left {
                    rate = left / new;
                    decode = rate * decode_steps;
                    left = (budget - decode * q).max(1.0);
                }
                prefill_steps = if scheduler.chunked_prefill {
                    (new / left).max(1.0)
                } else {
                    1.0
                };
            }
            // Prompts come whole (or in chunks of what the budget leaves), not spread over
            // steps: `k` pieces in a step, `k` the two whole numbers around the mean `m`,
            // mixed to that mean.
            let chunk = new / prefill_steps;
            let m = rate * prefill_steps;
            let (k0, f) = (m.floor(), m - m.floor());
            let mut with = |k: f64| -> Result<Seconds, ModelError> {
                let mut groups = Vec::with_capacity(2);
                if decode > 0.0 {
                    groups.push(decode_group(decode));
                }
                if k > 0.0 {
                    groups.push(SeqGroup {
                        phase: Phase::Prefill,
                        sequences: k,
                        new_tokens: chunk,
                        past: request.cached + (new - chunk) / 2.0,
                    });
                }
                if groups.is_empty() {
                    return Ok(Seconds(0.0));
                }
                cost.step(&Step {
                    groups,
                    logits: decode * q + k / prefill_steps,
                })
            };
            let (t0, t1) = (with(k0)?, with(k0 + 1.0)?);
            let tau = t0 * (1.0 - f) + t1 * f;
            // The step that carries a given request's piece: steps weighted by their pieces.
            let own = if m > 0.0 {
                (t0 * ((1.0 - f) * k0) + t1 * (f * (k0 + 1.0))) * (1.0 / m)
            } else {
                t1
            };
            let tpot = if request.output > 1.0 {
                tau * (decode_steps / (request.output - 1.0))
            } else {
                Seconds(0.0)
            };
            let rate_floor = rate.max(f64::MIN_POSITIVE);
            // Requests running but not yet given a piece of the budget wait for it.
            let unscheduled = (n - rate * (prefill_steps + decode_steps)).max(0.0);
            let queue = tau * ((waiting + unscheduled) / rate_floor);
            let held = match scheduler.adp_balance {
                Some(b) => tau * balance_hold(b, f64::from(cost.context().layout.data), rate),
                None => Seconds(0.0),
            };
            let ttft = tau + own * prefill_steps + queue + held;
            let state = InFlightState {
                scheduler,
                running: n,
                waiting: waiting + unscheduled,
                step: tau,
                decode_sequences: decode,
                prefill_tokens: rate * new,
                prefill_steps,
                prefill_pause: Seconds(0.0),
                queue,
                tokens_per_step: a,
            };
            (ttft, tpot, state)
        }
        Policy::PrefillFirst => {
            let tau_d = if decode_steps > 0.0 {
                cost.step(&Step {
                    groups: vec![decode_group(n)],
                    logits: n * q,
                })?
            } else {
                Seconds(0.0)
            };
            // `m` prompts in steps of at most the chunk size: whole prompts side by side,
            // or one prompt longer than the chunk in chunks of its own.
            let whole = new <= budget;
            let chunks_of = |m: f64| {
                if whole {
                    (m * new / budget).ceil().max(1.0)
                } else {
                    m * (new / budget).ceil()
                }
            };
            let mut prefill = |m: f64| -> Result<Seconds, ModelError> {
                let batches = chunks_of(m);
                let (group, logits) = if whole {
                    let g = SeqGroup {
                        phase: Phase::Prefill,
                        sequences: m / batches,
                        new_tokens: new,
                        past: request.cached,
                    };
                    (g, m / batches)
                } else {
                    let chunks = (new / budget).ceil();
                    let chunk = new / chunks;
                    let g = SeqGroup {
                        phase: Phase::Prefill,
                        sequences: 1.0,
                        new_tokens: chunk,
                        past: request.cached + (new - chunk) / 2.0,
                    };
                    (g, 1.0 / chunks)
                };
                let t = cost.step(&Step {
                    groups: vec![group],
                    logits,
                })?;
                Ok(t * batches)
            };
            // With a read interval `R` the engine reads the requests that arrived once every
            // `R` decode steps and prefills them together: a cycle of `R` decode steps and
            // one prefill of the `m` arrivals of a cycle. A closed-loop client's request
            // arrives just after a decode step began, at each of the cycle's steps alike,
            // so it waits `(R + 1) / 2` decode steps before the read, then the prefill of its
            // batch: itself and the others of its cycle, `1 + m` on average (arrivals of a
            // Poisson process, as the requests of many clients are; a request's own batch is
            // the size-biased one, Feller, "An Introduction to Probability Theory" vol. 2,
            // ch. I.4).
            let reads = f64::from(scheduler.recv_interval);
            let one = prefill(1.0)?;
            let (mut arrivals, mut pause) = (0.0, Seconds(0.0));
            let (mut ttft, mut tpot) = (tau_d + one, tau_d);
            for _ in 0..16 {
                let request_time = ttft + tpot * (request.output - 1.0).max(0.0);
                let lambda = n / request_time.get().max(f64::MIN_POSITIVE);
                arrivals = lambda * (tau_d * reads + pause).get();
                let batch = if arrivals >= 1.0 {
                    prefill(arrivals)?
                } else {
                    one
                };
                pause = batch * arrivals.min(1.0);
                tpot = if request.output > 1.0 {
                    (tau_d + pause * (1.0 / reads)) * (decode_steps / (request.output - 1.0))
                } else {
                    Seconds(0.0)
                };
                ttft = tau_d * ((reads + 1.0) / 2.0) + prefill(arrivals + 1.0)?;
            }
            let completions = arrivals.max(f64::MIN_POSITIVE);
            let queue = (tau_d * reads + pause) * (waiting / completions);
            let state = InFlightState {
                scheduler,
                running: n,
                waiting,
                step: tau_d,
                decode_sequences: n,
                prefill_tokens: arrivals.max(1.0) * new,
                prefill_steps: chunks_of(arrivals.max(1.0)),
                prefill_pause: pause * (1.0 / reads),
                queue,
                tokens_per_step: a,
            };
            (ttft + queue, tpot, state)
        }
    };
    // The API server's time before the request reaches the scheduler.
    let ttft = ttft + cost.context().options.host.request;
    Ok(SteadyServing { ttft, tpot, state })
}

#[cfg(test)]
mod intake_tests;
#[cfg(test)]
mod tests;
