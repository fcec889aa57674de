//! rooflinr's model: pure roofline math for transformer inference.
//!
//! Given a number format, a device and an operator (or a whole model from its
//! `config.json`), predict time = max(bytes / bandwidth, FLOPs / peak) and say which limit
//! binds. The crate does no I/O, reads no clock, spawns no thread and depends on nothing
//! GPU- or browser-specific, so it builds for `wasm32-unknown-unknown` unchanged.
//!
//! - [`units`]: quantities as newtypes with SI display.
//! - [`format`]: the format catalogue with exact storage bits.
//! - [`hardware`]: the device registry and custom devices.
//! - [`roofline`]: the roofline core.
//! - [`ops`]: per-operator FLOP and byte counts.
//! - [`config`], [`presets`], [`analysis`]: whole models.
//! - [`sweep`]: grids of shapes x formats.

pub mod analysis;
pub mod config;
pub mod error;
pub mod format;
pub mod hardware;
pub mod ops;
pub mod presets;
pub mod roofline;
pub mod sweep;
pub mod units;

pub use error::ModelError;
