// EXPECT worklist_insert PASS
// Correct and within the rule: the reference's three-step scan, but the
// add-back reads the tile offset with cuda::atomic_ref::load(acquire) and
// write_items reads its offset with a relaxed atomic load; the total is
// stored with atomic_ref::store(release). These are ld.acquire / ld.relaxed /
// st.release in the PTX: loads and stores, no read-modify-write (no atom./red.),
// so no place is handed out in arrival order. Needless but legal.
#include <cuda/atomic>
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

using dref = cuda::atomic_ref<int, cuda::thread_scope_device>;

__global__ void ar_add_back(int *data, int *tile_offsets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int o = dref(tile_offsets[blockIdx.x]).load(cuda::memory_order_acquire);
    if (i < n)
        data[i] += o;
}

__global__ void ar_write_items(const int *nelem, int *offsets, int n, int2 *worklist)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int start = dref(offsets[t]).load(cuda::memory_order_relaxed);
    int count = nelem[t];
    for (int k = 0; k < count; k++)
        worklist[start + k] = make_int2(t, k);
}

__global__ void ar_tile_scan(const int *in, int *out, int *tile_sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? in[i] : 0;
    int inclusive = block_inclusive_scan(x);
    if (i < n)
        out[i] = inclusive - x;
    if (threadIdx.x == blockDim.x - 1)
        dref(tile_sums[blockIdx.x]).store(inclusive, cuda::memory_order_release);
}

static void ar_scan(const int *in, int *out, int n, int *total, int *sums, int block)
{
    int tiles = (n + block - 1) / block;
    if (tiles == 1) {
        ar_tile_scan<<<1, block>>>(in, out, total, n);
        return;
    }
    ar_tile_scan<<<tiles, block>>>(in, out, sums, n);
    ar_scan(sums, sums, tiles, total, sums + tiles, block);
    ar_add_back<<<tiles, block>>>(out, sums, n);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(total, 0, sizeof(int));
        return;
    }
    int *offsets = scratch, *sums = scratch + n;
    ar_scan(nelem, offsets, n, total, sums, block);
    ar_write_items<<<(n + block - 1) / block, block>>>(nelem, offsets, n, worklist);
}
