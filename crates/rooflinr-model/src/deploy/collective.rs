//! Collectives: the communication patterns of a deployment, how their bytes and steps
//! are counted, and their cost over the link a group of GPUs spans (rules in the
//! [`super`] module comment).

use crate::error::ModelError;
use crate::hardware::{Hardware, LinkKind};
use crate::units::{Bytes, Seconds};

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
    /// Each token's hidden state to its top-k experts' GPUs (every GPU of the MoE TP
    /// group an expert's columns split over).
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
