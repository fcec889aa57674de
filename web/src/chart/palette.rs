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

#[cfg(all(test, not(target_arch = "wasm32")))] // native only: proptest needs an OS RNG
mod tests {
    use super::*;

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
