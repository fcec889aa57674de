//! `rooflinr recommend`: rank quantisation strategies for a GEMM or a whole model by
//! predicted speed-up, memory saved and measured quality.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use rooflinr_model::quant::quality;
use rooflinr_model::recommend::{
    self, AttentionChoice, QualitySamples, Recommendation, Request, Target,
};
use serde::Serialize;

use super::model::load_config;
use crate::args::{HardwareArgs, PassArgs};
use crate::table;

/// Arguments of `rooflinr recommend`.
#[derive(clap::Args)]
pub struct Args {
    /// A built-in model.
    #[arg(
        long,
        conflicts_with_all = ["config", "gemm"],
        value_parser = crate::args::preset_parser(),
        ignore_case = true
    )]
    preset: Option<String>,
    /// A Hugging Face config.json.
    #[arg(long, value_name = "FILE", conflicts_with = "gemm")]
    config: Option<PathBuf>,
    /// One GEMM instead of a model: M,N,K (M = 1 is a decode GEMV).
    #[arg(long, value_name = "M,N,K", value_delimiter = ',')]
    gemm: Option<Vec<u64>>,
    #[command(flatten)]
    hardware: HardwareArgs,
    #[command(flatten)]
    pass: PassArgs,
    /// Quality budget: the smallest acceptable SQNR in dB over the quantised tensors
    /// (18 dB: noise at 1.6% of the signal power; on Gaussian weights INT4 g128 and
    /// NVFP4 measure about 20 dB, MXFP4 about 16).
    #[arg(long, default_value_t = 18.0, value_name = "DB")]
    min_sqnr: f64,
    /// Attention kernel: fa2, fa3 (Hopper) or blackwell (sm_100); default the best the
    /// device runs.
    #[arg(long)]
    attention: Option<AttentionChoice>,
    /// Measure weight quality on this tensor of a `.safetensors` file instead of a
    /// synthetic Gaussian (needs --tensor).
    #[arg(long, requires = "tensor")]
    safetensors: Option<PathBuf>,
    /// Tensor name in the --safetensors file.
    #[arg(long)]
    tensor: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct CandidateJson {
    strategy: String,
    weights: String,
    activations: String,
    kv: String,
    time_s: f64,
    speedup: f64,
    memory_bytes: f64,
    memory_saved: f64,
    sqnr_db: f64,
    quality_limited_by: &'static str,
    within_budget: bool,
    pareto: bool,
    fits: bool,
    reason: String,
}

#[derive(Serialize)]
struct RecommendationJson {
    hardware: String,
    target: String,
    bottleneck: String,
    attention: &'static str,
    quality_measured_on: String,
    recommended: Option<String>,
    candidates: Vec<CandidateJson>,
    skipped: Vec<(String, String)>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let hw = args.hardware.load()?;
    let efficiency = args.hardware.efficiency()?;
    let (target, label) = match &args.gemm {
        Some(s) => {
            if s.len() != 3 || s.iter().any(|d| *d == 0 || *d > 1 << 24) {
                bail!("--gemm takes M,N,K, each between 1 and 2^24, got {s:?}");
            }
            (
                Target::Gemm {
                    m: s[0],
                    n: s[1],
                    k: s[2],
                },
                format!("GEMM {}x{}x{}", s[0], s[1], s[2]),
            )
        }
        None => {
            if args.preset.is_none() && args.config.is_none() {
                bail!("give --preset NAME, --config FILE or --gemm M,N,K");
            }
            let c = load_config(args.preset.as_deref(), args.config.as_deref())?;
            let label = c.name.clone();
            (Target::Model(Box::new(c)), label)
        }
    };
    let mut samples = QualitySamples::synthetic();
    if let Some(path) = &args.safetensors {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let name = args.tensor.as_deref().unwrap_or_default();
        let t = quality::read_safetensors(&bytes, name)
            .with_context(|| format!("reading {}", path.display()))?;
        let cols = t.cols();
        samples.weights_source = format!("{name} from {} {:?}", path.display(), t.shape);
        samples.weights = (t.values, cols);
    }
    let request = Request {
        target,
        hardware: &hw,
        phase: args.pass.phase.into(),
        batch: args.pass.batch,
        seq: args.pass.seq,
        min_sqnr_db: args.min_sqnr,
        attention: args.attention,
        efficiency,
    };
    let rec = recommend::recommend(&request, &samples)?;
    let out = to_json(&hw.key, &label, &rec);
    if args.json {
        return super::print_json(&out);
    }
    print(&hw.name, &request, &out, args.min_sqnr);
    Ok(())
}

fn to_json(hw: &str, target: &str, rec: &Recommendation) -> RecommendationJson {
    RecommendationJson {
        hardware: hw.to_string(),
        target: target.to_string(),
        bottleneck: rec.bottleneck.clone(),
        attention: rec.attention.name(),
        quality_measured_on: rec.weights_source.clone(),
        recommended: rec.best.map(|i| rec.candidates[i].name.clone()),
        candidates: rec
            .candidates
            .iter()
            .map(|c| CandidateJson {
                strategy: c.name.clone(),
                weights: c.formats.main.weights.name(),
                activations: c.formats.main.activations.name(),
                kv: c.formats.main.kv.name(),
                time_s: c.time.get(),
                speedup: c.speedup,
                memory_bytes: c.memory.get(),
                memory_saved: c.memory_saved,
                sqnr_db: c.quality_db,
                quality_limited_by: c.quality_limited_by.name(),
                within_budget: c.within_budget,
                pareto: c.pareto,
                fits: c.fits,
                reason: c.reason.clone(),
            })
            .collect(),
        skipped: rec.skipped.clone(),
    }
}

fn print(hw: &str, req: &Request, out: &RecommendationJson, budget: f64) {
    let scope = match req.target {
        Target::Gemm { .. } => String::new(),
        Target::Model(_) => format!(
            ", {}, batch {}, seq {}",
            req.phase.name(),
            req.batch,
            req.seq
        ),
    };
    println!("{} on {hw}{scope}", out.target);
    println!("{}.\n", out.bottleneck);
    let mut t = table::new(
        &[
            "",
            "strategy",
            "time",
            "speedup",
            "memory",
            "saved",
            "SQNR dB",
            "limited by",
        ],
        2,
    );
    for c in &out.candidates {
        let mark = match (
            out.recommended.as_deref() == Some(c.strategy.as_str()),
            c.pareto,
        ) {
            (true, _) => "->",
            (false, true) => "*",
            _ => "",
        };
        let sqnr = if c.within_budget {
            format!("{:.1}", c.sqnr_db)
        } else {
            format!("{:.1} (low)", c.sqnr_db)
        };
        t.add_row(vec![
            mark.to_string(),
            c.strategy.clone(),
            rooflinr_model::units::si(c.time_s, "s"),
            format!("{:.2}x", c.speedup),
            rooflinr_model::units::si(c.memory_bytes, "B"),
            format!("{:.0}%", c.memory_saved * 100.0),
            sqnr,
            c.quality_limited_by.to_string(),
        ]);
    }
    table::print(&t);
    println!(
        "-> recommended (fastest within {budget} dB that fits), * Pareto frontier (speed, memory, quality)."
    );
    println!(
        "Quality is measured: SQNR of {} and of synthetic activations and KV, quantised in each format.",
        out.quality_measured_on
    );
    println!("Attention kernel: {}.", out.attention);
    if let Some(best) = out
        .candidates
        .iter()
        .find(|c| Some(&c.strategy) == out.recommended.as_ref())
    {
        println!("Why {}: {}.", best.strategy, best.reason);
        if !best.fits {
            println!(
                "Warning: no strategy within the budget fits in this device's memory ({} needed); split the model across devices.",
                rooflinr_model::units::si(best.memory_bytes, "B")
            );
        }
    }
    for (name, why) in &out.skipped {
        println!("Not offered: {name}: {why}.");
    }
}
