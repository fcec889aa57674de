//! Chart geometry, free of the DOM: log scales, ticks with SI labels, the roof outlines,
//! auto-fit, zoom and pan, and hit-testing. Everything here is plain math with native tests.

/// The SVG canvas: its size and the margins around the plotting area, in SVG units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Total width.
    pub width: f64,
    /// Total height.
    pub height: f64,
    /// Space left of the plot (y tick labels).
    pub left: f64,
    /// Space right of the plot (roof labels).
    pub right: f64,
    /// Space above the plot.
    pub top: f64,
    /// Space below the plot (x tick labels).
    pub bottom: f64,
}

impl Frame {
    /// The calculator's chart: 960 x 540 with room for labels.
    pub const DEFAULT: Frame = Frame {
        width: 960.0,
        height: 540.0,
        left: 84.0,
        right: 24.0,
        top: 20.0,
        bottom: 56.0,
    };

    /// The chart on a phone (viewports up to 600 CSS px): about as many units as the
    /// screen has pixels, so its 11-13 unit text draws at 10 px or more; room on the left
    /// for tick labels beside the rotated axis title.
    pub const NARROW: Frame = Frame {
        width: 360.0,
        height: 380.0,
        left: 72.0,
        right: 10.0,
        top: 14.0,
        bottom: 48.0,
    };

    /// Left edge of the plot area.
    pub fn x0(&self) -> f64 {
        self.left
    }
    /// Right edge of the plot area.
    pub fn x1(&self) -> f64 {
        self.width - self.right
    }
    /// Top edge of the plot area.
    pub fn y0(&self) -> f64 {
        self.top
    }
    /// Bottom edge of the plot area.
    pub fn y1(&self) -> f64 {
        self.height - self.bottom
    }
}

/// Widest viewport (CSS px) whose charts draw in [`Frame::NARROW`]-sized frames.
pub const NARROW_VIEWPORT_PX: f64 = 600.0;

/// What part of the data plane is visible, as base-10 logarithms of its edges.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// log10 of the smallest and largest arithmetic intensity shown (FLOP/B).
    pub x: (f64, f64),
    /// log10 of the smallest and largest performance shown (FLOP/s).
    pub y: (f64, f64),
}

/// Narrowest span (in decades) a zoom may reach, so labels never collapse.
pub const MIN_SPAN: f64 = 0.25;
/// Widest span (in decades) a zoom may reach.
pub const MAX_SPAN: f64 = 24.0;

impl Viewport {
    /// Projects a data point (intensity, FLOP/s) to SVG coordinates within `frame`.
    pub fn project(&self, frame: &Frame, intensity: f64, flops: f64) -> (f64, f64) {
        (
            lerp(self.x, (frame.x0(), frame.x1()), intensity.log10()),
            lerp(self.y, (frame.y1(), frame.y0()), flops.log10()),
        )
    }

    /// The data point (intensity, FLOP/s) under SVG coordinates.
    pub fn invert(&self, frame: &Frame, px: f64, py: f64) -> (f64, f64) {
        (
            10f64.powf(lerp((frame.x0(), frame.x1()), self.x, px)),
            10f64.powf(lerp((frame.y1(), frame.y0()), self.y, py)),
        )
    }

    /// Zooms by `factor` (above 1 zooms in) keeping the data point under (`px`, `py`) fixed.
    pub fn zoom(&self, frame: &Frame, factor: f64, px: f64, py: f64) -> Viewport {
        if !(factor.is_finite() && factor > 0.0) {
            return *self;
        }
        let ax = lerp((frame.x0(), frame.x1()), self.x, px);
        let ay = lerp((frame.y1(), frame.y0()), self.y, py);
        Viewport {
            x: zoom_axis(self.x, ax, factor),
            y: zoom_axis(self.y, ay, factor),
        }
    }

    /// Moves the view by a drag of (`dx`, `dy`) SVG units: the data follows the pointer.
    pub fn pan(&self, frame: &Frame, dx: f64, dy: f64) -> Viewport {
        let per_x = (self.x.1 - self.x.0) / (frame.x1() - frame.x0());
        let per_y = (self.y.1 - self.y.0) / (frame.y1() - frame.y0());
        let (sx, sy) = (-dx * per_x, dy * per_y);
        Viewport {
            x: (self.x.0 + sx, self.x.1 + sx),
            y: (self.y.0 + sy, self.y.1 + sy),
        }
    }
}

fn lerp(from: (f64, f64), to: (f64, f64), v: f64) -> f64 {
    let t = (v - from.0) / (from.1 - from.0);
    to.0 + t * (to.1 - to.0)
}

fn zoom_axis((lo, hi): (f64, f64), anchor: f64, factor: f64) -> (f64, f64) {
    let span = ((hi - lo) / factor).clamp(MIN_SPAN, MAX_SPAN);
    let t = if hi > lo {
        (anchor - lo) / (hi - lo)
    } else {
        0.5
    };
    let lo = anchor - t * span;
    (lo, lo + span)
}

/// Everything the auto-fit must keep in view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Extent {
    /// Smallest and largest intensity.
    pub x: Option<(f64, f64)>,
    /// Smallest and largest FLOP/s.
    pub y: Option<(f64, f64)>,
}

impl Extent {
    /// Grows the extent to include one (intensity, FLOP/s) point; ignores non-positive or
    /// non-finite values, which a log axis cannot show.
    pub fn include(&mut self, intensity: f64, flops: f64) {
        fn grow(range: &mut Option<(f64, f64)>, v: f64) {
            if !(v.is_finite() && v > 0.0) {
                return;
            }
            *range = Some(match *range {
                Some((lo, hi)) => (lo.min(v), hi.max(v)),
                None => (v, v),
            });
        }
        grow(&mut self.x, intensity);
        grow(&mut self.y, flops);
    }

    /// A viewport showing the whole extent with half a decade of margin on each side (at
    /// least two decades wide in x and y, so a single point still has context).
    pub fn fit(&self) -> Viewport {
        fn axis(range: Option<(f64, f64)>, fallback: (f64, f64)) -> (f64, f64) {
            let (lo, hi) = range.map_or(fallback, |(lo, hi)| (lo.log10(), hi.log10()));
            let (mut lo, mut hi) = (lo - 0.5, hi + 0.5);
            if hi - lo < 2.0 {
                let mid = (lo + hi) / 2.0;
                (lo, hi) = (mid - 1.0, mid + 1.0);
            }
            (lo.floor(), hi.ceil())
        }
        Viewport {
            x: axis(self.x, (-1.0, 3.0)),
            y: axis(self.y, (11.0, 15.0)),
        }
    }
}

/// A tick on a log axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// The value (not its logarithm).
    pub value: f64,
    /// Label with an SI prefix, empty for minor ticks.
    pub label: String,
    /// Decades are major (labelled and gridded); 2x and 5x are minor.
    pub major: bool,
}

/// Ticks for a log axis spanning `log_range`: every decade labelled, 2x and 5x in between
/// when the view spans fewer than six decades, and only every second decade labelled when
/// it spans more than twelve.
pub fn log_ticks(log_range: (f64, f64), unit: &str) -> Vec<Tick> {
    let (lo, hi) = log_range;
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    let span = hi - lo;
    let minors: &[f64] = match span {
        s if s < 1.2 => &[2.0, 3.0, 5.0, 7.0],
        s if s < 6.0 => &[2.0, 5.0],
        _ => &[],
    };
    let label_every = if span > 12.0 { 2 } else { 1 };
    let mut ticks = Vec::new();
    for decade in (lo.floor() as i64)..=(hi.ceil() as i64) {
        let base = 10f64.powi(decade as i32);
        for (i, m) in std::iter::once(1.0)
            .chain(minors.iter().copied())
            .enumerate()
        {
            let value = base * m;
            let log = value.log10();
            if log < lo - 1e-9 || log > hi + 1e-9 {
                continue;
            }
            let major = i == 0;
            let labelled = major && decade.rem_euclid(label_every) == 0;
            let label = if labelled || (!major && span <= 2.0) {
                si_compact(value, unit)
            } else {
                String::new()
            };
            ticks.push(Tick {
                value,
                label,
                major,
            });
        }
    }
    ticks
}

/// A short SI label for a tick: `1 TFLOP/s`, `200 GB/s`, `10 µs`; unitless values below 1
/// stay decimal (`0.5`).
pub fn si_compact(value: f64, unit: &str) -> String {
    let abs = value.abs();
    if unit.is_empty() && abs < 1.0 {
        // Unitless fractions read better as decimals (0.5 FLOP/B, not 500 m).
        return format!("{}", (value * 1e6).round() / 1e6);
    }
    let (scale, prefix) = rooflinr_model::units::si_prefix(abs, 1e-6);
    let scaled = value / scale;
    let number = if (scaled - scaled.round()).abs() < 1e-6 {
        format!("{}", scaled.round())
    } else {
        format!("{scaled:.1}")
    };
    let sep = if prefix.is_empty() && unit.is_empty() {
        ""
    } else {
        " "
    };
    format!("{number}{sep}{prefix}{unit}")
}

/// The outline of one roof in data space: the bandwidth slope up to the ridge, then flat at
/// the peak, clipped to the viewport's x range. Returns (intensity, FLOP/s) vertices.
pub fn roof_outline(bandwidth: f64, peak: f64, view: &Viewport) -> Vec<(f64, f64)> {
    let (x_lo, x_hi) = (10f64.powf(view.x.0), 10f64.powf(view.x.1));
    let ridge = peak / bandwidth;
    let mut pts = vec![(x_lo, (bandwidth * x_lo).min(peak))];
    if ridge > x_lo && ridge < x_hi {
        pts.push((ridge, peak));
    }
    pts.push((x_hi, (bandwidth * x_hi).min(peak)));
    pts
}

/// An SVG path (`M x y L x y ...`) through data-space vertices.
pub fn path(view: &Viewport, frame: &Frame, vertices: &[(f64, f64)]) -> String {
    let mut d = String::new();
    for (i, (x, y)) in vertices.iter().enumerate() {
        let (px, py) = view.project(frame, *x, *y);
        d.push_str(if i == 0 { "M" } else { " L" });
        d.push_str(&format!("{px:.1} {py:.1}"));
    }
    d
}

/// A marker's outline: each format has one, so points read without colour (in print, in
/// greyscale, for colour-blind readers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A circle.
    Circle,
    /// A square.
    Square,
    /// A square on its corner.
    Diamond,
    /// An equilateral triangle, point up.
    TriangleUp,
    /// An equilateral triangle, point down.
    TriangleDown,
}

impl Shape {
    /// Every shape, in the order formats take them.
    pub const ALL: [Shape; 5] = [
        Shape::Circle,
        Shape::Square,
        Shape::Diamond,
        Shape::TriangleUp,
        Shape::TriangleDown,
    ];
}

/// The SVG path of a marker of `shape` centred on (`x`, `y`), sized so every shape covers
/// about the area of a circle of radius `r` (pi r^2), so none looks heavier than another.
pub fn marker_path(shape: Shape, x: f64, y: f64, r: f64) -> String {
    match shape {
        Shape::Circle => format!(
            "M{:.2} {y:.2} a{r:.2} {r:.2} 0 1 0 {:.2} 0 a{r:.2} {r:.2} 0 1 0 {:.2} 0 Z",
            x - r,
            2.0 * r,
            -2.0 * r
        ),
        Shape::Square => {
            // Side sqrt(pi) r.
            let h = 0.886 * r;
            format!(
                "M{:.2} {:.2} h{:.2} v{:.2} h{:.2} Z",
                x - h,
                y - h,
                2.0 * h,
                2.0 * h,
                -2.0 * h
            )
        }
        Shape::Diamond => {
            // Half-diagonal sqrt(pi / 2) r.
            let d = 1.253 * r;
            format!(
                "M{x:.2} {:.2} L{:.2} {y:.2} L{x:.2} {:.2} L{:.2} {y:.2} Z",
                y - d,
                x + d,
                y + d,
                x - d
            )
        }
        Shape::TriangleUp | Shape::TriangleDown => {
            // Side s with sqrt(3)/4 s^2 = pi r^2; centred on its centroid.
            let side = 2.694 * r;
            let height = side * 3f64.sqrt() / 2.0;
            let sign = if shape == Shape::TriangleUp {
                1.0
            } else {
                -1.0
            };
            let apex = y - sign * 2.0 * height / 3.0;
            let base = y + sign * height / 3.0;
            format!(
                "M{x:.2} {apex:.2} L{:.2} {base:.2} L{:.2} {base:.2} Z",
                x + side / 2.0,
                x - side / 2.0
            )
        }
    }
}

/// Whether an SVG point lies inside the plot area.
pub fn inside(frame: &Frame, px: f64, py: f64) -> bool {
    px >= frame.x0() && px <= frame.x1() && py >= frame.y0() && py <= frame.y1()
}

/// The index of the point nearest (`px`, `py`) within `radius` SVG units, if any.
pub fn nearest(points: &[(f64, f64)], px: f64, py: f64, radius: f64) -> Option<usize> {
    points
        .iter()
        .enumerate()
        .map(|(i, (x, y))| (i, (x - px).hypot(y - py)))
        .filter(|(_, d)| *d <= radius)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

#[cfg(all(test, not(target_arch = "wasm32")))] // native only: proptest needs an OS RNG
mod tests;
