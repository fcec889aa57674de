//! Timing statistics shared by every backend: warm-up, sampling until the relative noise
//! is under the target after a minimum number of samples or until the time limit, and
//! the summary (median, minimum, mean, noise) reported with each point.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rooflinr_protocol::{Budget, Stats};

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
            return Ok(summarize(
                &samples,
                converged,
                start.elapsed().as_secs_f64(),
            ));
        }
    }
}

/// Standard deviation over mean (0 for fewer than two samples).
pub fn relative_noise(samples: &[f64]) -> f64 {
    if samples.len() < 2 {
        return 0.0;
    }
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    if mean <= 0.0 {
        return f64::INFINITY;
    }
    let var = samples.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
    var.sqrt() / mean
}

/// Median of a non-empty slice (mean of the middle two for even lengths).
pub fn median(samples: &[f64]) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.is_empty() {
        0.0
    } else if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    }
}

/// The summary of a run of samples.
pub fn summarize(samples: &[f64], converged: bool, elapsed_s: f64) -> Stats {
    let n = samples.len().max(1) as f64;
    Stats {
        samples: samples.len() as u32,
        median_s: median(samples),
        min_s: samples.iter().copied().fold(f64::INFINITY, f64::min),
        mean_s: samples.iter().sum::<f64>() / n,
        noise: relative_noise(samples),
        converged,
        elapsed_s,
    }
}

#[cfg(test)]
mod tests;
