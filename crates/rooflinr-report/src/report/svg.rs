//! The report's chart: a self-contained SVG (no scripts, no external fonts) of the
//! datasheet roofline, the measured one when an agent measured it, and every kernel, drawn
//! with the calculator's geometry, palette, marker shapes and roof labels
//! ([`crate::chart`]). [`layout`] computes what is drawn and where; [`render`] writes it.

use std::fmt::Write;

use rooflinr_model::format::Math;
use rooflinr_model::hardware::Hardware;
use rooflinr_model::units::si;

use super::fastest;
use crate::chart::draw;
use crate::chart::geometry::{self, Extent, Frame, Shape, Viewport};
use crate::chart::palette::{self, LIGHT};
use crate::chart::place::{Rect, text_width};
use crate::chart::roofs::{self, Roof, RoofLabels, RoofLine, RoofSource};
use crate::kernel::{KernelPoint, MeasuredCeilings};

/// Chart width, SVG units (the PNG is drawn at twice this).
pub const WIDTH: f64 = 1000.0;
/// Height of the plot and its axes, below the title and the legend.
const PLOT_HEIGHT: f64 = 560.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 30.0;
const BOTTOM: f64 = 62.0;
/// Top of the legend's first row's text.
const LEGEND_TOP: f64 = 52.0;
const LEGEND_ROW: f64 = 20.0;
/// Marker size (the area of a circle of this radius) and the ring of a fastest point.
const MARKER_R: f64 = 5.0;
const RING_R: f64 = 9.0;

pub use crate::chart::draw::esc;

/// One kernel on the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Index into the kernels given to [`layout`].
    pub kernel: usize,
    /// SVG position.
    pub x: f64,
    /// SVG position.
    pub y: f64,
    /// Its format's shape.
    pub shape: Shape,
    /// Its format's colour.
    pub colour: &'static str,
    /// Prefill points are hollow, the rest filled.
    pub hollow: bool,
    /// The fastest of the kernels doing its work (ringed).
    pub fastest: bool,
    /// The tooltip.
    pub title: String,
}

/// A legend entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Key {
    /// A format: its marker.
    Format {
        /// The format's name.
        name: String,
        /// Its colour.
        colour: &'static str,
        /// Its shape.
        shape: Shape,
    },
    /// Filled markers.
    Decode,
    /// Hollow markers.
    Prefill,
    /// Solid roofs.
    Datasheet,
    /// Dashed roofs.
    Measured,
    /// The ring.
    Fastest,
}

impl Key {
    fn text(&self) -> &str {
        match self {
            Key::Format { name, .. } => name,
            Key::Decode => "decode (filled)",
            Key::Prefill => "prefill (hollow)",
            Key::Datasheet => "datasheet roof",
            Key::Measured => "measured roof",
            Key::Fastest => "fastest for its work",
        }
    }

    /// Width of the entry: its symbol, gap and text.
    fn width(&self) -> f64 {
        28.0 + text_width(self.text(), 12.0)
    }
}

/// Everything the chart draws, positioned.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The canvas.
    pub frame: Frame,
    /// The data shown.
    pub view: Viewport,
    /// The compute roofs (equal ones merged).
    pub roofs: Vec<Roof>,
    /// Every line drawn for them.
    pub lines: Vec<RoofLine>,
    /// Their labels.
    pub labels: RoofLabels,
    /// The kernels.
    pub marks: Vec<Mark>,
    /// The legend, row by row.
    pub legend: Vec<Vec<Key>>,
}

/// The compute types to draw datasheet roofs for: those the kernels run as, else every one
/// the device lists.
fn datasheet_roofs(hw: &Hardware, kernels: &[&KernelPoint]) -> Vec<(Math, f64)> {
    let mut maths: Vec<Math> = kernels.iter().map(|k| k.math).collect();
    rooflinr_model::sort::sort_by_key(&mut maths, |m| m.name());
    maths.dedup();
    let mut out: Vec<(Math, f64)> = if maths.is_empty() {
        hw.peaks
            .iter()
            .map(|p| (p.math, p.rate.value.get()))
            .collect()
    } else {
        maths
            .into_iter()
            .map(|m| (m, hw.ceiling(m, false).peak.get()))
            .filter(|(_, p)| *p > 0.0)
            .collect()
    };
    rooflinr_model::sort::sort_by(&mut out, |a, b| b.1.total_cmp(&a.1));
    out
}

/// The name a kernel's marker goes by: its weight format, else its compute type.
fn format_name(k: &KernelPoint) -> String {
    k.format
        .as_ref()
        .map_or_else(|| k.math.name().to_string(), |f| f.name())
}

/// Lays the chart out: roofs from the datasheet and as measured, kernels coloured and
/// shaped by format, the fastest of each work ringed, and every roof's label placed.
pub fn layout(hw: &Hardware, kernels: &[KernelPoint], ceilings: &MeasuredCeilings) -> Chart {
    let bw = hw.memory_bandwidth.value.get();
    let placed: Vec<(usize, &KernelPoint)> = kernels
        .iter()
        .enumerate()
        .filter(|(_, k)| k.flops_counted && k.flops > 0.0 && k.bytes > 0.0 && k.time_s > 0.0)
        .collect();
    let of_placed: Vec<&KernelPoint> = placed.iter().map(|(_, k)| *k).collect();
    let datasheet = datasheet_roofs(hw, &of_placed);
    let measured_bw = ceilings.bandwidth.as_ref().map(|(b, _)| *b);
    let mut all: Vec<Roof> = datasheet
        .iter()
        .map(|&(math, peak)| {
            let name = math.name().to_ascii_uppercase();
            Roof::new(name, math, peak, bw, RoofSource::Datasheet)
        })
        .collect();
    if let Some(mbw) = measured_bw {
        all.extend(ceilings.peaks.iter().map(|p| {
            Roof::new(
                p.format.name(),
                p.math,
                p.flops_per_s,
                mbw,
                RoofSource::Measured,
            )
        }));
    }
    let roofs = Roof::merged(all);

    // The view: every point and every ridge with half a decade around, and room right of
    // the highest ridge for its label.
    let mut extent = Extent::default();
    for (_, k) in &placed {
        extent.include(k.intensity(), k.achieved_flops_per_s());
    }
    roofs::include(&mut extent, &roofs);
    let view = extent.fit();

    let fastest_of: Vec<usize> = fastest(kernels).iter().map(|f| f.winner).collect();
    let mut formats: Vec<String> = Vec::new();
    let mut any = (false, false);
    let frame_for = |rows: usize| Frame {
        width: WIDTH,
        height: LEGEND_TOP + rows as f64 * LEGEND_ROW + PLOT_HEIGHT,
        left: LEFT,
        right: RIGHT,
        top: LEGEND_TOP + rows as f64 * LEGEND_ROW,
        bottom: BOTTOM,
    };
    for (_, k) in &placed {
        let name = format_name(k);
        if !formats.contains(&name) {
            formats.push(name);
        }
        if k.phase == "prefill" {
            any.1 = true;
        } else {
            any.0 = true;
        }
    }
    let mut keys: Vec<Key> = formats
        .iter()
        .map(|name| Key::Format {
            name: name.clone(),
            colour: LIGHT.format(name),
            shape: palette::format_shape(name),
        })
        .collect();
    if any.0 {
        keys.push(Key::Decode);
    }
    if any.1 {
        keys.push(Key::Prefill);
    }
    keys.push(Key::Datasheet);
    if roofs.iter().any(|r| r.source == RoofSource::Measured) || measured_bw.is_some() {
        keys.push(Key::Measured);
    }
    if !fastest_of.is_empty() {
        keys.push(Key::Fastest);
    }
    let mut legend: Vec<Vec<Key>> = vec![Vec::new()];
    let mut used = 0.0;
    for key in keys {
        let w = key.width() + 16.0;
        if used + w > WIDTH - LEFT - RIGHT && !legend.last().is_some_and(Vec::is_empty) {
            legend.push(Vec::new());
            used = 0.0;
        }
        used += w;
        legend.last_mut().expect("a row").push(key);
    }
    let frame = frame_for(legend.len());

    let marks: Vec<Mark> = placed
        .iter()
        .map(|&(i, k)| {
            let (x, y) = view.project(&frame, k.intensity(), k.achieved_flops_per_s());
            let name = format_name(k);
            Mark {
                kernel: i,
                x,
                y,
                shape: palette::format_shape(&name),
                colour: LIGHT.format(&name),
                hollow: k.phase == "prefill",
                fastest: fastest_of.contains(&i),
                title: format!(
                    "{} ({}) · {} · {} · {}",
                    k.kernel,
                    k.op,
                    k.phase_label(),
                    si(k.achieved_flops_per_s(), "FLOP/s"),
                    si(k.time_s, "s")
                ),
            }
        })
        .collect();
    let slopes: Vec<(f64, RoofSource)> = std::iter::once((bw, RoofSource::Datasheet))
        .chain(measured_bw.map(|b| (b, RoofSource::Measured)))
        .collect();
    let lines = roofs::lines(&frame, &view, &roofs, &slopes);
    let keep_clear: Vec<Rect> = marks
        .iter()
        .map(|m| {
            let r = if m.fastest { RING_R } else { MARKER_R + 1.5 };
            Rect {
                x0: m.x - r,
                y0: m.y - r,
                x1: m.x + r,
                y1: m.y + r,
            }
        })
        .collect();
    let labels = roofs::layout(&frame, &view, &roofs, &lines, &keep_clear, false);
    Chart {
        frame,
        view,
        roofs,
        lines,
        labels,
        marks,
        legend,
    }
}

/// Writes a marker's outline.
fn marker(s: &mut String, shape: Shape, x: f64, y: f64, colour: &str, hollow: bool) {
    let (fill, stroke, width) = if hollow {
        (LIGHT.background, colour, 2.0)
    } else {
        (colour, LIGHT.background, 1.0)
    };
    let _ = write!(
        s,
        r#"<path d="{}" fill="{fill}" stroke="{stroke}" stroke-width="{width}""#,
        geometry::marker_path(shape, x, y, MARKER_R)
    );
}

/// The SVG markup of a laid-out chart.
pub fn render(chart: &Chart, title: &str) -> String {
    let f = &chart.frame;
    let v = &chart.view;
    let (x0, x1, y0, y1) = (f.x0(), f.x1(), f.y0(), f.y1());
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Inter, system-ui, sans-serif"><rect width="{w}" height="{h}" fill="{bg}"/><text x="{LEFT}" y="30" font-size="18" font-weight="600" fill="{ink}">{}</text>"##,
        esc(title),
        w = f.width,
        h = f.height,
        bg = LIGHT.background,
        ink = LIGHT.ink,
    );
    // Legend, row by row.
    for (row, keys) in chart.legend.iter().enumerate() {
        let cy = LEGEND_TOP + row as f64 * LEGEND_ROW - 4.0;
        let mut lx = x0;
        for key in keys {
            let sx = lx + 8.0;
            match key {
                Key::Format { colour, shape, .. } => {
                    marker(&mut s, *shape, sx, cy, colour, false);
                    s.push_str("/>");
                }
                Key::Decode | Key::Prefill => {
                    marker(
                        &mut s,
                        Shape::Circle,
                        sx,
                        cy,
                        LIGHT.muted,
                        *key == Key::Prefill,
                    );
                    s.push_str("/>");
                }
                Key::Datasheet | Key::Measured => {
                    let dash = if *key == Key::Measured {
                        draw::DASHED
                    } else {
                        ""
                    };
                    let _ = write!(
                        s,
                        r#"<line x1="{:.1}" x2="{:.1}" y1="{cy:.1}" y2="{cy:.1}" stroke="{}" stroke-width="2"{dash}/>"#,
                        lx,
                        lx + 20.0,
                        LIGHT.ink
                    );
                }
                Key::Fastest => {
                    let _ = write!(
                        s,
                        r#"<circle cx="{sx:.1}" cy="{cy:.1}" r="{}" fill="none" stroke="{}" stroke-width="1.5"/>"#,
                        RING_R - 2.0,
                        LIGHT.ink
                    );
                }
            }
            let _ = write!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="12" fill="{}">{}</text>"#,
                lx + 22.0,
                cy + 4.0,
                LIGHT.ink,
                esc(key.text())
            );
            lx += key.width() + 16.0;
        }
    }
    // Grid and ticks, as the calculator draws them.
    for t in geometry::log_ticks(v.x, "") {
        let (x, _) = v.project(f, t.value, 1.0);
        if t.major {
            let _ = write!(
                s,
                r#"<line x1="{x:.1}" x2="{x:.1}" y1="{y0}" y2="{y1}" stroke="{}"/>"#,
                LIGHT.grid
            );
        }
        let _ = write!(
            s,
            r#"<line x1="{x:.1}" x2="{x:.1}" y1="{y1}" y2="{:.1}" stroke="{}"/><text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="{}">{}</text>"#,
            y1 + if t.major { 6.0 } else { 3.0 },
            LIGHT.muted,
            y1 + 20.0,
            LIGHT.muted,
            esc(&t.label)
        );
    }
    for t in geometry::log_ticks(v.y, "") {
        let (_, y) = v.project(f, 1.0, t.value);
        if t.major {
            let _ = write!(
                s,
                r#"<line x1="{x0}" x2="{x1}" y1="{y:.1}" y2="{y:.1}" stroke="{}"/>"#,
                LIGHT.grid
            );
        }
        let _ = write!(
            s,
            r#"<line x1="{:.1}" x2="{x0}" y1="{y:.1}" y2="{y:.1}" stroke="{}"/><text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end" fill="{}">{}</text>"#,
            x0 - if t.major { 6.0 } else { 3.0 },
            LIGHT.muted,
            x0 - 10.0,
            y + 4.0,
            LIGHT.muted,
            esc(&t.label)
        );
    }
    let _ = write!(
        s,
        r#"<rect x="{x0}" y="{y0}" width="{:.1}" height="{:.1}" fill="none" stroke="{}"/><text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="{ink}">Arithmetic intensity (FLOP/byte)</text><text transform="translate(22 {:.1}) rotate(-90)" font-size="13" text-anchor="middle" fill="{ink}">Performance (FLOP/s)</text>"#,
        x1 - x0,
        y1 - y0,
        LIGHT.muted,
        (x0 + x1) / 2.0,
        f.height - 18.0,
        (y0 + y1) / 2.0,
        ink = LIGHT.ink,
    );
    let _ = write!(
        s,
        r#"<clipPath id="plot"><rect x="{x0}" y="{y0}" width="{:.1}" height="{:.1}"/></clipPath><g clip-path="url(#plot)">"#,
        x1 - x0,
        y1 - y0
    );
    s.push_str(&draw::roof_lines(
        f,
        v,
        &chart.roofs,
        &chart.lines,
        &LIGHT,
        false,
    ));
    for m in &chart.marks {
        if m.fastest {
            let _ = write!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{RING_R}" fill="none" stroke="{}" stroke-width="1.5"/>"#,
                m.x, m.y, LIGHT.ink
            );
        }
        marker(&mut s, m.shape, m.x, m.y, m.colour, m.hollow);
        let _ = write!(s, "><title>{}</title></path>", esc(&m.title));
    }
    s.push_str("</g>");
    // Labels last, over everything.
    s.push_str(&draw::roof_labels(&chart.roofs, &chart.labels, &LIGHT));
    s.push_str("</svg>\n");
    s
}

/// The SVG markup of the chart.
pub fn chart(
    hw: &Hardware,
    kernels: &[KernelPoint],
    ceilings: &MeasuredCeilings,
    title: &str,
) -> String {
    render(&layout(hw, kernels, ceilings), title)
}

#[cfg(all(test, not(target_arch = "wasm32")))] // native only: proptest needs an OS RNG
mod tests;
