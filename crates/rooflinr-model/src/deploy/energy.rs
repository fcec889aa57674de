//! Energy and cost per token of a deployment's serving figures.
//!
//! A deployment of `G` GPUs drawing `P` watts each while serving `T` output tokens per
//! second per GPU spends `P / T` joules per output token, and a request of `n` output
//! tokens `n x P / T`: its prompt's share of the steps is inside `T`, which counts the
//! time that prefill takes from decoding (the closed loop's Little's law,
//! [`super::Serving::tokens_per_s_per_gpu`]). Output tokens per second per kilowatt are
//! `1000 T / P`. At a price `c` per GPU-hour, a million output tokens cost
//! `c / 3600 / T x 10^6`.
//!
//! Measured: [`WindowEnergy`] is what the GPUs' energy counters recorded over a window
//! holding a benchmark run, over the tokens that run yielded.
//!
//! What is assumed: the GPUs alone (no host CPUs, network, storage or cooling), each drawing
//! the power given for the whole time. With the registry's board power that is its limit at
//! full load, an upper bound (decode steps bound by memory draw less); with the agent's NVML
//! reading it is what that GPU drew.

use crate::error::ModelError;
use crate::hardware::{Basis, Hardware, Source};

use super::Serving;

/// Power one GPU draws, and where the figure comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuPower {
    /// Watts per GPU.
    pub watts: f64,
    /// Its source.
    pub source: Source,
    /// Whether it was measured (NVML) rather than a board limit or a user's figure.
    pub measured: bool,
}

impl GpuPower {
    /// The registry's board power of `hardware`, taken as drawn at full load; `None` where
    /// the registry has none.
    pub fn board(hardware: &Hardware) -> Option<GpuPower> {
        hardware.power_watts.as_ref().map(|p| GpuPower {
            watts: p.value,
            source: p.source.clone(),
            measured: false,
        })
    }

    /// A power measured on the GPU (the agent's NVML reading over a window).
    pub fn measured(watts: f64, how: String) -> GpuPower {
        GpuPower {
            watts,
            source: Source {
                basis: Basis::Derived,
                text: how.into(),
            },
            measured: true,
        }
    }

    /// A power the user gives (for example read off `nvidia-smi` under load).
    pub fn given(watts: f64) -> GpuPower {
        GpuPower {
            watts,
            source: Source {
                basis: Basis::User,
                text: "given by the user".into(),
            },
            measured: false,
        }
    }

    /// What the figure assumes, in words.
    pub fn assumption(&self) -> &'static str {
        match (self.measured, self.source.basis) {
            (true, _) => "measured power, GPUs only",
            (false, Basis::User) => "the power given, drawn the whole time, GPUs only",
            _ => "board power drawn at full load, GPUs only: an upper bound",
        }
    }

    fn validate(&self) -> Result<(), ModelError> {
        if self.watts > 0.0 && self.watts.is_finite() {
            Ok(())
        } else {
            Err(ModelError::invalid(
                "power",
                format!("must be a positive number of watts, got {}", self.watts),
            ))
        }
    }
}

/// Energy per token of serving figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Energy {
    /// The power per GPU it rests on.
    pub power: GpuPower,
    /// Joules per output token.
    pub joules_per_output_token: f64,
    /// Joules per request of the workload's output length.
    pub joules_per_request: f64,
    /// Output tokens per second per kilowatt.
    pub output_tokens_per_s_per_kw: f64,
}

impl Energy {
    /// The energy of `serving`, whose requests each yield `output` tokens, at `power` per
    /// GPU. Serving that yields no tokens is refused.
    pub fn of(serving: &Serving, output: u64, power: GpuPower) -> Result<Energy, ModelError> {
        power.validate()?;
        let per_gpu = serving.tokens_per_s_per_gpu;
        if !(per_gpu > 0.0 && per_gpu.is_finite()) {
            return Err(ModelError::invalid(
                "serving",
                format!("yields {per_gpu} output tokens/s per GPU; energy per token needs some"),
            ));
        }
        let joules_per_output_token = power.watts / per_gpu;
        Ok(Energy {
            joules_per_output_token,
            joules_per_request: joules_per_output_token * output as f64,
            output_tokens_per_s_per_kw: per_gpu * 1000.0 / power.watts,
            power,
        })
    }
}

/// US dollars per million output tokens of `serving` at `dollars_per_gpu_hour` (a price
/// the user gives: prices vary by provider and contract, so there is no default).
pub fn dollars_per_million_output_tokens(
    serving: &Serving,
    dollars_per_gpu_hour: f64,
) -> Result<f64, ModelError> {
    if !(dollars_per_gpu_hour >= 0.0 && dollars_per_gpu_hour.is_finite()) {
        return Err(ModelError::invalid(
            "price per GPU-hour",
            format!("must be a finite amount of at least 0, got {dollars_per_gpu_hour}"),
        ));
    }
    let per_gpu = serving.tokens_per_s_per_gpu;
    if !(per_gpu > 0.0 && per_gpu.is_finite()) {
        return Err(ModelError::invalid(
            "serving",
            format!("yields {per_gpu} output tokens/s per GPU; a cost per token needs some"),
        ));
    }
    Ok(dollars_per_gpu_hour / 3600.0 / per_gpu * 1e6)
}

/// Energy the GPUs' own counters recorded over a window of wall time (NVML's
/// `nvmlDeviceGetTotalEnergyConsumption`, millijoules since the driver loaded, read by the
/// paired agent): what a serving benchmark run inside the window drew.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowEnergy {
    /// Joules, every GPU together.
    pub joules: f64,
    /// The window's length, seconds.
    pub seconds: f64,
    /// GPUs counted.
    pub gpus: u32,
}

impl WindowEnergy {
    /// The energy of counters that read `(first, last)` millijoules over `seconds`, one
    /// pair per GPU. A counter that went backwards (the driver reloaded) is refused, as is
    /// a window with no GPU or no time.
    pub fn from_counters(
        counters: &[(u64, u64)],
        seconds: f64,
    ) -> Result<WindowEnergy, ModelError> {
        if counters.is_empty() {
            return Err(ModelError::invalid(
                "energy window",
                "no GPU's energy counter was read",
            ));
        }
        if !(seconds > 0.0 && seconds.is_finite()) {
            return Err(ModelError::invalid(
                "energy window",
                format!("lasted {seconds} s; it needs two readings apart in time"),
            ));
        }
        let mut millijoules = 0u64;
        for (gpu, &(first, last)) in counters.iter().enumerate() {
            let Some(delta) = last.checked_sub(first) else {
                return Err(ModelError::invalid(
                    "energy window",
                    format!(
                        "GPU {gpu}'s energy counter went back from {first} to {last} mJ (the driver reloaded?): record the window again"
                    ),
                ));
            };
            millijoules = millijoules.saturating_add(delta);
        }
        Ok(WindowEnergy {
            joules: millijoules as f64 / 1000.0,
            seconds,
            gpus: counters.len() as u32,
        })
    }

    /// Mean watts per GPU over the window.
    pub fn watts_per_gpu(&self) -> f64 {
        self.joules / self.seconds / f64::from(self.gpus)
    }

    /// The mean power as a measured [`GpuPower`], for the prediction at the power drawn.
    pub fn power(&self) -> GpuPower {
        GpuPower::measured(
            self.watts_per_gpu(),
            format!(
                "NVML energy counters of {} GPU(s) over a {:.1} s window",
                self.gpus, self.seconds
            ),
        )
    }

    /// Joules per output token, when the window held a run that yielded `output_tokens`.
    pub fn joules_per_output_token(&self, output_tokens: f64) -> Result<f64, ModelError> {
        if !(output_tokens >= 1.0 && output_tokens.is_finite()) {
            return Err(ModelError::invalid(
                "output tokens",
                format!("the run yielded {output_tokens}; energy per token needs some"),
            ));
        }
        Ok(self.joules / output_tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Seconds;

    fn serving(tokens_per_s_per_gpu: f64) -> Serving {
        Serving {
            concurrency: 8,
            ttft: Seconds(0.1),
            tpot: Seconds(0.01),
            request_time: Seconds(1.0),
            tokens_per_s_per_user: 100.0,
            tokens_per_s_per_gpu,
            decode_tokens_per_s_per_gpu: tokens_per_s_per_gpu,
        }
    }

    #[test]
    fn joules_per_token_are_watts_over_tokens_per_second() {
        let h200 = crate::hardware::registry::get("h200").unwrap();
        let power = GpuPower::board(&h200).unwrap();
        assert_eq!(power.watts, 700.0);
        assert!(!power.measured);
        // 700 W per GPU serving 350 tokens/s per GPU: 2 J a token, 500 J a 250-token
        // request, 500 tokens/s per kW.
        let e = Energy::of(&serving(350.0), 250, power).unwrap();
        assert!((e.joules_per_output_token - 2.0).abs() < 1e-12);
        assert!((e.joules_per_request - 500.0).abs() < 1e-9);
        assert!((e.output_tokens_per_s_per_kw - 500.0).abs() < 1e-9);
    }

    #[test]
    fn a_million_tokens_cost_the_gpu_hours_they_take() {
        // 1,000 tokens/s per GPU: a million tokens take 1,000 GPU-seconds, 5/18 of an hour.
        let d = dollars_per_million_output_tokens(&serving(1000.0), 3.6).unwrap();
        assert!((d - 1.0).abs() < 1e-12, "{d}");
        assert_eq!(
            dollars_per_million_output_tokens(&serving(1000.0), 0.0).unwrap(),
            0.0
        );
    }

    #[test]
    fn a_window_is_the_counters_change_over_its_tokens() {
        // Two GPUs drawing 600 and 400 W for 10 s: 10 kJ, 500 W each; 5,000 tokens, 2 J each.
        let w = WindowEnergy::from_counters(&[(1_000, 6_001_000), (7, 4_000_007)], 10.0).unwrap();
        assert_eq!((w.joules, w.gpus), (10_000.0, 2));
        assert!((w.watts_per_gpu() - 500.0).abs() < 1e-12);
        assert!(w.power().measured);
        assert_eq!(w.power().assumption(), "measured power, GPUs only");
        assert!((w.joules_per_output_token(5000.0).unwrap() - 2.0).abs() < 1e-12);
        let e = WindowEnergy::from_counters(&[(10, 5)], 1.0).unwrap_err();
        assert!(e.to_string().contains("went back from 10 to 5 mJ"), "{e}");
        assert!(WindowEnergy::from_counters(&[], 1.0).is_err());
        assert!(WindowEnergy::from_counters(&[(0, 1)], 0.0).is_err());
        assert!(w.joules_per_output_token(0.0).is_err());
    }

    #[test]
    fn refusals_name_the_figure() {
        let e = dollars_per_million_output_tokens(&serving(1000.0), -1.0).unwrap_err();
        assert!(e.to_string().contains("price per GPU-hour"), "{e}");
        let e = dollars_per_million_output_tokens(&serving(0.0), 2.0).unwrap_err();
        assert!(e.to_string().contains("output tokens/s per GPU"), "{e}");
        let e = Energy::of(
            &serving(10.0),
            1,
            GpuPower::measured(f64::NAN, "nvml".into()),
        )
        .unwrap_err();
        assert!(e.to_string().contains("watts"), "{e}");
    }
}
