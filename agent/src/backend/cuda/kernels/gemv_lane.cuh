// rooflinr: what one lane of a GEMV warp computes, compiled for the GPU (NVRTC, after
// decode.cuh) and for the host (the agent's build script), where the tests run every lane
// of every row and check the sums against the model crate's dequantised weights. The
// kernels in gemv.cu add only the warp reduction and the launch.
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
