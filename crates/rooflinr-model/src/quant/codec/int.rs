//! Integers with one scale per tensor, row or group: symmetric, or with a zero point
//! packed as an integer (AWQ/GPTQ) or kept as a float (HQQ).

use super::super::bits::{self, BitWriter};
use super::super::scalar::{Overflow, Scalar};
use super::{Granularity, IntCodec, Quantized, blocks, floor_log2};
use crate::format::{ScaleType, ZeroPoint};

/// Encodes `values` (rows of `cols`): scales to `q.scales`, zero points to `q.zeros`.
pub(super) fn quantize(c: IntCodec, values: &[f32], cols: usize, q: &mut Quantized) -> Vec<u8> {
    let mut out = BitWriter::with_capacity(bits::packed_len(values.len(), u32::from(c.bits)));
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
    out.finish()
}

/// Decodes what [`quantize`] wrote.
pub(super) fn dequantize(q: &Quantized, c: IntCodec) -> Vec<f32> {
    let width = u32::from(c.bits);
    let scale = |g: usize| read_scale(&q.scales, g, c.scale);
    let zero = |g: usize| match c.zero {
        ZeroPoint::None => 0.0,
        ZeroPoint::Packed => bits::read(&q.zeros, g, width).unwrap_or(0) as f32,
        ZeroPoint::Float(t) => read_scale(&q.zeros, g, t),
    };
    let value = |g: usize, i: usize| {
        let raw = bits::read(&q.elements, i, width).unwrap_or(0);
        let q = if c.zero == ZeroPoint::None {
            sign_extend(raw, width) as f32
        } else {
            raw as f32
        };
        (q - zero(g)) * scale(g)
    };
    match c.granularity {
        Granularity::Tensor => (0..q.rows * q.cols).map(|i| value(0, i)).collect(),
        Granularity::Channel => q.per_block(q.cols, value),
        Granularity::Group(g) => q.per_block(g as usize, value),
    }
}

fn group_len(granularity: Granularity, len: usize, cols: usize) -> usize {
    match granularity {
        Granularity::Tensor => len.max(1),
        Granularity::Channel => cols,
        Granularity::Group(g) => g as usize,
    }
}

fn sign_extend(raw: u32, width: u32) -> i32 {
    let shift = 32 - width;
    ((raw << shift) as i32) >> shift
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
