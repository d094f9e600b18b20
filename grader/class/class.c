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
#include "files.h"
#include "gradescope.h"
#include "jobs.h"
#include "junit.h"
#include "lesson_run.h"
#include "proc.h"
#include "report.h"
#include "rng.h"
#include "sandbox.h"
#include "shard.h"

enum { MAX_STUDENT_REPORT = 64 << 20 };

/* ---------- student folders ---------- */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int sl_class_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 128 || name[0] == '.' || name[0] == '-')
        return 0;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '.' || *c == '_' || *c == '-' || *c == '@' || *c == '+'))
            return 0;
    return 1;
}

/* A name as it can be shown on one line: odd bytes as \xNN. */
static void printable(const char *name, char *out, size_t n)
{
    size_t k = 0;
    for (const unsigned char *c = (const unsigned char *)name; *c && k + 5 < n; c++) {
        if (*c >= 0x21 && *c < 0x7f && *c != '\\')
            out[k++] = (char)*c;
        else
            k += (size_t)snprintf(out + k, n - k, "\\x%02x", *c);
    }
    out[k] = '\0';
}

int sl_class_students(const char *dir, char ***names)
{
    return sl_class_students_checked(dir, names, NULL);
}

int sl_class_students_checked(const char *dir, char ***names, int *refused)
{
    *names = NULL;
    if (refused)
        *refused = 0;
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
        if (!sl_class_name_ok(e->d_name)) {
            /* it would become a path, a CSV cell and a report title */
            char shown[600];
            printable(e->d_name, shown, sizeof shown);
            fprintf(stderr,
                    "syncgrade: student folder '%s' not graded: a name may hold only "
                    "letters, digits and . _ - @ + (rename it)\n",
                    shown);
            if (refused)
                (*refused)++;
            continue;
        }
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
    int *channels;           /* one per student while its job runs */
    sl_report_data *reports; /* filled as students finish */
    int done;
    double t0;
    int class_size; /* the whole class, when this run is one shard */
    int *gpu_of;    /* with c->gpus: each student's GPU */
    int gpu_busy[SL_MAX_GPUS];
} class_state;

/* <out>/students/<name>: apart from the class's own files (grades.csv),
 * whatever a student's folder is called. */
static void student_dir(const class_state *s, int i, char *buf, size_t n)
{
    snprintf(buf, n, "%s/students/%s", s->c->out, s->names[i]);
}

static int grade_student(int i, void *arg)
{
    class_state *s = arg;
    const sl_class *c = s->c;
    if (c->gpus && s->gpu_of)
        sl_gpus_enter(c->gpus, s->gpu_of[i]);
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
        sl_report_write_lesson(job.out_dir, job.source, job.seed, all + n, lesson->count);
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

/* A safety net, not a budget: every stage of a student's grading has a
 * limit of its own (compiler, static analysis, each run); a student whose
 * grading still runs after this long hangs where none reaches, and is
 * stopped (ERROR, the grader's fault) so that it holds no slot for good. */
#define STUDENT_DEADLINE_S (3 * 3600.0)

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
            sl_outcome *o = &d->outcomes[d->count++];
            sl_outcome_init(o, lesson, &lesson->exercises[k]);
            sl_outcome_set(o, SL_V_ERROR);
            snprintf(o->hint, sizeof o->hint, "%s", sl_verdict_hint(SL_V_ERROR));
            sl_text_printf(&o->detail,
                           "grading this student stopped (status %d) before a verdict\n", status);
        }
}

/* 0 when every file of the student was written whole. */
static int write_student_files(const class_state *s, int i)
{
    int rc = 0;
    const sl_report_data *d = &s->reports[i];
    char dir[4096], path[4200];
    student_dir(s, i, dir, sizeof dir);
    sl_mkdirs(dir);
    sl_report rep = {s->names[i], d->seed, d->seconds, d->outcomes, d->count};
    snprintf(path, sizeof path, "%s/report.txt", dir);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        fprintf(f, "student %s\n", s->names[i]);
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
    if (sl_junit_write(path, s->names[i], d->outcomes, d->count, d->seconds) != 0) {
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
        sl_class_row row = {s->names[i], d->seed, d->outcomes, d->count};
        sl_class_csv_row(&rows[i], s->c->lessons, s->c->nlessons, &row);
        student_dir(s, i, dirs[i], sizeof dirs[i]);
        m.students[i].name = s->names[i];
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
    int refused = 0;
    s.count = sl_class_students_checked(c->submissions, &s.names, &refused);
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
    s.class_size = s.count;
    s.count = sl_shard_take(s.names, s.count, c->shard_k, c->shard_n);
    s.gpu_of = c->gpus ? calloc((size_t)(s.count ? s.count : 1), sizeof *s.gpu_of) : NULL;
    for (int i = 0; s.gpu_of && i < s.count; i++)
        s.gpu_of[i] = -1;
    s.seeds = calloc((size_t)s.count, sizeof *s.seeds);
    s.channels = malloc((size_t)s.count * sizeof *s.channels);
    s.reports = calloc((size_t)s.count, sizeof *s.reports);
    for (int i = 0; s.channels && i < s.count; i++)
        s.channels[i] = -1;
    s.t0 = sl_now();
    /* no runner sees another student's folder or any of the results */
    sl_sandbox_hide(c->submissions);
    sl_sandbox_hide(c->out);
    if (!c->quiet || !sl_sandbox_available())
        printf("%s\n", sl_sandbox_status());
    if (!c->quiet) {
        printf("grading %d students of %s, %d at a time", s.count, c->submissions,
               c->jobs > 0 ? c->jobs : 1);
        if (c->gpus)
            printf(" on %d GPU%s", c->gpus->count, c->gpus->count == 1 ? "" : "s");
        if (c->shard_n > 0)
            printf(" (shard %d/%d of %d students)", c->shard_k, c->shard_n, s.class_size);
        printf("\n");
    }
    show_progress(&s, 0);
    sl_jobs j = {s.count,      c->jobs > 0 ? c->jobs : 1, &s, prepare_student, grade_student,
                 student_done, STUDENT_DEADLINE_S};
    sl_jobs_run(&j);
    show_progress(&s, 1);
    /* No student process is left now: write everything once more, so a
     * file some runner touched while others were graded is replaced. */
    sl_contain_kill_children(NULL, 0, 5.0);
    int unwritten = 0;
    for (int i = 0; i < s.count; i++)
        unwritten += write_student_files(&s, i) != 0;
    int rc = write_grades_csv(&s) == 0 && !unwritten ? 0 : 2;
    if (rc == 0 && c->shard_n > 0 && write_shard_manifest(&s) != 0)
        rc = 2;
    if (rc == 0 && (grader_errors(&s) || refused))
        rc = 1;
    for (int i = 0; i < s.count; i++)
        sl_report_data_free(&s.reports[i]);
    free(s.reports);
    free(s.channels);
    free(s.seeds);
    free(s.gpu_of);
    sl_class_free_names(s.names, s.count);
    return rc;
}
