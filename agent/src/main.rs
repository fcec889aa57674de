//! `rooflinr-agent`: the measurement agent's command line.
fn main() {}
