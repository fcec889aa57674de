//! Small live charts of the agent's telemetry.

use leptos::prelude::*;
use rooflinr_protocol::TelemetrySample;

use crate::lab::link::{Lab, LinkState};
use crate::lab::{SPARK_H, SPARK_W, sparkline};
/// One telemetry series: label, unit, and how to read it from a sample.
struct Series {
    label: &'static str,
    unit: &'static str,
    read: fn(&TelemetrySample) -> Option<f64>,
}

const GPU_SERIES: [Series; 5] = [
    Series {
        label: "SM clock",
        unit: "MHz",
        read: |s| s.gpus.first()?.sm_clock_mhz.map(f64::from),
    },
    Series {
        label: "Power",
        unit: "W",
        read: |s| s.gpus.first()?.power_w,
    },
    Series {
        label: "Temperature",
        unit: "°C",
        read: |s| s.gpus.first()?.temperature_c.map(f64::from),
    },
    Series {
        label: "GPU memory",
        unit: "GiB",
        read: |s| {
            s.gpus
                .first()?
                .mem_used_bytes
                .map(|b| b as f64 / (1u64 << 30) as f64)
        },
    },
    Series {
        label: "GPU utilisation",
        unit: "%",
        read: |s| s.gpus.first()?.util_gpu_pct.map(f64::from),
    },
];

const HOST_SERIES: [Series; 3] = [
    Series {
        label: "CPU utilisation",
        unit: "%",
        read: |s| Some(s.host.cpu_util_pct),
    },
    Series {
        label: "CPU clock",
        unit: "MHz",
        read: |s| Some(s.host.cpu_freq_mhz).filter(|f| *f > 0.0),
    },
    Series {
        label: "Host memory",
        unit: "GiB",
        read: |s| Some(s.host.mem_used_bytes as f64 / (1u64 << 30) as f64),
    },
];

/// Small live charts of the agent's telemetry.
#[component]
pub(super) fn TelemetryStrip() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let has_gpu = move || {
        lab.telemetry
            .with(|t| t.samples.back().is_some_and(|s| !s.gpus.is_empty()))
    };
    let nvml_reason = move || match lab.link.get() {
        LinkState::Connected { hello, .. } if !hello.nvml.available => hello.nvml.reason.clone(),
        _ => None,
    };
    let chart = move |series: &'static Series| {
        let values = move || {
            lab.telemetry.with(|t| {
                t.samples
                    .iter()
                    .filter_map(series.read)
                    .collect::<Vec<f64>>()
            })
        };
        view! {
            <figure class="spark">
                <figcaption>
                    <span>{series.label}</span>
                    <strong>{move || values().last().map_or("–".to_string(), |v| format!("{v:.0} {}", series.unit))}</strong>
                </figcaption>
                <svg viewBox=format!("0 0 {SPARK_W} {SPARK_H}") width=SPARK_W height=SPARK_H aria-hidden="true">
                    <polyline points=move || sparkline(&values()) fill="none" stroke="currentColor" stroke-width="1.5"></polyline>
                </svg>
            </figure>
        }
    };
    let throttle = move || {
        lab.telemetry.with(|t| {
            t.samples.back().and_then(|s| s.gpus.first()).map(|g| {
                if g.throttle_reasons.is_empty() {
                    "Clocks: not throttled".to_string()
                } else {
                    format!("Clocks held back by: {}", g.throttle_reasons.join(", "))
                }
            })
        })
    };
    view! {
        <div class="card telemetry" id="telemetry">
            <div class="sparks">
                <Show when=has_gpu>{GPU_SERIES.iter().map(chart).collect_view()}</Show>
                {HOST_SERIES.iter().map(chart).collect_view()}
            </div>
            <p class="hint">
                {move || throttle().unwrap_or_default()}
                {move || nvml_reason().map(|r| format!("GPU telemetry: {r}"))}
                {move || lab.telemetry.with(|t| t.samples.is_empty()).then_some("Waiting for the first telemetry sample…")}
            </p>
        </div>
    }
}
