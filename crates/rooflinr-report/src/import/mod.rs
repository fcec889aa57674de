//! Kernel tables from outside: CSV in the shape the prototype's benchmark scripts write,
//! Nsight Compute CSV exports (the raw page, one row per kernel, or the details page, one
//! row per metric), rooflinr's own JSON export ([`LabFile`]) and the agent's JSONL results.
//!
//! [`import`] tells the kinds apart by their header, wherever it is: Nsight Compute's may
//! follow the application's own output and ncu's `==PROF==` lines, after a BOM, with CRLF
//! line ends. Exports of tools that carry no bytes or FLOPs (Nsight Systems kernel
//! summaries, PyTorch profiler tables) are recognised and refused with what to export
//! instead. Every refusal names the line and the column at fault, or the metric a file
//! lacks with the command that collects it; nothing here panics on any input (fuzzed in
//! `fuzz/`, property-tested in `tests.rs`).

pub mod energy;
mod nsight;
pub mod serving;
mod table;

use rooflinr_model::format::Math;
use rooflinr_protocol::{JobResult, Measurement, ServerMessage};
use serde::{Deserialize, Serialize};

use crate::kernel::KernelPoint;

/// The largest file accepted, bytes.
pub const MAX_IMPORT_BYTES: usize = 32 << 20;
/// The most kernels one file may hold.
pub const MAX_ROWS: usize = 100_000;

/// Why a file could not be imported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// Nothing in the file.
    #[error("the file is empty")]
    Empty,
    /// Over [`MAX_IMPORT_BYTES`].
    #[error("the file is {bytes} bytes; the most accepted is {MAX_IMPORT_BYTES}")]
    TooLarge {
        /// Its size.
        bytes: usize,
    },
    /// Over [`MAX_ROWS`] kernels.
    #[error("the file holds more than {MAX_ROWS} kernels")]
    TooManyRows,
    /// A column the kind needs is not in the header.
    #[error("no `{column}` column (the header has: {found})")]
    MissingColumn {
        /// What is needed (and its accepted spellings).
        column: String,
        /// The header as read.
        found: String,
    },
    /// A cell that cannot be used.
    #[error("line {line}, column `{column}`: {why}")]
    BadValue {
        /// 1-based line in the file.
        line: usize,
        /// The column.
        column: String,
        /// What is wrong with the value.
        why: String,
    },
    /// The CSV itself is broken.
    #[error("line {line}: {message}")]
    Csv {
        /// 1-based line.
        line: usize,
        /// The reader's message.
        message: String,
    },
    /// JSON that is not a rooflinr export.
    #[error("not a rooflinr export: {0}")]
    Json(String),
    /// A file with a header but no kernels.
    #[error("the file has a header but no kernels")]
    NoRows,
    /// A profiler export without a figure rooflinr needs.
    #[error(
        "this Nsight Compute {page} export of {read} has no {what}; re-export with `{command}`"
    )]
    MissingMetric {
        /// The figure, with the metric names looked for.
        what: &'static str,
        /// `raw-page` or `details-page`.
        page: &'static str,
        /// What the file was read to hold, so the user knows it was understood: its
        /// launches, kernels and device (`16 launches of 3 kernels on NVIDIA B200, compute
        /// capability 10.0`).
        read: String,
        /// The ncu command line that collects every metric rooflinr reads.
        command: String,
    },
    /// Another tool's export, which holds no bytes or FLOPs.
    #[error("this is {what}: {advice}")]
    Unsupported {
        /// What the file is.
        what: &'static str,
        /// What to export instead.
        advice: String,
    },
}

/// Which kind of file was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A kernel table (the prototype's benchmark CSV).
    KernelCsv,
    /// An Nsight Compute CSV export.
    NsightCompute,
    /// rooflinr's JSON export.
    RooflinrJson,
    /// The agent's JSONL results.
    AgentJsonl,
}

impl Kind {
    /// As shown to users.
    pub fn name(self) -> &'static str {
        match self {
            Kind::KernelCsv => "kernel CSV",
            Kind::NsightCompute => "Nsight Compute CSV",
            Kind::RooflinrJson => "rooflinr JSON",
            Kind::AgentJsonl => "agent JSONL",
        }
    }
}

/// What a file held.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The kind it was read as.
    pub kind: Kind,
    /// Imported kernels (CSV and Nsight kinds, and any a JSON export carried).
    pub kernels: Vec<KernelPoint>,
    /// Agent measurements (JSON and JSONL kinds), ceilings included.
    pub measurements: Vec<Measurement>,
    /// The device the export was made for, when it says.
    pub hardware: Option<String>,
    /// Things a reader should know (assumptions made, rows skipped).
    pub notes: Vec<String>,
}

impl Imported {
    /// The operator measurements as kernel points, followed by the imported kernels.
    pub fn all_kernels(&self) -> Vec<KernelPoint> {
        self.measurements
            .iter()
            .filter_map(KernelPoint::from_measurement)
            .chain(self.kernels.iter().cloned())
            .collect()
    }
}

/// The calculator's export: measurements and imported kernels, with the device the
/// predictions were made for.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabFile {
    /// Always `"rooflinr-lab"`.
    pub rooflinr: String,
    /// Version of this layout.
    pub version: u32,
    /// Registry key of the device predictions were made for.
    #[serde(default)]
    pub hardware: Option<String>,
    /// Agent measurements.
    #[serde(default)]
    pub measurements: Vec<Measurement>,
    /// Imported kernels.
    #[serde(default)]
    pub kernels: Vec<KernelPoint>,
}

/// The `rooflinr` field of a [`LabFile`].
pub const LAB_MAGIC: &str = "rooflinr-lab";
/// The version written.
pub const LAB_VERSION: u32 = 1;

impl LabFile {
    /// A file holding these.
    pub fn new(
        hardware: Option<String>,
        measurements: Vec<Measurement>,
        kernels: Vec<KernelPoint>,
    ) -> LabFile {
        LabFile {
            rooflinr: LAB_MAGIC.into(),
            version: LAB_VERSION,
            hardware,
            measurements,
            kernels,
        }
    }
}

/// Reads any of the supported kinds.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    if text.len() > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge { bytes: text.len() });
    }
    let text = text.trim_start_matches('\u{feff}');
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("==")) // ncu prints ==PROF== lines
        .ok_or(ImportError::Empty)?;
    // The agent writes one compact message a line, each led by its `type` tag.
    if first.starts_with("{\"type\"") {
        return agent_jsonl(text);
    }
    if first.starts_with('{') {
        return lab_json(text);
    }
    if let Some(refusal) = foreign(text) {
        return Err(refusal);
    }
    // Nsight Compute's header may follow the application's own output: blank what comes
    // before it, keeping line numbers.
    if let Some(at) = text
        .lines()
        .take(HEADER_SEARCH_LINES)
        .position(nsight::looks_like)
    {
        let rest: Vec<&str> = text.lines().skip(at).collect();
        return nsight::parse(&("\n".repeat(at) + &rest.join("\n")));
    }
    table::parse(text)
}

/// How far into a file a profiler's header is looked for.
const HEADER_SEARCH_LINES: usize = 200;

/// The command that collects what rooflinr reads, for the refusals of other tools' files.
fn ncu_advice() -> String {
    format!(
        "it has times but neither bytes nor FLOPs; profile the kernels with Nsight Compute, `ncu --csv --page raw --metrics {} ./your_app > kernels.csv`, or write a kernel CSV (kernel,op,flops,bytes,time_us)",
        nsight::METRICS
    )
}

/// Another tool's export, recognised by its header: a refusal saying what it is.
fn foreign(text: &str) -> Option<ImportError> {
    let head: Vec<&str> = text.lines().take(HEADER_SEARCH_LINES).collect();
    let any = |f: &dyn Fn(&str) -> bool| head.iter().any(|l| f(l));
    if any(&|l| l.contains("Total Time (ns)") && l.contains("Instances") && l.contains("Name")) {
        return Some(ImportError::Unsupported {
            what: "an Nsight Systems kernel summary (nsys stats --report cuda_gpu_kern_sum)",
            advice: ncu_advice(),
        });
    }
    // The table's rules: runs of dashes separated by spaces.
    let ruled =
        any(&|l| l.contains("----------") && l.trim().chars().all(|c| c == '-' || c == ' '));
    if ruled
        && any(&|l| l.contains("Self CPU %") || (l.contains("Self CUDA") && l.contains("Name")))
    {
        return Some(ImportError::Unsupported {
            what: "a PyTorch profiler table (prof.key_averages().table())",
            advice: ncu_advice(),
        });
    }
    None
}

fn lab_json(text: &str) -> Result<Imported, ImportError> {
    // `from_slice` everywhere: one instantiation of each deserializer (the wasm bundle is
    // sensitive to that), the same one the protocol's `decode` uses.
    let file: LabFile =
        serde_json::from_slice(text.as_bytes()).map_err(|e| ImportError::Json(e.to_string()))?;
    if file.rooflinr != LAB_MAGIC {
        return Err(ImportError::Json(format!(
            "the `rooflinr` field is `{}`, expected `{LAB_MAGIC}`",
            file.rooflinr
        )));
    }
    if file.version != LAB_VERSION {
        return Err(ImportError::Json(format!(
            "layout version {} is not {LAB_VERSION}, the one this build reads",
            file.version
        )));
    }
    if file.measurements.len() + file.kernels.len() > MAX_ROWS {
        return Err(ImportError::TooManyRows);
    }
    for (i, k) in file.kernels.iter().enumerate() {
        check_kernel(k).map_err(|why| ImportError::Json(format!("kernel {}: {why}", i + 1)))?;
    }
    Ok(Imported {
        kind: Kind::RooflinrJson,
        kernels: file.kernels,
        measurements: file.measurements,
        hardware: file.hardware,
        notes: Vec::new(),
    })
}

fn agent_jsonl(text: &str) -> Result<Imported, ImportError> {
    let mut measurements = Vec::new();
    let mut notes = Vec::new();
    let lines = text.lines().count();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        // The protocol's one decoder, with its size limit.
        match rooflinr_protocol::decode::<ServerMessage>(line.as_bytes()) {
            Ok(ServerMessage::Result(JobResult { measurement, .. })) => {
                measurements.push(*measurement)
            }
            Ok(_) => {}
            // A results file cut short by a crash ends in a partial line: say so, keep the rest.
            Err(e) if i + 1 == lines => notes.push(format!(
                "line {} is incomplete and was skipped ({e})",
                i + 1
            )),
            Err(e) => {
                return Err(ImportError::Json(format!("line {}: {e}", i + 1)));
            }
        }
        if measurements.len() > MAX_ROWS {
            return Err(ImportError::TooManyRows);
        }
    }
    if measurements.is_empty() {
        return Err(ImportError::NoRows);
    }
    Ok(Imported {
        kind: Kind::AgentJsonl,
        kernels: Vec::new(),
        measurements,
        hardware: None,
        notes,
    })
}

/// A kernel's figures are usable on a log-log chart and in a table.
fn check_kernel(k: &KernelPoint) -> Result<(), String> {
    if !(k.time_s.is_finite() && k.time_s > 0.0) {
        return Err(format!("time {} s is not a positive duration", k.time_s));
    }
    for (name, v) in [("FLOPs", k.flops), ("bytes", k.bytes)] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(format!("{name} {v} is not a count"));
        }
    }
    Ok(())
}

/// The compute type a kernel name suggests (`cutlass_scaled_fp4_mm` -> FP4), if any.
pub fn math_from_name(name: &str) -> Option<Math> {
    let n = name.to_ascii_lowercase();
    let hints: [(&[&str], Math); 8] = [
        (&["nvfp4", "fp4", "e2m1", "mxf4"], Math::Fp4),
        (&["fp8", "e4m3", "e5m2", "mxf8", "qmma"], Math::Fp8),
        (&["bf16"], Math::Bf16),
        (&["fp16", "f16", "half", "hmma", "h16"], Math::Fp16),
        (&["int8", "i8", "imma", "s8"], Math::Int8),
        (&["tf32"], Math::Tf32),
        (&["fp64", "dgemm", "f64"], Math::Fp64),
        (&["fp32", "sgemm", "f32"], Math::Fp32),
    ];
    hints
        .iter()
        .find(|(words, _)| words.iter().any(|w| n.contains(w)))
        .map(|(_, m)| *m)
}

/// Parses a number cell: plain, scientific, or with thousands separators (`1,048,576`).
fn number(cell: &str) -> Option<f64> {
    let t = cell.trim().replace(',', "");
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod exports;
#[cfg(test)]
mod tests;
