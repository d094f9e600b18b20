#include "runner_call.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "files.h"
#include "levers.h"
#include "mps.h"
#include "sanitizer.h"

enum {
    /* A run's output folder: its case files and a few more entries. A file
     * may hold SL_RUN_LOG_CAP plus OUT_PER_IN times the run's inputs
     * (RLIMIT_FSIZE): no exercise writes more than a few bytes per input
     * byte, and a 2^25-element case writes 128 MiB. */
    OUT_QUOTA_SLACK = 16,
    OUT_PER_IN = 8,
    CPU_PER_WALL = 4, /* RLIMIT_CPU: a sanitizer keeps several cores busy */
};
#define OUT_QUOTA_MAX (1LL << 30)

int sl_runner_argv(const char *runner, const char *sanitizer, int tool, const sl_runner_group *g,
                   int n, const char **argv)
{
    int k = tool ? sl_sanitizer_args(tool, sanitizer, argv) : 0;
    argv[k++] = runner;
    argv[k++] = "run"; /* under a tool too: the mode goes by the environment */
    for (int i = 0; i < n; i++) {
        argv[k++] = g[i].exercise;
        argv[k++] = g[i].dir;
        argv[k++] = g[i].count;
        argv[k++] = g[i].out;
    }
    argv[k] = NULL;
    return k;
}

/* The harness reads its mode from here in a constructor that runs before
 * any student code, then wipes it (runner_main.cu): plain runs and tool
 * runs have the same argv and the same environment names. With the
 * "alloc" lever a plain run keeps the harness's device memory between
 * inputs, with "toolalloc" racecheck and synccheck runs too (levers.h);
 * memcheck and initcheck runs never do: they judge global memory by its
 * allocations. */
enum { PLAIN_EXACT, PLAIN_REUSE, TOOL_EXACT, TOOL_REUSE, NENVS, ENV_MAX = 6 };
static const char *const MODE_VARS[NENVS][2] = {
    {"SYNCLAB_RUN_MODE=plain", "SYNCLAB_DEVICE_MEMORY=exact"},
    {"SYNCLAB_RUN_MODE=plain", "SYNCLAB_DEVICE_MEMORY=reuse"},
    {"SYNCLAB_RUN_MODE=tools", "SYNCLAB_DEVICE_MEMORY=exact"},
    {"SYNCLAB_RUN_MODE=tools", "SYNCLAB_DEVICE_MEMORY=reuse"},
};
/* "connections": one hardware work queue instead of eight. No harness
 * runs two streams at once, and a context with one queue took a third
 * less time to make under the driver's machine-wide lock (levers.h). */
static const char CONNECTIONS_VAR[] = "CUDA_DEVICE_MAX_CONNECTIONS=1";
/* "sleepwait": the harness's waits for a kernel spin briefly, then sleep
 * (runner_main.cu: sl_launched) */
static const char WAIT_VAR[] = "SYNCLAB_GPU_WAIT=hybrid";
/* One array per mode, as runs of both kinds start together (an MPS
 * client gets a copy with the pipe variable added: sl_runner_mps_client). */
static const char *g_envs[NENVS][ENV_MAX];

static const char *const *env_of_mode(int mode)
{
    const char **e = g_envs[mode];
    int k = 0;
    e[k++] = MODE_VARS[mode][0];
    e[k++] = MODE_VARS[mode][1];
    if (sl_lever_on("connections"))
        e[k++] = CONNECTIONS_VAR;
    if (sl_lever_on("sleepwait"))
        e[k++] = WAIT_VAR;
    e[k] = NULL;
    return e;
}

static const char *const *run_env(int tool)
{
    int mode;
    if (!tool)
        mode = sl_lever_on("alloc") ? PLAIN_REUSE : PLAIN_EXACT;
    else {
        /* racecheck watches shared memory only, synccheck barriers: neither
         * looks at where a global buffer ends */
        int blind = tool == SL_TOOL_RACECHECK || tool == SL_TOOL_SYNCCHECK;
        mode = blind && sl_lever_on("toolalloc") ? TOOL_REUSE : TOOL_EXACT;
    }
    return env_of_mode(mode);
}

void sl_runner_opts(const char *runner, const char *sanitizer, int tool, const char *in_dir,
                    const char *out_dir, int cases, const char *logpath, double timeout_s,
                    sl_sandbox *box, sl_proc_opts *o)
{
    static char sanitizer_dir[4096];
    memset(box, 0, sizeof *box);
    memset(o, 0, sizeof *o);
    sl_sandbox_ro(box, runner);
    sl_sandbox_ro(box, in_dir);
    if (tool && sanitizer) {
        /* the tool and its libraries, should they live under a hidden folder */
        char real[4096];
        snprintf(sanitizer_dir, sizeof sanitizer_dir, "%s",
                 realpath(sanitizer, real) ? real : sanitizer);
        char *slash = strrchr(sanitizer_dir, '/');
        if (slash && slash != sanitizer_dir) {
            *slash = '\0';
            sl_sandbox_ro(box, sanitizer_dir);
        }
    }
    sl_sandbox_rw(box, out_dir);
    box->cpu_s = timeout_s > 0 ? timeout_s * CPU_PER_WALL : 0;
    long long in_entries = 0, in_bytes = 0;
    if (in_dir)
        sl_tree_usage(in_dir, &in_entries, &in_bytes);
    long long out_room = OUT_PER_IN * in_bytes;
    o->out_path = logpath;
    if (logpath)
        sl_runner_program_log(logpath, o->program_path, sizeof o->program_path);
    o->out_cap = (size_t)(SL_RUN_LOG_CAP + out_room);
    o->timeout_s = timeout_s;
    o->ready_mark = SL_RUNNER_READY;
    o->start_s = SL_RUNNER_START_S;
    o->box = box;
    o->env = run_env(tool);
    o->quota_dir = out_dir;
    o->quota_entries = cases + OUT_QUOTA_SLACK;
    long long bytes = (long long)(cases + 1) * SL_RUN_LOG_CAP;
    o->quota_bytes = (bytes < OUT_QUOTA_MAX ? bytes : OUT_QUOTA_MAX) + out_room;
}

void sl_runner_program_log(const char *logpath, char *out, size_t n)
{
    snprintf(out, n, "%s.program", logpath);
}

char *sl_runner_log(const char *logpath)
{
    char *text = sl_read_ends(logpath, SL_RUN_LOG_READ, SL_RUN_LOG_TAIL);
    return text ? text : calloc(1, 1);
}

int sl_runner_mps_client(sl_sandbox *box, sl_proc_opts *o)
{
    const char *pipes = sl_mps_pipes();
    if (!pipes)
        return 0;
    /* the harness's environment as sl_runner_opts chose it, and where the
     * daemon is */
    static char pipe_var[4200];
    static const char *with_pipes[NENVS][ENV_MAX + 1];
    snprintf(pipe_var, sizeof pipe_var, "CUDA_MPS_PIPE_DIRECTORY=%s", pipes);
    int mode = NENVS - 1;
    while (mode > 0 && o->env != g_envs[mode])
        mode--;
    if (o->env != g_envs[mode])
        env_of_mode(mode = PLAIN_EXACT); /* not one of ours: the stricter wall */
    int k = 0;
    for (; g_envs[mode][k] && k < ENV_MAX - 1; k++)
        with_pipes[mode][k] = g_envs[mode][k];
    with_pipes[mode][k++] = pipe_var;
    with_pipes[mode][k] = NULL;
    o->env = with_pipes[mode];
    box->mps_pipes = pipes;
    return 1;
}

/* The group that just ended counted launches, and all were 0. */
static void close_group(sl_log_progress *p, int counted, long long launches, int upto)
{
    if (counted && launches == 0 && (upto < 0 || p->groups <= upto))
        p->launched = 0;
}

/* "@@launches N" ends each input (the harness counts the kernels the
 * student's code launched); "@@case i" starts one, "@@exercise x" starts
 * a group of a sweep. Per input only the last count is taken: the harness
 * prints it after the student's code and its printf are done. */
sl_log_progress sl_log_read(const char *logpath, int upto)
{
    sl_log_progress p = {0, 1};
    FILE *f = sl_case_open(logpath, NULL, 0);
    if (!f)
        return p;
    char *line = NULL;
    size_t cap = 0;
    long long group = 0, current = -1;
    int group_counted = 0;
    for (ssize_t len; (len = getline(&line, &cap, f)) >= 0;) {
        if (strncmp(line, "@@case ", 7) == 0 || strncmp(line, "@@exercise ", 11) == 0) {
            if (current > 0)
                group += current;
            current = -1;
            if (line[2] == 'e') {
                close_group(&p, group_counted, group, upto);
                p.groups++;
                group = 0;
                group_counted = 0;
            }
        } else if (strncmp(line, "@@launches ", 11) == 0) {
            current = atoll(line + 11);
            group_counted = 1;
        }
    }
    if (current > 0)
        group += current;
    close_group(&p, group_counted, group, upto);
    free(line);
    fclose(f);
    return p;
}

int sl_log_launched(const char *logpath) { return sl_log_read(logpath, -1).launched; }
