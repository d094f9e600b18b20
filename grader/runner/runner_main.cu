/* The runner's main: argument handling, case files, device checks and the
 * helpers of runner.h. Linked with one lesson's harness.cu and the student's
 * file; it holds no verdict logic. */
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "driver_watch.h"
#include "input_files.h"
#include "runner.h"
#include "syscall_wall.h"

/* The runner's own work, which the driver watch lets through (this thread,
 * nested): uploads, downloads, its helpers, and the student's calls once
 * its wrappers below have judged them. */
struct trusted_scope {
    trusted_scope() { sl_driver_watch_trust(1); }
    ~trusted_scope() { sl_driver_watch_trust(0); }
};

static int under_tool = 0; /* set before main: read_run_mode below */

/* Ends the runner with code. A plain run skips the runtime's teardown:
 * anything CUDA would do then (remove its shared-memory files) would meet
 * the system-call wall, and the process's end frees the GPU anyway. Under
 * a tool the teardown stays: the tool reports what it saw there. */
[[noreturn]] static void quit(int code)
{
    fflush(stdout);
    fflush(stderr);
    if (!under_tool)
        _exit(code);
    exit(code);
}

/* The grader's log (SL_PROTO_FDS in case.h): every protocol line goes
 * there, and nothing else of this process does; -1 when run by hand (then
 * stdout). Set in a constructor before any student code runs. */
static int proto_fd = -1;

__attribute__((constructor(101))) static void take_descriptors(void)
{
    char *fds = getenv(SL_PROTO_FDS);
    if (!fds)
        return;
    int proto = -1, program = -1;
    int ok = sscanf(fds, "%d %d", &proto, &program) == 2 && proto >= SL_PROTO_FD_MIN &&
             program >= SL_PROTO_FD_MIN && fcntl(proto, F_GETFD) >= 0 &&
             fcntl(program, F_GETFD) >= 0;
    memset(fds, '-', strlen(fds)); /* as SYNCLAB_RUN_MODE below */
    unsetenv(SL_PROTO_FDS);
    if (!ok) {
        /* the grader's descriptors did not reach us: nothing is believed */
        fprintf(stderr, "runner: the grader's descriptors (%s) are not open\n", SL_PROTO_FDS);
        _exit(SL_EXIT_USAGE);
    }
    /* what the program prints goes to its own file from here on */
    fflush(stdout);
    fflush(stderr);
    if (dup2(program, STDOUT_FILENO) < 0 || dup2(program, STDERR_FILENO) < 0)
        _exit(SL_EXIT_USAGE);
    close(program);
    fcntl(proto, F_SETFD, FD_CLOEXEC);
    proto_fd = proto;
}

/* One protocol line, written whole in one write(2) to the grader's log:
 * only the harness calls this, never student code's printf. */
static void protocol(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (proto_fd < 0) {
        fflush(stdout);
        fwrite(line, 1, len, stdout);
        fflush(stdout);
        return;
    }
    for (size_t done = 0; done < len;) {
        ssize_t w = write(proto_fd, line + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
}

void sl_check_cuda(cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess)
        return;
    protocol("CUDA error: %s: %s (%s at %s:%d)\n", cudaGetErrorName(e), cudaGetErrorString(e), what,
             file, line);
    fflush(stdout);
    fflush(stderr);
    quit(SL_EXIT_CUDA);
}

/* With the "sleepwait" lever (SYNCLAB_GPU_WAIT=hybrid, read and wiped
 * before student code runs) the harness's wait for a student's kernels
 * spins for SPIN_NS, then sleeps on an event made to block: CUDA's default
 * spins a core for the whole wait, a runner's largest CPU cost, while
 * sleeping from the start (cudaDeviceScheduleBlockingSync) made the many
 * short waits of small inputs each wake late on a busy machine. */
static int sleep_wait = 0; /* set before main: read_run_mode below */
enum { SPIN_NS = 200 * 1000 };

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void wait_for_gpu(void)
{
    static cudaEvent_t done = NULL;
    trusted_scope trusted;
    if (!done && cudaEventCreateWithFlags(&done, cudaEventBlockingSync | cudaEventDisableTiming) !=
                     cudaSuccess) {
        done = NULL;
        return; /* cudaDeviceSynchronize waits and reports */
    }
    /* the legacy stream: it waits for every blocking stream's work */
    if (cudaEventRecord(done, 0) != cudaSuccess)
        return;
    long long t0 = now_ns();
    while (cudaEventQuery(done) == cudaErrorNotReady)
        if (now_ns() - t0 > SPIN_NS) {
            (void)cudaEventSynchronize(done);
            break;
        }
}

void sl_launched(const char *what)
{
    sl_check_cuda(cudaGetLastError(), what, "launch", 0);
    if (sleep_wait)
        wait_for_gpu();
    /* every stream's work, and its errors */
    sl_check_cuda(cudaDeviceSynchronize(), what, "completion", 0);
}

/* ---------- the harness's device memory ----------
 * In a plain run with the "alloc" lever (SYNCLAB_DEVICE_MEMORY=reuse, read
 * and wiped before student code runs; levers.h) a buffer the harness frees
 * is kept and handed out again for a later input: every cudaMalloc and
 * cudaFree of fresh memory waits for a lock the driver holds for the whole
 * machine, the one making CUDA contexts takes (on an H200, long plain runs
 * spent most of their time there after their context was made). The
 * grader asks for it in racecheck and synccheck runs too ("toolalloc"),
 * never under memcheck or initcheck: there every buffer is its own exact
 * cudaMalloc, so memcheck still names the first element past the end, and
 * initcheck sees fresh memory. A kept block is a size class (powers of
 * two up to 2 MiB, then 2 MiB steps) and its slack past what is asked is
 * zeroed on reuse: what a kernel reads or writes just past a buffer's end
 * is what it was on fresh memory. */
static int reuse_memory = 0; /* set before main: read_run_mode below */

enum { KEPT_MAX = 64 };
static const size_t KEPT_STEP = (size_t)2 << 20;
typedef struct {
    void *p;
    size_t size;
    int busy;
} kept_block;
static kept_block kept[KEPT_MAX];
static int nkept = 0;

static size_t kept_size(size_t bytes)
{
    if (bytes >= KEPT_STEP)
        return (bytes + KEPT_STEP - 1) / KEPT_STEP * KEPT_STEP;
    size_t s = 512;
    while (s < bytes)
        s <<= 1;
    return s;
}

/* bytes of device memory (at least 1), from the kept blocks when the lever
 * is on: the smallest free one that holds it (a small size class only
 * its own size), else a new one. */
static void *device_memory_take(size_t bytes)
{
    void *d = NULL;
    if (!bytes)
        bytes = 1;
    if (!reuse_memory) {
        SL_CHECK(cudaMalloc(&d, bytes));
        return d;
    }
    size_t size = kept_size(bytes);
    int best = -1;
    for (int i = 0; i < nkept; i++)
        if (!kept[i].busy && kept[i].size >= size && (size >= KEPT_STEP || kept[i].size == size) &&
            (best < 0 || kept[i].size < kept[best].size))
            best = i;
    if (best >= 0) {
        kept[best].busy = 1;
        d = kept[best].p;
        SL_CHECK(cudaMemset((char *)d + bytes, 0, kept[best].size - bytes));
        return d;
    }
    SL_CHECK(cudaMalloc(&d, size));
    if (nkept < KEPT_MAX) {
        kept[nkept].p = d;
        kept[nkept].size = size;
        kept[nkept].busy = 1;
        nkept++;
    }
    return d;
}

static void device_memory_give(void *d)
{
    for (int i = 0; i < nkept; i++)
        if (kept[i].p == d && kept[i].busy) {
            kept[i].busy = 0;
            return;
        }
    SL_CHECK(cudaFree(d));
}

void *sl_device_alloc(size_t bytes, int fill_byte)
{
    trusted_scope trusted;
    void *d = device_memory_take(bytes);
    SL_CHECK(cudaMemset(d, fill_byte, bytes ? bytes : 1));
    return d;
}

void *sl_to_device(const sl_array *a)
{
    trusted_scope trusted;
    size_t bytes = (size_t)a->count * sl_elem_size(a->type);
    void *d = NULL;
    if (bytes && !a->data) {
        fprintf(stderr, "runner: an input array was uploaded twice (harness bug)\n");
        quit(SL_EXIT_INPUT);
    }
    /* exact size unless reused (never under memcheck): memcheck catches
     * the first element read past the end */
    d = device_memory_take(bytes);
    if (bytes)
        SL_CHECK(cudaMemcpy(d, a->data, bytes, cudaMemcpyHostToDevice));
    /* the host copy is gone before any student code runs: only the GPU
     * has the input (cmd_run checks that every array came this way) */
    sl_array *host = (sl_array *)a;
    if (host->data) {
        memset(host->data, 0, bytes);
        free(host->data);
        host->data = NULL;
    }
    return d;
}

void *sl_download(sl_case *out, int type, uint64_t count, const void *dev)
{
    void *h = sl_case_add(out, type, count);
    if (!h) {
        protocol("runner: cannot hold output (%llu elements)\n", (unsigned long long)count);
        quit(SL_EXIT_INPUT);
    }
    size_t bytes = (size_t)count * sl_elem_size(type);
    trusted_scope trusted;
    if (bytes)
        SL_CHECK(cudaMemcpy(h, dev, bytes, cudaMemcpyDeviceToHost));
    return h;
}

void sl_read_back(void *host, const void *dev, size_t bytes)
{
    trusted_scope trusted;
    if (bytes)
        SL_CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
}

void sl_free(void *dev)
{
    trusted_scope trusted;
    if (dev)
        device_memory_give(dev);
}

/* Set for a run under a compute-sanitizer tool: the tools judge accesses,
 * not values, so what only plain runs need is skipped. The grader says so
 * in SYNCLAB_RUN_MODE=plain|tools, never in argv: read here before any
 * student code runs, then wiped, so tool runs and plain runs look the
 * same to the student's code. */
/* SYNCLAB_WALL=0 (the grader's environment, never the student's) leaves the
 * system-call wall and the driver watch out: to tell on a new machine
 * whether a failure is theirs. Read and wiped like the run mode. */
static int wall_off = 0;

static void read_and_wipe(const char *name, char *value, size_t n)
{
    char *v = getenv(name);
    value[0] = '\0';
    if (!v)
        return;
    snprintf(value, n, "%s", v);
    memset(v, '-', strlen(v)); /* /proc/self/environ shows the original block */
    unsetenv(name);
}

__attribute__((constructor(101))) static void read_run_mode(void)
{
    char mode[16], wall[16], memory[16], wait[16];
    read_and_wipe("SYNCLAB_RUN_MODE", mode, sizeof mode);
    read_and_wipe("SYNCLAB_WALL", wall, sizeof wall);
    read_and_wipe("SYNCLAB_DEVICE_MEMORY", memory, sizeof memory);
    read_and_wipe("SYNCLAB_GPU_WAIT", wait, sizeof wait);
    sleep_wait = strcmp(wait, "hybrid") == 0;
    under_tool = strcmp(mode, "tools") == 0;
    reuse_memory = strcmp(memory, "reuse") == 0;
    wall_off = strcmp(wall, "0") == 0;
    /* Every module of the program is loaded with the context (cudaFree(0)),
     * before the driver watch judges anything: with CUDA's default lazy
     * loading, the runtime's own cuLibraryLoadData of the program's fatbinary
     * at the first launch looked like code loaded from memory (measured on an
     * H200, CUDA 13.0: every solution LAUNCH). Loaded later, a module is the
     * student's. */
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);
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
    trusted_scope trusted;
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
    trusted_scope trusted;
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
    trusted_scope trusted; /* lazy loading of its module */
    return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

extern "C" cudaError_t sl_student___cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid,
                                                          dim3 block, void **args, size_t shared,
                                                          cudaStream_t stream)
{
    student_launches++;
    trusted_scope trusted; /* lazy loading of its module */
    return __cudaLaunchKernel_ptsz(kernel, grid, block, args, shared, stream);
}

extern "C" cudaError_t sl_student_cudaLaunchKernel(const void *func, dim3 grid, dim3 block,
                                                   void **args, size_t shared, cudaStream_t stream)
{
    student_launches++;
    trusted_scope trusted; /* lazy loading of its module */
    return cudaLaunchKernel(func, grid, block, args, shared, stream);
}

extern "C" cudaError_t sl_student_cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                                      const void *func, void **args)
{
    student_launches++;
    trusted_scope trusted; /* lazy loading of its module */
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
    trusted_scope trusted; /* lazy loading of its module */
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
    protocol("CUDA error: cudaErrorNotPermitted: a launcher may copy only from device "
             "memory to device memory; this %s reads or writes host memory: the work "
             "must be done on the GPU (%s from the student's code)\n",
             call, call);
    fflush(stdout);
    fflush(stderr);
    quit(SL_EXIT_CUDA);
}

extern "C" cudaError_t sl_student_cudaMemcpy(void *dst, const void *src, size_t bytes,
                                             cudaMemcpyKind kind)
{
    copy_allowed(dst, src, bytes, "cudaMemcpy");
    trusted_scope trusted; /* judged above */
    return cudaMemcpy(dst, src, bytes, kind);
}

extern "C" cudaError_t sl_student_cudaMemcpyAsync(void *dst, const void *src, size_t bytes,
                                                  cudaMemcpyKind kind, cudaStream_t stream)
{
    copy_allowed(dst, src, bytes, "cudaMemcpyAsync");
    trusted_scope trusted; /* judged above */
    return cudaMemcpyAsync(dst, src, bytes, kind, stream);
}

/* ---------- commands ---------- */

/* "<lesson>/<exercise>" in a runner of several lessons (runner.h). */
static const sl_runner_exercise *lesson_table(const char **name)
{
    const char *slash = strchr(*name, '/');
    if (!slash)
        return sl_runner_exercises;
    size_t len = (size_t)(slash - *name);
    for (const sl_runner_lesson *l = sl_runner_lessons; l && l->lesson; l++)
        if (l->table && strlen(l->lesson) == len && strncmp(l->lesson, *name, len) == 0) {
            *name = slash + 1;
            return l->table;
        }
    return NULL;
}

static const sl_runner_exercise *find_exercise(const char *name)
{
    const char *asked = name;
    const sl_runner_exercise *table = lesson_table(&name);
    for (const sl_runner_exercise *e = table; e && e->name; e++)
        if (strcmp(e->name, name) == 0)
            return e;
    name = asked;
    protocol("runner: no exercise named '%s'\n", name);
    quit(SL_EXIT_NO_EXERCISE);
}

/* Output files are opened before the wall (which refuses opening files for
 * writing), one per input, and written after each input. */
static FILE *open_output(const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "runner: cannot write %s: %s\n", path, strerror(errno));
        quit(SL_EXIT_INPUT);
    }
    return f;
}

/* Any error or no device at all is a clean skip, never a failure. Then the
 * driver watch, the context, the system-call wall, and the grader's clock
 * starts (SL_RUNNER_READY): no student code has run before this returns
 * (the object check refuses constructors; nvcc's registration is all that
 * ran before main). The wall and the watch fail closed: a runner that
 * cannot install them runs nothing. */
static void require_gpu(void)
{
    int n = 0;
    char why[256] = "";
    sl_driver_watch_trust(1); /* the runtime's own set-up (module loads) */
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        protocol("runner: no CUDA device (%s)\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        quit(SL_EXIT_NO_GPU);
    }
    /* Plain runs only, whose outputs decide correctness: CUPTI and a
     * compute-sanitizer tool both hook the driver's entry points (CUPTI takes
     * one subscriber), and a tool run's outputs must match the plain runs'
     * anyway, so a copy made only under a tool earns nothing. Both report
     * to the grader's log (proto_fd), where student printf cannot reach. */
    sl_driver_watch_set_log(proto_fd);
    sl_syscall_wall_set_log(proto_fd);
    if (!wall_off && !under_tool && sl_driver_watch_start(SL_EXIT_CUDA, why, sizeof why) != 0) {
        protocol("runner: cannot watch the CUDA driver (%s): nothing was run\n", why);
        quit(SL_EXIT_INPUT);
    }
    SL_CHECK(cudaFree(0));
    sl_driver_watch_trust(0);
    fflush(stdout);
    fflush(stderr);
    if (!wall_off && sl_syscall_wall_install(under_tool ? SL_WALL_TOOL : SL_WALL_STRICT,
                                             SL_EXIT_CUDA, why, sizeof why) != 0) {
        protocol("runner: cannot install the system-call wall (%s): nothing was run\n", why);
        quit(SL_EXIT_INPUT);
    }
    protocol(SL_RUNNER_READY "\n");
}

/* One exercise's inputs dir/case<i>.in (inputs.file[first + i]), outputs
 * written to outs[i]. */
typedef struct {
    const sl_runner_exercise *e;
    const char *dir;
    int count, first;
    FILE **outs;
} run_group;

/* Every input of the run, opened before the wall (input_files.h): student
 * code finds none it could read but by the runner's own turn. */
static sl_input_files inputs;

enum { MAX_CASES = 4096 };

static void parse_group(run_group *g, const char *name, const char *dir, const char *count)
{
    g->e = find_exercise(name);
    g->dir = dir;
    g->count = atoi(count);
    if (g->count < 0 || g->count > MAX_CASES) {
        fprintf(stderr, "runner: %d inputs: at most %d\n", g->count, MAX_CASES);
        quit(SL_EXIT_USAGE);
    }
}

static void open_group(run_group *g, const char *outdir)
{
    char out_path[4096];
    g->outs = (FILE **)calloc((size_t)g->count + 1, sizeof *g->outs);
    for (int i = 0; i < g->count; i++) {
        snprintf(out_path, sizeof out_path, "%s/case%d.out", outdir, i);
        g->outs[i] = open_output(out_path);
    }
}

static int cmd_run(const run_group *g)
{
    const sl_runner_exercise *e = g->e;
    char in_path[4096], err[512];
    for (int i = 0; i < g->count; i++) {
        snprintf(in_path, sizeof in_path, "%s/case%d.in", g->dir, i);
        sl_case in, out;
        protocol("@@case %d\n", i); /* a hang must still name its input */
        int took =
            sl_input_files_take(&inputs, g->first + i, &in, (uint64_t)1 << 34, err, sizeof err);
        if (took == SL_INPUT_TAMPERED) {
            /* only student code, between two turns, reads the inputs */
            protocol("CUDA error: cudaErrorNotPermitted: the launcher read an input out of its "
                     "turn: %s (%s)\n",
                     err, e->name);
            quit(SL_EXIT_CUDA);
        }
        if (took != SL_INPUT_OK) {
            protocol("runner: %s: %s\n", in_path, err);
            return SL_EXIT_INPUT;
        }
        memset(&out, 0, sizeof out);
        student_launches = 0;
        e->run(&in, &out);
        unsigned long seen = sl_driver_watch_seen();
        SL_CHECK(cudaDeviceSynchronize());
        if (sl_driver_watch_on() && sl_driver_watch_seen() == seen) {
            protocol("CUDA error: cudaErrorNotPermitted: the launcher turned off the "
                     "runner's driver watch (%s)\n",
                     e->name);
            quit(SL_EXIT_CUDA);
        }
        fflush(stdout); /* the program's own output, before its input ends */
        protocol("@@launches %llu\n", student_launches);
        /* decided here, where student code cannot print its way past it */
        uint64_t elements = 0;
        for (int a = 0; a < in.narrays; a++) {
            elements += in.array[a].count;
            /* the harness gave the student nothing the host still held */
            if (in.array[a].count && in.array[a].data) {
                fprintf(stderr,
                        "runner: %s: input array %d was not uploaded with sl_to_device "
                        "(harness bug)\n",
                        e->name, a);
                return SL_EXIT_INPUT;
            }
        }
        if (elements > 0 && student_launches == 0) {
            protocol("CUDA error: cudaErrorNotPermitted: the launcher launched no kernel "
                     "for a non-empty input: the work must be done on the GPU (%s)\n",
                     e->name);
            quit(SL_EXIT_CUDA);
        }
        FILE *f = g->outs[i];
        g->outs[i] = NULL;
        if (sl_case_write_file(f, &out) != 0) {
            protocol("runner: cannot write output %d of %s\n", i, e->name);
            return SL_EXIT_INPUT;
        }
        sl_case_free(&in);
        sl_case_free(&out);
    }
    return SL_EXIT_OK;
}

/* "run|sanitize <exercise> <dir> <count> <outdir>" once or more: several
 * exercises in one process save a CUDA context each (the grader's lesson
 * sweep). Every name is checked and every output opened before anything
 * runs. */
static int cmd_run_all(int nargs, char **args)
{
    int groups = nargs / 4, total = 0;
    char why[512];
    run_group *g = (run_group *)calloc((size_t)groups, sizeof *g);
    for (int i = 0; i < groups; i++) {
        parse_group(&g[i], args[4 * i], args[4 * i + 1], args[4 * i + 2]);
        g[i].first = total;
        total += g[i].count;
    }
    /* an output and an input descriptor per case, all open before the
     * wall: room for them first (a user's soft limit of 1024 failed a
     * lesson sweep's outputs, so every exercise ran everything itself) */
    if (sl_input_files_room(total, total, why, sizeof why) != 0) {
        protocol("runner: cannot open the inputs (%s): nothing was run\n", why);
        quit(SL_EXIT_INPUT);
    }
    for (int i = 0; i < groups; i++)
        open_group(&g[i], args[4 * i + 3]);
    char **paths = (char **)calloc((size_t)total + 1, sizeof *paths);
    for (int i = 0; i < groups; i++)
        for (int k = 0; k < g[i].count; k++) {
            paths[g[i].first + k] = (char *)malloc(4096);
            snprintf(paths[g[i].first + k], 4096, "%s/case%d.in", g[i].dir, k);
        }
    if (sl_input_files_open(&inputs, (const char *const *)paths, total, total, why, sizeof why) !=
        0) {
        protocol("runner: cannot open the inputs (%s): nothing was run\n", why);
        quit(SL_EXIT_INPUT);
    }
    for (int i = 0; i < total; i++)
        free(paths[i]);
    free(paths);
    sl_syscall_wall_set_inputs(inputs.base);
    require_gpu();
    for (int i = 0; i < groups; i++) {
        if (groups > 1) {
            protocol("@@exercise %s\n", args[4 * i]);
        }
        int rc = cmd_run(&g[i]);
        if (rc != SL_EXIT_OK)
            return rc;
    }
    return SL_EXIT_OK;
}

static int cmd_bench(const char *name, int log2n, unsigned long long seed, const char *out_path)
{
    const sl_runner_exercise *e = find_exercise(name);
    if (!e->bench) {
        protocol("runner: %s has no bench\n", name);
        return SL_EXIT_NO_EXERCISE;
    }
    FILE *f = open_output(out_path);
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
    protocol("@@reference %s\n", b.reference);
    printf("student %.3f ms %.1f GB/s; %s %.3f ms %.1f GB/s; copy %.1f GB/s\n", b.student_ms, v[0],
           b.reference, b.reference_ms, v[1], v[2]);
    int rc = sl_case_write_file(f, &out) == 0 ? SL_EXIT_OK : SL_EXIT_INPUT;
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

static int finish(int rc)
{
    quit(rc);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "sanitize") == 0)
        under_tool = 1; /* by hand; the grader uses SYNCLAB_RUN_MODE */
    if (argc >= 2 && (strcmp(argv[1], "run") == 0 || under_tool)) {
        if (argc == 5) { /* no outdir: outputs beside the inputs */
            char *args[4] = {argv[2], argv[3], argv[4], argv[3]};
            return finish(cmd_run_all(4, args));
        }
        if (argc > 2 && (argc - 2) % 4 == 0)
            return finish(cmd_run_all(argc - 2, argv + 2));
        return usage();
    }
    if (argc == 6 && strcmp(argv[1], "bench") == 0)
        return finish(cmd_bench(argv[2], atoi(argv[3]), strtoull(argv[4], NULL, 10), argv[5]));
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        for (const sl_runner_exercise *e = sl_runner_exercises; e->name; e++)
            printf("%s%s\n", e->name, e->bench ? " (bench)" : "");
        for (const sl_runner_lesson *l = sl_runner_lessons; l && l->lesson; l++)
            for (const sl_runner_exercise *e = l->table; e && e->name; e++)
                printf("%s/%s%s\n", l->lesson, e->name, e->bench ? " (bench)" : "");
        return SL_EXIT_OK;
    }
    return usage();
}
