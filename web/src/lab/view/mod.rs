//! The lab's components, one file per card: pairing, live telemetry, measuring (ceilings
//! and sweeps with progress and cancel), theory against reality with calibration and
//! energy, and the data bar (import, export, report). What they compute lives in the lab
//! model (`super`), tested natively. The cards that only a pairing or data shows load with
//! the lab's code ([`crate::split`]).

use leptos::prelude::*;
use rooflinr_model::hardware::Hardware;

use super::LabView;
use super::link::{Lab, LinkState};
use crate::compute::{ModelView, Problem};
use crate::split::NotLoaded;
mod data;
mod energy;
mod measure;
mod pair;
mod telemetry;
mod theory;

use data::DataBar;
use measure::MeasureCard;
use pair::PairCard;
use telemetry::TelemetryStrip;
use theory::TheoryTable;

/// The whole lab section.
#[component]
pub fn LabPanel(
    /// The device predictions are made for.
    hardware: Memo<Result<Hardware, Problem>>,
    /// The lab's data against that device.
    view: Memo<Option<LabView>>,
    /// The model analysis, when the calculator shows one.
    model: Signal<Option<ModelView>>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let connected = move || matches!(lab.link.get(), LinkState::Connected { .. });
    view! {
        <section class="lab" id="lab" aria-labelledby="lab-title">
            <div class="lab-head">
                <h2 id="lab-title">"Measure on real hardware"</h2>
                <p class="hint">"Pair with rooflinr-agent on the machine to measure: its points join the chart beside the predictions."</p>
            </div>
            <PairCard />
            <Show when=connected>
                {Suspend::new(async { connected_cards().await.unwrap_or_else(not_loaded) })}
            </Show>
            {move || lab.notice.get().map(|n| view! {
                <div class="notice" role="status" id="lab-notice">
                    <span>{n}</span>
                    <button class="link" on:click=move |_| lab.notice.set(None)>"dismiss"</button>
                </div>
            })}
            <Show
                when=move || view.with(Option::is_some)
                fallback=|| view! {
                    <p class="empty" id="lab-empty">
                        "No measurements yet. Pair with an agent and measure, or import a kernel CSV or an Nsight Compute export below; measured points appear on the chart as they arrive."
                    </p>
                }
            >
                {Suspend::new(async move {
                    theory_table(hardware, view, model).await.unwrap_or_else(not_loaded)
                })}
            </Show>
            <DataBar hardware=hardware view=view />
        </section>
    }
}

/// What stands where a part of the lab could not be loaded.
fn not_loaded(e: NotLoaded) -> AnyView {
    view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any()
}

crate::split_point! {
    lab,
    /// The cards shown while paired: live telemetry, and measuring.
    pub fn connected_cards() -> AnyView {
        view! {
            <TelemetryStrip />
            <MeasureCard />
        }
        .into_any()
    }
}

crate::split_point! {
    lab,
    /// The energy window of Many GPUs mode, shown while paired ([`energy::EnergyWindowPanel`]).
    pub fn energy_window_card(
        imported: crate::compute::Imported,
        gpus: u32,
        board: Option<rooflinr_model::deploy::energy::GpuPower>,
    ) -> AnyView {
        view! { <energy::EnergyWindowPanel imported gpus board /> }.into_any()
    }
}

crate::split_point! {
    lab,
    /// Theory against reality, once there is something measured or imported.
    pub fn theory_table(
        hardware: Memo<Result<Hardware, Problem>>,
        view: Memo<Option<LabView>>,
        model: Signal<Option<ModelView>>,
    ) -> AnyView {
        view! { <TheoryTable hardware=hardware view=view model=model /> }.into_any()
    }
}
