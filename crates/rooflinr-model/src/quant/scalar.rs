//! Scalar number formats, bit-exact: FP8 E4M3 (OCP "fn") and E5M2, FP6 E3M2 and E2M3,
//! FP4 E2M1, the E8M0 and UE4M3 scale types, BF16 and FP16.
//!
//! Encoding rounds to nearest, ties to even, from `f32`. What happens past the largest
//! finite value follows the specification of each format, as `ml_dtypes` implements it
//! ([`Overflow::Cast`]): IEEE-like formats (E5M2, BF16, FP16) overflow to infinity, E4M3fn
//! (no infinity) to NaN, and FP6/FP4 (neither) saturate. Quantisers ask for
//! [`Overflow::Saturate`] instead, which clamps to the largest finite value, as the OCP MX
//! specification prescribes for its element conversions.
//!
//! NaN has no encoding in FP6 and FP4; like `ml_dtypes`, a NaN input becomes a zero code
//! there, with the NaN's sign bit inverted (so the usual positive NaN gives -0). E8M0 has neither sign nor zero: like `ml_dtypes`, zero,
//! negative values and NaN all become its NaN code, and ties round up (to the larger
//! power of two), not to even.
//!
//! Codes are returned in the low bits of a `u16`; the test vectors in
//! `test_data/ml_dtypes/` (made with `ml_dtypes`, script alongside) pin every code and the
//! rounding of thousands of values, ties, subnormals and overflows included.

use std::fmt;
use std::str::FromStr;

use crate::error::ModelError;

/// A scalar number format with a bit-exact codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// OCP FP8 E4M3 ("fn": no infinities, one NaN per sign), max 448.
    Fp8E4m3,
    /// OCP FP8 E5M2 (IEEE-like), max 57344.
    Fp8E5m2,
    /// OCP FP6 E3M2 (finite only), max 28.
    Fp6E3m2,
    /// OCP FP6 E2M3 (finite only), max 7.5.
    Fp6E2m3,
    /// OCP FP4 E2M1 (finite only), max 6.
    Fp4E2m1,
    /// OCP E8M0: an unsigned power of two from 2^-127 to 2^127 (the MX shared scale).
    E8m0,
    /// Unsigned E4M3: the non-negative half of E4M3, NVFP4's block scale.
    Ue4m3,
    /// bfloat16.
    Bf16,
    /// IEEE 754 binary16.
    Fp16,
}

/// What encoding does with a finite value beyond the format's largest finite value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// A plain cast, as `ml_dtypes` and the specifications define it (infinity, NaN or
    /// saturation, by format).
    Cast,
    /// Clamp to the largest finite value of the same sign.
    Saturate,
}

/// Which codes are reserved for infinities and NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Specials {
    /// The all-ones exponent holds infinity (mantissa 0) and NaN.
    Ieee,
    /// Only the all-ones code (per sign) is NaN; there is no infinity.
    NanOnly,
    /// Every code is a finite number.
    FiniteOnly,
}

/// The bit layout of a sign-exponent-mantissa format.
#[derive(Clone, Copy, Debug)]
struct Layout {
    exponent_bits: u32,
    mantissa_bits: u32,
    bias: i32,
    signed: bool,
    specials: Specials,
}

impl Layout {
    fn magnitude_bits(self) -> u32 {
        self.exponent_bits + self.mantissa_bits
    }

    fn sign_bit(self) -> u16 {
        if self.signed {
            1 << self.magnitude_bits()
        } else {
            0
        }
    }

    /// The largest magnitude code that is a finite number.
    fn max_finite(self) -> u32 {
        let all_ones = (1u32 << self.magnitude_bits()) - 1;
        match self.specials {
            Specials::Ieee => all_ones - (1 << self.mantissa_bits),
            Specials::NanOnly => all_ones - 1,
            Specials::FiniteOnly => all_ones,
        }
    }

    fn infinity(self) -> Option<u32> {
        (self.specials == Specials::Ieee)
            .then(|| ((1u32 << self.exponent_bits) - 1) << self.mantissa_bits)
    }

    /// The magnitude code a NaN input gets (the quiet NaN where there is one).
    fn nan(self) -> Option<u32> {
        match self.specials {
            Specials::Ieee => Some(self.infinity()? | (1 << (self.mantissa_bits - 1))),
            Specials::NanOnly => Some((1u32 << self.magnitude_bits()) - 1),
            Specials::FiniteOnly => None,
        }
    }
}

/// 2^k as `f64`, exact for every k a format here needs.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

impl Scalar {
    /// Every scalar format.
    pub const ALL: [Scalar; 9] = [
        Scalar::Fp8E4m3,
        Scalar::Fp8E5m2,
        Scalar::Fp6E3m2,
        Scalar::Fp6E2m3,
        Scalar::Fp4E2m1,
        Scalar::E8m0,
        Scalar::Ue4m3,
        Scalar::Bf16,
        Scalar::Fp16,
    ];

    /// The command-line name (`fp8-e4m3`, `e8m0`, `bf16`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Fp8E4m3 => "fp8-e4m3",
            Scalar::Fp8E5m2 => "fp8-e5m2",
            Scalar::Fp6E3m2 => "fp6-e3m2",
            Scalar::Fp6E2m3 => "fp6-e2m3",
            Scalar::Fp4E2m1 => "fp4-e2m1",
            Scalar::E8m0 => "e8m0",
            Scalar::Ue4m3 => "ue4m3",
            Scalar::Bf16 => "bf16",
            Scalar::Fp16 => "fp16",
        }
    }

    /// Bits per code.
    pub fn bits(self) -> u32 {
        let l = self.layout();
        l.magnitude_bits() + u32::from(l.signed)
    }

    fn layout(self) -> Layout {
        let (exponent_bits, mantissa_bits, bias, signed, specials) = match self {
            Scalar::Fp8E4m3 => (4, 3, 7, true, Specials::NanOnly),
            Scalar::Fp8E5m2 => (5, 2, 15, true, Specials::Ieee),
            Scalar::Fp6E3m2 => (3, 2, 3, true, Specials::FiniteOnly),
            Scalar::Fp6E2m3 => (2, 3, 1, true, Specials::FiniteOnly),
            Scalar::Fp4E2m1 => (2, 1, 1, true, Specials::FiniteOnly),
            // E8M0 is handled on its own (no zero, no subnormals); this layout only
            // gives its width.
            Scalar::E8m0 => (8, 0, 127, false, Specials::NanOnly),
            Scalar::Ue4m3 => (4, 3, 7, false, Specials::NanOnly),
            Scalar::Bf16 => (8, 7, 127, true, Specials::Ieee),
            Scalar::Fp16 => (5, 10, 15, true, Specials::Ieee),
        };
        Layout {
            exponent_bits,
            mantissa_bits,
            bias,
            signed,
            specials,
        }
    }

    /// The largest finite value.
    pub fn max(self) -> f32 {
        match self {
            Scalar::E8m0 => self.decode(0xfe),
            _ => self.decode(self.layout().max_finite() as u16),
        }
    }

    /// The code of `x`, rounded to nearest (ties to even).
    pub fn encode(self, x: f32, overflow: Overflow) -> u16 {
        if self == Scalar::E8m0 {
            return encode_e8m0(x);
        }
        let l = self.layout();
        let bits = x.to_bits();
        let negative = bits >> 31 == 1;
        let abs = bits & 0x7fff_ffff;
        let sign = if negative { l.sign_bit() } else { 0 };
        if abs > 0x7f80_0000 {
            // NaN: the format's NaN, or (FP6/FP4, which have none) a zero whose sign
            // bit is the NaN's inverted, as ml_dtypes does.
            return l.nan().map_or(l.sign_bit() ^ sign, |nan| sign | nan as u16);
        }
        if negative && !l.signed && abs != 0 {
            return l.nan().unwrap_or(0) as u16;
        }
        let shift = 23 - l.mantissa_bits;
        // f32 biased exponent of the format's smallest normal number.
        let min_normal = (128 - l.bias) as u32;
        let magnitude = if abs >> 23 >= min_normal {
            // Round to nearest even on the bit pattern; a carry moves into the exponent.
            let rounded = abs + ((1 << (shift - 1)) - 1) + ((abs >> shift) & 1);
            let exponent = (rounded >> 23) - min_normal + 1;
            (exponent << l.mantissa_bits) | ((rounded >> shift) & ((1 << l.mantissa_bits) - 1))
        } else {
            // Subnormal (or zero) in the target: count quanta of its smallest subnormal.
            // A count of 2^mantissa_bits is, as a code, the smallest normal.
            let quanta = f64::from(f32::from_bits(abs)) * pow2(l.bias - 1 + l.mantissa_bits as i32);
            quanta.round_ties_even() as u32
        };
        if magnitude <= l.max_finite() {
            return sign | magnitude as u16;
        }
        let overflowed = match overflow {
            Overflow::Saturate => l.max_finite(),
            Overflow::Cast => l.infinity().or(l.nan()).unwrap_or(l.max_finite()),
        };
        sign | overflowed as u16
    }

    /// The value of `code` (only its low [`Scalar::bits`] bits are read).
    pub fn decode(self, code: u16) -> f32 {
        let l = self.layout();
        let code = u32::from(code) & ((1 << self.bits()) - 1);
        if self == Scalar::E8m0 {
            return if code == 0xff {
                f32::NAN
            } else {
                pow2(code as i32 - 127) as f32
            };
        }
        let magnitude = code & ((1 << l.magnitude_bits()) - 1);
        let sign = if code >> l.magnitude_bits() == 1 {
            -1.0
        } else {
            1.0
        };
        if Some(magnitude) == l.nan()
            || (l.specials == Specials::Ieee && magnitude > l.max_finite())
        {
            return if Some(magnitude) == l.infinity() {
                sign as f32 * f32::INFINITY
            } else {
                f32::NAN
            };
        }
        let exponent = (magnitude >> l.mantissa_bits) as i32;
        let mantissa = magnitude & ((1 << l.mantissa_bits) - 1);
        let value = if exponent == 0 {
            f64::from(mantissa) * pow2(1 - l.bias - l.mantissa_bits as i32)
        } else {
            f64::from(mantissa + (1 << l.mantissa_bits))
                * pow2(exponent - l.bias - l.mantissa_bits as i32)
        };
        (sign * value) as f32
    }

    /// `x` rounded to the nearest value of the format.
    pub fn round(self, x: f32, overflow: Overflow) -> f32 {
        self.decode(self.encode(x, overflow))
    }
}

/// E8M0 rounds to the nearest power of two, ties upward; zero, negatives and NaN are NaN.
fn encode_e8m0(x: f32) -> u16 {
    const NAN: u16 = 0xff;
    if x.is_nan() || x <= 0.0 {
        return NAN;
    }
    let bits = x.to_bits();
    if bits >= 0x7f80_0000 {
        return NAN;
    }
    if bits < 0x0080_0000 {
        // f32 subnormals: up to 2^-127 give code 0, anything above it 2^-126 (ml_dtypes
        // rounds up there rather than to nearest).
        return u16::from(bits > 0x0040_0000);
    }
    // A mantissa of 1.5 or more rounds up to the next power of two.
    let exponent = (bits + 0x0040_0000) >> 23;
    if exponent > 0xfe {
        NAN
    } else {
        exponent as u16
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scalar {
    type Err = ModelError;

    fn from_str(s: &str) -> Result<Scalar, ModelError> {
        let name = s.trim().to_ascii_lowercase();
        Scalar::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or(ModelError::UnknownFormat(name))
    }
}
