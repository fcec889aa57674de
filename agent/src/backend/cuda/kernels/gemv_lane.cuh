// rooflinr: what one lane of a GEMV warp computes, compiled for the GPU (NVRTC, after
// decode.cuh) and for the host (the agent's build script), where the tests run every lane
// of every row and check the sums against the model crate's dequantised weights. The
// kernels in gemv.cu add only the reductions, the tensor-core steps (which the host
// emulates by the PTX fragment layout) and the launch.
//
// y[i][row] = sum_k x[i][k] w[row][k] for activation rows i < M. The vectorised kernels
// give a warp RF_ROWS weight rows: lane L takes the 16-byte chunks L, L + 32, L + 64... of
// each, loads the activations those columns meet once with 16-byte loads, and uses them
// for every row. The any-shape kernels give a warp one row, lane L the elements L, L +
// 32... Each lane returns its partial sums; the warp adds them up.
#pragma once

#define RF_MAX_M 8
// Weight rows per warp in the vectorised kernels: each lane's activations, loaded once,
// serve this many rows (the agent's `GEMV_ROWS_PER_WARP`).
#define RF_ROWS 4
// 16-byte chunks of each row a lane has in flight: two, or one for 4-bit codes at more
// than four activation rows, whose arithmetic per chunk would otherwise spill registers
// (ptxas on sm_90a).
template <int FORMAT, int M>
struct rf_unroll {
    static const int value = (rf_element_bits(FORMAT) == 4 && M > 4) ? 1 : 2;
};

// Sixteen bytes of packed codes as four little-endian words.
struct rf_u32x4 {
    rf_u32 w[4];
};

// A 16-byte load through the read-only path (the host reads the same bytes).
RF_HD rf_u32x4 rf_load16(const rf_u8* p) {
    rf_u32x4 v;
#ifdef __CUDA_ARCH__
    uint4 q = __ldg(reinterpret_cast<const uint4*>(p));
    v.w[0] = q.x;
    v.w[1] = q.y;
    v.w[2] = q.z;
    v.w[3] = q.w;
#else
    memcpy(v.w, p, 16);
#endif
    return v;
}

// A 16-byte load of streamed weights, read once: kept out of the L1 cache (PTX
// `ld.global.nc.L1::no_allocate`), which then holds the activations every warp reads.
RF_HD rf_u32x4 rf_load16_stream(const rf_u8* p) {
    rf_u32x4 v;
#ifdef __CUDA_ARCH__
    asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
        : "=r"(v.w[0]), "=r"(v.w[1]), "=r"(v.w[2]), "=r"(v.w[3])
        : "l"(p));
#else
    memcpy(v.w, p, 16);
#endif
    return v;
}

// Two little-endian bytes (2-byte aligned) through the read-only path.
RF_HD rf_u32 rf_load2(const rf_u8* p) {
#ifdef __CUDA_ARCH__
    return __ldg(reinterpret_cast<const rf_u16*>(p));
#else
    return (rf_u32)p[0] | ((rf_u32)p[1] << 8);
#endif
}

// FP16 activation `x[i]` as FP32.
RF_HD float rf_x(const rf_u16* __restrict__ x, unsigned long long i) {
#ifdef __CUDA_ARCH__
    return rf_f16_to_f32(__ldg(x + i));
#else
    return rf_f16_to_f32(x[i]);
#endif
}

// The decoding the 16-byte kernels do per element, without conversion instructions: on
// sm_90 the CUDA C++ Programming Guide's throughput table gives 16 conversions per clock
// and multiprocessor against 128 FP32 multiply-adds, and the first H200 run's 4-bit
// GEMVs took about as long as one conversion per weight code at that rate. Each function
// returns exactly what its converting twin in decode.cuh returns (the host tests compare
// every code), using integer bit operations and one exact FP32 multiply or subtraction.

// 2^112: an IEEE binary16 pattern shifted into FP32's exponent and mantissa fields reads
// as its value times 2^-112 (normal or subnormal alike), so this multiply restores it.
#define RF_F16_IN_F32_UNBIAS 0x1p112f

// A finite binary16 pattern's value (subnormals included; no infinities or NaN): its
// fields moved into FP32's, then one exact multiply by 2^112. Needs subnormal FP32
// arithmetic, which the agent compiles with (`--ftz=false`).
RF_HD float rf_finite_f16_to_f32(rf_u32 h) {
    rf_u32 bits = ((h & 0x8000u) << 16) | ((h & 0x7fffu) << 13);
    return rf_f32_from_bits(bits) * RF_F16_IN_F32_UNBIAS;
}

// A two's complement integer of `bits` bits (4 or 8) as FP32: with its sign bit flipped
// it is the integer plus 2^(bits - 1), which ORed into 2^23's mantissa is exact; one
// subtraction takes both offsets back out.
RF_HD float rf_small_int_to_f32(rf_u32 code, int bits) {
    const rf_u32 offset = 1u << (bits - 1);
    return rf_f32_from_bits(0x4b000000u | (code ^ offset)) - (8388608.0f + (float)offset);
}

// `rf_element` of the formats the 16-byte kernels decode per code (not FP16 or BF16,
// which take `rf_element`: a shift for BF16, and FP16 codes may be infinite).
RF_HD float rf_element_fast(int format, rf_u32 code) {
    switch (format) {
    case RF_FP8_E4M3:
        return rf_finite_f16_to_f32(rf_e4m3_as_f16_bits(code));
    case RF_INT8:
        return rf_small_int_to_f32(code, 8);
    case RF_INT4_G128:
        return rf_small_int_to_f32(code, 4);
    case RF_NVFP4:
    case RF_MXFP4:
        return rf_finite_f16_to_f32(rf_e2m1_as_f16_bits(code));
    default:
        return rf_element(format, code);
    }
}

// Eight FP16 activations x[first .. first + 8] as FP32, from one 16-byte load (`first` a
// multiple of 8, so the load is aligned). Activations are finite.
RF_HD void rf_x8(const rf_u16* __restrict__ x, unsigned long long first, float (&v)[8]) {
    rf_u32x4 q = rf_load16(reinterpret_cast<const rf_u8*>(x + first));
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        v[j] = rf_finite_f16_to_f32((q.w[j / 2] >> (16 * (j % 2))) & 0xffffu);
    }
}

// The dot products of one 16-byte chunk of weight codes from each of RF_ROWS rows with M
// activation rows, added into acc[r][i]. `col` is the chunk's first column; `blocks[r]`
// row r's first block index in the scale array (row-major). The chunk is taken eight
// codes at a time: the eight activations of each row i are loaded once (one 16-byte load)
// and used for every weight row, and a block factor is folded into the eight weights it
// covers (blocks hold 16, 32 or 128 codes, so eight codes never straddle two).
template <int FORMAT, int M>
RF_HD void rf_chunk(const rf_u32x4 (&packed)[RF_ROWS], const rf_u8* __restrict__ scales,
                    const float* __restrict__ tensor, const rf_u16* __restrict__ x,
                    unsigned int k, unsigned int col, const unsigned long long (&blocks)[RF_ROWS],
                    float (&acc)[RF_ROWS][M]) {
    const int bits = rf_element_bits(FORMAT);
    const int codes_per_word = 32 / bits;
    const int per_chunk = 4 * codes_per_word;
    const int block = rf_block(FORMAT);
#pragma unroll
    for (int piece = 0; piece < per_chunk / 8; ++piece) {
        float w[RF_ROWS][8];
#pragma unroll
        for (int r = 0; r < RF_ROWS; ++r) {
            float factor = 1.0f;
            if (block != 0) {
                factor = rf_block_scale(FORMAT, scales, blocks[r] + (piece * 8) / block, tensor);
            }
#pragma unroll
            for (int j = 0; j < 8; ++j) {
                const int code = piece * 8 + j;
                w[r][j] = rf_element_fast(
                    FORMAT, rf_code_in_word(packed[r].w[code / codes_per_word],
                                            code % codes_per_word, bits));
                if (block != 0) {
                    w[r][j] *= factor;
                }
            }
        }
#pragma unroll
        for (int i = 0; i < M; ++i) {
            float xs[8];
            rf_x8(x, (unsigned long long)i * k + col + piece * 8, xs);
#pragma unroll
            for (int r = 0; r < RF_ROWS; ++r) {
#pragma unroll
                for (int j = 0; j < 8; ++j) {
                    acc[r][i] = fmaf(w[r][j], xs[j], acc[r][i]);
                }
            }
        }
    }
}

// Lane `lane`'s partial sums of the RF_ROWS weight rows from `first_row` (rows past n
// read row n - 1 again and are not written), with k a multiple of the codes per 16 bytes
// so every row starts on a 16-byte boundary. The tensor factor is applied after the
// warp's sum.
template <int FORMAT, int M>
RF_HD void rf_gemv_vec_lane(const rf_u8* __restrict__ elements, const rf_u8* __restrict__ scales,
                            const float* __restrict__ tensor, const rf_u16* __restrict__ x,
                            unsigned int first_row, unsigned int n, unsigned int lane,
                            unsigned int k, float (&acc)[RF_ROWS][M]) {
    const int per_chunk = 128 / rf_element_bits(FORMAT);
    const int block = rf_block(FORMAT);
    const unsigned int chunks = k / per_chunk;
    const unsigned long long blocks_per_row = block ? (k + block - 1) / block : 0;
    const rf_u8* w[RF_ROWS];
    unsigned long long row_block[RF_ROWS];
#pragma unroll
    for (int r = 0; r < RF_ROWS; ++r) {
        const unsigned int row = first_row + r < n ? first_row + r : n - 1;
        w[r] = elements + 16ull * ((unsigned long long)row * chunks);
        row_block[r] = (unsigned long long)row * blocks_per_row;
#pragma unroll
        for (int i = 0; i < M; ++i) {
            acc[r][i] = 0.0f;
        }
    }
    // `unroll` chunks of every row in flight per lane, then their arithmetic.
    const int unroll = rf_unroll<FORMAT, M>::value;
    unsigned int c = lane;
    for (; c + 32 * (unroll - 1) < chunks; c += 32 * unroll) {
        rf_u32x4 packed[unroll][RF_ROWS];
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
#pragma unroll
            for (int r = 0; r < RF_ROWS; ++r) {
                packed[u][r] = rf_load16(w[r] + 16ull * (c + 32 * u));
            }
        }
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
            const unsigned long long first = (unsigned long long)(c + 32 * u) * per_chunk;
            unsigned long long blocks[RF_ROWS];
#pragma unroll
            for (int r = 0; r < RF_ROWS; ++r) {
                blocks[r] = block ? row_block[r] + first / block : 0;
            }
            rf_chunk<FORMAT, M>(packed[u], scales, tensor, x, k, (unsigned int)first, blocks,
                                acc);
        }
    }
    for (; c < chunks; c += 32) {
        const unsigned long long first = (unsigned long long)c * per_chunk;
        rf_u32x4 packed[RF_ROWS];
        unsigned long long blocks[RF_ROWS];
#pragma unroll
        for (int r = 0; r < RF_ROWS; ++r) {
            packed[r] = rf_load16(w[r] + 16ull * c);
            blocks[r] = block ? row_block[r] + first / block : 0;
        }
        rf_chunk<FORMAT, M>(packed, scales, tensor, x, k, (unsigned int)first, blocks, acc);
    }
}

// Lane `lane`'s partial sums of weight row `row` for any k and m <= RF_MAX_M, element by
// element through `rf_value` (every factor included).
template <int FORMAT>
RF_HD void rf_gemv_any_lane(const rf_u8* __restrict__ elements, const rf_u8* __restrict__ scales,
                            const float* __restrict__ tensor, const rf_u16* __restrict__ x,
                            unsigned int m, unsigned int row, unsigned int lane,
                            unsigned int k, float (&acc)[RF_MAX_M]) {
#pragma unroll
    for (int i = 0; i < RF_MAX_M; ++i) {
        acc[i] = 0.0f;
    }
    for (unsigned int col = lane; col < k; col += 32) {
        float w = rf_value(FORMAT, elements, scales, tensor, row, col, k);
#pragma unroll
        for (int i = 0; i < RF_MAX_M; ++i) {
            if (i < (int)m) {
                acc[i] = fmaf(w, rf_x(x, (unsigned long long)i * k + col), acc[i]);
            }
        }
    }
}

// ---- the tensor-core kernels: mma.sync m16n8k16, FP16 x FP16 -> FP32 ---------------------
//
// The first H200 runs showed the 16-byte kernels above issue-bound, not memory-bound: at
// 1x8192x8192 the 4-bit ones read at 28 % of the bandwidth, FP8 at 51 %, and batch 8 took
// two to three times batch 1, because every weight code costs several integer operations
// and one FP32 multiply-add per activation row. These kernels decode two codes per 32-bit
// operation into FP16 pairs and let one `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`
// multiply 16 weight rows by up to 8 activation rows, 16 columns deep, for the whole warp
// (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type"): lane L is thread
// t = L % 4 of group g = L / 4 and holds A's (the weights') rows g and g + 8 at columns 2t,
// 2t + 1, 2t + 8, 2t + 9, B's (the activations') rows 2t, 2t + 1, 2t + 8, 2t + 9 of column
// g, and the FP32 sums C of rows g and g + 8 at columns 2t and 2t + 1.
//
// A sum does not depend on the order of its terms, so which physical column each of those
// logical columns is may be chosen freely, as long as A and B choose alike. Here a warp
// takes a tile of RF_MMA_CHUNKS 16-byte chunks of each of its 16 rows; thread t of every
// group takes chunk t, loads it whole (one 16-byte load per row), and pairs the codes it
// decodes exactly as it pairs the activations of the same columns. Every decoded value is
// exact in FP16 (FP16 itself; FP8 E4M3, INT8, INT4 and E2M1 codes; E2M1 times its UE4M3
// block scale, at most six significant bits between 2^-10 and 2688), so the products are
// exact and only the FP32 sums round. INT4's group scale (128 codes: exactly one tile) is
// applied to the tile's sums, the tensor scales to the final sums. MXFP4 (E8M0 scales,
// whose products with E2M1 can leave FP16's range) and BF16 (no BF16 x FP16 product) stay
// on the 16-byte kernels, as does FP16 at batch 1 (the launch's choice: measured no faster).

// Chunks per row in one tile: one per thread of a group.
#define RF_MMA_CHUNKS 4
// Most warps of a block (the launch picks 1, 2, 4 or 8 by the number of rows, so that the
// blocks fill the device in about one wave); they split the columns of the block's 16 rows
// and add their sums in shared memory.
#define RF_MMA_WARPS 8
// Tiles whose weights a warp has in flight before it decodes the first: four, 4 KiB a
// warp, what the 16-byte kernels had in flight when their first H200 run read FP16 at 83 %
// of the bandwidth.
#define RF_MMA_DEPTH 4

// Whether a format has a tensor-core kernel.
RF_HD constexpr bool rf_mma_reads(int format) {
    return format == RF_FP16 || format == RF_FP8_E4M3 || format == RF_INT8 ||
           format == RF_INT4_G128 || format == RF_NVFP4;
}

// FP16 pairs one 16-byte chunk decodes to (two codes a pair).
template <int FORMAT>
struct rf_mma {
    static const int codes = 128 / rf_element_bits(FORMAT);
    static const int pairs = codes / 2;
    // 16-byte loads of FP16 activations the chunk's columns take.
    static const int x_loads = codes / 8;
};

// Byte permute (PTX `prmt`, default mode): byte i of the result is byte (s >> 4i) & 7 of
// the eight bytes of y:x. The kernels never set a selector's bit 3.
RF_HD rf_u32 rf_prmt(rf_u32 x, rf_u32 y, rf_u32 s) {
#ifdef __CUDA_ARCH__
    return __byte_perm(x, y, s);
#else
    unsigned long long both = ((unsigned long long)y << 32) | x;
    rf_u32 r = 0;
    for (int i = 0; i < 4; ++i) {
        r |= (rf_u32)((both >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
    }
    return r;
#endif
}

#ifndef __CUDA_ARCH__
// FP32 to IEEE binary16 bits, rounded to nearest even (subnormals, overflow to infinity).
static inline rf_u16 rf_host_f32_to_f16(float f) {
    rf_u32 bits;
    memcpy(&bits, &f, 4);
    const rf_u32 sign = (bits >> 16) & 0x8000u;
    const rf_u32 abs = bits & 0x7fffffffu;
    if (abs >= 0x7f800000u) {
        return (rf_u16)(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
    }
    const int exponent = (int)(abs >> 23) - 127;
    if (exponent > 15) {
        return (rf_u16)(sign | 0x7c00u);
    }
    // The magnitude in units of binary16's last place at this exponent (2^-24 for
    // subnormals), kept with 13 extra bits for the rounding.
    const int shift = exponent < -14 ? 13 + (-14 - exponent) : 13;
    const rf_u32 mantissa = (abs & 0x7fffffu) | (exponent >= -126 ? 0x800000u : 0u);
    if (shift > 24) {
        return (rf_u16)sign;
    }
    rf_u32 q = mantissa >> shift;
    const rf_u32 rest = mantissa & ((1u << shift) - 1u);
    const rf_u32 half = 1u << (shift - 1);
    if (rest > half || (rest == half && (q & 1u))) {
        ++q;
    }
    // q counts units of the last place of the binade (subnormal: of 2^-24); adding the
    // biased exponent above the implicit bit carries correctly into the next binade.
    const rf_u32 biased = exponent < -14 ? 0u : (rf_u32)(exponent + 14);
    return (rf_u16)(sign | ((biased << 10) + q));
}
#endif

#ifndef __CUDA_ARCH__
// The host's f16x2 product or difference: each half in FP32, then rounded once.
static inline rf_u32 rf_host_h2(rf_u32 a, rf_u32 b, bool subtract) {
    rf_u32 d = 0;
    for (int h = 0; h < 2; ++h) {
        const float x = rf_f16_to_f32((rf_u16)(a >> (16 * h)));
        const float y = rf_f16_to_f32((rf_u16)(b >> (16 * h)));
        d |= (rf_u32)rf_host_f32_to_f16(subtract ? x - y : x * y) << (16 * h);
    }
    return d;
}
#endif

// Two binary16 products, rounded to nearest (PTX `mul.rn.f16x2`). The host multiplies in
// FP32, exact for two binary16 values, then rounds once, as the GPU does.
RF_HD rf_u32 rf_h2_mul(rf_u32 a, rf_u32 b) {
#ifdef __CUDA_ARCH__
    rf_u32 d;
    asm("mul.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    return rf_host_h2(a, b, false);
#endif
}

// Two binary16 differences (PTX `sub.rn.f16x2`). The kernels subtract only integers below
// 2^11, exact in both FP32 and FP16, so the host's FP32 subtraction gives the same bits.
RF_HD rf_u32 rf_h2_sub(rf_u32 a, rf_u32 b) {
#ifdef __CUDA_ARCH__
    rf_u32 d;
    asm("sub.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    return rf_host_h2(a, b, true);
#endif
}

// binary16 constants as FP16 pairs.
#define RF_H2_256 0x5c005c00u      // 2^8: undoes E4M3's placement in binary16
#define RF_H2_16384 0x74007400u    // 2^14: undoes E2M1's placement
#define RF_H2_1024 0x64006400u     // 1024: its last place is 1, so 1024 + u holds u < 1024
#define RF_H2_INT8_BIAS 0x64806480u  // 1024 + 128
#define RF_H2_INT4_BIAS 0x64086408u  // 1024 + 8

// `x` shifted left by `s` bits (right for negative `s`).
RF_HD rf_u32 rf_shift(rf_u32 x, int s) { return s >= 0 ? x << s : x >> -s; }

// One row's 16-byte chunk as FP16 pairs. Pair p holds physical codes (2p, 2p + 1) for
// 16- and 8-bit codes; for 4-bit codes, pair 4i + j of word i holds codes (8i + j,
// 8i + j + 4), which one mask takes out of the word together. `scale_bits` is NVFP4's two
// UE4M3 block scales of the chunk (its 32 codes are two blocks of 16, words 0-1 and 2-3),
// first in the low byte.
template <int FORMAT>
RF_HD void rf_mma_weights(const rf_u32x4& packed, rf_u32 scale_bits,
                          rf_u32 (&a)[rf_mma<FORMAT>::pairs]) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const rf_u32 w = packed.w[i];
        if constexpr (FORMAT == RF_FP16) {
            a[i] = w;
        } else if constexpr (FORMAT == RF_FP8_E4M3) {
            // Each byte into the high byte of its half, then E4M3's fields into binary16's
            // (the value x 2^-8, exact), then x 2^8.
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const rf_u32 spread = rf_prmt(w, 0u, h == 0 ? 0x1404u : 0x3424u);
                const rf_u32 placed = (spread & 0x80008000u) | ((spread >> 1) & 0x3f803f80u);
                a[2 * i + h] = rf_h2_mul(placed, RF_H2_256);
            }
        } else if constexpr (FORMAT == RF_INT8) {
            // c + 128 (the sign bit flipped) as the low byte of 1024's pattern, then - 1152.
            const rf_u32 u = w ^ 0x80808080u;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const rf_u32 biased = rf_prmt(u, 0x64646464u, h == 0 ? 0x4140u : 0x4342u);
                a[2 * i + h] = rf_h2_sub(biased, RF_H2_INT8_BIAS);
            }
        } else if constexpr (FORMAT == RF_INT4_G128) {
            // c + 8 as the low nibble of 1024's pattern, then - 1032.
            const rf_u32 u = w ^ 0x88888888u;
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const rf_u32 biased = ((u >> (4 * j)) & 0x000f000fu) | RF_H2_1024;
                a[4 * i + j] = rf_h2_sub(biased, RF_H2_INT4_BIAS);
            }
        } else if constexpr (FORMAT == RF_NVFP4) {
            // E2M1's magnitude bits to binary16's bits 9-11 and its sign to bit 15 (the
            // value x 2^-14), x 2^14, then x the block's UE4M3 scale (its binary16 value).
            const rf_u32 code = (scale_bits >> (8 * (i / 2))) & 0x7fu;
            const rf_u32 placed_scale = (code << 7) | (code << 23);
            const rf_u32 scale = rf_h2_mul(placed_scale, RF_H2_256);
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const rf_u32 magnitude = rf_shift(w, 9 - 4 * j) & 0x0e000e00u;
                const rf_u32 sign = rf_shift(w, 12 - 4 * j) & 0x80008000u;
                a[4 * i + j] = rf_h2_mul(rf_h2_mul(magnitude | sign, RF_H2_16384), scale);
            }
        }
    }
}

// The activations of one chunk's columns, paired as `rf_mma_weights` pairs the codes, from
// the chunk's x_loads 16-byte loads of FP16 activations.
template <int FORMAT>
RF_HD void rf_mma_activations(const rf_u32x4 (&loads)[rf_mma<FORMAT>::x_loads],
                              rf_u32 (&b)[rf_mma<FORMAT>::pairs]) {
#pragma unroll
    for (int p = 0; p < rf_mma<FORMAT>::pairs; ++p) {
        if constexpr (rf_element_bits(FORMAT) == 4) {
            // Pair 4i + j: activations 8i + j and 8i + j + 4, halves of words 4i + j / 2 and
            // 4i + 2 + j / 2 of the chunk's activations.
            const int i = p / 4, j = p % 4;
            const int lo = 4 * i + j / 2, hi = lo + 2;
            const rf_u32 wlo = loads[lo / 4].w[lo % 4], whi = loads[hi / 4].w[hi % 4];
            b[p] = rf_prmt(wlo, whi, j % 2 == 0 ? 0x5410u : 0x7632u);
        } else {
            b[p] = loads[p / 4].w[p % 4];
        }
    }
}

// The scale a tile's sums take before they are added up (INT4's group scale; the other
// formats add their tiles' sums directly).
RF_HD constexpr bool rf_mma_tile_scaled(int format) { return format == RF_INT4_G128; }

// The factor of the final sums: the tensor scale where the decoded values leave it out.
RF_HD float rf_mma_factor(int format, const float* tensor) {
    return (format == RF_FP8_E4M3 || format == RF_INT8 || format == RF_NVFP4) ? tensor[0] : 1.0f;
}

// What lane `lane` loads from memory for tile `tile` of the 16 rows from `row_base`: its
// chunk of rows g and g + 8 (rows past n read row n - 1 again; they are not written), and
// their scales for the chunk (INT4: the tile's group scale, FP16; NVFP4: the chunk's two
// UE4M3 block scales), so that no load waits behind the arithmetic.
template <int FORMAT>
struct rf_mma_loads {
    rf_u32x4 rows[2];
    rf_u32 scale_bits[2];
};

template <int FORMAT>
RF_HD void rf_mma_load(const rf_u8* __restrict__ elements, const rf_u8* __restrict__ scales,
                       unsigned int n, unsigned int k, unsigned int row_base,
                       unsigned int lane, unsigned int tile, rf_mma_loads<FORMAT>& out) {
    const unsigned int g = lane / 4, t = lane % 4;
    const unsigned long long col =
        ((unsigned long long)tile * RF_MMA_CHUNKS + t) * rf_mma<FORMAT>::codes;
    const unsigned long long row_bytes = (unsigned long long)k * rf_element_bits(FORMAT) / 8;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        unsigned int row = row_base + g + 8 * h;
        row = row < n ? row : n - 1;
        out.rows[h] =
            rf_load16_stream(elements + row * row_bytes + col * rf_element_bits(FORMAT) / 8);
        if constexpr (FORMAT == RF_INT4_G128) {
            // One FP16 scale per 128 codes: the tile's own.
            out.scale_bits[h] = rf_load2(scales + 2 * ((unsigned long long)row * (k / 128) + tile));
        } else if constexpr (FORMAT == RF_NVFP4) {
            // One byte per 16 codes; the chunk's first block index is even (k / 16 and the
            // chunk's 32 codes are), so the two bytes are 2-byte aligned.
            out.scale_bits[h] = rf_load2(scales + (unsigned long long)row * (k / 16) + col / 16);
        } else {
            out.scale_bits[h] = 0u;
        }
    }
}

// The FP16 pairs of one tile: rows g and g + 8, and the activations.
template <int FORMAT>
struct rf_mma_tile_regs {
    rf_u32 a[2][rf_mma<FORMAT>::pairs];
    rf_u32 b[rf_mma<FORMAT>::pairs];
};

// A tile's weights decoded, and its activations loaded (for g < m the chunk's columns of
// row g of x, else zeros: B's column g is empty) and paired alike. The activations are
// loaded here, not with the weights: they are a few kilobytes that every warp reads, kept
// in the L1 cache (the weights bypass it), and the registers go to weights in flight.
template <int FORMAT>
RF_HD void rf_mma_decode(const rf_mma_loads<FORMAT>& in, const rf_u16* __restrict__ x,
                         unsigned int m, unsigned int k, unsigned int lane, unsigned int tile,
                         rf_mma_tile_regs<FORMAT>& out) {
    const unsigned int g = lane / 4, t = lane % 4;
    const unsigned long long first =
        ((unsigned long long)tile * RF_MMA_CHUNKS + t) * rf_mma<FORMAT>::codes;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        rf_mma_weights<FORMAT>(in.rows[h], in.scale_bits[h], out.a[h]);
    }
    rf_u32x4 activations[rf_mma<FORMAT>::x_loads];
#pragma unroll
    for (int l = 0; l < rf_mma<FORMAT>::x_loads; ++l) {
        if (g < m) {
            activations[l] = rf_load16(
                reinterpret_cast<const rf_u8*>(x + (unsigned long long)g * k + first + 8 * l));
        } else {
            activations[l].w[0] = activations[l].w[1] = activations[l].w[2] =
                activations[l].w[3] = 0u;
        }
    }
    rf_mma_activations<FORMAT>(activations, out.b);
}

// The A and B registers of step s (s < pairs / 2) of a tile, in mma's order: A's rows g
// and g + 8 at logical columns 2t, 2t + 1 (pair 2s), then at 2t + 8, 2t + 9 (pair 2s + 1);
// B's rows 2t, 2t + 1 and 2t + 8, 2t + 9 of column g, the same pairs.
template <int FORMAT>
RF_HD void rf_mma_step(const rf_mma_tile_regs<FORMAT>& regs, int s, rf_u32 (&a)[4],
                       rf_u32 (&b)[2]) {
    a[0] = regs.a[0][2 * s];
    a[1] = regs.a[1][2 * s];
    a[2] = regs.a[0][2 * s + 1];
    a[3] = regs.a[1][2 * s + 1];
    b[0] = regs.b[2 * s];
    b[1] = regs.b[2 * s + 1];
}

// The tile's group scales of rows g and g + 8 (INT4; 1 otherwise).
template <int FORMAT>
RF_HD void rf_mma_tile_scales(const rf_mma_loads<FORMAT>& in, float (&f)[2]) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        f[h] = rf_mma_tile_scaled(FORMAT) ? rf_f16_to_f32((rf_u16)in.scale_bits[h]) : 1.0f;
    }
}
