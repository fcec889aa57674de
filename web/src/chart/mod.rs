//! The roofline chart: what it draws in [`data`] (predictions and measurements) and the
//! thin Leptos component in [`view`]; its geometry, labels and colours are the report
//! crate's ([`rooflinr_report::chart`]), so the report's chart draws the same.

pub mod data;
pub mod view;

pub use rooflinr_report::chart::{geometry, palette};
