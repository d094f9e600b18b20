// EXPECT tile_reverse RACE
// missing_barrier.cu's race, plus an acq_rel atomic and an acquire load on
// shared memory that never run (n < 0): the shape of libcu++'s barrier with
// a completion function, which racecheck cannot follow and for which it is
// turned off. Only atomics compiled from libcu++'s barrier headers (by the
// compiler's dependency list) turn it off; these are the student's, so
// racecheck runs and reports the race.
#include <cuda/atomic>
#define tile_reverse tile_reverse_reference
#include "../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    __shared__ int decoy;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);

    if (n < 0) {  // never: n is a size
        cuda::atomic_ref<int, cuda::thread_scope_block> d(decoy);
        d.fetch_add(1, cuda::memory_order_acq_rel);
        while (d.load(cuda::memory_order_acquire) < 0) {
        }
    }
    if (t < valid)
        tile[t] = in[i];
    // BUG: __syncthreads() missing here.
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
