//! GEMM kernels as the libraries tile them: the MMA fragment and output tile, split-K and
//! its partial-sum reduction, the serial share of one SM, and the activation quantisation
//! pass of a low-precision GEMM.

use super::*;

/// Rows and columns of the smallest tensor-core operand fragment: `mma.m16n8k16` (PTX ISA,
/// "Matrix shape") works on 16 x 8 outputs, and kernels swap A and B so the smaller side
/// takes the 8; a GEMM with M = 1 still runs whole fragments.
pub(super) const FRAGMENT: (u64, u64) = (16, 8);
/// The output tile most Hopper and Blackwell GEMM kernels use (CUTLASS's and cuBLAS's
/// default 128 x 128).
pub(super) const TILE: u64 = 128;
/// The least K one SM takes of a tile when a GEMM's work is shared out along K: two
/// 64-deep k-blocks. Chosen on NVIDIA's GEMM tables (`rooflinr validate`): 512 left the
/// shapes just past a whole wave of tiles 25-55 % slower than measured on H100. Against
/// 256, 128 brought the L40S's BF16 held-out p90 from 35 to 31 % (one 128 x 128 x 256 tile
/// there takes 2.8 us, less than one SM's share of the peak allows) and moved no other
/// held-out group by more than a point; 64 raised B200's FP8 from 4 / 12 to 7 / 19 % and
/// A100's BF16 p90 from 25 to 27 %.
pub(super) const MIN_SPLIT_K: u64 = 128;

/// The fraction of the tensor cores' work that is useful for an `m x n x k` GEMM on `sms`
/// multiprocessors: fragment padding times wave efficiency. The work is shared out as
/// stream-K kernels do (Osama et al., "Stream-K: Work-centric Parallel Decomposition for
/// Dense Matrix-Matrix Multiplication on the GPU", PPoPP 2023; CUTLASS's and cuBLAS's
/// Hopper and Blackwell GEMMs): each 128 x 128 output tile's K loop in chunks of at least
/// `MIN_SPLIT_K` (128), spread evenly over the SMs, so only the last round of chunks leaves
/// SMs idle, and a GEMM with fewer chunks than SMs leaves the rest idle. A GEMM with a
/// few more tiles than SMs no longer pays a second, nearly empty wave of whole tiles:
/// NVIDIA's BF16 tables show it does not (H100 BF16 held-out p90 30 -> 26 %).
pub fn tile_efficiency(m: u64, n: u64, k: u64, sms: u32) -> f64 {
    if m == 0 || n == 0 || k == 0 || sms == 0 {
        return 1.0;
    }
    let (small, large) = (m.min(n), m.max(n));
    let padded = small.div_ceil(FRAGMENT.1) * FRAGMENT.1 * large.div_ceil(FRAGMENT.0) * FRAGMENT.0;
    let padding = (m * n) as f64 / padded as f64;
    let sms = u64::from(sms);
    let tiles = m.div_ceil(TILE) * n.div_ceil(TILE);
    let units = tiles * (k / MIN_SPLIT_K).max(1);
    let wave = units as f64 / (units.div_ceil(sms) * sms) as f64;
    padding * wave
}

/// K from which a GEMM with few output tiles is split into partial products and a
/// reduction of them ([`reduces_partial_sums`]) on Hopper and the sm_100 family, and for
/// 8-bit or narrower activations everywhere.
pub(super) const REDUCED_SPLIT_K: u64 = 2048;
/// K from which 16-bit GEMMs with few output tiles split and reduce on the other
/// architectures ([`reduced_split_k`]).
pub(super) const REDUCED_SPLIT_K_16_BIT_ELSEWHERE: u64 = 512;

/// The K from which a GEMM with few output tiles on `hw` with `activations` splits K and
/// reduces the partial sums ([`reduces_partial_sums`]). On A100 (sm_80), L40S (sm_89) and
/// RTX PRO 6000 (sm_120) NVIDIA's BF16 tables at M = 2-16 run 18-36 % slower than the
/// single-step prediction from K = 512 (A100 8 x 4096 x 512: 10.6 us, 8 x 4096 x 256:
/// 4.9 us); counting the second step from there brought the held-out BF16 p90 from 25 to
/// 23 % on A100, 31 to 29 % on L40S and 28 to 26 % on RTX PRO 6000 (vLLM's and SGLang's
/// tables under TensorRT-LLM's terms 1-3 points lower too) and moved no other group. Their
/// FP8 GEMMs, counted so, fitted worse (L40S p90 17 -> 19 %), and Hopper's and Blackwell's
/// tables split from 2,048 ([`REDUCED_SPLIT_K`]).
pub fn reduced_split_k(hw: &Hardware, activations: Format) -> u64 {
    let hopper_or_blackwell = hw.sm_version() == Some(90) || hw.has_tcgen05();
    if hopper_or_blackwell || activations.bits_per_element() < 16.0 {
        REDUCED_SPLIT_K
    } else {
        REDUCED_SPLIT_K_16_BIT_ELSEWHERE
    }
}

/// Whether an `m x n x k` GEMM with `activations` on `hw` runs as two dependent kernels:
/// partial products over slices of K, then a reduction of the partial sums. A GEMM with
/// fewer 128 x 128 output tiles than SMs, over a K of at least 2,048
/// ([`reduced_split_k`]), leaves SMs idle unless K is shared out, as [`tile_efficiency`]
/// counts it; the split's second step is a kernel of its own, whose launch and prologue no
/// pipeline hides. Kernels with block scales keep each tile on one SM and do not split
/// (NVFP4's tables grow with K at one SM's rate). Read off NVIDIA's GEMM tables, not a
/// kernel library's source: H100 BF16 at M = 8, N = 256 takes 2.7 us at K = 64 and 4.7 us
/// at K = 1,536, flat at 5.9 us from K = 2,560 to 7,168, while its bytes take under 1 us;
/// counting this step brings BF16's held-out p90 from 26-30 % to about 20 % on Hopper and
/// Blackwell (NVFP4's would rise from 23 to 40 %, so block-scaled GEMMs are left out).
/// The step holds for any number of tiles short of one per SM: the tables take no less
/// time for a wider GEMM of a few tiles more (H200 BF16 at M = 1, K = 2,048: 5.7 us at
/// N = 2,048, 16 tiles; 6.5 us at N = 2,560, 20 tiles), and a step that stopped at a few
/// tiles would make the wider GEMM the faster one.
pub fn reduces_partial_sums(m: u64, n: u64, k: u64, activations: Format, hw: &Hardware) -> bool {
    let sms = hw.sms();
    let tiles = m.div_ceil(TILE) * n.div_ceil(TILE);
    sms > 0
        && !activations.is_block_scaled()
        && tiles < u64::from(sms)
        && k >= reduced_split_k(hw, activations)
}

/// Rows of the output one GEMM tile spans on `hw`: 256 where a pair of SMs computes one
/// tile together (`tcgen05.mma.cta_group::2`, PTX ISA 9.0, on sm_100 and sm_103: each SM
/// of the pair holds 128 rows and half the weights' columns), 128 elsewhere ([`TILE`]).
/// NVIDIA's B200 NVFP4 GEMM tables take as long at M = 256 as at M = 128 (N = 2,048,
/// K = 65,536: 134.5 and 132.8 us), and 1.7-2.0x as long at M = 257 (N = 51,200 and
/// 65,536).
pub fn gemm_tile_rows(hw: &Hardware) -> u64 {
    if hw.has_tcgen05() { 2 * TILE } else { TILE }
}

/// The output tile a persistent Hopper GEMM kernel computes, and the cluster of tiles it
/// launches together ([`KernelTimes::in_whole_tiles`]). Rows and columns are of the kernel's
/// own M and N: where it swaps the operands, its M is the weights' rows (the GEMM's N).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmTile {
    /// Rows of the kernel's M per tile.
    pub rows: u64,
    /// Columns of the kernel's N per tile.
    pub columns: u64,
    /// Tiles per cluster along the kernel's M and N: the grid is rounded up to whole
    /// clusters, and every tile of a cluster runs, in bounds or not.
    pub cluster: (u64, u64),
    /// Whether the kernel computes the transposed product (the weights as its first
    /// operand), so that a few tokens fill its tiles' columns instead of its rows.
    pub swapped: bool,
}

impl GemmTile {
    /// The tile of vLLM's per-tensor FP8 GEMM on sm_90 (`cutlass_scaled_mm`) for an
    /// `m x n` output, as its dispatch picks it (vLLM `csrc/quantization/w8a8/cutlass/c3x/
    /// scaled_mm_sm90_fp8_dispatch.cuh`): up to 16 tokens the operands swapped in 64 x 16
    /// tiles (clusters of 2 along the tokens where N <= 1,280), up to 64 swapped in 64 x 64
    /// (64 x 16 in clusters of 4 where N <= 1,280), up to 128 64 x 128 tiles in clusters of
    /// 2 along M, past that 128 x 128 in clusters of 2 along M. SGLang 0.5.14's tables step
    /// at the same M (its time at N = 16,384, K = 8,192 is 43 us at M = 128, 86 at 129 and
    /// 57 at 256, as vLLM's 44, 87 and 54), so its rows are read with the same tiles.
    pub fn cutlass_sm90_fp8(m: u64, n: u64) -> GemmTile {
        let narrow = n <= 1280;
        let swapped = |columns, cluster| GemmTile {
            rows: 64,
            columns,
            cluster: (1, cluster),
            swapped: true,
        };
        match m {
            0..=16 => swapped(16, if narrow { 2 } else { 1 }),
            17..=64 if narrow => swapped(16, 4),
            17..=64 => swapped(64, 1),
            65..=128 => GemmTile {
                rows: 64,
                columns: 128,
                cluster: (2, 1),
                swapped: false,
            },
            _ => GemmTile {
                rows: 128,
                columns: 128,
                cluster: (2, 1),
                swapped: false,
            },
        }
    }

    /// The tile the kernel `framework` runs an `m x n` GEMM in `precision` on `hw` with, where
    /// the model knows it: vLLM's and SGLang's per-tensor FP8 GEMMs on sm_90
    /// ([`GemmTile::cutlass_sm90_fp8`]). `None` elsewhere: those GEMMs are counted as shared
    /// out over the SMs ([`tile_efficiency`]).
    pub fn of(
        framework: Framework,
        m: u64,
        n: u64,
        precision: &Precision,
        hw: &Hardware,
    ) -> Option<GemmTile> {
        let fp8 = Format::Fp8E4m3;
        let per_tensor_fp8 = precision.activations == fp8 && precision.weights == fp8;
        (framework != Framework::TensorRtLlm && per_tensor_fp8 && hw.sm_version() == Some(90))
            .then(|| GemmTile::cutlass_sm90_fp8(m, n))
    }

    /// The kernel's tiles along its M and N for an `m x n` output, each rounded up to whole
    /// clusters.
    pub(super) fn grid(&self, m: u64, n: u64) -> (u64, u64) {
        let (kernel_m, kernel_n) = if self.swapped { (n, m) } else { (m, n) };
        let whole = |extent: u64, tile: u64, cluster: u64| {
            extent.div_ceil(tile).div_ceil(cluster.max(1)) * cluster.max(1)
        };
        (
            whole(kernel_m, self.rows, self.cluster.0),
            whole(kernel_n, self.columns, self.cluster.1),
        )
    }
}

/// The share of a GEMM's weights one SM streams in series when each output tile of
/// `tile_rows` x 128 of an `m x n` output runs whole on one of `sms` SMs and streams its
/// own 128-column panel of the weights (the whole of `k`): the tiles of the fullest wave
/// over the column panels, ceil(tiles / SMs) / ceil(n / 128) (1 for one tile; 1 / 148 for
/// 148 column panels on 148 SMs; 2 / 148 for twice as many tiles, two row blocks: each SM
/// streams two panels). Row blocks over one column panel each stream it, side by side, so
/// more rows do not share out the weights: B200's NVFP4 tables take as long at M = 129 as
/// at M = 128, where a share of all the bytes over all the tiles had them twice as fast
/// (B200 and GB200 NVFP4 held-out p90 22 -> 13 %, with [`gemm_tile_rows`]). 0 when the
/// SM count is unknown.
pub fn serial_tile_share(m: u64, n: u64, tile_rows: u64, sms: u32) -> f64 {
    if sms == 0 || m == 0 || n == 0 || tile_rows == 0 {
        return 0.0;
    }
    let panels = n.div_ceil(TILE);
    let tiles = m.div_ceil(tile_rows) * panels;
    tiles.div_ceil(u64::from(sms)) as f64 / panels as f64
}

/// Elements of a token's row that a per-token quantisation pass's block takes in one step
/// ([`per_token_quantise_steps`]).
pub(super) const PER_TOKEN_QUANTISE_CHUNK: u64 = 2048;

/// The steps of a pass that quantises `m` token rows of `k` activations with a block per
/// token on `sms` SMs, in series on each SM ([`KernelTimes::quantise_steps`]): ceil(m / sms)
/// waves of rows, each row's block walking its K in chunks of 2,048 and taking one step
/// more. Read off NVIDIA's tables of vLLM's FP8 GEMMs, whose pass is such a kernel, not
/// from its source: at N = 32 (where the GEMM itself is a few microseconds) the time grows
/// in proportion to M whatever K within a chunk (H200 at M = 32,768: 240 us at K = 128,
/// 262 at 2,048) and by a step for each further chunk (394 us at K = 2,560, 548 at
/// 5,120, 1,288 at 16,384): about 0.5 us a step on each SM, on every GPU the tables cover
/// (B200 213 us, RTX PRO 6000 126 us at M = 32,768, K = 128 on their 148 and 188 SMs).
/// 0 when the SM count is unknown.
pub fn per_token_quantise_steps(m: u64, k: u64, sms: u32) -> f64 {
    if sms == 0 || m == 0 || k == 0 {
        return 0.0;
    }
    (m.div_ceil(u64::from(sms)) * (k.div_ceil(PER_TOKEN_QUANTISE_CHUNK) + 1)) as f64
}

/// Bytes of the pass that quantises a GEMM's activations before an FP8 or FP4 GEMM: the
/// `m x k` activations read in BF16 and written in their format (scales included). Low-
/// precision GEMMs in serving frameworks take BF16 activations and run this first;
/// 0 for 16- and 32-bit activations.
pub fn activation_quantisation_bytes(m: u64, k: u64, activations: Format) -> f64 {
    if activations.bits_per_element() >= 16.0 {
        return 0.0;
    }
    let elements = (m * k) as f64;
    elements * 2.0 + activations.tensor_bytes(elements).get()
}
