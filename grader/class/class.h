/* Grading a whole class: one folder per student (each laid out like
 * starter/), graded in parallel with a bounded number of jobs, each
 * student in its own process and its own build folders. The verdicts come
 * back through private channels (channel.h); every file is written by
 * this process, which never runs student code, after that student's
 * processes are gone, and once more at the end when no student process is
 * left at all:
 *   <out>/grades.csv                          one row per student, one column per exercise
 *   <out>/students/<student>/report.txt       the table and every verdict explained
 *   <out>/students/<student>/results.json     Gradescope's format
 *   <out>/students/<student>/junit.xml        JUnit XML
 *   <out>/students/<student>/<lesson>/        build and work folders, removed
 *                                             once the student is graded
 *                                             unless keep_work
 * Every folder is a student with a row (roster.h): one whose name cannot
 * be graded gets 0 points and why in `notes`; <student> is the folder's
 * name when plain, else a safe form of it (roster.h). The lesson files are
 * found as locate.h says, and `notes` says what was found. */
#ifndef SYNCLAB_CLASS_H
#define SYNCLAB_CLASS_H

#include <stdint.h>

#include "build.h"
#include "csv.h"
#include "exercise.h"
#include "gpus.h"
#include "outcome.h"
#include "points.h"

typedef struct {
    const char *submissions; /* folder of student folders */
    const char *out;
    int jobs;                        /* students running at once (stagger: 3x graded) */
    const sl_points *points;         /* NULL: the suites' defaults */
    uint64_t seed;                   /* with have_seed: every student gets it */
    int have_seed;                   /* otherwise each an unpredictable one */
    const sl_lesson *const *lessons; /* what to grade, curriculum order */
    int nlessons;
    const sl_build_config *build;
    const char *harness_lib_dir;
    const char *sanitizer;
    double timeout_scale;
    const char *visibility; /* Gradescope test visibility */
    int quiet;              /* no progress line */
    int shard_k, shard_n;   /* only shard K of N (shard.h), and its
                                         manifest; shard_n 0: everyone */
    const sl_gpus *gpus;    /* NULL: whatever GPU CUDA shows; else
                                         each student on the least busy one */
    int keep_work;          /* keep students/<s>/<lesson>/ (builds, runners, logs) */
} sl_class;

/* 0 when every student was graded; 1 when the grader failed on some
 * (ERROR verdicts, said on stderr); 2 when nothing could be graded. */
int sl_class_grade(const sl_class *c);

/* "students 3/40 done, elapsed 1m05s, ETA 20m40s" */
void sl_class_progress_line(char *buf, size_t n, int done, int total, double elapsed_s);

/* grades.csv: the header row, then one row per student. */
typedef struct {
    const char *student;
    uint64_t seed;
    const sl_outcome *outcomes;
    int count;
    const char *notes; /* what the folder held or why it was not graded (NULL: none) */
} sl_class_row;
void sl_class_csv_header(sl_csv *csv, const sl_lesson *const *lessons, int nlessons);
void sl_class_csv_row(sl_csv *csv, const sl_lesson *const *lessons, int nlessons,
                      const sl_class_row *row);

#endif
