//! `rooflinr deploy --measured FILE`: a serving benchmark's measured runs (vLLM's, SGLang's,
//! GuideLLM's or GenAI-Perf's result file) beside rooflinr's simulation of the same
//! benchmark on the layout given: the same clients, requests and lengths, each run's error
//! of TTFT, TPOT and output throughput.

use std::path::Path;

use anyhow::{Context as _, Result, bail};
use rooflinr_model::analysis::Scenario;
use rooflinr_model::config::ModelConfig;
use rooflinr_model::deploy::energy::GpuPower;
use rooflinr_model::deploy::{
    BenchmarkRun, DeployOptions, Latency, Layout, Simulator, serving_error,
};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::roofline::Efficiency;
use rooflinr_model::units::si;
use rooflinr_report::import::energy::{EnergyFile, energy_beside};
use rooflinr_report::import::serving::{
    Load, Measured, Reproduction, ServingRuns, Statistic, error_text, import_serving,
    predicted_text,
};
use serde::Serialize;

use super::deploy::{Args, BENCHMARK_KIND, kind};
use crate::table;

/// One run: what the file says and what the simulation gives.
#[derive(Serialize)]
struct Compared {
    load: String,
    requests: u64,
    requests_counted_by_file: bool,
    prompt_tokens: f64,
    output_tokens: f64,
    measured_ttft_s: Option<f64>,
    measured_ttft_statistic: Option<&'static str>,
    predicted_ttft_s: f64,
    measured_tpot_s: Option<f64>,
    measured_tpot_statistic: Option<&'static str>,
    predicted_tpot_s: f64,
    measured_median_itl_s: Option<f64>,
    measured_output_tokens_per_s: Option<f64>,
    predicted_output_tokens_per_s: f64,
    notes: Vec<String>,
    #[serde(skip)]
    ttft: Option<Measured>,
    #[serde(skip)]
    tpot: Option<Measured>,
    #[serde(skip)]
    simulated: BenchmarkRun,
}

#[derive(Serialize)]
struct MeasuredJson {
    model: String,
    hardware: String,
    layout: String,
    file: String,
    client: &'static str,
    file_model: Option<String>,
    file_backend: Option<String>,
    measured: &'static str,
    predicted: &'static str,
    runs: Vec<Compared>,
    /// The measured energy per output token of the file's run (`--energy`).
    energy: Option<EnergyJson>,
}

/// `--energy`: the window's joules over the run's tokens, beside the simulation's.
#[derive(Serialize)]
struct EnergyJson {
    kind: &'static str,
    file: String,
    joules: f64,
    seconds: f64,
    gpus: u32,
    watts_per_gpu: f64,
    output_tokens: f64,
    measured_joules_per_output_token: f64,
    predicted_joules_per_output_token_at_measured_power: Option<f64>,
    predicted_joules_per_output_token_at_board_power: Option<f64>,
    notes: Vec<String>,
    #[serde(skip)]
    sentence: String,
}

/// The energy window of `path` beside the file's one run.
fn energy(
    path: &Path,
    runs: &ServingRuns,
    compared: &[Compared],
    hw: &Hardware,
    layout: Layout,
) -> Result<EnergyJson> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let (_, window) = EnergyFile::read(&text)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("reading {}", path.display()))?;
    let ([run], [c]) = (runs.points.as_slice(), compared) else {
        bail!(
            "--energy {}: the file holds {} runs and an energy window holds one; give the result file of the run it was recorded around",
            path.display(),
            runs.points.len()
        );
    };
    let board = GpuPower::board(hw);
    let b = energy_beside(
        run,
        Some(&c.simulated),
        layout.gpus(),
        board.as_ref(),
        window,
    )
    .map_err(anyhow::Error::msg)?;
    Ok(EnergyJson {
        kind: "measured: the GPUs' NVML energy counters over the window, over the run's output tokens",
        file: path.display().to_string(),
        joules: b.window.joules,
        seconds: b.window.seconds,
        gpus: b.window.gpus,
        watts_per_gpu: b.window.watts_per_gpu(),
        output_tokens: b.tokens,
        measured_joules_per_output_token: b.measured,
        predicted_joules_per_output_token_at_measured_power: b.predicted_at_measured_power,
        predicted_joules_per_output_token_at_board_power: b.predicted_board,
        sentence: b.sentence(),
        notes: b.notes,
    })
}

fn load_text(load: Option<Load>) -> String {
    load.map_or("not stated".into(), |l| l.to_string())
}

/// The simulated latency of the statistic the file measured (the mean where it has none).
fn predicted(m: Option<Measured>, run: &Latency) -> f64 {
    m.map_or(Statistic::Mean, |m| m.statistic).of(run).get()
}

/// The two cells of a latency: measured (with its statistic) and predicted (with its error).
fn latency_cells(m: Option<Measured>, simulated: &Latency) -> [String; 2] {
    [
        m.map_or("not in file".into(), |m| m.to_string()),
        predicted_text(m, simulated),
    ]
}

/// Runs `deploy --measured`.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    args: &Args,
    path: &Path,
    config: &ModelConfig,
    hw: &Hardware,
    scenario: &Scenario,
    efficiency: &Efficiency,
    options: &DeployOptions,
    layout: Layout,
) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let runs: ServingRuns =
        import_serving(&text).with_context(|| format!("reading {}", path.display()))?;
    let mut sim = Simulator::new(config, hw, scenario, efficiency, layout, options)?;
    let mut compared = Vec::with_capacity(runs.points.len());
    for (i, p) in runs.points.iter().enumerate() {
        let Reproduction { benchmark, assumed } = p
            .reproduction(args.length_floor, args.prefix_hit)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("run {} of {}", i + 1, path.display()))?;
        let r: BenchmarkRun = sim
            .run(&benchmark)
            .with_context(|| format!("simulating run {} of {}", i + 1, path.display()))?;
        compared.push(Compared {
            load: load_text(p.load),
            requests: benchmark.requests,
            requests_counted_by_file: p.requests.is_some(),
            prompt_tokens: p.prompt_tokens,
            output_tokens: p.output_tokens,
            measured_ttft_s: p.ttft.map(|m| m.value.get()),
            measured_ttft_statistic: p.ttft.map(|m| m.statistic.name()),
            predicted_ttft_s: predicted(p.ttft, &r.ttft),
            measured_tpot_s: p.tpot.map(|m| m.value.get()),
            measured_tpot_statistic: p.tpot.map(|m| m.statistic.name()),
            predicted_tpot_s: predicted(p.tpot, &r.tpot),
            measured_median_itl_s: p.itl_median.map(|s| s.get()),
            measured_output_tokens_per_s: p.output_tokens_per_s,
            predicted_output_tokens_per_s: r.output_tokens_per_s,
            notes: assumed,
            ttft: p.ttft,
            tpot: p.tpot,
            simulated: r,
        });
    }
    let energy = args
        .energy
        .as_deref()
        .map(|p| energy(p, &runs, &compared, hw, layout))
        .transpose()?;
    let out = MeasuredJson {
        model: config.name.clone(),
        hardware: hw.key.clone(),
        layout: layout.to_string(),
        file: path.display().to_string(),
        client: runs.client.name(),
        file_model: runs.model.clone(),
        file_backend: runs.backend.clone(),
        measured: "measured: the benchmark client's own figures, as the file gives them",
        predicted: BENCHMARK_KIND,
        runs: compared,
        energy,
    };
    if args.json {
        return super::print_json(&out);
    }
    print_table(args, &out);
    Ok(())
}

fn print_table(args: &Args, out: &MeasuredJson) {
    println!(
        "{}: {} run(s) written by {}{}{}",
        out.file,
        out.runs.len(),
        out.client,
        out.file_model
            .as_ref()
            .map(|m| format!(", model {m}"))
            .unwrap_or_default(),
        out.file_backend
            .as_ref()
            .map(|b| format!(", backend {b}"))
            .unwrap_or_default(),
    );
    println!(
        "beside {} on {} ({}), {} | {}\n",
        out.model,
        out.hardware,
        out.layout,
        kind(args),
        out.predicted
    );
    let mut t = table::new(
        &[
            "load",
            "requests",
            "prompt / output",
            "TTFT measured",
            "TTFT predicted",
            "TPOT measured",
            "TPOT predicted",
            "output tok/s measured",
            "output tok/s predicted",
        ],
        1,
    );
    let mut notes = Vec::new();
    for (i, c) in out.runs.iter().enumerate() {
        let ttft = latency_cells(c.ttft, &c.simulated.ttft);
        let mut tpot = latency_cells(c.tpot, &c.simulated.tpot);
        if c.measured_tpot_s.is_none()
            && let Some(itl) = c.measured_median_itl_s
        {
            tpot[0] = format!("not in file (median ITL {})", si(itl, "s"));
        }
        t.add_row(vec![
            c.load.clone(),
            format!(
                "{}{}",
                c.requests,
                if c.requests_counted_by_file { "" } else { "*" }
            ),
            format!("{:.0} / {:.0}", c.prompt_tokens, c.output_tokens),
            ttft[0].clone(),
            ttft[1].clone(),
            tpot[0].clone(),
            tpot[1].clone(),
            c.measured_output_tokens_per_s
                .map_or("not in file".into(), |t| format!("{t:.1}")),
            match c.measured_output_tokens_per_s {
                Some(m) => format!(
                    "{:.1} ({})",
                    c.predicted_output_tokens_per_s,
                    error_text(c.predicted_output_tokens_per_s, m)
                ),
                None => format!("{:.1}", c.predicted_output_tokens_per_s),
            },
        ]);
        notes.extend(c.notes.iter().map(|n| format!("run {}: {n}", i + 1)));
    }
    table::print(&t);
    if let Some(e) = &out.energy {
        println!("energy ({}): {}\n", e.file, e.sentence);
    }
    for n in &notes {
        println!("note: {n}");
    }
    if out
        .runs
        .iter()
        .any(|c| c.tpot.is_none() && c.measured_median_itl_s.is_some())
    {
        println!(
            "note: a median inter-token latency is every gap between two tokens, whose median \
             skips the steps that carry prompt chunks; it is not TPOT and is not compared"
        );
    }
    if let Some(model) = &out.file_model
        && !same_model(model, &out.model)
    {
        println!(
            "note: the file names {model}; the prediction is for {} as given",
            out.model
        );
    }
    if args.calibrated {
        match serving_error(&out.hardware, args.framework()) {
            Some(e) => println!(
                "how far to trust the prediction: on NVIDIA's measured runs of {} with {} \
                 (held out), its median error was {:.1} % on TTFT and {:.1} % on TPOT over {} runs",
                e.hardware,
                e.framework.name(),
                e.ttft_median_pct,
                e.tpot_median_pct,
                e.rows
            ),
            None => println!(
                "how far to trust the prediction: NVIDIA's sample has no measured runs of {} with {}",
                out.hardware,
                args.framework().name()
            ),
        }
    } else {
        println!(
            "the prediction is the bound; add --calibrated --framework ENGINE for the expected figure"
        );
    }
}

/// Whether a file's model name (`Qwen/Qwen3-32B`, `meta/llama3-8b-instruct`) is the model
/// analysed: the same last path segment, case aside.
fn same_model(file: &str, analysed: &str) -> bool {
    let last = |s: &str| s.rsplit('/').next().unwrap_or(s).to_ascii_lowercase();
    last(file) == last(analysed)
}
