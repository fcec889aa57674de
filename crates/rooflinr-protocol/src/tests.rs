//! Round trips, the size limit, the version check, and property tests over arbitrary
//! bytes and arbitrary JSON: the decoder answers every input with a value or an error.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::*;

#[track_caller]
fn check_client(text: &str, expected: ClientMessage) {
    let decoded: ClientMessage = decode(text.as_bytes()).expect("decodes");
    assert_eq!(decoded, expected);
    let again: ClientMessage = decode(encode(&decoded).as_bytes()).expect("round trip");
    assert_eq!(again, expected);
}

#[test]
fn client_messages_decode_as_documented() {
    check_client(
        r#"{"type":"hello","protocol":1,"client":"rooflinr-web"}"#,
        ClientMessage::Hello {
            protocol: 1,
            client: "rooflinr-web".into(),
        },
    );
    check_client(
        r#"{"type":"subscribe","telemetry":true}"#,
        ClientMessage::Subscribe { telemetry: true },
    );
    check_client(
        r#"{"type":"measure","request":{"kind":{"kind":"operators",
            "shapes":[{"m":1,"n":4096,"k":4096}],"formats":["fp16","int4-g128"]}}}"#,
        ClientMessage::Measure {
            request: JobRequest {
                kind: JobKind::Operators {
                    shapes: vec![OperatorShape {
                        m: 1,
                        n: 4096,
                        k: 4096,
                    }],
                    formats: vec![
                        rooflinr_model::format::Format::Fp16,
                        "int4-g128".parse().unwrap(),
                    ],
                },
                backend: None,
                budget: None,
            },
        },
    );
    check_client(
        r#"{"type":"measure","request":{"kind":{"kind":"ceilings"},"backend":"cpu",
            "budget":{"max_seconds":0.5,"max_noise":0.005,"min_samples":10}}}"#,
        ClientMessage::Measure {
            request: JobRequest {
                kind: JobKind::Ceilings,
                backend: Some(crate::BackendKind::Cpu),
                budget: Some(Budget {
                    max_seconds: 0.5,
                    max_noise: 0.005,
                    min_samples: 10,
                }),
            },
        },
    );
    check_client(
        r#"{"type":"cancel","job":"a-1"}"#,
        ClientMessage::Cancel {
            job: JobId("a-1".into()),
        },
    );
}

#[track_caller]
fn check_refused(text: &str, expected_fragment: &str) {
    let err = decode::<ClientMessage>(text.as_bytes()).expect_err("refused");
    assert!(
        err.to_string().contains(expected_fragment),
        "`{err}` should mention `{expected_fragment}`"
    );
}

#[test]
fn malformed_messages_are_refused_with_the_reason() {
    check_refused("{", "EOF");
    check_refused(r#"{"type":"launch_missiles"}"#, "launch_missiles");
    check_refused(r#"{"type":"cancel"}"#, "job");
    check_refused(
        r#"{"type":"subscribe","telemetry":true,"x":1}"#,
        "unknown field",
    );
    check_refused(
        r#"{"type":"measure","request":{"kind":{"kind":"operators","shapes":[{"m":-1,"n":1,"k":1}],"formats":[]}}}"#,
        "invalid value",
    );
    // A format is one the model crate knows, refused by name otherwise.
    check_refused(
        r#"{"type":"measure","request":{"kind":{"kind":"operators","shapes":[{"m":1,"n":8,"k":8}],"formats":["fp16","fp7"]}}}"#,
        "unknown format `fp7`",
    );
    // A backend is one of the kinds the protocol names, refused by name otherwise.
    check_refused(
        r#"{"type":"measure","request":{"kind":{"kind":"ceilings"},"backend":"tpu"}}"#,
        "unknown variant `tpu`, expected `cpu` or `cuda`",
    );
}

#[test]
fn backend_kinds_read_back_from_their_names() {
    for kind in crate::BackendKind::ALL {
        assert_eq!(kind.name().parse(), Ok(kind));
        assert_eq!(
            serde_json::to_string(&kind).expect("serialises"),
            format!("\"{}\"", kind.name())
        );
    }
    assert_eq!(
        "gpu".parse::<crate::BackendKind>(),
        Err("`gpu` is not a backend (cpu or cuda)".to_string())
    );
}

#[test]
fn oversized_messages_are_refused_before_parsing() {
    let big = format!(
        r#"{{"type":"hello","protocol":1,"client":"{}"}}"#,
        "x".repeat(MAX_MESSAGE_BYTES)
    );
    assert_eq!(
        decode::<ClientMessage>(big.as_bytes()),
        Err(ProtocolError::TooLarge {
            size: big.len(),
            limit: MAX_MESSAGE_BYTES
        })
    );
}

#[test]
fn version_check_names_both_versions() {
    assert_eq!(check_version(PROTOCOL_VERSION), Ok(()));
    let err = check_version(PROTOCOL_VERSION + 1).expect_err("refused");
    assert_eq!(
        err.to_string(),
        format!(
            "protocol version {} is not supported: this agent speaks version {PROTOCOL_VERSION}",
            PROTOCOL_VERSION + 1
        )
    );
}

#[test]
fn server_messages_round_trip() {
    let messages = vec![
        ServerMessage::Queued(Queued {
            job: JobId("j".into()),
            position: 2,
        }),
        ServerMessage::Finished(Finished {
            job: JobId("j".into()),
            state: JobState::Cancelled,
            results: 3,
            error: None,
        }),
        ServerMessage::Telemetry(TelemetrySample {
            seq: 7,
            unix_ms: 1,
            host: HostSample {
                cpu_util_pct: 12.5,
                cpu_freq_mhz: 3000.0,
                mem_used_bytes: 1,
                mem_total_bytes: 2,
            },
            gpus: vec![GpuSample {
                index: 0,
                throttle_reasons: vec!["sw_power_cap".into()],
                ..GpuSample::default()
            }],
        }),
        ServerMessage::Error(Refusal {
            code: ErrorCode::Invalid,
            message: "no".into(),
        }),
        ServerMessage::Hello(AgentHello {
            protocol: PROTOCOL_VERSION,
            agent_version: "0.1.0".into(),
            host: "h".into(),
            backends: Vec::new(),
            nvml: NvmlStatus::default(),
            telemetry_hz: 10.0,
            max_message_bytes: MAX_MESSAGE_BYTES,
        }),
        ServerMessage::Started(Started {
            job: JobId("j".into()),
            total: 4,
        }),
        ServerMessage::Progress(Progress {
            job: JobId("j".into()),
            done: 1,
            total: 4,
            current: "gemv 1x8x8 fp32".into(),
            eta_s: Some(0.5),
        }),
        ServerMessage::Result(JobResult {
            job: JobId("j".into()),
            index: 0,
            measurement: Box::new(measurement()),
        }),
        ServerMessage::Status(JobStatus {
            job: JobId("j".into()),
            state: JobState::Running,
            position: None,
            total: 4,
            results: vec![measurement()],
            error: None,
        }),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for m in messages {
        // Every variant, so one added to `ServerMessage` but not to the decoder's list of
        // tags fails here (this match has no catch-all).
        seen.insert(match &m {
            ServerMessage::Hello(_) => "hello",
            ServerMessage::Queued(_) => "queued",
            ServerMessage::Started(_) => "started",
            ServerMessage::Progress(_) => "progress",
            ServerMessage::Result(_) => "result",
            ServerMessage::Finished(_) => "finished",
            ServerMessage::Status(_) => "status",
            ServerMessage::Telemetry(_) => "telemetry",
            ServerMessage::Error(_) => "error",
        });
        let text = encode(&m);
        assert!(text.starts_with(r#"{"type":""#), "{text}");
        assert_eq!(decode::<ServerMessage>(text.as_bytes()), Ok(m), "{text}");
    }
    assert_eq!(seen.len(), 9);
}

/// A measurement as an agent writes it.
fn measurement() -> Measurement {
    decode(br#"{"kind":"gemv","label":"gemv 1x8x8 fp32","backend":"cpu","device":"cpu","format":"fp32","activation_format":"fp32","shape":{"m":1,"n":8,"k":8},"flops":128.0,"bytes":300.0,"bytes_counted":"all","stats":{"samples":10,"median_s":1e-6,"min_s":1e-6,"mean_s":1e-6,"noise":0.0,"converged":true,"elapsed_s":0.1},"achieved_bytes_per_s":3e8,"achieved_flops_per_s":1.28e8,"ceiling_name":null,"fraction_of_ceiling":null,"check":null,"energy_j":null,"unix_s":0.0}"#)
        .expect("a measurement")
}

/// An agent message is read tag first, straight from the text; what it refuses, it names.
#[test]
fn malformed_server_messages_are_refused_with_the_reason() {
    let refused = |text: &str, fragment: &str| {
        let err = decode::<ServerMessage>(text.as_bytes()).expect_err(text);
        assert!(
            err.to_string().contains(fragment),
            "`{err}` should mention `{fragment}`"
        );
    };
    refused(
        r#"{"job":"j","position":0,"type":"queued"}"#,
        r#"not "job""#,
    );
    refused(r#"{}"#, "missing field `type`");
    refused(r#"{"type":"launch"}"#, "launch");
    refused(r#"{"type":"queued","job":"j"}"#, "position");
    refused(
        r#"{"type":"queued","job":"j","position":0,"x":1}"#,
        "unknown field",
    );
    refused(r#"{"type":"error","code":"oops","message":""}"#, "oops");
    refused(r#"["queued"]"#, "invalid type");
    assert_eq!(
        decode::<ServerMessage>(br#"{"type":"started","job":"j","total":3}"#),
        Ok(ServerMessage::Started(Started {
            job: JobId("j".into()),
            total: 3,
        }))
    );
}

#[test]
fn records_from_agents_before_the_gpu_fields_still_decode() {
    // A result and a backend as agents wrote them before `clocks`, `capabilities`,
    // `registry_key` and the theoretical bandwidth existed: the new fields are absent.
    let result = br#"{"type":"result","job":"j","index":0,"measurement":{"kind":"gemv","label":"gemv 1x8x8 fp32","backend":"cpu","device":"cpu","format":"fp32","activation_format":"fp32","shape":{"m":1,"n":8,"k":8},"flops":128.0,"bytes":300.0,"bytes_counted":"all","stats":{"samples":10,"median_s":1e-6,"min_s":1e-6,"mean_s":1e-6,"noise":0.0,"converged":true,"elapsed_s":0.1},"achieved_bytes_per_s":3e8,"achieved_flops_per_s":1.28e8,"ceiling_name":null,"fraction_of_ceiling":null,"check":null,"energy_j":null,"unix_s":0.0}}"#;
    match decode::<ServerMessage>(result) {
        Ok(ServerMessage::Result(JobResult { measurement, .. })) => {
            assert_eq!(measurement.clocks, None)
        }
        other => panic!("{other:?}"),
    }
    let backend: BackendInfo = decode(
        br#"{"kind":"cpu","available":true,"reason":null,"device":{"name":"cpu","memory_total_bytes":1,"memory_free_bytes":1,"compute_units":2,"last_level_cache_bytes":null,"unified_memory":true,"compute_capability":null,"driver_version":null,"cuda_version":null,"memory_clock_mhz":null,"memory_bus_bits":null},"formats":["fp32"]}"#,
    )
    .expect("an older backend record");
    assert!(backend.capabilities.is_empty());
    assert_eq!(backend.device.and_then(|d| d.registry_key), None);
}

#[test]
fn seed_analyze_request_keeps_its_shape() {
    let req: api::AnalyzeRequest =
        decode(br#"{"M":1,"N":4096,"K":4096,"precision":"FP16"}"#).expect("seed body");
    assert_eq!((req.m, req.n, req.k, req.measure), (1, 4096, 4096, false));
    assert_eq!(
        serde_json::to_value(&req).expect("encodes"),
        json!({"M":1,"N":4096,"K":4096,"precision":"FP16","measure":false})
    );
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|n| json!(n)),
        prop_oneof![
            Just("type".to_string()),
            Just("hello".to_string()),
            Just("measure".to_string()),
            Just("operators".to_string()),
            ".*"
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("type".to_string()),
                    Just("kind".to_string()),
                    Just("request".to_string()),
                    Just("shapes".to_string()),
                    Just("protocol".to_string()),
                    "[a-z]{1,8}"
                ],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn arbitrary_bytes_decode_to_a_value_or_an_error(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let client = decode::<ClientMessage>(&bytes);
        let server = decode::<ServerMessage>(&bytes);
        // Whatever decoded must encode and decode to itself.
        if let Ok(m) = client {
            prop_assert_eq!(decode::<ClientMessage>(encode(&m).as_bytes()), Ok(m));
        }
        if let Ok(m) = server {
            prop_assert_eq!(decode::<ServerMessage>(encode(&m).as_bytes()), Ok(m));
        }
    }

    #[test]
    fn arbitrary_json_decodes_to_a_value_or_an_error(value in arbitrary_json()) {
        let text = value.to_string();
        match decode::<ClientMessage>(text.as_bytes()) {
            Ok(m) => prop_assert_eq!(decode::<ClientMessage>(encode(&m).as_bytes()), Ok(m)),
            Err(e) => prop_assert!(matches!(e, ProtocolError::Malformed(_))),
        }
        let _ = decode::<api::AnalyzeRequest>(text.as_bytes());
    }

    #[test]
    fn hello_with_any_client_name_round_trips(protocol in any::<u32>(), client in ".{0,64}") {
        let m = ClientMessage::Hello { protocol, client };
        prop_assert_eq!(decode::<ClientMessage>(encode(&m).as_bytes()), Ok(m));
    }
}

#[test]
fn measured_shapes_have_one_limit_and_the_error_names_the_dimension() {
    let ok = OperatorShape {
        m: 1,
        n: OperatorShape::MAX_DIM,
        k: 4096,
    };
    assert_eq!(ok.check(), Ok(()));
    let zero = OperatorShape { m: 0, ..ok };
    assert_eq!(
        zero.check().unwrap_err().to_string(),
        "M = 0 is outside 1..=1048576"
    );
    let wide = OperatorShape {
        k: OperatorShape::MAX_DIM + 1,
        ..ok
    };
    assert_eq!(wide.check().unwrap_err().dim, "K");
    // The HTTP API's spelling converts to the same shape and the same rule.
    let api: api::ApiShape = serde_json::from_str(r#"{"M":1,"N":0,"K":4}"#).unwrap();
    assert_eq!(OperatorShape::from(api).check().unwrap_err().dim, "N");
}

#[test]
fn a_sampled_point_achieves_its_work_over_its_median_time() {
    let stats = Stats {
        samples: 5,
        median_s: 2e-3,
        min_s: 1e-3,
        mean_s: 3e-3,
        noise: 0.01,
        converged: true,
        elapsed_s: 0.1,
    };
    let m = Measurement::sampled(
        MeasurementKind::Gemv,
        "gemv".into(),
        BackendKind::Cuda,
        "gpu".into(),
        (4e9, 6e9, "weights read once"),
        stats,
        1.0,
    );
    assert_eq!(
        (m.achieved_flops_per_s, m.achieved_bytes_per_s),
        (2e12, 3e12)
    );
    assert_eq!(m.bytes_counted, "weights read once");
    assert_eq!(
        (m.format, m.check, m.fraction_of_ceiling),
        (None, None, None)
    );
}
