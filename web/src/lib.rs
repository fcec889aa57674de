//! rooflinr's browser calculator: an interactive roofline that runs entirely in the browser
//! (no server, no GPU), built by Trunk from this crate.
//!
//! - [`state`]: the whole UI state as plain data and its URL encoding.
//! - [`compute`]: validation of typed inputs and the model crate's answers, arranged.
//! - [`chart`]: the roofline chart (pure geometry, palette, and the component).
//! - [`export`]: CSV, JSON and Markdown exports.
//! - [`lab`]: pairing with an agent, measurements, calibration, imports and reports.
//! - [`split`]: the code loaded on first use (the lab's, the exports').
//! - [`browser`]: the few calls into the browser (address bar, storage, downloads).
//! - [`ui`]: the components.

pub mod browser;
pub mod chart;
pub mod compute;
pub mod export;
pub mod lab;
pub mod split;
pub mod state;
pub mod ui;

pub use ui::App;

/// Replaces the loading placeholder with the calculator.
pub fn mount() {
    console_error_panic_hook::set_once();
    if let Some(boot) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot"))
    {
        boot.remove();
    }
    leptos::mount::mount_to_body(App);
}
