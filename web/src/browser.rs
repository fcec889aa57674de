//! The few places the calculator touches the browser: the address bar, local storage,
//! downloads (text, SVG, PNG), the colour-scheme preference, files and the clock. Each call
//! degrades quietly where the browser refuses (private mode storage, for instance); none
//! can take the page down.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

const STORAGE_KEY: &str = "rooflinr.state";

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The page's query string, without the `?`.
pub fn query() -> String {
    window()
        .and_then(|w| w.location().search().ok())
        .map(|s| s.trim_start_matches('?').to_string())
        .unwrap_or_default()
}

/// The page's address without query or fragment (works under any sub-path).
pub fn base_url() -> String {
    window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// Puts `query` in the address bar without reloading or adding history entries; keeps the
/// fragment (where an agent's pairing token lives).
pub fn replace_query(query: &str) {
    let Some(w) = window() else { return };
    let hash = w.location().hash().unwrap_or_default();
    let url = format!("{}?{query}{hash}", base_url());
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

fn storage() -> Option<web_sys::Storage> {
    window()?.local_storage().ok().flatten()
}

/// The query saved by the last session, if any.
pub fn saved_query() -> Option<String> {
    storage()?.get_item(STORAGE_KEY).ok().flatten()
}

/// Saves the query for the next session.
pub fn save_query(query: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(STORAGE_KEY, query);
    }
}

/// The viewport's width in CSS px (a wide default where there is no window).
pub fn viewport_width() -> f64 {
    window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(1280.0)
}

/// Whether the system asks for a dark colour scheme.
pub fn prefers_dark() -> bool {
    window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Milliseconds since navigation started (`performance.now()`).
pub fn now_ms() -> f64 {
    window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Records a named moment on the performance timeline (read by the benchmarks).
pub fn mark(name: &str) {
    if let Some(p) = window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

fn click_download(href: &str, filename: &str) {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(a) = doc.create_element("a") else {
        return;
    };
    let a: web_sys::HtmlAnchorElement = a.unchecked_into();
    a.set_href(href);
    a.set_download(filename);
    a.click();
}

fn blob_url(text: &str, mime: &str) -> Option<String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

/// Offers `text` as a file download.
pub fn download(filename: &str, mime: &str, text: &str) {
    if let Some(url) = blob_url(text, mime) {
        click_download(&url, filename);
        let _ = web_sys::Url::revoke_object_url(&url);
    }
}

/// The width and height of the `viewBox` of the `<svg>` with `id`.
pub fn svg_size(id: &str) -> Option<(f64, f64)> {
    let el = window()?.document()?.get_element_by_id(id)?;
    let view_box = el.get_attribute("viewBox")?;
    let numbers: Vec<f64> = view_box
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect();
    match numbers[..] {
        [_, _, w, h] if w > 0.0 && h > 0.0 => Some((w, h)),
        _ => None,
    }
}

/// The markup of the element with `id` (the chart's `<svg>`), with an XML declaration.
pub fn svg_markup(id: &str) -> Option<String> {
    let el = window()?.document()?.get_element_by_id(id)?;
    Some(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}",
        el.outer_html()
    ))
}

/// Renders SVG markup to a PNG of `width` x `height` pixels and offers it as a download.
pub fn download_png(svg: &str, filename: &str, width: u32, height: u32) {
    let Some(url) = blob_url(svg, "image/svg+xml") else {
        return;
    };
    let Ok(img) = web_sys::HtmlImageElement::new() else {
        return;
    };
    let name = filename.to_string();
    let img_for_load = img.clone();
    let url_for_load = url.clone();
    let onload = Closure::once(move || {
        let _ = web_sys::Url::revoke_object_url(&url_for_load);
        let Some(doc) = window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(canvas) = doc.create_element("canvas") else {
            return;
        };
        let canvas: web_sys::HtmlCanvasElement = canvas.unchecked_into();
        canvas.set_width(width);
        canvas.set_height(height);
        let Ok(Some(ctx)) = canvas.get_context("2d") else {
            return;
        };
        let ctx: web_sys::CanvasRenderingContext2d = ctx.unchecked_into();
        let _ = ctx.draw_image_with_html_image_element_and_dw_and_dh(
            &img_for_load,
            0.0,
            0.0,
            f64::from(width),
            f64::from(height),
        );
        if let Ok(data) = canvas.to_data_url_with_type("image/png") {
            click_download(&data, &name);
        }
    });
    img.set_onload(Some(onload.as_ref().unchecked_ref()));
    onload.forget();
    img.set_src(&url);
}

/// The file chosen in the `<input type="file">` an event came from; the input is cleared so
/// that choosing the same file again fires again.
pub fn chosen_file(ev: &web_sys::Event) -> Option<web_sys::File> {
    let input = ev.target()?.dyn_into::<web_sys::HtmlInputElement>().ok()?;
    let file = input.files()?.get(0)?;
    input.set_value("");
    Some(file)
}

/// Reads a file chosen in an `<input type="file">` as text.
pub async fn read_text(file: web_sys::File) -> Result<String, String> {
    let text = wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .map_err(|e| format!("cannot read the file: {e:?}"))?;
    text.as_string()
        .ok_or_else(|| "the file is not text".to_string())
}

const PAIRING_KEY: &str = "rooflinr.agent";
const LAB_KEY: &str = "rooflinr.lab";

/// The page's fragment (where a pairing link puts the agent), without `#`.
pub fn fragment() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_string())
        .unwrap_or_default()
}

/// Removes the fragment from the address bar, so the token is not copied or bookmarked.
pub fn clear_fragment() {
    let Some(w) = window() else { return };
    let url = format!(
        "{}{}",
        base_url(),
        w.location().search().unwrap_or_default()
    );
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// The page's origin (`https://rooflinr.github.io`).
pub fn origin() -> String {
    window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// Remembers the agent paired with, for the next visit (as its pairing fragment).
pub fn save_pairing(fragment: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(PAIRING_KEY, fragment);
    }
}

/// The pairing fragment remembered from last time.
pub fn saved_pairing() -> Option<String> {
    storage()?.get_item(PAIRING_KEY).ok().flatten()
}

/// Puts `text` on the clipboard; false where the browser has no clipboard.
pub fn copy_to_clipboard(text: &str) -> bool {
    let Some(w) = window() else {
        return false;
    };
    let _ = w.navigator().clipboard().write_text(text);
    true
}

/// Asks the user to confirm `question`; false when they decline or cannot be asked.
pub fn confirm(question: &str) -> bool {
    window()
        .and_then(|w| w.confirm_with_message(question).ok())
        .unwrap_or(false)
}

/// The current time as ISO 8601 (`2026-11-23T10:53:32.000Z`).
pub fn now_iso() -> String {
    js_sys::Date::new_0().to_iso_string().into()
}

/// Forgets the agent.
pub fn forget_pairing() {
    if let Some(s) = storage() {
        let _ = s.remove_item(PAIRING_KEY);
    }
}

/// Saves the measurements and imports (JSON).
pub fn save_lab(json: &str) -> Result<(), String> {
    let s = storage().ok_or("this browser keeps no local storage")?;
    s.set_item(LAB_KEY, json).map_err(|_| {
        "the browser's storage is full: export the measurements, then clear some".to_string()
    })
}

/// Forgets the saved measurements and imports (there are none to keep).
pub fn forget_lab() {
    if let Some(s) = storage() {
        let _ = s.remove_item(LAB_KEY);
    }
}

/// The saved measurements and imports (JSON); none where nothing, or only an empty string
/// (what earlier versions saved for no measurements), is stored.
pub fn saved_lab() -> Option<String> {
    storage()?
        .get_item(LAB_KEY)
        .ok()
        .flatten()
        .filter(|json| !json.trim().is_empty())
}

/// Whether anything answers HTTP at `url` (a no-cors request: the status is not readable,
/// only whether a response came).
pub async fn reachable(url: &str) -> bool {
    let Some(w) = window() else { return false };
    let init = web_sys::RequestInit::new();
    init.set_mode(web_sys::RequestMode::NoCors);
    wasm_bindgen_futures::JsFuture::from(w.fetch_with_str_and_init(url, &init))
        .await
        .is_ok()
}

/// The text at `url` (relative to the page), or why it could not be had: no answer, or an
/// HTTP status other than 200.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let w = window().ok_or("no window")?;
    let response = wasm_bindgen_futures::JsFuture::from(w.fetch_with_str(url))
        .await
        .map_err(|_| format!("no answer for {url} (is the network down?)"))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("no HTTP response for {url}"))?;
    if response.status() != 200 {
        return Err(format!("{url} answered HTTP {}", response.status()));
    }
    let text = response.text().map_err(|_| format!("cannot read {url}"))?;
    wasm_bindgen_futures::JsFuture::from(text)
        .await
        .map_err(|_| format!("cannot read {url}"))?
        .as_string()
        .ok_or_else(|| format!("{url} is not text"))
}
