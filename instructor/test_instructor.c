/* test_instructor.c — Check tests of the grading and quiz logic; no GPU.
 * Run from the workbook's top folder (it reads week.txt and the fixtures).
 * With WB_UNIT_TSV=FILE it also writes one "STATUS\tlabel\tdetail" line a test.
 * The tests: test_grade.c and test_quiz.c (test_instructor.h). */
#include <stdio.h>
#include <stdlib.h>

#include "sandbox.h"
#include "test_instructor.h"

int main(void)
{
    Suite *s = suite_create("instructor");
    char sbwhy[512];
    int have_sandbox = sb_available(NULL, sbwhy);
    add_grade_tests(s, have_sandbox);
    add_quiz_tests(s);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nfail = srunner_ntests_failed(sr);
    const char *tsv = getenv("WB_UNIT_TSV");
    FILE *f = tsv ? fopen(tsv, "w") : NULL;
    TestResult **r = srunner_results(sr);
    for (int i = 0; f && i < srunner_ntests_run(sr); i++) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", tr_rtype(r[i]) == CK_PASS ? "" : tr_msg(r[i]));
        for (char *c = msg; *c; c++)
            if (*c == '\t' || *c == '\n') *c = ' ';
        fprintf(f, "%s\tinstructor unit: %s\t%s\n", tr_rtype(r[i]) == CK_PASS ? "PASS" : "FAIL", tr_tcname(r[i]), msg);
    }
    if (f && !have_sandbox)
        fprintf(f, "SKIP\tinstructor unit: run_checkpoint_uses_the_record\tno working sandbox: %s\n", sbwhy);
    if (f) fclose(f);
    srunner_free(sr);
    return nfail ? 1 : 0;
}

