//! NVIDIA's measured serving sample (`aiconfigurator_core/systems/silicon_sample.csv` in
//! the `aiconfigurator-core` 0.12.0 wheel, Apache-2.0): each row read into a deployment
//! rooflinr can predict, or refused with the rule that refused it.
//!
//! The rules, each counted in `validate --serving`'s output:
//! - The model must be one rooflinr reads ([`model_key`]); others are "not yet readable",
//!   counted by model.
//! - `attention_dp_size` empty or 0 is 1 (the field was left empty; no row's id names a
//!   DP of 0); `pp_size` empty is 1.
//! - A MoE row's attention GPUs per stage (`tp x dp`) must equal its MoE grid (`moe_tp x
//!   moe_ep`), the same GPUs. Some rows write "TP k, EP k" on k GPUs as `tp_size` k^2 with
//!   `moe_tp_size` = `moe_ep_size` = k: where that product is more GPUs than the system's
//!   scale-up domain (8 on HGX boards), the row is read as k GPUs with attention TP k (or
//!   DP k) and EP k, and its concurrency is taken from `silicon_concurrency`.
//! - Mixed MoE TP x EP (both above 1) is read as experts over `moe_ep` groups, each
//!   expert's columns split over the `moe_tp` GPUs of its group.
//! - A checkpoint that quantises only its routed experts (gpt-oss's MXFP4,
//!   `ModelConfig::checkpoint_experts`) runs in its own formats: experts in that format,
//!   every other layer and the activations in BF16, whatever `gemm_quant_mode` says (the
//!   sample labels gpt-oss `nvfp4`, and `fp8` on H100 with TensorRT-LLM).
//! - Concurrency is `silicon_concurrency` in `silicon_data_source` where given, else
//!   `batch_size x attention DP` (an `agg` row's batch is per attention rank). Where the
//!   concurrency is a whole multiple (2 or more) of `batch_size x attention DP`, the run
//!   spread its clients over that many replicas of the engine behind a router: each is
//!   predicted with its share (tokens/s per GPU are the same for every replica).
//! - A `disagg` row needs every `prefill_*` and `decode_*` layout and worker field.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use rooflinr_model::analysis::ExpertFormats;
use rooflinr_model::format::Format;
use rooflinr_model::kernel_time::Framework;
use serde::Serialize;

/// The columns the sample must have, in the order they are read.
pub const COLUMNS: [&str; 34] = [
    "id",
    "silicon_data_source",
    "backend",
    "backend_version",
    "model_path",
    "system",
    "precision",
    "mode",
    "isl",
    "osl",
    "gemm_quant_mode",
    "moe_quant_mode",
    "batch_size",
    "tp_size",
    "pp_size",
    "attention_dp_size",
    "moe_tp_size",
    "moe_ep_size",
    "prefill_batch_size",
    "prefill_num_workers",
    "prefill_tp_size",
    "prefill_pp_size",
    "prefill_attention_dp_size",
    "prefill_moe_tp_size",
    "prefill_moe_ep_size",
    "decode_batch_size",
    "decode_num_workers",
    "decode_tp_size",
    "decode_pp_size",
    "decode_attention_dp_size",
    "decode_moe_tp_size",
    "decode_moe_ep_size",
    "silicon_ttft_ms",
    "silicon_tpot_ms",
];

/// One engine's layout as the sample gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SampleLayout {
    /// Attention tensor parallelism.
    pub tp: u32,
    /// Pipeline stages.
    pub pp: u32,
    /// Attention data parallelism.
    pub dp: u32,
    /// MoE expert parallelism: the groups of the `tp x dp` GPUs the routed experts are
    /// spread over (1 for a dense model or experts split by columns), each expert's
    /// columns split over the `tp x dp / ep` GPUs of its group (MoE TP).
    pub ep: u32,
}

impl SampleLayout {
    /// The deployment layout it is.
    pub fn layout(self) -> rooflinr_model::deploy::Layout {
        rooflinr_model::deploy::Layout {
            tensor: self.tp,
            pipeline: self.pp,
            data: self.dp,
            expert: self.ep,
        }
    }
}

/// How the row was served.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Serving {
    /// One engine serving prefill and decode.
    Aggregated(SampleLayout),
    /// Prefill workers and decode workers.
    Disaggregated {
        /// The prefill workers' layout.
        prefill: SampleLayout,
        /// How many.
        prefill_workers: u32,
        /// The decode workers' layout.
        decode: SampleLayout,
        /// How many.
        decode_workers: u32,
    },
}

/// Where a row was measured: its benchmark client decides the request count and lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// SemiAnalysis InferenceX (`db-dump/...` or a dated `source_file=YYYY-MM-DD.csv`):
    /// `benchmark_serving.py --num-prompts 10 x C --random-range-ratio 0.8`
    /// (`benchmarks/single_node/*.sh`, `.github/workflows/benchmark-tmpl.yml`).
    InferenceX,
    /// NVIDIA's gap-analysis runs (Dynamo images): the client is not published; taken as a
    /// closed loop of fixed lengths and 10 x C requests.
    Nvidia,
}

/// A usable row.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleRow {
    /// The row's id.
    pub id: String,
    /// Where it was measured.
    pub origin: Origin,
    /// The engine.
    pub framework: Framework,
    /// Its release (`backend_version`, may be empty).
    pub version: String,
    /// The model as the sample names it.
    pub model: String,
    /// rooflinr's preset for it.
    pub preset: &'static str,
    /// The registry key of the GPU.
    pub hardware: &'static str,
    /// Prompt tokens.
    pub isl: u64,
    /// Output tokens.
    pub osl: u64,
    /// Requests in flight (the benchmark's `--max-concurrency`).
    pub concurrency: u64,
    /// Weights and activations of the linear layers.
    pub weights: Format,
    /// Activations' format.
    pub activations: Format,
    /// The routed experts' formats where the checkpoint stores only them quantised
    /// (`ModelConfig::checkpoint_experts`: gpt-oss's MXFP4, [`expert_activations`]); the
    /// linear layers are then BF16, whatever the row's `gemm_quant_mode` says.
    pub experts: Option<ExpertFormats>,
    /// The layout.
    pub serving: Serving,
    /// Measured time to first token, seconds.
    pub ttft_s: f64,
    /// Measured time per output token, seconds.
    pub tpot_s: f64,
    /// Whether the layout was read from the "TP k EP k as k^2" writing.
    pub square_layout: bool,
    /// Replicas of the engine the run's clients were spread over.
    pub replicas: u64,
}

/// Every row's fate.
#[derive(Debug, Default)]
pub struct Sample {
    /// Rows in the file.
    pub rows: usize,
    /// The usable ones.
    pub usable: Vec<SampleRow>,
    /// Refused rows by reason.
    pub refused: BTreeMap<String, usize>,
    /// Rows of models not yet readable, by model.
    pub unreadable: BTreeMap<String, usize>,
    /// Usable rows whose layout was read from the "TP k EP k as k^2" writing.
    pub square_layouts: usize,
    /// Usable rows whose attention DP field was empty or 0.
    pub empty_dp: usize,
    /// Usable rows whose clients were spread over several replicas of the engine.
    pub replicated: usize,
}

/// rooflinr's preset for a model of the sample, or `None` where its family is not read yet.
pub fn model_key(model_path: &str) -> Option<&'static str> {
    Some(match model_path {
        "deepseek-ai/DeepSeek-V3" | "nvidia/DeepSeek-V3.1-NVFP4" => "deepseek-v3",
        "deepseek-ai/DeepSeek-R1" | "nvidia/DeepSeek-R1-NVFP4" => "deepseek-r1",
        "meta-llama/Llama-3.1-8B-Instruct" | "nvidia/Llama-3.1-8B-Instruct-FP8" => "llama-3.1-8b",
        "meta-llama/Llama-3.1-70B" => "llama-3.1-70b",
        "Qwen/Qwen3-32B" | "nvidia/Qwen3-32B-NVFP4" => "qwen3-32b",
        "Qwen/Qwen3-235B-A22B" | "Qwen/Qwen3-235B-A22B-FP8" => "qwen3-235b-a22b",
        "moonshotai/Kimi-K2.5" | "nvidia/Kimi-K2.5-NVFP4" => "kimi-k2.5",
        "MiniMaxAI/MiniMax-M2.5" | "nvidia/MiniMax-M2.5-NVFP4" => "minimax-m2.5",
        "openai/gpt-oss-120b" => "gpt-oss-120b",
        "Qwen/Qwen3.5-397B-A17B" => "qwen3.5-397b-a17b",
        _ => return None,
    })
}

/// What `framework` multiplies a checkpoint's MXFP4 experts with: MXFP8 activations in
/// TensorRT-LLM on Blackwell, BF16 on Hopper (TensorRT-LLM's
/// `examples/models/core/gpt_oss/README.md`, "MoE Support Matrix"); BF16 in vLLM and SGLang,
/// whose MXFP8 path is opt-in (vLLM's `VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8`).
fn expert_activations(framework: Framework, blackwell: bool) -> Format {
    if framework == Framework::TensorRtLlm && blackwell {
        Format::MxFp8E4m3
    } else {
        Format::Bf16
    }
}

/// The registry key of a sample system, and the GPUs of its scale-up domain.
fn system(name: &str) -> Option<(&'static str, u32)> {
    Some(match name {
        "h100_sxm" => ("h100-sxm", 8),
        "h200_sxm" => ("h200", 8),
        "b200_sxm" => ("b200", 8),
        "b300_sxm" => ("b300", 8),
        "gb200" => ("gb200", 72),
        "gb300" => ("gb300", 72),
        _ => return None,
    })
}

/// The formats of a row's GEMM quantisation: (weights, activations). `fp8_block` is FP8
/// with a scale per 128 x 128 block (DeepSeek-V3's recipe), counted as FP8; empty is the
/// checkpoint's BF16.
fn formats(gemm_quant: &str) -> Option<(Format, Format)> {
    Some(match gemm_quant {
        "" | "bf16" => (Format::Bf16, Format::Bf16),
        "fp8" | "fp8_block" => (Format::Fp8E4m3, Format::Fp8E4m3),
        "nvfp4" => (Format::NvFp4, Format::NvFp4),
        _ => return None,
    })
}

fn number(field: &str, v: &str) -> Result<Option<u64>> {
    if v.trim().is_empty() {
        return Ok(None);
    }
    v.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| *x >= 0.0 && x.fract() == 0.0 && *x < 1e12)
        .map(|x| Some(x as u64))
        .with_context(|| format!("{field} is {v:?}, not a whole number"))
}

/// `silicon_concurrency=N` in the data source.
fn source_concurrency(source: &str) -> Option<u64> {
    source
        .split(';')
        .find_map(|p| p.trim().strip_prefix("silicon_concurrency="))
        .and_then(|v| v.trim().parse().ok())
}

fn origin(source: &str) -> Origin {
    let dated = source
        .strip_prefix("source_file=")
        .and_then(|f| f.split(';').next())
        .is_some_and(|f| {
            let f = f.trim().trim_end_matches(".csv");
            f.len() == 10 && f.chars().filter(|c| *c == '-').count() == 2
        });
    if source.starts_with("db-dump/") || dated {
        Origin::InferenceX
    } else {
        Origin::Nvidia
    }
}

/// One engine's layout from the sample's degrees, by the module's rules: `Ok(None)` with a
/// reason where the row is refused.
fn layout(
    moe: bool,
    [tp, pp, dp, moe_tp, moe_ep]: [Option<u64>; 5],
    domain: u32,
) -> std::result::Result<(SampleLayout, bool), &'static str> {
    let tp = tp
        .filter(|v| *v > 0)
        .ok_or("tensor parallelism missing or 0")?;
    let pp = pp.unwrap_or(1).max(1);
    let dp = dp.filter(|v| *v > 0).unwrap_or(1);
    let small = |v: u64| u32::try_from(v).map_err(|_| "a degree over 2^32");
    if !moe {
        return Ok((
            SampleLayout {
                tp: small(tp)?,
                pp: small(pp)?,
                dp: small(dp)?,
                ep: 1,
            },
            false,
        ));
    }
    let (mtp, mep) = match (moe_tp.filter(|v| *v > 0), moe_ep.filter(|v| *v > 0)) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err("MoE degrees missing or 0"),
    };
    let gpus = tp * dp;
    if gpus != mtp * mep {
        return Err("attention GPUs (TP x DP) differ from the MoE grid (MoE TP x EP)");
    }
    if mtp == mep && mtp > 1 && gpus > u64::from(domain) {
        // "TP k, EP k" on k GPUs, written as their product.
        let k = small(mtp)?;
        let (tp, dp) = if tp > 1 { (k, 1) } else { (1, k) };
        return Ok((
            SampleLayout {
                tp,
                pp: small(pp)?,
                dp,
                ep: k,
            },
            true,
        ));
    }
    Ok((
        SampleLayout {
            tp: small(tp)?,
            pp: small(pp)?,
            dp: small(dp)?,
            ep: small(mep)?,
        },
        false,
    ))
}

/// Reads the sample at `path`, each row by the module's rules.
pub fn read(path: &Path) -> Result<Sample> {
    let mut reader = csv::Reader::from_path(path)
        .with_context(|| format!("cannot open the serving sample {}", path.display()))?;
    let headers = reader.headers()?.clone();
    let mut at = [0usize; COLUMNS.len()];
    for (i, name) in COLUMNS.iter().enumerate() {
        at[i] = headers.iter().position(|h| h == *name).with_context(|| {
            format!("{} has no column {name:?}: not the serving sample this reads (aiconfigurator-core 0.12.0's silicon_sample.csv)", path.display())
        })?;
    }
    let mut sample = Sample::default();
    // Per preset: whether it has routed experts, and their checkpoint format.
    let mut models: BTreeMap<&'static str, (bool, Option<Format>)> = BTreeMap::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.with_context(|| format!("line {} of {}", line + 2, path.display()))?;
        sample.rows += 1;
        let get = |name: &str| {
            let i = COLUMNS.iter().position(|c| *c == name).unwrap_or(0);
            record.get(at[i]).unwrap_or("")
        };
        let mut row = || -> Result<std::result::Result<(SampleRow, bool), String>> {
            let model = get("model_path");
            let Some(preset) = model_key(model) else {
                return Ok(Err(format!("unreadable:{model}")));
            };
            let Some((hardware, domain)) = system(get("system")) else {
                return Ok(Err(format!("system {} not in the registry", get("system"))));
            };
            let Some(framework) = Framework::parse(get("backend")) else {
                return Ok(Err(format!("backend {} unknown", get("backend"))));
            };
            let (moe, checkpoint_experts) = match models.get(preset) {
                Some(m) => *m,
                None => {
                    let c = rooflinr_model::presets::get(preset)?;
                    let m = (c.moe.is_some(), c.checkpoint_experts);
                    models.insert(preset, m);
                    m
                }
            };
            let (weights, activations, experts) = match checkpoint_experts {
                // The checkpoint's own formats, whatever the row's label.
                Some(weights) => {
                    let blackwell =
                        rooflinr_model::hardware::registry::get(hardware)?.has_tcgen05();
                    let experts = ExpertFormats {
                        weights,
                        activations: expert_activations(framework, blackwell),
                    };
                    (Format::Bf16, Format::Bf16, Some(experts))
                }
                None => match formats(get("gemm_quant_mode")) {
                    Some((w, a)) => (w, a, None),
                    None => {
                        return Ok(Err(format!(
                            "GEMM quantisation {} not modelled",
                            get("gemm_quant_mode")
                        )));
                    }
                },
            };
            let n = |f: &str| number(f, get(f));
            let (isl, osl) = match (n("isl")?, n("osl")?) {
                (Some(i), Some(o)) if i > 0 && o > 0 => (i, o),
                _ => return Ok(Err("ISL or OSL missing".into())),
            };
            let degrees = |p: &str| -> Result<[Option<u64>; 5]> {
                Ok([
                    n(&format!("{p}tp_size"))?,
                    n(&format!("{p}pp_size"))?,
                    n(&format!("{p}attention_dp_size"))?,
                    n(&format!("{p}moe_tp_size"))?,
                    n(&format!("{p}moe_ep_size"))?,
                ])
            };
            let (serving, square, dp_field) = match get("mode") {
                "agg" => {
                    let d = degrees("")?;
                    match layout(moe, d, domain) {
                        Ok((l, square)) => (Serving::Aggregated(l), square, d[2]),
                        Err(why) => return Ok(Err(why.to_string())),
                    }
                }
                "disagg" => {
                    let (p, d) = (degrees("prefill_")?, degrees("decode_")?);
                    let workers = (n("prefill_num_workers")?, n("decode_num_workers")?);
                    let (Some(pw), Some(dw)) = workers else {
                        return Ok(Err("disagg worker counts missing".into()));
                    };
                    if p[0].is_none() || d[0].is_none() || pw == 0 || dw == 0 {
                        return Ok(Err("disagg layout fields missing".into()));
                    }
                    let (pl, ps) = match layout(moe, p, domain) {
                        Ok(v) => v,
                        Err(why) => return Ok(Err(format!("prefill: {why}"))),
                    };
                    let (dl, ds) = match layout(moe, d, domain) {
                        Ok(v) => v,
                        Err(why) => return Ok(Err(format!("decode: {why}"))),
                    };
                    let small = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
                    (
                        Serving::Disaggregated {
                            prefill: pl,
                            prefill_workers: small(pw),
                            decode: dl,
                            decode_workers: small(dw),
                        },
                        ps || ds,
                        d[2],
                    )
                }
                other => return Ok(Err(format!("mode {other:?} unknown"))),
            };
            let dp = match serving {
                Serving::Aggregated(l) => u64::from(l.dp),
                Serving::Disaggregated { .. } => 1,
            };
            let batch = n("batch_size")?.filter(|b| *b > 0 && !square);
            let (concurrency, replicas) =
                match (source_concurrency(get("silicon_data_source")), batch) {
                    (Some(c), Some(b))
                        if matches!(serving, Serving::Aggregated(_))
                            && c >= 2 * b * dp
                            && c.is_multiple_of(b * dp) =>
                    {
                        (b * dp, c / (b * dp))
                    }
                    (Some(c), _) if c > 0 => (c, 1),
                    (_, Some(b)) => (b * dp, 1),
                    _ => return Ok(Err("concurrency missing".into())),
                };
            let ms = |f: &str| -> Result<Option<f64>> {
                let v = get(f).trim();
                if v.is_empty() {
                    return Ok(None);
                }
                let x: f64 = v
                    .parse()
                    .with_context(|| format!("{f} is {v:?}, not a number"))?;
                Ok((x > 0.0 && x.is_finite()).then_some(x / 1e3))
            };
            let (Some(ttft_s), Some(tpot_s)) = (ms("silicon_ttft_ms")?, ms("silicon_tpot_ms")?)
            else {
                return Ok(Err("measured TTFT or TPOT missing".into()));
            };
            let empty_dp = dp_field.is_none_or(|v| v == 0);
            Ok(Ok((
                SampleRow {
                    id: get("id").to_string(),
                    origin: origin(get("silicon_data_source")),
                    framework,
                    version: get("backend_version").to_string(),
                    model: model.to_string(),
                    preset,
                    hardware,
                    isl,
                    osl,
                    concurrency,
                    weights,
                    activations,
                    experts,
                    serving,
                    ttft_s,
                    tpot_s,
                    square_layout: square,
                    replicas,
                },
                empty_dp,
            )))
        };
        match row().with_context(|| format!("line {} of {}", line + 2, path.display()))? {
            Ok((r, empty_dp)) => {
                sample.square_layouts += usize::from(r.square_layout);
                sample.replicated += usize::from(r.replicas > 1);
                sample.empty_dp += usize::from(empty_dp);
                sample.usable.push(r);
            }
            Err(why) => match why.strip_prefix("unreadable:") {
                Some(model) => *sample.unreadable.entry(model.to_string()).or_default() += 1,
                None => *sample.refused.entry(why).or_default() += 1,
            },
        }
    }
    if sample.rows == 0 {
        bail!("{} has no rows", path.display());
    }
    Ok(sample)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "id,silicon_data_source,backend,backend_version,model_path,system,precision,mode,isl,osl,gemm_quant_mode,moe_quant_mode,batch_size,tp_size,pp_size,attention_dp_size,moe_tp_size,moe_ep_size,prefill_batch_size,prefill_num_workers,prefill_tp_size,prefill_pp_size,prefill_attention_dp_size,prefill_moe_tp_size,prefill_moe_ep_size,decode_batch_size,decode_num_workers,decode_tp_size,decode_pp_size,decode_attention_dp_size,decode_moe_tp_size,decode_moe_ep_size,silicon_ttft_ms,silicon_tpot_ms";

    fn sample(rows: &[&str]) -> Result<Sample> {
        let dir = std::env::temp_dir().join(format!("rooflinr-sample-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(format!("s{}.csv", rows.len()));
        std::fs::write(&path, format!("{HEADER}\n{}\n", rows.join("\n")))?;
        read(&path)
    }

    #[test]
    fn rows_are_read_by_the_rules_and_refusals_counted() {
        let s = sample(&[
            // TP8 EP8 on 8 GPUs written as tp 64 x moe 8 x 8.
            "a,db-dump/2026-04-27; silicon_concurrency=64,trtllm,,deepseek-ai/DeepSeek-V3,h200_sxm,fp8,agg,1024,1024,fp8,fp8,64,64,1,1,8,8,,,,,,,,,,,,,,,200,20",
            // DEP8: attention DP 8, EP 8, batch per rank.
            "b,source_file=x.csv,trtllm,1.0,deepseek-ai/DeepSeek-R1,b200_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,4,1,1,8,1,8,,,,,,,,,,,,,,,100,10",
            // Dense, empty DP.
            "c,source_file=2026-03-25.csv; silicon_concurrency=16,vllm,0.19.0,meta-llama/Llama-3.1-70B,h100_sxm,fp8,agg,8192,1024,fp8,fp8,16,4,1,,1,1,,,,,,,,,,,,,,,300,30",
            // Not yet readable.
            "d,x,vllm,,zhipuai/GLM-5,h100_sxm,fp4,agg,1024,1024,,,4,1,1,1,1,1,,,,,,,,,,,,,,,1,1",
            // Its checkpoint's formats, not the row's nvfp4 label.
            "g,x,vllm,,openai/gpt-oss-120b,h100_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,4,1,1,1,1,1,,,,,,,,,,,,,,,1,1",
            // Inconsistent MoE grid.
            "e,x,sglang,,deepseek-ai/DeepSeek-V3,h200_sxm,fp8,agg,1024,1024,fp8,fp8,4,8,1,1,4,1,,,,,,,,,,,,,,,1,1",
            // Mixed MoE TP x EP: experts over 4 groups of 2 GPUs.
            "f,x,trtllm,,nvidia/DeepSeek-R1-NVFP4,b200_sxm,fp4,agg,4000,1000,nvfp4,nvfp4,12,8,1,,2,4,,,,,,,,,,,,,,,1,1",
        ])
        .unwrap();
        assert_eq!(s.rows, 7);
        assert_eq!(s.usable.len(), 5);
        let a = &s.usable[0];
        assert_eq!(
            a.serving,
            Serving::Aggregated(SampleLayout {
                tp: 8,
                pp: 1,
                dp: 1,
                ep: 8
            })
        );
        assert!(a.square_layout);
        assert_eq!(
            (a.concurrency, a.origin, a.hardware),
            (64, Origin::InferenceX, "h200")
        );
        assert_eq!((a.ttft_s, a.tpot_s), (0.2, 0.02));
        let b = &s.usable[1];
        assert_eq!(b.concurrency, 32);
        assert_eq!(b.origin, Origin::Nvidia);
        assert_eq!(b.weights, Format::NvFp4);
        let c = &s.usable[2];
        assert_eq!(
            (c.preset, c.concurrency, c.origin),
            ("llama-3.1-70b", 16, Origin::InferenceX)
        );
        // Rows c and f (usable now that mixed MoE TP x EP is read) leave attention DP empty.
        assert_eq!(s.empty_dp, 2);
        assert_eq!(s.square_layouts, 1);
        assert_eq!(s.unreadable.get("zhipuai/GLM-5"), Some(&1));
        let g = s.usable.iter().find(|r| r.id == "g").unwrap();
        assert_eq!(
            (g.weights, g.activations, g.experts),
            (
                Format::Bf16,
                Format::Bf16,
                Some(ExpertFormats {
                    weights: Format::MxFp4,
                    activations: Format::Bf16
                })
            )
        );
        assert_eq!(
            s.refused
                .get("attention GPUs (TP x DP) differ from the MoE grid (MoE TP x EP)"),
            Some(&1)
        );
        let f = s.usable.iter().find(|r| r.id == "f").unwrap();
        let mixed = SampleLayout {
            tp: 8,
            pp: 1,
            dp: 1,
            ep: 4,
        };
        assert_eq!(f.serving, Serving::Aggregated(mixed));
        assert_eq!(mixed.layout().moe_tensor(), 2);
    }

    #[test]
    fn a_file_without_a_column_names_it() {
        let dir = std::env::temp_dir().join(format!("rooflinr-sample-h-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.csv");
        std::fs::write(&path, HEADER.replace("silicon_tpot_ms", "tpot") + "\n").unwrap();
        let e = format!("{:#}", read(&path).unwrap_err());
        assert!(e.contains("\"silicon_tpot_ms\""), "{e}");
        std::fs::write(&path, format!("{HEADER}\na,x,vllm,,Qwen/Qwen3-32B,h100_sxm,,agg,1k,128,,,1,1,1,1,1,1,,,,,,,,,,,,,,,1,1\n")).unwrap();
        let e = format!("{:#}", read(&path).unwrap_err());
        assert!(e.contains("line 2") && e.contains("isl is \"1k\""), "{e}");
    }
}
