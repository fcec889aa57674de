//! The roofline itself: time = max(bytes / bandwidth, FLOPs / peak), with optional
//! achievable fractions of each so that measured calibration can plug in.

use std::fmt;

use crate::format::Math;
use crate::hardware::{ComputeCeiling, Hardware};
use crate::units::{Bytes, BytesPerSecond, Flops, FlopsPerByte, FlopsPerSecond, Seconds};

/// Which ceiling limits an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// Bytes / bandwidth is the larger time.
    Memory,
    /// FLOPs / peak is the larger (or equal) time.
    Compute,
}

impl Bound {
    /// `memory` or `compute`.
    pub fn name(self) -> &'static str {
        match self {
            Bound::Memory => "memory",
            Bound::Compute => "compute",
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Achievable fractions of the datasheet ceilings (1.0 = the datasheet).
#[derive(Clone, Debug, PartialEq)]
pub struct Efficiency {
    /// Fraction of peak memory bandwidth reached.
    pub bandwidth: f64,
    /// Fraction of peak compute reached, unless overridden per operation type.
    pub compute: f64,
    /// Per-operation-type overrides of `compute` (from measured calibration).
    pub compute_by_math: Vec<(Math, f64)>,
}

impl Default for Efficiency {
    fn default() -> Self {
        Efficiency::IDEAL
    }
}

impl Efficiency {
    /// The datasheet roofline.
    pub const IDEAL: Efficiency = Efficiency {
        bandwidth: 1.0,
        compute: 1.0,
        compute_by_math: Vec::new(),
    };

    /// The compute fraction for one operation type.
    pub fn compute_for(&self, math: Math) -> f64 {
        self.compute_by_math
            .iter()
            .find(|(m, _)| *m == math)
            .map_or(self.compute, |(_, f)| *f)
    }
}

/// The work an operation does.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Work {
    /// Operations (an FMA is two).
    pub flops: Flops,
    /// Bytes moved to and from DRAM.
    pub bytes: Bytes,
}

impl Work {
    /// Arithmetic intensity, FLOPs per byte (0 when no bytes move).
    pub fn intensity(&self) -> FlopsPerByte {
        if self.bytes.get() > 0.0 {
            self.flops / self.bytes
        } else {
            FlopsPerByte(0.0)
        }
    }
}

impl std::ops::Add for Work {
    type Output = Work;
    fn add(self, rhs: Work) -> Work {
        Work {
            flops: self.flops + rhs.flops,
            bytes: self.bytes + rhs.bytes,
        }
    }
}

/// The two ceilings an operation meets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Roof {
    /// Achievable bandwidth.
    pub bandwidth: BytesPerSecond,
    /// Achievable compute rate for the operation's type.
    pub peak: FlopsPerSecond,
}

impl Roof {
    /// The roof on `hardware` for a computation described by `ceiling`, scaled by `efficiency`.
    pub fn new(hardware: &Hardware, ceiling: &ComputeCeiling, efficiency: &Efficiency) -> Roof {
        Roof {
            bandwidth: hardware.memory_bandwidth.value * efficiency.bandwidth,
            peak: ceiling.peak * efficiency.compute_for(ceiling.executed_as),
        }
    }

    /// Ridge point: the intensity where both ceilings give the same time.
    pub fn ridge(&self) -> FlopsPerByte {
        self.peak / self.bandwidth
    }

    /// Attainable rate at intensity `ai`: min(peak, ai x bandwidth).
    pub fn attainable(&self, ai: FlopsPerByte) -> FlopsPerSecond {
        let memory = ai * self.bandwidth;
        if memory.get() < self.peak.get() {
            memory
        } else {
            self.peak
        }
    }

    /// Predicts the time of `work` under this roof.
    pub fn predict(&self, work: Work) -> Prediction {
        let memory_time = work.bytes / self.bandwidth;
        let compute_time = if work.flops.get() > 0.0 {
            work.flops / self.peak
        } else {
            Seconds::ZERO
        };
        let bound = if compute_time.get() >= memory_time.get() && work.flops.get() > 0.0 {
            Bound::Compute
        } else {
            Bound::Memory
        };
        let time = if bound == Bound::Compute {
            compute_time
        } else {
            memory_time
        };
        let intensity = work.intensity();
        Prediction {
            work,
            time,
            memory_time,
            compute_time,
            intensity,
            ridge: self.ridge(),
            bound,
            attainable: self.attainable(intensity),
        }
    }
}

/// A roofline prediction for one piece of work.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// The work predicted.
    pub work: Work,
    /// max(memory_time, compute_time).
    pub time: Seconds,
    /// bytes / bandwidth.
    pub memory_time: Seconds,
    /// FLOPs / peak.
    pub compute_time: Seconds,
    /// FLOPs per byte.
    pub intensity: FlopsPerByte,
    /// The ridge point (critical intensity) of the roof used.
    pub ridge: FlopsPerByte,
    /// Which ceiling binds.
    pub bound: Bound,
    /// Attainable FLOP/s at this intensity.
    pub attainable: FlopsPerSecond,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roof() -> Roof {
        Roof {
            bandwidth: BytesPerSecond::gb_s(1000.0),
            peak: FlopsPerSecond::tflops(200.0),
        }
    }

    #[test]
    fn memory_and_compute_bound_cases() {
        let p = roof().predict(Work {
            flops: Flops(2e6),
            bytes: Bytes(2e6),
        });
        assert_eq!(p.bound, Bound::Memory);
        assert_eq!(p.time, Seconds(2e-6));
        assert_eq!(p.ridge, FlopsPerByte(200.0));
        assert_eq!(p.attainable, FlopsPerSecond(1e12));
        let p = roof().predict(Work {
            flops: Flops(2e12),
            bytes: Bytes(1e6),
        });
        assert_eq!(p.bound, Bound::Compute);
        assert_eq!(p.time, Seconds(0.01));
        assert_eq!(p.attainable, FlopsPerSecond::tflops(200.0));
    }

    #[test]
    fn at_the_ridge_compute_binds_and_zero_flops_is_memory() {
        let p = roof().predict(Work {
            flops: Flops(200e6),
            bytes: Bytes(1e6),
        });
        assert_eq!(p.bound, Bound::Compute);
        let p = roof().predict(Work {
            flops: Flops(0.0),
            bytes: Bytes(1e6),
        });
        assert_eq!((p.bound, p.intensity), (Bound::Memory, FlopsPerByte(0.0)));
    }

    #[test]
    fn efficiency_scales_each_ceiling() {
        let hw = crate::hardware::registry::get("h100-sxm").unwrap();
        let ceiling = hw.ceiling(Math::Fp16, false);
        let eff = Efficiency {
            bandwidth: 0.9,
            compute: 0.7,
            compute_by_math: vec![(Math::Fp16, 0.8)],
        };
        let r = Roof::new(&hw, &ceiling, &eff);
        assert!((r.bandwidth.get() - 3.35e12 * 0.9).abs() < 1.0);
        assert!((r.peak.get() - 989.5e12 * 0.8).abs() < 1.0);
        assert_eq!(eff.compute_for(Math::Fp8), 0.7);
    }
}
