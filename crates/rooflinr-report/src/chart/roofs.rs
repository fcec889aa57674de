//! The roofs of a chart and their labels: which lines are drawn (the memory slopes and the
//! compute ceilings, from the datasheet and as measured), and where each label goes, beside
//! its own line at the line's height, crossed by no line and overlapping no other label.
//! Both renderers draw exactly the segments and labels computed here.

use rooflinr_model::format::Math;
use rooflinr_model::units::si;

use super::geometry::{Extent, Frame, Viewport};
use super::place::{Anchor, Placed, Rect, rect_for};

/// Where a roof's figure comes from; the chart draws datasheet roofs solid and measured
/// ones dashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RoofSource {
    /// The device's datasheet (the registry entry).
    Datasheet,
    /// Measured on the device (an agent's ceilings).
    Measured,
}

impl RoofSource {
    /// How a label says it.
    pub fn name(self) -> &'static str {
        match self {
            RoofSource::Datasheet => "datasheet",
            RoofSource::Measured => "measured",
        }
    }
}

/// One compute roof as drawn: the flat line at `peak` from where the memory roof of
/// `bandwidth` meets it. Roofs with the same peak, bandwidth and source are one roof with
/// several names (FP16 and BF16 at 990 TFLOP/s).
#[derive(Clone, Debug, PartialEq)]
pub struct Roof {
    /// The operation types or formats at this peak (`FP16`, `BF16`), as labelled.
    pub names: Vec<String>,
    /// Peak, FLOP/s.
    pub peak: f64,
    /// The memory roof this ceiling meets, B/s.
    pub bandwidth: f64,
    /// Datasheet or measured.
    pub source: RoofSource,
    /// The operation type of its first name (its colour).
    pub math: Math,
}

impl Roof {
    /// A roof of one name.
    pub fn new(name: String, math: Math, peak: f64, bandwidth: f64, source: RoofSource) -> Roof {
        Roof {
            names: vec![name],
            peak,
            bandwidth,
            source,
            math,
        }
    }

    /// `roofs` with those equal in peak, bandwidth and source merged into one with every
    /// name, in the order first seen; roofs with no positive figure (which a log chart
    /// cannot draw) left out.
    pub fn merged(roofs: Vec<Roof>) -> Vec<Roof> {
        let mut out: Vec<Roof> = Vec::new();
        'roofs: for roof in roofs {
            let drawable = |v: f64| v.is_finite() && v > 0.0;
            if !(drawable(roof.peak) && drawable(roof.bandwidth)) {
                continue;
            }
            for r in &mut out {
                if r.peak == roof.peak && r.bandwidth == roof.bandwidth && r.source == roof.source {
                    for name in roof.names {
                        if !r.names.contains(&name) {
                            r.names.push(name);
                        }
                    }
                    continue 'roofs;
                }
            }
            out.push(roof);
        }
        out
    }

    /// The ridge point, FLOP/B.
    pub fn ridge(&self) -> f64 {
        self.peak / self.bandwidth
    }
}

/// Decades a fitted view keeps right of the highest ridge, so that its roof's label has a
/// line to sit on.
pub const ROOM_RIGHT_OF_RIDGE: f64 = 0.3;

/// Grows `extent` to show every roof's ridge point, and room right of the highest ridge.
pub fn include(extent: &mut Extent, roofs: &[Roof]) {
    for r in roofs {
        extent.include(r.ridge(), r.peak);
    }
    if let Some(top) = roofs.iter().max_by(|a, b| a.peak.total_cmp(&b.peak)) {
        extent.include(top.ridge() * 10f64.powf(ROOM_RIGHT_OF_RIDGE), top.peak);
    }
}

/// A straight piece of a drawn line, SVG units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// One end.
    pub from: (f64, f64),
    /// The other end.
    pub to: (f64, f64),
}

impl Segment {
    /// Whether any part of the segment lies inside `rect` (Liang and Barsky's clipping,
    /// "A new concept and method for line clipping", ACM TOG 3(1), 1984).
    pub fn crosses(&self, rect: &Rect) -> bool {
        let (dx, dy) = (self.to.0 - self.from.0, self.to.1 - self.from.1);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [
            (-dx, self.from.0 - rect.x0),
            (dx, rect.x1 - self.from.0),
            (-dy, self.from.1 - rect.y0),
            (dy, rect.y1 - self.from.1),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
        }
        t0 < t1
    }
}

/// A drawn line (a straight one: a memory slope or a compute ceiling) and the roof it
/// belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct RoofLine {
    /// `Some(i)`: the ceiling of roof `i`; `None`: a memory slope.
    pub roof: Option<usize>,
    /// The memory roof it belongs to, B/s.
    pub bandwidth: f64,
    /// Datasheet or measured.
    pub source: RoofSource,
    /// Where it runs, SVG units.
    pub segment: Segment,
}

impl RoofLine {
    /// Its SVG path (`M x y L x y`).
    pub fn path(&self) -> String {
        let s = &self.segment;
        format!(
            "M{:.1} {:.1} L{:.1} {:.1}",
            s.from.0, s.from.1, s.to.0, s.to.1
        )
    }
}

/// Every line the chart draws for `roofs`: per memory roof (bandwidth and source), its slope
/// from the view's left edge up to the ridge of its highest ceiling (to the right edge when
/// it has none); per roof in view, its ceiling from the ridge (or the left edge) to the
/// right edge. `slopes` may list memory roofs with no ceiling of their own (a measured
/// bandwidth alone).
pub fn lines(
    frame: &Frame,
    view: &Viewport,
    roofs: &[Roof],
    slopes: &[(f64, RoofSource)],
) -> Vec<RoofLine> {
    let (x_lo, x_hi) = (10f64.powf(view.x.0), 10f64.powf(view.x.1));
    let mut memory: Vec<(f64, RoofSource)> = Vec::new();
    for &slope in slopes {
        if !memory.contains(&slope) {
            memory.push(slope);
        }
    }
    for r in roofs {
        if !memory.contains(&(r.bandwidth, r.source)) {
            memory.push((r.bandwidth, r.source));
        }
    }
    let project = |(x, y): (f64, f64)| view.project(frame, x, y);
    let mut out = Vec::new();
    for &(bandwidth, source) in &memory {
        let mut top = f64::NAN;
        for r in roofs {
            if r.bandwidth == bandwidth && r.source == source {
                top = top.max(r.peak);
            }
        }
        let end = if top.is_nan() {
            x_hi
        } else {
            (top / bandwidth).min(x_hi)
        };
        if end > x_lo {
            out.push(RoofLine {
                roof: None,
                bandwidth,
                source,
                segment: Segment {
                    from: project((x_lo, bandwidth * x_lo)),
                    to: project((end, bandwidth * end)),
                },
            });
        }
    }
    for (i, r) in roofs.iter().enumerate() {
        let ridge = r.ridge();
        // A ceiling right of the view, or above or below it, is not drawn.
        let height = r.peak.log10();
        if ridge < x_hi && height >= view.y.0 && height <= view.y.1 {
            out.push(RoofLine {
                roof: Some(i),
                bandwidth: r.bandwidth,
                source: r.source,
                segment: Segment {
                    from: project((ridge.max(x_lo), r.peak)),
                    to: project((x_hi, r.peak)),
                },
            });
        }
    }
    out
}

/// Font size of roof labels.
pub const ROOF_FONT: f64 = 12.0;
/// Gap between a label's box and its own line, SVG units.
const LINE_GAP: f64 = 3.0;
/// Gap kept between a label's box and any other line or label, SVG units.
const CLEAR: f64 = 1.5;
/// Lines closer than this (two strokes of 2 units) read as one, SVG units.
const ONE_LINE: f64 = 4.0;
/// Gap between a label that ends before its ridge and the ridge, SVG units.
pub(crate) const BEFORE_RIDGE: f64 = 6.0;
/// Step of the search along a line, SVG units.
const STEP: f64 = 8.0;

/// One label of the chart's roofs: the roofs it names (one, or several whose lines lie too
/// close for a label each), its text and where it sits.
#[derive(Clone, Debug, PartialEq)]
pub struct RoofLabel {
    /// Indices of the roofs it names, highest first.
    pub roofs: Vec<usize>,
    /// The text drawn.
    pub text: String,
    /// Where.
    pub placed: Placed,
}

/// A memory roof's label, placed along its slope.
#[derive(Clone, Debug, PartialEq)]
pub struct SlopeLabel {
    /// Datasheet or measured.
    pub source: RoofSource,
    /// The text drawn.
    pub text: String,
    /// Where.
    pub placed: Placed,
}

/// Every roof label of a chart, placed.
#[derive(Clone, Debug, PartialEq)]
pub struct RoofLabels {
    /// Labels of the compute roofs: every roof drawn is named by one (in a view fitted to
    /// the roofs, always; a zoom can leave one no room).
    pub roofs: Vec<RoofLabel>,
    /// Labels of the memory slopes (one may be left out where the view leaves no room).
    pub slopes: Vec<SlopeLabel>,
    /// Labels of ridge points in view, where asked for and where there is room.
    pub ridges: Vec<RidgeLabel>,
}

/// A ridge point's label (`ridge 295`, in FLOP/B).
#[derive(Clone, Debug, PartialEq)]
pub struct RidgeLabel {
    /// The roof whose ridge it names.
    pub roof: usize,
    /// The text drawn.
    pub text: String,
    /// Where.
    pub placed: Placed,
}

/// The texts a label naming `members` (indices into `roofs`) may take, longest first: in
/// full (`FP16 · BF16 990 TFLOP/s (datasheet)`; roofs from both sources: one clause each,
/// joined by `;`; several peaks: their range), short (`FP16·BF16 990 T`), and for several
/// roofs, their count (`3 roofs 759–990 T`). The source is named only where the chart
/// draws roofs of both.
fn texts(roofs: &[Roof], members: &[usize], name_sources: bool) -> Vec<String> {
    let (mut full, mut short) = (String::new(), String::new());
    let (mut all_lo, mut all_hi) = (f64::INFINITY, 0.0f64);
    for source in [RoofSource::Datasheet, RoofSource::Measured] {
        let mut names: Vec<&str> = Vec::new();
        let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
        for &i in members {
            let r = &roofs[i];
            if r.source == source {
                for name in &r.names {
                    names.push(name);
                }
                (lo, hi) = (lo.min(r.peak), hi.max(r.peak));
            }
        }
        if names.is_empty() {
            continue;
        }
        (all_lo, all_hi) = (all_lo.min(lo), all_hi.max(hi));
        if !full.is_empty() {
            full.push_str("; ");
            short.push_str("; ");
        }
        full.push_str(&names.join(" · "));
        full.push(' ');
        full.push_str(&range(lo, hi, "FLOP/s"));
        if name_sources {
            full.push_str(" (");
            full.push_str(source.name());
            full.push(')');
        }
        if names.len() > 2 {
            short.push_str(names[0]);
            short.push('+');
            short.push_str(&(names.len() - 1).to_string());
        } else {
            short.push_str(&names.join("·"));
        }
        short.push(' ');
        short.push_str(&range(lo, hi, ""));
    }
    let mut out = vec![full, short];
    if members.len() > 1 {
        out.push(format!(
            "{} roofs {}",
            members.len(),
            range(all_lo, all_hi, "")
        ));
    }
    out
}

/// `lo` to `hi` in `unit` with one SI prefix where they share it (`1.47–1.49 PFLOP/s`),
/// one figure where they print the same.
fn range(lo: f64, hi: f64, unit: &str) -> String {
    let (a, b) = (si(lo, unit), si(hi, unit));
    if a == b {
        return b;
    }
    match (a.split_once(' '), b.split_once(' ')) {
        (Some((la, ua)), Some((lb, ub))) if ua == ub => format!("{la}–{lb} {ub}"),
        _ => format!("{a}–{b}"),
    }
}

/// The ceiling segment of roof `i` in `lines`, if drawn.
fn ceiling(lines: &[RoofLine], i: usize) -> Option<Segment> {
    for l in lines {
        if l.roof == Some(i) {
            return Some(l.segment);
        }
    }
    None
}

fn inflate(r: &Rect, by: f64) -> Rect {
    Rect {
        x0: r.x0 - by,
        y0: r.y0 - by,
        x1: r.x1 + by,
        y1: r.y1 + by,
    }
}

/// Whether a label at `rect` is clear: inside the plot, off every line and every box taken.
#[inline(never)] // one copy in the bundle, though called from several places
fn clear(plot: &Rect, rect: &Rect, lines: &[RoofLine], taken: &[Rect]) -> bool {
    let room = inflate(rect, CLEAR);
    if !rect.within(plot) {
        return false;
    }
    for t in taken {
        if t.intersects(&room) {
            return false;
        }
    }
    for l in lines {
        if l.segment.crosses(&room) {
            return false;
        }
    }
    true
}

/// Where a label naming `members` may sit: just above the highest of their ceilings or just
/// below the lowest, at least half of it over that line, from the right edge leftwards, or
/// else ending just before that line's ridge.
#[inline(never)] // one copy in the bundle, though called from several places
fn spot(
    plot: &Rect,
    lines: &[RoofLine],
    members: &[usize],
    text: &str,
    taken: &[Rect],
) -> Option<Placed> {
    // Above the highest line, over it; or below the lowest, over that one.
    let (mut highest, mut lowest): (Option<Segment>, Option<Segment>) = (None, None);
    for &i in members {
        let Some(seg) = ceiling(lines, i) else {
            continue;
        };
        if highest.is_none_or(|h| seg.from.1 < h.from.1) {
            highest = Some(seg);
        }
        if lowest.is_none_or(|l| seg.from.1 > l.from.1) {
            lowest = Some(seg);
        }
    }
    let (highest, lowest) = (highest?, lowest?);
    let baselines = [
        (highest.from.1 - LINE_GAP - 0.25 * ROOF_FONT, highest.from.0),
        (lowest.from.1 + LINE_GAP + 0.8 * ROOF_FONT, lowest.from.0),
    ];
    for (y, start) in baselines {
        let mut x = plot.x1 - 6.0;
        loop {
            let rect = rect_for(text, ROOF_FONT, x, y, Anchor::End);
            // At least half of it over its line (the rest may reach over the ridge where
            // no line runs, above the highest roof).
            if (rect.x0 + rect.x1) / 2.0 < start {
                break;
            }
            if clear(plot, &rect, lines, taken) {
                return Some(Placed {
                    x,
                    y,
                    anchor: Anchor::End,
                    rect,
                });
            }
            x -= STEP;
        }
        // Else ending just before its ridge, where the memory slope runs below the line's
        // height (a narrow chart leaves a high ridge little line to its right).
        let x = start - BEFORE_RIDGE;
        let rect = rect_for(text, ROOF_FONT, x, y, Anchor::End);
        if clear(plot, &rect, lines, taken) {
            return Some(Placed {
                x,
                y,
                anchor: Anchor::End,
                rect,
            });
        }
    }
    None
}

/// Lays out the roofs' labels: highest roof first, each beside its own line (its full text,
/// else a shorter one; each clear of the points in `keep_clear` where it can be, else
/// over them, so that a label says all it can); a roof that finds no spot is named by the
/// label of the closer of its neighbours instead, and the layout starts again (where even
/// one label for all finds no room, as a zoom can make, the layout that named the most). Then the memory
/// slopes' labels, along their slopes, and with `with_ridges`, each ridge point's in view.
pub fn layout(
    frame: &Frame,
    view: &Viewport,
    roofs: &[Roof],
    lines: &[RoofLine],
    keep_clear: &[Rect],
    with_ridges: bool,
) -> RoofLabels {
    let plot = Rect {
        x0: frame.x0(),
        y0: frame.y0(),
        x1: frame.x1(),
        y1: frame.y1(),
    };
    let y_of = |i: usize| view.project(frame, 1.0, roofs[i].peak).1;
    let (mut measured, mut datasheet) = (false, false);
    // Roofs whose ceiling is drawn, highest first; the rest lie right of the view.
    let mut drawn: Vec<usize> = Vec::new();
    for l in lines {
        match l.source {
            RoofSource::Measured => measured = true,
            RoofSource::Datasheet => datasheet = true,
        }
        if let Some(i) = l.roof {
            drawn.push(i);
        }
    }
    let name_sources = measured && datasheet;
    rooflinr_model::sort::sort_by(&mut drawn, |&a, &b| roofs[b].peak.total_cmp(&roofs[a].peak));
    // Lines of one source closer than two strokes read as one line: one label names them.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in &drawn {
        match groups.last_mut() {
            Some(g)
                if roofs[g[0]].source == roofs[i].source
                    && (y_of(i) - y_of(*g.last().expect("a member"))).abs() < ONE_LINE =>
            {
                g.push(i);
            }
            _ => groups.push(vec![i]),
        }
    }
    // The layout with the most roofs named so far, should merging never name them all.
    let mut best: (usize, Vec<RoofLabel>) = (0, Vec::new());
    let placed = loop {
        let mut taken: Vec<Rect> = Vec::new();
        let mut out = Vec::new();
        let mut failed = None;
        for (g, members) in groups.iter().enumerate() {
            let mut with_points = taken.clone();
            with_points.extend_from_slice(keep_clear);
            let mut found = None;
            for text in texts(roofs, members, name_sources) {
                let spot = spot(&plot, lines, members, &text, &with_points)
                    .or_else(|| spot(&plot, lines, members, &text, &taken));
                if let Some(p) = spot {
                    found = Some((text, p));
                    break;
                }
            }
            match found {
                Some((text, placed)) => {
                    taken.push(placed.rect);
                    out.push(RoofLabel {
                        roofs: members.clone(),
                        text,
                        placed,
                    });
                }
                None => failed = failed.or(Some(g)),
            }
        }
        let Some(g) = failed else { break out };
        let named: usize = out.iter().map(|l| l.roofs.len()).sum();
        if named > best.0 {
            best = (named, out);
        }
        if groups.len() == 1 {
            // One label for every roof and still no room (a zoom can leave none): the
            // layout that named the most.
            break std::mem::take(&mut best.1);
        }
        // The first group with no room is named by the closer of its neighbours' labels (the
        // groups are in order of height) and the layout starts again.
        let gap = |h: usize| (y_of(groups[h][0]) - y_of(groups[g][0])).abs();
        let into = match (g.checked_sub(1), groups.get(g + 1).map(|_| g + 1)) {
            (Some(above), Some(below)) if gap(below) < gap(above) => below,
            (Some(above), _) => above,
            (None, _) => g + 1,
        };
        // Groups lie highest first, so joined in that order their members stay so too.
        let (upper, lower) = (into.min(g), into.max(g));
        let moved = groups.remove(lower);
        groups[upper].extend(moved);
    };
    let mut taken: Vec<Rect> = keep_clear.to_vec();
    for l in &placed {
        taken.push(l.placed.rect);
    }
    let mut slopes = Vec::new();
    for line in lines {
        if line.roof.is_some() {
            continue;
        }
        let named = if name_sources {
            line.source.name()
        } else {
            "memory"
        };
        let text = format!("{named} {}", si(line.bandwidth, "B/s"));
        if let Some(placed) = slope_spot(&plot, lines, line, &text, &taken) {
            taken.push(placed.rect);
            slopes.push(SlopeLabel {
                source: line.source,
                text,
                placed,
            });
        }
    }
    let mut ridges = Vec::new();
    if with_ridges {
        for (i, r) in roofs.iter().enumerate() {
            let (x, y) = view.project(frame, r.ridge(), r.peak);
            if !super::geometry::inside(frame, x, y) {
                continue;
            }
            let text = format!("ridge {:.0}", r.ridge());
            if let Some(placed) = ridge_spot(&plot, lines, (x, y), &text, &taken) {
                taken.push(placed.rect);
                ridges.push(RidgeLabel {
                    roof: i,
                    text,
                    placed,
                });
            }
        }
    }
    RoofLabels {
        roofs: placed,
        slopes,
        ridges,
    }
}

/// Font size of ridge labels, a size smaller than roof labels.
pub const RIDGE_FONT: f64 = 11.0;

/// A ridge point's label: below its ceiling, right of the point (or left of it), moving
/// down a line at a time until clear.
fn ridge_spot(
    plot: &Rect,
    lines: &[RoofLine],
    (x, y): (f64, f64),
    text: &str,
    taken: &[Rect],
) -> Option<Placed> {
    for row in 1..=4 {
        let y = y + 3.0 + f64::from(row) * (RIDGE_FONT * 1.05 + 2.0);
        for (x, anchor) in [(x + 6.0, Anchor::Start), (x - 6.0, Anchor::End)] {
            let rect = rect_for(text, RIDGE_FONT, x, y, anchor);
            if clear(plot, &rect, lines, taken) {
                return Some(Placed { x, y, anchor, rect });
            }
        }
    }
    None
}

/// A slope's label: its box's lower right corner just above the slope (or its upper left
/// corner just below it), from a twentieth of the way along the view rightwards.
fn slope_spot(
    plot: &Rect,
    lines: &[RoofLine],
    line: &RoofLine,
    text: &str,
    taken: &[Rect],
) -> Option<Placed> {
    let s = line.segment;
    let (dx, dy) = (s.to.0 - s.from.0, s.to.1 - s.from.1);
    if dx <= 0.0 {
        return None;
    }
    let y_at = |x: f64| s.from.1 + (x - s.from.0) * dy / dx;
    let width = rect_for(text, ROOF_FONT, 0.0, 0.0, Anchor::Start).x1;
    let mut x = plot.x0 + 0.05 * (plot.x1 - plot.x0);
    // The corner nearest the slope keeps its clearance along a steep slope too.
    let gap = LINE_GAP + CLEAR * (1.0 + (dy / dx).abs());
    while x < s.to.0.min(plot.x1) {
        // Above: the box's right end sits over the slope at x + width.
        let above_y = y_at(x + width) - gap - 0.25 * ROOF_FONT;
        // Below: the box's left end sits under the slope at x.
        let below_y = y_at(x) + gap + 0.8 * ROOF_FONT;
        // Above only where the slope runs under the whole box.
        let above = (x + width <= s.to.0).then_some(above_y);
        for y in above.into_iter().chain([below_y]) {
            let rect = rect_for(text, ROOF_FONT, x, y, Anchor::Start);
            if clear(plot, &rect, lines, taken) {
                return Some(Placed {
                    x,
                    y,
                    anchor: Anchor::Start,
                    rect,
                });
            }
        }
        x += STEP;
    }
    None
}

#[cfg(all(test, not(target_arch = "wasm32")))] // native only: proptest needs an OS RNG
pub(crate) mod tests;
