//! GEMM through cuBLASLt (raw bindings: cudarc's safe wrapper covers FP32/FP16/BF16 only
//! and asks for a heuristic on every call): D[m x n] = A[m x k] B[n x k]^T with FP32
//! accumulation (INT32 for INT8), in the "TN" layout FP8 and INT8 require (cuBLASLt is column-major: A is k x m
//! with `transa = T`, B is k x n, D is m x n). One algorithm is chosen once per shape,
//! then every timed call reuses it.

use std::ffi::c_void;
use std::mem::size_of;

use cudarc::cublaslt::sys::{
    self, cublasComputeType_t, cublasLtMatmulDescAttributes_t,
    cublasLtMatmulPreferenceAttributes_t, cudaDataType_t,
};
use cudarc::cublaslt::{CudaBlasLT, MatmulShared, result};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use rooflinr_model::format::Format;

/// Workspace cuBLASLt may use (its recommendation for Hopper and later).
pub const WORKSPACE_BYTES: usize = 32 << 20;

/// An input type cuBLASLt multiplies here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GemmType {
    /// FP16 inputs, FP16 output.
    Fp16,
    /// BF16 inputs, BF16 output.
    Bf16,
    /// FP8 E4M3 inputs, BF16 output (Ada and Hopper onwards).
    Fp8E4m3,
    /// FP32 inputs multiplied as TF32 on the tensor cores, FP32 output.
    Tf32,
    /// INT8 inputs, INT32 accumulation and output.
    Int8,
    /// NVFP4 inputs (E2M1, a UE4M3 scale per 16, FP32 tensor scales in alpha), BF16 output:
    /// the block-scaled MMA of sm_100 and later.
    NvFp4,
    /// MXFP8 inputs (E4M3, an E8M0 scale per 32), BF16 output.
    MxFp8,
    /// MXFP4 inputs (E2M1, an E8M0 scale per 32), BF16 output.
    MxFp4,
}

impl GemmType {
    /// The type that multiplies `format` weights, if cuBLASLt runs it here.
    pub fn of(format: Format) -> Option<GemmType> {
        match format {
            Format::Fp16 => Some(GemmType::Fp16),
            Format::Bf16 => Some(GemmType::Bf16),
            Format::Fp8E4m3 => Some(GemmType::Fp8E4m3),
            Format::Tf32 => Some(GemmType::Tf32),
            Format::Int8 => Some(GemmType::Int8),
            Format::NvFp4 => Some(GemmType::NvFp4),
            Format::MxFp8E4m3 => Some(GemmType::MxFp8),
            Format::MxFp4 => Some(GemmType::MxFp4),
            _ => None,
        }
    }

    /// The formats with a cuBLASLt GEMM on a device of this compute capability: FP16,
    /// BF16, TF32 and INT8 tensor cores from sm_80 (Ampere), FP8 from sm_89 (Ada, Hopper),
    /// block-scaled NVFP4, MXFP8 and MXFP4 from sm_100 (Blackwell, GB10 included).
    pub fn formats(compute_capability: (i32, i32)) -> Vec<Format> {
        let mut formats = vec![Format::Fp16, Format::Bf16];
        if compute_capability >= (8, 0) {
            formats.extend([Format::Tf32, Format::Int8]);
        }
        if compute_capability >= (8, 9) {
            formats.push(Format::Fp8E4m3);
        }
        if compute_capability >= (10, 0) {
            formats.extend([Format::NvFp4, Format::MxFp8E4m3, Format::MxFp4]);
        }
        formats
    }

    /// Values per block scale along K, for the block-scaled types.
    pub fn scale_block(self) -> Option<usize> {
        match self {
            GemmType::NvFp4 => Some(16),
            GemmType::MxFp8 | GemmType::MxFp4 => Some(32),
            _ => None,
        }
    }

    /// Bits of one input element.
    pub fn input_bits(self) -> u64 {
        match self {
            GemmType::NvFp4 | GemmType::MxFp4 => 4,
            other => 8 * other.input_bytes(),
        }
    }

    fn scale_mode(self) -> Option<sys::cublasLtMatmulMatrixScale_t> {
        use sys::cublasLtMatmulMatrixScale_t::{
            CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3, CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0,
        };
        match self {
            GemmType::NvFp4 => Some(CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3),
            GemmType::MxFp8 | GemmType::MxFp4 => Some(CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0),
            _ => None,
        }
    }

    /// Bytes of one input element.
    /// Bytes of one input element (a byte holds two FP4 elements; rounded up here, see
    /// [`GemmType::input_bits`]).
    pub fn input_bytes(self) -> u64 {
        match self {
            GemmType::Fp16 | GemmType::Bf16 => 2,
            GemmType::Fp8E4m3 | GemmType::Int8 | GemmType::MxFp8 => 1,
            GemmType::NvFp4 | GemmType::MxFp4 => 1,
            GemmType::Tf32 => 4,
        }
    }

    /// Bytes of one output element (FP16/BF16, or FP32/INT32).
    pub fn output_bytes(self) -> u64 {
        match self {
            GemmType::Tf32 | GemmType::Int8 => 4,
            _ => 2,
        }
    }

    fn input(self) -> cudaDataType_t {
        match self {
            GemmType::Fp16 => cudaDataType_t::CUDA_R_16F,
            GemmType::Bf16 => cudaDataType_t::CUDA_R_16BF,
            GemmType::Fp8E4m3 | GemmType::MxFp8 => cudaDataType_t::CUDA_R_8F_E4M3,
            GemmType::Tf32 => cudaDataType_t::CUDA_R_32F,
            GemmType::Int8 => cudaDataType_t::CUDA_R_8I,
            GemmType::NvFp4 | GemmType::MxFp4 => cudaDataType_t::CUDA_R_4F_E2M1,
        }
    }

    fn output(self) -> cudaDataType_t {
        match self {
            GemmType::Fp16 => cudaDataType_t::CUDA_R_16F,
            GemmType::Tf32 => cudaDataType_t::CUDA_R_32F,
            GemmType::Int8 => cudaDataType_t::CUDA_R_32I,
            _ => cudaDataType_t::CUDA_R_16BF,
        }
    }

    /// cuBLASLt's compute type and the type of alpha and beta.
    fn compute(self) -> (cublasComputeType_t, cudaDataType_t) {
        match self {
            GemmType::Tf32 => (
                cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32,
                cudaDataType_t::CUDA_R_32F,
            ),
            GemmType::Int8 => (
                cublasComputeType_t::CUBLAS_COMPUTE_32I,
                cudaDataType_t::CUDA_R_32I,
            ),
            _ => (
                cublasComputeType_t::CUBLAS_COMPUTE_32F,
                cudaDataType_t::CUDA_R_32F,
            ),
        }
    }

    /// alpha and beta = 0 as the bytes of the scale type (alpha is 1 but for NVFP4, whose
    /// two FP32 tensor scales it carries).
    fn alpha_beta(self, alpha: f32) -> ([u8; 4], [u8; 4]) {
        match self {
            GemmType::Int8 => (1i32.to_ne_bytes(), 0i32.to_ne_bytes()),
            _ => (alpha.to_ne_bytes(), 0f32.to_ne_bytes()),
        }
    }

    /// Unit roundoff of the output type (BF16 2^-8, FP16 2^-11, FP32 2^-24, INT32 exact).
    pub fn output_roundoff(self) -> f64 {
        match self {
            GemmType::Fp16 => 2f64.powi(-11),
            GemmType::Tf32 => 2f64.powi(-24),
            GemmType::Int8 => 0.0,
            _ => 2f64.powi(-8),
        }
    }
}

/// A cuBLASLt matmul for one shape and type, with its algorithm chosen.
pub struct LtGemm {
    ty: GemmType,
    desc: sys::cublasLtMatmulDesc_t,
    layouts: [sys::cublasLtMatrixLayout_t; 3],
    algo: sys::cublasLtMatmulAlgo_t,
}

fn lt(step: &'static str) -> impl Fn(result::CublasError) -> String {
    move |e| format!("cuBLASLt: {step} failed: {e:?}")
}

impl LtGemm {
    /// Describes D[m x n] = A[m x k] B[n x k]^T in `ty` and asks the heuristic for the
    /// fastest algorithm within [`WORKSPACE_BYTES`].
    pub fn new(blas: &CudaBlasLT, ty: GemmType, m: u64, n: u64, k: u64) -> Result<LtGemm, String> {
        let (compute, scale) = ty.compute();
        let desc = result::create_matmul_desc(compute, scale)
            .map_err(lt("creating the matmul descriptor"))?;
        let mut gemm = LtGemm {
            ty,
            desc,
            layouts: [std::ptr::null_mut(); 3],
            // SAFETY: the algorithm is a plain array of integers; all zeros is a valid
            // value, replaced by the heuristic's choice below before any use.
            algo: unsafe { std::mem::zeroed() },
        };
        let transpose: i32 = 1; // CUBLAS_OP_T
        // SAFETY: `desc` is live; the attribute is an i32 read during the call.
        unsafe {
            result::set_matmul_desc_attribute(
                gemm.desc,
                cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSA,
                (&transpose as *const i32).cast::<c_void>(),
                size_of::<i32>(),
            )
        }
        .map_err(lt("setting transa"))?;
        let layout = |ty: cudaDataType_t, rows: u64, cols: u64| {
            result::create_matrix_layout(ty, rows, cols, rows as i64)
                .map_err(lt("creating a layout"))
        };
        if let Some(mode) = ty.scale_mode() {
            let mode = mode as u32;
            for attr in [
                cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_A_SCALE_MODE,
                cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_B_SCALE_MODE,
            ] {
                // SAFETY: `desc` is live; the attribute is a u32 read during the call.
                unsafe {
                    result::set_matmul_desc_attribute(
                        gemm.desc,
                        attr,
                        (&mode as *const u32).cast::<c_void>(),
                        size_of::<u32>(),
                    )
                }
                .map_err(lt("setting a block-scale mode"))?;
            }
        }
        gemm.layouts[0] = layout(ty.input(), k, m)?;
        gemm.layouts[1] = layout(ty.input(), k, n)?;
        gemm.layouts[2] = layout(ty.output(), m, n)?;
        let pref = result::create_matmul_pref().map_err(lt("creating a preference"))?;
        let workspace = WORKSPACE_BYTES;
        // SAFETY: `pref` is live; the attribute is a usize read during the call.
        let set = unsafe {
            result::set_matmul_pref_attribute(
                pref,
                cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                (&workspace as *const usize).cast::<c_void>(),
                size_of::<usize>(),
            )
        };
        // SAFETY: every handle is live; C and D share a layout, as `matmul` passes them.
        let heuristic = set.and_then(|()| unsafe {
            result::get_matmul_algo_heuristic(
                *blas.handle(),
                gemm.desc,
                gemm.layouts[0],
                gemm.layouts[1],
                gemm.layouts[2],
                gemm.layouts[2],
                pref,
            )
        });
        // SAFETY: `pref` was created above and is not used again.
        let _ = unsafe { result::destroy_matmul_pref(pref) };
        gemm.algo = heuristic.map_err(lt("finding an algorithm"))?.algo;
        Ok(gemm)
    }

    /// Queues D = alpha A B^T on `stream`; block-scaled types read their scales from
    /// `scales` (A's, B's: in cuBLASLt's tiled layout, [`block_scale_offset`]).
    pub fn run(
        &self,
        blas: &CudaBlasLT,
        stream: &CudaStream,
        operands: &Operands,
        d: &mut CudaSlice<u8>,
        workspace: &mut CudaSlice<u8>,
    ) -> Result<(), String> {
        let (alpha, beta) = self.ty.alpha_beta(operands.alpha);
        let (a, _a) = operands.a.device_ptr(stream);
        let (b, _b) = operands.b.device_ptr(stream);
        if let Some((sa, sb)) = &operands.scales {
            let (sa, _sa) = sa.device_ptr(stream);
            let (sb, _sb) = sb.device_ptr(stream);
            for (attr, pointer) in [
                (
                    cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                    sa,
                ),
                (
                    cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                    sb,
                ),
            ] {
                // SAFETY: `desc` is live; the attribute is a device pointer read during the
                // call, to scales that live as long as `operands`.
                unsafe {
                    result::set_matmul_desc_attribute(
                        self.desc,
                        attr,
                        (&pointer as *const u64).cast::<c_void>(),
                        size_of::<u64>(),
                    )
                }
                .map_err(lt("setting a block-scale pointer"))?;
            }
        }
        let (d, _d) = d.device_ptr_mut(stream);
        let (w, _w) = workspace.device_ptr_mut(stream);
        // SAFETY: the descriptors and the algorithm were made for these shapes and types;
        // the caller allocated A, B (and their scales) and D with those sizes and the
        // workspace with WORKSPACE_BYTES; beta is 0, so C (= D) is not read.
        unsafe {
            result::matmul(
                *blas.handle(),
                self.desc,
                alpha.as_ptr().cast(),
                beta.as_ptr().cast(),
                a as *const c_void,
                self.layouts[0],
                b as *const c_void,
                self.layouts[1],
                d as *const c_void,
                self.layouts[2],
                d as *mut c_void,
                self.layouts[2],
                &self.algo,
                w as *mut c_void,
                WORKSPACE_BYTES,
                stream.cu_stream().cast(),
            )
        }
        .map_err(lt("running the matmul"))
    }
}

/// A GEMM's inputs on the device.
pub struct Operands {
    /// A (m rows of k), packed.
    pub a: CudaSlice<u8>,
    /// B (n rows of k), packed.
    pub b: CudaSlice<u8>,
    /// A's and B's block scales, for block-scaled types.
    pub scales: Option<(CudaSlice<u8>, CudaSlice<u8>)>,
    /// alpha: 1, or NVFP4's two tensor scales multiplied.
    pub alpha: f32,
}

/// Where cuBLASLt reads the block scale of (row, block) of an operand with `blocks` scales
/// per row (cuBLAS documentation, "1D block scaling factors layout"): scales sit in tiles of
/// 128 rows x 4 blocks, 512 bytes each, tiles in row-major order over the scale matrix padded
/// to whole tiles; inside a tile, row r and block c sit at (r % 32) x 16 + (r / 32) x 4 + c.
pub fn block_scale_offset(row: usize, block: usize, blocks: usize) -> usize {
    let tiles_per_row = blocks.div_ceil(4);
    let tile = (row / 128) * tiles_per_row + block / 4;
    let (r, c) = (row % 128, block % 4);
    tile * 512 + (r % 32) * 16 + (r / 32) * 4 + c
}

/// Row-major scales (`rows` x `blocks`, one byte each, as the model crate's codecs write
/// them) in cuBLASLt's tiled layout, padding with zero bytes.
pub fn tile_block_scales(scales: &[u8], rows: usize, blocks: usize) -> Vec<u8> {
    let padded = rows.div_ceil(128) * 128 * blocks.div_ceil(4) * 4;
    let mut out = vec![0u8; padded];
    for row in 0..rows {
        for block in 0..blocks {
            if let Some(&s) = scales.get(row * blocks + block) {
                out[block_scale_offset(row, block, blocks)] = s;
            }
        }
    }
    out
}

impl Drop for LtGemm {
    fn drop(&mut self) {
        // SAFETY: each handle was created by `new` (null ones were never created) and is
        // destroyed once, here.
        unsafe {
            for layout in self.layouts {
                if !layout.is_null() {
                    let _ = result::destroy_matrix_layout(layout);
                }
            }
            let _ = result::destroy_matmul_desc(self.desc);
        }
    }
}
