//! Tests for the format catalogue: every format's bits, names and compute type.

use super::*;

#[track_caller]
fn check_bits(name: &str, bits_per_element: f64) {
    let format: Format = name.parse().unwrap();
    assert_eq!(format.name(), name, "canonical name round trip");
    assert!(
        (format.bits_per_element() - bits_per_element).abs() < 1e-12,
        "{name}: {} bits, expected {bits_per_element}",
        format.bits_per_element()
    );
}

#[test]
fn every_catalogue_format_has_exact_bits() {
    // (name, bits per element with per-tensor scales amortised away)
    let table = [
        ("fp64", 64.0),
        ("fp32", 32.0),
        ("tf32", 32.0),
        ("bf16", 16.0),
        ("fp16", 16.0),
        ("fp8-e4m3", 8.0),
        ("fp8-e5m2", 8.0),
        ("int8", 8.0),
        ("int4", 4.0),
        ("int2", 2.0),
        ("mxfp8-e4m3", 8.25),
        ("mxfp8-e5m2", 8.25),
        ("mxfp6-e3m2", 6.25),
        ("mxfp6-e2m3", 6.25),
        ("mxfp4", 4.25),
        ("mxint8", 8.25),
        ("nvfp4", 4.5),
        ("nf4", 4.5),
        ("nf4-dq", 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)),
        ("int4-g128-fp16-zp", 4.0 + 20.0 / 128.0),
        ("int4-g128-fp16", 4.0 + 16.0 / 128.0),
        ("int8-g64-bf16-zp-fp16", 8.0 + 32.0 / 64.0),
        ("int3-g32-fp32", 3.0 + 1.0),
    ];
    for (name, bits) in table {
        check_bits(name, bits);
    }
    assert_eq!(Format::CATALOGUE.len(), table.len() - 3);
}

#[test]
fn nvfp4_tensor_scale_is_amortised_over_the_tensor() {
    // 4096 x 4096 weights: 16 Mi values, 1 Mi UE4M3 scales, one FP32 tensor scale.
    let n = 4096.0 * 4096.0;
    let bytes = Format::NvFp4.tensor_bytes(n).get();
    assert_eq!(bytes, n / 2.0 + n / 16.0 + 4.0);
    // The prototype's 0.566 bytes per element would be 9,496,346 bytes here.
    assert!(bytes < 0.566 * n);
}

#[test]
fn block_scales_round_up() {
    // 33 values need two MX blocks.
    assert_eq!(
        Format::MxFp4.tensor_bytes(33.0).get(),
        (33.0 * 4.0 + 16.0) / 8.0
    );
    assert_eq!(Format::Fp16.tensor_bytes(0.0).get(), 0.0);
    assert_eq!(Format::Fp16.tensor_bytes(-3.0).get(), 0.0);
}

#[test]
fn names_and_aliases() {
    assert_eq!("FP8".parse::<Format>().unwrap(), Format::Fp8E4m3);
    assert_eq!(
        "awq".parse::<Format>().unwrap(),
        Format::Grouped(GroupedInt::AWQ_INT4)
    );
    assert_eq!(" NVFP4 ".parse::<Format>().unwrap(), Format::NvFp4);
    // Underscores read as hyphens: the HTTP API's and the agent's records' spellings.
    assert_eq!("FP8_E4M3".parse::<Format>().unwrap(), Format::Fp8E4m3);
    assert_eq!(
        "int4_g128".parse::<Format>().unwrap(),
        "int4-g128".parse::<Format>().unwrap()
    );
    for bad in [
        "fp7",
        "int9-g128",
        "int4-g0",
        "int4-g128-fp16-zp-e9",
        "int4-g128-xx",
        "",
    ] {
        let err = bad.parse::<Format>().unwrap_err();
        assert_eq!(
            err,
            ModelError::UnknownFormat(bad.trim().to_string()),
            "{bad}"
        );
    }
}

#[test]
fn product_math_takes_the_wider_operand() {
    let table = [
        (
            Format::Fp16,
            Format::Grouped(GroupedInt::AWQ_INT4),
            Math::Fp16,
        ),
        (Format::Fp16, Format::Fp8E4m3, Math::Fp16),
        (Format::Fp8E4m3, Format::Fp8E4m3, Math::Fp8),
        (Format::Fp8E4m3, Format::NvFp4, Math::Fp8),
        (Format::NvFp4, Format::NvFp4, Math::Fp4),
        (Format::Int8, Format::Int8, Math::Int8),
        (Format::Int8, Format::Int4, Math::Int8),
        (Format::Bf16, Format::Nf4, Math::Bf16),
        (Format::Fp32, Format::Fp16, Math::Fp32),
    ];
    for (a, w, math) in table {
        assert_eq!(product_math(a, w), math, "{a} x {w}");
    }
    assert!(product_is_block_scaled(Format::NvFp4, Format::NvFp4));
    assert!(!product_is_block_scaled(Format::Fp16, Format::NvFp4));
    assert!(product_is_block_scaled(Format::Fp8E4m3, Format::MxFp8E4m3));
}

/// Formats travel by name: every catalogue format and a grouped one come back as they went,
/// the parser's spellings are read, and an unknown name is an error naming it.
#[test]
fn formats_travel_as_their_names() {
    for f in Format::CATALOGUE
        .iter()
        .copied()
        .chain(["int3-g64-bf16-zp".parse::<Format>().unwrap()])
    {
        let text = serde_json::to_string(&f).unwrap();
        assert_eq!(text, format!("\"{}\"", f.name()));
        assert_eq!(serde_json::from_str::<Format>(&text).unwrap(), f);
    }
    assert_eq!(
        serde_json::from_str::<Format>("\"FP8_E4M3\"").unwrap(),
        Format::Fp8E4m3
    );
    let err = serde_json::from_str::<Format>("\"fp7\"")
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown format `fp7`"), "{err}");
    assert!(serde_json::from_str::<Format>("7").is_err());
}
