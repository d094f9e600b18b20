// Lesson 5, worklist insertion: runner side. Reads a case, calls the
// student's host launcher with the case's block size, downloads the outputs.
// Never judges. The exercises and their inputs (suite.c writes them):
// exercises.h. Outputs:
//   worklist_insert: array 0 = total (I32, 1); array 1 = worklist (I32, 2 * capacity:
//     (t, k) pairs), capacity = sum + max(nelem) (at least 1), every pair
//     (-1, -1) unless written.
//   compact: array 0 = count (I32, 1); array 1 = out (I32, N), -1 unless written.
#include <stdio.h>
#include <cub/device/device_select.cuh>
#include "runner.h"
#include "worklist.h"
#include "exercises.h"

static int *scratch_for(int n)
{
    // Garbage (0xFF bytes) on purpose: a scan that reads a slot before
    // writing it gets -1, never a lucky zero.
    return (int *)sl_device_alloc(WORKLIST_SCRATCH_INTS(n) * sizeof(int), 0xFF);
}

static void run_worklist_insert(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];
    const int32_t *nelem = (const int32_t *)in->array[0].data;

    // Room for total + max(nelem) items: a worklist has spare room in real
    // code, and wrong (e.g. inclusive) offsets then show as a WRONG layout
    // rather than a crash. The check wants the spare room left untouched.
    uint64_t sum = 0, most = 0;
    for (int t = 0; t < n; t++) {
        sum += (uint64_t)nelem[t];
        if ((uint64_t)nelem[t] > most)
            most = (uint64_t)nelem[t];
    }
    uint64_t capacity = sum + most > 0 ? sum + most : 1;

    int *d_nelem = (int *)sl_to_device(&in->array[0]);
    int2 *d_worklist = (int2 *)sl_device_alloc(capacity * sizeof(int2), 0xFF);
    int *d_total = (int *)sl_device_alloc(sizeof(int), 0xFF);
    int *d_scratch = scratch_for(n);
    sl_dirty_shared();
    worklist_insert(d_nelem, n, d_worklist, d_total, d_scratch, block);
    sl_launched("worklist_insert");
    sl_download(out, SL_I32, 1, d_total);
    sl_download(out, SL_I32, 2 * capacity, d_worklist);
    sl_free(d_nelem);
    sl_free(d_worklist);
    sl_free(d_total);
    sl_free(d_scratch);
}

static void run_compact(const sl_case *in, sl_case *out)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];
    int threshold = (int)in->param[COMPACT_P_THRESHOLD];
    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc((size_t)n * sizeof(int), 0xFF);
    int *d_count = (int *)sl_device_alloc(sizeof(int), 0xFF);
    int *d_scratch = scratch_for(n);
    sl_dirty_shared();
    compact(d_in, n, threshold, d_out, d_count, d_scratch, block);
    sl_launched("compact");
    sl_download(out, SL_I32, 1, d_count);
    sl_download(out, SL_I32, (uint64_t)n, d_out);
    sl_free(d_in);
    sl_free(d_out);
    sl_free(d_count);
    sl_free(d_scratch);
}

// ---- bench: compact against cub::DeviceSelect::If ------------------------

struct keep_op {
    int threshold;
    __host__ __device__ bool operator()(int x) const { return compact_keep(x, threshold); }
};

// Values in [0, 2^30) from a hash of the index; the bench keeps about half.
__global__ void bench_fill(int *in, int n, uint64_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        uint64_t z = (uint64_t)i + seed * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        in[i] = (int)((z ^ (z >> 31)) & 0x3FFFFFFF);
    }
}

__global__ void bench_mismatches(const int *a, const int *b, int n, unsigned long long *bad)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        if (a[i] != b[i])
            atomicAdd(bad, 1ull);
}

struct compact_bench {
    int *in, *out, *count, *scratch, n, threshold;
    int *ref_out, *ref_count;
    void *temp;
    size_t temp_bytes;
};

static void bench_student(void *arg)
{
    compact_bench *b = (compact_bench *)arg;
    compact(b->in, b->n, b->threshold, b->out, b->count, b->scratch, 256);
}

static void bench_reference(void *arg)
{
    compact_bench *b = (compact_bench *)arg;
    SL_CHECK(cub::DeviceSelect::If(b->temp, b->temp_bytes, b->in, b->ref_out, b->ref_count, b->n,
                                   keep_op{b->threshold}));
}

static void bench_compact(int log2n, uint64_t seed, sl_bench *r)
{
    compact_bench b;
    b.n = 1 << log2n;
    b.threshold = 1 << 29;
    b.in = (int *)sl_device_alloc((size_t)b.n * sizeof(int), 0);
    b.out = (int *)sl_device_alloc((size_t)b.n * sizeof(int), 0xFF);
    b.ref_out = (int *)sl_device_alloc((size_t)b.n * sizeof(int), 0xFF);
    b.count = (int *)sl_device_alloc(sizeof(int), 0xFF);
    b.ref_count = (int *)sl_device_alloc(sizeof(int), 0xFF);
    b.scratch = scratch_for(b.n);
    bench_fill<<<1024, 256>>>(b.in, b.n, seed);
    sl_launched("bench_fill");
    b.temp = NULL;
    b.temp_bytes = 0;
    SL_CHECK(cub::DeviceSelect::If(b.temp, b.temp_bytes, b.in, b.ref_out, b.ref_count, b.n,
                                   keep_op{b.threshold}));
    b.temp = sl_device_alloc(b.temp_bytes ? b.temp_bytes : 1, 0);

    bench_student(&b); // warm-up: first-launch costs
    sl_launched("compact (warm-up)");
    bench_reference(&b);
    sl_launched("cub::DeviceSelect::If (warm-up)");
    r->student_ms = sl_time_best(bench_student, &b, 5);
    sl_launched("compact (bench)");
    r->reference_ms = sl_time_best(bench_reference, &b, 5);
    sl_launched("cub::DeviceSelect::If");

    int count = -1, ref_count = -2;
    sl_read_back(&count, b.count, sizeof count);
    sl_read_back(&ref_count, b.ref_count, sizeof ref_count);
    unsigned long long *d_bad = (unsigned long long *)sl_device_alloc(sizeof *d_bad, 0);
    unsigned long long bad = 1;
    if (count == ref_count) {
        bench_mismatches<<<1024, 256>>>(b.out, b.ref_out, count, d_bad);
        sl_launched("bench_mismatches");
        sl_read_back(&bad, d_bad, sizeof bad);
    }
    r->correct = count == ref_count && bad == 0;
    r->bytes = ((double)b.n + (double)(ref_count > 0 ? ref_count : 0)) * sizeof(int);
    snprintf(r->reference, sizeof r->reference, "cub::DeviceSelect::If");

    sl_free(d_bad);
    sl_free(b.temp);
    sl_free(b.in);
    sl_free(b.out);
    sl_free(b.ref_out);
    sl_free(b.count);
    sl_free(b.ref_count);
    sl_free(b.scratch);
}

SL_RUNNER_TABLE(SL_LESSON_EXERCISES)
