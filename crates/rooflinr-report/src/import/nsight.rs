//! Nsight Compute CSV exports, as `ncu` writes them. Two layouts are read:
//!
//! - the raw page (`ncu --csv --page raw --metrics ...`): one row per kernel, one column
//!   per metric, and a second row holding the units;
//! - the details page (`ncu --csv`, sections and `--metrics`): one row per metric, with
//!   `Metric Name`, `Metric Unit` and `Metric Value`.
//!
//! What comes before the header (the application's own output, `==PROF==` lines, a BOM)
//! is skipped by the caller. Numbers follow the locale ncu ran in: the convention is
//! detected per file (English `31,808` and `86.38`, or European `31.808` and `86,38`), and
//! a file that does not show which is refused rather than misread.
//!
//! Time is `gpu__time_duration.sum` (or the details page's `Duration`), else elapsed cycles
//! over their rate (`sm__cycles_elapsed.avg` / `.avg.per_second`, the widely used roofline
//! recipe). Bytes are DRAM bytes: `dram__bytes.sum`, or read + write
//! (`dram__bytes_read.sum`/`_write`, or `dram__bytes_op_read.sum`/`_write`).
//!
//! FLOPs are a `flops` column when there is one, else the sum of
//! - the SASS floating-point instruction counts (`*_op_{d,f,h}{add,mul,fma}_pred_on.sum`,
//!   an FMA counting two; one counter family, `smsp__` or `sm__`, so none is counted
//!   twice), which count the CUDA cores' work on every architecture since Volta, and
//! - the tensor-core operation counts (`sm__ops_path_tensor_src_<type>_dst_<type>.sum`,
//!   Ampere and later), which count each multiply and each add as one operation, so they
//!   are FLOPs as they stand (a BF16 CUTLASS GEMM on an RTX 5090 then runs at 113 TFLOP/s,
//!   54 % of its 209.5 TFLOP/s dense peak; read as multiply-adds it would exceed the peak).
//!
//! Tensor instruction counts (`*inst_executed_pipe_tensor*`) cannot be turned into FLOPs
//! (an instruction's work depends on its shape): a kernel that ran tensor instructions
//! without an operation count has no work counted. Such kernels, and kernels whose file
//! has no FLOP counter at all, are listed with their time and bytes and never placed on
//! the roofline or calibrated on.

use std::collections::HashMap;

use rooflinr_model::format::Math;
use rooflinr_model::hardware::registry;

use super::{ImportError, Imported, Kind, MAX_ROWS, check_kernel, math_from_name};
use crate::kernel::{KernelPoint, KernelSource};

/// Whether a line is an Nsight Compute CSV header.
pub(super) fn looks_like(line: &str) -> bool {
    let line = line.trim_start_matches('\u{feff}');
    (line.starts_with("\"ID\"") || line.starts_with("ID,"))
        && line.contains("Kernel Name")
        && (line.contains("Metric Name") || line.contains("__"))
}

/// The metrics rooflinr reads, as one `--metrics` list.
pub const METRICS: &str = "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,\
smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_hadd_pred_on.sum,\
smsp__sass_thread_inst_executed_op_hmul_pred_on.sum,smsp__sass_thread_inst_executed_op_hfma_pred_on.sum,\
smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,\
smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,sm__ops_path_tensor_src_fp16_dst_fp32.sum,\
sm__ops_path_tensor_src_bf16_dst_fp32.sum";

/// The layout an export uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Page {
    Raw,
    Details,
}

impl Page {
    fn name(self) -> &'static str {
        match self {
            Page::Raw => "raw-page",
            Page::Details => "details-page",
        }
    }

    /// The ncu command line that writes this page with every metric rooflinr reads.
    fn command(self) -> String {
        let page = match self {
            Page::Raw => " --page raw",
            Page::Details => "",
        };
        format!("ncu --csv{page} --metrics {METRICS} ./your_app > kernels.csv")
    }
}

/// How numbers are written: ncu follows the locale it ran in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Convention {
    /// `1,048,576` and `86.38`.
    English,
    /// `1.048.576` and `86,38`.
    European,
}

/// What one numeric-looking cell says about the convention.
fn evidence(cell: &str) -> Option<Option<Convention>> {
    let c = cell.trim();
    if c.is_empty()
        || !c
            .chars()
            .all(|ch| ch.is_ascii_digit() || ch == '.' || ch == ',' || ch == '-')
        || !c.chars().any(|ch| ch.is_ascii_digit())
    {
        return None;
    }
    let c = c.trim_start_matches('-');
    let dots = c.matches('.').count();
    let commas = c.matches(',').count();
    let groups_of_three = |sep: char| c.split(sep).skip(1).all(|g| g.len() == 3);
    Some(match (dots, commas) {
        (0, 0) => None,
        (_, 0) if dots >= 2 => Some(Convention::European),
        (0, _) if commas >= 2 => Some(Convention::English),
        (1, 0) if groups_of_three('.') && c.split('.').next().is_some_and(|h| h.len() <= 3) => {
            None // `117.344`: a decimal point or a thousands separator
        }
        (1, 0) => Some(Convention::English),
        (0, 1) if groups_of_three(',') && c.split(',').next().is_some_and(|h| h.len() <= 3) => {
            None // `31,808`
        }
        (0, 1) => Some(Convention::European),
        // Both: whichever comes last is the decimal mark.
        _ if c.rfind('.') > c.rfind(',') => Some(Convention::English),
        _ => Some(Convention::European),
    })
}

/// The convention of a file's numeric cells: the one they show, English when no cell has
/// a separator; an error naming the first cell when they show both or only cells that
/// read either way.
fn convention<'a>(
    cells: impl Iterator<Item = (usize, &'a str, &'a str)>,
) -> Result<Convention, ImportError> {
    let (mut english, mut european) = (None, None);
    let mut ambiguous = None;
    for (line, column, cell) in cells {
        match evidence(cell) {
            Some(Some(Convention::English)) => {
                english.get_or_insert((line, column, cell));
            }
            Some(Some(Convention::European)) => {
                european.get_or_insert((line, column, cell));
            }
            Some(None) if cell.contains(['.', ',']) => {
                ambiguous.get_or_insert((line, column, cell));
            }
            _ => {}
        }
    }
    match (english, european, ambiguous) {
        (Some(_), None, _) | (None, None, None) => Ok(Convention::English),
        (None, Some(_), _) => Ok(Convention::European),
        (Some((_, _, a)), Some((line, column, b)), _) => Err(ImportError::BadValue {
            line,
            column: column.to_string(),
            why: format!(
                "`{b}` is written with a decimal comma but `{a}` elsewhere with a decimal point; re-export with one locale (LC_ALL=C ncu ...)"
            ),
        }),
        (None, None, Some((line, column, cell))) => Err(ImportError::BadValue {
            line,
            column: column.to_string(),
            why: format!(
                "`{cell}` could be a decimal or a thousands-separated number, and no other value in the file shows which; re-export with LC_ALL=C so numbers read one way"
            ),
        }),
    }
}

/// A number in the file's convention.
pub(super) fn number_in(cell: &str, convention: Convention) -> Option<f64> {
    let t = match convention {
        Convention::English => cell.trim().replace(',', ""),
        Convention::European => cell.trim().replace('.', "").replace(',', "."),
    };
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// One kernel's metrics: name -> (unit, value text).
struct Profiled {
    id: String,
    name: String,
    line: usize,
    compute_capability: Option<String>,
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

/// What an export was read to hold: its launches, distinct kernels, and the device where
/// the file names it (the raw page's `device__attribute_display_name`) with its compute
/// capability.
fn recognised(kernels: &[Profiled]) -> String {
    let mut names: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut out = format!(
        "{} of {}",
        plural(kernels.len(), "launch", "launches"),
        plural(names.len(), "kernel", "kernels")
    );
    let first = |f: &dyn Fn(&Profiled) -> Option<String>| kernels.iter().find_map(f);
    if let Some(device) = first(&|k| {
        k.metrics
            .get("device__attribute_display_name")
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
    }) {
        out += &format!(" on {device}");
    }
    if let Some(cc) = first(&|k| k.compute_capability.clone()) {
        out += &format!(", compute capability {cc}");
    }
    out
}

/// Reads an export whose first non-blank line is its header.
pub(super) fn parse(text: &str) -> Result<Imported, ImportError> {
    let rows = records(text)?;
    let Some(((_, header), body)) = rows.split_first() else {
        return Err(ImportError::Empty);
    };
    let (page, kernels) = if header.iter().any(|h| h == "Metric Name") {
        (Page::Details, long(header, body)?)
    } else {
        (Page::Raw, wide(header, body)?)
    };
    if kernels.is_empty() {
        return Err(ImportError::NoRows);
    }
    if kernels.len() > MAX_ROWS {
        return Err(ImportError::TooManyRows);
    }
    // Metric values only: the raw page's other columns hold addresses (`127.0.0.1`) and
    // launch shapes.
    let convention = convention(kernels.iter().flat_map(|k| {
        k.metrics
            .iter()
            .filter(|(name, _)| {
                (page == Page::Details || name.contains("__"))
                    && !name.starts_with("device__attribute_display")
            })
            .map(move |(name, (_, v))| (k.line, name.as_str(), v.as_str()))
    }))?;
    let read = |k: &Profiled, name: &str, units: &[(&str, f64)]| metric(k, name, units, convention);
    // Refuse a file that lacks a whole kind of figure before naming single kernels.
    let lacks = |what: &'static str, has: &dyn Fn(&Profiled) -> bool| {
        (!kernels.iter().any(has)).then(|| ImportError::MissingMetric {
            what,
            page: page.name(),
            read: recognised(&kernels),
            command: page.command(),
        })
    };
    if let Some(e) = lacks(
        "kernel duration (gpu__time_duration.sum, Duration, or sm__cycles_elapsed.avg with its .per_second)",
        &|k| time_metric(k).is_some(),
    ) {
        return Err(e);
    }
    if let Some(e) = lacks(
        "DRAM bytes (dram__bytes.sum, or dram__bytes_read.sum + dram__bytes_write.sum)",
        &|k| {
            BYTE_METRICS
                .iter()
                .any(|m| m.iter().any(|n| k.metrics.contains_key(*n)))
        },
    ) {
        return Err(e);
    }
    let mut points = Vec::new();
    let mut uncounted = 0;
    let mut tensor_counted = false;
    for k in &kernels {
        let (p, tensor) = point(k, &read)?;
        check_kernel(&p).map_err(|why| ImportError::BadValue {
            line: k.line,
            column: "Kernel Name".into(),
            why: format!("kernel `{}`: {why}", k.name),
        })?;
        tensor_counted |= tensor;
        if !p.flops_counted {
            uncounted += 1;
        }
        points.push(p);
    }
    let mut notes = vec![format!(
        "Nsight Compute {}: FLOPs from the SASS floating-point instruction counts (FMA = 2){}",
        page.name(),
        if tensor_counted {
            " and the tensor-core operation counts (sm__ops_path_tensor_*)"
        } else {
            "; no tensor-core operation counts in the file"
        }
    )];
    if convention == Convention::European {
        notes.push(
            "numbers read with a decimal comma and `.` between thousands, as the file writes them"
                .into(),
        );
    }
    if uncounted > 0 {
        notes.push(format!(
            "{uncounted} kernel(s) have no FLOPs counted (no FLOP counter in the file, or tensor instructions without operation counts): listed with their time and bytes, not placed on the roofline nor used for calibration; to count them, re-export with `{}`",
            page.command()
        ));
    }
    let (hardware, device_note) = device(&kernels);
    notes.extend(device_note);
    Ok(Imported {
        kind: Kind::NsightCompute,
        kernels: points,
        measurements: Vec::new(),
        hardware,
        notes,
    })
}

/// The registry entry of the device the file names, and a note saying what was found.
fn device(kernels: &[Profiled]) -> (Option<String>, Option<String>) {
    let first = &kernels[0];
    let name = first
        .metrics
        .get("device__attribute_display_name")
        .map(|(_, v)| v.clone())
        .filter(|v| !v.is_empty());
    let cc_text = first.compute_capability.clone().or_else(|| {
        let major = first
            .metrics
            .get("device__attribute_compute_capability_major")?;
        let minor = first
            .metrics
            .get("device__attribute_compute_capability_minor")?;
        Some(format!("{}.{}", major.1, minor.1))
    });
    let cc = cc_text.as_deref().and_then(|t| {
        let (a, b) = t.split_once('.')?;
        Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
    });
    let capability = cc_text
        .as_deref()
        .map(|c| format!(" (compute capability {c})"))
        .unwrap_or_default();
    match name {
        Some(name) => match registry::key_for_device(&name, cc) {
            Some(key) => (
                Some(key.to_string()),
                Some(format!(
                    "device named in the file: {name}{capability}; its datasheet is the registry's `{key}` (another can be chosen with --hardware)"
                )),
            ),
            None => (
                None,
                Some(format!(
                    "device named in the file: {name}{capability}, which the registry does not list: choose a datasheet with --hardware"
                )),
            ),
        },
        None => (
            None,
            Some(format!(
                "the file does not name its device{capability}: choose a datasheet with --hardware"
            )),
        ),
    }
}

/// The raw page: a row of metric names, a row of units, then a row per kernel.
fn wide(header: &[String], body: &[(usize, Vec<String>)]) -> Result<Vec<Profiled>, ImportError> {
    let id = column(header, "ID")?;
    let name = column(header, "Kernel Name")?;
    let cc = header.iter().position(|h| h == "CC");
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
            compute_capability: cc.and_then(|i| row.get(i).cloned()),
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

/// The details page: one row per (kernel, metric); rule rows (no metric name) skipped.
fn long(header: &[String], body: &[(usize, Vec<String>)]) -> Result<Vec<Profiled>, ImportError> {
    let id = column(header, "ID")?;
    let name = column(header, "Kernel Name")?;
    let metric = column(header, "Metric Name")?;
    let unit = column(header, "Metric Unit")?;
    let value = column(header, "Metric Value")?;
    let cc = header.iter().position(|h| h == "CC");
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
                compute_capability: cc.map(cell),
                metrics: HashMap::new(),
            });
        }
        let metric_name = cell(metric);
        if metric_name.is_empty() {
            continue;
        }
        if let Some(k) = kernels.last_mut() {
            k.metrics.insert(metric_name, (cell(unit), cell(value)));
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
const CYCLES: &[(&str, f64)] = &[("cycle", 1.0)];
/// Rates of cycles, in cycles per second.
const RATES: &[(&str, f64)] = &[
    ("cycle/nsecond", 1e9),
    ("cycle/usecond", 1e6),
    ("cycle/msecond", 1e3),
    ("cycle/second", 1.0),
    ("hz", 1.0),
    ("Hz", 1.0),
];

/// DRAM byte metrics: the total, or read and write pairs.
const BYTE_METRICS: [&[&str]; 3] = [
    &["dram__bytes.sum"],
    &["dram__bytes_read.sum", "dram__bytes_write.sum"],
    &["dram__bytes_op_read.sum", "dram__bytes_op_write.sum"],
];

/// Elapsed-cycle counters with their rates, in the order they are used.
const CYCLE_METRICS: [&str; 3] = [
    "sm__cycles_elapsed",
    "gpc__cycles_elapsed",
    "smsp__cycles_elapsed",
];

type Reader<'a> = dyn Fn(&Profiled, &str, &[(&str, f64)]) -> Result<Option<f64>, ImportError> + 'a;

fn metric(
    k: &Profiled,
    name: &str,
    units: &[(&str, f64)],
    convention: Convention,
) -> Result<Option<f64>, ImportError> {
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
    let v = number_in(text, convention).ok_or_else(|| bad(format!("`{text}` is not a number")))?;
    if v < 0.0 {
        return Err(bad(format!("{text} is negative")));
    }
    let unit = unit.trim();
    let s = scale(unit, units)
        .or_else(|| {
            // `Ghz`, `Mhz`: a prefix before `hz`, any case.
            let lower = unit.to_ascii_lowercase();
            let prefix = lower.strip_suffix("hz")?;
            let m = match prefix {
                "" => 1.0,
                "k" => 1e3,
                "m" => 1e6,
                "g" => 1e9,
                _ => return None,
            };
            units.iter().any(|(b, _)| *b == "hz").then_some(m)
        })
        .ok_or_else(|| bad(format!("unit `{unit}` is not known")))?;
    Ok(Some(v * s))
}

/// Which time metric a kernel has, if any.
fn time_metric(k: &Profiled) -> Option<&'static str> {
    let has = |n: &str| {
        k.metrics
            .get(n)
            .is_some_and(|(_, v)| !v.is_empty() && v != "n/a")
    };
    if has("gpu__time_duration.sum") {
        return Some("gpu__time_duration.sum");
    }
    if has("Duration") {
        return Some("Duration");
    }
    CYCLE_METRICS
        .into_iter()
        .find(|c| has(&format!("{c}.avg")) && has(&format!("{c}.avg.per_second")))
}

/// A kernel as a point, and whether tensor operations were counted for it.
fn point(k: &Profiled, read: &Reader) -> Result<(KernelPoint, bool), ImportError> {
    let missing = |what: &str| ImportError::BadValue {
        line: k.line,
        column: what.into(),
        why: format!(
            "kernel `{}` (ID {}) has no value, though other kernels in the file do",
            k.name, k.id
        ),
    };
    let time = match time_metric(k) {
        Some(t @ ("gpu__time_duration.sum" | "Duration")) => read(k, t, SECONDS)?,
        Some(cycles) => {
            let elapsed = read(k, &format!("{cycles}.avg"), CYCLES)?;
            let rate = read(k, &format!("{cycles}.avg.per_second"), RATES)?;
            match (elapsed, rate) {
                (Some(c), Some(r)) if r > 0.0 => Some(c / r),
                _ => None,
            }
        }
        None => None,
    }
    .ok_or_else(|| missing("gpu__time_duration.sum"))?;
    if time <= 0.0 {
        return Err(ImportError::BadValue {
            line: k.line,
            column: "gpu__time_duration.sum".into(),
            why: "the duration is zero".into(),
        });
    }
    let mut bytes = None;
    for names in BYTE_METRICS {
        let mut sum = None;
        for n in names {
            if let Some(v) = read(k, n, BYTES)? {
                *sum.get_or_insert(0.0) += v;
            }
        }
        if sum.is_some() {
            bytes = sum;
            break;
        }
    }
    let bytes = bytes.ok_or_else(|| missing("dram__bytes.sum"))?;
    let work = work(k, read)?;
    let math = match work.tensor_math {
        Some(m) if work.tensor >= work.sass => m,
        _ => math_from_name(&k.name).unwrap_or(if work.from_column {
            Math::Fp16
        } else {
            Math::Fp32
        }),
    };
    let point = KernelPoint {
        kernel: k.name.clone(),
        op: k
            .name
            .split(['(', '<'])
            .next()
            .unwrap_or(&k.name)
            .to_string(),
        phase: String::new(),
        format: None,
        math,
        block_scaled: false,
        flops: if work.counted { work.flops() } else { 0.0 },
        flops_counted: work.counted,
        bytes,
        time_s: time,
        energy_j: None,
        source: KernelSource::NsightCompute,
    };
    Ok((point, work.tensor > 0.0))
}

/// A kernel's counted work.
struct Work {
    /// From a `flops` column.
    from_column: bool,
    column: f64,
    /// SASS floating-point FLOPs.
    sass: f64,
    /// Tensor-core operations.
    tensor: f64,
    /// The tensor type with the most operations.
    tensor_math: Option<Math>,
    /// Whether the figures add up to the kernel's work.
    counted: bool,
}

impl Work {
    fn flops(&self) -> f64 {
        if self.from_column {
            self.column
        } else {
            self.sass + self.tensor
        }
    }
}

/// Whether a kernel's name says it multiplies matrices (on tensor cores when it can).
fn looks_like_tensor_work(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "gemm",
        "mma",
        "matmul",
        "conv",
        "attention",
        "flash",
        "fmha",
        "cutlass",
        "cublas",
    ]
    .iter()
    .any(|w| n.contains(w))
}

/// The math type of a tensor operation counter's source type (`src_bf16`).
fn tensor_math(source: &str) -> Option<Math> {
    Some(match source {
        "fp64" => Math::Fp64,
        "tf32" => Math::Tf32,
        "bf16" => Math::Bf16,
        "fp16" => Math::Fp16,
        "fp8" | "e4m3" | "e5m2" => Math::Fp8,
        "fp4" | "e2m1" => Math::Fp4,
        "int8" | "s8" | "u8" => Math::Int8,
        "int4" | "s4" | "u4" => Math::Int4,
        _ => return None,
    })
}

fn work(k: &Profiled, read: &Reader) -> Result<Work, ImportError> {
    let mut w = Work {
        from_column: false,
        column: 0.0,
        sass: 0.0,
        tensor: 0.0,
        tensor_math: None,
        counted: false,
    };
    if let Some(f) = read(k, "flops", COUNTS)? {
        w.from_column = true;
        w.column = f;
        w.counted = true;
        return Ok(w);
    }
    let mut sass_found = false;
    for prefix in ["smsp__", "sm__"] {
        for p in ["d", "f", "h"] {
            for (op, weight) in [("add", 1.0), ("mul", 1.0), ("fma", 2.0)] {
                let name = format!("{prefix}sass_thread_inst_executed_op_{p}{op}_pred_on.sum");
                if let Some(v) = read(k, &name, COUNTS)? {
                    w.sass += weight * v;
                    sass_found = true;
                }
            }
        }
        if sass_found {
            break;
        }
    }
    let mut best = 0.0;
    let mut tensor_found = false;
    let mut names: Vec<&String> = k.metrics.keys().collect();
    rooflinr_model::sort::sort(&mut names);
    for name in names {
        let Some(rest) = name
            .strip_prefix("sm__ops_path_tensor_src_")
            .and_then(|r| r.strip_suffix(".sum"))
        else {
            continue;
        };
        if let Some(v) = read(k, name, COUNTS)? {
            tensor_found = true;
            w.tensor += v;
            let source = rest.split("_dst_").next().unwrap_or(rest);
            if v > best {
                best = v;
                w.tensor_math = tensor_math(source);
            }
        }
    }
    // Tensor instructions ran but their work was not counted: the total would be short.
    let mut tensor_instructions = None;
    for (name, _) in k.metrics.iter() {
        if name.contains("inst_executed_pipe_tensor") && name.ends_with(".sum") {
            *tensor_instructions.get_or_insert(0.0) += read(k, name, COUNTS)?.unwrap_or(0.0);
        }
    }
    w.counted = match (sass_found, tensor_found, tensor_instructions) {
        (_, true, _) => true,
        (false, false, _) => false,
        (true, false, Some(instructions)) => instructions == 0.0,
        // CUDA-core counts only, and no tensor counter in the file: a kernel that looks
        // like tensor-core work (a GEMM, an MMA, attention) and shows no CUDA-core FLOPs
        // did its work where these counters do not look.
        (true, false, None) => !(w.sass == 0.0 && looks_like_tensor_work(&k.name)),
    };
    Ok(w)
}
