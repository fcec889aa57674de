//! `rooflinr report --input FILE`: a Markdown report in the shape of the prototype's report, with the
//! roofline chart as SVG and PNG, from a kernel CSV, an Nsight Compute CSV export, the
//! calculator's JSON export or the agent's JSONL results.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use rooflinr_report::import;
use rooflinr_report::report::{self, ReportInput, svg};
use rooflinr_report::{KernelPoint, MeasuredCeilings};

use crate::args::load_hardware;

/// Arguments of `rooflinr report`.
#[derive(clap::Args)]
pub struct Args {
    /// Kernel measurements: CSV (kernel, op, flops, bytes, time_us, phase), Nsight Compute
    /// CSV, the calculator's JSON export, or the agent's JSONL results.
    #[arg(long, value_name = "FILE")]
    input: PathBuf,
    /// The device whose datasheet the predictions use (default: the one the file names).
    #[arg(long)]
    hardware: Option<String>,
    /// A custom device described in TOML or JSON.
    #[arg(long, value_name = "FILE")]
    hardware_file: Option<PathBuf>,
    /// Where to write: STEM.md, STEM.svg and STEM.png (default: beside the input, named
    /// after it with `-report`).
    #[arg(long, value_name = "STEM")]
    output: Option<PathBuf>,
    /// The report's title (default: the input's file name).
    #[arg(long)]
    title: Option<String>,
}

/// Writes the report and prints where.
pub fn run(args: Args) -> Result<()> {
    let text = std::fs::read_to_string(&args.input)
        .with_context(|| format!("cannot read {}", args.input.display()))?;
    let imported = import::import(&text).with_context(|| format!("in {}", args.input.display()))?;
    let key = match (&args.hardware, &imported.hardware) {
        (Some(k), _) => k.clone(),
        (None, Some(k)) => k.clone(),
        (None, None) if args.hardware_file.is_some() => String::new(),
        (None, None) => {
            // The import's own word on the device (named but not listed, or not named).
            let said = imported
                .notes
                .iter()
                .find(|n| n.contains("--hardware"))
                .map(|n| format!(" ({n})"))
                .unwrap_or_default();
            bail!(
                "{} gives no device the registry lists{said}: pass --hardware KEY (`rooflinr hardware` lists them) or --hardware-file FILE",
                args.input.display()
            )
        }
    };
    let hw = load_hardware(&key, args.hardware_file.as_deref())?;
    let kernels: Vec<KernelPoint> = imported.all_kernels();
    if kernels.is_empty() {
        bail!(
            "{} holds measured ceilings but no kernels to place",
            args.input.display()
        );
    }
    let ceilings = MeasuredCeilings::from_measurements(&imported.measurements);
    let stem = args
        .output
        .clone()
        .unwrap_or_else(|| default_stem(&args.input));
    let name = |ext: &str| stem.with_extension(ext);
    let file_name = args
        .input
        .file_name()
        .map_or_else(|| "kernels".into(), |n| n.to_string_lossy().into_owned());
    let title = args.title.clone().unwrap_or_else(|| file_name.clone());
    let chart_path = name("svg");
    let chart_name = chart_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    let generated = format!(
        "{} UTC by rooflinr {} from `{file_name}` ({}, {} kernels)",
        utc_now(),
        env!("CARGO_PKG_VERSION"),
        imported.kind.name(),
        kernels.len()
    );
    let md = report::markdown(&ReportInput {
        title: &title,
        hardware: &hw,
        kernels: &kernels,
        ceilings: &ceilings,
        generated: &generated,
        chart_file: chart_name.as_deref(),
        notes: &imported.notes,
    });
    let chart = svg::chart(&hw, &kernels, &ceilings, &format!("{title} on {}", hw.name));
    write(&name("md"), md.as_bytes())?;
    write(&chart_path, chart.as_bytes())?;
    write(&name("png"), &png(&chart)?)?;
    for ext in ["md", "svg", "png"] {
        println!("wrote {}", name(ext).display());
    }
    for note in &imported.notes {
        println!("note: {note}");
    }
    Ok(())
}

fn default_stem(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map_or_else(|| "rooflinr".into(), |s| s.to_string_lossy().into_owned());
    input.with_file_name(format!("{stem}-report"))
}

/// Writes a file, creating its folder first (`--output reports/gemv` into a new folder).
fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Rasterises the chart at twice its size with the system's fonts (text is left out where
/// the machine has none; the SVG keeps it).
fn png(chart: &str) -> Result<Vec<u8>> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(chart, &options).context("cannot read the chart SVG")?;
    let scale = 2.0;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .context("chart size")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).context("chart size")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().context("cannot encode the PNG")
}

/// `YYYY-MM-DD HH:MM` in UTC (civil-from-days, proleptic Gregorian).
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use resvg::usvg;
    use rooflinr_model::hardware::registry;

    use super::*;

    /// Every text node of a rendered tree: its text and the box its glyphs cover.
    fn texts(group: &usvg::Group, out: &mut Vec<(String, usvg::Rect)>) {
        for node in group.children() {
            match node {
                usvg::Node::Group(g) => texts(g, out),
                usvg::Node::Text(t) => {
                    let text: String = t.chunks().iter().map(|c| c.text()).collect();
                    out.push((text, t.flattened().abs_bounding_box()));
                }
                _ => {}
            }
        }
    }

    #[test]
    fn the_h200_png_draws_each_roof_label_inside_the_box_its_layout_kept_clear() {
        // The run the report is read on (docs/gpu-runs/h200-2026-11-27), rendered as
        // `rooflinr report` renders it; then the boxes the renderer's own text layout gives
        // the labels, with this machine's fonts, against the boxes the chart's layout
        // reserved (which no line crosses and no other label overlaps).
        let run = include_str!("../../../../docs/gpu-runs/h200-2026-11-27/gpu-check.jsonl");
        let imported = import::import(run).expect("the agent's JSONL");
        let ceilings = MeasuredCeilings::from_measurements(&imported.measurements);
        let hw = registry::get("h200").unwrap();
        let chart = svg::layout(&hw, &imported.all_kernels(), &ceilings);
        let markup = svg::render(&chart, "gpu-check.jsonl on NVIDIA H200 SXM");
        let png = png(&markup).expect("a PNG");
        assert_eq!(&png[1..4], b"PNG");
        let mut options = usvg::Options::default();
        options.fontdb_mut().load_system_fonts();
        if options.fontdb.is_empty() {
            eprintln!("this machine has no fonts: the PNG draws no text, so no label to check");
            return;
        }
        let tree = usvg::Tree::from_str(&markup, &options).expect("the chart's SVG");
        let mut drawn = Vec::new();
        texts(tree.root(), &mut drawn);
        let labels = chart
            .labels
            .roofs
            .iter()
            .map(|l| (&l.text, &l.placed))
            .chain(chart.labels.slopes.iter().map(|l| (&l.text, &l.placed)));
        let mut checked = 0;
        for (text, placed) in labels {
            let (_, ink) = drawn
                .iter()
                .find(|(t, _)| t == text)
                .unwrap_or_else(|| panic!("{text} is not drawn"));
            let r = placed.rect;
            let inside = f64::from(ink.left()) >= r.x0 - 0.5
                && f64::from(ink.right()) <= r.x1 + 0.5
                && f64::from(ink.top()) >= r.y0 - 0.5
                && f64::from(ink.bottom()) <= r.y1 + 0.5;
            assert!(inside, "{text}: drawn over {ink:?}, kept clear {r:?}");
            checked += 1;
        }
        assert!(checked >= 5, "the roofs' and slopes' labels: {checked}");
    }
}
