//! The input panels: hardware (presets with sources, and the custom editor), formats, the
//! operator's shape, and the model scenario.

use leptos::prelude::*;
use rooflinr_model::analysis::Phase;
use rooflinr_model::hardware::{Figure, Hardware, registry};
use rooflinr_model::presets;
use rooflinr_model::units::si;

use super::compare::CompareControls;
use super::fields::CheckField;
use super::fields::{CurrentProblem, FormatSelect, Segmented, TextField, state_part};
use crate::browser;
use crate::compute::Problem;
use crate::state::{CUSTOM, Framework, Mode, OpKind, State, Vary};

/// One figure with its source on hover and its basis as a badge.
fn figure_row<T>(label: String, value: String, figure: &Figure<T>) -> impl IntoView + use<T> {
    let basis = figure.source.basis.name();
    view! {
        <tr title=format!("{basis}: {}", figure.source.text)>
            <th scope="row">{label}</th>
            <td class="num">{value}</td>
            <td><span class=format!("badge {basis}") title=figure.source.text.to_string()>{basis}</span></td>
        </tr>
    }
}

fn hardware_figures(hw: &Hardware) -> impl IntoView + use<> {
    let bw = hw.memory_bandwidth.value.get();
    let mut rows = vec![
        figure_row(
            "memory bandwidth".into(),
            si(bw, "B/s"),
            &hw.memory_bandwidth,
        )
        .into_any(),
        figure_row(
            "memory".into(),
            format!("{} {}", hw.memory_capacity.value, hw.memory_type),
            &hw.memory_capacity,
        )
        .into_any(),
    ];
    if let Some(tier) = &hw.second_memory {
        rows.push(
            figure_row(
                "second memory".into(),
                format!(
                    "{} {} · {}",
                    tier.capacity.value,
                    tier.memory_type,
                    si(tier.bandwidth.value.get(), "B/s")
                ),
                &tier.capacity,
            )
            .into_any(),
        );
    }
    for p in &hw.peaks {
        let rate = p.rate.value.get();
        rows.push(
            figure_row(
                format!("{} peak", p.math.name().to_ascii_uppercase()),
                format!("{} · ridge {:.0}", si(rate, "FLOP/s"), rate / bw),
                &p.rate,
            )
            .into_any(),
        );
    }
    let derived: Vec<&str> = hw
        .peaks
        .iter()
        .filter(|p| p.rate.source.basis == rooflinr_model::hardware::Basis::Derived)
        .map(|p| p.math.name())
        .collect();
    let notes = [
        (hw.unified_memory, "unified CPU-GPU memory".to_string()),
        (
            hw.block_scaled_mma,
            "block-scaled FP4/FP8 tensor cores (MX, NVFP4)".to_string(),
        ),
        (
            hw.second_memory.is_some(),
            hw.second_memory.as_ref().map_or(String::new(), |t| {
                format!(
                    "capacity and bandwidth are the {}'s; the {} is {}, not counted here",
                    hw.memory_type, t.memory_type, t.link
                )
            }),
        ),
        (
            !derived.is_empty(),
            format!(
                "not published, derived by the rule on hover: {} peak{}",
                derived.join(", ").to_ascii_uppercase(),
                if derived.len() > 1 { "s" } else { "" }
            ),
        ),
        (
            !hw.aliases.is_empty(),
            format!("also named {}", hw.aliases.join(", ")),
        ),
    ];
    let sources: Vec<String> = {
        let mut s: Vec<String> = std::iter::once(&hw.memory_bandwidth.source)
            .chain(hw.peaks.iter().map(|p| &p.rate.source))
            .map(|s| s.text.to_string())
            .collect();
        s.dedup();
        s
    };
    view! {
        <p class="muted">{hw.architecture.clone()}</p>
        <table class="figures">
            <tbody>{rows}</tbody>
        </table>
        <ul class="notes">
            {notes
                .into_iter()
                .filter(|(on, _)| *on)
                .map(|(_, text)| view! { <li>{text}</li> })
                .collect_view()}
        </ul>
        <details class="sources">
            <summary>"Sources"</summary>
            <ul>{sources.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}</ul>
        </details>
    }
}

/// One built-in device as the picker lists it.
#[derive(Clone)]
struct DeviceChoice {
    key: String,
    name: String,
    /// Lower-case text the filter matches: name, key, aliases, vendor, class.
    haystack: String,
}

/// The registry's devices grouped by vendor and class, in registry order within a group.
fn device_groups() -> Vec<(String, Vec<DeviceChoice>)> {
    let mut devices = registry::all();
    // A stable sort keeps the registry's order inside each group.
    rooflinr_model::sort::sort_by_key(&mut devices, |h| (h.vendor, h.class));
    let mut groups: Vec<(String, Vec<DeviceChoice>)> = Vec::new();
    for h in devices {
        let label = format!("{} · {}", h.vendor.name(), h.class.name());
        let haystack = format!(
            "{} {} {} {} {}",
            h.name,
            h.key,
            h.aliases.join(" ").replace('-', " "),
            h.vendor.name(),
            h.class.name()
        )
        .to_ascii_lowercase();
        let choice = DeviceChoice {
            key: h.key,
            name: h.name,
            haystack,
        };
        match groups.last_mut() {
            Some((l, list)) if *l == label => list.push(choice),
            _ => groups.push((label, vec![choice])),
        }
    }
    groups
}

/// Whether every word of the filter appears in the device's text.
fn matches_filter(choice: &DeviceChoice, filter: &str) -> bool {
    filter
        .to_ascii_lowercase()
        .split_whitespace()
        .all(|word| choice.haystack.contains(word))
}

/// Device choice, its figures with sources, and the custom device editor.
#[component]
pub fn HardwarePanel(
    /// The device the state names, or the problem with the custom one.
    hardware: Memo<Result<Hardware, Problem>>,
) -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let groups = StoredValue::new(device_groups());
    let filter = RwSignal::new(String::new());
    // Memos of the fields these controls show: a change elsewhere in the state (a slider
    // drag) leaves the device list and its options be.
    let current = state_part(state, |s| s.hardware.clone());
    let is_custom = state_part(state, |s| s.hardware == CUSTOM);
    let framework = state_part(state, |s| s.framework);
    let mode = state_part(state, |s| s.mode);
    // The groups and devices the filter leaves; the selected device always stays listed so
    // the picker never shows another name than the one in use.
    let visible = move || {
        let wanted = filter.get();
        let selected = current();
        groups.with_value(|groups| {
            groups
                .iter()
                .filter_map(|(label, list)| {
                    let kept: Vec<DeviceChoice> = list
                        .iter()
                        .filter(|c| c.key == selected || matches_filter(c, &wanted))
                        .cloned()
                        .collect();
                    (!kept.is_empty()).then(|| (label.clone(), kept))
                })
                .collect::<Vec<_>>()
        })
    };
    let shown = move || {
        let wanted = filter.get();
        groups.with_value(|g| {
            g.iter()
                .flat_map(|(_, list)| list)
                .filter(|c| matches_filter(c, &wanted))
                .count()
        })
    };
    // Enter in the filter picks its first match.
    let pick_first = move || {
        let wanted = filter.get_untracked();
        let first = groups.with_value(|g| {
            g.iter()
                .flat_map(|(_, list)| list)
                .find(|c| matches_filter(c, &wanted))
                .map(|c| c.key.clone())
        });
        if let Some(key) = first {
            state.update(|s| s.hardware = key);
        }
    };
    view! {
        <section class="panel" aria-labelledby="hw-title">
            <h2 id="hw-title">"Hardware"</h2>
            <label class="field">
                <span class="label">"find a device"</span>
                <input
                    id="hardware-filter"
                    type="search"
                    placeholder="name, vendor or class: 5090, AMD, edge"
                    autocomplete="off"
                    aria-describedby="hardware-filter-count"
                    prop:value=move || filter.get()
                    on:input=move |ev| filter.set(event_target_value(&ev))
                    on:keydown=move |ev| {
                        if ev.key() == "Enter" {
                            ev.prevent_default();
                            pick_first();
                        }
                    }
                />
                <span id="hardware-filter-count" class="hint" aria-live="polite">
                    {move || {
                        let n = shown();
                        if filter.with(|f| f.trim().is_empty()) {
                            format!("{n} devices")
                        } else if n == 0 {
                            "no device matches; the list shows the one in use".to_string()
                        } else {
                            format!("{n} match; Enter picks the first")
                        }
                    }}
                </span>
            </label>
            <label class="field">
                <span class="label">"device"</span>
                <select
                    id="hardware-select"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.update(|s| s.hardware = v);
                    }
                >
                    {move || {
                        visible()
                            .into_iter()
                            .map(|(label, list)| {
                                view! {
                                    <optgroup label=label>
                                        {list
                                            .into_iter()
                                            .map(|c| {
                                                let k = c.key.clone();
                                                view! {
                                                    <option value=c.key selected=move || current() == k>
                                                        {c.name}
                                                    </option>
                                                }
                                            })
                                            .collect_view()}
                                    </optgroup>
                                }
                            })
                            .collect_view()
                    }}
                    <option value=CUSTOM selected=is_custom>"Custom device…"</option>
                </select>
            </label>
            <label class="field">
                <span class="label">"expected times"</span>
                <select
                    id="framework-select"
                    title="The kernels whose measured times (NVIDIA's tables) the expected times are fitted on; the bound does not depend on them"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if let Some(f) = Framework::ALL.into_iter().find(|f| f.key() == v) {
                            state.update(|s| s.framework = f);
                        }
                    }
                >
                    {Framework::ALL
                        .into_iter()
                        .map(|f| {
                            view! {
                                <option value=f.key() selected=move || framework() == f>
                                    {format!("{} kernels", f.name())}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <Show when=move || mode() == Mode::Model>
                <CompareControls />
            </Show>
            <Show when=is_custom>
                <div class="custom-editor">
                    <TextField label="name" get=|s| &s.custom.name set=|s| &mut s.custom.name />
                    <div class="row">
                        <TextField label="bandwidth" get=|s| &s.custom.bandwidth_gb_s set=|s| &mut s.custom.bandwidth_gb_s numeric=true hint="GB/s" />
                        <TextField label="capacity" get=|s| &s.custom.capacity_gb set=|s| &mut s.custom.capacity_gb numeric=true hint="GB, blank for unlimited" />
                    </div>
                    <TextField label="peaks" get=|s| &s.custom.peaks set=|s| &mut s.custom.peaks hint="dense TFLOP/s by type: fp16:200, fp8:400, fp4:800" />
                    <CheckField id="check-custom-block-scaled" label="runs MX / NVFP4 block-scaled products natively" get=|s| s.custom.block_scaled set=|s, on| s.custom.block_scaled = on />
                </div>
            </Show>
            {move || match hardware.get() {
                Ok(hw) => hardware_figures(&hw).into_any(),
                Err(p) if p.field == "custom device" || p.field == "hardware" => {
                    view! { <p class="error" role="alert">{p.to_string()}</p> }.into_any()
                }
                Err(_) => ().into_any(),
            }}
        </section>
    }
}

/// Formats of the operands.
#[component]
pub fn FormatsPanel() -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let operator = state_part(state, |s| s.mode == Mode::Operator);
    // The experts' own weights, for a model with routed experts outside operator mode.
    let model_keys = state_part(state, |s| (s.mode, s.model.clone(), s.config.clone()));
    let has_experts = Memo::new(move |_| {
        let (mode, ..) = model_keys();
        mode != Mode::Operator
            && state
                .with_untracked(|s| crate::compute::model_config(s).is_ok_and(|c| c.moe.is_some()))
    });
    view! {
        <section class="panel" aria-labelledby="formats-title">
            <h2 id="formats-title">"Formats"</h2>
            <div class="row">
                <FormatSelect label="weights" get=|s| &s.weights set=|s| &mut s.weights />
                <FormatSelect label="activations" get=|s| &s.activations set=|s| &mut s.activations />
            </div>
            <div class="row">
                <FormatSelect label="KV cache" get=|s| &s.kv set=|s| &mut s.kv />
                <Show when=operator>
                    <FormatSelect label="output" get=|s| &s.output set=|s| &mut s.output />
                </Show>
                <Show when=move || has_experts.get()>
                    <FormatSelect
                        label="experts"
                        get=|s| &s.experts
                        set=|s| &mut s.experts
                        unset="as the weights"
                    />
                </Show>
            </div>
        </section>
    }
}

/// The operator and its shape.
#[component]
pub fn OperatorPanel() -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let kind = state_part(state, |s| s.op);
    view! {
        <section class="panel" aria-labelledby="op-title">
            <h2 id="op-title">"Operator"</h2>
            <Segmented
                label="operator"
                options=vec![(OpKind::Gemv, "GEMV"), (OpKind::Gemm, "GEMM"), (OpKind::Attention, "Attention")]
                get=|s| s.op
                set=|s, v| {
                    s.op = v;
                    // A GEMV is a GEMM with a handful of rows; switching keeps shapes sensible.
                    match v {
                        OpKind::Gemv => s.m = "1".into(),
                        OpKind::Gemm if s.m == "1" => s.m = "4096".into(),
                        _ => {}
                    }
                }
            />
            {move || match kind() {
                OpKind::Gemv | OpKind::Gemm => {
                    let gemv = kind() == OpKind::Gemv;
                    view! {
                        <div class="row three">
                            {if gemv {
                                view! { <TextField label="batch" get=|s| &s.m set=|s| &mut s.m numeric=true hint="vectors" /> }.into_any()
                            } else {
                                view! { <TextField label="M" get=|s| &s.m set=|s| &mut s.m numeric=true hint="rows (tokens)" /> }.into_any()
                            }}
                            <TextField label="N" get=|s| &s.n set=|s| &mut s.n numeric=true hint="outputs" />
                            <TextField label="K" get=|s| &s.k set=|s| &mut s.k numeric=true hint="inputs" />
                        </div>
                    }
                    .into_any()
                }
                OpKind::Attention => view! {
                    <div class="row three">
                        <TextField label="batch" get=|s| &s.attn_batch set=|s| &mut s.attn_batch numeric=true />
                        <TextField label="query tokens" get=|s| &s.q_len set=|s| &mut s.q_len numeric=true hint="1 in decode" />
                        <TextField label="context" get=|s| &s.kv_len set=|s| &mut s.kv_len numeric=true />
                    </div>
                    <div class="row three">
                        <TextField label="heads" get=|s| &s.heads set=|s| &mut s.heads numeric=true />
                        <TextField label="KV heads" get=|s| &s.kv_heads set=|s| &mut s.kv_heads numeric=true />
                        <TextField label="head dim" get=|s| &s.head_dim set=|s| &mut s.head_dim numeric=true />
                    </div>
                    <CheckField id="check-causal" label="causal mask (FlashAttention-style fused kernel)" get=|s| s.causal set=|s, on| s.causal = on />
                }
                .into_any(),
            }}
            <div class="field">
                <span class="label">"ranking varies"</span>
                <Segmented
                    label="ranking varies"
                    options=vec![(Vary::All, "all operands"), (Vary::Weights, "weights (KV)")]
                    get=|s| s.vary
                    set=|s, v| s.vary = v
                />
            </div>
        </section>
    }
}

/// Values a slider steps through: powers of two, so a drag covers every scale.
fn slider_index(text: &str, max_exp: u32) -> u32 {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|v| *v > 0)
        .map_or(0, |v| (63 - v.leading_zeros()).min(max_exp))
}

/// A slider over powers of two beside an exact text field, both bound to one state field.
#[component]
pub fn PowerSlider(
    /// Label (and the name problems use).
    label: &'static str,
    /// Smallest exponent.
    min_exp: u32,
    /// Largest exponent.
    max_exp: u32,
    /// Reads the field.
    get: fn(&State) -> &String,
    /// Gives the field to write.
    set: fn(&mut State) -> &mut String,
) -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let id = format!("slider-{}", label.replace(' ', "-"));
    view! {
        <div class="slider">
            <input
                id=id
                type="range"
                aria-label=format!("{label} (powers of two)")
                min=min_exp
                max=max_exp
                step="1"
                prop:value=move || state.with(|s| slider_index(get(s), max_exp).max(min_exp).to_string())
                on:input=move |ev| {
                    let exp: u32 = event_target_value(&ev).parse().unwrap_or(min_exp);
                    state.update(|s| *set(s) = (1u64 << exp).to_string());
                }
            />
            <TextField label=label get=get set=set numeric=true />
        </div>
    }
}

/// The model picker: a preset or a pasted (or chosen) `config.json`.
#[component]
pub fn ModelPicker() -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let problem = expect_context::<CurrentProblem>().0;
    let current = state_part(state, |s| s.model.clone());
    let is_custom = state_part(state, |s| s.model == CUSTOM);
    let file_error = RwSignal::new(None::<String>);
    let config_error = move || {
        problem
            .get()
            .filter(|p| p.field == "config.json")
            .map(|p| p.message)
    };
    let on_file = move |ev: leptos::ev::Event| {
        let Some(file) = browser::chosen_file(&ev) else {
            return;
        };
        leptos::task::spawn_local(async move {
            match browser::read_text(file).await {
                Ok(text) => {
                    file_error.set(None);
                    state.update(|s| {
                        s.model = CUSTOM.into();
                        s.config = text;
                    });
                }
                Err(e) => file_error.set(Some(e)),
            }
        });
    };
    view! {
            <label class="field">
                <span class="label">"model"</span>
                <select
                    id="model-select"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.update(|s| s.model = v);
                    }
                >
                    {presets::PRESETS
                        .iter()
                        .map(|(key, params, _)| {
                            let k = key.to_string();
                            view! {
                                <option value=*key title=*params selected=move || current() == k>
                                    {*key}
                                </option>
                            }
                        })
                        .collect_view()}
                    <option value=CUSTOM selected=is_custom>"Your config.json…"</option>
                </select>
            </label>
            <Show when=is_custom>
                <label class="field" class:invalid=move || config_error().is_some()>
                    <span class="label">"config.json"</span>
                    <textarea
                        id="config-text"
                        rows="7"
                        spellcheck="false"
                        placeholder="Paste a Hugging Face config.json here"
                        prop:value=Memo::new(move |_| state.with(|s| s.config.clone()))
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            state.update(|s| s.config = v);
                        }
                    ></textarea>
                    {move || config_error().map(|m| view! { <span class="error" role="alert">{m}</span> })}
                </label>
                <label class="file">
                    "…or choose a file: "
                    <input type="file" accept=".json,application/json" on:change=on_file />
                </label>
                {move || file_error.get().map(|m| view! { <p class="error" role="alert">{m}</p> })}
            </Show>
    }
}

/// The model: preset or pasted config, phase, batch and length.
#[component]
pub fn ModelPanel() -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let seq_label = state_part(state, |s| s.phase);
    view! {
        <section class="panel" aria-labelledby="model-title">
            <h2 id="model-title">"Model"</h2>
            <ModelPicker />
            <div class="field">
                <span class="label">"phase"</span>
                <Segmented
                    label="phase"
                    options=vec![(Phase::Decode, "Decode"), (Phase::Prefill, "Prefill")]
                    get=|s| s.phase
                    set=|s, v| s.phase = v
                />
            </div>
            <PowerSlider label="batch" min_exp=0 max_exp=12 get=|s| &s.batch set=|s| &mut s.batch />
            {move || match seq_label() {
                Phase::Decode => view! {
                    <PowerSlider label="context length" min_exp=6 max_exp=20 get=|s| &s.seq set=|s| &mut s.seq />
                }
                .into_any(),
                Phase::Prefill => view! {
                    <PowerSlider label="prompt length" min_exp=6 max_exp=20 get=|s| &s.seq set=|s| &mut s.seq />
                }
                .into_any(),
            }}
        </section>
    }
}
