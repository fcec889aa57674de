//! The data bar: import, export, report, clear.

use leptos::prelude::*;
use rooflinr_model::hardware::Hardware;
use rooflinr_report::report::svg;

use crate::browser;
use crate::compute::Problem;
use crate::lab::LabView;
use crate::lab::lazy::{self, ReportRequest};
use crate::lab::link::Lab;
use crate::state::State;
/// Import, export, report, clear.
#[component]
pub(super) fn DataBar(
    /// The device.
    hardware: Memo<Result<Hardware, Problem>>,
    /// The lab's data against it.
    view: Memo<Option<LabView>>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let state = expect_context::<RwSignal<State>>();
    let preview = RwSignal::new(None::<String>);
    let on_file = move |ev: leptos::ev::Event| {
        let Some(file) = browser::chosen_file(&ev) else {
            return;
        };
        let name = file.name();
        wasm_bindgen_futures::spawn_local(async move {
            let message = match browser::read_text(file).await {
                Err(e) => e,
                Ok(text) => match lazy::import_text(text)
                    .await
                    .unwrap_or_else(|e| Err(e.to_string()))
                {
                    Err(e) => format!("{name} was not imported: {e}"),
                    Ok(imported) => {
                        let kind = imported.kind.name();
                        let notes = imported.notes.join("; ");
                        // A file that names a listed device puts its datasheet beside it,
                        // as `rooflinr report` does.
                        if let Some(key) = imported.hardware.clone() {
                            state.update(|s| s.hardware = key);
                        }
                        let mut added = 0;
                        lab.data.update(|d| added = d.merge(imported));
                        format!(
                            "Imported {added} record(s) from {name} ({kind}).{}",
                            if notes.is_empty() {
                                String::new()
                            } else {
                                format!(" {notes}.")
                            }
                        )
                    }
                },
            };
            lab.notice.set(Some(message));
        });
    };
    let stem = move || {
        format!(
            "rooflinr-lab-{}",
            state.with_untracked(|s| s.hardware.clone())
        )
    };
    let export = move |_| {
        let file = lab
            .data
            .with_untracked(|d| d.to_file(&state.with_untracked(|s| s.hardware.clone())));
        let name = format!("{}.json", stem());
        wasm_bindgen_futures::spawn_local(async move {
            match lazy::file_json(file, true)
                .await
                .unwrap_or_else(|e| Err(e.to_string()))
            {
                Ok(json) => browser::download(&name, "application/json", &json),
                Err(e) => lab.notice.set(Some(format!("Nothing was exported: {e}."))),
            }
        });
    };
    let make_report = move || {
        let hardware = hardware.get_untracked().ok()?;
        let ceilings = view.with_untracked(|v| v.as_ref().map(|v| v.ceilings.clone()))?;
        Some(ReportRequest {
            hardware,
            kernels: lab.data.with_untracked(|d| d.points()),
            ceilings,
            generated: format!(
                "{} by the rooflinr calculator (measured: agent and imports)",
                browser::now_iso()
            ),
            chart_file: format!("{}.svg", stem()),
        })
    };
    let write_report = move |request: ReportRequest| {
        let stem = stem();
        wasm_bindgen_futures::spawn_local(async move {
            let (md, chart, height) = match lazy::report(request).await {
                Ok(files) => files,
                Err(e) => {
                    lab.notice.set(Some(format!("No report was made: {e}.")));
                    return;
                }
            };
            browser::download(&format!("{stem}.md"), "text/markdown", &md);
            browser::download(&format!("{stem}.svg"), "image/svg+xml", &chart);
            browser::download_png(
                &chart,
                &format!("{stem}.png"),
                (svg::WIDTH * 2.0) as u32,
                (height * 2.0) as u32,
            );
            preview.set(Some(md));
        });
    };
    let has_data = move || lab.data.with(|d| !d.is_empty());
    view! {
        <div class="exports lab-data" role="toolbar" aria-label="measurements">
            <label class="button">
                "Import CSV / Nsight / JSON"
                <input id="lab-import" type="file" accept=".csv,.json,.jsonl,.txt" class="visually-hidden" on:change=on_file />
            </label>
            <button disabled=move || !has_data() on:click=export>"Export JSON"</button>
            <button id="lab-report" disabled=move || !has_data() on:click=move |_| {
                if let Some(request) = make_report() {
                    write_report(request);
                }
            }>"Report (Markdown, SVG, PNG)"</button>
            <button class="link" disabled=move || !has_data() on:click=move |_| {
                let sure = browser::confirm("Remove every measurement and import from this browser?");
                if sure {
                    lab.data.set(Default::default());
                    preview.set(None);
                }
            }>"Clear"</button>
        </div>
        {move || preview.get().map(|md| view! {
            <details class="report-preview" open>
                <summary>"Report preview (downloaded as Markdown with its chart)"</summary>
                <pre id="report-preview">{md}</pre>
            </details>
        })}
    }
}
