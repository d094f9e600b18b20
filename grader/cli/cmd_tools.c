/* syncgrade policy, points, build, inputs and list. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "channel.h"
#include "class.h"
#include "contain.h"
#include "grade.h"
#include "gradescope.h"
#include "hostobj.h"
#include "jobs.h"
#include "junit.h"
#include "files.h"
#include "lesson_run.h"
#include "locate.h"
#include "points.h"
#include "progress.h"
#include "report.h"
#include "synclab_config.h"

#include "cli.h"

/* ---------- policy / points / build / list ---------- */

/* The submission policy on one file, before and after the compiler. */
int cli_policy(const options *o)
{
    if (o->nlessons != 1 || o->nsources != 1)
        return cli_usage();
    const sl_lesson *l = cli_lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    sl_text why = {0};
    int ok = sl_lesson_policy_check(l, SYNCLAB_SOURCE_DIR, o->sources[0], &why);
    if (ok) {
        char dir[4096], out[4200], lib[4096], object[4300];
        /* where the lesson_<name> target builds the same file: no second compile */
        cli_source_out_dir(o->out ? o->out : SYNCLAB_BINARY_DIR "/expect", l, o->sources[0], dir,
                           sizeof dir);
        snprintf(out, sizeof out, "%s/build", dir);
        sl_build_config bc = cli_build_config();
        sl_build_harness_lib(SYNCLAB_HARNESS_DIR, l->name, lib, sizeof lib);
        bc.harness_lib = lib;
        bc.submission = 1;
        sl_build b;
        sl_build_lesson(&bc, l->name, o->sources[0], out, &b);
        snprintf(object, sizeof object, "%s/student.o", out);
        if (!b.ok && access(object, R_OK) != 0) {
            /* refused by the build (its includes), or does not compile */
            sl_text_printf(&why, "%s", b.log);
            ok = 0;
        } else
            ok = sl_hostobj_check(object, o->sources[0], &why) == 1 &&
                 sl_hostobj_check_harness(object, lib, o->sources[0], &why) == 1;
        sl_build_free(&b);
    }
    printf("%s%s", sl_text_str(&why), ok ? "policy: accepted\n" : "policy: REJECTED\n");
    sl_text_free(&why);
    return ok ? 0 : 1;
}

int cli_points(const options *o)
{
    if (!o->points) {
        sl_points_write_defaults(stdout, sl_lessons);
        return 0;
    }
    sl_points p;
    if (cli_load_points(o, &p) != 0)
        return 1;
    for (const sl_lesson *const *l = sl_lessons; *l; l++)
        for (int i = 0; i < (*l)->count; i++) {
            const sl_exercise *e = &(*l)->exercises[i];
            printf("%-10s %-22s %g\n", (*l)->name, e->name,
                   sl_points_for(&p, (*l)->name, e->name, e->points));
        }
    sl_points_free(&p);
    return 0;
}

/* Several --lesson/--source pairs: each built into <out>/<lesson>, then
 * one runner of them all at <out>/runner (build.h: sl_build_lessons_runner),
 * the runner of a submission's sweep. */
static int build_together(const options *o)
{
    sl_build_config bc = cli_build_config();
    const char *names[16], *dirs[16];
    char dir[16][4200], lib[16][4200], runner_dir[4200], runner[4300];
    char arch[16] = "";
    int rc = 0;
    for (int i = 0; i < o->nlessons && i < 16; i++) {
        const sl_lesson *l = cli_lesson_named(o->lessons[i]);
        if (!l)
            return 2;
        sl_build_harness_lib(SYNCLAB_HARNESS_DIR, l->name, lib[i], sizeof lib[i]);
        snprintf(dir[i], sizeof dir[i], "%s/%s", o->out, l->name);
        bc.harness_lib = lib[i];
        sl_build b;
        sl_build_lesson(&bc, l->name, o->sources[i], dir[i], &b);
        if (!b.ok) {
            fprintf(stderr, "%s", b.log);
            rc = 1;
        }
        snprintf(arch, sizeof arch, "%s", b.target.arch);
        sl_build_free(&b);
        names[i] = l->name;
        dirs[i] = dir[i];
    }
    if (rc)
        return rc;
    snprintf(runner_dir, sizeof runner_dir, "%s/runner", o->out);
    sl_text log = {0};
    int ok = sl_build_lessons_runner(&bc, SYNCLAB_HARNESS_DIR, names, dirs, o->nlessons, arch,
                                     runner_dir, runner, sizeof runner, &log);
    if (!ok)
        fprintf(stderr, "%s", sl_text_str(&log));
    else
        printf("%s\n", runner);
    sl_text_free(&log);
    return ok ? 0 : 1;
}

int cli_build_only(const options *o)
{
    if (o->nlessons > 1 && o->nlessons == o->nsources && o->nlessons <= 16 && o->out)
        return build_together(o);
    if (o->nlessons != 1 || o->nsources != 1 || !o->out)
        return cli_usage();
    const sl_lesson *l = cli_lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    sl_build_config bc = cli_build_config();
    char lib[4096];
    sl_build_harness_lib(SYNCLAB_HARNESS_DIR, l->name, lib, sizeof lib);
    bc.harness_lib = lib;
    sl_build b;
    sl_build_lesson(&bc, l->name, o->sources[0], o->out, &b);
    if (!b.ok)
        fprintf(stderr, "%s", b.log);
    int rc = b.ok ? 0 : 1;
    sl_build_free(&b);
    return rc;
}

/* Writes the inputs a seed gives an exercise, small/ and full/, and prints
 * how to run them by hand: a failure in a report replays outside the grader
 * (under cuda-gdb or a sanitizer with other options). */
int cli_inputs(const options *o)
{
    if (o->nlessons != 1 || !o->out || !o->have_seed)
        return cli_usage();
    const sl_lesson *l = cli_lesson_named(o->lessons[0]);
    if (!l)
        return 2;
    int found = 0;
    for (int i = 0; i < l->count; i++) {
        const sl_exercise *e = &l->exercises[i];
        if (o->exercise && strcmp(o->exercise, e->name) != 0)
            continue;
        found++;
        sl_inputs sets[2] = {{0}, {0}};
        static const char *const set_names[2] = {"small", "full"};
        sl_grade_inputs(l, e, o->seed, &sets[0], &sets[1]);
        int rc = 0;
        for (int k = 0; k < 2; k++) {
            char dir[4096];
            snprintf(dir, sizeof dir, "%s/%s/%s", o->out, e->name, set_names[k]);
            rc |= sl_grade_write_inputs(&sets[k], dir);
            printf("%s: runner run %s %s %d\n", e->name, e->name, dir, sets[k].count);
            sl_inputs_free(&sets[k]);
        }
        if (rc != 0) {
            fprintf(stderr, "syncgrade: cannot write inputs under %s: %s\n", o->out,
                    strerror(errno));
            return 2;
        }
    }
    if (!found) {
        fprintf(stderr, "syncgrade: no exercise '%s' in lesson %s\n", o->exercise, l->name);
        return 2;
    }
    return 0;
}

int cli_list(void)
{
    for (const sl_lesson *const *l = sl_lessons; *l; l++) {
        printf("%s: %s (%s)\n", (*l)->name, (*l)->title, (*l)->doc);
        for (int i = 0; i < (*l)->count; i++)
            printf("  %-22s %3d points  %s\n", (*l)->exercises[i].name, (*l)->exercises[i].points,
                   (*l)->exercises[i].title);
    }
    return 0;
}

/* ---------- locate ---------- */

/* Where each lesson's file of a submission is, found as class mode and
 * grade find it (locate.h); with --out, a flat copy of the files a
 * grading may read there (run_autograder grades that copy). */
int cli_locate(const options *o)
{
    const sl_lesson *lessons[MAX_LESSONS] = {0};
    int nl = cli_select_lessons(o, lessons);
    if (!o->submission || nl < 0)
        return o->submission ? 2 : cli_usage();
    sl_submission_scan scan;
    if (sl_locate_scan(o->submission, &scan) != 0) {
        fprintf(stderr, "syncgrade: %s: %s\n", o->submission, strerror(errno));
        sl_locate_scan_free(&scan);
        return 2;
    }
    static sl_located found[MAX_LESSONS];
    const char *names[MAX_LESSONS];
    for (int i = 0; i < nl; i++) {
        names[i] = lessons[i]->name;
        sl_locate_lesson(&scan, names[i], &found[i]);
        if (found[i].found)
            printf("%s: %s%s.cu\n", names[i], found[i].folder, names[i]);
        else
            printf("%s: not found (%s)\n", names[i], found[i].note);
    }
    char notes[1024];
    sl_locate_summary(&scan, names, nl, notes, sizeof notes);
    if (notes[0])
        printf("note: %s\n", notes);
    int rc = 0;
    if (o->out) {
        char said[8192];
        sl_mkdirs(o->out);
        if (sl_locate_copy(&scan, found, nl, o->out, said, sizeof said) < 0) {
            fprintf(stderr, "syncgrade: cannot copy into %s\n", o->out);
            rc = 2;
        }
        fputs(said, stdout);
    }
    sl_locate_scan_free(&scan);
    return rc;
}
