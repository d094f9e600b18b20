/* Reports captured from compute-sanitizer 2025.3.1 on an H100 (fixtures/). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "files.h"
#include "runner_call.h"
#include "sanitizer.h"
#include "unit.h"

static sl_verdict parse_fixture(int tool, const char *name, sl_text *detail, char *where)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, name);
    char *text = sl_read_file(path, 1 << 20, NULL);
    ck_assert_msg(text != NULL, "missing fixture %s", path);
    sl_verdict v = sl_sanitizer_parse(tool, text, "p.cu", detail, where, 256);
    free(text);
    return v;
}

START_TEST(racecheck_names_both_lines)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_RACECHECK, "racecheck_read_before_wait.txt", &d, where),
                     SL_V_RACE);
    ck_assert_str_eq(where, "p.cu:35, p.cu:36");
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "Race reported between Write access"));
    sl_text_free(&d);
}
END_TEST

START_TEST(racecheck_warnings_count)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_RACECHECK, "racecheck_warp_warnings.txt", &d, where),
                     SL_V_RACE);
    ck_assert_ptr_nonnull(strstr(where, "p.cu:15"));
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "Warp Level Programming"));
    sl_text_free(&d);
}
END_TEST

/* A summary is believed when the findings themselves were lost (a flooded
 * log): "1 error" is singular, and once read as no count at all. */
START_TEST(racecheck_summary_alone_counts)
{
    sl_text d = {0};
    char where[256];
    static const char *const summaries[] = {
        "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n",
        "========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warning)\n",
        "========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)\n"};
    for (size_t i = 0; i < sizeof summaries / sizeof summaries[0]; i++) {
        ck_assert_int_eq(
            sl_sanitizer_parse(SL_TOOL_RACECHECK, summaries[i], "p.cu", &d, where, sizeof where),
            SL_V_RACE);
        sl_text_clear(&d);
    }
    ck_assert_int_eq(sl_sanitizer_parse(SL_TOOL_RACECHECK,
                                        "========= RACECHECK SUMMARY: 0 hazards displayed (0 "
                                        "errors, 0 warnings)\n",
                                        "p.cu", &d, where, sizeof where),
                     SL_V_PASS);
    sl_text_free(&d);
}
END_TEST

START_TEST(synccheck_divergent_barrier)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_SYNCCHECK, "synccheck_divergent.txt", &d, where),
                     SL_V_SYNC);
    ck_assert_str_eq(where, "p.cu:20");
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "Divergent thread(s) in warp"));
    sl_text_free(&d);
}
END_TEST

START_TEST(synccheck_overflow_points_at_student_line)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_SYNCCHECK, "synccheck_overflow.txt", &d, where),
                     SL_V_SYNC);
    /* the student's line comes before the library header's */
    ck_assert_msg(strncmp(where, "p.cu:29", 7) == 0, "where = %s", where);
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "Barrier overflow"));
    sl_text_free(&d);
}
END_TEST

START_TEST(initcheck_is_memory)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_INITCHECK, "initcheck_uninit.txt", &d, where),
                     SL_V_MEMORY);
    ck_assert_str_eq(where, "p.cu:24");
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "256 errors"));
    sl_text_free(&d);
}
END_TEST

START_TEST(clean_report_passes)
{
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(parse_fixture(SL_TOOL_MEMCHECK, "memcheck_clean.txt", &d, where), SL_V_PASS);
    ck_assert_str_eq(where, "");
    sl_text_free(&d);
}
END_TEST

START_TEST(memcheck_api_errors_are_not_memory_errors)
{
    const char *report =
        "========= COMPUTE-SANITIZER\n"
        "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch "
        "failure\" on CUDA API call to cudaDeviceSynchronize.\n"
        "========= ERROR SUMMARY: 1 error\n";
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(sl_sanitizer_parse(SL_TOOL_MEMCHECK, report, "x.cu", &d, where, sizeof where),
                     SL_V_PASS);
    sl_text_free(&d);
}
END_TEST

START_TEST(memcheck_out_of_bounds)
{
    const char *report =
        "========= COMPUTE-SANITIZER\n"
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at tree_reduce(const int *, int *, int)+0x70 in /src/reduction.cu:31\n"
        "=========     by thread (100,0,0) in block (3,0,0)\n"
        "=========     Address 0x7f0000001000 is out of bounds\n"
        "=========     and is 1 bytes after the nearest allocation at 0x7f0000000000 of size 4095\n"
        "========= \n"
        "========= ERROR SUMMARY: 1 error\n";
    sl_text d = {0};
    char where[256];
    ck_assert_int_eq(
        sl_sanitizer_parse(SL_TOOL_MEMCHECK, report, "reduction.cu", &d, where, sizeof where),
        SL_V_MEMORY);
    ck_assert_str_eq(where, "reduction.cu:31");
    ck_assert_ptr_nonnull(strstr(sl_text_str(&d), "is out of bounds"));
    sl_text_free(&d);
}
END_TEST

/* The files a report names, and whether it is complete (sanitizer.h). */
static unsigned files_named(const char *text, const char *const *files, int n, int *complete)
{
    sl_sanitizer_split split;
    unsigned named = sl_sanitizer_files_split(text, files, n, &split);
    *complete = split.complete;
    return named;
}

static unsigned named_in_fixture(const char *name, const char *const *files, int n, int *complete)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, name);
    char *text = sl_read_file(path, 1 << 20, NULL);
    ck_assert_msg(text != NULL, "missing fixture %s", path);
    unsigned named = files_named(text, files, n, complete);
    free(text);
    return named;
}

/* A report of a runner of several lessons, split by the files its
 * findings name (the together lever): a file not named is clean only when
 * every finding was printed and each names a file. */
START_TEST(findings_are_split_by_file)
{
    /* each lesson's file as the compiler was given it, in its own build folder */
    const char *files[] = {"/g/barriers/build/src/barriers.cu", "/b/src/reduction.cu",
                           "/g/scan/build/src/scan.cu"};
    const char *one =
        "========= COMPUTE-SANITIZER\n"
        "@@exercise reduction/tree_reduce\n"
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at tree_reduce(const int *, int *, int)+0x70 in /b/src/reduction.cu:31\n"
        "=========     by thread (100,0,0) in block (3,0,0)\n"
        "=========     Address 0x7f0000001000 is out of bounds\n"
        "========= \n"
        "========= ERROR SUMMARY: 1 error\n";
    int complete = -1;
    ck_assert_uint_eq(files_named(one, files, 3, &complete), 2u);
    ck_assert_int_eq(complete, 1);

    /* an API error names no file: nothing can be said of any */
    const char *api =
        "========= COMPUTE-SANITIZER\n"
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at tree_reduce(const int *, int *, int)+0x70 in /b/src/reduction.cu:31\n"
        "========= \n"
        "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch "
        "failure\" on CUDA API call to cudaDeviceSynchronize.\n"
        "========= \n"
        "========= ERROR SUMMARY: 2 errors\n";
    ck_assert_uint_eq(files_named(api, files, 3, &complete), 2u);
    ck_assert_int_eq(complete, 0);

    /* a finding in a library header only */
    const char *header =
        "========= Barrier error detected. Divergent thread(s) in warp.\n"
        "=========     at cuda::barrier::arrive()+0x40 in /usr/include/cuda/barrier:120\n"
        "========= \n"
        "========= ERROR SUMMARY: 1 error\n";
    ck_assert_uint_eq(files_named(header, files, 3, &complete), 0u);
    ck_assert_int_eq(complete, 0);

    /* a summary that counts more than were printed, or none at all */
    const char *more =
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at tree_reduce(const int *, int *, int)+0x70 in /b/src/reduction.cu:31\n"
        "========= \n"
        "========= ERROR SUMMARY: 2 errors\n";
    files_named(more, files, 3, &complete);
    ck_assert_int_eq(complete, 0);
    /* and why, for the trace: one printed of the summary's two */
    sl_sanitizer_split why;
    ck_assert_uint_eq(sl_sanitizer_files_split(more, files, 3, &why), 2u);
    ck_assert_int_eq(why.complete, 0);
    ck_assert_int_eq(why.printed, 1);
    ck_assert_int_eq(why.total, 2);
    ck_assert_int_eq(why.attributed, 1);
    ck_assert_int_eq(why.unprinted, 0);
    ck_assert_uint_eq(sl_sanitizer_files_split(header, files, 3, &why), 0u);
    ck_assert_int_eq(why.printed - why.attributed, 1); /* the header's finding names no lesson */
    ck_assert_str_eq(why.unnamed,
                     "at cuda::barrier::arrive()+0x40 in /usr/include/cuda/barrier:120");
    files_named("========= Invalid __global__ read of size 4 bytes\n"
                "=========     at f()+0x70 in /g/scan/build/src/scan.cu:3\n",
                files, 3, &complete);
    ck_assert_int_eq(complete, 0);

    /* a file of another lesson's name in reduction's folder (reduction.cu
     * includes helper/scan.cu): not scan's, so nothing is said of reduction */
    const char *helper = "========= Invalid __global__ read of size 4 bytes\n"
                         "=========     at hidden(int *)+0x70 in /b/src/helper/scan.cu:3\n"
                         "========= \n"
                         "========= ERROR SUMMARY: 1 error\n";
    ck_assert_uint_eq(files_named(helper, files, 3, &complete), 0u);
    ck_assert_int_eq(complete, 0);
    /* nor a path that only starts like a lesson's; a path may hold spaces */
    const char *longer = "========= Invalid __global__ read of size 4 bytes\n"
                         "=========     at f()+0x70 in /g/scan/build/src/scan.cu.h:3\n"
                         "========= \n"
                         "========= ERROR SUMMARY: 1 error\n";
    ck_assert_uint_eq(files_named(longer, files, 3, &complete), 0u);
    ck_assert_int_eq(complete, 0);
    /* a student's file whose name holds another lesson's location: the
     * line number must end the location ("x in <barriers>:5.cu" is not
     * barriers.cu line 5), so it names no lesson here */
    const char *forged = "========= Invalid __global__ read of size 4 bytes\n"
                         "=========     at f()+0x70 in /b/src/x in "
                         "/g/barriers/build/src/barriers.cu:5.cu:12\n"
                         "========= \n"
                         "========= ERROR SUMMARY: 1 error\n";
    ck_assert_uint_eq(files_named(forged, files, 3, &complete), 0u);
    ck_assert_int_eq(complete, 0);
    const char *spaced_files[] = {"/g/Smith Eve/scan/build/src/scan.cu"};
    const char *spaced = "========= Invalid __global__ read of size 4 bytes\n"
                         "=========     at f()+0x70 in /g/Smith Eve/scan/build/src/scan.cu:3\n"
                         "========= \n"
                         "========= ERROR SUMMARY: 1 error\n";
    ck_assert_uint_eq(files_named(spaced, spaced_files, 1, &complete), 1u);
    ck_assert_int_eq(complete, 1);

    /* real reports: one racecheck pair, complete; past the print limit
     * (initcheck) and hazards not displayed (racecheck): not */
    const char *p[] = {"q.cu", "p.cu"};
    ck_assert_uint_eq(named_in_fixture("racecheck_read_before_wait.txt", p, 2, &complete), 2u);
    ck_assert_int_eq(complete, 1);
    ck_assert_uint_eq(named_in_fixture("initcheck_uninit.txt", p, 2, &complete), 2u);
    ck_assert_int_eq(complete, 0);
    named_in_fixture("racecheck_warp_warnings.txt", p, 2, &complete);
    ck_assert_int_eq(complete, 0);
    ck_assert_uint_eq(named_in_fixture("synccheck_divergent.txt", p, 2, &complete), 2u);
    ck_assert_int_eq(complete, 1);
}
END_TEST

/* racecheck's analysis names a file by its base name only, whatever path
 * the compiler was given (a class of 24 on an H200: "in barriers.cu:128"
 * for <build>/src/barriers.cu), so its reports are split by the base names
 * of the files each lesson's compile read: a finding names every lesson
 * that read a file of that name. */
START_TEST(racecheck_findings_are_split_by_base_name)
{
    const char *paths[] = {"/g/barriers/build/src/barriers.cu",
                           "/g/reduction/build/src/reduction.cu", "/g/scan/build/src/scan.cu"};
    /* reduction.cu includes the student's helper/scan.cu */
    const char *names[] = {"barriers.cu\nbarriers.h\nbarrier\n",
                           "reduction.cu\nscan.cu\nreduction.h\n", "scan.cu\nscan.h\nbarrier\n"};
    const char *race =
        "========= COMPUTE-SANITIZER\n"
        "========= Warning: Race reported between Write access at tile_reverse(const int *, int *, "
        "int)+0x2d0 in barriers.cu:128\n"
        "=========     and Read access at tile_reverse(const int *, int *, int)+0x2e0 in "
        "barriers.cu:131 [208 hazards]\n"
        "========= \n"
        "========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)\n";
    sl_sanitizer_split why;
    ck_assert_uint_eq(sl_sanitizer_files_split(race, paths, 3, &why), 0u);
    ck_assert_int_eq(why.complete, 0);
    ck_assert_uint_eq(sl_sanitizer_names_split(race, names, 3, &why), 1u);
    ck_assert_int_eq(why.complete, 1);

    /* a race in scan.cu: scan's, or reduction's helper: both named */
    const char *helper =
        "========= Error: Race reported between Write access at f(int *)+0x20 in "
        "scan.cu:3\n"
        "=========     and Read access at f(int *)+0x40 in scan.cu:4 [32 hazards]\n"
        "========= \n"
        "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    ck_assert_uint_eq(sl_sanitizer_names_split(helper, names, 3, &why), 6u);
    ck_assert_int_eq(why.complete, 1);
    /* a library header several lessons read names each of them */
    const char *header = "========= Error: Race reported between Write access at "
                         "cuda::barrier::arrive()+0x20 in barrier:120\n"
                         "=========     and Read access at g()+0x40 in barrier:122 [1 hazard]\n"
                         "========= \n"
                         "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    ck_assert_uint_eq(sl_sanitizer_names_split(header, names, 3, &why), 5u);
    ck_assert_int_eq(why.complete, 1);

    /* a file no lesson read (the harness's), or hazards not all shown:
     * nothing can be said of any lesson */
    const char *other = "========= Error: Race reported between Write access at h()+0x20 in "
                        "harness.cu:9\n"
                        "=========     and Read access at h()+0x40 in harness.cu:9 [1 hazard]\n"
                        "========= \n"
                        "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    ck_assert_uint_eq(sl_sanitizer_names_split(other, names, 3, &why), 0u);
    ck_assert_int_eq(why.complete, 0);
    ck_assert_str_eq(why.unnamed, "Error: Race reported between Write access at h()+0x20 in "
                                  "harness.cu:9");
    const char *hidden = "========= Error: Race reported between Write access at f(int *)+0x20 in "
                         "barriers.cu:3\n"
                         "=========     and Read access at f(int *)+0x40 in barriers.cu:4\n"
                         "========= \n"
                         "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 4 warnings)\n";
    ck_assert_uint_eq(sl_sanitizer_names_split(hidden, names, 3, &why), 1u);
    ck_assert_int_eq(why.complete, 0);
    ck_assert_int_eq(why.unprinted, 1);
    /* a file named like another lesson's location is its own lesson's:
     * reduction read "x in barriers.cu:5.cu", barriers did not */
    const char *forged_names[] = {"barriers.cu\n", "reduction.cu\nx in barriers.cu:5.cu\n",
                                  "scan.cu\n"};
    const char *forged = "========= Error: Race reported between Write access at f()+0x20 in x in "
                         "barriers.cu:5.cu:12\n"
                         "=========     and Read access at f()+0x40 in x in barriers.cu:5.cu:13 "
                         "[4 hazards]\n"
                         "========= \n"
                         "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    ck_assert_uint_eq(sl_sanitizer_names_split(forged, forged_names, 3, &why), 2u);
    ck_assert_int_eq(why.complete, 1);
    /* a base name is matched whole: "can.cu" is not scan.cu */
    const char *part =
        "========= Error: Race reported between Write access at f()+0x20 in can.cu:3\n"
        "========= \n"
        "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    ck_assert_uint_eq(sl_sanitizer_names_split(part, names, 3, &why), 0u);
    ck_assert_int_eq(why.complete, 0);
}
END_TEST

/* The base names a lesson's compile read, from nvcc's -MD list. */
START_TEST(dependency_names_come_from_the_compile)
{
    char dir[] = "/tmp/synclab-deps-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_ptr_null(sl_build_dependency_names(dir)); /* no list yet */
    char path[4200];
    snprintf(path, sizeof path, "%s/student.d", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("student.o: /g/b/src/reduction.cu /g/b/src/helper/scan.cu \\\n"
          " /usr/include/cuda/barrier /g/Smith\\ Eve/b.h\n",
          f);
    fclose(f);
    char *names = sl_build_dependency_names(dir);
    ck_assert_ptr_nonnull(names);
    ck_assert_str_eq(names, "reduction.cu\nscan.cu\nbarrier\nb.h\n");
    free(names);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(sanitizer_arguments)
{
    const char *argv[20];
    int n = sl_sanitizer_args(SL_TOOL_RACECHECK, "/x/compute-sanitizer", argv);
    ck_assert_int_gt(n, 4);
    ck_assert_ptr_null(argv[n]);
    int has_warn = 0, has_exit = 0;
    for (int i = 0; i < n; i++) {
        has_warn |= strcmp(argv[i], "warn") == 0;
        has_exit |= strcmp(argv[i], "--error-exitcode") == 0;
    }
    ck_assert(has_warn && has_exit);
}
END_TEST

START_TEST(runner_argv_plain_and_under_a_tool)
{
    /* every caller (an exercise's runs, the sweep, syncgrade run) gets its
     * runner's argv here: the groups in order, behind the tool's arguments */
    sl_runner_group g[2] = {{"tile_reverse", "/in/a", "3", "/out/a"},
                            {"halo_diff", "/in/b", "5", "/out/b"}};
    const char *argv[SL_RUNNER_ARGV(2)];
    int n = sl_runner_argv("/b/runner", "/x/compute-sanitizer", 0, g, 2, argv);
    const char *plain[] = {"/b/runner", "run",       "tile_reverse", "/in/a", "3",
                           "/out/a",    "halo_diff", "/in/b",        "5",     "/out/b"};
    ck_assert_int_eq(n, 10);
    for (int i = 0; i < n; i++)
        ck_assert_str_eq(argv[i], plain[i]);
    ck_assert_ptr_null(argv[n]);
    n = sl_runner_argv("/b/runner", "/x/compute-sanitizer", SL_TOOL_SYNCCHECK, g, 1, argv);
    ck_assert_str_eq(argv[0], "/x/compute-sanitizer");
    int tool = -1, runner = -1;
    for (int i = 0; i < n; i++) {
        if (strcmp(argv[i], "synccheck") == 0 && i > 0 && strcmp(argv[i - 1], "--tool") == 0)
            tool = i;
        if (strcmp(argv[i], "/b/runner") == 0)
            runner = i;
    }
    ck_assert(tool > 0 && runner > tool);
    ck_assert_int_eq(n, runner + 6);
    ck_assert_str_eq(argv[runner + 1], "run");
    ck_assert_str_eq(argv[n - 1], "/out/a");
    ck_assert_ptr_null(argv[n]);
}
END_TEST

START_TEST(log_progress_per_group)
{
    /* the sweep's plain runner: two small groups, then a full group cut
     * short; the second group's input launched nothing */
    char path[4200];
    snprintf(path, sizeof path, "%s/log_progress.log", unit_tmp_dir());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("@@exercise a\n@@case 0\n@@launches 2\n"
          "@@exercise b\n@@case 0\n@@launches 3\n@@launches 0\n"
          "@@exercise a\n@@case 0\n",
          f);
    fclose(f);
    sl_log_progress p = sl_log_read(path, 1);
    ck_assert_int_eq(p.groups, 3);
    ck_assert_int_eq(p.launched, 1); /* group 1 launched */
    p = sl_log_read(path, 2);
    ck_assert_int_eq(p.launched, 0); /* group 2's last count is 0 */
    ck_assert_int_eq(sl_log_launched(path), 0);
    unlink(path);
}
END_TEST

START_TEST(tool_order_and_verdicts)
{
    /* judged in this order, so a verdict never depends on which tool ended first */
    const int order[SL_NTOOLS] = {SL_TOOL_MEMCHECK, SL_TOOL_SYNCCHECK, SL_TOOL_RACECHECK,
                                  SL_TOOL_INITCHECK};
    unsigned all = 0;
    for (int i = 0; i < SL_NTOOLS; i++) {
        ck_assert_int_eq(SL_TOOL_ORDER[i], order[i]);
        all |= (unsigned)SL_TOOL_ORDER[i];
    }
    ck_assert_uint_eq(all, SL_TOOLS_ALL);
    ck_assert_int_eq(sl_tool_verdict(SL_TOOL_RACECHECK), SL_V_RACE);
    ck_assert_int_eq(sl_tool_verdict(SL_TOOL_SYNCCHECK), SL_V_SYNC);
    ck_assert_int_eq(sl_tool_verdict(SL_TOOL_MEMCHECK), SL_V_MEMORY);
    ck_assert_int_eq(sl_tool_verdict(SL_TOOL_INITCHECK), SL_V_MEMORY);
}
END_TEST

Suite *sanitizer_suite(void)
{
    Suite *s = suite_create("sanitizer");
    TCase *tc = tcase_create("reports");
    tcase_add_test(tc, racecheck_names_both_lines);
    tcase_add_test(tc, racecheck_warnings_count);
    tcase_add_test(tc, racecheck_summary_alone_counts);
    tcase_add_test(tc, synccheck_divergent_barrier);
    tcase_add_test(tc, synccheck_overflow_points_at_student_line);
    tcase_add_test(tc, initcheck_is_memory);
    tcase_add_test(tc, clean_report_passes);
    tcase_add_test(tc, memcheck_api_errors_are_not_memory_errors);
    tcase_add_test(tc, memcheck_out_of_bounds);
    tcase_add_test(tc, findings_are_split_by_file);
    tcase_add_test(tc, racecheck_findings_are_split_by_base_name);
    tcase_add_test(tc, dependency_names_come_from_the_compile);
    tcase_add_test(tc, sanitizer_arguments);
    tcase_add_test(tc, runner_argv_plain_and_under_a_tool);
    tcase_add_test(tc, tool_order_and_verdicts);
    tcase_add_test(tc, log_progress_per_group);
    suite_add_tcase(s, tc);
    return s;
}
