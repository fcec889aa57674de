//! Component tests in a real browser (wasm-bindgen-test in headless Chromium): the app is
//! mounted into the test page, driven through DOM events as a user would, and what it
//! shows is checked against the model crate's own answers.
#![cfg(target_arch = "wasm32")]

use rooflinr_model::analysis::{self, AttentionKernel, Phase, Scenario};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::registry;
use rooflinr_model::ops::Precision;
use rooflinr_model::presets;
use rooflinr_model::roofline::Efficiency;
use rooflinr_model::units::si;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Mounts a fresh calculator (with no saved session) into its own container.
fn mount() -> web_sys::HtmlElement {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.clear().unwrap();
    // Each test starts from the runner's own page address, with no query.
    let window = web_sys::window().unwrap();
    let path = window.location().pathname().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path))
        .unwrap();
    // Remove the previous test's calculator (never the runner's own output in the body).
    if let Some(old) = document().get_element_by_id("test-host") {
        old.remove();
    }
    let body = document().body().unwrap();
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    host.set_id("test-host");
    body.append_child(&host).unwrap();
    leptos::mount::mount_to(host.clone(), rooflinr_web::App).forget();
    host
}

/// Lets the reactive system and the DOM settle.
async fn settle() {
    for _ in 0..3 {
        leptos::task::tick().await;
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            web_sys::window()
                .unwrap()
                .set_timeout_with_callback(&resolve)
                .unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    }
}

fn find(host: &web_sys::HtmlElement, selector: &str) -> web_sys::Element {
    host.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("nothing matches `{selector}`"))
}

fn count(host: &web_sys::HtmlElement, selector: &str) -> u32 {
    host.query_selector_all(selector).unwrap().length()
}

fn text(host: &web_sys::HtmlElement, selector: &str) -> String {
    find(host, selector).text_content().unwrap_or_default()
}

/// Sets a form control's value and fires the event a user's edit would.
fn edit(el: &web_sys::Element, value: &str, event: &str) {
    js_sys::Reflect::set(el, &"value".into(), &value.into()).unwrap();
    let ev = web_sys::Event::new_with_event_init_dict(event, &{
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        init
    })
    .unwrap();
    el.dispatch_event(&ev).unwrap();
}

fn click(el: &web_sys::Element) {
    el.unchecked_ref::<web_sys::HtmlElement>().click();
}

fn button(host: &web_sys::HtmlElement, label: &str) -> web_sys::Element {
    let all = host.query_selector_all("button").unwrap();
    (0..all.length())
        .filter_map(|i| all.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .find(|b| b.text_content().unwrap_or_default().trim() == label)
        .unwrap_or_else(|| panic!("no button `{label}`"))
}

#[wasm_bindgen_test]
async fn default_view_shows_the_model_crates_answer() {
    let host = mount();
    settle().await;
    let h100 = registry::get("h100-sxm").unwrap();
    let config = presets::get("llama-3-8b").unwrap();
    let expected = analysis::analyze(
        &config,
        &h100,
        &Scenario {
            phase: Phase::Decode,
            batch: 1,
            seq: 4096,
            precision: Precision::uniform(Format::Fp16),
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
            experts: None,
        },
        &Efficiency::IDEAL,
    )
    .unwrap();
    assert_eq!(
        text(&host, "[data-figure=model-time]"),
        si(expected.time.get(), "s")
    );
    assert_eq!(
        text(&host, "[data-figure=model-tokens]"),
        format!("{:.1}", expected.tokens_per_s)
    );
    // One roof line per distinct peak, the memory roof, and a point per operator of both phases.
    assert!(count(&host, "#roofline-chart path") >= 2);
    assert!(
        count(&host, "#roofline-chart .point[data-phase=decode]") > 5,
        "decode points"
    );
    assert!(
        count(&host, "#roofline-chart .point[data-phase=prefill]") > 5,
        "prefill points"
    );
    assert_eq!(
        count(&host, "#operators tbody tr") as usize,
        expected.ops.len()
    );
}

#[wasm_bindgen_test]
async fn a_malformed_config_is_named_inline_and_the_page_survives() {
    let host = mount();
    settle().await;
    edit(&find(&host, "#model-select"), "custom", "change");
    settle().await;
    assert!(text(&host, "#problem").contains("paste a Hugging Face config.json"));
    edit(
        &find(&host, "#config-text"),
        "{\"model_type\": \"llama\",",
        "input",
    );
    settle().await;
    let problem = text(&host, "#problem");
    assert!(
        problem.contains("config.json") && problem.contains("cannot parse"),
        "{problem}"
    );
    // The chart frame and the controls are still there.
    assert!(count(&host, "#roofline-chart") == 1);
    // A valid config brings the analysis back.
    let valid = presets::PRESETS
        .iter()
        .find(|p| p.0 == "qwen2.5-7b")
        .unwrap()
        .2;
    edit(&find(&host, "#config-text"), valid, "input");
    settle().await;
    assert_eq!(count(&host, "#problem"), 0);
    assert!(count(&host, "#operators tbody tr") > 5);
}

#[wasm_bindgen_test]
async fn operator_mode_ranks_every_format_and_flags_bad_numbers() {
    let host = mount();
    settle().await;
    click(&button(&host, "One operator"));
    settle().await;
    assert_eq!(
        count(&host, "#ranking tbody tr") as usize,
        Format::CATALOGUE.len() - 1
    );
    assert_eq!(text(&host, "[data-figure=op-bound]"), "memory-bound");
    edit(&find(&host, "#field-k"), "12abc", "input");
    settle().await;
    assert_eq!(
        find(&host, "#field-k")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert!(text(&host, "label.invalid .error").contains("`12abc` is not a whole number"));
    edit(&find(&host, "#field-k"), "8192", "input");
    settle().await;
    assert_eq!(count(&host, "label.invalid"), 0);
    assert_eq!(
        count(&host, "#ranking tbody tr") as usize,
        Format::CATALOGUE.len() - 1
    );
}

#[wasm_bindgen_test]
async fn the_legend_hides_and_shows_a_series() {
    let host = mount();
    settle().await;
    let points = count(&host, "#roofline-chart .point");
    let fp16 = host
        .query_selector_all(".legend-item")
        .unwrap()
        .item(count(&host, ".legend-item") - 1)
        .unwrap()
        .dyn_into::<web_sys::Element>()
        .unwrap();
    click(&fp16);
    settle().await;
    assert_eq!(fp16.get_attribute("aria-pressed").as_deref(), Some("false"));
    let after = count(&host, "#roofline-chart .point");
    assert!(after < points, "{after} < {points}");
    click(&fp16);
    settle().await;
    let again = count(&host, "#roofline-chart .point");
    assert_eq!(again, points);
}

#[wasm_bindgen_test]
async fn the_device_filter_narrows_the_grouped_list_and_enter_picks_the_match() {
    let host = mount();
    settle().await;
    let options = |host: &web_sys::HtmlElement| count(host, "#hardware-select optgroup option");
    // Every registry device is listed once, grouped by vendor and class.
    assert_eq!(options(&host) as usize, registry::keys().len());
    assert!(
        count(
            &host,
            "#hardware-select optgroup[label='AMD · data centre']"
        ) == 1
    );
    // Filtering by an alias finds the chip it names; the device in use stays listed.
    edit(&find(&host, "#hardware-filter"), "ascent", "input");
    settle().await;
    let mut listed: Vec<String> = {
        let all = host
            .query_selector_all("#hardware-select optgroup option")
            .unwrap();
        (0..all.length())
            .filter_map(|i| all.item(i))
            .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
            .filter_map(|o| o.get_attribute("value"))
            .collect()
    };
    listed.sort();
    assert_eq!(listed, ["gb10", "h100-sxm"]);
    assert!(text(&host, "#hardware-filter-count").contains("1 match"));
    // Enter picks the first match, and the page follows.
    let input = find(&host, "#hardware-filter");
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Enter");
    init.set_bubbles(true);
    let enter =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    input.dispatch_event(&enter).unwrap();
    settle().await;
    let gb10 = registry::get("gb10").unwrap();
    assert!(
        text(&host, "#analysis-title").ends_with(&format!("on {}", gb10.name)),
        "{}",
        text(&host, "#analysis-title")
    );
    // A filter nothing matches says so and still lists the device in use.
    edit(&find(&host, "#hardware-filter"), "zzz-no-such", "input");
    settle().await;
    assert!(text(&host, "#hardware-filter-count").contains("no device matches"));
    assert_eq!(options(&host), 1);
}

#[wasm_bindgen_test]
async fn chart_points_take_focus_with_their_tooltip_and_the_chart_says_what_binds() {
    let host = mount();
    settle().await;
    let chart = find(&host, "#roofline-chart");
    let summary = chart.get_attribute("aria-label").unwrap_or_default();
    // Llama-3-8B decode at batch 1 on H100: every decode operator is memory-bound.
    assert!(summary.contains("decode: "), "{summary}");
    assert!(summary.contains("memory-bound"), "{summary}");
    let points = count(&host, "#roofline-chart .point[tabindex='0']");
    assert!(points > 5, "{points} focusable points");
    assert_eq!(count(&host, ".tooltip"), 0);
    let first = find(&host, "#roofline-chart .point");
    let label = first.get_attribute("aria-label").unwrap_or_default();
    assert!(
        label.contains("FLOP/B") && label.contains("-bound"),
        "{label}"
    );
    first
        .dispatch_event(&web_sys::Event::new("focus").unwrap())
        .unwrap();
    settle().await;
    let name = label.split(',').next().unwrap().to_string();
    assert!(
        text(&host, ".tooltip").contains(&name),
        "{}",
        text(&host, ".tooltip")
    );
    first
        .dispatch_event(&web_sys::Event::new("blur").unwrap())
        .unwrap();
    settle().await;
    assert_eq!(count(&host, ".tooltip"), 0);
}

#[wasm_bindgen_test]
async fn devices_are_added_to_and_removed_from_the_comparison() {
    let host = mount();
    settle().await;
    assert_eq!(
        count(&host, "#comparison"),
        0,
        "nothing compared by default"
    );
    edit(&find(&host, "#compare-add"), "b200", "change");
    settle().await;
    assert_eq!(count(&host, "#comparison tbody tr"), 2);
    assert!(text(&host, "#comparison").contains(&registry::get("b200").unwrap().name));
    // The device in use and those already compared are not offered again.
    let offered = count(&host, "#compare-add option[value='b200']")
        + count(&host, "#compare-add option[value='h100-sxm']");
    assert_eq!(offered, 0);
    click(&find(&host, ".chip-remove"));
    settle().await;
    assert_eq!(count(&host, "#comparison"), 0);
}
