#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy.h"
#include "unit.h"

/* A fake grader folder holding the lesson header and a private file. */
static char grader_dir[] = "/tmp/synclab_policy_grader_XXXXXX";
static char student_dir[] = "/tmp/synclab_policy_student_XXXXXX";
static sl_policy policy = {"alpha"};

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(grader_dir));
    ck_assert_ptr_nonnull(mkdtemp(student_dir));
    write_file(grader_dir, "alpha.h", "// lesson header\n");
    write_file(grader_dir, "synclab.h", "// student header\n");
    write_file(grader_dir, "reference.h", "// the CPU reference\n");
}

static void teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", grader_dir, student_dir);
    ck_assert_int_eq(system(cmd), 0);
    strcpy(grader_dir, "/tmp/synclab_policy_grader_XXXXXX");
    strcpy(student_dir, "/tmp/synclab_policy_student_XXXXXX");
}

/* 1 when accepted; the messages land in why. */
static int scan(const char *text, sl_text *why)
{
    sl_text_clear(why);
    return sl_policy_check_text(&policy, "s.cu", text, student_dir, why);
}

static void accepted(const char *text)
{
    sl_text why = {0};
    ck_assert_msg(scan(text, &why), "refused:\n%s\n%s", text, sl_text_str(&why));
    sl_text_free(&why);
}

/* Refused, with message at "s.cu(line)" containing what. */
static void refused(const char *text, int line, const char *what)
{
    sl_text why = {0};
    ck_assert_msg(!scan(text, &why), "accepted:\n%s", text);
    char at[32];
    snprintf(at, sizeof at, "s.cu(%d): error: submission policy:", line);
    ck_assert_msg(strstr(sl_text_str(&why), at) && strstr(sl_text_str(&why), what),
                  "expected '%s' ... '%s' in:\n%s", at, what, sl_text_str(&why));
    sl_text_free(&why);
}

START_TEST(comments_and_strings_do_not_count)
{
    accepted("// call exit( when done\n/* or system(\"rm\") */\n"
             "const char *s = \"exit(0); main(\";\nchar c = '(';\n"
             "const char *r = R\"x(fopen(\"f\"))x\";\n");
    accepted("int exit_code = 0; struct S { int exit; } s; void f() { s.exit = exit_code; }\n");
    accepted("__global__ void k(int *o) { o[0] = 1'000'000; }\n");
}
END_TEST

START_TEST(host_code_is_refused)
{
    refused("int main() { return 0; }\n", 1, "main()");
    refused("\n\nvoid f() { std::exit (0); }\n", 3, "exit()");
    refused("void f() {\n  ex\\\nit(0);\n}\n", 2, "exit()"); /* line splice */
    refused("__attribute__ ((constructor)) static void f() {}\n", 1, "constructor");
    refused("[[gnu::constructor]] void f() {}\n", 1, "constructor");
    /* GNU attributes may be spelled with underscores around them */
    refused("__attribute__((__constructor__)) static void f() {}\n", 1, "constructor");
    refused("[[gnu::__destructor__]] void f() {}\n", 1, "destructor");
    refused("void f() { system(\"ls\"); }\n", 1, "system()");
    refused("void f() { popen(\"ls\", \"r\"); }\n", 1, "popen()");
    refused("void f() { execvp(\"ls\", 0); }\n", 1, "execvp()");
    refused("void f() { FILE *x = fopen(\"/etc/passwd\", \"r\"); }\n", 1, "fopen()");
    refused("#include <fstream>\nstd::ifstream in(\"x\");\n", 2, "ifstream");
    refused("void f() { _exit(0); }\n", 1, "_exit()");
}
END_TEST

START_TEST(lines_are_counted_through_comments_and_literals)
{
    refused("/* one\n two\n three */ char q = '\"';\nconst char *s = \"a\\\"b\";\n"
            "void f() { quick_exit(0); }\n",
            5, "quick_exit()");
    refused("const char *s = \"/* not a comment */\"; void f() { exit(1); }\n", 1, "exit()");
}
END_TEST

START_TEST(abort_is_allowed)
{
    accepted("#include <cassert>\nvoid f(int x) { if (x < 0) abort(); assert(x); }\n");
}
END_TEST

/* Which files may be included is the compiler's dependency list's matter
 * (build.c, the adversarial cases): the text scan refuses no #include. */
START_TEST(includes_are_not_judged_here)
{
    accepted("#include \"alpha.h\"\n#include \"synclab.h\"\n#include <cuda/barrier>\n"
             "#include <cooperative_groups/reduce.h>\n#include <stdio.h>\n");
    accepted("#include \"../solutions/barriers.cu\"\n#include <reference.h>\n");
    accepted("#define F \"x.h\"\n#include F\n");
}
END_TEST

/* #line, in every spelling the preprocessor takes as a directive, and the
 * line markers it writes itself: they would rename the student's lines. */
START_TEST(line_directives_are_refused)
{
    const char *why = "#line would make your code count as library code";
    refused("int a;\n#line 1 \"/usr/local/cuda/include/cuda/std/atomic\"\n", 2, why);
    refused("int a;\n  #  line 7\n", 2, why);
    refused("int a;\n%:line 7\n", 2, why);
    refused("int a;\n#\\\nline 7\n", 2, why);              /* a splice after '#' */
    refused("int a;\n#li\\\nne 7\n", 2, why);              /* a splice in the word */
    refused("int a;\n/* c */ # /* c */ line 7\n", 2, why); /* comments are spaces */
    refused("int a;\n# 33 \"/usr/local/cuda/include/cuda/barrier\" 3\n", 2, why);
    refused("int a;\n#33\n", 2, why);
    /* a directive that a macro expands to is no directive: nothing to refuse */
    accepted("#define L(n) _Pragma(\"unroll\") int x##n;\nL(1)\n");
    accepted("#define S(x) #x\nconst char *s = S(line);\nint newline = 1; // #line 3\n");
    /* the student's own headers are scanned too */
    write_file(student_dir, "lines.h", "\n#line 40 \"/usr/local/cuda/include/cuda/atomic\"\n");
    sl_text w = {0};
    ck_assert(!sl_policy_check_text(&policy, "s.cu", "#include \"lines.h\"\n", student_dir, &w));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&w), "lines.h(2): error: submission policy: #line"));
    sl_text_free(&w);
}
END_TEST

START_TEST(student_headers_are_scanned_too)
{
    write_file(student_dir, "helper.h", "\n\nvoid g() { system(\"id\"); }\n");
    sl_text why = {0};
    ck_assert(!sl_policy_check_text(&policy, "s.cu", "#include \"helper.h\"\n", student_dir, &why));
    ck_assert_ptr_nonnull(
        strstr(sl_text_str(&why), "helper.h(3): error: submission policy: system()"));
    sl_text_free(&why);
}
END_TEST

START_TEST(links_are_refused)
{
    char target[4096], link[4096], file[4096];
    snprintf(target, sizeof target, "%s/reference.h", grader_dir);
    snprintf(link, sizeof link, "%s/helper.h", student_dir);
    ck_assert_int_eq(symlink(target, link), 0);
    /* a linked header is not followed by the scan (the compiler's list
     * refuses it); the lesson file itself as a link to someone else's is
     * refused here */
    snprintf(file, sizeof file, "%s/alpha.cu", student_dir);
    ck_assert_int_eq(symlink(target, file), 0);
    sl_text why = {0};
    ck_assert(!sl_policy_check_file(&policy, file, &why));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&why), "not a plain file"));
    sl_text_free(&why);
}
END_TEST

START_TEST(strip_keeps_lines)
{
    char *s = sl_policy_strip("a /* b\n c */ d // e\n\"f(\" 'g'\n");
    ck_assert_str_eq(s, "a     \n      d     \n\"  \" ' '\n");
    free(s);
}
END_TEST

Suite *policy_suite(void)
{
    Suite *s = suite_create("policy");
    TCase *tc = tcase_create("scanner");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, comments_and_strings_do_not_count);
    tcase_add_test(tc, host_code_is_refused);
    tcase_add_test(tc, lines_are_counted_through_comments_and_literals);
    tcase_add_test(tc, abort_is_allowed);
    tcase_add_test(tc, includes_are_not_judged_here);
    tcase_add_test(tc, student_headers_are_scanned_too);
    tcase_add_test(tc, line_directives_are_refused);
    tcase_add_test(tc, links_are_refused);
    tcase_add_test(tc, strip_keeps_lines);
    suite_add_tcase(s, tc);
    return s;
}
