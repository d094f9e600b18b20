#include "room.h"

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

/* Students that fit in usable bytes: each takes each, and each of the
 * sweeping ones (at most at_once; out of range: all) sweep more. */
static int fit(long long usable, long long each, long long sweep, int at_once, int sweeping)
{
    if (sweeping < 1 || sweeping > at_once)
        sweeping = at_once;
    /* students a (<= sweeping) that all sweep: a * (each + sweep) */
    long long all_sweep = usable / (each + sweep);
    long long n;
    if (all_sweep < sweeping)
        n = all_sweep;
    else /* the sweeping ones' share, then everyone's */
        n = (usable - (long long)sweeping * sweep) / each;
    if (n < 1)
        n = 1; /* one at a time: what the room can do */
    return n < at_once ? (int)n : at_once;
}

int sl_disk_fit(long long free, long long inputs, int at_once, int sweeping)
{
    if (at_once < 1)
        at_once = 1;
    if (free < 0 || inputs <= 0)
        return at_once; /* nothing known: as asked */
    return fit(free / 10 * 9, inputs + SL_DISK_FIT_BUILD_BYTES,
               inputs / 10 * SL_DISK_FIT_OUTPUTS_TENTHS, at_once, sweeping);
}

int sl_memory_fit(long long available, int at_once, int sweeping)
{
    if (at_once < 1)
        at_once = 1;
    if (available < 0)
        return at_once;
    return fit(available / 10 * 9, SL_MEMORY_FIT_STUDENT_BYTES, SL_MEMORY_FIT_SWEEP_BYTES, at_once,
               sweeping);
}
