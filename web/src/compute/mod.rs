//! From the calculator's [`State`] to what it shows: the device, the operator or model
//! analysis, and the chart's data. Every figure comes from `rooflinr_model`; this module
//! only validates the typed inputs (naming the field at fault) and arranges the results.

use rooflinr_model::ModelError;
use rooflinr_model::analysis::{
    self, AttentionKernel, ExpertFormats, ModelAnalysis, OpReport, Phase, Scenario,
};
use rooflinr_model::config::ModelConfig;
use rooflinr_model::format::Format;
use rooflinr_model::hardware::{Hardware, custom, registry};
use rooflinr_model::ops::{AttentionShape, Op, OpPrediction, Precision};
use rooflinr_model::presets;
use rooflinr_model::roofline::Efficiency;

use crate::state::{CUSTOM, OpKind, State, Vary};

mod deploy;
mod deploy_words;
mod imported;
mod measured;

pub use deploy::{
    DeployView, DisaggregatedSearchView, DisaggregatedView, FrontPoint, LaunchText, SearchRow,
    SearchView, deployment, deployment_beside, layout_front, search_layouts, search_workers,
};
pub use deploy_words::{
    Cell, DeployWords, SEARCH_ROWS, SearchLine, SearchTable, Take, layouts_table, workers_table,
};
pub use imported::{IMPORTED_COLUMNS, Imported, ImportedPoint, ImportedRuns, energy_beside};
pub use measured::{MEASURED_COLUMNS, Measured, MeasuredPoint};

/// A problem with the input, shown inline beside the field it names.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The field at fault, as labelled in the UI.
    pub field: String,
    /// What is wrong and what to do.
    pub message: String,
}

impl Problem {
    fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            field: field.into(),
            message: message.into(),
        }
    }

    fn model(field: &str, e: ModelError) -> Self {
        Problem::new(field, e.to_string())
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Largest dimension accepted: the model crate's, as on the command line.
pub use rooflinr_model::ops::MAX_DIM;

/// Parses a whole number between 1 and `max` typed into `field`.
pub fn whole(field: &str, text: &str, max: u64) -> Result<u64, Problem> {
    let t = text.trim().replace('_', "");
    match t.parse::<u64>() {
        Ok(v) if (1..=max).contains(&v) => Ok(v),
        Ok(v) => Err(Problem::new(
            field,
            format!("must be between 1 and {max}, got {v}"),
        )),
        Err(_) if t.is_empty() => Err(Problem::new(field, "enter a whole number")),
        Err(_) => Err(Problem::new(
            field,
            format!("`{}` is not a whole number", text.trim()),
        )),
    }
}

fn format(field: &str, name: &str) -> Result<Format, Problem> {
    name.parse().map_err(|e| Problem::model(field, e))
}

/// The device the state names: a registry entry or the custom device.
pub fn hardware(state: &State) -> Result<Hardware, Problem> {
    if state.hardware != CUSTOM {
        return registry::get(&state.hardware).map_err(|e| Problem::model("hardware", e));
    }
    let c = &state.custom;
    let number = |field: &str, text: &str| -> Result<f64, Problem> {
        text.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v > 0.0)
            .ok_or_else(|| {
                Problem::new(field, format!("`{}` is not a positive number", text.trim()))
            })
    };
    let memory_capacity_gb = if c.capacity_gb.trim().is_empty() {
        None
    } else {
        Some(number("capacity", &c.capacity_gb)?)
    };
    let mut peak_tflops = std::collections::BTreeMap::new();
    for pair in c.peaks.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (math, rate) = pair.split_once(':').ok_or_else(|| {
            Problem::new(
                "peaks",
                format!("`{pair}` should be type:TFLOP/s, e.g. fp16:200"),
            )
        })?;
        peak_tflops.insert(
            math.trim().to_ascii_lowercase(),
            number(&format!("peak {}", math.trim()), rate)?,
        );
    }
    custom::CustomSpec {
        name: c.name.trim().to_string(),
        memory_bandwidth_gb_s: number("bandwidth", &c.bandwidth_gb_s)?,
        memory_capacity_gb,
        block_scaled_mma: c.block_scaled,
        source: Some("entered in the calculator".into()),
        peak_tflops,
        ..custom::CustomSpec::default()
    }
    .build()
    .map_err(|e| Problem::model("custom device", e))
}

/// The formats chosen for each operand.
pub fn precision(state: &State) -> Result<Precision, Problem> {
    Ok(Precision {
        activations: format("activations", &state.activations)?,
        weights: format("weights", &state.weights)?,
        kv: format("KV cache", &state.kv)?,
        output: format("output", &state.output)?,
    })
}

/// The routed experts' formats where the state gives them weights of their own
/// ([`Scenario::experts`]), multiplied with the activations' format; `None` where empty.
pub fn experts(state: &State) -> Result<Option<ExpertFormats>, Problem> {
    if state.experts.is_empty() {
        return Ok(None);
    }
    Ok(Some(ExpertFormats {
        weights: format("experts", &state.experts)?,
        activations: format("activations", &state.activations)?,
    }))
}

/// Formats the ranking compares: the whole catalogue but FP64 (no inference runs in it).
pub fn ranked_formats() -> impl Iterator<Item = Format> {
    Format::CATALOGUE
        .into_iter()
        .filter(|f| !matches!(f, Format::Fp64))
}

/// One format in the operator ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct RankRow {
    /// The format varied.
    pub format: Format,
    /// The operands' formats.
    pub precision: Precision,
    /// The prediction.
    pub result: OpPrediction,
    /// FP16 time / this time.
    pub speedup: f64,
    /// 1 - bytes / FP16 bytes.
    pub bytes_saved: f64,
}

/// Operator mode's result.
#[derive(Clone, Debug, PartialEq)]
pub struct OperatorView {
    /// `gemv`, `gemm` or `attention`.
    pub name: &'static str,
    /// The operator.
    pub op: Op,
    /// The chosen formats.
    pub precision: Precision,
    /// Prediction with the chosen formats.
    pub result: OpPrediction,
    /// Every format, fastest first.
    pub ranking: Vec<RankRow>,
    /// The expected time under the fitted kernel terms the model crate ships for this
    /// device and formats (GEMM and GEMV only), seconds, with the profile.
    pub calibrated: Option<(f64, rooflinr_model::kernel_time::Profile)>,
}

/// The operator the state describes.
pub fn operator_op(state: &State) -> Result<(&'static str, Op), Problem> {
    Ok(match state.op {
        OpKind::Gemv | OpKind::Gemm => {
            let gemv = state.op == OpKind::Gemv;
            let m_label = if gemv { "batch" } else { "M" };
            (
                if gemv { "gemv" } else { "gemm" },
                Op::Gemm {
                    m: whole(m_label, &state.m, MAX_DIM)? as f64,
                    n: whole("N", &state.n, MAX_DIM)? as f64,
                    k: whole("K", &state.k, MAX_DIM)? as f64,
                    bias: false,
                },
            )
        }
        OpKind::Attention => {
            let heads = whole("heads", &state.heads, MAX_DIM)?;
            let kv_heads = whole("KV heads", &state.kv_heads, MAX_DIM)?;
            if heads % kv_heads != 0 {
                return Err(Problem::new(
                    "KV heads",
                    format!("{kv_heads} must divide the {heads} query heads"),
                ));
            }
            let q_len = whole("query tokens", &state.q_len, MAX_DIM)?;
            let kv_len = whole("context", &state.kv_len, MAX_DIM)?;
            if q_len > kv_len {
                return Err(Problem::new(
                    "query tokens",
                    format!(
                        "{q_len} exceeds the context of {kv_len}: queries attend to the context they are part of"
                    ),
                ));
            }
            let d = whole("head dim", &state.head_dim, 65_536)? as f64;
            (
                "attention",
                Op::FusedAttention(AttentionShape {
                    batch: whole("batch", &state.attn_batch, MAX_DIM)? as f64,
                    q_len: q_len as f64,
                    kv_len: kv_len as f64,
                    heads: heads as f64,
                    kv_heads: kv_heads as f64,
                    qk_dim: d,
                    v_dim: d,
                    causal: state.causal,
                    shared_kv: false,
                    window: None,
                }),
            )
        }
    })
}

/// Operator mode: the chosen operator under the chosen formats, and every format ranked.
pub fn operator(state: &State, hw: &Hardware) -> Result<OperatorView, Problem> {
    let (name, op) = operator_op(state)?;
    let chosen = precision(state)?;
    let eff = Efficiency::IDEAL;
    let attention = matches!(op, Op::FusedAttention(_));
    let vary = |f: Format| match state.vary {
        Vary::All => Precision::uniform(f),
        Vary::Weights if attention => Precision { kv: f, ..chosen },
        Vary::Weights => Precision {
            weights: f,
            ..chosen
        },
    };
    let base = op.predict(&vary(Format::Fp16), hw, &eff);
    let mut ranking: Vec<RankRow> = ranked_formats()
        .map(|format| {
            let precision = vary(format);
            let result = op.predict(&precision, hw, &eff);
            RankRow {
                format,
                precision,
                result,
                speedup: base.prediction.time.get() / result.prediction.time.get(),
                bytes_saved: 1.0 - result.cost.work.bytes.get() / base.cost.work.bytes.get(),
            }
        })
        .collect();
    rooflinr_model::sort::sort_by(&mut ranking, |a, b| {
        a.result
            .prediction
            .time
            .get()
            .total_cmp(&b.result.prediction.time.get())
    });
    let result = op.predict(&chosen, hw, &eff);
    Ok(OperatorView {
        calibrated: rooflinr_model::kernel_time::calibrated(
            &op,
            &chosen,
            hw,
            state.framework,
            &result.prediction,
        ),
        name,
        op,
        precision: chosen,
        result,
        ranking,
    })
}

/// The model config the state names: a preset or the pasted `config.json`.
pub fn model_config(state: &State) -> Result<ModelConfig, Problem> {
    if state.model == CUSTOM {
        if state.config.trim().is_empty() {
            return Err(Problem::new(
                "config.json",
                "paste a Hugging Face config.json or choose a file",
            ));
        }
        ModelConfig::from_json(&state.config).map_err(|e| Problem::model("config.json", e))
    } else {
        presets::get(&state.model).map_err(|e| Problem::model("model", e))
    }
}

/// A point of the decode-time curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    /// Context length, tokens.
    pub context: u64,
    /// Predicted decode step time, seconds.
    pub time: f64,
}

/// Model mode's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelView {
    /// The model.
    pub config: ModelConfig,
    /// The scenario analysed.
    pub scenario: Scenario,
    /// The selected phase.
    pub analysis: ModelAnalysis,
    /// The other phase at the same batch and length (drawn on the chart too).
    pub other: ModelAnalysis,
    /// The selected phase with every operator that has a shipped kernel profile (GEMMs,
    /// attention, a MoE block's routed experts as one fused layer) at its expected time (the
    /// rest at the bound).
    pub calibrated: rooflinr_model::kernel_time::CalibratedPass,
    /// Whose kernels the expected time's profiles were fitted on.
    pub framework: rooflinr_model::kernel_time::Framework,
}

impl ModelView {
    /// The note under a pass's time: the scenario, and the expected time where kernel
    /// profiles cover some of its operators.
    pub fn time_note(&self) -> String {
        let scenario = format!(
            "{}, batch {}, {} tokens",
            self.scenario.phase.name(),
            self.scenario.batch,
            self.scenario.seq
        );
        let c = self.calibrated;
        if c.calibrated_ops == 0 {
            return format!("{scenario} · roofline bound");
        }
        format!(
            "{scenario} · roofline bound; expected {} with {} kernels' terms fitted on NVIDIA's measured kernel tables ({} of {} operator kinds{}; the rest at the bound)",
            rooflinr_model::units::si(c.time_s, "s"),
            self.framework.name(),
            c.calibrated_ops,
            c.calibrated_ops + c.bound_ops,
            c.moe_note()
                .map_or_else(String::new, |note| format!(", {note}"))
        )
    }
}

/// One device of a side-by-side comparison: the model and scenario of the view, analysed
/// on it.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceRow {
    /// The device.
    pub hardware: Hardware,
    /// The pass on it.
    pub analysis: ModelAnalysis,
    /// The pass with the device's shipped kernel profiles, where it has any.
    pub calibrated: rooflinr_model::kernel_time::CalibratedPass,
}

/// Model mode's comparison: the chosen device (from the view) and then each device of
/// `state.compare` other than it, in order; empty when nothing is compared. A device the
/// registry does not list is left out (the link parser has already said so).
pub fn comparison(state: &State, hw: &Hardware, view: &ModelView) -> Vec<DeviceRow> {
    let others: Vec<Hardware> = state
        .compare
        .iter()
        .filter(|k| **k != hw.key)
        .filter_map(|k| registry::get(k).ok())
        .collect();
    if others.is_empty() {
        return Vec::new();
    }
    let first = DeviceRow {
        hardware: hw.clone(),
        analysis: view.analysis.clone(),
        calibrated: view.calibrated,
    };
    std::iter::once(first)
        .chain(others.into_iter().filter_map(|other| {
            let analysis =
                analysis::analyze(&view.config, &other, &view.scenario, &Efficiency::IDEAL).ok()?;
            let calibrated = rooflinr_model::kernel_time::calibrated_pass(
                &analysis.ops,
                &other,
                state.framework,
            );
            Some(DeviceRow {
                hardware: other,
                analysis,
                calibrated,
            })
        }))
        .collect()
}

/// Points on the decode-time curve.
pub const CURVE_POINTS: usize = 28;

/// Model mode: the analysis of the selected phase, the other phase, and the decode curve.
pub fn model(state: &State, hw: &Hardware) -> Result<ModelView, Problem> {
    let config = model_config(state)?;
    let batch = whole("batch", &state.batch, 1 << 20)?;
    let seq_label = match state.phase {
        Phase::Prefill => "prompt length",
        Phase::Decode => "context length",
    };
    let seq = whole(seq_label, &state.seq, 1 << 24)?;
    let scenario = Scenario {
        phase: state.phase,
        batch,
        seq,
        precision: precision(state)?,
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: experts(state)?,
    };
    let eff = Efficiency::IDEAL;
    let run = |s: &Scenario| {
        analysis::analyze(&config, hw, s, &eff).map_err(|e| Problem::model(seq_label, e))
    };
    let analysis = run(&scenario)?;
    let other_phase = match state.phase {
        Phase::Prefill => Phase::Decode,
        Phase::Decode => Phase::Prefill,
    };
    let other = run(&Scenario {
        phase: other_phase,
        ..scenario.clone()
    })?;
    let calibrated =
        rooflinr_model::kernel_time::calibrated_pass(&analysis.ops, hw, state.framework);
    Ok(ModelView {
        config,
        scenario,
        analysis,
        other,
        calibrated,
        framework: state.framework,
    })
}

/// Longest context on the decode curve (the context slider's end, 2^20 tokens).
pub const CURVE_MAX_CONTEXT: u64 = 1 << 20;

/// Decode step time against context length, from 128 tokens to [`CURVE_MAX_CONTEXT`],
/// for the view's model, batch and formats. It does not depend on the chosen length, so
/// the calculator computes it once while a length slider is dragged.
pub fn decode_curve(view: &ModelView, hw: &Hardware) -> Vec<CurvePoint> {
    let eff = Efficiency::IDEAL;
    (0..CURVE_POINTS)
        .filter_map(|i| {
            let t = i as f64 / (CURVE_POINTS - 1) as f64;
            let context = (128f64 * (CURVE_MAX_CONTEXT as f64 / 128.0).powf(t)).round() as u64;
            let s = Scenario {
                phase: Phase::Decode,
                seq: context,
                ..view.scenario.clone()
            };
            let a = analysis::analyze(&view.config, hw, &s, &eff).ok()?;
            Some(CurvePoint {
                context,
                time: a.time.get(),
            })
        })
        .collect()
}

/// The format that colours an operator's point: its weights for linear layers, its cache
/// for attention, its activations for everything else.
pub fn op_format(r: &OpReport) -> Format {
    match r.op {
        Op::Gemm { .. } | Op::BatchedGemm { .. } | Op::Embedding { .. } => r.precision.weights,
        Op::FusedAttention(_)
        | Op::AttentionScores(_)
        | Op::AttentionContext(_)
        | Op::AttentionSoftmax(_) => r.precision.kv,
        _ => r.precision.activations,
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))] // native only: proptest needs an OS RNG
mod tests;
