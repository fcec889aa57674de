//! What the analysis found: summary cards, the format ranking, the per-operator table with
//! its time breakdown, memory against capacity, and the decode-time curve.

use leptos::prelude::*;
use rooflinr_model::analysis::Phase;
use rooflinr_model::units::{grouped, si};

use crate::chart::geometry::{self, Extent, Frame};
use crate::chart::palette::{Palette, text_on};
use crate::compute::{CurvePoint, ModelView, OperatorView, op_format};

/// A figure in a summary card.
#[component]
pub(super) fn Card(
    /// What it is.
    #[prop(into)]
    label: Signal<&'static str>,
    /// The value, formatted.
    #[prop(into)]
    value: Signal<String>,
    /// A line of context under it.
    #[prop(optional, into)]
    note: Signal<String>,
    /// `data-figure` attribute, read by the end-to-end test.
    #[prop(optional)]
    figure: &'static str,
) -> impl IntoView {
    view! {
        <div class="card">
            <span class="label">{label}</span>
            <span class="value" data-figure=figure>{value}</span>
            <span class="note">{note}</span>
        </div>
    }
}

/// Operator mode's results: the prediction and every format ranked.
#[component]
pub fn OperatorResults(
    /// The analysis.
    view: OperatorView,
    /// Colours for the format swatches.
    palette: Palette,
) -> impl IntoView {
    let p = view.result.prediction;
    let c = view.result.ceiling;
    let runs_as = c.runs_as();
    let best = view.ranking.first().map_or(1.0, |r| r.speedup).max(1.0);
    let chosen = view.precision;
    let rows = view
        .ranking
        .iter()
        .map(|r| {
            let rp = r.result.prediction;
            let width = (r.speedup / best * 100.0).clamp(1.0, 100.0);
            let colour = palette.format(&r.format.name());
            view! {
                <tr class:chosen=r.precision == chosen>
                    <th scope="row">
                        <span class="swatch dot" style=format!("--c:{colour}")></span>
                        <span title=r.format.description()>{r.format.name()}</span>
                    </th>
                    <td class="num">{si(rp.time.get(), "s")}</td>
                    <td class="num">{format!("{:.2}", rp.intensity.get())}</td>
                    <td><span class=format!("bound {}", rp.bound.name())>{rp.bound.name()}</span></td>
                    <td>{r.result.ceiling.executed_as.name()}</td>
                    <td class="num speedup">
                        <span class="bar" style=format!("width:{width:.1}%")></span>
                        <span>{format!("{:.2}×", r.speedup)}</span>
                    </td>
                    <td class="num">{format!("{:.0}%", r.bytes_saved * 100.0)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="cards">
            <Card label="predicted time" value=si(p.time.get(), "s") figure="op-time"
                note=match view.calibrated {
                    Some((t, profile)) => format!(
                        "roofline bound · expected {} with fitted kernel terms (NVIDIA's measured {} kernels: {}; held-out median error {:.0}%)",
                        si(t, "s"),
                        profile.framework.name(),
                        profile.kernel.name(),
                        profile.held_out_median * 100.0
                    ),
                    None => format!("memory {} · compute {}", si(p.memory_time.get(), "s"), si(p.compute_time.get(), "s")),
                } />
            <Card label="arithmetic intensity" value=format!("{:.2} FLOP/B", p.intensity.get()) figure="op-intensity"
                note=format!("ridge {:.0} FLOP/B", p.ridge.get()) />
            <Card label="bound" value=format!("{}-bound", p.bound.name()) figure="op-bound" note=format!("runs as {runs_as}") />
            <Card label="attainable" value=si(p.attainable.get(), "FLOP/s")
                note=format!("{} · {}", si(view.result.cost.work.flops.get(), "FLOP"), si(view.result.cost.work.bytes.get(), "B")) />
        </div>
        <h3>"Every format, fastest first"</h3>
        <div class="table-wrap">
            <table class="data" id="ranking">
                <thead>
                    <tr>
                        <th scope="col">"format"</th>
                        <th scope="col" class="num">"time"</th>
                        <th scope="col" class="num">"FLOP/B"</th>
                        <th scope="col">"bound"</th>
                        <th scope="col">"runs as"</th>
                        <th scope="col" class="num">"speed-up vs FP16"</th>
                        <th scope="col" class="num">"bytes saved"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// Columns the operator table sorts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SortBy {
    Order,
    Name,
    Flops,
    Bytes,
    Intensity,
    Time,
}

/// The figures of model mode's cards and breakdown bar, as shown: computed once per
/// analysis, so each text and attribute on the page reads its own entry and only the ones
/// that changed are written to the DOM.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelFigures {
    /// Time per pass, and its note.
    pub time: (String, String),
    /// The throughput card's label, value and note.
    pub tokens: (&'static str, String, String),
    /// Memory required.
    pub memory: String,
    /// The meter's label, and its weights and KV widths (percent of capacity).
    pub meter: (String, f64, f64),
    /// The memory note, and whether the model fits.
    pub memory_note: (String, bool),
    /// The KV crossover, formatted.
    pub crossover: String,
    /// The breakdown's segments: label, style and title.
    pub segments: Vec<(String, String, String)>,
}

impl ModelFigures {
    /// The figures of one analysis, coloured with `palette`.
    pub fn of(view: &ModelView, palette: &Palette) -> Self {
        let a = &view.analysis;
        let mem = &a.memory;
        let capacity = mem.capacity.get();
        let (used, weights_pct) = if capacity.is_finite() {
            (
                (mem.required.get() / capacity * 100.0).min(100.0),
                (a.weight_bytes.get() / capacity * 100.0).min(100.0),
            )
        } else {
            (0.0, 0.0)
        };
        let memory_note = if !capacity.is_finite() {
            "no capacity given for this device".to_string()
        } else if mem.fits {
            format!("of {} · fits", mem.capacity)
        } else {
            format!("of {} · does not fit", mem.capacity)
        };
        // Time breakdown: one segment per operator, largest first, small ones merged.
        let mut shares: Vec<(String, f64, &'static str)> = a
            .ops
            .iter()
            .map(|r| {
                (
                    r.name().to_string(),
                    r.share,
                    palette.format(&op_format(r).name()),
                )
            })
            .collect();
        rooflinr_model::sort::sort_by(&mut shares, |x, y| y.1.total_cmp(&x.1));
        let other: f64 = shares.iter().skip(7).map(|s| s.1).sum();
        shares.truncate(7);
        if other > 0.0 {
            shares.push(("other".into(), other, palette.muted));
        }
        let segments = shares
            .into_iter()
            .map(|(name, share, colour)| {
                let pct = share * 100.0;
                let label = if pct >= 7.0 {
                    format!("{name} {pct:.0}%")
                } else {
                    String::new()
                };
                // Text in black or white, whichever reads on the segment's colour.
                let ink = text_on(colour);
                (
                    label,
                    format!("width:{pct:.3}%;background:{colour};color:{ink}"),
                    format!("{name}: {pct:.1}% of the time"),
                )
            })
            .collect();
        let tokens = match view.scenario.phase {
            Phase::Prefill => "prompt tokens/s",
            Phase::Decode => "tokens/s",
        };
        Self {
            time: (si(a.time.get(), "s"), view.time_note()),
            tokens: (
                tokens,
                format!("{:.1}", a.tokens_per_s),
                format!(
                    "{:.2} B params, {:.2} B active",
                    a.params.total / 1e9,
                    a.params.active / 1e9
                ),
            ),
            memory: a.memory.required.to_string(),
            meter: (
                format!("{used:.0}% of device memory"),
                weights_pct,
                (used - weights_pct).max(0.0),
            ),
            memory_note: (memory_note, mem.fits),
            crossover: format!("{} tokens", grouped(a.kv_crossover_tokens)),
            segments,
        }
    }
}

/// Model mode's results. Built once while the analysis succeeds and then updated text by
/// text and attribute by attribute, so dragging a slider rewrites figures rather than
/// rebuilding the cards, the bar and the curve.
#[component]
pub fn ModelResults(
    /// The analysis (the component shows nothing while it is missing or failed).
    model: Memo<Option<ModelView>>,
    /// Decode step time against context length.
    curve: Memo<Option<Vec<CurvePoint>>>,
    /// Colours for the breakdown.
    palette: Signal<Palette>,
) -> impl IntoView {
    let figures = Memo::new(move |_| {
        let palette = palette.get();
        model.with(|m| {
            m.as_ref()
                .map(|v| ModelFigures::of(v, &palette))
                .unwrap_or_default()
        })
    });
    let read = move |f: fn(&ModelFigures) -> String| move || figures.with(f);
    let segment = move |i: usize, f: fn(&(String, String, String)) -> &String| {
        move || figures.with(|m| m.segments.get(i).map(f).cloned().unwrap_or_default())
    };
    view! {
        <div class="cards">
            <Card label="time per pass" figure="model-time"
                value=Signal::derive(read(|m| m.time.0.clone()))
                note=Signal::derive(read(|m| m.time.1.clone())) />
            <Card label=Signal::derive(move || figures.with(|m| m.tokens.0)) figure="model-tokens"
                value=Signal::derive(read(|m| m.tokens.1.clone()))
                note=Signal::derive(read(|m| m.tokens.2.clone())) />
            <div class="card">
                <span class="label">"memory"</span>
                <span class="value" data-figure="model-memory">{read(|m| m.memory.clone())}</span>
                <span class="meter" role="img" aria-label=read(|m| m.meter.0.clone())>
                    <span class="weights" style=read(|m| format!("width:{:.2}%", m.meter.1))></span>
                    <span class="kv" style=read(|m| format!("width:{:.2}%", m.meter.2))></span>
                </span>
                <span class="note" class:bad=move || figures.with(|m| !m.memory_note.1)>
                    {read(|m| m.memory_note.0.clone())}
                </span>
            </div>
            <Card label="KV crossover" figure="model-crossover"
                value=Signal::derive(read(|m| m.crossover.clone()))
                note="context where a decode step reads as many KV bytes as weight bytes" />
        </div>
        <h3>"Where the time goes"</h3>
        <div class="breakdown" role="img" aria-label="time breakdown by operator">
            <For each=move || 0..figures.with(|m| m.segments.len()) key=|i| *i let:i>
                <span class="segment" style=segment(i, |s| &s.1) title=segment(i, |s| &s.2)>
                    {segment(i, |s| &s.0)}
                </span>
            </For>
        </div>
        <h3>"Decode step time against context length"</h3>
        <DecodeCurve model=model curve=curve palette=palette />
    }
}

/// One row of the operator table: its cells as shown, and the figures it sorts by.
#[derive(Clone, Debug, PartialEq)]
pub struct OpRow {
    /// Operator name.
    pub name: &'static str,
    /// count, FLOPs, bytes, FLOP/B, bound, runs as, time, share (as shown).
    pub cells: [String; 8],
    /// FLOPs, bytes, intensity, time (for sorting).
    pub keys: [f64; 4],
}

/// The table rows of an analysis, in execution order.
pub fn op_rows(a: &rooflinr_model::analysis::ModelAnalysis) -> Vec<OpRow> {
    a.ops
        .iter()
        .map(|r| OpRow {
            name: r.name(),
            cells: [
                format!("{}", r.count),
                si(r.flops().get(), "FLOP"),
                si(r.bytes().get(), "B"),
                format!("{:.2}", r.result.prediction.intensity.get()),
                r.bound().name().to_string(),
                r.result.ceiling.executed_as.name().to_string(),
                si(r.time.get(), "s"),
                format!("{:.1}%", r.share * 100.0),
            ],
            keys: [
                r.flops().get(),
                r.bytes().get(),
                r.result.prediction.intensity.get(),
                r.time.get(),
            ],
        })
        .collect()
}

/// The sortable per-operator table. It is created once and updated cell by cell, so
/// dragging a slider changes text rather than rebuilding the table.
#[component]
pub fn OperatorTable(
    /// The rows of the current analysis.
    rows: Memo<Vec<OpRow>>,
) -> impl IntoView {
    let sort = RwSignal::new((SortBy::Order, false));
    let order = move || {
        let (by, descending) = sort.get();
        rows.with(|rows| {
            let mut idx: Vec<(usize, &'static str)> =
                rows.iter().enumerate().map(|(i, r)| (i, r.name)).collect();
            let key = |i: usize| match by {
                SortBy::Flops => rows[i].keys[0],
                SortBy::Bytes => rows[i].keys[1],
                SortBy::Intensity => rows[i].keys[2],
                SortBy::Time => rows[i].keys[3],
                SortBy::Order | SortBy::Name => 0.0,
            };
            match by {
                SortBy::Order => {}
                SortBy::Name => rooflinr_model::sort::sort_by(&mut idx, |x, y| x.1.cmp(y.1)),
                _ => rooflinr_model::sort::sort_by(&mut idx, |x, y| key(x.0).total_cmp(&key(y.0))),
            }
            if descending {
                idx.reverse();
            }
            idx
        })
    };
    let header = move |label: &'static str, by: SortBy, numeric: bool| {
        let aria = move || match sort.get() {
            (b, false) if b == by => "ascending",
            (b, true) if b == by => "descending",
            _ => "none",
        };
        view! {
            <th scope="col" class:num=numeric aria-sort=aria>
                <button class="sort" on:click=move |_| sort.update(|(b, d)| {
                    if *b == by {
                        *d = !*d;
                    } else {
                        *b = by;
                        *d = numeric;
                    }
                })>{label}</button>
            </th>
        }
    };
    let cell = move |i: usize, j: usize| {
        move || rows.with(|r| r.get(i).map(|row| row.cells[j].clone()).unwrap_or_default())
    };
    view! {
        <h3>"Operators"</h3>
        <div class="table-wrap">
            <table class="data" id="operators">
                <thead>
                    <tr>
                        {header("operator", SortBy::Name, false)}
                        <th scope="col" class="num">"count"</th>
                        {header("FLOPs", SortBy::Flops, true)}
                        {header("bytes", SortBy::Bytes, true)}
                        {header("FLOP/B", SortBy::Intensity, true)}
                        <th scope="col">"bound"</th>
                        <th scope="col">"runs as"</th>
                        {header("time", SortBy::Time, true)}
                        <th scope="col" class="num">"share"</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=order key=|row| *row let:row>
                        <tr>
                            <th scope="row">{row.1}</th>
                            <td class="num">{cell(row.0, 0)}</td>
                            <td class="num">{cell(row.0, 1)}</td>
                            <td class="num">{cell(row.0, 2)}</td>
                            <td class="num">{cell(row.0, 3)}</td>
                            <td><span class=move || format!("bound {}", cell(row.0, 4)())>{cell(row.0, 4)}</span></td>
                            <td>{cell(row.0, 5)}</td>
                            <td class="num">{cell(row.0, 6)}</td>
                            <td class="num">{cell(row.0, 7)}</td>
                        </tr>
                    </For>
                </tbody>
            </table>
        </div>
    }
}

const CURVE_FRAME: Frame = Frame {
    width: 640.0,
    height: 220.0,
    left: 64.0,
    right: 16.0,
    top: 12.0,
    bottom: 40.0,
};

/// Where the decode curve is drawn: its viewport, line and ticks, computed when the curve
/// changes (not when only the chosen context moves).
#[derive(Clone, Debug, PartialEq)]
struct CurvePlot {
    viewport: geometry::Viewport,
    line: String,
    x_ticks: Vec<geometry::Tick>,
    y_ticks: Vec<geometry::Tick>,
    /// The KV crossover's x, where it falls inside the curve.
    crossover: Option<f64>,
}

impl CurvePlot {
    fn of(curve: &[CurvePoint], kv_crossover_tokens: f64) -> Option<Self> {
        let f = CURVE_FRAME;
        let mut e = Extent::default();
        for c in curve {
            e.include(c.context as f64, c.time);
        }
        let (x_lo, x_hi) = e.x?;
        let (y_lo, y_hi) = e.y.unwrap_or((1e-6, 1.0));
        let viewport = geometry::Viewport {
            x: (x_lo.log10(), x_hi.log10()),
            y: ((y_lo * 0.8).log10(), (y_hi * 1.25).log10()),
        };
        let pts: Vec<(f64, f64)> = curve.iter().map(|c| (c.context as f64, c.time)).collect();
        let cross = kv_crossover_tokens;
        Some(Self {
            line: geometry::path(&viewport, &f, &pts),
            x_ticks: geometry::log_ticks(viewport.x, ""),
            y_ticks: geometry::log_ticks(viewport.y, "s"),
            crossover: (cross > x_lo && cross < x_hi).then(|| viewport.project(&f, cross, 1.0).0),
            viewport,
        })
    }
}

/// Decode step time against context length, log-log, with the chosen context marked. The
/// axes and line are redrawn when the curve changes; the marker moves with the context.
#[component]
fn DecodeCurve(
    /// The analysis (its chosen context is marked).
    model: Memo<Option<ModelView>>,
    /// The curve.
    curve: Memo<Option<Vec<CurvePoint>>>,
    /// Colours.
    palette: Signal<Palette>,
) -> impl IntoView {
    let f = CURVE_FRAME;
    let plot = Memo::new(move |_| {
        // The crossover depends on the model and formats, as the curve does: read it
        // without tracking, so a context change alone does not redraw the axes.
        let cross = model.with_untracked(|m| m.as_ref().map(|v| v.analysis.kv_crossover_tokens));
        curve.with(|c| CurvePlot::of(c.as_deref()?, cross?))
    });
    let marker = move || {
        let v = plot.with(|p| p.as_ref().map(|p| p.viewport))?;
        let (mx, my) = model.with(|m| {
            let m = m.as_ref()?;
            (m.scenario.phase == Phase::Decode)
                .then(|| v.project(&f, m.scenario.seq as f64, m.analysis.time.get()))
        })?;
        geometry::inside(&f, mx, my).then(|| {
            view! { <circle cx=mx cy=my r="5" fill=move || palette.get().series[1]></circle> }
        })
    };
    let axes = move || {
        let palette = palette.get();
        plot.with(|p| {
            let Some(p) = p else {
                return view! { <text x=f.width / 2.0 y=f.height / 2.0 text-anchor="middle" font-size="12" fill=palette.muted>"No curve for these inputs."</text> }.into_any();
            };
            let v = p.viewport;
            let crossover = p.crossover.map(|cx| {
                view! {
                    <line x1=cx x2=cx y1=f.y0() y2=f.y1() stroke=palette.muted stroke-dasharray="4 4"></line>
                    <text x=cx + 4.0 y=f.y0() + 12.0 font-size="11" fill=palette.muted>"KV = weights"</text>
                }
            });
            view! {
                {p.x_ticks.iter().filter(|t| !t.label.is_empty()).map(|t| {
                    let (x, _) = v.project(&f, t.value, 1.0);
                    view! {
                        <line x1=x x2=x y1=f.y0() y2=f.y1() stroke=palette.grid></line>
                        <text x=x y=f.y1() + 16.0 text-anchor="middle" font-size="11" fill=palette.muted>{t.label.clone()}</text>
                    }
                }).collect_view()}
                {p.y_ticks.iter().filter(|t| !t.label.is_empty()).map(|t| {
                    let (_, y) = v.project(&f, 1.0, t.value);
                    view! {
                        <line x1=f.x0() x2=f.x1() y1=y y2=y stroke=palette.grid></line>
                        <text x=f.x0() - 6.0 y=y + 4.0 text-anchor="end" font-size="11" fill=palette.muted>{t.label.clone()}</text>
                    }
                }).collect_view()}
                <path d=p.line.clone() fill="none" stroke=palette.series[0] stroke-width="2"></path>
                {crossover}
            }
            .into_any()
        })
    };
    view! {
        <svg class="curve" viewBox=format!("0 0 {} {}", f.width, f.height) role="img"
            aria-label="decode step time against context length">
            {axes}
            {marker}
            <text x=(f.x0() + f.x1()) / 2.0 y=f.height - 6.0 text-anchor="middle" font-size="12" fill=move || palette.get().ink>"context length (tokens)"</text>
        </svg>
    }
}
