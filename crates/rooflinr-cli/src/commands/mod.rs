//! One module per subcommand.

pub mod collectives;
pub mod deploy;
pub mod deploy_disagg;
mod deploy_emit;
mod deploy_measured;
pub mod deploy_print;
pub mod formats;
pub mod hardware;
pub mod model;
pub mod predict;
pub mod quantize;
pub mod recommend;
pub mod report;
pub mod serving_fit;
mod serving_recipes;
pub mod serving_sample;
pub mod serving_validate;
pub mod sweep;
mod table_files;
pub mod tiling;
pub mod validate;

/// Prints `value` as pretty JSON.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}
