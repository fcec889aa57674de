//! Fuzzes custom hardware files (TOML and JSON) and format names: none may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rooflinr_model::format::{Format, Math};
use rooflinr_model::hardware::custom;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(hw) = custom::parse(&text) {
        for math in Math::ALL {
            let _ = hw.ceiling(math, true);
        }
    }
    let _ = text.parse::<Format>();
});
