/* syncgrade class and syncgrade merge: a whole class, on one GPU or
 * several (--gpus), in one run or in shards (--shard K/N) joined later. */
#include <stdio.h>
#include <string.h>

#include "class.h"
#include "gpus.h"
#include "jobs.h"
#include "levers.h"
#include "merge.h"
#include "mps.h"
#include "points.h"
#include "shard.h"
#include "synclab_config.h"

#include "cli.h"

/* Students running at once: --jobs per GPU (with the stagger lever,
 * class.c grades three times as many at once). By default the CPUs this process may
 * use decide (its affinity mask: a Slurm allocation, not the node): a
 * quarter of them, at least one per GPU; the jobs lever (levers.h) makes
 * it one per core. More at once did not help on an H200: its driver makes
 * the runners' CUDA contexts one at a time (levers.h). */
static int class_jobs(const options *o, int gpus)
{
    if (o->jobs > 0)
        return o->jobs * gpus;
    int cpu_bound =
        sl_lever_on("jobs") ? sl_jobs_cpu_count() : (sl_jobs_default_parallel() + 1) / 2;
    return cpu_bound > gpus ? cpu_bound : gpus;
}

int cli_grade_class(const options *o)
{
    if (!o->submissions)
        return cli_usage();
    int shard_k = 0, shard_n = 0;
    if (o->shard && sl_shard_parse(o->shard, &shard_k, &shard_n) != 0) {
        fprintf(stderr, "syncgrade: --shard wants K/N with 1 <= K <= N, not '%s'\n", o->shard);
        return 2;
    }
    sl_gpus gpus;
    if (o->gpus && sl_gpus_parse(o->gpus, &gpus) != 0)
        return 2;
    sl_build_config baked = cli_build_config();
    if (cli_check_paths(&baked) != 0) /* the machine's fault: before any student */
        return 2;
    const sl_lesson *lessons[MAX_LESSONS] = {0};
    int nl = cli_select_lessons(o, lessons);
    sl_points points;
    if (nl < 0 || !cli_visibility_ok(o) || cli_load_points(o, &points) != 0)
        return 2;
    sl_build_config bc = cli_build_config();
    char out[4096];
    snprintf(out, sizeof out, "%s", o->out ? o->out : SYNCLAB_BINARY_DIR "/class");
    if (!cli_out_ok(out))
        return 2;
    sl_class c = {0};
    c.submissions = o->submissions;
    c.out = out;
    c.jobs = class_jobs(o, o->gpus ? gpus.count : 1);
    c.points = &points;
    c.seed = o->seed;
    c.have_seed = o->have_seed;
    c.lessons = lessons;
    c.nlessons = nl;
    c.build = &bc;
    c.harness_lib_dir = SYNCLAB_HARNESS_DIR;
    c.sanitizer = cli_find_sanitizer();
    c.timeout_scale = cli_timeout_scale(o);
    c.visibility = o->visibility;
    c.quiet = o->quiet;
    c.shard_k = shard_k;
    c.shard_n = shard_n;
    c.gpus = o->gpus ? &gpus : NULL;
    c.keep_work = o->keep_work;
    int mps = o->mps && sl_mps_start() == 0;
    int rc = sl_class_grade(&c);
    if (mps)
        sl_mps_stop();
    sl_points_free(&points);
    return rc;
}

int cli_merge(const options *o)
{
    if (!o->out || o->noperands == 0) {
        fprintf(stderr, "syncgrade merge: --out DIR and one or more shard folders, please\n");
        return cli_usage();
    }
    return sl_class_merge(o->out, o->operands, o->noperands, o->quiet);
}
