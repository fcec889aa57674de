//! An energy window: the paired agent's NVML energy counters read from its telemetry
//! stream between the moment the user opens the window and the moment they close it,
//! around a serving benchmark run on that host.

use std::collections::BTreeMap;

use rooflinr_model::deploy::energy::WindowEnergy;
use rooflinr_protocol::TelemetrySample;

/// One GPU's counter at the window's first and latest sample that read it, millijoules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counter {
    first: u64,
    last: u64,
}

/// The counters seen since the window opened.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EnergyWindow {
    /// Still recording.
    pub open: bool,
    /// Each GPU's counter, by NVML index.
    counters: BTreeMap<u32, Counter>,
    /// The first and latest sample with a counter, milliseconds since the Unix epoch.
    span_ms: Option<(u64, u64)>,
    /// Samples taken into the window.
    pub samples: u64,
}

impl EnergyWindow {
    /// A window that starts recording now.
    pub fn open() -> EnergyWindow {
        EnergyWindow {
            open: true,
            ..EnergyWindow::default()
        }
    }

    /// Takes a telemetry sample's counters in, while the window is open.
    pub fn observe(&mut self, sample: &TelemetrySample) {
        if !self.open {
            return;
        }
        let mut read = false;
        for g in &sample.gpus {
            let Some(mj) = g.energy_mj else { continue };
            read = true;
            self.counters
                .entry(g.index)
                .and_modify(|c| c.last = mj)
                .or_insert(Counter {
                    first: mj,
                    last: mj,
                });
        }
        if read {
            self.samples += 1;
            let t = sample.unix_ms;
            self.span_ms = Some(self.span_ms.map_or((t, t), |(first, _)| (first, t)));
        }
    }

    /// Stops recording; the counters read so far are the window's.
    pub fn close(&mut self) {
        self.open = false;
    }

    /// Seconds between the first and the latest sample with a counter.
    pub fn seconds(&self) -> f64 {
        self.span_ms.map_or(0.0, |(first, last)| {
            last.saturating_sub(first) as f64 / 1000.0
        })
    }

    /// What the counters recorded so far, or why nothing can be said yet.
    pub fn energy(&self) -> Result<WindowEnergy, String> {
        if self.span_ms.is_none() {
            return Err("no energy counter has been read yet".into());
        }
        let counters: Vec<(u64, u64)> = self.counters.values().map(|c| (c.first, c.last)).collect();
        WindowEnergy::from_counters(&counters, self.seconds()).map_err(|e| e.to_string())
    }
}
