//! Tests of input validation and of the arrangement of model results for display.

use rooflinr_model::format::Format;
use rooflinr_model::roofline::Bound;

use rooflinr_model::deploy::serving::runs::MeasuredRun;

use super::*;
use crate::chart::data::ChartData;
use crate::state::{Mode, State};

fn op_state(edit: impl FnOnce(&mut State)) -> State {
    let mut s = State {
        mode: Mode::Operator,
        ..State::default()
    };
    edit(&mut s);
    s
}

#[track_caller]
fn check_problem(result: Result<impl std::fmt::Debug, Problem>, field: &str, says: &str) {
    let p = result.expect_err("should be refused");
    assert_eq!(p.field, field, "{p}");
    assert!(p.message.contains(says), "{p}");
}

#[test]
fn whole_numbers_are_validated_with_the_field_named() {
    assert_eq!(whole("N", " 4_096 ", MAX_DIM), Ok(4096));
    check_problem(
        whole("N", "abc", MAX_DIM),
        "N",
        "`abc` is not a whole number",
    );
    check_problem(whole("N", "", MAX_DIM), "N", "enter a whole number");
    check_problem(whole("N", "0", MAX_DIM), "N", "between 1 and");
    check_problem(whole("N", "-3", MAX_DIM), "N", "not a whole number");
    check_problem(whole("N", "99999999999", MAX_DIM), "N", "got 99999999999");
}

#[test]
fn ranking_is_fastest_first_with_fp16_as_baseline() {
    let hw = hardware(&State::default()).unwrap();
    let view = operator(&op_state(|_| {}), &hw).unwrap();
    assert_eq!(view.ranking.len(), Format::CATALOGUE.len() - 1);
    assert!(
        view.ranking
            .windows(2)
            .all(|w| w[0].result.prediction.time.get() <= w[1].result.prediction.time.get())
    );
    let fp16 = view
        .ranking
        .iter()
        .find(|r| r.format == Format::Fp16)
        .unwrap();
    assert_eq!((fp16.speedup, fp16.bytes_saved), (1.0, 0.0));
    // A 4096x4096 GEMV is memory-bound: NVFP4 (4.5 bits) is ~16/4.5 faster than FP16.
    let nvfp4 = view
        .ranking
        .iter()
        .find(|r| r.format == Format::NvFp4)
        .unwrap();
    assert_eq!(nvfp4.result.prediction.bound, Bound::Memory);
    assert!(
        (nvfp4.speedup - 16.0 / 4.5).abs() < 0.01,
        "{}",
        nvfp4.speedup
    );
    assert!((nvfp4.bytes_saved - (1.0 - 4.5 / 16.0)).abs() < 0.001);
}

#[test]
fn weights_only_ranking_keeps_the_other_operands() {
    let hw = hardware(&State::default()).unwrap();
    let s = op_state(|s| {
        s.vary = Vary::Weights;
        s.activations = "bf16".into();
    });
    let view = operator(&s, &hw).unwrap();
    assert!(
        view.ranking
            .iter()
            .all(|r| r.precision.activations == Format::Bf16)
    );
    let attn = op_state(|s| {
        s.vary = Vary::Weights;
        s.op = OpKind::Attention;
    });
    let view = operator(&attn, &hw).unwrap();
    assert!(
        view.ranking
            .iter()
            .any(|r| r.precision.kv == Format::Fp8E4m3)
    );
    assert!(
        view.ranking
            .iter()
            .all(|r| r.precision.weights == Format::Fp16)
    );
}

#[test]
fn operator_inputs_are_checked() {
    let hw = hardware(&State::default()).unwrap();
    check_problem(operator(&op_state(|s| s.k = "x".into()), &hw), "K", "`x`");
    let attn = |edit: fn(&mut State)| {
        op_state(|s| {
            s.op = OpKind::Attention;
            edit(s);
        })
    };
    check_problem(
        operator(&attn(|s| s.kv_heads = "5".into()), &hw),
        "KV heads",
        "must divide the 32 query heads",
    );
    check_problem(
        operator(&attn(|s| s.q_len = "5000".into()), &hw),
        "query tokens",
        "exceeds the context of 4096",
    );
    check_problem(
        operator(&op_state(|s| s.weights = "fp7".into()), &hw),
        "weights",
        "unknown format `fp7`",
    );
}

#[test]
fn custom_device_errors_name_the_field() {
    let custom = |edit: fn(&mut State)| {
        let mut s = State {
            hardware: CUSTOM.into(),
            ..State::default()
        };
        edit(&mut s);
        hardware(&s)
    };
    let hw = custom(|_| {}).unwrap();
    assert_eq!(hw.name, "My accelerator");
    assert_eq!(hw.memory_bandwidth.value.get(), 1e12);
    assert_eq!(hw.peaks.len(), 4);
    check_problem(
        custom(|s| s.custom.bandwidth_gb_s = "fast".into()),
        "bandwidth",
        "`fast`",
    );
    check_problem(
        custom(|s| s.custom.peaks = "fp16=3".into()),
        "peaks",
        "type:TFLOP/s",
    );
    check_problem(
        custom(|s| s.custom.peaks = "fp17:3".into()),
        "custom device",
        "unknown operation type",
    );
    check_problem(
        custom(|s| s.custom.peaks = " ".into()),
        "custom device",
        "at least one rate",
    );
    check_problem(
        custom(|s| s.custom.name = " ".into()),
        "custom device",
        "must not be empty",
    );
    // A blank capacity means unlimited.
    assert!(custom(|s| s.custom.capacity_gb = "".into()).is_ok());
}

#[test]
fn model_view_says_the_expected_time_where_kernel_profiles_cover_its_operators() {
    // The default device (H100 SXM) in BF16 has GEMM and attention profiles: the pass is
    // expected to be slower than its bound, and the note says so with the count covered.
    let s = State {
        activations: "bf16".into(),
        weights: "bf16".into(),
        kv: "bf16".into(),
        output: "bf16".into(),
        ..State::default()
    };
    let hw = hardware(&s).unwrap();
    let view = model(&s, &hw).unwrap();
    let c = view.calibrated;
    assert!(
        c.calibrated_ops > 0 && c.time_s > view.analysis.time.get(),
        "{c:?}"
    );
    let note = view.time_note();
    assert!(
        note.contains("expected") && note.contains(&format!("{} of", c.calibrated_ops)),
        "{note}"
    );
    // GB10 has none: the note says the figure is the bound and nothing else.
    let gb10 = registry::get("gb10").unwrap();
    let view = model(&s, &gb10).unwrap();
    assert_eq!(view.calibrated.calibrated_ops, 0);
    assert!(
        view.time_note().ends_with("roofline bound"),
        "{}",
        view.time_note()
    );
}

#[test]
fn model_view_has_both_phases_and_a_rising_decode_curve() {
    let s = State::default();
    let hw = hardware(&s).unwrap();
    let view = model(&s, &hw).unwrap();
    assert!(!view.analysis.ops.is_empty());
    assert_ne!(view.analysis.time, view.other.time);
    let curve = decode_curve(&view, &hw);
    assert_eq!(curve.len(), CURVE_POINTS);
    assert_eq!(
        (curve[0].context, curve[CURVE_POINTS - 1].context),
        (128, CURVE_MAX_CONTEXT)
    );
    assert!(
        curve
            .windows(2)
            .all(|w| w[0].context < w[1].context && w[0].time <= w[1].time)
    );
    // The curve's end points agree with direct analyses at those contexts.
    let at = |ctx: u64| {
        let s = State {
            seq: ctx.to_string(),
            ..State::default()
        };
        model(&s, &hw).unwrap().analysis.time.get()
    };
    assert_eq!(curve[0].time, at(128));
    assert_eq!(curve[CURVE_POINTS - 1].time, at(CURVE_MAX_CONTEXT));
    let chart = ChartData::for_model(&hw, &view);
    let selected = chart.points.iter().filter(|p| p.selected).count();
    assert!(selected > 0 && selected < chart.points.len());
    assert!(chart.points.iter().any(|p| p.phase == Phase::Prefill));
    assert!(chart.points.iter().any(|p| p.phase == Phase::Decode));
    assert_eq!(chart.roofs.len(), hw.peaks.len());
}

#[test]
fn model_inputs_are_checked() {
    let hw = hardware(&State::default()).unwrap();
    let with = |edit: fn(&mut State)| {
        let mut s = State::default();
        edit(&mut s);
        model(&s, &hw)
    };
    check_problem(with(|s| s.batch = "0".into()), "batch", "between 1 and");
    check_problem(with(|s| s.seq = "lots".into()), "context length", "`lots`");
    check_problem(
        with(|s| {
            s.phase = Phase::Prefill;
            s.seq = "".into()
        }),
        "prompt length",
        "enter a whole number",
    );
    check_problem(
        with(|s| s.model = "gpt-9".into()),
        "model",
        "unknown model preset",
    );
    check_problem(with(|s| s.model = CUSTOM.into()), "config.json", "paste");
    check_problem(
        with(|s| {
            s.model = CUSTOM.into();
            s.config = "{\"model_type\": \"llama\",".into()
        }),
        "config.json",
        "cannot parse",
    );
    check_problem(
        with(|s| {
            s.model = CUSTOM.into();
            s.config = "{\"model_type\": \"llama\"}".into()
        }),
        "config.json",
        "missing field",
    );
}

#[test]
fn operator_chart_marks_the_chosen_formats() {
    let hw = hardware(&State::default()).unwrap();
    let view = operator(&op_state(|s| s.weights = "nvfp4".into()), &hw).unwrap();
    let chart = ChartData::for_operator(&hw, &view);
    // Vary::All ranks uniform formats; the chosen mix (FP16 activations, NVFP4 weights) is
    // not among them, so it is added as its own point.
    assert_eq!(chart.points.len(), view.ranking.len() + 1);
    let chosen: Vec<_> = chart.points.iter().filter(|p| p.selected).collect();
    assert_eq!(chosen.len(), 1);
    assert_eq!(chosen[0].time, view.result.prediction.time.get());
    let uniform = operator(&op_state(|_| {}), &hw).unwrap();
    let chart = ChartData::for_operator(&hw, &uniform);
    let selected: Vec<_> = chart.points.iter().filter(|p| p.selected).collect();
    assert_eq!(selected.len(), 1);
    assert_eq!(selected[0].format, "fp16");
    assert_eq!(selected[0].phase, Phase::Decode);
    let e = chart.extent().fit();
    for p in &chart.points {
        assert!(p.intensity.log10() > e.x.0 && p.intensity.log10() < e.x.1);
    }
}

#[test]
fn gemm_views_carry_the_expected_time_under_the_shipped_kernel_terms() {
    let state = op_state(|s| {
        s.hardware = "h100-sxm".into();
        s.activations = "bf16".into();
        s.weights = "bf16".into();
        s.kv = "bf16".into();
        s.output = "bf16".into();
    });
    let hw = hardware(&state).unwrap();
    let view = operator(&state, &hw).unwrap();
    let (expected, profile) = view.calibrated.expect("H100 BF16 has a profile");
    let bound = view.result.prediction.time.get();
    assert!(
        expected > bound,
        "the bound stays the bound: {expected} vs {bound}"
    );
    assert_eq!(profile.hardware, "h100-sxm");
    // A device with no profile shows the bound alone.
    let gb10 = op_state(|s| s.hardware = "gb10".into());
    let view = operator(&gb10, &hardware(&gb10).unwrap()).unwrap();
    assert_eq!(view.calibrated, None);
}

#[test]
fn a_deployment_is_the_model_crates_and_names_bad_layouts() {
    let state = State {
        mode: crate::state::Mode::Deploy,
        model: "llama-3-70b".into(),
        weights: "fp8-e4m3".into(),
        activations: "bf16".into(),
        kv: "bf16".into(),
        tp: "4".into(),
        pp: "2".into(),
        dp: "1".into(),
        concurrency: "64".into(),
        ..State::default()
    };
    let hw = hardware(&state).unwrap();
    let view = deployment(&state, &hw).unwrap();
    let d = &view.deployment;
    assert_eq!(d.layout.gpus(), 8);
    assert_eq!(d.serving.concurrency, 64);
    // The curve holds the chosen concurrency, in order, each point the model crate's.
    assert!(view.curve.iter().any(|s| s.concurrency == 64));
    assert!(
        view.curve
            .windows(2)
            .all(|w| w[0].concurrency < w[1].concurrency)
    );
    assert_eq!(
        view.curve.iter().find(|s| s.concurrency == 64),
        Some(&d.serving)
    );
    // The front of every layout of 8 GPUs: fastest per user first, each step more per GPU.
    let front = layout_front(&state, &hw).unwrap();
    assert!(!front.is_empty());
    assert!(front.iter().all(|p| p.layout.gpus() == 8));
    assert!(
        front
            .windows(2)
            .all(|w| w[0].per_user >= w[1].per_user && w[0].per_gpu < w[1].per_gpu)
    );

    let bad = State {
        tp: "3".into(),
        ..state.clone()
    };
    let p = deployment(&bad, &hw).unwrap_err();
    assert_eq!(p.field, "TP");
    assert!(p.message.contains("64 query heads"), "{}", p.message);
    let bad = State {
        concurrency: "0".into(),
        ..state
    };
    assert_eq!(deployment(&bad, &hw).unwrap_err().field, "requests at once");
}

#[test]
fn the_serving_controls_reach_the_model_and_refuse_what_is_not_published() {
    let state = State {
        mode: crate::state::Mode::Deploy,
        model: "deepseek-v3".into(),
        hardware: "h200".into(),
        weights: "fp8-e4m3".into(),
        activations: "fp8-e4m3".into(),
        kv: "fp8-e4m3".into(),
        tp: "8".into(),
        pp: "1".into(),
        dp: "1".into(),
        concurrency: "16".into(),
        ..State::default()
    };
    let hw = hardware(&state).unwrap();
    let plain = deployment(&state, &hw).unwrap();
    let f = plain.deployment.in_flight.unwrap();
    assert_eq!(f.tokens_per_step, 1.0);
    // The calculator's default engine (TensorRT-LLM) runs on H200s in NVIDIA's sample.
    assert!(plain.measured_error.is_some());
    // One MTP module: DeepSeek's published acceptance, no need to give it.
    let mtp = deployment(
        &State {
            draft_tokens: "1".into(),
            ..state.clone()
        },
        &hw,
    )
    .unwrap();
    assert!((mtp.deployment.in_flight.unwrap().tokens_per_step - 1.85).abs() < 1e-12);
    assert!(mtp.deployment.serving.tpot < plain.deployment.serving.tpot);
    check_problem(
        deployment(
            &State {
                draft_tokens: "3".into(),
                ..state.clone()
            },
            &hw,
        ),
        "acceptance",
        "none is published",
    );
    check_problem(
        deployment(
            &State {
                prefix_hit: "1".into(),
                ..state.clone()
            },
            &hw,
        ),
        "cached prompt share",
        "not a share",
    );
    let cached = deployment(
        &State {
            prefix_hit: "0.5".into(),
            ..state.clone()
        },
        &hw,
    )
    .unwrap();
    assert!(cached.deployment.serving.ttft < plain.deployment.serving.ttft);
    // Static batching: no in-flight state, and nothing only an engine does.
    let fixed = deployment(
        &State {
            serving: crate::state::Serving::Static,
            ..state.clone()
        },
        &hw,
    )
    .unwrap();
    assert!(fixed.deployment.in_flight.is_none());
    assert_eq!(fixed.deployment.serving.ttft, fixed.deployment.prefill.time);
    check_problem(
        deployment(
            &State {
                serving: crate::state::Serving::Static,
                draft_tokens: "1".into(),
                ..state
            },
            &hw,
        ),
        "draft tokens",
        "in-flight",
    );
}

#[test]
fn disaggregated_workers_are_the_figures_and_their_fields_name_their_problems() {
    let state = State {
        mode: crate::state::Mode::Deploy,
        model: "deepseek-v3".into(),
        hardware: "h200".into(),
        weights: "fp8-e4m3".into(),
        activations: "fp8-e4m3".into(),
        kv: "fp8-e4m3".into(),
        tp: "8".into(),
        concurrency: "64".into(),
        serving: crate::state::Serving::Disaggregated,
        prefill_workers: "2".into(),
        decode_workers: "1".into(),
        ..State::default()
    };
    let hw = hardware(&state).unwrap();
    let view = deployment(&state, &hw).unwrap();
    let x = view.disaggregated.expect("disaggregated");
    assert_eq!(
        x.workers.prefill, x.workers.decode,
        "empty: the decode worker's"
    );
    assert_eq!(x.workers.gpus(), 24);
    assert_eq!(view.serving(), x.steady.serving);
    assert!(view.measured.here.is_empty());
    // The first token waits for at least its prefill step and its KV cache's transfer.
    assert!(x.steady.serving.ttft >= x.steady.prefill_step + x.steady.transfer);
    // The curve runs through the chosen concurrency with the same figures.
    let at = view.curve.iter().find(|s| s.concurrency == 64).unwrap();
    assert_eq!(*at, view.serving());
    // The decode worker's own deployment holds its share of the requests, not all of them.
    assert_eq!(view.deployment.layout, x.workers.decode);
    assert!(view.deployment.serving.concurrency <= 64);
    // One prefill worker instead of two is at least as busy.
    let one = deployment(
        &State {
            prefill_workers: "1".into(),
            prefill_layout: "tp8".into(),
            ..state.clone()
        },
        &hw,
    )
    .unwrap()
    .disaggregated
    .unwrap();
    assert!(one.steady.prefill_utilisation >= x.steady.prefill_utilisation);
    assert_eq!(one.workers.gpus(), 16);
    for (field, value, says) in [
        ("prefill worker", "tq4", "use tpN"),
        ("prefill workers", "0", "between 1 and"),
        ("decode workers", "many", "not a whole number"),
    ] {
        let mut bad = state.clone();
        match field {
            "prefill worker" => bad.prefill_layout = value.into(),
            "prefill workers" => bad.prefill_workers = value.into(),
            _ => bad.decode_workers = value.into(),
        }
        check_problem(deployment(&bad, &hw), field, says);
    }
}

#[test]
fn the_workers_search_is_the_model_crates_and_takes_its_budget_and_floor() {
    let state = State {
        mode: crate::state::Mode::Deploy,
        model: "deepseek-v3".into(),
        hardware: "h200".into(),
        weights: "fp8-e4m3".into(),
        serving: crate::state::Serving::Disaggregated,
        search_gpus: "32".into(),
        search_floor: "20".into(),
        ..State::default()
    };
    let hw = hardware(&state).unwrap();
    let v = search_workers(&state, &hw).unwrap();
    let best = v.best.expect("a deployment reaches 20 tokens/s per user");
    assert!(best.tokens_per_s_per_user >= 20.0);
    assert!(best.deployment.gpus() <= 32);
    assert!(v.front.iter().all(|p| p.deployment.gpus() <= 32));
    // Fastest per user first, and along the front more per user costs per GPU.
    for pair in v.front.windows(2) {
        assert!(pair[0].tokens_per_s_per_user >= pair[1].tokens_per_s_per_user);
        assert!(pair[0].tokens_per_s_per_gpu <= pair[1].tokens_per_s_per_gpu);
    }
    // Taking the best's workers in the page: the deployment there has its GPUs.
    let taken = State {
        tp: best.deployment.decode.tensor.to_string(),
        pp: best.deployment.decode.pipeline.to_string(),
        dp: best.deployment.decode.data.to_string(),
        ep: best.deployment.decode.whole_experts(),
        prefill_layout: best.deployment.prefill.to_string(),
        prefill_workers: best.deployment.prefill_workers.to_string(),
        decode_workers: best.deployment.decode_workers.to_string(),
        concurrency: best.concurrency.max(1).to_string(),
        ..state.clone()
    };
    let view = deployment(&taken, &hw).unwrap();
    assert_eq!(view.disaggregated.unwrap().workers, best.deployment);
    check_problem(
        search_workers(
            &State {
                search_gpus: "5000".into(),
                ..state
            },
            &hw,
        ),
        "GPU budget",
        "between 1 and",
    );
}

#[test]
fn the_front_of_the_same_gpus_is_never_beaten_by_the_chosen_layout() {
    let state = State {
        mode: crate::state::Mode::Deploy,
        model: "deepseek-v3".into(),
        hardware: "h200".into(),
        weights: "fp8-e4m3".into(),
        activations: "bf16".into(),
        kv: "bf16".into(),
        tp: "1".into(),
        pp: "1".into(),
        dp: "8".into(),
        ep: true,
        prompt: "2048".into(),
        generated: "512".into(),
        concurrency: "64".into(),
        ..State::default()
    };
    let hw = hardware(&state).unwrap();
    let view = deployment(&state, &hw).unwrap();
    let front = layout_front(&state, &hw).unwrap();
    for s in &view.curve {
        let dominated = front
            .iter()
            .any(|p| p.per_user >= s.tokens_per_s_per_user && p.per_gpu >= s.tokens_per_s_per_gpu);
        assert!(
            dominated,
            "{} requests: {} / {} above the front {front:?}",
            s.concurrency, s.tokens_per_s_per_user, s.tokens_per_s_per_gpu
        );
    }
}

/// NVIDIA's measured serving runs, as the calculator fetches them.
fn measured_runs() -> Vec<MeasuredRun> {
    rooflinr_model::deploy::serving::runs::read_runs(include_str!(
        "../../assets/measured-serving-runs.csv"
    ))
    .unwrap()
}

#[test]
fn measured_runs_of_the_deployment_sit_beside_its_predictions_for_their_clients() {
    let runs = measured_runs();
    let state = State {
        mode: Mode::Deploy,
        model: "llama-3.1-70b".into(),
        hardware: "h200".into(),
        framework: rooflinr_model::kernel_time::Framework::Vllm,
        weights: "fp8-e4m3".into(),
        activations: "fp8-e4m3".into(),
        tp: "4".into(),
        pp: "1".into(),
        dp: "1".into(),
        prompt: "1024".into(),
        generated: "1024".into(),
        concurrency: "64".into(),
        calibrated: true,
        ..State::default()
    };
    let hw = hardware(&state).unwrap();
    let view = deployment_beside(&state, &hw, &runs, None).unwrap();
    let of_model: Vec<&MeasuredRun> = runs
        .iter()
        .filter(|r| {
            r.preset == "llama-3.1-70b"
                && r.hardware == "h200"
                && r.framework == state.framework
                && r.weights == Format::Fp8E4m3
        })
        .collect();
    let here: Vec<&&MeasuredRun> = of_model
        .iter()
        .filter(|r| {
            r.layout == view.deployment.layout
                && r.workload.prompt == 1024
                && r.workload.output == 1024
        })
        .collect();
    assert!(!here.is_empty(), "the sample has vLLM's TP4 1024/1024 runs");
    let m = &view.measured;
    assert_eq!(m.here.len(), here.len());
    // Every run's prediction is the deployment at its clients, its error the prediction's
    // share over the measured figure.
    for p in &m.here {
        let c = p.run.workload.concurrency;
        let at = deployment(
            &State {
                concurrency: c.to_string(),
                ..state.clone()
            },
            &hw,
        )
        .unwrap();
        assert_eq!(p.predicted, Some(at.deployment.serving));
        let (ttft, tpot) = p.errors().unwrap();
        assert!((ttft - (at.deployment.serving.ttft.get() / p.run.ttft.get() - 1.0)).abs() < 1e-12);
        assert!((tpot - (at.deployment.serving.tpot.get() / p.run.tpot.get() - 1.0)).abs() < 1e-12);
    }
    assert!(
        m.here
            .windows(2)
            .all(|w| w[0].run.workload.concurrency <= w[1].run.workload.concurrency)
    );
    // The others, by layout and lengths, most runs first.
    let tp1_long = of_model
        .iter()
        .filter(|r| r.layout.tensor == 1 && (r.workload.prompt, r.workload.output) == (1024, 8192))
        .count();
    assert!(
        m.elsewhere.starts_with("Also measured at: ")
            && m.elsewhere.contains(&format!(
                "TP1 PP1 DP1 at 1,024 → 8,192 tokens ({tp1_long} runs)"
            )),
        "{}",
        m.elsewhere
    );
    assert!(m.coverage.is_empty());

    // FP16 weights find BF16 runs (same speed); a model NVIDIA did not measure finds none.
    let bf16 = State {
        model: "llama-3.1-8b".into(),
        hardware: "h100-sxm".into(),
        framework: rooflinr_model::kernel_time::Framework::TensorRtLlm,
        weights: "fp16".into(),
        activations: "fp16".into(),
        tp: "1".into(),
        ..state.clone()
    };
    let hw = hardware(&bf16).unwrap();
    let v = deployment_beside(&bf16, &hw, &runs, None).unwrap();
    assert!(!v.measured.here.is_empty() || !v.measured.elsewhere.is_empty());
    let other = State {
        model: "llama-3-70b".into(),
        ..state.clone()
    };
    let hw = hardware(&other).unwrap();
    let none = deployment_beside(&other, &hw, &runs, None)
        .unwrap()
        .measured;
    assert!(none.here.is_empty() && none.elsewhere.is_empty());
    assert!(
        none.coverage.contains("no runs of this model") && none.coverage.contains("llama-3.1-70b"),
        "{}",
        none.coverage
    );
}

#[test]
fn the_experts_can_take_weights_of_their_own() {
    // gpt-oss-120b as its checkpoint ships: MXFP4 experts, BF16 elsewhere.
    let state = State {
        mode: Mode::Model,
        model: "gpt-oss-120b".into(),
        hardware: "h200".into(),
        weights: "bf16".into(),
        activations: "bf16".into(),
        kv: "bf16".into(),
        experts: "mxfp4".into(),
        ..State::default()
    };
    let hw = hardware(&state).unwrap();
    let view = model(&state, &hw).unwrap();
    assert_eq!(
        view.scenario.experts,
        Some(ExpertFormats {
            weights: Format::MxFp4,
            activations: Format::Bf16
        })
    );
    let expected =
        analysis::analyze(&view.config, &hw, &view.scenario, &Efficiency::IDEAL).unwrap();
    assert_eq!(view.analysis.weight_bytes, expected.weight_bytes);
    let all_bf16 = model(
        &State {
            experts: String::new(),
            ..state.clone()
        },
        &hw,
    )
    .unwrap();
    assert!(view.analysis.weight_bytes.get() < 0.3 * all_bf16.analysis.weight_bytes.get());
    // A name that is no format is refused, naming the field.
    check_problem(
        model(
            &State {
                experts: "fp5".into(),
                ..state
            },
            &hw,
        ),
        "experts",
        "fp5",
    );
}

#[test]
fn energy_and_cost_per_token_rest_on_board_power_and_the_price_given() {
    let state = State {
        mode: crate::state::Mode::Deploy,
        model: "llama-3-70b".into(),
        hardware: "h200".into(),
        weights: "fp8-e4m3".into(),
        tp: "4".into(),
        pp: "1".into(),
        dp: "1".into(),
        concurrency: "32".into(),
        ..State::default()
    };
    let hw = rooflinr_model::hardware::registry::get("h200").unwrap();
    let view = deployment(&state, &hw).unwrap();
    let per_gpu = view.serving().tokens_per_s_per_gpu;
    let e = view.energy.as_ref().expect("the H200 has a board power");
    assert_eq!(e.energy.power.watts, 700.0);
    assert!((e.energy.joules_per_output_token - 700.0 / per_gpu).abs() < 1e-9);
    assert_eq!(e.dollars_per_million, None, "no price, no cost");
    assert!(view.words.energy.ends_with(" J"), "{}", view.words.energy);
    assert!(
        view.words.energy_note.contains("an upper bound"),
        "{}",
        view.words.energy_note
    );
    assert!(view.words.cost.is_empty());

    let priced = deployment(
        &State {
            gpu_price: "$3.60".into(),
            ..state.clone()
        },
        &hw,
    )
    .unwrap();
    let usd = priced.energy.unwrap().dollars_per_million.unwrap();
    // $3.60 an hour is a thousandth of a dollar a second.
    assert!((usd - 1e-3 / per_gpu * 1e6).abs() < 1e-9 * usd);
    assert!(
        priced.words.cost_note.contains("$3.6 per GPU-hour"),
        "{}",
        priced.words.cost_note
    );
    check_problem(
        deployment(
            &State {
                gpu_price: "cheap".into(),
                ..state
            },
            &hw,
        ),
        "price per GPU-hour",
        "`cheap` is not a price",
    );
}

#[test]
fn an_imported_run_is_beside_the_prediction_for_its_own_clients_and_lengths() {
    let text = include_str!(
        "../../../crates/rooflinr-report/testdata/serving-runs/vllm-bench-serve_h200x8_qwen3-32b_tp4-dp2_c100.json"
    );
    let file = ImportedRuns {
        name: "run.json".into(),
        runs: rooflinr_report::import::serving::import_serving(text).unwrap(),
    };
    // The page at other lengths and clients: the run is predicted at its own.
    let state = State {
        mode: crate::state::Mode::Deploy,
        model: "qwen3-32b".into(),
        hardware: "h200".into(),
        tp: "4".into(),
        pp: "1".into(),
        dp: "2".into(),
        concurrency: "8".into(),
        framework: rooflinr_model::kernel_time::Framework::Vllm,
        ..State::default()
    };
    let hw = rooflinr_model::hardware::registry::get("h200").unwrap();
    let view = deployment_beside(&state, &hw, &[], Some(&file)).unwrap();
    let [p] = view.imported.points.as_slice() else {
        panic!("one run")
    };
    // The page's simulation of the run's own benchmark (100 clients, 100 requests, 4,096
    // in and 128 out), whatever the page's own lengths and clients.
    let config = model_config(&state).unwrap();
    let scenario = deploy::deploy_scenario(&state).unwrap();
    let (layout, _, options) = deploy::deploy_inputs(&state, &config, &hw).unwrap();
    let benchmark = p.point.reproduction(1.0, 0.0).unwrap().benchmark;
    assert_eq!(
        (benchmark.prompt, benchmark.output, benchmark.requests),
        (4096, 128, 100)
    );
    let same = rooflinr_model::deploy::benchmark(
        &config,
        &hw,
        &scenario,
        &rooflinr_model::roofline::Efficiency::IDEAL,
        layout,
        &benchmark,
        &options,
    )
    .unwrap();
    assert_eq!(p.predicted, Some(same));
    // 2,138.4 output tokens/s over 8 GPUs; one over the 26.35 ms mean TPOT per user.
    assert!((p.per_gpu.unwrap() - 2138.4145177586597 / 8.0).abs() < 1e-9);
    assert!((p.per_user().unwrap() - 1.0 / 0.026352361489937998).abs() < 1e-9);
    assert!(
        view.imported
            .caption
            .starts_with("run.json: 1 run measured by vllm bench serve of Qwen/Qwen3-32B"),
        "{}",
        view.imported.caption
    );
    assert!(
        view.imported
            .html
            .contains("<td class=\"num\">2.54 s mean</td>"),
        "{}",
        view.imported.html
    );
    // The report's serving section carries the same row, measured beside predicted.
    let md = crate::export::deploy_markdown(&hw, &view, "https://example.test/?v=1");
    assert!(md.contains("\n## Measured serving runs\n"), "{md}");
    assert!(
        md.contains(&format!("| {} |", p.cells.join(" | "))) && p.cells[2] == "2.54 s mean",
        "{md}"
    );
    // An energy window around the run: its joules over the run's 100 x 128 output tokens,
    // beside the simulation's at the window's power and at the H200's board power.
    let window =
        rooflinr_model::deploy::energy::WindowEnergy::from_counters(&[(0, 3_000_000); 8], 6.0)
            .unwrap();
    let board = rooflinr_model::deploy::energy::GpuPower::board(&hw).unwrap();
    let b = super::energy_beside(&view.imported, 8, Some(&board), window).unwrap();
    assert_eq!(b.tokens, 12_800.0);
    assert!((b.measured - 24_000.0 / 12_800.0).abs() < 1e-12);
    let simulated = same.output_tokens_per_s;
    assert!((b.predicted_at_measured_power.unwrap() - 500.0 * 8.0 / simulated).abs() < 1e-9);
    assert!((b.predicted_board.unwrap() - 700.0 * 8.0 / simulated).abs() < 1e-9);
    // The run took about 6 s (12,800 tokens at 2,138 tokens/s): no note on the window's
    // length; a 60 s window gets one.
    assert!(b.notes.is_empty(), "{:?}", b.notes);
    let long = rooflinr_model::deploy::energy::WindowEnergy {
        seconds: 60.0,
        ..window
    };
    let b = super::energy_beside(&view.imported, 8, Some(&board), long).unwrap();
    assert!(
        b.notes[0].contains("the window lasted 60.0 s"),
        "{:?}",
        b.notes
    );
    // Without a file there is nothing beside it; under static batching nothing is
    // simulated, and the table says why.
    assert!(deployment(&state, &hw).unwrap().imported.points.is_empty());
    let fixed = deployment_beside(
        &State {
            serving: crate::state::Serving::Static,
            ..state
        },
        &hw,
        &[],
        Some(&file),
    )
    .unwrap();
    assert_eq!(fixed.imported.points[0].predicted, None);
    assert!(
        fixed.imported.html.contains("run 1 not simulated"),
        "{}",
        fixed.imported.html
    );
}

#[test]
fn the_launch_command_is_the_engines_for_the_layout_and_scheduler_shown() {
    let state = State {
        mode: crate::state::Mode::Deploy,
        model: "deepseek-v3".into(),
        hardware: "h200".into(),
        weights: "fp8-e4m3".into(),
        activations: "fp8-e4m3".into(),
        kv: "fp8-e4m3".into(),
        tp: "1".into(),
        pp: "1".into(),
        dp: "8".into(),
        ep: true,
        concurrency: "64".into(),
        framework: rooflinr_model::kernel_time::Framework::Sglang,
        ..State::default()
    };
    let hw = hardware(&state).unwrap();
    let view = deployment(&state, &hw).unwrap();
    let commands = view.launch.unwrap();
    assert_eq!(commands.len(), 1);
    let l = &commands[0];
    assert_eq!(l.what, "tp1-dp8-ep on 8 GPU(s)");
    let shell = &l.shell;
    for part in [
        "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3",
        "--tp-size 8",
        "--enable-dp-attention",
        "--ep-size 8",
        "--kv-cache-dtype fp8_e4m3",
        "--quantization fp8",
    ] {
        assert!(shell.contains(part), "{part} in {shell}");
    }
    // Disaggregated: the prefill worker's command, then the decode worker's.
    let disagg = deployment(
        &State {
            serving: crate::state::Serving::Disaggregated,
            prefill_layout: "tp8".into(),
            prefill_workers: "2".into(),
            ..state.clone()
        },
        &hw,
    )
    .unwrap();
    let commands = disagg.launch.unwrap();
    assert_eq!(commands[0].what, "each of 2 prefill worker(s), tp8");
    assert!(commands[0].shell.contains("--tp-size 8 \\\n"));
    assert_eq!(commands[1].what, "each of 1 decode worker(s), tp1-dp8-ep");
    // Static batching is no engine's: no command, and why.
    let stat = deployment(
        &State {
            serving: crate::state::Serving::Static,
            ..state.clone()
        },
        &hw,
    )
    .unwrap();
    assert!(stat.launch.unwrap_err().contains("Static batching"));
    // What the engine cannot express is named.
    let mixed = deployment(
        &State {
            framework: rooflinr_model::kernel_time::Framework::TensorRtLlm,
            tp: "2".into(),
            dp: "4".into(),
            ..state
        },
        &hw,
    )
    .unwrap();
    assert!(mixed.launch.unwrap_err().contains("TP 2 x DP 4"));
}
