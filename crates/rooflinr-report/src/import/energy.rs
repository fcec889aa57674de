//! Energy measured around a serving benchmark run: the file `rooflinr-agent energy -- CMD`
//! writes (each GPU's NVML energy counter before and after the command), and a run's
//! joules per output token beside the simulation's.

use rooflinr_model::deploy::BenchmarkRun;
use rooflinr_model::deploy::energy::{GpuPower, WindowEnergy};
use serde::{Deserialize, Serialize};

use super::serving::RunPoint;

/// One GPU's energy counter before and after the window, millijoules since its driver
/// loaded (NVML's `nvmlDeviceGetTotalEnergyConsumption`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuCounter {
    /// NVML index.
    pub index: u32,
    /// Before, mJ.
    pub first_mj: u64,
    /// After, mJ.
    pub last_mj: u64,
}

/// What `rooflinr-agent energy` writes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyFile {
    /// Always [`EnergyFile::KIND`].
    pub kind: String,
    /// The command the window was open for.
    pub command: Vec<String>,
    /// Its exit status (`None`: ended by a signal).
    pub exit_code: Option<i32>,
    /// When the window opened, milliseconds since the Unix epoch.
    pub started_unix_ms: u64,
    /// The window's length, seconds.
    pub seconds: f64,
    /// Every GPU NVML saw.
    pub gpus: Vec<GpuCounter>,
}

impl EnergyFile {
    /// The `kind` the file carries.
    pub const KIND: &'static str = "rooflinr energy window (NVML counters)";

    /// Reads a file; one of another kind, or whose counters make no window, is refused.
    pub fn read(text: &str) -> Result<(EnergyFile, WindowEnergy), String> {
        let file: EnergyFile = serde_json::from_str(text).map_err(|e| {
            format!("not an energy window ({e}); `rooflinr-agent energy --out FILE -- COMMAND` writes one")
        })?;
        if file.kind != Self::KIND {
            return Err(format!("its kind is {:?}, not {:?}", file.kind, Self::KIND));
        }
        let window = file.energy().map_err(|e| e.to_string())?;
        Ok((file, window))
    }

    /// What the counters recorded.
    pub fn energy(&self) -> Result<WindowEnergy, rooflinr_model::ModelError> {
        let counters: Vec<(u64, u64)> = self.gpus.iter().map(|g| (g.first_mj, g.last_mj)).collect();
        WindowEnergy::from_counters(&counters, self.seconds)
    }
}

/// A run's energy per output token as the counters recorded it over the window, beside
/// the simulation's at the board power and at the power the window measured.
#[derive(Clone, Debug, PartialEq)]
pub struct EnergyBeside {
    /// What the counters recorded.
    pub window: WindowEnergy,
    /// The run's output tokens the joules are divided by.
    pub tokens: f64,
    /// Measured joules per output token.
    pub measured: f64,
    /// The simulation's joules per output token at the device's board power (an upper
    /// bound), where there is one.
    pub predicted_board: Option<f64>,
    /// The simulation's joules per output token at the window's mean power per GPU.
    pub predicted_at_measured_power: Option<f64>,
    /// What the comparison assumes, or where the window and the run disagree.
    pub notes: Vec<String>,
}

/// `run`'s energy per output token over `window`, beside `simulated` (its benchmark
/// simulated on a deployment of `gpus` GPUs whose board power is `board`); refused where
/// the run counts no tokens.
pub fn energy_beside(
    run: &RunPoint,
    simulated: Option<&BenchmarkRun>,
    gpus: u32,
    board: Option<&GpuPower>,
    window: WindowEnergy,
) -> Result<EnergyBeside, String> {
    let mut notes = Vec::new();
    let tokens = match (run.requests, run.output_tokens_per_s) {
        (Some(n), _) => n as f64 * run.output_tokens,
        (None, Some(rate)) => {
            notes.push(format!(
                "the file counts no requests: its {rate:.1} output tokens/s over the {:.1} s window taken as the tokens",
                window.seconds
            ));
            rate * window.seconds
        }
        (None, None) => {
            return Err(
                "the file counts neither requests nor output tokens/s, so the window's joules have no tokens to divide by".into(),
            );
        }
    };
    let measured = window
        .joules_per_output_token(tokens)
        .map_err(|e| e.to_string())?;
    if let Some(rate) = run.output_tokens_per_s.filter(|r| *r > 0.0) {
        let run_s = tokens / rate;
        if (window.seconds / run_s - 1.0).abs() > 0.2 {
            notes.push(format!(
                "the window lasted {:.1} s and the run about {run_s:.1} s: energy drawn outside the run is counted too (or some of the run's is not)",
                window.seconds
            ));
        }
    }
    if window.gpus != gpus {
        notes.push(format!(
            "the counters are of the host's {} GPU(s), the deployment has {gpus}",
            window.gpus
        ));
    }
    let predicted = |watts: f64| {
        simulated
            .filter(|r| r.output_tokens_per_s > 0.0)
            .map(|r| watts * f64::from(gpus) / r.output_tokens_per_s)
    };
    Ok(EnergyBeside {
        predicted_board: board.and_then(|b| predicted(b.watts)),
        predicted_at_measured_power: predicted(window.watts_per_gpu()),
        window,
        tokens,
        measured,
        notes,
    })
}

impl EnergyBeside {
    /// The comparison in one sentence, as the CLI and the calculator print it.
    pub fn sentence(&self) -> String {
        let mut text = format!(
            "Measured {:.3} J per output token ({:.0} J over {:.0} output tokens, {:.0} W per GPU over {:.1} s on {} GPU(s), NVML)",
            self.measured,
            self.window.joules,
            self.tokens,
            self.window.watts_per_gpu(),
            self.window.seconds,
            self.window.gpus
        );
        match self.predicted_at_measured_power {
            Some(at) => {
                text += &format!(
                    "; predicted {at:.3} J at the power measured ({})",
                    super::serving::error_text(at, self.measured)
                );
                if let Some(upper) = self.predicted_board {
                    text += &format!(", {upper:.3} J at the board power (an upper bound)");
                }
            }
            None => text += "; no simulated run to predict it by",
        }
        text.push('.');
        for n in &self.notes {
            text += &format!(" Note: {n}.");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agents_file_reads_back_and_refuses_others() {
        let file = EnergyFile {
            kind: EnergyFile::KIND.into(),
            command: vec!["vllm".into(), "bench".into(), "serve".into()],
            exit_code: Some(0),
            started_unix_ms: 1,
            seconds: 4.0,
            gpus: vec![
                GpuCounter {
                    index: 0,
                    first_mj: 0,
                    last_mj: 2_000_000,
                },
                GpuCounter {
                    index: 1,
                    first_mj: 5,
                    last_mj: 2_000_005,
                },
            ],
        };
        let (back, w) = EnergyFile::read(&serde_json::to_string(&file).unwrap()).unwrap();
        assert_eq!(back, file);
        assert_eq!((w.joules, w.gpus), (4000.0, 2));
        assert!((w.watts_per_gpu() - 500.0).abs() < 1e-12);
        let e = EnergyFile::read("{\"benchmarks\": []}").unwrap_err();
        assert!(
            e.contains("rooflinr-agent energy --out FILE -- COMMAND"),
            "{e}"
        );
        let other = serde_json::to_string(&EnergyFile {
            kind: "x".into(),
            ..file.clone()
        })
        .unwrap();
        assert!(
            EnergyFile::read(&other)
                .unwrap_err()
                .contains("its kind is")
        );
        let back_in_time = serde_json::to_string(&EnergyFile {
            gpus: vec![GpuCounter {
                index: 0,
                first_mj: 9,
                last_mj: 1,
            }],
            ..file
        })
        .unwrap();
        assert!(
            EnergyFile::read(&back_in_time)
                .unwrap_err()
                .contains("went back")
        );
    }
}
