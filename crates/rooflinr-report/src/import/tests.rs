//! Importers: the documented shapes, every refusal naming its place, and no input that
//! panics.

use proptest::prelude::*;
use rooflinr_model::format::{Format, Math};
use rooflinr_protocol::{JobId, JobResult, MeasurementKind, ServerMessage, Started};

use super::*;
use crate::kernel::tests::measurement;

const SEED_CSV: &str = "kernel,op,flops,bytes,time_us,phase
cutlass_scaled_fp4_mm,q_b_proj,9.7e9,26.1e6,2.5,prefill
rmsnorm,layernorm,35840,28672,3.1,decode
bmm_fp8,q_nope * w_kc,16777216,8519680,4.0,decode
";

#[test]
fn the_seed_benchmark_csv_imports_with_units_and_types() {
    let imported = import(SEED_CSV).unwrap();
    assert_eq!(imported.kind, Kind::KernelCsv);
    let k = &imported.kernels;
    assert_eq!(k.len(), 3);
    assert_eq!(k[0].kernel, "cutlass_scaled_fp4_mm");
    assert_eq!(k[0].op, "q_b_proj");
    assert_eq!(k[0].phase, "prefill");
    assert_eq!((k[0].flops, k[0].bytes), (9.7e9, 26.1e6));
    assert!((k[0].time_s - 2.5e-6).abs() < 1e-18);
    // No format column: the type comes from the name, FP16 where it says nothing.
    assert_eq!(k[0].math, Math::Fp4);
    assert_eq!(k[1].math, Math::Fp16);
    assert_eq!(k[2].math, Math::Fp8);
    assert!(imported.notes[0].contains("3 kernel(s) have no format the model knows"));
}

#[test]
fn headers_are_matched_loosely_and_formats_read() {
    let text = "\u{feff}Kernel Name,FLOPs,Bytes Moved,Time (µs),Phase,dtype,Energy J\nk1,100,50,2,Decode,int8,0.25\n";
    let k = &import(text).unwrap().kernels[0];
    assert_eq!(k.kernel, "k1");
    assert_eq!(k.op, "k1");
    assert_eq!(k.phase, "decode");
    assert_eq!(k.math, Math::Int8);
    assert_eq!(k.format, Some(Format::Int8));
    assert_eq!(k.energy_j, Some(0.25));
    assert!((k.time_s - 2e-6).abs() < 1e-18);
    let ms = import("name,flops,bytes,latency_ms\na,1,1,1.5\n").unwrap();
    assert!((ms.kernels[0].time_s - 1.5e-3).abs() < 1e-15);
}

#[test]
fn refusals_name_the_line_and_the_column() {
    let e = import("kernel,flops,time_us\na,1,2\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "no `bytes` column (the header has: kernel, flops, time_us)"
    );
    let e = import("kernel,flops,bytes,time\na,1,2,3\n").unwrap_err();
    assert!(
        e.to_string().contains("`time` has none: name it time_s"),
        "{e}"
    );
    let e = import("kernel,flops,bytes,time_us\na,1,2,3\nb,x,2,3\n").unwrap_err();
    assert_eq!(e.to_string(), "line 3, column `flops`: `x` is not a number");
    let e = import("kernel,flops,bytes,time_us\na,1,2,0\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, column `time_us`: 0 is not above zero"
    );
    let e = import("kernel,flops,bytes,time_us\na,-1,2,1\n").unwrap_err();
    assert_eq!(e.to_string(), "line 2, column `flops`: -1 is negative");
    let e = import("kernel,flops,bytes,time_us\na,1,,1\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, column `bytes`: empty; a number is needed"
    );
    assert_eq!(
        import("kernel,flops,bytes,time_us\n").unwrap_err(),
        ImportError::NoRows
    );
    assert_eq!(import("  \n\n").unwrap_err(), ImportError::Empty);
    let e = import("flops,bytes,time_s\n1,1,1\n").unwrap_err();
    assert!(
        e.to_string().starts_with("no `kernel (or op)` column"),
        "{e}"
    );
}

const NCU_RAW: &str = r#"==PROF== Connected to process 4242
"ID","Process ID","Process Name","Host Name","Kernel Name","gpu__time_duration.sum","dram__bytes.sum","smsp__sass_thread_inst_executed_op_ffma_pred_on.sum","smsp__sass_thread_inst_executed_op_fadd_pred_on.sum","smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"
"","","","","","usecond","Mbyte","inst","inst","Kinst"
"0","4242","python","box","void gemv_kernel<float>(float*, int)","12.5","33.6","16,777,216","4096","0"
"1","4242","python","box","sm90_xmma_gemm_bf16bf16_bf16f32","500","120","0","0","0"
==PROF== Disconnected from process 4242
"#;

#[test]
fn nsight_compute_raw_page_reads_units_and_counts_fmas_twice() {
    let imported = import(NCU_RAW).unwrap();
    assert_eq!(imported.kind, Kind::NsightCompute);
    let k = &imported.kernels;
    assert_eq!(k.len(), 2);
    assert_eq!(k[0].kernel, "void gemv_kernel<float>(float*, int)");
    assert_eq!(k[0].op, "void gemv_kernel");
    assert!((k[0].time_s - 12.5e-6).abs() < 1e-18);
    assert_eq!(k[0].bytes, 33.6e6);
    assert_eq!(k[0].flops, 2.0 * 16_777_216.0 + 4096.0);
    assert_eq!(k[0].math, Math::Fp32);
    // Tensor-core work is not in the SASS counters: listed, said, not invented, not placed.
    assert_eq!(k[1].flops, 0.0);
    assert!(!k[1].flops_counted);
    assert!(k[0].flops_counted);
    assert_eq!(k[1].math, Math::Bf16);
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.starts_with("1 kernel(s) have no FLOPs counted"))
    );
}

#[test]
fn nsight_compute_details_page_is_read_per_kernel() {
    let text = r#""ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","1","app","h","rmsnorm_kernel","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","GPU Speed Of Light Throughput","Duration","nsecond","4,160"
"0","1","app","h","rmsnorm_kernel","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","Command line profiler metrics","dram__bytes_read.sum","Kbyte","16.38"
"0","1","app","h","rmsnorm_kernel","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","Command line profiler metrics","dram__bytes_write.sum","Kbyte","16.38"
"0","1","app","h","rmsnorm_kernel","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","Command line profiler metrics","smsp__sass_thread_inst_executed_op_fmul_pred_on.sum","inst","40,960"
"1","1","app","h","silu_and_mul","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","GPU Speed Of Light Throughput","Duration","usecond","2.5"
"1","1","app","h","silu_and_mul","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","Command line profiler metrics","dram__bytes.sum","byte","49152"
"#;
    let k = import(text).unwrap().kernels;
    assert_eq!(k.len(), 2);
    assert!((k[0].time_s - 4.16e-6).abs() < 1e-18);
    assert!((k[0].bytes - 32_760.0).abs() < 1e-9);
    assert_eq!(k[0].flops, 40_960.0);
    assert_eq!(k[1].bytes, 49_152.0);
    assert!((k[1].time_s - 2.5e-6).abs() < 1e-18);
}

#[test]
fn nsight_compute_without_bytes_is_refused_by_name() {
    // No kernel has bytes: the file lacks the metric, and the refusal says how to collect it.
    let text = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"\",\"\",\"nsecond\"\n\"0\",\"k\",\"100\"\n";
    let e = import(text).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "this Nsight Compute raw-page export of 1 launch of 1 kernel has no DRAM bytes"
        ),
        "{e}"
    );
    assert!(e.contains("re-export with `ncu --csv --page raw --metrics gpu__time_duration.sum,dram__bytes_read.sum"), "{e}");
    // One kernel of two lacks them: that kernel is named.
    let text = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\"\n\"\",\"\",\"nsecond\",\"byte\"\n\"0\",\"k\",\"100\",\"5\"\n\"1\",\"j\",\"100\",\"\"\n";
    let e = import(text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 4, column `dram__bytes.sum`: kernel `j` (ID 1) has no value, though other kernels in the file do"
    );
    let text = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\"\n\"\",\"\",\"fortnight\",\"byte\"\n\"0\",\"k\",\"100\",\"5\"\n";
    let e = import(text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3, column `gpu__time_duration.sum`: unit `fortnight` is not known"
    );
}

/// Equal JSON trees, numbers within a relative 1e-15.
fn assert_close(a: &serde_json::Value, b: &serde_json::Value) {
    use serde_json::Value::{Array, Number, Object};
    match (a, b) {
        (Number(x), Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!((x - y).abs() <= 1e-15 * x.abs().max(y.abs()), "{x} != {y}");
        }
        (Array(x), Array(y)) => {
            assert_eq!(x.len(), y.len());
            x.iter().zip(y).for_each(|(x, y)| assert_close(x, y));
        }
        (Object(x), Object(y)) => {
            assert_eq!(x.keys().collect::<Vec<_>>(), y.keys().collect::<Vec<_>>());
            x.values()
                .zip(y.values())
                .for_each(|(x, y)| assert_close(x, y));
        }
        _ => assert_eq!(a, b),
    }
}

#[test]
fn the_lab_export_round_trips_and_foreign_json_is_refused() {
    let ms = vec![
        measurement(MeasurementKind::Copy, None, 0.0, 1e9, 0.1),
        measurement(MeasurementKind::Gemv, Some("fp16"), 1e6, 1e6, 1e-3),
    ];
    let kernels = import(SEED_CSV).unwrap().kernels;
    let file = LabFile::new(Some("h100-sxm".into()), ms.clone(), kernels.clone());
    let back = import(&serde_json::to_string_pretty(&file).unwrap()).unwrap();
    assert_eq!(back.kind, Kind::RooflinrJson);
    // serde_json's default float parser is exact to within one ulp (its `float_roundtrip`
    // feature, exact, costs the browser bundle 9 KB gzipped): equal as JSON, numbers to 1e-15.
    assert_close(
        &serde_json::to_value(&back.measurements).unwrap(),
        &serde_json::to_value(&ms).unwrap(),
    );
    assert_close(
        &serde_json::to_value(&back.kernels).unwrap(),
        &serde_json::to_value(&kernels).unwrap(),
    );
    assert_eq!(back.hardware.as_deref(), Some("h100-sxm"));
    assert_eq!(back.all_kernels().len(), 1 + kernels.len());
    let e = import(r#"{"rooflinr": "something-else", "version": 1}"#).unwrap_err();
    assert!(e.to_string().contains("expected `rooflinr-lab`"), "{e}");
    let e = import(r#"{"rooflinr": "rooflinr-lab", "version": 9}"#).unwrap_err();
    assert!(e.to_string().contains("layout version 9"), "{e}");
    let mut bad = file.clone();
    bad.kernels[0].time_s = -1.0;
    let e = import(&serde_json::to_string(&bad).unwrap()).unwrap_err();
    assert!(e.to_string().contains("kernel 1: time -1 s"), "{e}");
}

#[test]
fn agent_results_jsonl_keeps_what_a_crash_left() {
    let job = JobId("job-1".into());
    let line = |index| {
        serde_json::to_string(&ServerMessage::Result(JobResult {
            job: job.clone(),
            index,
            measurement: Box::new(measurement(
                MeasurementKind::Gemv,
                Some("int8"),
                1e6,
                1e6,
                1e-3,
            )),
        }))
        .unwrap()
    };
    let started = serde_json::to_string(&ServerMessage::Started(Started {
        job: job.clone(),
        total: 3,
    }))
    .unwrap();
    let full = line(1);
    let text = format!(
        "{started}\n{}\n{}\n{}",
        line(0),
        full,
        &full[..full.len() / 2]
    );
    let imported = import(&text).unwrap();
    assert_eq!(imported.kind, Kind::AgentJsonl);
    assert_eq!(imported.measurements.len(), 2);
    assert!(imported.notes[0].starts_with("line 4 is incomplete"));
    let broken = format!("{started}\nnot json\n{}", line(0));
    assert!(import(&broken).unwrap_err().to_string().contains("line 2"));
}

#[test]
fn oversized_input_is_refused_before_parsing() {
    let text = "k".repeat(MAX_IMPORT_BYTES + 1);
    assert_eq!(
        import(&text).unwrap_err(),
        ImportError::TooLarge {
            bytes: MAX_IMPORT_BYTES + 1
        }
    );
}

proptest! {
    #[test]
    fn no_text_panics(text in ".{0,400}") {
        let _ = import(&text);
    }

    #[test]
    fn no_csv_like_text_panics(rows in proptest::collection::vec(
        proptest::collection::vec(prop_oneof![
            Just("kernel".to_string()), Just("flops".to_string()), Just("bytes".to_string()),
            Just("time_us".to_string()), Just("\"Kernel Name\"".to_string()), Just("ID".to_string()),
            Just("gpu__time_duration.sum".to_string()), Just("Metric Name".to_string()),
            "[-0-9.e,x\"]{0,8}",
        ], 0..7), 0..6)) {
        let text: String = rows.iter().map(|r| r.join(",")).collect::<Vec<_>>().join("\n");
        let _ = import(&text);
    }

    #[test]
    fn written_rows_read_back(rows in proptest::collection::vec(
        ("[a-z_]{1,12}", 0.0f64..1e15, 0.0f64..1e12, 1e-3f64..1e6), 1..20)) {
        let mut text = String::from("kernel,flops,bytes,time_us\n");
        for (k, f, b, t) in &rows {
            text.push_str(&format!("{k},{f:e},{b:e},{t:e}\n"));
        }
        let imported = import(&text).unwrap();
        prop_assert_eq!(imported.kernels.len(), rows.len());
        for (k, (name, f, b, t)) in imported.kernels.iter().zip(&rows) {
            prop_assert_eq!(&k.kernel, name);
            prop_assert_eq!(k.flops, *f);
            prop_assert_eq!(k.bytes, *b);
            prop_assert!((k.time_s - t * 1e-6).abs() <= 1e-12 * t * 1e-6);
        }
    }
}
