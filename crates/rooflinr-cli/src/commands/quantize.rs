//! `rooflinr quantize`: round values through a format, or measure every format's error on
//! a real or synthetic tensor.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use rooflinr_model::quant::quality::{self, FormatQuality};
use rooflinr_model::quant::{Codec, Synthetic};
use serde::Serialize;

use crate::table;

/// Arguments of `rooflinr quantize`.
#[derive(clap::Args)]
pub struct Args {
    /// Values to round, comma-separated (treated as one tensor by block formats).
    #[arg(
        long,
        value_delimiter = ',',
        allow_hyphen_values = true,
        requires = "format"
    )]
    values: Option<Vec<f32>>,
    /// Format for `--values`: a scalar (`fp8-e4m3`, `fp8-e5m2`, `fp6-e3m2`, `fp6-e2m3`,
    /// `fp4-e2m1`, `bf16`, `fp16`; a plain cast) or a catalogue format (`nvfp4`,
    /// `mxfp4`, `int4-g128`, ...).
    #[arg(long)]
    format: Option<String>,
    /// A `.safetensors` file whose tensor `--tensor` is measured in every format.
    #[arg(long, requires = "tensor", conflicts_with_all = ["values", "synthetic"])]
    safetensors: Option<PathBuf>,
    /// Tensor name in the `--safetensors` file.
    #[arg(long)]
    tensor: Option<String>,
    /// Measure a synthetic tensor: gaussian, heavy-tailed or outlier-channels.
    #[arg(long, conflicts_with = "values")]
    synthetic: Option<Synthetic>,
    /// Rows of the synthetic tensor.
    #[arg(long, default_value_t = 256)]
    rows: usize,
    /// Columns of the synthetic tensor (blocks and groups run along them).
    #[arg(long, default_value_t = 4096)]
    cols: usize,
    /// Seed of the synthetic tensor.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Formats to measure, comma-separated (default: the catalogue and common variants).
    #[arg(long, value_delimiter = ',')]
    formats: Option<Vec<String>>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Dequantized {
    format: String,
    dequantized: Vec<f32>,
}

#[derive(Serialize)]
struct Survey {
    tensor: String,
    shape: Vec<usize>,
    formats: Vec<QualityJson>,
}

#[derive(Serialize)]
struct QualityJson {
    format: String,
    bits_per_element: f64,
    mse: f64,
    /// `null` when the round trip is exact.
    sqnr_db: Option<f64>,
    cosine: f64,
    max_abs_error: f64,
}

impl From<&FormatQuality> for QualityJson {
    fn from(q: &FormatQuality) -> Self {
        QualityJson {
            format: q.codec.name(),
            bits_per_element: q.bits_per_element,
            mse: q.error.mse,
            sqnr_db: q.error.sqnr_db.is_finite().then_some(q.error.sqnr_db),
            cosine: q.error.cosine,
            max_abs_error: q.error.max_abs,
        }
    }
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    if let Some(values) = &args.values {
        let name = args.format.as_deref().unwrap_or_default();
        let codec: Codec = name.parse()?;
        let dequantized = codec
            .round_trip(values, values.len().max(1))
            .with_context(|| format!("quantising to {name}"))?;
        let out = Dequantized {
            format: codec.name(),
            dequantized,
        };
        if args.json {
            return super::print_json(&out);
        }
        let mut t = table::new(&["value", &out.format], 0);
        for (v, q) in values.iter().zip(&out.dequantized) {
            t.add_row(vec![format!("{v}"), format!("{q}")]);
        }
        table::print(&t);
        return Ok(());
    }
    let (name, shape, values) = if let Some(path) = &args.safetensors {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let tensor_name = args.tensor.as_deref().unwrap_or_default();
        let t = quality::read_safetensors(&bytes, tensor_name)
            .with_context(|| format!("reading {}", path.display()))?;
        (t.name.clone(), t.shape.clone(), t.values)
    } else if let Some(dist) = args.synthetic {
        if args.rows == 0 || args.cols == 0 || args.rows.saturating_mul(args.cols) > 1 << 28 {
            bail!("--rows x --cols must be between 1 and 2^28 values");
        }
        let label = format!("{} (seed {})", dist.name(), args.seed);
        (
            label,
            vec![args.rows, args.cols],
            dist.generate(args.rows, args.cols, args.seed),
        )
    } else {
        bail!("give --values with --format, --safetensors with --tensor, or --synthetic");
    };
    let codecs = match &args.formats {
        Some(names) => names
            .iter()
            .map(|n| n.parse())
            .collect::<Result<Vec<Codec>, _>>()?,
        None => quality::default_codecs(),
    };
    let cols = shape.last().copied().unwrap_or(1).max(1);
    let measured = quality::survey(&values, cols, &codecs)?;
    let survey = Survey {
        tensor: name,
        shape,
        formats: measured.iter().map(QualityJson::from).collect(),
    };
    if args.json {
        return super::print_json(&survey);
    }
    println!(
        "Measured quantisation error of {} {:?} ({} values)\n",
        survey.tensor,
        survey.shape,
        values.len()
    );
    let mut t = table::new(
        &[
            "format",
            "bits/elem",
            "SQNR dB",
            "MSE",
            "cosine",
            "max error",
        ],
        1,
    );
    for q in &survey.formats {
        t.add_row(vec![
            q.format.clone(),
            format!("{:.3}", q.bits_per_element),
            q.sqnr_db.map_or("exact".into(), |db| format!("{db:.2}")),
            format!("{:.3e}", q.mse),
            format!("{:.6}", q.cosine),
            format!("{:.3e}", q.max_abs_error),
        ]);
    }
    table::print(&t);
    Ok(())
}
