//! The roofline chart: what it draws in [`data`] (predictions and measurements), pure
//! geometry in [`geometry`], colours in [`palette`], and the thin Leptos component in
//! [`view`].

pub mod data;
pub mod geometry;
pub mod palette;
pub mod view;
