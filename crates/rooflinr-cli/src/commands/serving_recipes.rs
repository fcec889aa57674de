//! How the benchmarks of NVIDIA's serving sample were launched, where their published
//! recipes say so and the sample does not: SemiAnalysis InferenceX's launch scripts.

use rooflinr_model::deploy::{AdpBalance, Scheduler};
use rooflinr_model::format::Format;
use rooflinr_model::kernel_time::Framework;

use super::serving_sample::{Origin, SampleRow, Serving};

/// The scheduler `row`'s engine was launched with: the engine's defaults (`default`), and
/// where InferenceX's launch recipe for the row's model, device and engine sets how new
/// requests are taken in, that setting (the recipes in
/// `benchmarks/single_node/dsr1_{fp4,fp8}_{b200,b300}.sh` and `dsr1_*_trt.sh` of
/// SemiAnalysis InferenceX, unchanged from October 2025 to April 2026, which the rows'
/// dates span):
/// - SGLang, DeepSeek-R1 on B200 and B300: `--scheduler-recv-interval` 30 at a
///   concurrency of 16 or more, else 10 (FP8 on TP4: 10).
/// - TensorRT-LLM, DeepSeek-R1 with attention DP: `attention_dp_config` with
///   `enable_balance: true`, `timeout_iters: 60`, `batching_wait_iters: 0`.
///
/// The rows' other launch flags (token budgets, sequence caps, graph sizes) are left at the
/// engine's defaults, as for every other row.
pub(super) fn scheduler(row: &SampleRow, default: Scheduler) -> Scheduler {
    let deepseek = matches!(row.preset, "deepseek-r1" | "deepseek-v3");
    if row.origin != Origin::InferenceX || !deepseek {
        return default;
    }
    let Serving::Aggregated(layout) = row.serving else {
        return default;
    };
    match row.framework {
        Framework::Sglang if matches!(row.hardware, "b200" | "b300") => {
            let fp8_tp4 = row.weights == Format::Fp8E4m3 && layout.tp == 4;
            Scheduler {
                recv_interval: if row.concurrency >= 16 && !fp8_tp4 {
                    30
                } else {
                    10
                },
                ..default
            }
        }
        Framework::TensorRtLlm if layout.dp > 1 => Scheduler {
            adp_balance: Some(AdpBalance {
                timeout_steps: 60,
                batching_wait_steps: 0,
            }),
            ..default
        },
        _ => default,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::serving_sample::SampleLayout;
    use rooflinr_model::hardware::registry;

    fn row(framework: Framework, hardware: &'static str, origin: Origin) -> SampleRow {
        SampleRow {
            id: "r".into(),
            origin,
            framework,
            version: String::new(),
            model: "deepseek-ai/DeepSeek-R1".into(),
            preset: "deepseek-r1",
            hardware,
            isl: 1024,
            osl: 1024,
            concurrency: 64,
            weights: Format::NvFp4,
            activations: Format::NvFp4,
            experts: None,
            serving: Serving::Aggregated(SampleLayout {
                tp: 8,
                pp: 1,
                dp: 1,
                ep: 8,
            }),
            ttft_s: 1.0,
            tpot_s: 0.01,
            square_layout: false,
            replicas: 1,
        }
    }

    #[test]
    fn inferencex_recipes_set_how_new_requests_are_taken_in() {
        let b200 = registry::get("b200").unwrap();
        let sglang = Scheduler::default_for(Framework::Sglang, &b200);
        let trtllm = Scheduler::default_for(Framework::TensorRtLlm, &b200);
        let reads = |r: &SampleRow| scheduler(r, sglang).recv_interval;
        let mut r = row(Framework::Sglang, "b200", Origin::InferenceX);
        assert_eq!(reads(&r), 30);
        r.concurrency = 8;
        assert_eq!(reads(&r), 10);
        r.concurrency = 64;
        r.weights = Format::Fp8E4m3;
        r.serving = Serving::Aggregated(SampleLayout {
            tp: 4,
            pp: 1,
            dp: 1,
            ep: 1,
        });
        assert_eq!(reads(&r), 10);
        // The H200 recipe sets no interval, NVIDIA's own runs publish none, and a dense
        // model's recipe none.
        assert_eq!(
            reads(&row(Framework::Sglang, "h200", Origin::InferenceX)),
            1
        );
        assert_eq!(reads(&row(Framework::Sglang, "b200", Origin::Nvidia)), 1);
        let mut dense = row(Framework::Sglang, "b200", Origin::InferenceX);
        dense.preset = "llama-3.1-70b";
        assert_eq!(reads(&dense), 1);

        let mut t = row(Framework::TensorRtLlm, "b200", Origin::InferenceX);
        assert_eq!(scheduler(&t, trtllm), trtllm);
        t.serving = Serving::Aggregated(SampleLayout {
            tp: 1,
            pp: 1,
            dp: 8,
            ep: 8,
        });
        let balanced = scheduler(&t, trtllm);
        assert_eq!(
            balanced.adp_balance,
            Some(AdpBalance {
                timeout_steps: 60,
                batching_wait_steps: 0
            })
        );
        // Every scheduler a recipe gives is one its engine accepts.
        balanced.validate().unwrap();
        scheduler(&row(Framework::Sglang, "b200", Origin::InferenceX), sglang)
            .validate()
            .unwrap();
    }
}
