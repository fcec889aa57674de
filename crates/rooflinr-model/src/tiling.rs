//! GEMM tiling: how a GEMM breaks into thread-block tiles on a GPU, how many run at once,
//! how many waves that takes and what the last partial wave costs, and how much DRAM
//! traffic L2 saves. It refines the plain roofline for compute-bound GEMMs, which assumes
//! every SM is busy all the time.
//!
//! The model, per candidate tile (M x N x K tile, pipeline stages, threads):
//! - shared memory per block = stages x (tile_m + tile_n) x tile_k x operand bytes;
//!   registers per thread = FP32 accumulators / threads + 40 for addressing (max 255);
//!   blocks per SM = the tightest of shared memory, registers, threads and 32 blocks.
//! - tiles = ceil(M / tile_m) x ceil(N / tile_n); waves = tiles / (SMs x blocks per SM).
//!   Efficiency = useful M x N / (whole waves x concurrent blocks x tile area): padding of
//!   edge tiles and idle SMs in the last wave both count.
//! - L2: a wave's blocks cover a square-ish patch of the output and walk K roughly in
//!   step. If the K-slabs they have in flight (pipeline stages x tile_k, blocks up to
//!   [`DRIFT`] slabs apart) fit in half the L2, the patch's A and B panels come from
//!   DRAM once per wave; otherwise each tile reads its own panels.
//!
//! Per-SM limits come from the CUDA C++ Programming Guide's table of technical
//! specifications per compute capability: shared memory per SM 164 KB (8.0, 8.7),
//! 100 KB (8.6, 8.9, 12.x), 228 KB (9.0, 10.0); 64 K registers; 2048 threads (1536 on
//! 8.6, 8.9, 12.x).

use crate::error::ModelError;
use crate::format::Format;
use crate::hardware::Hardware;
use crate::units::{Bytes, Flops, Seconds};

/// How many K-slabs apart the blocks of one wave are assumed to drift.
pub const DRIFT: u32 = 4;

/// A thread-block tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Rows of C per block.
    pub m: u32,
    /// Columns of C per block.
    pub n: u32,
    /// Depth of one K step.
    pub k: u32,
    /// Pipeline stages held in shared memory.
    pub stages: u32,
    /// Threads per block.
    pub threads: u32,
}

/// The tiles considered, as CUTLASS-style kernels offer them.
pub const TILES: [Tile; 6] = [
    Tile {
        m: 256,
        n: 128,
        k: 64,
        stages: 3,
        threads: 256,
    },
    Tile {
        m: 128,
        n: 256,
        k: 64,
        stages: 3,
        threads: 256,
    },
    Tile {
        m: 128,
        n: 128,
        k: 64,
        stages: 4,
        threads: 256,
    },
    Tile {
        m: 128,
        n: 64,
        k: 64,
        stages: 4,
        threads: 128,
    },
    Tile {
        m: 64,
        n: 128,
        k: 64,
        stages: 4,
        threads: 128,
    },
    Tile {
        m: 64,
        n: 64,
        k: 64,
        stages: 4,
        threads: 128,
    },
];

/// Per-SM resources.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmResources {
    /// Streaming multiprocessors.
    pub sms: u32,
    /// Shared memory per SM, bytes.
    pub shared_memory: u32,
    /// 32-bit registers per SM.
    pub registers: u32,
    /// Resident threads per SM.
    pub threads: u32,
    /// L2 cache, bytes.
    pub l2: f64,
}

impl SmResources {
    /// The resources of a device, from its SM count, L2 and compute capability.
    pub fn of(hw: &Hardware) -> Result<SmResources, ModelError> {
        let sms = hw.sm_count.as_ref().map(|f| f.value).ok_or_else(|| {
            ModelError::MissingField("sm_count (tiling needs the SM count)".into())
        })?;
        let sm = hw.sm_version().unwrap_or(80);
        let (shared_kb, threads) = match sm {
            80 | 87 => (164, 2048),
            90 | 100..=110 => (228, 2048),
            86 | 89 | 120..=129 => (100, 1536),
            _ => (100, 1536),
        };
        Ok(SmResources {
            sms,
            shared_memory: shared_kb * 1024,
            registers: 65536,
            threads,
            l2: hw.l2_bytes(),
        })
    }
}

/// Which resource limits blocks per SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Shared memory.
    SharedMemory,
    /// Registers.
    Registers,
    /// Resident threads.
    Threads,
    /// The 32-blocks-per-SM cap.
    Blocks,
}

impl Limit {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Limit::SharedMemory => "shared memory",
            Limit::Registers => "registers",
            Limit::Threads => "threads",
            Limit::Blocks => "block cap",
        }
    }
}

/// One tile's plan for one GEMM.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The tile.
    pub tile: Tile,
    /// Blocks resident per SM (0: the tile does not fit at all).
    pub blocks_per_sm: u32,
    /// What limits `blocks_per_sm`.
    pub limit: Limit,
    /// Thread blocks in the grid.
    pub tiles: u64,
    /// Blocks running at once on the whole device.
    pub concurrent: u64,
    /// tiles / concurrent (fractional).
    pub waves: f64,
    /// Useful work over the work of whole waves of whole tiles.
    pub efficiency: f64,
    /// DRAM traffic with L2 reuse as modelled.
    pub dram_bytes: Bytes,
    /// A, B and C each moved once: the plain roofline's bytes.
    pub ideal_bytes: Bytes,
}

/// Plans `tile` for an `m x n x k` GEMM with operands in `format` (output FP16).
pub fn plan(tile: Tile, m: u64, n: u64, k: u64, format: Format, r: &SmResources) -> Plan {
    let b = format.bits_per_element() / 8.0;
    let shared =
        (f64::from(tile.stages) * f64::from(tile.m + tile.n) * f64::from(tile.k) * b).ceil() as u32;
    let regs_per_thread = (tile.m * tile.n / tile.threads + 40).min(255);
    let limits = [
        (r.shared_memory / shared.max(1), Limit::SharedMemory),
        (
            r.registers / (regs_per_thread * tile.threads),
            Limit::Registers,
        ),
        (r.threads / tile.threads, Limit::Threads),
        (32, Limit::Blocks),
    ];
    let (blocks_per_sm, limit) = limits
        .into_iter()
        .min_by_key(|(n, _)| *n)
        .unwrap_or((0, Limit::Blocks));
    let (tm, tn) = (u64::from(tile.m), u64::from(tile.n));
    let (tiles_m, tiles_n) = (m.div_ceil(tm), n.div_ceil(tn));
    let tiles = tiles_m * tiles_n;
    let concurrent = u64::from(r.sms) * u64::from(blocks_per_sm);
    let (waves, efficiency) = if concurrent == 0 {
        (f64::INFINITY, 0.0)
    } else {
        let whole = tiles.div_ceil(concurrent) as f64;
        (
            tiles as f64 / concurrent as f64,
            (m * n) as f64 / (whole * concurrent as f64 * (tm * tn) as f64),
        )
    };
    let (mf, nf, kf) = (m as f64, n as f64, k as f64);
    let ideal_bytes = format.tensor_bytes(mf * kf)
        + format.tensor_bytes(kf * nf)
        + Format::Fp16.tensor_bytes(mf * nf);
    // One wave covers a side x side patch of tiles (clipped to the grid).
    let per_wave = (concurrent.min(tiles) as f64).max(1.0);
    let side_m = per_wave.sqrt().min(tiles_m as f64);
    let side_n = (per_wave / side_m).min(tiles_n as f64);
    let patch_bytes = (side_m * tm as f64 + side_n * tn as f64) * kf * b;
    let in_flight = patch_bytes / kf * f64::from(tile.k * tile.stages * DRIFT);
    let tile_bytes = (tm + tn) as f64 * kf * b;
    let wave_count = (tiles as f64 / per_wave).ceil();
    let reads = if in_flight <= r.l2 / 2.0 {
        wave_count * patch_bytes
    } else {
        tiles as f64 * tile_bytes
    };
    let operands_once = ideal_bytes - Format::Fp16.tensor_bytes(mf * nf);
    let dram_bytes = Bytes(reads.max(operands_once.get())) + Format::Fp16.tensor_bytes(mf * nf);
    Plan {
        tile,
        blocks_per_sm,
        limit,
        tiles,
        concurrent,
        waves,
        efficiency,
        dram_bytes,
        ideal_bytes,
    }
}

/// Every candidate tile's plan, best first (highest efficiency, then least DRAM traffic).
pub fn plans(
    m: u64,
    n: u64,
    k: u64,
    format: Format,
    hw: &Hardware,
) -> Result<Vec<Plan>, ModelError> {
    if m == 0 || n == 0 || k == 0 {
        return Err(ModelError::invalid(
            "shape",
            "m, n and k must be at least 1",
        ));
    }
    let r = SmResources::of(hw)?;
    let mut all: Vec<Plan> = TILES
        .iter()
        .map(|t| plan(*t, m, n, k, format, &r))
        .filter(|p| p.blocks_per_sm > 0)
        .collect();
    crate::sort::sort_by(&mut all, |a, b| {
        b.efficiency
            .total_cmp(&a.efficiency)
            .then(a.dram_bytes.get().total_cmp(&b.dram_bytes.get()))
    });
    Ok(all)
}

/// The roofline time of a GEMM refined by a tiling plan: compute at `peak x efficiency`,
/// memory over the plan's DRAM bytes.
pub fn refined_time(
    plan: &Plan,
    flops: Flops,
    peak: crate::units::FlopsPerSecond,
    bandwidth: crate::units::BytesPerSecond,
) -> Seconds {
    let compute = flops / (peak * plan.efficiency);
    let memory = plan.dram_bytes / bandwidth;
    if compute.get() > memory.get() {
        compute
    } else {
        memory
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware::registry;

    fn h100() -> (Hardware, SmResources) {
        let hw = registry::get("h100-sxm").unwrap();
        let r = SmResources::of(&hw).unwrap();
        (hw, r)
    }

    #[test]
    fn one_tile_past_a_full_wave_halves_the_efficiency() {
        let (_, r) = h100();
        assert_eq!(r.sms, 132);
        // 256 x 128 FP16 tiles: 3 stages x 384 x 64 x 2 B = 144 KiB, one block per SM.
        let tile = TILES[0];
        let full = plan(tile, 256, 128 * 132, 4096, Format::Fp16, &r);
        assert_eq!((full.blocks_per_sm, full.limit), (1, Limit::SharedMemory));
        assert_eq!((full.tiles, full.concurrent), (132, 132));
        assert_eq!(full.efficiency, 1.0);
        let over = plan(tile, 256, 128 * 133, 4096, Format::Fp16, &r);
        assert_eq!(over.tiles, 133);
        assert!(
            (over.efficiency - 133.0 / 264.0).abs() < 1e-12,
            "{}",
            over.efficiency
        );
    }

    #[test]
    fn the_planner_avoids_a_nearly_empty_last_wave() {
        let (hw, _) = h100();
        let best = plans(256, 128 * 133, 4096, Format::Fp16, &hw).unwrap()[0];
        assert!(best.efficiency > 0.8, "{best:?}");
    }

    #[test]
    fn l2_reuse_brings_dram_traffic_towards_the_ideal() {
        let (hw, r) = h100();
        let p = plan(TILES[2], 8192, 8192, 8192, Format::Fp16, &r);
        assert!(p.dram_bytes.get() >= p.ideal_bytes.get());
        // Without reuse every tile would read its own panels: 64 x 64 tiles x 2 panels.
        let no_reuse = 64.0 * 64.0 * (256.0 * 8192.0 * 2.0) + 8192.0 * 8192.0 * 2.0;
        assert!(p.dram_bytes.get() < no_reuse / 4.0, "{:?}", p.dram_bytes);
        assert!(plans(0, 1, 1, Format::Fp16, &hw).is_err());
    }
}
