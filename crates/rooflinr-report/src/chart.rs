//! The roofline chart, free of the DOM and shared by the calculator and the report so that
//! both draw the same thing: log scales, ticks, roof outlines and marker shapes in
//! [`geometry`], colours in [`palette`], label boxes in [`place`], the roofs' lines
//! and their labels in [`roofs`], and their SVG markup in [`draw`].

pub mod draw;
pub mod geometry;
pub mod palette;
pub mod place;
pub mod roofs;
