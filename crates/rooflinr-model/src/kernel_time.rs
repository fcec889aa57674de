//! What real GEMM kernels add to the roofline bound, as three parameters with a physical
//! meaning, fitted from measured kernel times:
//!
//! time = fixed + quantisation bytes / (bandwidth x datasheet bandwidth)
//!        + max(bytes / (bandwidth x datasheet bandwidth),
//!              FLOPs / (compute x datasheet peak x tile efficiency))
//!
//! - `fixed_s`: time every kernel spends whatever its size (launch, prologue, epilogue,
//!   the tail of the last wave's pipeline): the floor small GEMMs sit on.
//! - `bandwidth`: the fraction of the datasheet bandwidth a streaming GEMM reaches.
//! - `compute`: the fraction of the datasheet peak the tensor cores reach on full tiles.
//!
//! The activation quantisation ([`activation_quantisation_bytes`]: FP8 and FP4 GEMMs first
//! turn their BF16 activations into the low format, a pass of its own) and the tile
//! efficiency ([`tile_efficiency`]: tensor-core fragments padded at small M or N,
//! and the last wave of output tiles, split along K when there are too few to fill the
//! GPU) is computed, not fitted. The plain roofline (fixed 0, both fractions 1, every tile
//! full) stays the bound; these terms give the expectation.

/// Rows and columns of the smallest tensor-core operand fragment: `mma.m16n8k16` (PTX ISA,
/// "Matrix shape") works on 16 x 8 outputs, and kernels swap A and B so the smaller side
/// takes the 8; a GEMM with M = 1 still runs whole fragments.
const FRAGMENT: (u64, u64) = (16, 8);
/// The output tile most Hopper and Blackwell GEMM kernels use (CUTLASS's and cuBLAS's
/// default 128 x 128).
const TILE: u64 = 128;
/// K below which a GEMM is not split (each split keeps at least this much K).
const MIN_SPLIT_K: u64 = 512;

/// The fraction of the tensor cores' work that is useful for an `m x n x k` GEMM on `sms`
/// multiprocessors: fragment padding times wave efficiency. Output tiles of 128 x 128 run
/// one per SM at a time; when there are fewer than SMs, K is split to fill them (as
/// cuBLAS and CUTLASS do), each split keeping at least 512 of K; the last wave's idle SMs
/// count as lost.
pub fn tile_efficiency(m: u64, n: u64, k: u64, sms: u32) -> f64 {
    if m == 0 || n == 0 || k == 0 || sms == 0 {
        return 1.0;
    }
    let (small, large) = (m.min(n), m.max(n));
    let padded = small.div_ceil(FRAGMENT.1) * FRAGMENT.1 * large.div_ceil(FRAGMENT.0) * FRAGMENT.0;
    let padding = (m * n) as f64 / padded as f64;
    let sms = u64::from(sms);
    let tiles = m.div_ceil(TILE) * n.div_ceil(TILE);
    let splits = if tiles < sms {
        (sms / tiles).min((k / MIN_SPLIT_K).max(1))
    } else {
        1
    };
    let units = tiles * splits;
    let wave = units as f64 / (units.div_ceil(sms) * sms) as f64;
    padding * wave
}

use crate::format::Format;
use crate::hardware::Hardware;
use crate::ops::{Op, Precision};
use crate::roofline::Prediction;

/// A GEMM's datasheet times, before the fitted terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmTimes {
    /// Bytes over the datasheet bandwidth, seconds.
    pub memory_s: f64,
    /// FLOPs over the datasheet peak and the tile efficiency, seconds.
    pub compute_s: f64,
    /// The activation quantisation pass over the datasheet bandwidth, seconds (0 for
    /// 16- and 32-bit activations).
    pub quantise_s: f64,
}

/// Bytes of the pass that quantises a GEMM's activations before an FP8 or FP4 GEMM: the
/// `m x k` activations read in BF16 and written in their format (scales included). Low-
/// precision GEMMs in serving frameworks take BF16 activations and run this first;
/// 0 for 16- and 32-bit activations.
pub fn activation_quantisation_bytes(m: u64, k: u64, activations: Format) -> f64 {
    if activations.bits_per_element() >= 16.0 {
        return 0.0;
    }
    let elements = (m * k) as f64;
    elements * 2.0 + activations.tensor_bytes(elements).get()
}

impl GemmTimes {
    /// The times of an `m x n x k` GEMM with `activations` from its datasheet roofline
    /// prediction: the compute term stretched by the tile efficiency on `sms`
    /// multiprocessors, and the activation quantisation at the datasheet `bandwidth`.
    pub fn of(
        prediction: &Prediction,
        (m, n, k): (u64, u64, u64),
        activations: Format,
        bandwidth: f64,
        sms: u32,
    ) -> GemmTimes {
        GemmTimes {
            memory_s: prediction.memory_time.get(),
            compute_s: prediction.compute_time.get() / tile_efficiency(m, n, k, sms),
            quantise_s: activation_quantisation_bytes(m, k, activations) / bandwidth,
        }
    }

    /// The roofline bound: max of the two.
    pub fn bound_s(&self) -> f64 {
        self.memory_s.max(self.compute_s)
    }
}

/// The fitted terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KernelTerms {
    /// Fixed time per kernel, seconds.
    pub fixed_s: f64,
    /// Fraction of the datasheet bandwidth reached.
    pub bandwidth: f64,
    /// Fraction of the datasheet peak reached on full tiles.
    pub compute: f64,
}

/// Which term a prediction is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Regime {
    /// The memory term binds and outweighs the fixed time.
    Memory,
    /// The compute term binds and outweighs the fixed time.
    Compute,
    /// The fixed time is the larger part.
    Fixed,
}

impl Regime {
    /// `memory`, `compute`, `fixed`.
    pub fn name(self) -> &'static str {
        match self {
            Regime::Memory => "memory",
            Regime::Compute => "compute",
            Regime::Fixed => "fixed",
        }
    }
}

/// Fractions are kept in this range while fitting: a kernel cannot beat the datasheet, and
/// one reaching under 2 % of it is measuring something else.
const FRACTION: (f64, f64) = (0.02, 1.0);

/// The median of the finite values (the mean of the middle two for an even count).
pub fn median(mut v: Vec<f64>) -> Option<f64> {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

impl KernelTerms {
    /// The plain roofline.
    pub const ROOFLINE: KernelTerms = KernelTerms {
        fixed_s: 0.0,
        bandwidth: 1.0,
        compute: 1.0,
    };

    /// The two fitted throughput terms of a GEMM, seconds.
    fn terms(&self, t: GemmTimes) -> (f64, f64) {
        (t.memory_s / self.bandwidth, t.compute_s / self.compute)
    }

    /// The time outside the GEMM's own throughput terms: the fixed time and the activation
    /// quantisation pass, seconds.
    fn overhead(&self, t: GemmTimes) -> f64 {
        self.fixed_s + t.quantise_s / self.bandwidth
    }

    /// The expected time of a GEMM, seconds.
    pub fn predict(&self, t: GemmTimes) -> f64 {
        let (m, c) = self.terms(t);
        self.overhead(t) + m.max(c)
    }

    /// Which term the prediction is made of.
    pub fn regime(&self, t: GemmTimes) -> Regime {
        let (m, c) = self.terms(t);
        if self.overhead(t) > m.max(c) {
            Regime::Fixed
        } else if c > m {
            Regime::Compute
        } else {
            Regime::Memory
        }
    }

    /// Fits the terms to `(datasheet times, measured seconds)` samples: robust (medians,
    /// so a few odd kernels do not drag it), by alternating estimates. The fixed time is
    /// the median excess of the smallest kernels (the tenth with the least datasheet work)
    /// over their throughput terms; each fraction the median, over the kernels its term
    /// binds, of datasheet time over measured time less the fixed time. Ten rounds settle
    /// it. With no samples, the plain roofline.
    pub fn fit(samples: &[(GemmTimes, f64)]) -> KernelTerms {
        let usable: Vec<(GemmTimes, f64)> = samples
            .iter()
            .copied()
            .filter(|(t, s)| s.is_finite() && *s > 0.0 && t.bound_s().is_finite())
            .collect();
        if usable.is_empty() {
            return KernelTerms::ROOFLINE;
        }
        let mut by_size: Vec<&(GemmTimes, f64)> = usable.iter().collect();
        by_size.sort_by(|a, b| a.0.bound_s().total_cmp(&b.0.bound_s()));
        let small = &by_size[..(by_size.len() / 10).max(1)];
        let mut terms = KernelTerms::ROOFLINE;
        for _ in 0..10 {
            let fixed = median(
                small
                    .iter()
                    .map(|(t, s)| {
                        let (m, c) = terms.terms(*t);
                        s - m.max(c) - t.quantise_s / terms.bandwidth
                    })
                    .collect(),
            )
            .unwrap_or(0.0)
            .max(0.0);
            let binds = |t: &GemmTimes, bound: Regime| {
                let (m, c) = terms.terms(*t);
                (bound == Regime::Compute) == (c > m)
            };
            // Memory-bound: the GEMM's bytes and the quantisation pass both move at the
            // bandwidth fraction. Compute-bound: the quantisation pass at the current one.
            let bandwidth = median(
                usable
                    .iter()
                    .filter(|(t, _)| binds(t, Regime::Memory))
                    .map(|(t, s)| (t.memory_s + t.quantise_s) / (s - fixed).max(s * 0.05))
                    .collect(),
            )
            .unwrap_or(terms.bandwidth)
            .clamp(FRACTION.0, FRACTION.1);
            let compute = median(
                usable
                    .iter()
                    .filter(|(t, _)| binds(t, Regime::Compute))
                    .map(|(t, s)| {
                        t.compute_s / (s - fixed - t.quantise_s / bandwidth).max(s * 0.05)
                    })
                    .collect(),
            )
            .unwrap_or(terms.compute)
            .clamp(FRACTION.0, FRACTION.1);
            let next = KernelTerms {
                fixed_s: fixed,
                bandwidth,
                compute,
            };
            if next == terms {
                break;
            }
            terms = next;
        }
        terms
    }
}

/// Fitted terms for one device and format (activations and weights alike), with the
/// error they reach on GEMM shapes they were not fitted on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Registry key.
    pub hardware: &'static str,
    /// Activations and weights.
    pub format: Format,
    /// The terms.
    pub terms: KernelTerms,
    /// Median |predicted / measured - 1| on held-out shapes.
    pub held_out_median: f64,
    /// 90th percentile of the same.
    pub held_out_p90: f64,
}

/// Where [`PROFILES`] come from.
pub const PROFILE_SOURCE: &str = "fitted by `rooflinr validate` on half of the TensorRT-LLM GEMM shapes in NVIDIA's measured kernel tables (PyPI aiconfigurator-core 0.12.0, Apache-2.0), judged on the other half";

/// The shipped profiles (`cargo xtask validate` refits them and says whether each still
/// matches). Not every term is a property of the chip alone: FP8's fixed time (12-14 us,
/// against 2-3 us for BF16) is several kernels' worth, consistent with the measured FP8
/// path running more than the GEMM and the quantisation pass counted here (a scale
/// reduction, for one; not verified), and NVFP4's bandwidth fraction (32-35 %) is low for a
/// streaming kernel: its GEMMs read more than the packed bytes this model counts.
pub const PROFILES: &[Profile] = &[
    Profile {
        hardware: "a100-sxm",
        format: Format::Bf16,
        terms: KernelTerms {
            fixed_s: 3.290e-6,
            bandwidth: 0.620429,
            compute: 0.838180,
        },
        held_out_median: 0.130,
        held_out_p90: 0.335,
    },
    Profile {
        hardware: "b200",
        format: Format::Bf16,
        terms: KernelTerms {
            fixed_s: 2.129e-6,
            bandwidth: 0.613559,
            compute: 0.704050,
        },
        held_out_median: 0.115,
        held_out_p90: 0.404,
    },
    Profile {
        hardware: "b200",
        format: Format::Fp8E4m3,
        terms: KernelTerms {
            fixed_s: 14.125e-6,
            bandwidth: 0.426510,
            compute: 0.596426,
        },
        held_out_median: 0.083,
        held_out_p90: 0.250,
    },
    Profile {
        hardware: "b200",
        format: Format::NvFp4,
        terms: KernelTerms {
            fixed_s: 7.453e-6,
            bandwidth: 0.322426,
            compute: 0.521288,
        },
        held_out_median: 0.158,
        held_out_p90: 0.554,
    },
    Profile {
        hardware: "gb200",
        format: Format::Bf16,
        terms: KernelTerms {
            fixed_s: 2.144e-6,
            bandwidth: 0.640030,
            compute: 0.676114,
        },
        held_out_median: 0.115,
        held_out_p90: 0.400,
    },
    Profile {
        hardware: "gb200",
        format: Format::Fp8E4m3,
        terms: KernelTerms {
            fixed_s: 13.877e-6,
            bandwidth: 0.451461,
            compute: 0.547278,
        },
        held_out_median: 0.081,
        held_out_p90: 0.246,
    },
    Profile {
        hardware: "gb200",
        format: Format::NvFp4,
        terms: KernelTerms {
            fixed_s: 7.296e-6,
            bandwidth: 0.349952,
            compute: 0.492824,
        },
        held_out_median: 0.153,
        held_out_p90: 0.526,
    },
    Profile {
        hardware: "h100-sxm",
        format: Format::Bf16,
        terms: KernelTerms {
            fixed_s: 2.724e-6,
            bandwidth: 0.778788,
            compute: 0.809327,
        },
        held_out_median: 0.075,
        held_out_p90: 0.315,
    },
    Profile {
        hardware: "h100-sxm",
        format: Format::Fp8E4m3,
        terms: KernelTerms {
            fixed_s: 12.561e-6,
            bandwidth: 0.713275,
            compute: 0.652306,
        },
        held_out_median: 0.060,
        held_out_p90: 0.177,
    },
    Profile {
        hardware: "h200",
        format: Format::Bf16,
        terms: KernelTerms {
            fixed_s: 2.723e-6,
            bandwidth: 0.704892,
            compute: 0.811529,
        },
        held_out_median: 0.101,
        held_out_p90: 0.334,
    },
    Profile {
        hardware: "h200",
        format: Format::Fp8E4m3,
        terms: KernelTerms {
            fixed_s: 12.337e-6,
            bandwidth: 0.570014,
            compute: 0.655327,
        },
        held_out_median: 0.076,
        held_out_p90: 0.248,
    },
    Profile {
        hardware: "l40s",
        format: Format::Bf16,
        terms: KernelTerms {
            fixed_s: 1.989e-6,
            bandwidth: 0.960576,
            compute: 0.638662,
        },
        held_out_median: 0.192,
        held_out_p90: 0.757,
    },
    Profile {
        hardware: "l40s",
        format: Format::Fp8E4m3,
        terms: KernelTerms {
            fixed_s: 12.110e-6,
            bandwidth: 1.000000,
            compute: 0.581461,
        },
        held_out_median: 0.158,
        held_out_p90: 0.472,
    },
];

/// The profile of a GEMM with `activations` x `weights` on `hardware`, when one is shipped.
pub fn profile(hardware: &str, activations: Format, weights: Format) -> Option<&'static Profile> {
    PROFILES
        .iter()
        .find(|p| p.hardware == hardware && p.format == activations && p.format == weights)
}

/// The expected time of `op` on `hw` in `precision` under the shipped profile, with the
/// profile; `None` for operators other than a GEMM and for devices and formats with no
/// profile. `prediction` is the datasheet roofline's.
pub fn calibrated(
    op: &Op,
    precision: &Precision,
    hw: &Hardware,
    prediction: &Prediction,
) -> Option<(f64, &'static Profile)> {
    let Op::Gemm { m, n, k, .. } = *op else {
        return None;
    };
    let profile = profile(&hw.key, precision.activations, precision.weights)?;
    let sms = hw.sm_count.as_ref().map_or(0, |f| f.value);
    let times = GemmTimes::of(
        prediction,
        (m as u64, n as u64, k as u64),
        precision.activations,
        hw.memory_bandwidth.value.get(),
        sms,
    );
    Some((profile.terms.predict(times), profile))
}

/// A whole pass with every GEMM that has a shipped profile at its expected time and every
/// other operator at its roofline bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CalibratedPass {
    /// Seconds for the pass.
    pub time_s: f64,
    /// Operators (kinds, not instances) at their expected time.
    pub calibrated_ops: usize,
    /// Operators left at the bound (not a GEMM, or no profile for their device and formats).
    pub bound_ops: usize,
}

/// The calibrated time of a pass made of `ops` on `hw`.
pub fn calibrated_pass(ops: &[crate::analysis::OpReport], hw: &Hardware) -> CalibratedPass {
    let mut pass = CalibratedPass {
        time_s: 0.0,
        calibrated_ops: 0,
        bound_ops: 0,
    };
    for o in ops {
        match calibrated(&o.op, &o.precision, hw, &o.result.prediction) {
            Some((t, _)) => {
                pass.time_s += t * o.count;
                pass.calibrated_ops += 1;
            }
            None => {
                pass.time_s += o.time.get();
                pass.bound_ops += 1;
            }
        }
    }
    pass
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gemm(memory_s: f64, compute_s: f64) -> GemmTimes {
        GemmTimes {
            memory_s,
            compute_s,
            quantise_s: 0.0,
        }
    }

    #[test]
    fn the_roofline_is_the_bound_and_the_terms_the_expectation() {
        let t = gemm(2e-6, 5e-6);
        assert_eq!(KernelTerms::ROOFLINE.predict(t), 5e-6);
        let terms = KernelTerms {
            fixed_s: 3e-6,
            bandwidth: 0.8,
            compute: 0.5,
        };
        assert!((terms.predict(t) - 13e-6).abs() < 1e-18);
        assert_eq!(terms.regime(t), Regime::Compute);
        assert_eq!(terms.regime(gemm(1e-9, 1e-9)), Regime::Fixed);
        assert_eq!(terms.regime(gemm(1e-3, 1e-6)), Regime::Memory);
    }

    #[test]
    fn low_precision_activations_are_quantised_in_a_pass_of_their_own() {
        assert_eq!(activation_quantisation_bytes(16, 4096, Format::Bf16), 0.0);
        // FP8: 16 x 4096 BF16 read, the same count of bytes written (+ its tensor scale).
        let fp8 = activation_quantisation_bytes(16, 4096, Format::Fp8E4m3);
        assert_eq!(fp8, 16.0 * 4096.0 * 3.0 + 4.0);
        let terms = KernelTerms {
            fixed_s: 1e-6,
            bandwidth: 0.5,
            compute: 1.0,
        };
        let t = GemmTimes {
            memory_s: 4e-6,
            compute_s: 1e-6,
            quantise_s: 1e-6,
        };
        // Sequential: fixed + quantisation at half the bandwidth + the GEMM's memory term.
        assert!((terms.predict(t) - (1e-6 + 2e-6 + 8e-6)).abs() < 1e-18);
    }

    #[test]
    fn tile_efficiency_counts_padding_and_the_last_wave() {
        // H100: 132 SMs. 8192^2 outputs: 4096 tiles, 31.03 waves -> 4096 / (32 x 132).
        let e = tile_efficiency(8192, 8192, 8192, 132);
        assert!((e - 4096.0 / (32.0 * 132.0)).abs() < 1e-12);
        // M = 1: one row of a 8-row fragment; 32 tiles split 4 ways along K fill 128 SMs.
        let e = tile_efficiency(1, 4096, 4096, 132);
        assert!((e - (1.0 / 8.0) * (128.0 / 132.0)).abs() < 1e-12, "{e}");
        // Short K is not split: 4 tiles on 132 SMs.
        let e = tile_efficiency(256, 256, 256, 132);
        assert!((e - 4.0 / 132.0).abs() < 1e-12, "{e}");
        assert_eq!(tile_efficiency(0, 1, 1, 132), 1.0);
    }

    #[test]
    fn fitting_recovers_the_terms_that_made_the_times() {
        let truth = KernelTerms {
            fixed_s: 4e-6,
            bandwidth: 0.82,
            compute: 0.71,
        };
        // Sizes over five decades, both regimes, with +-3 % noise from a fixed pattern.
        let samples: Vec<(GemmTimes, f64)> = (0..400)
            .map(|i| {
                let scale = 10f64.powf(-7.0 + 5.0 * (i as f64) / 400.0);
                let mut t = if i % 2 == 0 {
                    gemm(scale, scale / 4.0)
                } else {
                    gemm(scale / 4.0, scale)
                };
                t.quantise_s = if i % 3 == 0 { scale / 8.0 } else { 0.0 };
                let noise = 1.0 + 0.03 * (((i * 7919) % 13) as f64 / 6.0 - 1.0);
                (t, truth.predict(t) * noise)
            })
            .collect();
        let fitted = KernelTerms::fit(&samples);
        assert!(
            (fitted.fixed_s / truth.fixed_s - 1.0).abs() < 0.1,
            "{fitted:?}"
        );
        assert!(
            (fitted.bandwidth / truth.bandwidth - 1.0).abs() < 0.05,
            "{fitted:?}"
        );
        assert!(
            (fitted.compute / truth.compute - 1.0).abs() < 0.05,
            "{fitted:?}"
        );
        assert_eq!(KernelTerms::fit(&[]), KernelTerms::ROOFLINE);
    }

    #[test]
    fn a_calibrated_pass_takes_the_gemms_expected_time_and_the_rest_at_the_bound() {
        use crate::analysis::{self, AttentionKernel, Scenario};
        use crate::ops::Precision;
        let hw = crate::hardware::registry::get("h100-sxm").unwrap();
        let config = crate::presets::get("llama-3-8b").unwrap();
        let scenario = Scenario {
            phase: analysis::Phase::Decode,
            batch: 1,
            seq: 4096,
            precision: Precision::uniform(Format::Bf16),
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
        };
        let a = analysis::analyze(&config, &hw, &scenario, &crate::roofline::Efficiency::IDEAL)
            .unwrap();
        let pass = calibrated_pass(&a.ops, &hw);
        assert!(pass.calibrated_ops > 0 && pass.bound_ops > 0, "{pass:?}");
        assert_eq!(pass.calibrated_ops + pass.bound_ops, a.ops.len());
        assert!(
            pass.time_s > a.time.get(),
            "{} vs {}",
            pass.time_s,
            a.time.get()
        );
        // A device with no profile: every operator at the bound, the same total.
        let gb10 = crate::hardware::registry::get("gb10").unwrap();
        let a = analysis::analyze(
            &config,
            &gb10,
            &scenario,
            &crate::roofline::Efficiency::IDEAL,
        )
        .unwrap();
        let pass = calibrated_pass(&a.ops, &gb10);
        assert_eq!(pass.calibrated_ops, 0);
        assert!((pass.time_s - a.time.get()).abs() <= 1e-12 * a.time.get());
    }

    #[test]
    fn shipped_profiles_name_registry_devices_and_are_slower_than_the_bound() {
        for p in PROFILES {
            assert!(
                crate::hardware::registry::get(p.hardware).is_ok(),
                "{}",
                p.hardware
            );
            let t = p.terms;
            assert!(t.fixed_s > 0.0 && t.fixed_s < 50e-6, "{p:?}");
            assert!((FRACTION.0..=FRACTION.1).contains(&t.bandwidth), "{p:?}");
            assert!((FRACTION.0..=FRACTION.1).contains(&t.compute), "{p:?}");
            assert!(p.held_out_median < p.held_out_p90, "{p:?}");
        }
        assert!(profile("h100-sxm", Format::Bf16, Format::Bf16).is_some());
        assert!(profile("h100-sxm", Format::Bf16, Format::Int8).is_none());
    }
}
