//! The report's chart: every roof named once, beside its own line, by a label no line
//! crosses and no other label overlaps; on every registry device with random measured
//! roofs, and on the project's H200 run.

use proptest::prelude::*;
use rooflinr_model::format::Format;
use rooflinr_model::hardware::registry;

use super::*;
use crate::import::import;
use crate::kernel::MeasuredPeak;

#[track_caller]
fn check(chart: &Chart) {
    crate::chart::roofs::tests::check(
        &chart.frame,
        &chart.view,
        &chart.roofs,
        &chart.lines,
        &chart.labels,
        true,
    );
}

fn ceilings(bandwidth: f64, peaks: &[(Format, f64)]) -> MeasuredCeilings {
    MeasuredCeilings {
        bandwidth: Some((bandwidth, "copy".into())),
        read: Some(bandwidth),
        peaks: peaks
            .iter()
            .map(|&(format, flops_per_s)| MeasuredPeak {
                format,
                math: format.math(),
                flops_per_s,
            })
            .collect(),
        device: None,
    }
}

const FORMATS: [&str; 9] = [
    "fp16",
    "bf16",
    "tf32",
    "fp8-e4m3",
    "int8",
    "nvfp4",
    "mxfp8-e4m3",
    "fp32",
    "mxfp4",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn every_roof_keeps_a_label_beside_its_line_that_nothing_crosses(
        device in 0usize..64,
        bandwidth_share in 0.5f64..1.0,
        base_share in 0.05f64..1.1,
        spreads in prop::collection::vec(prop_oneof![Just(0.0), 0.0f64..0.03, 0.0f64..0.6], 1..=9),
    ) {
        let devices = registry::all();
        let hw = &devices[device % devices.len()];
        let top = hw.peaks.iter().map(|p| p.rate.value.get()).fold(0.0, f64::max);
        let peaks: Vec<(Format, f64)> = spreads
            .iter()
            .enumerate()
            .map(|(i, s)| (FORMATS[i].parse().unwrap(), top * base_share * (1.0 + s)))
            .collect();
        let c = ceilings(hw.memory_bandwidth.value.get() * bandwidth_share, &peaks);
        check(&layout(hw, &[], &c));
    }
}

#[test]
fn every_registry_device_alone_keeps_its_labels() {
    for hw in registry::all() {
        let chart = layout(&hw, &[], &MeasuredCeilings::default());
        check(&chart);
        // The datasheet's slope is named too.
        assert_eq!(chart.labels.slopes.len(), 1, "{}", hw.key);
    }
}

/// The H200 run the report is read on (docs/gpu-runs/h200-2026-11-27): measured FP8 and
/// INT8 peaks 0.9 % apart, FP16 and BF16 4 % apart, under the datasheet's 990 TFLOP/s.
fn h200_run() -> (Hardware, Vec<KernelPoint>, MeasuredCeilings) {
    let run = include_str!("../../../../../docs/gpu-runs/h200-2026-11-27/gpu-check.jsonl");
    let imported = import(run).expect("the agent's JSONL");
    let ceilings = MeasuredCeilings::from_measurements(&imported.measurements);
    (
        registry::get("h200").unwrap(),
        imported.all_kernels(),
        ceilings,
    )
}

#[test]
fn the_h200_run_reads_at_a_glance() {
    let (hw, kernels, ceilings) = h200_run();
    assert_eq!(ceilings.peaks.len(), 5);
    let chart = layout(&hw, &kernels, &ceilings);
    check(&chart);
    // FP16 and BF16's datasheet roofs are one roof with one label.
    let datasheet: Vec<&Roof> = chart
        .roofs
        .iter()
        .filter(|r| r.source == RoofSource::Datasheet)
        .collect();
    assert!(
        datasheet.iter().any(|r| r.names.len() == 2
            && r.names.contains(&"FP16".into())
            && r.names.contains(&"BF16".into())),
        "{datasheet:?}"
    );
    // Measured INT8 and FP8, whose lines are closer than a stroke, share a label.
    let named = |name: &str| {
        let i = chart
            .roofs
            .iter()
            .position(|r| r.source == RoofSource::Measured && r.names.contains(&name.into()))
            .expect("a measured roof");
        chart
            .labels
            .roofs
            .iter()
            .position(|l| l.roofs.contains(&i))
            .expect("a label")
    };
    assert_eq!(named("int8"), named("fp8-e4m3"));
    // Formats told apart: no two formats share both colour and shape.
    let mut looks: Vec<(&str, Shape, String)> = chart
        .marks
        .iter()
        .map(|m| {
            let k = &kernels[m.kernel];
            (m.colour, m.shape, format_name(k))
        })
        .collect();
    looks.sort_by(|a, b| a.2.cmp(&b.2));
    looks.dedup();
    for (i, a) in looks.iter().enumerate() {
        for b in &looks[i + 1..] {
            assert!((a.0, a.1) != (b.0, b.1), "{} and {} look alike", a.2, b.2);
        }
    }
    // Prefill hollow, decode filled.
    for m in &chart.marks {
        assert_eq!(m.hollow, kernels[m.kernel].phase == "prefill");
    }
    // The fastest of each work is ringed: at 1 x 8192 x 8192, INT4's GEMV (19.6 µs in the
    // run's README) beats every other format's.
    let ringed: Vec<&str> = chart
        .marks
        .iter()
        .filter(|m| m.fastest)
        .map(|m| kernels[m.kernel].kernel.as_str())
        .collect();
    assert_eq!(ringed.len(), super::fastest(&kernels).len());
    assert!(
        ringed.contains(&"gemv 1x8192x8192 int4-g128-fp16"),
        "{ringed:?}"
    );
    // The axis reads decimals below 1, not SI prefixes.
    let svg = render(&chart, "h200");
    assert!(svg.contains(">0.1</text>"), "an x tick reads 0.1");
    assert!(!svg.contains(" m</text>"));
}
