//! GPU telemetry through NVML, loaded at run time: without a driver the agent says why
//! and keeps going. Power comes from the energy counter's change between samples
//! (`power_usage` is a one-second average on recent GPUs, too slow for 100 Hz).

use std::sync::Mutex;
use std::time::Instant;

use nvml_wrapper::Nvml;
use nvml_wrapper::bitmasks::device::ThrottleReasons;
use nvml_wrapper::enum_wrappers::device::{Clock, TemperatureSensor};
use nvml_wrapper::error::NvmlError;
use rooflinr_protocol::{GpuSample, NvmlStatus};

/// Every GPU NVML sees.
pub struct Gpus {
    nvml: Nvml,
    count: u32,
    /// The previous energy reading per GPU, for power.
    last_energy: Mutex<Vec<Option<(u64, Instant)>>>,
}

/// What a user should read when NVML cannot be used.
pub fn explain(error: &NvmlError) -> String {
    match error {
        NvmlError::LibloadingError(_) => {
            "libnvidia-ml.so.1 was not found: no NVIDIA driver on this machine (host telemetry still flows)".into()
        }
        NvmlError::DriverNotLoaded => {
            "the NVIDIA driver is installed but not loaded (is the kernel module running?)".into()
        }
        NvmlError::NoPermission => {
            "NVML refused access: run the agent as a user allowed to query the GPU".into()
        }
        other => format!("NVML failed to start: {other}"),
    }
}

/// The active reasons that lower the clock under load (power cap, thermal and hardware
/// slowdown...), by NVML's names in lower case; an idle GPU and application clock
/// settings are not throttling and are left out.
pub fn throttling(reasons: ThrottleReasons) -> Vec<String> {
    let benign = ThrottleReasons::GPU_IDLE | ThrottleReasons::APPLICATIONS_CLOCKS_SETTING;
    (reasons - benign)
        .iter_names()
        .map(|(name, _)| name.to_ascii_lowercase())
        .collect()
}

/// Links NVML numbers per GPU: `NVML_NVLINK_MAX_LINKS` in nvml.h (18 since Hopper).
const NVLINK_MAX_LINKS: u32 = 18;

/// NVLinks NVML reports active on the first GPU, and the version of the first of them; a
/// GPU without NVLink (or a driver that does not say) reports none.
fn nvlinks(nvml: &Nvml, count: u32) -> (u32, Option<u32>) {
    if count == 0 {
        return (0, None);
    }
    let Ok(device) = nvml.device_by_index(0) else {
        return (0, None);
    };
    let mut active = 0;
    let mut version = None;
    for link in 0..NVLINK_MAX_LINKS {
        let wrapper = device.link_wrapper_for(link);
        if wrapper.is_active().unwrap_or(false) {
            active += 1;
            if version.is_none() {
                version = wrapper.version().ok();
            }
        }
    }
    (active, version)
}

impl Gpus {
    /// Opens NVML; on failure, the status says why.
    pub fn open() -> (Option<Gpus>, NvmlStatus) {
        let opened = Nvml::init().and_then(|nvml| {
            let count = nvml.device_count()?;
            Ok((nvml, count))
        });
        match opened {
            Ok((nvml, count)) => {
                let (nvlink_links, nvlink_version) = nvlinks(&nvml, count);
                let status = NvmlStatus {
                    available: true,
                    reason: (count == 0).then(|| "NVML found no GPUs".to_string()),
                    driver_version: nvml.sys_driver_version().ok(),
                    gpus: count,
                    nvlink_links,
                    nvlink_version,
                };
                let gpus = Gpus {
                    nvml,
                    count,
                    last_energy: Mutex::new(vec![None; count as usize]),
                };
                (Some(gpus), status)
            }
            Err(e) => (
                None,
                NvmlStatus {
                    available: false,
                    reason: Some(explain(&e)),
                    driver_version: None,
                    gpus: 0,
                    nvlink_links: 0,
                    nvlink_version: None,
                },
            ),
        }
    }

    /// Each GPU's energy counter, millijoules since its driver loaded, by NVML index; an
    /// error names the GPU that has none.
    pub fn energy_counters(&self) -> Result<Vec<(u32, u64)>, String> {
        (0..self.count)
            .map(|index| {
                let device = self
                    .nvml
                    .device_by_index(index)
                    .map_err(|e| format!("GPU {index}: {e}"))?;
                let mj = device
                    .total_energy_consumption()
                    .map_err(|e| format!("GPU {index} has no energy counter: {e}"))?;
                Ok((index, mj))
            })
            .collect()
    }

    /// One sample per GPU; a field the GPU does not report is absent.
    pub fn sample(&self) -> Vec<GpuSample> {
        let mut last = self
            .last_energy
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        (0..self.count)
            .filter_map(|index| {
                let device = self.nvml.device_by_index(index).ok()?;
                let now = Instant::now();
                let energy = device.total_energy_consumption().ok();
                let slot = last.get_mut(index as usize)?;
                let power_w = match (energy, *slot) {
                    (Some(e), Some((prev, at))) if e >= prev => {
                        let dt = now.duration_since(at).as_secs_f64();
                        (dt > 0.0).then(|| (e - prev) as f64 / 1000.0 / dt)
                    }
                    _ => None,
                };
                *slot = energy.map(|e| (e, now));
                let memory = device.memory_info().ok();
                let utilization = device.utilization_rates().ok();
                Some(GpuSample {
                    index,
                    sm_clock_mhz: device.clock_info(Clock::SM).ok(),
                    mem_clock_mhz: device.clock_info(Clock::Memory).ok(),
                    power_w,
                    energy_mj: energy,
                    temperature_c: device.temperature(TemperatureSensor::Gpu).ok(),
                    util_gpu_pct: utilization.as_ref().map(|u| u.gpu),
                    util_mem_pct: utilization.as_ref().map(|u| u.memory),
                    mem_used_bytes: memory.as_ref().map(|m| m.used),
                    mem_total_bytes: memory.as_ref().map(|m| m.total),
                    throttle_reasons: device
                        .current_throttle_reasons()
                        .map(|r| {
                            r.iter_names()
                                .map(|(name, _)| name.to_ascii_lowercase())
                                .collect()
                        })
                        .unwrap_or_default(),
                })
            })
            .collect()
    }
}
