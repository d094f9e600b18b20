/* Bounded parallel work in forked children: students of a class, lessons
 * of a submission, sources of a determinism run. The grader never calls
 * CUDA, so forking it is safe. The parent is a child subreaper: whatever a
 * job leaves behind (a runner's daemon) is killed when the job ends. */
#ifndef SYNCLAB_JOBS_H
#define SYNCLAB_JOBS_H

typedef struct {
    int count;    /* jobs 0..count-1 */
    int parallel; /* at most this many at once (>= 1) */
    void *arg;
    /* Runs in the parent just before job is forked (opening what the job
     * reports through, say). 0 to go on; otherwise the job is not started
     * and done() gets status -1. May be NULL. */
    int (*prepare)(int job, void *arg);
    /* Runs in the child; its return value is the child's exit code. */
    int (*work)(int job, void *arg);
    /* Runs in the parent when a job ended (status from waitpid), in the
     * order jobs end. May be NULL. */
    void (*done)(int job, int status, void *arg);
    /* A job still running this many seconds after it started is killed
     * (SIGKILL; done() then sees a signalled status): no slot is held for
     * good by a job that hangs where no stage's own limit reaches (an
     * output file that blocks). 0: no deadline. */
    double deadline_s;
} sl_jobs;

/* Runs every job; returns how many could not be started (fork failed). */
int sl_jobs_run(const sl_jobs *j);
/* A sensible default for parallel: half the CPU cores this process may
 * use (sl_jobs_cpu_count: a Slurm allocation's, not the node's), at
 * least 1. */
int sl_jobs_default_parallel(void);
/* The CPU cores this process may run on (its affinity mask, so a Slurm
 * allocation or taskset counts, not the whole machine), at least 1. */
int sl_jobs_cpu_count(void);

#endif
