//! A kernel table: one row per kernel with its FLOPs, bytes and time, as the prototype's
//! benchmark scripts write (`kernel,op,flops,bytes,time_us,phase`). Header names are
//! matched loosely (case, spaces, `FLOPs`, `time (µs)`); the time column must carry its
//! unit in its name.

use rooflinr_model::format::{Math, product_is_block_scaled};

use super::{ImportError, Imported, Kind, MAX_ROWS, check_kernel, math_from_name, number};
use crate::kernel::{KernelPoint, KernelSource};

/// `Time (µs)` -> `time_us`.
fn normalise(header: &str) -> String {
    let h = header.trim().replace(['µ', 'μ'], "u").to_ascii_lowercase();
    let mut out = String::new();
    for c in h.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

const KERNEL: &[&str] = &["kernel", "kernel_name", "name"];
const OP: &[&str] = &["op", "operator", "operation", "layer"];
const FLOPS: &[&str] = &["flops", "flop", "total_flops", "flop_count"];
const BYTES: &[&str] = &[
    "bytes",
    "bytes_moved",
    "bytes_transferred",
    "total_bytes",
    "memory_bytes",
    "dram_bytes",
    "theoretical_bytes",
    "bytes_accessed",
];
const PHASE: &[&str] = &["phase", "stage"];
const FORMAT: &[&str] = &["format", "dtype", "precision", "weight_format"];
const ENERGY: &[&str] = &["energy_j", "joules", "energy"];
const TIME_WORDS: &[&str] = &[
    "time", "latency", "duration", "elapsed", "runtime", "mean", "median", "avg", "average",
];
const TIME_UNITS: &[(&str, f64)] = &[("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)];

fn find(header: &[String], names: &[&str]) -> Option<usize> {
    names
        .iter()
        .find_map(|n| header.iter().position(|h| h == n))
}

fn missing(column: &str, raw: &[String]) -> ImportError {
    ImportError::MissingColumn {
        column: column.into(),
        found: raw.join(", "),
    }
}

/// The time column and its scale to seconds.
fn time_column(header: &[String], raw: &[String]) -> Result<(usize, f64), ImportError> {
    for (i, h) in header.iter().enumerate() {
        for word in TIME_WORDS {
            if let Some(unit) = h.strip_prefix(word).and_then(|r| r.strip_prefix('_'))
                && let Some((_, scale)) = TIME_UNITS.iter().find(|(u, _)| *u == unit)
            {
                return Ok((i, *scale));
            }
        }
    }
    if let Some(bare) = header.iter().position(|h| TIME_WORDS.contains(&h.as_str())) {
        return Err(ImportError::MissingColumn {
            column: format!(
                "time with a unit (`{}` has none: name it time_s, time_ms, time_us or time_ns)",
                raw[bare]
            ),
            found: raw.join(", "),
        });
    }
    Err(missing("time_s / time_ms / time_us / time_ns", raw))
}

pub(super) fn parse(text: &str) -> Result<Imported, ImportError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut rows = reader.records();
    let csv_error = |e: csv::Error| ImportError::Csv {
        line: e.position().map_or(0, |p| p.line() as usize),
        message: e.to_string(),
    };
    let raw: Vec<String> = match rows.next() {
        Some(r) => r.map_err(csv_error)?.iter().map(str::to_string).collect(),
        None => return Err(ImportError::Empty),
    };
    let header: Vec<String> = raw.iter().map(|h| normalise(h)).collect();
    let kernel = find(&header, KERNEL);
    let op = find(&header, OP);
    if kernel.is_none() && op.is_none() {
        return Err(missing("kernel (or op)", &raw));
    }
    let flops = find(&header, FLOPS).ok_or_else(|| missing("flops", &raw))?;
    let bytes = find(&header, BYTES).ok_or_else(|| missing("bytes", &raw))?;
    let (time, scale) = time_column(&header, &raw)?;
    let phase = find(&header, PHASE);
    let format = find(&header, FORMAT);
    let energy = find(&header, ENERGY);

    let mut kernels = Vec::new();
    let mut guessed = 0;
    for row in rows {
        let row = row.map_err(csv_error)?;
        let line = row.position().map_or(0, |p| p.line() as usize);
        if row.iter().all(str::is_empty) {
            continue;
        }
        if kernels.len() == MAX_ROWS {
            return Err(ImportError::TooManyRows);
        }
        let cell = |i: Option<usize>| i.and_then(|i| row.get(i)).unwrap_or("").to_string();
        let value = |i: usize, positive: bool| -> Result<f64, ImportError> {
            let c = row.get(i).unwrap_or("");
            let bad = |why: String| ImportError::BadValue {
                line,
                column: raw[i].clone(),
                why,
            };
            match number(c) {
                None if c.is_empty() => Err(bad("empty; a number is needed".into())),
                None => Err(bad(format!("`{c}` is not a number"))),
                Some(v) if positive && v <= 0.0 => Err(bad(format!("{c} is not above zero"))),
                Some(v) if v < 0.0 => Err(bad(format!("{c} is negative"))),
                Some(v) => Ok(v),
            }
        };
        let name = if kernel.is_some() {
            cell(kernel)
        } else {
            cell(op)
        };
        let weights = Some(cell(format))
            .filter(|f| !f.is_empty())
            .and_then(|f| f.parse::<rooflinr_model::format::Format>().ok());
        let (math, block_scaled) = match weights {
            Some(f) => (f.math(), product_is_block_scaled(f, f)),
            None => {
                guessed += 1;
                (math_from_name(&name).unwrap_or(Math::Fp16), false)
            }
        };
        let energy_j = match energy {
            Some(i) if !row.get(i).unwrap_or("").is_empty() => Some(value(i, false)?),
            _ => None,
        };
        let k = KernelPoint {
            op: if op.is_some() { cell(op) } else { name.clone() },
            kernel: name,
            phase: cell(phase).to_ascii_lowercase(),
            format: weights,
            math,
            block_scaled,
            flops: value(flops, false)?,
            bytes: value(bytes, false)?,
            time_s: value(time, true)? * scale,
            energy_j,
            flops_counted: true,
            source: KernelSource::KernelCsv,
        };
        // Finite and positive cells can still multiply to an unusable time (1e-320 ns).
        check_kernel(&k).map_err(|why| ImportError::BadValue {
            line,
            column: raw[time].clone(),
            why,
        })?;
        kernels.push(k);
    }
    if kernels.is_empty() {
        return Err(ImportError::NoRows);
    }
    let mut notes = Vec::new();
    if guessed > 0 {
        notes.push(format!(
            "{guessed} kernel(s) have no format the model knows (no format column, or a name `rooflinr formats` does not list): their compute type was read from the kernel name, FP16 where the name does not say"
        ));
    }
    Ok(Imported {
        kind: Kind::KernelCsv,
        kernels,
        measurements: Vec::new(),
        hardware: None,
        notes,
    })
}
