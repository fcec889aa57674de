//! Colours of the chart, as explicit values (not CSS variables) so that an exported SVG or
//! PNG looks exactly like the screen. Series colours come from a fixed order, so a format
//! keeps its colour when others are hidden.

use rooflinr_model::format::{Format, Math};

use super::geometry::Shape;
use super::roofs::{Roof, RoofSource};

/// Formats with a colour of their own, in palette order.
const PREFERRED: [&str; 10] = [
    "fp16",
    "nvfp4",
    "fp8-e4m3",
    "int8",
    "mxfp4",
    "bf16",
    "int4-g128-fp16-zp",
    "mxfp8-e4m3",
    "fp32",
    "nf4",
];

/// A format's place in the palette: its position among the preferred formats, else in the
/// catalogue (names outside both hash to one).
fn format_index(name: &str) -> usize {
    PREFERRED
        .iter()
        .position(|f| *f == name)
        .unwrap_or_else(|| {
            Format::CATALOGUE
                .iter()
                .position(|f| f.name() == name)
                .unwrap_or_else(|| name.bytes().map(usize::from).sum())
        })
}

/// The marker shape of a format's points: the second channel beside colour. Formats that
/// share a shape have colours from opposite ends of the palette.
pub fn format_shape(name: &str) -> Shape {
    Shape::ALL[format_index(name) % Shape::ALL.len()]
}

/// Colour of measured figures (the measured roofline, NVIDIA's serving runs), on either
/// theme.
pub const MEASURED: &str = "#059669";

/// Colours of one theme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Chart background.
    pub background: &'static str,
    /// Axis lines and tick labels.
    pub ink: &'static str,
    /// Secondary text.
    pub muted: &'static str,
    /// Grid lines.
    pub grid: &'static str,
    /// The memory roof.
    pub memory: &'static str,
    /// Colours of the format series.
    pub series: [&'static str; 10],
}

/// The light theme. Series colours: Okabe and Ito's colour-blind-safe set ("Color
/// Universal Design", 2008), darkened where needed to 3:1 against white (WCAG 1.4.11), with
/// Paul Tol's indigo, olive and wine for the formats beyond it.
pub const LIGHT: Palette = Palette {
    background: "#ffffff",
    ink: "#1d2330",
    muted: "#5b6477",
    grid: "#e6e9ef",
    memory: "#1d2330",
    series: [
        "#0072b2", "#d55e00", "#007d5c", "#a86b00", "#b4528a", "#332288", "#5a8a00", "#882255",
        "#0096c7", "#555555",
    ],
};

/// The dark theme. Series colours: Okabe and Ito's set as published, and Paul Tol's light
/// blue, sand and teal, each at least 4.5:1 against the background.
pub const DARK: Palette = Palette {
    background: "#11151c",
    ink: "#e6e9ef",
    muted: "#9aa3b5",
    grid: "#252c38",
    memory: "#e6e9ef",
    series: [
        "#56b4e9", "#e69f00", "#009e73", "#f0e442", "#cc79a7", "#d55e00", "#88ccee", "#ddcc77",
        "#44aa99", "#bbbbbb",
    ],
};

impl Palette {
    /// The colour of a format's points: the ten most used formats each have their own;
    /// the rest share by catalogue position. Stable whatever else is shown.
    pub fn format(&self, name: &str) -> &'static str {
        self.series[format_index(name) % self.series.len()]
    }

    /// The colour of a compute roof: by operation type.
    pub fn roof(&self, math: Math) -> &'static str {
        let index = Math::ALL.iter().position(|m| *m == math).unwrap_or(0);
        self.series[(index * 3 + 1) % self.series.len()]
    }

    /// The colour of a drawn roof line and of its label: a ceiling takes its roof's
    /// operation type's; a memory slope is ink, or the measured colour.
    pub fn line(&self, roofs: &[Roof], roof: Option<usize>, source: RoofSource) -> &'static str {
        match roof {
            Some(i) => self.roof(roofs[i].math),
            None if source == RoofSource::Measured => MEASURED,
            None => self.memory,
        }
    }
}

/// WCAG 2 relative luminance of a `#rrggbb` colour (0 for anything else).
fn luminance(hex: &str) -> f64 {
    let channel = |i: usize| {
        let v = hex
            .get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .map_or(0.0, |b| f64::from(b) / 255.0);
        // sRGB to linear light (WCAG 2.x, "relative luminance").
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    if hex.len() != 7 || !hex.starts_with('#') {
        return 0.0;
    }
    0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/// WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21).
pub fn contrast(a: &str, b: &str) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Black or white text, whichever reads better on `background` (at least 4.5:1 for any
/// colour, since no luminance is far from both).
pub fn text_on(background: &str) -> &'static str {
    const WHITE: &str = "#ffffff";
    const BLACK: &str = "#000000";
    if contrast(WHITE, background) >= contrast(BLACK, background) {
        WHITE
    } else {
        BLACK
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))] // native only: proptest needs an OS RNG
mod tests {
    use super::*;

    #[test]
    fn series_stand_out_from_the_background_and_formats_differ_in_shape_too() {
        for p in [LIGHT, DARK] {
            for c in p.series {
                // WCAG 1.4.11: graphical objects at 3:1 or more against what is behind them.
                assert!(contrast(c, p.background) >= 3.0, "{c} on {}", p.background);
            }
        }
        // The ten preferred formats: each (colour, shape) pair once; formats sharing a
        // shape never share a colour.
        let pairs: std::collections::BTreeSet<(&str, String)> = PREFERRED
            .iter()
            .map(|f| (LIGHT.format(f), format!("{:?}", format_shape(f))))
            .collect();
        assert_eq!(pairs.len(), PREFERRED.len());
        assert_ne!(format_shape("fp16"), format_shape("nvfp4"));
        assert_ne!(format_shape("fp8-e4m3"), format_shape("int8"));
    }

    #[test]
    fn text_on_any_series_colour_meets_wcag_aa() {
        // WCAG's own examples: black on white is 21:1, a colour on itself 1:1.
        assert!((contrast("#000000", "#ffffff") - 21.0).abs() < 1e-9);
        assert!((contrast("#2563eb", "#2563eb") - 1.0).abs() < 1e-9);
        for p in [LIGHT, DARK] {
            for c in p.series.iter().chain([&p.muted]) {
                let ratio = contrast(text_on(c), c);
                assert!(ratio >= 4.5, "{} on {c}: {ratio:.2}", text_on(c));
            }
        }
    }

    #[test]
    fn colours_are_stable_and_distinct_for_common_formats() {
        for p in [LIGHT, DARK] {
            assert_eq!(p.format("nvfp4"), p.format("nvfp4"));
            let common = PREFERRED;
            let colours: std::collections::BTreeSet<_> =
                common.iter().map(|f| p.format(f)).collect();
            assert_eq!(colours.len(), common.len(), "{colours:?}");
            // Unknown names still get a colour.
            assert!(p.format("int3-g64").starts_with('#'));
            assert!(p.roof(Math::Fp8).starts_with('#'));
        }
    }
}
