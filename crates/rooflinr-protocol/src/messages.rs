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

/// A message from the agent to a client: a JSON object whose first key is `"type"`, the
/// variant's name in snake case, and the rest its payload's fields. [`encode`] writes the
/// tag first; decoding reads it first and then the payload straight from the text, with no
/// buffering of the whole message (serde's internally tagged enums buffer every message
/// before they know its type, code the browser bundle would carry for nothing), so a
/// message whose `"type"` is not its first key is refused.
///
/// [`encode`]: crate::encode
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to a client's hello: the device and what the agent can do.
    Hello(AgentHello),
    /// A job was accepted, or its place in the queue changed.
    Queued(Queued),
    /// A job started measuring.
    Started(Started),
    /// A job's progress, sent before each point.
    Progress(Progress),
    /// One measured point.
    Result(JobResult),
    /// A job ended.
    Finished(Finished),
    /// A job's state and every result so far: the answer to [`ClientMessage::Status`].
    Status(JobStatus),
    /// One telemetry sample.
    Telemetry(TelemetrySample),
    /// A request was refused.
    Error(Refusal),
}

/// [`ServerMessage::Queued`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Queued {
    /// The job.
    pub job: JobId,
    /// Jobs ahead of it (0: it runs next).
    pub position: usize,
}

/// [`ServerMessage::Started`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Started {
    /// The job.
    pub job: JobId,
    /// Points it will measure.
    pub total: usize,
}

/// [`ServerMessage::Progress`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    /// The job.
    pub job: JobId,
    /// Points measured.
    pub done: usize,
    /// Points in the job.
    pub total: usize,
    /// What is being measured now.
    pub current: String,
    /// Estimated seconds left, from the points measured so far.
    pub eta_s: Option<f64>,
}

/// [`ServerMessage::Result`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobResult {
    /// The job.
    pub job: JobId,
    /// The point's index in the job.
    pub index: usize,
    /// The measurement.
    pub measurement: Box<Measurement>,
}

/// [`ServerMessage::Finished`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finished {
    /// The job.
    pub job: JobId,
    /// Completed, cancelled or failed.
    pub state: JobState,
    /// Points measured.
    pub results: usize,
    /// Why it failed.
    pub error: Option<String>,
}

/// [`ServerMessage::Status`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobStatus {
    /// The job.
    pub job: JobId,
    /// Its state.
    pub state: JobState,
    /// Jobs ahead of it while queued.
    pub position: Option<usize>,
    /// Points in the job.
    pub total: usize,
    /// Every point measured so far.
    pub results: Vec<Measurement>,
    /// Why it failed.
    pub error: Option<String>,
}

/// [`ServerMessage::Error`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    /// The error class.
    pub code: ErrorCode,
    /// What went wrong and what to do.
    pub message: String,
}

/// The `"type"` of a [`ServerMessage`].
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum ServerTag {
    Hello,
    Queued,
    Started,
    Progress,
    Result,
    Finished,
    Status,
    Telemetry,
    Error,
}

impl<'de> Deserialize<'de> for ServerMessage {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TagFirst)
    }
}

/// Reads a [`ServerMessage`]'s `"type"`, then its payload from the rest of the object.
struct TagFirst;

impl<'de> serde::de::Visitor<'de> for TagFirst {
    type Value = ServerMessage;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an agent message: an object whose first key is \"type\"")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> Result<ServerMessage, A::Error> {
        use serde::de::Error;
        use serde::de::value::MapAccessDeserializer;
        match map.next_key::<String>()? {
            Some(key) if key == "type" => {}
            Some(key) => {
                return Err(A::Error::custom(format!(
                    "the message's first key must be \"type\", not \"{key}\""
                )));
            }
            None => return Err(A::Error::missing_field("type")),
        }
        let tag: ServerTag = map.next_value()?;
        let rest = MapAccessDeserializer::new(map);
        Ok(match tag {
            ServerTag::Hello => ServerMessage::Hello(Deserialize::deserialize(rest)?),
            ServerTag::Queued => ServerMessage::Queued(Deserialize::deserialize(rest)?),
            ServerTag::Started => ServerMessage::Started(Deserialize::deserialize(rest)?),
            ServerTag::Progress => ServerMessage::Progress(Deserialize::deserialize(rest)?),
            ServerTag::Result => ServerMessage::Result(Deserialize::deserialize(rest)?),
            ServerTag::Finished => ServerMessage::Finished(Deserialize::deserialize(rest)?),
            ServerTag::Status => ServerMessage::Status(Deserialize::deserialize(rest)?),
            ServerTag::Telemetry => ServerMessage::Telemetry(Deserialize::deserialize(rest)?),
            ServerTag::Error => ServerMessage::Error(Deserialize::deserialize(rest)?),
        })
    }
}
