//! Collectives held against NVIDIA's measured NCCL tables (`<system>/comm/nccl/<version>/
//! nccl_perf.parquet` in the `aiconfigurator-core` wheel: `op_name`, `nccl_dtype`,
//! `num_gpus`, `message_size` in elements, `latency` in milliseconds, measured with NCCL
//! on real H100, H200, B200, GB200, B300, GB300, A100, L40S and RTX PRO 6000 machines).
//!
//! Each row is predicted by the deployment model's own collective cost
//! ([`rooflinr_model::deploy::collective_cost`]): first with its defaults (1 µs per step,
//! the link's full bandwidth, no pipeline fill), then with a latency per step and a
//! bandwidth fraction fitted per device, collective and number of GPUs on half of the
//! message sizes, with NCCL's pipeline fill ([`NCCL_PIPELINE_FILL`]), and judged on the
//! other half.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use rooflinr_model::deploy::{
    Collective, CommModel, NCCL_PIPELINE_FILL, collective_cost, collective_profile,
};
use rooflinr_model::hardware::{Hardware, registry};
use rooflinr_model::kernel_time::SHIPPED_MEDIAN_ERROR;
use rooflinr_model::units::{Bytes, Seconds};
use serde::Serialize;

/// One measured collective.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    device: String,
    collective: Collective,
    element_bytes: f64,
    gpus: u32,
    elements: u64,
    measured_s: f64,
}

fn collective(name: &str) -> Option<Collective> {
    match name {
        "all_reduce" => Some(Collective::AllReduce),
        "all_gather" => Some(Collective::AllGather),
        "reduce_scatter" => Some(Collective::ReduceScatter),
        "alltoall" | "all_to_all" => Some(Collective::AllToAll),
        _ => None,
    }
}

fn element_bytes(dtype: &str) -> Option<f64> {
    match dtype {
        "half" | "bfloat16" | "float16" | "fp16" | "bf16" => Some(2.0),
        "int8" | "fp8" | "uint8" => Some(1.0),
        "float" | "float32" | "fp32" | "int32" => Some(4.0),
        _ => None,
    }
}

/// Every NCCL row under `dir` (none when the tables hold no NCCL files). Returns the rows
/// and what was skipped, in words.
fn read(dir: &Path) -> Result<(Vec<Row>, Vec<String>)> {
    let mut files = Vec::new();
    super::table_files::files_under(dir, &|name| name == "nccl_perf.parquet", &mut files)?;
    files.sort();
    let mut rows = Vec::new();
    let mut unknown: BTreeMap<String, usize> = BTreeMap::new();
    for path in files {
        let file = File::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
        let reader = SerializedFileReader::new(file)
            .with_context(|| format!("{} is not a parquet file", path.display()))?;
        for record in reader.get_row_iter(None)? {
            let record = record.with_context(|| format!("in {}", path.display()))?;
            let (mut device, mut op, mut dtype) = (String::new(), String::new(), String::new());
            let (mut gpus, mut elements, mut measured_s) = (0u64, 0u64, f64::NAN);
            for (name, field) in record.get_column_iter() {
                let whole = match field {
                    Field::Long(v) => u64::try_from(*v).unwrap_or(0),
                    Field::Int(v) => u64::try_from(*v).unwrap_or(0),
                    _ => 0,
                };
                match (name.as_str(), field) {
                    ("device", Field::Str(s)) => device.clone_from(s),
                    ("op_name", Field::Str(s)) => op.clone_from(s),
                    ("nccl_dtype", Field::Str(s)) => dtype.clone_from(s),
                    ("num_gpus", _) => gpus = whole,
                    ("message_size", _) => elements = whole,
                    ("latency", Field::Double(ms)) => measured_s = ms / 1e3,
                    ("latency", Field::Float(ms)) => measured_s = f64::from(*ms) / 1e3,
                    _ => {}
                }
            }
            match (collective(&op), element_bytes(&dtype), u32::try_from(gpus)) {
                (Some(c), Some(b), Ok(n)) if n >= 2 && elements > 0 && measured_s > 0.0 => {
                    rows.push(Row {
                        device,
                        collective: c,
                        element_bytes: b,
                        gpus: n,
                        elements,
                        measured_s,
                    });
                }
                _ => *unknown.entry(format!("{op} {dtype}")).or_default() += 1,
            }
        }
    }
    let skipped = unknown
        .into_iter()
        .map(|(what, n)| format!("{n} NCCL rows of {what} (not a collective the model costs)"))
        .collect();
    Ok((rows, skipped))
}

fn message(r: &Row) -> Bytes {
    Bytes(r.elements as f64 * r.element_bytes)
}

/// The model's time for a row, its group placed on adjacent GPUs.
fn predict(hw: &Hardware, r: &Row, comm: &CommModel) -> Option<Seconds> {
    collective_cost(hw, r.collective, message(r), r.gpus, r.gpus, comm)
        .ok()
        .map(|c| c.time)
}

/// A latency per step and a bandwidth fraction under NCCL's pipeline fill, fitted by least
/// squares on relative error: `measured = L + T + fill x sqrt(L x T)`, with `L` the
/// latency per step times the steps and `T` the bytes sent over the link's bandwidth at
/// the fraction, is linear in the latency and `1 / fraction` once the fill term is held;
/// twenty rounds, each holding the fill term at the last round's terms, settle it.
fn fit(hw: &Hardware, rows: &[&Row]) -> Option<CommModel> {
    let link = hw.interconnect.as_ref()?;
    // Each row's steps and its bytes' time at the link's full bandwidth.
    let terms: Vec<(f64, f64, f64)> = rows
        .iter()
        .map(|r| {
            let bandwidth = link.link_for(r.gpus)?.bandwidth.value.get();
            let sent = r.collective.bytes_sent(message(r), r.gpus).get();
            Some((r.collective.steps(r.gpus), sent / bandwidth, r.measured_s))
        })
        .collect::<Option<_>>()?;
    let (mut latency, mut inverse_fraction) = (0.0, 1.0);
    for round in 0..20 {
        let fill = if round == 0 { 0.0 } else { NCCL_PIPELINE_FILL };
        let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(steps, x, measured) in &terms {
            let held = fill * (latency * steps * x * inverse_fraction).sqrt();
            let rest = measured - held;
            let w = 1.0 / (measured * measured);
            a11 += w * steps * steps;
            a12 += w * steps * x;
            a22 += w * x * x;
            b1 += w * steps * rest;
            b2 += w * x * rest;
        }
        let det = a11 * a22 - a12 * a12;
        if det.abs() < f64::MIN_POSITIVE {
            return None;
        }
        latency = ((b1 * a22 - b2 * a12) / det).max(0.0);
        inverse_fraction = ((a11 * b2 - a12 * b1) / det).max(1.0);
    }
    Some(CommModel {
        scale_up_latency: Seconds(latency),
        scale_out_latency: Seconds(latency),
        bandwidth_efficiency: 1.0 / inverse_fraction,
        pipeline_fill: NCCL_PIPELINE_FILL,
        overlap: false,
    })
}

/// One device, collective and number of GPUs.
#[derive(Clone, Debug, Serialize)]
pub struct CollectiveGroup {
    hardware: String,
    collective: &'static str,
    /// The same collective, for the profile lines.
    #[serde(skip)]
    kind: Collective,
    gpus: u32,
    rows: usize,
    default_median: f64,
    default_p90: f64,
    fitted_median: f64,
    fitted_p90: f64,
    latency_per_step_us: f64,
    bandwidth_fraction: f64,
    /// Whether the model crate ships this profile and still matches the refit.
    shipped: String,
}

/// The collectives' validation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Collectives {
    groups: Vec<CollectiveGroup>,
    skipped: Vec<String>,
}

fn quantiles(mut e: Vec<f64>) -> (f64, f64) {
    e.sort_by(f64::total_cmp);
    let at = |q: f64| rooflinr_model::stats::nearest_rank(&e, q).unwrap_or(f64::NAN);
    (at(0.5), at(0.9))
}

/// Validates every NCCL table under `dir`.
pub fn validate(dir: &Path) -> Result<Collectives> {
    let (rows, mut skipped) = read(dir)?;
    let mut by_group: BTreeMap<(String, &'static str, u32), Vec<&Row>> = BTreeMap::new();
    for r in &rows {
        let Some(key) = registry::key_for_device(&r.device, None) else {
            skipped.push(if r.device.is_empty() {
                "NCCL rows with no device name".to_string()
            } else {
                format!("NCCL rows of {} (no registry device)", r.device)
            });
            continue;
        };
        by_group
            .entry((key.to_string(), r.collective.name(), r.gpus))
            .or_default()
            .push(r);
    }
    skipped.sort();
    skipped.dedup();
    let mut groups = Vec::new();
    for ((key, name, gpus), rows) in by_group {
        let hw = registry::get(&key)?;
        if hw.interconnect.is_none() {
            skipped.push(format!(
                "NCCL rows of {key} (no interconnect in the registry)"
            ));
            continue;
        }
        // Alternate message sizes fit and judge.
        let mut sizes: Vec<u64> = rows.iter().map(|r| r.elements).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let fitting = |r: &Row| {
            sizes
                .binary_search(&r.elements)
                .unwrap_or(0)
                .is_multiple_of(2)
        };
        let fit_rows: Vec<&Row> = rows.iter().copied().filter(|r| fitting(r)).collect();
        let held: Vec<&Row> = rows.iter().copied().filter(|r| !fitting(r)).collect();
        let Some(fitted) = fit(&hw, &fit_rows) else {
            skipped.push(format!(
                "NCCL {name} of {gpus} GPUs on {key} (too few sizes to fit)"
            ));
            continue;
        };
        let error = |comm: &CommModel| -> Vec<f64> {
            held.iter()
                .filter_map(|r| predict(&hw, r, comm).map(|t| (t.get() / r.measured_s - 1.0).abs()))
                .collect()
        };
        let (default_median, default_p90) = quantiles(error(&CommModel::default()));
        let (fitted_median, fitted_p90) = quantiles(error(&fitted));
        let latency_us = fitted.scale_up_latency.get() * 1e6;
        let shipped = match collective_profile(&key, rows[0].collective, gpus) {
            Some(p) => {
                let close = |a: f64, b: f64| (a / b - 1.0).abs() < 0.05;
                if close(latency_us, p.latency_per_step_us)
                    && close(fitted.bandwidth_efficiency, p.bandwidth_fraction)
                {
                    "matches".to_string()
                } else {
                    format!(
                        "differs (ships {:.2} us, {:.0}%)",
                        p.latency_per_step_us,
                        p.bandwidth_fraction * 100.0
                    )
                }
            }
            None => "none".to_string(),
        };
        groups.push(CollectiveGroup {
            hardware: key,
            collective: name,
            kind: rows[0].collective,
            gpus,
            rows: held.len(),
            default_median,
            default_p90,
            fitted_median,
            fitted_p90,
            latency_per_step_us: latency_us,
            bandwidth_fraction: fitted.bandwidth_efficiency,
            shipped,
        });
    }
    Ok(Collectives { groups, skipped })
}

/// The collectives' section of the report.
pub fn markdown(c: &Collectives) -> String {
    let mut out = String::from(
        "\n## Collectives (NCCL)\n\nThe deployment model's collective cost, latency per step plus bytes sent over the link, on held-out message sizes. Default: 1 us per step, the link's full bandwidth. Fitted: latency per step and bandwidth fraction fitted on the other sizes of the same collective and number of GPUs, with NCCL's pipeline fill (the geometric mean of the latency and bandwidth terms added once).\n\n| device | collective | GPUs | rows | default median | p90 | fitted median | p90 | latency per step | bandwidth reached | shipped profile |\n| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
    );
    for g in &c.groups {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.0}% | {:.0}% | {:.0}% | {:.0}% | {:.2} us | {:.0}% | {} |",
            g.hardware,
            g.collective,
            g.gpus,
            g.rows,
            g.default_median * 100.0,
            g.default_p90 * 100.0,
            g.fitted_median * 100.0,
            g.fitted_p90 * 100.0,
            g.latency_per_step_us,
            g.bandwidth_fraction * 100.0,
            g.shipped
        );
    }
    for s in &c.skipped {
        let _ = writeln!(out, "\nskipped: {s}");
    }
    out
}

/// The entries of `deploy::COLLECTIVE_PROFILES` the fits make (`measured.rs`): every
/// group whose held-out median is at most [`SHIPPED_MEDIAN_ERROR`].
pub fn profile_lines(c: &Collectives) -> String {
    let mut out = String::new();
    for g in c
        .groups
        .iter()
        .filter(|g| g.fitted_median <= SHIPPED_MEDIAN_ERROR)
    {
        let _ = writeln!(
            out,
            "    CollectiveProfile {{\n        hardware: \"{}\",\n        collective: Collective::{:?},\n        gpus: {},\n        latency_per_step_us: {:.3},\n        bandwidth_fraction: {:.3},\n        held_out_median: {:.3},\n    }},",
            g.hardware,
            g.kind,
            g.gpus,
            g.latency_per_step_us,
            g.bandwidth_fraction,
            g.fitted_median
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(collective: Collective, gpus: u32, elements: u64, measured_s: f64) -> Row {
        Row {
            device: "NVIDIA H100 80GB HBM3".into(),
            collective,
            element_bytes: 2.0,
            gpus,
            elements,
            measured_s,
        }
    }

    /// Rows made by the model itself with 2.5 µs per step, 60 % of NVLink and NCCL's
    /// pipeline fill: the fit recovers both terms, and predicts the rows.
    #[test]
    fn the_fit_recovers_the_terms_that_made_the_rows() {
        let hw = registry::get("h100-sxm").unwrap();
        let truth = CommModel {
            scale_up_latency: Seconds(2.5e-6),
            scale_out_latency: Seconds(2.5e-6),
            bandwidth_efficiency: 0.6,
            pipeline_fill: NCCL_PIPELINE_FILL,
            overlap: false,
        };
        let mut rows = Vec::new();
        for elements in [1u64 << 10, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 24] {
            let r = row(Collective::AllReduce, 8, elements, 1.0);
            let t = predict(&hw, &r, &truth).unwrap().get();
            rows.push(Row { measured_s: t, ..r });
        }
        let refs: Vec<&Row> = rows.iter().collect();
        let fitted = fit(&hw, &refs).unwrap();
        assert!(
            (fitted.scale_up_latency.get() / 2.5e-6 - 1.0).abs() < 1e-3,
            "{fitted:?}"
        );
        assert!(
            (fitted.bandwidth_efficiency / 0.6 - 1.0).abs() < 1e-3,
            "{fitted:?}"
        );
        for r in &rows {
            let t = predict(&hw, r, &fitted).unwrap().get();
            assert!((t / r.measured_s - 1.0).abs() < 1e-3);
        }
        // Without the fill, the same terms miss the mid-sized messages: the fill is what
        // the fit read.
        let no_fill = CommModel {
            pipeline_fill: 0.0,
            ..fitted
        };
        let r = &rows[4];
        let short = predict(&hw, r, &no_fill).unwrap().get() / r.measured_s - 1.0;
        assert!(short < -0.25, "{short}");
    }

    #[test]
    fn table_names_map_to_collectives() {
        assert_eq!(collective("all_reduce"), Some(Collective::AllReduce));
        assert_eq!(
            collective("reduce_scatter"),
            Some(Collective::ReduceScatter)
        );
        assert_eq!(collective("alltoall"), Some(Collective::AllToAll));
        assert_eq!(collective("broadcast"), None);
        assert_eq!(element_bytes("half"), Some(2.0));
        assert_eq!(element_bytes("int8"), Some(1.0));
        assert_eq!(element_bytes("complex"), None);
    }
}
