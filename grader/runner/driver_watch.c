/* The runner's watch on the CUDA driver (driver_watch.h). Functions are
 * judged by the name CUPTI reports (cuMemcpyDtoH_v2, cuMemcpyDtoH_v2_ptds
 * ...), so new versions of a call fall under the same rule. */
#include "driver_watch.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int g_exit_code = 1;
static CUpti_SubscriberHandle g_subscriber;
static __thread int t_trusted;        /* the runner's own calls on this thread */
static __thread int t_inside;         /* our own check's calls */
static volatile unsigned long g_seen; /* callbacks so far: the watch is alive */
static int g_watching;

unsigned long sl_driver_watch_seen(void) { return g_seen; }
int sl_driver_watch_on(void) { return g_watching; }

void sl_driver_watch_trust(int on) { t_trusted += on ? 1 : -1; }

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Host code may not reach device memory, nor have memory the host can also
 * read; a module loaded from memory holds code no check has read. */
static const char *const HOST_VISIBLE[] = {
    "cuMemAllocHost",    "cuMemHostAlloc", "cuMemHostRegister", "cuMemHostGetDevicePointer",
    "cuMemAllocManaged", "cuMemPrefetch",  "cuMemCreate",       "cuMemMap",
    "cuMemImport",       "cuMemExport",    "cuMemPoolCreate",   "cuMemPoolImport",
    "cuMemPoolExport",   "cuIpc",          "cuGraphicsMap",     NULL};
static const char *const NEW_CODE[] = {"cuModuleLoad", "cuLibraryLoad", "cuLink", NULL};

static int listed(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (starts(name, list[i]))
            return 1;
    return 0;
}

static int device_memory(CUdeviceptr p)
{
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, (const void *)(uintptr_t)p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeDevice;
}

/* The rule a call breaks, or NULL. cuMemcpy and cuMemcpyAsync take any
 * two addresses (unified addressing): both must be device memory. */
static const char *judge(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    const char *f = cb->functionName;
    if (starts(f, "cuMemcpy")) {
        if (starts(f, "cuMemcpyDtoD"))
            return NULL;
        if (cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpy ||
            cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync ||
            cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds ||
            cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz) {
            /* the four parameter structs begin with dst, src, ByteCount */
            const cuMemcpy_params *p = (const cuMemcpy_params *)cb->functionParams;
            if (p->ByteCount == 0 || (device_memory(p->dst) && device_memory(p->src)))
                return NULL;
        }
        return "a launcher may copy only from device memory to device memory";
    }
    if (listed(f, HOST_VISIBLE))
        return "the launcher made a driver call a launcher may not make: memory the host "
               "can reach";
    if (listed(f, NEW_CODE))
        return "the launcher made a driver call a launcher may not make: code loaded from "
               "memory";
    return NULL;
}

static void CUPTIAPI on_driver_call(void *userdata, CUpti_CallbackDomain domain,
                                    CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    const CUpti_CallbackData *cb = (const CUpti_CallbackData *)data;
    g_seen++;
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || cb->callbackSite != CUPTI_API_ENTER ||
        t_trusted > 0 || t_inside || !cb->functionName)
        return;
    t_inside = 1;
    const char *rule = judge(cbid, cb);
    t_inside = 0;
    if (!rule)
        return;
    fflush(stdout);
    fprintf(stderr,
            "CUDA error: cudaErrorNotPermitted: %s (%s, outside the runner's helpers: the "
            "work must be done on the GPU)\n",
            rule, cb->functionName);
    fflush(stderr);
    _exit(g_exit_code);
}

int sl_driver_watch_start(int exit_code, char *why, size_t n)
{
    g_exit_code = exit_code;
    CUptiResult r = cuptiSubscribe(&g_subscriber, on_driver_call, NULL);
    if (r == CUPTI_SUCCESS)
        r = cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    if (r != CUPTI_SUCCESS) {
        const char *text = NULL;
        cuptiGetResultString(r, &text);
        snprintf(why, n, "CUPTI: %s", text ? text : "unknown error");
        return -1;
    }
    g_watching = 1;
    return 0;
}
