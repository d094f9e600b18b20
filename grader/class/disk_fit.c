#include "disk_fit.h"

#include "files.h"
#include "grade.h"

static long long inputs_bytes(const sl_inputs *in)
{
    long long bytes = 0;
    for (int i = 0; i < in->count; i++) {
        const sl_case *c = &in->v[i].in;
        bytes += (long long)sizeof *c; /* the case file's header, about */
        for (int a = 0; a < c->narrays; a++)
            bytes += (long long)c->array[a].count * (long long)sl_elem_size(c->array[a].type);
    }
    return bytes;
}

long long sl_disk_fit_inputs(const sl_lesson *const *lessons, int n)
{
    long long bytes = 0;
    for (int l = 0; l < n; l++)
        for (int e = 0; e < lessons[l]->count; e++) {
            sl_inputs small = {0}, full = {0};
            /* sizes hardly depend on the seed: one seed stands for all */
            sl_grade_inputs(lessons[l], &lessons[l]->exercises[e], 1, &small, &full);
            bytes += inputs_bytes(&small) + inputs_bytes(&full);
            sl_inputs_free(&small);
            sl_inputs_free(&full);
        }
    return bytes;
}

int sl_disk_fit(long long free, long long inputs, int at_once, int sweeping)
{
    if (at_once < 1)
        at_once = 1;
    if (free < 0 || inputs <= 0)
        return at_once; /* nothing known: as asked */
    long long usable = free / 10 * 9, each = inputs + SL_DISK_FIT_BUILD_BYTES;
    long long outputs = inputs / 10 * SL_DISK_FIT_OUTPUTS_TENTHS;
    if (sweeping < 1 || sweeping > at_once)
        sweeping = at_once;
    /* students a (<= sweeping) that all sweep: a * (each + outputs) */
    long long all_sweep = usable / (each + outputs);
    long long fit;
    if (all_sweep < sweeping)
        fit = all_sweep;
    else /* the sweeping ones' outputs, then everyone's inputs */
        fit = (usable - (long long)sweeping * outputs) / each;
    if (fit < 1)
        fit = 1; /* one at a time: what the disk can do */
    return fit < at_once ? (int)fit : at_once;
}
