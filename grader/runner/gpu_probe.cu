/* The grader's own GPU probe (grader/run/gpu_probe.h): a CUDA program that
 * holds no student code. The grader decides "no GPU" (SKIP) from this
 * program's exit alone, never from a runner's: a runner is student code
 * and can exit with any code. Exit 0 with the device count when a device
 * answers, SL_EXIT_NO_GPU (77) when none does. */
#include <cstdio>
#include <cuda_runtime.h>

#include "case.h"

int main(void)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        printf("no CUDA device (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        return SL_EXIT_NO_GPU;
    }
    printf("%d\n", n);
    return 0;
}
