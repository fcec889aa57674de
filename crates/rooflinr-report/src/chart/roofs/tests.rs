//! Tests of the roofs' lines and labels: on every registry device and random ones, in the
//! calculator's frames, fitted or zoomed, every label lies inside the plot, beside its own
//! line, crossed by no line and overlapping no other label, and every roof drawn is named
//! by exactly one label.

use proptest::prelude::*;
use rooflinr_model::hardware::{Hardware, registry};

use super::*;

/// Checks a layout: labels inside the plot, apart from each other and from every line;
/// each compute roof drawn is named by one label at most (with `all_named`, exactly one),
/// which sits just above the highest of its lines or just below the lowest, at
/// least half of it over that line or ending just before its ridge.
#[track_caller]
pub(crate) fn check(
    f: &Frame,
    view: &Viewport,
    roofs: &[Roof],
    lines: &[RoofLine],
    labels: &RoofLabels,
    all_named: bool,
) {
    let plot = Rect {
        x0: f.x0(),
        y0: f.y0(),
        x1: f.x1(),
        y1: f.y1(),
    };
    let boxes: Vec<(&str, Rect)> = labels
        .roofs
        .iter()
        .map(|l| (l.text.as_str(), l.placed.rect))
        .chain(
            labels
                .slopes
                .iter()
                .map(|l| (l.text.as_str(), l.placed.rect)),
        )
        .chain(
            labels
                .ridges
                .iter()
                .map(|l| (l.text.as_str(), l.placed.rect)),
        )
        .collect();
    for (i, (text, rect)) in boxes.iter().enumerate() {
        assert!(rect.within(&plot), "{text} leaves the plot: {rect:?}");
        for (other, r) in &boxes[i + 1..] {
            assert!(!rect.intersects(r), "{text} overlaps {other}");
        }
        for line in lines {
            assert!(!line.segment.crosses(rect), "{text} is crossed by {line:?}");
        }
    }
    for i in lines.iter().filter_map(|l| l.roof) {
        let naming = labels.roofs.iter().filter(|l| l.roofs.contains(&i)).count();
        let wanted = if all_named { 1..=1 } else { 0..=1 };
        assert!(
            wanted.contains(&naming),
            "roof {:?} is named by {naming} labels",
            roofs[i]
        );
    }
    for label in &labels.roofs {
        let at = |i: usize| {
            let (x, y) = view.project(f, roofs[i].ridge(), roofs[i].peak);
            (x.max(f.x0()), y)
        };
        let highest = label
            .roofs
            .iter()
            .map(|&i| at(i))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let lowest = label
            .roofs
            .iter()
            .map(|&i| at(i))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let (Some(highest), Some(lowest)) = (highest, lowest) else {
            panic!("{} names no roof", label.text);
        };
        let r = label.placed.rect;
        // At least half over the line, or ending just before its ridge.
        let beside = |start: f64| {
            (r.x0 + r.x1) / 2.0 >= start - 1e-6 || (r.x1 - (start - BEFORE_RIDGE)).abs() < 1e-6
        };
        let above = (highest.1 - r.y1 - LINE_GAP).abs() < 1e-6 && beside(highest.0);
        let below = (r.y0 - lowest.1 - LINE_GAP).abs() < 1e-6 && beside(lowest.0);
        assert!(above || below, "{} is not beside its line", label.text);
    }
}

/// A device's datasheet roofs, as the calculator draws them.
fn datasheet(hw: &Hardware) -> Vec<Roof> {
    let bw = hw.memory_bandwidth.value.get();
    Roof::merged(
        hw.peaks
            .iter()
            .map(|p| {
                let name = p.math.name().to_ascii_uppercase();
                Roof::new(name, p.math, p.rate.value.get(), bw, RoofSource::Datasheet)
            })
            .collect(),
    )
}

/// Lays out `roofs` in `frame`, fitted as the calculator fits them (or in the view given,
/// zoomed), and checks the layout (every roof named where fitted); returns it.
#[track_caller]
fn laid_out(frame: &Frame, roofs: &[Roof], zoomed: Option<Viewport>) -> RoofLabels {
    let view = zoomed.unwrap_or_else(|| {
        let mut extent = Extent::default();
        include(&mut extent, roofs);
        extent.fit()
    });
    let slopes: Vec<(f64, RoofSource)> = roofs.iter().map(|r| (r.bandwidth, r.source)).collect();
    let drawn = lines(frame, &view, roofs, &slopes);
    let labels = layout(frame, &view, roofs, &drawn, &[], true);
    check(frame, &view, roofs, &drawn, &labels, zoomed.is_none());
    labels
}

#[test]
fn every_registry_device_names_every_roof_on_a_screen_and_a_phone() {
    for hw in registry::all() {
        for frame in [Frame::DEFAULT, Frame::NARROW] {
            let roofs = datasheet(&hw);
            let labels = laid_out(&frame, &roofs, None);
            assert!(!labels.roofs.is_empty(), "{}: no label", hw.key);
            assert_eq!(
                labels.slopes.len(),
                1,
                "{}: the memory roof's label",
                hw.key
            );
        }
    }
}

proptest! {
    #[test]
    fn random_devices_fitted_or_zoomed_keep_their_labels_clear(
        bandwidth_gb_s in 50.0f64..20_000.0,
        peaks in prop::collection::vec((0usize..10, 1.0f64..50_000.0), 1..10),
        narrow in any::<bool>(),
        zoom in prop::option::of((-2.0f64..4.0, 0.25f64..6.0, 10.0f64..16.0, 0.25f64..6.0)),
    ) {
        const MATHS: [Math; 10] = [
            Math::Fp64, Math::Fp32, Math::Tf32, Math::Fp16, Math::Bf16, Math::Fp8, Math::Fp6,
            Math::Fp4, Math::Int8, Math::Int4,
        ];
        let mut seen = std::collections::HashSet::new();
        let roofs = Roof::merged(
            peaks
                .into_iter()
                .filter(|(i, _)| seen.insert(*i))
                .map(|(i, tflops)| {
                    let m = MATHS[i];
                    let name = m.name().to_ascii_uppercase();
                    Roof::new(name, m, tflops * 1e12, bandwidth_gb_s * 1e9, RoofSource::Datasheet)
                })
                .collect(),
        );
        let frame = if narrow { Frame::NARROW } else { Frame::DEFAULT };
        let view = zoom.map(|(x, w, y, h)| Viewport { x: (x, x + w), y: (y, y + h) });
        let labels = laid_out(&frame, &roofs, view);
        if view.is_none() {
            prop_assert!(!labels.roofs.is_empty(), "a fitted view names its roofs");
        }
    }
}

#[test]
fn a_segment_crosses_a_box_it_enters_and_only_those() {
    let rect = Rect {
        x0: 10.0,
        y0: 10.0,
        x1: 20.0,
        y1: 20.0,
    };
    let seg = |from, to| Segment { from, to };
    // Through, from inside, and along an edge from outside.
    assert!(seg((0.0, 15.0), (30.0, 15.0)).crosses(&rect));
    assert!(seg((15.0, 15.0), (16.0, 16.0)).crosses(&rect));
    assert!(seg((0.0, 0.0), (30.0, 30.0)).crosses(&rect));
    // Beside, above, short of it, and on the diagonal that misses its corner.
    assert!(!seg((0.0, 25.0), (30.0, 25.0)).crosses(&rect));
    assert!(!seg((15.0, 0.0), (15.0, 9.0)).crosses(&rect));
    assert!(!seg((0.0, 0.0), (9.0, 9.0)).crosses(&rect));
    assert!(!seg((0.0, 12.0), (12.0, 0.0)).crosses(&rect));
}

fn roof(name: &str, peak: f64, source: RoofSource) -> Roof {
    Roof::new(name.to_string(), Math::Fp16, peak, 4.8e12, source)
}

#[test]
fn equal_roofs_merge_and_labels_name_each_source_and_range() {
    let roofs = Roof::merged(vec![
        roof("FP16", 990e12, RoofSource::Datasheet),
        roof("BF16", 990e12, RoofSource::Datasheet),
        roof("fp16", 759e12, RoofSource::Measured),
        roof("bf16", 793e12, RoofSource::Measured),
        // The same roof twice, and one with no figure, which a log chart cannot draw.
        roof("BF16", 990e12, RoofSource::Datasheet),
        roof("FP4", 0.0, RoofSource::Datasheet),
    ]);
    assert_eq!(roofs.len(), 3);
    assert_eq!(roofs[0].names, ["FP16", "BF16"]);
    assert_eq!(
        texts(&roofs, &[0], true),
        ["FP16 · BF16 990 TFLOP/s (datasheet)", "FP16·BF16 990 T"]
    );
    assert_eq!(
        texts(&roofs, &[0, 2, 1], true),
        [
            "FP16 · BF16 990 TFLOP/s (datasheet); bf16 · fp16 759–793 TFLOP/s (measured)",
            "FP16·BF16 990 T; bf16·fp16 759–793 T",
            "3 roofs 759–990 T"
        ]
    );
    // Where every roof is from the datasheet, labels do not say so.
    assert_eq!(texts(&roofs, &[0], false)[0], "FP16 · BF16 990 TFLOP/s");
    // Prefixes that differ are kept on both ends.
    assert_eq!(range(990e12, 1.98e15, "FLOP/s"), "990 TFLOP/s–1.98 PFLOP/s");
}

#[test]
fn each_memory_roof_rises_to_its_highest_ceiling() {
    let frame = Frame::DEFAULT;
    let view = Viewport {
        x: (-1.0, 4.0),
        y: (11.0, 16.0),
    };
    let roofs = Roof::merged(vec![
        roof("FP16", 990e12, RoofSource::Datasheet),
        Roof::new(
            "fp16".into(),
            Math::Fp16,
            759e12,
            4.0e12,
            RoofSource::Measured,
        ),
    ]);
    let drawn = lines(&frame, &view, &roofs, &[(4.8e12, RoofSource::Datasheet)]);
    // Two slopes and two ceilings.
    assert_eq!(drawn.len(), 4);
    let slope_end = |bw: f64| {
        drawn
            .iter()
            .find(|l| l.roof.is_none() && l.bandwidth == bw)
            .expect("a slope")
            .segment
            .to
    };
    let ridge = |i: usize| view.project(&frame, roofs[i].ridge(), roofs[i].peak);
    for (bw, i) in [(4.8e12, 0), (4.0e12, 1)] {
        let (a, b) = (slope_end(bw), ridge(i));
        assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9);
    }
}

#[test]
fn on_a_phone_each_h100_roof_keeps_a_label_of_its_own() {
    // The calculator's phone chart of Llama-3-70B on an H100 (its view fitted to the
    // operators too): the FP8 · INT8 roof's ridge sits near the right edge, so its label
    // and the FP16 · BF16 one end just before their ridges, above the slope.
    let hw = registry::get("h100-sxm").unwrap();
    let roofs = datasheet(&hw);
    let view = Viewport {
        x: (-2.0, 4.0),
        y: (11.0, 16.0),
    };
    let labels = laid_out(&Frame::NARROW, &roofs, Some(view));
    assert_eq!(labels.roofs.len(), roofs.len(), "{:?}", labels.roofs);
    assert!(labels.roofs.iter().all(|l| l.roofs.len() == 1));
    // The memory roof's label lies along its slope, below the highest ridge (a steep slope
    // on a phone once pushed it above the roofs).
    let top = roofs.iter().map(|r| r.peak).fold(0.0, f64::max);
    let (_, ridge_y) = view.project(&Frame::NARROW, 1.0, top);
    let memory = &labels.slopes[0].placed.rect;
    assert!(
        memory.y0 > ridge_y,
        "{memory:?} above the ridge at {ridge_y}"
    );
}
