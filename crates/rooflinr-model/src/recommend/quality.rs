//! Measured quality: the SQNR of each tensor a strategy stores in a low format, each
//! measured once on its sample.

use std::sync::Mutex;

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

/// One measured SQNR: which sample (its fingerprint), which role, which format.
struct Measured {
    sample: u64,
    role: TensorRole,
    format: Format,
    sqnr_db: f64,
}

/// SQNRs measured so far in this process. A strategy's quality depends only on the sample
/// tensors and the formats, so a second recommendation on the same samples (another
/// device, batch or phase) measures nothing again. Keyed by a fingerprint of the sample's
/// values, so a sample changed in place is measured afresh.
static MEASURED: Mutex<Vec<Measured>> = Mutex::new(Vec::new());

/// Entries kept before the table starts afresh (each is a few dozen bytes).
const MEASURED_MAX: usize = 4096;

/// A 64-bit fingerprint of a sample's row length and values (every bit of every value).
fn fingerprint(values: &[f32], cols: usize) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mix = |h: u64, v: u64| (h.rotate_left(5) ^ v).wrapping_mul(K);
    values
        .iter()
        .fold(mix(values.len() as u64, cols as u64), |h, v| {
            mix(h, u64::from(v.to_bits()))
        })
}

/// Measured SQNR per (role, format) for one recommendation's samples.
pub(super) struct QualityCache<'a> {
    samples: &'a QualitySamples,
    /// Each role's sample fingerprint, taken on first use.
    fingerprints: [Option<u64>; 3],
}

impl<'a> QualityCache<'a> {
    pub(super) fn new(samples: &'a QualitySamples) -> Self {
        QualityCache {
            samples,
            fingerprints: [None; 3],
        }
    }

    fn sample(&self, role: TensorRole) -> (&'a [f32], usize) {
        let (values, cols) = match role {
            TensorRole::Weights => &self.samples.weights,
            TensorRole::Activations => &self.samples.activations,
            TensorRole::Kv => &self.samples.kv,
        };
        (values, *cols)
    }

    fn sqnr(&mut self, role: TensorRole, format: Format) -> f64 {
        let (values, cols) = self.sample(role);
        let sample =
            *self.fingerprints[role as usize].get_or_insert_with(|| fingerprint(values, cols));
        let known = MEASURED.lock().ok().and_then(|table| {
            table
                .iter()
                .find(|m| m.sample == sample && m.role == role && m.format == format)
                .map(|m| m.sqnr_db)
        });
        if let Some(db) = known {
            return db;
        }
        // Activations are scaled per token: INT8 per row, the block formats per block.
        let codec = match (role, format) {
            (TensorRole::Activations, Format::Int8) => {
                "int8-channel".parse().unwrap_or(Codec::for_format(format))
            }
            _ => Codec::for_format(format),
        };
        let db = codec
            .round_trip(values, cols)
            .map(|q| ErrorStats::between(values, &q).sqnr_db)
            .unwrap_or(f64::NEG_INFINITY);
        if let Ok(mut table) = MEASURED.lock() {
            if table.len() >= MEASURED_MAX {
                table.clear();
            }
            table.push(Measured {
                sample,
                role,
                format,
                sqnr_db: db,
            });
        }
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
