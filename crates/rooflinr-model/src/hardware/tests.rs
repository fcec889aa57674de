//! Tests for the hardware registry, compute fall-back and custom devices.

use super::*;
use crate::error::ModelError;

#[track_caller]
fn check_entry(
    key: &str,
    bandwidth_gb_s: f64,
    fp16: f64,
    fp8: Option<f64>,
    int8: f64,
    fp4: Option<f64>,
) {
    let hw = registry::get(key).unwrap();
    assert_eq!(
        hw.memory_bandwidth.value,
        BytesPerSecond::gb_s(bandwidth_gb_s),
        "{key} bandwidth"
    );
    let tflops = |m| hw.peak(m).map(FlopsPerSecond::as_tflops);
    assert_eq!(tflops(Math::Fp16), Some(fp16), "{key} fp16");
    assert_eq!(tflops(Math::Bf16), Some(fp16), "{key} bf16");
    assert_eq!(tflops(Math::Fp8), fp8, "{key} fp8");
    assert_eq!(tflops(Math::Int8), Some(int8), "{key} int8");
    assert_eq!(tflops(Math::Fp4), fp4, "{key} fp4");
}

#[test]
fn capacities_are_the_bytes_the_device_has_and_missing_rates_are_not_borrowed() {
    // "80 GB" is 80 GiB of HBM3 (the driver reports 81,559 MiB usable of 81,920).
    let h100 = registry::get("h100-sxm").unwrap();
    assert_eq!(h100.memory_capacity.value, Bytes::gib(80.0));
    // Where NVIDIA records nvidia-smi's figure, that is the capacity.
    let gb200 = registry::get("gb200").unwrap();
    assert_eq!(gb200.memory_capacity.value, Bytes::mib(189_471.0));
    // The L40S datasheet gives no FP64 rate and Blackwell Ultra's per-GPU FP64 is not
    // published: an FP64 product has no rate there, rather than FP32's 91.6 TFLOP/s.
    for key in ["l40s", "b300", "gb300"] {
        let hw = registry::get(key).unwrap();
        let c = hw.ceiling(Math::Fp64, false);
        assert_eq!(c.peak.get(), 0.0, "{key}");
        assert!(!c.native && c.executed_as == Math::Fp64, "{key}");
    }
    // Where it is published, it is used as printed.
    assert_eq!(gb200.peak(Math::Fp64).unwrap().as_tflops(), 40.0);
    assert!(
        registry::get("h100-sxm")
            .unwrap()
            .ceiling(Math::Fp64, false)
            .native
    );
}

#[test]
fn driver_names_find_their_own_datasheet_and_no_other() {
    for (name, cc, key) in [
        ("NVIDIA H100 NVL", (9, 0), Some("h100-nvl")),
        ("NVIDIA H200 NVL", (9, 0), Some("h200-nvl")),
        ("NVIDIA H200", (9, 0), Some("h200")),
        ("NVIDIA H20", (9, 0), Some("h20")),
        ("NVIDIA A100-SXM4-40GB", (8, 0), Some("a100-sxm-40gb")),
        ("NVIDIA A100-SXM4-80GB", (8, 0), Some("a100-sxm")),
        ("NVIDIA A100 80GB PCIe", (8, 0), Some("a100-pcie")),
        ("NVIDIA A100-PCIE-40GB", (8, 0), None),
        ("NVIDIA L4", (8, 9), Some("l4")),
        ("NVIDIA L40S", (8, 9), Some("l40s")),
        ("NVIDIA GeForce RTX 4090", (8, 9), Some("rtx-4090")),
        ("NVIDIA GeForce RTX 5090", (12, 0), Some("rtx-5090")),
        ("NVIDIA GeForce RTX 5080", (12, 0), None),
        // "GH200" contains "H200": the superchip must not read as the H200 SXM.
        ("NVIDIA GH200 480GB", (9, 0), Some("gh200")),
        ("NVIDIA GH200 144G HBM3e", (9, 0), Some("gh200-144gb")),
        ("NVIDIA Thor", (11, 0), Some("jetson-agx-thor")),
        ("NVIDIA Thor", (10, 1), Some("jetson-agx-thor")),
        // A name whose compute capability is not its datasheet's is no match.
        ("NVIDIA H100 80GB HBM3", (8, 0), None),
        ("NVIDIA B200", (9, 0), None),
        (
            "NVIDIA RTX PRO 6000 Blackwell Server Edition",
            (12, 0),
            Some("rtx-pro-6000"),
        ),
        ("NVIDIA B300 SXM6 AC", (10, 3), Some("b300")),
        ("NVIDIA GB300", (10, 3), Some("gb300")),
    ] {
        assert_eq!(registry::key_for_device(name, Some(cc)), key, "{name}");
    }
}

#[test]
fn native_formats_follow_each_chip() {
    // FP8 on Ada and Hopper, none on A100 or TPU v5e; block-scaled FP4 on Blackwell and
    // CDNA 4 (MI355X runs MXFP4 natively), not on CDNA 3.
    let native = |key: &str, math: Math, block_scaled: bool| {
        registry::get(key)
            .unwrap()
            .ceiling(math, block_scaled)
            .native
    };
    assert!(native("l4", Math::Fp8, false) && native("h20", Math::Fp8, false));
    assert!(!native("a100-pcie", Math::Fp8, false) && !native("tpu-v5e", Math::Fp8, false));
    assert!(native("mi355x", Math::Fp4, true) && native("b300", Math::Fp4, true));
    assert!(!native("mi300x", Math::Fp4, true));
    // Apple publishes no FLOP rate: what there is is derived, and says so.
    let m4 = registry::get("m4-max").unwrap();
    assert!(
        m4.peaks
            .iter()
            .all(|p| p.rate.source.basis == Basis::Derived)
    );
    assert_eq!(m4.memory_capacity.value, Bytes::gib(128.0));
}

#[test]
fn registry_matches_the_reference_datasheet_figures() {
    // Dense datasheet figures: NVIDIA H100 and H200 product pages (3.35 and 4.8 TB/s,
    // 989.5 TFLOP/s BF16, 1979 FP8 and INT8), the A100 datasheet (2039 GB/s, 312 BF16,
    // 624 INT8), the Blackwell datasheet per HGX B200 GPU (7.7 TB/s, 2250 / 4500 / 9000
    // for BF16 / FP8 / FP4), and the registry's own sourced GB10 entry (273 GB/s; FP4
    // 1 PFLOP/s sparse, 500 dense).
    check_entry("h100-sxm", 3350.0, 989.5, Some(1979.0), 1979.0, None);
    check_entry("h200", 4800.0, 989.5, Some(1979.0), 1979.0, None);
    check_entry("a100-sxm", 2039.0, 312.0, None, 624.0, None);
    check_entry("b200", 7700.0, 2250.0, Some(4500.0), 4500.0, Some(9000.0));
    check_entry("gb10", 273.0, 125.0, Some(250.0), 250.0, Some(500.0));
    let h100 = registry::get("h100-sxm").unwrap();
    assert_eq!(h100.sm_count.as_ref().unwrap().value, 132);
    assert_eq!(h100.l2_cache.as_ref().unwrap().value, Bytes::mib(50.0));
    assert_eq!(h100.peak(Math::Tf32).unwrap().as_tflops(), 494.5);
    let gb10 = registry::get("gb10").unwrap();
    assert!(gb10.unified_memory);
    assert_eq!(gb10.sm_count.unwrap().value, 48);
    assert_eq!(gb10.memory_capacity.value, Bytes::gib(128.0));
}

#[test]
fn every_entry_is_complete_and_sourced() {
    let all = registry::all();
    let mut keys = registry::keys();
    assert_eq!(all.len(), keys.len());
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), all.len(), "a key appears twice");
    for hw in &all {
        assert_eq!(registry::get(&hw.key).unwrap(), *hw);
    }
    for hw in &all {
        // Every chip has a 16-bit rate (published or derived, and said so); FP32 and the
        // rest are listed only where published or derivable.
        assert!(
            hw.peak(Math::Fp16).is_some() || hw.peak(Math::Bf16).is_some(),
            "{}: no 16-bit rate",
            hw.key
        );
        assert!(hw.memory_bandwidth.value.get() > 0.0);
        assert!(!hw.memory_bandwidth.source.text.is_empty());
        for p in &hw.peaks {
            assert!(!p.rate.source.text.is_empty(), "{} {}", hw.key, p.math);
            assert!(p.rate.value.get() > 0.0);
        }
        assert_eq!(registry::get(&hw.key).unwrap(), *hw);
    }
}

#[test]
fn partner_systems_and_short_names_resolve_to_the_chip_they_are_built_on() {
    // ASUS, Dell, Lenovo, HP, MSI, Acer and Gigabyte sell GB10 systems under their own
    // names; each is the same chip and memory as the DGX Spark.
    for alias in [
        "asus-ascent-gx10",
        "dell-pro-max-gb10",
        "lenovo-thinkstation-pgx",
        "hp-zgx-nano",
        "msi-edgexpert",
        "acer-veriton-gn100",
        "gigabyte-ai-top-atom",
        "DGX-Spark",
    ] {
        assert_eq!(registry::get(alias).unwrap().key, "gb10", "{alias}");
    }
    // An alias is never also a key, and no two devices share one.
    let all = registry::all();
    let mut names: Vec<&str> = all
        .iter()
        .flat_map(|h| std::iter::once(h.key.as_str()).chain(h.aliases.iter().map(String::as_str)))
        .collect();
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count, "a key or alias names two devices");
}

#[test]
fn a_second_memory_is_beside_the_first_not_counted_in_it() {
    // GH200: 96 GB HBM3 at 4 TB/s on the GPU, up to 480 GB LPDDR5X at 512 GB/s on the
    // Grace CPU (NVIDIA GH200 datasheet). The roofline's capacity and bandwidth are the
    // HBM's; the LPDDR5X is a second tier with its own bandwidth.
    let gh200 = registry::get("gh200").unwrap();
    assert_eq!(gh200.memory_capacity.value, Bytes::gib(96.0));
    assert_eq!(gh200.memory_bandwidth.value, BytesPerSecond::gb_s(4000.0));
    let tier = gh200.second_memory.as_ref().unwrap();
    assert_eq!(tier.capacity.value, Bytes::gib(480.0));
    assert_eq!(tier.bandwidth.value, BytesPerSecond::gb_s(512.0));
    assert_eq!(tier.memory_type, "LPDDR5X");
    // DGX Station: 288 GB HBM3e at 8 TB/s and 496 GB LPDDR5X at 396 GB/s.
    let station = registry::get("dgx-station").unwrap();
    assert_eq!(
        station.second_memory.as_ref().unwrap().bandwidth.value,
        BytesPerSecond::gb_s(396.0)
    );
    // A unified memory (GB10, Apple, Thor) is one tier: the CPU's memory is the GPU's.
    for key in ["gb10", "m4-max", "jetson-agx-thor", "ryzen-ai-max-395"] {
        let hw = registry::get(key).unwrap();
        assert!(hw.unified_memory && hw.second_memory.is_none(), "{key}");
    }
}

#[test]
fn devices_group_by_vendor_and_class() {
    let all = registry::all();
    let class_of = |key: &str| all.iter().find(|h| h.key == key).unwrap().class;
    assert_eq!(class_of("rtx-5090"), DeviceClass::Consumer);
    assert_eq!(class_of("jetson-agx-thor"), DeviceClass::Edge);
    assert_eq!(class_of("dgx-station"), DeviceClass::Workstation);
    assert_eq!(class_of("mi355x"), DeviceClass::DataCentre);
    for vendor in [
        Vendor::Nvidia,
        Vendor::Amd,
        Vendor::Intel,
        Vendor::Google,
        Vendor::Apple,
    ] {
        assert!(all.iter().any(|h| h.vendor == vendor), "{vendor:?}");
    }
    assert!(all.iter().all(|h| h.vendor != Vendor::Other));
}

#[test]
fn consumer_blackwell_halves_fp32_accumulate_and_runs_fp4_natively() {
    // RTX 5090: 838 TFLOPS FP16 with sparsity (FP16 accumulate) is 419 dense; with FP32
    // accumulate, as inference GEMMs run, GeForce halves it to 209.5. FP4: 3,352 AI TOPS
    // with sparsity, 1,676 dense.
    let rtx = registry::get("rtx-5090").unwrap();
    assert_eq!(rtx.peak(Math::Bf16).unwrap().as_tflops(), 209.5);
    let fp4 = rtx.ceiling(Math::Fp4, true);
    assert!(fp4.native);
    assert_eq!(fp4.peak.as_tflops(), 1676.0);
    // Jetson AGX Thor: 2,070 FP4 TFLOPS with sparsity, 1,035 dense, block-scaled.
    let thor = registry::get("jetson-agx-thor").unwrap();
    assert_eq!(thor.ceiling(Math::Fp4, true).peak.as_tflops(), 1035.0);
}

#[test]
fn unknown_hardware_is_an_error_naming_it() {
    assert_eq!(
        registry::get("tpu-v9"),
        Err(ModelError::UnknownHardware("tpu-v9".into()))
    );
    assert_eq!(registry::get("H100").unwrap().key, "h100-sxm");
}

#[test]
fn formats_a_chip_cannot_run_compute_as_what_they_convert_to() {
    let a100 = registry::get("a100-sxm").unwrap();
    // FP8 on A100: stored as FP8, multiplied as FP16.
    let c = a100.ceiling(Math::Fp8, false);
    assert_eq!((c.executed_as, c.native), (Math::Fp16, false));
    assert_eq!(c.peak.as_tflops(), 312.0);
    // INT4 is native on Ampere.
    assert_eq!(a100.ceiling(Math::Int4, false).peak.as_tflops(), 1248.0);
    let h100 = registry::get("h100-sxm").unwrap();
    // No INT4 tensor cores on Hopper: INT8.
    let c = h100.ceiling(Math::Int4, false);
    assert_eq!((c.executed_as, c.native), (Math::Int8, false));
    // Block-scaled FP8 without block-scaled MMA: converted to FP16.
    let c = h100.ceiling(Math::Fp8, true);
    assert_eq!((c.executed_as, c.native), (Math::Fp16, false));
    let b200 = registry::get("b200").unwrap();
    let c = b200.ceiling(Math::Fp4, true);
    assert_eq!(
        (c.executed_as, c.native, c.peak.as_tflops()),
        (Math::Fp4, true, 9000.0)
    );
    // Ridge point: 989.5 TFLOP/s over 3.35 TB/s.
    assert!((h100.ridge(Math::Fp16, false).get() - 989.5 / 3.35).abs() < 1e-9);
}

#[test]
fn custom_device_from_toml_and_json() {
    let toml = r#"
        name = "MyASIC"
        memory_bandwidth_gb_s = 500
        [peak_tflops]
        fp16 = 50.0
        int8 = 100.0
    "#;
    let hw = custom::parse(toml).unwrap();
    assert_eq!(hw.key, "myasic");
    assert_eq!(hw.memory_bandwidth.value, BytesPerSecond::gb_s(500.0));
    assert_eq!(hw.peak(Math::Int8).unwrap().as_tflops(), 100.0);
    assert_eq!(hw.peaks[0].rate.source.basis, Basis::User);
    let json = r#"{"name": "MyASIC", "memory_bandwidth_gb_s": 500, "peak_tflops": {"fp16": 50, "int8": 100}}"#;
    assert_eq!(custom::parse(json).unwrap(), hw);
    // A type the chip lacks falls back to the widest rate it has.
    let c = hw.ceiling(Math::Fp64, false);
    assert!(!c.native);
}

#[test]
fn custom_device_errors_name_the_field() {
    let cases = [
        (
            r#"{"name": "x", "memory_bandwidth_gb_s": -1, "peak_tflops": {"fp16": 1}}"#,
            "field `memory_bandwidth_gb_s`: must be a positive number, got -1",
        ),
        (
            r#"{"name": "x", "memory_bandwidth_gb_s": 1, "peak_tflops": {"fp17": 1}}"#,
            "field `peak_tflops.fp17`: unknown operation type",
        ),
        (
            r#"{"name": "x", "memory_bandwidth_gb_s": 1, "peak_tflops": {}}"#,
            "field `peak_tflops`: give at least one rate",
        ),
        (
            r#"{"name": " ", "memory_bandwidth_gb_s": 1, "peak_tflops": {"fp16": 1}}"#,
            "field `name`: must not be empty",
        ),
        (
            r#"{"name": "x", "peak_tflops": {"fp16": 1}}"#,
            "missing field `memory_bandwidth_gb_s`",
        ),
        ("name = 3", "cannot parse hardware TOML"),
    ];
    for (text, expected) in cases {
        let message = custom::parse(text).unwrap_err().to_string();
        assert!(
            message.contains(expected),
            "{message:?} should contain {expected:?}"
        );
    }
}

#[test]
fn compute_capability_is_a_field_and_the_label_shows_it() {
    let h100 = registry::get("h100-sxm").unwrap();
    assert_eq!(h100.sm_version(), Some(90));
    assert_eq!(h100.architecture, "Hopper (sm_90)");
    let gb10 = registry::get("gb10").unwrap();
    assert_eq!(gb10.sm_version(), Some(121));
    assert_eq!(gb10.architecture, "Blackwell (sm_121)");
    let mi300x = registry::get("mi300x").unwrap();
    assert_eq!(mi300x.sm_version(), None);
    assert_eq!(mi300x.architecture, "CDNA 3 (gfx942)");
    // Every CUDA entry states its capability, and no other entry does.
    for hw in registry::all() {
        assert_eq!(
            hw.sm_version().is_some(),
            hw.vendor == Vendor::Nvidia,
            "{}: {}",
            hw.key,
            hw.architecture
        );
    }
    // A custom device states it as a number; its architecture text is only a label.
    let hopper_like = custom::parse(
        r#"
        name = "Lab GPU"
        memory_bandwidth_gb_s = 3000
        architecture = "Hopper"
        sm = 90
        [peak_tflops]
        fp16 = 900.0
    "#,
    )
    .unwrap();
    assert_eq!(hopper_like.sm_version(), Some(90));
    assert_eq!(hopper_like.architecture, "Hopper (sm_90)");
    let unstated = custom::parse(
        r#"
        name = "Lab GPU"
        memory_bandwidth_gb_s = 3000
        architecture = "Hopper (sm_90)"
        [peak_tflops]
        fp16 = 900.0
    "#,
    )
    .unwrap();
    assert_eq!(unstated.sm_version(), None);
}
