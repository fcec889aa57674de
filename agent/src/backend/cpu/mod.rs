//! The CPU backend, present on every machine and really measured: bandwidth from
//! STREAM-style copy and triad over buffers far larger than the last-level cache, each
//! format's compute ceiling from a large GEMM, and GEMV/GEMM with weights in FP32, BF16,
//! FP16, INT8 and INT4 (group 128) read from the model crate's packed bytes. Activations
//! and accumulation are FP32; lower-precision weights are converted as they are read.

pub mod kernels;
pub mod simd;
pub mod weights;

use std::sync::atomic::AtomicBool;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use ndarray::Array2;
use rand::Rng;
use rooflinr_model::format::Format;
use rooflinr_model::ops::{Op, Precision};
use rooflinr_protocol::{
    BackendInfo, BackendKind, DeviceInfo, Measurement, MeasurementKind, OperatorShape, Stats,
};
use sysinfo::{CpuRefreshKind, MemoryRefreshKind, RefreshKind, System};

use self::weights::{Weights, cpu_formats};
use super::{Backend, MeasureError, Work, operator_kind};
use crate::backend::check::{Compared, reference_dot, verdict};
use crate::stats::{self, Cancelled, StopRule};

/// Sizes the CPU backend works with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CpuOptions {
    /// m = n = k of the GEMM that measures each format's peak.
    pub peak_gemm_size: u64,
    /// Bytes per array of the bandwidth kernels; eight times the last-level cache (at
    /// least 128 MiB) when absent.
    pub stream_array_bytes: Option<u64>,
}

impl Default for CpuOptions {
    fn default() -> Self {
        CpuOptions {
            peak_gemm_size: 1024,
            stream_array_bytes: None,
        }
    }
}

/// The host CPU as a measurement device.
pub struct CpuBackend {
    device: DeviceInfo,
    options: CpuOptions,
}

/// Weight copies rotate until their total is this many times the last-level cache.
const ROTATE_LLC_MULTIPLE: u64 = 4;
/// Last-level cache assumed when the OS does not say.
const ASSUMED_LLC: u64 = 32 << 20;
/// Rows and columns of the weights of the batched GEMV that measures a peak: 2048 x 2048
/// (2 MB in INT4, 4 MB in INT8, 16 MB in FP32) stays in a server CPU's last-level cache
/// between calls; where the weights do not stay in cache, the batch runs slower and the
/// GEMM sets the peak. A format whose weights at twice the width take at most half the
/// last-level cache (INT4 on a 32 MB cache) is also measured there: once the integer
/// kernels prefetched a batch's rows, INT4's 8 x 2048 x 2048 batch (about 0.14 ms on two
/// Zen 5 cores, each row 1 KiB) ran 19-29 % slower per FLOP than the 8 x 4096 x 4096 ones
/// streaming from memory, so `compare` had them beat their ceiling.
const PEAK_BATCH_WIDTH: u64 = 2048;

impl CpuBackend {
    /// Reads the CPU's name, threads, memory and last-level cache.
    pub fn new(options: CpuOptions) -> CpuBackend {
        let sys = System::new_with_specifics(
            RefreshKind::nothing()
                .with_cpu(CpuRefreshKind::nothing())
                .with_memory(MemoryRefreshKind::nothing().with_ram()),
        );
        let name = sys
            .cpus()
            .first()
            .map(|c| c.brand().trim().to_string())
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| "CPU".to_string());
        CpuBackend {
            device: DeviceInfo {
                name,
                memory_total_bytes: sys.total_memory(),
                memory_free_bytes: sys.available_memory(),
                compute_units: rayon::current_num_threads() as u32,
                last_level_cache_bytes: last_level_cache(),
                unified_memory: true,
                ..DeviceInfo::default()
            },
            options,
        }
    }

    fn llc(&self) -> u64 {
        self.device.last_level_cache_bytes.unwrap_or(ASSUMED_LLC)
    }

    fn stream_len(&self) -> usize {
        let bytes = self
            .options
            .stream_array_bytes
            .unwrap_or_else(|| (8 * self.llc()).max(128 << 20));
        (bytes / 8).max(1) as usize
    }

    fn rotations(&self, weight_bytes: u64) -> usize {
        (ROTATE_LLC_MULTIPLE * self.llc())
            .div_ceil(weight_bytes.max(1))
            .clamp(1, 64) as usize
    }

    fn operator_parts(work: &Work) -> Option<(OperatorShape, Format, MeasurementKind)> {
        match *work {
            Work::PeakGemm { format, shape } => Some((shape, format, MeasurementKind::PeakGemm)),
            Work::Operator { shape, format } => Some((shape, format, operator_kind(shape))),
            Work::Read | Work::Copy | Work::Triad => None,
        }
    }
}

/// The largest cache the OS lists for CPU 0 (Linux sysfs), if it lists any.
fn last_level_cache() -> Option<u64> {
    let dir = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache").ok()?;
    dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("size")).ok())
        .filter_map(|s| parse_cache_size(s.trim()))
        .max()
}

fn parse_cache_size(s: &str) -> Option<u64> {
    let (digits, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = digits.parse().ok()?;
    match unit {
        "" => Some(n),
        "K" => Some(n << 10),
        "M" => Some(n << 20),
        "G" => Some(n << 30),
        _ => None,
    }
}

fn precision(format: Format) -> Precision {
    Precision {
        activations: Format::Fp32,
        weights: format,
        kv: Format::Fp32,
        output: Format::Fp32,
    }
}

fn now_unix_s() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

impl CpuBackend {
    fn measurement(
        &self,
        work: &Work,
        kind: MeasurementKind,
        flops: f64,
        bytes: f64,
        bytes_counted: &str,
        stats: Stats,
    ) -> Measurement {
        let (shape, format) = match Self::operator_parts(work) {
            Some((shape, format, _)) => (Some(shape), Some(format)),
            None => (None, None),
        };
        Measurement {
            format,
            activation_format: format.map(|_| Format::Fp32),
            shape,
            ..Measurement::sampled(
                kind,
                work.label(),
                BackendKind::Cpu,
                self.device.name.clone(),
                (flops, bytes, bytes_counted),
                stats,
                now_unix_s(),
            )
        }
    }

    fn measure_stream(
        &self,
        work: &Work,
        rule: &StopRule,
        cancel: &AtomicBool,
    ) -> Result<Measurement, MeasureError> {
        let n = self.stream_len();
        let a: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let (kind, stats, arrays, counted) = if *work == Work::Read {
            let mut sum = 0.0;
            let stats = stats::sample(rule, cancel, || {
                let t = Instant::now();
                sum = std::hint::black_box(kernels::read(&a));
                t.elapsed().as_secs_f64()
            })
            .map_err(|Cancelled| MeasureError::Cancelled)?;
            // 0 + 1 + ... + (n - 1), exact in f64 while n(n-1)/2 < 2^53 (n < 2^27 per GiB).
            let expected = (n as f64) * (n as f64 - 1.0) / 2.0;
            if sum != expected {
                return Err(MeasureError::WrongResult {
                    what: work.label(),
                    index: 0,
                    got: sum,
                    expected,
                    bound: 0.0,
                });
            }
            (MeasurementKind::Read, stats, 1.0, "read (1 array)")
        } else if *work == Work::Copy {
            let mut b = vec![0.0f64; n];
            let stats = stats::sample(rule, cancel, || {
                let t = Instant::now();
                kernels::copy(&a, &mut b);
                t.elapsed().as_secs_f64()
            })
            .map_err(|Cancelled| MeasureError::Cancelled)?;
            let bad = (0..n).find(|&i| a[i] != b[i]);
            if let Some(i) = bad {
                return Err(MeasureError::WrongResult {
                    what: work.label(),
                    index: i,
                    got: b[i],
                    expected: a[i],
                    bound: 0.0,
                });
            }
            (MeasurementKind::Copy, stats, 2.0, "read + write (2 arrays)")
        } else {
            let c: Vec<f64> = (0..n).map(|i| (i % 1000) as f64).collect();
            let mut out = vec![0.0f64; n];
            let b: Vec<f64> = (0..n).map(|i| 0.5 * i as f64).collect();
            let scalar = 3.0;
            let stats = stats::sample(rule, cancel, || {
                let t = Instant::now();
                kernels::triad(&mut out, &b, &c, scalar);
                t.elapsed().as_secs_f64()
            })
            .map_err(|Cancelled| MeasureError::Cancelled)?;
            let bad = (0..n).find(|&i| out[i] != b[i] + scalar * c[i]);
            if let Some(i) = bad {
                return Err(MeasureError::WrongResult {
                    what: work.label(),
                    index: i,
                    got: out[i],
                    expected: b[i] + scalar * c[i],
                    bound: 0.0,
                });
            }
            (
                MeasurementKind::Triad,
                stats,
                3.0,
                "2 reads + 1 write (3 arrays)",
            )
        };
        let bytes = arrays * (n * 8) as f64;
        let mut m = self.measurement(work, kind, 0.0, bytes, counted, stats);
        m.check = Some(rooflinr_protocol::Check {
            worst_error_ratio: 0.0,
            outputs_checked: n as u64,
            reference: "every element compared exactly".into(),
        });
        Ok(m)
    }

    fn measure_operator(
        &self,
        work: &Work,
        rule: &StopRule,
        cancel: &AtomicBool,
    ) -> Result<Measurement, MeasureError> {
        let Some((shape, format, kind)) = Self::operator_parts(work) else {
            return Err(MeasureError::Unsupported(work.label()));
        };
        if !cpu_formats().contains(&format) {
            return Err(MeasureError::Unsupported(format!(
                "the cpu backend does not measure {format} weights; it measures {}",
                format_names(&cpu_formats())
            )));
        }
        let (m, n, k) = super::dims(shape)?;
        let (q, mut rng) = super::packed_weights(format, n, k)?;
        let reference_rows = q.dequantize();
        let w = Weights::from_quantized(&q).ok_or_else(|| {
            MeasureError::Unsupported(format!("cpu kernels cannot read {format}"))
        })?;
        drop(q);
        let x: Vec<f32> = (0..m * k).map(|_| rng.random_range(-1.0f32..1.0)).collect();
        // A peak is measured from cache; an operator reads weights no cache still holds.
        let copies = if kind == MeasurementKind::PeakGemm {
            1
        } else {
            self.rotations(self.weight_bytes(format, n, k))
        };
        let replicas = vec![w; copies];
        let what = work.label();
        let integer = m <= kernels::GEMV_MAX_BATCH && replicas[0].integer_path();
        let reference = if integer {
            format!(
                "fp64 dot products of the model crate's dequantised {format} weights with the activations as the kernel quantised them (int8 per {} values)",
                simd::ACT_BLOCK
            )
        } else {
            format!("fp64 dot products of the model crate's dequantised {format} weights")
        };

        let (check, stats) = if m <= kernels::GEMV_MAX_BATCH {
            let mut y = vec![0.0f32; m * n];
            kernels::gemv(&replicas[0], &x, &mut y);
            // The reference multiplies what the kernel multiplied: on the integer path,
            // the int8 activations' values.
            let inputs = kernels::gemv_inputs(&replicas[0], &x);
            let check = verdict(
                &what,
                (0..m * n).map(|o| {
                    let (i, r) = (o / n, o % n);
                    let (expected, bound) = reference_dot(
                        &reference_rows[r * k..(r + 1) * k],
                        &inputs[i * k..(i + 1) * k],
                    );
                    Compared {
                        index: o,
                        got: f64::from(y[o]),
                        expected,
                        bound,
                    }
                }),
                &reference,
            )?;
            drop(reference_rows);
            let stats = sample_rotating(rule, cancel, replicas.len(), |w| {
                kernels::gemv(&replicas[w], &x, &mut y);
            })?;
            (check, stats)
        } else {
            let xa = Array2::from_shape_vec((m, k), x).expect("m x k values");
            let mut c = Array2::<f32>::zeros((m, n));
            kernels::gemm(&replicas[0], xa.view(), c.view_mut());
            // A spread of 64 outputs (corners included) against the reference.
            let picks = (0..64u64).map(|i| {
                let row = (i * 7919 % m as u64) as usize;
                let col = (i * 104_729 % n as u64) as usize;
                if i == 0 {
                    (0, 0)
                } else if i == 1 {
                    (m - 1, n - 1)
                } else {
                    (row, col)
                }
            });
            let check = verdict(
                &what,
                picks.map(|(i, j)| {
                    let (expected, bound) = reference_dot(
                        &reference_rows[j * k..(j + 1) * k],
                        xa.row(i).as_slice().expect("row-major"),
                    );
                    Compared {
                        index: i * n + j,
                        got: f64::from(c[[i, j]]),
                        expected,
                        bound,
                    }
                }),
                &reference,
            )?;
            drop(reference_rows);
            let stats = sample_rotating(rule, cancel, replicas.len(), |w| {
                kernels::gemm(&replicas[w], xa.view(), c.view_mut());
            })?;
            (check, stats)
        };
        let cost = Op::Gemm {
            m: m as f64,
            n: n as f64,
            k: k as f64,
            bias: false,
        }
        .cost(&precision(format));
        let mut measured = self.measurement(
            work,
            kind,
            cost.work.flops.get(),
            cost.work.bytes.get(),
            if integer {
                "fp32 activations read (and quantised to int8 per block, inside the timed call) + weights read once + fp32 output written"
            } else {
                "fp32 activations read + weights read once + fp32 output written"
            },
            stats,
        );
        measured.check = Some(check);
        Ok(measured)
    }

    fn weight_bytes(&self, format: Format, n: usize, k: usize) -> u64 {
        format.tensor_bytes((n * k) as f64).get().ceil() as u64
    }
}

/// Samples `run` under `rule`, timing each call with the wall clock and handing it the
/// next of `copies` weight copies in turn, so no copy is still in cache when it is read.
fn sample_rotating(
    rule: &StopRule,
    cancel: &AtomicBool,
    copies: usize,
    mut run: impl FnMut(usize),
) -> Result<Stats, MeasureError> {
    let mut turn = 0;
    stats::sample(rule, cancel, || {
        turn = (turn + 1) % copies;
        let t = Instant::now();
        run(turn);
        t.elapsed().as_secs_f64()
    })
    .map_err(|Cancelled| MeasureError::Cancelled)
}

/// Comma-separated format names.
pub fn format_names(formats: &[Format]) -> String {
    formats
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Backend for CpuBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Cpu
    }

    fn info(&self) -> BackendInfo {
        let mut device = self.device.clone();
        device.memory_free_bytes = self.free_memory();
        BackendInfo {
            kind: BackendKind::Cpu,
            available: true,
            reason: None,
            device: Some(device),
            formats: cpu_formats().to_vec(),
            capabilities: Vec::new(),
        }
    }

    fn formats(&self) -> Vec<Format> {
        cpu_formats()
    }

    fn bytes_needed(&self, work: &Work) -> u64 {
        let stream = self.stream_len() as u64 * 8;
        match Self::operator_parts(work) {
            None if *work == Work::Read => stream,
            None if *work == Work::Copy => 2 * stream,
            None => 3 * stream,
            Some((s, format, _)) => {
                let nk = s.n.saturating_mul(s.k);
                let weights = format.tensor_bytes(nk as f64).get().ceil() as u64;
                let copies = self.rotations(weights) as u64;
                // FP32 source and reference copies of the weights while setting up, the
                // rotating packed copies, the activations and the output.
                nk.saturating_mul(8)
                    .saturating_add(weights.saturating_mul(copies))
                    .saturating_add(s.m.saturating_mul(s.k).saturating_mul(4))
                    .saturating_add(s.m.saturating_mul(s.n).saturating_mul(4))
            }
        }
    }

    fn free_memory(&self) -> u64 {
        let sys = System::new_with_specifics(
            RefreshKind::nothing().with_memory(MemoryRefreshKind::nothing().with_ram()),
        );
        sys.available_memory()
    }

    fn peak_gemm_size(&self) -> u64 {
        self.options.peak_gemm_size
    }

    /// The square GEMM (weights dequantised a panel at a time, then FP32 GEMM) and a full
    /// batch of the GEMV kernels over weights that stay in cache: for the integer formats
    /// the batch's int8 dot products do more FLOPs a second than the dequantising GEMM,
    /// so without it a batched INT4 GEMV would run faster than its "ceiling".
    fn peak_shapes(&self, format: Format, size: u64) -> Vec<OperatorShape> {
        let batch = |width: u64| OperatorShape {
            m: kernels::GEMV_MAX_BATCH as u64,
            n: width,
            k: width,
        };
        let mut shapes = vec![
            OperatorShape {
                m: size,
                n: size,
                k: size,
            },
            batch(PEAK_BATCH_WIDTH),
        ];
        let wide = 2 * PEAK_BATCH_WIDTH;
        if self.weight_bytes(format, wide as usize, wide as usize) <= self.llc() / 2 {
            shapes.push(batch(wide));
        }
        shapes
    }

    fn measure(
        &self,
        work: &Work,
        rule: &StopRule,
        cancel: &AtomicBool,
    ) -> Result<Measurement, MeasureError> {
        super::check_fits(self, work)?;
        match work {
            Work::Read | Work::Copy | Work::Triad => self.measure_stream(work, rule, cancel),
            Work::PeakGemm { .. } | Work::Operator { .. } => {
                self.measure_operator(work, rule, cancel)
            }
        }
    }
}

#[cfg(test)]
mod tests;
