#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "gpus.h"
#include "shard.h"
#include "unit.h"

START_TEST(shard_specs_are_k_of_n)
{
    int k, n;
    ck_assert_int_eq(sl_shard_parse("1/3", &k, &n), 0);
    ck_assert_int_eq(k, 1);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(sl_shard_parse("3/3", &k, &n), 0);
    const char *wrong[] = {"0/3",  "4/3",  "3",   "/3", "1/",   "1/0",  "-1/3",
                           "1/-3", "1/3x", "a/b", "",   "1//3", "+1/3", "1/1000001"};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++)
        ck_assert_msg(sl_shard_parse(wrong[i], &k, &n) != 0, "%s accepted", wrong[i]);
}
END_TEST

START_TEST(shards_split_the_sorted_class_round_robin)
{
    /* 7 students in 3 shards: 0 3 6 | 1 4 | 2 5; together everyone once */
    int seen[7] = {0};
    for (int k = 1; k <= 3; k++) {
        char *names[7];
        for (int i = 0; i < 7; i++) {
            names[i] = malloc(8);
            snprintf(names[i], 8, "s%d", i);
        }
        int kept = sl_shard_take(names, 7, k, 3);
        ck_assert_int_eq(kept, k == 1 ? 3 : 2);
        for (int i = 0; i < kept; i++) {
            int index = atoi(names[i] + 1);
            ck_assert_int_eq(index % 3, k - 1);
            seen[index]++;
            free(names[i]);
        }
    }
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(seen[i], 1);
}
END_TEST

START_TEST(manifest_round_trips_any_bytes)
{
    char path[] = "/tmp/synclab_shard_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    sl_shard_student st[2] = {
        {"ann", "students/ann", "ann,1,2\r\n", 0},
        {"b\nend 0\nx", "students/b", "\"b\nend 0\",0\r\n", 2}, /* newlines in fields */
    };
    sl_shard_manifest m = {2, 5, 9, "seed 7", "student,a\r\n", st, 2}, back;
    ck_assert_int_eq(sl_shard_write(path, &m), 0);
    char err[256];
    ck_assert_int_eq(sl_shard_read(path, &back, err, sizeof err), 0);
    ck_assert_int_eq(back.k, 2);
    ck_assert_int_eq(back.n, 5);
    ck_assert_int_eq(back.class_size, 9);
    ck_assert_str_eq(back.run, "seed 7");
    ck_assert_str_eq(back.header, "student,a\r\n");
    ck_assert_int_eq(back.count, 2);
    ck_assert_str_eq(back.students[1].name, "b\nend 0\nx");
    ck_assert_str_eq(back.students[1].row, "\"b\nend 0\",0\r\n");
    ck_assert_int_eq(back.students[1].errors, 2);
    sl_shard_free(&back);
    /* cut short (a shard that died while writing): refused */
    size_t len;
    char *text = sl_read_file(path, 1 << 20, &len);
    FILE *f = fopen(path, "w");
    fwrite(text, 1, len - 4, f);
    fclose(f);
    ck_assert_int_ne(sl_shard_read(path, &back, err, sizeof err), 0);
    free(text);
    sl_write_file(path, "synclab-shard 1\nshard 4\nshards 3\nclass 1\n");
    ck_assert_int_ne(sl_shard_read(path, &back, err, sizeof err), 0);
    unlink(path);
    ck_assert_int_ne(sl_shard_read(path, &back, err, sizeof err), 0);
}
END_TEST

START_TEST(gpus_come_from_the_spec_or_the_visible_list)
{
    sl_gpus g;
    setenv("CUDA_VISIBLE_DEVICES", "2,3,5", 1);
    ck_assert_int_eq(sl_gpus_parse("all", &g), 0);
    ck_assert_int_eq(g.count, 3);
    ck_assert_str_eq(g.id[2], "5");
    ck_assert_int_eq(sl_gpus_parse("2", &g), 0); /* the first two of those */
    ck_assert_int_eq(g.count, 2);
    ck_assert_str_eq(g.id[1], "3");
    ck_assert_int_ne(sl_gpus_parse("4", &g), 0); /* more than there are */
    ck_assert_int_eq(sl_gpus_parse("0,GPU-1a2b", &g), 0);
    ck_assert_int_eq(g.count, 2);
    ck_assert_str_eq(g.id[1], "GPU-1a2b");
    ck_assert_int_eq(sl_gpus_parse("7,", &g), 0); /* one id */
    ck_assert_int_eq(g.count, 1);
    ck_assert_str_eq(g.id[0], "7");
    ck_assert_int_ne(sl_gpus_parse("0", &g), 0);
    ck_assert_int_ne(sl_gpus_parse("some", &g), 0);
    ck_assert_int_ne(sl_gpus_parse(",", &g), 0);
    unsetenv("CUDA_VISIBLE_DEVICES");
    ck_assert_int_eq(sl_gpus_parse("all", &g), 0); /* counted; 1 when unknown */
    ck_assert_int_eq(g.count, sl_gpus_count());
    ck_assert_int_ge(g.count, 1);
    ck_assert_str_eq(g.id[0], "0");
}
END_TEST

Suite *shard_suite(void)
{
    Suite *s = suite_create("shard");
    TCase *tc = tcase_create("shard");
    tcase_add_test(tc, shard_specs_are_k_of_n);
    tcase_add_test(tc, shards_split_the_sorted_class_round_robin);
    tcase_add_test(tc, manifest_round_trips_any_bytes);
    tcase_add_test(tc, gpus_come_from_the_spec_or_the_visible_list);
    suite_add_tcase(s, tc);
    return s;
}
