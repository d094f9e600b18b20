#include "gpu_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case.h"
#include "proc.h"
#include "synclab_config.h"

enum { PROBE_TIMEOUT_S = 120 }; /* a CUDA start on a loaded machine */

static int g_probed;
static sl_gpu_state g_state = SL_GPU_UNKNOWN;
static char g_detail[300];

const char *sl_gpu_probe_path(void)
{
    const char *probe = getenv("SYNCLAB_GPU_PROBE");
    return probe && *probe ? probe : SYNCLAB_GPU_PROBE;
}

sl_gpu_state sl_gpu_probe(void)
{
    if (g_probed)
        return g_state;
    g_probed = 1;
    const char *probe = sl_gpu_probe_path();
    if (access(probe, X_OK) != 0) {
        snprintf(g_detail, sizeof g_detail,
                 "the grader's GPU probe %s is missing (build it: "
                 "cmake --build build --target synclab_gpu_probe)",
                 probe);
        return g_state;
    }
    char *argv[] = {(char *)probe, NULL};
    sl_proc_result r;
    sl_proc_run(argv, NULL, 0, PROBE_TIMEOUT_S, &r);
    if (r.exited && r.code == 0) {
        g_state = SL_GPU_PRESENT;
        snprintf(g_detail, sizeof g_detail, "the grader's GPU probe found a CUDA device");
    } else if (r.exited && r.code == SL_EXIT_NO_GPU) {
        g_state = SL_GPU_NONE;
        snprintf(g_detail, sizeof g_detail, "the grader's GPU probe found no CUDA device");
    } else {
        snprintf(g_detail, sizeof g_detail, "the grader's GPU probe %s (%s %d)",
                 r.timed_out ? "did not answer in time" : "failed", r.signaled ? "signal" : "code",
                 r.signaled ? r.sig : r.code);
    }
    return g_state;
}

const char *sl_gpu_probe_detail(void)
{
    sl_gpu_probe();
    return g_detail;
}

long long sl_gpu_free_memory(long long *total)
{
    char *argv[] = {(char *)sl_gpu_probe_path(), "--memory", NULL};
    sl_proc_result r;
    char *text = sl_proc_output(argv, 4096, PROBE_TIMEOUT_S, &r);
    long long avail = -1, size = -1;
    if (!(r.exited && r.code == 0 && text && sscanf(text, "%lld %lld", &avail, &size) == 2))
        avail = size = -1;
    free(text);
    if (total)
        *total = size;
    return avail;
}
