//! Fused MoE layers: the shape and router load one GPU of an expert-parallel group
//! computes, and the whole tiles of token rows each engine's kernel computes per expert.

use super::*;

/// A fused MoE layer on one GPU: what NVIDIA's MoE tables measure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoeShape {
    /// Tokens in the batch.
    pub tokens: f64,
    /// Model width.
    pub hidden: f64,
    /// Each expert's intermediate width on this GPU (after tensor parallelism).
    pub intermediate: f64,
    /// Experts each token is routed to.
    pub top_k: f64,
    /// Routed experts in the model.
    pub experts: f64,
    /// GPUs the experts are spread over.
    pub expert_parallel: f64,
    /// SwiGLU (gate and up) rather than a single up projection.
    pub gated: bool,
}

/// The routed work that lands on one GPU of an expert-parallel group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoeLoad {
    /// Token copies routed to this GPU's experts.
    pub assignments: f64,
    /// This GPU's experts that receive at least one copy (their weights are read).
    pub experts_touched: f64,
}

impl MoeShape {
    /// The width of each expert's first GEMM: gate and up fused, or the single up
    /// projection.
    pub fn first_width(&self) -> f64 {
        let matrices = if self.gated { 2.0 } else { 1.0 };
        matrices * self.intermediate
    }

    /// The experts' two GEMMs on a GPU carrying `load`, each expert over the copies routed
    /// to it: gate and up fused (or the single up projection), then down.
    pub fn expert_gemms(&self, load: &MoeLoad) -> [Op; 2] {
        let (batch, m) = (load.experts_touched, load.per_expert());
        [
            Op::BatchedGemm {
                batch,
                m,
                n: self.first_width(),
                k: self.hidden,
            },
            Op::BatchedGemm {
                batch,
                m,
                n: self.hidden,
                k: self.intermediate,
            },
        ]
    }
}

impl MoeLoad {
    /// Copies per touched expert (0 where none is touched).
    pub fn per_expert(&self) -> f64 {
        if self.experts_touched > 0.0 {
            self.assignments / self.experts_touched
        } else {
            0.0
        }
    }

    /// The expected load under a router that spreads tokens evenly at random: a share
    /// `1 / expert_parallel` of every copy and of the experts touched.
    pub fn uniform(shape: &MoeShape) -> MoeLoad {
        MoeLoad {
            assignments: shape.tokens * shape.top_k / shape.expert_parallel,
            experts_touched: crate::analysis::expected_distinct_experts(
                shape.experts,
                shape.top_k,
                shape.tokens,
            ) / shape.expert_parallel,
        }
    }
}

/// The token rows of one tile of the TRT-LLM-Gen fused MoE kernels (sm_100 and sm_103;
/// TensorRT-LLM's `TRTLLMGenFusedMoE`, and FlashInfer's `trtllm_fused_moe` that SGLang and
/// vLLM call), as their launcher picks it: the average copies per local expert, `tokens x
/// top_k / local_experts` as if every copy were local, rounded up to a power of two and
/// held to the kernel's ladder of tiles, 8 to 64 rows for 4-bit weights with BF16
/// activations, 8 to 256 for 4-bit weights with 8- or 4-bit activations and for MXFP8, 8
/// to 128 otherwise (FlashInfer `csrc/trtllm_fused_moe_kernel_launcher.cu`:
/// `computeSelectedTileN` and each launcher's supported tiles). Every expert with a copy
/// computes whole tiles of rows ([`KernelTimes::moe`]), so at expert parallelism, where a
/// `1 / ep` share of the copies is local, most of a tile is padding: NVIDIA's B200
/// W4A8 MXFP4 table (TensorRT-LLM, hidden 4,096, 16 of 256 experts local, top 6) takes
/// 74 us at 160 tokens (a 64-row tile), 112 at 192 (128 rows) and 205 at 384 (256 rows).
/// The launcher also offers the autotuner the ladder's neighbours of this tile; held
/// against the tables, this tile fits better than the next smaller one.
pub fn trtllm_gen_moe_tile(
    tokens: u64,
    top_k: u64,
    local_experts: u64,
    precision: &Precision,
) -> u64 {
    let average = (tokens * top_k).div_ceil(local_experts.max(1));
    let widest = match (precision.activations, precision.weights) {
        (Format::Bf16, Format::NvFp4 | Format::MxFp4) => 64,
        (_, Format::NvFp4 | Format::MxFp4) | (Format::MxFp8E4m3, Format::MxFp8E4m3) => 256,
        _ => 128,
    };
    average.next_power_of_two().clamp(8, widest)
}

/// How a fused MoE kernel lays each local expert's rows into tiles: every expert with a
/// copy computes whole tiles of rows ([`KernelTimes::moe`]), so where an expert has fewer
/// copies than a tile holds, the rest of the tile is padding the tensor cores compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoeTiling {
    /// Each expert computes its copies and no more rows.
    Copies,
    /// TRT-LLM-Gen's tiles ([`trtllm_gen_moe_tile`]).
    TrtllmGen,
    /// The Triton fused MoE kernel's tiles at its default configuration
    /// ([`triton_moe_tile`]).
    Triton,
}

impl MoeTiling {
    /// Whose tiles, for people: `TRT-LLM-Gen's`.
    pub fn name(self) -> &'static str {
        match self {
            MoeTiling::Copies => "none",
            MoeTiling::TrtllmGen => "TRT-LLM-Gen's",
            MoeTiling::Triton => "the Triton fused MoE's default",
        }
    }

    /// The rows of one tile for `tokens` tokens, each routed to `top_k` of
    /// `local_experts`, in `precision`; `None` for [`MoeTiling::Copies`].
    pub fn tile_rows(
        self,
        tokens: u64,
        top_k: u64,
        local_experts: u64,
        precision: &Precision,
    ) -> Option<u64> {
        match self {
            MoeTiling::Copies => None,
            MoeTiling::TrtllmGen => {
                Some(trtllm_gen_moe_tile(tokens, top_k, local_experts, precision))
            }
            MoeTiling::Triton => Some(triton_moe_tile(tokens, local_experts, precision)),
        }
    }
}

/// The token rows of one tile (`BLOCK_SIZE_M`) of the Triton fused MoE kernel at the
/// default configuration SGLang picks where it ships no tuned one for the shape and device
/// (`fused_moe_triton_config.py`, `get_default_config`): 64 for FP8 activations (the
/// block-scaled configuration; the tables' FP8 rows are all block-scaled), else 16 while
/// the tokens are at most the local experts and 64 past them. NVIDIA's L40S W4A16 MXFP4
/// table (SGLang's Triton kernel, hidden 2,880, top 4 of 32 experts) steps there: 2.36 ms
/// at 32 tokens, 3.41 at 48; top 4 of 128, 9.35 ms at 128 tokens and 12.99 at 160.
pub fn triton_moe_tile(tokens: u64, local_experts: u64, precision: &Precision) -> u64 {
    match precision.activations {
        Format::Fp8E4m3 => 64,
        _ if tokens <= local_experts => 16,
        _ => 64,
    }
}
