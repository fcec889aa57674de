//! Deployments over many GPUs: a parallel layout, the collectives it needs, what each GPU
//! holds, and the serving figures of a workload (time to first token, time per output
//! token, tokens/s per user and per GPU).
//!
//! The model, each part stated where it is computed:
//! - **Layout** ([`Layout`]): tensor parallelism `TP` splits attention by heads and the
//!   MLP by intermediate columns (Megatron-LM, arXiv 1909.08053); data parallelism `DP`
//!   runs `DP` replicas of attention on different sequences (DeepSeek's "attention DP",
//!   arXiv 2412.19437 section 3.4); the `TP x DP` GPUs of a pipeline stage share the
//!   routed experts, either whole experts per GPU (expert parallelism, `EP = TP x DP`, as
//!   vLLM and SGLang number it) or each expert split by columns; pipeline parallelism `PP`
//!   gives each stage `ceil(layers / PP)` layers.
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

mod measured;
pub mod record;
mod search;
pub mod serving;

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
    Batching, HostOverhead, InFlightState, Policy, Scheduler, ServingError, Speculation,
    serving_error,
};

use std::fmt;

use crate::analysis::{
    self, Block, OpId, OpReport, Phase, Scenario, SeqGroup, Step, WeightShard, kv_bytes_per_token,
    weights_per_gpu,
};
use crate::config::ModelConfig;
use crate::error::ModelError;
use crate::hardware::{Hardware, LinkKind};
use crate::ops::{AttentionShape, Op};
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
    /// Whether routed experts are placed whole on the stage's GPUs (expert parallelism
    /// over all `tensor x data` of them) instead of split by columns.
    pub expert: bool,
}

impl Layout {
    /// One GPU.
    pub const SINGLE: Layout = Layout {
        tensor: 1,
        pipeline: 1,
        data: 1,
        expert: false,
    };

    /// GPUs in all.
    pub fn gpus(&self) -> u32 {
        self.tensor * self.pipeline * self.data
    }

    /// GPUs of one pipeline stage (the expert-parallel group).
    pub fn stage_gpus(&self) -> u32 {
        self.tensor * self.data
    }

    /// Expert-parallel degree: the stage's GPUs with expert parallelism, else 1.
    pub fn expert_degree(&self) -> u32 {
        if self.expert { self.stage_gpus() } else { 1 }
    }

    /// Checks the layout against the model: every degree at least 1, tensor parallelism
    /// dividing the query heads and the KV heads (or divided by them), no more stages
    /// than layers, expert parallelism only for a mixture of experts.
    pub fn validate(&self, c: &ModelConfig) -> Result<(), ModelError> {
        for (field, v) in [
            ("tp", self.tensor),
            ("pp", self.pipeline),
            ("dp", self.data),
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
        if self.expert && c.moe.is_none() {
            return Err(ModelError::invalid(
                "ep",
                format!("{} has no experts to place", c.name),
            ));
        }
        Ok(())
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TP{} PP{} DP{}", self.tensor, self.pipeline, self.data)?;
        if self.expert {
            write!(f, " EP{}", self.expert_degree())?;
        }
        Ok(())
    }
}

/// A communication pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collective {
    /// Every GPU ends with the sum of everyone's message.
    AllReduce,
    /// Every GPU ends with everyone's part; the message is the gathered whole.
    AllGather,
    /// Every GPU ends with its part of the sum; the message is the whole input.
    ReduceScatter,
    /// Every GPU sends a different part to each other GPU; the message is what one GPU
    /// holds for all destinations.
    AllToAll,
    /// One stage hands its activations to the next.
    SendRecv,
}

impl Collective {
    /// `all-reduce`, `all-gather`, `all-to-all`, `send/recv`.
    pub fn name(self) -> &'static str {
        match self {
            Collective::AllReduce => "all-reduce",
            Collective::AllGather => "all-gather",
            Collective::ReduceScatter => "reduce-scatter",
            Collective::AllToAll => "all-to-all",
            Collective::SendRecv => "send/recv",
        }
    }

    /// Bytes each of `n` GPUs sends for a message of `message` bytes (see the module
    /// comment for each rule).
    pub fn bytes_sent(self, message: Bytes, n: u32) -> Bytes {
        let n = f64::from(n);
        match self {
            Collective::AllReduce => message * (2.0 * (n - 1.0) / n),
            Collective::AllGather | Collective::ReduceScatter | Collective::AllToAll => {
                message * ((n - 1.0) / n)
            }
            Collective::SendRecv => message,
        }
    }

    /// Sequential steps, each paying the link's latency once.
    pub fn steps(self, n: u32) -> f64 {
        let n = f64::from(n);
        match self {
            Collective::AllReduce => 2.0 * (n - 1.0),
            Collective::AllGather | Collective::ReduceScatter => n - 1.0,
            Collective::AllToAll | Collective::SendRecv => 1.0,
        }
    }
}

/// How communication is costed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CommModel {
    /// Latency per step inside a scale-up domain.
    pub scale_up_latency: Seconds,
    /// Latency per step across the network.
    pub scale_out_latency: Seconds,
    /// Achieved fraction of each link's bandwidth (1: the bound).
    pub bandwidth_efficiency: f64,
    /// How far a collective's latency and bandwidth terms fail to overlap as its message
    /// passes the steps in chunks: the time gains this times the geometric mean of the
    /// two, `sqrt(latency term x bandwidth term)` (0: the bound, latency plus bandwidth;
    /// NCCL's measured collectives fit 1, [`NCCL_PIPELINE_FILL`]). It matters between the
    /// two limits: a 1 MiB all-reduce, not a 1 KiB or a 1 GiB one.
    pub pipeline_fill: f64,
    /// Whether communication hides behind compute (each stage takes the longer of the
    /// two) rather than adding to it.
    pub overlap: bool,
}

impl Default for CommModel {
    /// Off the shelf: 1 µs per step on NVLink-class fabrics and 5 µs across InfiniBand
    /// (NVIDIA's aiconfigurator-core 0.12.0 uses 5 µs between racks, systems/gb200.yaml),
    /// the links' full bandwidth, no overlap.
    fn default() -> Self {
        CommModel {
            scale_up_latency: Seconds(1e-6),
            scale_out_latency: Seconds(5e-6),
            bandwidth_efficiency: 1.0,
            pipeline_fill: 0.0,
            overlap: false,
        }
    }
}

/// Which communication of the forward pass a [`CommReport`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommId {
    /// After attention's output projection, among the tensor-parallel GPUs.
    AttentionAllReduce,
    /// After a dense MLP's down projection, among the tensor-parallel GPUs.
    MlpAllReduce,
    /// After the MoE block: the column-split experts' partial sums (no expert
    /// parallelism, over the stage), or the shared experts' and the replica's tokens
    /// (expert parallelism with TP > 1, over the tensor-parallel GPUs).
    MoeAllReduce,
    /// Each token's hidden state to its top-k experts' GPUs.
    MoeDispatch,
    /// The experts' outputs back to each token's GPU.
    MoeCombine,
    /// The LM head's vocabulary slices gathered.
    LogitsAllGather,
    /// Activations handed to the next pipeline stage.
    PipelineSend,
}

impl CommId {
    /// Stable name (`attention.all_reduce`, `moe.dispatch`, ...).
    pub fn name(self) -> &'static str {
        match self {
            CommId::AttentionAllReduce => "attention.all_reduce",
            CommId::MlpAllReduce => "mlp.all_reduce",
            CommId::MoeAllReduce => "moe.all_reduce",
            CommId::MoeDispatch => "moe.dispatch",
            CommId::MoeCombine => "moe.combine",
            CommId::LogitsAllGather => "logits.all_gather",
            CommId::PipelineSend => "pipeline.send",
        }
    }
}

/// One communication of a pipeline stage, all its instances.
#[derive(Clone, Debug, PartialEq)]
pub struct CommReport {
    /// Which one.
    pub id: CommId,
    /// Its pattern.
    pub collective: Collective,
    /// GPUs taking part.
    pub gpus: u32,
    /// The link it runs over.
    pub link: LinkKind,
    /// Instances per stage and micro-batch (layers it appears in).
    pub count: f64,
    /// The message of one instance.
    pub message: Bytes,
    /// Bytes one GPU sends per instance.
    pub sent: Bytes,
    /// Time of all instances.
    pub time: Seconds,
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

/// One collective's cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollectiveCost {
    /// The link it runs over.
    pub link: LinkKind,
    /// Bytes each GPU sends.
    pub sent: Bytes,
    /// Its time: a latency per step plus the bytes sent over the link's bandwidth, plus
    /// [`CommModel::pipeline_fill`] times the geometric mean of the two.
    pub time: Seconds,
}

/// The cost of one `collective` of `message` among `gpus` GPUs placed within `span`
/// adjacent GPUs of `hardware` (the span decides the link: the fabric inside a domain,
/// the network beyond).
pub fn collective_cost(
    hardware: &Hardware,
    collective: Collective,
    message: Bytes,
    gpus: u32,
    span: u32,
    comm: &CommModel,
) -> Result<CollectiveCost, ModelError> {
    let ic = hardware.interconnect.as_ref().ok_or_else(|| {
        ModelError::invalid(
            "interconnect",
            format!(
                "{} has no published interconnect; give one (link bandwidth and domain size) for a {} among {gpus} GPUs",
                hardware.name,
                collective.name()
            ),
        )
    })?;
    let link = ic.link_for(span).ok_or_else(|| {
        ModelError::invalid(
            "interconnect",
            format!(
                "a group spanning {span} GPUs crosses {}-GPU domains of {}, and no network bandwidth is known",
                ic.domain.value, hardware.name
            ),
        )
    })?;
    let latency = if span <= ic.domain.value {
        comm.scale_up_latency
    } else {
        comm.scale_out_latency
    };
    let sent = collective.bytes_sent(message, gpus);
    let bandwidth = link.bandwidth.value.get() * comm.bandwidth_efficiency;
    let latency_s = latency.get() * collective.steps(gpus);
    let transfer_s = sent.get() / bandwidth;
    Ok(CollectiveCost {
        link: link.kind,
        sent,
        time: Seconds(
            latency_s + transfer_s + comm.pipeline_fill * (latency_s * transfer_s).sqrt(),
        ),
    })
}

/// What one micro-batch of a stage puts on the wire.
#[derive(Clone, Copy, Debug, PartialEq)]
struct CommLoad {
    /// New tokens of the whole stage (every replica's).
    stage_tokens: f64,
    /// New tokens of the busiest replica.
    replica_tokens: f64,
    /// Positions whose logits the busiest replica computes.
    replica_logits: f64,
}

/// The time of one engine step: its operators and collectives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepTime {
    /// Operators' time.
    pub compute: Seconds,
    /// Collectives' time.
    pub communication: Seconds,
    /// The step: compute and communication, added or overlapped.
    pub time: Seconds,
    /// Kernels the step launches: one per operator and collective instance.
    pub launches: f64,
}

#[derive(Clone, Copy)]
struct Context<'a> {
    config: &'a ModelConfig,
    hardware: &'a Hardware,
    efficiency: &'a Efficiency,
    layout: Layout,
    options: &'a DeployOptions,
}

/// How one GPU's operators are cut from the whole model's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpShard {
    /// Tensor-parallel degree.
    pub tensor: f64,
    /// Attention replicas (the stage's tokens divide among them).
    pub data: f64,
    /// GPUs the routed experts are spread over.
    pub experts_over: f64,
    /// Whether the experts are whole on each GPU (else split by columns).
    pub expert_parallel: bool,
    /// The busiest GPU's routed tokens over the mean.
    pub imbalance: f64,
    /// The share of the KV heads one GPU holds: `1 / min(TP, KV heads)` (a GPU holds one
    /// head at least, replicated when there are fewer heads than GPUs).
    pub kv_share: f64,
}

/// One GPU's part of operator `id` of shape `op` (the whole stage's shape), under `s`.
/// The identity when every degree is 1 and routing is balanced.
pub fn shard_op(id: OpId, op: &Op, s: &OpShard) -> Op {
    let (t, d) = (s.tensor, s.data);
    let attention = |a: &AttentionShape| AttentionShape {
        batch: a.batch / d,
        heads: a.heads / t,
        // MLA's latent is one shared head every GPU holds whole.
        kv_heads: if a.shared_kv {
            a.kv_heads
        } else {
            a.kv_heads * s.kv_share
        },
        ..*a
    };
    match (*op, id) {
        (Op::Gemm { m, n, k, bias }, _) => {
            let (n, k) = match id {
                // Column-parallel: the output features split.
                OpId::QProj
                | OpId::QBProj
                | OpId::KvBProj
                | OpId::GateProj
                | OpId::UpProj
                | OpId::SharedExpertGateProj
                | OpId::SharedExpertUpProj
                | OpId::LmHead => (n / t, k),
                OpId::KProj | OpId::VProj => (n * s.kv_share, k),
                // Row-parallel: the reduction splits, partial sums are all-reduced.
                OpId::OProj | OpId::DownProj | OpId::SharedExpertDownProj => (n, k / t),
                // Replicated: routers, MLA's down projections.
                _ => (n, k),
            };
            Op::Gemm {
                m: m / d,
                n,
                k,
                bias,
            }
        }
        (Op::BatchedGemm { batch, m, n, k }, OpId::QAbsorb | OpId::VAbsorb) => Op::BatchedGemm {
            batch: batch / t,
            m: m / d,
            n,
            k,
        },
        (Op::BatchedGemm { batch, m, n, k }, _) => {
            // Routed experts: the stage's tokens, the experts spread over its GPUs.
            let g = s.experts_over;
            if s.expert_parallel {
                Op::BatchedGemm {
                    batch: batch / g,
                    m: m * s.imbalance,
                    n,
                    k,
                }
            } else if id == OpId::ExpertsDownProj {
                Op::BatchedGemm {
                    batch,
                    m,
                    n,
                    k: k / g,
                }
            } else {
                Op::BatchedGemm {
                    batch,
                    m,
                    n: n / g,
                    k,
                }
            }
        }
        (Op::SiluMul { tokens, dim }, OpId::ExpertsSiluMul) => {
            let g = s.experts_over;
            if s.expert_parallel {
                Op::SiluMul {
                    tokens: tokens / g * s.imbalance,
                    dim,
                }
            } else {
                Op::SiluMul {
                    tokens,
                    dim: dim / g,
                }
            }
        }
        (Op::SiluMul { tokens, dim }, _) => Op::SiluMul {
            tokens: tokens / d,
            dim: dim / t,
        },
        (Op::FusedAttention(a), _) => Op::FusedAttention(attention(&a)),
        (Op::AttentionScores(a), _) => Op::AttentionScores(attention(&a)),
        (Op::AttentionSoftmax(a), _) => Op::AttentionSoftmax(attention(&a)),
        (Op::AttentionContext(a), _) => Op::AttentionContext(attention(&a)),
        (Op::Norm { tokens, dim, kind }, OpId::QkNorm) => Op::Norm {
            tokens: tokens / d / t,
            dim,
            kind,
        },
        (Op::Norm { tokens, dim, kind }, _) => Op::Norm {
            tokens: tokens / d,
            dim,
            kind,
        },
        (Op::ResidualAdd { tokens, dim }, _) => Op::ResidualAdd {
            tokens: tokens / d,
            dim,
        },
        (
            Op::Rope {
                tokens,
                heads,
                rotary_dim,
            },
            _,
        ) => Op::Rope {
            tokens: tokens / d,
            heads: heads / t,
            rotary_dim,
        },
        (
            Op::RouterTopK {
                tokens,
                experts,
                top_k,
            },
            _,
        ) => Op::RouterTopK {
            tokens: tokens / d,
            experts,
            top_k,
        },
        (Op::MoeCombine { tokens, top_k, dim }, _) => Op::MoeCombine {
            tokens: tokens / d,
            top_k,
            dim,
        },
        (Op::Embedding { tokens, dim }, _) => Op::Embedding {
            tokens: tokens / d,
            dim,
        },
    }
}

impl Context<'_> {
    /// Layers on one stage over the model's layers: `ceil(layers / PP) / layers`.
    fn layer_fraction(&self) -> f64 {
        let (layers, p) = (self.config.layers, u64::from(self.layout.pipeline));
        if p == 1 {
            1.0
        } else {
            layers.div_ceil(p) as f64 / layers as f64
        }
    }

    fn tensor(&self) -> f64 {
        f64::from(self.layout.tensor)
    }

    fn data(&self) -> f64 {
        f64::from(self.layout.data)
    }

    fn stage_gpus(&self) -> f64 {
        f64::from(self.layout.stage_gpus())
    }

    /// The GPUs the KV heads split over: `min(TP, KV heads)`; MLA's latent is not split.
    fn kv_split(&self) -> f64 {
        if self.config.mla.is_some() {
            1.0
        } else {
            self.tensor().min(self.config.kv_heads as f64).max(1.0)
        }
    }

    /// The shard of a micro-batch of `micro` sequences: the token divisor is what leaves
    /// the busiest replica its `ceil(micro / DP)` sequences.
    fn op_shard(&self, micro: u64) -> OpShard {
        self.op_shard_over(micro as f64 / self.per_replica(micro) as f64)
    }

    /// The shard of a stage's step whose tokens divide `data` ways among the replicas.
    fn op_shard_over(&self, data: f64) -> OpShard {
        OpShard {
            tensor: self.tensor(),
            data,
            experts_over: self.stage_gpus(),
            expert_parallel: self.layout.expert,
            imbalance: if self.layout.expert {
                self.options.expert_imbalance
            } else {
                1.0
            },
            kv_share: 1.0 / self.tensor().min(self.config.kv_heads as f64).max(1.0),
        }
    }

    /// One sequence's KV cache on one GPU at `context` tokens.
    fn kv_per_sequence(&self, scenario: &Scenario, context: u64) -> Bytes {
        let tokens = analysis::cached_tokens(self.config, context) as f64;
        kv_bytes_per_token(self.config, scenario.precision.kv)
            * (self.layer_fraction() / self.kv_split() * tokens)
    }

    fn weights(&self, scenario: &Scenario) -> Bytes {
        let shard = WeightShard {
            tensor: self.tensor(),
            experts: self.stage_gpus(),
            layer_fraction: self.layer_fraction(),
            pipelined: self.layout.pipeline > 1,
        };
        weights_per_gpu(self.config, scenario, &shard)
    }

    /// Live activations of the widest layer for one prefill micro-batch of `concurrency`
    /// prompts, at most one chunk of [`PREFILL_CHUNK_TOKENS`] per replica:
    /// `tokens x (2 hidden + 2 widest) x activation bytes`, where the widest
    /// per-token slice is the dense MLP's `intermediate / TP`, the shared experts', or the
    /// routed experts' `top_k x expert_intermediate x DP / (TP x DP)` (times the
    /// imbalance under expert parallelism).
    fn activations(&self, scenario: &Scenario, concurrency: u64, prompt: u64) -> Bytes {
        let c = self.config;
        let m = self.prefill_micro_batches(concurrency);
        let micro = concurrency.div_ceil(u64::from(m));
        let tokens = (self.per_replica(micro) as f64 * prompt as f64).min(PREFILL_CHUNK_TOKENS);
        let t = self.tensor();
        let mut widest = c.intermediate as f64 / t;
        if let Some(moe) = &c.moe {
            let ie = moe.expert_intermediate as f64;
            widest = widest.max(moe.shared_experts as f64 * ie / t);
            let routed = moe.top_k as f64 * ie * self.data() / self.stage_gpus();
            widest = widest.max(routed * self.op_shard(micro).imbalance);
        }
        let element = Bytes::from_bits(scenario.precision.activations.bits_per_element());
        element * (tokens * 2.0 * (c.hidden as f64 + widest))
    }

    /// Prefill's micro-batches: as given, else four per stage when pipelined (GPipe,
    /// arXiv 1811.06965, finds the bubble negligible from about four per stage), never more
    /// than there are requests.
    fn prefill_micro_batches(&self, concurrency: u64) -> u32 {
        let p = self.layout.pipeline;
        let m = self
            .options
            .prefill_micro_batches
            .unwrap_or(if p > 1 { 4 * p } else { 1 })
            .max(1);
        m.min(u32::try_from(concurrency).unwrap_or(u32::MAX))
    }

    /// Sequences on the busiest attention replica when `sequences` divide over DP.
    fn per_replica(&self, sequences: u64) -> u64 {
        sequences.div_ceil(u64::from(self.layout.data))
    }

    fn memory(&self, scenario: &Scenario, concurrency: u64, prompt: u64, end: u64) -> GpuMemory {
        GpuMemory {
            weights: self.weights(scenario),
            kv_cache: self.kv_per_sequence(scenario, end) * self.per_replica(concurrency) as f64,
            activations: self.activations(scenario, concurrency, prompt),
            capacity: self.hardware.memory_capacity.value,
        }
    }

    /// The most requests whose weights, KV cache at `end` tokens and prefill activations
    /// fit: `DP x (capacity - weights - the largest activations) / KV per sequence per GPU`,
    /// stepped down until [`GpuMemory::fits`] holds (the busiest replica rounds up).
    fn max_concurrency(&self, scenario: &Scenario, prompt: u64, end: u64) -> u64 {
        let capacity = self.hardware.memory_capacity.value;
        let free =
            capacity - self.weights(scenario) - self.activations(scenario, MAX_CONCURRENCY, prompt);
        let per_sequence = self.kv_per_sequence(scenario, end).get();
        if free.get() <= 0.0 || per_sequence <= 0.0 {
            return 0;
        }
        let mut n = ((self.data() * free.get() / per_sequence).floor() as u64).min(MAX_CONCURRENCY);
        while n > 0 && !self.memory(scenario, n, prompt, end).fits() {
            n -= 1;
        }
        n
    }

    /// One pass of `batch` sequences in `micro_batches` micro-batches.
    fn pass(
        &self,
        scenario: &Scenario,
        phase: Phase,
        batch: u64,
        seq: u64,
        micro_batches: u32,
    ) -> Result<DeployPass, ModelError> {
        let m = u64::from(micro_batches.max(1)).min(batch);
        let micro = batch.div_ceil(m);
        let step = Step::uniform(phase, micro as f64, seq as f64);
        let shard = self.op_shard(micro);
        let (mut ops, expected) = self.stage_ops(scenario, &step, &shard)?;
        let bound: Seconds = ops.iter().map(|o| o.time).sum();
        let compute = expected.map_or(bound, |e| Seconds(e.time_s));
        for o in &mut ops {
            o.share = if compute.get() > 0.0 {
                o.time / compute
            } else {
                0.0
            };
        }
        let tokens_per_sequence = match phase {
            Phase::Prefill => seq as f64,
            Phase::Decode => 1.0,
        };
        let replica_sequences = self.per_replica(micro) as f64;
        let load = CommLoad {
            stage_tokens: micro as f64 * tokens_per_sequence,
            replica_tokens: replica_sequences * tokens_per_sequence,
            replica_logits: replica_sequences,
        };
        let (comms, profiled_comms) = self.comms(scenario, load)?;
        let communication: Seconds = comms.iter().map(|c| c.time).sum();
        let calibration = expected.map(|e| PassCalibration {
            fused_moe: e.fused_moe,
            profiled_ops: e.calibrated_ops,
            bound_ops: e.bound_ops,
            profiled_comms,
            bound_comms: comms.len() - profiled_comms,
            framework: self.options.framework,
        });
        let stage = self.stage_time(compute, communication);
        let p = f64::from(self.layout.pipeline);
        let mf = m as f64;
        let (time, bubble) = match phase {
            Phase::Prefill => (stage * (mf + p - 1.0), (p - 1.0) / (mf + p - 1.0)),
            Phase::Decode => (stage * p, ((p - mf) / p).max(0.0)),
        };
        Ok(DeployPass {
            phase,
            batch,
            micro_batches: m as u32,
            ops,
            comms,
            compute,
            communication,
            stage,
            time,
            bubble,
            calibration,
        })
    }

    /// One engine step of the busiest attention replica carrying `step` (its decoding
    /// sequences and prompt chunks): the stage runs `DP` such steps at once, one per
    /// replica; with `PP` stages the step's sequences pass in `PP` micro-batches, each
    /// through every stage, as a decode pass does (`PP` stage times of a micro-batch of
    /// a `1 / PP` share).
    fn step_time(&self, scenario: &Scenario, step: &Step) -> Result<StepTime, ModelError> {
        let (d, p) = (self.data(), f64::from(self.layout.pipeline));
        let scale = d / p;
        let stage_step = Step {
            groups: step
                .groups
                .iter()
                .map(|g| SeqGroup {
                    sequences: g.sequences * scale,
                    ..*g
                })
                .collect(),
            logits: step.logits * scale,
        };
        let (ops, expected) = self.stage_ops(scenario, &stage_step, &self.op_shard_over(d))?;
        let compute =
            expected.map_or_else(|| ops.iter().map(|o| o.time).sum(), |e| Seconds(e.time_s));
        let stage_tokens = stage_step.tokens();
        let load = CommLoad {
            stage_tokens,
            replica_tokens: stage_tokens / d,
            replica_logits: stage_step.logits / d,
        };
        let (comms, _) = self.comms(scenario, load)?;
        let communication: Seconds = comms.iter().map(|c| c.time).sum();
        let launches =
            ops.iter().map(|o| o.count).sum::<f64>() + comms.iter().map(|c| c.count).sum::<f64>();
        Ok(StepTime {
            compute: compute * p,
            communication: communication * p,
            time: self.stage_time(compute, communication) * p,
            launches: launches * p,
        })
    }

    /// One GPU's operators of a stage running `step` (the whole stage's step), cut by
    /// `shard` and costed by the roofline, and with [`DeployOptions::calibrated`] their
    /// expected time.
    fn stage_ops(
        &self,
        scenario: &Scenario,
        step: &Step,
        shard: &OpShard,
    ) -> Result<(Vec<OpReport>, Option<crate::kernel_time::CalibratedPass>), ModelError> {
        let whole =
            analysis::step_ops(self.config, self.hardware, scenario, step, self.efficiency)?;
        let fraction = self.layer_fraction();
        let pipelined = self.layout.pipeline > 1;
        let ops: Vec<OpReport> = whole
            .into_iter()
            // The embedding sits on the first stage; the last (with the LM head) is the
            // heavier one this pass describes.
            .filter(|o| !(pipelined && o.id == OpId::Embedding))
            .map(|o| {
                let count = if o.id.block() == Block::Model {
                    o.count
                } else {
                    o.count * fraction
                };
                let op = shard_op(o.id, &o.op, shard);
                let result = op.predict(&o.precision, self.hardware, self.efficiency);
                OpReport {
                    id: o.id,
                    count,
                    op,
                    precision: o.precision,
                    result,
                    time: result.prediction.time * count,
                    share: 0.0,
                }
            })
            .collect();
        let expected = self.options.calibrated.then(|| {
            let expert_parallel = if shard.expert_parallel {
                shard.experts_over
            } else {
                1.0
            };
            crate::kernel_time::calibrated_pass_placed(
                &ops,
                self.hardware,
                self.options.framework,
                crate::kernel_time::Activations::QuantisedFirst,
                expert_parallel,
            )
        });
        Ok((ops, expected))
    }

    /// A stage's time from its compute and communication: their sum, or the longer of the
    /// two when [`CommModel::overlap`] is set.
    fn stage_time(&self, compute: Seconds, communication: Seconds) -> Seconds {
        if self.options.comm.overlap {
            if compute.get() >= communication.get() {
                compute
            } else {
                communication
            }
        } else {
            compute + communication
        }
    }

    /// The heaviest stage's communication for one micro-batch carrying `load` (rules in the
    /// module comment and on [`CommId`]), and how many were costed by a shipped NCCL
    /// profile.
    fn comms(
        &self,
        scenario: &Scenario,
        load: CommLoad,
    ) -> Result<(Vec<CommReport>, usize), ModelError> {
        let c = self.config;
        let l = self.layout;
        let fraction = self.layer_fraction();
        let element = Bytes::from_bits(scenario.precision.activations.bits_per_element());
        let h = c.hidden as f64;
        let CommLoad {
            stage_tokens,
            replica_tokens,
            replica_logits,
        } = load;
        let hidden_message = element * (replica_tokens * h);
        let layers = c.layers as f64;
        let dense_layers = c.moe.as_ref().map_or(layers, |m| m.dense_layers as f64);
        let moe_layers = layers - dense_layers;
        let (t, g) = (l.tensor, l.stage_gpus());

        let mut out = Vec::new();
        let mut profiled = 0;
        let domain = self
            .hardware
            .interconnect
            .as_ref()
            .map_or(1, |ic| ic.domain.value);
        let mut add = |id: CommId,
                       collective: Collective,
                       gpus: u32,
                       span: u32,
                       count: f64,
                       message: Bytes|
         -> Result<(), ModelError> {
            if count <= 0.0 || gpus <= 1 {
                return Ok(());
            }
            // Calibrated: a collective inside the domain with a shipped NCCL profile takes
            // the profile's latency per step and bandwidth fraction, and NCCL's pipeline
            // fill.
            let profile = (self.options.calibrated && span <= domain)
                .then(|| collective_profile(&self.hardware.key, collective, gpus))
                .flatten();
            let comm = match profile {
                Some(p) => {
                    profiled += 1;
                    CommModel {
                        scale_up_latency: Seconds(p.latency_per_step_us * 1e-6),
                        bandwidth_efficiency: p.bandwidth_fraction,
                        pipeline_fill: NCCL_PIPELINE_FILL,
                        ..self.options.comm
                    }
                }
                None => self.options.comm,
            };
            let cost = collective_cost(self.hardware, collective, message, gpus, span, &comm)?;
            let (link, sent, one) = (cost.link, cost.sent, cost.time);
            out.push(CommReport {
                id,
                collective,
                gpus,
                link,
                count,
                message,
                sent,
                time: one * count,
            });
            Ok(())
        };
        add(
            CommId::AttentionAllReduce,
            Collective::AllReduce,
            t,
            t,
            layers * fraction,
            hidden_message,
        )?;
        add(
            CommId::MlpAllReduce,
            Collective::AllReduce,
            t,
            t,
            dense_layers * fraction,
            hidden_message,
        )?;
        if let Some(moe) = &c.moe {
            let count = moe_layers * fraction;
            if l.expert {
                let held = element * (stage_tokens / f64::from(g) * moe.top_k as f64 * h);
                add(CommId::MoeDispatch, Collective::AllToAll, g, g, count, held)?;
                add(CommId::MoeCombine, Collective::AllToAll, g, g, count, held)?;
                add(
                    CommId::MoeAllReduce,
                    Collective::AllReduce,
                    t,
                    t,
                    count,
                    hidden_message,
                )?;
            } else {
                add(
                    CommId::MoeAllReduce,
                    Collective::AllReduce,
                    g,
                    g,
                    count,
                    element * (stage_tokens * h),
                )?;
            }
        }
        add(
            CommId::LogitsAllGather,
            Collective::AllGather,
            t,
            t,
            1.0,
            element * (replica_logits * c.vocab as f64),
        )?;
        // Adjacent stages span two stages' GPUs.
        add(
            CommId::PipelineSend,
            Collective::SendRecv,
            if l.pipeline > 1 { 2 } else { 1 },
            2 * g,
            1.0,
            hidden_message,
        )?;
        Ok((out, profiled))
    }
}

#[cfg(test)]
mod tests;
