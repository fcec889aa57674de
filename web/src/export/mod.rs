//! Exports of what the calculator shows: tables as CSV and JSON, and a Markdown report.
//! Pure text generation; the browser glue in [`crate::browser`] turns it into downloads.
//! Every export says that its figures are roofline predictions, not measurements.

use rooflinr_model::deploy::record::{DeploymentRecord, ServingPoint};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::ops::Precision;
use rooflinr_model::units::{grouped, si};
use serde_json::{Value, json};

use crate::compute::{DeployView, DeviceRow, ModelView, OperatorView};

/// What every export says about where its numbers come from.
pub const PROVENANCE: &str = "predicted by the roofline model (rooflinr), not measured";

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = header.join(",");
    out.push('\n');
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| csv_field(c)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

fn precision_json(p: &Precision) -> Value {
    json!({
        "activations": p.activations.name(),
        "weights": p.weights.name(),
        "kv": p.kv.name(),
        "output": p.output.name(),
    })
}

const RANK_HEADER: [&str; 9] = [
    "format",
    "time_s",
    "flops",
    "bytes",
    "intensity_flop_per_byte",
    "bound",
    "runs_as",
    "speedup_vs_fp16",
    "bytes_saved_vs_fp16",
];

fn rank_rows(view: &OperatorView) -> Vec<Vec<String>> {
    view.ranking
        .iter()
        .map(|r| {
            let p = &r.result.prediction;
            vec![
                r.format.name(),
                format!("{:e}", p.time.get()),
                format!("{}", r.result.cost.work.flops.get()),
                format!("{}", r.result.cost.work.bytes.get()),
                format!("{:.4}", p.intensity.get()),
                p.bound.name().to_string(),
                r.result.ceiling.executed_as.name().to_string(),
                format!("{:.4}", r.speedup),
                format!("{:.4}", r.bytes_saved),
            ]
        })
        .collect()
}

/// The operator ranking as CSV.
pub fn operator_csv(view: &OperatorView) -> String {
    csv(&RANK_HEADER, &rank_rows(view))
}

/// The operator analysis as JSON.
pub fn operator_json(hw: &Hardware, view: &OperatorView) -> Value {
    let p = &view.result.prediction;
    json!({
        "kind": PROVENANCE,
        "hardware": hw.key,
        "operator": view.name,
        "shape": format!("{:?}", view.op),
        "precision": precision_json(&view.precision),
        "time_s": p.time.get(),
        "intensity": p.intensity.get(),
        "bound": p.bound.name(),
        "ranking": view.ranking.iter().map(|r| json!({
            "format": r.format.name(),
            "precision": precision_json(&r.precision),
            "time_s": r.result.prediction.time.get(),
            "flops": r.result.cost.work.flops.get(),
            "bytes": r.result.cost.work.bytes.get(),
            "intensity": r.result.prediction.intensity.get(),
            "bound": r.result.prediction.bound.name(),
            "runs_as": r.result.ceiling.executed_as.name(),
            "speedup_vs_fp16": r.speedup,
            "bytes_saved_vs_fp16": r.bytes_saved,
        })).collect::<Vec<_>>(),
    })
}

const MODEL_HEADER: [&str; 10] = [
    "operator",
    "count",
    "flops",
    "bytes",
    "intensity_flop_per_byte",
    "bound",
    "runs_as",
    "time_s",
    "share",
    "shape",
];

fn model_rows(view: &ModelView) -> Vec<Vec<String>> {
    view.analysis
        .ops
        .iter()
        .map(|r| {
            vec![
                r.name().to_string(),
                format!("{}", r.count),
                format!("{}", r.flops().get()),
                format!("{}", r.bytes().get()),
                format!("{:.4}", r.result.prediction.intensity.get()),
                r.bound().name().to_string(),
                r.result.ceiling.executed_as.name().to_string(),
                format!("{:e}", r.time.get()),
                format!("{:.4}", r.share),
                format!("{:?}", r.op),
            ]
        })
        .collect()
}

/// The per-operator table of a model analysis as CSV.
pub fn model_csv(view: &ModelView) -> String {
    csv(&MODEL_HEADER, &model_rows(view))
}

/// A comparison's devices as JSON, one object each (the first is the chosen device).
fn comparison_json(rows: &[DeviceRow]) -> Value {
    Value::Array(
        rows.iter()
            .map(|r| {
                let a = &r.analysis;
                json!({
                    "hardware": r.hardware.key,
                    "time_s": a.time.get(),
                    "tokens_per_s": a.tokens_per_s,
                    "expected_time_s": (r.calibrated.calibrated_ops > 0).then_some(r.calibrated.time_s),
                    "memory_required_bytes": a.memory.required.get(),
                    "memory_capacity_bytes": a.memory.capacity.get(),
                    "fits": a.memory.fits,
                    "memory_bound_share": a.memory_bound_share(),
                    "slowest_op": a.slowest_op().map(|o| o.name()),
                })
            })
            .collect(),
    )
}

/// A model analysis as JSON, with the side-by-side devices when there are any.
pub fn model_json(hw: &Hardware, view: &ModelView, comparison: &[DeviceRow]) -> Value {
    let mut out = model_analysis_json(hw, view);
    if !comparison.is_empty() {
        out["comparison"] = comparison_json(comparison);
    }
    out
}

fn model_analysis_json(hw: &Hardware, view: &ModelView) -> Value {
    let a = &view.analysis;
    json!({
        "kind": PROVENANCE,
        "hardware": hw.key,
        "model": view.config.name,
        "phase": view.scenario.phase.name(),
        "batch": view.scenario.batch,
        "seq": view.scenario.seq,
        "precision": precision_json(&view.scenario.precision),
        "time_s": a.time.get(),
        "tokens_per_s": a.tokens_per_s,
        "flops": a.work.flops.get(),
        "bytes": a.work.bytes.get(),
        "params_total": a.params.total,
        "params_active": a.params.active,
        "weight_bytes": a.weight_bytes.get(),
        "kv_cache_bytes": a.kv_cache_bytes.get(),
        "memory_required_bytes": a.memory.required.get(),
        "memory_capacity_bytes": a.memory.capacity.get(),
        "fits": a.memory.fits,
        "kv_crossover_tokens": a.kv_crossover_tokens,
        "ops": a.ops.iter().map(|r| json!({
            "name": r.name(),
            "count": r.count,
            "flops": r.flops().get(),
            "bytes": r.bytes().get(),
            "intensity": r.result.prediction.intensity.get(),
            "bound": r.bound().name(),
            "runs_as": r.result.ceiling.executed_as.name(),
            "time_s": r.time.get(),
            "share": r.share,
        })).collect::<Vec<_>>(),
    })
}

fn md_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n", header.join(" | "));
    out.push_str(&format!(
        "|{}\n",
        header.iter().map(|_| " --- |").collect::<String>()
    ));
    for row in rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out
}

fn hardware_md(hw: &Hardware) -> String {
    let mut out = format!(
        "## Hardware: {}\n\n- memory: {} at {} ({}; {})\n",
        hw.name,
        hw.memory_capacity.value,
        hw.memory_bandwidth.value,
        hw.memory_type,
        hw.memory_bandwidth.source
    );
    for p in &hw.peaks {
        out.push_str(&format!(
            "- {}: {} dense, ridge {:.0} FLOP/B ({})\n",
            p.math.name(),
            p.rate.value,
            (p.rate.value / hw.memory_bandwidth.value).get(),
            p.rate.source
        ));
    }
    out
}

/// A Markdown report of an operator analysis, with a link that reproduces it.
pub fn operator_markdown(hw: &Hardware, view: &OperatorView, link: &str) -> String {
    let p = &view.result.prediction;
    let rows: Vec<Vec<String>> = view
        .ranking
        .iter()
        .map(|r| {
            vec![
                r.format.name(),
                si(r.result.prediction.time.get(), "s"),
                format!("{:.2}", r.result.prediction.intensity.get()),
                r.result.prediction.bound.name().into(),
                format!("{:.2}x", r.speedup),
                format!("{:.0}%", r.bytes_saved * 100.0),
            ]
        })
        .collect();
    format!(
        "# rooflinr: {name} on {hw}\n\n_{PROVENANCE}._ [Open this analysis]({link})\n\n\
         {hardware}\n## {name} {shape:?}\n\n\
         With activations {a}, weights {w}, KV {kv}, output {o}: **{time}**, intensity {ai:.2} FLOP/B, \
         {bound}-bound (ridge {ridge:.0} FLOP/B).\n\n## Every format\n\n{table}",
        name = view.name,
        hw = hw.name,
        hardware = hardware_md(hw),
        shape = view.op,
        a = view.precision.activations,
        w = view.precision.weights,
        kv = view.precision.kv,
        o = view.precision.output,
        time = si(p.time.get(), "s"),
        ai = p.intensity.get(),
        bound = p.bound.name(),
        ridge = p.ridge.get(),
        table = md_table(
            &[
                "format",
                "time",
                "FLOP/B",
                "bound",
                "speed-up vs FP16",
                "bytes saved"
            ],
            &rows
        ),
    )
}

/// The comparison's rows as they are shown: device, time, tokens/s, memory, what binds.
pub fn comparison_rows(rows: &[DeviceRow]) -> Vec<Vec<String>> {
    let first = rows.first().map_or(0.0, |r| r.analysis.time.get());
    rows.iter()
        .map(|r| {
            let a = &r.analysis;
            vec![
                r.hardware.name.clone(),
                si(a.time.get(), "s"),
                format!("{:.1}", a.tokens_per_s),
                format!("{:.2}x", first / a.time.get()),
                format!(
                    "{} of {}{}",
                    a.memory.required,
                    a.memory.capacity,
                    if a.memory.fits { "" } else { ", does not fit" }
                ),
                format!(
                    "{:.0}% memory-bound; slowest {}",
                    a.memory_bound_share() * 100.0,
                    a.slowest_op().map_or("-", |o| o.name())
                ),
            ]
        })
        .collect()
}

/// Headers of [`comparison_rows`].
pub const COMPARISON_HEADER: [&str; 6] = [
    "device",
    "time per pass",
    "tokens/s",
    "speed vs first",
    "memory",
    "what binds",
];

/// A Markdown report of a model analysis, with a link that reproduces it, and the
/// side-by-side devices when there are any.
pub fn model_markdown(
    hw: &Hardware,
    view: &ModelView,
    link: &str,
    comparison: &[DeviceRow],
) -> String {
    let mut out = model_analysis_markdown(hw, view, link);
    if !comparison.is_empty() {
        out.push_str(&format!(
            "\n## Side by side (predicted, roofline bound)\n\n{}",
            md_table(&COMPARISON_HEADER, &comparison_rows(comparison))
        ));
    }
    out
}

fn model_analysis_markdown(hw: &Hardware, view: &ModelView, link: &str) -> String {
    let a = &view.analysis;
    let s = &view.scenario;
    let rows: Vec<Vec<String>> = a
        .ops
        .iter()
        .map(|r| {
            vec![
                r.name().to_string(),
                format!("{}", r.count),
                si(r.flops().get(), "FLOP"),
                si(r.bytes().get(), "B"),
                format!("{:.2}", r.result.prediction.intensity.get()),
                r.bound().name().into(),
                si(r.time.get(), "s"),
                format!("{:.1}%", r.share * 100.0),
            ]
        })
        .collect();
    format!(
        "# rooflinr: {model} on {hw}\n\n_{PROVENANCE}._ [Open this analysis]({link})\n\n\
         {hardware}\n## Scenario\n\n- {phase}, batch {batch}, {seq} tokens\n\
         - weights {w}, activations {act}, KV cache {kv}\n\n## Result\n\n\
         - time per pass: **{time}**, {tps:.1} tokens/s\n\
         - parameters: {total:.2} B total, {active:.2} B active\n\
         - memory: {req} of {cap} ({fit})\n\
         - KV crossover: {cross} tokens of context read as many bytes as the weights\n\n\
         ## Operators\n\n{table}",
        model = view.config.name,
        hw = hw.name,
        hardware = hardware_md(hw),
        phase = s.phase.name(),
        batch = s.batch,
        seq = s.seq,
        w = s.precision.weights,
        act = s.precision.activations,
        kv = s.precision.kv,
        time = si(a.time.get(), "s"),
        tps = a.tokens_per_s,
        total = a.params.total / 1e9,
        active = a.params.active / 1e9,
        req = a.memory.required,
        cap = a.memory.capacity,
        fit = if a.memory.fits {
            "fits"
        } else {
            "does not fit"
        },
        cross = grouped(a.kv_crossover_tokens),
        table = md_table(
            &[
                "operator", "count", "FLOPs", "bytes", "FLOP/B", "bound", "time", "share"
            ],
            &rows
        ),
    )
}

const SERVING_HEADER: [&str; 7] = [
    "concurrency",
    "ttft_s",
    "tpot_s",
    "request_time_s",
    "tokens_per_s_per_user",
    "tokens_per_s_per_gpu",
    "decode_tokens_per_s_per_gpu",
];

fn serving_rows(view: &DeployView) -> Vec<Vec<String>> {
    view.curve
        .iter()
        .map(|s| {
            vec![
                s.concurrency.to_string(),
                format!("{:e}", s.ttft.get()),
                format!("{:e}", s.tpot.get()),
                format!("{:e}", s.request_time.get()),
                format!("{:.4}", s.tokens_per_s_per_user),
                format!("{:.4}", s.tokens_per_s_per_gpu),
                format!("{:.4}", s.decode_tokens_per_s_per_gpu),
            ]
        })
        .collect()
}

/// A deployment's serving curve (one row per concurrency) as CSV.
pub fn deploy_csv(view: &DeployView) -> String {
    csv(&SERVING_HEADER, &serving_rows(view))
}

/// A deployment as JSON: the model crate's deployment record (layout, per-GPU memory,
/// serving figures, each pass's compute and communication), the same as `rooflinr deploy
/// --json` writes, and the curve over concurrency.
pub fn deploy_json(hw: &Hardware, view: &DeployView, precision: &Precision) -> Value {
    json!({
        "kind": PROVENANCE,
        "model": view.config.name,
        "hardware": hw.key,
        "precision": precision_json(precision),
        "deployment": DeploymentRecord::of(&view.deployment, precision.weights),
        "curve": view.curve.iter().map(ServingPoint::of).collect::<Vec<_>>(),
    })
}

/// A deployment as a Markdown report.
pub fn deploy_markdown(hw: &Hardware, view: &DeployView, link: &str) -> String {
    let d = &view.deployment;
    let l = d.layout;
    let s = d.serving;
    let m = d.memory;
    let comms: Vec<Vec<String>> = d
        .decode
        .comms
        .iter()
        .map(|c| {
            vec![
                c.id.name().to_string(),
                c.collective.name().to_string(),
                c.gpus.to_string(),
                c.link.name(),
                format!("{}", c.count),
                si(c.message.get(), "B"),
                si(c.sent.get(), "B"),
                si(c.time.get(), "s"),
            ]
        })
        .collect();
    format!(
        "# rooflinr: {model} on {gpus} x {hw}\n\n_{PROVENANCE}._ [Open this deployment]({link})\n\n\
         {hardware}\n## Layout\n\n- {layout} ({gpus} GPUs)\n\n## Per GPU\n\n\
         - weights {w}, KV cache {kv}, activations {act}: {total} of {cap} ({fit})\n\
         - the memory holds up to {max} requests\n\n## Serving {conc} requests\n\n\
         - time to first token: **{ttft}**\n- time per output token: **{tpot}**\n\
         - tokens/s per user: {user:.1}\n- tokens/s per GPU: {gpu:.1} ({decode:.1} while decoding)\n\n\
         ## Decode step\n\n- compute {compute}, communication {comm} ({share:.0}% of the step)\n\n{comms}\n\
         ## Over concurrency\n\n{curve}{serving}",
        model = view.config.name,
        gpus = l.gpus(),
        hw = hw.name,
        hardware = hardware_md(hw),
        layout = l,
        w = m.weights,
        kv = m.kv_cache,
        act = m.activations,
        total = m.total(),
        cap = m.capacity,
        fit = if m.fits() { "fits" } else { "does not fit" },
        max = d.max_concurrency,
        conc = s.concurrency,
        ttft = si(s.ttft.get(), "s"),
        tpot = si(s.tpot.get(), "s"),
        user = s.tokens_per_s_per_user,
        gpu = s.tokens_per_s_per_gpu,
        decode = s.decode_tokens_per_s_per_gpu,
        compute = si(d.decode.compute.get(), "s"),
        comm = si(d.decode.communication.get(), "s"),
        share = d.decode.communication_share() * 100.0,
        comms = if comms.is_empty() {
            "One GPU: no communication.\n".to_string()
        } else {
            md_table(
                &[
                    "communication",
                    "collective",
                    "GPUs",
                    "link",
                    "count",
                    "message",
                    "sent per GPU",
                    "time",
                ],
                &comms,
            )
        },
        curve = md_table(&SERVING_HEADER, &serving_rows(view)),
        serving = serving_markdown(view),
    )
}

/// A deployment report's serving section: energy and cost per token, the measured runs
/// beside their predictions (NVIDIA's and an imported file's), and the launch commands.
fn serving_markdown(view: &DeployView) -> String {
    let w = &view.words;
    let mut md = String::new();
    if !w.energy.is_empty() {
        md += &format!(
            "\n## Energy and cost\n\n- energy per output token: {} ({})\n",
            w.energy, w.energy_note
        );
        if !w.cost.is_empty() {
            md += &format!("- cost: {} ({})\n", w.cost, w.cost_note);
        }
    }
    let measured = &view.measured;
    let imported = &view.imported;
    if !measured.here.is_empty() || !imported.points.is_empty() {
        md += "\n## Measured serving runs\n\n";
        if !measured.here.is_empty() {
            let rows: Vec<Vec<String>> = measured.here.iter().map(|p| p.cells.to_vec()).collect();
            md += &format!(
                "NVIDIA's measured runs of this layout and lengths beside the prediction for the same clients ({}).\n\n{}",
                rooflinr_model::deploy::serving::runs::MEASURED_RUNS_SOURCE,
                md_table(&crate::compute::MEASURED_COLUMNS, &rows)
            );
        }
        if !imported.points.is_empty() {
            let rows: Vec<Vec<String>> = imported.points.iter().map(|p| p.cells.to_vec()).collect();
            md += &format!(
                "\n{}\n\n{}",
                imported.caption,
                md_table(&crate::compute::IMPORTED_COLUMNS, &rows)
            );
            for n in &imported.notes {
                md += &format!("- {n}\n");
            }
        }
    }
    match &view.launch {
        Ok(commands) => {
            md += "\n## Launch command\n\n";
            for l in commands {
                md += &format!(
                    "{}, in the flag names of {}:\n\n```sh\n{}```\n",
                    l.what, l.release, l.shell
                );
                for n in &l.notes {
                    md += &format!("- {n}\n");
                }
                md += "\n";
            }
        }
        Err(why) => md += &format!("\n## Launch command\n\n{why}\n"),
    }
    md
}

#[cfg(all(test, not(target_arch = "wasm32")))] // native only: proptest needs an OS RNG
mod tests;

/// A table's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// One row per operator (or serving point).
    Csv,
    /// The whole analysis.
    Json,
    /// A report with the device, the figures and the link back.
    Markdown,
}

impl TableFormat {
    /// The file's extension and MIME type.
    pub fn file_type(self) -> (&'static str, &'static str) {
        match self {
            TableFormat::Csv => ("csv", "text/csv"),
            TableFormat::Json => ("json", "application/json"),
            TableFormat::Markdown => ("md", "text/markdown"),
        }
    }
}

/// The analysis on the page that a table export is made of.
pub enum Tables {
    /// Operator mode.
    Operator(OperatorView),
    /// Model mode, with the devices compared beside it.
    Model {
        /// The analysis.
        view: ModelView,
        /// The devices side by side.
        comparison: Vec<DeviceRow>,
    },
    /// Deployment mode.
    Deploy {
        /// The deployment (boxed: it is the largest view).
        view: Box<DeployView>,
        /// Its number formats, when the inputs name valid ones.
        precision: Option<Precision>,
    },
}

crate::split_point! {
    export,
    /// `tables` as a file in `format`, for the device `hw`, linking back to `link`; `None`
    /// for a deployment's JSON when its number formats are not valid.
    pub fn table_file(hw: Hardware, tables: Tables, format: TableFormat, link: String) -> Option<String> {
        Some(match (tables, format) {
            (Tables::Operator(v), TableFormat::Csv) => operator_csv(&v),
            (Tables::Operator(v), TableFormat::Json) => operator_json(&hw, &v).to_string(),
            (Tables::Operator(v), TableFormat::Markdown) => operator_markdown(&hw, &v, &link),
            (Tables::Model { view, .. }, TableFormat::Csv) => model_csv(&view),
            (Tables::Model { view, comparison }, TableFormat::Json) => {
                model_json(&hw, &view, &comparison).to_string()
            }
            (Tables::Model { view, comparison }, TableFormat::Markdown) => {
                model_markdown(&hw, &view, &link, &comparison)
            }
            (Tables::Deploy { view, .. }, TableFormat::Csv) => deploy_csv(&view),
            (Tables::Deploy { view, precision }, TableFormat::Json) => {
                deploy_json(&hw, &view, &precision?).to_string()
            }
            (Tables::Deploy { view, .. }, TableFormat::Markdown) => {
                deploy_markdown(&hw, &view, &link)
            }
        })
    }
}
