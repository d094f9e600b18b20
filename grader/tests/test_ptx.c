#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
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
    sl_rule rules[] = {{SL_RULE_FENCED_PUBLISH, fn, NULL, "WHY"}, {SL_RULE_END, 0, 0, 0}};
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
    const char *ok[] = {"pub_threadfence", "pub_atomic_ref", "pub_thread_fence",
                        "pub_system_fence", "pub_then_reset"};
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
    sl_rule rules[] = {{SL_RULE_FORBID, "uses_inline_asm_atomic", "atom.|red.", "no atomics"},
                       {SL_RULE_END, 0, 0, 0}};
    sl_text why = {0};
    char where[256];
    ck_assert(!sl_rules_check(&ptx, rules, &why, where, sizeof where));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "atom.global.add.u32"));
    sl_text_free(&why);
    sl_rule clean[] = {{SL_RULE_FORBID, "no_atomics", "atom.|red.", "no atomics"},
                       {SL_RULE_END, 0, 0, 0}};
    ck_assert(sl_rules_check(&ptx, clean, &why, where, sizeof where));
    sl_rule builtin[] = {{SL_RULE_FORBID, "pub_no_fence", "atom.|red.", "x"}, {SL_RULE_END, 0, 0, 0}};
    ck_assert(!sl_rules_check(&ptx, builtin, &why, where, sizeof where));
    /* an atomicAdd is located at the student's line, not in the CUDA header */
    ck_assert_ptr_nonnull(strstr(where, "ptx_idioms.cu:22"));
    sl_text_free(&why);
}
END_TEST

START_TEST(require_needs_a_match)
{
    sl_rule need_fence[] = {{SL_RULE_REQUIRE, "no_atomics", "membar.", "x"}, {SL_RULE_END, 0, 0, 0}};
    sl_text why = {0};
    char where[256];
    ck_assert(!sl_rules_check(&ptx, need_fence, &why, where, sizeof where));
    sl_rule has_fence[] = {{SL_RULE_REQUIRE, "pub_threadfence", "membar.gl", "x"},
                           {SL_RULE_END, 0, 0, 0}};
    ck_assert(sl_rules_check(&ptx, has_fence, &why, where, sizeof where));
    sl_text_free(&why);
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

Suite *ptx_suite(void)
{
    Suite *s = suite_create("ptx");
    TCase *tc = tcase_create("rules");
    tcase_add_checked_fixture(tc, load, unload);
    tcase_add_test(tc, parses_every_kernel);
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
    return s;
}
