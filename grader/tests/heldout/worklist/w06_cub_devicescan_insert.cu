// EXPECT worklist_insert RULE
// Library scan: cub::DeviceScan::ExclusiveSum does the whole multi-block scan
// (decoupled look-back inside). Refused: CUB kernels in the PTX.
#include <cub/device/device_scan.cuh>
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

__global__ void ds_total(const int *nelem, const int *offsets, int n, int *total)
{
    *total = offsets[n - 1] + nelem[n - 1];
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(total, 0, sizeof(int));
        return;
    }
    int *offsets = scratch;
    void *temp = scratch + n;
    size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, bytes, nelem, offsets, n);
    bytes = 2 * (size_t)n * sizeof(int);   // room left in scratch
    cub::DeviceScan::ExclusiveSum(temp, bytes, nelem, offsets, n);
    ds_total<<<1, 1>>>(nelem, offsets, n, total);
    write_items<<<(n + block - 1) / block, block>>>(nelem, offsets, n, worklist);
}
