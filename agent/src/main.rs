//! `rooflinr-agent`: serve the calculator's pairing channel and the HTTP API
//! (`--listen`), or measure from the terminal (`ceilings`, `bench`, `compare`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use rooflinr_agent::backend::Backend;
use rooflinr_agent::backend::cpu::{CpuBackend, CpuOptions};
use rooflinr_agent::backend::cuda::kernels::Module;
use rooflinr_agent::backend::cuda::{CudaBackend, CudaOptions, gpu};
use rooflinr_agent::jobs::Jobs;
use rooflinr_agent::jobs::store::Store;
use rooflinr_agent::server::{self, AppState, ServerConfig, pairing};
use rooflinr_agent::stats::StopRule;
use rooflinr_agent::telemetry::Telemetry;
use rooflinr_agent::{commands, gpu_check};
use rooflinr_protocol::BackendKind;
use rooflinr_protocol::OperatorShape;
use tokio::net::TcpListener;

/// The rooflinr measurement agent.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Serve the calculator's channel and the API (the default): ADDR:PORT, loopback
    /// 127.0.0.1:7878 unless given.
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1, default_missing_value = "127.0.0.1:7878")]
    listen: Option<SocketAddr>,
    /// The pairing token (a fresh random one when absent).
    #[arg(long, env = "ROOFLINR_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Serve the built calculator from this folder (e.g. `dist`) on the same port.
    #[arg(long, value_name = "DIR")]
    web: Option<PathBuf>,
    /// Where each job's JSONL results file is written.
    #[arg(long, value_name = "DIR", default_value = "rooflinr-results")]
    results: PathBuf,
    /// The calculator's URL for the pairing link, when it is hosted elsewhere (its
    /// origin is allowed too). Default: the agent itself.
    #[arg(long, value_name = "URL")]
    calculator_url: Option<String>,
    /// Another origin allowed to call the agent (repeatable).
    #[arg(long, value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// Another Host name the agent answers to (repeatable); IP addresses and localhost
    /// always work.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// Telemetry samples per second.
    #[arg(long, default_value_t = 100.0)]
    telemetry_hz: f64,
    #[command(flatten)]
    measure: MeasureArgs,
}

#[derive(clap::Args, Clone, Copy)]
struct MeasureArgs {
    /// Most seconds spent sampling one point.
    #[arg(long, default_value_t = 2.0, global = true)]
    max_seconds: f64,
    /// m = n = k of the GEMM that measures each format's peak (default: 1024 on the CPU,
    /// 8192 on a GPU).
    #[arg(long, global = true)]
    peak_size: Option<u64>,
    /// The backend the terminal commands measure with: cpu or cuda (default: cuda when a
    /// GPU is usable, else cpu).
    #[arg(long, global = true, value_name = "cpu|cuda")]
    backend: Option<BackendKind>,
    /// The CUDA device to measure.
    #[arg(long, default_value_t = 0, global = true)]
    gpu: usize,
}

impl MeasureArgs {
    fn rule(self) -> StopRule {
        StopRule::from_budget(
            Some(&rooflinr_protocol::Budget {
                max_seconds: self.max_seconds,
                max_noise: StopRule::DEFAULT.max_noise,
                min_samples: StopRule::DEFAULT.min_samples,
            }),
            StopRule::DEFAULT,
        )
    }

    fn cpu(self) -> CpuBackend {
        CpuBackend::new(CpuOptions {
            peak_gemm_size: self.peak_size.unwrap_or(1024).clamp(16, 8192),
            ..CpuOptions::default()
        })
    }

    fn cuda(self) -> CudaBackend {
        CudaBackend::probe(CudaOptions {
            ordinal: self.gpu,
            peak_gemm_size: self.peak_size.unwrap_or(8192).clamp(256, 32768),
        })
    }

    /// The backend the terminal commands use: the one asked for (an error naming what is
    /// missing when it is the GPU and none is usable), else the GPU when usable.
    fn backend(self) -> Result<Box<dyn Backend>> {
        match self.backend {
            Some(BackendKind::Cpu) => Ok(Box::new(self.cpu())),
            Some(BackendKind::Cuda) => {
                let cuda = self.cuda();
                match cuda.info().reason {
                    Some(why) if !cuda.info().available => {
                        bail!("the cuda backend is unavailable: {why}")
                    }
                    _ => Ok(Box::new(cuda)),
                }
            }
            None => {
                let cuda = self.cuda();
                if cuda.info().available {
                    Ok(Box::new(cuda))
                } else {
                    eprintln!(
                        "measuring with the cpu backend (cuda: {})",
                        cuda.info().reason.unwrap_or_default()
                    );
                    Ok(Box::new(self.cpu()))
                }
            }
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Measure bandwidth (copy, triad) and every format's peak GEMM rate.
    Ceilings,
    /// One operator in every format, against the measured ceilings.
    Bench {
        /// M,N,K (M = 1 is a GEMV).
        #[arg(long, value_name = "M,N,K", default_value = "1,4096,4096", value_parser = shape)]
        shape: OperatorShape,
        /// Formats (all the backend measures when absent).
        #[arg(long, value_delimiter = ',')]
        formats: Vec<String>,
    },
    /// Theory against reality: predicted (from the measured ceilings), measured, error,
    /// bound.
    Compare {
        /// M,N,K shapes (repeatable; the prototype's 1,4096,4096 and 2048,4096,4096 when absent).
        #[arg(long, value_name = "M,N,K", value_parser = shape)]
        shape: Vec<OperatorShape>,
        /// Formats (all the backend measures when absent).
        #[arg(long, value_delimiter = ',')]
        formats: Vec<String>,
    },
    /// Compile every GPU kernel with this machine's NVRTC (no GPU needed) and write the
    /// PTX, one file per module and architecture: what `cargo xtask cuda-check` assembles.
    Kernels {
        /// Architectures (`sm_90a`, `sm_100a`, `sm_121a`...).
        #[arg(long, value_delimiter = ',', default_value = "sm_90a,sm_100a,sm_121a")]
        arch: Vec<String>,
        /// Folder for the `.ptx` files.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Record the GPUs' energy while a command runs (a serving benchmark on this host):
    /// each GPU's NVML energy counter before and after it, written as JSON for `rooflinr
    /// deploy --measured RUN --energy FILE` and printed as joules and mean watts.
    Energy {
        /// Where the window is written.
        #[arg(long, value_name = "FILE", default_value = "energy.json")]
        out: PathBuf,
        /// The command and its arguments (after `--`).
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
    /// On a GPU: the probe, every kernel's correctness on odd shapes, the ceilings, GEMV
    /// per format, cuBLASLt GEMM, torch.matmul when present, the comparison and ten
    /// seconds of telemetry; JSONL results and a Markdown summary in DIR.
    GpuCheck {
        /// Folder for `gpu-check.jsonl` and `summary.md`.
        #[arg(long, value_name = "DIR", default_value = "gpu-check")]
        out: PathBuf,
        /// Seconds of NVML telemetry to record.
        #[arg(long, default_value_t = 10.0)]
        telemetry_seconds: f64,
        /// Only the GEMV kernels: correctness, the read bandwidth and the GEMV sizes and
        /// batches (no peak or cuBLASLt GEMMs, torch or telemetry), for iterating on the
        /// kernels within a short GPU lease.
        #[arg(long)]
        gemv_only: bool,
    },
}

fn shape(text: &str) -> Result<OperatorShape, String> {
    let parts: Vec<u64> = text
        .split(',')
        .map(|p| p.trim().parse::<u64>().map_err(|e| format!("`{p}`: {e}")))
        .collect::<Result<_, _>>()?;
    match parts[..] {
        [m, n, k] => {
            let shape = OperatorShape { m, n, k };
            shape.check().map_err(|e| format!("`{text}`: {e}"))?;
            Ok(shape)
        }
        _ => Err(format!("expected M,N,K, got `{text}`")),
    }
}

fn formats(names: &[String], backend: &dyn Backend) -> Result<Vec<rooflinr_model::format::Format>> {
    if names.is_empty() {
        return Ok(backend.formats());
    }
    names
        .iter()
        .map(|n| {
            n.parse::<rooflinr_model::format::Format>()
                .map_err(anyhow::Error::from)
        })
        .collect()
}

fn main() -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "rooflinr_agent=info".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    match &cli.command {
        Some(Command::Ceilings) => {
            let backend = cli.measure.backend()?;
            let (measured, _) = commands::measure_ceilings(backend.as_ref(), &cli.measure.rule())?;
            println!("{}", commands::ceilings_table(&measured));
            Ok(())
        }
        Some(Command::Bench { shape, formats: f }) => {
            let backend = cli.measure.backend()?;
            let f = formats(f, backend.as_ref())?;
            println!(
                "{}",
                commands::bench(backend.as_ref(), *shape, &f, &cli.measure.rule())?
            );
            Ok(())
        }
        Some(Command::Kernels { arch, out }) => {
            std::fs::create_dir_all(out)
                .with_context(|| format!("cannot create {}", out.display()))?;
            for arch in arch {
                for module in Module::ALL {
                    let ptx = gpu::compile(module, arch).map_err(anyhow::Error::msg)?;
                    let path = out.join(format!(
                        "{}.{arch}.ptx",
                        module.file_name().trim_end_matches(".cu")
                    ));
                    std::fs::write(&path, ptx.to_src())
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    println!("{}", path.display());
                }
            }
            Ok(())
        }
        Some(Command::GpuCheck {
            out,
            telemetry_seconds,
            gemv_only,
        }) => gpu_check::run(
            &cli.measure.cuda(),
            out,
            *telemetry_seconds,
            &cli.measure.rule(),
            if *gemv_only {
                gpu_check::Scope::Gemv
            } else {
                gpu_check::Scope::Everything
            },
        ),
        Some(Command::Energy { out, command }) => commands::energy_window(command, out),
        Some(Command::Compare { shape, formats: f }) => {
            let backend = cli.measure.backend()?;
            let cpu = backend.as_ref();
            let f = formats(f, cpu)?;
            let shapes = if shape.is_empty() {
                vec![
                    OperatorShape {
                        m: 1,
                        n: 4096,
                        k: 4096,
                    },
                    OperatorShape {
                        m: 2048,
                        n: 4096,
                        k: 4096,
                    },
                ]
            } else {
                shape.clone()
            };
            let (_, text) = commands::compare(cpu, &shapes, &f, &cli.measure.rule())?;
            println!("{text}");
            Ok(())
        }
        None => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .context("cannot start the async runtime")?
            .block_on(listen(cli)),
    }
}

async fn listen(cli: Cli) -> Result<()> {
    let addr = cli
        .listen
        .unwrap_or_else(|| "127.0.0.1:7878".parse().expect("literal address"));
    let token = match cli.token {
        Some(t) => {
            pairing::check_token(&t).map_err(anyhow::Error::msg)?;
            t
        }
        None => pairing::new_token().context("cannot draw a random token")?,
    };
    if let Some(dir) = &cli.web
        && !dir.join("index.html").is_file()
    {
        bail!(
            "--web {}: no index.html there; build the calculator first (`trunk build --release`)",
            dir.display()
        );
    }
    let listener = TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let bound = listener.local_addr().context("no local address")?;
    let agent_url = pairing::local_url(bound);
    let calculator = cli
        .calculator_url
        .clone()
        .unwrap_or_else(|| format!("{agent_url}/"));
    let mut allowed_origins = cli.allow_origin.clone();
    allowed_origins.extend(pairing::origin_of(&calculator));

    let store = Store::open(&cli.results)?;
    // The GPU first, so that jobs that name no backend measure it when it is usable; it
    // is listed either way, so the calculator can say what is missing.
    let cuda: Arc<dyn Backend> = Arc::new(cli.measure.cuda());
    let cuda_line = match cuda.info() {
        info if info.available => format!(
            "cuda on {}",
            info.device.map(|d| d.name).unwrap_or_default()
        ),
        info => format!("cuda unavailable: {}", info.reason.unwrap_or_default()),
    };
    let cpu: Arc<dyn Backend> = Arc::new(cli.measure.cpu());
    let jobs = Jobs::new(vec![cuda, cpu], store, cli.measure.rule());
    jobs.spawn_worker().context("cannot start the job worker")?;
    let telemetry = Telemetry::start(cli.telemetry_hz);

    eprintln!(
        "rooflinr-agent {} listening on {bound}",
        env!("CARGO_PKG_VERSION")
    );
    if !bound.ip().is_loopback() {
        eprintln!(
            "WARNING: listening on {} exposes the agent beyond this machine; anyone who can reach it and has the token can run jobs. Prefer the default loopback address and an SSH tunnel (ssh -L 7878:127.0.0.1:7878 HOST).",
            bound.ip()
        );
    }
    eprintln!(
        "results: {}",
        std::fs::canonicalize(jobs.store().dir())
            .unwrap_or_else(|_| jobs.store().dir().to_path_buf())
            .display()
    );
    match &telemetry.nvml.reason {
        Some(why) if !telemetry.nvml.available => eprintln!("gpu telemetry: unavailable: {why}"),
        _ => eprintln!("gpu telemetry: {} GPU(s) through NVML", telemetry.nvml.gpus),
    }
    eprintln!("backends: {cuda_line}; cpu");
    match &cli.web {
        Some(dir) => eprintln!("calculator: serving {} at {agent_url}/", dir.display()),
        None => eprintln!("calculator: not served (start with --web DIR to serve it)"),
    }
    println!(
        "\nOpen this link to pair the calculator with this agent:\n\n    {}\n",
        pairing::link(&calculator, &agent_url, &token)
    );

    let state = Arc::new(AppState {
        config: ServerConfig {
            token,
            allowed_origins,
            allowed_hosts: cli.allow_host.clone(),
            web_dir: cli.web.clone(),
        },
        jobs,
        telemetry,
    });
    server::serve(listener, state, shutdown_signal())
        .await
        .context("the server stopped")?;
    eprintln!("stopped; every finished result is in its JSONL file");
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}
