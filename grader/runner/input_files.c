/* The run's input files as descriptors opened before the wall
 * (input_files.h). */
#define _GNU_SOURCE
#include "input_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* The smallest power of two >= SL_INPUT_FD_MIN_BASE that leaves room below
 * for the process's other descriptors (stdio, the grader's, the outputs,
 * CUDA's few) and is at least count (the block [base, 2 base) holds them
 * all). */
static int block_base(int count, int others)
{
    long need = (long)others + 256;
    if (need < count)
        need = count;
    long base = SL_INPUT_FD_MIN_BASE;
    while (base < need)
        base *= 2;
    return (int)base;
}

static int room_for(long top, char *why, size_t n)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0) {
        snprintf(why, n, "getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
        return -1;
    }
    if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur >= (rlim_t)top)
        return 0;
    if (r.rlim_cur == RLIM_INFINITY)
        return 0;
    if (r.rlim_max != RLIM_INFINITY && r.rlim_max < (rlim_t)top) {
        snprintf(why, n,
                 "the inputs need descriptors up to %ld, and RLIMIT_NOFILE's hard limit is %llu: "
                 "raise it (ulimit -Hn) or grade fewer inputs per runner",
                 top, (unsigned long long)r.rlim_max);
        return -1;
    }
    r.rlim_cur = (rlim_t)top;
    if (setrlimit(RLIMIT_NOFILE, &r) != 0) {
        snprintf(why, n, "setrlimit(RLIMIT_NOFILE, %ld): %s", top, strerror(errno));
        return -1;
    }
    return 0;
}

int sl_input_files_room(int count, int others, char *why, size_t n)
{
    return room_for((long)block_base(count, others) + count, why, n);
}

int sl_input_files_open(sl_input_files *in, const char *const *paths, int count, int others,
                        char *why, size_t n)
{
    memset(in, 0, sizeof *in);
    in->base = block_base(count, others);
    in->count = count;
    in->file = (sl_input_file *)calloc((size_t)count + 1, sizeof *in->file);
    if (!in->file || sl_input_files_room(count, others, why, n) != 0)
        return -1;
    for (int i = 0; i < count; i++)
        in->file[i].fd = -1;
    for (int i = 0; i < count; i++) {
        int fd = open(paths[i], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            snprintf(why, n, "%s: %s", paths[i], fd < 0 ? strerror(errno) : "not a regular file");
            if (fd >= 0)
                close(fd);
            return -1;
        }
        int at = in->base + i;
        if (dup3(fd, at, O_CLOEXEC) != at) {
            snprintf(why, n, "%s: cannot move it to descriptor %d: %s", paths[i], at,
                     strerror(errno));
            close(fd);
            return -1;
        }
        close(fd);
        /* reads of a regular file never wait */
        fcntl(at, F_SETFL, fcntl(at, F_GETFL) & ~O_NONBLOCK);
        in->file[i].fd = at;
        in->file[i].dev = st.st_dev;
        in->file[i].ino = st.st_ino;
        in->file[i].size = st.st_size;
    }
    return 0;
}

int sl_input_files_take(sl_input_files *in, int i, sl_case *c, uint64_t max_bytes, char *why,
                        size_t n)
{
    memset(c, 0, sizeof *c);
    if (i < 0 || i >= in->count || in->file[i].fd < 0) {
        snprintf(why, n, "input %d was taken already (runner bug)", i);
        return SL_INPUT_BAD;
    }
    sl_input_file *f = &in->file[i];
    int fd = f->fd;
    f->fd = -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_dev != f->dev || st.st_ino != f->ino) {
        snprintf(why, n, "input %d's descriptor was closed or replaced before its turn", i);
        return SL_INPUT_TAMPERED;
    }
    off_t at = lseek(fd, 0, SEEK_CUR);
    if (at != 0) {
        snprintf(why, n, "input %d was read before its turn (its descriptor stood at %lld)", i,
                 (long long)at);
        close(fd);
        return SL_INPUT_TAMPERED;
    }
    /* another reader moves the same offset (there is no way back: the wall
     * refuses lseek but to ask, and pread): then it stands past what this
     * call read */
    uint64_t consumed = 0;
    char err[256];
    int rc = sl_case_read_fd(fd, c, max_bytes, &consumed, err, sizeof err);
    off_t end = lseek(fd, 0, SEEK_CUR);
    close(fd);
    if (end != (off_t)consumed) {
        sl_case_free(c);
        snprintf(why, n,
                 "input %d was read by other code while the runner read it (%llu of %lld bytes "
                 "read here, the descriptor at %lld)",
                 i, (unsigned long long)consumed, (long long)f->size, (long long)end);
        return SL_INPUT_TAMPERED;
    }
    if (rc != 0) {
        snprintf(why, n, "%s", err);
        return SL_INPUT_BAD;
    }
    if (end != f->size) {
        sl_case_free(c);
        snprintf(why, n, "input %d: %lld bytes after its case", i, (long long)(f->size - end));
        return SL_INPUT_BAD;
    }
    return SL_INPUT_OK;
}

void sl_input_files_close(sl_input_files *in)
{
    for (int i = 0; in->file && i < in->count; i++)
        if (in->file[i].fd >= 0)
            close(in->file[i].fd);
    free(in->file);
    memset(in, 0, sizeof *in);
}
