/* syncgrade: the grader's command line. It never calls CUDA and never runs
 * student code itself: runners do, in child processes.
 *
 * Commands and options: usage_text in cli_options.c (syncgrade --help).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "contain.h"

int main(int argc, char **argv)
{
    options o;
    if (cli_parse(argc, argv, &o) != 0)
        return cli_usage();
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* no runner may open our descriptors or memory through /proc */
    sl_contain_protect_self();
    static const struct {
        const char *name;
        int (*run)(const options *);
    } commands[] = {
        {"class", cli_grade_class},       {"hint", cli_hint},     {"progress", cli_progress},
        {"merge", cli_merge},
        {"expect", cli_expect},           {"policy", cli_policy}, {"points", cli_points},
        {"determinism", cli_determinism}, {"build", cli_build_only},
        {"inputs", cli_inputs},           {"run", cli_run},
        {"lint", cli_lint},
    };
    if (strcmp(o.command, "grade") == 0)
        return cli_grade(&o, 0);
    if (strcmp(o.command, "check") == 0)
        return o.nlessons == 1 ? cli_grade(&o, 1) : cli_usage();
    if (strcmp(o.command, "help") == 0)
        return cli_help();
    if (strcmp(o.command, "list") == 0)
        return cli_list();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(o.command, commands[i].name) == 0)
            return commands[i].run(&o);
    return cli_usage();
}
