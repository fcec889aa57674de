//! Collective costs fitted on NVIDIA's measured NCCL tables: a latency per step and the
//! fraction of the link's bandwidth reached, per device, collective and number of GPUs
//! (NCCL picks its algorithm, protocol and channels by the group's size, so one law over
//! 2, 4 and 8 GPUs misses: held-out median 21 % pooled against 5 % per size), with NCCL's
//! pipeline fill ([`NCCL_PIPELINE_FILL`]). A group of a size the tables do not hold stays
//! at the bound. `rooflinr validate` fits them (half the message
//! sizes) and judges them (the other half); only those whose held-out median error is at
//! most [`crate::kernel_time::SHIPPED_MEDIAN_ERROR`] ship, as for kernel profiles.

use super::Collective;

/// Where the collective profiles come from.
pub const COLLECTIVE_SOURCE: &str = "fitted by `rooflinr validate` on the NCCL tables of NVIDIA's aiconfigurator-core 0.12.0 (Apache-2.0; 2 to 8 GPUs inside one NVLink or PCIe domain)";

/// [`super::CommModel::pipeline_fill`] of NCCL's collectives: fitted per device,
/// collective and group size over 0, 0.5, 1, 1.5 and 2 on NVIDIA's NCCL tables, 1 fits
/// best for 61 of the 100 groups and the rest lose little by it (held-out median 5.3 %
/// at 1 for all, 5.0 % at each group's best; 9.4 % with none). Two is what a pipeline of
/// chunks sized for the message would pay; NCCL's fixed chunk sizes and protocol
/// switches land between.
pub const NCCL_PIPELINE_FILL: f64 = 1.0;

/// One device, collective and group size's fitted terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollectiveProfile {
    /// Registry key.
    pub hardware: &'static str,
    /// The collective.
    pub collective: Collective,
    /// GPUs in the group measured.
    pub gpus: u32,
    /// Latency per step, µs.
    pub latency_per_step_us: f64,
    /// Fraction of the scale-up link's bandwidth reached.
    pub bandwidth_fraction: f64,
    /// Median |error| on the held-out message sizes.
    pub held_out_median: f64,
}

/// The shipped profiles.
// Fitted figures, printed by `rooflinr validate --profiles`; one reads like e.
#[allow(clippy::approx_constant)]
pub const COLLECTIVE_PROFILES: &[CollectiveProfile] = &[
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllGather,
        gpus: 2,
        latency_per_step_us: 9.734,
        bandwidth_fraction: 0.503,
        held_out_median: 0.073,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllGather,
        gpus: 4,
        latency_per_step_us: 3.906,
        bandwidth_fraction: 0.634,
        held_out_median: 0.088,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllGather,
        gpus: 8,
        latency_per_step_us: 2.159,
        bandwidth_fraction: 0.706,
        held_out_median: 0.036,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllReduce,
        gpus: 2,
        latency_per_step_us: 5.317,
        bandwidth_fraction: 0.629,
        held_out_median: 0.084,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllReduce,
        gpus: 4,
        latency_per_step_us: 2.369,
        bandwidth_fraction: 0.721,
        held_out_median: 0.042,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllReduce,
        gpus: 8,
        latency_per_step_us: 1.532,
        bandwidth_fraction: 0.772,
        held_out_median: 0.041,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllToAll,
        gpus: 2,
        latency_per_step_us: 11.312,
        bandwidth_fraction: 0.576,
        held_out_median: 0.054,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllToAll,
        gpus: 4,
        latency_per_step_us: 12.371,
        bandwidth_fraction: 0.686,
        held_out_median: 0.024,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::AllToAll,
        gpus: 8,
        latency_per_step_us: 13.132,
        bandwidth_fraction: 0.706,
        held_out_median: 0.038,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::ReduceScatter,
        gpus: 2,
        latency_per_step_us: 9.616,
        bandwidth_fraction: 0.566,
        held_out_median: 0.064,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::ReduceScatter,
        gpus: 4,
        latency_per_step_us: 3.779,
        bandwidth_fraction: 0.663,
        held_out_median: 0.050,
    },
    CollectiveProfile {
        hardware: "a100-sxm",
        collective: Collective::ReduceScatter,
        gpus: 8,
        latency_per_step_us: 2.068,
        bandwidth_fraction: 0.709,
        held_out_median: 0.067,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllGather,
        gpus: 2,
        latency_per_step_us: 8.542,
        bandwidth_fraction: 0.554,
        held_out_median: 0.043,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllGather,
        gpus: 4,
        latency_per_step_us: 3.733,
        bandwidth_fraction: 0.714,
        held_out_median: 0.053,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllGather,
        gpus: 8,
        latency_per_step_us: 2.369,
        bandwidth_fraction: 0.799,
        held_out_median: 0.058,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllReduce,
        gpus: 2,
        latency_per_step_us: 4.779,
        bandwidth_fraction: 0.642,
        held_out_median: 0.050,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllReduce,
        gpus: 4,
        latency_per_step_us: 2.416,
        bandwidth_fraction: 0.772,
        held_out_median: 0.044,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllReduce,
        gpus: 8,
        latency_per_step_us: 1.772,
        bandwidth_fraction: 0.871,
        held_out_median: 0.064,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllToAll,
        gpus: 2,
        latency_per_step_us: 9.756,
        bandwidth_fraction: 0.425,
        held_out_median: 0.071,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllToAll,
        gpus: 4,
        latency_per_step_us: 10.691,
        bandwidth_fraction: 0.629,
        held_out_median: 0.047,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::AllToAll,
        gpus: 8,
        latency_per_step_us: 11.409,
        bandwidth_fraction: 0.700,
        held_out_median: 0.048,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::ReduceScatter,
        gpus: 2,
        latency_per_step_us: 8.312,
        bandwidth_fraction: 0.499,
        held_out_median: 0.059,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::ReduceScatter,
        gpus: 4,
        latency_per_step_us: 3.650,
        bandwidth_fraction: 0.682,
        held_out_median: 0.046,
    },
    CollectiveProfile {
        hardware: "b200",
        collective: Collective::ReduceScatter,
        gpus: 8,
        latency_per_step_us: 2.318,
        bandwidth_fraction: 0.780,
        held_out_median: 0.067,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllGather,
        gpus: 2,
        latency_per_step_us: 8.530,
        bandwidth_fraction: 0.575,
        held_out_median: 0.037,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllGather,
        gpus: 4,
        latency_per_step_us: 3.622,
        bandwidth_fraction: 0.727,
        held_out_median: 0.043,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllGather,
        gpus: 8,
        latency_per_step_us: 2.306,
        bandwidth_fraction: 0.792,
        held_out_median: 0.071,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllReduce,
        gpus: 2,
        latency_per_step_us: 4.817,
        bandwidth_fraction: 0.665,
        held_out_median: 0.043,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllReduce,
        gpus: 4,
        latency_per_step_us: 2.367,
        bandwidth_fraction: 0.777,
        held_out_median: 0.036,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllReduce,
        gpus: 8,
        latency_per_step_us: 1.734,
        bandwidth_fraction: 0.890,
        held_out_median: 0.074,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllToAll,
        gpus: 2,
        latency_per_step_us: 9.944,
        bandwidth_fraction: 0.451,
        held_out_median: 0.088,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllToAll,
        gpus: 4,
        latency_per_step_us: 10.627,
        bandwidth_fraction: 0.662,
        held_out_median: 0.054,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::AllToAll,
        gpus: 8,
        latency_per_step_us: 11.890,
        bandwidth_fraction: 0.747,
        held_out_median: 0.058,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::ReduceScatter,
        gpus: 2,
        latency_per_step_us: 8.185,
        bandwidth_fraction: 0.511,
        held_out_median: 0.039,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::ReduceScatter,
        gpus: 4,
        latency_per_step_us: 3.548,
        bandwidth_fraction: 0.690,
        held_out_median: 0.027,
    },
    CollectiveProfile {
        hardware: "b300",
        collective: Collective::ReduceScatter,
        gpus: 8,
        latency_per_step_us: 2.274,
        bandwidth_fraction: 0.777,
        held_out_median: 0.069,
    },
    CollectiveProfile {
        hardware: "gb200",
        collective: Collective::AllGather,
        gpus: 2,
        latency_per_step_us: 9.263,
        bandwidth_fraction: 0.583,
        held_out_median: 0.031,
    },
    CollectiveProfile {
        hardware: "gb200",
        collective: Collective::AllGather,
        gpus: 4,
        latency_per_step_us: 3.912,
        bandwidth_fraction: 0.734,
        held_out_median: 0.033,
    },
    CollectiveProfile {
        hardware: "gb200",
        collective: Collective::AllReduce,
        gpus: 2,
        latency_per_step_us: 5.168,
        bandwidth_fraction: 0.668,
        held_out_median: 0.033,
    },
    CollectiveProfile {
        hardware: "gb200",
        collective: Collective::AllReduce,
        gpus: 4,
        latency_per_step_us: 2.543,
        bandwidth_fraction: 0.779,
        held_out_median: 0.039,
    },
    CollectiveProfile {
        hardware: "gb200",
        collective: Collective::AllToAll,
        gpus: 2,
        latency_per_step_us: 10.816,
        bandwidth_fraction: 0.466,
        held_out_median: 0.105,
    },
    CollectiveProfile {
        hardware: "gb200",
        collective: Collective::AllToAll,
        gpus: 4,
        latency_per_step_us: 11.232,
        bandwidth_fraction: 0.670,
        held_out_median: 0.059,
    },
    CollectiveProfile {
        hardware: "gb200",
        collective: Collective::ReduceScatter,
        gpus: 2,
        latency_per_step_us: 9.045,
        bandwidth_fraction: 0.519,
        held_out_median: 0.053,
    },
    CollectiveProfile {
        hardware: "gb200",
        collective: Collective::ReduceScatter,
        gpus: 4,
        latency_per_step_us: 3.858,
        bandwidth_fraction: 0.693,
        held_out_median: 0.032,
    },
    CollectiveProfile {
        hardware: "gb300",
        collective: Collective::AllGather,
        gpus: 2,
        latency_per_step_us: 8.801,
        bandwidth_fraction: 0.584,
        held_out_median: 0.034,
    },
    CollectiveProfile {
        hardware: "gb300",
        collective: Collective::AllGather,
        gpus: 4,
        latency_per_step_us: 3.795,
        bandwidth_fraction: 0.738,
        held_out_median: 0.036,
    },
    CollectiveProfile {
        hardware: "gb300",
        collective: Collective::AllReduce,
        gpus: 2,
        latency_per_step_us: 4.889,
        bandwidth_fraction: 0.669,
        held_out_median: 0.048,
    },
    CollectiveProfile {
        hardware: "gb300",
        collective: Collective::AllReduce,
        gpus: 4,
        latency_per_step_us: 2.457,
        bandwidth_fraction: 0.783,
        held_out_median: 0.043,
    },
    CollectiveProfile {
        hardware: "gb300",
        collective: Collective::AllToAll,
        gpus: 2,
        latency_per_step_us: 10.701,
        bandwidth_fraction: 0.483,
        held_out_median: 0.099,
    },
    CollectiveProfile {
        hardware: "gb300",
        collective: Collective::AllToAll,
        gpus: 4,
        latency_per_step_us: 11.016,
        bandwidth_fraction: 0.678,
        held_out_median: 0.051,
    },
    CollectiveProfile {
        hardware: "gb300",
        collective: Collective::ReduceScatter,
        gpus: 2,
        latency_per_step_us: 8.578,
        bandwidth_fraction: 0.519,
        held_out_median: 0.060,
    },
    CollectiveProfile {
        hardware: "gb300",
        collective: Collective::ReduceScatter,
        gpus: 4,
        latency_per_step_us: 3.752,
        bandwidth_fraction: 0.701,
        held_out_median: 0.032,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllGather,
        gpus: 2,
        latency_per_step_us: 5.518,
        bandwidth_fraction: 0.567,
        held_out_median: 0.065,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllGather,
        gpus: 4,
        latency_per_step_us: 2.441,
        bandwidth_fraction: 0.720,
        held_out_median: 0.046,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllGather,
        gpus: 8,
        latency_per_step_us: 1.519,
        bandwidth_fraction: 0.821,
        held_out_median: 0.034,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllReduce,
        gpus: 2,
        latency_per_step_us: 3.182,
        bandwidth_fraction: 0.687,
        held_out_median: 0.041,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllReduce,
        gpus: 4,
        latency_per_step_us: 1.582,
        bandwidth_fraction: 0.822,
        held_out_median: 0.015,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllReduce,
        gpus: 8,
        latency_per_step_us: 1.120,
        bandwidth_fraction: 0.977,
        held_out_median: 0.067,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllToAll,
        gpus: 2,
        latency_per_step_us: 7.391,
        bandwidth_fraction: 0.668,
        held_out_median: 0.102,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllToAll,
        gpus: 4,
        latency_per_step_us: 7.702,
        bandwidth_fraction: 0.756,
        held_out_median: 0.077,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::AllToAll,
        gpus: 8,
        latency_per_step_us: 8.029,
        bandwidth_fraction: 0.758,
        held_out_median: 0.070,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::ReduceScatter,
        gpus: 2,
        latency_per_step_us: 5.431,
        bandwidth_fraction: 0.538,
        held_out_median: 0.050,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::ReduceScatter,
        gpus: 4,
        latency_per_step_us: 2.327,
        bandwidth_fraction: 0.716,
        held_out_median: 0.036,
    },
    CollectiveProfile {
        hardware: "h100-sxm",
        collective: Collective::ReduceScatter,
        gpus: 8,
        latency_per_step_us: 1.410,
        bandwidth_fraction: 0.842,
        held_out_median: 0.044,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllGather,
        gpus: 2,
        latency_per_step_us: 5.298,
        bandwidth_fraction: 0.572,
        held_out_median: 0.052,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllGather,
        gpus: 4,
        latency_per_step_us: 2.413,
        bandwidth_fraction: 0.732,
        held_out_median: 0.040,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllGather,
        gpus: 8,
        latency_per_step_us: 1.613,
        bandwidth_fraction: 0.846,
        held_out_median: 0.052,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllReduce,
        gpus: 2,
        latency_per_step_us: 3.111,
        bandwidth_fraction: 0.699,
        held_out_median: 0.045,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllReduce,
        gpus: 4,
        latency_per_step_us: 1.570,
        bandwidth_fraction: 0.835,
        held_out_median: 0.019,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllReduce,
        gpus: 8,
        latency_per_step_us: 1.172,
        bandwidth_fraction: 1.000,
        held_out_median: 0.068,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllToAll,
        gpus: 2,
        latency_per_step_us: 7.413,
        bandwidth_fraction: 0.720,
        held_out_median: 0.076,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllToAll,
        gpus: 4,
        latency_per_step_us: 7.532,
        bandwidth_fraction: 0.776,
        held_out_median: 0.075,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::AllToAll,
        gpus: 8,
        latency_per_step_us: 8.804,
        bandwidth_fraction: 0.789,
        held_out_median: 0.044,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::ReduceScatter,
        gpus: 2,
        latency_per_step_us: 5.219,
        bandwidth_fraction: 0.547,
        held_out_median: 0.039,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::ReduceScatter,
        gpus: 4,
        latency_per_step_us: 2.305,
        bandwidth_fraction: 0.730,
        held_out_median: 0.026,
    },
    CollectiveProfile {
        hardware: "h200",
        collective: Collective::ReduceScatter,
        gpus: 8,
        latency_per_step_us: 1.521,
        bandwidth_fraction: 0.856,
        held_out_median: 0.048,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::AllGather,
        gpus: 2,
        latency_per_step_us: 5.244,
        bandwidth_fraction: 0.638,
        held_out_median: 0.046,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::AllGather,
        gpus: 4,
        latency_per_step_us: 2.133,
        bandwidth_fraction: 0.163,
        held_out_median: 0.083,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::AllGather,
        gpus: 8,
        latency_per_step_us: 1.373,
        bandwidth_fraction: 0.041,
        held_out_median: 0.097,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::AllReduce,
        gpus: 2,
        latency_per_step_us: 2.944,
        bandwidth_fraction: 0.660,
        held_out_median: 0.056,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::AllReduce,
        gpus: 4,
        latency_per_step_us: 1.401,
        bandwidth_fraction: 0.181,
        held_out_median: 0.088,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::AllReduce,
        gpus: 8,
        latency_per_step_us: 1.113,
        bandwidth_fraction: 0.047,
        held_out_median: 0.128,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::AllToAll,
        gpus: 2,
        latency_per_step_us: 7.271,
        bandwidth_fraction: 0.751,
        held_out_median: 0.040,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::AllToAll,
        gpus: 4,
        latency_per_step_us: 7.397,
        bandwidth_fraction: 0.154,
        held_out_median: 0.063,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::AllToAll,
        gpus: 8,
        latency_per_step_us: 8.571,
        bandwidth_fraction: 0.043,
        held_out_median: 0.138,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::ReduceScatter,
        gpus: 2,
        latency_per_step_us: 5.318,
        bandwidth_fraction: 0.616,
        held_out_median: 0.042,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::ReduceScatter,
        gpus: 4,
        latency_per_step_us: 2.217,
        bandwidth_fraction: 0.173,
        held_out_median: 0.077,
    },
    CollectiveProfile {
        hardware: "l40s",
        collective: Collective::ReduceScatter,
        gpus: 8,
        latency_per_step_us: 1.352,
        bandwidth_fraction: 0.046,
        held_out_median: 0.138,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllGather,
        gpus: 2,
        latency_per_step_us: 5.163,
        bandwidth_fraction: 0.531,
        held_out_median: 0.044,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllGather,
        gpus: 4,
        latency_per_step_us: 2.718,
        bandwidth_fraction: 0.412,
        held_out_median: 0.060,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllGather,
        gpus: 8,
        latency_per_step_us: 2.008,
        bandwidth_fraction: 0.388,
        held_out_median: 0.046,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllReduce,
        gpus: 2,
        latency_per_step_us: 2.765,
        bandwidth_fraction: 0.618,
        held_out_median: 0.026,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllReduce,
        gpus: 4,
        latency_per_step_us: 1.847,
        bandwidth_fraction: 0.430,
        held_out_median: 0.059,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllReduce,
        gpus: 8,
        latency_per_step_us: 1.612,
        bandwidth_fraction: 0.380,
        held_out_median: 0.060,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllToAll,
        gpus: 2,
        latency_per_step_us: 5.940,
        bandwidth_fraction: 0.468,
        held_out_median: 0.063,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllToAll,
        gpus: 4,
        latency_per_step_us: 7.668,
        bandwidth_fraction: 0.396,
        held_out_median: 0.024,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::AllToAll,
        gpus: 8,
        latency_per_step_us: 9.445,
        bandwidth_fraction: 0.280,
        held_out_median: 0.064,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::ReduceScatter,
        gpus: 2,
        latency_per_step_us: 4.898,
        bandwidth_fraction: 0.513,
        held_out_median: 0.030,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::ReduceScatter,
        gpus: 4,
        latency_per_step_us: 2.779,
        bandwidth_fraction: 0.395,
        held_out_median: 0.053,
    },
    CollectiveProfile {
        hardware: "rtx-pro-6000",
        collective: Collective::ReduceScatter,
        gpus: 8,
        latency_per_step_us: 1.999,
        bandwidth_fraction: 0.355,
        held_out_median: 0.098,
    },
];

/// The profile of `collective` among `gpus` GPUs on the device `hardware`, if one ships for
/// that many GPUs. Other group sizes have none: a profile's latency per step does not
/// carry to another size (NCCL's measured latency grows like a fixed part plus a part per
/// step: 6.4, 9.5 and 15.7 us for all-reduces of 2, 4 and 8 H100s, where 1.56 us per
/// step and 4.8 us fixed fit all three), and neither does its bandwidth fraction (69, 82
/// and 98 %).
pub fn collective_profile(
    hardware: &str,
    collective: Collective,
    gpus: u32,
) -> Option<&'static CollectiveProfile> {
    COLLECTIVE_PROFILES
        .iter()
        .find(|p| p.hardware == hardware && p.collective == collective && p.gpus == gpus)
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
            assert!((0.1..40.0).contains(&p.latency_per_step_us), "{p:?}");
            assert!(
                p.bandwidth_fraction > 0.0 && p.bandwidth_fraction <= 1.0,
                "{p:?}"
            );
            assert!(
                COLLECTIVE_PROFILES[..i]
                    .iter()
                    .all(|q| (q.hardware, q.collective, q.gpus)
                        != (p.hardware, p.collective, p.gpus)),
                "{p:?} twice"
            );
        }
        assert!(collective_profile("h100-sxm", Collective::SendRecv, 8).is_none());
    }

    /// A group takes the profile of its own size; a size NVIDIA did not measure has none.
    #[test]
    fn a_group_takes_the_profile_of_its_own_size() {
        let size = |hardware, gpus| {
            collective_profile(hardware, Collective::AllReduce, gpus).map(|p| p.gpus)
        };
        for gpus in [2, 4, 8] {
            assert_eq!(size("h100-sxm", gpus), Some(gpus));
        }
        assert_eq!(size("h100-sxm", 16), None);
        // GB200's tables stop at four GPUs.
        assert_eq!(size("gb200", 4), Some(4));
        assert_eq!(size("gb200", 8), None);
    }
}
