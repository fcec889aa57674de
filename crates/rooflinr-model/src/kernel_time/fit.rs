//! Fitting a kernel's terms to measured times: the ladders each term is tried on, the
//! rounds of robust estimates, and the samples a fit can use.

use super::*;

/// Fractions are kept in this range while fitting: a kernel cannot beat the datasheet, and
/// one reaching under 2 % of it is measuring something else.
pub(super) const FRACTION: (f64, f64) = (0.02, 1.0);

/// Which terms a run of the fitting rounds fits, and where the compute fraction starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct FitStart {
    /// The rate one tile streams at.
    tile_term: bool,
    /// The fixed time and the latency per wave (the waves' only where `waves` too).
    overheads: bool,
    /// The latency per wave.
    waves: bool,
    /// The compute fraction the rounds start from.
    compute: f64,
    /// The overlap exponent the rounds fit the other terms under ([`KernelTerms::overlap`]).
    overlap: f64,
    /// The routing pass's rate the rounds hold ([`KernelTerms::route_rate`]).
    route_rate: f64,
    /// The quantisation pass's bandwidth fraction the rounds hold
    /// ([`KernelTerms::quantise_bandwidth`]).
    quantise_bandwidth: Option<f64>,
    /// The quantisation pass's L2 rate the rounds hold
    /// ([`KernelTerms::quantise_l2_bandwidth`]).
    quantise_l2_bandwidth: Option<f64>,
    /// The output's write bandwidth fraction the rounds hold
    /// ([`KernelTerms::write_bandwidth`]).
    write_bandwidth: Option<f64>,
    /// The share of a computed tile's time a hidden tile costs, which the rounds hold
    /// ([`KernelTerms::hidden_tile_share`]).
    hidden_tile_share: f64,
    /// The latency of a per-token quantisation pass's step the rounds hold
    /// ([`KernelTerms::quantise_step_s`]).
    quantise_step_s: f64,
}

impl FitStart {
    /// `terms` with the terms this start holds ([`FitStart::route_rate`],
    /// [`FitStart::quantise_bandwidth`], [`FitStart::write_bandwidth`]) in place of theirs.
    fn held(self, terms: KernelTerms) -> KernelTerms {
        KernelTerms {
            route_rate: self.route_rate,
            quantise_bandwidth: self.quantise_bandwidth,
            quantise_l2_bandwidth: self.quantise_l2_bandwidth,
            write_bandwidth: self.write_bandwidth,
            hidden_tile_share: self.hidden_tile_share,
            quantise_step_s: self.quantise_step_s,
            ..terms
        }
    }

    /// Every term but the tile's, from the full peak.
    const FULL: FitStart = FitStart {
        tile_term: false,
        overheads: true,
        waves: true,
        compute: 1.0,
        overlap: f64::INFINITY,
        route_rate: f64::INFINITY,
        quantise_bandwidth: None,
        quantise_l2_bandwidth: None,
        write_bandwidth: None,
        hidden_tile_share: 0.0,
        quantise_step_s: 0.0,
    };
}

/// The overlap exponents a fit tries after its best start ([`KernelTerms::overlap`]), from
/// the roofline's max down to the sum: 4, 2, 1.5 and 1 cover what NVIDIA's tables show
/// (4, 3, 2, 1.5, 1.25, 1.1 and 1 moved no held-out median by more than a point).
pub(super) const OVERLAPS: [f64; 4] = [4.0, 2.0, 1.5, 1.0];

/// The routing pass's rates a fit tries ([`KernelTerms::route_rate`]), as multiples of the
/// datasheet bandwidth: from not counted (infinite) down to a 64th of it, in halves.
pub(super) const ROUTE_RATES: [f64; 10] = [
    f64::INFINITY,
    4.0,
    2.0,
    1.0,
    0.5,
    0.25,
    0.125,
    0.0625,
    0.03125,
    0.015625,
];

/// The activation write's bandwidth fractions a fit tries ([`KernelTerms::write_bandwidth`])
/// besides the kernel's own: the datasheet bandwidth down to an eighth of it, as for the
/// quantisation pass ([`QUANTISE_BANDWIDTHS`]).
pub(super) const WRITE_BANDWIDTHS: [f64; 13] = QUANTISE_BANDWIDTHS;

/// The range an attention head width's fixed time is kept in while fitting, relative to the
/// samples' ([`KernelTerms::head_fixed`]).
pub(super) const HEAD_FIXED: (f64, f64) = (0.25, 4.0);

/// The shares of a computed tile's time a fit tries for a tile a sliding window hides
/// ([`KernelTerms::hidden_tile_share`]): from free (the roofline's count) to a whole tile,
/// in eighths.
pub const HIDDEN_TILE_SHARES: [f64; 9] = [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0];

/// The quantisation pass's bandwidth fractions a fit tries
/// ([`KernelTerms::quantise_bandwidth`]) besides the GEMM's own: the datasheet bandwidth
/// down to an eighth of it in quarter powers of two (2^(-i/4), i = 0..12).
pub(super) const QUANTISE_BANDWIDTHS: [f64; 13] = [
    1.0,
    0.8409,
    std::f64::consts::FRAC_1_SQRT_2,
    0.5946,
    0.5,
    0.4204,
    0.3536,
    0.2973,
    0.25,
    0.2102,
    0.1768,
    0.1487,
    0.125,
];

/// The quantisation pass's L2 rates a fit tries ([`KernelTerms::quantise_l2_bandwidth`])
/// besides the GEMM's L2 rate, as multiples of the datasheet DRAM bandwidth: once to four
/// times it in quarter powers of two (2^(i/4), i = 0..8).
pub(super) const QUANTISE_L2_BANDWIDTHS: [f64; 9] = [
    1.0,
    1.1892,
    std::f64::consts::SQRT_2,
    1.6818,
    2.0,
    2.3784,
    2.8284,
    3.3636,
    4.0,
];

/// The latencies of a per-token quantisation pass's step a fit tries
/// ([`KernelTerms::quantise_step_s`]): an eighth of a microsecond to two microseconds in
/// quarter powers of two (2^(i/4) / 8 us, i = 0..16), about one to a few round trips to the
/// DRAM with the block's reduction.
pub(super) const QUANTISE_STEP_S: [f64; 17] = [
    0.125e-6, 0.1487e-6, 0.1768e-6, 0.2102e-6, 0.25e-6, 0.2973e-6, 0.3536e-6, 0.4204e-6, 0.5e-6,
    0.5946e-6, 0.7071e-6, 0.8409e-6, 1.0e-6, 1.1892e-6, 1.4142e-6, 1.6818e-6, 2.0e-6,
];

/// The compute fraction a second fit starts from: starting at the full peak, the rounds
/// never see a compute limit the kernels reach at a small fraction of it (decode
/// attention's tensor-core work on Hopper), since no kernel reads as compute-bound.
pub(super) const LOW_COMPUTE_START: f64 = 0.1;

impl KernelTerms {
    /// Fits the terms to `(datasheet times, measured seconds)` samples: robust (medians,
    /// so a few odd kernels do not drag it), by alternating estimates. The fixed time is
    /// the median excess of the smallest kernels (the tenth with the least datasheet work,
    /// among those of at most one wave) over their other terms; the per-wave latency the
    /// median excess per wave of the kernels of two or more waves whose throughput terms
    /// are under half their time; each fraction the median, over the kernels its term
    /// binds and outweighs the fixed time and latency, of datasheet time over measured time
    /// less the rest. The tile bandwidth starts where every SM streams an equal share of
    /// the datasheet bandwidth (the smallest serial share of the bytes among the samples), so GEMMs with
    /// fewer tiles than SMs start bound by it, and is then read off the kernels it binds
    /// like the fractions; it is kept only where it lowers the samples' mean |log error|
    /// against the same fit without it (kernels that split K over idle SMs show no such
    /// limit). The L2's rate, where the samples re-read ([`KernelTimes::l2_s`]), starts at
    /// the DRAM's and is read off the kernels it binds the same way, never below the
    /// bandwidth fraction. Where the samples are attention of two or more head
    /// widths, each width's compute time relative to the fraction's is read the same way off
    /// that width's compute-bound kernels ([`KernelTerms::head_compute`]), and its fixed
    /// time relative to the samples' off its own smallest tenth ([`KernelTerms::head_fixed`],
    /// kept within a quarter to four times). Twenty rounds
    /// settle each fit. Rounds that start from the full
    /// bandwidth and peak can settle where they started: a compute limit reached at a small
    /// fraction of the peak never reads as binding, and kernels whose work grows with their
    /// waves read their throughput's shortfall as a latency per wave. So the rounds run
    /// from several starts (compute from the full peak and from `LOW_COMPUTE_START` (10 %) of
    /// it; with and without the latency per wave; with and without the tile term where
    /// the samples have one) and the fit with the smallest mean |log error| over the
    /// samples is kept. Where the samples are MoE layers with a routing pass
    /// ([`KernelTimes::route_s`]), its rate is then picked from [`ROUTE_RATES`] as the one
    /// with the smallest error with the other terms held, and the others refitted under it,
    /// twice, each kept only where it lowers the error. Where the samples quantise their
    /// activations ([`KernelTimes::quantise_s`]), the pass's bandwidth fraction is then
    /// picked the same way from [`QUANTISE_BANDWIDTHS`] (or none: the GEMM's own), twice,
    /// and where a loop leaves the pass's bytes in the L2, the L2's rate for the pass from
    /// [`QUANTISE_L2_BANDWIDTHS`] (or none: the GEMM's L2 rate), twice. Where the samples
    /// quantise with a block per token ([`KernelTimes::quantise_steps`]), the step's
    /// latency from [`QUANTISE_STEP_S`], twice.
    /// With no samples, the plain roofline.
    pub fn fit(samples: &[(KernelTimes, f64)]) -> KernelTerms {
        let usable = usable(samples);
        if usable.is_empty() {
            return KernelTerms::ROOFLINE;
        }
        let error = |terms: &KernelTerms| {
            usable
                .iter()
                .map(|(t, s)| (terms.predict(*t) / s).ln().abs())
                .sum::<f64>()
        };
        let tiled = usable.iter().any(|(t, _)| t.tile_stream_s > 0.0);
        let mut best_start = FitStart::FULL;
        let mut best = Self::fit_usable(&usable, FitStart::FULL);
        for tile_term in [false, true] {
            for compute in [1.0, LOW_COMPUTE_START] {
                for waves in [true, false] {
                    let start = FitStart {
                        tile_term,
                        compute,
                        waves,
                        ..FitStart::FULL
                    };
                    if start == FitStart::FULL || (tile_term && !tiled) {
                        continue;
                    }
                    let other = Self::fit_usable(&usable, start);
                    if error(&other) < error(&best) {
                        best = other;
                        best_start = start;
                    }
                }
            }
        }
        // Where the samples route: the routing pass's rate (the first time, the other terms
        // were fitted with no routing pass).
        if usable.iter().any(|(t, _)| t.route_s > 0.0) {
            Self::refit_holding(&usable, &error, (&mut best, &mut best_start), |start| {
                ROUTE_RATES
                    .into_iter()
                    .map(|route_rate| FitStart {
                        route_rate,
                        ..start
                    })
                    .collect()
            });
        }
        // Where the samples quantise their activations: the quantisation pass's bandwidth
        // fraction (none held first: the GEMM's own).
        if usable.iter().any(|(t, _)| t.quantise_s > 0.0) {
            Self::refit_holding(&usable, &error, (&mut best, &mut best_start), |start| {
                std::iter::once(None)
                    .chain(QUANTISE_BANDWIDTHS.into_iter().map(Some))
                    .map(|quantise_bandwidth| FitStart {
                        quantise_bandwidth,
                        ..start
                    })
                    .collect()
            });
            // And the L2's rate for the pass, where a loop leaves its bytes there (none held
            // first: the GEMM's).
            if usable
                .iter()
                .any(|(t, _)| t.quantise_s > 0.0 && t.l2_share > 0.0)
            {
                Self::refit_holding(&usable, &error, (&mut best, &mut best_start), |start| {
                    std::iter::once(None)
                        .chain(QUANTISE_L2_BANDWIDTHS.into_iter().map(Some))
                        .map(|quantise_l2_bandwidth| FitStart {
                            quantise_l2_bandwidth,
                            ..start
                        })
                        .collect()
                });
            }
        }
        // Where the samples quantise a block per token: the latency of the pass's step.
        if usable.iter().any(|(t, _)| t.quantise_steps > 0.0) {
            Self::refit_holding(&usable, &error, (&mut best, &mut best_start), |start| {
                QUANTISE_STEP_S
                    .into_iter()
                    .map(|quantise_step_s| FitStart {
                        quantise_step_s,
                        ..start
                    })
                    .collect()
            });
        }
        // Where the samples write activations (a GEMM's output, a MoE layer's token
        // traffic): their bandwidth fraction, each of the ladder's with the other terms
        // refitted under it (held with the others as fitted, a slower write only adds time,
        // and the bandwidth fraction read with it would not move).
        if usable.iter().any(|(t, _)| t.write_s > 0.0) {
            for write_bandwidth in WRITE_BANDWIDTHS {
                let start = FitStart {
                    write_bandwidth: Some(write_bandwidth),
                    ..best_start
                };
                let other = Self::fit_usable(&usable, start);
                if error(&other) < error(&best) {
                    best = other;
                    best_start = start;
                }
            }
        }
        // Where the samples walk tiles their window hides: the share of a computed tile's
        // time such a tile costs, each of the ladder's with the other terms refitted under
        // it.
        if usable.iter().any(|(t, _)| t.hidden_tiles_s > 0.0) {
            for hidden_tile_share in HIDDEN_TILE_SHARES {
                let start = FitStart {
                    hidden_tile_share,
                    ..best_start
                };
                let other = Self::fit_usable(&usable, start);
                if error(&other) < error(&best) {
                    best = other;
                    best_start = start;
                }
            }
        }
        for overlap in OVERLAPS {
            let other = Self::fit_usable(
                &usable,
                FitStart {
                    overlap,
                    ..best_start
                },
            );
            if error(&other) < error(&best) {
                best = other;
            }
        }
        // GEMMs: the samples that write activations and route none.
        if usable
            .iter()
            .any(|(t, _)| t.write_s > 0.0 && t.route_s == 0.0)
        {
            best = Self::refine(best, &error);
        }
        best
    }

    /// `terms` nudged one at a time while `error` falls: each continuous term (the fixed
    /// time, the bandwidth, compute and tile fractions, the latency per wave) scaled by
    /// factors from 0.8 to 1.25, the best kept, for up to ten sweeps; the L2's rate kept at
    /// least the bandwidth fraction. The rounds of [`KernelTerms::fit_usable`] read each
    /// term off the samples its term binds, a fixed point that need not be the least error
    /// over all of them.
    pub(super) fn refine(
        mut terms: KernelTerms,
        error: &dyn Fn(&KernelTerms) -> f64,
    ) -> KernelTerms {
        const FACTORS: [f64; 8] = [0.8, 0.9, 0.95, 0.98, 1.02, 1.05, 1.1, 1.25];
        let mut best = error(&terms);
        for _ in 0..10 {
            let before = best;
            for field in 0..5 {
                for factor in FACTORS {
                    let mut other = terms;
                    let value = match field {
                        0 => &mut other.fixed_s,
                        1 => &mut other.bandwidth,
                        2 => &mut other.compute,
                        3 => &mut other.tile_bandwidth,
                        _ => &mut other.per_wave_s,
                    };
                    // Terms not fitted (a tile rate of 1, no latency) stay unfitted.
                    if *value == 0.0 || (field == 3 && *value >= 1.0) {
                        continue;
                    }
                    *value *= factor;
                    if field != 0 && field != 4 {
                        *value = value.clamp(FRACTION.0, FRACTION.1);
                    }
                    // The L2 never serves slower than the DRAM, as the rounds hold it.
                    other.l2_bandwidth = other.l2_bandwidth.max(other.bandwidth);
                    let e = error(&other);
                    if e < best {
                        best = e;
                        terms = other;
                    }
                }
            }
            if best >= before * (1.0 - 1e-6) {
                break;
            }
        }
        terms
    }

    /// Twice: among `candidates` of the best start (each holding one more term at a value
    /// of its ladder), the one whose held terms fit best with the other terms as fitted,
    /// then the others refitted under it; kept only where it lowers `error`.
    fn refit_holding(
        usable: &[(KernelTimes, f64)],
        error: &dyn Fn(&KernelTerms) -> f64,
        (best, best_start): (&mut KernelTerms, &mut FitStart),
        candidates: impl Fn(FitStart) -> Vec<FitStart>,
    ) {
        for _ in 0..2 {
            let Some(start) = candidates(*best_start)
                .into_iter()
                .min_by(|a, b| error(&a.held(*best)).total_cmp(&error(&b.held(*best))))
            else {
                return;
            };
            let other = Self::fit_usable(usable, start);
            if error(&other) < error(best) {
                *best = other;
                *best_start = start;
            }
        }
    }

    /// The bandwidth and compute fractions alone, by the same rounds as [`KernelTerms::fit`]
    /// with the fixed time, the waves' latency and the tile term held at none: each
    /// fraction the median of datasheet time over measured time among the samples its
    /// term binds, reclassified until settled. For a few measurements of one size each
    /// (the agent's kernels, an imported profile), which cannot tell a fixed time from a
    /// fraction. With no samples, the plain roofline.
    pub fn fit_fractions(samples: &[(KernelTimes, f64)]) -> KernelTerms {
        let usable = usable(samples);
        if usable.is_empty() {
            return KernelTerms::ROOFLINE;
        }
        Self::fit_usable(
            &usable,
            FitStart {
                overheads: false,
                waves: false,
                ..FitStart::FULL
            },
        )
    }

    /// [`KernelTerms::fit`] over finite positive samples, with or without the tile term,
    /// and with or without the overheads (fixed time, waves' latency).
    fn fit_usable(usable: &[(KernelTimes, f64)], start: FitStart) -> KernelTerms {
        let FitStart {
            tile_term,
            overheads,
            waves,
            compute: compute_start,
            overlap,
            route_rate,
            quantise_bandwidth,
            quantise_l2_bandwidth,
            write_bandwidth,
            hidden_tile_share,
            quantise_step_s,
        } = start;
        // The quantisation pass's rate: the held one, or the GEMM's fraction at `bandwidth`.
        let quantise_rate = |bandwidth: f64| quantise_bandwidth.unwrap_or(bandwidth);
        let mut by_size: Vec<&(KernelTimes, f64)> =
            usable.iter().filter(|(t, _)| t.waves <= 1.0).collect();
        if by_size.is_empty() {
            by_size = usable.iter().collect();
        }
        crate::sort::sort_by(&mut by_size, |a, b| a.0.bound_s().total_cmp(&b.0.bound_s()));
        let small = &by_size[..(by_size.len() / 10).max(1)];
        let mut terms = KernelTerms {
            compute: compute_start,
            overlap,
            route_rate,
            quantise_bandwidth,
            quantise_l2_bandwidth,
            write_bandwidth,
            hidden_tile_share,
            quantise_step_s,
            ..KernelTerms::ROOFLINE
        };
        let tiled = usable
            .iter()
            .filter(|(t, _)| tile_term && t.tile_stream_s > 0.0 && t.memory_s > 0.0)
            // One SM's share of all the bytes the blocks stream, re-reads included.
            .map(|(t, _)| t.tile_stream_s / (t.memory_s + t.l2_s))
            .min_by(f64::total_cmp);
        if let Some(share) = tiled {
            terms.tile_bandwidth = share;
        }
        let rereads = usable.iter().any(|(t, _)| t.reads_from_l2());
        if rereads {
            terms.l2_bandwidth = 1.0;
        }
        // Attention head widths are read apart where the samples have two or more; with one,
        // the compute fraction is that width's.
        let mut widths: Vec<usize> = usable
            .iter()
            .filter_map(|(t, _)| Self::head_index(*t))
            .collect();
        widths.sort_unstable();
        widths.dedup();
        let by_head_width = widths.len() >= 2;
        // Each width's smallest tenth, as `small` is the samples'.
        let small_by_width: Vec<Vec<&(KernelTimes, f64)>> = (0..ATTENTION_HEAD_DIMS.len())
            .map(|i| {
                let of: Vec<&(KernelTimes, f64)> = by_size
                    .iter()
                    .copied()
                    .filter(|(t, _)| Self::head_index(*t) == Some(i))
                    .collect();
                let tenth = (of.len() / 10).max(1).min(of.len());
                of[..tenth].to_vec()
            })
            .collect();
        for _ in 0..20 {
            let fixed = if overheads {
                median(
                    small
                        .iter()
                        .map(|(t, s)| {
                            s - terms.throughput_s(*t)
                                - quantise_time(
                                    t,
                                    quantise_rate(terms.bandwidth),
                                    terms.quantise_l2(),
                                    quantise_step_s,
                                )
                                - t.waves * terms.per_wave_s
                                - t.route_s / terms.route_rate
                                - t.scale_copies * terms.scale_copy_s
                                - t.padded_rows_s / terms.bandwidth
                        })
                        .collect(),
                )
                .unwrap_or(0.0)
                .max(0.0)
            } else {
                0.0
            };
            // Each attention head width's fixed time relative to the samples': the median
            // excess of its own smallest kernels over their other terms.
            let mut head_fixed = terms.head_fixed;
            if by_head_width && fixed > 0.0 {
                for (ratio, small) in head_fixed.iter_mut().zip(&small_by_width) {
                    let excess = median(
                        small
                            .iter()
                            .map(|(t, s)| {
                                s - terms.throughput_s(*t)
                                    - quantise_time(
                                        t,
                                        quantise_rate(terms.bandwidth),
                                        terms.quantise_l2(),
                                        quantise_step_s,
                                    )
                                    - t.waves * terms.per_wave_s
                            })
                            .collect(),
                    );
                    if let Some(excess) = excess {
                        *ratio = (excess / fixed).clamp(HEAD_FIXED.0, HEAD_FIXED.1);
                    }
                }
            }
            let fixed_of =
                |t: &KernelTimes| fixed * Self::head_index(*t).map_or(1.0, |i| head_fixed[i]);
            let per_wave = if overheads && waves {
                median(
                    usable
                        .iter()
                        .filter(|(t, s)| {
                            t.waves >= 2.0 && terms.throughput_s(*t) < 0.5 * (s - fixed_of(t))
                        })
                        .map(|(t, s)| {
                            (s - fixed_of(t)
                                - terms.throughput_s(*t)
                                - quantise_time(
                                    t,
                                    quantise_rate(terms.bandwidth),
                                    terms.quantise_l2(),
                                    quantise_step_s,
                                )
                                - t.route_s / terms.route_rate
                                - t.scale_copies * terms.scale_copy_s
                                - t.padded_rows_s / terms.bandwidth)
                                / t.waves
                        })
                        .collect(),
                )
                .unwrap_or(0.0)
                .max(0.0)
            } else {
                0.0
            };
            // A copy of the scales: the median excess per copy of the samples that make one
            // over their other terms.
            let scale_copy = if overheads {
                median(
                    usable
                        .iter()
                        .filter(|(t, _)| t.scale_copies > 0.0)
                        .map(|(t, s)| {
                            (s - fixed_of(t)
                                - terms.throughput_s(*t)
                                - quantise_time(
                                    t,
                                    quantise_rate(terms.bandwidth),
                                    terms.quantise_l2(),
                                    quantise_step_s,
                                )
                                - t.waves * per_wave
                                - t.route_s / terms.route_rate
                                - t.padded_rows_s / terms.bandwidth)
                                / t.scale_copies
                        })
                        .collect(),
                )
                .unwrap_or(0.0)
                .max(0.0)
            } else {
                0.0
            };
            // A fraction is read off the kernels its term binds and outweighs the rest:
            // where the fixed time or the waves' latency dominate, a measured time says
            // little about throughput.
            // Each sample's regime under the round's terms, found once for every fraction.
            let regimes: Vec<Regime> = usable.iter().map(|(t, _)| terms.regime(*t)).collect();
            let bound_by = |bound: Regime| {
                usable
                    .iter()
                    .zip(&regimes)
                    .filter(move |(_, r)| **r == bound)
                    .map(|(sample, _)| sample)
            };
            // What the throughput terms have to account for: the measured time less the
            // fixed time and the waves' latency (at least 5 % of it).
            let rest = |t: &KernelTimes, s: f64| {
                (s - fixed_of(t)
                    - t.waves * per_wave
                    - t.route_s / route_rate
                    - t.scale_copies * scale_copy
                    - t.padded_rows_s / terms.bandwidth)
                    .max(s * 0.05)
            };
            // What one throughput term accounts for when the other takes `other` seconds:
            // the rest less the quantisation pass at `bandwidth`, unoverlapped.
            let share = |t: &KernelTimes, s: f64, bandwidth: f64, other: f64| {
                let rest = (rest(t, s)
                    - quantise_time(
                        t,
                        quantise_rate(bandwidth),
                        terms.quantise_l2(),
                        quantise_step_s,
                    ))
                .max(s * 0.05);
                unoverlapped(rest, other, overlap)
            };
            let memory_term = |t: &KernelTimes| terms.terms(*t).0;
            let compute_term = |t: &KernelTimes| terms.terms(*t).1;
            // Memory-bound: the kernel's bytes and the quantisation pass both move at the
            // bandwidth fraction (the pass at its own where held), the latter at the current one (the same fixed point as
            // solving for both: bandwidth = (bytes + quantisation) / rest under a max).
            let bandwidth = median(
                bound_by(Regime::Memory)
                    .filter(|(t, _)| !terms.tile_bound(*t) && !terms.l2_bound(*t))
                    .map(|(t, s)| {
                        let share = share(t, *s, terms.bandwidth, compute_term(t));
                        // Where the output's write has a rate of its own held, the rest of
                        // the bytes over the rest of the time.
                        let (read_s, write_time) = match write_bandwidth {
                            Some(w) => (t.memory_s - t.written_s(), t.written_s() / w),
                            None => (t.memory_s, 0.0),
                        };
                        read_s / (share - write_time).max(share * 0.05)
                    })
                    .collect(),
            )
            .unwrap_or(terms.bandwidth)
            .clamp(FRACTION.0, FRACTION.1);
            // One tile streaming: its serial share of the bytes over what is left of the
            // measured time once the quantisation pass is taken out; never above the
            // whole chip's fraction.
            let tile_bandwidth = if tiled.is_some() {
                median(
                    bound_by(Regime::Memory)
                        .filter(|(t, _)| terms.tile_bound(*t))
                        .map(|(t, s)| t.tile_stream_s / share(t, *s, bandwidth, compute_term(t)))
                        .collect(),
                )
                .unwrap_or(terms.tile_bandwidth)
                .min(bandwidth)
            } else {
                terms.tile_bandwidth
            };
            // When every SM streaming its tile falls short of the whole chip's fraction,
            // that fraction is never reached: the chip's rate is then all SMs' together
            // (the tile rate over the smallest serial share, 1 / SMs).
            let bandwidth = match tiled {
                Some(share) => bandwidth.min(tile_bandwidth / share),
                None => bandwidth,
            };
            // The L2 serving re-reads: the re-read bytes' datasheet time over what is left
            // of the measured time; never slower than the DRAM's fraction.
            let l2_bandwidth = if rereads {
                median(
                    bound_by(Regime::Memory)
                        .filter(|(t, _)| terms.l2_bound(*t))
                        .map(|(t, s)| {
                            t.dram_and_l2_s().1 / share(t, *s, bandwidth, compute_term(t))
                        })
                        .collect(),
                )
                .unwrap_or(terms.l2_bandwidth)
                .max(bandwidth)
            } else {
                terms.l2_bandwidth
            };
            let compute = median(
                bound_by(Regime::Compute)
                    .map(|(t, s)| {
                        terms.tile_compute_s(*t) / share(t, *s, bandwidth, memory_term(t))
                    })
                    .collect(),
            )
            .unwrap_or(terms.compute)
            .clamp(FRACTION.0, FRACTION.1);
            // Each attention head width's compute time relative to the fraction's: the same
            // share of the measured time over the compute term at the group's fraction,
            // among that width's kernels; never faster than the peak.
            let mut head_compute = terms.head_compute;
            if by_head_width {
                for (i, scale) in head_compute.iter_mut().enumerate() {
                    let read = median(
                        bound_by(Regime::Compute)
                            .filter(|(t, _)| Self::head_index(*t) == Some(i))
                            .map(|(t, s)| {
                                share(t, *s, bandwidth, memory_term(t))
                                    / (terms.tile_compute_s(*t) / compute)
                            })
                            .collect(),
                    );
                    if let Some(read) = read {
                        *scale = read.clamp(compute, compute / FRACTION.0);
                    }
                }
            }
            let next = KernelTerms {
                fixed_s: fixed,
                bandwidth,
                compute,
                per_wave_s: per_wave,
                tile_bandwidth,
                l2_bandwidth,
                overlap,
                head_compute,
                head_fixed,
                route_rate,
                quantise_bandwidth,
                quantise_l2_bandwidth,
                write_bandwidth,
                hidden_tile_share,
                scale_copy_s: scale_copy,
                quantise_step_s,
            };
            if next == terms {
                break;
            }
            terms = next;
        }
        terms
    }
}

/// The samples a fit can use: a finite positive measured time and finite datasheet times.
fn usable(samples: &[(KernelTimes, f64)]) -> Vec<(KernelTimes, f64)> {
    samples
        .iter()
        .copied()
        .filter(|(t, s)| s.is_finite() && *s > 0.0 && t.bound_s().is_finite())
        .collect()
}
