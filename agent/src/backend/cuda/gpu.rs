//! One GPU as a measurement device: its context and stream, the kernels compiled for it
//! (once, on first use), cuBLASLt when present, NVML for clocks and energy; and the
//! method every timing goes through.
//!
//! Method (after nvbench): inputs rotate through copies whose total exceeds the L2 (or a
//! copy at least twice the L2), so each timed run reads from DRAM; a spin kernel queued
//! ahead of each timed launch keeps the GPU busy while the host queues the events and the
//! launch, so the host's launch latency is not timed; device events time each sample;
//! warm-up runs first; sampling stops at 0.5 % relative noise after 10 samples or at the
//! time limit (`stats::sample`); the SM clock and throttle reasons are read after each
//! sample; energy comes from NVML's counter around a separate run of back-to-back
//! launches of at least half a second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use cudarc::cublaslt::CudaBlasLT;
use cudarc::driver::sys::{CUdevice_attribute, CUevent_flags};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaStream, DriverError, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::{CompileOptions, Ptx};
use nvml_wrapper::Nvml;
use nvml_wrapper::enum_wrappers::device::Clock;
use rooflinr_protocol::{ClockStats, DeviceInfo, Stats};

use super::device::{nvrtc_arch, registry_key, theoretical_bandwidth};
use super::kernels::Module;
use crate::backend::MeasureError;
use crate::stats::{self, Cancelled, StopRule};

/// Nanoseconds the spin kernel holds the stream before each timed launch.
const SPIN_NS: u64 = 20_000;
/// Seconds of back-to-back launches whose energy is divided among them.
const ENERGY_SECONDS: f64 = 0.5;

/// The compiled modules.
pub struct Modules {
    /// GEMV kernels.
    pub gemv: Arc<CudaModule>,
    /// Bandwidth and spin kernels.
    pub stream: Arc<CudaModule>,
}

/// A GPU ready to measure.
pub struct Gpu {
    /// The context (primary) on the device.
    pub ctx: Arc<CudaContext>,
    /// The one stream every measurement runs on.
    pub stream: Arc<CudaStream>,
    /// What the driver says about the device.
    pub facts: DeviceInfo,
    /// Compute capability.
    pub compute_capability: (i32, i32),
    /// Multiprocessors.
    pub sms: u32,
    /// L2 cache, bytes.
    pub l2_bytes: u64,
    /// cuBLASLt on the stream, when the library loaded.
    pub blas: Option<CudaBlasLT>,
    nvml: Option<(Nvml, u32)>,
    modules: OnceLock<Result<Modules, String>>,
}

/// A driver error as a measurement error, naming the step.
pub fn driver(step: &str) -> impl Fn(DriverError) -> MeasureError + '_ {
    move |e| MeasureError::Unsupported(format!("cuda: {step} failed: {e}"))
}

impl Gpu {
    /// Opens device `ordinal`: context, stream, facts, cuBLASLt (when `with_blas`) and
    /// the NVML handle of the same GPU (matched by UUID).
    pub fn open(ordinal: usize, with_blas: bool, cuda_version: String) -> Result<Gpu, String> {
        let ctx =
            CudaContext::new(ordinal).map_err(|e| format!("cannot open GPU {ordinal}: {e}"))?;
        // One stream, one thread at a time: the per-slice event tracking cudarc does for
        // multi-stream use only adds work to every launch.
        // SAFETY: nothing is in flight yet, and every launch goes to `stream` below.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let attr = |a: CUdevice_attribute| ctx.attribute(a).unwrap_or(0);
        let cc = ctx
            .compute_capability()
            .map_err(|e| format!("cannot read the compute capability: {e}"))?;
        let name = ctx.name().unwrap_or_else(|_| "NVIDIA GPU".into());
        let sms = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).max(1) as u32;
        let l2_bytes = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE).max(0) as u64;
        let clock_khz = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
        let bus_bits = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
        let unified = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_INTEGRATED) == 1
            || attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES)
                == 1;
        let (free, total) = ctx.mem_get_info().unwrap_or((0, 0));
        let nvml = Nvml::init().ok().and_then(|nvml| {
            let uuid = ctx.uuid().ok().map(|u| uuid_text(&u.bytes))?;
            let count = nvml.device_count().ok()?;
            let index = (0..count).find(|&i| {
                nvml.device_by_index(i)
                    .and_then(|d| d.uuid())
                    .is_ok_and(|u| u.eq_ignore_ascii_case(&uuid))
            })?;
            Some((nvml, index))
        });
        let driver_version = nvml.as_ref().and_then(|(n, _)| n.sys_driver_version().ok());
        let facts = DeviceInfo {
            name: name.clone(),
            memory_total_bytes: total as u64,
            memory_free_bytes: free as u64,
            compute_units: sms,
            last_level_cache_bytes: (l2_bytes > 0).then_some(l2_bytes),
            unified_memory: unified,
            compute_capability: Some(format!("{}.{}", cc.0, cc.1)),
            driver_version,
            cuda_version: Some(cuda_version),
            memory_clock_mhz: (clock_khz > 0).then(|| f64::from(clock_khz) / 1e3),
            memory_bus_bits: (bus_bits > 0).then_some(bus_bits as u32),
            theoretical_bandwidth_bytes_per_s: theoretical_bandwidth(clock_khz, bus_bits),
            registry_key: registry_key(&name, cc).map(str::to_string),
        };
        let blas = if with_blas {
            CudaBlasLT::new(stream.clone()).ok()
        } else {
            None
        };
        Ok(Gpu {
            ctx,
            stream,
            facts,
            compute_capability: cc,
            sms,
            l2_bytes: l2_bytes.max(1 << 20),
            blas,
            nvml,
            modules: OnceLock::new(),
        })
    }

    /// The kernels, compiled for this GPU on first use (NVRTC takes some seconds).
    pub fn modules(&self) -> Result<&Modules, MeasureError> {
        self.modules
            .get_or_init(|| {
                let arch = nvrtc_arch(self.compute_capability);
                tracing::info!("compiling the GPU kernels for {arch} with NVRTC");
                let load = |module: Module| -> Result<Arc<CudaModule>, String> {
                    let ptx = compile(module, &arch)?;
                    self.ctx
                        .load_module(ptx)
                        .map_err(|e| format!("the driver refused {}: {e}", module.file_name()))
                };
                Ok(Modules {
                    gemv: load(Module::Gemv)?,
                    stream: load(Module::Stream)?,
                })
            })
            .as_ref()
            .map_err(|e| MeasureError::Unsupported(e.clone()))
    }

    /// A kernel of a module.
    pub fn function(
        &self,
        module: &Arc<CudaModule>,
        name: &str,
    ) -> Result<CudaFunction, MeasureError> {
        module
            .load_function(name)
            .map_err(|e| MeasureError::Unsupported(format!("cuda: kernel {name} not found: {e}")))
    }

    /// Free device memory, bytes.
    pub fn free_memory(&self) -> u64 {
        if self.ctx.bind_to_thread().is_err() {
            return 0;
        }
        self.ctx
            .mem_get_info()
            .map(|(free, _)| free as u64)
            .unwrap_or(0)
    }

    fn sm_clock(&self) -> Option<(u32, Vec<String>)> {
        let (nvml, index) = self.nvml.as_ref()?;
        let device = nvml.device_by_index(*index).ok()?;
        let clock = device.clock_info(Clock::SM).ok()?;
        let reasons = device
            .current_throttle_reasons()
            .map(crate::telemetry::nvml::throttling)
            .unwrap_or_default();
        Some((clock, reasons))
    }

    fn energy_mj(&self) -> Option<u64> {
        let (nvml, index) = self.nvml.as_ref()?;
        nvml.device_by_index(*index)
            .ok()?
            .total_energy_consumption()
            .ok()
    }

    /// Times `launch(copy)` under `rule`, rotating through `copies` input copies, each
    /// sample between two device events behind a spin kernel; then, when NVML has an
    /// energy counter, the joules of one launch. `launch` only queues work.
    pub fn sample(
        &self,
        rule: &StopRule,
        cancel: &AtomicBool,
        copies: usize,
        mut launch: impl FnMut(usize) -> Result<(), DriverError>,
    ) -> Result<(Stats, Option<ClockStats>, Option<f64>), MeasureError> {
        let modules = self.modules()?;
        let spin = self.function(&modules.stream, "rf_spin")?;
        let timing = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let start = self
            .ctx
            .new_event(timing)
            .map_err(driver("creating an event"))?;
        let end = self
            .ctx
            .new_event(timing)
            .map_err(driver("creating an event"))?;
        let stop = AtomicBool::new(false);
        let mut failure: Option<MeasureError> = None;
        let mut clocks: Vec<(u32, Vec<String>)> = Vec::new();
        let mut turn = 0usize;
        let mut one = || -> Result<f64, MeasureError> {
            turn = (turn + 1) % copies.max(1);
            let mut args = self.stream.launch_builder(&spin);
            args.arg(&SPIN_NS);
            // SAFETY: rf_spin takes one u64 by value and touches no memory.
            unsafe { args.launch(LaunchConfig::for_num_elems(1)) }.map_err(driver("spin"))?;
            start
                .record(&self.stream)
                .map_err(driver("recording an event"))?;
            launch(turn).map_err(driver("launching the kernel"))?;
            end.record(&self.stream)
                .map_err(driver("recording an event"))?;
            end.synchronize()
                .map_err(driver("waiting for the kernel"))?;
            let ms = start
                .elapsed_ms(&end)
                .map_err(driver("reading the events"))?;
            Ok(f64::from(ms) / 1e3)
        };
        let sampled = stats::sample(rule, &stop, || {
            if cancel.load(Ordering::Relaxed) {
                stop.store(true, Ordering::Relaxed);
                return f64::NAN;
            }
            match one() {
                Ok(seconds) => {
                    if let Some(clock) = self.sm_clock() {
                        clocks.push(clock);
                    }
                    seconds
                }
                Err(e) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    f64::NAN
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let stats = sampled.map_err(|Cancelled| MeasureError::Cancelled)?;
        // One clock reading per run, warm-up included: what the GPU did while measured.
        let clocks = clock_stats(&clocks);
        let energy = self.energy_per_launch(copies, &mut launch, stats.median_s)?;
        Ok((stats, clocks, energy))
    }

    fn energy_per_launch(
        &self,
        copies: usize,
        launch: &mut impl FnMut(usize) -> Result<(), DriverError>,
        median_s: f64,
    ) -> Result<Option<f64>, MeasureError> {
        let runs = ((ENERGY_SECONDS / median_s.max(1e-7)).ceil() as usize).clamp(1, 1_000_000);
        self.stream.synchronize().map_err(driver("synchronising"))?;
        let Some(before) = self.energy_mj() else {
            return Ok(None);
        };
        let began = Instant::now();
        for i in 0..runs {
            launch(i % copies.max(1)).map_err(driver("launching the kernel"))?;
        }
        self.stream.synchronize().map_err(driver("synchronising"))?;
        let elapsed = began.elapsed().as_secs_f64();
        let Some(after) = self.energy_mj() else {
            return Ok(None);
        };
        // A counter that did not move (too coarse for this run) gives no figure.
        Ok((after > before && elapsed > 0.0).then(|| (after - before) as f64 / 1e3 / runs as f64))
    }
}

/// NVML's UUID text (`GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`) of the driver's 16 bytes
/// (`c_char` is signed on x86-64 and unsigned on aarch64: each is read as its byte).
pub fn uuid_text(bytes: &[std::ffi::c_char; 16]) -> String {
    let hex: Vec<String> = bytes
        .iter()
        .map(|b| format!("{:02x}", b.to_ne_bytes()[0]))
        .collect();
    format!(
        "GPU-{}-{}-{}-{}-{}",
        hex[0..4].concat(),
        hex[4..6].concat(),
        hex[6..8].concat(),
        hex[8..10].concat(),
        hex[10..16].concat()
    )
}

/// The clock summary of the samples (median and minimum SM clock, samples with a
/// throttling reason and which reasons).
pub fn clock_stats(clocks: &[(u32, Vec<String>)]) -> Option<ClockStats> {
    if clocks.is_empty() {
        return None;
    }
    let mhz: Vec<f64> = clocks.iter().map(|(c, _)| f64::from(*c)).collect();
    let mut reasons: Vec<String> = clocks.iter().flat_map(|(_, r)| r.clone()).collect();
    reasons.sort();
    reasons.dedup();
    Some(ClockStats {
        sm_clock_mhz_median: stats::median(&mhz),
        sm_clock_mhz_min: mhz.iter().copied().fold(f64::INFINITY, f64::min),
        throttled_samples: clocks.iter().filter(|(_, r)| !r.is_empty()).count() as u32,
        throttle_reasons: reasons,
    })
}

/// Compiles a module for `arch` (`sm_90`, `sm_121a`) through NVRTC: the agent's one
/// compile path, used on the GPU and by `rooflinr-agent kernels` for the checks.
pub fn compile(module: Module, arch: &str) -> Result<Ptx, String> {
    let options = CompileOptions {
        // Subnormals kept (NVRTC's default, said outright): the GEMV kernels decode
        // minifloats through FP32 subnormal patterns (`rf_element_fast`).
        options: vec![
            format!("--gpu-architecture={arch}"),
            "-std=c++17".into(),
            "--ftz=false".into(),
        ],
        name: Some(module.file_name().into()),
        ..CompileOptions::default()
    };
    cudarc::nvrtc::compile_ptx_with_opts(module.source(), options).map_err(|e| {
        format!(
            "NVRTC could not compile {} for {arch}: {e}",
            module.file_name()
        )
    })
}
