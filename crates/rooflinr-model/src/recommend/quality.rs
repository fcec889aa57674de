//! Measured quality: the SQNR of each tensor a strategy stores in a low format, each
//! measured once on its sample.

use crate::format::Format;
use crate::ops::Precision;
use crate::quant::Codec;
use crate::quant::quality::ErrorStats;

use super::{QualitySamples, StrategyFormats};

/// The tensors a strategy stores in a low format, each judged on its own sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorRole {
    /// Linear layers' weights.
    Weights,
    /// Linear layers' inputs (scaled per token).
    Activations,
    /// The KV cache.
    Kv,
}

impl TensorRole {
    /// `weights`, `activations`, `kv`.
    pub fn name(self) -> &'static str {
        match self {
            TensorRole::Weights => "weights",
            TensorRole::Activations => "activations",
            TensorRole::Kv => "kv",
        }
    }
}

/// Measured SQNR per (role, format), each measured once.
pub(super) struct QualityCache<'a> {
    samples: &'a QualitySamples,
    measured: Vec<(TensorRole, Format, f64)>,
}

impl<'a> QualityCache<'a> {
    pub(super) fn new(samples: &'a QualitySamples) -> Self {
        QualityCache {
            samples,
            measured: Vec::new(),
        }
    }

    fn sqnr(&mut self, role: TensorRole, format: Format) -> f64 {
        if let Some((_, _, db)) = self
            .measured
            .iter()
            .find(|(r, f, _)| *r == role && *f == format)
        {
            return *db;
        }
        let (values, cols) = match role {
            TensorRole::Weights => &self.samples.weights,
            TensorRole::Activations => &self.samples.activations,
            TensorRole::Kv => &self.samples.kv,
        };
        // Activations are scaled per token: INT8 per row, the block formats per block.
        let codec = match (role, format) {
            (TensorRole::Activations, Format::Int8) => {
                "int8-channel".parse().unwrap_or(Codec::for_format(format))
            }
            _ => Codec::for_format(format),
        };
        let db = codec
            .round_trip(values, *cols)
            .map(|q| ErrorStats::between(values, &q).sqnr_db)
            .unwrap_or(f64::NEG_INFINITY);
        self.measured.push((role, format, db));
        db
    }

    /// The worst SQNR over the tensors a strategy stores in each format.
    pub(super) fn strategy(&mut self, f: &StrategyFormats) -> (f64, TensorRole) {
        let roles_of = |p: Precision| {
            [
                (TensorRole::Weights, p.weights),
                (TensorRole::Activations, p.activations),
                (TensorRole::Kv, p.kv),
            ]
        };
        let mut roles = roles_of(f.main).to_vec();
        if let Some(a) = f.attention {
            roles.extend(roles_of(a));
        }
        roles
            .into_iter()
            .map(|(role, format)| (self.sqnr(role, format), role))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap_or((f64::INFINITY, TensorRole::Weights))
    }
}
