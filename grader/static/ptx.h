/* Static rules read from the PTX of the student's file. Fences that are
 * missing or too narrow were never observed misbehaving at run time on an
 * H100, so they are judged here, from the instructions nvcc emitted. */
#ifndef SYNCLAB_PTX_H
#define SYNCLAB_PTX_H

#include <stddef.h>
#include "text.h"

enum { SL_PTX_VIA = 16 };

typedef struct {
    char *text;   /* the instruction, trimmed, without ';' */
    int src_file; /* .file index from the last .loc, 0 if none */
    int src_line; /* source line from the last .loc, 0 if none */
    int own_file; /* the .loc's own file, before inlining was resolved */
    /* the files of the .loc's inlined_at chain, own_file first: a CUB
     * function inlined from a CUDA header (redux.sync) still names CUB */
    int via_file[SL_PTX_VIA];
    int nvia;
} sl_ptx_insn;

typedef struct {
    char *name;   /* mangled name as in the PTX */
    int is_entry; /* .entry (kernel) vs .func */
    sl_ptx_insn *insn;
    int ninsn;
    char **label; /* branch targets: label[i] stands before insn label_at[i] */
    int *label_at;
    int nlabel;
    int *callee; /* functions named in its instructions: calls, addresses taken */
    int ncallee;
} sl_ptx_func;

typedef struct {
    sl_ptx_func *func;
    int nfunc;
    char **file; /* file[i] is .file i ("" when absent) */
    int nfile;
    /* library[i]: .file i is a header of the compiler or the CUDA toolkit,
     * by the compiler's own dependency list (sl_ptx_mark_library); NULL
     * until marked: then no file is library code */
    char *library;
    char *module_init; /* module-scope initialisers ("= {fn, ...}"), one after another */
} sl_ptx;

/* Reads the functions of a PTX text. Comments are dropped first (inline asm
 * can write anything in one); statements may span lines; labels, { } blocks
 * and the registers an inner block declares (renamed "<reg>__scopeN", so an
 * inlined block's %p1 is not the function's %p1) are resolved; locations
 * follow .loc's inlined_at chain to the student's line; the call graph is
 * built (sl_ptx_link_calls). */
int sl_ptx_parse(const char *text, sl_ptx *p);
void sl_ptx_free(sl_ptx *p);
/* Marks the .file entries that are library code: those whose path, as
 * written or resolved (realpath), is a line of list. list is what the build
 * wrote from the compiler's dependency list (build.h): the headers of the
 * toolkit and of the compiler that the compile read, never the student's
 * files. A name the student writes (a namespace, a #line, which the policy
 * refuses) never makes code library code. */
void sl_ptx_mark_library(sl_ptx *p, const char *list);
/* Is .file index file library code (sl_ptx_mark_library)? */
int sl_ptx_library_file(const sl_ptx *p, int file);
/* Is function fi library code: a name in the namespace of CUB, thrust,
 * libcu++ or cooperative groups, and a body every line of which was
 * written in a library file? A student's own cuda::foo is the student's. */
int sl_ptx_library_function(const sl_ptx *p, int fi);
/* Fills each function's callee list from the names its instructions use. */
void sl_ptx_link_calls(sl_ptx *p);
/* Bytes an access moves: its type's size times its vector length
 * (".v2.u32": 8); 0 when the type is not a sized one. */
int sl_ptx_access_bytes(const sl_ptx_insn *in);
/* The function a direct call names ("call.uni (retval0), f, (a, b)"), or
 * -1 for a call through a register or to a function not in the module. */
int sl_ptx_call_target(const sl_ptx *p, const sl_ptx_insn *in);
/* A call through a register ("call.uni (retval0), %rd5, (param0), proto"). */
int sl_ptx_indirect_call(const sl_ptx_insn *in);
/* Marks (taken has p->nfunc entries) the functions whose address is taken:
 * named in a module-scope initialiser or in an instruction other than a
 * direct call. Any of them may be what an indirect call runs. */
void sl_ptx_address_taken(const sl_ptx *p, char *taken);
/* Index of the function named exactly name, or -1. */
int sl_ptx_function_index(const sl_ptx *p, const char *name);
/* Marks (mark[i] = 1, mark has p->nfunc entries) root and every function it
 * can reach through calls; returns how many it newly marked. */
int sl_ptx_reachable(const sl_ptx *p, int root, char *mark);
/* Marks every function that calls a marked one, directly or through other
 * calls (what a helper does, its callers do too). */
void sl_ptx_mark_callers(const sl_ptx *p, char *mark);
/* Clears mark, then marks every function is_root accepts (all when NULL)
 * and everything they reach: the scope an exercise's rules look at. */
int sl_ptx_scope(const sl_ptx *p, int (*is_root)(const char *function, void *arg), void *arg,
                 char *mark);
/* "file.cu:12" for an instruction ("?" when the PTX has no line info). */
void sl_ptx_where(const sl_ptx *p, const sl_ptx_insn *in, char *buf, size_t n);

typedef enum {
    SL_RULE_END = 0,
    /* No instruction whose opcode starts with one of pattern's '|'-separated
     * prefixes (e.g. "atom.|red."). Inline asm is PTX too, so it is seen. */
    SL_RULE_FORBID,
    /* At least one such instruction in each kernel named after function
     * and what it calls directly (a function only pointed to may never
     * run). Forms are '|'-separated, terms of a form '&'-joined; a term
     * "op+.qual" needs the qualifier too, "op@part" an instruction written
     * in (inlined through) a file whose path holds part, and "~shared" any
     * instruction that may touch shared memory (ptx_shared.h). Code of
     * cooperative groups' grid barrier never counts. */
    SL_RULE_REQUIRE,
    /* Producer side of message passing: in each scoped function, the first
     * publishing access (atomic, or volatile/relaxed/release store) that
     * follows plain global stores must be separated from the last of those
     * stores by a fence of gpu or system scope (membar.gl/.sys,
     * fence.{sc,acq_rel,release}.{gpu,sys}), unless the publish is itself a
     * release at gpu/sys scope. Only the first is checked: later publishes
     * (a counter reset by atomicExch, say) publish nothing new. A cta-scope
     * fence, or a fence placed before the store, gets its own message.
     * Superseded by the path-based analysis of ptx_order.h, which runs on
     * every exercise; no lesson uses it any more. */
    SL_RULE_FENCED_PUBLISH,
    /* Not checks: options of the memory-order analysis that runs on every
     * exercise (ptx_order.h). ORDER_NOTE: why, shown with its findings.
     * CORESIDENT: the harness launches only as many blocks as fit on the
     * GPU at once, so a block may wait for a block chosen by its index. */
    SL_RULE_ORDER_NOTE,
    SL_RULE_CORESIDENT,
    /* No instruction written in a source file whose path holds one of
     * pattern's '|'-separated parts ("/cub/"): library code inlined into
     * the student's kernel (cub::BlockScan) leaves no function of its own
     * to name, but its .loc lines still name the header. */
    SL_RULE_FORBID_SOURCE,
    /* SL_RULE_FORBID over library functions only (sl_ptx_library_function:
     * the name in the library's namespace and every line from a library
     * file): a student's own function in a namespace named cub is the
     * student's. */
    SL_RULE_FORBID_LIBRARY
} sl_rule_kind;

typedef struct {
    sl_rule_kind kind;
    const char *function; /* substring of the mangled name; NULL: all */
    const char *pattern;  /* FORBID/REQUIRE prefixes */
    const char *why;      /* shown with the RULE verdict: why it matters */
    /* FORBID, FORBID_SOURCE, REQUIRE: what the rule forbids or requires, in
     * the student's words, never the pattern ("atomics, an mbarrier's
     * arrival count included"; "arrive() and wait() on a cuda::barrier").
     * The verdict's first line is built around it; every lesson must give
     * one (sl_rule_says_ok, checked by grader.lesson_inputs). */
    const char *says;
} sl_rule;

/* The exercises that teach what CUB and thrust do: their kernels (mangled
 * names in namespace cub, thrust, compiled from their headers) and their
 * inlined block and warp primitives (code from their headers) are refused,
 * with why. */
/* Every PTX instruction that updates memory atomically: atom/red, the
 * surface reduction, the bulk asynchronous reduction into memory and the
 * multimem reductions; and the read of an mbarrier's pending count, which
 * turns its arrivals into an atomic counter (a FORBID pattern). */
#define SL_ATOMIC_OPCODES                                                                          \
    "atom.|red.|sured.|cp.reduce.async|multimem.red|multimem.ld_reduce|mbarrier.pending_count"

/* clang-format off */
#define SL_LIBRARY_SOURCES "/include/cub/|/include/thrust/|/cccl/cub/|/cccl/thrust/"
#define SL_RULES_NO_LIBRARY(why)                                                                   \
    {SL_RULE_FORBID_LIBRARY, "3cub", "ld.|st.", why, "CUB's kernels"},                             \
    {SL_RULE_FORBID_LIBRARY, "6thrust", "ld.|st.", why, "thrust's kernels"},                       \
    {SL_RULE_FORBID_SOURCE, NULL, SL_LIBRARY_SOURCES, why, "code from CUB's or thrust's headers"}
/* clang-format on */

/* 1 when every rule holds; otherwise 0 with the first violation explained
 * in why and its source location(s) in where. The explanation is words and
 * places: the rule's says and why, the instruction found in words (with
 * its PTX in `backquotes`, which reports move to a line of their own),
 * never the rule's pattern. */
int sl_rules_check(const sl_ptx *p, const sl_rule *rules, sl_text *why, char *where,
                   size_t wherelen);

/* A block-wide barrier (__syncthreads, __syncthreads_count/and/or) that
 * only some threads of the block may reach: inside a branch, or a loop,
 * whose condition depends on the thread index (taint from %tid/%laneid
 * through registers and loads). synccheck misses this whenever the
 * compiler keeps the loop rolled, so it is read from the PTX. Barriers
 * with an explicit thread count (named barriers for a subset) are legal
 * there and not reported. Returns 1 and explains when one is found. */
int sl_ptx_divergent_barrier(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                             void *arg, sl_text *why, char *where, size_t wherelen);

/* 1 when a rule that is checked (FORBID, FORBID_SOURCE, REQUIRE) says in
 * words what it asks (r->says set, and free of the pattern language:
 * no '|', '&', '@' or '+.'); the others need none. */
int sl_rule_says_ok(const sl_rule *r);
/* What an instruction does, in words a student knows ("an atomic
 * read-modify-write (atomicAdd, atomicCAS...)", "a warp shuffle"). */
const char *sl_ptx_insn_words(const sl_ptx_insn *in);

/* Helpers for the checks built on the parser (ptx_rules.c, ptx_barriers.c). */
/* The opcode, without a predicate guard ("@%p1 "); *len gets its length. */
const char *sl_ptx_opcode(const sl_ptx_insn *in, size_t *len);
/* Does the opcode start with one of the '|'-separated prefixes? */
int sl_ptx_matches(const sl_ptx_insn *in, const char *prefixes);
/* Does the opcode contain part (".gpu", ".release")? */
int sl_ptx_op_has(const sl_ptx_insn *in, const char *part);
/* The operands: what follows the opcode. */
const char *sl_ptx_operands(const sl_ptx_insn *in);
/* Operand k (0: the first, the destination where there is one), split at
 * top-level commas, into buf; 0 when there is none or it does not fit. */
int sl_ptx_operand(const sl_ptx_insn *in, int k, char *buf, size_t n);
/* Appends "`insn` (file.cu:12)" to why and the location to where. */
void sl_ptx_say(const sl_ptx *p, const sl_ptx_insn *in, sl_text *why, char *where, size_t wherelen);

/* Whether the PTX still carries the starter's TODO marker of an exercise
 * (SYNCLAB_TODO(name) in synclab.h emits "// SYNCLAB_TODO name"). */
int sl_ptx_has_todo(const char *ptx_text, const char *exercise);
/* 1 when the scope synchronises a block through a barrier built from
 * shared-memory atomics (an acq_rel or release atom at .cta to arrive, an
 * ld.acquire at .cta to wait) and has no mbarrier: what libcu++ makes of a
 * cuda::barrier with a completion function. racecheck models bar.sync and
 * mbarrier, not atomics, so it reports hazards such a barrier orders.
 * Only atomics and loads of libcu++'s barrier headers count (library files,
 * sl_ptx_mark_library): the student's own never turn racecheck off. */
int sl_ptx_atomic_block_barrier(const sl_ptx *p, int (*in_scope)(const char *function, void *arg),
                                void *arg);
/* The same at any scope (.cta, .gpu, .sys): a cuda::barrier<thread_scope_device>
 * or a cuda::std::barrier in shared memory. Only for exercises that require a
 * cuda::barrier: elsewhere such atomics are inter-block flags, and racecheck
 * must stay on. */
int sl_ptx_atomic_barrier_any_scope(const sl_ptx *p,
                                    int (*in_scope)(const char *function, void *arg), void *arg);

#endif
