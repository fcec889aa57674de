//! The recommender on the prototype's example, on compute-bound shapes, and its invariants.

use super::strategy::uniform;
use super::*;
use crate::format::{Format, GroupedInt};
use crate::hardware::registry;
use crate::ops::Op;
use crate::presets;
use crate::quant::{Codec, ErrorStats};

fn request<'a>(target: Target, hw: &'a Hardware, phase: Phase) -> Request<'a> {
    Request {
        target,
        hardware: hw,
        phase,
        batch: 1,
        seq: 4096,
        min_sqnr_db: 18.0,
        attention: None,
        efficiency: Efficiency::IDEAL,
    }
}

fn llama(hw: &Hardware) -> Recommendation {
    let config = presets::get("llama-3-8b").unwrap();
    let req = request(Target::Model(Box::new(config)), hw, Phase::Decode);
    recommend(&req, &QualitySamples::synthetic()).unwrap()
}

fn find(rec: &Recommendation, id: StrategyId) -> &Candidate {
    rec.candidates
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no candidate {id:?}"))
}

const fn with_kv(scheme: Scheme, kv: Format) -> StrategyId {
    StrategyId::Uniform {
        scheme,
        kv: Some(kv),
    }
}

use StrategyId as S;

#[test]
fn seed_example_llama_3_8b_decode_on_gb10_goes_to_four_bits() {
    let gb10 = registry::get("gb10").unwrap();
    let rec = llama(&gb10);
    assert!(
        rec.bottleneck
            .starts_with("decode: 100% of the time is memory-bound"),
        "{}",
        rec.bottleneck
    );
    assert!(rec.bottleneck.ends_with("so bytes decide"));
    let best = &rec.candidates[rec.best.unwrap()];
    assert!(
        matches!(
            best.id,
            S::Uniform {
                scheme: Scheme::NvFp4W4A4,
                ..
            }
        ),
        "{}",
        best.name
    );
    // Memory-bound: speed-up close to the byte ratio, 16 bits over 4.5.
    assert!(
        (3.0..16.0 / 4.5).contains(&best.speedup),
        "{}",
        best.speedup
    );
    assert!(best.reason.contains("memory-bound"), "{}", best.reason);
    // MXFP4 is faster still, but its activations measure below the budget.
    let mx = find(&rec, S::plain(Scheme::MxFp4W4A4));
    assert!(mx.speedup > find(&rec, S::plain(Scheme::NvFp4W4A4)).speedup);
    assert!(!mx.within_budget && mx.quality_limited_by == TensorRole::Activations);
    assert!(rec.skipped.is_empty(), "{:?}", rec.skipped);
    assert_eq!(
        rec.attention,
        AttentionChoice::Fa2,
        "sm_121 has no FA3 or tcgen05"
    );
}

#[test]
fn fp4_strategies_are_skipped_where_there_are_no_fp4_tensor_cores() {
    let h100 = registry::get("h100-sxm").unwrap();
    let rec = llama(&h100);
    assert!(rec.candidates.iter().all(|c| !matches!(
        c.id,
        S::Uniform {
            scheme: Scheme::NvFp4W4A4 | Scheme::MxFp4W4A4,
            ..
        } | S::Mixed {
            mlp: Scheme::NvFp4W4A4
        }
    )));
    let skipped: Vec<&str> = rec.skipped.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(skipped, ["NVFP4 W4A4", "MXFP4 W4A4"]);
    assert_eq!(rec.attention, AttentionChoice::Fa3);
    let fa3 = find(&rec, with_kv(Scheme::Fp16, Format::Fp8E4m3));
    assert!(fa3.formats.fp8_attention);
    // A GB10 cannot run FA3 at all.
    let gb10 = registry::get("gb10").unwrap();
    let mut req = request(Target::Gemm { m: 1, n: 8, k: 8 }, &gb10, Phase::Decode);
    req.attention = Some(AttentionChoice::Fa3);
    let err = recommend(&req, &QualitySamples::synthetic()).unwrap_err();
    assert!(err.to_string().contains("Hopper sm_90 only"), "{err}");
}

#[test]
fn fp8_attention_is_faster_than_dequantising_in_fa2_at_long_context() {
    let h100 = registry::get("h100-sxm").unwrap();
    let config = presets::get("llama-3-8b").unwrap();
    let mut req = request(Target::Model(Box::new(config)), &h100, Phase::Prefill);
    req.seq = 32768;
    let fa3 = recommend(&req, &QualitySamples::synthetic()).unwrap();
    req.attention = Some(AttentionChoice::Fa2);
    let fa2 = recommend(&req, &QualitySamples::synthetic()).unwrap();
    let id = with_kv(Scheme::Fp8W8A8, Format::Fp8E4m3);
    let (c3, c2) = (find(&fa3, id), find(&fa2, id));
    assert_eq!(c3.name, "FP8 W8A8 + FP8 KV (FA3 FP8 attention)");
    assert_eq!(c2.name, "FP8 W8A8 + FP8 KV");
    let (t3, t2) = (c3.time, c2.time);
    assert!(t3 < t2, "{t3} vs {t2}");
}

#[test]
fn compute_bound_gemms_gain_by_tensor_core_rate() {
    let b200 = registry::get("b200").unwrap();
    let req = request(
        Target::Gemm {
            m: 8192,
            n: 8192,
            k: 8192,
        },
        &b200,
        Phase::Prefill,
    );
    let rec = recommend(&req, &QualitySamples::synthetic()).unwrap();
    assert!(
        rec.bottleneck.contains("compute-bound"),
        "{}",
        rec.bottleneck
    );
    let (fp8, nvfp4) = (
        find(&rec, S::plain(Scheme::Fp8W8A8)),
        find(&rec, S::plain(Scheme::NvFp4W4A4)),
    );
    // B200: 4.5 PFLOP/s FP8 and 9 FP4 against 2.25 FP16 (dense): 2x and 4x, less the
    // time spent quantising 8192 x 8192 activations per token.
    assert!(fp8.speedup > 1.7 && fp8.speedup < 2.0, "{}", fp8.speedup);
    assert!(
        nvfp4.speedup > 3.0 && nvfp4.speedup < 4.0,
        "{}",
        nvfp4.speedup
    );
    // Weight-only INT4 dequantises to FP16 math: no faster when compute-bound.
    let awq = find(&rec, S::plain(Scheme::Int4Awq));
    assert!((awq.speedup - 1.0).abs() < 0.01, "{}", awq.speedup);
}

#[test]
fn activation_quantisation_costs_time_and_weight_only_does_not() {
    let h100 = registry::get("h100-sxm").unwrap();
    let req = request(
        Target::Gemm {
            m: 64,
            n: 4096,
            k: 4096,
        },
        &h100,
        Phase::Decode,
    );
    let rec = recommend(&req, &QualitySamples::synthetic()).unwrap();
    let plain = |w: Format, a: Format| {
        let op = Op::Gemm {
            m: 64.0,
            n: 4096.0,
            k: 4096.0,
            bias: false,
        };
        op.predict(&uniform(w, a), &h100, &Efficiency::IDEAL)
            .prediction
            .time
    };
    let fp8 = find(&rec, S::plain(Scheme::Fp8W8A8));
    assert!(fp8.time > plain(Format::Fp8E4m3, Format::Fp8E4m3));
    assert!(
        fp8.reason
            .contains("per-token activation quantisation adds")
    );
    let awq_format = Format::Grouped(GroupedInt::AWQ_INT4);
    assert_eq!(
        find(&rec, S::plain(Scheme::Int4Awq)).time,
        plain(awq_format, Format::Fp16)
    );
}

#[test]
fn quality_is_the_worst_measured_tensor() {
    let h100 = registry::get("h100-sxm").unwrap();
    let samples = QualitySamples::synthetic();
    let req = request(
        Target::Gemm {
            m: 1,
            n: 4096,
            k: 4096,
        },
        &h100,
        Phase::Decode,
    );
    let rec = recommend(&req, &samples).unwrap();
    let sqnr = |codec: Codec, (values, cols): &(Vec<f32>, usize)| {
        ErrorStats::between(values, &codec.round_trip(values, *cols).unwrap()).sqnr_db
    };
    let w = sqnr(Codec::for_format(Format::Int8), &samples.weights);
    let a = sqnr("int8-channel".parse().unwrap(), &samples.activations);
    let kv = sqnr(Codec::for_format(Format::Fp16), &samples.kv);
    let int8 = find(&rec, S::plain(Scheme::Int8W8A8));
    assert_eq!(int8.quality_db, w.min(a).min(kv));
}

#[test]
fn the_frontier_is_exactly_the_undominated_candidates() {
    let gb10 = registry::get("gb10").unwrap();
    let rec = llama(&gb10);
    let dominates = |b: &Candidate, a: &Candidate| {
        b.speedup >= a.speedup
            && b.memory_saved >= a.memory_saved
            && b.quality_db >= a.quality_db
            && (b.speedup > a.speedup
                || b.memory_saved > a.memory_saved
                || b.quality_db > a.quality_db)
    };
    for a in &rec.candidates {
        let dominated = rec.candidates.iter().any(|b| dominates(b, a));
        assert_eq!(a.pareto, !dominated, "{}", a.name);
    }
    assert!(
        find(&rec, S::plain(Scheme::Fp16)).pareto,
        "the best quality is on the frontier"
    );
    // Sorted fastest first.
    assert!(
        rec.candidates
            .windows(2)
            .all(|w| w[0].speedup >= w[1].speedup)
    );
}

#[test]
fn mixed_precision_memory_lies_between_its_two_formats() {
    let gb10 = registry::get("gb10").unwrap();
    let rec = llama(&gb10);
    let mixed = find(
        &rec,
        S::Mixed {
            mlp: Scheme::NvFp4W4A4,
        },
    );
    let fp8 = find(&rec, with_kv(Scheme::Fp8W8A8, Format::Fp8E4m3));
    let nvfp4 = find(&rec, with_kv(Scheme::NvFp4W4A4, Format::Fp8E4m3));
    assert!(nvfp4.memory < mixed.memory && mixed.memory < fp8.memory);
    assert!(nvfp4.time < mixed.time && mixed.time < fp8.time);
}

#[test]
fn deepseek_v3_recommendation_runs() {
    let b200 = registry::get("b200").unwrap();
    let config = presets::get("deepseek-v3").unwrap();
    let req = request(Target::Model(Box::new(config)), &b200, Phase::Decode);
    let rec = recommend(&req, &QualitySamples::synthetic()).unwrap();
    assert_eq!(rec.attention, AttentionChoice::Blackwell);
    // 671 B parameters fit on no single B200, even in 4 bits: the recommendation says so.
    let best = &rec.candidates[rec.best.unwrap()];
    assert!(!best.fits && best.within_budget);
    assert!(rec.candidates.iter().all(|c| !c.fits));
    assert!(
        rec.candidates
            .iter()
            .all(|c| c.time.get() > 0.0 && c.memory.get() > 0.0)
    );
}

#[test]
fn quality_is_remembered_per_sample_and_measured_again_when_the_sample_changes() {
    let hw = registry::get("b200").unwrap();
    let config = presets::get("llama-3-8b").unwrap();
    let req = request(Target::Model(Box::new(config)), &hw, Phase::Decode);
    let mut samples = QualitySamples::synthetic();
    let first = recommend(&req, &samples).unwrap();
    let again = recommend(&req, &samples).unwrap();
    assert_eq!(first, again);
    // Each candidate's quality is the SQNR measured afresh on this sample.
    let uniform_id = |scheme| StrategyId::Uniform { scheme, kv: None };
    let nvfp4 = find(&first, uniform_id(Scheme::NvFp4W4A4));
    let fresh = Codec::for_format(Format::NvFp4)
        .round_trip(&samples.weights.0, samples.weights.1)
        .map(|q| ErrorStats::between(&samples.weights.0, &q).sqnr_db)
        .unwrap();
    assert!(nvfp4.quality_db <= fresh);
    // A sample changed in place is measured again, not read from what was remembered for
    // the old one: an outlier per row moves the INT4 weights' SQNR, and the candidate
    // reports exactly the fresh figure.
    for row in samples.weights.0.chunks_mut(samples.weights.1) {
        row[0] = 1e4;
    }
    let changed = recommend(&req, &samples).unwrap();
    let int4 = |r: &Recommendation| find(r, uniform_id(Scheme::Int4Awq)).clone();
    let (before, after) = (int4(&first), int4(&changed));
    assert_eq!(after.quality_limited_by, TensorRole::Weights);
    let fresh = Codec::for_format(Format::Grouped(GroupedInt::AWQ_INT4))
        .round_trip(&samples.weights.0, samples.weights.1)
        .map(|q| ErrorStats::between(&samples.weights.0, &q).sqnr_db)
        .unwrap();
    assert_eq!(after.quality_db, fresh);
    assert_ne!(after.quality_db, before.quality_db);
}
