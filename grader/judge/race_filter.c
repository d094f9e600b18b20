#include "race_filter.h"

#include <stdio.h>
#include <stdlib.h>

#include "files.h"
#include "ptx_budget.h"
#include "ptx_warp_arrive.h"
#include "trace.h"

int sl_race_filter_dismiss(const char *file_a, int line_a, const char *file_b, int line_b,
                           void *arg)
{
    sl_race_filter *rf = arg;
    if (rf->state == 0) {
        char *text = rf->ptx_path ? sl_read_file(rf->ptx_path, 64u << 20, NULL) : NULL;
        rf->state = -1;
        if (text) {
            /* a budget of its own, as each exercise's static stages have */
            sl_ptx_budget_start(SL_PTX_BUDGET_STEPS, SL_PTX_BUDGET_SECONDS);
            sl_ptx_parse(text, &rf->ptx);
            rf->state = 1;
            free(text);
        }
    }
    if (rf->state != 1 || sl_ptx_budget_exhausted(NULL))
        return 0;
    return sl_ptx_warp_arrive_orders(&rf->ptx, file_a, line_a, file_b, line_b) &&
           !sl_ptx_budget_exhausted(NULL);
}

void sl_race_filter_free(sl_race_filter *rf)
{
    if (rf->state == 1)
        sl_ptx_free(&rf->ptx);
    rf->state = 0;
}

sl_verdict sl_race_filter_parse(const char *ptx_path, int tool, const char *report,
                                const char *prefer_file, int *dismissed, sl_text *detail,
                                char *where, size_t wherelen)
{
    sl_race_filter filter = {ptx_path, 0, {0}};
    sl_verdict v = sl_sanitizer_parse_dismissing(tool, report, prefer_file, sl_race_filter_dismiss,
                                                 &filter, dismissed, detail, where, wherelen);
    sl_race_filter_free(&filter);
    if (*dismissed && sl_tracing())
        fprintf(stderr, "[trace] racecheck: every hazard reported is ordered by lane 0 arriving "
                        "for its warp (ptx_warp_arrive): dismissed\n");
    return v;
}
