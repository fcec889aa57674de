//! Search over layouts and formats: rank by output tokens/s per GPU at a per-user speed
//! floor, and say why each loser lost.

use crate::analysis::Scenario;
use crate::config::ModelConfig;
use crate::error::ModelError;
use crate::hardware::Hardware;
use crate::ops::Precision;
use crate::roofline::Efficiency;
use crate::units::{Bytes, Seconds};

use super::{DeployOptions, Deployment, Layout, MAX_GPUS, Workload, evaluate};

/// What to search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSpace {
    /// GPU counts to try; empty: powers of two, multiples of the scale-up domain, and
    /// `max_gpus` itself, up to `max_gpus`.
    pub gpu_counts: Vec<u32>,
    /// The budget.
    pub max_gpus: u32,
    /// Formats to try (weights, activations, KV).
    pub precisions: Vec<Precision>,
    /// Prompt tokens per request.
    pub prompt: u64,
    /// Output tokens per request.
    pub output: u64,
    /// Slowest acceptable output speed per user, tokens/s.
    pub min_tokens_per_user: f64,
    /// Longest acceptable time to first token (`None`: any).
    pub max_ttft: Option<Seconds>,
}

/// Why a candidate is not first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Loss {
    /// Its weights alone exceed a GPU's memory.
    DoesNotFit {
        /// Weights on one GPU.
        weights: Bytes,
        /// A GPU's memory.
        capacity: Bytes,
    },
    /// No concurrency reaches the per-user floor.
    BelowFloor {
        /// The fastest per-user speed it reaches (one request at a time), tokens/s.
        best_tokens_per_user: f64,
    },
    /// It reaches the per-user floor only with a longer time to first token than allowed.
    TtftTooLong {
        /// Its shortest time to first token (one request at a time).
        shortest: Seconds,
    },
    /// Communication takes this share of its decode step at its best point.
    CommunicationBound {
        /// Share of the step (0 to 1).
        share: f64,
    },
    /// Its pipeline leaves this fraction of prefill idle.
    Bubble {
        /// Idle fraction (0 to 1).
        fraction: f64,
    },
    /// Its KV memory caps the batch below what the floor would allow.
    KvLimited {
        /// The most requests its memory holds.
        max_concurrency: u64,
    },
    /// It fits and meets the floor, with fewer tokens/s per GPU: more GPUs reading the
    /// same weights, or a slower format.
    LowerThroughput,
}

impl Loss {
    /// One line for a table.
    pub fn describe(&self) -> String {
        match self {
            Loss::DoesNotFit { weights, capacity } => {
                format!("does not fit: {weights} of weights per GPU, {capacity} each")
            }
            Loss::BelowFloor {
                best_tokens_per_user,
            } => format!("below the floor: {best_tokens_per_user:.1} tokens/s per user at best"),
            Loss::TtftTooLong { shortest } => {
                format!("time to first token {shortest} at best, over the limit")
            }
            Loss::CommunicationBound { share } => {
                format!(
                    "communication-bound: {:.0}% of each decode step",
                    share * 100.0
                )
            }
            Loss::Bubble { fraction } => {
                format!("pipeline bubble: {:.0}% of prefill idle", fraction * 100.0)
            }
            Loss::KvLimited { max_concurrency } => {
                format!("KV memory caps the batch at {max_concurrency} requests")
            }
            Loss::LowerThroughput => "fewer tokens/s per GPU at the floor".into(),
        }
    }
}

/// One point of a throughput-latency curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParetoPoint {
    /// The candidate it belongs to (index into [`SearchResult::candidates`]).
    pub candidate: usize,
    /// Requests served together.
    pub concurrency: u64,
    /// Output tokens/s one user sees.
    pub tokens_per_s_per_user: f64,
    /// Output tokens/s per GPU.
    pub tokens_per_s_per_gpu: f64,
}

/// One layout and format, at its best concurrency.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The layout.
    pub layout: Layout,
    /// The formats.
    pub precision: Precision,
    /// The deployment at the concurrency with the most tokens/s per GPU that meets the
    /// floor (`None` when none does or it does not fit).
    pub best: Option<Deployment>,
    /// Its curve: one point per concurrency tried.
    pub curve: Vec<ParetoPoint>,
    /// Why it is not first (`None` for the winner).
    pub loss: Option<Loss>,
}

/// Candidates ranked, and the Pareto front over all their curves.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Best first; those that fail the floor or do not fit last.
    pub candidates: Vec<Candidate>,
    /// Points no other point beats on both tokens/s per user and per GPU, fastest per
    /// user first.
    pub pareto: Vec<ParetoPoint>,
    /// Deployments evaluated.
    pub evaluated: usize,
}

pub(super) fn default_gpu_counts(hardware: &Hardware, max: u32) -> Vec<u32> {
    let Some(ic) = &hardware.interconnect else {
        return vec![1];
    };
    let domain = ic.domain.value.max(1);
    let mut counts: Vec<u32> = (0..13)
        .map(|i| 1u32 << i)
        .chain((1..=max / domain).map(|k| k * domain))
        .chain(std::iter::once(max))
        .filter(|&n| n >= 1 && n <= max)
        .collect();
    crate::sort::sort(&mut counts);
    counts.dedup();
    counts
}

/// Every valid layout on `gpus` GPUs: TP a power of two, PP any divisor, DP the rest;
/// for a mixture of experts, whole experts per GPU and experts split by columns (mixed
/// MoE TP x EP is not searched).
pub(super) fn layouts(config: &ModelConfig, gpus: u32) -> Vec<Layout> {
    let mut out = Vec::new();
    let mut t = 1;
    while t <= gpus {
        if gpus.is_multiple_of(t) {
            let rest = gpus / t;
            for p in (1..=rest).filter(|p| rest.is_multiple_of(*p)) {
                let d = rest / p;
                for whole in [false, true] {
                    let layout = Layout {
                        tensor: t,
                        pipeline: p,
                        data: d,
                        expert: 1,
                    }
                    .with_whole_experts(whole);
                    if whole && layout.stage_gpus() == 1 {
                        continue;
                    }
                    if layout.validate(config).is_ok() {
                        out.push(layout);
                    }
                }
            }
        }
        t *= 2;
    }
    out
}

/// Concurrencies tried: powers of two up to the memory's limit, and the limit.
fn concurrencies(max: u64) -> Vec<u64> {
    let mut c: Vec<u64> = (0..21).map(|i| 1u64 << i).filter(|&n| n <= max).collect();
    if max >= 1 && c.last() != Some(&max) {
        c.push(max);
    }
    c
}

/// Ranks every layout and format of `space` by output tokens/s per GPU at the floor.
pub fn search(
    config: &ModelConfig,
    hardware: &Hardware,
    base: &Scenario,
    efficiency: &Efficiency,
    space: &SearchSpace,
    options: &DeployOptions,
) -> Result<SearchResult, ModelError> {
    if space.max_gpus == 0 || space.max_gpus > MAX_GPUS {
        return Err(ModelError::invalid(
            "max_gpus",
            format!("must be 1 to {MAX_GPUS}, got {}", space.max_gpus),
        ));
    }
    if let Some(limit) = space.max_ttft
        && (limit.get().is_nan() || limit.get() <= 0.0)
    {
        return Err(ModelError::invalid(
            "max_ttft",
            format!("must be a positive time, got {} s", limit.get()),
        ));
    }
    if !(space.min_tokens_per_user >= 0.0 && space.min_tokens_per_user.is_finite()) {
        return Err(ModelError::invalid(
            "min_tokens_per_user",
            format!("must be 0 or more, got {}", space.min_tokens_per_user),
        ));
    }
    if space.precisions.is_empty() {
        return Err(ModelError::invalid("formats", "give at least one"));
    }
    let counts = if space.gpu_counts.is_empty() {
        default_gpu_counts(hardware, space.max_gpus)
    } else {
        space.gpu_counts.clone()
    };
    let mut candidates = Vec::new();
    let mut evaluated = 0;
    for &gpus in &counts {
        if gpus == 0 || gpus > space.max_gpus {
            return Err(ModelError::invalid(
                "gpus",
                format!("{gpus} is outside 1..={}", space.max_gpus),
            ));
        }
        for layout in layouts(config, gpus) {
            for precision in &space.precisions {
                let scenario = Scenario {
                    precision: *precision,
                    ..base.clone()
                };
                let probe = Workload {
                    prompt: space.prompt,
                    output: space.output,
                    concurrency: 1,
                };
                // A layout whose group crosses domains with no known network is skipped.
                let Ok(first) = evaluate(
                    config, hardware, &scenario, efficiency, layout, probe, options,
                ) else {
                    continue;
                };
                evaluated += 1;
                let index = candidates.len();
                let mut candidate = Candidate {
                    layout,
                    precision: *precision,
                    best: None,
                    curve: Vec::new(),
                    loss: None,
                };
                if first.max_concurrency == 0 {
                    candidate.loss = Some(Loss::DoesNotFit {
                        weights: first.memory.weights,
                        capacity: first.memory.capacity,
                    });
                    candidates.push(candidate);
                    continue;
                }
                for concurrency in concurrencies(first.max_concurrency) {
                    let d = if concurrency == 1 {
                        first.clone()
                    } else {
                        evaluated += 1;
                        evaluate(
                            config,
                            hardware,
                            &scenario,
                            efficiency,
                            layout,
                            Workload {
                                concurrency,
                                ..probe
                            },
                            options,
                        )?
                    };
                    let s = d.serving;
                    candidate.curve.push(ParetoPoint {
                        candidate: index,
                        concurrency,
                        tokens_per_s_per_user: s.tokens_per_s_per_user,
                        tokens_per_s_per_gpu: s.tokens_per_s_per_gpu,
                    });
                    let meets = s.tokens_per_s_per_user >= space.min_tokens_per_user
                        && space
                            .max_ttft
                            .is_none_or(|limit| s.ttft.get() <= limit.get());
                    let better = candidate
                        .best
                        .as_ref()
                        .is_none_or(|b| s.tokens_per_s_per_gpu > b.serving.tokens_per_s_per_gpu);
                    if meets && better {
                        candidate.best = Some(d);
                    }
                }
                if candidate.best.is_none() {
                    let fastest = first.serving.tokens_per_s_per_user;
                    candidate.loss = Some(if fastest < space.min_tokens_per_user {
                        Loss::BelowFloor {
                            best_tokens_per_user: fastest,
                        }
                    } else {
                        Loss::TtftTooLong {
                            shortest: first.serving.ttft,
                        }
                    });
                }
                candidates.push(candidate);
            }
        }
    }
    let pareto = pareto_front(&candidates);
    // Rank: those with a best point by tokens/s per GPU, then the rest in search order.
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    let score = |c: &Candidate| c.best.as_ref().map(|d| d.serving.tokens_per_s_per_gpu);
    crate::sort::sort_by(&mut order, |&a, &b| {
        let (sa, sb) = (score(&candidates[a]), score(&candidates[b]));
        match (sa, sb) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.cmp(&b),
        }
    });
    let mut remap = vec![0; candidates.len()];
    for (new, &old) in order.iter().enumerate() {
        remap[old] = new;
    }
    let mut slots: Vec<Option<Candidate>> = candidates.into_iter().map(Some).collect();
    let mut ranked: Vec<Candidate> = order
        .iter()
        .map(|&i| slots[i].take().expect("each candidate is moved once"))
        .collect();
    for c in &mut ranked {
        for p in &mut c.curve {
            p.candidate = remap[p.candidate];
        }
    }
    let winner = ranked.first().and_then(|c| c.best.clone());
    if let Some(w) = &winner {
        for c in ranked.iter_mut().skip(1) {
            if c.loss.is_none() {
                c.loss = Some(why_lower(c, w));
            }
        }
    }
    let pareto = pareto
        .into_iter()
        .map(|p| ParetoPoint {
            candidate: remap[p.candidate],
            ..p
        })
        .collect();
    Ok(SearchResult {
        candidates: ranked,
        pareto,
        evaluated,
    })
}

/// Why a candidate that fits and meets the floor ranks below `winner`: communication
/// (over 30 % of its decode step, and more than the winner's), its pipeline bubble (over
/// 30 % of prefill), a batch its KV memory caps below the winner's, or simply fewer
/// tokens/s per GPU.
fn why_lower(c: &Candidate, winner: &Deployment) -> Loss {
    let Some(d) = &c.best else {
        return Loss::LowerThroughput;
    };
    let share = d.decode.communication_share();
    if share > 0.3 && share > winner.decode.communication_share() {
        return Loss::CommunicationBound { share };
    }
    if d.prefill.bubble > 0.3 {
        return Loss::Bubble {
            fraction: d.prefill.bubble,
        };
    }
    if d.serving.concurrency == d.max_concurrency && d.max_concurrency < winner.serving.concurrency
    {
        return Loss::KvLimited {
            max_concurrency: d.max_concurrency,
        };
    }
    Loss::LowerThroughput
}

/// The points of all curves that no other point beats on both axes, fastest per user
/// first.
fn pareto_front(candidates: &[Candidate]) -> Vec<ParetoPoint> {
    let mut points: Vec<ParetoPoint> = candidates
        .iter()
        .flat_map(|c| c.curve.iter().copied())
        .collect();
    crate::sort::sort_by(&mut points, |a, b| {
        b.tokens_per_s_per_user
            .total_cmp(&a.tokens_per_s_per_user)
            .then(b.tokens_per_s_per_gpu.total_cmp(&a.tokens_per_s_per_gpu))
    });
    let mut front: Vec<ParetoPoint> = Vec::new();
    for p in points {
        if front
            .last()
            .is_none_or(|last| p.tokens_per_s_per_gpu > last.tokens_per_s_per_gpu)
        {
            front.push(p);
        }
    }
    front
}
