//! The README's picture of the calculator: the release bundle in headless Chromium, opened
//! from a shared link (DeepSeek-V3 decoding on a B200 with NVFP4 weights and an FP8 cache),
//! saved as `target/e2e/readme-calculator.png` once the chart holds every operator.
//! `cargo xtask screenshot` runs this test and copies the picture into the book's images,
//! where the README shows it.

use anyhow::{Result, ensure};
use rooflinr_model::analysis::{self, AttentionKernel, Phase, Scenario};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::registry;
use rooflinr_model::ops::Precision;
use rooflinr_model::presets;
use rooflinr_model::roofline::Efficiency;
use rooflinr_model::units::si;
use rooflinr_web_e2e::{open_browser, release_bundle, root, serve, start_driver, text_of};

/// The link the picture shows; the README's caption describes it.
pub const README_LINK: &str = "v=1&mode=model&hw=b200&act=fp16&w=nvfp4&kv=fp8-e4m3&out=fp16&model=deepseek-v3&phase=decode&batch=8&seq=8192&theme=light";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readme_picture_shows_a_whole_model_on_its_roofline() -> Result<()> {
    let dist = tokio::task::spawn_blocking(release_bundle).await??;
    let page = serve(&dist).await?;
    let driver = start_driver().await?;
    // A laptop's window: the controls, the figures and the chart on one screen.
    let client = open_browser(&driver, 1280, 860).await?;
    client.goto(&format!("{page}?{README_LINK}")).await?;

    // The page shows the model crate's own figure before the picture is taken.
    let shown = text_of(&client, "[data-figure=model-time]").await?;
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
    assert_eq!(shown, si(expected.time.get(), "s"));
    // Each decode operator with FLOPs is a point on the chart (an operator with none has
    // no place on a FLOP/s axis): the picture is of the analysis, not of an empty chart.
    let placed = expected
        .ops
        .iter()
        .filter(|op| op.result.cost.work.flops.get() > 0.0)
        .count() as u64;
    let points = client
        .execute(
            "return document.querySelectorAll('#roofline-chart path.point[data-phase=decode]').length",
            vec![],
        )
        .await?
        .as_u64();
    assert_eq!(points, Some(placed));

    let dir = root().join("target/e2e");
    std::fs::create_dir_all(&dir)?;
    let png = client.screenshot().await?;
    ensure!(png.starts_with(b"\x89PNG"), "the screenshot is not a PNG");
    let path = dir.join("readme-calculator.png");
    std::fs::write(&path, png)?;
    println!("screenshot: {}", path.display());
    client.close().await?;
    Ok(())
}
