//! `rooflinr tiling`: how a GEMM tiles on a device (waves, occupancy, L2 reuse) and how
//! that refines the plain roofline prediction.

use anyhow::{Result, bail};
use rooflinr_model::format::Format;
use rooflinr_model::ops::{Op, Precision};
use rooflinr_model::tiling;
use rooflinr_model::units::si;
use serde::Serialize;

use crate::args::HardwareArgs;
use crate::table;

/// Arguments of `rooflinr tiling`.
#[derive(clap::Args)]
pub struct Args {
    /// Rows of A (tokens).
    #[arg(long)]
    m: u64,
    /// Output features.
    #[arg(long)]
    n: u64,
    /// Input features.
    #[arg(long)]
    k: u64,
    /// Format of both operands.
    #[arg(long, default_value = "fp16")]
    format: Format,
    #[command(flatten)]
    hardware: HardwareArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct PlanJson {
    tile: String,
    blocks_per_sm: u32,
    limited_by: &'static str,
    tiles: u64,
    waves: f64,
    efficiency: f64,
    dram_bytes: f64,
    refined_time_s: f64,
}

#[derive(Serialize)]
struct TilingJson {
    roofline_time_s: f64,
    bound: &'static str,
    refined_time_s: f64,
    plans: Vec<PlanJson>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    if [args.m, args.n, args.k]
        .iter()
        .any(|d| *d == 0 || *d > 1 << 24)
    {
        bail!("--m, --n and --k must be between 1 and 2^24");
    }
    let hw = args.hardware.load()?;
    let efficiency = args.hardware.efficiency()?;
    let precision = Precision {
        output: Format::Fp16,
        ..Precision::uniform(args.format)
    };
    let op = Op::Gemm {
        m: args.m as f64,
        n: args.n as f64,
        k: args.k as f64,
        bias: false,
    };
    let r = op.predict(&precision, &hw, &efficiency);
    let peak = r.ceiling.peak * efficiency.compute_for(r.ceiling.executed_as);
    let bandwidth = hw.memory_bandwidth.value * efficiency.bandwidth;
    let plans = tiling::plans(args.m, args.n, args.k, args.format, &hw)?;
    let mut rows: Vec<PlanJson> = plans
        .iter()
        .map(|p| PlanJson {
            tile: format!(
                "{}x{}x{} ({} stages)",
                p.tile.m, p.tile.n, p.tile.k, p.tile.stages
            ),
            blocks_per_sm: p.blocks_per_sm,
            limited_by: p.limit.name(),
            tiles: p.tiles,
            waves: p.waves,
            efficiency: p.efficiency,
            dram_bytes: p.dram_bytes.get(),
            refined_time_s: tiling::refined_time(p, r.cost.work.flops, peak, bandwidth).get(),
        })
        .collect();
    rows.sort_by(|a, b| a.refined_time_s.total_cmp(&b.refined_time_s));
    let out = TilingJson {
        roofline_time_s: r.prediction.time.get(),
        bound: r.prediction.bound.name(),
        refined_time_s: rows.first().map_or(f64::NAN, |p| p.refined_time_s),
        plans: rows,
    };
    if args.json {
        return super::print_json(&out);
    }
    println!(
        "GEMM {}x{}x{} in {} on {}: roofline {} ({}-bound), with tiling {}\n",
        args.m,
        args.n,
        args.k,
        args.format,
        hw.name,
        si(out.roofline_time_s, "s"),
        out.bound,
        si(out.refined_time_s, "s")
    );
    let mut t = table::new(
        &[
            "tile",
            "blocks/SM",
            "limited by",
            "tiles",
            "waves",
            "efficiency",
            "DRAM",
            "time",
        ],
        1,
    );
    for p in &out.plans {
        t.add_row(vec![
            p.tile.clone(),
            p.blocks_per_sm.to_string(),
            p.limited_by.to_string(),
            p.tiles.to_string(),
            format!("{:.2}", p.waves),
            format!("{:.1}%", p.efficiency * 100.0),
            si(p.dram_bytes, "B"),
            si(p.refined_time_s, "s"),
        ]);
    }
    table::print(&t);
    println!(
        "Efficiency counts edge-tile padding and idle SMs in the last wave; DRAM counts L2 reuse within a wave."
    );
    Ok(())
}
