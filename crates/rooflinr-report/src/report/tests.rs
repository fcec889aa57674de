//! The report says what the kernels and the device say, in the prototype's shape.

use rooflinr_model::hardware::registry;

use super::*;
use crate::import::import;
use crate::kernel::MeasuredPeak;
use rooflinr_model::format::Math;

const KERNELS: &str = "kernel,op,flops,bytes,time_us,phase,format
cutlass_scaled_fp4_mm,q_b_proj,9.7e9,26.1e6,4.0,prefill,nvfp4
rmsnorm,layernorm,35840,28672,3.0,decode,fp16
silu_and_mul,act_fn,<script>,1,1,decode,fp16
";

fn kernels() -> Vec<KernelPoint> {
    let text = KERNELS.replace("<script>", "8192");
    import(&text).unwrap().kernels
}

#[test]
fn markdown_has_seed_004s_sections_and_computed_figures() {
    let hw = registry::get("b200").unwrap();
    let kernels = kernels();
    let md = markdown(&ReportInput {
        title: "test kernels",
        hardware: &hw,
        kernels: &kernels,
        ceilings: &MeasuredCeilings::default(),
        generated: "now",
        chart_file: Some("chart.svg"),
        notes: &["a note".to_string()],
    });
    assert!(md.starts_with(&format!("# {} Roofline Analysis - test kernels\n", hw.name)));
    for section in [
        "## Hardware Limits",
        "## Roofline Model",
        "## Kernel Placement",
        "## Calibration",
        "## Bottleneck Analysis",
        "## Scaling Behavior",
        "![Roofline chart](chart.svg)",
        "- a note",
    ] {
        assert!(md.contains(section), "missing {section}:\n{md}");
    }
    let bw = hw.memory_bandwidth.value.get();
    let fp16 = hw.peak(rooflinr_model::format::Math::Fp16).unwrap().get();
    assert!(md.contains(&format!(
        "| Ridge Point (FP16) | {:.1} FLOP/byte | datasheet |",
        fp16 / bw
    )));
    // The FP4 GEMM of the prototype's worked example: intensity 9.7e9 / 26.1e6 = 372, below
    // B200's FP4 ridge (9000 / 8 = 1125), so memory-bound (the prototype calls it compute-bound).
    let fp4 = kernels[0].predict(&hw, &Efficiency::IDEAL);
    assert!(fp4.ridge.get() > 1000.0);
    assert_eq!(fp4.bound, Bound::Memory);
    assert!(
        md.contains(&format!(
            "| `cutlass_scaled_fp4_mm` | q_b_proj | prefill | FP4 | {:.2} | Memory |",
            9.7e9 / 26.1e6
        )),
        "{md}"
    );
    assert!(
        md.contains("| `rmsnorm` | layernorm | decode | FP16 | 1.25 | Memory |"),
        "{md}"
    );
    // Prefill is that one kernel: all of its time is memory-bound.
    assert!(
        md.contains("**Overall:** 100% of this phase's measured time is in memory-bound kernels"),
        "{md}"
    );
    let placement_rows = md.lines().filter(|l| l.starts_with("| `")).count();
    assert_eq!(placement_rows, kernels.len());
}

#[test]
fn the_chart_places_every_kernel_and_escapes_names() {
    let hw = registry::get("h100-sxm").unwrap();
    let mut kernels = kernels();
    kernels[1].kernel = "gemv<half> & co".into();
    kernels[1].op = "a<b".into();
    let ceilings = MeasuredCeilings {
        bandwidth: Some((3.0e12, "copy".into())),
        read: None,
        peaks: vec![MeasuredPeak {
            format: Format::Fp16,
            math: Math::Fp16,
            flops_per_s: 700e12,
        }],
        device: None,
    };
    let svg = svg::chart(&hw, &kernels, &ceilings, "t & t");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("t &amp; t"));
    assert!(svg.contains("gemv&lt;half&gt; &amp; co"));
    assert!(!svg.contains("a<b"));
    // One marker per placed kernel, each with its tooltip.
    assert_eq!(svg.matches("</title></path>").count(), kernels.len());
    assert!(svg.contains("(measured)"));
    assert!(svg.contains("stroke-dasharray"));
}

#[test]
fn kernels_without_counted_work_are_listed_apart_and_never_placed() {
    let hw = registry::get("b200").unwrap();
    let mut kernels = kernels();
    let mut tensor_gemm = kernels[0].clone();
    tensor_gemm.kernel = "sm90_xmma_gemm_bf16".into();
    tensor_gemm.flops = 0.0;
    tensor_gemm.flops_counted = false;
    kernels.push(tensor_gemm);
    let md = markdown(&ReportInput {
        title: "t",
        hardware: &hw,
        kernels: &kernels,
        ceilings: &MeasuredCeilings::default(),
        generated: "now",
        chart_file: None,
        notes: &[],
    });
    let (placement, rest) = md
        .split_once("## Kernels Without FLOPs Counted")
        .expect("a section for them");
    assert!(!placement.contains("sm90_xmma_gemm_bf16"), "not placed");
    assert!(
        rest.contains("| `sm90_xmma_gemm_bf16` | 4.00 µs | 26.1 MB |"),
        "{rest}"
    );
    // Nor fitted on, nor drawn.
    let after = rest.split_once("\n---\n").map_or("", |(_, a)| a);
    assert!(!after.contains("sm90_xmma_gemm_bf16"), "{after}");
    let chart = svg::chart(&hw, &kernels, &MeasuredCeilings::default(), "t");
    assert!(!chart.contains("sm90_xmma_gemm_bf16"));
}
