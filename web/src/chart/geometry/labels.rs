//! Placing the chart's text labels (roof peaks, ridge points, the memory roof) so that no
//! two overlap: each label asks for a spot beside what it names and takes the nearest free
//! one, moving along the side it is tied to; a label with no free spot inside the plot is
//! left out rather than drawn over another.

use super::Frame;

/// Width of one character as a fraction of the font size: generous for digits and capitals
/// in a system sans-serif (about 0.55 to 0.6 em), so estimated boxes contain the drawn text.
const CHAR_WIDTH_EM: f64 = 0.62;
/// Gap kept between two labels, SVG units.
const GAP: f64 = 2.0;

/// How a label's x coordinate relates to its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The text starts at x (SVG `text-anchor="start"`).
    Start,
    /// The text ends at x (`text-anchor="end"`).
    End,
}

impl Anchor {
    /// The SVG `text-anchor` value.
    pub fn svg(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::End => "end",
        }
    }
}

/// An axis-aligned box, SVG units (y grows downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl Rect {
    /// Whether two boxes share any area.
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    fn within(&self, frame: &Frame) -> bool {
        self.x0 >= frame.x0()
            && self.x1 <= frame.x1()
            && self.y0 >= frame.y0()
            && self.y1 <= frame.y1()
    }
}

/// A label to place: its text, size and where it would like to sit.
#[derive(Clone, Debug, PartialEq)]
pub struct Wanted {
    /// The text (its length sets the width).
    pub text: String,
    /// Font size, SVG units.
    pub font_size: f64,
    /// Preferred x.
    pub x: f64,
    /// Preferred baseline y.
    pub y: f64,
    /// Preferred anchor.
    pub anchor: Anchor,
    /// Whether the label may move to the other side of x (a ridge label may sit left of its
    /// point; a roof label stays at the right edge).
    pub may_flip: bool,
}

/// Where a label was put.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// x of the text anchor.
    pub x: f64,
    /// Baseline y.
    pub y: f64,
    /// The anchor to draw it with.
    pub anchor: Anchor,
    /// Its estimated box.
    pub rect: Rect,
}

/// The estimated width of `text` at `font_size`.
pub fn text_width(text: &str, font_size: f64) -> f64 {
    text.chars().count() as f64 * font_size * CHAR_WIDTH_EM
}

fn rect_for(text: &str, font_size: f64, x: f64, y: f64, anchor: Anchor) -> Rect {
    let w = text_width(text, font_size);
    let (x0, x1) = match anchor {
        Anchor::Start => (x, x + w),
        Anchor::End => (x - w, x),
    };
    // A baseline sits about 0.8 em below the top of capitals and 0.25 em above descenders.
    Rect {
        x0,
        y0: y - 0.8 * font_size,
        x1,
        y1: y + 0.25 * font_size,
    }
}

/// Places labels in order (earlier ones win their preferred spot), each at the nearest
/// vertical offset from where it wants to be, alternating above and below, where its box
/// lies inside the plot and overlaps no label already placed and no box in `keep_clear`.
/// `None` for a label that fits nowhere.
pub fn place(frame: &Frame, wanted: &[Wanted], keep_clear: &[Rect]) -> Vec<Option<Placed>> {
    let mut taken: Vec<Rect> = keep_clear.to_vec();
    let mut out = Vec::with_capacity(wanted.len());
    for w in wanted {
        let step = w.font_size * 1.05 + GAP;
        let reach = ((frame.y1() - frame.y0()) / step).ceil() as i32 + 1;
        let anchors: &[Anchor] = if w.may_flip {
            &[w.anchor, flip(w.anchor)]
        } else {
            std::slice::from_ref(&w.anchor)
        };
        let found = (0..=reach)
            .flat_map(|i| {
                if i == 0 {
                    vec![0.0]
                } else {
                    vec![-(i as f64) * step, i as f64 * step]
                }
            })
            .flat_map(|dy| anchors.iter().map(move |a| (dy, *a)))
            .find_map(|(dy, anchor)| {
                // Flipping to the other side moves the text across its point by the
                // gap it kept on the first side.
                let x = if anchor == w.anchor {
                    w.x
                } else {
                    w.x - 2.0 * side_gap(w.anchor)
                };
                let y = w.y + dy;
                let rect = rect_for(&w.text, w.font_size, x, y, anchor);
                let inflated = Rect {
                    x0: rect.x0 - GAP / 2.0,
                    y0: rect.y0 - GAP / 2.0,
                    x1: rect.x1 + GAP / 2.0,
                    y1: rect.y1 + GAP / 2.0,
                };
                (rect.within(frame) && !taken.iter().any(|t| t.intersects(&inflated)))
                    .then_some(Placed { x, y, anchor, rect })
            });
        if let Some(p) = &found {
            taken.push(p.rect);
        }
        out.push(found);
    }
    out
}

fn flip(a: Anchor) -> Anchor {
    match a {
        Anchor::Start => Anchor::End,
        Anchor::End => Anchor::Start,
    }
}

/// The gap a label keeps from its point on its preferred side (the chart puts ridge labels
/// 6 units right of the point).
fn side_gap(a: Anchor) -> f64 {
    match a {
        Anchor::Start => 6.0,
        Anchor::End => -6.0,
    }
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
