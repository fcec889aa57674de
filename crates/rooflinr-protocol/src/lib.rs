//! The wire between the rooflinr calculator (or any script) and `rooflinr-agent`.
//!
//! Everything that crosses a socket is defined here and nowhere else: the WebSocket
//! messages ([`ClientMessage`], [`ServerMessage`]), the measurement and telemetry records
//! they carry, and the bodies of the prototype's HTTP API ([`api`]). Messages are JSON objects
//! tagged by `"type"` (the agent's with the tag as their first key, which is how they are
//! read: [`ServerMessage`]); [`encode`] and [`decode`] are the only place they are turned
//! into text and back, and [`decode`] refuses anything over [`MAX_MESSAGE_BYTES`].
//!
//! Compatibility: a client opens with [`ClientMessage::Hello`] naming
//! [`PROTOCOL_VERSION`]; the agent answers with its own hello or, on a different major
//! version, with an error naming both versions ([`check_version`]).

pub mod api;
mod codec;
mod messages;
mod records;

pub use codec::{MAX_MESSAGE_BYTES, ProtocolError, check_version, decode, encode};
pub use messages::{
    ClientMessage, ErrorCode, Finished, JobId, JobKind, JobRequest, JobResult, JobState, JobStatus,
    Progress, Queued, Refusal, ServerMessage, Started,
};
pub use records::{
    AgentHello, BackendInfo, BackendKind, Budget, Capability, Check, ClockStats, DeviceInfo,
    GpuSample, HostSample, Measurement, MeasurementKind, NvmlStatus, OperatorShape, ShapeError,
    Stats, TelemetrySample, median, relative_noise,
};

/// The protocol version this build speaks. Bumped on any change an older peer would
/// misread.
pub const PROTOCOL_VERSION: u32 = 1;

/// The WebSocket subprotocol the agent selects.
pub const WS_SUBPROTOCOL: &str = "rooflinr.v1";

/// Browsers cannot set headers on a WebSocket handshake, so a browser sends its token as
/// a second offered subprotocol: this prefix followed by the token.
pub const TOKEN_SUBPROTOCOL_PREFIX: &str = "rooflinr-token.";

#[cfg(test)]
mod tests;
