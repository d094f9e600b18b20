/* The runner's main: argument handling, case files, device checks and the
 * helpers of runner.h. Linked with one lesson's harness.cu and the student's
 * file; it holds no verdict logic. */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runner.h"

void sl_check_cuda(cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess)
        return;
    fprintf(stderr, "CUDA error: %s: %s (%s at %s:%d)\n", cudaGetErrorName(e),
            cudaGetErrorString(e), what, file, line);
    fflush(stdout);
    fflush(stderr);
    exit(SL_EXIT_CUDA);
}

void sl_launched(const char *what)
{
    sl_check_cuda(cudaGetLastError(), what, "launch", 0);
    sl_check_cuda(cudaDeviceSynchronize(), what, "completion", 0);
}

void *sl_device_alloc(size_t bytes, int fill_byte)
{
    void *d = NULL;
    SL_CHECK(cudaMalloc(&d, bytes ? bytes : 1));
    SL_CHECK(cudaMemset(d, fill_byte, bytes ? bytes : 1));
    return d;
}

void *sl_to_device(const sl_array *a)
{
    size_t bytes = (size_t)a->count * sl_elem_size(a->type);
    void *d = NULL;
    /* exact size: memcheck catches the first element read past the end */
    SL_CHECK(cudaMalloc(&d, bytes ? bytes : 1));
    if (bytes)
        SL_CHECK(cudaMemcpy(d, a->data, bytes, cudaMemcpyHostToDevice));
    return d;
}

void *sl_download(sl_case *out, int type, uint64_t count, const void *dev)
{
    void *h = sl_case_add(out, type, count);
    if (!h) {
        fprintf(stderr, "runner: cannot hold output (%llu elements)\n", (unsigned long long)count);
        exit(SL_EXIT_INPUT);
    }
    size_t bytes = (size_t)count * sl_elem_size(type);
    if (bytes)
        SL_CHECK(cudaMemcpy(h, dev, bytes, cudaMemcpyDeviceToHost));
    return h;
}

void sl_free(void *dev)
{
    if (dev)
        SL_CHECK(cudaFree(dev));
}

/* Set for a run under a compute-sanitizer tool: the tools judge accesses,
 * not values, so what only plain runs need is skipped. The grader says so
 * in SYNCLAB_RUN_MODE=plain|tools, never in argv: read here before any
 * student code runs, then wiped, so tool runs and plain runs look the
 * same to the student's code. */
static int under_tool = 0;

__attribute__((constructor(101))) static void read_run_mode(void)
{
    char *mode = getenv("SYNCLAB_RUN_MODE");
    if (!mode)
        return;
    under_tool = strcmp(mode, "tools") == 0;
    memset(mode, '-', strlen(mode)); /* /proc/self/environ shows the original block */
    unsetenv("SYNCLAB_RUN_MODE");
}

static __global__ void dirty_shared_kernel(int words)
{
    extern __shared__ unsigned int scratch[];
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        scratch[i] = 0xFFFFFFFFu;
}

void sl_dirty_shared(void)
{
    /* Measured on an H100: this kernel's 15M shared stores made racecheck
     * take 3.4 s (13 CPU-seconds) for three tiny inputs, 1.0 s without. */
    if (under_tool)
        return;
    static int sms = 0, per_block = 0; /* asked once per process */
    if (!sms) {
        int dev = 0;
        SL_CHECK(cudaGetDevice(&dev));
        SL_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        SL_CHECK(cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        SL_CHECK(cudaFuncSetAttribute(dirty_shared_kernel,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize, per_block));
        /* Every kernel without a carveout of its own (the student's) then
         * prefers the largest shared-memory carveout, the one this kernel
         * runs with: no L1/shared reconfiguration between the two that
         * could lose the garbage (shared memory is not promised to keep
         * anything between kernels; on the GPU it does as long as nothing
         * else runs there). A hint: a failure here changes nothing. */
        (void)cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
        (void)cudaGetLastError();
    }
    /* one block per SM with all the shared memory it may have. No wait here:
     * the student's kernel runs after it in the same stream, and every wait
     * costs a turn on a GPU that other graders' processes share. */
    dirty_shared_kernel<<<sms * 2, 1024, per_block>>>(per_block / 4);
    sl_check_cuda(cudaGetLastError(), "sl_dirty_shared", "launch", 0);
}

double sl_time_best(void (*fn)(void *), void *arg, int reps)
{
    cudaEvent_t a, b;
    SL_CHECK(cudaEventCreate(&a));
    SL_CHECK(cudaEventCreate(&b));
    fn(arg); /* warm-up: first-launch costs are not bandwidth */
    sl_launched("warm-up");
    float best = 1e30f;
    for (int i = 0; i < reps; i++) {
        SL_CHECK(cudaEventRecord(a));
        fn(arg);
        SL_CHECK(cudaEventRecord(b));
        SL_CHECK(cudaEventSynchronize(b));
        sl_check_cuda(cudaGetLastError(), "timed run", __FILE__, __LINE__);
        float ms = 0;
        SL_CHECK(cudaEventElapsedTime(&ms, a, b));
        if (ms < best)
            best = ms;
    }
    SL_CHECK(cudaEventDestroy(a));
    SL_CHECK(cudaEventDestroy(b));
    return best;
}

struct copy_args {
    void *dst;
    const void *src;
    size_t bytes;
};
static void do_copy(void *p)
{
    copy_args *c = (copy_args *)p;
    SL_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice));
}

double sl_copy_ms(size_t bytes)
{
    copy_args c;
    c.bytes = bytes;
    c.src = sl_device_alloc(bytes, 1);
    c.dst = sl_device_alloc(bytes, 0);
    double ms = sl_time_best(do_copy, &c, 10);
    sl_free(c.dst);
    sl_free((void *)c.src);
    return ms;
}

/* ---------- the student's CUDA calls ----------
 * build.c renames these calls in the student's object only (objcopy
 * --redefine-sym X=sl_student_X; the harness keeps the real ones): every
 * launch of a kernel of the student's file (its launch stubs, its
 * launchers' calls, any cooperative launch) is counted ("@@launches N"
 * after each input: the grader calls a launcher that launched none WRONG),
 * and a launcher's copies may not reach host memory, where the host could
 * compute what the GPU should. */
static unsigned long long student_launches = 0;

extern "C" cudaError_t sl_student___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
                                                     void **args, size_t shared,
                                                     cudaStream_t stream)
{
    student_launches++;
    return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

extern "C" cudaError_t sl_student___cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid,
                                                          dim3 block, void **args, size_t shared,
                                                          cudaStream_t stream)
{
    student_launches++;
    return __cudaLaunchKernel_ptsz(kernel, grid, block, args, shared, stream);
}

extern "C" cudaError_t sl_student_cudaLaunchKernel(const void *func, dim3 grid, dim3 block,
                                                   void **args, size_t shared, cudaStream_t stream)
{
    student_launches++;
    return cudaLaunchKernel(func, grid, block, args, shared, stream);
}

extern "C" cudaError_t sl_student_cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                                      const void *func, void **args)
{
    student_launches++;
    return cudaLaunchKernelExC(config, func, args);
}

/* Linked with --wrap=cudaLaunchCooperativeKernel (build.c): the harness
 * launches some of the student's kernels cooperatively itself. */
extern "C" cudaError_t __real_cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block,
                                                          void **args, size_t shared,
                                                          cudaStream_t stream);
extern "C" cudaError_t __wrap_cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block,
                                                          void **args, size_t shared,
                                                          cudaStream_t stream)
{
    student_launches++;
    return __real_cudaLaunchCooperativeKernel(func, grid, block, args, shared, stream);
}

static int device_memory(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError(); /* not an error of the student's kernels */
        return 0;
    }
    return a.type == cudaMemoryTypeDevice;
}

static void copy_allowed(const void *dst, const void *src, size_t bytes, const char *call)
{
    if (bytes == 0 || (device_memory(dst) && device_memory(src)))
        return;
    fprintf(stderr,
            "CUDA error: cudaErrorNotPermitted: a launcher may copy only from device "
            "memory to device memory; this %s reads or writes host memory: the work "
            "must be done on the GPU (%s from the student's code)\n",
            call, call);
    fflush(stdout);
    fflush(stderr);
    exit(SL_EXIT_CUDA);
}

extern "C" cudaError_t sl_student_cudaMemcpy(void *dst, const void *src, size_t bytes,
                                             cudaMemcpyKind kind)
{
    copy_allowed(dst, src, bytes, "cudaMemcpy");
    return cudaMemcpy(dst, src, bytes, kind);
}

extern "C" cudaError_t sl_student_cudaMemcpyAsync(void *dst, const void *src, size_t bytes,
                                                  cudaMemcpyKind kind, cudaStream_t stream)
{
    copy_allowed(dst, src, bytes, "cudaMemcpyAsync");
    return cudaMemcpyAsync(dst, src, bytes, kind, stream);
}

/* ---------- commands ---------- */

static const sl_runner_exercise *find_exercise(const char *name)
{
    for (const sl_runner_exercise *e = sl_runner_exercises; e->name; e++)
        if (strcmp(e->name, name) == 0)
            return e;
    fprintf(stderr, "runner: no exercise named '%s'\n", name);
    exit(SL_EXIT_NO_EXERCISE);
}

/* Any error or no device at all is a clean skip, never a failure. Then
 * the context, and the grader's clock starts (SL_RUNNER_READY). */
static void require_gpu(void)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        fprintf(stderr, "runner: no CUDA device (%s)\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        exit(SL_EXIT_NO_GPU);
    }
    SL_CHECK(cudaFree(0));
    printf(SL_RUNNER_READY "\n");
    fflush(stdout);
}

static int cmd_run(const sl_runner_exercise *e, const char *dir, int count, const char *outdir)
{
    char in_path[4096], out_path[4096], err[256];
    for (int i = 0; i < count; i++) {
        snprintf(in_path, sizeof in_path, "%s/case%d.in", dir, i);
        snprintf(out_path, sizeof out_path, "%s/case%d.out", outdir, i);
        sl_case in, out;
        if (sl_case_read(in_path, &in, (uint64_t)1 << 34, err, sizeof err) != 0) {
            fprintf(stderr, "runner: %s: %s\n", in_path, err);
            return SL_EXIT_INPUT;
        }
        memset(&out, 0, sizeof out);
        printf("@@case %d\n", i);
        fflush(stdout); /* a hang must still name its input */
        student_launches = 0;
        e->run(&in, &out);
        SL_CHECK(cudaDeviceSynchronize());
        printf("@@launches %llu\n", student_launches);
        fflush(stdout);
        /* decided here, where student code cannot print its way past it */
        uint64_t elements = 0;
        for (int a = 0; a < in.narrays; a++)
            elements += in.array[a].count;
        if (elements > 0 && student_launches == 0) {
            fprintf(stderr,
                    "CUDA error: cudaErrorNotPermitted: the launcher launched no kernel "
                    "for a non-empty input: the work must be done on the GPU (%s)\n",
                    e->name);
            fflush(stderr);
            exit(SL_EXIT_CUDA);
        }
        if (sl_case_write(out_path, &out) != 0) {
            fprintf(stderr, "runner: cannot write %s\n", out_path);
            return SL_EXIT_INPUT;
        }
        sl_case_free(&in);
        sl_case_free(&out);
    }
    return SL_EXIT_OK;
}

/* "run|sanitize <exercise> <dir> <count> <outdir>" once or more: several
 * exercises in one process save a CUDA context each (the grader's lesson
 * sweep). Every name is checked before anything runs. */
static int cmd_run_all(int nargs, char **args)
{
    int groups = nargs / 4;
    for (int g = 0; g < groups; g++)
        find_exercise(args[4 * g]);
    require_gpu();
    for (int g = 0; g < groups; g++) {
        if (groups > 1) {
            printf("@@exercise %s\n", args[4 * g]);
            fflush(stdout);
        }
        int rc = cmd_run(find_exercise(args[4 * g]), args[4 * g + 1], atoi(args[4 * g + 2]),
                         args[4 * g + 3]);
        if (rc != SL_EXIT_OK)
            return rc;
    }
    return SL_EXIT_OK;
}

static int cmd_bench(const char *name, int log2n, unsigned long long seed, const char *out_path)
{
    const sl_runner_exercise *e = find_exercise(name);
    if (!e->bench) {
        fprintf(stderr, "runner: %s has no bench\n", name);
        return SL_EXIT_NO_EXERCISE;
    }
    require_gpu();
    sl_bench b;
    memset(&b, 0, sizeof b);
    e->bench(log2n, seed, &b);
    /* the copy ceiling for the same traffic: a copy of bytes/2 reads and writes bytes */
    double copy_ms = sl_copy_ms((size_t)(b.bytes / 2));
    sl_case out;
    memset(&out, 0, sizeof out);
    double *v = (double *)sl_case_add(&out, SL_F64, 4);
    v[0] = b.bytes / (b.student_ms * 1e6);
    v[1] = b.bytes / (b.reference_ms * 1e6);
    v[2] = b.bytes / (copy_ms * 1e6);
    v[3] = b.correct ? 1.0 : 0.0;
    printf("@@reference %s\n", b.reference);
    printf("student %.3f ms %.1f GB/s; %s %.3f ms %.1f GB/s; copy %.1f GB/s\n", b.student_ms, v[0],
           b.reference, b.reference_ms, v[1], v[2]);
    int rc = sl_case_write(out_path, &out) == 0 ? SL_EXIT_OK : SL_EXIT_INPUT;
    sl_case_free(&out);
    return rc;
}

static int usage(void)
{
    fprintf(stderr, "usage: runner run <exercise> <dir> <count> [outdir]\n"
                    "       runner run <exercise> <dir> <count> <outdir> [<exercise> <dir> <count> "
                    "<outdir>]...\n"
                    "       runner sanitize ...   (as run, under a compute-sanitizer tool)\n"
                    "       runner bench <exercise> <log2n> <seed> <outfile>\n"
                    "       runner list\n");
    return SL_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "sanitize") == 0)
        under_tool = 1; /* by hand; the grader uses SYNCLAB_RUN_MODE */
    if (argc >= 2 && (strcmp(argv[1], "run") == 0 || under_tool)) {
        if (argc == 5) { /* no outdir: outputs beside the inputs */
            const sl_runner_exercise *e = find_exercise(argv[2]);
            require_gpu();
            return cmd_run(e, argv[3], atoi(argv[4]), argv[3]);
        }
        if (argc > 2 && (argc - 2) % 4 == 0)
            return cmd_run_all(argc - 2, argv + 2);
        return usage();
    }
    if (argc == 6 && strcmp(argv[1], "bench") == 0)
        return cmd_bench(argv[2], atoi(argv[3]), strtoull(argv[4], NULL, 10), argv[5]);
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        for (const sl_runner_exercise *e = sl_runner_exercises; e->name; e++)
            printf("%s%s\n", e->name, e->bench ? " (bench)" : "");
        return SL_EXIT_OK;
    }
    return usage();
}
