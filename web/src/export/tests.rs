//! Tests of the CSV, JSON and Markdown exports.

use super::*;
use crate::compute::{self, ModelView, OperatorView};
use crate::state::{Mode, State};

fn operator_view() -> (Hardware, OperatorView) {
    let s = State {
        mode: Mode::Operator,
        ..State::default()
    };
    let hw = compute::hardware(&s).unwrap();
    let v = compute::operator(&s, &hw).unwrap();
    (hw, v)
}

fn model_view() -> (Hardware, ModelView) {
    let s = State::default();
    let hw = compute::hardware(&s).unwrap();
    let v = compute::model(&s, &hw).unwrap();
    (hw, v)
}

#[test]
fn csv_quotes_what_needs_quoting() {
    assert_eq!(csv_field("plain"), "plain");
    assert_eq!(csv_field("a,b"), "\"a,b\"");
    assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    assert_eq!(
        csv(&["a", "b"], &[vec!["1".into(), "x,y".into()]]),
        "a,b\n1,\"x,y\"\n"
    );
}

#[test]
fn operator_csv_has_a_row_per_format_with_figures_that_parse_back() {
    let (_, v) = operator_view();
    let text = operator_csv(&v);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], RANK_HEADER.join(","));
    assert_eq!(lines.len(), v.ranking.len() + 1);
    let first: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(first[0], v.ranking[0].format.name());
    let time: f64 = first[1].parse().unwrap();
    assert_eq!(time, v.ranking[0].result.prediction.time.get());
}

#[test]
fn model_exports_carry_the_analysis() {
    let (hw, v) = model_view();
    let text = model_csv(&v);
    assert_eq!(text.lines().count(), v.analysis.ops.len() + 1);
    // The op shape (with commas) is quoted, so every row has the header's column count
    // when parsed with quotes respected.
    assert!(
        text.lines()
            .skip(1)
            .all(|l| l.ends_with('"') && l.matches(",\"").count() == 1),
        "{text}"
    );
    let json = model_json(&hw, &v, &[]);
    assert!(json.get("comparison").is_none());
    assert_eq!(json["kind"], PROVENANCE);
    assert_eq!(json["time_s"].as_f64(), Some(v.analysis.time.get()));
    assert_eq!(json["ops"].as_array().unwrap().len(), v.analysis.ops.len());
    let shares: f64 = json["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["share"].as_f64().unwrap())
        .sum();
    assert!((shares - 1.0).abs() < 1e-9);
}

#[test]
fn markdown_reports_say_what_they_are() {
    let (hw, v) = model_view();
    let md = model_markdown(&hw, &v, "https://example.test/?v=1", &[]);
    assert!(
        md.starts_with("# rooflinr: meta-llama/Meta-Llama-3-8B on NVIDIA H100"),
        "{md}"
    );
    assert!(md.contains(PROVENANCE));
    assert!(md.contains("(https://example.test/?v=1)"));
    assert!(md.contains("| operator | count |"));
    assert_eq!(md.matches("\n| ").count(), v.analysis.ops.len() + 2);
    let (hw, v) = operator_view();
    let md = operator_markdown(&hw, &v, "x");
    assert!(md.contains("## Every format"));
    assert!(md.contains("memory-bound") || md.contains("compute-bound"));
    let json = operator_json(&hw, &v);
    assert_eq!(json["ranking"].as_array().unwrap().len(), v.ranking.len());
}

#[test]
fn a_comparison_travels_in_the_json_and_the_report() {
    let s = State {
        compare: vec!["b200".into(), "h100-sxm".into(), "gb10".into()],
        ..State::default()
    };
    let hw = compute::hardware(&s).unwrap();
    let v = compute::model(&s, &hw).unwrap();
    let rows = compute::comparison(&s, &hw, &v);
    // The chosen H100 first, then B200 and GB10 (the H100 in the list is not repeated).
    let keys: Vec<&str> = rows.iter().map(|r| r.hardware.key.as_str()).collect();
    assert_eq!(keys, ["h100-sxm", "b200", "gb10"]);
    assert_eq!(rows[0].analysis, v.analysis);
    let json = model_json(&hw, &v, &rows);
    let cmp = json["comparison"].as_array().unwrap();
    assert_eq!(cmp.len(), 3);
    for (row, j) in rows.iter().zip(cmp) {
        assert_eq!(j["time_s"].as_f64(), Some(row.analysis.time.get()));
        assert_eq!(j["fits"].as_bool(), Some(row.analysis.memory.fits));
    }
    // Decode at batch 1 reads every weight once: B200's 7.7 TB/s beats H100's 3.35 TB/s by
    // their bandwidth ratio, to within the few compute-bound operators.
    let speedup = rows[0].analysis.time.get() / rows[1].analysis.time.get();
    assert!((speedup - 7.7 / 3.35).abs() < 0.05, "{speedup}");
    let md = model_markdown(&hw, &v, "x", &rows);
    assert!(md.contains("## Side by side"));
    assert!(md.contains("| NVIDIA B200 (HGX B200) |"), "{md}");
    assert_eq!(comparison_rows(&rows)[0][3], "1.00x");
}

#[test]
fn deployment_exports_carry_the_model_crates_figures_and_say_they_are_predictions() {
    let s = State {
        mode: Mode::Deploy,
        model: "llama-3-70b".into(),
        tp: "8".into(),
        concurrency: "16".into(),
        ..State::default()
    };
    let hw = compute::hardware(&s).unwrap();
    let v = compute::deployment(&s, &hw).unwrap();
    let p = compute::precision(&s).unwrap();
    let json = deploy_json(&hw, &v, &p);
    assert_eq!(json["kind"], PROVENANCE);
    // The model crate's record, as `rooflinr deploy --json` writes it.
    let d = &json["deployment"];
    assert_eq!(d["gpus"], 8);
    assert_eq!(d["layout"], "TP8 PP1 DP1");
    assert_eq!(d["tpot_s"], v.deployment.serving.tpot.get());
    assert_eq!(json["curve"].as_array().unwrap().len(), v.curve.len());
    assert_eq!(
        d["decode"]["communication"].as_array().unwrap().len(),
        v.deployment.decode.comms.len()
    );
    let csv_text = deploy_csv(&v);
    let lines: Vec<&str> = csv_text.lines().collect();
    assert_eq!(lines[0], SERVING_HEADER.join(","));
    assert_eq!(lines.len(), v.curve.len() + 1);
    let md = deploy_markdown(&hw, &v, "https://example.test/?v=1");
    assert!(
        md.contains(PROVENANCE) && md.contains("TP8 PP1 DP1"),
        "{md}"
    );
    assert!(md.contains("attention.all_reduce"));
    // The serving section: energy at the board power, and the engine's launch command for
    // the layout shown (the calculator's default engine, TensorRT-LLM).
    assert!(
        md.contains("\n## Energy and cost\n\n- energy per output token: "),
        "{md}"
    );
    let launch = &v.launch.as_ref().unwrap()[0];
    assert!(md.contains(&format!("```sh\n{}```", launch.shell)), "{md}");
    assert!(
        launch
            .shell
            .starts_with("trtllm-serve meta-llama/Meta-Llama-3-70B \\\n  --tp_size 8")
    );
}
