//! Profiler exports as people produce them: the real files in `../shared/imports/`
//! (beside the checkout in CI; each behaves as that folder's README says a tool should),
//! and fixtures for the other patterns seen in the wild.

use rooflinr_model::format::Math;

use super::*;

/// `../shared/imports/NAME` from the workspace root, or `None` (with the reason printed)
/// on a clone without it.
fn shared(name: &str) -> Option<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/imports")
        .join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!(
                "skipped: {} is not here ({e}); the real-export checks run where shared/ sits beside the checkout, as in CI",
                path.display()
            );
            None
        }
    }
}

#[test]
fn b200_raw_page_without_dram_bytes_is_refused_with_the_command() {
    let Some(text) = shared("ncu_raw-page_b200_torch-sdpa-flash_16-launches_no-dram-bytes.csv")
    else {
        return;
    };
    let e = import(&text).unwrap_err();
    assert!(
        matches!(
            e,
            ImportError::MissingMetric {
                page: "raw-page",
                ..
            }
        ),
        "{e}"
    );
    let e = e.to_string();
    // What was understood comes before what is missing: the page, its 16 launches and the
    // device the file names.
    assert!(
        e.starts_with("this Nsight Compute raw-page export of 16 launches of ")
            && e.contains(" on NVIDIA B200")
            && e.find("NVIDIA B200") < e.find("has no DRAM bytes"),
        "{e}"
    );
    assert!(
        e.contains("ncu --csv --page raw --metrics gpu__time_duration.sum,dram__bytes_read.sum"),
        "{e}"
    );
}

#[test]
fn default_sections_details_page_is_refused_with_the_metrics_to_add() {
    let Some(text) = shared("ncu_details-page_default-sections_rtx-a4000_vectoradd.csv") else {
        return;
    };
    let e = import(&text).unwrap_err();
    assert!(
        matches!(
            e,
            ImportError::MissingMetric {
                page: "details-page",
                ..
            }
        ),
        "{e}"
    );
    let e = e.to_string();
    assert!(e.contains("has no DRAM bytes"), "{e}");
    // The details page: no `--page raw` in the advice.
    assert!(
        e.contains("`ncu --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum"),
        "{e}"
    );
}

#[test]
fn app_output_before_the_header_is_skipped_and_the_gemv_imported_without_flops() {
    let Some(text) =
        shared("ncu_metrics-long_rtx4070-laptop_app-stdout-before-header_dequant-gemv.csv")
    else {
        return;
    };
    let imported = import(&text).unwrap();
    assert_eq!(imported.kind, Kind::NsightCompute);
    let [k] = imported.kernels.as_slice() else {
        panic!("one kernel: {:?}", imported.kernels)
    };
    assert!(k.kernel.starts_with("dequant_gemv_kernel("), "{}", k.kernel);
    assert_eq!(k.bytes, 7_104_896.0);
    assert!((k.time_s - 31_808e-9).abs() < 1e-15);
    // 223.4 GB/s, as the file's README works out by hand.
    assert!((k.achieved_bytes_per_s() / 1e9 - 223.4).abs() < 0.05);
    // No FLOP counter in the file: listed, not placed.
    assert!(!k.flops_counted);
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.contains("1 kernel(s) have no FLOPs counted"))
    );
    assert_eq!(imported.hardware, None);
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.contains("does not name its device (compute capability 8.9)")),
        "{:?}",
        imported.notes
    );
}

#[test]
fn tensor_core_gemm_counts_its_tensor_operations_as_flops() {
    let Some(text) = shared("ncu_details-page_rtx5090_sections-plus-metrics_bf16-cutlass-gemm.csv")
    else {
        return;
    };
    let imported = import(&text).unwrap();
    let [k] = imported.kernels.as_slice() else {
        panic!("one kernel: {:?}", imported.kernels)
    };
    assert!((k.time_s - 404.70e-6).abs() < 1e-12);
    assert!((k.bytes - 63_967_380.0).abs() < 1.0, "{}", k.bytes);
    assert!((k.achieved_bytes_per_s() / 1e9 - 158.06).abs() < 0.01);
    // sm__ops_path_tensor_src_bf16_dst_fp32.sum: BF16 tensor work, counted.
    assert!(k.flops_counted);
    assert_eq!(k.flops, 45_902_462_976.0);
    assert_eq!(k.math, Math::Bf16);
    assert!((k.achieved_flops_per_s() / 1e12 - 113.4).abs() < 0.1);
    assert!(imported.notes[0].contains("tensor-core operation counts"));
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.contains("compute capability 12.0"))
    );
}

#[test]
fn pytorch_profiler_tables_are_recognised_and_refused() {
    let Some(text) = shared("torch-profiler_key-averages-table_nanogpt-train.csv") else {
        return;
    };
    let e = import(&text).unwrap_err();
    assert!(matches!(e, ImportError::Unsupported { .. }), "{e}");
    let e = e.to_string();
    assert!(e.starts_with("this is a PyTorch profiler table"), "{e}");
    assert!(e.contains("ncu --csv --page raw"), "{e}");
}

const RAW_HEADER: &str =
    "\"ID\",\"Kernel Name\",\"CC\",\"device__attribute_display_name\",\"gpu__time_duration.sum\"";

#[test]
fn nsight_systems_summaries_are_recognised_and_refused() {
    let text = "\"Time (%)\",\"Total Time (ns)\",\"Instances\",\"Avg (ns)\",\"Med (ns)\",\"Min (ns)\",\"Max (ns)\",\"StdDev (ns)\",\"Name\"\n\"61.2\",\"1000\",\"4\",\"250.0\",\"250.0\",\"240\",\"260\",\"8.1\",\"gemv\"\n";
    let e = import(text).unwrap_err().to_string();
    assert!(
        e.starts_with("this is an Nsight Systems kernel summary"),
        "{e}"
    );
}

#[test]
fn a_bom_crlf_and_the_op_byte_metrics_are_read() {
    let text = format!(
        "\u{feff}==PROF== Connected\r\n{RAW_HEADER},\"dram__bytes_op_read.sum\",\"dram__bytes_op_write.sum\"\r\n\"\",\"\",\"\",\"\",\"usecond\",\"Mbyte\",\"Kbyte\"\r\n\"0\",\"k\",\"10.0\",\"NVIDIA B200\",\"2.50\",\"8.00\",\"500.00\"\r\n"
    );
    let imported = import(&text).unwrap();
    let k = &imported.kernels[0];
    assert_eq!(k.bytes, 8.5e6);
    assert!((k.time_s - 2.5e-6).abs() < 1e-15);
    // The device named in the file picks the datasheet.
    assert_eq!(imported.hardware.as_deref(), Some("b200"));
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.contains("NVIDIA B200 (compute capability 10.0)"))
    );
}

#[test]
fn time_comes_from_cycles_over_their_rate_when_there_is_no_duration() {
    let text = "\"ID\",\"Kernel Name\",\"sm__cycles_elapsed.avg\",\"sm__cycles_elapsed.avg.per_second\",\"dram__bytes.sum\",\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n\"\",\"\",\"cycle\",\"cycle/nsecond\",\"byte\",\"inst\"\n\"0\",\"axpy\",\"1,980\",\"1.98\",\"1,000,000\",\"1,000\"\n\"1\",\"axpy\",\"3,960\",\"1.98\",\"2,000,000\",\"2,000\"\n";
    let k = import(text).unwrap().kernels;
    assert!((k[0].time_s - 1e-6).abs() < 1e-15, "{}", k[0].time_s);
    assert!((k[1].time_s - 2e-6).abs() < 1e-15);
    assert_eq!(k[0].flops, 2_000.0);
    // Ghz as ncu writes a frequency elsewhere.
    let text = "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.avg\",\"gpc__cycles_elapsed.avg.per_second\",\"dram__bytes.sum\"\n\"\",\"\",\"cycle\",\"Ghz\",\"byte\"\n\"0\",\"k\",\"2000\",\"2.00\",\"64\"\n";
    assert!((import(text).unwrap().kernels[0].time_s - 1e-6).abs() < 1e-15);
}

#[test]
fn a_european_locale_is_read_as_written() {
    let text = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\"\n\"\",\"\",\"usecond\",\"byte\",\"%\"\n\"0\",\"k\",\"117,5\",\"27.595.520\",\"86,38\"\n";
    let imported = import(text).unwrap();
    let k = &imported.kernels[0];
    assert_eq!(k.bytes, 27_595_520.0);
    assert!((k.time_s - 117.5e-6).abs() < 1e-15);
    assert!(imported.notes.iter().any(|n| n.contains("decimal comma")));
}

#[test]
fn numbers_that_read_two_ways_are_refused_not_misread() {
    // `117.344` alone: 117.344 or 117,344?
    let text = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\"\n\"\",\"\",\"nsecond\",\"byte\"\n\"0\",\"k\",\"117.344\",\"1000\"\n";
    let e = import(text).unwrap_err().to_string();
    assert!(
        e.contains("`117.344` could be a decimal or a thousands-separated number"),
        "{e}"
    );
    // Both conventions in one file.
    let text = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\"\n\"\",\"\",\"nsecond\",\"byte\"\n\"0\",\"k\",\"117,5\",\"1,000,000\"\n";
    let e = import(text).unwrap_err().to_string();
    assert!(e.contains("decimal comma"), "{e}");
    // An English file shows itself by its other values.
    let text = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\"\n\"\",\"\",\"nsecond\",\"byte\",\"%\"\n\"0\",\"k\",\"117,344\",\"1000\",\"86.38\"\n";
    assert!((import(text).unwrap().kernels[0].time_s - 117_344e-9).abs() < 1e-15);
}

#[test]
fn tensor_instructions_without_operation_counts_leave_the_work_uncounted() {
    let text = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\",\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"sm__inst_executed_pipe_tensor.sum\"\n\"\",\"\",\"usecond\",\"Mbyte\",\"inst\",\"inst\"\n\"0\",\"hmma_gemm\",\"400.5\",\"64\",\"1000\",\"5000000\"\n\"1\",\"softmax\",\"10.5\",\"64\",\"1000\",\"0\"\n";
    let imported = import(text).unwrap();
    let k = &imported.kernels;
    assert!(
        !k[0].flops_counted,
        "tensor instructions ran: FLOPs would be short"
    );
    assert!(k[1].flops_counted);
    assert_eq!(k[1].flops, 2000.0);
}

#[test]
fn kernel_csvs_from_other_tools_use_common_synonyms() {
    let text = "name,flop_count,theoretical_bytes,mean_ms\ngemv,2000,1000,0.5\n";
    let k = &import(text).unwrap().kernels[0];
    assert_eq!((k.flops, k.bytes), (2000.0, 1000.0));
    assert!((k.time_s - 5e-4).abs() < 1e-15);
}
