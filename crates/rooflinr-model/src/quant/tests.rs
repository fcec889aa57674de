//! Codecs against test vectors made with `ml_dtypes` (see `test_data/ml_dtypes/`).

use super::scalar::{Overflow, Scalar};

/// The vector file of each scalar format the `ml_dtypes` package has.
fn vectors(format: Scalar) -> &'static str {
    match format {
        Scalar::Fp8E4m3 => include_str!("../../test_data/ml_dtypes/fp8-e4m3.txt"),
        Scalar::Fp8E5m2 => include_str!("../../test_data/ml_dtypes/fp8-e5m2.txt"),
        Scalar::Fp6E3m2 => include_str!("../../test_data/ml_dtypes/fp6-e3m2.txt"),
        Scalar::Fp6E2m3 => include_str!("../../test_data/ml_dtypes/fp6-e2m3.txt"),
        Scalar::Fp4E2m1 => include_str!("../../test_data/ml_dtypes/fp4-e2m1.txt"),
        Scalar::E8m0 => include_str!("../../test_data/ml_dtypes/e8m0.txt"),
        Scalar::Bf16 => include_str!("../../test_data/ml_dtypes/bf16.txt"),
        Scalar::Fp16 => include_str!("../../test_data/ml_dtypes/fp16.txt"),
        // UE4M3 is E4M3's non-negative half; it is checked against the E4M3 file.
        Scalar::Ue4m3 => include_str!("../../test_data/ml_dtypes/fp8-e4m3.txt"),
    }
}

/// One vector: `d CODE F32BITS` or `e F32BITS CODE`, hexadecimal.
enum Vector {
    Decode { code: u16, value: f32 },
    Encode { value: f32, code: u16 },
}

fn parse(format: Scalar) -> Vec<Vector> {
    let hex = |s: &str| u32::from_str_radix(s, 16).expect("hex in a vector file");
    vectors(format)
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            match fields[..] {
                ["d", code, value] => Vector::Decode {
                    code: hex(code) as u16,
                    value: f32::from_bits(hex(value)),
                },
                ["e", value, code] => Vector::Encode {
                    value: f32::from_bits(hex(value)),
                    code: hex(code) as u16,
                },
                _ => panic!("malformed vector line {line:?}"),
            }
        })
        .collect()
}

#[test]
fn scalar_codecs_agree_bit_for_bit_with_ml_dtypes() {
    for format in Scalar::ALL {
        let vectors = parse(format);
        let (mut decodes, mut encodes, mut failures) = (0, 0, Vec::new());
        for v in &vectors {
            match *v {
                Vector::Decode { code, value } => {
                    if format == Scalar::Ue4m3 && code >= 0x80 {
                        continue;
                    }
                    decodes += 1;
                    let got = format.decode(code);
                    let same = got.to_bits() == value.to_bits() || (got.is_nan() && value.is_nan());
                    if !same {
                        failures.push(format!("decode {code:#x}: got {got:e}, want {value:e}"));
                    }
                }
                Vector::Encode { value, code } => {
                    if format == Scalar::Ue4m3 && value.is_sign_negative() {
                        continue;
                    }
                    encodes += 1;
                    let got = format.encode(value, Overflow::Cast);
                    if got != code {
                        failures.push(format!(
                            "encode {value:e} ({:#010x}): got {got:#x}, want {code:#x}",
                            value.to_bits()
                        ));
                    }
                }
            }
        }
        assert!(encodes > 1000, "{format}: only {encodes} encode vectors");
        if format.bits() <= 8 {
            assert_eq!(
                decodes,
                1 << format.bits(),
                "{format}: every code is decoded"
            );
        }
        assert!(
            failures.is_empty(),
            "{format}: {} of {} vectors differ, first: {:#?}",
            failures.len(),
            vectors.len(),
            &failures[..failures.len().min(8)]
        );
    }
}
