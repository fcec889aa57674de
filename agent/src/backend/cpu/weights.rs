//! Weights as the CPU kernels read them: the bytes the model crate's codecs pack
//! (`rooflinr_model::quant::Quantized`), unpacked only into typed slices of the same
//! width (FP16 stays 16-bit, INT4 stays two codes a byte), so the kernels move the bytes
//! the roofline counts.

use std::sync::OnceLock;

use rooflinr_model::format::{Format, ScaleType, ZeroPoint};
use rooflinr_model::quant::Quantized;

/// The weight formats the CPU backend measures.
pub fn cpu_formats() -> Vec<Format> {
    vec![
        Format::Fp32,
        Format::Bf16,
        Format::Fp16,
        Format::Int8,
        Format::Grouped(INT4_G128),
    ]
}

pub use crate::backend::INT4_G128;

use super::simd;

/// Element storage.
#[derive(Clone, Debug, PartialEq)]
pub enum Packed {
    /// IEEE binary32.
    F32(Vec<f32>),
    /// bfloat16 bit patterns.
    Bf16(Vec<u16>),
    /// binary16 bit patterns.
    F16(Vec<u16>),
    /// Two's complement codes and the per-tensor scale.
    Int8 {
        /// Codes.
        codes: Vec<i8>,
        /// Scale.
        scale: f32,
    },
    /// Two's complement 4-bit codes, first in the low nibble, as one stream over the
    /// row-major tensor; one FP16 scale per group along each row.
    Int4 {
        /// Packed codes.
        bytes: Vec<u8>,
        /// FP16 scale bit patterns, row-major by group.
        scales: Vec<u16>,
        /// Values per group.
        group: usize,
    },
}

/// A row-major `rows x cols` weight matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Rows (output features).
    pub rows: usize,
    /// Columns (reduction dimension).
    pub cols: usize,
    /// Storage.
    pub packed: Packed,
}

fn f16_table() -> &'static [f32] {
    static TABLE: OnceLock<Vec<f32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..=u16::MAX)
            .map(|b| half::f16::from_bits(b).to_f32())
            .collect()
    })
}

fn u16s(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect()
}

fn bf16(bits: u16) -> f32 {
    f32::from_bits(u32::from(bits) << 16)
}

fn nibble(bytes: &[u8], i: usize) -> f32 {
    let b = bytes[i >> 1];
    let code = if i & 1 == 0 { b & 0x0f } else { b >> 4 };
    f32::from(((code << 4) as i8) >> 4)
}

impl Weights {
    /// Reads the codec's bytes; `None` for a codec the CPU kernels do not read.
    pub fn from_quantized(q: &Quantized) -> Option<Weights> {
        use rooflinr_model::quant::Scalar;
        use rooflinr_model::quant::codec::{Codec, Granularity, IntCodec};
        let packed = match q.codec {
            Codec::Fp32 => Packed::F32(
                q.elements
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            ),
            Codec::Cast(Scalar::Bf16) => Packed::Bf16(u16s(&q.elements)),
            Codec::Cast(Scalar::Fp16) => Packed::F16(u16s(&q.elements)),
            Codec::Int(IntCodec {
                bits: 8,
                granularity: Granularity::Tensor,
                scale: ScaleType::Fp32,
                zero: ZeroPoint::None,
            }) => Packed::Int8 {
                codes: q.elements.iter().map(|b| *b as i8).collect(),
                scale: f32::from_le_bytes(q.scales.get(..4)?.try_into().ok()?),
            },
            Codec::Int(IntCodec {
                bits: 4,
                granularity: Granularity::Group(group),
                scale: ScaleType::Fp16,
                zero: ZeroPoint::None,
            }) => Packed::Int4 {
                bytes: q.elements.clone(),
                scales: u16s(&q.scales),
                group: group as usize,
            },
            _ => return None,
        };
        Some(Weights {
            rows: q.rows,
            cols: q.cols,
            packed,
        })
    }

    /// Reads one value in every 64-byte line of row `r`'s FP16 or INT4 codes and folds
    /// them into one byte: a GEMV calls it a couple of rows ahead of the row it multiplies,
    /// so those lines are on their way from memory while the current row's arithmetic
    /// runs. The FP16 and INT4 dot products are dense enough in arithmetic (exponent
    /// rebias, nibble unpacking) that the core otherwise issues a row's loads only as it
    /// reaches them: touching ahead took a 4096 x 4096 GEMV on the 2-core CI machine from
    /// 3.25 to 2.29 ms (FP16) and 1.18 to 0.85 ms (INT4), but slowed the lighter FP32, BF16
    /// and INT8 loops (+4 to +15 %), which the hardware prefetcher already keeps fed: for
    /// those it reads nothing. Plain loads: no prefetch intrinsic, no `unsafe`.
    pub fn touch_row(&self, r: usize) -> u8 {
        let k = self.cols;
        match &self.packed {
            Packed::F16(w) => w[r * k..(r + 1) * k]
                .iter()
                .step_by(32)
                .fold(0u8, |a, v| a ^ *v as u8),
            Packed::Int4 { bytes, .. } => bytes[r * k / 2..(r + 1) * k / 2]
                .iter()
                .step_by(64)
                .fold(0u8, |a, v| a ^ v),
            Packed::F32(_) | Packed::Bf16(_) | Packed::Int8 { .. } => 0,
        }
    }

    /// Bytes the kernels read per pass over the matrix.
    pub fn bytes(&self) -> usize {
        match &self.packed {
            Packed::F32(v) => v.len() * 4,
            Packed::Bf16(v) | Packed::F16(v) => v.len() * 2,
            Packed::Int8 { codes, .. } => codes.len() + 4,
            Packed::Int4 { bytes, scales, .. } => bytes.len() + scales.len() * 2,
        }
    }

    /// Whether a GEMV with these weights multiplies int8-quantised activations
    /// ([`simd::QuantizedActs`]): INT8, and INT4 in groups of [`simd::ACT_BLOCK`], when
    /// rows are whole blocks. Other shapes take the FP32 path of [`Weights::row_dot`].
    pub fn integer_path(&self) -> bool {
        let whole_blocks = self.cols.is_multiple_of(simd::ACT_BLOCK);
        match &self.packed {
            Packed::Int8 { .. } => whole_blocks,
            Packed::Int4 { group, .. } => whole_blocks && *group == simd::ACT_BLOCK,
            _ => false,
        }
    }

    /// Row `r` times a quantised activation (only on the [`Weights::integer_path`]).
    pub fn row_dot_q8(&self, r: usize, q: &simd::QuantizedActs) -> f32 {
        let k = self.cols;
        match &self.packed {
            Packed::Int8 { codes, scale } => {
                simd::dot_i8(&codes[r * k..(r + 1) * k], &q.codes, &q.scales) * scale
            }
            Packed::Int4 { bytes, scales, .. } => {
                let groups = k / simd::ACT_BLOCK;
                simd::dot_i4(
                    &bytes[r * k / 2..(r + 1) * k / 2],
                    &scales[r * groups..(r + 1) * groups],
                    &q.split,
                    &q.scales,
                )
            }
            _ => self.row_dot(r, &q.values()),
        }
    }

    /// Row `r` times `x` (`x.len() == cols`), accumulated in FP32.
    pub fn row_dot(&self, r: usize, x: &[f32]) -> f32 {
        let (k, start) = (self.cols, r * self.cols);
        match &self.packed {
            Packed::F32(w) => simd::dot_f32(&w[start..start + k], x),
            Packed::Bf16(w) => simd::dot_bf16(&w[start..start + k], x),
            Packed::F16(w) => simd::dot_f16(&w[start..start + k], x),
            Packed::Int8 { codes, scale } => {
                simd::dot_with(&codes[start..start + k], x, f32::from) * scale
            }
            Packed::Int4 {
                bytes,
                scales,
                group,
            } => {
                let table = f16_table();
                let groups = k.div_ceil(*group);
                let mut total = 0.0f32;
                let mut codes = vec![0.0f32; *group];
                for g in 0..groups {
                    let lo = g * group;
                    let hi = (lo + group).min(k);
                    let codes = &mut codes[..hi - lo];
                    let first = start + lo;
                    if first % 2 == 0 && codes.len() % 2 == 0 {
                        // Whole bytes, two codes each: decode the group, then one dot.
                        let bytes = &bytes[first / 2..(first + codes.len()) / 2];
                        for (pair, b) in codes.chunks_exact_mut(2).zip(bytes) {
                            pair[0] = f32::from(((b << 4) as i8) >> 4);
                            pair[1] = f32::from((*b as i8) >> 4);
                        }
                    } else {
                        for (j, c) in codes.iter_mut().enumerate() {
                            *c = nibble(bytes, first + j);
                        }
                    }
                    let sum = simd::dot_f32(codes, &x[lo..hi]);
                    total += sum * table[usize::from(scales[r * groups + g])];
                }
                total
            }
        }
    }

    /// Writes rows `r0..r1` as FP32 into `out` (row-major, `cols` per row).
    pub fn dequantize_rows(&self, r0: usize, r1: usize, out: &mut [f32]) {
        let k = self.cols;
        let range = r0 * k..r1 * k;
        let out = &mut out[..range.len()];
        match &self.packed {
            Packed::F32(w) => out.copy_from_slice(&w[range]),
            Packed::Bf16(w) => out
                .iter_mut()
                .zip(&w[range])
                .for_each(|(o, b)| *o = bf16(*b)),
            Packed::F16(w) => {
                let table = f16_table();
                out.iter_mut()
                    .zip(&w[range])
                    .for_each(|(o, b)| *o = table[usize::from(*b)]);
            }
            Packed::Int8 { codes, scale } => out
                .iter_mut()
                .zip(&codes[range])
                .for_each(|(o, c)| *o = f32::from(*c) * scale),
            Packed::Int4 {
                bytes,
                scales,
                group,
            } => {
                let table = f16_table();
                let groups = k.div_ceil(*group);
                for (i, o) in out.iter_mut().enumerate() {
                    let (r, c) = (r0 + i / k, i % k);
                    let s = table[usize::from(scales[r * groups + c / group])];
                    *o = nibble(bytes, r * k + c) * s;
                }
            }
        }
    }
}
