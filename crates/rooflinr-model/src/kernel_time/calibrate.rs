//! A kernel's time as the engines run it: one operator's calibrated time, a whole
//! model's pass with the kernels the engines launch and fuse, and its placement.

use super::*;

/// Where a GEMM's activations come from, which decides whether a low-precision GEMM
/// runs the activation quantisation pass ([`KernelTimes::quantise_s`]) first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activations {
    /// BF16, quantised by a pass of their own before the GEMM: a serving framework's
    /// linear layer, and what NVIDIA's tables time.
    QuantisedFirst,
    /// Already in the GEMM's format: a library GEMM on low-precision operands (cuBLASLt's
    /// in the agent's `gpu-check`). The profile's fixed time still counts the pass's
    /// launch, which the tables do not time apart.
    InFormat,
}

impl Activations {
    /// What a calibrated figure says of activations in `format`: that no quantisation
    /// pass is counted, where the activations are low-precision and arrive in their
    /// format; `None` otherwise (16- and 32-bit activations need no pass either way).
    pub fn note(self, format: Format) -> Option<String> {
        (self == Activations::InFormat && format.bits_per_element() < 16.0)
            .then(|| format!("activations already in {format}: no quantisation pass"))
    }

    /// [`Activations::InFormat`] where `in_format`, else [`Activations::QuantisedFirst`]
    /// (a command line's `--activations-in-format`).
    pub fn in_format(in_format: bool) -> Activations {
        if in_format {
            Activations::InFormat
        } else {
            Activations::QuantisedFirst
        }
    }
}

/// The expected time of `op` on `hw` in `precision` under the shipped profile, with the
/// profile; `None` for operators with no profile for their kind, device and formats.
/// `prediction` is the datasheet roofline's. A GEMM's activations are quantised first
/// ([`Activations::QuantisedFirst`]), as in the tables the profiles are fitted on.
pub fn calibrated(
    op: &Op,
    precision: &Precision,
    hw: &Hardware,
    framework: Framework,
    prediction: &Prediction,
) -> Option<(f64, Profile)> {
    calibrated_with(
        op,
        precision,
        hw,
        framework,
        prediction,
        Activations::QuantisedFirst,
    )
}

/// [`calibrated`], with a GEMM's activations from `activations`.
pub fn calibrated_with(
    op: &Op,
    precision: &Precision,
    hw: &Hardware,
    framework: Framework,
    prediction: &Prediction,
    activations: Activations,
) -> Option<(f64, Profile)> {
    let (times, profile) = calibrated_times(
        op,
        precision,
        hw,
        Dispatch::of(framework),
        prediction,
        activations,
    )?;
    Some((profile.terms.predict(times), profile))
}

/// The datasheet times of `op` as `dispatch`'s kernels run it ([`kernel_times`]) and the
/// shipped profile that turns them into an expected time ([`KernelTerms::predict`]);
/// `None` where no profile is shipped for its kind, device and formats.
pub fn calibrated_times(
    op: &Op,
    precision: &Precision,
    hw: &Hardware,
    dispatch: Dispatch,
    prediction: &Prediction,
    activations: Activations,
) -> Option<(KernelTimes, Profile)> {
    let phase = match op {
        Op::FusedAttention(shape) => phase_of(shape),
        _ => Phase::Prefill,
    };
    let kind = profiled_kind(op, phase, precision, hw.sm_version(), dispatch.framework)?;
    let profile = profile(&hw.key, dispatch.framework, kind)?;
    let in_format = activations == Activations::InFormat;
    let times = kernel_times(op, precision, hw, (dispatch, phase), prediction, in_format)?;
    Some((times, profile))
}

/// The operators of a MoE block that a fused MoE kernel runs as one ([`FusedMoe`]): the
/// top-k routing over the router's logits, the routed experts' gate, up, SwiGLU and down,
/// and the weighted sum of each token's expert outputs. TensorRT-LLM's fused MoE module
/// applies its routing method inside its forward, after the router's GEMM (a GEMM of its
/// own, profiled as one), and NVIDIA's MoE tables time that forward.
pub const FUSED_MOE_OPS: [crate::analysis::OpId; 6] = {
    use crate::analysis::OpId;
    [
        OpId::RouterTopk,
        OpId::ExpertsGateProj,
        OpId::ExpertsUpProj,
        OpId::ExpertsSiluMul,
        OpId::ExpertsDownProj,
        OpId::MoeCombine,
    ]
};

/// A MoE block's routed experts on one GPU as the fused kernel runs them
/// ([`FUSED_MOE_OPS`]), read from the pass's operators.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FusedMoe {
    /// The layer's shape on this GPU.
    pub shape: MoeShape,
    /// The copies routed to this GPU's experts and the experts they touch.
    pub load: MoeLoad,
    /// The experts' formats.
    pub precision: Precision,
    /// Instances per pass (the MoE layers this GPU runs).
    pub count: f64,
}

impl FusedMoe {
    /// The fused layer of `ops` (one GPU's operators, its routed experts whole on each of
    /// `expert_parallel` GPUs, 1 where every expert is local or split by columns); `None`
    /// for a pass with no routed experts.
    pub fn of(ops: &[crate::analysis::OpReport], expert_parallel: f64) -> Option<FusedMoe> {
        use crate::analysis::OpId;
        let find = |id: OpId| ops.iter().find(|o| o.id == id);
        let gate = find(OpId::ExpertsGateProj)?;
        let Op::BatchedGemm {
            batch: touched,
            m: per_expert,
            k: hidden,
            ..
        } = gate.op
        else {
            return None;
        };
        let Op::BatchedGemm {
            k: intermediate, ..
        } = find(OpId::ExpertsDownProj)?.op
        else {
            return None;
        };
        let Op::MoeCombine { tokens, top_k, .. } = find(OpId::MoeCombine)?.op else {
            return None;
        };
        let Op::RouterTopK { experts, .. } = find(OpId::RouterTopk)?.op else {
            return None;
        };
        Some(FusedMoe {
            shape: MoeShape {
                tokens,
                hidden,
                intermediate,
                top_k,
                experts,
                expert_parallel,
                // The analysis runs routed experts as SwiGLU: gate and up.
                gated: true,
            },
            load: MoeLoad {
                assignments: touched * per_expert,
                experts_touched: touched,
            },
            precision: gate.precision,
            count: gate.count,
        })
    }

    /// One layer of `shape` in `precision` under a router that spreads tokens evenly at
    /// random ([`MoeLoad::uniform`]).
    pub fn uniform(shape: MoeShape, precision: Precision) -> FusedMoe {
        FusedMoe {
            shape,
            load: MoeLoad::uniform(&shape),
            precision,
            count: 1.0,
        }
    }

    /// Its profile kind.
    pub fn kind(&self) -> Profiled {
        Profiled::Moe {
            activations: self.precision.activations,
            weights: self.precision.weights,
        }
    }

    /// Its datasheet times on `hw`, each expert's rows computed in `tiling`'s tiles
    /// ([`Profile::tiling`]).
    pub fn times(&self, hw: &Hardware, tiling: MoeTiling) -> KernelTimes {
        KernelTimes::moe(
            &self.shape,
            &self.load,
            &self.precision,
            hw,
            self.tile_rows(tiling),
        )
    }

    /// The token rows of each expert's tiles under `tiling`; `None` for
    /// [`MoeTiling::Copies`].
    pub fn tile_rows(&self, tiling: MoeTiling) -> Option<u64> {
        tiling.tile_rows(
            self.shape.tokens.round() as u64,
            self.shape.top_k.round() as u64,
            (self.shape.experts / self.shape.expert_parallel).round() as u64,
            &self.precision,
        )
    }

    /// Its expected time per instance under the shipped profile for `framework` on `hw`,
    /// with the profile; `None` where none is shipped.
    pub fn calibrated(
        &self,
        hw: &Hardware,
        framework: Framework,
        activations: Activations,
    ) -> Option<(f64, Profile)> {
        let profile = profile(&hw.key, framework, self.kind())?;
        let mut times = self.times(hw, profile.tiling);
        if activations == Activations::InFormat {
            times.quantise_s = 0.0;
        }
        Some((profile.terms.predict(times), profile))
    }
}

/// A whole pass with every operator that has a shipped profile (GEMMs, attention, and a
/// MoE block's routed experts as one fused layer, [`FusedMoe`]) at its expected time and
/// every other operator at its roofline bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CalibratedPass {
    /// Seconds for the pass.
    pub time_s: f64,
    /// Operators (kinds, not instances) at their expected time.
    pub calibrated_ops: usize,
    /// Operators left at the bound (no profile for their kind, device and formats).
    pub bound_ops: usize,
    /// Whether a MoE block's routed experts ([`FUSED_MOE_OPS`], counted among
    /// `calibrated_ops`) are at the fused layer's expected time.
    pub fused_moe: bool,
}

/// What a calibrated pass says where a MoE block's routed experts ([`FUSED_MOE_OPS`]) are
/// at the fused layer's expected time.
pub const FUSED_MOE_NOTE: &str =
    "a MoE block's routing, gate, up, SwiGLU, down and weighted sum as one fused MoE layer";

impl CalibratedPass {
    /// [`FUSED_MOE_NOTE`] where the routed experts are one fused layer
    /// ([`CalibratedPass::fused_moe`]).
    pub fn moe_note(&self) -> Option<&'static str> {
        self.fused_moe.then_some(FUSED_MOE_NOTE)
    }
}

/// The calibrated time of a pass made of `ops` on `hw` with `framework`'s kernels.
pub fn calibrated_pass(
    ops: &[crate::analysis::OpReport],
    hw: &Hardware,
    framework: Framework,
) -> CalibratedPass {
    calibrated_pass_with(ops, hw, framework, Activations::QuantisedFirst)
}

/// [`calibrated_pass`], with every GEMM's and fused MoE layer's activations from
/// `activations` ([`Activations::InFormat`]: a what-if where each low-precision GEMM's
/// quantisation pass is fused into the kernel before it, so none runs on its own).
pub fn calibrated_pass_with(
    ops: &[crate::analysis::OpReport],
    hw: &Hardware,
    framework: Framework,
    activations: Activations,
) -> CalibratedPass {
    calibrated_pass_placed(ops, hw, framework, activations, 1.0)
}

/// The operator whose GEMM the serving engines run `id`'s in, over the concatenated
/// weights of both (one kernel, one fixed cost): the key and value projections in the
/// query's (`QKVParallelLinear` in vLLM's and SGLang's models; TensorRT-LLM's fused QKV
/// linear), the up projections in the gates' (`MergedColumnParallelLinear`; TensorRT-LLM's
/// fused gate-up linear), and MLA's KV down-projection in the query's
/// (`fused_qkv_a_proj_with_mqa` in SGLang's and vLLM's DeepSeek models).
pub fn fused_into(id: crate::analysis::OpId) -> Option<crate::analysis::OpId> {
    use crate::analysis::OpId;
    Some(match id {
        OpId::KProj | OpId::VProj => OpId::QProj,
        OpId::UpProj => OpId::GateProj,
        OpId::SharedExpertUpProj => OpId::SharedExpertGateProj,
        OpId::KvAProj => OpId::QAProj,
        _ => return None,
    })
}

/// How the engines launch an operator of a pass ([`fused_into`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Launch {
    /// As its own kernel, or with the GEMMs fused into it: the GEMM it runs as (its own
    /// shape widened by theirs) with its roofline prediction under its own roof.
    Runs(Op, Prediction),
    /// Inside the GEMM of the operator at this index.
    Inside(usize),
}

/// How the engines launch each operator of `ops` ([`Launch`]).
pub fn launched(ops: &[crate::analysis::OpReport]) -> Vec<Launch> {
    let mut out: Vec<Launch> = ops
        .iter()
        .map(|o| Launch::Runs(o.op, o.result.prediction))
        .collect();
    for (i, o) in ops.iter().enumerate() {
        let (Some(target), Op::Gemm { m, n, k, .. }) = (fused_into(o.id), o.op) else {
            continue;
        };
        let Some(t) = ops.iter().position(|x| {
            x.id == target
                && x.count == o.count
                && x.precision.weights == o.precision.weights
                && x.precision.activations == o.precision.activations
                && matches!(x.op, Op::Gemm { m: tm, k: tk, .. } if tm == m && tk == k)
        }) else {
            continue;
        };
        let Launch::Runs(
            Op::Gemm {
                m: tm,
                n: tn,
                k: tk,
                bias,
            },
            p,
        ) = out[t]
        else {
            continue;
        };
        let wide = Op::Gemm {
            m: tm,
            n: tn + n,
            k: tk,
            bias,
        };
        // The target's roof: its bandwidth and compute rate as its prediction used them.
        let roof = crate::roofline::Roof {
            bandwidth: p.work.bytes / p.memory_time,
            peak: p.work.flops / p.compute_time,
        };
        out[t] = Launch::Runs(wide, roof.predict(wide.cost(&ops[t].precision).work));
        out[i] = Launch::Inside(t);
    }
    out
}

/// [`calibrated_pass_with`] for one GPU of a deployment whose routed experts are whole on
/// each of `expert_parallel` GPUs (1: every expert local, or each split by columns). GEMMs
/// the engines fuse run as one ([`fused_into`]).
pub fn calibrated_pass_placed(
    ops: &[crate::analysis::OpReport],
    hw: &Hardware,
    framework: Framework,
    activations: Activations,
    expert_parallel: f64,
) -> CalibratedPass {
    let moe = FusedMoe::of(ops, expert_parallel)
        .and_then(|m| Some(m.calibrated(hw, framework, activations)?.0 * m.count));
    let mut pass = CalibratedPass {
        time_s: moe.unwrap_or(0.0),
        calibrated_ops: 0,
        bound_ops: 0,
        fused_moe: moe.is_some(),
    };
    let launches = launched(ops);
    for (i, (o, launch)) in ops.iter().zip(&launches).enumerate() {
        if moe.is_some() && FUSED_MOE_OPS.contains(&o.id) {
            pass.calibrated_ops += 1;
            continue;
        }
        // Run inside another operator's GEMM: costed with it.
        let Launch::Runs(op, prediction) = launch else {
            continue;
        };
        let inside: Vec<&crate::analysis::OpReport> = ops
            .iter()
            .zip(&launches)
            .filter(|(_, l)| **l == Launch::Inside(i))
            .map(|(x, _)| x)
            .collect();
        match calibrated_with(op, &o.precision, hw, framework, prediction, activations) {
            Some((t, _)) => {
                pass.time_s += t * o.count;
                pass.calibrated_ops += 1 + inside.len();
            }
            None => {
                // No profile: each at its own bound, as the analysis has them.
                pass.time_s += o.time.get() + inside.iter().map(|x| x.time.get()).sum::<f64>();
                pass.bound_ops += 1 + inside.len();
            }
        }
    }
    pass
}
