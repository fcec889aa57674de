//! The `rooflinr` binary end to end: the prototype's golden tables, stable JSON field names
//! (checked against the model crate's own answer), and errors that name the problem.

use std::path::PathBuf;
use std::process::{Command, Output};

use expect_test::expect_file;
use rooflinr_model::analysis::{self, AttentionKernel, Phase, Scenario};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::registry;
use rooflinr_model::ops::{Op, Precision};
use rooflinr_model::presets;
use rooflinr_model::roofline::Efficiency;
use serde_json::Value;

fn rooflinr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rooflinr"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = rooflinr(args);
    assert!(
        out.status.success(),
        "rooflinr {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).unwrap()
}

fn seed_hardware() -> String {
    let p: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "rooflinr-model",
        "test_data",
        "seed-placeholder.toml",
    ]
    .iter()
    .collect();
    p.to_str().unwrap().to_string()
}

#[test]
fn seed_001_decode_and_prefill_tables() {
    // The prototype's two tables: decode (GEMV) and prefill (2048-row GEMM) on its placeholder
    // hardware, every operand in the swept format as the prototype assumed.
    let hw = seed_hardware();
    let table = [
        ("1", expect_file!["golden/seed001-decode.txt"]),
        ("2048", expect_file!["golden/seed001-prefill.txt"]),
    ];
    for (m, golden) in table {
        let out = stdout(&[
            "sweep",
            "--m",
            m,
            "--n",
            "4096",
            "--k",
            "4096",
            "--uniform",
            "--hardware-file",
            &hw,
        ]);
        golden.assert_eq(&out);
    }
}

#[track_caller]
fn close(json: &Value, field: &str, expected: f64) {
    let got = json[field]
        .as_f64()
        .unwrap_or_else(|| panic!("field {field} missing in {json}"));
    assert!(
        (got - expected).abs() <= expected.abs() * 1e-12,
        "{field}: {got} != {expected}"
    );
}

#[test]
fn predict_json_matches_the_model() {
    let j = json(&[
        "predict",
        "gemm",
        "--m",
        "1",
        "--n",
        "4096",
        "--k",
        "4096",
        "--weights",
        "fp8-e4m3",
        "--activations",
        "fp16",
        "--hardware",
        "h100-sxm",
        "--json",
    ]);
    let hw = registry::get("h100-sxm").unwrap();
    let p = Precision {
        activations: Format::Fp16,
        weights: Format::Fp8E4m3,
        kv: Format::Fp16,
        output: Format::Fp16,
    };
    let r = Op::Gemm {
        m: 1.0,
        n: 4096.0,
        k: 4096.0,
        bias: false,
    }
    .predict(&p, &hw, &Efficiency::IDEAL);
    close(&j, "flops", r.cost.work.flops.get());
    close(&j, "bytes", r.cost.work.bytes.get());
    close(&j, "arithmetic_intensity", r.prediction.intensity.get());
    close(&j, "critical_intensity", r.prediction.ridge.get());
    close(&j, "time_s", r.prediction.time.get());
    assert_eq!(j["bound"], "memory");
    assert_eq!(j["kind"], "predicted");
    // FP8 weights with FP16 activations run as FP16.
    assert_eq!(j["executed_as"], "fp16");
}

#[test]
fn model_json_matches_the_model() {
    let j = json(&[
        "model",
        "--preset",
        "llama-3-8b",
        "--hardware",
        "gb10",
        "--phase",
        "decode",
        "--batch",
        "1",
        "--seq",
        "4096",
        "--weights",
        "nvfp4",
        "--activations",
        "fp16",
        "--kv",
        "fp8-e4m3",
        "--json",
    ]);
    let s = Scenario {
        phase: Phase::Decode,
        batch: 1,
        seq: 4096,
        precision: Precision {
            activations: Format::Fp16,
            weights: Format::NvFp4,
            kv: Format::Fp8E4m3,
            output: Format::Fp16,
        },
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: None,
    };
    let a = analysis::analyze(
        &presets::get("llama-3-8b").unwrap(),
        &registry::get("gb10").unwrap(),
        &s,
        &Efficiency::IDEAL,
    )
    .unwrap();
    close(&j, "params_total", a.params.total);
    close(&j, "params_active", a.params.active);
    close(&j, "weight_bytes", a.weight_bytes.get());
    close(&j, "kv_cache_bytes", a.kv_cache_bytes.get());
    close(&j, "time_s", a.time.get());
    close(&j, "tokens_per_s", a.tokens_per_s);
    let ops = j["ops"].as_array().unwrap();
    assert_eq!(ops.len(), a.ops.len());
    for (o, want) in ops.iter().zip(&a.ops) {
        assert_eq!(o["name"], want.name());
        close(o, "count", want.count);
        close(o, "flops", want.flops().get());
        close(o, "bytes", want.bytes().get());
        close(o, "time_s", want.time.get());
        assert_eq!(o["bound"], want.bound().name());
    }
}

#[test]
fn the_experts_can_run_formats_of_their_own() {
    // gpt-oss's checkpoint: MXFP4 experts, BF16 elsewhere.
    let args = |extra: &[&str]| {
        let mut a = vec![
            "model",
            "--preset",
            "gpt-oss-120b",
            "--hardware",
            "h200",
            "--json",
        ];
        a.extend_from_slice(extra);
        json(&a)
    };
    let checkpoint = args(&["--expert-weights", "mxfp4"]);
    let s = Scenario {
        phase: Phase::Decode,
        batch: 1,
        seq: 4096,
        precision: Precision::uniform(Format::Bf16),
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: Some(rooflinr_model::analysis::ExpertFormats {
            weights: Format::MxFp4,
            activations: Format::Bf16,
        }),
    };
    let a = analysis::analyze(
        &presets::get("gpt-oss-120b").unwrap(),
        &registry::get("h200").unwrap(),
        &s,
        &Efficiency::IDEAL,
    )
    .unwrap();
    close(&checkpoint, "weight_bytes", a.weight_bytes.get());
    let all_bf16 = args(&[]);
    assert!(
        checkpoint["weight_bytes"].as_f64().unwrap()
            < 0.3 * all_bf16["weight_bytes"].as_f64().unwrap()
    );
    let text = stdout(&[
        "model",
        "--preset",
        "gpt-oss-120b",
        "--hardware",
        "h200",
        "--expert-weights",
        "mxfp4",
    ]);
    assert!(text.contains("experts mxfp4 x bf16"), "{text}");
    check_error(
        &[
            "model",
            "--preset",
            "gpt-oss-120b",
            "--hardware",
            "h200",
            "--expert-activations",
            "mxfp8-e4m3",
        ],
        "--expert-weights",
    );
}

#[test]
fn model_from_a_config_file() {
    let dir = std::env::temp_dir().join(format!("rooflinr-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("config.json");
    std::fs::write(&good, presets::PRESETS[4].2).unwrap();
    let j = json(&[
        "model",
        "--config",
        good.to_str().unwrap(),
        "--phase",
        "prefill",
        "--seq",
        "512",
        "--json",
    ]);
    assert_eq!(j["model"], "Qwen/Qwen2.5-7B");
    assert_eq!(j["phase"], "prefill");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"model_type": "llama", "hidden_size": -3}"#).unwrap();
    let out = rooflinr(&["model", "--config", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("bad.json")
            && err.contains("field `hidden_size`: expected a whole number, got -3"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[track_caller]
fn check_error(args: &[&str], expected: &str) {
    let out = rooflinr(args);
    assert!(!out.status.success(), "rooflinr {args:?} should fail");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(expected),
        "{err:?} should contain {expected:?}"
    );
}

#[test]
fn bad_input_is_named() {
    check_error(
        &[
            "predict",
            "gemm",
            "--m",
            "1",
            "--n",
            "1",
            "--k",
            "1",
            "--weights",
            "fp7",
        ],
        "unknown format `fp7`",
    );
    check_error(
        &["predict", "gemm", "--m", "0", "--n", "1", "--k", "1"],
        "--m must be between 1 and 4294967296, got 0",
    );
    check_error(
        &[
            "predict",
            "gemm",
            "--m",
            "1",
            "--n",
            "1",
            "--k",
            "1",
            "--hardware",
            "tpu",
        ],
        "unknown hardware `tpu`",
    );
    check_error(
        &[
            "predict",
            "attention",
            "--kv-len",
            "10",
            "--heads",
            "32",
            "--kv-heads",
            "5",
        ],
        "--kv-heads (5) must divide --heads (32)",
    );
    check_error(
        &["model", "--preset", "gpt-9"],
        "invalid value 'gpt-9' for '--preset <PRESET>'",
    );
    check_error(
        &["model", "--preset", "llama-3-8b", "--batch", "0"],
        "field `batch`: must be at least 1",
    );
    check_error(
        &["model", "--preset", "llama-3-8b", "--config", "x.json"],
        "cannot be used with",
    );
    check_error(
        &["model", "--config", "/nonexistent/config.json"],
        "cannot read /nonexistent/config.json",
    );
    check_error(&["sweep", "--m", "1,x"], "`x` is not a whole number");
    check_error(
        &["sweep", "--m", "1", "--compute-efficiency", "1.5"],
        "--compute-efficiency must be in (0, 1], got 1.5",
    );
    check_error(
        &["hardware", "--hardware-file", "/nonexistent.toml"],
        "cannot read hardware file /nonexistent.toml",
    );
}

#[test]
fn formats_and_hardware_listings() {
    let formats = json(&["formats", "--json"]);
    let names: Vec<&str> = formats
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = Format::CATALOGUE.iter().map(|f| f.name()).collect();
    assert_eq!(names, expected);
    let nvfp4 = formats
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "nvfp4")
        .unwrap();
    assert_eq!(nvfp4["bits_per_element"], 4.5);
    let hardware = json(&["hardware", "--json"]);
    assert_eq!(hardware.as_array().unwrap().len(), registry::keys().len());
    let h100 = json(&["hardware", "h100-sxm", "--json"]);
    assert_eq!(h100["memory_bandwidth_gb_s"]["value"], 3350.0);
    assert_eq!(h100["memory_bandwidth_gb_s"]["basis"], "datasheet");
    assert!(
        stdout(&["hardware", "gb10"])
            .contains("FP4 dense / 2, the Blackwell ratio; unverified for GB10")
    );
    assert!(stdout(&["formats"]).contains("| nvfp4 "));
    // A partner system's name shows the chip it is built on; the GH200's second memory
    // is listed with its own bandwidth and said not to count in the capacity.
    let ascent = json(&["hardware", "asus-ascent-gx10", "--json"]);
    assert_eq!(ascent["key"], "gb10");
    assert_eq!(ascent["class"], "workstation");
    let gh200 = json(&["hardware", "gh200", "--json"]);
    assert_eq!(gh200["second_memory"]["bandwidth_gb_s"]["value"], 512.0);
    assert_eq!(gh200["vendor"], "NVIDIA");
    let printed = stdout(&["hardware", "gh200"]);
    assert!(printed.contains("second memory"), "{printed}");
    assert!(printed.contains("the roofline counts only it"), "{printed}");
}

#[test]
fn quantize_values_through_scalar_and_block_formats() {
    use rooflinr_model::quant::{Codec, Overflow, Scalar};
    let values = [1.5f32, -0.3, 470.0, 0.1, 1e-3];
    let list = "1.5,-0.3,470,0.1,1e-3";
    // JSON has no NaN (serde writes null); numbers are read back as the f32 they print.
    let as_f32 = |v: &Value| -> Vec<Option<f32>> {
        let array = v.as_array().expect("an array");
        array.iter().map(|x| x.as_f64().map(|f| f as f32)).collect()
    };
    for name in [
        "fp8-e4m3", "fp8-e5m2", "fp6-e3m2", "fp6-e2m3", "fp4-e2m1", "bf16", "fp16",
    ] {
        let out = json(&["quantize", "--format", name, "--values", list, "--json"]);
        let scalar: Scalar = name.parse().unwrap();
        let expected: Vec<Option<f32>> = values
            .iter()
            .map(|v| Some(scalar.round(*v, Overflow::Cast)).filter(|q| !q.is_nan()))
            .collect();
        assert_eq!(as_f32(&out["dequantized"]), expected, "{name}");
    }
    for name in ["nvfp4", "mxfp4", "nf4", "int4-g128-fp16-zp"] {
        let out = json(&["quantize", "--format", name, "--values", list, "--json"]);
        let expected = name
            .parse::<Codec>()
            .unwrap()
            .round_trip(&values, values.len())
            .unwrap();
        let expected: Vec<Option<f32>> = expected.into_iter().map(Some).collect();
        assert_eq!(as_f32(&out["dequantized"]), expected, "{name}");
    }
}

#[test]
fn quantize_measures_a_safetensors_tensor() {
    use rooflinr_model::quant::Codec;
    use rooflinr_model::quant::quality::{ErrorStats, Synthetic};
    let values = Synthetic::HeavyTailed.generate(4, 256, 9);
    let mut data = Vec::new();
    values.iter().for_each(|v| data.extend(v.to_le_bytes()));
    let header = r#"{"model.layers.0.mlp.up_proj.weight":{"dtype":"F32","shape":[4,256],"data_offsets":[0,4096]}}"#;
    let mut file = (header.len() as u64).to_le_bytes().to_vec();
    file.extend(header.as_bytes());
    file.extend(&data);
    let dir = std::env::temp_dir().join(format!("rooflinr-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.safetensors");
    std::fs::write(&path, file).unwrap();
    let path = path.to_str().unwrap();
    let out = json(&[
        "quantize",
        "--safetensors",
        path,
        "--tensor",
        "model.layers.0.mlp.up_proj.weight",
        "--formats",
        "nvfp4,mxfp4,fp32",
        "--json",
    ]);
    assert_eq!(out["shape"], serde_json::json!([4, 256]));
    for (i, name) in ["nvfp4", "mxfp4"].iter().enumerate() {
        let q = name
            .parse::<Codec>()
            .unwrap()
            .round_trip(&values, 256)
            .unwrap();
        let e = ErrorStats::between(&values, &q);
        let row = &out["formats"][i];
        assert_eq!(row["format"], *name);
        close(row, "sqnr_db", e.sqnr_db);
        close(row, "mse", e.mse);
    }
    assert_eq!(out["formats"][2]["sqnr_db"], Value::Null, "fp32 is exact");
    check_error(
        &[
            "quantize",
            "--safetensors",
            path,
            "--tensor",
            "lm_head.weight",
        ],
        "no tensor `lm_head.weight` in the file; it has model.layers.0.mlp.up_proj.weight",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn report_writes_markdown_svg_and_png_from_a_kernel_csv() {
    let dir = std::env::temp_dir().join(format!("rooflinr-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("all_kernels.csv");
    std::fs::write(
        &input,
        "kernel,op,flops,bytes,time_us,phase,format\ncutlass_scaled_fp4_mm,q_b_proj,9.7e9,26.1e6,4.0,prefill,nvfp4\nrmsnorm,layernorm,35840,28672,3.0,decode,fp16\n",
    )
    .unwrap();
    let path = input.to_str().unwrap();
    // The CSV does not name its device: the command says how to.
    let out = rooflinr(&["report", "--input", path]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("pass --hardware KEY"));

    let printed = stdout(&["report", "--input", path, "--hardware", "b200"]);
    assert!(printed.contains("all_kernels-report.md"), "{printed}");
    let md = std::fs::read_to_string(dir.join("all_kernels-report.md")).unwrap();
    assert!(md.starts_with("# NVIDIA B200"));
    assert!(
        md.contains("| `rmsnorm` | layernorm | decode | FP16 | 1.25 | Memory |"),
        "{md}"
    );
    assert!(md.contains("![Roofline chart](all_kernels-report.svg)"));
    let svg = std::fs::read_to_string(dir.join("all_kernels-report.svg")).unwrap();
    // Each point names its kernel and operator in its tooltip.
    assert!(svg.starts_with("<svg") && svg.contains("(q_b_proj)"));
    let png = std::fs::read(dir.join("all_kernels-report.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() > 10_000, "a 2000x1240 chart, not an empty image");
    // --output into folders that do not exist yet: they are made.
    let nested = dir.join("new/deeper/gemv");
    stdout(&[
        "report",
        "--input",
        path,
        "--hardware",
        "b200",
        "--output",
        nested.to_str().unwrap(),
    ]);
    assert!(dir.join("new/deeper/gemv.md").is_file());

    // A broken file is refused with its line and column.
    std::fs::write(&input, "kernel,flops,bytes,time_us\na,1,2,soon\n").unwrap();
    let out = rooflinr(&["report", "--input", path, "--hardware", "b200"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2, column `time_us`: `soon` is not a number"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn calibrated_predictions_keep_the_bound_and_say_where_they_come_from() {
    let base = [
        "predict",
        "gemm",
        "--m",
        "1",
        "--n",
        "8192",
        "--k",
        "8192",
        "--hardware",
        "h100-sxm",
        "--precision",
        "bf16",
        "--json",
    ];
    let bound = json(&base);
    assert_eq!(bound["time_s"], bound["datasheet_time_s"]);
    assert!(bound["calibration"].is_null());
    let calibrated = json(&[&base[..], &["--calibrated"]].concat());
    let (t, d) = (
        calibrated["time_s"].as_f64().unwrap(),
        calibrated["datasheet_time_s"].as_f64().unwrap(),
    );
    assert_eq!(d, bound["time_s"].as_f64().unwrap());
    // The shipped H100 BF16 terms: a fixed time, under 100 % of the bandwidth, and the
    // two dependent steps of a split K (64 output tiles on 132 SMs over K = 8,192:
    // `kernel_time::reduces_partial_sums`).
    let terms = rooflinr_model::kernel_time::profile(
        "h100-sxm",
        rooflinr_model::kernel_time::Framework::TensorRtLlm,
        rooflinr_model::kernel_time::Profiled::Gemm {
            format: rooflinr_model::format::Format::Bf16,
        },
    )
    .unwrap()
    .terms;
    let expected = terms.fixed_s + 2.0 * terms.per_wave_s + d / terms.bandwidth;
    // The compute term (a few hundredths of the memory term at M = 1, padded fragments
    // and all) adds under a thousandth of the time through the terms' overlap exponent
    // (at least 2: the square root of the sum of squares, or closer to the larger).
    assert!(terms.overlap >= 2.0);
    assert!(t >= expected, "{t} vs {expected}");
    assert!(t / expected - 1.0 < 1e-3, "{t} vs {expected}");
    assert!(
        calibrated["calibration"]
            .as_str()
            .unwrap()
            .contains("aiconfigurator-core 0.12.0")
    );
    // No profile: the bound, and the reason.
    let none = json(&[
        "predict",
        "rmsnorm",
        "--tokens",
        "8",
        "--dim",
        "4096",
        "--hardware",
        "h100-sxm",
        "--json",
        "--calibrated",
    ]);
    assert_eq!(none["time_s"], none["datasheet_time_s"]);
    assert!(
        none["calibration"]
            .as_str()
            .unwrap()
            .starts_with("none: kernel terms are fitted for GEMMs (")
    );
}

#[test]
fn a_gemm_on_activations_already_quantised_runs_no_quantisation_pass() {
    use rooflinr_model::format::Format;
    use rooflinr_model::kernel_time::{
        Framework, Profiled, activation_quantisation_bytes, profile,
    };
    let gemm = |precision: &str, flag: &[&str]| {
        let args = [
            &[
                "predict",
                "gemm",
                "--m",
                "8192",
                "--n",
                "8192",
                "--k",
                "8192",
                "--hardware",
                "h200",
                "--precision",
                precision,
                "--json",
                "--calibrated",
            ][..],
            flag,
        ]
        .concat();
        json(&args)
    };
    let layer = gemm("fp8-e4m3", &[]);
    let alone = gemm("fp8-e4m3", &["--activations-in-format"]);
    assert_eq!(layer["datasheet_time_s"], alone["datasheet_time_s"]);
    // The difference is the pass: 8192 x 8192 BF16 activations read and written in FP8,
    // at the rate TensorRT-LLM's H200 FP8 profile fitted for it.
    let terms = profile(
        "h200",
        Framework::TensorRtLlm,
        Profiled::Gemm {
            format: Format::Fp8E4m3,
        },
    )
    .unwrap()
    .terms;
    let fraction = terms.quantise_bandwidth.expect("a pass rate of its own");
    let bandwidth = rooflinr_model::hardware::registry::get("h200")
        .unwrap()
        .memory_bandwidth
        .value
        .get();
    let pass = activation_quantisation_bytes(8192, 8192, Format::Fp8E4m3) / (bandwidth * fraction);
    let saved = layer["time_s"].as_f64().unwrap() - alone["time_s"].as_f64().unwrap();
    assert!((saved / pass - 1.0).abs() < 1e-9, "{saved} vs {pass}");
    assert!(
        alone["calibration"]
            .as_str()
            .unwrap()
            .ends_with("activations already in fp8-e4m3: no quantisation pass"),
        "{alone}"
    );
    // 16-bit activations have no pass to leave out.
    let bf16 = gemm("bf16", &[]);
    let bf16_alone = gemm("bf16", &["--activations-in-format"]);
    assert_eq!(bf16["time_s"], bf16_alone["time_s"]);
    assert_eq!(bf16["calibration"], bf16_alone["calibration"]);
    // The flag only means something calibrated.
    check_error(
        &[
            "predict",
            "gemm",
            "--m",
            "1",
            "--n",
            "8",
            "--k",
            "8",
            "--hardware",
            "h200",
            "--activations-in-format",
        ],
        "--calibrated",
    );
}

#[test]
fn a_model_with_activations_in_format_counts_no_quantisation_pass() {
    use rooflinr_model::kernel_time::{Activations, Framework, calibrated_pass_with};
    // Llama-3-8B prefill in FP8 on the H100, the model crate's calibrated pass either way.
    let model = |format: &str, flag: &[&str]| {
        let args = [
            &[
                "model",
                "--preset",
                "llama-3-8b",
                "--hardware",
                "h100-sxm",
                "--phase",
                "prefill",
                "--seq",
                "4096",
                "--weights",
                format,
                "--activations",
                format,
                "--calibrated",
                "--json",
            ][..],
            flag,
        ]
        .concat();
        json(&args)
    };
    let first = model("fp8-e4m3", &[]);
    let fused = model("fp8-e4m3", &["--activations-in-format"]);
    assert_eq!(first["datasheet_time_s"], fused["datasheet_time_s"]);
    let hw = registry::get("h100-sxm").unwrap();
    let scenario = Scenario {
        phase: Phase::Prefill,
        batch: 1,
        seq: 4096,
        precision: Precision::uniform(Format::Fp8E4m3),
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: None,
    };
    let config = presets::get("llama-3-8b").unwrap();
    let a = analysis::analyze(&config, &hw, &scenario, &Efficiency::IDEAL).unwrap();
    for (json, activations) in [
        (&first, Activations::QuantisedFirst),
        (&fused, Activations::InFormat),
    ] {
        let pass = calibrated_pass_with(&a.ops, &hw, Framework::TensorRtLlm, activations);
        let time = json["time_s"].as_f64().unwrap();
        assert!(
            (time / pass.time_s - 1.0).abs() < 1e-12,
            "{time} vs {pass:?}"
        );
    }
    assert!(fused["time_s"].as_f64() < first["time_s"].as_f64());
    assert!(
        fused["calibration"]
            .as_str()
            .unwrap()
            .ends_with("activations already in fp8-e4m3: no quantisation pass"),
        "{fused}"
    );
    // BF16 has no pass to leave out, and the flag only means something calibrated.
    assert_eq!(
        model("bf16", &[])["time_s"],
        model("bf16", &["--activations-in-format"])["time_s"]
    );
    check_error(
        &[
            "model",
            "--preset",
            "llama-3-8b",
            "--hardware",
            "h100-sxm",
            "--activations-in-format",
        ],
        "--calibrated",
    );
}

#[test]
fn each_framework_is_calibrated_by_its_own_kernels_profile() {
    use rooflinr_model::kernel_time::{Framework, Profiled, profile};
    // A B200 FP8 GEMV: TensorRT-LLM's FP8 path carries a fixed time several kernels long,
    // SGLang's does not; each framework's expected time is its own profile's.
    let base = [
        "predict",
        "gemm",
        "--m",
        "8",
        "--n",
        "4096",
        "--k",
        "4096",
        "--hardware",
        "b200",
        "--precision",
        "fp8-e4m3",
        "--json",
        "--calibrated",
    ];
    let gemm = Profiled::Gemm {
        format: rooflinr_model::format::Format::Fp8E4m3,
    };
    let mut times = Vec::new();
    for framework in [Framework::TensorRtLlm, Framework::Sglang] {
        let out = json(&[&base[..], &["--framework", framework.key()]].concat());
        let t = out["time_s"].as_f64().unwrap();
        assert!(t > out["datasheet_time_s"].as_f64().unwrap());
        assert!(
            out["calibration"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{} kernels", framework.name())),
            "{out}"
        );
        let terms = profile("b200", framework, gemm).unwrap().terms;
        assert!(t > terms.fixed_s, "{t} vs {terms:?}");
        times.push((t, terms.fixed_s));
    }
    assert!(times[1].1 < times[0].1, "{times:?}");
    assert!(times[1].0 < times[0].0, "{times:?}");
    // An unknown framework is named, with the choices.
    let out = rooflinr(&[&base[..], &["--framework", "tgi"]].concat());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown framework \"tgi\": trtllm, vllm or sglang"),
        "{err}"
    );
}

#[test]
fn decode_attention_is_calibrated_by_its_own_profile() {
    let args = [
        "predict",
        "attention",
        "--batch",
        "8",
        "--kv-len",
        "8192",
        "--heads",
        "32",
        "--kv-heads",
        "8",
        "--hardware",
        "h100-sxm",
        "--precision",
        "bf16",
        "--kv",
        "fp8-e4m3",
        "--json",
        "--calibrated",
    ];
    let v = json(&args);
    let (t, d) = (
        v["time_s"].as_f64().unwrap(),
        v["datasheet_time_s"].as_f64().unwrap(),
    );
    assert!(t > d, "{t} vs {d}");
    let said = v["calibration"].as_str().unwrap();
    assert!(
        said.contains("attention and MoE shapes") && said.contains("held-out median"),
        "{said}"
    );
    // The FP16 cache has no profile on this device: the bound, and which profiles exist.
    let fp16 = json(
        &[
            &args[..13],
            &["fp16", "--kv", "fp16", "--json", "--calibrated"],
        ]
        .concat(),
    );
    assert_eq!(fp16["time_s"], fp16["datasheet_time_s"]);
    let said = fp16["calibration"].as_str().unwrap();
    assert!(
        said.starts_with("none for decode attention fp16, KV fp16 on h100-sxm")
            && said.contains("decode attention bf16, KV fp8-e4m3"),
        "{said}"
    );
    // Past 32 query heads per KV head TensorRT-LLM runs another kernel, a block per query
    // head, reading the cache once per query head: the note names it, and the expected
    // time is far over the bound (which reads the cache once); vLLM's kernel keeps the
    // group in one block.
    let wide = |framework: &str| {
        let mut a = args.to_vec();
        a[7] = "64";
        a[9] = "1";
        json(&[&a[..], &["--framework", framework]].concat())
    };
    let per_head = wide("trtllm");
    let said = per_head["calibration"].as_str().unwrap();
    assert!(
        said.starts_with(
            "TensorRT-LLM kernels (decode attention bf16, KV fp8-e4m3, a block per query head)"
        ),
        "{said}"
    );
    assert!(
        per_head["time_s"].as_f64().unwrap()
            > 10.0 * per_head["datasheet_time_s"].as_f64().unwrap()
    );
    let vllm = wide("vllm");
    assert!(
        !vllm["calibration"]
            .as_str()
            .unwrap()
            .contains("a block per query head"),
        "{vllm}"
    );
}

#[test]
fn a_calibrated_model_pass_keeps_the_bound_beside_the_expected_time() {
    let args = [
        "model",
        "--preset",
        "llama-3-8b",
        "--hardware",
        "h100-sxm",
        "--phase",
        "decode",
        "--batch",
        "1",
        "--seq",
        "4096",
        "--json",
    ];
    let bound = json(&args);
    assert_eq!(bound["time_s"], bound["datasheet_time_s"]);
    assert!(bound["calibration"].is_null());
    let calibrated = json(&[&args[..], &["--calibrated"]].concat());
    let (t, d) = (
        calibrated["time_s"].as_f64().unwrap(),
        calibrated["datasheet_time_s"].as_f64().unwrap(),
    );
    assert_eq!(d, bound["time_s"].as_f64().unwrap());
    assert!(t > d, "{t} vs {d}");
    // Tokens per pass are unchanged: one token per sequence in decode.
    let tokens = calibrated["tokens_per_s"].as_f64().unwrap() * t;
    assert!((tokens - 1.0).abs() < 1e-9, "{tokens}");
    let said = calibrated["calibration"].as_str().unwrap();
    assert!(
        said.contains("of 16 operators") && said.contains("with a profile on h100-sxm"),
        "{said}"
    );
}

#[test]
fn a_model_compares_side_by_side_on_several_devices() {
    let args = [
        "model",
        "--preset",
        "llama-3-70b",
        "--hardware",
        "h100-sxm,h200,b200,gb10",
        "--phase",
        "decode",
        "--batch",
        "8",
        "--seq",
        "4096",
        "--weights",
        "fp8",
        "--activations",
        "fp8",
    ];
    let all = json(&[&args[..], &["--json"]].concat());
    let rows = all.as_array().expect("one analysis per device");
    let keys: Vec<&str> = rows
        .iter()
        .map(|r| r["hardware"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["h100-sxm", "h200", "b200", "gb10"]);
    // Each row is the single-device analysis of that device.
    let single = json(&[&args[..3], &["--hardware", "h200"], &args[5..], &["--json"]].concat());
    assert_eq!(rows[1]["time_s"], single["time_s"]);
    // Decode is memory-bound: more bandwidth, less time.
    let t = |i: usize| rows[i]["time_s"].as_f64().unwrap();
    assert!(t(2) < t(1) && t(1) < t(0) && t(0) < t(3));
    let table = stdout(&args);
    assert!(
        table.contains("| NVIDIA GB10 (DGX Spark)") && table.contains("memory-bound"),
        "{table}"
    );
    // Seven devices is too many; an unknown one is named.
    let out = rooflinr(&[
        "model",
        "--preset",
        "llama-3-8b",
        "--hardware",
        "a,b,c,d,e,f,g",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 to 6 devices"));
    let out = rooflinr(&[
        "model",
        "--preset",
        "llama-3-8b",
        "--hardware",
        "h100-sxm,nope",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope"));
}

#[test]
fn deploy_json_matches_the_model_and_searches() {
    use rooflinr_model::deploy::{self, DeployOptions, Layout, Workload};
    let args = [
        "deploy",
        "--preset",
        "llama-3-70b",
        "--hardware",
        "h100-sxm",
        "--weights",
        "fp8",
        "--tp",
        "4",
        "--pp",
        "2",
        "--prompt",
        "1000",
        "--output",
        "200",
        "--concurrency",
        "48",
        "--json",
    ];
    let v = json(&args);
    let d = &v["deployment"];
    assert_eq!(d["layout"], "TP4 PP2 DP1");
    assert_eq!(d["gpus"], 8);
    let scenario = Scenario {
        phase: Phase::Decode,
        batch: 1,
        seq: 1,
        precision: Precision {
            weights: Format::Fp8E4m3,
            ..Precision::uniform(Format::Bf16)
        },
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: None,
    };
    let expected = deploy::evaluate(
        &presets::get("llama-3-70b").unwrap(),
        &registry::get("h100-sxm").unwrap(),
        &scenario,
        &Efficiency::IDEAL,
        Layout {
            tensor: 4,
            pipeline: 2,
            data: 1,
            expert: 1,
        },
        Workload {
            prompt: 1000,
            output: 200,
            concurrency: 48,
        },
        &DeployOptions::in_flight(
            rooflinr_model::kernel_time::Framework::TensorRtLlm,
            &registry::get("h100-sxm").unwrap(),
        ),
    )
    .unwrap();
    // The default: in-flight batching under TensorRT-LLM's scheduler, steady state.
    assert_eq!(d["batching"], "in-flight");
    assert_eq!(d["in_flight"]["policy"], "mixed");
    close(d, "ttft_s", expected.serving.ttft.get());
    close(d, "tpot_s", expected.serving.tpot.get());
    close(
        d,
        "tokens_per_s_per_gpu",
        expected.serving.tokens_per_s_per_gpu,
    );
    close(d, "weights_per_gpu_bytes", expected.memory.weights.get());
    let comms = d["decode"]["communication"].as_array().unwrap();
    let names: Vec<&str> = comms.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "attention.all_reduce",
            "mlp.all_reduce",
            "logits.all_gather",
            "pipeline.send"
        ]
    );
    assert!(v["kind"].as_str().unwrap().contains("not measured"));
    assert!(!v["curve"].as_array().unwrap().is_empty());
    // Static batching, by name: the whole batch's prefill is the first token.
    let mut static_args = args.to_vec();
    static_args.extend(["--batching", "static"]);
    let st = json(&static_args);
    assert_eq!(st["deployment"]["batching"], "static");
    assert!(st["deployment"]["in_flight"].is_null());
    close(
        &st["deployment"],
        "ttft_s",
        st["deployment"]["prefill"]["time_s"].as_f64().unwrap(),
    );
    assert!(st["deployment"]["ttft_s"].as_f64().unwrap() > d["ttft_s"].as_f64().unwrap());

    let s = json(&[
        "deploy",
        "--preset",
        "mixtral-8x7b",
        "--hardware",
        "b200",
        "--weights",
        "fp8,nvfp4",
        "--search",
        "--max-gpus",
        "8",
        "--min-user-speed",
        "30",
        "--json",
    ]);
    let candidates = s["candidates"].as_array().unwrap();
    assert!(candidates[0]["loss"].is_null());
    assert!(
        candidates[0]["best"]["tokens_per_s_per_user"]
            .as_f64()
            .unwrap()
            >= 30.0
    );
    assert!(candidates[1..].iter().all(|c| c["loss"].is_string()));
    assert!(candidates.iter().any(|c| c["weights"] == "nvfp4"));
    assert!(!s["pareto"].as_array().unwrap().is_empty());
}

#[test]
fn deploy_errors_name_the_problem() {
    check_error(
        &["deploy", "--preset", "llama-3-8b", "--tp", "3"],
        "does not divide the model's 32 query heads",
    );
    check_error(
        &[
            "deploy",
            "--preset",
            "llama-3-8b",
            "--hardware",
            "m4-max",
            "--tp",
            "2",
        ],
        "no published interconnect",
    );
    check_error(
        &["deploy", "--preset", "llama-3-8b", "--dp", "2", "--ep"],
        "has no experts",
    );
    check_error(
        &[
            "deploy",
            "--preset",
            "deepseek-v3",
            "--tp",
            "8",
            "--ep",
            "3",
        ],
        "EP3 does not divide a stage's TP x DP = 8 GPUs",
    );
    check_error(
        &["deploy", "--preset", "llama-3-8b", "--weights", "fp8,bf16"],
        "one format unless --search",
    );
    check_error(
        &["deploy", "--preset", "llama-3-8b", "--link=0", "--tp", "2"],
        "--link must be a positive",
    );
    check_error(
        &[
            "deploy",
            "--preset",
            "llama-3-8b",
            "--framework",
            "vllm",
            "--recv-interval",
            "10",
        ],
        "`recv_interval`",
    );
    check_error(
        &[
            "deploy",
            "--preset",
            "llama-3-8b",
            "--framework",
            "sglang",
            "--adp-balance",
            "60",
        ],
        "`adp_balance`",
    );
}

#[test]
fn deploy_says_how_new_requests_get_in() {
    let base = [
        "deploy",
        "--preset",
        "llama-3-8b",
        "--hardware",
        "h100-sxm",
        "--concurrency",
        "32",
    ];
    let ttft = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let v = json(&[args.as_slice(), &["--json"]].concat());
        v["deployment"]["ttft_s"].as_f64().unwrap()
    };
    let sglang = ttft(&["--framework", "sglang"]);
    assert!(ttft(&["--framework", "sglang", "--recv-interval", "30"]) > sglang);
    let out = stdout(
        &[
            base.as_slice(),
            &["--framework", "sglang", "--recv-interval", "30"],
        ]
        .concat(),
    );
    assert!(
        out.contains("new requests read every 30 decode steps"),
        "{out}"
    );
    let out = stdout(&[base.as_slice(), &["--dp", "2", "--adp-balance", "60"]].concat());
    assert!(out.contains("at most 60 steps"), "{out}");
}

/// A reader that stops early (`| head`) ends the output without a panic report.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rooflinr"))
        .args([
            "deploy",
            "--preset",
            "deepseek-v3",
            "--hardware",
            "h200",
            "--weights",
            "fp8",
            "--search",
            "--max-gpus",
            "72",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read a little (the output is megabytes, far beyond the pipe's buffer), then close it.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?} {err}", out.status);
}

/// `predict moe`: one fused MoE layer on one GPU of an expert-parallel group, its bound the
/// model crate's MoE times under a uniform router, and with `--calibrated` the shipped MoE
/// profile's expected time; shapes no GPU can hold are named.
#[test]
fn a_moe_layer_is_predicted_whole_and_calibrated_by_its_profile() {
    use rooflinr_model::kernel_time::{Activations, Framework, FusedMoe, MoeShape, MoeTiling};
    let args = [
        "predict",
        "moe",
        "--tokens",
        "64",
        "--hidden",
        "7168",
        "--intermediate",
        "2048",
        "--experts",
        "256",
        "--top-k",
        "8",
        "--ep",
        "8",
        "--hardware",
        "b200",
        "--precision",
        "nvfp4",
        "--json",
    ];
    let hw = registry::get("b200").unwrap();
    let layer = FusedMoe::uniform(
        MoeShape {
            tokens: 64.0,
            hidden: 7168.0,
            intermediate: 2048.0,
            top_k: 8.0,
            experts: 256.0,
            expert_parallel: 8.0,
            gated: true,
        },
        Precision::uniform(Format::NvFp4),
    );
    let times = layer.times(&hw, MoeTiling::Copies);
    let bound = json(&args);
    assert_eq!(bound["op"], "moe");
    assert_eq!(bound["copies_per_gpu"].as_f64(), Some(64.0));
    let datasheet = bound["datasheet_time_s"].as_f64().unwrap();
    assert_eq!(datasheet, times.bound_s());
    assert_eq!(bound["time_s"].as_f64(), Some(datasheet));
    assert!(bound["calibration"].is_null());
    // The experts' weights dominate at 64 tokens: 64 copies touch about 28 of 32 local
    // experts, each 3 x 7168 x 2048 NVFP4 weights (4.5 bits each).
    let weights = layer.load.experts_touched * 3.0 * 7168.0 * 2048.0 * 4.5 / 8.0;
    let weights_s = weights / hw.memory_bandwidth.value.get();
    assert!(
        datasheet > weights_s && datasheet < 1.1 * weights_s,
        "{datasheet} vs {weights_s}"
    );
    let calibrated = json(&[&args[..], &["--calibrated"]].concat());
    let (expected, profile) = layer
        .calibrated(&hw, Framework::TensorRtLlm, Activations::QuantisedFirst)
        .unwrap();
    assert_eq!(calibrated["time_s"].as_f64(), Some(expected));
    assert!(expected > datasheet);
    let said = calibrated["calibration"].as_str().unwrap();
    assert!(said.contains(&profile.kernel.name()), "{said}");
    // Experts that do not divide over the GPUs, and more choices than experts.
    for (flag, value, error) in [
        ("--ep", "3", "--ep (3) must divide --experts (256)"),
        (
            "--top-k",
            "300",
            "--top-k (300) cannot exceed --experts (256)",
        ),
    ] {
        let mut bad = args.to_vec();
        let at = bad.iter().position(|a| *a == flag).unwrap();
        bad[at + 1] = value;
        let out = rooflinr(&bad);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(error), "{err}");
    }
}

/// `predict moe --calibrated` under a profile whose kernel pads each expert's copies to
/// whole tiles (SGLang's Triton fused MoE on L40S) says so, and steps where the kernel's
/// tile does: 16 rows while the tokens are at most the experts, 64 past them.
#[test]
fn a_calibrated_moe_layer_names_the_tiles_its_kernel_pads_to() {
    let layer = |tokens: &str| {
        json(&[
            "predict",
            "moe",
            "--tokens",
            tokens,
            "--hidden",
            "2880",
            "--intermediate",
            "2880",
            "--experts",
            "32",
            "--top-k",
            "4",
            "--hardware",
            "l40s",
            "--weights",
            "mxfp4",
            "--activations",
            "bf16",
            "--calibrated",
            "--framework",
            "sglang",
            "--json",
        ])
    };
    let (at_32, at_48) = (layer("32"), layer("48"));
    let note = |v: &Value| v["calibration"].as_str().unwrap().to_string();
    assert!(
        note(&at_32).contains("whole tiles of 16 token rows"),
        "{}",
        note(&at_32)
    );
    assert!(
        note(&at_48).contains("whole tiles of 64 token rows"),
        "{}",
        note(&at_48)
    );
    // Every expert is touched at both; the step is the padded tile's compute (NVIDIA's
    // table: 2.36 and 3.41 ms).
    let time = |v: &Value| v["time_s"].as_f64().unwrap();
    assert!(
        time(&at_48) > 1.3 * time(&at_32),
        "{} {}",
        time(&at_32),
        time(&at_48)
    );
    assert!(time(&at_48) < 1.3 * 3.41e-3 && time(&at_32) > 2.36e-3 / 1.3);
}

/// `--ep N` below the stage's GPUs is MoE TP x EP: experts over N groups, each expert's
/// columns split over the rest; `--ep` alone places whole experts.
#[test]
fn deploy_reads_mixed_moe_tensor_and_expert_parallelism() {
    let layout = |ep: &[&str]| {
        let mut args = vec![
            "deploy",
            "--preset",
            "deepseek-v3",
            "--hardware",
            "b200",
            "--weights",
            "fp8",
            "--tp",
            "8",
            "--json",
        ];
        args.extend_from_slice(ep);
        let v = json(&args);
        (
            v["deployment"]["layout"].as_str().unwrap().to_string(),
            v["deployment"]["ep"].as_u64().unwrap(),
        )
    };
    assert_eq!(
        layout(&["--ep", "4"]),
        ("TP8 PP1 DP1 EP4 MoE-TP2".into(), 4)
    );
    assert_eq!(layout(&["--ep"]), ("TP8 PP1 DP1 EP8".into(), 8));
    assert_eq!(layout(&[]), ("TP8 PP1 DP1".into(), 1));
}

/// A result file of `crates/rooflinr-report/testdata/serving-runs/`.
fn serving_run(name: &str) -> String {
    let p: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "rooflinr-report",
        "testdata",
        "serving-runs",
        name,
    ]
    .iter()
    .collect();
    p.to_str().unwrap().to_string()
}

#[test]
fn deploy_measured_simulates_each_run_as_its_file_says() {
    // vLLM's run of Qwen3-32B on H200, TP4 x DP2, 100 clients, 4,096 in and 128 out: the
    // simulation of `--measured` is `--benchmark`'s for the workload the file gives.
    let layout = [
        "deploy",
        "--preset",
        "qwen3-32b",
        "--hardware",
        "h200",
        "--tp",
        "4",
        "--dp",
        "2",
        "--framework",
        "vllm",
        "--calibrated",
    ];
    let file = serving_run("vllm-bench-serve_h200x8_qwen3-32b_tp4-dp2_c100.json");
    let measured = json(&[&layout[..], &["--measured", &file, "--json"]].concat());
    assert_eq!(measured["client"], "vllm bench serve");
    assert_eq!(measured["file_model"], "Qwen/Qwen3-32B");
    assert_eq!(measured["layout"], "TP4 PP1 DP2");
    let run = &measured["runs"][0];
    assert_eq!(run["load"], "100 clients");
    assert_eq!(run["requests"], 100);
    assert_eq!(run["measured_ttft_statistic"], "mean");
    // The file's milliseconds in seconds (to the last bit serde_json's reader keeps).
    let seconds = |v: &Value, ms: f64| (v.as_f64().unwrap() / (ms / 1e3) - 1.0).abs() < 1e-12;
    assert!(
        seconds(&run["measured_ttft_s"], 2536.9435972347856),
        "{run}"
    );
    assert!(
        seconds(&run["measured_tpot_s"], 26.352361489937998),
        "{run}"
    );
    let bench = json(
        &[
            &layout[..],
            &[
                "--benchmark",
                "100",
                "--concurrency",
                "100",
                "--prompt",
                "4096",
                "--output",
                "128",
                "--json",
            ],
        ]
        .concat(),
    );
    let b = &bench["benchmark"];
    assert_eq!(run["predicted_ttft_s"], b["ttft_mean_s"]);
    assert_eq!(run["predicted_tpot_s"], b["tpot_mean_s"]);
    assert_eq!(
        run["predicted_output_tokens_per_s"],
        b["output_tokens_per_s"]
    );

    // The table says each figure's kind and error.
    let table = stdout(&[&layout[..], &["--measured", &file]].concat());
    assert!(
        table.contains("written by vllm bench serve, model Qwen/Qwen3-32B"),
        "{table}"
    );
    assert!(table.contains("2.54 s mean"), "{table}");
    assert!(table.contains("how far to trust the prediction"), "{table}");
}

#[test]
fn deploy_measured_compares_a_median_with_the_simulated_median() {
    // SGLang's reduced lines give the median TTFT of Poisson arrivals, lengths uniform in
    // [1, 1,024] (`random_range_ratio` 0).
    let base = [
        "deploy",
        "--preset",
        "llama-3.1-70b",
        "--hardware",
        "h200",
        "--tp",
        "4",
        "--framework",
        "sglang",
    ];
    let file = serving_run("sglang-bench-serving_h200x4_llama-3.3-70b_online.jsonl");
    let measured = json(&[&base[..], &["--measured", &file, "--json"]].concat());
    let runs = measured["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 7);
    assert_eq!(runs[0]["load"], "1 req/s");
    assert_eq!(runs[0]["measured_ttft_statistic"], "median");
    assert_eq!(runs[0]["measured_tpot_s"], Value::Null);
    let floor = (1.0f64 / 1024.0).to_string();
    let bench = json(
        &[
            &base[..],
            &[
                "--benchmark",
                "300",
                "--rate",
                "1",
                "--prompt",
                "1024",
                "--output",
                "1024",
                "--length-floor",
                &floor,
                "--json",
            ],
        ]
        .concat(),
    );
    assert_eq!(
        runs[0]["predicted_ttft_s"],
        bench["benchmark"]["ttft_median_s"]
    );
    let table = stdout(&[&base[..], &["--measured", &file]].concat());
    assert!(
        table.contains("not in file (median ITL 13.6 ms)"),
        "{table}"
    );
    assert!(
        table.contains("it is not TPOT and is not compared"),
        "{table}"
    );
}

#[test]
fn deploy_measured_refuses_what_it_cannot_simulate() {
    let base = [
        "deploy",
        "--preset",
        "llama-3-8b",
        "--hardware",
        "h100-sxm",
        "--measured",
    ];
    check_error(
        &[
            &base[..],
            &[&serving_run("genai-perf_llama3-8b-nim_c10.csv")],
        ]
        .concat(),
        "import the profile_export_genai_perf.json of the same run",
    );
    check_error(
        &[&base[..], &[&serving_run("README.md")]].concat(),
        "not a serving benchmark's result",
    );
    // GenAI-Perf's JSON does not count its requests: ten per client are simulated, said so.
    let out = stdout(
        &[
            &base[..],
            &[&serving_run("genai-perf_llama3-8b-nim_c10.json")],
        ]
        .concat(),
    );
    assert!(
        out.contains("100 requests simulated (the file does not count them)"),
        "{out}"
    );
}

#[test]
fn deploy_energy_is_board_power_over_tokens_per_gpu() {
    let base = [
        "deploy",
        "--preset",
        "llama-3-70b",
        "--hardware",
        "h200",
        "--tp",
        "4",
        "--weights",
        "fp8",
        "--gpu-hour-price",
        "2.5",
        "--json",
    ];
    let v = json(&base);
    let per_gpu = v["deployment"]["tokens_per_s_per_gpu"].as_f64().unwrap();
    let e = &v["energy"];
    assert_eq!(e["watts_per_gpu"], 700.0);
    assert!(e["power_source"].as_str().unwrap().contains("H200"), "{e}");
    let j = e["joules_per_output_token"].as_f64().unwrap();
    assert!((j - 700.0 / per_gpu).abs() < 1e-9 * j);
    let usd = e["usd_per_million_output_tokens"].as_f64().unwrap();
    assert!((usd - 2.5 / 3600.0 / per_gpu * 1e6).abs() < 1e-9 * usd);
    // Disaggregated workers: the same power over tokens/s per GPU of both sides.
    let disagg = json(&[
        "deploy",
        "--preset",
        "llama-3-70b",
        "--hardware",
        "h200",
        "--weights",
        "fp8",
        "--prefill",
        "tp4",
        "--decode",
        "tp4",
        "--json",
    ]);
    let both = disagg["tokens_per_s_per_gpu"].as_f64().unwrap();
    let j = disagg["energy"]["joules_per_output_token"]
        .as_f64()
        .unwrap();
    assert!((j - 700.0 / both).abs() < 1e-9 * j, "{disagg}");
    let given = json(&[&base[..], &["--power", "550"]].concat());
    assert_eq!(given["energy"]["watts_per_gpu"], 550.0);
    assert_eq!(given["energy"]["power_source"], "user: given by the user");
    check_error(
        &["deploy", "--preset", "llama-3-8b", "--power=-5"],
        "--power -5: give a positive number of watts per GPU",
    );
    check_error(
        &[
            "deploy",
            "--preset",
            "llama-3-8b",
            "--gpu-hour-price",
            "nan",
        ],
        "--gpu-hour-price NaN",
    );
}

#[test]
fn deploy_emit_prints_the_engines_command_for_the_layout_evaluated() {
    use rooflinr_model::deploy::launch::{LaunchSpec, launch};
    use rooflinr_model::deploy::{Layout, Scheduler, Workload};
    use rooflinr_model::kernel_time::Framework;
    let v = json(&[
        "deploy",
        "--preset",
        "qwen3-235b-a22b",
        "--hardware",
        "h200",
        "--tp",
        "1",
        "--dp",
        "8",
        "--ep",
        "--kv",
        "fp8",
        "--concurrency",
        "128",
        "--emit",
        "sglang",
        "--json",
    ]);
    let l = &v["launch"];
    assert_eq!(l["engine"], "sglang");
    assert_eq!(l["release"], "SGLang 0.5.9");
    assert_eq!(l["layout"], "tp1-dp8-ep");
    // The same command as the model crate's, under SGLang's default scheduler: --emit set
    // the framework.
    let model = presets::get("qwen3-235b-a22b").unwrap();
    let expected = launch(
        Framework::Sglang,
        &LaunchSpec {
            model: &model,
            layout: "tp1-dp8-ep".parse::<Layout>().unwrap(),
            scheduler: Scheduler::default_for(Framework::Sglang, &registry::get("h200").unwrap()),
            workload: Workload {
                prompt: 1024,
                output: 256,
                concurrency: 128,
            },
            weights: Format::Bf16,
            expert_weights: None,
            kv: Format::Fp8E4m3,
            speculation: None,
        },
    )
    .unwrap();
    assert_eq!(l["command"], expected.shell().as_str());
    assert!(expected.shell().contains("--enable-dp-attention"));
    assert!(expected.shell().contains("--kv-cache-dtype fp8_e4m3"));
    // As text, after the tables.
    let out = stdout(&[
        "deploy",
        "--preset",
        "llama-3.1-8b",
        "--hardware",
        "h100",
        "--emit",
        "vllm",
    ]);
    assert!(
        out.contains("launch command for tp1 (vLLM 0.19.0;")
            && out.contains("vllm serve meta-llama/Llama-3.1-8B-Instruct \\\n"),
        "{out}"
    );
    check_error(
        &[
            "deploy",
            "--preset",
            "llama-3.1-8b",
            "--emit",
            "sglang",
            "--framework",
            "vllm",
        ],
        "--emit sglang writes SGLang's command, but the figures are vLLM's",
    );
    check_error(
        &[
            "deploy",
            "--preset",
            "llama-3.1-8b",
            "--emit",
            "trtllm",
            "--batching",
            "static",
        ],
        "every engine batches in flight",
    );
    check_error(
        &[
            "deploy",
            "--preset",
            "qwen3-235b-a22b",
            "--hardware",
            "h200",
            "--tp",
            "8",
            "--ep",
            "2",
            "--emit",
            "vllm",
        ],
        "vLLM places whole experts over TP x DP (8 GPUs)",
    );
    // Disaggregated: the prefill workers' command, then the decode workers'.
    let v = json(&[
        "deploy",
        "--preset",
        "llama-3.1-70b",
        "--hardware",
        "h200",
        "--prefill",
        "tp4",
        "--decode",
        "tp8",
        "--emit",
        "trtllm",
        "--json",
    ]);
    let roles: Vec<(&str, &str)> = v["launch"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["role"].as_str().unwrap(), l["layout"].as_str().unwrap()))
        .collect();
    assert_eq!(roles, [("prefill", "tp4"), ("decode", "tp8")]);
    assert!(
        v["launch"][1]["command"]
            .as_str()
            .unwrap()
            .contains("--tp_size 8")
    );
}

#[test]
fn deploy_measured_with_an_energy_window_divides_its_joules_by_the_runs_tokens() {
    use rooflinr_report::import::energy::{EnergyFile, GpuCounter};
    // A window as `rooflinr-agent energy` writes it: 8 GPUs, 3 kJ each over 6 s (500 W).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("energy.json");
    let file = EnergyFile {
        kind: EnergyFile::KIND.into(),
        command: vec!["vllm".into(), "bench".into(), "serve".into()],
        exit_code: Some(0),
        started_unix_ms: 0,
        seconds: 6.0,
        gpus: (0..8)
            .map(|index| GpuCounter {
                index,
                first_mj: 1_000,
                last_mj: 3_001_000,
            })
            .collect(),
    };
    std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
    let run = serving_run("vllm-bench-serve_h200x8_qwen3-32b_tp4-dp2_c100.json");
    let base = [
        "deploy",
        "--preset",
        "qwen3-32b",
        "--hardware",
        "h200",
        "--tp",
        "4",
        "--dp",
        "2",
        "--framework",
        "vllm",
        "--measured",
        run.as_str(),
        "--energy",
        path.to_str().unwrap(),
    ];
    let v = json(&[&base[..], &["--json"]].concat());
    let e = &v["energy"];
    // 24 kJ over the run's 100 requests of 128 output tokens.
    assert_eq!(e["output_tokens"], 12_800.0);
    assert_eq!(e["measured_joules_per_output_token"], 24_000.0 / 12_800.0);
    assert_eq!(e["watts_per_gpu"], 500.0);
    let simulated = v["runs"][0]["predicted_output_tokens_per_s"]
        .as_f64()
        .unwrap();
    let at = e["predicted_joules_per_output_token_at_measured_power"]
        .as_f64()
        .unwrap();
    assert!((at - 500.0 * 8.0 / simulated).abs() < 1e-9 * at);
    let board = e["predicted_joules_per_output_token_at_board_power"]
        .as_f64()
        .unwrap();
    assert!((board - 700.0 * 8.0 / simulated).abs() < 1e-9 * board);
    let out = stdout(&base);
    assert!(out.contains("Measured 1.875 J per output token"), "{out}");
    // A file that is not a window is refused with the command that makes one.
    check_error(
        &[&base[..13], &["--energy", run.as_str()]].concat(),
        "rooflinr-agent energy --out FILE -- COMMAND",
    );
}
