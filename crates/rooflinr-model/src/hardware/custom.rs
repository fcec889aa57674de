//! Custom hardware from a TOML or JSON description (the prototype's `create_custom_asic`).
//!
//! ```toml
//! name = "MyASIC"
//! memory_bandwidth_gb_s = 500
//! memory_capacity_gb = 64        # optional
//! unified_memory = false         # optional
//! block_scaled_mma = false       # optional: runs MX / NVFP4 natively
//! source = "vendor brief, 2026"  # optional: shown beside every figure
//! [peak_tflops]                  # dense, by operation type
//! fp16 = 50.0
//! int8 = 100.0
//! ```
//!
//! Parsing is pure (text in, [`Hardware`] out); reading the file is the caller's job.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::ModelError;
use crate::format::Math;
use crate::units::{Bytes, BytesPerSecond, FlopsPerSecond};

use super::{Basis, DeviceClass, Figure, Hardware, Peak, Source, Vendor};

/// A custom device as its file (or a form) describes it; [`CustomSpec::build`] checks it
/// and makes the [`Hardware`].
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomSpec {
    /// Display name (required, not blank).
    pub name: String,
    /// Registry-style key; a slug of the name when absent.
    pub key: Option<String>,
    /// Memory bandwidth, GB/s.
    pub memory_bandwidth_gb_s: f64,
    /// Memory capacity, GB; unlimited when absent.
    pub memory_capacity_gb: Option<f64>,
    /// Memory technology (`HBM3e`).
    pub memory_type: Option<String>,
    /// CPU and GPU share the memory.
    #[serde(default)]
    pub unified_memory: bool,
    /// Runs MX and NVFP4 natively.
    #[serde(default)]
    pub block_scaled_mma: bool,
    /// Streaming multiprocessors.
    pub sm_count: Option<u32>,
    /// L2 cache, MB.
    pub l2_cache_mb: Option<f64>,
    /// Boost clock, MHz.
    pub boost_clock_mhz: Option<f64>,
    /// Board power, W.
    pub power_watts: Option<f64>,
    /// Architecture name.
    pub architecture: Option<String>,
    /// CUDA compute capability as in `sm_90` (write 90): which kernels the device runs.
    pub sm: Option<u32>,
    /// Where the figures come from, shown beside each.
    pub source: Option<String>,
    /// Dense peak by operation type name (`fp16`, `int8`), TFLOP/s.
    pub peak_tflops: BTreeMap<String, f64>,
}

/// Parses a custom device from TOML text.
pub fn from_toml(text: &str) -> Result<Hardware, ModelError> {
    let spec: CustomSpec = toml::from_str(text).map_err(|e| ModelError::Syntax {
        what: "hardware TOML",
        message: e.message().to_string(),
    })?;
    spec.build()
}

/// Parses a custom device from JSON text.
pub fn from_json(text: &str) -> Result<Hardware, ModelError> {
    let spec: CustomSpec = serde_json::from_str(text).map_err(|e| ModelError::Syntax {
        what: "hardware JSON",
        message: e.to_string(),
    })?;
    spec.build()
}

/// Parses TOML or JSON, deciding by the first non-blank character (`{` means JSON).
pub fn parse(text: &str) -> Result<Hardware, ModelError> {
    if text.trim_start().starts_with('{') {
        from_json(text)
    } else {
        from_toml(text)
    }
}

fn positive(field: &str, value: f64) -> Result<f64, ModelError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(ModelError::invalid(
            field,
            format!("must be a positive number, got {value}"),
        ))
    }
}

impl CustomSpec {
    /// Checks the figures (every number positive, every peak's type known) and makes the
    /// device, each figure sourced to `source` as the user's.
    pub fn build(self) -> Result<Hardware, ModelError> {
        build(self)
    }
}

fn build(spec: CustomSpec) -> Result<Hardware, ModelError> {
    if spec.name.trim().is_empty() {
        return Err(ModelError::invalid("name", "must not be empty"));
    }
    let text: Cow<'static, str> = Cow::Owned(
        spec.source
            .clone()
            .unwrap_or_else(|| format!("custom device `{}`", spec.name.trim())),
    );
    let source = || Source {
        basis: Basis::User,
        text: text.clone(),
    };
    fn user<T>(value: T, source: Source) -> Figure<T> {
        Figure::new(value, source)
    }
    let bandwidth = positive("memory_bandwidth_gb_s", spec.memory_bandwidth_gb_s)?;
    let capacity = match spec.memory_capacity_gb {
        Some(c) => positive("memory_capacity_gb", c)?,
        None => f64::INFINITY,
    };
    if spec.peak_tflops.is_empty() {
        return Err(ModelError::invalid(
            "peak_tflops",
            "give at least one rate, e.g. fp16 = 50.0",
        ));
    }
    let mut peaks = Vec::new();
    for (name, tflops) in &spec.peak_tflops {
        let field = format!("peak_tflops.{name}");
        let math = Math::from_name(&name.to_ascii_lowercase()).ok_or_else(|| {
            let known: Vec<&str> = Math::ALL.iter().map(|m| m.name()).collect();
            ModelError::invalid(
                &field,
                format!(
                    "unknown operation type; expected one of {}",
                    known.join(", ")
                ),
            )
        })?;
        let rate = positive(&field, *tflops)?;
        peaks.push(Peak {
            math,
            rate: user(FlopsPerSecond::tflops(rate), source()),
        });
    }
    crate::sort::sort_by_key(&mut peaks, |p| Math::ALL.iter().position(|m| *m == p.math));
    let optional = |field: &str, v: Option<f64>| v.map(|v| positive(field, v)).transpose();
    let key = spec.key.clone().unwrap_or_else(|| slug(&spec.name));
    Ok(Hardware {
        key,
        name: spec.name.trim().to_string(),
        aliases: Vec::new(),
        vendor: Vendor::Other,
        class: DeviceClass::Unspecified,
        architecture: super::architecture_label(
            spec.architecture.as_deref().unwrap_or("custom"),
            spec.sm,
        ),
        sm: spec.sm,
        memory_bandwidth: user(BytesPerSecond::gb_s(bandwidth), source()),
        memory_capacity: user(Bytes::gb(capacity), source()),
        memory_type: spec.memory_type.unwrap_or_else(|| "unspecified".into()),
        unified_memory: spec.unified_memory,
        second_memory: None,
        sm_count: spec.sm_count.map(|n| user(n, source())),
        l2_cache: optional("l2_cache_mb", spec.l2_cache_mb)?.map(|v| user(Bytes::mib(v), source())),
        boost_clock_mhz: optional("boost_clock_mhz", spec.boost_clock_mhz)?
            .map(|v| user(v, source())),
        power_watts: optional("power_watts", spec.power_watts)?.map(|v| user(v, source())),
        block_scaled_mma: spec.block_scaled_mma,
        peaks,
        interconnect: None,
    })
}

fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}
