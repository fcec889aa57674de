//! Disaggregated serving: prefill workers and decode workers, each with its own layout,
//! the KV cache of every prompt sent from one to the other (Zhong et al., OSDI 2024
//! "DistServe"; Patel et al., ISCA 2024 "Splitwise"; NVIDIA Dynamo, SGLang and vLLM run it
//! so), in the steady state of a closed loop of `C` clients, and the search over both
//! sides' layouts and their ratio.
//!
//! The formulas, each where it is computed:
//! - A prefill worker runs prefill-only steps of the prompts waiting, up to its token
//!   budget; a decode worker runs decode-only steps of its share of the running requests.
//! - The KV cache of a prompt ([`crate::analysis::kv_cache_bytes`] of its `P` tokens) goes
//!   from the prefill worker's GPUs to the decode worker's, each GPU sending its part: over
//!   the scale-up fabric when both workers fit in one domain (GB200 NVL72), else the
//!   network, at each link's bandwidth per GPU, plus one latency.
//! - Unqueued, a prompt waits for half the prefill step running on average, then its own:
//!   `TTFT0 = 1.5 tau_p(m)` + transfer. Requests then complete at `C / (TTFT0 + (O - 1)
//!   TPOT)` (Little's law). Each prefill worker takes `lambda / Np` prompts per second; a
//!   step batches those that arrived during the last one (`m`, at least one, at most the
//!   budget holds), so its utilisation is `rho = lambda tau_p(m) / (m Np)`.
//! - A closed loop completes no faster than its slowest side allows (the asymptotic bound
//!   of a closed queueing network, `X(N) <= min(N / (D + Z), 1 / D_max)`: Lazowska et al.,
//!   "Quantitative System Performance", 1984, ch. 5): the prefill side's full batches
//!   (`Np m_max / tau_p(m_max)` prompts/s) or the decode side's memory (every decode
//!   replica holding all the requests it can). At that bound the clients' other requests
//!   queue, and Little's law gives the first token's wait: `TTFT = C / lambda - (O - 1)
//!   TPOT`.
//! - Each decode worker holds `lambda (O - 1) TPOT / Nd` requests; TPOT is its decode step.

use super::cost::StepCost;
use super::{HostOverhead, RequestShape, Scheduler};
use crate::analysis::{Phase, Scenario, SeqGroup, Step, kv_cache_bytes};
use crate::config::ModelConfig;
use crate::deploy::{Context, DeployOptions, Layout, MAX_GPUS, Serving, Workload};
use crate::error::ModelError;
use crate::hardware::Hardware;
use crate::roofline::Efficiency;
use crate::units::{Bytes, Seconds};

/// Prefill workers and decode workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Disaggregated {
    /// One prefill worker's layout.
    pub prefill: Layout,
    /// Prefill workers.
    pub prefill_workers: u32,
    /// One decode worker's layout.
    pub decode: Layout,
    /// Decode workers.
    pub decode_workers: u32,
}

impl Disaggregated {
    /// GPUs in all.
    pub fn gpus(&self) -> u32 {
        self.prefill.gpus() * self.prefill_workers + self.decode.gpus() * self.decode_workers
    }

    fn validate(&self, config: &ModelConfig) -> Result<(), ModelError> {
        self.prefill.validate(config)?;
        self.decode.validate(config)?;
        if self.prefill_workers == 0 || self.decode_workers == 0 {
            return Err(ModelError::invalid(
                "workers",
                "a disaggregated deployment needs at least one prefill and one decode worker",
            ));
        }
        if u64::from(self.prefill.gpus()) * u64::from(self.prefill_workers)
            + u64::from(self.decode.gpus()) * u64::from(self.decode_workers)
            > u64::from(MAX_GPUS)
        {
            return Err(ModelError::invalid(
                "gpus",
                format!("the workers' GPUs exceed {MAX_GPUS}"),
            ));
        }
        Ok(())
    }
}

impl std::fmt::Display for Disaggregated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}P ({}) + {}D ({})",
            self.prefill_workers, self.prefill, self.decode_workers, self.decode
        )
    }
}

/// The steady state of a disaggregated deployment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisaggregatedServing {
    /// The serving figures (tokens/s per GPU over all the workers' GPUs).
    pub serving: Serving,
    /// A prompt's KV cache sent to its decode worker.
    pub transfer: Seconds,
    /// Its bytes.
    pub transfer_bytes: Bytes,
    /// Prompts a prefill step carries.
    pub prefill_batch: f64,
    /// The prefill step.
    pub prefill_step: Seconds,
    /// How busy the prefill workers are (1: they set the rate).
    pub prefill_utilisation: f64,
    /// Requests each decode worker holds.
    pub decode_batch: f64,
    /// Prompts per second all the prefill workers could take, at full batches.
    pub prefill_capacity: f64,
}

/// One side's costs.
struct Side<'a> {
    cost: StepCost<'a>,
    capacity: f64,
}

impl<'a> Side<'a> {
    fn new(
        config: &'a ModelConfig,
        hardware: &'a Hardware,
        scenario: &'a Scenario,
        efficiency: &'a Efficiency,
        layout: Layout,
        options: &'a DeployOptions,
        workload: Workload,
    ) -> Side<'a> {
        let cx = Context {
            config,
            hardware,
            efficiency,
            layout,
            options,
        };
        let end = workload.prompt + workload.output;
        let capacity =
            cx.max_concurrency(scenario, workload.prompt, end) as f64 / f64::from(layout.data);
        Side {
            cost: StepCost::new(cx, scenario, options.speculation),
            capacity,
        }
    }

    /// A prefill step of `m` whole prompts (per replica) of `request`.
    fn prefill(&mut self, m: f64, request: &RequestShape) -> Result<Seconds, ModelError> {
        self.cost.step(&Step {
            groups: vec![SeqGroup {
                phase: Phase::Prefill,
                sequences: m,
                new_tokens: request.new_prompt(),
                past: request.cached,
            }],
            logits: m,
        })
    }

    /// A decode step of `n` requests (per replica) at the mean context.
    fn decode(&mut self, n: f64, request: &RequestShape) -> Result<Seconds, ModelError> {
        let q = self.cost.verify_tokens();
        let t = self.cost.step(&Step {
            groups: vec![SeqGroup {
                phase: Phase::Decode,
                sequences: n.max(1e-9),
                new_tokens: q,
                past: request.prompt + request.output / 2.0,
            }],
            logits: n * q,
        })?;
        Ok(t * (1.0 / self.cost.tokens_per_step()))
    }
}

/// The KV cache of one prompt of `prompt` tokens and the time to send it between the two
/// workers of `d` (see the module comment).
pub fn kv_transfer(
    config: &ModelConfig,
    hardware: &Hardware,
    scenario: &Scenario,
    d: &Disaggregated,
    prompt: u64,
    options: &DeployOptions,
) -> Result<(Bytes, Seconds), ModelError> {
    let bytes = kv_cache_bytes(config, scenario.precision.kv, prompt);
    let ic = hardware.interconnect.as_ref().ok_or_else(|| {
        ModelError::invalid(
            "interconnect",
            format!(
                "{} has no published interconnect to send the KV cache over",
                hardware.name
            ),
        )
    })?;
    let span = d.prefill.gpus() + d.decode.gpus();
    let link = ic.link_for(span).ok_or_else(|| {
        ModelError::invalid(
            "interconnect",
            format!(
                "the workers span {span} GPUs, beyond {}'s {}-GPU domain, and no network bandwidth is known",
                hardware.name, ic.domain.value
            ),
        )
    })?;
    let latency = if span <= ic.domain.value {
        options.comm.scale_up_latency
    } else {
        options.comm.scale_out_latency
    };
    let senders = f64::from(d.prefill.gpus().min(d.decode.gpus()));
    let rate = link.bandwidth.value.get() * options.comm.bandwidth_efficiency * senders;
    Ok((bytes, latency + Seconds(bytes.get() / rate)))
}

/// The steady state of `workload.concurrency` closed-loop clients on `d`.
pub fn evaluate_disaggregated(
    config: &ModelConfig,
    hardware: &Hardware,
    scenario: &Scenario,
    efficiency: &Efficiency,
    d: &Disaggregated,
    workload: Workload,
    options: &DeployOptions,
) -> Result<DisaggregatedServing, ModelError> {
    d.validate(config)?;
    let mut prefill = Side::new(
        config, hardware, scenario, efficiency, d.prefill, options, workload,
    );
    let mut decode = Side::new(
        config, hardware, scenario, efficiency, d.decode, options, workload,
    );
    if prefill.capacity < 1.0 || decode.capacity < 1.0 {
        return Err(ModelError::invalid(
            "memory",
            "a worker's weights and one request's KV cache do not fit in its GPUs",
        ));
    }
    let request = RequestShape::new(workload.prompt, workload.output, options.prefix_hit);
    let (transfer_bytes, transfer) =
        kv_transfer(config, hardware, scenario, d, workload.prompt, options)?;
    let scheduler = match options.batching {
        super::Batching::InFlight(s) => s,
        super::Batching::Static => {
            return Err(ModelError::invalid(
                "batching",
                "disaggregated workers run in-flight batching; static batching has none",
            ));
        }
    };
    steady(
        &mut prefill,
        &mut decode,
        d,
        scheduler,
        request,
        workload,
        transfer,
        transfer_bytes,
        options.host,
    )
}

#[allow(clippy::too_many_arguments)]
fn steady(
    prefill: &mut Side<'_>,
    decode: &mut Side<'_>,
    d: &Disaggregated,
    scheduler: Scheduler,
    request: RequestShape,
    workload: Workload,
    transfer: Seconds,
    transfer_bytes: Bytes,
    host: HostOverhead,
) -> Result<DisaggregatedServing, ModelError> {
    let c = workload.concurrency as f64;
    let (p_workers, d_workers) = (f64::from(d.prefill_workers), f64::from(d.decode_workers));
    let (p_dp, d_dp) = (f64::from(d.prefill.data), f64::from(d.decode.data));
    let new = request.new_prompt();
    // Prompts a prefill replica's step can hold: whole prompts up to its budget, and not
    // more than its memory holds.
    let budget = scheduler.budget_for(new, 0.0, 1.0);
    let most = (budget / new).floor().clamp(1.0, prefill.capacity.max(1.0));
    let full = prefill.prefill(most, &request)?;
    let prefill_capacity = p_workers * p_dp * most / full.get();
    let output = request.output;
    let decoding_steps = (output - 1.0).max(0.0);
    // The most requests the decode side holds, and the rate at which they finish then.
    let decode_slots = d_workers * d_dp * decode.capacity;
    let decode_full = if output > 1.0 {
        decode.decode(decode.capacity, &request)?
    } else {
        Seconds(0.0)
    };
    let decode_capacity = if output > 1.0 {
        decode_slots / (decoding_steps * decode_full.get())
    } else {
        f64::INFINITY
    };
    let rate_limit = prefill_capacity.min(decode_capacity);
    let mut tpot = decode.decode(1.0, &request)?;
    let mut unqueued = transfer + full * 1.5 + host.request;
    let (mut m, mut step, mut rho, mut per_decode) = (1.0, full, 0.0, 1.0);
    let mut lambda = 0.0;
    for _ in 0..32 {
        let request_time = unqueued + tpot * decoding_steps;
        lambda = (c / request_time.get().max(f64::MIN_POSITIVE)).min(rate_limit);
        // Prompts per prefill replica per second, batched per step.
        let per_replica = lambda / (p_workers * p_dp);
        m = most;
        step = full;
        if lambda < prefill_capacity {
            m = 1.0;
            for _ in 0..8 {
                step = prefill.prefill(m, &request)?;
                m = (per_replica * step.get()).clamp(1.0, most);
            }
            step = prefill.prefill(m, &request)?;
        }
        rho = (per_replica * step.get() / m).min(1.0);
        // Requests decoding on each decode replica, at most what its memory holds.
        per_decode =
            (lambda * decoding_steps * tpot.get() / (d_workers * d_dp)).clamp(1.0, decode.capacity);
        tpot = if output > 1.0 {
            decode.decode(per_decode, &request)?
        } else {
            Seconds(0.0)
        };
        unqueued = step * 1.5 + transfer + host.request;
    }
    // At the slower side's bound the other requests wait (Little's law); below it, none do.
    let ttft = if lambda >= rate_limit * (1.0 - 1e-9) {
        Seconds((c / lambda - decoding_steps * tpot.get()).max(unqueued.get()))
    } else {
        unqueued
    };
    let request_time = ttft + tpot * (output - 1.0).max(0.0);
    let gpus = f64::from(d.gpus());
    Ok(DisaggregatedServing {
        serving: Serving {
            concurrency: workload.concurrency,
            ttft,
            tpot,
            request_time,
            tokens_per_s_per_user: if tpot.get() > 0.0 {
                1.0 / tpot.get()
            } else {
                0.0
            },
            tokens_per_s_per_gpu: c * output / request_time.get() / gpus,
            decode_tokens_per_s_per_gpu: per_decode * d_workers * d_dp
                / tpot.get().max(f64::MIN_POSITIVE)
                / f64::from(d.decode.gpus() * d.decode_workers),
        },
        transfer,
        transfer_bytes,
        prefill_batch: m,
        prefill_step: step,
        prefill_utilisation: rho,
        decode_batch: per_decode,
        prefill_capacity,
    })
}

/// What [`search_disaggregated`] searches.
#[derive(Clone, Debug, PartialEq)]
pub struct DisaggregatedSpace {
    /// The GPU budget over both sides.
    pub max_gpus: u32,
    /// Prompt tokens per request.
    pub prompt: u64,
    /// Output tokens per request.
    pub output: u64,
    /// Slowest acceptable output speed per user, tokens/s.
    pub min_tokens_per_user: f64,
    /// Longest acceptable time to first token (`None`: any).
    pub max_ttft: Option<Seconds>,
}

/// One disaggregated deployment at one decode batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisaggregatedPoint {
    /// The workers.
    pub deployment: Disaggregated,
    /// Requests in flight over the whole deployment.
    pub concurrency: u64,
    /// Requests on each decode replica.
    pub decode_batch: u64,
    /// Output tokens per second per GPU, both sides' GPUs counted.
    pub tokens_per_s_per_gpu: f64,
    /// Output tokens per second one user sees.
    pub tokens_per_s_per_user: f64,
    /// Time to first token: a prefill step and the transfer.
    pub ttft: Seconds,
}

/// The result of a disaggregated search.
#[derive(Clone, Debug, PartialEq)]
pub struct DisaggregatedSearch {
    /// Combinations of both sides' layouts, decode batches and worker counts weighed.
    pub evaluated: usize,
    /// The most tokens/s per GPU at the per-user floor and TTFT limit.
    pub best: Option<DisaggregatedPoint>,
    /// The Pareto front of tokens/s per GPU against tokens/s per user (within the TTFT
    /// limit), fastest per user first.
    pub pareto: Vec<DisaggregatedPoint>,
}

/// Searches prefill and decode layouts and their ratio at a GPU budget, by rate matching:
/// for each decode layout and batch, the prefill workers that keep up with the rate its
/// decode workers finish requests at (`ceil(lambda / prefill capacity)`), so no side
/// waits on the other; every count of decode workers the budget holds. The front's
/// figures are each deployment's steady state ([`evaluate_disaggregated`]) at the
/// concurrency the match found.
pub fn search_disaggregated(
    config: &ModelConfig,
    hardware: &Hardware,
    scenario: &Scenario,
    efficiency: &Efficiency,
    space: &DisaggregatedSpace,
    options: &DeployOptions,
) -> Result<DisaggregatedSearch, ModelError> {
    if space.max_gpus < 2 || space.max_gpus > MAX_GPUS {
        return Err(ModelError::invalid(
            "max_gpus",
            format!(
                "must be 2 to {MAX_GPUS} (a prefill and a decode worker), got {}",
                space.max_gpus
            ),
        ));
    }
    if space.prompt == 0 || space.output == 0 {
        return Err(ModelError::invalid(
            "prompt",
            "prompt and output must be at least 1 token",
        ));
    }
    let workload = Workload {
        prompt: space.prompt,
        output: space.output,
        concurrency: 1,
    };
    let request = RequestShape::new(space.prompt, space.output, options.prefix_hit);
    let scheduler = match options.batching {
        super::Batching::InFlight(s) => s,
        super::Batching::Static => {
            return Err(ModelError::invalid(
                "batching",
                "disaggregated workers run in-flight batching; static batching has none",
            ));
        }
    };
    let budget = scheduler.budget_for(request.new_prompt(), 0.0, 1.0);
    let mut layouts = Vec::new();
    for gpus in crate::deploy::search::default_gpu_counts(hardware, space.max_gpus - 1) {
        layouts.extend(crate::deploy::search::layouts(config, gpus));
    }
    // Prefill side: prompts per second per worker at full batches, and one prompt's step.
    struct PrefillSide {
        layout: Layout,
        per_worker: f64,
        alone: Seconds,
    }
    let mut prefills = Vec::new();
    // Decode side: (layout, batch per replica, TPOT).
    let mut decodes: Vec<(Layout, u64, Seconds)> = Vec::new();
    for &layout in &layouts {
        let mut side = Side::new(
            config, hardware, scenario, efficiency, layout, options, workload,
        );
        if side.capacity < 1.0 {
            continue;
        }
        let most = (budget / request.new_prompt())
            .floor()
            .clamp(1.0, side.capacity);
        let (Ok(full), Ok(alone)) = (side.prefill(most, &request), side.prefill(1.0, &request))
        else {
            continue;
        };
        prefills.push(PrefillSide {
            layout,
            per_worker: f64::from(layout.data) * most / full.get(),
            alone,
        });
        let mut batch = 1u64;
        while (batch as f64) <= side.capacity {
            if let Ok(t) = side.decode(batch as f64, &request) {
                decodes.push((layout, batch, t));
            }
            batch *= 2;
        }
    }
    // For each decode layout and batch (one speed per user), the prefill side and worker
    // counts that give the most tokens/s per GPU within the TTFT limit: only that one can
    // be on the front.
    let allowed = |ttft: Seconds| space.max_ttft.is_none_or(|limit| ttft.get() <= limit.get());
    let mut points: Vec<DisaggregatedPoint> = Vec::new();
    let mut evaluated = 0;
    let o = (space.output as f64 - 1.0).max(1.0);
    for &(dl, batch, tpot) in &decodes {
        // Requests each decode worker finishes per second.
        let finishing = f64::from(dl.data) * batch as f64 / (o * tpot.get());
        let mut best: Option<DisaggregatedPoint> = None;
        for p in &prefills {
            for dw in 1..=space.max_gpus / dl.gpus() {
                let lambda = finishing * f64::from(dw);
                let pw = (lambda / p.per_worker).ceil().max(1.0) as u32;
                let d = Disaggregated {
                    prefill: p.layout,
                    prefill_workers: pw,
                    decode: dl,
                    decode_workers: dw,
                };
                if d.gpus() > space.max_gpus {
                    break;
                }
                evaluated += 1;
                let per_gpu = lambda * space.output as f64 / f64::from(d.gpus());
                if best.is_some_and(|b| b.tokens_per_s_per_gpu >= per_gpu) {
                    continue;
                }
                let Ok((_, transfer)) =
                    kv_transfer(config, hardware, scenario, &d, space.prompt, options)
                else {
                    break;
                };
                let ttft = p.alone * 1.5 + transfer + options.host.request;
                if !allowed(ttft) {
                    continue;
                }
                best = Some(DisaggregatedPoint {
                    deployment: d,
                    concurrency: (lambda * (ttft + tpot * o).get()).round() as u64,
                    decode_batch: batch,
                    tokens_per_s_per_gpu: per_gpu,
                    tokens_per_s_per_user: 1.0 / tpot.get(),
                    ttft,
                });
            }
        }
        points.extend(best);
    }
    // The rate-matching estimate chooses the front; its points' figures are then each
    // deployment's steady state at its concurrency ([`evaluate_disaggregated`], what the
    // deployment gives when it is taken), and the front is drawn again on those.
    let steady_front: Vec<DisaggregatedPoint> = pareto_front(points)
        .into_iter()
        .filter_map(|p| {
            let w = Workload {
                concurrency: p.concurrency.max(1),
                ..workload
            };
            let r = evaluate_disaggregated(
                config,
                hardware,
                scenario,
                efficiency,
                &p.deployment,
                w,
                options,
            )
            .ok()?;
            Some(DisaggregatedPoint {
                concurrency: w.concurrency,
                decode_batch: r.decode_batch.round().max(1.0) as u64,
                tokens_per_s_per_gpu: r.serving.tokens_per_s_per_gpu,
                tokens_per_s_per_user: r.serving.tokens_per_s_per_user,
                ttft: r.serving.ttft,
                ..p
            })
        })
        .filter(|p| allowed(p.ttft))
        .collect();
    let pareto = pareto_front(steady_front);
    let best = pareto
        .iter()
        .filter(|q| q.tokens_per_s_per_user >= space.min_tokens_per_user)
        .max_by(|a, b| a.tokens_per_s_per_gpu.total_cmp(&b.tokens_per_s_per_gpu))
        .copied();
    Ok(DisaggregatedSearch {
        evaluated,
        best,
        pareto,
    })
}

/// The points no other beats on both tokens/s per user and per GPU, fastest per user first.
fn pareto_front(mut points: Vec<DisaggregatedPoint>) -> Vec<DisaggregatedPoint> {
    points.sort_by(|a, b| {
        b.tokens_per_s_per_user
            .total_cmp(&a.tokens_per_s_per_user)
            .then(b.tokens_per_s_per_gpu.total_cmp(&a.tokens_per_s_per_gpu))
    });
    let mut pareto: Vec<DisaggregatedPoint> = Vec::new();
    for q in points {
        if pareto
            .last()
            .is_none_or(|l| q.tokens_per_s_per_gpu > l.tokens_per_s_per_gpu)
        {
            pareto.push(q);
        }
    }
    pareto
}
