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

/// The hardware registry's key for a GPU the driver names, checked against its compute
/// capability (the model crate's one matching rule).
pub fn registry_key(name: &str, compute_capability: (i32, i32)) -> Option<&'static str> {
    let cc = (
        u32::try_from(compute_capability.0).ok()?,
        u32::try_from(compute_capability.1).ok()?,
    );
    rooflinr_model::hardware::registry::key_for_device(name, Some(cc))
}

/// The NVRTC architecture for a compute capability (`sm_90`).
pub fn nvrtc_arch(compute_capability: (i32, i32)) -> String {
    format!("sm_{}{}", compute_capability.0, compute_capability.1)
}
