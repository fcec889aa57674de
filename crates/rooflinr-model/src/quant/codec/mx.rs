//! OCP MX v1.0: blocks of 32 elements share an E8M0 scale (section 6.3).

use super::super::bits::BitWriter;
use super::super::scalar::{Overflow, Scalar};
use super::{
    MxElement, Quantized, absmax, blocks, byte_at, floor_log2, fp4_encode, pack_nibbles, pow2_f32,
};

/// Elements per shared scale.
pub(super) const MX_BLOCK: usize = 32;

/// Encodes `values` (rows of `cols`), one E8M0 scale per block to `q.scales`.
pub(super) fn quantize(
    element: MxElement,
    values: &[f32],
    cols: usize,
    q: &mut Quantized,
) -> Vec<u8> {
    if element == MxElement::Float(Scalar::Fp4E2m1) {
        // FP4 packs two codes a byte through the fast E2M1 encoder.
        let mut codes = vec![0u8; values.len()];
        let mut at = 0;
        for block in blocks(values, cols, MX_BLOCK) {
            let exponent = shared_exponent(absmax(block), element);
            q.scales.push((exponent + 127) as u8);
            let inv = pow2_f32(-exponent);
            for (c, v) in codes[at..at + block.len()].iter_mut().zip(block) {
                *c = fp4_encode(v * inv);
            }
            at += block.len();
        }
        return pack_nibbles(&codes);
    }
    let mut out = BitWriter::with_capacity(super::bits::packed_len(
        values.len(),
        q.codec.element_bits(),
    ));
    for block in blocks(values, cols, MX_BLOCK) {
        let exponent = shared_exponent(absmax(block), element);
        q.scales.push((exponent + 127) as u8);
        encode(block, exponent, element, &mut out);
    }
    out.finish()
}

/// Decodes what [`quantize`] wrote.
pub(super) fn dequantize(q: &Quantized, element: MxElement) -> Vec<f32> {
    q.per_block(MX_BLOCK, |block, i| {
        let scale = Scalar::E8m0.decode(byte_at(&q.scales, block));
        let c = q.code(i);
        scale
            * match element {
                MxElement::Float(s) => s.decode(c as u16),
                MxElement::Int8 => f32::from(c as u8 as i8) / 64.0,
            }
    })
}

/// The exponent of the largest normal of an MX element type.
fn emax(element: MxElement) -> i32 {
    match element {
        MxElement::Float(s) => floor_log2(s.max()),
        MxElement::Int8 => 0,
    }
}

/// OCP MX v1.0 shared exponent, within E8M0's range.
fn shared_exponent(absmax: f32, element: MxElement) -> i32 {
    if absmax == 0.0 {
        return -127;
    }
    (floor_log2(absmax) - emax(element)).clamp(-127, 127)
}

fn encode(block: &[f32], exponent: i32, element: MxElement, out: &mut BitWriter) {
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
