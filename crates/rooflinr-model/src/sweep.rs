//! Sweeps: one operator family over a grid of shapes x formats, without allocating per point.

use crate::format::Format;
use crate::hardware::Hardware;
use crate::ops::{Op, OpPrediction, Precision};
use crate::roofline::Efficiency;

/// One point of a GEMM sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmPoint {
    /// Rows of A.
    pub m: u64,
    /// Output features.
    pub n: u64,
    /// Reduction dimension.
    pub k: u64,
    /// Weight format (activations and output as given to the sweep, unless `uniform`).
    pub format: Format,
    /// The prediction.
    pub result: OpPrediction,
}

/// Formats of a sweep's operands other than the swept weight format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepPrecision {
    /// Activations, weights and output all in the swept format (the seeds' convention).
    Uniform,
    /// Weights swept; activations and output fixed.
    WeightsOnly {
        /// Activation format.
        activations: Format,
        /// Output format.
        output: Format,
    },
}

impl SweepPrecision {
    fn for_format(self, format: Format) -> Precision {
        match self {
            SweepPrecision::Uniform => Precision::uniform(format),
            SweepPrecision::WeightsOnly {
                activations,
                output,
            } => Precision {
                activations,
                weights: format,
                kv: activations,
                output,
            },
        }
    }
}

/// Predicts every (m, n, k, format) combination, in that nesting order (format innermost),
/// calling `visit` for each point.
pub fn gemm_grid(
    ms: &[u64],
    ns: &[u64],
    ks: &[u64],
    formats: &[Format],
    precision: SweepPrecision,
    hardware: &Hardware,
    efficiency: &Efficiency,
    mut visit: impl FnMut(GemmPoint),
) {
    for &m in ms {
        for &n in ns {
            for &k in ks {
                let op = Op::Gemm {
                    m: m as f64,
                    n: n as f64,
                    k: k as f64,
                    bias: false,
                };
                for &format in formats {
                    let result = op.predict(&precision.for_format(format), hardware, efficiency);
                    visit(GemmPoint {
                        m,
                        n,
                        k,
                        format,
                        result,
                    });
                }
            }
        }
    }
}
