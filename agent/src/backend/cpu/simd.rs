//! The GEMV's inner loops. On x86-64 with AVX2, FMA and F16C (detected at run time), the
//! kernels of the `x86` module (with AVX-512 too, float batches of four vectors in
//! sixteen-lane registers), written with the standard library's intrinsics: the
//! compiler's own vectorisation of the plain loops kept the rows' accumulators in memory
//! and widened every weight byte to 16 bits, which on two cores ran the 16-bit and 4-bit
//! formats slower than the memory. Elsewhere (NEON on aarch64, older x86-64) the plain
//! loops over fixed-width lanes, compiled by `multiversion` for the SIMD unit found at run
//! time. The only `unsafe` is the dispatch into the x86 kernels once their features are
//! detected (`dispatch!`).
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
/// block's largest magnitude maps to 127).
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedActs {
    /// Codes (-127..=127) in element order.
    pub codes: Vec<i8>,
    /// The same codes with each block's even elements first, then its odd ones: the order
    /// in which the INT4 kernel unpacks a block's bytes (low nibbles, high nibbles).
    pub split: Vec<i8>,
    /// One scale per block.
    pub scales: Vec<f32>,
    /// The sum of each block's codes: the INT4 kernel multiplies unsigned nibbles (each
    /// code plus 8) and takes 8 times this sum off afterwards.
    pub sums: Vec<i32>,
}

impl QuantizedActs {
    /// Quantises `x` (its length a multiple of [`ACT_BLOCK`]).
    pub fn new(x: &[f32]) -> QuantizedActs {
        let mut codes = vec![0i8; x.len()];
        let mut split = vec![0i8; x.len()];
        let mut scales = Vec::with_capacity(x.len() / ACT_BLOCK);
        let mut sums = Vec::with_capacity(x.len() / ACT_BLOCK);
        for ((xb, cb), sb) in x
            .chunks(ACT_BLOCK)
            .zip(codes.chunks_mut(ACT_BLOCK))
            .zip(split.chunks_mut(ACT_BLOCK))
        {
            let scale = quantize_block(xb, cb);
            let half = cb.len() / 2;
            for (j, pair) in cb.chunks_exact(2).enumerate() {
                sb[j] = pair[0];
                sb[half + j] = pair[1];
            }
            scales.push(scale);
            sums.push(cb.iter().map(|c| i32::from(*c)).sum());
        }
        QuantizedActs {
            codes,
            split,
            scales,
            sums,
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

/// Codes for one block of activations into `codes`, returning the block's scale: its
/// largest magnitude over 127. Compiled for the SIMD units, whose rounding instructions
/// replace a library call per value on baseline x86-64 (which lacks SSE4.1's ROUNDPS).
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
fn quantize_block(x: &[f32], codes: &mut [i8]) -> f32 {
    // The largest magnitude over LANES running maxima (one fold in element order would
    // not vectorise), then over the tail.
    let mut lanes = [0.0f32; LANES];
    let chunks = x.chunks_exact(LANES);
    let tail = chunks
        .remainder()
        .iter()
        .fold(0.0f32, |m, v| m.max(v.abs()));
    for c in chunks {
        for i in 0..LANES {
            lanes[i] = lanes[i].max(c[i].abs());
        }
    }
    let amax = lanes.iter().fold(tail, |m, v| m.max(*v));
    let scale = amax / 127.0;
    let inv = if scale > 0.0 { 1.0 / scale } else { 0.0 };
    for (c, v) in codes.iter_mut().zip(x) {
        // Clamped, so a rounding just past 127 stays 127.
        *c = (v * inv).round_ties_even().clamp(-127.0, 127.0) as i8;
    }
    scale
}

/// `sum(a)`, the read bandwidth kernel: `a`'s quarters read side by side as four streams
/// (as the GEMV reads four rows), `LANES` / 2 FP64 accumulators each. Read as one stream,
/// the sum reached about three quarters of the rate the GEMVs read their weights at on two
/// Zen 4 cores, so the GEMVs "beat" their roof.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn sum_f64(a: &[f64]) -> f64 {
    const N: usize = LANES / 2;
    let quarter = a.len() / 4 / N * N;
    let (streams, rest) = a.split_at(4 * quarter);
    let (front, back) = streams.split_at(2 * quarter);
    let (s0, s1) = front.split_at(quarter);
    let (s2, s3) = back.split_at(quarter);
    let mut acc = [[0.0f64; N]; 4];
    let chunks = s0
        .chunks_exact(N)
        .zip(s1.chunks_exact(N))
        .zip(s2.chunks_exact(N).zip(s3.chunks_exact(N)));
    for ((c0, c1), (c2, c3)) in chunks {
        for i in 0..N {
            acc[0][i] += c0[i];
            acc[1][i] += c1[i];
            acc[2][i] += c2[i];
            acc[3][i] += c3[i];
        }
    }
    acc.iter().flatten().sum::<f64>() + rest.iter().sum::<f64>()
}

/// `sum(convert(w[r][i]) * x[i])` for each of `R` rows over `LANES` accumulators a row,
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
    let mut acc = [[0.0f32; LANES]; R];
    let whole = x.len() / LANES * LANES;
    let (xc, xt) = x.split_at(whole);
    for (c, xs) in xc.chunks_exact(LANES).enumerate() {
        let xs: &[f32; LANES] = xs.try_into().expect("a chunk is LANES long");
        for (a, row) in acc.iter_mut().zip(&w) {
            let ws: &[T; LANES] = row[c * LANES..(c + 1) * LANES]
                .try_into()
                .expect("a chunk is LANES long");
            for i in 0..LANES {
                a[i] += convert(ws[i]) * xs[i];
            }
        }
    }
    std::array::from_fn(|r| {
        let tail: f32 = w[r][whole..]
            .iter()
            .zip(xt)
            .map(|(a, b)| convert(*a) * b)
            .sum();
        acc[r].iter().sum::<f32>() + tail
    })
}

/// Whether this CPU runs the [`x86`] kernels: AVX2, FMA and F16C (every x86-64 CPU since
/// 2013-2015 has all three). The answer is cached by the standard library.
#[cfg(target_arch = "x86_64")]
fn x86_kernels() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("f16c")
}

/// Calls the [`x86`] kernel `$fast` where the CPU has its features, else `$portable`.
macro_rules! dispatch {
    ($fast:ident, $portable:ident, $($arg:expr),+) => {{
        #[cfg(target_arch = "x86_64")]
        if x86_kernels() {
            // SAFETY: the features the x86 kernels are compiled for (AVX2, FMA, F16C)
            // were detected just above.
            #[allow(unsafe_code)]
            return unsafe { x86::$fast($($arg),+) };
        }
        $portable($($arg),+)
    }};
}

/// Whether this CPU also runs the wide float kernels of [`x86`]: AVX-512 Foundation
/// (sixteen FP32 lanes, thirty-two registers).
#[cfg(target_arch = "x86_64")]
fn x86_wide_kernels() -> bool {
    x86_kernels() && std::arch::is_x86_feature_detected!("avx512f")
}

/// Whether the float kernels take more than two vectors at once here: four, where the
/// wide kernels run (4 rows x 4 vectors of accumulators fit AVX-512's thirty-two
/// registers; 4 x 2 fit AVX2's sixteen).
pub fn wide_float_kernels() -> bool {
    #[cfg(target_arch = "x86_64")]
    return x86_wide_kernels();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether the INT4 kernel takes four vectors at once here: where the VNNI kernels run
/// ([`x86_vnni_kernels`]), whose 4 rows x 2 registers of unpacked nibbles and each
/// vector's 2 registers of codes fit AVX-512's thirty-two; each group is then unpacked once
/// for four vectors instead of two. Measured on two Zen 4 cores (`rooflinr-agent compare
/// --backend cpu`, the binaries before and after alternated twice): batch 4 at 4096 x 4096
/// from 521-529 to 371-374 us, at 8192 x 8192 from 1.76-1.83 to 1.56-1.68 ms. INT8, whose
/// bytes need no unpacking, gained at 4096 and lost up to 8 % at 8192, so it keeps two.
pub fn wide_int4_kernels() -> bool {
    #[cfg(target_arch = "x86_64")]
    return x86_vnni_kernels();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Like `dispatch!`, for the float kernels: the wide one `$wide` for more than two
/// vectors where the CPU has AVX-512 (see [`wide_float_kernels`]).
macro_rules! dispatch_float {
    ($wide:ident, $fast:ident, $portable:ident, $w:expr, $x:expr) => {{
        #[cfg(target_arch = "x86_64")]
        if $x.len() > 2 && x86_wide_kernels() {
            // SAFETY: the features the wide kernels are compiled for (AVX-512F, AVX2, FMA,
            // F16C) were detected just above.
            #[allow(unsafe_code)]
            return unsafe { x86::$wide($w, $x) };
        }
        dispatch!($fast, $portable, $w, $x)
    }};
}

/// `sum(w[r][i] * x[m][i])` in FP32, for each row and vector (all `x[m]` as long).
pub fn dot_f32<const R: usize, const M: usize>(w: [&[f32]; R], x: [&[f32]; M]) -> [[f32; R]; M] {
    dispatch_float!(dot_f32_wide, dot_f32, dot_f32_portable, w, x)
}

/// [`dot_f32`] in loops the compiler vectorises.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn dot_f32_portable<const R: usize, const M: usize>(
    w: [&[f32]; R],
    x: [&[f32]; M],
) -> [[f32; R]; M] {
    x.map(|x| dot_with(w, x, |v| v))
}

/// `sum(bf16(w[r][i]) * x[m][i])` for each row and vector: a bfloat16 is the top half of
/// an FP32.
pub fn dot_bf16<const R: usize, const M: usize>(w: [&[u16]; R], x: [&[f32]; M]) -> [[f32; R]; M] {
    dispatch_float!(dot_bf16_wide, dot_bf16, dot_bf16_portable, w, x)
}

/// A bfloat16 bit pattern as the FP32 of the same value.
#[inline(always)]
fn bf16_to_f32(b: u16) -> f32 {
    f32::from_bits(u32::from(b) << 16)
}

/// [`dot_bf16`] in loops the compiler vectorises.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn dot_bf16_portable<const R: usize, const M: usize>(
    w: [&[u16]; R],
    x: [&[f32]; M],
) -> [[f32; R]; M] {
    x.map(|x| dot_with(w, x, bf16_to_f32))
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

/// `sum(f16(w[r][i]) * x[m][i])`, for each row and vector.
pub fn dot_f16<const R: usize, const M: usize>(w: [&[u16]; R], x: [&[f32]; M]) -> [[f32; R]; M] {
    dispatch_float!(dot_f16_wide, dot_f16, dot_f16_portable, w, x)
}

/// [`dot_f16`] in operations every SIMD unit has.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn dot_f16_portable<const R: usize, const M: usize>(
    w: [&[u16]; R],
    x: [&[f32]; M],
) -> [[f32; R]; M] {
    x.map(|x| dot_with(w, x, f16_to_f32))
}

/// Like `dispatch!`, for the integer kernels: the VNNI one `$vnni` where the CPU has
/// AVX-512 VNNI ([`x86_vnni_kernels`]).
macro_rules! dispatch_integer {
    ($vnni:ident, $fast:ident, $portable:ident, $($arg:expr),+) => {{
        #[cfg(target_arch = "x86_64")]
        if x86_vnni_kernels() {
            // SAFETY: the features the VNNI kernels are compiled for (AVX-512F, BW and
            // VNNI, AVX2, FMA, F16C) were detected just above.
            #[allow(unsafe_code)]
            return unsafe { x86::$vnni($($arg),+) };
        }
        dispatch!($fast, $portable, $($arg),+)
    }};
}
/// `sum(w[r][i] * q[m][i] * scale(block of i))` for int8 weights and quantised
/// activations, for each row and vector (`[m][r]`): an exact integer sum per block (|w q| <= 127 x 128, so 128 of them fit
/// an i32), scaled once. With AVX2's byte multiply-add where the CPU has it, else
/// [`dot_i8_portable`]; both give the same bits.
pub fn dot_i8<const R: usize, const M: usize>(
    w: [&[i8]; R],
    acts: [&QuantizedActs; M],
) -> [[f32; R]; M] {
    dispatch_integer!(dot_i8_vnni, dot_i8, dot_i8_portable, w, acts)
}

/// Whether this CPU runs the VNNI integer kernel of [`x86`]: AVX-512 with its byte and word
/// instructions and VNNI's VPDPBUSD (Ice Lake and later, Zen 4 and later).
#[cfg(target_arch = "x86_64")]
fn x86_vnni_kernels() -> bool {
    x86_wide_kernels()
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vnni")
}

/// [`dot_i8`] in plain integer loops the compiler vectorises.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx512vnni+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn dot_i8_portable<const R: usize, const M: usize>(
    w: [&[i8]; R],
    acts: [&QuantizedActs; M],
) -> [[f32; R]; M] {
    acts.map(|acts| dot_i8_one(w, acts))
}

/// [`dot_i8_portable`] for one vector (always inlined into it).
#[inline(always)]
fn dot_i8_one<const R: usize>(w: [&[i8]; R], acts: &QuantizedActs) -> [f32; R] {
    let mut total = [0.0f32; R];
    for (b, (qb, s)) in acts
        .codes
        .chunks_exact(ACT_BLOCK)
        .zip(&acts.scales)
        .enumerate()
    {
        let qb: &[i8; ACT_BLOCK] = qb.try_into().expect("a block is ACT_BLOCK long");
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

/// The INT4 dot of each of `R` rows with each of `M` vectors (`[m][r]`): `bytes[r]` hold
/// two's complement 4-bit codes, the first of each pair in the low nibble, [`ACT_BLOCK`]
/// codes (one group) per FP16 weight scale (its bit pattern, as stored and counted,
/// `weight_scales[r]`). Per group, an exact integer sum times the group's weight scale
/// times the block's activation scale. With AVX2's byte multiply-add where the CPU has it
/// (each group unpacked once for all the vectors), else [`dot_i4_portable`]; both give
/// the same bits.
pub fn dot_i4<const R: usize, const M: usize>(
    bytes: [&[u8]; R],
    weight_scales: [&[u16]; R],
    acts: [&QuantizedActs; M],
) -> [[f32; R]; M] {
    dispatch_integer!(
        dot_i4_vnni,
        dot_i4,
        dot_i4_portable,
        bytes,
        weight_scales,
        acts
    )
}

/// [`dot_i4`] in plain integer loops the compiler vectorises; the activation block is
/// loaded once for all `R` rows.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx512vnni+avx2+fma+f16c",
    "x86_64+avx2+fma+f16c",
    "aarch64+neon"
))]
pub fn dot_i4_portable<const R: usize, const M: usize>(
    bytes: [&[u8]; R],
    weight_scales: [&[u16]; R],
    acts: [&QuantizedActs; M],
) -> [[f32; R]; M] {
    acts.map(|acts| dot_i4_one(bytes, weight_scales, acts))
}

/// [`dot_i4_portable`] for one vector (always inlined into it).
#[inline(always)]
fn dot_i4_one<const R: usize>(
    bytes: [&[u8]; R],
    weight_scales: [&[u16]; R],
    acts: &QuantizedActs,
) -> [f32; R] {
    const HALF: usize = ACT_BLOCK / 2;
    let mut total = [0.0f32; R];
    for (g, (qb, s)) in acts
        .split
        .chunks_exact(ACT_BLOCK)
        .zip(&acts.scales)
        .enumerate()
    {
        let (even, odd) = qb.split_at(HALF);
        let even: &[i8; HALF] = even.try_into().expect("half a block");
        let odd: &[i8; HALF] = odd.try_into().expect("half a block");
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

/// The kernels for x86-64 with AVX2, FMA and F16C. Float formats convert eight weights
/// per instruction or two and multiply-add them in FP32. Integer formats work as llama.cpp's
/// x86 quantised dot products do: bytes multiplied by VPMADDUBSW (unsigned by signed
/// bytes, adjacent pairs summed into 16 bits) and the pairs summed into 32 bits by
/// VPMADDWD, so 32 weights take three or four instructions. The intrinsics are safe to
/// call inside these functions (compiled with the features); only the dispatch into them
/// is not.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{ACT_BLOCK, QuantizedActs, bf16_to_f32, f16_to_f32};
    use std::arch::x86_64::{
        __m128i, __m256, __m256i, __m512, __m512i, _MM_HINT_T1, _mm_add_epi32, _mm_cvtph_ps,
        _mm_prefetch, _mm256_abs_epi8, _mm256_add_epi16, _mm256_add_epi32, _mm256_and_si256,
        _mm256_castsi256_ps, _mm256_castsi256_si128, _mm256_cvtepu16_epi32, _mm256_cvtph_ps,
        _mm256_extracti128_si256, _mm256_fmadd_ps, _mm256_hadd_epi32, _mm256_madd_epi16,
        _mm256_maddubs_epi16, _mm256_set1_epi8, _mm256_set1_epi16, _mm256_setzero_ps,
        _mm256_setzero_si256, _mm256_sign_epi8, _mm256_slli_epi32, _mm256_srli_epi16,
        _mm256_xor_si256, _mm512_add_epi32, _mm512_and_si512, _mm512_castsi512_ps,
        _mm512_castsi512_si256, _mm512_cvtepu16_epi32, _mm512_cvtph_ps, _mm512_dpbusd_epi32,
        _mm512_extracti64x4_epi64, _mm512_fmadd_ps, _mm512_reduce_add_epi32, _mm512_set1_epi8,
        _mm512_setzero_ps, _mm512_setzero_si512, _mm512_slli_epi32, _mm512_srli_epi16,
        _mm512_unpackhi_epi32, _mm512_unpackhi_epi64, _mm512_unpacklo_epi32, _mm512_unpacklo_epi64,
        _mm512_xor_si512,
    };

    /// Bytes per register.
    const WIDTH: usize = 32;

    /// 32 bytes from the start of `b` as one register.
    #[inline(always)]
    fn load<T: bytemuck::Pod>(b: &[T]) -> __m256i {
        let bytes: &[u8] = bytemuck::cast_slice(b);
        let chunk: [u8; WIDTH] = bytes[..WIDTH].try_into().expect("32 bytes");
        bytemuck::cast(chunk)
    }

    /// Each register's eight 32-bit lanes summed (exact: the kernels' sums fit an i32):
    /// four registers at a time with horizontal adds, the rest lane by lane.
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    fn lane_sums<const R: usize>(v: [__m256i; R]) -> [i32; R] {
        let mut sums = [0i32; R];
        let mut r = 0;
        while r + 4 <= R {
            let ab = _mm256_hadd_epi32(v[r], v[r + 1]);
            let cd = _mm256_hadd_epi32(v[r + 2], v[r + 3]);
            let abcd = _mm256_hadd_epi32(ab, cd);
            let four = _mm_add_epi32(
                _mm256_castsi256_si128(abcd),
                _mm256_extracti128_si256::<1>(abcd),
            );
            sums[r..r + 4].copy_from_slice(&bytemuck::cast::<__m128i, [i32; 4]>(four));
            r += 4;
        }
        for (s, v) in sums[r..].iter_mut().zip(&v[r..]) {
            *s = bytemuck::cast::<__m256i, [i32; 8]>(*v).iter().sum();
        }
        sums
    }

    /// FP16 bit patterns as FP32, exactly: four at a time with F16C's VCVTPH2PS.
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    fn halves_to_f32<const R: usize>(h: [u16; R]) -> [f32; R] {
        let mut out = [0.0f32; R];
        for (o, h) in out.chunks_mut(4).zip(h.chunks(4)) {
            let mut eight = [0u16; 8];
            eight[..h.len()].copy_from_slice(h);
            let wide: [f32; 4] = bytemuck::cast(_mm_cvtph_ps(bytemuck::cast(eight)));
            o.copy_from_slice(&wide[..o.len()]);
        }
        out
    }

    /// Defines `$name`: `sum(convert(w[r][i]) * x[m][i])` for each of `R` rows and `M`
    /// vectors, `$lanes` weights at a time converted by `convert` (one or two
    /// instructions) once for all the vectors, one FMA a row and vector; the tail by
    /// `one`. Each activation chunk is loaded once for all `R` rows. The accumulators are
    /// built as a new array each chunk (`map`), which the compiler keeps in registers (a
    /// loop updating them in place kept them in memory: 2.2x slower); R x M of them must
    /// fit the register file with the R converted weights: AVX2's sixteen registers take
    /// 4 x 2, AVX-512's thirty-two 4 x 4. `$prefetch`: how far ahead to prefetch each
    /// row, if at all (`None::<usize>`: not at all).
    macro_rules! dot_float {
        ($name:ident, $features:literal, $reg:ty, $lanes:literal, $zero:ident, $fmadd:ident, $prefetch:expr) => {
            #[inline]
            #[target_feature(enable = $features)]
            fn $name<T: bytemuck::Pod, const R: usize, const M: usize>(
                w: [&[T]; R],
                x: [&[f32]; M],
                convert: impl Fn([T; $lanes]) -> $reg,
                one: impl Fn(T) -> f32,
            ) -> [[f32; R]; M] {
                let k = x.first().map_or(0, |x| x.len());
                let whole = k / $lanes * $lanes;
                let mut acc = [[$zero(); R]; M];
                for c in 0..whole / $lanes {
                    let chunk = c * $lanes..(c + 1) * $lanes;
                    if let Some(ahead) = $prefetch {
                        for row in &w {
                            let at = row[chunk.start..].as_ptr().cast::<u8>();
                            _mm_prefetch::<_MM_HINT_T1>(at.wrapping_add(ahead).cast::<i8>());
                        }
                    }
                    let wv: [$reg; R] =
                        w.map(|row| convert(row[chunk.clone()].try_into().expect("a chunk")));
                    let mut m = 0;
                    acc = acc.map(|rows| {
                        let xs: [f32; $lanes] = x[m][chunk.clone()].try_into().expect("a chunk");
                        let xv = bytemuck::cast::<[f32; $lanes], $reg>(xs);
                        m += 1;
                        let mut r = 0;
                        rows.map(|a| {
                            let sum = $fmadd(wv[r], xv, a);
                            r += 1;
                            sum
                        })
                    });
                }
                let mut m = 0;
                acc.map(|rows| {
                    let mut r = 0;
                    let sums = rows.map(|a| {
                        let tail: f32 = w[r][whole..k]
                            .iter()
                            .zip(&x[m][whole..])
                            .map(|(v, x)| one(*v) * x)
                            .sum();
                        r += 1;
                        bytemuck::cast::<$reg, [f32; $lanes]>(a).iter().sum::<f32>() + tail
                    });
                    m += 1;
                    sums
                })
            }
        };
    }

    dot_float!(
        dot_float,
        "avx2,fma,f16c",
        __m256,
        8,
        _mm256_setzero_ps,
        _mm256_fmadd_ps,
        None::<usize>
    );
    dot_float!(
        dot_float_wide,
        "avx512f,avx2,fma,f16c",
        __m512,
        16,
        _mm512_setzero_ps,
        _mm512_fmadd_ps,
        Some(PREFETCH_AHEAD)
    );

    /// Bytes ahead of each row's chunk the wide kernels ask the L2 for (PREFETCHT1). With
    /// four vectors a chunk takes four times the FMAs, so fewer weight loads fit the core's
    /// window and the hardware alone kept fewer lines in flight: on two Zen 4 cores,
    /// batches of 4 and 8 at 4096 x 4096 ran about 10-20 % faster with it in alternated
    /// runs (4 KiB; 8 and 16 KiB, and the L1 hint, no better). The narrow kernels go
    /// without: prefetching slowed single vectors (measured on a Xeon).
    const PREFETCH_AHEAD: usize = 4096;

    /// [`super::dot_f32`].
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) fn dot_f32<const R: usize, const M: usize>(
        w: [&[f32]; R],
        x: [&[f32]; M],
    ) -> [[f32; R]; M] {
        dot_float(w, x, bytemuck::cast::<[f32; 8], __m256>, |v| v)
    }

    /// [`super::dot_bf16`]: each bfloat16 widened to 32 bits and shifted into an FP32's
    /// top half (VPMOVZXWD, VPSLLD).
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) fn dot_bf16<const R: usize, const M: usize>(
        w: [&[u16]; R],
        x: [&[f32]; M],
    ) -> [[f32; R]; M] {
        let eight = |h: [u16; 8]| {
            let wide = _mm256_cvtepu16_epi32(bytemuck::cast::<[u16; 8], __m128i>(h));
            _mm256_castsi256_ps(_mm256_slli_epi32::<16>(wide))
        };
        dot_float(w, x, eight, bf16_to_f32)
    }

    /// [`super::dot_f16`]: F16C's VCVTPH2PS converts eight halves in one instruction,
    /// exactly, where the bit arithmetic of `f16_to_f32` takes about eight.
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) fn dot_f16<const R: usize, const M: usize>(
        w: [&[u16]; R],
        x: [&[f32]; M],
    ) -> [[f32; R]; M] {
        let eight = |h: [u16; 8]| _mm256_cvtph_ps(bytemuck::cast::<[u16; 8], __m128i>(h));
        dot_float(w, x, eight, f16_to_f32)
    }

    /// [`super::dot_f32`] with AVX-512: sixteen lanes, up to 4 x 4 accumulators.
    #[target_feature(enable = "avx512f,avx2,fma,f16c")]
    pub(super) fn dot_f32_wide<const R: usize, const M: usize>(
        w: [&[f32]; R],
        x: [&[f32]; M],
    ) -> [[f32; R]; M] {
        dot_float_wide(w, x, bytemuck::cast::<[f32; 16], __m512>, |v| v)
    }

    /// [`super::dot_bf16`] with AVX-512: sixteen bfloat16s widened and shifted at once.
    #[target_feature(enable = "avx512f,avx2,fma,f16c")]
    pub(super) fn dot_bf16_wide<const R: usize, const M: usize>(
        w: [&[u16]; R],
        x: [&[f32]; M],
    ) -> [[f32; R]; M] {
        let sixteen = |h: [u16; 16]| {
            let wide = _mm512_cvtepu16_epi32(bytemuck::cast::<[u16; 16], __m256i>(h));
            _mm512_castsi512_ps(_mm512_slli_epi32::<16>(wide))
        };
        dot_float_wide(w, x, sixteen, bf16_to_f32)
    }

    /// [`super::dot_f16`] with AVX-512: sixteen halves converted by one VCVTPH2PS.
    #[target_feature(enable = "avx512f,avx2,fma,f16c")]
    pub(super) fn dot_f16_wide<const R: usize, const M: usize>(
        w: [&[u16]; R],
        x: [&[f32]; M],
    ) -> [[f32; R]; M] {
        let sixteen = |h: [u16; 16]| _mm512_cvtph_ps(bytemuck::cast::<[u16; 16], __m256i>(h));
        dot_float_wide(w, x, sixteen, f16_to_f32)
    }

    /// Bytes ahead of a batch's integer rows the integer kernels ask the L2 for
    /// (`prefetch_rows_ahead!`). Several vectors put more arithmetic between a row's loads,
    /// and the hardware prefetcher alone then kept too few lines in flight. On two Zen 5
    /// cores (`cargo run --release -p rooflinr-agent --example gemv_vs_read N 0.5 1,4,8
    /// int8,int4-g128-fp16`, the binaries before and after alternated three times,
    /// 2026-11-28, medians), at 4096 / 8192 with VNNI: INT8 batches of 4 0.665 / 2.32 ->
    /// 0.486 / 1.67 ms, of 8 0.956 / 3.49 -> 0.739 / 2.73 ms; INT4 batches of 4 0.377 / 1.60
    /// -> 0.309 / 1.13 ms, of 8 0.732 / 2.58 -> 0.554 / 2.05 ms. The AVX2 kernels, run there
    /// with VNNI switched off, at 8192: INT8 batches of 4 3.37 -> 2.66 ms and of 8 5.41 ->
    /// 4.74 ms, INT4 2.38 -> 1.99 and 4.21 -> 3.77 ms. 1 KiB and 4 KiB ahead gained less
    /// (INT8 with VNNI, two rounds). A single vector, already at the read bandwidth, goes
    /// without (five alternated rounds of AVX2 INT8 at 8192: 1.75 ms either way), as the
    /// float kernels' single vectors do.
    const INT_PREFETCH_AHEAD: usize = 2048;

    /// Asks the L2 (PREFETCHT1) for the `$lines` cache lines [`INT_PREFETCH_AHEAD`] bytes
    /// past byte `$at` of each of `$rows`, from the rows' own pointers. Two earlier forms
    /// made the batches slower than no prefetching at all (INT8 batches of 8 at 8192 x 8192:
    /// 3.4 -> 5.0 ms): a function given the rows sliced at each chunk, and this macro over
    /// those slices; why was not pinned down.
    macro_rules! prefetch_rows_ahead {
        ($rows:expr, $at:expr, $lines:expr) => {
            for row in &$rows {
                let at = row
                    .as_ptr()
                    .cast::<i8>()
                    .wrapping_add($at + INT_PREFETCH_AHEAD);
                for line in 0..$lines {
                    _mm_prefetch::<_MM_HINT_T1>(at.wrapping_add(line * 64));
                }
            }
        };
    }

    /// [`super::dot_i8`], one vector at a time (unpacking once for several vectors, as
    /// INT4 does, measured no faster: |w| is one instruction).
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) fn dot_i8<const R: usize, const M: usize>(
        w: [&[i8]; R],
        acts: [&QuantizedActs; M],
    ) -> [[f32; R]; M] {
        let mut sums = [[0.0f32; R]; M];
        for (i, (vector_sums, acts)) in sums.iter_mut().zip(acts).enumerate() {
            // In a batch the first vector's pass streams the rows from memory; the others
            // find them in cache.
            *vector_sums = if M > 1 && i == 0 {
                dot_i8_one::<R, true>(w, acts)
            } else {
                dot_i8_one::<R, false>(w, acts)
            };
        }
        sums
    }

    /// [`dot_i8`] for one vector: |w| into VPMADDUBSW's unsigned operand and w's sign onto
    /// the activation (VPSIGNB), so each product is w q (at most 128 x 127, two of them
    /// fit 16 bits).
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    fn dot_i8_one<const R: usize, const PREFETCH: bool>(
        w: [&[i8]; R],
        acts: &QuantizedActs,
    ) -> [f32; R] {
        const CHUNKS: usize = ACT_BLOCK / WIDTH;
        let ones = _mm256_set1_epi16(1);
        let mut total = [0.0f32; R];
        let blocks = acts.codes.chunks_exact(ACT_BLOCK).zip(&acts.scales);
        for (b, (qb, s)) in blocks.enumerate() {
            if PREFETCH {
                prefetch_rows_ahead!(w, b * ACT_BLOCK, ACT_BLOCK / 64);
            }
            let q: [__m256i; CHUNKS] = std::array::from_fn(|h| load(&qb[h * WIDTH..]));
            let sums = lane_sums(w.map(|row| {
                let wb = &row[b * ACT_BLOCK..(b + 1) * ACT_BLOCK];
                let mut acc = _mm256_setzero_si256();
                for (h, qh) in q.iter().enumerate() {
                    let wv = load(&wb[h * WIDTH..]);
                    let pairs =
                        _mm256_maddubs_epi16(_mm256_abs_epi8(wv), _mm256_sign_epi8(*qh, wv));
                    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, ones));
                }
                acc
            }));
            for (t, sum) in total.iter_mut().zip(sums) {
                *t += sum as f32 * s;
            }
        }
        total
    }

    /// 64 bytes from the start of `b` as one AVX-512 register.
    #[inline(always)]
    fn load_wide<T: bytemuck::Pod>(b: &[T]) -> __m512i {
        let bytes: &[u8] = bytemuck::cast_slice(b);
        let chunk: [u8; 64] = bytes[..64].try_into().expect("64 bytes");
        bytemuck::cast(chunk)
    }

    /// Each AVX-512 register's sixteen 32-bit lanes summed (exact: the kernels' sums fit an
    /// i32): four registers at a time, their lanes interleaved and added so each 128-bit
    /// quarter holds the four registers' partial sums, then the quarters added; the rest
    /// one by one.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma,f16c")]
    fn lane_sums_wide<const R: usize>(v: [__m512i; R]) -> [i32; R] {
        let mut sums = [0i32; R];
        let mut r = 0;
        while r + 4 <= R {
            let pair =
                |a, b| _mm512_add_epi32(_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
            let (ab, cd) = (pair(v[r], v[r + 1]), pair(v[r + 2], v[r + 3]));
            let abcd =
                _mm512_add_epi32(_mm512_unpacklo_epi64(ab, cd), _mm512_unpackhi_epi64(ab, cd));
            let half = _mm256_add_epi32(
                _mm512_castsi512_si256(abcd),
                _mm512_extracti64x4_epi64::<1>(abcd),
            );
            let four = _mm_add_epi32(
                _mm256_castsi256_si128(half),
                _mm256_extracti128_si256::<1>(half),
            );
            sums[r..r + 4].copy_from_slice(&bytemuck::cast::<__m128i, [i32; 4]>(four));
            r += 4;
        }
        for (s, v) in sums[r..].iter_mut().zip(&v[r..]) {
            *s = _mm512_reduce_add_epi32(*v);
        }
        sums
    }

    /// [`super::dot_i8`] with AVX-512 VNNI: each weight made unsigned by one XOR (w + 128,
    /// 0..=255, once for all the vectors), VPDPBUSD multiplies 64 unsigned weights by 64
    /// signed codes and adds each four products into a 32-bit lane, and 128 times the
    /// block's code sum is taken off: the exact integer sum of w q per block (at most 2 x 4 x
    /// 255 x 127 a lane), the same bits as the portable loops.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2,fma,f16c")]
    pub(super) fn dot_i8_vnni<const R: usize, const M: usize>(
        w: [&[i8]; R],
        acts: [&QuantizedActs; M],
    ) -> [[f32; R]; M] {
        const WIDE: usize = 64;
        let load = load_wide::<i8>;
        let offset = _mm512_set1_epi8(i8::MIN);
        let mut total = [[0.0f32; R]; M];
        let blocks = acts.first().map_or(0, |a| a.scales.len());
        for b in 0..blocks {
            let at = b * ACT_BLOCK;
            if M > 1 {
                prefetch_rows_ahead!(w, at, ACT_BLOCK / 64);
            }
            let unsigned: [[__m512i; 2]; R] =
                w.map(|row| [at, at + WIDE].map(|i| _mm512_xor_si512(load(&row[i..]), offset)));
            for (t, a) in total.iter_mut().zip(acts) {
                let q = [at, at + WIDE].map(|i| load(&a.codes[i..]));
                let correction = 128 * a.sums[b];
                let sums = lane_sums_wide(unsigned.map(|u| {
                    let lanes = _mm512_dpbusd_epi32(_mm512_setzero_si512(), u[0], q[0]);
                    _mm512_dpbusd_epi32(lanes, u[1], q[1])
                }));
                for (t, sum) in t.iter_mut().zip(sums) {
                    *t += (sum - correction) as f32 * a.scales[b];
                }
            }
        }
        total
    }

    /// [`super::dot_i4`] with AVX-512 VNNI: a group's 64 bytes XORed with 0x88 (both nibbles
    /// unsigned, code + 8) and masked and shifted apart once for all `M` vectors; VPDPBUSD
    /// multiplies the 64 low nibbles by the block's even codes and the 64 high ones by its
    /// odd codes, four products to a 32-bit lane, and 8 times the block's code sum is taken
    /// off: the exact integer sum, the same bits as the portable loops.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2,fma,f16c")]
    pub(super) fn dot_i4_vnni<const R: usize, const M: usize>(
        bytes: [&[u8]; R],
        weight_scales: [&[u16]; R],
        acts: [&QuantizedActs; M],
    ) -> [[f32; R]; M] {
        const HALF: usize = ACT_BLOCK / 2;
        let low_nibble = _mm512_set1_epi8(0x0f);
        let offset = _mm512_set1_epi8(0x88u8 as i8);
        let mut total = [[0.0f32; R]; M];
        let groups = acts.first().map_or(0, |a| a.scales.len());
        for g in 0..groups {
            if M > 1 {
                prefetch_rows_ahead!(bytes, g * HALF, HALF / 64);
            }
            let nibbles: [[__m512i; 2]; R] = bytes.map(|row| {
                let v = _mm512_xor_si512(load_wide(&row[g * HALF..]), offset);
                [
                    _mm512_and_si512(v, low_nibble),
                    _mm512_and_si512(_mm512_srli_epi16::<4>(v), low_nibble),
                ]
            });
            let row_scales = halves_to_f32(weight_scales.map(|ws| ws[g]));
            for (t, a) in total.iter_mut().zip(acts) {
                // The split order: the block's even codes, then its odd ones.
                let qb = &a.split[g * ACT_BLOCK..];
                let q = [load_wide(qb), load_wide(&qb[HALF..])];
                let sums = lane_sums_wide(nibbles.map(|n| {
                    let lanes = _mm512_dpbusd_epi32(_mm512_setzero_si512(), n[0], q[0]);
                    _mm512_dpbusd_epi32(lanes, n[1], q[1])
                }));
                let (s, block_sum) = (a.scales[g], a.sums[g]);
                for ((t, sum), ws) in t.iter_mut().zip(sums).zip(row_scales) {
                    *t += (sum - 8 * block_sum) as f32 * (ws * s);
                }
            }
        }
        total
    }

    /// [`super::dot_i4`]: each byte XORed with 0x88 makes both nibbles unsigned (code + 8,
    /// 0..=15), masked and shifted apart into VPMADDUBSW's unsigned operand once for all
    /// `M` vectors; 8 times the block's activation sum is taken off the exact integer sum.
    /// A pair is at most 2 x 15 x 127 = 3,810, so the four pair sums of a lane add up in 16
    /// bits. The rows' sums and weight scales are finished four rows at a time.
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) fn dot_i4<const R: usize, const M: usize>(
        bytes: [&[u8]; R],
        weight_scales: [&[u16]; R],
        acts: [&QuantizedActs; M],
    ) -> [[f32; R]; M] {
        const HALF: usize = ACT_BLOCK / 2;
        let low_nibble = _mm256_set1_epi8(0x0f);
        let offset = _mm256_set1_epi8(0x88u8 as i8);
        let ones = _mm256_set1_epi16(1);
        let mut total = [[0.0f32; R]; M];
        let groups = acts.first().map_or(0, |a| a.scales.len());
        for g in 0..groups {
            if M > 1 {
                prefetch_rows_ahead!(bytes, g * HALF, HALF / 64);
            }
            // Per row: the low nibbles of the group's two 32-byte halves (even elements
            // 0..64, 64..128), then the high nibbles (odd elements).
            let nibbles: [[__m256i; 4]; R] = bytes.map(|row| {
                let gb = &row[g * HALF..(g + 1) * HALF];
                let v = [load(gb), load(&gb[WIDTH..])].map(|v| _mm256_xor_si256(v, offset));
                [
                    _mm256_and_si256(v[0], low_nibble),
                    _mm256_and_si256(v[1], low_nibble),
                    _mm256_and_si256(_mm256_srli_epi16::<4>(v[0]), low_nibble),
                    _mm256_and_si256(_mm256_srli_epi16::<4>(v[1]), low_nibble),
                ]
            });
            let row_scales = halves_to_f32(weight_scales.map(|ws| ws[g]));
            for (t, a) in total.iter_mut().zip(acts) {
                // The split order matches: even elements first, then odd ones.
                let qb = &a.split[g * ACT_BLOCK..(g + 1) * ACT_BLOCK];
                let q = [0, WIDTH, HALF, HALF + WIDTH].map(|at| load(&qb[at..]));
                let sums = lane_sums(nibbles.map(|n| {
                    let low = _mm256_add_epi16(
                        _mm256_maddubs_epi16(n[0], q[0]),
                        _mm256_maddubs_epi16(n[1], q[1]),
                    );
                    let high = _mm256_add_epi16(
                        _mm256_maddubs_epi16(n[2], q[2]),
                        _mm256_maddubs_epi16(n[3], q[3]),
                    );
                    _mm256_madd_epi16(_mm256_add_epi16(low, high), ones)
                }));
                let (s, block_sum) = (a.scales[g], a.sums[g]);
                for ((t, sum), ws) in t.iter_mut().zip(sums).zip(row_scales) {
                    *t += (sum - 8 * block_sum) as f32 * (ws * s);
                }
            }
        }
        total
    }
}
