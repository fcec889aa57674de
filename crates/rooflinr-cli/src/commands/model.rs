//! `rooflinr model`: whole-model analysis from a preset or a config.json.

use std::path::PathBuf;

use anyhow::{Context, Result};
use rooflinr_model::analysis::{self, AttentionKernel, ExpertFormats, ModelAnalysis, Scenario};
use rooflinr_model::config::ModelConfig;
use rooflinr_model::format::Format;
use rooflinr_model::hardware::Hardware;
use rooflinr_model::kernel_time::{self, PROFILE_SOURCE};
use rooflinr_model::ops::Precision;
use rooflinr_model::presets;
use rooflinr_model::units::{grouped, si};
use serde::Serialize;

use crate::args::{HardwareArgs, PassArgs};
use crate::table;

/// Arguments of `rooflinr model`.
#[derive(clap::Args)]
pub struct Args {
    /// A built-in model.
    #[arg(
        long,
        conflicts_with = "config",
        required_unless_present = "config",
        value_parser = crate::args::preset_parser(),
        ignore_case = true
    )]
    preset: Option<String>,
    /// A Hugging Face config.json.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(flatten)]
    hardware: HardwareArgs,
    #[command(flatten)]
    pass: PassArgs,
    /// Weight format.
    #[arg(long, default_value = "bf16")]
    weights: Format,
    /// Activation format (also norms, routers, and embeddings unless quantised).
    #[arg(long, default_value = "bf16")]
    activations: Format,
    /// KV-cache format (defaults to the activations').
    #[arg(long)]
    kv: Option<Format>,
    /// Three-kernel attention with the score matrix in memory instead of a fused kernel.
    #[arg(long)]
    unfused_attention: bool,
    /// Quantise the embedding table and LM head too.
    #[arg(long)]
    quantize_embeddings: bool,
    /// The routed experts' weight format where it differs from the other layers'
    /// (gpt-oss's checkpoint: `--weights bf16 --expert-weights mxfp4`).
    #[arg(long, value_name = "FORMAT")]
    expert_weights: Option<Format>,
    /// What the routed experts' GEMMs multiply their weights with (defaults to the
    /// activations'; TensorRT-LLM runs gpt-oss's on Blackwell in MXFP8).
    #[arg(long, value_name = "FORMAT", requires = "expert_weights")]
    expert_activations: Option<Format>,
    /// Print JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// The pass's expected time with the fitted kernel terms the model crate ships: GEMMs
    /// with a profile for this device and formats at their expected time, every other
    /// operator at its roofline bound (`datasheet_time_s` keeps the bound).
    #[arg(long)]
    calibrated: bool,
    /// With `--calibrated`: whose kernels the terms were fitted on (`trtllm`, `vllm`,
    /// `sglang`): the same operator runs different kernels with different fixed costs in
    /// each serving framework.
    #[arg(long, value_parser = crate::args::parse_framework, default_value = "trtllm")]
    framework: rooflinr_model::kernel_time::Framework,
    /// With `--calibrated`: every low-precision GEMM's activations arrive already in their
    /// format, as where a framework fuses the quantisation pass into the norm or
    /// activation before the GEMM; by default each GEMM counts a pass of its own, as
    /// NVIDIA's tables time a linear layer. Which layers a framework fuses is not known
    /// here: the two give the range.
    #[arg(long, requires = "calibrated")]
    activations_in_format: bool,
}

#[derive(Serialize)]
struct OpJson {
    name: &'static str,
    count: f64,
    flops: f64,
    bytes: f64,
    arithmetic_intensity: f64,
    time_s: f64,
    share: f64,
    bound: &'static str,
    executed_as: &'static str,
    native: bool,
}

#[derive(Serialize)]
struct ModelJson {
    model: String,
    hardware: String,
    phase: &'static str,
    batch: u64,
    seq: u64,
    weights: String,
    activations: String,
    kv: String,
    params_total: f64,
    params_active: f64,
    weight_bytes: f64,
    kv_cache_bytes: f64,
    kv_bytes_per_token: f64,
    memory_required_bytes: f64,
    memory_capacity_bytes: Option<f64>,
    fits_in_memory: bool,
    kv_crossover_tokens: f64,
    flops: f64,
    bytes: f64,
    time_s: f64,
    tokens_per_s: f64,
    /// The roofline bound of the pass, seconds (equal to `time_s` without `--calibrated`).
    datasheet_time_s: f64,
    /// With `--calibrated`: which operators are at their expected time, and the source.
    calibration: Option<String>,
    kind: &'static str,
    ops: Vec<OpJson>,
}

/// The model of `--preset` or `--config`.
pub fn load_config(preset: Option<&str>, config: Option<&std::path::Path>) -> Result<ModelConfig> {
    match (preset, config) {
        (Some(p), _) => Ok(presets::get(p)?),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            ModelConfig::from_json(&text).with_context(|| format!("in {}", path.display()))
        }
        (None, None) => anyhow::bail!("give --preset NAME or --config FILE"),
    }
}

/// Devices a comparison takes: `--hardware a,b,c`.
const COMPARE: std::ops::RangeInclusive<usize> = 2..=6;

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    if args.hardware.hardware.contains(',') {
        return compare(&args);
    }
    let config = load_config(args.preset.as_deref(), args.config.as_deref())?;
    let hw = args.hardware.load()?;
    let efficiency = args.hardware.efficiency()?;
    let scenario = scenario(&args);
    let a = analysis::analyze(&config, &hw, &scenario, &efficiency)?;
    let json = analysed_json(&args, &config, &hw, &scenario, &a);
    if args.json {
        return super::print_json(&json);
    }
    print_tables(&config, &hw.name, &scenario, &a);
    if let Some(c) = &json.calibration {
        println!(
            "\ncalibrated: {} per pass, {:.1} tokens/s (roofline bound {}): {c}",
            si(json.time_s, "s"),
            json.tokens_per_s,
            si(json.datasheet_time_s, "s")
        );
    }
    Ok(())
}

/// The scenario the arguments describe.
fn scenario(args: &Args) -> Scenario {
    let precision = Precision {
        activations: args.activations,
        weights: args.weights,
        kv: args.kv.unwrap_or(args.activations),
        output: args.activations,
    };
    Scenario {
        phase: args.pass.phase.into(),
        batch: args.pass.batch,
        seq: args.pass.seq,
        precision,
        attention: if args.unfused_attention {
            AttentionKernel::Unfused
        } else {
            AttentionKernel::Fused
        },
        quantize_embeddings: args.quantize_embeddings,
        experts: args.expert_weights.map(|weights| ExpertFormats {
            weights,
            activations: args.expert_activations.unwrap_or(args.activations),
        }),
    }
}

/// The JSON of one analysis, with the calibrated pass when asked for.
fn analysed_json(
    args: &Args,
    config: &ModelConfig,
    hw: &Hardware,
    scenario: &Scenario,
    a: &ModelAnalysis,
) -> ModelJson {
    let mut json = to_json(config, &hw.key, scenario, a);
    if args.calibrated {
        let activations = kernel_time::Activations::in_format(args.activations_in_format);
        let pass = kernel_time::calibrated_pass_with(&a.ops, hw, args.framework, activations);
        let tokens_per_pass = a.tokens_per_s * a.time.get();
        json.time_s = pass.time_s;
        json.tokens_per_s = tokens_per_pass / pass.time_s;
        let notes: String = [
            pass.moe_note().map(str::to_string),
            activations.note(scenario.precision.activations),
        ]
        .into_iter()
        .flatten()
        .map(|note| format!("; {note}"))
        .collect();
        json.calibration = Some(format!(
            "{} of {} operators (GEMMs, attention and fused MoE layers with a profile on {} for {} kernels) at their expected time, the rest at the roofline bound; terms {PROFILE_SOURCE}{notes}",
            pass.calibrated_ops,
            pass.calibrated_ops + pass.bound_ops,
            hw.key,
            args.framework.name(),
        ));
    }
    json
}

/// The same model and scenario on two to six devices: one row each.
fn compare(args: &Args) -> Result<()> {
    if args.hardware.hardware_file.is_some() {
        anyhow::bail!(
            "--hardware a,b,c compares built-in devices; --hardware-file names one device"
        );
    }
    let keys: Vec<&str> = args
        .hardware
        .hardware
        .split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .collect();
    if !COMPARE.contains(&keys.len()) {
        anyhow::bail!(
            "--hardware compares {} to {} devices, got {}",
            COMPARE.start(),
            COMPARE.end(),
            keys.len()
        );
    }
    let config = load_config(args.preset.as_deref(), args.config.as_deref())?;
    let efficiency = args.hardware.efficiency()?;
    let scenario = scenario(args);
    let mut rows = Vec::new();
    for key in keys {
        let hw = rooflinr_model::hardware::registry::get(key)?;
        let a = analysis::analyze(&config, &hw, &scenario, &efficiency)?;
        rows.push((
            hw.name.clone(),
            analysed_json(args, &config, &hw, &scenario, &a),
            a,
        ));
    }
    if args.json {
        let all: Vec<&ModelJson> = rows.iter().map(|(_, j, _)| j).collect();
        return super::print_json(&all);
    }
    println!(
        "{} | {} batch {} seq {} | {} | {}\n",
        config.name,
        scenario.phase.name(),
        scenario.batch,
        scenario.seq,
        scenario.formats(),
        if args.calibrated {
            "expected (roofline with fitted kernel terms where shipped), not measured"
        } else {
            "predicted (roofline), not measured"
        }
    );
    let mut t = table::new(
        &[
            "device",
            "time per pass",
            "tokens/s",
            "memory",
            "fits",
            "what binds",
        ],
        1,
    );
    for (name, json, a) in &rows {
        let memory_share = a.memory_bound_share();
        let largest = a.slowest_op().map_or("-", |o| o.name());
        t.add_row(vec![
            name.clone(),
            si(json.time_s, "s"),
            format!("{:.1}", json.tokens_per_s),
            format!("{} of {}", a.memory.required, a.memory.capacity),
            if a.memory.fits { "yes" } else { "no" }.to_string(),
            format!(
                "{:.0}% memory-bound; largest: {largest}",
                memory_share * 100.0
            ),
        ]);
    }
    println!("{t}");
    Ok(())
}

fn to_json(config: &ModelConfig, hw: &str, s: &Scenario, a: &ModelAnalysis) -> ModelJson {
    ModelJson {
        model: config.name.clone(),
        hardware: hw.to_string(),
        phase: s.phase.name(),
        batch: s.batch,
        seq: s.seq,
        weights: s.precision.weights.name(),
        activations: s.precision.activations.name(),
        kv: s.precision.kv.name(),
        params_total: a.params.total,
        params_active: a.params.active,
        weight_bytes: a.weight_bytes.get(),
        kv_cache_bytes: a.kv_cache_bytes.get(),
        kv_bytes_per_token: a.kv_bytes_per_token.get(),
        memory_required_bytes: a.memory.required.get(),
        memory_capacity_bytes: Some(a.memory.capacity.get()).filter(|c| c.is_finite()),
        fits_in_memory: a.memory.fits,
        kv_crossover_tokens: a.kv_crossover_tokens,
        flops: a.work.flops.get(),
        bytes: a.work.bytes.get(),
        time_s: a.time.get(),
        tokens_per_s: a.tokens_per_s,
        datasheet_time_s: a.time.get(),
        calibration: None,
        kind: "predicted",
        ops: a
            .ops
            .iter()
            .map(|o| OpJson {
                name: o.name(),
                count: o.count,
                flops: o.flops().get(),
                bytes: o.bytes().get(),
                arithmetic_intensity: o.result.prediction.intensity.get(),
                time_s: o.time.get(),
                share: o.share,
                bound: o.bound().name(),
                executed_as: o.result.ceiling.executed_as.name(),
                native: o.result.ceiling.native,
            })
            .collect(),
    }
}

fn print_tables(config: &ModelConfig, hw: &str, s: &Scenario, a: &ModelAnalysis) {
    println!(
        "{} on {} | {} batch {} seq {} | {} | predicted (roofline), not measured\n",
        config.name,
        hw,
        s.phase.name(),
        s.batch,
        s.seq,
        s.formats()
    );
    let mut t = table::new(
        &[
            "op",
            "count",
            "FLOPs",
            "bytes",
            "intensity",
            "time",
            "share",
            "bound",
            "runs as",
        ],
        1,
    );
    for o in &a.ops {
        let ceiling = o.result.ceiling;
        t.add_row(vec![
            o.name().to_string(),
            format!("{}", o.count),
            si(o.flops().get(), "FLOP"),
            si(o.bytes().get(), "B"),
            format!("{:.2}", o.result.prediction.intensity.get()),
            si(o.time.get(), "s"),
            format!("{:.1} %", o.share * 100.0),
            o.bound().name().to_string(),
            if ceiling.native {
                ceiling.executed_as.to_string()
            } else {
                format!("{} (from {})", ceiling.executed_as, ceiling.requested)
            },
        ]);
    }
    table::print(&t);
    let mut summary = table::new(&["", "value"], 1);
    let capacity = a.memory.capacity.get();
    let fit = if !capacity.is_finite() {
        "capacity unspecified".to_string()
    } else if a.memory.fits {
        format!(
            "fits in {} ({:.0} % used)",
            si(capacity, "B"),
            100.0 * a.memory.required.get() / capacity
        )
    } else {
        format!("does NOT fit in {}", si(capacity, "B"))
    };
    let rows = [
        ("time per pass", si(a.time.get(), "s")),
        ("tokens/s", format!("{:.1}", a.tokens_per_s)),
        (
            "parameters (total / active)",
            format!("{} / {}", si(a.params.total, ""), si(a.params.active, "")),
        ),
        ("weights", si(a.weight_bytes.get(), "B")),
        (
            "KV cache",
            format!(
                "{} ({} per token)",
                si(a.kv_cache_bytes.get(), "B"),
                si(a.kv_bytes_per_token.get(), "B")
            ),
        ),
        (
            "memory (weights + KV)",
            format!("{} — {fit}", si(a.memory.required.get(), "B")),
        ),
        (
            "KV crossover",
            format!(
                "{} tokens of context (batch {})",
                grouped(a.kv_crossover_tokens),
                s.batch
            ),
        ),
    ];
    for (k, v) in rows {
        summary.add_row(vec![k.to_string(), v]);
    }
    table::print(&summary);
    println!(
        "KV crossover: the context length at which one decode step reads as many KV-cache bytes as weight bytes."
    );
}
