//! Compiles the GPU kernels' host-and-device headers (`src/backend/cuda/kernels/decode.cuh`
//! and `gemv_lane.cuh`) for the host, so the agent's tests check the same text the GPU runs:
//! the decoding bit for bit against the model crate, and every lane of the GEMV kernels.

fn main() {
    let dir = "src/backend/cuda/kernels";
    for file in ["decode.cuh", "gemv_lane.cuh", "host.cpp"] {
        println!("cargo:rerun-if-changed={dir}/{file}");
    }
    // Only the tests use the host build, and tests run on the host: a check for another
    // target (the aarch64 clippy run, for GB10's CPU) needs no cross C++ compiler.
    let (host, target) = (std::env::var("HOST"), std::env::var("TARGET"));
    if host.is_ok() && host != target {
        return;
    }
    cc::Build::new()
        .cpp(true)
        .file(format!("{dir}/host.cpp"))
        .include(dir)
        .warnings(true)
        .extra_warnings(true)
        .flag_if_supported("-std=c++17")
        // `#pragma unroll` is for NVRTC.
        .flag_if_supported("-Wno-unknown-pragmas")
        // FMA contraction stays as the source writes it (fmaf), as NVRTC compiles it.
        .flag_if_supported("-ffp-contract=off")
        .opt_level(2)
        .compile("rooflinr_kernels_host");
}
