#include "class.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "budget.h"
#include "channel.h"
#include "contain.h"
#include "dedup.h"
#include "files.h"
#include "gpu_arch.h"
#include "gpu_keep.h"
#include "gpu_node.h"
#include "gpu_probe.h"
#include "gradescope.h"
#include "jobs.h"
#include "junit.h"
#include "levers.h"
#include "lesson_run.h"
#include "locate.h"
#include "memory.h"
#include "proc.h"
#include "report.h"
#include "rng.h"
#include "room.h"
#include "roster.h"
#include "sandbox.h"
#include "slots.h"
#include "shard.h"
#include "together.h"
#include "trace.h"

enum { MAX_STUDENT_REPORT = 64 << 20, MAX_CLASS_LESSONS = 64 };

/* ---------- progress ---------- */

static void duration(char *buf, size_t n, double s)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
}

void sl_class_progress_line(char *buf, size_t n, int done, int total, double elapsed_s)
{
    char elapsed[32], eta[32];
    duration(elapsed, sizeof elapsed, elapsed_s);
    if (done > 0 && done < total)
        duration(eta, sizeof eta, elapsed_s / done * (total - done));
    else
        snprintf(eta, sizeof eta, done >= total ? "0m00s" : "?");
    snprintf(buf, n, "students %d/%d done, elapsed %s, ETA %s", done, total, elapsed, eta);
}

/* ---------- grades.csv ---------- */

void sl_class_csv_header(sl_csv *csv, const sl_lesson *const *lessons, int nlessons)
{
    sl_csv_text(csv, "student");
    for (int l = 0; l < nlessons; l++)
        for (int i = 0; i < lessons[l]->count; i++) {
            char column[160];
            snprintf(column, sizeof column, "%s/%s", lessons[l]->name,
                     lessons[l]->exercises[i].name);
            sl_csv_text(csv, column);
        }
    sl_csv_text(csv, "total");
    sl_csv_text(csv, "max");
    sl_csv_text(csv, "seed");
    sl_csv_text(csv, "notes");
    sl_csv_end_row(csv);
}

static const sl_outcome *find_outcome(const sl_class_row *row, const char *lesson,
                                      const char *exercise)
{
    for (int i = 0; i < row->count; i++)
        if (strcmp(row->outcomes[i].lesson, lesson) == 0 &&
            strcmp(row->outcomes[i].exercise, exercise) == 0)
            return &row->outcomes[i];
    return NULL;
}

/* What the instructor should know about a row: exercises not judged
 * through no fault of the student. */
static void row_notes(const sl_class_row *row, char *buf, size_t n)
{
    int skipped = 0, errors = 0;
    for (int i = 0; i < row->count; i++) {
        skipped += row->outcomes[i].verdict == SL_V_SKIP;
        errors += row->outcomes[i].verdict == SL_V_ERROR;
    }
    snprintf(buf, n, "%s", row->notes ? row->notes : "");
    if (errors)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%d grader error%s: regrade",
                 buf[0] ? "; " : "", errors, errors > 1 ? "s" : "");
    if (skipped)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%d skipped (no GPU)", buf[0] ? "; " : "",
                 skipped);
}

void sl_class_csv_row(sl_csv *csv, const sl_lesson *const *lessons, int nlessons,
                      const sl_class_row *row)
{
    double total = 0, max = 0;
    sl_csv_text(csv, row->student);
    for (int l = 0; l < nlessons; l++)
        for (int i = 0; i < lessons[l]->count; i++) {
            const sl_outcome *o =
                find_outcome(row, lessons[l]->name, lessons[l]->exercises[i].name);
            sl_csv_number(csv, o ? o->points : 0);
        }
    for (int i = 0; i < row->count; i++) {
        total += row->outcomes[i].points;
        max += row->outcomes[i].max_points;
    }
    sl_csv_number(csv, total);
    sl_csv_number(csv, max);
    char seed[32], notes[2048];
    snprintf(seed, sizeof seed, "%" PRIu64, row->seed);
    sl_csv_text(csv, seed);
    row_notes(row, notes, sizeof notes);
    sl_csv_text(csv, notes);
    sl_csv_end_row(csv);
}

/* ---------- one student, in a child process ---------- */

/* What the parent knows of a student's folder before grading it. */
typedef struct {
    char folder[4200];   /* <submissions>/<name> */
    char notes[1024];    /* for grades.csv: what was found, or why not graded */
    sl_located *located; /* one per lesson (locate.h) */
    long long disk;      /* bytes its folder under students/ took, build files included */
    long long kept;      /* bytes left once its build and work files went */
} student_files;

typedef struct {
    const sl_class *c;
    sl_student *students;
    student_files *files;
    int count;
    uint64_t *seeds;
    int *channels;           /* one per student while its job runs */
    sl_report_data *reports; /* filled as students finish */
    int done;
    double t0;
    int class_size; /* the whole class, when this run is one shard */
    int *gpu_of;    /* with c->gpus: each student's GPU */
    int gpu_busy[SL_MAX_GPUS];
    char dedup_dir[4200]; /* <out>/.dedup with the dedup lever, else "" (dedup.h) */
    /* with the stagger lever and a GPU: a GPU's places, one per sweep
     * running on it at once (per GPU of c->gpus; one without --gpus) */
    sl_slots *gpu_places;
    /* with the buildturns lever beside them: the students building at once */
    sl_slots build_turns;
    char places_dir[4200]; /* their files' folder, removed at the end */
    int at_once;           /* students graded at once: on the GPUs and building */
} class_state;

/* <out>/students/<name>: apart from the class's own files (grades.csv),
 * whatever a student's folder is called. */
static void student_dir(const class_state *s, int i, char *buf, size_t n)
{
    snprintf(buf, n, "%s/students/%s", s->c->out, s->students[i].dir);
}

/* Every exercise BUILD, saying why the folder was not graded. */
static int refused_outcomes(const class_state *s, int i, sl_outcome *all)
{
    int n = 0;
    for (int l = 0; l < s->c->nlessons; l++)
        for (int k = 0; k < s->c->lessons[l]->count; k++) {
            sl_outcome *o = &all[n++];
            sl_outcome_init(o, s->c->lessons[l], &s->c->lessons[l]->exercises[k]);
            sl_outcome_set(o, SL_V_BUILD);
            sl_text_printf(&o->detail, "not graded: the folder's name: %s\n",
                           s->students[i].refused);
            snprintf(o->hint, sizeof o->hint,
                     "Rename the folder (letters, digits, spaces and punctuation; no control "
                     "characters, not starting with '-') and grade again.");
        }
    return n;
}

/* How long a student waits for another to publish a file they share
 * (dedup.h) before grading it alone: longer than any lesson takes. */
#define DEDUP_WAIT_S (20 * 60.0)

/* How many of a student's n lessons are built at once (the builds lever,
 * levers.h): two compiler processes a core among the students graded at
 * once; the compilers wait on their files and their children part of the
 * time. */
static int build_parallel(const class_state *s, int n)
{
    if (!sl_lever_on("builds") || n < 2)
        return 1;
    if (s->build_turns.n > 0) /* in its turn a student has its share of cores */
        return n;
    int jobs = s->at_once > 0 ? s->at_once : 1;
    int per = (2 * sl_jobs_cpu_count() + jobs - 1) / jobs;
    return per < 1 ? 1 : per > n ? n : per;
}

/* Lessons todo[0..n-1] of student i into all (lesson l's outcomes from
 * all + offset[l]), together (judge/together.h): with two or more, one
 * runner of them all sweeps them, then each is judged; one alone is
 * sl_lesson_run's. 0 ok. */
static int grade_lessons(class_state *s, int i, const int *todo, int n, const char *dir,
                         sl_outcome *all, const int *offset)
{
    const sl_class *c = s->c;
    sl_lesson_job *jobs = calloc((size_t)n, sizeof *jobs);
    const sl_lesson **ls = calloc((size_t)n, sizeof *ls);
    char(*source)[4300] = calloc((size_t)n, sizeof *source);
    char(*out)[4200] = calloc((size_t)n, sizeof *out);
    int rc = jobs && ls && source && out ? 0 : -1;
    int opened = 0;
    for (int k = 0; rc == 0 && k < n; k++) {
        int l = todo[k];
        const sl_located *found = &s->files[i].located[l];
        ls[k] = c->lessons[l];
        if (found->found)
            snprintf(source[k], sizeof source[k], "%s", found->path);
        else
            snprintf(source[k], sizeof source[k], "%s/%s.cu", s->files[i].folder, ls[k]->name);
        snprintf(out[k], sizeof out[k], "%s/%s", dir, ls[k]->name);
        sl_lesson_job *job = &jobs[k];
        job->build = c->build;
        job->harness_lib_dir = c->harness_lib_dir;
        job->source = source[k];
        job->out_dir = out[k];
        job->sanitizer = c->sanitizer;
        job->seed = s->seeds[i];
        job->timeout_scale = c->timeout_scale;
        job->policy = 1;
        job->shown_folder = found->folder;
        job->missing_note = found->found ? NULL : found->note;
        if (sl_lesson_open_channels(ls[k], job) != 0)
            rc = -1;
        else
            opened++;
    }
    if (rc == 0) {
        char together[4200];
        snprintf(together, sizeof together, "%s/.together", dir);
        const sl_slots *places = NULL;
        if (s->gpu_places)
            places = &s->gpu_places[c->gpus && s->gpu_of && s->gpu_of[i] >= 0 ? s->gpu_of[i] : 0];
        sl_together_opts o = {build_parallel(s, n), places,
                              s->build_turns.n > 0 ? &s->build_turns : NULL};
        sl_lessons_run_together(ls, jobs, n, together, &o);
        sl_remove_tree(together, 1);
        for (int k = 0; k < n; k++) {
            sl_outcome *o = all + offset[todo[k]];
            sl_lesson_collect(ls[k], &jobs[k], o);
            sl_report_write_lesson(jobs[k].out_dir, jobs[k].source, jobs[k].seed, o, ls[k]->count);
        }
    }
    for (int k = 0; k < opened; k++)
        sl_lesson_close_channels(ls[k], &jobs[k]);
    free(jobs);
    free(ls);
    free(source);
    free(out);
    return rc;
}

/* The dedup key of student i's file for lesson l (dedup.h), with its seed
 * or, any_seed, the key of its static verdicts; -1: none (no cache, a file
 * not found, one that may not be shared). */
static int lesson_key(const class_state *s, int i, int l, const char *arch, int any_seed,
                      char key[65])
{
    const sl_located *found = &s->files[i].located[l];
    if (!s->dedup_dir[0] || !found->found)
        return -1;
    sl_dedup_file f = {
        s->c->lessons[l]->name, found->path, found->folder, s->seeds[i], arch, any_seed};
    return sl_dedup_key(&f, key);
}

/* A lesson taken from an identical file graded for another student: its
 * results.json (hint, progress) as if graded here. */
static void reused_lesson(const class_state *s, int i, int l, const char *dir, sl_outcome *outcomes,
                          int any_seed)
{
    char out[4200];
    snprintf(out, sizeof out, "%s/%s", dir, s->c->lessons[l]->name);
    sl_mkdirs(out);
    sl_report_write_lesson(out, s->files[i].located[l].path, s->seeds[i], outcomes,
                           s->c->lessons[l]->count);
    if (sl_tracing())
        fprintf(stderr, "[trace] dedup %s: %s: identical to a file already graded%s\n",
                s->students[i].shown, s->c->lessons[l]->name,
                any_seed ? " (static verdicts only: any seed)" : "");
}

static int grade_student(int i, void *arg)
{
    class_state *s = arg;
    const sl_class *c = s->c;
    if (c->gpus && s->gpu_of)
        sl_gpus_enter(c->gpus, s->gpu_of[i]);
    sl_budget_begin(); /* this student's own budgets (budget.h) */
    char dir[4096];
    student_dir(s, i, dir, sizeof dir);
    double t0 = sl_now();
    int total = 0, offset[MAX_CLASS_LESSONS];
    for (int l = 0; l < c->nlessons; l++) {
        offset[l] = total;
        total += c->lessons[l]->count;
    }
    sl_outcome *all = calloc((size_t)(total ? total : 1), sizeof *all);
    int n = 0;
    if (all && s->students[i].refused)
        n = refused_outcomes(s, i, all);
    if (all && !s->students[i].refused) {
        /* the arch the files are built for: part of the dedup key */
        char arch[64] = "";
        if (s->dedup_dir[0]) {
            sl_gpu_target t;
            sl_gpu_target_pick(c->build->arch, c->build->default_arch, c->build->nvcc_archs, &t);
            snprintf(arch, sizeof arch, "%s cc %d", t.arch, t.gpu_cc);
        }
        /* A file another student is grading now waits until this
         * student's other lessons are done: then it is taken, or graded
         * here if it never comes. */
        char keys[MAX_CLASS_LESSONS][65], any[MAX_CLASS_LESSONS][65];
        int busy[MAX_CLASS_LESSONS] = {0}, any_keyed[MAX_CLASS_LESSONS] = {0};
        /* with the together lever, the lessons this student grades now
         * wait for the others' claims and are graded together */
        int together = sl_lever_on("together"), todo[MAX_CLASS_LESSONS], ntodo = 0;
        sl_dedup_claim_result claimed[MAX_CLASS_LESSONS];
        for (int l = 0; l < c->nlessons; l++) {
            sl_outcome *o = all + offset[l];
            /* a file already graded to static verdicts only: the same for any seed */
            any_keyed[l] = lesson_key(s, i, l, arch, 1, any[l]) == 0;
            if (any_keyed[l] && sl_dedup_take(s->dedup_dir, any[l], c->lessons[l], o) == 0) {
                reused_lesson(s, i, l, dir, o, 1);
                continue;
            }
            int keyed = lesson_key(s, i, l, arch, 0, keys[l]) == 0;
            sl_dedup_claim_result r =
                keyed ? sl_dedup_claim(s->dedup_dir, keys[l], c->lessons[l], o) : SL_DEDUP_ALONE;
            if (r == SL_DEDUP_HIT) {
                reused_lesson(s, i, l, dir, o, 0);
            } else if (r == SL_DEDUP_BUSY) {
                busy[l] = 1;
            } else if (together) {
                claimed[l] = r;
                todo[ntodo++] = l;
            } else {
                if (grade_lessons(s, i, &l, 1, dir, all, offset) != 0)
                    return 3;
                if (r == SL_DEDUP_OWN)
                    sl_dedup_publish(s->dedup_dir, keys[l], c->lessons[l], o);
                if (any_keyed[l])
                    sl_dedup_publish_static(s->dedup_dir, any[l], c->lessons[l], o);
            }
        }
        if (ntodo > 0 && grade_lessons(s, i, todo, ntodo, dir, all, offset) != 0)
            return 3;
        for (int k = 0; k < ntodo; k++) {
            int l = todo[k];
            sl_outcome *o = all + offset[l];
            if (claimed[l] == SL_DEDUP_OWN)
                sl_dedup_publish(s->dedup_dir, keys[l], c->lessons[l], o);
            if (any_keyed[l])
                sl_dedup_publish_static(s->dedup_dir, any[l], c->lessons[l], o);
        }
        for (int l = 0; l < c->nlessons; l++) {
            if (!busy[l])
                continue;
            sl_outcome *o = all + offset[l];
            if (sl_dedup_wait(s->dedup_dir, keys[l], c->lessons[l], o, DEDUP_WAIT_S) ==
                SL_DEDUP_HIT)
                reused_lesson(s, i, l, dir, o, 0);
            else if (grade_lessons(s, i, &l, 1, dir, all, offset) != 0)
                return 3;
            else if (any_keyed[l])
                sl_dedup_publish_static(s->dedup_dir, any[l], c->lessons[l], o);
        }
        n = total;
    }
    sl_report rep = {s->students[i].shown, s->seeds[i], sl_now() - t0, all, n};
    if (sl_tracing()) /* when each student ran: where a class's time went */
        fprintf(stderr, "[trace] class: %s began at %.1f s, graded in %.1f s\n",
                s->students[i].shown, t0 - s->t0, sl_now() - t0);
    char *text = sl_report_to_text(&rep);
    int rc = text && sl_channel_put(s->channels[i], text) == 0 ? 0 : 3;
    free(text);
    for (int k = 0; k < n; k++)
        sl_outcome_free(&all[k]);
    free(all);
    return rc;
}

/* ---------- results, in the parent ---------- */

/* A safety net, not a budget: every stage of a student's grading has a
 * limit of its own (compiler, static analysis, each run); a student whose
 * grading still runs after this long hangs where none reaches, and is
 * stopped (ERROR, the grader's fault) so that it holds no slot for good. */
#define STUDENT_DEADLINE_S (3 * 3600.0)

static void failed_student(const class_state *s, int i, int status, sl_report_data *d)
{
    /* every exercise: ERROR, the grader's fault, never the student's */
    memset(d, 0, sizeof *d);
    snprintf(d->submission, sizeof d->submission, "%s", s->students[i].shown);
    d->seed = s->seeds[i];
    int total = 0;
    for (int l = 0; l < s->c->nlessons; l++)
        total += s->c->lessons[l]->count;
    d->outcomes = calloc((size_t)(total ? total : 1), sizeof *d->outcomes);
    for (int l = 0; d->outcomes && l < s->c->nlessons; l++)
        for (int k = 0; k < s->c->lessons[l]->count; k++) {
            const sl_lesson *lesson = s->c->lessons[l];
            sl_outcome *o = &d->outcomes[d->count++];
            sl_outcome_init(o, lesson, &lesson->exercises[k]);
            sl_outcome_set(o, SL_V_ERROR);
            snprintf(o->hint, sizeof o->hint, "%s", sl_verdict_hint(SL_V_ERROR));
            sl_text_printf(&o->detail,
                           "grading this student stopped (status %d) before a verdict\n", status);
        }
}

/* "57.1 MB", "12 kB" */
static void size_text(char *buf, size_t n, long long bytes)
{
    if (bytes >= 100000)
        snprintf(buf, n, "%.1f MB", bytes / 1e6);
    else
        snprintf(buf, n, "%lld kB", (bytes + 999) / 1000);
}

/* 0 when every file of the student was written whole. */
static int write_student_files(const class_state *s, int i)
{
    int rc = 0;
    const sl_report_data *d = &s->reports[i];
    char dir[4096], path[4200];
    student_dir(s, i, dir, sizeof dir);
    sl_mkdirs(dir);
    const sl_student *st = &s->students[i];
    const student_files *sf = &s->files[i];
    sl_report rep = {st->shown, d->seed, d->seconds, d->outcomes, d->count};
    snprintf(path, sizeof path, "%s/report.txt", dir);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        fprintf(f, "student %s\n", st->shown);
        if (sf->notes[0])
            fprintf(f, "notes: %s\n", sf->notes);
        if (sf->disk > 0) {
            char disk[32], kept[32];
            size_text(disk, sizeof disk, sf->disk);
            size_text(kept, sizeof kept, sf->kept);
            fprintf(f, "disk: %s while graded, %s kept%s\n", disk, kept,
                    s->c->keep_work ? " (--keep-work)" : " (build and work files removed)");
        }
        if (!sl_sandbox_available())
            fprintf(f, "%s\n", sl_sandbox_status());
        fprintf(f, "\n");
        sl_report_print(f, &rep, 1);
        fclose(f);
    }
    if (!text || sl_write_file(path, text) != 0) {
        fprintf(stderr, "syncgrade: cannot write %s\n", path);
        rc = -1;
    }
    free(text);
    snprintf(path, sizeof path, "%s/results.json", dir);
    if (sl_gradescope_write(path, &rep, s->c->visibility) != 0) {
        fprintf(stderr, "syncgrade: cannot write %s\n", path);
        rc = -1;
    }
    snprintf(path, sizeof path, "%s/junit.xml", dir);
    if (sl_junit_write(path, st->shown, d->outcomes, d->count, d->seconds) != 0) {
        fprintf(stderr, "syncgrade: cannot write %s\n", path);
        rc = -1;
    }
    return rc;
}

static void show_progress(const class_state *s, int final)
{
    if (s->c->quiet)
        return;
    char line[160];
    sl_class_progress_line(line, sizeof line, s->done, s->count, sl_now() - s->t0);
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\r%s\033[K%s", line, final ? "\n" : "");
    else if (!final) /* a log gets one line per student, the last one included */
        fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

/* ---------- several GPUs, several shards ---------- */

/* The least busy GPU, in the parent before the student's job starts. */
static void take_gpu(class_state *s, int i)
{
    if (!s->c->gpus || !s->gpu_of)
        return;
    int best = 0;
    for (int g = 1; g < s->c->gpus->count; g++)
        if (s->gpu_busy[g] < s->gpu_busy[best])
            best = g;
    s->gpu_of[i] = best;
    s->gpu_busy[best]++;
}

static void give_gpu_back(class_state *s, int i)
{
    if (s->c->gpus && s->gpu_of && s->gpu_of[i] >= 0)
        s->gpu_busy[s->gpu_of[i]]--;
}

/* The stagger lever: --jobs sweeps run on each GPU at once, each holding
 * one of its places while its runners run (sweep.c), and three times as
 * many students are graded at once, so that while some run, the others
 * build, write their inputs, check their outputs and are judged, and a
 * place that frees up finds a student ready for it. Without it a class's
 * students started, built and ran in step: on an H200 the GPU sat idle
 * while all of them compiled, and again while they checked their
 * outputs; with twice as many, while the second wave compiled. */
static void open_gpu_places(class_state *s)
{
    const sl_class *c = s->c;
    int gpus = c->gpus && c->gpus->count > 0 ? c->gpus->count : 1;
    int jobs = c->jobs > 0 ? c->jobs : 1;
    int per_gpu = jobs / gpus > 0 ? jobs / gpus : 1;
    /* on this node's own temporary folder, not in --out: that may be on a
     * file system all nodes share (Slurm), where every try of a lock is a
     * round trip to its server, and waiting sweeps try often. Runners
     * never see it (sandbox.h). */
    const char *tmp = getenv("TMPDIR");
    snprintf(s->places_dir, sizeof s->places_dir, "%s/synclab-places-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(s->places_dir)) {
        s->places_dir[0] = '\0';
        return; /* without places: as before the lever */
    }
    sl_sandbox_hide(s->places_dir);
    s->gpu_places = calloc((size_t)gpus, sizeof *s->gpu_places);
    for (int g = 0; s->gpu_places && g < gpus; g++) {
        char name[32];
        snprintf(name, sizeof name, "gpu%d", g);
        if (sl_slots_open(&s->gpu_places[g], s->places_dir, name, per_gpu) != 0) {
            free(s->gpu_places);
            s->gpu_places = NULL;
        }
    }
    if (!s->gpu_places)
        return;
    s->at_once = 3 * jobs;
    /* The buildturns lever: so many students build at once that each has
     * two compilers a core for all its lessons, and the others wait their
     * turn; the first built start on the GPU while the rest build. Without
     * it all the students graded at once built side by side and were
     * ready together: the GPU idle until then. */
    int lessons = c->nlessons > 0 ? c->nlessons : 1;
    int turns = 2 * sl_jobs_cpu_count() / lessons;
    /* none (n = 0) where they cannot be made: everyone builds at once */
    if (sl_lever_on("buildturns") && sl_lever_on("builds"))
        sl_slots_open(&s->build_turns, s->places_dir, "build", turns > 0 ? turns : 1);
}

/* The students that sweep at once: only a GPU place's holder, with the
 * stagger lever; else every student graded at once. */
static int sweeping_students(const class_state *s)
{
    const sl_class *c = s->c;
    if (!s->gpu_places)
        return s->at_once;
    int gpus = c->gpus && c->gpus->count > 0 ? c->gpus->count : 1;
    return gpus * s->gpu_places[0].n;
}

/* No more students at once than the disk under --out holds the work files
 * of (room.h): a student who ran out of room got BUILD or LAUNCH for a
 * correct file. */
static void fit_the_disk(class_state *s)
{
    const sl_class *c = s->c;
    long long free = sl_free_bytes(c->out);
    long long inputs = sl_disk_fit_inputs(c->lessons, c->nlessons);
    int fit = sl_disk_fit(free, inputs, s->at_once, sweeping_students(s));
    char have[32], need[32];
    size_text(have, sizeof have, free);
    size_text(need, sizeof need, inputs);
    if (sl_tracing())
        fprintf(stderr,
                "[trace] class disk: %s free under --out, %s of inputs a student: %d of %d "
                "graded at once fit\n",
                have, need, fit, s->at_once);
    if (fit >= s->at_once)
        return;
    /* not --quiet alone: fewer at once makes the class slower, and why
     * must be read */
    fprintf(stderr,
            "syncgrade: %s free under %s, and a student's work files take %s of inputs and "
            "up to 1.3 times as much in outputs: %d students graded at once instead of %d; "
            "grade on a bigger disk (--out) to go faster\n",
            have, c->out, need, fit, s->at_once);
    s->at_once = fit;
}

/* ...and than the memory holds (room.h): the OOM killer's runners are
 * ERROR, every one a student to grade again. A Slurm job's --mem is the
 * usual bound. */
static void fit_the_memory(class_state *s)
{
    long long avail = sl_memory_available();
    int fit = sl_memory_fit(avail, s->at_once, sweeping_students(s));
    char have[32];
    size_text(have, sizeof have, avail);
    if (sl_tracing())
        fprintf(stderr, "[trace] class memory: %s available: %d of %d graded at once fit\n", have,
                fit, s->at_once);
    if (fit >= s->at_once)
        return;
    fprintf(stderr,
            "syncgrade: %s of memory available, and a student takes up to %lld MB, %lld MB more "
            "while its runners run: %d students graded at once instead of %d; grade with more "
            "memory (a Slurm job's --mem) to go faster\n",
            have, SL_MEMORY_FIT_STUDENT_BYTES / 1000000, SL_MEMORY_FIT_SWEEP_BYTES / 1000000, fit,
            s->at_once);
    s->at_once = fit;
}

/* <out>/shard.txt: what `syncgrade merge` needs of this shard (shard.h). */
static int write_shard_manifest(const class_state *s)
{
    sl_shard_manifest m = {s->c->shard_k, s->c->shard_n, s->class_size, NULL, NULL, NULL, s->count};
    /* shards of one run share the seed; unpredictable seeds make any run
     * its own, so only the lessons (the header) can tell */
    char run[64];
    if (s->c->have_seed)
        snprintf(run, sizeof run, "seed %" PRIu64, s->c->seed);
    else
        snprintf(run, sizeof run, "seed unpredictable");
    m.run = run;
    sl_csv header = {0};
    sl_class_csv_header(&header, s->c->lessons, s->c->nlessons);
    m.header = (char *)sl_text_str(&header.text);
    m.students = calloc((size_t)(s->count ? s->count : 1), sizeof *m.students);
    sl_csv *rows = calloc((size_t)(s->count ? s->count : 1), sizeof *rows);
    char(*dirs)[4096] = calloc((size_t)(s->count ? s->count : 1), sizeof *dirs);
    int rc = -1;
    size_t out_len = strlen(s->c->out);
    for (int i = 0; m.students && rows && dirs && i < s->count; i++) {
        const sl_report_data *d = &s->reports[i];
        sl_class_row row = {s->students[i].shown, d->seed, d->outcomes, d->count,
                            s->files[i].notes};
        sl_class_csv_row(&rows[i], s->c->lessons, s->c->nlessons, &row);
        student_dir(s, i, dirs[i], sizeof dirs[i]);
        m.students[i].name = s->students[i].name;
        m.students[i].dir = dirs[i] + out_len + (dirs[i][out_len] == '/');
        m.students[i].row = (char *)sl_text_str(&rows[i].text);
        for (int k = 0; k < d->count; k++)
            m.students[i].errors += d->outcomes[k].verdict == SL_V_ERROR;
    }
    if (m.students && rows && dirs) {
        char path[4200];
        snprintf(path, sizeof path, "%s/shard.txt", s->c->out);
        rc = sl_shard_write(path, &m);
        if (rc != 0)
            fprintf(stderr, "syncgrade: cannot write %s\n", path);
    }
    for (int i = 0; rows && i < s->count; i++)
        sl_csv_free(&rows[i]);
    sl_csv_free(&header);
    free(rows);
    free(dirs);
    free(m.students);
    return rc;
}

static int prepare_student(int i, void *arg)
{
    class_state *s = arg;
    s->seeds[i] = s->c->have_seed ? s->c->seed : sl_seed_unpredictable();
    s->channels[i] = sl_channel_open("student");
    take_gpu(s, i);
    return s->channels[i] >= 0 ? 0 : -1;
}

static long long usage_of(const char *dir)
{
    long long entries, bytes;
    sl_tree_usage(dir, &entries, &bytes);
    return bytes;
}

/* The disk the student took, then (unless --keep-work) their lessons'
 * build and work folders gone: the reports stay. */
static void drop_work(class_state *s, int i)
{
    char dir[4096], lesson[4300];
    student_dir(s, i, dir, sizeof dir);
    long long now = usage_of(dir);
    if (now > s->files[i].disk)
        s->files[i].disk = now;
    if (!s->c->keep_work)
        for (int l = 0; l < s->c->nlessons; l++) {
            snprintf(lesson, sizeof lesson, "%s/%s", dir, s->c->lessons[l]->name);
            sl_remove_tree(lesson, 1);
        }
    s->files[i].kept = usage_of(dir);
}

static void student_done(int i, int status, void *arg)
{
    class_state *s = arg;
    int exited_well = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    char *text = exited_well ? sl_channel_get(s->channels[i], MAX_STUDENT_REPORT) : NULL;
    sl_channel_close(&s->channels[i]);
    give_gpu_back(s, i);
    sl_report_data *d = &s->reports[i];
    if (!text || sl_report_parse(text, d) != 0)
        failed_student(s, i, status, d);
    free(text);
    d->seed = s->seeds[i]; /* the parent chose it: the child cannot change it */
    snprintf(d->submission, sizeof d->submission, "%s", s->students[i].shown);
    sl_points_apply(s->c->points, d->outcomes, d->count);
    drop_work(s, i);
    write_student_files(s, i);
    s->done++;
    show_progress(s, 0);
}

static int write_grades_csv(const class_state *s)
{
    sl_csv csv = {0};
    sl_class_csv_header(&csv, s->c->lessons, s->c->nlessons);
    for (int i = 0; i < s->count; i++) {
        sl_class_row row = {s->students[i].shown, s->reports[i].seed, s->reports[i].outcomes,
                            s->reports[i].count, s->files[i].notes};
        sl_class_csv_row(&csv, s->c->lessons, s->c->nlessons, &row);
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/grades.csv", s->c->out);
    int ok = sl_write_file(path, sl_text_str(&csv.text)) == 0;
    sl_csv_free(&csv);
    if (!ok)
        fprintf(stderr, "syncgrade: cannot write %s\n", path);
    else if (!s->c->quiet)
        printf("grades: %s\n", path);
    return ok ? 0 : -1;
}

static int grader_errors(const class_state *s)
{
    int students = 0;
    for (int i = 0; i < s->count; i++) {
        int errors = 0;
        for (int k = 0; k < s->reports[i].count; k++)
            errors += s->reports[i].outcomes[k].verdict == SL_V_ERROR;
        if (errors) {
            fprintf(stderr, "syncgrade: %s: %d exercise%s not judged (ERROR): regrade\n",
                    s->students[i].shown, errors, errors > 1 ? "s" : "");
            students++;
        }
    }
    return students;
}

/* This shard's slice of the class (shard.h): i % n == k - 1. */
static int take_shard(sl_student *all, int count, int k, int n)
{
    if (n <= 0)
        return count;
    int kept = 0;
    for (int i = 0; i < count; i++) {
        if (i % n == k - 1) {
            sl_student keep = all[i];
            all[kept++] = keep;
        } else {
            sl_roster_free_one(&all[i]);
        }
    }
    return kept;
}

/* Where each lesson file of each student is (locate.h), and the notes;
 * a refused folder is not looked into. Returns how many were refused. */
static int find_files(class_state *s)
{
    const char *names[MAX_CLASS_LESSONS];
    int nl = s->c->nlessons < MAX_CLASS_LESSONS ? s->c->nlessons : MAX_CLASS_LESSONS;
    for (int l = 0; l < nl; l++)
        names[l] = s->c->lessons[l]->name;
    int refused = 0;
    for (int i = 0; i < s->count; i++) {
        student_files *f = &s->files[i];
        const sl_student *st = &s->students[i];
        snprintf(f->folder, sizeof f->folder, "%s/%s", s->c->submissions, st->name);
        f->located = calloc((size_t)(nl ? nl : 1), sizeof *f->located);
        if (st->refused) {
            snprintf(f->notes, sizeof f->notes, "not graded: %s (rename the folder)", st->refused);
            fprintf(stderr, "syncgrade: student folder '%s' not graded: %s (rename it)\n",
                    st->shown, st->refused);
            refused++;
            continue;
        }
        sl_submission_scan scan;
        sl_locate_scan(f->folder, &scan);
        for (int l = 0; f->located && l < nl; l++)
            sl_locate_lesson(&scan, names[l], &f->located[l]);
        sl_locate_summary(&scan, names, nl, f->notes, sizeof f->notes);
        sl_locate_scan_free(&scan);
        if (!sl_roster_plain(st->name)) { /* the reports are not under the name itself */
            size_t k = strlen(f->notes);
            snprintf(f->notes + k, sizeof f->notes - k, "%sreports in students/%s/", k ? "; " : "",
                     st->dir);
        }
    }
    return refused;
}

int sl_class_grade(const sl_class *c)
{
    class_state s = {0};
    s.c = c;
    if (c->nlessons > MAX_CLASS_LESSONS) {
        fprintf(stderr, "syncgrade: at most %d lessons at once\n", MAX_CLASS_LESSONS);
        return 2;
    }
    s.count = sl_roster_read(c->submissions, &s.students);
    if (s.count <= 0) {
        fprintf(stderr, "syncgrade: %s: %s\n", c->submissions,
                s.count < 0 ? strerror(errno) : "no student folders");
        return 2;
    }
    if (sl_mkdirs(c->out) != 0) {
        fprintf(stderr, "syncgrade: cannot create %s\n", c->out);
        sl_roster_free(s.students, s.count);
        return 2;
    }
    s.class_size = s.count;
    s.count = take_shard(s.students, s.count, c->shard_k, c->shard_n);
    s.files = calloc((size_t)(s.count ? s.count : 1), sizeof *s.files);
    if (!s.files) {
        sl_roster_free(s.students, s.count);
        return 2;
    }
    int refused = find_files(&s);
    s.gpu_of = c->gpus ? calloc((size_t)(s.count ? s.count : 1), sizeof *s.gpu_of) : NULL;
    for (int i = 0; s.gpu_of && i < s.count; i++)
        s.gpu_of[i] = -1;
    s.seeds = calloc((size_t)(s.count ? s.count : 1), sizeof *s.seeds);
    s.channels = malloc((size_t)(s.count ? s.count : 1) * sizeof *s.channels);
    s.reports = calloc((size_t)(s.count ? s.count : 1), sizeof *s.reports);
    for (int i = 0; s.channels && i < s.count; i++)
        s.channels[i] = -1;
    s.t0 = sl_now();
    /* no runner sees another student's folder or any of the results */
    sl_sandbox_hide(c->submissions);
    sl_sandbox_hide(c->out);
    if (!c->quiet || !sl_sandbox_available())
        printf("%s\n", sl_sandbox_status());
    /* once: every lesson and student inherits the answer; then the GPUs
     * stay set up for the whole class (gpu_keep.h) */
    if (sl_gpu_probe() == SL_GPU_PRESENT) {
        sl_gpu_keep_start(c->gpus);
        if (sl_lever_on("gpunode")) /* its students inherit which nodes open */
            sl_gpu_node_learn("/proc/driver/nvidia/gpus", "/dev");
    }
    /* identical files judged once (dedup.h): the cache is this run's own */
    if (sl_lever_on("dedup")) {
        snprintf(s.dedup_dir, sizeof s.dedup_dir, "%s/.dedup", c->out);
        if (sl_dedup_open(s.dedup_dir) != 0)
            s.dedup_dir[0] = '\0';
    }
    s.at_once = c->jobs > 0 ? c->jobs : 1;
    if (sl_lever_on("stagger") && sl_gpu_probe() == SL_GPU_PRESENT)
        open_gpu_places(&s);
    if (sl_gpu_probe() == SL_GPU_PRESENT) { /* without a GPU nothing runs: no inputs */
        fit_the_disk(&s);
        fit_the_memory(&s);
    }
    if (!c->quiet) {
        printf("grading %d students of %s, %d at a time", s.count, c->submissions,
               c->jobs > 0 ? c->jobs : 1);
        if (s.gpu_places)
            printf(" on the GPU%s, %d graded at once", c->gpus && c->gpus->count > 1 ? "s" : "",
                   s.at_once);
        if (c->gpus)
            printf(" on %d GPU%s", c->gpus->count, c->gpus->count == 1 ? "" : "s");
        if (c->shard_n > 0)
            printf(" (shard %d/%d of %d students)", c->shard_k, c->shard_n, s.class_size);
        printf("\n");
    }
    /* a class of one round takes as long as its slowest student, and more
     * GPUs shorten only each student's wait: benches tell the rounds */
    if (sl_tracing())
        fprintf(stderr, "[trace] class size: %d students, %d graded at once on %d GPU%s\n", s.count,
                s.at_once, c->gpus ? c->gpus->count : 1, c->gpus && c->gpus->count > 1 ? "s" : "");
    show_progress(&s, 0);
    sl_jobs j = {s.count,      s.at_once,         &s, prepare_student, grade_student,
                 student_done, STUDENT_DEADLINE_S};
    sl_jobs_run(&j);
    show_progress(&s, 1);
    /* No student process is left now: write everything once more, so a
     * file some runner touched while others were graded is replaced, and
     * drop what a runner left behind since. */
    sl_gpu_keep_stop();
    sl_contain_kill_children(NULL, 0, 5.0);
    if (s.dedup_dir[0])
        sl_dedup_close(s.dedup_dir);
    int unwritten = 0;
    long long disk = 0, largest = 0, kept = 0;
    for (int i = 0; i < s.count; i++) {
        drop_work(&s, i);
        unwritten += write_student_files(&s, i) != 0;
        disk += s.files[i].disk;
        kept += s.files[i].kept;
        largest = s.files[i].disk > largest ? s.files[i].disk : largest;
    }
    if (!c->quiet) {
        char all[32], most[32], left[32];
        size_text(all, sizeof all, disk);
        size_text(most, sizeof most, largest);
        size_text(left, sizeof left, kept);
        printf("disk: %s while graded (largest student %s), %s kept%s\n", all, most, left,
               c->keep_work ? " (--keep-work)" : "; build and work files removed");
    }
    int rc = write_grades_csv(&s) == 0 && !unwritten ? 0 : 2;
    if (rc == 0 && c->shard_n > 0 && write_shard_manifest(&s) != 0)
        rc = 2;
    if (rc == 0 && (grader_errors(&s) || refused))
        rc = 1;
    for (int i = 0; i < s.count; i++) {
        sl_report_data_free(&s.reports[i]);
        free(s.files[i].located);
    }
    free(s.files);
    free(s.reports);
    free(s.channels);
    free(s.seeds);
    free(s.gpu_of);
    if (s.places_dir[0])
        sl_remove_tree(s.places_dir, 1);
    free(s.gpu_places);
    sl_roster_free(s.students, s.count);
    return rc;
}
