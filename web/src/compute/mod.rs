//! From the calculator's [`State`] to what it shows: the device, the operator or model
//! analysis, and the chart's data. Every figure comes from `rooflinr_model`; this module
//! only validates the typed inputs (naming the field at fault) and arranges the results.

use rooflinr_model::ModelError;
use rooflinr_model::analysis::{self, AttentionKernel, ModelAnalysis, OpReport, Phase, Scenario};
use rooflinr_model::config::ModelConfig;
use rooflinr_model::deploy::serving::runs::MeasuredRun;
use rooflinr_model::deploy::{
    self, Batching, CommModel, DeployOptions, Deployment, Layout, SearchSpace, Serving, Workload,
};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::{Hardware, custom, registry};
use rooflinr_model::ops::{AttentionShape, Op, OpPrediction, Precision};
use rooflinr_model::presets;
use rooflinr_model::roofline::Efficiency;
use rooflinr_model::units::{grouped, si};

use crate::state::{CUSTOM, OpKind, State, Vary};

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

/// Deployment mode's result: the chosen layout for the workload, and its serving figures
/// as concurrency grows.
#[derive(Clone, Debug, PartialEq)]
pub struct DeployView {
    /// The model.
    pub config: ModelConfig,
    /// The deployment at the chosen concurrency.
    pub deployment: Deployment,
    /// Serving figures at powers of two up to the memory's limit (and the chosen
    /// concurrency), fewest requests first.
    pub curve: Vec<Serving>,
    /// How far the calibrated in-flight figures were from NVIDIA's measured runs of this
    /// device and engine (`None`: none were compared).
    pub measured_error: Option<&'static deploy::ServingError>,
    /// NVIDIA's measured runs of this model, device, engine and format.
    pub measured: Measured,
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
const MEASURED_COLUMNS: [&str; 7] = [
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

/// One point of the front over the other layouts of the same GPUs.
#[derive(Clone, Debug, PartialEq)]
pub struct FrontPoint {
    /// The layout.
    pub layout: Layout,
    /// Requests served together.
    pub concurrency: u64,
    /// Output tokens/s per user.
    pub per_user: f64,
    /// Output tokens/s per GPU.
    pub per_gpu: f64,
}

/// The layout and workload the state describes, and how the engine serves them on `hw`.
fn deploy_inputs(
    state: &State,
    config: &ModelConfig,
    hw: &Hardware,
) -> Result<(Layout, Workload, DeployOptions), Problem> {
    let max = u64::from(deploy::MAX_GPUS);
    let degree = |field: &str, text: &str| -> Result<u32, Problem> {
        whole(field, text, max).map(|v| v as u32)
    };
    let layout = Layout {
        tensor: degree("TP", &state.tp)?,
        pipeline: degree("PP", &state.pp)?,
        data: degree("DP", &state.dp)?,
        expert: state.ep,
    };
    let workload = Workload {
        prompt: whole("prompt tokens", &state.prompt, 1 << 20)?,
        output: whole("output tokens", &state.generated, 1 << 20)?,
        concurrency: whole(
            "requests at once",
            &state.concurrency,
            deploy::MAX_CONCURRENCY,
        )?,
    };
    // A share from 0 to 1; `whole` when 1 itself is allowed.
    let share = |field: &str, text: &str, whole: bool| -> Result<f64, Problem> {
        text.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| *v >= 0.0 && (*v < 1.0 || (whole && *v == 1.0)))
            .ok_or_else(|| {
                let range = if whole { "0 to 1" } else { "0 up to 1" };
                Problem::new(
                    field,
                    format!("`{}` is not a share from {range}", text.trim()),
                )
            })
    };
    let prefix_hit = share("cached prompt share", &state.prefix_hit, false)?;
    let speculation = if state.draft_tokens.trim().is_empty() {
        None
    } else {
        let k = whole(
            "draft tokens",
            &state.draft_tokens,
            u64::from(deploy::serving::MAX_DRAFT_TOKENS),
        )? as u32;
        if state.acceptance.trim().is_empty() {
            // Published only for DeepSeek-V3/R1's one MTP module.
            if k == 1 && config.mla.is_some() && config.name.starts_with("deepseek-ai/") {
                Some(deploy::Speculation::DEEPSEEK_V3_MTP)
            } else {
                return Err(Problem::new(
                    "acceptance",
                    format!(
                        "give the chance a drafted token is accepted: none is published for {} with {k} drafted",
                        config.name
                    ),
                ));
            }
        } else {
            Some(deploy::Speculation {
                draft_tokens: k,
                acceptance: share("acceptance", &state.acceptance, true)?,
            })
        }
    };
    let batching = if state.static_batching {
        if speculation.is_some() || prefix_hit > 0.0 {
            return Err(Problem::new(
                "draft tokens",
                "speculative decoding and prefix caching are modelled with in-flight batching: untick static batching",
            ));
        }
        Batching::Static
    } else {
        Batching::InFlight(deploy::Scheduler::default_for(state.framework, hw))
    };
    let options = DeployOptions {
        comm: CommModel {
            overlap: state.overlap,
            ..CommModel::default()
        },
        calibrated: state.calibrated,
        framework: state.framework,
        batching,
        speculation,
        prefix_hit,
        host: if state.calibrated && !state.static_batching {
            deploy::HostOverhead::fitted(state.framework)
        } else {
            deploy::HostOverhead::NONE
        },
        ..DeployOptions::default()
    };
    Ok((layout, workload, options))
}

/// A deployment error on the field the UI labels it with.
fn deploy_problem(e: ModelError) -> Problem {
    let field = match &e {
        ModelError::InvalidField { field, .. } => match field.as_str() {
            "tp" => "TP",
            "pp" => "PP",
            "dp" => "DP",
            "ep" => "expert parallel",
            "gpus" => "GPUs",
            "interconnect" => "device",
            "concurrency" => "requests at once",
            _ => "deployment",
        },
        _ => "deployment",
    };
    Problem::model(field, e)
}

fn deploy_scenario(state: &State) -> Result<Scenario, Problem> {
    Ok(Scenario {
        phase: Phase::Decode,
        batch: 1,
        seq: 1,
        precision: precision(state)?,
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
    })
}

/// Deployment mode: the chosen layout, and its curve over concurrency.
pub fn deployment(state: &State, hw: &Hardware) -> Result<DeployView, Problem> {
    deployment_beside(state, hw, &[])
}

/// [`deployment`], with those of NVIDIA's measured `runs` that are of its model, device,
/// engine and weight format.
pub fn deployment_beside(
    state: &State,
    hw: &Hardware,
    runs: &[MeasuredRun],
) -> Result<DeployView, Problem> {
    let config = model_config(state)?;
    let scenario = deploy_scenario(state)?;
    let (layout, workload, options) = deploy_inputs(state, &config, hw)?;
    let eff = Efficiency::IDEAL;
    let run = |w: Workload| {
        deploy::evaluate(&config, hw, &scenario, &eff, layout, w, &options).map_err(deploy_problem)
    };
    let deployment = run(workload)?;
    let limit = deployment.max_concurrency.clamp(1, 1 << 16);
    let mut levels: Vec<u64> = (0..17).map(|i| 1u64 << i).filter(|&c| c <= limit).collect();
    if !levels.contains(&workload.concurrency) {
        levels.push(workload.concurrency);
        rooflinr_model::sort::sort(&mut levels);
    }
    let curve = levels
        .into_iter()
        .filter_map(|concurrency| {
            run(Workload {
                concurrency,
                ..workload
            })
            .ok()
            .map(|d| d.serving)
        })
        .collect();
    let weights = scenario.precision.weights;
    let mut here = Vec::new();
    let mut elsewhere: Vec<MeasuredShape> = Vec::new();
    for r in runs
        .iter()
        .filter(|r| r.is_of(&state.model, &hw.key, state.framework, weights))
    {
        let w = r.workload;
        if r.layout == layout && w.prompt == workload.prompt && w.output == workload.output {
            here.push(MeasuredPoint::new(
                r.clone(),
                run(w).ok().map(|d| d.serving),
            ));
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
    let measured = Measured {
        here,
        elsewhere,
        html,
        coverage,
    };
    Ok(DeployView {
        config,
        deployment,
        curve,
        measured_error: deploy::serving_error(&hw.key, state.framework),
        measured,
    })
}

/// The Pareto front of every other layout of the same number of GPUs (TP a power of two,
/// PP, DP, EP on and off) for the workload's prompt and output: the points no other layout
/// beats on both tokens/s per user and per GPU. Independent of the chosen layout's degrees
/// and concurrency, so the calculator recomputes it only when the GPU count, model, device,
/// formats or workload lengths change.
pub fn layout_front(state: &State, hw: &Hardware) -> Result<Vec<FrontPoint>, Problem> {
    let config = model_config(state)?;
    let scenario = deploy_scenario(state)?;
    let (layout, workload, options) = deploy_inputs(state, &config, hw)?;
    let space = SearchSpace {
        gpu_counts: vec![layout.gpus()],
        max_gpus: layout.gpus(),
        precisions: vec![scenario.precision],
        prompt: workload.prompt,
        output: workload.output,
        min_tokens_per_user: 0.0,
        max_ttft: None,
    };
    let r = deploy::search(&config, hw, &scenario, &Efficiency::IDEAL, &space, &options)
        .map_err(deploy_problem)?;
    Ok(r.pareto
        .iter()
        .map(|p| FrontPoint {
            layout: r.candidates[p.candidate].layout,
            concurrency: p.concurrency,
            per_user: p.tokens_per_s_per_user,
            per_gpu: p.tokens_per_s_per_gpu,
        })
        .collect())
}

/// One candidate of a layout search, as the calculator lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRow {
    /// The layout.
    pub layout: Layout,
    /// Its best point that meets the floor (`None` when none does or it does not fit).
    pub best: Option<Serving>,
    /// Memory per GPU at that point.
    pub memory: Option<rooflinr_model::units::Bytes>,
    /// Why it is not first, in words (`None` for the winner).
    pub loss: Option<String>,
}

/// A layout search's result.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchView {
    /// Candidates, best first.
    pub rows: Vec<SearchRow>,
    /// Deployments evaluated.
    pub evaluated: usize,
    /// The GPU budget searched.
    pub max_gpus: u32,
    /// The per-user floor, tokens/s.
    pub floor: f64,
}

/// The largest GPU budget the page searches: 1,024 GPUs take about a second in a browser
/// (the model crate's own limit, for `rooflinr deploy --search`, is 4,096).
pub const SEARCH_MAX_GPUS: u64 = 1024;

/// Every layout of up to the budget's GPUs (powers of two, multiples of the scale-up
/// domain, and the budget), ranked by output tokens/s per GPU at the per-user floor, for
/// the state's model, formats and workload lengths.
pub fn search_layouts(state: &State, hw: &Hardware) -> Result<SearchView, Problem> {
    let config = model_config(state)?;
    let scenario = deploy_scenario(state)?;
    let (_, workload, options) = deploy_inputs(state, &config, hw)?;
    let max_gpus = whole("GPU budget", &state.search_gpus, SEARCH_MAX_GPUS)? as u32;
    let floor: f64 = state
        .search_floor
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| {
            Problem::new(
                "tokens/s per user at least",
                format!(
                    "`{}` is not a speed (0 or more tokens/s)",
                    state.search_floor.trim()
                ),
            )
        })?;
    let space = SearchSpace {
        gpu_counts: Vec::new(),
        max_gpus,
        precisions: vec![scenario.precision],
        prompt: workload.prompt,
        output: workload.output,
        min_tokens_per_user: floor,
        max_ttft: None,
    };
    let r = deploy::search(&config, hw, &scenario, &Efficiency::IDEAL, &space, &options)
        .map_err(deploy_problem)?;
    Ok(SearchView {
        rows: r
            .candidates
            .iter()
            .map(|c| SearchRow {
                layout: c.layout,
                best: c.best.as_ref().map(|d| d.serving),
                memory: c.best.as_ref().map(|d| d.memory.total()),
                loss: c.loss.map(|l| l.describe()),
            })
            .collect(),
        evaluated: r.evaluated,
        max_gpus,
        floor,
    })
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
