// rooflinr: GEMV and small-batch GEMM, y[m][n] = sum_k x[m][k] w[n][k], with the weights in
// the model crate's packed bytes, FP16 activations and FP32 accumulation. Compiled by
// NVRTC after decode.cuh (the agent puts the two texts together).
//
// One warp per output row, so each row's bytes stream through one warp and its sum ends in
// a warp reduction (no shared memory, no atomics). Two kernels per format:
// - `rf_gemv_<format>_m<M>` (M = 1..8 rows of activations): each lane loads 16 bytes of
//   packed weights at a time (one 128-bit load, four in flight per lane) and reads them
//   once for all M rows. Needs every weight row to start on a 16-byte boundary: k a
//   multiple of the codes in 16 bytes (8 FP16, 16 FP8/INT8, 32 FP4/INT4).
// - `rf_gemv_<format>_any` (any k, m <= 8): element by element through `rf_value`, for
//   the shapes the fast kernel does not take.

#define RF_MAX_M 8
#define RF_UNROLL 4

// Sum over the warp; every lane gets it.
__device__ __forceinline__ float rf_warp_sum(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    }
    return v;
}

// FP16 activation `x[i]` as FP32.
__device__ __forceinline__ float rf_x(const rf_u16* __restrict__ x, unsigned long long i) {
    return rf_f16_to_f32(__ldg(x + i));
}

// The dot products of one 16-byte chunk of weight codes with M activation rows, added
// into acc. `col` is the chunk's first column; `block_index` its first block's index in
// the scale array (row-major).
template <int FORMAT, int M>
__device__ __forceinline__ void rf_chunk(uint4 packed, const rf_u8* __restrict__ scales,
                                         const float* __restrict__ tensor,
                                         const rf_u16* __restrict__ x, unsigned int k,
                                         unsigned int col, unsigned long long block_index,
                                         float (&acc)[M]) {
    const int bits = rf_element_bits(FORMAT);
    const int codes_per_word = 32 / bits;
    const int per_chunk = 4 * codes_per_word;
    const int block = rf_block(FORMAT);
    // Codes that share one factor inside this chunk (a whole chunk when the block is at
    // least a chunk, or there is no block).
    const int run = (block == 0 || block >= per_chunk) ? per_chunk : block;
    const rf_u32 words[4] = {packed.x, packed.y, packed.z, packed.w};
#pragma unroll
    for (int r = 0; r < per_chunk / run; ++r) {
        float partial[M];
#pragma unroll
        for (int i = 0; i < M; ++i) {
            partial[i] = 0.0f;
        }
#pragma unroll
        for (int j = r * run; j < (r + 1) * run; ++j) {
            float w = rf_element(FORMAT, rf_code_in_word(words[j / codes_per_word],
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

template <int FORMAT, int M>
__device__ __forceinline__ void rf_gemv_vec(const rf_u8* __restrict__ elements,
                                            const rf_u8* __restrict__ scales,
                                            const float* __restrict__ tensor,
                                            const rf_u16* __restrict__ x, float* __restrict__ y,
                                            unsigned int n, unsigned int k) {
    const int per_chunk = 128 / rf_element_bits(FORMAT);
    const int block = rf_block(FORMAT);
    const unsigned int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const unsigned int lane = threadIdx.x % 32;
    if (row >= n) {
        return;  // whole warps leave together: rows are warp-uniform
    }
    const unsigned int chunks = k / per_chunk;
    const uint4* w = reinterpret_cast<const uint4*>(elements) + (unsigned long long)row * chunks;
    const unsigned long long blocks_per_row = block ? (k + block - 1) / block : 0;
    float acc[M];
#pragma unroll
    for (int i = 0; i < M; ++i) {
        acc[i] = 0.0f;
    }
    unsigned int c = lane;
    // RF_UNROLL loads in flight per lane, then their arithmetic.
    for (; c + 32 * (RF_UNROLL - 1) < chunks; c += 32 * RF_UNROLL) {
        uint4 packed[RF_UNROLL];
#pragma unroll
        for (int u = 0; u < RF_UNROLL; ++u) {
            packed[u] = __ldg(w + c + 32 * u);
        }
#pragma unroll
        for (int u = 0; u < RF_UNROLL; ++u) {
            unsigned int cu = c + 32 * u;
            unsigned long long first = (unsigned long long)cu * per_chunk;
            rf_chunk<FORMAT, M>(packed[u], scales, tensor, x, k, (unsigned int)first,
                                block ? row * blocks_per_row + first / block : 0, acc);
        }
    }
    for (; c < chunks; c += 32) {
        unsigned long long first = (unsigned long long)c * per_chunk;
        rf_chunk<FORMAT, M>(__ldg(w + c), scales, tensor, x, k, (unsigned int)first,
                            block ? row * blocks_per_row + first / block : 0, acc);
    }
    const float factor = rf_tensor_scale(FORMAT, tensor);
#pragma unroll
    for (int i = 0; i < M; ++i) {
        float sum = rf_warp_sum(acc[i]);
        if (lane == 0) {
            y[(unsigned long long)i * n + row] = sum * factor;
        }
    }
}

template <int FORMAT>
__device__ __forceinline__ void rf_gemv_any(const rf_u8* __restrict__ elements,
                                            const rf_u8* __restrict__ scales,
                                            const float* __restrict__ tensor,
                                            const rf_u16* __restrict__ x, float* __restrict__ y,
                                            unsigned int m, unsigned int n, unsigned int k) {
    const unsigned int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const unsigned int lane = threadIdx.x % 32;
    if (row >= n) {
        return;
    }
    float acc[RF_MAX_M];
#pragma unroll
    for (int i = 0; i < RF_MAX_M; ++i) {
        acc[i] = 0.0f;
    }
    for (unsigned int col = lane; col < k; col += 32) {
        float w = rf_value(FORMAT, elements, scales, tensor, row, col, k);
#pragma unroll
        for (int i = 0; i < RF_MAX_M; ++i) {
            if (i < m) {
                acc[i] = fmaf(w, rf_x(x, (unsigned long long)i * k + col), acc[i]);
            }
        }
    }
#pragma unroll
    for (int i = 0; i < RF_MAX_M; ++i) {
        float sum = rf_warp_sum(acc[i]);
        if (lane == 0 && i < m) {
            y[(unsigned long long)i * n + row] = sum;
        }
    }
}

#define RF_GEMV_ARGS                                                                       \
    const rf_u8 *__restrict__ elements, const rf_u8 *__restrict__ scales,                  \
        const float *__restrict__ tensor, const rf_u16 *__restrict__ x,                    \
        float *__restrict__ y
#define RF_GEMV_VEC(NAME, FORMAT, M)                                                       \
    extern "C" __global__ void rf_gemv_##NAME##_m##M(RF_GEMV_ARGS, unsigned int n,         \
                                                     unsigned int k) {                     \
        rf_gemv_vec<FORMAT, M>(elements, scales, tensor, x, y, n, k);                      \
    }
#define RF_GEMV_FORMAT(NAME, FORMAT)                                                       \
    RF_GEMV_VEC(NAME, FORMAT, 1)                                                           \
    RF_GEMV_VEC(NAME, FORMAT, 2)                                                           \
    RF_GEMV_VEC(NAME, FORMAT, 3)                                                           \
    RF_GEMV_VEC(NAME, FORMAT, 4)                                                           \
    RF_GEMV_VEC(NAME, FORMAT, 5)                                                           \
    RF_GEMV_VEC(NAME, FORMAT, 6)                                                           \
    RF_GEMV_VEC(NAME, FORMAT, 7)                                                           \
    RF_GEMV_VEC(NAME, FORMAT, 8)                                                           \
    extern "C" __global__ void rf_gemv_##NAME##_any(RF_GEMV_ARGS, unsigned int m,          \
                                                    unsigned int n, unsigned int k) {      \
        rf_gemv_any<FORMAT>(elements, scales, tensor, x, y, m, n, k);                      \
    }

RF_GEMV_FORMAT(fp16, RF_FP16)
RF_GEMV_FORMAT(bf16, RF_BF16)
RF_GEMV_FORMAT(fp8_e4m3, RF_FP8_E4M3)
RF_GEMV_FORMAT(int8, RF_INT8)
RF_GEMV_FORMAT(int4_g128, RF_INT4_G128)
RF_GEMV_FORMAT(nvfp4, RF_NVFP4)
RF_GEMV_FORMAT(mxfp4, RF_MXFP4)
