#include <check.h>
#include <string.h>

#include "demangle.h"
#include "unit.h"

START_TEST(kernel_names_read_as_written)
{
    char buf[256];
    ck_assert_str_eq(sl_demangle("_Z10block_votePKiPiii", buf, sizeof buf),
                     "block_vote(int const*, int*, int, int)");
    ck_assert_str_eq(sl_demangle("_Z17split_arrive_waitPKiPii", buf, sizeof buf),
                     "split_arrive_wait(int const*, int*, int)");
    /* C names, PTX labels and what does not demangle stay as they are */
    ck_assert_str_eq(sl_demangle("tile_reverse", buf, sizeof buf), "tile_reverse");
    ck_assert_str_eq(sl_demangle("_Zzz", buf, sizeof buf), "_Zzz");
    ck_assert_str_eq(sl_demangle("$L__BB0_2", buf, sizeof buf), "$L__BB0_2");
}
END_TEST

START_TEST(text_is_demangled_outside_quoted_ptx)
{
    sl_text t = {0};
    sl_demangle_text("in _Z4stepPi, the call `call.uni _Z4stepPi;` (k.cu:3); x_Z4stepPi", &t);
    ck_assert_str_eq(sl_text_str(&t), "in step(int*), the call `call.uni _Z4stepPi;` (k.cu:3); "
                                      "x_Z4stepPi");
    sl_text_clear(&t);
    sl_text_printf(&t, "%s", "_Z10block_votePKiPiii has an atomic");
    sl_demangle_in(&t);
    ck_assert_str_eq(sl_text_str(&t), "block_vote(int const*, int*, int, int) has an atomic");
    sl_text_free(&t);
}
END_TEST

Suite *demangle_suite(void)
{
    Suite *s = suite_create("demangle");
    TCase *tc = tcase_create("names");
    tcase_add_test(tc, kernel_names_read_as_written);
    tcase_add_test(tc, text_is_demangled_outside_quoted_ptx);
    suite_add_tcase(s, tc);
    return s;
}
