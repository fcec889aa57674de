//! Telemetry: one sampling task per source on a `tokio::time::interval` that skips missed
//! ticks. The host task refreshes CPU utilisation, frequency and memory five times a second
//! (utilisation needs a window of a few hundred milliseconds to mean anything); the main
//! task ticks at the configured rate (100 Hz by default), reads every GPU through NVML on
//! the blocking pool, joins the latest host values, and publishes the sample on a `watch`
//! (latest value) and a `broadcast` (the stream; a slow subscriber skips ahead).

mod host;
pub mod nvml;

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::ws::Utf8Bytes;
use rooflinr_protocol::{HostSample, NvmlStatus, ServerMessage, TelemetrySample, encode};
use tokio::sync::{broadcast, watch};
use tokio::time::MissedTickBehavior;

/// Samples the stream holds for slow subscribers before they skip ahead (10 s at 100 Hz).
const STREAM_CAPACITY: usize = 1024;
/// The host source's period.
const HOST_PERIOD: Duration = Duration::from_millis(200);

/// One sample as it is published: serialised once, here, for every subscriber, so a
/// connection's only work per sample is the send.
#[derive(Debug)]
pub struct Published {
    /// The sample.
    pub sample: TelemetrySample,
    /// The WebSocket message `{"type":"telemetry",...}`, ready to send.
    pub message: Utf8Bytes,
    /// The sample alone as JSON (the server-sent events' data).
    pub json: String,
}

impl Published {
    fn new(sample: TelemetrySample) -> Published {
        let json = encode(&sample);
        let message = encode(&ServerMessage::Telemetry(sample.clone())).into();
        Published {
            sample,
            message,
            json,
        }
    }
}

/// The running telemetry sources.
pub struct Telemetry {
    /// The latest sample.
    pub latest: watch::Receiver<Option<TelemetrySample>>,
    /// Every sample, serialised once for all subscribers.
    pub stream: broadcast::Sender<Arc<Published>>,
    /// NVML's state.
    pub nvml: NvmlStatus,
    /// Samples per second.
    pub hz: f64,
}

impl Telemetry {
    /// Starts the sources on the current runtime; `hz` is clamped to 1..=1000.
    pub fn start(hz: f64) -> Telemetry {
        let hz = if hz.is_finite() {
            hz.clamp(1.0, 1000.0)
        } else {
            100.0
        };
        let (gpus, nvml) = nvml::Gpus::open();
        let gpus = gpus.map(Arc::new);
        let (host_tx, mut host_rx) = watch::channel(HostSample::default());
        // `host_rx` reports the default as seen, so the first `changed` is a real sample.
        let (latest_tx, latest) = watch::channel(None);
        let (stream, _) = broadcast::channel(STREAM_CAPACITY);

        tokio::spawn(async move {
            let mut host = host::HostSampler::new();
            // The first sample needs a full period of CPU counters behind it.
            let first = tokio::time::Instant::now() + HOST_PERIOD;
            let mut tick = tokio::time::interval_at(first, HOST_PERIOD);
            tick.set_missed_tick_behavior(MissedTickBehavior::Skip);
            loop {
                tick.tick().await;
                let (sampler, sample) = match tokio::task::spawn_blocking(move || {
                    let sample = host.sample();
                    (host, sample)
                })
                .await
                {
                    Ok(done) => done,
                    Err(_) => return,
                };
                host = sampler;
                if host_tx.send(sample).is_err() {
                    return;
                }
            }
        });

        let sender = stream.clone();
        tokio::spawn(async move {
            // No sample goes out before the host has really been read once.
            if host_rx.changed().await.is_err() {
                return;
            }
            let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / hz));
            tick.set_missed_tick_behavior(MissedTickBehavior::Skip);
            let mut seq = 0u64;
            loop {
                tick.tick().await;
                let gpus = match &gpus {
                    Some(g) => {
                        let g = Arc::clone(g);
                        tokio::task::spawn_blocking(move || g.sample())
                            .await
                            .unwrap_or_default()
                    }
                    None => Vec::new(),
                };
                let sample = TelemetrySample {
                    seq,
                    unix_ms: SystemTime::now()
                        .duration_since(UNIX_EPOCH)
                        .map(|d| d.as_millis() as u64)
                        .unwrap_or(0),
                    host: *host_rx.borrow(),
                    gpus,
                };
                seq += 1;
                // Serialised only when someone listens; no subscribers is fine, the latest
                // value is still kept.
                if sender.receiver_count() > 0 {
                    let _ = sender.send(Arc::new(Published::new(sample.clone())));
                }
                if latest_tx.send(Some(sample)).is_err() {
                    return;
                }
            }
        });

        Telemetry {
            latest,
            stream,
            nvml,
            hz,
        }
    }
}
