//! The importer over real result files (`testdata/serving-runs/`, each with its source in
//! that folder's README) and over the pitfalls they show; the figures expected are the
//! files' own, read off them by hand.

use proptest::prelude::*;

use super::*;

const VLLM: &str = include_str!(
    "../../../testdata/serving-runs/vllm-bench-serve_h200x8_qwen3-32b_tp4-dp2_c100.json"
);
const SGLANG: &str = include_str!(
    "../../../testdata/serving-runs/sglang-bench-serving_h200x4_llama-3.3-70b_online.jsonl"
);
const GUIDELLM: &str =
    include_str!("../../../testdata/serving-runs/guidellm_benchmarks-stripped.json");
const GENAI_JSON: &str =
    include_str!("../../../testdata/serving-runs/genai-perf_llama3-8b-nim_c10.json");
const GENAI_CSV: &str =
    include_str!("../../../testdata/serving-runs/genai-perf_llama3-8b-nim_c10.csv");

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

fn mean(m: Option<Measured>) -> f64 {
    let m = m.expect("a figure");
    assert_eq!(m.statistic, Statistic::Mean);
    m.value.get()
}

#[test]
fn vllm_save_result_reads_its_closed_loop_and_means() {
    let runs = import_serving(VLLM).unwrap();
    assert_eq!(runs.client, BenchClient::VllmBenchServe);
    assert_eq!(runs.model.as_deref(), Some("Qwen/Qwen3-32B"));
    assert_eq!(runs.backend.as_deref(), Some("vllm"));
    let [p] = runs.points.as_slice() else {
        panic!("one run, got {}", runs.points.len())
    };
    // `request_rate` is the string "inf" and `max_concurrency` 100: a closed loop.
    assert_eq!(p.load, Some(Load::Concurrency(100)));
    assert_eq!(p.requests, Some(100));
    assert!(close(p.prompt_tokens, 4096.0) && close(p.output_tokens, 128.0));
    assert!(close(mean(p.ttft), 2.5369435972347856));
    assert!(close(mean(p.tpot), 0.026352361489937998));
    // The median gap skips the steps that carry a prompt: half the mean TPOT here.
    assert!(close(p.itl_median.unwrap().get(), 0.012061964720487595));
    assert!(close(p.output_tokens_per_s.unwrap(), 2138.4145177586597));
}

#[test]
fn sglang_reduced_lines_read_medians_rates_and_random_lengths() {
    let runs = import_serving(SGLANG).unwrap();
    assert_eq!(runs.client, BenchClient::SglangBenchServing);
    assert_eq!(runs.backend.as_deref(), Some("sglang"));
    assert_eq!(runs.points.len(), 7);
    let rates: Vec<f64> = runs
        .points
        .iter()
        .map(|p| match p.load {
            Some(Load::Rate { per_s, cap: None }) => per_s,
            other => panic!("a rate with no cap, got {other:?}"),
        })
        .collect();
    assert_eq!(rates[..3], [1.0, 2.0, 4.0]);
    let p = &runs.points[0];
    assert_eq!(p.requests, Some(300));
    assert!(close(p.prompt_tokens, 152_612.0 / 300.0));
    // `random_range_ratio` 0 draws lengths from one token to 1,024.
    assert_eq!(
        p.lengths,
        Some(LengthRange {
            prompt: 1024,
            output: 1024,
            floor: 1.0 / 1024.0
        })
    );
    // No mean TTFT and no TPOT in this format: the median TTFT, labelled so.
    let ttft = p.ttft.unwrap();
    assert_eq!(ttft.statistic, Statistic::Median);
    assert!(close(ttft.value.get(), 0.08574514742940664));
    assert_eq!(p.tpot, None);
    assert!(close(p.itl_median.unwrap().get(), 0.013638956006616354));
    assert!(close(p.output_tokens_per_s.unwrap(), 537.4142851849319));
}

#[test]
fn guidellm_reads_each_strategy_and_takes_inter_token_latency_as_tpot() {
    let runs = import_serving(GUIDELLM).unwrap();
    assert_eq!(runs.client, BenchClient::GuideLlm);
    assert_eq!(runs.model.as_deref(), Some("example_model"));
    let [p] = runs.points.as_slice() else {
        panic!("one benchmark")
    };
    assert_eq!(p.load, Some(Load::Concurrency(1)), "synchronous");
    assert_eq!(p.requests, Some(46), "request_totals.successful");
    assert!(close(p.prompt_tokens, 257.1086956521739));
    assert!(close(p.output_tokens, 127.99999999999999));
    assert!(close(mean(p.ttft), 0.016792535781860348));
    // inter_token_latency_ms, not time_per_output_token_ms (4.903 ms, which counts the
    // first token too).
    assert!(close(mean(p.tpot), 0.004941609043733832));
    assert!(close(p.output_tokens_per_s.unwrap(), 198.13346751788123));
}

#[test]
fn guidellm_strategies_map_to_their_loads() {
    let mut report: Value = serde_json::from_str(GUIDELLM).unwrap();
    let strategy = |report: &mut Value, s: Value| {
        report["benchmarks"][0]["args"]["strategy"] = s;
        import_serving(&report.to_string()).map(|r| r.points[0].load)
    };
    assert_eq!(
        strategy(
            &mut report,
            serde_json::json!({"type_": "concurrent", "streams": 16})
        ),
        Ok(Some(Load::Concurrency(16)))
    );
    assert_eq!(
        strategy(
            &mut report,
            serde_json::json!({"type_": "poisson", "rate": 2.5})
        ),
        Ok(Some(Load::Rate {
            per_s: 2.5,
            cap: None
        }))
    );
    // Throughput: the measured mean concurrency (0.998 here) as the closed loop.
    assert_eq!(
        strategy(&mut report, serde_json::json!({"type_": "throughput"})),
        Ok(Some(Load::Concurrency(1)))
    );
    let e = strategy(&mut report, serde_json::json!({"type_": "concurrent"})).unwrap_err();
    assert!(e.to_string().contains("args.strategy.streams"), "{e}");
    let e = strategy(&mut report, serde_json::json!({"type_": "sweep-ish"})).unwrap_err();
    assert!(e.to_string().contains("a strategy not read"), "{e}");
}

#[test]
fn genai_perf_json_and_csv_give_the_same_run() {
    let json = import_serving(GENAI_JSON).unwrap();
    assert_eq!(json.client, BenchClient::GenAiPerfJson);
    assert_eq!(json.model.as_deref(), Some("meta/llama3-8b-instruct"));
    assert_eq!(json.backend.as_deref(), Some("tensorrtllm"));
    let j = &json.points[0];
    assert_eq!(j.load, Some(Load::Concurrency(10)));
    assert!(close(mean(j.ttft), 0.14552817012999998));
    assert!(close(mean(j.tpot), 0.0127529225775));
    assert!(close(j.output_tokens_per_s.unwrap(), 667.5573827440704));
    assert!(close(j.prompt_tokens, 200.03) && close(j.output_tokens, 58.67));

    let csv = import_serving(GENAI_CSV).unwrap();
    assert_eq!(csv.client, BenchClient::GenAiPerfCsv);
    let c = &csv.points[0];
    // The CSV does not say the load; its figures are the JSON's, rounded to 0.01.
    assert_eq!(c.load, None);
    assert!((mean(c.ttft) - mean(j.ttft)).abs() < 1e-5);
    assert!((mean(c.tpot) - mean(j.tpot)).abs() < 1e-5);
    assert!((c.output_tokens_per_s.unwrap() - 667.56).abs() < 1e-9);
}

#[test]
fn genai_perf_csv_reads_quoted_thousands() {
    let text = GENAI_CSV.replace(
        "Output Token Throughput (per sec),667.56",
        "Output Token Throughput (per sec),\"2,156.03\"",
    );
    let runs = import_serving(&text).unwrap();
    assert!(close(runs.points[0].output_tokens_per_s.unwrap(), 2156.03));
    let text = GENAI_CSV.replace("145.53", "fast");
    let e = import_serving(&text).unwrap_err();
    assert!(e.to_string().contains("Time To First Token (ms)"), "{e}");
}

#[test]
fn sglang_offline_infinity_is_an_unlimited_rate() {
    // The offline form: Python's json.dumps writes float("inf") as a bare token.
    let line = SGLANG
        .lines()
        .next()
        .unwrap()
        .replace("\"request_rate\": 1.0", "\"request_rate\": Infinity")
        .replace(
            "\"dataset_name\": \"random\"",
            "\"dataset_name\": \"Infinity NaN\"",
        );
    let runs = import_serving(&line).unwrap();
    assert_eq!(runs.points[0].load, Some(Load::AllAtOnce));
    // A string holding the word is left alone: no `random` dataset, no length range.
    assert_eq!(runs.points[0].lengths, None);
}

#[test]
fn appended_vllm_results_are_one_point_a_line() {
    let text = format!(
        "{VLLM}\n{}\n",
        VLLM.replace("\"max_concurrency\": 100", "\"max_concurrency\": 50")
    );
    let runs = import_serving(&text).unwrap();
    assert_eq!(runs.points.len(), 2);
    assert_eq!(runs.points[1].load, Some(Load::Concurrency(50)));
}

#[test]
fn refusals_name_what_is_wrong() {
    let e = |text: &str| import_serving(text).unwrap_err().to_string();
    assert_eq!(e("  \n"), "the file is empty");
    let lab = r#"{"rooflinr": "rooflinr-lab", "version": 1, "kernels": []}"#;
    let m = e(lab);
    assert!(
        m.contains("not a serving benchmark's result")
            && m.contains("keys kernels, rooflinr, version"),
        "{m}"
    );
    assert!(
        m.contains("vllm bench serve") && m.contains("genai-perf profile"),
        "{m}"
    );
    let m = e("name,time_us\ngemm,3\n");
    assert!(m.contains("it begins `name,time_us`"), "{m}");
    let m = e(&VLLM.replace("\"completed\": 100, ", ""));
    assert!(m.contains("run 1: no `completed`"), "{m}");
    let m = e(&VLLM.replace(
        "\"mean_ttft_ms\": 2536.9435972347856",
        "\"mean_ttft_ms\": -3",
    ));
    assert!(m.contains("`mean_ttft_ms` is -3 ms, below zero"), "{m}");
    let m = e(&VLLM.replace("\"request_rate\": \"inf\"", "\"request_rate\": \"fast\""));
    assert!(m.contains("`request_rate` is \"fast\""), "{m}");
    let m = e(&VLLM.replace(
        "\"total_output_tokens\": 12800",
        "\"total_output_tokens\": 0",
    ));
    assert!(m.contains("each must be at least 1"), "{m}");
    let m = e(&format!("{VLLM}\n{{\"backend\": ]"));
    assert!(m.starts_with("line 2: not JSON"), "{m}");
    let big = " ".repeat(MAX_IMPORT_BYTES + 1);
    assert!(e(&big).contains("the most accepted"));
}

proptest! {
    #[test]
    fn no_text_panics(text in "\\PC{0,400}") {
        let _ = import_serving(&text);
    }

    /// Every real file cut short or with one character changed is read or refused, and
    /// what is read is usable.
    #[test]
    fn damaged_real_files_are_read_or_refused(
        which in 0usize..5,
        cut in 0.0f64..1.0,
        at in 0.0f64..1.0,
        with in proptest::char::range('!', '~'),
    ) {
        let text = [VLLM, SGLANG, GUIDELLM, GENAI_JSON, GENAI_CSV][which];
        let floor = |x: f64| {
            let mut i = (x * text.len() as f64) as usize;
            while !text.is_char_boundary(i) { i -= 1; }
            i
        };
        let damaged = [
            text[..floor(cut)].to_owned(),
            format!("{}{with}{}", &text[..floor(at)], &text[floor(at)..].chars().skip(1).collect::<String>()),
        ];
        for d in damaged {
            if let Ok(runs) = import_serving(&d) {
                for p in &runs.points {
                    prop_assert!(p.prompt_tokens >= 1.0 && p.output_tokens >= 1.0);
                    for m in [p.ttft, p.tpot].into_iter().flatten() {
                        prop_assert!(m.value.get().is_finite() && m.value.get() >= 0.0);
                    }
                }
            }
        }
    }
}
