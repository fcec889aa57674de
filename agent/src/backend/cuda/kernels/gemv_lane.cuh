// rooflinr: what one lane of a GEMV warp computes, compiled for the GPU (NVRTC, after
// decode.cuh) and for the host (the agent's build script), where the tests run every lane
// of every row and check the sums against the model crate's dequantised weights. The
// kernels in gemv.cu add only the warp reduction and the launch.
//
// y[i][row] = sum_k x[i][k] w[row][k] for activation rows i < M. One warp per weight row;
// lane L takes the 16-byte chunks L, L + 32, L + 64... (vectorised) or the elements
// L, L + 32... (any shape), and returns its partial sums; the warp adds them up.
#pragma once

#define RF_MAX_M 8
#define RF_UNROLL 4

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

// The dot products of one 16-byte chunk of weight codes with M activation rows, added
// into acc. `col` is the chunk's first column; `block_index` its first block's index in
// the scale array (row-major).
template <int FORMAT, int M>
RF_HD void rf_chunk(rf_u32x4 packed, const rf_u8* __restrict__ scales,
                    const float* __restrict__ tensor, const rf_u16* __restrict__ x,
                    unsigned int k, unsigned int col, unsigned long long block_index,
                    float (&acc)[M]) {
    const int bits = rf_element_bits(FORMAT);
    const int codes_per_word = 32 / bits;
    const int per_chunk = 4 * codes_per_word;
    const int block = rf_block(FORMAT);
    // Codes that share one factor inside this chunk (a whole chunk when the block is at
    // least a chunk, or there is no block).
    const int run = (block == 0 || block >= per_chunk) ? per_chunk : block;
#pragma unroll
    for (int r = 0; r < per_chunk / run; ++r) {
        float partial[M];
#pragma unroll
        for (int i = 0; i < M; ++i) {
            partial[i] = 0.0f;
        }
#pragma unroll
        for (int j = r * run; j < (r + 1) * run; ++j) {
            float w = rf_element(FORMAT, rf_code_in_word(packed.w[j / codes_per_word],
                                                          j % codes_per_word, bits));
#pragma unroll
            for (int i = 0; i < M; ++i) {
                partial[i] = fmaf(w, rf_x(x, (unsigned long long)i * k + col + j), partial[i]);
            }
        }
        float factor = 1.0f;
        if (block != 0) {
            factor = rf_block_scale(FORMAT, scales, block_index + (block >= per_chunk ? 0 : r),
                                    tensor);
        }
#pragma unroll
        for (int i = 0; i < M; ++i) {
            acc[i] = fmaf(partial[i], factor, acc[i]);
        }
    }
}

// Lane `lane`'s partial sums of weight row `row` (k a multiple of the codes per 16 bytes,
// so every row starts on a 16-byte boundary). The tensor factor is applied after the
// warp's sum.
template <int FORMAT, int M>
RF_HD void rf_gemv_vec_lane(const rf_u8* __restrict__ elements, const rf_u8* __restrict__ scales,
                            const float* __restrict__ tensor, const rf_u16* __restrict__ x,
                            unsigned int row, unsigned int lane, unsigned int k,
                            float (&acc)[M]) {
    const int per_chunk = 128 / rf_element_bits(FORMAT);
    const int block = rf_block(FORMAT);
    const unsigned int chunks = k / per_chunk;
    const rf_u8* w = elements + 16ull * ((unsigned long long)row * chunks);
    const unsigned long long blocks_per_row = block ? (k + block - 1) / block : 0;
#pragma unroll
    for (int i = 0; i < M; ++i) {
        acc[i] = 0.0f;
    }
    unsigned int c = lane;
    // RF_UNROLL loads in flight per lane, then their arithmetic.
    for (; c + 32 * (RF_UNROLL - 1) < chunks; c += 32 * RF_UNROLL) {
        rf_u32x4 packed[RF_UNROLL];
#pragma unroll
        for (int u = 0; u < RF_UNROLL; ++u) {
            packed[u] = rf_load16(w + 16ull * (c + 32 * u));
        }
#pragma unroll
        for (int u = 0; u < RF_UNROLL; ++u) {
            unsigned long long first = (unsigned long long)(c + 32 * u) * per_chunk;
            rf_chunk<FORMAT, M>(packed[u], scales, tensor, x, k, (unsigned int)first,
                                block ? row * blocks_per_row + first / block : 0, acc);
        }
    }
    for (; c < chunks; c += 32) {
        unsigned long long first = (unsigned long long)c * per_chunk;
        rf_chunk<FORMAT, M>(rf_load16(w + 16ull * c), scales, tensor, x, k, (unsigned int)first,
                            block ? row * blocks_per_row + first / block : 0, acc);
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
