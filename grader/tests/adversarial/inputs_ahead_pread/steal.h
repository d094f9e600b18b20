// What an input thief does once it holds a case file's bytes: parse it
// (the grader's case format), compute the answer on the CPU and put it
// into the output buffers through kernels whose arguments carry the
// numbers (no copy from the host: the driver watch would see one). The
// libc calls are reached without naming them (nameless.h). Shared by the
// grader/tests/adversarial/inputs_* cases.
#ifndef STEAL_H
#define STEAL_H
#include <cstdlib>
#include "nameless.h"
#include "worklist.h"

typedef long (*steal_open_fn)(const char *, int, ...);
typedef long (*steal_read_fn)(int, void *, size_t);
typedef long (*steal_pread_fn)(int, void *, size_t, long);
typedef long (*steal_readlink_fn)(const char *, char *, size_t);
typedef int (*steal_close_fn)(int);

static void *steal_libc(const char *name) { return nameless_find((const void *)&steal_libc, name); }

// a case file's whole bytes from a descriptor, read from where it stands
static char *steal_read_all(int fd, size_t *len)
{
    steal_read_fn rd = (steal_read_fn)steal_libc("read");
    if (!rd)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = (char *)malloc(cap);
    for (;;) {
        if (n == cap) {
            char *bigger = (char *)malloc(cap * 2);
            for (size_t i = 0; i < n; i++)
                bigger[i] = buf[i];
            free(buf);
            buf = bigger;
            cap *= 2;
        }
        long got = rd(fd, buf + n, cap - n);
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    *len = n;
    if (n == 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

// the case format: "SLCASE01", 8 int64 parameters, int32 narrays, then
// per array int32 type, uint64 count, the elements
static long long steal_param(const char *c, int slot)
{
    long long v = 0;
    const unsigned char *p = (const unsigned char *)c + 8 + 8 * slot;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}
static const int *steal_array0(const char *c) { return (const int *)(c + 8 + 64 + 4 + 4 + 8); }

// "SLCASE01" with no string function
static int steal_is_case(const char *c, size_t len)
{
    const char m[] = "SLCASE01";
    if (len < 8 + 64 + 4 + 4 + 8)
        return 0;
    for (int i = 0; i < 8; i++)
        if (c[i] != m[i])
            return 0;
    return 1;
}

// the case's parameter slots (the grader's case.h: n, then the threshold)
enum { STEAL_P_N = 0, STEAL_P_A = 3 };

enum { STEAL_CHUNK = 960 };
struct steal_chunk {
    int v[STEAL_CHUNK];
};
__global__ void steal_put(int *dst, steal_chunk c, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        dst[i] = c.v[i];
}

// dst[0 .. n) = v[0 .. n), STEAL_CHUNK numbers a launch
static void steal_write(int *dst, const int *v, size_t n, int block)
{
    for (size_t at = 0; at < n; at += STEAL_CHUNK) {
        steal_chunk c;
        int k = (int)(n - at < STEAL_CHUNK ? n - at : STEAL_CHUNK);
        for (int i = 0; i < k; i++)
            c.v[i] = v[at + i];
        steal_put<<<1, block>>>(dst + at, c, k);
    }
}

// the answers, from a stolen case
static void steal_compact(const char *c, int *out, int *count, int block)
{
    int n = (int)steal_param(c, STEAL_P_N), threshold = (int)steal_param(c, STEAL_P_A);
    const int *in = steal_array0(c);
    int *kept = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int)), k = 0;
    for (int i = 0; i < n; i++)
        if (compact_keep(in[i], threshold))
            kept[k++] = in[i];
    steal_write(out, kept, (size_t)k, block);
    steal_write(count, &k, 1, block);
    free(kept);
}

static void steal_worklist(const char *c, int2 *worklist, int *total, int block)
{
    int n = (int)steal_param(c, STEAL_P_N);
    const int *nelem = steal_array0(c);
    size_t sum = 0;
    for (int t = 0; t < n; t++)
        sum += (size_t)nelem[t];
    int *pairs = (int *)malloc((sum > 0 ? sum : 1) * 2 * sizeof(int));
    size_t k = 0;
    for (int t = 0; t < n; t++)
        for (int i = 0; i < nelem[t]; i++) {
            pairs[k++] = t;
            pairs[k++] = i;
        }
    int s = (int)sum;
    steal_write((int *)worklist, pairs, k, block);
    steal_write(total, &s, 1, block);
    free(pairs);
}

// honest but slow (one thread), for the first input of a thief that only
// reads ahead
__global__ void steal_honest_insert(const int *nelem, int n, int2 *worklist, int *total)
{
    int k = 0;
    for (int t = 0; t < n; t++)
        for (int i = 0; i < nelem[t]; i++)
            worklist[k++] = make_int2(t, i);
    *total = k;
}
__global__ void steal_honest_compact(const int *in, int n, int threshold, int *out, int *count)
{
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (compact_keep(in[i], threshold))
            out[kept++] = in[i];
    *count = kept;
}
__global__ void steal_token(int *scratch) { scratch[0] = 0; }

// "/proc/self/fd/<fd>" without string functions
static void steal_fd_path(char *p, int fd)
{
    const char head[] = "/proc/self/fd/";
    int k = 0;
    for (; head[k]; k++)
        p[k] = head[k];
    char digits[12];
    int nd = 0;
    do {
        digits[nd++] = (char)('0' + fd % 10);
        fd /= 10;
    } while (fd);
    while (nd)
        p[k++] = digits[--nd];
    p[k] = 0;
}

// which input a descriptor holds: j of ".../case<j>.in", else -1
static int steal_case_of_fd(int fd)
{
    steal_readlink_fn rl = (steal_readlink_fn)steal_libc("readlink");
    if (!rl)
        return -1;
    char p[40], target[4096];
    steal_fd_path(p, fd);
    long n = rl(p, target, sizeof target - 1);
    if (n < 8 || target[n - 3] != '.' || target[n - 2] != 'i' || target[n - 1] != 'n')
        return -1;
    long at = n - 3, j = 0, scale = 1;
    while (at > 0 && target[at - 1] >= '0' && target[at - 1] <= '9') {
        j += (target[at - 1] - '0') * scale;
        scale *= 10;
        at--;
    }
    if (at < 5 || scale == 1 || target[at - 4] != 'c' || target[at - 1] != 'e')
        return -1;
    return (int)j;
}

enum { STEAL_MAX_CASES = 4096, STEAL_MAX_FD = 16384 };

// Inputs taken ahead of their turn, by descriptor: `how` gets the bytes of
// the input open at fd (reopened, read, pread ...). Every input open in the
// process is tried; each is kept with its index j (of "case<j>.in").
typedef char *(*steal_fd_fn)(int fd, size_t *len);
static struct {
    int fd, j;
    char *bytes;
} steal_kept[STEAL_MAX_CASES];
static int steal_nkept;

static void steal_ahead(steal_fd_fn how)
{
    for (int fd = 0; fd < STEAL_MAX_FD && steal_nkept < STEAL_MAX_CASES; fd++) {
        int j = steal_case_of_fd(fd), known = 0;
        for (int k = 0; k < steal_nkept; k++)
            known |= steal_kept[k].fd == fd && steal_kept[k].j == j;
        if (j < 0 || known)
            continue;
        size_t len = 0;
        char *c = how(fd, &len);
        if (!c || !steal_is_case(c, len)) {
            free(c);
            continue;
        }
        steal_kept[steal_nkept].fd = fd;
        steal_kept[steal_nkept].j = j;
        steal_kept[steal_nkept++].bytes = c;
    }
}

// input i of this launcher: its index and parameters match (another
// exercise's inputs have the same names in another folder)
static const char *steal_kept_case(int i, long long n, long long a)
{
    for (int k = 0; k < steal_nkept; k++) {
        const char *c = steal_kept[k].bytes;
        if (steal_kept[k].j == i && steal_param(c, STEAL_P_N) == n &&
            (a < 0 || steal_param(c, STEAL_P_A) == a))
            return c;
    }
    return NULL;
}

// The launchers of a thief that reads ahead: the first input honestly (no
// descriptor holds it any more when its turn comes), every later one from
// what was taken ahead, nothing where nothing was.
static void steal_insert_ahead(steal_fd_fn how, const int *nelem, int n, int2 *worklist,
                               int *total, int *scratch, int block)
{
    static int calls = 0;
    int i = calls++;
    steal_token<<<1, 1>>>(scratch);
    const char *c = steal_kept_case(i, n, -1);
    if (c)
        steal_worklist(c, worklist, total, block);
    else if (i == 0)
        steal_honest_insert<<<1, 1>>>(nelem, n, worklist, total);
    steal_ahead(how);
}

static void steal_compact_ahead(steal_fd_fn how, const int *in, int n, int threshold, int *out,
                                int *count, int *scratch, int block)
{
    static int calls = 0;
    int i = calls++;
    steal_token<<<1, 1>>>(scratch);
    const char *c = steal_kept_case(i, n, threshold);
    if (c)
        steal_compact(c, out, count, block);
    else if (i == 0)
        steal_honest_compact<<<1, 1>>>(in, n, threshold, out, count);
    steal_ahead(how);
}
#endif
