//! The app shell: state from the link (or the last session), the derived analyses, the
//! layout, and the export bar.

mod compare;
mod controls;
mod deploy;
mod fields;
mod results;
mod serving;

use leptos::prelude::*;
use rooflinr_model::hardware::Hardware;

use crate::browser;
use crate::chart::data::ChartData;
use crate::chart::palette::{DARK, LIGHT};
use crate::chart::view::{CHART_ID, RooflineChart};
use crate::compute::{self, DeployView, DeviceRow, FrontPoint, ModelView, OperatorView, Problem};
use crate::export::{self, TableFormat, Tables};
use crate::lab::link::{Lab, LinkState};
use crate::lab::view::LabPanel;
use crate::lab::{self, LabData, LabView, lazy};
use crate::split::Latest;
use crate::state::{Mode, State, Theme};
use compare::Comparison;
use controls::{FormatsPanel, HardwarePanel, ModelPanel, OperatorPanel};
use deploy::{DeployPanel, DeployResults, LayoutSearch, deployment_timed, layout_front_timed};
use fields::{CurrentProblem, Segmented};
use results::{ModelResults, OperatorResults, OperatorTable, op_rows};
use serving::{
    ImportedRunsPanel, MeasuredRuns, MeasuredRunsPanel, ServingChart, ServingChartLoading,
    fetch_measured_runs,
};

/// The state to start from: the link's, else the last session's, else the defaults.
fn initial_state() -> (State, Vec<String>) {
    let q = browser::query();
    if !q.is_empty() {
        return State::from_query(&q);
    }
    match browser::saved_query() {
        Some(saved) => State::from_query(&saved),
        None => (State::default(), Vec::new()),
    }
}

/// Restores the measurements and imports saved by the last session into `lab` (their
/// reader is the lab's code, loaded for it), then sets `restored`; a session that cannot be
/// read is left out with a notice saying why. When the lab's code cannot be loaded,
/// `restored` stays unset, so that the saved session is not overwritten.
fn restore_saved_lab(lab: Lab, restored: RwSignal<bool>) {
    let Some(json) = browser::saved_lab() else {
        restored.set(true);
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        match lazy::import_text(json).await {
            // Merged: a file imported meanwhile is kept beside them.
            Ok(Ok(i)) => lab.data.update(|d| {
                d.merge(i);
            }),
            Ok(Err(e)) => lab.notice.set(Some(format!(
                "The measurements saved in this browser could not be read ({e}); they were left out."
            ))),
            Err(e) => {
                lab.notice.set(Some(format!(
                    "The measurements saved in this browser were not restored: {e}."
                )));
                return;
            }
        }
        restored.set(true);
    });
}

/// Runs an analysis and measures how long it took in this browser, in ms.
fn timed<T>(f: impl FnOnce() -> Result<T, Problem>) -> (Result<T, Problem>, f64) {
    let t0 = browser::now_ms();
    let r = f();
    (r, browser::now_ms() - t0)
}

/// An analysis result with how long it took to compute, in ms.
type Timed<T> = Option<(Result<T, Problem>, f64)>;

/// Milliseconds between two writes of the query to the address bar and local storage.
const URL_INTERVAL_MS: f64 = 250.0;

/// Writes the state's query to the address bar and local storage, no more often than
/// every [`URL_INTERVAL_MS`]: a write that comes sooner waits, and a later one replaces it.
#[derive(Default)]
struct UrlWriter {
    /// When the last write happened (`performance.now()`, ms).
    last_ms: Option<f64>,
    /// The write waiting for the interval to pass.
    pending: Option<TimeoutHandle>,
}

impl UrlWriter {
    fn write(&mut self, query: String, this: StoredValue<UrlWriter>) {
        if let Some(waiting) = self.pending.take() {
            waiting.clear();
        }
        let now = browser::now_ms();
        let wait = self
            .last_ms
            .map_or(0.0, |last| URL_INTERVAL_MS - (now - last));
        if wait <= 0.0 {
            self.last_ms = Some(now);
            browser::replace_query(&query);
            browser::save_query(&query);
            return;
        }
        self.pending = set_timeout_with_handle(
            move || {
                this.update_value(|w| {
                    w.pending = None;
                    w.last_ms = Some(browser::now_ms());
                });
                browser::replace_query(&query);
                browser::save_query(&query);
            },
            std::time::Duration::from_millis(wait.ceil() as u64),
        )
        .ok();
    }
}

/// The problem an analysis ran into, if any.
fn problem_of<T>(timed: &Timed<T>) -> Option<Problem> {
    match timed {
        Some((Err(p), _)) => Some(p.clone()),
        _ => None,
    }
}

/// The whole calculator.
#[component]
pub fn App() -> impl IntoView {
    let (initial, warnings) = initial_state();
    let state = RwSignal::new(initial);
    provide_context(state);
    let warnings = RwSignal::new(warnings);
    let lab = Lab::new(LabData::default());
    provide_context(lab);
    let restored = RwSignal::new(false);
    restore_saved_lab(lab, restored);
    // A pairing link's fragment wins over the agent remembered from last time; either way
    // the token leaves the address bar.
    if let Some(p) = lab::pairing_from_fragment(&browser::fragment()) {
        browser::clear_fragment();
        lab.pair(p);
    } else if let Some(p) = browser::saved_pairing().and_then(|f| lab::pairing_from_fragment(&f)) {
        lab.pair(p);
    }
    // Pairing with a GPU the registry lists puts its datasheet beside the measurements.
    Effect::new(move |_| {
        let device = lab.link.with(|link| match link {
            LinkState::Connected { hello, .. } => lab::paired_registry_device(hello),
            _ => None,
        });
        if let Some((name, key)) = device
            && state.with_untracked(|s| s.hardware != key)
        {
            state.update(|s| s.hardware = key.clone());
            lab.notice.set(Some(format!(
                "Paired with {name}: its datasheet ({key}) is now selected."
            )));
        }
    });
    // The browser keeps the lab's data (once the saved session is restored, so that it is
    // not overwritten first). Writes finish out of order while the lab's code loads: each
    // is numbered, and only the latest is kept.
    let saves = Latest::new();
    Effect::new(move |_| {
        if !restored.get() {
            return;
        }
        let file = lab.data.with(|d| {
            (!d.is_empty()).then(|| d.to_file(&state.with_untracked(|s| s.hardware.clone())))
        });
        let ticket = saves.start();
        let Some(file) = file else {
            browser::forget_lab();
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            let json = lazy::file_json(file, false).await;
            if !saves.is_current(ticket) {
                return;
            }
            let saved = match json {
                Ok(Ok(json)) => browser::save_lab(&json),
                Ok(Err(e)) => Err(e),
                Err(e) => Err(e.to_string()),
            };
            if let Err(e) = saved {
                lab.notice.set(Some(format!(
                    "The measurements were not saved in this browser: {e}."
                )));
            }
        });
    });

    // The address bar and the saved session follow the inputs: at once after a pause, and
    // at most every `URL_INTERVAL_MS` while a slider is dragged, then once more with the
    // last value. Replacing the history entry cost as much as re-rendering the results on
    // each step of a drag, and Chrome throttles pages that replace it too often.
    let url_writer = StoredValue::new(UrlWriter::default());
    Effect::new(move |_| {
        let q = state.with(State::to_query);
        url_writer.update_value(|w| w.write(q, url_writer));
    });

    let dark = Memo::new(move |_| match state.with(|s| s.theme) {
        Theme::Dark => true,
        Theme::Light => false,
        Theme::Auto => browser::prefers_dark(),
    });
    let palette = Signal::derive(move || if dark.get() { DARK } else { LIGHT });
    let mode = Memo::new(move |_| state.with(|s| s.mode));
    let hardware = Memo::new(move |_| state.with(compute::hardware));
    let operator: Memo<Timed<OperatorView>> = Memo::new(move |_| {
        (mode.get() == Mode::Operator).then(|| {
            timed(|| {
                let hw = hardware.get()?;
                state.with(|s| compute::operator(s, &hw))
            })
        })
    });
    let model: Memo<Timed<ModelView>> = Memo::new(move |_| {
        (mode.get() == Mode::Model).then(|| {
            timed(|| {
                let hw = hardware.get()?;
                state.with(|s| compute::model(s, &hw))
            })
        })
    });
    // The deployment, computed by deployment mode's code (loaded on its first use,
    // `crate::split`); an answer that arrives after a newer request is dropped, and the
    // last one stays on the page meanwhile.
    // NVIDIA's measured serving runs, fetched beside the page when deployment mode first
    // opens (the first view does not carry them); until then, or where they cannot be
    // had, the deployment is computed without them and the chart says why.
    let measured_runs = RwSignal::new(MeasuredRuns::NotFetched);
    Effect::new(move |_| {
        if mode.get() != Mode::Deploy || measured_runs.get_untracked() != MeasuredRuns::NotFetched {
            return;
        }
        measured_runs.set(MeasuredRuns::Fetching);
        wasm_bindgen_futures::spawn_local(async move {
            let read = match fetch_measured_runs().await {
                Ok(fetch) => fetch.await,
                Err(e) => MeasuredRuns::Failed(e.to_string()),
            };
            measured_runs.set(read);
        });
    });
    provide_context(measured_runs);
    // A serving benchmark's result file the user imported (not kept in the address).
    let imported_runs = RwSignal::new(None::<std::sync::Arc<crate::compute::ImportedRuns>>);
    provide_context(imported_runs);
    let deployment_answer = RwSignal::new(None::<(Result<DeployView, Problem>, f64)>);
    let deployments = Latest::new();
    Effect::new(move |_| {
        let inputs = (mode.get() == Mode::Deploy).then(|| (hardware.get(), state.get()));
        let runs = measured_runs.with(MeasuredRuns::runs);
        let imported = imported_runs.get();
        let ticket = deployments.start();
        match inputs {
            None => deployment_answer.set(None),
            Some((Err(p), _)) => deployment_answer.set(Some((Err(p), 0.0))),
            Some((Ok(hw), s)) => wasm_bindgen_futures::spawn_local(async move {
                let answer = deployment_timed(s, hw, runs, imported)
                    .await
                    .unwrap_or_else(|e| {
                        (
                            Err(Problem {
                                field: "Many GPUs".into(),
                                message: e.to_string(),
                            }),
                            0.0,
                        )
                    });
                if deployments.is_current(ticket) {
                    deployment_answer.set(Some(answer));
                }
            }),
        }
    });
    let deployment: Memo<Timed<DeployView>> = Memo::new(move |_| deployment_answer.get());
    // The front of the other layouts of the same GPUs does not depend on the chosen
    // degrees' split or the concurrency: recompute it only when what it depends on changes.
    let front_key = Memo::new(move |_| {
        // Disaggregated workers have no front of one layout's GPUs to stand against.
        let ok = deployment.with(|d| matches!(d, Some((Ok(v), _)) if v.disaggregated.is_none()));
        let gpus = deployment.with(|d| match d {
            Some((Ok(v), _)) => v.deployment.layout.gpus(),
            _ => 0,
        });
        state.with(|s| {
            (
                ok,
                gpus,
                s.model.clone(),
                s.config.clone(),
                s.hardware.clone(),
                s.custom.clone(),
                (
                    s.activations.clone(),
                    s.weights.clone(),
                    s.kv.clone(),
                    s.experts.clone(),
                ),
                (
                    s.prompt.clone(),
                    s.generated.clone(),
                    s.overlap,
                    s.calibrated,
                ),
                (s.serving, s.framework),
            )
        })
    });
    let front_answer = RwSignal::new((Vec::<FrontPoint>::new(), 0.0));
    let fronts = Latest::new();
    Effect::new(move |_| {
        front_key.track();
        let ticket = fronts.start();
        let hw = hardware
            .get_untracked()
            .ok()
            .filter(|_| front_key.with_untracked(|k| k.0));
        let Some(hw) = hw else {
            front_answer.set((Vec::new(), 0.0));
            return;
        };
        let s = state.get_untracked();
        wasm_bindgen_futures::spawn_local(async move {
            let answer = layout_front_timed(s, hw).await.unwrap_or_default();
            if fronts.is_current(ticket) {
                front_answer.set(answer);
            }
        });
    });
    let front: Memo<(Vec<FrontPoint>, f64)> = Memo::new(move |_| front_answer.get());
    // Devices side by side: the chosen device's analysis and one more per compared device,
    // with the time the extra analyses took.
    let comparison: Memo<(Vec<DeviceRow>, f64)> = Memo::new(move |_| {
        let Ok(hw) = hardware.get() else {
            return (Vec::new(), 0.0);
        };
        model.with(|m| match m {
            Some((Ok(v), _)) => {
                let start = browser::now_ms();
                let rows = state.with(|s| compute::comparison(s, &hw, v));
                (rows, browser::now_ms() - start)
            }
            _ => (Vec::new(), 0.0),
        })
    });
    // The decode curve does not depend on the chosen length: recompute it only when what it
    // does depend on changes, not on every step of a length slider.
    let curve_key = Memo::new(move |_| {
        let ok = model.with(|m| matches!(m, Some((Ok(_), _))));
        state.with(|s| {
            (
                ok,
                s.model.clone(),
                s.config.clone(),
                s.hardware.clone(),
                s.custom.clone(),
                s.batch.clone(),
                (
                    s.activations.clone(),
                    s.weights.clone(),
                    s.kv.clone(),
                    s.experts.clone(),
                ),
            )
        })
    });
    let curve = Memo::new(move |_| {
        curve_key.track();
        let hw = hardware.get_untracked().ok()?;
        model.with_untracked(|m| match m {
            Some((Ok(v), _)) => Some(compute::decode_curve(v, &hw)),
            _ => None,
        })
    });
    let table = Memo::new(move |_| {
        model.with(|m| match m {
            Some((Ok(v), _)) => op_rows(&v.analysis),
            _ => Vec::new(),
        })
    });
    let problem = Signal::derive(move || {
        hardware
            .get()
            .err()
            .or_else(|| operator.with(problem_of))
            .or_else(|| model.with(problem_of))
            .or_else(|| deployment.with(problem_of))
    });
    provide_context(CurrentProblem(problem));
    // The lab's data against the device, computed by the lab's code (loaded for it) each
    // time either changes; an answer that arrives after a newer request is dropped.
    let lab_analysis = RwSignal::new(None::<LabView>);
    let analyses = Latest::new();
    Effect::new(move |_| {
        let hw = hardware.get().ok();
        let data = lab.data.with(|d| (!d.is_empty()).then(|| d.clone()));
        let ticket = analyses.start();
        match (data, hw) {
            (Some(data), Some(hw)) => wasm_bindgen_futures::spawn_local(async move {
                let view = lazy::analyse(data, hw).await;
                if !analyses.is_current(ticket) {
                    return;
                }
                match view {
                    Ok(view) => lab_analysis.set(Some(view)),
                    Err(e) => lab.notice.set(Some(format!(
                        "The measurements could not be compared with the datasheet: {e}."
                    ))),
                }
            }),
            _ => lab_analysis.set(None),
        }
    });
    let lab_view: Memo<Option<LabView>> = Memo::new(move |_| lab_analysis.get());
    let model_view =
        Memo::new(move |_| model.with(|m| m.as_ref().and_then(|(r, _)| r.as_ref().ok().cloned())));
    // What model mode shows: nothing yet, the results, or a problem. The results are built
    // once per switch between these and then update in place.
    let model_status =
        Memo::new(move |_| model.with(|m| m.as_ref().map(|(r, _)| r.as_ref().err().cloned())));
    let model_ms = Memo::new(move |_| model.with(|m| m.as_ref().map_or(0.0, |(_, ms)| *ms)));
    let chart = Memo::new(move |_| {
        let hw = hardware.get().ok()?;
        let chart = match mode.get() {
            Mode::Operator => operator.with(|o| {
                o.as_ref()
                    .and_then(|(r, _)| r.as_ref().ok())
                    .map(|v| ChartData::for_operator(&hw, v))
            }),
            Mode::Model => model.with(|m| {
                m.as_ref()
                    .and_then(|(r, _)| r.as_ref().ok())
                    .map(|v| ChartData::for_model(&hw, v))
            }),
            // Deployment mode draws the serving chart instead.
            Mode::Deploy => None,
        }?;
        Some(lab_view.with(|l| match l {
            Some(l) => chart.with_lab(l),
            None => chart,
        }))
    });
    Effect::new(move |first: Option<()>| {
        if first.is_none() && chart.with(Option::is_some) {
            browser::mark("rooflinr:first-chart");
        }
    });

    let results = move || {
        let pal = palette.get();
        match mode.get() {
            Mode::Operator => operator.get().map(|(r, ms)| match r {
                Ok(v) => {
                    view! { <OperatorResults view=v palette=pal /><Timing ms=ms /> }.into_any()
                }
                Err(p) => view! { <ProblemBox problem=p /> }.into_any(),
            }),
            Mode::Model => model_status.get().map(|problem| match problem {
                None => view! {
                    <ModelResults model=model_view curve=curve palette=palette />
                    <Timing ms=model_ms />
                }
                .into_any(),
                Some(p) => view! { <ProblemBox problem=p /> }.into_any(),
            }),
            // Until deployment mode's code has loaded and answered (once).
            Mode::Deploy if deployment.with(Option::is_none) => Some(
                view! { <p class="hint" id="deploy-loading">"Loading the deployment model…"</p> }
                    .into_any(),
            ),
            Mode::Deploy => deployment.get().map(|(r, ms)| match r {
                Ok(v) => {
                    let front_ms = front.with(|f| f.1);
                    let timing = if v.disaggregated.is_some() {
                        format!("Computed in {ms:.1} ms in your browser.")
                    } else {
                        format!(
                            "Computed in {ms:.1} ms in your browser; the front of every layout of these GPUs in {front_ms:.1} ms."
                        )
                    };
                    view! {
                        <DeployResults view=v palette=pal />
                        <p class="timing">{timing}</p>
                    }
                    .into_any()
                }
                Err(p) => view! { <ProblemBox problem=p /> }.into_any(),
            }),
        }
    };
    let serving_chart = move || {
        deployment.with(|d| match d {
            Some((Ok(v), _)) => view! {
                <ServingChart view=v.clone() front=front.with(|f| f.0.clone()) palette=palette.get() />
                <MeasuredRunsPanel view=v.clone() />
                <ImportedRunsPanel view=v.clone() />
            }
            .into_any(),
            // The chart's frame while deployment mode's code loads, so nothing moves when
            // the chart arrives.
            None => view! { <ServingChartLoading palette=palette.get() /> }.into_any(),
            Some((Err(_), _)) => ().into_any(),
        })
    };
    let title = move || match (hardware.get(), mode.get()) {
        (Ok(hw), Mode::Model) => format!(
            "{} on {}",
            state.with(|s| if s.model == crate::state::CUSTOM {
                "your model".to_string()
            } else {
                s.model.clone()
            }),
            hw.name
        ),
        (Ok(hw), Mode::Operator) => format!(
            "{} on {}",
            state.with(|s| format!("{:?}", s.op).to_ascii_uppercase()),
            hw.name
        ),
        (Ok(hw), Mode::Deploy) => {
            let gpus = deployment.with(|d| match d {
                Some((Ok(v), _)) => v.deployment.layout.gpus().to_string(),
                _ => "several".into(),
            });
            format!(
                "{} on {gpus} × {}",
                state.with(|s| if s.model == crate::state::CUSTOM {
                    "your model".to_string()
                } else {
                    s.model.clone()
                }),
                hw.name
            )
        }
        (Err(_), _) => "Roofline".into(),
    };

    view! {
        <div class="app" data-theme=move || if dark.get() { "dark" } else { "light" }>
            <header class="top">
                <div class="brand">
                    <span class="logo" aria-hidden="true"></span>
                    <div>
                        <h1>"rooflinr"</h1>
                        <p class="tagline">"How fast should this transformer run on this chip, in which format?"</p>
                    </div>
                </div>
                <nav class="modes">
                    <Segmented
                        label="analysis"
                        options=vec![(Mode::Model, "Whole model"), (Mode::Deploy, "Many GPUs"), (Mode::Operator, "One operator")]
                        get=|s| s.mode
                        set=|s, v| s.mode = v
                    />
                </nav>
                <Segmented
                    label="theme"
                    options=vec![(Theme::Auto, "Auto"), (Theme::Light, "Light"), (Theme::Dark, "Dark")]
                    get=|s| s.theme
                    set=|s, v| s.theme = v
                />
            </header>
            {move || {
                let w = warnings.get();
                (!w.is_empty()).then(|| view! {
                    <div class="notice" role="status">
                        <ul>{w.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
                        <button class="link" on:click=move |_| warnings.set(Vec::new())>"dismiss"</button>
                    </div>
                })
            }}
            <main class="layout">
                <aside class="controls">
                    <HardwarePanel hardware=hardware />
                    {move || match mode.get() {
                        Mode::Model => view! { <ModelPanel /> }.into_any(),
                        Mode::Deploy => view! { <DeployPanel hardware=hardware /> }.into_any(),
                        Mode::Operator => view! { <OperatorPanel /> }.into_any(),
                    }}
                    <FormatsPanel />
                </aside>
                <section class="output">
                    <div class="output-head">
                        <h2 id="analysis-title">{title}</h2>
                        <ExportBar hardware=hardware operator=operator model=model comparison=comparison deployment=deployment />
                    </div>
                    <Show when=move || mode.get() != Mode::Deploy fallback=serving_chart>
                        <RooflineChart data=chart palette=palette />
                    </Show>
                    <div class="results" aria-live="polite">
                        {results}
                        {move || {
                            comparison.with(|(rows, ms)| {
                                (!rows.is_empty()).then(|| {
                                    view! { <Comparison rows=rows.clone() palette=palette.get() ms=*ms /> }
                                })
                            })
                        }}
                        <Show when=move || !table.with(Vec::is_empty)>
                            <OperatorTable rows=table />
                        </Show>
                        <Show when=move || mode.get() == Mode::Deploy>
                            <LayoutSearch hardware=hardware />
                        </Show>
                    </div>
                    <LabPanel hardware=hardware view=lab_view model=Signal::from(model_view) />
                </section>
            </main>
            <footer>
                "Predictions on this page are computed in your browser from datasheet numbers (sources under Hardware); measured figures come only from your agent or your imports, and are marked as measured. "
                <a href="https://github.com/rooflinr/rooflinr">"rooflinr"</a>
            </footer>
        </div>
    }
}

/// The inline message for inputs that cannot be analysed.
#[component]
fn ProblemBox(
    /// What is wrong.
    problem: Problem,
) -> impl IntoView {
    view! {
        <div class="problem" role="alert" id="problem">
            <strong>{format!("Check “{}”", problem.field)}</strong>
            <p>{problem.message}</p>
        </div>
    }
}

/// How long the analysis took in this browser.
#[component]
fn Timing(
    /// Milliseconds.
    #[prop(into)]
    ms: Signal<f64>,
) -> impl IntoView {
    view! { <p class="timing">{move || format!("Computed in {:.1} ms in your browser.", ms.get())}</p> }
}

/// Downloads of the chart and tables, and the shareable link.
#[component]
fn ExportBar(
    /// The device.
    hardware: Memo<Result<Hardware, Problem>>,
    /// The operator analysis (operator mode).
    operator: Memo<Timed<OperatorView>>,
    /// The model analysis (model mode).
    model: Memo<Timed<ModelView>>,
    /// Devices side by side (model mode), when any are compared.
    comparison: Memo<(Vec<DeviceRow>, f64)>,
    /// The deployment (deployment mode).
    deployment: Memo<Timed<DeployView>>,
) -> impl IntoView {
    let copied = RwSignal::new(false);
    // Why the last export failed, if it did.
    let failed = RwSignal::new(None::<String>);
    let link = move || {
        format!(
            "{}?{}",
            browser::base_url(),
            expect_context::<RwSignal<State>>().with_untracked(State::to_query)
        )
    };
    let state = expect_context::<RwSignal<State>>();
    let tables = move |format: TableFormat| {
        let Ok(hw) = hardware.get_untracked() else {
            return;
        };
        let link = format!(
            "{}?{}",
            browser::base_url(),
            state.with_untracked(State::to_query)
        );
        let stem = state.with_untracked(|s| match s.mode {
            Mode::Model => format!("rooflinr-{}-{}", s.model, s.hardware),
            Mode::Deploy => format!("rooflinr-deploy-{}-{}", s.model, s.hardware),
            Mode::Operator => format!("rooflinr-operator-{}", s.hardware),
        });
        let tables = if let Some((Ok(v), _)) = operator.get_untracked() {
            Tables::Operator(v)
        } else if let Some((Ok(view), _)) = model.get_untracked() {
            Tables::Model {
                view,
                comparison: comparison.with_untracked(|(rows, _)| rows.clone()),
            }
        } else if let Some((Ok(view), _)) = deployment.get_untracked() {
            Tables::Deploy {
                view: Box::new(view),
                precision: state.with_untracked(compute::precision).ok(),
            }
        } else {
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            match export::table_file(hw, tables, format, link).await {
                Ok(Some(text)) => {
                    failed.set(None);
                    let (ext, mime) = format.file_type();
                    browser::download(&format!("{stem}.{ext}"), mime, &text);
                }
                Ok(None) => {}
                Err(e) => failed.set(Some(format!("Nothing was exported: {e}."))),
            }
        });
    };
    let copy = move |_| {
        if browser::copy_to_clipboard(&link()) {
            copied.set(true);
            set_timeout(
                move || copied.set(false),
                std::time::Duration::from_millis(1500),
            );
        }
    };
    view! {
        <div class="exports" role="toolbar" aria-label="export">
            <button on:click=copy>{move || if copied.get() { "Link copied" } else { "Copy link" }}</button>
            <button on:click=move |_| {
                if let Some(svg) = browser::svg_markup(CHART_ID) {
                    browser::download("rooflinr-roofline.svg", "image/svg+xml", &svg);
                }
            }>"SVG"</button>
            <button on:click=move |_| {
                if let Some(svg) = browser::svg_markup(CHART_ID) {
                    // 1920 pixels wide, as tall as the chart's own proportions (the
                    // phone frame is taller than wide).
                    let (w, h) = browser::svg_size(CHART_ID).unwrap_or((16.0, 9.0));
                    browser::download_png(&svg, "rooflinr-roofline.png", 1920, (1920.0 * h / w).round() as u32);
                }
            }>"PNG"</button>
            <button on:click=move |_| tables(TableFormat::Csv)>"CSV"</button>
            <button on:click=move |_| tables(TableFormat::Json)>"JSON"</button>
            <button on:click=move |_| tables(TableFormat::Markdown)>"Report"</button>
            {move || failed.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
        </div>
    }
}
