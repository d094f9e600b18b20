/* What the commands of syncgrade share: the parsed options and where the
 * grader finds its tools, lessons and points. */
#ifndef SYNCLAB_CLI_H
#define SYNCLAB_CLI_H

#include <stdint.h>

#include "lesson_run.h"
#include "points.h"

enum { MAX_LESSONS = 32, MAX_ONLY = 16, MAX_SOURCES = 256 };

typedef struct {
    const char *command;
    const char *submission;
    const char *submissions;
    const char *sources[MAX_SOURCES];
    int nsources;
    const char *out;
    const char *all;
    const char *expect_file;
    const char *exercise;
    const char *points;
    const char *gradescope;
    const char *junit;
    const char *visibility;
    const char *root; /* syncgrade lint: the source tree */
    int handout;      /* syncgrade lint: root is a handout (make handout) */
    const char *lessons[MAX_LESSONS];
    int nlessons;
    uint64_t seed;
    int have_seed;
    int jobs;
    int runs;
    int bench;
    int quiet;
    int exit_status; /* grade: exit 1 when anything does not pass, as check does */
    int policy;
    int static_only; /* expect --static: the static stages alone, no runner */
    double timeout_scale;
    /* syncgrade run: the playground's input and tool */
    int n, block;
    const char *input;
    const char *tool;
    /* syncgrade class: one shard of the class, over which GPUs, with MPS */
    const char *shard;
    const char *gpus;
    int mps;
    int keep_work; /* class: keep each student's build and work folders */
    /* syncgrade merge: the shard folders */
    const char *operands[MAX_SOURCES];
    int noperands;
} options;

/* The command table (commands.c): name, what runs it, its synopsis. */
typedef struct {
    const char *name;
    int (*run)(const options *);
    const char *args;
} cli_command;
const cli_command *cli_command_named(const char *name); /* NULL: no such command */

/* Parsing and usage (generated from the command table). */
int cli_usage(void);
int cli_help(void); /* the usage on stdout, status 0 */
int cli_parse(int argc, char **argv, options *o);
/* compute-sanitizer: $SYNCLAB_SANITIZER, the configured one, or the PATH. */
const char *cli_find_sanitizer(void);
sl_build_config cli_build_config(void);
/* The paths baked in at configure time that grading needs (source tree,
 * harness libraries, nvcc, compute-sanitizer, .deps) are on this machine:
 * 0, or -1 after one ERROR line on stderr naming the path and what to do
 * (cli_paths.c). grade, check and class call it before grading anyone. */
int cli_check_paths(const sl_build_config *bc);
double cli_timeout_scale(const options *o);
void cli_job_defaults(sl_lesson_job *job, const options *o, const sl_build_config *bc);
const sl_lesson *cli_lesson_named(const char *name);
int cli_select_lessons(const options *o, const sl_lesson **out);
int cli_load_points(const options *o, sl_points *p);
int cli_visibility_ok(const options *o);
const char *cli_default_out(const options *o);
/* 1 when the compiler can write under out (sl_build_folder_ok); else 0,
 * said in one line. */
int cli_out_ok(const char *out);
/* <root>/<lesson>/<parent folder>-<file>: where a source's build and work go. */
void cli_source_out_dir(const char *root, const sl_lesson *l, const char *source, char *out,
                        size_t n);

/* The commands (cmd_grade.c, cmd_expect.c, cmd_tools.c). */
int cli_grade(const options *o, int check_mode);
int cli_grade_class(const options *o); /* and merge: cmd_class.c */
int cli_merge(const options *o);
int cli_hint(const options *o);
int cli_progress(const options *o);
int cli_expect(const options *o);
int cli_determinism(const options *o);
int cli_policy(const options *o);
int cli_points(const options *o);
int cli_build_only(const options *o);
int cli_inputs(const options *o);
int cli_list(void);
int cli_locate(const options *o); /* where a submission's lesson files are */
int cli_run(const options *o);    /* the playground (cmd_run.c) */
int cli_lint(const options *o);   /* the lesson files agree (cmd_lint.c) */

#endif
