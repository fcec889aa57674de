//! The GEMV's inner loops: plain loops over fixed-width lanes, compiled by `multiversion`
//! for AVX-512 (with VNNI), AVX2 with FMA and F16C, and NEON, the best chosen at run time,
//! so the compiler vectorises them for the machine they run on; FP16's conversion uses
//! F16C's instruction where the CPU has it (the only `unsafe`: calling that function once
//! the features are detected).
//!
//! Integer weights (INT8, INT4) multiply activations quantised to int8, as llama.cpp does
//! (its Q8 activations): the dot products are exact integer sums per block, scaled once
//! per block. A GEMV then reads bytes at the rate the memory delivers them instead of
//! converting every weight to FP32 first, which costs more instructions than the memory
//! takes time on a few cores.

use multiversion::multiversion;

/// Values per block of quantised activations: one FP32 scale each. It is the INT4 group
/// (128), so a group's weight scale and its activation block's scale meet once.
pub const ACT_BLOCK: usize = 128;

/// FP32 lanes of the float loops: one AVX-512 register, two AVX2 ones, four NEON ones.
const LANES: usize = 16;

/// One activation vector quantised to int8 per block of [`ACT_BLOCK`] (symmetric: the
/// block's largest magnitude maps to 127). The codes are kept widened to 16 bits, the
/// width the multiply-add instructions take, so the kernels widen only the weights.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedActs {
    /// Codes (-127..=127) in element order.
    pub codes: Vec<i16>,
    /// The same codes with each block's even elements first, then its odd ones: the order
    /// in which the INT4 kernel unpacks a block's bytes (low nibbles, high nibbles).
    pub split: Vec<i16>,
    /// One scale per block.
    pub scales: Vec<f32>,
}

impl QuantizedActs {
    /// Quantises `x` (its length a multiple of [`ACT_BLOCK`]).
    pub fn new(x: &[f32]) -> QuantizedActs {
        let mut codes = vec![0i16; x.len()];
        let mut split = vec![0i16; x.len()];
        let mut scales = Vec::with_capacity(x.len() / ACT_BLOCK);
        for ((xb, cb), sb) in x
            .chunks(ACT_BLOCK)
            .zip(codes.chunks_mut(ACT_BLOCK))
            .zip(split.chunks_mut(ACT_BLOCK))
        {
            let amax = xb.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            let scale = amax / 127.0;
            let inv = if scale > 0.0 { 1.0 / scale } else { 0.0 };
            for (c, v) in cb.iter_mut().zip(xb) {
                // Clamped, so a rounding just past 127 stays 127.
                *c = (v * inv).round().clamp(-127.0, 127.0) as i16;
            }
            let half = cb.len() / 2;
            for (j, pair) in cb.chunks_exact(2).enumerate() {
                sb[j] = pair[0];
                sb[half + j] = pair[1];
            }
            scales.push(scale);
        }
        QuantizedActs {
            codes,
            split,
            scales,
        }
    }

    /// The values the integer kernels multiply by: each code times its block's scale.
    pub fn values(&self) -> Vec<f32> {
        self.codes
            .chunks(ACT_BLOCK)
            .zip(&self.scales)
            .flat_map(|(c, s)| c.iter().map(move |v| f32::from(*v) * s))
            .collect()
    }
}

/// `sum(a)` with [`LANES`] / 2 FP64 accumulators: the read bandwidth kernel.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn sum_f64(a: &[f64]) -> f64 {
    const N: usize = LANES / 2;
    let mut acc = [0.0f64; N];
    let chunks = a.chunks_exact(N);
    let tail: f64 = chunks.remainder().iter().sum();
    for c in chunks {
        for i in 0..N {
            acc[i] += c[i];
        }
    }
    acc.iter().sum::<f64>() + tail
}

/// `sum(convert(w[r][i]) * x[i])` for each of `R` rows over [`LANES`] accumulators a row,
/// so the loop vectorises with whatever the calling function was compiled for (it is
/// always inlined into one). Each chunk of `x` is loaded once for all `R` rows: for the
/// 16- and 8-bit formats the activations are otherwise more bytes through the core than
/// the weights, and the rows' weights stream as `R` independent lines.
#[inline(always)]
pub fn dot_with<T: Copy, const R: usize>(
    w: [&[T]; R],
    x: &[f32],
    convert: impl Fn(T) -> f32,
) -> [f32; R] {
    dot_lanes_with(w, x, |c| c.map(&convert), &convert)
}

/// [`dot_with`] with the weights converted [`LANES`] at a time by `lanes` (one instruction
/// where the hardware has one), the tail by `one`.
#[inline(always)]
fn dot_lanes_with<T: Copy, const R: usize>(
    w: [&[T]; R],
    x: &[f32],
    lanes: impl Fn(&[T; LANES]) -> [f32; LANES],
    one: impl Fn(T) -> f32,
) -> [f32; R] {
    let mut acc = [[0.0f32; LANES]; R];
    let whole = x.len() / LANES * LANES;
    let (xc, xt) = x.split_at(whole);
    for (c, xs) in xc.chunks_exact(LANES).enumerate() {
        let xs: &[f32; LANES] = xs.try_into().expect("a chunk is LANES long");
        for (a, row) in acc.iter_mut().zip(&w) {
            let ws: &[T; LANES] = row[c * LANES..(c + 1) * LANES]
                .try_into()
                .expect("a chunk is LANES long");
            let ws = lanes(ws);
            for i in 0..LANES {
                a[i] += ws[i] * xs[i];
            }
        }
    }
    std::array::from_fn(|r| {
        let tail: f32 = w[r][whole..].iter().zip(xt).map(|(a, b)| one(*a) * b).sum();
        acc[r].iter().sum::<f32>() + tail
    })
}

/// `sum(w[r][i] * x[i])` in FP32, for each row.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn dot_f32<const R: usize>(w: [&[f32]; R], x: &[f32]) -> [f32; R] {
    dot_with(w, x, |v| v)
}

/// `sum(bf16(w[r][i]) * x[i])`: a bfloat16 is the top half of an FP32.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn dot_bf16<const R: usize>(w: [&[u16]; R], x: &[f32]) -> [f32; R] {
    dot_with(w, x, |b| f32::from_bits(u32::from(b) << 16))
}

/// An FP16 bit pattern as the FP32 of the same value, exactly, in operations every SIMD
/// unit has (so the loop around it vectorises): the exponent and mantissa shifted into
/// FP32's places and rescaled by 2^112 (the difference of the biases, 127 - 15), which is
/// exact for normal and subnormal halves alike; infinities and NaNs keep the all-ones
/// exponent; the sign is put back last.
#[inline(always)]
fn f16_to_f32(h: u16) -> f32 {
    const TWO_POW_112: u32 = (112 + 127) << 23;
    let h = u32::from(h);
    let magnitude = (h & 0x7fff) << 13;
    let bits = if h & 0x7c00 == 0x7c00 {
        magnitude | 0x7f80_0000
    } else {
        (f32::from_bits(magnitude) * f32::from_bits(TWO_POW_112)).to_bits()
    };
    f32::from_bits(bits | ((h & 0x8000) << 16))
}

/// `sum(f16(w[r][i]) * x[i])`, for each row: with F16C's conversion instruction where
/// the CPU has it, else the portable bit arithmetic of [`dot_f16_portable`].
pub fn dot_f16<const R: usize>(w: [&[u16]; R], x: &[f32]) -> [f32; R] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("f16c")
    {
        // SAFETY: the features `dot_f16_f16c` is compiled for were detected just above.
        #[allow(unsafe_code)]
        return unsafe { dot_f16_f16c(w, x) };
    }
    dot_f16_portable(w, x)
}

/// [`dot_f16`] with F16C: its VCVTPH2PS converts eight halves in one instruction, where
/// the bit arithmetic of `f16_to_f32` takes about eight. The intrinsic itself is safe to
/// call here (this function is compiled with the feature); only the caller's dispatch is
/// not.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,f16c")]
fn dot_f16_f16c<const R: usize>(w: [&[u16]; R], x: &[f32]) -> [f32; R] {
    use std::arch::x86_64::{__m128i, __m256, _mm256_cvtph_ps};
    let lanes = |c: &[u16; LANES]| -> [f32; LANES] {
        let halves: [[u16; 8]; LANES / 8] = bytemuck::cast(*c);
        let wide: [__m256; LANES / 8] =
            halves.map(|h| _mm256_cvtph_ps(bytemuck::cast::<[u16; 8], __m128i>(h)));
        bytemuck::cast(wide)
    };
    dot_lanes_with(w, x, lanes, f16_to_f32)
}

/// [`dot_f16`] in operations every SIMD unit has.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn dot_f16_portable<const R: usize>(w: [&[u16]; R], x: &[f32]) -> [f32; R] {
    dot_with(w, x, f16_to_f32)
}

/// `sum(w[r][i] * q[i] * scale(block of i))` for int8 weights and quantised activations,
/// for each row: an exact integer sum per block (|w q| <= 127^2, so 128 of them fit an
/// i32), scaled once. The activation block is loaded once for all `R` rows.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx512vnni+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn dot_i8<const R: usize>(w: [&[i8]; R], q: &[i16], scales: &[f32]) -> [f32; R] {
    let mut total = [0.0f32; R];
    for (b, (qb, s)) in q.chunks_exact(ACT_BLOCK).zip(scales).enumerate() {
        let qb: &[i16; ACT_BLOCK] = qb.try_into().expect("a block is ACT_BLOCK long");
        for (t, row) in total.iter_mut().zip(&w) {
            let wb: &[i8; ACT_BLOCK] = row[b * ACT_BLOCK..(b + 1) * ACT_BLOCK]
                .try_into()
                .expect("a block is ACT_BLOCK long");
            let mut acc = 0i32;
            for j in 0..ACT_BLOCK {
                acc += i32::from(wb[j]) * i32::from(qb[j]);
            }
            *t += acc as f32 * s;
        }
    }
    total
}

/// The INT4 dot of each of `R` rows: `bytes[r]` hold two's complement 4-bit codes, the
/// first of each pair in the low nibble, [`ACT_BLOCK`] codes (one group) per FP16 weight
/// scale (its bit pattern, as stored and counted, `weight_scales[r]`); `split` is the
/// quantised activation in [`QuantizedActs::split`] order. Per group, an exact integer sum
/// times the group's weight scale times the block's activation scale. The activation
/// block is loaded once for all `R` rows.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx512vnni+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn dot_i4<const R: usize>(
    bytes: [&[u8]; R],
    weight_scales: [&[u16]; R],
    split: &[i16],
    act_scales: &[f32],
) -> [f32; R] {
    const HALF: usize = ACT_BLOCK / 2;
    let mut total = [0.0f32; R];
    for (g, (qb, s)) in split.chunks_exact(ACT_BLOCK).zip(act_scales).enumerate() {
        let (even, odd) = qb.split_at(HALF);
        let even: &[i16; HALF] = even.try_into().expect("half a block");
        let odd: &[i16; HALF] = odd.try_into().expect("half a block");
        for ((t, row), ws) in total.iter_mut().zip(&bytes).zip(&weight_scales) {
            let gb: &[u8; HALF] = row[g * HALF..(g + 1) * HALF]
                .try_into()
                .expect("a group is HALF bytes");
            let mut acc = 0i32;
            for j in 0..HALF {
                // The byte sign-extended to 16 bits: its high nibble is `>> 4`, its low one
                // `<< 12 >> 12` (16-bit shifts, which every SIMD unit has; 8-bit ones it lacks).
                let v = i16::from(gb[j] as i8);
                let lo = (v << 12) >> 12;
                let hi = v >> 4;
                acc += i32::from(lo) * i32::from(even[j]) + i32::from(hi) * i32::from(odd[j]);
            }
            *t += acc as f32 * (f16_to_f32(ws[g]) * s);
        }
    }
    total
}
