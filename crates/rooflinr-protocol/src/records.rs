//! The records messages carry: device facts, measurements, telemetry.

use rooflinr_model::format::Format;
use serde::{Deserialize, Serialize};

/// A GEMM shape: C[m,n] = A[m,k] x W[k,n]; `m = 1` is a GEMV.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorShape {
    /// Rows of A (tokens).
    pub m: u64,
    /// Output features.
    pub n: u64,
    /// Reduction dimension.
    pub k: u64,
}

/// A dimension of a measured shape outside 1..=[`OperatorShape::MAX_DIM`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{dim} = {value} is outside 1..={max}", max = OperatorShape::MAX_DIM)]
pub struct ShapeError {
    /// `M`, `N` or `K`.
    pub dim: &'static str,
    /// The value given.
    pub value: u64,
}

impl OperatorShape {
    /// The largest dimension the agent measures (2^20): a 2^20 x 2^20 FP32 weight matrix
    /// is already 4 TiB, past every device's memory, which the agent checks separately.
    pub const MAX_DIM: u64 = 1 << 20;

    /// Whether every dimension is in 1..=[`Self::MAX_DIM`]; the error names the first
    /// that is not.
    pub fn check(&self) -> Result<(), ShapeError> {
        for (dim, value) in [("M", self.m), ("N", self.n), ("K", self.k)] {
            if value == 0 || value > Self::MAX_DIM {
                return Err(ShapeError { dim, value });
            }
        }
        Ok(())
    }
}

/// How long to spend on each point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// Stop sampling a point after this many seconds, converged or not.
    pub max_seconds: f64,
    /// Stop once the relative noise is below this (0.005 = 0.5%)...
    pub max_noise: f64,
    /// ...after at least this many samples.
    pub min_samples: u32,
}

/// What the agent found on hello.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentHello {
    /// [`crate::PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The agent's version.
    pub agent_version: String,
    /// Host name.
    pub host: String,
    /// One entry per backend, usable or not.
    pub backends: Vec<BackendInfo>,
    /// Whether GPU telemetry is available, and why not.
    pub nvml: NvmlStatus,
    /// Telemetry samples per second.
    pub telemetry_hz: f64,
    /// [`crate::MAX_MESSAGE_BYTES`].
    pub max_message_bytes: usize,
}

/// A measurement backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BackendInfo {
    /// Which backend.
    pub kind: BackendKind,
    /// Whether jobs can run on it.
    pub available: bool,
    /// Why not, when it is not.
    pub reason: Option<String>,
    /// The device it measures.
    pub device: Option<DeviceInfo>,
    /// Weight formats it measures.
    pub formats: Vec<Format>,
    /// What it found of the libraries it needs (the CUDA backend lists the driver, NVRTC,
    /// cuBLASLt and NVML), each with what is missing and what to do.
    #[serde(default)]
    pub capabilities: Vec<Capability>,
}

/// One thing a backend needs, and whether this machine has it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capability {
    /// `driver`, `nvrtc`, `cublaslt`, `nvml`.
    pub name: String,
    /// Whether it can be used.
    pub available: bool,
    /// What was found (`NVRTC 13.0`), or what is missing and what to do.
    pub detail: String,
}

/// Facts about a device.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// Name as the driver or the OS reports it.
    pub name: String,
    /// Total memory, bytes.
    pub memory_total_bytes: u64,
    /// Free memory when asked, bytes.
    pub memory_free_bytes: u64,
    /// CPU threads or GPU streaming multiprocessors.
    pub compute_units: u32,
    /// Last-level cache (CPU L3, GPU L2), bytes, when known.
    pub last_level_cache_bytes: Option<u64>,
    /// Whether CPU and accelerator share one memory (always true for the CPU).
    pub unified_memory: bool,
    /// CUDA compute capability (`9.0`).
    pub compute_capability: Option<String>,
    /// Driver version.
    pub driver_version: Option<String>,
    /// CUDA runtime or driver API version.
    pub cuda_version: Option<String>,
    /// Memory clock, MHz.
    pub memory_clock_mhz: Option<f64>,
    /// Memory bus width, bits.
    pub memory_bus_bits: Option<u32>,
    /// Theoretical memory bandwidth from the clock and bus width (double data rate:
    /// 2 x clock x width / 8), bytes/s, when the driver reports both.
    #[serde(default)]
    pub theoretical_bandwidth_bytes_per_s: Option<f64>,
    /// The hardware registry's key for this device (`h100-sxm`), when one matches, so the
    /// calculator can put its datasheet beside the measurements.
    #[serde(default)]
    pub registry_key: Option<String>,
}

/// A measuring backend of the agent, named on the wire `cpu` or `cuda`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// The host's CPU cores: every machine has them.
    Cpu,
    /// An NVIDIA GPU through CUDA.
    Cuda,
}

impl BackendKind {
    /// Every backend kind.
    pub const ALL: [BackendKind; 2] = [BackendKind::Cpu, BackendKind::Cuda];

    /// Its name on the wire and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Cpu => "cpu",
            BackendKind::Cuda => "cuda",
        }
    }
}

impl std::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BackendKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BackendKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("`{s}` is not a backend (cpu or cuda)"))
    }
}

/// What was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeasurementKind {
    /// A sum (or XOR) over one array far larger than the caches: a GEMV's access pattern.
    Read,
    /// b = a over buffers far larger than the caches.
    Copy,
    /// a = b + s c over buffers far larger than the caches.
    Triad,
    /// A large GEMM in one format: the format's compute ceiling.
    PeakGemm,
    /// y = W x.
    Gemv,
    /// C = A W.
    Gemm,
}

/// Timing statistics of one point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Timed samples kept.
    pub samples: u32,
    /// Median time, seconds.
    pub median_s: f64,
    /// Fastest sample, seconds.
    pub min_s: f64,
    /// Mean time, seconds.
    pub mean_s: f64,
    /// Relative standard deviation of the samples.
    pub noise: f64,
    /// Whether sampling stopped because the noise fell under the target (false: the time
    /// limit stopped it).
    pub converged: bool,
    /// Seconds spent sampling, warm-up excluded.
    pub elapsed_s: f64,
}

impl Stats {
    /// The summary of a run of samples, in seconds: their median, fastest, mean and
    /// relative noise, whether the noise target stopped the sampling, and the seconds spent.
    pub fn summarize(samples: &[f64], converged: bool, elapsed_s: f64) -> Stats {
        let n = samples.len().max(1) as f64;
        Stats {
            samples: samples.len() as u32,
            median_s: median(samples),
            min_s: samples.iter().copied().fold(f64::INFINITY, f64::min),
            mean_s: samples.iter().sum::<f64>() / n,
            noise: relative_noise(samples),
            converged,
            elapsed_s,
        }
    }
}

/// Standard deviation over mean (0 for fewer than two samples).
pub fn relative_noise(samples: &[f64]) -> f64 {
    if samples.len() < 2 {
        return 0.0;
    }
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    if mean <= 0.0 {
        return f64::INFINITY;
    }
    let var = samples.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
    var.sqrt() / mean
}

/// Median of the finite samples ([`rooflinr_model::stats::median`]); 0 for none, as a
/// record of no samples shows it.
pub fn median(samples: &[f64]) -> f64 {
    rooflinr_model::stats::median(samples.to_vec()).unwrap_or(0.0)
}

/// The check of a kernel's output against a reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// Largest error over the checked outputs, relative to each output's error bound.
    pub worst_error_ratio: f64,
    /// Outputs compared.
    pub outputs_checked: u64,
    /// How the reference was computed.
    pub reference: String,
}

/// One measured point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// What was measured.
    pub kind: MeasurementKind,
    /// Readable label (`gemv 1x4096x4096 int4-g128`).
    pub label: String,
    /// The backend that measured it.
    pub backend: BackendKind,
    /// The device measured.
    pub device: String,
    /// Weight format (absent for bandwidth).
    pub format: Option<Format>,
    /// Activation format (the CPU backend computes in FP32).
    pub activation_format: Option<Format>,
    /// Shape (absent for bandwidth).
    pub shape: Option<OperatorShape>,
    /// FLOPs of one run.
    pub flops: f64,
    /// Bytes one run moves, counted as the roofline counts them.
    pub bytes: f64,
    /// How `bytes` is counted (e.g. `read + write`).
    pub bytes_counted: String,
    /// Timing.
    pub stats: Stats,
    /// bytes / median time.
    pub achieved_bytes_per_s: f64,
    /// FLOPs / median time.
    pub achieved_flops_per_s: f64,
    /// The measured ceiling this point is compared against, if one was measured.
    pub ceiling_name: Option<String>,
    /// Achieved rate / that ceiling.
    pub fraction_of_ceiling: Option<f64>,
    /// The output check (absent for bandwidth kernels, whose output is checked by value).
    pub check: Option<Check>,
    /// Joules per run from the energy counter, when one exists.
    pub energy_j: Option<f64>,
    /// The GPU clock while sampling, when NVML could read it.
    #[serde(default)]
    pub clocks: Option<ClockStats>,
    /// Seconds since the Unix epoch when the point was finished.
    pub unix_s: f64,
}

impl Measurement {
    /// A point of `kind` that did `flops` and moved `bytes` (counted as `bytes_counted`
    /// says) per run, sampled as `stats`: its achieved rates are the work over the median
    /// time. No format, shape, check, energy or clocks yet (set them on the result), not
    /// compared with any ceiling, finished at `unix_s`.
    pub fn sampled(
        kind: MeasurementKind,
        label: String,
        backend: BackendKind,
        device: String,
        (flops, bytes, bytes_counted): (f64, f64, &str),
        stats: Stats,
        unix_s: f64,
    ) -> Measurement {
        Measurement {
            kind,
            label,
            backend,
            device,
            format: None,
            activation_format: None,
            shape: None,
            flops,
            bytes,
            bytes_counted: bytes_counted.into(),
            achieved_bytes_per_s: bytes / stats.median_s,
            achieved_flops_per_s: flops / stats.median_s,
            stats,
            ceiling_name: None,
            fraction_of_ceiling: None,
            check: None,
            energy_j: None,
            clocks: None,
            unix_s,
        }
    }
}

/// The SM clock read after each sample (NVML), and the samples taken while the GPU
/// reported a clock-lowering reason.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClockStats {
    /// Median SM clock over the samples, MHz.
    pub sm_clock_mhz_median: f64,
    /// Lowest SM clock seen, MHz.
    pub sm_clock_mhz_min: f64,
    /// Samples during which a throttle reason was active (power, thermal, ...).
    pub throttled_samples: u32,
    /// The reasons seen, by NVML's names.
    pub throttle_reasons: Vec<String>,
}

/// Whether NVML telemetry is available.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NvmlStatus {
    /// Whether NVML answered.
    pub available: bool,
    /// Why not (no driver, no permission...).
    pub reason: Option<String>,
    /// Driver version.
    pub driver_version: Option<String>,
    /// GPUs found.
    pub gpus: u32,
    /// NVLinks active on the first GPU (0 where NVLink is absent or not reported).
    #[serde(default)]
    pub nvlink_links: u32,
    /// The NVLink version NVML reports for the first active link (NVML's own numbering).
    #[serde(default)]
    pub nvlink_version: Option<u32>,
}

/// Host telemetry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HostSample {
    /// CPU utilisation over all cores, percent.
    pub cpu_util_pct: f64,
    /// Mean CPU frequency, MHz (0 when the OS does not say).
    pub cpu_freq_mhz: f64,
    /// Memory in use, bytes.
    pub mem_used_bytes: u64,
    /// Memory installed, bytes.
    pub mem_total_bytes: u64,
}

/// GPU telemetry through NVML.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GpuSample {
    /// NVML index.
    pub index: u32,
    /// SM clock, MHz.
    pub sm_clock_mhz: Option<u32>,
    /// Memory clock, MHz.
    pub mem_clock_mhz: Option<u32>,
    /// Power from the energy counter's change since the last sample, W.
    pub power_w: Option<f64>,
    /// Energy counter, millijoules since the driver loaded.
    pub energy_mj: Option<u64>,
    /// Temperature, degrees Celsius.
    pub temperature_c: Option<u32>,
    /// GPU utilisation, percent.
    pub util_gpu_pct: Option<u32>,
    /// Memory-controller utilisation, percent.
    pub util_mem_pct: Option<u32>,
    /// Memory in use, bytes (absent on unified-memory parts such as GB10).
    pub mem_used_bytes: Option<u64>,
    /// Memory total, bytes.
    pub mem_total_bytes: Option<u64>,
    /// Active clock-event (throttle) reasons, empty when none.
    pub throttle_reasons: Vec<String>,
}

/// One telemetry sample.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TelemetrySample {
    /// Increases by one per sample; a gap means the receiver skipped samples.
    pub seq: u64,
    /// Milliseconds since the Unix epoch.
    pub unix_ms: u64,
    /// The host.
    pub host: HostSample,
    /// Every GPU NVML sees (empty without NVML).
    pub gpus: Vec<GpuSample>,
}
