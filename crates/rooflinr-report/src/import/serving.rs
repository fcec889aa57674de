//! Measured serving runs, as the benchmark clients write them: each point a measured load
//! (closed-loop concurrency or request rate), the mean lengths, TTFT, TPOT and output
//! throughput, for `rooflinr deploy --measured` to put beside its prediction of the same
//! workload.
//!
//! The files read ([`import_serving`] tells them apart by their fields):
//! - `vllm bench serve --save-result` (one JSON object; `--append-result` makes JSON
//!   lines): `mean_ttft_ms`, `mean_tpot_ms`, `output_throughput`, `max_concurrency`,
//!   `request_rate` (a number or the string `"inf"`), `completed`, `total_input_tokens`,
//!   `total_output_tokens`.
//! - SGLang's `bench_serving --output-file` (JSON lines, one per run): the same fields, or in
//!   its late-2024 reduced form medians only (`median_ttft_ms`, `median_itl_ms`), with
//!   `random_input_len`, `random_output_len` and `random_range_ratio` for random prompts.
//!   Offline runs write the rate as the bare token `Infinity`, which strict JSON refuses;
//!   it is read as an unlimited rate.
//! - GuideLLM's benchmark report (`guidellm benchmark run --output-path FILE.json`):
//!   `benchmarks[]`, each with `args.strategy` (synchronous, concurrent `streams`,
//!   throughput, constant or poisson `rate`) and `metrics.*.successful` statistics.
//! - GenAI-Perf's (AIPerf's) profile export, `profile_export_genai_perf.json` (statistics of
//!   `time_to_first_token`, `inter_token_latency`, `output_token_throughput` and
//!   `input_config.concurrency` or `request_rate`) or `.csv` (the same statistics; its
//!   numbers of 1,000 or more are quoted with thousands separators; it does not say the
//!   load).
//!
//! What the clients call TPOT: vLLM's and SGLang's `tpot` and GenAI-Perf's and GuideLLM's
//! inter-token latency are all, per request, `(latency - TTFT) / (output tokens - 1)`,
//! averaged over the requests: the figure rooflinr predicts. vLLM's and SGLang's `itl` is
//! every gap between two tokens, whose median skips the steps that carry prompt chunks; it
//! is kept, labelled, and not compared.

use rooflinr_model::deploy::{Benchmark, Clients, Latency};
use rooflinr_model::units::Seconds;
use serde_json::Value;

use super::MAX_IMPORT_BYTES;
use clients::{bench_serve, genai_perf_csv, genai_perf_json, guidellm};

mod clients;

/// The most points one file may hold.
pub const MAX_POINTS: usize = 10_000;

/// The benchmark client that wrote a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchClient {
    /// `vllm bench serve --save-result`.
    VllmBenchServe,
    /// SGLang's `python -m sglang.bench_serving --output-file`.
    SglangBenchServing,
    /// `guidellm benchmark run --output-path`.
    GuideLlm,
    /// `genai-perf profile` (NVIDIA's GenAI-Perf, now AIPerf), its JSON export.
    GenAiPerfJson,
    /// The same, its CSV export.
    GenAiPerfCsv,
}

impl BenchClient {
    /// The client's name as people write it.
    pub fn name(self) -> &'static str {
        match self {
            BenchClient::VllmBenchServe => "vllm bench serve",
            BenchClient::SglangBenchServing => "SGLang bench_serving",
            BenchClient::GuideLlm => "GuideLLM",
            BenchClient::GenAiPerfJson => "GenAI-Perf (JSON export)",
            BenchClient::GenAiPerfCsv => "GenAI-Perf (CSV export)",
        }
    }
}

/// The commands that write a file this module reads.
pub const SERVING_RUN_COMMANDS: &str = "`vllm bench serve ... --save-result`, \
`python -m sglang.bench_serving ... --output-file run.jsonl`, \
`guidellm benchmark run ... --output-path benchmarks.json` or \
`genai-perf profile ...` (its profile_export_genai_perf.json)";

/// How the clients sent requests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Load {
    /// A closed loop of this many clients, each sending its next request when one ends.
    Concurrency(u64),
    /// Arrivals at this many requests per second (Poisson or constant, as the client
    /// says), with at most `cap` in flight where the client set one.
    Rate {
        /// Requests per second.
        per_s: f64,
        /// The client's `--max-concurrency`, if any.
        cap: Option<u64>,
    },
    /// Every request sent at once (a rate of `inf` with no concurrency limit).
    AllAtOnce,
}

impl std::fmt::Display for Load {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Load::Concurrency(1) => f.write_str("1 client"),
            Load::Concurrency(c) => write!(f, "{c} clients"),
            Load::Rate { per_s, cap: None } => write!(f, "{per_s} req/s"),
            Load::Rate {
                per_s,
                cap: Some(cap),
            } => write!(f, "{per_s} req/s, at most {cap} in flight"),
            Load::AllAtOnce => f.write_str("all at once"),
        }
    }
}

/// Which statistic over the requests a figure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statistic {
    /// The mean.
    Mean,
    /// The median.
    Median,
}

impl Statistic {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Statistic::Mean => "mean",
            Statistic::Median => "median",
        }
    }

    /// The same statistic of a simulated run's latency.
    pub fn of(self, simulated: &Latency) -> Seconds {
        match self {
            Statistic::Mean => simulated.mean,
            Statistic::Median => simulated.median,
        }
    }
}

/// A measured latency and which statistic it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// The latency.
    pub value: Seconds,
    /// Mean or median over the requests.
    pub statistic: Statistic,
}

impl std::fmt::Display for Measured {
    /// As the tables print it: `2.54 s mean`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.value, self.statistic.name())
    }
}

/// A prediction's error against what was measured, as the tables print it: `+58 %`, or
/// `n/a` against nothing.
pub fn error_text(predicted: f64, measured: f64) -> String {
    if measured > 0.0 {
        format!("{:+.0} %", (predicted / measured - 1.0) * 100.0)
    } else {
        "n/a".into()
    }
}

/// A simulated latency of the statistic `measured` is (the mean where nothing was
/// measured), with its error: `4.01 s (+58 %)`.
pub fn predicted_text(measured: Option<Measured>, simulated: &Latency) -> String {
    let p = measured
        .map_or(Statistic::Mean, |m| m.statistic)
        .of(simulated);
    match measured {
        Some(m) => format!("{p} ({})", error_text(p.get(), m.value.get())),
        None => p.to_string(),
    }
}

/// Random prompt and output lengths as the client drew them: uniform in `[floor x max,
/// max]` (SGLang's `--random-range-ratio`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LengthRange {
    /// The longest prompt.
    pub prompt: u64,
    /// The longest output.
    pub output: u64,
    /// The shortest over the longest, in (0, 1].
    pub floor: f64,
}

/// One measured run of a serving benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct RunPoint {
    /// How requests were sent; `None` where the file does not say (GenAI-Perf's CSV).
    pub load: Option<Load>,
    /// Requests that completed, where the file says.
    pub requests: Option<u64>,
    /// Mean prompt tokens per request.
    pub prompt_tokens: f64,
    /// Mean output tokens per request.
    pub output_tokens: f64,
    /// The lengths' range where the file gives it.
    pub lengths: Option<LengthRange>,
    /// Time to first token.
    pub ttft: Option<Measured>,
    /// Time per output token, `(latency - TTFT) / (output - 1)` per request.
    pub tpot: Option<Measured>,
    /// The median gap between two tokens (vLLM's and SGLang's `median_itl_ms`): not TPOT.
    pub itl_median: Option<Seconds>,
    /// Output tokens per second over the run, all requests together.
    pub output_tokens_per_s: Option<f64>,
}

/// Requests simulated for a run whose file does not count them (GenAI-Perf measures a
/// steady window): ten per client, or a minute of arrivals, and at least 100.
fn requests_when_uncounted(clients: Clients) -> u64 {
    match clients {
        Clients::Concurrency(c) => c.saturating_mul(10).max(100),
        Clients::Rate(r) => ((r * 60.0) as u64).max(100),
    }
}

/// The benchmark that reproduces a run, and what was assumed to build it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reproduction {
    /// The same clients, requests and lengths, for [`rooflinr_model::deploy::Simulator`].
    pub benchmark: Benchmark,
    /// What the file did not say and was assumed, in words.
    pub assumed: Vec<String>,
}

impl RunPoint {
    /// The benchmark of this run's clients (a rate's cap aside, which the simulation does not
    /// model: said in [`Reproduction::assumed`]), requests (ten per client, or a minute of
    /// arrivals, where the file does not count them) and lengths (the file's range, else
    /// uniform in `[length_floor x L, L]` with `L` keeping the file's mean), with
    /// `prefix_hit` of each prompt cached. Refused where the file does not say its load.
    pub fn reproduction(&self, length_floor: f64, prefix_hit: f64) -> Result<Reproduction, String> {
        let mut assumed = Vec::new();
        let clients = match self.load {
            Some(Load::Concurrency(c)) => Clients::Concurrency(c),
            Some(Load::Rate { per_s, cap }) => {
                if let Some(cap) = cap {
                    assumed.push(format!(
                        "the client's cap of {cap} requests in flight is not simulated"
                    ));
                }
                Clients::Rate(per_s)
            }
            Some(Load::AllAtOnce) => Clients::Concurrency(
                self.requests
                    .ok_or("every request was sent at once, but the file does not count them")?,
            ),
            None => {
                return Err(
                    "the file does not say its load (GenAI-Perf's CSV does not); import \
                     the profile_export_genai_perf.json of the same run, whose input_config \
                     gives the concurrency or request rate"
                        .into(),
                );
            }
        };
        let requests = match self.requests {
            Some(n) => n,
            None => {
                let n = requests_when_uncounted(clients);
                assumed.push(format!(
                    "{n} requests simulated (the file does not count them)"
                ));
                n
            }
        };
        let (prompt, output, length_floor) = match self.lengths {
            Some(l) => (l.prompt, l.output, l.floor),
            None => {
                // Lengths uniform in [floor x L, L] average (1 + floor) / 2 x L: the longest
                // that keeps the file's mean.
                let stretch = 2.0 / (1.0 + length_floor);
                let longest = |mean: f64| (mean * stretch).round().max(1.0) as u64;
                (
                    longest(self.prompt_tokens),
                    longest(self.output_tokens),
                    length_floor,
                )
            }
        };
        Ok(Reproduction {
            benchmark: Benchmark {
                prompt,
                output,
                clients,
                requests,
                length_floor,
                prefix_hit,
                seed: 0,
            },
            assumed,
        })
    }
}

/// A file of measured serving runs.
#[derive(Clone, Debug, PartialEq)]
pub struct ServingRuns {
    /// Who wrote it.
    pub client: BenchClient,
    /// The model as the file names it, if it does.
    pub model: Option<String>,
    /// The engine as the file names it (`vllm`, `sglang`, `tensorrtllm`), if it does.
    pub backend: Option<String>,
    /// Its runs, in the file's order.
    pub points: Vec<RunPoint>,
}

/// Why a file could not be read as serving runs.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ServingImportError {
    /// Nothing in the file.
    #[error("the file is empty")]
    Empty,
    /// Over [`MAX_IMPORT_BYTES`].
    #[error("the file is {bytes} bytes; the most accepted is {MAX_IMPORT_BYTES}")]
    TooLarge {
        /// Its size.
        bytes: usize,
    },
    /// JSON that does not parse.
    #[error("line {line}: not JSON: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// The parser's message.
        message: String,
    },
    /// A file none of the clients wrote.
    #[error("not a serving benchmark's result ({what}); make one with {SERVING_RUN_COMMANDS}")]
    Unrecognised {
        /// What the file looks like.
        what: String,
    },
    /// A field the client always writes is missing.
    #[error("{client} file, run {run}: no `{field}`")]
    MissingField {
        /// The client.
        client: &'static str,
        /// 1-based run in the file.
        run: usize,
        /// The field, as a path.
        field: String,
    },
    /// A value that cannot be used.
    #[error("{client} file, run {run}: `{field}` {why}")]
    BadValue {
        /// The client.
        client: &'static str,
        /// 1-based run in the file.
        run: usize,
        /// The field.
        field: String,
        /// What is wrong with it.
        why: String,
    },
    /// More than [`MAX_POINTS`] runs.
    #[error("the file holds more than {MAX_POINTS} runs")]
    TooManyPoints,
    /// The runs carry neither TTFT nor TPOT.
    #[error("{client} file, run {run}: neither a TTFT nor a TPOT figure")]
    NoLatency {
        /// The client.
        client: &'static str,
        /// 1-based run.
        run: usize,
    },
}

/// Reads a serving benchmark's result file, whichever client wrote it.
pub fn import_serving(text: &str) -> Result<ServingRuns, ServingImportError> {
    if text.len() > MAX_IMPORT_BYTES {
        return Err(ServingImportError::TooLarge { bytes: text.len() });
    }
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Err(ServingImportError::Empty);
    }
    if text.starts_with("Metric,") {
        return genai_perf_csv(text);
    }
    if !text.starts_with('{') {
        let first = text.lines().next().unwrap_or_default();
        let first: String = first.chars().take(60).collect();
        return Err(ServingImportError::Unrecognised {
            what: format!("it begins `{first}`"),
        });
    }
    let values = json_values(text)?;
    let first = &values[0];
    if first.get("benchmarks").is_some_and(Value::is_array) {
        return guidellm(first);
    }
    if first
        .get("time_to_first_token")
        .is_some_and(Value::is_object)
    {
        return genai_perf_json(first);
    }
    if first.get("backend").is_some()
        && ["mean_ttft_ms", "median_ttft_ms"]
            .iter()
            .any(|k| first.get(k).is_some())
    {
        return bench_serve(&values);
    }
    Err(ServingImportError::Unrecognised {
        what: format!("a JSON object with {}", keys_of(first)),
    })
}

/// The whole text as one JSON value, or one per non-empty line; SGLang's bare `Infinity`
/// and `NaN` tokens read as the strings `"inf"` and `"nan"`.
fn json_values(text: &str) -> Result<Vec<Value>, ServingImportError> {
    let text = bare_tokens_quoted(text);
    if let Ok(v) = serde_json::from_str::<Value>(&text) {
        return Ok(vec![v]);
    }
    let mut values = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if values.len() == MAX_POINTS {
            return Err(ServingImportError::TooManyPoints);
        }
        let v = serde_json::from_str(line).map_err(|e| ServingImportError::Json {
            line: i + 1,
            message: e.to_string(),
        })?;
        values.push(v);
    }
    Ok(values)
}

/// `text` with the non-JSON tokens Python's `json.dumps` writes for floats (`Infinity`,
/// `-Infinity`, `NaN`) outside strings replaced by strings.
fn bare_tokens_quoted(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("Infinity") && !text.contains("NaN") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let replaced = [
            ("-Infinity", "\"-inf\""),
            ("Infinity", "\"inf\""),
            ("NaN", "\"nan\""),
        ]
        .into_iter()
        .find(|(token, _)| rest.starts_with(token));
        if let Some((token, quoted)) = replaced {
            out.push_str(quoted);
            rest = &rest[token.len()..];
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out.into()
}

fn keys_of(v: &Value) -> String {
    match v.as_object() {
        Some(o) => {
            let keys: Vec<&str> = o.keys().take(6).map(String::as_str).collect();
            format!("keys {}", keys.join(", "))
        }
        None => "no keys".into(),
    }
}

/// Reads fields of one run, naming them in errors.
struct Fields<'a> {
    client: BenchClient,
    run: usize,
    value: &'a Value,
}

impl Fields<'_> {
    fn at(&self, path: &str) -> Option<&Value> {
        path.split('.')
            .try_fold(self.value, |v, key| v.get(key))
            .filter(|v| !v.is_null())
    }

    fn bad(&self, field: &str, why: impl Into<String>) -> ServingImportError {
        ServingImportError::BadValue {
            client: self.client.name(),
            run: self.run,
            field: field.into(),
            why: why.into(),
        }
    }

    fn missing(&self, field: &str) -> ServingImportError {
        ServingImportError::MissingField {
            client: self.client.name(),
            run: self.run,
            field: field.into(),
        }
    }

    /// A finite number at `path`, if there is one.
    fn number(&self, path: &str) -> Result<Option<f64>, ServingImportError> {
        match self.at(path) {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(x)),
                _ => Err(self.bad(path, format!("is {v}, not a finite number"))),
            },
        }
    }

    /// A number at `path` that must be there.
    fn required(&self, path: &str) -> Result<f64, ServingImportError> {
        self.number(path)?.ok_or_else(|| self.missing(path))
    }

    /// A latency in milliseconds at `path`, at least zero.
    fn millis(&self, path: &str) -> Result<Option<Seconds>, ServingImportError> {
        match self.number(path)? {
            Some(ms) if ms < 0.0 => Err(self.bad(path, format!("is {ms} ms, below zero"))),
            Some(ms) => Ok(Some(Seconds(ms / 1e3))),
            None => Ok(None),
        }
    }

    /// The mean at `mean` or else the median at `median`.
    fn latency(&self, mean: &str, median: &str) -> Result<Option<Measured>, ServingImportError> {
        if let Some(value) = self.millis(mean)? {
            return Ok(Some(Measured {
                value,
                statistic: Statistic::Mean,
            }));
        }
        Ok(self.millis(median)?.map(|value| Measured {
            value,
            statistic: Statistic::Median,
        }))
    }

    /// A whole count at `path`, at least `least`.
    fn count(&self, path: &str, least: u64) -> Result<Option<u64>, ServingImportError> {
        match self.number(path)? {
            None => Ok(None),
            Some(x) if x.fract() == 0.0 && x >= least as f64 && x < 1e15 => Ok(Some(x as u64)),
            Some(x) => Err(self.bad(
                path,
                format!("is {x}, not a whole number of at least {least}"),
            )),
        }
    }

    /// A request rate at `path`: a number, or `"inf"`/`Infinity` for none; `None` when
    /// absent or unlimited.
    fn rate(&self, path: &str) -> Result<Option<f64>, ServingImportError> {
        match self.at(path) {
            None => Ok(None),
            Some(Value::String(s)) if s == "inf" => Ok(None),
            Some(v) => match v.as_f64() {
                Some(r) if r.is_infinite() => Ok(None),
                Some(r) if r > 0.0 && r.is_finite() => Ok(Some(r)),
                _ => Err(self.bad(path, format!("is {v}, not a positive rate or \"inf\""))),
            },
        }
    }

    /// Mean tokens per request: `total` over `completed`.
    fn per_request(&self, total: &str, completed: u64) -> Result<f64, ServingImportError> {
        let tokens = self.required(total)?;
        if tokens < 0.0 {
            return Err(self.bad(total, format!("is {tokens}, below zero")));
        }
        Ok(tokens / completed as f64)
    }

    fn output_throughput(&self, path: &str) -> Result<Option<f64>, ServingImportError> {
        match self.number(path)? {
            Some(t) if t < 0.0 => Err(self.bad(path, format!("is {t}, below zero"))),
            t => Ok(t),
        }
    }
}

/// A point must carry a latency to compare.
fn checked(point: RunPoint, f: &Fields<'_>) -> Result<RunPoint, ServingImportError> {
    for (field, m) in [("TTFT", point.ttft), ("TPOT", point.tpot)] {
        if let Some(m) = m
            && !(m.value.get() >= 0.0 && m.value.get().is_finite())
        {
            return Err(f.bad(field, format!("is {} s, not a latency", m.value.get())));
        }
    }
    if point
        .output_tokens_per_s
        .is_some_and(|t| !(t >= 0.0 && t.is_finite()))
    {
        return Err(f.bad("output throughput", "is not a rate of at least zero"));
    }
    if point.ttft.is_none() && point.tpot.is_none() {
        return Err(ServingImportError::NoLatency {
            client: f.client.name(),
            run: f.run,
        });
    }
    if !(point.prompt_tokens >= 1.0 && point.output_tokens >= 1.0) {
        return Err(f.bad(
            "tokens",
            format!(
                "give {:.1} prompt and {:.1} output tokens per request; each must be at least 1",
                point.prompt_tokens, point.output_tokens
            ),
        ));
    }
    Ok(point)
}

fn string(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

#[cfg(test)]
mod tests;
