//! `rooflinr validate --serving --fit`, `--errors` and `--check`: the serving model's
//! fitted host overheads and its shipped errors by device and engine, each from the
//! sample (`serving_validate`) and checked against what ships in the model crate.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Result, bail};
use rooflinr_model::deploy::serving::runs::{self, MeasuredRun};
use rooflinr_model::deploy::{self, HostOverhead, ServingError};
use rooflinr_model::kernel_time::Framework;
use rooflinr_model::units::Seconds;
use serde::Serialize;

use super::serving_sample::{self, SampleRow};
use super::serving_validate::{
    Deployment, Part, Predicted, Predictor, Scores, ServingValidation, deployments, markdown,
    predict_all, validate,
};
/// The calibrated in-flight errors by device and engine on the rows nothing was fitted or
/// chosen on (held out and frozen), rounded to a tenth of a percent: what
/// `deploy::serving::SERVING_ERRORS` holds.
pub fn serving_errors(v: &ServingValidation) -> Vec<ServingError> {
    let mut by: BTreeMap<(&'static str, Framework), Vec<&Predicted>> = BTreeMap::new();
    for r in v
        .predicted
        .iter()
        .filter(|r| r.part != Part::Development && !r.disaggregated)
    {
        by.entry((r.hardware, r.framework)).or_default().push(r);
    }
    let tenth = |x: f64| (x * 1000.0).round() / 10.0;
    by.into_iter()
        .map(|((hardware, framework), rows)| {
            let s = Scores::of(rows.iter().copied(), Predictor::Calibrated);
            ServingError {
                hardware,
                framework,
                rows: rows.len() as u32,
                ttft_median_pct: tenth(s.ttft.median),
                tpot_median_pct: tenth(s.tpot.median),
            }
        })
        .collect()
}

/// The errors as the lines of `SERVING_ERRORS`.
pub fn serving_error_lines(errors: &[ServingError]) -> String {
    let mut out = String::new();
    for e in errors {
        out += &format!(
            "    ServingError {{\n        hardware: {:?},\n        framework: Framework::{:?},\n        rows: {},\n        ttft_median_pct: {:?},\n        tpot_median_pct: {:?},\n    }},\n",
            e.hardware, e.framework, e.rows, e.ttft_median_pct, e.tpot_median_pct
        );
    }
    out
}

/// The usable aggregated rows of `sample` as the calculator's
/// `web/assets/measured-serving-runs.csv` holds them: all but those whose experts run in
/// formats of their own (gpt-oss's checkpoint), which a calculator deployment's one weights
/// format does not set.
pub fn measured_runs(sample: &serving_sample::Sample) -> Vec<MeasuredRun> {
    sample
        .usable
        .iter()
        .filter_map(|r| {
            let serving_sample::Serving::Aggregated(l) = r.serving else {
                return None;
            };
            if r.experts.is_some() {
                return None;
            }
            Some(MeasuredRun {
                model: r.model.clone(),
                preset: runs::architecture(r.preset).to_string(),
                hardware: r.hardware.to_string(),
                framework: r.framework,
                layout: l.layout(),
                weights: r.weights,
                workload: deploy::Workload {
                    prompt: r.isl,
                    output: r.osl,
                    concurrency: r.concurrency,
                },
                ttft: Seconds(r.ttft_s),
                tpot: Seconds(r.tpot_s),
            })
        })
        .collect()
}

/// The file the calculator fetches, as committed (`validate --serving FILE --runs` writes
/// it).
const SHIPPED_RUNS: &str = include_str!("../../../../web/assets/measured-serving-runs.csv");

/// Host time per step searched by [`fit`], milliseconds: an engine's scheduling, sampling
/// and output processing between steps takes a few milliseconds at most.
const STEP_GRID_MS: [f64; 11] = [0.0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0];

/// Host time per modelled kernel of an eager step searched by [`fit`], microseconds: a
/// kernel's launch (a few) and the Python module and small unmodelled kernels around it
/// (tens; [`HostOverhead`]).
const LAUNCH_GRID_US: [f64; 10] = [0.0, 10.0, 20.0, 30.0, 40.0, 60.0, 80.0, 120.0, 160.0, 240.0];

/// Passes of [`fit`]'s coordinate search over the two grids.
const FIT_PASSES: usize = 2;

/// One engine's fitted host overhead and the development rows' errors before and after.
#[derive(Debug, Serialize)]
pub struct HostFit {
    /// The engine.
    pub framework: &'static str,
    /// Development rows fitted on.
    pub rows: usize,
    /// Seconds per step.
    pub step_s: f64,
    /// Seconds per modelled kernel of an eager step.
    pub launch_s: f64,
    /// Median |TTFT error| + median |TPOT error| with no overhead.
    pub before: f64,
    /// The same with the fitted one.
    pub after: f64,
}

impl HostFit {
    /// The fitted overhead.
    pub fn overhead(&self) -> HostOverhead {
        HostOverhead {
            step: Seconds(self.step_s),
            launch: Seconds(self.launch_s),
            ..HostOverhead::NONE
        }
    }
}

/// Fits each engine's host time per step ([`HostOverhead::step`]) and per modelled kernel
/// of an eager step ([`HostOverhead::launch`]) on the development rows of the sample at
/// `path`: the point of [`STEP_GRID_MS`] x [`LAUNCH_GRID_US`] whose calibrated predictions
/// have the least median |TTFT error| plus median |TPOT error|, found by a coordinate
/// search (each grid in turn with the other held, [`FIT_PASSES`] times). Held-out and
/// frozen rows are never predicted here. The request time stays 0: fitted the same way (a
/// 0-160 ms grid) it took 60 ms for TensorRT-LLM alone, where Llama-3.1-8B's and
/// Qwen3-32B's first tokens come in well under that, so it would stand for DeepSeek's
/// heavier eager steps, not for an API server's time.
pub fn fit(path: &Path) -> Result<Vec<HostFit>> {
    let sample = serving_sample::read(path)?;
    let (jobs, _) = deployments(&sample);
    let mut fits = Vec::new();
    for framework in Framework::ALL {
        let mine: Vec<(Deployment, Vec<&SampleRow>)> = jobs
            .iter()
            .filter(|(d, _)| d.framework == framework && Part::of(d.preset) == Part::Development)
            .cloned()
            .collect();
        if mine.is_empty() {
            continue;
        }
        let score = |h: HostOverhead| -> (f64, usize) {
            let rows: Vec<Predicted> = predict_all(&mine, &[Predictor::Calibrated], &|_| h)
                .into_iter()
                .filter_map(|r| r.ok())
                .collect();
            let s = Scores::of(rows.iter(), Predictor::Calibrated);
            (s.ttft.median + s.tpot.median, rows.len())
        };
        let (before, rows) = score(HostOverhead::NONE);
        let (mut host, mut best) = (HostOverhead::NONE, before);
        // One coordinate at a time: each grid value replaces that coordinate of the best so far.
        type Set = fn(HostOverhead, f64) -> HostOverhead;
        let axes: [(&[f64], Set); 2] = [
            (&STEP_GRID_MS, |h, ms| HostOverhead {
                step: Seconds(ms / 1e3),
                ..h
            }),
            (&LAUNCH_GRID_US, |h, us| HostOverhead {
                launch: Seconds(us / 1e6),
                ..h
            }),
        ];
        for _ in 0..FIT_PASSES {
            for (grid, set) in axes {
                for &value in grid {
                    let tried = set(host, value);
                    let (e, _) = score(tried);
                    if e < best - 1e-9 {
                        (host, best) = (tried, e);
                    }
                }
            }
        }
        fits.push(HostFit {
            framework: framework.key(),
            rows,
            step_s: host.step.get(),
            launch_s: host.launch.get(),
            before,
            after: best,
        });
    }
    Ok(fits)
}

/// The fits as the lines of `HOST_OVERHEADS` in the model crate.
pub fn host_overhead_lines(fits: &[HostFit]) -> String {
    let mut out = String::new();
    for f in fits {
        let framework = match Framework::parse(f.framework) {
            Some(Framework::TensorRtLlm) => "TensorRtLlm",
            Some(Framework::Vllm) => "Vllm",
            Some(Framework::Sglang) => "Sglang",
            None => continue,
        };
        out += &format!(
            "    (\n        Framework::{framework},\n        HostOverhead {{\n            step: Seconds({:e}),\n            launch: Seconds({:e}),\n            ..HostOverhead::NONE\n        }},\n    ),\n",
            f.step_s, f.launch_s
        );
    }
    out
}

/// Runs `validate --serving` (with `fit`: fits the host overheads instead; with `check`,
/// fails where they differ from the shipped ones).
pub fn run(
    path: &Path,
    json: bool,
    fit_hosts: bool,
    check: bool,
    errors: bool,
    runs: bool,
) -> Result<()> {
    if runs {
        let sample = serving_sample::read(path)?;
        print!("{}", runs::write_runs(&measured_runs(&sample)));
        return Ok(());
    }
    if fit_hosts {
        let fits = fit(path)?;
        if check {
            let stale: Vec<String> = fits
                .iter()
                .filter_map(|f| {
                    let framework = Framework::parse(f.framework)?;
                    let shipped = HostOverhead::fitted(framework);
                    (shipped != f.overhead()).then(|| {
                        format!(
                            "{}: shipped {:e} s per step and {:e} s per eager kernel, fitted {:e} and {:e}",
                            f.framework,
                            shipped.step.get(),
                            shipped.launch.get(),
                            f.step_s,
                            f.launch_s
                        )
                    })
                })
                .collect();
            if !stale.is_empty() {
                bail!(
                    "deploy::serving::HOST_OVERHEADS differ from the fit ({}); replace them with:\n{}",
                    stale.join("; "),
                    host_overhead_lines(&fits)
                );
            }
            println!(
                "deploy::serving::HOST_OVERHEADS equal the fit on the development rows ({} engines)",
                fits.len()
            );
            return Ok(());
        }
        if json {
            return super::print_json(&fits);
        }
        for f in &fits {
            println!(
                "{}: {} development rows, median |TTFT error| + median |TPOT error| {:.3} -> {:.3} with {:.2} ms per step and {:.0} us per eager kernel",
                f.framework,
                f.rows,
                f.before,
                f.after,
                f.step_s * 1e3,
                f.launch_s * 1e6
            );
        }
        println!("// deploy/serving/mod.rs, HOST_OVERHEADS:");
        print!("{}", host_overhead_lines(&fits));
        return Ok(());
    }
    let sample = serving_sample::read(path)?;
    let runs_shipped = check.then(|| runs::write_runs(&measured_runs(&sample)) == SHIPPED_RUNS);
    let v = validate(sample)?;
    if check {
        if runs_shipped == Some(false) {
            bail!(
                "web/assets/{} differs from the sample's usable aggregated rows: write it again with `rooflinr validate --serving {} --runs`",
                runs::MEASURED_RUNS_FILE,
                path.display()
            );
        }
        println!(
            "web/assets/{} holds the sample's {} usable aggregated rows of one weights format",
            runs::MEASURED_RUNS_FILE,
            runs::read_runs(SHIPPED_RUNS)?.len()
        );
        let errors = serving_errors(&v);
        if errors.as_slice() != deploy::serving::SERVING_ERRORS {
            bail!(
                "deploy::serving::SERVING_ERRORS differ from what the sample gives; replace them with:\n{}",
                serving_error_lines(&errors)
            );
        }
        println!(
            "deploy::serving::SERVING_ERRORS equal the sample's errors ({} devices and engines)",
            errors.len()
        );
        return Ok(());
    }
    if errors {
        print!("{}", serving_error_lines(&serving_errors(&v)));
        return Ok(());
    }
    if json {
        super::print_json(&v)
    } else {
        print!("{}", markdown(&v));
        Ok(())
    }
}
