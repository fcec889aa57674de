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
int rf_host_mma_warps(void) { return RF_MMA_WARPS; }
int rf_host_mma_chunks(void) { return RF_MMA_CHUNKS; }
int rf_host_mma_reads(int format) { return rf_mma_reads(format); }
rf_u16 rf_host_f32_to_f16_bits(float f) { return rf_host_f32_to_f16(f); }
rf_u32 rf_host_h2_mul(rf_u32 a, rf_u32 b) { return rf_h2_mul(a, b); }
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

// One mma.sync m16n8k16 step of a warp, from its 32 lanes' registers, by the PTX ISA's
// fragment layout ("Matrix Fragments for mma.m16n8k16 with floating point type"): lane L
// (g = L / 4, t = L % 4) holds A[g][2t..2t+1] (a[0]), A[g+8][2t..] (a[1]),
// A[g][2t+8..2t+9] (a[2]), A[g+8][2t+8..] (a[3]); B[2t..2t+1][g] (b[0]) and B[2t+8..][g]
// (b[1]); C[g][2t], C[g][2t+1], C[g+8][2t], C[g+8][2t+1]. The products are exact; each sum
// of 16 is formed in FP64 and added to C in FP32 (the tensor cores round differently,
// within the same bound).
static void mma_16816(float c[32][4], const rf_u32 a[32][4], const rf_u32 b[32][2]) {
    float am[16][16], bm[16][8];
    const auto half = [](rf_u32 reg, int h) { return rf_f16_to_f32((rf_u16)(reg >> (16 * h))); };
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, t = lane % 4;
        for (int h = 0; h < 2; ++h) {
            am[g][2 * t + h] = half(a[lane][0], h);
            am[g + 8][2 * t + h] = half(a[lane][1], h);
            am[g][2 * t + 8 + h] = half(a[lane][2], h);
            am[g + 8][2 * t + 8 + h] = half(a[lane][3], h);
            bm[2 * t + h][g] = half(b[lane][0], h);
            bm[2 * t + 8 + h][g] = half(b[lane][1], h);
        }
    }
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, t = lane % 4;
        for (int i = 0; i < 4; ++i) {
            const int row = g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
            double dot = 0.0;
            for (int kk = 0; kk < 16; ++kk) {
                dot += (double)am[row][kk] * (double)bm[kk][col];
            }
            c[lane][i] = (float)((double)c[lane][i] + dot);
        }
    }
}

// Every 16-row tile as the tensor-core kernel computes it with `warps` warps a block: each
// warp's tiles, every step of every lane, the warps' sums added in warp order, then the
// final factor.
template <int FORMAT>
static void rows_mma(const rf_u8* elements, const rf_u8* scales, const float* tensor,
                     const rf_u16* x, float* y, unsigned int m, unsigned int n, unsigned int k,
                     unsigned int warps) {
    const unsigned int tiles = k / (RF_MMA_CHUNKS * rf_mma<FORMAT>::codes);
    for (unsigned int row_base = 0; row_base < n; row_base += 16) {
        float sum[32][4] = {};
        for (unsigned int warp = 0; warp < warps; ++warp) {
            float acc[32][4] = {};
            for (unsigned int tile = warp; tile < tiles; tile += warps) {
                rf_mma_loads<FORMAT> loads[32];
                rf_mma_tile_regs<FORMAT> regs[32];
                for (unsigned int lane = 0; lane < 32; ++lane) {
                    rf_mma_load<FORMAT>(elements, scales, n, k, row_base, lane, tile, loads[lane]);
                    rf_mma_decode<FORMAT>(loads[lane], x, m, k, lane, tile, regs[lane]);
                }
                float c[32][4] = {};
                for (int s = 0; s < rf_mma<FORMAT>::pairs / 2; ++s) {
                    rf_u32 a[32][4], b[32][2];
                    for (int lane = 0; lane < 32; ++lane) {
                        rf_mma_step<FORMAT>(regs[lane], s, a[lane], b[lane]);
                    }
                    mma_16816(rf_mma_tile_scaled(FORMAT) ? c : acc, a, b);
                }
                if (rf_mma_tile_scaled(FORMAT)) {
                    for (unsigned int lane = 0; lane < 32; ++lane) {
                        float f[2];
                        rf_mma_tile_scales<FORMAT>(loads[lane], f);
                        for (int i = 0; i < 4; ++i) {
                            acc[lane][i] = fmaf(f[i / 2], c[lane][i], acc[lane][i]);
                        }
                    }
                }
            }
            for (int lane = 0; lane < 32; ++lane) {
                for (int i = 0; i < 4; ++i) {
                    sum[lane][i] += acc[lane][i];
                }
            }
        }
        for (unsigned int lane = 0; lane < 32; ++lane) {
            const unsigned int g = lane / 4, t = lane % 4;
            for (int i = 0; i < 4; ++i) {
                const unsigned int row = row_base + g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
                if (row < n && col < m) {
                    y[(unsigned long long)col * n + row] = sum[lane][i] * rf_mma_factor(FORMAT, tensor);
                }
            }
        }
    }
}

// Which kernel the host runs, as the agent's `GemvKind` numbers them.
#define RF_KIND_ANY 0
#define RF_KIND_VECTORISED 1
#define RF_KIND_MMA 2

template <int FORMAT>
static int rows_format(int kind, unsigned int warps, unsigned int m, const rf_u8* e, const rf_u8* s,
                       const float* t, const rf_u16* x, float* y, unsigned int n,
                       unsigned int k) {
    if (m < 1 || m > RF_MAX_M) return 1;
    if (kind == RF_KIND_ANY) {
        rows_any<FORMAT>(e, s, t, x, y, m, n, k);
        return 0;
    }
    if (kind == RF_KIND_MMA) {
        if constexpr (rf_mma_reads(FORMAT)) {
            if (warps < 1 || warps > RF_MMA_WARPS) return 1;
            rows_mma<FORMAT>(e, s, t, x, y, m, n, k, warps);
            return 0;
        }
        return 1;
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

extern "C" int rf_host_gemv(int format, int kind, unsigned int warps, unsigned int m, const rf_u8* elements,
                            const rf_u8* scales, const float* tensor, const rf_u16* x, float* y,
                            unsigned int n, unsigned int k) {
    switch (format) {
    case RF_FP16: return rows_format<RF_FP16>(kind, warps, m, elements, scales, tensor, x, y, n, k);
    case RF_BF16: return rows_format<RF_BF16>(kind, warps, m, elements, scales, tensor, x, y, n, k);
    case RF_FP8_E4M3:
        return rows_format<RF_FP8_E4M3>(kind, warps, m, elements, scales, tensor, x, y, n, k);
    case RF_INT8: return rows_format<RF_INT8>(kind, warps, m, elements, scales, tensor, x, y, n, k);
    case RF_INT4_G128:
        return rows_format<RF_INT4_G128>(kind, warps, m, elements, scales, tensor, x, y, n, k);
    case RF_NVFP4: return rows_format<RF_NVFP4>(kind, warps, m, elements, scales, tensor, x, y, n, k);
    case RF_MXFP4: return rows_format<RF_MXFP4>(kind, warps, m, elements, scales, tensor, x, y, n, k);
    default: return 1;
    }
}
