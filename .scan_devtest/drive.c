/* Dev-only driver: writes a suite's case files and checks runner outputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exercise.h"

extern const sl_lesson sl_lesson_scan;

static const sl_exercise *find(const char *name)
{
    for (int i = 0; i < sl_lesson_scan.count; i++)
        if (!strcmp(sl_lesson_scan.exercises[i].name, name))
            return &sl_lesson_scan.exercises[i];
    fprintf(stderr, "no exercise %s\n", name);
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "drive gen|check exercise small|full seed dir\n");
        return 2;
    }
    const sl_exercise *e = find(argv[2]);
    sl_rng rng;
    sl_rng_seed(&rng, strtoull(argv[4], NULL, 10));
    sl_inputs ins = {0};
    e->make_inputs(&rng, !strcmp(argv[3], "small") ? SL_INPUTS_SMALL : SL_INPUTS_FULL, &ins);
    char path[4096], err[256];
    if (!strcmp(argv[1], "gen")) {
        for (int i = 0; i < ins.count; i++) {
            snprintf(path, sizeof path, "%s/case%d.in", argv[5], i);
            if (sl_case_write(path, &ins.v[i].in)) { perror(path); return 3; }
        }
        printf("%d\n", ins.count);
        return 0;
    }
    int bad = 0;
    for (int i = 0; i < ins.count; i++) {
        snprintf(path, sizeof path, "%s/case%d.out", argv[5], i);
        sl_case out;
        if (sl_case_read(path, &out, (uint64_t)1 << 34, err, sizeof err)) {
            printf("case %d (%s): no output: %s\n", i, ins.v[i].label, err);
            bad++;
            continue;
        }
        sl_text why = {0};
        if (!e->check(&ins.v[i].in, &out, &why)) {
            if (bad < 3)
                printf("case %d (%s): %s", i, ins.v[i].label, sl_text_str(&why));
            bad++;
        }
        sl_text_free(&why);
        sl_case_free(&out);
    }
    printf("%s: %d cases, %d wrong\n", argv[2], ins.count, bad);
    return bad ? 1 : 0;
}
