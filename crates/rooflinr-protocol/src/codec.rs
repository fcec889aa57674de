//! The one encode/decode pair for every message, with the size limit and version check.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::PROTOCOL_VERSION;

/// The largest message either side accepts, in bytes (64 KiB). Requests are small; the
/// largest legitimate message is a job's status with its results, which the agent sends
/// and clients read with their own limit.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// Why a message was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// Over [`MAX_MESSAGE_BYTES`].
    #[error("message of {size} bytes is over the limit of {limit} bytes")]
    TooLarge {
        /// Size received.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// Not UTF-8 JSON, or not a message this version knows.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// The peer speaks another protocol version.
    #[error("protocol version {peer} is not supported: this agent speaks version {ours}")]
    Version {
        /// The version the peer named.
        peer: u32,
        /// [`PROTOCOL_VERSION`].
        ours: u32,
    },
}

/// Encodes a message as one line of JSON.
pub fn encode<T: Serialize>(message: &T) -> String {
    // The message types hold only strings, numbers, options and lists of those, with
    // string keys: serialising them cannot fail.
    serde_json::to_string(message).unwrap_or_else(|e| {
        format!(r#"{{"type":"error","code":"internal","message":"encode failed: {e}"}}"#)
    })
}

/// Decodes a message, refusing anything larger than [`MAX_MESSAGE_BYTES`].
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ProtocolError> {
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(ProtocolError::TooLarge {
            size: bytes.len(),
            limit: MAX_MESSAGE_BYTES,
        });
    }
    serde_json::from_slice(bytes).map_err(|e| ProtocolError::Malformed(e.to_string()))
}

/// Accepts a peer's version if it equals ours.
pub fn check_version(peer: u32) -> Result<(), ProtocolError> {
    if peer == PROTOCOL_VERSION {
        Ok(())
    } else {
        Err(ProtocolError::Version {
            peer,
            ours: PROTOCOL_VERSION,
        })
    }
}
