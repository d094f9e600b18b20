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

#include "channel.h"
#include "contain.h"
#include "gradescope.h"
#include "jobs.h"
#include "junit.h"
#include "lesson_run.h"
#include "proc.h"
#include "report.h"
#include "rng.h"

enum { MAX_STUDENT_REPORT = 64 << 20 };

/* ---------- student folders ---------- */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int sl_class_students(const char *dir, char ***names)
{
    *names = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **more = realloc(*names, (size_t)cap * sizeof *more);
            if (!more)
                break;
            *names = more;
        }
        (*names)[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n > 0)
        qsort(*names, (size_t)n, sizeof **names, by_name);
    return n;
}

void sl_class_free_names(char **names, int count)
{
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

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
            snprintf(column, sizeof column, "%s/%s", lessons[l]->name, lessons[l]->exercises[i].name);
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
    buf[0] = '\0';
    if (errors)
        snprintf(buf, n, "%d grader error%s: regrade", errors, errors > 1 ? "s" : "");
    if (skipped)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%d skipped (no GPU)", errors ? "; " : "",
                 skipped);
}

void sl_class_csv_row(sl_csv *csv, const sl_lesson *const *lessons, int nlessons,
                      const sl_class_row *row)
{
    double total = 0, max = 0;
    sl_csv_text(csv, row->student);
    for (int l = 0; l < nlessons; l++)
        for (int i = 0; i < lessons[l]->count; i++) {
            const sl_outcome *o = find_outcome(row, lessons[l]->name, lessons[l]->exercises[i].name);
            sl_csv_number(csv, o ? o->points : 0);
        }
    for (int i = 0; i < row->count; i++) {
        total += row->outcomes[i].points;
        max += row->outcomes[i].max_points;
    }
    sl_csv_number(csv, total);
    sl_csv_number(csv, max);
    char seed[32], notes[128];
    snprintf(seed, sizeof seed, "%" PRIu64, row->seed);
    sl_csv_text(csv, seed);
    row_notes(row, notes, sizeof notes);
    sl_csv_text(csv, notes);
    sl_csv_end_row(csv);
}

/* ---------- one student, in a child process ---------- */

typedef struct {
    const sl_class *c;
    char **names;
    int count;
    uint64_t *seeds;
    int *channels;          /* one per student while its job runs */
    sl_report_data *reports; /* filled as students finish */
    int done;
    double t0;
} class_state;

static void student_dir(const class_state *s, int i, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", s->c->out, s->names[i]);
}

static int grade_student(int i, void *arg)
{
    class_state *s = arg;
    const sl_class *c = s->c;
    char dir[4096];
    student_dir(s, i, dir, sizeof dir);
    double t0 = sl_now();
    int total = 0;
    for (int l = 0; l < c->nlessons; l++)
        total += c->lessons[l]->count;
    sl_outcome *all = calloc((size_t)(total ? total : 1), sizeof *all);
    int n = 0;
    for (int l = 0; all && l < c->nlessons; l++) {
        const sl_lesson *lesson = c->lessons[l];
        char source[4200], out[4200];
        snprintf(source, sizeof source, "%s/%s/%s.cu", c->submissions, s->names[i], lesson->name);
        snprintf(out, sizeof out, "%s/%s", dir, lesson->name);
        sl_lesson_job job = {0};
        job.build = c->build;
        job.harness_lib_dir = c->harness_lib_dir;
        job.source = source;
        job.out_dir = out;
        job.sanitizer = c->sanitizer;
        job.seed = s->seeds[i];
        job.timeout_scale = c->timeout_scale;
        job.policy = 1;
        if (sl_lesson_open_channels(lesson, &job) != 0)
            return 3;
        sl_lesson_run(lesson, &job);
        sl_lesson_collect(lesson, &job, all + n);
        sl_lesson_close_channels(lesson, &job);
        n += lesson->count;
    }
    sl_report rep = {s->names[i], s->seeds[i], sl_now() - t0, all, n};
    char *text = sl_report_to_text(&rep);
    int rc = text && sl_channel_put(s->channels[i], text) == 0 ? 0 : 3;
    free(text);
    for (int k = 0; k < n; k++)
        sl_outcome_free(&all[k]);
    free(all);
    return rc;
}

/* ---------- results, in the parent ---------- */

static void failed_student(const class_state *s, int i, int status, sl_report_data *d)
{
    /* every exercise: ERROR, the grader's fault, never the student's */
    memset(d, 0, sizeof *d);
    snprintf(d->submission, sizeof d->submission, "%s", s->names[i]);
    d->seed = s->seeds[i];
    int total = 0;
    for (int l = 0; l < s->c->nlessons; l++)
        total += s->c->lessons[l]->count;
    d->outcomes = calloc((size_t)(total ? total : 1), sizeof *d->outcomes);
    for (int l = 0; d->outcomes && l < s->c->nlessons; l++)
        for (int k = 0; k < s->c->lessons[l]->count; k++) {
            const sl_lesson *lesson = s->c->lessons[l];
            sl_result r = {0};
            r.verdict = SL_V_ERROR;
            r.hint = sl_verdict_hint(SL_V_ERROR);
            r.doc = lesson->exercises[k].doc;
            sl_text_printf(&r.detail, "grading this student stopped (status %d) before a verdict\n",
                           status);
            sl_outcome_from_result(&d->outcomes[d->count++], lesson, &lesson->exercises[k], &r);
            sl_result_free(&r);
        }
}

static void write_student_files(const class_state *s, int i)
{
    const sl_report_data *d = &s->reports[i];
    char dir[4096], path[4200];
    student_dir(s, i, dir, sizeof dir);
    sl_mkdirs(dir);
    sl_report rep = {s->names[i], d->seed, d->seconds, d->outcomes, d->count};
    snprintf(path, sizeof path, "%s/report.txt", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "student %s\n\n", s->names[i]);
        sl_report_print(f, &rep, 1);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/results.json", dir);
    if (sl_gradescope_write(path, &rep, s->c->visibility) != 0)
        fprintf(stderr, "syncgrade: cannot write %s\n", path);
    snprintf(path, sizeof path, "%s/junit.xml", dir);
    if (sl_junit_write(path, s->names[i], d->outcomes, d->count, d->seconds) != 0)
        fprintf(stderr, "syncgrade: cannot write %s\n", path);
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

static int prepare_student(int i, void *arg)
{
    class_state *s = arg;
    s->seeds[i] = s->c->have_seed ? s->c->seed : sl_seed_unpredictable();
    s->channels[i] = sl_channel_open("student");
    return s->channels[i] >= 0 ? 0 : -1;
}

static void student_done(int i, int status, void *arg)
{
    class_state *s = arg;
    int exited_well = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    char *text = exited_well ? sl_channel_get(s->channels[i], MAX_STUDENT_REPORT) : NULL;
    sl_channel_close(&s->channels[i]);
    sl_report_data *d = &s->reports[i];
    if (!text || sl_report_parse(text, d) != 0)
        failed_student(s, i, status, d);
    free(text);
    d->seed = s->seeds[i]; /* the parent chose it: the child cannot change it */
    snprintf(d->submission, sizeof d->submission, "%s", s->names[i]);
    sl_points_apply(s->c->points, d->outcomes, d->count);
    write_student_files(s, i);
    s->done++;
    show_progress(s, 0);
}

static int write_grades_csv(const class_state *s)
{
    sl_csv csv = {0};
    sl_class_csv_header(&csv, s->c->lessons, s->c->nlessons);
    for (int i = 0; i < s->count; i++) {
        sl_class_row row = {s->names[i], s->reports[i].seed, s->reports[i].outcomes,
                            s->reports[i].count};
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
                    s->names[i], errors, errors > 1 ? "s" : "");
            students++;
        }
    }
    return students;
}

int sl_class_grade(const sl_class *c)
{
    class_state s = {0};
    s.c = c;
    s.count = sl_class_students(c->submissions, &s.names);
    if (s.count <= 0) {
        fprintf(stderr, "syncgrade: %s: %s\n", c->submissions,
                s.count < 0 ? strerror(errno) : "no student folders");
        return 2;
    }
    if (sl_mkdirs(c->out) != 0) {
        fprintf(stderr, "syncgrade: cannot create %s\n", c->out);
        sl_class_free_names(s.names, s.count);
        return 2;
    }
    s.seeds = calloc((size_t)s.count, sizeof *s.seeds);
    s.channels = malloc((size_t)s.count * sizeof *s.channels);
    s.reports = calloc((size_t)s.count, sizeof *s.reports);
    for (int i = 0; s.channels && i < s.count; i++)
        s.channels[i] = -1;
    s.t0 = sl_now();
    if (!c->quiet)
        printf("grading %d students of %s, %d at a time\n", s.count, c->submissions,
               c->jobs > 0 ? c->jobs : 1);
    show_progress(&s, 0);
    sl_jobs j = {s.count, c->jobs > 0 ? c->jobs : 1, &s, prepare_student, grade_student,
                 student_done};
    sl_jobs_run(&j);
    show_progress(&s, 1);
    /* No student process is left now: write everything once more, so a
     * file some runner touched while others were graded is replaced. */
    sl_contain_kill_children(NULL, 0, 5.0);
    for (int i = 0; i < s.count; i++)
        write_student_files(&s, i);
    int rc = write_grades_csv(&s) == 0 ? 0 : 2;
    if (rc == 0 && grader_errors(&s))
        rc = 1;
    for (int i = 0; i < s.count; i++)
        sl_report_data_free(&s.reports[i]);
    free(s.reports);
    free(s.channels);
    free(s.seeds);
    sl_class_free_names(s.names, s.count);
    return rc;
}
