#include "case.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Layout: magic, params, narrays, then per array: type, count, bytes.
 * Little-endian host order: both ends run on the same machine. */
static const char MAGIC[8] = {'S', 'L', 'C', 'A', 'S', 'E', '0', '1'};

size_t sl_elem_size(int type)
{
    switch (type) {
    case SL_I32:
    case SL_U32:
    case SL_F32: return 4;
    case SL_F64:
    case SL_I64: return 8;
    default: return 0;
    }
}

void *sl_case_add(sl_case *c, int type, uint64_t count)
{
    size_t es = sl_elem_size(type);
    if (c->narrays >= SL_MAX_ARRAYS || es == 0)
        return NULL;
    void *data = calloc(count ? count : 1, es);
    if (!data)
        return NULL;
    sl_array *a = &c->array[c->narrays++];
    a->type = type;
    a->count = count;
    a->data = data;
    return data;
}

void sl_case_free(sl_case *c)
{
    for (int i = 0; i < c->narrays; i++)
        free(c->array[i].data);
    memset(c, 0, sizeof *c);
}

int sl_case_write(const char *path, const sl_case *c)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    return sl_case_write_file(f, c);
}

int sl_case_write_file(FILE *f, const sl_case *c)
{
    int ok = fwrite(MAGIC, sizeof MAGIC, 1, f) == 1 &&
             fwrite(c->param, sizeof c->param, 1, f) == 1 &&
             fwrite(&c->narrays, sizeof c->narrays, 1, f) == 1;
    for (int i = 0; ok && i < c->narrays; i++) {
        const sl_array *a = &c->array[i];
        size_t bytes = (size_t)a->count * sl_elem_size(a->type);
        ok = fwrite(&a->type, sizeof a->type, 1, f) == 1 &&
             fwrite(&a->count, sizeof a->count, 1, f) == 1 &&
             (bytes == 0 || fwrite(a->data, bytes, 1, f) == 1);
    }
    if (fclose(f) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

FILE *sl_case_open(const char *path, char *err, size_t errlen)
{
    /* The runner's side of the wall writes these: a FIFO would block an
     * open or read for good, a link would lead elsewhere. Opened without
     * following a link and without waiting, then kept only if plain. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (errno == ELOOP)
            fail(err, errlen, "the output file is a symbolic link");
        else
            fail(err, errlen, "no output file (%s)", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        fail(err, errlen, "the output file is not a regular file (a FIFO, device or folder)");
        return NULL;
    }
    /* reads of a regular file never wait; a plain descriptor from here */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        fail(err, errlen, "cannot read the output file (%s)", strerror(errno));
    }
    return f;
}

/* Reads n bytes or fails (end of file, error); *consumed counts what was read. */
static int read_exact(int fd, void *dst, uint64_t n, uint64_t *consumed)
{
    char *p = (char *)dst;
    while (n > 0) {
        size_t chunk = n > ((size_t)1 << 30) ? ((size_t)1 << 30) : (size_t)n;
        ssize_t got = read(fd, p, chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        n -= (uint64_t)got;
        *consumed += (uint64_t)got;
    }
    return 0;
}

int sl_case_read_fd(int fd, sl_case *c, uint64_t max_bytes, uint64_t *consumed, char *err,
                    size_t errlen)
{
    /* read(2) itself, no stdio buffer: in the runner one would keep a copy
     * of the input's last bytes in freed memory that student code can scan */
    memset(c, 0, sizeof *c);
    *consumed = 0;
    char magic[sizeof MAGIC];
    int32_t narrays = 0;
    if (read_exact(fd, magic, sizeof magic, consumed) != 0 ||
        memcmp(magic, MAGIC, sizeof MAGIC) != 0 ||
        read_exact(fd, c->param, sizeof c->param, consumed) != 0 ||
        read_exact(fd, &narrays, sizeof narrays, consumed) != 0 || narrays < 0 ||
        narrays > SL_MAX_ARRAYS)
        return fail(err, errlen, "malformed output file (bad header)");
    uint64_t total = 0;
    for (int i = 0; i < narrays; i++) {
        int32_t type;
        uint64_t count;
        if (read_exact(fd, &type, sizeof type, consumed) != 0 ||
            read_exact(fd, &count, sizeof count, consumed) != 0 || sl_elem_size(type) == 0) {
            sl_case_free(c);
            return fail(err, errlen, "malformed output file (array %d header)", i);
        }
        uint64_t bytes = count * sl_elem_size(type);
        total += bytes;
        if (count > max_bytes || total > max_bytes) {
            sl_case_free(c);
            return fail(err, errlen, "output file larger than allowed (%llu bytes)",
                        (unsigned long long)max_bytes);
        }
        void *data = sl_case_add(c, type, count);
        if (!data || (bytes && read_exact(fd, data, bytes, consumed) != 0)) {
            sl_case_free(c);
            return fail(err, errlen, "malformed output file (array %d truncated)", i);
        }
    }
    return 0;
}

int sl_case_read(const char *path, sl_case *c, uint64_t max_bytes, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    FILE *f = sl_case_open(path, err, errlen);
    if (!f)
        return -1;
    uint64_t consumed = 0;
    int rc = sl_case_read_fd(fileno(f), c, max_bytes, &consumed, err, errlen);
    fclose(f);
    return rc;
}
