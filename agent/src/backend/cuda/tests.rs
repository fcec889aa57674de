//! The CUDA backend without a GPU: the kernels' decoding header (compiled for the host by
//! the build script) against the model crate bit for bit, launch configurations, rotation
//! sizes, byte counts, device matching and the probe's messages.

use rooflinr_model::format::Format;
use rooflinr_model::quant::{Codec, Scalar};
use rooflinr_protocol::Capability;

use super::device::{registry_key, theoretical_bandwidth};
use super::kernels::{
    GemvDevice, GemvKind, GpuFormat, LaunchError, Module, gemv_launch, rotations, stream_grid,
};
use super::probe::{CudaVersion, Found, capabilities, messages, unavailable_reason};
use super::*;
use crate::backend::check::{Compared, reference_dot, verdict};

// The host build of `kernels/decode.cuh` (see build.rs).
unsafe extern "C" {
    fn rf_host_value(
        format: i32,
        elements: *const u8,
        scales: *const u8,
        tensor: *const f32,
        row: u64,
        col: u64,
        cols: u64,
    ) -> f32;
    fn rf_host_code_in_word(word: u32, j: i32, bits: i32) -> u32;
    fn rf_host_gemv(
        format: i32,
        kind: i32,
        warps: u32,
        m: u32,
        elements: *const u8,
        scales: *const u8,
        tensor: *const f32,
        x: *const u16,
        y: *mut f32,
        n: u32,
        k: u32,
    ) -> i32;
    fn rf_host_e2m1(code: u32) -> f32;
    fn rf_host_e4m3(code: u32) -> f32;
    fn rf_host_ue4m3(code: u32) -> f32;
    fn rf_host_e8m0(code: u32) -> f32;
    fn rf_host_f16(code: u16) -> f32;
    fn rf_host_bf16(code: u16) -> f32;
    fn rf_host_rows_per_warp() -> i32;
    fn rf_host_mma_warps() -> i32;
    fn rf_host_mma_chunks() -> i32;
    fn rf_host_mma_reads(format: i32) -> i32;
    fn rf_host_f32_to_f16_bits(f: f32) -> u16;
    fn rf_host_h2_mul(a: u32, b: u32) -> u32;
    fn rf_host_element(format: i32, code: u32) -> f32;
    fn rf_host_element_fast(format: i32, code: u32) -> f32;
    fn rf_host_finite_f16(code: u16) -> f32;
}

/// Values spread over several binades, zeros and both signs, in `rows x cols`.
fn sample(rows: usize, cols: usize) -> Vec<f32> {
    (0..rows * cols)
        .map(|i| {
            let t = ((i * 7919 + 13) % 2003) as f32 / 2003.0 - 0.5;
            let binade = ((i / 37) % 7) as i32 - 3;
            if i % 97 == 0 {
                0.0
            } else {
                t * 2f32.powi(binade)
            }
        })
        .collect()
}

#[track_caller]
fn check_decodes_bit_exact(format: GpuFormat, rows: usize, cols: usize) {
    let q = Codec::for_format(format.format())
        .quantize(&sample(rows, cols), cols)
        .expect("quantises");
    let expected = q.dequantize();
    let tensor = [tensor_scale(&q, format)];
    let scales = if q.scales.is_empty() {
        vec![0u8; 16]
    } else {
        q.scales.clone()
    };
    for row in 0..rows {
        for col in 0..cols {
            // SAFETY: the buffers are the codec's for a rows x cols tensor, which is all
            // rf_value reads at (row, col).
            let got = unsafe {
                rf_host_value(
                    format.code(),
                    q.elements.as_ptr(),
                    scales.as_ptr(),
                    tensor.as_ptr(),
                    row as u64,
                    col as u64,
                    cols as u64,
                )
            };
            let want = expected[row * cols + col];
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "{format:?} ({rows}x{cols}) at ({row}, {col}): header {got}, model {want}"
            );
        }
    }
}

#[test]
fn the_kernels_decoding_matches_the_model_crate_bit_for_bit_in_every_format() {
    for format in GpuFormat::ALL {
        // Rows that are not a whole number of blocks, so short blocks and rows starting
        // mid-byte are covered (odd columns of 4-bit codes), and an aligned shape.
        check_decodes_bit_exact(format, 3, 161);
        check_decodes_bit_exact(format, 5, 37);
        check_decodes_bit_exact(format, 2, 256);
    }
}

/// An H200's launch parameters.
const H200: GemvDevice = GemvDevice {
    tensor_cores: true,
    sms: 132,
};
/// A device without FP16 tensor-core `mma` (compute capability 7.x).
const NO_TENSOR_CORES: GemvDevice = GemvDevice {
    tensor_cores: false,
    sms: 80,
};

/// Runs every lane of every row of the GEMV kernel `gemv_launch` picks for `m x n x k` on
/// `device`, on the host, and checks each output against FP64 sums of the model crate's
/// values. Returns the kernel's kind and warps a block.
#[track_caller]
fn check_kernel_lanes(
    format: GpuFormat,
    (m, n, k): (usize, usize, usize),
    device: GemvDevice,
) -> (GemvKind, u32) {
    let q = Codec::for_format(format.format())
        .quantize(&sample(n, k), k)
        .expect("quantises");
    let reference = q.dequantize();
    let x: Vec<u16> = (0..m * k)
        .map(|i| half::f16::from_f32(((i * 31 % 17) as f32 - 8.0) / 8.0).to_bits())
        .collect();
    let xf: Vec<f32> = x
        .iter()
        .map(|b| half::f16::from_bits(*b).to_f32())
        .collect();
    let tensor = [tensor_scale(&q, format)];
    let scales = if q.scales.is_empty() {
        vec![0u8; 16]
    } else {
        q.scales.clone()
    };
    let launch = gemv_launch(format, m as u64, n as u64, k as u64, device).expect("launchable");
    let warps = launch.block / 32;
    let mut y = vec![f32::NAN; m * n];
    // SAFETY: the buffers hold what an m x n x k GEMV in this format reads and writes.
    let status = unsafe {
        rf_host_gemv(
            format.code(),
            launch.kind.code(),
            warps,
            m as u32,
            q.elements.as_ptr(),
            scales.as_ptr(),
            tensor.as_ptr(),
            x.as_ptr(),
            y.as_mut_ptr(),
            n as u32,
            k as u32,
        )
    };
    assert_eq!(status, 0);
    let compared = (0..m * n).map(|index| {
        let (i, r) = (index / n, index % n);
        let (expected, bound) =
            reference_dot(&reference[r * k..(r + 1) * k], &xf[i * k..(i + 1) * k]);
        Compared {
            index,
            got: f64::from(y[index]),
            expected,
            bound,
        }
    });
    if let Err(e) = verdict(&format!("{} {m}x{n}x{k}", launch.kernel), compared, "fp64") {
        panic!("{e}");
    }
    (launch.kind, warps)
}

#[test]
fn every_gemv_kernel_lane_sums_to_the_reference_on_the_host() {
    for format in GpuFormat::ALL {
        // Vectorised: k a multiple of 32 codes (every format), chunks that do and do not
        // fill the two-deep unroll, groups of 128 over 4160 (a short last group), n that
        // leaves a warp's last rows empty (37, 19, 5, 3) and one that does not (8).
        for shape in [
            (1, 37, 4096),
            (3, 19, 4160),
            (8, 5, 512),
            (2, 3, 96),
            (4, 8, 1024),
        ] {
            assert_eq!(
                check_kernel_lanes(format, shape, NO_TENSOR_CORES).0,
                GemvKind::Vectorised
            );
        }
        // Element by element: rows starting mid-byte, tails of every block size.
        for shape in [(1, 13, 4111), (5, 7, 333), (8, 3, 37)] {
            assert_eq!(
                check_kernel_lanes(format, shape, H200).0,
                GemvKind::AnyShape
            );
        }
    }
}

#[test]
fn every_tensor_core_kernel_lane_sums_to_the_reference_on_the_host() {
    for format in GpuFormat::ALL.into_iter().filter(|f| f.tensor_cores()) {
        let tile = format.mma_tile_codes() as usize;
        // One tile per warp or fewer (k = 128), tiles that do and do not fill the
        // four-deep unroll over eight warps (17, 33 and 40 tiles), every batch from 1 to 8,
        // and row counts that leave the last 16-row block partly empty (37, 5, 3) or not.
        // On a one-multiprocessor device (16 warps at once) blocks of 80 and 300 rows
        // take 2 warps and 1 warp, 37 rows 4; on an H200 every shape here takes 8.
        let one_sm = GemvDevice {
            tensor_cores: true,
            sms: 1,
        };
        for (m, n, tiles, device, warps) in [
            (1, 37, 128 / tile.min(128), H200, 8),
            (2, 16, 17, H200, 8),
            (3, 5, 40, H200, 8),
            (5, 3, 9, H200, 8),
            (8, 32, 24, H200, 8),
            (4, 19, 1, H200, 8),
            (6, 7, 33, H200, 8),
            (7, 2, 16, H200, 8),
            (1, 37, 13, one_sm, 4),
            (3, 80, 9, one_sm, 2),
            (8, 300, 5, one_sm, 1),
        ] {
            let tiles = tiles.max(1);
            // FP16 takes the tensor cores from two activation rows.
            let m = if format == GpuFormat::Fp16 {
                m.max(2)
            } else {
                m
            };
            assert_eq!(
                check_kernel_lanes(format, (m, n, tiles * tile), device),
                (GemvKind::TensorCore, warps),
                "{format:?}"
            );
        }
    }
}

#[test]
fn the_host_emulation_of_the_tensor_cores_follows_the_ptx_fragment_layout() {
    // A weight matrix and activations whose every product is distinct, through the
    // kernel with exactly one tile (FP16: 32 columns, k = 32) and one 16-row block, so a
    // misplaced fragment row or column shows as a wrong output, not as noise.
    let (m, n, k) = (8usize, 16usize, 32usize);
    let w: Vec<f32> = (0..n * k)
        .map(|i| ((i % 13) as f32 - 6.0) / 4.0 + (i / k) as f32)
        .collect();
    let bits: Vec<u8> = w
        .iter()
        .flat_map(|v| half::f16::from_f32(*v).to_bits().to_le_bytes())
        .collect();
    let x: Vec<u16> = (0..m * k)
        .map(|i| half::f16::from_f32(((i * 7 % 11) as f32 - 5.0) / 8.0 + (i / k) as f32).to_bits())
        .collect();
    let mut y = vec![f32::NAN; m * n];
    let tensor = [1.0f32];
    let scales = [0u8; 16];
    // SAFETY: buffers sized for an m x n x k FP16 GEMV.
    let status = unsafe {
        rf_host_gemv(
            GpuFormat::Fp16.code(),
            GemvKind::TensorCore.code(),
            8,
            m as u32,
            bits.as_ptr(),
            scales.as_ptr(),
            tensor.as_ptr(),
            x.as_ptr(),
            y.as_mut_ptr(),
            n as u32,
            k as u32,
        )
    };
    assert_eq!(status, 0);
    for i in 0..m {
        for r in 0..n {
            let want: f64 = (0..k)
                .map(|c| {
                    f64::from(half::f16::from_f32(w[r * k + c]).to_f32())
                        * f64::from(half::f16::from_bits(x[i * k + c]).to_f32())
                })
                .sum();
            let got = f64::from(y[i * n + r]);
            assert!(
                (got - want).abs() <= 1e-4 * want.abs().max(1.0),
                "y[{i}][{r}] = {got}, want {want}"
            );
        }
    }
}

#[test]
fn the_host_rounds_binary16_products_as_the_gpu_does() {
    // Every f32 that `half` rounds to binary16, at the edges of the subnormal and normal
    // ranges and ties, against the host build's rounding.
    let mut values = vec![
        0.0f32,
        -0.0,
        1.0,
        65504.0,
        65520.0,
        65519.99,
        1e-8,
        2.9802322e-8,
        5.9604645e-8,
        8.940697e-8,
    ];
    for e in -30..17 {
        // Mantissas at 1, halfway between binary16 neighbours (ties to even both ways),
        // one last place up, and just under 2.
        let ulp = 2f32.powi(-10);
        for m in [
            1.0f32,
            1.0 + ulp / 2.0,
            1.0 + 3.0 * ulp / 2.0,
            1.0 + ulp,
            1.5,
            2.0 - ulp / 2.0,
            2.0 - ulp / 4.0,
        ] {
            let v = m * 2f32.powi(e);
            values.push(v);
            values.push(-v);
        }
    }
    for v in values {
        // SAFETY: a pure function of a float.
        let got = unsafe { rf_host_f32_to_f16_bits(v) };
        assert_eq!(got, half::f16::from_f32(v).to_bits(), "{v:e}");
    }
    // Products: the host's FP32 product of two binary16 values, rounded once.
    for (a, b) in [
        (1.5f32, 1.25f32),
        (448.0, 0.001953125),
        (6.0, 448.0),
        (0.5, 6.1035156e-5),
    ] {
        let (ha, hb) = (
            half::f16::from_f32(a).to_bits(),
            half::f16::from_f32(b).to_bits(),
        );
        let pair = |h: u16| u32::from(h) | (u32::from(h) << 16);
        // SAFETY: a pure function of two integers.
        let got = unsafe { rf_host_h2_mul(pair(ha), pair(hb)) };
        let want = half::f16::from_f32(
            half::f16::from_bits(ha).to_f32() * half::f16::from_bits(hb).to_f32(),
        )
        .to_bits();
        assert_eq!(got, pair(want), "{a} x {b}");
    }
}

#[test]
fn every_minifloat_code_decodes_as_the_model_crate_decodes_it() {
    let same = |what: &str, code: u32, got: f32, want: f32| {
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "{what} code {code:#x}: header {got}, model {want}"
        );
    };
    for code in 0..16u32 {
        // SAFETY: pure functions of an integer.
        same(
            "e2m1",
            code,
            unsafe { rf_host_e2m1(code) },
            Scalar::Fp4E2m1.decode(code as u16),
        );
    }
    for code in 0..256u32 {
        // SAFETY: pure functions of an integer.
        let (e4m3, e8m0) = unsafe { (rf_host_e4m3(code), rf_host_e8m0(code)) };
        same("e4m3", code, e4m3, Scalar::Fp8E4m3.decode(code as u16));
        same("e8m0", code, e8m0, Scalar::E8m0.decode(code as u16));
    }
    for code in 0..128u32 {
        // SAFETY: a pure function of an integer.
        same(
            "ue4m3",
            code,
            unsafe { rf_host_ue4m3(code) },
            Scalar::Ue4m3.decode(code as u16),
        );
    }
    for code in 0..=u16::MAX {
        // SAFETY: pure functions of an integer.
        let (h, b) = unsafe { (rf_host_f16(code), rf_host_bf16(code)) };
        same(
            "f16",
            u32::from(code),
            h,
            half::f16::from_bits(code).to_f32(),
        );
        same(
            "bf16",
            u32::from(code),
            b,
            half::bf16::from_bits(code).to_f32(),
        );
    }
}

#[test]
fn codes_come_out_of_a_word_low_bits_first() {
    let word = 0x8765_4321u32;
    for (j, want) in [1, 2, 3, 4, 5, 6, 7, 8].into_iter().enumerate() {
        // SAFETY: a pure function of integers.
        assert_eq!(unsafe { rf_host_code_in_word(word, j as i32, 4) }, want);
    }
    // SAFETY: as above.
    assert_eq!(unsafe { rf_host_code_in_word(word, 3, 8) }, 0x87);
    // SAFETY: as above.
    assert_eq!(unsafe { rf_host_code_in_word(word, 1, 16) }, 0x8765);
}

#[test]
fn every_gpu_format_is_a_catalogue_format_with_a_codec() {
    for format in GpuFormat::ALL {
        assert_eq!(GpuFormat::of(format.format()), Some(format));
        let codec = Codec::for_format(format.format());
        assert_eq!(codec.element_bits(), format.element_bits(), "{format:?}");
    }
    assert_eq!(GpuFormat::of(Format::Fp32), None);
    assert_eq!(GpuFormat::Int4G128.format().name(), "int4-g128-fp16");
}

#[test]
fn every_kernel_the_launcher_names_is_defined_in_the_source() {
    let source = Module::Gemv.source();
    let kernels = Module::Gemv.kernels();
    assert_eq!(
        kernels.len(),
        GpuFormat::ALL.len() * 9 + GpuFormat::ALL.iter().filter(|f| f.tensor_cores()).count()
    );
    for format in GpuFormat::ALL {
        for (m, k) in [(1, 4096), (8, 4096), (3, 4111)] {
            for device in [NO_TENSOR_CORES, H200] {
                let launch = gemv_launch(format, m, 4097, k, device).expect("launchable");
                assert!(kernels.contains(&launch.kernel), "{}", launch.kernel);
            }
        }
        // Each entry point is stamped out by the source's macros under its stem.
        let stem = format
            .any_kernel()
            .replace("rf_gemv_", "")
            .replace("_any", "");
        assert!(
            source.contains(&format!("RF_GEMV_FORMAT({stem},")),
            "{stem}"
        );
        assert_eq!(
            source.contains(&format!("RF_GEMV_MMA({stem},")),
            format.tensor_cores(),
            "{stem}"
        );
    }
    for name in Module::Stream.kernels() {
        assert!(
            Module::Stream.source().contains(&format!("void {name}(")),
            "{name}"
        );
    }
}

#[test]
fn the_conversion_free_decoding_gives_every_code_exactly() {
    for format in GpuFormat::ALL {
        let codes = 1u32 << format.format().element_bits().min(16);
        for code in 0..codes {
            // SAFETY: pure functions of integers.
            let (slow, fast) = unsafe {
                (
                    rf_host_element(format.code(), code),
                    rf_host_element_fast(format.code(), code),
                )
            };
            assert!(
                slow.to_bits() == fast.to_bits() || (slow.is_nan() && fast.is_nan()),
                "{format:?} code {code:#x}: converted {slow:e}, fast {fast:e}"
            );
        }
    }
    // Activations: every finite binary16 pattern, subnormals and both zeros included.
    for code in 0..=u16::MAX {
        if code & 0x7c00 == 0x7c00 {
            continue;
        }
        // SAFETY: pure functions of an integer.
        let (slow, fast) = unsafe { (rf_host_f16(code), rf_host_finite_f16(code)) };
        assert_eq!(slow.to_bits(), fast.to_bits(), "binary16 {code:#06x}");
    }
}

#[test]
fn the_launch_and_the_kernels_agree_on_rows_per_warp() {
    // SAFETY: a constant from the host build of the kernels' header.
    let rows = unsafe { rf_host_rows_per_warp() };
    assert_eq!(rows, super::kernels::GEMV_ROWS_PER_WARP as i32);
    // SAFETY: constants and a pure function of the format's number.
    unsafe {
        assert_eq!(rf_host_mma_warps(), super::kernels::GEMV_MMA_WARPS as i32);
        assert_eq!(rf_host_mma_chunks(), super::kernels::GEMV_MMA_CHUNKS as i32);
        for format in GpuFormat::ALL {
            assert_eq!(
                rf_host_mma_reads(format.code()) != 0,
                format.tensor_cores(),
                "{format:?}"
            );
        }
    }
}

#[track_caller]
fn check_launch(format: GpuFormat, (m, n, k): (u64, u64, u64), kernel: &str, grid: u32) {
    let launch = gemv_launch(format, m, n, k, NO_TENSOR_CORES).expect("launchable");
    assert_eq!(launch.kernel, kernel);
    assert_eq!(launch.grid, grid);
    assert_eq!(launch.block, 128);
    assert_eq!(launch.kind.takes_m(), kernel.ends_with("_any"));
}

#[test]
fn launches_take_the_tensor_cores_for_whole_tiles_on_devices_that_have_them() {
    let mma = |format, (m, n, k)| gemv_launch(format, m, n, k, H200).expect("launchable");
    // A block takes 16 rows, with as many warps (8, 4, 2, 1) as let every block be
    // resident at once on the H200's 132 multiprocessors (16 warps each, 2,112): 8,192
    // rows are 512 blocks of 4 warps, 4,097 rows 257 of 8, 28,672 rows 1,792 of one.
    let launch = mma(GpuFormat::Int4G128, (1, 8192, 8192));
    assert_eq!(launch.kernel, "rf_gemv_int4_g128_mma");
    assert_eq!(
        (launch.grid, launch.block, launch.kind),
        (512, 128, GemvKind::TensorCore)
    );
    assert!(launch.kind.takes_m());
    let launch = mma(GpuFormat::Fp16, (8, 4097, 4096));
    assert_eq!((launch.grid, launch.block), (257, 256));
    let launch = mma(GpuFormat::Fp8E4m3, (1, 28672, 8192));
    assert_eq!((launch.grid, launch.block), (1792, 32));
    for (format, m, k, kind, why) in [
        // A tile is four 16-byte chunks a row: 32 FP16 columns, 64 FP8/INT8, 128 4-bit.
        (GpuFormat::Fp16, 2, 4128, GemvKind::TensorCore, "129 tiles"),
        (
            GpuFormat::Fp8E4m3,
            1,
            4128,
            GemvKind::Vectorised,
            "64.5 tiles",
        ),
        (
            GpuFormat::NvFp4,
            1,
            4160,
            GemvKind::Vectorised,
            "32.5 tiles",
        ),
        (
            GpuFormat::NvFp4,
            1,
            4111,
            GemvKind::AnyShape,
            "rows start mid-chunk",
        ),
        // FP16 with one activation row stays on the 16-byte kernel (measured no faster).
        (
            GpuFormat::Fp16,
            1,
            4096,
            GemvKind::Vectorised,
            "FP16 at batch 1",
        ),
        (
            GpuFormat::Int8,
            1,
            4096,
            GemvKind::TensorCore,
            "INT8 at batch 1",
        ),
        // BF16 and MXFP4 have no tensor-core kernel.
        (GpuFormat::Bf16, 8, 4096, GemvKind::Vectorised, "BF16"),
        (GpuFormat::MxFp4, 8, 4096, GemvKind::Vectorised, "MXFP4"),
    ] {
        assert_eq!(mma(format, (m, 8, k)).kind, kind, "{why}");
    }
    // A device without tensor cores runs the 16-byte kernels.
    assert_eq!(
        gemv_launch(GpuFormat::Fp16, 1, 8, 4096, NO_TENSOR_CORES)
            .unwrap()
            .kind,
        GemvKind::Vectorised
    );
}

#[test]
fn launches_take_the_vector_kernel_only_when_rows_start_on_16_bytes() {
    // Four warps per block; the vector kernels give a warp four rows (16 a block), the
    // element kernels one (4 a block).
    check_launch(GpuFormat::Fp16, (1, 4096, 4096), "rf_gemv_fp16_m1", 256);
    check_launch(GpuFormat::Fp16, (8, 4097, 4096), "rf_gemv_fp16_m8", 257);
    // FP16 rows need k % 8 == 0; FP8 16; FP4 and INT4 32.
    check_launch(GpuFormat::Fp16, (1, 8, 4104), "rf_gemv_fp16_m1", 1);
    check_launch(GpuFormat::Fp8E4m3, (1, 8, 4104), "rf_gemv_fp8_e4m3_any", 2);
    check_launch(GpuFormat::NvFp4, (2, 8, 4128), "rf_gemv_nvfp4_m2", 1);
    check_launch(GpuFormat::NvFp4, (2, 8, 4112), "rf_gemv_nvfp4_any", 2);
    // K not a multiple of the group: still the element kernel's job only when rows are
    // misaligned; a short last group is read through the scale index.
    check_launch(
        GpuFormat::Int4G128,
        (1, 4097, 4111),
        "rf_gemv_int4_g128_any",
        1025,
    );
    check_launch(GpuFormat::Int4G128, (1, 1, 4160), "rf_gemv_int4_g128_m1", 1);
    check_launch(GpuFormat::MxFp4, (1, 28672, 8192), "rf_gemv_mxfp4_m1", 1792);
}

#[test]
fn launches_refuse_what_the_kernels_cannot_index() {
    let f = GpuFormat::Bf16;
    assert_eq!(gemv_launch(f, 0, 8, 8, H200), Err(LaunchError::Rows(0)));
    assert_eq!(gemv_launch(f, 9, 8, 8, H200), Err(LaunchError::Rows(9)));
    assert_eq!(
        gemv_launch(f, 1, 0, 8, H200),
        Err(LaunchError::Empty { what: "n" })
    );
    assert_eq!(
        gemv_launch(f, 1, 8, 1 << 31, H200),
        Err(LaunchError::TooLarge {
            what: "k",
            value: 1 << 31
        })
    );
    assert!(
        gemv_launch(f, 9, 8, 8, H200)
            .unwrap_err()
            .to_string()
            .contains("1 to 8")
    );
}

#[test]
fn rotations_keep_every_timed_read_out_of_l2() {
    let l2 = 50 << 20;
    // 32 MiB of FP16 (4096 x 4096): 100 MiB of others is 4 copies, plus the one read.
    assert_eq!(rotations(32 << 20, l2), 5);
    // A copy of twice the L2 or more evicts itself.
    assert_eq!(rotations(100 << 20, l2), 1);
    assert_eq!(rotations(470 << 20, l2), 1);
    // Tiny inputs are capped.
    assert_eq!(rotations(1024, l2), 64);
    for bytes in [1u64, 1000, 1 << 20, 7 << 20, 99 << 20] {
        let copies = rotations(bytes, l2);
        assert!(
            copies == 64 || (u64::from(copies) - 1) * bytes >= 2 * l2,
            "{bytes}: {copies}"
        );
    }
}

#[test]
fn stream_grids_fill_the_device_without_idle_blocks() {
    assert_eq!(stream_grid(1, 132), 1);
    assert_eq!(stream_grid(256 * 10, 132), 10);
    assert_eq!(stream_grid(1 << 30, 132), 132 * 8);
    assert_eq!(stream_grid(0, 0), 1);
}

#[test]
fn byte_counts_are_the_packed_tensor_the_kernels_read() {
    // 4096 x 4096: FP16 32 MiB; NVFP4 4 bits + one UE4M3 per 16 (+ the FP32 tensor
    // scale); INT4 g128 4 bits + one FP16 per 128.
    assert_eq!(weight_bytes(Format::Fp16, 4096, 4096), 4096 * 4096 * 2);
    assert_eq!(
        weight_bytes(Format::NvFp4, 4096, 4096),
        4096 * 4096 / 2 + 4096 * 4096 / 16 + 4
    );
    assert_eq!(
        weight_bytes(GpuFormat::Int4G128.format(), 4096, 4096),
        4096 * 4096 / 2 + 4096 * 4096 / 128 * 2
    );
    for format in GpuFormat::ALL {
        let q = Codec::for_format(format.format())
            .quantize(&sample(64, 256), 256)
            .expect("quantises");
        assert_eq!(
            weight_bytes(format.format(), 64, 256),
            q.storage_bytes() as u64,
            "{format:?}"
        );
    }
}

#[test]
fn devices_are_matched_to_the_registry_by_name_and_capability() {
    let cases = [
        ("NVIDIA H100 80GB HBM3", (9, 0), Some("h100-sxm")),
        ("NVIDIA H100 PCIe", (9, 0), Some("h100-pcie")),
        ("NVIDIA H100 NVL", (9, 0), Some("h100-nvl")),
        ("NVIDIA H200", (9, 0), Some("h200")),
        ("NVIDIA H200 NVL", (9, 0), Some("h200-nvl")),
        ("NVIDIA B200", (10, 0), Some("b200")),
        ("NVIDIA GB200", (10, 0), Some("gb200")),
        ("NVIDIA GB10", (12, 1), Some("gb10")),
        ("NVIDIA A100-SXM4-80GB", (8, 0), Some("a100-sxm")),
        ("NVIDIA A100-PCIE-40GB", (8, 0), None),
        ("NVIDIA L40S", (8, 9), Some("l40s")),
        ("Orin", (8, 7), Some("jetson-agx-orin")),
        ("NVIDIA GeForce RTX 4090", (8, 9), Some("rtx-4090")),
        ("NVIDIA GeForce RTX 5090", (12, 0), Some("rtx-5090")),
        ("NVIDIA GeForce RTX 5080", (12, 0), None),
        ("NVIDIA GH200 480GB", (9, 0), Some("gh200")),
    ];
    for (name, cc, want) in cases {
        assert_eq!(registry_key(name, cc), want, "{name}");
        if let Some(key) = want {
            assert!(
                rooflinr_model::hardware::registry::get(key).is_ok(),
                "{key}"
            );
        }
    }
}

#[test]
fn theoretical_bandwidth_is_double_data_rate_over_the_bus() {
    // H100 SXM: 2619 MHz HBM3 on 5120 bits reports 3.35 TB/s.
    let bw = theoretical_bandwidth(2_619_000, 5120).expect("both reported");
    assert!((bw / 1e12 - 3.352).abs() < 0.001, "{bw}");
    assert_eq!(theoretical_bandwidth(0, 256), None);
}

fn found() -> Found {
    Found {
        driver: Ok((CudaVersion::from_driver(13000), 1)),
        nvrtc: Ok(CudaVersion {
            major: 13,
            minor: 0,
        }),
        cublaslt: Ok(()),
        nvml: Ok(()),
    }
}

fn named<'a>(caps: &'a [Capability], name: &str) -> &'a Capability {
    caps.iter().find(|c| c.name == name).expect("listed")
}

#[test]
fn a_complete_machine_lists_four_capabilities_and_no_reason() {
    let caps = capabilities(&found());
    assert_eq!(
        caps.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["driver", "nvrtc", "cublaslt", "nvml"]
    );
    assert!(caps.iter().all(|c| c.available));
    assert_eq!(named(&caps, "driver").detail, "CUDA 13.0 driver, 1 GPU(s)");
    assert_eq!(unavailable_reason(&caps), None);
}

#[test]
fn each_absence_names_what_is_missing() {
    let mut f = found();
    f.driver = Err(messages::no_driver());
    f.nvml = Err("libnvidia-ml.so.1 was not found".into());
    let caps = capabilities(&f);
    let reason = unavailable_reason(&caps).expect("unavailable");
    assert!(reason.contains("libcuda.so.1"), "{reason}");
    assert!(!named(&caps, "nvml").available);

    let mut f = found();
    f.nvrtc = Err(messages::no_nvrtc());
    let reason = unavailable_reason(&capabilities(&f)).expect("unavailable");
    assert!(reason.contains("libnvrtc.so"), "{reason}");

    // cuBLASLt missing narrows what is measured but leaves the backend usable.
    let mut f = found();
    f.cublaslt = Err(messages::no_cublaslt());
    let caps = capabilities(&f);
    assert_eq!(unavailable_reason(&caps), None);
    assert!(
        named(&caps, "cublaslt")
            .detail
            .contains("GEMV and bandwidth are")
    );
}

#[test]
fn nvrtc_newer_than_the_driver_is_a_mismatch() {
    let mut f = found();
    f.driver = Ok((CudaVersion::from_driver(12080), 1));
    let caps = capabilities(&f);
    let nvrtc = named(&caps, "nvrtc");
    assert!(!nvrtc.available);
    assert!(
        nvrtc
            .detail
            .contains("NVRTC 13.0 is newer than the driver's CUDA 12.8"),
        "{}",
        nvrtc.detail
    );
    assert!(unavailable_reason(&caps).is_some());
    // Older NVRTC on a newer driver is fine (the driver JITs older PTX).
    f.driver = Ok((CudaVersion::from_driver(13020), 1));
    assert!(capabilities(&f).iter().all(|c| c.available));
}

#[test]
fn without_a_driver_the_backend_says_why_and_measures_nothing() {
    // On a machine with a GPU this test still holds the backend to its word: available
    // exactly when it opened a GPU, and a reason whenever it did not.
    let backend = CudaBackend::probe(CudaOptions::default());
    let info = backend.info();
    assert_eq!(info.kind, rooflinr_protocol::BackendKind::Cuda);
    assert_eq!(info.capabilities.len(), 4);
    if info.available {
        assert!(info.device.is_some());
        assert_eq!(backend.formats().len(), GpuFormat::ALL.len());
    } else {
        let reason = info.reason.expect("a reason");
        assert!(!reason.is_empty());
        assert!(backend.formats().is_empty());
        assert!(backend.peak_formats().is_empty());
        let cancel = AtomicBool::new(false);
        let err = backend
            .measure(&Work::Read, &StopRule::DEFAULT, &cancel)
            .expect_err("no GPU");
        assert!(matches!(
            err,
            MeasureError::OutOfMemory { .. } | MeasureError::Unsupported(_)
        ));
    }
}

#[test]
fn gemm_types_follow_the_tensor_cores() {
    let ampere = [Format::Fp16, Format::Bf16, Format::Tf32, Format::Int8];
    assert_eq!(GemmType::formats((8, 0)), ampere);
    assert_eq!(GemmType::formats((9, 0))[..4], ampere);
    assert_eq!(GemmType::formats((9, 0))[4], Format::Fp8E4m3);
    assert_eq!(GemmType::formats((7, 5)), [Format::Fp16, Format::Bf16]);
    // INT8 accumulates into INT32 outputs, TF32 into FP32. Inputs of at least twice the L2
    // are held once (a 256 KiB L2 here); smaller ones are copied to rotate through.
    let l2 = 256 << 10;
    assert_eq!(
        gemm_bytes(Format::Int8, (1024, 1024, 1024), l2),
        2 * 1024 * 1024 + 1024 * 1024 * 4 + (32 << 20)
    );
    // Against a 50 MiB L2, as many copies as rotations() asks: twice the L2 over 2 MiB,
    // plus the one read, 51.
    assert_eq!(
        gemm_bytes(Format::Int8, (1024, 1024, 1024), 50 << 20),
        51 * 2 * 1024 * 1024 + 1024 * 1024 * 4 + (32 << 20)
    );
    // Block-scaled MMA from sm_100: NVFP4 is half a byte an element, plus a scale per 16.
    assert_eq!(
        &GemmType::formats((10, 0))[5..],
        [Format::NvFp4, Format::MxFp8E4m3, Format::MxFp4]
    );
    assert_eq!(
        gemm_bytes(Format::NvFp4, (1024, 1024, 1024), l2),
        1024 * 1024 + 2 * 1024 * 1024 / 16 + 1024 + 1024 * 1024 * 2 + (32 << 20)
    );
    // Outputs are read back as their type: an INT32 of -7, an FP32 of 0.5, a BF16 of 1.
    let bytes: Vec<u8> = (-7i32)
        .to_le_bytes()
        .into_iter()
        .chain(0.5f32.to_le_bytes())
        .collect();
    assert_eq!(output_value(GemmType::Int8, &bytes, 0), -7.0);
    assert_eq!(output_value(GemmType::Tf32, &bytes, 1), 0.5);
    assert_eq!(output_value(GemmType::Bf16, &[0x80, 0x3f], 0), 1.0);
    assert_eq!(GemmType::of(Format::NvFp4), Some(GemmType::NvFp4));
    assert_eq!(GemmType::of(Format::Nf4), None);
    // 8192^3 BF16: two 128 MiB inputs, a 128 MiB output and the workspace.
    assert_eq!(
        gemm_bytes(Format::Bf16, (8192, 8192, 8192), 50 << 20),
        3 * 8192 * 8192 * 2 + (32 << 20)
    );
}

#[test]
fn clocks_summarise_the_samples_and_count_throttling() {
    use super::gpu::clock_stats;
    assert_eq!(clock_stats(&[]), None);
    let c = clock_stats(&[
        (1980, vec![]),
        (1755, vec!["sw_power_cap".into()]),
        (1980, vec![]),
    ])
    .expect("samples");
    assert_eq!(c.sm_clock_mhz_median, 1980.0);
    assert_eq!(c.sm_clock_mhz_min, 1755.0);
    assert_eq!(c.throttled_samples, 1);
    assert_eq!(c.throttle_reasons, ["sw_power_cap"]);
}

#[test]
fn an_idle_gpu_is_not_throttled() {
    use crate::telemetry::nvml::throttling;
    use nvml_wrapper::bitmasks::device::ThrottleReasons;
    assert!(
        throttling(ThrottleReasons::GPU_IDLE | ThrottleReasons::APPLICATIONS_CLOCKS_SETTING)
            .is_empty()
    );
    assert_eq!(
        throttling(ThrottleReasons::GPU_IDLE | ThrottleReasons::SW_POWER_CAP),
        ["sw_power_cap"]
    );
}

#[test]
fn uuids_are_written_as_nvml_writes_them() {
    let bytes: [std::ffi::c_char; 16] = std::array::from_fn(|i| (i * 17) as u8 as std::ffi::c_char);
    assert_eq!(
        super::gpu::uuid_text(&bytes),
        "GPU-00112233-4455-6677-8899-aabbccddeeff"
    );
}

#[test]
fn block_scales_are_tiled_as_cublaslt_reads_them() {
    use super::gemm::{block_scale_offset, tile_block_scales};
    // NVIDIA's worked example (nvmath-python, get_block_scale_offset): an NVFP4 A of
    // 128 x 128 has 8 scales a row; (row 5, block 2) sits at 82 and (5, 5) at 593.
    assert_eq!(block_scale_offset(5, 2, 8), 82);
    assert_eq!(block_scale_offset(5, 5, 8), 593);
    // Rows 32 apart share a 16-byte line; the next 128 rows start the next tile row.
    assert_eq!(block_scale_offset(32, 0, 8), 4);
    assert_eq!(block_scale_offset(128, 0, 8), 2 * 512);
    // Every scale lands once, in a buffer padded to whole 128 x 4 tiles.
    let (rows, blocks) = (130, 6);
    let scales: Vec<u8> = (0..rows * blocks).map(|i| (i % 251) as u8 + 1).collect();
    let tiled = tile_block_scales(&scales, rows, blocks);
    assert_eq!(tiled.len(), 256 * 8);
    let mut seen = vec![false; tiled.len()];
    for row in 0..rows {
        for block in 0..blocks {
            let at = block_scale_offset(row, block, blocks);
            assert!(!seen[at], "({row}, {block}) collides");
            seen[at] = true;
            assert_eq!(tiled[at], scales[row * blocks + block]);
        }
    }
    assert_eq!(tiled.iter().filter(|b| **b != 0).count(), rows * blocks);
}

#[test]
fn block_scaled_gemm_inputs_are_the_codecs_bytes_and_values() {
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let input = gemm_input(GemmType::NvFp4, Format::NvFp4, 130, 64, &mut rng).expect("k % 16 == 0");
    assert_eq!(input.bytes.len(), 130 * 64 / 2);
    assert_eq!(input.scales.as_ref().map(Vec::len), Some(256 * 4));
    assert!(input.tensor_scale > 0.0 && input.tensor_scale != 1.0);
    assert_eq!(input.values.len(), 130 * 64);
    let mx = gemm_input(GemmType::MxFp4, Format::MxFp4, 4, 64, &mut rng).expect("k % 32 == 0");
    assert_eq!(mx.tensor_scale, 1.0);
    let refused = gemm_input(GemmType::MxFp8, Format::MxFp8E4m3, 4, 48, &mut rng);
    assert!(matches!(refused, Err(MeasureError::Unsupported(m)) if m.contains("multiple of 32")));
}
