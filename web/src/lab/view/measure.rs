//! Measuring: ceilings and sweeps, with progress and cancel.

use leptos::prelude::*;
use rooflinr_model::format::Format;
use rooflinr_model::units::si;

use crate::lab::link::{JobView, Lab, LinkState};
use crate::lab::parse_shapes;
/// Measured ceilings and sweeps, with progress and cancel.
#[component]
pub(super) fn MeasureCard() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let formats = Memo::new(move |_| match lab.link.get() {
        LinkState::Connected { hello, .. } => hello
            .backends
            .iter()
            .find(|b| b.available)
            .map(|b| b.formats.clone())
            .unwrap_or_default(),
        _ => Vec::new(),
    });
    let chosen = RwSignal::new(Vec::<Format>::new());
    Effect::new(move |_| chosen.set(formats.get()));
    let shapes = RwSignal::new("1x4096x4096, 64x4096x4096".to_string());
    let seconds = RwSignal::new("0.5".to_string());
    let problem = RwSignal::new(None::<String>);
    let busy = move || lab.job.with(Option::is_some);
    let budget = move || -> Result<f64, String> {
        seconds
            .get_untracked()
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| (0.01..=60.0).contains(s))
            .ok_or_else(|| "seconds per point must be between 0.01 and 60".to_string())
    };
    let ceilings = move |_| match budget() {
        Ok(s) => {
            problem.set(None);
            lab.measure_ceilings(s);
        }
        Err(e) => problem.set(Some(e)),
    };
    let sweep = move |_| {
        let request = parse_shapes(&shapes.get_untracked()).and_then(|shapes| {
            let formats = chosen.get_untracked();
            if formats.is_empty() {
                return Err("choose at least one format".to_string());
            }
            Ok((shapes, formats, budget()?))
        });
        match request {
            Ok((shapes, formats, s)) => {
                problem.set(None);
                lab.measure_sweep(shapes, formats, s);
            }
            Err(e) => problem.set(Some(e)),
        }
    };
    view! {
        <div class="card measure">
            <div class="measure-row">
                <button id="measure-ceilings" class="primary" disabled=busy on:click=ceilings>"Measure ceilings"</button>
                <span class="hint">"Bandwidth (read, copy, triad) and a peak GEMM per format: the measured roofline."</span>
            </div>
            <div class="sweep">
                <label class="field grow">
                    <span class="label">"Shapes (M×N×K)"</span>
                    <input id="sweep-shapes" type="text" spellcheck="false" prop:value=shapes on:input=move |ev| shapes.set(event_target_value(&ev)) />
                </label>
                <label class="field narrow">
                    <span class="label">"Seconds per point"</span>
                    <input id="sweep-seconds" type="text" inputmode="decimal" prop:value=seconds on:input=move |ev| seconds.set(event_target_value(&ev)) />
                </label>
                <fieldset class="formats-pick">
                    <legend class="label">"Formats"</legend>
                    <For each=move || formats.get() key=|f| *f let:f>
                        <label class="check">
                            <input
                                type="checkbox"
                                data-format=f.name()
                                prop:checked=move || chosen.with(|c| c.contains(&f))
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    chosen.update(|c| {
                                        c.retain(|x| *x != f);
                                        if on { c.push(f); }
                                    });
                                }
                            />
                            {f.name()}
                        </label>
                    </For>
                </fieldset>
                <button id="measure-sweep" class="primary" disabled=busy on:click=sweep>"Measure sweep"</button>
            </div>
            {move || problem.get().map(|p| view! { <p class="error" role="alert">{p}</p> })}
            {move || lab.job.get().map(|j| view! { <Progress job=j /> })}
        </div>
    }
}

/// The job's progress bar.
#[component]
fn Progress(
    /// The job.
    job: JobView,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let fraction = if job.total > 0 {
        job.done as f64 / job.total as f64
    } else {
        0.0
    };
    let text = if job.id.is_none() {
        format!("Sending the {} to the agent…", job.what)
    } else if job.position > 0 {
        format!("The {} is queued behind {} job(s).", job.what, job.position)
    } else if job.total == 0 {
        format!("Starting the {}…", job.what)
    } else {
        let eta = job
            .eta_s
            .map(|s| format!(" · about {} left", si(s, "s")))
            .unwrap_or_default();
        format!(
            "{} of {} points · {}{eta}",
            job.done, job.total, job.current
        )
    };
    view! {
        <div class="progress" id="job-progress" role="progressbar" aria-valuemin="0" aria-valuemax=job.total aria-valuenow=job.done>
            <div class="bar"><span style=format!("width:{:.1}%", fraction * 100.0)></span></div>
            <p>{text}</p>
            <button class="link" id="job-cancel" on:click=move |_| lab.cancel()>"Cancel"</button>
        </div>
    }
}
