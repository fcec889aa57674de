//! Deployment mode: the layout, workload and serving options the state describes, the
//! deployment and its curve over concurrency (with NVIDIA's measured runs beside it,
//! [`super::measured`]), the front of the other layouts of the same GPUs, and the layout
//! search.

use rooflinr_model::ModelError;
use rooflinr_model::analysis::{AttentionKernel, Phase, Scenario};
use rooflinr_model::config::ModelConfig;
use rooflinr_model::deploy::energy::{Energy, GpuPower, dollars_per_million_output_tokens};
use rooflinr_model::deploy::launch::{self, Launch, LaunchSpec};
use rooflinr_model::deploy::serving::runs::MeasuredRun;
use rooflinr_model::deploy::{
    self, Batching, CommModel, DeployOptions, Deployment, Disaggregated, DisaggregatedServing,
    Layout, SearchSpace, Serving, Workload,
};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::kernel_time::Framework;
use rooflinr_model::roofline::Efficiency;

use super::deploy_words::{DeployWords, words};
use super::imported::{self, Imported, ImportedRuns};
use super::measured::{self, Measured, Runs};
use super::{Problem, model_config, precision, whole};
use crate::state::{self, State};

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
    /// The runs of a serving benchmark's file the user imported, beside the prediction.
    pub imported: Imported,
    /// Disaggregated serving: the workers and their steady state at the chosen
    /// concurrency (`None`: the engine serves on the one layout of `deployment`). The
    /// serving figures and `curve` are then the workers'; `deployment` is one decode
    /// worker's, for its memory and its decode step.
    pub disaggregated: Option<DisaggregatedView>,
    /// Energy and cost per token of the serving figures, where the device has a board
    /// power.
    pub energy: Option<EnergyView>,
    /// The engine's launch commands for the layout and scheduler the figures are for (one;
    /// for disaggregated serving the prefill worker's, then the decode worker's), or why
    /// there are none.
    pub launch: Result<Vec<LaunchText>, String>,
    /// The words beside the figures.
    pub words: DeployWords,
}

/// A launch command as the page shows it (made here, in deployment mode's code).
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchText {
    /// What it launches: the layout and its GPUs, or a kind of worker.
    pub what: String,
    /// The release whose flag names it uses.
    pub release: &'static str,
    /// The command as a shell runs it ([`Launch::shell`]).
    pub shell: String,
    /// Copies to run behind a load balancer.
    pub replicas: u32,
    /// What it leaves to the user.
    pub notes: Vec<String>,
}

impl LaunchText {
    fn new(what: String, l: Launch) -> LaunchText {
        LaunchText {
            what,
            release: l.release,
            shell: l.shell(),
            replicas: l.replicas,
            notes: l.notes,
        }
    }
}

/// Energy per token at the device's board power, and the cost per token at the price the
/// user gave.
#[derive(Clone, Debug, PartialEq)]
pub struct EnergyView {
    /// Joules per output token and what they rest on.
    pub energy: Energy,
    /// The price per GPU-hour given, US dollars.
    pub gpu_hour_price: Option<f64>,
    /// US dollars per million output tokens at that price.
    pub dollars_per_million: Option<f64>,
}

/// A disaggregated deployment and its steady state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisaggregatedView {
    /// The prefill and decode workers.
    pub workers: Disaggregated,
    /// Their steady state at the chosen concurrency.
    pub steady: DisaggregatedServing,
}

impl DeployView {
    /// The serving figures at the chosen concurrency: the workers' where disaggregated.
    pub fn serving(&self) -> Serving {
        self.disaggregated
            .map_or(self.deployment.serving, |d| d.steady.serving)
    }
}

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
pub(super) fn deploy_inputs(
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
        expert: 1,
    }
    .with_whole_experts(state.ep);
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
    let batching = if state.serving == state::Serving::Static {
        if speculation.is_some() || prefix_hit > 0.0 {
            return Err(Problem::new(
                "draft tokens",
                "speculative decoding and prefix caching are modelled with in-flight batching: choose in-flight or disaggregated serving",
            ));
        }
        Batching::Static
    } else {
        // Disaggregated workers each run the engine's in-flight scheduler on their side.
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
        host: if state.calibrated && state.serving != state::Serving::Static {
            deploy::HostOverhead::fitted(state.framework)
        } else {
            deploy::HostOverhead::NONE
        },
        ..DeployOptions::default()
    };
    Ok((layout, workload, options))
}

/// The workers the state describes in disaggregated mode: each decode worker is `decode`
/// (the TP, PP, DP and EP fields), each prefill worker the prefill layout, or the decode
/// worker's where none is given.
fn workers(state: &State, decode: Layout) -> Result<Disaggregated, Problem> {
    let prefill = if state.prefill_layout.trim().is_empty() {
        decode
    } else {
        state
            .prefill_layout
            .parse::<Layout>()
            .map_err(|e| Problem::model("prefill worker", e))?
    };
    let count = |field: &str, text: &str| -> Result<u32, Problem> {
        whole(field, text, u64::from(deploy::MAX_GPUS)).map(|v| v as u32)
    };
    Ok(Disaggregated {
        prefill,
        prefill_workers: count("prefill workers", &state.prefill_workers)?,
        decode,
        decode_workers: count("decode workers", &state.decode_workers)?,
    })
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
            "max_gpus" => "GPU budget",
            "workers" | "memory" => "decode workers",
            _ => "deployment",
        },
        _ => "deployment",
    };
    Problem::model(field, e)
}

pub(super) fn deploy_scenario(state: &State) -> Result<Scenario, Problem> {
    Ok(Scenario {
        phase: Phase::Decode,
        batch: 1,
        seq: 1,
        precision: precision(state)?,
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: super::experts(state)?,
    })
}

/// Deployment mode: the chosen layout, and its curve over concurrency.
pub fn deployment(state: &State, hw: &Hardware) -> Result<DeployView, Problem> {
    deployment_beside(state, hw, &[], None)
}

/// [`deployment`], with those of NVIDIA's measured `runs` that are of its model, device,
/// engine and weight format.
pub fn deployment_beside(
    state: &State,
    hw: &Hardware,
    runs: &[MeasuredRun],
    imported: Option<&ImportedRuns>,
) -> Result<DeployView, Problem> {
    let config = model_config(state)?;
    let scenario = deploy_scenario(state)?;
    let (layout, workload, options) = deploy_inputs(state, &config, hw)?;
    let price = gpu_hour_price(state)?;
    let eff = Efficiency::IDEAL;
    let run = |w: Workload| {
        deploy::evaluate(&config, hw, &scenario, &eff, layout, w, &options).map_err(deploy_problem)
    };
    if state.serving == state::Serving::Disaggregated {
        let workers = workers(state, layout)?;
        let mut view = disaggregated(hw, (&config, &scenario, &options), workers, workload)?;
        if let Some(file) = imported {
            view.imported = imported::beside(file, workers.gpus(), |_| {
                Err("disaggregated workers are not simulated run by run; set the serving to in-flight for the simulation on one layout".into())
            });
        }
        return Ok(worded(energised(view, hw, workload.output, price)));
    }
    let deployment = run(workload)?;
    let limit = deployment.max_concurrency.clamp(1, 1 << 16);
    let curve = curve(limit, workload, |w| run(w).ok().map(|d| d.serving));
    let measured = measured::beside(
        runs,
        Runs {
            preset: &state.model,
            hardware: &hw.key,
            framework: state.framework,
            weights: scenario.precision.weights,
            layout,
            workload,
        },
        |w| run(w).ok().map(|d| d.serving),
    );
    let imported = imported
        .map(|file| {
            let mut simulator =
                deploy::Simulator::new(&config, hw, &scenario, &eff, layout, &options)
                    .map_err(|e| e.to_string());
            imported::beside(file, layout.gpus(), |benchmark| match &mut simulator {
                Ok(s) => s.run(benchmark).map_err(|e| e.to_string()),
                Err(e) => Err(e.clone()),
            })
        })
        .unwrap_or_default();
    let launch = launch_command(
        state.framework,
        &config,
        &scenario,
        &options,
        layout,
        workload,
    )
    .map(|l| {
        let what = format!("{} on {} GPU(s)", layout.spec(), layout.gpus());
        vec![LaunchText::new(what, l)]
    });
    let view = DeployView {
        config,
        deployment,
        curve,
        measured_error: deploy::serving_error(&hw.key, state.framework),
        measured,
        imported,
        disaggregated: None,
        energy: None,
        launch,
        words: DeployWords::default(),
    };
    Ok(worded(energised(view, hw, workload.output, price)))
}

/// `framework`'s launch command for `layout` under the in-flight scheduler of `options`, or
/// why there is none.
fn launch_command(
    framework: Framework,
    config: &ModelConfig,
    scenario: &Scenario,
    options: &DeployOptions,
    layout: Layout,
    workload: Workload,
) -> Result<Launch, String> {
    let Batching::InFlight(scheduler) = options.batching else {
        return Err(
            "Static batching is the figure of a fixed batch, not how any engine runs, so it has no launch command: choose in-flight serving for one."
                .into(),
        );
    };
    let spec = LaunchSpec {
        model: config,
        layout,
        scheduler,
        workload,
        weights: scenario.precision.weights,
        expert_weights: scenario.experts.map(|e| e.weights),
        kv: scenario.precision.kv,
        speculation: options.speculation,
    };
    launch::launch(framework, &spec).map_err(|e| format!("No launch command: {e}."))
}

/// The price per GPU-hour the state gives, if any.
fn gpu_hour_price(state: &State) -> Result<Option<f64>, Problem> {
    let text = state.gpu_price.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.trim_start_matches('$')
        .parse::<f64>()
        .ok()
        .filter(|p| *p >= 0.0 && p.is_finite())
        .map(Some)
        .ok_or_else(|| {
            Problem::new(
                "price per GPU-hour",
                format!("`{text}` is not a price in US dollars (for example 2.50)"),
            )
        })
}

/// `view` with the energy and cost per token of its serving figures, at the device's
/// board power ([`GpuPower::board`]) and `price` per GPU-hour.
fn energised(mut view: DeployView, hw: &Hardware, output: u64, price: Option<f64>) -> DeployView {
    let serving = view.serving();
    view.energy = GpuPower::board(hw)
        .and_then(|power| Energy::of(&serving, output, power).ok())
        .map(|energy| EnergyView {
            energy,
            gpu_hour_price: price,
            dollars_per_million: price
                .and_then(|p| dollars_per_million_output_tokens(&serving, p).ok()),
        });
    view
}

/// The serving figures of `workload` at powers of two of concurrency up to `limit` and at
/// its own, fewest requests first, where `serve` has them.
fn curve(
    limit: u64,
    workload: Workload,
    serve: impl Fn(Workload) -> Option<Serving>,
) -> Vec<Serving> {
    let mut levels: Vec<u64> = (0..17).map(|i| 1u64 << i).filter(|&c| c <= limit).collect();
    if !levels.contains(&workload.concurrency) {
        levels.push(workload.concurrency);
        rooflinr_model::sort::sort(&mut levels);
    }
    levels
        .into_iter()
        .filter_map(|concurrency| {
            serve(Workload {
                concurrency,
                ..workload
            })
        })
        .collect()
}

/// Disaggregated mode: the workers' steady state at the chosen concurrency and as it
/// grows, up to what the decode workers' memory holds, and one decode worker's own
/// deployment at the requests it holds (its memory and its decode step); without its
/// words and energy, which the caller adds.
fn disaggregated(
    hw: &Hardware,
    (config, scenario, options): (&ModelConfig, &Scenario, &DeployOptions),
    workers: Disaggregated,
    workload: Workload,
) -> Result<DeployView, Problem> {
    let run = |w: Workload| {
        deploy::evaluate_disaggregated(
            config,
            hw,
            scenario,
            &Efficiency::IDEAL,
            &workers,
            w,
            options,
        )
        .map_err(deploy_problem)
    };
    let steady = run(workload)?;
    let held = (steady.decode_batch * f64::from(workers.decode.data)).ceil() as u64;
    let decode = deploy::evaluate(
        config,
        hw,
        scenario,
        &Efficiency::IDEAL,
        workers.decode,
        Workload {
            concurrency: held.max(1),
            ..workload
        },
        options,
    )
    .map_err(deploy_problem)?;
    let limit = (decode
        .max_concurrency
        .saturating_mul(u64::from(workers.decode_workers)))
    .clamp(1, 1 << 16);
    let curve = curve(limit, workload, |w| run(w).ok().map(|d| d.serving));
    let side = |role: &str, layout: Layout, count: u32| {
        launch_command(
            options.framework,
            config,
            scenario,
            options,
            layout,
            workload,
        )
        .map(|l| {
            let what = format!("each of {count} {role} worker(s), {}", layout.spec());
            LaunchText::new(what, l)
        })
    };
    let launch = side("prefill", workers.prefill, workers.prefill_workers).and_then(|p| {
        Ok(vec![
            p,
            side("decode", workers.decode, workers.decode_workers)?,
        ])
    });
    Ok(DeployView {
        config: config.clone(),
        deployment: decode,
        curve,
        launch,
        // NVIDIA's runs shipped with the page are of aggregated serving; none is of these
        // workers.
        measured_error: None,
        measured: measured::disaggregated(),
        imported: Imported::default(),
        disaggregated: Some(DisaggregatedView { workers, steady }),
        energy: None,
        words: DeployWords::default(),
    })
}

/// `view` with its words.
fn worded(mut view: DeployView) -> DeployView {
    view.words = words(&view);
    view
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

/// A search's GPU budget and per-user floor, tokens/s.
fn search_limits(state: &State) -> Result<(u32, f64), Problem> {
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
    Ok((max_gpus, floor))
}

/// Every layout of up to the budget's GPUs (powers of two, multiples of the scale-up
/// domain, and the budget), ranked by output tokens/s per GPU at the per-user floor, for
/// the state's model, formats and workload lengths.
pub fn search_layouts(state: &State, hw: &Hardware) -> Result<SearchView, Problem> {
    let config = model_config(state)?;
    let scenario = deploy_scenario(state)?;
    let (_, workload, options) = deploy_inputs(state, &config, hw)?;
    let (max_gpus, floor) = search_limits(state)?;
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

/// A disaggregated search's result: the front of tokens/s per GPU against per user.
#[derive(Clone, Debug, PartialEq)]
pub struct DisaggregatedSearchView {
    /// The most tokens/s per GPU at the floor (`None`: no deployment reaches it).
    pub best: Option<deploy::DisaggregatedPoint>,
    /// The Pareto front, fastest per user first.
    pub front: Vec<deploy::DisaggregatedPoint>,
    /// Combinations weighed.
    pub evaluated: usize,
    /// The GPU budget searched, both sides together.
    pub max_gpus: u32,
    /// The per-user floor, tokens/s.
    pub floor: f64,
}

/// Prefill and decode layouts and their ratio at the budget's GPUs, matched so that
/// neither side waits on the other ([`deploy::search_disaggregated`]), for the state's
/// model, formats and workload lengths.
pub fn search_workers(state: &State, hw: &Hardware) -> Result<DisaggregatedSearchView, Problem> {
    let config = model_config(state)?;
    let scenario = deploy_scenario(state)?;
    let (_, workload, options) = deploy_inputs(state, &config, hw)?;
    let (max_gpus, floor) = search_limits(state)?;
    let space = deploy::DisaggregatedSpace {
        max_gpus: max_gpus.max(2),
        prompt: workload.prompt,
        output: workload.output,
        min_tokens_per_user: floor,
        max_ttft: None,
    };
    let r =
        deploy::search_disaggregated(&config, hw, &scenario, &Efficiency::IDEAL, &space, &options)
            .map_err(deploy_problem)?;
    Ok(DisaggregatedSearchView {
        best: r.best,
        front: r.pareto,
        evaluated: r.evaluated,
        max_gpus: space.max_gpus,
        floor,
    })
}
