// EXPECT grid_two_phase LAUNCH
// A cooperative launch with more blocks than can be resident at once
// (one extra block per SM "to hide latency"): the launch is refused with
// cudaErrorCooperativeLaunchTooLarge.
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
    (void)partials_cap;
    int grid = (per_sm + 1) * sms;   /* BUG: per_sm * sms is the most that fits */
    void *args[] = {(void *)&in, (void *)&n, (void *)&partials, (void *)&out};
    return cudaLaunchCooperativeKernel((void *)grid_two_phase, dim3(grid), dim3(block), args, 0, 0);
}
