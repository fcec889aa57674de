//! What the machine offers the CUDA backend, each library probed on its own: the driver
//! (and a GPU), NVRTC (to compile the kernels), cuBLASLt (GEMM and peaks) and NVML (clocks
//! and energy). An absence is a [`Capability`] with a message naming what is missing and
//! what to do; the agent keeps serving with its CPU backend.

use rooflinr_protocol::Capability;

/// The CUDA version the driver supports, as `cuDriverGetVersion` encodes it
/// (1000 x major + 10 x minor: 13000 is 13.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CudaVersion {
    /// Major version.
    pub major: i32,
    /// Minor version.
    pub minor: i32,
}

impl CudaVersion {
    /// From `cuDriverGetVersion`'s integer.
    pub fn from_driver(encoded: i32) -> CudaVersion {
        CudaVersion {
            major: encoded / 1000,
            minor: (encoded % 1000) / 10,
        }
    }
}

impl std::fmt::Display for CudaVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// What each probe found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The driver: `Err` says why it cannot be used (not installed, failed to start, no
    /// GPU); `Ok` carries the CUDA version it supports and the GPU count.
    pub driver: Result<(CudaVersion, u32), String>,
    /// NVRTC's version, or why it is missing.
    pub nvrtc: Result<CudaVersion, String>,
    /// Whether cuBLASLt loads, or why not.
    pub cublaslt: Result<(), String>,
    /// Whether NVML answers, or why not.
    pub nvml: Result<(), String>,
}

/// The capabilities the hello message lists, in a fixed order: driver, nvrtc, cublaslt,
/// nvml. NVRTC newer than the driver is a mismatch: the PTX it writes would not load.
pub fn capabilities(found: &Found) -> Vec<Capability> {
    let nvrtc = match (&found.driver, &found.nvrtc) {
        (Ok((driver, _)), Ok(nvrtc)) if nvrtc > driver => Err(format!(
            "CUDA major/minor mismatch: NVRTC {nvrtc} is newer than the driver's CUDA {driver}, \
             so the PTX it writes would not load; install NVRTC {}.x (e.g. `pip install \
             nvidia-cuda-nvrtc=={}.*`) or update the driver",
            driver.major, driver.major
        )),
        (_, Ok(nvrtc)) => Ok(format!("NVRTC {nvrtc}")),
        (_, Err(why)) => Err(why.clone()),
    };
    let entry = |name: &str, result: Result<String, String>| match result {
        Ok(detail) => Capability {
            name: name.into(),
            available: true,
            detail,
        },
        Err(detail) => Capability {
            name: name.into(),
            available: false,
            detail,
        },
    };
    vec![
        entry(
            "driver",
            found
                .driver
                .clone()
                .map(|(v, gpus)| format!("CUDA {v} driver, {gpus} GPU(s)")),
        ),
        entry("nvrtc", nvrtc),
        entry(
            "cublaslt",
            found
                .cublaslt
                .clone()
                .map(|()| "cuBLASLt: GEMM and per-format peaks".into()),
        ),
        entry(
            "nvml",
            found
                .nvml
                .clone()
                .map(|()| "NVML: SM clock per sample and energy".into()),
        ),
    ]
}

/// Why the backend cannot measure, when it cannot: it needs the driver, a GPU and a
/// usable NVRTC. (cuBLASLt and NVML only narrow what it measures.)
pub fn unavailable_reason(capabilities: &[Capability]) -> Option<String> {
    let missing: Vec<&str> = capabilities
        .iter()
        .filter(|c| !c.available && (c.name == "driver" || c.name == "nvrtc"))
        .map(|c| c.detail.as_str())
        .collect();
    (!missing.is_empty()).then(|| missing.join("; "))
}

/// The message for a library the loader did not find.
pub fn not_found(library: &str, files: &str, remedy: &str) -> String {
    format!("{library} not found ({files} is not on the loader path): {remedy}")
}

/// Messages for the libraries the CUDA backend loads.
pub mod messages {
    use super::not_found;

    /// No driver library.
    pub fn no_driver() -> String {
        not_found(
            "NVIDIA driver",
            "libcuda.so.1",
            "this machine has no NVIDIA GPU driver, so the agent measures with its CPU backend",
        )
    }

    /// No NVRTC.
    pub fn no_nvrtc() -> String {
        not_found(
            "NVRTC",
            "libnvrtc.so.13 or .so.12",
            "install the CUDA toolkit, or `pip install nvidia-cuda-nvrtc` and add its \
             nvidia/cu13/lib folder to LD_LIBRARY_PATH; without it no kernel can be compiled",
        )
    }

    /// No cuBLASLt.
    pub fn no_cublaslt() -> String {
        not_found(
            "cuBLASLt",
            "libcublasLt.so.13 or .so.12",
            "GEMM and the per-format peak GEMMs are not measured (GEMV and bandwidth are); \
             install the CUDA toolkit or `pip install nvidia-cublas`",
        )
    }

    /// No GPU behind a working driver.
    pub fn no_gpu() -> String {
        "the NVIDIA driver loaded but sees no GPU (check CUDA_VISIBLE_DEVICES and nvidia-smi)"
            .into()
    }
}
