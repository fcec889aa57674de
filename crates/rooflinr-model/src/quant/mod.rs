//! Quantisation: real codecs for every format, and the error they measurably cause.
//!
//! - [`scalar`]: bit-exact scalar formats (FP8, FP6, FP4, E8M0, UE4M3, BF16, FP16).
//! - [`codec`]: tensor codecs for every catalogue format (MX, NVFP4, NF4, grouped and
//!   per-channel integers), packing to documented byte layouts.
//! - [`quality`]: measured error (MSE, SQNR, cosine, max) on synthetic or real tensors.

mod bits;
pub mod codec;
pub mod quality;
pub mod scalar;

pub use codec::{Codec, Quantized};
pub use quality::{ErrorStats, FormatQuality, Synthetic};
pub use scalar::{Overflow, Scalar};

#[cfg(test)]
mod tests;
