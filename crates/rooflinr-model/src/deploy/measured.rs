//! Collective costs fitted on NVIDIA's measured NCCL tables: a latency per step and the
//! fraction of the link's bandwidth reached, per device and collective. `rooflinr validate`
//! fits them (half the message sizes) and judges them (the other half); only those whose
//! held-out median error is at most [`crate::kernel_time::SHIPPED_MEDIAN_ERROR`] ship, as
//! for kernel profiles.

use super::Collective;

/// Where the collective profiles come from.
pub const COLLECTIVE_SOURCE: &str = "fitted by `rooflinr validate` on the NCCL tables of NVIDIA's aiconfigurator-core 0.12.0 (Apache-2.0; 2 to 8 GPUs inside one NVLink or PCIe domain)";

/// One device and collective's fitted terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollectiveProfile {
    /// Registry key.
    pub hardware: &'static str,
    /// The collective.
    pub collective: Collective,
    /// Latency per step, µs.
    pub latency_per_step_us: f64,
    /// Fraction of the scale-up link's bandwidth reached.
    pub bandwidth_fraction: f64,
    /// Median |error| on the held-out message sizes.
    pub held_out_median: f64,
}

/// The shipped profiles.
pub const COLLECTIVE_PROFILES: &[CollectiveProfile] = &[
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllReduce,
        latency_per_step_us: 2.21,
        bandwidth_fraction: 0.576,
        held_out_median: 0.22,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllToAll,
        latency_per_step_us: 13.59,
        bandwidth_fraction: 0.533,
        held_out_median: 0.12,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllReduce,
        latency_per_step_us: 2.45,
        bandwidth_fraction: 0.581,
        held_out_median: 0.22,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllToAll,
        latency_per_step_us: 11.58,
        bandwidth_fraction: 0.460,
        held_out_median: 0.17,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllReduce,
        latency_per_step_us: 2.39,
        bandwidth_fraction: 0.591,
        held_out_median: 0.23,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllToAll,
        latency_per_step_us: 11.76,
        bandwidth_fraction: 0.484,
        held_out_median: 0.19,
    },
    CollectiveProfile {
        hardware: "gb200",
        collective: Collective::AllToAll,
        latency_per_step_us: 12.07,
        bandwidth_fraction: 0.438,
        held_out_median: 0.17,
    },
    CollectiveProfile {
        hardware: "gb300",
        collective: Collective::AllToAll,
        latency_per_step_us: 11.90,
        bandwidth_fraction: 0.447,
        held_out_median: 0.16,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllReduce,
        latency_per_step_us: 1.57,
        bandwidth_fraction: 0.671,
        held_out_median: 0.20,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllToAll,
        latency_per_step_us: 8.48,
        bandwidth_fraction: 0.582,
        held_out_median: 0.19,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::ReduceScatter,
        latency_per_step_us: 2.05,
        bandwidth_fraction: 0.561,
        held_out_median: 0.25,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllGather,
        latency_per_step_us: 2.28,
        bandwidth_fraction: 0.576,
        held_out_median: 0.23,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllReduce,
        latency_per_step_us: 1.62,
        bandwidth_fraction: 0.686,
        held_out_median: 0.18,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllToAll,
        latency_per_step_us: 8.66,
        bandwidth_fraction: 0.603,
        held_out_median: 0.17,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::ReduceScatter,
        latency_per_step_us: 2.17,
        bandwidth_fraction: 0.570,
        held_out_median: 0.22,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllGather,
        latency_per_step_us: 2.96,
        bandwidth_fraction: 0.384,
        held_out_median: 0.21,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllReduce,
        latency_per_step_us: 2.28,
        bandwidth_fraction: 0.433,
        held_out_median: 0.23,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllToAll,
        latency_per_step_us: 8.44,
        bandwidth_fraction: 0.337,
        held_out_median: 0.16,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::ReduceScatter,
        latency_per_step_us: 3.01,
        bandwidth_fraction: 0.369,
        held_out_median: 0.22,
    },
];

/// The profile of `collective` on the device `hardware`, if one ships.
pub fn collective_profile(
    hardware: &str,
    collective: Collective,
) -> Option<&'static CollectiveProfile> {
    COLLECTIVE_PROFILES
        .iter()
        .find(|p| p.hardware == hardware && p.collective == collective)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware::registry;
    use crate::kernel_time::SHIPPED_MEDIAN_ERROR;

    /// Every shipped profile names a registry device with an interconnect, meets the
    /// shipping rule once, and makes physical sense: a positive latency of a few
    /// microseconds, a bandwidth fraction in (0, 1].
    #[test]
    fn shipped_collective_profiles_are_physical_and_unique() {
        for (i, p) in COLLECTIVE_PROFILES.iter().enumerate() {
            let hw = registry::get(p.hardware).unwrap();
            assert!(hw.interconnect.is_some(), "{}", p.hardware);
            assert!(p.held_out_median <= SHIPPED_MEDIAN_ERROR, "{p:?}");
            assert!((0.5..20.0).contains(&p.latency_per_step_us), "{p:?}");
            assert!(
                p.bandwidth_fraction > 0.0 && p.bandwidth_fraction <= 1.0,
                "{p:?}"
            );
            assert!(
                COLLECTIVE_PROFILES[..i]
                    .iter()
                    .all(|q| (q.hardware, q.collective) != (p.hardware, p.collective)),
                "{p:?} twice"
            );
        }
        assert_eq!(
            collective_profile("h100-sxm", Collective::AllReduce).map(|p| p.hardware),
            Some("h100-sxm")
        );
        assert!(collective_profile("h100-sxm", Collective::SendRecv).is_none());
    }
}
