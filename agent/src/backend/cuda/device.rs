//! Device facts as the driver reports them, turned into what the calculator needs: the
//! theoretical bandwidth and the registry entry for the datasheet side. Pure.

/// Theoretical bandwidth of a double-data-rate memory interface, bytes/s: 2 transfers
/// per clock x clock x bus width / 8 (the CUDA samples' `deviceQuery` rule; the driver
/// reports the memory clock in kHz). `None` when the driver reports no clock or width (as
/// on GB10's unified LPDDR5X).
pub fn theoretical_bandwidth(memory_clock_khz: i32, bus_width_bits: i32) -> Option<f64> {
    (memory_clock_khz > 0 && bus_width_bits > 0)
        .then(|| 2.0 * f64::from(memory_clock_khz) * 1e3 * f64::from(bus_width_bits) / 8.0)
}

/// The hardware registry's key for a GPU, from the name the driver reports
/// (`NVIDIA H100 80GB HBM3`) and its compute capability; `None` for a GPU the registry
/// does not list (a variant with other clocks or memory must not borrow another's
/// datasheet).
pub fn registry_key(name: &str, compute_capability: (i32, i32)) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    let has = |s: &str| name.contains(s);
    let key = match compute_capability {
        (12, 1) if has("gb10") => "gb10",
        (10, 0) if has("gb200") => "gb200",
        (10, 0) if has("b200") => "b200",
        (9, 0) if has("h200") && !has("nvl") => "h200",
        (9, 0) if has("h100") && has("pcie") => "h100-pcie",
        (9, 0) if has("h100") && (has("sxm") || has("hbm3")) => "h100-sxm",
        (8, 0) if has("a100") && has("sxm") => "a100-sxm",
        (8, 9) if has("l40s") => "l40s",
        (8, 7) if has("orin") => "jetson-agx-orin",
        _ => return None,
    };
    Some(key)
}

/// The NVRTC architecture for a compute capability (`sm_90`).
pub fn nvrtc_arch(compute_capability: (i32, i32)) -> String {
    format!("sm_{}{}", compute_capability.0, compute_capability.1)
}
