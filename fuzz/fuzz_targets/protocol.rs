//! Fuzzes the wire protocol's decoder with every message type the agent reads: decoding
//! may fail but never panic, and whatever decodes must encode and decode to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rooflinr_protocol::{ClientMessage, ServerMessage, api, decode, encode};

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = decode::<ClientMessage>(data) {
        assert_eq!(decode::<ClientMessage>(encode(&m).as_bytes()), Ok(m));
    }
    if let Ok(m) = decode::<ServerMessage>(data) {
        assert_eq!(decode::<ServerMessage>(encode(&m).as_bytes()), Ok(m));
    }
    let _ = decode::<api::AnalyzeRequest>(data);
    let _ = decode::<api::SweepRequest>(data);
    let _ = decode::<api::RecommendRequest>(data);
});
