//! Measured kernels on the roofline, shared by the browser calculator and the `rooflinr`
//! command so that both say the same thing about the same data.
//!
//! - [`kernel`]: one measured kernel ([`KernelPoint`]), from the agent's measurements or
//!   from an import, and the ceilings an agent measured.
//! - [`import`]: kernel tables from CSV (the prototype's benchmark scripts), Nsight Compute CSV
//!   exports, rooflinr's own JSON export and the agent's JSONL results.
//! - [`calibrate`]: achievable fractions of bandwidth and of each format's peak, fitted
//!   from measurements, and the prediction error before and after.
//! - [`chart`]: the roofline chart, free of the DOM, drawn by the calculator and by the
//!   report.
//! - [`report`]: the Markdown report (the prototype's shape) and its SVG chart.
//!
//! Pure and synchronous; it builds for `wasm32-unknown-unknown`.

pub mod calibrate;
pub mod chart;
pub mod import;
pub mod kernel;
pub mod report;

pub use kernel::{KernelPoint, KernelSource, MeasuredCeilings};
