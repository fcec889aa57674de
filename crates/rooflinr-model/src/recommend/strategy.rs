//! The strategies offered: weight and activation schemes, KV-cache formats on top, and
//! the mixed strategy, each with an id apart from its label.

use crate::format::{Format, GroupedInt, Math};
use crate::ops::Precision;

use super::{AttentionChoice, Request, StrategyFormats, Target};

/// A scheme for the linear layers' weights and activations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Everything in FP16: the baseline.
    Fp16,
    /// FP8 E4M3 weights and activations.
    Fp8W8A8,
    /// INT8 weights and activations.
    Int8W8A8,
    /// INT4 weights in groups of 128 with FP16 scales and zero points (AWQ/GPTQ), FP16
    /// activations.
    Int4Awq,
    /// NVFP4 weights and activations.
    NvFp4W4A4,
    /// MXFP4 weights and activations.
    MxFp4W4A4,
}

impl Scheme {
    /// The label candidates are shown with.
    pub fn label(self) -> &'static str {
        match self {
            Scheme::Fp16 => "FP16 baseline",
            Scheme::Fp8W8A8 => "FP8 W8A8",
            Scheme::Int8W8A8 => "INT8 W8A8",
            Scheme::Int4Awq => "INT4 weight-only (AWQ/GPTQ g128)",
            Scheme::NvFp4W4A4 => "NVFP4 W4A4",
            Scheme::MxFp4W4A4 => "MXFP4 W4A4",
        }
    }

    /// Its formats, with an FP16 KV cache and outputs.
    fn precision(self) -> Precision {
        match self {
            Scheme::Fp16 => uniform(Format::Fp16, Format::Fp16),
            Scheme::Fp8W8A8 => uniform(Format::Fp8E4m3, Format::Fp8E4m3),
            Scheme::Int8W8A8 => uniform(Format::Int8, Format::Int8),
            Scheme::Int4Awq => uniform(Format::Grouped(GroupedInt::AWQ_INT4), Format::Fp16),
            Scheme::NvFp4W4A4 => uniform(Format::NvFp4, Format::NvFp4),
            Scheme::MxFp4W4A4 => uniform(Format::MxFp4, Format::MxFp4),
        }
    }
}

/// Which strategy a candidate is, apart from its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrategyId {
    /// Every linear layer in one scheme; the KV cache in `kv` when it is quantised.
    Uniform {
        /// The linear layers' scheme.
        scheme: Scheme,
        /// The KV cache's format, when not the activations' FP16.
        kv: Option<Format>,
    },
    /// Attention in FP8 with an FP8 KV cache, the MLP in `mlp` (the best 4-bit scheme).
    Mixed {
        /// The MLP's scheme.
        mlp: Scheme,
    },
}

impl StrategyId {
    /// A scheme alone, FP16 cache.
    pub const fn plain(scheme: Scheme) -> StrategyId {
        StrategyId::Uniform { scheme, kv: None }
    }
}

pub(super) fn uniform(weights: Format, activations: Format) -> Precision {
    Precision {
        activations,
        weights,
        kv: Format::Fp16,
        output: Format::Fp16,
    }
}

/// A strategy: its id, label and formats.
pub(super) struct Strategy {
    pub(super) id: StrategyId,
    pub(super) label: String,
    pub(super) formats: StrategyFormats,
}

/// The strategies offered on the device, and those skipped with the reason.
pub(super) fn strategies(
    req: &Request,
    attention: AttentionChoice,
) -> (Vec<Strategy>, Vec<(String, String)>) {
    let hw = req.hardware;
    let fp4_native = hw.ceiling(Math::Fp4, true).native;
    let fp8_native = hw.ceiling(Math::Fp8, false).native;
    let mut bases = vec![
        Scheme::Fp16,
        Scheme::Fp8W8A8,
        Scheme::Int8W8A8,
        Scheme::Int4Awq,
    ];
    let mut skipped = Vec::new();
    for scheme in [Scheme::NvFp4W4A4, Scheme::MxFp4W4A4] {
        if fp4_native {
            bases.push(scheme);
        } else {
            skipped.push((
                scheme.label().to_string(),
                format!("{} has no block-scaled FP4 tensor cores", hw.name),
            ));
        }
    }
    if !fp8_native {
        skipped.push((
            "FP8 natively".to_string(),
            format!(
                "{} has no FP8 tensor cores: FP8 runs as FP16 after conversion",
                hw.name
            ),
        ));
    }
    let mut out: Vec<Strategy> = bases
        .iter()
        .map(|&scheme| Strategy {
            id: StrategyId::plain(scheme),
            label: scheme.label().to_string(),
            formats: StrategyFormats {
                main: scheme.precision(),
                attention: None,
                fp8_attention: false,
            },
        })
        .collect();
    let Target::Model(_) = &req.target else {
        return (out, skipped);
    };
    // KV-cache quantisation on top of each weight strategy.
    let fp8_attention = attention.fp8_attention();
    for &scheme in &bases {
        for (kv_name, kv) in [("FP8 KV", Format::Fp8E4m3), ("NVFP4 KV", Format::NvFp4)] {
            let fp8 = fp8_attention && kv == Format::Fp8E4m3;
            let name = scheme.label();
            let label = if fp8 {
                format!(
                    "{name} + {kv_name} ({} FP8 attention)",
                    attention.name().to_ascii_uppercase()
                )
            } else {
                format!("{name} + {kv_name}")
            };
            out.push(Strategy {
                id: StrategyId::Uniform {
                    scheme,
                    kv: Some(kv),
                },
                label,
                formats: StrategyFormats {
                    main: Precision {
                        kv,
                        ..scheme.precision()
                    },
                    attention: None,
                    fp8_attention: fp8,
                },
            });
        }
    }
    // Mixed precision: attention in FP8 (with an FP8 KV cache), MLP in the best 4-bit.
    let mlp = if fp4_native {
        Scheme::NvFp4W4A4
    } else {
        Scheme::Int4Awq
    };
    let attention_side = Precision {
        kv: Format::Fp8E4m3,
        ..Scheme::Fp8W8A8.precision()
    };
    out.push(Strategy {
        id: StrategyId::Mixed { mlp },
        label: format!(
            "Mixed: attention FP8 + FP8 KV, MLP {}",
            if fp4_native { "NVFP4" } else { "INT4 AWQ" }
        ),
        formats: StrategyFormats {
            main: Precision {
                kv: Format::Fp8E4m3,
                ..mlp.precision()
            },
            attention: Some(attention_side),
            fp8_attention,
        },
    });
    (out, skipped)
}
