//! A deployment as a record to serialise: the one JSON shape of `rooflinr deploy --json`
//! and of the calculator's deployment export, so the two cannot drift apart.

use serde::Serialize;

use super::{
    COLLECTIVE_SOURCE, CommReport, DeployPass, Deployment, InFlightState, PassCalibration, Serving,
};
use crate::format::Format;
use crate::kernel_time::PROFILE_SOURCE;

/// One collective of a pass.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CommRecord {
    /// What it carries (`attention.all_reduce`).
    pub name: &'static str,
    /// The collective (`all-reduce`).
    pub collective: &'static str,
    /// GPUs taking part.
    pub gpus: u32,
    /// The link it runs over.
    pub link: String,
    /// Instances per stage and micro-batch (layers it appears in).
    pub count: f64,
    /// Bytes of one instance's message.
    pub message_bytes: f64,
    /// Bytes one GPU sends per instance.
    pub sent_bytes: f64,
    /// Seconds for all instances.
    pub time_s: f64,
}

/// One pass (the batch's prefill, or one decode step).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PassRecord {
    /// `prefill` or `decode`.
    pub phase: &'static str,
    /// Sequences in the pass.
    pub batch: u64,
    /// Micro-batches through the pipeline.
    pub micro_batches: u32,
    /// Seconds of compute per stage.
    pub compute_s: f64,
    /// Seconds of communication per stage.
    pub communication_s: f64,
    /// Seconds per stage per micro-batch.
    pub stage_s: f64,
    /// Seconds for the pass.
    pub time_s: f64,
    /// Share of the pass the pipeline stands idle.
    pub bubble: f64,
    /// With calibration: what is at its expected time, in words ([`calibration_line`]).
    pub calibration: Option<String>,
    /// The collectives.
    pub communication: Vec<CommRecord>,
}

/// A deployment: its layout, what each GPU holds, and its serving figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeploymentRecord {
    /// `TP8 PP1 DP1`.
    pub layout: String,
    /// Tensor-parallel degree.
    pub tp: u32,
    /// Pipeline stages.
    pub pp: u32,
    /// Attention replicas per stage.
    pub dp: u32,
    /// Expert-parallel degree (1 without EP).
    pub ep: u32,
    /// GPUs in all.
    pub gpus: u32,
    /// The weights' format.
    pub weights: String,
    /// Weight bytes per GPU.
    pub weights_per_gpu_bytes: f64,
    /// KV-cache bytes per GPU at the end of the output.
    pub kv_cache_per_gpu_bytes: f64,
    /// Activation bytes per GPU (prefill).
    pub activations_per_gpu_bytes: f64,
    /// Memory per GPU.
    pub capacity_per_gpu_bytes: f64,
    /// Whether it all fits.
    pub fits: bool,
    /// The most requests the memory holds at once.
    pub max_concurrency: u64,
    /// Requests served together.
    pub concurrency: u64,
    /// `static` or `in-flight`.
    pub batching: &'static str,
    /// Time to first token, seconds (static: the batch's prefill; in-flight: the steady
    /// state's wait, queue and prefill).
    pub ttft_s: f64,
    /// Time per output token, seconds (static: one decode step at the mean context;
    /// in-flight: the steady state's steps over the output).
    pub tpot_s: f64,
    /// With in-flight batching: its steady state.
    pub in_flight: Option<InFlightRecord>,
    /// One request from arrival to its last token, seconds.
    pub request_time_s: f64,
    /// Output tokens per second each user sees.
    pub tokens_per_s_per_user: f64,
    /// Output tokens per second per GPU.
    pub tokens_per_s_per_gpu: f64,
    /// Output tokens per second per GPU while decoding (prefill elsewhere).
    pub decode_tokens_per_s_per_gpu: f64,
    /// The batch's prefill.
    pub prefill: PassRecord,
    /// One decode step at the mean context.
    pub decode: PassRecord,
}

/// The steady state of in-flight batching.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InFlightRecord {
    /// `mixed` (decode and prompt chunks in one step) or `prefill-first`.
    pub policy: &'static str,
    /// New tokens a step may carry.
    pub token_budget: u64,
    /// Requests running at once, at most.
    pub max_sequences: u64,
    /// Whether prompts may be split over steps.
    pub chunked_prefill: bool,
    /// Requests running on the busiest replica.
    pub running: f64,
    /// Requests waiting for a place on it.
    pub waiting: f64,
    /// Seconds of a step.
    pub step_s: f64,
    /// Decoding sequences per step.
    pub decode_sequences: f64,
    /// Prompt tokens per step (per prefill, prefill-first).
    pub prefill_tokens: f64,
    /// Steps a request's prefill takes.
    pub prefill_steps: f64,
    /// Seconds of the prefill a decode step waits for (prefill-first).
    pub prefill_pause_s: f64,
    /// Seconds in the queue.
    pub queue_s: f64,
    /// Tokens a decode step yields per sequence.
    pub tokens_per_step: f64,
}

impl InFlightRecord {
    /// The record of a steady state.
    pub fn of(s: &InFlightState) -> InFlightRecord {
        InFlightRecord {
            policy: s.scheduler.policy.name(),
            token_budget: s.scheduler.token_budget,
            max_sequences: s.scheduler.max_sequences,
            chunked_prefill: s.scheduler.chunked_prefill,
            running: s.running,
            waiting: s.waiting,
            step_s: s.step.get(),
            decode_sequences: s.decode_sequences,
            prefill_tokens: s.prefill_tokens,
            prefill_steps: s.prefill_steps,
            prefill_pause_s: s.prefill_pause.get(),
            queue_s: s.queue.get(),
            tokens_per_step: s.tokens_per_step,
        }
    }
}

/// One point of a serving curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ServingPoint {
    /// Requests served together.
    pub concurrency: u64,
    /// Time to first token, seconds.
    pub ttft_s: f64,
    /// Time per output token, seconds.
    pub tpot_s: f64,
    /// Output tokens per second each user sees.
    pub tokens_per_s_per_user: f64,
    /// Output tokens per second per GPU.
    pub tokens_per_s_per_gpu: f64,
}

/// What a calibrated pass put at its expected time, and where the terms come from.
pub fn calibration_line(c: &PassCalibration) -> String {
    format!(
        "{} of {} operator kinds at their expected time ({} kernels, {PROFILE_SOURCE}{}), the rest at the bound; {} of {} collectives at their fitted NCCL cost ({COLLECTIVE_SOURCE}), the rest at the link's bound",
        c.profiled_ops,
        c.profiled_ops + c.bound_ops,
        c.framework.name(),
        if c.fused_moe {
            format!("; {}", crate::kernel_time::FUSED_MOE_NOTE)
        } else {
            String::new()
        },
        c.profiled_comms,
        c.profiled_comms + c.bound_comms
    )
}

impl CommRecord {
    /// The record of one collective.
    pub fn of(c: &CommReport) -> CommRecord {
        CommRecord {
            name: c.id.name(),
            collective: c.collective.name(),
            gpus: c.gpus,
            link: c.link.name(),
            count: c.count,
            message_bytes: c.message.get(),
            sent_bytes: c.sent.get(),
            time_s: c.time.get(),
        }
    }
}

impl PassRecord {
    /// The record of one pass.
    pub fn of(p: &DeployPass) -> PassRecord {
        PassRecord {
            phase: p.phase.name(),
            batch: p.batch,
            micro_batches: p.micro_batches,
            compute_s: p.compute.get(),
            communication_s: p.communication.get(),
            stage_s: p.stage.get(),
            time_s: p.time.get(),
            bubble: p.bubble,
            calibration: p.calibration.as_ref().map(calibration_line),
            communication: p.comms.iter().map(CommRecord::of).collect(),
        }
    }
}

impl DeploymentRecord {
    /// The record of `d`, whose weights are in `weights`.
    pub fn of(d: &Deployment, weights: Format) -> DeploymentRecord {
        let l = d.layout;
        let s = &d.serving;
        DeploymentRecord {
            layout: l.to_string(),
            tp: l.tensor,
            pp: l.pipeline,
            dp: l.data,
            ep: l.expert,
            gpus: l.gpus(),
            weights: weights.to_string(),
            weights_per_gpu_bytes: d.memory.weights.get(),
            kv_cache_per_gpu_bytes: d.memory.kv_cache.get(),
            activations_per_gpu_bytes: d.memory.activations.get(),
            capacity_per_gpu_bytes: d.memory.capacity.get(),
            fits: d.memory.fits(),
            max_concurrency: d.max_concurrency,
            concurrency: s.concurrency,
            batching: if d.in_flight.is_some() {
                "in-flight"
            } else {
                "static"
            },
            ttft_s: s.ttft.get(),
            tpot_s: s.tpot.get(),
            in_flight: d.in_flight.as_ref().map(InFlightRecord::of),
            request_time_s: s.request_time.get(),
            tokens_per_s_per_user: s.tokens_per_s_per_user,
            tokens_per_s_per_gpu: s.tokens_per_s_per_gpu,
            decode_tokens_per_s_per_gpu: s.decode_tokens_per_s_per_gpu,
            prefill: PassRecord::of(&d.prefill),
            decode: PassRecord::of(&d.decode),
        }
    }
}

impl ServingPoint {
    /// The point of one set of serving figures.
    pub fn of(s: &Serving) -> ServingPoint {
        ServingPoint {
            concurrency: s.concurrency,
            ttft_s: s.ttft.get(),
            tpot_s: s.tpot.get(),
            tokens_per_s_per_user: s.tokens_per_s_per_user,
            tokens_per_s_per_gpu: s.tokens_per_s_per_gpu,
        }
    }
}
