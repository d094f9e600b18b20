#include "jobs.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "contain.h"
#include "proc.h"

int sl_jobs_default_parallel(void)
{
    int cpus = sl_jobs_cpu_count();
    return cpus > 2 ? cpus / 2 : 1;
}

int sl_jobs_cpu_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 1 ? (int)cpus : 1;
}

static int start(const sl_jobs *j, int job, pid_t *pid)
{
    fflush(NULL); /* buffered output must not be printed twice */
    *pid = fork();
    if (*pid < 0)
        return -1;
    if (*pid == 0)
        _exit(j->work(job, j->arg));
    return 0;
}

static int slot_of(const pid_t *running, int parallel, pid_t pid)
{
    for (int s = 0; s < parallel; s++)
        if (running[s] == pid)
            return s;
    return -1;
}

int sl_jobs_run(const sl_jobs *j)
{
    int parallel = j->parallel > 0 ? j->parallel : 1, failed = 0, next = 0, active = 0;
    pid_t *running = calloc((size_t)parallel, sizeof *running);
    int *which = calloc((size_t)parallel, sizeof *which);
    double *started = calloc((size_t)parallel, sizeof *started);
    if (!running || !which || !started) {
        free(running);
        free(which);
        free(started);
        return j->count;
    }
    sl_contain_adopt_orphans();
    while (next < j->count || active > 0) {
        for (int s = 0; s < parallel && next < j->count; s++) {
            if (running[s])
                continue;
            int prepared = !j->prepare || j->prepare(next, j->arg) == 0;
            if (!prepared || start(j, next, &running[s]) != 0) {
                running[s] = 0;
                failed++;
                if (j->done)
                    j->done(next, -1, j->arg);
            } else {
                which[s] = next;
                started[s] = sl_now();
                active++;
            }
            next++;
        }
        if (active == 0)
            continue;
        int status;
        pid_t pid = j->deadline_s > 0 ? waitpid(-1, &status, WNOHANG) : waitpid(-1, &status, 0);
        if (pid == 0) { /* none ended yet: kill those past their deadline */
            for (int k = 0; k < parallel; k++)
                if (running[k] && sl_now() - started[k] > j->deadline_s)
                    kill(running[k], SIGKILL);
            struct timespec pause = {0, 20 * 1000 * 1000};
            nanosleep(&pause, NULL);
            continue;
        }
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid < 0)
            break;
        int s = slot_of(running, parallel, pid);
        if (s < 0)
            continue; /* an orphan we adopted, ended by itself */
        running[s] = 0;
        active--;
        /* the job's leftovers go with it; the other jobs are kept */
        sl_contain_kill_children(running, parallel, 5.0);
        if (j->done)
            j->done(which[s], status, j->arg);
    }
    free(running);
    free(which);
    free(started);
    return failed;
}
