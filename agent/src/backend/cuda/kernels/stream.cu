// rooflinr: the bandwidth kernels (grid-stride loops over 16-byte vectors) and the spin
// kernel that keeps the GPU busy while the host queues a timed launch. Compiled by NVRTC
// after decode.cuh.
//
// Bytes counted: read counts each byte of `a` once; copy counts a read and b written;
// triad counts b and c read and a written. Write-allocate traffic is not counted (GPU L2
// writes back whole sectors it fully overwrote, so there is none for these kernels).

// XOR of every 32-bit word of `a` into `*out`: a pure read that the compiler cannot drop,
// and whose result the host checks against its own XOR of the same words.
extern "C" __global__ void rf_read(const uint4* __restrict__ a, unsigned long long n,
                                   unsigned int* __restrict__ out) {
    unsigned int acc = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        uint4 v = __ldg(a + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        acc ^= __shfl_xor_sync(0xffffffffu, acc, offset);
    }
    if (threadIdx.x % 32 == 0) {
        atomicXor(out, acc);
    }
}

// b = a.
extern "C" __global__ void rf_copy(const uint4* __restrict__ a, uint4* __restrict__ b,
                                   unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        b[i] = __ldg(a + i);
    }
}

// a = b + s c, four FP32 at a time.
extern "C" __global__ void rf_triad(float4* __restrict__ a, const float4* __restrict__ b,
                                    const float4* __restrict__ c, float s,
                                    unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        float4 x = __ldg(b + i);
        float4 y = __ldg(c + i);
        a[i] = make_float4(fmaf(s, y.x, x.x), fmaf(s, y.y, x.y), fmaf(s, y.z, x.z),
                           fmaf(s, y.w, x.w));
    }
}

// Spins for `ns` nanoseconds of the GPU's global timer: queued before a timed launch, it
// keeps the stream busy while the host queues the events and the kernel, so the host's
// launch latency is not timed.
extern "C" __global__ void rf_spin(unsigned long long ns) {
    unsigned long long start;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    unsigned long long now = start;
    while (now - start < ns) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    }
}
