// Lesson 4, scan: runner side. Reads a case, launches the student's kernel
// (or calls the student's launcher), downloads the outputs. Never judges.
// The exercises and the case layout (suite.c writes it): exercises.h.
#include <climits>
#include <cstdio>
#include <cub/cub.cuh>
#include "runner.h"
#include "scan.h"
#include "exercises.h"

// ---- block scans ----------------------------------------------------------

typedef void (*block_scan_kernel)(const int *, int *, int);

static void run_block_scan(const sl_case *in, sl_case *out, block_scan_kernel kernel,
                           const char *name)
{
    int n = (int)in->param[SL_P_N];
    int block = (int)in->param[SL_P_BLOCK];
    int grid = (int)in->param[SL_P_GRID];
    if (grid <= 0)
        grid = (n + block - 1) / block;
    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc((size_t)n * sizeof(int), 0xFF);
    sl_dirty_shared(); // a shared slot read before it was written gives garbage
    kernel<<<grid, block, SCAN_BLOCK_SHARED_BYTES(block)>>>(d_in, d_out, n);
    sl_launched(name);
    sl_download(out, SL_I32, (uint64_t)n, d_out);
    sl_free(d_in);
    sl_free(d_out);
}

static void run_block_inclusive_scan(const sl_case *in, sl_case *out)
{
    run_block_scan(in, out, block_inclusive_scan, "block_inclusive_scan");
}

static void run_block_exclusive_scan(const sl_case *in, sl_case *out)
{
    run_block_scan(in, out, block_exclusive_scan, "block_exclusive_scan");
}

// ---- scan_any_n -------------------------------------------------------------

static void run_scan_any_n(const sl_case *in, sl_case *out)
{
    long long n = (long long)in->param[SL_P_N];
    int calls = in->param[SCAN_ANY_N_P_CALLS] > 0 ? (int)in->param[SCAN_ANY_N_P_CALLS] : 1;
    size_t bytes = (size_t)n * sizeof(int);
    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc(bytes, 0xFF);
    size_t scratch_bytes = scan_scratch_bytes(n);
    // Garbage on entry, and NOT reset between calls: a launcher that relies
    // on zeroed scratch, or on what its last call left there, fails here.
    void *d_scratch = scratch_bytes ? sl_device_alloc(scratch_bytes, 0xFF) : NULL;
    for (int c = 0; c < calls; c++) {
        // Fresh garbage in the output, so each call must write all of it.
        SL_CHECK(cudaMemset(d_out, 0xFF, bytes));
        sl_dirty_shared();
        scan_exclusive_int(d_in, d_out, n, d_scratch);
        sl_launched("scan_exclusive_int");
    }
    sl_download(out, SL_I32, (uint64_t)n, d_out);
    sl_free(d_in);
    sl_free(d_out);
    if (d_scratch)
        sl_free(d_scratch);
}

// ---- scan_any_n bench ---------------------------------------------------------

// Full-range pseudo-random ints (sums wrap), made on the device: no 1 GB
// upload, and never all zeros.
__global__ void bench_fill(int *a, long long n, uint64_t seed)
{
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint64_t z = seed + 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1); // splitmix64
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        a[i] = (int)(uint32_t)(z ^ (z >> 31));
    }
}

__global__ void bench_count_mismatches(const int *a, const int *b, long long n,
                                       unsigned long long *mismatches)
{
    long long stride = (long long)gridDim.x * blockDim.x;
    unsigned long long mine = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        mine += a[i] != b[i];
    if (mine)
        atomicAdd(mismatches, mine);
}

struct student_call {
    const int *in;
    int *out;
    long long n;
    void *scratch;
};

static void call_student(void *p)
{
    student_call *a = (student_call *)p;
    scan_exclusive_int(a->in, a->out, a->n, a->scratch);
}

struct cub_call {
    const int *in;
    int *out;
    long long n;
    void *temp;
    size_t temp_bytes;
};

// 32-bit item counts when they fit: CUB's fastest path, a fair reference.
static cudaError_t cub_exclusive_sum(void *temp, size_t &temp_bytes, const int *in, int *out,
                                     long long n)
{
    if (n <= INT_MAX)
        return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, (int)n);
    return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, n);
}

static void call_cub(void *p)
{
    cub_call *a = (cub_call *)p;
    SL_CHECK(cub_exclusive_sum(a->temp, a->temp_bytes, a->in, a->out, a->n));
}

static void bench_scan_any_n(int log2n, uint64_t seed, sl_bench *b)
{
    long long n = 1LL << log2n;
    size_t bytes = (size_t)n * sizeof(int);
    int *d_in = (int *)sl_device_alloc(bytes, 0);
    int *d_student = (int *)sl_device_alloc(bytes, 0xFF);
    int *d_cub = (int *)sl_device_alloc(bytes, 0xFF);
    bench_fill<<<1024, 256>>>(d_in, n, seed);
    sl_launched("bench_fill");

    // All allocations happen here, outside the timed regions.
    size_t scratch_bytes = scan_scratch_bytes(n);
    student_call s = {d_in, d_student, n,
                      scratch_bytes ? sl_device_alloc(scratch_bytes, 0xFF) : NULL};
    cub_call c = {d_in, d_cub, n, NULL, 0};
    SL_CHECK(cub_exclusive_sum(NULL, c.temp_bytes, d_in, d_cub, n));
    c.temp = sl_device_alloc(c.temp_bytes ? c.temp_bytes : 1, 0);

    call_student(&s); // warm-ups
    sl_launched("scan_exclusive_int");
    call_cub(&c);
    sl_launched("cub::DeviceScan::ExclusiveSum");
    b->student_ms = sl_time_best(call_student, &s, 10);
    sl_launched("scan_exclusive_int (timed)");
    b->reference_ms = sl_time_best(call_cub, &c, 10);
    sl_launched("cub::DeviceScan::ExclusiveSum (timed)");

    // The compared output comes from one more call, on the scratch the timed
    // calls left behind, into a poisoned output.
    SL_CHECK(cudaMemset(d_student, 0xFF, bytes));
    call_student(&s);
    sl_launched("scan_exclusive_int");
    unsigned long long *d_mismatches =
        (unsigned long long *)sl_device_alloc(sizeof(unsigned long long), 0);
    bench_count_mismatches<<<1024, 256>>>(d_student, d_cub, n, d_mismatches);
    sl_launched("bench_count_mismatches");
    unsigned long long mismatches = 0;
    sl_read_back(&mismatches, d_mismatches, sizeof mismatches);

    b->bytes = 2.0 * (double)bytes; // each element read once and written once
    b->correct = mismatches == 0;
    snprintf(b->reference, sizeof b->reference, "cub::DeviceScan::ExclusiveSum");

    sl_free(d_mismatches);
    sl_free(c.temp);
    if (s.scratch)
        sl_free(s.scratch);
    sl_free(d_in);
    sl_free(d_student);
    sl_free(d_cub);
}

SL_RUNNER_TABLE(SL_LESSON_EXERCISES)
