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

int sl_case_read(const char *path, sl_case *c, uint64_t max_bytes, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    FILE *f = sl_case_open(path, err, errlen);
    if (!f)
        return -1;
    /* no stdio buffer: in the runner it would keep a copy of the input's
     * last bytes in freed memory that student code can scan */
    setvbuf(f, NULL, _IONBF, 0);
    char magic[sizeof MAGIC];
    uint64_t total = 0;
    if (fread(magic, sizeof magic, 1, f) != 1 || memcmp(magic, MAGIC, sizeof MAGIC) != 0 ||
        fread(c->param, sizeof c->param, 1, f) != 1 ||
        fread(&c->narrays, sizeof c->narrays, 1, f) != 1 || c->narrays < 0 ||
        c->narrays > SL_MAX_ARRAYS) {
        fclose(f);
        c->narrays = 0;
        return fail(err, errlen, "malformed output file (bad header)");
    }
    int n = c->narrays;
    c->narrays = 0;
    for (int i = 0; i < n; i++) {
        int32_t type;
        uint64_t count;
        if (fread(&type, sizeof type, 1, f) != 1 || fread(&count, sizeof count, 1, f) != 1 ||
            sl_elem_size(type) == 0) {
            fclose(f);
            sl_case_free(c);
            return fail(err, errlen, "malformed output file (array %d header)", i);
        }
        uint64_t bytes = count * sl_elem_size(type);
        total += bytes;
        if (count > max_bytes || total > max_bytes) {
            fclose(f);
            sl_case_free(c);
            return fail(err, errlen, "output file larger than allowed (%llu bytes)",
                        (unsigned long long)max_bytes);
        }
        void *data = sl_case_add(c, type, count);
        if (!data || (bytes && fread(data, (size_t)bytes, 1, f) != 1)) {
            fclose(f);
            sl_case_free(c);
            return fail(err, errlen, "malformed output file (array %d truncated)", i);
        }
    }
    fclose(f);
    return 0;
}
