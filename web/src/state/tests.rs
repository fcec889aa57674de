//! Tests of the URL encoding of the calculator's state.

use proptest::prelude::*;

use super::*;

#[test]
fn default_state_round_trips() {
    let s = State::default();
    let q = s.to_query();
    assert_eq!(
        q,
        "v=1&mode=model&hw=h100-sxm&act=fp16&w=fp16&kv=fp16&out=fp16&model=llama-3-8b&phase=decode&batch=1&seq=4096"
    );
    assert_eq!(State::from_query(&q), (s, vec![]));
}

#[test]
fn operator_state_with_custom_device_round_trips() {
    let mut s = State {
        mode: Mode::Operator,
        op: OpKind::Attention,
        hardware: CUSTOM.into(),
        vary: Vary::Weights,
        theme: Theme::Dark,
        causal: false,
        kv: "nvfp4".into(),
        ..State::default()
    };
    s.custom.name = "Chip & Co / 2026".into();
    s.custom.block_scaled = true;
    s.hidden.insert("roof:fp32".into());
    s.hidden.insert("fmt:int8".into());
    let q = s.to_query();
    assert!(q.contains("hw_name=Chip+%26+Co+%2F+2026"), "{q}");
    assert!(q.contains("hide=fmt%3Aint8%2Croof%3Afp32"), "{q}");
    // Model-only keys are not written in operator mode.
    assert!(!q.contains("seq="), "{q}");
    let (back, warnings) = State::from_query(&format!("?{q}"));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(back, s);
}

#[test]
fn a_comparison_travels_in_the_link_and_bad_devices_are_named() {
    let s = State {
        compare: vec!["b200".into(), "gb10".into()],
        ..State::default()
    };
    let q = s.to_query();
    assert!(q.contains("cmp=b200%2Cgb10"), "{q}");
    assert_eq!(State::from_query(&q), (s, Vec::new()));
    let (s, warnings) = State::from_query("cmp=b200,tpu-v9,B200,h200,h20,l4,l40s,a100");
    assert_eq!(s.compare, ["b200", "h200", "h20", "l4", "l40s"]);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("unknown device `tpu-v9`"));
    assert!(warnings[1].contains("at most 5 devices"));
}

#[test]
fn a_pasted_config_travels_in_the_link() {
    let s = State {
        model: CUSTOM.into(),
        config: r#"{"model_type": "llama", "hidden_size": 4096}"#.into(),
        phase: Phase::Prefill,
        ..State::default()
    };
    assert_eq!(State::from_query(&s.to_query()).0, s);
}

#[test]
fn a_deployment_travels_in_the_link() {
    let s = State {
        mode: Mode::Deploy,
        model: "deepseek-v3".into(),
        tp: "2".into(),
        pp: "1".into(),
        dp: "4".into(),
        ep: true,
        prompt: "2048".into(),
        generated: "512".into(),
        concurrency: "128".into(),
        overlap: true,
        ..State::default()
    };
    let q = s.to_query();
    assert!(
        q.contains("mode=deploy") && q.contains("ep=1") && q.contains("conc=128"),
        "{q}"
    );
    assert_eq!(State::from_query(&q), (s, Vec::new()));
    let (s, warnings) = State::from_query("mode=deploy&ep=yes&tp=4");
    assert_eq!((s.mode, s.ep, s.tp.as_str()), (Mode::Deploy, false, "4"));
    assert!(warnings[0].contains("`ep=yes`"), "{warnings:?}");
}

#[test]
fn the_serving_controls_travel_in_the_link_only_when_set() {
    let s = State {
        mode: Mode::Deploy,
        model: "deepseek-v3".into(),
        serving: Serving::Static,
        draft_tokens: "1".into(),
        acceptance: "0.7".into(),
        prefix_hit: "0.5".into(),
        ..State::default()
    };
    let q = s.to_query();
    for key in ["serve=static", "mtp=1", "acc=0.7", "pfx=0.5"] {
        assert!(q.contains(key), "{key} in {q}");
    }
    assert_eq!(State::from_query(&q), (s, Vec::new()));
    let plain = State {
        mode: Mode::Deploy,
        ..State::default()
    }
    .to_query();
    for key in ["serve=", "mtp=", "acc=", "pfx=", "pw=", "dw=", "pl="] {
        assert!(!plain.contains(key), "{key} in {plain}");
    }
    let disaggregated = State {
        mode: Mode::Deploy,
        serving: Serving::Disaggregated,
        prefill_layout: "tp4".into(),
        prefill_workers: "3".into(),
        decode_workers: "2".into(),
        ..State::default()
    };
    let q = disaggregated.to_query();
    for key in ["serve=disagg", "pl=tp4", "pw=3", "dw=2"] {
        assert!(q.contains(key), "{key} in {q}");
    }
    assert_eq!(State::from_query(&q), (disaggregated, Vec::new()));
    // Links made before the serving choice had three values still open as they were.
    let (old, warnings) = State::from_query("mode=deploy&static=1");
    assert_eq!((old.serving, warnings.len()), (Serving::Static, 0));
}

#[test]
fn bad_values_warn_and_keep_defaults() {
    let (s, warnings) = State::from_query("mode=chart&phase=decoding&v=9&unknown=1&seq=12");
    assert_eq!(s.mode, Mode::Model);
    assert_eq!(s.phase, Phase::Decode);
    assert_eq!(s.seq, "12");
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(warnings[0].contains("`mode=chart`"), "{warnings:?}");
}

#[test]
fn empty_and_garbage_queries_give_defaults() {
    assert_eq!(State::from_query(""), (State::default(), vec![]));
    let (s, _) = State::from_query("&&=&%zz&%%%");
    assert_eq!(s, State::default());
}

fn text() -> impl Strategy<Value = String> {
    // Any printable text, including the separators the encoding must escape.
    "[ -~é€&=%+#?,:]{0,24}"
}

proptest! {
    #[test]
    fn any_text_fields_round_trip(
        m in text(), seq in text(), config in text(), name in text(),
        hardware in prop_oneof![Just(CUSTOM.to_string()), text()],
        model in prop_oneof![Just(CUSTOM.to_string()), text()],
        mode in prop_oneof![Just(Mode::Operator), Just(Mode::Model), Just(Mode::Deploy)],
        tp in text(), concurrency in text(), ep in any::<bool>(),
    ) {
        let mut s = State {
            mode,
            m, seq, config, hardware, model, tp, concurrency, ep,
            ..State::default()
        };
        s.custom.name = name;
        let (back, warnings) = State::from_query(&s.to_query());
        prop_assert!(warnings.is_empty());
        // Fields not written for this mode come back as defaults: compare what is shown.
        prop_assert_eq!(back.to_query(), s.to_query());
    }

    #[test]
    fn any_query_parses_without_panicking(q in "\\PC{0,200}") {
        let _ = State::from_query(&q);
    }
}

#[test]
fn the_framework_travels_in_the_link_when_it_is_not_the_default() {
    let default = State::default();
    assert!(!default.to_query().contains("fw="));
    let s = State {
        framework: Framework::Sglang,
        ..State::default()
    };
    let q = s.to_query();
    assert!(q.contains("fw=sglang"), "{q}");
    assert_eq!(State::from_query(&q), (s, Vec::new()));
    let (back, warnings) = State::from_query("fw=tgi");
    assert_eq!(back.framework, Framework::TensorRtLlm);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("fw=tgi"), "{warnings:?}");
}

#[test]
fn the_experts_format_travels_in_the_link_only_when_set() {
    let s = State {
        model: "gpt-oss-120b".into(),
        weights: "bf16".into(),
        experts: "mxfp4".into(),
        ..State::default()
    };
    let q = s.to_query();
    assert!(q.contains("xw=mxfp4"), "{q}");
    assert_eq!(State::from_query(&q), (s, Vec::new()));
    assert!(!State::default().to_query().contains("xw="));
}
