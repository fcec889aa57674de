//! Benchmarks: whole-model DeepSeek-V3 decode per format (target < 1 ms each) and a
//! 100,000-point GEMM sweep (target < 20 ms), on the project's 2-core machine.

#![allow(missing_docs)] // criterion_group! generates an undocumented function.

use criterion::{Criterion, criterion_group, criterion_main};
use rooflinr_model::analysis::{self, AttentionKernel, Phase, Scenario};
use rooflinr_model::format::Format;
use rooflinr_model::hardware::registry;
use rooflinr_model::ops::Precision;
use rooflinr_model::presets;
use rooflinr_model::roofline::Efficiency;
use rooflinr_model::sweep::{GemmGrid, SweepPrecision};
use std::hint::black_box;

fn deepseek_decode(c: &mut Criterion) {
    let config = presets::get("deepseek-v3").unwrap();
    let hw = registry::get("b200").unwrap();
    let mut group = c.benchmark_group("deepseek_v3_decode");
    for format in Format::CATALOGUE {
        let scenario = Scenario {
            phase: Phase::Decode,
            batch: 64,
            seq: 4096,
            precision: Precision {
                activations: Format::Bf16,
                weights: format,
                kv: Format::Fp8E4m3,
                output: Format::Bf16,
            },
            attention: AttentionKernel::Fused,
            quantize_embeddings: false,
        };
        group.bench_function(format.name(), |b| {
            b.iter(|| {
                analysis::analyze(
                    black_box(&config),
                    &hw,
                    black_box(&scenario),
                    &Efficiency::IDEAL,
                )
                .unwrap()
            })
        });
    }
    group.finish();
}

fn gemm_sweep(c: &mut Criterion) {
    let hw = registry::get("h100-sxm").unwrap();
    // 20 x 25 x 20 shapes x 10 formats = 100,000 points.
    let ms: Vec<u64> = (0..20).map(|i| 1 << (i % 14)).collect();
    let ns: Vec<u64> = (1..=25).map(|i| i * 512).collect();
    let ks: Vec<u64> = (1..=20).map(|i| i * 256).collect();
    let formats = &Format::CATALOGUE[..10];
    let grid = GemmGrid {
        ms: &ms,
        ns: &ns,
        ks: &ks,
        formats,
        precision: SweepPrecision::Uniform,
    };
    assert_eq!(grid.len(), 100_000);
    c.bench_function("gemm_sweep_100k", |b| {
        b.iter(|| {
            let mut total = 0.0;
            grid.for_each(&hw, &Efficiency::IDEAL, |p| {
                total += p.result.prediction.time.get()
            });
            black_box(total)
        })
    });
}

criterion_group!(
    name = benches;
    config = Criterion::default();
    targets = deepseek_decode, gemm_sweep
);
criterion_main!(benches);
