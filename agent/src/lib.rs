//! The rooflinr measurement agent as a library: the binary is a thin command line over
//! it, and the tests start the same server on loopback sockets.

pub mod backend;
pub mod commands;
pub mod gpu_check;
pub mod jobs;
pub mod server;
pub mod stats;
pub mod telemetry;
