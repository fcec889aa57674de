//! Deployment mode: a model over many GPUs. The controls (model, layout, workload), the
//! results (serving figures, what each GPU holds, where a decode step's time goes, the
//! collectives) and the layout search; the serving chart is [`super::serving`].

use std::sync::Arc;

use leptos::prelude::*;
use rooflinr_model::deploy::serving::runs::MeasuredRun;
use rooflinr_model::deploy::{self, Policy, Scheduler};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::units::si;

use super::controls::{ModelPicker, PowerSlider};
use super::fields::{CheckField, Segmented, TextField};
use super::results::Card;
use crate::browser;
use crate::chart::palette::{Palette, text_on};
use crate::compute::{
    self, Cell, DeployView, FrontPoint, ImportedRuns, LaunchText, Problem, SearchTable,
};
use crate::lab::link::{Lab, LinkState};
use crate::state::{Serving, State};

/// The device's links in words.
fn links(hw: &Hardware) -> String {
    match &hw.interconnect {
        Some(ic) => format!("{}.", ic.describe()),
        None => "No published interconnect: only layouts whose GPUs never communicate (attention replicas of a dense model) deploy on it.".into(),
    }
}

/// The engine's default scheduler on `hw`, in words.
fn scheduler_line(framework: rooflinr_model::kernel_time::Framework, hw: &Hardware) -> String {
    let s = Scheduler::default_for(framework, hw);
    format!(
        "In-flight batching under {}'s scheduler (the engine chosen above): {} steps of up to {} tokens{}, prompts {}.",
        framework.name(),
        match s.policy {
            Policy::Mixed => "decode and prompt chunks in one step",
            Policy::PrefillFirst => "prefill-first",
        },
        s.token_budget,
        if s.max_sequences < deploy::serving::MAX_SCHEDULED {
            format!(", at most {} requests", s.max_sequences)
        } else {
            String::new()
        },
        if s.chunked_prefill {
            "chunked"
        } else {
            "whole (the budget holds a prompt beside the running batch)"
        }
    )
}

/// The deployment's inputs.
#[component]
pub fn DeployPanel(
    /// The device.
    hardware: Memo<Result<Hardware, Problem>>,
) -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let serving = Memo::new(move |_| state.with(|s| s.serving));
    let gpus = move || {
        state.with(|s| {
            let d = |t: &str| t.trim().parse::<u64>().ok();
            match (d(&s.tp), d(&s.pp), d(&s.dp)) {
                // The workers' GPUs in all are under tokens/s per GPU (deployment mode's
                // code reads the prefill worker's layout).
                (Some(t), Some(p), Some(d)) if s.serving == Serving::Disaggregated => {
                    format!("each decode worker {} GPUs", t * p * d)
                }
                (Some(t), Some(p), Some(d)) => format!("{} GPUs", t * p * d),
                _ => "GPUs: enter whole numbers".to_string(),
            }
        })
    };
    let link_note = move || hardware.with(|h| h.as_ref().map(links).unwrap_or_default());
    let scheduler_note = move || {
        let (framework, serving) = state.with(|s| (s.framework, s.serving));
        if serving == Serving::Static {
            return "Static batching: the figures of a fixed batch (no engine schedules so)."
                .to_string();
        }
        let line = hardware.with(|h| {
            h.as_ref()
                .map(|hw| scheduler_line(framework, hw))
                .unwrap_or_default()
        });
        if serving == Serving::Disaggregated {
            format!(
                "Disaggregated: prefill workers run prefill-only steps and send each prompt's KV cache to a decode worker, which runs decode-only steps. {line}"
            )
        } else {
            line
        }
    };
    let source = move || {
        hardware.with(|h| {
            h.as_ref()
                .ok()
                .and_then(|hw| hw.interconnect.as_ref())
                .map(|ic| ic.scale_up.bandwidth.source.text.to_string())
                .unwrap_or_default()
        })
    };
    // A paired agent says how many GPUs its host has (NVML) and whether NVLink joins them.
    let lab = expect_context::<Lab>();
    let host = move || {
        lab.link.with(|l| match l {
            LinkState::Connected { hello, .. } if hello.nvml.available && hello.nvml.gpus > 0 => {
                Some((hello.host.clone(), hello.nvml.gpus, hello.nvml.nvlink_links))
            }
            _ => None,
        })
    };
    view! {
        <section class="panel" aria-labelledby="deploy-title">
            <h2 id="deploy-title">"Deployment"</h2>
            <ModelPicker />
            <p class="hint" id="deploy-links" title=source>{link_note}</p>
            {move || host().map(|(name, gpus, links)| view! {
                <p class="hint" id="deploy-host">
                    {format!(
                        "Paired host {name}: {gpus} GPU(s) measured by NVML{}. ",
                        if links > 0 { format!(", {links} NVLinks active on GPU 0") } else { ", no active NVLink".to_string() }
                    )}
                    <button class="link" on:click=move |_| state.update(|s| {
                        s.tp = gpus.to_string();
                        s.pp = "1".into();
                        s.dp = "1".into();
                    })>{format!("Lay out over its {gpus} GPUs")}</button>
                </p>
            })}
            <div class="row three">
                <TextField label="TP" get=|s| &s.tp set=|s| &mut s.tp numeric=true />
                <TextField label="PP" get=|s| &s.pp set=|s| &mut s.pp numeric=true />
                <TextField label="DP" get=|s| &s.dp set=|s| &mut s.dp numeric=true />
            </div>
            <p class="hint" id="deploy-gpus">
                {gpus}
                " · TP splits each layer's heads and columns, PP gives each stage a share of the layers, DP runs attention replicas on different requests"
            </p>
            <CheckField id="deploy-ep" label="expert parallel: whole experts on each GPU of a stage (MoE models)" get=|s| s.ep set=|s, on| s.ep = on />
            <CheckField id="deploy-overlap" label="communication overlaps compute" get=|s| s.overlap set=|s, on| s.overlap = on />
            <CheckField id="deploy-calibrated" label="expected, not the bound: kernels and collectives with terms fitted on NVIDIA's measured tables, and the engine's host time per step" get=|s| s.calibrated set=|s, on| s.calibrated = on />
            <div class="field">
                <span class="label" id="deploy-serving-label">"serving"</span>
                <Segmented
                    label="serving"
                    options=vec![
                        (Serving::InFlight, "in-flight"),
                        (Serving::Disaggregated, "disaggregated"),
                        (Serving::Static, "static"),
                    ]
                    get=|s| s.serving
                    set=|s, v| s.serving = v
                />
            </div>
            <Show when=move || serving.get() == Serving::Disaggregated>
                <div class="row three" id="deploy-workers">
                    <TextField label="prefill worker" get=|s| &s.prefill_layout set=|s| &mut s.prefill_layout hint="its layout, as tp4 or tp1-dp8-ep; empty: the decode worker's (TP, PP, DP above)" />
                    <TextField label="prefill workers" get=|s| &s.prefill_workers set=|s| &mut s.prefill_workers numeric=true />
                    <TextField label="decode workers" get=|s| &s.decode_workers set=|s| &mut s.decode_workers numeric=true />
                </div>
            </Show>
            <p class="hint" id="deploy-scheduler">{scheduler_note}</p>
            <div class="row three">
                <TextField label="draft tokens" get=|s| &s.draft_tokens set=|s| &mut s.draft_tokens numeric=true hint="speculative decoding (MTP); empty: none" />
                <TextField label="acceptance" get=|s| &s.acceptance set=|s| &mut s.acceptance numeric=true hint="per drafted token; empty: DeepSeek's published 0.85" />
                <TextField label="cached prompt share" get=|s| &s.prefix_hit set=|s| &mut s.prefix_hit numeric=true hint="of each prompt, in the prefix cache" />
            </div>
            <div class="row three">
                <TextField label="price per GPU-hour" get=|s| &s.gpu_price set=|s| &mut s.gpu_price numeric=true hint="US dollars, for the cost per million tokens; empty: none (prices vary)" />
            </div>
            <PowerSlider label="requests at once" min_exp=0 max_exp=14 get=|s| &s.concurrency set=|s| &mut s.concurrency />
            <PowerSlider label="prompt tokens" min_exp=4 max_exp=17 get=|s| &s.prompt set=|s| &mut s.prompt />
            <PowerSlider label="output tokens" min_exp=0 max_exp=15 get=|s| &s.generated set=|s| &mut s.generated />
        </section>
    }
}

/// The deployment's figures.
#[component]
pub fn DeployResults(
    /// The deployment.
    view: DeployView,
    /// Colours.
    palette: Palette,
) -> impl IntoView {
    let d = &view.deployment;
    let s = view.serving();
    let w = view.words.clone();
    let m = d.memory;
    let capacity = m.capacity.get();
    let pct = |b: f64| {
        if capacity.is_finite() && capacity > 0.0 {
            (b / capacity * 100.0).min(100.0)
        } else {
            0.0
        }
    };
    let (w_pct, kv_pct, act_pct) = (
        pct(m.weights.get()),
        pct(m.kv_cache.get()),
        pct(m.activations.get()),
    );
    // Where one decode step's time goes: compute in one colour, each collective in the
    // communication colour.
    let compute_colour = palette.series[0];
    let comm_colour = palette.series[1];
    let mut parts: Vec<(String, f64, &'static str)> =
        vec![("compute".into(), d.decode.compute.get(), compute_colour)];
    for c in &d.decode.comms {
        parts.push((c.id.name().to_string(), c.time.get(), comm_colour));
    }
    let total: f64 = parts
        .iter()
        .map(|p| p.1)
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let segments = parts
        .into_iter()
        .filter(|p| p.1 > 0.0)
        .map(|(name, time, colour)| {
            let share = time / total * 100.0;
            let label = if share >= 9.0 {
                format!("{name} {share:.0}%")
            } else {
                String::new()
            };
            let ink = text_on(colour);
            view! {
                <span
                    class="segment"
                    style=format!("width:{share:.3}%;background:{colour};color:{ink}")
                    title=format!("{name}: {} ({share:.1}%)", si(time, "s"))
                >
                    {label}
                </span>
            }
        })
        .collect_view();
    let comm_rows = w
        .comms
        .into_iter()
        .map(|row| view! { <tr>{cells(row)}</tr> })
        .collect_view();
    let has_comms = !d.decode.comms.is_empty();
    view! {
        <div class="cards">
            <Card label="time to first token" value={si(s.ttft.get(), "s")} note={w.ttft} figure="deploy-ttft" />
            <Card label="time per output token" value={si(s.tpot.get(), "s")} note={w.tpot} figure="deploy-tpot" />
            <Card label="tokens/s per user" value={format!("{:.1}", s.tokens_per_s_per_user)} note={w.per_user} figure="deploy-user" />
            <Card label="tokens/s per GPU" value={format!("{:.1}", s.tokens_per_s_per_gpu)} note={w.per_gpu} figure="deploy-gpu" />
            <div class="card">
                <span class="label">{w.memory_label}</span>
                <span class="value" data-figure="deploy-memory">{m.total().to_string()}</span>
                <span class="meter" role="img" aria-label=format!("{:.0}% of a GPU's memory", w_pct + kv_pct + act_pct)>
                    <span class="weights" style=format!("width:{w_pct:.2}%")></span>
                    <span class="kv" style=format!("width:{kv_pct:.2}%")></span>
                    <span class="activations" style=format!("width:{act_pct:.2}%")></span>
                </span>
                <span class="note" class:bad=!m.fits()>{w.memory}</span>
            </div>
            {(!w.energy.is_empty()).then(|| view! {
                <Card label="energy per output token" value={w.energy} note={w.energy_note} figure="deploy-energy" />
            })}
            {(!w.cost.is_empty()).then(|| view! {
                <Card label="cost" value={w.cost} note={w.cost_note} figure="deploy-cost" />
            })}
        </div>
        {(!w.trust.is_empty()).then(|| view! { <p class="hint" id="deploy-trust">{w.trust}</p> })}
        <h3>{w.step_heading}</h3>
        <div class="breakdown" role="img" aria-label="decode step: compute and communication">{segments}</div>
        <p class="hint">{w.step}</p>
        {if has_comms {
            view! {
                <h3>"Collectives of one decode step"</h3>
                <div class="table-wrap">
                    <table class="data" id="deploy-comms">
                        <thead>
                            <tr>
                                <th scope="col">"communication"</th>
                                <th scope="col">"collective"</th>
                                <th scope="col">"GPUs"</th>
                                <th scope="col">"link"</th>
                                <th scope="col">"count"</th>
                                <th scope="col">"message"</th>
                                <th scope="col">"sent per GPU"</th>
                                <th scope="col">"time"</th>
                            </tr>
                        </thead>
                        <tbody>{comm_rows}</tbody>
                    </table>
                </div>
            }
            .into_any()
        } else {
            view! { <p class="hint">"One GPU: no communication."</p> }.into_any()
        }}
        <p class="hint">{w.provenance}        </p>
        <LaunchCommands launch=view.launch.clone() />
    }
}

/// The engine's launch commands for the deployment shown, each with a button that copies
/// it, or why there are none.
#[component]
fn LaunchCommands(
    /// The commands, or why there are none.
    launch: Result<Vec<LaunchText>, String>,
) -> impl IntoView {
    let (commands, why) = match launch {
        Ok(c) => (c, None),
        Err(why) => (Vec::new(), Some(why)),
    };
    let release = commands.first().map(|l| {
        let mut line = format!("The layout, scheduler budgets and formats above, in the flag names of {}.", l.release);
        if commands.len() > 1 {
            line += " One command per worker kind; the engine's disaggregation wiring (its KV connector and router) is not written here.";
        }
        line
    });
    let blocks = commands
        .into_iter()
        .map(|l| {
            let copied = RwSignal::new(false);
            let text = l.shell.clone();
            let copy = move |_| {
                if browser::copy_to_clipboard(&text) {
                    copied.set(true);
                    set_timeout(
                        move || copied.set(false),
                        std::time::Duration::from_millis(1500),
                    );
                }
            };
            let what = if l.replicas > 1 {
                format!("{} (x {} replicas)", l.what, l.replicas)
            } else {
                l.what
            };
            view! {
                <div class="launch">
                    <div class="launch-head">
                        <span class="label">{what}</span>
                        <button class="copy-launch" on:click=copy>
                            {move || if copied.get() { "Copied" } else { "Copy launch command" }}
                        </button>
                    </div>
                    <pre class="launch-command"><code>{l.shell}</code></pre>
                    <ul class="hint launch-notes">
                        {l.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                    </ul>
                </div>
            }
        })
        .collect_view();
    view! {
        <h3>"Launch command"</h3>
        {why.map(|why| view! { <p class="hint" id="deploy-launch-none">{why}</p> })}
        {release.map(|line| view! { <p class="hint" id="deploy-launch-release">{line}</p> })}
        <div id="deploy-launch">{blocks}</div>
    }
}

/// The cells of a table row.
fn cells(cells: Vec<Cell>) -> impl IntoView {
    cells
        .into_iter()
        .map(|c| match c {
            Cell::Heading(t) => view! { <th scope="row">{t}</th> }.into_any(),
            Cell::Number(t) => view! { <td class="num">{t}</td> }.into_any(),
            Cell::Text(t) => view! { <td>{t}</td> }.into_any(),
        })
        .collect_view()
}

/// The search over layouts (or, when disaggregated, over prefill and decode workers): a GPU
/// budget and a per-user floor; run on demand (it evaluates thousands of deployments), with
/// each candidate's figures and a button to take it.
#[component]
pub fn LayoutSearch(
    /// The device.
    hardware: Memo<Result<Hardware, Problem>>,
) -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let result = RwSignal::new(None::<Result<SearchTable, Problem>>);
    let busy = RwSignal::new(false);
    let workers = Memo::new(move |_| state.with(|s| s.serving == Serving::Disaggregated));
    let run = move |_| {
        busy.set(true);
        // Let the page show "Searching…" before the search holds the thread.
        set_timeout(
            move || {
                let inputs = hardware
                    .get_untracked()
                    .map(|hw| (state.get_untracked(), hw));
                wasm_bindgen_futures::spawn_local(async move {
                    let out = match inputs {
                        Ok((state, hw)) => {
                            let searched = if state.serving == Serving::Disaggregated {
                                search_workers_timed(state, hw).await
                            } else {
                                search_layouts_timed(state, hw).await
                            };
                            searched.unwrap_or_else(|e| {
                                Err(Problem {
                                    field: "Search layouts".into(),
                                    message: e.to_string(),
                                })
                            })
                        }
                        Err(p) => Err(p),
                    };
                    result.set(Some(out));
                    busy.set(false);
                });
            },
            std::time::Duration::from_millis(20),
        );
    };
    let table = move || {
        result.get().map(|r| match r {
            Err(p) => view! {
                <p class="error" role="alert">{format!("{}: {}", p.field, p.message)}</p>
            }
            .into_any(),
            Ok(t) => {
                let last = t.columns.len().saturating_sub(1);
                let columns = t
                    .columns
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        if i == last {
                            view! { <th scope="col"><span class="visually-hidden">{*c}</span></th> }
                                .into_any()
                        } else {
                            view! { <th scope="col">{*c}</th> }.into_any()
                        }
                    })
                    .collect_view();
                let rows = t
                    .rows
                    .into_iter()
                    .map(|r| {
                        let label = r.take_label;
                        view! {
                            <tr class:chosen=r.chosen>
                                {cells(r.cells)}
                                <td>
                                    {r.take.map(|take| view! {
                                        <button
                                            class="link"
                                            aria-label=label
                                            on:click=move |_| state.update(|s| take.apply(s))
                                        >
                                            "use"
                                        </button>
                                    })}
                                </td>
                            </tr>
                        }
                    })
                    .collect_view();
                view! {
                    <p class="timing" id="search-timing" data-ms=format!("{:.1}", t.ms)>{t.summary}</p>
                    <div class="table-wrap">
                        <table class="data" id=t.id>
                            <thead><tr>{columns}</tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                    {(!t.more.is_empty()).then(|| view! { <p class="hint">{t.more}</p> })}
                }
                .into_any()
            }
        })
    };
    view! {
        <section class="layout-search" aria-labelledby="search-title">
            <h3 id="search-title">
                {move || if workers.get() { "Search prefill and decode workers" } else { "Search layouts" }}
            </h3>
            <p class="hint">
                {move || if workers.get() {
                    "Every prefill layout and every decode layout and batch of up to the budget's GPUs (both sides together), with as many prefill workers as keep up with the decode workers, so neither waits on the other; the front of output tokens/s per GPU against per user, with the model, formats and lengths above."
                } else {
                    "Every layout of up to the budget's GPUs (TP a power of two, PP, DP, EP on and off), ranked by output tokens/s per GPU among those reaching the per-user speed, with the model, formats and lengths above."
                }}
            </p>
            <div class="row three">
                <TextField label="GPU budget" get=|s| &s.search_gpus set=|s| &mut s.search_gpus numeric=true />
                <TextField label="tokens/s per user at least" get=|s| &s.search_floor set=|s| &mut s.search_floor numeric=true />
                <div class="field">
                    <span class="label" aria-hidden="true">" "</span>
                    <button id="search-run" class="primary" disabled=busy on:click=run>
                        {move || if busy.get() { "Searching…" } else { "Search" }}
                    </button>
                </div>
            </div>
            {table}
        </section>
    }
}

crate::split_point! {
    deploy,
    /// [`compute::search_layouts`] as the page lists it, with how long it took: the
    /// search's code loads with the first search ([`crate::split`]).
    pub fn search_layouts_timed(state: State, hw: Hardware) -> Result<SearchTable, Problem> {
        let start = browser::now_ms();
        compute::search_layouts(&state, &hw)
            .map(|v| compute::layouts_table(&v, browser::now_ms() - start))
    }
}

crate::split_point! {
    deploy,
    /// [`compute::search_workers`] as the page lists it, with how long it took.
    pub fn search_workers_timed(state: State, hw: Hardware) -> Result<SearchTable, Problem> {
        let start = browser::now_ms();
        compute::search_workers(&state, &hw)
            .map(|v| compute::workers_table(&v, browser::now_ms() - start))
    }
}

crate::split_point! {
    deploy,
    /// [`compute::deployment_beside`] NVIDIA's measured `runs`, and how long it took, ms.
    pub fn deployment_timed(
        state: State,
        hw: Hardware,
        runs: Arc<[MeasuredRun]>,
        imported: Option<Arc<ImportedRuns>>,
    ) -> (Result<DeployView, Problem>, f64) {
        let start = browser::now_ms();
        let deployment = compute::deployment_beside(&state, &hw, &runs, imported.as_deref());
        (deployment, browser::now_ms() - start)
    }
}

crate::split_point! {
    deploy,
    /// Reads a serving benchmark's result file ([`rooflinr_report::import::serving`]);
    /// the error says what is wrong with it and which commands write one.
    pub fn read_serving_runs(name: String, text: String) -> Result<ImportedRuns, String> {
        rooflinr_report::import::serving::import_serving(&text)
            .map(|runs| ImportedRuns { name, runs })
            .map_err(|e| e.to_string())
    }
}

crate::split_point! {
    deploy,
    /// [`compute::layout_front`] (empty where the deployment has none) and how long it took,
    /// ms.
    pub fn layout_front_timed(state: State, hw: Hardware) -> (Vec<FrontPoint>, f64) {
        let start = browser::now_ms();
        let front = compute::layout_front(&state, &hw).unwrap_or_default();
        (front, browser::now_ms() - start)
    }
}
