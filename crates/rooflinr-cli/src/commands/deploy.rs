//! `rooflinr deploy`: a model over many GPUs: one layout's memory, communication and
//! serving figures, or a search over layouts and formats.

use std::path::PathBuf;

use anyhow::{Result, bail};
use rooflinr_model::analysis::{AttentionKernel, Phase, Scenario};
use rooflinr_model::config::ModelConfig;
use rooflinr_model::deploy::record::{DeploymentRecord, ServingPoint, calibration_line};
use rooflinr_model::deploy::{
    self, CommModel, DeployOptions, Deployment, Layout, SearchResult, SearchSpace, Workload,
};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::{Figure, Source};
use rooflinr_model::hardware::{Hardware, Interconnect, Link, LinkKind};
use rooflinr_model::ops::Precision;
use rooflinr_model::units::{BytesPerSecond, Seconds, si};
use serde::Serialize;

use super::model::load_config;
use crate::args::HardwareArgs;
use crate::table;

/// Arguments of `rooflinr deploy`.
#[derive(clap::Args)]
pub struct Args {
    /// A built-in model (`rooflinr model --help` lists them).
    #[arg(long, conflicts_with = "config", required_unless_present = "config")]
    preset: Option<String>,
    /// A Hugging Face config.json.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(flatten)]
    hardware: HardwareArgs,
    /// Weight format (with --search: a comma-separated list to try).
    #[arg(long, default_value = "bf16", value_delimiter = ',')]
    weights: Vec<Format>,
    /// Activation format.
    #[arg(long, default_value = "bf16")]
    activations: Format,
    /// KV-cache format (defaults to the activations').
    #[arg(long)]
    kv: Option<Format>,
    /// Tensor-parallel degree.
    #[arg(long, default_value_t = 1)]
    tp: u32,
    /// Pipeline stages.
    #[arg(long, default_value_t = 1)]
    pp: u32,
    /// Attention replicas per stage (data parallelism).
    #[arg(long, default_value_t = 1)]
    dp: u32,
    /// Place whole experts on the stage's GPUs (expert parallelism over TP x DP).
    #[arg(long)]
    ep: bool,
    /// Prompt tokens per request.
    #[arg(long, default_value_t = 1024)]
    prompt: u64,
    /// Output tokens per request.
    #[arg(long, default_value_t = 256)]
    output: u64,
    /// Requests served together.
    #[arg(long, default_value_t = 32)]
    concurrency: u64,
    /// Search layouts and formats instead of evaluating one.
    #[arg(long)]
    search: bool,
    /// The GPU budget of a search.
    #[arg(long, default_value_t = 8)]
    max_gpus: u32,
    /// GPU counts a search tries (default: powers of two and multiples of the domain).
    #[arg(long, value_delimiter = ',')]
    gpus: Vec<u32>,
    /// Slowest acceptable output speed per user in a search, tokens/s.
    #[arg(long, default_value_t = 0.0, value_name = "TOKENS_PER_S")]
    min_user_speed: f64,
    /// Longest acceptable time to first token in a search, seconds.
    #[arg(long, value_name = "SECONDS")]
    max_ttft: Option<f64>,
    /// Rows of the search's ranking to print.
    #[arg(long, default_value_t = 15)]
    top: usize,
    /// Communication hides behind compute (each stage takes the longer).
    #[arg(long)]
    overlap: bool,
    /// The busiest GPU's routed tokens over the mean (1: balanced).
    #[arg(long, default_value_t = 1.0)]
    imbalance: f64,
    /// Micro-batches in prefill (default: one per stage).
    #[arg(long)]
    prefill_micro_batches: Option<u32>,
    /// Scale-up link bandwidth per GPU per direction, GB/s (replaces the registry's).
    #[arg(long, value_name = "GB_S")]
    link: Option<f64>,
    /// GPUs per scale-up domain (replaces the registry's).
    #[arg(long)]
    domain: Option<u32>,
    /// Network bandwidth per GPU per direction, GB/s (replaces the registry's).
    #[arg(long, value_name = "GB_S")]
    network: Option<f64>,
    /// Achieved fraction of each link's bandwidth (NVIDIA's NCCL tables: 40-70 %,
    /// `rooflinr validate` fits it per device).
    #[arg(long, default_value_t = 1.0, value_name = "FRACTION")]
    link_efficiency: f64,
    /// Latency per collective step inside a domain, µs.
    #[arg(long, default_value_t = 1.0, value_name = "US")]
    link_latency: f64,
    /// Latency per collective step across the network, µs.
    #[arg(long, default_value_t = 5.0, value_name = "US")]
    network_latency: f64,
    /// Expected rather than bound: GEMMs, attention and fused MoE layers with a shipped
    /// kernel profile at their expected time, collectives with a shipped NCCL profile at its
    /// fitted latency and bandwidth (both fitted on NVIDIA's measured tables).
    #[arg(long)]
    calibrated: bool,
    /// With `--calibrated`: whose kernels the terms were fitted on (`trtllm`, `vllm`,
    /// `sglang`): the same operator runs different kernels with different fixed costs in
    /// each serving framework.
    #[arg(long, value_parser = crate::args::parse_framework, default_value = "trtllm")]
    framework: rooflinr_model::kernel_time::Framework,
    /// Print JSON instead of tables.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct DeployJson {
    model: String,
    hardware: String,
    kind: &'static str,
    prompt: u64,
    output: u64,
    deployment: DeploymentRecord,
    curve: Vec<ServingPoint>,
}

#[derive(Serialize)]
struct CandidateJson {
    rank: usize,
    layout: String,
    gpus: u32,
    weights: String,
    best: Option<DeploymentRecord>,
    loss: Option<String>,
    curve: Vec<CurvePointJson>,
}

#[derive(Serialize)]
struct CurvePointJson {
    concurrency: u64,
    tokens_per_s_per_user: f64,
    tokens_per_s_per_gpu: f64,
}

#[derive(Serialize)]
struct ParetoJson {
    rank: usize,
    layout: String,
    weights: String,
    concurrency: u64,
    tokens_per_s_per_user: f64,
    tokens_per_s_per_gpu: f64,
}

#[derive(Serialize)]
struct SearchJson {
    model: String,
    hardware: String,
    kind: &'static str,
    prompt: u64,
    output: u64,
    min_tokens_per_s_per_user: f64,
    max_ttft_s: Option<f64>,
    evaluated: usize,
    candidates: Vec<CandidateJson>,
    pareto: Vec<ParetoJson>,
}

/// The kind line every output carries: these are predictions.
const KIND: &str =
    "predicted (roofline per GPU plus collectives over the link bandwidth), not measured";
/// The kind line with `--calibrated`.
const KIND_CALIBRATED: &str = "expected (roofline per GPU and collectives with terms fitted on NVIDIA's measured kernel and NCCL tables where shipped, the bound elsewhere), not measured";

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let config = load_config(args.preset.as_deref(), args.config.as_deref())?;
    let hw = interconnect(&args, args.hardware.load()?)?;
    let efficiency = args.hardware.efficiency()?;
    let options = options(&args)?;
    if args.search {
        let base = scenario(&args, args.weights[0]);
        let space = SearchSpace {
            gpu_counts: args.gpus.clone(),
            max_gpus: args.max_gpus,
            precisions: args
                .weights
                .iter()
                .map(|w| scenario(&args, *w).precision)
                .collect(),
            prompt: args.prompt,
            output: args.output,
            min_tokens_per_user: args.min_user_speed,
            max_ttft: args.max_ttft.map(Seconds),
        };
        let r = deploy::search(&config, &hw, &base, &efficiency, &space, &options)?;
        return print_search(&args, &config, &hw, &r);
    }
    if args.weights.len() != 1 {
        bail!("--weights takes one format unless --search is given");
    }
    let scenario = scenario(&args, args.weights[0]);
    let layout = Layout {
        tensor: args.tp,
        pipeline: args.pp,
        data: args.dp,
        expert: args.ep,
    };
    let workload = Workload {
        prompt: args.prompt,
        output: args.output,
        concurrency: args.concurrency,
    };
    let d = deploy::evaluate(
        &config,
        &hw,
        &scenario,
        &efficiency,
        layout,
        workload,
        &options,
    )?;
    let mut curve = Vec::new();
    let mut c = 1;
    while c <= d.max_concurrency.min(1 << 16) {
        let at = deploy::evaluate(
            &config,
            &hw,
            &scenario,
            &efficiency,
            layout,
            Workload {
                concurrency: c,
                ..workload
            },
            &options,
        )?;
        curve.push(ServingPoint::of(&at.serving));
        c *= 2;
    }
    if args.json {
        return super::print_json(&DeployJson {
            model: config.name.clone(),
            hardware: hw.key.clone(),
            kind: kind(&args),
            prompt: args.prompt,
            output: args.output,
            deployment: DeploymentRecord::of(&d, args.weights[0]),
            curve,
        });
    }
    print_deployment(&config, &hw, &scenario, &d, &args);
    print_curve(&curve);
    Ok(())
}

fn kind(args: &Args) -> &'static str {
    if args.calibrated {
        KIND_CALIBRATED
    } else {
        KIND
    }
}

fn scenario(args: &Args, weights: Format) -> Scenario {
    Scenario {
        phase: Phase::Decode,
        batch: 1,
        seq: 1,
        precision: Precision {
            activations: args.activations,
            weights,
            kv: args.kv.unwrap_or(args.activations),
            output: args.activations,
        },
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
    }
}

fn options(args: &Args) -> Result<DeployOptions> {
    for (name, v) in [
        ("--link-latency", args.link_latency),
        ("--network-latency", args.network_latency),
    ] {
        if !(v >= 0.0 && v.is_finite()) {
            bail!("{name} must be 0 or more µs, got {v}");
        }
    }
    Ok(DeployOptions {
        comm: CommModel {
            scale_up_latency: Seconds(args.link_latency * 1e-6),
            scale_out_latency: Seconds(args.network_latency * 1e-6),
            bandwidth_efficiency: args.link_efficiency,
            // The bound: latency plus bandwidth (`--calibrated` adds NCCL's fill where a
            // profile ships).
            pipeline_fill: 0.0,
            overlap: args.overlap,
        },
        expert_imbalance: args.imbalance,
        prefill_micro_batches: args.prefill_micro_batches,
        calibrated: args.calibrated,
        framework: args.framework,
    })
}

/// The device with the interconnect flags applied over (or instead of) the registry's.
fn interconnect(args: &Args, mut hw: Hardware) -> Result<Hardware> {
    if args.link.is_none() && args.domain.is_none() && args.network.is_none() {
        return Ok(hw);
    }
    let user = || Source::derived("given on the command line");
    let gb_s = |name: &str, v: f64| -> Result<BytesPerSecond> {
        if v > 0.0 && v.is_finite() {
            Ok(BytesPerSecond::gb_s(v))
        } else {
            bail!("{name} must be a positive GB/s figure, got {v}")
        }
    };
    let mut ic = match hw.interconnect.take() {
        Some(ic) => ic,
        None => {
            let Some(link) = args.link else {
                bail!(
                    "{} has no published interconnect: give --link GB/s (and --domain)",
                    hw.name
                );
            };
            Interconnect {
                scale_up: Link {
                    kind: LinkKind::Network,
                    bandwidth: Figure::new(gb_s("--link", link)?, user()),
                },
                domain: Figure::new(args.domain.unwrap_or(8), user()),
                scale_out: None,
            }
        }
    };
    if let Some(link) = args.link {
        ic.scale_up.bandwidth = Figure::new(gb_s("--link", link)?, user());
    }
    if let Some(domain) = args.domain {
        if domain == 0 {
            bail!("--domain must be at least 1 GPU");
        }
        ic.domain = Figure::new(domain, user());
    }
    if let Some(network) = args.network {
        ic.scale_out = Some(Link {
            kind: LinkKind::Network,
            bandwidth: Figure::new(gb_s("--network", network)?, user()),
        });
    }
    hw.interconnect = Some(ic);
    Ok(hw)
}

fn link_line(hw: &Hardware) -> String {
    hw.interconnect
        .as_ref()
        .map_or_else(|| "no published interconnect".into(), |ic| ic.describe())
}

fn print_deployment(
    config: &ModelConfig,
    hw: &Hardware,
    scenario: &Scenario,
    d: &Deployment,
    args: &Args,
) {
    let l = d.layout;
    let p = &scenario.precision;
    println!(
        "{} on {} x {} ({l}) | weights {}, activations {}, kv {} | prompt {}, output {}, {} at once | {}",
        config.name,
        l.gpus(),
        hw.name,
        p.weights,
        p.activations,
        p.kv,
        args.prompt,
        args.output,
        args.concurrency,
        kind(args)
    );
    println!("links: {}\n", link_line(hw));
    if let Some(c) = &d.decode.calibration {
        println!("calibrated: {}\n", calibration_line(c));
    }
    let m = d.memory;
    let mut t = table::new(&["per GPU", "bytes", "of capacity"], 1);
    for (name, b) in [
        ("weights", m.weights),
        ("KV cache (end of output)", m.kv_cache),
        ("activations (prefill)", m.activations),
        ("total", m.total()),
    ] {
        t.add_row(vec![
            name.to_string(),
            si(b.get(), "B"),
            format!("{:.0}%", 100.0 * (b / m.capacity)),
        ]);
    }
    table::print(&t);
    if !m.fits() {
        println!(
            "does not fit: {} per GPU against {}; add GPUs, a smaller format, or fewer requests\n",
            si(m.total().get(), "B"),
            si(m.capacity.get(), "B")
        );
    }
    println!(
        "largest batch the memory holds: {} requests\n",
        d.max_concurrency
    );
    let s = d.serving;
    let mut t = table::new(&["serving", "value"], 1);
    t.add_row(vec!["time to first token".into(), si(s.ttft.get(), "s")]);
    t.add_row(vec!["time per output token".into(), si(s.tpot.get(), "s")]);
    t.add_row(vec!["request time".into(), si(s.request_time.get(), "s")]);
    t.add_row(vec![
        "tokens/s per user".into(),
        format!("{:.1}", s.tokens_per_s_per_user),
    ]);
    t.add_row(vec![
        "tokens/s per GPU".into(),
        format!("{:.1}", s.tokens_per_s_per_gpu),
    ]);
    t.add_row(vec![
        "tokens/s per GPU while decoding".into(),
        format!("{:.1}", s.decode_tokens_per_s_per_gpu),
    ]);
    table::print(&t);
    let mut t = table::new(
        &[
            "pass",
            "compute",
            "communication",
            "share",
            "stage",
            "micro-batches",
            "bubble",
            "time",
        ],
        1,
    );
    for pass in [&d.prefill, &d.decode] {
        t.add_row(vec![
            pass.phase.name().to_string(),
            si(pass.compute.get(), "s"),
            si(pass.communication.get(), "s"),
            format!("{:.0}%", 100.0 * pass.communication_share()),
            si(pass.stage.get(), "s"),
            pass.micro_batches.to_string(),
            format!("{:.0}%", 100.0 * pass.bubble),
            si(pass.time.get(), "s"),
        ]);
    }
    table::print(&t);
    if !d.decode.comms.is_empty() {
        let mut t = table::new(
            &[
                "decode communication",
                "collective",
                "GPUs",
                "link",
                "count",
                "message",
                "sent per GPU",
                "time",
            ],
            2,
        );
        for c in &d.decode.comms {
            t.add_row(vec![
                c.id.name().to_string(),
                c.collective.name().to_string(),
                c.gpus.to_string(),
                c.link.name(),
                format!("{}", c.count),
                si(c.message.get(), "B"),
                si(c.sent.get(), "B"),
                si(c.time.get(), "s"),
            ]);
        }
        table::print(&t);
    }
}

fn print_curve(curve: &[ServingPoint]) {
    if curve.is_empty() {
        return;
    }
    let mut t = table::new(
        &[
            "concurrency",
            "TTFT",
            "TPOT",
            "tokens/s per user",
            "tokens/s per GPU",
        ],
        0,
    );
    for p in curve {
        t.add_row(vec![
            p.concurrency.to_string(),
            si(p.ttft_s, "s"),
            si(p.tpot_s, "s"),
            format!("{:.1}", p.tokens_per_s_per_user),
            format!("{:.1}", p.tokens_per_s_per_gpu),
        ]);
    }
    table::print(&t);
}

fn print_search(args: &Args, config: &ModelConfig, hw: &Hardware, r: &SearchResult) -> Result<()> {
    let weights = |c: &deploy::Candidate| c.precision.weights.to_string();
    let curve = |c: &deploy::Candidate| -> Vec<CurvePointJson> {
        c.curve
            .iter()
            .map(|p| CurvePointJson {
                concurrency: p.concurrency,
                tokens_per_s_per_user: p.tokens_per_s_per_user,
                tokens_per_s_per_gpu: p.tokens_per_s_per_gpu,
            })
            .collect()
    };
    if args.json {
        return super::print_json(&SearchJson {
            model: config.name.clone(),
            hardware: hw.key.clone(),
            kind: kind(args),
            prompt: args.prompt,
            output: args.output,
            min_tokens_per_s_per_user: args.min_user_speed,
            max_ttft_s: args.max_ttft,
            evaluated: r.evaluated,
            candidates: r
                .candidates
                .iter()
                .enumerate()
                .map(|(i, c)| CandidateJson {
                    rank: i + 1,
                    layout: c.layout.to_string(),
                    gpus: c.layout.gpus(),
                    weights: weights(c),
                    best: c
                        .best
                        .as_ref()
                        .map(|d| DeploymentRecord::of(d, c.precision.weights)),
                    loss: c.loss.map(|l| l.describe()),
                    curve: curve(c),
                })
                .collect(),
            pareto: r
                .pareto
                .iter()
                .map(|p| {
                    let c = &r.candidates[p.candidate];
                    ParetoJson {
                        rank: p.candidate + 1,
                        layout: c.layout.to_string(),
                        weights: weights(c),
                        concurrency: p.concurrency,
                        tokens_per_s_per_user: p.tokens_per_s_per_user,
                        tokens_per_s_per_gpu: p.tokens_per_s_per_gpu,
                    }
                })
                .collect(),
        });
    }
    println!(
        "{} on up to {} x {} | prompt {}, output {}, at least {} tokens/s per user{} | {} deployments evaluated | {}",
        config.name,
        args.max_gpus,
        hw.name,
        args.prompt,
        args.output,
        args.min_user_speed,
        args.max_ttft
            .map_or(String::new(), |t| format!(", first token within {t} s")),
        r.evaluated,
        kind(args)
    );
    println!("links: {}\n", link_line(hw));
    let mut t = table::new(
        &[
            "rank",
            "layout",
            "GPUs",
            "weights",
            "requests",
            "tokens/s per user",
            "tokens/s per GPU",
            "TTFT",
            "memory per GPU",
            "why not first",
        ],
        2,
    );
    for (i, c) in r.candidates.iter().enumerate().take(args.top) {
        let (requests, user, gpu, ttft, mem) = match &c.best {
            Some(d) => (
                d.serving.concurrency.to_string(),
                format!("{:.1}", d.serving.tokens_per_s_per_user),
                format!("{:.1}", d.serving.tokens_per_s_per_gpu),
                si(d.serving.ttft.get(), "s"),
                si(d.memory.total().get(), "B"),
            ),
            None => ("-".into(), "-".into(), "-".into(), "-".into(), "-".into()),
        };
        t.add_row(vec![
            (i + 1).to_string(),
            c.layout.to_string(),
            c.layout.gpus().to_string(),
            weights(c),
            requests,
            user,
            gpu,
            ttft,
            mem,
            c.loss.map_or("best".into(), |l| l.describe()),
        ]);
    }
    table::print(&t);
    if r.candidates.len() > args.top {
        println!(
            "{} more candidates (--top N shows more, --json all)\n",
            r.candidates.len() - args.top
        );
    }
    let mut t = table::new(
        &[
            "Pareto front",
            "weights",
            "requests",
            "tokens/s per user",
            "tokens/s per GPU",
        ],
        2,
    );
    for p in &r.pareto {
        let c = &r.candidates[p.candidate];
        t.add_row(vec![
            c.layout.to_string(),
            weights(c),
            p.concurrency.to_string(),
            format!("{:.1}", p.tokens_per_s_per_user),
            format!("{:.1}", p.tokens_per_s_per_gpu),
        ]);
    }
    table::print(&t);
    Ok(())
}
