#include <stdlib.h>

#include "unit.h"

int main(void)
{
    SRunner *sr = srunner_create(caseio_suite());
    srunner_add_suite(sr, exercise_suite());
    srunner_add_suite(sr, outcome_suite());
    srunner_add_suite(sr, proc_suite());
    srunner_add_suite(sr, ptx_suite());
    srunner_add_suite(sr, sanitizer_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
