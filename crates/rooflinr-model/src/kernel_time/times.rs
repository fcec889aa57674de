//! A kernel's datasheet times, one per component of the law: what the roofline charges
//! for its bytes and FLOPs, and what the kernel adds (tiles, waves, re-reads, passes).

use super::*;

/// A kernel's datasheet times, before the fitted terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KernelTimes {
    /// Bytes over the datasheet bandwidth, seconds.
    pub memory_s: f64,
    /// FLOPs over the datasheet peak and the tile efficiency, seconds.
    pub compute_s: f64,
    /// The activation quantisation pass over the datasheet bandwidth, seconds (0 for
    /// 16- and 32-bit activations); in a loop, the L2 serves its [`KernelTimes::l2_share`]
    /// too.
    pub quantise_s: f64,
    /// Waves of thread blocks whose latency is exposed (attention; for GEMMs 2 when split
    /// into partial products and their reduction, else 0).
    pub waves: f64,
    /// The datasheet memory time of the bytes one SM streams in series when each 128 x
    /// 128 output tile runs on one SM ([`serial_tile_share`]), seconds (0 where the
    /// kernel is not a GEMM or the SM count is unknown). For decode attention, one
    /// block's share of the cache ([`KernelTimes::attention_of`]).
    pub tile_stream_s: f64,
    /// The datasheet memory time of the activations the kernel writes, seconds: part of
    /// `memory_s`, moved at [`KernelTerms::write_bandwidth`]. A GEMM's `m x n` output; a
    /// MoE layer's token traffic, every byte but its experts' weights (the copies gathered
    /// in expert order, the GEMMs' inputs and outputs, the rows summed back), which its
    /// passes write and read again ([`KernelTimes::moe`]); 0 for other kernels.
    pub write_s: f64,
    /// The datasheet memory time (at the DRAM bandwidth) of the bytes the kernel reads
    /// again after its first read, which the L2 serves: TensorRT-LLM's masked multi-head
    /// attention reading its KV head's cache once more for each further query head
    /// ([`KernelTimes::attention_of`]), seconds; 0 for other kernels.
    pub l2_s: f64,
    /// The share of `memory_s`'s bytes the L2 holds, left there by the kernel's previous
    /// runs in a benchmark loop ([`KernelTimes::warm`]): the L2 serves that share and the
    /// DRAM the rest. `memory_s` stays the datasheet (DRAM) time of them all, the roofline
    /// bound. 0 for a kernel run once, as in a model's forward pass.
    pub l2_share: f64,
    /// The head width of an attention kernel (keys and values equally wide), which picks the
    /// kernel that runs ([`ATTENTION_HEAD_DIMS`]); `None` for every other kernel.
    pub head_dim: Option<u32>,
    /// The datasheet memory time of one pass over every token's routed copies (`tokens x
    /// top_k` rows of `hidden`, local expert or not, in the activation format), seconds:
    /// the routing work of a fused MoE layer that grows with the whole batch at any expert
    /// parallelism ([`KernelTimes::moe`], [`KernelTerms::route_rate`]); 0 for other kernels.
    pub route_s: f64,
    /// The compute time at the datasheet peak of the key tiles a prefill attention kernel
    /// walks and finds hidden by its sliding window, seconds: a kernel that tests each
    /// tile's mask at run time instead of starting its loop past them (SGLang's Triton
    /// prefill kernel; `rooflinr validate` says which rows ran one). It costs
    /// [`KernelTerms::hidden_tile_share`] of its compute time; 0 for every other kernel.
    pub hidden_tiles_s: f64,
    /// Copies of the activations' per-token scales into the layout a block-scaled GEMM
    /// reads them in, each a few eager steps of the framework's before the GEMM: vLLM's
    /// DeepGEMM path where M is not a multiple of 4 (`rooflinr validate` says which rows
    /// made them). Each takes [`KernelTerms::scale_copy_s`]; 0 for every other kernel.
    pub scale_copies: f64,
    /// The datasheet memory time of the rows past M that the tiles of a GEMM's last, partly
    /// filled row block read, seconds: every such tile reads its block's missing rows over
    /// the whole of K again, from the DRAM, and not overlapped with its compute
    /// ([`KernelTimes::in_whole_tiles`]). Seen in TensorRT-LLM's block-scaled FP8 GEMM on
    /// Hopper and in vLLM's and SGLang's per-tensor FP8 GEMMs there ([`GemmTile::of`]);
    /// moved at the fitted bandwidth ([`KernelTerms::bandwidth`]); 0 for every other
    /// kernel.
    pub padded_rows_s: f64,
    /// The steps of an activation quantisation pass that runs a block per token, in series
    /// on each SM: the waves of token rows over the SMs, times the steps each row's block
    /// takes ([`per_token_quantise_steps`]). Such a pass is bound by its steps' latency,
    /// not by its bytes: it replaces [`KernelTimes::quantise_s`] for vLLM's FP8 GEMMs
    /// ([`KernelTimes::gemm`]); each step takes [`KernelTerms::quantise_step_s`]; 0 for
    /// every other kernel.
    pub quantise_steps: f64,
}

impl KernelTimes {
    /// A kernel known only by its work: its datasheet memory and compute times, with no
    /// quantisation pass, waves or tile shape (a measured kernel gives its FLOPs and bytes,
    /// not its launch).
    pub fn throughput(memory_s: f64, compute_s: f64) -> KernelTimes {
        KernelTimes {
            memory_s,
            compute_s,
            quantise_s: 0.0,
            waves: 0.0,
            tile_stream_s: 0.0,
            write_s: 0.0,
            l2_s: 0.0,
            l2_share: 0.0,
            head_dim: None,
            route_s: 0.0,
            hidden_tiles_s: 0.0,
            scale_copies: 0.0,
            padded_rows_s: 0.0,
            quantise_steps: 0.0,
        }
    }

    /// The times of an `m x n x k` GEMM in `precision` on `hw` from its datasheet roofline
    /// prediction: the compute term stretched by the tile efficiency on the device's SMs,
    /// the activation quantisation at the datasheet bandwidth, the weights one SM streams
    /// in series ([`serial_tile_share`]) and the output written.
    pub fn of(
        prediction: &Prediction,
        (m, n, k): (u64, u64, u64),
        precision: &Precision,
        hw: &Hardware,
    ) -> KernelTimes {
        let (activations, weights) = (precision.activations, precision.weights);
        let bandwidth = hw.memory_bandwidth.value.get();
        let sms = hw.sms();
        let weights_s = weights.tensor_bytes((n * k) as f64).get() / bandwidth;
        KernelTimes {
            memory_s: prediction.memory_time.get(),
            compute_s: prediction.compute_time.get() / tile_efficiency(m, n, k, sms),
            quantise_s: activation_quantisation_bytes(m, k, activations) / bandwidth,
            // Split-K's two dependent steps, each exposing its latency.
            waves: if reduces_partial_sums(m, n, k, activations, hw) {
                2.0
            } else {
                0.0
            },
            tile_stream_s: weights_s * serial_tile_share(m, n, gemm_tile_rows(hw), sms),
            write_s: precision.output.tensor_bytes((m * n) as f64).get() / bandwidth,
            l2_s: 0.0,
            l2_share: 0.0,
            head_dim: None,
            route_s: 0.0,
            hidden_tiles_s: 0.0,
            scale_copies: 0.0,
            padded_rows_s: 0.0,
            quantise_steps: 0.0,
        }
    }

    /// The times of an `m x n x k` GEMM in `precision` on `hw` as `framework`'s kernels run
    /// it: [`KernelTimes::of`], in whole tiles ([`KernelTimes::in_whole_tiles`]) where the
    /// model knows the kernel's tile ([`GemmTile::of`]); vLLM quantises FP8 activations with
    /// a block per token ([`per_token_quantise_steps`]).
    pub fn gemm(
        prediction: &Prediction,
        (m, n, k): (u64, u64, u64),
        precision: &Precision,
        hw: &Hardware,
        framework: Framework,
    ) -> KernelTimes {
        let mut times = KernelTimes::of(prediction, (m, n, k), precision, hw);
        if framework == Framework::Vllm && precision.activations == Format::Fp8E4m3 {
            times.quantise_steps = per_token_quantise_steps(m, k, hw.sms());
            if times.quantise_steps > 0.0 {
                times.quantise_s = 0.0;
            }
        }
        match GemmTile::of(framework, m, n, precision, hw) {
            Some(tile) => times.in_whole_tiles(
                prediction.compute_time.get(),
                (m, n, k),
                tile,
                precision,
                hw,
            ),
            None => times,
        }
    }

    /// These times for a persistent GEMM kernel that computes an `m x n x k` GEMM in whole
    /// tiles of `tile` ([`GemmTile`]), `dense_compute_s` being its FLOPs at the datasheet
    /// peak. Its compute is every tile of the grid (whole clusters included) in whole waves
    /// over the SMs, idle SMs of the last wave too: it neither shares K out nor splits it,
    /// so no reduction step follows. The tiles of its last, partly filled row block read
    /// the missing rows of their first operand over the whole of K
    /// ([`KernelTimes::padded_rows_s`]), the tiles a cluster adds past M whole: on NVIDIA's
    /// H200 tables vLLM's FP8 GEMM at N = K = 8,192 takes 113 us at M = 513 (five row
    /// tiles of 128 in three clusters of two) and 89 us at M = 768, the 255 missing rows of
    /// 64 column tiles being 134 MB, 28 us at the DRAM's rate.
    pub fn in_whole_tiles(
        self,
        dense_compute_s: f64,
        (m, n, k): (u64, u64, u64),
        tile: GemmTile,
        precision: &Precision,
        hw: &Hardware,
    ) -> KernelTimes {
        if m == 0 || n == 0 || k == 0 || tile.rows == 0 || tile.columns == 0 {
            return self;
        }
        let (tiles_m, tiles_n) = tile.grid(m, n);
        let sms = u64::from(hw.sms().max(1));
        let slots = (tiles_m * tiles_n).div_ceil(sms) * sms;
        let (kernel_m, first) = if tile.swapped {
            (n, precision.weights)
        } else {
            (m, precision.activations)
        };
        let missing = tiles_m * tile.rows - kernel_m;
        KernelTimes {
            compute_s: dense_compute_s * (slots * tile.rows * tile.columns) as f64 / (m * n) as f64,
            waves: 0.0,
            padded_rows_s: (missing * k * tiles_n) as f64 * first.bits_per_element()
                / 8.0
                / hw.memory_bandwidth.value.get(),
            ..self
        }
    }

    /// The times of a kernel run again and again in a loop, as benchmarks and NVIDIA's
    /// kernel tables time it, where its previous runs leave `l2_share` of its bytes in the
    /// L2 (clamped to 0..1; [`GemmLoop::l2_share`] for a GEMM, [`found_in_l2`] for a
    /// kernel looped on one set of operands): the L2 serves that share of the memory time ([`KernelTimes::l2_share`]),
    /// the DRAM the rest. A model's forward pass is not like that: each layer's weights are
    /// evicted by the rest of the model's before they are read again, so the product's
    /// predictions use the times as they are.
    pub fn warm(self, l2_share: f64) -> KernelTimes {
        KernelTimes {
            l2_share: if l2_share.is_nan() {
                0.0
            } else {
                l2_share.clamp(0.0, 1.0)
            },
            ..self
        }
    }

    /// The datasheet time of the output the DRAM takes, seconds: the output's write less
    /// the share a loop's L2 holds ([`KernelTimes::l2_share`]).
    pub(super) fn written_s(&self) -> f64 {
        self.write_s * (1.0 - self.l2_share)
    }

    /// The datasheet (DRAM) times of the bytes the DRAM and the L2 serve, seconds: every
    /// byte passes through the L2 (the first read of each with the re-reads), and the DRAM
    /// serves the share the L2 does not hold.
    pub(super) fn dram_and_l2_s(&self) -> (f64, f64) {
        (
            self.memory_s * (1.0 - self.l2_share),
            self.memory_s + self.l2_s,
        )
    }

    /// Whether the L2 serves more than the bytes passing through on their way from the
    /// DRAM: re-reads, or what a loop's previous runs left there.
    pub(super) fn reads_from_l2(&self) -> bool {
        self.l2_s > 0.0 || self.l2_share > 0.0
    }

    /// The times of a fused attention kernel of `shape` (as the kernel runs it:
    /// [`DecodeLayout::run_shape`]) from its datasheet roofline `prediction` (that shape's
    /// FLOPs and bytes) on `sms` multiprocessors: the compute term counts whole tiles of
    /// `tile` ([`attention_tile_pairs`], [`PrefillTile`]), and the blocks run in waves, one
    /// block per query tile and head in prefill; in decode, one per sequence and KV head,
    /// times the sequence's parts under XQA and FlashAttention-2's split
    /// ([`DecodeLayout::FlashSplitKv`]), whose merge of the parts is one more dependent step
    /// (a wave's latency). A decode block streams its share of the bytes in series with the
    /// blocks that follow it on its SM (the tile term: the bytes over the blocks, times the
    /// waves of blocks): read off NVIDIA's tables, TensorRT-LLM's MLA decode on A100, L40S
    /// and RTX PRO 6000 (no dedicated MLA kernel there, but [`DecodeLayout::XqaMla`]'s,
    /// timed the same way) runs a block per sequence, its time flat in the batch up to a
    /// block per SM and in proportion to the sequence length, about 10-15 GB/s for each
    /// block; vLLM's FlashAttention-2 decode on the same three, its split counted, 22-29
    /// GB/s; kernels that split a sequence over blocks the model does not count (FlashMLA,
    /// trtllm-gen, FlashInfer) fit a rate many SMs' worth.
    pub fn attention(
        shape: &AttentionShape,
        prediction: &Prediction,
        sms: u32,
        tile: PrefillTile,
        layout: DecodeLayout,
    ) -> KernelTimes {
        let visible = shape.visible_pairs();
        let padding = if visible > 0.0 {
            attention_tile_pairs(shape, tile) / visible
        } else {
            1.0
        };
        let parts = match layout {
            DecodeLayout::Xqa if shape.q_len <= 1.0 => xqa_parts(
                shape.batch as u64,
                shape.kv_heads as u64,
                shape.kv_len as u64,
                sms,
            ),
            DecodeLayout::FlashSplitKv
                if shape.q_len <= 1.0 && shape.heads > shape.kv_heads && shape.window.is_none() =>
            {
                flash_attention_2_splits(
                    shape.batch as u64,
                    shape.kv_heads as u64,
                    shape.group().ceil() as u64,
                    shape.kv_len as u64,
                    shape.qk_dim as u64,
                    sms,
                )
            }
            DecodeLayout::TritonSplitKv if shape.q_len <= 1.0 => TRITON_DECODE_SPLITS,
            _ => 1,
        };
        // Blocks of query heads per KV head, each reading the KV head's cache.
        let head_blocks = match layout {
            DecodeLayout::TritonSplitKv if shape.q_len <= 1.0 => {
                let group = shape.group();
                (group / TRITON_DECODE_HEADS.min(group)).ceil()
            }
            _ => 1.0,
        };
        let blocks = if shape.q_len > 1.0 {
            shape.batch * shape.heads * (shape.q_len / tile.queries).ceil()
        } else {
            shape.batch * shape.kv_heads * head_blocks * parts as f64
        };
        let merge = if parts > 1 { 1.0 } else { 0.0 };
        let memory_s = prediction.memory_time.get();
        KernelTimes {
            memory_s,
            compute_s: prediction.compute_time.get() * padding,
            quantise_s: 0.0,
            waves: if sms == 0 {
                0.0
            } else {
                (blocks / f64::from(sms)).ceil() + merge
            },
            tile_stream_s: if shape.q_len <= 1.0 && sms > 0 && blocks >= 1.0 {
                memory_s * (blocks / f64::from(sms)).ceil() * head_blocks / blocks
            } else {
                0.0
            },
            write_s: 0.0,
            l2_s: 0.0,
            l2_share: 0.0,
            head_dim: attention_head_dim(shape),
            route_s: 0.0,
            hidden_tiles_s: 0.0,
            scale_copies: 0.0,
            padded_rows_s: 0.0,
            quantise_steps: 0.0,
        }
    }

    /// The times of a fused attention kernel of `shape` on `hw` in `precision`, laid out as
    /// `layout` runs it, from the shape's datasheet roofline `prediction`:
    /// [`KernelTimes::attention`] over the shape the kernel runs
    /// ([`DecodeLayout::run_shape`]), where the bytes a block per query head reads again
    /// (its KV head's cache, once more for each further query head of the group) are the
    /// L2's ([`KernelTimes::l2_s`]) and the datasheet memory time is the cache read once.
    /// Read off NVIDIA's tables: L40S's masked multi-head attention over 128 query heads
    /// and a 1 GB re-read total takes 225 us, 4.8 TB/s against its 864 GB/s DRAM. Knowing
    /// the cache's format, it narrows a decode block's serial stream
    /// ([`KernelTimes::tile_stream_s`], which [`KernelTimes::attention`] takes over all the
    /// bytes) to the block's share of the cache ([`AttentionShape::cache_bytes`]).
    pub fn attention_of(
        shape: &AttentionShape,
        prediction: &Prediction,
        precision: &Precision,
        hw: &Hardware,
        (framework, layout): (Framework, DecodeLayout),
    ) -> KernelTimes {
        let sms = hw.sms();
        let tile = PrefillTile::of(framework, hw);
        let run = layout.run_shape(shape);
        // A decode block streams its share of the cache in series; its queries and output
        // are a read and a write apart, not part of that stream.
        let cache_share = |shape: &AttentionShape, p: &Prediction| {
            let all = p.work.bytes.get();
            if all > 0.0 {
                (shape.cache_bytes(precision.kv).get() / all).min(1.0)
            } else {
                1.0
            }
        };
        if run == *shape {
            let mut times = KernelTimes::attention(shape, prediction, sms, tile, layout);
            times.tile_stream_s *= cache_share(shape, prediction);
            return times;
        }
        let every_read = Op::FusedAttention(run)
            .predict(precision, hw, &Efficiency::IDEAL)
            .prediction;
        let mut times = KernelTimes::attention(&run, &every_read, sms, tile, layout);
        times.tile_stream_s *= cache_share(&run, &every_read);
        let once = prediction.memory_time.get();
        times.l2_s = (times.memory_s - once).max(0.0);
        times.memory_s = once;
        times
    }

    /// The times of a fused MoE layer (routed experts only) on one GPU of an
    /// expert-parallel group carrying `load`: its experts' GEMMs (gate and up fused, then
    /// down) over the copies routed to them, the weights of the experts it touches, and
    /// the permutation around them: the routed copies gathered in expert order (read and
    /// written in the activation format), then read back and summed into one output row
    /// per token, every token of the batch (in the output format; rows with no local
    /// expert are written as zeros for the group's all-reduce or combine); and, apart
    /// ([`KernelTimes::route_s`]), one pass over every token's routed copies, local or
    /// not, in the activation format: the routing work NVIDIA's tables show growing with
    /// the whole batch at any expert parallelism, at a rate of its own per device and
    /// format ([`KernelTerms::route_rate`]). With `tile_rows`, each expert's GEMMs compute
    /// whole tiles of that many rows, padding included ([`trtllm_gen_moe_tile`]); without,
    /// its copies only.
    pub fn moe(
        shape: &MoeShape,
        load: &MoeLoad,
        precision: &Precision,
        hw: &Hardware,
        tile_rows: Option<u64>,
    ) -> KernelTimes {
        let assignments = load.assignments;
        let touched = load.experts_touched;
        let per_expert = load.per_expert();
        // Each expert's GEMMs compute its copies, or whole tiles of them: the rows computed
        // over the copies.
        let padding = match tile_rows {
            Some(rows) if per_expert > 0.0 => {
                let rows = rows as f64;
                (per_expert / rows).ceil() * rows / per_expert
            }
            _ => 1.0,
        };
        let first = shape.first_width();
        let gemms = shape.expert_gemms(load);
        let bandwidth = hw.memory_bandwidth.value.get();
        let mut times = KernelTimes {
            memory_s: 0.0,
            compute_s: 0.0,
            quantise_s: activation_quantisation_bytes(
                shape.tokens as u64,
                shape.hidden as u64,
                precision.activations,
            ) / bandwidth,
            waves: 0.0,
            tile_stream_s: 0.0,
            write_s: 0.0,
            l2_s: 0.0,
            l2_share: 0.0,
            head_dim: None,
            route_s: precision
                .activations
                .tensor_bytes(shape.tokens * shape.top_k * shape.hidden)
                .get()
                / bandwidth,
            hidden_tiles_s: 0.0,
            scale_copies: 0.0,
            padded_rows_s: 0.0,
            quantise_steps: 0.0,
        };
        // The tile term is left out for MoE: tried (each expert's tiles on their own), it
        // moved the held-out medians by -1 to +3 points and fitted unphysical rates on
        // L40S; the MoE kernels' 20-50 us fixed cost (routing, several launches) dominates.
        for op in gemms {
            let p = op
                .predict(precision, hw, &crate::roofline::Efficiency::IDEAL)
                .prediction;
            times.memory_s += p.memory_time.get();
            times.compute_s += p.compute_time.get() * padding;
        }
        let gather = precision
            .activations
            .tensor_bytes(2.0 * assignments * shape.hidden)
            .get();
        let finalize = precision
            .output
            .tensor_bytes((assignments + shape.tokens) * shape.hidden)
            .get();
        times.memory_s += (gather + finalize) / bandwidth;
        // Every byte but the experts' weights, which the GEMMs read once per touched expert.
        let weights = touched
            * (precision.weights.tensor_bytes(first * shape.hidden).get()
                + precision
                    .weights
                    .tensor_bytes(shape.hidden * shape.intermediate)
                    .get());
        times.write_s = (times.memory_s - weights / bandwidth).max(0.0);
        times
    }

    /// The least time the DRAM takes to serve these times' bytes, seconds, on a device of
    /// `bandwidth` bytes a second whose L2 holds `l2_bytes`: the datasheet memory time less
    /// the L2's whole capacity at that bandwidth (all a loop's previous runs can leave
    /// there), never below 0. A kernel measured faster than this did not move the bytes its
    /// shape says; `rooflinr validate` lists NVIDIA's table rows that are.
    pub fn dram_floor_s(&self, l2_bytes: f64, bandwidth: f64) -> f64 {
        (self.memory_s - l2_bytes / bandwidth).max(0.0)
    }

    /// The roofline bound: max of the two.
    pub fn bound_s(&self) -> f64 {
        self.memory_s.max(self.compute_s)
    }

    /// Which of the two is the bound, as the roofline names it (compute on a tie, as
    /// [`crate::roofline::Roof::predict`] has it).
    pub fn bound(&self) -> crate::roofline::Bound {
        if self.compute_s >= self.memory_s && self.compute_s > 0.0 {
            crate::roofline::Bound::Compute
        } else {
            crate::roofline::Bound::Memory
        }
    }
}
