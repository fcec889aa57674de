//! The lab's pure parts: pairing links, agent addresses, back-off, the sweep form, and
//! what measurements say against a datasheet.

use proptest::prelude::*;
use rooflinr_model::hardware::registry;
use rooflinr_protocol::{Measurement, MeasurementKind, OperatorShape, Stats};
use rooflinr_report::import::import;

use super::*;
use crate::chart::data::ChartData;
use crate::state::{Mode, State};

#[test]
fn pairing_links_are_read_from_the_fragment() {
    let p = pairing_from_fragment("#agent=http://127.0.0.1:7878&token=abc123").unwrap();
    assert_eq!(
        p,
        Pairing {
            agent: "http://127.0.0.1:7878".into(),
            token: "abc123".into()
        }
    );
    let encoded = pairing_from_fragment("agent=http%3A%2F%2F%5B%3A%3A1%5D%3A9000&token=t").unwrap();
    assert_eq!(encoded.agent, "http://[::1]:9000");
    assert_eq!(pairing_from_fragment("#token=only"), None);
    assert_eq!(pairing_from_fragment(""), None);
    // What the browser remembers reads back as the same pairing, odd characters and all.
    let odd = Pairing {
        agent: "http://[::1]:9000/a b".into(),
        token: "t&k=v#x".into(),
    };
    assert_eq!(pairing_from_fragment(&odd.to_fragment()), Some(odd));
}

#[test]
fn agent_addresses_become_websocket_urls() {
    assert_eq!(
        ws_url("http://127.0.0.1:7878").unwrap(),
        "ws://127.0.0.1:7878/ws"
    );
    assert_eq!(
        ws_url("https://box.example:443/").unwrap(),
        "wss://box.example:443/ws"
    );
    assert_eq!(ws_url("localhost:7878").unwrap(), "ws://localhost:7878/ws");
    assert_eq!(ws_url("http://h:1/some/path?q#f").unwrap(), "ws://h:1/ws");
    assert!(
        ws_url("ftp://h")
            .unwrap_err()
            .contains("not an agent address")
    );
    assert!(ws_url("http://").is_err());
    assert!(ws_url("two words").is_err());
}

#[test]
fn back_off_doubles_to_thirty_seconds() {
    let waits: Vec<u32> = (0..8).map(backoff_s).collect();
    assert_eq!(waits, vec![1, 2, 4, 8, 16, 30, 30, 30]);
    assert_eq!(backoff_s(u32::MAX), 30);
}

#[test]
fn the_sweep_form_reads_shapes_and_names_mistakes() {
    let shapes = parse_shapes("1x4096x4096, 64×4096×11008;\n 2X3X4").unwrap();
    assert_eq!(
        shapes,
        vec![
            OperatorShape {
                m: 1,
                n: 4096,
                k: 4096
            },
            OperatorShape {
                m: 64,
                n: 4096,
                k: 11008
            },
            OperatorShape { m: 2, n: 3, k: 4 },
        ]
    );
    assert_eq!(
        parse_shapes("1x4096").unwrap_err(),
        "`1x4096` is not M x N x K (for example 1x4096x4096)"
    );
    assert_eq!(
        parse_shapes("1x0x4").unwrap_err(),
        "in `1x0x4`: N = 0 is outside 1..=1048576"
    );
    assert_eq!(
        parse_shapes("1xax4").unwrap_err(),
        "in `1xax4`: `a` is not a whole number"
    );
    assert!(parse_shapes("1x4x2097152").unwrap_err().contains("2097152"));
    assert!(
        parse_shapes(" , ")
            .unwrap_err()
            .starts_with("enter at least one shape")
    );
}

proptest! {
    #[test]
    fn the_sweep_form_never_panics(text in ".{0,60}") {
        let _ = parse_shapes(&text);
    }
}

fn measured(
    kind: MeasurementKind,
    format: Option<&str>,
    m: u64,
    flops: f64,
    bytes: f64,
    median_s: f64,
    energy_j: Option<f64>,
) -> Measurement {
    // Ten samples of the same time, one second of sampling.
    let stats = Stats::summarize(&[median_s; 10], true, 1.0);
    Measurement {
        format: format.map(|f| f.parse().unwrap()),
        activation_format: format.map(|_| rooflinr_model::format::Format::Fp32),
        shape: format.map(|_| OperatorShape {
            m,
            n: 4096,
            k: 4096,
        }),
        energy_j,
        ..Measurement::sampled(
            kind,
            format!("{kind:?} {m}x4096x4096 {}", format.unwrap_or("")),
            rooflinr_protocol::BackendKind::Cpu,
            "test".into(),
            (flops, bytes, "read + write"),
            stats,
            0.0,
        )
    }
}

fn lab_data() -> LabData {
    let gemv_bytes = 4.0 * 4096.0 * 4096.0;
    LabData {
        measurements: vec![
            measured(MeasurementKind::Copy, None, 0, 0.0, 2e10, 1.0, None),
            measured(
                MeasurementKind::PeakGemm,
                Some("fp32"),
                1024,
                2e11,
                1e7,
                2.0,
                None,
            ),
            measured(
                MeasurementKind::Gemv,
                Some("fp32"),
                1,
                2.0 * 4096.0 * 4096.0,
                gemv_bytes,
                4e-3,
                Some(0.4),
            ),
            measured(
                MeasurementKind::Gemm,
                Some("fp32"),
                512,
                2.0 * 512.0 * 4096.0 * 4096.0,
                8e7,
                0.25,
                Some(25.0),
            ),
        ],
        kernels: import("kernel,flops,bytes,time_us,phase\nrmsnorm,35840,28672,3,decode\n")
            .unwrap()
            .kernels,
    }
}

#[test]
fn measurements_against_a_datasheet() {
    let hw = registry::get("h100-sxm").unwrap();
    let data = lab_data();
    assert_eq!(
        data.points().len(),
        3,
        "two operators and one import; ceilings are not points"
    );
    let v = analyse(&data, &hw);
    assert_eq!(v.rows.len(), 3);
    assert!(v.leave_one_out);
    assert_eq!(v.ceilings.bandwidth, Some((2e10, "copy".to_string())));
    // Energy: (0.4 + 25) J over (4 ms + 250 ms).
    let w = v.mean_power_w.unwrap();
    assert!((w - 25.4 / 0.254).abs() < 1e-9, "{w}");
    // The GEMV is memory-bound on the datasheet: its error is datasheet time / measured - 1.
    let gemv = &v.rows[0];
    let expected = 4.0 * 4096.0 * 4096.0 / hw.memory_bandwidth.value.get() / 4e-3 - 1.0;
    assert!((gemv.datasheet_error() - expected).abs() < 1e-9);
}

#[test]
fn phases_sum_their_kernels_and_say_how_much_is_memory_bound() {
    let hw = registry::get("h100-sxm").unwrap();
    let v = analyse(&lab_data(), &hw);
    let rows = phase_rows(&v);
    // The agent's GEMV is decode and its GEMM prefill; the import's RMSNorm says decode.
    let names: Vec<&str> = rows.iter().map(|r| r.phase.as_str()).collect();
    assert_eq!(names, ["decode", "prefill"]);
    assert_eq!(rows[0].kernels, 2);
    assert_eq!(rows.iter().map(|r| r.kernels).sum::<usize>(), v.rows.len());
    let total: f64 = rows.iter().map(|r| r.time_s).sum();
    let measured: f64 = v.rows.iter().map(|r| r.point.time_s).sum();
    assert!((total - measured).abs() < 1e-15);
    assert!(rows.iter().all(|r| (0.0..=1.0).contains(&r.memory_share)));
}

#[test]
fn sparklines_fill_their_box_and_keep_at_most_one_point_a_pixel() {
    assert_eq!(sparkline(&[]), "");
    let points = |line: String| -> Vec<(f64, f64)> {
        line.split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    };
    // A rising series runs from the bottom-left to the top-right, inside the box.
    let rising = points(sparkline(&[1.0, 2.0, 3.0]));
    assert_eq!(rising.first().unwrap().0, 0.0);
    assert_eq!(rising.last().unwrap().0, SPARK_W);
    assert!(rising.windows(2).all(|w| w[1].1 < w[0].1));
    assert!(rising.iter().all(|(_, y)| (0.0..=SPARK_H).contains(y)));
    // A long history is thinned to the box's width; a flat one stays inside it.
    assert!(points(sparkline(&vec![5.0; 1000])).len() <= SPARK_W as usize);
    assert!(
        points(sparkline(&[7.0; 10]))
            .iter()
            .all(|(_, y)| (0.0..=SPARK_H).contains(y))
    );
}

#[test]
fn the_export_round_trips_through_the_importer() {
    let data = lab_data();
    let file = data.to_file("h100-sxm");
    let back = import(&serde_json::to_string(&file).unwrap()).unwrap();
    let mut restored = LabData::default();
    assert_eq!(restored.merge(back), 5);
    // Floats come back within one ulp (serde_json's default parser): compare the files.
    let again = serde_json::to_string(&restored.to_file("h100-sxm")).unwrap();
    let reread = import(&again).unwrap();
    assert_eq!(reread.measurements.len(), data.measurements.len());
    for (a, b) in reread.all_kernels().iter().zip(data.points()) {
        assert_eq!(
            (&a.kernel, &a.source, a.flops, a.bytes),
            (&b.kernel, &b.source, b.flops, b.bytes)
        );
        assert!(
            (a.time_s - b.time_s).abs() <= 1e-15 * b.time_s,
            "{} != {}",
            a.time_s,
            b.time_s
        );
    }
}

#[test]
fn calibration_reaches_the_whole_model_and_the_chart() {
    let hw = registry::get("h100-sxm").unwrap();
    let v = analyse(&lab_data(), &hw);
    let state = State {
        mode: Mode::Model,
        ..State::default()
    };
    let model = crate::compute::model(&state, &hw).unwrap();
    let c = calibrate_model(&model, &v, &hw).unwrap();
    // A CPU's measurements make the H100 datasheet far too optimistic: the calibrated
    // step is slower by the fitted fractions.
    assert!(c.efficiency.bandwidth < 0.1, "{:?}", c.efficiency);
    assert!(c.calibrated.time.get() > 10.0 * c.datasheet.time.get());
    let per_token = c.joules_per_token.unwrap();
    let tokens = c.calibrated.tokens_per_s * c.calibrated.time.get();
    assert!((per_token - v.mean_power_w.unwrap() * c.calibrated.time.get() / tokens).abs() < 1e-9);

    let chart = ChartData::for_model(&hw, &model).with_lab(&v);
    assert_eq!(chart.measured.len(), 3);
    let roof = chart.measured_roof.as_ref().unwrap();
    assert_eq!(roof.bandwidth, 2e10);
    assert_eq!(
        roof.peaks,
        vec![(rooflinr_model::format::Format::Fp32, 1e11)]
    );
    // Each measured mark sits at its kernel's intensity, with its datasheet twin above it.
    for m in &chart.measured {
        assert!(m.predicted > m.measured, "{m:?}");
    }
    let e = chart.extent();
    let (lo, _) = e.y.unwrap();
    assert!(
        lo <= chart
            .measured
            .iter()
            .map(|m| m.measured)
            .fold(f64::INFINITY, f64::min)
    );
}

fn backend(
    kind: rooflinr_protocol::BackendKind,
    available: bool,
    key: Option<&str>,
) -> rooflinr_protocol::BackendInfo {
    rooflinr_protocol::BackendInfo {
        kind,
        available,
        reason: (!available).then(|| "no driver".into()),
        device: Some(rooflinr_protocol::DeviceInfo {
            name: format!("{kind} device"),
            registry_key: key.map(str::to_string),
            ..rooflinr_protocol::DeviceInfo::default()
        }),
        formats: Vec::new(),
        capabilities: Vec::new(),
    }
}

fn hello(backends: Vec<rooflinr_protocol::BackendInfo>) -> rooflinr_protocol::AgentHello {
    rooflinr_protocol::AgentHello {
        protocol: rooflinr_protocol::PROTOCOL_VERSION,
        agent_version: "test".into(),
        host: "box".into(),
        backends,
        nvml: rooflinr_protocol::NvmlStatus::default(),
        telemetry_hz: 10.0,
        max_message_bytes: 1 << 20,
    }
}

#[test]
fn pairing_selects_the_datasheet_of_the_gpu_the_agent_measures() {
    let gpu = hello(vec![
        backend(rooflinr_protocol::BackendKind::Cuda, true, Some("h100-sxm")),
        backend(rooflinr_protocol::BackendKind::Cpu, true, None),
    ]);
    assert_eq!(
        paired_registry_device(&gpu),
        Some(("cuda device".into(), "h100-sxm".into()))
    );
    // An unusable GPU is skipped; the CPU has no registry entry, so nothing is selected.
    let no_gpu = hello(vec![
        backend(
            rooflinr_protocol::BackendKind::Cuda,
            false,
            Some("h100-sxm"),
        ),
        backend(rooflinr_protocol::BackendKind::Cpu, true, None),
    ]);
    assert_eq!(paired_registry_device(&no_gpu), None);
}

/// A telemetry sample at `unix_ms` whose GPUs' energy counters read `mj` (`None`: no
/// counter).
fn counters(unix_ms: u64, mj: &[Option<u64>]) -> rooflinr_protocol::TelemetrySample {
    rooflinr_protocol::TelemetrySample {
        unix_ms,
        gpus: mj
            .iter()
            .enumerate()
            .map(|(i, e)| rooflinr_protocol::GpuSample {
                index: i as u32,
                energy_mj: *e,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

#[test]
fn an_energy_window_is_each_counters_change_while_it_was_open() {
    use super::energy::EnergyWindow;
    let mut w = EnergyWindow::open();
    assert!(w.energy().unwrap_err().contains("no energy counter"));
    // A sample without counters (NVML absent) counts for nothing.
    w.observe(&counters(1_000, &[None]));
    assert_eq!(w.samples, 0);
    w.observe(&counters(1_000, &[Some(10_000), Some(50_000)]));
    w.observe(&counters(6_000, &[Some(2_010_000), Some(1_050_000)]));
    w.observe(&counters(11_000, &[Some(4_010_000), Some(2_050_000)]));
    w.close();
    // Closed: later samples are not the window's.
    w.observe(&counters(21_000, &[Some(9_000_000), Some(9_000_000)]));
    let e = w.energy().unwrap();
    // 4,000 J and 2,000 J over 10 s: 6 kJ, 300 W per GPU.
    assert_eq!((e.joules, e.seconds, e.gpus), (6000.0, 10.0, 2));
    assert!((e.watts_per_gpu() - 300.0).abs() < 1e-9);
    assert_eq!(w.samples, 3);
    // A counter that goes back (the driver reloaded) spoils the window, and says so.
    let mut reset = EnergyWindow::open();
    reset.observe(&counters(0, &[Some(5_000)]));
    reset.observe(&counters(1_000, &[Some(1_000)]));
    assert!(reset.energy().unwrap_err().contains("went back"));
}
