// The launchers copy the device's data to the host, compute there and copy
// the answer back, launching one token kernel: full credit before the runner
// wrapped the student's copies. Now a copy that reads or writes host memory
// stops the runner (LAUNCH, "a launcher may copy only from device memory to
// device memory").
#include <cstdlib>
#include "worklist.h"

__global__ void token(int *scratch) { scratch[0] = 0; }

static int *to_host(const int *dev, int n)
{
    int *h = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof *h);
    cudaMemcpy(h, dev, (size_t)n * sizeof *h, cudaMemcpyDeviceToHost);
    return h;
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    token<<<1, block>>>(scratch);
    int *counts = to_host(nelem, n);
    int sum = 0;
    for (int t = 0; t < n; t++)
        sum += counts[t];
    int2 *items = (int2 *)malloc((size_t)(sum > 0 ? sum : 1) * sizeof *items);
    for (int t = 0, k = 0; t < n; t++)
        for (int i = 0; i < counts[t]; i++)
            items[k++] = make_int2(t, i);
    cudaMemcpy(worklist, items, (size_t)sum * sizeof *items, cudaMemcpyDefault);
    cudaMemcpy(total, &sum, sizeof sum, cudaMemcpyHostToDevice);
    free(items);
    free(counts);
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    token<<<1, block>>>(scratch);
    int *h = to_host(in, n), kept = 0;
    for (int i = 0; i < n; i++)
        if (compact_keep(h[i], threshold))
            h[kept++] = h[i];
    cudaMemcpyAsync(out, h, (size_t)kept * sizeof *h, cudaMemcpyHostToDevice, 0);
    cudaMemcpy(count, &kept, sizeof kept, cudaMemcpyHostToDevice);
    free(h);
}
