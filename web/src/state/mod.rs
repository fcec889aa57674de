//! The calculator's whole state as plain data, and its encoding as a URL query string, so
//! that a link reproduces an analysis exactly. Numbers are kept as the text the user typed:
//! validation happens once, in [`crate::compute`], where the message can name the field.
//!
//! The query keys are documented in the book (`docs/book/src/calculator.md`, "Sharing a
//! link"); `v` is the version of this encoding. Unknown keys are ignored; a known key with a value that cannot be used
//! is reported as a warning and left at its default.

use std::collections::BTreeSet;

/// Which analysis is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One operator, every format ranked.
    Operator,
    /// A whole model from a preset or a `config.json`.
    Model,
    /// A model over many GPUs: layout, communication, serving figures.
    Deploy,
}

/// The operator analysed in operator mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// y = W x for a few vectors (decode).
    Gemv,
    /// C = A W.
    Gemm,
    /// Fused (FlashAttention-style) attention.
    Attention,
}

/// What the format ranking varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vary {
    /// Only the weights (the KV cache for attention); the other operands stay as chosen.
    Weights,
    /// Every operand in the same format (the prototype's tables).
    All,
}

/// How deployment mode's engine serves requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Serving {
    /// The engine's in-flight batching with chunked prefill, in its steady state.
    InFlight,
    /// Static batching: the whole batch prefilled, then decoded together.
    Static,
    /// Prefill workers and decode workers apart, the KV cache sent between them.
    Disaggregated,
}

/// Colour scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Follow the system setting.
    Auto,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

/// Prefill or decode (the model's own type, re-exported for the UI).
pub use rooflinr_model::analysis::Phase;
/// The serving framework whose kernels the expected times are fitted on.
pub use rooflinr_model::kernel_time::Framework;

/// A user-defined device, as typed into the editor.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomDevice {
    /// Display name.
    pub name: String,
    /// Memory bandwidth, GB/s.
    pub bandwidth_gb_s: String,
    /// Memory capacity, GB (blank: unlimited).
    pub capacity_gb: String,
    /// Dense peaks as `math:TFLOP/s` pairs separated by commas (`fp16:50,int8:100`).
    pub peaks: String,
    /// Whether the chip runs MX / NVFP4 block-scaled products natively.
    pub block_scaled: bool,
}

impl Default for CustomDevice {
    fn default() -> Self {
        CustomDevice {
            name: "My accelerator".into(),
            bandwidth_gb_s: "1000".into(),
            capacity_gb: "64".into(),
            peaks: "fp32:50,fp16:200,fp8:400,int8:400".into(),
            block_scaled: false,
        }
    }
}

/// Key of the custom device in [`State::hardware`].
pub const CUSTOM: &str = "custom";

/// Everything the calculator shows is a function of this.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Operator or model analysis.
    pub mode: Mode,
    /// Registry key, or [`CUSTOM`].
    pub hardware: String,
    /// The custom device (used when `hardware` is [`CUSTOM`]).
    pub custom: CustomDevice,
    /// Operator kind.
    pub op: OpKind,
    /// GEMM/GEMV rows (tokens); for GEMV, the batch of vectors.
    pub m: String,
    /// Output features.
    pub n: String,
    /// Reduction dimension.
    pub k: String,
    /// Attention: sequences.
    pub attn_batch: String,
    /// Attention: query tokens per sequence.
    pub q_len: String,
    /// Attention: key/value tokens per sequence.
    pub kv_len: String,
    /// Attention: query heads.
    pub heads: String,
    /// Attention: key/value heads.
    pub kv_heads: String,
    /// Attention: dimension per head.
    pub head_dim: String,
    /// Attention: causal mask.
    pub causal: bool,
    /// Activation format name.
    pub activations: String,
    /// Weight format name.
    pub weights: String,
    /// KV-cache format name.
    pub kv: String,
    /// Output format name.
    pub output: String,
    /// The routed experts' weight format name; empty: as the weights (gpt-oss's checkpoint
    /// keeps MXFP4 experts beside BF16 attention).
    pub experts: String,
    /// What the format ranking varies.
    pub vary: Vary,
    /// Model preset key, or [`CUSTOM`] for a pasted `config.json`.
    pub model: String,
    /// The pasted `config.json` (used when `model` is [`CUSTOM`]).
    pub config: String,
    /// Prefill or decode.
    pub phase: Phase,
    /// Sequences in the batch.
    pub batch: String,
    /// Prompt (prefill) or context (decode) length.
    pub seq: String,
    /// Colour scheme.
    pub theme: Theme,
    /// Chart series hidden through the legend.
    pub hidden: BTreeSet<String>,
    /// Model mode: registry keys of other devices analysed side by side with `hardware`
    /// (at most [`MAX_COMPARED`]).
    pub compare: Vec<String>,
    /// Deployment: tensor-parallel degree.
    pub tp: String,
    /// Deployment: pipeline stages.
    pub pp: String,
    /// Deployment: attention replicas per stage.
    pub dp: String,
    /// Deployment: whole experts on the stage's GPUs (expert parallelism).
    pub ep: bool,
    /// Deployment: prompt tokens per request.
    pub prompt: String,
    /// Deployment: output tokens per request.
    pub generated: String,
    /// Deployment: requests served together.
    pub concurrency: String,
    /// Deployment: communication hides behind compute.
    pub overlap: bool,
    /// Deployment: expected rather than bound (shipped kernel and NCCL profiles).
    pub calibrated: bool,
    /// Deployment: how the engine serves requests.
    pub serving: Serving,
    /// Deployment, disaggregated: one prefill worker's layout (`tp4`, `tp1-dp8-ep`); empty
    /// for the decode worker's (TP, PP, DP and EP above).
    pub prefill_layout: String,
    /// Deployment, disaggregated: prefill workers.
    pub prefill_workers: String,
    /// Deployment, disaggregated: decode workers.
    pub decode_workers: String,
    /// Deployment: tokens drafted per step (speculative decoding, MTP); empty for none.
    pub draft_tokens: String,
    /// Deployment: the chance each drafted token is accepted; empty for the published
    /// default where there is one.
    pub acceptance: String,
    /// Deployment: the share of each prompt already in the prefix cache.
    pub prefix_hit: String,
    /// Deployment: the price per GPU-hour in US dollars for the cost per token; empty for
    /// none (prices vary, so there is no default).
    pub gpu_price: String,
    /// Whose kernels the expected times are fitted on (every mode).
    pub framework: Framework,
    /// Deployment search: the GPU budget.
    pub search_gpus: String,
    /// Deployment search: the slowest acceptable output speed per user, tokens/s.
    pub search_floor: String,
}

/// Devices a comparison adds to the one chosen: six in all.
pub const MAX_COMPARED: usize = 5;

impl Default for State {
    fn default() -> Self {
        State {
            mode: Mode::Model,
            hardware: "h100-sxm".into(),
            custom: CustomDevice::default(),
            op: OpKind::Gemv,
            m: "1".into(),
            n: "4096".into(),
            k: "4096".into(),
            attn_batch: "1".into(),
            q_len: "1".into(),
            kv_len: "4096".into(),
            heads: "32".into(),
            kv_heads: "8".into(),
            head_dim: "128".into(),
            causal: true,
            activations: "fp16".into(),
            weights: "fp16".into(),
            kv: "fp16".into(),
            output: "fp16".into(),
            experts: String::new(),
            vary: Vary::All,
            model: "llama-3-8b".into(),
            config: String::new(),
            phase: Phase::Decode,
            batch: "1".into(),
            seq: "4096".into(),
            theme: Theme::Auto,
            hidden: BTreeSet::new(),
            compare: Vec::new(),
            tp: "8".into(),
            pp: "1".into(),
            dp: "1".into(),
            ep: false,
            prompt: "1024".into(),
            generated: "256".into(),
            concurrency: "32".into(),
            overlap: false,
            calibrated: false,
            serving: Serving::InFlight,
            prefill_layout: String::new(),
            prefill_workers: "1".into(),
            decode_workers: "1".into(),
            draft_tokens: String::new(),
            acceptance: String::new(),
            prefix_hit: "0".into(),
            gpu_price: String::new(),
            framework: Framework::default(),
            search_gpus: "8".into(),
            search_floor: "20".into(),
        }
    }
}

/// Version of the query encoding (`v=`).
pub const VERSION: &str = "1";

type Codec<T> = &'static [(&'static str, T)];

const MODES: Codec<Mode> = &[
    ("op", Mode::Operator),
    ("model", Mode::Model),
    ("deploy", Mode::Deploy),
];
const OPS: Codec<OpKind> = &[
    ("gemv", OpKind::Gemv),
    ("gemm", OpKind::Gemm),
    ("attention", OpKind::Attention),
];
const VARY: Codec<Vary> = &[("weights", Vary::Weights), ("all", Vary::All)];
const THEMES: Codec<Theme> = &[
    ("auto", Theme::Auto),
    ("light", Theme::Light),
    ("dark", Theme::Dark),
];
const PHASES: Codec<Phase> = &[("prefill", Phase::Prefill), ("decode", Phase::Decode)];
const BOOLS: Codec<bool> = &[("1", true), ("0", false)];
const SERVING: Codec<Serving> = &[
    ("inflight", Serving::InFlight),
    ("static", Serving::Static),
    ("disagg", Serving::Disaggregated),
];

fn name_of<T: PartialEq + Copy>(codec: Codec<T>, value: T) -> &'static str {
    codec
        .iter()
        .find(|(_, v)| *v == value)
        .map(|(n, _)| *n)
        .unwrap_or_default()
}

fn value_of<T: Copy>(codec: Codec<T>, name: &str) -> Option<T> {
    codec.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

impl State {
    /// The query string (without `?`) that reproduces this state.
    pub fn to_query(&self) -> String {
        let mut q = form_urlencoded::Serializer::new(String::new());
        q.append_pair("v", VERSION);
        q.append_pair("mode", name_of(MODES, self.mode));
        q.append_pair("hw", &self.hardware);
        if self.hardware == CUSTOM {
            let c = &self.custom;
            q.append_pair("hw_name", &c.name);
            q.append_pair("hw_bw", &c.bandwidth_gb_s);
            q.append_pair("hw_mem", &c.capacity_gb);
            q.append_pair("hw_peaks", &c.peaks);
            q.append_pair("hw_bs", name_of(BOOLS, c.block_scaled));
        }
        q.append_pair("act", &self.activations);
        q.append_pair("w", &self.weights);
        q.append_pair("kv", &self.kv);
        q.append_pair("out", &self.output);
        if !self.experts.is_empty() {
            q.append_pair("xw", &self.experts);
        }
        match self.mode {
            Mode::Operator => {
                q.append_pair("op", name_of(OPS, self.op));
                match self.op {
                    OpKind::Gemv | OpKind::Gemm => {
                        q.append_pair("m", &self.m);
                        q.append_pair("n", &self.n);
                        q.append_pair("k", &self.k);
                    }
                    OpKind::Attention => {
                        q.append_pair("ab", &self.attn_batch);
                        q.append_pair("q", &self.q_len);
                        q.append_pair("ctx", &self.kv_len);
                        q.append_pair("h", &self.heads);
                        q.append_pair("kvh", &self.kv_heads);
                        q.append_pair("d", &self.head_dim);
                        q.append_pair("causal", name_of(BOOLS, self.causal));
                    }
                }
                q.append_pair("vary", name_of(VARY, self.vary));
            }
            Mode::Model => {
                q.append_pair("model", &self.model);
                if self.model == CUSTOM {
                    q.append_pair("config", &self.config);
                }
                q.append_pair("phase", name_of(PHASES, self.phase));
                q.append_pair("batch", &self.batch);
                q.append_pair("seq", &self.seq);
                if !self.compare.is_empty() {
                    q.append_pair("cmp", &self.compare.join(","));
                }
            }
            Mode::Deploy => {
                q.append_pair("model", &self.model);
                if self.model == CUSTOM {
                    q.append_pair("config", &self.config);
                }
                q.append_pair("tp", &self.tp);
                q.append_pair("pp", &self.pp);
                q.append_pair("dp", &self.dp);
                q.append_pair("ep", name_of(BOOLS, self.ep));
                q.append_pair("prompt", &self.prompt);
                q.append_pair("gen", &self.generated);
                q.append_pair("conc", &self.concurrency);
                q.append_pair("ovl", name_of(BOOLS, self.overlap));
                if self.calibrated {
                    q.append_pair("cal", name_of(BOOLS, self.calibrated));
                }
                match self.serving {
                    Serving::InFlight => {}
                    Serving::Static => {
                        q.append_pair("serve", name_of(SERVING, self.serving));
                    }
                    Serving::Disaggregated => {
                        q.append_pair("serve", name_of(SERVING, self.serving));
                        if !self.prefill_layout.trim().is_empty() {
                            q.append_pair("pl", &self.prefill_layout);
                        }
                        q.append_pair("pw", &self.prefill_workers);
                        q.append_pair("dw", &self.decode_workers);
                    }
                }
                if !self.draft_tokens.trim().is_empty() {
                    q.append_pair("mtp", &self.draft_tokens);
                }
                if !self.acceptance.trim().is_empty() {
                    q.append_pair("acc", &self.acceptance);
                }
                if self.prefix_hit.trim() != "0" {
                    q.append_pair("pfx", &self.prefix_hit);
                }
                if !self.gpu_price.trim().is_empty() {
                    q.append_pair("usd", &self.gpu_price);
                }
                q.append_pair("sg", &self.search_gpus);
                q.append_pair("sf", &self.search_floor);
            }
        }
        if self.framework != Framework::default() {
            q.append_pair("fw", self.framework.key());
        }
        if self.theme != Theme::Auto {
            q.append_pair("theme", name_of(THEMES, self.theme));
        }
        if !self.hidden.is_empty() {
            let hidden: Vec<&str> = self.hidden.iter().map(String::as_str).collect();
            q.append_pair("hide", &hidden.join(","));
        }
        q.finish()
    }

    /// Reads a query string (with or without the leading `?`). Keys it does not set keep
    /// their defaults; the second value lists the parameters that could not be used.
    pub fn from_query(query: &str) -> (State, Vec<String>) {
        let mut s = State::default();
        let mut warnings = Vec::new();
        let query = query.strip_prefix('?').unwrap_or(query);
        for (key, value) in form_urlencoded::parse(query.as_bytes()) {
            let value = value.into_owned();
            let mut pick = |codec_ok: bool| {
                if !codec_ok {
                    warnings.push(format!(
                        "link parameter `{key}={value}` is not understood; the default is used"
                    ));
                }
            };
            match key.as_ref() {
                "v" => pick(value == VERSION),
                "mode" => pick(set(&mut s.mode, value_of(MODES, &value))),
                "op" => pick(set(&mut s.op, value_of(OPS, &value))),
                "vary" => pick(set(&mut s.vary, value_of(VARY, &value))),
                "theme" => pick(set(&mut s.theme, value_of(THEMES, &value))),
                "phase" => pick(set(&mut s.phase, value_of(PHASES, &value))),
                "causal" => pick(set(&mut s.causal, value_of(BOOLS, &value))),
                "hw_bs" => pick(set(&mut s.custom.block_scaled, value_of(BOOLS, &value))),
                "ep" => pick(set(&mut s.ep, value_of(BOOLS, &value))),
                "ovl" => pick(set(&mut s.overlap, value_of(BOOLS, &value))),
                "cal" => pick(set(&mut s.calibrated, value_of(BOOLS, &value))),
                "serve" => pick(set(&mut s.serving, value_of(SERVING, &value))),
                // Links made before disaggregated serving: `static=1`.
                "static" => pick(set(
                    &mut s.serving,
                    value_of(BOOLS, &value).map(|on| {
                        if on {
                            Serving::Static
                        } else {
                            Serving::InFlight
                        }
                    }),
                )),
                "fw" => pick(set(
                    &mut s.framework,
                    Framework::ALL.into_iter().find(|f| f.key() == value),
                )),
                "cmp" => {
                    for key in value.split(',').map(str::trim).filter(|k| !k.is_empty()) {
                        let key = key.to_ascii_lowercase();
                        if rooflinr_model::hardware::registry::get(&key).is_err() {
                            warnings.push(format!(
                                "link parameter `cmp`: unknown device `{key}`, left out of the comparison"
                            ));
                        } else if s.compare.len() == MAX_COMPARED {
                            warnings.push(format!(
                                "link parameter `cmp`: at most {MAX_COMPARED} devices beside the chosen one; `{key}` left out"
                            ));
                        } else if !s.compare.contains(&key) {
                            s.compare.push(key);
                        }
                    }
                }
                "hide" => {
                    s.hidden = value
                        .split(',')
                        .filter(|v| !v.is_empty())
                        .map(str::to_string)
                        .collect()
                }
                other => {
                    if let Some(field) = s.text_field(other) {
                        *field = value;
                    }
                }
            }
        }
        (s, warnings)
    }

    fn text_field(&mut self, key: &str) -> Option<&mut String> {
        Some(match key {
            "hw" => &mut self.hardware,
            "hw_name" => &mut self.custom.name,
            "hw_bw" => &mut self.custom.bandwidth_gb_s,
            "hw_mem" => &mut self.custom.capacity_gb,
            "hw_peaks" => &mut self.custom.peaks,
            "act" => &mut self.activations,
            "w" => &mut self.weights,
            "kv" => &mut self.kv,
            "out" => &mut self.output,
            "xw" => &mut self.experts,
            "m" => &mut self.m,
            "n" => &mut self.n,
            "k" => &mut self.k,
            "ab" => &mut self.attn_batch,
            "q" => &mut self.q_len,
            "ctx" => &mut self.kv_len,
            "h" => &mut self.heads,
            "kvh" => &mut self.kv_heads,
            "d" => &mut self.head_dim,
            "model" => &mut self.model,
            "config" => &mut self.config,
            "batch" => &mut self.batch,
            "seq" => &mut self.seq,
            "tp" => &mut self.tp,
            "pp" => &mut self.pp,
            "dp" => &mut self.dp,
            "prompt" => &mut self.prompt,
            "gen" => &mut self.generated,
            "conc" => &mut self.concurrency,
            "mtp" => &mut self.draft_tokens,
            "acc" => &mut self.acceptance,
            "pfx" => &mut self.prefix_hit,
            "usd" => &mut self.gpu_price,
            "pl" => &mut self.prefill_layout,
            "pw" => &mut self.prefill_workers,
            "dw" => &mut self.decode_workers,
            "sg" => &mut self.search_gpus,
            "sf" => &mut self.search_floor,
            _ => return None,
        })
    }
}

fn set<T>(slot: &mut T, value: Option<T>) -> bool {
    match value {
        Some(v) => {
            *slot = v;
            true
        }
        None => false,
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))] // native only: proptest needs an OS RNG
mod tests;
