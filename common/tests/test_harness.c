/* test_harness.c — the common library's own tests (no GPU needed): the
 * helpers they share and main. The tests are in a file per area
 * (test_harness.h); each test case here takes them in this order, and
 * every test writes one ledger line, "harness CASE", with WB_LEDGER. */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "wb.h"
#include "test_harness.h"
#include "ck_ledger.h"

char tmpdir[256];

static void remove_tmpdir(void)
{
    if (!tmpdir[0]) return;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    tmpdir[0] = 0;
}

void make_tmpdir(void)
{
    atexit(remove_tmpdir);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/wb-harness-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

char *read_file(const char *path) { return wb_read_file(path, NULL); }

int main(void)
{
    Suite *s = suite_create("harness");
    TCase *t = tcase_create("compare");
    compare_tests(t);
    suite_add_tcase(s, t);
    t = tcase_create("stats");
    stats_tests(t);
    suite_add_tcase(s, t);
    t = tcase_create("progress");
    progress_tests(t);
    suite_add_tcase(s, t);
    t = tcase_create("meta");
    meta_tests(t);
    regress_tests(t);
    suite_add_tcase(s, t);
    t = tcase_create("results");
    results_tests(t);
    suite_add_tcase(s, t);
    t = tcase_create("bench");
    bench_tests(t);
    suite_add_tcase(s, t);
    t = tcase_create("f16");
    f16_tests(t);
    suite_add_tcase(s, t);
    t = tcase_create("cudnn");
    cudnn_tests(t);
    suite_add_tcase(s, t);

    return ck_ledger_run(s);
}
