// EXPECT sum_int PASS
// Correct, in another spelling: a grid-stride int4 body between a scalar
// head (up to the first 16-byte boundary, never past n) and a scalar tail of
// n mod 4 after it, warp sums by __reduce_add_sync, one atomicAdd per warp.
// Every residue of n mod 4 and every misaligned start of the sanitizer
// inputs must leave it clean.
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void sum_int_vec4(const int *in, long long n, int *out)
{
    long long misaligned = (long long)(((uintptr_t)in / sizeof(int)) % 4);
    long long head = misaligned ? 4 - misaligned : 0;
    if (head > n)
        head = n;
    long long vectors = (n - head) / 4;
    long long tail_start = head + 4 * vectors;
    const int4 *body = reinterpret_cast<const int4 *>(in + head);

    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (long long v = t; v < vectors; v += stride) {
        int4 x = body[v];
        acc += (unsigned)x.x + (unsigned)x.y + (unsigned)x.z + (unsigned)x.w;
    }
    for (long long k = t; k < head; k += stride)
        acc += (unsigned)in[k];
    for (long long k = tail_start + t; k < n; k += stride)
        acc += (unsigned)in[k];
    acc = __reduce_add_sync(0xffffffffu, acc);
    if (threadIdx.x % 32 == 0)
        atomicAdd(out, (int)acc);
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    long long blocks = (n / 4 + 255) / 256;
    if (blocks < 1)
        blocks = 1;
    if (blocks > 2048)
        blocks = 2048;
    sum_int_vec4<<<(unsigned)blocks, 256>>>(d_in, n, d_out);
}
