//! `rooflinr`: roofline predictions for transformer operators and whole models, in the
//! terminal. Tables by default, stable JSON with `--json`.

mod args;
mod commands;
mod table;

use clap::{Parser, Subcommand};

/// How fast should this transformer run on this chip, in which number format?
#[derive(Parser)]
#[command(name = "rooflinr", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The number formats: storage bits per element including block scales.
    Formats(commands::formats::Args),
    /// The hardware registry, or one device with the source of every figure.
    Hardware(commands::hardware::Args),
    /// Predict one operator on one device.
    Predict(commands::predict::Args),
    /// Analyse a whole model (prefill or one decode step) from a preset or config.json.
    Model(commands::model::Args),
    /// A model over many GPUs: per-GPU memory, communication, serving figures; or a
    /// search over parallel layouts and formats.
    Deploy(Box<commands::deploy::Args>),
    /// Predict a grid of GEMM shapes x formats.
    Sweep(commands::sweep::Args),
    /// Round values through a format, or measure every format's error on a tensor.
    Quantize(commands::quantize::Args),
    /// Rank quantisation strategies by predicted speed-up, memory and measured quality.
    Recommend(commands::recommend::Args),
    /// Tile a GEMM on a device: waves, occupancy, L2 reuse, refined time.
    Tiling(commands::tiling::Args),
    /// A Markdown report with the roofline chart (SVG, PNG) from measured kernels.
    Report(commands::report::Args),
    /// Hold predictions against NVIDIA's measured kernel tables (parquet), or with
    /// `--serving` against its measured serving sample.
    Validate(commands::validate::Args),
    /// The reference of every command and option as Markdown (the book's CLI chapter,
    /// written by `cargo xtask docs --bless`).
    #[command(hide = true)]
    MarkdownHelp,
}

/// A reader that stops early (`rooflinr ... | head`) closes the pipe: the output ends there,
/// which is not a crash. Printing to a closed pipe panics in Rust's `println!`; this ends
/// the process quietly instead, and leaves every other panic to the default report.
fn quiet_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        report(info);
    }));
}

/// Every command's help as Markdown, from the same definitions `--help` prints, so the
/// book's reference cannot drift from the binary.
fn markdown_help() -> String {
    let options = clap_markdown::MarkdownOptions::new()
        .title("Command-line reference".to_string())
        .show_footer(false)
        .show_table_of_contents(true);
    clap_markdown::help_markdown_custom::<Cli>(&options)
}

fn main() -> std::process::ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Formats(a) => commands::formats::run(a),
        Command::Hardware(a) => commands::hardware::run(a),
        Command::Predict(a) => commands::predict::run(a),
        Command::Model(a) => commands::model::run(a),
        Command::Deploy(a) => commands::deploy::run(*a),
        Command::Sweep(a) => commands::sweep::run(a),
        Command::Quantize(a) => commands::quantize::run(a),
        Command::Recommend(a) => commands::recommend::run(a),
        Command::Tiling(a) => commands::tiling::run(a),
        Command::Report(a) => commands::report::run(a),
        Command::Validate(a) => commands::validate::run(a),
        Command::MarkdownHelp => {
            print!("{}", markdown_help());
            Ok(())
        }
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}
