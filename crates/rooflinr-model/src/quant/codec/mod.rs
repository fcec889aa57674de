//! Tensor codecs: every storage format of the catalogue as a real quantiser that packs
//! bytes, and a dequantiser that reads only those bytes back.
//!
//! A tensor is row-major, `rows x cols`; blocks and groups run along a row (the reduction
//! dimension of a `[out, in]` weight) and never span two rows, so a row whose length is
//! not a multiple of the block ends in a short block. The packed layout, which the
//! agent's GPU kernels read, is in [`Quantized`]. Each family's encoder and decoder live
//! together: `plain` (FP32, casts, per-tensor scaled FP8), `mx`, `nvfp4`, `nf4`,
//! `int`.
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

use super::bits;
use super::scalar::Scalar;
use crate::error::ModelError;
use crate::format::{Format, GroupedInt, ScaleType, ZeroPoint};

mod int;
mod mx;
mod nf4;
mod nvfp4;
mod plain;

pub use nf4::NF4_LEVELS;

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
        q.elements = match self {
            Codec::Fp32 | Codec::Cast(_) | Codec::ScaledFloat(_) => {
                plain::quantize(self, values, &mut q)
            }
            Codec::Mx(element) => mx::quantize(element, values, cols, &mut q),
            Codec::NvFp4 { four_over_six } => nvfp4::quantize(four_over_six, values, cols, &mut q),
            Codec::Nf4 { double_quant } => nf4::quantize(double_quant, values, cols, &mut q),
            Codec::Int(c) => int::quantize(c, values, cols, &mut q),
        };
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
        match self.codec {
            Codec::Fp32 | Codec::Cast(_) | Codec::ScaledFloat(_) => plain::dequantize(self),
            Codec::Mx(element) => mx::dequantize(self, element),
            Codec::NvFp4 { .. } => nvfp4::dequantize(self),
            Codec::Nf4 { double_quant } => nf4::dequantize(self, double_quant),
            Codec::Int(c) => int::dequantize(self, c),
        }
    }

    /// Element `i`'s code.
    fn code(&self, i: usize) -> u32 {
        bits::read(&self.elements, i, self.codec.element_bits()).unwrap_or(0)
    }

    /// The `i`-th per-tensor FP32 number (1 when absent).
    fn tensor_f32(&self, i: usize) -> f32 {
        f32_at(&self.tensor, i).unwrap_or(1.0)
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
}

fn byte_at(bytes: &[u8], index: usize) -> u16 {
    bytes.get(index).map_or(0xff, |b| u16::from(*b))
}

fn f32_at(bytes: &[u8], index: usize) -> Option<f32> {
    let b = bytes.get(4 * index..4 * index + 4)?;
    Some(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
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
