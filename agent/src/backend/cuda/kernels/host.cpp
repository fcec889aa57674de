// rooflinr: the kernels' host-and-device headers compiled for the host, with exported
// wrappers the agent's tests call: decoding checked bit for bit against the model crate,
// and every lane of the GEMV kernels run on the CPU and checked against FP64 sums.
#include <math.h>

#include "decode.cuh"
#include "gemv_lane.cuh"

extern "C" {

float rf_host_value(int format, const rf_u8* elements, const rf_u8* scales, const float* tensor,
                    unsigned long long row, unsigned long long col, unsigned long long cols) {
    return rf_value(format, elements, scales, tensor, row, col, cols);
}

rf_u32 rf_host_code_in_word(rf_u32 word, int j, int bits) { return rf_code_in_word(word, j, bits); }

float rf_host_e2m1(rf_u32 code) { return rf_e2m1_to_f32(code); }
float rf_host_e4m3(rf_u32 code) { return rf_e4m3_to_f32(code); }
float rf_host_ue4m3(rf_u32 code) { return rf_ue4m3_to_f32(code); }
float rf_host_e8m0(rf_u32 code) { return rf_e8m0_to_f32(code); }
float rf_host_f16(rf_u16 code) { return rf_f16_to_f32(code); }
float rf_host_bf16(rf_u16 code) { return rf_bf16_to_f32(code); }
int rf_host_rows_per_warp(void) { return RF_ROWS; }
float rf_host_element(int format, rf_u32 code) { return rf_element(format, code); }
float rf_host_element_fast(int format, rf_u32 code) { return rf_element_fast(format, code); }
float rf_host_finite_f16(rf_u16 code) { return rf_finite_f16_to_f32(code); }

}  // extern "C"

// Every row of y = x W^T as the GPU computes it: each warp's rows, its 32 lanes, then their sum
// (in lane order; the GPU's butterfly adds in another order, within the same bound).
template <int FORMAT, int M>
static void rows_vec(const rf_u8* elements, const rf_u8* scales, const float* tensor,
                     const rf_u16* x, float* y, unsigned int n, unsigned int k) {
    for (unsigned int first_row = 0; first_row < n; first_row += RF_ROWS) {
        float sum[RF_ROWS][M] = {};
        for (unsigned int lane = 0; lane < 32; ++lane) {
            float acc[RF_ROWS][M];
            rf_gemv_vec_lane<FORMAT, M>(elements, scales, tensor, x, first_row, n, lane, k, acc);
            for (int r = 0; r < RF_ROWS; ++r) {
                for (int i = 0; i < M; ++i) {
                    sum[r][i] += acc[r][i];
                }
            }
        }
        for (int r = 0; r < RF_ROWS && first_row + r < n; ++r) {
            for (int i = 0; i < M; ++i) {
                y[(unsigned long long)i * n + first_row + r] =
                    sum[r][i] * rf_tensor_scale(FORMAT, tensor);
            }
        }
    }
}

template <int FORMAT>
static void rows_any(const rf_u8* elements, const rf_u8* scales, const float* tensor,
                     const rf_u16* x, float* y, unsigned int m, unsigned int n, unsigned int k) {
    for (unsigned int row = 0; row < n; ++row) {
        float sum[RF_MAX_M] = {};
        for (unsigned int lane = 0; lane < 32; ++lane) {
            float acc[RF_MAX_M];
            rf_gemv_any_lane<FORMAT>(elements, scales, tensor, x, m, row, lane, k, acc);
            for (int i = 0; i < RF_MAX_M; ++i) {
                sum[i] += acc[i];
            }
        }
        for (unsigned int i = 0; i < m; ++i) {
            y[(unsigned long long)i * n + row] = sum[i];
        }
    }
}

template <int FORMAT>
static int rows_format(int vectorised, unsigned int m, const rf_u8* e, const rf_u8* s,
                       const float* t, const rf_u16* x, float* y, unsigned int n,
                       unsigned int k) {
    if (!vectorised) {
        if (m < 1 || m > RF_MAX_M) return 1;
        rows_any<FORMAT>(e, s, t, x, y, m, n, k);
        return 0;
    }
    switch (m) {
    case 1: rows_vec<FORMAT, 1>(e, s, t, x, y, n, k); return 0;
    case 2: rows_vec<FORMAT, 2>(e, s, t, x, y, n, k); return 0;
    case 3: rows_vec<FORMAT, 3>(e, s, t, x, y, n, k); return 0;
    case 4: rows_vec<FORMAT, 4>(e, s, t, x, y, n, k); return 0;
    case 5: rows_vec<FORMAT, 5>(e, s, t, x, y, n, k); return 0;
    case 6: rows_vec<FORMAT, 6>(e, s, t, x, y, n, k); return 0;
    case 7: rows_vec<FORMAT, 7>(e, s, t, x, y, n, k); return 0;
    case 8: rows_vec<FORMAT, 8>(e, s, t, x, y, n, k); return 0;
    default: return 1;
    }
}

extern "C" int rf_host_gemv(int format, int vectorised, unsigned int m, const rf_u8* elements,
                            const rf_u8* scales, const float* tensor, const rf_u16* x, float* y,
                            unsigned int n, unsigned int k) {
    switch (format) {
    case RF_FP16: return rows_format<RF_FP16>(vectorised, m, elements, scales, tensor, x, y, n, k);
    case RF_BF16: return rows_format<RF_BF16>(vectorised, m, elements, scales, tensor, x, y, n, k);
    case RF_FP8_E4M3:
        return rows_format<RF_FP8_E4M3>(vectorised, m, elements, scales, tensor, x, y, n, k);
    case RF_INT8: return rows_format<RF_INT8>(vectorised, m, elements, scales, tensor, x, y, n, k);
    case RF_INT4_G128:
        return rows_format<RF_INT4_G128>(vectorised, m, elements, scales, tensor, x, y, n, k);
    case RF_NVFP4: return rows_format<RF_NVFP4>(vectorised, m, elements, scales, tensor, x, y, n, k);
    case RF_MXFP4: return rows_format<RF_MXFP4>(vectorised, m, elements, scales, tensor, x, y, n, k);
    default: return 1;
    }
}
