//! Colours of the chart, as explicit values (not CSS variables) so that an exported SVG or
//! PNG looks exactly like the screen. Series colours come from a fixed order, so a format
//! keeps its colour when others are hidden.

use rooflinr_model::format::{Format, Math};

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

/// The light theme.
pub const LIGHT: Palette = Palette {
    background: "#ffffff",
    ink: "#1d2330",
    muted: "#5b6477",
    grid: "#e6e9ef",
    memory: "#1d2330",
    series: [
        "#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#db2777", "#0891b2", "#65a30d",
        "#ea580c", "#4b5563",
    ],
};

/// The dark theme.
pub const DARK: Palette = Palette {
    background: "#11151c",
    ink: "#e6e9ef",
    muted: "#9aa3b5",
    grid: "#252c38",
    memory: "#e6e9ef",
    series: [
        "#60a5fa", "#f87171", "#34d399", "#fbbf24", "#a78bfa", "#f472b6", "#22d3ee", "#a3e635",
        "#fb923c", "#9ca3af",
    ],
};

impl Palette {
    /// The colour of a format's points: the ten most used formats each have their own;
    /// the rest share by catalogue position. Stable whatever else is shown.
    pub fn format(&self, name: &str) -> &'static str {
        let index = PREFERRED
            .iter()
            .position(|f| *f == name)
            .unwrap_or_else(|| {
                Format::CATALOGUE
                    .iter()
                    .position(|f| f.name() == name)
                    .unwrap_or_else(|| name.bytes().map(usize::from).sum())
            });
        self.series[index % self.series.len()]
    }

    /// The colour of a compute roof: by operation type.
    pub fn roof(&self, math: &str) -> &'static str {
        let index = Math::ALL.iter().position(|m| m.name() == math).unwrap_or(0);
        self.series[(index * 3 + 1) % self.series.len()]
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
            assert!(p.roof("fp8").starts_with('#'));
        }
    }
}
