//! The energy window in Many GPUs mode: the paired host's energy over a window the user
//! opens and closes around a serving benchmark run on it, and, with that run's file
//! imported, its joules per output token beside the prediction's. It is the lab's code,
//! loaded with the pairing ([`crate::split`]).

use leptos::prelude::*;
use rooflinr_model::deploy::energy::GpuPower;

use crate::compute::Imported;
use crate::lab::energy::EnergyWindow;
use crate::lab::link::{Lab, LinkState};

/// The window's button and what it recorded.
#[component]
pub fn EnergyWindowPanel(
    /// The imported runs.
    imported: Imported,
    /// GPUs of the deployment.
    gpus: u32,
    /// The device's board power, where the registry has one.
    board: Option<GpuPower>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    // Whether the paired host reads energy counters.
    let nvml = move || {
        lab.link.with(|l| match l {
            LinkState::Connected { hello, .. } => hello.nvml.available && hello.nvml.gpus > 0,
            _ => false,
        })
    };
    let recording = move || lab.energy.with(|w| w.as_ref().is_some_and(|w| w.open));
    let toggle = move |_| {
        lab.energy.update(|w| match w {
            Some(open) if open.open => open.close(),
            _ => *w = Some(EnergyWindow::open()),
        })
    };
    let status = move || {
        if !nvml() {
            return "The paired host has no NVML GPUs: there is no energy counter to read, so no energy is measured.".to_string();
        }
        lab.energy.with(|w| match w {
            None => "Open the window, run the benchmark on the paired host, then close it: the GPUs' energy counters over that window, over the run's output tokens.".to_string(),
            Some(w) if w.open => format!(
                "Recording the GPUs' energy counters: {} samples over {:.0} s.",
                w.samples,
                w.seconds()
            ),
            Some(w) => energy_window_text(w, &imported, gpus, board.as_ref()),
        })
    };
    view! {
        <Show when=nvml>
            <div class="exports" role="toolbar" aria-label="energy window">
                <button id="energy-window" on:click=toggle>
                    {move || if recording() { "Stop the energy window" } else { "Record energy during a benchmark" }}
                </button>
            </div>
        </Show>
        <p class="hint" id="energy-window-status" role="status">{status}</p>
    }
}

/// What a closed energy window recorded and, with the run's file imported, its joules per
/// output token beside the simulation's ([`crate::compute::energy_beside`]).
fn energy_window_text(
    window: &EnergyWindow,
    imported: &Imported,
    gpus: u32,
    board: Option<&GpuPower>,
) -> String {
    let w = match window.energy() {
        Ok(w) => w,
        Err(e) => return format!("The window recorded nothing: {e}."),
    };
    let recorded = format!(
        "Recorded {:.1} kJ over {:.1} s on {} GPU(s), {:.0} W per GPU (measured, NVML).",
        w.joules / 1000.0,
        w.seconds,
        w.gpus,
        w.watts_per_gpu()
    );
    if imported.points.is_empty() {
        return format!(
            "{recorded} Import the run's result file to divide the joules by its output tokens."
        );
    }
    match crate::compute::energy_beside(imported, gpus, board, w) {
        Ok(b) => b.sentence(),
        Err(e) => format!("{recorded} No energy per token: {e}."),
    }
}
