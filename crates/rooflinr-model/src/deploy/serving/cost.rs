//! The time of one engine step on a deployment: its operators and collectives
//! ([`super::super::Context::step_time`]), plus the draft work of speculative decoding, and
//! a memo of steps by their shape for the benchmark simulation.

use std::collections::HashMap;

use super::Speculation;
use crate::analysis::{Phase, Scenario, SeqGroup, Step};
use crate::config::ModelConfig;
use crate::deploy::{Context, Layout};
use crate::error::ModelError;
use crate::units::Seconds;

/// Contexts in the memo's keys are rounded to this many tokens: a step's attention over
/// `c` tokens is costed at the nearest multiple, a change of at most 32 keys in `c`.
pub const CONTEXT_GRID: f64 = 64.0;

/// A step as the simulation sees it: decoding sequences at a mean context, and the prompt
/// chunks it carries at their mean past (contexts rounded to [`CONTEXT_GRID`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::deploy) struct StepKey {
    /// Decoding sequences.
    pub decode: u32,
    /// Their mean context, in grid units.
    pub decode_context: u32,
    /// Prompt chunks.
    pub chunks: u32,
    /// Their tokens in all.
    pub chunk_tokens: u32,
    /// Their mean past, in grid units.
    pub chunk_past: u32,
    /// Prompts that end in this step (each computes its first token's logits).
    pub prompts_done: u32,
}

impl StepKey {
    /// Rounds a context to the grid.
    pub(in crate::deploy) fn grid(context: f64) -> u32 {
        (context / CONTEXT_GRID).round().min(f64::from(u32::MAX)) as u32
    }
}

/// Step times of one deployment and workload's formats.
pub(in crate::deploy) struct StepCost<'a> {
    cx: Context<'a>,
    scenario: &'a Scenario,
    speculation: Option<Speculation>,
    /// The draft: one decoder layer of the model with its embedding and LM head (an MTP
    /// module, DeepSeek-V3 technical report section 2.2; an EAGLE head is the same shape).
    draft: Option<ModelConfig>,
    memo: HashMap<StepKey, Seconds>,
}

impl<'a> StepCost<'a> {
    pub(in crate::deploy) fn new(
        cx: Context<'a>,
        scenario: &'a Scenario,
        speculation: Option<Speculation>,
    ) -> StepCost<'a> {
        let draft = speculation.map(|_| {
            let mut c = cx.config.clone();
            c.layers = 1;
            if let Some(moe) = &mut c.moe {
                moe.dense_layers = 0;
            }
            c
        });
        StepCost {
            cx,
            scenario,
            speculation,
            draft,
            memo: HashMap::new(),
        }
    }

    /// The deployment.
    pub(in crate::deploy) fn context(&self) -> Context<'a> {
        self.cx
    }

    /// The formats.
    pub(in crate::deploy) fn scenario(&self) -> &'a Scenario {
        self.scenario
    }

    /// Tokens a decode step yields per sequence.
    pub(in crate::deploy) fn tokens_per_step(&self) -> f64 {
        self.speculation.map_or(1.0, |s| s.tokens_per_step())
    }

    /// Tokens a decoding sequence puts in each step: its own and the drafts it verifies.
    pub(in crate::deploy) fn verify_tokens(&self) -> f64 {
        1.0 + self.speculation.map_or(0.0, |s| f64::from(s.draft_tokens))
    }

    /// The time of `step` on the busiest replica: its kernels (the target's step, and with
    /// speculation the draft's) and what the engine's host adds ([`super::HostOverhead`]).
    pub(in crate::deploy) fn step(&mut self, step: &Step) -> Result<Seconds, ModelError> {
        let (kernels, launches) = self.kernels(step)?;
        let eager = step.groups.iter().any(|g| g.phase == Phase::Prefill);
        Ok(self.cx.options.host.step_time(kernels, launches, eager))
    }

    /// The kernels' time of `step` and how many it launches: the target's step, and with
    /// speculation the draft's: one pass over the prompt chunks and the first draft of each
    /// decoding sequence, and one more per further draft.
    fn kernels(&self, step: &Step) -> Result<(Seconds, f64), ModelError> {
        let target = self.cx.step_time(self.scenario, step)?;
        let (Some(spec), Some(draft)) = (self.speculation, &self.draft) else {
            return Ok((target.time, target.launches));
        };
        let cx = Context {
            config: draft,
            layout: Layout {
                pipeline: 1,
                ..self.cx.layout
            },
            ..self.cx
        };
        let first: Vec<SeqGroup> = step
            .groups
            .iter()
            .map(|g| match g.phase {
                Phase::Decode => SeqGroup {
                    new_tokens: 1.0,
                    ..*g
                },
                Phase::Prefill => *g,
            })
            .collect();
        let decoding: f64 = first
            .iter()
            .filter(|g| g.phase == Phase::Decode)
            .map(|g| g.sequences)
            .sum();
        let prompts_done = (step.logits - decoding * self.verify_tokens()).max(0.0);
        let one = cx.step_time(
            self.scenario,
            &Step {
                groups: first.clone(),
                logits: decoding + prompts_done,
            },
        )?;
        let (mut time, mut launches) = (target.time + one.time, target.launches + one.launches);
        if spec.draft_tokens > 1 && decoding > 0.0 {
            let more = cx.step_time(
                self.scenario,
                &Step {
                    groups: first
                        .into_iter()
                        .filter(|g| g.phase == Phase::Decode)
                        .collect(),
                    logits: decoding,
                },
            )?;
            let n = f64::from(spec.draft_tokens - 1);
            time += more.time * n;
            launches += more.launches * n;
        }
        Ok((time, launches))
    }

    /// The time of the step `key` describes, computed once per key.
    pub(in crate::deploy) fn keyed(&mut self, key: StepKey) -> Result<Seconds, ModelError> {
        if let Some(t) = self.memo.get(&key) {
            return Ok(*t);
        }
        let q = self.verify_tokens();
        let mut groups = Vec::with_capacity(2);
        if key.decode > 0 {
            groups.push(SeqGroup {
                phase: Phase::Decode,
                sequences: f64::from(key.decode),
                new_tokens: q,
                past: f64::from(key.decode_context) * CONTEXT_GRID,
            });
        }
        if key.chunks > 0 {
            groups.push(SeqGroup {
                phase: Phase::Prefill,
                sequences: f64::from(key.chunks),
                new_tokens: f64::from(key.chunk_tokens) / f64::from(key.chunks),
                past: f64::from(key.chunk_past) * CONTEXT_GRID,
            });
        }
        let t = self.step(&Step {
            groups,
            logits: f64::from(key.decode) * q + f64::from(key.prompts_done),
        })?;
        self.memo.insert(key, t);
        Ok(t)
    }

    /// Distinct steps costed so far.
    pub(in crate::deploy) fn memo_len(&self) -> usize {
        self.memo.len()
    }
}
