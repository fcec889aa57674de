//! Tests of the label layout: over every registry device and random custom ones, no two
//! label boxes intersect, every box lies inside the plot, and every roof keeps its label
//! while the plot has room for them all.

use proptest::prelude::*;
use rooflinr_model::hardware::{Hardware, registry};

use super::labels::{Anchor, ChartLabels, Placed, RoofLabel, Wanted, chart_labels, place};
use super::{Extent, Frame, Viewport, inside};

const F: Frame = Frame::DEFAULT;

/// The chart's roofs for a bandwidth and peaks: equal peaks share a label, as the chart
/// draws them.
fn roofs(bandwidth: f64, peaks: &[(&str, f64)]) -> Vec<RoofLabel> {
    let mut groups: Vec<(f64, Vec<&str>)> = Vec::new();
    for &(name, peak) in peaks {
        match groups.iter_mut().find(|(p, _)| *p == peak) {
            Some((_, names)) => names.push(name),
            None => groups.push((peak, vec![name])),
        }
    }
    groups
        .into_iter()
        .map(|(peak, names)| RoofLabel::new(peak, &names, bandwidth))
        .collect()
}

/// A registry device's peaks as the chart names them.
fn peaks_of(hw: &Hardware) -> Vec<(&'static str, f64)> {
    hw.peaks
        .iter()
        .map(|p| (p.math.name(), p.rate.value.get()))
        .collect()
}

fn layout(bandwidth: f64, peaks: &[(&str, f64)]) -> (Vec<RoofLabel>, ChartLabels) {
    let (roofs, _, labels) = layout_in(&F, bandwidth, peaks);
    (roofs, labels)
}

/// The labels of a chart of `peaks` in `frame`, fitted to them as the calculator fits it.
fn layout_in(
    frame: &Frame,
    bandwidth: f64,
    peaks: &[(&str, f64)],
) -> (Vec<RoofLabel>, Viewport, ChartLabels) {
    let roofs = roofs(bandwidth, peaks);
    let mut extent = Extent::default();
    for r in &roofs {
        extent.include(r.peak / bandwidth, r.peak);
    }
    let view = extent.fit();
    let labels = chart_labels(frame, &view, bandwidth, &roofs, "memory 3.35 TB/s");
    (roofs, view, labels)
}

#[track_caller]
fn check(roofs: &[RoofLabel], labels: &ChartLabels) {
    check_in(&F, roofs, labels);
}

#[track_caller]
fn check_in(frame: &Frame, roofs: &[RoofLabel], labels: &ChartLabels) {
    let all: Vec<&Placed> = labels
        .roofs
        .iter()
        .chain(&labels.ridges)
        .chain(std::iter::once(&labels.memory))
        .flatten()
        .collect();
    for (i, a) in all.iter().enumerate() {
        assert!(
            inside(frame, a.rect.x0, a.rect.y0) && inside(frame, a.rect.x1, a.rect.y1),
            "{a:?} leaves the plot"
        );
        for b in &all[i + 1..] {
            assert!(!a.rect.intersects(&b.rect), "{a:?} overlaps {b:?}");
        }
    }
    // Roof labels are 15 units tall with their gap; the plot is 464 tall.
    if roofs.len() <= 12 {
        assert!(
            labels.roofs.iter().all(Option::is_some),
            "a roof lost its label: {roofs:?}"
        );
    }
}

#[test]
fn registry_devices_have_no_overlapping_labels() {
    for hw in registry::all() {
        let (roofs, labels) = layout(hw.memory_bandwidth.value.get(), &peaks_of(&hw));
        check(&roofs, &labels);
    }
}

#[test]
fn on_a_phone_no_roof_label_lies_across_the_memory_slope() {
    // In the narrow chart a roof's label at the right edge is wider than the room right of
    // its ridge, so the slope rising to the higher roofs ran through it (H100: TF32, the
    // FP16 and BF16 roof, FP64 and FP32); such a label sits left of its ridge instead, or
    // without its unit.
    for hw in registry::all() {
        let bandwidth = hw.memory_bandwidth.value.get();
        let frame = Frame::NARROW;
        let (roofs, view, labels) = layout_in(&frame, bandwidth, &peaks_of(&hw));
        check_in(&frame, &roofs, &labels);
        // The slope as drawn: from the plot's left edge up to the highest roof's ridge,
        // every tenth of a unit.
        let top = roofs.iter().map(|r| r.peak).fold(0.0, f64::max);
        let (x_end, _) = view.project(&frame, top / bandwidth, top);
        let mut px = frame.x0();
        while px <= x_end {
            let (intensity, _) = view.invert(&frame, px, frame.y0());
            let (sx, sy) = view.project(&frame, intensity, intensity * bandwidth);
            for placed in labels.roofs.iter().flatten() {
                let r = placed.rect;
                assert!(
                    !(r.x0 < sx && sx < r.x1 && r.y0 < sy && sy < r.y1),
                    "{}: the slope crosses {placed:?} at ({sx:.1}, {sy:.1})",
                    hw.key
                );
            }
            px += 0.1;
        }
    }
}

#[test]
fn close_peaks_move_apart_instead_of_overlapping() {
    // GB10: FP6, FP8 and INT8 at 250 TFLOP/s share one label; FP4 at 500 and FP16 at 125
    // sit close above and below, with their ridges 916 and 458 apart by a factor of two.
    let gb10 = registry::get("gb10").unwrap();
    let (roofs, labels) = layout(gb10.memory_bandwidth.value.get(), &peaks_of(&gb10));
    check(&roofs, &labels);
    // Two labels wanting the same spot: the second moves by at least a line.
    let wanted = |text: &str| Wanted {
        text: text.into(),
        font_size: 12.0,
        x: 900.0,
        y: 200.0,
        anchor: Anchor::End,
        may_flip: false,
    };
    let placed = place(
        &F,
        &[wanted("FP16 990 TFLOP/s"), wanted("FP8 1.98 PFLOP/s")],
        &[],
    );
    let (a, b) = (placed[0].as_ref().unwrap(), placed[1].as_ref().unwrap());
    assert_eq!(a.y, 200.0, "the first keeps its spot");
    assert!((b.y - a.y).abs() >= 12.0);
}

proptest! {
    #[test]
    fn random_devices_have_no_overlapping_labels(
        bandwidth_gb_s in 50.0f64..20_000.0,
        peaks in prop::collection::vec((0usize..10, 1.0f64..50_000.0), 1..10),
    ) {
        const NAMES: [&str; 10] = ["fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "fp6", "fp4", "int8", "int4"];
        let mut seen = std::collections::HashSet::new();
        let peaks: Vec<(&str, f64)> = peaks
            .into_iter()
            .filter(|(i, _)| seen.insert(*i))
            .map(|(i, tflops)| (NAMES[i], tflops * 1e12))
            .collect();
        let (roofs, labels) = layout(bandwidth_gb_s * 1e9, &peaks);
        check(&roofs, &labels);
    }
}
