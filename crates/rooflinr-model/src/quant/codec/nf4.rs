//! bitsandbytes NF4: blocks of 64 values share an FP32 absmax; with double quantisation
//! (QLoRA, Dettmers et al. 2023) the absmaxes are centred on their mean and stored in FP8
//! E4M3 with one FP32 scale per 256 blocks.

use super::super::bits::BitWriter;
use super::super::scalar::{Overflow, Scalar};
use super::{Quantized, absmax, blocks, byte_at, f32_at};

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

const NF4_BLOCK: usize = 64;
const NF4_DQ_BLOCKS: usize = 256;

/// Encodes `values` (rows of `cols`): the absmaxes to `q.scales` (or, double-quantised,
/// their codes to `q.scales` and the mean and scales to `q.tensor`).
pub(super) fn quantize(
    double_quant: bool,
    values: &[f32],
    cols: usize,
    q: &mut Quantized,
) -> Vec<u8> {
    let mut out = BitWriter::with_capacity(super::bits::packed_len(values.len(), 4));
    let mut absmaxes = Vec::new();
    for block in blocks(values, cols, NF4_BLOCK) {
        let m = absmax(block);
        absmaxes.push(m);
        let inv = if m > 0.0 { 1.0 / m } else { 0.0 };
        block.iter().for_each(|v| out.push(index(v * inv), 4));
    }
    if double_quant {
        double_quantize(&absmaxes, q);
    } else {
        absmaxes
            .iter()
            .for_each(|m| q.scales.extend(m.to_le_bytes()));
    }
    out.finish()
}

/// Decodes what [`quantize`] wrote.
pub(super) fn dequantize(q: &Quantized, double_quant: bool) -> Vec<f32> {
    let absmax = |block: usize| {
        if double_quant {
            let mean = q.tensor_f32(0);
            let scale = q.tensor_f32(1 + block / NF4_DQ_BLOCKS);
            Scalar::Fp8E4m3.decode(byte_at(&q.scales, block)) * scale + mean
        } else {
            f32_at(&q.scales, block).unwrap_or(0.0)
        }
    };
    q.per_block(NF4_BLOCK, |block, i| {
        NF4_LEVELS[q.code(i) as usize] * absmax(block)
    })
}

/// The nearest NF4 level to `x` in [-1, 1].
fn index(x: f32) -> u32 {
    NF4_LEVELS
        .windows(2)
        .map(|pair| u32::from(x > (pair[0] + pair[1]) / 2.0))
        .sum()
}

fn double_quantize(absmaxes: &[f32], q: &mut Quantized) {
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
