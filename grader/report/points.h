/* Points per exercise, set by the instructor in one INI file
 * (grading/points.ini lists every exercise with its default):
 *
 *   [barriers]
 *   tile_reverse = 10
 *
 * An exercise the file does not name keeps the default its lesson's suite
 * gives. A name the grader does not know (a typo) or a value that is not a
 * number >= 0 is an error, so a mistake never silently grades a class. */
#ifndef SYNCLAB_POINTS_H
#define SYNCLAB_POINTS_H

#include <stdio.h>

#include "exercise.h"
#include "outcome.h"
#include "text.h"

typedef struct {
    char lesson[64];
    char exercise[64];
    double points;
} sl_points_entry;

typedef struct {
    sl_points_entry *v;
    int count, cap;
} sl_points;

/* Reads the file (lessons: NULL-ended, the ones grading may meet). 0 ok;
 * -1 with the problems in err (the table is then empty). */
int sl_points_load(sl_points *p, const char *path, const sl_lesson *const *lessons, sl_text *err);
/* The same on text (for tests and for files read elsewhere). */
int sl_points_parse(sl_points *p, const char *text, const sl_lesson *const *lessons, sl_text *err);
void sl_points_free(sl_points *p);

/* Points of an exercise: the file's, else the suite's default (p may be NULL). */
double sl_points_for(const sl_points *p, const char *lesson, const char *exercise,
                     double default_points);
/* Sets max_points (and points: all or nothing, PASS only) of each outcome. */
void sl_points_apply(const sl_points *p, sl_outcome *o, int count);
/* The default file: every lesson and exercise with its suite's points. */
void sl_points_write_defaults(FILE *f, const sl_lesson *const *lessons);

#endif
