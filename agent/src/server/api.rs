//! The HTTP API: the prototype's endpoints with their request shapes, plus health,
//! hardware, telemetry and the OpenAPI document. Bodies are decoded by the protocol
//! crate's one decoder, so every malformed body gets the same JSON error.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Query, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use rooflinr_model::analysis::Phase;
use rooflinr_model::format::Format;
use rooflinr_model::hardware::{Hardware, registry};
use rooflinr_model::ops::{Op, Precision};
use rooflinr_model::recommend::{self, QualitySamples, Request, Target};
use rooflinr_model::roofline::Efficiency;
use rooflinr_protocol::api::{
    AnalyzeRequest, AnalyzeResponse, ApiError, ApiShape, HardwareEntry, Health, RecommendCandidate,
    RecommendRequest, RecommendResponse, SweepRequest, SweepResponse, TelemetryStatus,
};
use rooflinr_protocol::{
    JobId, JobKind, JobRequest, Measurement, OperatorShape, PROTOCOL_VERSION, decode,
};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use super::AppState;
use crate::jobs::MAX_POINTS;

/// A JSON error body with a status.
pub fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (
        status,
        Json(ApiError {
            error: message.into(),
        }),
    )
        .into_response()
}

/// A refused request: its status and what to tell the caller.
pub struct Failure(StatusCode, String);

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        error(self.0, self.1)
    }
}

fn bad_request(message: impl Into<String>) -> Failure {
    Failure(StatusCode::BAD_REQUEST, message.into())
}

/// A request body decoded by the protocol crate's one decoder (its size limit, its
/// errors), refused with a JSON error naming the problem.
pub struct ProtocolJson<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for ProtocolJson<T> {
    type Rejection = Failure;

    async fn from_request(request: axum::extract::Request, state: &S) -> Result<Self, Failure> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|e| Failure(e.status(), e.body_text()))?;
        decode(&bytes)
            .map(ProtocolJson)
            .map_err(|e| bad_request(e.to_string()))
    }
}

/// `?hardware_key=` (GB10 when absent, as in the prototype).
#[derive(Deserialize)]
pub struct HardwareQuery {
    hardware_key: Option<String>,
}

fn hardware(query: &HardwareQuery) -> Result<Hardware, Failure> {
    registry::get(query.hardware_key.as_deref().unwrap_or("gb10"))
        .map_err(|e| bad_request(format!("{e}; known keys: {}", registry::keys().join(", "))))
}

/// `GET /api/health`.
pub async fn health() -> Json<Health> {
    Json(Health {
        status: "ok".into(),
        agent_version: env!("CARGO_PKG_VERSION").into(),
        protocol: PROTOCOL_VERSION,
    })
}

/// `GET /api/hardware`.
pub async fn hardware_list() -> Json<Vec<HardwareEntry>> {
    Json(
        registry::all()
            .into_iter()
            .map(|h| HardwareEntry {
                peaks_tflops: h
                    .peaks
                    .iter()
                    .map(|p| (p.math.name().to_string(), p.rate.value.as_tflops()))
                    .collect::<BTreeMap<_, _>>(),
                key: h.key,
                name: h.name,
                architecture: h.architecture,
                bandwidth_gb_s: h.memory_bandwidth.value.get() / 1e9,
                memory_gb: h.memory_capacity.value.get() / 1e9,
            })
            .collect(),
    )
}

fn check_shape(s: ApiShape) -> Result<(), Failure> {
    OperatorShape::from(s)
        .check()
        .map_err(|e| bad_request(e.to_string()))
}

/// The prototype's convention: A and W in the format, the output in FP16.
fn predict(hw: &Hardware, shape: ApiShape, format: Format) -> AnalyzeResponse {
    let precision = Precision {
        activations: format,
        weights: format,
        kv: format,
        output: Format::Fp16,
    };
    let p = Op::Gemm {
        m: shape.m as f64,
        n: shape.n as f64,
        k: shape.k as f64,
        bias: false,
    }
    .predict(&precision, hw, &Efficiency::IDEAL);
    let r = p.prediction;
    AnalyzeResponse {
        hardware_key: hw.key.clone(),
        shape,
        precision: format.name(),
        flops: r.work.flops.get(),
        bytes: r.work.bytes.get(),
        ai: r.intensity.get(),
        critical_ai: r.ridge.get(),
        predicted_time_us: r.time.as_micros(),
        predicted_tflops: r.work.flops.get() / r.time.get() / 1e12,
        bottleneck: r.bound.name().to_string(),
        basis: "computed".into(),
        measurement: None,
    }
}

/// Queues a measurement job and waits for it.
async fn measure(
    state: &AppState,
    shapes: Vec<ApiShape>,
    formats: Vec<Format>,
) -> Result<(JobId, Vec<Measurement>), Failure> {
    let request = JobRequest {
        kind: JobKind::Operators {
            shapes: shapes.iter().map(|&s| OperatorShape::from(s)).collect(),
            formats,
        },
        backend: None,
        budget: None,
    };
    let (job, _) = state
        .jobs
        .submit(request)
        .map_err(|e| bad_request(e.to_string()))?;
    let status = state.jobs.wait(&job).await.ok_or_else(|| {
        Failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the job disappeared".into(),
        )
    })?;
    match status.error {
        None => Ok((job, status.results)),
        Some(e) => Err(Failure(StatusCode::INTERNAL_SERVER_ERROR, e)),
    }
}

/// `POST /api/analyze?hardware_key=`.
pub async fn analyze(
    State(state): State<Arc<AppState>>,
    Query(query): Query<HardwareQuery>,
    ProtocolJson(req): ProtocolJson<AnalyzeRequest>,
) -> Result<Json<AnalyzeResponse>, Failure> {
    let hw = hardware(&query)?;
    let shape = ApiShape {
        m: req.m,
        n: req.n,
        k: req.k,
    };
    check_shape(shape)?;
    let format = req
        .precision
        .parse::<Format>()
        .map_err(|e| bad_request(e.to_string()))?;
    let mut out = predict(&hw, shape, format);
    if req.measure {
        let (_, mut results) = measure(&state, vec![shape], vec![format]).await?;
        out.measurement = results.pop();
    }
    Ok(Json(out))
}

/// The prototype's decode and prefill shapes.
const DEFAULT_SHAPES: [ApiShape; 2] = [
    ApiShape {
        m: 1,
        n: 4096,
        k: 4096,
    },
    ApiShape {
        m: 2048,
        n: 4096,
        k: 4096,
    },
];
/// The prototype's formats.
const DEFAULT_PRECISIONS: [&str; 5] = ["FP16", "FP8_E4M3", "INT8", "NVFP4", "INT4"];

/// `POST /api/sweep?hardware_key=`.
pub async fn sweep(
    State(state): State<Arc<AppState>>,
    Query(query): Query<HardwareQuery>,
    ProtocolJson(req): ProtocolJson<SweepRequest>,
) -> Result<Json<SweepResponse>, Failure> {
    let hw = hardware(&query)?;
    let shapes = req.shapes.unwrap_or_else(|| DEFAULT_SHAPES.to_vec());
    let precisions = req
        .precisions
        .unwrap_or_else(|| DEFAULT_PRECISIONS.iter().map(|s| s.to_string()).collect());
    if shapes.len().saturating_mul(precisions.len()) > MAX_POINTS {
        return Err(bad_request(format!(
            "{} shapes x {} precisions is over the limit of {MAX_POINTS} points",
            shapes.len(),
            precisions.len()
        )));
    }
    let mut formats = Vec::new();
    for p in &precisions {
        formats.push(
            p.parse::<Format>()
                .map_err(|e| bad_request(e.to_string()))?,
        );
    }
    let mut points = Vec::new();
    for &shape in &shapes {
        check_shape(shape)?;
        points.extend(formats.iter().map(|&f| predict(&hw, shape, f)));
    }
    let mut job = None;
    if req.measure {
        let (id, results) = measure(&state, shapes, formats).await?;
        for (point, m) in points.iter_mut().zip(results) {
            point.measurement = Some(m);
        }
        job = Some(id);
    }
    Ok(Json(SweepResponse {
        hardware_key: hw.key.clone(),
        points,
        job,
    }))
}

/// `POST /api/recommend?hardware_key=`.
pub async fn recommend(
    Query(query): Query<HardwareQuery>,
    ProtocolJson(req): ProtocolJson<RecommendRequest>,
) -> Result<Json<RecommendResponse>, Failure> {
    let hw = hardware(&query)?;
    check_shape(ApiShape {
        m: req.m,
        n: req.n,
        k: req.k,
    })?;
    let request = Request {
        target: Target::Gemm {
            m: req.m,
            n: req.n,
            k: req.k,
        },
        hardware: &hw,
        phase: if req.m == 1 {
            Phase::Decode
        } else {
            Phase::Prefill
        },
        batch: 1,
        seq: 1,
        min_sqnr_db: req.min_sqnr_db.unwrap_or(18.0),
        attention: None,
        efficiency: Efficiency::IDEAL,
    };
    let rec = recommend::recommend(&request, &QualitySamples::synthetic())
        .map_err(|e| bad_request(e.to_string()))?;
    Ok(Json(RecommendResponse {
        hardware_key: hw.key.clone(),
        bottleneck: rec.bottleneck.clone(),
        recommended: rec.best.map(|i| rec.candidates[i].name.clone()),
        candidates: rec
            .candidates
            .iter()
            .map(|c| RecommendCandidate {
                strategy: c.name.clone(),
                weights: c.formats.main.weights.name(),
                activations: c.formats.main.activations.name(),
                time_us: c.time.as_micros(),
                speedup: c.speedup,
                memory_saved: c.memory_saved,
                sqnr_db: c.quality_db,
                within_budget: c.within_budget,
                reason: c.reason.clone(),
            })
            .collect(),
    }))
}

/// `GET /api/nvml/status`.
pub async fn nvml_status(State(state): State<Arc<AppState>>) -> Json<TelemetryStatus> {
    let t = &state.telemetry;
    Json(TelemetryStatus {
        nvml: t.nvml.clone(),
        telemetry_hz: t.hz,
        latest: t.latest.borrow().clone(),
    })
}

/// `GET /api/nvml/stream`: every telemetry sample as a server-sent event; a client that
/// falls behind skips ahead.
pub async fn nvml_stream(
    State(state): State<Arc<AppState>>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let receiver = state.telemetry.stream.subscribe();
    // A delivery's samples, one event each, before the next delivery is awaited.
    let pending = Vec::<String>::new().into_iter();
    let stream =
        futures_util::stream::unfold((receiver, pending), |(mut rx, mut pending)| async move {
            loop {
                if let Some(json) = pending.next() {
                    let event = Event::default().event("telemetry").data(json);
                    return Some((Ok(event), (rx, pending)));
                }
                match rx.recv().await {
                    Ok(published) => pending = published.json.clone().into_iter(),
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return None,
                }
            }
        });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// The OpenAPI document.
pub const OPENAPI: &str = include_str!("openapi.json");

/// `GET /api/openapi.json`.
pub async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}
