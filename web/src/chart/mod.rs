//! The roofline chart: pure geometry in [`geometry`], colours in [`palette`], and the thin
//! Leptos component in [`view`].

pub mod geometry;
pub mod palette;
pub mod view;
