/* The grader's own GPU probe (grader/run/gpu_probe.h): a CUDA program that
 * holds no student code. The grader decides "no GPU" (SKIP) from this
 * program's exit alone, never from a runner's: a runner is student code
 * and can exit with any code. Exit 0 with the device count when a device
 * answers, SL_EXIT_NO_GPU (77) when none does.
 * With --hold it makes a context on the visible GPU and keeps it until it
 * is killed (run/gpu_keep.h: the driver keeps that GPU set up meanwhile).
 * With --memory it prints the first visible GPU's free and total bytes:
 * whether a run that ran out of GPU memory found it taken by another
 * process (gpu_probe.h). */
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <unistd.h>

#include "case.h"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--hold") == 0) {
        if (cudaFree(0) != cudaSuccess)
            return SL_EXIT_NO_GPU;
        for (;;)
            pause();
    }
    if (argc > 1 && strcmp(argv[1], "--memory") == 0) {
        size_t free = 0, total = 0;
        cudaError_t e = cudaMemGetInfo(&free, &total);
        if (e != cudaSuccess) {
            printf("no answer (%s)\n", cudaGetErrorString(e));
            return SL_EXIT_NO_GPU;
        }
        printf("%zu %zu\n", free, total);
        return 0;
    }
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        printf("no CUDA device (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        return SL_EXIT_NO_GPU;
    }
    printf("%d\n", n);
    return 0;
}
