//! The built-in hardware registry: a data table, each figure with its source.
//!
//! Peaks are dense (no 2:4 structured sparsity). Datasheets that print only sparse figures
//! are halved, and say so; those that print dense figures are quoted as printed. Where a
//! vendor publishes nothing, the figure is marked `derived` with the rule used, or left out
//! (and shown as unknown) rather than invented.
//!
//! Memory capacity is stored in bytes as the device has them. Vendors' "80 GB", "141 GB",
//! "180 GB" of GPU memory are binary gigabytes in practice (an H100 80 GB has 80 GiB of
//! HBM3, of which the driver reports 81,559 MiB usable), so a vendor figure is read as
//! GiB; where NVIDIA records what `nvidia-smi` reports, that figure is used.

use crate::error::ModelError;
use crate::format::Math;
use crate::units::{Bytes, BytesPerSecond, FlopsPerSecond};

use super::{Figure, Hardware, Peak, Source};

const H100_SXM: &str = "NVIDIA H100 Tensor Core GPU datasheet (SXM5), dense";
const H100_PCIE: &str = "NVIDIA H100 Tensor Core GPU datasheet (PCIe), dense";
const HOPPER_WP: &str = "NVIDIA H100 Tensor Core GPU Architecture whitepaper";
const H200: &str = "NVIDIA H200 Tensor Core GPU datasheet (SXM), dense";
const A100: &str = "NVIDIA A100 Tensor Core GPU datasheet (SXM4 80GB), dense";
const AMPERE_WP: &str = "NVIDIA A100 Tensor Core GPU Architecture whitepaper";
const L40S: &str = "NVIDIA L40S datasheet: sparse figures halved to dense";
const B200: &str = "NVIDIA HGX B200 datasheet, per GPU: 8-GPU sparse figures / 8 / 2";
const GB200: &str = "NVIDIA GB200 NVL72 datasheet, per GPU: 72-GPU sparse figures / 72 / 2";
/// NVIDIA's own per-GPU system files (PyPI aiconfigurator-core 0.12.0, Apache-2.0), which
/// cite the Blackwell and Blackwell Ultra datasheets and record `nvidia-smi` memory.
const AIC_B200: &str =
    "NVIDIA Blackwell datasheet, per GPU (aiconfigurator-core 0.12.0 systems/b200_sxm.yaml)";
const AIC_GB200: &str =
    "nvidia-smi on a GB200: 189,471 MiB (aiconfigurator-core 0.12.0 systems/gb200.yaml)";
const B300: &str = "NVIDIA Blackwell Ultra datasheet, HGX B300 per GPU, dense (aiconfigurator-core 0.12.0 systems/b300_sxm.yaml)";
const GB300: &str = "NVIDIA Blackwell Ultra datasheet, GB300 NVL72 per GPU, dense (aiconfigurator-core 0.12.0 systems/gb300.yaml)";
const GB10: &str = "NVIDIA DGX Spark datasheet (GB10)";
/// GB10's 16-bit rate: NVIDIA publishes only FP4 for it. FP8 / 2 is the Blackwell ratio
/// with FP32 accumulation at the full rate, as on NVIDIA's data-centre and workstation
/// parts; GeForce sm_12x parts halve FP32-accumulate FP16/BF16, and whether GB10 does is
/// not published. A measured peak from the agent replaces it.
const GB10_16BIT: &str = "FP8 / 2, the Blackwell ratio, FP32 accumulate at full rate (GeForce parts halve it); unverified for GB10";
const GB10_HOT_CHIPS: &str = "GB10 Hot Chips 2025 presentation";
const ORIN: &str = "NVIDIA Jetson AGX Orin 64GB module datasheet";

fn ds(value: f64, text: &'static str) -> Figure<f64> {
    Figure::new(value, Source::datasheet(text))
}

/// A vendor's "GB" of device memory, read as GiB (see the module comment).
fn gib(value: f64, text: &'static str) -> Figure<Bytes> {
    Figure::new(Bytes::gib(value), Source::datasheet(text))
}

/// Memory as `nvidia-smi` reports it, MiB.
fn reported_mib(value: f64, text: &'static str) -> Figure<Bytes> {
    Figure::new(Bytes::mib(value), Source::datasheet(text))
}

struct Entry {
    key: &'static str,
    name: &'static str,
    architecture: &'static str,
    bandwidth_gb_s: Figure<f64>,
    capacity: Figure<Bytes>,
    memory_type: &'static str,
    unified_memory: bool,
    sm_count: Option<Figure<f64>>,
    l2_mib: Option<Figure<f64>>,
    boost_clock_mhz: Option<Figure<f64>>,
    power_watts: Option<Figure<f64>>,
    block_scaled_mma: bool,
    /// (operation type, dense TFLOP/s, source)
    peaks: Vec<(Math, Figure<f64>)>,
}

impl Entry {
    fn build(self) -> Hardware {
        Hardware {
            key: self.key.into(),
            name: self.name.into(),
            architecture: self.architecture.into(),
            memory_bandwidth: Figure::new(
                BytesPerSecond::gb_s(self.bandwidth_gb_s.value),
                self.bandwidth_gb_s.source,
            ),
            memory_capacity: self.capacity,
            memory_type: self.memory_type.into(),
            unified_memory: self.unified_memory,
            sm_count: self.sm_count.map(|f| Figure::new(f.value as u32, f.source)),
            l2_cache: self
                .l2_mib
                .map(|f| Figure::new(Bytes::mib(f.value), f.source)),
            boost_clock_mhz: self.boost_clock_mhz,
            power_watts: self.power_watts,
            block_scaled_mma: self.block_scaled_mma,
            peaks: self
                .peaks
                .into_iter()
                .map(|(math, f)| Peak {
                    math,
                    rate: Figure::new(FlopsPerSecond::tflops(f.value), f.source),
                })
                .collect(),
        }
    }
}

/// Every built-in device, in display order: the one list, each key written once.
fn entries() -> Vec<Entry> {
    let d = Source::derived;
    vec![
        Entry {
            key: "gb10",
            name: "NVIDIA GB10 (DGX Spark)",
            architecture: "Blackwell (sm_121)",
            bandwidth_gb_s: ds(273.0, GB10),
            capacity: gib(128.0, GB10),
            memory_type: "LPDDR5x",
            unified_memory: true,
            sm_count: Some(Figure::new(
                48.0,
                d("6,144 CUDA cores (DGX Spark datasheet) / 128 per SM"),
            )),
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: Some(ds(140.0, GB10_HOT_CHIPS)),
            block_scaled_mma: true,
            peaks: vec![
                (Math::Fp32, ds(31.0, GB10_HOT_CHIPS)),
                (
                    Math::Fp4,
                    Figure::new(
                        500.0,
                        d("half the 1 PFLOP FP4 sparse headline (DGX Spark datasheet)"),
                    ),
                ),
                (
                    Math::Fp6,
                    Figure::new(
                        250.0,
                        d("FP4 dense / 2, the Blackwell ratio; unverified for GB10"),
                    ),
                ),
                (
                    Math::Fp8,
                    Figure::new(
                        250.0,
                        d("FP4 dense / 2, the Blackwell ratio; unverified for GB10"),
                    ),
                ),
                (
                    Math::Int8,
                    Figure::new(
                        250.0,
                        d("FP8 rate, the Blackwell ratio; unverified for GB10"),
                    ),
                ),
                (Math::Fp16, Figure::new(125.0, d(GB10_16BIT))),
                (Math::Bf16, Figure::new(125.0, d(GB10_16BIT))),
                (
                    Math::Tf32,
                    Figure::new(
                        62.5,
                        d("FP16 / 2, the Blackwell ratio; unverified for GB10"),
                    ),
                ),
            ],
        },
        Entry {
            key: "gb200",
            name: "NVIDIA GB200 (one B200 GPU of the superchip)",
            architecture: "Blackwell (sm_100)",
            bandwidth_gb_s: ds(8000.0, "NVIDIA GB200 NVL72 datasheet: 576 TB/s / 72 GPUs"),
            capacity: reported_mib(189_471.0, AIC_GB200),
            memory_type: "HBM3e",
            unified_memory: false,
            sm_count: Some(ds(148.0, "NVIDIA Blackwell architecture technical brief")),
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: Some(ds(1200.0, "NVIDIA GB200 NVL72 datasheet (per GPU)")),
            block_scaled_mma: true,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(
                        40.0,
                        "NVIDIA GB200 NVL72 specifications: 2,880 TFLOPS FP64 / 72 (the 3,240 of the preliminary datasheet was revised)",
                    ),
                ),
                (
                    Math::Fp32,
                    ds(
                        80.0,
                        "NVIDIA GB200 NVL72 specifications: 5,760 TFLOPS FP32 / 72",
                    ),
                ),
                (Math::Tf32, ds(1250.0, GB200)),
                (Math::Fp16, ds(2500.0, GB200)),
                (Math::Bf16, ds(2500.0, GB200)),
                (Math::Fp8, ds(5000.0, GB200)),
                (Math::Fp6, ds(5000.0, GB200)),
                (Math::Int8, ds(5000.0, GB200)),
                (Math::Fp4, ds(10000.0, GB200)),
            ],
        },
        Entry {
            key: "b200",
            name: "NVIDIA B200 (HGX B200)",
            architecture: "Blackwell (sm_100)",
            bandwidth_gb_s: ds(7700.0, AIC_B200),
            capacity: gib(180.0, AIC_B200),
            memory_type: "HBM3e",
            unified_memory: false,
            sm_count: Some(ds(148.0, "NVIDIA Blackwell architecture technical brief")),
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: Some(ds(1000.0, "NVIDIA HGX B200 datasheet (per GPU)")),
            block_scaled_mma: true,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(37.0, "NVIDIA HGX B200 datasheet: 296 TFLOPS FP64 / 8"),
                ),
                (
                    Math::Fp32,
                    ds(75.0, "NVIDIA HGX B200 datasheet: 600 TFLOPS FP32 / 8"),
                ),
                (Math::Tf32, ds(1125.0, B200)),
                (Math::Fp16, ds(2250.0, B200)),
                (Math::Bf16, ds(2250.0, B200)),
                (Math::Fp8, ds(4500.0, B200)),
                (Math::Fp6, ds(4500.0, B200)),
                (Math::Int8, ds(4500.0, B200)),
                (Math::Fp4, ds(9000.0, B200)),
            ],
        },
        Entry {
            key: "gb300",
            name: "NVIDIA GB300 (one Blackwell Ultra GPU of the superchip)",
            architecture: "Blackwell Ultra (sm_103)",
            bandwidth_gb_s: ds(8000.0, GB300),
            capacity: reported_mib(284_208.0, GB300),
            memory_type: "HBM3e",
            unified_memory: false,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: Some(ds(1400.0, GB300)),
            block_scaled_mma: true,
            // FP64 is not published for Blackwell Ultra per GPU: left out, not borrowed.
            peaks: vec![
                (
                    Math::Fp32,
                    Figure::new(
                        80.0,
                        d("the GB200's 5,760 TFLOPS FP32 / 72; unverified for GB300"),
                    ),
                ),
                (Math::Fp16, ds(2500.0, GB300)),
                (Math::Bf16, ds(2500.0, GB300)),
                (Math::Fp8, ds(5000.0, GB300)),
                (
                    Math::Fp6,
                    Figure::new(
                        5000.0,
                        d("the FP8 rate, as on every Blackwell part; unverified for GB300"),
                    ),
                ),
                (Math::Int8, ds(165.0, GB300)),
                (Math::Fp4, ds(15000.0, GB300)),
            ],
        },
        Entry {
            key: "b300",
            name: "NVIDIA B300 (HGX B300)",
            architecture: "Blackwell Ultra (sm_103)",
            bandwidth_gb_s: ds(7750.0, B300),
            capacity: reported_mib(
                275_040.0,
                "nvidia-smi on a B300: 275,040 MiB (aiconfigurator-core 0.12.0 systems/b300_sxm.yaml)",
            ),
            memory_type: "HBM3e",
            unified_memory: false,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: Some(ds(1100.0, B300)),
            block_scaled_mma: true,
            // FP64 is not published for Blackwell Ultra per GPU: left out, not borrowed.
            peaks: vec![
                (
                    Math::Fp32,
                    Figure::new(
                        75.0,
                        d("the B200's 600 TFLOPS FP32 / 8; unverified for B300"),
                    ),
                ),
                (Math::Fp16, ds(2250.0, B300)),
                (Math::Bf16, ds(2250.0, B300)),
                (Math::Fp8, ds(4500.0, B300)),
                (
                    Math::Fp6,
                    Figure::new(
                        4500.0,
                        d("the FP8 rate, as on every Blackwell part; unverified for B300"),
                    ),
                ),
                (Math::Int8, ds(153.5, B300)),
                (Math::Fp4, ds(14000.0, B300)),
            ],
        },
        Entry {
            key: "h200",
            name: "NVIDIA H200 SXM",
            architecture: "Hopper (sm_90)",
            bandwidth_gb_s: ds(4800.0, H200),
            capacity: gib(141.0, H200),
            memory_type: "HBM3e",
            unified_memory: false,
            sm_count: Some(ds(132.0, HOPPER_WP)),
            l2_mib: Some(ds(50.0, HOPPER_WP)),
            boost_clock_mhz: Some(ds(1980.0, HOPPER_WP)),
            power_watts: Some(ds(700.0, H200)),
            block_scaled_mma: false,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(67.0, "NVIDIA H200 datasheet: FP64 Tensor Core"),
                ),
                (Math::Fp32, ds(67.0, H200)),
                (Math::Tf32, ds(494.5, H200)),
                (Math::Fp16, ds(989.5, H200)),
                (Math::Bf16, ds(989.5, H200)),
                (Math::Fp8, ds(1979.0, H200)),
                (Math::Int8, ds(1979.0, H200)),
            ],
        },
        Entry {
            key: "h100-sxm",
            name: "NVIDIA H100 SXM5 80GB",
            architecture: "Hopper (sm_90)",
            bandwidth_gb_s: ds(3350.0, H100_SXM),
            capacity: gib(80.0, H100_SXM),
            memory_type: "HBM3",
            unified_memory: false,
            sm_count: Some(ds(132.0, HOPPER_WP)),
            l2_mib: Some(ds(50.0, HOPPER_WP)),
            boost_clock_mhz: Some(ds(1980.0, HOPPER_WP)),
            power_watts: Some(ds(700.0, H100_SXM)),
            block_scaled_mma: false,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(67.0, "NVIDIA H100 datasheet (SXM5): FP64 Tensor Core"),
                ),
                (Math::Fp32, ds(67.0, H100_SXM)),
                (Math::Tf32, ds(494.5, H100_SXM)),
                (Math::Fp16, ds(989.5, H100_SXM)),
                (Math::Bf16, ds(989.5, H100_SXM)),
                (Math::Fp8, ds(1979.0, H100_SXM)),
                (Math::Int8, ds(1979.0, H100_SXM)),
            ],
        },
        Entry {
            key: "h100-pcie",
            name: "NVIDIA H100 PCIe 80GB",
            architecture: "Hopper (sm_90)",
            bandwidth_gb_s: ds(2000.0, H100_PCIE),
            capacity: gib(80.0, H100_PCIE),
            memory_type: "HBM2e",
            unified_memory: false,
            sm_count: Some(ds(114.0, HOPPER_WP)),
            l2_mib: Some(ds(50.0, HOPPER_WP)),
            boost_clock_mhz: Some(ds(1755.0, HOPPER_WP)),
            power_watts: Some(ds(350.0, H100_PCIE)),
            block_scaled_mma: false,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(51.0, "NVIDIA H100 datasheet (PCIe): FP64 Tensor Core"),
                ),
                (Math::Fp32, ds(51.0, H100_PCIE)),
                (Math::Tf32, ds(378.0, H100_PCIE)),
                (Math::Fp16, ds(756.5, H100_PCIE)),
                (Math::Bf16, ds(756.5, H100_PCIE)),
                (Math::Fp8, ds(1513.0, H100_PCIE)),
                (Math::Int8, ds(1513.0, H100_PCIE)),
            ],
        },
        Entry {
            key: "a100-sxm",
            name: "NVIDIA A100 SXM4 80GB",
            architecture: "Ampere (sm_80)",
            bandwidth_gb_s: ds(2039.0, A100),
            capacity: gib(80.0, A100),
            memory_type: "HBM2e",
            unified_memory: false,
            sm_count: Some(ds(108.0, AMPERE_WP)),
            l2_mib: Some(ds(40.0, AMPERE_WP)),
            boost_clock_mhz: Some(ds(1410.0, AMPERE_WP)),
            power_watts: Some(ds(400.0, A100)),
            block_scaled_mma: false,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(19.5, "NVIDIA A100 datasheet: FP64 Tensor Core"),
                ),
                (Math::Fp32, ds(19.5, A100)),
                (Math::Tf32, ds(156.0, A100)),
                (Math::Fp16, ds(312.0, A100)),
                (Math::Bf16, ds(312.0, A100)),
                (Math::Int8, ds(624.0, A100)),
                (Math::Int4, ds(1248.0, AMPERE_WP)),
            ],
        },
        Entry {
            key: "l40s",
            name: "NVIDIA L40S",
            architecture: "Ada Lovelace (sm_89)",
            bandwidth_gb_s: ds(864.0, "NVIDIA L40S datasheet"),
            capacity: gib(48.0, "NVIDIA L40S datasheet"),
            memory_type: "GDDR6",
            unified_memory: false,
            sm_count: Some(ds(
                142.0,
                "NVIDIA Ada Lovelace architecture whitepaper (AD102)",
            )),
            l2_mib: Some(ds(
                96.0,
                "NVIDIA Ada Lovelace architecture whitepaper (AD102)",
            )),
            boost_clock_mhz: Some(ds(2520.0, "NVIDIA L40S product brief")),
            power_watts: Some(ds(350.0, "NVIDIA L40S datasheet")),
            block_scaled_mma: false,
            peaks: vec![
                (Math::Fp32, ds(91.6, "NVIDIA L40S datasheet")),
                (Math::Tf32, ds(183.0, L40S)),
                (Math::Fp16, ds(362.05, L40S)),
                (Math::Bf16, ds(362.05, L40S)),
                (Math::Fp8, ds(733.0, L40S)),
                (Math::Int8, ds(733.0, L40S)),
                (Math::Int4, ds(733.0, L40S)),
            ],
        },
        Entry {
            key: "jetson-agx-orin",
            name: "NVIDIA Jetson AGX Orin 64GB",
            architecture: "Ampere (sm_87)",
            bandwidth_gb_s: ds(204.8, ORIN),
            capacity: gib(64.0, ORIN),
            memory_type: "LPDDR5",
            unified_memory: true,
            sm_count: Some(Figure::new(
                16.0,
                d("2,048 CUDA cores (module datasheet) / 128 per SM"),
            )),
            l2_mib: Some(ds(4.0, "NVIDIA Jetson AGX Orin technical brief")),
            boost_clock_mhz: Some(ds(1300.0, ORIN)),
            power_watts: Some(ds(60.0, ORIN)),
            block_scaled_mma: false,
            peaks: vec![
                (Math::Fp32, ds(5.3, ORIN)),
                (
                    Math::Int8,
                    Figure::new(
                        85.0,
                        d("half the GPU's 170 sparse INT8 TOPS (module datasheet)"),
                    ),
                ),
                (
                    Math::Fp16,
                    Figure::new(42.5, d("INT8 dense / 2, the Ampere tensor-core ratio")),
                ),
                (
                    Math::Bf16,
                    Figure::new(42.5, d("INT8 dense / 2, the Ampere tensor-core ratio")),
                ),
                (
                    Math::Tf32,
                    Figure::new(21.25, d("FP16 / 2, the Ampere tensor-core ratio")),
                ),
            ],
        },
        Entry {
            key: "l4",
            name: "NVIDIA L4",
            architecture: "Ada Lovelace (sm_89)",
            bandwidth_gb_s: ds(300.0, "NVIDIA L4 datasheet"),
            capacity: gib(24.0, "NVIDIA L4 datasheet"),
            memory_type: "GDDR6",
            unified_memory: false,
            sm_count: Some(ds(58.0, "NVIDIA L4 product brief (AD104, 58 SMs)")),
            l2_mib: None,
            boost_clock_mhz: Some(ds(2040.0, "NVIDIA L4 product brief")),
            power_watts: Some(ds(72.0, "NVIDIA L4 datasheet")),
            block_scaled_mma: false,
            // The L4 datasheet gives no FP64 rate: left out, not borrowed.
            peaks: vec![
                (Math::Fp32, ds(30.3, "NVIDIA L4 datasheet")),
                (
                    Math::Tf32,
                    ds(60.0, "NVIDIA L4 datasheet: sparse figures halved to dense"),
                ),
                (
                    Math::Fp16,
                    ds(121.0, "NVIDIA L4 datasheet: sparse figures halved to dense"),
                ),
                (
                    Math::Bf16,
                    ds(121.0, "NVIDIA L4 datasheet: sparse figures halved to dense"),
                ),
                (
                    Math::Fp8,
                    ds(242.5, "NVIDIA L4 datasheet: sparse figures halved to dense"),
                ),
                (
                    Math::Int8,
                    ds(242.5, "NVIDIA L4 datasheet: sparse figures halved to dense"),
                ),
            ],
        },
        Entry {
            key: "h100-nvl",
            name: "NVIDIA H100 NVL 94GB",
            architecture: "Hopper (sm_90)",
            bandwidth_gb_s: ds(3900.0, "NVIDIA H100 NVL datasheet (per GPU)"),
            capacity: gib(94.0, "NVIDIA H100 NVL datasheet (per GPU)"),
            memory_type: "HBM3",
            unified_memory: false,
            sm_count: Some(ds(
                132.0,
                "NVIDIA H100 Tensor Core GPU Architecture whitepaper",
            )),
            l2_mib: Some(ds(
                50.0,
                "NVIDIA H100 Tensor Core GPU Architecture whitepaper",
            )),
            boost_clock_mhz: None,
            power_watts: Some(ds(
                400.0,
                "NVIDIA H100 NVL datasheet (per GPU, 350-400 W configurable)",
            )),
            block_scaled_mma: false,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(60.0, "NVIDIA H100 NVL datasheet: FP64 Tensor Core"),
                ),
                (Math::Fp32, ds(60.0, "NVIDIA H100 NVL datasheet (per GPU)")),
                (
                    Math::Tf32,
                    ds(
                        417.5,
                        "NVIDIA H100 NVL datasheet (per GPU): sparse figures halved to dense",
                    ),
                ),
                (
                    Math::Fp16,
                    ds(
                        835.5,
                        "NVIDIA H100 NVL datasheet (per GPU): sparse figures halved to dense",
                    ),
                ),
                (
                    Math::Bf16,
                    ds(
                        835.5,
                        "NVIDIA H100 NVL datasheet (per GPU): sparse figures halved to dense",
                    ),
                ),
                (
                    Math::Fp8,
                    ds(
                        1670.5,
                        "NVIDIA H100 NVL datasheet (per GPU): sparse figures halved to dense",
                    ),
                ),
                (
                    Math::Int8,
                    ds(
                        1670.5,
                        "NVIDIA H100 NVL datasheet (per GPU): sparse figures halved to dense",
                    ),
                ),
            ],
        },
        Entry {
            key: "h200-nvl",
            name: "NVIDIA H200 NVL",
            architecture: "Hopper (sm_90)",
            bandwidth_gb_s: ds(4800.0, "NVIDIA H200 NVL datasheet"),
            capacity: gib(141.0, "NVIDIA H200 NVL datasheet"),
            memory_type: "HBM3e",
            unified_memory: false,
            sm_count: Some(ds(
                132.0,
                "NVIDIA H100 Tensor Core GPU Architecture whitepaper (the same GH100)",
            )),
            l2_mib: Some(ds(
                50.0,
                "NVIDIA H100 Tensor Core GPU Architecture whitepaper",
            )),
            boost_clock_mhz: None,
            power_watts: Some(ds(600.0, "NVIDIA H200 NVL datasheet (up to 600 W)")),
            block_scaled_mma: false,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(60.0, "NVIDIA H200 NVL datasheet: FP64 Tensor Core"),
                ),
                (Math::Fp32, ds(60.0, "NVIDIA H200 NVL datasheet")),
                (
                    Math::Tf32,
                    ds(
                        417.5,
                        "NVIDIA H200 NVL datasheet: sparse figures halved to dense",
                    ),
                ),
                (
                    Math::Fp16,
                    ds(
                        835.5,
                        "NVIDIA H200 NVL datasheet: sparse figures halved to dense",
                    ),
                ),
                (
                    Math::Bf16,
                    ds(
                        835.5,
                        "NVIDIA H200 NVL datasheet: sparse figures halved to dense",
                    ),
                ),
                (
                    Math::Fp8,
                    ds(
                        1670.5,
                        "NVIDIA H200 NVL datasheet: sparse figures halved to dense",
                    ),
                ),
                (
                    Math::Int8,
                    ds(
                        1670.5,
                        "NVIDIA H200 NVL datasheet: sparse figures halved to dense",
                    ),
                ),
            ],
        },
        Entry {
            key: "h20",
            name: "NVIDIA H20",
            architecture: "Hopper (sm_90)",
            bandwidth_gb_s: ds(4000.0, "NVIDIA HGX H20 specifications, dense"),
            capacity: gib(96.0, "NVIDIA HGX H20 specifications, dense"),
            memory_type: "HBM3",
            unified_memory: false,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: Some(ds(400.0, "NVIDIA HGX H20 specifications, dense")),
            block_scaled_mma: false,
            // Its SM count and FP64 rate are not published: left out.
            peaks: vec![
                (Math::Fp32, ds(44.0, "NVIDIA HGX H20 specifications, dense")),
                (Math::Tf32, ds(74.0, "NVIDIA HGX H20 specifications, dense")),
                (
                    Math::Fp16,
                    ds(148.0, "NVIDIA HGX H20 specifications, dense"),
                ),
                (
                    Math::Bf16,
                    ds(148.0, "NVIDIA HGX H20 specifications, dense"),
                ),
                (Math::Fp8, ds(296.0, "NVIDIA HGX H20 specifications, dense")),
                (
                    Math::Int8,
                    ds(296.0, "NVIDIA HGX H20 specifications, dense"),
                ),
            ],
        },
        Entry {
            key: "a100-sxm-40gb",
            name: "NVIDIA A100 SXM4 40GB",
            architecture: "Ampere (sm_80)",
            bandwidth_gb_s: ds(
                1555.0,
                "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), dense",
            ),
            capacity: gib(
                40.0,
                "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), dense",
            ),
            memory_type: "HBM2",
            unified_memory: false,
            sm_count: Some(ds(
                108.0,
                "NVIDIA A100 Tensor Core GPU Architecture whitepaper",
            )),
            l2_mib: Some(ds(
                40.0,
                "NVIDIA A100 Tensor Core GPU Architecture whitepaper",
            )),
            boost_clock_mhz: Some(ds(
                1410.0,
                "NVIDIA A100 Tensor Core GPU Architecture whitepaper",
            )),
            power_watts: Some(ds(
                400.0,
                "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), dense",
            )),
            block_scaled_mma: false,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(19.5, "NVIDIA A100 datasheet: FP64 Tensor Core"),
                ),
                (
                    Math::Fp32,
                    ds(
                        19.5,
                        "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), dense",
                    ),
                ),
                (
                    Math::Tf32,
                    ds(
                        156.0,
                        "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), dense",
                    ),
                ),
                (
                    Math::Fp16,
                    ds(
                        312.0,
                        "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), dense",
                    ),
                ),
                (
                    Math::Bf16,
                    ds(
                        312.0,
                        "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), dense",
                    ),
                ),
                (
                    Math::Int8,
                    ds(
                        624.0,
                        "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), dense",
                    ),
                ),
                (
                    Math::Int4,
                    ds(
                        1248.0,
                        "NVIDIA A100 Tensor Core GPU Architecture whitepaper",
                    ),
                ),
            ],
        },
        Entry {
            key: "a100-pcie",
            name: "NVIDIA A100 PCIe 80GB",
            architecture: "Ampere (sm_80)",
            bandwidth_gb_s: ds(
                1935.0,
                "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), dense",
            ),
            capacity: gib(
                80.0,
                "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), dense",
            ),
            memory_type: "HBM2e",
            unified_memory: false,
            sm_count: Some(ds(
                108.0,
                "NVIDIA A100 Tensor Core GPU Architecture whitepaper",
            )),
            l2_mib: Some(ds(
                40.0,
                "NVIDIA A100 Tensor Core GPU Architecture whitepaper",
            )),
            boost_clock_mhz: Some(ds(
                1410.0,
                "NVIDIA A100 Tensor Core GPU Architecture whitepaper",
            )),
            power_watts: Some(ds(
                300.0,
                "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), dense",
            )),
            block_scaled_mma: false,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(19.5, "NVIDIA A100 datasheet: FP64 Tensor Core"),
                ),
                (
                    Math::Fp32,
                    ds(
                        19.5,
                        "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), dense",
                    ),
                ),
                (
                    Math::Tf32,
                    ds(
                        156.0,
                        "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), dense",
                    ),
                ),
                (
                    Math::Fp16,
                    ds(
                        312.0,
                        "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), dense",
                    ),
                ),
                (
                    Math::Bf16,
                    ds(
                        312.0,
                        "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), dense",
                    ),
                ),
                (
                    Math::Int8,
                    ds(
                        624.0,
                        "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), dense",
                    ),
                ),
                (
                    Math::Int4,
                    ds(
                        1248.0,
                        "NVIDIA A100 Tensor Core GPU Architecture whitepaper",
                    ),
                ),
            ],
        },
        Entry {
            key: "rtx-4090",
            name: "NVIDIA GeForce RTX 4090",
            architecture: "Ada Lovelace (sm_89)",
            bandwidth_gb_s: ds(
                1008.0,
                "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, dense",
            ),
            capacity: gib(
                24.0,
                "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, dense",
            ),
            memory_type: "GDDR6X",
            unified_memory: false,
            sm_count: Some(ds(
                128.0,
                "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, dense",
            )),
            l2_mib: Some(ds(
                72.0,
                "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, dense",
            )),
            boost_clock_mhz: Some(ds(
                2520.0,
                "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, dense",
            )),
            power_watts: Some(ds(
                450.0,
                "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, dense",
            )),
            block_scaled_mma: false,
            // Rates with FP32 accumulation, as inference GEMMs accumulate; FP64 is not published.
            peaks: vec![
                (
                    Math::Fp32,
                    ds(
                        82.6,
                        "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, dense",
                    ),
                ),
                (
                    Math::Tf32,
                    ds(
                        82.6,
                        "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, dense",
                    ),
                ),
                (
                    Math::Fp16,
                    ds(
                        165.2,
                        "NVIDIA Ada Lovelace GPU architecture whitepaper, RTX 4090: FP16 with FP32 accumulate (GeForce runs it at half the FP16-accumulate 330.3), dense",
                    ),
                ),
                (
                    Math::Bf16,
                    ds(
                        165.2,
                        "NVIDIA Ada Lovelace GPU architecture whitepaper, RTX 4090: BF16 with FP32 accumulate, dense",
                    ),
                ),
                (
                    Math::Fp8,
                    Figure::new(
                        330.3,
                        d(
                            "half the 660.6 FP8 rate with FP16 accumulate, as GeForce halves FP32-accumulate FP16; unverified",
                        ),
                    ),
                ),
                (
                    Math::Int8,
                    ds(
                        660.6,
                        "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, dense",
                    ),
                ),
                (
                    Math::Int4,
                    ds(
                        1321.2,
                        "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, dense",
                    ),
                ),
            ],
        },
        Entry {
            key: "rtx-pro-6000",
            name: "NVIDIA RTX PRO 6000 Blackwell Server Edition",
            architecture: "Blackwell (sm_120)",
            bandwidth_gb_s: ds(
                1792.0,
                "NVIDIA RTX PRO 6000 Blackwell datasheet: 1,792 GB/s GDDR7",
            ),
            capacity: reported_mib(
                97887.0,
                "nvidia-smi on an RTX PRO 6000 Server Edition: 97,887 MiB (aiconfigurator-core 0.12.0)",
            ),
            memory_type: "GDDR7",
            unified_memory: false,
            sm_count: Some(ds(
                188.0,
                "NVIDIA RTX PRO 6000 Blackwell datasheet: 24,064 CUDA cores / 128 per SM",
            )),
            l2_mib: None,
            boost_clock_mhz: Some(ds(
                2430.0,
                "the observed max SM clock recorded by NVIDIA (aiconfigurator-core 0.12.0)",
            )),
            power_watts: Some(ds(
                600.0,
                "NVIDIA RTX PRO 6000 Blackwell Server Edition datasheet",
            )),
            block_scaled_mma: true,
            // NVIDIA's figures scaled to the clock it observed; FP64 is not published.
            peaks: vec![
                (
                    Math::Fp32,
                    Figure::new(
                        117.0,
                        d("24,064 CUDA cores x 2 FLOP x 2.43 GHz; unverified"),
                    ),
                ),
                (
                    Math::Fp16,
                    ds(
                        467.8,
                        "NVIDIA RTX PRO 6000 Blackwell Server Edition, dense at the observed 2,430 MHz (aiconfigurator-core 0.12.0 systems/rtx_pro_6000_server.yaml)",
                    ),
                ),
                (
                    Math::Bf16,
                    ds(
                        467.8,
                        "NVIDIA RTX PRO 6000 Blackwell Server Edition, dense at the observed 2,430 MHz (aiconfigurator-core 0.12.0 systems/rtx_pro_6000_server.yaml)",
                    ),
                ),
                (
                    Math::Fp8,
                    ds(
                        935.6,
                        "NVIDIA RTX PRO 6000 Blackwell Server Edition, dense at the observed 2,430 MHz (aiconfigurator-core 0.12.0 systems/rtx_pro_6000_server.yaml)",
                    ),
                ),
                (
                    Math::Fp6,
                    Figure::new(
                        935.6,
                        d("the FP8 rate, as on every Blackwell part; unverified"),
                    ),
                ),
                (
                    Math::Int8,
                    ds(
                        935.6,
                        "NVIDIA RTX PRO 6000 Blackwell Server Edition, dense at the observed 2,430 MHz (aiconfigurator-core 0.12.0 systems/rtx_pro_6000_server.yaml)",
                    ),
                ),
                (
                    Math::Fp4,
                    ds(
                        1871.2,
                        "NVIDIA RTX PRO 6000 Blackwell Server Edition, dense at the observed 2,430 MHz (aiconfigurator-core 0.12.0 systems/rtx_pro_6000_server.yaml)",
                    ),
                ),
            ],
        },
        Entry {
            key: "mi300x",
            name: "AMD Instinct MI300X",
            architecture: "CDNA 3 (gfx942)",
            bandwidth_gb_s: ds(5300.0, "AMD Instinct MI300X data sheet, dense"),
            capacity: gib(192.0, "AMD Instinct MI300X data sheet, dense"),
            memory_type: "HBM3",
            unified_memory: false,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: Some(ds(2100.0, "AMD Instinct MI300X data sheet, dense")),
            power_watts: Some(ds(750.0, "AMD Instinct MI300X data sheet, dense")),
            block_scaled_mma: false,
            // 304 compute units, not SMs: the SM count is left out. No MX block-scaled math on CDNA 3.
            peaks: vec![
                (
                    Math::Fp64,
                    ds(163.4, "AMD Instinct MI300X data sheet: FP64 matrix"),
                ),
                (
                    Math::Fp32,
                    ds(163.4, "AMD Instinct MI300X data sheet: FP32 matrix"),
                ),
                (
                    Math::Tf32,
                    ds(653.7, "AMD Instinct MI300X data sheet, dense"),
                ),
                (
                    Math::Fp16,
                    ds(1307.4, "AMD Instinct MI300X data sheet, dense"),
                ),
                (
                    Math::Bf16,
                    ds(1307.4, "AMD Instinct MI300X data sheet, dense"),
                ),
                (
                    Math::Fp8,
                    ds(2614.9, "AMD Instinct MI300X data sheet, dense"),
                ),
                (
                    Math::Int8,
                    ds(2614.9, "AMD Instinct MI300X data sheet, dense"),
                ),
            ],
        },
        Entry {
            key: "mi325x",
            name: "AMD Instinct MI325X",
            architecture: "CDNA 3 (gfx942)",
            bandwidth_gb_s: ds(6000.0, "AMD Instinct MI325X data sheet, dense"),
            capacity: gib(256.0, "AMD Instinct MI325X data sheet, dense"),
            memory_type: "HBM3E",
            unified_memory: false,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: Some(ds(2100.0, "AMD Instinct MI325X data sheet, dense")),
            power_watts: Some(ds(1000.0, "AMD Instinct MI325X data sheet, dense")),
            block_scaled_mma: false,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(163.4, "AMD Instinct MI325X data sheet: FP64 matrix"),
                ),
                (
                    Math::Fp32,
                    ds(163.4, "AMD Instinct MI325X data sheet: FP32 matrix"),
                ),
                (
                    Math::Tf32,
                    ds(653.7, "AMD Instinct MI325X data sheet, dense"),
                ),
                (
                    Math::Fp16,
                    ds(1307.4, "AMD Instinct MI325X data sheet, dense"),
                ),
                (
                    Math::Bf16,
                    ds(1307.4, "AMD Instinct MI325X data sheet, dense"),
                ),
                (
                    Math::Fp8,
                    ds(2614.9, "AMD Instinct MI325X data sheet, dense"),
                ),
                (
                    Math::Int8,
                    ds(2614.9, "AMD Instinct MI325X data sheet, dense"),
                ),
            ],
        },
        Entry {
            key: "mi355x",
            name: "AMD Instinct MI355X",
            architecture: "CDNA 4 (gfx950)",
            bandwidth_gb_s: ds(8000.0, "AMD Instinct MI355X data sheet, dense"),
            capacity: gib(288.0, "AMD Instinct MI355X data sheet, dense"),
            memory_type: "HBM3E",
            unified_memory: false,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: Some(ds(2400.0, "AMD Instinct MI355X data sheet, dense")),
            power_watts: Some(ds(1400.0, "AMD Instinct MI355X data sheet, dense")),
            block_scaled_mma: true,
            // CDNA 4 runs MXFP6 and MXFP4 natively (OCP MX block scales).
            peaks: vec![
                (
                    Math::Fp64,
                    ds(78.6, "AMD Instinct MI355X data sheet: FP64 vector"),
                ),
                (
                    Math::Fp32,
                    ds(157.3, "AMD Instinct MI355X data sheet: FP32 vector"),
                ),
                (
                    Math::Fp16,
                    ds(2516.6, "AMD Instinct MI355X data sheet, dense"),
                ),
                (
                    Math::Bf16,
                    ds(2516.6, "AMD Instinct MI355X data sheet, dense"),
                ),
                (
                    Math::Fp8,
                    ds(5033.2, "AMD Instinct MI355X data sheet, dense"),
                ),
                (
                    Math::Int8,
                    ds(5033.2, "AMD Instinct MI355X data sheet, dense"),
                ),
                (
                    Math::Fp6,
                    ds(10066.3, "AMD Instinct MI355X data sheet: MXFP6, dense"),
                ),
                (
                    Math::Fp4,
                    ds(10066.3, "AMD Instinct MI355X data sheet: MXFP4, dense"),
                ),
            ],
        },
        Entry {
            key: "mi350x",
            name: "AMD Instinct MI350X",
            architecture: "CDNA 4 (gfx950)",
            bandwidth_gb_s: ds(8000.0, "AMD Instinct MI350X data sheet, dense"),
            capacity: gib(288.0, "AMD Instinct MI350X data sheet, dense"),
            memory_type: "HBM3E",
            unified_memory: false,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: Some(ds(2200.0, "AMD Instinct MI350X data sheet, dense")),
            power_watts: Some(ds(1000.0, "AMD Instinct MI350X data sheet, dense")),
            block_scaled_mma: true,
            peaks: vec![
                (
                    Math::Fp64,
                    ds(72.1, "AMD Instinct MI350X data sheet: FP64 vector"),
                ),
                (
                    Math::Fp32,
                    ds(144.2, "AMD Instinct MI350X data sheet: FP32 vector"),
                ),
                (
                    Math::Fp16,
                    ds(2306.9, "AMD Instinct MI350X data sheet, dense"),
                ),
                (
                    Math::Bf16,
                    ds(2306.9, "AMD Instinct MI350X data sheet, dense"),
                ),
                (
                    Math::Fp8,
                    ds(4613.7, "AMD Instinct MI350X data sheet, dense"),
                ),
                (
                    Math::Int8,
                    ds(4613.7, "AMD Instinct MI350X data sheet, dense"),
                ),
                (
                    Math::Fp6,
                    ds(9227.5, "AMD Instinct MI350X data sheet: MXFP6, dense"),
                ),
                (
                    Math::Fp4,
                    ds(9227.5, "AMD Instinct MI350X data sheet: MXFP4, dense"),
                ),
            ],
        },
        Entry {
            key: "gaudi3",
            name: "Intel Gaudi 3 (OAM)",
            architecture: "Gaudi 3",
            bandwidth_gb_s: ds(
                3700.0,
                "Intel Gaudi 3 AI accelerator white paper (OAM HL-325L)",
            ),
            capacity: gib(
                128.0,
                "Intel Gaudi 3 AI accelerator white paper (OAM HL-325L)",
            ),
            memory_type: "HBM2e",
            unified_memory: false,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: Some(ds(
                900.0,
                "Intel Gaudi 3 AI accelerator white paper (OAM HL-325L)",
            )),
            block_scaled_mma: false,
            // Intel publishes matrix BF16 and FP8: FP32 and INT8 matrix rates are left out.
            peaks: vec![
                (
                    Math::Bf16,
                    ds(1835.0, "Intel Gaudi 3 white paper: BF16 matrix"),
                ),
                (
                    Math::Fp16,
                    Figure::new(
                        1835.0,
                        d("the BF16 matrix rate: the MME takes both 16-bit types; unverified"),
                    ),
                ),
                (
                    Math::Fp8,
                    ds(1835.0, "Intel Gaudi 3 white paper: FP8 matrix"),
                ),
            ],
        },
        Entry {
            key: "tpu-v5e",
            name: "Google TPU v5e",
            architecture: "TPU v5e",
            bandwidth_gb_s: ds(819.0, "Google Cloud TPU v5e documentation (per chip)"),
            capacity: gib(16.0, "Google Cloud TPU v5e documentation (per chip)"),
            memory_type: "HBM2",
            unified_memory: false,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: None,
            block_scaled_mma: false,
            // Google publishes BF16 and INT8: no FP8 on v5e, no FP32 matrix rate.
            peaks: vec![
                (
                    Math::Bf16,
                    ds(197.0, "Google Cloud TPU v5e documentation (per chip)"),
                ),
                (
                    Math::Fp16,
                    Figure::new(
                        197.0,
                        d("the BF16 rate: a TPU has no FP16 matrix unit, FP16 runs as BF16"),
                    ),
                ),
                (
                    Math::Int8,
                    ds(394.0, "Google Cloud TPU v5e documentation (per chip)"),
                ),
            ],
        },
        Entry {
            key: "tpu-v6e",
            name: "Google TPU v6e (Trillium)",
            architecture: "TPU v6e",
            bandwidth_gb_s: ds(
                1640.0,
                "Google Cloud TPU v6e (Trillium) documentation (per chip)",
            ),
            capacity: gib(
                32.0,
                "Google Cloud TPU v6e (Trillium) documentation (per chip)",
            ),
            memory_type: "HBM",
            unified_memory: false,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: None,
            block_scaled_mma: false,
            // Google publishes BF16 and INT8; no FP32 matrix rate.
            peaks: vec![
                (
                    Math::Bf16,
                    ds(
                        918.0,
                        "Google Cloud TPU v6e (Trillium) documentation (per chip)",
                    ),
                ),
                (
                    Math::Fp16,
                    Figure::new(
                        918.0,
                        d("the BF16 rate: a TPU has no FP16 matrix unit, FP16 runs as BF16"),
                    ),
                ),
                (
                    Math::Int8,
                    ds(
                        1836.0,
                        "Google Cloud TPU v6e (Trillium) documentation (per chip)",
                    ),
                ),
            ],
        },
        Entry {
            key: "m4-pro",
            name: "Apple M4 Pro (20-core GPU)",
            architecture: "Apple GPU (Metal)",
            bandwidth_gb_s: ds(273.0, "Apple M4 Pro technical specifications"),
            capacity: gib(
                64.0,
                "Apple M4 Pro technical specifications: largest configuration",
            ),
            memory_type: "LPDDR5X",
            unified_memory: true,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: None,
            block_scaled_mma: false,
            // Bandwidth and capacity are published; compute is derived, and says so.
            peaks: vec![
                (
                    Math::Fp32,
                    Figure::new(
                        8.1,
                        d(
                            "20 GPU cores x 128 ALUs x 2 FLOP x ~1578 MHz; Apple publishes no FLOP rate, unverified",
                        ),
                    ),
                ),
                (
                    Math::Fp16,
                    Figure::new(
                        8.1,
                        d("the FP32 rate: Apple GPUs run FP16 at the FP32 rate; unverified"),
                    ),
                ),
            ],
        },
        Entry {
            key: "m4-max",
            name: "Apple M4 Max (40-core GPU)",
            architecture: "Apple GPU (Metal)",
            bandwidth_gb_s: ds(546.0, "Apple M4 Max technical specifications"),
            capacity: gib(
                128.0,
                "Apple M4 Max technical specifications: largest configuration",
            ),
            memory_type: "LPDDR5X",
            unified_memory: true,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: None,
            block_scaled_mma: false,
            // Bandwidth and capacity are published; compute is derived, and says so.
            peaks: vec![
                (
                    Math::Fp32,
                    Figure::new(
                        16.2,
                        d(
                            "40 GPU cores x 128 ALUs x 2 FLOP x ~1578 MHz; Apple publishes no FLOP rate, unverified",
                        ),
                    ),
                ),
                (
                    Math::Fp16,
                    Figure::new(
                        16.2,
                        d("the FP32 rate: Apple GPUs run FP16 at the FP32 rate; unverified"),
                    ),
                ),
            ],
        },
        Entry {
            key: "m3-ultra",
            name: "Apple M3 Ultra (80-core GPU)",
            architecture: "Apple GPU (Metal)",
            bandwidth_gb_s: ds(819.0, "Apple M3 Ultra technical specifications"),
            capacity: gib(
                512.0,
                "Apple M3 Ultra technical specifications: largest configuration",
            ),
            memory_type: "LPDDR5X",
            unified_memory: true,
            sm_count: None,
            l2_mib: None,
            boost_clock_mhz: None,
            power_watts: None,
            block_scaled_mma: false,
            // Bandwidth and capacity are published; compute is derived, and says so.
            peaks: vec![
                (
                    Math::Fp32,
                    Figure::new(
                        28.7,
                        d(
                            "80 GPU cores x 128 ALUs x 2 FLOP x ~1400 MHz; Apple publishes no FLOP rate, unverified",
                        ),
                    ),
                ),
                (
                    Math::Fp16,
                    Figure::new(
                        28.7,
                        d("the FP32 rate: Apple GPUs run FP16 at the FP32 rate; unverified"),
                    ),
                ),
            ],
        },
    ]
}

/// Keys of the built-in devices, in display order.
pub fn keys() -> Vec<&'static str> {
    entries().iter().map(|e| e.key).collect()
}

fn entry(key: &str) -> Option<Entry> {
    entries().into_iter().find(|e| e.key == key)
}

/// Looks a device up by key (case-insensitive; `h100` and `a100` name the SXM parts).
pub fn get(key: &str) -> Result<Hardware, ModelError> {
    let wanted = key.trim().to_ascii_lowercase();
    let resolved = match wanted.as_str() {
        "h100" => "h100-sxm",
        "a100" => "a100-sxm",
        "b10" | "dgx-spark" => "gb10",
        "orin" | "jetson-orin" => "jetson-agx-orin",
        other => other,
    };
    entry(resolved)
        .map(Entry::build)
        .ok_or_else(|| ModelError::UnknownHardware(key.trim().to_string()))
}

/// The registry key of a device as its driver or a profiler names it
/// (`NVIDIA H100 80GB HBM3`, `NVIDIA B200`), checked against its CUDA compute capability
/// when that is known; `None` for a device the registry does not list (a variant with
/// other clocks or memory, such as the A100 PCIe 40GB or the RTX 5090, must not borrow another
/// part's datasheet).
pub fn key_for_device(name: &str, compute_capability: Option<(u32, u32)>) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    let has = |s: &str| name.contains(s);
    let cc_is = |want: (u32, u32)| compute_capability.is_none_or(|cc| cc == want);
    let key = if has("gb10") && cc_is((12, 1)) {
        "gb10"
    } else if has("gb300") && cc_is((10, 3)) {
        "gb300"
    } else if has("b300") && cc_is((10, 3)) {
        "b300"
    } else if has("gb200") && cc_is((10, 0)) {
        "gb200"
    } else if has("b200") && cc_is((10, 0)) {
        "b200"
    } else if has("h200") && has("nvl") && cc_is((9, 0)) {
        "h200-nvl"
    } else if has("h200") && cc_is((9, 0)) {
        "h200"
    } else if has("h100") && has("nvl") && cc_is((9, 0)) {
        "h100-nvl"
    } else if has("h100") && has("pcie") && cc_is((9, 0)) {
        "h100-pcie"
    } else if has("h100") && (has("sxm") || has("hbm3")) && cc_is((9, 0)) {
        "h100-sxm"
    } else if has("h20") && !has("h200") && cc_is((9, 0)) {
        "h20"
    } else if has("a100") && has("sxm") && has("40gb") && cc_is((8, 0)) {
        "a100-sxm-40gb"
    } else if has("a100") && has("sxm") && cc_is((8, 0)) {
        "a100-sxm"
    } else if has("a100") && has("pcie") && has("80gb") && cc_is((8, 0)) {
        "a100-pcie"
    } else if has("l40s") && cc_is((8, 9)) {
        "l40s"
    } else if name.trim_end().ends_with(" l4") && cc_is((8, 9)) {
        "l4"
    } else if has("rtx 4090") && cc_is((8, 9)) {
        "rtx-4090"
    } else if has("rtx pro 6000") && has("blackwell") && cc_is((12, 0)) {
        "rtx-pro-6000"
    } else if has("orin") && cc_is((8, 7)) {
        "jetson-agx-orin"
    } else {
        return None;
    };
    Some(key)
}

/// Every built-in device, in display order.
pub fn all() -> Vec<Hardware> {
    entries().into_iter().map(Entry::build).collect()
}
