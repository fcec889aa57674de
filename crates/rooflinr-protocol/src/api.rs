//! Bodies of the HTTP API. The prototype's endpoints keep their request shapes
//! (`{"M":1,"N":4096,"K":4096,"precision":"FP16"}`), so existing scripts work once they
//! add the token.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::messages::JobId;
use crate::records::{Measurement, NvmlStatus, OperatorShape, TelemetrySample};

/// One GEMM shape as the HTTP API spells it: `{"M": 1, "N": 4096, "K": 4096}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiShape {
    /// Rows of A (tokens); 1 is a GEMV.
    #[serde(rename = "M")]
    pub m: u64,
    /// Output features.
    #[serde(rename = "N")]
    pub n: u64,
    /// Reduction dimension.
    #[serde(rename = "K")]
    pub k: u64,
}

impl From<ApiShape> for OperatorShape {
    fn from(s: ApiShape) -> OperatorShape {
        OperatorShape {
            m: s.m,
            n: s.n,
            k: s.k,
        }
    }
}

/// `POST /api/analyze`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// Rows of A.
    #[serde(rename = "M")]
    pub m: u64,
    /// Output features.
    #[serde(rename = "N")]
    pub n: u64,
    /// Reduction dimension.
    #[serde(rename = "K")]
    pub k: u64,
    /// Format name (`FP16`, `FP8_E4M3`, `NVFP4`, `INT4`...).
    pub precision: String,
    /// Also measure it on this machine (queued with every other device job).
    #[serde(default)]
    pub measure: bool,
}

/// A roofline prediction for one GEMM on one device, with the measurement when asked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnalyzeResponse {
    /// Registry key of the device predicted.
    pub hardware_key: String,
    /// The shape.
    pub shape: ApiShape,
    /// The format as the model crate names it.
    pub precision: String,
    /// FLOPs.
    pub flops: f64,
    /// Bytes moved (activations and output in FP16, weights in `precision`).
    pub bytes: f64,
    /// Arithmetic intensity, FLOP/byte.
    pub ai: f64,
    /// The device's ridge point for this format, FLOP/byte.
    pub critical_ai: f64,
    /// Predicted time, microseconds.
    pub predicted_time_us: f64,
    /// Predicted rate, TFLOP/s.
    pub predicted_tflops: f64,
    /// `memory` or `compute`.
    pub bottleneck: String,
    /// Always `computed`: the figures above are predictions.
    pub basis: String,
    /// The measurement on this machine, when `measure` was asked.
    pub measurement: Option<Measurement>,
}

/// `POST /api/sweep`: every shape in every precision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepRequest {
    /// Shapes; the prototype's decode and prefill shapes when absent.
    #[serde(default)]
    pub shapes: Option<Vec<ApiShape>>,
    /// Formats; the prototype's five when absent.
    #[serde(default)]
    pub precisions: Option<Vec<String>>,
    /// Also measure every point on this machine.
    #[serde(default)]
    pub measure: bool,
}

/// The answer to a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepResponse {
    /// Registry key of the device predicted.
    pub hardware_key: String,
    /// One entry per shape and precision, shapes outermost.
    pub points: Vec<AnalyzeResponse>,
    /// The measurement job, when `measure` was asked (its JSONL file has the same id).
    pub job: Option<JobId>,
}

/// `POST /api/recommend`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecommendRequest {
    /// Rows of A.
    #[serde(rename = "M")]
    pub m: u64,
    /// Output features.
    #[serde(rename = "N")]
    pub n: u64,
    /// Reduction dimension.
    #[serde(rename = "K")]
    pub k: u64,
    /// Smallest acceptable SQNR, dB (18 when absent).
    #[serde(default)]
    pub min_sqnr_db: Option<f64>,
}

/// One ranked strategy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendCandidate {
    /// Strategy name.
    pub strategy: String,
    /// Weight format.
    pub weights: String,
    /// Activation format.
    pub activations: String,
    /// Predicted time, microseconds.
    pub time_us: f64,
    /// Over the FP16 baseline.
    pub speedup: f64,
    /// Fraction of the baseline's memory saved.
    pub memory_saved: f64,
    /// Measured SQNR on the sample tensors, dB.
    pub sqnr_db: f64,
    /// Whether the SQNR meets the budget.
    pub within_budget: bool,
    /// Why it ranks where it does.
    pub reason: String,
}

/// The answer to a recommendation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendResponse {
    /// Registry key of the device.
    pub hardware_key: String,
    /// What limits the baseline.
    pub bottleneck: String,
    /// The recommended strategy, if any meets the budget.
    pub recommended: Option<String>,
    /// Every strategy, best first.
    pub candidates: Vec<RecommendCandidate>,
}

/// One device of `GET /api/hardware`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HardwareEntry {
    /// Registry key (use as `hardware_key`).
    pub key: String,
    /// Name.
    pub name: String,
    /// Architecture.
    pub architecture: String,
    /// Memory bandwidth, GB/s.
    pub bandwidth_gb_s: f64,
    /// Memory capacity, GB.
    pub memory_gb: f64,
    /// Dense peaks per operation type, TFLOP/s.
    pub peaks_tflops: BTreeMap<String, f64>,
}

/// `GET /api/nvml/status`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TelemetryStatus {
    /// NVML's state.
    pub nvml: NvmlStatus,
    /// Samples per second.
    pub telemetry_hz: f64,
    /// The latest sample.
    pub latest: Option<TelemetrySample>,
}

/// `GET /api/health` (the only call that needs no token).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Health {
    /// `ok`.
    pub status: String,
    /// The agent's version.
    pub agent_version: String,
    /// [`crate::PROTOCOL_VERSION`].
    pub protocol: u32,
}

/// The body of every HTTP error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiError {
    /// What went wrong and what to do.
    pub error: String,
}
