//! The calculator chart's text labels (roof peaks, ridge points, the memory roof), placed
//! by the report crate's label placement (`rooflinr_report::report::labels`), which the
//! report's SVG chart uses too.

pub use rooflinr_report::report::labels::{Anchor, Placed, Rect, Wanted, text_width};

use super::Frame;

/// Places labels inside `frame`'s plot (see [`rooflinr_report::report::labels::place`]).
pub fn place(frame: &Frame, wanted: &[Wanted], keep_clear: &[Rect]) -> Vec<Option<Placed>> {
    let plot = Rect {
        x0: frame.x0(),
        y0: frame.y0(),
        x1: frame.x1(),
        y1: frame.y1(),
    };
    rooflinr_report::report::labels::place(&plot, wanted, keep_clear)
}

/// One compute roof's label: its peak and its text (`FP8 · INT8 500 TFLOP/s`).
#[derive(Clone, Debug, PartialEq)]
pub struct RoofLabel {
    /// Peak FLOP/s.
    pub peak: f64,
    /// Label text.
    pub text: String,
    /// Ridge label text (`ridge 295`).
    pub ridge: String,
}

/// The chart's labels, placed.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartLabels {
    /// One per roof, in the order given: at the right edge above its line.
    pub roofs: Vec<Option<Placed>>,
    /// One per roof: beside its ridge point, when the point is in view.
    pub ridges: Vec<Option<Placed>>,
    /// The memory roof's label, where the slope enters the plot.
    pub memory: Option<Placed>,
}

/// Font sizes of the chart's labels.
pub const ROOF_FONT: f64 = 12.0;
/// Ridge labels are a size smaller than roof labels.
pub const RIDGE_FONT: f64 = 11.0;

/// Lays out every label of a roofline chart: roof labels first (highest peak first, each
/// at the right edge just above its line), then ridge labels (below right of the ridge
/// point, or left of it), then the memory roof's label.
pub fn chart_labels(
    frame: &Frame,
    view: &super::Viewport,
    bandwidth: f64,
    roofs: &[RoofLabel],
    memory_text: &str,
) -> ChartLabels {
    let mut order: Vec<usize> = (0..roofs.len()).collect();
    rooflinr_model::sort::sort_by(&mut order, |&a, &b| roofs[b].peak.total_cmp(&roofs[a].peak));
    let mut wanted = Vec::new();
    for &i in &order {
        let (_, ry) = view.project(frame, roofs[i].peak / bandwidth, roofs[i].peak);
        wanted.push(Wanted {
            text: roofs[i].text.clone(),
            font_size: ROOF_FONT,
            x: frame.x1() - 6.0,
            y: ry - 6.0,
            anchor: Anchor::End,
            may_flip: false,
        });
    }
    let mut ridge_of = Vec::new();
    for &i in &order {
        let (rx, ry) = view.project(frame, roofs[i].peak / bandwidth, roofs[i].peak);
        if super::inside(frame, rx, ry) {
            ridge_of.push(i);
            wanted.push(Wanted {
                text: roofs[i].ridge.clone(),
                font_size: RIDGE_FONT,
                x: rx + 6.0,
                y: ry + 14.0,
                anchor: Anchor::Start,
                may_flip: true,
            });
        }
    }
    let lx = 10f64.powf(view.x.0 + 0.08 * (view.x.1 - view.x.0));
    let (sx, sy) = view.project(frame, lx, bandwidth * lx);
    wanted.push(Wanted {
        text: memory_text.to_string(),
        font_size: ROOF_FONT,
        x: sx + 4.0,
        y: sy - 8.0,
        anchor: Anchor::Start,
        may_flip: false,
    });
    let mut placed = place(frame, &wanted, &[]).into_iter();
    let mut roof_slots = vec![None; roofs.len()];
    for &i in &order {
        roof_slots[i] = placed.next().flatten();
    }
    let mut ridge_slots = vec![None; roofs.len()];
    for &i in &ridge_of {
        ridge_slots[i] = placed.next().flatten();
    }
    ChartLabels {
        roofs: roof_slots,
        ridges: ridge_slots,
        memory: placed.next().flatten(),
    }
}
