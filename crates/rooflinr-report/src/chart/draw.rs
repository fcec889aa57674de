//! SVG markup of the chart's roofs layer: the lines [`super::roofs::lines`] computed and the
//! labels [`super::roofs::layout`] placed, in a theme's colours. The calculator sets it as
//! the inner markup of its roofs group; the report writes it into its chart.

use std::fmt::Write;

use super::geometry::{self, Frame, Viewport};
use super::palette::Palette;
use super::place::Placed;
use super::roofs::{RIDGE_FONT, ROOF_FONT, Roof, RoofLabels, RoofLine, RoofSource};

/// Escapes text for SVG and HTML markup.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The attribute that dashes measured roofs.
pub const DASHED: &str = r#" stroke-dasharray="7 5""#;

fn text(s: &mut String, p: &Placed, t: &str, size: f64, weight: u16, colour: &str, halo: &str) {
    let _ = write!(
        s,
        r#"<text x="{:.1}" y="{:.1}" font-size="{size}" font-weight="{weight}" text-anchor="{}" fill="{colour}" stroke="{halo}" stroke-width="3" paint-order="stroke">{}</text>"#,
        p.x,
        p.y,
        p.anchor.svg(),
        esc(t)
    );
}

/// The roofs' lines: datasheet solid, measured dashed (in a group of class
/// `measured-roof-lines`), and with `ridge_dots`, the datasheet ridge points in view.
pub fn roof_lines(
    frame: &Frame,
    view: &Viewport,
    roofs: &[Roof],
    lines: &[RoofLine],
    palette: &Palette,
    ridge_dots: bool,
) -> String {
    let mut s = String::new();
    let path = |s: &mut String, line: &RoofLine| {
        let dash = if line.source == RoofSource::Measured {
            DASHED
        } else {
            ""
        };
        let _ = write!(
            s,
            r#"<path d="{}" fill="none" stroke="{}" stroke-width="2"{dash}/>"#,
            line.path(),
            palette.line(roofs, line.roof, line.source)
        );
    };
    let mut measured = String::new();
    for line in lines {
        match line.source {
            RoofSource::Datasheet => path(&mut s, line),
            RoofSource::Measured => path(&mut measured, line),
        }
    }
    if !measured.is_empty() {
        s.push_str(r#"<g class="measured-roof-lines">"#);
        s.push_str(&measured);
        s.push_str("</g>");
    }
    if ridge_dots {
        for r in roofs {
            let (x, y) = view.project(frame, r.ridge(), r.peak);
            if r.source == RoofSource::Datasheet && geometry::inside(frame, x, y) {
                let _ = write!(
                    s,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="3.5" fill="{}"/>"#,
                    palette.roof(r.math)
                );
            }
        }
    }
    s
}

/// The roofs' labels, each with a halo of the background so that what lies under it stays
/// apart: the measured ones in a group of class `measured-roof` (its memory roof's first),
/// then the datasheet's, then the ridges'.
pub fn roof_labels(roofs: &[Roof], labels: &RoofLabels, palette: &Palette) -> String {
    let mut s = String::new();
    let halo = palette.background;
    let (mut measured, mut datasheet) = (String::new(), String::new());
    for l in &labels.slopes {
        let s = match l.source {
            RoofSource::Measured => &mut measured,
            RoofSource::Datasheet => &mut datasheet,
        };
        text(
            s,
            &l.placed,
            &l.text,
            ROOF_FONT,
            400,
            palette.line(roofs, None, l.source),
            halo,
        );
    }
    for l in &labels.roofs {
        let source = roofs[l.roofs[0]].source;
        let s = match source {
            RoofSource::Measured => &mut measured,
            RoofSource::Datasheet => &mut datasheet,
        };
        let colour = palette.line(roofs, Some(l.roofs[0]), source);
        text(s, &l.placed, &l.text, ROOF_FONT, 600, colour, halo);
    }
    if !measured.is_empty() {
        s.push_str(r#"<g class="measured-roof">"#);
        s.push_str(&measured);
        s.push_str("</g>");
    }
    s.push_str(&datasheet);
    for l in &labels.ridges {
        let colour = palette.roof(roofs[l.roof].math);
        text(&mut s, &l.placed, &l.text, RIDGE_FONT, 400, colour, halo);
    }
    s
}
