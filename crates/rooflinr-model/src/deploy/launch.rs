//! The serving engine's own launch command for a deployment: the layout, the scheduler's
//! budgets, the formats and speculative decoding written as the flags of a stated engine
//! release, so the layout rooflinr picked is the one the engine runs.
//!
//! The flag names are those of these releases' argument parsers (the test data under
//! `testdata/engine-flags/` holds every flag each release accepts, and the tests check each
//! emitted flag against it):
//! - vLLM 0.19.0, `vllm/engine/arg_utils.py` (`vllm serve`);
//! - SGLang 0.5.9, `python/sglang/srt/server_args.py` (`python -m sglang.launch_server`);
//! - TensorRT-LLM's `trtllm-serve` (`tensorrt_llm/commands/serve.py`) and the LLM API
//!   options its `--extra_llm_api_options` YAML sets (`tensorrt_llm/llmapi/llm_args.py`),
//!   as of NVIDIA/TensorRT-LLM commit 00209af.

use std::fmt::Write as _;

use crate::config::ModelConfig;
use crate::deploy::{Layout, Scheduler, Speculation, Workload};
use crate::error::ModelError;
use crate::format::Format;
use crate::kernel_time::Framework;

/// The release whose flag names [`launch`] writes for `engine`.
pub fn release(engine: Framework) -> &'static str {
    match engine {
        Framework::Vllm => "vLLM 0.19.0",
        Framework::Sglang => "SGLang 0.5.9",
        Framework::TensorRtLlm => "TensorRT-LLM trtllm-serve (commit 00209af, PyTorch backend)",
    }
}

/// What the command launches: the deployment as rooflinr evaluated it.
#[derive(Clone, Copy, Debug)]
pub struct LaunchSpec<'a> {
    /// The model; its `name` is the Hugging Face id where the config gave one.
    pub model: &'a ModelConfig,
    /// The layout.
    pub layout: Layout,
    /// The in-flight scheduler the figures were computed under.
    pub scheduler: Scheduler,
    /// The workload (a scheduler without chunked prefill needs a budget of a whole prompt
    /// beside the running batch, [`Scheduler::budget_for`]).
    pub workload: Workload,
    /// The weights' format (the non-expert layers' where the experts differ). The engines
    /// take the activations' from the weights' quantisation method (FP8 weights run FP8
    /// activations, an NVFP4 checkpoint NVFP4), so they have no flag of their own.
    pub weights: Format,
    /// The routed experts' weights where they differ.
    pub expert_weights: Option<Format>,
    /// The KV cache's format.
    pub kv: Format,
    /// Speculative decoding, if on.
    pub speculation: Option<Speculation>,
}

/// One option of the command line: a flag and its value, if it takes one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The flag as the engine's parser names it, `--tensor-parallel-size`.
    pub name: &'static str,
    /// Its value, unquoted.
    pub value: Option<String>,
}

/// A file the command reads (TensorRT-LLM's `--extra_llm_api_options` YAML).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigFile {
    /// The file name the command gives.
    pub name: &'static str,
    /// Its text.
    pub text: String,
}

/// An engine's launch command for one deployment.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// The engine.
    pub engine: Framework,
    /// The release whose flag names these are ([`release`]).
    pub release: &'static str,
    /// The program and its subcommand, `vllm serve`.
    pub program: &'static str,
    /// The model argument: positional for vLLM and TensorRT-LLM, `--model-path` for SGLang.
    pub model: String,
    /// The options, in the order written.
    pub flags: Vec<Flag>,
    /// The configuration file the command reads, if any.
    pub config_file: Option<ConfigFile>,
    /// Copies of this command to run, each on its own GPUs behind a load balancer (data
    /// parallelism the engine does not run inside one server).
    pub replicas: u32,
    /// What the command leaves to the user or assumes.
    pub notes: Vec<String>,
}

impl Launch {
    /// The command as a shell would run it, one option per line; a configuration file is
    /// written first with a here-document.
    pub fn shell(&self) -> String {
        let mut s = String::new();
        if let Some(file) = &self.config_file {
            let _ = writeln!(s, "cat > {} <<'EOF'\n{}EOF", file.name, file.text);
        }
        s.push_str(self.program);
        match self.engine {
            Framework::Sglang => {
                let _ = write!(s, " --model-path {}", quote(&self.model));
            }
            Framework::Vllm | Framework::TensorRtLlm => {
                let _ = write!(s, " {}", quote(&self.model));
            }
        }
        for flag in &self.flags {
            s.push_str(" \\\n  ");
            s.push_str(flag.name);
            if let Some(v) = &flag.value {
                s.push(' ');
                s.push_str(&quote(v));
            }
        }
        s.push('\n');
        s
    }
}

/// Quotes `value` for a POSIX shell where it holds anything but plain characters.
fn quote(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if plain {
        value.to_string()
    } else {
        format!("'{}'", value.replace('\'', r"'\''"))
    }
}

/// The model argument: the config's Hugging Face id (`org/name`), or a path to fill in.
fn model_argument(model: &ModelConfig, notes: &mut Vec<String>) -> String {
    if model.name.contains('/') && !model.name.contains(char::is_whitespace) {
        model.name.clone()
    } else {
        notes.push(format!(
            "the config names no Hugging Face id (`_name_or_path`); replace /path/to/{} with the checkpoint's directory",
            model.name
        ));
        format!("/path/to/{}", model.name)
    }
}

fn flag(name: &'static str, value: impl ToString) -> Flag {
    Flag {
        name,
        value: Some(value.to_string()),
    }
}

fn switch(name: &'static str) -> Flag {
    Flag { name, value: None }
}

/// Whether a format is a 16-bit float, what every engine runs unquantised.
fn half(format: Format) -> bool {
    matches!(format, Format::Bf16 | Format::Fp16)
}

/// The engine's launch command for the deployment `spec` describes, or an error naming
/// what that engine's release cannot express.
pub fn launch(engine: Framework, spec: &LaunchSpec<'_>) -> Result<Launch, ModelError> {
    spec.layout.validate(spec.model)?;
    let mut notes = Vec::new();
    let model = model_argument(spec.model, &mut notes);
    let s = &spec.scheduler;
    if s.recv_interval != 1 && engine != Framework::Sglang {
        return Err(ModelError::invalid(
            "recv_interval",
            format!(
                "a scheduler read every {} steps is SGLang's --scheduler-recv-interval; {} reads new requests every step",
                s.recv_interval,
                engine.name()
            ),
        ));
    }
    if s.adp_balance.is_some() && engine != Framework::TensorRtLlm {
        return Err(ModelError::invalid(
            "adp_balance",
            format!(
                "attention-DP balancing is TensorRT-LLM's attention_dp_config; {} has none",
                engine.name()
            ),
        ));
    }
    // Each attention replica schedules its own share of the requests (as the steady state
    // and the benchmark simulation do), at most its largest batch.
    let verify = 1 + spec.speculation.map_or(0, |k| k.draft_tokens);
    let running = spec
        .workload
        .concurrency
        .div_ceil(u64::from(spec.layout.data.max(1)))
        .min(s.max_sequences);
    let budget = s
        .budget_for(
            spec.workload.prompt as f64,
            running as f64,
            f64::from(verify),
        )
        .ceil() as u64;
    let (program, options) = match engine {
        Framework::Vllm => ("vllm serve", vllm(spec, budget, &mut notes)?),
        Framework::Sglang => (
            "python -m sglang.launch_server",
            sglang(spec, budget, &mut notes)?,
        ),
        Framework::TensorRtLlm => ("trtllm-serve", trtllm(spec, budget, &mut notes)?),
    };
    weights_note(engine, spec, &mut notes);
    Ok(Launch {
        engine,
        release: release(engine),
        program,
        model,
        flags: options.flags,
        config_file: options.config_file,
        replicas: options.replicas,
        notes,
    })
}

/// An engine's options for a deployment, before the program and the model are put in front.
struct Options {
    flags: Vec<Flag>,
    config_file: Option<ConfigFile>,
    replicas: u32,
}

/// What every engine reads from the checkpoint rather than from a flag.
fn weights_note(engine: Framework, spec: &LaunchSpec<'_>, notes: &mut Vec<String>) {
    let online_fp8 = matches!(engine, Framework::Vllm | Framework::Sglang);
    for (what, format) in [
        ("weights", Some(spec.weights)),
        ("experts", spec.expert_weights),
    ] {
        let Some(format) = format else { continue };
        if half(format) || (format == Format::Fp8E4m3 && online_fp8) {
            continue;
        }
        if spec.model.checkpoint_experts == Some(format) && what == "experts" {
            continue;
        }
        notes.push(format!(
            "{what} in {}: {} reads the format from the checkpoint's quantization config, so point the model at a checkpoint stored so (for example a ModelOpt export)",
            format.name(),
            engine.name()
        ));
    }
}

/// The KV cache's dtype in `engine`'s names, `None` for the model's own (16-bit) dtype.
fn kv_dtype(engine: Framework, kv: Format) -> Result<Option<&'static str>, ModelError> {
    if half(kv) {
        return Ok(None);
    }
    // vLLM 0.19.0 `CacheDType` (vllm/config/cache.py); SGLang 0.5.9 `--kv-cache-dtype`
    // choices; TensorRT-LLM's `KvCacheConfig.dtype`.
    let name = match (engine, kv) {
        (Framework::Vllm, Format::Fp8E4m3) => "fp8",
        (Framework::Vllm, Format::Fp8E5m2) => "fp8_e5m2",
        (Framework::Sglang, Format::Fp8E4m3) => "fp8_e4m3",
        (Framework::Sglang, Format::Fp8E5m2) => "fp8_e5m2",
        (Framework::Sglang, Format::MxFp4) => "fp4_e2m1",
        (Framework::TensorRtLlm, Format::Fp8E4m3) => "fp8",
        _ => {
            return Err(ModelError::invalid(
                "kv",
                format!("a KV cache in {}: {} stores none", kv.name(), engine.name()),
            ));
        }
    };
    Ok(Some(name))
}

/// Whether speculative decoding drafts with the model's own MTP modules (chained where
/// more tokens are drafted than there are modules, as vLLM and SGLang run them) rather than
/// with a separate draft model.
fn uses_mtp(spec: &LaunchSpec<'_>) -> bool {
    spec.model.mtp_layers > 0
}

fn vllm(
    spec: &LaunchSpec<'_>,
    budget: u64,
    notes: &mut Vec<String>,
) -> Result<Options, ModelError> {
    let l = spec.layout;
    let moe = spec.model.moe.is_some();
    let mut flags = vec![flag("--tensor-parallel-size", l.tensor)];
    if l.pipeline > 1 {
        flags.push(flag("--pipeline-parallel-size", l.pipeline));
    }
    if l.data > 1 {
        flags.push(flag("--data-parallel-size", l.data));
    }
    if moe && l.expert_parallel() {
        // vLLM's --enable-expert-parallel places whole experts over every GPU of TP x DP;
        // without it the experts form one tensor-parallel group of TP x DP (vLLM's data
        // parallel deployment guide).
        if !l.whole_experts() {
            return Err(ModelError::invalid(
                "layout",
                format!(
                    "{}: vLLM places whole experts over TP x DP ({} GPUs) or splits every expert over them; it has no MoE TP x EP mix",
                    l.spec(),
                    l.stage_gpus()
                ),
            ));
        }
        flags.push(switch("--enable-expert-parallel"));
    }
    flags.push(flag("--max-num-batched-tokens", budget));
    flags.push(flag("--max-num-seqs", spec.scheduler.max_sequences));
    if !spec.scheduler.chunked_prefill {
        // A BooleanOptionalAction flag: `--no-` turns it off.
        flags.push(switch("--no-enable-chunked-prefill"));
    }
    if spec.weights == Format::Fp8E4m3 {
        flags.push(flag("--quantization", "fp8"));
    }
    if let Some(dtype) = kv_dtype(Framework::Vllm, spec.kv)? {
        flags.push(flag("--kv-cache-dtype", dtype));
    }
    if let Some(k) = spec.speculation {
        let config = if uses_mtp(spec) {
            format!(
                r#"{{"method":"mtp","num_speculative_tokens":{}}}"#,
                k.draft_tokens
            )
        } else {
            notes
                .push("replace <draft-model> with the EAGLE-3 draft trained for this model".into());
            format!(
                r#"{{"method":"eagle3","model":"<draft-model>","num_speculative_tokens":{}}}"#,
                k.draft_tokens
            )
        };
        flags.push(flag("--speculative-config", config));
    }
    Ok(Options {
        flags,
        config_file: None,
        replicas: 1,
    })
}

fn sglang(
    spec: &LaunchSpec<'_>,
    budget: u64,
    notes: &mut Vec<String>,
) -> Result<Options, ModelError> {
    let l = spec.layout;
    let moe = spec.model.moe.is_some();
    let s = &spec.scheduler;
    let mut flags = Vec::new();
    if moe && l.data > 1 {
        // SGLang's DP attention: --tp-size counts every GPU of the stage, attention runs
        // TP (tp-size / dp-size) in each of dp-size replicas, the MoE layers over them all.
        flags.push(flag("--tp-size", l.stage_gpus()));
        flags.push(flag("--dp-size", l.data));
        flags.push(switch("--enable-dp-attention"));
    } else {
        flags.push(flag("--tp-size", l.tensor));
        if l.data > 1 {
            // Without DP attention, --dp-size runs whole replicas behind SGLang's router.
            flags.push(flag("--dp-size", l.data));
        }
    }
    if l.pipeline > 1 {
        flags.push(flag("--pp-size", l.pipeline));
    }
    if moe && l.expert_parallel() {
        flags.push(flag("--ep-size", l.expert));
    }
    flags.push(flag(
        "--chunked-prefill-size",
        if s.chunked_prefill {
            budget.to_string()
        } else {
            "-1".to_string()
        },
    ));
    if s.max_sequences < crate::deploy::serving::MAX_SCHEDULED {
        flags.push(flag("--max-running-requests", s.max_sequences));
    }
    if s.recv_interval != 1 {
        flags.push(flag("--scheduler-recv-interval", s.recv_interval));
    }
    if spec.weights == Format::Fp8E4m3 {
        flags.push(flag("--quantization", "fp8"));
    }
    if let Some(dtype) = kv_dtype(Framework::Sglang, spec.kv)? {
        flags.push(flag("--kv-cache-dtype", dtype));
    }
    if let Some(k) = spec.speculation {
        if uses_mtp(spec) {
            // SGLang names a model's own MTP modules NEXTN (run by its EAGLE worker).
            flags.push(flag("--speculative-algorithm", "NEXTN"));
        } else {
            flags.push(flag("--speculative-algorithm", "EAGLE3"));
            flags.push(flag("--speculative-draft-model-path", "<draft-model>"));
            notes
                .push("replace <draft-model> with the EAGLE-3 draft trained for this model".into());
        }
        flags.push(flag("--speculative-num-steps", k.draft_tokens));
        flags.push(flag("--speculative-eagle-topk", 1));
        flags.push(flag("--speculative-num-draft-tokens", k.draft_tokens + 1));
    }
    Ok(Options {
        flags,
        config_file: None,
        replicas: 1,
    })
}

/// The YAML file name TensorRT-LLM's command reads.
const TRTLLM_OPTIONS_FILE: &str = "extra-llm-api-options.yaml";

fn trtllm(
    spec: &LaunchSpec<'_>,
    budget: u64,
    notes: &mut Vec<String>,
) -> Result<Options, ModelError> {
    let l = spec.layout;
    let moe = spec.model.moe.is_some();
    let s = &spec.scheduler;
    let mut yaml = String::new();
    let mut replicas = 1;
    let tp_size = if moe && l.data > 1 {
        // TensorRT-LLM's attention DP (`enable_attention_dp`) gives every GPU of tp_size
        // its own sequences with whole attention (attention TP 1).
        if l.tensor > 1 {
            return Err(ModelError::invalid(
                "layout",
                format!(
                    "{}: TensorRT-LLM's attention DP runs attention on one GPU per replica (TP 1); it has no attention TP {} x DP {}",
                    l.spec(),
                    l.tensor,
                    l.data
                ),
            ));
        }
        yaml.push_str("enable_attention_dp: true\n");
        if let Some(b) = s.adp_balance {
            let _ = write!(
                yaml,
                "attention_dp_config:\n  enable_balance: true\n  timeout_iters: {}\n  batching_wait_iters: {}\n",
                b.timeout_steps, b.batching_wait_steps
            );
        }
        l.data
    } else {
        if s.adp_balance.is_some() {
            return Err(ModelError::invalid(
                "adp_balance",
                "attention-DP balancing needs attention DP (a mixture of experts with --dp above 1)",
            ));
        }
        if l.data > 1 {
            replicas = l.data;
            notes.push(format!(
                "trtllm-serve runs one replica: start {} of these, each on its own {} GPU(s), behind a load balancer",
                l.data,
                l.tensor * l.pipeline
            ));
        }
        l.tensor
    };
    let mut flags = vec![flag("--tp_size", tp_size)];
    if l.pipeline > 1 {
        flags.push(flag("--pp_size", l.pipeline));
    }
    if moe && l.expert_parallel() {
        // MoE TP is tp_size / ep_size (TensorRT-LLM's `Mapping`).
        flags.push(flag("--ep_size", l.expert));
    }
    flags.push(flag("--max_num_tokens", budget));
    flags.push(flag("--max_batch_size", s.max_sequences));
    if s.chunked_prefill {
        flags.push(switch("--enable_chunked_prefill"));
    }
    if let Some(dtype) = kv_dtype(Framework::TensorRtLlm, spec.kv)? {
        let _ = write!(yaml, "kv_cache_config:\n  dtype: {dtype}\n");
    }
    if let Some(k) = spec.speculation {
        if !(uses_mtp(spec) && spec.model.mla.is_some()) {
            return Err(ModelError::invalid(
                "speculation",
                "TensorRT-LLM's speculative decoding here is DeepSeek's MTP (decoding_type MTP); give a draft model's EAGLE config by hand",
            ));
        }
        let _ = write!(
            yaml,
            "speculative_config:\n  decoding_type: MTP\n  num_nextn_predict_layers: {}\n",
            k.draft_tokens
        );
    }
    let config_file = (!yaml.is_empty()).then(|| {
        flags.push(flag("--extra_llm_api_options", TRTLLM_OPTIONS_FILE));
        ConfigFile {
            name: TRTLLM_OPTIONS_FILE,
            text: yaml,
        }
    });
    Ok(Options {
        flags,
        config_file,
        replicas,
    })
}
