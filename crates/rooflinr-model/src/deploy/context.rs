//! One deployment's passes and steps: one GPU's operators cut from the whole model's by
//! the layout ([`shard_op`]), their roofline or expected time, the stage's collectives,
//! what each GPU holds and how many requests fit.

use super::{
    Collective, CommId, CommModel, CommReport, DeployOptions, DeployPass, GpuMemory, Layout,
    MAX_CONCURRENCY, NCCL_PIPELINE_FILL, PREFILL_CHUNK_TOKENS, PassCalibration, collective_cost,
    collective_profile,
};
use crate::analysis::{
    self, Block, OpId, OpReport, Phase, Scenario, SeqGroup, Step, WeightShard, weights_per_gpu,
};
use crate::config::ModelConfig;
use crate::error::ModelError;
use crate::hardware::Hardware;
use crate::ops::{AttentionShape, DeltaRuleShape, Op};
use crate::roofline::Efficiency;
use crate::units::{Bytes, Seconds};

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

/// One deployment: a model on a device in a layout, with its options.
#[derive(Clone, Copy)]
pub(in crate::deploy) struct Context<'a> {
    pub(in crate::deploy) config: &'a ModelConfig,
    pub(in crate::deploy) hardware: &'a Hardware,
    pub(in crate::deploy) efficiency: &'a Efficiency,
    pub(in crate::deploy) layout: Layout,
    pub(in crate::deploy) options: &'a DeployOptions,
}

/// How one GPU's operators are cut from the whole model's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpShard {
    /// Tensor-parallel degree.
    pub tensor: f64,
    /// Attention replicas (the stage's tokens divide among them).
    pub data: f64,
    /// GPUs the routed experts are spread over (a stage's).
    pub experts_over: f64,
    /// Expert-parallel degree: the groups of those GPUs the experts are spread over, each
    /// expert's columns split over the `experts_over / expert_parallel` GPUs of its group
    /// (1: every expert split by columns over them all; `experts_over`: whole experts).
    pub expert_parallel: f64,
    /// The busiest expert-parallel group's routed tokens over the mean.
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
                | OpId::LinearQkvProj
                | OpId::LinearZProj
                | OpId::LinearBaProj
                | OpId::LmHead => (n / t, k),
                OpId::KProj | OpId::VProj => (n * s.kv_share, k),
                // Row-parallel: the reduction splits, partial sums are all-reduced.
                OpId::OProj | OpId::DownProj | OpId::SharedExpertDownProj | OpId::LinearOutProj => {
                    (n, k / t)
                }
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
            // Routed experts: the stage's tokens, `batch / EP` experts on each GPU, each
            // one's columns (its rows for the down projection) split over MoE TP GPUs.
            let (ep, moe_tp) = (s.expert_parallel, s.experts_over / s.expert_parallel);
            let (n, k) = if id == OpId::ExpertsDownProj {
                (n, k / moe_tp)
            } else {
                (n / moe_tp, k)
            };
            Op::BatchedGemm {
                batch: batch / ep,
                m: m * s.imbalance,
                n,
                k,
            }
        }
        (Op::SiluMul { tokens, dim }, OpId::ExpertsSiluMul) => Op::SiluMul {
            tokens: tokens / s.expert_parallel * s.imbalance,
            dim: dim * s.expert_parallel / s.experts_over,
        },
        (Op::SiluMul { tokens, dim }, _) => Op::SiluMul {
            tokens: tokens / d,
            dim: dim / t,
        },
        (Op::FusedAttention(a), _) => Op::FusedAttention(attention(&a)),
        (Op::AttentionScores(a), _) => Op::AttentionScores(attention(&a)),
        (Op::AttentionSoftmax(a), _) => Op::AttentionSoftmax(attention(&a)),
        (Op::AttentionContext(a), _) => Op::AttentionContext(attention(&a)),
        (Op::Norm { tokens, dim, kind }, OpId::QkNorm | OpId::LinearNorm) => Op::Norm {
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
        // Linear attention splits by heads as attention does (vLLM's column-parallel
        // convolution taps and state, `tp_size` in `gated_delta_net_state_shape`).
        (
            Op::CausalConv1d {
                tokens,
                sequences,
                channels,
                kernel,
                state,
            },
            _,
        ) => Op::CausalConv1d {
            tokens: tokens / d,
            sequences: sequences / d,
            channels: channels / t,
            kernel,
            state,
        },
        (Op::DeltaRule(r), _) => Op::DeltaRule(DeltaRuleShape {
            batch: r.batch / d,
            key_heads: r.key_heads / t,
            value_heads: r.value_heads / t,
            ..r
        }),
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

    pub(in crate::deploy) fn data(&self) -> f64 {
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
            expert_parallel: f64::from(self.layout.expert),
            imbalance: if self.layout.expert_parallel() {
                self.options.expert_imbalance
            } else {
                1.0
            },
            kv_share: 1.0 / self.tensor().min(self.config.kv_heads as f64).max(1.0),
        }
    }

    /// One sequence's KV cache on one GPU at `context` tokens: the attention layers' split
    /// by KV heads, a hybrid's recurrent state by value heads over the whole tensor
    /// parallelism.
    fn kv_per_sequence(&self, scenario: &Scenario, context: u64) -> Bytes {
        let state = analysis::recurrent_state_bytes(self.config);
        let all = analysis::kv_cache_bytes(self.config, scenario.precision.kv, context);
        ((all - state) * (1.0 / self.kv_split()) + state * (1.0 / self.tensor()))
            * self.layer_fraction()
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
    pub(in crate::deploy) fn prefill_micro_batches(&self, concurrency: u64) -> u32 {
        let p = self.layout.pipeline;
        let m = self
            .options
            .prefill_micro_batches
            .unwrap_or(if p > 1 { 4 * p } else { 1 })
            .max(1);
        m.min(u32::try_from(concurrency).unwrap_or(u32::MAX))
    }

    /// Sequences on the busiest attention replica when `sequences` divide over DP.
    pub(in crate::deploy) fn per_replica(&self, sequences: u64) -> u64 {
        sequences.div_ceil(u64::from(self.layout.data))
    }

    pub(in crate::deploy) fn memory(
        &self,
        scenario: &Scenario,
        concurrency: u64,
        prompt: u64,
        end: u64,
    ) -> GpuMemory {
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
    pub(in crate::deploy) fn max_concurrency(
        &self,
        scenario: &Scenario,
        prompt: u64,
        end: u64,
    ) -> u64 {
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
    pub(in crate::deploy) fn pass(
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
    pub(in crate::deploy) fn step_time(
        &self,
        scenario: &Scenario,
        step: &Step,
    ) -> Result<StepTime, ModelError> {
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
            crate::kernel_time::calibrated_pass_placed(
                &ops,
                self.hardware,
                self.options.framework,
                crate::kernel_time::Activations::QuantisedFirst,
                shard.expert_parallel,
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
            if l.expert_parallel() {
                // Each GPU's tokens, top-k copies, each copy to the MoE TP GPUs its expert's
                // columns split over (an all-to-all over the EP groups, then an all-gather
                // within the MoE TP group, as a single exchange); the combine returns as
                // many partial outputs.
                let held = element
                    * (stage_tokens / f64::from(g)
                        * moe.top_k as f64
                        * f64::from(l.moe_tensor())
                        * h);
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
