//! A serving benchmark's result file the user imported (`vllm bench serve`, SGLang's
//! `bench_serving`, GuideLLM, GenAI-Perf: [`rooflinr_report::import::serving`]), each run
//! beside the page's simulation of the same benchmark (its clients or request rate, its
//! requests and lengths, from a cold start, as `rooflinr deploy --measured FILE` runs it)
//! on the page's layout, device, engine and formats.

use rooflinr_model::deploy::energy::{GpuPower, WindowEnergy};
use rooflinr_model::deploy::{Benchmark, BenchmarkRun, Latency};
use rooflinr_model::units::si;
use rooflinr_report::import::energy::{self, EnergyBeside};
use rooflinr_report::import::serving::{
    Measured, RunPoint, ServingRuns, error_text, predicted_text,
};

/// An imported file as the page keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedRuns {
    /// The file's name.
    pub name: String,
    /// What it holds.
    pub runs: ServingRuns,
}

/// One run of the file and the page's prediction for it.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedPoint {
    /// The run.
    pub point: RunPoint,
    /// The simulation of its benchmark (`None`: it cannot be simulated here, as the
    /// table says).
    pub predicted: Option<BenchmarkRun>,
    /// Measured output tokens/s per GPU (the file's throughput over the page's GPUs).
    pub per_gpu: Option<f64>,
    /// Its figures and the prediction's, in words.
    pub title: String,
    /// Its row of the table ([`IMPORTED_COLUMNS`]).
    pub cells: [String; 8],
}

/// The columns of the imported runs' table.
pub const IMPORTED_COLUMNS: [&str; 8] = [
    "load",
    "in / out",
    "TTFT measured",
    "predicted",
    "TPOT measured",
    "predicted",
    "per GPU measured",
    "predicted",
];

impl ImportedPoint {
    /// Measured output tokens/s per user: one over the mean TPOT, where the file has one.
    pub fn per_user(&self) -> Option<f64> {
        self.point
            .tpot
            .filter(|m| m.value.get() > 0.0)
            .map(|m| 1.0 / m.value.get())
    }

    /// The simulation's output tokens/s per user (one over its mean TPOT) and per GPU.
    pub fn predicted_point(&self, gpus: u32) -> Option<(f64, f64)> {
        let r = self.predicted?;
        (r.tpot.mean.get() > 0.0).then(|| {
            (
                1.0 / r.tpot.mean.get(),
                r.output_tokens_per_s / f64::from(gpus),
            )
        })
    }
}

/// The imported runs beside the deployment, and their table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Imported {
    /// The runs, in the file's order.
    pub points: Vec<ImportedPoint>,
    /// The file's name and who wrote it.
    pub caption: String,
    /// What each run's simulation assumed or why it could not run, in words.
    pub notes: Vec<String>,
    /// The table as HTML (escaped).
    pub html: String,
}

fn latency(m: Option<Measured>) -> String {
    m.map_or("not in file".into(), |m| m.to_string())
}

fn predicted_latency(run: Option<&Latency>, m: Option<Measured>) -> String {
    run.map_or("-".into(), |run| predicted_text(m, run))
}

/// The runs of `file` beside `simulate`'s run of each one's benchmark, on a deployment of
/// `gpus` GPUs; `simulate` says why where it cannot run one.
pub(super) fn beside(
    file: &ImportedRuns,
    gpus: u32,
    mut simulate: impl FnMut(&Benchmark) -> Result<BenchmarkRun, String>,
) -> Imported {
    use rooflinr_report::report::svg::esc;
    let runs = &file.runs;
    let mut html =
        String::from("<div class=\"table-wrap\"><table class=\"data imported-runs\"><thead><tr>");
    for c in IMPORTED_COLUMNS {
        html += &format!("<th scope=\"col\" class=\"num\">{c}</th>");
    }
    html += "</tr></thead><tbody>";
    let mut points = Vec::with_capacity(runs.points.len());
    let mut notes: Vec<String> = Vec::new();
    for (i, p) in runs.points.iter().enumerate() {
        let simulated = p
            .reproduction(1.0, 0.0)
            .and_then(|r| {
                notes.extend(r.assumed.iter().map(|a| format!("run {}: {a}", i + 1)));
                simulate(&r.benchmark)
            })
            .map_err(|e| notes.push(format!("run {} not simulated: {e}", i + 1)))
            .ok();
        let per_gpu = p.output_tokens_per_s.map(|t| t / f64::from(gpus));
        let load = p.load.map_or("not stated".into(), |l| l.to_string());
        let cells = [
            load.clone(),
            format!("{:.0} / {:.0}", p.prompt_tokens, p.output_tokens),
            latency(p.ttft),
            predicted_latency(simulated.as_ref().map(|r| &r.ttft), p.ttft),
            latency(p.tpot),
            predicted_latency(simulated.as_ref().map(|r| &r.tpot), p.tpot),
            per_gpu.map_or("not in file".into(), |t| format!("{t:.1}")),
            match (
                simulated.map(|r| r.output_tokens_per_s / f64::from(gpus)),
                per_gpu,
            ) {
                (Some(s), Some(m)) => format!("{s:.1} ({})", error_text(s, m)),
                (Some(s), None) => format!("{s:.1}"),
                (None, _) => "-".into(),
            },
        ];
        html += "<tr>";
        for c in &cells {
            html += &format!("<td class=\"num\">{}</td>", esc(c));
        }
        html += "</tr>";
        let title = format!(
            "{load}, measured ({}): first token {}, {} per output token; predicted {}",
            runs.client.name(),
            cells[2],
            cells[4],
            match simulated {
                Some(r) => format!(
                    "{} and {} (means of a simulated run)",
                    si(r.ttft.mean.get(), "s"),
                    si(r.tpot.mean.get(), "s")
                ),
                None => "none".into(),
            }
        );
        points.push(ImportedPoint {
            point: p.clone(),
            predicted: simulated,
            per_gpu,
            title,
            cells,
        });
    }
    html += "</tbody></table></div>";
    for n in &notes {
        html += &format!("<p class=\"hint\">{}</p>", esc(n));
    }
    let caption = format!(
        "{}: {} run{} measured by {}{}, each beside a simulation of the same benchmark on this deployment: its clients or rate, requests and lengths, from a cold start (as `rooflinr deploy --measured {}` runs it).",
        file.name,
        points.len(),
        if points.len() == 1 { "" } else { "s" },
        runs.client.name(),
        runs.model
            .as_ref()
            .map_or(String::new(), |m| format!(" of {m}")),
        file.name
    );
    Imported {
        points,
        caption,
        notes,
        html,
    }
}

/// The file's one run beside `window` (the paired host's energy counters over the user's
/// window), on a deployment of `gpus` GPUs whose board power is `board`; refused where the
/// file holds more than one run: one window holds one run.
pub fn energy_beside(
    imported: &Imported,
    gpus: u32,
    board: Option<&GpuPower>,
    window: WindowEnergy,
) -> Result<EnergyBeside, String> {
    let [p] = imported.points.as_slice() else {
        return Err(format!(
            "the file holds {} runs and an energy window holds one: import the file of the run the window was open for",
            imported.points.len()
        ));
    };
    energy::energy_beside(&p.point, p.predicted.as_ref(), gpus, board, window)
}
