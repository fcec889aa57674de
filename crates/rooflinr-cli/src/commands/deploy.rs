//! `rooflinr deploy`: a model over many GPUs: one layout's memory, communication and
//! serving figures, or a search over layouts and formats.

use std::path::PathBuf;

use anyhow::{Result, bail};
use rooflinr_model::analysis::{AttentionKernel, ExpertFormats, Phase, Scenario};
use rooflinr_model::config::ModelConfig;
use rooflinr_model::deploy::energy::{self, Energy, GpuPower};
use rooflinr_model::deploy::record::{DeploymentRecord, ServingPoint};
use rooflinr_model::deploy::{
    self, AdpBalance, Batching, Benchmark, Clients, CommModel, DeployOptions, HostOverhead, Layout,
    Scheduler, SearchSpace, Serving, Speculation, Workload,
};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::{Figure, Source};
use rooflinr_model::hardware::{Hardware, Interconnect, Link, LinkKind};
use rooflinr_model::kernel_time::Framework;
use rooflinr_model::ops::Precision;
use rooflinr_model::units::{BytesPerSecond, Seconds};
use serde::Serialize;

use super::model::load_config;
use super::{deploy_emit, deploy_print};
use crate::args::HardwareArgs;

/// `--batching`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum BatchingArg {
    /// In-flight batching under the framework's scheduler.
    InFlight,
    /// Static batching.
    Static,
}

/// Arguments of `rooflinr deploy`.
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
    /// Weight format (with --search: a comma-separated list to try).
    #[arg(long, default_value = "bf16", value_delimiter = ',')]
    pub(super) weights: Vec<Format>,
    /// Activation format.
    #[arg(long, default_value = "bf16")]
    activations: Format,
    /// KV-cache format (defaults to the activations').
    #[arg(long)]
    kv: Option<Format>,
    /// The routed experts' weight format where it differs from the other layers'
    /// (gpt-oss's checkpoint: `--weights bf16 --expert-weights mxfp4`).
    #[arg(long, value_name = "FORMAT")]
    expert_weights: Option<Format>,
    /// What the routed experts' GEMMs multiply their weights with (defaults to the
    /// activations'; TensorRT-LLM runs gpt-oss's on Blackwell in MXFP8).
    #[arg(long, value_name = "FORMAT", requires = "expert_weights")]
    expert_activations: Option<Format>,
    /// Tensor-parallel degree.
    #[arg(long, default_value_t = 1)]
    tp: u32,
    /// Pipeline stages.
    #[arg(long, default_value_t = 1)]
    pp: u32,
    /// Attention replicas per stage (data parallelism).
    #[arg(long, default_value_t = 1)]
    dp: u32,
    /// Expert parallelism: `--ep` alone places whole experts on each of a stage's TP x DP
    /// GPUs; `--ep N` spreads them over N groups of those GPUs, each expert's columns split
    /// over the TP x DP / N GPUs of its group (MoE TP x EP).
    #[arg(long, value_name = "N", num_args = 0..=1)]
    ep: Option<Option<u32>>,
    /// Prompt tokens per request.
    #[arg(long, default_value_t = 1024)]
    pub(super) prompt: u64,
    /// Output tokens per request.
    #[arg(long, default_value_t = 256)]
    pub(super) output: u64,
    /// Requests served together.
    #[arg(long, default_value_t = 32)]
    pub(super) concurrency: u64,
    /// Search layouts and formats instead of evaluating one.
    #[arg(long)]
    pub(super) search: bool,
    /// The GPU budget of a search.
    #[arg(long, default_value_t = 8)]
    pub(super) max_gpus: u32,
    /// GPU counts a search tries (default: powers of two and multiples of the domain).
    #[arg(long, value_delimiter = ',')]
    gpus: Vec<u32>,
    /// Slowest acceptable output speed per user in a search, tokens/s.
    #[arg(long, default_value_t = 0.0, value_name = "TOKENS_PER_S")]
    pub(super) min_user_speed: f64,
    /// Longest acceptable time to first token in a search, seconds.
    #[arg(long, value_name = "SECONDS")]
    pub(super) max_ttft: Option<f64>,
    /// Rows of the search's ranking to print.
    #[arg(long, default_value_t = 15)]
    pub(super) top: usize,
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
    pub(super) calibrated: bool,
    /// The serving engine (`trtllm`, `vllm`, `sglang`): its scheduler's defaults for
    /// in-flight batching, and with `--calibrated` whose kernels the terms were fitted on
    /// (the same operator runs different kernels with different fixed costs in each).
    /// (Default: `--emit`'s engine, else `trtllm`.)
    #[arg(long, value_parser = crate::args::parse_framework)]
    framework: Option<Framework>,
    /// How the engine batches requests: `in-flight` (continuous batching under the
    /// framework's scheduler, steady state) or `static` (the whole batch prefilled, then
    /// decoded together: no engine schedules so, it is the figure of a fixed batch).
    #[arg(long, value_enum, default_value = "in-flight")]
    batching: BatchingArg,
    /// New tokens one step may carry (default: the framework's, e.g. vLLM's
    /// `--max-num-batched-tokens` 8,192 on an H100).
    #[arg(long, value_name = "TOKENS")]
    token_budget: Option<u64>,
    /// Requests running at once (default: the framework's `--max-num-seqs` or
    /// `max_batch_size`; the KV memory limits them too).
    #[arg(long)]
    max_seqs: Option<u64>,
    /// Whether prompts may be split over steps (default: the framework's; vLLM and SGLang
    /// yes, TensorRT-LLM's `enable_chunked_prefill` no).
    #[arg(long)]
    chunked_prefill: Option<bool>,
    /// SGLang's `--scheduler-recv-interval`: decode steps between the scheduler's reads of
    /// new requests (default 1; InferenceX's DeepSeek-R1 recipes on B200 set 10, or 30 at
    /// 16 clients or more). New requests wait for the next read.
    #[arg(long, value_name = "STEPS")]
    recv_interval: Option<u32>,
    /// TensorRT-LLM's attention-DP balance (`attention_dp_config` with `enable_balance`,
    /// `timeout_iters` STEPS): with attention DP, new prompts wait until every replica has
    /// one, at most this many steps (InferenceX's DeepSeek-R1 recipes set 60).
    #[arg(long, value_name = "STEPS")]
    adp_balance: Option<u32>,
    /// With `--adp-balance`: `batching_wait_iters`, steps to wait for more prompts once
    /// every replica has one (default 0).
    #[arg(long, value_name = "STEPS", requires = "adp_balance")]
    adp_batching_wait: Option<u32>,
    /// Speculative decoding: tokens drafted per step (DeepSeek's MTP modules, or a draft
    /// model of one decoder layer).
    #[arg(long, value_name = "TOKENS")]
    speculate: Option<u32>,
    /// With `--speculate`: the chance each drafted token is accepted. Default only where
    /// published: DeepSeek-V3/R1 with one MTP module, 0.85 (the technical report's 85-90 %).
    #[arg(long, requires = "speculate")]
    acceptance: Option<f64>,
    /// The share of each prompt already in the prefix cache (its prefill is skipped).
    #[arg(long, default_value_t = 0.0, value_name = "SHARE")]
    pub(super) prefix_hit: f64,
    /// Also simulate a benchmark of this many requests from a cold start, as `vllm bench
    /// serve` runs one: `--concurrency` clients at once (or `--rate`), lengths as
    /// `--length-floor` says.
    #[arg(long, value_name = "REQUESTS")]
    pub(super) benchmark: Option<u64>,
    /// With `--benchmark`: Poisson arrivals at this many requests per second instead of
    /// `--concurrency` clients.
    #[arg(long, requires = "benchmark", value_name = "PER_S")]
    pub(super) rate: Option<f64>,
    /// With `--benchmark`: each prompt and output length uniform in [floor x length,
    /// length] (`--random-range-ratio`; InferenceX runs 0.8); 1 is a fixed length.
    #[arg(long, default_value_t = 1.0, value_name = "FLOOR")]
    pub(super) length_floor: f64,
    /// A serving benchmark's result file (`vllm bench serve --save-result`, SGLang's
    /// `bench_serving --output-file`, GuideLLM's report, GenAI-Perf's
    /// profile_export_genai_perf.json): each measured run beside a simulation of the same
    /// benchmark (its clients, requests and lengths; `--prompt`, `--output`,
    /// `--concurrency` and `--rate` are then unused) on this layout, with its errors.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["search", "prefill", "benchmark"])]
    pub(super) measured: Option<PathBuf>,
    /// With `--measured`: the energy `rooflinr-agent energy --out FILE -- BENCHMARK`
    /// recorded around the file's run (its GPUs' NVML counters), for the measured joules per
    /// output token beside the simulation's.
    #[arg(long, value_name = "FILE", requires = "measured")]
    pub(super) energy: Option<PathBuf>,
    /// Disaggregated serving: one prefill worker's layout (`tp8`, `tp1-dp8-ep`), with
    /// `--decode`; `--tp`, `--pp`, `--dp` and `--ep` are then unused.
    #[arg(long, value_parser = crate::args::parse_layout, requires = "decode", value_name = "LAYOUT")]
    pub(super) prefill: Option<Layout>,
    /// Disaggregated serving: one decode worker's layout, with `--prefill`.
    #[arg(long, value_parser = crate::args::parse_layout, requires = "prefill", value_name = "LAYOUT")]
    pub(super) decode: Option<Layout>,
    /// Prefill workers.
    #[arg(long, default_value_t = 1)]
    pub(super) prefill_workers: u32,
    /// Decode workers.
    #[arg(long, default_value_t = 1)]
    pub(super) decode_workers: u32,
    /// With `--search`: search disaggregated deployments (both sides' layouts and their
    /// ratio at --max-gpus) instead of aggregated ones.
    #[arg(long, requires = "search")]
    pub(super) disaggregated: bool,
    /// Power per GPU, watts, for the energy per token (default: the registry's board
    /// power, taken as drawn at full load).
    #[arg(long, value_name = "WATTS")]
    pub(super) power: Option<f64>,
    /// Price per GPU-hour, US dollars, for the cost per million output tokens (no default:
    /// prices vary by provider and contract).
    #[arg(long, value_name = "USD")]
    pub(super) gpu_hour_price: Option<f64>,
    /// Also print the engine's launch command for this layout (`vllm`, `sglang`, `trtllm`),
    /// in the flag names of a stated release; the engine is then the framework too. With
    /// `--search`, the command of the best-ranked deployment.
    #[arg(long, value_parser = crate::args::parse_framework, value_name = "ENGINE", conflicts_with = "measured")]
    pub(super) emit: Option<Framework>,
    /// Print JSON instead of tables.
    #[arg(long)]
    pub(super) json: bool,
}

impl Args {
    /// The serving engine: `--framework`, else `--emit`'s, else TensorRT-LLM.
    pub(super) fn framework(&self) -> Framework {
        self.framework.or(self.emit).unwrap_or_default()
    }
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
    benchmark: Option<BenchmarkJson>,
    energy: Option<EnergyJson>,
    launch: Option<deploy_emit::LaunchJson>,
}

/// Energy and cost per token of the steady state (`deploy::energy`).
#[derive(Serialize)]
pub(super) struct EnergyJson {
    pub(super) watts_per_gpu: f64,
    pub(super) power_source: String,
    pub(super) assumption: &'static str,
    pub(super) joules_per_output_token: f64,
    pub(super) joules_per_request: f64,
    pub(super) output_tokens_per_s_per_kw: f64,
    pub(super) gpu_hour_price_usd: Option<f64>,
    pub(super) usd_per_million_output_tokens: Option<f64>,
}

/// The energy and cost of `serving`, where a power is known (`--power` or the registry's).
pub(super) fn energy_figures(
    args: &Args,
    hw: &Hardware,
    serving: &Serving,
) -> Result<Option<EnergyJson>> {
    let power = match args.power {
        Some(w) => GpuPower::given(w),
        None => match GpuPower::board(hw) {
            Some(p) => p,
            None => return Ok(None),
        },
    };
    let assumption = power.assumption();
    let e = Energy::of(serving, args.output, power)?;
    let usd = args
        .gpu_hour_price
        .map(|p| energy::dollars_per_million_output_tokens(serving, p))
        .transpose()?;
    Ok(Some(EnergyJson {
        watts_per_gpu: e.power.watts,
        power_source: e.power.source.to_string(),
        assumption,
        joules_per_output_token: e.joules_per_output_token,
        joules_per_request: e.joules_per_request,
        output_tokens_per_s_per_kw: e.output_tokens_per_s_per_kw,
        gpu_hour_price_usd: args.gpu_hour_price,
        usd_per_million_output_tokens: usd,
    }))
}

/// A simulated benchmark run (`--benchmark`).
#[derive(Serialize)]
struct BenchmarkJson {
    kind: &'static str,
    requests: u64,
    clients: String,
    length_floor: f64,
    ttft_mean_s: f64,
    ttft_median_s: f64,
    ttft_p90_s: f64,
    tpot_mean_s: f64,
    tpot_median_s: f64,
    tpot_p90_s: f64,
    duration_s: f64,
    output_tokens_per_s: f64,
    output_tokens_per_s_per_gpu: f64,
    steps: u64,
}

/// What a benchmark's figures are.
pub(super) const BENCHMARK_KIND: &str = "simulated: the engine's scheduler stepped through the benchmark's requests from a cold start, each step costed by the deployment model; not measured";

/// The kind line every output carries: these are predictions.
const KIND: &str =
    "predicted (roofline per GPU plus collectives over the link bandwidth), not measured";
/// The kind line with `--calibrated`.
const KIND_CALIBRATED: &str = "expected (roofline per GPU and collectives with terms fitted on NVIDIA's measured kernel and NCCL tables where shipped, the bound elsewhere), not measured";

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    if let Some(w) = args.power
        && !(w > 0.0 && w.is_finite())
    {
        bail!("--power {w}: give a positive number of watts per GPU");
    }
    if let Some(p) = args.gpu_hour_price
        && !(p >= 0.0 && p.is_finite())
    {
        bail!("--gpu-hour-price {p}: give a price in US dollars of at least 0");
    }
    let config = load_config(args.preset.as_deref(), args.config.as_deref())?;
    let hw = interconnect(&args, args.hardware.load()?)?;
    let efficiency = args.hardware.efficiency()?;
    let options = options(&args, &config, &hw)?;
    if args.prefill.is_some() || args.disaggregated {
        let scenario = scenario(&args, args.weights[0]);
        return super::deploy_disagg::run(&args, &config, &hw, &scenario, &efficiency, &options);
    }
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
        let launch = match r
            .candidates
            .first()
            .and_then(|c| c.best.as_ref().map(|d| (c, d)))
        {
            Some((c, d)) if args.emit.is_some() => {
                let scenario = Scenario {
                    precision: c.precision,
                    ..base
                };
                let workload = Workload {
                    prompt: args.prompt,
                    output: args.output,
                    concurrency: d.serving.concurrency,
                };
                deploy_emit::launch_for(&args, &config, &scenario, &options, c.layout, workload)?
                    .map(|l| (l, c.layout))
            }
            _ => None,
        };
        return deploy_print::print_search(&args, &config, &hw, &r, launch.as_ref());
    }
    if args.weights.len() != 1 {
        bail!("--weights takes one format unless --search is given");
    }
    let scenario = scenario(&args, args.weights[0]);
    let layout = layout(&args);
    if let Some(path) = &args.measured {
        return super::deploy_measured::run(
            &args,
            path,
            &config,
            &hw,
            &scenario,
            &efficiency,
            &options,
            layout,
        );
    }
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
    let energy = energy_figures(&args, &hw, &d.serving)?;
    let launch = deploy_emit::launch_for(&args, &config, &scenario, &options, layout, workload)?;
    let run = match args.benchmark {
        None => None,
        Some(requests) => Some(deploy::benchmark(
            &config,
            &hw,
            &scenario,
            &efficiency,
            layout,
            &Benchmark {
                prompt: args.prompt,
                output: args.output,
                clients: clients(&args),
                requests,
                length_floor: args.length_floor,
                prefix_hit: args.prefix_hit,
                seed: 0,
            },
            &options,
        )?),
    };
    if args.json {
        return super::print_json(&DeployJson {
            model: config.name.clone(),
            hardware: hw.key.clone(),
            kind: kind(&args),
            prompt: args.prompt,
            output: args.output,
            deployment: DeploymentRecord::of(&d, args.weights[0]),
            curve,
            benchmark: run.map(|r| BenchmarkJson {
                kind: BENCHMARK_KIND,
                requests: r.requests * u64::from(layout.data),
                clients: deploy_print::clients_line(&args),
                length_floor: args.length_floor,
                ttft_mean_s: r.ttft.mean.get(),
                ttft_median_s: r.ttft.median.get(),
                ttft_p90_s: r.ttft.p90.get(),
                tpot_mean_s: r.tpot.mean.get(),
                tpot_median_s: r.tpot.median.get(),
                tpot_p90_s: r.tpot.p90.get(),
                duration_s: r.duration.get(),
                output_tokens_per_s: r.output_tokens_per_s,
                output_tokens_per_s_per_gpu: r.output_tokens_per_s / f64::from(layout.gpus()),
                steps: r.steps,
            }),
            energy,
            launch: deploy_emit::json(launch.as_ref(), layout),
        });
    }
    deploy_print::print_deployment(&config, &hw, &scenario, &d, &args);
    if let Some(e) = &energy {
        deploy_print::print_energy(e);
    }
    deploy_print::print_curve(&curve);
    if let Some(r) = &run {
        deploy_print::print_benchmark(&args, layout, r);
    }
    if let Some(l) = &launch {
        deploy_emit::print_launch(None, l, layout);
    }
    Ok(())
}

/// The one layout `--tp`, `--pp`, `--dp` and `--ep` give.
fn layout(args: &Args) -> Layout {
    let layout = Layout {
        tensor: args.tp,
        pipeline: args.pp,
        data: args.dp,
        expert: 1,
    };
    match args.ep {
        None => layout,
        Some(None) => layout.with_whole_experts(true),
        Some(Some(degree)) => Layout {
            expert: degree,
            ..layout
        },
    }
}

fn clients(args: &Args) -> Clients {
    match args.rate {
        Some(r) => Clients::Rate(r),
        None => Clients::Concurrency(args.concurrency),
    }
}

pub(super) fn kind(args: &Args) -> &'static str {
    if args.calibrated {
        KIND_CALIBRATED
    } else {
        KIND
    }
}

pub(super) fn scenario(args: &Args, weights: Format) -> Scenario {
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
        experts: args.expert_weights.map(|weights| ExpertFormats {
            weights,
            activations: args.expert_activations.unwrap_or(args.activations),
        }),
    }
}

fn options(args: &Args, config: &ModelConfig, hw: &Hardware) -> Result<DeployOptions> {
    for (name, v) in [
        ("--link-latency", args.link_latency),
        ("--network-latency", args.network_latency),
    ] {
        if !(v >= 0.0 && v.is_finite()) {
            bail!("{name} must be 0 or more µs, got {v}");
        }
    }
    let batching = match args.batching {
        BatchingArg::Static => {
            if args.token_budget.is_some()
                || args.max_seqs.is_some()
                || args.chunked_prefill.is_some()
                || args.recv_interval.is_some()
                || args.adp_balance.is_some()
            {
                bail!(
                    "--token-budget, --max-seqs, --chunked-prefill, --recv-interval and --adp-balance set an in-flight scheduler; drop them or --batching static"
                );
            }
            Batching::Static
        }
        BatchingArg::InFlight => {
            let d = Scheduler::default_for(args.framework(), hw);
            Batching::InFlight(Scheduler {
                token_budget: args.token_budget.unwrap_or(d.token_budget),
                max_sequences: args.max_seqs.unwrap_or(d.max_sequences),
                chunked_prefill: args.chunked_prefill.unwrap_or(d.chunked_prefill),
                recv_interval: args.recv_interval.unwrap_or(d.recv_interval),
                adp_balance: args.adp_balance.map(|timeout_steps| AdpBalance {
                    timeout_steps,
                    batching_wait_steps: args.adp_batching_wait.unwrap_or(0),
                }),
                ..d
            })
        }
    };
    let speculation = match (args.speculate, args.acceptance) {
        (None, _) => None,
        (Some(k), Some(acceptance)) => Some(Speculation {
            draft_tokens: k,
            acceptance,
        }),
        (Some(1), None) if config.mla.is_some() && config.name.starts_with("deepseek-ai/") => {
            Some(Speculation::DEEPSEEK_V3_MTP)
        }
        (Some(_), None) => bail!(
            "--speculate needs --acceptance for {}: no acceptance rate is published for it (DeepSeek-V3/R1 with one MTP module has one, 0.85)",
            config.name
        ),
    };
    Ok(DeployOptions {
        batching,
        speculation,
        prefix_hit: args.prefix_hit,
        // The engine's host adds its launches and per-step work to the expected figures;
        // the bound is the kernels alone.
        host: if args.calibrated {
            HostOverhead::fitted(args.framework())
        } else {
            HostOverhead::NONE
        },
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
        framework: args.framework(),
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

pub(super) fn link_line(hw: &Hardware) -> String {
    hw.interconnect
        .as_ref()
        .map_or_else(|| "no published interconnect".into(), |ic| ic.describe())
}
