//! A serving benchmark run from a cold start, step by step, as the engine's scheduler
//! would run it: the requests a client sends, each step's decode tokens and prompt
//! chunks, and each request's time to first token and time per output token, measured as
//! the benchmark clients measure them.
//!
//! The clients (`vllm bench serve`, SGLang's `bench_serving`, and the copy InferenceX runs,
//! `utils/bench_serving/benchmark_serving.py`):
//! - [`Clients::Concurrency`]: `--max-concurrency C --request-rate inf`: `C` requests at
//!   once from the start, each replaced when it ends, until all `requests` are sent. The
//!   first `C` prompts queue behind one another's prefill, which a steady state misses.
//! - [`Clients::Rate`]: a Poisson process of the given rate (`--request-rate`, burstiness
//!   1), from a seeded generator.
//! - Lengths: each prompt and output uniform in `[floor x L, L]` tokens
//!   (`--random-range-ratio`, `sample_uniform` in the InferenceX copy); a floor of 1 is a
//!   fixed length.
//! - TTFT is from sending a request to its first token; TPOT is `(latency - TTFT) /
//!   (output - 1)` per request (requests of one output token have none); the figures are
//!   the means over the requests, with the median and the 90th percentile.
//!
//! The engine: one attention replica (with attention data parallelism each replica serves
//! its own share of the clients, and all step together), its scheduler's rules
//! ([`super::Policy`]), at most as many requests running as its sequence cap and the KV
//! memory allow, and each step costed as the deployment model costs it (contexts rounded
//! to 64 tokens). A closed-loop client's next request reaches
//! the engine after it has begun its next step, so it waits for that step. An engine
//! that reads new requests only every few decode steps (SGLang's
//! `--scheduler-recv-interval`) sees them at its next read; TensorRT-LLM's attention-DP
//! balance holds new prompts as [`super::AdpBalance`] says, the other replicas drawn as
//! this one's statistical copies. A run of steps
//! in which nothing joins or ends is costed at its first and last step (the trapezoid
//! rule; a step's time is close to linear in the context it attends over).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::cost::{StepCost, StepKey};
use super::{Policy, RequestShape, Scheduler};
use crate::error::ModelError;
use crate::units::Seconds;

/// Who sends the requests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Clients {
    /// A closed loop of this many clients.
    Concurrency(u64),
    /// An open loop: Poisson arrivals at this many requests per second.
    Rate(f64),
}

/// A benchmark run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Benchmark {
    /// Prompt tokens per request (the most, with a floor below 1).
    pub prompt: u64,
    /// Output tokens per request (the most, with a floor below 1).
    pub output: u64,
    /// The clients.
    pub clients: Clients,
    /// Requests sent in all.
    pub requests: u64,
    /// Lengths are uniform in `[floor x length, length]` (1: fixed).
    pub length_floor: f64,
    /// The share of each prompt found in the prefix cache.
    pub prefix_hit: f64,
    /// Seeds the lengths and the arrivals.
    pub seed: u64,
}

/// Most requests one run may send.
pub const MAX_REQUESTS: u64 = 1 << 20;

impl Benchmark {
    /// Refuses no requests, more than [`MAX_REQUESTS`], empty lengths, a floor outside (0,
    /// 1], a hit outside [0, 1), and clients of no concurrency or no rate.
    pub fn validate(&self) -> Result<(), ModelError> {
        for (field, v) in [
            ("prompt", self.prompt),
            ("output", self.output),
            ("requests", self.requests),
        ] {
            if v == 0 {
                return Err(ModelError::invalid(field, "must be at least 1"));
            }
        }
        if self.requests > MAX_REQUESTS {
            return Err(ModelError::invalid(
                "requests",
                format!("{} exceeds {MAX_REQUESTS}", self.requests),
            ));
        }
        if !(self.length_floor > 0.0 && self.length_floor <= 1.0) {
            return Err(ModelError::invalid(
                "length_floor",
                format!("must be in (0, 1], got {}", self.length_floor),
            ));
        }
        if !(0.0..1.0).contains(&self.prefix_hit) {
            return Err(ModelError::invalid(
                "prefix_hit",
                format!("must be in [0, 1), got {}", self.prefix_hit),
            ));
        }
        match self.clients {
            Clients::Concurrency(0) => {
                Err(ModelError::invalid("concurrency", "must be at least 1"))
            }
            Clients::Rate(r) if !(r > 0.0 && r.is_finite()) => Err(ModelError::invalid(
                "rate",
                format!("must be a positive number of requests per second, got {r}"),
            )),
            _ => Ok(()),
        }
    }
}

/// Mean, median and 90th percentile of a latency over the requests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Latency {
    /// The mean.
    pub mean: Seconds,
    /// The median.
    pub median: Seconds,
    /// The 90th percentile.
    pub p90: Seconds,
}

impl Latency {
    fn of(mut values: Vec<f64>) -> Latency {
        if values.is_empty() {
            return Latency {
                mean: Seconds(0.0),
                median: Seconds(0.0),
                p90: Seconds(0.0),
            };
        }
        values.sort_by(f64::total_cmp);
        // Linear between the closest ranks, as numpy's default percentile.
        let at = |q: f64| crate::stats::quantile(&values, q).unwrap_or(0.0);
        Latency {
            mean: Seconds(values.iter().sum::<f64>() / values.len() as f64),
            median: Seconds(at(0.5)),
            p90: Seconds(at(0.9)),
        }
    }
}

/// What a run measured, on one replica.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchmarkRun {
    /// Requests the replica served.
    pub requests: u64,
    /// Time to first token.
    pub ttft: Latency,
    /// Time per output token.
    pub tpot: Latency,
    /// From the first request sent to the last token.
    pub duration: Seconds,
    /// Output tokens per second of the replica.
    pub output_tokens_per_s: f64,
    /// Engine steps run.
    pub steps: u64,
    /// Distinct steps costed.
    pub distinct_steps: usize,
}

/// One request in the simulation.
#[derive(Clone, Copy, Debug)]
struct Request {
    /// When it reached the engine.
    sent: f64,
    /// The first step it may be scheduled in.
    eligible: u64,
    /// When it reaches the scheduler: sent, plus the API server's time before it
    /// ([`super::HostOverhead::request`]).
    arrives: f64,
    shape: RequestShape,
    /// Prompt tokens prefilled so far (of its new ones).
    prefilled: f64,
    /// When its first token came.
    first: f64,
    /// Decode steps the engine had run when it began decoding.
    joined: u64,
}

impl Request {
    fn left(&self) -> f64 {
        self.shape.new_prompt() - self.prefilled
    }
}

/// Runs `benchmark` on one replica whose engine runs `scheduler` and at most `capacity`
/// requests at once; `clients` and `requests` are the replica's share.
pub(in crate::deploy) fn run(
    cost: &mut StepCost<'_>,
    scheduler: Scheduler,
    benchmark: &Benchmark,
    clients: Clients,
    requests: u64,
    capacity: u64,
) -> Result<BenchmarkRun, ModelError> {
    let mut rng = ChaCha8Rng::seed_from_u64(benchmark.seed);
    let mut length = |most: u64| -> u64 {
        let least = ((most as f64 * benchmark.length_floor) as u64).max(1);
        if least >= most {
            most
        } else {
            rng.random_range(least..=most)
        }
    };
    let shapes: Vec<RequestShape> = (0..requests)
        .map(|_| {
            let prompt = length(benchmark.prompt);
            let output = length(benchmark.output);
            RequestShape::new(prompt, output, benchmark.prefix_hit)
        })
        .collect();
    let mut arrivals = VecDeque::new();
    if let Clients::Rate(rate) = clients {
        let mut t = 0.0;
        for _ in 0..requests {
            let u: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
            t += -u.ln() / rate;
            arrivals.push_back(t);
        }
    }
    let capacity = capacity.clamp(1, scheduler.max_sequences) as usize;
    let a = cost.tokens_per_step();
    let q = cost.verify_tokens();
    let most_running = match clients {
        Clients::Concurrency(c) => (c as usize).min(capacity),
        Clients::Rate(_) => capacity,
    };
    let budget = scheduler.budget_for(benchmark.prompt as f64, most_running as f64, q);

    let mut reqs: Vec<Request> = Vec::with_capacity(requests as usize);
    let mut waiting: VecDeque<usize> = VecDeque::new();
    let mut prefilling: VecDeque<usize> = VecDeque::new();
    let mut decoding: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut context_sum = 0.0;
    let (mut ttfts, mut tpots) = (Vec::new(), Vec::new());
    let (mut t, mut step_no, mut finished, mut output_tokens) = (0.0_f64, 0_u64, 0_u64, 0.0);
    // Steps that decoded: a request's tokens come one a decode step, and a step that only
    // prefills ([`Policy::PrefillFirst`]) yields none.
    let mut decoded = 0_u64;
    let delay = cost.context().options.host.request.get();
    let send = |reqs: &mut Vec<Request>, waiting: &mut VecDeque<usize>, at: f64, eligible| {
        let i = reqs.len();
        reqs.push(Request {
            sent: at,
            eligible,
            arrives: at + delay,
            shape: shapes[i],
            prefilled: 0.0,
            first: 0.0,
            joined: 0,
        });
        waiting.push_back(i);
    };
    if let Clients::Concurrency(c) = clients {
        for _ in 0..c.min(requests) {
            send(&mut reqs, &mut waiting, 0.0, 0);
        }
    }
    let decode_steps = |s: &RequestShape| ((s.output - 1.0) / a).ceil().max(0.0) as u64;
    // The engine sees the requests that had come by its last read of them: every step, or
    // with a read interval `R` at the step after a prefill, after an idle wait, or after
    // `R` decode steps ([`Scheduler::recv_interval`]).
    let every = u64::from(scheduler.recv_interval.max(1));
    let (mut read_step, mut read_time) = (0_u64, 0.0_f64);
    let (mut read_next, mut decodes_since_read) = (true, 0_u64);
    let ready = |r: &Request, read_step: u64, read_time: f64| {
        r.eligible <= read_step && r.arrives <= read_time
    };
    // TensorRT-LLM's attention-DP balance ([`super::AdpBalance`]): this replica's new
    // prompts wait until each other replica has one or the timeout passes. The other
    // replicas are this one's statistical copies: each step, one that has no new prompt
    // receives one with the chance `1 - e^-x`, `x` its expected arrivals in a step
    // (this replica's decoding requests over a request's mean decode steps in a closed
    // loop, its share of the rate times the step in an open one).
    let replicas = u64::from(cost.context().layout.data);
    let balance = scheduler.adp_balance.filter(|_| replicas > 1);
    let others = replicas.saturating_sub(1);
    let mean_decode_steps =
        shapes.iter().map(|s| decode_steps(s) as f64).sum::<f64>() / shapes.len().max(1) as f64;
    let mut others_ready = match clients {
        Clients::Concurrency(_) => others,
        Clients::Rate(_) => 0,
    };
    let (mut balance_wait, mut batching_wait) = (0_u32, 0_u32);

    while finished < requests {
        if let Clients::Rate(_) = clients {
            while arrivals.front().is_some_and(|&at| at <= t) {
                let at = arrivals.pop_front().unwrap_or(t);
                send(&mut reqs, &mut waiting, at, step_no);
            }
        }
        if read_next || decodes_since_read >= every {
            (read_step, read_time) = (step_no, t);
            // A run of decode steps may pass reads that found nothing new; the count goes
            // on from the last of them.
            decodes_since_read = if read_next {
                0
            } else {
                decodes_since_read % every
            };
            read_next = false;
        }
        // Compose the step.
        let decode = decoding.len();
        let running = decode + prefilling.len();
        let held = match balance {
            None => false,
            Some(b) => {
                let ours = running < capacity
                    && waiting
                        .front()
                        .is_some_and(|&i| ready(&reqs[i], read_step, read_time));
                let hold = if ours && others_ready == others {
                    balance_wait = 0;
                    if decode > 0 && batching_wait < b.batching_wait_steps {
                        batching_wait += 1;
                        true
                    } else {
                        batching_wait = 0;
                        false
                    }
                } else {
                    balance_wait += 1;
                    !(balance_wait >= b.timeout_steps || decode == 0)
                };
                if !hold {
                    balance_wait = 0;
                    others_ready = 0;
                }
                hold
            }
        };
        let prefill_step = match scheduler.policy {
            Policy::Mixed => true,
            Policy::PrefillFirst => {
                !prefilling.is_empty()
                    || (running < capacity
                        && waiting
                            .front()
                            .is_some_and(|&i| ready(&reqs[i], read_step, read_time)))
            }
        };
        let with_decode = match scheduler.policy {
            Policy::Mixed => true,
            Policy::PrefillFirst => !prefill_step,
        };
        let mut left = if with_decode {
            budget - decode as f64 * q
        } else {
            budget
        };
        let mut chunks: Vec<(usize, f64)> = Vec::new();
        if prefill_step {
            for &i in &prefilling {
                if left < 1.0 {
                    break;
                }
                let take = reqs[i].left().min(left);
                chunks.push((i, take));
                left -= take;
            }
            let mut admitted = running;
            while let Some(&i) = waiting.front() {
                if held
                    || admitted >= capacity
                    || !ready(&reqs[i], read_step, read_time)
                    || left < 1.0
                {
                    break;
                }
                let need = reqs[i].left();
                let alone = chunks.is_empty() && (!with_decode || decode == 0);
                let take = if scheduler.chunked_prefill {
                    need.min(left)
                } else if need <= left || alone {
                    need
                } else {
                    break;
                };
                waiting.pop_front();
                prefilling.push_back(i);
                chunks.push((i, take));
                left -= take;
                admitted += 1;
            }
        }
        // Prompts left waiting after a release: the other replicas, this one's copies, are
        // left with theirs too.
        if balance.is_some()
            && !held
            && waiting
                .front()
                .is_some_and(|&i| ready(&reqs[i], read_step, read_time))
        {
            others_ready = others;
        }
        let decode_now = if with_decode { decode } else { 0 };
        if chunks.is_empty() && decode_now == 0 {
            // Idle: the next request is scheduled as soon as it arrives.
            // An idle engine reads new requests as they come.
            read_next = true;
            if let Some(&i) = waiting.front()
                && !ready(&reqs[i], read_step, read_time)
                && running < capacity
            {
                reqs[i].eligible = step_no;
                t = t.max(reqs[i].arrives);
                continue;
            }
            if let Some(&at) = arrivals.front() {
                t = t.max(at);
                continue;
            }
            return Err(ModelError::invalid(
                "requests",
                "the simulated engine stalled with requests left (a scheduler that admits none)",
            ));
        }
        let chunk_tokens: f64 = chunks.iter().map(|c| c.1).sum();
        let chunk_past = if chunks.is_empty() {
            0.0
        } else {
            chunks
                .iter()
                .map(|&(i, _)| reqs[i].shape.cached + reqs[i].prefilled)
                .sum::<f64>()
                / chunks.len() as f64
        };
        let prompts_done = chunks
            .iter()
            .filter(|&&(i, take)| take >= reqs[i].left())
            .count();
        let key = |decode_context: f64| StepKey {
            decode: decode_now as u32,
            decode_context: StepKey::grid(decode_context),
            chunks: chunks.len() as u32,
            chunk_tokens: chunk_tokens.round() as u32,
            chunk_past: StepKey::grid(chunk_past),
            prompts_done: prompts_done as u32,
        };
        let mean_context = |sum: f64| if decode > 0 { sum / decode as f64 } else { 0.0 };
        // The first step at or after `s` that begins with a read, this one decoding only.
        let next_read = |s: u64| {
            let first = step_no + every - decodes_since_read;
            if s <= first {
                first
            } else {
                first + (s - first).div_ceil(every) * every
            }
        };
        // A run of decode-only steps until the next request ends or arrives (one step at a
        // time while a balance may hold or release prompts).
        let mut steps = 1;
        if chunks.is_empty() && balance.is_none() {
            let to_end = decoding
                .peek()
                .map_or(u64::MAX, |Reverse((end, _))| end.saturating_sub(decoded));
            let to_join = waiting
                .front()
                .filter(|_| running < capacity)
                .map_or(u64::MAX, |&i| {
                    next_read(reqs[i].eligible.max(step_no + 1)) - step_no
                });
            steps = to_end.min(to_join).max(1);
        }
        // The next request to reach the scheduler ends a run at the step it comes in.
        let mut next_arrival = arrivals.front().map_or(f64::INFINITY, |at| at + delay);
        if running < capacity
            && let Some(&i) = waiting.front()
            && reqs[i].arrives > t
        {
            next_arrival = next_arrival.min(reqs[i].arrives);
        }
        let first = cost.keyed(key(mean_context(context_sum)))?;
        let mut elapsed = first * steps as f64;
        if steps > 1 {
            let grown = context_sum + decode as f64 * a * (steps - 1) as f64;
            let last = cost.keyed(key(mean_context(grown)))?;
            elapsed = (first + last) * (steps as f64 / 2.0);
        }
        if steps > 1 && t + elapsed.get() > next_arrival {
            let tau = elapsed.get() / steps as f64;
            let came = step_no + ((next_arrival - t) / tau).ceil() as u64;
            steps = (next_read(came) - step_no).clamp(1, steps);
            elapsed = Seconds(tau * steps as f64);
        }
        if chunks.is_empty() {
            decodes_since_read += steps;
        } else {
            read_next = true;
        }
        if balance.is_some() && others_ready < others {
            let expected = match clients {
                Clients::Concurrency(_) => decode as f64 / mean_decode_steps.max(1.0),
                Clients::Rate(r) => r * elapsed.get(),
            };
            let miss = (-expected).exp();
            let without = others - others_ready;
            others_ready += (0..without).filter(|_| rng.random::<f64>() >= miss).count() as u64;
        }
        t += elapsed.get();
        step_no += steps;
        if with_decode {
            decoded += steps;
        }
        if with_decode {
            context_sum += decode as f64 * a * steps as f64;
        }
        // Prompts that ended begin decoding with their first token.
        for (i, take) in chunks {
            let r = &mut reqs[i];
            r.prefilled += take;
            if r.left() < 0.5 {
                r.first = t;
                r.joined = decoded;
                ttfts.push(t - r.sent);
                prefilling.retain(|&j| j != i);
                let end = decoded + decode_steps(&r.shape);
                decoding.push(Reverse((end, i)));
                context_sum += r.shape.prompt + 1.0;
            }
        }
        // Requests whose last token came end (one of a single output token ends with its
        // first); a closed-loop client sends its next.
        while decoding
            .peek()
            .is_some_and(|Reverse((end, _))| *end <= decoded)
        {
            let Some(Reverse((end, i))) = decoding.pop() else {
                break;
            };
            let r = reqs[i];
            context_sum -= r.shape.prompt + 1.0 + a * (end - r.joined) as f64;
            if r.shape.output > 1.0 {
                tpots.push((t - r.first) / (r.shape.output - 1.0));
            }
            output_tokens += r.shape.output;
            finished += 1;
            if matches!(clients, Clients::Concurrency(_)) && (reqs.len() as u64) < requests {
                send(&mut reqs, &mut waiting, t, step_no + 1);
            }
        }
    }
    Ok(BenchmarkRun {
        requests,
        ttft: Latency::of(ttfts),
        tpot: Latency::of(tpots),
        duration: Seconds(t),
        output_tokens_per_s: output_tokens / t.max(f64::MIN_POSITIVE),
        steps: step_no,
        distinct_steps: cost.memo_len(),
    })
}
