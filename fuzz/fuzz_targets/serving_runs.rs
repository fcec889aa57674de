//! Fuzzes the serving-run importer (vLLM's and SGLang's bench results, GuideLLM's report,
//! GenAI-Perf's JSON and CSV exports): any text may be refused but none may panic, and every
//! run accepted must be usable (lengths of at least one token, latencies and throughput
//! finite and at least zero).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(runs) = rooflinr_report::import::serving::import_serving(text) {
        for p in &runs.points {
            assert!(p.prompt_tokens >= 1.0 && p.output_tokens >= 1.0);
            for m in [p.ttft, p.tpot].into_iter().flatten() {
                assert!(m.value.get().is_finite() && m.value.get() >= 0.0);
            }
            assert!(p.output_tokens_per_s.is_none_or(|t| t.is_finite() && t >= 0.0));
        }
    }
});
