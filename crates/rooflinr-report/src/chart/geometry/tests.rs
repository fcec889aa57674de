//! Tests of the chart geometry: projection, ticks, fit, zoom, pan, outlines, hit-testing.

use proptest::prelude::*;

use super::*;

const F: Frame = Frame::DEFAULT;

fn view() -> Viewport {
    Viewport {
        x: (-1.0, 3.0),
        y: (10.0, 16.0),
    }
}

#[track_caller]
fn close(a: f64, b: f64) {
    assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{a} != {b}");
}

#[test]
fn corners_project_to_the_plot_edges() {
    let v = view();
    let (x, y) = v.project(&F, 0.1, 1e10);
    close(x, F.x0());
    close(y, F.y1());
    let (x, y) = v.project(&F, 1000.0, 1e16);
    close(x, F.x1());
    close(y, F.y0());
    // One decade of four is a quarter of the width.
    let (x, _) = v.project(&F, 1.0, 1e12);
    close(x, F.x0() + (F.x1() - F.x0()) / 4.0);
}

#[test]
fn invert_undoes_project() {
    let v = view();
    for (ai, perf) in [(0.5, 3e11), (42.0, 7e14), (999.0, 1.1e10)] {
        let (px, py) = v.project(&F, ai, perf);
        let (a, p) = v.invert(&F, px, py);
        close(a, ai);
        close(p, perf);
    }
}

#[track_caller]
fn check_labels(range: (f64, f64), unit: &str, expected: &[&str]) {
    let labels: Vec<String> = log_ticks(range, unit)
        .into_iter()
        .filter(|t| !t.label.is_empty())
        .map(|t| t.label)
        .collect();
    assert_eq!(labels, expected);
}

#[test]
fn ticks_are_decades_with_si_prefixes() {
    check_labels(
        (11.0, 15.0),
        "FLOP/s",
        &[
            "100 GFLOP/s",
            "1 TFLOP/s",
            "10 TFLOP/s",
            "100 TFLOP/s",
            "1 PFLOP/s",
        ],
    );
    check_labels((-1.0, 1.0), "", &["0.1", "0.2", "0.5", "1", "2", "5", "10"]);
    // A wide view labels every second decade.
    let wide = log_ticks((-2.0, 12.0), "");
    let labelled: Vec<f64> = wide
        .iter()
        .filter(|t| !t.label.is_empty())
        .map(|t| t.value)
        .collect();
    assert_eq!(labelled.len(), 8);
    assert!(
        wide.iter().all(|t| t.major),
        "no minor ticks past 6 decades"
    );
}

#[test]
fn minor_ticks_appear_on_narrow_views() {
    let ticks = log_ticks((0.0, 2.0), "");
    let values: Vec<f64> = ticks.iter().map(|t| t.value).collect();
    assert_eq!(values, [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]);
    assert_eq!(ticks.iter().filter(|t| t.major).count(), 3);
    assert!(log_ticks((1.0, 1.0), "").is_empty());
    assert!(log_ticks((f64::NAN, 1.0), "").is_empty());
}

#[test]
fn compact_labels() {
    for (v, unit, want) in [
        (1e12, "FLOP/s", "1 TFLOP/s"),
        (2e11, "FLOP/s", "200 GFLOP/s"),
        (0.5, "", "0.5"),
        (2e3, "", "2 k"),
        (1.0, "", "1"),
        (1.5e3, "B", "1.5 kB"),
        (1e-6, "s", "1 µs"),
    ] {
        assert_eq!(si_compact(v, unit), want, "{v} {unit}");
    }
}

#[test]
fn fit_covers_the_extent_with_margin() {
    let mut e = Extent::default();
    e.include(1.0, 2e12);
    e.include(600.0, 9.9e14);
    e.include(-3.0, f64::NAN); // ignored
    let v = e.fit();
    assert_eq!(v.x, (-1.0, 4.0));
    assert_eq!(v.y, (11.0, 16.0));
    // One point still gets two decades of context.
    let mut one = Extent::default();
    one.include(10.0, 1e12);
    let v = one.fit();
    assert!(v.x.1 - v.x.0 >= 2.0 && v.y.1 - v.y.0 >= 2.0);
    // Nothing at all falls back to a sensible default view.
    assert_eq!(Extent::default().fit().x, (-2.0, 4.0));
}

#[test]
fn zoom_keeps_the_anchor_fixed_and_is_bounded() {
    let v = view();
    let (px, py) = v.project(&F, 20.0, 5e13);
    let z = v.zoom(&F, 2.0, px, py);
    assert!((z.x.1 - z.x.0 - 2.0).abs() < 1e-9);
    let (a, p) = z.invert(&F, px, py);
    close(a, 20.0);
    close(p, 5e13);
    // Zooming in without end stops at the minimum span; zooming out at the maximum.
    let mut deep = v;
    for _ in 0..100 {
        deep = deep.zoom(&F, 3.0, px, py);
    }
    close(deep.x.1 - deep.x.0, MIN_SPAN);
    let wide = v.zoom(&F, 1e-9, px, py);
    close(wide.y.1 - wide.y.0, MAX_SPAN);
    assert_eq!(v.zoom(&F, f64::NAN, px, py), v);
}

#[test]
fn pan_moves_the_data_with_the_pointer() {
    let v = view();
    let (px, py) = v.project(&F, 3.0, 1e12);
    let moved = v.pan(&F, 40.0, -25.0);
    let (nx, ny) = moved.project(&F, 3.0, 1e12);
    close(nx, px + 40.0);
    close(ny, py - 25.0);
}

#[test]
fn roof_outline_bends_at_the_ridge() {
    let v = view();
    // 3.35 TB/s, 989 TFLOP/s: ridge at ~295 FLOP/B, inside the view.
    let pts = roof_outline(3.35e12, 989e12, &v);
    assert_eq!(pts.len(), 3);
    close(pts[0].0, 0.1);
    close(pts[0].1, 3.35e11);
    close(pts[1].0, 989e12 / 3.35e12);
    close(pts[1].1, 989e12);
    close(pts[2].1, 989e12);
    // A ridge beyond the view is a straight slope.
    assert_eq!(roof_outline(1e12, 1e16, &v).len(), 2);
    let d = path(&v, &F, &pts);
    assert!(
        d.starts_with("M84.0 ") && d.matches(" L").count() == 2,
        "{d}"
    );
}

#[test]
fn nearest_point_within_radius() {
    let pts = [(10.0, 10.0), (50.0, 50.0), (52.0, 49.0)];
    assert_eq!(nearest(&pts, 51.5, 49.5, 8.0), Some(2));
    assert_eq!(nearest(&pts, 11.0, 9.0, 8.0), Some(0));
    assert_eq!(nearest(&pts, 200.0, 200.0, 8.0), None);
    assert_eq!(nearest(&[], 0.0, 0.0, 8.0), None);
    assert!(inside(&F, 100.0, 100.0));
    assert!(!inside(&F, 10.0, 100.0));
}

proptest! {
    #[test]
    fn projection_is_monotonic(a in -2.0f64..4.0, b in -2.0f64..4.0) {
        let v = view();
        let (xa, ya) = v.project(&F, 10f64.powf(a), 10f64.powf(a + 12.0));
        let (xb, yb) = v.project(&F, 10f64.powf(b), 10f64.powf(b + 12.0));
        if a < b {
            prop_assert!(xa < xb);
            prop_assert!(ya > yb, "higher performance is drawn higher");
        }
    }

    #[test]
    fn ticks_stay_inside_their_range(lo in -15.0f64..15.0, span in 0.1f64..20.0) {
        let ticks = log_ticks((lo, lo + span), "B");
        for t in &ticks {
            let l = t.value.log10();
            prop_assert!(l >= lo - 1e-9 && l <= lo + span + 1e-9);
        }
        prop_assert!(ticks.windows(2).all(|w| w[0].value < w[1].value));
    }
}

#[test]
fn markers_are_centred_and_about_equally_heavy() {
    fn numbers(path: &str) -> Vec<f64> {
        path.split(|c: char| c.is_ascii_alphabetic() || c == ' ')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect()
    }
    // The area a marker covers, read back from its path: a square's sides are its relative
    // `h`/`v` moves; the other polygons are absolute vertices (shoelace formula).
    fn area(shape: Shape, path: &str) -> f64 {
        let n = numbers(path);
        if shape == Shape::Square {
            return (n[2] * n[3]).abs();
        }
        let pts: Vec<(f64, f64)> = n.chunks(2).map(|p| (p[0], p[1])).collect();
        let twice: f64 = (0..pts.len())
            .map(|i| {
                let (x1, y1) = pts[i];
                let (x2, y2) = pts[(i + 1) % pts.len()];
                x1 * y2 - x2 * y1
            })
            .sum();
        twice.abs() / 2.0
    }
    let (x, y, r) = (100.0, 50.0, 5.0);
    let circle = std::f64::consts::PI * r * r;
    for shape in [
        Shape::Square,
        Shape::Diamond,
        Shape::TriangleUp,
        Shape::TriangleDown,
    ] {
        let a = area(shape, &marker_path(shape, x, y, r));
        assert!(
            (a / circle - 1.0).abs() < 0.01,
            "{shape:?}: {a} vs {circle}"
        );
    }
    // Polygon vertices average to the centre (the triangles are centred on their
    // centroid), and the circle starts one radius left of it.
    for shape in [Shape::Diamond, Shape::TriangleUp, Shape::TriangleDown] {
        let n = numbers(&marker_path(shape, x, y, r));
        let k = (n.len() / 2) as f64;
        let cx: f64 = n.iter().step_by(2).sum::<f64>() / k;
        let cy: f64 = n.iter().skip(1).step_by(2).sum::<f64>() / k;
        assert!((cx - x).abs() < 0.01 && (cy - y).abs() < 0.01, "{shape:?}");
    }
    let n = numbers(&marker_path(Shape::Circle, x, y, r));
    assert_eq!((n[0], n[1]), (x - r, y));
    let n = numbers(&marker_path(Shape::Square, x, y, r));
    assert!((n[0] + n[2] / 2.0 - x).abs() < 0.01 && (n[1] + n[3] / 2.0 - y).abs() < 0.01);
}
