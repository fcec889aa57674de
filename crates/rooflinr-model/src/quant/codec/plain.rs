//! FP32 storage, plain casts, and FP8 with one FP32 scale per tensor.

use super::super::bits::BitWriter;
use super::super::scalar::Overflow;
use super::{Codec, Quantized, absmax};

/// Encodes `values`; a scaled FP8 tensor's scale goes to `q.tensor`.
pub(super) fn quantize(codec: Codec, values: &[f32], q: &mut Quantized) -> Vec<u8> {
    let mut out =
        BitWriter::with_capacity(super::bits::packed_len(values.len(), codec.element_bits()));
    match codec {
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
        _ => unreachable!("plain::quantize takes FP32, casts and scaled floats"),
    }
    out.finish()
}

/// Decodes what [`quantize`] wrote.
pub(super) fn dequantize(q: &Quantized) -> Vec<f32> {
    let n = q.rows * q.cols;
    match q.codec {
        Codec::Fp32 => (0..n).map(|i| f32::from_bits(q.code(i))).collect(),
        Codec::Cast(s) => (0..n).map(|i| s.decode(q.code(i) as u16)).collect(),
        Codec::ScaledFloat(s) => {
            let scale = q.tensor_f32(0);
            (0..n).map(|i| s.decode(q.code(i) as u16) * scale).collect()
        }
        _ => unreachable!("plain::dequantize takes FP32, casts and scaled floats"),
    }
}
