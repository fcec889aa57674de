//! NVIDIA's measured serving runs of the models rooflinr reads: the usable aggregated rows
//! of `systems/silicon_sample.csv` in the `aiconfigurator-core` 0.12.0 wheel (PyPI,
//! Apache-2.0, NVIDIA), each with the layout, engine and formats `rooflinr validate
//! --serving` reads it as, for the calculator to put beside its predictions.
//!
//! They travel as a small CSV ([`write_runs`], [`read_runs`]): `rooflinr validate --serving
//! FILE --runs` writes `web/assets/measured-serving-runs.csv`, the calculator fetches it when
//! deployment mode first draws its chart (so the first view does not carry it), and
//! `validate --serving --check` (run by `cargo xtask test`) fails where the sample gives
//! other rows.

use crate::deploy::{Layout, Workload};
use crate::error::ModelError;
use crate::format::Format;
use crate::kernel_time::Framework;
use crate::units::Seconds;

/// Where the runs come from.
pub const MEASURED_RUNS_SOURCE: &str =
    "measured by NVIDIA: aiconfigurator-core 0.12.0's systems/silicon_sample.csv (Apache-2.0)";

/// The file's name, beside the calculator's page.
pub const MEASURED_RUNS_FILE: &str = "measured-serving-runs.csv";

/// The file's first line: its columns.
const HEADER: &str =
    "model,preset,hardware,framework,tp,pp,dp,ep,weights,prompt,output,concurrency,ttft_s,tpot_s";

/// Output tokens/s of a closed-loop benchmark (each finished request replaced at once) from
/// its measured mean TTFT and TPOT, by Little's law: `concurrency x output / (TTFT +
/// (output - 1) x TPOT)`.
pub fn closed_loop_tokens_per_s(w: Workload, ttft: Seconds, tpot: Seconds) -> f64 {
    let output = w.output as f64;
    let request = ttft.get() + (output - 1.0) * tpot.get();
    w.concurrency as f64 * output / request
}

/// The preset whose architecture `preset` shares, as the runs name it: DeepSeek-R1 is
/// DeepSeek-V3's architecture (the same `config.json` but for its weights).
pub fn architecture(preset: &str) -> &str {
    if preset == "deepseek-r1" {
        "deepseek-v3"
    } else {
        preset
    }
}

/// One measured serving run: clients of one replica of an engine at a closed-loop
/// concurrency, and the mean TTFT and TPOT they saw.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredRun {
    /// The model as the sample names it (`deepseek-ai/DeepSeek-R1`).
    pub model: String,
    /// The preset of its architecture (`deepseek-v3` for R1 and V3 alike).
    pub preset: String,
    /// The device's registry key.
    pub hardware: String,
    /// The engine.
    pub framework: Framework,
    /// One replica's layout.
    pub layout: Layout,
    /// The linear layers' format.
    pub weights: Format,
    /// Prompt and output tokens, and the clients of one replica.
    pub workload: Workload,
    /// Measured mean time to first token.
    pub ttft: Seconds,
    /// Measured mean time per output token.
    pub tpot: Seconds,
}

impl MeasuredRun {
    /// Output tokens/s one user saw: `1 / TPOT`.
    pub fn tokens_per_s_per_user(&self) -> f64 {
        1.0 / self.tpot.get()
    }

    /// Output tokens/s per GPU ([`closed_loop_tokens_per_s`] over the replica's GPUs).
    pub fn tokens_per_s_per_gpu(&self) -> f64 {
        closed_loop_tokens_per_s(self.workload, self.ttft, self.tpot)
            / f64::from(self.layout.gpus())
    }

    /// Whether this run is of `preset`'s architecture on `hardware` with `framework`, its
    /// weights in `weights` or a format of the same speed (FP16 and BF16 run at the same
    /// rate on every tensor core).
    pub fn is_of(
        &self,
        preset: &str,
        hardware: &str,
        framework: Framework,
        weights: Format,
    ) -> bool {
        let sixteen = |f: Format| matches!(f, Format::Fp16 | Format::Bf16);
        let same_weights = self.weights == weights || (sixteen(self.weights) && sixteen(weights));
        self.preset == architecture(preset)
            && self.hardware == hardware
            && self.framework == framework
            && same_weights
    }

    fn line(&self) -> String {
        let l = self.layout;
        let w = self.workload;
        format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            self.model,
            self.preset,
            self.hardware,
            self.framework.key(),
            l.tensor,
            l.pipeline,
            l.data,
            l.expert,
            self.weights,
            w.prompt,
            w.output,
            w.concurrency,
            self.ttft.get(),
            self.tpot.get()
        )
    }
}

/// The runs as the file holds them: [`HEADER`], then one line each.
pub fn write_runs(runs: &[MeasuredRun]) -> String {
    let mut out = format!("{HEADER}\n");
    for r in runs {
        out += &r.line();
        out.push('\n');
    }
    out
}

/// Reads [`write_runs`]'s file; a line that is not a run is an error naming its line
/// and column.
pub fn read_runs(text: &str) -> Result<Vec<MeasuredRun>, ModelError> {
    let mut lines = text.lines();
    if lines.next().map(str::trim) != Some(HEADER) {
        return Err(ModelError::Syntax {
            what: "measured serving runs",
            message: format!("the first line is not `{HEADER}`"),
        });
    }
    lines
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            read_line(l).map_err(|e| ModelError::invalid(format!("line {}: {}", i + 2, e.0), e.1))
        })
        .collect()
}

/// A column's name and what is wrong with it.
struct Bad(&'static str, String);

fn read_line(line: &str) -> Result<MeasuredRun, Bad> {
    let columns: Vec<&str> = HEADER.split(',').collect();
    let fields: Vec<&str> = line.trim().split(',').collect();
    if fields.len() != columns.len() {
        return Err(Bad(
            "columns",
            format!(
                "{} fields where there are {} columns",
                fields.len(),
                columns.len()
            ),
        ));
    }
    let field = |name: &'static str| -> &str {
        let i = columns.iter().position(|c| *c == name).unwrap_or(0);
        fields[i]
    };
    fn number<T: std::str::FromStr>(name: &'static str, text: &str) -> Result<T, Bad> {
        text.parse()
            .map_err(|_| Bad(name, format!("`{text}` is not a number")))
    }
    let text = |name: &'static str| -> Result<String, Bad> {
        let v = field(name);
        if v.is_empty() {
            return Err(Bad(name, "empty".into()));
        }
        Ok(v.to_string())
    };
    let degree = |name: &'static str| -> Result<u32, Bad> {
        number::<u32>(name, field(name)).and_then(|v| {
            if (1..=crate::deploy::MAX_GPUS).contains(&v) {
                Ok(v)
            } else {
                Err(Bad(
                    name,
                    format!("{v} is not a degree from 1 to {}", crate::deploy::MAX_GPUS),
                ))
            }
        })
    };
    let count = |name: &'static str| -> Result<u64, Bad> {
        number::<u64>(name, field(name)).and_then(|v| {
            if (1..=1 << 20).contains(&v) {
                Ok(v)
            } else {
                Err(Bad(name, format!("{v} is not a count from 1 to 2^20")))
            }
        })
    };
    let time = |name: &'static str| -> Result<Seconds, Bad> {
        number::<f64>(name, field(name)).and_then(|v| {
            if v.is_finite() && v > 0.0 {
                Ok(Seconds(v))
            } else {
                Err(Bad(name, format!("{v} is not a positive time in seconds")))
            }
        })
    };
    let framework = Framework::parse(field("framework")).ok_or_else(|| {
        Bad(
            "framework",
            format!("`{}` is not trtllm, vllm or sglang", field("framework")),
        )
    })?;
    let (tensor, data, expert) = (degree("tp")?, degree("dp")?, degree("ep")?);
    if !(tensor * data).is_multiple_of(expert) {
        return Err(Bad(
            "ep",
            format!("EP{expert} does not divide TP x DP = {}", tensor * data),
        ));
    }
    let weights = field("weights")
        .parse::<Format>()
        .map_err(|e| Bad("weights", e.to_string()))?;
    Ok(MeasuredRun {
        model: text("model")?,
        preset: text("preset")?,
        hardware: text("hardware")?,
        framework,
        layout: Layout {
            tensor,
            pipeline: degree("pp")?,
            data,
            expert,
        },
        weights,
        workload: Workload {
            prompt: count("prompt")?,
            output: count("output")?,
            concurrency: count("concurrency")?,
        },
        ttft: time("ttft_s")?,
        tpot: time("tpot_s")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn run() -> MeasuredRun {
        MeasuredRun {
            model: "meta-llama/Llama-3.1-70B".into(),
            preset: "llama-3.1-70b".into(),
            hardware: "h200".into(),
            framework: Framework::Vllm,
            layout: Layout {
                tensor: 4,
                pipeline: 1,
                data: 1,
                expert: 1,
            },
            weights: Format::Fp8E4m3,
            workload: Workload {
                prompt: 1024,
                output: 1024,
                concurrency: 64,
            },
            ttft: Seconds(0.265),
            tpot: Seconds(0.0161),
        }
    }

    #[test]
    fn runs_read_back_as_written() {
        let runs = vec![
            run(),
            MeasuredRun {
                weights: Format::NvFp4,
                ..run()
            },
            // Experts over 2 groups of 2 GPUs.
            MeasuredRun {
                layout: Layout {
                    expert: 2,
                    ..run().layout
                },
                ..run()
            },
        ];
        assert_eq!(read_runs(&write_runs(&runs)).unwrap(), runs);
    }

    #[test]
    fn tokens_per_gpu_is_littles_law() {
        let r = run();
        // 64 clients, each request 0.265 + 1023 x 0.0161 s for 1,024 tokens, over 4 GPUs.
        let expected = 64.0 * 1024.0 / (0.265 + 1023.0 * 0.0161) / 4.0;
        assert!((r.tokens_per_s_per_gpu() - expected).abs() < 1e-9);
        assert!((r.tokens_per_s_per_user() - 1.0 / 0.0161).abs() < 1e-9);
    }

    #[test]
    fn a_run_is_of_its_model_device_engine_and_format() {
        let r = run();
        assert!(r.is_of("llama-3.1-70b", "h200", Framework::Vllm, Format::Fp8E4m3));
        assert!(!r.is_of("llama-3.1-70b", "h100", Framework::Vllm, Format::Fp8E4m3));
        assert!(!r.is_of("llama-3.1-70b", "h200", Framework::Sglang, Format::Fp8E4m3));
        assert!(!r.is_of("llama-3.1-70b", "h200", Framework::Vllm, Format::NvFp4));
        let bf16 = MeasuredRun {
            weights: Format::Bf16,
            ..run()
        };
        assert!(bf16.is_of("llama-3.1-70b", "h200", Framework::Vllm, Format::Fp16));
        let r1 = MeasuredRun {
            preset: "deepseek-v3".into(),
            ..run()
        };
        assert!(r1.is_of("deepseek-r1", "h200", Framework::Vllm, Format::Fp8E4m3));
    }

    #[test]
    fn bad_lines_name_their_line_and_column() {
        let good = write_runs(&[run()]);
        let cases = [
            (good.replace(",64,", ",0,"), "line 2: concurrency"),
            (good.replace(",vllm,", ",tgi,"), "line 2: framework"),
            (good.replace(",fp8-e4m3,", ",fp7,"), "line 2: weights"),
            (good.replace("0.0161", "-1"), "line 2: tpot_s"),
            (good.replace(",4,1,1,", ",4,1,"), "line 2: columns"),
            (good.replace(",4,1,1,1,", ",4,1,1,3,"), "line 2: ep"),
            (good.replace("model,", "name,"), "first line"),
        ];
        for (text, named) in cases {
            let e = read_runs(&text).unwrap_err().to_string();
            assert!(e.contains(named), "{e} does not name {named}");
        }
    }

    proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_panic(text in ".{0,400}") {
            // Whatever is read writes out and reads back the same.
            for text in [format!("{HEADER}\n{text}"), text] {
                if let Ok(runs) = read_runs(&text) {
                    prop_assert_eq!(read_runs(&write_runs(&runs)).unwrap(), runs);
                }
            }
        }
    }
}
