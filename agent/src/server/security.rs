//! The guard every request passes: the Host header (against DNS rebinding), the Origin
//! header (browsers name the page that sent the request), and the token (a Bearer header,
//! or for a browser's WebSocket a second offered subprotocol). Only `GET /api/health`
//! and the calculator's static files need no token; the token is compared in constant
//! time.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use rooflinr_protocol::TOKEN_SUBPROTOCOL_PREFIX;
use tower_http::cors::{AllowOrigin, CorsLayer};

use super::{AppState, ServerConfig};
use crate::server::api::error;

/// Whether two secrets are equal, in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The host part of a Host header or an origin's authority (`[::1]:7878` -> `::1`).
fn host_part(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => authority,
    }
}

/// Whether a Host header names this machine in a way DNS rebinding cannot forge: an IP
/// address, `localhost`, or a name the user allowed.
pub fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let name = host_part(host).to_ascii_lowercase();
    name.parse::<IpAddr>().is_ok()
        || name == "localhost"
        || allowed.iter().any(|a| a.eq_ignore_ascii_case(&name))
}

fn is_loopback_host(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Whether a page at `origin` may call the agent: loopback pages, the page served by the
/// agent itself (same origin as `host`), and the origins the user allowed.
pub fn origin_allowed(origin: &str, host: Option<&str>, allowed: &[String]) -> bool {
    let origin = origin.trim_end_matches('/').to_ascii_lowercase();
    if allowed
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(&origin))
    {
        return true;
    }
    let Some((scheme, authority)) = origin.split_once("://") else {
        return false;
    };
    if scheme != "http" && scheme != "https" {
        return false;
    }
    is_loopback_host(host_part(authority))
        || host.is_some_and(|h| h.eq_ignore_ascii_case(authority))
}

/// The token a request carries, if any.
fn presented_token(headers: &HeaderMap) -> Option<String> {
    if let Some(bearer) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        return Some(bearer.trim().to_string());
    }
    headers
        .get_all(header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .find_map(|p| p.trim().strip_prefix(TOKEN_SUBPROTOCOL_PREFIX))
        .map(str::to_string)
}

fn needs_token(method: &Method, path: &str) -> bool {
    let api = path == "/ws" || path.starts_with("/api/") || path == "/api";
    api && !(method == Method::GET && path == "/api/health")
}

/// The middleware.
pub async fn guard(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let config = &state.config;
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    match host {
        Some(h) if host_allowed(h, &config.allowed_hosts) => {}
        Some(h) => {
            let name = host_part(h);
            return error(
                StatusCode::FORBIDDEN,
                format!(
                    "host `{name}` is not allowed: reach the agent by IP address or localhost, or start it with --allow-host {name}"
                ),
            );
        }
        None => return error(StatusCode::BAD_REQUEST, "the request has no Host header"),
    }
    if let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok())
        && !origin_allowed(origin, host, &config.allowed_origins)
    {
        return error(
            StatusCode::FORBIDDEN,
            format!(
                "origin `{origin}` is not allowed: start the agent with --allow-origin {origin}"
            ),
        );
    }
    if needs_token(request.method(), request.uri().path()) {
        match presented_token(headers) {
            Some(t) if same_secret(&t, &config.token) => {}
            Some(_) => {
                return error(
                    StatusCode::UNAUTHORIZED,
                    "wrong token: use the one the agent printed",
                );
            }
            None => {
                return error(
                    StatusCode::UNAUTHORIZED,
                    "missing token: send `Authorization: Bearer TOKEN` (the agent printed it when it started)",
                );
            }
        }
    }
    next.run(request).await
}

/// CORS for the calculator on another origin (GitHub Pages) calling an agent on
/// loopback, including Chrome's private-network preflight.
pub fn cors(config: &ServerConfig) -> CorsLayer {
    let allowed = config.allowed_origins.clone();
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(
            move |origin: &HeaderValue, parts| {
                let host = parts
                    .headers
                    .get(header::HOST)
                    .and_then(|v| v.to_str().ok());
                origin
                    .to_str()
                    .is_ok_and(|o| origin_allowed(o, host, &allowed))
            },
        ))
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
        .allow_private_network(true)
}

#[cfg(test)]
mod tests;
