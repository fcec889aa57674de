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

mod codecs {
    use super::super::codec::{Codec, NF4_LEVELS, fp4_encode};
    use super::super::quality::{ErrorStats, Synthetic, read_safetensors, survey};
    use super::super::scalar::{Overflow, Scalar};
    use crate::error::ModelError;
    use crate::format::Format;

    fn codec(name: &str) -> Codec {
        name.parse().expect("a codec name")
    }

    #[track_caller]
    fn check(name: &str, values: &[f32], cols: usize, expected: &[f32]) {
        let got = codec(name).round_trip(values, cols).expect("quantises");
        let close = got.len() == expected.len()
            && got
                .iter()
                .zip(expected)
                .all(|(g, e)| (g - e).abs() <= 1e-6 * e.abs().max(1e-3));
        assert!(close, "{name}: got {got:?}, want {expected:?}");
    }

    #[test]
    fn fp4_fast_path_agrees_with_the_scalar_codec() {
        let mut x = -8.0f32;
        while x <= 8.0 {
            let neighbours = [x.to_bits() + 1, x.to_bits().wrapping_sub(1)].map(f32::from_bits);
            for v in [x].into_iter().chain(neighbours).filter(|v| v.is_finite()) {
                assert_eq!(
                    u16::from(fp4_encode(v)),
                    Scalar::Fp4E2m1.encode(v, Overflow::Saturate),
                    "{v:e}"
                );
            }
            x += 1.0 / 64.0;
        }
    }

    #[test]
    fn packed_storage_is_what_the_format_catalogue_counts() {
        // 16 x 4096: whole blocks and groups of every format, and four NF4 second-level
        // blocks of 256 x 64.
        let values = Synthetic::Gaussian.generate(16, 4096, 1);
        for (format, codec) in Codec::catalogue() {
            let q = codec.quantize(&values, 4096).expect("quantises");
            assert_eq!(
                q.storage_bytes() as f64,
                format.tensor_bytes(values.len() as f64).get(),
                "{format}"
            );
            assert_eq!(
                codec.name().parse::<Codec>(),
                Ok(codec),
                "{format} name round trip"
            );
        }
    }

    #[test]
    fn mx_scales_follow_the_ocp_rule_and_saturate() {
        // absmax 5: floor(log2 5) = 2 = emax(E2M1), so the scale is 2^0; 5 is a tie
        // between 4 and 6 and goes to the even code (4); 0.3 rounds to 0.5.
        check("mxfp4", &[5.0, 1.0, -0.3, 0.0], 4, &[4.0, 1.0, -0.5, 0.0]);
        // absmax 7.5 also gets scale 2^0, and clamps to the element maximum 6.
        check("mxfp4", &[7.5, -3.0], 2, &[6.0, -3.0]);
        // E4M3 elements (emax 8): absmax 1000 -> 2^(9 - 8) = 2: 1000/2 = 500 -> 448.
        check("mxfp8-e4m3", &[1000.0, 3.0], 2, &[896.0, 3.0]);
        // MXINT8: scale 2^(floor(log2 1.5) - 0) = 1, elements in steps of 1/64.
        check("mxint8", &[1.5, 0.01], 2, &[1.5, 1.0 / 64.0]);
        // Blocks run along rows: each row of 2 has its own scale.
        check("mxfp4", &[96.0, 1.0, 0.75, 0.5], 2, &[96.0, 0.0, 0.75, 0.5]);
    }

    #[test]
    fn nvfp4_uses_a_tensor_scale_and_ue4m3_block_scales() {
        // Tensor absmax 6: g = 6 / 2688. Block 1's scale is 6 / (6 g) = 448, exact in
        // UE4M3. Block 2 (absmax 0.9): 0.9 / (6 g) = 67.2 -> UE4M3 64, an effective
        // scale of 64 g = 1/7, so 0.9 / (1/7) = 6.3 saturates to 6 -> 6/7.
        let mut values = vec![0.0f32; 32];
        values[0] = 6.0;
        values[1] = 3.0;
        values[16] = 0.9;
        values[17] = -0.3;
        let g = 6.0f32 / 2688.0;
        let mut expected = vec![0.0f32; 32];
        expected[0] = 6.0 * 448.0 * g;
        expected[1] = 3.0 * 448.0 * g;
        expected[16] = 6.0 * 64.0 * g;
        expected[17] = -2.0 * 64.0 * g; // 0.3 * 7 = 2.1 -> 2
        check("nvfp4", &values, 32, &expected);
    }

    #[test]
    fn four_over_six_never_loses_to_plain_nvfp4() {
        for dist in Synthetic::ALL {
            let values = dist.generate(64, 256, 7);
            let result = survey(&values, 256, &[codec("nvfp4"), codec("nvfp4-4over6")]).unwrap();
            let (six, both) = (result[0].error.mse, result[1].error.mse);
            assert!(both <= six, "{}: 4/6 {both:e} vs 6 {six:e}", dist.name());
            assert!(both < six, "{}: 4/6 improves something", dist.name());
        }
    }

    #[test]
    fn nf4_picks_the_nearest_level_of_the_block_absmax() {
        // 1.0 / 2.0 = 0.5 lies below the midpoint of 0.4407 and 0.5626.
        check(
            "nf4",
            &[2.0, 1.0, -2.0, 0.0],
            4,
            &[2.0, 2.0 * NF4_LEVELS[12], -2.0, 0.0],
        );
    }

    #[test]
    fn grouped_integers_round_their_scale_to_the_stored_type() {
        // Range [-1, 2] over 15 steps: scale 0.2 stored as FP16; zero point 5.
        let s = Scalar::Fp16.round(0.2, Overflow::Saturate);
        let zero = (1.0 / s).round_ties_even();
        assert_eq!(zero, 5.0);
        let q = |v: f32| ((v / s).round_ties_even() + zero).clamp(0.0, 15.0);
        let expected: Vec<f32> = [-1.0f32, 0.0, 0.5, 2.0]
            .iter()
            .map(|v| (q(*v) - zero) * s)
            .collect();
        check("int4-g4-fp16-zp", &[-1.0, 0.0, 0.5, 2.0], 4, &expected);
        // Symmetric INT8 per tensor: scale 2/127.
        let s = 2.0f32 / 127.0;
        check(
            "int8",
            &[2.0, -1.0],
            2,
            &[2.0, (-1.0f32 / s).round_ties_even() * s],
        );
    }

    #[test]
    fn element_codes_pack_low_nibble_first() {
        let q = codec("mxfp4").quantize(&[0.5, 1.0, 1.5, 6.0], 4).unwrap();
        // Scale 2^(2 - 2) = 1: codes 1, 2, 3, 7.
        assert_eq!(q.elements, vec![0x21, 0x73]);
        assert_eq!(q.scales, vec![127]);
        // Four FP6 E2M3 codes fill three bytes: 1.0 is 0b001000.
        let q = codec("mxfp6-e2m3").quantize(&[1.0; 4], 4).unwrap();
        assert_eq!(q.elements.len(), 3);
        assert_eq!(q.dequantize(), vec![1.0; 4]);
    }

    #[test]
    fn more_bits_measure_as_less_error() {
        let values = Synthetic::Gaussian.generate(64, 1024, 3);
        // (MXFP6 E2M3 keeps as many mantissa bits as MXFP8 E4M3 and measures about as
        // well on a Gaussian; E3M2 gives one up.)
        let names = [
            "fp32",
            "fp16",
            "bf16",
            "mxfp8-e4m3",
            "mxfp6-e3m2",
            "nvfp4",
            "mxfp4",
            "int2",
        ];
        let codecs: Vec<Codec> = names.iter().map(|n| codec(n)).collect();
        let result = survey(&values, 1024, &codecs).unwrap();
        assert_eq!(result[0].error.sqnr_db, f64::INFINITY);
        for pair in result.windows(2) {
            assert!(
                pair[0].error.sqnr_db > pair[1].error.sqnr_db,
                "{} ({:.1} dB) should beat {} ({:.1} dB)",
                pair[0].codec,
                pair[0].error.sqnr_db,
                pair[1].codec,
                pair[1].error.sqnr_db
            );
        }
    }

    #[test]
    fn groups_contain_outlier_channels_that_a_tensor_scale_cannot() {
        let values = Synthetic::OutlierChannels.generate(64, 1024, 5);
        let result = survey(&values, 1024, &[codec("int4"), codec("int4-g128")]).unwrap();
        assert!(
            result[1].error.sqnr_db > result[0].error.sqnr_db + 3.0,
            "{result:?}"
        );
    }

    #[test]
    fn error_stats_of_a_known_pair() {
        let e = ErrorStats::between(&[3.0, 4.0], &[3.0, 3.0]);
        assert_eq!(e.mse, 0.5);
        assert_eq!(e.max_abs, 1.0);
        assert!((e.sqnr_db - 10.0 * 25f64.log10()).abs() < 1e-12);
        assert!((e.cosine - 21.0 / (5.0 * 18f64.sqrt())).abs() < 1e-12);
    }

    #[test]
    fn bad_input_is_refused_with_its_position() {
        let err = codec("nvfp4").quantize(&[1.0, f32::NAN], 2).unwrap_err();
        assert_eq!(
            err.to_string(),
            "field `values[1]`: NaN cannot be quantised with a scale"
        );
        let err = codec("mxfp4").quantize(&[1.0, 2.0, 3.0], 2).unwrap_err();
        assert!(
            err.to_string().contains("do not make whole rows of 2"),
            "{err}"
        );
        assert_eq!(
            "int9-channel".parse::<Codec>(),
            Err(ModelError::invalid("bits", "9 is not 2 to 8"))
        );
        assert_eq!(
            "fp5".parse::<Codec>(),
            Err(ModelError::UnknownFormat("fp5".into()))
        );
        // A plain cast keeps NaN, as the scalar format defines.
        assert!(codec("bf16").round_trip(&[f32::NAN], 1).unwrap()[0].is_nan());
    }

    /// A `.safetensors` file written by hand from the format's description.
    fn safetensors_file(header: &str, data: &[u8]) -> Vec<u8> {
        let mut file = (header.len() as u64).to_le_bytes().to_vec();
        file.extend(header.as_bytes());
        file.extend(data);
        file
    }

    #[test]
    fn safetensors_tensors_are_read_as_f32() {
        let header = r#"{"b":{"dtype":"BF16","shape":[2,2],"data_offsets":[0,8]},"f":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}}"#;
        let mut data = Vec::new();
        for v in [1.0f32, -2.5, 0.15625, 3.0e38] {
            data.extend(((v.to_bits() >> 16) as u16).to_le_bytes());
        }
        data.extend(7.5f32.to_le_bytes());
        let file = safetensors_file(header, &data);
        let t = read_safetensors(&file, "b").unwrap();
        assert_eq!(t.shape, vec![2, 2]);
        assert_eq!(t.cols(), 2);
        assert_eq!(
            t.values,
            vec![
                1.0,
                -2.5,
                0.15625,
                f32::from_bits(3.0e38f32.to_bits() & 0xffff_0000)
            ]
        );
        assert_eq!(read_safetensors(&file, "f").unwrap().values, vec![7.5]);
        let err = read_safetensors(&file, "w").unwrap_err();
        assert_eq!(
            err.to_string(),
            "field `tensor`: no tensor `w` in the file; it has b, f"
        );
        let err = read_safetensors(b"not a file", "w").unwrap_err();
        assert!(
            err.to_string().starts_with("cannot parse safetensors file"),
            "{err}"
        );
    }

    #[test]
    fn every_default_codec_has_a_distinct_name() {
        let codecs = super::super::quality::default_codecs();
        for c in &codecs {
            assert_eq!(c.name().parse::<Codec>(), Ok(*c), "{c}");
        }
        let mut names: Vec<String> = codecs.iter().map(|c| c.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), codecs.len());
        assert!(codecs.iter().any(|c| c.format() == Some(Format::NvFp4)));
    }
}
