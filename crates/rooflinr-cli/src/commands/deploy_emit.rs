//! `rooflinr deploy --emit ENGINE`: the engine's launch command for the deployment evaluated
//! (`deploy::launch`), printed after its figures or in the JSON.

use anyhow::{Result, bail};
use rooflinr_model::analysis::Scenario;
use rooflinr_model::config::ModelConfig;
use rooflinr_model::deploy::launch::{self, Launch, LaunchSpec};
use rooflinr_model::deploy::{Batching, DeployOptions, Disaggregated, Layout, Workload};
use serde::Serialize;

use super::deploy::Args;

/// A launch command in the JSON.
#[derive(Serialize)]
pub(super) struct LaunchJson {
    /// What it launches: `server`, or a disaggregated deployment's `prefill` or `decode`
    /// workers.
    role: &'static str,
    engine: &'static str,
    release: &'static str,
    layout: String,
    /// The command as a shell runs it (a configuration file written first where there is
    /// one).
    command: String,
    replicas: u32,
    notes: Vec<String>,
}

impl LaunchJson {
    fn of(role: &'static str, l: &Launch, layout: Layout) -> LaunchJson {
        LaunchJson {
            role,
            engine: l.engine.key(),
            release: l.release,
            layout: layout.spec(),
            command: l.shell(),
            replicas: l.replicas,
            notes: l.notes.clone(),
        }
    }
}

/// The launch command `--emit` asks for, of `layout` with `scenario`'s formats, or `None`
/// without `--emit`.
pub(super) fn launch_for(
    args: &Args,
    config: &ModelConfig,
    scenario: &Scenario,
    options: &DeployOptions,
    layout: Layout,
    workload: Workload,
) -> Result<Option<Launch>> {
    let Some(engine) = args.emit else {
        return Ok(None);
    };
    if args.framework() != engine {
        bail!(
            "--emit {} writes {}'s command, but the figures are {}'s (--framework {}): give one engine",
            engine.key(),
            engine.name(),
            args.framework().name(),
            args.framework().key()
        );
    }
    let scheduler = match options.batching {
        Batching::InFlight(s) => s,
        Batching::Static => bail!(
            "--emit writes an engine's command, and every engine batches in flight: drop --batching static"
        ),
    };
    let p = &scenario.precision;
    let spec = LaunchSpec {
        model: config,
        layout,
        scheduler,
        workload,
        weights: p.weights,
        expert_weights: scenario.experts.map(|e| e.weights),
        kv: p.kv,
        speculation: options.speculation,
    };
    Ok(Some(launch::launch(engine, &spec)?))
}

/// The prefill workers' and the decode workers' commands `--emit` asks for, or none
/// without `--emit`.
pub(super) fn launch_workers(
    args: &Args,
    config: &ModelConfig,
    scenario: &Scenario,
    options: &DeployOptions,
    workers: &Disaggregated,
    workload: Workload,
) -> Result<Vec<(&'static str, Launch, Layout)>> {
    let mut out = Vec::new();
    for (role, layout) in [("prefill", workers.prefill), ("decode", workers.decode)] {
        if let Some(l) = launch_for(args, config, scenario, options, layout, workload)? {
            out.push((role, l, layout));
        }
    }
    Ok(out)
}

/// The command as printed after the tables; `role` names the workers it starts where a
/// deployment has two kinds.
pub(super) fn print_launch(role: Option<&str>, l: &Launch, layout: Layout) {
    println!(
        "\nlaunch command for {}{} ({}; the figures above are for this layout and scheduler):\n",
        role.map_or(String::new(), |r| format!("each {r} worker, ")),
        layout.spec(),
        l.release
    );
    print!("{}", l.shell());
    if l.replicas > 1 {
        println!("(x {} replicas)", l.replicas);
    }
    for n in &l.notes {
        println!("note: {n}");
    }
}

/// The command in the JSON.
pub(super) fn json(l: Option<&Launch>, layout: Layout) -> Option<LaunchJson> {
    l.map(|l| LaunchJson::of("server", l, layout))
}

/// The workers' commands in the JSON.
pub(super) fn workers_json(commands: &[(&'static str, Launch, Layout)]) -> Vec<LaunchJson> {
    commands
        .iter()
        .map(|(role, l, layout)| LaunchJson::of(role, l, *layout))
        .collect()
}

/// The workers' commands as printed after the tables, and what they leave out.
pub(super) fn print_workers(commands: &[(&'static str, Launch, Layout)]) {
    for (role, l, layout) in commands {
        print_launch(Some(role), l, *layout);
    }
    if !commands.is_empty() {
        println!(
            "note: one command per worker kind; the engine's disaggregation wiring (its KV connector and router) is not written here"
        );
    }
}
