//! Pairing and refusal over real loopback sockets: the token, origins, hosts, message
//! size and shape limits.

mod common;

use common::{Agent, TOKEN};
use futures_util::SinkExt;
use rooflinr_protocol::{
    ClientMessage, ErrorCode, JobKind, JobRequest, OperatorShape, PROTOCOL_VERSION, Refusal,
    ServerMessage,
};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

#[tokio::test]
async fn health_needs_no_token_and_everything_else_does() {
    let agent = Agent::start().await;
    let health = agent
        .http
        .get(agent.url("/api/health"))
        .send()
        .await
        .expect("health");
    assert_eq!(health.status(), 200);
    for (token, expected) in [
        (None, 401),
        (Some("wrong-token-0123456789"), 401),
        (Some(TOKEN), 200),
    ] {
        let mut req = agent.http.get(agent.url("/api/hardware"));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.expect("request");
        assert_eq!(res.status(), expected, "token {token:?}");
        let body: serde_json::Value = res.json().await.expect("json body");
        if expected == 401 {
            assert!(
                body["error"]
                    .as_str()
                    .expect("error text")
                    .contains("token")
            );
        } else {
            assert!(
                body.as_array()
                    .expect("list")
                    .iter()
                    .any(|h| h["key"] == "h100-sxm")
            );
        }
    }
}

#[tokio::test]
async fn websocket_handshake_needs_the_token() {
    let agent = Agent::start().await;
    for token in [None, Some("wrong-token-0123456789")] {
        match tokio_tungstenite::connect_async(agent.ws_request(token, None)).await {
            Err(WsError::Http(response)) => assert_eq!(response.status(), 401),
            other => panic!("expected 401 for {token:?}, got {:?}", other.map(|_| ())),
        }
    }
    let mut client = agent.client().await;
    client
        .send(&ClientMessage::Status {
            job: rooflinr_protocol::JobId("nope".into()),
        })
        .await;
    let code = client
        .until(|m| match m {
            ServerMessage::Error(Refusal { code, .. }) => Some(*code),
            _ => None,
        })
        .await;
    assert_eq!(code, ErrorCode::UnknownJob);
}

#[tokio::test]
async fn hello_reports_the_backends_and_refuses_other_versions() {
    let agent = Agent::start().await;
    let (ws, _) = tokio_tungstenite::connect_async(agent.ws_request(Some(TOKEN), None))
        .await
        .expect("handshake");
    let mut client = common::Client { ws };
    client
        .send(&ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            client: "t".into(),
        })
        .await;
    match client.next().await {
        Some(ServerMessage::Hello(h)) => {
            assert_eq!(h.protocol, PROTOCOL_VERSION);
            let cpu = h
                .backends
                .iter()
                .find(|b| b.kind == rooflinr_protocol::BackendKind::Cpu)
                .expect("cpu backend");
            assert!(cpu.available && cpu.formats.contains(&rooflinr_model::format::Format::Int8));
            if !h.nvml.available {
                assert!(h.nvml.reason.is_some(), "a missing NVML says why");
            }
        }
        other => panic!("expected hello, got {other:?}"),
    }
    let (ws, _) = tokio_tungstenite::connect_async(agent.ws_request(Some(TOKEN), None))
        .await
        .expect("handshake");
    let mut old = common::Client { ws };
    old.send(&ClientMessage::Hello {
        protocol: 99,
        client: "old".into(),
    })
    .await;
    match old.next().await {
        Some(ServerMessage::Error(Refusal {
            code: ErrorCode::Version,
            message,
        })) => {
            assert!(
                message.contains("99") && message.contains(&PROTOCOL_VERSION.to_string()),
                "{message}"
            );
        }
        other => panic!("expected a version error, got {other:?}"),
    }
    assert_eq!(
        old.next().await,
        None,
        "the agent closes after a version mismatch"
    );
}

#[tokio::test]
async fn foreign_origins_and_hosts_are_refused() {
    let agent = Agent::start().await;
    let get = |origin: Option<&'static str>, host: Option<&'static str>| {
        let mut req = agent
            .http
            .get(agent.url("/api/hardware"))
            .bearer_auth(TOKEN);
        if let Some(o) = origin {
            req = req.header("Origin", o);
        }
        if let Some(h) = host {
            req = req.header("Host", h);
        }
        req.send()
    };
    assert_eq!(
        get(Some("https://evil.example"), None)
            .await
            .expect("req")
            .status(),
        403
    );
    assert_eq!(
        get(Some("http://127.0.0.1:8080"), None)
            .await
            .expect("req")
            .status(),
        200
    );
    assert_eq!(
        get(Some("https://calculator.example.org"), None)
            .await
            .expect("req")
            .status(),
        200
    );
    let rebound = get(None, Some("evil.example:7878")).await.expect("req");
    assert_eq!(rebound.status(), 403);
    let body: serde_json::Value = rebound.json().await.expect("json");
    assert!(
        body["error"]
            .as_str()
            .expect("text")
            .contains("--allow-host")
    );

    match tokio_tungstenite::connect_async(
        agent.ws_request(Some(TOKEN), Some("https://evil.example")),
    )
    .await
    {
        Err(WsError::Http(response)) => assert_eq!(response.status(), 403),
        other => panic!("expected 403, got {:?}", other.map(|_| ())),
    }
    // The static calculator's origin may open the socket and preflight the API.
    let ok = tokio_tungstenite::connect_async(
        agent.ws_request(Some(TOKEN), Some("https://calculator.example.org")),
    )
    .await;
    assert!(ok.is_ok());
    let preflight = agent
        .http
        .request(reqwest::Method::OPTIONS, agent.url("/api/analyze"))
        .header("Origin", "https://calculator.example.org")
        .header("Access-Control-Request-Method", "POST")
        .header(
            "Access-Control-Request-Headers",
            "authorization,content-type",
        )
        .header("Access-Control-Request-Private-Network", "true")
        .send()
        .await
        .expect("preflight");
    assert_eq!(
        preflight
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap_or("")),
        Some("https://calculator.example.org")
    );
    assert_eq!(
        preflight
            .headers()
            .get("access-control-allow-private-network")
            .map(|v| v.to_str().unwrap_or("")),
        Some("true")
    );
}

#[tokio::test]
async fn malformed_messages_get_an_error_and_oversized_ones_close_the_socket() {
    let agent = Agent::start().await;
    let mut client = agent.client().await;
    client
        .ws
        .send(Message::Text("{\"type\":".into()))
        .await
        .expect("send");
    match client.next().await {
        Some(ServerMessage::Error(Refusal {
            code: ErrorCode::Malformed,
            ..
        })) => {}
        other => panic!("expected a malformed error, got {other:?}"),
    }
    client
        .ws
        .send(Message::Binary(vec![0xff, 0x00, 0x13].into()))
        .await
        .expect("send");
    assert!(matches!(
        client.next().await,
        Some(ServerMessage::Error(Refusal {
            code: ErrorCode::Malformed,
            ..
        }))
    ));
    // A format the model crate does not know: refused by name when the message is read.
    client
        .ws
        .send(Message::Text(
            r#"{"type":"measure","request":{"kind":{"kind":"operators","shapes":[{"m":1,"n":8,"k":8}],"formats":["fp32","fp7"]}}}"#.into(),
        ))
        .await
        .expect("send");
    match client.next().await {
        Some(ServerMessage::Error(Refusal {
            code: ErrorCode::Malformed,
            message,
        })) => assert!(message.contains("unknown format `fp7`"), "{message}"),
        other => panic!("expected the format named, got {other:?}"),
    }
    // Still usable after all three.
    client
        .send(&ClientMessage::Status {
            job: rooflinr_protocol::JobId("x".into()),
        })
        .await;
    assert!(matches!(
        client.next().await,
        Some(ServerMessage::Error(Refusal {
            code: ErrorCode::UnknownJob,
            ..
        }))
    ));

    let huge = format!(
        "{{\"type\":\"hello\",\"protocol\":1,\"client\":\"{}\"}}",
        "x".repeat(100_000)
    );
    let _ = client.ws.send(Message::Text(huge.into())).await;
    let mut closed = false;
    for _ in 0..3 {
        match tokio::time::timeout(
            std::time::Duration::from_secs(10),
            futures_util::StreamExt::next(&mut client.ws),
        )
        .await
        {
            Ok(Some(Ok(Message::Close(frame)))) => {
                let frame = frame.expect("close frame with a code");
                assert_eq!(u16::from(frame.code), 1009, "message too big");
                closed = true;
                break;
            }
            Ok(None) | Ok(Some(Err(_))) => {
                closed = true;
                break;
            }
            Ok(Some(Ok(_))) => continue,
            Err(_) => break,
        }
    }
    assert!(closed, "an oversized message closes the socket");

    let big_body = agent
        .http
        .post(agent.url("/api/analyze"))
        .bearer_auth(TOKEN)
        .header("Content-Type", "application/json")
        .body(vec![b' '; 200_000])
        .send()
        .await
        .expect("request");
    assert_eq!(big_body.status(), 413);
}

#[tokio::test]
async fn a_shape_too_large_for_memory_is_refused_before_allocating() {
    let agent = Agent::start().await;
    let mut client = agent.client().await;
    client
        .send(&ClientMessage::Measure {
            request: JobRequest {
                kind: JobKind::Operators {
                    shapes: vec![OperatorShape {
                        m: 1,
                        n: 1 << 20,
                        k: 1 << 20,
                    }],
                    formats: vec![rooflinr_model::format::Format::Fp32],
                },
                backend: None,
                budget: None,
            },
        })
        .await;
    match client.next().await {
        Some(ServerMessage::Error(Refusal {
            code: ErrorCode::Invalid,
            message,
        })) => {
            assert!(
                message.contains("needs") && message.contains("is free"),
                "{message}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn the_calculator_is_served_without_a_token_and_the_api_still_needs_one() {
    let web = tempfile::tempdir().expect("temp dir");
    std::fs::write(web.path().join("index.html"), "<title>rooflinr</title>").expect("write");
    std::fs::create_dir(web.path().join("sub")).expect("dir");
    std::fs::write(web.path().join("sub/index.html"), "nested").expect("write");
    let agent = Agent::start_serving(web.path().to_path_buf()).await;
    let page = agent.http.get(agent.url("/")).send().await.expect("page");
    assert_eq!(page.status(), 200);
    assert_eq!(page.text().await.expect("text"), "<title>rooflinr</title>");
    let nested = agent
        .http
        .get(agent.url("/sub/"))
        .send()
        .await
        .expect("page");
    assert_eq!(nested.text().await.expect("text"), "nested");
    let api = agent
        .http
        .get(agent.url("/api/hardware"))
        .send()
        .await
        .expect("api");
    assert_eq!(api.status(), 401);
    let rebound = agent
        .http
        .get(agent.url("/"))
        .header("Host", "evil.example")
        .send()
        .await
        .expect("page");
    assert_eq!(rebound.status(), 403, "the Host check covers the pages too");
}

#[tokio::test]
async fn without_a_calculator_the_root_page_says_how_to_get_one() {
    let agent = Agent::start().await;
    let page = agent.http.get(agent.url("/")).send().await.expect("page");
    assert_eq!(page.status(), 200);
    assert!(page.text().await.expect("text").contains("--web"));
}
