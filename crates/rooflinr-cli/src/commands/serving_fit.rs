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
/// `web/assets/measured-serving-runs.csv` holds them.
pub fn measured_runs(sample: &serving_sample::Sample) -> Vec<MeasuredRun> {
    sample
        .usable
        .iter()
        .filter_map(|r| {
            let serving_sample::Serving::Aggregated(l) = r.serving else {
                return None;
            };
            Some(MeasuredRun {
                model: r.model.clone(),
                preset: runs::architecture(r.preset).to_string(),
                hardware: r.hardware.to_string(),
                framework: r.framework,
                layout: deploy::Layout {
                    tensor: l.tp,
                    pipeline: l.pp,
                    data: l.dp,
                    expert: l.ep,
                },
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

/// One engine's fitted host overhead and the development rows' errors before and after.
#[derive(Debug, Serialize)]
pub struct HostFit {
    /// The engine.
    pub framework: &'static str,
    /// Development rows fitted on.
    pub rows: usize,
    /// Seconds per step.
    pub step_s: f64,
    /// Median |TTFT error| + median |TPOT error| with no overhead.
    pub before: f64,
    /// The same with the fitted one.
    pub after: f64,
}

/// Fits each engine's host time per step ([`HostOverhead::step`]) on the development rows
/// of the sample at `path`: the point of [`STEP_GRID_MS`] whose calibrated predictions have
/// the least median |TTFT error| plus median |TPOT error|. Held-out and frozen rows are
/// never predicted here. The launch and request times stay 0: fitted the same way (20 us
/// and 30 ms grids) they ended at their grids' ends for every engine, so they would stand
/// for what else the rows' time to first token holds, not for a host's time.
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
        let (mut step, mut best) = (0.0, before);
        for &ms in &STEP_GRID_MS {
            let (e, _) = score(HostOverhead {
                step: Seconds(ms * 1e-3),
                ..HostOverhead::NONE
            });
            if e < best - 1e-9 {
                (step, best) = (ms, e);
            }
        }
        fits.push(HostFit {
            framework: framework.key(),
            rows,
            step_s: step * 1e-3,
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
            "    (\n        Framework::{framework},\n        HostOverhead {{\n            step: Seconds({:e}),\n            ..HostOverhead::NONE\n        }},\n    ),\n",
            f.step_s
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
                    let shipped = HostOverhead::fitted(framework).step.get();
                    (shipped != f.step_s).then(|| {
                        format!(
                            "{}: shipped {shipped:e} s per step, fitted {:e}",
                            f.framework, f.step_s
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
                "{}: {} development rows, median |TTFT error| + median |TPOT error| {:.3} -> {:.3} with {:.2} ms per step",
                f.framework,
                f.rows,
                f.before,
                f.after,
                f.step_s * 1e3
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
            "web/assets/{} holds the sample's {} usable aggregated rows",
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
