//! The CUDA backend: NVIDIA GPUs measured through cudarc, every library loaded at run
//! time. Bandwidth from read, copy and triad kernels; GEMV kernels of our own for every
//! packed format the model crate stores (compiled by NVRTC for the GPU at hand); GEMM and
//! each format's compute peak through cuBLASLt. Every kernel's output is checked against
//! the model crate's decoding before a time is reported.
//!
//! `unsafe` is allowed in this module only (kernel launches and raw cuBLASLt calls), each
//! block with the reason it is sound.
#![allow(unsafe_code)]

pub mod device;
pub mod gemm;
pub mod gpu;
pub mod kernels;
pub mod probe;

use std::sync::atomic::AtomicBool;
use std::time::{SystemTime, UNIX_EPOCH};

use cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg};
use half::{bf16, f16};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use rooflinr_model::format::Format;
use rooflinr_model::ops::{Op, Precision};
use rooflinr_model::quant::{Codec, Quantized, Scalar};
use rooflinr_protocol::{
    BackendInfo, BackendKind, Check, ClockStats, Measurement, MeasurementKind, OperatorShape, Stats,
};

use self::gemm::{GemmType, LtGemm, Operands, WORKSPACE_BYTES};
use self::gpu::{Gpu, driver};
use self::kernels::{
    GemvDevice, GpuFormat, MAX_GEMV_M, STREAM_BLOCK_THREADS, gemv_launch, rotations, stream_grid,
};
use self::probe::{CudaVersion, Found, messages};
use super::check::{Compared, reference_dot, verdict};
use super::{Backend, MeasureError, Work, operator_kind};
use crate::stats::StopRule;

/// Sizes the CUDA backend works with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CudaOptions {
    /// The device (CUDA ordinal).
    pub ordinal: usize,
    /// m = n = k of the GEMM that measures each format's peak.
    pub peak_gemm_size: u64,
}

impl Default for CudaOptions {
    fn default() -> Self {
        CudaOptions {
            ordinal: 0,
            peak_gemm_size: 8192,
        }
    }
}

/// An NVIDIA GPU as a measurement device, or the reasons there is none.
pub struct CudaBackend {
    info: BackendInfo,
    gpu: Option<Gpu>,
    options: CudaOptions,
    /// The last GEMV weights prepared on the host, for the next point of the same matrix.
    weights: super::LastWeights,
}

/// Looks for the driver, NVRTC, cuBLASLt and NVML without assuming any is there.
pub fn probe_libraries() -> Found {
    // SAFETY: `is_culib_present` only tries to open the library files.
    let present = |f: unsafe fn() -> bool| unsafe { f() };
    let driver = if !present(cudarc::driver::sys::is_culib_present) {
        Err(messages::no_driver())
    } else {
        cudarc::driver::result::init()
            .map_err(|e| format!("the NVIDIA driver did not start: {e}"))
            .and_then(|()| {
                let mut version = 0;
                // SAFETY: the driver is initialised; the call writes one int.
                unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) }
                    .result()
                    .map_err(|e| format!("the NVIDIA driver did not say its version: {e}"))?;
                let gpus = cudarc::driver::result::device::get_count()
                    .map_err(|e| format!("the NVIDIA driver cannot count GPUs: {e}"))?;
                if gpus <= 0 {
                    return Err(messages::no_gpu());
                }
                Ok((CudaVersion::from_driver(version), gpus as u32))
            })
    };
    let nvrtc = if !present(cudarc::nvrtc::sys::is_culib_present) {
        Err(messages::no_nvrtc())
    } else {
        let (mut major, mut minor) = (0, 0);
        // SAFETY: the library is present; the call writes two ints.
        unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) }
            .result()
            .map(|()| CudaVersion { major, minor })
            .map_err(|e| format!("NVRTC did not say its version: {e:?}"))
    };
    let cublaslt = if present(cudarc::cublaslt::sys::is_culib_present) {
        Ok(())
    } else {
        Err(messages::no_cublaslt())
    };
    let nvml = nvml_wrapper::Nvml::init()
        .map(|_| ())
        .map_err(|e| crate::telemetry::nvml::explain(&e));
    Found {
        driver,
        nvrtc,
        cublaslt,
        nvml,
    }
}

impl CudaBackend {
    /// Probes the machine and opens the GPU when everything it needs is there; otherwise
    /// an unavailable backend whose info says what is missing.
    pub fn probe(options: CudaOptions) -> CudaBackend {
        let found = probe_libraries();
        let capabilities = probe::capabilities(&found);
        let mut reason = probe::unavailable_reason(&capabilities);
        let gpu = match (&reason, &found.driver) {
            (None, Ok((version, _))) => {
                match Gpu::open(options.ordinal, found.cublaslt.is_ok(), version.to_string()) {
                    Ok(gpu) => Some(gpu),
                    Err(why) => {
                        reason = Some(why);
                        None
                    }
                }
            }
            _ => None,
        };
        let formats = if gpu.is_some() {
            GpuFormat::ALL.iter().map(|f| f.format()).collect()
        } else {
            Vec::new()
        };
        CudaBackend {
            info: BackendInfo {
                kind: BackendKind::Cuda,
                available: gpu.is_some(),
                reason,
                device: gpu.as_ref().map(|g| g.facts.clone()),
                formats,
                capabilities,
            },
            gpu,
            options,
            weights: super::LastWeights::default(),
        }
    }

    fn gpu(&self) -> Result<&Gpu, MeasureError> {
        let gpu = self.gpu.as_ref().ok_or_else(|| {
            MeasureError::Unsupported(format!(
                "the cuda backend is unavailable: {}",
                self.info.reason.as_deref().unwrap_or("no GPU")
            ))
        })?;
        gpu.ctx
            .bind_to_thread()
            .map_err(driver("binding the context"))?;
        Ok(gpu)
    }

    /// Bytes of each bandwidth array: sixteen times the L2, at least 512 MiB, in whole
    /// 16-byte vectors.
    fn stream_bytes(&self) -> u64 {
        let l2 = self.gpu.as_ref().map_or(50 << 20, |g| g.l2_bytes);
        (16 * l2).max(512 << 20) / 16 * 16
    }

    fn measurement(
        &self,
        work: &Work,
        kind: MeasurementKind,
        work_done: (f64, f64, &str),
        activation: Option<Format>,
        sampled: (Stats, Option<ClockStats>, Option<f64>),
        check: Check,
    ) -> Measurement {
        let (flops, bytes, counted) = work_done;
        let (stats, clocks, energy_j) = sampled;
        let (shape, format) = match *work {
            Work::Operator { shape, format } => (Some(shape), Some(format)),
            Work::PeakGemm { format, shape } => (Some(shape), Some(format)),
            Work::Read | Work::Copy | Work::Triad => (None, None),
        };
        let device = self
            .gpu
            .as_ref()
            .map(|g| g.facts.name.clone())
            .unwrap_or_default();
        let finished = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0);
        Measurement {
            format,
            activation_format: activation,
            shape,
            check: Some(check),
            energy_j,
            clocks,
            ..Measurement::sampled(
                kind,
                work.label(),
                BackendKind::Cuda,
                device,
                (flops, bytes, counted),
                stats,
                finished,
            )
        }
    }
}

/// The FP32 per-tensor scale the kernels read: FP8's and NVFP4's from `tensor`, per-tensor
/// INT8's from `scales`, 1 for the rest.
pub fn tensor_scale(q: &Quantized, format: GpuFormat) -> f32 {
    let bytes = match format {
        GpuFormat::Fp8E4m3 | GpuFormat::NvFp4 => &q.tensor,
        GpuFormat::Int8 => &q.scales,
        _ => return 1.0,
    };
    bytes
        .get(..4)
        .map_or(1.0, |b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// FLOPs and bytes of an `m x n x k` GEMM in `precision`, as the model crate counts them.
fn gemm_work((m, n, k): (usize, usize, usize), precision: Precision) -> (f64, f64) {
    let cost = Op::Gemm {
        m: m as f64,
        n: n as f64,
        k: k as f64,
        bias: false,
    }
    .cost(&precision);
    (cost.work.flops.get(), cost.work.bytes.get())
}

/// The packed bytes of a GEMV's weights that the kernels read per copy.
pub fn weight_bytes(format: Format, n: u64, k: u64) -> u64 {
    format.tensor_bytes((n * k) as f64).get().ceil() as u64
}

impl CudaBackend {
    fn measure_stream(
        &self,
        work: &Work,
        rule: &StopRule,
        cancel: &AtomicBool,
    ) -> Result<Measurement, MeasureError> {
        let gpu = self.gpu()?;
        let modules = gpu.modules()?;
        let stream = &gpu.stream;
        let vectors = self.stream_bytes() / 16;
        let words = super::index(vectors * 4, "array")?;
        let cfg = LaunchConfig {
            grid_dim: (stream_grid(vectors, gpu.sms), 1, 1),
            block_dim: (STREAM_BLOCK_THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        let upload = |v: &[u32]| stream.clone_htod(v).map_err(driver("uploading"));
        let pattern: Vec<u32> = (0..words as u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        let a = upload(&pattern)?;
        let (kind, arrays, counted, sampled, checked) = match work {
            Work::Read => {
                let mut out = stream.alloc_zeros::<u32>(1).map_err(driver("allocating"))?;
                let f = gpu.function(&modules.stream, "rf_read")?;
                let read = |out: &mut CudaSlice<u32>| {
                    let mut args = stream.launch_builder(&f);
                    args.arg(&a).arg(&vectors).arg(out);
                    // SAFETY: rf_read reads `vectors` 16-byte vectors of `a` (words = 4 x
                    // vectors) and XORs into the one u32 of `out`.
                    unsafe { args.launch(cfg) }.map(|_| ())
                };
                // One run from zero leaves the array's XOR (every later run XORs it in
                // once more, so only this first result is checked).
                read(&mut out).map_err(driver("launching rf_read"))?;
                let got = stream.clone_dtoh(&out).map_err(driver("downloading"))?[0];
                let expected = pattern.iter().fold(0u32, |x, w| x ^ w);
                if got != expected {
                    return Err(MeasureError::WrongResult {
                        what: work.label(),
                        index: 0,
                        got: f64::from(got),
                        expected: f64::from(expected),
                        bound: 0.0,
                    });
                }
                let sampled = gpu.sample(rule, cancel, 1, |_| read(&mut out))?;
                (MeasurementKind::Read, 1.0, "read (1 array)", sampled, 1)
            }
            Work::Copy => {
                let mut b = stream
                    .alloc_zeros::<u32>(words)
                    .map_err(driver("allocating"))?;
                let f = gpu.function(&modules.stream, "rf_copy")?;
                let sampled = gpu.sample(rule, cancel, 1, |_| {
                    let mut args = stream.launch_builder(&f);
                    args.arg(&a).arg(&mut b).arg(&vectors);
                    // SAFETY: rf_copy reads and writes `vectors` 16-byte vectors of two
                    // arrays of `words` u32 each.
                    unsafe { args.launch(cfg) }.map(|_| ())
                })?;
                let got = stream.clone_dtoh(&b).map_err(driver("downloading"))?;
                if let Some(i) = (0..words).find(|&i| got[i] != pattern[i]) {
                    return Err(MeasureError::WrongResult {
                        what: work.label(),
                        index: i,
                        got: f64::from(got[i]),
                        expected: f64::from(pattern[i]),
                        bound: 0.0,
                    });
                }
                (
                    MeasurementKind::Copy,
                    2.0,
                    "read + write (2 arrays)",
                    sampled,
                    words,
                )
            }
            _ => {
                let scalar = 3.0f32;
                let bv: Vec<f32> = (0..words).map(|i| (i % 1000) as f32 * 0.5).collect();
                let cv: Vec<f32> = (0..words).map(|i| (i % 977) as f32).collect();
                let b = stream.clone_htod(&bv).map_err(driver("uploading"))?;
                let c = stream.clone_htod(&cv).map_err(driver("uploading"))?;
                let mut out = stream
                    .alloc_zeros::<f32>(words)
                    .map_err(driver("allocating"))?;
                let f = gpu.function(&modules.stream, "rf_triad")?;
                let sampled = gpu.sample(rule, cancel, 1, |_| {
                    let mut args = stream.launch_builder(&f);
                    args.arg(&mut out)
                        .arg(&b)
                        .arg(&c)
                        .arg(&scalar)
                        .arg(&vectors);
                    // SAFETY: rf_triad reads two and writes one array of `words` f32
                    // (`vectors` float4 each).
                    unsafe { args.launch(cfg) }.map(|_| ())
                })?;
                let got = stream.clone_dtoh(&out).map_err(driver("downloading"))?;
                // The kernel computes fmaf(s, c, b): f32::mul_add is the same fused
                // operation, so the comparison is exact.
                let bad = (0..words).find(|&i| got[i] != scalar.mul_add(cv[i], bv[i]));
                if let Some(i) = bad {
                    return Err(MeasureError::WrongResult {
                        what: work.label(),
                        index: i,
                        got: f64::from(got[i]),
                        expected: f64::from(scalar.mul_add(cv[i], bv[i])),
                        bound: 0.0,
                    });
                }
                (
                    MeasurementKind::Triad,
                    3.0,
                    "2 reads + 1 write (3 arrays)",
                    sampled,
                    words,
                )
            }
        };
        let bytes = arrays * (vectors * 16) as f64;
        let check = Check {
            worst_error_ratio: 0.0,
            outputs_checked: checked as u64,
            reference: "every output compared exactly with the host's".into(),
        };
        Ok(self.measurement(work, kind, (0.0, bytes, counted), None, sampled, check))
    }

    fn measure_gemv(
        &self,
        work: &Work,
        shape: OperatorShape,
        format: Format,
        rule: &StopRule,
        cancel: &AtomicBool,
    ) -> Result<Measurement, MeasureError> {
        let gpu_format = GpuFormat::of(format).ok_or_else(|| {
            MeasureError::Unsupported(format!("the cuda GEMV kernels do not read {format}"))
        })?;
        let gpu = self.gpu()?;
        let launch = gemv_launch(
            gpu_format,
            shape.m,
            shape.n,
            shape.k,
            GemvDevice {
                tensor_cores: gpu.compute_capability.0 >= 8,
                sms: gpu.sms,
            },
        )
        .map_err(|e| MeasureError::Unsupported(e.to_string()))?;
        let modules = gpu.modules()?;
        let stream = &gpu.stream;
        let (m, n, k) = super::dims(shape)?;
        // A batch sweep measures one matrix at several batches: its packing and its
        // dequantised reference are made once.
        let prepared = self.weights.get(format, n, k)?;
        let q = &prepared.packed;
        let mut rng = prepared.rng.clone();
        let x_bits: Vec<u16> = (0..m * k)
            .map(|_| f16::from_f32(rng.random_range(-1.0f32..1.0)).to_bits())
            .collect();
        let tensor = [tensor_scale(q, gpu_format)];
        // A scale array even for formats without one, so every kernel gets a pointer.
        let scales = if q.scales.is_empty() {
            vec![0u8; 16]
        } else {
            q.scales.clone()
        };
        let copies = rotations((q.elements.len() + scales.len()) as u64, gpu.l2_bytes) as usize;
        let upload = |v: &[u8]| stream.clone_htod(v).map_err(driver("uploading weights"));
        let elements_d = (0..copies)
            .map(|_| upload(&q.elements))
            .collect::<Result<Vec<CudaSlice<u8>>, _>>()?;
        let scales_d = (0..copies)
            .map(|_| upload(&scales))
            .collect::<Result<Vec<CudaSlice<u8>>, _>>()?;
        let tensor_d = stream.clone_htod(&tensor).map_err(driver("uploading"))?;
        let x_d = stream.clone_htod(&x_bits).map_err(driver("uploading"))?;
        let mut y_d = stream
            .alloc_zeros::<f32>(m * n)
            .map_err(driver("allocating"))?;
        let f = gpu.function(&modules.gemv, &launch.kernel)?;
        let cfg = LaunchConfig {
            grid_dim: (launch.grid, 1, 1),
            block_dim: (launch.block, 1, 1),
            shared_mem_bytes: 0,
        };
        let (m32, n32, k32) = (m as u32, n as u32, k as u32);
        let queue = |copy: usize, y: &mut CudaSlice<f32>| {
            let mut args = stream.launch_builder(&f);
            args.arg(&elements_d[copy])
                .arg(&scales_d[copy])
                .arg(&tensor_d)
                .arg(&x_d)
                .arg(y);
            if launch.kind.takes_m() {
                args.arg(&m32);
            }
            args.arg(&n32).arg(&k32);
            // SAFETY: the kernel reads the packed weights, scales and tensor scale the
            // model crate's codec wrote for an n x k tensor, m x k FP16 activations, and
            // writes m x n FP32 outputs; `gemv_launch` chose a kernel whose layout
            // requirement (k a multiple of its tile or of the codes per 16 bytes) and
            // architecture (mma needs compute capability 8.0) hold.
            unsafe { args.launch(cfg) }.map(|_| ())
        };
        queue(0, &mut y_d).map_err(driver("launching the GEMV"))?;
        let y = stream.clone_dtoh(&y_d).map_err(driver("downloading"))?;
        let reference = &prepared.reference;
        let x: Vec<f32> = x_bits.iter().map(|b| f16::from_bits(*b).to_f32()).collect();
        let compared: Vec<Compared> = (0..m * n)
            .into_par_iter()
            .map(|index| {
                let (i, r) = (index / n, index % n);
                let (expected, bound) =
                    reference_dot(&reference[r * k..(r + 1) * k], &x[i * k..(i + 1) * k]);
                Compared {
                    index,
                    got: f64::from(y[index]),
                    expected,
                    bound,
                }
            })
            .collect();
        let check = verdict(
            &work.label(),
            compared,
            &format!(
                "fp64 dot products of the model crate's dequantised {format} weights with the fp16 activations, every output"
            ),
        )?;
        let sampled = gpu.sample(rule, cancel, copies, |copy| queue(copy, &mut y_d))?;
        let (flops, bytes) = gemm_work(
            (m, n, k),
            Precision {
                activations: Format::Fp16,
                weights: format,
                kv: Format::Fp16,
                output: Format::Fp32,
            },
        );
        Ok(self.measurement(
            work,
            operator_kind(shape),
            (
                flops,
                bytes,
                "fp16 activations read + packed weights read once + fp32 output written",
            ),
            Some(Format::Fp16),
            sampled,
            check,
        ))
    }

    fn measure_gemm(
        &self,
        work: &Work,
        shape: OperatorShape,
        format: Format,
        rule: &StopRule,
        cancel: &AtomicBool,
    ) -> Result<Measurement, MeasureError> {
        let ty = GemmType::of(format)
            .filter(|_| self.peak_formats().contains(&format))
            .ok_or_else(|| {
                MeasureError::Unsupported(format!(
                    "the cuda backend has no GEMM for {format} weights on this GPU (cuBLASLt: {}); batches of 1 to {MAX_GEMV_M} run as GEMV",
                    self.peak_formats()
                        .iter()
                        .map(|f| f.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
        let gpu = self.gpu()?;
        let blas = gpu
            .blas
            .as_ref()
            .ok_or_else(|| MeasureError::Unsupported(messages::no_cublaslt()))?;
        let stream = &gpu.stream;
        let (m, n, k) = super::dims(shape)?;
        let mut rng = ChaCha8Rng::seed_from_u64(0x6e44 ^ (m * 7 + n * 31 + k) as u64);
        let a = gemm_input(ty, format, m, k, &mut rng)?;
        let b = gemm_input(ty, format, n, k, &mut rng)?;
        let upload = |v: &[u8]| stream.clone_htod(v).map_err(driver("uploading"));
        // As many copies of the operands as keep every timed read out of the L2 (one
        // when they are at least twice its size), as the GEMVs rotate their weights: a
        // layer's operands come from memory in a model, and a warm L2 would time a
        // memory-bound GEMM faster than its roofline.
        let operand_bytes = (a.bytes.len() + b.bytes.len()) as u64;
        let copies = rotations(operand_bytes, gpu.l2_bytes) as usize;
        let operands = (0..copies)
            .map(|_| {
                Ok(Operands {
                    a: upload(&a.bytes)?,
                    b: upload(&b.bytes)?,
                    scales: match (&a.scales, &b.scales) {
                        (Some(sa), Some(sb)) => Some((upload(sa)?, upload(sb)?)),
                        _ => None,
                    },
                    alpha: a.tensor_scale * b.tensor_scale,
                })
            })
            .collect::<Result<Vec<Operands>, MeasureError>>()?;
        let (a, b) = (a.values, b.values);
        let mut d_d = stream
            .alloc_zeros::<u8>(m * n * ty.output_bytes() as usize)
            .map_err(driver("allocating"))?;
        let mut workspace = stream
            .alloc_zeros::<u8>(WORKSPACE_BYTES)
            .map_err(driver("allocating"))?;
        let lt =
            LtGemm::new(blas, ty, shape.m, shape.n, shape.k).map_err(MeasureError::Unsupported)?;
        lt.run(blas, stream, &operands[0], &mut d_d, &mut workspace)
            .map_err(MeasureError::Unsupported)?;
        let d = stream.clone_dtoh(&d_d).map_err(driver("downloading"))?;
        // 64 outputs spread over D (column-major m x n), corners included.
        let picks = (0..64u64).map(|i| match i {
            0 => (0, 0),
            1 => (m - 1, n - 1),
            _ => (
                (i * 7919 % m as u64) as usize,
                (i * 104_729 % n as u64) as usize,
            ),
        });
        let compared = picks.map(|(i, j)| {
            let index = i + j * m;
            let got = output_value(ty, &d, index);
            let (expected, bound) = reference_dot(&a[i * k..(i + 1) * k], &b[j * k..(j + 1) * k]);
            Compared {
                index,
                got: f64::from(got),
                expected,
                bound: bound + expected.abs() * ty.output_roundoff(),
            }
        });
        let check = verdict(
            &work.label(),
            compared,
            "fp64 dot products of the same inputs at 64 outputs (corners included), within fp32 accumulation and the output type's rounding",
        )?;
        let mut failure = None;
        let sampled = gpu.sample(rule, cancel, copies, |copy| {
            if let Err(e) = lt.run(blas, stream, &operands[copy], &mut d_d, &mut workspace) {
                failure.get_or_insert(e);
            }
            Ok(())
        })?;
        if let Some(e) = failure {
            return Err(MeasureError::Unsupported(e));
        }
        let input = format;
        let (flops, bytes) = gemm_work(
            (m, n, k),
            Precision {
                activations: input,
                weights: input,
                kv: input,
                // INT32 outputs are counted as FP32: the same four bytes.
                output: match ty {
                    GemmType::Fp16 => Format::Fp16,
                    GemmType::Tf32 | GemmType::Int8 => Format::Fp32,
                    _ => Format::Bf16,
                },
            },
        );
        let kind = if matches!(work, Work::PeakGemm { .. }) {
            MeasurementKind::PeakGemm
        } else {
            MeasurementKind::Gemm
        };
        Ok(self.measurement(
            work,
            kind,
            (
                flops,
                bytes,
                "both inputs read once + output written (cuBLASLt)",
            ),
            Some(input),
            sampled,
            check,
        ))
    }
}

impl Backend for CudaBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Cuda
    }

    fn info(&self) -> BackendInfo {
        let mut info = self.info.clone();
        if let (Some(device), Some(gpu)) = (info.device.as_mut(), self.gpu.as_ref()) {
            device.memory_free_bytes = gpu.free_memory();
        }
        info
    }

    fn formats(&self) -> Vec<Format> {
        if self.gpu.is_some() {
            GpuFormat::ALL.iter().map(|f| f.format()).collect()
        } else {
            Vec::new()
        }
    }

    fn peak_formats(&self) -> Vec<Format> {
        match &self.gpu {
            Some(gpu) if gpu.blas.is_some() => GemmType::formats(gpu.compute_capability),
            _ => Vec::new(),
        }
    }

    fn bytes_needed(&self, work: &Work) -> u64 {
        let array = self.stream_bytes();
        let l2 = self.gpu.as_ref().map_or(50 << 20, |g| g.l2_bytes);
        match *work {
            Work::Read => array,
            Work::Copy => 2 * array,
            Work::Triad => 3 * array,
            Work::PeakGemm { format, shape } => gemm_bytes(format, (shape.m, shape.n, shape.k), l2),
            Work::Operator { shape, format } if shape.m > u64::from(MAX_GEMV_M) => {
                gemm_bytes(format, (shape.m, shape.n, shape.k), l2)
            }
            Work::Operator { shape, format } => {
                let weights = weight_bytes(format, shape.n, shape.k).saturating_add(16);
                let copies = u64::from(rotations(weights, l2));
                weights
                    .saturating_mul(copies)
                    .saturating_add(shape.m.saturating_mul(shape.k).saturating_mul(2))
                    .saturating_add(shape.m.saturating_mul(shape.n).saturating_mul(4))
            }
        }
    }

    fn free_memory(&self) -> u64 {
        self.gpu.as_ref().map_or(0, Gpu::free_memory)
    }

    fn peak_gemm_size(&self) -> u64 {
        self.options.peak_gemm_size
    }

    fn measure(
        &self,
        work: &Work,
        rule: &StopRule,
        cancel: &AtomicBool,
    ) -> Result<Measurement, MeasureError> {
        super::check_fits(self, work)?;
        match *work {
            Work::Read | Work::Copy | Work::Triad => self.measure_stream(work, rule, cancel),
            Work::PeakGemm { format, shape } => {
                self.measure_gemm(work, shape, format, rule, cancel)
            }
            Work::Operator { shape, format } if shape.m > u64::from(MAX_GEMV_M) => {
                self.measure_gemm(work, shape, format, rule, cancel)
            }
            Work::Operator { shape, format } => {
                self.measure_gemv(work, shape, format, rule, cancel)
            }
        }
    }
}

/// Output `index` of a cuBLASLt GEMM's result bytes, as a number.
fn output_value(ty: GemmType, d: &[u8], index: usize) -> f32 {
    let at = |width: usize| &d[width * index..width * (index + 1)];
    match ty {
        GemmType::Fp16 => f16::from_bits(u16::from_le_bytes([at(2)[0], at(2)[1]])).to_f32(),
        GemmType::Tf32 => f32::from_le_bytes(at(4).try_into().expect("4 bytes")),
        GemmType::Int8 => i32::from_le_bytes(at(4).try_into().expect("4 bytes")) as f32,
        _ => bf16::from_bits(u16::from_le_bytes([at(2)[0], at(2)[1]])).to_f32(),
    }
}

/// One GEMM input on the host: its bytes as cuBLASLt reads them, its block scales in
/// cuBLASLt's tiled layout, its FP32 tensor scale, and the values they hold (what the
/// check's reference multiplies).
pub struct GemmInput {
    /// Packed elements, row after row of k.
    pub bytes: Vec<u8>,
    /// Tiled block scales (block-scaled types).
    pub scales: Option<Vec<u8>>,
    /// The FP32 tensor scale cuBLASLt applies through alpha (NVFP4), else 1.
    pub tensor_scale: f32,
    /// The values, as the model crate decodes the bytes.
    pub values: Vec<f32>,
}

/// A `rows x k` input of `ty` from uniform values in [-1, 1): cast for the plain types, the
/// model crate's codec for the block-scaled ones (whose scales are then tiled).
pub fn gemm_input(
    ty: GemmType,
    format: Format,
    rows: usize,
    k: usize,
    rng: &mut ChaCha8Rng,
) -> Result<GemmInput, MeasureError> {
    let source: Vec<f32> = (0..rows * k)
        .map(|_| rng.random_range(-1.0f32..1.0))
        .collect();
    if let Some(block) = ty.scale_block() {
        if !k.is_multiple_of(block) {
            return Err(MeasureError::Unsupported(format!(
                "a block-scaled {format} GEMM needs k a multiple of {block}, not {k}"
            )));
        }
        let q = Codec::for_format(format)
            .quantize(&source, k)
            .map_err(|e| MeasureError::Unsupported(e.to_string()))?;
        // NVFP4's second level; the MX formats have none (1).
        let tensor_scale = tensor_scale(&q, GpuFormat::NvFp4);
        // The codec's values include the tensor scale, which cuBLASLt applies through
        // alpha: the reference multiplies the same numbers.
        return Ok(GemmInput {
            scales: Some(gemm::tile_block_scales(&q.scales, rows, k / block)),
            values: q.dequantize(),
            bytes: q.elements,
            tensor_scale,
        });
    }
    let mut bytes = Vec::with_capacity(rows * k * ty.input_bytes() as usize);
    let mut values = Vec::with_capacity(rows * k);
    for v in source {
        match ty {
            GemmType::Fp16 => {
                let h = f16::from_f32(v);
                bytes.extend(h.to_bits().to_le_bytes());
                values.push(h.to_f32());
            }
            GemmType::Bf16 => {
                let h = bf16::from_f32(v);
                bytes.extend(h.to_bits().to_le_bytes());
                values.push(h.to_f32());
            }
            GemmType::Tf32 => {
                // Already a TF32 value (10 mantissa bits), so the tensor cores' rounding
                // of the inputs changes nothing and products are exact.
                let t = f32::from_bits(v.to_bits() & 0xffff_e000);
                bytes.extend(t.to_le_bytes());
                values.push(t);
            }
            GemmType::Int8 => {
                let q = (v * 127.0).round() as i8;
                bytes.push(q as u8);
                values.push(f32::from(q));
            }
            _ => {
                let code =
                    Scalar::Fp8E4m3.encode(v, rooflinr_model::quant::scalar::Overflow::Saturate);
                bytes.push(code as u8);
                values.push(Scalar::Fp8E4m3.decode(code));
            }
        }
    }
    Ok(GemmInput {
        bytes,
        scales: None,
        tensor_scale: 1.0,
        values,
    })
}

/// Device bytes of a cuBLASLt GEMM: its copies of both inputs (and block scales; as many
/// copies as [`rotations`] asks for an L2 of `l2_bytes`), the output and the workspace.
fn gemm_bytes(format: Format, (m, n, k): (u64, u64, u64), l2_bytes: u64) -> u64 {
    let ty = GemmType::of(format);
    let bits = ty.map_or(16, GemmType::input_bits);
    let scales = ty.and_then(GemmType::scale_block).map_or(0, |b| {
        m.saturating_add(n).saturating_mul(k) / b as u64 + 2 * 512
    });
    let operands =
        (m.saturating_add(n).saturating_mul(k).saturating_mul(bits) / 8).saturating_add(scales);
    operands
        .saturating_mul(u64::from(rotations(operands, l2_bytes)))
        .saturating_add(
            m.saturating_mul(n)
                .saturating_mul(GemmType::of(format).map_or(2, GemmType::output_bytes)),
        )
        .saturating_add(WORKSPACE_BYTES as u64)
}

#[cfg(test)]
mod tests;
