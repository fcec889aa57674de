//! The lab's code that the page loads on its first use ([`crate::split`]): reading
//! imported files and saved sessions, writing them, and the lab's report (the agent's
//! WebSocket and every message's encoding load with it, from [`super::link`]'s split
//! points). Most visitors never pair or import.

use rooflinr_model::hardware::Hardware;
use rooflinr_report::import::{Imported, LabFile};
use rooflinr_report::report::{self, ReportInput, svg};
use rooflinr_report::{KernelPoint, MeasuredCeilings};

use super::{LabData, LabView};
use crate::split_point;

split_point! {
    lab,
    /// Reads an imported file or a saved session (any format `rooflinr_report::import`
    /// knows); the error says what is wrong with it.
    pub fn import_text(text: String) -> Result<Imported, String> {
        rooflinr_report::import::import(&text).map_err(|e| e.to_string())
    }
}

split_point! {
    lab,
    /// The lab's file as JSON: compact for the browser's storage, pretty for a download.
    pub fn file_json(file: LabFile, pretty: bool) -> Result<String, String> {
        let json = if pretty {
            serde_json::to_string_pretty(&file)
        } else {
            serde_json::to_string(&file)
        };
        json.map_err(|e| e.to_string())
    }
}

/// What the lab's report is made from.
pub struct ReportRequest {
    /// The device whose datasheet the predictions use.
    pub hardware: Hardware,
    /// Every measured and imported kernel.
    pub kernels: Vec<KernelPoint>,
    /// The ceilings the agent measured.
    pub ceilings: MeasuredCeilings,
    /// The line under the title.
    pub generated: String,
    /// The chart's file name, linked from the report.
    pub chart_file: String,
}

split_point! {
    lab,
    /// The lab's report (Markdown), its chart (SVG) and the chart's height.
    pub fn report(request: ReportRequest) -> (String, String, f64) {
        let title = format!("{} kernels", request.kernels.len());
        let md = report::markdown(&ReportInput {
            title: &title,
            hardware: &request.hardware,
            kernels: &request.kernels,
            ceilings: &request.ceilings,
            generated: &request.generated,
            chart_file: Some(&request.chart_file),
            notes: &[],
        });
        let chart = svg::layout(&request.hardware, &request.kernels, &request.ceilings);
        let height = chart.frame.height;
        let markup = svg::render(&chart, &format!("{title} on {}", request.hardware.name));
        (md, markup, height)
    }
}

split_point! {
    lab,
    /// The lab's data against `hw`'s datasheet ([`super::analyse`]).
    pub fn analyse(data: LabData, hw: Hardware) -> LabView {
        super::analyse(&data, &hw)
    }
}
