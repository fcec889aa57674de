use super::attention::{KEY_TILE, QUERY_TILE};
use super::fit::FRACTION;
use super::*;

mod attention;
mod calibrate;
mod fit;
mod gemm;
mod moe;

/// TensorRT-LLM's prefill tile on Hopper: 64 query rows by 128 keys.
const TRTLLM_HOPPER: PrefillTile = PrefillTile {
    queries: QUERY_TILE,
    keys: KEY_TILE,
};

fn gemm(memory_s: f64, compute_s: f64) -> KernelTimes {
    KernelTimes::throughput(memory_s, compute_s)
}

/// The roofline prediction of 1 GFLOP over 1 MB on a roof of 1,000 GB/s and 200 TFLOPS.
fn one_gflop_on_a_small_roof() -> Prediction {
    crate::roofline::Roof {
        bandwidth: crate::units::BytesPerSecond::gb_s(1000.0),
        peak: crate::units::FlopsPerSecond::tflops(200.0),
    }
    .predict(crate::roofline::Work {
        flops: crate::units::Flops(1e9),
        bytes: crate::units::Bytes(1e6),
    })
}

/// Sample `i`'s measured time: `truth`'s prediction with +-2 % noise from a fixed
/// pattern.
fn measured(truth: &KernelTerms, t: KernelTimes, i: usize) -> f64 {
    truth.predict(t) * (1.0 + 0.02 * (((i * 7919) % 11) as f64 / 5.0 - 1.0))
}

/// 400 GEMMs from a microsecond to 10 ms of datasheet time, memory over compute from
/// a sixteenth to sixteen times, each changed by `vary` (given its index), measured as
/// `truth` predicts them.
fn spread_of_gemms(
    truth: &KernelTerms,
    vary: impl Fn(&mut KernelTimes, usize),
) -> Vec<(KernelTimes, f64)> {
    (0..400)
        .map(|i| {
            let scale = 10f64.powf(-6.0 + 4.0 * (i as f64) / 400.0);
            let ratio: f64 = [16.0, 4.0, 1.0, 0.25, 0.0625][i % 5];
            let mut t = gemm(scale * ratio.min(1.0), scale / ratio.max(1.0));
            vary(&mut t, i);
            (t, measured(truth, t, i))
        })
        .collect()
}

/// FP8 activations and weights with a BF16 output, as NVIDIA's FP8 GEMM tables run.
fn fp8() -> Precision {
    Precision {
        activations: Format::Fp8E4m3,
        weights: Format::Fp8E4m3,
        kv: Format::Bf16,
        output: Format::Bf16,
    }
}

/// An `m x n x k` FP8 GEMM's times on `hw` as `framework`'s kernels run it, and its
/// datasheet prediction.
fn fp8_gemm(
    (m, n, k): (u64, u64, u64),
    hw: &Hardware,
    framework: Framework,
) -> (KernelTimes, Prediction) {
    let op = Op::Gemm {
        m: m as f64,
        n: n as f64,
        k: k as f64,
        bias: false,
    };
    let p = op.predict(&fp8(), hw, &Efficiency::IDEAL).prediction;
    (KernelTimes::gemm(&p, (m, n, k), &fp8(), hw, framework), p)
}

/// The largest |predicted / measured - 1| of `terms` over `samples`.
fn worst_error(terms: &KernelTerms, samples: &[(KernelTimes, f64)]) -> f64 {
    samples
        .iter()
        .map(|(t, s)| (terms.predict(*t) / s - 1.0).abs())
        .fold(0.0, f64::max)
}

/// 800 compute-bound attention kernels, alternately of the two head `widths`, from
/// `smallest` to 10^4 times it of datasheet compute time, measured as `truth` predicts
/// them.
fn two_head_widths(
    truth: &KernelTerms,
    widths: [u32; 2],
    smallest: f64,
) -> Vec<(KernelTimes, f64)> {
    (0..800)
        .map(|i| {
            let scale = smallest * 10f64.powf(4.0 * ((i * 37) % 800) as f64 / 800.0);
            let t = KernelTimes {
                head_dim: Some(widths[i % 2]),
                ..KernelTimes::throughput(scale / 20.0, scale)
            };
            (t, measured(truth, t, i))
        })
        .collect()
}

/// `preset` decoding in BF16 on `hw` at `batch` sequences of 4,096 tokens: the scenario
/// and its analysis.
fn bf16_decode(
    preset: &str,
    hw: &Hardware,
    batch: u64,
) -> (crate::analysis::Scenario, crate::analysis::ModelAnalysis) {
    use crate::analysis::{self, AttentionKernel, Scenario};
    let scenario = Scenario {
        phase: analysis::Phase::Decode,
        batch,
        seq: 4096,
        precision: Precision::uniform(Format::Bf16),
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: None,
    };
    let config = crate::presets::get(preset).unwrap();
    let a = analysis::analyze(&config, hw, &scenario, &crate::roofline::Efficiency::IDEAL).unwrap();
    (scenario, a)
}
