//! Fuzzes `.safetensors` parsing and quantisation of whatever tensor it yields: no panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rooflinr_model::quant::quality::{self, read_safetensors};

fuzz_target!(|data: &[u8]| {
    let Ok(tensor) = read_safetensors(data, "w") else {
        return;
    };
    if tensor.values.len() > 4096 {
        return;
    }
    for codec in quality::default_codecs() {
        if let Ok(q) = codec.quantize(&tensor.values, tensor.cols()) {
            let _ = q.dequantize();
        }
    }
});
