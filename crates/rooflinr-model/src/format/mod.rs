//! Number formats: exact storage cost per element, including block scales, and the
//! tensor-core operation type each format computes as.
//!
//! Where the prototype rooflinr replaces (docs/prototype.md) disagrees with the specifications, the specifications win:
//! - NVFP4 is 4-bit E2M1 values, one E4M3 scale per 16 values and one FP32 scale per
//!   tensor: 4.5 bits per element plus 32 bits amortised over the whole tensor. The prototype's
//!   0.5625 bytes is right for the block part; its 0.566 ("4.531 bits") amortised the
//!   tensor scale over 1024 elements, which no implementation does.
//! - TF32 is a tensor-core math mode, not a storage format: its operands live in memory
//!   as FP32 (32 bits). The prototype's "2.375 bytes" counts its significant bits instead.
//! - NF4 as bitsandbytes stores it keeps an FP32 absmax per block of 64 (4.5 bits), or,
//!   with double quantisation, an 8-bit absmax per 64 plus an FP32 per 256 blocks
//!   (4.127 bits) and the FP32 mean the absmaxes are centred on. The prototype's "16-bit absmax, 4.25 bits" matches neither.
//! - Quantised formats (FP8, INT8, INT4, INT2) carry the FP32 per-tensor scale every
//!   inference recipe needs (e.g. `torch._scaled_mm`), amortised over the tensor.
//! - Block scales pad: a tensor of n elements with blocks of b stores ceil(n / b) scales.

use std::fmt;
use std::str::FromStr;

use crate::error::ModelError;
use crate::units::Bytes;

/// The tensor-core (or vector-unit) operation type a computation runs as; peak rates in
/// the hardware registry are keyed by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Math {
    /// IEEE double precision.
    Fp64,
    /// IEEE single precision on the vector units (not tensor cores).
    Fp32,
    /// TensorFloat-32 tensor-core mode over FP32 operands.
    Tf32,
    /// FP16 tensor-core math (FP32 accumulate).
    Fp16,
    /// BF16 tensor-core math (FP32 accumulate).
    Bf16,
    /// FP8 (E4M3 or E5M2) tensor-core math.
    Fp8,
    /// FP6 tensor-core math (Blackwell).
    Fp6,
    /// FP4 E2M1 tensor-core math (Blackwell).
    Fp4,
    /// INT8 tensor-core math (INT32 accumulate).
    Int8,
    /// INT4 tensor-core math (Turing and Ampere only).
    Int4,
}

impl Math {
    /// Every operation type, widest first.
    pub const ALL: [Math; 10] = [
        Math::Fp64,
        Math::Fp32,
        Math::Tf32,
        Math::Fp16,
        Math::Bf16,
        Math::Fp8,
        Math::Int8,
        Math::Fp6,
        Math::Fp4,
        Math::Int4,
    ];

    /// Lower-case name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Math::Fp64 => "fp64",
            Math::Fp32 => "fp32",
            Math::Tf32 => "tf32",
            Math::Fp16 => "fp16",
            Math::Bf16 => "bf16",
            Math::Fp8 => "fp8",
            Math::Fp6 => "fp6",
            Math::Fp4 => "fp4",
            Math::Int8 => "int8",
            Math::Int4 => "int4",
        }
    }

    /// Parses a lower-case name (`fp16`, `int8`, ...).
    pub fn from_name(name: &str) -> Option<Math> {
        Math::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Operand width in bits, used to pick the wider side of a mixed-format product.
    pub fn width(self) -> u32 {
        match self {
            Math::Fp64 => 64,
            Math::Fp32 | Math::Tf32 => 32,
            Math::Fp16 | Math::Bf16 => 16,
            Math::Fp8 | Math::Int8 => 8,
            Math::Fp6 => 6,
            Math::Fp4 | Math::Int4 => 4,
        }
    }

    /// What a chip without this operation type converts the operands to.
    ///
    /// Narrow formats are dequantised to FP16 (the common W4A16 / FP8-on-Ampere path);
    /// INT4 products run as INT8 where INT8 exists; everything ends at FP32.
    pub fn fallback(self) -> Option<Math> {
        match self {
            Math::Fp64 | Math::Fp32 => None,
            Math::Tf32 | Math::Fp16 | Math::Bf16 => Some(Math::Fp32),
            Math::Fp8 | Math::Fp6 | Math::Fp4 | Math::Int8 => Some(Math::Fp16),
            Math::Int4 => Some(Math::Int8),
        }
    }
}

impl fmt::Display for Math {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a scale factor is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScaleType {
    /// IEEE single precision.
    Fp32,
    /// IEEE half precision.
    Fp16,
    /// bfloat16.
    Bf16,
    /// FP8 E4M3 (signed; NVFP4 uses only its non-negative half).
    E4m3,
    /// Unsigned FP8 with 4 exponent and 3 mantissa bits (NVFP4's block scale).
    Ue4m3,
    /// 8-bit power of two, the OCP MX shared scale.
    E8m0,
}

impl ScaleType {
    /// Storage bits of one scale.
    pub const fn bits(self) -> u32 {
        match self {
            ScaleType::Fp32 => 32,
            ScaleType::Fp16 | ScaleType::Bf16 => 16,
            ScaleType::E4m3 | ScaleType::Ue4m3 | ScaleType::E8m0 => 8,
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            ScaleType::Fp32 => "fp32",
            ScaleType::Fp16 => "fp16",
            ScaleType::Bf16 => "bf16",
            ScaleType::E4m3 => "e4m3",
            ScaleType::Ue4m3 => "ue4m3",
            ScaleType::E8m0 => "e8m0",
        }
    }

    fn from_name(name: &str) -> Option<ScaleType> {
        [
            ScaleType::Fp32,
            ScaleType::Fp16,
            ScaleType::Bf16,
            ScaleType::E4m3,
            ScaleType::Ue4m3,
            ScaleType::E8m0,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }
}

/// How a group-quantised integer format stores its zero point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZeroPoint {
    /// Symmetric: no zero point.
    None,
    /// An integer of the element's width per group (AWQ and GPTQ pack `qzeros` this way).
    Packed,
    /// A floating-point zero per group (HQQ-style).
    Float(ScaleType),
}

/// An integer format quantised in groups along the reduction dimension, each group with
/// its own scale (and optionally zero point): INT4 with an FP16 scale per 128 weights is
/// how AWQ and GPTQ checkpoints store weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupedInt {
    /// Bits per element, 2 to 8.
    pub bits: u8,
    /// Elements sharing one scale.
    pub group: u32,
    /// Type of the per-group scale.
    pub scale: ScaleType,
    /// Zero-point storage.
    pub zero: ZeroPoint,
}

impl GroupedInt {
    /// INT4, FP16 scale per 128 values, packed 4-bit zero point: AWQ/GPTQ's default layout.
    pub const AWQ_INT4: GroupedInt = GroupedInt {
        bits: 4,
        group: 128,
        scale: ScaleType::Fp16,
        zero: ZeroPoint::Packed,
    };

    fn per_group_bits(self) -> u32 {
        let zero = match self.zero {
            ZeroPoint::None => 0,
            ZeroPoint::Packed => u32::from(self.bits),
            ZeroPoint::Float(t) => t.bits(),
        };
        self.scale.bits() + zero
    }
}

/// A number format as stored in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// IEEE binary64.
    Fp64,
    /// IEEE binary32.
    Fp32,
    /// TF32 math over FP32 storage.
    Tf32,
    /// bfloat16.
    Bf16,
    /// IEEE binary16.
    Fp16,
    /// OCP FP8 E4M3 ("fn": no infinities, max 448).
    Fp8E4m3,
    /// OCP FP8 E5M2 (IEEE-like, max 57344).
    Fp8E5m2,
    /// 8-bit integer with a per-tensor scale.
    Int8,
    /// 4-bit integer with a per-tensor scale.
    Int4,
    /// 2-bit integer with a per-tensor scale.
    Int2,
    /// OCP MXFP8 with E4M3 elements: 32 per E8M0 scale.
    MxFp8E4m3,
    /// OCP MXFP8 with E5M2 elements.
    MxFp8E5m2,
    /// OCP MXFP6 with E3M2 elements.
    MxFp6E3m2,
    /// OCP MXFP6 with E2M3 elements.
    MxFp6E2m3,
    /// OCP MXFP4: E2M1 elements, 32 per E8M0 scale.
    MxFp4,
    /// OCP MXINT8: 8-bit integers, 32 per E8M0 scale.
    MxInt8,
    /// NVIDIA NVFP4: E2M1 elements, 16 per UE4M3 scale, one FP32 scale per tensor.
    NvFp4,
    /// bitsandbytes NF4: 4-bit index into a normal-quantile table, FP32 absmax per 64.
    Nf4,
    /// NF4 with double quantisation: 8-bit absmax per 64, FP32 per 256 absmax blocks.
    Nf4Dq,
    /// Group-quantised integers (AWQ, GPTQ and kin).
    Grouped(GroupedInt),
}

/// Shape of a format's encoding, for display and for the codecs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Floating point with the given exponent and mantissa bits (sign bit implied).
    Float {
        /// Exponent bits.
        exponent: u8,
        /// Explicit mantissa bits.
        mantissa: u8,
    },
    /// Two's-complement integer.
    Int,
    /// Index into a lookup table.
    Table,
}

/// One level of scale sharing: `size` elements share one scale of type `scale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Elements per scale.
    pub size: u32,
    /// Bits of per-block metadata (scale plus any zero point).
    pub bits: u32,
}

impl Format {
    /// The named formats of the catalogue (grouped integers are parameterised; the AWQ
    /// INT4 default is listed as their representative).
    pub const CATALOGUE: [Format; 20] = [
        Format::Fp64,
        Format::Fp32,
        Format::Tf32,
        Format::Bf16,
        Format::Fp16,
        Format::Fp8E4m3,
        Format::Fp8E5m2,
        Format::Int8,
        Format::Int4,
        Format::Int2,
        Format::MxFp8E4m3,
        Format::MxFp8E5m2,
        Format::MxFp6E3m2,
        Format::MxFp6E2m3,
        Format::MxFp4,
        Format::MxInt8,
        Format::NvFp4,
        Format::Nf4,
        Format::Nf4Dq,
        Format::Grouped(GroupedInt::AWQ_INT4),
    ];

    /// The named format's facts; `None` for grouped integers, which are parameterised.
    fn spec(self) -> Option<&'static Spec> {
        Some(match self {
            Format::Fp64 => &spec::FP64,
            Format::Fp32 => &spec::FP32,
            Format::Tf32 => &spec::TF32,
            Format::Bf16 => &spec::BF16,
            Format::Fp16 => &spec::FP16,
            Format::Fp8E4m3 => &spec::FP8_E4M3,
            Format::Fp8E5m2 => &spec::FP8_E5M2,
            Format::Int8 => &spec::INT8,
            Format::Int4 => &spec::INT4,
            Format::Int2 => &spec::INT2,
            Format::MxFp8E4m3 => &spec::MXFP8_E4M3,
            Format::MxFp8E5m2 => &spec::MXFP8_E5M2,
            Format::MxFp6E3m2 => &spec::MXFP6_E3M2,
            Format::MxFp6E2m3 => &spec::MXFP6_E2M3,
            Format::MxFp4 => &spec::MXFP4,
            Format::MxInt8 => &spec::MXINT8,
            Format::NvFp4 => &spec::NVFP4,
            Format::Nf4 => &spec::NF4,
            Format::Nf4Dq => &spec::NF4_DQ,
            Format::Grouped(_) => return None,
        })
    }

    /// Bits of one element's value (before any scale).
    pub fn element_bits(self) -> u32 {
        match (self, self.spec()) {
            (Format::Grouped(g), _) => u32::from(g.bits),
            (_, Some(s)) => s.element_bits,
            (_, None) => unreachable!("every named format has a spec"),
        }
    }

    /// How one element is encoded.
    pub fn encoding(self) -> Encoding {
        self.spec().map_or(Encoding::Int, |s| s.encoding)
    }

    /// Scale-sharing levels, innermost first (at most two; no allocation).
    pub fn blocks(self) -> impl Iterator<Item = Block> {
        let levels = match (self, self.spec()) {
            (Format::Grouped(g), _) => [Some(Block::new(g.group, g.per_group_bits())), None],
            (_, Some(s)) => s.blocks,
            (_, None) => [None, None],
        };
        levels.into_iter().flatten()
    }

    /// Bits of per-tensor metadata (an FP32 scale), amortised over the tensor's elements.
    pub fn tensor_scale_bits(self) -> u32 {
        self.spec().map_or(0, |s| s.tensor_scale_bits)
    }

    /// Whether the format's scales are per block, so native math needs block-scaled MMA.
    pub fn is_block_scaled(self) -> bool {
        self.spec().is_some_and(|s| s.block_scaled)
    }

    /// The bits one element costs in the limit of a large tensor: element bits plus block
    /// metadata, with per-tensor scales amortised to nothing.
    pub fn bits_per_element(self) -> f64 {
        f64::from(self.element_bits())
            + self
                .blocks()
                .map(|b| f64::from(b.bits) / f64::from(b.size))
                .sum::<f64>()
    }

    /// Exact storage of a tensor of `elements` values: elements, one scale per started
    /// block, and the per-tensor scale.
    pub fn tensor_bytes(self, elements: f64) -> Bytes {
        if elements <= 0.0 {
            return Bytes::ZERO;
        }
        let blocks: f64 = self
            .blocks()
            .map(|b| (elements / f64::from(b.size)).ceil() * f64::from(b.bits))
            .sum();
        let bits = elements * f64::from(self.element_bits())
            + blocks
            + f64::from(self.tensor_scale_bits());
        Bytes::from_bits(bits)
    }

    /// The operation type this format computes as where the chip runs it natively;
    /// formats no tensor core runs (NF4, grouped integers, INT2, MXINT8) dequantise to
    /// FP16.
    pub fn math(self) -> Math {
        self.spec().map_or(Math::Fp16, |s| s.math)
    }

    /// The canonical lower-case, hyphenated name (`fp8-e4m3`, `int4-g128-fp16-zp`).
    pub fn name(self) -> String {
        match (self, self.spec()) {
            (Format::Grouped(g), _) => {
                let mut s = format!("int{}-g{}", g.bits, g.group);
                s.push('-');
                s.push_str(g.scale.name());
                match g.zero {
                    ZeroPoint::None => {}
                    ZeroPoint::Packed => s.push_str("-zp"),
                    ZeroPoint::Float(t) => {
                        s.push_str("-zp-");
                        s.push_str(t.name());
                    }
                }
                s
            }
            (_, Some(s)) => s.name.to_string(),
            (_, None) => unreachable!("every named format has a spec"),
        }
    }

    /// One line saying what the format is and where its layout comes from.
    pub fn description(self) -> String {
        match (self, self.spec()) {
            (Format::Grouped(g), _) => {
                let zero = match g.zero {
                    ZeroPoint::None => "symmetric".to_string(),
                    ZeroPoint::Packed => format!("{}-bit zero point", g.bits),
                    ZeroPoint::Float(t) => format!("{} zero point", t.name().to_ascii_uppercase()),
                };
                format!(
                    "INT{} in groups of {}: {} scale, {zero}",
                    g.bits,
                    g.group,
                    g.scale.name().to_ascii_uppercase()
                )
            }
            (_, Some(s)) => s.description.to_string(),
            (_, None) => unreachable!("every named format has a spec"),
        }
    }
}

impl Block {
    const fn new(size: u32, bits: u32) -> Block {
        Block { size, bits }
    }
}

/// A named format's facts, one row each: the one place its element, scales, math and
/// description are written.
struct Spec {
    /// Canonical name.
    name: &'static str,
    /// Bits of one element's value.
    element_bits: u32,
    /// How an element is encoded.
    encoding: Encoding,
    /// Scale-sharing levels, innermost first.
    blocks: [Option<Block>; 2],
    /// Bits of per-tensor metadata (an FP32 scale).
    tensor_scale_bits: u32,
    /// Scales per block: native math needs block-scaled MMA.
    block_scaled: bool,
    /// The operation type it computes as where a chip runs it natively.
    math: Math,
    /// What it is and where its layout comes from.
    description: &'static str,
}

/// The rows. Sources: IEEE 754 (FP64, FP32, FP16); NVIDIA's A100 whitepaper (TF32, a
/// math mode on FP32 storage); the OCP 8-bit Floating Point specification (FP8) and OCP
/// Microscaling Formats v1.0 (MX: 32 elements per E8M0 scale); NVIDIA's NVFP4 (16 E2M1
/// per UE4M3 scale, FP32 per tensor); bitsandbytes (NF4: FP32 absmax per 64; double
/// quantisation, an 8-bit absmax per 64 and FP32 per 256 of those plus their FP32 mean).
/// Per-tensor quantised formats carry the FP32 scale every inference recipe needs. No
/// tensor core takes MXINT8 (Blackwell's block-scaled kinds are FP only), NF4 or INT2:
/// they are dequantised in the kernel and compute as FP16.
mod spec {
    use super::{Block, Encoding, Math, ScaleType, Spec};

    const fn float(exponent: u8, mantissa: u8) -> Encoding {
        Encoding::Float { exponent, mantissa }
    }
    const NONE: [Option<Block>; 2] = [None, None];
    const MX: [Option<Block>; 2] = [Some(Block::new(32, ScaleType::E8m0.bits())), None];
    const FP32_SCALE: u32 = 32;

    const fn plain(
        name: &'static str,
        bits: u32,
        encoding: Encoding,
        math: Math,
        description: &'static str,
    ) -> Spec {
        Spec {
            name,
            element_bits: bits,
            encoding,
            blocks: NONE,
            tensor_scale_bits: 0,
            block_scaled: false,
            math,
            description,
        }
    }
    const fn per_tensor(
        name: &'static str,
        bits: u32,
        encoding: Encoding,
        math: Math,
        description: &'static str,
    ) -> Spec {
        Spec {
            tensor_scale_bits: FP32_SCALE,
            ..plain(name, bits, encoding, math, description)
        }
    }
    const fn mx(
        name: &'static str,
        bits: u32,
        encoding: Encoding,
        math: Math,
        description: &'static str,
    ) -> Spec {
        Spec {
            blocks: MX,
            block_scaled: true,
            ..plain(name, bits, encoding, math, description)
        }
    }

    pub(super) const FP64: Spec = plain("fp64", 64, float(11, 52), Math::Fp64, "IEEE 754 binary64");
    pub(super) const FP32: Spec = plain("fp32", 32, float(8, 23), Math::Fp32, "IEEE 754 binary32");
    pub(super) const TF32: Spec = plain(
        "tf32",
        32,
        float(8, 10),
        Math::Tf32,
        "TF32 tensor-core mode; operands stored as FP32",
    );
    pub(super) const BF16: Spec = plain("bf16", 16, float(8, 7), Math::Bf16, "bfloat16 (E8M7)");
    pub(super) const FP16: Spec = plain(
        "fp16",
        16,
        float(5, 10),
        Math::Fp16,
        "IEEE 754 binary16 (E5M10)",
    );
    pub(super) const FP8_E4M3: Spec = per_tensor(
        "fp8-e4m3",
        8,
        float(4, 3),
        Math::Fp8,
        "OCP FP8 E4M3fn, FP32 per-tensor scale",
    );
    pub(super) const FP8_E5M2: Spec = per_tensor(
        "fp8-e5m2",
        8,
        float(5, 2),
        Math::Fp8,
        "OCP FP8 E5M2, FP32 per-tensor scale",
    );
    pub(super) const INT8: Spec = per_tensor(
        "int8",
        8,
        Encoding::Int,
        Math::Int8,
        "INT8, FP32 per-tensor scale",
    );
    pub(super) const INT4: Spec = per_tensor(
        "int4",
        4,
        Encoding::Int,
        Math::Int4,
        "INT4, FP32 per-tensor scale",
    );
    pub(super) const INT2: Spec = per_tensor(
        "int2",
        2,
        Encoding::Int,
        Math::Fp16,
        "INT2, FP32 per-tensor scale",
    );
    pub(super) const MXFP8_E4M3: Spec = mx(
        "mxfp8-e4m3",
        8,
        float(4, 3),
        Math::Fp8,
        "OCP MX v1.0: E4M3 x32 + E8M0 scale",
    );
    pub(super) const MXFP8_E5M2: Spec = mx(
        "mxfp8-e5m2",
        8,
        float(5, 2),
        Math::Fp8,
        "OCP MX v1.0: E5M2 x32 + E8M0 scale",
    );
    pub(super) const MXFP6_E3M2: Spec = mx(
        "mxfp6-e3m2",
        6,
        float(3, 2),
        Math::Fp6,
        "OCP MX v1.0: E3M2 x32 + E8M0 scale",
    );
    pub(super) const MXFP6_E2M3: Spec = mx(
        "mxfp6-e2m3",
        6,
        float(2, 3),
        Math::Fp6,
        "OCP MX v1.0: E2M3 x32 + E8M0 scale",
    );
    pub(super) const MXFP4: Spec = mx(
        "mxfp4",
        4,
        float(2, 1),
        Math::Fp4,
        "OCP MX v1.0: E2M1 x32 + E8M0 scale",
    );
    pub(super) const MXINT8: Spec = mx(
        "mxint8",
        8,
        Encoding::Int,
        Math::Fp16,
        "OCP MX v1.0: INT8 x32 + E8M0 scale",
    );
    pub(super) const NVFP4: Spec = Spec {
        blocks: [Some(Block::new(16, ScaleType::Ue4m3.bits())), None],
        tensor_scale_bits: FP32_SCALE,
        block_scaled: true,
        ..plain(
            "nvfp4",
            4,
            float(2, 1),
            Math::Fp4,
            "NVIDIA NVFP4: E2M1 x16 + UE4M3 scale, FP32 per tensor",
        )
    };
    pub(super) const NF4: Spec = Spec {
        blocks: [Some(Block::new(64, 32)), None],
        ..plain(
            "nf4",
            4,
            Encoding::Table,
            Math::Fp16,
            "bitsandbytes NF4: x64 + FP32 absmax",
        )
    };
    pub(super) const NF4_DQ: Spec = Spec {
        blocks: [Some(Block::new(64, 8)), Some(Block::new(64 * 256, 32))],
        // Double quantisation centres the block absmaxes on their mean, kept as FP32.
        tensor_scale_bits: FP32_SCALE,
        ..plain(
            "nf4-dq",
            4,
            Encoding::Table,
            Math::Fp16,
            "bitsandbytes NF4, double-quantised absmax",
        )
    };
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Format {
    type Err = ModelError;

    /// Parses a catalogue name, or a grouped integer `int{bits}-g{group}[-{scale}][-zp[-{type}]]`
    /// such as `int4-g128` (FP16 scale, symmetric) or `int4-g128-fp16-zp` (AWQ/GPTQ). Case
    /// is ignored and underscores read as hyphens (`FP8_E4M3`, `int4_g128`, as the HTTP API
    /// and the agent's records spell them).
    fn from_str(s: &str) -> Result<Format, ModelError> {
        let name = s.trim().to_ascii_lowercase().replace('_', "-");
        let aliases = [
            ("fp8", Format::Fp8E4m3),
            ("mxfp8", Format::MxFp8E4m3),
            ("awq", Format::Grouped(GroupedInt::AWQ_INT4)),
        ];
        if let Some((_, f)) = aliases.iter().find(|(a, _)| *a == name) {
            return Ok(*f);
        }
        if let Some(f) = Format::CATALOGUE
            .iter()
            .copied()
            .filter(|f| !matches!(f, Format::Grouped(_)))
            .find(|f| f.spec().is_some_and(|s| s.name == name))
        {
            return Ok(f);
        }
        parse_grouped(&name).ok_or_else(|| ModelError::UnknownFormat(s.trim().to_string()))
    }
}

/// A format travels (the agent's protocol, lab files, kernel points) as its catalogue name
/// ([`Format::name`]: `bf16`, `int4-g128`).
impl serde::Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.name())
    }
}

/// Read back from any name [`Format::from_str`] takes; another name is an error that names
/// it.
impl<'de> serde::Deserialize<'de> for Format {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Format, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

fn parse_grouped(name: &str) -> Option<Format> {
    let mut parts = name.split('-');
    let bits: u8 = parts.next()?.strip_prefix("int")?.parse().ok()?;
    let group: u32 = parts.next()?.strip_prefix('g')?.parse().ok()?;
    if !(2..=8).contains(&bits) || !(1..=1 << 20).contains(&group) {
        return None;
    }
    let mut scale = ScaleType::Fp16;
    let mut zero = ZeroPoint::None;
    let rest: Vec<&str> = parts.collect();
    let mut i = 0;
    if let Some(s) = rest.first().and_then(|p| ScaleType::from_name(p)) {
        scale = s;
        i = 1;
    }
    match &rest[i..] {
        [] => {}
        ["zp"] => zero = ZeroPoint::Packed,
        ["zp", t] => zero = ZeroPoint::Float(ScaleType::from_name(t)?),
        _ => return None,
    }
    Some(Format::Grouped(GroupedInt {
        bits,
        group,
        scale,
        zero,
    }))
}

/// The operation type a product of `activations` by `weights` runs as: the wider of the two
/// (the narrower operand is converted up, as in W4A16 or FP8 weights on an FP16 kernel);
/// between equally wide types, the activations' wins.
pub fn product_math(activations: Format, weights: Format) -> Math {
    let (a, w) = (activations.math(), weights.math());
    if w.width() > a.width() { w } else { a }
}

/// Whether a product of these formats needs block-scaled MMA to run natively.
pub fn product_is_block_scaled(activations: Format, weights: Format) -> bool {
    let math = product_math(activations, weights);
    (activations.is_block_scaled() && activations.math() == math)
        || (weights.is_block_scaled() && weights.math() == math)
}

#[cfg(test)]
mod tests;
