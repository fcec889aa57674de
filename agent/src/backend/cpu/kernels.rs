//! The CPU kernels, each spread over every core with rayon: a read (sum), STREAM-style
//! copy and triad,
//! a GEMV that reads the packed weights directly, and a GEMM that dequantises weight
//! panels into FP32 and multiplies them with `matrixmultiply` (through ndarray).

use ndarray::{ArrayView2, ArrayViewMut2, Axis, linalg::general_mat_mul};
use rayon::prelude::*;

use super::weights::{Packed, Weights};

/// Elements per parallel chunk of the bandwidth kernels (512 KiB of f64).
const STREAM_CHUNK: usize = 1 << 16;
/// Weight rows per GEMV task.
const GEMV_ROWS: usize = 16;
/// Weight rows (output columns) per GEMM panel.
const GEMM_PANEL: usize = 64;

/// The sum of `a`: a pure read (a GEMV's access pattern), its result checked by the
/// caller. Eight partial sums per chunk so the loop vectorises.
pub fn read(a: &[f64]) -> f64 {
    a.par_chunks(STREAM_CHUNK)
        .map(|chunk| {
            let mut acc = [0.0f64; 8];
            let blocks = chunk.chunks_exact(8);
            let tail: f64 = blocks.remainder().iter().sum();
            for b in blocks {
                for i in 0..8 {
                    acc[i] += b[i];
                }
            }
            acc.iter().sum::<f64>() + tail
        })
        .sum()
}

/// b = a.
pub fn copy(a: &[f64], b: &mut [f64]) {
    b.par_chunks_mut(STREAM_CHUNK)
        .zip(a.par_chunks(STREAM_CHUNK))
        .for_each(|(d, s)| d.copy_from_slice(s));
}

/// a = b + scalar * c.
pub fn triad(a: &mut [f64], b: &[f64], c: &[f64], scalar: f64) {
    a.par_chunks_mut(STREAM_CHUNK)
        .zip(b.par_chunks(STREAM_CHUNK))
        .zip(c.par_chunks(STREAM_CHUNK))
        .for_each(|((a, b), c)| {
            for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                *a = b + scalar * c;
            }
        });
}

/// y = W x for one token (`x.len() == w.cols`, `y.len() == w.rows`).
pub fn gemv(w: &Weights, x: &[f32], y: &mut [f32]) {
    y.par_chunks_mut(GEMV_ROWS)
        .enumerate()
        .for_each(|(chunk, out)| {
            for (i, o) in out.iter_mut().enumerate() {
                *o = w.row_dot(chunk * GEMV_ROWS + i, x);
            }
        });
}

/// C[m, n] = X[m, k] W[n, k]^T, by panels of weight rows.
pub fn gemm(w: &Weights, x: ArrayView2<f32>, mut c: ArrayViewMut2<f32>) {
    let k = w.cols;
    c.axis_chunks_iter_mut(Axis(1), GEMM_PANEL)
        .into_par_iter()
        .enumerate()
        .for_each_init(
            || vec![0.0f32; GEMM_PANEL * k],
            |scratch, (panel, mut c_panel)| {
                let r0 = panel * GEMM_PANEL;
                let r1 = r0 + c_panel.ncols();
                let rows = r1 - r0;
                let w_panel = match &w.packed {
                    Packed::F32(all) => &all[r0 * k..r1 * k],
                    _ => {
                        w.dequantize_rows(r0, r1, scratch);
                        &scratch[..rows * k]
                    }
                };
                let w_panel = ArrayView2::from_shape((rows, k), w_panel)
                    .expect("panel holds rows x k values");
                general_mat_mul(1.0, &x, &w_panel.t(), 0.0, &mut c_panel);
            },
        );
}
