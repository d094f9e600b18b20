#include <check.h>
#include <stdio.h>
#include <string.h>

#include "hostobj.h"
#include "unit.h"

static int check_fixture(const char *name, sl_text *why)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.o", HOSTOBJ_DIR, name);
    return sl_hostobj_check(path, "x.cu", why);
}

START_TEST(nvcc_own_code_is_accepted)
{
    sl_text why = {0};
    ck_assert_msg(check_fixture("clean", &why) == 1, "%s", sl_text_str(&why));
    sl_text_free(&why);
}
END_TEST

static void refused(const char *name, const char *what)
{
    sl_text why = {0};
    ck_assert_int_eq(check_fixture(name, &why), 0);
    ck_assert_msg(strstr(sl_text_str(&why), what), "%s: expected '%s' in:\n%s", name, what,
                  sl_text_str(&why));
    sl_text_free(&why);
}

START_TEST(global_constructor_is_refused) { refused("global_ctor", "runs before main()"); }
END_TEST
START_TEST(pasted_constructor_is_refused) { refused("pasted_ctor", "runs before main()"); }
END_TEST
START_TEST(pasted_system_is_refused) { refused("pasted_system", "(system)"); }
END_TEST
START_TEST(main_is_refused) { refused("defines_main", "defines main()"); }
END_TEST

/* The allow-list: glibc's other names for popen, open, fork; environ;
 * memory the host could read; a C library function replaced. */
START_TEST(names_off_the_allow_list_are_refused)
{
    refused("io_popen", "(_IO_popen)");
    refused("libc_open", "(__open)");
    refused("libc_open", "(_Fork)");
    refused("reads_environ", "(environ)");
    refused("managed", "(cudaMallocManaged)");
    refused("replaces_fwrite", "would replace the one the runner uses (fwrite)");
}
END_TEST

/* Init entries are judged by what they reach, not by their names. */
START_TEST(init_code_is_judged_by_what_it_reaches)
{
    refused("ctor_named_like_nvcc", "reaches puts");
    sl_text why = {0};
    ck_assert_msg(check_fixture("cub_iostream", &why) == 1, "%s", sl_text_str(&why));
    ck_assert_msg(check_fixture("pure_ctor", &why) == 1, "%s", sl_text_str(&why));
    sl_text_free(&why);
}
END_TEST

START_TEST(raw_system_calls_are_refused)
{
    refused("host_syscall", "raw system call (syscall)");
    refused("code_as_data", "section of code the compiler did not make (.text.payload)");
}
END_TEST

START_TEST(the_allow_list)
{
    ck_assert(sl_hostobj_allowed("cudaLaunchCooperativeKernel"));
    ck_assert(sl_hostobj_allowed("sqrtf"));
    ck_assert(sl_hostobj_allowed("printf"));
    ck_assert(!sl_hostobj_allowed("sqrtx"));
    ck_assert(!sl_hostobj_allowed("cudaHostAlloc"));
    ck_assert(!sl_hostobj_allowed("cudaMallocHost"));
    ck_assert(!sl_hostobj_allowed("cudaHostRegister"));
    ck_assert(!sl_hostobj_allowed("cudaHostGetDevicePointer"));
    ck_assert(!sl_hostobj_allowed("cudaMemcpyFromSymbol"));
    ck_assert(!sl_hostobj_allowed("dlsym"));
    ck_assert(!sl_hostobj_allowed("syscall"));
    ck_assert(!sl_hostobj_allowed("__libc_argv"));
    ck_assert(!sl_hostobj_allowed("program_invocation_name"));
}
END_TEST

START_TEST(garbage_is_not_an_object)
{
    sl_text why = {0};
    const unsigned char junk[] = "\x7f" "ELF but not really";
    ck_assert_int_eq(sl_hostobj_check_image(junk, sizeof junk, "x.cu", &why), -1);
    ck_assert_int_eq(sl_hostobj_check("/nonexistent.o", "x.cu", &why), -1);
    sl_text_free(&why);
}
END_TEST

Suite *hostobj_suite(void)
{
    Suite *s = suite_create("hostobj");
    TCase *tc = tcase_create("elf");
    tcase_add_test(tc, nvcc_own_code_is_accepted);
    tcase_add_test(tc, global_constructor_is_refused);
    tcase_add_test(tc, pasted_constructor_is_refused);
    tcase_add_test(tc, pasted_system_is_refused);
    tcase_add_test(tc, main_is_refused);
    tcase_add_test(tc, names_off_the_allow_list_are_refused);
    tcase_add_test(tc, init_code_is_judged_by_what_it_reaches);
    tcase_add_test(tc, raw_system_calls_are_refused);
    tcase_add_test(tc, the_allow_list);
    tcase_add_test(tc, garbage_is_not_an_object);
    suite_add_tcase(s, tc);
    return s;
}
