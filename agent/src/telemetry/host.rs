//! Host telemetry through sysinfo: CPU utilisation over all cores, mean frequency, memory.

use rooflinr_protocol::HostSample;
use sysinfo::{CpuRefreshKind, MemoryRefreshKind, RefreshKind, System};

/// Keeps the previous CPU counters, so utilisation covers the time since the last sample.
pub struct HostSampler {
    sys: System,
}

impl HostSampler {
    /// Reads the counters once, as the baseline of the first sample.
    pub fn new() -> HostSampler {
        HostSampler {
            sys: System::new_with_specifics(
                RefreshKind::nothing()
                    .with_cpu(CpuRefreshKind::nothing().with_cpu_usage().with_frequency())
                    .with_memory(MemoryRefreshKind::nothing().with_ram()),
            ),
        }
    }

    /// Refreshes and reads.
    pub fn sample(&mut self) -> HostSample {
        self.sys
            .refresh_cpu_specifics(CpuRefreshKind::nothing().with_cpu_usage().with_frequency());
        self.sys
            .refresh_memory_specifics(MemoryRefreshKind::nothing().with_ram());
        let cpus = self.sys.cpus();
        let freq = if cpus.is_empty() {
            0.0
        } else {
            cpus.iter().map(|c| c.frequency() as f64).sum::<f64>() / cpus.len() as f64
        };
        HostSample {
            cpu_util_pct: f64::from(self.sys.global_cpu_usage()),
            cpu_freq_mhz: freq,
            mem_used_bytes: self.sys.used_memory(),
            mem_total_bytes: self.sys.total_memory(),
        }
    }
}
