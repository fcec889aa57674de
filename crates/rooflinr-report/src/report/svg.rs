//! The report's chart: a self-contained SVG (no scripts, no external fonts) of the
//! datasheet roofline, the measured one when an agent measured it, and every kernel.

use std::fmt::Write;

use rooflinr_model::format::Math;
use rooflinr_model::hardware::Hardware;
use rooflinr_model::units::si;

use super::labels::{Anchor, Rect, Wanted, place};
use crate::kernel::{KernelPoint, MeasuredCeilings};

/// Chart size, pixels.
pub const WIDTH: f64 = 1000.0;
/// Chart size, pixels.
pub const HEIGHT: f64 = 620.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 56.0;
const BOTTOM: f64 = 70.0;

/// Colours per phase (decode, prefill, other), readable on white.
const PHASE_COLOURS: [(&str, &str); 3] = [
    ("decode", "#2563eb"),
    ("prefill", "#ea580c"),
    ("", "#6b7280"),
];

fn colour_of(phase: &str) -> &'static str {
    PHASE_COLOURS
        .iter()
        .find(|(p, _)| *p == phase)
        .map_or(PHASE_COLOURS[2].1, |(_, c)| c)
}

/// Escapes text for SVG and HTML markup.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

struct Axes {
    x: (f64, f64),
    y: (f64, f64),
}

impl Axes {
    fn px(&self, ai: f64) -> f64 {
        LEFT + (ai.log10() - self.x.0) / (self.x.1 - self.x.0) * (WIDTH - LEFT - RIGHT)
    }
    fn py(&self, perf: f64) -> f64 {
        HEIGHT
            - BOTTOM
            - (perf.log10() - self.y.0) / (self.y.1 - self.y.0) * (HEIGHT - TOP - BOTTOM)
    }
    fn x_at(&self, t: f64) -> f64 {
        10f64.powf(self.x.0 + t * (self.x.1 - self.x.0))
    }
}

/// The compute types to draw roofs for: those the kernels run as, else every listed one.
fn roofs(hw: &Hardware, kernels: &[KernelPoint]) -> Vec<(Math, f64)> {
    let mut maths: Vec<Math> = kernels.iter().map(|k| k.math).collect();
    rooflinr_model::sort::sort_by_key(&mut maths, |m| m.name());
    maths.dedup();
    if maths.is_empty() {
        return hw
            .peaks
            .iter()
            .map(|p| (p.math, p.rate.value.get()))
            .collect();
    }
    let mut out: Vec<(Math, f64)> = maths
        .into_iter()
        .map(|m| (m, hw.ceiling(m, false).peak.get()))
        .filter(|(_, p)| *p > 0.0)
        .collect();
    rooflinr_model::sort::sort_by(&mut out, |a, b| b.1.total_cmp(&a.1));
    out
}

/// The SVG markup of the chart.
pub fn chart(
    hw: &Hardware,
    kernels: &[KernelPoint],
    ceilings: &MeasuredCeilings,
    title: &str,
) -> String {
    let bw = hw.memory_bandwidth.value.get();
    let roofs = roofs(hw, kernels);
    let placed: Vec<&KernelPoint> = kernels
        .iter()
        .filter(|k| k.flops_counted && k.flops > 0.0 && k.bytes > 0.0 && k.time_s > 0.0)
        .collect();
    // Axes: every point, every ridge, with a decade of margin.
    let mut ai: Vec<f64> = placed.iter().map(|k| k.intensity()).collect();
    ai.extend(roofs.iter().map(|(_, p)| p / bw));
    let mut perf: Vec<f64> = placed.iter().map(|k| k.achieved_flops_per_s()).collect();
    perf.extend(roofs.iter().map(|(_, p)| *p));
    perf.extend(ceilings.peaks.iter().map(|p| p.flops_per_s));
    let lo = |v: &[f64], d: f64| {
        v.iter()
            .copied()
            .filter(|x| *x > 0.0)
            .fold(f64::INFINITY, f64::min)
            .log10()
            .floor()
            - d
    };
    let hi = |v: &[f64], d: f64| {
        v.iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
            .log10()
            .ceil()
            + d
    };
    let axes = if ai.is_empty() {
        Axes {
            x: (-1.0, 4.0),
            y: (9.0, 16.0),
        }
    } else {
        Axes {
            x: (lo(&ai, 1.0), hi(&ai, 0.0).max(lo(&ai, 1.0) + 2.0)),
            // A third of a decade above the highest roof keeps its label inside the plot.
            y: (
                lo(&perf, 1.0),
                (hi(&perf, 0.0) + 0.35).max(lo(&perf, 1.0) + 2.0),
            ),
        }
    };

    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Inter, system-ui, sans-serif"><rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/><text x="{LEFT}" y="30" font-size="18" font-weight="600" fill="#111827">{}</text>"##,
        esc(title)
    );
    // Grid and labels: one line per decade.
    let (x0, x1, y0, y1) = (LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM);
    for d in (axes.x.0 as i32)..=(axes.x.1 as i32) {
        let x = axes.px(10f64.powi(d));
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" x2="{x:.1}" y1="{y0}" y2="{y1}" stroke="#e5e7eb"/><text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#4b5563">{}</text>"##,
            y1 + 18.0,
            esc(&si(10f64.powi(d), ""))
        );
    }
    for d in (axes.y.0 as i32)..=(axes.y.1.floor() as i32) {
        let y = axes.py(10f64.powi(d));
        let _ = write!(
            s,
            r##"<line x1="{x0}" x2="{x1}" y1="{y:.1}" y2="{y:.1}" stroke="#e5e7eb"/><text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end" fill="#4b5563">{}</text>"##,
            x0 - 8.0,
            y + 4.0,
            esc(&si(10f64.powi(d), ""))
        );
    }
    let _ = write!(
        s,
        r##"<rect x="{x0}" y="{y0}" width="{:.1}" height="{:.1}" fill="none" stroke="#9ca3af"/><text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="#111827">Arithmetic intensity (FLOP/byte)</text><text transform="translate(22 {:.1}) rotate(-90)" font-size="13" text-anchor="middle" fill="#111827">Performance (FLOP/s)</text>"##,
        x1 - x0,
        y1 - y0,
        (x0 + x1) / 2.0,
        HEIGHT - 22.0,
        (y0 + y1) / 2.0
    );
    let _ = write!(
        s,
        r##"<clipPath id="plot"><rect x="{x0}" y="{y0}" width="{:.1}" height="{:.1}"/></clipPath><g clip-path="url(#plot)">"##,
        x1 - x0,
        y1 - y0
    );
    let (ax0, ax1) = (axes.x_at(0.0), axes.x_at(1.0));
    // Datasheet roofs (solid) and the measured one (dashed); each roof's label is placed
    // after all of them, so that close roofs do not print over each other.
    let mut roof_labels: Vec<(f64, &str, String)> = Vec::new();
    let mut roofline = |s: &mut String,
                        bw: f64,
                        peak: f64,
                        colour: &'static str,
                        dash: &str,
                        label: String| {
        let ridge = peak / bw;
        let _ = write!(
            s,
            r##"<polyline points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="none" stroke="{colour}" stroke-width="2" {dash}/>"##,
            axes.px(ax0),
            axes.py(ax0 * bw),
            axes.px(ridge),
            axes.py(peak),
            axes.px(ax1),
            axes.py(peak),
        );
        roof_labels.push((axes.py(peak) - 6.0, colour, label));
    };
    for (math, peak) in &roofs {
        roofline(
            &mut s,
            bw,
            *peak,
            "#111827",
            "",
            format!(
                "{} {} (datasheet)",
                math.name().to_ascii_uppercase(),
                si(*peak, "FLOP/s")
            ),
        );
    }
    if let Some((mbw, _)) = &ceilings.bandwidth {
        for p in &ceilings.peaks {
            roofline(
                &mut s,
                *mbw,
                p.flops_per_s,
                "#059669",
                r#"stroke-dasharray="6 4""#,
                format!("{} {} (measured)", p.format, si(p.flops_per_s, "FLOP/s")),
            );
        }
    }
    let plot = Rect { x0, y0, x1, y1 };
    // Highest roof first, each at the right edge just above its line; a label with no free
    // spot is left out.
    roof_labels.sort_by(|a, b| a.0.total_cmp(&b.0));
    let wanted: Vec<Wanted> = roof_labels
        .iter()
        .map(|(y, _, text)| Wanted {
            text: text.clone(),
            font_size: ROOF_LABEL_FONT,
            x: x1 - 6.0,
            y: *y,
            anchor: Anchor::End,
            may_flip: false,
        })
        .collect();
    for (spot, (_, colour, text)) in place(&plot, &wanted, &[]).iter().zip(&roof_labels) {
        let Some(spot) = spot else { continue };
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="{ROOF_LABEL_FONT}" text-anchor="end" fill="{colour}" stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>"##,
            spot.x,
            spot.y,
            esc(text)
        );
    }
    if let Some((mbw, kernel)) = &ceilings.bandwidth {
        let lx = axes.x_at(0.06);
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="12" fill="#059669">measured {} ({kernel})</text>"##,
            axes.px(lx) + 4.0,
            axes.py(lx * mbw) + 16.0,
            esc(&si(*mbw, "B/s"))
        );
    }
    let lx = axes.x_at(0.06);
    let _ = write!(
        s,
        r##"<text x="{:.1}" y="{:.1}" font-size="12" fill="#111827">datasheet {}</text>"##,
        axes.px(lx) + 4.0,
        axes.py(lx * bw) - 8.0,
        esc(&si(bw, "B/s"))
    );
    let labelled = placed.len() <= 24;
    for k in &placed {
        let (x, y) = (axes.px(k.intensity()), axes.py(k.achieved_flops_per_s()));
        let _ = write!(
            s,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="5" fill="{}" stroke="#ffffff" stroke-width="1.5"><title>{}</title></circle>"##,
            colour_of(&k.phase),
            esc(&format!(
                "{} · {} · {}",
                k.kernel,
                si(k.achieved_flops_per_s(), "FLOP/s"),
                si(k.time_s, "s")
            ))
        );
        if labelled {
            let _ = write!(
                s,
                r##"<text x="{:.1}" y="{:.1}" font-size="10" fill="#374151">{}</text>"##,
                x + 7.0,
                y + 3.5,
                esc(&k.op)
            );
        }
    }
    s.push_str("</g>");
    // Legend: phases present.
    let mut phases: Vec<&str> = placed.iter().map(|k| k.phase.as_str()).collect();
    rooflinr_model::sort::sort(&mut phases);
    phases.dedup();
    let mut lx = x0 + 10.0;
    for p in phases {
        let label = if p.is_empty() { "unspecified" } else { p };
        let _ = write!(
            s,
            r##"<circle cx="{:.1}" cy="{:.1}" r="5" fill="{}"/><text x="{:.1}" y="{:.1}" font-size="12" fill="#111827">{}</text>"##,
            lx,
            y0 + 16.0,
            colour_of(p),
            lx + 9.0,
            y0 + 20.0,
            esc(label)
        );
        lx += 30.0 + 7.0 * label.len() as f64;
    }
    s.push_str("</svg>\n");
    s
}

/// Font size of the roof labels.
const ROOF_LABEL_FONT: f64 = 12.0;
