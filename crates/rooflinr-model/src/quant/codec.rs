//! Tensor codecs: every storage format of the catalogue as a real quantiser that packs
//! bytes, and a dequantiser that reads only those bytes back.
//!
//! A tensor is row-major, `rows x cols`; blocks and groups run along a row (the reduction
//! dimension of a `[out, in]` weight) and never span two rows, so a row whose length is
//! not a multiple of the block ends in a short block. The packed layout, which the
//! agent's GPU kernels read, is in [`Quantized`].
//!
//! Scale choices, by format:
//! - FP8 and INT (per tensor, channel or group), symmetric: scale = absmax / largest code;
//!   asymmetric: the range [min, max] widened to include 0, over 2^bits - 1 steps, with a
//!   zero point rounded to an integer (AWQ/GPTQ) or kept as a float (HQQ).
//! - OCP MX v1.0 (section 6.3): shared exponent = floor(log2(absmax)) - emax of the
//!   element type, so elements between the element maximum and 2^(emax+1) saturate, as
//!   the specification says. MXINT8 elements are two's complement with scale 2^-6,
//!   clamped symmetrically to +-127.
//! - NVFP4: FP32 tensor scale g = absmax / (448 x 6); each block of 16 takes the UE4M3
//!   scale nearest to block absmax / (6 g). With [`Codec::NvFp4`]'s `four_over_six`, each
//!   block also tries absmax / (4 g) and keeps whichever gives the lower squared error
//!   (the prototype's "4/6" choice).
//! - NF4 (bitsandbytes): FP32 absmax per 64, nearest of the 16 NF4 levels. Double
//!   quantisation (QLoRA): absmaxes centred on their mean, in FP8 E4M3 with an FP32 scale
//!   per 256 blocks.
//!
//! Elements round to nearest even and saturate. Non-finite inputs are refused by the
//! scaled codecs (a NaN would poison its block's scale), and accepted by plain casts.

use std::fmt;
use std::str::FromStr;

use super::bits::{self, BitWriter};
use super::scalar::{Overflow, Scalar};
use crate::error::ModelError;
use crate::format::{Format, GroupedInt, ScaleType, ZeroPoint};

/// The 16 NF4 levels of bitsandbytes (normal-distribution quantiles scaled to [-1, 1]).
pub const NF4_LEVELS: [f32; 16] = [
    -1.0,
    -0.696_192_8,
    -0.525_073_05,
    -0.394_917_5,
    -0.284_441_38,
    -0.184_773_43,
    -0.091_050_036,
    0.0,
    0.079_580_3,
    0.160_930_2,
    0.246_112_3,
    0.337_915_24,
    0.440_709_83,
    0.562_617,
    0.722_956_84,
    1.0,
];

/// How many values share one scale in an integer codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Granularity {
    /// One scale for the whole tensor.
    Tensor,
    /// One scale per row (output channel).
    Channel,
    /// One scale per group of this many values along a row.
    Group(u32),
}

/// An integer quantiser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntCodec {
    /// Bits per element, 2 to 8.
    pub bits: u8,
    /// Values per scale.
    pub granularity: Granularity,
    /// Storage type of each scale.
    pub scale: ScaleType,
    /// Symmetric, or the storage of the zero point.
    pub zero: ZeroPoint,
}

/// An element type of the OCP MX formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MxElement {
    /// A minifloat element (E4M3, E5M2, E3M2, E2M3, E2M1).
    Float(Scalar),
    /// MXINT8: 8-bit two's complement with an implied scale of 2^-6.
    Int8,
}

/// A quantiser for a whole tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Codec {
    /// FP32 storage (FP32, TF32, FP64 are measured as FP32): lossless here.
    Fp32,
    /// A plain cast to a scalar format, no scale (BF16, FP16, and the scalar names).
    Cast(Scalar),
    /// FP8 with one FP32 scale per tensor.
    ScaledFloat(Scalar),
    /// OCP MX: 32 elements share an E8M0 scale.
    Mx(MxElement),
    /// NVFP4: 16 E2M1 share a UE4M3 scale, one FP32 scale per tensor.
    NvFp4 {
        /// Try a block maximum of 4 as well as 6 and keep the better.
        four_over_six: bool,
    },
    /// bitsandbytes NF4, blocks of 64.
    Nf4 {
        /// Quantise the absmaxes too.
        double_quant: bool,
    },
    /// Integers with scales per tensor, channel or group.
    Int(IntCodec),
}

/// A quantised tensor as bytes.
///
/// Layout (all multi-byte numbers little-endian):
/// - `elements`: the element codes in row-major order as one bit stream of
///   [`Codec::element_bits`] bits each, least significant bit first (two FP4 codes a
///   byte, first in the low nibble; four FP6 codes in three bytes). Integers are two's
///   complement when symmetric, unsigned when they have a zero point. NF4 codes index
///   [`NF4_LEVELS`].
/// - `scales`: one per block or group in row-major order: E8M0 and UE4M3 as one byte,
///   FP16/BF16 as two, FP32 as four. NF4 with double quantisation: one E4M3 byte per
///   block.
/// - `zeros`: zero points, one per group: packed integers of the element width, or
///   floats of their scale type.
/// - `tensor`: FP32 per-tensor numbers: the FP8/INT/NVFP4 tensor scale; for NF4 with
///   double quantisation, the absmax mean and then one scale per 256 blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantized {
    /// The codec that made it.
    pub codec: Codec,
    /// Rows of the tensor.
    pub rows: usize,
    /// Values per row.
    pub cols: usize,
    /// Packed element codes.
    pub elements: Vec<u8>,
    /// Packed block or group scales.
    pub scales: Vec<u8>,
    /// Packed zero points (asymmetric integers only).
    pub zeros: Vec<u8>,
    /// Per-tensor FP32 numbers.
    pub tensor: Vec<u8>,
}

impl Quantized {
    /// Bytes the tensor occupies.
    pub fn storage_bytes(&self) -> usize {
        self.elements.len() + self.scales.len() + self.zeros.len() + self.tensor.len()
    }
}

const MX_BLOCK: usize = 32;
const NVFP4_BLOCK: usize = 16;
const NF4_BLOCK: usize = 64;
const NF4_DQ_BLOCKS: usize = 256;
/// E4M3's largest value times E2M1's: NVFP4's tensor scale maps the absmax there.
const NVFP4_RANGE: f32 = 448.0 * 6.0;

impl Codec {
    /// The codec that stores a catalogue format.
    pub fn for_format(format: Format) -> Codec {
        let per_tensor = |bits| {
            Codec::Int(IntCodec {
                bits,
                granularity: Granularity::Tensor,
                scale: ScaleType::Fp32,
                zero: ZeroPoint::None,
            })
        };
        match format {
            Format::Fp64 | Format::Fp32 | Format::Tf32 => Codec::Fp32,
            Format::Bf16 => Codec::Cast(Scalar::Bf16),
            Format::Fp16 => Codec::Cast(Scalar::Fp16),
            Format::Fp8E4m3 => Codec::ScaledFloat(Scalar::Fp8E4m3),
            Format::Fp8E5m2 => Codec::ScaledFloat(Scalar::Fp8E5m2),
            Format::Int8 => per_tensor(8),
            Format::Int4 => per_tensor(4),
            Format::Int2 => per_tensor(2),
            Format::MxFp8E4m3 => Codec::Mx(MxElement::Float(Scalar::Fp8E4m3)),
            Format::MxFp8E5m2 => Codec::Mx(MxElement::Float(Scalar::Fp8E5m2)),
            Format::MxFp6E3m2 => Codec::Mx(MxElement::Float(Scalar::Fp6E3m2)),
            Format::MxFp6E2m3 => Codec::Mx(MxElement::Float(Scalar::Fp6E2m3)),
            Format::MxFp4 => Codec::Mx(MxElement::Float(Scalar::Fp4E2m1)),
            Format::MxInt8 => Codec::Mx(MxElement::Int8),
            Format::NvFp4 => Codec::NvFp4 {
                four_over_six: false,
            },
            Format::Nf4 => Codec::Nf4 {
                double_quant: false,
            },
            Format::Nf4Dq => Codec::Nf4 { double_quant: true },
            Format::Grouped(GroupedInt {
                bits,
                group,
                scale,
                zero,
            }) => Codec::Int(IntCodec {
                bits,
                granularity: Granularity::Group(group),
                scale,
                zero,
            }),
        }
    }

    /// The codec of every catalogue format that stores something distinct (FP64 and TF32
    /// measure as FP32 and are left out), in catalogue order.
    pub fn catalogue() -> Vec<(Format, Codec)> {
        Format::CATALOGUE
            .into_iter()
            .filter(|f| !matches!(f, Format::Fp64 | Format::Tf32))
            .map(|f| (f, Codec::for_format(f)))
            .collect()
    }

    /// Bits of one packed element code.
    pub fn element_bits(self) -> u32 {
        match self {
            Codec::Fp32 => 32,
            Codec::Cast(s) | Codec::ScaledFloat(s) | Codec::Mx(MxElement::Float(s)) => s.bits(),
            Codec::Mx(MxElement::Int8) => 8,
            Codec::NvFp4 { .. } | Codec::Nf4 { .. } => 4,
            Codec::Int(c) => u32::from(c.bits),
        }
    }

    /// The name this codec parses from.
    pub fn name(self) -> String {
        match self {
            Codec::Fp32 => "fp32".into(),
            Codec::Cast(s) => s.name().into(),
            Codec::ScaledFloat(s) => format!("{}-scaled", s.name()),
            Codec::NvFp4 {
                four_over_six: true,
            } => "nvfp4-4over6".into(),
            Codec::Int(IntCodec {
                bits,
                granularity: Granularity::Channel,
                zero,
                ..
            }) => {
                let zp = if zero == ZeroPoint::None { "" } else { "-zp" };
                format!("int{bits}-channel{zp}")
            }
            other => other
                .format()
                .map_or_else(|| format!("{other:?}"), Format::name),
        }
    }

    /// The catalogue format this codec stores, where it is one.
    pub fn format(self) -> Option<Format> {
        Format::CATALOGUE
            .into_iter()
            .chain(self.grouped_format())
            .find(|f| Codec::for_format(*f) == self)
    }

    fn grouped_format(self) -> Option<Format> {
        match self {
            Codec::Int(IntCodec {
                bits,
                granularity: Granularity::Group(group),
                scale,
                zero,
            }) => Some(Format::Grouped(GroupedInt {
                bits,
                group,
                scale,
                zero,
            })),
            _ => None,
        }
    }

    /// Quantises a row-major `values.len() / cols x cols` tensor.
    pub fn quantize(self, values: &[f32], cols: usize) -> Result<Quantized, ModelError> {
        if cols == 0 || !values.len().is_multiple_of(cols) {
            return Err(ModelError::invalid(
                "shape",
                format!("{} values do not make whole rows of {cols}", values.len()),
            ));
        }
        if !matches!(self, Codec::Fp32 | Codec::Cast(_))
            && !values.iter().all(|v| v.is_finite())
            && let Some(i) = values.iter().position(|v| !v.is_finite())
        {
            return Err(ModelError::invalid(
                format!("values[{i}]"),
                format!("{} cannot be quantised with a scale", values[i]),
            ));
        }
        let rows = values.len() / cols;
        let mut q = Quantized {
            codec: self,
            rows,
            cols,
            elements: Vec::new(),
            scales: Vec::new(),
            zeros: Vec::new(),
            tensor: Vec::new(),
        };
        let mut out = BitWriter::with_capacity(bits::packed_len(values.len(), self.element_bits()));
        match self {
            Codec::Fp32 => values.iter().for_each(|v| out.push(v.to_bits(), 32)),
            Codec::Cast(s) => values
                .iter()
                .for_each(|v| out.push(u32::from(s.encode(*v, Overflow::Cast)), s.bits())),
            Codec::ScaledFloat(s) => {
                let scale = absmax(values) / s.max();
                let scale = if scale > 0.0 { scale } else { 1.0 };
                q.tensor.extend(scale.to_le_bytes());
                for v in values {
                    out.push(u32::from(s.encode(v / scale, Overflow::Saturate)), s.bits());
                }
            }
            Codec::Mx(MxElement::Float(Scalar::Fp4E2m1)) => {
                let mut codes = vec![0u8; values.len()];
                let mut at = 0;
                for block in blocks(values, cols, MX_BLOCK) {
                    let exponent =
                        mx_shared_exponent(absmax(block), MxElement::Float(Scalar::Fp4E2m1));
                    q.scales.push((exponent + 127) as u8);
                    let inv = pow2_f32(-exponent);
                    for (c, v) in codes[at..at + block.len()].iter_mut().zip(block) {
                        *c = fp4_encode(v * inv);
                    }
                    at += block.len();
                }
                q.elements = pack_nibbles(&codes);
                return Ok(q);
            }
            Codec::Mx(element) => {
                for block in blocks(values, cols, MX_BLOCK) {
                    let exponent = mx_shared_exponent(absmax(block), element);
                    q.scales.push((exponent + 127) as u8);
                    mx_encode(block, exponent, element, &mut out);
                }
            }
            Codec::NvFp4 { four_over_six } => {
                let g = absmax(values) / NVFP4_RANGE;
                let g = if g > 0.0 { g } else { 1.0 };
                q.tensor.extend(g.to_le_bytes());
                let table = BlockScales::new(g);
                let mut codes = vec![0u8; values.len()];
                let mut at = 0;
                for block in blocks(values, cols, NVFP4_BLOCK) {
                    let block_codes = &mut codes[at..at + block.len()];
                    q.scales
                        .push(nvfp4_block(block, g, &table, four_over_six, block_codes));
                    at += block.len();
                }
                q.elements = pack_nibbles(&codes);
                return Ok(q);
            }
            Codec::Nf4 { double_quant } => {
                let mut absmaxes = Vec::new();
                for block in blocks(values, cols, NF4_BLOCK) {
                    let m = absmax(block);
                    absmaxes.push(m);
                    let inv = if m > 0.0 { 1.0 / m } else { 0.0 };
                    block.iter().for_each(|v| out.push(nf4_index(v * inv), 4));
                }
                if double_quant {
                    nf4_double_quantize(&absmaxes, &mut q);
                } else {
                    absmaxes
                        .iter()
                        .for_each(|m| q.scales.extend(m.to_le_bytes()));
                }
            }
            Codec::Int(c) => int_quantize(c, values, cols, &mut q, &mut out),
        }
        q.elements = out.finish();
        Ok(q)
    }

    /// Quantises and dequantises: the values a kernel reading this format would see.
    pub fn round_trip(self, values: &[f32], cols: usize) -> Result<Vec<f32>, ModelError> {
        Ok(self.quantize(values, cols)?.dequantize())
    }
}

impl Quantized {
    /// The values the bytes encode, read from the bytes alone.
    pub fn dequantize(&self) -> Vec<f32> {
        let codec = self.codec;
        let width = codec.element_bits();
        let code = |i: usize| bits::read(&self.elements, i, width).unwrap_or(0);
        let n = self.rows * self.cols;
        let tensor_f32 = |i: usize| f32_at(&self.tensor, i).unwrap_or(1.0);
        match codec {
            Codec::Fp32 => (0..n).map(|i| f32::from_bits(code(i))).collect(),
            Codec::Cast(s) => (0..n).map(|i| s.decode(code(i) as u16)).collect(),
            Codec::ScaledFloat(s) => {
                let scale = tensor_f32(0);
                (0..n).map(|i| s.decode(code(i) as u16) * scale).collect()
            }
            Codec::Mx(element) => self.per_block(MX_BLOCK, |block, i| {
                let scale = Scalar::E8m0.decode(byte_at(&self.scales, block));
                let c = code(i);
                scale
                    * match element {
                        MxElement::Float(s) => s.decode(c as u16),
                        MxElement::Int8 => f32::from(c as u8 as i8) / 64.0,
                    }
            }),
            Codec::NvFp4 { .. } => {
                let g = tensor_f32(0);
                self.per_block(NVFP4_BLOCK, |block, i| {
                    let scale = Scalar::Ue4m3.decode(byte_at(&self.scales, block)) * g;
                    Scalar::Fp4E2m1.decode(code(i) as u16) * scale
                })
            }
            Codec::Nf4 { double_quant } => {
                let absmax = |block: usize| {
                    if double_quant {
                        let mean = tensor_f32(0);
                        let scale = tensor_f32(1 + block / NF4_DQ_BLOCKS);
                        Scalar::Fp8E4m3.decode(byte_at(&self.scales, block)) * scale + mean
                    } else {
                        f32_at(&self.scales, block).unwrap_or(0.0)
                    }
                };
                self.per_block(NF4_BLOCK, |block, i| {
                    NF4_LEVELS[code(i) as usize] * absmax(block)
                })
            }
            Codec::Int(c) => self.int_dequantize(c),
        }
    }

    /// Maps every element through `value(block index, element index)`.
    fn per_block(&self, block: usize, value: impl Fn(usize, usize) -> f32) -> Vec<f32> {
        let per_row = self.cols.div_ceil(block);
        (0..self.rows * self.cols)
            .map(|i| {
                let (row, col) = (i / self.cols, i % self.cols);
                value(row * per_row + col / block, i)
            })
            .collect()
    }

    fn int_dequantize(&self, c: IntCodec) -> Vec<f32> {
        let width = u32::from(c.bits);
        let scale = |g: usize| read_scale(&self.scales, g, c.scale);
        let zero = |g: usize| match c.zero {
            ZeroPoint::None => 0.0,
            ZeroPoint::Packed => bits::read(&self.zeros, g, width).unwrap_or(0) as f32,
            ZeroPoint::Float(t) => read_scale(&self.zeros, g, t),
        };
        let value = |g: usize, i: usize| {
            let raw = bits::read(&self.elements, i, width).unwrap_or(0);
            let q = if c.zero == ZeroPoint::None {
                sign_extend(raw, width) as f32
            } else {
                raw as f32
            };
            (q - zero(g)) * scale(g)
        };
        match c.granularity {
            Granularity::Tensor => (0..self.rows * self.cols).map(|i| value(0, i)).collect(),
            Granularity::Channel => self.per_block(self.cols, value),
            Granularity::Group(g) => self.per_block(g as usize, value),
        }
    }
}

fn byte_at(bytes: &[u8], index: usize) -> u16 {
    bytes.get(index).map_or(0xff, |b| u16::from(*b))
}

fn f32_at(bytes: &[u8], index: usize) -> Option<f32> {
    let b = bytes.get(4 * index..4 * index + 4)?;
    Some(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn sign_extend(raw: u32, width: u32) -> i32 {
    let shift = 32 - width;
    ((raw << shift) as i32) >> shift
}

/// The largest magnitude (0 for an empty slice) of finite values: for non-negative
/// floats the bit patterns order like the values, and an integer maximum vectorises.
fn absmax(values: &[f32]) -> f32 {
    f32::from_bits(
        values
            .iter()
            .map(|v| v.to_bits() & 0x7fff_ffff)
            .max()
            .unwrap_or(0),
    )
}

/// Blocks of `block` values along each row of `cols`.
fn blocks(values: &[f32], cols: usize, block: usize) -> impl Iterator<Item = &[f32]> {
    values.chunks(cols).flat_map(move |row| row.chunks(block))
}

/// floor(log2(x)) of a positive finite f32 (normal or subnormal).
fn floor_log2(x: f32) -> i32 {
    let bits = x.to_bits();
    let exponent = (bits >> 23) as i32;
    if exponent == 0 {
        -127 - (bits.leading_zeros() as i32 - 9)
    } else {
        exponent - 127
    }
}

/// The exponent of the largest normal of an MX element type.
fn mx_emax(element: MxElement) -> i32 {
    match element {
        MxElement::Float(s) => floor_log2(s.max()),
        MxElement::Int8 => 0,
    }
}

/// OCP MX v1.0 shared exponent, within E8M0's range.
fn mx_shared_exponent(absmax: f32, element: MxElement) -> i32 {
    if absmax == 0.0 {
        return -127;
    }
    (floor_log2(absmax) - mx_emax(element)).clamp(-127, 127)
}

/// 2^k as an f32 (normal or subnormal) for k in [-127, 127]: multiplying by it rounds
/// exactly as dividing by 2^-k would.
fn pow2_f32(k: i32) -> f32 {
    f64::from_bits(((k + 1023) as u64) << 52) as f32
}

/// Packs 4-bit codes two a byte, the first in the low nibble (the [`bits`] layout).
fn pack_nibbles(codes: &[u8]) -> Vec<u8> {
    codes
        .chunks(2)
        .map(|pair| pair[0] | pair.get(1).map_or(0, |hi| hi << 4))
        .collect()
}

fn mx_encode(block: &[f32], exponent: i32, element: MxElement, out: &mut BitWriter) {
    let inv = pow2_f32(-exponent);
    match element {
        MxElement::Float(s) => block
            .iter()
            .for_each(|v| out.push(u32::from(s.encode(v * inv, Overflow::Saturate)), s.bits())),
        MxElement::Int8 => block.iter().for_each(|v| {
            let q = (v * inv * 64.0).round_ties_even().clamp(-127.0, 127.0);
            out.push(q as i32 as u32, 8);
        }),
    }
}

/// E2M1 with saturation: the number of rounding thresholds `|x|` passes (a tie goes to the
/// even code: down at 0.25, 1.25, 2.5, 5; up at 0.75, 1.75, 3.5). Agrees with
/// `Scalar::Fp4E2m1.encode(x, Overflow::Saturate)` on every finite input.
#[inline]
pub(crate) fn fp4_encode(x: f32) -> u8 {
    let a = x.abs();
    let magnitude = u8::from(a > 0.25)
        + u8::from(a >= 0.75)
        + u8::from(a > 1.25)
        + u8::from(a >= 1.75)
        + u8::from(a > 2.5)
        + u8::from(a >= 3.5)
        + u8::from(a > 5.0);
    magnitude | (u8::from(x.is_sign_negative()) << 3)
}

/// Encodes one NVFP4 block into `codes`; returns its UE4M3 scale code.
/// Every UE4M3 block scale times the tensor scale, and its inverse (0 for a zero scale).
struct BlockScales {
    scale: [f32; 128],
    inv: [f32; 128],
}

impl BlockScales {
    fn new(g: f32) -> Self {
        let scale: [f32; 128] = std::array::from_fn(|c| Scalar::Ue4m3.decode(c as u16) * g);
        let inv = scale.map(|s| if s > 0.0 { 1.0 / s } else { 0.0 });
        BlockScales { scale, inv }
    }
}

fn nvfp4_block(
    block: &[f32],
    g: f32,
    table: &BlockScales,
    four_over_six: bool,
    codes: &mut [u8],
) -> u8 {
    let m = absmax(block);
    let candidate = |top: f32, codes: &mut [u8]| -> (u8, f32) {
        let scale_code = Scalar::Ue4m3.encode(m / (top * g), Overflow::Saturate) as u8;
        let (scale, inv) = (
            table.scale[usize::from(scale_code)],
            table.inv[usize::from(scale_code)],
        );
        for (c, v) in codes.iter_mut().zip(block) {
            *c = fp4_encode(v * inv);
        }
        let error = if four_over_six {
            let decoded = |c: &u8| Scalar::Fp4E2m1.decode(u16::from(*c)) * scale;
            codes
                .iter()
                .zip(block)
                .map(|(c, v)| (decoded(c) - v).powi(2))
                .sum()
        } else {
            0.0
        };
        (scale_code, error)
    };
    let (six, six_error) = candidate(6.0, codes);
    if !four_over_six {
        return six;
    }
    let mut four_codes = [0u8; NVFP4_BLOCK];
    let four_codes = &mut four_codes[..block.len()];
    let (four, four_error) = candidate(4.0, four_codes);
    if four_error < six_error {
        codes.copy_from_slice(four_codes);
        four
    } else {
        six
    }
}

/// The nearest NF4 level to `x` in [-1, 1].
fn nf4_index(x: f32) -> u32 {
    NF4_LEVELS
        .windows(2)
        .map(|pair| u32::from(x > (pair[0] + pair[1]) / 2.0))
        .sum()
}

fn nf4_double_quantize(absmaxes: &[f32], q: &mut Quantized) {
    let mean = absmaxes.iter().map(|m| f64::from(*m)).sum::<f64>() / absmaxes.len().max(1) as f64;
    let mean = mean as f32;
    q.tensor.extend(mean.to_le_bytes());
    let top = Scalar::Fp8E4m3.max();
    for chunk in absmaxes.chunks(NF4_DQ_BLOCKS) {
        let spread = chunk.iter().fold(0.0f32, |s, m| s.max((m - mean).abs()));
        let scale = if spread > 0.0 { spread / top } else { 1.0 };
        q.tensor.extend(scale.to_le_bytes());
        for m in chunk {
            q.scales
                .push(Scalar::Fp8E4m3.encode((m - mean) / scale, Overflow::Saturate) as u8);
        }
    }
}

fn group_len(granularity: Granularity, len: usize, cols: usize) -> usize {
    match granularity {
        Granularity::Tensor => len.max(1),
        Granularity::Channel => cols,
        Granularity::Group(g) => g as usize,
    }
}

fn int_quantize(c: IntCodec, values: &[f32], cols: usize, q: &mut Quantized, out: &mut BitWriter) {
    let group = group_len(c.granularity, values.len(), cols);
    // Per-tensor groups span rows; the others stop at a row's end.
    let groups: Box<dyn Iterator<Item = &[f32]>> = match c.granularity {
        Granularity::Tensor => Box::new(values.chunks(group)),
        _ => Box::new(blocks(values, cols, group)),
    };
    let mut zeros = BitWriter::with_capacity(0);
    let levels = (1u32 << c.bits) - 1;
    for g in groups {
        let (lo, hi) = g
            .iter()
            .fold((0.0f32, 0.0f32), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
        if c.zero == ZeroPoint::None {
            let qmax = (levels / 2) as f32;
            let scale = store_scale(lo.abs().max(hi) / qmax, c.scale, &mut q.scales);
            let inv = if scale > 0.0 { 1.0 / scale } else { 0.0 };
            for v in g {
                let code = (v * inv).round_ties_even().clamp(-qmax, qmax);
                out.push(code as i32 as u32, u32::from(c.bits));
            }
            continue;
        }
        let scale = store_scale((hi - lo) / levels as f32, c.scale, &mut q.scales);
        let inv = if scale > 0.0 { 1.0 / scale } else { 0.0 };
        let zero = match c.zero {
            ZeroPoint::Float(t) => store_scale(-lo * inv, t, &mut q.zeros),
            _ => {
                let z = (-lo * inv).round_ties_even().clamp(0.0, levels as f32);
                zeros.push(z as u32, u32::from(c.bits));
                z
            }
        };
        for v in g {
            let code = (v * inv + zero).round_ties_even().clamp(0.0, levels as f32);
            out.push(code as u32, u32::from(c.bits));
        }
    }
    if c.zero == ZeroPoint::Packed {
        q.zeros = zeros.finish();
    }
}

/// Rounds a scale (or float zero point) to its storage type, appends its bytes and
/// returns the stored value. E8M0 rounds up, so that no value clips.
fn store_scale(value: f32, ty: ScaleType, bytes: &mut Vec<u8>) -> f32 {
    match ty {
        ScaleType::Fp32 => {
            bytes.extend(value.to_le_bytes());
            value
        }
        ScaleType::E8m0 => {
            let exponent = if value > 0.0 {
                let e = floor_log2(value);
                if (e as f32).exp2() < value { e + 1 } else { e }
            } else {
                -127
            };
            let code = (exponent.clamp(-127, 127) + 127) as u16;
            bytes.push(code as u8);
            Scalar::E8m0.decode(code)
        }
        _ => {
            let scalar = scale_scalar(ty);
            let code = scalar.encode(value, Overflow::Saturate);
            if scalar.bits() == 16 {
                bytes.extend(code.to_le_bytes());
            } else {
                bytes.push(code as u8);
            }
            scalar.decode(code)
        }
    }
}

/// The `index`-th stored scale of type `ty` (NaN if the buffer is too short).
fn read_scale(bytes: &[u8], index: usize, ty: ScaleType) -> f32 {
    let width = ty.bits() as usize / 8;
    let Some(b) = bytes.get(index * width..(index + 1) * width) else {
        return f32::NAN;
    };
    match ty {
        ScaleType::Fp32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        _ if width == 2 => scale_scalar(ty).decode(u16::from_le_bytes([b[0], b[1]])),
        _ => scale_scalar(ty).decode(u16::from(b[0])),
    }
}

fn scale_scalar(ty: ScaleType) -> Scalar {
    match ty {
        ScaleType::Fp16 => Scalar::Fp16,
        ScaleType::Bf16 => Scalar::Bf16,
        ScaleType::E4m3 => Scalar::Fp8E4m3,
        ScaleType::Ue4m3 => Scalar::Ue4m3,
        ScaleType::E8m0 => Scalar::E8m0,
        ScaleType::Fp32 => unreachable!("FP32 scales are stored directly"),
    }
}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Codec {
    type Err = ModelError;

    /// A scalar name (`fp8-e4m3`, `fp4-e2m1`: a plain cast, no scale), FP8 with its
    /// per-tensor scale as the catalogue stores it (`fp8-e4m3-scaled`, or the alias
    /// `fp8`), a block or grouped format of the catalogue (`nvfp4`, `mxfp4`,
    /// `int4-g128-fp16-zp`), `nvfp4-4over6`, or `int{bits}-channel[-zp]`.
    fn from_str(s: &str) -> Result<Codec, ModelError> {
        let name = s.trim().to_ascii_lowercase();
        if let Ok(scalar) = name.parse::<Scalar>()
            && !matches!(scalar, Scalar::Bf16 | Scalar::Fp16)
        {
            return Ok(Codec::Cast(scalar));
        }
        if let Some(scalar) = name.strip_suffix("-scaled")
            && let Ok(scalar @ (Scalar::Fp8E4m3 | Scalar::Fp8E5m2)) = scalar.parse::<Scalar>()
        {
            return Ok(Codec::ScaledFloat(scalar));
        }
        if name == "nvfp4-4over6" {
            return Ok(Codec::NvFp4 {
                four_over_six: true,
            });
        }
        if let Some(rest) = name.strip_prefix("int")
            && let Some((bits, tail)) = rest.split_once("-channel")
        {
            let zero = match tail {
                "" => ZeroPoint::None,
                "-zp" => ZeroPoint::Packed,
                _ => return Err(ModelError::UnknownFormat(name)),
            };
            let bits: u8 = bits
                .parse()
                .map_err(|_| ModelError::UnknownFormat(name.clone()))?;
            if !(2..=8).contains(&bits) {
                return Err(ModelError::invalid("bits", format!("{bits} is not 2 to 8")));
            }
            return Ok(Codec::Int(IntCodec {
                bits,
                granularity: Granularity::Channel,
                scale: ScaleType::Fp32,
                zero,
            }));
        }
        name.parse::<Format>().map(Codec::for_format)
    }
}
