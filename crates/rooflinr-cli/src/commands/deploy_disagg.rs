//! `rooflinr deploy --prefill LAYOUT --decode LAYOUT` and `deploy --search
//! --disaggregated`: prefill and decode workers apart, their steady state, and the search
//! over both sides' layouts and their ratio.

use anyhow::{Result, bail};
use rooflinr_model::analysis::Scenario;
use rooflinr_model::config::ModelConfig;
use rooflinr_model::deploy::{
    self, DeployOptions, Disaggregated, DisaggregatedPoint, DisaggregatedSpace, Workload,
};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::roofline::Efficiency;
use rooflinr_model::units::{Seconds, si};
use serde::Serialize;

use super::deploy::{Args, kind, link_line};
use crate::table;

#[derive(Serialize)]
struct DisaggregatedJson {
    model: String,
    hardware: String,
    kind: &'static str,
    prompt: u64,
    output: u64,
    concurrency: u64,
    deployment: String,
    gpus: u32,
    ttft_s: f64,
    tpot_s: f64,
    request_time_s: f64,
    tokens_per_s_per_user: f64,
    tokens_per_s_per_gpu: f64,
    kv_transfer_s: f64,
    kv_transfer_bytes: f64,
    prefill_batch: f64,
    prefill_step_s: f64,
    prefill_utilisation: f64,
    decode_batch: f64,
    energy: Option<super::deploy::EnergyJson>,
    /// The prefill and the decode workers' launch commands (`--emit`).
    launch: Vec<super::deploy_emit::LaunchJson>,
}

#[derive(Serialize)]
struct PointJson {
    deployment: String,
    gpus: u32,
    prefill_workers: u32,
    prefill: String,
    decode_workers: u32,
    decode: String,
    concurrency: u64,
    decode_batch: u64,
    tokens_per_s_per_gpu: f64,
    tokens_per_s_per_user: f64,
    ttft_s: f64,
}

#[derive(Serialize)]
struct SearchJson {
    model: String,
    hardware: String,
    kind: &'static str,
    prompt: u64,
    output: u64,
    max_gpus: u32,
    min_tokens_per_s_per_user: f64,
    evaluated: usize,
    best: Option<PointJson>,
    pareto: Vec<PointJson>,
}

fn point(p: &DisaggregatedPoint) -> PointJson {
    let d = p.deployment;
    PointJson {
        deployment: d.to_string(),
        gpus: d.gpus(),
        prefill_workers: d.prefill_workers,
        prefill: d.prefill.to_string(),
        decode_workers: d.decode_workers,
        decode: d.decode.to_string(),
        concurrency: p.concurrency,
        decode_batch: p.decode_batch,
        tokens_per_s_per_gpu: p.tokens_per_s_per_gpu,
        tokens_per_s_per_user: p.tokens_per_s_per_user,
        ttft_s: p.ttft.get(),
    }
}

/// Runs the disaggregated forms of `rooflinr deploy`.
pub fn run(
    args: &Args,
    config: &ModelConfig,
    hw: &Hardware,
    scenario: &Scenario,
    efficiency: &Efficiency,
    options: &DeployOptions,
) -> Result<()> {
    if args.disaggregated {
        return search(args, config, hw, scenario, efficiency, options);
    }
    let (Some(prefill), Some(decode)) = (args.prefill, args.decode) else {
        bail!("disaggregated serving needs both --prefill and --decode layouts");
    };
    let d = Disaggregated {
        prefill,
        prefill_workers: args.prefill_workers,
        decode,
        decode_workers: args.decode_workers,
    };
    let w = Workload {
        prompt: args.prompt,
        output: args.output,
        concurrency: args.concurrency,
    };
    let r = deploy::evaluate_disaggregated(config, hw, scenario, efficiency, &d, w, options)?;
    let s = r.serving;
    let energy = super::deploy::energy_figures(args, hw, &s)?;
    let launch = super::deploy_emit::launch_workers(args, config, scenario, options, &d, w)?;
    if args.json {
        return super::print_json(&DisaggregatedJson {
            model: config.name.clone(),
            hardware: hw.key.clone(),
            kind: kind(args),
            prompt: args.prompt,
            output: args.output,
            concurrency: args.concurrency,
            deployment: d.to_string(),
            gpus: d.gpus(),
            ttft_s: s.ttft.get(),
            tpot_s: s.tpot.get(),
            request_time_s: s.request_time.get(),
            tokens_per_s_per_user: s.tokens_per_s_per_user,
            tokens_per_s_per_gpu: s.tokens_per_s_per_gpu,
            kv_transfer_s: r.transfer.get(),
            kv_transfer_bytes: r.transfer_bytes.get(),
            prefill_batch: r.prefill_batch,
            prefill_step_s: r.prefill_step.get(),
            prefill_utilisation: r.prefill_utilisation,
            decode_batch: r.decode_batch,
            energy,
            launch: super::deploy_emit::workers_json(&launch),
        });
    }
    println!(
        "{} disaggregated on {} x {}: {d} | prompt {}, output {}, {} clients | {}",
        config.name,
        d.gpus(),
        hw.name,
        args.prompt,
        args.output,
        args.concurrency,
        kind(args)
    );
    println!("links: {}\n", link_line(hw));
    println!(
        "steady state: a prefill step of {:.1} prompts takes {}, the prefill workers {:.0} % busy (they take {:.1} prompts/s at full steps); each prompt's KV cache ({}) reaches its decode worker in {}; each decode worker holds {:.1} requests per replica\n",
        r.prefill_batch,
        si(r.prefill_step.get(), "s"),
        100.0 * r.prefill_utilisation,
        r.prefill_capacity,
        si(r.transfer_bytes.get(), "B"),
        si(r.transfer.get(), "s"),
        r.decode_batch
    );
    table::print(&super::deploy_print::serving_table(
        &s,
        "tokens/s per GPU (both sides)",
        false,
    ));
    if let Some(e) = &energy {
        super::deploy_print::print_energy(e);
    }
    super::deploy_emit::print_workers(&launch);
    Ok(())
}

fn search(
    args: &Args,
    config: &ModelConfig,
    hw: &Hardware,
    scenario: &Scenario,
    efficiency: &Efficiency,
    options: &DeployOptions,
) -> Result<()> {
    let space = DisaggregatedSpace {
        max_gpus: args.max_gpus,
        prompt: args.prompt,
        output: args.output,
        min_tokens_per_user: args.min_user_speed,
        max_ttft: args.max_ttft.map(Seconds),
    };
    if args.emit.is_some() {
        bail!(
            "--emit with a disaggregated search: give the deployment it picked as --prefill and --decode (with --prefill-workers and --decode-workers) for its commands"
        );
    }
    let r = deploy::search_disaggregated(config, hw, scenario, efficiency, &space, options)?;
    if args.json {
        return super::print_json(&SearchJson {
            model: config.name.clone(),
            hardware: hw.key.clone(),
            kind: kind(args),
            prompt: args.prompt,
            output: args.output,
            max_gpus: args.max_gpus,
            min_tokens_per_s_per_user: args.min_user_speed,
            evaluated: r.evaluated,
            best: r.best.as_ref().map(point),
            pareto: r.pareto.iter().map(point).collect(),
        });
    }
    println!(
        "{} disaggregated on up to {} x {} | prompt {}, output {}, at least {} tokens/s per user | {} deployments weighed (prefill workers matched to the rate the decode workers finish requests at) | {}",
        config.name,
        args.max_gpus,
        hw.name,
        args.prompt,
        args.output,
        args.min_user_speed,
        r.evaluated,
        kind(args)
    );
    println!("links: {}\n", link_line(hw));
    match &r.best {
        Some(b) => println!(
            "best at the floor: {} on {} GPUs, {:.1} tokens/s per GPU at {:.1} per user, TTFT {}\n",
            b.deployment,
            b.deployment.gpus(),
            b.tokens_per_s_per_gpu,
            b.tokens_per_s_per_user,
            si(b.ttft.get(), "s")
        ),
        None => println!("no deployment reaches the per-user floor within the budget\n"),
    }
    let mut t = table::new(
        &[
            "Pareto front",
            "GPUs",
            "decode batch",
            "clients",
            "tokens/s per user",
            "tokens/s per GPU",
            "TTFT",
        ],
        1,
    );
    for p in r.pareto.iter().take(args.top) {
        t.add_row(vec![
            p.deployment.to_string(),
            p.deployment.gpus().to_string(),
            p.decode_batch.to_string(),
            p.concurrency.to_string(),
            format!("{:.1}", p.tokens_per_s_per_user),
            format!("{:.1}", p.tokens_per_s_per_gpu),
            si(p.ttft.get(), "s"),
        ]);
    }
    table::print(&t);
    if r.pareto.len() > args.top {
        println!(
            "{} more points on the front (--top N shows more, --json all)\n",
            r.pareto.len() - args.top
        );
    }
    Ok(())
}
