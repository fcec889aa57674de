//! Accessibility and narrow screens, end to end: axe-core's WCAG 2 A and AA rules run
//! inside the test's Chromium on the pages people share, in the light and dark themes; the
//! calculator at a phone's width (375 CSS px) scrolls only vertically, and a screenshot is
//! saved in `target/e2e/`.

use anyhow::{Context, Result, bail};
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use rooflinr_web_e2e::{
    axe_script, open_browser, open_phone, release_bundle, root, serve, start_driver, text_of,
};
use serde_json::Value;

/// The pages checked: the default, a whole-model link, and an operator link, each in both
/// themes, and a comparison of six devices.
const PAGES: [(&str, &str); 10] = [
    ("default, light", "v=1&theme=light"),
    ("default, dark", "v=1&theme=dark"),
    (
        "DeepSeek-V3 on B200, light",
        "v=1&mode=model&hw=b200&w=nvfp4&kv=fp8-e4m3&model=deepseek-v3&phase=decode&batch=8&seq=8192&theme=light",
    ),
    (
        "DeepSeek-V3 on B200, dark",
        "v=1&mode=model&hw=b200&w=nvfp4&kv=fp8-e4m3&model=deepseek-v3&phase=decode&batch=8&seq=8192&theme=dark",
    ),
    (
        "GB10 operator, light",
        "v=1&mode=op&hw=gb10&op=gemv&m=1&n=8192&k=8192&vary=weights&theme=light",
    ),
    (
        "GB10 operator, dark",
        "v=1&mode=op&hw=gb10&op=gemv&m=1&n=8192&k=8192&vary=weights&theme=dark",
    ),
    (
        "six devices side by side, dark",
        "v=1&mode=model&hw=h100-sxm&model=llama-3-70b&cmp=h200,b200,gb10,mi300x,rtx-5090&theme=dark",
    ),
    (
        "DeepSeek-V3 on 16 H200s, light",
        "v=1&mode=deploy&hw=h200&w=fp8-e4m3&model=deepseek-v3&tp=2&pp=1&dp=8&ep=1&conc=256&theme=light",
    ),
    (
        "DeepSeek-V3 on 16 H200s, dark",
        "v=1&mode=deploy&hw=h200&w=fp8-e4m3&model=deepseek-v3&tp=2&pp=1&dp=8&ep=1&conc=256&theme=dark",
    ),
    (
        "DeepSeek-V3 disaggregated on 24 H200s, dark",
        "v=1&mode=deploy&hw=h200&w=fp8-e4m3&model=deepseek-v3&tp=8&pp=1&dp=1&ep=1&conc=256&serve=disagg&pw=2&dw=1&theme=dark",
    ),
];

/// Runs axe-core on the current page; returns one line per violation with the nodes it
/// names, and the number of nodes in all.
async fn violations(client: &fantoccini::Client, axe: &str) -> Result<(Vec<String>, u64)> {
    client
        .execute(axe, vec![])
        .await
        .context("injecting axe-core")?;
    let result = client
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
              .then(r => done(r.violations.map(v => ({
                  id: v.id,
                  impact: v.impact,
                  help: v.help,
                  count: v.nodes.length,
                  nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\n').slice(1, 2).join(''))
              }))))
              .catch(e => done({ error: String(e) }));"#,
            vec![],
        )
        .await
        .context("running axe-core")?;
    if let Some(error) = result.get("error") {
        bail!("axe-core failed: {error}");
    }
    let list = result.as_array().cloned().unwrap_or_default();
    let total = list.iter().map(|v| v["count"].as_u64().unwrap_or(0)).sum();
    let lines = list
        .iter()
        .map(|v: &Value| {
            format!(
                "{} ({}, {} nodes): {} [{}]",
                v["id"].as_str().unwrap_or("?"),
                v["impact"].as_str().unwrap_or("?"),
                v["count"],
                v["help"].as_str().unwrap_or(""),
                v["nodes"]
                    .as_array()
                    .map(|n| n
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" | "))
                    .unwrap_or_default()
            )
        })
        .collect();
    Ok((lines, total))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_pages_pass_wcag_a_and_aa_in_both_themes_and_fit_a_phone() -> Result<()> {
    let axe = axe_script()?;
    let dist = tokio::task::spawn_blocking(release_bundle).await??;
    let page = serve(&dist).await?;
    let driver = start_driver().await?;

    let client = open_browser(&driver, 1280, 1600).await?;
    let mut report = Vec::new();
    for (name, query) in PAGES {
        client.goto(&format!("{page}?{query}")).await?;
        // The analysis has rendered once its figures are there.
        let figure = if query.contains("mode=op") {
            "[data-figure=op-time]"
        } else if query.contains("mode=deploy") {
            "[data-figure=deploy-tpot]"
        } else {
            "[data-figure=model-time]"
        };
        text_of(&client, figure).await?;
        let (lines, nodes) = violations(&client, &axe).await?;
        println!("axe-core, {name}: {nodes} violating nodes");
        for line in &lines {
            println!("    {line}");
            report.push(format!("{name}: {line}"));
        }
    }

    // Every legend swatch shows its series' own colour (a status-dot rule once painted the
    // format dots grey).
    let wrong = client
        .execute(
            r#"const probe = document.createElement('span');
            document.body.appendChild(probe);
            const bad = [...document.querySelectorAll('.legend-item .swatch')].filter(s => {
                probe.style.color = s.style.getPropertyValue('--c');
                const shown = s.tagName.toLowerCase() === 'svg'
                    ? getComputedStyle(s.querySelector('path')).fill
                    : getComputedStyle(s).backgroundColor;
                return shown !== getComputedStyle(probe).color;
            }).map(s => s.parentElement.textContent.trim());
            probe.remove();
            return bad;"#,
            vec![],
        )
        .await?;
    assert_eq!(
        wrong,
        serde_json::json!([]),
        "legend swatches not in their series' colour"
    );

    // The keyboard alone reaches every kind of control, and each stop shows where it is.
    client.goto(&format!("{page}?{}", PAGES[0].1)).await?;
    text_of(&client, "[data-figure=model-time]").await?;
    let mut reached = std::collections::BTreeSet::new();
    for _ in 0..250 {
        // Tab through the key-action API (typing into a focused file input would be
        // read as a path).
        let tab = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: '\u{E004}' })
            .then(KeyAction::Up { value: '\u{E004}' });
        client.perform_actions(tab).await?;
        let stop = client
            .execute(
                r#"const e = document.activeElement;
                if (!e || e === document.body) return '';
                const kinds = ['#hardware-filter', '#hardware-select', '#model-select', '.segmented button',
                    'input[type=range]', '.exports button', '.legend-item', '#roofline-chart .point'];
                const kind = kinds.find(k => e.matches(k)) || '';
                const style = getComputedStyle(e);
                const marked = style.outlineStyle !== 'none' || e.matches('#roofline-chart .point');
                return kind ? kind + (marked ? '' : ' (no focus mark)') : '';"#,
                vec![],
            )
            .await?;
        if let Some(kind) = stop.as_str().filter(|k| !k.is_empty()) {
            reached.insert(kind.to_string());
        }
    }
    println!("keyboard reaches: {reached:?}");
    for kind in [
        "#hardware-filter",
        "#hardware-select",
        "#model-select",
        ".segmented button",
        "input[type=range]",
        ".exports button",
        ".legend-item",
        "#roofline-chart .point",
    ] {
        assert!(
            reached.contains(kind),
            "Tab never reaches {kind} with a visible focus mark: {reached:?}"
        );
    }

    client.close().await?;
    assert!(
        report.is_empty(),
        "WCAG 2 A/AA violations:\n{}",
        report.join("\n")
    );

    // A phone: 375 CSS px wide, six devices side by side. Nothing scrolls sideways, both
    // charts' text keeps a readable size, and the page is saved for a look.
    let phone = open_phone(&driver, 375, 2400).await?;
    phone.goto(&format!("{page}?{}", PAGES[6].1)).await?;
    text_of(&phone, "#comparison").await?;
    let overflow = phone
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth",
            vec![],
        )
        .await?;
    assert_eq!(
        overflow.as_i64(),
        Some(0),
        "the page scrolls sideways at 375 px"
    );
    // The smallest chart label, as drawn on screen, in CSS px.
    let smallest = phone
        .execute(
            r#"let least = Infinity;
            for (const svg of document.querySelectorAll('svg#roofline-chart, svg.comparison-chart')) {
                const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                for (const t of svg.querySelectorAll('text')) {
                    least = Math.min(least, parseFloat(t.getAttribute('font-size') || '12') * scale);
                }
            }
            return least;"#,
            vec![],
        )
        .await?;
    let smallest = smallest.as_f64().unwrap_or(0.0);
    let width = phone.execute("return window.innerWidth", vec![]).await?;
    assert_eq!(width.as_i64(), Some(375), "the phone emulation took");
    let dir = root().join("target/e2e");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("calculator-375.png"), phone.screenshot().await?)?;
    println!("screenshot: {}", dir.join("calculator-375.png").display());
    assert!(
        smallest >= 10.0,
        "chart text is drawn at {smallest:.1} CSS px at 375 px wide"
    );
    phone.close().await?;
    Ok(())
}
