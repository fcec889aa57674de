//! Compiles the GPU kernels' decoding header (`src/backend/cuda/kernels/decode.cuh`) for
//! the host, so the agent's tests check, bit for bit against the model crate, the same
//! decoding text the GPU runs.

fn main() {
    let dir = "src/backend/cuda/kernels";
    println!("cargo:rerun-if-changed={dir}/decode.cuh");
    println!("cargo:rerun-if-changed={dir}/decode_host.c");
    cc::Build::new()
        .file(format!("{dir}/decode_host.c"))
        .include(dir)
        .warnings(true)
        .extra_warnings(true)
        .flag_if_supported("-std=c11")
        .compile("rooflinr_decode_host");
}
