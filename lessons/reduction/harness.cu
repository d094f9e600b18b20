/* Lesson 3 (reduction): runner side. Reads a case, launches the student's
 * code, downloads the outputs. Never judges (suite.c does). */
#include <stdio.h>
#include <stdlib.h>
#include <cub/cub.cuh>
#include "runner.h"
#include "reduction.h"
#include "exercises.h"

static void need(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "reduction harness: malformed case: %s\n", what);
        exit(SL_EXIT_INPUT);
    }
}

/* ---- tree_reduce, mirrored_reduce --------------------------------------- */
typedef void (*block_sum_kernel)(const int *, int *, int);

static void run_block_sums(const sl_case *in, sl_case *out, block_sum_kernel kernel,
                           const char *what)
{
    long long n = in->param[SL_P_N];
    long long block = in->param[SL_P_BLOCK];
    need(n >= 1 && n <= 0x7fffffff, "n out of range");
    need(block >= 32 && block <= 1024 && (block & (block - 1)) == 0,
         "block is not a power of two in [32, 1024]");
    need(in->narrays >= 1 && in->array[0].type == SL_I32 && in->array[0].count == (uint64_t)n,
         "array 0 must hold n ints");
    long long grid = (n + block - 1) / block;

    const int *d_in = (const int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc((size_t)grid * sizeof(int), 0xFF);
    sl_dirty_shared(); /* shared slots nobody writes hold garbage, not a lucky 0 */
    kernel<<<(unsigned)grid, (unsigned)block, (size_t)block * sizeof(int)>>>(d_in, d_out, (int)n);
    sl_launched(what);
    sl_download(out, SL_I32, (uint64_t)grid, d_out);
    sl_free((void *)d_in);
    sl_free(d_out);
}

static void run_tree_reduce(const sl_case *in, sl_case *out)
{
    run_block_sums(in, out, tree_reduce, "tree_reduce");
}

static void run_mirrored_reduce(const sl_case *in, sl_case *out)
{
    run_block_sums(in, out, mirrored_reduce, "mirrored_reduce");
}

/* ---- sum_int, sum_float ----------------------------------------------------
 * Array 0 holds offset + n elements; the student sums the last n, starting
 * at d + offset, which is 16-byte aligned only when offset % 4 == 0. The
 * allocation ends exactly at the last element, so memcheck sees any read
 * past it. */
static void check_sum_case(const sl_case *in, int type, long long *n, long long *offset)
{
    *n = in->param[SL_P_N];
    *offset = in->param[SUM_P_OFFSET];
    need(*n >= 1 && *offset >= 0 && *offset < 4, "n or offset out of range");
    need(in->narrays >= 1 && in->array[0].type == type &&
             in->array[0].count == (uint64_t)(*offset + *n),
         "array 0 must hold offset + n elements");
}

static void run_sum_int(const sl_case *in, sl_case *out)
{
    long long n, offset;
    check_sum_case(in, SL_I32, &n, &offset);
    int *d_in = (int *)sl_to_device(&in->array[0]);
    int *d_out = (int *)sl_device_alloc(sizeof(int), 0xFF);
    sl_dirty_shared();
    reduce_sum_int(d_in + offset, n, d_out);
    sl_launched("reduce_sum_int");
    sl_download(out, SL_I32, 1, d_out);
    sl_free(d_in);
    sl_free(d_out);
}

static void run_sum_float(const sl_case *in, sl_case *out)
{
    long long n, offset;
    check_sum_case(in, SL_F32, &n, &offset);
    float *d_in = (float *)sl_to_device(&in->array[0]);
    float *d_out = (float *)sl_device_alloc(sizeof(float), 0xFF);
    sl_dirty_shared();
    reduce_sum_float(d_in + offset, n, d_out);
    sl_launched("reduce_sum_float");
    sl_download(out, SL_F32, 1, d_out);
    sl_free(d_in);
    sl_free(d_out);
}

/* ---- bench of sum_int against CUB ------------------------------------------
 * Data made on the device (a 1 GiB upload would dominate): small values in
 * [-8, 7], so the sum is far from wrapping and any lost element shows. */
static __global__ void reduction_bench_fill(int *a, long long n, uint64_t seed)
{
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull ^ seed; /* splitmix64 finaliser */
        h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
        h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
        h ^= h >> 31;
        a[i] = (int)(h & 15) - 8;
    }
}

typedef struct {
    const int *in;
    long long n;
    int *out;
    void *temp; /* CUB's temporary storage, allocated before timing */
    size_t temp_bytes;
} bench_args;

static void time_student(void *p)
{
    bench_args *a = (bench_args *)p;
    reduce_sum_int(a->in, a->n, a->out);
}

static void time_cub(void *p)
{
    bench_args *a = (bench_args *)p;
    SL_CHECK(cub::DeviceReduce::Sum(a->temp, a->temp_bytes, a->in, a->out, a->n));
}

static void bench_sum_int(int log2n, uint64_t seed, sl_bench *b)
{
    enum { REPS = 10 }; /* sl_time_best warms up first */
    long long n = 1LL << log2n;
    int *d_in = NULL;
    SL_CHECK(cudaMalloc(&d_in, (size_t)n * sizeof(int)));
    reduction_bench_fill<<<1024, 256>>>(d_in, n, seed);
    sl_launched("reduction_bench_fill");

    bench_args student = {d_in, n, (int *)sl_device_alloc(sizeof(int), 0xFF), NULL, 0};
    bench_args cub = {d_in, n, (int *)sl_device_alloc(sizeof(int), 0xFF), NULL, 0};
    SL_CHECK(cub::DeviceReduce::Sum(NULL, cub.temp_bytes, cub.in, cub.out, cub.n));
    cub.temp = sl_device_alloc(cub.temp_bytes ? cub.temp_bytes : 1, 0);

    b->student_ms = sl_time_best(time_student, &student, REPS);
    sl_launched("reduce_sum_int (timed)");
    b->reference_ms = sl_time_best(time_cub, &cub, REPS);
    sl_launched("cub::DeviceReduce::Sum (timed)");

    int got = 0, want = 0; /* results of the last timed runs */
    sl_read_back(&got, student.out, sizeof got);
    sl_read_back(&want, cub.out, sizeof want);
    b->correct = got == want;
    b->bytes = (double)n * sizeof(int);
    snprintf(b->reference, sizeof b->reference, "cub::DeviceReduce::Sum");

    sl_free(cub.temp);
    sl_free(cub.out);
    sl_free(student.out);
    SL_CHECK(cudaFree(d_in));
}

SL_RUNNER_TABLE(SL_LESSON_EXERCISES)
