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

use super::{
    DeviceClass, Figure, Hardware, Interconnect, Link, LinkKind, MemoryTier, Peak, Source, Vendor,
};

/// Blackwell Ultra's SM count: NVIDIA's technical blog "Inside NVIDIA Blackwell Ultra" (2025)
/// gives 160 SMs for the full GPU; B300 and GB300 may enable fewer, as B200 enables 148.
const BLACKWELL_ULTRA_SMS: &str = "160 SMs in the full Blackwell Ultra GPU (NVIDIA technical blog, Inside NVIDIA Blackwell Ultra, 2025); the product may enable fewer, as B200 enables 148 of Blackwell's; unverified";
const H100_SXM: &str = "NVIDIA H100 Tensor Core GPU datasheet (SXM5): tensor-core rates printed with sparsity, halved to dense; FP64 and FP32 as printed";
const H100_PCIE: &str = "NVIDIA H100 Tensor Core GPU datasheet (PCIe): tensor-core rates printed with sparsity, halved to dense; FP64 and FP32 as printed";
const H100_SXM_DOC: &str = "NVIDIA H100 Tensor Core GPU datasheet (SXM5)";
const H100_PCIE_DOC: &str = "NVIDIA H100 Tensor Core GPU datasheet (PCIe)";
const H200_DOC: &str = "NVIDIA H200 Tensor Core GPU datasheet (SXM)";
const GH200_DOC: &str = "NVIDIA GH200 Grace Hopper Superchip datasheet";
const HOPPER_WP: &str = "NVIDIA H100 Tensor Core GPU Architecture whitepaper";
const H200: &str = "NVIDIA H200 Tensor Core GPU datasheet (SXM): tensor-core rates printed with sparsity, halved to dense; FP64 and FP32 as printed";
const A100: &str = "NVIDIA A100 Tensor Core GPU datasheet (SXM4 80GB): the dense figure, printed beside the sparse one";
const AMPERE_WP: &str = "NVIDIA A100 Tensor Core GPU Architecture whitepaper";
const L40S: &str =
    "NVIDIA L40S datasheet: tensor-core rates printed with sparsity, halved to dense";
const B200: &str = "NVIDIA HGX B200 datasheet, per GPU: the 8-GPU dense figure / 8 (the sparse figure is twice it)";
const GB200: &str = "NVIDIA GB200 NVL72 datasheet, per GPU: the 72-GPU dense figure / 72 (the sparse figure is twice it)";
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
const RTX_5090: &str = "NVIDIA RTX Blackwell GPU architecture whitepaper, GeForce RTX 5090";
const GH200: &str = "NVIDIA GH200 Grace Hopper Superchip datasheet: tensor-core rates printed with sparsity, halved to dense; FP64 and FP32 as printed";
const GRACE_LPDDR5X: &str = "NVIDIA GH200 Grace Hopper Superchip datasheet: up to 480 GB LPDDR5X at up to 512 GB/s, NVLink-C2C 900 GB/s";
const DGX_STATION: &str =
    "NVIDIA DGX Station datasheet (GB300 Grace Blackwell Ultra Desktop Superchip)";
const THOR: &str = "NVIDIA Jetson AGX Thor (T5000 module) datasheet";
const STRIX_HALO: &str = "AMD Ryzen AI Max+ 395 product specifications";

/// Several devices joined: `scale_up` at `up_gb_s` per GPU per direction among `domain`
/// GPUs, and a network of `out_gb_s` per GPU per direction beyond them.
const fn joined(
    scale_up: LinkKind,
    up_gb_s: f64,
    domain: u32,
    out_gb_s: Option<f64>,
    text: &'static str,
) -> Option<Interconnect> {
    let scale_out = match out_gb_s {
        Some(gb_s) => Some(Link {
            kind: LinkKind::Network,
            bandwidth: Figure::new(BytesPerSecond::gb_s(gb_s), Source::datasheet(text)),
        }),
        None => None,
    };
    Some(Interconnect {
        scale_up: Link {
            kind: scale_up,
            bandwidth: Figure::new(BytesPerSecond::gb_s(up_gb_s), Source::datasheet(text)),
        },
        domain: Figure::new(domain, Source::datasheet(text)),
        scale_out,
    })
}

/// NVIDIA's per-GPU node files (PyPI aiconfigurator-core 0.12.0, Apache-2.0) give each
/// link's bandwidth per GPU and direction and the GPUs per node.
const AIC_H100_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/h100_sxm.yaml: NVLink 450 GB/s per GPU per direction (the datasheet's 900 GB/s bidirectional), 8 GPUs per HGX node, ConnectX-7 400 Gb/s per GPU";
const AIC_H200_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/h200_sxm.yaml: NVLink 450 GB/s per GPU per direction, 8 GPUs per HGX node, ConnectX-7 400 Gb/s per GPU";
const AIC_B200_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/b200_sxm.yaml: NVLink 900 GB/s per GPU per direction (1.8 TB/s bidirectional), 8 GPUs per HGX node, ConnectX-8 800 Gb/s per GPU";
const AIC_B300_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/b300_sxm.yaml: NVLink 900 GB/s per GPU per direction, 8 GPUs per HGX node, ConnectX-8 800 Gb/s per GPU";
const AIC_GB200_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/gb200.yaml and the GB200 NVL72 datasheet: NVLink 900 GB/s per GPU per direction through NVSwitch across the 72-GPU rack, ConnectX-8 800 Gb/s per GPU between racks";
const AIC_GB300_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/gb300.yaml and the GB300 NVL72 datasheet: NVLink 900 GB/s per GPU per direction through NVSwitch across the 72-GPU rack, ConnectX-8 800 Gb/s per GPU between racks";
const AIC_A100_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/a100_sxm.yaml: NVLink 300 GB/s per GPU per direction (the datasheet's 600 GB/s bidirectional), 8 GPUs per HGX node, 200 Gb/s per GPU";
const AIC_H100_PCIE_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/h100_pcie.yaml: PCIe Gen5 x16, 64 GB/s per direction, 8 GPUs per node, 400 Gb/s per GPU";
const AIC_A100_PCIE_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/a100_pcie.yaml: PCIe Gen4 x16, 32 GB/s per direction, 8 GPUs per node, 200 Gb/s per GPU";
const AIC_L40S_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/l40s.yaml: PCIe Gen4 x16, 32 GB/s per direction, 8 GPUs per node, 400 Gb/s per GPU";
const AIC_L4_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/l4.yaml: PCIe Gen4 x16, 32 GB/s per direction, 8 GPUs per node, 200 Gb/s per GPU";
const AIC_RTX_PRO_NODE: &str = "NVIDIA aiconfigurator-core 0.12.0 systems/rtx_pro_6000_server.yaml: PCIe Gen5 x16, 64 GB/s per direction, 8 GPUs per node, 400 Gb/s per GPU";
const H100_NVL_LINK: &str = "NVIDIA H100 NVL datasheet: NVLink bridge 600 GB/s bidirectional between a pair of cards (300 GB/s each way)";
const H200_NVL_LINK: &str = "NVIDIA H200 NVL datasheet: 2- or 4-way NVLink bridge, 900 GB/s per GPU bidirectional (450 GB/s each way)";
const H20_LINK: &str =
    "NVIDIA H20 product brief: NVLink 900 GB/s bidirectional (450 GB/s each way), 8-GPU HGX board";
const MI300X_LINK: &str = "AMD Instinct MI300X datasheet: 7 Infinity Fabric links of 128 GB/s bidirectional to the other 7 GPUs of the platform (64 GB/s each way per peer, 448 GB/s each way in all)";
const MI325X_LINK: &str = "AMD Instinct MI325X datasheet: 7 Infinity Fabric links of 128 GB/s bidirectional to the other 7 GPUs of the platform (64 GB/s each way per peer, 448 GB/s each way in all)";

const fn ds(value: f64, text: &'static str) -> Figure<f64> {
    Figure::new(value, Source::datasheet(text))
}

/// A vendor's "GB" of device memory, read as GiB (see the module comment).
const fn gib(value: f64, text: &'static str) -> Figure<Bytes> {
    Figure::new(Bytes::gib(value), Source::datasheet(text))
}

/// Memory as `nvidia-smi` reports it, MiB.
const fn reported_mib(value: f64, text: &'static str) -> Figure<Bytes> {
    Figure::new(Bytes::mib(value), Source::datasheet(text))
}

/// A Grace CPU's LPDDR5X as a second memory for the GPU beside it.
const fn grace_lpddr5x(capacity_gb: f64, bandwidth_gb_s: f64, text: &'static str) -> SecondMemory {
    SecondMemory {
        memory_type: "LPDDR5X",
        capacity: Figure::new(Bytes::gib(capacity_gb), Source::datasheet(text)),
        bandwidth: Figure::new(
            BytesPerSecond::gb_s(bandwidth_gb_s),
            Source::datasheet(text),
        ),
        link: "the Grace CPU's memory, over NVLink-C2C (900 GB/s)",
    }
}

/// A [`MemoryTier`] as the table holds it.
struct SecondMemory {
    memory_type: &'static str,
    capacity: Figure<Bytes>,
    bandwidth: Figure<BytesPerSecond>,
    link: &'static str,
}

/// A GH200's dense rates, one set for both memory options as the datasheet prints them.
const GH200_PEAKS: &[(Math, Figure<f64>)] = &[
    (
        Math::Fp64,
        ds(67.0, "NVIDIA GH200 datasheet: FP64 Tensor Core"),
    ),
    (Math::Fp32, ds(67.0, GH200)),
    (Math::Tf32, ds(494.5, GH200)),
    (Math::Fp16, ds(989.5, GH200)),
    (Math::Bf16, ds(989.5, GH200)),
    (Math::Fp8, ds(1979.0, GH200)),
    (Math::Int8, ds(1979.0, GH200)),
];

/// A GH200: its Hopper GPU (one set of rates for both memory options, as the datasheet
/// prints them) with `capacity_gb` of `memory_type` at `bandwidth_gb_s`, and the Grace CPU's
/// LPDDR5X beside it.
const fn gh200(
    key: &'static str,
    name: &'static str,
    aliases: &'static [&'static str],
    bandwidth_gb_s: f64,
    capacity_gb: f64,
    memory_type: &'static str,
) -> Entry {
    Entry {
        key,
        name,
        aliases,
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Hopper",
        sm: Some(90),
        bandwidth_gb_s: ds(bandwidth_gb_s, GH200_DOC),
        capacity: gib(capacity_gb, GH200_DOC),
        memory_type,
        unified_memory: false,
        second_memory: Some(grace_lpddr5x(480.0, 512.0, GRACE_LPDDR5X)),
        sm_count: Some(ds(132.0, HOPPER_WP)),
        l2_mib: Some(ds(50.0, HOPPER_WP)),
        boost_clock_mhz: Some(ds(1980.0, HOPPER_WP)),
        power_watts: Some(ds(
            1000.0,
            "NVIDIA GH200 datasheet: the whole module (CPU, GPU, memory), configurable 450-1000 W",
        )),
        block_scaled_mma: false,
        interconnect: None,
        peaks: GH200_PEAKS,
    }
}

struct Entry {
    key: &'static str,
    name: &'static str,
    /// Other keys that name the device (short forms, partner systems built on it).
    aliases: &'static [&'static str],
    vendor: Vendor,
    class: DeviceClass,
    /// Architecture name (`Hopper`).
    architecture: &'static str,
    /// CUDA compute capability as in `sm_90` (NVIDIA's CUDA GPUs compute capability table);
    /// `None` for devices that are not CUDA GPUs.
    sm: Option<u32>,
    bandwidth_gb_s: Figure<f64>,
    capacity: Figure<Bytes>,
    memory_type: &'static str,
    unified_memory: bool,
    second_memory: Option<SecondMemory>,
    sm_count: Option<Figure<f64>>,
    l2_mib: Option<Figure<f64>>,
    boost_clock_mhz: Option<Figure<f64>>,
    power_watts: Option<Figure<f64>>,
    block_scaled_mma: bool,
    /// (operation type, dense TFLOP/s, source)
    peaks: &'static [(Math, Figure<f64>)],
    interconnect: Option<Interconnect>,
}

impl Entry {
    fn build(&self) -> Hardware {
        Hardware {
            key: self.key.into(),
            name: self.name.into(),
            aliases: self.aliases.iter().map(|a| a.to_string()).collect(),
            vendor: self.vendor,
            class: self.class,
            architecture: super::architecture_label(self.architecture, self.sm),
            sm: self.sm,
            memory_bandwidth: Figure::new(
                BytesPerSecond::gb_s(self.bandwidth_gb_s.value),
                self.bandwidth_gb_s.source.clone(),
            ),
            memory_capacity: self.capacity.clone(),
            memory_type: self.memory_type.into(),
            unified_memory: self.unified_memory,
            second_memory: self.second_memory.as_ref().map(|m| MemoryTier {
                memory_type: m.memory_type.into(),
                capacity: m.capacity.clone(),
                bandwidth: m.bandwidth.clone(),
                link: m.link.into(),
            }),
            sm_count: self
                .sm_count
                .as_ref()
                .map(|f| Figure::new(f.value as u32, f.source.clone())),
            l2_cache: self
                .l2_mib
                .as_ref()
                .map(|f| Figure::new(Bytes::mib(f.value), f.source.clone())),
            boost_clock_mhz: self.boost_clock_mhz.clone(),
            power_watts: self.power_watts.clone(),
            block_scaled_mma: self.block_scaled_mma,
            peaks: self
                .peaks
                .iter()
                .map(|(math, f)| Peak {
                    math: *math,
                    rate: Figure::new(FlopsPerSecond::tflops(f.value), f.source.clone()),
                })
                .collect(),
            interconnect: self.interconnect.clone(),
        }
    }
}

/// A figure derived from published ones by the rule in `text`.
const fn d(text: &'static str) -> Source {
    Source::derived(text)
}

/// Every built-in device, in display order: the one list, each key written once.
static ENTRIES: &[Entry] = &[
    Entry {
        key: "gb10",
        name: "NVIDIA GB10 (DGX Spark)",
        aliases: &[
            "dgx-spark",
            "b10",
            "asus-ascent-gx10",
            "dell-pro-max-gb10",
            "lenovo-thinkstation-pgx",
            "hp-zgx-nano",
            "msi-edgexpert",
            "acer-veriton-gn100",
            "gigabyte-ai-top-atom",
        ],
        vendor: Vendor::Nvidia,
        class: DeviceClass::Workstation,
        architecture: "Blackwell",
        sm: Some(121),
        bandwidth_gb_s: ds(273.0, GB10),
        capacity: gib(128.0, GB10),
        memory_type: "LPDDR5x",
        unified_memory: true,
        second_memory: None,
        sm_count: Some(Figure::new(
            48.0,
            d("6,144 CUDA cores (DGX Spark datasheet) / 128 per SM"),
        )),
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: Some(ds(140.0, GB10_HOT_CHIPS)),
        block_scaled_mma: true,
        interconnect: None,
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Blackwell",
        sm: Some(100),
        bandwidth_gb_s: ds(8000.0, "NVIDIA GB200 NVL72 datasheet: 576 TB/s / 72 GPUs"),
        capacity: reported_mib(189_471.0, AIC_GB200),
        memory_type: "HBM3e",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(Figure::new(
            148.0,
            d(
                "the B200's 148 SMs (NVIDIA Blackwell architecture technical brief); NVIDIA publishes no count for the GB200's GPU, which may enable more; unverified",
            ),
        )),
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: Some(ds(1200.0, "NVIDIA GB200 NVL72 datasheet (per GPU)")),
        block_scaled_mma: true,
        interconnect: joined(LinkKind::NvLink(5), 900.0, 72, Some(100.0), AIC_GB200_NODE),
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Blackwell",
        sm: Some(100),
        bandwidth_gb_s: ds(7700.0, AIC_B200),
        capacity: gib(180.0, AIC_B200),
        memory_type: "HBM3e",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(ds(148.0, "NVIDIA Blackwell architecture technical brief")),
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: Some(ds(1000.0, "NVIDIA HGX B200 datasheet (per GPU)")),
        block_scaled_mma: true,
        interconnect: joined(LinkKind::NvLink(5), 900.0, 8, Some(100.0), AIC_B200_NODE),
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Blackwell Ultra",
        sm: Some(103),
        bandwidth_gb_s: ds(8000.0, GB300),
        capacity: reported_mib(284_208.0, GB300),
        memory_type: "HBM3e",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(Figure::new(160.0, d(BLACKWELL_ULTRA_SMS))),
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: Some(ds(1400.0, GB300)),
        block_scaled_mma: true,
        interconnect: joined(LinkKind::NvLink(5), 900.0, 72, Some(100.0), AIC_GB300_NODE),
        // FP64 is not published for Blackwell Ultra per GPU: left out, not borrowed.
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Blackwell Ultra",
        sm: Some(103),
        bandwidth_gb_s: ds(7750.0, B300),
        capacity: reported_mib(
            275_040.0,
            "nvidia-smi on a B300: 275,040 MiB (aiconfigurator-core 0.12.0 systems/b300_sxm.yaml)",
        ),
        memory_type: "HBM3e",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(Figure::new(160.0, d(BLACKWELL_ULTRA_SMS))),
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: Some(ds(1100.0, B300)),
        block_scaled_mma: true,
        interconnect: joined(LinkKind::NvLink(5), 900.0, 8, Some(100.0), AIC_B300_NODE),
        // FP64 is not published for Blackwell Ultra per GPU: left out, not borrowed.
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Hopper",
        sm: Some(90),
        bandwidth_gb_s: ds(4800.0, H200_DOC),
        capacity: gib(141.0, H200_DOC),
        memory_type: "HBM3e",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(ds(132.0, HOPPER_WP)),
        l2_mib: Some(ds(50.0, HOPPER_WP)),
        boost_clock_mhz: Some(ds(1980.0, HOPPER_WP)),
        power_watts: Some(ds(700.0, H200_DOC)),
        block_scaled_mma: false,
        interconnect: joined(LinkKind::NvLink(4), 450.0, 8, Some(50.0), AIC_H200_NODE),
        peaks: &[
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
        aliases: &["h100"],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Hopper",
        sm: Some(90),
        bandwidth_gb_s: ds(3350.0, H100_SXM_DOC),
        capacity: gib(80.0, H100_SXM_DOC),
        memory_type: "HBM3",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(ds(132.0, HOPPER_WP)),
        l2_mib: Some(ds(50.0, HOPPER_WP)),
        boost_clock_mhz: Some(ds(1980.0, HOPPER_WP)),
        power_watts: Some(ds(700.0, H100_SXM_DOC)),
        block_scaled_mma: false,
        interconnect: joined(LinkKind::NvLink(4), 450.0, 8, Some(50.0), AIC_H100_NODE),
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Hopper",
        sm: Some(90),
        bandwidth_gb_s: ds(2000.0, H100_PCIE_DOC),
        capacity: gib(80.0, H100_PCIE_DOC),
        memory_type: "HBM2e",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(ds(114.0, HOPPER_WP)),
        l2_mib: Some(ds(50.0, HOPPER_WP)),
        boost_clock_mhz: Some(ds(1755.0, HOPPER_WP)),
        power_watts: Some(ds(350.0, H100_PCIE_DOC)),
        block_scaled_mma: false,
        interconnect: joined(LinkKind::Pcie(5), 64.0, 8, Some(50.0), AIC_H100_PCIE_NODE),
        peaks: &[
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
        aliases: &["a100"],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Ampere",
        sm: Some(80),
        bandwidth_gb_s: ds(2039.0, A100),
        capacity: gib(80.0, A100),
        memory_type: "HBM2e",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(ds(108.0, AMPERE_WP)),
        l2_mib: Some(ds(40.0, AMPERE_WP)),
        boost_clock_mhz: Some(ds(1410.0, AMPERE_WP)),
        power_watts: Some(ds(400.0, A100)),
        block_scaled_mma: false,
        interconnect: joined(LinkKind::NvLink(3), 300.0, 8, Some(25.0), AIC_A100_NODE),
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Ada Lovelace",
        sm: Some(89),
        bandwidth_gb_s: ds(864.0, "NVIDIA L40S datasheet"),
        capacity: gib(48.0, "NVIDIA L40S datasheet"),
        memory_type: "GDDR6",
        unified_memory: false,
        second_memory: None,
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
        interconnect: joined(LinkKind::Pcie(4), 32.0, 8, Some(50.0), AIC_L40S_NODE),
        peaks: &[
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
        aliases: &["orin", "jetson-orin"],
        vendor: Vendor::Nvidia,
        class: DeviceClass::Edge,
        architecture: "Ampere",
        sm: Some(87),
        bandwidth_gb_s: ds(204.8, ORIN),
        capacity: gib(64.0, ORIN),
        memory_type: "LPDDR5",
        unified_memory: true,
        second_memory: None,
        sm_count: Some(Figure::new(
            16.0,
            d("2,048 CUDA cores (module datasheet) / 128 per SM"),
        )),
        l2_mib: Some(ds(4.0, "NVIDIA Jetson AGX Orin technical brief")),
        boost_clock_mhz: Some(ds(1300.0, ORIN)),
        power_watts: Some(ds(60.0, ORIN)),
        block_scaled_mma: false,
        interconnect: None,
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Ada Lovelace",
        sm: Some(89),
        bandwidth_gb_s: ds(300.0, "NVIDIA L4 datasheet"),
        capacity: gib(24.0, "NVIDIA L4 datasheet"),
        memory_type: "GDDR6",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(ds(58.0, "NVIDIA L4 product brief (AD104, 58 SMs)")),
        l2_mib: None,
        boost_clock_mhz: Some(ds(2040.0, "NVIDIA L4 product brief")),
        power_watts: Some(ds(72.0, "NVIDIA L4 datasheet")),
        block_scaled_mma: false,
        interconnect: joined(LinkKind::Pcie(4), 32.0, 8, Some(25.0), AIC_L4_NODE),
        // The L4 datasheet gives no FP64 rate: left out, not borrowed.
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Hopper",
        sm: Some(90),
        bandwidth_gb_s: ds(3900.0, "NVIDIA H100 NVL datasheet (per GPU)"),
        capacity: gib(94.0, "NVIDIA H100 NVL datasheet (per GPU)"),
        memory_type: "HBM3",
        unified_memory: false,
        second_memory: None,
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
        interconnect: joined(LinkKind::NvLinkBridge(4), 300.0, 2, None, H100_NVL_LINK),
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Hopper",
        sm: Some(90),
        bandwidth_gb_s: ds(4800.0, "NVIDIA H200 NVL datasheet"),
        capacity: gib(141.0, "NVIDIA H200 NVL datasheet"),
        memory_type: "HBM3e",
        unified_memory: false,
        second_memory: None,
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
        interconnect: joined(LinkKind::NvLinkBridge(4), 450.0, 4, None, H200_NVL_LINK),
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Hopper",
        sm: Some(90),
        bandwidth_gb_s: ds(4000.0, "NVIDIA HGX H20 specifications"),
        capacity: gib(96.0, "NVIDIA HGX H20 specifications"),
        memory_type: "HBM3",
        unified_memory: false,
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: Some(ds(400.0, "NVIDIA HGX H20 specifications")),
        block_scaled_mma: false,
        interconnect: joined(LinkKind::NvLink(4), 450.0, 8, None, H20_LINK),
        // Its SM count and FP64 rate are not published: left out.
        peaks: &[
            (
                Math::Fp32,
                ds(
                    44.0,
                    "NVIDIA HGX H20 specifications, the dense figure as printed",
                ),
            ),
            (
                Math::Tf32,
                ds(
                    74.0,
                    "NVIDIA HGX H20 specifications, the dense figure as printed",
                ),
            ),
            (
                Math::Fp16,
                ds(
                    148.0,
                    "NVIDIA HGX H20 specifications, the dense figure as printed",
                ),
            ),
            (
                Math::Bf16,
                ds(
                    148.0,
                    "NVIDIA HGX H20 specifications, the dense figure as printed",
                ),
            ),
            (
                Math::Fp8,
                ds(
                    296.0,
                    "NVIDIA HGX H20 specifications, the dense figure as printed",
                ),
            ),
            (
                Math::Int8,
                ds(
                    296.0,
                    "NVIDIA HGX H20 specifications, the dense figure as printed",
                ),
            ),
        ],
    },
    Entry {
        key: "a100-sxm-40gb",
        name: "NVIDIA A100 SXM4 40GB",
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Ampere",
        sm: Some(80),
        bandwidth_gb_s: ds(1555.0, "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB)"),
        capacity: gib(40.0, "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB)"),
        memory_type: "HBM2",
        unified_memory: false,
        second_memory: None,
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
            "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB)",
        )),
        block_scaled_mma: false,
        interconnect: joined(LinkKind::NvLink(3), 300.0, 8, Some(25.0), AIC_A100_NODE),
        peaks: &[
            (
                Math::Fp64,
                ds(19.5, "NVIDIA A100 datasheet: FP64 Tensor Core"),
            ),
            (
                Math::Fp32,
                ds(
                    19.5,
                    "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), the dense figure as printed",
                ),
            ),
            (
                Math::Tf32,
                ds(
                    156.0,
                    "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), the dense figure as printed",
                ),
            ),
            (
                Math::Fp16,
                ds(
                    312.0,
                    "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), the dense figure as printed",
                ),
            ),
            (
                Math::Bf16,
                ds(
                    312.0,
                    "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), the dense figure as printed",
                ),
            ),
            (
                Math::Int8,
                ds(
                    624.0,
                    "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB), the dense figure as printed",
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Ampere",
        sm: Some(80),
        bandwidth_gb_s: ds(1935.0, "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB)"),
        capacity: gib(80.0, "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB)"),
        memory_type: "HBM2e",
        unified_memory: false,
        second_memory: None,
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
            "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB)",
        )),
        block_scaled_mma: false,
        interconnect: joined(LinkKind::Pcie(4), 32.0, 8, Some(25.0), AIC_A100_PCIE_NODE),
        peaks: &[
            (
                Math::Fp64,
                ds(19.5, "NVIDIA A100 datasheet: FP64 Tensor Core"),
            ),
            (
                Math::Fp32,
                ds(
                    19.5,
                    "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), the dense figure as printed",
                ),
            ),
            (
                Math::Tf32,
                ds(
                    156.0,
                    "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), the dense figure as printed",
                ),
            ),
            (
                Math::Fp16,
                ds(
                    312.0,
                    "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), the dense figure as printed",
                ),
            ),
            (
                Math::Bf16,
                ds(
                    312.0,
                    "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), the dense figure as printed",
                ),
            ),
            (
                Math::Int8,
                ds(
                    624.0,
                    "NVIDIA A100 Tensor Core GPU datasheet (PCIe 80GB), the dense figure as printed",
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
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::Consumer,
        architecture: "Ada Lovelace",
        sm: Some(89),
        bandwidth_gb_s: ds(
            1008.0,
            "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090",
        ),
        capacity: gib(
            24.0,
            "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090",
        ),
        memory_type: "GDDR6X",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(ds(
            128.0,
            "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090",
        )),
        l2_mib: Some(ds(
            72.0,
            "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090",
        )),
        boost_clock_mhz: Some(ds(
            2520.0,
            "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090",
        )),
        power_watts: Some(ds(
            450.0,
            "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090",
        )),
        block_scaled_mma: false,
        interconnect: None,
        // Rates with FP32 accumulation, as inference GEMMs accumulate; FP64 is not published.
        peaks: &[
            (
                Math::Fp32,
                ds(
                    82.6,
                    "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, the dense figure as printed",
                ),
            ),
            (
                Math::Tf32,
                ds(
                    82.6,
                    "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, the dense figure as printed",
                ),
            ),
            (
                Math::Fp16,
                ds(
                    165.2,
                    "NVIDIA Ada Lovelace GPU architecture whitepaper, RTX 4090: FP16 with FP32 accumulate (GeForce runs it at half the FP16-accumulate 330.3), the dense figure as printed",
                ),
            ),
            (
                Math::Bf16,
                ds(
                    165.2,
                    "NVIDIA Ada Lovelace GPU architecture whitepaper, RTX 4090: BF16 with FP32 accumulate, the dense figure as printed",
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
                    "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, the dense figure as printed",
                ),
            ),
            (
                Math::Int4,
                ds(
                    1321.2,
                    "NVIDIA Ada Lovelace GPU architecture whitepaper, GeForce RTX 4090, the dense figure as printed",
                ),
            ),
        ],
    },
    Entry {
        key: "rtx-pro-6000",
        name: "NVIDIA RTX PRO 6000 Blackwell Server Edition",
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::DataCentre,
        architecture: "Blackwell",
        sm: Some(120),
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
        second_memory: None,
        sm_count: Some(ds(
            188.0,
            "NVIDIA RTX PRO 6000 Blackwell datasheet: 24,064 CUDA cores / 128 per SM",
        )),
        l2_mib: Some(ds(
            128.0,
            "NVIDIA RTX Blackwell GPU architecture whitepaper: GB202's 128 MB L2, all of it enabled on the RTX PRO 6000 (its GTC 2025 launch coverage)",
        )),
        boost_clock_mhz: Some(ds(
            2430.0,
            "the observed max SM clock recorded by NVIDIA (aiconfigurator-core 0.12.0)",
        )),
        power_watts: Some(ds(
            600.0,
            "NVIDIA RTX PRO 6000 Blackwell Server Edition datasheet",
        )),
        block_scaled_mma: true,
        interconnect: joined(LinkKind::Pcie(5), 64.0, 8, Some(50.0), AIC_RTX_PRO_NODE),
        // NVIDIA's figures scaled to the clock it observed; FP64 is not published.
        peaks: &[
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
    gh200(
        "gh200",
        "NVIDIA GH200 Grace Hopper (96 GB HBM3)",
        &["gh200-96gb"],
        4000.0,
        96.0,
        "HBM3",
    ),
    gh200(
        "gh200-144gb",
        "NVIDIA GH200 Grace Hopper (144 GB HBM3e)",
        &[],
        4900.0,
        144.0,
        "HBM3e",
    ),
    Entry {
        key: "dgx-station",
        name: "NVIDIA DGX Station (GB300 Desktop Superchip)",
        aliases: &["dgx-station-gb300"],
        vendor: Vendor::Nvidia,
        class: DeviceClass::Workstation,
        architecture: "Blackwell Ultra",
        sm: Some(103),
        bandwidth_gb_s: ds(8000.0, DGX_STATION),
        capacity: gib(
            288.0,
            "NVIDIA DGX Station datasheet: up to 288 GB HBM3e at 8 TB/s",
        ),
        memory_type: "HBM3e",
        unified_memory: false,
        second_memory: Some(grace_lpddr5x(
            496.0,
            396.0,
            "NVIDIA DGX Station datasheet: up to 496 GB LPDDR5X at up to 396 GB/s, NVLink-C2C; 784 GB coherent in all",
        )),
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: None,
        block_scaled_mma: true,
        interconnect: None,
        // NVIDIA prints only the FP4 headline (20 PFLOPS with sparsity, the GB300 NVL72's
        // per-GPU figure); the other dense rates are the GB300's, its clocks unpublished.
        peaks: &[
            (
                Math::Fp32,
                Figure::new(
                    80.0,
                    d(
                        "the GB300's rate (GB200 NVL72 5,760 TFLOPS FP32 / 72); unverified for the DGX Station",
                    ),
                ),
            ),
            (
                Math::Fp16,
                Figure::new(
                    2500.0,
                    d("the GB300 NVL72 per-GPU dense rate; unverified for the DGX Station"),
                ),
            ),
            (
                Math::Bf16,
                Figure::new(
                    2500.0,
                    d("the GB300 NVL72 per-GPU dense rate; unverified for the DGX Station"),
                ),
            ),
            (
                Math::Fp8,
                Figure::new(
                    5000.0,
                    d("the GB300 NVL72 per-GPU dense rate; unverified for the DGX Station"),
                ),
            ),
            (
                Math::Fp6,
                Figure::new(
                    5000.0,
                    d("the FP8 rate, as on every Blackwell part; unverified for the DGX Station"),
                ),
            ),
            (
                Math::Fp4,
                Figure::new(
                    15000.0,
                    d(
                        "the GB300 NVL72 per-GPU dense rate, whose sparse figure is the DGX Station's printed 20 PFLOPS",
                    ),
                ),
            ),
        ],
    },
    Entry {
        key: "rtx-5090",
        name: "NVIDIA GeForce RTX 5090",
        aliases: &[],
        vendor: Vendor::Nvidia,
        class: DeviceClass::Consumer,
        architecture: "Blackwell",
        sm: Some(120),
        bandwidth_gb_s: ds(1792.0, RTX_5090),
        capacity: gib(32.0, RTX_5090),
        memory_type: "GDDR7",
        unified_memory: false,
        second_memory: None,
        sm_count: Some(ds(170.0, RTX_5090)),
        l2_mib: Some(ds(96.0, RTX_5090)),
        boost_clock_mhz: Some(ds(2407.0, RTX_5090)),
        power_watts: Some(ds(575.0, RTX_5090)),
        block_scaled_mma: true,
        interconnect: None,
        // Rates with FP32 accumulation, as inference GEMMs accumulate: GeForce runs
        // FP16/BF16 with FP32 accumulate at half the FP16-accumulate rate. FP64 is not
        // published.
        peaks: &[
            (Math::Fp32, ds(104.8, RTX_5090)),
            (
                Math::Fp16,
                Figure::new(
                    209.5,
                    d(
                        "half the 419 TFLOPS FP16-accumulate dense rate (838 with sparsity), as GeForce halves FP32 accumulate",
                    ),
                ),
            ),
            (
                Math::Bf16,
                Figure::new(
                    209.5,
                    d(
                        "half the 419 TFLOPS FP16-accumulate dense rate (838 with sparsity), as GeForce halves FP32 accumulate",
                    ),
                ),
            ),
            (
                Math::Fp8,
                Figure::new(
                    419.0,
                    d(
                        "half the 838 TFLOPS FP8 dense rate with FP16 accumulate (1,676 with sparsity), as GeForce halves FP32 accumulate; unverified",
                    ),
                ),
            ),
            (
                Math::Int8,
                Figure::new(838.0, d("the printed 1,676 TOPS with sparsity, halved")),
            ),
            (
                Math::Fp4,
                Figure::new(
                    1676.0,
                    d("the printed 3,352 AI TOPS (FP4 with sparsity), halved"),
                ),
            ),
        ],
    },
    Entry {
        key: "jetson-agx-thor",
        name: "NVIDIA Jetson AGX Thor (T5000)",
        aliases: &["thor", "jetson-thor"],
        vendor: Vendor::Nvidia,
        class: DeviceClass::Edge,
        architecture: "Blackwell",
        sm: Some(110),
        bandwidth_gb_s: ds(273.0, THOR),
        capacity: gib(128.0, THOR),
        memory_type: "LPDDR5X",
        unified_memory: true,
        second_memory: None,
        sm_count: Some(Figure::new(
            20.0,
            d("2,560 CUDA cores (module datasheet) / 128 per SM"),
        )),
        l2_mib: None,
        boost_clock_mhz: Some(ds(1575.0, THOR)),
        power_watts: Some(ds(
            130.0,
            "NVIDIA Jetson AGX Thor datasheet: configurable 40-130 W",
        )),
        block_scaled_mma: true,
        interconnect: None,
        peaks: &[
            (
                Math::Fp32,
                Figure::new(8.1, d("2,560 CUDA cores x 2 FLOP x 1.575 GHz; unverified")),
            ),
            (
                Math::Fp4,
                Figure::new(
                    1035.0,
                    d("half the printed 2,070 FP4 TFLOPS with sparsity (module datasheet)"),
                ),
            ),
            (
                Math::Fp8,
                Figure::new(
                    517.5,
                    d("FP4 / 2, the Blackwell ratio; unverified for Thor"),
                ),
            ),
            (
                Math::Fp6,
                Figure::new(
                    517.5,
                    d("the FP8 rate, as on every Blackwell part; unverified for Thor"),
                ),
            ),
            (
                Math::Fp16,
                Figure::new(
                    258.75,
                    d("FP8 / 2, the Blackwell ratio; unverified for Thor"),
                ),
            ),
            (
                Math::Bf16,
                Figure::new(
                    258.75,
                    d("FP8 / 2, the Blackwell ratio; unverified for Thor"),
                ),
            ),
        ],
    },
    Entry {
        key: "ryzen-ai-max-395",
        name: "AMD Ryzen AI Max+ 395 (Radeon 8060S)",
        aliases: &["strix-halo"],
        vendor: Vendor::Amd,
        class: DeviceClass::Consumer,
        architecture: "RDNA 3.5 (gfx1151)",
        sm: None,
        bandwidth_gb_s: Figure::new(
            256.0,
            d("LPDDR5X-8000 on a 256-bit bus (product specifications): 8,000 MT/s x 32 B"),
        ),
        capacity: gib(
            128.0,
            "AMD Ryzen AI Max+ 395 product specifications: up to 128 GB, shared with the CPU (up to 96 GB assignable to the GPU on Windows)",
        ),
        memory_type: "LPDDR5X",
        unified_memory: true,
        second_memory: None,
        sm_count: Some(ds(
            40.0,
            "AMD Ryzen AI Max+ 395 product specifications: 40 GPU compute units",
        )),
        l2_mib: None,
        boost_clock_mhz: Some(ds(2900.0, STRIX_HALO)),
        power_watts: None,
        block_scaled_mma: false,
        interconnect: None,
        // AMD prints no GPU FLOP rate for it: both are computed, and say so.
        peaks: &[
            (
                Math::Fp32,
                Figure::new(
                    14.8,
                    d(
                        "40 CUs x 64 lanes x 2 FLOP x 2.9 GHz, without RDNA 3's dual issue; unverified",
                    ),
                ),
            ),
            (
                Math::Fp16,
                Figure::new(
                    59.4,
                    d("40 CUs x 512 FLOP per clock (RDNA 3 WMMA, FP16) x 2.9 GHz; unverified"),
                ),
            ),
            (
                Math::Bf16,
                Figure::new(
                    59.4,
                    d("40 CUs x 512 FLOP per clock (RDNA 3 WMMA, BF16) x 2.9 GHz; unverified"),
                ),
            ),
        ],
    },
    Entry {
        key: "mi300x",
        name: "AMD Instinct MI300X",
        aliases: &[],
        vendor: Vendor::Amd,
        class: DeviceClass::DataCentre,
        architecture: "CDNA 3 (gfx942)",
        sm: None,
        bandwidth_gb_s: ds(5300.0, "AMD Instinct MI300X data sheet"),
        capacity: gib(192.0, "AMD Instinct MI300X data sheet"),
        memory_type: "HBM3",
        unified_memory: false,
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: Some(ds(2100.0, "AMD Instinct MI300X data sheet")),
        power_watts: Some(ds(750.0, "AMD Instinct MI300X data sheet")),
        block_scaled_mma: false,
        interconnect: joined(LinkKind::InfinityFabric, 448.0, 8, None, MI300X_LINK),
        // 304 compute units, not SMs: the SM count is left out. No MX block-scaled math on CDNA 3.
        peaks: &[
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
                ds(
                    653.7,
                    "AMD Instinct MI300X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Fp16,
                ds(
                    1307.4,
                    "AMD Instinct MI300X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Bf16,
                ds(
                    1307.4,
                    "AMD Instinct MI300X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Fp8,
                ds(
                    2614.9,
                    "AMD Instinct MI300X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Int8,
                ds(
                    2614.9,
                    "AMD Instinct MI300X data sheet, the dense figure as printed",
                ),
            ),
        ],
    },
    Entry {
        key: "mi325x",
        name: "AMD Instinct MI325X",
        aliases: &[],
        vendor: Vendor::Amd,
        class: DeviceClass::DataCentre,
        architecture: "CDNA 3 (gfx942)",
        sm: None,
        bandwidth_gb_s: ds(6000.0, "AMD Instinct MI325X data sheet"),
        capacity: gib(256.0, "AMD Instinct MI325X data sheet"),
        memory_type: "HBM3E",
        unified_memory: false,
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: Some(ds(2100.0, "AMD Instinct MI325X data sheet")),
        power_watts: Some(ds(1000.0, "AMD Instinct MI325X data sheet")),
        block_scaled_mma: false,
        interconnect: joined(LinkKind::InfinityFabric, 448.0, 8, None, MI325X_LINK),
        peaks: &[
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
                ds(
                    653.7,
                    "AMD Instinct MI325X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Fp16,
                ds(
                    1307.4,
                    "AMD Instinct MI325X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Bf16,
                ds(
                    1307.4,
                    "AMD Instinct MI325X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Fp8,
                ds(
                    2614.9,
                    "AMD Instinct MI325X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Int8,
                ds(
                    2614.9,
                    "AMD Instinct MI325X data sheet, the dense figure as printed",
                ),
            ),
        ],
    },
    Entry {
        key: "mi355x",
        name: "AMD Instinct MI355X",
        aliases: &[],
        vendor: Vendor::Amd,
        class: DeviceClass::DataCentre,
        architecture: "CDNA 4 (gfx950)",
        sm: None,
        bandwidth_gb_s: ds(8000.0, "AMD Instinct MI355X data sheet"),
        capacity: gib(288.0, "AMD Instinct MI355X data sheet"),
        memory_type: "HBM3E",
        unified_memory: false,
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: Some(ds(2400.0, "AMD Instinct MI355X data sheet")),
        power_watts: Some(ds(1400.0, "AMD Instinct MI355X data sheet")),
        block_scaled_mma: true,
        interconnect: None,
        // CDNA 4 runs MXFP6 and MXFP4 natively (OCP MX block scales).
        peaks: &[
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
                ds(
                    2516.6,
                    "AMD Instinct MI355X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Bf16,
                ds(
                    2516.6,
                    "AMD Instinct MI355X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Fp8,
                ds(
                    5033.2,
                    "AMD Instinct MI355X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Int8,
                ds(
                    5033.2,
                    "AMD Instinct MI355X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Fp6,
                ds(
                    10066.3,
                    "AMD Instinct MI355X data sheet: MXFP6, the dense figure as printed",
                ),
            ),
            (
                Math::Fp4,
                ds(
                    10066.3,
                    "AMD Instinct MI355X data sheet: MXFP4, the dense figure as printed",
                ),
            ),
        ],
    },
    Entry {
        key: "mi350x",
        name: "AMD Instinct MI350X",
        aliases: &[],
        vendor: Vendor::Amd,
        class: DeviceClass::DataCentre,
        architecture: "CDNA 4 (gfx950)",
        sm: None,
        bandwidth_gb_s: ds(8000.0, "AMD Instinct MI350X data sheet"),
        capacity: gib(288.0, "AMD Instinct MI350X data sheet"),
        memory_type: "HBM3E",
        unified_memory: false,
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: Some(ds(2200.0, "AMD Instinct MI350X data sheet")),
        power_watts: Some(ds(1000.0, "AMD Instinct MI350X data sheet")),
        block_scaled_mma: true,
        interconnect: None,
        peaks: &[
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
                ds(
                    2306.9,
                    "AMD Instinct MI350X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Bf16,
                ds(
                    2306.9,
                    "AMD Instinct MI350X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Fp8,
                ds(
                    4613.7,
                    "AMD Instinct MI350X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Int8,
                ds(
                    4613.7,
                    "AMD Instinct MI350X data sheet, the dense figure as printed",
                ),
            ),
            (
                Math::Fp6,
                ds(
                    9227.5,
                    "AMD Instinct MI350X data sheet: MXFP6, the dense figure as printed",
                ),
            ),
            (
                Math::Fp4,
                ds(
                    9227.5,
                    "AMD Instinct MI350X data sheet: MXFP4, the dense figure as printed",
                ),
            ),
        ],
    },
    Entry {
        key: "gaudi3",
        name: "Intel Gaudi 3 (OAM)",
        aliases: &[],
        vendor: Vendor::Intel,
        class: DeviceClass::DataCentre,
        architecture: "Gaudi 3",
        sm: None,
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
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: Some(ds(
            900.0,
            "Intel Gaudi 3 AI accelerator white paper (OAM HL-325L)",
        )),
        block_scaled_mma: false,
        interconnect: None,
        // Intel publishes matrix BF16 and FP8: FP32 and INT8 matrix rates are left out.
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Google,
        class: DeviceClass::DataCentre,
        architecture: "TPU v5e",
        sm: None,
        bandwidth_gb_s: ds(819.0, "Google Cloud TPU v5e documentation (per chip)"),
        capacity: gib(16.0, "Google Cloud TPU v5e documentation (per chip)"),
        memory_type: "HBM2",
        unified_memory: false,
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: None,
        block_scaled_mma: false,
        interconnect: None,
        // Google publishes BF16 and INT8: no FP8 on v5e, no FP32 matrix rate.
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Google,
        class: DeviceClass::DataCentre,
        architecture: "TPU v6e",
        sm: None,
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
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: None,
        block_scaled_mma: false,
        interconnect: None,
        // Google publishes BF16 and INT8; no FP32 matrix rate.
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Apple,
        class: DeviceClass::Consumer,
        architecture: "Apple GPU (Metal)",
        sm: None,
        bandwidth_gb_s: ds(273.0, "Apple M4 Pro technical specifications"),
        capacity: gib(
            64.0,
            "Apple M4 Pro technical specifications: largest configuration",
        ),
        memory_type: "LPDDR5X",
        unified_memory: true,
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: None,
        block_scaled_mma: false,
        interconnect: None,
        // Bandwidth and capacity are published; compute is derived, and says so.
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Apple,
        class: DeviceClass::Consumer,
        architecture: "Apple GPU (Metal)",
        sm: None,
        bandwidth_gb_s: ds(546.0, "Apple M4 Max technical specifications"),
        capacity: gib(
            128.0,
            "Apple M4 Max technical specifications: largest configuration",
        ),
        memory_type: "LPDDR5X",
        unified_memory: true,
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: None,
        block_scaled_mma: false,
        interconnect: None,
        // Bandwidth and capacity are published; compute is derived, and says so.
        peaks: &[
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
        aliases: &[],
        vendor: Vendor::Apple,
        class: DeviceClass::Workstation,
        architecture: "Apple GPU (Metal)",
        sm: None,
        bandwidth_gb_s: ds(819.0, "Apple M3 Ultra technical specifications"),
        capacity: gib(
            512.0,
            "Apple M3 Ultra technical specifications: largest configuration",
        ),
        memory_type: "LPDDR5X",
        unified_memory: true,
        second_memory: None,
        sm_count: None,
        l2_mib: None,
        boost_clock_mhz: None,
        power_watts: None,
        block_scaled_mma: false,
        interconnect: None,
        // Bandwidth and capacity are published; compute is derived, and says so.
        peaks: &[
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
];

/// Keys of the built-in devices, in display order.
pub fn keys() -> Vec<&'static str> {
    ENTRIES.iter().map(|e| e.key).collect()
}

/// Looks a device up by key or alias, case-insensitive (`h100` names the SXM part,
/// `asus-ascent-gx10` the GB10 it is built on).
pub fn get(key: &str) -> Result<Hardware, ModelError> {
    let wanted = key.trim().to_ascii_lowercase();
    ENTRIES
        .iter()
        .find(|e| e.key == wanted || e.aliases.contains(&wanted.as_str()))
        .map(Entry::build)
        .ok_or_else(|| ModelError::UnknownHardware(key.trim().to_string()))
}

/// The registry key of a device as its driver or a profiler names it
/// (`NVIDIA H100 80GB HBM3`, `NVIDIA B200`), checked against the entry's own CUDA compute
/// capability when the caller knows the device's; `None` for a device the registry does not list (a variant with
/// other clocks or memory, such as the A100 PCIe 40GB or the RTX 5080, must not borrow another
/// part's datasheet).
pub fn key_for_device(name: &str, compute_capability: Option<(u32, u32)>) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    let has = |s: &str| name.contains(s);
    let key = if has("gb10") {
        "gb10"
    } else if has("gb300") {
        "gb300"
    } else if has("b300") {
        "b300"
    } else if has("gb200") {
        "gb200"
    } else if has("b200") {
        "b200"
    } else if has("gh200") && (has("144g") || has("hbm3e")) {
        "gh200-144gb"
    } else if has("gh200") {
        "gh200"
    } else if has("h200") && has("nvl") {
        "h200-nvl"
    } else if has("h200") {
        "h200"
    } else if has("h100") && has("nvl") {
        "h100-nvl"
    } else if has("h100") && has("pcie") {
        "h100-pcie"
    } else if has("h100") && (has("sxm") || has("hbm3")) {
        "h100-sxm"
    } else if has("h20") && !has("h200") {
        "h20"
    } else if has("a100") && has("sxm") && has("40gb") {
        "a100-sxm-40gb"
    } else if has("a100") && has("sxm") {
        "a100-sxm"
    } else if has("a100") && has("pcie") && has("80gb") {
        "a100-pcie"
    } else if has("l40s") {
        "l40s"
    } else if name.trim_end().ends_with(" l4") {
        "l4"
    } else if has("rtx 4090") {
        "rtx-4090"
    } else if has("rtx 5090") {
        "rtx-5090"
    } else if has("thor") {
        "jetson-agx-thor"
    } else if has("rtx pro 6000") && has("blackwell") {
        "rtx-pro-6000"
    } else if has("orin") {
        "jetson-agx-orin"
    } else {
        return None;
    };
    // The compute capability the entry itself gives (`sm`); CUDA 12.8 and 12.9 numbered
    // Thor 10.1, which CUDA 13.0 renamed 11.0 (sm_101 to sm_110, its release notes).
    let sm = ENTRIES.iter().find(|e| e.key == key).and_then(|e| e.sm);
    let matches = |(major, minor): (u32, u32)| {
        let reported = major * 10 + minor;
        sm == Some(reported) || (key == "jetson-agx-thor" && reported == 101)
    };
    compute_capability.is_none_or(matches).then_some(key)
}

/// Every built-in device, in display order.
pub fn all() -> Vec<Hardware> {
    ENTRIES.iter().map(Entry::build).collect()
}
