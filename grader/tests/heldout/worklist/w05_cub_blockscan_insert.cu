// EXPECT worklist_insert RULE
// Library scan: the tile scan is cub::BlockScan<int, B>::ExclusiveSum (a
// template per block size), the multi-block part is the student's own
// recursion. docs/05: "the grader refuses any CUB or thrust function in your
// PTX"; suite hint: "no atomics and no library scan in this exercise".
// cub::BlockScan is force-inlined, so no function named cub may be left in
// the PTX: this probes whether the CUB rule is real for block primitives.
#include <cub/block/block_scan.cuh>
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

template <int B>
__global__ void cub_scan_tiles(const int *in, int *out, int *tile_sums, int n)
{
    using BS = cub::BlockScan<int, B>;
    __shared__ typename BS::TempStorage tmp;
    int i = blockIdx.x * B + threadIdx.x;
    int x = i < n ? in[i] : 0, ex, agg;
    BS(tmp).ExclusiveSum(x, ex, agg);
    if (i < n)
        out[i] = ex;
    if (threadIdx.x == 0)
        tile_sums[blockIdx.x] = agg;
}

static void launch_tiles(int grid, int block, const int *in, int *out, int *sums, int n)
{
    switch (block) {
    case 32: cub_scan_tiles<32><<<grid, 32>>>(in, out, sums, n); break;
    case 64: cub_scan_tiles<64><<<grid, 64>>>(in, out, sums, n); break;
    case 128: cub_scan_tiles<128><<<grid, 128>>>(in, out, sums, n); break;
    case 256: cub_scan_tiles<256><<<grid, 256>>>(in, out, sums, n); break;
    case 512: cub_scan_tiles<512><<<grid, 512>>>(in, out, sums, n); break;
    default: cub_scan_tiles<1024><<<grid, 1024>>>(in, out, sums, n); break;
    }
}

static void cs_scan(const int *in, int *out, int n, int *total, int *sums, int block)
{
    int tiles = (n + block - 1) / block;
    if (tiles == 1) {
        launch_tiles(1, block, in, out, total, n);
        return;
    }
    launch_tiles(tiles, block, in, out, sums, n);
    cs_scan(sums, sums, tiles, total, sums + tiles, block);
    add_tile_offsets<<<tiles, block>>>(out, sums, n);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(total, 0, sizeof(int));
        return;
    }
    cs_scan(nelem, scratch, n, total, scratch + n, block);
    write_items<<<(n + block - 1) / block, block>>>(nelem, scratch, n, worklist);
}
