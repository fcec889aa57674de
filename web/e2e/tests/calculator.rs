//! End to end: the release bundle, served on loopback under a sub-path, opened from shared
//! links in headless Chromium through chromedriver. The figures the page shows are checked
//! against the model crate's own answers, and screenshots are saved in `target/e2e/`.

use anyhow::{Context, Result};
use rooflinr_model::analysis::{self, AttentionKernel, Phase, Scenario};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::registry;
use rooflinr_model::kernel_time::{self, Framework};
use rooflinr_model::ops::{Op, Precision};
use rooflinr_model::presets;
use rooflinr_model::roofline::Efficiency;
use rooflinr_model::units::si;
use rooflinr_web_e2e::{
    code_dir, location_search, open_browser, release_bundle, root, serve, start_driver, text_of,
};

async fn screenshot(client: &fantoccini::Client, name: &str) -> Result<()> {
    let dir = root().join("target/e2e");
    std::fs::create_dir_all(&dir)?;
    let png = client.screenshot().await?;
    let path = dir.join(name);
    std::fs::write(&path, png)?;
    println!("screenshot: {}", path.display());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_links_reproduce_the_model_crates_figures() -> Result<()> {
    let dist = tokio::task::spawn_blocking(release_bundle).await??;
    let page = serve(&dist).await?;
    let driver = start_driver().await?;
    let client = open_browser(&driver, 1440, 2200).await?;

    // A whole-model link: DeepSeek-V3 decode on B200 with NVFP4 weights and an FP8 cache.
    let query = "v=1&mode=model&hw=b200&act=fp16&w=nvfp4&kv=fp8-e4m3&out=fp16&model=deepseek-v3&phase=decode&batch=8&seq=8192";
    client.goto(&format!("{page}?{query}")).await?;
    let time = text_of(&client, "[data-figure=model-time]").await?;
    let tokens = text_of(&client, "[data-figure=model-tokens]").await?;
    let memory = text_of(&client, "[data-figure=model-memory]").await?;
    let crossover = text_of(&client, "[data-figure=model-crossover]").await?;

    let expected = analysis::analyze(
        &presets::get("deepseek-v3")?,
        &registry::get("b200")?,
        &Scenario {
            phase: Phase::Decode,
            batch: 8,
            seq: 8192,
            precision: Precision {
                activations: Format::Fp16,
                weights: Format::NvFp4,
                kv: Format::Fp8E4m3,
                output: Format::Fp16,
            },
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
            experts: None,
        },
        &Efficiency::IDEAL,
    )?;
    assert_eq!(time, si(expected.time.get(), "s"));
    assert_eq!(tokens, format!("{:.1}", expected.tokens_per_s));
    assert_eq!(memory, expected.memory.required.to_string());
    assert_eq!(
        crossover,
        format!(
            "{} tokens",
            rooflinr_model::units::grouped(expected.kv_crossover_tokens)
        )
    );
    // The link survives the round trip through the app's state.
    let search = location_search(&client, |s| s == format!("?{query}")).await?;
    assert_eq!(search, format!("?{query}"));
    let rows = client
        .execute(
            "return document.querySelectorAll('#operators tbody tr').length",
            vec![],
        )
        .await?;
    assert_eq!(rows.as_u64(), Some(expected.ops.len() as u64));
    screenshot(&client, "calculator-model.png").await?;

    // Expected times per serving framework: a link with `fw=vllm` shows the expected time
    // with vLLM's kernel profiles; choosing SGLang shows SGLang's and puts it in the link.
    let query = "v=1&mode=model&hw=h100-sxm&act=bf16&w=bf16&kv=bf16&out=bf16&model=llama-3-8b&phase=decode&batch=1&seq=4096&fw=vllm";
    client.goto(&format!("{page}?{query}")).await?;
    let hw = registry::get("h100-sxm")?;
    let llama = analysis::analyze(
        &presets::get("llama-3-8b")?,
        &hw,
        &Scenario {
            phase: Phase::Decode,
            batch: 1,
            seq: 4096,
            precision: Precision::uniform(Format::Bf16),
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
            experts: None,
        },
        &Efficiency::IDEAL,
    )?;
    let expected_note = |framework: Framework| {
        let pass = kernel_time::calibrated_pass(&llama.ops, &hw, framework);
        format!(
            "expected {} with {} kernels'",
            si(pass.time_s, "s"),
            framework.name()
        )
    };
    let note = text_of(&client, "[data-figure=model-time] + .note").await?;
    assert!(note.contains(&expected_note(Framework::Vllm)), "{note}");
    // Opened again with no measurements saved, the page has nothing to say about them (it
    // once saved an empty string for none, then failed to read it back on every visit).
    let lab = text_of(&client, "#lab").await?;
    assert!(!lab.contains("could not be read"), "{lab}");
    client
        .find(fantoccini::Locator::Css("#framework-select"))
        .await?
        .select_by_value("sglang")
        .await?;
    let want = expected_note(Framework::Sglang);
    let mut note = String::new();
    for _ in 0..50 {
        note = text_of(&client, "[data-figure=model-time] + .note").await?;
        if note.contains(&want) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(note.contains(&want), "{note}");
    let search = location_search(&client, |q| q.contains("fw=sglang")).await?;
    assert!(search.contains("fw=sglang"), "{search:?}");

    // A mixture of experts: its routed experts count as one fused MoE layer at the MoE
    // profile's expected time, in the page as in the model crate.
    let query = "v=1&mode=model&hw=h100-sxm&act=bf16&w=bf16&kv=bf16&out=bf16&model=mixtral-8x7b&phase=decode&batch=64&seq=2048";
    client.goto(&format!("{page}?{query}")).await?;
    let mixtral = analysis::analyze(
        &presets::get("mixtral-8x7b")?,
        &hw,
        &Scenario {
            phase: Phase::Decode,
            batch: 64,
            seq: 2048,
            precision: Precision::uniform(Format::Bf16),
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
            experts: None,
        },
        &Efficiency::IDEAL,
    )?;
    let pass = kernel_time::calibrated_pass(&mixtral.ops, &hw, Framework::TensorRtLlm);
    assert!(kernel_time::FusedMoe::of(&mixtral.ops, 1.0).is_some());
    let want = format!(
        "expected {} with TensorRT-LLM kernels' terms fitted on NVIDIA's measured kernel tables ({} of {} operator kinds, {}; the rest at the bound)",
        si(pass.time_s, "s"),
        pass.calibrated_ops,
        mixtral.ops.len(),
        kernel_time::FUSED_MOE_NOTE
    );
    let note = text_of(&client, "[data-figure=model-time] + .note").await?;
    assert!(note.contains(&want), "{note} / {want}");

    // Experts with weights of their own: gpt-oss-120b as its checkpoint ships (MXFP4
    // experts, BF16 elsewhere), from a link, in the page as in the model crate.
    let query = "v=1&mode=model&hw=h200&act=bf16&w=bf16&kv=bf16&out=bf16&xw=mxfp4&model=gpt-oss-120b&phase=decode&batch=16&seq=8192";
    client.goto(&format!("{page}?{query}")).await?;
    let gpt_oss = analysis::analyze(
        &presets::get("gpt-oss-120b")?,
        &registry::get("h200")?,
        &Scenario {
            phase: Phase::Decode,
            batch: 16,
            seq: 8192,
            precision: Precision::uniform(Format::Bf16),
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
            experts: Some(analysis::ExpertFormats {
                weights: Format::MxFp4,
                activations: Format::Bf16,
            }),
        },
        &Efficiency::IDEAL,
    )?;
    let memory = text_of(&client, "[data-figure=model-memory]").await?;
    assert_eq!(memory, gpt_oss.memory.required.to_string());
    let formats = text_of(&client, "#formats-title + .row + .row").await?;
    assert!(formats.contains("experts"), "{formats}");
    let search = location_search(&client, |s| s == format!("?{query}")).await?;
    assert_eq!(search, format!("?{query}"));

    // An operator link, in the dark theme: an 8192 x 8192 GEMV with FP8 weights on H100.
    let query = "v=1&mode=op&hw=h100-sxm&act=fp16&w=fp8-e4m3&kv=fp16&out=fp16&op=gemv&m=1&n=8192&k=8192&vary=weights&theme=dark";
    client.goto(&format!("{page}?{query}")).await?;
    let time = text_of(&client, "[data-figure=op-time]").await?;
    let intensity = text_of(&client, "[data-figure=op-intensity]").await?;
    let bound = text_of(&client, "[data-figure=op-bound]").await?;
    let gemv = Op::Gemm {
        m: 1.0,
        n: 8192.0,
        k: 8192.0,
        bias: false,
    };
    let p = Precision {
        weights: Format::Fp8E4m3,
        ..Precision::uniform(Format::Fp16)
    };
    let r = gemv.predict(&p, &registry::get("h100-sxm")?, &Efficiency::IDEAL);
    assert_eq!(time, si(r.prediction.time.get(), "s"));
    assert_eq!(
        intensity,
        format!("{:.2} FLOP/B", r.prediction.intensity.get())
    );
    assert_eq!(bound, format!("{}-bound", r.prediction.bound.name()));
    screenshot(&client, "calculator-operator-dark.png").await?;

    // Devices side by side: a link with five devices beside the H100 shows one row per
    // device, each the model crate's own analysis on that device.
    let devices = ["h100-sxm", "h200", "b200", "gb10", "mi300x", "rtx-5090"];
    let query = format!(
        "v=1&mode=model&hw=h100-sxm&w=fp8-e4m3&model=llama-3-70b&phase=decode&batch=8&seq=8192&cmp={}",
        devices[1..5].join(",")
    );
    client.goto(&format!("{page}?{query}")).await?;
    text_of(&client, "#comparison").await?;
    let scenario = Scenario {
        phase: Phase::Decode,
        batch: 8,
        seq: 8192,
        precision: Precision {
            weights: Format::Fp8E4m3,
            ..Precision::uniform(Format::Fp16)
        },
        attention: AttentionKernel::Fused,
        quantize_embeddings: false,
        experts: None,
    };
    let times = client
        .execute(
            "return [...document.querySelectorAll('#comparison tbody tr td:nth-child(2)')].map(td => td.firstChild.textContent)",
            vec![],
        )
        .await?;
    let times: Vec<String> = serde_json::from_value(times)?;
    assert_eq!(times.len(), 5);
    for (key, shown) in devices[..5].iter().zip(&times) {
        let a = analysis::analyze(
            &presets::get("llama-3-70b")?,
            &registry::get(key)?,
            &scenario,
            &Efficiency::IDEAL,
        )?;
        assert_eq!(*shown, si(a.time.get(), "s"), "{key}");
    }
    // Adding the sixth device through the picker: the time until its row is in the page.
    let added_ms = client
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            const select = document.getElementById('compare-add');
            const start = performance.now();
            select.value = arguments[0];
            select.dispatchEvent(new Event('change', { bubbles: true }));
            const wait = () => document.querySelectorAll('#comparison tbody tr').length === 6
                ? done(performance.now() - start)
                : requestAnimationFrame(wait);
            wait();"#,
            vec![serde_json::json!(devices[5])],
        )
        .await?;
    println!(
        "comparison of six devices: rendered {:.1} ms after the sixth was picked",
        added_ms.as_f64().unwrap_or(f64::NAN)
    );
    let wanted = "cmp=h200%2Cb200%2Cgb10%2Cmi300x%2Crtx-5090";
    let search = location_search(&client, |q| q.contains(wanted)).await?;
    assert!(search.contains(wanted), "{search}");
    screenshot(&client, "calculator-comparison.png").await?;

    // A deployment link: Llama-3-70B with FP8 weights on 8 H100s (TP4 PP2), 64 requests;
    // the page shows the model crate's own serving figures (in-flight batching under the
    // default engine's scheduler) and the serving chart.
    let query = "v=1&mode=deploy&hw=h100-sxm&act=bf16&w=fp8-e4m3&kv=bf16&out=bf16&model=llama-3-70b&tp=4&pp=2&dp=1&ep=0&prompt=1024&gen=256&conc=64&ovl=0&sg=8&sf=20";
    client.goto(&format!("{page}?{query}")).await?;
    let ttft = text_of(&client, "[data-figure=deploy-ttft]").await?;
    let tpot = text_of(&client, "[data-figure=deploy-tpot]").await?;
    let per_gpu = text_of(&client, "[data-figure=deploy-gpu]").await?;
    let memory = text_of(&client, "[data-figure=deploy-memory]").await?;
    let expected = rooflinr_model::deploy::evaluate(
        &presets::get("llama-3-70b")?,
        &registry::get("h100-sxm")?,
        &Scenario {
            phase: Phase::Decode,
            batch: 1,
            seq: 1,
            precision: Precision {
                weights: Format::Fp8E4m3,
                ..Precision::uniform(Format::Bf16)
            },
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
            experts: None,
        },
        &Efficiency::IDEAL,
        rooflinr_model::deploy::Layout {
            tensor: 4,
            pipeline: 2,
            data: 1,
            expert: 1,
        },
        rooflinr_model::deploy::Workload {
            prompt: 1024,
            output: 256,
            concurrency: 64,
        },
        &rooflinr_model::deploy::DeployOptions::in_flight(
            rooflinr_model::kernel_time::Framework::default(),
            &registry::get("h100-sxm")?,
        ),
    )?;
    assert!(expected.in_flight.is_some());
    assert_eq!(ttft, si(expected.serving.ttft.get(), "s"));
    assert_eq!(tpot, si(expected.serving.tpot.get(), "s"));
    assert_eq!(
        per_gpu,
        format!("{:.1}", expected.serving.tokens_per_s_per_gpu)
    );
    assert_eq!(memory, expected.memory.total().to_string());
    let comms = client
        .execute(
            "return document.querySelectorAll('#deploy-comms tbody tr').length",
            vec![],
        )
        .await?;
    assert_eq!(comms.as_u64(), Some(expected.decode.comms.len() as u64));
    // The serving chart: one point per concurrency of the curve, and the front of the
    // other layouts of 8 GPUs drawn once it is computed.
    let points = client
        .execute(
            "return document.querySelectorAll('#roofline-chart.serving-chart circle').length",
            vec![],
        )
        .await?;
    assert!(points.as_u64().unwrap_or(0) > 5, "{points}");
    // A point reached from the keyboard says its figures under the chart.
    let said = client
        .execute(
            r#"const p = document.querySelector('#roofline-chart.serving-chart circle.point');
            p.focus();
            return [p.getAttribute('aria-label'), document.getElementById('serving-focus').textContent];"#,
            vec![],
        )
        .await?;
    let said: Vec<String> = serde_json::from_value(said)?;
    assert!(said[0].contains("requests:"), "{said:?}");
    let shown = text_of(&client, "#serving-focus").await?;
    assert_eq!(shown.trim(), said[0].trim());
    let search = location_search(&client, |s| s == format!("?{query}")).await?;
    assert_eq!(search, format!("?{query}"));
    // Moving the concurrency slider re-renders the figures: the time until the new
    // per-GPU figure is in the page.
    let slid_ms = client
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            const slider = document.getElementById('slider-requests-at-once');
            const before = document.querySelector('[data-figure=deploy-gpu]').textContent;
            const start = performance.now();
            slider.value = 8;
            slider.dispatchEvent(new Event('input', { bubbles: true }));
            const wait = () => document.querySelector('[data-figure=deploy-gpu]').textContent !== before
                ? done(performance.now() - start)
                : requestAnimationFrame(wait);
            wait();"#,
            vec![],
        )
        .await?;
    println!(
        "deployment: figures and serving chart updated {:.1} ms after the concurrency slider moved",
        slid_ms.as_f64().unwrap_or(f64::NAN)
    );
    screenshot(&client, "calculator-deploy.png").await?;

    // Expected times for a mixture of experts over 4 GPUs with expert parallelism: the page
    // says its routed experts are one fused MoE layer, as the model crate's deployment does.
    let query = "v=1&mode=deploy&hw=h100-sxm&act=bf16&w=bf16&kv=bf16&out=bf16&model=mixtral-8x7b&tp=4&pp=1&dp=1&ep=1&prompt=1024&gen=256&conc=64&ovl=0&cal=1&sg=8&sf=20";
    client.goto(&format!("{page}?{query}")).await?;
    text_of(&client, "[data-figure=deploy-tpot]").await?;
    let page_text = text_of(&client, "main").await?;
    assert!(
        page_text.contains(&format!("operator kinds ({})", kernel_time::FUSED_MOE_NOTE)),
        "{page_text}"
    );

    // Disaggregated serving from a link: Llama-3-70B in FP8 on H100s, two prefill workers of
    // TP4 and one decode worker of TP8; the page's figures are the model crate's steady
    // state of those workers, and choosing in-flight serving again takes the workers away.
    let query = "v=1&mode=deploy&hw=h100-sxm&act=bf16&w=fp8-e4m3&kv=bf16&out=bf16&model=llama-3-70b&tp=8&pp=1&dp=1&ep=0&prompt=1024&gen=256&conc=64&ovl=0&serve=disagg&pl=tp4&pw=2&dw=1&sg=8&sf=20";
    client.goto(&format!("{page}?{query}")).await?;
    let ttft = text_of(&client, "[data-figure=deploy-ttft]").await?;
    let per_gpu = text_of(&client, "[data-figure=deploy-gpu]").await?;
    let h100 = registry::get("h100-sxm")?;
    let workers = rooflinr_model::deploy::Disaggregated {
        prefill: "tp4".parse()?,
        prefill_workers: 2,
        decode: "tp8".parse()?,
        decode_workers: 1,
    };
    let expected = rooflinr_model::deploy::evaluate_disaggregated(
        &presets::get("llama-3-70b")?,
        &h100,
        &Scenario {
            phase: Phase::Decode,
            batch: 1,
            seq: 1,
            precision: Precision {
                weights: Format::Fp8E4m3,
                ..Precision::uniform(Format::Bf16)
            },
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
            experts: None,
        },
        &Efficiency::IDEAL,
        &workers,
        rooflinr_model::deploy::Workload {
            prompt: 1024,
            output: 256,
            concurrency: 64,
        },
        &rooflinr_model::deploy::DeployOptions::in_flight(Framework::default(), &h100),
    )?;
    assert_eq!(ttft, si(expected.serving.ttft.get(), "s"));
    assert_eq!(
        per_gpu,
        format!("{:.1}", expected.serving.tokens_per_s_per_gpu)
    );
    let gpus = text_of(&client, "#deploy-gpus").await?;
    assert!(gpus.contains("each decode worker 8 GPUs"), "{gpus}");
    let page_text = text_of(&client, "main").await?;
    assert!(
        page_text.contains(&format!("16 GPUs: {workers}")),
        "{page_text}"
    );
    // The search, disaggregated: prefill and decode workers of up to the link's 8 GPUs;
    // taking a row of its front puts its workers in the link.
    client
        .find(fantoccini::Locator::Css("#search-run"))
        .await?
        .click()
        .await?;
    let first = text_of(&client, "#search-workers tbody tr:first-child th").await?;
    assert!(first.contains(" × TP"), "{first}");
    let before = location_search(&client, |_| true).await?;
    client
        .find(fantoccini::Locator::Css(
            "#search-workers tbody tr:first-child button",
        ))
        .await?
        .click()
        .await?;
    let taken = location_search(&client, |q| q != before).await?;
    assert_ne!(taken, before);
    assert!(
        taken.contains("serve=disagg") && taken.contains("pl=tp"),
        "{taken}"
    );
    screenshot(&client, "calculator-deploy-disaggregated.png").await?;
    client
        .find(fantoccini::Locator::XPath("//button[text()='in-flight']"))
        .await?
        .click()
        .await?;
    let search = location_search(&client, |q| !q.contains("serve=")).await?;
    assert!(!search.contains("pw="), "{search}");
    let workers_shown = client
        .execute(
            "return document.getElementById('deploy-workers') !== null",
            vec![],
        )
        .await?;
    assert_eq!(workers_shown.as_bool(), Some(false));

    // NVIDIA's measured runs of Llama-3.1-70B on 4 H200s with vLLM in FP8 at 1,024 prompt
    // and 1,024 output tokens: fetched beside the page, one cross each on the serving chart
    // and one row each in the table beside the prediction for its clients.
    let query = "v=1&mode=deploy&hw=h200&act=fp8-e4m3&w=fp8-e4m3&kv=bf16&out=bf16&model=llama-3.1-70b&tp=4&pp=1&dp=1&ep=0&prompt=1024&gen=1024&conc=64&cal=1&fw=vllm";
    client.goto(&format!("{page}?{query}")).await?;
    client
        .wait()
        .for_element(fantoccini::Locator::Css(".measured-run"))
        .await?;
    let runs = rooflinr_model::deploy::serving::runs::read_runs(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../assets/measured-serving-runs.csv"
    )))?;
    let expected_runs = runs
        .iter()
        .filter(|r| {
            r.is_of("llama-3.1-70b", "h200", Framework::Vllm, Format::Fp8E4m3)
                && r.layout.gpus() == 4
                && r.layout.tensor == 4
                && (r.workload.prompt, r.workload.output) == (1024, 1024)
        })
        .count();
    let shown = client
        .execute(
            "return [document.querySelectorAll('.serving-chart .measured-run').length, document.querySelectorAll('table.measured-runs tbody tr').length, document.querySelector('.serving-chart .measured-run title').textContent]",
            vec![],
        )
        .await?;
    let (crosses, rows, title): (usize, usize, String) = serde_json::from_value(shown)?;
    assert!(expected_runs > 0);
    assert_eq!((crosses, rows), (expected_runs, expected_runs));
    assert!(
        title.contains("measured by NVIDIA") && title.contains("predicted"),
        "{title}"
    );
    screenshot(&client, "calculator-deploy-measured.png").await?;

    // Energy per output token: the H200's board power over the tokens/s per GPU shown.
    let energy = text_of(&client, "[data-figure=deploy-energy]").await?;
    let per_gpu: f64 = text_of(&client, "[data-figure=deploy-gpu]")
        .await?
        .parse()?;
    let joules: f64 = energy.trim_end_matches(" J").parse()?;
    assert!(
        (joules / (700.0 / per_gpu) - 1.0).abs() < 0.01,
        "{energy} at {per_gpu} tokens/s per GPU"
    );

    // A serving benchmark's own result file, imported: vLLM's run of Qwen3-32B on 8 H200s
    // (TP4 x DP2, 100 clients) beside the page's prediction for the same clients and
    // lengths, one row and one cross in the second colour.
    let query = "v=1&mode=deploy&hw=h200&act=bf16&w=bf16&kv=bf16&out=bf16&model=qwen3-32b&tp=4&pp=1&dp=2&ep=0&prompt=4096&gen=128&conc=100&cal=1&fw=vllm";
    client.goto(&format!("{page}?{query}")).await?;
    client
        .wait()
        .for_element(fantoccini::Locator::Css("#serving-import"))
        .await?;
    let bad = root().join("crates/rooflinr-report/testdata/serving-runs/README.md");
    client
        .find(fantoccini::Locator::Css("#serving-import"))
        .await?
        .send_keys(&bad.display().to_string())
        .await?;
    client
        .wait()
        .for_element(fantoccini::Locator::XPath(
            "//p[@id='serving-import-status'][contains(., 'was not imported')]",
        ))
        .await?;
    let status = text_of(&client, "#serving-import-status").await?;
    assert!(status.contains("vllm bench serve"), "{status}");
    let file = root().join(
        "crates/rooflinr-report/testdata/serving-runs/vllm-bench-serve_h200x8_qwen3-32b_tp4-dp2_c100.json",
    );
    client
        .find(fantoccini::Locator::Css("#serving-import"))
        .await?
        .send_keys(&file.display().to_string())
        .await?;
    client
        .wait()
        .for_element(fantoccini::Locator::Css(".serving-chart .imported-run"))
        .await?;
    let shown = client
        .execute(
            "return [document.querySelectorAll('table.imported-runs tbody tr').length, Array.from(document.querySelectorAll('table.imported-runs tbody td')).map(td => td.textContent)]",
            vec![],
        )
        .await?;
    let (rows, cells): (usize, Vec<String>) = serde_json::from_value(shown)?;
    assert_eq!(rows, 1);
    assert_eq!(cells[0], "100 clients");
    assert_eq!(cells[1], "4096 / 128");
    assert_eq!(cells[2], "2.54 s mean");
    assert!(
        cells[3].ends_with(" %)"),
        "a prediction with its error: {cells:?}"
    );
    // 2,138.4 output tokens/s over the page's 8 GPUs.
    assert_eq!(cells[6], "267.3");
    screenshot(&client, "calculator-deploy-imported.png").await?;

    // No agent is paired, so no energy is measured: the page says how it would be.
    let energy = text_of(&client, "#energy-window-status").await?;
    assert!(
        energy.starts_with("Pair an agent on the GPU host"),
        "{energy}"
    );

    // The launch command of the layout shown: the model crate's for vLLM's scheduler on
    // an H200, with a button that copies it.
    let command = text_of(&client, "#deploy-launch pre").await?;
    let model = presets::get("qwen3-32b")?;
    let h200 = registry::get("h200")?;
    let expected = rooflinr_model::deploy::launch::launch(
        rooflinr_model::kernel_time::Framework::Vllm,
        &rooflinr_model::deploy::launch::LaunchSpec {
            model: &model,
            layout: "tp4-dp2".parse()?,
            scheduler: rooflinr_model::deploy::Scheduler::default_for(
                rooflinr_model::kernel_time::Framework::Vllm,
                &h200,
            ),
            workload: rooflinr_model::deploy::Workload {
                prompt: 4096,
                output: 128,
                concurrency: 100,
            },
            weights: Format::Bf16,
            expert_weights: None,
            kv: Format::Bf16,
            speculation: None,
        },
    )?;
    assert_eq!(command.trim_end(), expected.shell().trim_end());
    assert!(
        command.starts_with("vllm serve Qwen/Qwen3-32B"),
        "{command}"
    );
    let release = text_of(&client, "#deploy-launch-release").await?;
    assert!(release.contains("vLLM 0.19.0"), "{release}");
    client
        .find(fantoccini::Locator::Css(
            "#deploy-launch button.copy-launch",
        ))
        .await?
        .click()
        .await?;
    client
        .wait()
        .for_element(fantoccini::Locator::XPath(
            "//div[@id='deploy-launch']//button[.='Copied']",
        ))
        .await?;

    // The layout search: DeepSeek-V3 on up to 72 H200s at 20 tokens/s per user or more,
    // run from the page; its winner is the model crate's, and the time it took is printed.
    let query = "v=1&mode=deploy&hw=h200&act=bf16&w=fp8-e4m3&kv=bf16&out=bf16&model=deepseek-v3&tp=1&pp=1&dp=8&ep=1&prompt=2048&gen=512&conc=64&ovl=0&sg=72&sf=20";
    client.goto(&format!("{page}?{query}")).await?;
    text_of(&client, "[data-figure=deploy-tpot]").await?;
    client
        .find(fantoccini::Locator::Css("#search-run"))
        .await?
        .click()
        .await?;
    text_of(&client, "#search-timing").await?;
    let ms = client
        .execute(
            "return Number(document.getElementById('search-timing').dataset.ms)",
            vec![],
        )
        .await?;
    let first = text_of(&client, "#search-results tbody tr:first-child th").await?;
    let precision = Precision {
        weights: Format::Fp8E4m3,
        ..Precision::uniform(Format::Bf16)
    };
    let native = rooflinr_model::deploy::search(
        &presets::get("deepseek-v3")?,
        &registry::get("h200")?,
        &Scenario {
            phase: Phase::Decode,
            batch: 1,
            seq: 1,
            precision,
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
            experts: None,
        },
        &Efficiency::IDEAL,
        &rooflinr_model::deploy::SearchSpace {
            gpu_counts: Vec::new(),
            max_gpus: 72,
            precisions: vec![precision],
            prompt: 2048,
            output: 512,
            min_tokens_per_user: 20.0,
            max_ttft: None,
        },
        &rooflinr_model::deploy::DeployOptions::in_flight(
            rooflinr_model::kernel_time::Framework::default(),
            &registry::get("h200")?,
        ),
    )?;
    assert_eq!(first, native.candidates[0].layout.to_string());
    println!(
        "deployment search, DeepSeek-V3 on 1-72 H200s ({} deployments): {:.0} ms in the browser",
        native.evaluated,
        ms.as_f64().unwrap_or(f64::NAN)
    );
    screenshot(&client, "calculator-deploy-search.png").await?;

    // A layout the model cannot take names the field.
    client
        .goto(&format!(
            "{page}?v=1&mode=deploy&hw=h100-sxm&model=llama-3-8b&tp=3"
        ))
        .await?;
    let problem = text_of(&client, "#problem").await?;
    assert!(
        problem.contains("TP") && problem.contains("32 query heads"),
        "{problem}"
    );

    // A link with a broken config names the problem instead of going blank.
    let query =
        "v=1&mode=model&hw=h100-sxm&model=custom&config=%7B%22model_type%22%3A%22llama%22%7D";
    client.goto(&format!("{page}?{query}")).await?;
    let problem = text_of(&client, "#problem").await?;
    assert!(problem.contains("missing field"), "{problem}");
    assert!(
        client
            .find(fantoccini::Locator::Css("#roofline-chart"))
            .await
            .is_ok(),
        "the chart frame stays"
    );

    client.close().await.context("closing the browser")?;
    Ok(())
}

/// Pairs with a loopback port just freed (nothing listens there) and returns the pairing
/// card's text once it contains `expected`, or after 10 s.
async fn pair_with_nothing(client: &fantoccini::Client, expected: &str) -> Result<String> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let address = client
        .find(fantoccini::Locator::Css("#agent-address"))
        .await?;
    address.clear().await?;
    address
        .send_keys(&format!("http://127.0.0.1:{port}"))
        .await?;
    client
        .find(fantoccini::Locator::Css(".pair-form button[type=submit]"))
        .await?
        .click()
        .await?;
    let mut card = String::new();
    for _ in 0..100 {
        card = text_of(client, ".card.pair").await?;
        if card.contains(expected) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Ok(card)
}

/// The WebAssembly files the page has fetched so far, by file name.
async fn wasm_fetched(client: &fantoccini::Client) -> Result<Vec<String>> {
    let names = client
        .execute(
            "return performance.getEntriesByType('resource').map(e => new URL(e.name).pathname.split('/').pop()).filter(n => n.endsWith('.wasm'))",
            vec![],
        )
        .await?;
    Ok(names
        .as_array()
        .context("resource names are a list")?
        .iter()
        .filter_map(|n| n.as_str().map(str::to_string))
        .collect())
}

/// The release bundle is split: a page that shows a whole model fetches only the main
/// module; the lab's module arrives when the lab is first used (here, pairing with a port
/// where nothing listens, which the page then says), the exports' when a table is first
/// downloaded, deployment mode's when it is first opened. By then every module in the
/// bundle has been fetched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn split_modules_load_on_first_use() -> Result<()> {
    let dist = tokio::task::spawn_blocking(release_bundle).await??;
    let page = serve(&dist).await?;
    let driver = start_driver().await?;
    let client = open_browser(&driver, 1440, 1000).await?;
    client
        .goto(&format!(
            "{page}?v=1&mode=model&hw=h200&w=fp8-e4m3&model=deepseek-v3&tp=2&pp=1&dp=8&ep=1&conc=256"
        ))
        .await?;
    text_of(&client, "[data-figure=model-time]").await?;
    let at_start = wasm_fetched(&client).await?;
    assert_eq!(at_start, ["rooflinr-web_bg.wasm"], "fetched at start");

    let card = pair_with_nothing(&client, "nothing answers").await?;
    assert!(card.contains("nothing answers"), "pairing card: {card}");
    let after_pairing = wasm_fetched(&client).await?;
    assert!(
        after_pairing.iter().any(|m| m == "split_lab.wasm"),
        "the lab's module not fetched: {after_pairing:?}"
    );
    assert!(
        !after_pairing.iter().any(|m| m == "split_export.wasm"),
        "the exports' module fetched before any export: {after_pairing:?}"
    );

    client
        .find(fantoccini::Locator::XPath(
            "//div[@aria-label='export']/button[text()='CSV']",
        ))
        .await?
        .click()
        .await?;
    client
        .find(fantoccini::Locator::XPath("//button[text()='Many GPUs']"))
        .await?
        .click()
        .await?;
    text_of(&client, "[data-figure=deploy-tpot]").await?;
    client
        .find(fantoccini::Locator::Css("#search-run"))
        .await?
        .click()
        .await?;
    text_of(&client, "#search-results").await?;
    let mut fetched = Vec::new();
    for _ in 0..100 {
        fetched = wasm_fetched(&client).await?;
        if fetched.iter().any(|m| m == "split_export.wasm") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let mut modules: Vec<String> = std::fs::read_dir(code_dir(&dist)?)?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".wasm"))
        .collect();
    modules.sort();
    fetched.sort();
    fetched.dedup();
    assert_eq!(fetched, modules, "every module fetched once used");
    client.close().await?;
    Ok(())
}

/// Copies `from` into `to`, folders included.
fn copy_tree(from: &std::path::Path, to: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// A split module that cannot be fetched (here, missing from the server) is an error the
/// page shows where it was needed, and the page keeps working: the calculator still
/// answers when its inputs change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_module_that_cannot_be_fetched_is_named_and_the_page_survives() -> Result<()> {
    let dist = tokio::task::spawn_blocking(release_bundle).await??;
    let copy = tempfile::tempdir()?;
    copy_tree(&dist, copy.path())?;
    let lab_module = code_dir(copy.path())?.join("split_lab.wasm");
    std::fs::remove_file(&lab_module)
        .with_context(|| format!("the bundle has no {}", lab_module.display()))?;
    let page = serve(copy.path()).await?;
    let driver = start_driver().await?;
    let client = open_browser(&driver, 1440, 1000).await?;
    client
        .goto(&format!(
            "{page}?v=1&mode=model&hw=h100-sxm&model=llama-3-8b&phase=decode&batch=1&seq=1024"
        ))
        .await?;
    let before = text_of(&client, "[data-figure=model-time]").await?;

    let card = pair_with_nothing(&client, "could not be loaded").await?;
    assert!(card.contains("could not be loaded"), "pairing card: {card}");

    // The same page still calculates: the first slider (batch) at its end changes the time.
    client
        .execute(
            "const r = document.querySelector('input[type=range]'); r.value = r.max; r.dispatchEvent(new Event('input', { bubbles: true }));",
            vec![],
        )
        .await?;
    let mut after = before.clone();
    for _ in 0..50 {
        after = text_of(&client, "[data-figure=model-time]").await?;
        if after != before {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_ne!(before, after, "the decode time did not follow the slider");
    client.close().await?;
    Ok(())
}
