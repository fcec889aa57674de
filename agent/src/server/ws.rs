//! The calculator's WebSocket. The token arrives in the handshake (checked by the
//! guard); the first message must be a hello with our protocol version. Each socket is
//! split into a receive task (decodes requests, answers them) and a send task (forwards
//! answers, job events and, when subscribed, telemetry), joined with `select!`. Closing
//! the socket stops nothing: jobs go on, and a new socket gets their results with
//! `status`.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use rooflinr_protocol::{
    AgentHello, ClientMessage, ErrorCode, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ProtocolError,
    Queued, Refusal, ServerMessage, WS_SUBPROTOCOL, check_version, decode, encode,
};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

use super::AppState;
use crate::jobs::JobError;

/// Upgrades `GET /ws`.
pub async fn upgrade(State(state): State<Arc<AppState>>, ws: WebSocketUpgrade) -> Response {
    ws.protocols([WS_SUBPROTOCOL])
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| connection(socket, state))
}

/// What the receive task asks the send task to do.
enum Outgoing {
    Message(ServerMessage),
    /// The hello was accepted: forward job events from now on.
    Greeted,
    /// Start or stop forwarding telemetry.
    Telemetry(bool),
    Close(u16, String),
}

fn hello(state: &AppState) -> ServerMessage {
    ServerMessage::Hello(AgentHello {
        protocol: PROTOCOL_VERSION,
        agent_version: env!("CARGO_PKG_VERSION").into(),
        host: sysinfo::System::host_name().unwrap_or_default(),
        backends: state.jobs.backends().iter().map(|b| b.info()).collect(),
        nvml: state.telemetry.nvml.clone(),
        telemetry_hz: state.telemetry.hz,
        max_message_bytes: MAX_MESSAGE_BYTES,
    })
}

fn refusal(code: ErrorCode, message: impl Into<String>) -> Outgoing {
    Outgoing::Message(ServerMessage::Error(Refusal {
        code,
        message: message.into(),
    }))
}

async fn connection(socket: WebSocket, state: Arc<AppState>) {
    let (mut sink, mut stream) = socket.split();
    let (out_tx, mut out_rx) = mpsc::channel::<Outgoing>(64);

    let send_state = Arc::clone(&state);
    let mut send_task = tokio::spawn(async move {
        let mut events = send_state.jobs.subscribe();
        let mut telemetry = send_state.telemetry.stream.subscribe();
        let (mut events_on, mut telemetry_on) = (false, false);
        loop {
            let message = tokio::select! {
                // Answers first, so a client sees `queued` before its job's events.
                biased;
                out = out_rx.recv() => match out {
                    Some(Outgoing::Message(m)) => Message::Text(encode(&m).into()),
                    Some(Outgoing::Greeted) => {
                        events_on = true;
                        events = events.resubscribe();
                        continue;
                    }
                    Some(Outgoing::Telemetry(on)) => {
                        telemetry_on = on;
                        telemetry = telemetry.resubscribe();
                        continue;
                    }
                    Some(Outgoing::Close(code, reason)) => {
                        let frame = CloseFrame { code, reason: reason.into() };
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        return;
                    }
                    None => return,
                },
                event = events.recv(), if events_on => match event {
                    Ok(m) => Message::Text(encode(&m).into()),
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return,
                },
                delivery = telemetry.recv(), if telemetry_on => match delivery {
                    // Each sample its own message, the delivery's one write (the last
                    // message's send flushes them all).
                    Ok(published) => {
                        let Some((last, earlier)) = published.messages.split_last() else {
                            continue;
                        };
                        for m in earlier {
                            if sink.feed(Message::Text(m.clone())).await.is_err() {
                                return;
                            }
                        }
                        Message::Text(last.clone())
                    }
                    // A slow client skips ahead; it is never dropped for lagging.
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return,
                },
            };
            if sink.send(message).await.is_err() {
                return;
            }
        }
    });

    let recv_state = Arc::clone(&state);
    let mut recv_task = tokio::spawn(async move {
        let mut greeted = false;
        while let Some(frame) = stream.next().await {
            let bytes = match frame {
                Ok(Message::Text(text)) => text.as_bytes().to_vec(),
                Ok(Message::Binary(bytes)) => bytes.to_vec(),
                Ok(Message::Close(_)) => break,
                Ok(Message::Ping(_) | Message::Pong(_)) => continue,
                Err(e) => {
                    // The only read error a client can cause is a message over the limit.
                    let reason = format!("message refused: {e}");
                    let _ = out_tx
                        .send(Outgoing::Close(close_code::SIZE, truncate(&reason)))
                        .await;
                    break;
                }
            };
            let reply = match decode::<ClientMessage>(&bytes) {
                Err(e @ ProtocolError::TooLarge { .. }) => {
                    let _ = out_tx
                        .send(Outgoing::Close(close_code::SIZE, truncate(&e.to_string())))
                        .await;
                    break;
                }
                Err(e) => refusal(ErrorCode::Malformed, e.to_string()),
                Ok(ClientMessage::Hello { protocol, .. }) => match check_version(protocol) {
                    Ok(()) => {
                        greeted = true;
                        let _ = out_tx.send(Outgoing::Greeted).await;
                        Outgoing::Message(hello(&recv_state))
                    }
                    Err(e) => {
                        let _ = out_tx
                            .send(refusal(ErrorCode::Version, e.to_string()))
                            .await;
                        let _ = out_tx
                            .send(Outgoing::Close(
                                close_code::PROTOCOL,
                                "protocol version".into(),
                            ))
                            .await;
                        break;
                    }
                },
                Ok(_) if !greeted => refusal(
                    ErrorCode::Version,
                    format!("send hello with protocol {PROTOCOL_VERSION} first"),
                ),
                Ok(ClientMessage::Subscribe { telemetry }) => Outgoing::Telemetry(telemetry),
                Ok(ClientMessage::Measure { request }) => match recv_state.jobs.submit(request) {
                    Ok((job, position)) => {
                        Outgoing::Message(ServerMessage::Queued(Queued { job, position }))
                    }
                    Err(e) => refusal(e.code(), e.to_string()),
                },
                Ok(ClientMessage::Cancel { job }) => match recv_state.jobs.cancel(&job) {
                    Ok(()) => continue,
                    Err(e) => refusal(e.code(), e.to_string()),
                },
                Ok(ClientMessage::Status { job }) => match recv_state.jobs.status(&job) {
                    Some(status) => Outgoing::Message(ServerMessage::Status(status)),
                    None => {
                        let e = JobError::UnknownJob(job);
                        refusal(e.code(), e.to_string())
                    }
                },
            };
            if out_tx.send(reply).await.is_err() {
                break;
            }
        }
    });

    tokio::select! {
        _ = &mut send_task => recv_task.abort(),
        _ = &mut recv_task => {
            // The send task drains what it was handed (a close frame, say), then ends.
            if tokio::time::timeout(Duration::from_secs(1), &mut send_task).await.is_err() {
                send_task.abort();
            }
        }
    }
}

/// Close reasons are limited to 123 bytes.
fn truncate(reason: &str) -> String {
    let mut end = reason.len().min(120);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    reason[..end].to_string()
}
