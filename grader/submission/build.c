#include "build.h"

#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "hostobj.h"
#include "policy.h"
#include "proc.h"
#include "sandbox.h"
#include "synclab_config.h"
#include "text.h"
#include "trace.h"

/* FILE_CAP bounds every file a compiler step writes (RLIMIT_FSIZE): its log
 * and its -save-temps files, which for a file that includes thrust or CUB
 * pass 16 MiB (cc1plus was killed there on the H200: BUILD for what the
 * rules must call RULE). */
enum { FILE_CAP = 256 << 20, LOG_READ = 64 << 10, MAX_SYSTEM_DIRS = 32 };

/* The compiler's address space: the solutions need under 300 MiB; a
 * template that instantiates without end, or #include "/dev/zero", stops
 * here instead of taking the machine's memory (SL_BUILD_MEMORY_LIMIT). */
static const rlim_t MEMORY_LIMIT = (rlim_t)SL_BUILD_MEMORY_LIMIT_MIB << 20;
/* The CUDA calls of the student's object that the runner wraps: kernel
 * launches are counted, copies may not reach host memory. */
static const char *const WRAPPED[] = {"__cudaLaunchKernel", "__cudaLaunchKernel_ptsz",
                                      "cudaLaunchKernel",   "cudaLaunchKernelExC",
                                      "cudaMemcpy",         "cudaMemcpyAsync"};
/* Preprocessing alone takes well under a second. */
static const double DEPS_TIMEOUT_S = 60;

static int mtime_of(const char *path, struct timespec *t)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    *t = st.st_mtim;
    return 0;
}

static int newer(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

/* ---------- a dependency file (make syntax, as gcc writes it) ---------- */

/* The next prerequisite of a .d file at *s, unescaped ("\ " is a space,
 * "\#" a '#', "$$" a '$'), into out; 0 at the end. */
static int next_dependency(const char **s, char *out, size_t n)
{
    const char *p = *s;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (p[0] == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n')))
            p += p[1] == '\n' ? 2 : 3;
        else
            break;
    }
    if (!*p) {
        *s = p;
        return 0;
    }
    size_t k = 0;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
        char c = *p++;
        if (c == '\\' && (*p == ' ' || *p == '\t' || *p == '#'))
            c = *p++;
        else if (c == '$' && *p == '$')
            p++;
        if (k + 1 < n)
            out[k++] = c;
    }
    out[k] = '\0';
    *s = p;
    return 1;
}

/* The prerequisites of a .d file: after its "<target>:" (the target is
 * ours: "student.o" or DEPS_TARGET, never a student's name). */
static const char *dependencies_of(const char *deps)
{
    const char *colon = strstr(deps, ": ");
    if (!colon)
        colon = strstr(deps, ":\n");
    return colon ? colon + 1 : NULL;
}

char *sl_build_dependency_names(const char *build_dir)
{
    char depfile[4200];
    snprintf(depfile, sizeof depfile, "%s/student.d", build_dir);
    char *deps = sl_read_file(depfile, 8 << 20, NULL);
    const char *s = deps ? dependencies_of(deps) : NULL;
    sl_text names = {0};
    char path[PATH_MAX];
    while (s && next_dependency(&s, path, sizeof path))
        sl_text_printf(&names, "%s\n", sl_base_name(path));
    free(deps);
    char *list = s ? strdup(sl_text_str(&names)) : NULL;
    sl_text_free(&names);
    return list;
}

/* Up to date when the last compile was of this source (another file built
 * into the same folder must not reuse it), and the runner is newer than
 * every file that compile read (nvcc's -MD list) and than the harness
 * library. */
static int up_to_date(const char *runner, const char *depfile, const char *harness_lib,
                      const char *source)
{
    struct timespec built, t;
    if (mtime_of(runner, &built) != 0)
        return 0;
    if (mtime_of(harness_lib, &t) != 0 || newer(&t, &built))
        return 0;
    char *deps = sl_read_file(depfile, 8 << 20, NULL);
    if (!deps)
        return 0;
    int ok = strstr(deps, source) != NULL;
    const char *s = dependencies_of(deps);
    char path[PATH_MAX];
    ok &= s != NULL;
    while (ok && next_dependency(&s, path, sizeof path))
        if (mtime_of(path, &t) != 0 || newer(&t, &built))
            ok = 0;
    free(deps);
    return ok;
}

/* The arch the runner in out_dir was built for (out_dir/arch): a build for
 * another GPU is never reused. */
static int built_for(const char *stamp, const char *arch)
{
    char *was = sl_read_file(stamp, 64, NULL);
    int same = was && strcmp(was, arch) == 0;
    free(was);
    return same;
}

/* One line on the arch, first in the log: which one, and why. */
static void arch_note(const sl_gpu_target *t, sl_text *log)
{
    if (t->overridden)
        sl_text_printf(log, "note: built for sm_%s (SYNCLAB_ARCH)%s%s\n", t->arch,
                       t->note[0] ? ": " : "", t->note);
    else if (t->fallback)
        sl_text_printf(log, "note: built for sm_%s, the default: %s\n", t->arch, t->note);
    else
        sl_text_printf(log, "note: built for sm_%s, this GPU's architecture%s%s\n", t->arch,
                       t->note[0] ? ": " : "", t->note);
}

/* ---------- running the compiler ---------- */

static int ran_out_of_memory(const sl_proc_result *r, const char *log)
{
    static const char *const signs[] = {"out of memory",          "memory exhausted", "bad_alloc",
                                        "Cannot allocate memory", "Killed",           NULL};
    for (const char *const *s = signs; *s; s++)
        if (log && strstr(log, *s))
            return 1;
    return r->signaled; /* a compiler killed by a signal under the limit: the same story */
}

/* A compiler step the OOM killer stopped during this build: the class's
 * want of memory, never the file's (its own limit, RLIMIT_AS, makes a
 * file that needs too much fail by itself, with "out of memory"). */
static int g_oom_killed;

/* Runs a compiler step under the memory limit (set on ourselves just long
 * enough for the child to inherit it) and the time limit. */
static int run_tool(char *const argv[], const char *logpath, double timeout_s, sl_text *log,
                    const sl_sandbox *box)
{
    sl_proc_result r;
    memset(&r, 0, sizeof r);
    struct rlimit saved, limited;
    int limit = getrlimit(RLIMIT_AS, &saved) == 0;
    if (limit) {
        limited = saved;
        if (limited.rlim_cur == RLIM_INFINITY || limited.rlim_cur > MEMORY_LIMIT)
            limited.rlim_cur = MEMORY_LIMIT;
        limit = setrlimit(RLIMIT_AS, &limited) == 0;
    }
    sl_proc p;
    sl_proc_opts o = {0};
    o.out_path = logpath;
    o.out_cap = FILE_CAP;
    o.timeout_s = timeout_s;
    o.box = box;
    int started = sl_proc_spawn(&p, argv, &o) == 0;
    if (limit)
        setrlimit(RLIMIT_AS, &saved);
    if (started)
        sl_proc_wait(&p, &r);
    else
        r.spawn_failed = 1;
    if (sl_tracing()) /* what a class run spends compiling (scripts/bench-class.sh) */
        fprintf(stderr, "[trace] build: %s %.2f s wall, %.2f s cpu\n", sl_base_name(argv[0]),
                r.seconds, r.cpu_seconds);
    char *text = sl_read_file(logpath, LOG_READ, NULL);
    if (text)
        sl_text_printf(log, "%s", text);
    int ok = r.exited && r.code == 0;
    if (r.timed_out)
        sl_text_printf(log, SL_BUILD_TIMED_OUT " %.0f s\n", timeout_s);
    else if (r.spawn_failed)
        sl_text_printf(log, SL_BUILD_NOT_RUN "%s\n", argv[0]);
    else if (!ok && sl_proc_oom_killed(&r)) {
        g_oom_killed = 1;
        sl_text_printf(log,
                       "error: the kernel stopped %s for want of memory (the grader's machine "
                       "ran out of it; %ld MiB was its own): not the file's doing\n",
                       sl_base_name(argv[0]), sl_proc_peak_mib(&r));
    } else if (!ok && ran_out_of_memory(&r, text))
        sl_text_printf(log,
                       "error: the compiler ran out of memory (its limit is %d MiB): a "
                       "template or an #include that never ends?\n",
                       SL_BUILD_MEMORY_LIMIT_MIB);
    free(text);
    return ok;
}

/* ---------- which files a submission may include ---------- */

typedef struct {
    char source_dir[PATH_MAX];    /* the project: its solutions and lessons */
    char folder[PATH_MAX];        /* the submission's folder, resolved */
    char lesson_header[PATH_MAX]; /* lessons/<l>/<l>.h */
    char synclab_header[PATH_MAX];
    char system[MAX_SYSTEM_DIRS][PATH_MAX]; /* the compiler's own include folders */
    int nsystem;
} include_rules;

static int inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return n > 0 && strncmp(path, dir, n) == 0 && (path[n] == '/' || dir[n - 1] == '/');
}

/* The compiler's search list ("#include <...> search starts here:" of
 * gcc -v, printed before it reads the file, so the file cannot fake it),
 * less the folders we add ourselves with -I: the CUDA toolkit's and the
 * host compiler's system folders. */
static void read_system_dirs(include_rules *ir, const char *vlog, char *const ours[])
{
    const char *s = vlog ? strstr(vlog, "#include <...> search starts here:\n") : NULL;
    if (!s)
        return;
    s = strchr(s, '\n') + 1;
    while (*s == ' ' && ir->nsystem < MAX_SYSTEM_DIRS) {
        size_t len = strcspn(s, "\n");
        char dir[PATH_MAX], real[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)(len - 1), s + 1);
        s += len + (s[len] == '\n');
        if (!realpath(dir, real))
            continue;
        int mine = 0;
        for (char *const *o = ours; *o; o++) {
            char r2[PATH_MAX];
            mine |= realpath(*o + 2, r2) && strcmp(r2, real) == 0; /* skip "-I" */
        }
        if (!mine)
            snprintf(ir->system[ir->nsystem++], PATH_MAX, "%s", real);
    }
}

static void resolve_or_empty(const char *path, char *out)
{
    if (!realpath(path, out))
        out[0] = '\0';
}

static void init_rules(include_rules *ir, const sl_build_config *cfg, const char *lesson,
                       const char *source)
{
    memset(ir, 0, sizeof *ir);
    char dir[PATH_MAX], path[PATH_MAX];
    const char *base = strrchr(source, '/');
    snprintf(dir, sizeof dir, "%.*s", base ? (int)(base - source) : 1, base ? source : ".");
    resolve_or_empty(dir[0] ? dir : "/", ir->folder);
    resolve_or_empty(cfg->source_dir, ir->source_dir);
    snprintf(path, sizeof path, "%s/lessons/%s/%s.h", cfg->source_dir, lesson, lesson);
    resolve_or_empty(path, ir->lesson_header);
    snprintf(path, sizeof path, "%s/grader/runner/synclab.h", cfg->source_dir);
    resolve_or_empty(path, ir->synclab_header);
}

/* A hard link inside the submission's folder to one of the project's own
 * files (a solution, a lesson's reference or bug zoo): same device and
 * inode, another name. realpath() cannot see it, so the project's
 * solutions/ and lessons/ are searched for the inode (only for a file with
 * more than one name). */
static const struct stat *g_wanted;
static const char *g_folder;
static char g_twin[PATH_MAX];

static int same_inode(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)f;
    if (flag == FTW_F && st->st_ino == g_wanted->st_ino && st->st_dev == g_wanted->st_dev &&
        !inside(path, g_folder)) {
        snprintf(g_twin, sizeof g_twin, "%s", path);
        return 1;
    }
    return 0;
}

static int links_to_project_file(const include_rules *ir, const char *real, char *twin, size_t n)
{
    struct stat st;
    if (!ir->source_dir[0] || stat(real, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink < 2)
        return 0;
    static const char *const trees[] = {"solutions", "lessons", "grader", "starter", NULL};
    g_wanted = &st;
    g_folder = ir->folder;
    g_twin[0] = '\0';
    for (const char *const *t = trees; *t && !g_twin[0]; t++) {
        char dir[PATH_MAX + 32];
        snprintf(dir, sizeof dir, "%s/%s", ir->source_dir, *t);
        nftw(dir, same_inode, 16, FTW_PHYS);
    }
    snprintf(twin, n, "%s", g_twin);
    return g_twin[0] != '\0';
}

/* 1 when every file of the dependency list may be part of a submission;
 * else 0, with one line naming each other file. */
static int includes_allowed(const include_rules *ir, const char *deps, const char *label,
                            sl_text *why)
{
    const char *s = deps ? dependencies_of(deps) : NULL;
    if (!s) {
        sl_text_printf(why, "%s: error: the compiler listed no files it read\n", label);
        return 0;
    }
    int bad = 0;
    char path[PATH_MAX], real[PATH_MAX];
    while (next_dependency(&s, path, sizeof path)) {
        if (!realpath(path, real)) {
            sl_text_printf(why,
                           "%s: error: submission policy: the compiler read %s, which "
                           "cannot be resolved to a file\n",
                           label, path);
            bad++;
            continue;
        }
        char twin[PATH_MAX];
        if (ir->folder[0] && inside(real, ir->folder) &&
            links_to_project_file(ir, real, twin, sizeof twin)) {
            sl_text_printf(why,
                           "%s: error: submission policy: the file includes %s, which is "
                           "another name of %s (a hard link): include only your own "
                           "files\n",
                           label, path, twin);
            bad++;
            continue;
        }
        /* the student's own headers, however their names were built
         * (#include MACRO): the policy's rules (#line ...) hold there too */
        if (ir->folder[0] && inside(real, ir->folder)) {
            sl_policy p = {NULL};
            if (!sl_policy_check_file(&p, real, why)) {
                bad++;
                continue;
            }
        }
        int ok = (ir->folder[0] && inside(real, ir->folder)) ||
                 (ir->lesson_header[0] && strcmp(real, ir->lesson_header) == 0) ||
                 (ir->synclab_header[0] && strcmp(real, ir->synclab_header) == 0);
        for (int i = 0; !ok && i < ir->nsystem; i++)
            ok = inside(real, ir->system[i]);
        if (!ok) {
            sl_text_printf(why,
                           "%s: error: submission policy: the file includes %s%s%s, which "
                           "is outside your folder: include only your own files, the "
                           "lesson's header, synclab.h and system headers\n",
                           label, path, strcmp(path, real) ? " = " : "",
                           strcmp(path, real) ? real : "");
            bad++;
        }
    }
    return bad == 0;
}

/* ---------- which files are library code ----------
 * The static stages exempt some code of the CUDA headers (a cooperative
 * group's sync, libcu++'s barrier) and refuse other (CUB in the exercises
 * that teach it). Which PTX lines are such code is decided from this list,
 * never from a name the student writes: the files the compiler read (its
 * dependency list, resolved with realpath) that are neither the
 * submission's own nor the project's, and, for a submission, lie in the
 * compiler's and the toolkit's system folders. One path a line, next to
 * the PTX (SL_BUILD_LIBRARY_SUFFIX). */
static void write_library_list(const include_rules *ir, const char *deps, int submission,
                               const char *ptx)
{
    sl_text list = {0};
    const char *s = deps ? dependencies_of(deps) : NULL;
    char path[PATH_MAX], real[PATH_MAX];
    while (s && next_dependency(&s, path, sizeof path)) {
        if (!realpath(path, real))
            continue;
        int own = (ir->folder[0] && inside(real, ir->folder)) ||
                  (ir->source_dir[0] && inside(real, ir->source_dir)) ||
                  strcmp(real, ir->lesson_header) == 0 || strcmp(real, ir->synclab_header) == 0;
        int system = !submission;
        for (int i = 0; !system && i < ir->nsystem; i++)
            system = inside(real, ir->system[i]);
        if (!own && system)
            sl_text_printf(&list, "%s\n", real);
    }
    char out[PATH_MAX + 32];
    snprintf(out, sizeof out, "%s%s", ptx, SL_BUILD_LIBRARY_SUFFIX);
    sl_write_file(out, sl_text_str(&list));
    sl_text_free(&list);
}

/* ---------- what the assembler reads ----------
 * gas's .include and .incbin read files that no dependency list names, and
 * .macro/.irp can build those directives from pieces. The assembly gcc
 * handed to gas (-save-temps: <out>/student.s, string escapes already
 * processed, macros not yet expanded) is judged by the object check
 * (sl_hostobj_check_assembly): no inline assembly but nvcc's fatbinary, no
 * such directive anywhere. 1 when it may be used. */
static int assembly_allowed(const char *out_dir, const char *label, sl_text *why)
{
    char s_path[4200], ii_path[4200];
    snprintf(s_path, sizeof s_path, "%s/student.s", out_dir);
    snprintf(ii_path, sizeof ii_path, "%s/student.ii", out_dir);
    unlink(ii_path); /* gcc's own preprocessed copy: not needed */
    char *text = sl_read_file(s_path, 512u << 20, NULL);
    if (!text) {
        sl_text_printf(why,
                       "%s: error: submission policy: the host code's assembly (%s) "
                       "cannot be read\n",
                       label, s_path);
        return 0;
    }
    int ok = sl_hostobj_check_assembly(text, label, why);
    free(text);
    unlink(s_path);
    return ok;
}

/* ---------- the build ---------- */

static void absolute(const char *path, char *out, size_t n)
{
    char cwd[PATH_MAX];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(out, n, "%s", path);
    else
        snprintf(out, n, "%s/%s", cwd, path);
}

void sl_build_harness_lib(const char *harness_dir, const char *lesson, char *out, size_t n)
{
    snprintf(out, n, "%s/libsynclab_harness_%s.a", harness_dir, lesson);
}

/* nvcc runs its steps through sh and splits some arguments at commas: a
 * '$', '`', '"' or ',' in a path it is given runs a command or breaks the
 * build. The folders it writes are ours; the submission's folder (named by
 * a student or an LMS) it sees only through a link of our own name. */
int sl_build_folder_ok(const char *path)
{
    for (const unsigned char *c = (const unsigned char *)path; *c; c++)
        if (*c < 0x20 || *c == 0x7f || strchr(",\"$`\\", *c))
            return 0;
    return 1;
}

/* <out_dir>/src -> the submission's folder; the file to compile is
 * <out_dir>/src/<base>, which is also the name its compiler messages quote
 * (lesson_run.h shows them relative to the submission). A link that
 * pointed at another folder makes the last runner stale. */
static int link_submission(const char *out_dir, const char *folder, const char *base, char *source,
                           size_t n, const char *runner)
{
    char link[PATH_MAX + 16], old[PATH_MAX];
    snprintf(link, sizeof link, "%s/src", out_dir);
    ssize_t len = readlink(link, old, sizeof old - 1);
    old[len > 0 ? len : 0] = '\0';
    if (strcmp(old, folder) != 0) {
        unlink(runner);
        if (unlink(link) != 0 && errno != ENOENT)
            sl_remove_tree(link, 1); /* a folder in its place */
        if (!folder[0] || symlink(folder, link) != 0)
            return -1;
    }
    snprintf(source, n, "%s/%s", link, base);
    return 0;
}

void sl_build_lesson(const sl_build_config *cfg, const char *lesson, const char *source,
                     const char *out_dir, sl_build *b)
{
    memset(b, 0, sizeof *b);
    g_oom_killed = 0;
    sl_text log = {0};
    char obj[4096], dep[4096], predep[4096], deplog[4096], keep[4096], logpath[4096], arch[64];
    char stamp[4096];
    char inc_lesson[4096], inc_runner[4096], inc_run[4096];
    const char *label = sl_base_name(source);
    /* The compiler steps of a submission run in the runners' sandbox
     * (sandbox.h), which starts in its own folder: absolute paths. */
    char abs_source[PATH_MAX], abs_out[PATH_MAX], abs_project[PATH_MAX];
    absolute(source, abs_source, sizeof abs_source);
    absolute(out_dir, abs_out, sizeof abs_out);
    absolute(cfg->source_dir, abs_project, sizeof abs_project);
    source = abs_source;
    out_dir = abs_out;
    snprintf(b->runner, sizeof b->runner, "%s/runner", out_dir);
    snprintf(obj, sizeof obj, "%s/student.o", out_dir);
    snprintf(b->object, sizeof b->object, "%s", obj);
    snprintf(dep, sizeof dep, "%s/student.d", out_dir);
    snprintf(predep, sizeof predep, "%s/includes.d", out_dir);
    snprintf(deplog, sizeof deplog, "%s/includes.log", out_dir);
    snprintf(keep, sizeof keep, "%s/keep", out_dir);
    snprintf(logpath, sizeof logpath, "%s/build.log", out_dir);
    snprintf(stamp, sizeof stamp, "%s/arch", out_dir);
    sl_gpu_target_pick(cfg->arch, cfg->default_arch, cfg->nvcc_archs, &b->target);
    /* -arch=sm_XY: SASS for sm_XY and its PTX (compute_XY), which the
     * driver JITs for a newer GPU */
    snprintf(arch, sizeof arch, "-arch=sm_%s", b->target.arch);
    snprintf(inc_lesson, sizeof inc_lesson, "-I%s/lessons/%s", abs_project, lesson);
    snprintf(inc_runner, sizeof inc_runner, "-I%s/grader/runner", abs_project);
    /* the runner protocol's case format (case.h) */
    snprintf(inc_run, sizeof inc_run, "-I%s/grader/run", abs_project);
    char *const our_dirs[] = {inc_lesson, inc_runner, inc_run, NULL};
    /* -keep leaves the PTX as keep/<name>.ptx */
    const char *base = strrchr(source, '/');
    base = base ? base + 1 : source;
    snprintf(b->ptx, sizeof b->ptx, "%s/%.*s.ptx", keep, (int)strcspn(base, "."), base);
    include_rules ir;
    init_rules(&ir, cfg, lesson, source);
    /* what the compiler of a submission sees of the grader's trees (all
     * hidden in the sandbox): the submission's folder, the lesson's header,
     * the runner's headers and the case format's (grader/run); it writes only its build folder.
     * Nothing else it could read (an .incbin, a hard-linked solution)
     * exists there. */
    sl_sandbox sandbox = {0}, *box = NULL;
    char runner_dir[PATH_MAX + 32], run_dir[PATH_MAX + 32];
    snprintf(runner_dir, sizeof runner_dir, "%s/grader/runner", abs_project);
    snprintf(run_dir, sizeof run_dir, "%s/grader/run", abs_project);
    if (cfg->submission) {
        if (ir.folder[0])
            sl_sandbox_ro(&sandbox, ir.folder);
        if (ir.lesson_header[0])
            sl_sandbox_ro(&sandbox, ir.lesson_header);
        sl_sandbox_ro(&sandbox, runner_dir);
        sl_sandbox_ro(&sandbox, run_dir);
        sl_sandbox_rw(&sandbox, out_dir);
        box = &sandbox;
    }
    char *text = NULL, linked_source[PATH_MAX + 64];

    if (sl_mkdirs(keep) != 0) {
        sl_text_printf(&log, "error: cannot create %s\n", keep);
        goto out;
    }
    if (!sl_build_folder_ok(out_dir)) {
        sl_text_printf(&log,
                       "error: the build folder %s holds a character nvcc cannot take (one "
                       "of , \" $ ` \\ or a control character): grade into another --out\n",
                       out_dir);
        goto out;
    }
    if (access(source, R_OK) != 0) {
        sl_text_printf(&log, "error: %s: no such file\n", source);
        goto out;
    }
    if (link_submission(out_dir, ir.folder, base, linked_source, sizeof linked_source, b->runner) !=
        0) {
        sl_text_printf(&log, "error: cannot link %s/src to the submission's folder\n", out_dir);
        goto out;
    }
    source = linked_source;
    snprintf(b->compiled, sizeof b->compiled, "%s", linked_source);
    /* a submission's includes are judged again, with the system folders
     * its own dependency pass found (none: built as a non-submission) */
    char *vlog = cfg->submission ? sl_read_file(deplog, LOG_READ, NULL) : NULL;
    int cache_usable = !cfg->submission || (vlog && strstr(vlog, "End of search list."));
    read_system_dirs(&ir, vlog, our_dirs);
    free(vlog);
    if (cache_usable && built_for(stamp, b->target.arch) &&
        up_to_date(b->runner, dep, cfg->harness_lib, source) && access(b->ptx, R_OK) == 0) {
        text = sl_read_file(dep, 8 << 20, NULL);
        if (cfg->submission && !includes_allowed(&ir, text, label, &log))
            goto out;
        write_library_list(&ir, text, cfg->submission, b->ptx);
        b->ok = b->cached = 1;
        char *old = sl_read_file(logpath, LOG_READ, NULL);
        sl_text_printf(&log, "%s", old ? old : "");
        free(old);
        goto out;
    }
    unlink(b->runner);
    unlink(obj);
    unlink(stamp);
    arch_note(&b->target, &log);
    size_t noted = strlen(sl_text_str(&log));
    if (!cfg->submission)
        unlink(deplog); /* its cache is no submission's: judged afresh next time */
    /* The files the compiler will read, found by preprocessing alone with
     * the same flags (nvcc -M covers the host and the device passes):
     * nothing from outside the submission is ever compiled. gcc's -v
     * prints its system folders on the way. */
    char *deps_cmd[] = {(char *)cfg->nvcc,
                        "-std=c++17",
                        arch,
                        "-lineinfo",
                        "-O3",
                        inc_lesson,
                        inc_runner,
                        inc_run,
                        "-M",
                        "-MT",
                        "student.deps",
                        "-Xcompiler",
                        "-v",
                        (char *)source,
                        "-o",
                        predep,
                        NULL};
    sl_text deps_log = {0};
    double deps_timeout = DEPS_TIMEOUT_S < cfg->timeout_s ? DEPS_TIMEOUT_S : cfg->timeout_s;
    int preprocessed = !cfg->submission || run_tool(deps_cmd, deplog, deps_timeout, &deps_log, box);
    if (!preprocessed) {
        /* its errors, without gcc -v's chatter */
        const char *l = sl_text_str(&deps_log), *end = strstr(l, "End of search list.\n");
        while (end && strstr(end + 1, "End of search list.\n"))
            end = strstr(end + 1, "End of search list.\n");
        for (const char *p = end ? end : l; *p;) {
            size_t len = strcspn(p, "\n");
            if (strstr(p, "error") && strstr(p, "error") < p + len)
                sl_text_printf(&log, "%.*s\n", (int)len, p);
            p += len + (p[len] == '\n');
        }
        if (strlen(sl_text_str(&log)) == noted)
            sl_text_printf(&log, "%s", sl_text_str(&deps_log));
        sl_text_free(&deps_log);
        goto out;
    }
    ir.nsystem = 0;
    read_system_dirs(&ir, sl_text_str(&deps_log), our_dirs);
    sl_text_free(&deps_log);
    if (cfg->submission) {
        text = sl_read_file(predep, 8 << 20, NULL);
        if (!includes_allowed(&ir, text, label, &log))
            goto out;
        free(text);
        text = NULL;
    }

    char *compile[] = {(char *)cfg->nvcc,
                       "-std=c++17",
                       arch,
                       "-lineinfo",
                       "-O3",
                       inc_lesson,
                       inc_runner,
                       inc_run,
                       "-MD",
                       "-MF",
                       dep,
                       "-keep",
                       "-keep-dir",
                       keep,
                       "-Xcompiler",
                       "-save-temps=obj",
                       "-c",
                       (char *)source,
                       "-o",
                       obj,
                       NULL};
    char s_path[4200];
    snprintf(s_path, sizeof s_path, "%s/student.s", out_dir);
    unlink(s_path);
    int compiled = run_tool(compile, logpath, cfg->timeout_s, &log, box);
    if (cfg->submission && strstr(sl_text_str(&log), "Assembler messages:")) {
        /* never the assembler's words: they may quote a file it read */
        sl_text_clear(&log);
        sl_text_printf(&log,
                       "%s: error: submission policy: the host code's inline assembly "
                       "does not assemble: hand in C++ host code\n",
                       label);
        unlink(obj);
        goto out;
    }
    if (!cfg->submission) { /* -save-temps' copies: only a submission's are read */
        char ii_path[4200];
        snprintf(ii_path, sizeof ii_path, "%s/student.ii", out_dir);
        unlink(ii_path);
        unlink(s_path);
    }
    if (cfg->submission && compiled) {
        sl_text asm_why = {0};
        if (!assembly_allowed(out_dir, label, &asm_why)) {
            /* only the policy's words: the log may quote what was read */
            sl_text_clear(&log);
            sl_text_printf(&log, "%s", sl_text_str(&asm_why));
            sl_text_free(&asm_why);
            unlink(obj);
            goto out;
        }
        sl_text_free(&asm_why);
    }
    if (!compiled)
        goto out;
    /* what the compile itself read: the same list, unless a file changed
     * between the two passes */
    text = sl_read_file(dep, 8 << 20, NULL);
    if (cfg->submission && !includes_allowed(&ir, text, label, &log)) {
        unlink(obj);
        goto out;
    }
    /* the student's launches and copies go through the runner's wrappers
     * (runner_main.cu); the harness keeps the real calls */
    char linked[4200];
    snprintf(linked, sizeof linked, "%s/student.linked.o", out_dir);
    char *rename[4 + 2 * (sizeof WRAPPED / sizeof WRAPPED[0])];
    char renames[sizeof WRAPPED / sizeof WRAPPED[0]][96];
    int k = 0;
    rename[k++] = "objcopy";
    for (size_t i = 0; i < sizeof WRAPPED / sizeof WRAPPED[0]; i++) {
        snprintf(renames[i], sizeof renames[i], "%s=sl_student_%s", WRAPPED[i], WRAPPED[i]);
        rename[k++] = "--redefine-sym";
        rename[k++] = renames[i];
    }
    rename[k++] = obj;
    rename[k++] = linked;
    rename[k] = NULL;
    char renamelog[4200];
    snprintf(renamelog, sizeof renamelog, "%s/objcopy.log", out_dir);
    if (!run_tool(rename, renamelog, cfg->timeout_s, &log, NULL))
        goto out;
    /* cooperative launches are counted whoever makes them: the harness
     * launches some of the student's kernels itself */
    /* and the runner's wall (libseccomp) and driver watch (CUPTI, found
     * at run time in the toolkit's folder) */
    char cupti_rpath[4200];
    snprintf(cupti_rpath, sizeof cupti_rpath, "-rpath=%s", SYNCLAB_CUPTI_DIR);
    char *link[] = {(char *)cfg->nvcc,
                    arch,
                    "-Xlinker",
                    "--wrap=cudaLaunchCooperativeKernel",
                    linked,
                    (char *)cfg->harness_lib,
                    SYNCLAB_SECCOMP_LIB,
                    SYNCLAB_CUPTI_LIB,
                    "-Xlinker",
                    cupti_rpath,
                    "-o",
                    b->runner,
                    NULL};
    char linklog[4096];
    snprintf(linklog, sizeof linklog, "%s/link.log", out_dir);
    if (!run_tool(link, linklog, cfg->timeout_s, &log, NULL))
        goto out;
    b->ok = access(b->ptx, R_OK) == 0;
    write_library_list(&ir, text, cfg->submission, b->ptx);
    if (!b->ok)
        sl_text_printf(&log, "error: nvcc left no PTX at %s\n", b->ptx);
    /* rewrite the log so a cached build shows the same warnings */
    sl_write_file(logpath, sl_text_str(&log));
    sl_write_file(stamp, b->target.arch);
out:
    free(text);
    long long room;
    if (!b->ok && g_oom_killed)
        b->no_memory = 1;
    if (!b->ok && sl_disk_low(out_dir, &room)) {
        /* nvcc that cannot write its object fails as a file that does not
         * compile would: judged by the disk, which the student cannot fill */
        b->no_disk = 1;
        sl_text_printf(&log,
                       "error: the grader's disk is full (%lld MB free under %s): the build "
                       "could not be judged\n",
                       room / 1000000, out_dir);
    }
    b->log = strdup(sl_text_str(&log));
    sl_text_free(&log);
    if (!b->ok)
        unlink(b->runner);
}

void sl_build_free(sl_build *b)
{
    free(b->log);
    b->log = NULL;
}

/* ---------- one runner for several lessons ---------- */

int sl_build_lessons_runner(const sl_build_config *cfg, const char *harness_dir,
                            const char *const *lessons, const char *const *build_dirs, int n,
                            const char *arch_sm, const char *out_dir, char *runner,
                            size_t runner_len, sl_text *log)
{
    enum { MAX = 16 };
    if (n < 1 || n > MAX || !sl_build_folder_ok(out_dir) || sl_mkdirs(out_dir) != 0)
        return 0; /* nvcc splits some arguments at commas, as for each lesson */
    char objects[MAX][4200], libs[MAX][4200], arch[64], list[4300], renames[4300];
    snprintf(arch, sizeof arch, "-arch=sm_%s", arch_sm);
    snprintf(runner, runner_len, "%s/runner", out_dir);
    unlink(runner);
    for (int i = 0; i < n; i++) {
        char linked[4300], objlog[4300];
        snprintf(linked, sizeof linked, "%s/student.linked.o", build_dirs[i]);
        snprintf(libs[i], sizeof libs[i], "%s/libsynclab_lesson_runner_%s.a", harness_dir,
                 lessons[i]);
        snprintf(objects[i], sizeof objects[i], "%s/%s.o", out_dir, lessons[i]);
        snprintf(list, sizeof list, "%s/%s.local", out_dir, lessons[i]);
        snprintf(renames, sizeof renames, "%s/%s.renamed", out_dir, lessons[i]);
        snprintf(objlog, sizeof objlog, "%s/objcopy-%s.log", out_dir, lessons[i]);
        sl_text hide = {0}, rename = {0}, pairs = {0};
        int ok = sl_hostobj_lesson_names(linked, libs[i], &hide, &rename) == 0;
        /* "name name.sl.<lesson>": a name no C++ source can spell */
        for (const char *l = sl_text_str(&rename); ok && *l;) {
            size_t len = strcspn(l, "\n");
            sl_text_printf(&pairs, "%.*s %.*s.sl.%s\n", (int)len, l, (int)len, l, lessons[i]);
            l += len + (l[len] == '\n');
        }
        ok = ok && sl_write_file(list, sl_text_str(&hide)) == 0 &&
             sl_write_file(renames, sl_text_str(&pairs)) == 0;
        sl_text_free(&hide);
        sl_text_free(&rename);
        sl_text_free(&pairs);
        char localize_opt[4400], redefine_opt[4400];
        snprintf(localize_opt, sizeof localize_opt, "--localize-symbols=%s", list);
        snprintf(redefine_opt, sizeof redefine_opt, "--redefine-syms=%s", renames);
        char *copy[] = {"objcopy", localize_opt, redefine_opt, linked, objects[i], NULL};
        if (!ok || !run_tool(copy, objlog, cfg->timeout_s, log, NULL)) {
            sl_text_printf(log, "error: %s: its object cannot join the others\n", lessons[i]);
            return 0;
        }
    }
    /* each lesson's table asked for by name: the list in
     * libsynclab_runner_lessons.a names them weakly, which pulls nothing
     * from an archive */
    char cupti_rpath[4200], common[4200], linklog[4300];
    snprintf(cupti_rpath, sizeof cupti_rpath, "-rpath=%s", SYNCLAB_CUPTI_DIR);
    snprintf(common, sizeof common, "%s/libsynclab_runner_lessons.a", harness_dir);
    snprintf(linklog, sizeof linklog, "%s/link.log", out_dir);
    char undefined[MAX][160];
    char *link[16 + 4 * MAX];
    int k = 0;
    link[k++] = (char *)cfg->nvcc;
    link[k++] = arch;
    link[k++] = "-Xlinker";
    link[k++] = "--wrap=cudaLaunchCooperativeKernel";
    for (int i = 0; i < n; i++) {
        snprintf(undefined[i], sizeof undefined[i], "--undefined=sl_runner_exercises_%s",
                 lessons[i]);
        link[k++] = "-Xlinker";
        link[k++] = undefined[i];
    }
    for (int i = 0; i < n; i++)
        link[k++] = objects[i];
    for (int i = 0; i < n; i++)
        link[k++] = libs[i];
    link[k++] = common;
    link[k++] = SYNCLAB_SECCOMP_LIB;
    link[k++] = SYNCLAB_CUPTI_LIB;
    link[k++] = "-Xlinker";
    link[k++] = cupti_rpath;
    link[k++] = "-o";
    link[k++] = runner;
    link[k] = NULL;
    if (!run_tool(link, linklog, cfg->timeout_s, log, NULL)) {
        unlink(runner);
        return 0;
    }
    return 1;
}
