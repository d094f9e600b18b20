// Dev-only: times a variant of the scan_any_n solution against CUB and a copy.
#include <cstdio>
#include <cstdint>
#include <cub/cub.cuh>
#include VARIANT_FILE

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

__global__ void fill(int *a, long long n, uint64_t seed) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint64_t z = seed + 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        a[i] = (int)(uint32_t)(z ^ (z >> 31));
    }
}
__global__ void diff(const int *a, const int *b, long long n, unsigned long long *c) {
    long long stride = (long long)gridDim.x * blockDim.x; unsigned long long m = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) m += a[i] != b[i];
    if (m) atomicAdd(c, m);
}
template <class F> static float best(F f, int reps = 10) {
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b); f(); CK(cudaDeviceSynchronize());
    float bt = 1e30f;
    for (int i = 0; i < reps; i++) { cudaEventRecord(a); f(); cudaEventRecord(b); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms, a, b); if (ms < bt) bt = ms; }
    return bt;
}
int main(int argc, char **argv) {
    long long arg = argc > 1 ? atoll(argv[1]) : 28;
    int log2n = arg < 40 ? (int)arg : 0;
    long long n = arg < 40 ? 1LL << arg : arg; size_t bytes = n * 4;
    int *in, *out, *ref; CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&out, bytes)); CK(cudaMalloc(&ref, bytes));
    fill<<<1024, 256>>>(in, n, 12345); CK(cudaDeviceSynchronize());
    void *scratch = NULL; size_t sb = scan_scratch_bytes(n); if (sb) CK(cudaMalloc(&scratch, sb));
    void *temp = NULL; size_t tb = 0; cub::DeviceScan::ExclusiveSum(temp, tb, in, ref, (int)n); CK(cudaMalloc(&temp, tb));
    float cub_ms = best([&] { cub::DeviceScan::ExclusiveSum(temp, tb, in, ref, (int)n); });
    float copy_ms = best([&] { cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice); });
    CK(cudaMemset(out, 0xFF, bytes));
    float stu_ms = best([&] { scan_exclusive_int(in, out, n, scratch); });
    CK(cudaGetLastError());
    unsigned long long *c; CK(cudaMalloc(&c, 8)); CK(cudaMemset(c, 0, 8));
    diff<<<1024, 256>>>(out, ref, n, c); unsigned long long bad; CK(cudaMemcpy(&bad, c, 8, cudaMemcpyDeviceToHost));
    long long tiles = tiles_of(n);
    unsigned *ts = (unsigned *)scratch;
    float p1 = best([&] { reduce_tiles<<<(unsigned)tiles, ANY_THREADS>>>(in, n, ts); });
    float p2 = best([&] { scan_tile_sums<<<1, SUMS_THREADS>>>(ts, (int)tiles); });
    float p3 = best([&] { scan_tiles<<<(unsigned)tiles, ANY_THREADS>>>(in, out, n, ts); });
    CK(cudaMemset(out, 0xFF, bytes)); scan_exclusive_int(in, out, n, scratch); CK(cudaMemset(c, 0, 8));
    diff<<<1024, 256>>>(out, ref, n, c); unsigned long long bad2; CK(cudaMemcpy(&bad2, c, 8, cudaMemcpyDeviceToHost)); bad += bad2;
    double gb = 2.0 * bytes / 1e6;
    printf("%-28s n=2^%d student %.3f ms %.0f GB/s (%.1f%% of CUB) | CUB %.3f ms %.0f GB/s | copy %.0f GB/s | p1 %.3f (%.0f GB/s read) p2 %.4f p3 %.3f (%.0f GB/s) | mismatches %llu\n",
           VARIANT_NAME, log2n ? log2n : -1, stu_ms, gb / stu_ms, 100.0 * cub_ms / stu_ms, cub_ms, gb / cub_ms, gb / copy_ms,
           p1, bytes / 1e6 / p1, p2, p3, gb / p3, bad);
    return bad != 0;
}
