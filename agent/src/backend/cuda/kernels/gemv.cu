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
