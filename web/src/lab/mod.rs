//! The measuring half of the calculator: pairing with a `rooflinr-agent`, its measurements
//! and imported kernels, and what they say against the roofline (calibration, errors,
//! energy). This module is pure; [`link`] holds the WebSocket and [`view`] the components.
//!
//! Pairing links carry the agent's address and token in the fragment
//! (`#agent=http://127.0.0.1:7878&token=...`), which browsers never send to a server.

pub mod energy;
pub mod lazy;
pub mod link;
pub mod view;

use rooflinr_model::analysis::{self, ModelAnalysis};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::roofline::Efficiency;
use rooflinr_protocol::{AgentHello, Measurement, OperatorShape};
use rooflinr_report::calibrate::{self, Calibration, Compared, ErrorSummary};
use rooflinr_report::import::{Imported, LabFile};
use rooflinr_report::{KernelPoint, KernelSource, MeasuredCeilings};

use crate::compute::ModelView;

/// Where an agent listens and the token it expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// `http://127.0.0.1:7878`.
    pub agent: String,
    /// The token the agent printed.
    pub token: String,
}

impl Pairing {
    /// `agent=URL&token=T`, as a pairing link's fragment holds it (without the `#`).
    pub fn to_fragment(&self) -> String {
        form_urlencoded::Serializer::new(String::new())
            .append_pair("agent", &self.agent)
            .append_pair("token", &self.token)
            .finish()
    }
}

/// Reads `#agent=URL&token=T` (the fragment of a pairing link, with or without `#`).
pub fn pairing_from_fragment(fragment: &str) -> Option<Pairing> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let mut agent = None;
    let mut token = None;
    for (k, v) in form_urlencoded::parse(fragment.as_bytes()) {
        match k.as_ref() {
            "agent" => agent = Some(v.trim().to_string()),
            "token" => token = Some(v.trim().to_string()),
            _ => {}
        }
    }
    let agent = agent.filter(|a| !a.is_empty())?;
    Some(Pairing {
        agent,
        token: token.unwrap_or_default(),
    })
}

/// The device the paired agent measures by default (its first usable backend) when the
/// hardware registry lists it: (the device's name, its registry key).
pub fn paired_registry_device(hello: &AgentHello) -> Option<(String, String)> {
    let device = hello
        .backends
        .iter()
        .find(|b| b.available)?
        .device
        .as_ref()?;
    Some((device.name.clone(), device.registry_key.clone()?))
}

/// The WebSocket address of an agent given by its HTTP address (`http://h:p` ->
/// `ws://h:p/ws`); a bare `host:port` is taken as `http://`.
pub fn ws_url(agent: &str) -> Result<String, String> {
    let agent = agent.trim();
    let (scheme, rest) = match agent.split_once("://") {
        Some(("http", rest)) => ("ws", rest),
        Some(("https", rest)) => ("wss", rest),
        Some((other, _)) => {
            return Err(format!(
                "`{other}://` is not an agent address: use http://HOST:PORT"
            ));
        }
        None => ("ws", agent),
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.is_empty() || authority.ends_with(':') || authority.contains(char::is_whitespace) {
        return Err(format!(
            "`{agent}` is not an agent address: use http://HOST:PORT"
        ));
    }
    Ok(format!("{scheme}://{authority}/ws"))
}

/// Seconds to wait before reconnection attempt `attempt` (1, 2, 4 ... 30).
pub fn backoff_s(attempt: u32) -> u32 {
    1u32.checked_shl(attempt.min(5)).unwrap_or(u32::MAX).min(30)
}

/// Parses `1x4096x4096, 16x4096x4096` (M x N x K) into shapes.
pub fn parse_shapes(text: &str) -> Result<Vec<OperatorShape>, String> {
    let mut shapes = Vec::new();
    for part in text
        .split([',', ';', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let dims: Vec<&str> = part.split(['x', 'X', '×', '*']).map(str::trim).collect();
        let [m, n, k] = dims.as_slice() else {
            return Err(format!(
                "`{part}` is not M x N x K (for example 1x4096x4096)"
            ));
        };
        let dim = |d: &str| -> Result<u64, String> {
            d.replace('_', "")
                .parse::<u64>()
                .map_err(|_| format!("in `{part}`: `{d}` is not a whole number"))
        };
        let shape = OperatorShape {
            m: dim(m)?,
            n: dim(n)?,
            k: dim(k)?,
        };
        // The agent's own limit, checked by the protocol's one rule.
        shape.check().map_err(|e| format!("in `{part}`: {e}"))?;
        shapes.push(shape);
    }
    if shapes.is_empty() {
        return Err("enter at least one shape, such as 1x4096x4096".into());
    }
    Ok(shapes)
}

/// What the lab keeps across reloads: the agent's measurements and imported kernels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabData {
    /// Measurements from the agent (ceilings and operators).
    pub measurements: Vec<Measurement>,
    /// Kernels imported from files.
    pub kernels: Vec<KernelPoint>,
}

impl LabData {
    /// The export file for these data, predicted for `hardware`.
    pub fn to_file(&self, hardware: &str) -> LabFile {
        LabFile::new(
            Some(hardware.to_string()),
            self.measurements.clone(),
            self.kernels.clone(),
        )
    }

    /// Adds what a file held; returns how many records were added.
    pub fn merge(&mut self, imported: Imported) -> usize {
        let n = imported.measurements.len() + imported.kernels.len();
        self.measurements.extend(imported.measurements);
        self.kernels.extend(imported.kernels);
        n
    }

    /// Every kernel point: operator measurements, then imports.
    pub fn points(&self) -> Vec<KernelPoint> {
        self.measurements
            .iter()
            .filter_map(KernelPoint::from_measurement)
            .chain(self.kernels.iter().cloned())
            .collect()
    }

    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.measurements.is_empty() && self.kernels.is_empty()
    }
}

/// The lab's data against one device's datasheet.
#[derive(Clone, Debug, PartialEq)]
pub struct LabView {
    /// Every point with its datasheet and calibrated predictions.
    pub rows: Vec<Compared>,
    /// Whether calibrated errors are leave-one-out.
    pub leave_one_out: bool,
    /// Errors per format and regime.
    pub summary: Vec<ErrorSummary>,
    /// One fit per source (an agent on one device, one imported file), over all its points.
    pub calibrations: Vec<(KernelSource, Calibration)>,
    /// Measured ceilings.
    pub ceilings: MeasuredCeilings,
    /// Mean power over the measurements that read an energy counter, W.
    pub mean_power_w: Option<f64>,
}

/// Compares the lab's data with `hw`'s datasheet.
pub fn analyse(data: &LabData, hw: &Hardware) -> LabView {
    let points = data.points();
    let ceilings = MeasuredCeilings::from_measurements(&data.measurements);
    let (rows, leave_one_out) = calibrate::compare(&points, hw, &ceilings);
    let (joules, seconds) = points
        .iter()
        .filter_map(|p| p.energy_j.map(|j| (j, p.time_s)))
        .fold((0.0, 0.0), |(j, s), (pj, ps)| (j + pj, s + ps));
    LabView {
        summary: calibrate::summarise(&rows),
        calibrations: calibrate::by_source(&points, hw, &ceilings),
        rows,
        leave_one_out,
        ceilings,
        mean_power_w: (seconds > 0.0).then(|| joules / seconds),
    }
}

/// A whole-model prediction under the calibrated roof.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibrated {
    /// The source whose fit is applied.
    pub source: KernelSource,
    /// The datasheet analysis (as the calculator shows it).
    pub datasheet: ModelAnalysis,
    /// The same analysis with the fitted fractions for the model's weight format.
    pub calibrated: ModelAnalysis,
    /// The efficiency used.
    pub efficiency: Efficiency,
    /// Joules per token, estimated as mean measured power x calibrated time per token.
    pub joules_per_token: Option<f64>,
}

impl LabView {
    /// The fit whole-model predictions use: the agent source with the most points, else
    /// the source with the most points.
    pub fn model_calibration(&self) -> Option<&(KernelSource, Calibration)> {
        let points = |source: &KernelSource| {
            self.rows
                .iter()
                .filter(|r| r.point.source == *source)
                .count()
        };
        let agent = self
            .calibrations
            .iter()
            .filter(|(s, _)| s.agent_device().is_some())
            .max_by_key(|(s, _)| points(s));
        agent.or_else(|| self.calibrations.iter().max_by_key(|(s, _)| points(s)))
    }
}

/// Applies the calibration to the model the calculator shows.
pub fn calibrate_model(view: &ModelView, lab: &LabView, hw: &Hardware) -> Option<Calibrated> {
    let format = view.scenario.precision.weights.name();
    let (source, calibration) = lab.model_calibration()?;
    let efficiency = calibration.efficiency_for(&format);
    let calibrated = analysis::analyze(&view.config, hw, &view.scenario, &efficiency).ok()?;
    let tokens_per_step = calibrated.tokens_per_s * calibrated.time.get();
    let joules_per_token = lab
        .mean_power_w
        .filter(|_| tokens_per_step > 0.0)
        .map(|w| w * calibrated.time.get() / tokens_per_step);
    Some(Calibrated {
        source: source.clone(),
        datasheet: view.analysis.clone(),
        calibrated,
        efficiency,
        joules_per_token,
    })
}

/// Width of a telemetry sparkline, CSS pixels.
pub const SPARK_W: f64 = 180.0;
/// Height of a telemetry sparkline, CSS pixels.
pub const SPARK_H: f64 = 40.0;

/// The polyline of the last values, scaled to the box (at most one point per pixel).
pub fn sparkline(values: &[f64]) -> String {
    if values.is_empty() {
        return String::new();
    }
    let step = values.len().div_ceil(SPARK_W as usize).max(1);
    let picked: Vec<f64> = values.iter().step_by(step).copied().collect();
    let lo = picked.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = picked.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let span = (hi - lo).max(hi.abs() * 0.02).max(1e-9);
    let n = picked.len().max(2) - 1;
    picked
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let x = i as f64 / n as f64 * SPARK_W;
            let y = SPARK_H - 3.0 - (v - lo) / span * (SPARK_H - 6.0);
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One phase of the lab's kernels.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseRow {
    /// `decode`, `prefill`, or `unspecified`.
    pub phase: String,
    /// Kernels in it.
    pub kernels: usize,
    /// Their measured time, seconds.
    pub time_s: f64,
    /// The share of that time in kernels the calibrated roofline calls memory-bound.
    pub memory_share: f64,
}

/// Per phase: kernels, their measured time, and the share of it in kernels the calibrated
/// roofline calls memory-bound.
pub fn phase_rows(v: &LabView) -> Vec<PhaseRow> {
    let mut phases: Vec<String> = v
        .rows
        .iter()
        .map(|r| r.point.phase_label().to_string())
        .collect();
    rooflinr_model::sort::sort(&mut phases);
    phases.dedup();
    phases
        .into_iter()
        .map(|phase| {
            let members: Vec<_> = v
                .rows
                .iter()
                .filter(|r| r.point.phase_label() == phase)
                .collect();
            let time: f64 = members.iter().map(|r| r.point.time_s).sum();
            let memory: f64 = members
                .iter()
                .filter(|r| r.calibrated_bound == rooflinr_model::roofline::Bound::Memory)
                .map(|r| r.point.time_s)
                .sum();
            PhaseRow {
                phase,
                kernels: members.len(),
                time_s: time,
                memory_share: if time > 0.0 { memory / time } else { 0.0 },
            }
        })
        .collect()
}
#[cfg(all(test, not(target_arch = "wasm32")))] // native only: proptest needs an OS RNG
mod tests;
