// rooflinr: the decoding of every packed weight format the GPU kernels read, written once.
//
// The same text is compiled for the GPU (NVRTC, by the agent) and for the host (the `cc`
// crate, in the agent's build script), and the host build is tested bit-exact against the
// model crate's own decoders (`Quantized::dequantize`), so what the GPU runs is checked on
// every machine, GPU or not.
//
// Layouts are the model crate's (`rooflinr_model::quant::Quantized`): element codes as one
// little-endian bit stream over the row-major tensor (two FP4/INT4 codes a byte, first in
// the low nibble); block scales one per block along a row, row-major; per-tensor FP32
// scales in `tensor`.
//
// Minifloats are decoded by moving their bits into an IEEE binary16 pattern and converting
// that to FP32 (exact): a format with e exponent bits of bias b placed at binary16's
// exponent position reads as its value times 2^(b - 15), subnormals included. The kernels
// fold that power of two into the block or tensor scale, so each element costs a shift
// and a conversion. Sources: OCP Microscaling Formats (MX) v1.0, section 5.3 (E2M1, E8M0);
// OCP 8-bit Floating Point v1.0 (E4M3); NVIDIA PTX ISA, "Floating point data types"
// (NVFP4's UE4M3 block scale).
#pragma once

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define RF_HD __host__ __device__ __forceinline__
typedef unsigned char rf_u8;
typedef signed char rf_i8;
typedef unsigned short rf_u16;
typedef unsigned int rf_u32;
typedef int rf_i32;
#else
#include <stdint.h>
#include <string.h>
#define RF_HD static inline
typedef uint8_t rf_u8;
typedef int8_t rf_i8;
typedef uint16_t rf_u16;
typedef uint32_t rf_u32;
typedef int32_t rf_i32;
#endif

// ---- bit casts and the two IEEE conversions everything else goes through -------------

RF_HD float rf_f32_from_bits(rf_u32 bits) {
#ifdef __CUDA_ARCH__
    return __uint_as_float(bits);
#else
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
#endif
}

// IEEE binary16 bits to FP32, exactly (subnormals, infinities and NaN included).
RF_HD float rf_f16_to_f32(rf_u16 h) {
#ifdef __CUDA_ARCH__
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    rf_u32 sign = (rf_u32)(h & 0x8000u) << 16;
    rf_u32 exponent = (h >> 10) & 0x1fu;
    rf_u32 mantissa = h & 0x3ffu;
    if (exponent == 0x1fu) {
        return rf_f32_from_bits(sign | 0x7f800000u | (mantissa << 13));
    }
    if (exponent == 0) {
        // mantissa x 2^-24, exact in FP32.
        float magnitude = (float)mantissa * 5.9604644775390625e-8f;
        return sign ? -magnitude : magnitude;
    }
    return rf_f32_from_bits(sign | ((exponent + 112u) << 23) | (mantissa << 13));
#endif
}

// bfloat16 bits to FP32: the high half of the FP32 pattern.
RF_HD float rf_bf16_to_f32(rf_u16 b) { return rf_f32_from_bits((rf_u32)b << 16); }

// ---- minifloats through binary16 patterns ---------------------------------------------

// E2M1 (bias 1) placed in binary16: value x 2^-14. The sign is bit 3 of the code.
RF_HD rf_u16 rf_e2m1_as_f16_bits(rf_u32 code) {
    return (rf_u16)(((code & 0x8u) << 12) | ((code & 0x7u) << 9));
}
// 2^14: multiplies an [`rf_e2m1_as_f16_bits`] value back to the E2M1 value.
#define RF_E2M1_UNBIAS 16384.0f

// E2M1 code (low 4 bits) to its value.
RF_HD float rf_e2m1_to_f32(rf_u32 code) {
    return rf_f16_to_f32(rf_e2m1_as_f16_bits(code)) * RF_E2M1_UNBIAS;
}

// E4M3 (bias 7, OCP "fn": no infinities, S.1111.111 is NaN) placed in binary16: value x
// 2^-8. The NaN codes are not mapped (the codecs saturate and never write them).
RF_HD rf_u16 rf_e4m3_as_f16_bits(rf_u32 code) {
    return (rf_u16)(((code & 0x80u) << 8) | ((code & 0x7fu) << 7));
}
// 2^8: multiplies an [`rf_e4m3_as_f16_bits`] value back to the E4M3 value.
#define RF_E4M3_UNBIAS 256.0f

// E4M3 code to its value (NaN for S.1111.111).
RF_HD float rf_e4m3_to_f32(rf_u32 code) {
    if ((code & 0x7fu) == 0x7fu) {
        return rf_f32_from_bits(0x7fc00000u);
    }
    return rf_f16_to_f32(rf_e4m3_as_f16_bits(code)) * RF_E4M3_UNBIAS;
}

// UE4M3 (NVFP4's block scale): E4M3 without its sign bit.
RF_HD float rf_ue4m3_to_f32(rf_u32 code) { return rf_e4m3_to_f32(code & 0x7fu); }

// E8M0 (the MX block scale): 2^(code - 127); 0xFF is NaN. Code 0 is 2^-127, an FP32
// subnormal.
RF_HD float rf_e8m0_to_f32(rf_u32 code) {
    code &= 0xffu;
    if (code == 0xffu) {
        return rf_f32_from_bits(0x7fc00000u);
    }
    if (code == 0) {
        return rf_f32_from_bits(0x00400000u);
    }
    return rf_f32_from_bits(code << 23);
}

// ---- integers --------------------------------------------------------------------------

// A two's complement 4-bit code (low 4 bits) to its integer.
RF_HD rf_i32 rf_int4_to_i32(rf_u32 code) { return ((rf_i32)(code << 28)) >> 28; }

// A two's complement 8-bit code to its integer.
RF_HD rf_i32 rf_int8_to_i32(rf_u32 code) { return (rf_i32)(rf_i8)(rf_u8)code; }

// ---- the formats: one element, by its index in the row-major stream --------------------

// The code of element `i` in a stream of `bits`-bit codes (4, 8 or 16).
RF_HD rf_u32 rf_code_at(const rf_u8* elements, unsigned long long i, int bits) {
    if (bits == 4) {
        rf_u32 byte = elements[i >> 1];
        return (i & 1) ? (byte >> 4) : (byte & 0xfu);
    }
    if (bits == 8) {
        return elements[i];
    }
    return (rf_u32)elements[2 * i] | ((rf_u32)elements[2 * i + 1] << 8);
}

// The formats the GPU kernels read, numbered as the agent's `GpuFormat`.
#define RF_FP16 0
#define RF_BF16 1
#define RF_FP8_E4M3 2
#define RF_INT8 3
#define RF_INT4_G128 4
#define RF_NVFP4 5
#define RF_MXFP4 6

// Bits per element code of each format.
RF_HD constexpr int rf_element_bits(int format) {
    switch (format) {
    case RF_FP16:
    case RF_BF16:
        return 16;
    case RF_FP8_E4M3:
    case RF_INT8:
        return 8;
    default:
        return 4;
    }
}

// Values per block scale along a row (0: no block scale).
RF_HD int rf_block(int format) {
    switch (format) {
    case RF_INT4_G128:
        return 128;
    case RF_NVFP4:
        return 16;
    case RF_MXFP4:
        return 32;
    default:
        return 0;
    }
}

// A block's factor: its scale's value, times the power of two that undoes the element's
// binary16 placement (x 2^14 for E2M1), times NVFP4's tensor scale. INT4 groups take FP16
// scales (two bytes), NVFP4 UE4M3, MXFP4 E8M0. NVFP4 multiplies UE4M3 by the tensor scale
// first, as the model crate does, so the one rounding falls in the same place. (The power
// of two overflows only for block scales of 2^114 and more, which no weight has.)
RF_HD float rf_block_scale(int format, const rf_u8* scales, unsigned long long block,
                           const float* tensor) {
    switch (format) {
    case RF_INT4_G128:
        return rf_f16_to_f32((rf_u16)(scales[2 * block] | (scales[2 * block + 1] << 8)));
    case RF_NVFP4:
        return (rf_ue4m3_to_f32(scales[block]) * tensor[0]) * RF_E2M1_UNBIAS;
    case RF_MXFP4:
        return rf_e8m0_to_f32(scales[block]) * RF_E2M1_UNBIAS;
    default:
        return 1.0f;
    }
}

// The per-tensor factor of the formats without blocks: the FP32 tensor scale (FP8, INT8)
// times the power of two that undoes the element's binary16 placement (x 2^8 for E4M3).
RF_HD float rf_tensor_scale(int format, const float* tensor) {
    switch (format) {
    case RF_FP8_E4M3:
        return tensor[0] * RF_E4M3_UNBIAS;
    case RF_INT8:
        return tensor[0];
    default:
        return 1.0f;
    }
}

// An element code as the kernels multiply it: its value divided by the block and tensor
// factors above (FP16/BF16 exact, FP8 and E2M1 x 2^-8 or 2^-14, integers as integers).
RF_HD float rf_element(int format, rf_u32 code) {
    switch (format) {
    case RF_FP16:
        return rf_f16_to_f32((rf_u16)code);
    case RF_BF16:
        return rf_bf16_to_f32((rf_u16)code);
    case RF_FP8_E4M3:
        return rf_f16_to_f32(rf_e4m3_as_f16_bits(code));
    case RF_INT8:
        return (float)rf_int8_to_i32(code);
    case RF_INT4_G128:
        return (float)rf_int4_to_i32(code);
    default:  // NVFP4, MXFP4: E2M1
        return rf_f16_to_f32(rf_e2m1_as_f16_bits(code));
    }
}

// Element (row, col) of a `rows x cols` tensor: the element times its block factor, or
// its tensor factor; the value the model crate's `Quantized::dequantize` gives, bit for
// bit (the powers of two are exact, and the one rounded product is the model's).
// `tensor` is the FP32 per-tensor scale: `Quantized::tensor` for FP8 and NVFP4, the one
// scale in `Quantized::scales` for per-tensor INT8.
RF_HD float rf_value(int format, const rf_u8* elements, const rf_u8* scales,
                     const float* tensor, unsigned long long row, unsigned long long col,
                     unsigned long long cols) {
    rf_u32 code = rf_code_at(elements, row * cols + col, rf_element_bits(format));
    float value = rf_element(format, code);
    int block = rf_block(format);
    if (block) {
        unsigned long long per_row = (cols + block - 1) / block;
        return value * rf_block_scale(format, scales, row * per_row + col / block, tensor);
    }
    return value * rf_tensor_scale(format, tensor);
}

// Code `j` of a 32-bit word holding 32 / `bits` codes, first in the low bits.
RF_HD rf_u32 rf_code_in_word(rf_u32 word, int j, int bits) {
    return (word >> (j * bits)) & ((1u << bits) - 1u);
}
