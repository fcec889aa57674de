//! The WebSocket to a `rooflinr-agent`: connect with the token as a second subprotocol,
//! say hello, subscribe to telemetry, route every message into the lab's signals, and
//! reconnect with back-off when the connection drops. When a connection fails before the
//! agent says hello, a no-cors request to its health endpoint tells "nothing listens
//! there" from "it answered but refused us" (wrong token or origin), so the message can
//! say which.

use std::collections::VecDeque;
use std::time::Duration;

use leptos::prelude::*;
use rooflinr_protocol::{
    AgentHello, Budget, ClientMessage, ErrorCode, Finished, JobId, JobKind, JobRequest, JobResult,
    JobState, JobStatus, PROTOCOL_VERSION, Progress, Queued, Refusal, ServerMessage, Started,
    TOKEN_SUBPROTOCOL_PREFIX, TelemetrySample, WS_SUBPROTOCOL, decode, encode,
};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

use super::energy::EnergyWindow;
use super::{LabData, Pairing, backoff_s, ws_url};
use crate::{browser, split_point};

/// Telemetry kept for the charts (30 s at 100 Hz).
pub const TELEMETRY_KEEP: usize = 3000;
/// The charts redraw at most this often, ms.
const REDRAW_MS: f64 = 50.0;

/// The connection as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkState {
    /// No agent chosen.
    Unpaired,
    /// Opening the connection.
    Connecting {
        /// The agent's address.
        agent: String,
    },
    /// Paired: the agent said hello.
    Connected {
        /// The agent's address.
        agent: String,
        /// What it said.
        hello: Box<AgentHello>,
    },
    /// The connection failed or dropped; another attempt is scheduled.
    Retrying {
        /// The agent's address.
        agent: String,
        /// Seconds until the next attempt.
        in_s: u32,
        /// What went wrong.
        reason: String,
    },
    /// The agent refused for good (protocol version); no retry.
    Refused {
        /// Why.
        reason: String,
    },
}

/// A job the agent is running or has queued.
#[derive(Clone, Debug, PartialEq)]
pub struct JobView {
    /// Its id, once the agent said it.
    pub id: Option<JobId>,
    /// `ceilings` or `sweep`.
    pub what: &'static str,
    /// Position in the queue (0: running).
    pub position: usize,
    /// Points measured.
    pub done: usize,
    /// Points in all.
    pub total: usize,
    /// What is being measured now.
    pub current: String,
    /// Estimated seconds left.
    pub eta_s: Option<f64>,
}

/// The latest telemetry, redrawn at most every [`REDRAW_MS`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Telemetry {
    /// Oldest first.
    pub samples: VecDeque<TelemetrySample>,
}

struct Socket {
    ws: WebSocket,
    _on_open: Closure<dyn FnMut()>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_close: Closure<dyn FnMut(CloseEvent)>,
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.ws.set_onopen(None);
        self.ws.set_onmessage(None);
        self.ws.set_onclose(None);
        let _ = self.ws.close();
    }
}

/// Everything about the agent the page knows, shared through context.
#[derive(Clone, Copy)]
pub struct Lab {
    /// The connection.
    pub link: RwSignal<LinkState>,
    /// Measurements and imports (saved in the browser).
    pub data: RwSignal<LabData>,
    /// The job in progress.
    pub job: RwSignal<Option<JobView>>,
    /// The last thing worth telling the user (an error, a finished job).
    pub notice: RwSignal<Option<String>>,
    /// Telemetry for the charts.
    pub telemetry: RwSignal<Telemetry>,
    /// The energy window the user opened around a serving benchmark, if any.
    pub energy: RwSignal<Option<EnergyWindow>>,
    pairing: StoredValue<Option<Pairing>>,
    socket: StoredValue<Option<Socket>, LocalStorage>,
    generation: StoredValue<u64>,
    attempt: StoredValue<u32>,
    last_draw: StoredValue<f64>,
}

impl Lab {
    /// A lab holding `data`, not paired.
    pub fn new(data: LabData) -> Lab {
        Lab {
            link: RwSignal::new(LinkState::Unpaired),
            data: RwSignal::new(data),
            job: RwSignal::new(None),
            notice: RwSignal::new(None),
            telemetry: RwSignal::new(Telemetry::default()),
            energy: RwSignal::new(None),
            pairing: StoredValue::new(None),
            socket: StoredValue::new_local(None),
            generation: StoredValue::new(0),
            attempt: StoredValue::new(0),
            last_draw: StoredValue::new(0.0),
        }
    }

    /// The agent paired with (or being paired with).
    pub fn pairing(&self) -> Option<Pairing> {
        self.pairing.get_value()
    }

    /// Pairs with `pairing` (dropping any previous connection).
    pub fn pair(self, pairing: Pairing) {
        browser::save_pairing(&pairing.to_fragment());
        self.pairing.set_value(Some(pairing));
        self.attempt.set_value(0);
        self.connect();
    }

    /// Closes the connection and forgets the agent.
    pub fn unpair(self) {
        self.generation.update_value(|g| *g += 1);
        self.socket.set_value(None);
        self.pairing.set_value(None);
        browser::forget_pairing();
        self.job.set(None);
        self.link.set(LinkState::Unpaired);
    }

    /// Opens the connection once the lab's code is loaded ([`load_and_open`]).
    fn connect(self) {
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = load_and_open(self).await {
                self.link.set(LinkState::Refused {
                    reason: e.to_string(),
                });
            }
        });
    }

    /// Opens the WebSocket to the agent paired with now, if any, dropping the previous one.
    fn open_socket(self) {
        let Some(pairing) = self.pairing.get_value() else {
            return;
        };
        self.generation.update_value(|g| *g += 1);
        let generation = self.generation.get_value();
        self.socket.set_value(None);
        let agent = pairing.agent.clone();
        let url = match ws_url(&agent) {
            Ok(u) => u,
            Err(e) => {
                self.link.set(LinkState::Refused { reason: e });
                return;
            }
        };
        let protocols = js_sys::Array::of2(
            &JsValue::from_str(WS_SUBPROTOCOL),
            &JsValue::from_str(&format!("{TOKEN_SUBPROTOCOL_PREFIX}{}", pairing.token)),
        );
        let ws = match WebSocket::new_with_str_sequence(&url, &protocols) {
            Ok(ws) => ws,
            Err(e) => {
                let reason = e
                    .dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
                    .unwrap_or_else(|| format!("cannot open {url}"));
                self.link.set(LinkState::Refused { reason });
                return;
            }
        };
        self.link.set(LinkState::Connecting {
            agent: agent.clone(),
        });
        let current = move || self.generation.get_value() == generation;

        let on_open = Closure::<dyn FnMut()>::new(move || {
            if current() {
                self.send_now(&ClientMessage::Hello {
                    protocol: PROTOCOL_VERSION,
                    client: "rooflinr-web".into(),
                });
                self.send_now(&ClientMessage::Subscribe { telemetry: true });
            }
        });
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            if !current() {
                return;
            }
            if let Some(text) = ev.data().as_string() {
                match decode::<ServerMessage>(text.as_bytes()) {
                    Ok(m) => self.receive(m),
                    Err(e) => self.notice.set(Some(format!(
                        "the agent sent a message this page cannot read: {e}"
                    ))),
                }
            }
        });
        let agent_for_close = agent.clone();
        let on_close = Closure::<dyn FnMut(CloseEvent)>::new(move |ev: CloseEvent| {
            if !current() {
                return;
            }
            let was_connected = matches!(self.link.get_untracked(), LinkState::Connected { .. });
            self.job.set(None);
            if matches!(self.link.get_untracked(), LinkState::Refused { .. }) {
                return;
            }
            let reason = if was_connected {
                format!("the connection closed ({})", close_reason(&ev))
            } else {
                String::new()
            };
            self.retry(agent_for_close.clone(), reason, was_connected);
        });
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        self.socket.set_value(Some(Socket {
            ws,
            _on_open: on_open,
            _on_message: on_message,
            _on_close: on_close,
        }));
    }

    /// Schedules the next attempt; when the agent never said hello, first finds out why.
    fn retry(self, agent: String, reason: String, was_connected: bool) {
        let attempt = self.attempt.get_value();
        self.attempt.set_value(attempt + 1);
        let in_s = backoff_s(attempt);
        let generation = self.generation.get_value();
        let health = format!("{}/api/health", agent.trim_end_matches('/'));
        let agent_shown = agent.clone();
        let schedule = move |reason: String| {
            if self.generation.get_value() != generation {
                return;
            }
            self.link.set(LinkState::Retrying {
                agent: agent.clone(),
                in_s,
                reason,
            });
            set_timeout(
                move || {
                    if self.generation.get_value() == generation {
                        self.connect();
                    }
                },
                Duration::from_secs(u64::from(in_s)),
            );
        };
        if was_connected {
            schedule(reason);
            return;
        }
        wasm_bindgen_futures::spawn_local(async move {
            let reason = if browser::reachable(&health).await {
                format!(
                    "the agent at {agent_shown} answered but refused the connection: check the token (the agent prints it with the pairing link), or start the agent with --allow-origin {}",
                    browser::origin()
                )
            } else {
                format!(
                    "nothing answers at {agent_shown}: is rooflinr-agent running there? For a remote machine, tunnel it first (ssh -L 7878:127.0.0.1:7878 HOST)"
                )
            };
            schedule(reason);
        });
    }

    /// Sends `message` once the lab's code is loaded (it is, once connected).
    fn send(self, message: ClientMessage) {
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = load_and_send(self, message).await {
                self.notice
                    .set(Some(format!("Nothing was sent to the agent: {e}.")));
            }
        });
    }

    /// Sends `message` if connected.
    fn send_now(&self, message: &ClientMessage) {
        self.socket.with_value(|s| {
            if let Some(s) = s {
                let _ = s.ws.send_with_str(&encode(message));
            }
        });
    }

    fn receive(self, message: ServerMessage) {
        match message {
            ServerMessage::Hello(hello) => {
                self.attempt.set_value(0);
                let agent = self
                    .pairing
                    .get_value()
                    .map(|p| p.agent)
                    .unwrap_or_default();
                self.link.set(LinkState::Connected {
                    agent,
                    hello: Box::new(hello),
                });
            }
            ServerMessage::Queued(Queued { job, position }) => self.job.update(|j| {
                if let Some(j) = j
                    .as_mut()
                    .filter(|j| j.id.as_ref().is_none_or(|id| *id == job))
                {
                    j.id = Some(job);
                    j.position = position;
                }
            }),
            ServerMessage::Started(Started { job, total }) => self.job.update(|j| {
                let j = j.get_or_insert_with(|| JobView::new("measurement"));
                j.id = Some(job);
                j.position = 0;
                j.total = total;
            }),
            ServerMessage::Progress(Progress {
                job,
                done,
                total,
                current,
                eta_s,
            }) => self.job.update(|j| {
                let j = j.get_or_insert_with(|| JobView::new("measurement"));
                j.id = Some(job);
                j.position = 0;
                (j.done, j.total, j.current, j.eta_s) = (done, total, current, eta_s);
            }),
            ServerMessage::Result(JobResult { measurement, .. }) => {
                self.data.update(|d| d.measurements.push(*measurement));
            }
            ServerMessage::Finished(Finished {
                state,
                results,
                error,
                ..
            }) => {
                let what = self.job.get_untracked().map_or("measurement", |j| j.what);
                self.job.set(None);
                self.notice.set(Some(match (state, error) {
                    (JobState::Completed, _) => {
                        format!("The {what} finished: {results} point(s) measured and checked.")
                    }
                    (JobState::Cancelled, _) => format!(
                        "The {what} was cancelled; its {results} measured point(s) are kept."
                    ),
                    (_, Some(e)) => format!("The {what} failed: {e}"),
                    (s, None) => format!("The {what} ended ({s:?})."),
                }));
            }
            ServerMessage::Telemetry(sample) => self.telemetry_sample(sample),
            ServerMessage::Error(Refusal { code, message }) => {
                if code == ErrorCode::Version {
                    self.generation.update_value(|g| *g += 1);
                    self.link.set(LinkState::Refused {
                        reason: message.clone(),
                    });
                }
                if code == ErrorCode::Invalid {
                    self.job.set(None);
                }
                self.notice.set(Some(format!("The agent says: {message}")));
            }
            ServerMessage::Status(JobStatus { .. }) => {}
        }
    }

    /// Keeps every sample but wakes the charts at most every [`REDRAW_MS`]: samples are
    /// added without notifying, and a notification goes out when a redraw is due.
    fn telemetry_sample(self, sample: TelemetrySample) {
        self.energy.update_untracked(|w| {
            if let Some(w) = w {
                w.observe(&sample);
            }
        });
        self.telemetry.update_untracked(|t| {
            t.samples.push_back(sample);
            while t.samples.len() > TELEMETRY_KEEP {
                t.samples.pop_front();
            }
        });
        let now = browser::now_ms();
        if now - self.last_draw.get_value() >= REDRAW_MS {
            self.last_draw.set_value(now);
            self.telemetry.notify();
            if self
                .energy
                .with_untracked(|w| w.as_ref().is_some_and(|w| w.open))
            {
                self.energy.notify();
            }
        }
    }

    /// Asks the agent to measure its ceilings.
    pub fn measure_ceilings(self, max_seconds: f64) {
        self.submit("ceilings", JobKind::Ceilings, max_seconds);
    }

    /// Asks the agent to measure every shape in every format.
    pub fn measure_sweep(
        self,
        shapes: Vec<rooflinr_protocol::OperatorShape>,
        formats: Vec<rooflinr_model::format::Format>,
        max_seconds: f64,
    ) {
        self.submit("sweep", JobKind::Operators { shapes, formats }, max_seconds);
    }

    fn submit(self, what: &'static str, kind: JobKind, max_seconds: f64) {
        self.notice.set(None);
        self.job.set(Some(JobView::new(what)));
        self.send(ClientMessage::Measure {
            request: JobRequest {
                kind,
                backend: None,
                budget: Some(Budget {
                    max_seconds,
                    max_noise: 0.005,
                    min_samples: 10,
                }),
            },
        });
    }

    /// Cancels the job in progress.
    pub fn cancel(self) {
        if let Some(id) = self.job.get_untracked().and_then(|j| j.id) {
            self.send(ClientMessage::Cancel { job: id });
        }
    }
}

impl JobView {
    fn new(what: &'static str) -> JobView {
        JobView {
            id: None,
            what,
            position: 0,
            done: 0,
            total: 0,
            current: String::new(),
            eta_s: None,
        }
    }
}

split_point! {
    lab,
    /// Opens the WebSocket to the paired agent ([`Lab::open_socket`]), its code loaded
    /// with the lab's ([`super::lazy`]).
    pub fn load_and_open(lab: Lab) {
        lab.open_socket();
    }
}

split_point! {
    lab,
    /// Sends `message` to the agent, if connected ([`Lab::send_now`]).
    pub fn load_and_send(lab: Lab, message: ClientMessage) {
        lab.send_now(&message);
    }
}

fn close_reason(ev: &CloseEvent) -> String {
    let reason = ev.reason();
    match (ev.code(), reason.is_empty()) {
        (1006, _) => "the agent stopped or the network dropped".into(),
        (code, true) => format!("code {code}"),
        (code, false) => format!("code {code}: {reason}"),
    }
}
