//! Devices side by side (model mode): the controls that pick up to five devices beside the
//! chosen one, and the result: one row per device (time, tokens/s, speed against the first,
//! memory fit, what binds) and one chart with every device's roofline and the pass's
//! operating point on it.

use leptos::prelude::*;
use rooflinr_model::hardware::registry;
use rooflinr_model::units::si;

use crate::browser;
use crate::chart::geometry::{self, Extent, Frame};
use crate::chart::palette::Palette;
use crate::chart::view::log_grid;
use crate::compute::DeviceRow;
use crate::export::{COMPARISON_HEADER, comparison_rows};
use crate::state::{CUSTOM, MAX_COMPARED, State};

/// The comparison chart's canvas: small enough to sit beside the table (on a phone, the
/// main chart's narrow frame).
const WIDE: Frame = Frame {
    width: 560.0,
    height: 340.0,
    left: 64.0,
    right: 16.0,
    top: 16.0,
    bottom: 44.0,
};

/// The devices compared with the chosen one: a removable chip each, and a picker that adds
/// another until there are six in all.
#[component]
pub fn CompareControls() -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let names = StoredValue::new(
        registry::all()
            .into_iter()
            .map(|h| (h.key, h.name))
            .collect::<Vec<_>>(),
    );
    let name_of = move |key: &str| {
        names.with_value(|n| {
            n.iter()
                .find(|(k, _)| k == key)
                .map_or_else(|| key.to_string(), |(_, name)| name.clone())
        })
    };
    let chosen = move || state.with(|s| s.compare.clone());
    let full = move || state.with(|s| s.compare.len() >= MAX_COMPARED);
    // Devices that can still be added: not the chosen one, not already compared.
    let addable = move || {
        state.with(|s| {
            names.with_value(|n| {
                n.iter()
                    .filter(|(k, _)| *k != s.hardware && !s.compare.contains(k))
                    .cloned()
                    .collect::<Vec<_>>()
            })
        })
    };
    view! {
        <div class="compare-controls">
            <span class="label" id="compare-label">"compare with"</span>
            <ul class="chips" aria-labelledby="compare-label">
                <For each=chosen key=|k| k.clone() let:key>
                    {
                        let name = name_of(&key);
                        let remove = key.clone();
                        view! {
                            <li class="chip">
                                {name.clone()}
                                <button
                                    class="chip-remove"
                                    aria-label=format!("remove {name} from the comparison")
                                    on:click=move |_| state.update(|s| s.compare.retain(|k| *k != remove))
                                >
                                    "×"
                                </button>
                            </li>
                        }
                    }
                </For>
            </ul>
            <label class="field">
                <span class="visually-hidden">"add a device to compare"</span>
                <select
                    id="compare-add"
                    prop:disabled=full
                    on:change=move |ev| {
                        let key = event_target_value(&ev);
                        if !key.is_empty() && key != CUSTOM {
                            state.update(|s| {
                                if s.compare.len() < MAX_COMPARED && !s.compare.contains(&key) {
                                    s.compare.push(key);
                                }
                            });
                        }
                    }
                >
                    <option value="" selected=true>
                        {move || if full() {
                            "six devices compared (the most)".to_string()
                        } else {
                            "add a device to compare…".to_string()
                        }}
                    </option>
                    {move || {
                        addable()
                            .into_iter()
                            .map(|(key, name)| view! { <option value=key>{name}</option> })
                            .collect_view()
                    }}
                </select>
            </label>
        </div>
    }
}

/// The comparison's result: a table and one chart.
#[component]
pub fn Comparison(
    /// The devices, the chosen one first.
    rows: Vec<DeviceRow>,
    /// Colours of the theme.
    palette: Palette,
    /// Time the comparison's analyses took, ms.
    ms: f64,
) -> impl IntoView {
    let colours: Vec<&'static str> = (0..rows.len())
        .map(|i| palette.series[i % palette.series.len()])
        .collect();
    let table_rows = comparison_rows(&rows);
    let expected: Vec<Option<String>> = rows
        .iter()
        .map(|r| {
            (r.calibrated.calibrated_ops > 0)
                .then(|| format!("expected {}", si(r.calibrated.time_s, "s")))
        })
        .collect();
    let body = table_rows
        .into_iter()
        .zip(&colours)
        .zip(expected)
        .enumerate()
        .map(|(i, ((cells, colour), expected))| {
            let mut cells = cells.into_iter();
            let device = cells.next().unwrap_or_default();
            let time = cells.next().unwrap_or_default();
            let rest: Vec<String> = cells.collect();
            view! {
                <tr class:chosen=i == 0>
                    <th scope="row">
                        <span class="swatch dot" style=format!("--c:{colour}")></span>
                        {device}
                    </th>
                    <td class="num">
                        {time}
                        {expected.map(|e| view! { <span class="sub">{e}</span> })}
                    </td>
                    {rest.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
                </tr>
            }
        })
        .collect_view();
    let chart = comparison_chart(&rows, &colours, &palette);
    view! {
        <section class="comparison" aria-labelledby="comparison-title">
            <h3 id="comparison-title">"Side by side"</h3>
            <p class="hint">
                {format!(
                    "The same model and scenario on {} devices: predicted at the roofline bound; where NVIDIA's measured kernel tables cover a device, the expected time is under it. Computed in {ms:.1} ms.",
                    rows.len()
                )}
            </p>
            <div class="table-wrap">
                <table class="data" id="comparison">
                    <thead>
                        <tr>
                            {COMPARISON_HEADER
                                .iter()
                                .map(|h| view! { <th scope="col">{*h}</th> })
                                .collect_view()}
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            {chart}
        </section>
    }
}

/// Every device's roofline, up to the roof its heaviest operator meets, and the pass's
/// operating point (the pass's FLOPs over its bytes, and over its time).
fn comparison_chart(
    rows: &[DeviceRow],
    colours: &[&'static str],
    pal: &Palette,
) -> impl IntoView + use<> {
    struct Series {
        bandwidth: f64,
        peak: f64,
        intensity: f64,
        performance: f64,
        colour: &'static str,
        name: String,
    }
    let series: Vec<Series> = rows
        .iter()
        .zip(colours)
        .filter_map(|(r, colour)| {
            let a = &r.analysis;
            let peak = a.main_ceiling()?.peak.get();
            let (flops, bytes, time) = (a.work.flops.get(), a.work.bytes.get(), a.time.get());
            (peak > 0.0 && bytes > 0.0 && time > 0.0).then(|| Series {
                bandwidth: r.hardware.memory_bandwidth.value.get(),
                peak,
                intensity: flops / bytes,
                performance: flops / time,
                colour,
                name: r.hardware.name.clone(),
            })
        })
        .collect();
    let f = if browser::viewport_width() <= geometry::NARROW_VIEWPORT_PX {
        Frame::NARROW
    } else {
        WIDE
    };
    let mut extent = Extent::default();
    for s in &series {
        extent.include(s.peak / s.bandwidth, s.peak);
        extent.include(s.intensity, s.performance);
    }
    let v = extent.fit();
    let grid = log_grid(&v, &f, pal);
    let lines = series
        .iter()
        .map(|s| {
            let outline = geometry::roof_outline(s.bandwidth, s.peak, &v);
            let (px, py) = v.project(&f, s.intensity, s.performance);
            view! {
                <path d=geometry::path(&v, &f, &outline) fill="none" stroke=s.colour stroke-width="2"></path>
                <circle cx=px cy=py r="6" fill=s.colour stroke=pal.background stroke-width="1.5">
                    <title>{format!("{}: {:.2} FLOP/B, {}", s.name, s.intensity, si(s.performance, "FLOP/s"))}</title>
                </circle>
            }
        })
        .collect_view();
    let summary = format!(
        "Rooflines of {} devices with the pass's operating point on each: {}",
        series.len(),
        series
            .iter()
            .map(|s| format!(
                "{} at {} against a {} roof",
                s.name,
                si(s.performance, "FLOP/s"),
                si(s.peak, "FLOP/s")
            ))
            .collect::<Vec<_>>()
            .join("; ")
    );
    view! {
        <svg
            class="comparison-chart"
            xmlns="http://www.w3.org/2000/svg"
            viewBox=format!("0 0 {} {}", f.width, f.height)
            role="img"
            aria-label=summary
            font-family="Inter, system-ui, -apple-system, Segoe UI, sans-serif"
        >
            <rect width=f.width height=f.height fill=pal.background></rect>
            {grid}
            <clipPath id="comparison-plot">
                <rect x=f.x0() y=f.y0() width=f.x1() - f.x0() height=f.y1() - f.y0()></rect>
            </clipPath>
            <g clip-path="url(#comparison-plot)">{lines}</g>
            <rect x=f.x0() y=f.y0() width=f.x1() - f.x0() height=f.y1() - f.y0() fill="none" stroke=pal.muted></rect>
            <text x=(f.x0() + f.x1()) / 2.0 y=f.height - 8.0 text-anchor="middle" font-size="12" fill=pal.ink>
                "Arithmetic intensity of the whole pass (FLOP/byte)"
            </text>
        </svg>
    }
}
