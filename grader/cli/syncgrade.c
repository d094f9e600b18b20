/* syncgrade: the grader's command line. It never calls CUDA and never runs
 * student code itself: runners do, in child processes.
 *
 * Commands: the table in commands.c, which the usage text is generated
 * from (syncgrade --help); options: cli_options.c.
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
    if (strcmp(o.command, "help") == 0)
        return cli_help();
    const cli_command *c = cli_command_named(o.command);
    return c ? c->run(&o) : cli_usage();
}
