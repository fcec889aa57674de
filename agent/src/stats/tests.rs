//! The statistics and the stop rule.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use proptest::prelude::*;

use super::*;

#[track_caller]
fn check_summary(samples: &[f64], median_s: f64, min_s: f64, noise: f64) {
    let s = Stats::summarize(samples, false, 0.0);
    assert_eq!(s.samples as usize, samples.len());
    assert!(
        (s.median_s - median_s).abs() < 1e-12,
        "median {}",
        s.median_s
    );
    assert!((s.min_s - min_s).abs() < 1e-12, "min {}", s.min_s);
    assert!((s.noise - noise).abs() < 1e-9, "noise {}", s.noise);
}

#[test]
fn summaries_of_small_sets() {
    check_summary(&[3.0, 1.0, 2.0], 2.0, 1.0, 0.5);
    check_summary(&[4.0, 1.0, 2.0, 3.0], 2.5, 1.0, (5.0f64 / 3.0).sqrt() / 2.5);
    check_summary(&[2.0; 10], 2.0, 2.0, 0.0);
}

#[test]
fn identical_samples_converge_at_the_minimum_count() {
    let rule = StopRule {
        max_time: Duration::from_secs(60),
        ..StopRule::DEFAULT
    };
    let mut runs = 0;
    let stats = sample(&rule, &AtomicBool::new(false), || {
        runs += 1;
        1e-3
    })
    .expect("not cancelled");
    assert!(stats.converged);
    assert_eq!(stats.samples, 10);
    assert_eq!(runs, 12, "two warm-up runs are not kept");
}

#[test]
fn noisy_samples_stop_at_the_time_limit_unconverged() {
    let rule = StopRule {
        max_time: Duration::from_millis(20),
        ..StopRule::DEFAULT
    };
    let mut flip = false;
    let stats = sample(&rule, &AtomicBool::new(false), || {
        flip = !flip;
        std::thread::sleep(Duration::from_millis(1));
        if flip { 1.0 } else { 2.0 }
    })
    .expect("not cancelled");
    assert!(!stats.converged);
    assert!(stats.samples >= 10);
    assert!(stats.noise > 0.3);
}

#[test]
fn cancel_stops_sampling() {
    let cancel = AtomicBool::new(true);
    assert_eq!(sample(&StopRule::DEFAULT, &cancel, || 1.0), Err(Cancelled));
}

#[test]
fn budgets_are_clamped() {
    let rule = StopRule::from_budget(
        Some(&Budget {
            max_seconds: f64::INFINITY,
            max_noise: -1.0,
            min_samples: 0,
        }),
        StopRule::DEFAULT,
    );
    assert_eq!(rule.max_time, StopRule::DEFAULT.max_time);
    assert_eq!(rule.max_noise, 0.005);
    assert_eq!(rule.min_samples, 3);
}

proptest! {
    #[test]
    fn median_lies_between_min_and_max(samples in prop::collection::vec(1e-9f64..1.0, 1..64)) {
        let s = Stats::summarize(&samples, false, 0.0);
        let max = samples.iter().copied().fold(0.0, f64::max);
        prop_assert!(s.min_s <= s.median_s && s.median_s <= max);
        prop_assert!(s.min_s <= s.mean_s && s.mean_s <= max * (1.0 + 1e-12));
        prop_assert!(s.noise >= 0.0);
    }

    #[test]
    fn noise_is_scale_free(samples in prop::collection::vec(1e-6f64..1.0, 2..64), k in 1e-3f64..1e3) {
        let scaled: Vec<f64> = samples.iter().map(|s| s * k).collect();
        let (a, b) = (relative_noise(&samples), relative_noise(&scaled));
        prop_assert!((a - b).abs() <= 1e-9 * a.max(1.0));
    }
}
