//! A real agent on a loopback port, and a WebSocket client for it.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rooflinr_agent::backend::Backend;
use rooflinr_agent::backend::cpu::{CpuBackend, CpuOptions};
use rooflinr_agent::jobs::Jobs;
use rooflinr_agent::jobs::store::Store;
use rooflinr_agent::server::{self, AppState, ServerConfig};
use rooflinr_agent::stats::StopRule;
use rooflinr_agent::telemetry::Telemetry;
use rooflinr_protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage, decode, encode};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const TOKEN: &str = "test-token-0123456789abcdef";

/// A running agent.
pub struct Agent {
    pub addr: SocketAddr,
    pub results: tempfile::TempDir,
    pub http: reqwest::Client,
}

/// Small sizes so a test measures in milliseconds.
pub fn quick_rule() -> StopRule {
    StopRule {
        min_samples: 3,
        max_time: Duration::from_millis(50),
        warmup_runs: 1,
        ..StopRule::DEFAULT
    }
}

impl Agent {
    pub async fn start() -> Agent {
        Agent::start_with(vec!["https://calculator.example.org".into()]).await
    }

    pub async fn start_with(allowed_origins: Vec<String>) -> Agent {
        Agent::start_full(allowed_origins, None).await
    }

    /// An agent that also serves the calculator from `web`.
    pub async fn start_serving(web: std::path::PathBuf) -> Agent {
        Agent::start_full(Vec::new(), Some(web)).await
    }

    async fn start_full(
        allowed_origins: Vec<String>,
        web_dir: Option<std::path::PathBuf>,
    ) -> Agent {
        let results = tempfile::tempdir().expect("temp dir");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let cpu: Arc<dyn Backend> = Arc::new(CpuBackend::new(CpuOptions {
            peak_gemm_size: 64,
            stream_array_bytes: Some(2 << 20),
        }));
        let jobs = Jobs::new(
            vec![cpu],
            Store::open(results.path()).expect("store"),
            quick_rule(),
        );
        jobs.spawn_worker().expect("worker");
        let state = Arc::new(AppState {
            config: ServerConfig {
                token: TOKEN.into(),
                allowed_origins,
                allowed_hosts: Vec::new(),
                web_dir,
            },
            jobs,
            telemetry: Telemetry::start(100.0),
        });
        tokio::spawn(server::serve(listener, state, std::future::pending()));
        Agent {
            addr,
            results,
            http: reqwest::Client::new(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// A WebSocket request with the token offered as a subprotocol, as a browser sends it.
    pub fn ws_request(
        &self,
        token: Option<&str>,
        origin: Option<&str>,
    ) -> tokio_tungstenite::tungstenite::handshake::client::Request {
        let mut request = format!("ws://{}/ws", self.addr)
            .into_client_request()
            .expect("request");
        let protocols = match token {
            Some(t) => format!("rooflinr.v1, rooflinr-token.{t}"),
            None => "rooflinr.v1".into(),
        };
        request.headers_mut().insert(
            "Sec-WebSocket-Protocol",
            HeaderValue::from_str(&protocols).expect("header"),
        );
        if let Some(o) = origin {
            request
                .headers_mut()
                .insert("Origin", HeaderValue::from_str(o).expect("header"));
        }
        request
    }

    /// A connected client that has said hello.
    pub async fn client(&self) -> Client {
        connect(&self.addr.to_string()).await
    }
}

/// A client of the agent at `addr` (`127.0.0.1:PORT`) that has said hello with the token
/// offered as a browser offers it.
pub async fn connect(addr: &str) -> Client {
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("request");
    request.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_str(&format!("rooflinr.v1, rooflinr-token.{TOKEN}")).expect("header"),
    );
    let (ws, response) = tokio_tungstenite::connect_async(request)
        .await
        .expect("handshake");
    assert_eq!(
        response
            .headers()
            .get("sec-websocket-protocol")
            .map(|v| v.to_str().unwrap_or("")),
        Some("rooflinr.v1")
    );
    let mut client = Client { ws };
    client
        .send(&ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            client: "test".into(),
        })
        .await;
    match client.next().await {
        Some(ServerMessage::Hello(_)) => client,
        other => panic!("expected hello, got {other:?}"),
    }
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn send(&mut self, message: &ClientMessage) {
        self.ws
            .send(Message::Text(encode(message).into()))
            .await
            .expect("send");
    }

    /// The next protocol message (None when the socket closed), within 30 s.
    pub async fn next(&mut self) -> Option<ServerMessage> {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(30), self.ws.next())
                .await
                .expect("a message within 30 s")?;
            match frame {
                Ok(Message::Text(t)) => {
                    return Some(decode(t.as_bytes()).expect("agent sends valid messages"));
                }
                Ok(Message::Close(_)) | Err(WsError::ConnectionClosed) => return None,
                Ok(_) => continue,
                Err(e) => panic!("socket error: {e}"),
            }
        }
    }

    /// Skips messages until `pick` accepts one.
    pub async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let m = self.next().await.expect("socket open");
            if let Some(t) = pick(&m) {
                return t;
            }
        }
    }
}
