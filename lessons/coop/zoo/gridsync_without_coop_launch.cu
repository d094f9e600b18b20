// EXPECT grid_two_phase LAUNCH
// The kernel calls this_grid().sync() but the launcher uses <<<>>>: the grid
// group is invalid and grid.sync() traps ("unspecified launch failure").
#define grid_two_phase_launch grid_two_phase_launch_reference
#include "../../../solutions/coop.cu"
#undef grid_two_phase_launch

cudaError_t grid_two_phase_launch(const int *in, int n, int *partials, int partials_cap,
                                  int *out, int block)
{
    int device, sms, per_sm;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_two_phase, block, 0);
    if (e != cudaSuccess)
        return e;
    int grid = per_sm * sms;
    int needed = (n + block - 1) / block;
    if (grid > needed)
        grid = needed;
    if (grid > partials_cap)
        grid = partials_cap;
    /* BUG: an ordinary launch; the grid fits, but it is not cooperative. */
    grid_two_phase<<<grid, block>>>(in, n, partials, out);
    return cudaGetLastError();
}
