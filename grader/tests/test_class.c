#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "class.h"
#include "unit.h"

START_TEST(students_are_folders_sorted_by_name)
{
    char dir[] = "/tmp/synclab_class_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *folders[] = {"zoe", "Bob", "alice", ".hidden", "=odd, name"};
    char path[4096];
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, folders[i]);
        ck_assert_int_eq(mkdir(path, 0755), 0);
    }
    snprintf(path, sizeof path, "%s/notes.txt", dir); /* a file is no student */
    close(creat(path, 0644));
    char **names;
    int refused = 0;
    /* "=odd, name" would be a CSV cell and a path: not graded, counted */
    int n = sl_class_students_checked(dir, &names, &refused);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(refused, 1);
    ck_assert_str_eq(names[0], "Bob");
    ck_assert_str_eq(names[1], "alice");
    ck_assert_str_eq(names[2], "zoe");
    sl_class_free_names(names, n);
    ck_assert_int_eq(sl_class_students("/nonexistent/class", &names), -1);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

START_TEST(student_names_are_plain)
{
    const char *ok[] = {"alice", "Bob_2", "j.doe", "x-y", "a+b@uni.edu", "grades.csv"};
    const char *bad[] = {"",    ".",   "..",        ".hidden",     "-rf",         "a,b",   "a\nb",
                         "a b", "a/b", "tab\there", "\x1b[31mred", "caf\xc3\xa9", "=cmd()"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        ck_assert_msg(sl_class_name_ok(ok[i]), "%s refused", ok[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!sl_class_name_ok(bad[i]), "bad name %zu accepted", i);
    char longer[200];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    ck_assert(!sl_class_name_ok(longer));
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
    tcase_add_test(tc, students_are_folders_sorted_by_name);
    tcase_add_test(tc, student_names_are_plain);
    tcase_add_test(tc, progress_line_tells_time_left);
    suite_add_tcase(s, tc);
    return s;
}
