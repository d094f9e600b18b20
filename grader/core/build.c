#include "build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"
#include "text.h"

enum { LOG_CAP = 16 << 20, LOG_READ = 64 << 10 };

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
    char *colon = strchr(deps, ':');
    for (char *tok = strtok(colon ? colon + 1 : deps, " \t\r\n\\"); tok && ok;
         tok = strtok(NULL, " \t\r\n\\"))
        if (mtime_of(tok, &t) != 0 || newer(&t, &built))
            ok = 0;
    free(deps);
    return ok;
}

static int run_tool(char *const argv[], const char *logpath, double timeout_s, sl_text *log)
{
    sl_proc_result r;
    sl_proc_run(argv, logpath, LOG_CAP, timeout_s, &r);
    char *text = sl_read_file(logpath, LOG_READ, NULL);
    if (text) {
        sl_text_printf(log, "%s", text);
        free(text);
    }
    if (r.timed_out)
        sl_text_printf(log, "error: the compiler did not finish in %.0f s\n", timeout_s);
    else if (r.spawn_failed)
        sl_text_printf(log, "error: cannot run %s\n", argv[0]);
    return r.exited && r.code == 0;
}

void sl_build_lesson(const sl_build_config *cfg, const char *lesson, const char *source,
                     const char *out_dir, sl_build *b)
{
    memset(b, 0, sizeof *b);
    sl_text log = {0};
    char obj[4096], dep[4096], keep[4096], logpath[4096], arch[64];
    char inc_lesson[4096], inc_runner[4096], inc_core[4096];
    snprintf(b->runner, sizeof b->runner, "%s/runner", out_dir);
    snprintf(obj, sizeof obj, "%s/student.o", out_dir);
    snprintf(dep, sizeof dep, "%s/student.d", out_dir);
    snprintf(keep, sizeof keep, "%s/keep", out_dir);
    snprintf(logpath, sizeof logpath, "%s/build.log", out_dir);
    snprintf(arch, sizeof arch, "-arch=sm_%s", cfg->arch);
    snprintf(inc_lesson, sizeof inc_lesson, "-I%s/lessons/%s", cfg->source_dir, lesson);
    snprintf(inc_runner, sizeof inc_runner, "-I%s/grader/runner", cfg->source_dir);
    snprintf(inc_core, sizeof inc_core, "-I%s/grader/core", cfg->source_dir);
    /* -keep leaves the PTX as keep/<name>.ptx */
    const char *base = strrchr(source, '/');
    base = base ? base + 1 : source;
    snprintf(b->ptx, sizeof b->ptx, "%s/%.*s.ptx", keep, (int)strcspn(base, "."), base);

    if (sl_mkdirs(keep) != 0) {
        sl_text_printf(&log, "error: cannot create %s\n", keep);
        goto out;
    }
    if (access(source, R_OK) != 0) {
        sl_text_printf(&log, "error: %s: no such file\n", source);
        goto out;
    }
    if (up_to_date(b->runner, dep, cfg->harness_lib, source) && access(b->ptx, R_OK) == 0) {
        b->ok = b->cached = 1;
        char *old = sl_read_file(logpath, LOG_READ, NULL);
        sl_text_printf(&log, "%s", old ? old : "");
        free(old);
        goto out;
    }
    unlink(b->runner);
    char *compile[] = {(char *)cfg->nvcc, "-std=c++17", arch, "-lineinfo", "-O3",
                       inc_lesson, inc_runner, inc_core, "-MD", "-MF", dep,
                       "-keep", "-keep-dir", keep, "-c", (char *)source, "-o", obj, NULL};
    if (!run_tool(compile, logpath, cfg->timeout_s, &log))
        goto out;
    char *link[] = {(char *)cfg->nvcc, arch, obj, (char *)cfg->harness_lib, "-o", b->runner, NULL};
    char linklog[4096];
    snprintf(linklog, sizeof linklog, "%s/link.log", out_dir);
    if (!run_tool(link, linklog, cfg->timeout_s, &log))
        goto out;
    b->ok = access(b->ptx, R_OK) == 0;
    if (!b->ok)
        sl_text_printf(&log, "error: nvcc left no PTX at %s\n", b->ptx);
    /* rewrite the log so a cached build shows the same warnings */
    sl_write_file(logpath, sl_text_str(&log));
out:
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
