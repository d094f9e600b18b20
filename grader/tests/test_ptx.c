#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "ptx.h"
#include "unit.h"

static sl_ptx ptx;
static char *text;

static void load(void)
{
    text = sl_read_file(PTX_IDIOMS, 16 << 20, NULL);
    ck_assert_ptr_nonnull(text);
    sl_ptx_parse(text, &ptx);
}

static void unload(void)
{
    sl_ptx_free(&ptx);
    free(text);
}

/* Runs one FENCED_PUBLISH rule on the kernel whose name contains fn. */
static int fenced(const char *fn, sl_text *why, char *where)
{
    sl_rule rules[] = {{SL_RULE_FENCED_PUBLISH, fn, NULL, "WHY", NULL}, {SL_RULE_END, 0, 0, 0, 0}};
    return sl_rules_check(&ptx, rules, why, where, 256);
}

START_TEST(parses_every_kernel)
{
    const char *names[] = {"pub_threadfence", "pub_block_fence", "pub_atomic_ref", "no_atomics",
                           "not_started"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int found = 0;
        for (int f = 0; f < ptx.nfunc; f++)
            if (strstr(ptx.func[f].name, names[i]) && ptx.func[f].is_entry)
                found = 1;
        ck_assert_msg(found, "kernel %s not parsed", names[i]);
    }
}
END_TEST

START_TEST(correct_idioms_pass)
{
    const char *ok[] = {"pub_threadfence", "pub_atomic_ref", "pub_thread_fence", "pub_system_fence",
                        "pub_then_reset"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        sl_text why = {0};
        char where[256];
        ck_assert_msg(fenced(ok[i], &why, where), "%s rejected: %s", ok[i], sl_text_str(&why));
        sl_text_free(&why);
    }
}
END_TEST

START_TEST(block_scope_fence_is_too_narrow)
{
    sl_text why = {0};
    char where[256];
    ck_assert(!fenced("pub_block_fence", &why, where));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "membar.cta"));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "one block only"));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "WHY"));
    ck_assert_ptr_nonnull(strstr(where, "ptx_idioms.cu:"));
    sl_text_free(&why);
}
END_TEST

START_TEST(missing_fence_is_reported_with_lines)
{
    sl_text why = {0};
    char where[256];
    ck_assert(!fenced("pub_no_fence", &why, where));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "no fence"));
    /* the store is on line 21, the atomic on 22 of the fixture */
    ck_assert_ptr_nonnull(strstr(where, "ptx_idioms.cu:21"));
    ck_assert_ptr_nonnull(strstr(where, "ptx_idioms.cu:22"));
    sl_text_free(&why);
}
END_TEST

START_TEST(fence_before_the_store_is_reported)
{
    sl_text why = {0};
    char where[256];
    ck_assert(!fenced("pub_fence_first", &why, where));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "comes before the store"));
    sl_text_free(&why);
}
END_TEST

START_TEST(forbid_sees_atomics_and_inline_asm)
{
    sl_rule rules[] = {{SL_RULE_FORBID, "uses_inline_asm_atomic", "atom.|red.", "no atomics", "it"},
                       {SL_RULE_END, 0, 0, 0, 0}};
    sl_text why = {0};
    char where[256];
    ck_assert(!sl_rules_check(&ptx, rules, &why, where, sizeof where));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "atom.global.add.u32"));
    sl_text_free(&why);
    sl_rule clean[] = {{SL_RULE_FORBID, "no_atomics", "atom.|red.", "no atomics", "it"},
                       {SL_RULE_END, 0, 0, 0, 0}};
    ck_assert(sl_rules_check(&ptx, clean, &why, where, sizeof where));
    sl_rule builtin[] = {{SL_RULE_FORBID, "pub_no_fence", "atom.|red.", "x", "it"},
                         {SL_RULE_END, 0, 0, 0, 0}};
    ck_assert(!sl_rules_check(&ptx, builtin, &why, where, sizeof where));
    /* an atomicAdd is located at the student's line, not in the CUDA header */
    ck_assert_ptr_nonnull(strstr(where, "ptx_idioms.cu:22"));
    sl_text_free(&why);
}
END_TEST

START_TEST(require_needs_a_match)
{
    sl_rule need_fence[] = {{SL_RULE_REQUIRE, "no_atomics", "membar.", "x", "it"},
                            {SL_RULE_END, 0, 0, 0, 0}};
    sl_text why = {0};
    char where[256];
    ck_assert(!sl_rules_check(&ptx, need_fence, &why, where, sizeof where));
    sl_rule has_fence[] = {{SL_RULE_REQUIRE, "pub_threadfence", "membar.gl", "x", "it"},
                           {SL_RULE_END, 0, 0, 0, 0}};
    ck_assert(sl_rules_check(&ptx, has_fence, &why, where, sizeof where));
    sl_text_free(&why);
}
END_TEST

/* The text outside `backquoted PTX` (what a student reads as words). */
static void words_only(const char *why, char *out, size_t n)
{
    size_t k = 0;
    int quoted = 0;
    for (const char *c = why; *c && k + 1 < n; c++) {
        if (*c == '`')
            quoted = !quoted;
        else if (!quoted)
            out[k++] = *c;
    }
    out[k] = '\0';
}

/* A RULE says what is wrong in words: the instruction named for what it
 * does, the rule's says, never its pattern (issue 28). */
START_TEST(rule_messages_speak_words_not_patterns)
{
    sl_rule forbid[] = {{SL_RULE_FORBID, "uses_inline_asm_atomic", "atom.|red.", "Why.", "atomics"},
                        {SL_RULE_END, 0, 0, 0, 0}};
    sl_text why = {0};
    char where[256], words[2048];
    ck_assert(!sl_rules_check(&ptx, forbid, &why, where, sizeof where));
    words_only(sl_text_str(&why), words, sizeof words);
    ck_assert_msg(strstr(words, "has an atomic read-modify-write (atomicAdd"), "%s", words);
    ck_assert_msg(strstr(words, "; this exercise forbids atomics.\nWhy."), "%s", words);
    ck_assert_msg(!strstr(words, "atom.|red.") && !strstr(words, "contains"), "%s", words);
    sl_text_clear(&why);
    const char *forms = "mbarrier.arrive&mbarrier.try_wait|atom+.acq_rel@__barrier/";
    sl_rule need[] = {
        {SL_RULE_REQUIRE, "no_atomics", forms, "Why.", "arrive() and wait() on a cuda::barrier"},
        {SL_RULE_END, 0, 0, 0, 0}};
    ck_assert(!sl_rules_check(&ptx, need, &why, where, sizeof where));
    words_only(sl_text_str(&why), words, sizeof words);
    ck_assert_msg(strstr(words, "does not use arrive() and wait() on a cuda::barrier, which this "
                                "exercise requires"),
                  "%s", words);
    ck_assert_msg(!strstr(words, "mbarrier.arrive") && !strchr(words, '&') && !strchr(words, '|'),
                  "%s", words);
    sl_text_free(&why);
}
END_TEST

/* Every checked rule must say itself in words; other kinds need not. */
START_TEST(rules_must_say_themselves)
{
    sl_rule ok = {SL_RULE_FORBID, "k", "atom.", "w", "atomics"};
    sl_rule none = {SL_RULE_REQUIRE, "k", "bar.red.", "w", NULL};
    sl_rule pattern = {SL_RULE_REQUIRE, "k", "bar.red.", "w", "bar.red.|barrier.red."};
    sl_rule term = {SL_RULE_REQUIRE, "k", "atom", "w", "atom+.acq_rel"};
    sl_rule note = {SL_RULE_ORDER_NOTE, NULL, NULL, "w", NULL};
    ck_assert(sl_rule_says_ok(&ok));
    ck_assert(!sl_rule_says_ok(&none));
    ck_assert(!sl_rule_says_ok(&pattern));
    ck_assert(!sl_rule_says_ok(&term));
    ck_assert(sl_rule_says_ok(&note));
}
END_TEST

START_TEST(todo_marker_is_exact)
{
    ck_assert(sl_ptx_has_todo(text, "tile_reverse"));
    ck_assert(!sl_ptx_has_todo(text, "tile"));
    ck_assert(!sl_ptx_has_todo(text, "halo_diff"));
}
END_TEST

static int named(const char *function, void *arg) { return strstr(function, arg) != NULL; }

static int divergent(const char *kernel, char *where)
{
    sl_text why = {0};
    int found = sl_ptx_divergent_barrier(&ptx, named, (void *)kernel, &why, where, 256);
    if (found)
        ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "depends on the thread index"));
    sl_text_free(&why);
    return found;
}

START_TEST(barrier_in_a_thread_dependent_branch_is_found)
{
    char where[256];
    ck_assert(divergent("bar_in_branch", where));
    /* the barrier's line and the branch's line, both in the student's file */
    ck_assert_msg(strstr(where, "ptx_idioms.cu:87") && strstr(where, "ptx_idioms.cu:85"),
                  "where = %s", where);
    ck_assert(divergent("vote_in_branch", where));
    ck_assert(divergent("bar_in_thread_loop", where));
}
END_TEST

START_TEST(barriers_every_thread_reaches_are_fine)
{
    char where[256];
    ck_assert(!divergent("bar_after_branch", where));
    ck_assert(!divergent("named_barrier_for_half", where)); /* a count: meant for a subset */
    ck_assert(!divergent("pub_then_reset", where));
    ck_assert(!divergent("no_atomics", where));
    ck_assert(!divergent("spin_then_barrier", where)); /* a hang, judged at run time */
}
END_TEST

/* ---------- hand-written PTX: the reader itself ---------- */

static const char fake_comments_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .func (.param .b32 func_retval0) helper(\n\t.param .b64 helper_param_0\n)\n{\n"
    "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
    "\tld.param.u64 %rd1, [helper_param_0];\n"
    "\tatom.global.add.u32 %r1, [%rd1], 1;\n"
    "\tst.param.b32 [func_retval0], %r1;\n\tret;\n}\n"
    ".visible .entry kernel_fake(\n\t.param .u64 kernel_fake_param_0\n)\n{\n"
    "\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [kernel_fake_param_0];\n"
    "\t// begin inline asm\n"
    "\t/* membar.gl; mbarrier.arrive.shared.b64 %rd2, [%rd1]; } } */\n"
    "\t// end inline asm\n"
    "\t// membar.sys;\n"
    "\tld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n"
    "\t{ // callseq 0, 0\n"
    "\t.param .b64 param0;\n\tst.param.b64 [param0], %rd1;\n\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), \n\thelper, \n\t(\n\tparam0\n\t);\n"
    "\tld.param.b32 %r5, [retval0];\n\t} // callseq 0\n"
    "\tst.global.u32 [%rd1], %r5;\n\tret;\n}\n"
    ".visible .entry other_kernel()\n{\n\tmembar.cta;\n\tret;\n}\n";

static void parse_string(const char *text, sl_ptx *p) { sl_ptx_parse(text, p); }

static const sl_ptx_func *func_named(const sl_ptx *p, const char *name)
{
    int i = sl_ptx_function_index(p, name);
    ck_assert_msg(i >= 0, "function %s not parsed", name);
    return &p->func[i];
}

START_TEST(comments_cannot_fake_instructions_or_bounds)
{
    sl_ptx p;
    parse_string(fake_comments_ptx, &p);
    ck_assert_int_eq(p.nfunc, 3);
    const sl_ptx_func *k = func_named(&p, "kernel_fake");
    for (int j = 0; j < k->ninsn; j++) {
        ck_assert_msg(!sl_ptx_matches(&k->insn[j], "membar.|mbarrier."), "fake %s",
                      k->insn[j].text);
    }
    /* the '}' in the comment did not end the function: its last store is in it */
    ck_assert(sl_ptx_matches(&k->insn[k->ninsn - 2], "st.global.u32"));
    /* a vector operand's braces and a call over several lines are one instruction each */
    ck_assert_str_eq(k->insn[1].text, "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1]");
    int calls = 0;
    for (int j = 0; j < k->ninsn; j++)
        if (sl_ptx_matches(&k->insn[j], "call")) {
            calls++;
            ck_assert_str_eq(k->insn[j].text, "call.uni (retval0), helper, ( param0 )");
        }
    ck_assert_int_eq(calls, 1);
    sl_rule need_fence[] = {
        {SL_RULE_REQUIRE, "kernel_fake", "membar.gl|mbarrier.arrive", "x", "it"},
        {SL_RULE_END, 0, 0, 0, 0}};
    sl_text why = {0};
    char where[256];
    ck_assert(!sl_rules_check(&p, need_fence, &why, where, sizeof where));
    sl_text_free(&why);
    sl_ptx_free(&p);
}
END_TEST

START_TEST(rules_follow_the_call_graph)
{
    sl_ptx p;
    parse_string(fake_comments_ptx, &p);
    int k = sl_ptx_function_index(&p, "kernel_fake");
    int h = sl_ptx_function_index(&p, "helper");
    int o = sl_ptx_function_index(&p, "other_kernel");
    char mark[3] = {0};
    ck_assert_int_eq(sl_ptx_reachable(&p, k, mark), 2);
    ck_assert(mark[k] && mark[h] && !mark[o]);
    /* the atomic is in the helper the kernel calls: it is the kernel's */
    sl_rule forbid[] = {{SL_RULE_FORBID, "kernel_fake", "atom.|red.", "no atomics", "it"},
                        {SL_RULE_END, 0, 0, 0, 0}};
    sl_text why = {0};
    char where[256];
    ck_assert(!sl_rules_check(&p, forbid, &why, where, sizeof where));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "atom.global.add.u32"));
    sl_text_free(&why);
    sl_rule other[] = {{SL_RULE_FORBID, "other_kernel", "atom.|red.", "no atomics", "it"},
                       {SL_RULE_END, 0, 0, 0, 0}};
    ck_assert(sl_rules_check(&p, other, &why, where, sizeof where));
    sl_rule need[] = {{SL_RULE_REQUIRE, "kernel_fake", "atom.global", "x", "it"},
                      {SL_RULE_END, 0, 0, 0, 0}};
    ck_assert(sl_rules_check(&p, need, &why, where, sizeof where));
    sl_ptx_free(&p);
    /* other call spellings: plain `call` with no return value, an indirect
     * call through an address taken with mov, and a chain of two helpers */
    static const char calls[] =
        ".func leaf()\n{\n\tred.global.add.u32 [%rd1], 1;\n\tret;\n}\n"
        ".func middle()\n{\n\tcall leaf, ();\n\tret;\n}\n"
        ".func by_pointer(.param .b64 by_pointer_param_0)\n{\n\tret;\n}\n"
        ".visible .entry chain_kernel()\n{\n\tcall.uni middle, ();\n\tret;\n}\n"
        ".visible .entry pointer_kernel()\n{\n\tmov.u64 %rd1, by_pointer;\n"
        "\t{\n\t.param .b64 param0;\n\tprototype_0 : .callprototype ()_ (.param .b64 _);\n"
        "\tcall %rd1, (param0), prototype_0;\n\t}\n\tret;\n}\n";
    parse_string(calls, &p);
    ck_assert_int_eq(p.nfunc, 5);
    sl_rule chain[] = {{SL_RULE_FORBID, "chain_kernel", "atom.|red.", "no atomics", "it"},
                       {SL_RULE_END, 0, 0, 0, 0}};
    ck_assert(!sl_rules_check(&p, chain, &why, where, sizeof where));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "leaf"));
    char pmark[5] = {0};
    ck_assert_int_eq(sl_ptx_reachable(&p, sl_ptx_function_index(&p, "pointer_kernel"), pmark), 2);
    ck_assert(pmark[sl_ptx_function_index(&p, "by_pointer")]);
    sl_text_free(&why);
    sl_ptx_free(&p);
}
END_TEST

START_TEST(require_accepts_any_listed_form)
{
    static const char completion_barrier[] =
        ".visible .entry saw()\n{\n\t.reg .b64 %rd<9>;\n\t.reg .b32 %r<9>;\n"
        "\tatom.add.acq_rel.cta.u64 %rd1,[%rd2],%rd3;\n"
        "$L1:\n\tld.acquire.cta.b32 %r1,[%rd4];\n\tsetp.eq.s32 %p1, %r1, 0;\n"
        "\t@%p1 bra $L1;\n\tret;\n}\n";
    static const char only_bar[] = ".visible .entry saw()\n{\n\tbar.sync 0;\n\tret;\n}\n";
    const char *forms = "mbarrier.arrive|atom+.acq_rel+.cta&ld+.acquire+.cta";
    sl_rule need[] = {{SL_RULE_REQUIRE, "saw", forms, "x", "it"}, {SL_RULE_END, 0, 0, 0, 0}};
    sl_text why = {0};
    char where[256];
    sl_ptx p;
    parse_string(completion_barrier, &p);
    ck_assert_msg(sl_rules_check(&p, need, &why, where, sizeof where), "%s", sl_text_str(&why));
    sl_ptx_free(&p);
    parse_string(only_bar, &p);
    ck_assert(!sl_rules_check(&p, need, &why, where, sizeof where));
    sl_ptx_free(&p);
    /* both terms of a form must be there: the atomic alone is not the barrier */
    static const char atom_only[] =
        ".visible .entry saw()\n{\n\tatom.add.acq_rel.cta.u64 %rd1,[%rd2],%rd3;\n\tret;\n}\n";
    parse_string(atom_only, &p);
    ck_assert(!sl_rules_check(&p, need, &why, where, sizeof where));
    sl_ptx_free(&p);
    sl_text_free(&why);
}
END_TEST

/* Only libcu++'s barrier code counts, by the build's list of library files:
 * the same atomics in the student's file (a decoy, run or not) do not. */
#define BARRIER_FILES ".file 1 \"/s/k.cu\"\n.file 2 \"/inc/cccl/cuda/std/__barrier/barrier.h\"\n"
#define BARRIER_LIST "/inc/cccl/cuda/std/__barrier/barrier.h\n"

START_TEST(atomic_block_barrier_turns_racecheck_off_only_without_mbarrier)
{
    static const char completion_barrier[] =
        BARRIER_FILES ".visible .entry saw()\n{\n\t.reg .b64 %rd<9>;\n\t.reg .b32 %r<9>;\n"
                      "\t.loc 1 5 1\n\t.loc 2 10 1, inlined_at 1 5 1\n"
                      "\tatom.add.acq_rel.cta.u64 %rd1,[%rd2],%rd3;\n"
                      "$L1:\n\tld.acquire.cta.b32 %r1,[%rd4];\n\tsetp.eq.s32 %p1, %r1, 0;\n"
                      "\t@%p1 bra $L1;\n\tret;\n}\n";
    static const char with_mbarrier[] =
        ".visible .entry saw()\n{\n\t.reg .b64 %rd<9>;\n\t.reg .b32 %r<9>;\n"
        "\tatom.add.acq_rel.cta.u64 %rd1,[%rd2],%rd3;\n"
        "\tld.acquire.cta.b32 %r1,[%rd4];\n"
        "\tmbarrier.arrive.shared.b64 %rd5, [%rd6];\n\tret;\n}\n";
    static const char gpu_scope[] =
        ".visible .entry saw()\n{\n\tatom.add.acq_rel.gpu.u64 %rd1,[%rd2],%rd3;\n"
        "\tld.acquire.gpu.b32 %r1,[%rd4];\n\tret;\n}\n";
    sl_ptx p;
    parse_string(completion_barrier, &p);
    ck_assert_int_eq(sl_ptx_atomic_block_barrier(&p, NULL, NULL), 0); /* no list */
    sl_ptx_mark_library(&p, BARRIER_LIST);
    ck_assert_int_eq(sl_ptx_atomic_block_barrier(&p, NULL, NULL), 1);
    sl_ptx_free(&p);
    /* the same instructions written in the student's own file */
    char *own = strdup(completion_barrier);
    memcpy(strstr(own, "\t.loc 2 10 1, inlined_at 1 5 1"), "\t.loc 1 10 1                  ", 31);
    parse_string(own, &p);
    sl_ptx_mark_library(&p, BARRIER_LIST);
    ck_assert_int_eq(sl_ptx_atomic_block_barrier(&p, NULL, NULL), 0);
    sl_ptx_free(&p);
    free(own);
    /* a hardware barrier is there: racecheck follows it, so it stays on */
    parse_string(with_mbarrier, &p);
    ck_assert_int_eq(sl_ptx_atomic_block_barrier(&p, NULL, NULL), 0);
    sl_ptx_free(&p);
    /* grid-wide flags are not a block barrier */
    parse_string(gpu_scope, &p);
    ck_assert_int_eq(sl_ptx_atomic_block_barrier(&p, NULL, NULL), 0);
    sl_ptx_free(&p);
}
END_TEST

START_TEST(todo_marker_only_in_a_real_comment)
{
    ck_assert(sl_ptx_has_todo("\t// begin inline asm\n\t// SYNCLAB_TODO warp_step\n", "warp_step"));
    ck_assert(!sl_ptx_has_todo("\t/* // SYNCLAB_TODO warp_step */\n", "warp_step"));
    ck_assert(!sl_ptx_has_todo("\t/* a\n// SYNCLAB_TODO warp_step\n*/\n", "warp_step"));
    ck_assert(!sl_ptx_has_todo(".file 1 \"// SYNCLAB_TODO warp_step\"\n", "warp_step"));
    ck_assert(sl_ptx_has_todo("/* x */ // SYNCLAB_TODO warp_step\n", "warp_step"));
}
END_TEST

/* __syncthreads_or inlines a { } block whose %p1 and %p2 shadow the
 * function's: here the outer %p2 depends on the thread index, the inner one
 * is the block-wide vote, the same in every thread. */
static const char vote_scope_ptx[] =
    ".visible .entry or_return(\n\t.param .u32 or_return_param_0\n)\n{\n"
    "\t.reg .pred %p<4>;\n\t.reg .b32 %r<9>;\n"
    "\tld.param.u32 %r5, [or_return_param_0];\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tsetp.lt.u32 %p2, %r1, 7;\n"
    "\tselp.u32 %r6, 1, 0, %p2;\n"
    "\t{ \n\t.reg .pred %p1; \n\t.reg .pred %p2; \n"
    "\tsetp.ne.u32 %p1, %r6, 0; \n\tbar.red.or.pred %p2, 0, %p1; \n"
    "\tselp.u32 %r7, 1, 0, %p2; \n\t}\n"
    "\tsetp.ne.s32 %p3, %r7, 0;\n"
    "\t@%p3 bra $L__BB0_2;\n"
    "\tbar.sync 0;\n"
    "$L__BB0_2:\n\tret;\n}\n";

START_TEST(inner_block_registers_do_not_shadow)
{
    sl_ptx p;
    parse_string(vote_scope_ptx, &p);
    const sl_ptx_func *f = func_named(&p, "or_return");
    int renamed = 0;
    for (int j = 0; j < f->ninsn; j++)
        renamed += strstr(f->insn[j].text, "%p2__scope") != NULL;
    ck_assert_int_eq(renamed, 2); /* the vote's result, written then read */
    sl_text why = {0};
    char where[256];
    ck_assert_msg(!sl_ptx_divergent_barrier(&p, NULL, NULL, &why, where, sizeof where), "%s",
                  sl_text_str(&why));
    sl_ptx_free(&p);
    /* the same code without the block: %p2 is the thread-dependent one */
    char *flat = strdup(vote_scope_ptx);
    char *open = strstr(flat, "\t{ \n");
    memset(open, ' ', strlen("\t{ \n\t.reg .pred %p1; \n\t.reg .pred %p2; \n"));
    strstr(open, "\t}\n")[1] = ' ';
    parse_string(flat, &p);
    ck_assert(sl_ptx_divergent_barrier(&p, NULL, NULL, &why, where, sizeof where));
    sl_ptx_free(&p);
    free(flat);
    sl_text_free(&why);
}
END_TEST

/* Labels of an inline asm block repeated twice stay apart. */
START_TEST(inner_block_labels_are_local)
{
    static const char twice[] =
        ".visible .entry spin2()\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<5>;\n"
        "\t{\n\t.reg .pred p;\nWAIT:\n\tld.acquire.gpu.b32 %r1, [%rd1];\n"
        "\tsetp.eq.s32 p, %r1, 0;\n\t@p bra WAIT;\n\t}\n"
        "\tst.global.u32 [%rd2], %r1;\n"
        "\t{\n\t.reg .pred p;\nWAIT:\n\tld.acquire.gpu.b32 %r2, [%rd1];\n"
        "\tsetp.eq.s32 p, %r2, 0;\n\t@p bra WAIT;\n\t}\n\tret;\n}\n";
    sl_ptx p;
    parse_string(twice, &p);
    const sl_ptx_func *f = func_named(&p, "spin2");
    ck_assert_int_eq(f->nlabel, 2);
    ck_assert_str_ne(f->label[0], f->label[1]);
    /* each branch goes to its own block's label */
    ck_assert_ptr_nonnull(strstr(f->insn[2].text, f->label[0]));
    ck_assert_ptr_nonnull(strstr(f->insn[6].text, f->label[1]));
    sl_ptx_free(&p);
}
END_TEST

/* A barrier inlined from a header is placed at the student's line: the
 * .loc chain (inlined_at) is followed back to the student's file, and a
 * header's line-0 .loc does not make the header look like student code. */
START_TEST(locations_name_the_students_line)
{
    static const char chain[] =
        ".visible .entry where_k()\n{\n"
        "\t.loc 1 10 1\n\tmov.u32 %r1, %tid.x;\n"
        "\t.loc 1 12 5\n"
        "\t.loc 2 50 3, function_name $L__info_string1, inlined_at 1 12 5\n"
        "\t.loc 2 0 3\n"
        "\t.loc 3 98 3, function_name $L__info_string2, inlined_at 2 50 3\n"
        "\tbarrier.sync 0;\n\tret;\n}\n"
        "\t.file 1 \"/home/s/student.cu\"\n"
        "\t.file 2 \"/usr/local/cuda/include/cooperative_groups/details/sync.h\"\n"
        "\t.file 3 \"/usr/local/cuda/include/sm_30_intrinsics.hpp\"\n";
    sl_ptx p;
    parse_string(chain, &p);
    const sl_ptx_func *f = func_named(&p, "where_k");
    char where[256];
    sl_ptx_where(&p, &f->insn[1], where, sizeof where);
    ck_assert_str_eq(where, "student.cu:12");
    sl_ptx_free(&p);
}
END_TEST

/* thread_group::sync() of a group whose type is known at run time: a switch
 * on the type, a tile case (bar.warp.sync) and a block case (barrier.sync),
 * here under a thread-dependent branch. Only whole tiles take the branch, so
 * the block case is dead: not reported. An if/else on the thread index
 * with the same two barriers is. */
static const char group_switch_ptx[] =
    ".visible .entry group_switch(\n\t.param .u32 group_switch_param_0\n)\n{\n"
    "\t.reg .pred %p<8>;\n\t.reg .b32 %r<8>;\n\t.reg .b16 %rs<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tld.param.u32 %r2, [group_switch_param_0];\n"
    "\tsetp.ge.u32 %p1, %r1, 64;\n\t@%p1 bra $L_after;\n"
    "\tor.b32 %r3, %r2, %r1;\n\tcvt.u16.u32 %rs1, %r3;\n\tand.b16 %rs2, %rs1, 127;\n"
    "\tsetp.gt.s16 %p2, %rs2, 3;\n\t@%p2 bra $L_hi;\n"
    "\tsetp.eq.s16 %p3, %rs2, 1;\n\t@%p3 bra $L_tile;\n\tbra.uni $L_after;\n"
    "$L_hi:\n\tsetp.eq.s16 %p4, %rs2, 4;\n\t@%p4 bra $L_block;\n\tbra.uni $L_after;\n"
    "$L_tile:\n\tbar.warp.sync -1;\n\tbra.uni $L_after;\n"
    "$L_block:\n\tbarrier.sync 0;\n"
    "$L_after:\n\tbar.sync 0;\n\tret;\n}\n"
    ".visible .entry tid_if_else()\n{\n"
    "\t.reg .pred %p<8>;\n\t.reg .b32 %r<8>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p2, %r1, 32;\n\t@%p2 bra $L_w;\n"
    "\tbarrier.sync 0;\n\tbra.uni $L_end;\n"
    "$L_w:\n\tbar.warp.sync -1;\n"
    "$L_end:\n\tret;\n}\n";

START_TEST(generic_group_switch_is_not_a_divergent_barrier)
{
    sl_ptx p;
    parse_string(group_switch_ptx, &p);
    sl_text why = {0};
    char where[256];
    ck_assert_msg(!sl_ptx_divergent_barrier(&p, named, "group_switch", &why, where, sizeof where),
                  "%s", sl_text_str(&why));
    ck_assert(sl_ptx_divergent_barrier(&p, named, "tid_if_else", &why, where, sizeof where));
    sl_text_free(&why);
    sl_ptx_free(&p);
}
END_TEST

/* ptxas's other spellings of one instruction: spaces after '@' and '!',
 * modifiers apart from the opcode (a space, a comment, a line break), an
 * instruction after a .loc on its line. */
static const char spellings_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"k.cu\"\n"
    ".visible .entry spell()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tbar /*x*/ .sync 0;\n"
    "\tbar\n\t.sync 1;\n"
    "\t@ ! %p1 bar.sync 2;\n"
    "\tred .shared .add.u32 [%r1], 1;\n"
    "\t.loc 1 7 0 red.shared.add.u32 [%r2], 1;\n"
    "\tshfl .sync .bfly.b32 %r3, %r2, 1, 31, -1; mov.u32 %r1, %r3;\n"
    "\tret;\n}\n";

START_TEST(reader_gives_one_spelling_per_instruction)
{
    sl_ptx p;
    parse_string(spellings_ptx, &p);
    const sl_ptx_func *k = func_named(&p, "spell");
    ck_assert_int_eq(k->ninsn, 8);
    ck_assert_str_eq(k->insn[0].text, "bar.sync 0");
    ck_assert_str_eq(k->insn[1].text, "bar.sync 1");
    ck_assert_str_eq(k->insn[2].text, "@!%p1 bar.sync 2");
    ck_assert_str_eq(k->insn[3].text, "red.shared.add.u32 [%r1], 1");
    ck_assert_str_eq(k->insn[4].text, "red.shared.add.u32 [%r2], 1");
    ck_assert_int_eq(k->insn[4].src_line, 7);
    ck_assert_str_eq(k->insn[5].text, "shfl.sync.bfly.b32 %r3, %r2, 1, 31, -1");
    ck_assert_str_eq(k->insn[6].text, "mov.u32 %r1, %r3");
    sl_rule no_red[] = {{SL_RULE_FORBID, "spell", "red.|atom.", "x", "it"},
                        {SL_RULE_END, 0, 0, 0, 0}};
    sl_text why = {0};
    char where[256];
    ck_assert(!sl_rules_check(&p, no_red, &why, where, sizeof where)); /* the rule is broken */
    sl_text_free(&why);
    sl_ptx_free(&p);
}
END_TEST

/* A trap on a bounds check does not make the barriers after it divergent;
 * a thread-dependent "@p exit", or a barrier guarded by such a p, does. */
static const char trap_exit_ptx[] =
    ".visible .entry trap_check(.param .u32 n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tld.param.u32 %r2, [n];\n"
    "\tsetp.lt.u32 %p1, %r1, %r2;\n\t@%p1 bra $L_ok;\n\ttrap;\n"
    "$L_ok:\n\tbar.sync 0;\n\tret;\n}\n"
    ".visible .entry guarded_exit(.param .u32 n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tld.param.u32 %r2, [n];\n"
    "\tsetp.ge.u32 %p1, %r1, %r2;\n\t@%p1 exit;\n\tbar.sync 0;\n\tret;\n}\n"
    ".visible .entry uniform_exit(.param .u32 n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tld.param.u32 %r2, [n];\n"
    "\tsetp.eq.u32 %p1, %r2, 0;\n\t@%p1 exit;\n\tbar.sync 0;\n\tret;\n}\n"
    ".visible .entry predicated_bar(.param .u32 n)\n{\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tld.param.u32 %r2, [n];\n"
    "\t{ .reg .pred has; setp.lt.s32 has, %r1, %r2; @ has bar.sync 0; }\n\tret;\n}\n";

START_TEST(traps_and_guarded_exits_in_the_cfg)
{
    sl_ptx p;
    parse_string(trap_exit_ptx, &p);
    sl_text why = {0};
    char where[256];
    ck_assert_msg(!sl_ptx_divergent_barrier(&p, named, "trap_check", &why, where, sizeof where),
                  "%s", sl_text_str(&why));
    ck_assert_msg(!sl_ptx_divergent_barrier(&p, named, "uniform_exit", &why, where, sizeof where),
                  "%s", sl_text_str(&why));
    ck_assert(sl_ptx_divergent_barrier(&p, named, "guarded_exit", &why, where, sizeof where));
    ck_assert(sl_ptx_divergent_barrier(&p, named, "predicated_bar", &why, where, sizeof where));
    sl_text_free(&why);
    sl_ptx_free(&p);
}
END_TEST

/* Thread-dependent values reach a barrier through helpers (a parameter, a
 * __noinline__ callee holding the barrier), votes and shuffles, a count of
 * blockDim.x, and a switch on the thread index. */
static const char through_ptx[] =
    ".func helper_guard(.param .b32 helper_guard_param_0, .param .b32 helper_guard_param_1)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tld.param.u32 %r1, [helper_guard_param_0];\n\tld.param.u32 %r2, [helper_guard_param_1];\n"
    "\tsetp.ge.s32 %p1, %r1, %r2;\n\t@%p1 bra $L_h;\n\tbar.sync 0;\n$L_h:\n\tret;\n}\n"
    ".func wait_all()\n{\n\tbar.sync 0;\n\tret;\n}\n"
    ".visible .entry param_tid(.param .u32 param_tid_param_0)\n{\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tld.param.u32 %r2, [param_tid_param_0];\n"
    "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], %r1;\n\t.param .b32 param1;\n"
    "\tst.param.b32 [param1+0], %r2;\n\tcall.uni helper_guard, (param0, param1);\n\t}\n\tret;\n}\n"
    ".visible .entry param_uniform(.param .u32 param_uniform_param_0)\n{\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %ctaid.x;\n\tld.param.u32 %r2, [param_uniform_param_0];\n"
    "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], %r2;\n\t.param .b32 param1;\n"
    "\tst.param.b32 [param1+0], %r1;\n\tcall.uni helper_guard, (param0, param1);\n\t}\n\tret;\n}\n"
    ".visible .entry call_in_branch()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 32;\n\t@%p1 bra $L_c;\n"
    "\tcall.uni wait_all, ();\n$L_c:\n\tret;\n}\n"
    ".visible .entry call_for_all()\n{\n\tcall.uni wait_all, ();\n\tret;\n}\n"
    ".visible .entry vote_guard()\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 40;\n"
    "\tvote.sync.any.pred %p2, %p1, -1;\n\t@!%p2 bra $L_v;\n\tbar.sync 0;\n$L_v:\n\tret;\n}\n"
    ".visible .entry shfl_guard(.param .u32 shfl_guard_param_0)\n{\n\t.reg .pred %p<3>;\n"
    "\t.reg .b32 %r<6>;\n\tmov.u32 %r1, %tid.x;\n\tld.param.u32 %r2, [shfl_guard_param_0];\n"
    "\tshfl.sync.idx.b32 %r3, %r1, 0, 31, -1;\n\tsetp.ge.s32 %p1, %r3, %r2;\n"
    "\t@%p1 bra $L_s;\n\tbar.sync 0;\n$L_s:\n\tret;\n}\n"
    ".visible .entry ntid_count()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ntid.x;\n\tsetp.lt.u32 %p1, %r1, 32;\n"
    "\t@%p1 bra $L_n;\n\tbar.sync 0, %r2;\n$L_n:\n\tret;\n}\n"
    ".visible .entry subset_count()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 32;\n"
    "\t@%p1 bra $L_m;\n\tbar.sync 1, 32;\n$L_m:\n\tret;\n}\n"
    ".visible .entry tid_switch()\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\trem.u32 %r2, %r1, 3;\n"
    "\tsetp.eq.s32 %p1, %r2, 0;\n\t@%p1 bra $L_t0;\n"
    "\tsetp.eq.s32 %p2, %r2, 1;\n\t@%p2 bra $L_t1;\n\tbra.uni $L_te;\n"
    "$L_t0:\n\tbarrier.sync 0;\n\tbra.uni $L_te;\n"
    "$L_t1:\n\tbar.warp.sync -1;\n$L_te:\n\tret;\n}\n";

/* Parses text and asserts SYNC for each kernel of divergent (NULL-ended)
 * and none for each of uniform. */
static void assert_sync_verdicts(const char *text, const char *const *divergent,
                                 const char *const *uniform)
{
    sl_ptx p;
    parse_string(text, &p);
    sl_text why = {0};
    char where[256];
    for (; *divergent; divergent++)
        ck_assert_msg(
            sl_ptx_divergent_barrier(&p, named, (void *)*divergent, &why, where, sizeof where),
            "%s: no SYNC", *divergent);
    for (; *uniform; uniform++)
        ck_assert_msg(
            !sl_ptx_divergent_barrier(&p, named, (void *)*uniform, &why, where, sizeof where),
            "%s: %s", *uniform, sl_text_str(&why));
    sl_text_free(&why);
    sl_ptx_free(&p);
}

START_TEST(thread_index_through_helpers_votes_and_counts)
{
    static const char *const divergent[] = {"param_tid",  "call_in_branch", "vote_guard",
                                            "shfl_guard", "ntid_count",     "tid_switch",
                                            NULL};
    static const char *const uniform[] = {"param_uniform", "call_for_all", "subset_count", NULL};
    assert_sync_verdicts(through_ptx, divergent, uniform);
}
END_TEST

/* The thread index through a struct's fields, a return value and the
 * clock; a barrier that threads arrive at and leave. */
static const char fields_ptx[] =
    ".func pair_guard(.param .align 4 .b8 pair_guard_param_0[8])\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tld.param.u32 %r1, [pair_guard_param_0];\n\tsetp.lt.u32 %p1, %r1, 3;\n"
    "\t@%p1 bra $L_f;\n\tbar.sync 0;\n$L_f:\n\tret;\n}\n"
    ".visible .entry tid_first_field()\n{\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ntid.x;\n"
    "\t{\n\t.param .align 4 .b8 param0[8];\n\tst.param.b32 [param0+0], %r1;\n"
    "\tst.param.b32 [param0+4], %r2;\n\tcall.uni pair_guard, (param0);\n\t}\n\tret;\n}\n"
    ".visible .entry tid_second_field()\n{\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ntid.x;\n"
    "\t{\n\t.param .align 4 .b8 param0[8];\n\tst.param.b32 [param0+0], %r2;\n"
    "\tst.param.b32 [param0+4], %r1;\n\tcall.uni pair_guard, (param0);\n\t}\n\tret;\n}\n"
    ".func (.param .b32 func_retval0) my_index()\n{\n\t.reg .b32 %r<2>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tst.param.b32 [func_retval0+0], %r1;\n\tret;\n}\n"
    ".func (.param .b32 func_retval0) my_block()\n{\n\t.reg .b32 %r<2>;\n"
    "\tmov.u32 %r1, %ctaid.x;\n\tst.param.b32 [func_retval0+0], %r1;\n\tret;\n}\n"
    ".visible .entry returned_tid()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\t{\n\t.param .b32 retval0;\n\tcall.uni (retval0), my_index, ();\n"
    "\tld.param.b32 %r1, [retval0+0];\n\t}\n\tsetp.lt.u32 %p1, %r1, 3;\n"
    "\t@%p1 bra $L_r;\n\tbar.sync 0;\n$L_r:\n\tret;\n}\n"
    ".visible .entry returned_block()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\t{\n\t.param .b32 retval0;\n\tcall.uni (retval0), my_block, ();\n"
    "\tld.param.b32 %r1, [retval0+0];\n\t}\n\tsetp.lt.u32 %p1, %r1, 3;\n"
    "\t@%p1 bra $L_q;\n\tbar.sync 0;\n$L_q:\n\tret;\n}\n"
    ".visible .entry clock_guard()\n{\n\t.reg .pred %p<2>;\n\t.reg .b64 %rd<3>;\n"
    "\tmov.u64 %rd1, %clock64;\n\tand.b64 %rd2, %rd1, 64;\n\tsetp.eq.s64 %p1, %rd2, 0;\n"
    "\t@%p1 bra $L_k;\n\tbar.sync 0;\n$L_k:\n\tret;\n}\n"
    ".visible .entry arrive_and_leave()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ntid.x;\n\tshr.u32 %r3, %r2, 1;\n"
    "\tsetp.ge.u32 %p1, %r1, %r3;\n\t@%p1 bra $L_a;\n\tbarrier.sync 0, %r2;\n\tbra.uni $L_e;\n"
    "$L_a:\n\tbarrier.arrive 0, %r2;\n$L_e:\n\tret;\n}\n"
    ".visible .entry arrive_elsewhere()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ntid.x;\n\tshr.u32 %r3, %r2, 1;\n"
    "\tsetp.ge.u32 %p1, %r1, %r3;\n\t@%p1 bra $L_b;\n\tbarrier.sync 0, %r2;\n\tbra.uni $L_g;\n"
    "$L_b:\n\tbarrier.arrive 2, %r2;\n$L_g:\n\tret;\n}\n";

START_TEST(fields_returns_clocks_and_arrivals)
{
    static const char *const divergent[] = {"tid_first_field", "returned_tid", "clock_guard",
                                            "arrive_elsewhere", NULL};
    static const char *const uniform[] = {"tid_second_field", "returned_block", "arrive_and_leave",
                                          NULL};
    assert_sync_verdicts(fields_ptx, divergent, uniform);
}
END_TEST

/* Code inlined from a library header is found by its .loc file, when the
 * build's list (the compiler's dependency list) names that file. */
START_TEST(library_source_is_found_by_its_file)
{
    static const char list[] = "/usr/local/cuda/include/cccl/cub/block/block_scan.cuh\n";
    static const char inlined[] =
        ".file 1 \"/home/s/cubby/scan.cu\"\n"
        ".file 2 \"/usr/local/cuda/include/cccl/cub/block/block_scan.cuh\"\n"
        ".visible .entry scan_kernel()\n{\n\t.reg .b32 %r<3>;\n"
        "\t.loc 1 10 1\n\tmov.u32 %r1, %tid.x;\n"
        "\t.loc 2 200 3\n\tshfl.sync.up.b32 %r2, %r1, 1, 0, -1;\n\tret;\n}\n";
    sl_rule rules[] = {SL_RULES_NO_LIBRARY("WHY"), {SL_RULE_END, 0, 0, 0, 0}};
    sl_ptx p;
    parse_string(inlined, &p);
    sl_text why = {0};
    char where[256];
    /* named like a CUB header, but not one the compiler read from the
     * toolkit (a #line, a file of the student's): the student's code */
    ck_assert(sl_rules_check(&p, rules, &why, where, sizeof where));
    sl_ptx_mark_library(&p, "/usr/local/cuda/include/cccl/cub/block/other.cuh\n");
    ck_assert(sl_rules_check(&p, rules, &why, where, sizeof where));
    sl_ptx_mark_library(&p, list);
    ck_assert(!sl_rules_check(&p, rules, &why, where, sizeof where));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "cub/block/block_scan.cuh"));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "WHY"));
    sl_ptx_free(&p);
    sl_text_free(&why);
    /* the student's own code, in a folder whose name holds "cub", passes */
    char *own = strdup(inlined);
    memcpy(strstr(own, "\t.loc 2"), "\t.loc 1", 7);
    parse_string(own, &p);
    sl_ptx_mark_library(&p, list);
    sl_text clean = {0};
    ck_assert_msg(sl_rules_check(&p, rules, &clean, where, sizeof where), "%s",
                  sl_text_str(&clean));
    sl_ptx_free(&p);
    sl_text_free(&clean);
    free(own);
}
END_TEST

/* A REQUIRE counts what the kernel calls directly, from the sources a
 * term names, and never cooperative groups' grid barrier. */
START_TEST(require_counts_called_code_from_named_sources)
{
    static const char req[] =
        ".file 1 \"/s/k.cu\"\n"
        ".file 2 \"/inc/cooperative_groups/details/sync.h\"\n"
        ".file 3 \"/inc/cccl/cuda/std/__barrier/barrier.h\"\n"
        ".func waits()\n{\n\t.reg .b64 %rd<3>;\n\t.reg .pred %p<2>;\n"
        "\tmbarrier.arrive.shared.b64 %rd1, [%rd2];\n"
        "\tmbarrier.try_wait.shared.b64 %p1, [%rd2], %rd1;\n\tret;\n}\n"
        ".visible .entry calls_it()\n{\n\tcall.uni waits, ();\n\tret;\n}\n"
        ".visible .entry points_at_it()\n{\n\t.reg .b64 %rd<2>;\n"
        "\tmov.u64 %rd1, waits;\n\tret;\n}\n"
        ".visible .entry grid_only()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
        "\t.loc 2 10 1\n\tatom.add.release.gpu.u32 %r1, [%rd1], 1;\n"
        "\tld.acquire.gpu.u32 %r2, [%rd1];\n\tret;\n}\n"
        ".visible .entry own_atomics()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
        "\t.loc 1 10 1\n\tatom.add.release.gpu.u32 %r1, [%rd1], 1;\n"
        "\tld.acquire.gpu.u32 %r2, [%rd1];\n\tret;\n}\n"
        ".visible .entry library_barrier()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
        "\t.loc 3 10 1\n\tatom.add.release.gpu.u32 %r1, [%rd1], 1;\n"
        "\tld.acquire.gpu.u32 %r2, [%rd1];\n\tret;\n}\n";
    static const struct {
        const char *kernel, *pattern;
        int met;
    } cases[] = {
        {"calls_it", "mbarrier.arrive&mbarrier.try_wait", 1},
        {"points_at_it", "mbarrier.arrive&mbarrier.try_wait", 0},
        {"calls_it", "mbarrier.arrive&mbarrier.test_wait", 0},
        {"grid_only", "atom+.release&ld+.acquire", 0},
        {"own_atomics", "atom+.release&ld+.acquire", 1},
        {"own_atomics", "atom+.release@__barrier/&ld+.acquire@__barrier/", 0},
        {"library_barrier", "atom+.release@__barrier/&ld+.acquire@__barrier/", 1},
    };
    sl_ptx p;
    parse_string(req, &p);
    sl_ptx_mark_library(&p, "/inc/cooperative_groups/details/sync.h\n"
                            "/inc/cccl/cuda/std/__barrier/barrier.h\n");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sl_rule rules[] = {{SL_RULE_REQUIRE, cases[i].kernel, cases[i].pattern, "WHY", "it"},
                           {SL_RULE_END, 0, 0, 0, 0}};
        sl_text why = {0};
        char where[256];
        ck_assert_msg(sl_rules_check(&p, rules, &why, where, sizeof where) == cases[i].met,
                      "%s with %s: %s", cases[i].kernel, cases[i].pattern, sl_text_str(&why));
        sl_text_free(&why);
    }
    /* the same files, not on the build's list (named by a #line, or files
     * of the student's): nothing in them is library code */
    sl_ptx_mark_library(&p, "/s/k.cu\n");
    sl_rule barrier[] = {{SL_RULE_REQUIRE, "library_barrier",
                          "atom+.release@__barrier/&ld+.acquire@__barrier/", "WHY", "SAYS"},
                         {SL_RULE_END, 0, 0, 0, 0}},
            any[] = {{SL_RULE_REQUIRE, "grid_only", "atom+.release&ld+.acquire", "WHY", "SAYS"},
                     {SL_RULE_END, 0, 0, 0, 0}};
    sl_text why = {0};
    char where[256];
    ck_assert(!sl_rules_check(&p, barrier, &why, where, sizeof where));
    ck_assert(sl_rules_check(&p, any, &why, where, sizeof where));
    sl_text_free(&why);
    sl_ptx_free(&p);
}
END_TEST

Suite *ptx_suite(void)
{
    Suite *s = suite_create("ptx");
    TCase *tc = tcase_create("rules");
    tcase_add_checked_fixture(tc, load, unload);
    tcase_add_test(tc, parses_every_kernel);
    tcase_add_test(tc, rule_messages_speak_words_not_patterns);
    tcase_add_test(tc, rules_must_say_themselves);
    tcase_add_test(tc, correct_idioms_pass);
    tcase_add_test(tc, block_scope_fence_is_too_narrow);
    tcase_add_test(tc, missing_fence_is_reported_with_lines);
    tcase_add_test(tc, fence_before_the_store_is_reported);
    tcase_add_test(tc, forbid_sees_atomics_and_inline_asm);
    tcase_add_test(tc, require_needs_a_match);
    tcase_add_test(tc, todo_marker_is_exact);
    tcase_add_test(tc, barrier_in_a_thread_dependent_branch_is_found);
    tcase_add_test(tc, barriers_every_thread_reaches_are_fine);
    suite_add_tcase(s, tc);
    TCase *reader = tcase_create("reader");
    tcase_add_test(reader, comments_cannot_fake_instructions_or_bounds);
    tcase_add_test(reader, rules_follow_the_call_graph);
    tcase_add_test(reader, require_accepts_any_listed_form);
    tcase_add_test(reader, todo_marker_only_in_a_real_comment);
    tcase_add_test(reader, atomic_block_barrier_turns_racecheck_off_only_without_mbarrier);
    tcase_add_test(reader, inner_block_registers_do_not_shadow);
    tcase_add_test(reader, inner_block_labels_are_local);
    tcase_add_test(reader, locations_name_the_students_line);
    tcase_add_test(reader, generic_group_switch_is_not_a_divergent_barrier);
    tcase_add_test(reader, reader_gives_one_spelling_per_instruction);
    tcase_add_test(reader, traps_and_guarded_exits_in_the_cfg);
    tcase_add_test(reader, thread_index_through_helpers_votes_and_counts);
    tcase_add_test(reader, fields_returns_clocks_and_arrivals);
    tcase_add_test(reader, library_source_is_found_by_its_file);
    tcase_add_test(reader, require_counts_called_code_from_named_sources);
    suite_add_tcase(s, reader);
    return s;
}
