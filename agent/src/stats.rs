//! Timing statistics shared by every backend: warm-up, sampling until the relative noise
//! is under the target after a minimum number of samples or until the time limit, and
//! the summary (median, minimum, mean, noise) reported with each point.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rooflinr_protocol::{Budget, Stats};
// The summary of samples is the protocol's (`Stats::summarize`), as the calculator and
// the report read it.
pub use rooflinr_protocol::{median, relative_noise};

/// When to stop sampling a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StopRule {
    /// Samples needed before the noise may stop sampling.
    pub min_samples: u32,
    /// Relative noise (standard deviation / mean) that counts as converged.
    pub max_noise: f64,
    /// Stop after this long even when not converged (the minimum samples still run).
    pub max_time: Duration,
    /// Warm-up runs before any sample is kept.
    pub warmup_runs: u32,
    /// Hard cap on samples, for kernels of a few microseconds.
    pub max_samples: u32,
}

impl StopRule {
    /// nvbench's rule: 0.5% noise after 10 samples, 2 s at most per point.
    pub const DEFAULT: StopRule = StopRule {
        min_samples: 10,
        max_noise: 0.005,
        max_time: Duration::from_secs(2),
        warmup_runs: 2,
        max_samples: 100_000,
    };

    /// The rule a client's budget asks for, clamped to sane ranges (at least 3 samples, at
    /// most 60 s a point).
    pub fn from_budget(budget: Option<&Budget>, default: StopRule) -> StopRule {
        let Some(b) = budget else { return default };
        let seconds = if b.max_seconds.is_finite() {
            b.max_seconds.clamp(0.01, 60.0)
        } else {
            default.max_time.as_secs_f64()
        };
        StopRule {
            min_samples: b.min_samples.clamp(3, 10_000),
            max_noise: if b.max_noise.is_finite() && b.max_noise > 0.0 {
                b.max_noise.min(1.0)
            } else {
                default.max_noise
            },
            max_time: Duration::from_secs_f64(seconds),
            ..default
        }
    }
}

/// Sampling stopped because the job was cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// Runs `run` (which returns the seconds one run took, timed as the backend times it)
/// through warm-up and sampling under `rule`, checking `cancel` between runs.
pub fn sample(
    rule: &StopRule,
    cancel: &AtomicBool,
    mut run: impl FnMut() -> f64,
) -> Result<Stats, Cancelled> {
    for _ in 0..rule.warmup_runs {
        if cancel.load(Ordering::Relaxed) {
            return Err(Cancelled);
        }
        run();
    }
    let start = Instant::now();
    let mut samples = Vec::new();
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(Cancelled);
        }
        samples.push(run());
        let n = samples.len() as u32;
        if n < rule.min_samples {
            continue;
        }
        let converged = relative_noise(&samples) <= rule.max_noise;
        if converged || start.elapsed() >= rule.max_time || n >= rule.max_samples {
            return Ok(Stats::summarize(
                &samples,
                converged,
                start.elapsed().as_secs_f64(),
            ));
        }
    }
}

#[cfg(test)]
mod tests;
