// EXPECT grid_two_phase PASS
// Correct, in another spelling: the warp maxima live in dynamic shared
// memory sized by the launcher (one int per warp), the grid is a third of
// what fits, and phase 2 reads the partials with a block-stride loop. The
// grader's own launches (any grid, blockDim.x doubles of dynamic shared
// memory) must accept it too.
#define grid_two_phase grid_two_phase_reference
#define grid_two_phase_launch grid_two_phase_launch_reference
#include "../../../solutions/coop.cu"
#undef grid_two_phase
#undef grid_two_phase_launch

__device__ int block_max_dynamic(int v)
{
    extern __shared__ int warp_best[];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    for (int off = 16; off > 0; off /= 2)
        v = max(v, __shfl_xor_sync(0xffffffffu, v, off));
    if (lane == 0)
        warp_best[warp] = v;
    __syncthreads();
    int m = warp_best[0];
    for (int w = 1; w < warps; w++)
        m = max(m, warp_best[w]);
    __syncthreads();   /* the next call rewrites warp_best */
    return m;
}

__global__ void grid_two_phase(const int *in, int n, int *partials, int *out)
{
    cg::grid_group grid = cg::this_grid();
    long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    int m = INT_MIN;
    for (long long i = first; i < n; i += stride)
        m = max(m, in[i]);
    m = block_max_dynamic(m);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = m;
    grid.sync();
    int p = INT_MIN;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        p = max(p, partials[b]);
    int best = block_max_dynamic(p);
    for (long long i = first; i < n; i += stride)
        out[i] = best - in[i];
}

cudaError_t grid_two_phase_launch(const int *in, int n, int *partials, int partials_cap,
                                  int *out, int block)
{
    size_t shared = (size_t)(block / 32) * sizeof(int);
    int device = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_two_phase, block, shared);
    if (e != cudaSuccess)
        return e;
    int grid = per_sm * sms / 3, needed = (n + block - 1) / block;
    if (grid > needed)
        grid = needed;
    if (grid > partials_cap)
        grid = partials_cap;
    if (grid < 1)
        grid = 1;
    void *args[] = {(void *)&in, (void *)&n, (void *)&partials, (void *)&out};
    return cudaLaunchCooperativeKernel((void *)grid_two_phase, dim3(grid), dim3(block), args,
                                       shared, 0);
}
