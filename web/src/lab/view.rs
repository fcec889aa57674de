//! The lab's components: pairing, live telemetry, measuring (ceilings and sweeps with
//! progress and cancel), theory against reality with calibration and energy, and the
//! data bar (import, export, report).

use leptos::prelude::*;
use rooflinr_model::hardware::Hardware;
use rooflinr_model::units::si;
use rooflinr_protocol::TelemetrySample;
use rooflinr_report::import;
use rooflinr_report::report::{self, ReportInput, svg};

use super::link::{JobView, Lab, LinkState};
use super::{LabView, Pairing, calibrate_model, parse_shapes};
use crate::browser;
use crate::compute::{ModelView, Problem};
use crate::state::State;

fn pct(v: f64) -> String {
    format!("{:+.1}%", v * 100.0)
}

/// The whole lab section.
#[component]
pub fn LabPanel(
    /// The device predictions are made for.
    hardware: Memo<Result<Hardware, Problem>>,
    /// The lab's data against that device.
    view: Memo<Option<LabView>>,
    /// The model analysis, when the calculator shows one.
    model: Signal<Option<ModelView>>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let connected = move || matches!(lab.link.get(), LinkState::Connected { .. });
    view! {
        <section class="lab" id="lab" aria-labelledby="lab-title">
            <div class="lab-head">
                <h2 id="lab-title">"Measure on real hardware"</h2>
                <p class="hint">"Pair with rooflinr-agent on the machine to measure: its points join the chart beside the predictions."</p>
            </div>
            <PairCard />
            <Show when=connected>
                <TelemetryStrip />
                <MeasureCard />
            </Show>
            {move || lab.notice.get().map(|n| view! {
                <div class="notice" role="status" id="lab-notice">
                    <span>{n}</span>
                    <button class="link" on:click=move |_| lab.notice.set(None)>"dismiss"</button>
                </div>
            })}
            <TheoryTable hardware=hardware view=view model=model />
            <DataBar hardware=hardware view=view />
        </section>
    }
}

/// Pairing: the state of the connection, the form, and how to reach a remote machine.
#[component]
fn PairCard() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let saved = lab.pairing();
    let agent = RwSignal::new(
        saved
            .as_ref()
            .map_or("http://127.0.0.1:7878".to_string(), |p| p.agent.clone()),
    );
    let token = RwSignal::new(saved.map(|p| p.token).unwrap_or_default());
    let pair = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        lab.pair(Pairing {
            agent: agent.get_untracked().trim().to_string(),
            token: token.get_untracked().trim().to_string(),
        });
    };
    let status = move || match lab.link.get() {
        LinkState::Unpaired => ("off", "Not paired".to_string(), None),
        LinkState::Connecting { agent } => ("wait", format!("Connecting to {agent}…"), None),
        LinkState::Connected { agent, hello } => (
            "ok",
            format!(
                "Paired with {} at {agent} · agent {}",
                if hello.host.is_empty() {
                    "the agent"
                } else {
                    &hello.host
                },
                hello.agent_version
            ),
            None,
        ),
        LinkState::Retrying {
            agent,
            in_s,
            reason,
        } => (
            "wait",
            format!("Reconnecting to {agent} in {in_s} s"),
            Some(reason),
        ),
        LinkState::Refused { reason } => ("off", "Cannot pair".to_string(), Some(reason)),
    };
    let backends = move || match lab.link.get() {
        LinkState::Connected { hello, .. } => {
            let rows = hello
                .backends
                .iter()
                .map(|b| {
                    let text = match (&b.device, b.available) {
                        (Some(d), true) => {
                            format!("{}: {} · formats {}", b.kind, d.name, b.formats.join(", "))
                        }
                        _ => format!(
                            "{}: not available ({})",
                            b.kind,
                            b.reason.clone().unwrap_or_default()
                        ),
                    };
                    view! { <li>{text}</li> }
                })
                .collect_view();
            let nvml = if hello.nvml.available {
                format!(
                    "NVML: {} GPU(s), driver {}",
                    hello.nvml.gpus,
                    hello.nvml.driver_version.clone().unwrap_or_default()
                )
            } else {
                format!(
                    "NVML: {}",
                    hello
                        .nvml
                        .reason
                        .clone()
                        .unwrap_or_else(|| "not available".into())
                )
            };
            Some(view! { <ul class="backends">{rows}<li>{nvml}</li></ul> })
        }
        _ => None,
    };
    let paired = move || {
        !matches!(
            lab.link.get(),
            LinkState::Unpaired | LinkState::Refused { .. }
        )
    };
    view! {
        <div class="card pair">
            {move || {
                let (class, text, reason) = status();
                view! {
                    <p class="link-state" id="link-state" data-state=class>
                        <span class=format!("dot {class}") aria-hidden="true"></span>
                        {text}
                    </p>
                    {reason.map(|r| view! { <p class="reason" role="alert">{r}</p> })}
                }
            }}
            {backends}
            <Show
                when=paired
                fallback=move || view! {
                    <form class="pair-form" on:submit=pair>
                        <label class="field">
                            <span class="label">"Agent address"</span>
                            <input id="agent-address" type="text" spellcheck="false" prop:value=agent on:input=move |ev| agent.set(event_target_value(&ev)) />
                        </label>
                        <label class="field">
                            <span class="label">"Token"</span>
                            <input id="agent-token" type="password" autocomplete="off" prop:value=token on:input=move |ev| token.set(event_target_value(&ev)) />
                        </label>
                        <button type="submit" class="primary">"Pair"</button>
                    </form>
                }
            >
                <button class="link" on:click=move |_| lab.unpair()>"Disconnect"</button>
            </Show>
            <details class="help">
                <summary>"How to pair with a remote GPU machine"</summary>
                <ol>
                    <li>"Run "<code>"rooflinr-agent --listen"</code>" there; it prints a pairing link with a token."</li>
                    <li>"Either tunnel it to this computer ("<code>"ssh -L 7878:127.0.0.1:7878 gpu-box"</code>") and open the pairing link here, or start the agent with "<code>"--web"</code>" and open the page it serves through the same tunnel."</li>
                    <li>"The token stays in the page's fragment and this browser's storage; the agent only listens on loopback unless told otherwise."</li>
                </ol>
            </details>
        </div>
    }
}

/// One telemetry series: label, unit, and how to read it from a sample.
struct Series {
    label: &'static str,
    unit: &'static str,
    read: fn(&TelemetrySample) -> Option<f64>,
}

const GPU_SERIES: [Series; 5] = [
    Series {
        label: "SM clock",
        unit: "MHz",
        read: |s| s.gpus.first()?.sm_clock_mhz.map(f64::from),
    },
    Series {
        label: "Power",
        unit: "W",
        read: |s| s.gpus.first()?.power_w,
    },
    Series {
        label: "Temperature",
        unit: "°C",
        read: |s| s.gpus.first()?.temperature_c.map(f64::from),
    },
    Series {
        label: "GPU memory",
        unit: "GiB",
        read: |s| {
            s.gpus
                .first()?
                .mem_used_bytes
                .map(|b| b as f64 / (1u64 << 30) as f64)
        },
    },
    Series {
        label: "GPU utilisation",
        unit: "%",
        read: |s| s.gpus.first()?.util_gpu_pct.map(f64::from),
    },
];

const HOST_SERIES: [Series; 3] = [
    Series {
        label: "CPU utilisation",
        unit: "%",
        read: |s| Some(s.host.cpu_util_pct),
    },
    Series {
        label: "CPU clock",
        unit: "MHz",
        read: |s| Some(s.host.cpu_freq_mhz).filter(|f| *f > 0.0),
    },
    Series {
        label: "Host memory",
        unit: "GiB",
        read: |s| Some(s.host.mem_used_bytes as f64 / (1u64 << 30) as f64),
    },
];

const SPARK_W: f64 = 180.0;
const SPARK_H: f64 = 40.0;

/// The polyline of the last values, scaled to the box (at most one point per pixel).
fn sparkline(values: &[f64]) -> String {
    if values.is_empty() {
        return String::new();
    }
    let step = values.len().div_ceil(SPARK_W as usize).max(1);
    let picked: Vec<f64> = values.iter().step_by(step).copied().collect();
    let lo = picked.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = picked.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let span = (hi - lo).max(hi.abs() * 0.02).max(1e-9);
    let n = picked.len().max(2) - 1;
    picked
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let x = i as f64 / n as f64 * SPARK_W;
            let y = SPARK_H - 3.0 - (v - lo) / span * (SPARK_H - 6.0);
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Small live charts of the agent's telemetry.
#[component]
fn TelemetryStrip() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let has_gpu = move || {
        lab.telemetry
            .with(|t| t.samples.back().is_some_and(|s| !s.gpus.is_empty()))
    };
    let nvml_reason = move || match lab.link.get() {
        LinkState::Connected { hello, .. } if !hello.nvml.available => hello.nvml.reason.clone(),
        _ => None,
    };
    let chart = move |series: &'static Series| {
        let values = move || {
            lab.telemetry.with(|t| {
                t.samples
                    .iter()
                    .filter_map(series.read)
                    .collect::<Vec<f64>>()
            })
        };
        view! {
            <figure class="spark">
                <figcaption>
                    <span>{series.label}</span>
                    <strong>{move || values().last().map_or("–".to_string(), |v| format!("{v:.0} {}", series.unit))}</strong>
                </figcaption>
                <svg viewBox=format!("0 0 {SPARK_W} {SPARK_H}") width=SPARK_W height=SPARK_H aria-hidden="true">
                    <polyline points=move || sparkline(&values()) fill="none" stroke="currentColor" stroke-width="1.5"></polyline>
                </svg>
            </figure>
        }
    };
    let throttle = move || {
        lab.telemetry.with(|t| {
            t.samples.back().and_then(|s| s.gpus.first()).map(|g| {
                if g.throttle_reasons.is_empty() {
                    "Clocks: not throttled".to_string()
                } else {
                    format!("Clocks held back by: {}", g.throttle_reasons.join(", "))
                }
            })
        })
    };
    view! {
        <div class="card telemetry" id="telemetry">
            <div class="sparks">
                <Show when=has_gpu>{GPU_SERIES.iter().map(chart).collect_view()}</Show>
                {HOST_SERIES.iter().map(chart).collect_view()}
            </div>
            <p class="hint">
                {move || throttle().unwrap_or_default()}
                {move || nvml_reason().map(|r| format!("GPU telemetry: {r}"))}
                {move || lab.telemetry.with(|t| t.samples.is_empty()).then_some("Waiting for the first telemetry sample…")}
            </p>
        </div>
    }
}

/// Measured ceilings and sweeps, with progress and cancel.
#[component]
fn MeasureCard() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let formats = Memo::new(move |_| match lab.link.get() {
        LinkState::Connected { hello, .. } => hello
            .backends
            .iter()
            .find(|b| b.available)
            .map(|b| b.formats.clone())
            .unwrap_or_default(),
        _ => Vec::new(),
    });
    let chosen = RwSignal::new(Vec::<String>::new());
    Effect::new(move |_| chosen.set(formats.get()));
    let shapes = RwSignal::new("1x4096x4096, 64x4096x4096".to_string());
    let seconds = RwSignal::new("0.5".to_string());
    let problem = RwSignal::new(None::<String>);
    let busy = move || lab.job.with(Option::is_some);
    let budget = move || -> Result<f64, String> {
        seconds
            .get_untracked()
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| (0.01..=60.0).contains(s))
            .ok_or_else(|| "seconds per point must be between 0.01 and 60".to_string())
    };
    let ceilings = move |_| match budget() {
        Ok(s) => {
            problem.set(None);
            lab.measure_ceilings(s);
        }
        Err(e) => problem.set(Some(e)),
    };
    let sweep = move |_| {
        let request = parse_shapes(&shapes.get_untracked()).and_then(|shapes| {
            let formats = chosen.get_untracked();
            if formats.is_empty() {
                return Err("choose at least one format".to_string());
            }
            Ok((shapes, formats, budget()?))
        });
        match request {
            Ok((shapes, formats, s)) => {
                problem.set(None);
                lab.measure_sweep(shapes, formats, s);
            }
            Err(e) => problem.set(Some(e)),
        }
    };
    view! {
        <div class="card measure">
            <div class="measure-row">
                <button id="measure-ceilings" class="primary" disabled=busy on:click=ceilings>"Measure ceilings"</button>
                <span class="hint">"Bandwidth (read, copy, triad) and a peak GEMM per format: the measured roofline."</span>
            </div>
            <div class="sweep">
                <label class="field grow">
                    <span class="label">"Shapes (M×N×K)"</span>
                    <input id="sweep-shapes" type="text" spellcheck="false" prop:value=shapes on:input=move |ev| shapes.set(event_target_value(&ev)) />
                </label>
                <label class="field narrow">
                    <span class="label">"Seconds per point"</span>
                    <input id="sweep-seconds" type="text" inputmode="decimal" prop:value=seconds on:input=move |ev| seconds.set(event_target_value(&ev)) />
                </label>
                <fieldset class="formats-pick">
                    <legend class="label">"Formats"</legend>
                    <For each=move || formats.get() key=|f| f.clone() let:f>
                        {
                            let name = f.clone();
                            let name_check = f.clone();
                            view! {
                                <label class="check">
                                    <input
                                        type="checkbox"
                                        data-format=f.clone()
                                        prop:checked=move || chosen.with(|c| c.contains(&name_check))
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            chosen.update(|c| {
                                                c.retain(|x| *x != name);
                                                if on { c.push(name.clone()); }
                                            });
                                        }
                                    />
                                    {f}
                                </label>
                            }
                        }
                    </For>
                </fieldset>
                <button id="measure-sweep" class="primary" disabled=busy on:click=sweep>"Measure sweep"</button>
            </div>
            {move || problem.get().map(|p| view! { <p class="error" role="alert">{p}</p> })}
            {move || lab.job.get().map(|j| view! { <Progress job=j /> })}
        </div>
    }
}

/// The job's progress bar.
#[component]
fn Progress(
    /// The job.
    job: JobView,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let fraction = if job.total > 0 {
        job.done as f64 / job.total as f64
    } else {
        0.0
    };
    let text = if job.id.is_none() {
        format!("Sending the {} to the agent…", job.what)
    } else if job.position > 0 {
        format!("The {} is queued behind {} job(s).", job.what, job.position)
    } else if job.total == 0 {
        format!("Starting the {}…", job.what)
    } else {
        let eta = job
            .eta_s
            .map(|s| format!(" · about {} left", si(s, "s")))
            .unwrap_or_default();
        format!(
            "{} of {} points · {}{eta}",
            job.done, job.total, job.current
        )
    };
    view! {
        <div class="progress" id="job-progress" role="progressbar" aria-valuemin="0" aria-valuemax=job.total aria-valuenow=job.done>
            <div class="bar"><span style=format!("width:{:.1}%", fraction * 100.0)></span></div>
            <p>{text}</p>
            <button class="link" id="job-cancel" on:click=move |_| lab.cancel()>"Cancel"</button>
        </div>
    }
}

/// The point-by-point table, the error summaries, the fitted fractions, the calibrated
/// whole-model prediction and the energy estimate.
#[component]
fn TheoryTable(
    /// The device.
    hardware: Memo<Result<Hardware, Problem>>,
    /// The lab's data against it.
    view: Memo<Option<LabView>>,
    /// The model analysis.
    model: Signal<Option<ModelView>>,
) -> impl IntoView {
    let device = move || hardware.with(|h| h.as_ref().map(|h| h.name.clone()).unwrap_or_default());
    move || {
        let Some(v) = view.get() else {
            return view! {
                <p class="empty" id="lab-empty">
                    "No measurements yet. Pair with an agent and measure, or import a kernel CSV or an Nsight Compute export below; measured points appear on the chart as they arrive."
                </p>
            }
            .into_any();
        };
        let rows = v
            .rows
            .iter()
            .map(|r| {
                let p = &r.point;
                view! {
                    <tr>
                        <td class="name">{p.kernel.clone()}</td>
                        <td>{r.key.clone()}</td>
                        <td>{p.phase_label().to_string()}</td>
                        <td class="num">{si(r.datasheet_s, "s")}</td>
                        <td class="num">{si(r.calibrated_s, "s")}</td>
                        <td class="num"><strong>{si(p.time_s, "s")}</strong></td>
                        <td class="num">{pct(r.datasheet_error())}</td>
                        <td class="num">{pct(r.calibrated_error())}</td>
                        <td>{r.calibrated_bound.name()}</td>
                        <td class="num">{p.energy_j.map_or("–".to_string(), |j| si(j, "J"))}</td>
                    </tr>
                }
            })
            .collect_view();
        let summary = v
            .summary
            .iter()
            .map(|s| {
                view! {
                    <tr>
                        <td>{s.source.to_string()}</td>
                        <td>{s.key.clone()}</td>
                        <td>{s.bound.name()}</td>
                        <td class="num">{s.points}</td>
                        <td class="num">{format!("{:.1}%", s.datasheet_mean * 100.0)}</td>
                        <td class="num">{format!("{:.1}%", s.datasheet_max * 100.0)}</td>
                        <td class="num">{format!("{:.1}%", s.calibrated_mean * 100.0)}</td>
                        <td class="num">{format!("{:.1}%", s.calibrated_max * 100.0)}</td>
                    </tr>
                }
            })
            .collect_view();
        let phases = phase_rows(&v)
            .into_iter()
            .map(|(phase, kernels, time, memory_share)| {
                view! {
                    <tr>
                        <td>{phase}</td>
                        <td class="num">{kernels}</td>
                        <td class="num">{si(time, "s")}</td>
                        <td class="num">{format!("{:.0}%", memory_share * 100.0)}</td>
                    </tr>
                }
            })
            .collect_view();
        let fractions = v
            .calibrations
            .iter()
            .map(|(source, cal)| {
                let mut parts = vec![format!(
                    "bandwidth {:.1}% ({})",
                    cal.bandwidth.value * 100.0,
                    cal.bandwidth.from
                )];
                parts.extend(
                    cal.bandwidth_by_format
                        .iter()
                        .map(|(k, f)| format!("{k} bandwidth {:.1}%", f.value * 100.0)),
                );
                parts.extend(
                    cal.compute_by_format
                        .iter()
                        .map(|(k, f)| format!("{k} compute {:.1}% ({})", f.value * 100.0, f.from)),
                );
                view! { <li><strong>{source.to_string()}</strong>": "{parts.join(" · ")}</li> }
            })
            .collect_view();
        let whole_model = move || {
            let hw = hardware.get().ok()?;
            let m = model.get()?;
            let lab = view.get()?;
            let c = calibrate_model(&m, &lab, &hw)?;
            Some(view! {
                <p class="whole-model" id="lab-model">
                    {format!(
                        "Whole model: the datasheet predicts {} per step ({:.1} tokens/s); calibrated with {}, {} ({:.1} tokens/s).",
                        si(c.datasheet.time.get(), "s"),
                        c.datasheet.tokens_per_s,
                        c.source,
                        si(c.calibrated.time.get(), "s"),
                        c.calibrated.tokens_per_s
                    )}
                    {c.joules_per_token.map(|j| format!(" Energy: about {} per token (mean measured power × calibrated time, an estimate).", si(j, "J")))}
                </p>
            })
        };
        let energy = v.mean_power_w.map_or_else(
            || "Energy: no measurement read an energy counter (the CPU backend has none; NVML's counter is read on a GPU).".to_string(),
            |w| format!("Energy: mean measured power {w:.0} W over the measurements with an energy reading."),
        );
        view! {
            <div class="theory">
                <h3>{move || format!("Theory against reality on {}", device())}</h3>
                <p class="hint">
                    {format!(
                        "Datasheet: the roofline from the selected device's datasheet. Calibrated: the roofline with the fitted fractions ({}). Errors are (predicted − measured) / measured.",
                        if v.leave_one_out { "each point predicted by a fit made without it" } else { "in-sample" }
                    )}
                </p>
                <div class="table-wrap">
                    <table class="data" id="theory-table">
                        <thead><tr>
                            <th>"Kernel"</th><th>"Format"</th><th>"Phase"</th><th>"Datasheet"</th><th>"Calibrated"</th>
                            <th>"Measured"</th><th>"Error (datasheet)"</th><th>"Error (calibrated)"</th><th>"Bound"</th><th>"Energy"</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <h3>"Prediction error by format and regime"</h3>
                <div class="table-wrap">
                    <table class="data" id="error-summary">
                        <thead><tr>
                            <th>"Source"</th><th>"Format"</th><th>"Regime"</th><th>"Points"</th><th>"Datasheet mean"</th><th>"Datasheet worst"</th>
                            <th>"Calibrated mean"</th><th>"Calibrated worst"</th>
                        </tr></thead>
                        <tbody>{summary}</tbody>
                    </table>
                </div>
                <h3>"By phase"</h3>
                <div class="table-wrap">
                    <table class="data" id="phase-summary">
                        <thead><tr><th>"Phase"</th><th>"Kernels"</th><th>"Measured time"</th><th>"In memory-bound kernels"</th></tr></thead>
                        <tbody>{phases}</tbody>
                    </table>
                </div>
                <h3>"Fitted fractions of the datasheet (each source on its own)"</h3>
                <ul class="hint fractions" id="lab-fractions">{fractions}</ul>
                {whole_model}
                <p class="hint">{energy}</p>
            </div>
        }
        .into_any()
    }
}

/// Per phase: kernels, their measured time, and the share of it in kernels the calibrated
/// roofline calls memory-bound.
fn phase_rows(v: &LabView) -> Vec<(String, usize, f64, f64)> {
    let mut phases: Vec<String> = v
        .rows
        .iter()
        .map(|r| r.point.phase_label().to_string())
        .collect();
    phases.sort();
    phases.dedup();
    phases
        .into_iter()
        .map(|phase| {
            let members: Vec<_> = v
                .rows
                .iter()
                .filter(|r| r.point.phase_label() == phase)
                .collect();
            let time: f64 = members.iter().map(|r| r.point.time_s).sum();
            let memory: f64 = members
                .iter()
                .filter(|r| r.calibrated_bound == rooflinr_model::roofline::Bound::Memory)
                .map(|r| r.point.time_s)
                .sum();
            (
                phase,
                members.len(),
                time,
                if time > 0.0 { memory / time } else { 0.0 },
            )
        })
        .collect()
}

/// Import, export, report, clear.
#[component]
fn DataBar(
    /// The device.
    hardware: Memo<Result<Hardware, Problem>>,
    /// The lab's data against it.
    view: Memo<Option<LabView>>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let state = expect_context::<RwSignal<State>>();
    let preview = RwSignal::new(None::<String>);
    let on_file = move |ev: leptos::ev::Event| {
        let Some(file) = browser::chosen_file(&ev) else {
            return;
        };
        let name = file.name();
        wasm_bindgen_futures::spawn_local(async move {
            let message = match browser::read_text(file).await {
                Err(e) => e,
                Ok(text) => match import::import(&text) {
                    Err(e) => format!("{name} was not imported: {e}"),
                    Ok(imported) => {
                        let kind = imported.kind.name();
                        let notes = imported.notes.join("; ");
                        // A file that names a listed device puts its datasheet beside it,
                        // as `rooflinr report` does.
                        if let Some(key) = imported.hardware.clone() {
                            state.update(|s| s.hardware = key);
                        }
                        let mut added = 0;
                        lab.data.update(|d| added = d.merge(imported));
                        format!(
                            "Imported {added} record(s) from {name} ({kind}).{}",
                            if notes.is_empty() {
                                String::new()
                            } else {
                                format!(" {notes}.")
                            }
                        )
                    }
                },
            };
            lab.notice.set(Some(message));
        });
    };
    let stem = move || {
        format!(
            "rooflinr-lab-{}",
            state.with_untracked(|s| s.hardware.clone())
        )
    };
    let export = move |_| {
        let file = lab
            .data
            .with_untracked(|d| d.to_file(&state.with_untracked(|s| s.hardware.clone())));
        if let Ok(json) = serde_json::to_string_pretty(&file) {
            browser::download(&format!("{}.json", stem()), "application/json", &json);
        }
    };
    let make_report = move || -> Option<(String, String)> {
        let hw = hardware.get_untracked().ok()?;
        let data = lab.data.get_untracked();
        let kernels = data.points();
        let v = view.get_untracked()?;
        let title = format!("{} kernels", kernels.len());
        let chart_name = format!("{}.svg", stem());
        let generated = format!(
            "{} by the rooflinr calculator (measured: agent and imports)",
            js_sys::Date::new_0().to_iso_string()
        );
        let md = report::markdown(&ReportInput {
            title: &title,
            hardware: &hw,
            kernels: &kernels,
            ceilings: &v.ceilings,
            generated: &generated,
            chart_file: Some(&chart_name),
            notes: &[],
        });
        let chart = svg::chart(
            &hw,
            &kernels,
            &v.ceilings,
            &format!("{title} on {}", hw.name),
        );
        Some((md, chart))
    };
    let has_data = move || lab.data.with(|d| !d.is_empty());
    view! {
        <div class="exports lab-data" role="toolbar" aria-label="measurements">
            <label class="button">
                "Import CSV / Nsight / JSON"
                <input id="lab-import" type="file" accept=".csv,.json,.jsonl,.txt" class="visually-hidden" on:change=on_file />
            </label>
            <button disabled=move || !has_data() on:click=export>"Export JSON"</button>
            <button id="lab-report" disabled=move || !has_data() on:click=move |_| {
                if let Some((md, chart)) = make_report() {
                    browser::download(&format!("{}.md", stem()), "text/markdown", &md);
                    browser::download(&format!("{}.svg", stem()), "image/svg+xml", &chart);
                    browser::download_png(&chart, &format!("{}.png", stem()), (svg::WIDTH * 2.0) as u32, (svg::HEIGHT * 2.0) as u32);
                    preview.set(Some(md));
                }
            }>"Report (Markdown, SVG, PNG)"</button>
            <button class="link" disabled=move || !has_data() on:click=move |_| {
                let sure = web_sys::window().and_then(|w| w.confirm_with_message("Remove every measurement and import from this browser?").ok()).unwrap_or(false);
                if sure {
                    lab.data.set(Default::default());
                    preview.set(None);
                }
            }>"Clear"</button>
        </div>
        {move || preview.get().map(|md| view! {
            <details class="report-preview" open>
                <summary>"Report preview (downloaded as Markdown with its chart)"</summary>
                <pre id="report-preview">{md}</pre>
            </details>
        })}
    }
}
