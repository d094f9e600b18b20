// EXPECT block_inclusive_scan RULE
// Library scan: cub::BlockScan does the whole exercise. It is force-inlined,
// so no function named cub is left in the PTX; its .loc lines still name
// the CUB header, and the rule reads those.
#include <cub/block/block_scan.cuh>
#define block_inclusive_scan block_inclusive_scan_reference
#include "../../../solutions/scan.cu"
#undef block_inclusive_scan

__global__ void block_inclusive_scan(const int *in, int *out, int n)
{
    typedef cub::BlockScan<int, 1024> scan_t;
    __shared__ typename scan_t::TempStorage tmp;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    scan_t(tmp).InclusiveSum(v, v);
    if (i < n)
        out[i] = v;
}
