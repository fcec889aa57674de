//! NVFP4: blocks of 16 E2M1 values share a UE4M3 scale, with one FP32 scale per tensor
//! (NVIDIA, "Introducing NVFP4", 2025).

use super::super::scalar::{Overflow, Scalar};
use super::{Quantized, absmax, blocks, byte_at, fp4_encode, pack_nibbles};

/// Values per block scale.
pub(super) const NVFP4_BLOCK: usize = 16;
/// E4M3's largest value times E2M1's: NVFP4's tensor scale maps the absmax there.
const NVFP4_RANGE: f32 = 448.0 * 6.0;

/// Encodes `values` (rows of `cols`): the tensor scale to `q.tensor`, one UE4M3 code per
/// block to `q.scales`.
pub(super) fn quantize(
    four_over_six: bool,
    values: &[f32],
    cols: usize,
    q: &mut Quantized,
) -> Vec<u8> {
    let g = absmax(values) / NVFP4_RANGE;
    let g = if g > 0.0 { g } else { 1.0 };
    q.tensor.extend(g.to_le_bytes());
    let table = BlockScales::new(g);
    let mut codes = vec![0u8; values.len()];
    let mut at = 0;
    for block in blocks(values, cols, NVFP4_BLOCK) {
        let block_codes = &mut codes[at..at + block.len()];
        q.scales
            .push(encode_block(block, g, &table, four_over_six, block_codes));
        at += block.len();
    }
    pack_nibbles(&codes)
}

/// Decodes what [`quantize`] wrote.
pub(super) fn dequantize(q: &Quantized) -> Vec<f32> {
    let g = q.tensor_f32(0);
    q.per_block(NVFP4_BLOCK, |block, i| {
        let scale = Scalar::Ue4m3.decode(byte_at(&q.scales, block)) * g;
        Scalar::Fp4E2m1.decode(q.code(i) as u16) * scale
    })
}

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

/// Encodes one block into `codes`; returns its UE4M3 scale code.
fn encode_block(
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
