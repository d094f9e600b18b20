/* The per-exercise PTX rules: forbidden and required instructions, and a
 * fence of gpu scope between a plain store and the access that publishes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "ptx_shared.h"

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
        *release =
            (sl_ptx_op_has(in, ".release") || sl_ptx_op_has(in, ".acq_rel")) && !scoped_narrow;
        return C_PUBLISH;
    }
    if (sl_ptx_matches(in, "st.")) {
        if (sl_ptx_op_has(in, ".shared") || sl_ptx_op_has(in, ".local") ||
            sl_ptx_op_has(in, ".param") || sl_ptx_op_has(in, ".async"))
            return C_OTHER;
        if (sl_ptx_op_has(in, ".volatile") || sl_ptx_op_has(in, ".relaxed") ||
            sl_ptx_op_has(in, ".release") || sl_ptx_op_has(in, ".mmio")) {
            *release = sl_ptx_op_has(in, ".release") && wide_scope(in);
            return C_PUBLISH;
        }
        return C_STORE;
    }
    return C_OTHER;
}

/* ---------- rules ---------- */

int sl_rule_says_ok(const sl_rule *r)
{
    if (r->kind != SL_RULE_FORBID && r->kind != SL_RULE_FORBID_LIBRARY &&
        r->kind != SL_RULE_FORBID_SOURCE && r->kind != SL_RULE_REQUIRE)
        return 1;
    return r->says && r->says[0] && !strpbrk(r->says, "|&@") && !strstr(r->says, "+.");
}

/* Opcode prefixes, most specific first, and what they do in words. */
static const struct {
    const char *prefix, *words;
} INSN_WORDS[] = {
    {"atom.",
     "an atomic read-modify-write (atomicAdd, atomicCAS, atomicExch, cuda::atomic_ref...)"},
    {"red.", "an atomic update whose result is unused (atomicAdd and the like)"},
    {"sured.", "an atomic update of a surface"},
    {"cp.reduce.async", "an asynchronous bulk reduction into memory"},
    {"multimem.", "a multimem reduction"},
    {"mbarrier.pending_count", "a read of an mbarrier's pending arrival count"},
    {"mbarrier.arrive", "an arrival on an mbarrier (cuda::barrier's arrive)"},
    {"mbarrier.", "an mbarrier operation (cuda::barrier)"},
    {"shfl.", "a warp shuffle (__shfl_*_sync)"},
    {"redux.", "a warp reduction (__reduce_*_sync)"},
    {"bar.red.", "a voting barrier (__syncthreads_count/and/or)"},
    {"barrier.red.", "a voting barrier (__syncthreads_count/and/or)"},
    {"barrier.cta.red.", "a voting barrier (__syncthreads_count/and/or)"},
    {"bar.warp.sync", "a warp barrier (__syncwarp)"},
    {"bar.", "a block-wide barrier (__syncthreads)"},
    {"barrier.", "a block-wide barrier (__syncthreads)"},
    {"membar.", "a memory fence (__threadfence and the like)"},
    {"fence.", "a memory fence (__threadfence, cuda::atomic_thread_fence...)"},
    {"cp.async", "an asynchronous copy (cuda::memcpy_async)"},
    {"ld.", "a load from memory"},
    {"st.", "a store to memory"},
    {"call", "a function call"},
};

const char *sl_ptx_insn_words(const sl_ptx_insn *in)
{
    for (size_t i = 0; i < sizeof INSN_WORDS / sizeof INSN_WORDS[0]; i++)
        if (sl_ptx_matches(in, INSN_WORDS[i].prefix))
            return INSN_WORDS[i].words;
    return "an instruction";
}

static int in_scope(const sl_ptx_func *f, const sl_rule *r)
{
    return !r->function || strstr(f->name, r->function) != NULL;
}

static int named_after(const char *function, void *rule)
{
    const sl_rule *r = rule;
    return !r->function || strstr(function, r->function) != NULL;
}

/* The functions a FORBID or REQUIRE looks at: those named after r->function
 * (all when NULL) and every function they call, so that an instruction
 * moved into a __noinline__ helper still counts. mark: p->nfunc entries. */
static char *rule_scope(const sl_ptx *p, const sl_rule *r)
{
    char *mark = calloc((size_t)p->nfunc + 1, 1);
    if (!mark)
        abort();
    sl_ptx_scope(p, named_after, (void *)r, mark);
    return mark;
}

static int check_forbid(const sl_ptx *p, const sl_rule *r, sl_text *why, char *where, size_t wl)
{
    char *mark = rule_scope(p, r);
    int ok = 1;
    for (int i = 0; i < p->nfunc && ok; i++) {
        const sl_ptx_func *f = &p->func[i];
        if (!mark[i] || (r->kind == SL_RULE_FORBID_LIBRARY && !sl_ptx_library_function(p, i)))
            continue;
        for (int j = 0; j < f->ninsn; j++) {
            if (sl_ptx_matches(&f->insn[j], r->pattern)) {
                sl_text_printf(why, "%s has %s at ", f->name, sl_ptx_insn_words(&f->insn[j]));
                sl_ptx_say(p, &f->insn[j], why, where, wl);
                sl_text_printf(why, "; this exercise forbids %s", r->says ? r->says : "it");
                ok = 0;
                break;
            }
        }
    }
    free(mark);
    return ok;
}

/* Does path hold one of pattern's '|'-separated parts? */
static int path_has_part(const char *path, const char *pattern)
{
    for (const char *s = pattern; *s;) {
        size_t n = strcspn(s, "|");
        for (const char *h = path; n && *h; h++)
            if (strncmp(h, s, n) == 0)
                return 1;
        s += n + (s[n] == '|');
    }
    return 0;
}

/* The file, in's own or one it was inlined through, whose path holds one
 * of pattern's parts; -1 when none does. Only library files count (by the
 * compiler's dependency list, ptx.h): a student's file named like a CUDA
 * header is the student's. */
static int source_file(const sl_ptx *p, const sl_ptx_insn *in, const char *pattern)
{
    for (int v = -1; v < in->nvia; v++) {
        int file = v < 0 ? in->own_file : in->via_file[v];
        if (sl_ptx_library_file(p, file) && p->file[file] && path_has_part(p->file[file], pattern))
            return file;
    }
    return -1;
}

static int from_source(const sl_ptx *p, const sl_ptx_insn *in, const char *pattern)
{
    return source_file(p, in, pattern) >= 0;
}

static int check_forbid_source(const sl_ptx *p, const sl_rule *r, sl_text *why, char *where,
                               size_t wl)
{
    char *mark = rule_scope(p, r);
    int ok = 1;
    for (int i = 0; i < p->nfunc && ok; i++) {
        const sl_ptx_func *f = &p->func[i];
        for (int j = 0; mark[i] && j < f->ninsn && ok; j++) {
            int k = source_file(p, &f->insn[j], r->pattern);
            if (k < 0)
                continue;
            sl_text_printf(why, "%s has code compiled from the library header %s (%s at ", f->name,
                           p->file[k], sl_ptx_insn_words(&f->insn[j]));
            sl_ptx_say(p, &f->insn[j], why, where, wl);
            sl_text_printf(why, "); this exercise forbids %s", r->says ? r->says : "it");
            ok = 0;
        }
    }
    free(mark);
    return ok;
}

/* One term of a REQUIRE pattern: an opcode prefix, then "+.qual" parts the
 * opcode must also hold, in any order ("atom+.acq_rel+.cta" matches
 * atom.add.acq_rel.cta.u64 and atom.acq_rel.cta.add.u64 alike). A term may
 * end in "@<part>": the instruction must also come from (be inlined
 * through) a file whose path holds part ("atom+.release@__barrier/":
 * libcu++'s barrier, not any atomic the student wrote as a decoy). The
 * term "~shared" is any instruction that may touch shared memory
 * (ptx_shared.h: generic accesses included, so a pointer the compiler could
 * not place still counts). */
static int term_matches(const sl_ptx *p, const sl_ptx_insn *in, const char *term, size_t n)
{
    if (n == 7 && strncmp(term, "~shared", 7) == 0)
        return sl_ptx_insn_may_touch_shared(p, in);
    const char *at = memchr(term, '@', n);
    if (at) {
        char src[128];
        snprintf(src, sizeof src, "%.*s", (int)(n - (size_t)(at - term) - 1), at + 1);
        if (!from_source(p, in, src))
            return 0;
        n = (size_t)(at - term);
    }
    size_t plen = strcspn(term, "+@");
    if (plen > n)
        plen = n;
    char part[128];
    snprintf(part, sizeof part, "%.*s", (int)plen, term);
    if (!sl_ptx_matches(in, part))
        return 0;
    for (size_t k = plen; k < n;) {
        size_t len = strcspn(term + k + 1, "+&|@");
        if (k + 1 + len > n)
            len = n - k - 1;
        snprintf(part, sizeof part, "%.*s", (int)len, term + k + 1);
        if (!sl_ptx_op_has(in, part))
            return 0;
        k += 1 + len;
    }
    return 1;
}

/* Code that never meets a REQUIRE: the grid barrier of cooperative groups
 * is an atomic release and an acquire load, the same instructions as a
 * device-scope cuda::barrier, but grid.sync() is no barrier the student
 * wrote for the block. */
static const char *const NOT_COUNTED_SOURCES = "/cooperative_groups/details/sync.h";

static int term_present(const sl_ptx *p, const char *mark, const char *term, size_t n)
{
    for (int i = 0; i < p->nfunc; i++)
        if (mark[i])
            for (int j = 0; j < p->func[i].ninsn; j++)
                if (term_matches(p, &p->func[i].insn[j], term, n) &&
                    !from_source(p, &p->func[i].insn[j], NOT_COUNTED_SOURCES))
                    return 1;
    return 0;
}

/* Whether the functions marked meet a REQUIRE pattern. */
static int require_met(const sl_ptx *p, const sl_rule *r, const char *mark)
{
    int found = 0;
    for (const char *form = r->pattern; *form && !found;) {
        size_t flen = strcspn(form, "|");
        int all = 1;
        for (size_t k = 0; k < flen && all;) {
            size_t tlen = strcspn(form + k, "&|");
            all = term_present(p, mark, form + k, tlen);
            k += tlen + (form[k + tlen] == '&');
        }
        found = all;
        form += flen + (form[flen] == '|');
    }
    return found;
}

/* REQUIRE: pattern is a '|'-separated list of accepted forms; a form is one
 * or more terms joined by '&', all of which must appear in the scope. Every
 * kernel named after the exercise must meet it with what it calls, so an
 * unused overload that holds the instructions does not stand in for the
 * kernel the harness launches. */
/* Marks root and the functions it calls directly, transitively. A REQUIRE
 * is met by what the kernel calls: a helper whose address is only taken
 * (stored in a table nobody calls through) does not count, unlike for a
 * FORBID, where any function that may run counts. */
static void called_from(const sl_ptx *p, int root, char *mark)
{
    if (mark[root])
        return;
    mark[root] = 1;
    const sl_ptx_func *f = &p->func[root];
    for (int j = 0; j < f->ninsn; j++) {
        int k = sl_ptx_matches(&f->insn[j], "call") ? sl_ptx_call_target(p, &f->insn[j]) : -1;
        if (k >= 0)
            called_from(p, k, mark);
    }
}

static int check_require(const sl_ptx *p, const sl_rule *r, sl_text *why)
{
    int found = 0, kernels = 0;
    const char *kernel = NULL; /* the first kernel that misses it */
    char *mark = calloc((size_t)p->nfunc + 1, 1);
    if (!mark)
        abort();
    for (int i = 0; i < p->nfunc; i++) {
        if (!r->function || !p->func[i].is_entry || !named_after(p->func[i].name, (void *)r))
            continue;
        memset(mark, 0, (size_t)p->nfunc + 1);
        called_from(p, i, mark);
        found = require_met(p, r, mark);
        kernels++;
        if (!found) {
            kernel = p->func[i].name;
            break;
        }
    }
    if (kernels == 0) { /* no such kernel (or a lesson-wide rule): the whole scope */
        free(mark);
        mark = rule_scope(p, r);
        found = require_met(p, r, mark);
    }
    free(mark);
    if (!found)
        sl_text_printf(why, "%s does not use %s, which this exercise requires (looked for in %s)",
                       kernel        ? kernel
                       : r->function ? r->function
                                     : "your code",
                       r->says ? r->says : "what the rule asks",
                       kernel ? "the kernel and the functions it calls" : "the whole file");
    return found;
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
        case C_FENCE_NARROW: narrow_after = j; break;
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
                sl_text_printf(why,
                               " between them: that fence orders memory for the threads of "
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
        default: break;
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
        case SL_RULE_FORBID_LIBRARY: ok = check_forbid(p, r, &msg, where, wherelen); break;
        case SL_RULE_FORBID_SOURCE: ok = check_forbid_source(p, r, &msg, where, wherelen); break;
        case SL_RULE_REQUIRE: ok = check_require(p, r, &msg); break;
        case SL_RULE_FENCED_PUBLISH:
            for (int i = 0; ok && i < p->nfunc; i++)
                if (in_scope(&p->func[i], r)) {
                    seen = 1;
                    ok = check_fenced_publish_func(p, &p->func[i], &msg, where, wherelen);
                }
            (void)seen;
            break;
        default: break;
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

/* libcu++'s barrier implementation (cuda/std/__barrier/, cuda/__barrier/):
 * the only code whose atomics may stand for a barrier racecheck cannot
 * follow. A file counts by the compiler's dependency list (ptx.h), so
 * decoy atomics of the student's, run or not, leave racecheck on. */
#define LIBCUXX_BARRIER "/__barrier/"

static int atomic_barrier(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                          void *arg, int any_scope)
{
    char *mark = calloc((size_t)p->nfunc + 1, 1);
    if (!mark)
        return 0;
    sl_ptx_scope(p, in_scope, arg, mark);
    int mbarrier = 0, arrive = 0, wait = 0;
    for (int f = 0; f < p->nfunc; f++) {
        if (!mark[f])
            continue;
        for (int i = 0; i < p->func[f].ninsn; i++) {
            const sl_ptx_insn *in = &p->func[f].insn[i];
            if (sl_ptx_matches(in, "mbarrier."))
                mbarrier = 1;
            else if (!from_source(p, in, LIBCUXX_BARRIER))
                continue; /* atomics the student wrote never turn racecheck off */
            else if (sl_ptx_matches(in, "atom.") && (any_scope || sl_ptx_op_has(in, ".cta")) &&
                     (sl_ptx_op_has(in, ".acq_rel") || sl_ptx_op_has(in, ".release")))
                arrive = 1;
            else if (sl_ptx_matches(in, "ld.") && sl_ptx_op_has(in, ".acquire") &&
                     (any_scope || sl_ptx_op_has(in, ".cta")))
                wait = 1;
        }
    }
    free(mark);
    return !mbarrier && arrive && wait;
}

int sl_ptx_atomic_block_barrier(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                                void *arg)
{
    return atomic_barrier(p, in_scope, arg, 0);
}

int sl_ptx_atomic_barrier_any_scope(const sl_ptx *p,
                                    int (*in_scope)(const char *function, void *arg), void *arg)
{
    return atomic_barrier(p, in_scope, arg, 1);
}
