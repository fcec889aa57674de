//! `rooflinr formats`: the catalogue with exact storage bits.

use anyhow::Result;
use rooflinr_model::format::{Encoding, Format};
use serde::Serialize;

use crate::table;

/// Arguments of `rooflinr formats`.
#[derive(clap::Args)]
pub struct Args {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct FormatJson {
    name: String,
    description: String,
    element_bits: u32,
    bits_per_element: f64,
    bytes_per_element: f64,
    encoding: String,
    block_size: Option<u32>,
    block_scale_bits: Option<u32>,
    tensor_scale_bits: u32,
    computes_as: &'static str,
    block_scaled: bool,
}

fn encoding(f: Format) -> String {
    match f.encoding() {
        Encoding::Float { exponent, mantissa } => format!("E{exponent}M{mantissa}"),
        Encoding::Int => "int".into(),
        Encoding::Table => "lookup".into(),
    }
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let rows: Vec<FormatJson> = Format::CATALOGUE
        .iter()
        .map(|&f| {
            let block = f.blocks().next();
            FormatJson {
                name: f.name(),
                description: f.description(),
                element_bits: f.element_bits(),
                bits_per_element: f.bits_per_element(),
                bytes_per_element: f.bits_per_element() / 8.0,
                encoding: encoding(f),
                block_size: block.map(|b| b.size),
                block_scale_bits: block.map(|b| b.bits),
                tensor_scale_bits: f.tensor_scale_bits(),
                computes_as: f.math().name(),
                block_scaled: f.is_block_scaled(),
            }
        })
        .collect();
    if args.json {
        return super::print_json(&rows);
    }
    let mut t = table::new(
        &[
            "format",
            "encoding",
            "bits/elem",
            "bytes/elem",
            "block",
            "computes as",
            "layout",
        ],
        2,
    );
    for r in &rows {
        let block = match (r.block_size, r.block_scale_bits) {
            (Some(size), Some(bits)) => format!("{bits} b / {size}"),
            _ => "-".into(),
        };
        t.add_row(vec![
            r.name.clone(),
            r.encoding.clone(),
            format!("{:.4}", r.bits_per_element),
            format!("{:.4}", r.bytes_per_element),
            block,
            r.computes_as.to_string(),
            r.description.clone(),
        ]);
    }
    table::print(&t);
    println!(
        "Grouped integers take any group size and scale: int{{bits}}-g{{group}}[-{{scale}}][-zp[-{{type}}]], e.g. int4-g128-fp16-zp."
    );
    println!(
        "Per-tensor FP32 scales (fp8, int8, int4, int2, nvfp4; nf4-dq's absmax mean) are amortised over each tensor and not shown in bits/elem."
    );
    Ok(())
}
