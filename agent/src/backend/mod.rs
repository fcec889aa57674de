//! Measurement backends: one trait, one implementation per kind of device. The CPU
//! backend is always present; the CUDA backend is there when the machine has a driver,
//! a GPU and NVRTC (it says which is missing otherwise).
//!
//! A backend is driven from the job worker's own thread: every call blocks until the
//! device has finished, and checks the cancel flag between samples.

pub mod check;
pub mod cpu;
pub mod cuda;

use std::sync::atomic::AtomicBool;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rooflinr_model::format::{Format, GroupedInt, ScaleType, ZeroPoint};
use rooflinr_model::quant::{Codec, Quantized};
use rooflinr_protocol::{BackendInfo, BackendKind, Measurement, MeasurementKind, OperatorShape};

use crate::stats::StopRule;

/// INT4, symmetric, one FP16 scale per 128 values along a row: the INT4 format both
/// backends measure (`int4-g128`).
pub const INT4_G128: GroupedInt = GroupedInt {
    bits: 4,
    group: 128,
    scale: ScaleType::Fp16,
    zero: ZeroPoint::None,
};

/// The most activation rows (the batch) the backends' GEMV kernels take: each weight is
/// read once and multiplied by every vector. Larger batches run as GEMMs.
pub const GEMV_MAX_BATCH: u64 = 8;

/// What an operator of `shape` is measured as: a GEMV up to [`GEMV_MAX_BATCH`] rows (it
/// only reads its weights, so the read bandwidth is its yardstick), else a GEMM.
pub fn operator_kind(shape: OperatorShape) -> MeasurementKind {
    if shape.m <= GEMV_MAX_BATCH {
        MeasurementKind::Gemv
    } else {
        MeasurementKind::Gemm
    }
}

/// One thing to measure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Work {
    /// Read bandwidth: a sum (or XOR) over one array, the yardstick of a GEMV, which only
    /// reads its weights.
    Read,
    /// Memory bandwidth: b = a.
    Copy,
    /// Memory bandwidth: a = b + s c.
    Triad,
    /// A format's compute ceiling: a compute-bound `shape` in `format` (a square GEMM,
    /// or another of the backend's kernels that runs the format faster).
    PeakGemm {
        /// Weight format.
        format: Format,
        /// The shape.
        shape: OperatorShape,
    },
    /// A GEMV (`shape.m` up to [`GEMV_MAX_BATCH`]) or GEMM with weights in `format`.
    Operator {
        /// The shape.
        shape: OperatorShape,
        /// Weight format.
        format: Format,
    },
}

impl Work {
    /// Readable label (`gemv 1x4096x4096 int8`).
    pub fn label(&self) -> String {
        match self {
            Work::Read => "read bandwidth".into(),
            Work::Copy => "copy bandwidth".into(),
            Work::Triad => "triad bandwidth".into(),
            Work::PeakGemm { format, shape } if shape.m == shape.n && shape.n == shape.k => {
                format!("peak gemm {}^3 {format}", shape.m)
            }
            Work::PeakGemm { format, shape } => {
                format!("peak gemm {}x{}x{} {format}", shape.m, shape.n, shape.k)
            }
            Work::Operator { shape, format } => {
                let op = match operator_kind(*shape) {
                    MeasurementKind::Gemv => "gemv",
                    _ => "gemm",
                };
                format!("{op} {}x{}x{} {format}", shape.m, shape.n, shape.k)
            }
        }
    }
}

/// Why a point was not measured.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeasureError {
    /// The job was cancelled.
    #[error("cancelled")]
    Cancelled,
    /// The buffers would not fit.
    #[error("{what} needs {needed} but only {free} is free on {device}")]
    OutOfMemory {
        /// The work.
        what: String,
        /// Bytes needed, formatted.
        needed: String,
        /// Bytes free, formatted.
        free: String,
        /// The device.
        device: String,
    },
    /// The backend cannot run this work.
    #[error("{0}")]
    Unsupported(String),
    /// The kernel's output disagreed with the reference: no time is reported.
    #[error(
        "{what}: output {index} is {got} but the reference is {expected} (error bound {bound}); no time reported"
    )]
    WrongResult {
        /// The work.
        what: String,
        /// The first output out of bounds.
        index: usize,
        /// Kernel output.
        got: f64,
        /// Reference.
        expected: f64,
        /// Allowed error.
        bound: f64,
    },
}

/// A device that can be measured.
pub trait Backend: Send + Sync {
    /// Which backend it is.
    fn kind(&self) -> BackendKind;

    /// What the hello message says about it.
    fn info(&self) -> BackendInfo;

    /// Weight formats it measures.
    fn formats(&self) -> Vec<Format>;

    /// Bytes of device memory `work` would allocate.
    fn bytes_needed(&self, work: &Work) -> u64;

    /// Device memory free now.
    fn free_memory(&self) -> u64;

    /// The size of the square GEMM that measures a format's peak.
    fn peak_gemm_size(&self) -> u64;

    /// The formats whose compute peak it measures (by default every format it measures).
    fn peak_formats(&self) -> Vec<Format> {
        self.formats()
    }

    /// The shapes that measure `format`'s compute peak, the fastest of which sets it: by
    /// default the square GEMM of `size`.
    fn peak_shapes(&self, _format: Format, size: u64) -> Vec<OperatorShape> {
        vec![OperatorShape {
            m: size,
            n: size,
            k: size,
        }]
    }

    /// Measures `work`: checks its output against a reference first, then samples it
    /// under `rule`. The returned measurement has no ceiling comparison yet (the job
    /// adds it from the ceilings measured so far).
    fn measure(
        &self,
        work: &Work,
        rule: &StopRule,
        cancel: &AtomicBool,
    ) -> Result<Measurement, MeasureError>;
}

/// A count as an index, refused when this machine cannot index it.
pub fn index(v: u64, what: &str) -> Result<usize, MeasureError> {
    usize::try_from(v).map_err(|_| MeasureError::Unsupported(format!("{what} {v} is too large")))
}

/// An operator's dimensions as indices (m, n, k).
pub fn dims(shape: OperatorShape) -> Result<(usize, usize, usize), MeasureError> {
    Ok((
        index(shape.m, "m")?,
        index(shape.n, "n")?,
        index(shape.k, "k")?,
    ))
}

/// The weights every backend measures an `n x k` operator with: uniform values in
/// [-1, 1) from a generator seeded by the shape, packed by the model crate's codec for
/// `format`; the generator is handed back to draw the activations from.
pub fn packed_weights(
    format: Format,
    n: usize,
    k: usize,
) -> Result<(Quantized, ChaCha8Rng), MeasureError> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed ^ (n * 31 + k) as u64);
    let source: Vec<f32> = (0..n * k).map(|_| rng.random_range(-1.0f32..1.0)).collect();
    let q = Codec::for_format(format)
        .quantize(&source, k)
        .map_err(|e| MeasureError::Unsupported(e.to_string()))?;
    Ok((q, rng))
}

/// Weights packed by [`packed_weights`], the random state after them, and their values as
/// the model crate dequantises them (the reference an output is checked against).
pub struct PreparedWeights {
    /// The packed weights.
    pub packed: Quantized,
    /// The generator as [`packed_weights`] left it (activations are drawn from it next).
    pub rng: ChaCha8Rng,
    /// `packed.dequantize()`.
    pub reference: Vec<f32>,
}

/// The last weights a backend prepared, kept for its next point of the same format and
/// size: what [`packed_weights`] returns is a function of those alone, so a point measured
/// from the kept copy sees exactly the weights and activations a fresh one would.
#[derive(Default)]
pub struct LastWeights {
    last: std::sync::Mutex<Option<(WeightsKey, std::sync::Arc<PreparedWeights>)>>,
}

/// What prepared weights are a function of: format, n, k.
type WeightsKey = (Format, usize, usize);

impl LastWeights {
    /// The prepared `n x k` weights in `format`, made now unless they were the last ones.
    pub fn get(
        &self,
        format: Format,
        n: usize,
        k: usize,
    ) -> Result<std::sync::Arc<PreparedWeights>, MeasureError> {
        let key = (format, n, k);
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((kept, prepared)) = last.as_ref()
            && *kept == key
        {
            return Ok(prepared.clone());
        }
        // Drop the old copy first: two large matrices need not be held at once.
        *last = None;
        let (packed, rng) = packed_weights(format, n, k)?;
        let reference = packed.dequantize();
        let prepared = std::sync::Arc::new(PreparedWeights {
            packed,
            rng,
            reference,
        });
        *last = Some((key, prepared.clone()));
        Ok(prepared)
    }
}

/// Refuses `work` when its buffers would not fit in `free` bytes.
pub fn check_fits(backend: &dyn Backend, work: &Work) -> Result<(), MeasureError> {
    let needed = backend.bytes_needed(work);
    let free = backend.free_memory();
    if needed > free {
        let info = backend.info();
        return Err(MeasureError::OutOfMemory {
            what: work.label(),
            needed: gib(needed),
            free: gib(free),
            device: info
                .device
                .map(|d| d.name)
                .unwrap_or_else(|| backend.kind().to_string()),
        });
    }
    Ok(())
}

/// Bytes as GiB with two decimals (`12.50 GiB`).
pub fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / f64::from(1u32 << 30))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn kept_weights_are_the_ones_a_fresh_preparation_gives() {
        let kept = LastWeights::default();
        let a = kept.get(Format::NvFp4, 8, 256).unwrap();
        // The same matrix again: the same copy, not a new one.
        assert!(std::sync::Arc::ptr_eq(
            &a,
            &kept.get(Format::NvFp4, 8, 256).unwrap()
        ));
        let (fresh, mut fresh_rng) = packed_weights(Format::NvFp4, 8, 256).unwrap();
        assert_eq!(a.packed.elements, fresh.elements);
        assert_eq!(a.packed.scales, fresh.scales);
        assert_eq!(a.reference, fresh.dequantize());
        // Activations drawn after the kept weights are those drawn after fresh ones.
        let mut rng = a.rng.clone();
        let draw = |r: &mut ChaCha8Rng| (0..16).map(|_| r.random::<u32>()).collect::<Vec<_>>();
        assert_eq!(draw(&mut rng), draw(&mut fresh_rng));
        // Another format or size replaces the kept copy.
        let b = kept.get(Format::Int8, 8, 256).unwrap();
        assert!(!std::sync::Arc::ptr_eq(&a, &b));
        assert!(!std::sync::Arc::ptr_eq(
            &a,
            &kept.get(Format::NvFp4, 8, 256).unwrap()
        ));
    }
}
