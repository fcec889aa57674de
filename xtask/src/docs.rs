//! `cargo xtask docs`: the book (`docs/book`, mdBook) and the generated parts of the
//! Markdown files.
//!
//! A generated part sits between `<!-- generated: KIND ARGS -->` and `<!-- end generated
//! -->`; `--bless` rewrites it from what the code produces now, `--check` fails where it
//! differs. The kinds:
//!
//! - `rooflinr ARGS`: the command's output, as a user would see it;
//! - `cli-reference`: every command's help (`rooflinr markdown-help`, from clap);
//! - `accuracy`, `kernel-accuracy`, `serving-accuracy`, `serving-rows`: tables drawn from
//!   `rooflinr validate --json` over NVIDIA's measured kernel tables and serving sample
//!   (set-up fetches both).
//!
//! Every run also checks that each relative link in the repository's Markdown resolves (a file, and a
//! heading where it names one), that the book's pages link only inside the book (it is
//! published alone), and builds the book into `target/book`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::{root, setup, step};

/// The book's sources, relative to the workspace root.
const BOOK: &str = "docs/book";

/// What `cargo xtask docs` does with the generated parts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Leave them; only check links and build.
    Build,
    /// Fail where one differs from what the code produces.
    Check,
    /// Rewrite them.
    Bless,
}

pub fn run(mode: Mode) -> Result<()> {
    setup::mdbook()?;
    step(
        "cargo",
        &[
            "build",
            "--release",
            "--locked",
            "--package",
            "rooflinr-cli",
        ],
    )?;
    let files = markdown_files()?;
    if mode != Mode::Build {
        let mut sources = Sources::default();
        let mut stale = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let fresh = regenerate(&text, &mut sources)
                .with_context(|| format!("in {}", relative(file)))?;
            if fresh != text {
                if mode == Mode::Bless {
                    std::fs::write(file, &fresh)?;
                    println!("wrote {}", relative(file));
                } else {
                    stale.push(relative(file));
                }
            }
        }
        if !stale.is_empty() {
            bail!(
                "generated parts differ from what the code produces now in {} (run `cargo xtask docs --bless` and commit)",
                stale.join(", ")
            );
        }
    }
    check_links(&files)?;
    let book = root().join(BOOK);
    let out = root().join("target/book");
    step(
        "mdbook",
        &[
            "build",
            &book.display().to_string(),
            "--dest-dir",
            &out.display().to_string(),
        ],
    )?;
    println!("the book: {}", out.join("index.html").display());
    Ok(())
}

/// Every Markdown file of the repository (tracked, or new and not ignored): README.md,
/// ARCHITECTURE.md, the book's pages, the crates' READMEs, the GPU runs' records.
fn markdown_files() -> Result<Vec<PathBuf>> {
    let output = Command::new("git")
        .args([
            "ls-files",
            "--cached",
            "--others",
            "--exclude-standard",
            "--",
            "*.md",
        ])
        .current_dir(root())
        .output()
        .context("cannot run `git ls-files`")?;
    if !output.status.success() {
        bail!(
            "`git ls-files` failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let mut files: Vec<PathBuf> = String::from_utf8(output.stdout)
        .context("`git ls-files` printed non-UTF-8")?
        .lines()
        .map(|line| root().join(line))
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files.dedup();
    Ok(files)
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

const OPEN: &str = "<!-- generated: ";
const CLOSE: &str = "<!-- end generated -->";

/// `text` with every generated part produced afresh.
fn regenerate(text: &str, sources: &mut Sources) -> Result<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        let header_end = rest[start..]
            .find("-->")
            .map(|i| start + i + 3)
            .context("a `<!-- generated:` marker is not closed by `-->`")?;
        let spec = rest[start + OPEN.len()..header_end - 3].trim();
        let end = rest[header_end..]
            .find(CLOSE)
            .map(|i| header_end + i)
            .with_context(|| format!("`generated: {spec}` has no `{CLOSE}`"))?;
        out.push_str(&rest[..header_end]);
        out.push('\n');
        out.push_str(&sources.generate(spec)?);
        rest = &rest[end..];
    }
    out.push_str(rest);
    Ok(out)
}

/// What the generated parts are drawn from, each produced once a run.
#[derive(Default)]
struct Sources {
    kernels: Option<Value>,
    serving: Option<Value>,
}

impl Sources {
    fn generate(&mut self, spec: &str) -> Result<String> {
        let (kind, args) = spec.split_once(' ').unwrap_or((spec, ""));
        Ok(match kind {
            "rooflinr" => format!(
                "```text\n$ rooflinr {args}\n{}\n```\n",
                rooflinr(args)?.trim_end()
            ),
            "cli-reference" => rooflinr("markdown-help")?,
            "accuracy" => {
                self.load_kernels()?;
                self.load_serving()?;
                accuracy(self.kernels()?, self.serving()?)?
            }
            "kernel-accuracy" => {
                self.load_kernels()?;
                kernel_groups(self.kernels()?)?
            }
            "serving-accuracy" => {
                self.load_serving()?;
                serving_accuracy(self.serving()?)?
            }
            "serving-rows" => {
                self.load_serving()?;
                serving_rows(self.serving()?)?
            }
            _ => bail!("unknown generated part `{kind}`"),
        })
    }

    fn load_kernels(&mut self) -> Result<()> {
        if self.kernels.is_none() {
            let tables = setup::kernel_tables()?.display().to_string();
            self.kernels = Some(validate_json(&["--tables", &tables])?);
        }
        Ok(())
    }

    fn load_serving(&mut self) -> Result<()> {
        if self.serving.is_none() {
            let sample = setup::serving_sample()?.display().to_string();
            self.serving = Some(validate_json(&["--serving", &sample])?);
        }
        Ok(())
    }

    fn kernels(&self) -> Result<&Value> {
        self.kernels
            .as_ref()
            .context("the kernel tables' errors are not loaded")
    }

    fn serving(&self) -> Result<&Value> {
        self.serving
            .as_ref()
            .context("the serving sample's errors are not loaded")
    }
}

/// The release `rooflinr` run in the workspace root with `args` (split on spaces); its
/// standard output.
fn rooflinr(args: &str) -> Result<String> {
    let binary = root().join("target/release/rooflinr");
    let output = Command::new(&binary)
        .args(args.split_whitespace())
        .current_dir(root())
        .output()
        .with_context(|| format!("cannot start {}", binary.display()))?;
    if !output.status.success() {
        bail!(
            "`rooflinr {args}` failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    String::from_utf8(output.stdout).with_context(|| format!("`rooflinr {args}` printed non-UTF-8"))
}

fn validate_json(args: &[&str]) -> Result<Value> {
    println!("\n==> rooflinr validate {} --json", args.join(" "));
    let text = rooflinr(&format!("validate {} --json", args.join(" ")))?;
    serde_json::from_str(&text)
        .context("`rooflinr validate --json` printed something that is not JSON")
}

/// A field of a JSON object, or an error naming it (a renamed field in `validate`'s output
/// must fail here, not print an empty table).
fn field<'a>(value: &'a Value, name: &str) -> Result<&'a Value> {
    value
        .get(name)
        .with_context(|| format!("`rooflinr validate --json` has no field `{name}`"))
}

fn number(value: &Value, name: &str) -> Result<f64> {
    field(value, name)?
        .as_f64()
        .with_context(|| format!("`{name}` is not a number"))
}

fn text<'a>(value: &'a Value, name: &str) -> Result<&'a str> {
    field(value, name)?
        .as_str()
        .with_context(|| format!("`{name}` is not a string"))
}

fn array<'a>(value: &'a Value, name: &str) -> Result<&'a Vec<Value>> {
    field(value, name)?
        .as_array()
        .with_context(|| format!("`{name}` is not an array"))
}

fn percent(fraction: f64) -> String {
    format!("{:.0} %", fraction * 100.0)
}

/// A count with its thousands grouped (the model crate's rule, as the CLI prints them).
fn grouped(n: u64) -> String {
    rooflinr_model::units::grouped(n as f64)
}

/// A Markdown table; a column whose every cell starts with a digit (a figure) is
/// right-aligned, the rest left-aligned.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n|", header.join(" | "));
    for i in 0..header.len() {
        let figures = !rows.is_empty()
            && rows.iter().all(|row| {
                row.get(i)
                    .and_then(|cell| cell.chars().next())
                    .is_some_and(|c| c.is_ascii_digit() || c == '-' || c == '+')
            });
        out.push_str(if figures { " ---: |" } else { " --- |" });
    }
    out.push('\n');
    for row in rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out
}

/// The kernel families `validate` names, in the order the tables show them.
const FAMILIES: [(&str, &str); 6] = [
    ("gemm", "GEMM"),
    ("context_attention", "attention, prefill"),
    ("generation_attention", "attention, decode"),
    ("context_mla", "MLA, prefill"),
    ("generation_mla", "MLA, decode"),
    ("moe", "fused MoE"),
];

/// One kernel group's held-out error over all its shapes: (datasheet bound, calibrated).
struct GroupError<'a> {
    group: &'a Value,
    rows: u64,
    bound: f64,
    calibrated: f64,
    calibrated_p90: f64,
}

fn group_errors(kernels: &Value) -> Result<Vec<GroupError<'_>>> {
    let mut out = Vec::new();
    for group in array(kernels, "groups")? {
        let all = array(group, "held_out_shapes")?
            .iter()
            .find(|s| s[0] == "all")
            .context("a kernel group has no `all` held-out shapes")?;
        let (bound, calibrated) = (&all[1], &all[2]);
        out.push(GroupError {
            group,
            rows: number(calibrated, "rows")? as u64,
            bound: number(bound, "median")?,
            calibrated: number(calibrated, "median")?,
            calibrated_p90: number(calibrated, "p90")?,
        });
    }
    Ok(out)
}

/// Per kernel family: its groups (device x format x engine), the held-out shapes, and the
/// median over its groups of each group's held-out median error.
fn kernel_summary(kernels: &Value) -> Result<String> {
    let groups = group_errors(kernels)?;
    let mut rows = Vec::new();
    for (kind, name) in FAMILIES {
        let of: Vec<&GroupError> = groups
            .iter()
            .filter(|g| g.group["kernel"] == kind)
            .collect();
        if of.is_empty() {
            continue;
        }
        let median = |values: Vec<f64>| rooflinr_model::stats::median(values).unwrap_or(f64::NAN);
        let bound = median(of.iter().map(|g| g.bound).collect());
        let calibrated = median(of.iter().map(|g| g.calibrated).collect());
        let worst = of
            .iter()
            .max_by(|a, b| a.calibrated.total_cmp(&b.calibrated))
            .expect("not empty");
        rows.push(vec![
            name.to_string(),
            of.len().to_string(),
            grouped(of.iter().map(|g| g.rows).sum()),
            percent(bound),
            percent(calibrated),
            format!(
                "{} ({} {} {})",
                percent(worst.calibrated),
                text(worst.group, "hardware")?,
                text(worst.group, "dtype")?,
                text(worst.group, "framework")?
            ),
        ]);
    }
    Ok(table(
        &[
            "kernel",
            "groups",
            "held-out shapes",
            "datasheet bound",
            "calibrated",
            "worst group, calibrated",
        ],
        &rows,
    ))
}

/// The serving parts, one predictor: rows and the median (p90) of TTFT, TPOT and
/// tokens/s per GPU.
fn serving_summary(serving: &Value, predictor: &str) -> Result<String> {
    let mut rows = Vec::new();
    for part in array(serving, "parts")? {
        if part[1] != predictor {
            continue;
        }
        let stats = &part[2];
        let cell = |name: &str| -> Result<String> {
            let s = field(stats, name)?;
            Ok(format!(
                "{} ({})",
                percent(number(s, "median")?),
                percent(number(s, "p90")?)
            ))
        };
        let signed = number(field(stats, "ttft")?, "signed_median")?;
        rows.push(vec![
            part_name(part[0].as_str().unwrap_or_default()).to_string(),
            grouped(number(field(stats, "ttft")?, "rows")? as u64),
            cell("ttft")?,
            format!("{:+.0} %", signed * 100.0),
            cell("tpot")?,
            cell("per_gpu")?,
        ]);
    }
    Ok(table(
        &[
            "part",
            "runs",
            "TTFT median (p90)",
            "TTFT signed median",
            "TPOT median (p90)",
            "tokens/s per GPU median (p90)",
        ],
        &rows,
    ))
}

fn part_name(part: &str) -> &str {
    match part {
        "held_out" => "held out",
        other => other,
    }
}

/// The README's table: kernels held out, serving by part.
fn accuracy(kernels: &Value, serving: &Value) -> Result<String> {
    Ok(format!(
        "**Kernels**, against {} rows of NVIDIA's measured kernel tables. Each device x format x engine group's terms are fitted on half its shapes and judged on the other half; a family's figure is the median over its groups of each group's held-out median. The kernels have no frozen split yet.\n\n{}\n**Serving**, against NVIDIA's measured serving sample: in-flight batching with calibrated kernels, as `deploy --calibrated` computes it. Its host times are fitted on the development part; nothing was chosen on the frozen part (Qwen3-32B). A negative signed median: predicted faster than measured.\n\n{}",
        grouped(number(kernels, "rows")? as u64),
        kernel_summary(kernels)?,
        serving_summary(serving, "calibrated")?
    ))
}

/// Every kernel group's held-out error, for the book.
fn kernel_groups(kernels: &Value) -> Result<String> {
    let mut groups = group_errors(kernels)?;
    let order = |g: &GroupError| FAMILIES.iter().position(|(k, _)| g.group["kernel"] == *k);
    groups.sort_by(|a, b| {
        (
            order(a),
            a.group["hardware"].as_str(),
            a.group["dtype"].as_str(),
        )
            .cmp(&(
                order(b),
                b.group["hardware"].as_str(),
                b.group["dtype"].as_str(),
            ))
    });
    let mut rows = Vec::new();
    for g in &groups {
        let family = FAMILIES
            .iter()
            .find(|(k, _)| g.group["kernel"] == *k)
            .map_or("?", |(_, name)| name);
        rows.push(vec![
            text(g.group, "hardware")?.to_string(),
            family.to_string(),
            text(g.group, "dtype")?.to_string(),
            text(g.group, "framework")?.to_string(),
            grouped(g.rows),
            percent(g.bound),
            percent(g.calibrated),
            percent(g.calibrated_p90),
            match text(g.group, "shipped")? {
                "none" => "no".to_string(),
                _ => "yes".to_string(),
            },
        ]);
    }
    Ok(table(
        &[
            "device",
            "kernel",
            "format",
            "fitted on",
            "held-out shapes",
            "datasheet median",
            "calibrated median",
            "calibrated p90",
            "shipped",
        ],
        &rows,
    ))
}

/// The serving sample's parts under each predictor, then every group.
fn serving_accuracy(serving: &Value) -> Result<String> {
    let mut out = String::new();
    for (predictor, title) in [
        (
            "calibrated",
            "Calibrated kernels, in-flight batching (what `deploy --calibrated` computes):",
        ),
        (
            "bound",
            "The bound (every kernel at its roofline), in-flight batching:",
        ),
        (
            "static",
            "Calibrated kernels, static batching (`--batching static`):",
        ),
    ] {
        out.push_str(&format!(
            "{title}\n\n{}\n",
            serving_summary(serving, predictor)?
        ));
    }
    let mut rows = Vec::new();
    for group in array(serving, "groups")? {
        let (name, part, bound, calibrated) = (&group[0], &group[1], &group[2], &group[3]);
        let pair = |name: &str| -> Result<String> {
            Ok(format!(
                "{} / {}",
                percent(number(field(bound, name)?, "median")?),
                percent(number(field(calibrated, name)?, "median")?)
            ))
        };
        rows.push(vec![
            name.as_str().unwrap_or_default().to_string(),
            part_name(part.as_str().unwrap_or_default()).to_string(),
            grouped(number(field(calibrated, "ttft")?, "rows")? as u64),
            pair("ttft")?,
            pair("tpot")?,
            pair("per_gpu")?,
        ]);
    }
    out.push_str(&format!(
        "By device, engine, model and mode (medians, bound / calibrated):\n\n{}",
        table(
            &["group", "part", "runs", "TTFT", "TPOT", "tokens/s per GPU"],
            &rows
        )
    ));
    Ok(out)
}

/// How the sample's rows were read: usable, refused and why.
fn serving_rows(serving: &Value) -> Result<String> {
    let count = |name: &str| -> Result<String> { Ok(grouped(number(serving, name)? as u64)) };
    let mut out = format!(
        "- {} rows in the sample; {} aggregated and {} disaggregated usable.\n- {} write \"TP k EP k\" as k²; read as k GPUs.\n- {} have an empty attention DP; read as 1.\n- {} spread their clients over replicas of the engine; predicted per replica.\n",
        count("rows")?,
        count("usable_aggregated")?,
        count("usable_disaggregated")?,
        count("square_layouts")?,
        count("empty_dp")?,
        count("replicated")?,
    );
    let reasons = |name: &str| -> Result<BTreeMap<String, u64>> {
        Ok(field(serving, name)?
            .as_object()
            .with_context(|| format!("`{name}` is not an object"))?
            .iter()
            .map(|(reason, n)| (reason.clone(), n.as_u64().unwrap_or_default()))
            .collect())
    };
    for (reason, n) in reasons("refused")? {
        out.push_str(&format!("- {} refused: {reason}.\n", grouped(n)));
    }
    // The model's own refusals name each row's field and value; one line for them all.
    let by_model = reasons("model_refused")?;
    if let Some(example) = by_model.keys().next() {
        out.push_str(&format!(
            "- {} refused by the model's own checks, each naming its field (for example \"{example}\").\n",
            grouped(by_model.values().sum())
        ));
    }
    for (model, n) in field(serving, "not_yet_readable")?
        .as_object()
        .context("`not_yet_readable` is not an object")?
    {
        out.push_str(&format!(
            "- {} of {model}, a model rooflinr does not read yet.\n",
            grouped(n.as_u64().unwrap_or_default())
        ));
    }
    out.push_str(&format!(
        "- {} runs measured faster than the bound allows, each listed by `rooflinr validate --serving` with its cause.\n",
        grouped(array(serving, "bound_slower")?.len() as u64)
    ));
    Ok(out)
}

/// Every relative link in `files` resolves: to a file, and to one of its headings where it
/// names one; the book's pages link only inside the book.
fn check_links(files: &[PathBuf]) -> Result<()> {
    let book = root().join(BOOK).join("src");
    let mut broken = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file)?;
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let resolved = if path.is_empty() {
                file.clone()
            } else {
                file.parent().expect("a file has a folder").join(path)
            };
            let Ok(resolved) = resolved.canonicalize() else {
                broken.push(format!("{}: {target} (no such file)", relative(file)));
                continue;
            };
            if file.starts_with(&book) && !resolved.starts_with(book.canonicalize()?) {
                broken.push(format!(
                    "{}: {target} (leaves the book, which is published alone: link the repository's address)",
                    relative(file)
                ));
                continue;
            }
            if !anchor.is_empty() && resolved.extension().is_some_and(|e| e == "md") {
                let headings = std::fs::read_to_string(&resolved)?;
                if !slugs(&headings).iter().any(|s| s == anchor) {
                    broken.push(format!("{}: {target} (no such heading)", relative(file)));
                }
            }
        }
    }
    if !broken.is_empty() {
        bail!("links that do not resolve:\n  {}", broken.join("\n  "));
    }
    Ok(())
}

/// The targets of the Markdown links `[text](target)` and images outside code.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        // Inline code spans may hold `](`; drop them first.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or_default();
            if !target.is_empty() {
                out.push(target.to_string());
            }
            rest = &after[end..];
        }
    }
    out
}

/// The anchors GitHub and mdBook give a file's headings: lower case, spaces to hyphens,
/// other punctuation dropped.
fn slugs(text: &str) -> Vec<String> {
    let mut in_fence = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#').trim();
        let slug: String = heading
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        out.push(slug);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_part_is_replaced_and_the_rest_kept() {
        let mut sources = Sources::default();
        let text = "before\n<!-- generated: unknown-kind -->\nold\n<!-- end generated -->\nafter\n";
        let err = regenerate(text, &mut sources).unwrap_err();
        assert!(err.to_string().contains("unknown-kind"), "{err}");
        let unclosed = "<!-- generated: accuracy -->\nno end";
        let err = regenerate(unclosed, &mut sources).unwrap_err();
        assert!(err.to_string().contains("end generated"), "{err}");
        let none = "no parts at all\n";
        assert_eq!(regenerate(none, &mut sources).unwrap(), none);
    }

    #[test]
    fn links_outside_code_are_found_and_headings_slugged() {
        let text = "see [a](a.md#x-y) and `[b](not-a-link)`\n```\n[c](in-code)\n```\n![pic](images/p.png)\n";
        assert_eq!(links(text), ["a.md#x-y", "images/p.png"]);
        assert_eq!(
            slugs("# The `rooflinr predict gemm` command\n## What, why?\n"),
            ["the-rooflinr-predict-gemm-command", "what-why"]
        );
    }

    #[test]
    fn tables_and_figures_read_as_people_write_them() {
        assert_eq!(grouped(5221), "5,221");
        assert_eq!(grouped(381), "381");
        assert_eq!(grouped(9_437_573), "9,437,573");
        assert_eq!(percent(0.204), "20 %");
        assert_eq!(
            table(&["a", "b"], &[vec!["x".into(), "1".into()]]),
            "| a | b |\n| --- | ---: |\n| x | 1 |\n"
        );
        assert_eq!(
            table(
                &["a", "b"],
                &[
                    vec!["1".into(), "9 % (h100)".into()],
                    vec!["2".into(), "x".into()]
                ]
            ),
            "| a | b |\n| ---: | --- |\n| 1 | 9 % (h100) |\n| 2 | x |\n"
        );
    }
}
