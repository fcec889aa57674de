//! The prototype's HTTP API, called as its curl examples call it (with the token), checked
//! against the model crate's own numbers.

mod common;

use common::{Agent, TOKEN};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::registry;
use rooflinr_model::ops::{Op, Precision};
use rooflinr_model::roofline::Efficiency;
use serde_json::{Value, json};

async fn post(agent: &Agent, path: &str, body: Value) -> (u16, Value) {
    let res = agent
        .http
        .post(agent.url(path))
        .bearer_auth(TOKEN)
        .json(&body)
        .send()
        .await
        .expect("request");
    (res.status().as_u16(), res.json().await.expect("json body"))
}

#[tokio::test]
async fn analyze_answers_the_seed_curl_example_with_the_models_numbers() {
    let agent = Agent::start().await;
    let (status, body) = post(
        &agent,
        "/api/analyze?hardware_key=b10",
        json!({"M":1,"N":4096,"K":4096,"precision":"FP16"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let hw = registry::get("gb10").expect("gb10");
    let mut p = Precision::uniform(Format::Fp16);
    p.output = Format::Fp16;
    let expected = Op::Gemm {
        m: 1.0,
        n: 4096.0,
        k: 4096.0,
        bias: false,
    }
    .predict(&p, &hw, &Efficiency::IDEAL)
    .prediction;
    assert_eq!(body["hardware_key"], "gb10");
    assert_eq!(body["bottleneck"], "memory");
    assert_eq!(body["basis"], "computed");
    assert_eq!(
        body["predicted_time_us"].as_f64(),
        Some(expected.time.as_micros())
    );
    assert_eq!(body["ai"].as_f64(), Some(expected.intensity.get()));
    assert_eq!(body["measurement"], Value::Null);
}

#[tokio::test]
async fn analyze_can_measure_on_this_machine() {
    let agent = Agent::start().await;
    let (status, body) = post(
        &agent,
        "/api/analyze?hardware_key=h100",
        json!({"M":1,"N":256,"K":512,"precision":"INT8","measure":true}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let m = &body["measurement"];
    assert_eq!(m["backend"], "cpu");
    assert_eq!(m["format"], "int8");
    assert!(m["stats"]["median_s"].as_f64().expect("median") > 0.0);
    assert_eq!(m["check"]["outputs_checked"], 256);
}

#[tokio::test]
async fn bad_requests_name_the_problem() {
    let agent = Agent::start().await;
    for (path, body, fragment) in [
        (
            "/api/analyze",
            json!({"M":1,"N":4096,"K":4096,"precision":"FP7"}),
            "fp7",
        ),
        (
            "/api/analyze",
            json!({"M":1,"N":4096,"precision":"FP16"}),
            "K",
        ),
        (
            "/api/analyze",
            json!({"M":0,"N":4096,"K":4096,"precision":"FP16"}),
            "M = 0",
        ),
        (
            "/api/analyze?hardware_key=tpu9",
            json!({"M":1,"N":8,"K":8,"precision":"FP16"}),
            "tpu9",
        ),
        ("/api/recommend", json!({"M":1,"N":4096}), "K"),
    ] {
        let (status, answer) = post(&agent, path, body).await;
        assert_eq!(status, 400, "{path}: {answer}");
        let text = answer["error"]
            .as_str()
            .expect("error text")
            .to_ascii_lowercase();
        assert!(
            text.contains(&fragment.to_ascii_lowercase()),
            "{path}: `{text}` lacks `{fragment}`"
        );
    }
}

#[tokio::test]
async fn sweep_recommend_hardware_and_telemetry_endpoints_answer() {
    let agent = Agent::start().await;
    let (status, body) = post(&agent, "/api/sweep?hardware_key=b200", json!({})).await;
    assert_eq!(status, 200, "{body}");
    let points = body["points"].as_array().expect("points");
    assert_eq!(
        points.len(),
        10,
        "the prototype's two shapes x five formats"
    );
    assert_eq!(points[0]["bottleneck"], "memory");
    assert_eq!(points[5]["bottleneck"], "compute");

    let (status, body) = post(
        &agent,
        "/api/recommend?hardware_key=h100",
        json!({"M":1,"N":4096,"K":4096}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["recommended"].is_string(), "{body}");
    assert!(!body["candidates"].as_array().expect("list").is_empty());

    let status: Value = agent
        .http
        .get(agent.url("/api/nvml/status"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("status")
        .json()
        .await
        .expect("json");
    assert_eq!(status["telemetry_hz"], 100.0);
    if status["nvml"]["available"] == false {
        assert!(status["nvml"]["reason"].is_string());
    }

    let openapi: Value = agent
        .http
        .get(agent.url("/api/openapi.json"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("openapi")
        .json()
        .await
        .expect("json");
    for path in [
        "/api/health",
        "/api/hardware",
        "/api/analyze",
        "/api/sweep",
        "/api/recommend",
        "/api/nvml/status",
        "/api/nvml/stream",
        "/api/openapi.json",
        "/ws",
    ] {
        assert!(openapi["paths"][path].is_object(), "{path} is documented");
    }
}

#[tokio::test]
async fn the_telemetry_stream_sends_server_sent_events() {
    use futures_util::StreamExt;
    let agent = Agent::start().await;
    let res = agent
        .http
        .get(agent.url("/api/nvml/stream"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("stream");
    assert_eq!(
        res.headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap_or("")),
        Some("text/event-stream")
    );
    let mut stream = res.bytes_stream();
    let mut text = String::new();
    while text.matches("event: telemetry").count() < 3 {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), stream.next())
            .await
            .expect("events within 10 s")
            .expect("open")
            .expect("bytes");
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    let data = text
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .expect("a data line");
    let sample: rooflinr_protocol::TelemetrySample =
        rooflinr_protocol::decode(data.as_bytes()).expect("sample");
    assert!(sample.host.mem_total_bytes > 0);
}
