/* The per-exercise PTX rules: forbidden and required instructions, and a
 * fence of gpu scope between a plain store and the access that publishes it. */
#include <string.h>

#include "ptx.h"

static int wide_scope(const sl_ptx_insn *in)
{
    return sl_ptx_op_has(in, ".gpu") || sl_ptx_op_has(in, ".sys");
}

typedef enum { C_OTHER, C_STORE, C_PUBLISH, C_FENCE_WIDE, C_FENCE_NARROW } insn_class;

static insn_class classify(const sl_ptx_insn *in, int *release)
{
    *release = 0;
    if (sl_ptx_matches(in, "membar.gl|membar.sys"))
        return C_FENCE_WIDE;
    if (sl_ptx_matches(in, "membar.cta"))
        return C_FENCE_NARROW;
    if (sl_ptx_matches(in, "fence.sc.|fence.acq_rel.|fence.release."))
        return wide_scope(in) ? C_FENCE_WIDE : C_FENCE_NARROW;
    if (sl_ptx_matches(in, "atom.|red.")) {
        /* atom's scope defaults to .gpu when none is written */
        int scoped_narrow = sl_ptx_op_has(in, ".cta") || sl_ptx_op_has(in, ".cluster");
        *release = (sl_ptx_op_has(in, ".release") || sl_ptx_op_has(in, ".acq_rel")) && !scoped_narrow;
        return C_PUBLISH;
    }
    if (sl_ptx_matches(in, "st.")) {
        if (sl_ptx_op_has(in, ".shared") || sl_ptx_op_has(in, ".local") || sl_ptx_op_has(in, ".param") ||
            sl_ptx_op_has(in, ".async"))
            return C_OTHER;
        if (sl_ptx_op_has(in, ".volatile") || sl_ptx_op_has(in, ".relaxed") || sl_ptx_op_has(in, ".release") ||
            sl_ptx_op_has(in, ".mmio")) {
            *release = sl_ptx_op_has(in, ".release") && wide_scope(in);
            return C_PUBLISH;
        }
        return C_STORE;
    }
    return C_OTHER;
}

/* ---------- rules ---------- */

static int in_scope(const sl_ptx_func *f, const sl_rule *r)
{
    return !r->function || strstr(f->name, r->function) != NULL;
}

static int check_forbid(const sl_ptx *p, const sl_rule *r, sl_text *why, char *where, size_t wl)
{
    for (int i = 0; i < p->nfunc; i++) {
        const sl_ptx_func *f = &p->func[i];
        if (!in_scope(f, r))
            continue;
        for (int j = 0; j < f->ninsn; j++) {
            if (sl_ptx_matches(&f->insn[j], r->pattern)) {
                sl_text_printf(why, "the PTX of %s contains ", f->name);
                sl_ptx_say(p, &f->insn[j], why, where, wl);
                sl_text_printf(why, ", which this exercise forbids");
                return 0;
            }
        }
    }
    return 1;
}

static int check_require(const sl_ptx *p, const sl_rule *r, sl_text *why)
{
    for (int i = 0; i < p->nfunc; i++) {
        const sl_ptx_func *f = &p->func[i];
        if (!in_scope(f, r))
            continue;
        for (int j = 0; j < f->ninsn; j++)
            if (sl_ptx_matches(&f->insn[j], r->pattern))
                return 1;
    }
    sl_text_printf(why, "no instruction matching '%s' in %s", r->pattern,
                   r->function ? r->function : "the PTX");
    return 0;
}

static int check_fenced_publish_func(const sl_ptx *p, const sl_ptx_func *f, sl_text *why,
                                     char *where, size_t wl)
{
    int last_store = -1, wide_after = -1, narrow_after = -1, wide_before = -1;
    int wide_since_publish = -1;
    for (int j = 0; j < f->ninsn; j++) {
        int release;
        switch (classify(&f->insn[j], &release)) {
        case C_STORE:
            if (wide_after >= 0)
                wide_before = wide_after;
            else if (wide_since_publish >= 0)
                wide_before = wide_since_publish;
            last_store = j;
            wide_after = narrow_after = -1;
            break;
        case C_FENCE_WIDE:
            wide_after = j;
            if (last_store < 0)
                wide_since_publish = j;
            break;
        case C_FENCE_NARROW:
            narrow_after = j;
            break;
        case C_PUBLISH:
            if (last_store < 0) {
                wide_since_publish = -1;
                break; /* nothing stored yet: nothing to publish */
            }
            if (release || wide_after >= 0)
                return 1;
            sl_text_printf(why, "in %s, the store ", f->name);
            sl_ptx_say(p, &f->insn[last_store], why, where, wl);
            sl_text_printf(why, " is published by ");
            sl_ptx_say(p, &f->insn[j], why, where, wl);
            if (narrow_after >= 0) {
                sl_text_printf(why, " with only ");
                sl_ptx_say(p, &f->insn[narrow_after], why, where, wl);
                sl_text_printf(why, " between them: that fence orders memory for the threads of "
                                    "one block only; other blocks need __threadfence() (gpu scope)");
            } else if (wide_before >= 0) {
                sl_text_printf(why, ", but the fence ");
                sl_ptx_say(p, &f->insn[wide_before], why, where, wl);
                sl_text_printf(why, " comes before the store: a fence orders what comes before "
                                    "it against what comes after, so it must sit between the "
                                    "store and the publish");
            } else {
                sl_text_printf(why, " with no fence between them: another block may see the "
                                    "flag before the data");
            }
            return 0;
        default:
            break;
        }
    }
    return 1;
}

int sl_rules_check(const sl_ptx *p, const sl_rule *rules, sl_text *why, char *where,
                   size_t wherelen)
{
    if (wherelen)
        where[0] = '\0';
    if (!rules)
        return 1;
    for (const sl_rule *r = rules; r->kind != SL_RULE_END; r++) {
        int ok = 1, seen = 0;
        sl_text msg = {0};
        switch (r->kind) {
        case SL_RULE_FORBID:
            ok = check_forbid(p, r, &msg, where, wherelen);
            break;
        case SL_RULE_REQUIRE:
            ok = check_require(p, r, &msg);
            break;
        case SL_RULE_FENCED_PUBLISH:
            for (int i = 0; ok && i < p->nfunc; i++)
                if (in_scope(&p->func[i], r)) {
                    seen = 1;
                    ok = check_fenced_publish_func(p, &p->func[i], &msg, where, wherelen);
                }
            (void)seen;
            break;
        default:
            break;
        }
        if (!ok) {
            sl_text_printf(why, "%s", sl_text_str(&msg));
            if (r->why)
                sl_text_printf(why, ".\n%s", r->why);
            sl_text_free(&msg);
            return 0;
        }
        sl_text_free(&msg);
    }
    return 1;
}
