//! Placing a chart's text labels so that no two overlap: each label asks for a spot beside
//! what it names and takes the nearest free one, moving along the side it is tied to; a
//! label with no free spot inside the plot is left out rather than drawn over another.
//! The report's SVG chart and the calculator's chart both place their labels here.

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

    /// Whether this box lies inside `outer`.
    pub fn within(&self, outer: &Rect) -> bool {
        self.x0 >= outer.x0 && self.x1 <= outer.x1 && self.y0 >= outer.y0 && self.y1 <= outer.y1
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

/// The estimated box of `text` drawn at `font_size` with its anchor at `x` and its baseline
/// at `y`.
pub fn rect_for(text: &str, font_size: f64, x: f64, y: f64, anchor: Anchor) -> Rect {
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
/// vertical offset from where it wants to be, alternating above and below (below first when
/// what blocks the wanted spot sits above it), where its box
/// lies inside `plot` and overlaps no label already placed and no box in `keep_clear`.
/// `None` for a label that fits nowhere.
pub fn place(plot: &Rect, wanted: &[Wanted], keep_clear: &[Rect]) -> Vec<Option<Placed>> {
    let mut taken: Vec<Rect> = keep_clear.to_vec();
    let mut out = Vec::with_capacity(wanted.len());
    for w in wanted {
        let step = w.font_size * 1.05 + GAP;
        let reach = ((plot.y1 - plot.y0) / step).ceil() as i32 + 1;
        let anchors: &[Anchor] = if w.may_flip {
            &[w.anchor, flip(w.anchor)]
        } else {
            std::slice::from_ref(&w.anchor)
        };
        // Away from what is in the way first: below a label placed just above the wanted
        // spot (so a stack of close roofs keeps their order), else above.
        let wanted_box = rect_for(&w.text, w.font_size, w.x, w.y, w.anchor);
        let centre = |r: &Rect| (r.y0 + r.y1) / 2.0;
        let down_first = taken
            .iter()
            .find(|t| t.intersects(&wanted_box))
            .is_some_and(|t| centre(t) < centre(&wanted_box));
        let first = if down_first { 1.0 } else { -1.0 };
        let found = (0..=reach)
            .flat_map(|i| {
                if i == 0 {
                    vec![0.0]
                } else {
                    vec![first * i as f64 * step, -first * i as f64 * step]
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
                (rect.within(plot) && !taken.iter().any(|t| t.intersects(&inflated)))
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
