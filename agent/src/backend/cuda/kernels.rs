//! The CUDA kernels as data: their source texts (NVRTC compiles each module after the
//! shared headers; no CUDA header is included, so any NVRTC compiles them), the formats they read, their names, and
//! the launch configuration for a shape. Pure: nothing here touches a GPU, so all of it is
//! tested on every machine, and `rooflinr-agent kernels` compiles the same texts for
//! `cargo xtask cuda-check`.

use rooflinr_model::format::Format;

use crate::backend::INT4_G128;

/// The decoding of every packed format, shared by the kernels and the host build.
pub const DECODE_HEADER: &str = include_str!("kernels/decode.cuh");
/// What one lane of a GEMV warp computes, shared by the kernels and the host build.
pub const GEMV_LANE_HEADER: &str = include_str!("kernels/gemv_lane.cuh");
/// The GEMV kernels.
pub const GEMV_SOURCE: &str = include_str!("kernels/gemv.cu");
/// The bandwidth and spin kernels.
pub const STREAM_SOURCE: &str = include_str!("kernels/stream.cu");

/// A module NVRTC compiles: the decoding header followed by one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Module {
    /// `gemv.cu`.
    Gemv,
    /// `stream.cu`.
    Stream,
}

impl Module {
    /// Every module.
    pub const ALL: [Module; 2] = [Module::Gemv, Module::Stream];

    /// File name (`gemv.cu`), also the name NVRTC reports errors under.
    pub fn file_name(self) -> &'static str {
        match self {
            Module::Gemv => "gemv.cu",
            Module::Stream => "stream.cu",
        }
    }

    /// The text NVRTC compiles: the shared headers, then the module.
    pub fn source(self) -> String {
        match self {
            Module::Gemv => format!("{DECODE_HEADER}\n{GEMV_LANE_HEADER}\n{GEMV_SOURCE}"),
            Module::Stream => format!("{DECODE_HEADER}\n{STREAM_SOURCE}"),
        }
    }

    /// The entry points it defines.
    pub fn kernels(self) -> Vec<String> {
        match self {
            Module::Gemv => GpuFormat::ALL
                .iter()
                .flat_map(|f| {
                    (1..=MAX_GEMV_M)
                        .map(move |m| f.vectorised_kernel(m))
                        .chain(std::iter::once(f.any_kernel()))
                        .chain(f.mma_kernel())
                })
                .collect(),
            Module::Stream => ["rf_read", "rf_copy", "rf_triad", "rf_spin"]
                .map(String::from)
                .to_vec(),
        }
    }
}

/// The architectures `cargo xtask cuda-check` compiles for: Hopper (H100, H200, GH200),
/// Blackwell data centre (B200, GB200) and GB10.
pub const CHECKED_ARCHITECTURES: [&str; 3] = ["sm_90a", "sm_100a", "sm_121a"];

/// The most activation rows a GEMV kernel takes; larger batches are GEMMs.
pub const MAX_GEMV_M: u32 = crate::backend::GEMV_MAX_BATCH as u32;
/// Threads per block of the GEMV kernels: four warps.
pub const GEMV_BLOCK_THREADS: u32 = 128;
/// Weight rows per warp of the 16-byte-load GEMV kernels (`RF_ROWS` in
/// `kernels/gemv_lane.cuh`; a test holds the two equal): each lane's activations serve
/// this many rows. The element-by-element kernels take one row per warp.
pub const GEMV_ROWS_PER_WARP: u32 = 4;
/// The most warps a block of the tensor-core GEMV kernels has (`RF_MMA_WARPS` in
/// `kernels/gemv_lane.cuh`; a test holds the two equal): a block takes 16 weight rows and
/// its warps split the columns.
pub const GEMV_MMA_WARPS: u32 = 8;
/// Warps of the tensor-core GEMV kernels one multiprocessor holds at once, at the most
/// registers any of them uses (128 a thread, `__launch_bounds__(256, 2)`): 65,536
/// registers / (128 x 32).
pub const GEMV_MMA_WARPS_PER_SM: u32 = 16;
/// Weight rows per block of the tensor-core GEMV kernels: mma.m16n8k16's 16 rows of A.
pub const GEMV_MMA_ROWS: u32 = 16;
/// 16-byte chunks per row in one tile of the tensor-core kernels (`RF_MMA_CHUNKS`): one
/// per thread of a four-lane group.
pub const GEMV_MMA_CHUNKS: u32 = 4;
/// Threads per block of the bandwidth kernels.
pub const STREAM_BLOCK_THREADS: u32 = 256;

/// A weight format the GEMV kernels read, numbered as `decode.cuh` numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GpuFormat {
    /// IEEE binary16.
    Fp16 = 0,
    /// bfloat16.
    Bf16 = 1,
    /// FP8 E4M3 with one FP32 scale per tensor.
    Fp8E4m3 = 2,
    /// INT8 with one FP32 scale per tensor (the catalogue's `int8`).
    Int8 = 3,
    /// INT4, symmetric, one FP16 scale per 128 values along a row.
    Int4G128 = 4,
    /// NVFP4: E2M1, one UE4M3 scale per 16, one FP32 scale per tensor.
    NvFp4 = 5,
    /// MXFP4: E2M1, one E8M0 scale per 32.
    MxFp4 = 6,
}

impl GpuFormat {
    /// Every format, in the order the kernels are defined.
    pub const ALL: [GpuFormat; 7] = [
        GpuFormat::Fp16,
        GpuFormat::Bf16,
        GpuFormat::Fp8E4m3,
        GpuFormat::Int8,
        GpuFormat::Int4G128,
        GpuFormat::NvFp4,
        GpuFormat::MxFp4,
    ];

    /// The catalogue format.
    pub fn format(self) -> Format {
        match self {
            GpuFormat::Fp16 => Format::Fp16,
            GpuFormat::Bf16 => Format::Bf16,
            GpuFormat::Fp8E4m3 => Format::Fp8E4m3,
            GpuFormat::Int8 => Format::Int8,
            GpuFormat::Int4G128 => Format::Grouped(INT4_G128),
            GpuFormat::NvFp4 => Format::NvFp4,
            GpuFormat::MxFp4 => Format::MxFp4,
        }
    }

    /// The GPU format storing `format`, if the kernels read it.
    pub fn of(format: Format) -> Option<GpuFormat> {
        GpuFormat::ALL.into_iter().find(|g| g.format() == format)
    }

    /// The number `decode.cuh` gives it (`RF_FP16`...).
    pub fn code(self) -> i32 {
        self as i32
    }

    /// Bits per element code.
    pub fn element_bits(self) -> u32 {
        match self {
            GpuFormat::Fp16 | GpuFormat::Bf16 => 16,
            GpuFormat::Fp8E4m3 | GpuFormat::Int8 => 8,
            GpuFormat::Int4G128 | GpuFormat::NvFp4 | GpuFormat::MxFp4 => 4,
        }
    }

    /// Element codes in one 16-byte load.
    pub fn codes_per_load(self) -> u32 {
        128 / self.element_bits()
    }

    fn stem(self) -> &'static str {
        match self {
            GpuFormat::Fp16 => "fp16",
            GpuFormat::Bf16 => "bf16",
            GpuFormat::Fp8E4m3 => "fp8_e4m3",
            GpuFormat::Int8 => "int8",
            GpuFormat::Int4G128 => "int4_g128",
            GpuFormat::NvFp4 => "nvfp4",
            GpuFormat::MxFp4 => "mxfp4",
        }
    }

    /// The 16-byte-load kernel for `m` activation rows (`rf_gemv_fp16_m1`).
    pub fn vectorised_kernel(self, m: u32) -> String {
        format!("rf_gemv_{}_m{m}", self.stem())
    }

    /// The element-by-element kernel for any shape (`rf_gemv_fp16_any`).
    pub fn any_kernel(self) -> String {
        format!("rf_gemv_{}_any", self.stem())
    }

    /// Whether tensor cores multiply this format (`rf_mma_reads` in
    /// `kernels/gemv_lane.cuh`): every format whose values are exact in FP16, not BF16
    /// (tensor cores multiply BF16 by BF16 only, and the activations are FP16) or MXFP4
    /// (its E8M0 scales take values out of FP16's range).
    pub fn tensor_cores(self) -> bool {
        !matches!(self, GpuFormat::Bf16 | GpuFormat::MxFp4)
    }

    /// The tensor-core kernel (`rf_gemv_fp16_mma`), where there is one.
    pub fn mma_kernel(self) -> Option<String> {
        self.tensor_cores()
            .then(|| format!("rf_gemv_{}_mma", self.stem()))
    }

    /// Columns in one tile of the tensor-core kernel: four 16-byte chunks of codes.
    pub fn mma_tile_codes(self) -> u32 {
        GEMV_MMA_CHUNKS * self.codes_per_load()
    }
}

/// How one GEMV is launched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemvLaunch {
    /// Entry point.
    pub kernel: String,
    /// Blocks.
    pub grid: u32,
    /// Threads per block.
    pub block: u32,
    /// Which of the three kernels.
    pub kind: GemvKind,
}

/// The GEMV kernels, fastest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GemvKind {
    /// Tensor cores (`_mma`): k a multiple of a tile, compute capability 8.0 or later.
    TensorCore,
    /// 16-byte loads, one kernel per batch (`_m1` ... `_m8`): k a multiple of a chunk.
    Vectorised,
    /// Element by element (`_any`): any shape.
    AnyShape,
}

impl GemvKind {
    /// The number `kernels/host.cpp` gives it.
    pub fn code(self) -> i32 {
        match self {
            GemvKind::AnyShape => 0,
            GemvKind::Vectorised => 1,
            GemvKind::TensorCore => 2,
        }
    }

    /// Whether the kernel takes the batch `m` as an argument (the vectorised ones are one
    /// kernel per batch).
    pub fn takes_m(self) -> bool {
        self != GemvKind::Vectorised
    }
}

/// Why a GEMV cannot be launched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// Batch outside 1..=8.
    #[error("a GEMV kernel takes 1 to {MAX_GEMV_M} activation rows, not {0}")]
    Rows(u64),
    /// A dimension the kernels' 32-bit indices cannot hold.
    #[error("{what} = {value} is more than the GEMV kernels index (2^31 - 1)")]
    TooLarge {
        /// `n` or `k`.
        what: &'static str,
        /// The value.
        value: u64,
    },
    /// Zero rows or columns.
    #[error("{what} must be at least 1")]
    Empty {
        /// `n` or `k`.
        what: &'static str,
    },
}

/// What the GEMV launch needs to know of the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemvDevice {
    /// Whether its tensor cores take FP16 `mma.m16n8k16` (compute capability 8.0 and later).
    pub tensor_cores: bool,
    /// Multiprocessors.
    pub sms: u32,
}

/// The launch of `m x n x k` (`m` activation rows, `n` weight rows of `k` values) in
/// `format` on `device`: the tensor-core kernel where the device and the format have one
/// and `k` is a whole number of its tiles, else the 16-byte kernel when every weight row
/// starts on a 16-byte boundary (`k` a multiple of the codes per load; the packed stream
/// runs on across rows), else the element-by-element one.
///
/// The tensor-core kernel's blocks take 16 rows each, with the most warps (8, 4, 2 or 1)
/// that still lets every block be resident at once, so the last wave of blocks does not
/// run on a fraction of the device: the first H200 runs, with eight warps for 8,192 rows
/// (512 blocks, two or three resident per multiprocessor), read 8,192 x 28,672 FP16 at
/// 78 % of the bandwidth, against 94 % for the 16-byte kernel, whose blocks all fit.
pub fn gemv_launch(
    format: GpuFormat,
    m: u64,
    n: u64,
    k: u64,
    device: GemvDevice,
) -> Result<GemvLaunch, LaunchError> {
    if !(1..=u64::from(MAX_GEMV_M)).contains(&m) {
        return Err(LaunchError::Rows(m));
    }
    for (what, value) in [("n", n), ("k", k)] {
        if value == 0 {
            return Err(LaunchError::Empty { what });
        }
        if value > i32::MAX as u64 {
            return Err(LaunchError::TooLarge { what, value });
        }
    }
    // FP16 with one activation row decodes nothing and multiplies once per weight, so
    // the tensor cores gain it nothing: on an H200 the 16-byte kernel took 37.1 us at
    // 1 x 8192 x 8192 against the tensor cores' 38.0, and 114 against 141 us at
    // 1 x 8192 x 28672 (before the warps per block followed the rows).
    let one_fp16_row = format == GpuFormat::Fp16 && m == 1;
    if let Some(kernel) = format.mma_kernel()
        && device.tensor_cores
        && !one_fp16_row
        && k.is_multiple_of(u64::from(format.mma_tile_codes()))
    {
        let blocks = n.div_ceil(u64::from(GEMV_MMA_ROWS));
        let resident = u64::from(device.sms.max(1)) * u64::from(GEMV_MMA_WARPS_PER_SM);
        let warps = [8u32, 4, 2]
            .into_iter()
            .find(|w| blocks * u64::from(*w) <= resident)
            .unwrap_or(1);
        return Ok(GemvLaunch {
            kernel,
            grid: blocks as u32,
            block: warps * 32,
            kind: GemvKind::TensorCore,
        });
    }
    let vectorised = k.is_multiple_of(u64::from(format.codes_per_load()));
    let rows_per_warp = if vectorised { GEMV_ROWS_PER_WARP } else { 1 };
    let rows_per_block = u64::from(GEMV_BLOCK_THREADS / 32 * rows_per_warp);
    let grid = n.div_ceil(rows_per_block) as u32;
    let (kernel, kind) = if vectorised {
        (format.vectorised_kernel(m as u32), GemvKind::Vectorised)
    } else {
        (format.any_kernel(), GemvKind::AnyShape)
    };
    Ok(GemvLaunch {
        kernel,
        grid,
        block: GEMV_BLOCK_THREADS,
        kind,
    })
}

/// Blocks for a grid-stride bandwidth kernel over `vectors` 16-byte vectors on a device
/// with `sms` multiprocessors: enough for every SM to keep several blocks resident (8 per
/// SM), never more than the vectors need.
pub fn stream_grid(vectors: u64, sms: u32) -> u32 {
    let needed = vectors.div_ceil(u64::from(STREAM_BLOCK_THREADS)).max(1);
    needed.min(u64::from(sms.max(1)) * 8) as u32
}

/// How many copies of a kernel's inputs to rotate through so that none is still in the L2
/// cache when it is read again: one when a copy is at least twice the L2 (reading it
/// evicts itself), else enough that the copies read in between total twice the L2; at
/// most 64.
pub fn rotations(bytes_per_copy: u64, l2_bytes: u64) -> u32 {
    let twice_l2 = l2_bytes.saturating_mul(2);
    if bytes_per_copy >= twice_l2 {
        return 1;
    }
    (twice_l2.div_ceil(bytes_per_copy.max(1)) + 1).min(64) as u32
}
