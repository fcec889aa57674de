//! The WebSocket messages: what a client asks and what the agent says.

use rooflinr_model::format::Format;
use serde::{Deserialize, Serialize};

use crate::records::{
    AgentHello, BackendKind, Budget, Measurement, OperatorShape, TelemetrySample,
};

/// A job's identifier, unique within one agent's results folder.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct JobId(pub String);

impl std::fmt::Display for JobId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A message from a client to the agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: the client's protocol version and a name for the logs.
    Hello {
        /// [`crate::PROTOCOL_VERSION`] of the client.
        protocol: u32,
        /// Free text, e.g. `rooflinr-web 0.1.0`.
        #[serde(default)]
        client: String,
    },
    /// Start or stop the telemetry stream on this connection.
    Subscribe {
        /// Whether to receive [`ServerMessage::Telemetry`].
        telemetry: bool,
    },
    /// Queue a measurement job.
    Measure {
        /// What to measure.
        request: JobRequest,
    },
    /// Cancel a queued or running job.
    Cancel {
        /// The job.
        job: JobId,
    },
    /// Ask for a job's state and every result so far (after a reconnect).
    Status {
        /// The job.
        job: JobId,
    },
}

/// What a job measures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobRequest {
    /// The kind of work.
    pub kind: JobKind,
    /// The backend to measure on; the agent's best available backend when absent.
    #[serde(default)]
    pub backend: Option<BackendKind>,
    /// How long to spend per point; the agent's defaults when absent.
    #[serde(default)]
    pub budget: Option<Budget>,
}

/// The kinds of job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum JobKind {
    /// Memory bandwidth (copy and triad) and the peak rate of each format.
    Ceilings,
    /// Every shape in every format: one shape is a benchmark, several a sweep.
    Operators {
        /// `m = 1` is a GEMV, larger `m` a GEMM.
        shapes: Vec<OperatorShape>,
        /// Weight formats (by name on the wire: `fp16`, `int8`, `int4-g128`...; an
        /// unknown name fails the message, naming it).
        formats: Vec<Format>,
    },
}

/// Where a job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Waiting for the device.
    Queued,
    /// Measuring.
    Running,
    /// Every point measured.
    Completed,
    /// Stopped by a cancel; the points measured before it are kept.
    Cancelled,
    /// Stopped by an error; the points measured before it are kept.
    Failed,
}

impl JobState {
    /// Whether the job will change no more.
    pub fn is_finished(self) -> bool {
        matches!(
            self,
            JobState::Completed | JobState::Cancelled | JobState::Failed
        )
    }
}

/// A machine-readable error class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The message could not be decoded.
    Malformed,
    /// The message was over the size limit.
    TooLarge,
    /// The client speaks another protocol version.
    Version,
    /// The request was understood but cannot be done (unknown format, absurd shape,
    /// not enough memory).
    Invalid,
    /// No job with that id.
    UnknownJob,
    /// Something failed inside the agent.
    Internal,
}

/// A message from the agent to a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMessage {
    /// The answer to a client's hello: the device and what the agent can do.
    Hello(AgentHello),
    /// A job was accepted, or its place in the queue changed.
    Queued {
        /// The job.
        job: JobId,
        /// Jobs ahead of it (0: it runs next).
        position: usize,
    },
    /// A job started measuring.
    Started {
        /// The job.
        job: JobId,
        /// Points it will measure.
        total: usize,
    },
    /// A job's progress, sent before each point.
    Progress {
        /// The job.
        job: JobId,
        /// Points measured.
        done: usize,
        /// Points in the job.
        total: usize,
        /// What is being measured now.
        current: String,
        /// Estimated seconds left, from the points measured so far.
        eta_s: Option<f64>,
    },
    /// One measured point.
    Result {
        /// The job.
        job: JobId,
        /// The point's index in the job.
        index: usize,
        /// The measurement.
        measurement: Box<Measurement>,
    },
    /// A job ended.
    Finished {
        /// The job.
        job: JobId,
        /// Completed, cancelled or failed.
        state: JobState,
        /// Points measured.
        results: usize,
        /// Why it failed.
        error: Option<String>,
    },
    /// A job's state and every result so far: the answer to
    /// [`ClientMessage::Status`].
    Status {
        /// The job.
        job: JobId,
        /// Its state.
        state: JobState,
        /// Jobs ahead of it while queued.
        position: Option<usize>,
        /// Points in the job.
        total: usize,
        /// Every point measured so far.
        results: Vec<Measurement>,
        /// Why it failed.
        error: Option<String>,
    },
    /// One telemetry sample.
    Telemetry(TelemetrySample),
    /// A request was refused.
    Error {
        /// The error class.
        code: ErrorCode,
        /// What went wrong and what to do.
        message: String,
    },
}
