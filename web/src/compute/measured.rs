//! NVIDIA's measured serving runs beside a deployment's prediction: those of its model,
//! device, engine, weight format, layout and lengths each with the prediction for its
//! clients, where the others were measured, and the words and table the page shows (made
//! here, in deployment mode's code, so that the page's first module does not carry them).

use rooflinr_model::deploy::serving::runs::MeasuredRun;
use rooflinr_model::deploy::{Layout, Serving, Workload};
use rooflinr_model::format::Format;
use rooflinr_model::kernel_time::Framework;
use rooflinr_model::units::{grouped, si};

/// What a deployment's runs are of.
pub(super) struct Runs<'a> {
    /// The model's preset key.
    pub preset: &'a str,
    /// The device's registry key.
    pub hardware: &'a str,
    /// The engine.
    pub framework: Framework,
    /// The weights' format.
    pub weights: Format,
    /// The layout.
    pub layout: Layout,
    /// The workload (its concurrency is not matched: each run is predicted at its own).
    pub workload: Workload,
}

/// NVIDIA's measured runs of the deployment's model, device, engine and weight format:
/// those of its layout and lengths beside their predictions, and where the others are,
/// with the words the page shows (made here, in deployment mode's code).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// Runs of the same layout, prompt and output, fewest clients first.
    pub here: Vec<MeasuredPoint>,
    /// The other layouts and lengths with runs, most runs first, in words (empty where
    /// there are none).
    pub elsewhere: String,
    /// The table of [`Measured::here`] and the line of [`Measured::elsewhere`] as HTML
    /// (escaped), made here in deployment mode's code so that the page's first module
    /// does not carry their drawing.
    pub html: String,
    /// Where none are of this model, device, engine and format: what the runs cover.
    pub coverage: String,
}

/// A measured run and the prediction for its workload (`None` where the deployment
/// cannot serve it, for example more clients than its memory holds).
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredPoint {
    /// The run.
    pub run: MeasuredRun,
    /// The prediction at its concurrency.
    pub predicted: Option<Serving>,
    /// Its figures and the prediction's, in words.
    pub title: String,
    /// Its row of the table: clients, TTFT measured, predicted and error, TPOT the same.
    pub cells: [String; 7],
}

impl MeasuredPoint {
    fn new(run: MeasuredRun, predicted: Option<Serving>) -> Self {
        let mut p = MeasuredPoint {
            run,
            predicted,
            title: String::new(),
            cells: Default::default(),
        };
        let r = &p.run;
        let measured = format!(
            "{} clients, measured by NVIDIA: first token in {}, {} per output token ({:.1} tokens/s per user, {:.1} per GPU)",
            r.workload.concurrency,
            si(r.ttft.get(), "s"),
            si(r.tpot.get(), "s"),
            r.tokens_per_s_per_user(),
            r.tokens_per_s_per_gpu()
        );
        let percent = |e: f64| format!("{:+.0} %", e * 100.0);
        let (title, predicted_cells) = match (predicted, p.errors()) {
            (Some(s), Some((ttft, tpot))) => (
                format!(
                    "{measured}; predicted {} ({}) and {} ({})",
                    si(s.ttft.get(), "s"),
                    percent(ttft),
                    si(s.tpot.get(), "s"),
                    percent(tpot)
                ),
                [
                    si(s.ttft.get(), "s"),
                    percent(ttft),
                    si(s.tpot.get(), "s"),
                    percent(tpot),
                ],
            ),
            _ => (
                format!("{measured}; the deployment cannot serve that many clients"),
                std::array::from_fn(|_| "-".to_string()),
            ),
        };
        let [pt, et, pp, ep] = predicted_cells;
        p.cells = [
            r.workload.concurrency.to_string(),
            si(r.ttft.get(), "s"),
            pt,
            et,
            si(r.tpot.get(), "s"),
            pp,
            ep,
        ];
        p.title = title;
        p
    }

    /// The prediction's error on TTFT and TPOT, as a share of the measured figure.
    pub fn errors(&self) -> Option<(f64, f64)> {
        let p = self.predicted?;
        let share = |predicted: f64, measured: f64| predicted / measured - 1.0;
        Some((
            share(p.ttft.get(), self.run.ttft.get()),
            share(p.tpot.get(), self.run.tpot.get()),
        ))
    }
}

/// A layout and lengths NVIDIA measured the same model, device, engine and format at, and
/// how many runs (concurrencies).
struct MeasuredShape {
    layout: Layout,
    prompt: u64,
    output: u64,
    runs: usize,
}

/// [`Measured::html`]: the table of the runs `here` beside their predictions, then the
/// line of the layouts and lengths measured `elsewhere`.
fn measured_html(here: &[MeasuredPoint], elsewhere: &str, layout: Layout, w: Workload) -> String {
    use rooflinr_report::report::svg::esc;
    let mut html = String::new();
    if !here.is_empty() {
        let caption = format!(
            "NVIDIA's measured runs of {layout} at {} prompt and {} output tokens, beside this page's prediction for the same clients",
            grouped(w.prompt as f64),
            grouped(w.output as f64)
        );
        html += &format!(
            "<div class=\"table-wrap\"><table class=\"data measured-runs\"><caption>{}</caption><thead><tr>",
            esc(&caption)
        );
        for c in MEASURED_COLUMNS {
            html += &format!("<th scope=\"col\" class=\"num\">{c}</th>");
        }
        html += "</tr></thead><tbody>";
        for p in here {
            html += "<tr>";
            for c in &p.cells {
                html += &format!("<td class=\"num\">{}</td>", esc(c));
            }
            html += "</tr>";
        }
        html += "</tbody></table></div>";
    }
    if !elsewhere.is_empty() {
        html += &format!("<p class=\"hint\">{}</p>", esc(elsewhere));
    }
    html
}

/// The columns of the measured runs' table.
pub const MEASURED_COLUMNS: [&str; 7] = [
    "clients",
    "TTFT measured",
    "predicted",
    "error",
    "TPOT measured",
    "predicted",
    "error",
];

/// How [`Measured::elsewhere`] begins.
fn measured_at(none_here: bool) -> &'static str {
    if none_here {
        "NVIDIA measured this model, device, engine and format at other layouts or lengths (set them to see the runs)"
    } else {
        "Also measured at"
    }
}

/// The layouts and lengths of measured runs named in [`Measured::elsewhere`].
const MEASURED_SHAPES: usize = 8;

/// The runs of `of` among `runs`, each with `predict` at its workload.
pub(super) fn beside(
    runs: &[MeasuredRun],
    of: Runs<'_>,
    predict: impl Fn(Workload) -> Option<Serving>,
) -> Measured {
    let mut here = Vec::new();
    let mut elsewhere: Vec<MeasuredShape> = Vec::new();
    let (layout, workload) = (of.layout, of.workload);
    for r in runs
        .iter()
        .filter(|r| r.is_of(of.preset, of.hardware, of.framework, of.weights))
    {
        let w = r.workload;
        if r.layout == layout && w.prompt == workload.prompt && w.output == workload.output {
            here.push(MeasuredPoint::new(r.clone(), predict(w)));
        } else if let Some(s) = elsewhere
            .iter_mut()
            .find(|s| s.layout == r.layout && s.prompt == w.prompt && s.output == w.output)
        {
            s.runs += 1;
        } else {
            elsewhere.push(MeasuredShape {
                layout: r.layout,
                prompt: w.prompt,
                output: w.output,
                runs: 1,
            });
        }
    }
    rooflinr_model::sort::sort_by_key(&mut here, |p| p.run.workload.concurrency);
    // Most runs first; a stable sort keeps the sample's order among equals.
    rooflinr_model::sort::sort_by_key(&mut elsewhere, |s| std::cmp::Reverse(s.runs));
    let shapes: Vec<String> = elsewhere
        .iter()
        .take(MEASURED_SHAPES)
        .map(|s| {
            format!(
                "{} at {} → {} tokens ({} run{})",
                s.layout,
                grouped(s.prompt as f64),
                grouped(s.output as f64),
                s.runs,
                if s.runs == 1 { "" } else { "s" }
            )
        })
        .collect();
    let elsewhere = match elsewhere.len().saturating_sub(MEASURED_SHAPES) {
        _ if shapes.is_empty() => String::new(),
        0 => format!("{}: {}.", measured_at(here.is_empty()), shapes.join("; ")),
        more => format!(
            "{}: {}; and {more} more.",
            measured_at(here.is_empty()),
            shapes.join("; ")
        ),
    };
    let html = measured_html(&here, &elsewhere, layout, workload);
    let coverage = if here.is_empty() && elsewhere.is_empty() && !runs.is_empty() {
        let mut models: Vec<&str> = Vec::new();
        let mut devices: Vec<&str> = Vec::new();
        for r in runs {
            if !models.contains(&r.preset.as_str()) {
                models.push(&r.preset);
            }
            if !devices.contains(&r.hardware.as_str()) {
                devices.push(&r.hardware);
            }
        }
        format!(
            "NVIDIA's measured serving sample has no runs of this model on this device with this engine and weight format; it has runs of {} on {}.",
            models.join(", "),
            devices.join(", ")
        )
    } else {
        String::new()
    };
    Measured {
        here,
        elsewhere,
        html,
        coverage,
    }
}

/// Disaggregated serving: the runs shipped with the page are NVIDIA's aggregated ones, so
/// none is beside these workers; the coverage line says so and where the sample's
/// disaggregated rows are held against the model.
pub(super) fn disaggregated() -> Measured {
    Measured {
        coverage: "No measured runs beside disaggregated workers: the runs this page ships are NVIDIA's aggregated ones. `rooflinr validate --serving` holds the sample's disaggregated rows against the same model.".into(),
        ..Measured::default()
    }
}
