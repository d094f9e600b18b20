#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "class.h"
#include "roster.h"
#include "unit.h"

START_TEST(every_folder_is_a_student_sorted_by_name)
{
    char dir[] = "/tmp/synclab_class_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *folders[] = {"zoe",        "Bob",         "alice",         ".hidden",
                             "=odd, name", "eve smith",   "-dash",         "a\nb",
                             "caf\xe9",    "Jos\xc3\xa9", "O'Brien (late)"};
    char path[4096];
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, folders[i]);
        ck_assert_int_eq(mkdir(path, 0755), 0);
    }
    snprintf(path, sizeof path, "%s/notes.txt", dir); /* a file is no student */
    close(creat(path, 0644));
    snprintf(path, sizeof path, "%s/linked", dir); /* a link to a folder: refused */
    ck_assert_int_eq(symlink("zoe", path), 0);
    sl_student *st;
    int n = sl_roster_read(dir, &st);
    ck_assert_int_eq(n, 11); /* .hidden is none; every other folder is one */
    const char *order[] = {"-dash",          "=odd, name", "Bob",   "Jos\xc3\xa9",
                           "O'Brien (late)", "a\nb",       "alice", "caf\xe9",
                           "eve smith",      "linked",     "zoe"};
    const char *why[] = {"leading '-'", NULL,
                         NULL,          NULL,
                         NULL,          "a newline in the name",
                         NULL,          "byte 0xe9 is not UTF-8",
                         NULL,          "a link, not a folder",
                         NULL};
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(st[i].name, order[i]);
        if (why[i])
            ck_assert_str_eq(st[i].refused ? st[i].refused : "(graded)", why[i]);
        else
            ck_assert_msg(!st[i].refused, "%s refused: %s", order[i], st[i].refused);
    }
    /* shown: the name, or its odd bytes escaped when refused */
    ck_assert_str_eq(st[5].shown, "a\\x0ab");
    ck_assert_str_eq(st[7].shown, "caf\\xe9");
    ck_assert_str_eq(st[8].shown, "eve smith");
    sl_roster_free(st, n);
    ck_assert_int_eq(sl_roster_read("/nonexistent/class", &st), -1);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

START_TEST(report_folders_are_safe_and_apart)
{
    const char *plain[] = {"alice", "Bob_2", "j.doe", "x-y", "a+b@uni.edu", "grades.csv"};
    const char *odd[] = {"",    ".",   "..",        ".hidden",     "-rf",         "a,b",   "a\nb",
                         "a b", "a/b", "tab\there", "\x1b[31mred", "caf\xc3\xa9", "=cmd()"};
    char dir[256];
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        ck_assert_msg(sl_roster_plain(plain[i]), "%s not plain", plain[i]);
        sl_roster_dir_name(plain[i], dir, sizeof dir);
        ck_assert_str_eq(dir, plain[i]);
    }
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        ck_assert_msg(!sl_roster_plain(odd[i]), "odd name %zu plain", i);
        sl_roster_dir_name(odd[i], dir, sizeof dir);
        /* a plain name and a '~' with the hash: never a plain one, never . or - first */
        ck_assert_msg(strchr(dir, '~') && dir[0] != '.' && dir[0] != '-', "%s", dir);
        for (const char *c = dir; *c; c++)
            ck_assert_msg(strchr("._-@+~", *c) || (*c >= 'a' && *c <= 'z') ||
                              (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'),
                          "%s", dir);
    }
    sl_roster_dir_name("Smith, Eve_12345_assignsubmission_file_", dir, sizeof dir);
    ck_assert_int_eq(strncmp(dir, "Smith_Eve_12345_assignsubmission_file_~", 39), 0);
    char other[256];
    sl_roster_dir_name("Smith; Eve_12345_assignsubmission_file_", other, sizeof other);
    ck_assert_str_ne(dir, other); /* the same letters, another name */
    char longer[200];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    ck_assert(!sl_roster_plain(longer));
    char why[96];
    ck_assert_ptr_null(sl_roster_refusal("Jos\xc3\xa9 N\xc3\xba\xc3\xb1\x65z", why, sizeof why));
    ck_assert_str_eq(sl_roster_refusal("a\x7f", why, sizeof why),
                     "control character U+007F in the name");
    ck_assert_str_eq(sl_roster_refusal("a\xc2\x85", why, sizeof why),
                     "control character U+0085 in the name");
    ck_assert_str_eq(sl_roster_refusal("\xc0\xaf", why, sizeof why), "byte 0xc0 is not UTF-8");
}
END_TEST

START_TEST(progress_line_tells_time_left)
{
    char line[160];
    sl_class_progress_line(line, sizeof line, 0, 40, 3);
    ck_assert_str_eq(line, "students 0/40 done, elapsed 0m03s, ETA ?");
    sl_class_progress_line(line, sizeof line, 10, 40, 65);
    ck_assert_str_eq(line, "students 10/40 done, elapsed 1m05s, ETA 3m15s");
    sl_class_progress_line(line, sizeof line, 1, 40, 3700);
    ck_assert_str_eq(line, "students 1/40 done, elapsed 1h01m, ETA 40h05m");
    sl_class_progress_line(line, sizeof line, 40, 40, 120);
    ck_assert_str_eq(line, "students 40/40 done, elapsed 2m00s, ETA 0m00s");
}
END_TEST

Suite *class_suite(void)
{
    Suite *s = suite_create("class");
    TCase *tc = tcase_create("class");
    tcase_add_test(tc, every_folder_is_a_student_sorted_by_name);
    tcase_add_test(tc, report_folders_are_safe_and_apart);
    tcase_add_test(tc, progress_line_tells_time_left);
    suite_add_tcase(s, tc);
    return s;
}
