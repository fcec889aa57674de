//! One measured kernel, whatever it came from, and the ceilings an agent measured.

use rooflinr_model::format::{Format, Math, product_is_block_scaled, product_math};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::roofline::{Bound, Efficiency, Prediction, Roof, Work};
use rooflinr_model::units::{Bytes, BytesPerSecond, Flops, FlopsPerSecond};
use rooflinr_protocol::{BackendKind, Measurement, MeasurementKind};
use serde::{Deserialize, Serialize};

/// One kernel run: its work, its measured time, and where that came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelPoint {
    /// Kernel name (`cutlass_scaled_fp4_mm`, `gemv 1x4096x4096 int8`).
    pub kernel: String,
    /// The model operator it implements (`q_b_proj`), or the operator kind.
    pub op: String,
    /// `decode`, `prefill`, or whatever phase the source names (empty: not said).
    #[serde(default)]
    pub phase: String,
    /// Weight format, when known (stored by its name, `int4-g128`).
    #[serde(default)]
    pub format: Option<Format>,
    /// The compute type its FLOPs run as, stored by its name (`fp16`, `fp32`, `fp8`...);
    /// a name this build does not know is refused when a file is read.
    #[serde(with = "math_name")]
    pub math: Math,
    /// Whether the product needs block-scaled MMA to run natively (MX, NVFP4).
    #[serde(default)]
    pub block_scaled: bool,
    /// FLOPs of one run.
    pub flops: f64,
    /// Whether `flops` is the kernel's work: false when the source had no counter for it
    /// (a profiler export without FLOP counters, or tensor work it could not count). Such
    /// a kernel is listed with its time and bytes, never placed on the roofline nor
    /// calibrated on.
    #[serde(default = "counted")]
    pub flops_counted: bool,
    /// Bytes one run moves.
    pub bytes: f64,
    /// Measured time of one run, seconds.
    pub time_s: f64,
    /// Joules of one run, when an energy counter was read.
    #[serde(default)]
    pub energy_j: Option<f64>,
    /// Where the figures come from.
    pub source: KernelSource,
}

fn counted() -> bool {
    true
}

/// [`Math`] stored by its name.
mod math_name {
    use rooflinr_model::format::Math;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(math: &Math, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(math.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Math, D::Error> {
        let name = String::deserialize(d)?;
        Math::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format!("`{name}` is not a compute type this build knows"))
        })
    }
}

/// Where a kernel's figures come from. Stored as its text (`measured: agent cuda on
/// NVIDIA H100 80GB HBM3`), so lab files read the same before and after this type; the
/// text is read back once, when a file is read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", from = "String")]
pub enum KernelSource {
    /// Measured by a rooflinr agent's backend on a device.
    Agent {
        /// The agent's backend.
        backend: BackendKind,
        /// The device as the agent names it.
        device: String,
    },
    /// An Nsight Compute CSV.
    NsightCompute,
    /// A CSV of kernels (name, time, FLOPs, bytes).
    KernelCsv,
    /// Anything else, by its label.
    Other(String),
}

const AGENT_PREFIX: &str = "measured: agent ";
const NSIGHT_COMPUTE: &str = "imported: Nsight Compute";
const KERNEL_CSV: &str = "imported: kernel CSV";

impl KernelSource {
    /// The device an agent measured on; `None` for imports.
    pub fn agent_device(&self) -> Option<&str> {
        match self {
            KernelSource::Agent { device, .. } => Some(device),
            _ => None,
        }
    }
}

impl std::fmt::Display for KernelSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KernelSource::Agent { backend, device } => {
                write!(f, "{AGENT_PREFIX}{backend} on {device}")
            }
            KernelSource::NsightCompute => f.write_str(NSIGHT_COMPUTE),
            KernelSource::KernelCsv => f.write_str(KERNEL_CSV),
            KernelSource::Other(label) => f.write_str(label),
        }
    }
}

impl From<KernelSource> for String {
    fn from(s: KernelSource) -> String {
        s.to_string()
    }
}

impl From<String> for KernelSource {
    /// Reads the text [`KernelSource`]'s `Display` writes; anything else is `Other`.
    fn from(text: String) -> KernelSource {
        match text.as_str() {
            NSIGHT_COMPUTE => return KernelSource::NsightCompute,
            KERNEL_CSV => return KernelSource::KernelCsv,
            _ => {}
        }
        if let Some((backend, device)) = text
            .strip_prefix(AGENT_PREFIX)
            .and_then(|rest| rest.split_once(" on "))
            .and_then(|(backend, device)| Some((backend.parse().ok()?, device)))
        {
            return KernelSource::Agent {
                backend,
                device: device.to_string(),
            };
        }
        KernelSource::Other(text)
    }
}

impl KernelPoint {
    /// FLOPs per byte (0 without bytes).
    pub fn intensity(&self) -> f64 {
        if self.bytes > 0.0 {
            self.flops / self.bytes
        } else {
            0.0
        }
    }

    /// Measured FLOP/s.
    pub fn achieved_flops_per_s(&self) -> f64 {
        self.flops / self.time_s
    }

    /// Measured B/s.
    pub fn achieved_bytes_per_s(&self) -> f64 {
        self.bytes / self.time_s
    }

    /// Phase as shown: `unspecified` when the source does not say.
    pub fn phase_label(&self) -> &str {
        if self.phase.is_empty() {
            "unspecified"
        } else {
            &self.phase
        }
    }

    /// The roofline prediction for this kernel's work on `hardware`, scaled by `efficiency`.
    pub fn predict(&self, hardware: &Hardware, efficiency: &Efficiency) -> Prediction {
        let ceiling = hardware.ceiling(self.math, self.block_scaled);
        Roof::new(hardware, &ceiling, efficiency).predict(Work {
            flops: Flops(self.flops),
            bytes: Bytes(self.bytes),
        })
    }

    /// An operator measurement from the agent as a kernel point; `None` for bandwidth and
    /// peak measurements (those are ceilings, see [`MeasuredCeilings`]) and for records
    /// without a shape or a timing.
    pub fn from_measurement(m: &Measurement) -> Option<KernelPoint> {
        let (op, phase) = match m.kind {
            MeasurementKind::Gemv => ("gemv", "decode"),
            MeasurementKind::Gemm => ("gemm", "prefill"),
            _ => return None,
        };
        if m.stats.median_s.is_nan() || m.stats.median_s <= 0.0 {
            return None;
        }
        let weights = m.format;
        let activations = m.activation_format.or(weights);
        let (math, block_scaled) = match (activations, weights) {
            (Some(a), Some(w)) => (product_math(a, w), product_is_block_scaled(a, w)),
            _ => (Math::Fp16, false),
        };
        Some(KernelPoint {
            kernel: m.label.clone(),
            op: op.into(),
            phase: phase.into(),
            format: m.format,
            math,
            block_scaled,
            flops: m.flops,
            flops_counted: true,
            bytes: m.bytes,
            time_s: m.stats.median_s,
            energy_j: m.energy_j,
            source: KernelSource::Agent {
                backend: m.backend,
                device: m.device.clone(),
            },
        })
    }
}

/// A measured peak GEMM rate.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredPeak {
    /// The weight format.
    pub format: Format,
    /// The compute type the product ran as (from both operands' formats: a CPU multiplies
    /// FP16 weights by FP32 activations in FP32, cuBLASLt FP8 by FP8 in FP8).
    pub math: Math,
    /// FLOP/s.
    pub flops_per_s: f64,
}

/// What an agent measured of the machine's ceilings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeasuredCeilings {
    /// The best of the read, copy and triad bandwidths, B/s, and which kernel gave it.
    pub bandwidth: Option<(f64, String)>,
    /// The read kernel's bandwidth, B/s: the yardstick of a GEMV, which only reads (copy
    /// and triad also write, and a machine's write traffic differs).
    pub read: Option<f64>,
    /// The peak GEMM rate per weight format (best of repeated measurements).
    pub peaks: Vec<MeasuredPeak>,
    /// The device measured.
    pub device: Option<String>,
}

impl MeasuredCeilings {
    /// Collects the ceilings among `measurements` (operator points are ignored).
    pub fn from_measurements(measurements: &[Measurement]) -> MeasuredCeilings {
        let mut c = MeasuredCeilings::default();
        for m in measurements {
            c.record(m);
        }
        c
    }

    /// Keeps `m` if it is a ceiling: the best bandwidth of read, copy and triad, and the
    /// best peak per format (a repeated measurement never lowers a ceiling).
    pub fn record(&mut self, m: &Measurement) {
        match m.kind {
            MeasurementKind::Read | MeasurementKind::Copy | MeasurementKind::Triad => {
                if m.kind == MeasurementKind::Read {
                    self.read = Some(
                        self.read
                            .map_or(m.achieved_bytes_per_s, |r| r.max(m.achieved_bytes_per_s)),
                    );
                }
                let name = format!("{:?}", m.kind).to_ascii_lowercase();
                if self
                    .bandwidth
                    .as_ref()
                    .is_none_or(|(b, _)| m.achieved_bytes_per_s > *b)
                {
                    self.bandwidth = Some((m.achieved_bytes_per_s, name));
                }
                self.device.get_or_insert_with(|| m.device.clone());
            }
            MeasurementKind::PeakGemm => {
                let format = m.format.unwrap_or(Format::Fp32);
                let math = product_math(m.activation_format.unwrap_or(format), format);
                match self.peaks.iter_mut().find(|p| p.format == format) {
                    Some(p) => p.flops_per_s = p.flops_per_s.max(m.achieved_flops_per_s),
                    None => self.peaks.push(MeasuredPeak {
                        format,
                        math,
                        flops_per_s: m.achieved_flops_per_s,
                    }),
                }
                self.device.get_or_insert_with(|| m.device.clone());
            }
            MeasurementKind::Gemv | MeasurementKind::Gemm => {}
        }
    }

    /// The measured peak of a weight format, FLOP/s.
    pub fn peak(&self, format: Format) -> Option<f64> {
        self.peaks
            .iter()
            .find(|p| p.format == format)
            .map(|p| p.flops_per_s)
    }

    /// The roofline prediction of an operator measurement from these ceilings alone:
    /// the measured bandwidth (the read kernel's for a GEMV, when measured; else the best)
    /// and its format's measured peak (memory-bound only when no peak was measured for
    /// it). `None` for ceilings themselves and before any bandwidth was measured.
    pub fn predict(&self, m: &Measurement) -> Option<MeasuredPrediction> {
        if !matches!(m.kind, MeasurementKind::Gemv | MeasurementKind::Gemm) {
            return None;
        }
        let (bandwidth, bandwidth_kernel) = match (m.kind, self.read) {
            (MeasurementKind::Gemv, Some(read)) => (read, "read".to_string()),
            _ => self.bandwidth.clone()?,
        };
        let peak = m.format.and_then(|f| self.peak(f));
        let roof = Roof {
            bandwidth: BytesPerSecond(bandwidth),
            peak: FlopsPerSecond(peak.unwrap_or(f64::INFINITY)),
        };
        Some(MeasuredPrediction {
            prediction: roof.predict(Work {
                flops: Flops(m.flops),
                bytes: Bytes(m.bytes),
            }),
            bandwidth,
            bandwidth_kernel,
            peak,
        })
    }
}

/// A prediction from measured ceilings, and which ceilings it used.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredPrediction {
    /// The roofline prediction.
    pub prediction: Prediction,
    /// The measured bandwidth used, B/s.
    pub bandwidth: f64,
    /// The bandwidth kernel whose figure was used (`read`, `copy`, `triad`).
    pub bandwidth_kernel: String,
    /// The format's measured peak, FLOP/s (absent: only the memory roof applies).
    pub peak: Option<f64>,
}

impl MeasuredPrediction {
    /// The ceiling that binds, as a phrase (`measured read bandwidth 3.1 TB/s`).
    pub fn ceiling_name(&self, format: Option<Format>) -> String {
        match (self.prediction.bound, self.peak) {
            (Bound::Compute, Some(peak)) => format!(
                "measured {} gemm peak {:.1} GFLOP/s",
                format.map_or_else(|| "?".to_string(), |f| f.name()),
                peak / 1e9
            ),
            _ => format!(
                "measured {} bandwidth {:.1} GB/s",
                self.bandwidth_kernel,
                self.bandwidth / 1e9
            ),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
