//! Deployment mode's chart, the one people compare serving systems by: output tokens/s per
//! GPU against tokens/s per user as concurrency grows, with the front of the other layouts
//! of the same GPUs, and NVIDIA's measured runs of the same model, device, engine and
//! format beside the prediction.

use std::sync::Arc;

use leptos::prelude::*;
use rooflinr_model::deploy::serving::runs::{self, MeasuredRun};
use rooflinr_model::units::si;

use crate::browser;
use crate::chart::geometry::{self, Extent, Frame};
use crate::chart::palette::Palette;
use crate::chart::view::log_grid;
use crate::chart::view::{CHART_ID, MEASURED};
use crate::compute::{DeployView, FrontPoint, ImportedRuns};
use crate::lab::link::{Lab, LinkState};
use crate::lab::view::energy_window_card;

/// NVIDIA's measured serving runs as the page has them: fetched when deployment mode first
/// opens.
#[derive(Clone, Debug, PartialEq)]
pub enum MeasuredRuns {
    /// Deployment mode has not been opened.
    NotFetched,
    /// On their way.
    Fetching,
    /// Read.
    Read(Arc<[MeasuredRun]>),
    /// Not to be had: why.
    Failed(String),
}

impl MeasuredRuns {
    /// The runs read (none until they are).
    pub fn runs(&self) -> Arc<[MeasuredRun]> {
        match self {
            MeasuredRuns::Read(runs) => runs.clone(),
            _ => Arc::from([]),
        }
    }
}

/// An x of half-width `r` at (`x`, `y`): a measured point, as on the roofline chart.
fn cross(x: f64, y: f64, r: f64) -> String {
    let (x0, x1, y0, y1) = (x - r, x + r, y - r, y + r);
    format!("M{x0:.1},{y0:.1} L{x1:.1},{y1:.1} M{x0:.1},{y1:.1} L{x1:.1},{y0:.1}")
}

/// NVIDIA's measured runs of the deployment's model, device, engine and format: a table of
/// those of its layout and lengths beside the prediction, and the layouts and lengths the
/// others were measured at (their markup made by deployment mode's code,
/// [`crate::compute::Measured::html`]).
#[component]
pub fn MeasuredRunsPanel(
    /// The deployment and the runs beside it.
    view: DeployView,
) -> impl IntoView {
    let runs = expect_context::<RwSignal<MeasuredRuns>>();
    let m = view.measured;
    // Until the runs are read, or why they are not; then what the sample covers where it
    // has none of these. The deployment is computed again when the runs arrive, and this
    // drawn again with it.
    let status = match runs.get_untracked() {
        MeasuredRuns::NotFetched | MeasuredRuns::Fetching => {
            "Fetching NVIDIA's measured serving runs…".to_string()
        }
        MeasuredRuns::Failed(e) => format!("NVIDIA's measured serving runs are not shown: {e}."),
        MeasuredRuns::Read(_) => m.coverage,
    };
    view! {
        <section class="measured" aria-label="Measured serving runs">
            <p class="hint" role="status">{status}</p>
            <div inner_html=m.html></div>
            <p class="hint">{format!("Measured runs: {}.", runs::MEASURED_RUNS_SOURCE)}</p>
        </section>
    }
}

/// A serving benchmark's result file of the user's: the button that reads one, what went
/// wrong, and its runs beside the prediction ([`crate::compute::Imported`]).
#[component]
pub fn ImportedRunsPanel(
    /// The deployment and the imported runs beside it.
    view: DeployView,
) -> impl IntoView {
    let imported = expect_context::<RwSignal<Option<Arc<ImportedRuns>>>>();
    let notice = RwSignal::new(None::<String>);
    let on_file = move |ev: leptos::ev::Event| {
        let Some(file) = browser::chosen_file(&ev) else {
            return;
        };
        let name = file.name();
        wasm_bindgen_futures::spawn_local(async move {
            let read = match browser::read_text(file).await {
                Err(e) => Err(e),
                Ok(text) => super::deploy::read_serving_runs(name.clone(), text)
                    .await
                    .unwrap_or_else(|e| Err(e.to_string())),
            };
            match read {
                Ok(runs) => {
                    notice.set(None);
                    imported.set(Some(Arc::new(runs)));
                }
                Err(e) => notice.set(Some(format!("{name} was not imported: {e}"))),
            }
        });
    };
    let gpus = view.deployment.layout.gpus();
    let board = view
        .energy
        .as_ref()
        .map(|e| e.energy.power.clone())
        .filter(|p| !p.measured);
    let m = view.imported;
    let has = !m.points.is_empty();
    let beside = m.clone();
    // The energy window is the lab's code: it loads with the pairing.
    let lab = expect_context::<Lab>();
    let lab_paired = move || lab.link.with(|l| matches!(l, LinkState::Connected { .. }));
    view! {
        <section class="imported" aria-label="Your measured serving runs">
            <div class="exports" role="toolbar" aria-label="serving runs">
                <label class="button">
                    "Import a serving benchmark's result"
                    <input id="serving-import" type="file" accept=".json,.jsonl,.csv" class="visually-hidden" on:change=on_file />
                </label>
                {has.then(|| view! {
                    <button class="link" on:click=move |_| imported.set(None)>"Remove"</button>
                })}
            </div>
            <p class="hint" role="status" id="serving-import-status">{move || notice.get().unwrap_or_else(|| {
                if has {
                    String::new()
                } else {
                    "vllm bench serve --save-result, SGLang bench_serving, GuideLLM or GenAI-Perf JSON: each run is put beside this deployment's prediction for its clients and lengths. The file stays in this browser.".to_string()
                }
            })}</p>
            {has.then(|| view! {
                <p class="hint">{m.caption}</p>
                <div inner_html=m.html></div>
            })}
            <Show
                when=move || lab_paired()
                fallback=|| view! {
                    <p class="hint" id="energy-window-status">"Pair an agent on the GPU host to record its energy (NVML) while a serving benchmark runs there."</p>
                }
            >
                {
                    let (imported, board) = (beside.clone(), board.clone());
                    Suspend::new(async move {
                        energy_window_card(imported, gpus, board).await.unwrap_or_else(|e| {
                            view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any()
                        })
                    })
                }
            </Show>
        </section>
    }
}

/// The serving chart's canvas.
const CANVAS: Frame = Frame {
    width: 800.0,
    height: 440.0,
    left: 76.0,
    right: 20.0,
    top: 20.0,
    bottom: 52.0,
};

/// The serving chart's empty frame, the size the chart will be, while deployment mode's
/// code loads.
#[component]
pub fn ServingChartLoading(
    /// Colours.
    palette: Palette,
) -> impl IntoView {
    let f = if browser::viewport_width() <= geometry::NARROW_VIEWPORT_PX {
        Frame::NARROW
    } else {
        CANVAS
    };
    view! {
        <figure class="chart">
            <svg
                class="serving-chart"
                xmlns="http://www.w3.org/2000/svg"
                viewBox=format!("0 0 {} {}", f.width, f.height)
                role="img"
                aria-label="The serving chart, loading"
                font-family="Inter, system-ui, -apple-system, Segoe UI, sans-serif"
            >
                <rect width=f.width height=f.height fill=palette.background></rect>
                <text x=f.width / 2.0 y=f.height / 2.0 text-anchor="middle" fill=palette.muted font-size="14">
                    "Loading the deployment model…"
                </text>
            </svg>
        </figure>
    }
}

/// Output tokens/s per GPU against tokens/s per user: the chosen layout's curve over
/// concurrency, its chosen point, and the front of the other layouts of the same GPUs.
#[component]
pub fn ServingChart(
    /// The deployment and its curve.
    view: DeployView,
    /// The front of the other layouts (empty while it is computed or when it failed).
    front: Vec<FrontPoint>,
    /// Colours.
    palette: Palette,
) -> impl IntoView {
    let pal = palette;
    let f = if browser::viewport_width() <= geometry::NARROW_VIEWPORT_PX {
        Frame::NARROW
    } else {
        CANVAS
    };
    let mut extent = Extent::default();
    for s in &view.curve {
        extent.include(s.tokens_per_s_per_user, s.tokens_per_s_per_gpu);
    }
    for p in &front {
        extent.include(p.per_user, p.per_gpu);
    }
    let measured = view.measured.here.clone();
    for m in &measured {
        extent.include(m.run.tokens_per_s_per_user(), m.run.tokens_per_s_per_gpu());
    }
    // The user's imported runs with both figures to place them by.
    let imported: Vec<_> = view
        .imported
        .points
        .iter()
        .filter_map(|p| Some((p, p.per_user()?, p.per_gpu?)))
        .collect();
    for (_, x, y) in &imported {
        extent.include(*x, *y);
    }
    let v = extent.fit();
    let grid = log_grid(&v, &f, &pal);
    let polyline = |points: &[(f64, f64)]| -> String {
        points
            .iter()
            .enumerate()
            .map(|(i, (x, y))| {
                let (px, py) = v.project(&f, *x, *y);
                format!("{}{px:.1},{py:.1}", if i == 0 { "M" } else { " L" })
            })
            .collect()
    };
    let front_line = polyline(
        &front
            .iter()
            .map(|p| (p.per_user, p.per_gpu))
            .collect::<Vec<_>>(),
    );
    let front_points = front
        .iter()
        .map(|p| {
            let (px, py) = v.project(&f, p.per_user, p.per_gpu);
            view! {
                <circle cx=px cy=py r="3.5" fill=pal.muted>
                    <title>{format!(
                        "{} at {} requests: {:.1} tokens/s per user, {:.1} per GPU",
                        p.layout, p.concurrency, p.per_user, p.per_gpu
                    )}</title>
                </circle>
            }
        })
        .collect_view();
    let colour = pal.series[0];
    let curve_line = polyline(
        &view
            .curve
            .iter()
            .map(|s| (s.tokens_per_s_per_user, s.tokens_per_s_per_gpu))
            .collect::<Vec<_>>(),
    );
    let chosen = view.serving();
    // What the curve is of: one layout's replicas, or the disaggregated workers.
    let one_layout = view.disaggregated.is_none();
    let (layout, gpus) = match view.disaggregated {
        Some(x) => (x.workers.to_string(), x.workers.gpus()),
        None => (
            view.deployment.layout.to_string(),
            view.deployment.layout.gpus(),
        ),
    };
    // The point in focus (keyboard) or under the pointer: its figures under the chart.
    let focused = RwSignal::new(None::<String>);
    let curve_points = view
        .curve
        .iter()
        .map(|s| {
            let (px, py) = v.project(&f, s.tokens_per_s_per_user, s.tokens_per_s_per_gpu);
            let is_chosen = s.concurrency == chosen.concurrency;
            let figures = format!(
                "{layout}, {} requests: {:.1} tokens/s per user, {:.1} per GPU, first token in {}",
                s.concurrency,
                s.tokens_per_s_per_user,
                s.tokens_per_s_per_gpu,
                si(s.ttft.get(), "s")
            );
            let shown = figures.clone();
            let label = figures.clone();
            view! {
                <circle
                    class="point"
                    tabindex="0"
                    role="img"
                    aria-label=label
                    cx=px
                    cy=py
                    r=if is_chosen { "7" } else { "4.5" }
                    fill=if is_chosen { pal.background } else { colour }
                    stroke=colour
                    stroke-width=if is_chosen { "3" } else { "1" }
                    on:focus=move |_| focused.set(Some(shown.clone()))
                    on:blur=move |_| focused.set(None)
                >
                    <title>{figures}</title>
                </circle>
            }
        })
        .collect_view();
    // Measured runs (NVIDIA's of this layout and these lengths, and the imported file's):
    // crosses, each with a dotted line to its prediction (one path for all the lines).
    let mut to_predicted = String::new();
    let mut mark = |class: &'static str,
                    colour: &'static str,
                    at: (f64, f64),
                    predicted: Option<(f64, f64)>,
                    title: String| {
        let (x, y) = v.project(&f, at.0, at.1);
        if let Some((px, py)) = predicted.map(|(u, g)| v.project(&f, u, g)) {
            to_predicted += &format!("M{x:.1},{y:.1} L{px:.1},{py:.1} ");
        }
        view! {
            <path class=class d=cross(x, y, 6.0) fill="none" stroke=colour stroke-width="2.5" stroke-linecap="round">
                <title>{title}</title>
            </path>
        }
    };
    let measured_marks = measured
        .iter()
        .map(|m| {
            mark(
                "measured-run",
                MEASURED,
                (m.run.tokens_per_s_per_user(), m.run.tokens_per_s_per_gpu()),
                m.predicted
                    .map(|p| (p.tokens_per_s_per_user, p.tokens_per_s_per_gpu)),
                m.title.clone(),
            )
        })
        .collect_view();
    let imported_colour = pal.series[1];
    let imported_marks = imported
        .iter()
        .map(|(p, per_user, per_gpu)| {
            mark(
                "imported-run",
                imported_colour,
                (*per_user, *per_gpu),
                p.predicted_point(gpus),
                p.title.clone(),
            )
        })
        .collect_view();
    let imported_legend = (!imported.is_empty()).then(|| {
        let n = imported.len();
        format!(
            "measured, your file, {n} run{}",
            if n == 1 { "" } else { "s" }
        )
    });
    let measured_legend = (!measured.is_empty()).then(|| {
        let n = measured.len();
        format!(
            "measured by NVIDIA, {n} run{}",
            if n == 1 { "" } else { "s" }
        )
    });
    let summary = format!(
        "Output tokens per second per GPU against tokens per second per user for {layout} on {} GPUs as concurrency grows; at {} requests, {:.1} per user and {:.1} per GPU.{}{}",
        gpus,
        chosen.concurrency,
        chosen.tokens_per_s_per_user,
        chosen.tokens_per_s_per_gpu,
        if front.is_empty() {
            String::new()
        } else {
            format!(" The dashed line is the best of every layout of {gpus} GPUs.")
        },
        measured_legend
            .as_ref()
            .map_or(String::new(), |l| format!(" Crosses: {l}.")),
    ) + &imported_legend.as_ref().map_or(String::new(), |l| {
        format!(" Crosses in the second colour: {l}.")
    });
    // Bottom left: low throughput at low speed, where no curve goes.
    let legend_y = f.y1()
        - 30.0
        - if measured_legend.is_some() { 18.0 } else { 0.0 }
        - if imported_legend.is_some() { 18.0 } else { 0.0 };
    let imported_y = legend_y
        + if measured_legend.is_some() {
            54.0
        } else {
            36.0
        };
    let lx = f.x0() + 12.0;
    view! {
        <figure class="chart">
            <svg
                id=CHART_ID
                class="serving-chart"
                xmlns="http://www.w3.org/2000/svg"
                viewBox=format!("0 0 {} {}", f.width, f.height)
                role="group"
                aria-label=summary
                font-family="Inter, system-ui, -apple-system, Segoe UI, sans-serif"
            >
                <rect width=f.width height=f.height fill=pal.background></rect>
                {grid}
                <clipPath id="serving-plot">
                    <rect x=f.x0() y=f.y0() width=f.x1() - f.x0() height=f.y1() - f.y0()></rect>
                </clipPath>
                <g clip-path="url(#serving-plot)">
                    <path d=front_line fill="none" stroke=pal.muted stroke-width="1.5" stroke-dasharray="5 4"></path>
                    {front_points}
                    <path d=curve_line fill="none" stroke=colour stroke-width="2.5"></path>
                    {curve_points}
                    <path d=to_predicted fill="none" stroke=pal.muted stroke-width="1" stroke-dasharray="2 3"></path>
                    {measured_marks}
                    {imported_marks}
                </g>
                <rect x=f.x0() y=f.y0() width=f.x1() - f.x0() height=f.y1() - f.y0() fill="none" stroke=pal.muted></rect>
                <g font-size="12">
                    <line x1=lx x2=lx + 24.0 y1=legend_y y2=legend_y stroke=colour stroke-width="2.5"></line>
                    <text x=lx + 30.0 y=legend_y + 4.0 fill=pal.ink>{format!("{layout}, 1 request and up")}</text>
                    // Disaggregated workers have no front of one layout's GPUs.
                    {one_layout.then(|| view! {
                        <line x1=lx x2=lx + 24.0 y1=legend_y + 18.0 y2=legend_y + 18.0 stroke=pal.muted stroke-width="1.5" stroke-dasharray="5 4"></line>
                        <text x=lx + 30.0 y=legend_y + 22.0 fill=pal.ink>{format!("best layouts of {gpus} GPUs")}</text>
                    })}
                    {measured_legend.map(|l| view! {
                        <path d=cross(lx + 12.0, legend_y + 36.0, 5.0) fill="none" stroke=MEASURED stroke-width="2.5" stroke-linecap="round"></path>
                        <text x=lx + 30.0 y=legend_y + 40.0 fill=pal.ink>{l}</text>
                    })}
                    {imported_legend.map(|l| view! {
                        <path d=cross(lx + 12.0, imported_y, 5.0) fill="none" stroke=imported_colour stroke-width="2.5" stroke-linecap="round"></path>
                        <text x=lx + 30.0 y=imported_y + 4.0 fill=pal.ink>{l}</text>
                    })}
                </g>
                <text x=(f.x0() + f.x1()) / 2.0 y=f.height - 10.0 text-anchor="middle" font-size="12" fill=pal.ink>
                    "Output tokens/s per user"
                </text>
                <text
                    x=16.0
                    y=(f.y0() + f.y1()) / 2.0
                    text-anchor="middle"
                    font-size="12"
                    fill=pal.ink
                    transform=format!("rotate(-90 16 {})", (f.y0() + f.y1()) / 2.0)
                >
                    "Output tokens/s per GPU"
                </text>
            </svg>
            <p class="hint" id="serving-focus" aria-live="polite">
                {move || focused.get().unwrap_or_else(|| "Tab to a point for its figures.".to_string())}
            </p>
            <figcaption class="hint">
                "Each point is a concurrency (1, 2, 4, … requests); hover for the figures. Up and to the right is better"
                {if one_layout { "; the dashed front is the best any layout of the same GPUs reaches." } else { "." }}
            </figcaption>
        </figure>
    }
}

crate::split_point! {
    deploy,
    /// Fetches NVIDIA's measured serving runs ([`runs::MEASURED_RUNS_FILE`], beside the
    /// page) and reads them; the fetching and reading are deployment mode's code too.
    pub fn fetch_measured_runs() -> std::pin::Pin<Box<dyn std::future::Future<Output = MeasuredRuns>>> {
        Box::pin(async {
            let read = browser::fetch_text(runs::MEASURED_RUNS_FILE)
                .await
                .and_then(|text| {
                    runs::read_runs(&text).map_err(|e| format!("{}: {e}", runs::MEASURED_RUNS_FILE))
                });
            match read {
                Ok(runs) => MeasuredRuns::Read(Arc::from(runs)),
                Err(e) => MeasuredRuns::Failed(e),
            }
        })
    }
}
