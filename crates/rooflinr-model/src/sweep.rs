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
    /// Activations, weights and output all in the swept format (the prototype's convention).
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

/// A grid of GEMM shapes x weight formats.
#[derive(Clone, Copy, Debug)]
pub struct GemmGrid<'a> {
    /// Rows of A.
    pub ms: &'a [u64],
    /// Output features.
    pub ns: &'a [u64],
    /// Reduction dimensions.
    pub ks: &'a [u64],
    /// Weight formats (innermost).
    pub formats: &'a [Format],
    /// Formats of the other operands.
    pub precision: SweepPrecision,
}

impl GemmGrid<'_> {
    /// Number of points.
    pub fn len(&self) -> usize {
        self.ms.len() * self.ns.len() * self.ks.len() * self.formats.len()
    }

    /// Whether the grid has no points.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The formats of every operand for one swept weight format.
    pub fn precision_for(&self, format: Format) -> Precision {
        self.precision.for_format(format)
    }

    /// Predicts every (m, n, k, format) point, in that nesting order (format innermost),
    /// calling `visit` for each.
    pub fn for_each(
        &self,
        hardware: &Hardware,
        efficiency: &Efficiency,
        mut visit: impl FnMut(GemmPoint),
    ) {
        for &m in self.ms {
            for &n in self.ns {
                for &k in self.ks {
                    let op = Op::Gemm {
                        m: m as f64,
                        n: n as f64,
                        k: k as f64,
                        bias: false,
                    };
                    for &format in self.formats {
                        let result = op.predict(&self.precision_for(format), hardware, efficiency);
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
}
