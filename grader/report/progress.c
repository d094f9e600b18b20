#include "progress.h"

#include <string.h>

#include "hint.h"
#include "verdict.h"

enum { DETAIL_LINES = 20 };

void sl_progress_load(const char *out, const sl_lesson *const *lessons, int n, sl_lesson_status *st)
{
    for (int i = 0; i < n; i++) {
        char path[4200];
        memset(&st[i], 0, sizeof st[i]);
        st[i].lesson = lessons[i];
        snprintf(path, sizeof path, "%s/%s/results.json", out, lessons[i]->name);
        st[i].checked = sl_report_read_json(path, &st[i].last) == 0;
    }
}

void sl_progress_free(sl_lesson_status *st, int n)
{
    for (int i = 0; i < n; i++)
        sl_report_data_free(&st[i].last);
}

const sl_outcome *sl_progress_outcome(const sl_lesson_status *st, const char *exercise)
{
    for (int i = 0; st->checked && i < st->last.count; i++)
        if (strcmp(st->last.outcomes[i].exercise, exercise) == 0)
            return &st->last.outcomes[i];
    return NULL;
}

static int passes(const sl_lesson_status *st, const char *exercise)
{
    const sl_outcome *o = sl_progress_outcome(st, exercise);
    return o && o->verdict == SL_V_PASS;
}

/* SKIP: every static check passed and nothing could run here. Done for
 * now: the student moves on, and runs it on a GPU later. */
static int waits_for_gpu(const sl_lesson_status *st, const char *exercise)
{
    const sl_outcome *o = sl_progress_outcome(st, exercise);
    return o && o->verdict == SL_V_SKIP;
}

int sl_progress_next(const sl_lesson_status *st, int n, int *lesson, int *exercise)
{
    for (int l = 0; l < n; l++)
        for (int e = 0; e < st[l].lesson->count; e++)
            if (!passes(&st[l], st[l].lesson->exercises[e].name) &&
                !waits_for_gpu(&st[l], st[l].lesson->exercises[e].name)) {
                *lesson = l;
                *exercise = e;
                return 1;
            }
    return 0;
}

static void print_lesson(FILE *f, const sl_lesson_status *st)
{
    const sl_lesson *l = st->lesson;
    int pass = 0;
    for (int e = 0; e < l->count; e++)
        pass += passes(st, l->exercises[e].name);
    fprintf(f, "%-10s %d/%d pass  ", l->name, pass, l->count);
    if (!st->checked) {
        fprintf(f, "not checked yet\n");
        return;
    }
    for (int e = 0; e < l->count; e++) {
        const sl_outcome *o = sl_progress_outcome(st, l->exercises[e].name);
        fprintf(f, " %s:%s", l->exercises[e].name, o ? sl_verdict_name(o->verdict) : "-");
    }
    fputc('\n', f);
}

/* The exercises that passed every static check and wait for a GPU run. */
static int print_waiting(FILE *f, const sl_lesson_status *st, int n)
{
    int waiting = 0;
    for (int l = 0; l < n; l++)
        for (int e = 0; e < st[l].lesson->count; e++)
            if (waits_for_gpu(&st[l], st[l].lesson->exercises[e].name))
                fprintf(f, "%s %s/%s",
                        waiting++ ? "," : "\nstatic checks passed, the rest needs a GPU:",
                        st[l].lesson->name, st[l].lesson->exercises[e].name);
    if (waiting)
        fprintf(
            f,
            "\n  (done for now; run make check on a GPU for the rest: docs/students.md#no-gpu)\n");
    return waiting;
}

void sl_progress_print(FILE *f, const sl_lesson_status *st, int n)
{
    for (int l = 0; l < n; l++)
        print_lesson(f, &st[l]);
    int waiting = print_waiting(f, st, n);
    int lesson, exercise;
    if (!sl_progress_next(st, n, &lesson, &exercise)) {
        fprintf(f, waiting ? "\nevery other exercise passes\n"
                           : "\nevery exercise passes: well done\n");
        return;
    }
    const sl_lesson *l = st[lesson].lesson;
    const sl_exercise *e = &l->exercises[exercise];
    const sl_outcome *o = sl_progress_outcome(&st[lesson], e->name);
    fprintf(f, "\nnext: %s/%s (%s): %s\n", l->name, e->name,
            o ? sl_verdict_name(o->verdict) : "not checked yet", e->title);
    fprintf(f, "  read  %s\n", e->doc);
    fprintf(f, "  run   make check LESSON=%s\n", l->name);
    if (o && o->verdict != SL_V_PASS)
        fprintf(f, "  stuck make hint LESSON=%s EXERCISE=%s\n", l->name, e->name);
}

static const sl_exercise *find_exercise(const sl_lesson *l, const char *name)
{
    for (int i = 0; i < l->count; i++)
        if (strcmp(l->exercises[i].name, name) == 0)
            return &l->exercises[i];
    return NULL;
}

/* The verdict's detail as a student sees it (report.c), at most 20 lines. */
static void print_detail(FILE *f, const sl_outcome *o, const char *submission)
{
    sl_text d = {0};
    sl_report_detail(&d, o, submission);
    int lines = 0;
    for (const char *s = sl_text_str(&d); *s && lines < DETAIL_LINES; lines++) {
        size_t len = strcspn(s, "\n");
        fprintf(f, "    %.*s\n", (int)len, s);
        s += len + (s[len] == '\n');
    }
    sl_text_free(&d);
}

static const char *const STEP_NAMES[SL_HINT_STEPS] = {"question", "rule", "fix"};

/* Steps 1..upto of the ladder for verdict v. */
static void print_steps(FILE *f, const sl_exercise *e, sl_verdict v, int upto)
{
    for (int k = 1; k <= upto; k++) {
        sl_text t = {0};
        sl_hint_step(e, v, k, &t);
        fprintf(f, "hint %d/%d (%s): %s\n", k, SL_HINT_STEPS, STEP_NAMES[k - 1], sl_text_str(&t));
        sl_text_free(&t);
    }
}

int sl_hint_print(FILE *f, const sl_lesson_status *st, const char *exercise, const char *state_dir)
{
    const sl_lesson *l = st->lesson;
    const sl_exercise *e = NULL;
    if (exercise) {
        e = find_exercise(l, exercise);
        if (!e) {
            fprintf(f, "no exercise '%s' in lesson %s; its exercises:", exercise, l->name);
            for (int i = 0; i < l->count; i++)
                fprintf(f, " %s", l->exercises[i].name);
            fputc('\n', f);
            return -1;
        }
    } else {
        for (int i = 0; i < l->count && !e; i++)
            if (!passes(st, l->exercises[i].name))
                e = &l->exercises[i];
        if (!e) {
            fprintf(f, "every exercise of %s passes.\n", l->name);
            return 0;
        }
    }
    fprintf(f, "%s/%s: %s\n", l->name, e->name, e->title);
    const sl_outcome *o = sl_progress_outcome(st, e->name);
    if (!o) {
        /* no verdict yet: only where to start, not every verdict's answer */
        fprintf(f, "not checked yet: run make check LESSON=%s for a verdict.\n", l->name);
        print_steps(f, e, SL_V_TODO, 1);
    } else if (o->verdict == SL_V_PASS) {
        fprintf(f, "last check: PASS\n");
    } else {
        fprintf(f, "last check: %s%s%s\n", sl_verdict_name(o->verdict), o->where[0] ? " at " : "",
                o->where);
        print_detail(f, o, st->last.submission);
        char state[4200];
        if (state_dir)
            snprintf(state, sizeof state, "%s/hint-%s.step", state_dir, e->name);
        int step = sl_hint_advance(state_dir ? state : NULL, o->verdict);
        print_steps(f, e, o->verdict, step > SL_HINT_STEPS ? SL_HINT_STEPS : step);
        if (step < SL_HINT_STEPS)
            fprintf(f, "(run make hint LESSON=%s EXERCISE=%s again for the next step)\n", l->name,
                    e->name);
        else if (step > SL_HINT_STEPS)
            fprintf(f,
                    "no more steps: these %d are all the hints for %s; read the section below "
                    "again, or ask your instructor\n",
                    SL_HINT_STEPS, sl_verdict_name(o->verdict));
    }
    fprintf(f, "read: %s\n", e->doc);
    return 0;
}
