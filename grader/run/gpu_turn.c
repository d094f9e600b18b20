#include "gpu_turn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpu_arch.h"
#include "proc.h"
#include "trace.h"

enum { OUT, SHARED, ALONE };

static int g_turn = -1, g_room = -1, g_want = -1, g_state = OUT, g_usable;
static pid_t g_owner;        /* the process that opened them: a forked child reopens */
static double g_alone_since; /* sl_now() when this process got the GPU alone */

static const char *tmp_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

void sl_gpu_lock_prefix(char *out, unsigned long n)
{
    const char *p = getenv("SYNCLAB_GPU_LOCK");
    if (p && *p) {
        snprintf(out, n, "%s", p);
        return;
    }
    /* one lock per GPU, named for the GPU this process's runners use: one
     * file for the machine made graders on different GPUs (Slurm tasks of
     * one GPU each, ctest split over GPUs) wait for each other's turns */
    char key[SL_GPU_ID];
    sl_gpu_lock_key(getenv("CUDA_VISIBLE_DEVICES"), sl_gpu_caps_listed(), key, sizeof key);
    snprintf(out, n, "%s/synclab-gpu-%s", tmp_dir(), key);
}

void sl_gpu_lock_folder(char *out, unsigned long n)
{
    const char *p = getenv("SYNCLAB_GPU_LOCK");
    if (!p || !*p) {
        snprintf(out, n, "%s", tmp_dir());
        return;
    }
    const char *slash = strrchr(p, '/');
    snprintf(out, n, "%.*s", slash ? (int)(slash - p) : 0, p);
}

static int open_lock(const char *prefix, const char *suffix)
{
    char path[4096];
    snprintf(path, sizeof path, "%s.%s", prefix, suffix);
    /* An existing file is opened without O_CREAT: fs.protected_regular
     * (systemd's default 1) refuses O_CREAT on another user's file in a
     * sticky folder like /tmp, even to root, and another user's grader on
     * this GPU may have made it. */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0 || errno != ENOENT)
        return fd;
    fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0)
        fchmod(fd, 0666);     /* other users' graders take turns too (umask) */
    else if (errno == EEXIST) /* another grader made it meanwhile */
        fd = open(path, O_RDONLY | O_CLOEXEC);
    return fd;
}

static void trace(const char *what)
{
    if (sl_tracing())
        fprintf(stderr, "[trace] gpu turn: %s\n", what);
}

static int usable(void)
{
    if (g_owner != getpid()) {
        /* A forked child shares its parent's open files, and with them the
         * parent's lock: it must never unlock that one. */
        if (g_turn >= 0)
            close(g_turn);
        if (g_room >= 0)
            close(g_room);
        if (g_want >= 0)
            close(g_want);
        g_state = OUT;
        g_owner = getpid();
        char prefix[4000];
        sl_gpu_lock_prefix(prefix, sizeof prefix);
        g_turn = open_lock(prefix, "turn");
        g_room = open_lock(prefix, "room");
        g_want = open_lock(prefix, "want");
        g_usable = g_turn >= 0 && g_room >= 0 && g_want >= 0;
        if (!g_usable)
            trace("no lock file: runs are not coordinated with other graders");
        else if (sl_tracing())
            fprintf(stderr, "[trace] gpu turn: locks %s.*\n", prefix);
    }
    return g_usable;
}

static void lock(int fd, int op)
{
    /* Waiting for a turn may take a neighbour's whole exercise: our own
     * runs that go on meanwhile (the tools beside a plain run) must still
     * meet their limits, so with children running the wait polls. */
    while (op != LOCK_UN && sl_proc_watch_children() > 0) {
        if (flock(fd, op | LOCK_NB) == 0)
            return;
        if (errno != EWOULDBLOCK && errno != EINTR)
            break;
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    while (flock(fd, op) != 0 && errno == EINTR)
        ;
}

void sl_gpu_leave(void)
{
    if (!usable() || g_state == OUT) /* usable() first: it forgets a parent's turn */
        return;
    lock(g_room, LOCK_UN);
    if (g_state == ALONE) {
        lock(g_turn, LOCK_UN);
        lock(g_want, LOCK_UN);
        /* the time the GPU served no one else (bench-class adds them up) */
        if (sl_tracing())
            fprintf(stderr, "[trace] gpu turn: was alone %.1f s\n", sl_now() - g_alone_since);
    }
    g_state = OUT;
}

void sl_gpu_share(void)
{
    if (!usable() || g_state == SHARED)
        return;
    sl_gpu_leave();
    /* behind everyone who waits to be alone, not just the first of them */
    lock(g_want, LOCK_EX);
    lock(g_room, LOCK_SH);
    lock(g_want, LOCK_UN);
    g_state = SHARED;
}

void sl_gpu_alone(void)
{
    if (!usable() || g_state == ALONE)
        return;
    sl_gpu_leave(); /* waiting for the room while in it would wait forever */
    trace("waiting to have the GPU alone");
    double t0 = sl_now();
    lock(g_want, LOCK_SH); /* from now on no new sharer gets in */
    lock(g_turn, LOCK_EX); /* the graders that wait to be alone, one by one */
    lock(g_room, LOCK_EX);
    g_state = ALONE;
    g_alone_since = sl_now();
    if (sl_tracing())
        fprintf(stderr, "[trace] gpu turn: alone after %.1f s\n", g_alone_since - t0);
}
