/* ck_ledger.h — runs a Check suite of the workbook's own tests and adds a
 * line per test to the ledger WB_LEDGER names (`make test`'s):
 * "PASS|FAIL <tab> harness CASE <tab> why", CASE being the test's tcase.
 * Used by the harness's tests (test_harness.c) and each phase's
 * (phaseP/common/tests/test_*.c). Header only. */
#ifndef CK_LEDGER_H
#define CK_LEDGER_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* 0 when every test passed, else 1. */
static inline int ck_ledger_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    const char *ledger = getenv("WB_LEDGER");
    if (ledger) {
        FILE *f = fopen(ledger, "a");
        TestResult **r = srunner_results(sr);
        for (int i = 0; f && r && i < srunner_ntests_run(sr); i++)
            fprintf(f, "%s\tharness %s\t%s\n", tr_rtype(r[i]) == CK_PASS ? "PASS" : "FAIL", tr_tcname(r[i]),
                    tr_rtype(r[i]) == CK_PASS ? "" : tr_msg(r[i]));
        free(r);
        if (f) fclose(f);
    }
    srunner_free(sr);
    return failed ? 1 : 0;
}

#endif
