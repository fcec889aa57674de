//! Each client's file, read field by field ([`super::Fields`] names them in errors).

use rooflinr_model::units::Seconds;
use serde_json::Value;

use super::{
    BenchClient, Fields, LengthRange, Load, MAX_POINTS, Measured, RunPoint, ServingImportError,
    ServingRuns, Statistic, checked, string,
};

/// vLLM's `--save-result` JSON and SGLang's `--output-file` lines: one run each.
pub(super) fn bench_serve(values: &[Value]) -> Result<ServingRuns, ServingImportError> {
    let first = &values[0];
    // vLLM's files name `model_id`; SGLang's name `dataset_name` and count the output
    // again after detokenising.
    let sglang = first.get("total_output_tokens_retokenized").is_some()
        || (first.get("model_id").is_none() && first.get("dataset_name").is_some());
    let client = if sglang {
        BenchClient::SglangBenchServing
    } else {
        BenchClient::VllmBenchServe
    };
    let mut points = Vec::with_capacity(values.len());
    for (i, value) in values.iter().enumerate() {
        let f = Fields {
            client,
            run: i + 1,
            value,
        };
        let completed = f
            .count("completed", 1)?
            .ok_or_else(|| f.missing("completed"))?;
        let cap = f.count("max_concurrency", 1)?;
        let load = match (f.rate("request_rate")?, cap) {
            (Some(per_s), cap) => Load::Rate { per_s, cap },
            (None, Some(c)) => Load::Concurrency(c),
            (None, None) => Load::AllAtOnce,
        };
        let lengths = match (
            f.count("random_input_len", 1)?,
            f.count("random_output_len", 1)?,
            f.number("random_range_ratio")?,
        ) {
            (Some(prompt), Some(output), Some(ratio))
                if string(value, "dataset_name").as_deref() == Some("random") =>
            {
                if !(0.0..=1.0).contains(&ratio) {
                    return Err(f.bad("random_range_ratio", format!("is {ratio}, not in [0, 1]")));
                }
                // SGLang draws each length as `randint(max(int(len x ratio), 1), len + 1)`:
                // a ratio of 0 is a floor of one token.
                Some(LengthRange {
                    prompt,
                    output,
                    floor: ratio.max(1.0 / prompt.min(output) as f64),
                })
            }
            _ => None,
        };
        points.push(checked(
            RunPoint {
                load: Some(load),
                requests: Some(completed),
                prompt_tokens: f.per_request("total_input_tokens", completed)?,
                output_tokens: f.per_request("total_output_tokens", completed)?,
                lengths,
                ttft: f.latency("mean_ttft_ms", "median_ttft_ms")?,
                tpot: f.latency("mean_tpot_ms", "median_tpot_ms")?,
                itl_median: f.millis("median_itl_ms")?,
                output_tokens_per_s: f.output_throughput("output_throughput")?,
            },
            &f,
        )?);
    }
    Ok(ServingRuns {
        client,
        model: string(first, "model_id").or_else(|| string(first, "model")),
        backend: string(first, "backend"),
        points,
    })
}

/// GuideLLM's report: `benchmarks[]`, each one strategy's run.
pub(super) fn guidellm(report: &Value) -> Result<ServingRuns, ServingImportError> {
    let client = BenchClient::GuideLlm;
    let benchmarks = report["benchmarks"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if benchmarks.len() > MAX_POINTS {
        return Err(ServingImportError::TooManyPoints);
    }
    let mut points = Vec::with_capacity(benchmarks.len());
    for (i, value) in benchmarks.iter().enumerate() {
        let f = Fields {
            client,
            run: i + 1,
            value,
        };
        let strategy = f
            .at("args.strategy.type_")
            .and_then(Value::as_str)
            .ok_or_else(|| f.missing("args.strategy.type_"))?;
        let load = match strategy {
            "synchronous" => Load::Concurrency(1),
            "concurrent" => Load::Concurrency(
                f.count("args.strategy.streams", 1)?
                    .ok_or_else(|| f.missing("args.strategy.streams"))?,
            ),
            // As many requests in flight as the server takes: the measured mean concurrency
            // is the closed loop it amounts to.
            "throughput" => {
                let c = f.required("metrics.request_concurrency.successful.mean")?;
                Load::Concurrency(c.round().max(1.0) as u64)
            }
            "constant" | "poisson" => Load::Rate {
                per_s: f
                    .rate("args.strategy.rate")?
                    .ok_or_else(|| f.missing("args.strategy.rate"))?,
                cap: f.count("args.strategy.max_concurrency", 1)?,
            },
            other => {
                return Err(f.bad(
                    "args.strategy.type_",
                    format!("is {other:?}, a strategy not read"),
                ));
            }
        };
        let metric = |name: &str, stat: &str| format!("metrics.{name}.successful.{stat}");
        let ms = |name: &str| -> Result<Option<Measured>, ServingImportError> {
            f.latency(&metric(name, "mean"), &metric(name, "median"))
        };
        points.push(checked(
            RunPoint {
                load: Some(load),
                requests: match f.count("request_totals.successful", 1)? {
                    Some(n) => Some(n),
                    None => f.count(&metric("request_latency", "count"), 1)?,
                },
                prompt_tokens: f.required(&metric("prompt_token_count", "mean"))?,
                output_tokens: f.required(&metric("output_token_count", "mean"))?,
                lengths: None,
                ttft: ms("time_to_first_token_ms")?,
                // GuideLLM's `time_per_output_token_ms` counts the first token too; its
                // inter-token latency is the clients' TPOT.
                tpot: ms("inter_token_latency_ms")?,
                itl_median: None,
                output_tokens_per_s: f
                    .output_throughput(&metric("output_tokens_per_second", "mean"))?,
            },
            &f,
        )?);
    }
    if points.is_empty() {
        return Err(ServingImportError::MissingField {
            client: client.name(),
            run: 0,
            field: "benchmarks[0]".into(),
        });
    }
    let first = &benchmarks[0];
    Ok(ServingRuns {
        client,
        model: first
            .pointer("/worker/backend_model")
            .and_then(Value::as_str)
            .map(str::to_owned),
        backend: first
            .pointer("/worker/backend_type")
            .and_then(Value::as_str)
            .map(str::to_owned),
        points,
    })
}

/// GenAI-Perf's `profile_export_genai_perf.json`: one run.
pub(super) fn genai_perf_json(v: &Value) -> Result<ServingRuns, ServingImportError> {
    let client = BenchClient::GenAiPerfJson;
    let f = Fields {
        client,
        run: 1,
        value: v,
    };
    let load = match (
        f.rate("input_config.request_rate")?,
        f.count("input_config.concurrency", 1)?,
    ) {
        (Some(per_s), cap) => Some(Load::Rate { per_s, cap }),
        (None, Some(c)) => Some(Load::Concurrency(c)),
        (None, None) => None,
    };
    let point = checked(
        RunPoint {
            load,
            requests: None,
            prompt_tokens: f.required("input_sequence_length.avg")?,
            output_tokens: f.required("output_sequence_length.avg")?,
            lengths: None,
            ttft: f.latency("time_to_first_token.avg", "time_to_first_token.p50")?,
            tpot: f.latency("inter_token_latency.avg", "inter_token_latency.p50")?,
            itl_median: None,
            output_tokens_per_s: f.output_throughput("output_token_throughput.avg")?,
        },
        &f,
    )?;
    let model = v
        .pointer("/input_config/model/0")
        .and_then(Value::as_str)
        .map(str::to_owned);
    Ok(ServingRuns {
        client,
        model,
        backend: v
            .pointer("/input_config/backend")
            .and_then(Value::as_str)
            .map(str::to_owned),
        points: vec![point],
    })
}

/// GenAI-Perf's CSV: a table of statistics (`Metric,avg,min,...`), then a blank line and a
/// table of `Metric,Value` throughputs.
pub(super) fn genai_perf_csv(text: &str) -> Result<ServingRuns, ServingImportError> {
    let client = BenchClient::GenAiPerfCsv;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut avg_column = None;
    let mut figures = std::collections::HashMap::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| ServingImportError::Json {
            line: e.position().map_or(i + 1, |p| p.line() as usize),
            message: e.to_string(),
        })?;
        let Some(name) = record.get(0) else { continue };
        if name == "Metric" {
            avg_column = record.iter().position(|c| c == "avg" || c == "Value");
            continue;
        }
        let Some(cell) = avg_column.and_then(|c| record.get(c)) else {
            continue;
        };
        let number = super::super::number(cell).ok_or_else(|| ServingImportError::BadValue {
            client: client.name(),
            run: 1,
            field: name.to_owned(),
            why: format!("is {cell:?}, not a number"),
        })?;
        figures.insert(name.to_owned(), number);
    }
    let get = |name: &str| figures.get(name).copied();
    let need = |name: &str| {
        get(name).ok_or_else(|| ServingImportError::MissingField {
            client: client.name(),
            run: 1,
            field: name.into(),
        })
    };
    let ms = |name: &str| {
        get(name).map(|ms| Measured {
            value: Seconds(ms / 1e3),
            statistic: Statistic::Mean,
        })
    };
    let f = Fields {
        client,
        run: 1,
        value: &Value::Null,
    };
    checked(
        RunPoint {
            load: None,
            requests: None,
            prompt_tokens: need("Input Sequence Length")?,
            output_tokens: need("Output Sequence Length")?,
            lengths: None,
            ttft: ms("Time To First Token (ms)"),
            tpot: ms("Inter Token Latency (ms)"),
            itl_median: None,
            output_tokens_per_s: get("Output Token Throughput (per sec)"),
        },
        &f,
    )
    .map(|point| ServingRuns {
        client,
        model: None,
        backend: None,
        points: vec![point],
    })
}
