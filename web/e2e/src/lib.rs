//! Harness for driving the release calculator in a real browser: build (or reuse) the
//! Trunk bundle, serve it on loopback under a sub-path as GitHub Pages would, start
//! chromedriver, and open a WebDriver session in headless Chromium.
//!
//! Used by the end-to-end test (`tests/calculator.rs`) and the web benchmark
//! (`src/bin/web-bench.rs`). Nothing here downloads anything: Trunk runs `--offline` and
//! the browser is the system's Chromium.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use fantoccini::{Client, ClientBuilder};
use tokio::process::{Child, Command};

/// The sub-path the bundle is served under, as on a GitHub Pages project site.
pub const SUB_PATH: &str = "/rooflinr/";

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("web/e2e is two levels below the root")
        .to_path_buf()
}

/// The release bundle: `ROOFLINR_WEB_DIST` if set (xtask builds it once for every user),
/// else a fresh `trunk build --release --offline` into `target/e2e-dist`, built once per
/// process: the tests of one file run side by side, and two builds into one folder at once
/// fail copying the wasm.
pub fn release_bundle() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("ROOFLINR_WEB_DIST") {
        let dir = PathBuf::from(dir);
        if !dir.join("index.html").is_file() {
            bail!("ROOFLINR_WEB_DIST={} holds no index.html", dir.display());
        }
        return Ok(dir);
    }
    static BUILT: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| build_bundle().map_err(|e| format!("{e:#}")))
        .clone()
        .map_err(anyhow::Error::msg)
}

/// The bundle's code folder (`pkg-HASH/`, named by its contents at each build): the
/// JavaScript, the main module and the modules loaded on first use.
pub fn code_dir(dist: &Path) -> Result<PathBuf> {
    let mut found = Vec::new();
    for entry in
        std::fs::read_dir(dist).with_context(|| format!("cannot read {}", dist.display()))?
    {
        let path = entry?.path();
        if path.is_dir()
            && path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("pkg-"))
        {
            found.push(path);
        }
    }
    match found.as_slice() {
        [one] => Ok(one.clone()),
        _ => bail!(
            "{} should hold one pkg-HASH folder, holds {found:?}",
            dist.display()
        ),
    }
}

/// `trunk build --release --offline` into `target/e2e-dist`.
fn build_bundle() -> Result<PathBuf> {
    let dist = root().join("target/e2e-dist");
    let status = std::process::Command::new("trunk")
        .args(["build", "--release", "--offline", "--dist"])
        .arg(&dist)
        .current_dir(root())
        .status()
        .context("cannot run `trunk` (install it with `cargo xtask setup`)")?;
    if !status.success() {
        bail!("`trunk build --release --offline` failed ({status})");
    }
    Ok(dist)
}

/// Serves `dist` at [`SUB_PATH`] on a free loopback port; returns the page's URL.
pub async fn serve(dist: &Path) -> Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .context("cannot bind a loopback port for the bundle")?;
    let addr: SocketAddr = listener.local_addr()?;
    let files = tower_http::services::ServeDir::new(dist);
    let app = axum::Router::new().nest_service(SUB_PATH.trim_end_matches('/'), files);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok(format!("http://{addr}{SUB_PATH}"))
}

/// A running chromedriver, stopped when dropped.
pub struct Driver {
    child: Child,
    /// Its WebDriver URL.
    pub url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// Starts chromedriver (`CHROMEDRIVER`, default `chromedriver` on PATH) and waits until it
/// accepts connections.
pub async fn start_driver() -> Result<Driver> {
    let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
    let port = free_port()?;
    let child = Command::new(&program)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .with_context(|| {
            format!("cannot start `{program}` (install it with `cargo xtask setup`)")
        })?;
    let url = format!("http://127.0.0.1:{port}");
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            return Ok(Driver { child, url });
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("chromedriver did not start listening on port {port} within 10 s")
}

/// Opens a headless Chromium session with the flags a container needs (no sandbox, no
/// GPU, no /dev/shm).
pub async fn open_browser(driver: &Driver, width: u32, height: u32) -> Result<Client> {
    open_with(driver, width, height, None).await
}

/// Opens a session that emulates a phone's screen: `width` CSS px wide at one device pixel
/// per CSS px (a desktop window cannot be made narrower than about 500 px).
pub async fn open_phone(driver: &Driver, width: u32, height: u32) -> Result<Client> {
    let emulation = serde_json::json!({
        "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1.0, "mobile": true, "touch": true }
    });
    open_with(driver, 800, height, Some(emulation)).await
}

async fn open_with(
    driver: &Driver,
    width: u32,
    height: u32,
    mobile_emulation: Option<serde_json::Value>,
) -> Result<Client> {
    let mut options = serde_json::json!({
        "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", format!("--window-size={width},{height}"),
        ]
    });
    if let Some(m) = mobile_emulation {
        options["mobileEmulation"] = m;
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), options);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .context("cannot open a Chromium session through chromedriver")?;
    Ok(client)
}

/// The page's query string once `done` accepts it, polled for up to 2 s: the calculator
/// writes its inputs to the address bar at most every 250 ms while they change.
pub async fn location_search(client: &Client, done: impl Fn(&str) -> bool) -> Result<String> {
    let mut search = String::new();
    for _ in 0..40 {
        let value = client.execute("return location.search", vec![]).await?;
        search = value.as_str().unwrap_or_default().to_string();
        if done(&search) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(search)
}

/// Waits until the element matching `css` exists and returns its text.
pub async fn text_of(client: &Client, css: &str) -> Result<String> {
    let el = client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(fantoccini::Locator::Css(css))
        .await
        .with_context(|| format!("`{css}` never appeared"))?;
    Ok(el.text().await?)
}

/// The axe-core script the accessibility test injects: `ROOFLINR_AXE` (xtask passes the
/// copy `cargo xtask setup` installed), else the newest `axe-core-*` copy in the tool cache.
pub fn axe_script() -> Result<String> {
    let path = match std::env::var_os("ROOFLINR_AXE") {
        Some(p) => PathBuf::from(p),
        None => {
            let home = std::env::var_os("HOME").context("HOME is not set")?;
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(home).join(".cache"))
                .join("rooflinr");
            let mut copies: Vec<PathBuf> = std::fs::read_dir(&cache)
                .map(|dir| {
                    dir.filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| {
                            p.file_name()
                                .is_some_and(|n| n.to_string_lossy().starts_with("axe-core-"))
                        })
                        .map(|p| p.join("node_modules/axe-core/axe.min.js"))
                        .filter(|p| p.is_file())
                        .collect()
                })
                .unwrap_or_default();
            copies.sort();
            copies.pop().with_context(|| {
                format!(
                    "no axe-core in {} (install it with `cargo xtask setup`)",
                    cache.display()
                )
            })?
        }
    };
    std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read axe-core at {} (install it with `cargo xtask setup`)",
            path.display()
        )
    })
}
