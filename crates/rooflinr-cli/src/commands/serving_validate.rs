//! `rooflinr validate --serving FILE`: every usable row of NVIDIA's measured serving sample
//! predicted with its own layout, engine and formats, as the benchmark that measured it
//! ran ([`rooflinr_model::deploy::Simulator`]), and the errors by part and by group.
//!
//! Each row is predicted three ways: the **bound** (in-flight batching under the engine's
//! default scheduler, every kernel and collective at the roofline), **calibrated** (the same
//! with the shipped kernel and NCCL terms, as `deploy --calibrated` computes), and the
//! **static** figures `deploy --calibrated --batching static` gave before in-flight batching
//! was modelled. Nothing of the serving model is fitted on this sample; the parts still
//! keep apart the rows looked at while its mechanisms were built (`development`: Llama-3.1-70B
//! and DeepSeek-R1) from the rest (`held out`: Llama-3.1-8B and DeepSeek-V3), and a frozen
//! family never looked at before the figures were published (`frozen`: Qwen3-32B).
//!
//! Assumed where the sample is silent, for every row alike: the KV cache in FP8 where the
//! weights are FP8 or FP4 (the launch recipes of these runs set `--kv-cache-dtype fp8_e4m3`
//! or `kv_cache_config.dtype: fp8`), else BF16; the engine's default scheduler (the sample
//! does not record the launch flags), except how new requests get in where InferenceX's
//! published recipe for the row sets it ([`serving_recipes::scheduler`]); InferenceX's client for its rows
//! ([`Origin::InferenceX`]) and a closed loop of fixed lengths and 10 x C requests for
//! NVIDIA's.

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::{Result, bail};
use rooflinr_model::analysis::{AttentionKernel, Phase, Scenario};
use rooflinr_model::config::ModelConfig;
use rooflinr_model::deploy::serving::runs;
use rooflinr_model::deploy::{
    self, Batching, Benchmark, Clients, DeployOptions, HostOverhead, Layout, Scheduler, Simulator,
    Workload,
};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::{Hardware, registry};
use rooflinr_model::kernel_time::Framework;
use rooflinr_model::ops::Precision;
use rooflinr_model::roofline::Efficiency;
use rooflinr_model::units::Seconds;
use serde::Serialize;

use super::serving_recipes;
use super::serving_sample::{self, Origin, SampleLayout, SampleRow, Serving};
use crate::table;

/// Which part of the yardstick a row is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// Rows looked at while the serving model's mechanisms were built.
    Development,
    /// Rows not looked at while building.
    HeldOut,
    /// A whole family nothing was chosen on.
    Frozen,
}

impl Part {
    pub(super) const ALL: [Part; 3] = [Part::Development, Part::HeldOut, Part::Frozen];

    pub(super) fn of(preset: &str) -> Part {
        match preset {
            "llama-3.1-70b" | "deepseek-r1" => Part::Development,
            "qwen3-32b" => Part::Frozen,
            _ => Part::HeldOut,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Part::Development => "development (Llama-3.1-70B, DeepSeek-R1)",
            Part::HeldOut => {
                "held out (Llama-3.1-8B, DeepSeek-V3, Qwen3-235B-A22B, Kimi-K2.5, MiniMax-M2.5, gpt-oss-120b)"
            }
            Part::Frozen => "frozen (Qwen3-32B)",
        }
    }
}

/// One way of predicting a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Predictor {
    /// In-flight, every kernel and collective at the roofline.
    Bound,
    /// In-flight, with the shipped kernel and NCCL terms.
    Calibrated,
    /// Static batching with the shipped terms (what `deploy --calibrated` gave before).
    Static,
}

impl Predictor {
    const ALL: [Predictor; 3] = [Predictor::Bound, Predictor::Calibrated, Predictor::Static];

    fn name(self) -> &'static str {
        match self {
            Predictor::Bound => "bound (in-flight)",
            Predictor::Calibrated => "calibrated (in-flight)",
            Predictor::Static => "calibrated, static batching",
        }
    }
}

/// A row's three predictions: (TTFT s, TPOT s) each.
#[derive(Clone, Debug, Serialize)]
pub struct Predicted {
    /// The row's id.
    pub id: String,
    /// Its group: system, engine, model, mode.
    pub group: String,
    /// The device's registry key.
    pub hardware: &'static str,
    /// The engine.
    #[serde(skip)]
    pub framework: Framework,
    /// Whether it ran disaggregated.
    pub disaggregated: bool,
    /// Its part.
    pub part: Part,
    /// GPUs it ran on.
    pub gpus: u32,
    /// Measured TTFT and TPOT, seconds.
    pub measured: (f64, f64),
    /// Measured output tokens/s per GPU, from TTFT and TPOT by Little's law.
    pub measured_per_gpu: f64,
    /// Predicted (TTFT, TPOT, tokens/s per GPU) by predictor.
    pub predicted: BTreeMap<Predictor, (f64, f64, f64)>,
}

/// Median, p90 and worst of absolute errors, and the median signed error.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Errors {
    /// Rows.
    pub rows: usize,
    /// Median |predicted / measured - 1|.
    pub median: f64,
    /// 90th percentile of it.
    pub p90: f64,
    /// The largest.
    pub worst: f64,
    /// Median of predicted / measured - 1 (negative: too fast).
    pub signed_median: f64,
}

impl Errors {
    fn of(ratios: impl Iterator<Item = f64>) -> Errors {
        let mut signed: Vec<f64> = ratios.map(|r| r - 1.0).filter(|e| e.is_finite()).collect();
        if signed.is_empty() {
            return Errors::default();
        }
        let mut abs: Vec<f64> = signed.iter().map(|e| e.abs()).collect();
        abs.sort_by(f64::total_cmp);
        signed.sort_by(f64::total_cmp);
        let at = |v: &[f64], q: f64| rooflinr_model::stats::quantile(v, q).unwrap_or(f64::NAN);
        Errors {
            rows: abs.len(),
            median: at(&abs, 0.5),
            p90: at(&abs, 0.9),
            worst: abs[abs.len() - 1],
            signed_median: at(&signed, 0.5),
        }
    }
}

/// The errors of one set of rows under one predictor.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Scores {
    /// Time to first token.
    pub ttft: Errors,
    /// Time per output token.
    pub tpot: Errors,
    /// Output tokens/s per GPU.
    pub per_gpu: Errors,
    /// Rows whose prediction has a TTFT or TPOT slower than measured.
    pub slower: usize,
}

impl Scores {
    pub(super) fn of<'r>(
        rows: impl Iterator<Item = &'r Predicted> + Clone,
        p: Predictor,
    ) -> Scores {
        let pairs = rows.filter_map(move |r| r.predicted.get(&p).map(|v| (r, *v)));
        Scores {
            ttft: Errors::of(pairs.clone().map(|(r, v)| v.0 / r.measured.0)),
            tpot: Errors::of(pairs.clone().map(|(r, v)| v.1 / r.measured.1)),
            per_gpu: Errors::of(pairs.clone().map(|(r, v)| v.2 / r.measured_per_gpu)),
            slower: pairs
                .filter(|(r, v)| v.0 > r.measured.0 || v.1 > r.measured.1)
                .count(),
        }
    }
}

/// What `validate --serving` found.
#[derive(Debug, Serialize)]
pub struct ServingValidation {
    /// Rows in the file.
    pub rows: usize,
    /// Usable rows by mode.
    pub usable_aggregated: usize,
    /// Usable disaggregated rows (predicted by the steady state).
    pub usable_disaggregated: usize,
    /// Refused rows by reason.
    pub refused: BTreeMap<String, usize>,
    /// Rows of models rooflinr does not read yet, by model.
    pub not_yet_readable: BTreeMap<String, usize>,
    /// Rows read from the "TP k EP k written as k^2" layout.
    pub square_layouts: usize,
    /// Rows whose attention DP field was empty or 0 (read as 1).
    pub empty_dp: usize,
    /// Rows whose clients were spread over several replicas of the engine.
    pub replicated: usize,
    /// Rows the model refused, by its error.
    pub model_refused: BTreeMap<String, usize>,
    /// Every predicted row.
    pub predicted: Vec<Predicted>,
    /// Errors by part and predictor.
    pub parts: Vec<(Part, Predictor, Scores)>,
    /// Calibrated errors by group.
    pub groups: Vec<(String, Part, Scores, Scores)>,
    /// Rows whose bound is slower than measured, and why.
    pub bound_slower: Vec<BoundSlower>,
    /// Seconds the predictions took.
    pub seconds: f64,
}

/// A row whose bound is slower than what was measured: a bound must not be, so each says
/// what the row ran that the bound does not.
#[derive(Clone, Debug, Serialize)]
pub struct BoundSlower {
    /// The row's id.
    pub id: String,
    /// Its group.
    pub group: String,
    /// Bound over measured time to first token.
    pub ttft_ratio: f64,
    /// Bound over measured time per output token.
    pub tpot_ratio: f64,
    /// Why, in words.
    pub cause: &'static str,
}

/// A token faster than the bound's: the step yielded more tokens than one per sequence,
/// or ran fewer sequences.
const FASTER_TOKENS: &str = "TPOT below the bound: more than one token per sequence a step (speculative decoding or MTP, which the sample does not record) or fewer requests per step than the benchmark's concurrency";
/// A first token faster than the bound's simulated mean.
const FASTER_FIRST_TOKEN: &str = "TTFT below the bound's simulated mean: the simulation queues the benchmark's first wave at once and, with fixed lengths, the bursts of requests that end in step; the run queued less (requests drift apart, or its client paced them)";

impl BoundSlower {
    fn of(r: &Predicted) -> Option<BoundSlower> {
        let b = r.predicted.get(&Predictor::Bound)?;
        let (ttft_ratio, tpot_ratio) = (b.0 / r.measured.0, b.1 / r.measured.1);
        let cause = if tpot_ratio > 1.0 {
            FASTER_TOKENS
        } else if ttft_ratio > 1.0 {
            FASTER_FIRST_TOKEN
        } else {
            return None;
        };
        Some(BoundSlower {
            id: r.id.clone(),
            group: r.group.clone(),
            ttft_ratio,
            tpot_ratio,
            cause,
        })
    }
}

/// One deployment's rows: the same model, GPU, engine, layout and formats.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Deployment {
    pub(super) preset: &'static str,
    pub(super) hardware: &'static str,
    pub(super) framework: Framework,
    pub(super) layout: SampleLayout,
    pub(super) weights: String,
}

fn scenario(row: &SampleRow) -> Scenario {
    let kv = if matches!(row.weights, Format::Fp8E4m3 | Format::NvFp4) {
        Format::Fp8E4m3
    } else {
        Format::Bf16
    };
    Scenario {
        phase: Phase::Decode,
        batch: 1,
        seq: 1,
        precision: Precision {
            activations: row.activations,
            weights: row.weights,
            kv,
            output: Format::Bf16,
        },
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: row.experts,
    }
}

fn benchmark(row: &SampleRow) -> Benchmark {
    let (floor, requests) = match row.origin {
        Origin::InferenceX => (0.8, 10 * row.concurrency),
        Origin::Nvidia => (1.0, 10 * row.concurrency),
    };
    Benchmark {
        prompt: row.isl,
        output: row.osl,
        clients: Clients::Concurrency(row.concurrency),
        requests,
        length_floor: floor,
        prefix_hit: 0.0,
        seed: 0,
    }
}

/// The predictions of every row of one deployment by `predictors`, the calibrated ones with
/// the engine's host overhead `host`.
fn predict_deployment(
    config: &ModelConfig,
    hw: &Hardware,
    layout: Layout,
    rows: &[&SampleRow],
    predictors: &[Predictor],
    host: HostOverhead,
) -> Vec<std::result::Result<Predicted, String>> {
    let framework = rows[0].framework;
    let s = scenario(rows[0]);
    let eff = Efficiency::IDEAL;
    let bound = DeployOptions::in_flight(framework, hw);
    let calibrated = DeployOptions {
        calibrated: true,
        host,
        ..bound
    };
    let static_options = DeployOptions {
        batching: Batching::Static,
        host: HostOverhead::NONE,
        ..calibrated
    };
    let mut sims: Vec<(Predictor, std::result::Result<Simulator<'_>, String>)> = predictors
        .iter()
        .filter_map(|p| {
            let o = match p {
                Predictor::Bound => &bound,
                Predictor::Calibrated => &calibrated,
                Predictor::Static => return None,
            };
            Some((
                *p,
                Simulator::new(config, hw, &s, &eff, layout, o).map_err(|e| e.to_string()),
            ))
        })
        .collect();
    let default = match bound.batching {
        Batching::InFlight(s) => s,
        Batching::Static => Scheduler::default_for(framework, hw),
    };
    rows.iter()
        .map(|row| {
            let b = benchmark(row);
            let launched = serving_recipes::scheduler(row, default);
            let mut predicted = BTreeMap::new();
            for (p, sim) in &mut sims {
                let sim = sim.as_mut().map_err(|e| e.clone())?;
                sim.set_scheduler(launched).map_err(|e| e.to_string())?;
                let run = sim.run(&b).map_err(|e| e.to_string())?;
                let per_gpu = run.output_tokens_per_s / f64::from(layout.gpus());
                predicted.insert(*p, (run.ttft.mean.get(), run.tpot.mean.get(), per_gpu));
            }
            if predictors.contains(&Predictor::Static) {
                let w = Workload {
                    prompt: row.isl,
                    output: row.osl,
                    concurrency: row.concurrency,
                };
                let d = deploy::evaluate(config, hw, &s, &eff, layout, w, &static_options)
                    .map_err(|e| e.to_string())?;
                predicted.insert(
                    Predictor::Static,
                    (
                        d.serving.ttft.get(),
                        d.serving.tpot.get(),
                        d.serving.tokens_per_s_per_gpu,
                    ),
                );
            }
            let (ttft, tpot) = (row.ttft_s, row.tpot_s);
            Ok(Predicted {
                id: row.id.clone(),
                group: format!("{} {} {} agg", row.hardware, framework.key(), row.preset),
                part: Part::of(row.preset),
                hardware: row.hardware,
                framework,
                disaggregated: false,
                gpus: layout.gpus(),
                measured: (ttft, tpot),
                measured_per_gpu: measured_tokens_per_s(row) / f64::from(layout.gpus()),
                predicted,
            })
        })
        .collect()
}

/// The usable aggregated rows of a sample by deployment, and how many disaggregated rows
/// were left.
pub(super) fn deployments(
    sample: &serving_sample::Sample,
) -> (Vec<(Deployment, Vec<&SampleRow>)>, usize) {
    let mut by_deployment: BTreeMap<Deployment, Vec<&SampleRow>> = BTreeMap::new();
    let mut disaggregated = 0;
    for row in &sample.usable {
        match row.serving {
            Serving::Aggregated(layout) => by_deployment
                .entry(Deployment {
                    preset: row.preset,
                    hardware: row.hardware,
                    framework: row.framework,
                    layout,
                    weights: row.weights.to_string(),
                })
                .or_default()
                .push(row),
            Serving::Disaggregated { .. } => disaggregated += 1,
        }
    }
    (by_deployment.into_iter().collect(), disaggregated)
}

/// A disaggregated row's bound and calibrated steady state
/// ([`deploy::evaluate_disaggregated`]; no benchmark is simulated for these).
fn predict_disaggregated(row: &SampleRow) -> std::result::Result<Predicted, String> {
    let Serving::Disaggregated {
        prefill,
        prefill_workers,
        decode,
        decode_workers,
    } = row.serving
    else {
        return Err("not a disaggregated row".into());
    };
    let config = rooflinr_model::presets::get(row.preset).map_err(|e| e.to_string())?;
    let hw = registry::get(row.hardware).map_err(|e| e.to_string())?;
    let d = deploy::Disaggregated {
        prefill: prefill.layout(),
        prefill_workers,
        decode: decode.layout(),
        decode_workers,
    };
    let s = scenario(row);
    let w = Workload {
        prompt: row.isl,
        output: row.osl,
        concurrency: row.concurrency,
    };
    let bound = DeployOptions::in_flight(row.framework, &hw);
    let calibrated = DeployOptions {
        calibrated: true,
        host: HostOverhead::fitted(row.framework),
        ..bound
    };
    let mut predicted = BTreeMap::new();
    for (p, o) in [
        (Predictor::Bound, &bound),
        (Predictor::Calibrated, &calibrated),
    ] {
        let r = deploy::evaluate_disaggregated(&config, &hw, &s, &Efficiency::IDEAL, &d, w, o)
            .map_err(|e| e.to_string())?;
        predicted.insert(
            p,
            (
                r.serving.ttft.get(),
                r.serving.tpot.get(),
                r.serving.tokens_per_s_per_gpu,
            ),
        );
    }
    Ok(Predicted {
        id: row.id.clone(),
        group: format!(
            "{} {} {} disagg",
            row.hardware,
            row.framework.key(),
            row.preset
        ),
        part: Part::of(row.preset),
        hardware: row.hardware,
        framework: row.framework,
        disaggregated: true,
        gpus: d.gpus(),
        measured: (row.ttft_s, row.tpot_s),
        measured_per_gpu: measured_tokens_per_s(row) / f64::from(d.gpus()),
        predicted,
    })
}

/// Every row of `jobs` predicted by `predictors` on the machine's cores.
pub(super) fn predict_all(
    jobs: &[(Deployment, Vec<&SampleRow>)],
    predictors: &[Predictor],
    host: &(dyn Fn(Framework) -> HostOverhead + Sync),
) -> Vec<std::result::Result<Predicted, String>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for (d, rows) in jobs.iter().skip(t).step_by(threads) {
                        let (config, hw) = match (
                            rooflinr_model::presets::get(d.preset),
                            registry::get(d.hardware),
                        ) {
                            (Ok(c), Ok(h)) => (c, h),
                            (Err(e), _) | (_, Err(e)) => {
                                out.extend(rows.iter().map(|_| Err(e.to_string())));
                                continue;
                            }
                        };
                        let layout = d.layout.layout();
                        out.extend(predict_deployment(
                            &config,
                            &hw,
                            layout,
                            rows,
                            predictors,
                            host(d.framework),
                        ));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// A row's measured output tokens/s, from its TTFT and TPOT
/// ([`runs::closed_loop_tokens_per_s`]).
fn measured_tokens_per_s(row: &SampleRow) -> f64 {
    runs::closed_loop_tokens_per_s(
        Workload {
            prompt: row.isl,
            output: row.osl,
            concurrency: row.concurrency,
        },
        Seconds(row.ttft_s),
        Seconds(row.tpot_s),
    )
}

/// Predicts every usable row of `sample`.
pub fn validate(sample: serving_sample::Sample) -> Result<ServingValidation> {
    let start = Instant::now();
    let (jobs, disaggregated) = deployments(&sample);
    let mut results = predict_all(&jobs, &Predictor::ALL, &HostOverhead::fitted);
    results.extend(
        sample
            .usable
            .iter()
            .filter(|r| matches!(r.serving, Serving::Disaggregated { .. }))
            .map(predict_disaggregated),
    );
    let mut model_refused: BTreeMap<String, usize> = BTreeMap::new();
    let mut predicted = Vec::new();
    for r in results {
        match r {
            Ok(p) => predicted.push(p),
            Err(e) => *model_refused.entry(e).or_default() += 1,
        }
    }
    predicted.sort_by(|a, b| a.id.cmp(&b.id));
    let seconds = start.elapsed().as_secs_f64();
    let mut parts = Vec::new();
    for part in Part::ALL {
        for p in Predictor::ALL {
            parts.push((
                part,
                p,
                Scores::of(predicted.iter().filter(|r| r.part == part), p),
            ));
        }
    }
    let mut groups: BTreeMap<(String, Part), ()> = BTreeMap::new();
    for r in &predicted {
        groups.insert((r.group.clone(), r.part), ());
    }
    let groups = groups
        .into_keys()
        .map(|(g, part)| {
            let rows = predicted.iter().filter(|r| r.group == g);
            (
                g.clone(),
                part,
                Scores::of(rows.clone(), Predictor::Bound),
                Scores::of(rows, Predictor::Calibrated),
            )
        })
        .collect();
    if predicted.is_empty() {
        bail!("no row of the sample could be predicted");
    }
    let bound_slower = predicted.iter().filter_map(BoundSlower::of).collect();
    Ok(ServingValidation {
        rows: sample.rows,
        usable_aggregated: sample.usable.len() - disaggregated,
        usable_disaggregated: disaggregated,
        refused: sample.refused,
        not_yet_readable: sample.unreadable,
        square_layouts: sample.square_layouts,
        empty_dp: sample.empty_dp,
        replicated: sample.replicated,
        model_refused,
        predicted,
        parts,
        groups,
        bound_slower,
        seconds,
    })
}

fn pct(v: f64) -> String {
    format!("{:.0} %", 100.0 * v)
}

fn signed(v: f64) -> String {
    format!("{:+.0} %", 100.0 * v)
}

/// The report as Markdown.
pub fn markdown(v: &ServingValidation) -> String {
    let mut out = String::new();
    out += &format!(
        "# Serving: NVIDIA's measured serving sample against rooflinr\n\n{} rows; {} aggregated and {} disaggregated usable; {} predicted in {:.1} s ({} rows read from TP k EP k written as k^2; {} with an empty attention DP read as 1; {} whose clients were spread over replicas of the engine, predicted per replica). Measured tokens/s per GPU are derived from the measured TTFT and TPOT (Little's law for a closed loop).\n\n",
        v.rows,
        v.usable_aggregated,
        v.usable_disaggregated,
        v.predicted.len(),
        v.seconds,
        v.square_layouts,
        v.empty_dp,
        v.replicated
    );
    let mut t = table::new(
        &[
            "part",
            "predictor",
            "rows",
            "TTFT median",
            "TTFT p90",
            "TTFT signed",
            "TPOT median",
            "TPOT p90",
            "TPOT signed",
            "tokens/s/GPU median",
            "slower than measured",
        ],
        2,
    );
    for (part, p, s) in &v.parts {
        t.add_row(vec![
            part.name().to_string(),
            p.name().to_string(),
            s.ttft.rows.to_string(),
            pct(s.ttft.median),
            pct(s.ttft.p90),
            signed(s.ttft.signed_median),
            pct(s.tpot.median),
            pct(s.tpot.p90),
            signed(s.tpot.signed_median),
            pct(s.per_gpu.median),
            s.slower.to_string(),
        ]);
    }
    out += &format!("{t}\n\n");
    out += "\n## By group (in-flight: bound / calibrated)\n\n";
    let mut t = table::new(
        &[
            "group",
            "part",
            "rows",
            "TTFT median",
            "TTFT p90",
            "TPOT median",
            "TPOT p90",
            "TPOT signed",
            "tokens/s/GPU median",
        ],
        2,
    );
    for (g, part, b, c) in &v.groups {
        t.add_row(vec![
            g.clone(),
            format!("{part:?}"),
            c.ttft.rows.to_string(),
            format!("{} / {}", pct(b.ttft.median), pct(c.ttft.median)),
            format!("{} / {}", pct(b.ttft.p90), pct(c.ttft.p90)),
            format!("{} / {}", pct(b.tpot.median), pct(c.tpot.median)),
            format!("{} / {}", pct(b.tpot.p90), pct(c.tpot.p90)),
            signed(c.tpot.signed_median),
            pct(c.per_gpu.median),
        ]);
    }
    out += &format!("{t}\n\n");
    out += &format!(
        "\n## Rows whose bound is slower than measured ({})\n\n",
        v.bound_slower.len()
    );
    let mut causes: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for b in &v.bound_slower {
        *causes.entry((b.group.as_str(), b.cause)).or_default() += 1;
    }
    for ((group, cause), n) in &causes {
        out += &format!("- {n} of {group}: {cause}\n");
    }
    let mut worst: Vec<&BoundSlower> = v.bound_slower.iter().collect();
    worst.sort_by(|a, b| {
        b.ttft_ratio
            .max(b.tpot_ratio)
            .total_cmp(&a.ttft_ratio.max(a.tpot_ratio))
    });
    if !worst.is_empty() {
        let mut t = table::new(
            &["row", "bound / measured TTFT", "bound / measured TPOT"],
            1,
        );
        for b in worst.iter().take(10) {
            t.add_row(vec![
                b.id.clone(),
                format!("{:.2}", b.ttft_ratio),
                format!("{:.2}", b.tpot_ratio),
            ]);
        }
        out += &format!("\nThe furthest:\n\n{t}\n\n");
    }
    out += "\n## Rows not predicted\n\n";
    for (why, n) in &v.refused {
        out += &format!("- {n} refused: {why}\n");
    }
    for (why, n) in &v.model_refused {
        out += &format!("- {n} refused by the model: {why}\n");
    }
    for (model, n) in &v.not_yet_readable {
        out += &format!("- {n} of {model}: not yet readable\n");
    }
    out
}
