// rooflinr: decode.cuh compiled for the host, with exported wrappers the agent's tests call
// to check the GPU kernels' decoding bit for bit against the model crate.
#include "decode.cuh"

float rf_host_value(int format, const rf_u8* elements, const rf_u8* scales,
                    const float* tensor, unsigned long long row, unsigned long long col,
                    unsigned long long cols) {
    return rf_value(format, elements, scales, tensor, row, col, cols);
}

float rf_host_element(int format, rf_u32 code) { return rf_element(format, code); }

float rf_host_block_scale(int format, const rf_u8* scales, unsigned long long block,
                          const float* tensor) {
    return rf_block_scale(format, scales, block, tensor);
}

float rf_host_tensor_scale(int format, const float* tensor) {
    return rf_tensor_scale(format, tensor);
}

rf_u32 rf_host_code_in_word(rf_u32 word, int j, int bits) {
    return rf_code_in_word(word, j, bits);
}

float rf_host_e2m1(rf_u32 code) { return rf_e2m1_to_f32(code); }
float rf_host_e4m3(rf_u32 code) { return rf_e4m3_to_f32(code); }
float rf_host_ue4m3(rf_u32 code) { return rf_ue4m3_to_f32(code); }
float rf_host_e8m0(rf_u32 code) { return rf_e8m0_to_f32(code); }
float rf_host_f16(rf_u16 code) { return rf_f16_to_f32(code); }
float rf_host_bf16(rf_u16 code) { return rf_bf16_to_f32(code); }
