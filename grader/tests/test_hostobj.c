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

/* Names the harness defines: a weak body under a strong harness name, a
 * strong one over a template the harness instantiates; the compiler's
 * shared inline copies pass. */
static int check_against_harness(const char *name, sl_text *why)
{
    char path[4096], lib[4096];
    snprintf(path, sizeof path, "%s/%s.o", HOSTOBJ_DIR, name);
    snprintf(lib, sizeof lib, "%s/libharness_names.a", HOSTOBJ_DIR);
    return sl_hostobj_check_harness(path, lib, "x.cu", why);
}

START_TEST(harness_names_are_not_redefined)
{
    sl_text why = {0};
    ck_assert_int_eq(check_against_harness("weak_harness_name", &why), 0);
    ck_assert_msg(strstr(sl_text_str(&why), "harness defines") &&
                      strstr(sl_text_str(&why), "(_Z11sl_downloadPKvm)"),
                  "%s", sl_text_str(&why));
    sl_text_free(&why);
    ck_assert_int_eq(check_against_harness("overrides_harness_template", &why), 0);
    ck_assert_msg(strstr(sl_text_str(&why), "the harness would run yours"), "%s",
                  sl_text_str(&why));
    sl_text_free(&why);
    ck_assert_msg(check_against_harness("shares_harness_inline", &why) == 1, "%s",
                  sl_text_str(&why));
    ck_assert_msg(check_against_harness("clean", &why) == 1, "%s", sl_text_str(&why));
    ck_assert_int_eq(sl_hostobj_check_harness("/nonexistent.o", "/nonexistent.a", "x.cu", &why),
                     -1);
    sl_text_free(&why);
}
END_TEST

/* Init entries are judged by what they reach, not by their names. */
START_TEST(init_code_is_judged_by_what_it_reaches)
{
    refused("ctor_named_like_nvcc",
            "in .init_array reaches"); /* puts, or __printf_chk under fortify */
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

/* Code before main reached without a relocation (a call the assembler
 * resolved inside one section), an .init_array of a priority: judged by
 * everything it reaches. An ifunc resolver runs at load: refused. */
START_TEST(init_code_is_followed_without_relocations)
{
    refused("init_norel", "reaches exit");
    refused("init_prio", "reaches strcmp");
    refused("init_prio", ".init_array.00100");
    refused("ifunc", "an ifunc");
}
END_TEST

/* Only nvcc's generated code may register a fatbinary or kernels. */
START_TEST(registration_only_from_nvcc)
{
    refused("registers_fatbin", "registration itself (only the code nvcc generates");
    refused("registers_fatbin", "(__cudaRegisterFatBinary)");
    sl_text why = {0};
    ck_assert_msg(check_fixture("clean", &why) == 1, "%s", sl_text_str(&why));
    sl_text_free(&why);
}
END_TEST

/* exit only from nvcc's host stubs of __device__ functions (clean.cu has
 * one), however the call is spelled. */
START_TEST(exit_is_judged_from_the_object)
{
    refused("exit_paren", "uses exit()");
    refused("exit_pointer", "uses exit()");
}
END_TEST

static int assembly(const char *text, sl_text *why)
{
    return sl_hostobj_check_assembly(text, "x.cu", why);
}

/* The assembly gcc handed to gas: nvcc's fatbinary block only; no file
 * read or macro, however the string literal spelled it. */
START_TEST(assembly_is_read_after_escapes)
{
    static const char nvcc[] =
        "\t.file\t\"x.cudafe1.cpp\"\n\t.text\n#APP\n\t.section .nv_fatbin, \"a\"\n"
        ".align 8\nfatbinData:\n.quad 0x00100001ba55ed50,0x0000000000005890\n.text\n\n"
        "#NO_APP\n\t.section\t.rodata.str1.1,\"aMS\",@progbits,1\n.LC0:\n"
        "\t.string\t\"a.include; .incbin x\"\n"
        "\t.loc 1 3 0\n\t.file 2 \"/home/s/a.include/x.h\"\n\tret\n";
    sl_text why = {0};
    ck_assert_msg(assembly(nvcc, &why) == 1, "%s", sl_text_str(&why));
    static const char *const bad[] = {
        "#APP\n.pushsection .rodata\n.incbin \"/etc/passwd\"\n.popsection\n#NO_APP\n",
        "#APP\n.macro glue a, b, f\n .\\a\\()\\b \"\\f\"\n.endm\n#NO_APP\n",
        "\t.section .x\n\t.INCBIN \"/etc/passwd\"\n",
        "\tnop ; .include \"/etc/passwd\"\n",
        "lbl: .irp x,1\n.endr\n",
        "#APP\n# 12 \"x.cu\" 1\n\tsyscall\n# 0 \"\" 2\n#NO_APP\n",
        NULL};
    for (const char *const *b = bad; *b; b++) {
        sl_text_clear(&why);
        ck_assert_msg(assembly(*b, &why) == 0, "accepted:\n%s", *b);
    }
    /* two blocks: nvcc's and one of the student's in the same form */
    sl_text_clear(&why);
    ck_assert_int_eq(assembly("#APP\n.text\n#NO_APP\n#APP\n.text\n#NO_APP\n", &why), 0);
    ck_assert(strstr(sl_text_str(&why), "inline assembly"));
    /* system headers' host asm (GCC 13's <iostream>, libcu++'s yield, a compiler barrier) beside
     * nvcc's block is fine; data or code outside the fatbinary block is not */
    char with[2048];
    snprintf(with, sizeof with,
             "#APP\n\t.globl _ZSt21ios_base_library_initv\n#NO_APP\n%s#APP\n\tpause\n#NO_APP\n"
             "#APP\n#NO_APP\n",
             nvcc);
    sl_text_clear(&why);
    ck_assert_msg(assembly(with, &why) == 1, "%s", sl_text_str(&why));
    snprintf(with, sizeof with, "%s#APP\n.quad 0x0f05\n#NO_APP\n", nvcc);
    sl_text_clear(&why);
    ck_assert_int_eq(assembly(with, &why), 0);
    sl_text_free(&why);
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
    const unsigned char junk[] = "\x7f"
                                 "ELF but not really";
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
    tcase_add_test(tc, harness_names_are_not_redefined);
    tcase_add_test(tc, init_code_is_judged_by_what_it_reaches);
    tcase_add_test(tc, raw_system_calls_are_refused);
    tcase_add_test(tc, init_code_is_followed_without_relocations);
    tcase_add_test(tc, registration_only_from_nvcc);
    tcase_add_test(tc, exit_is_judged_from_the_object);
    tcase_add_test(tc, assembly_is_read_after_escapes);
    tcase_add_test(tc, the_allow_list);
    tcase_add_test(tc, garbage_is_not_an_object);
    suite_add_tcase(s, tc);
    return s;
}
