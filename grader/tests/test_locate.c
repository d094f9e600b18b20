#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "locate.h"
#include "unit.h"

static char g_root[64];

/* A submission folder with the given files ("hw1/barriers.cu"); a name
 * ending in '/' is an empty folder, "link:NAME" a symbolic link. */
static void make_submission(const char *const *files)
{
    snprintf(g_root, sizeof g_root, "/tmp/synclab_locate_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(g_root));
    for (; *files; files++) {
        char path[4096];
        int link = strncmp(*files, "link:", 5) == 0;
        const char *name = link ? *files + 5 : *files;
        snprintf(path, sizeof path, "%s/%s", g_root, name);
        for (char *s = strchr(path + strlen(g_root) + 1, '/'); s; s = strchr(s + 1, '/')) {
            *s = '\0';
            mkdir(path, 0755);
            *s = '/';
        }
        if (name[strlen(name) - 1] == '/')
            continue;
        if (link) {
            ck_assert_int_eq(symlink("/etc/hostname", path), 0);
            continue;
        }
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs("// a lesson file\n", f);
        fclose(f);
    }
}

static void remove_submission(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_root);
    ck_assert_int_eq(system(cmd), 0);
}

/* Locates lesson in a submission of files: found, the folder and the note. */
static void located(const char *const *files, const char *lesson, int found, const char *folder,
                    const char *note)
{
    make_submission(files);
    sl_submission_scan scan;
    ck_assert_int_eq(sl_locate_scan(g_root, &scan), 0);
    sl_located l;
    sl_locate_lesson(&scan, lesson, &l);
    ck_assert_msg(l.found == found, "%s: found %d, expected %d (%s)", lesson, l.found, found,
                  l.note);
    ck_assert_str_eq(l.note, note);
    if (found) {
        ck_assert_str_eq(l.folder, folder);
        char want[4096];
        snprintf(want, sizeof want, "%s/%s%s.cu", g_root, folder, lesson);
        ck_assert_str_eq(l.path, want);
    }
    sl_locate_scan_free(&scan);
    remove_submission();
}

START_TEST(a_file_at_the_top_is_used_without_a_word)
{
    const char *files[] = {"barriers.cu", "hw1/barriers.cu", NULL};
    located(files, "barriers", 1, "", "");
}
END_TEST

START_TEST(a_file_a_few_folders_down_is_found_and_said)
{
    const char *one[] = {"hw1/barriers.cu", "hw1/notes.txt", NULL};
    located(one, "barriers", 1, "hw1/", "barriers.cu found in hw1/");
    const char *three[] = {"Eve Smith_12/hw 1/src/barriers.cu", NULL};
    located(three, "barriers", 1, "Eve Smith_12/hw 1/src/",
            "barriers.cu found in Eve Smith_12/hw 1/src/");
    /* the shallowest wins: an older copy further down is not a tie */
    const char *older[] = {"hw1/barriers.cu", "hw1/old/barriers.cu", NULL};
    located(older, "barriers", 1, "hw1/", "barriers.cu found in hw1/");
}
END_TEST

START_TEST(too_deep_is_not_looked_at)
{
    const char *four[] = {"a/b/c/d/barriers.cu", NULL};
    located(four, "barriers", 0, "", "no .cu file");
}
END_TEST

START_TEST(two_candidates_at_one_depth_are_refused)
{
    const char *files[] = {"v1/barriers.cu", "v2/barriers.cu", NULL};
    located(files, "barriers", 0, "", "barriers.cu in 2 folders (v1/, v2/): keep one");
}
END_TEST

START_TEST(another_spelling_is_not_used_but_named)
{
    const char *upper[] = {"Barriers.cu", NULL};
    located(upper, "barriers", 0, "", "Barriers.cu: did you mean barriers.cu?");
    const char *copy[] = {"hw1/barriers (1).cu", NULL};
    located(copy, "barriers", 0, "", "hw1/barriers (1).cu: did you mean barriers.cu?");
    const char *odd[] = {"a\nb/Barriers.cu", NULL}; /* one line, whatever the folder */
    located(odd, "barriers", 0, "", "a\\x0ab/Barriers.cu: did you mean barriers.cu?");
    const char *other[] = {"scan.cu", NULL};
    located(other, "barriers", 0, "", "no barriers.cu");
}
END_TEST

START_TEST(links_hidden_files_and_macos_folders_do_not_count)
{
    const char *link[] = {"link:barriers.cu", NULL};
    located(link, "barriers", 0, "", "barriers.cu is a link, not a file");
    const char *hidden[] = {".git/barriers.cu", "__MACOSX/barriers.cu", "._barriers.cu", NULL};
    located(hidden, "barriers", 0, "", "empty folder");
    const char *pdf[] = {"report.pdf", "empty/", NULL};
    located(pdf, "barriers", 0, "", "no .cu file");
}
END_TEST

static void summary(const char *const *files, const char *const *lessons, int n, const char *want)
{
    make_submission(files);
    sl_submission_scan scan;
    ck_assert_int_eq(sl_locate_scan(g_root, &scan), 0);
    char buf[1024];
    sl_locate_summary(&scan, lessons, n, buf, sizeof buf);
    ck_assert_str_eq(buf, want);
    sl_locate_scan_free(&scan);
    remove_submission();
}

START_TEST(a_submission_is_summed_up_in_one_note)
{
    const char *lessons[] = {"barriers", "scan", "reduction"};
    const char *all[] = {"barriers.cu", "scan.cu", "reduction.cu", NULL};
    summary(all, lessons, 3, "");
    const char *nothing[] = {"empty/", NULL};
    summary(nothing, lessons, 3, "empty folder");
    const char *no_cu[] = {"README.md", NULL};
    summary(no_cu, lessons, 3, "no .cu file");
    const char *mixed[] = {"hw/barriers.cu", "hw/Scan.cu", NULL};
    summary(mixed, lessons, 3,
            "barriers.cu found in hw/; hw/Scan.cu: did you mean scan.cu?; missing: reduction.cu");
    sl_submission_scan scan;
    ck_assert_int_eq(sl_locate_scan("/nonexistent/synclab", &scan), -1);
    char buf[64];
    sl_locate_summary(&scan, lessons, 3, buf, sizeof buf);
    ck_assert_str_eq(buf, "folder not readable");
    sl_locate_scan_free(&scan);
}
END_TEST

Suite *locate_suite(void)
{
    Suite *s = suite_create("locate");
    TCase *tc = tcase_create("locate");
    tcase_add_test(tc, a_file_at_the_top_is_used_without_a_word);
    tcase_add_test(tc, a_file_a_few_folders_down_is_found_and_said);
    tcase_add_test(tc, too_deep_is_not_looked_at);
    tcase_add_test(tc, two_candidates_at_one_depth_are_refused);
    tcase_add_test(tc, another_spelling_is_not_used_but_named);
    tcase_add_test(tc, links_hidden_files_and_macos_folders_do_not_count);
    tcase_add_test(tc, a_submission_is_summed_up_in_one_note);
    suite_add_tcase(s, tc);
    return s;
}
