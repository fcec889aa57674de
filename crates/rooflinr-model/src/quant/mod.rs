//! Quantisation: real codecs for every format, and the error they measurably cause.
//!
//! - [`scalar`]: bit-exact scalar formats (FP8, FP6, FP4, E8M0, UE4M3, BF16, FP16).

pub mod scalar;

#[cfg(test)]
mod tests;
