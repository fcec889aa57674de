// rooflinr: GEMV and small-batch GEMM, y[m][n] = sum_k x[m][k] w[n][k], with the weights in
// the model crate's packed bytes, FP16 activations and FP32 accumulation. Compiled by
// NVRTC after decode.cuh and gemv_lane.cuh (the agent puts the texts together).
//
// Each row's bytes stream through one warp and its sum ends in a warp reduction (no shared
// memory, no atomics). Two kernels per format:
// - `rf_gemv_<format>_m<M>` (M = 1..8 rows of activations): a warp takes RF_ROWS weight
//   rows; each lane loads 16 bytes of packed weights at a time from each (128-bit loads,
//   one or two per row in flight) and reads them once for all M rows, and loads each
//   activation it needs once, 8 at a time, for all RF_ROWS rows. (Activations loaded per
//   element and per row made the first H200 run issue-bound: 2-byte loads scattered
//   across the warp, 21 % of the read bandwidth for FP8 and 6 % for 4-bit formats.)
//   Needs every weight row to start on a 16-byte boundary: k a multiple of the codes in
//   16 bytes (8 FP16, 16 FP8/INT8, 32 FP4/INT4).
// - `rf_gemv_<format>_any` (any k, m <= 8): element by element through `rf_value`, for
//   the shapes the fast kernel does not take.
// - `rf_gemv_<format>_mma` (k a multiple of a tile's 4 chunks, m <= 8; FP16, FP8, INT8,
//   INT4 and NVFP4, compute capability 8.0 and later): tensor cores. A block of 1 to
//   RF_MMA_WARPS warps takes 16 weight rows; its W warps take every W-th tile of the
//   columns and add their sums in shared memory. gemv_lane.cuh says how.
// What each lane computes is in gemv_lane.cuh, tested on the host.

// Sum over the warp; every lane gets it.
__device__ __forceinline__ float rf_warp_sum(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    }
    return v;
}

template <int FORMAT, int M>
__device__ __forceinline__ void rf_gemv_vec(const rf_u8* __restrict__ elements,
                                            const rf_u8* __restrict__ scales,
                                            const float* __restrict__ tensor,
                                            const rf_u16* __restrict__ x, float* __restrict__ y,
                                            unsigned int n, unsigned int k) {
    const unsigned int first_row = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * RF_ROWS;
    const unsigned int lane = threadIdx.x % 32;
    if (first_row >= n) {
        return;  // whole warps leave together: rows are warp-uniform
    }
    float acc[RF_ROWS][M];
    rf_gemv_vec_lane<FORMAT, M>(elements, scales, tensor, x, first_row, n, lane, k, acc);
    const float factor = rf_tensor_scale(FORMAT, tensor);
#pragma unroll
    for (int r = 0; r < RF_ROWS; ++r) {
#pragma unroll
        for (int i = 0; i < M; ++i) {
            float sum = rf_warp_sum(acc[r][i]);
            if (lane == 0 && first_row + r < n) {
                y[(unsigned long long)i * n + first_row + r] = sum * factor;
            }
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
    rf_gemv_any_lane<FORMAT>(elements, scales, tensor, x, m, row, lane, k, acc);
#pragma unroll
    for (int i = 0; i < RF_MAX_M; ++i) {
        float sum = rf_warp_sum(acc[i]);
        if (lane == 0 && i < (int)m) {
            y[(unsigned long long)i * n + row] = sum;
        }
    }
}

// c += a b for one m16n8k16 step: FP16 inputs, FP32 sums, the whole warp together.
__device__ __forceinline__ void rf_mma_16816(float (&c)[4], const rf_u32 (&a)[4],
                                             const rf_u32 (&b)[2]) {
#if __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    __trap();  // the launcher picks these kernels only where tensor cores take FP16
#endif
}

// One tile's steps added into acc: directly, or (INT4) through the tile's own sums times
// the group scales of rows g and g + 8.
template <int FORMAT>
__device__ __forceinline__ void rf_mma_tile(const rf_mma_loads<FORMAT>& in,
                                            const rf_u16* __restrict__ x, unsigned int m,
                                            unsigned int k, unsigned int lane,
                                            unsigned int tile, float (&acc)[4]) {
    rf_mma_tile_regs<FORMAT> regs;
    rf_mma_decode<FORMAT>(in, x, m, k, lane, tile, regs);
    rf_u32 a[4], b[2];
    if constexpr (rf_mma_tile_scaled(FORMAT)) {
        float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
        for (int s = 0; s < rf_mma<FORMAT>::pairs / 2; ++s) {
            rf_mma_step<FORMAT>(regs, s, a, b);
            rf_mma_16816(c, a, b);
        }
        float f[2];
        rf_mma_tile_scales<FORMAT>(in, f);
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            acc[i] = fmaf(f[i / 2], c[i], acc[i]);
        }
    } else {
#pragma unroll
        for (int s = 0; s < rf_mma<FORMAT>::pairs / 2; ++s) {
            rf_mma_step<FORMAT>(regs, s, a, b);
            rf_mma_16816(acc, a, b);
        }
    }
}

// A block of blockDim.x / 32 warps (at most RF_MMA_WARPS) takes 16 weight rows.
template <int FORMAT>
__device__ __forceinline__ void rf_gemv_mma(const rf_u8* __restrict__ elements,
                                            const rf_u8* __restrict__ scales,
                                            const float* __restrict__ tensor,
                                            const rf_u16* __restrict__ x, float* __restrict__ y,
                                            unsigned int m, unsigned int n, unsigned int k) {
    __shared__ float partial[RF_MMA_WARPS][32][4];
    const unsigned int warps = blockDim.x / 32;
    const unsigned int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned int row_base = blockIdx.x * 16;
    const unsigned int tiles = k / (RF_MMA_CHUNKS * rf_mma<FORMAT>::codes);
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    unsigned int tile = warp;
    // RF_MMA_DEPTH tiles' weights and scales in flight, then their arithmetic; the rest
    // one by one.
    for (; tile + (RF_MMA_DEPTH - 1) * warps < tiles; tile += RF_MMA_DEPTH * warps) {
        rf_mma_loads<FORMAT> loads[RF_MMA_DEPTH];
#pragma unroll
        for (int d = 0; d < RF_MMA_DEPTH; ++d) {
            rf_mma_load<FORMAT>(elements, scales, n, k, row_base, lane, tile + d * warps,
                                loads[d]);
        }
#pragma unroll
        for (int d = 0; d < RF_MMA_DEPTH; ++d) {
            rf_mma_tile<FORMAT>(loads[d], x, m, k, lane, tile + d * warps, acc);
        }
    }
    for (; tile < tiles; tile += warps) {
        rf_mma_loads<FORMAT> last;
        rf_mma_load<FORMAT>(elements, scales, n, k, row_base, lane, tile, last);
        rf_mma_tile<FORMAT>(last, x, m, k, lane, tile, acc);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        partial[warp][lane][i] = acc[i];
    }
    __syncthreads();
    if (warp != 0) {
        return;
    }
    const unsigned int g = lane / 4, t = lane % 4;
    const float factor = rf_mma_factor(FORMAT, tensor);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        float sum = partial[0][lane][i];
        for (unsigned int w = 1; w < warps; ++w) {
            sum += partial[w][lane][i];
        }
        // C's rows g and g + 8 are weight rows; its columns 2t and 2t + 1 activation rows.
        const unsigned int row = row_base + g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
        if (row < n && col < m) {
            y[(unsigned long long)col * n + row] = sum * factor;
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

#define RF_GEMV_MMA(NAME, FORMAT)                                                          \
    extern "C" __global__ void __launch_bounds__(RF_MMA_WARPS * 32, 2)                     \
        rf_gemv_##NAME##_mma(RF_GEMV_ARGS, unsigned int m, unsigned int n, unsigned int k) { \
        rf_gemv_mma<FORMAT>(elements, scales, tensor, x, y, m, n, k);                      \
    }

RF_GEMV_FORMAT(fp16, RF_FP16)
RF_GEMV_FORMAT(bf16, RF_BF16)
RF_GEMV_FORMAT(fp8_e4m3, RF_FP8_E4M3)
RF_GEMV_FORMAT(int8, RF_INT8)
RF_GEMV_FORMAT(int4_g128, RF_INT4_G128)
RF_GEMV_FORMAT(nvfp4, RF_NVFP4)
RF_GEMV_FORMAT(mxfp4, RF_MXFP4)

RF_GEMV_MMA(fp16, RF_FP16)
RF_GEMV_MMA(fp8_e4m3, RF_FP8_E4M3)
RF_GEMV_MMA(int8, RF_INT8)
RF_GEMV_MMA(int4_g128, RF_INT4_G128)
RF_GEMV_MMA(nvfp4, RF_NVFP4)
