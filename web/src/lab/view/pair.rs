//! Pairing: the state of the connection, the form, and how to reach a remote machine.

use leptos::prelude::*;

use crate::lab::Pairing;
use crate::lab::link::{Lab, LinkState};
/// Pairing: the state of the connection, the form, and how to reach a remote machine.
#[component]
pub(super) fn PairCard() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let saved = lab.pairing();
    let agent = RwSignal::new(
        saved
            .as_ref()
            .map_or("http://127.0.0.1:7878".to_string(), |p| p.agent.clone()),
    );
    let token = RwSignal::new(saved.map(|p| p.token).unwrap_or_default());
    let pair = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        lab.pair(Pairing {
            agent: agent.get_untracked().trim().to_string(),
            token: token.get_untracked().trim().to_string(),
        });
    };
    let status = move || match lab.link.get() {
        LinkState::Unpaired => ("off", "Not paired".to_string(), None),
        LinkState::Connecting { agent } => ("wait", format!("Connecting to {agent}…"), None),
        LinkState::Connected { agent, hello } => (
            "ok",
            format!(
                "Paired with {} at {agent} · agent {}",
                if hello.host.is_empty() {
                    "the agent"
                } else {
                    &hello.host
                },
                hello.agent_version
            ),
            None,
        ),
        LinkState::Retrying {
            agent,
            in_s,
            reason,
        } => (
            "wait",
            format!("Reconnecting to {agent} in {in_s} s"),
            Some(reason),
        ),
        LinkState::Refused { reason } => ("off", "Cannot pair".to_string(), Some(reason)),
    };
    let backends = move || match lab.link.get() {
        LinkState::Connected { hello, .. } => {
            let rows = hello
                .backends
                .iter()
                .map(|b| {
                    let text = match (&b.device, b.available) {
                        (Some(d), true) => {
                            let formats: Vec<String> = b.formats.iter().map(|f| f.name()).collect();
                            format!("{}: {} · formats {}", b.kind, d.name, formats.join(", "))
                        }
                        _ => format!(
                            "{}: not available ({})",
                            b.kind,
                            b.reason.clone().unwrap_or_default()
                        ),
                    };
                    view! { <li>{text}</li> }
                })
                .collect_view();
            let nvml = if hello.nvml.available {
                format!(
                    "NVML: {} GPU(s), driver {}{}",
                    hello.nvml.gpus,
                    hello.nvml.driver_version.clone().unwrap_or_default(),
                    if hello.nvml.nvlink_links > 0 {
                        format!(", {} NVLinks active on GPU 0", hello.nvml.nvlink_links)
                    } else {
                        String::new()
                    }
                )
            } else {
                format!(
                    "NVML: {}",
                    hello
                        .nvml
                        .reason
                        .clone()
                        .unwrap_or_else(|| "not available".into())
                )
            };
            Some(view! { <ul class="backends">{rows}<li>{nvml}</li></ul> })
        }
        _ => None,
    };
    let paired = move || {
        !matches!(
            lab.link.get(),
            LinkState::Unpaired | LinkState::Refused { .. }
        )
    };
    view! {
        <div class="card pair">
            {move || {
                let (class, text, reason) = status();
                view! {
                    <p class="link-state" id="link-state" data-state=class>
                        <span class=format!("dot {class}") aria-hidden="true"></span>
                        {text}
                    </p>
                    {reason.map(|r| view! { <p class="reason" role="alert">{r}</p> })}
                }
            }}
            {backends}
            <Show
                when=paired
                fallback=move || view! {
                    <form class="pair-form" on:submit=pair>
                        <label class="field">
                            <span class="label">"Agent address"</span>
                            <input id="agent-address" type="text" spellcheck="false" prop:value=agent on:input=move |ev| agent.set(event_target_value(&ev)) />
                        </label>
                        <label class="field">
                            <span class="label">"Token"</span>
                            <input id="agent-token" type="password" autocomplete="off" prop:value=token on:input=move |ev| token.set(event_target_value(&ev)) />
                        </label>
                        <button type="submit" class="primary">"Pair"</button>
                    </form>
                }
            >
                <button class="link" on:click=move |_| lab.unpair()>"Disconnect"</button>
            </Show>
            <details class="help">
                <summary>"How to pair with a remote GPU machine"</summary>
                <ol>
                    <li>"Run "<code>"rooflinr-agent --listen"</code>" there; it prints a pairing link with a token."</li>
                    <li>"Either tunnel it to this computer ("<code>"ssh -L 7878:127.0.0.1:7878 gpu-box"</code>") and open the pairing link here, or start the agent with "<code>"--web"</code>" and open the page it serves through the same tunnel."</li>
                    <li>"The token stays in the page's fragment and this browser's storage; the agent only listens on loopback unless told otherwise."</li>
                </ol>
            </details>
        </div>
    }
}
