//! The words deployment mode shows beside its figures: each card's note, how far to
//! trust them, where a decode step's time goes and what the figures are. Made here, in
//! deployment mode's code, so that the page's first module carries only their drawing.

use rooflinr_model::deploy::{CommModel, Disaggregated, Layout};
use rooflinr_model::units::si;

use super::deploy::{DeployView, DisaggregatedSearchView, SearchView};
use crate::state::State;

/// The words beside a deployment's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeployWords {
    /// Under time to first token: what it is made of.
    pub ttft: String,
    /// Under time per output token: the step it is.
    pub tpot: String,
    /// Under tokens/s per user.
    pub per_user: String,
    /// Under tokens/s per GPU: per decode GPU and the GPUs counted.
    pub per_gpu: String,
    /// The memory card's label.
    pub memory_label: &'static str,
    /// Under the memory: what it holds, or why it does not fit.
    pub memory: String,
    /// How far to trust the serving figures (empty: nothing to say).
    pub trust: String,
    /// Joules per output token (empty: the device has no board power in the registry).
    pub energy: String,
    /// Under it: tokens/s per kW and the power it rests on.
    pub energy_note: String,
    /// US dollars per million output tokens (empty: no price given).
    pub cost: String,
    /// Under it: the price it rests on.
    pub cost_note: String,
    /// The decode step's heading.
    pub step_heading: String,
    /// The decode step's compute and communication in one line.
    pub step: String,
    /// What the figures are: predicted or expected, and how the engine batches.
    pub provenance: String,
    /// The decode step's collectives, a row each: what, the collective, its GPUs, the
    /// link, how many, the message, what each GPU sends, the time.
    pub comms: Vec<Vec<Cell>>,
}

/// The words of `view`.
pub(super) fn words(view: &DeployView) -> DeployWords {
    let d = &view.deployment;
    let s = view.serving();
    let l = d.layout;
    let m = d.memory;
    let capacity = m.capacity.get();
    let memory_note = if !capacity.is_finite() {
        "no capacity given for this device".to_string()
    } else if m.fits() {
        format!(
            "of {} · weights {}, KV {}, activations {} · holds up to {} requests",
            m.capacity, m.weights, m.kv_cache, m.activations, d.max_concurrency
        )
    } else {
        format!(
            "of {} · does not fit: weights {}, KV {} · add GPUs, a smaller format or fewer requests",
            m.capacity, m.weights, m.kv_cache
        )
    };
    let bubble = d.prefill.bubble;
    let (ttft_note, tpot_note) = match (&view.disaggregated, &d.in_flight) {
        (Some(x), _) => {
            let t = x.steady;
            (
                format!(
                    "a prefill step of {:.1} prompt(s) ({}), its workers {:.0} % busy{}, then the prompt's KV cache ({}) sent in {}",
                    t.prefill_batch,
                    si(t.prefill_step.get(), "s"),
                    t.prefill_utilisation * 100.0,
                    if t.prefill_utilisation >= 0.999 {
                        " (they set the rate: add prefill workers)"
                    } else {
                        ""
                    },
                    t.transfer_bytes,
                    si(t.transfer.get(), "s")
                ),
                format!(
                    "a decode-only step of {:.1} requests on each decode replica",
                    t.decode_batch
                ),
            )
        }
        (None, Some(f)) => (
            format!(
                "steady state: the step it arrives in, {}its prefill in {:.1} step(s){}",
                if f.queue.get() > 0.0 {
                    format!("{} in the queue, ", si(f.queue.get(), "s"))
                } else {
                    String::new()
                },
                f.prefill_steps,
                if f.prefill_pause.get() > 0.0 {
                    " before the next decode step"
                } else {
                    ""
                }
            ),
            format!(
                "a step of {:.1} decoding requests and {:.0} prompt tokens{}{}",
                f.decode_sequences,
                f.prefill_tokens,
                if f.prefill_pause.get() > 0.0 {
                    format!(
                        ", and {} of prefill it waits for",
                        si(f.prefill_pause.get(), "s")
                    )
                } else {
                    String::new()
                },
                if f.tokens_per_step > 1.0 {
                    format!(" · {:.2} tokens a step", f.tokens_per_step)
                } else {
                    String::new()
                }
            ),
        ),
        (None, None) => (
            format!(
                "static: prefill of {} requests together{}",
                s.concurrency,
                if bubble > 0.0 {
                    format!(", {:.0}% pipeline bubble", bubble * 100.0)
                } else {
                    String::new()
                }
            ),
            format!(
                "static: one decode step of {} requests at the mean context",
                s.concurrency
            ),
        ),
    };
    // How far to trust the serving figures: NVIDIA's measured runs of this device and
    // engine against the calibrated in-flight model, on rows nothing was fitted on.
    let trust = match (view.measured_error, d.in_flight.is_some(), d.decode.calibration.is_some()) {
        _ if view.disaggregated.is_some() => "Disaggregated figures are the steady state of the workers above; the errors shown for this device and engine elsewhere are of aggregated runs, and `rooflinr validate --serving` holds NVIDIA's disaggregated rows apart.".to_string(),
        (Some(e), true, true) => format!(
            "Held against {} of NVIDIA's measured serving runs of this device and engine (aiconfigurator-core 0.12.0's silicon sample; rows nothing was fitted on): the expected TTFT was off by a median {:.0} %, the TPOT by {:.0} % (`rooflinr validate --serving`).",
            e.rows, e.ttft_median_pct, e.tpot_median_pct
        ),
        (Some(e), true, false) => format!(
            "Tick \"expected\" for the figures held against NVIDIA's {} measured serving runs of this device and engine (median error {:.0} % on TTFT, {:.0} % on TPOT); the bound is the kernels alone at the roofline.",
            e.rows, e.ttft_median_pct, e.tpot_median_pct
        ),
        (None, true, _) => "No measured serving runs of this device and engine to hold these figures against (NVIDIA's sample covers H100, H200, B200, B300 and GB200 with TensorRT-LLM, vLLM and SGLang).".to_string(),
        (_, false, _) => String::new(),
    };
    let batching = match (&view.disaggregated, d.in_flight.is_some()) {
        (Some(_), _) => "disaggregated prefill and decode workers, steady state",
        (None, true) => "in-flight batching, steady state",
        (None, false) => "static batching",
    };
    let gpus = view.disaggregated.map_or(l.gpus(), |x| x.workers.gpus());
    let per_gpu_note = match view.disaggregated {
        Some(x) => format!(
            "{:.1} per decode GPU · {} GPUs: {}",
            s.decode_tokens_per_s_per_gpu, gpus, x.workers
        ),
        None => format!(
            "{:.1} while decoding (prefill elsewhere) · {gpus} GPUs",
            s.decode_tokens_per_s_per_gpu
        ),
    };
    let memory_label = if view.disaggregated.is_some() {
        "memory per decode GPU"
    } else {
        "memory per GPU"
    };
    let overlap_note =
        if d.decode.stage.get() < d.decode.compute.get() + d.decode.communication.get() {
            " (overlapped: the step takes the longer of the two)"
        } else {
            ""
        };
    let provenance = match d.decode.calibration {
        None => format!(
            "Predicted, not measured: each GPU's operators at the roofline bound, collectives at the links' full bandwidth plus {} per step inside a domain and {} across the network (NVIDIA's NCCL tables measure more; tick \"expected\" for the fitted terms); {batching}.",
            CommModel::default().scale_up_latency,
            CommModel::default().scale_out_latency
        ),
        Some(c) => format!(
            "Expected, not measured: {} of {} operator kinds{} and {} of {} collectives of a decode step at terms fitted on NVIDIA's measured kernel and NCCL tables, the rest at the bound (NCCL's terms are per group size, for the sizes its tables measured); {batching}.",
            c.profiled_ops,
            c.profiled_ops + c.bound_ops,
            if c.fused_moe {
                format!(" ({})", rooflinr_model::kernel_time::FUSED_MOE_NOTE)
            } else {
                String::new()
            },
            c.profiled_comms,
            c.profiled_comms + c.bound_comms
        ),
    };
    let (energy, energy_note) = match &view.energy {
        Some(e) => (
            format!("{:.3} J", e.energy.joules_per_output_token),
            format!(
                "{:.0} output tokens/s per kW · {} per request · {:.0} W per GPU: {}",
                e.energy.output_tokens_per_s_per_kw,
                si(e.energy.joules_per_request, "J"),
                e.energy.power.watts,
                e.energy.power.assumption()
            ),
        ),
        None => Default::default(),
    };
    let (cost, cost_note) = match view
        .energy
        .as_ref()
        .and_then(|e| e.dollars_per_million.zip(e.gpu_hour_price))
    {
        Some((usd, price)) => (
            format!("${usd:.3}"),
            format!("per million output tokens at ${price} per GPU-hour, the price given"),
        ),
        None => Default::default(),
    };
    DeployWords {
        energy,
        energy_note,
        cost,
        cost_note,
        ttft: ttft_note,
        tpot: tpot_note,
        per_user: format!("request done in {}", si(s.request_time.get(), "s")),
        per_gpu: per_gpu_note,
        memory_label,
        memory: memory_note,
        trust,
        step_heading: format!("Where a decode step's time goes{overlap_note}"),
        step: format!(
            "Compute {} · communication {} ({:.0}% of the step){}.",
            si(d.decode.compute.get(), "s"),
            si(d.decode.communication.get(), "s"),
            d.decode.communication_share() * 100.0,
            if l.pipeline > 1 {
                format!(" · a token passes {} stages", l.pipeline)
            } else {
                String::new()
            }
        ),
        provenance,
        comms: d
            .decode
            .comms
            .iter()
            .map(|c| {
                vec![
                    Cell::Heading(c.id.name().into()),
                    Cell::Text(c.collective.name().into()),
                    Cell::Number(c.gpus.to_string()),
                    Cell::Text(c.link.name()),
                    Cell::Number(c.count.to_string()),
                    Cell::Number(si(c.message.get(), "B")),
                    Cell::Number(si(c.sent.get(), "B")),
                    Cell::Number(si(c.time.get(), "s")),
                ]
            })
            .collect(),
    }
}

/// What taking a search's row sets in the page: a layout, or disaggregated workers, each
/// with the concurrency it was found at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Take {
    /// One layout.
    Layout(Layout, u64),
    /// Prefill and decode workers.
    Workers(Disaggregated, u64),
}

impl Take {
    /// Sets the deployment fields of `s` to this row's.
    pub fn apply(self, s: &mut State) {
        let (decode, concurrency) = match self {
            Take::Layout(l, c) => (l, c),
            Take::Workers(d, c) => {
                s.prefill_layout = d.prefill.spec();
                s.prefill_workers = d.prefill_workers.to_string();
                s.decode_workers = d.decode_workers.to_string();
                (d.decode, c)
            }
        };
        s.tp = decode.tensor.to_string();
        s.pp = decode.pipeline.to_string();
        s.dp = decode.data.to_string();
        s.ep = decode.whole_experts();
        s.concurrency = concurrency.max(1).to_string();
    }
}

/// A cell of a search's table.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// The row's name (a row header).
    Heading(String),
    /// A figure, right-aligned.
    Number(String),
    /// Words.
    Text(String),
}

/// One row of a search's table.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchLine {
    /// Its cells, in the columns' order.
    pub cells: Vec<Cell>,
    /// The search's answer (the best at the floor).
    pub chosen: bool,
    /// What its button takes (`None`: nothing to take, it did not fit).
    pub take: Option<Take>,
    /// The button's accessible name.
    pub take_label: String,
}

/// A search's result as the page lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchTable {
    /// What was searched, how long it took and what it found.
    pub summary: String,
    /// How long the search took in the browser, ms.
    pub ms: f64,
    /// The table's id.
    pub id: &'static str,
    /// Column headings (the last one, over the buttons, is read only by screen readers).
    pub columns: Vec<&'static str>,
    /// Rows, at most [`SEARCH_ROWS`].
    pub rows: Vec<SearchLine>,
    /// What was left out (empty: nothing).
    pub more: String,
}

/// Rows a search lists on the page.
pub const SEARCH_ROWS: usize = 12;

/// A layout search's table: every candidate, best first, with why it is not first.
pub fn layouts_table(v: &SearchView, ms: f64) -> SearchTable {
    let rows = v
        .rows
        .iter()
        .take(SEARCH_ROWS)
        .enumerate()
        .map(|(i, r)| {
            let l = r.layout;
            let figures = match r.best {
                Some(b) => [
                    b.concurrency.to_string(),
                    format!("{:.1}", b.tokens_per_s_per_user),
                    format!("{:.1}", b.tokens_per_s_per_gpu),
                    si(b.ttft.get(), "s"),
                    r.memory.map_or("-".into(), |m| m.to_string()),
                ],
                None => std::array::from_fn(|_| "-".to_string()),
            };
            let mut cells = vec![
                Cell::Number((i + 1).to_string()),
                Cell::Heading(l.to_string()),
                Cell::Number(l.gpus().to_string()),
            ];
            cells.extend(figures.into_iter().map(Cell::Number));
            cells.push(Cell::Text(r.loss.clone().unwrap_or_else(|| "best".into())));
            let take = r.best.map(|b| Take::Layout(l, b.concurrency));
            SearchLine {
                cells,
                chosen: i == 0,
                take,
                take_label: r.best.map_or(String::new(), |b| {
                    format!("use {l} with {} requests", b.concurrency)
                }),
            }
        })
        .collect();
    SearchTable {
        summary: format!(
            "{} deployments on up to {} GPUs at {} tokens/s per user or more, searched in {ms:.0} ms in your browser.",
            v.evaluated, v.max_gpus, v.floor
        ),
        ms,
        id: "search-results",
        columns: vec![
            "rank",
            "layout",
            "GPUs",
            "requests",
            "tokens/s per user",
            "tokens/s per GPU",
            "TTFT",
            "memory per GPU",
            "why not first",
            "take this layout",
        ],
        rows,
        more: more(
            v.rows.len(),
            "candidates; `rooflinr deploy --search` lists them all",
        ),
    }
}

/// A disaggregated search's table: its front, fastest per user first, the best at the
/// floor marked.
pub fn workers_table(v: &DisaggregatedSearchView, ms: f64) -> SearchTable {
    let rows = v
        .front
        .iter()
        .take(SEARCH_ROWS)
        .map(|p| {
            let d = p.deployment;
            let chosen = v.best == Some(*p);
            SearchLine {
                cells: vec![
                    Cell::Heading(format!("{} × {}", d.prefill_workers, d.prefill)),
                    Cell::Text(format!("{} × {}", d.decode_workers, d.decode)),
                    Cell::Number(d.gpus().to_string()),
                    Cell::Number(p.concurrency.to_string()),
                    Cell::Number(format!("{:.1}", p.tokens_per_s_per_user)),
                    Cell::Number(format!("{:.1}", p.tokens_per_s_per_gpu)),
                    Cell::Number(si(p.ttft.get(), "s")),
                    Cell::Text(if chosen { "best at the floor" } else { "" }.into()),
                ],
                chosen,
                take: Some(Take::Workers(d, p.concurrency)),
                take_label: format!("use {d} with {} requests", p.concurrency),
            }
        })
        .collect();
    let found = match v.best {
        Some(b) => format!(
            " The most tokens/s per GPU at the floor: {}, {:.1} per GPU.",
            b.deployment, b.tokens_per_s_per_gpu
        ),
        None => " None reaches the floor.".to_string(),
    };
    SearchTable {
        summary: format!(
            "{} combinations of workers on up to {} GPUs at {} tokens/s per user or more weighed in {ms:.0} ms in your browser; the front of tokens/s per GPU against per user, fastest per user first.{found}",
            v.evaluated, v.max_gpus, v.floor
        ),
        ms,
        id: "search-workers",
        columns: vec![
            "prefill workers",
            "decode workers",
            "GPUs",
            "requests",
            "tokens/s per user",
            "tokens/s per GPU",
            "TTFT",
            "",
            "take these workers",
        ],
        rows,
        more: more(
            v.front.len(),
            "on the front; `rooflinr deploy --search --disaggregated` lists them all",
        ),
    }
}

/// "N more ..." for rows past [`SEARCH_ROWS`], or nothing.
fn more(rows: usize, what: &str) -> String {
    match rows.saturating_sub(SEARCH_ROWS) {
        0 => String::new(),
        n => format!("{n} more {what}."),
    }
}
