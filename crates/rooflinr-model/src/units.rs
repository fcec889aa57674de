//! Physical quantities as newtypes: bytes, FLOPs, seconds and the rates between them.
//!
//! Arithmetic exists only where the units work out (`Bytes / BytesPerSecond = Seconds`,
//! `Flops / Bytes = FlopsPerByte`, ...). `Display` prints SI prefixes (decimal, as
//! datasheets do: 1 GB/s = 1e9 B/s).

use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, Sub};

/// Decimal SI prefixes from exa to pico, largest first.
const SI_PREFIXES: [(f64, &str); 11] = [
    (1e18, "E"),
    (1e15, "P"),
    (1e12, "T"),
    (1e9, "G"),
    (1e6, "M"),
    (1e3, "k"),
    (1.0, ""),
    (1e-3, "m"),
    (1e-6, "µ"),
    (1e-9, "n"),
    (1e-12, "p"),
];

/// The SI prefix a magnitude reads with, as (scale, prefix): the largest whose scale it
/// reaches, allowing `rounding` (the fraction below the scale that rounds up to it);
/// pico for anything smaller.
pub fn si_prefix(magnitude: f64, rounding: f64) -> (f64, &'static str) {
    SI_PREFIXES
        .iter()
        .copied()
        .find(|(scale, _)| magnitude >= *scale * (1.0 - rounding))
        .unwrap_or((1e-12, "p"))
}

/// Formats `value` with a decimal SI prefix and `unit`, e.g. `33.55 MB`.
///
/// Three significant figures, or more when the integer part needs them. A value with no
/// finite figure (the time of a computation a chip has no published rate for) reads `n/a`,
/// never `inf s`.
pub fn si(value: f64, unit: &str) -> String {
    if !value.is_finite() {
        return "n/a".into();
    }
    if value == 0.0 {
        return format!("0 {unit}");
    }
    // 0.9995 of a scale prints as 1.00 of it.
    let (scale, prefix) = si_prefix(value.abs(), 5e-4);
    let scaled = value / scale;
    let decimals = match scaled.abs() {
        x if x >= 99.95 => 0,
        x if x >= 9.995 => 1,
        _ => 2,
    };
    format!("{scaled:.decimals$} {prefix}{unit}")
}

/// Formats `value` rounded to a whole number with its thousands grouped by commas, e.g.
/// `331,202`; `n/a` where it has no finite value, as in [`si`].
pub fn grouped(value: f64) -> String {
    if !value.is_finite() {
        return "n/a".into();
    }
    let whole = value.round();
    let digits = format!("{:.0}", whole.abs());
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if whole < 0.0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

macro_rules! quantity {
    ($(#[$doc:meta])* $name:ident, $unit:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
        pub struct $name(pub f64);

        impl $name {
            /// The zero quantity.
            pub const ZERO: Self = Self(0.0);

            /// The raw value in base units.
            pub fn get(self) -> f64 {
                self.0
            }
        }

        impl Add for $name {
            type Output = Self;
            fn add(self, rhs: Self) -> Self {
                Self(self.0 + rhs.0)
            }
        }

        impl AddAssign for $name {
            fn add_assign(&mut self, rhs: Self) {
                self.0 += rhs.0;
            }
        }

        impl Sub for $name {
            type Output = Self;
            fn sub(self, rhs: Self) -> Self {
                Self(self.0 - rhs.0)
            }
        }

        /// Scaling by a dimensionless count.
        impl Mul<f64> for $name {
            type Output = Self;
            fn mul(self, rhs: f64) -> Self {
                Self(self.0 * rhs)
            }
        }

        /// The dimensionless ratio of two quantities of the same kind.
        impl Div for $name {
            type Output = f64;
            fn div(self, rhs: Self) -> f64 {
                self.0 / rhs.0
            }
        }

        impl std::iter::Sum for $name {
            fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
                Self(iter.map(|q| q.0).sum())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&si(self.0, $unit))
            }
        }
    };
}

quantity!(
    /// An amount of memory traffic or storage, in bytes (may be fractional: 4.5-bit formats).
    Bytes,
    "B"
);
quantity!(
    /// A number of floating-point (or integer multiply-add) operations; one FMA is two.
    Flops,
    "FLOP"
);
quantity!(
    /// A duration in seconds.
    Seconds,
    "s"
);
quantity!(
    /// A memory bandwidth in bytes per second.
    BytesPerSecond,
    "B/s"
);
quantity!(
    /// A compute rate in operations per second.
    FlopsPerSecond,
    "FLOP/s"
);
quantity!(
    /// Arithmetic intensity: operations per byte of memory traffic.
    FlopsPerByte,
    "FLOP/B"
);

impl Bytes {
    /// `n` gigabytes (1e9 bytes).
    pub const fn gb(n: f64) -> Self {
        Self(n * 1e9)
    }
    /// `n` gibibytes (2^30 bytes), as memory capacities are usually sold.
    pub const fn gib(n: f64) -> Self {
        Self(n * 1024.0 * 1024.0 * 1024.0)
    }
    /// `n` mebibytes (2^20 bytes), as cache sizes are given.
    pub const fn mib(n: f64) -> Self {
        Self(n * 1024.0 * 1024.0)
    }
    /// From a number of bits.
    pub fn from_bits(bits: f64) -> Self {
        Self(bits / 8.0)
    }
}

impl BytesPerSecond {
    /// `n` GB/s.
    pub const fn gb_s(n: f64) -> Self {
        Self(n * 1e9)
    }
    /// `n` TB/s.
    pub const fn tb_s(n: f64) -> Self {
        Self(n * 1e12)
    }
}

impl FlopsPerSecond {
    /// `n` TFLOP/s.
    pub const fn tflops(n: f64) -> Self {
        Self(n * 1e12)
    }
    /// The value in TFLOP/s.
    pub fn as_tflops(self) -> f64 {
        self.0 / 1e12
    }
}

impl Seconds {
    /// The value in microseconds.
    pub fn as_micros(self) -> f64 {
        self.0 * 1e6
    }
    /// The value in milliseconds.
    pub fn as_millis(self) -> f64 {
        self.0 * 1e3
    }
}

impl Div<BytesPerSecond> for Bytes {
    type Output = Seconds;
    fn div(self, rhs: BytesPerSecond) -> Seconds {
        Seconds(self.0 / rhs.0)
    }
}

impl Div<FlopsPerSecond> for Flops {
    type Output = Seconds;
    fn div(self, rhs: FlopsPerSecond) -> Seconds {
        Seconds(self.0 / rhs.0)
    }
}

impl Div<Bytes> for Flops {
    type Output = FlopsPerByte;
    fn div(self, rhs: Bytes) -> FlopsPerByte {
        FlopsPerByte(self.0 / rhs.0)
    }
}

impl Div<Seconds> for Flops {
    type Output = FlopsPerSecond;
    fn div(self, rhs: Seconds) -> FlopsPerSecond {
        FlopsPerSecond(self.0 / rhs.0)
    }
}

impl Div<Seconds> for Bytes {
    type Output = BytesPerSecond;
    fn div(self, rhs: Seconds) -> BytesPerSecond {
        BytesPerSecond(self.0 / rhs.0)
    }
}

impl Div<BytesPerSecond> for FlopsPerSecond {
    type Output = FlopsPerByte;
    fn div(self, rhs: BytesPerSecond) -> FlopsPerByte {
        FlopsPerByte(self.0 / rhs.0)
    }
}

impl Mul<BytesPerSecond> for FlopsPerByte {
    type Output = FlopsPerSecond;
    fn mul(self, rhs: BytesPerSecond) -> FlopsPerSecond {
        FlopsPerSecond(self.0 * rhs.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(value: f64, unit: &str, expected: &str) {
        assert_eq!(si(value, unit), expected);
    }

    #[test]
    fn grouped_rounds_to_a_whole_number_and_groups_its_thousands() {
        assert_eq!(grouped(331_201.6), "331,202");
        assert_eq!(grouped(999.4), "999");
        assert_eq!(grouped(1000.0), "1,000");
        assert_eq!(grouped(1_234_567_890.0), "1,234,567,890");
        assert_eq!(grouped(-4096.0), "-4,096");
        assert_eq!(grouped(0.2), "0");
        assert_eq!(grouped(f64::INFINITY), "n/a");
        assert_eq!(grouped(f64::NAN), "n/a");
    }

    #[test]
    fn si_prefixes() {
        check(0.0, "B", "0 B");
        check(33_570_816.0, "B", "33.6 MB");
        check(3.35e12, "B/s", "3.35 TB/s");
        check(989.4e12, "FLOP/s", "989 TFLOP/s");
        check(33.57e-6, "s", "33.6 µs");
        check(1.0, "FLOP/B", "1.00 FLOP/B");
        check(999.9e9, "B/s", "1.00 TB/s");
        check(-2.5e-3, "s", "-2.50 ms");
        // One prefix table for the whole product (the chart's ticks too), down to pico.
        check(3e-10, "s", "300 ps");
        check(4.2e-9, "s", "4.20 ns");
        // No finite figure: the time of FP64 work on a part with no published FP64 rate.
        check(f64::INFINITY, "s", "n/a");
        check(f64::NAN, "FLOP/s", "n/a");
    }

    #[test]
    fn units_combine() {
        let t = Bytes(2e9) / BytesPerSecond::gb_s(1000.0);
        assert_eq!(t, Seconds(2e-3));
        let ai = Flops(8.0) / Bytes(2.0);
        assert_eq!(ai, FlopsPerByte(4.0));
        let ridge = FlopsPerSecond::tflops(200.0) / BytesPerSecond::gb_s(1000.0);
        assert_eq!(ridge, FlopsPerByte(200.0));
        assert_eq!(ridge * BytesPerSecond::gb_s(1000.0), FlopsPerSecond(2e14));
    }
}
