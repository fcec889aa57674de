//! rooflinr's model: pure roofline math for transformer inference.
//!
//! Given a number format, a device and an operator (or a whole model from its
//! `config.json`), predict time = max(bytes / bandwidth, FLOPs / peak) and say which limit
//! binds. The crate does no I/O, reads no clock, spawns no thread and depends on nothing
//! GPU- or browser-specific, so it builds for `wasm32-unknown-unknown` unchanged.
//!
//! - [`units`]: quantities as newtypes with SI display.
//! - [`format`](mod@format): the format catalogue with exact storage bits.
//! - [`hardware`]: the device registry and custom devices.
//! - [`roofline`]: the roofline core.
//! - [`ops`]: per-operator FLOP and byte counts.
//! - [`config`], [`presets`], [`analysis`]: whole models.
//! - [`sweep`]: grids of shapes x formats.
//! - [`quant`]: real codecs for every format and their measured error.
//! - [`recommend`]: strategies ranked by predicted speed, memory and measured quality.
//! - [`tiling`]: GEMM tiles, waves and L2 reuse on a GPU.
//! - [`kernel_time`]: what real GEMM, attention and MoE kernels add to the roofline, fitted
//!   on NVIDIA's measured tables.
//! - [`deploy`]: deployments over many GPUs (layouts, collectives, memory per GPU) and
//!   their serving figures.
//! - [`stats`]: the order statistics every error figure uses.
//! - [`sort`]: stable sorting with one copy of the algorithm in the browser bundle.
//! - [`error`]: [`ModelError`], which names the field or value that is wrong.
//!
//! A decode GEMV with FP8 weights on an H100 SXM is memory-bound, and its time is its
//! bytes over the 3.35 TB/s of HBM3:
//!
//! ```
//! use rooflinr_model::format::Format;
//! use rooflinr_model::hardware::registry;
//! use rooflinr_model::ops::{Op, Precision};
//! use rooflinr_model::roofline::{Bound, Efficiency};
//!
//! let h100 = registry::get("h100-sxm")?;
//! let precision = Precision { weights: Format::Fp8E4m3, ..Precision::uniform(Format::Fp16) };
//! let gemv = Op::Gemm { m: 1.0, n: 4096.0, k: 4096.0, bias: false };
//! let r = gemv.predict(&precision, &h100, &Efficiency::IDEAL);
//! assert_eq!(r.prediction.bound, Bound::Memory);
//! let bytes = 4096.0 * 2.0 + (4096.0 * 4096.0 + 4.0) + 4096.0 * 2.0;
//! assert_eq!(r.cost.work.bytes.get(), bytes);
//! assert!((r.prediction.time.get() - bytes / 3.35e12).abs() < 1e-15);
//! # Ok::<(), rooflinr_model::ModelError>(())
//! ```

pub mod analysis;
pub mod config;
pub mod deploy;
pub mod error;
pub mod format;
pub mod hardware;
pub mod kernel_time;
pub mod ops;
pub mod presets;
pub mod quant;
pub mod recommend;
pub mod roofline;
pub mod sort;
pub mod stats;
pub mod sweep;
pub mod tiling;
pub mod units;

pub use error::ModelError;
