//! Fuzzes `config.json` parsing, and analyses whatever parses: neither may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rooflinr_model::analysis::{self, AttentionKernel, Phase, Scenario};
use rooflinr_model::config::ModelConfig;
use rooflinr_model::format::Format;
use rooflinr_model::hardware::registry;
use rooflinr_model::ops::Precision;
use rooflinr_model::roofline::Efficiency;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(config) = ModelConfig::from_json(text) else { return };
    let hw = registry::get("gb10").expect("registry entry");
    for phase in [Phase::Prefill, Phase::Decode] {
        let scenario = Scenario {
            phase,
            batch: 3,
            seq: 1000,
            precision: Precision::uniform(Format::NvFp4),
            attention: AttentionKernel::Unfused,
            quantize_embeddings: true,
            // A checkpoint's experts in their own format where its config says so.
            experts: config.checkpoint_experts.map(|weights| analysis::ExpertFormats {
                weights,
                activations: Format::Bf16,
            }),
        };
        let a = analysis::analyze(&config, &hw, &scenario, &Efficiency::IDEAL).expect("valid scenario");
        assert!(a.time.get().is_finite());
    }
});
