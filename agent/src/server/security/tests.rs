//! Host, origin and token rules.

use super::*;

#[track_caller]
fn check_host(host: &str, allowed: &[&str], expected: bool) {
    let allowed: Vec<String> = allowed.iter().map(|s| s.to_string()).collect();
    assert_eq!(host_allowed(host, &allowed), expected, "{host}");
}

#[test]
fn hosts_must_be_addresses_localhost_or_allowed() {
    check_host("127.0.0.1:7878", &[], true);
    check_host("[::1]:7878", &[], true);
    check_host("localhost:7878", &[], true);
    check_host("LOCALHOST", &[], true);
    check_host("10.1.2.3:7878", &[], true);
    check_host("evil.example:7878", &[], false);
    check_host("localhost.evil.example:7878", &[], false);
    check_host("gpu-box:7878", &["gpu-box"], true);
}

#[track_caller]
fn check_origin(origin: &str, host: Option<&str>, allowed: &[&str], expected: bool) {
    let allowed: Vec<String> = allowed.iter().map(|s| s.to_string()).collect();
    assert_eq!(origin_allowed(origin, host, &allowed), expected, "{origin}");
}

#[test]
fn origins_must_be_loopback_same_origin_or_allowed() {
    check_origin("http://127.0.0.1:8080", None, &[], true);
    check_origin("http://localhost:3000", None, &[], true);
    check_origin("http://[::1]:8080", None, &[], true);
    check_origin("https://evil.example", None, &[], false);
    check_origin("http://10.0.0.5:7878", Some("10.0.0.5:7878"), &[], true);
    check_origin("http://10.0.0.5:7878", Some("10.0.0.6:7878"), &[], false);
    check_origin(
        "https://rooflinr.example.org",
        None,
        &["https://rooflinr.example.org/"],
        true,
    );
    check_origin("null", None, &[], false);
    check_origin("file://", None, &[], false);
}

#[test]
fn tokens_come_from_the_bearer_header_or_the_subprotocol() {
    let mut headers = HeaderMap::new();
    assert_eq!(presented_token(&headers), None);
    headers.insert(
        header::SEC_WEBSOCKET_PROTOCOL,
        HeaderValue::from_static("rooflinr.v1, rooflinr-token.abc123"),
    );
    assert_eq!(presented_token(&headers).as_deref(), Some("abc123"));
    headers.insert(
        header::AUTHORIZATION,
        HeaderValue::from_static("Bearer xyz"),
    );
    assert_eq!(presented_token(&headers).as_deref(), Some("xyz"));
}

#[test]
fn secrets_compare_exactly() {
    assert!(same_secret("abc", "abc"));
    assert!(!same_secret("abc", "abd"));
    assert!(!same_secret("abc", "abcd"));
    assert!(!same_secret("", "a"));
}

#[test]
fn only_health_and_static_files_skip_the_token() {
    assert!(!needs_token(&Method::GET, "/api/health"));
    assert!(needs_token(&Method::POST, "/api/health"));
    assert!(needs_token(&Method::GET, "/api/hardware"));
    assert!(needs_token(&Method::GET, "/ws"));
    assert!(!needs_token(&Method::GET, "/index.html"));
    assert!(!needs_token(&Method::GET, "/"));
}
