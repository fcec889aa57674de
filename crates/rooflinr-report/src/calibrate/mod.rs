//! Calibration: the fractions of the datasheet bandwidth and of each format's peak that
//! real kernels reach, fitted from measurements, and the prediction error before and after.
//!
//! The fit is the model crate's kernel-term fit, the one the shipped profiles come from
//! (`rooflinr_model::kernel_time::KernelTerms::fit_fractions`: one calibration path for
//! NVIDIA's tables, the agent's measurements and imported kernels), with the fixed time
//! held at none since a few kernels of one size each cannot tell it from a fraction. It is
//! robust (medians, no least squares to be dragged by one outlier): every point is first
//! classified by its datasheet bound; memory-bound points give the bandwidth fraction
//! `datasheet memory time / measured time`, compute-bound points the compute fraction
//! `datasheet compute time / measured time` (each at most 1: a kernel does not beat the
//! datasheet), per weight format (and over all formats as the fallback); points are then
//! reclassified under the calibrated roof and the fit repeated until the classes settle. A format with no compute-bound point takes its
//! peak-GEMM ceiling when one was measured; with no memory-bound point, the best measured
//! bandwidth ceiling (read, copy or triad) stands in for the bandwidth.
//!
//! Points are calibrated with the others from the same source (one agent on one device, one
//! imported file): fractions of one machine say nothing about another. Measured ceilings
//! apply to the agent points of the device they were measured on.
//!
//! The calibrated error of each point is a leave-one-out error: the point is predicted by a
//! fit made without it, so a format measured once is not "predicted" by itself.

use rooflinr_model::hardware::Hardware;
use rooflinr_model::kernel_time::{KernelTerms, KernelTimes, Regime};
use rooflinr_model::roofline::{Bound, Efficiency};

use crate::kernel::{KernelPoint, KernelSource, MeasuredCeilings};

/// Above this many points the calibrated error is in-sample (leave-one-out is quadratic).
pub const MAX_LEAVE_ONE_OUT: usize = 400;

/// One fitted fraction and what it rests on.
#[derive(Clone, Debug, PartialEq)]
pub struct Fraction {
    /// Achievable fraction of the datasheet figure.
    pub value: f64,
    /// Points it was fitted from (0 for a ceiling or the datasheet).
    pub points: usize,
    /// `operators`, `bandwidth ceiling` (read, copy or triad), `peak GEMM ceiling`, `all formats` or `datasheet`.
    pub from: &'static str,
}

impl Fraction {
    const DATASHEET: Fraction = Fraction {
        value: 1.0,
        points: 0,
        from: "datasheet",
    };
}

/// Fitted fractions.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// Bandwidth fraction over every format.
    pub bandwidth: Fraction,
    /// Bandwidth fraction per format (formats with memory-bound points).
    pub bandwidth_by_format: Vec<(String, Fraction)>,
    /// Compute fraction over every format, if any point was compute-bound.
    pub compute: Option<Fraction>,
    /// Compute fraction per format.
    pub compute_by_format: Vec<(String, Fraction)>,
}

/// The key a point is calibrated under: its weight format, else its compute type.
pub fn format_key(p: &KernelPoint) -> String {
    p.format
        .map(|f| f.name())
        .unwrap_or_else(|| format!("{} math", p.math.name()))
}

/// A point's datasheet times: (memory, compute).
fn datasheet_times(p: &KernelPoint, hw: &Hardware) -> (f64, f64) {
    let d = p.predict(hw, &Efficiency::IDEAL);
    (d.memory_time.get(), d.compute_time.get())
}

/// A point's datasheet times as the kernel-term fit takes them.
fn kernel_times(p: &KernelPoint, hw: &Hardware) -> KernelTimes {
    let (memory_s, compute_s) = datasheet_times(p, hw);
    KernelTimes::throughput(memory_s, compute_s)
}

impl Calibration {
    /// The datasheet itself (every fraction 1).
    pub fn datasheet() -> Calibration {
        Calibration {
            bandwidth: Fraction::DATASHEET,
            bandwidth_by_format: Vec::new(),
            compute: None,
            compute_by_format: Vec::new(),
        }
    }

    /// Fits the fractions from `points` measured on a machine whose datasheet is `hw`:
    /// the model crate's kernel-term fit ([`KernelTerms::fit_fractions`], the one that
    /// makes the shipped profiles, with the fixed time held at none) over every point, and
    /// over each format's points.
    pub fn fit(points: &[KernelPoint], hw: &Hardware, ceilings: &MeasuredCeilings) -> Calibration {
        let points = &placed(points);
        let samples: Vec<(KernelTimes, f64)> = points
            .iter()
            .map(|p| (kernel_times(p, hw), p.time_s))
            .collect();
        let keys: Vec<String> = points.iter().map(format_key).collect();
        let mut cal = Calibration::from_ceilings(hw, ceilings);
        // A fraction fitted from the samples its term binds, with their count; none where
        // no sample is bound by it (the ceilings or the datasheet stand in).
        let fractions = |members: &[(KernelTimes, f64)]| {
            let terms = KernelTerms::fit_fractions(members);
            let bound = |regime: Regime| {
                let n = members
                    .iter()
                    .filter(|(t, _)| terms.regime(*t) == regime)
                    .count();
                (n > 0).then_some(n)
            };
            let fraction = |value: f64, points: usize| Fraction {
                value,
                points,
                from: "operators",
            };
            (
                bound(Regime::Memory).map(|n| fraction(terms.bandwidth, n)),
                bound(Regime::Compute).map(|n| fraction(terms.compute, n)),
            )
        };
        let (bandwidth, compute) = fractions(&samples);
        if let Some(f) = bandwidth {
            cal.bandwidth = f;
        }
        if compute.is_some() {
            cal.compute = compute;
        }
        let mut formats: Vec<&String> = keys.iter().collect();
        rooflinr_model::sort::sort(&mut formats);
        formats.dedup();
        for key in formats {
            let members: Vec<(KernelTimes, f64)> = samples
                .iter()
                .zip(&keys)
                .filter(|(_, k)| *k == key)
                .map(|(s, _)| *s)
                .collect();
            let (bandwidth, compute) = fractions(&members);
            if let Some(f) = bandwidth {
                set(&mut cal.bandwidth_by_format, key, f);
            }
            if let Some(f) = compute {
                set(&mut cal.compute_by_format, key, f);
            }
        }
        cal
    }

    /// Fractions from measured ceilings alone (the best bandwidth kernel and peak GEMMs).
    fn from_ceilings(hw: &Hardware, ceilings: &MeasuredCeilings) -> Calibration {
        let mut cal = Calibration::datasheet();
        if let Some((bw, _)) = &ceilings.bandwidth {
            cal.bandwidth = Fraction {
                value: bw / hw.memory_bandwidth.value.get(),
                points: 0,
                from: "bandwidth ceiling",
            };
        }
        for p in &ceilings.peaks {
            // The peak GEMM's own product type (FP8 x FP8 on cuBLASLt, FP32 on a CPU),
            // not that of the format's operator points, which may multiply by wider
            // activations (a weight-only FP8 GEMV runs in FP16).
            let (f, rate, math) = (p.format, p.flops_per_s, p.math);
            let peak = hw.ceiling(math, false).peak.get();
            if peak > 0.0 {
                set(
                    &mut cal.compute_by_format,
                    &f.name(),
                    Fraction {
                        value: rate / peak,
                        points: 0,
                        from: "peak GEMM ceiling",
                    },
                );
            }
        }
        cal
    }

    /// Bandwidth fraction for a format.
    pub fn bandwidth_for(&self, key: &str) -> &Fraction {
        get(&self.bandwidth_by_format, key).unwrap_or(&self.bandwidth)
    }

    /// Compute fraction for a format.
    pub fn compute_for(&self, key: &str) -> &Fraction {
        get(&self.compute_by_format, key)
            .or(self.compute.as_ref())
            .unwrap_or(&Fraction::DATASHEET)
    }

    fn bound_of(&self, key: &str, (memory, compute): (f64, f64)) -> Bound {
        let m = memory / self.bandwidth_for(key).value;
        let c = compute / self.compute_for(key).value;
        if c >= m && c > 0.0 {
            Bound::Compute
        } else {
            Bound::Memory
        }
    }

    /// The calibrated time and bound of a point.
    pub fn predict(&self, p: &KernelPoint, hw: &Hardware) -> (f64, Bound) {
        let key = format_key(p);
        let (memory, compute) = datasheet_times(p, hw);
        let m = memory / self.bandwidth_for(&key).value;
        let c = compute / self.compute_for(&key).value;
        (m.max(c), self.bound_of(&key, (memory, compute)))
    }

    /// The efficiency for whole-model predictions whose weights are in `format`: that
    /// format's fractions, else the fits over all formats.
    pub fn efficiency_for(&self, format: &str) -> Efficiency {
        Efficiency {
            bandwidth: self.bandwidth_for(format).value,
            compute: self.compute_for(format).value,
            compute_by_math: Vec::new(),
        }
    }
}

fn get<'a>(list: &'a [(String, Fraction)], key: &str) -> Option<&'a Fraction> {
    list.iter().find(|(k, _)| k == key).map(|(_, f)| f)
}

fn set(list: &mut Vec<(String, Fraction)>, key: &str, value: Fraction) {
    match list.iter_mut().find(|(k, _)| k == key) {
        Some((_, f)) => *f = value,
        None => list.push((key.to_string(), value)),
    }
}

/// One point: the datasheet prediction, the calibrated one, the measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    /// The kernel.
    pub point: KernelPoint,
    /// Calibration key (the weight format).
    pub key: String,
    /// Datasheet time, seconds.
    pub datasheet_s: f64,
    /// Which datasheet ceiling binds.
    pub datasheet_bound: Bound,
    /// Calibrated time, seconds (leave-one-out unless there are too many points).
    pub calibrated_s: f64,
    /// Which calibrated ceiling binds.
    pub calibrated_bound: Bound,
}

impl Compared {
    /// (datasheet - measured) / measured.
    pub fn datasheet_error(&self) -> f64 {
        self.datasheet_s / self.point.time_s - 1.0
    }

    /// (calibrated - measured) / measured.
    pub fn calibrated_error(&self) -> f64 {
        self.calibrated_s / self.point.time_s - 1.0
    }
}

/// The ceilings that apply to points from `source`: those measured on the device an agent
/// source names, none for imports.
fn ceilings_for(source: &KernelSource, ceilings: &MeasuredCeilings) -> MeasuredCeilings {
    match (&ceilings.device, source.agent_device()) {
        (Some(measured), Some(device)) if measured == device => ceilings.clone(),
        _ => MeasuredCeilings::default(),
    }
}

/// The sources among `points`, in a stable order.
pub fn sources(points: &[KernelPoint]) -> Vec<KernelSource> {
    let mut s: Vec<KernelSource> = points.iter().map(|p| p.source.clone()).collect();
    rooflinr_model::sort::sort(&mut s);
    s.dedup();
    s
}

/// One fit per source, over all of that source's points.
pub fn by_source(
    points: &[KernelPoint],
    hw: &Hardware,
    ceilings: &MeasuredCeilings,
) -> Vec<(KernelSource, Calibration)> {
    sources(points)
        .into_iter()
        .map(|source| {
            let group: Vec<KernelPoint> = points
                .iter()
                .filter(|p| p.source == source)
                .cloned()
                .collect();
            let cal = Calibration::fit(&group, hw, &ceilings_for(&source, ceilings));
            (source, cal)
        })
        .collect()
}

/// The points whose work was counted: the only ones predicted, compared and fitted on.
pub fn placed(points: &[KernelPoint]) -> Vec<KernelPoint> {
    points.iter().filter(|p| p.flops_counted).cloned().collect()
}

/// Every point whose work was counted, compared; the second value says whether the
/// calibrated errors are leave-one-out (true) or in-sample.
pub fn compare(
    points: &[KernelPoint],
    hw: &Hardware,
    ceilings: &MeasuredCeilings,
) -> (Vec<Compared>, bool) {
    let points = &placed(points);
    let leave_one_out = points.len() <= MAX_LEAVE_ONE_OUT;
    let whole = if leave_one_out {
        Vec::new()
    } else {
        by_source(points, hw, ceilings)
    };
    let rows = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let datasheet = p.predict(hw, &Efficiency::IDEAL);
            let cal = if leave_one_out {
                let others: Vec<KernelPoint> = points
                    .iter()
                    .enumerate()
                    .filter(|(j, q)| *j != i && q.source == p.source)
                    .map(|(_, q)| q.clone())
                    .collect();
                Calibration::fit(&others, hw, &ceilings_for(&p.source, ceilings))
            } else {
                whole
                    .iter()
                    .find(|(s, _)| *s == p.source)
                    .map_or_else(Calibration::datasheet, |(_, c)| c.clone())
            };
            let (calibrated_s, calibrated_bound) = cal.predict(p, hw);
            Compared {
                point: p.clone(),
                key: format_key(p),
                datasheet_s: datasheet.time.get(),
                datasheet_bound: datasheet.bound,
                calibrated_s,
                calibrated_bound,
            }
        })
        .collect();
    (rows, leave_one_out)
}

/// Error figures for one format in one regime.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorSummary {
    /// Where the points come from.
    pub source: KernelSource,
    /// Calibration key.
    pub key: String,
    /// Regime (the measured point's calibrated bound).
    pub bound: Bound,
    /// Points.
    pub points: usize,
    /// Mean |error| of the datasheet prediction.
    pub datasheet_mean: f64,
    /// Worst |error| of the datasheet prediction.
    pub datasheet_max: f64,
    /// Mean |error| of the calibrated prediction.
    pub calibrated_mean: f64,
    /// Worst |error| of the calibrated prediction.
    pub calibrated_max: f64,
}

/// Summaries per source, format and regime, in a stable order.
pub fn summarise(rows: &[Compared]) -> Vec<ErrorSummary> {
    let mut groups: Vec<(KernelSource, String, Bound)> = rows
        .iter()
        .map(|r| (r.point.source.clone(), r.key.clone(), r.calibrated_bound))
        .collect();
    rooflinr_model::sort::sort_by(&mut groups, |a, b| {
        (&a.0, &a.1, a.2.name()).cmp(&(&b.0, &b.1, b.2.name()))
    });
    groups.dedup();
    groups
        .into_iter()
        .map(|(source, key, bound)| {
            let members: Vec<&Compared> = rows
                .iter()
                .filter(|r| r.point.source == source && r.key == key && r.calibrated_bound == bound)
                .collect();
            let stats = |e: fn(&Compared) -> f64| {
                let abs: Vec<f64> = members.iter().map(|r| e(r).abs()).collect();
                let mean = abs.iter().sum::<f64>() / abs.len() as f64;
                (mean, abs.iter().copied().fold(0.0, f64::max))
            };
            let (datasheet_mean, datasheet_max) = stats(Compared::datasheet_error);
            let (calibrated_mean, calibrated_max) = stats(Compared::calibrated_error);
            ErrorSummary {
                source,
                key,
                bound,
                points: members.len(),
                datasheet_mean,
                datasheet_max,
                calibrated_mean,
                calibrated_max,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
