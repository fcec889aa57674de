//! What the roofline chart draws, from the calculator's predictions (`compute`) and the
//! lab's measurements (`lab`): this module depends on both, neither on it.

use std::collections::BTreeSet;

use rooflinr_model::analysis::Phase;
use rooflinr_model::format::{Format, Math};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::ops::{Op, OpPrediction};
use rooflinr_model::roofline::Bound;

use rooflinr_report::chart::roofs::{self, Roof, RoofSource};

use crate::chart::geometry::Extent;
use crate::compute::{ModelView, OperatorView, op_format};
use crate::lab::LabView;

/// One compute roof of the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct RoofSeries {
    /// Legend key (`roof:fp8`).
    pub key: String,
    /// Operation type (`fp8`).
    pub math: Math,
    /// Dense peak, FLOP/s.
    pub peak: f64,
    /// Ridge point, FLOP/B.
    pub ridge: f64,
}

/// One operator point of the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartPoint {
    /// Legend key of its format (`fmt:nvfp4`).
    pub key: String,
    /// Format name.
    pub format: String,
    /// Operator name.
    pub name: String,
    /// Prefill or decode (decides the marker's shape).
    pub phase: Phase,
    /// FLOPs of one instance.
    pub flops: f64,
    /// Bytes of one instance.
    pub bytes: f64,
    /// FLOP/B.
    pub intensity: f64,
    /// Predicted FLOP/s (FLOPs / predicted time).
    pub performance: f64,
    /// Predicted time of one instance, s.
    pub time: f64,
    /// Which limit binds.
    pub bound: Bound,
    /// Instances per pass.
    pub count: f64,
    /// Whether this is the user's chosen configuration (drawn larger).
    pub selected: bool,
}

/// Everything the roofline chart draws.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartData {
    /// Memory bandwidth, B/s.
    pub bandwidth: f64,
    /// One roof per operation type the device lists.
    pub roofs: Vec<RoofSeries>,
    /// Operator points.
    pub points: Vec<ChartPoint>,
    /// Measured kernels (from the agent or an import), each with its datasheet twin.
    pub measured: Vec<MeasuredMark>,
    /// The roofline an agent measured, if it did.
    pub measured_roof: Option<MeasuredRoof>,
}

/// A measured kernel on the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredMark {
    /// Kernel name.
    pub label: String,
    /// Calibration key (weight format).
    pub format: String,
    /// The kernel's phase (`decode`, `prefill`, or what an import said), which sets the
    /// marker's shape.
    pub phase: String,
    /// FLOPs per byte.
    pub intensity: f64,
    /// Measured FLOP/s.
    pub measured: f64,
    /// FLOP/s the datasheet roofline predicts for the same work.
    pub predicted: f64,
    /// (datasheet time - measured time) / measured time.
    pub error: f64,
}

/// The measured ceilings, drawn dashed.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredRoof {
    /// Copy or triad bandwidth, B/s.
    pub bandwidth: f64,
    /// Peak GEMM rate per format, FLOP/s.
    pub peaks: Vec<(Format, f64)>,
}

impl ChartData {
    /// The chart in words, for screen readers: what is plotted and what binds, per phase.
    pub fn summary(&self) -> String {
        let mut parts = vec![format!(
            "Roofline chart, log-log: memory roof {}",
            rooflinr_model::units::si(self.bandwidth, "B/s")
        )];
        if let Some(top) = self.roofs.iter().max_by(|a, b| a.peak.total_cmp(&b.peak)) {
            parts.push(format!(
                "highest compute roof {} {} (ridge {:.0} FLOP/B)",
                top.math.name().to_ascii_uppercase(),
                rooflinr_model::units::si(top.peak, "FLOP/s"),
                top.ridge
            ));
        }
        for phase in [Phase::Decode, Phase::Prefill] {
            let of_phase: Vec<&ChartPoint> =
                self.points.iter().filter(|p| p.phase == phase).collect();
            if of_phase.is_empty() {
                continue;
            }
            let memory = of_phase.iter().filter(|p| p.bound == Bound::Memory).count();
            parts.push(format!(
                "{}: {} of {} operator points memory-bound, {} compute-bound",
                phase.name(),
                memory,
                of_phase.len(),
                of_phase.len() - memory
            ));
        }
        if !self.measured.is_empty() {
            parts.push(format!("{} measured kernels", self.measured.len()));
        }
        parts.join("; ") + ". Each point is focusable; the operator table lists the same figures."
    }

    fn new(hw: &Hardware) -> Self {
        let bandwidth = hw.memory_bandwidth.value.get();
        ChartData {
            bandwidth,
            roofs: hw
                .peaks
                .iter()
                .map(|p| RoofSeries {
                    key: format!("roof:{}", p.math.name()),
                    math: p.math,
                    peak: p.rate.value.get(),
                    ridge: p.rate.value.get() / bandwidth,
                })
                .collect(),
            points: Vec::new(),
            measured: Vec::new(),
            measured_roof: None,
        }
    }

    /// Adds the lab's measured kernels and ceilings.
    pub fn with_lab(mut self, lab: &LabView) -> Self {
        self.measured = lab
            .rows
            .iter()
            .filter(|r| r.point.flops > 0.0 && r.point.bytes > 0.0)
            .map(|r| MeasuredMark {
                label: r.point.kernel.clone(),
                format: r.key.clone(),
                phase: r.point.phase.clone(),
                intensity: r.point.intensity(),
                measured: r.point.achieved_flops_per_s(),
                predicted: r.point.flops / r.datasheet_s,
                error: r.datasheet_error(),
            })
            .collect();
        self.measured_roof = lab.ceilings.bandwidth.as_ref().map(|(bw, _)| MeasuredRoof {
            bandwidth: *bw,
            peaks: lab
                .ceilings
                .peaks
                .iter()
                .map(|p| (p.format, p.flops_per_s))
                .collect(),
        });
        self
    }

    fn push(
        &mut self,
        name: &str,
        format: Format,
        phase: Phase,
        r: &OpPrediction,
        count: f64,
        selected: bool,
    ) {
        let p = &r.prediction;
        let time = p.time.get();
        if !(time > 0.0 && r.cost.work.flops.get() > 0.0) {
            return; // no FLOPs: nothing to place on a FLOP/s axis
        }
        self.points.push(ChartPoint {
            key: format!("fmt:{}", format.name()),
            format: format.name(),
            name: name.to_string(),
            phase,
            flops: r.cost.work.flops.get(),
            bytes: r.cost.work.bytes.get(),
            intensity: p.intensity.get(),
            performance: r.cost.work.flops.get() / time,
            time,
            bound: p.bound,
            count,
            selected,
        });
    }

    /// Operator mode: the operator under every ranked format; the chosen formats' point is
    /// marked selected.
    pub fn for_operator(hw: &Hardware, view: &OperatorView) -> Self {
        let mut data = ChartData::new(hw);
        let phase = match view.op {
            Op::Gemm { m, .. } if m <= 16.0 => Phase::Decode,
            Op::FusedAttention(s) if s.q_len <= 16.0 => Phase::Decode,
            _ => Phase::Prefill,
        };
        for row in &view.ranking {
            let selected = row.precision == view.precision;
            data.push(view.name, row.format, phase, &row.result, 1.0, selected);
        }
        if !view.ranking.iter().any(|r| r.precision == view.precision) {
            let format = match view.op {
                Op::FusedAttention(_) => view.precision.kv,
                _ => view.precision.weights,
            };
            data.push(view.name, format, phase, &view.result, 1.0, true);
        }
        data
    }

    /// Model mode: every operator of both phases.
    pub fn for_model(hw: &Hardware, view: &ModelView) -> Self {
        let mut data = ChartData::new(hw);
        for (a, selected) in [(&view.other, false), (&view.analysis, true)] {
            let phase = if selected {
                view.scenario.phase
            } else {
                match view.scenario.phase {
                    Phase::Prefill => Phase::Decode,
                    Phase::Decode => Phase::Prefill,
                }
            };
            for r in &a.ops {
                data.push(r.name(), op_format(r), phase, &r.result, r.count, selected);
            }
        }
        data
    }

    /// The extent the auto-fit must show: every point and every ridge.
    pub fn extent(&self) -> Extent {
        let mut e = Extent::default();
        for p in &self.points {
            e.include(p.intensity, p.performance);
        }
        for m in &self.measured {
            e.include(m.intensity, m.measured);
            e.include(m.intensity, m.predicted);
        }
        roofs::include(&mut e, &self.chart_roofs(&BTreeSet::new()).roofs);
        e
    }

    /// The roofs the chart draws, those whose legend keys are in `hidden` left out: the
    /// datasheet's and the measured ones, with their memory slopes.
    pub fn chart_roofs(&self, hidden: &BTreeSet<String>) -> ChartRoofs {
        let mut roofs: Vec<Roof> = Vec::new();
        for r in &self.roofs {
            if !hidden.contains(&r.key) {
                let name = r.math.name().to_ascii_uppercase();
                let bw = self.bandwidth;
                roofs.push(Roof::new(name, r.math, r.peak, bw, RoofSource::Datasheet));
            }
        }
        if let Some(m) = &self.measured_roof {
            for (format, peak) in &m.peaks {
                let (name, math) = (format.name(), format.math());
                roofs.push(Roof::new(
                    name,
                    math,
                    *peak,
                    m.bandwidth,
                    RoofSource::Measured,
                ));
            }
        }
        let mut slopes = vec![(self.bandwidth, RoofSource::Datasheet)];
        if let Some(m) = &self.measured_roof {
            slopes.push((m.bandwidth, RoofSource::Measured));
        }
        ChartRoofs {
            roofs: Roof::merged(roofs),
            slopes,
        }
    }
}

/// The roofs a chart draws, in the shared chart's terms ([`rooflinr_report::chart::roofs`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ChartRoofs {
    /// Compute roofs, equal ones merged.
    pub roofs: Vec<Roof>,
    /// Memory roofs (bandwidth, source).
    pub slopes: Vec<(f64, RoofSource)>,
}
