#include "ptx_shared.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Opcodes that may read or write shared memory whatever they name:
 * asynchronous copies, mbarriers, matrix loads and stores, tensor-core
 * operations with shared-memory operands, cluster addressing. */
static const char *const SHARED_OPS[] = {"mbarrier",  "cp.",         "ldmatrix",       "stmatrix",
                                         "wgmma",     "tcgen05",     "tensormap",      "st.async",
                                         "red.async", "mapa",        "getctarank",     "isspacep",
                                         "ldu",       "cvta.shared", "cvta.to.shared", NULL};
/* Functions a module may call without defining them: they touch global
 * or local memory only. */
static const char *const EXTERNAL_OK[] = {"vprintf", "malloc", "free", "__assertfail", NULL};

static int starts_with(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    return n >= k && strncmp(s, prefix, k) == 0;
}

/* A load, store or atomic with no state space of its own: generic, its
 * address may be shared. The state spaces that are not shared: global,
 * local, param, const. */
static int generic_access(const char *op, size_t n)
{
    if (!(starts_with(op, n, "ld.") || starts_with(op, n, "st.") || starts_with(op, n, "atom.") ||
          starts_with(op, n, "red.") ||
          (n == 2 && (!strncmp(op, "ld", 2) || !strncmp(op, "st", 2)))))
        return 0;
    for (const char *p = op; p < op + n;) {
        const char *dot = memchr(p, '.', (size_t)(op + n - p));
        size_t len = dot ? (size_t)(dot - p) : (size_t)(op + n - p);
        if ((len >= 6 && !strncmp(p, "global", 6)) || (len >= 5 && !strncmp(p, "local", 5)) ||
            (len >= 5 && !strncmp(p, "param", 5)) || (len >= 5 && !strncmp(p, "const", 5)))
            return 0;
        p += len + 1;
    }
    return 1;
}

/* The name a direct call names, or "" (through a register: "%..."). */
static void call_name(const sl_ptx_insn *in, char *name, size_t n)
{
    const char *s = sl_ptx_operands(in);
    name[0] = '\0';
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '(') {
        const char *close = strchr(s, ')');
        if (!close)
            return;
        s = close + 1;
        while (isspace((unsigned char)*s) || *s == ',')
            s++;
    }
    size_t k = 0;
    while (s[k] && (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '$' || s[k] == '%'))
        k++;
    snprintf(name, n, "%.*s", (int)k, s);
}

int sl_ptx_insn_may_touch_shared(const sl_ptx *p, const sl_ptx_insn *in)
{
    if (strstr(in->text, "shared"))
        return 1; /* the state space named: .shared, ::cta/::cluster, a declaration */
    size_t n = 0;
    const char *op = sl_ptx_opcode(in, &n);
    if (!op || n == 0)
        return 0;
    for (const char *const *s = SHARED_OPS; *s; s++)
        if (starts_with(op, n, *s))
            return 1;
    if (generic_access(op, n))
        return 1;
    if (starts_with(op, n, "call")) {
        char name[512];
        call_name(in, name, sizeof name);
        if (!name[0] || name[0] == '%' || sl_ptx_indirect_call(in))
            return 1; /* through a register: any function whose address is taken */
        if (sl_ptx_function_index(p, name) >= 0)
            return 0; /* defined here: its own instructions are looked at */
        for (const char *const *e = EXTERNAL_OK; *e; e++)
            if (strcmp(name, *e) == 0)
                return 0;
        return 1;
    }
    return 0;
}

int sl_ptx_may_touch_shared(const sl_ptx *p, const char *mark, char *where, size_t n)
{
    for (int f = 0; f < p->nfunc; f++) {
        if (mark && !mark[f])
            continue;
        for (int i = 0; i < p->func[f].ninsn; i++) {
            const sl_ptx_insn *in = &p->func[f].insn[i];
            if (!sl_ptx_insn_may_touch_shared(p, in))
                continue;
            if (where && n) {
                char at[256];
                sl_ptx_where(p, in, at, sizeof at);
                snprintf(where, n, "%s: %s", at, in->text);
            }
            return 1;
        }
    }
    return 0;
}
