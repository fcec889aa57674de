//! Fuzzes the kernel importers (kernel CSV, Nsight Compute CSV, rooflinr JSON, agent JSONL):
//! any text may be refused but none may panic, and every kernel accepted must be usable
//! (a positive finite time, finite non-negative FLOPs and bytes).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(imported) = rooflinr_report::import::import(text) {
        for k in &imported.kernels {
            assert!(k.time_s.is_finite() && k.time_s > 0.0);
            assert!(k.flops.is_finite() && k.flops >= 0.0);
            assert!(k.bytes.is_finite() && k.bytes >= 0.0);
        }
    }
});
