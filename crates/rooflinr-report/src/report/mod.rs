//! The Markdown report, in the shape of the prototype's report (hardware limits, the roofline model,
//! kernel placement with intensity, bound and attainable rate, bottlenecks by phase,
//! scaling notes), with calibration when the kernels were measured, and its SVG chart.
//! Every figure in it is computed from the kernels and the device passed in.

pub mod svg;

use std::fmt::Write;

use rooflinr_model::format::{Format, product_is_block_scaled};
use rooflinr_model::hardware::Hardware;
use rooflinr_model::roofline::{Bound, Efficiency};
use rooflinr_model::units::si;

use crate::calibrate;
use crate::kernel::{KernelPoint, MeasuredCeilings};

/// Kernels below this fraction of their attainable rate are listed as having room.
pub const ROOM_BELOW: f64 = 0.7;

/// What a report is made from.
#[derive(Clone, Debug)]
pub struct ReportInput<'a> {
    /// What was analysed (a model, a file name).
    pub title: &'a str,
    /// The device whose datasheet the predictions use.
    pub hardware: &'a Hardware,
    /// The kernels.
    pub kernels: &'a [KernelPoint],
    /// Ceilings an agent measured (may be empty).
    pub ceilings: &'a MeasuredCeilings,
    /// The line under the title: when, by what, from what.
    pub generated: &'a str,
    /// The chart's file name, linked from the report.
    pub chart_file: Option<&'a str>,
    /// Notes from the import.
    pub notes: &'a [String],
}

fn tflops(v: f64) -> String {
    let t = v / 1e12;
    if t >= 100.0 {
        format!("{t:.0}")
    } else if t >= 1.0 {
        format!("{t:.1}")
    } else {
        format!("{t:.3}")
    }
}

fn pct(v: f64) -> String {
    format!("{:.0}%", v * 100.0)
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The report as Markdown.
pub fn markdown(input: &ReportInput) -> String {
    let hw = input.hardware;
    let mut out = String::new();
    let _ = writeln!(out, "# {} Roofline Analysis - {}\n", hw.name, input.title);
    let _ = writeln!(out, "**Generated:** {}\n\n---\n", input.generated);
    hardware_limits(&mut out, hw, input.ceilings);
    out.push_str(
        "## Roofline Model\n\n```\nPerformance = min(Peak_FLOPS, Arithmetic_Intensity × Peak_Bandwidth)\n\nWhere:\n  Arithmetic Intensity (AI) = FLOPS / Bytes_transferred\n\n  If AI < Ridge_Point: Memory-bound (limited by bandwidth)\n  If AI > Ridge_Point: Compute-bound (limited by FLOPS)\n```\n\n---\n\n",
    );
    // Kernels whose work was not counted are listed apart, never placed or fitted on.
    let placed = calibrate::placed(input.kernels);
    placement(&mut out, hw, &placed);
    fastest_section(&mut out, &placed);
    not_placed(&mut out, input.kernels);
    calibration(&mut out, hw, &placed, input.ceilings);
    bottlenecks(&mut out, hw, &placed);
    scaling(&mut out, hw, &placed);
    if let Some(file) = input.chart_file {
        let _ = writeln!(
            out,
            "## Roofline Plot\n\n![Roofline chart]({file})\n\n---\n"
        );
    }
    out.push_str("## Notes\n\n");
    let _ = writeln!(
        out,
        "- Datasheet figures are dense peaks from the rooflinr registry entry `{}` (each with its source there); predictions are computed, measurements are as recorded by their source.",
        hw.key
    );
    let mut sources: Vec<&crate::kernel::KernelSource> =
        input.kernels.iter().map(|k| &k.source).collect();
    rooflinr_model::sort::sort(&mut sources);
    sources.dedup();
    for s in sources {
        let _ = writeln!(out, "- Kernel figures {s}.");
    }
    for n in input.notes {
        let _ = writeln!(out, "- {n}");
    }
    out
}

fn hardware_limits(out: &mut String, hw: &Hardware, ceilings: &MeasuredCeilings) {
    out.push_str("## Hardware Limits\n\n| Metric | Value | Basis |\n|--------|-------|-------|\n");
    let mut peaks: Vec<_> = hw.peaks.iter().collect();
    rooflinr_model::sort::sort_by(&mut peaks, |a, b| {
        b.rate.value.get().total_cmp(&a.rate.value.get())
    });
    for p in &peaks {
        let _ = writeln!(
            out,
            "| Peak Compute ({}) | {} TFLOPS | datasheet, dense |",
            p.math.name().to_ascii_uppercase(),
            tflops(p.rate.value.get())
        );
    }
    let bw = hw.memory_bandwidth.value.get();
    let _ = writeln!(out, "| Peak Bandwidth | {:.0} GB/s | datasheet |", bw / 1e9);
    for p in &peaks {
        let _ = writeln!(
            out,
            "| Ridge Point ({}) | {:.1} FLOP/byte | datasheet |",
            p.math.name().to_ascii_uppercase(),
            p.rate.value.get() / bw
        );
    }
    if let Some((mbw, kernel)) = &ceilings.bandwidth {
        let _ = writeln!(
            out,
            "| Bandwidth ({kernel}) | {:.1} GB/s ({} of datasheet) | measured{} |",
            mbw / 1e9,
            pct(mbw / bw),
            ceilings
                .device
                .as_deref()
                .map(|d| format!(" on {d}"))
                .unwrap_or_default()
        );
    }
    for p in &ceilings.peaks {
        let _ = writeln!(
            out,
            "| Peak GEMM ({}) | {} TFLOPS | measured |",
            p.format,
            tflops(p.flops_per_s)
        );
    }
    out.push_str("\n---\n\n");
}

fn placement(out: &mut String, hw: &Hardware, kernels: &[KernelPoint]) {
    out.push_str("## Kernel Placement\n\n| Kernel | Op | Phase | Math | AI (FLOP/byte) | Bound | Attainable (TFLOPS) | Measured (TFLOPS) | Of attainable | Time |\n|--------|-----|-------|------|----------------|-------|---------------------|-------------------|---------------|------|\n");
    for k in kernels {
        let p = k.predict(hw, &Efficiency::IDEAL);
        let (attainable, measured, share) = if k.flops > 0.0 {
            let a = p.attainable.get();
            let m = k.achieved_flops_per_s();
            (tflops(a), tflops(m), pct(m / a))
        } else {
            let m = k.achieved_bytes_per_s();
            (
                "-".into(),
                format!("{} (no FLOPs)", si(m, "B/s")),
                pct(m / hw.memory_bandwidth.value.get()),
            )
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {:.2} | {} | {} | {} | {} | {} |",
            cell(&k.kernel),
            cell(&k.op),
            cell(k.phase_label()),
            k.math.name().to_ascii_uppercase(),
            k.intensity(),
            capitalised(p.bound),
            attainable,
            measured,
            share,
            si(k.time_s, "s")
        );
    }
    out.push_str("\n---\n\n");
}

/// The fastest of the kernels that did one operator's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fastest {
    /// Index of the fastest kernel.
    pub winner: usize,
    /// Index of the next fastest.
    pub next: usize,
    /// How many kernels did this work.
    pub of: usize,
}

/// For each work that more than one placed kernel did (the same operator, phase and FLOP
/// count: one shape run in several formats or by several kernels), the fastest measured
/// kernel and the next; in the order the works first appear.
pub fn fastest(kernels: &[KernelPoint]) -> Vec<Fastest> {
    let mut works: Vec<(&str, &str, f64, Vec<usize>)> = Vec::new();
    for (i, k) in kernels.iter().enumerate() {
        if !(k.flops_counted && k.flops > 0.0 && k.time_s > 0.0) {
            continue;
        }
        match works
            .iter_mut()
            .find(|(op, phase, flops, _)| *op == k.op && *phase == k.phase && *flops == k.flops)
        {
            Some((.., members)) => members.push(i),
            None => works.push((&k.op, &k.phase, k.flops, vec![i])),
        }
    }
    works
        .into_iter()
        .filter(|(.., m)| m.len() > 1)
        .map(|(.., mut members)| {
            rooflinr_model::sort::sort_by(&mut members, |&a, &b| {
                kernels[a].time_s.total_cmp(&kernels[b].time_s)
            });
            Fastest {
                winner: members[0],
                next: members[1],
                of: members.len(),
            }
        })
        .collect()
}

fn fastest_section(out: &mut String, kernels: &[KernelPoint]) {
    let found = fastest(kernels);
    if found.is_empty() {
        return;
    }
    out.push_str("## Fastest Configuration\n\nFor each work more than one kernel did (the same operator, phase and FLOPs), the fastest as measured; ringed on the chart.\n\n| Op | Phase | Work | Fastest | Time | Next fastest | Its time | Faster by | Kernels |\n|----|-------|------|---------|------|--------------|----------|-----------|---------|\n");
    for f in &found {
        let (w, n) = (&kernels[f.winner], &kernels[f.next]);
        let _ = writeln!(
            out,
            "| {} | {} | {} | `{}` | {} | `{}` | {} | {:.2}x | {} |",
            cell(&w.op),
            w.phase_label(),
            si(w.flops, "FLOP"),
            cell(&w.kernel),
            si(w.time_s, "s"),
            cell(&n.kernel),
            si(n.time_s, "s"),
            n.time_s / w.time_s,
            f.of
        );
    }
    out.push_str("\n---\n\n");
}

fn capitalised(b: Bound) -> &'static str {
    match b {
        Bound::Memory => "Memory",
        Bound::Compute => "Compute",
    }
}

/// Kernels without their work counted: time, bytes and bandwidth only.
fn not_placed(out: &mut String, kernels: &[KernelPoint]) {
    let unplaced: Vec<&KernelPoint> = kernels.iter().filter(|k| !k.flops_counted).collect();
    if unplaced.is_empty() {
        return;
    }
    out.push_str("## Kernels Without FLOPs Counted

Their source counted no floating-point work (no FLOP counter, or tensor instructions without operation counts), so they have no place on a FLOP/s axis and are left out of the placement, the calibration and the bottlenecks:

| Kernel | Time | Bytes | Bandwidth |
|--------|------|-------|-----------|
");
    for k in unplaced {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            cell(&k.kernel),
            si(k.time_s, "s"),
            si(k.bytes, "B"),
            si(k.achieved_bytes_per_s(), "B/s")
        );
    }
    out.push_str(
        "
---

",
    );
}

fn calibration(
    out: &mut String,
    hw: &Hardware,
    kernels: &[KernelPoint],
    ceilings: &MeasuredCeilings,
) {
    if kernels.is_empty() {
        return;
    }
    let (rows, loo) = calibrate::compare(kernels, hw, ceilings);
    out.push_str("## Calibration\n\nAchievable fractions of the datasheet, fitted from these measurements (each source on its own):\n\n");
    for (source, cal) in calibrate::by_source(kernels, hw, ceilings) {
        let _ = writeln!(out, "**{}**\n", cell(&source.to_string()));
        let _ = writeln!(
            out,
            "- Bandwidth, all formats: {} ({}, {} point(s))",
            pct(cal.bandwidth.value),
            cal.bandwidth.from,
            cal.bandwidth.points
        );
        for (key, f) in &cal.bandwidth_by_format {
            let _ = writeln!(
                out,
                "- Bandwidth, {key}: {} ({}, {} point(s))",
                pct(f.value),
                f.from,
                f.points
            );
        }
        if let Some(f) = &cal.compute {
            let _ = writeln!(
                out,
                "- Compute, all formats: {} ({}, {} point(s))",
                pct(f.value),
                f.from,
                f.points
            );
        }
        for (key, f) in &cal.compute_by_format {
            let _ = writeln!(
                out,
                "- Compute, {key}: {} ({}, {} point(s))",
                pct(f.value),
                f.from,
                f.points
            );
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Prediction error, |predicted - measured| / measured ({}):\n\n| Source | Format | Regime | Points | Datasheet mean | Datasheet worst | Calibrated mean | Calibrated worst |\n|--------|--------|--------|--------|----------------|-----------------|-----------------|------------------|",
        if loo {
            "calibrated figures are leave-one-out: each point predicted by a fit made without it"
        } else {
            "calibrated figures are in-sample: too many points for leave-one-out"
        }
    );
    for s in calibrate::summarise(&rows) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&s.source.to_string()),
            cell(&s.key),
            s.bound.name(),
            s.points,
            pct(s.datasheet_mean),
            pct(s.datasheet_max),
            pct(s.calibrated_mean),
            pct(s.calibrated_max)
        );
    }
    out.push_str("\n---\n\n");
}

fn bottlenecks(out: &mut String, hw: &Hardware, kernels: &[KernelPoint]) {
    out.push_str("## Bottleneck Analysis\n\n");
    let mut phases: Vec<&str> = kernels.iter().map(KernelPoint::phase_label).collect();
    rooflinr_model::sort::sort(&mut phases);
    phases.dedup();
    for phase in phases {
        let members: Vec<&KernelPoint> = kernels
            .iter()
            .filter(|k| k.phase_label() == phase)
            .collect();
        let total: f64 = members.iter().map(|k| k.time_s).sum();
        let _ = writeln!(
            out,
            "### {} phase ({} kernels, {} measured)\n",
            title_case(phase),
            members.len(),
            si(total, "s")
        );
        let mut memory_time = 0.0;
        for bound in [Bound::Compute, Bound::Memory] {
            let mut list: Vec<(&KernelPoint, f64)> = members
                .iter()
                .map(|k| (*k, k.predict(hw, &Efficiency::IDEAL)))
                .filter(|(_, p)| p.bound == bound)
                .map(|(k, _)| (k, k.time_s))
                .collect();
            if bound == Bound::Memory {
                memory_time = list.iter().map(|(_, t)| t).sum();
            }
            rooflinr_model::sort::sort_by(&mut list, |a, b| b.1.total_cmp(&a.1));
            let _ = writeln!(out, "**{}-bound kernels:**", capitalised(bound));
            if list.is_empty() {
                out.push_str("- none\n");
            }
            for (k, t) in list {
                let _ = writeln!(
                    out,
                    "- `{}` ({}): {} of the phase's time",
                    cell(&k.kernel),
                    cell(&k.op),
                    pct(t / total)
                );
            }
            out.push('\n');
        }
        let mut room: Vec<(&KernelPoint, f64)> = members
            .iter()
            .filter(|k| k.flops > 0.0)
            .map(|k| {
                (
                    *k,
                    k.achieved_flops_per_s() / k.predict(hw, &Efficiency::IDEAL).attainable.get(),
                )
            })
            .filter(|(_, f)| *f < ROOM_BELOW)
            .collect();
        rooflinr_model::sort::sort_by(&mut room, |a, b| a.1.total_cmp(&b.1));
        let _ = writeln!(
            out,
            "**Overall:** {} of this phase's measured time is in memory-bound kernels; {} of {} kernels run below {} of their attainable rate{}",
            pct(memory_time / total),
            room.len(),
            members.len(),
            pct(ROOM_BELOW),
            if room.is_empty() {
                ".".to_string()
            } else {
                ":".to_string()
            }
        );
        for (k, f) in room.iter().take(8) {
            let _ = writeln!(out, "- `{}`: {} of attainable", cell(&k.kernel), pct(*f));
        }
        out.push('\n');
    }
    out.push_str("---\n\n");
}

fn title_case(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => std::iter::once(f.to_ascii_uppercase()).chain(c).collect(),
        None => String::new(),
    }
}

fn scaling(out: &mut String, hw: &Hardware, kernels: &[KernelPoint]) {
    out.push_str("## Scaling Behavior\n\n### Batch scaling (decode)\n\nA weight-stationary GEMM with M tokens, b-bit weights and K, N much larger than M moves about N·K·b/8 bytes for 2·M·N·K FLOPs: its intensity is about 16·M/b and it turns compute-bound once M passes ridge · b / 16. On this device:\n\n| Weights | Bits per weight | Runs as | Ridge (FLOP/byte) | Compute-bound from M ≈ |\n|---------|-----------------|---------|-------------------|------------------------|\n");
    let mut formats: Vec<Format> = kernels.iter().filter_map(|k| k.format).collect();
    if formats.is_empty() {
        formats = vec![Format::Fp16, Format::Fp8E4m3, Format::NvFp4];
    }
    rooflinr_model::sort::sort_by_key(&mut formats, |f| f.name());
    formats.dedup();
    for f in formats {
        let math = f.math();
        let ceiling = hw.ceiling(math, product_is_block_scaled(f, f));
        let ridge = ceiling.peak.get() / hw.memory_bandwidth.value.get();
        let bits = f.bits_per_element();
        let _ = writeln!(
            out,
            "| {} | {:.3} | {}{} | {:.0} | {:.0} |",
            f.name(),
            bits,
            ceiling.executed_as.name().to_ascii_uppercase(),
            if ceiling.native { "" } else { " (converted)" },
            ridge,
            (ridge * bits / 16.0).ceil()
        );
    }
    out.push_str("\nBelow that batch, time follows bytes: fewer bits per weight is proportionally faster. Above it, the format's tensor-core rate decides.\n\n### Sequence scaling (prefill)\n\nGEMM work grows linearly with the prompt and stays compute-bound; attention work grows with the square of the sequence and dominates at long prompts; the KV cache grows linearly.\n\n---\n\n");
}

#[cfg(test)]
mod tests;
