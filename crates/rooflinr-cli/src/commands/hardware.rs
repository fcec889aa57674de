//! `rooflinr hardware`: the registry, or one device with the source of every figure.

use std::path::PathBuf;

use anyhow::Result;
use rooflinr_model::format::Math;
use rooflinr_model::hardware::{Figure, Hardware, Source, registry};
use rooflinr_model::units::si;
use serde::Serialize;

use crate::{args, table};

/// Arguments of `rooflinr hardware`.
#[derive(clap::Args)]
pub struct Args {
    /// Show one device in full (a registry key).
    key: Option<String>,
    /// Show a custom device from a TOML or JSON file.
    #[arg(long, value_name = "FILE", conflicts_with = "key")]
    hardware_file: Option<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct SourcedJson<T> {
    value: T,
    basis: &'static str,
    source: String,
}

fn sourced<T: Copy, U>(f: &Figure<T>, map: impl Fn(T) -> U) -> SourcedJson<U> {
    SourcedJson {
        value: map(f.value),
        basis: f.source.basis.name(),
        source: f.source.text.to_string(),
    }
}

#[derive(Serialize)]
struct PeakJson {
    math: &'static str,
    dense_tflops: SourcedJson<f64>,
    ridge_flop_per_byte: f64,
}

#[derive(Serialize)]
struct SecondMemoryJson {
    memory_type: String,
    capacity_gb: SourcedJson<f64>,
    bandwidth_gb_s: SourcedJson<f64>,
    link: String,
}

#[derive(Serialize)]
struct HardwareJson {
    key: String,
    name: String,
    aliases: Vec<String>,
    vendor: &'static str,
    class: &'static str,
    architecture: String,
    memory_bandwidth_gb_s: SourcedJson<f64>,
    memory_capacity_gb: SourcedJson<Option<f64>>,
    memory_type: String,
    unified_memory: bool,
    /// A second, slower memory beside the first, not counted in `memory_capacity_gb`.
    second_memory: Option<SecondMemoryJson>,
    /// How several are joined (per GPU, per direction), where published.
    interconnect: Option<InterconnectJson>,
    block_scaled_mma: bool,
    sm_count: Option<SourcedJson<u32>>,
    l2_cache_mib: Option<SourcedJson<f64>>,
    boost_clock_mhz: Option<SourcedJson<f64>>,
    power_watts: Option<SourcedJson<f64>>,
    peaks: Vec<PeakJson>,
}

#[derive(Serialize)]
struct InterconnectJson {
    scale_up: String,
    scale_up_gb_s: SourcedJson<f64>,
    domain_gpus: SourcedJson<u32>,
    scale_out_gb_s: Option<SourcedJson<f64>>,
}

fn to_json(hw: &Hardware) -> HardwareJson {
    HardwareJson {
        key: hw.key.clone(),
        name: hw.name.clone(),
        aliases: hw.aliases.clone(),
        vendor: hw.vendor.name(),
        class: hw.class.name(),
        architecture: hw.architecture.clone(),
        memory_bandwidth_gb_s: sourced(&hw.memory_bandwidth, |b| b.get() / 1e9),
        memory_capacity_gb: sourced(&hw.memory_capacity, |b| {
            Some(b.get() / 1e9).filter(|v| v.is_finite())
        }),
        memory_type: hw.memory_type.clone(),
        unified_memory: hw.unified_memory,
        second_memory: hw.second_memory.as_ref().map(|t| SecondMemoryJson {
            memory_type: t.memory_type.clone(),
            capacity_gb: sourced(&t.capacity, |b| b.get() / 1e9),
            bandwidth_gb_s: sourced(&t.bandwidth, |b| b.get() / 1e9),
            link: t.link.clone(),
        }),
        interconnect: hw.interconnect.as_ref().map(|ic| InterconnectJson {
            scale_up: ic.scale_up.kind.name(),
            scale_up_gb_s: sourced(&ic.scale_up.bandwidth, |b| b.get() / 1e9),
            domain_gpus: sourced(&ic.domain, |v| v),
            scale_out_gb_s: ic
                .scale_out
                .as_ref()
                .map(|l| sourced(&l.bandwidth, |b| b.get() / 1e9)),
        }),
        block_scaled_mma: hw.block_scaled_mma,
        sm_count: hw.sm_count.as_ref().map(|f| sourced(f, |v| v)),
        l2_cache_mib: hw
            .l2_cache
            .as_ref()
            .map(|f| sourced(f, |b| b.get() / 1048576.0)),
        boost_clock_mhz: hw.boost_clock_mhz.as_ref().map(|f| sourced(f, |v| v)),
        power_watts: hw.power_watts.as_ref().map(|f| sourced(f, |v| v)),
        peaks: hw
            .peaks
            .iter()
            .map(|p| PeakJson {
                math: p.math.name(),
                dense_tflops: sourced(&p.rate, |r| r.as_tflops()),
                ridge_flop_per_byte: (p.rate.value / hw.memory_bandwidth.value).get(),
            })
            .collect(),
    }
}

fn capacity(hw: &Hardware) -> String {
    let c = hw.memory_capacity.value.get();
    if c.is_finite() {
        si(c, "B")
    } else {
        "unspecified".into()
    }
}

fn peak_cell(hw: &Hardware, math: Math) -> String {
    hw.peak(math)
        .map_or("-".into(), |p| format!("{:.0}", p.as_tflops()))
}

fn list() {
    let maths = [
        Math::Fp32,
        Math::Tf32,
        Math::Fp16,
        Math::Fp8,
        Math::Int8,
        Math::Fp4,
    ];
    let mut header = vec!["key", "device", "class", "memory", "bandwidth", "unified"];
    let names: Vec<String> = maths.iter().map(|m| format!("{m} TFLOP/s")).collect();
    header.extend(names.iter().map(String::as_str));
    let mut t = table::new(&header, 2);
    for hw in registry::all() {
        let mut row = vec![
            hw.key.clone(),
            hw.name.clone(),
            format!("{} {}", hw.vendor.name(), hw.class.name()),
            capacity(&hw),
            si(hw.memory_bandwidth.value.get(), "B/s"),
            if hw.unified_memory {
                "yes".into()
            } else {
                "no".into()
            },
        ];
        row.extend(maths.iter().map(|&m| peak_cell(&hw, m)));
        t.add_row(row);
    }
    table::print(&t);
    println!(
        "Dense peaks. `-`: not run natively (the format converts to a wider one). `rooflinr hardware KEY` shows every figure's source."
    );
}

fn source(s: &Source) -> String {
    format!("{} ({})", s.text, s.basis.name())
}

fn detail(hw: &Hardware) {
    println!(
        "{} [{}]: {}, {} {}",
        hw.name,
        hw.key,
        hw.architecture,
        hw.vendor.name(),
        hw.class.name()
    );
    if !hw.aliases.is_empty() {
        println!("Also named: {}", hw.aliases.join(", "));
    }
    println!();
    let mut t = table::new(&["figure", "value", "source"], 1);
    t.add_row(vec![
        "memory bandwidth".into(),
        si(hw.memory_bandwidth.value.get(), "B/s"),
        source(&hw.memory_bandwidth.source),
    ]);
    t.add_row(vec![
        "memory".into(),
        format!(
            "{} {}{}",
            capacity(hw),
            hw.memory_type,
            if hw.unified_memory { ", unified" } else { "" }
        ),
        source(&hw.memory_capacity.source),
    ]);
    if let Some(tier) = &hw.second_memory {
        t.add_row(vec![
            "second memory".into(),
            format!(
                "{} {} at {}, {}",
                si(tier.capacity.value.get(), "B"),
                tier.memory_type,
                si(tier.bandwidth.value.get(), "B/s"),
                tier.link
            ),
            source(&tier.capacity.source),
        ]);
    }
    if let Some(ic) = &hw.interconnect {
        t.add_row(vec![
            "interconnect".into(),
            format!(
                "{} {} per GPU each way, {} GPUs per domain",
                ic.scale_up.kind.name(),
                si(ic.scale_up.bandwidth.value.get(), "B/s"),
                ic.domain.value
            ),
            source(&ic.scale_up.bandwidth.source),
        ]);
        if let Some(out) = &ic.scale_out {
            t.add_row(vec![
                "network".into(),
                format!("{} per GPU each way", si(out.bandwidth.value.get(), "B/s")),
                source(&out.bandwidth.source),
            ]);
        }
    }
    let optional = |name: &str, value: Option<(String, &Source)>| match value {
        Some((v, s)) => vec![name.to_string(), v, source(s)],
        None => vec![name.to_string(), "unknown".into(), "not published".into()],
    };
    t.add_row(optional(
        "SMs",
        hw.sm_count
            .as_ref()
            .map(|f| (f.value.to_string(), &f.source)),
    ));
    t.add_row(optional(
        "L2 cache",
        hw.l2_cache
            .as_ref()
            .map(|f| (si(f.value.get(), "B"), &f.source)),
    ));
    t.add_row(optional(
        "boost clock",
        hw.boost_clock_mhz
            .as_ref()
            .map(|f| (format!("{} MHz", f.value), &f.source)),
    ));
    t.add_row(optional(
        "power",
        hw.power_watts
            .as_ref()
            .map(|f| (format!("{} W", f.value), &f.source)),
    ));
    for p in &hw.peaks {
        let ridge = p.rate.value / hw.memory_bandwidth.value;
        t.add_row(vec![
            format!("{} dense", p.math),
            format!(
                "{}, ridge {:.0} FLOP/B",
                si(p.rate.value.get(), "FLOP/s"),
                ridge.get()
            ),
            source(&p.rate.source),
        ]);
    }
    table::print(&t);
    println!(
        "Block-scaled MMA (MX, NVFP4 natively): {}.",
        if hw.block_scaled_mma { "yes" } else { "no" }
    );
    if let Some(tier) = &hw.second_memory {
        println!(
            "Capacity and bandwidth above are the {}'s: the roofline counts only it. Data beyond it would live in the {} and be read at {}.",
            hw.memory_type,
            tier.memory_type,
            si(tier.bandwidth.value.get(), "B/s")
        );
    }
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let one = match (&args.key, &args.hardware_file) {
        (_, Some(file)) => Some(args::load_hardware("", Some(file))?),
        (Some(key), None) => Some(registry::get(key)?),
        (None, None) => None,
    };
    match (one, args.json) {
        (Some(hw), true) => super::print_json(&to_json(&hw)),
        (Some(hw), false) => {
            detail(&hw);
            Ok(())
        }
        (None, true) => super::print_json(&registry::all().iter().map(to_json).collect::<Vec<_>>()),
        (None, false) => {
            list();
            Ok(())
        }
    }
}
