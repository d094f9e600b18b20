#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "junit.h"
#include "unit.h"
#include "utf8.h"

START_TEST(markup_characters_become_entities)
{
    sl_text t = {0};
    sl_xml_escape(&t, "a<b && c>d \"q\" 'a'", 0);
    /* libxml2's escaping: ' needs no entity inside double quotes */
    ck_assert_str_eq(sl_text_str(&t), "a&lt;b &amp;&amp; c&gt;d &quot;q&quot; 'a'");
    sl_text_free(&t);
}
END_TEST

START_TEST(control_characters_are_dropped)
{
    sl_text t = {0};
    /* ESC colour codes, NUL-adjacent bytes, form feed: not allowed in XML 1.0 */
    sl_xml_escape(&t, "\x1b[31mred\x1b[0m\x01\x02\x0c\ttab\nline\r", 0);
    ck_assert_str_eq(sl_text_str(&t), "[31mred[0m\ttab\nline&#13;");
    sl_text_free(&t);
}
END_TEST

START_TEST(attributes_keep_newlines_as_references)
{
    sl_text t = {0};
    sl_xml_escape(&t, "a\nb\tc", 1);
    ck_assert_str_eq(sl_text_str(&t), "a&#10;b&#9;c");
    sl_text_free(&t);
}
END_TEST

START_TEST(invalid_utf8_is_replaced)
{
    sl_text t = {0};
    /* a lone continuation byte, a truncated sequence, an overlong '/', a
     * surrogate, then valid text: é and a 4-byte emoji */
    sl_utf8_clean(&t, "\x80x\xC3y\xC0\xAF\xED\xA0\x80 \xC3\xA9\xF0\x9F\x98\x80", 1000, 0);
    ck_assert_str_eq(sl_text_str(&t),
                     "\xEF\xBF\xBDx\xEF\xBF\xBDy\xEF\xBF\xBD\xEF\xBF\xBD"
                     "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD \xC3\xA9\xF0\x9F\x98\x80");
    sl_text_free(&t);
}
END_TEST

START_TEST(long_text_is_cut)
{
    sl_text t = {0};
    char big[5000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    sl_utf8_clean(&t, big, 100, 0);
    ck_assert_uint_lt(t.len, 200);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&t), "[... cut]"));
    sl_text_free(&t);
}
END_TEST

static int count_of(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

START_TEST(document_has_one_testcase_per_exercise)
{
    sl_outcome o[3] = {0};
    strcpy(o[0].lesson, "alpha"), strcpy(o[0].exercise, "first");
    strcpy(o[1].lesson, "alpha"), strcpy(o[1].exercise, "second");
    strcpy(o[2].lesson, "beta"), strcpy(o[2].exercise, "third");
    o[0].verdict = SL_V_PASS;
    o[1].verdict = SL_V_BUILD;
    sl_text_printf(&o[1].detail, "%s", "x.cu(3): error: expected a \";\" <here> & \x1b[1mthere\n");
    strcpy(o[1].where, "x.cu:3");
    o[2].verdict = SL_V_SKIP;
    sl_text t = {0};
    sl_junit_render(&t, "Doe & <Jane>", o, 3, 1.5);
    const char *x = sl_text_str(&t);
    ck_assert_int_eq(count_of(x, "<testcase "), 3);
    ck_assert_int_eq(count_of(x, "<testsuite "), 2);
    ck_assert_ptr_nonnull(strstr(x, "<testsuites name=\"Doe &amp; &lt;Jane&gt;\" tests=\"3\" "
                                    "failures=\"1\" errors=\"0\" skipped=\"1\""));
    ck_assert_ptr_nonnull(strstr(x, "<failure message=\"BUILD at x.cu:3\" type=\"BUILD\">"));
    ck_assert_ptr_nonnull(strstr(x, "expected a &quot;;&quot; &lt;here&gt; &amp; [1mthere"));
    ck_assert_ptr_nonnull(strstr(x, "<skipped message=\"SKIP\" type=\"SKIP\">"));
    ck_assert_ptr_null(strchr(x, '\x1b'));
    sl_text_free(&t);
}
END_TEST

Suite *junit_suite(void)
{
    Suite *s = suite_create("junit");
    TCase *tc = tcase_create("xml");
    tcase_add_test(tc, markup_characters_become_entities);
    tcase_add_test(tc, control_characters_are_dropped);
    tcase_add_test(tc, attributes_keep_newlines_as_references);
    tcase_add_test(tc, invalid_utf8_is_replaced);
    tcase_add_test(tc, long_text_is_cut);
    tcase_add_test(tc, document_has_one_testcase_per_exercise);
    suite_add_tcase(s, tc);
    return s;
}
