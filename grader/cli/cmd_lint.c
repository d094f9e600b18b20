/* syncgrade lint: do the lesson files agree (grader/report/lint.h)? */
#include <stdio.h>
#include <sys/stat.h>

#include "lint.h"
#include "synclab_config.h"

#include "cli.h"

int cli_lint(const options *o)
{
    const char *root = o->root ? o->root : SYNCLAB_SOURCE_DIR;
    struct stat st;
    if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "syncgrade: lint: --root %s is not a folder\n", root);
        return 2;
    }
    sl_text out = {0};
    int bad = sl_lint(root, sl_lessons, o->handout ? SL_LINT_HANDOUT : SL_LINT_REPOSITORY, &out);
    fputs(sl_text_str(&out), stdout);
    sl_text_free(&out);
    int lessons = 0;
    for (const sl_lesson *const *l = sl_lessons; *l; l++)
        lessons++;
    char solutions[4200];
    snprintf(solutions, sizeof solutions, "%s/solutions", root);
    if (bad && !o->handout && stat(solutions, &st) != 0)
        printf("lint: %d problems in %s, which has no solutions/: a handout? "
               "(syncgrade lint --handout)\n",
               bad, root);
    else if (bad)
        printf("lint: %d problem%s in %s%s\n", bad, bad == 1 ? "" : "s",
               o->handout ? "the handout " : "", root);
    else if (o->handout)
        printf("lint: %d lessons, their docs, points.ini and README agree, no solutions, no "
               "zoo, no instructor-only passage (the handout %s)\n",
               lessons, root);
    else
        printf("lint: %d lessons, their docs, bug zoos, points.ini and README agree (%s)\n",
               lessons, root);
    return bad ? 1 : 0;
}
