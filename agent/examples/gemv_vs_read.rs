//! Each CPU GEMV timed between two measurements of the read bandwidth, through the
//! backend's own measurement path (weight copies rotated past the cache, every output
//! checked): on a shared machine the bandwidth moves from minute to minute, so a GEMV is
//! held against the sums measured just before and after it rather than one ceiling taken
//! at the start.
//!
//! `cargo run --release -p rooflinr-agent --example gemv_vs_read [N] [SECONDS] [BATCHES]
//! [FORMATS]`: N x N weights (8192 unless given), each point sampled for at most SECONDS
//! (0.5 unless given), the comma-separated batches (1,4,8 unless given) and formats
//! (every CPU format unless given).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rooflinr_agent::backend::cpu::weights::cpu_formats;
use rooflinr_agent::backend::cpu::{CpuBackend, CpuOptions};
use rooflinr_agent::backend::{Backend, Work};
use rooflinr_agent::stats::StopRule;
use rooflinr_model::format::Format;
use rooflinr_protocol::OperatorShape;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().map_or(Ok(8192), |a| a.parse())?;
    let seconds: f64 = args.next().map_or(Ok(0.5), |a| a.parse())?;
    let batches: Vec<u64> = match args.next() {
        Some(list) => list.split(',').map(str::parse).collect::<Result<_, _>>()?,
        None => vec![1, 4, 8],
    };
    let formats: Vec<Format> = match args.next() {
        Some(list) => list.split(',').map(str::parse).collect::<Result<_, _>>()?,
        None => cpu_formats(),
    };
    let cpu = CpuBackend::new(CpuOptions {
        peak_gemm_size: 1024,
        stream_array_bytes: None,
    });
    let rule = StopRule {
        max_time: Duration::from_secs_f64(seconds),
        ..StopRule::DEFAULT
    };
    let cancel = AtomicBool::new(false);
    let read = || -> anyhow::Result<f64> {
        Ok(cpu
            .measure(&Work::Read, &rule, &cancel)?
            .achieved_bytes_per_s)
    };
    println!("| GEMV | time | weights read at | read before | read after | of their mean |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for &m in &batches {
        for &format in &formats {
            let shape = OperatorShape { m, n, k: n };
            let before = read()?;
            let point = cpu.measure(&Work::Operator { shape, format }, &rule, &cancel)?;
            let after = read()?;
            let weights = format.tensor_bytes((n * n) as f64).get();
            let rate = weights / point.stats.median_s;
            println!(
                "| {} | {:.3} ms | {:.1} GB/s | {:.1} GB/s | {:.1} GB/s | {:.0} % |",
                point.label,
                point.stats.median_s * 1e3,
                rate / 1e9,
                before / 1e9,
                after / 1e9,
                100.0 * rate / ((before + after) / 2.0),
            );
        }
    }
    Ok(())
}
