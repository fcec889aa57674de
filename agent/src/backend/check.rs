//! Output checks shared by every backend: a kernel's result against an FP64 reference
//! computed from the model crate's own decoding of the same bytes
//! (`Quantized::dequantize`), within the worst-case error of FP32 summation.

use rooflinr_protocol::Check;

use crate::backend::MeasureError;

/// The FP32 accumulation bound for a sum of `k` products whose magnitudes add up to
/// `abs_sum`: 2 k eps |x||w| (recursive summation, plus the rounding of each product
/// and of the dequantised weight), with a floor for all-zero rows.
pub fn error_bound(k: usize, abs_sum: f64) -> f64 {
    2.0 * k as f64 * f64::from(f32::EPSILON) * abs_sum + 1e-30
}

/// One output to check: its index, the kernel's value, and the reference with its
/// error bound.
#[derive(Clone, Copy, Debug)]
pub struct Compared {
    /// Output index.
    pub index: usize,
    /// Kernel output.
    pub got: f64,
    /// Reference value.
    pub expected: f64,
    /// Allowed error.
    pub bound: f64,
}

/// The FP64 dot product of a dequantised row with `x`, and its error bound.
pub fn reference_dot(row: &[f32], x: &[f32]) -> (f64, f64) {
    let (mut sum, mut abs) = (0.0f64, 0.0f64);
    for (w, x) in row.iter().zip(x) {
        let p = f64::from(*w) * f64::from(*x);
        sum += p;
        abs += p.abs();
    }
    (sum, error_bound(row.len(), abs))
}

/// Passes when every output is within its bound; the first one that is not is the error.
pub fn verdict(
    what: &str,
    compared: impl IntoIterator<Item = Compared>,
    reference: &str,
) -> Result<Check, MeasureError> {
    let mut worst = 0.0f64;
    let mut count = 0u64;
    for c in compared {
        count += 1;
        let err = (c.got - c.expected).abs();
        if err.is_nan() || err > c.bound {
            return Err(MeasureError::WrongResult {
                what: what.to_string(),
                index: c.index,
                got: c.got,
                expected: c.expected,
                bound: c.bound,
            });
        }
        worst = worst.max(err / c.bound);
    }
    Ok(Check {
        worst_error_ratio: worst,
        outputs_checked: count,
        reference: reference.to_string(),
    })
}
