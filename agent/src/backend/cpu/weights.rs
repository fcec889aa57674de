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
    /// rows are whole blocks. Other shapes take the FP32 path of [`Weights::rows_dot`].
    pub fn integer_path(&self) -> bool {
        let whole_blocks = self.cols.is_multiple_of(simd::ACT_BLOCK);
        match &self.packed {
            Packed::Int8 { .. } => whole_blocks,
            Packed::Int4 { group, .. } => whole_blocks && *group == simd::ACT_BLOCK,
            _ => false,
        }
    }

    /// Rows `rows` times each quantised activation of `q` (only on the
    /// [`Weights::integer_path`]): `[m][r]`. INT4 unpacks each group once for all of them.
    pub fn rows_dot_q8<const R: usize, const M: usize>(
        &self,
        rows: [usize; R],
        q: [&simd::QuantizedActs; M],
    ) -> [[f32; R]; M] {
        let k = self.cols;
        match &self.packed {
            Packed::Int8 { codes, scale } => {
                let rows = rows.map(|r| &codes[r * k..(r + 1) * k]);
                simd::dot_i8(rows, q).map(|sums| sums.map(|v| v * scale))
            }
            Packed::Int4 { bytes, scales, .. } => {
                let groups = k / simd::ACT_BLOCK;
                let codes = rows.map(|r| &bytes[r * k / 2..(r + 1) * k / 2]);
                let row_scales = rows.map(|r| &scales[r * groups..(r + 1) * groups]);
                simd::dot_i4(codes, row_scales, q)
            }
            _ => q.map(|q| self.rows_dot(rows, [&q.values()])[0]),
        }
    }

    /// Rows `rows` times each vector of `x` (every `x[m].len() == cols`), each accumulated
    /// in FP32: `[m][r]`. The float kernels convert each weight once for all the vectors.
    pub fn rows_dot<const R: usize, const M: usize>(
        &self,
        rows: [usize; R],
        x: [&[f32]; M],
    ) -> [[f32; R]; M] {
        let k = self.cols;
        let range = |r: usize| r * k..(r + 1) * k;
        match &self.packed {
            Packed::F32(w) => simd::dot_f32(rows.map(|r| &w[range(r)]), x),
            Packed::Bf16(w) => simd::dot_bf16(rows.map(|r| &w[range(r)]), x),
            Packed::F16(w) => simd::dot_f16(rows.map(|r| &w[range(r)]), x),
            Packed::Int8 { codes, scale } => x.map(|x| {
                simd::dot_with(rows.map(|r| &codes[range(r)]), x, f32::from).map(|v| v * scale)
            }),
            Packed::Int4 { .. } => x.map(|x| rows.map(|r| self.int4_row_dot(r, x))),
        }
    }

    /// Row `r` of INT4 weights in groups of any size times `x`, each group decoded to FP32
    /// first (the path for shapes the integer kernel does not take).
    fn int4_row_dot(&self, r: usize, x: &[f32]) -> f32 {
        let Packed::Int4 {
            bytes,
            scales,
            group,
        } = &self.packed
        else {
            unreachable!("only INT4 weights are decoded by groups")
        };
        let (k, start) = (self.cols, r * self.cols);
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
            let [[sum]] = simd::dot_f32([&*codes], [&x[lo..hi]]);
            total += sum * table[usize::from(scales[r * groups + g])];
        }
        total
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
