//! What `rooflinr deploy` prints: a deployment's tables, its serving curve, a simulated
//! benchmark run, and a search's ranking and front (as tables, or the JSON of a search).

use anyhow::Result;
use rooflinr_model::analysis::Scenario;
use rooflinr_model::config::ModelConfig;
use rooflinr_model::deploy::launch::Launch;
use rooflinr_model::deploy::record::{DeploymentRecord, ServingPoint, calibration_line};
use rooflinr_model::deploy::{self, BenchmarkRun, Deployment, Layout, SearchResult, Serving};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::units::si;
use serde::Serialize;

use super::deploy::{Args, BENCHMARK_KIND, EnergyJson, kind, link_line};
use crate::table;

#[derive(Serialize)]
struct CandidateJson {
    rank: usize,
    layout: String,
    gpus: u32,
    weights: String,
    best: Option<DeploymentRecord>,
    loss: Option<String>,
    curve: Vec<CurvePointJson>,
    energy: Option<EnergyJson>,
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
    /// The best-ranked deployment's launch command (`--emit`).
    launch: Option<super::deploy_emit::LaunchJson>,
}

pub(super) fn clients_line(args: &Args) -> String {
    match args.rate {
        Some(r) => format!("Poisson arrivals at {r} requests/s"),
        None => format!("{} clients in a closed loop", args.concurrency),
    }
}

pub(super) fn print_benchmark(args: &Args, layout: Layout, r: &BenchmarkRun) {
    println!(
        "benchmark of {} requests from a cold start ({}; lengths {}) | {BENCHMARK_KIND}\n",
        args.benchmark.unwrap_or(r.requests),
        clients_line(args),
        if args.length_floor < 1.0 {
            format!(
                "uniform in [{:.2} x, 1 x] of --prompt and --output",
                args.length_floor
            )
        } else {
            "fixed".into()
        }
    );
    let mut t = table::new(&["benchmark", "mean", "median", "p90"], 1);
    for (name, l) in [
        ("time to first token", r.ttft),
        ("time per output token", r.tpot),
    ] {
        t.add_row(vec![
            name.to_string(),
            si(l.mean.get(), "s"),
            si(l.median.get(), "s"),
            si(l.p90.get(), "s"),
        ]);
    }
    table::print(&t);
    println!(
        "{} in {} over {} engine steps: {:.1} output tokens/s, {:.1} per GPU\n",
        if layout.data > 1 {
            format!(
                "each of {} replicas served {} requests",
                layout.data, r.requests
            )
        } else {
            format!("{} requests", r.requests)
        },
        si(r.duration.get(), "s"),
        r.steps,
        r.output_tokens_per_s,
        r.output_tokens_per_s / f64::from(layout.gpus())
    );
}

/// The energy and cost lines of the steady state.
pub(super) fn print_energy(e: &EnergyJson) {
    println!(
        "energy: {:.3} J per output token, {} per request, {:.0} output tokens/s per kW ({:.0} W per GPU, {}; {})",
        e.joules_per_output_token,
        si(e.joules_per_request, "J"),
        e.output_tokens_per_s_per_kw,
        e.watts_per_gpu,
        e.power_source,
        e.assumption
    );
    match (e.usd_per_million_output_tokens, e.gpu_hour_price_usd) {
        (Some(usd), Some(price)) => println!(
            "cost: ${usd:.3} per million output tokens at ${price} per GPU-hour (the price given)\n"
        ),
        _ => println!("cost: give --gpu-hour-price USD for the cost per million output tokens\n"),
    }
}

pub(super) fn print_deployment(
    config: &ModelConfig,
    hw: &Hardware,
    scenario: &Scenario,
    d: &Deployment,
    args: &Args,
) {
    let l = d.layout;
    println!(
        "{} on {} x {} ({l}) | {} | prompt {}, output {}, {} at once | {}",
        config.name,
        l.gpus(),
        hw.name,
        scenario.formats(),
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
    match &d.in_flight {
        Some(f) => {
            let sch = f.scheduler;
            println!(
                "in-flight batching, steady state under {}'s scheduler: {} steps of up to {} tokens, at most {} requests{}, prompts {}",
                args.framework().name(),
                sch.policy.name(),
                sch.token_budget,
                sch.max_sequences.min(d.max_concurrency),
                if sch.max_sequences > d.max_concurrency {
                    " (the KV memory's limit)"
                } else {
                    ""
                },
                if sch.chunked_prefill {
                    "chunked"
                } else {
                    "whole"
                },
            );
            if sch.recv_interval > 1 {
                println!(
                    "new requests read every {} decode steps (and after each prefill)",
                    sch.recv_interval
                );
            }
            if let Some(b) = sch.adp_balance {
                println!(
                    "attention-DP balance: new prompts held until every replica has one, at most {} steps{}",
                    b.timeout_steps,
                    if b.batching_wait_steps > 0 {
                        format!(", then {} more", b.batching_wait_steps)
                    } else {
                        String::new()
                    }
                );
            }
            println!(
                "a step: {} decoding sequences and {:.0} prompt tokens in {}{}; a prompt takes {:.1} steps{}{}\n",
                fmt_count(f.decode_sequences),
                f.prefill_tokens,
                si(f.step.get(), "s"),
                if f.prefill_pause.get() > 0.0 {
                    format!(", then {} of prefill", si(f.prefill_pause.get(), "s"))
                } else {
                    String::new()
                },
                f.prefill_steps,
                if f.waiting > 0.0 {
                    format!(
                        "; {} requests queue for {}",
                        fmt_count(f.waiting),
                        si(f.queue.get(), "s")
                    )
                } else {
                    String::new()
                },
                if f.tokens_per_step > 1.0 {
                    format!("; {:.2} tokens per sequence per step", f.tokens_per_step)
                } else {
                    String::new()
                }
            );
        }
        None => println!(
            "static batching: the {} requests prefilled together, then decoded together at the mean context\n",
            s.concurrency
        ),
    }
    table::print(&serving_table(&s, "tokens/s per GPU", true));
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

/// The serving figures as a table; `per_gpu` names the tokens/s per GPU row, and
/// `while_decoding` adds the decode-only rate.
pub(super) fn serving_table(
    s: &Serving,
    per_gpu: &str,
    while_decoding: bool,
) -> comfy_table::Table {
    let mut t = table::new(&["serving", "value"], 1);
    t.add_row(vec!["time to first token".into(), si(s.ttft.get(), "s")]);
    t.add_row(vec!["time per output token".into(), si(s.tpot.get(), "s")]);
    t.add_row(vec!["request time".into(), si(s.request_time.get(), "s")]);
    t.add_row(vec![
        "tokens/s per user".into(),
        format!("{:.1}", s.tokens_per_s_per_user),
    ]);
    t.add_row(vec![
        per_gpu.into(),
        format!("{:.1}", s.tokens_per_s_per_gpu),
    ]);
    if while_decoding {
        t.add_row(vec![
            "tokens/s per GPU while decoding".into(),
            format!("{:.1}", s.decode_tokens_per_s_per_gpu),
        ]);
    }
    t
}

pub(super) fn print_curve(curve: &[ServingPoint]) {
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

pub(super) fn print_search(
    args: &Args,
    config: &ModelConfig,
    hw: &Hardware,
    r: &SearchResult,
    launch: Option<&(Launch, Layout)>,
) -> Result<()> {
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
                    // The power and price were checked before the search; a deployment
                    // that yields no tokens has no energy per token.
                    energy: c.best.as_ref().and_then(|d| {
                        super::deploy::energy_figures(args, hw, &d.serving)
                            .ok()
                            .flatten()
                    }),
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
            launch: launch.and_then(|(l, layout)| super::deploy_emit::json(Some(l), *layout)),
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
    let mut header = vec![
        "rank",
        "layout",
        "GPUs",
        "weights",
        "requests",
        "tokens/s per user",
        "tokens/s per GPU",
        "TTFT",
        "memory per GPU",
        "J per output token",
    ];
    if args.gpu_hour_price.is_some() {
        header.push("$ per M output tokens");
    }
    header.push("why not first");
    let mut t = table::new(&header, 2);
    let mut power_line = None;
    for (i, c) in r.candidates.iter().enumerate().take(args.top) {
        let mut row = vec![
            (i + 1).to_string(),
            c.layout.to_string(),
            c.layout.gpus().to_string(),
            weights(c),
        ];
        match &c.best {
            Some(d) => {
                let e = super::deploy::energy_figures(args, hw, &d.serving)?;
                row.extend([
                    d.serving.concurrency.to_string(),
                    format!("{:.1}", d.serving.tokens_per_s_per_user),
                    format!("{:.1}", d.serving.tokens_per_s_per_gpu),
                    si(d.serving.ttft.get(), "s"),
                    si(d.memory.total().get(), "B"),
                    e.as_ref()
                        .map_or("-".into(), |e| format!("{:.3}", e.joules_per_output_token)),
                ]);
                if args.gpu_hour_price.is_some() {
                    row.push(
                        e.as_ref()
                            .and_then(|e| e.usd_per_million_output_tokens)
                            .map_or("-".into(), |usd| format!("{usd:.3}")),
                    );
                }
                if let Some(e) = e {
                    power_line.get_or_insert(format!(
                        "{:.0} W per GPU, {}; {}",
                        e.watts_per_gpu, e.power_source, e.assumption
                    ));
                }
            }
            None => {
                let cells = if args.gpu_hour_price.is_some() { 7 } else { 6 };
                row.extend(std::iter::repeat_n("-".to_string(), cells));
            }
        }
        row.push(c.loss.map_or("best".into(), |l| l.describe()));
        t.add_row(row);
    }
    table::print(&t);
    if let Some(p) = power_line {
        println!(
            "energy per token at {p}; on one device type, ranking by tokens/s per GPU is ranking by energy and by cost per token\n"
        );
    }
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
    if let Some((l, layout)) = launch {
        super::deploy_emit::print_launch(None, l, *layout);
    }
    Ok(())
}

/// A count of requests or sequences: whole, or with one decimal where a mean is fractional.
fn fmt_count(v: f64) -> String {
    if (v - v.round()).abs() < 0.05 {
        format!("{:.0}", v)
    } else {
        format!("{v:.1}")
    }
}
