#include "memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"

enum { READ_MAX = 64 << 10 };

#define CGROUP_ROOT "/sys/fs/cgroup"
/* cgroup v1 writes "no limit" as the largest page-aligned number */
#define V1_NO_LIMIT (1LL << 60)

long long sl_memory_field(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, name, n) != 0 || (l[n] != ' ' && l[n] != '\t'))
            continue;
        char *end;
        long long v = strtoll(l + n, &end, 10);
        return end == l + n || v < 0 ? -1 : v;
    }
    return -1;
}

static long long field_of(const char *path, const char *name)
{
    char *text = sl_read_file(path, READ_MAX, NULL);
    long long v = text ? sl_memory_field(text, name) : -1;
    free(text);
    return v;
}

static long long number_in(const char *dir, const char *file)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *text = sl_read_file(path, 64, NULL);
    long long v = text && text[0] >= '0' && text[0] <= '9' ? strtoll(text, NULL, 10) : -1;
    free(text);
    return v;
}

/* The folder of this process's memory cgroup: cgroup v1's memory
 * controller ("N:...memory...:/path" in /proc/self/cgroup) or cgroup v2's
 * ("0::/path", where /sys/fs/cgroup is v2). 0 when there is none to read;
 * *root gets the folder the walk up ends at. */
static int own_cgroup(char *dir, size_t n, const char **root, int *v1)
{
    char *text = sl_read_file("/proc/self/cgroup", 8192, NULL);
    int ok = 0;
    for (char *l = text; l && *l && !ok;) {
        size_t len = strcspn(l, "\n");
        char *c1 = memchr(l, ':', len), *c2 = c1 ? memchr(c1 + 1, ':', len - (c1 + 1 - l)) : NULL;
        if (c2) {
            char ctl[256];
            snprintf(ctl, sizeof ctl, ",%.*s,", (int)(c2 - c1 - 1), c1 + 1);
            int path_len = (int)(len - (size_t)(c2 + 1 - l));
            if (strstr(ctl, ",memory,")) {
                *root = CGROUP_ROOT "/memory";
                *v1 = 1;
                ok = snprintf(dir, n, "%s%.*s", *root, path_len, c2 + 1) < (int)n;
            } else if (c2 == c1 + 1 && access(CGROUP_ROOT "/cgroup.controllers", F_OK) == 0) {
                *root = CGROUP_ROOT;
                *v1 = 0;
                ok = snprintf(dir, n, "%s%.*s", *root, path_len, c2 + 1) < (int)n;
            }
        }
        l += len + (l[len] == '\n');
    }
    free(text);
    size_t len = ok ? strlen(dir) : 0;
    if (len > 1 && dir[len - 1] == '/')
        dir[len - 1] = '\0';
    return ok;
}

long long sl_oom_kills(void)
{
    const char *test = getenv("SYNCLAB_OOM_KILLS_FILE");
    if (test && *test)
        return field_of(test, "oom_kill");
    char dir[4096], path[4200];
    const char *root;
    int v1;
    if (own_cgroup(dir, sizeof dir, &root, &v1)) {
        snprintf(path, sizeof path, "%s/%s", dir, v1 ? "memory.oom_control" : "memory.events");
        long long v = field_of(path, "oom_kill");
        if (v >= 0)
            return v;
    }
    return field_of("/proc/vmstat", "oom_kill");
}

/* Room left under one cgroup's limit, -1 when it has none. The page
 * cache it holds (a sweep's input files) is reclaimed before anything is
 * killed; tmpfs and shared memory (shmem) are not. */
static long long cgroup_room(const char *dir, int v1)
{
    long long limit = number_in(dir, v1 ? "memory.limit_in_bytes" : "memory.max");
    if (limit < 0 || (v1 && limit >= V1_NO_LIMIT))
        return -1; /* "max", or no memory controller here */
    long long used = number_in(dir, v1 ? "memory.usage_in_bytes" : "memory.current");
    char path[4200];
    snprintf(path, sizeof path, "%s/memory.stat", dir);
    char *stat = sl_read_file(path, READ_MAX, NULL);
    long long cache = stat ? sl_memory_field(stat, v1 ? "cache" : "file") : -1;
    long long shmem = stat ? sl_memory_field(stat, "shmem") : -1;
    free(stat);
    if (used > 0 && cache > 0 && cache <= used)
        used -= cache - (shmem > 0 && shmem <= cache ? shmem : 0);
    return used < limit ? limit - (used > 0 ? used : 0) : 0;
}

long long sl_memory_available(void)
{
    long long room = -1;
    char *info = sl_read_file("/proc/meminfo", READ_MAX, NULL);
    long long kb = info ? sl_memory_field(info, "MemAvailable:") : -1;
    free(info);
    if (kb >= 0)
        room = kb << 10;
    char dir[4096];
    const char *root;
    int v1;
    if (!own_cgroup(dir, sizeof dir, &root, &v1))
        return room;
    /* up to the root this process can see: a limit anywhere binds */
    for (;;) {
        long long r = cgroup_room(dir, v1);
        if (r >= 0 && (room < 0 || r < room))
            room = r;
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < strlen(root))
            break;
        *slash = '\0';
    }
    return room;
}
