//! `rooflinr sweep`: a grid of GEMM shapes x formats, with speed-ups over the first format.

use anyhow::{Result, bail};
use rooflinr_model::format::Format;
use rooflinr_model::sweep::{GemmGrid, GemmPoint, SweepPrecision};
use rooflinr_model::units::si;

use crate::args::{HardwareArgs, Sizes};
use crate::commands::predict::prediction_json;
use crate::table;

/// Arguments of `rooflinr sweep`.
#[derive(clap::Args)]
pub struct Args {
    /// Rows of A (tokens): a comma-separated list.
    #[arg(long, default_value = "1")]
    m: Sizes,
    /// Output features: a comma-separated list.
    #[arg(long, default_value = "4096")]
    n: Sizes,
    /// Reduction dimension: a comma-separated list.
    #[arg(long, default_value = "4096")]
    k: Sizes,
    /// Weight formats; the first is the speed-up baseline.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "fp16,fp8-e4m3,int8,nvfp4,int4"
    )]
    formats: Vec<Format>,
    /// Activations and outputs in each swept format too (the prototype's convention).
    #[arg(long, conflicts_with_all = ["activations", "output"])]
    uniform: bool,
    /// Activation format when not --uniform.
    #[arg(long, default_value = "fp16")]
    activations: Format,
    /// Output format when not --uniform.
    #[arg(long, default_value = "fp16")]
    output: Format,
    #[command(flatten)]
    hardware: HardwareArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Most points a sweep prints (the library has no limit; a terminal does).
const MAX_POINTS: usize = 1_000_000;

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    if args.formats.is_empty() {
        bail!("--formats needs at least one format");
    }
    let grid = GemmGrid {
        ms: &args.m.0,
        ns: &args.n.0,
        ks: &args.k.0,
        formats: &args.formats,
        precision: if args.uniform {
            SweepPrecision::Uniform
        } else {
            SweepPrecision::WeightsOnly {
                activations: args.activations,
                output: args.output,
            }
        },
    };
    if grid.len() > MAX_POINTS {
        bail!(
            "the sweep has {} points; at most {MAX_POINTS} are printed",
            grid.len()
        );
    }
    let hw = args.hardware.load()?;
    let efficiency = args.hardware.efficiency()?;
    let mut results: Vec<GemmPoint> = Vec::with_capacity(grid.len());
    grid.for_each(&hw, &efficiency, |p| results.push(p));

    if args.json {
        let rows: Vec<_> = results
            .iter()
            .map(|p| {
                let prediction = prediction_json("gemm", &hw, &grid.precision_for(p.format), &p.result);
                serde_json::json!({"m": p.m, "n": p.n, "k": p.k, "format": p.format.name(), "prediction": prediction})
            })
            .collect();
        return super::print_json(&rows);
    }
    let mode = if args.uniform {
        "activations, weights and outputs in each format".to_string()
    } else {
        format!("activations {}, output {}", args.activations, args.output)
    };
    println!(
        "{} | GEMM sweep, {mode} | predicted (roofline), not measured\n",
        hw.name
    );
    let mut t = table::new(
        &[
            "M x N x K",
            "format",
            "time",
            "intensity",
            "speed-up",
            "bound",
        ],
        2,
    );
    for shape in results.chunks(args.formats.len()) {
        let baseline = shape[0].result.prediction.time;
        for p in shape {
            let r = &p.result.prediction;
            t.add_row(vec![
                format!("{}x{}x{}", p.m, p.n, p.k),
                p.format.name(),
                si(r.time.get(), "s"),
                format!("{:.2}", r.intensity.get()),
                format!("{:.2}x", baseline / r.time),
                r.bound.name().to_string(),
            ]);
        }
    }
    table::print(&t);
    Ok(())
}
