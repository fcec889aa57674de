//! The calculator chart's text labels (roof peaks, ridge points, the memory roof), placed
//! by the report crate's label placement (`rooflinr_report::report::labels`), which the
//! report's SVG chart uses too.

use rooflinr_model::units::si;
pub use rooflinr_report::report::labels::{Anchor, Placed, Rect, Wanted, rect_for, text_width};

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
    /// The label without the unit or spaces between formats (`FP8·INT8 500 T`), for a narrow
    /// chart where the whole label fits nowhere clear of the memory slope (the axis names
    /// the unit).
    pub short: String,
    /// Ridge label text (`ridge 295`).
    pub ridge: String,
}

impl RoofLabel {
    /// The label of the roof at `peak` FLOP/s that the formats `names` share (`fp8`,
    /// `int8`), on a memory roof of `bandwidth` bytes/s.
    pub fn new(peak: f64, names: &[&str], bandwidth: f64) -> RoofLabel {
        let upper: Vec<String> = names.iter().map(|n| n.to_ascii_uppercase()).collect();
        RoofLabel {
            peak,
            text: format!("{} {}", upper.join(" · "), si(peak, "FLOP/s")),
            short: format!("{} {}", upper.join("·"), si(peak, "")),
            ridge: format!("ridge {:.0}", peak / bandwidth),
        }
    }
}

/// The chart's labels, placed.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartLabels {
    /// One per roof, in the order given: at the right edge above its line, or left of its
    /// ridge point.
    pub roofs: Vec<Option<Placed>>,
    /// The text each roof's label was placed with: its `text`, or its `short` text.
    pub roof_texts: Vec<String>,
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
/// at the right edge just above its line; where the memory slope rising to a higher roof
/// would run through it there, ending just left of its ridge point, in its short form if
/// only that fits, or in its short form at the edge if that is clear of the slope), then
/// ridge labels (below right of the ridge point, or left of it), then the memory roof's
/// label.
pub fn chart_labels(
    frame: &Frame,
    view: &super::Viewport,
    bandwidth: f64,
    roofs: &[RoofLabel],
    memory_text: &str,
) -> ChartLabels {
    let mut order: Vec<usize> = (0..roofs.len()).collect();
    rooflinr_model::sort::sort_by(&mut order, |&a, &b| roofs[b].peak.total_cmp(&roofs[a].peak));
    let top = order.first().map_or(0.0, |&i| roofs[i].peak);
    let mut wanted = Vec::new();
    for &i in &order {
        let (rx, ry) = view.project(frame, roofs[i].peak / bandwidth, roofs[i].peak);
        let at_edge = Wanted {
            text: roofs[i].text.clone(),
            font_size: ROOF_FONT,
            x: frame.x1() - 6.0,
            y: ry - 6.0,
            anchor: Anchor::End,
            may_flip: false,
        };
        let before_ridge = |text: &str| Wanted {
            text: text.to_string(),
            x: rx - 6.0,
            ..at_edge.clone()
        };
        let short_at_edge = Wanted {
            text: roofs[i].short.clone(),
            ..at_edge.clone()
        };
        let fits = |w: &Wanted| rect_for(&w.text, w.font_size, w.x, w.y, w.anchor).x0 >= frame.x0();
        let clear =
            |w: &Wanted| roofs[i].peak >= top || !slope_crosses(frame, view, bandwidth, top, w);
        let choice = [
            before_ridge(&roofs[i].text),
            before_ridge(&roofs[i].short),
            short_at_edge,
        ]
        .into_iter()
        .find(|w| fits(w) && clear(w));
        wanted.push(match choice {
            Some(w) if !clear(&at_edge) => w,
            _ => at_edge,
        });
    }
    let roof_texts: Vec<String> = {
        let mut texts = vec![String::new(); roofs.len()];
        for (&i, w) in order.iter().zip(&wanted) {
            texts[i] = w.text.clone();
        }
        texts
    };
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
        roof_texts,
        ridges: ridge_slots,
        memory: placed.next().flatten(),
    }
}

/// Whether the memory slope, drawn up to the ridge of the roof at `top` FLOP/s, runs through
/// the box `label` wants: where the slope crosses the box's height, left of its right end
/// and right of its left one.
fn slope_crosses(
    frame: &Frame,
    view: &super::Viewport,
    bandwidth: f64,
    top: f64,
    label: &Wanted,
) -> bool {
    let rect = rect_for(&label.text, label.font_size, label.x, label.y, label.anchor);
    let (top_x, top_y) = view.project(frame, top / bandwidth, top);
    // The slope's x at screen height y: the intensity whose memory-bound performance is the
    // performance at y.
    let slope_x = |y: f64| {
        let (_, flops) = view.invert(frame, frame.x0(), y);
        view.project(frame, flops / bandwidth, flops).0
    };
    // The box's height, clipped to where the slope is drawn.
    let (y_top, y_bottom) = (rect.y0.max(top_y), rect.y1);
    if y_top >= y_bottom {
        return false;
    }
    let (a, b) = (slope_x(y_bottom), slope_x(y_top).min(top_x));
    a < rect.x1 && b > rect.x0
}
