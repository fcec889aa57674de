//! Arguments shared by several subcommands: device choice, formats, efficiency.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use rooflinr_model::analysis::Phase;
use rooflinr_model::format::Format;
use rooflinr_model::hardware::{Hardware, custom, registry};
use rooflinr_model::ops::Precision;
use rooflinr_model::roofline::Efficiency;

/// The values `--preset` takes: every preset of the model crate (and `deepseek-r1`, the
/// same architecture as `deepseek-v3`), listed in `--help` and suggested on a typo.
pub fn preset_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        rooflinr_model::presets::keys().chain(std::iter::once("deepseek-r1")),
    )
}

/// Which device to predict for.
#[derive(Args, Clone, Debug)]
pub struct HardwareArgs {
    /// Built-in device (`rooflinr hardware` lists them).
    #[arg(long, global = true, default_value = "h100-sxm")]
    pub hardware: String,
    /// A custom device described in TOML or JSON.
    #[arg(long, global = true, value_name = "FILE")]
    pub hardware_file: Option<PathBuf>,
    /// Achievable fraction of peak memory bandwidth (calibration).
    #[arg(long, global = true, default_value_t = 1.0, value_name = "FRACTION")]
    pub bandwidth_efficiency: f64,
    /// Achievable fraction of peak compute (calibration).
    #[arg(long, global = true, default_value_t = 1.0, value_name = "FRACTION")]
    pub compute_efficiency: f64,
}

impl HardwareArgs {
    /// Loads the chosen device (`--hardware-file` wins over `--hardware`).
    pub fn load(&self) -> Result<Hardware> {
        load_hardware(&self.hardware, self.hardware_file.as_deref())
    }

    /// The efficiency factors, validated.
    pub fn efficiency(&self) -> Result<Efficiency> {
        for (name, v) in [
            ("--bandwidth-efficiency", self.bandwidth_efficiency),
            ("--compute-efficiency", self.compute_efficiency),
        ] {
            if !(v > 0.0 && v <= 1.0) {
                bail!("{name} must be in (0, 1], got {v}");
            }
        }
        Ok(Efficiency {
            bandwidth: self.bandwidth_efficiency,
            compute: self.compute_efficiency,
            compute_by_math: Vec::new(),
        })
    }
}

/// Loads a registry device, or a custom one from a file when given.
pub fn load_hardware(key: &str, file: Option<&std::path::Path>) -> Result<Hardware> {
    match file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read hardware file {}", path.display()))?;
            custom::parse(&text).with_context(|| format!("in hardware file {}", path.display()))
        }
        None => Ok(registry::get(key)?),
    }
}

/// Operand formats. `--precision` sets all four at once (the prototype's single precision).
#[derive(Args, Clone, Debug)]
pub struct PrecisionArgs {
    /// Format of activations (GEMM A operands, queries, elementwise tensors).
    #[arg(long, global = true, value_name = "FORMAT")]
    pub activations: Option<Format>,
    /// Format of weights.
    #[arg(long, global = true, value_name = "FORMAT")]
    pub weights: Option<Format>,
    /// Format of the KV cache.
    #[arg(long, global = true, value_name = "FORMAT")]
    pub kv: Option<Format>,
    /// Format of outputs (defaults to the activations' format).
    #[arg(long, global = true, value_name = "FORMAT")]
    pub output: Option<Format>,
    /// One format for everything not given separately.
    #[arg(long, global = true, value_name = "FORMAT")]
    pub precision: Option<Format>,
}

impl PrecisionArgs {
    /// Resolves to a [`Precision`]; anything unset is FP16, outputs follow activations.
    pub fn resolve(&self) -> Precision {
        let base = self.precision.unwrap_or(Format::Fp16);
        let activations = self.activations.unwrap_or(base);
        Precision {
            activations,
            weights: self.weights.unwrap_or(base),
            kv: self.kv.unwrap_or(activations),
            output: self.output.or(self.precision).unwrap_or(activations),
        }
    }
}

/// Which pass of a model: phase, batch and sequence length.
#[derive(Args, Clone, Debug)]
pub struct PassArgs {
    /// Prefill (the whole prompt) or decode (one new token per sequence).
    #[arg(long, value_enum, default_value = "decode")]
    pub phase: PhaseArg,
    /// Sequences in the batch.
    #[arg(long, default_value_t = 1)]
    pub batch: u64,
    /// Prompt length (prefill) or context length held in the KV cache (decode).
    #[arg(long, default_value_t = 4096)]
    pub seq: u64,
}

/// `--phase` on the command line.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum PhaseArg {
    Prefill,
    Decode,
}

impl From<PhaseArg> for Phase {
    fn from(p: PhaseArg) -> Phase {
        match p {
            PhaseArg::Prefill => Phase::Prefill,
            PhaseArg::Decode => Phase::Decode,
        }
    }
}

/// A comma-separated list of positive sizes (`1,16,256`).
#[derive(Clone, Debug)]
pub struct Sizes(pub Vec<u64>);

impl std::str::FromStr for Sizes {
    type Err = String;
    fn from_str(s: &str) -> Result<Sizes, String> {
        parse_sizes(s).map(Sizes)
    }
}

fn parse_sizes(s: &str) -> Result<Vec<u64>, String> {
    s.split(',')
        .map(|p| {
            let p = p.trim();
            match p.parse::<u64>() {
                Ok(0) => Err("sizes must be at least 1".to_string()),
                Ok(n) if n > 1 << 32 => Err(format!("size {n} is larger than 2^32")),
                Ok(n) => Ok(n),
                Err(_) => Err(format!("`{p}` is not a whole number")),
            }
        })
        .collect()
}

/// `--framework`: whose kernels the calibrated times were fitted on (`trtllm`, `vllm`,
/// `sglang`).
pub fn parse_framework(s: &str) -> Result<rooflinr_model::kernel_time::Framework, String> {
    rooflinr_model::kernel_time::Framework::parse(s)
        .ok_or_else(|| format!("unknown framework {s:?}: trtllm, vllm or sglang"))
}

/// A layout on the command line: `tp8`, `tp1-dp8-ep`, `tp4,pp2` (the model's own syntax,
/// [`rooflinr_model::deploy::Layout`]'s `FromStr`).
pub fn parse_layout(s: &str) -> Result<rooflinr_model::deploy::Layout, String> {
    s.parse()
        .map_err(|e: rooflinr_model::ModelError| e.to_string())
}
