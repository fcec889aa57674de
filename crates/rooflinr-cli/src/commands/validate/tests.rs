use super::*;

fn row(dtype: &str, m: u64, n: u64, k: u64, measured_s: f64) -> Row {
    Row {
        system: "h100_sxm".into(),
        device: "NVIDIA H100 80GB HBM3".into(),
        framework: FIT_FRAMEWORK.into(),
        kernel: Kernel::Gemm,
        dtype: dtype.into(),
        kv_dtype: None,
        version: "1.0".into(),
        kernel_source: None,
        shape: Shape::Gemm { m, n, k },
        measured_s,
        sm: Some(90),
    }
}

fn decode(batch: u64, step: u64, kv: &str, window: u64) -> Row {
    Row {
        kernel: Kernel::GenerationAttention,
        kv_dtype: Some(kv.into()),
        shape: Shape::Attention {
            batch,
            isl: 1,
            step,
            heads: 32,
            kv_heads: 8,
            head_dim: 128,
            window,
        },
        ..row("bfloat16", 0, 0, 0, 1e-4)
    }
}

/// vLLM's and SGLang's prefill attention ops write the new keys and values into the
/// cache apart, read in BF16 and written in the cache's format; TensorRT-LLM's, and
/// every decode op, are not counted so.
#[test]
fn vllm_and_sglang_prefill_write_the_new_keys_and_values_apart() {
    let h100 = registry::get("h100-sxm").unwrap();
    let prefill = |framework: &str, kernel: Kernel, kv: &str| Row {
        framework: framework.into(),
        kernel,
        kv_dtype: Some(kv.into()),
        shape: Shape::Attention {
            batch: 2,
            isl: 1024,
            step: 0,
            heads: 32,
            kv_heads: 8,
            head_dim: 128,
            window: 0,
        },
        ..row("bfloat16", 0, 0, 0, 1e-4)
    };
    let memory = |framework: &str, kernel: Kernel, kv: &str| {
        times(&prefill(framework, kernel, kv), &h100)
            .unwrap()
            .memory_s
    };
    let bandwidth = h100.memory_bandwidth.value.get();
    // 2 x 1024 tokens x 8 KV heads x 256 (keys and values) elements.
    let elements = 2.0 * 1024.0 * 8.0 * 256.0;
    for (kv, bytes) in [("bfloat16", 4.0), ("fp8", 3.0)] {
        let trtllm = memory("TRTLLM", Kernel::ContextAttention, kv);
        for framework in ["VLLM", "SGLang"] {
            let written = memory(framework, Kernel::ContextAttention, kv) - trtllm;
            // Within FP8's few bytes of tensor scale.
            let ratio = written * bandwidth / (elements * bytes);
            assert!((ratio - 1.0).abs() < 1e-5, "{framework} {kv}: {ratio}");
        }
    }
    let decode = |framework| memory(framework, Kernel::GenerationAttention, "bfloat16");
    assert_eq!(decode("VLLM"), decode("TRTLLM"));
}

/// vLLM's DeepGEMM path lays the activations' scales out again where M is not a
/// multiple of 4; its other kernels and other frameworks never do.
#[test]
fn vllms_deepgemm_copies_the_scales_of_an_unaligned_m() {
    let b200 = registry::get("b200").unwrap();
    let gemm = |framework: &str, source: &str, m: u64| {
        let row = Row {
            system: "b200_sxm".into(),
            device: "NVIDIA B200".into(),
            framework: framework.into(),
            kernel_source: Some(source.into()),
            sm: Some(100),
            ..row("fp8_block", m, 4096, 4096, 2e-4)
        };
        times(&row, &b200).unwrap().scale_copies
    };
    for m in [1, 2, 3, 5, 17, 129] {
        assert_eq!(gemm("VLLM", VLLM_DEEPGEMM, m), 1.0, "M = {m}");
    }
    for m in [4, 8, 16, 128, 4096] {
        assert_eq!(gemm("VLLM", VLLM_DEEPGEMM, m), 0.0, "M = {m}");
    }
    assert_eq!(gemm("VLLM", "CutlassFp8BlockScaledMMKernel", 5), 0.0);
    assert_eq!(gemm("SGLang", VLLM_DEEPGEMM, 5), 0.0);
}

/// SGLang's Triton prefill kernel walks every causal key tile under a sliding window;
/// its other kernels, and TensorRT-LLM's, start past the hidden ones. The tiles it
/// walks hidden are counted apart from those it computes, and a fit over rows of both
/// kinds finds what a hidden tile costs.
#[test]
fn sglangs_triton_prefill_walks_the_tiles_its_window_hides() {
    let b200 = registry::get("b200").unwrap();
    let prefill = |source: &str, isl: u64, window: u64| Row {
        system: "b200_sxm".into(),
        device: "NVIDIA B200".into(),
        framework: "SGLang".into(),
        kernel: Kernel::ContextAttention,
        kv_dtype: Some("bfloat16".into()),
        kernel_source: Some(source.into()),
        shape: Shape::Attention {
            batch: 1,
            isl,
            step: 0,
            heads: 32,
            kv_heads: 8,
            head_dim: 128,
            window,
        },
        sm: Some(100),
        ..row("bfloat16", 0, 0, 0, 1e-4)
    };
    let full = times(&prefill("triton", 16384, 0), &b200).unwrap();
    let windowed = times(&prefill("triton", 16384, 128), &b200).unwrap();
    // 128 of 16,384 keys: the window computes a sliver of the causal tiles, and the
    // rest are walked hidden.
    assert!(
        windowed.compute_s < 0.05 * full.compute_s,
        "{windowed:?} {full:?}"
    );
    let walked = windowed.compute_s + windowed.hidden_tiles_s;
    assert!(
        (walked / full.compute_s - 1.0).abs() < 1e-9,
        "{windowed:?} {full:?}"
    );
    assert_eq!(full.hidden_tiles_s, 0.0);
    // FlashInfer's kernel starts past them.
    let flashinfer = times(&prefill("flashinfer", 16384, 128), &b200).unwrap();
    assert_eq!(flashinfer.hidden_tiles_s, 0.0);
    assert_eq!(flashinfer.compute_s, windowed.compute_s);
    // Rows timed as if a hidden tile cost half a computed one: the fit finds a half.
    let truth = KernelTerms {
        fixed_s: 10e-6,
        bandwidth: 0.8,
        compute: 0.4,
        hidden_tile_share: 0.5,
        ..KernelTerms::ROOFLINE
    };
    let samples: Vec<(KernelTimes, f64)> = [1024, 2048, 4096, 8192, 16384]
        .into_iter()
        .flat_map(|isl| [0, 128, 1024].map(|window| prefill("triton", isl, window)))
        .map(|r| {
            let t = times(&r, &b200).unwrap();
            (t, truth.predict(t))
        })
        .collect();
    let fitted = KernelTerms::fit(&samples);
    assert_eq!(fitted.hidden_tile_share, 0.5, "{fitted:?}");
}

/// NVIDIA's tables time each GEMM in a loop over copies of its operands, so what the
/// loop's previous runs left in the L2 is read from it ([`gemm_loop`]).
#[test]
fn gemms_are_timed_with_what_their_loop_left_in_the_l2() {
    let l40s = registry::get("l40s").unwrap();
    let on = |framework: &str, m, n, k, hw: &Hardware| {
        let row = Row {
            framework: framework.into(),
            ..row("bfloat16", m, n, k, 1e-4)
        };
        times(&row, hw).unwrap().l2_share
    };
    // TensorRT-LLM on the L40S (96 MiB of L2). 67 MB of input and 0.5 MB of weights in
    // five copies: one run and the loop fit, everything is found.
    assert_eq!(on("TRTLLM", 4096, 32, 8192, &l40s), 1.0);
    // 134 MB of input: past the L2.
    assert_eq!(on("TRTLLM", 8192, 32, 8192, &l40s), 0.0);
    // 5120 x 4096 weights (41.9 MB) in three copies pass the L2: only the input and
    // output (18 KB of 41.9 MB) are found.
    let weights_cold = on("TRTLLM", 1, 5120, 4096, &l40s);
    assert!(weights_cold > 0.0 && weights_cold < 1e-3, "{weights_cold}");
    // 4096 x 4096 weights (32 MiB) in three copies fill the L2 exactly, the 16 KB of
    // input and output just past it: nearly all is found.
    let filled = on("TRTLLM", 1, 4096, 4096, &l40s);
    assert!(filled > 0.99 && filled < 1.0, "{filled}");
    // 2048 x 2048 weights (8.4 MB) in five copies fit.
    assert_eq!(on("TRTLLM", 1, 2048, 2048, &l40s), 1.0);
    // SGLang's loop rotates six copies of the input too: 6 x 68 MB is past the L2.
    assert_eq!(on("SGLang", 4096, 32, 8192, &l40s), 0.0);
    // H100's tables (50 MiB of L2): one run of the first shape no longer fits.
    let h100 = registry::get("h100-sxm").unwrap();
    assert_eq!(on("TRTLLM", 4096, 32, 8192, &h100), 0.0);
}

/// MLA rows are the analysis's own latent attention: decode absorbed over the
/// 576-wide latent cache in the cache's format (one shared head), prefill expanded
/// (192-wide keys, 128-wide values, in the activation format); `num_heads` is the GPU's.
#[test]
fn mla_rows_are_the_analysis_latent_attention() {
    let mla_row = |kernel, heads, tp| Row {
        kernel,
        dtype: "bfloat16".into(),
        kv_dtype: Some("fp8".into()),
        shape: Shape::Mla {
            batch: 64,
            isl: 4000,
            step: 96,
            heads,
            tp,
        },
        ..row("bfloat16", 0, 0, 0, 1e-4)
    };
    let (shape, precision) = mla(&mla_row(Kernel::GenerationMla, 16, 8)).unwrap();
    assert_eq!((shape.heads, shape.kv_heads), (16.0, 1.0));
    assert_eq!((shape.qk_dim, shape.v_dim), (576.0, 512.0));
    assert_eq!((shape.q_len, shape.kv_len), (1.0, 4096.0));
    assert!(shape.shared_kv);
    assert_eq!(precision.kv, Format::Fp8E4m3);
    let (shape, precision) = mla(&mla_row(Kernel::ContextMla, 128, 1)).unwrap();
    assert_eq!((shape.heads, shape.kv_heads), (128.0, 128.0));
    assert_eq!((shape.qk_dim, shape.v_dim), (192.0, 128.0));
    assert_eq!((shape.q_len, shape.kv_len), (4000.0, 4000.0));
    assert!(!shape.shared_kv);
    assert_eq!(precision.kv, Format::Bf16);
    // The analysis of DeepSeek-V3 decode costs its attention with the same shape.
    let config = rooflinr_model::presets::get("deepseek-v3").unwrap();
    let scenario = rooflinr_model::analysis::Scenario {
        phase: rooflinr_model::analysis::Phase::Decode,
        batch: 64,
        seq: 4096,
        precision: Precision {
            kv: Format::Fp8E4m3,
            ..Precision::uniform(Format::Bf16)
        },
        attention: rooflinr_model::analysis::AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: None,
    };
    let a = rooflinr_model::analysis::analyze(
        &config,
        &registry::get("h100-sxm").unwrap(),
        &scenario,
        &Efficiency::IDEAL,
    )
    .unwrap();
    let attention = a
        .ops
        .iter()
        .find(|o| o.id == rooflinr_model::analysis::OpId::Attention)
        .unwrap();
    let (decode, _) = mla(&mla_row(Kernel::GenerationMla, 128, 1)).unwrap();
    assert_eq!(attention.op, Op::FusedAttention(decode));
    // TensorRT-LLM's decode rows at 128 heads with an FP8 cache on sm_120 ran XQA's MLA
    // kernel: a group and a profile of their own. At 64 heads, or on the H100, not.
    let mut sm120 = mla_row(Kernel::GenerationMla, 128, 1);
    sm120.sm = Some(120);
    assert!(sm120.xqa_mla());
    assert_eq!(sm120.dtype_label(), "bfloat16, KV fp8, XQA's MLA kernel");
    assert_eq!(
        profiled(&sm120),
        Some(Profiled::XqaMlaDecode {
            queries: Format::Bf16,
            kv: Format::Fp8E4m3
        })
    );
    let mut half = mla_row(Kernel::GenerationMla, 64, 2);
    half.sm = Some(120);
    assert!(!half.xqa_mla());
    assert_eq!(half.dtype_label(), "bfloat16, KV fp8");
    assert!(!mla_row(Kernel::GenerationMla, 128, 1).xqa_mla());
}

#[test]
fn tables_map_to_registry_devices_and_formats() {
    // The device names the tables hold, matched by the registry's one rule.
    for (device, key) in [
        ("NVIDIA A100-SXM4-80GB", Some("a100-sxm")),
        ("NVIDIA H100 80GB HBM3", Some("h100-sxm")),
        ("NVIDIA H200", Some("h200")),
        ("NVIDIA B200", Some("b200")),
        ("NVIDIA GB200", Some("gb200")),
        ("NVIDIA L40S", Some("l40s")),
        ("NVIDIA B300 SXM6 AC", Some("b300")),
        ("NVIDIA GB300", Some("gb300")),
    ] {
        assert_eq!(registry::key_for_device(device, None), key, "{device}");
    }
    assert_eq!(formats("int8_wo"), Some((Format::Bf16, Format::Int8)));
    assert_eq!(formats("mxfp6"), None);
}

#[test]
fn the_datasheet_times_are_the_roofline_of_the_gemm() {
    let hw = registry::get("h100-sxm").unwrap();
    // 8192^3 BF16: compute-bound; 2 x 8192^3 FLOPs over the dense BF16 peak, over the
    // tile efficiency (4096 tiles are 31.03 waves on 132 SMs).
    let t = times(&row("bfloat16", 8192, 8192, 8192, 1e-3), &hw).unwrap();
    let peak = hw
        .ceiling(rooflinr_model::format::Math::Bf16, false)
        .peak
        .get();
    let bare = 2.0 * 8192f64.powi(3) / peak;
    assert!(t.compute_s >= bare && t.compute_s < bare * 1.2, "{t:?}");
    assert!(t.memory_s < t.compute_s);
    // A GEMV-shaped row is memory-bound: 8192 x 8192 BF16 weights over the bandwidth.
    let g = times(&row("bfloat16", 1, 8192, 8192, 1e-4), &hw).unwrap();
    let bytes = 8192.0 * 8192.0 * 2.0;
    let bw = hw.memory_bandwidth.value.get();
    assert!(g.memory_s > bytes / bw && g.memory_s < bytes / bw * 1.01);
}

#[test]
fn held_out_rows_are_judged_by_terms_fitted_without_them() {
    let hw = registry::get("h100-sxm").unwrap();
    // Rows made by known terms: the calibrated error on held-out shapes is small,
    // the datasheet's is what the terms add.
    let truth = KernelTerms {
        fixed_s: 5e-6,
        bandwidth: 0.8,
        compute: 0.7,
        per_wave_s: 0.0,
        tile_bandwidth: 1.0,
        l2_bandwidth: f64::INFINITY,
        overlap: f64::INFINITY,
        ..KernelTerms::ROOFLINE
    };
    let mut rows = Vec::new();
    for m in [1u64, 8, 64, 512, 4096] {
        for n in [1024u64, 4096, 8192, 16384] {
            for k in [1024u64, 4096, 8192] {
                let mut r = row("bfloat16", m, n, k, 0.0);
                r.measured_s = truth.predict(times(&r, &hw).unwrap());
                rows.push(r);
            }
        }
    }
    // Another framework's kernels with a fixed time eight times longer: judged by the
    // first framework's terms, and by its own fitted on half its shapes.
    let slower = KernelTerms {
        fixed_s: 40e-6,
        ..truth
    };
    let first = rows.len();
    for i in 0..first {
        let mut r = rows[i].clone();
        r.framework = "VLLM".into();
        r.measured_s = slower.predict(times(&r, &hw).unwrap());
        rows.push(r);
    }
    let v = validate(&rows, true);
    let g = &v.groups[0];
    let other = &g.other_frameworks[0];
    assert_eq!(other.framework, "VLLM");
    // `--residuals`: every held-out row as predicted, the fitting framework's with its
    // terms, the other's with its own fit. Their errors are the ones the tables
    // summarise.
    let worst_of = |framework: &str| {
        let of: Vec<&Residual> = v
            .residuals
            .iter()
            .filter(|r| r.framework == framework)
            .collect();
        let worst = of
            .iter()
            .map(|r| (r.calibrated_s / r.measured_s - 1.0).abs())
            .fold(0.0, f64::max);
        (of.len(), worst)
    };
    let held = &g.held_out_shapes[0].2;
    let (rows, worst) = worst_of("TRTLLM");
    assert_eq!(rows, held.rows);
    assert!((worst - held.worst).abs() < 1e-12, "{worst} {held:?}");
    let (rows, worst) = worst_of("VLLM");
    assert_eq!(rows, other.own_fit.rows);
    assert!(
        (worst - other.own_fit.worst).abs() < 1e-12,
        "{worst} {other:?}"
    );
    assert_eq!(v.residuals.len(), held.rows + other.own_fit.rows);
    for r in &v.residuals {
        assert!(r.datasheet_s < r.measured_s, "{r:?}");
        let line = r.csv();
        let start = format!("h100-sxm,\"{}\",GEMM,\"bfloat16\",\"", r.framework);
        assert!(line.starts_with(&start), "{line}");
        assert_eq!(line.split(',').count(), Residual::HEADER.split(',').count());
    }
    assert!(other.calibrated.median > 0.3, "{other:?}");
    assert!(other.own_fit.median < 0.02, "{other:?}");
    assert!((other.fitted.fixed_us - 40.0).abs() < 4.0, "{other:?}");
    let (_, datasheet, calibrated) = &g.held_out_shapes[0];
    assert!(calibrated.rows > 10 && calibrated.rows < first);
    assert!(calibrated.median < 0.02, "{calibrated:?}");
    assert!(datasheet.median > 0.15, "{datasheet:?}");
    assert!((g.fitted.fixed_us - 5.0).abs() < 0.5, "{g:?}");
    let md = markdown(&v);
    assert!(md.contains("| h100-sxm | GEMM | bfloat16 | all |"), "{md}");
    // The group meets its targets; vLLM's slower kernels miss the median under
    // TensorRT-LLM's terms and meet it under their own.
    assert_eq!(
        targets(&v.groups),
        Targets {
            gemm_medians: (1, 1),
            gemm_p90s: (1, 1),
            other_medians: (0, 0),
            frameworks_under_fit: (0, 1),
            // TensorRT-LLM's own timings of vLLM's shapes miss them too: the two
            // ran different kernels.
            frameworks_measured: (0, 1),
            frameworks_under_fit_where_measured: (0, 0),
            frameworks_own: (1, 1),
            outside: Vec::new(),
        }
    );
    assert_eq!(v.targets, targets(&v.groups));
    assert!(md.contains("| GEMM median | 1 | 1 |"), "{md}");
    assert!(md.contains("Held-out groups outside: none."), "{md}");
    // A held-out p90 over 25 % puts the group outside, named with its figures.
    let mut worse = v.groups.clone();
    worse[0].held_out_shapes[0].2.p90 = 0.3;
    let t = targets(&worse);
    assert_eq!((t.gemm_medians, t.gemm_p90s), ((1, 1), (0, 1)));
    assert_eq!(t.outside.len(), 1);
    // With how far vLLM's timings of its held-out shapes are from its own.
    let elsewhere = &worse[0].held_out_measured_elsewhere;
    assert_eq!(elsewhere.len(), 1);
    assert_eq!(elsewhere[0].1.rows, calibrated.rows);
    assert!(
        t.outside[0].starts_with("h100-sxm GEMM bfloat16 (")
            && t.outside[0].contains("/ 30%; VLLM's measurements of ")
            && t.outside[0].ends_with(&format!(
                "{} of its shapes: {} / {})",
                calibrated.rows,
                pct(elsewhere[0].1.median),
                pct(elsewhere[0].1.p90)
            )),
        "{t:?}"
    );
    // Both frameworks' fits pass the shipping rule: one profile line each.
    let lines = profile_lines(&v);
    assert_eq!(lines.lines().count(), 2, "{lines}");
    let fixed_us = |framework: &str| -> f64 {
        lines
            .split(&format!("p(\"h100-sxm\", {framework}, gemm(Bf16), ["))
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .and_then(|fixed| fixed.parse().ok())
            .unwrap_or_else(|| panic!("no {framework} line in {lines}"))
    };
    assert!(
        lines.starts_with("    p(\"h100-sxm\", TensorRtLlm,"),
        "{lines}"
    );
    assert!((fixed_us("TensorRtLlm") - 5.0).abs() < 0.5, "{lines}");
    assert!((fixed_us("Vllm") - 40.0).abs() < 4.0, "{lines}");
}

/// Another framework's rows are held against the fitting framework's own timings of
/// the same shapes, and the fitting framework's held-out rows against theirs: how far
/// apart two tables are with no model between them.
#[test]
fn other_frameworks_are_held_against_the_fitting_frameworks_measurements() {
    let hw = registry::get("h100-sxm").unwrap();
    let truth = KernelTerms {
        fixed_s: 5e-6,
        bandwidth: 0.8,
        compute: 0.7,
        ..KernelTerms::ROOFLINE
    };
    let mut rows = Vec::new();
    for m in [1u64, 8, 64, 512, 4096] {
        for n in [1024u64, 4096, 8192] {
            for k in [1024u64, 4096] {
                let mut r = row("bfloat16", m, n, k, 0.0);
                r.measured_s = truth.predict(times(&r, &hw).unwrap());
                rows.push(r);
            }
        }
    }
    let first = rows.len();
    for i in 0..first {
        // vLLM timed every shape as TensorRT-LLM did; SGLang took twice as long.
        let mut alike = rows[i].clone();
        alike.framework = "VLLM".into();
        rows.push(alike);
        let mut slower = rows[i].clone();
        slower.framework = "SGLang".into();
        slower.measured_s *= 2.0;
        rows.push(slower);
    }
    // A shape only SGLang timed has nothing to be held against.
    let mut only_sglang = row("bfloat16", 3, 1024, 1024, 1e-5);
    only_sglang.framework = "SGLang".into();
    rows.push(only_sglang);
    let v = validate(&rows, false);
    let g = &v.groups[0];
    let other = |label: &str| {
        g.other_frameworks
            .iter()
            .find(|o| o.label() == label)
            .unwrap()
    };
    assert_eq!(other("VLLM").fit_measured.rows, first);
    assert_eq!(other("VLLM").fit_measured.worst, 0.0);
    // Every shared SGLang row: 1 x its time predicted for 2 x.
    let sglang = &other("SGLang").fit_measured;
    assert_eq!(sglang.rows, first, "{sglang:?}");
    assert_eq!((sglang.median, sglang.worst), (0.5, 0.5));
    let held = g.held_out_shapes[0].2.rows;
    let elsewhere: Vec<(&str, usize, f64)> = g
        .held_out_measured_elsewhere
        .iter()
        .map(|(f, e)| (f.as_str(), e.rows, e.median))
        .collect();
    assert_eq!(elsewhere, [("SGLang", held, 1.0), ("VLLM", held, 0.0)]);
    // vLLM's timings are within the target of TensorRT-LLM's, and so are the terms
    // fitted on TensorRT-LLM's; SGLang's are not.
    assert_eq!(v.targets.frameworks_measured, (1, 2));
    assert_eq!(v.targets.frameworks_under_fit_where_measured, (1, 1));
    let md = markdown(&v);
    assert!(
        md.contains(
            "| other frameworks, fitting framework's measurements of the same shapes | 1 | 2 |"
        ),
        "{md}"
    );
}

/// vLLM dispatches block-scaled FP8 by shape to FlashInfer's, DeepGEMM's or CUTLASS's
/// kernel, whose fixed times differ threefold: each is fitted and judged apart, and none
/// makes a profile (a profile is per framework).
#[test]
fn a_framework_that_ran_several_kernels_is_fitted_per_kernel() {
    let hw = registry::get("h100-sxm").unwrap();
    let trtllm = KernelTerms {
        fixed_s: 5e-6,
        bandwidth: 0.8,
        compute: 0.7,
        ..KernelTerms::ROOFLINE
    };
    let kernels = [("FlashInferKernel", 60e-6), ("DeepGemmKernel", 90e-6)];
    let mut rows = Vec::new();
    for m in [1u64, 8, 16, 64, 512, 4096] {
        for n in [1024u64, 4096, 8192, 16384] {
            for k in [1024u64, 4096, 8192] {
                let mut r = row("bfloat16", m, n, k, 0.0);
                r.measured_s = trtllm.predict(times(&r, &hw).unwrap());
                rows.push(r.clone());
                // Two releases of another framework, each with a kernel of its own
                // name: the framework is judged on its newest release's.
                let mut release = r.clone();
                release.framework = "SGLang".into();
                release.version = ["0.5.6", "0.5.14"][usize::from(n > 4096)].into();
                release.kernel_source = Some(format!("sglang-{}", release.version));
                rows.push(release);
                // Small M on one kernel, the rest on the other, as vLLM dispatches.
                let (kernel, fixed_s) = kernels[usize::from(m > 16)];
                r.framework = "VLLM".into();
                r.kernel_source = Some(kernel.into());
                r.measured_s = KernelTerms { fixed_s, ..trtllm }.predict(times(&r, &hw).unwrap());
                rows.push(r);
            }
        }
    }
    let v = validate(&rows, false);
    let others = &v.groups[0].other_frameworks;
    let labels: Vec<String> = others.iter().map(OtherFramework::label).collect();
    assert_eq!(
        labels,
        [
            "SGLang 0.5.14",
            "VLLM",
            "VLLM (DeepGemmKernel)",
            "VLLM (FlashInferKernel)"
        ],
        "{others:?}"
    );
    // Each kernel apart: its own fixed time. As one, the two pull one fit apart: its
    // tail misses by far more than either kernel's own fit.
    assert!(others[1].own_fit.p90 > 0.1, "{others:?}");
    for (o, fixed_us) in others
        .iter()
        .zip([5.0, 75.0, 90.0, 60.0])
        .skip(2)
        .chain(others.iter().zip([5.0, 0.0, 0.0, 0.0]).take(1))
    {
        assert!(o.own_fit.median < 0.02, "{o:?}");
        assert!((o.fitted.fixed_us - fixed_us).abs() < 6.0, "{o:?}");
    }
    assert!(markdown(&v).contains("| VLLM (FlashInferKernel) |"));
    // Profile lines are per framework, none per kernel.
    let lines = profile_lines(&v);
    assert_eq!(lines.lines().count(), 3, "{lines}");
    assert_eq!(lines.matches("Vllm").count(), 1, "{lines}");
}

#[test]
fn profile_figures_are_float_literals_of_six_digits() {
    assert_eq!(literal(0.020_132_34), "0.0201323");
    assert_eq!(literal(14.141_67), "14.1417");
    assert_eq!(literal(1.0), "1.0");
    assert_eq!(literal(0.0), "0.0");
    assert_eq!(literal(0.5), "0.5");
}

#[test]
fn decode_attention_reads_its_kv_cache_in_the_cache_format() {
    let hw = registry::get("h100-sxm").unwrap();
    // 64 sequences of 4096 tokens, 8 KV heads of 128: K and V, 2 bytes each in BF16.
    let bf16 = times(&decode(64, 4095, "bfloat16", 0), &hw).unwrap();
    let kv_bytes = 64.0 * 4096.0 * 8.0 * 128.0 * 2.0 * 2.0;
    let bw = hw.memory_bandwidth.value.get();
    assert!(bf16.memory_s > kv_bytes / bw && bf16.memory_s < kv_bytes / bw * 1.01);
    // An FP8 cache halves it. XQA's blocks (H100): 512 sequence-and-KV-head blocks,
    // each sequence in 2 parts (16 would make 62 waves, over XQA's 8), so 1,024 blocks:
    // 8 waves on 132 SMs, and the parts' merge.
    let fp8 = times(&decode(64, 4095, "fp8", 0), &hw).unwrap();
    assert!((fp8.memory_s / bf16.memory_s - 0.5).abs() < 0.01);
    assert_eq!(kernel_time::xqa_parts(64, 8, 4096, 132), 2);
    assert_eq!(bf16.waves, 9.0);
    // A window shorter than the context caps the keys read: 9001 tokens under an
    // 8192-token window read what 8192 tokens read; a longer one is no window at all.
    assert_eq!(
        times(&decode(1, 9000, "bfloat16", 8192), &hw)
            .unwrap()
            .memory_s,
        times(&decode(1, 8191, "bfloat16", 0), &hw)
            .unwrap()
            .memory_s
    );
    assert_eq!(
        times(&decode(1, 4095, "bfloat16", 8192), &hw),
        times(&decode(1, 4095, "bfloat16", 0), &hw)
    );
    let mut unknown = decode(1, 1, "int4", 0);
    assert!(times(&unknown, &hw).is_err());
    unknown.kv_dtype = Some("fp8".into());
    assert!(times(&unknown, &hw).is_ok());
}

/// A row measured faster than the DRAM can serve its bytes, less all the L2 holds, is
/// listed under its framework with its shape; rows at or above the floor are not, and a
/// device whose L2 size is not published lists none.
#[test]
fn rows_faster_than_the_dram_allows_are_listed() {
    let hw = registry::get("h100-sxm").unwrap();
    // 64 sequences of 4,096 tokens, 8 KV heads of 128 in BF16: 1.07 GB, 320 us at
    // 3.35 TB/s, of which the 52 MB L2 can hold 16 us: a floor of 305 us (a row 1 %
    // under it is within the margin).
    let at = |measured_s: f64, framework: &str| Row {
        measured_s,
        framework: framework.into(),
        ..decode(64, 4095, "bfloat16", 0)
    };
    let rows = [
        at(150e-6, FIT_FRAMEWORK),
        at(250e-6, FIT_FRAMEWORK),
        at(400e-6, FIT_FRAMEWORK),
        at(302e-6, "VLLM"),
    ];
    let predicted: Vec<(&Row, KernelTimes)> =
        rows.iter().map(|r| (r, times(r, &hw).unwrap())).collect();
    let floor = predicted[0]
        .1
        .dram_floor_s(hw.l2_bytes(), hw.memory_bandwidth.value.get());
    assert!(floor > 300e-6 && floor < 310e-6, "{floor}");
    let listed = faster_than_dram(&predicted, &hw);
    assert_eq!(listed.len(), 1, "{listed:?}");
    let trtllm = &listed[0];
    assert_eq!(
        (trtllm.framework.as_str(), trtllm.rows, trtllm.faster),
        (FIT_FRAMEWORK, 3, 2)
    );
    assert!((trtllm.fastest - 150e-6 / floor).abs() < 1e-9);
    assert_eq!(trtllm.fastest_shape, rows[0].shape.to_string());
    let mut unpublished = hw.clone();
    unpublished.l2_cache = None;
    assert!(faster_than_dram(&predicted, &unpublished).is_empty());
}

#[test]
fn moe_rows_are_predicted_when_the_router_is_balanced() {
    let hw = registry::get("h100-sxm").unwrap();
    let moe = |tokens: u64, balanced: bool| Row {
        kernel: Kernel::Moe,
        shape: Shape::Moe {
            tokens,
            hidden: 4096,
            inter: 2048,
            top_k: 8,
            experts: 128,
            tp: 2,
            ep: 4,
            gated: true,
            balanced,
            min_latency: false,
        },
        ..row("fp8", 0, 0, 0, 1e-4)
    };
    let t = times(&moe(64, true), &hw).unwrap();
    // 64 tokens x 8 copies spread evenly: rank 0's 32 experts get 4 copies each.
    let model = KernelTimes::moe(
        &MoeShape {
            tokens: 64.0,
            hidden: 4096.0,
            intermediate: 1024.0,
            top_k: 8.0,
            experts: 128.0,
            expert_parallel: 4.0,
            gated: true,
        },
        &MoeLoad {
            assignments: 128.0,
            experts_touched: 32.0,
        },
        &Precision {
            output: Format::Bf16,
            ..Precision::uniform(Format::Fp8E4m3)
        },
        &hw,
        None,
    );
    assert_eq!(t, model);
    assert!(t.quantise_s > 0.0, "FP8 activations are quantised first");
    // The collector loops the layer on one set of weights and tokens: 32 experts' 403 MB
    // pass H100's L2, one token's few experts (at most 8 x 12.6 MB) fit in the RTX PRO
    // 6000's 128 MiB.
    assert_eq!(t.l2_share, 0.0);
    let rtx = registry::get("rtx-pro-6000").unwrap();
    assert_eq!(times(&moe(1, true), &rtx).unwrap().l2_share, 1.0);
    assert!(times(&moe(64, false), &hw).is_err());
    assert_eq!(
        moe(64, true).shape.to_string(),
        "64 tokens, 4096 -> 2048/2, top 8 of 128, EP 4"
    );
}

/// A B200 MoE row of `framework`'s table timed with kernel `source`: 192 tokens over
/// 256 experts, top 6, EP 16.
fn b200_moe(framework: &str, source: &str) -> Row {
    Row {
        kernel: Kernel::Moe,
        framework: framework.into(),
        kernel_source: Some(source.into()),
        shape: Shape::Moe {
            tokens: 192,
            hidden: 4096,
            inter: 2048,
            top_k: 6,
            experts: 256,
            tp: 1,
            ep: 16,
            gated: true,
            balanced: true,
            min_latency: false,
        },
        sm: Some(100),
        ..row("w4a8_mxfp4_mxfp8", 0, 0, 0, 1e-4)
    }
}

#[test]
fn trtllm_gen_moe_rows_compute_whole_tiles_per_expert() {
    let b200 = registry::get("b200").unwrap();
    let moe = b200_moe;
    // TensorRT-LLM's TRT-LLM-Gen kernel: rank 0's experts compute 128-row tiles (192 x 6
    // copies over 16 local experts average 72), a few copies each.
    let trtllm_gen = moe(FIT_FRAMEWORK, "moe_torch_flow");
    assert!(runs_trtllm_gen_moe(&trtllm_gen, &b200));
    let cutlass = moe(FIT_FRAMEWORK, "moe_torch_flow_cutlass");
    assert!(!runs_trtllm_gen_moe(&cutlass, &b200));
    let (tiles, copies) = (
        times(&trtllm_gen, &b200).unwrap(),
        times(&cutlass, &b200).unwrap(),
    );
    assert!(
        tiles.compute_s > 10.0 * copies.compute_s,
        "{tiles:?} vs {copies:?}"
    );
    assert_eq!(tiles.memory_s, copies.memory_s);
    // FlashInfer's kernels in SGLang's and vLLM's tables; not on Hopper, where
    // TensorRT-LLM's `moe_torch_flow` is its Triton kernel.
    assert!(runs_trtllm_gen_moe(
        &moe("SGLang", "sglang_flashinfer_trtllm_moe"),
        &b200
    ));
    assert!(!runs_trtllm_gen_moe(
        &moe("SGLang", "sglang_fused_moe_triton"),
        &b200
    ));
    let h200 = registry::get("h200").unwrap();
    assert!(!runs_trtllm_gen_moe(&trtllm_gen, &h200));
}

/// SGLang's Triton fused MoE rows compute 16-row tiles while the tokens are at most the
/// local experts and 64-row tiles past them: at 12 tokens over 16 experts each expert
/// computes 16 rows; at 17, 64.
#[test]
fn sglangs_triton_moe_rows_compute_its_default_tiles() {
    let l40s = registry::get("l40s").unwrap();
    let triton = |tokens| Row {
        shape: Shape::Moe {
            tokens,
            hidden: 2880,
            inter: 2880,
            top_k: 4,
            experts: 16,
            tp: 1,
            ep: 1,
            gated: true,
            balanced: true,
            min_latency: false,
        },
        sm: Some(89),
        ..Row {
            dtype: "w4a16_mxfp4".into(),
            ..b200_moe("SGLang", "sglang_fused_moe_triton")
        }
    };
    let (few, many) = (triton(12), triton(17));
    assert_eq!(moe_tiling(&few, &l40s), MoeTiling::Triton);
    let copies = |row: &Row| Row {
        kernel_source: Some("sglang_marlin_moe".into()),
        ..row.clone()
    };
    let padding = |row: &Row| {
        times(row, &l40s).unwrap().compute_s / times(&copies(row), &l40s).unwrap().compute_s
    };
    // 12 tokens x 4 copies over 16 experts: 3 an expert, in a 16-row tile.
    assert!(
        (padding(&few) - 16.0 / 3.0).abs() < 1e-6,
        "{}",
        padding(&few)
    );
    // 17 tokens: 4.25 copies an expert, in a 64-row tile.
    assert!(
        (padding(&many) - 64.0 / 4.25).abs() < 1e-6,
        "{}",
        padding(&many)
    );

    // A framework whose table ran kernels of different tilings is profiled on the
    // rows of the tiling most of them ran, its other kernels judged apart.
    let cutlass = Row {
        kernel_source: Some("sglang_flashinfer_cutlass_moe".into()),
        ..few.clone()
    };
    let t = times(&few, &l40s).unwrap();
    let rows = [(&few, t), (&many, t), (&cutlass, t)];
    let kept = of_most_rows_tiling(rows.iter().collect(), &l40s);
    assert_eq!(kept.len(), 2);
    assert!(
        kept.iter()
            .all(|(r, _)| moe_tiling(r, &l40s) == MoeTiling::Triton)
    );
    // Each kernel is judged apart too, even where each release ran one of them.
    let (older, newer) = (
        Row {
            version: "0.5.10".into(),
            ..cutlass.clone()
        },
        Row {
            version: "0.5.14".into(),
            ..few.clone()
        },
    );
    assert_eq!(
        kernels_of(&[(&older, t), (&newer, t)], "SGLang", &l40s),
        ["sglang_flashinfer_cutlass_moe", "sglang_fused_moe_triton"]
    );
    // Two releases of one tiling, one kernel each: the framework's releases.
    let same_tiles = Row {
        kernel_source: Some("sglang_marlin_moe".into()),
        version: "0.5.14".into(),
        ..older.clone()
    };
    assert!(kernels_of(&[(&same_tiles, t), (&older, t)], "SGLang", &l40s).is_empty());
}

#[test]
fn a_framework_whose_releases_ran_different_kernels_is_judged_on_its_newest() {
    // PEP 440's order for the forms the tables' folders use.
    let mut versions = [
        "1.3.0rc20",
        "0.5.6.post2",
        "1.3.0",
        "0.24.0",
        "0.5.14",
        "0.5.6",
    ];
    versions.sort_by_key(|v| release_order(v));
    assert_eq!(
        versions,
        [
            "0.5.6",
            "0.5.6.post2",
            "0.5.14",
            "0.24.0",
            "1.3.0rc20",
            "1.3.0"
        ]
    );

    let h200 = registry::get("h200").unwrap();
    let release = |version: &str, source: &str| Row {
        version: version.into(),
        ..b200_moe("VLLM", source)
    };
    let older = release("0.19.0", "vllm_fused_moe");
    let newer = release(
        "0.24.0",
        "vllm_modeloptfp8moe_flashinfer_cutlass_flashinferexperts",
    );
    let t = times(&older, &h200).unwrap();
    let rows = [(&older, t), (&newer, t), (&newer, t)];
    let (kept, newest) = of_newest_release(rows.iter().collect());
    assert_eq!(newest.as_deref(), Some("0.24.0"));
    assert_eq!(kept.len(), 2);
    assert!(kept.iter().all(|(r, _)| r.version == "0.24.0"));

    // Releases that ran the same kernels are one framework's rows, all of them.
    let same = release("0.24.0", "vllm_fused_moe");
    let rows = [(&older, t), (&same, t)];
    let (kept, newest) = of_newest_release(rows.iter().collect());
    assert_eq!((kept.len(), newest), (2, None));
}

#[test]
fn sglangs_int8_table_quantises_its_activations_in_eager_pytorch() {
    let h100 = registry::get("h100-sxm").unwrap();
    let sglang = Row {
        framework: "SGLang".into(),
        ..row("int8_wo", 1024, 4096, 4096, 1e-4)
    };
    let trtllm = row("int8_wo", 1024, 4096, 4096, 1e-4);
    assert!(sglang_eager_int8(&sglang));
    assert!(!sglang_eager_int8(&trtllm));
    let (eager, weight_only) = (
        times(&sglang, &h100).unwrap(),
        times(&trtllm, &h100).unwrap(),
    );
    // 47 bytes an activation element at the datasheet bandwidth, against a weight-only
    // kernel's none; INT8 by INT8 runs at twice BF16's peak on an H100.
    let bandwidth = h100.memory_bandwidth.value.get();
    assert!((eager.quantise_s * bandwidth / (1024.0 * 4096.0) - 47.0).abs() < 1e-9);
    assert_eq!(weight_only.quantise_s, 0.0);
    assert!((weight_only.compute_s / eager.compute_s - 2.0).abs() < 1e-9);
}

/// TensorRT-LLM's block-scaled FP8 GEMM on Hopper: its DeepGEMM launcher's tile, the
/// rows past M its last row block reads, and the whole tiles it computes.
#[test]
fn tensorrt_llms_hopper_block_scaled_fp8_gemm_reads_the_rows_past_m() {
    // 64 rows up to M = 64. On 132 SMs, N = 4,096 fills one wave with 64-wide tiles
    // (128 of them over two row blocks, against 64 at 128 wide); N = 8,192 with 128-wide.
    let tile = |m, n| {
        let t = kernel_time::trtllm_deep_gemm_tile(m, n, 132);
        (t.rows, t.columns)
    };
    assert_eq!(tile(64, 4096), (64, 32));
    assert_eq!(tile(129, 4096), (128, 64));
    assert_eq!(tile(256, 8192), (128, 128));
    // 32 row blocks: only 128-wide tiles (2,048) fit in 16 waves.
    assert_eq!(tile(4096, 8192), (128, 128));
    let h200 = registry::get("h200").unwrap();
    let on_h200 = |framework: &str, m: u64| Row {
        system: "h200_sxm".into(),
        device: "NVIDIA H200".into(),
        framework: framework.into(),
        sm: Some(90),
        ..row("fp8_block", m, 8192, 8192, 1e-4)
    };
    let t = |framework: &str, m: u64| times(&on_h200(framework, m), &h200).unwrap();
    let bandwidth = h200.memory_bandwidth.value.get();
    assert!(
        (t(FIT_FRAMEWORK, 129).padded_rows_s * bandwidth / (64.0 * 127.0 * 8192.0) - 1.0).abs()
            < 1e-12
    );
    // Whole 128 x 128 tiles in one wave: M = 129 computes as M = 256 does.
    assert!(
        (t(FIT_FRAMEWORK, 129).compute_s / t(FIT_FRAMEWORK, 256).compute_s - 1.0).abs() < 1e-12
    );
    assert_eq!(t("SGLang", 129).padded_rows_s, 0.0);
    assert_eq!(t(FIT_FRAMEWORK, 256).padded_rows_s, 0.0);
    // Below M = 32 the kernel swaps its operands: no rows past M.
    assert_eq!(t(FIT_FRAMEWORK, 16).padded_rows_s, 0.0);
}

/// vLLM's and SGLang's per-tensor FP8 rows on Hopper are read with their CUTLASS
/// kernel's tiles (whole tiles, the rows past M), vLLM's with its per-token quantisation
/// steps; their block-scaled FP8 rows keep neither.
#[test]
fn vllms_and_sglangs_hopper_fp8_rows_run_their_kernels_tiles() {
    let h200 = registry::get("h200").unwrap();
    let on_h200 = |framework: &str, dtype: &str, m: u64| Row {
        system: "h200_sxm".into(),
        device: "NVIDIA H200".into(),
        framework: framework.into(),
        sm: Some(90),
        ..row(dtype, m, 16384, 8192, 1e-4)
    };
    let t =
        |framework: &str, dtype: &str, m: u64| times(&on_h200(framework, dtype, m), &h200).unwrap();
    let bandwidth = h200.memory_bandwidth.value.get();
    for framework in ["VLLM", "SGLang"] {
        let padded = t(framework, "fp8", 129).padded_rows_s * bandwidth;
        assert!(
            (padded / (127.0 * 8192.0 * 128.0) - 1.0).abs() < 1e-12,
            "{framework}"
        );
        assert_eq!(
            t(framework, "fp8_block", 129).padded_rows_s,
            0.0,
            "{framework}"
        );
    }
    assert!(t("VLLM", "fp8", 129).quantise_steps > 0.0);
    assert_eq!(t("SGLang", "fp8", 129).quantise_steps, 0.0);
    assert_eq!(t(FIT_FRAMEWORK, "fp8", 129).padded_rows_s, 0.0);
}

#[test]
fn tensorrt_llms_sm120_block_scaled_fp8_gemm_steps_through_m() {
    // A step every 64 rows of M, for each wave of 128-wide N tiles over 188 SMs.
    assert_eq!(kernel_time::sm120_fp8_block_m_steps(64, 128, 188), 1.0);
    assert_eq!(kernel_time::sm120_fp8_block_m_steps(65, 256, 188), 2.0);
    assert_eq!(kernel_time::sm120_fp8_block_m_steps(16384, 128, 188), 256.0);
    assert_eq!(
        kernel_time::sm120_fp8_block_m_steps(128, 128 * 189, 188),
        4.0
    );
    // The RTX PRO 6000's TensorRT-LLM rows take them (64 steps at M = 4,096); the same
    // GEMM in SGLang's table, or on an H100, does not.
    let rtx = registry::get("rtx-pro-6000").unwrap();
    let on_rtx = |framework: &str| Row {
        system: "rtx_pro_6000_server".into(),
        device: "NVIDIA RTX PRO 6000 Blackwell Server Edition".into(),
        framework: framework.into(),
        sm: Some(120),
        ..row("fp8_block", 4096, 128, 128, 1e-4)
    };
    assert_eq!(times(&on_rtx(FIT_FRAMEWORK), &rtx).unwrap().waves, 64.0);
    assert_eq!(times(&on_rtx("SGLang"), &rtx).unwrap().waves, 0.0);
    let h100 = registry::get("h100-sxm").unwrap();
    assert_eq!(
        times(&row("fp8_block", 4096, 128, 128, 1e-4), &h100)
            .unwrap()
            .waves,
        0.0
    );
}

#[test]
fn moe_tables_show_how_their_times_scale_with_expert_parallelism() {
    let moe = |version: &str, tokens, ep, measured_s| Row {
        framework: "SGLang".into(),
        version: version.into(),
        kernel: Kernel::Moe,
        kernel_source: Some("sglang_fused_moe_triton".into()),
        shape: Shape::Moe {
            tokens,
            hidden: 4096,
            inter: 14336,
            top_k: 2,
            experts: 8,
            tp: 1,
            ep,
            gated: true,
            balanced: true,
            min_latency: false,
        },
        ..row("bfloat16", 0, 0, 0, measured_s)
    };
    // Two shapes at EP 1, 2 and 4 in a table that multiplies every copy (SGLang 0.5.10),
    // one with half the time at EP 2 in another; rows under 2,048 tokens and an EP with
    // no EP-1 twin are left out.
    let rows = [
        moe("0.5.10", 2048, 1, 1.0e-3),
        moe("0.5.10", 2048, 2, 0.9e-3),
        moe("0.5.10", 2048, 4, 0.8e-3),
        moe("0.5.10", 4096, 1, 2.0e-3),
        moe("0.5.10", 4096, 2, 2.0e-3),
        moe("0.5.10", 1024, 1, 1.0e-3),
        moe("0.5.10", 1024, 2, 0.1e-3),
        moe("0.5.10", 8192, 8, 1.0e-3),
        moe("0.5.14", 2048, 1, 1.0e-3),
        moe("0.5.14", 2048, 2, 0.5e-3),
    ];
    let scaling = ep_scaling(&rows);
    assert_eq!(scaling.len(), 2);
    let (old, new) = (&scaling[0], &scaling[1]);
    assert_eq!(
        (old.version.as_str(), old.remote_copies.as_str()),
        ("0.5.10", "on expert 0")
    );
    assert_eq!(old.ratios.len(), 2);
    assert_eq!((old.ratios[0].0, old.ratios[0].2), (2, 2));
    assert!((old.ratios[0].1 - 0.95).abs() < 1e-12);
    assert_eq!((old.ratios[1].0, old.ratios[1].2), (4, 1));
    assert!((old.ratios[1].1 - 0.8).abs() < 1e-12);
    // Mixtral's shape keeps the clamped path in 0.5.14 too.
    assert_eq!(new.remote_copies, "on expert 0");
    assert!((new.ratios[0].1 - 0.5).abs() < 1e-12);
}

#[test]
fn clamped_expert_ids_compute_every_copy_of_rank_zeros_tokens() {
    let clamped = |tokens, experts, top_k, ep| {
        let l = collector_load(
            tokens,
            experts,
            top_k,
            ep,
            Router::TopK,
            RemoteCopies::OnExpertZero,
        );
        (l.tokens, l.load.assignments, l.load.experts_touched)
    };
    // Mixtral at EP 4: rank 0 holds experts 0 and 1. Token i goes to i mod 8 and
    // (i + 4) mod 8, so half the tokens have a local expert and are given to rank 0
    // with both copies computed (the remote one on expert 0); the other half never
    // reach it. The skipping collectors compute the 8 local copies only.
    assert_eq!(clamped(16, 8, 2, 4), (8.0, 16.0, 2.0));
    let skipped = collector_load(16, 8, 2, 4, Router::TopK, RemoteCopies::Skipped);
    assert_eq!(skipped.load.assignments, 8.0);
    // At EP 2 every token has one local expert: all 2 x 16 copies, as at EP 1, so
    // the clamped work does not shrink with expert parallelism.
    assert_eq!(clamped(16, 8, 2, 2), (16.0, 32.0, 4.0));
    assert_eq!(clamped(16, 8, 2, 1), (16.0, 32.0, 8.0));
    // Wide EP: 64 tokens, each with 2 of its 8 copies on rank 0's 32 experts of 128.
    assert_eq!(clamped(64, 128, 8, 4), (64.0, 512.0, 32.0));
    // TensorRT-LLM's SM120 kernel takes every token: all 32 copies at EP 4, the remote
    // ones on expert 1 (rank 0's last), and 16 of 16 tokens at EP 8 too.
    let every = |ep| {
        let l = collector_load(16, 8, 2, ep, Router::TopK, RemoteCopies::EveryCopy);
        (l.tokens, l.load.assignments, l.load.experts_touched)
    };
    assert_eq!(every(4), (16.0, 32.0, 2.0));
    assert_eq!(every(8), (16.0, 32.0, 1.0));

    // Which tables were timed so: SGLang 0.5.10 always; 0.5.14 only on the Triton
    // kernel in BF16 or block-scaled FP8, for models run with default routing.
    let moe = |framework: &str, version: &str, dtype: &str, hidden, inter, top_k, experts| Row {
        framework: framework.into(),
        version: version.into(),
        kernel: Kernel::Moe,
        kernel_source: Some("sglang_fused_moe_triton".into()),
        shape: Shape::Moe {
            tokens: 64,
            hidden,
            inter,
            top_k,
            experts,
            tp: 1,
            ep: 4,
            gated: true,
            balanced: true,
            min_latency: false,
        },
        ..row(dtype, 0, 0, 0, 1e-4)
    };
    let mixtral = ("bfloat16", 4096, 14336, 2, 8);
    let qwen3 = ("bfloat16", 4096, 1536, 8, 128);
    let of = |framework, version, (dtype, h, i, k, e): (&str, u64, u64, u64, u64)| {
        remote_copies(&moe(framework, version, dtype, h, i, k, e))
    };
    assert_eq!(of("SGLang", "0.5.10", qwen3), RemoteCopies::OnExpertZero);
    assert_eq!(of("SGLang", "0.5.14", mixtral), RemoteCopies::OnExpertZero);
    assert_eq!(of("SGLang", "0.5.14", qwen3), RemoteCopies::Skipped);
    assert_eq!(
        of("SGLang", "0.5.14", ("nvfp4", 4096, 14336, 2, 8)),
        RemoteCopies::Skipped
    );
    assert_eq!(of("TRTLLM", "1.0.0", mixtral), RemoteCopies::Skipped);
    let sm120 = Row {
        kernel_source: Some(TRTLLM_SM120_FP8_BLOCK_MOE.into()),
        ..moe("TRTLLM", "1.3.0rc20", "fp8_block", 4096, 1536, 8, 128)
    };
    assert_eq!(remote_copies(&sm120), RemoteCopies::EveryCopy);
    let marlin = |version: &str, dtype: &str| Row {
        kernel_source: Some("sglang_marlin_moe".into()),
        ..moe("SGLang", version, dtype, 2880, 2880, 4, 32)
    };
    assert_eq!(
        remote_copies(&marlin("0.5.14", "w4a16_mxfp4")),
        RemoteCopies::EveryCopy
    );
    assert_eq!(
        remote_copies(&marlin("0.5.14", "int4_wo")),
        RemoteCopies::Skipped
    );
    let vllm = Row {
        kernel_source: Some("vllm_mxfp4_moe".into()),
        ..moe("VLLM", "0.19.0", "w4a16_mxfp4", 2880, 2880, 4, 32)
    };
    assert_eq!(remote_copies(&vllm), RemoteCopies::EveryCopy);
    assert_eq!(of("VLLM", "0.14.0", mixtral), RemoteCopies::Skipped);
}

#[test]
fn the_collectors_router_loads_rank_zero_as_the_tables_were_timed() {
    let load = |tokens, experts, top_k, ep, router| {
        let l = collector_load(tokens, experts, top_k, ep, router, RemoteCopies::Skipped);
        assert_eq!(l.tokens, tokens as f64);
        (l.load.assignments, l.load.experts_touched)
    };
    // One token's one choice is expert 0: rank 0's, whatever the parallelism (a random
    // router's share would be 1 / 128 of a copy).
    assert_eq!(load(1, 128, 1, 128, Router::TopK), (1.0, 1.0));
    // Even spread: rank 0 of 4 gets a quarter of 64 x 8 copies, on all 32 experts.
    assert_eq!(load(64, 128, 8, 4, Router::TopK), (128.0, 32.0));
    // Fewer tokens than the stride (32): token 0 starts at expert 0, token 1 at 16.
    assert_eq!(load(2, 256, 8, 8, Router::TopK), (2.0, 2.0));
    // DeepSeek-V3's groups: every token's high experts score alike in all 8 groups, so
    // the first 4 groups are kept (experts 0..127, rank 0's of 2) and all 8 choices
    // land there; top-k alone sends rank 0 half of them.
    assert_eq!(load(64, 256, 8, 2, Router::DeepSeekGroups), (512.0, 128.0));
    assert_eq!(load(64, 256, 8, 2, Router::TopK), (256.0, 128.0));
    // The shortcut over token residues equals walking every token.
    for (tokens, experts, top_k, ep) in [
        (1, 8, 2, 1),
        (3, 128, 8, 16),
        (31, 256, 8, 8),
        (100, 384, 8, 32),
        (1000, 160, 6, 8),
        (4097, 512, 22, 64),
    ] {
        for router in [Router::TopK, Router::DeepSeekGroups] {
            let local = experts / ep;
            let mut copies = 0;
            let mut touched = std::collections::BTreeSet::new();
            for i in 0..tokens {
                for e in balanced_choice(i, tokens, experts, top_k, router) {
                    assert!(e < experts);
                    if e < local {
                        copies += 1;
                        touched.insert(e);
                    }
                }
            }
            assert_eq!(
                load(tokens, experts, top_k, ep, router),
                (f64::from(copies), touched.len() as f64),
                "{tokens} tokens, {experts} experts, top {top_k}, EP {ep}, {router:?}"
            );
        }
    }
}

#[test]
fn moe_kernels_other_than_the_gated_one_are_groups_of_their_own() {
    let moe = |gated, min_latency| Row {
        kernel: Kernel::Moe,
        shape: Shape::Moe {
            tokens: 8,
            hidden: 4096,
            inter: 2048,
            top_k: 8,
            experts: 256,
            tp: 1,
            ep: 1,
            gated,
            balanced: true,
            min_latency,
        },
        ..row("nvfp4", 0, 0, 0, 1e-4)
    };
    assert_eq!(moe(true, false).dtype_label(), "nvfp4");
    assert_eq!(moe(false, false).dtype_label(), "nvfp4, non-gated");
    assert_eq!(moe(true, true).dtype_label(), "nvfp4, min-latency kernel");
    // Only the gated kernel's group is the product's fused MoE layer, in the formats of
    // its dtype; block-scaled FP8 has no catalogue format of its own.
    let nvfp4 = Profiled::Moe {
        activations: Format::NvFp4,
        weights: Format::NvFp4,
    };
    assert_eq!(profiled(&moe(true, false)), Some(nvfp4));
    assert_eq!(profiled(&moe(false, false)), None);
    assert_eq!(profiled(&moe(true, true)), None);
    let with = |dtype: &str| Row {
        dtype: dtype.into(),
        ..moe(true, false)
    };
    assert_eq!(
        profiled(&with("w4a16_mxfp4")),
        Some(Profiled::Moe {
            activations: Format::Bf16,
            weights: Format::MxFp4
        })
    );
    assert_eq!(profiled(&with("fp8_block")), None);
    // The analysis's own MoE block reads as that kind: NVFP4 experts.
    let config = rooflinr_model::presets::get("mixtral-8x7b").unwrap();
    let hw = registry::get("b200").unwrap();
    let a = rooflinr_model::analysis::analyze(
        &config,
        &hw,
        &rooflinr_model::analysis::Scenario {
            phase: rooflinr_model::analysis::Phase::Decode,
            batch: 8,
            seq: 1024,
            precision: Precision::uniform(Format::NvFp4),
            attention: rooflinr_model::analysis::AttentionKernel::Fused,
            quantize_embeddings: false,
            experts: None,
        },
        &Efficiency::IDEAL,
    )
    .unwrap();
    let layer = kernel_time::FusedMoe::of(&a.ops, 1.0).unwrap();
    assert_eq!(layer.kind(), nvfp4);
}

/// A framework's MoE profile follows the tiling of the kernel every row it was fitted
/// on ran (TRT-LLM-Gen's, the Triton fused MoE's, or none), and has no one rule where
/// its rows mixed kernels of different tilings.
#[test]
fn a_moe_profile_follows_one_tile_rule_or_none() {
    let b200 = registry::get("b200").unwrap();
    let trtllm_gen = b200_moe("SGLang", "sglang_flashinfer_trtllm_moe");
    let triton = b200_moe("SGLang", "sglang_fused_moe_triton");
    let triton_variant = b200_moe("SGLang", "sglang_fused_moe_triton_situ_as_silu");
    let cutlass = b200_moe("TRTLLM", "moe_torch_flow_cutlass");
    assert_eq!(
        tile_rule(&[&trtllm_gen, &trtllm_gen], &b200),
        Some(MoeTiling::TrtllmGen)
    );
    assert_eq!(
        tile_rule(&[&triton, &triton_variant], &b200),
        Some(MoeTiling::Triton)
    );
    assert_eq!(tile_rule(&[&cutlass], &b200), Some(MoeTiling::Copies));
    assert_eq!(tile_rule(&[&trtllm_gen, &triton], &b200), None);
    assert_eq!(tile_rule(&[&cutlass, &triton], &b200), None);
    // Not a MoE row: no tiles per expert, whatever its kernel's name.
    let attention = Row {
        kernel: Kernel::GenerationAttention,
        ..triton.clone()
    };
    assert_eq!(tile_rule(&[&attention], &b200), Some(MoeTiling::Copies));
}

/// TensorRT-LLM's decode rows with more than 32 query heads per KV head ran its masked
/// multi-head attention kernel: a group of their own, predicted with the cache read
/// once per query head; other frameworks' rows stay in the main group. H100's XQA rows
/// count the parts XQA splits each sequence into.
#[test]
fn decode_rows_past_xqas_group_limit_are_a_kernel_of_their_own() {
    let hw = registry::get("h100-sxm").unwrap();
    let wide = |framework: &str| {
        let mut r = decode(4, 4095, "bfloat16", 0);
        r.framework = framework.into();
        if let Shape::Attention { heads, .. } = &mut r.shape {
            *heads = 8 * 64;
        }
        r
    };
    let trt = wide(FIT_FRAMEWORK);
    assert!(trt.per_query_head());
    assert_eq!(
        trt.dtype_label(),
        "bfloat16, KV bfloat16, a block per query head"
    );
    assert_eq!(wide("VLLM").dtype_label(), "bfloat16, KV bfloat16");
    // Plain multi-head attention (8 query heads on 8 KV heads) runs the same kernel on
    // the H100 (XQA refuses it on sm_80 to sm_90), not on a B200.
    let mut mha = decode(4, 4095, "bfloat16", 0);
    if let Shape::Attention { heads, .. } = &mut mha.shape {
        *heads = 8;
    }
    assert!(mha.per_query_head());
    mha.sm = Some(100);
    assert!(!mha.per_query_head());
    assert_eq!(
        profiled(&trt),
        Some(Profiled::PerQueryHeadDecode {
            queries: Format::Bf16,
            kv: Format::Bf16
        })
    );
    // The per-query-head rows read the cache once per query head, 64 times: once from
    // the DRAM, as vLLM's kernel does (the queries and outputs are the same in both),
    // and 63 times more from the L2; 2,048 blocks.
    let (own, other) = (
        times(&trt, &hw).unwrap(),
        times(&wide("VLLM"), &hw).unwrap(),
    );
    let cache = 4.0 * 4096.0 * 8.0 * 128.0 * 2.0 * 2.0;
    assert_eq!((own.memory_s, other.l2_s), (other.memory_s, 0.0));
    let rereads = own.l2_s * hw.memory_bandwidth.value.get();
    assert!(
        (rereads / (63.0 * cache) - 1.0).abs() < 1e-9,
        "{own:?} {other:?}"
    );
    assert_eq!(own.waves, 16.0);
    // 4 x 8 XQA blocks of a 4,096-token cache: 16 parts each (32 of 128 tokens,
    // capped at round(sqrt(32 x 8))), 512 blocks: 4 waves on 132 SMs, and the merge.
    let xqa = decode(4, 4095, "bfloat16", 0);
    assert_eq!(kernel_time::xqa_parts(4, 8, 4096, 132), 16);
    assert_eq!(times(&xqa, &hw).unwrap().waves, 5.0);
}

#[test]
fn attention_groups_are_fitted_and_judged_apart_from_gemms() {
    let hw = registry::get("h100-sxm").unwrap();
    let truth = KernelTerms {
        fixed_s: 9e-6,
        bandwidth: 0.7,
        compute: 0.5,
        per_wave_s: 1.2e-6,
        tile_bandwidth: 1.0,
        l2_bandwidth: f64::INFINITY,
        overlap: f64::INFINITY,
        ..KernelTerms::ROOFLINE
    };
    let mut rows = Vec::new();
    for batch in [1u64, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024] {
        for step in [1u64, 15, 127, 1023, 8191, 32767] {
            let mut r = decode(batch, step, "bfloat16", 0);
            r.measured_s = truth.predict(times(&r, &hw).unwrap());
            rows.push(r);
        }
    }
    rows.push(row("bfloat16", 4096, 4096, 4096, 1e-3));
    let v = validate(&rows, false);
    let g = v
        .groups
        .iter()
        .find(|g| g.kernel == Kernel::GenerationAttention)
        .unwrap();
    assert_eq!(g.dtype, "bfloat16, KV bfloat16");
    let (_, _, calibrated) = &g.held_out_shapes[0];
    assert!(calibrated.median < 0.05, "{g:?}");
    // Within a quarter of the latency that made the times: a decode block's stream
    // counting the cache alone (since 2026-11-27) moved this fit's rounds to 0.99 us.
    assert!((g.fitted.per_wave_us - 1.2).abs() < 0.3, "{g:?}");
    // H100 decode attention in BF16 has a shipped profile, which these made-up terms
    // are not.
    assert!(
        g.fitted.shipped.starts_with("differs (shipped"),
        "{}",
        g.fitted.shipped
    );
    assert!(v.groups.iter().any(|g| g.kernel == Kernel::Gemm));
}

/// One path from the fit to what users run: every GEMM and attention row, as `validate`
/// scores it, has the times the product's calibrated figures predict with
/// ([`kernel_time::calibrated_times`], whose kernels a framework picks on its own are
/// the row's: [`Dispatch::of`]) once the collector's adjustments are made
/// ([`as_collected`]), and so under the shipped profile the same expected time.
#[test]
fn validate_scores_the_times_the_product_predicts_with() {
    let prefill = |isl: u64, window: u64| Row {
        kernel: Kernel::ContextAttention,
        kv_dtype: Some("bfloat16".into()),
        shape: Shape::Attention {
            batch: 2,
            isl,
            step: 0,
            heads: 32,
            kv_heads: 8,
            head_dim: 128,
            window,
        },
        ..row("bfloat16", 0, 0, 0, 1e-4)
    };
    let devices = [
        ("h100_sxm", "NVIDIA H100 80GB HBM3", "h100-sxm", 90),
        ("h200_sxm", "NVIDIA H200", "h200", 90),
        ("b200_sxm", "NVIDIA B200", "b200", 100),
    ];
    let mut rows = Vec::new();
    for (system, device, key, sm) in devices {
        for framework in ["TRTLLM", "VLLM", "SGLang"] {
            let on = |r: Row| Row {
                system: system.into(),
                device: device.into(),
                framework: framework.into(),
                sm: Some(sm),
                ..r
            };
            for dtype in ["bfloat16", "fp8", "nvfp4", "fp8_block"] {
                for m in [1, 5, 129, 4096] {
                    rows.push((key, on(row(dtype, m, 8192, 4096, 1e-4))));
                }
            }
            for (isl, window) in [(1024, 0), (8192, 0), (8192, 4096)] {
                rows.push((key, on(prefill(isl, window))));
                rows.push((
                    key,
                    Row {
                        kernel_source: Some(SGLANG_TRITON_ATTENTION.into()),
                        ..on(prefill(isl, window))
                    },
                ));
            }
            for (step, window) in [(1024, 0), (8192, 0), (8192, 128)] {
                for kv in ["bfloat16", "fp8"] {
                    rows.push((key, on(decode(64, step, kv, window))));
                }
            }
        }
    }
    let (mut compared, mut defaults) = (0, 0);
    for (key, r) in &rows {
        let hw = registry::get(key).unwrap();
        let scored = times(r, &hw).unwrap();
        let (op, precision) = operator(r).unwrap();
        let prediction = op.predict(&precision, &hw, &Efficiency::IDEAL).prediction;
        let framework = Framework::parse(&r.framework).unwrap();
        let activations = kernel_time::Activations::QuantisedFirst;
        let product = |d: Dispatch| {
            kernel_time::calibrated_times(&op, &precision, &hw, d, &prediction, activations)
        };
        let Some((ran, profile)) = product(dispatch(r)) else {
            continue;
        };
        compared += 1;
        let label = format!("{key} {} {:?} {:?}", r.framework, r.kernel_source, r.shape);
        assert_eq!(
            as_collected(r, &op, &precision, &hw, ran),
            scored,
            "{label}"
        );
        assert_eq!(profiled(r), Some(profile.kernel), "{label}");
        assert_eq!(
            profile
                .terms
                .predict(as_collected(r, &op, &precision, &hw, ran)),
            profile.terms.predict(scored),
            "{label}"
        );
        // What the product asks for by naming the framework alone is the row's kernel
        // wherever the row ran the kernel its framework picks on its own.
        if dispatch(r) == Dispatch::of(framework) {
            defaults += 1;
            let (by_name, _) = product(Dispatch::of(framework)).unwrap();
            assert_eq!(by_name, ran, "{label}");
            let (t, _) = kernel_time::calibrated_with(
                &op,
                &precision,
                &hw,
                framework,
                &prediction,
                activations,
            )
            .unwrap();
            assert_eq!(t, profile.terms.predict(ran), "{label}");
        }
    }
    // Most of these kernels have a shipped profile on these devices.
    assert!(compared > rows.len() / 2, "{compared} of {}", rows.len());
    assert!(defaults > compared / 2, "{defaults} of {compared}");
}

/// Writes a GEMM table of `rows` (m, latency in ms) with every column a GEMM table
/// needs but `without`, under `dir` as the wheel lays its tables out.
fn gemm_table(dir: &Path, rows: &[(i64, f64)], without: Option<&str>) -> PathBuf {
    use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    let texts = [
        ("framework", "TRTLLM"),
        ("version", "1.0"),
        ("device", "NVIDIA H100 80GB HBM3"),
        ("gemm_dtype", "bfloat16"),
    ];
    let numbers = ["m", "n", "k"];
    let mut fields: Vec<String> = Vec::new();
    fields.extend(
        texts
            .iter()
            .filter(|(c, _)| Some(*c) != without)
            .map(|(c, _)| format!("REQUIRED BYTE_ARRAY {c} (UTF8);")),
    );
    fields.extend(
        numbers
            .iter()
            .filter(|c| Some(**c) != without)
            .map(|c| format!("REQUIRED INT64 {c};")),
    );
    if without != Some("latency") {
        fields.push("REQUIRED DOUBLE latency;".into());
    }
    let schema = parquet::schema::parser::parse_message_type(&format!(
        "message gemm {{ {} }}",
        fields.join(" ")
    ))
    .unwrap();
    let folder = dir.join("h100_sxm/gemm/TRTLLM/1.0");
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("gemm_perf.parquet");
    let file = File::create(&path).unwrap();
    let mut writer = SerializedFileWriter::new(
        file,
        schema.into(),
        WriterProperties::builder().build().into(),
    )
    .unwrap();
    let mut group = writer.next_row_group().unwrap();
    for (name, text) in texts.iter().filter(|(c, _)| Some(*c) != without) {
        let mut column = group.next_column().unwrap().unwrap();
        let values = vec![ByteArray::from(*text); rows.len()];
        column
            .typed::<ByteArrayType>()
            .write_batch(&values, None, None)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        column.close().unwrap();
    }
    for name in numbers.iter().filter(|c| Some(**c) != without) {
        let mut column = group.next_column().unwrap().unwrap();
        let values: Vec<i64> = rows
            .iter()
            .map(|&(m, _)| if *name == "m" { m } else { 4096 })
            .collect();
        column
            .typed::<Int64Type>()
            .write_batch(&values, None, None)
            .unwrap();
        column.close().unwrap();
    }
    if without != Some("latency") {
        let mut column = group.next_column().unwrap().unwrap();
        let values: Vec<f64> = rows.iter().map(|&(_, ms)| ms).collect();
        column
            .typed::<DoubleType>()
            .write_batch(&values, None, None)
            .unwrap();
        column.close().unwrap();
    }
    group.close().unwrap();
    writer.close().unwrap();
    path
}

/// A table missing a column it needs is refused, naming the column; rows with an empty
/// shape or no latency are left out and counted, not dropped in silence.
#[test]
fn tables_name_a_missing_column_and_count_the_rows_they_leave_out() {
    let dir = std::env::temp_dir().join(format!("rooflinr-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    gemm_table(&dir, &[(16, 0.01), (0, 0.01), (32, 0.0), (64, 0.02)], None);
    let tables = read_tables(&dir).unwrap();
    let ms: Vec<u64> = tables
        .rows
        .iter()
        .map(|r| match r.shape {
            Shape::Gemm { m, .. } => m,
            _ => 0,
        })
        .collect();
    assert_eq!(ms, [16, 64]);
    assert_eq!(tables.rows[0].framework, "TRTLLM");
    assert_eq!(tables.rows[0].sm, Some(90));
    assert!((tables.rows[1].measured_s - 2e-5).abs() < 1e-15);
    assert_eq!(tables.left_out.len(), 1);
    assert!(
        tables.left_out[0].contains("h100_sxm/gemm/TRTLLM/1.0/gemm_perf.parquet: 2 rows"),
        "{:?}",
        tables.left_out
    );
    for column in ["latency", "m", "gemm_dtype", "device"] {
        let _ = std::fs::remove_dir_all(&dir);
        gemm_table(&dir, &[(16, 0.01)], Some(column));
        let error = read_tables(&dir)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            error.contains(&format!("no `{column}` column")),
            "{column}: {error}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
