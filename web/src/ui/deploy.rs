//! Deployment mode: a model over many GPUs. The controls (model, layout, workload), the
//! results (serving figures, what each GPU holds, where a decode step's time goes, the
//! collectives) and the layout search; the serving chart is [`super::serving`].

use std::sync::Arc;

use leptos::prelude::*;
use rooflinr_model::deploy::serving::runs::MeasuredRun;
use rooflinr_model::deploy::{self, CommModel, Policy, Scheduler};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::units::si;

use super::controls::{ModelPicker, PowerSlider};
use super::fields::CheckField;
use super::fields::TextField;
use super::results::Card;
use crate::browser;
use crate::chart::palette::{Palette, text_on};
use crate::compute::{self, DeployView, FrontPoint, Problem, SearchView};
use crate::lab::link::{Lab, LinkState};
use crate::state::State;

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
    let gpus = move || {
        state.with(|s| {
            let d = |t: &str| t.trim().parse::<u64>().ok();
            match (d(&s.tp), d(&s.pp), d(&s.dp)) {
                (Some(t), Some(p), Some(d)) => format!("{} GPUs", t * p * d),
                _ => "GPUs: enter whole numbers".to_string(),
            }
        })
    };
    let link_note = move || hardware.with(|h| h.as_ref().map(links).unwrap_or_default());
    let scheduler_note = move || {
        let (framework, static_batching) = state.with(|s| (s.framework, s.static_batching));
        if static_batching {
            return "Static batching: the figures of a fixed batch.".to_string();
        }
        hardware.with(|h| {
            h.as_ref()
                .map(|hw| scheduler_line(framework, hw))
                .unwrap_or_default()
        })
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
            <CheckField id="deploy-static" label="static batching: the whole batch prefilled, then decoded together (no engine schedules so; untick for the engine's in-flight batching)" get=|s| s.static_batching set=|s, on| s.static_batching = on />
            <p class="hint" id="deploy-scheduler">{scheduler_note}</p>
            <div class="row three">
                <TextField label="draft tokens" get=|s| &s.draft_tokens set=|s| &mut s.draft_tokens numeric=true hint="speculative decoding (MTP); empty: none" />
                <TextField label="acceptance" get=|s| &s.acceptance set=|s| &mut s.acceptance numeric=true hint="per drafted token; empty: DeepSeek's published 0.85" />
                <TextField label="cached prompt share" get=|s| &s.prefix_hit set=|s| &mut s.prefix_hit numeric=true hint="of each prompt, in the prefix cache" />
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
    let s = d.serving;
    let l = d.layout;
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
    // Where one decode step's time goes: compute in one colour, each collective in the
    // communication colour.
    let compute_colour = palette.series[0];
    let comm_colour = palette.series[1];
    let mut parts: Vec<(String, f64, &'static str)> =
        vec![("compute".into(), d.decode.compute.get(), compute_colour)];
    for c in &d.decode.comms {
        parts.push((c.id.name().to_string(), c.time.get(), comm_colour));
    }
    let overlap_note =
        if d.decode.stage.get() < d.decode.compute.get() + d.decode.communication.get() {
            " (overlapped: the step takes the longer of the two)"
        } else {
            ""
        };
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
    let comm_rows = d
        .decode
        .comms
        .iter()
        .map(|c| {
            view! {
                <tr>
                    <th scope="row">{c.id.name()}</th>
                    <td>{c.collective.name()}</td>
                    <td class="num">{c.gpus}</td>
                    <td>{c.link.name()}</td>
                    <td class="num">{format!("{}", c.count)}</td>
                    <td class="num">{si(c.message.get(), "B")}</td>
                    <td class="num">{si(c.sent.get(), "B")}</td>
                    <td class="num">{si(c.time.get(), "s")}</td>
                </tr>
            }
        })
        .collect_view();
    let has_comms = !d.decode.comms.is_empty();
    let bubble = d.prefill.bubble;
    let (ttft_note, tpot_note) = match &d.in_flight {
        Some(f) => (
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
        None => (
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
    let batching = if d.in_flight.is_some() {
        "in-flight batching, steady state"
    } else {
        "static batching"
    };
    view! {
        <div class="cards">
            <Card label="time to first token" value={si(s.ttft.get(), "s")} note={ttft_note} figure="deploy-ttft" />
            <Card label="time per output token" value={si(s.tpot.get(), "s")} note={tpot_note} figure="deploy-tpot" />
            <Card label="tokens/s per user" value={format!("{:.1}", s.tokens_per_s_per_user)} note={format!("request done in {}", si(s.request_time.get(), "s"))} figure="deploy-user" />
            <Card label="tokens/s per GPU" value={format!("{:.1}", s.tokens_per_s_per_gpu)} note={format!("{:.1} while decoding (prefill elsewhere) · {} GPUs", s.decode_tokens_per_s_per_gpu, l.gpus())} figure="deploy-gpu" />
            <div class="card">
                <span class="label">"memory per GPU"</span>
                <span class="value" data-figure="deploy-memory">{m.total().to_string()}</span>
                <span class="meter" role="img" aria-label=format!("{:.0}% of a GPU's memory", w_pct + kv_pct + act_pct)>
                    <span class="weights" style=format!("width:{w_pct:.2}%")></span>
                    <span class="kv" style=format!("width:{kv_pct:.2}%")></span>
                    <span class="activations" style=format!("width:{act_pct:.2}%")></span>
                </span>
                <span class="note" class:bad=!m.fits()>{memory_note}</span>
            </div>
        </div>
        {(!trust.is_empty()).then(|| view! { <p class="hint" id="deploy-trust">{trust}</p> })}
        <h3>{format!("Where a decode step's time goes{overlap_note}")}</h3>
        <div class="breakdown" role="img" aria-label="decode step: compute and communication">{segments}</div>
        <p class="hint">
            {format!(
                "Compute {} · communication {} ({:.0}% of the step){}.",
                si(d.decode.compute.get(), "s"),
                si(d.decode.communication.get(), "s"),
                d.decode.communication_share() * 100.0,
                if l.pipeline > 1 {
                    format!(" · a token passes {} stages", l.pipeline)
                } else {
                    String::new()
                }
            )}
        </p>
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
        <p class="hint">
            {match d.decode.calibration {
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
            }}
        </p>
    }
}

/// The search over layouts: a GPU budget and a per-user floor; run on demand (it
/// evaluates thousands of deployments), with each candidate's reason for not being first
/// and a button to take its layout.
#[component]
pub fn LayoutSearch(
    /// The device.
    hardware: Memo<Result<Hardware, Problem>>,
) -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let result = RwSignal::new(None::<Result<(SearchView, f64), Problem>>);
    let busy = RwSignal::new(false);
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
                            search_layouts_timed(state, hw).await.unwrap_or_else(|e| {
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
            Ok((v, ms)) => {
                let shown = v.rows.len().min(SEARCH_ROWS);
                let more = v.rows.len() - shown;
                let rows = v
                    .rows
                    .into_iter()
                    .take(SEARCH_ROWS)
                    .enumerate()
                    .map(|(i, r)| {
                        let l = r.layout;
                        let take = r.best.map(|b| b.concurrency);
                        let cells = match r.best {
                            Some(b) => [
                                b.concurrency.to_string(),
                                format!("{:.1}", b.tokens_per_s_per_user),
                                format!("{:.1}", b.tokens_per_s_per_gpu),
                                si(b.ttft.get(), "s"),
                                r.memory.map_or("-".into(), |m| m.to_string()),
                            ],
                            None => std::array::from_fn(|_| "-".to_string()),
                        };
                        view! {
                            <tr class:chosen=i == 0>
                                <td class="num">{i + 1}</td>
                                <th scope="row">{l.to_string()}</th>
                                <td class="num">{l.gpus()}</td>
                                {cells.into_iter().map(|c| view! { <td class="num">{c}</td> }).collect_view()}
                                <td>{r.loss.unwrap_or_else(|| "best".into())}</td>
                                <td>
                                    {take.map(|concurrency| view! {
                                        <button
                                            class="link"
                                            aria-label=format!("use {l} with {concurrency} requests")
                                            on:click=move |_| state.update(|s| {
                                                s.tp = l.tensor.to_string();
                                                s.pp = l.pipeline.to_string();
                                                s.dp = l.data.to_string();
                                                s.ep = l.expert;
                                                s.concurrency = concurrency.to_string();
                                            })
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
                    <p class="timing" id="search-timing" data-ms=format!("{ms:.1}")>
                        {format!(
                            "{} deployments on up to {} GPUs at {} tokens/s per user or more, searched in {ms:.0} ms in your browser.",
                            v.evaluated, v.max_gpus, v.floor
                        )}
                    </p>
                    <div class="table-wrap">
                        <table class="data" id="search-results">
                            <thead>
                                <tr>
                                    <th scope="col">"rank"</th>
                                    <th scope="col">"layout"</th>
                                    <th scope="col">"GPUs"</th>
                                    <th scope="col">"requests"</th>
                                    <th scope="col">"tokens/s per user"</th>
                                    <th scope="col">"tokens/s per GPU"</th>
                                    <th scope="col">"TTFT"</th>
                                    <th scope="col">"memory per GPU"</th>
                                    <th scope="col">"why not first"</th>
                                    <th scope="col"><span class="visually-hidden">"take this layout"</span></th>
                                </tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                    {(more > 0).then(|| view! {
                        <p class="hint">{format!("{more} more candidates; `rooflinr deploy --search` lists them all.")}</p>
                    })}
                }
                .into_any()
            }
        })
    };
    view! {
        <section class="layout-search" aria-labelledby="search-title">
            <h3 id="search-title">"Search layouts"</h3>
            <p class="hint">
                "Every layout of up to the budget's GPUs (TP a power of two, PP, DP, EP on and off), ranked by output tokens/s per GPU among those reaching the per-user speed, with the model, formats and lengths above."
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

/// Candidates a search lists on the page.
const SEARCH_ROWS: usize = 12;

crate::split_point! {
    deploy,
    /// [`compute::search_layouts`] and how long it took, ms: the search's code loads with
    /// the first search ([`crate::split`]).
    pub fn search_layouts_timed(state: State, hw: Hardware) -> Result<(SearchView, f64), Problem> {
        let start = browser::now_ms();
        compute::search_layouts(&state, &hw).map(|v| (v, browser::now_ms() - start))
    }
}

crate::split_point! {
    deploy,
    /// [`compute::deployment_beside`] NVIDIA's measured `runs`, and how long it took, ms.
    pub fn deployment_timed(
        state: State,
        hw: Hardware,
        runs: Arc<[MeasuredRun]>,
    ) -> (Result<DeployView, Problem>, f64) {
        let start = browser::now_ms();
        let deployment = compute::deployment_beside(&state, &hw, &runs);
        (deployment, browser::now_ms() - start)
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
