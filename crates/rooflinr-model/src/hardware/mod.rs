//! Hardware descriptions: memory system, compute peaks per operation type, and where every
//! figure comes from. The built-in registry is in [`registry`]; user-defined chips come from
//! TOML or JSON through [`custom`].

pub mod custom;
pub mod registry;

use std::borrow::Cow;
use std::fmt;

use crate::format::Math;
use crate::units::{Bytes, BytesPerSecond, FlopsPerSecond};

/// How a figure was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// Printed by the vendor (dense, unless the text says otherwise).
    Datasheet,
    /// Computed from other published figures by a stated rule; not published itself.
    Derived,
    /// Supplied by the user in a custom hardware file.
    User,
    /// A stand-in number, kept only to reproduce an old calculation.
    Placeholder,
}

impl Basis {
    /// Lower-case label.
    pub fn name(self) -> &'static str {
        match self {
            Basis::Datasheet => "datasheet",
            Basis::Derived => "derived",
            Basis::User => "user",
            Basis::Placeholder => "placeholder",
        }
    }
}

/// Where a figure comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    /// How it was obtained.
    pub basis: Basis,
    /// The document, or the rule for a derived figure.
    pub text: Cow<'static, str>,
}

impl Source {
    /// A vendor datasheet figure.
    pub const fn datasheet(text: &'static str) -> Self {
        Source {
            basis: Basis::Datasheet,
            text: Cow::Borrowed(text),
        }
    }
    /// A figure derived from published ones by the rule in `text`.
    pub const fn derived(text: &'static str) -> Self {
        Source {
            basis: Basis::Derived,
            text: Cow::Borrowed(text),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.basis.name(), self.text)
    }
}

/// A value with its source.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure<T> {
    /// The value.
    pub value: T,
    /// Where it comes from.
    pub source: Source,
}

impl<T> Figure<T> {
    /// Pairs a value with its source.
    pub const fn new(value: T, source: Source) -> Self {
        Figure { value, source }
    }
}

/// Who makes a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Vendor {
    /// NVIDIA.
    Nvidia,
    /// AMD.
    Amd,
    /// Intel (Habana Gaudi).
    Intel,
    /// Google (TPU).
    Google,
    /// Apple (M-series).
    Apple,
    /// A user's own description.
    Other,
}

impl Vendor {
    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Vendor::Nvidia => "NVIDIA",
            Vendor::Amd => "AMD",
            Vendor::Intel => "Intel",
            Vendor::Google => "Google",
            Vendor::Apple => "Apple",
            Vendor::Other => "other",
        }
    }
}

/// Where a device is used, for grouping in lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DeviceClass {
    /// Servers and racks (H100, MI300X, TPU).
    DataCentre,
    /// Desk-side and workstation parts (RTX PRO, DGX Spark, DGX Station).
    Workstation,
    /// Consumer graphics cards and laptops' or desktops' SoCs.
    Consumer,
    /// Embedded and robotics modules (Jetson).
    Edge,
    /// A user's own description, class not stated.
    Unspecified,
}

impl DeviceClass {
    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            DeviceClass::DataCentre => "data centre",
            DeviceClass::Workstation => "workstation",
            DeviceClass::Consumer => "consumer",
            DeviceClass::Edge => "edge",
            DeviceClass::Unspecified => "unspecified",
        }
    }
}

/// A second, slower memory a device can address beside its own (GH200's and the DGX
/// Station's CPU-attached LPDDR5X over NVLink-C2C). The roofline counts only the first
/// memory: [`Hardware::memory_capacity`] is what fits at [`Hardware::memory_bandwidth`];
/// data that spills here is read at this tier's bandwidth instead.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryTier {
    /// Memory technology (`LPDDR5X`).
    pub memory_type: String,
    /// Capacity.
    pub capacity: Figure<Bytes>,
    /// Bandwidth of the memory itself.
    pub bandwidth: Figure<BytesPerSecond>,
    /// How the accelerator reaches it, in words.
    pub link: String,
}

/// What carries traffic between accelerators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// NVLink through NVSwitch, by generation (4: Hopper, 5: Blackwell).
    NvLink(u8),
    /// NVLink bridges joining two or four PCIe cards, by generation.
    NvLinkBridge(u8),
    /// PCI Express x16, by generation.
    Pcie(u8),
    /// AMD Infinity Fabric, a direct link to every other GPU of the platform.
    InfinityFabric,
    /// InfiniBand or Ethernet through the host's network adapters.
    Network,
}

impl LinkKind {
    /// `NVLink 5`, `PCIe 4.0`, `Infinity Fabric`, `network`.
    pub fn name(self) -> String {
        match self {
            LinkKind::NvLink(g) => format!("NVLink {g}"),
            LinkKind::NvLinkBridge(g) => format!("NVLink {g} bridge"),
            LinkKind::Pcie(g) => format!("PCIe {g}.0"),
            LinkKind::InfinityFabric => "Infinity Fabric".into(),
            LinkKind::Network => "network".into(),
        }
    }
}

/// One link's bandwidth: per GPU, per direction (half the bidirectional figure vendors
/// print: an H100's "900 GB/s NVLink" is 450 GB/s each way).
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The technology.
    pub kind: LinkKind,
    /// Bytes per second one GPU can send (and receive at the same time).
    pub bandwidth: Figure<BytesPerSecond>,
}

/// How a device's GPUs reach each other: the fast fabric inside a domain (an 8-GPU HGX
/// board, a 72-GPU NVL72 rack) and the network beyond it.
#[derive(Clone, Debug, PartialEq)]
pub struct Interconnect {
    /// The fabric inside one domain.
    pub scale_up: Link,
    /// GPUs that reach each other over `scale_up`.
    pub domain: Figure<u32>,
    /// The network to GPUs in other domains, per GPU; `None` where no figure is published.
    pub scale_out: Option<Link>,
}

impl Interconnect {
    /// In words: `NVLink 4 at 450 GB/s per GPU each way, 8 GPUs per domain; 50.0 GB/s per
    /// GPU beyond`.
    pub fn describe(&self) -> String {
        let out = self.scale_out.as_ref().map_or_else(
            || "no published network beyond".to_string(),
            |l| format!("{} per GPU beyond", l.bandwidth.value),
        );
        format!(
            "{} at {} per GPU each way, {} GPUs per domain; {out}",
            self.scale_up.kind.name(),
            self.scale_up.bandwidth.value,
            self.domain.value
        )
    }

    /// The link a group of `gpus` GPUs placed next to each other communicates over: the
    /// fabric while the group fits in one domain, the network once it spans domains (a
    /// ring across domains runs at its slowest hop). `None` when the group spans domains
    /// and no network is known.
    pub fn link_for(&self, gpus: u32) -> Option<&Link> {
        if gpus <= self.domain.value {
            Some(&self.scale_up)
        } else {
            self.scale_out.as_ref()
        }
    }
}

/// A dense peak rate for one operation type.
#[derive(Clone, Debug, PartialEq)]
pub struct Peak {
    /// The operation type.
    pub math: Math,
    /// Dense (no structured sparsity) peak.
    pub rate: Figure<FlopsPerSecond>,
}

/// One accelerator (or CPU) as the roofline sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Hardware {
    /// Short lower-case key (`h100-sxm`).
    pub key: String,
    /// Marketing name.
    pub name: String,
    /// Other names the device is sold or known under (partner systems, short keys).
    pub aliases: Vec<String>,
    /// Who makes it.
    pub vendor: Vendor,
    /// Where it is used.
    pub class: DeviceClass,
    /// Architecture and compute capability as shown, e.g. `Hopper (sm_90)`.
    pub architecture: String,
    /// CUDA compute capability as in `sm_90` (9.0); `None` for devices that are not CUDA
    /// GPUs or do not state one. Which kernels a device runs is decided from this.
    pub sm: Option<u32>,
    /// Peak DRAM bandwidth.
    pub memory_bandwidth: Figure<BytesPerSecond>,
    /// Memory capacity available to the accelerator.
    pub memory_capacity: Figure<Bytes>,
    /// Memory technology (HBM3, LPDDR5x, ...).
    pub memory_type: String,
    /// Whether CPU and GPU share one physical memory (GB10, Jetson).
    pub unified_memory: bool,
    /// A second, slower memory beside the first (GH200's LPDDR5X); not counted in
    /// `memory_capacity`.
    pub second_memory: Option<MemoryTier>,
    /// Streaming multiprocessors (or cores).
    pub sm_count: Option<Figure<u32>>,
    /// Last-level cache size.
    pub l2_cache: Option<Figure<Bytes>>,
    /// Maximum boost clock of the SMs, MHz.
    pub boost_clock_mhz: Option<Figure<f64>>,
    /// Board power limit, W.
    pub power_watts: Option<Figure<f64>>,
    /// Whether the tensor cores run block-scaled (MX, NVFP4) products natively.
    pub block_scaled_mma: bool,
    /// Dense peaks per operation type; a type not listed falls back to what it converts to.
    pub peaks: Vec<Peak>,
    /// How several of these devices are joined, where the vendor publishes it.
    pub interconnect: Option<Interconnect>,
}

/// The compute ceiling a computation of a given type meets on a given chip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComputeCeiling {
    /// The type the computation asked for.
    pub requested: Math,
    /// The type it actually runs as (differs when the chip converts).
    pub executed_as: Math,
    /// Dense peak of `executed_as`.
    pub peak: FlopsPerSecond,
    /// False when the chip cannot run `requested` and converts the operands.
    pub native: bool,
}

impl ComputeCeiling {
    /// Whether the chip has a published (or derived) rate for the computation at all.
    pub fn has_rate(&self) -> bool {
        self.peak.get() > 0.0
    }

    /// How the computation runs, in words: `fp8`, `fp16 (converted from fp8)`, or
    /// `fp64: no published rate`.
    pub fn runs_as(&self) -> String {
        if !self.has_rate() {
            format!("{}: no published rate", self.requested)
        } else if self.native {
            self.executed_as.to_string()
        } else {
            format!("{} (converted from {})", self.executed_as, self.requested)
        }
    }
}

/// An architecture as shown: its name and, for CUDA GPUs, the compute capability
/// (`Hopper (sm_90)`).
pub(crate) fn architecture_label(name: &str, sm: Option<u32>) -> String {
    match sm {
        Some(sm) => format!("{name} (sm_{sm})"),
        None => name.to_string(),
    }
}

impl Hardware {
    /// Dense peak for exactly this operation type, if the chip runs it.
    pub fn peak(&self, math: Math) -> Option<FlopsPerSecond> {
        self.peaks
            .iter()
            .find(|p| p.math == math)
            .map(|p| p.rate.value)
    }

    /// The ceiling for a computation of type `math`; `block_scaled` says whether its
    /// operands carry per-block scales (MX, NVFP4), which only block-scaled MMA runs
    /// natively. Falls back along [`Math::fallback`] when the chip lacks the type.
    pub fn ceiling(&self, math: Math, block_scaled: bool) -> ComputeCeiling {
        let mut current = math;
        let mut native = !block_scaled || self.block_scaled_mma;
        if !native {
            current = math.fallback().unwrap_or(Math::Fp32);
        }
        loop {
            if let Some(peak) = self.peak(current) {
                return ComputeCeiling {
                    requested: math,
                    executed_as: current,
                    peak,
                    native,
                };
            }
            native = false;
            match current.fallback() {
                Some(next) => current = next,
                None => {
                    // No published rate for this type nor any it could run as (FP64 on a
                    // part whose FP64 rate is not published): a zero peak, so the bound is
                    // an unbounded time, never another type's rate borrowed.
                    return ComputeCeiling {
                        requested: math,
                        executed_as: math,
                        peak: FlopsPerSecond(0.0),
                        native: false,
                    };
                }
            }
        }
    }

    /// The CUDA compute capability as a number (`sm_90` -> 90); `None` for devices that
    /// do not state one.
    pub fn sm_version(&self) -> Option<u32> {
        self.sm
    }

    /// Whether the tensor cores take the fifth generation's `tcgen05` instructions: sm_100
    /// and sm_103 (B200, B300 and their Grace pairings), not sm_12x (RTX PRO 6000, GB10),
    /// whose tensor cores keep the warp-level `mma` (PTX ISA 9.0, "TensorCore 5th
    /// Generation Family Instructions", target requirements).
    pub fn has_tcgen05(&self) -> bool {
        self.sm.is_some_and(|v| (100..110).contains(&v))
    }

    /// The streaming multiprocessors; 0 where the device does not state them.
    pub fn sms(&self) -> u32 {
        self.sm_count.as_ref().map_or(0, |f| f.value)
    }

    /// The L2 cache, bytes; 0 where the device does not state one.
    pub fn l2_bytes(&self) -> f64 {
        self.l2_cache.as_ref().map_or(0.0, |f| f.value.get())
    }

    /// Ridge point for a computation type: peak / bandwidth.
    pub fn ridge(&self, math: Math, block_scaled: bool) -> crate::units::FlopsPerByte {
        self.ceiling(math, block_scaled).peak / self.memory_bandwidth.value
    }
}

#[cfg(test)]
mod tests;
