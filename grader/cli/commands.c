/* The command table: the one place that lists syncgrade's commands, their
 * synopses and what runs them. `syncgrade --help` and the usage printed
 * after a mistake are generated from it; main() dispatches through it. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int run_grade(const options *o) { return cli_grade(o, 0); }
static int run_check(const options *o) { return o->nlessons == 1 ? cli_grade(o, 1) : cli_usage(); }
static int run_list(const options *o)
{
    (void)o;
    return cli_list();
}

/* args: the synopsis after the name; each "\n" starts a continuation line. */
static const cli_command COMMANDS[] = {
    {"grade", run_grade,
     "[--submission DIR] [--lesson L]... [--out DIR] [--seed N]\n"
     "[--jobs N] [--bench] [--quiet] [--exit-status]\n"
     "[--timeout-scale X] [--points FILE] [--gradescope FILE]\n"
     "[--junit FILE] [--visibility V]"},
    {"check", run_check, "--lesson L [--submission DIR] [--seed N] [--out DIR]"},
    {"class", cli_grade_class,
     "--submissions DIR [--out DIR] [--jobs N] [--points FILE]\n"
     "[--seed N] [--lesson L]... [--visibility V] [--quiet]\n"
     "[--shard K/N] [--gpus all|N|ID,ID...] [--mps] [--keep-work]"},
    {"merge", cli_merge, "--out DIR [--quiet] SHARD_DIR..."},
    {"hint", cli_hint, "--lesson L [--exercise E] [--submission DIR] [--out DIR]"},
    {"progress", cli_progress, "[--submission DIR] [--out DIR]"},
    {"run", cli_run,
     "--lesson L --exercise E [--n N] [--block B] [--seed N]\n"
     "[--input FILE] [--tool racecheck|synccheck|memcheck|initcheck]\n"
     "[--submission DIR] [--out DIR]"},
    {"expect", cli_expect,
     "--lesson L --source FILE [--all VERDICT | --expect FILE]\n"
     "[--policy] [--static] [--out DIR]"},
    {"determinism", cli_determinism,
     "--lesson L --source FILE... [--runs N] [--jobs N]\n"
     "[--out DIR] [--seed N]"},
    {"policy", cli_policy, "--lesson L --source FILE [--out DIR]"},
    {"points", cli_points, "[--points FILE]"},
    {"build", cli_build_only,
     "--lesson L --source FILE --out DIR\n"
     "(pairs of --lesson and --source: one runner of them all)"},
    {"inputs", cli_inputs, "--lesson L --seed N --out DIR [--exercise E]"},
    {"locate", cli_locate, "--submission DIR [--lesson L]... [--out DIR]"},
    {"list", run_list, ""},
    {"lint", cli_lint, "[--root DIR] [--handout]"},
};
enum { NCOMMANDS = sizeof COMMANDS / sizeof COMMANDS[0] };

const cli_command *cli_command_named(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
}

/* "usage: syncgrade grade  [--submission DIR] ..." with continuation lines
 * under the first argument. */
static void print_usage(FILE *f)
{
    for (int i = 0; i < NCOMMANDS; i++) {
        const char *lead = i == 0 ? "usage: " : "       ";
        const char *args = COMMANDS[i].args;
        const char *name = COMMANDS[i].name;
        int pad = *args && strlen(name) < 6 ? 6 - (int)strlen(name) : 0;
        fprintf(f, "%ssyncgrade %s%*s", lead, name, pad, "");
        for (int line = 0; *args || line == 0; line++) {
            size_t len = strcspn(args, "\n");
            if (line > 0)
                fprintf(f, "%24s", "");
            fprintf(f, "%s%.*s\n", line == 0 && len > 0 ? " " : "", (int)len, args);
            args += len + (args[len] == '\n');
        }
    }
}

int cli_usage(void)
{
    print_usage(stderr);
    return 2;
}

int cli_help(void)
{
    print_usage(stdout);
    return 0;
}
