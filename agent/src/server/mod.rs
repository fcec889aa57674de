//! The HTTP and WebSocket server: one `Arc<AppState>` handed to an axum router. Every
//! request passes the guard in [`security`] (Host, Origin, token); `/ws` is the paired
//! calculator's channel, `/api/*` the prototype's HTTP API, and everything else the built
//! calculator when `--web` names it.

pub mod api;
pub mod pairing;
pub mod security;
mod ws;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::response::Html;
use axum::routing::{get, post};
use rooflinr_protocol::MAX_MESSAGE_BYTES;
use tokio::net::TcpListener;
use tower_http::services::ServeDir;

use crate::jobs::Jobs;
use crate::telemetry::Telemetry;

/// What the server enforces and serves.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The secret every call but `/api/health` must carry.
    pub token: String,
    /// Origins allowed besides loopback and same-origin ones (`https://example.org`).
    pub allowed_origins: Vec<String>,
    /// Host names allowed besides IP literals and `localhost`.
    pub allowed_hosts: Vec<String>,
    /// The built calculator to serve, if any.
    pub web_dir: Option<PathBuf>,
}

/// Everything a handler needs.
pub struct AppState {
    /// Security settings.
    pub config: ServerConfig,
    /// The job queue.
    pub jobs: Arc<Jobs>,
    /// Telemetry sources.
    pub telemetry: Telemetry,
}

/// The router over `state`.
pub fn router(state: Arc<AppState>) -> Router {
    let api = Router::new()
        .route("/api/health", get(api::health))
        .route("/api/hardware", get(api::hardware_list))
        .route("/api/analyze", post(api::analyze))
        .route("/api/sweep", post(api::sweep))
        .route("/api/recommend", post(api::recommend))
        .route("/api/nvml/status", get(api::nvml_status))
        .route("/api/nvml/stream", get(api::nvml_stream))
        .route("/api/openapi.json", get(api::openapi))
        .route("/ws", get(ws::upgrade));
    let app = match &state.config.web_dir {
        Some(dir) => {
            api.fallback_service(ServeDir::new(dir).append_index_html_on_directories(true))
        }
        None => api.fallback(get(no_calculator)),
    };
    app.layer(DefaultBodyLimit::max(MAX_MESSAGE_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&state),
            security::guard,
        ))
        .layer(security::cors(&state.config))
        .with_state(state)
}

async fn no_calculator() -> Html<&'static str> {
    Html(include_str!("no_calculator.html"))
}

/// Serves until `shutdown` resolves, then lets open requests finish.
pub async fn serve(
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(
        listener,
        router(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}
