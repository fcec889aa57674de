//! Theory against reality: every point predicted and measured, the errors, the fitted
//! fractions, the calibrated model and its energy.

use leptos::prelude::*;
use rooflinr_model::hardware::{Hardware, registry};
use rooflinr_model::units::si;

use crate::compute::{ModelView, Problem};
use crate::lab::{LabView, calibrate_model, phase_rows};
fn pct(v: f64) -> String {
    format!("{:+.1}%", v * 100.0)
}

/// The devices agents measured on that are not `hw`, a registry device (the registry's own
/// matching of device names); none where `hw` is a custom device, whose figures the user
/// may have taken from the measured one.
fn measured_elsewhere(v: &LabView, hw: &Hardware) -> Vec<String> {
    if registry::get(&hw.key).is_err() {
        return Vec::new();
    }
    let mut devices: Vec<String> = v
        .calibrations
        .iter()
        .filter_map(|(source, _)| source.agent_device())
        .filter(|device| registry::key_for_device(device, None) != Some(hw.key.as_str()))
        .map(str::to_string)
        .collect();
    devices.sort_unstable();
    devices.dedup();
    devices
}

/// The point-by-point table, the error summaries, the fitted fractions, the calibrated
/// whole-model prediction and the energy estimate.
#[component]
pub(super) fn TheoryTable(
    /// The device.
    hardware: Memo<Result<Hardware, Problem>>,
    /// The lab's data against it.
    view: Memo<Option<LabView>>,
    /// The model analysis.
    model: Signal<Option<ModelView>>,
) -> impl IntoView {
    let device = move || hardware.with(|h| h.as_ref().map(|h| h.name.clone()).unwrap_or_default());
    move || {
        // The lab panel shows its empty state instead.
        let Some(v) = view.get() else {
            return ().into_any();
        };
        let rows = v
            .rows
            .iter()
            .map(|r| {
                let p = &r.point;
                view! {
                    <tr>
                        <td class="name">{p.kernel.clone()}</td>
                        <td>{r.key.clone()}</td>
                        <td>{p.phase_label().to_string()}</td>
                        <td class="num">{si(r.datasheet_s, "s")}</td>
                        <td class="num">{si(r.calibrated_s, "s")}</td>
                        <td class="num"><strong>{si(p.time_s, "s")}</strong></td>
                        <td class="num">{pct(r.datasheet_error())}</td>
                        <td class="num">{pct(r.calibrated_error())}</td>
                        <td>{r.calibrated_bound.name()}</td>
                        <td class="num">{p.energy_j.map_or("–".to_string(), |j| si(j, "J"))}</td>
                    </tr>
                }
            })
            .collect_view();
        let summary = v
            .summary
            .iter()
            .map(|s| {
                view! {
                    <tr>
                        <td>{s.source.to_string()}</td>
                        <td>{s.key.clone()}</td>
                        <td>{s.bound.name()}</td>
                        <td class="num">{s.points}</td>
                        <td class="num">{format!("{:.1}%", s.datasheet_mean * 100.0)}</td>
                        <td class="num">{format!("{:.1}%", s.datasheet_max * 100.0)}</td>
                        <td class="num">{format!("{:.1}%", s.calibrated_mean * 100.0)}</td>
                        <td class="num">{format!("{:.1}%", s.calibrated_max * 100.0)}</td>
                    </tr>
                }
            })
            .collect_view();
        let phases = phase_rows(&v)
            .into_iter()
            .map(|row| {
                view! {
                    <tr>
                        <td>{row.phase}</td>
                        <td class="num">{row.kernels}</td>
                        <td class="num">{si(row.time_s, "s")}</td>
                        <td class="num">{format!("{:.0}%", row.memory_share * 100.0)}</td>
                    </tr>
                }
            })
            .collect_view();
        let fractions = v
            .calibrations
            .iter()
            .map(|(source, cal)| {
                let mut parts = vec![format!(
                    "bandwidth {:.1}% ({})",
                    cal.bandwidth.value * 100.0,
                    cal.bandwidth.from
                )];
                parts.extend(
                    cal.bandwidth_by_format
                        .iter()
                        .map(|(k, f)| format!("{k} bandwidth {:.1}%", f.value * 100.0)),
                );
                parts.extend(
                    cal.compute_by_format
                        .iter()
                        .map(|(k, f)| format!("{k} compute {:.1}% ({})", f.value * 100.0, f.from)),
                );
                view! { <li><strong>{source.to_string()}</strong>": "{parts.join(" · ")}</li> }
            })
            .collect_view();
        let whole_model = move || {
            let hw = hardware.get().ok()?;
            let m = model.get()?;
            let lab = view.get()?;
            let c = calibrate_model(&m, &lab, &hw)?;
            Some(view! {
                <p class="whole-model" id="lab-model">
                    {format!(
                        "Whole model: the datasheet predicts {} per step ({:.1} tokens/s); calibrated with {}, {} ({:.1} tokens/s).",
                        si(c.datasheet.time.get(), "s"),
                        c.datasheet.tokens_per_s,
                        c.source,
                        si(c.calibrated.time.get(), "s"),
                        c.calibrated.tokens_per_s
                    )}
                    {c.joules_per_token.map(|j| format!(" Energy: about {} per token (mean measured power × calibrated time, an estimate).", si(j, "J")))}
                </p>
            })
        };
        let energy = v.mean_power_w.map_or_else(
            || "Energy: no measurement read an energy counter (the CPU backend has none; NVML's counter is read on a GPU).".to_string(),
            |w| format!("Energy: mean measured power {w:.0} W over the measurements with an energy reading."),
        );
        let elsewhere = hardware.with(|h| {
            h.as_ref()
                .map(|h| measured_elsewhere(&v, h))
                .unwrap_or_default()
        });
        let elsewhere = (!elsewhere.is_empty()).then(|| {
            view! {
                <p class="notice-inline" id="lab-elsewhere" role="note">
                    {format!(
                        "Measured on {}, not on {}: these errors hold that device's times against this datasheet. Choose the device the agent measured on, or a custom device with its figures, to compare like with like.",
                        elsewhere.join(" and "),
                        device()
                    )}
                </p>
            }
        });
        view! {
            <div class="theory">
                <h3>{move || format!("Theory against reality on {}", device())}</h3>
                {elsewhere}
                <p class="hint">
                    {format!(
                        "Datasheet: the roofline from the selected device's datasheet. Calibrated: the roofline with the fitted fractions ({}). Errors are (predicted − measured) / measured.",
                        if v.leave_one_out { "each point predicted by a fit made without it" } else { "in-sample" }
                    )}
                </p>
                <div class="table-wrap">
                    <table class="data" id="theory-table">
                        <thead><tr>
                            <th>"Kernel"</th><th>"Format"</th><th>"Phase"</th><th>"Datasheet"</th><th>"Calibrated"</th>
                            <th>"Measured"</th><th>"Error (datasheet)"</th><th>"Error (calibrated)"</th><th>"Bound"</th><th>"Energy"</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <h3>"Prediction error by format and regime"</h3>
                <div class="table-wrap">
                    <table class="data" id="error-summary">
                        <thead><tr>
                            <th>"Source"</th><th>"Format"</th><th>"Regime"</th><th>"Points"</th><th>"Datasheet mean"</th><th>"Datasheet worst"</th>
                            <th>"Calibrated mean"</th><th>"Calibrated worst"</th>
                        </tr></thead>
                        <tbody>{summary}</tbody>
                    </table>
                </div>
                <h3>"By phase"</h3>
                <div class="table-wrap">
                    <table class="data" id="phase-summary">
                        <thead><tr><th>"Phase"</th><th>"Kernels"</th><th>"Measured time"</th><th>"In memory-bound kernels"</th></tr></thead>
                        <tbody>{phases}</tbody>
                    </table>
                </div>
                <h3>"Fitted fractions of the datasheet (each source on its own)"</h3>
                <ul class="hint fractions" id="lab-fractions">{fractions}</ul>
                {whole_model}
                <p class="hint">{energy}</p>
            </div>
        }
        .into_any()
    }
}
