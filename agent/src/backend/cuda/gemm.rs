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
            _ => None,
        }
    }

    /// The formats with a cuBLASLt GEMM on a device of this compute capability: FP16,
    /// BF16, TF32 and INT8 tensor cores from sm_80 (Ampere), FP8 from sm_89 (Ada, Hopper).
    pub fn formats(compute_capability: (i32, i32)) -> Vec<Format> {
        let mut formats = vec![Format::Fp16, Format::Bf16];
        if compute_capability >= (8, 0) {
            formats.extend([Format::Tf32, Format::Int8]);
        }
        if compute_capability >= (8, 9) {
            formats.push(Format::Fp8E4m3);
        }
        formats
    }

    /// Bytes of one input element.
    pub fn input_bytes(self) -> u64 {
        match self {
            GemmType::Fp16 | GemmType::Bf16 => 2,
            GemmType::Fp8E4m3 | GemmType::Int8 => 1,
            GemmType::Tf32 => 4,
        }
    }

    /// Bytes of one output element (FP16/BF16, or FP32/INT32).
    pub fn output_bytes(self) -> u64 {
        match self {
            GemmType::Fp16 | GemmType::Bf16 | GemmType::Fp8E4m3 => 2,
            GemmType::Tf32 | GemmType::Int8 => 4,
        }
    }

    fn input(self) -> cudaDataType_t {
        match self {
            GemmType::Fp16 => cudaDataType_t::CUDA_R_16F,
            GemmType::Bf16 => cudaDataType_t::CUDA_R_16BF,
            GemmType::Fp8E4m3 => cudaDataType_t::CUDA_R_8F_E4M3,
            GemmType::Tf32 => cudaDataType_t::CUDA_R_32F,
            GemmType::Int8 => cudaDataType_t::CUDA_R_8I,
        }
    }

    fn output(self) -> cudaDataType_t {
        match self {
            GemmType::Fp16 => cudaDataType_t::CUDA_R_16F,
            GemmType::Bf16 | GemmType::Fp8E4m3 => cudaDataType_t::CUDA_R_16BF,
            GemmType::Tf32 => cudaDataType_t::CUDA_R_32F,
            GemmType::Int8 => cudaDataType_t::CUDA_R_32I,
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

    /// alpha = 1 and beta = 0 as the bytes of the scale type.
    fn alpha_beta(self) -> ([u8; 4], [u8; 4]) {
        match self {
            GemmType::Int8 => (1i32.to_ne_bytes(), 0i32.to_ne_bytes()),
            _ => (1f32.to_ne_bytes(), 0f32.to_ne_bytes()),
        }
    }

    /// Unit roundoff of the output type (BF16 2^-8, FP16 2^-11, FP32 2^-24, INT32 exact).
    pub fn output_roundoff(self) -> f64 {
        match self {
            GemmType::Fp16 => 2f64.powi(-11),
            GemmType::Bf16 | GemmType::Fp8E4m3 => 2f64.powi(-8),
            GemmType::Tf32 => 2f64.powi(-24),
            GemmType::Int8 => 0.0,
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

    /// Queues D = A B^T on `stream`.
    pub fn run(
        &self,
        blas: &CudaBlasLT,
        stream: &CudaStream,
        a: &CudaSlice<u8>,
        b: &CudaSlice<u8>,
        d: &mut CudaSlice<u8>,
        workspace: &mut CudaSlice<u8>,
    ) -> Result<(), String> {
        let (alpha, beta) = self.ty.alpha_beta();
        let (a, _a) = a.device_ptr(stream);
        let (b, _b) = b.device_ptr(stream);
        let (d, _d) = d.device_ptr_mut(stream);
        let (w, _w) = workspace.device_ptr_mut(stream);
        // SAFETY: the descriptors and the algorithm were made for these shapes and types;
        // the caller allocated A, B and D with those sizes and the workspace with
        // WORKSPACE_BYTES; beta is 0, so C (= D) is not read.
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
