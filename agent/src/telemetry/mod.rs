//! Telemetry: one sampling task per source on a `tokio::time::interval` that skips missed
//! ticks. The host task refreshes CPU utilisation, frequency and memory five times a second
//! (utilisation needs a window of a few hundred milliseconds to mean anything); the main
//! task ticks at the configured rate (100 Hz by default), reads every GPU through NVML on
//! the blocking pool, joins the latest host values, and publishes the sample on a `watch`
//! (latest value) and, gathered into deliveries of [`DELIVERY_PERIOD`], on a `broadcast`
//! (the stream; a slow subscriber skips ahead).

mod host;
pub mod nvml;

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::ws::Utf8Bytes;
use rooflinr_protocol::{HostSample, NvmlStatus, ServerMessage, TelemetrySample, encode};
use tokio::sync::{broadcast, watch};
use tokio::time::MissedTickBehavior;

/// What the stream holds for slow subscribers before they skip ahead.
const STREAM_SPAN: Duration = Duration::from_secs(10);
/// How often samples go out to subscribers. At rates above 40 Hz the samples of this span go
/// out together, each still its own message, so that a connection wakes and writes to its
/// socket once per delivery rather than once per sample: on loopback each `send` costs the
/// sender both ends' TCP processing, and at 100 Hz to 50 clients one write per sample was
/// 5,000 `sendto` calls a second and 8 % of a core. 25 ms is under two frames of a 60 Hz
/// display.
pub const DELIVERY_PERIOD: Duration = Duration::from_millis(25);
/// The host source's period.
const HOST_PERIOD: Duration = Duration::from_millis(200);

/// Consecutive samples as they are published together (one, at 40 Hz or less): each
/// serialised once, here, for every subscriber, so a connection's only work per delivery is
/// its sends.
#[derive(Debug)]
pub struct Published {
    /// Each sample's WebSocket message `{"type":"telemetry",...}`, ready to send, oldest
    /// first.
    pub messages: Vec<Utf8Bytes>,
    /// Each sample alone as JSON (the server-sent events' data), oldest first.
    pub json: Vec<String>,
}

impl Published {
    fn new(samples: &[TelemetrySample]) -> Published {
        Published {
            messages: samples
                .iter()
                .map(|s| encode(&ServerMessage::Telemetry(s.clone())).into())
                .collect(),
            json: samples.iter().map(encode).collect(),
        }
    }
}

/// Samples per delivery at `hz`: those of [`DELIVERY_PERIOD`], at least one.
pub fn samples_per_delivery(hz: f64) -> usize {
    (hz * DELIVERY_PERIOD.as_secs_f64()).round().max(1.0) as usize
}

/// The running telemetry sources.
pub struct Telemetry {
    /// The latest sample.
    pub latest: watch::Receiver<Option<TelemetrySample>>,
    /// Every sample, serialised once for all subscribers, in deliveries of
    /// [`samples_per_delivery`].
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
        let per_delivery = samples_per_delivery(hz);
        let held = (STREAM_SPAN.as_secs_f64() * hz / per_delivery as f64).ceil() as usize;
        let (stream, _) = broadcast::channel(held.max(16));

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
            let mut delivery: Vec<TelemetrySample> = Vec::with_capacity(per_delivery);
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
                    delivery.push(sample.clone());
                    if delivery.len() == per_delivery {
                        let _ = sender.send(Arc::new(Published::new(&delivery)));
                        delivery.clear();
                    }
                } else {
                    delivery.clear();
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

#[cfg(test)]
mod tests {
    use super::samples_per_delivery;

    #[test]
    fn fast_samples_go_out_together_and_slow_ones_alone() {
        // 25 ms of samples: at 100 Hz 2.5, rounded to 3; one at 40 Hz and below.
        assert_eq!(samples_per_delivery(100.0), 3);
        assert_eq!(samples_per_delivery(1000.0), 25);
        assert_eq!(samples_per_delivery(40.0), 1);
        assert_eq!(samples_per_delivery(1.0), 1);
    }
}
