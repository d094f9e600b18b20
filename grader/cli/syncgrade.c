/* syncgrade: the grader's command line. It never calls CUDA and never runs
 * student code itself: runners do, in child processes.
 *
 *   syncgrade grade  [--submission DIR] [--lesson L]... [--out DIR] [--seed N]
 *                    [--jobs N] [--bench] [--quiet] [--points FILE]
 *                    [--gradescope FILE] [--junit FILE] [--visibility V]
 *   syncgrade check  --lesson L [--submission DIR] [--seed N] [--out DIR]
 *   syncgrade class  --submissions DIR [--out DIR] [--jobs N] [--points FILE]
 *                    [--seed N] [--lesson L]... [--visibility V] [--quiet]
 *   syncgrade hint   --lesson L [--exercise E] [--submission DIR] [--out DIR]
 *   syncgrade progress [--submission DIR] [--out DIR]
 *   syncgrade expect --lesson L --source FILE [--all VERDICT | --expect FILE]
 *                    [--policy] [--out DIR]
 *   syncgrade determinism --lesson L --source FILE... [--runs N] [--jobs N] [--out DIR]
 *   syncgrade policy --lesson L --source FILE [--out DIR]
 *   syncgrade points [--points FILE]
 *   syncgrade build  --lesson L --source FILE --out DIR
 *   syncgrade list
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
        {"expect", cli_expect},           {"policy", cli_policy}, {"points", cli_points},
        {"determinism", cli_determinism}, {"build", cli_build_only},
        {"inputs", cli_inputs},
    };
    if (strcmp(o.command, "grade") == 0)
        return cli_grade(&o, 0);
    if (strcmp(o.command, "check") == 0)
        return o.nlessons == 1 ? cli_grade(&o, 1) : cli_usage();
    if (strcmp(o.command, "list") == 0)
        return cli_list();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(o.command, commands[i].name) == 0)
            return commands[i].run(&o);
    return cli_usage();
}
