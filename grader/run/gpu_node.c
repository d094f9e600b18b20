#include "gpu_node.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"

enum { MAX_NODES = 64 };

typedef struct {
    char bus[32]; /* the folder's name: "0000:18:00.0" */
    char model[128];
    sl_gpu_node node;
} gpu_info;

/* "Key:   value" of the driver's information file, trimmed; 0 when absent. */
static int field(const char *text, const char *key, char *out, size_t n)
{
    size_t klen = strlen(key);
    for (const char *line = text; line && *line;) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            const char *v = line + klen + 1;
            v += strspn(v, " \t");
            size_t len = strcspn(v, "\n");
            while (len > 0 && isspace((unsigned char)v[len - 1]))
                len--;
            snprintf(out, n, "%.*s", (int)len, v);
            return 1;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return 0;
}

static int by_bus(const void *a, const void *b)
{
    return strcmp(((const gpu_info *)a)->bus, ((const gpu_info *)b)->bus);
}

/* The GPUs under root in PCI bus order, excluded ones left out; -1 when
 * one cannot be read whole. */
static int read_gpus(const char *root, gpu_info *g, int max)
{
    DIR *d = opendir(root);
    if (!d)
        return -1;
    int n = 0, bad = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && !bad;) {
        if (e->d_name[0] == '.')
            continue;
        if (n == max || strlen(e->d_name) >= sizeof g[n].bus) {
            bad = 1;
            break;
        }
        char path[4096], minor[32], excluded[32] = "No";
        snprintf(path, sizeof path, "%s/%s/information", root, e->d_name);
        char *text = sl_read_file(path, 1 << 16, NULL);
        gpu_info *x = &g[n];
        memset(x, 0, sizeof *x);
        snprintf(x->bus, sizeof x->bus, "%s", e->d_name);
        if (text)
            field(text, "GPU Excluded", excluded, sizeof excluded);
        if (text && strcmp(excluded, "Yes") == 0) {
            free(text); /* no CUDA device, whatever else it says */
            continue;
        }
        char *end = NULL;
        if (!text || !field(text, "Device Minor", minor, sizeof minor) ||
            !field(text, "GPU UUID", x->node.uuid, sizeof x->node.uuid) ||
            !field(text, "Model", x->model, sizeof x->model))
            bad = 1;
        else {
            long m = strtol(minor, &end, 10);
            bad = end == minor || *end || m < 0 || m > 255;
            x->node.minor = (int)m;
        }
        if (!bad && strncmp(x->node.uuid, "GPU-", 4) != 0)
            bad = 1; /* "N/A" (a GPU the driver has not read yet), anything else */
        free(text);
        if (!bad)
            n++;
    }
    closedir(d);
    if (bad)
        return -1;
    qsort(g, (size_t)n, sizeof *g, by_bus);
    return n;
}

/* Whether this process may open the GPU's node: what CUDA asks. Asked
 * once per node for the process tree (a class asks before its students
 * fork, sl_gpu_node_learn): opening the node of an idle GPU without
 * persistence mode sets that GPU up, and closing it tears it down. */
static struct {
    char dev[4096];
    signed char opens[256]; /* 0 unknown, 1 opens, -1 does not */
} g_seen;

static int opens(const char *dev, int minor)
{
    if (strcmp(g_seen.dev, dev) != 0) {
        memset(&g_seen, 0, sizeof g_seen);
        snprintf(g_seen.dev, sizeof g_seen.dev, "%s", dev);
    }
    if (g_seen.opens[minor & 255])
        return g_seen.opens[minor & 255] > 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/nvidia%d", dev, minor);
    int fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);
    if (fd >= 0)
        close(fd);
    g_seen.opens[minor & 255] = fd >= 0 ? 1 : -1;
    return fd >= 0;
}

void sl_gpu_node_learn(const char *root, const char *dev)
{
    sl_gpu_node unused;
    sl_gpu_node_pick(root, dev, NULL, 0, &unused);
}

int sl_gpu_node_pick(const char *root, const char *dev, const char *visible, int pci_order,
                     sl_gpu_node *out)
{
    static gpu_info g[MAX_NODES];
    int n = read_gpus(root, g, MAX_NODES);
    if (n < 2)
        return 0;     /* nothing to hide, or nothing known */
    int all_open = 1; /* every node asked: sl_gpu_node_learn keeps every answer */
    for (int i = 0; i < n; i++)
        all_open &= opens(dev, g[i].node.minor);
    char first[96] = "0";
    if (visible) {
        const char *v = visible + strspn(visible, " ");
        size_t len = strcspn(v, ",");
        while (len > 0 && v[len - 1] == ' ')
            len--;
        if (len == 0 || len >= sizeof first)
            return 0;
        snprintf(first, sizeof first, "%.*s", (int)len, v);
    }
    int at = -1;
    if (strncmp(first, "GPU-", 4) == 0) {
        /* a uuid, or a prefix of one that must name a single GPU */
        for (int i = 0; i < n; i++)
            if (strncmp(g[i].node.uuid, first, strlen(first)) == 0) {
                if (at >= 0)
                    return 0;
                at = i;
            }
    } else if (isdigit((unsigned char)first[0])) {
        char *end = NULL;
        long i = strtol(first, &end, 10);
        if (*end || i >= n || !all_open)
            return 0;
        for (int k = 1; k < n && !pci_order; k++)
            if (strcmp(g[k].model, g[0].model) != 0)
                return 0; /* fastest first may not be PCI order */
        at = (int)i;
    }
    if (at < 0 || (!all_open && !opens(dev, g[at].node.minor)))
        return 0; /* MIG-..., a name of no GPU, a GPU this process may not use */
    *out = g[at].node;
    return 1;
}

int sl_gpu_node_keep(const char *path, const sl_gpu_node *pick)
{
    const char *base = "/dev/nvidia";
    size_t blen = strlen(base);
    if (strncmp(path, base, blen) != 0 || !isdigit((unsigned char)path[blen]))
        return 1; /* nvidiactl, nvidia-uvm, nvidia-caps, nvswitch ...: everyone's */
    char *end = NULL;
    long m = strtol(path + blen, &end, 10);
    if (*end)
        return 1;
    return m == pick->minor;
}
