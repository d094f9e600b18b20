#include "gpus.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_arch.h"
#include "gpu_turn.h"

/* The one nvidia-smi question of this process (gpu_arch.h), with its time
 * limit: a `nvidia-smi -L` of its own would wait as long as a stuck driver
 * makes it. */
static int count_nvidia_smi(void) { return sl_gpu_caps_listed()->count; }

static int count_proc_gpus(void)
{
    DIR *d = opendir("/proc/driver/nvidia/gpus");
    if (!d)
        return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

int sl_gpus_count(void)
{
    int n = count_nvidia_smi();
    if (n <= 0)
        n = count_proc_gpus();
    return n > 0 ? (n > SL_MAX_GPUS ? SL_MAX_GPUS : n) : 1;
}

/* Splits a comma-separated list into g; -1 on an empty or too long id. */
static int add_list(const char *list, sl_gpus *g)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len > 0) {
            if (len >= SL_GPU_ID || g->count == SL_MAX_GPUS)
                return -1;
            snprintf(g->id[g->count++], SL_GPU_ID, "%.*s", (int)len, p);
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

/* Every GPU this process may use. */
static void all_gpus(sl_gpus *g)
{
    g->count = 0;
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (visible && *visible && add_list(visible, g) == 0 && g->count > 0)
        return;
    g->count = 0;
    int n = sl_gpus_count();
    for (int i = 0; i < n; i++)
        snprintf(g->id[g->count++], SL_GPU_ID, "%d", i);
}

int sl_gpus_parse(const char *spec, sl_gpus *g)
{
    memset(g, 0, sizeof *g);
    if (strcmp(spec, "all") == 0) {
        all_gpus(g);
        return 0;
    }
    if (strchr(spec, ',')) {
        if (add_list(spec, g) == 0 && g->count > 0)
            return 0;
        fprintf(stderr, "syncgrade: --gpus %s: a list of GPU ids like 0,2 is wanted\n", spec);
        return -1;
    }
    char *end;
    errno = 0;
    long n = strtol(spec, &end, 10);
    if (errno || end == spec || *end || n < 1) {
        fprintf(stderr, "syncgrade: --gpus wants all, a count or a list like 0,2; not '%s'\n",
                spec);
        return -1;
    }
    all_gpus(g);
    if (n > g->count) {
        fprintf(stderr, "syncgrade: --gpus %ld: this machine shows %d GPU%s\n", n, g->count,
                g->count == 1 ? "" : "s");
        return -1;
    }
    g->count = (int)n;
    return 0;
}

void sl_gpus_enter(const sl_gpus *g, int which)
{
    if (!g || g->count <= 0)
        return;
    setenv("CUDA_VISIBLE_DEVICES", g->id[which], 1);
    /* Without SYNCLAB_GPU_LOCK the default lock names the GPU just made
     * visible (gpu_turn.c), as it does for any other grader on it. A
     * caller's own lock family (a bench, a test) gets one per GPU id. */
    const char *own = getenv("SYNCLAB_GPU_LOCK");
    if (!own || !*own)
        return;
    char mine[4200];
    int len = snprintf(mine, sizeof mine, "%s-gpu-", own);
    if (len < 0 || (size_t)len >= sizeof mine)
        return;
    snprintf(mine + len, sizeof mine - (size_t)len, "%s", g->id[which]);
    sl_gpu_file_name(mine + len);
    setenv("SYNCLAB_GPU_LOCK", mine, 1);
}
