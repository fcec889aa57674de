//! Nsight Compute CSV exports. Two layouts are read:
//!
//! - the raw page (`ncu --csv --page raw --metrics ...`): one row per kernel, one column
//!   per metric, and a second row holding the units;
//! - the details page (`ncu --csv`): one row per metric, with `Metric Name`,
//!   `Metric Unit` and `Metric Value`.
//!
//! Time is `gpu__time_duration.sum` (or the details page's `Duration`); bytes are
//! `dram__bytes.sum` (or read + write); FLOPs are a `flops` column when there is one, else
//! the SASS floating-point instruction counts (`*_op_{d,f,h}{add,mul,fma}_pred_on.sum`,
//! an FMA counting two). Tensor-core work is not in those counters: such kernels need a
//! `flops` column, and the import says how many kernels had no FLOPs counted.

use std::collections::HashMap;

use rooflinr_model::format::Math;

use super::{ImportError, Imported, Kind, MAX_ROWS, check_kernel, math_from_name, number};
use crate::kernel::KernelPoint;

/// Whether a first line is an Nsight Compute CSV header.
pub(super) fn looks_like(first: &str) -> bool {
    first.contains("Kernel Name") && (first.contains("Metric Name") || first.contains("__"))
}

/// One kernel's metrics: name -> (unit, value text).
struct Profiled {
    id: String,
    name: String,
    line: usize,
    metrics: HashMap<String, (String, String)>,
}

fn records(text: &str) -> Result<Vec<(usize, Vec<String>)>, ImportError> {
    // ncu interleaves its own `==PROF==` lines with the CSV when both go to stdout.
    let csv_text: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("==") {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv_text.as_bytes());
    let mut out = Vec::new();
    for r in reader.records() {
        let r = r.map_err(|e| ImportError::Csv {
            line: e.position().map_or(0, |p| p.line() as usize),
            message: e.to_string(),
        })?;
        if r.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let line = r.position().map_or(0, |p| p.line() as usize);
        out.push((line, r.iter().map(|c| c.trim().to_string()).collect()));
        if out.len() > MAX_ROWS * 64 {
            return Err(ImportError::TooManyRows);
        }
    }
    Ok(out)
}

fn column(header: &[String], name: &str) -> Result<usize, ImportError> {
    header
        .iter()
        .position(|h| h == name)
        .ok_or_else(|| ImportError::MissingColumn {
            column: name.into(),
            found: header.join(", "),
        })
}

pub(super) fn parse(text: &str) -> Result<Imported, ImportError> {
    let rows = records(text)?;
    let Some(((_, header), body)) = rows.split_first() else {
        return Err(ImportError::Empty);
    };
    let kernels = if header.iter().any(|h| h == "Metric Name") {
        long(header, body)?
    } else {
        wide(header, body)?
    };
    if kernels.is_empty() {
        return Err(ImportError::NoRows);
    }
    if kernels.len() > MAX_ROWS {
        return Err(ImportError::TooManyRows);
    }
    let mut points = Vec::new();
    let mut no_flops = 0;
    for k in &kernels {
        let p = point(k)?;
        check_kernel(&p).map_err(|why| ImportError::BadValue {
            line: k.line,
            column: "Kernel Name".into(),
            why: format!("kernel `{}`: {why}", k.name),
        })?;
        if p.flops == 0.0 {
            no_flops += 1;
        }
        points.push(p);
    }
    let mut notes = vec![
        "Nsight Compute: FLOPs from SASS floating-point instruction counts (FMA = 2); tensor-core work is not counted there".to_string(),
    ];
    if no_flops > 0 {
        notes.push(format!(
            "{no_flops} kernel(s) have no FLOPs counted: they are listed but cannot be placed on a FLOP/s axis (add a `flops` metric column)"
        ));
    }
    Ok(Imported {
        kind: Kind::NsightCompute,
        kernels: points,
        measurements: Vec::new(),
        hardware: None,
        notes,
    })
}

/// The raw page: a row of metric names, a row of units, then a row per kernel.
fn wide(header: &[String], body: &[(usize, Vec<String>)]) -> Result<Vec<Profiled>, ImportError> {
    let id = column(header, "ID")?;
    let name = column(header, "Kernel Name")?;
    let (units, kernels) = match body.first() {
        Some((_, first)) if first.get(id).is_some_and(|v| v.parse::<u64>().is_err()) => {
            (first.clone(), &body[1..])
        }
        _ => (Vec::new(), body),
    };
    Ok(kernels
        .iter()
        .map(|(line, row)| Profiled {
            id: row.get(id).cloned().unwrap_or_default(),
            name: row.get(name).cloned().unwrap_or_default(),
            line: *line,
            metrics: header
                .iter()
                .enumerate()
                .filter_map(|(i, h)| {
                    let value = row.get(i)?.clone();
                    Some((
                        h.clone(),
                        (units.get(i).cloned().unwrap_or_default(), value),
                    ))
                })
                .collect(),
        })
        .collect())
}

/// The details page: one row per (kernel, metric).
fn long(header: &[String], body: &[(usize, Vec<String>)]) -> Result<Vec<Profiled>, ImportError> {
    let id = column(header, "ID")?;
    let name = column(header, "Kernel Name")?;
    let metric = column(header, "Metric Name")?;
    let unit = column(header, "Metric Unit")?;
    let value = column(header, "Metric Value")?;
    let mut kernels: Vec<Profiled> = Vec::new();
    for (line, row) in body {
        let cell = |i: usize| row.get(i).cloned().unwrap_or_default();
        let kid = cell(id);
        if kernels.last().is_none_or(|k| k.id != kid) {
            if kernels.len() == MAX_ROWS {
                return Err(ImportError::TooManyRows);
            }
            kernels.push(Profiled {
                id: kid,
                name: cell(name),
                line: *line,
                metrics: HashMap::new(),
            });
        }
        if let Some(k) = kernels.last_mut() {
            k.metrics.insert(cell(metric), (cell(unit), cell(value)));
        }
    }
    Ok(kernels)
}

/// The scale of a unit to the base unit (`usecond` -> 1e-6 s, `Mbyte` -> 1e6 B).
fn scale(unit: &str, base: &[(&str, f64)]) -> Option<f64> {
    let prefixes = [
        ("", 1.0),
        ("K", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
        ("k", 1e3),
    ];
    if unit.is_empty() {
        return base.first().map(|(_, s)| *s);
    }
    base.iter().find_map(|(b, s)| {
        prefixes
            .iter()
            .find(|(p, _)| unit.strip_prefix(p) == Some(b))
            .map(|(_, m)| s * m)
    })
}

const SECONDS: &[(&str, f64)] = &[
    ("nsecond", 1e-9),
    ("usecond", 1e-6),
    ("msecond", 1e-3),
    ("second", 1.0),
    ("ns", 1e-9),
    ("us", 1e-6),
    ("ms", 1e-3),
    ("s", 1.0),
];
const BYTES: &[(&str, f64)] = &[("byte", 1.0), ("B", 1.0)];
const COUNTS: &[(&str, f64)] = &[("inst", 1.0), ("", 1.0)];

fn metric(k: &Profiled, name: &str, units: &[(&str, f64)]) -> Result<Option<f64>, ImportError> {
    let Some((unit, text)) = k.metrics.get(name) else {
        return Ok(None);
    };
    let bad = |why: String| ImportError::BadValue {
        line: k.line,
        column: name.into(),
        why,
    };
    if text.is_empty() || text == "n/a" {
        return Ok(None);
    }
    let v = number(text).ok_or_else(|| bad(format!("`{text}` is not a number")))?;
    if v < 0.0 {
        return Err(bad(format!("{text} is negative")));
    }
    let s = scale(unit, units).ok_or_else(|| bad(format!("unit `{unit}` is not known")))?;
    Ok(Some(v * s))
}

fn point(k: &Profiled) -> Result<KernelPoint, ImportError> {
    let missing = |what: &str| ImportError::BadValue {
        line: k.line,
        column: what.into(),
        why: format!("kernel `{}` (ID {}) has no value", k.name, k.id),
    };
    let time = match metric(k, "gpu__time_duration.sum", SECONDS)? {
        Some(t) => t,
        None => metric(k, "Duration", SECONDS)?.ok_or_else(|| missing("gpu__time_duration.sum"))?,
    };
    if time <= 0.0 {
        return Err(ImportError::BadValue {
            line: k.line,
            column: "gpu__time_duration.sum".into(),
            why: "the duration is zero".into(),
        });
    }
    let bytes = match metric(k, "dram__bytes.sum", BYTES)? {
        Some(b) => b,
        None => {
            let read = metric(k, "dram__bytes_read.sum", BYTES)?;
            let write = metric(k, "dram__bytes_write.sum", BYTES)?;
            match (read, write) {
                (None, None) => return Err(missing("dram__bytes.sum")),
                (r, w) => r.unwrap_or(0.0) + w.unwrap_or(0.0),
            }
        }
    };
    let (flops, from_sass) = match metric(k, "flops", COUNTS)? {
        Some(f) => (f, false),
        None => (sass_flops(k)?, true),
    };
    let math = math_from_name(&k.name).unwrap_or(if from_sass { Math::Fp32 } else { Math::Fp16 });
    Ok(KernelPoint {
        kernel: k.name.clone(),
        op: k
            .name
            .split(['(', '<'])
            .next()
            .unwrap_or(&k.name)
            .to_string(),
        phase: String::new(),
        format: None,
        math: math.name().into(),
        block_scaled: false,
        flops,
        bytes,
        time_s: time,
        energy_j: None,
        source: "imported: Nsight Compute".into(),
    })
}

/// FLOPs from the SASS instruction counters, one counter family only (`smsp__` when it is
/// there, else `sm__`) so that a file holding both is not counted twice.
fn sass_flops(k: &Profiled) -> Result<f64, ImportError> {
    for prefix in ["smsp__", "sm__"] {
        let mut total = 0.0;
        let mut found = false;
        for p in ["d", "f", "h"] {
            for (op, weight) in [("add", 1.0), ("mul", 1.0), ("fma", 2.0)] {
                let name = format!("{prefix}sass_thread_inst_executed_op_{p}{op}_pred_on.sum");
                if let Some(v) = metric(k, &name, COUNTS)? {
                    total += weight * v;
                    found = true;
                }
            }
        }
        if found {
            return Ok(total);
        }
    }
    Ok(0.0)
}
