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
static __thread int t_launching;      /* inside a launch: its module's lazy loading */
static volatile unsigned long g_seen; /* callbacks so far: the watch is alive */
static int g_watching;

unsigned long sl_driver_watch_seen(void) { return g_seen; }
int sl_driver_watch_on(void) { return g_watching; }

static int g_log_fd = -1;
void sl_driver_watch_set_log(int fd) { g_log_fd = fd; }

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
/* The runtime's names for the same (the static runtime may reach the driver
 * through entry points of its own, so its calls are judged too). */
static const char *const RT_HOST_VISIBLE[] = {
    "cudaMallocHost",    "cudaHostAlloc",   "cudaHostRegister",  "cudaHostGetDevicePointer",
    "cudaMallocManaged", "cudaMemPrefetch", "cudaMemPoolCreate", "cudaMemPoolImport",
    "cudaMemPoolExport", "cudaIpc",         "cudaGraphicsMap",   NULL};
static const char *const RT_NEW_CODE[] = {"cudaLibraryLoad", NULL};

static int listed(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (starts(name, list[i]))
            return 1;
    return 0;
}

static int device_memory(const void *p)
{
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeDevice;
}

/* The rule a call breaks, or NULL. cuMemcpy and cuMemcpyAsync take any
 * two addresses (unified addressing): both must be device memory. */
static const char *const COPY_RULE = "a launcher may copy only from device memory to device memory";
static const char *const HOST_RULE = "the launcher made a driver call a launcher may not make: "
                                     "memory the host can reach";
static const char *const CODE_RULE =
    "the launcher made a driver call a launcher may not make: code "
    "loaded from memory";

static const char *judge_driver(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
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
            if (p->ByteCount == 0 || (device_memory((const void *)(uintptr_t)p->dst) &&
                                      device_memory((const void *)(uintptr_t)p->src)))
                return NULL;
        }
        return COPY_RULE;
    }
    if (listed(f, HOST_VISIBLE))
        return HOST_RULE;
    /* a launch loads its kernel's module the first time (lazy loading):
     * that module was registered by the program, not loaded from memory */
    if (listed(f, NEW_CODE) && !t_launching)
        return CODE_RULE;
    return NULL;
}

/* cudaMemcpy and cudaMemcpyAsync between two device addresses only; every
 * other copy (2D, 3D, to or from a symbol, an array, a peer) is refused. */
static const char *judge_runtime(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    const char *f = cb->functionName;
    if (starts(f, "cudaMemcpy")) {
        if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020 ||
            cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020 ||
            cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000 ||
            cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000) {
            /* the four parameter structs begin with dst, src, count */
            const cudaMemcpy_v3020_params *p = (const cudaMemcpy_v3020_params *)cb->functionParams;
            if (p->count == 0 || (device_memory(p->dst) && device_memory(p->src)))
                return NULL;
        }
        return COPY_RULE;
    }
    if (listed(f, RT_HOST_VISIBLE))
        return HOST_RULE;
    if (listed(f, RT_NEW_CODE) && !t_launching)
        return CODE_RULE;
    return NULL;
}

static void CUPTIAPI on_driver_call(void *userdata, CUpti_CallbackDomain domain,
                                    CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    const CUpti_CallbackData *cb = (const CUpti_CallbackData *)data;
    g_seen++;
    if ((domain != CUPTI_CB_DOMAIN_DRIVER_API && domain != CUPTI_CB_DOMAIN_RUNTIME_API) ||
        !cb->functionName)
        return;
    if (starts(cb->functionName, "cuLaunch") || starts(cb->functionName, "cudaLaunch")) {
        t_launching += cb->callbackSite == CUPTI_API_ENTER ? 1 : -1;
        return;
    }
    if (cb->callbackSite != CUPTI_API_ENTER || t_trusted > 0 || t_inside)
        return;
    t_inside = 1;
    const char *rule =
        domain == CUPTI_CB_DOMAIN_DRIVER_API ? judge_driver(cbid, cb) : judge_runtime(cbid, cb);
    t_inside = 0;
    if (!rule)
        return;
    fflush(stdout);
    fflush(stderr);
    dprintf(g_log_fd >= 0 ? g_log_fd : STDERR_FILENO,
            "CUDA error: cudaErrorNotPermitted: %s (%s, outside the runner's helpers: the "
            "work must be done on the GPU)\n",
            rule, cb->functionName);
    _exit(g_exit_code);
}

int sl_driver_watch_start(int exit_code, char *why, size_t n)
{
    g_exit_code = exit_code;
    CUptiResult r = cuptiSubscribe(&g_subscriber, on_driver_call, NULL);
    if (r == CUPTI_SUCCESS)
        r = cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    /* the runtime's domain too where CUPTI offers it with the static runtime;
     * the driver's is the one that must be there */
    if (r == CUPTI_SUCCESS)
        cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
    if (r != CUPTI_SUCCESS) {
        const char *text = NULL;
        cuptiGetResultString(r, &text);
        snprintf(why, n, "CUPTI: %s", text ? text : "unknown error");
        return -1;
    }
    g_watching = 1;
    return 0;
}
