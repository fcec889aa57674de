//! Deployments over many GPUs: a parallel layout, the collectives it needs, what each GPU
//! holds, and the serving figures of a workload (time to first token, time per output
//! token, tokens/s per user and per GPU).
//!
//! The model, each part stated where it is computed:
//! - **Layout** ([`Layout`]): tensor parallelism `TP` splits attention by heads and the
//!   MLP by intermediate columns (Megatron-LM, arXiv 1909.08053); data parallelism `DP`
//!   runs `DP` replicas of attention on different sequences (DeepSeek's "attention DP",
//!   arXiv 2412.19437 section 3.4); the `TP x DP` GPUs of a pipeline stage share the
//!   routed experts: whole experts per GPU (expert parallelism, `EP = TP x DP`, as vLLM
//!   and SGLang number it), each expert split by columns over them all, or between the
//!   two, experts spread over `EP` groups and each split by columns over the `TP x DP /
//!   EP` GPUs of its group (TensorRT-LLM's `moe_tensor_parallel_size x
//!   moe_expert_parallel_size`); pipeline parallelism `PP` gives each stage `ceil(layers /
//!   PP)` layers.
//! - **Compute**: one GPU's operators are the single-device analysis's operators with
//!   their shapes cut by the layout ([`shard_op`]) and costed by the same roofline.
//!   A layout of one GPU changes nothing, so its figures equal [`analysis::analyze`]'s.
//! - **Communication** ([`Collective`]): a bandwidth term plus a latency per step.
//!   All-reduce sends `2(n-1)/n` of the message per GPU in `2(n-1)` steps (the ring
//!   algorithm NCCL uses for large messages; Patarasuk and Yuan, JPDC 2009); all-gather
//!   and reduce-scatter `(n-1)/n` in `n-1` steps; all-to-all `(n-1)/n` of what a GPU holds for all
//!   destinations, sent at once through the switch (one step); a pipeline hand-off sends
//!   the whole activation (one step). A group inside one scale-up domain uses the fabric,
//!   a group that spans domains runs at the network's per-GPU bandwidth. Expected
//!   (calibrated) collectives add the pipeline fill of a message passed in chunks
//!   ([`CommModel::pipeline_fill`]) and take the latency and bandwidth NVIDIA's NCCL
//!   tables measured for the group's size ([`collective_profile`]).
//!   Communication adds to compute unless [`CommModel::overlap`] is set, when each stage
//!   takes the longer of the two.
//! - **Pipeline**: `m` micro-batches through `p` stages take `(m + p - 1)` stage times,
//!   idle for a fraction `(p - 1) / (m + p - 1)` (the bubble; GPipe, arXiv 1811.06965).
//!   Decode keeps `p` micro-batches in flight, so a token takes `p` stage times and the
//!   GPUs stay busy while there are at least `p` micro-batches.
//! - **Serving** ([`Workload`], [`serving`]): how the engine batches requests
//!   ([`DeployOptions::batching`]). In-flight batching under the engine's scheduler
//!   ([`Scheduler::default_for`]): the steady state of a closed loop of `concurrency`
//!   clients, each step carrying decode tokens beside prompt chunks ([`serving`] states
//!   every formula), and a benchmark run from a cold start step by step ([`Simulator`]).
//!   Static batching, as NVIDIA's aiconfigurator's static mode: `concurrency` requests
//!   prefilled together (the time to first token), then decoded together at the mean
//!   context `prompt + output / 2` (the time per output token). Either way a request takes
//!   `TTFT + (output - 1) x TPOT`; tokens/s per user is `1 / TPOT`, per GPU `concurrency x
//!   output / request time / GPUs` (Little's law for a closed loop), and per GPU while
//!   decoding (prefill on other GPUs, as disaggregated serving does) `concurrency / TPOT /
//!   GPUs`. Disaggregated prefill and decode workers: [`evaluate_disaggregated`].
//! - **Energy and cost** ([`energy`]): joules per output token from each GPU's power and
//!   tokens/s per GPU, and dollars per million output tokens at a given GPU-hour price.

mod collective;
mod context;
pub mod energy;
pub mod launch;
mod measured;
pub mod record;
mod search;
pub mod serving;

pub use collective::{Collective, CollectiveCost, CommId, CommModel, CommReport, collective_cost};
use context::Context;
pub use context::{OpShard, StepTime, shard_op};

pub use measured::{
    COLLECTIVE_PROFILES, COLLECTIVE_SOURCE, CollectiveProfile, NCCL_PIPELINE_FILL,
    collective_profile,
};
pub use search::{Candidate, Loss, ParetoPoint, SearchResult, SearchSpace, search};
pub use serving::disagg::{
    Disaggregated, DisaggregatedPoint, DisaggregatedSearch, DisaggregatedServing,
    DisaggregatedSpace, evaluate_disaggregated, search_disaggregated,
};
pub use serving::simulate::{Benchmark, BenchmarkRun, Clients, Latency};
pub use serving::{
    AdpBalance, Batching, HostOverhead, InFlightState, Policy, Scheduler, ServingError,
    Speculation, serving_error,
};

use std::fmt;

use crate::analysis::{OpReport, Phase, Scenario};
use crate::config::ModelConfig;
use crate::error::ModelError;
use crate::hardware::Hardware;
use crate::roofline::Efficiency;
use crate::units::{Bytes, Seconds};

/// Most GPUs a deployment may span.
pub const MAX_GPUS: u32 = 4096;

/// How a model is laid out over GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Tensor-parallel degree: GPUs sharing each layer's heads and columns.
    pub tensor: u32,
    /// Pipeline stages.
    pub pipeline: u32,
    /// Attention replicas per stage, each on its own sequences.
    pub data: u32,
    /// Expert-parallel degree of the routed experts, dividing the stage's `tensor x data`
    /// GPUs: the experts are spread over `expert` groups, and each expert's columns split
    /// over the `tensor x data / expert` GPUs of its group (MoE tensor parallelism, as
    /// TensorRT-LLM's `moe_tensor_parallel_size x moe_expert_parallel_size` and SGLang's
    /// `--tp` with `--ep` name it). 1 splits every expert by columns over the stage; the
    /// stage's GPU count places whole experts on each GPU.
    pub expert: u32,
}

impl Layout {
    /// One GPU.
    pub const SINGLE: Layout = Layout {
        tensor: 1,
        pipeline: 1,
        data: 1,
        expert: 1,
    };

    /// GPUs in all.
    pub fn gpus(&self) -> u32 {
        self.tensor * self.pipeline * self.data
    }

    /// GPUs of one pipeline stage (the expert-parallel group).
    pub fn stage_gpus(&self) -> u32 {
        self.tensor * self.data
    }

    /// The same degrees with whole experts on every GPU of a stage (`whole`) or every
    /// expert split by columns.
    pub fn with_whole_experts(self, whole: bool) -> Layout {
        Layout {
            expert: if whole { self.stage_gpus() } else { 1 },
            ..self
        }
    }

    /// The layout as people write it, the short form its `FromStr` reads: `tp8`,
    /// `tp4-pp2`, `tp1-dp8-ep` (whole experts), `tp4-ep2` (experts over 2 groups, each
    /// split over 2 GPUs); degrees of 1 left out, but for TP.
    pub fn spec(&self) -> String {
        let mut s = format!("tp{}", self.tensor);
        for (name, degree) in [("pp", self.pipeline), ("dp", self.data)] {
            if degree > 1 {
                s.push_str(&format!("-{name}{degree}"));
            }
        }
        if self.whole_experts() {
            s.push_str("-ep");
        } else if self.expert_parallel() {
            s.push_str(&format!("-ep{}", self.expert));
        }
        s
    }

    /// MoE tensor-parallel degree: the GPUs each routed expert's columns split over,
    /// `tensor x data / expert`.
    pub fn moe_tensor(&self) -> u32 {
        self.stage_gpus() / self.expert.max(1)
    }

    /// Whether experts are spread over GPUs (expert parallelism of 2 or more).
    pub fn expert_parallel(&self) -> bool {
        self.expert > 1
    }

    /// Whether every GPU of a stage holds whole experts (expert parallelism over all of
    /// them, on more than one GPU).
    pub fn whole_experts(&self) -> bool {
        self.expert_parallel() && self.expert == self.stage_gpus()
    }

    /// Checks the layout against the model: every degree at least 1, tensor parallelism
    /// dividing the query heads and the KV heads (or divided by them), no more stages
    /// than layers, expert parallelism only for a mixture of experts and dividing a
    /// stage's GPUs.
    pub fn validate(&self, c: &ModelConfig) -> Result<(), ModelError> {
        for (field, v) in [
            ("tp", self.tensor),
            ("pp", self.pipeline),
            ("dp", self.data),
            ("ep", self.expert),
        ] {
            if v == 0 {
                return Err(ModelError::invalid(field, "must be at least 1"));
            }
        }
        let gpus = u64::from(self.tensor) * u64::from(self.pipeline) * u64::from(self.data);
        if gpus > u64::from(MAX_GPUS) {
            return Err(ModelError::invalid(
                "gpus",
                format!("TP x PP x DP = {gpus} exceeds {MAX_GPUS} GPUs"),
            ));
        }
        let t = u64::from(self.tensor);
        if !c.heads.is_multiple_of(t) {
            return Err(ModelError::invalid(
                "tp",
                format!("{t} does not divide the model's {} query heads", c.heads),
            ));
        }
        if c.mla.is_none() && !c.kv_heads.is_multiple_of(t) && !t.is_multiple_of(c.kv_heads) {
            return Err(ModelError::invalid(
                "tp",
                format!(
                    "{t} neither divides nor is a multiple of the model's {} KV heads",
                    c.kv_heads
                ),
            ));
        }
        if u64::from(self.pipeline) > c.layers {
            return Err(ModelError::invalid(
                "pp",
                format!("{} stages for {} layers", self.pipeline, c.layers),
            ));
        }
        if self.expert_parallel() && c.moe.is_none() {
            return Err(ModelError::invalid(
                "ep",
                format!("{} has no experts to place", c.name),
            ));
        }
        if !self.stage_gpus().is_multiple_of(self.expert) {
            return Err(ModelError::invalid(
                "ep",
                format!(
                    "EP{} does not divide a stage's TP x DP = {} GPUs",
                    self.expert,
                    self.stage_gpus()
                ),
            ));
        }
        Ok(())
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TP{} PP{} DP{}", self.tensor, self.pipeline, self.data)?;
        if self.expert_parallel() {
            write!(f, " EP{}", self.expert)?;
        }
        if self.expert_parallel() && !self.whole_experts() {
            write!(f, " MoE-TP{}", self.moe_tensor())?;
        }
        Ok(())
    }
}

/// A layout as people write it: `tp8`, `tp1-dp8-ep`, `tp4,pp2`, `tp4-ep2`, or as it is
/// printed, `TP8 PP1 DP1 EP8`, `TP4 PP1 DP1 EP2 MoE-TP2` (tensor, pipeline and data degrees,
/// each 1 unless given; `ep` alone places whole experts on each of the stage's GPUs, `epN`
/// spreads them over N groups of the stage's `tp x dp` GPUs, `moe-tpN` names the GPUs each
/// expert's columns split over, `tp x dp / N` groups).
impl std::str::FromStr for Layout {
    type Err = ModelError;

    fn from_str(s: &str) -> Result<Layout, ModelError> {
        let mut layout = Layout::SINGLE;
        let (mut expert, mut whole, mut moe_tensor) = (None, false, None);
        let parts: Vec<String> = s
            .split(['-', ',', ':', 'x', ' '])
            .map(|p| p.trim().to_ascii_lowercase())
            .filter(|p| !p.is_empty())
            .collect();
        if parts.is_empty() {
            return Err(ModelError::invalid(
                "layout",
                "empty: write the degrees, as tp8 or tp4-pp2 or tp1-dp8-ep",
            ));
        }
        let mut parts = parts.iter();
        while let Some(p) = parts.next() {
            let (mut name, mut value) =
                p.split_at(p.find(|c: char| c.is_ascii_digit()).unwrap_or(p.len()));
            let moe = name == "moe";
            if moe {
                let next = parts.next().map(String::as_str).unwrap_or("");
                (name, value) = next.split_at(
                    next.find(|c: char| c.is_ascii_digit())
                        .unwrap_or(next.len()),
                );
                if name != "tp" {
                    return Err(ModelError::invalid(
                        "layout",
                        format!("`moe` in {s:?} names MoE tensor parallelism: write moe-tpN"),
                    ));
                }
            }
            if name == "ep" && value.is_empty() {
                whole = true;
                continue;
            }
            let n: u32 = value.parse().ok().filter(|n| *n >= 1).ok_or_else(|| {
                ModelError::invalid(
                    "layout",
                    format!("`{p}` in {s:?}: give a degree of 1 or more, as tp8"),
                )
            })?;
            match name {
                "tp" if moe => moe_tensor = Some(n),
                "tp" => layout.tensor = n,
                "pp" => layout.pipeline = n,
                "dp" => layout.data = n,
                "ep" => expert = Some(n),
                _ => {
                    return Err(ModelError::invalid(
                        "layout",
                        format!("`{p}` in {s:?}: use tpN, ppN, dpN, ep or epN, and moe-tpN"),
                    ));
                }
            }
        }
        let stage = layout.stage_gpus();
        let divides = |n: u32, what: &str| {
            if stage.is_multiple_of(n) {
                Ok(stage / n)
            } else {
                Err(ModelError::invalid(
                    "layout",
                    format!("{what} in {s:?} does not divide a stage's TP x DP = {stage} GPUs"),
                ))
            }
        };
        layout.expert = match (expert, moe_tensor) {
            (Some(e), _) if whole && e != stage => {
                return Err(ModelError::invalid(
                    "layout",
                    format!("`ep` and `ep{e}` in {s:?}: write one"),
                ));
            }
            (Some(e), Some(m)) if divides(e, &format!("EP{e}"))? != m => {
                return Err(ModelError::invalid(
                    "layout",
                    format!(
                        "EP{e} and MoE TP{m} in {s:?}: their product must be a stage's TP x DP = {stage} GPUs"
                    ),
                ));
            }
            (Some(e), _) => {
                divides(e, &format!("EP{e}"))?;
                e
            }
            (None, Some(m)) => divides(m, &format!("MoE TP{m}"))?,
            (None, None) if whole => stage,
            (None, None) => 1,
        };
        Ok(layout)
    }
}

/// Options beyond the layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeployOptions {
    /// Communication costs.
    pub comm: CommModel,
    /// The busiest GPU's routed tokens over the mean (1: perfectly balanced routing).
    pub expert_imbalance: f64,
    /// Micro-batches in prefill (`None`: four per stage when pipelined, never more than
    /// there are sequences).
    pub prefill_micro_batches: Option<u32>,
    /// Expected rather than bound: operators with a shipped kernel profile at their
    /// expected time ([`crate::kernel_time::calibrated_pass`]), collectives with a shipped
    /// NCCL profile ([`COLLECTIVE_PROFILES`]) at its fitted latency and bandwidth.
    pub calibrated: bool,
    /// Whose kernels the calibrated operators run (the kernel profiles are per framework).
    pub framework: crate::kernel_time::Framework,
    /// How the engine batches requests ([`serving`]).
    pub batching: Batching,
    /// Speculative decoding (in-flight batching only).
    pub speculation: Option<Speculation>,
    /// The share of each prompt found in the prefix cache: its prefill is skipped, its
    /// keys are still attended to (in-flight batching only).
    pub prefix_hit: f64,
    /// What the engine's host adds to each step (in-flight batching only).
    pub host: HostOverhead,
}

impl Default for DeployOptions {
    /// Static batching of the bound: the figures of a fixed batch, no engine's scheduler.
    fn default() -> Self {
        DeployOptions {
            comm: CommModel::default(),
            expert_imbalance: 1.0,
            prefill_micro_batches: None,
            calibrated: false,
            framework: crate::kernel_time::Framework::default(),
            batching: Batching::Static,
            speculation: None,
            prefix_hit: 0.0,
            host: HostOverhead::NONE,
        }
    }
}

impl DeployOptions {
    /// In-flight batching under `framework`'s default scheduler on `hardware`.
    pub fn in_flight(
        framework: crate::kernel_time::Framework,
        hardware: &Hardware,
    ) -> DeployOptions {
        DeployOptions {
            framework,
            batching: Batching::InFlight(Scheduler::default_for(framework, hardware)),
            ..DeployOptions::default()
        }
    }

    fn validate(&self) -> Result<(), ModelError> {
        if !(self.expert_imbalance >= 1.0 && self.expert_imbalance.is_finite()) {
            return Err(ModelError::invalid(
                "expert_imbalance",
                format!("must be 1 or more, got {}", self.expert_imbalance),
            ));
        }
        let eff = self.comm.bandwidth_efficiency;
        if !(eff > 0.0 && eff <= 1.0) {
            return Err(ModelError::invalid(
                "bandwidth_efficiency",
                format!("must be in (0, 1], got {eff}"),
            ));
        }
        if !(0.0..1.0).contains(&self.prefix_hit) {
            return Err(ModelError::invalid(
                "prefix_hit",
                format!("must be in [0, 1), got {}", self.prefix_hit),
            ));
        }
        if let Some(s) = &self.speculation {
            s.validate()?;
        }
        self.host.validate()?;
        match self.batching {
            Batching::InFlight(s) => s.validate(),
            Batching::Static if self.speculation.is_some() || self.prefix_hit > 0.0 => {
                Err(ModelError::invalid(
                    "batching",
                    "speculative decoding and prefix caching are modelled with in-flight batching, not static",
                ))
            }
            Batching::Static => Ok(()),
        }
    }
}

/// One pass (prefill of the batch, or one decode step) on the deployment.
#[derive(Clone, Debug, PartialEq)]
pub struct DeployPass {
    /// Prefill or decode.
    pub phase: Phase,
    /// Sequences in the whole batch.
    pub batch: u64,
    /// Micro-batches through the pipeline.
    pub micro_batches: u32,
    /// One GPU's operators on the heaviest stage, for one micro-batch.
    pub ops: Vec<OpReport>,
    /// That stage's communication for one micro-batch.
    pub comms: Vec<CommReport>,
    /// Operators' time per micro-batch.
    pub compute: Seconds,
    /// Communication time per micro-batch.
    pub communication: Seconds,
    /// One stage's time per micro-batch.
    pub stage: Seconds,
    /// The pass: prefill's `(m + p - 1)` stage times, a decode step's `p`.
    pub time: Seconds,
    /// Fraction of GPU time the pipeline leaves idle.
    pub bubble: f64,
    /// With [`DeployOptions::calibrated`]: what was at its expected time.
    pub calibration: Option<PassCalibration>,
}

/// What a calibrated pass put at its expected time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassCalibration {
    /// Operator kinds with a kernel profile (the rest at the bound).
    pub profiled_ops: usize,
    /// Operator kinds at the bound.
    pub bound_ops: usize,
    /// Collectives with an NCCL profile (the rest at the link's bound).
    pub profiled_comms: usize,
    /// Collectives at the bound.
    pub bound_comms: usize,
    /// Whose kernels the operators' profiles were fitted on.
    pub framework: crate::kernel_time::Framework,
    /// Whether a MoE block's routed experts are at the fused layer's expected time
    /// ([`crate::kernel_time::CalibratedPass::fused_moe`]).
    pub fused_moe: bool,
}

impl DeployPass {
    /// Communication's share of a stage's time (0 to 1).
    pub fn communication_share(&self) -> f64 {
        if self.stage.get() > 0.0 {
            (self.communication / self.stage).min(1.0)
        } else {
            0.0
        }
    }
}

/// What one GPU (of the heaviest stage) holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuMemory {
    /// Its share of the weights.
    pub weights: Bytes,
    /// Its share of the KV cache at the end of the workload's output.
    pub kv_cache: Bytes,
    /// Live activations of its widest layer in prefill: the residual stream in and out
    /// plus the widest intermediate slice, for the tokens of one micro-batch.
    pub activations: Bytes,
    /// The device's capacity.
    pub capacity: Bytes,
}

impl GpuMemory {
    /// Everything it holds.
    pub fn total(&self) -> Bytes {
        self.weights + self.kv_cache + self.activations
    }
    /// Whether it fits.
    pub fn fits(&self) -> bool {
        self.total().get() <= self.capacity.get()
    }
}

/// A serving workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workload {
    /// Prompt tokens per request.
    pub prompt: u64,
    /// Output tokens per request.
    pub output: u64,
    /// Requests served together.
    pub concurrency: u64,
}

impl Workload {
    fn validate(&self) -> Result<(), ModelError> {
        for (field, v) in [
            ("prompt", self.prompt),
            ("output", self.output),
            ("concurrency", self.concurrency),
        ] {
            if v == 0 {
                return Err(ModelError::invalid(field, "must be at least 1"));
            }
        }
        Ok(())
    }

    /// Context a decode step sees on average: the prompt plus half the output.
    pub fn mean_context(&self) -> u64 {
        self.prompt + self.output / 2
    }
}

/// The serving figures of a workload on a deployment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Serving {
    /// Requests served together.
    pub concurrency: u64,
    /// Time to first token: the batch's prefill.
    pub ttft: Seconds,
    /// Time per output token: one decode step at the mean context.
    pub tpot: Seconds,
    /// One request from arrival to its last token.
    pub request_time: Seconds,
    /// Output tokens per second one user sees.
    pub tokens_per_s_per_user: f64,
    /// Output tokens per second per GPU.
    pub tokens_per_s_per_gpu: f64,
    /// Output tokens per second per GPU while decoding, prefill not counted: what a
    /// decode instance of a disaggregated deployment (prefill on other GPUs) delivers,
    /// `concurrency / TPOT / GPUs`.
    pub decode_tokens_per_s_per_gpu: f64,
}

/// A deployment evaluated for one workload.
#[derive(Clone, Debug, PartialEq)]
pub struct Deployment {
    /// The layout.
    pub layout: Layout,
    /// What each GPU holds.
    pub memory: GpuMemory,
    /// The most concurrent requests the KV memory left after weights and activations
    /// holds at the end of the output (0: the weights alone do not fit).
    pub max_concurrency: u64,
    /// The batch's prefill.
    pub prefill: DeployPass,
    /// One decode step at the mean context.
    pub decode: DeployPass,
    /// The serving figures.
    pub serving: Serving,
    /// With in-flight batching: its steady state.
    pub in_flight: Option<InFlightState>,
}

/// Prompt tokens a replica prefills at once: servers split long prefills into chunks
/// (SGLang's default `--chunked-prefill-size` is 8,192 tokens), so prefill activations
/// never hold more than one chunk. Prefill time is the same chunked or not.
pub const PREFILL_CHUNK_TOKENS: f64 = 8192.0;

/// Largest concurrency considered (requests at once).
pub const MAX_CONCURRENCY: u64 = 1 << 20;

/// Evaluates `layout` for `workload` with the formats of `scenario` (its phase, batch and
/// seq are ignored: the workload sets them).
pub fn evaluate(
    config: &ModelConfig,
    hardware: &Hardware,
    scenario: &Scenario,
    efficiency: &Efficiency,
    layout: Layout,
    workload: Workload,
    options: &DeployOptions,
) -> Result<Deployment, ModelError> {
    workload.validate()?;
    layout.validate(config)?;
    if workload.concurrency > MAX_CONCURRENCY {
        return Err(ModelError::invalid(
            "concurrency",
            format!("{} exceeds {MAX_CONCURRENCY}", workload.concurrency),
        ));
    }
    options.validate()?;
    // A layout that needs a collective on a device with no interconnect is refused by
    // `collective_cost`, naming it; replicas that never talk (DP of a dense model) need none.
    let cx = Context {
        config,
        hardware,
        efficiency,
        layout,
        options,
    };
    let end = workload.prompt + workload.output;
    let memory = cx.memory(scenario, workload.concurrency, workload.prompt, end);
    let max_concurrency = cx.max_concurrency(scenario, workload.prompt, end);

    let prefill_m = cx.prefill_micro_batches(workload.concurrency);
    let prefill = cx.pass(
        scenario,
        Phase::Prefill,
        workload.concurrency,
        workload.prompt,
        prefill_m,
    )?;
    let decode = cx.pass(
        scenario,
        Phase::Decode,
        workload.concurrency,
        workload.mean_context().max(1),
        layout.pipeline,
    )?;
    let (ttft, tpot, in_flight) = match options.batching {
        Batching::Static => (prefill.time, decode.time, None),
        Batching::InFlight(scheduler) => {
            let mut cost = serving::StepCost::new(cx, scenario, options.speculation);
            let request =
                serving::RequestShape::new(workload.prompt, workload.output, options.prefix_hit);
            let clients = cx.per_replica(workload.concurrency) as f64;
            let capacity = (max_concurrency as f64 / cx.data()).floor();
            let s = serving::steady(&mut cost, scheduler, request, clients, capacity)?;
            (s.ttft, s.tpot, Some(s.state))
        }
    };
    let request_time = ttft + tpot * (workload.output - 1) as f64;
    let serving = Serving {
        concurrency: workload.concurrency,
        ttft,
        tpot,
        request_time,
        tokens_per_s_per_user: 1.0 / tpot.get(),
        tokens_per_s_per_gpu: (workload.concurrency * workload.output) as f64
            / request_time.get()
            / f64::from(layout.gpus()),
        decode_tokens_per_s_per_gpu: workload.concurrency as f64
            / tpot.get()
            / f64::from(layout.gpus()),
    };
    Ok(Deployment {
        layout,
        memory,
        max_concurrency,
        prefill,
        decode,
        serving,
        in_flight,
    })
}

/// Runs `benchmark` on `layout` under the in-flight scheduler of `options` ([`Simulator`]).
pub fn benchmark(
    config: &ModelConfig,
    hardware: &Hardware,
    scenario: &Scenario,
    efficiency: &Efficiency,
    layout: Layout,
    benchmark: &Benchmark,
    options: &DeployOptions,
) -> Result<BenchmarkRun, ModelError> {
    Simulator::new(config, hardware, scenario, efficiency, layout, options)?.run(benchmark)
}

/// Benchmark runs on one deployment ([`serving::simulate`]), its steps costed once for
/// every run.
pub struct Simulator<'a> {
    cost: serving::StepCost<'a>,
    scheduler: Scheduler,
}

impl<'a> Simulator<'a> {
    /// The simulator of `layout` under the in-flight scheduler of `options`.
    pub fn new(
        config: &'a ModelConfig,
        hardware: &'a Hardware,
        scenario: &'a Scenario,
        efficiency: &'a Efficiency,
        layout: Layout,
        options: &'a DeployOptions,
    ) -> Result<Simulator<'a>, ModelError> {
        layout.validate(config)?;
        options.validate()?;
        let Batching::InFlight(scheduler) = options.batching else {
            return Err(ModelError::invalid(
                "batching",
                "a benchmark run is simulated under an engine's in-flight scheduler; static batching has none",
            ));
        };
        let cx = Context {
            config,
            hardware,
            efficiency,
            layout,
            options,
        };
        Ok(Simulator {
            cost: serving::StepCost::new(cx, scenario, options.speculation),
            scheduler,
        })
    }

    /// Runs the next benchmarks under `scheduler` (an engine launched with other flags);
    /// the steps already costed are kept.
    pub fn set_scheduler(&mut self, scheduler: Scheduler) -> Result<(), ModelError> {
        scheduler.validate()?;
        self.scheduler = scheduler;
        Ok(())
    }

    /// Runs `benchmark`: the figures of one replica, whose clients and requests are its
    /// `1 / DP` share, with the output tokens per second of the whole deployment.
    pub fn run(&mut self, benchmark: &Benchmark) -> Result<BenchmarkRun, ModelError> {
        benchmark.validate()?;
        let cx = self.cost.context();
        let end = benchmark.prompt + benchmark.output;
        let dp = u64::from(cx.layout.data);
        let capacity = cx.max_concurrency(self.cost.scenario(), benchmark.prompt, end) / dp;
        if capacity == 0 {
            return Err(ModelError::invalid(
                "memory",
                format!(
                    "the weights and one request's KV cache of {end} tokens do not fit in {} per GPU",
                    crate::units::si(cx.hardware.memory_capacity.value.get(), "B")
                ),
            ));
        }
        let clients = match benchmark.clients {
            Clients::Concurrency(c) => Clients::Concurrency(c.div_ceil(dp)),
            Clients::Rate(r) => Clients::Rate(r / dp as f64),
        };
        let requests = benchmark.requests.div_ceil(dp);
        let mut run = serving::simulate::run(
            &mut self.cost,
            self.scheduler,
            benchmark,
            clients,
            requests,
            capacity,
        )?;
        run.output_tokens_per_s *= dp as f64;
        Ok(run)
    }
}

#[cfg(test)]
mod tests;
