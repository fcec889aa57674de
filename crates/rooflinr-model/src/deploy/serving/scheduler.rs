//! An engine's scheduler: how it batches requests, which requests a step carries, its
//! budgets and caps, and how new requests get in (SGLang's read interval, TensorRT-LLM's
//! attention-DP balance), each with the engine's defaults and their source.

use crate::error::ModelError;
use crate::hardware::Hardware;
use crate::kernel_time::Framework;

/// How an engine batches requests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Batching {
    /// Static batching: the requests are prefilled together, then decoded together at the
    /// mean context until the last one ends (NVIDIA aiconfigurator's static mode). No
    /// serving engine schedules this way; it is the bound of a fixed batch.
    Static,
    /// In-flight batching under a scheduler.
    InFlight(Scheduler),
}

impl Batching {
    /// `static` or `in-flight`.
    pub fn name(&self) -> &'static str {
        match self {
            Batching::Static => "static",
            Batching::InFlight(_) => "in-flight",
        }
    }
}

/// Which requests an engine's step carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Decode tokens of every running request first, then prompt tokens (chunks, where
    /// allowed) of the requests still prefilling and of waiting ones, oldest first, up to
    /// the budget, all in one step: vLLM's V1 scheduler (`vllm/v1/core/sched/scheduler.py`,
    /// running requests before waiting ones) and TensorRT-LLM's micro-batch scheduler
    /// (generation requests, then context requests while `max_num_tokens` holds).
    Mixed,
    /// A step prefills waiting requests (up to the chunk size, no decode beside them)
    /// whenever any wait, else decodes the running ones: SGLang's scheduler
    /// (`Scheduler.get_next_batch_to_run` in `python/sglang/srt/managers/scheduler.py`
    /// runs a new prefill batch before the running decode batch; `--enable-mixed-chunk`,
    /// off by default, would mix them).
    PrefillFirst,
}

impl Policy {
    /// `mixed` or `prefill-first`.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Mixed => "mixed",
            Policy::PrefillFirst => "prefill-first",
        }
    }
}

/// An engine's scheduler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scheduler {
    /// Which requests a step carries.
    pub policy: Policy,
    /// New tokens one step may carry: vLLM's `--max-num-batched-tokens`, TensorRT-LLM's
    /// `max_num_tokens`, SGLang's `--chunked-prefill-size`.
    pub token_budget: u64,
    /// Requests running at once (vLLM's `--max-num-seqs`, TensorRT-LLM's
    /// `max_batch_size`, SGLang's `--max-running-requests`), besides what the KV memory
    /// holds.
    pub max_sequences: u64,
    /// Whether a prompt may be split over steps (else it waits until it fits whole; one
    /// longer than the whole budget runs alone in a step).
    pub chunked_prefill: bool,
    /// Decode steps between the scheduler's reads of newly arrived requests: SGLang's
    /// `--scheduler-recv-interval` (default 1, every step). `SchedulerRecvSkipper`
    /// (`python/sglang/srt/managers/scheduler_recv_skipper.py`) counts 1 for each decode
    /// step and reads when the count reaches the interval; a prefill step (weight 1,000)
    /// or an idle engine lets the next read through at once. 1 for the engines that read
    /// every step.
    pub recv_interval: u32,
    /// TensorRT-LLM's attention-DP balance, where on ([`AdpBalance`]).
    pub adp_balance: Option<AdpBalance>,
}

/// TensorRT-LLM's `attention_dp_config` with `enable_balance: true` (off by default):
/// with attention data parallelism, new prompts are held until every attention replica
/// has one (so all prefill in the same step), or until `timeout_steps` steps have passed
/// since the last release (`_balance_adp_requests` in
/// `tensorrt_llm/_torch/pyexecutor/py_executor.py`: the waiting count grows on every step
/// in which some replica has no new prompt, and a replica with no running request
/// releases at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdpBalance {
    /// `timeout_iters`: steps a held prompt waits at most.
    pub timeout_steps: u32,
    /// `batching_wait_iters`: steps to wait for more prompts once every replica has one.
    pub batching_wait_steps: u32,
}

/// Most steps between reads, and most steps a balance may hold a prompt.
pub const MAX_HOLD_STEPS: u32 = 100_000;

/// Most requests a step may carry, and the largest budget accepted.
pub const MAX_SCHEDULED: u64 = 1 << 24;

impl Scheduler {
    /// The scheduler `framework` runs with its defaults on `hardware`:
    /// - vLLM 0.11-0.19 (`vllm serve`, V1 engine, `EngineArgs.get_batch_defaults` in
    ///   `vllm/engine/arg_utils.py`): chunked prefill on; 8,192 tokens and 1,024
    ///   sequences on a GPU of 70 GiB or more that is not an A100, else 2,048 and 256.
    /// - TensorRT-LLM (`trtllm-serve`, PyTorch backend, `TorchLlmArgs` in
    ///   `tensorrt_llm/llmapi/llm_args.py`): `max_num_tokens` 8,192, `max_batch_size`
    ///   2,048, `enable_chunked_prefill` false.
    /// - SGLang (`ServerArgs` in `python/sglang/srt/server_args.py`):
    ///   `--chunked-prefill-size` 2,048 below 35 GB of GPU memory, 8,192 below 160 GB
    ///   (H100, H200), 16,384 above (B200, B300); `--max-running-requests` unset, so the
    ///   KV memory decides.
    pub fn default_for(framework: Framework, hardware: &Hardware) -> Scheduler {
        let gib = hardware.memory_capacity.value.get() / f64::from(1u32 << 30);
        let gb = hardware.memory_capacity.value.get() / 1e9;
        match framework {
            Framework::Vllm => {
                let large = gib >= 70.0 && !hardware.key.starts_with("a100");
                Scheduler {
                    policy: Policy::Mixed,
                    token_budget: if large { 8192 } else { 2048 },
                    max_sequences: if large { 1024 } else { 256 },
                    chunked_prefill: true,
                    recv_interval: 1,
                    adp_balance: None,
                }
            }
            Framework::TensorRtLlm => Scheduler {
                policy: Policy::Mixed,
                token_budget: 8192,
                max_sequences: 2048,
                chunked_prefill: false,
                recv_interval: 1,
                adp_balance: None,
            },
            Framework::Sglang => Scheduler {
                policy: Policy::PrefillFirst,
                token_budget: if gb < 35.0 {
                    2048
                } else if gb < 160.0 {
                    8192
                } else {
                    16384
                },
                max_sequences: MAX_SCHEDULED,
                chunked_prefill: true,
                recv_interval: 1,
                adp_balance: None,
            },
        }
    }

    /// The budget a step has when `running` requests of `verify` tokens each decode beside
    /// prompts of `prompt` tokens: the scheduler's, or without chunked prefill at least a
    /// whole prompt beside the running batch, as an engine that cannot split prompts must be
    /// launched (InferenceX's TensorRT-LLM recipes, `benchmarks/single_node/*_trt.sh`, set
    /// `max_num_tokens` to the concurrency plus the prompt plus 64, rounded up to 64).
    pub fn budget_for(&self, prompt: f64, running: f64, verify: f64) -> f64 {
        let budget = self.token_budget as f64;
        if self.chunked_prefill {
            return budget;
        }
        let whole = ((running * verify + prompt + 64.0) / 64.0).ceil() * 64.0;
        budget.max(whole)
    }

    /// Refuses a budget or a cap of 0 or over [`MAX_SCHEDULED`], a read interval or a
    /// balance of 0 or over [`MAX_HOLD_STEPS`], and either on an engine that has no such
    /// option (a read interval is SGLang's, whose steps prefill or decode; a balance is
    /// TensorRT-LLM's, whose steps mix both), naming it.
    pub fn validate(&self) -> Result<(), ModelError> {
        for (field, v) in [
            ("token_budget", self.token_budget),
            ("max_sequences", self.max_sequences),
        ] {
            if v == 0 || v > MAX_SCHEDULED {
                return Err(ModelError::invalid(
                    field,
                    format!("must be 1 to {MAX_SCHEDULED}, got {v}"),
                ));
            }
        }
        let balance = self.adp_balance;
        for (field, v, least) in [
            ("recv_interval", Some(self.recv_interval), 1),
            (
                "adp_balance.timeout_steps",
                balance.map(|b| b.timeout_steps),
                1,
            ),
            (
                "adp_balance.batching_wait_steps",
                balance.map(|b| b.batching_wait_steps),
                0,
            ),
        ] {
            if let Some(v) = v
                && !(least..=MAX_HOLD_STEPS).contains(&v)
            {
                return Err(ModelError::invalid(
                    field,
                    format!("must be {least} to {MAX_HOLD_STEPS} steps, got {v}"),
                ));
            }
        }
        if self.recv_interval > 1 && self.policy != Policy::PrefillFirst {
            return Err(ModelError::invalid(
                "recv_interval",
                "a read interval is SGLang's `--scheduler-recv-interval`; a scheduler that mixes prefill and decode in one step reads every step",
            ));
        }
        if self.adp_balance.is_some() && self.policy != Policy::Mixed {
            return Err(ModelError::invalid(
                "adp_balance",
                "the attention-DP balance is TensorRT-LLM's `attention_dp_config`; its steps mix prefill and decode",
            ));
        }
        Ok(())
    }
}

/// Steps a new prompt is held by TensorRT-LLM's attention-DP balance ([`AdpBalance`]) on
/// one of `replicas` attention replicas that each receive `rate` requests a step: until
/// each of the other replicas has received one, the mean of the largest of their
/// geometric waits, `sum_k 1 - (1 - (1 - p)^k)^(replicas - 1)` with `p = 1 - e^-rate`
/// (Poisson arrivals), and at most half the timeout (a release comes at the latest every
/// `timeout_steps` steps, and a prompt arrives at any point between two). Approximate: the
/// other replicas' prompts that came before this one shorten the wait; the simulation
/// ([`simulate`]) steps it.
pub(in crate::deploy) fn balance_hold(balance: AdpBalance, replicas: f64, rate: f64) -> f64 {
    let others = (replicas - 1.0).max(0.0);
    if others == 0.0 {
        return 0.0;
    }
    let cap = f64::from(balance.timeout_steps) / 2.0;
    let miss = (-rate.max(0.0)).exp();
    let mut expected = 0.0;
    for k in 0..balance.timeout_steps {
        // The chance that some other replica has had no arrival in `k` steps.
        let some_missing = 1.0 - (1.0 - miss.powi(k as i32)).powf(others);
        expected += some_missing;
        if expected >= cap || some_missing < 1e-9 {
            break;
        }
    }
    expected.min(cap) + f64::from(balance.batching_wait_steps)
}
