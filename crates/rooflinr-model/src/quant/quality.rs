//! Measured quantisation quality: error figures for a tensor in every format, on
//! synthetic tensors or on a real weight from a `.safetensors` file.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal, StudentT};
use safetensors::{Dtype, SafeTensors};

use super::codec::Codec;
use super::scalar::Scalar;
use crate::error::ModelError;

/// How far a quantised tensor is from the original, computed in `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorStats {
    /// Mean squared error.
    pub mse: f64,
    /// Signal-to-quantisation-noise ratio, 10 log10(sum x^2 / sum (x - q)^2), in dB
    /// (infinite when the round trip is exact).
    pub sqnr_db: f64,
    /// Cosine similarity of the two tensors (1 when both are zero).
    pub cosine: f64,
    /// Largest absolute element error.
    pub max_abs: f64,
}

impl ErrorStats {
    /// The error of `approx` against `reference` (same length).
    pub fn between(reference: &[f32], approx: &[f32]) -> ErrorStats {
        let (mut signal, mut noise, mut dot, mut approx_sq, mut max_abs) =
            (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for (x, q) in reference.iter().zip(approx) {
            let (x, q) = (f64::from(*x), f64::from(*q));
            let e = x - q;
            signal += x * x;
            noise += e * e;
            dot += x * q;
            approx_sq += q * q;
            max_abs = max_abs.max(e.abs());
        }
        let n = reference.len().max(1) as f64;
        let norms = (signal * approx_sq).sqrt();
        ErrorStats {
            mse: noise / n,
            sqnr_db: if noise == 0.0 {
                f64::INFINITY
            } else {
                10.0 * (signal / noise).log10()
            },
            cosine: if norms == 0.0 {
                f64::from(u8::from(signal == approx_sq))
            } else {
                dot / norms
            },
            max_abs,
        }
    }
}

/// One format's measured quality on one tensor.
#[derive(Clone, Debug, PartialEq)]
pub struct FormatQuality {
    /// The codec measured.
    pub codec: Codec,
    /// Storage the packed tensor took, in bits per element (scales included).
    pub bits_per_element: f64,
    /// The measured error.
    pub error: ErrorStats,
}

/// Quantises `values` (rows of `cols`) with each codec and measures the error.
pub fn survey(
    values: &[f32],
    cols: usize,
    codecs: &[Codec],
) -> Result<Vec<FormatQuality>, ModelError> {
    codecs
        .iter()
        .map(|codec| {
            let q = codec.quantize(values, cols)?;
            Ok(FormatQuality {
                codec: *codec,
                bits_per_element: q.storage_bytes() as f64 * 8.0 / values.len().max(1) as f64,
                error: ErrorStats::between(values, &q.dequantize()),
            })
        })
        .collect()
}

/// A family of synthetic weight tensors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Synthetic {
    /// Normal, standard deviation 0.02 (a typical initialisation scale).
    Gaussian,
    /// Student's t with 3 degrees of freedom, scaled like the Gaussian: rare large values.
    HeavyTailed,
    /// Gaussian, with one input channel (column) in 64 scaled up 20x, like the emergent
    /// outlier features of large language models.
    OutlierChannels,
}

impl Synthetic {
    /// Every family.
    pub const ALL: [Synthetic; 3] = [
        Synthetic::Gaussian,
        Synthetic::HeavyTailed,
        Synthetic::OutlierChannels,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Synthetic::Gaussian => "gaussian",
            Synthetic::HeavyTailed => "heavy-tailed",
            Synthetic::OutlierChannels => "outlier-channels",
        }
    }

    /// A `rows x cols` tensor, the same for the same seed on every platform.
    pub fn generate(self, rows: usize, cols: usize, seed: u64) -> Vec<f32> {
        const STD: f32 = 0.02;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let normal = Normal::new(0.0f32, STD).expect("a positive standard deviation");
        match self {
            Synthetic::Gaussian => (0..rows * cols).map(|_| normal.sample(&mut rng)).collect(),
            Synthetic::HeavyTailed => {
                let t = StudentT::new(3.0f32).expect("positive degrees of freedom");
                // Var(t_3) = 3: scale to the Gaussian's standard deviation.
                let scale = STD / 3.0f32.sqrt();
                (0..rows * cols)
                    .map(|_| t.sample(&mut rng) * scale)
                    .collect()
            }
            Synthetic::OutlierChannels => {
                let outliers: Vec<bool> = (0..cols).map(|_| rng.random_ratio(1, 64)).collect();
                (0..rows * cols)
                    .map(|i| {
                        let v = normal.sample(&mut rng);
                        if outliers[i % cols] { v * 20.0 } else { v }
                    })
                    .collect()
            }
        }
    }
}

impl std::str::FromStr for Synthetic {
    type Err = ModelError;

    fn from_str(s: &str) -> Result<Synthetic, ModelError> {
        Synthetic::ALL
            .into_iter()
            .find(|d| d.name() == s.trim())
            .ok_or_else(|| {
                ModelError::invalid(
                    "distribution",
                    format!("`{s}` is not one of gaussian, heavy-tailed, outlier-channels"),
                )
            })
    }
}

/// A tensor read from a `.safetensors` file, as `f32`.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightTensor {
    /// Its name in the file.
    pub name: String,
    /// Its shape.
    pub shape: Vec<usize>,
    /// Its values, row-major.
    pub values: Vec<f32>,
}

impl WeightTensor {
    /// Length of the last dimension: the rows that blocks and groups run along.
    pub fn cols(&self) -> usize {
        self.shape.last().copied().unwrap_or(1).max(1)
    }
}

/// Reads tensor `name` from the bytes of a `.safetensors` file. F32, F16, BF16, F64 and
/// FP8 (E4M3, E5M2) tensors are read; the error lists the file's tensors when `name` is
/// not among them.
pub fn read_safetensors(bytes: &[u8], name: &str) -> Result<WeightTensor, ModelError> {
    let file = SafeTensors::deserialize(bytes).map_err(|e| ModelError::Syntax {
        what: "safetensors file",
        message: e.to_string(),
    })?;
    let view = file.tensor(name).map_err(|_| {
        let mut names = file.names();
        crate::sort::sort(&mut names);
        let shown: Vec<&str> = names.iter().take(12).copied().collect();
        let more = names.len().saturating_sub(shown.len());
        ModelError::invalid(
            "tensor",
            format!(
                "no tensor `{name}` in the file; it has {}{}",
                shown.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            ),
        )
    })?;
    let data = view.data();
    let values: Vec<f32> = match view.dtype() {
        Dtype::F32 => data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
        Dtype::F64 => data
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")) as f32)
            .collect(),
        Dtype::F16 | Dtype::BF16 => {
            let scalar = if view.dtype() == Dtype::F16 {
                Scalar::Fp16
            } else {
                Scalar::Bf16
            };
            data.chunks_exact(2)
                .map(|b| scalar.decode(u16::from_le_bytes([b[0], b[1]])))
                .collect()
        }
        Dtype::F8_E4M3 => data
            .iter()
            .map(|b| Scalar::Fp8E4m3.decode(u16::from(*b)))
            .collect(),
        Dtype::F8_E5M2 => data
            .iter()
            .map(|b| Scalar::Fp8E5m2.decode(u16::from(*b)))
            .collect(),
        other => {
            return Err(ModelError::invalid(
                "tensor",
                format!(
                    "`{name}` is {other:?}; rooflinr reads F32, F64, F16, BF16 and FP8 tensors"
                ),
            ));
        }
    };
    Ok(WeightTensor {
        name: name.to_string(),
        shape: view.shape().to_vec(),
        values,
    })
}

/// The codecs a quality table shows by default: every catalogue format, and the
/// variants (NVFP4 4/6, per-channel integers) a user choosing a recipe compares.
pub fn default_codecs() -> Vec<Codec> {
    let mut codecs: Vec<Codec> = Codec::catalogue().into_iter().map(|(_, c)| c).collect();
    let variants = ["nvfp4-4over6", "int8-channel", "int4-channel", "int4-g128"];
    for name in variants {
        let codec = name.parse::<Codec>().expect("a built-in codec name");
        if !codecs.contains(&codec) {
            codecs.push(codec);
        }
    }
    codecs
}
