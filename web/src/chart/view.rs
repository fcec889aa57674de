//! The roofline chart component: draws what [`ChartData`] holds through the pure
//! [`geometry`](super::geometry), and handles hover, legend toggles, zoom and pan.

use leptos::prelude::*;
use rooflinr_model::analysis::Phase;
use rooflinr_model::units::si;
use wasm_bindgen::JsCast;

use super::geometry::{self, Frame, Viewport};
use super::palette::{self, Palette};
use crate::browser;
use crate::chart::data::{ChartData, ChartPoint};
use crate::state::State;
use rooflinr_report::chart::draw;
use rooflinr_report::chart::place::Rect;
use rooflinr_report::chart::roofs;

/// The `id` of the chart's `<svg>`, used by the SVG and PNG exports.
pub const CHART_ID: &str = "roofline-chart";

pub use super::palette::MEASURED;
/// Half the width of the box labels keep clear around a measured point, SVG units (its
/// cross reaches half a unit less).
const MARK_HALF_WIDTH: f64 = 7.0;

/// Converts a mouse event's position to SVG coordinates of the chart.
fn svg_point(ev: &web_sys::MouseEvent, frame: &Frame) -> Option<(f64, f64)> {
    let el: web_sys::Element = ev.current_target()?.dyn_into().ok()?;
    let rect = el.get_bounding_client_rect();
    if rect.width() <= 0.0 || rect.height() <= 0.0 {
        return None;
    }
    Some((
        (f64::from(ev.client_x()) - rect.left()) * frame.width / rect.width(),
        (f64::from(ev.client_y()) - rect.top()) * frame.height / rect.height(),
    ))
}

/// A series in the legend.
#[derive(Clone, Debug, PartialEq)]
struct LegendItem {
    key: String,
    label: String,
    colour: &'static str,
    /// A format's marker shape; `None` for a roof (drawn as a line).
    shape: Option<geometry::Shape>,
}

fn legend(data: &ChartData, palette: &Palette) -> Vec<LegendItem> {
    let mut items: Vec<LegendItem> = data
        .roofs
        .iter()
        .map(|r| LegendItem {
            key: r.key.clone(),
            label: format!("{} roof", r.math.name().to_ascii_uppercase()),
            colour: palette.roof(r.math),
            shape: None,
        })
        .collect();
    for p in &data.points {
        if !items.iter().any(|i| i.key == p.key) {
            items.push(LegendItem {
                key: p.key.clone(),
                label: p.format.clone(),
                colour: palette.format(&p.format),
                shape: Some(palette::format_shape(&p.format)),
            });
        }
    }
    items
}

/// The interactive log-log roofline chart.
#[component]
pub fn RooflineChart(
    /// What to draw; `None` while the inputs have a problem (the chart keeps its frame).
    data: Memo<Option<ChartData>>,
    /// Colours of the current theme.
    palette: Signal<Palette>,
) -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let zoomed = RwSignal::new(None::<Viewport>);
    let hover = RwSignal::new(None::<ChartPoint>);
    let hover_at = RwSignal::new((0.0, 0.0));
    let drag = StoredValue::new(None::<(f64, f64)>);
    // On a phone the chart draws in a narrower frame, so its text keeps a readable size
    // instead of shrinking with a 960-unit-wide drawing.
    let narrow = RwSignal::new(browser::viewport_width() <= geometry::NARROW_VIEWPORT_PX);
    let _resize = window_event_listener(leptos::ev::resize, move |_| {
        let now = browser::viewport_width() <= geometry::NARROW_VIEWPORT_PX;
        if narrow.get_untracked() != now {
            narrow.set(now);
        }
    });
    let frame = Memo::new(move |_| {
        if narrow.get() {
            Frame::NARROW
        } else {
            Frame::DEFAULT
        }
    });

    // The series the legend hides, as a memo: the chart's closures that read it are not
    // re-run by changes elsewhere in the state (a slider drag).
    let hidden = Memo::new(move |_| state.with(|s| s.hidden.clone()));
    let viewport = Memo::new(move |_| {
        zoomed.get().unwrap_or_else(|| {
            data.with(|d| d.as_ref().map(ChartData::extent).unwrap_or_default().fit())
        })
    });
    let visible = Memo::new(move |_| {
        let hidden = hidden.get();
        data.with(|d| {
            d.as_ref().map_or_else(Vec::new, |d| {
                d.points
                    .iter()
                    .filter(|p| !hidden.contains(&p.key))
                    .cloned()
                    .collect::<Vec<_>>()
            })
        })
    });
    let projected = Memo::new(move |_| {
        let v = viewport.get();
        let f = frame.get();
        visible.with(|pts| {
            pts.iter()
                .map(|p| v.project(&f, p.intensity, p.performance))
                .collect::<Vec<_>>()
        })
    });

    let on_move = move |ev: web_sys::MouseEvent| {
        let Some((px, py)) = svg_point(&ev, &frame.get_untracked()) else {
            return;
        };
        if let Some((x0, y0)) = drag.get_value() {
            zoomed.set(Some(viewport.get_untracked().pan(
                &frame.get_untracked(),
                px - x0,
                py - y0,
            )));
            drag.set_value(Some((px, py)));
            return;
        }
        let hit = projected.with_untracked(|pts| geometry::nearest(pts, px, py, 12.0));
        let point = hit.and_then(|i| visible.with_untracked(|v| v.get(i).cloned()));
        if let Some(i) = hit {
            hover_at.set(projected.with_untracked(|pts| pts[i]));
        }
        if hover.with_untracked(|h| h != &point) {
            hover.set(point);
        }
    };
    let on_down = move |ev: web_sys::MouseEvent| {
        if let Some(p) = svg_point(&ev, &frame.get_untracked())
            .filter(|(x, y)| geometry::inside(&frame.get_untracked(), *x, *y))
        {
            drag.set_value(Some(p));
        }
    };
    let end_drag = move |_| drag.set_value(None);
    let on_wheel = move |ev: web_sys::WheelEvent| {
        let Some((px, py)) = svg_point(&ev, &frame.get_untracked()) else {
            return;
        };
        if !geometry::inside(&frame.get_untracked(), px, py) {
            return;
        }
        ev.prevent_default();
        let factor = (-ev.delta_y() * 0.002).exp();
        zoomed.set(Some(viewport.get_untracked().zoom(
            &frame.get_untracked(),
            factor,
            px,
            py,
        )));
    };

    let grid = move || {
        let v = viewport.get();
        let f = frame.get();
        let pal = palette.get();
        let xs = geometry::log_ticks(v.x, "");
        let ys = geometry::log_ticks(v.y, "");
        let x_lines = xs
            .into_iter()
            .map(|t| {
                let (x, _) = v.project(&f, t.value, 1.0);
                let stroke = if t.major { pal.grid } else { pal.background };
                view! {
                    <line x1=x x2=x y1=f.y0() y2=f.y1() stroke=stroke stroke-width="1"></line>
                    <line x1=x x2=x y1=f.y1() y2=f.y1() + if t.major { 6.0 } else { 3.0 } stroke=pal.muted></line>
                    <text x=x y=f.y1() + 20.0 text-anchor="middle" font-size="12" fill=pal.muted>{t.label}</text>
                }
            })
            .collect_view();
        let y_lines = ys
            .into_iter()
            .map(|t| {
                let (_, y) = v.project(&f, 1.0, t.value);
                let stroke = if t.major { pal.grid } else { pal.background };
                view! {
                    <line x1=f.x0() x2=f.x1() y1=y y2=y stroke=stroke stroke-width="1"></line>
                    <line x1=f.x0() - if t.major { 6.0 } else { 3.0 } x2=f.x0() y1=y y2=y stroke=pal.muted></line>
                    <text x=f.x0() - 10.0 y=y + 4.0 text-anchor="end" font-size="12" fill=pal.muted>{t.label}</text>
                }
            })
            .collect_view();
        view! { <g class="grid">{x_lines}{y_lines}</g> }
    };

    // The roofs stay where they are when only the operators' points move (a slider drag):
    // their markup is a memo, laid out again from the data but, being the same text, not
    // set again in the page; the measured marks are a memo too.
    let measured_marks = Memo::new(move |_| {
        data.with(|d| {
            d.as_ref()
                .filter(|d| !d.measured.is_empty())
                .map(|d| d.measured.clone())
        })
    });
    // The roofs, datasheet solid and measured dashed, each labelled beside its own line by
    // the shared layout, clear of the measured marks; drawn as the report's chart draws
    // them (one markup), the lines under the points and the labels over them.
    let roof_layer = Memo::new(move |_| {
        let v = viewport.get();
        let f = frame.get();
        let pal = palette.get();
        let hidden = hidden.get();
        data.with(|d| {
            let set = d.as_ref()?.chart_roofs(&hidden);
            let lines = roofs::lines(&f, &v, &set.roofs, &set.slopes);
            // Around each measured mark and its datasheet twin.
            let mut keep_clear: Vec<Rect> = Vec::new();
            measured_marks.with(|marks| {
                for m in marks.iter().flatten() {
                    let (x, y) = v.project(&f, m.intensity, m.measured);
                    let (_, py) = v.project(&f, m.intensity, m.predicted);
                    for (cy, r) in [(y, MARK_HALF_WIDTH), (py, 3.0)] {
                        keep_clear.push(Rect {
                            x0: x - r,
                            y0: cy - r,
                            x1: x + r,
                            y1: cy + r,
                        });
                    }
                }
            });
            let placed = roofs::layout(&f, &v, &set.roofs, &lines, &keep_clear, true);
            Some((
                draw::roof_lines(&f, &v, &set.roofs, &lines, &pal, true),
                draw::roof_labels(&set.roofs, &placed, &pal),
            ))
        })
    });
    let roof_lines = move || roof_layer.with(|l| l.as_ref().map(|(lines, _)| lines.clone()));
    let roof_labels = move || roof_layer.with(|l| l.as_ref().map(|(_, labels)| labels.clone()));

    // Markers are keyed by what they show, so a change of inputs that keeps the operator
    // list (a slider drag) moves existing elements instead of creating new ones; the clip
    // path hides those outside the plot.
    let marker_keys = move || {
        visible.with(|vis| {
            vis.iter()
                .enumerate()
                .map(|(i, p)| {
                    (
                        i,
                        p.name.clone(),
                        p.format.clone(),
                        p.phase == Phase::Decode,
                        p.selected,
                    )
                })
                .collect::<Vec<_>>()
        })
    };
    let points = move || {
        view! {
            <For each=marker_keys key=|k| k.clone() let:k>
                {
                    let (i, _, format, decode, selected) = k;
                    let at = move || projected.with(|pts| pts.get(i).copied().unwrap_or((-100.0, -100.0)));
                    let r = if selected { 7.0 } else { 5.0 };
                    // Shape and colour say the format; filled is decode, hollow prefill.
                    let shape = palette::format_shape(&format);
                    let format = StoredValue::new(format);
                    let colour = move || format.with_value(|f| palette.get().format(f));
                    let fill = move || if decode { colour() } else { palette.get().background };
                    let stroke = move || if decode { palette.get().background } else { colour() };
                    let width = if decode { "1" } else { "2.2" };
                    let outline = move || {
                        let (x, y) = at();
                        geometry::marker_path(shape, x, y, r)
                    };
                    // The user's selection: a ring around the marker.
                    let ring = move || palette.get().ink;
                    // Keyboard users reach every point with Tab; focus shows its tooltip.
                    let describe = move || {
                        visible.with(|v| {
                            v.get(i).map_or_else(String::new, |p| {
                                format!(
                                    "{}, {}, {}: {:.2} FLOP/B, {}, {}-bound",
                                    p.name,
                                    p.format,
                                    p.phase.name(),
                                    p.intensity,
                                    si(p.performance, "FLOP/s"),
                                    p.bound.name()
                                )
                            })
                        })
                    };
                    let focus = move |_| {
                        hover.set(visible.with_untracked(|v| v.get(i).cloned()));
                        hover_at.set(at());
                    };
                    let blur = move |_| hover.set(None);
                    let phase = if decode { "decode" } else { "prefill" };
                    view! {
                        {selected.then(|| view! {
                            <circle cx=move || at().0 cy=move || at().1 r=r + 3.5 fill="none" stroke=ring stroke-width="1.5"></circle>
                        })}
                        <path class="point" data-phase=phase tabindex="0" role="img" aria-label=describe on:focus=focus on:blur=blur
                            d=outline fill=fill stroke=stroke stroke-width=width></path>
                    }
                    .into_any()
                }
            </For>
        }
    };

    // Measured kernels: a cross at the measurement, joined by a thin line to its datasheet
    // twin at the same intensity (the measured roofline is drawn with the roofs).
    let measured = move || {
        let v = viewport.get();
        let f = frame.get();
        let pal = palette.get();
        measured_marks.with(|d| {
            let Some(measured) = d else {
                return ().into_any();
            };
            let marks = measured
                .iter()
                .map(|m| {
                    let (x, y) = v.project(&f, m.intensity, m.measured);
                    let (_, py) = v.project(&f, m.intensity, m.predicted);
                    let colour = pal.format(&m.format);
                    let r = MARK_HALF_WIDTH - 0.5;
                    // Crosses, apart from every predicted marker: x for decode, + for
                    // prefill, both for other phases.
                    let times = format!("M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}", x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r);
                    let plus = format!("M{:.1},{y:.1} L{:.1},{y:.1} M{x:.1},{:.1} L{x:.1},{:.1}", x - r, x + r, y - r, y + r);
                    let marker = match m.phase.as_str() {
                        "decode" => times,
                        "prefill" => plus,
                        _ => format!("{times} {plus}"),
                    };
                    let title = format!(
                        "{} · {} · measured {} · datasheet predicts {} ({:+.0}%)",
                        m.label,
                        if m.phase.is_empty() { "unspecified phase" } else { &m.phase },
                        si(m.measured, "FLOP/s"),
                        si(m.predicted, "FLOP/s"),
                        m.error * 100.0
                    );
                    view! {
                        <g class="measured-mark">
                            <line x1=x x2=x y1=py y2=y stroke=pal.muted stroke-width="1" stroke-dasharray="2 3"></line>
                            <circle cx=x cy=py r="2.5" fill=pal.muted></circle>
                            <path d=marker.clone() fill="none" stroke=pal.background stroke-width="5.5" stroke-linecap="round"></path>
                            <path d=marker fill="none" stroke=colour stroke-width="2.5" stroke-linecap="round"><title>{title}</title></path>
                        </g>
                    }
                })
                .collect_view();
            marks.into_any()
        })
    };

    let tooltip = move || {
        hover.get().map(|p| {
            let (x, y) = hover_at.get();
            let f = frame.get();
            let left = x / f.width * 100.0;
            let top = y / f.height * 100.0;
            let flip = if left > 60.0 { "flip" } else { "" };
            view! {
                <div class=format!("tooltip {flip}") style=format!("left:{left:.2}%;top:{top:.2}%") role="status">
                    <strong>{p.name.clone()}</strong> " · " {p.format.clone()} " · " {p.phase.name()}
                    <dl>
                        <dt>"FLOPs"</dt><dd>{si(p.flops, "FLOP")}</dd>
                        <dt>"bytes"</dt><dd>{si(p.bytes, "B")}</dd>
                        <dt>"intensity"</dt><dd>{format!("{:.2} FLOP/B", p.intensity)}</dd>
                        <dt>"predicted time"</dt><dd>{si(p.time, "s")}{(p.count != 1.0).then(|| format!(" × {}", p.count))}</dd>
                        <dt>"bound"</dt><dd>{p.bound.name()}</dd>
                    </dl>
                </div>
            }
        })
    };

    let legend_items = move || {
        data.with(|d| {
            d.as_ref()
                .map(|d| legend(d, &palette.get()))
                .unwrap_or_default()
        })
    };

    view! {
        <figure class="chart">
            <div class="chart-box">
                <svg
                    id=CHART_ID
                    xmlns="http://www.w3.org/2000/svg"
                    viewBox=move || format!("0 0 {} {}", frame.get().width, frame.get().height)
                    style=move || format!("aspect-ratio: {} / {}", frame.get().width, frame.get().height)
                    role="group"
                    aria-roledescription="chart"
                    aria-label=move || data.with(|d| d.as_ref().map_or_else(|| "Roofline chart: no data while the inputs have a problem".to_string(), ChartData::summary))
                    font-family="Inter, system-ui, -apple-system, Segoe UI, sans-serif"
                    on:mousemove=on_move
                    on:mousedown=on_down
                    on:mouseup=end_drag
                    on:mouseleave=move |ev| {
                        end_drag(ev);
                        hover.set(None);
                    }
                    on:wheel=on_wheel
                    on:dblclick=move |_| zoomed.set(None)
                >
                    <rect width=move || frame.get().width height=move || frame.get().height fill=move || palette.get().background></rect>
                    <defs>
                        <clipPath id="plot-area">
                            <rect x=move || frame.get().x0() y=move || frame.get().y0() width=move || frame.get().x1() - frame.get().x0() height=move || frame.get().y1() - frame.get().y0()></rect>
                        </clipPath>
                    </defs>
                    {grid}
                    <g clip-path="url(#plot-area)"><g class="roofs" inner_html=roof_lines></g>{points}{measured}<g class="roof-labels" inner_html=roof_labels></g></g>
                    <rect x=move || frame.get().x0() y=move || frame.get().y0() width=move || frame.get().x1() - frame.get().x0() height=move || frame.get().y1() - frame.get().y0() fill="none" stroke=move || palette.get().muted></rect>
                    <text x=move || (frame.get().x0() + frame.get().x1()) / 2.0 y=move || frame.get().height - 10.0 text-anchor="middle" font-size="13" fill=move || palette.get().ink>
                        "Arithmetic intensity (FLOP/byte)"
                    </text>
                    <text transform=move || format!("translate(18 {}) rotate(-90)", (frame.get().y0() + frame.get().y1()) / 2.0) text-anchor="middle" font-size="13" fill=move || palette.get().ink>
                        "Performance (FLOP/s)"
                    </text>
                </svg>
                {tooltip}
            </div>
            <figcaption class="legend">
                <ul>
                    <For each=legend_items key=|i| (i.key.clone(), i.colour) let:item>
                        {
                            let key_toggle = item.key.clone();
                            let hidden_key = StoredValue::new(item.key.clone());
                            let off = move || hidden.with(|h| hidden_key.with_value(|k| h.contains(k)));
                            view! {
                                <li>
                                    <button
                                        class="legend-item"
                                        class:off=off
                                        aria-pressed=move || if off() { "false" } else { "true" }
                                        title="Show or hide this series"
                                        on:click=move |_| state.update(|s| {
                                            if !s.hidden.remove(&key_toggle) {
                                                s.hidden.insert(key_toggle.clone());
                                            }
                                        })
                                    >
                                        {match item.shape {
                                            None => view! { <span class="swatch line" style=format!("--c:{}", item.colour)></span> }.into_any(),
                                            Some(shape) => view! {
                                                <svg class="swatch shape" style=format!("--c:{}", item.colour) width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
                                                    <path d=geometry::marker_path(shape, 6.0, 6.0, 4.2) fill=item.colour></path>
                                                </svg>
                                            }.into_any(),
                                        }}
                                        {item.label.clone()}
                                    </button>
                                </li>
                            }
                        }
                    </For>
                </ul>
                <p class="hint">
                    "Shape and colour: format · filled: decode · hollow: prefill · ringed: your selection · crosses (×, +, both): measured decode, prefill, other kernels, joined to their datasheet prediction · dashed: measured roofline. Tab reaches every point. Scroll to zoom, drag to pan, "
                    <button class="link" on:click=move |_| zoomed.set(None)>"fit to data"</button>"."
                </p>
            </figcaption>
        </figure>
    }
}

/// The grid of a small log-log chart: a line and a label at every labelled tick of both
/// axes (the comparison and serving charts draw theirs with it).
pub fn log_grid(v: &Viewport, f: &Frame, pal: &Palette) -> impl IntoView + use<> {
    let x = geometry::log_ticks(v.x, "")
        .into_iter()
        .filter(|t| !t.label.is_empty())
        .map(|t| {
            let (x, _) = v.project(f, t.value, 1.0);
            view! {
                <line x1=x x2=x y1=f.y0() y2=f.y1() stroke=pal.grid></line>
                <text x=x y=f.y1() + 18.0 text-anchor="middle" font-size="12" fill=pal.muted>{t.label}</text>
            }
        })
        .collect_view();
    let y = geometry::log_ticks(v.y, "")
        .into_iter()
        .filter(|t| !t.label.is_empty())
        .map(|t| {
            let (_, y) = v.project(f, 1.0, t.value);
            view! {
                <line x1=f.x0() x2=f.x1() y1=y y2=y stroke=pal.grid></line>
                <text x=f.x0() - 8.0 y=y + 4.0 text-anchor="end" font-size="12" fill=pal.muted>{t.label}</text>
            }
        })
        .collect_view();
    view! { {x} {y} }
}
