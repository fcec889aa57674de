//! Small input components shared by the panels: labelled text fields bound to one field of
//! the state, segmented choices, and format pickers.

use leptos::prelude::*;
use rooflinr_model::format::Format;

use crate::compute::Problem;
use crate::state::State;

/// The problem of the current inputs, if any, provided by the app for fields to show.
#[derive(Clone, Copy)]
pub struct CurrentProblem(pub Signal<Option<Problem>>);

/// A reader of one part of the state that changes only when that part does (a memo): what
/// reads it is not re-run by a change elsewhere in the state, such as a slider drag.
pub fn state_part<T>(
    state: RwSignal<State>,
    read: impl Fn(&State) -> T + Send + Sync + 'static,
) -> impl Fn() -> T + Copy + Send + Sync + 'static
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let memo = Memo::new(move |_| state.with(&read));
    move || memo.get()
}

/// The message of the current problem when it names the field `label`: a memo, so the
/// field is touched only when its own problem comes or goes.
fn field_error(problem: Signal<Option<Problem>>, label: &'static str) -> Memo<Option<String>> {
    Memo::new(move |_| {
        problem.with(|p| {
            p.as_ref()
                .filter(|p| p.field == label)
                .map(|p| p.message.clone())
        })
    })
}

/// A labelled text input bound to one text field of the state; it shows the problem when
/// the current problem names its label.
#[component]
pub fn TextField(
    /// Label shown above the input; also the name problems use for this field.
    label: &'static str,
    /// Reads the field.
    get: fn(&State) -> &String,
    /// Gives the field to write.
    set: fn(&mut State) -> &mut String,
    /// Numeric keyboard on phones.
    #[prop(optional)]
    numeric: bool,
    /// Extra help under the field.
    #[prop(optional)]
    hint: &'static str,
) -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let problem = expect_context::<CurrentProblem>().0;
    // Memos of this field's value and problem alone: a change elsewhere in the state (a
    // slider drag) does not touch this input.
    let value = Memo::new(move |_| state.with(|s| get(s).clone()));
    let error = field_error(problem, label);
    let id = format!("field-{}", label.replace(' ', "-").to_ascii_lowercase());
    let for_id = id.clone();
    view! {
        <label class="field" class:invalid=move || error.with(Option::is_some) for=for_id>
            <span class="label">{label}</span>
            <input
                id=id
                type="text"
                inputmode=if numeric { "numeric" } else { "text" }
                spellcheck="false"
                aria-invalid=move || if error.with(Option::is_some) { "true" } else { "false" }
                prop:value=value
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    state.update(|s| *set(s) = v);
                }
            />
            {move || error.get().map(|m| view! { <span class="error" role="alert">{m}</span> })}
            {(!hint.is_empty()).then(|| view! { <span class="hint">{hint}</span> })}
        </label>
    }
}

/// A row of buttons choosing one of a few values.
#[component]
pub fn Segmented<T>(
    /// Accessible name of the group.
    label: &'static str,
    /// (value, text) of each button.
    options: Vec<(T, &'static str)>,
    /// Reads the current value.
    get: fn(&State) -> T,
    /// Writes a new value.
    set: fn(&mut State, T),
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    let state = expect_context::<RwSignal<State>>();
    // A memo of this field alone: a change elsewhere in the state leaves the buttons be.
    let current = Memo::new(move |_| state.with(get));
    view! {
        <div class="segmented" role="group" aria-label=label>
            {options
                .into_iter()
                .map(|(value, text)| {
                    let on = move || current.get() == value;
                    view! {
                        <button
                            class:on=on
                            aria-pressed=move || if on() { "true" } else { "false" }
                            on:click=move |_| state.update(|s| set(s, value))
                        >
                            {text}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// A `<select>` of every catalogue format bound to one format field of the state.
#[component]
pub fn FormatSelect(
    /// Label shown above the select.
    label: &'static str,
    /// Reads the field.
    get: fn(&State) -> &String,
    /// Gives the field to write.
    set: fn(&mut State) -> &mut String,
    /// The words of a first option that leaves the field empty, where it may be (the
    /// experts' "as the weights").
    #[prop(optional)]
    unset: Option<&'static str>,
) -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    let problem = expect_context::<CurrentProblem>().0;
    // A memo of this field alone: the options are rebuilt when it changes, not on every
    // change of the state.
    let current = Memo::new(move |_| state.with(|s| get(s).clone()));
    let options = move || {
        let cur = current.get();
        // (value, text, title)
        let mut names: Vec<(String, String, String)> = unset
            .map(|words| (String::new(), words.to_string(), words.to_string()))
            .into_iter()
            .chain(
                Format::CATALOGUE
                    .iter()
                    .map(|f| (f.name(), f.name(), f.description())),
            )
            .collect();
        if !names.iter().any(|(n, _, _)| *n == cur) {
            // A format from a link that the catalogue does not list (say int3-g64).
            names.push((cur.clone(), cur.clone(), "from the link".into()));
        }
        names
            .into_iter()
            .map(|(value, text, title)| {
                let selected = value == cur;
                view! { <option value=value selected=selected title=title>{text}</option> }
            })
            .collect_view()
    };
    let error = field_error(problem, label);
    view! {
        <label class="field" class:invalid=move || error.with(Option::is_some)>
            <span class="label">{label}</span>
            <select on:change=move |ev| {
                let v = event_target_value(&ev);
                state.update(|s| *set(s) = v);
            }>{options}</select>
            {move || error.get().map(|m| view! { <span class="error" role="alert">{m}</span> })}
        </label>
    }
}

/// A checkbox bound to one flag of the state.
#[component]
pub fn CheckField(
    /// The input's id.
    id: &'static str,
    /// What ticking it means.
    label: &'static str,
    /// Reads the flag.
    get: fn(&State) -> bool,
    /// Writes the flag.
    set: fn(&mut State, bool),
) -> impl IntoView {
    let state = expect_context::<RwSignal<State>>();
    view! {
        <label class="check">
            <input
                id=id
                type="checkbox"
                prop:checked=Memo::new(move |_| state.with(get))
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    state.update(|s| set(s, on));
                }
            />
            {label}
        </label>
    }
}
