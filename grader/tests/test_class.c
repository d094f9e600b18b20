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
    int n = sl_class_students(dir, &names);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(names[0], "=odd, name");
    ck_assert_str_eq(names[1], "Bob");
    ck_assert_str_eq(names[2], "alice");
    ck_assert_str_eq(names[3], "zoe");
    sl_class_free_names(names, n);
    ck_assert_int_eq(sl_class_students("/nonexistent/class", &names), -1);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    ck_assert_int_eq(system(path), 0);
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
    tcase_add_test(tc, progress_line_tells_time_left);
    suite_add_tcase(s, tc);
    return s;
}
