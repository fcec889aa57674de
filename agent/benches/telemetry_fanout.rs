//! Telemetry fan-out under load: the release agent in its own process on a loopback port,
//! 50 WebSocket clients subscribed to telemetry for 20 seconds (host telemetry; NVML too
//! where the machine has it), twice: clients written with tokio-tungstenite in this process,
//! then clients no one here wrote, Node's `ws` package in a Node process of its own
//! (`fanout_client.cjs`), reading as a browser's page does. Reports the samples per second
//! every client received and the agent's own CPU time and memory, read from the OS for its
//! process only. Target: 5 % of one core or less at 100 Hz, for both.
//!
//! `cargo bench -p rooflinr-agent --bench telemetry_fanout` (`cargo xtask bench` installs
//! `ws` and names it in `ROOFLINR_NODE_WS`, its `node_modules` folder; without it the Node
//! clients are skipped, and the bench says so); `ROOFLINR_FANOUT_CLIENTS` and
//! `ROOFLINR_FANOUT_SECONDS` change the load (bounded to 500 clients and 300 s).

#![allow(missing_docs)]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rooflinr_protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage, decode, encode};
use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

const TOKEN: &str = "fanout-bench-token-0123456789";

fn setting(name: &str, default: u64, max: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
        .clamp(1, max)
}

/// The agent's accumulated CPU time (ms) and resident memory (bytes).
fn agent_usage(system: &mut System, pid: Pid) -> (u64, u64) {
    system.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[pid]),
        true,
        ProcessRefreshKind::nothing().with_cpu().with_memory(),
    );
    system
        .process(pid)
        .map_or((0, 0), |p| (p.accumulated_cpu_time(), p.memory()))
}

/// Who the clients are.
#[derive(Clone, Copy, PartialEq)]
enum Clients {
    /// tokio-tungstenite, in this process.
    Tungstenite,
    /// Node's `ws`, in a Node process.
    NodeWs,
}

/// One subscribed client: counts the telemetry samples it receives until `until`.
async fn client(addr: String, until: Instant) -> u64 {
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    request.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_str(&format!("rooflinr.v1, rooflinr-token.{TOKEN}")).unwrap(),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("handshake");
    for message in [
        ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            client: "fanout-bench".into(),
        },
        ClientMessage::Subscribe { telemetry: true },
    ] {
        ws.send(Message::Text(encode(&message).into()))
            .await
            .unwrap();
    }
    let mut samples = 0;
    while let Ok(Some(Ok(frame))) = tokio::time::timeout_at(until.into(), ws.next()).await {
        if let Message::Text(text) = frame
            && matches!(
                decode::<ServerMessage>(text.as_bytes()),
                Ok(ServerMessage::Telemetry(_))
            )
        {
            samples += 1;
        }
    }
    samples
}

/// Node's clients for `seconds` after 2 s of settling, run from `node_modules`: each
/// client's samples and the seconds they were connected, or why they could not run.
fn node_clients(
    node_modules: &std::path::Path,
    addr: &str,
    clients: usize,
    seconds: u64,
) -> Result<(Vec<u64>, f64), String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/fanout_client.cjs");
    let out = Command::new("node")
        .env("NODE_PATH", node_modules)
        .args([
            script,
            addr,
            TOKEN,
            &clients.to_string(),
            "2",
            &seconds.to_string(),
        ])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("node did not start: {e}"))?;
    if !out.status.success() {
        return Err(format!("node's clients failed ({})", out.status));
    }
    #[derive(serde::Deserialize)]
    struct Counts {
        counts: Vec<u64>,
        seconds: f64,
    }
    serde_json::from_slice::<Counts>(&out.stdout)
        .map(|c| (c.counts, c.seconds))
        .map_err(|e| format!("node's clients printed no counts: {e}"))
}

/// One run: a fresh agent, `clients` of `kind` for `seconds`; the line it reports.
fn run(kind: Clients, clients: usize, seconds: u64) -> Result<String, String> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port();
    let addr = format!("127.0.0.1:{port}");
    let results = tempfile::tempdir().expect("temp dir");
    let node_modules = std::env::var_os("ROOFLINR_NODE_WS").map(std::path::PathBuf::from);
    if kind == Clients::NodeWs && node_modules.is_none() {
        return Err(
            "skipped: ROOFLINR_NODE_WS does not name Node's `ws` (`cargo xtask bench` installs it)"
                .into(),
        );
    }
    let mut agent = Command::new(env!("CARGO_BIN_EXE_rooflinr-agent"))
        .args([
            "--listen",
            &addr,
            "--token",
            TOKEN,
            "--telemetry-hz",
            "100",
            "--results",
        ])
        .arg(results.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the agent starts");
    let pid = Pid::from_u32(agent.id());
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let received = runtime.block_on(async {
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(&addr).await.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // Connect everyone, let the subscriptions settle, then measure a fixed window.
        let start = Instant::now() + Duration::from_secs(2);
        let until = start + Duration::from_secs(seconds);
        let counts = match kind {
            Clients::Tungstenite => {
                let tasks: Vec<_> = (0..clients)
                    .map(|_| tokio::spawn(client(addr.clone(), until)))
                    .collect();
                tokio::time::sleep_until(start.into()).await;
                let mut system = System::new();
                let (cpu_before, _) = agent_usage(&mut system, pid);
                let window = Instant::now();
                let mut counts = Vec::new();
                for t in tasks {
                    counts.push(t.await.expect("client"));
                }
                // Counts include the 2 s of settling.
                let connected = window.elapsed().as_secs_f64() + 2.0;
                Ok(((counts, connected), cpu_before, window))
            }
            Clients::NodeWs => {
                let (addr, modules) = (addr.clone(), node_modules.clone().unwrap_or_default());
                let node = tokio::task::spawn_blocking(move || {
                    node_clients(&modules, &addr, clients, seconds)
                });
                tokio::time::sleep_until(start.into()).await;
                let mut system = System::new();
                let (cpu_before, _) = agent_usage(&mut system, pid);
                let window = Instant::now();
                node.await
                    .expect("node's clients")
                    .map(|counts| (counts, cpu_before, window))
            }
        };
        counts.map(|(counts, cpu_before, window)| {
            let elapsed = window.elapsed().as_secs_f64();
            let mut system = System::new();
            let (cpu_after, rss) = agent_usage(&mut system, pid);
            (counts, cpu_after - cpu_before, rss, elapsed)
        })
    });
    let _ = agent.kill();
    let _ = agent.wait();
    let ((counts, connected), cpu_ms, rss, elapsed) = received?;
    // Rates are over each client's whole connection time.
    let rates: Vec<f64> = counts.iter().map(|c| *c as f64 / connected).collect();
    let min = rates.iter().copied().fold(f64::INFINITY, f64::min);
    let mean = rates.iter().sum::<f64>() / rates.len().max(1) as f64;
    Ok(format!(
        "each received {min:.1} to {mean:.1} samples/s (min, mean); agent CPU {:.2} % of one core; agent memory {:.1} MB",
        cpu_ms as f64 / 1000.0 / elapsed * 100.0,
        rss as f64 / 1e6
    ))
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is taken from the command line.
    let clients = setting("ROOFLINR_FANOUT_CLIENTS", 50, 500) as usize;
    let seconds = setting("ROOFLINR_FANOUT_SECONDS", 20, 300);
    for (kind, name) in [
        (
            Clients::Tungstenite,
            "tokio-tungstenite clients in the bench's process",
        ),
        (Clients::NodeWs, "Node `ws` clients in a Node process"),
    ] {
        let line = run(kind, clients, seconds).unwrap_or_else(|e| e);
        println!("telemetry fan-out, {clients} {name}, {seconds} s at 100 Hz: {line}");
    }
}
