//! A label's box: where text of a size drawn at a point with an anchor lies, estimated
//! generously, so that boxes kept apart ([`super::roofs::layout`]) keep the drawn text apart
//! (the report's PNG test holds the estimate against the renderer's own text layout).

/// Width of one character as a fraction of the font size: generous for digits and capitals
/// in a system sans-serif (about 0.55 to 0.6 em), so estimated boxes contain the drawn text.
const CHAR_WIDTH_EM: f64 = 0.62;

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
