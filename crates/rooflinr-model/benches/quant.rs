//! Benchmarks of the quantisation advisor: NVFP4 and MXFP4 quantisation throughput on one
//! core (target >= 200 M values/s: quantise and pack, `Codec::quantize`), and a whole
//! DeepSeek-V3 recommendation (target < 10 ms): the first on a sample, which measures its
//! quality, and a later one, which reuses it.

#![allow(missing_docs)] // criterion_group! generates an undocumented function.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rooflinr_model::analysis::Phase;
use rooflinr_model::hardware::registry;
use rooflinr_model::presets;
use rooflinr_model::quant::{Codec, Synthetic};
use rooflinr_model::recommend::{self, QualitySamples, Request, Target};
use rooflinr_model::roofline::Efficiency;
use std::hint::black_box;

fn quantize(c: &mut Criterion) {
    let (rows, cols) = (256, 4096);
    let values = Synthetic::Gaussian.generate(rows, cols, 0);
    let mut group = c.benchmark_group("quantize_1M");
    group.throughput(Throughput::Elements(values.len() as u64));
    for name in [
        "nvfp4",
        "mxfp4",
        "nvfp4-4over6",
        "mxfp8-e4m3",
        "nf4",
        "int4-g128-fp16-zp",
    ] {
        let codec: Codec = name.parse().unwrap();
        group.bench_function(name, |b| {
            b.iter(|| codec.quantize(black_box(&values), cols).unwrap())
        });
    }
    group.finish();
}

fn recommend_deepseek(c: &mut Criterion) {
    let hw = registry::get("b200").unwrap();
    let request = Request {
        target: Target::Model(Box::new(presets::get("deepseek-v3").unwrap())),
        hardware: &hw,
        phase: Phase::Decode,
        batch: 1,
        seq: 4096,
        min_sqnr_db: 18.0,
        attention: None,
        efficiency: Efficiency::IDEAL,
    };
    // The sample tensors are inputs (a loaded weight, or synthetic ones made once). The
    // first recommendation on a sample measures its quality; later ones on the same sample
    // (another device, batch or phase) reuse it. "first" gets a new sample every time.
    let mut group = c.benchmark_group("recommend_deepseek_v3_decode");
    let mut seed = 100;
    group.bench_function("first", |b| {
        b.iter_batched(
            || {
                seed += 1;
                let mut s = QualitySamples::synthetic();
                s.weights.0 = Synthetic::Gaussian.generate(32, 1024, seed);
                s.activations.0 = Synthetic::OutlierChannels.generate(32, 1024, seed);
                s.kv.0 = Synthetic::HeavyTailed.generate(256, 128, seed);
                s
            },
            |samples| recommend::recommend(black_box(&request), &samples).unwrap(),
            criterion::BatchSize::SmallInput,
        )
    });
    let samples = QualitySamples::synthetic();
    group.bench_function("again", |b| {
        b.iter(|| recommend::recommend(black_box(&request), &samples).unwrap())
    });
    group.finish();
}

criterion_group!(benches, quantize, recommend_deepseek);
criterion_main!(benches);
