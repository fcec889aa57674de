//! The CPU kernels, each spread over every core with rayon: a read (sum), STREAM-style
//! copy and triad, a GEMV (batch 1 to 8) that reads the packed weights directly with the
//! SIMD loops of [`simd`], and a GEMM that dequantises weight panels into FP32 and
//! multiplies them with `matrixmultiply` (through ndarray).

use ndarray::{ArrayView2, ArrayViewMut2, Axis, linalg::general_mat_mul};
use rayon::prelude::*;

use super::simd;
use super::weights::{Packed, Weights};

/// Elements per parallel chunk of the bandwidth kernels (512 KiB of f64).
const STREAM_CHUNK: usize = 1 << 16;
/// Weight bytes per GEMV task: large enough that scheduling a task costs little next to
/// streaming its rows (a 4096-wide INT4 row is only 2 KiB), small enough that every core
/// gets many tasks.
const GEMV_TASK_BYTES: usize = 256 << 10;
/// Weight rows a GEMV multiplies together, each activation chunk loaded once for all of
/// them ([`simd::dot_with`]).
const ROWS: usize = 4;
/// Vectors of a batch the GEMV multiplies together: [`ROWS`] x `VECTORS` accumulators and
/// the [`ROWS`] converted weight chunks fit AVX2's sixteen registers.
const VECTORS: usize = 2;
/// Vectors the kernels multiply together where they run with AVX-512
/// ([`simd::wide_float_kernels`], [`simd::wide_int4_kernels`]): [`ROWS`] x
/// `WIDE_VECTORS` accumulators fit its thirty-two registers.
const WIDE_VECTORS: usize = 4;
/// Weight rows (output columns) per GEMM panel.
const GEMM_PANEL: usize = 64;

/// The sum of `a`: a pure read (a GEMV's access pattern), its result checked by the
/// caller; each chunk summed by [`simd::sum_f64`], vectorised like the GEMV's loops so the
/// read ceiling and the GEMVs are measured with the same instructions available.
pub fn read(a: &[f64]) -> f64 {
    a.par_chunks(STREAM_CHUNK).map(simd::sum_f64).sum()
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

/// The largest batch the GEMV kernel takes; larger ones are GEMMs.
pub const GEMV_MAX_BATCH: usize = crate::backend::GEMV_MAX_BATCH as usize;

/// The activations a GEMV's weights meet: FP32, or int8 per block for integer weights
/// (see [`simd`]).
enum Activations<'a> {
    Float(Vec<&'a [f32]>),
    Quantized(Vec<simd::QuantizedActs>),
}

impl<'a> Activations<'a> {
    fn of(w: &Weights, x: &'a [f32]) -> Self {
        let vectors = x.chunks(w.cols);
        if w.integer_path() {
            Activations::Quantized(vectors.map(simd::QuantizedActs::new).collect())
        } else {
            Activations::Float(vectors.collect())
        }
    }

    /// Vectors `first..first + M` times weight rows `rows`: `[m][r]`.
    fn dot<const R: usize, const M: usize>(
        &self,
        w: &Weights,
        rows: [usize; R],
        first: usize,
    ) -> [[f32; R]; M] {
        match self {
            Activations::Float(x) => w.rows_dot(rows, std::array::from_fn(|m| x[first + m])),
            Activations::Quantized(q) => {
                w.rows_dot_q8(rows, std::array::from_fn(|m| &q[first + m]))
            }
        }
    }

    /// Every vector times weight rows `rows`, each result given to `out` with its row and
    /// vector: [`WIDE_VECTORS`] at a time where the wide kernels run, then [`VECTORS`] at a
    /// time (the kernels convert or unpack each weight once for them), the last one alone.
    fn dot_every_vector<const R: usize>(
        &self,
        w: &Weights,
        rows: [usize; R],
        out: &mut impl FnMut(usize, usize, f32),
    ) {
        let mut give = |first: usize, sums: &[[f32; R]]| {
            for (m, row_sums) in sums.iter().enumerate() {
                for (row, v) in rows.into_iter().zip(row_sums) {
                    out(row, first + m, *v);
                }
            }
        };
        let n = self.len();
        let mut i = 0;
        let wide = match (self, &w.packed) {
            (Activations::Float(_), _) => simd::wide_float_kernels(),
            (Activations::Quantized(_), Packed::Int4 { .. }) => simd::wide_int4_kernels(),
            (Activations::Quantized(_), _) => false,
        };
        if wide {
            while i + WIDE_VECTORS <= n {
                give(i, &self.dot::<R, WIDE_VECTORS>(w, rows, i));
                i += WIDE_VECTORS;
            }
        }
        while i + VECTORS <= n {
            give(i, &self.dot::<R, VECTORS>(w, rows, i));
            i += VECTORS;
        }
        for i in i..n {
            give(i, &self.dot::<R, 1>(w, rows, i));
        }
    }

    /// Vectors.
    fn len(&self) -> usize {
        match self {
            Activations::Float(x) => x.len(),
            Activations::Quantized(q) => q.len(),
        }
    }

    /// Every vector times weight rows `rows` (a task's), each result given to `out` with
    /// its row and vector: [`ROWS`] rows at a time, one from each quarter of the task's
    /// rows, so each of the four streams the core reads runs on through consecutive rows
    /// (one long stream each, rather than four short ones restarting every group); the
    /// last few rows one by one. Every vector meets a group while it is in cache.
    fn dot_rows(
        &self,
        w: &Weights,
        rows: std::ops::Range<usize>,
        mut out: impl FnMut(usize, usize, f32),
    ) {
        let quarter = rows.len() / ROWS;
        for r in rows.start..rows.start + quarter {
            let group: [usize; ROWS] = std::array::from_fn(|j| r + j * quarter);
            self.dot_every_vector(w, group, &mut out);
        }
        for r in rows.start + ROWS * quarter..rows.end {
            self.dot_every_vector(w, [r], &mut out);
        }
    }
}

/// The values a GEMV multiplies `w` by, as the reference check must use them: `x` itself,
/// or its int8 quantisation's values on the integer path.
pub fn gemv_inputs(w: &Weights, x: &[f32]) -> Vec<f32> {
    match Activations::of(w, x) {
        Activations::Float(_) => x.to_vec(),
        Activations::Quantized(q) => q.iter().flat_map(simd::QuantizedActs::values).collect(),
    }
}

/// Y[m, n] = X[m, k] W[n, k]^T for a few vectors (`m = x.len() / w.cols`, at most
/// [`GEMV_MAX_BATCH`]): each weight row is read from memory once and multiplied by every
/// vector while it is in cache, rows spread over every core.
pub fn gemv(w: &Weights, x: &[f32], y: &mut [f32]) {
    let (n, k) = (w.rows, w.cols);
    let m = x.len() / k.max(1);
    let acts = Activations::of(w, x);
    let rows_per_task = (GEMV_TASK_BYTES / (w.bytes() / n.max(1)).max(1)).clamp(1, 1024);
    if m == 1 {
        y.par_chunks_mut(rows_per_task)
            .enumerate()
            .for_each(|(chunk, out)| {
                let first = chunk * rows_per_task;
                let rows = first..first + out.len();
                acts.dot_rows(w, rows, |row, _, v| out[row - first] = v);
            });
        return;
    }
    // Row-major by weight row (each row's m outputs together), then written out m x n.
    let mut by_row = vec![0.0f32; n * m];
    by_row
        .par_chunks_mut(rows_per_task * m)
        .enumerate()
        .for_each(|(chunk, out)| {
            let first = chunk * rows_per_task;
            let rows = first..first + out.len() / m;
            acts.dot_rows(w, rows, |row, i, v| out[(row - first) * m + i] = v);
        });
    for (row, outs) in by_row.chunks(m).enumerate() {
        for (i, v) in outs.iter().enumerate() {
            y[i * n + row] = *v;
        }
    }
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
