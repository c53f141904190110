/* test_regress.c — the harness's test of make regress's arithmetic
 * (wb_regress.h). */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb.h"
#include "wb_regress.h"
#include "test_harness.h"

/* make regress's arithmetic: three runs make a baseline; a fourth run within
 * the noise raises no alarm, a planted 20 % slowdown is flagged, a record of
 * another GPU is refused, a checkpoint without a figure is flagged. */
static void regress_record(const char *path, double ratio, const char *gpu, int status)
{
    wb_result r[2];
    for (int i = 0; i < 2; i++) {
        wb_result_init(&r[i]);
        snprintf(r[i].week, sizeof r[i].week, "phase0/week01");
        snprintf(r[i].id, sizeof r[i].id, i ? "w01.vecadd" : "w01.vecadd-bw");
        snprintf(r[i].gpu, sizeof r[i].gpu, "%s", gpu);
        r[i].status = i ? WB_RES_PASS : status;
        r[i].reason = r[i].status == WB_RES_PASS ? WB_WHY_NONE : r[i].status == WB_RES_FAIL ? WB_WHY_CODE
                                                                                          : WB_WHY_NOTSELECTED;
        if (!i) {
            r[i].ratio = ratio, r[i].value = 3000 * ratio, r[i].yard_value = 3000, r[i].target = 0.85;
            snprintf(r[i].unit, sizeof r[i].unit, "GB/s");
            snprintf(r[i].yard, sizeof r[i].yard, "COPY");
        }
    }
    char err[300];
    ck_assert_msg(wb_results_write(path, r, 2, err, sizeof err) == 0, "%s", err);
}

START_TEST(regress_baseline_and_check)
{
    char dir[] = "/tmp/wb-regress-XXXXXX", p[4][64], base[64], now[64], err[700];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const double runs[3] = { 1.00, 0.98, 1.01 };
    const char *recs[3];
    for (int i = 0; i < 3; i++) {
        snprintf(p[i], sizeof p[i], "%s/run%d.tsv", dir, i);
        regress_record(p[i], runs[i], "GPU A", WB_RES_PASS);
        recs[i] = p[i];
    }
    snprintf(base, sizeof base, "%s/baseline.tsv", dir);
    ck_assert_int_eq(wb_regress_baseline(base, recs, 3, err, sizeof err), 1); /* one checkpoint has a ratio */
    wb_regress_row *rows;
    ck_assert_int_eq(wb_regress_read(base, &rows, err, sizeof err), 1);
    ck_assert_int_eq(rows[0].runs, 3);
    ck_assert(fabs(rows[0].median - 1.00) < 1e-9 && fabs(rows[0].lo - 0.98) < 1e-9 && fabs(rows[0].hi - 1.01) < 1e-9);
    ck_assert(fabs(rows[0].band - WB_REGRESS_MIN_BAND) < 1e-9); /* 1.5 x 3 % spread is under the floor */
    free(rows);
    snprintf(now, sizeof now, "%s/now.tsv", dir);
    const char *one[1] = { now };
    FILE *out = fopen("/dev/null", "w");
    regress_record(now, 0.97, "GPU A", WB_RES_PASS);
    ck_assert_int_eq(wb_regress_check(base, one, 1, out, err, sizeof err), 0);
    regress_record(now, 0.80, "GPU A", WB_RES_PASS);
    ck_assert_int_eq(wb_regress_check(base, one, 1, out, err, sizeof err), 1);
    /* a run that missed its target is compared by its ratio; one with no
     * figure (wrong output) is flagged */
    regress_record(now, 0.25, "GPU A", WB_RES_FAIL);
    ck_assert_int_eq(wb_regress_check(base, one, 1, out, err, sizeof err), 1);
    regress_record(now, NAN, "GPU A", WB_RES_FAIL);
    ck_assert_int_eq(wb_regress_check(base, one, 1, out, err, sizeof err), 1);
    /* each checkpoint runs alone: the other runs of its week list it as
     * skipped, before or after the run that measured it */
    char skipped[64];
    snprintf(skipped, sizeof skipped, "%s/skipped.tsv", dir);
    regress_record(skipped, NAN, "GPU A", WB_RES_SKIP);
    regress_record(now, 0.97, "GPU A", WB_RES_PASS);
    const char *order1[2] = { now, skipped }, *order2[2] = { skipped, now };
    ck_assert_int_eq(wb_regress_check(base, order1, 2, out, err, sizeof err), 0);
    ck_assert_int_eq(wb_regress_check(base, order2, 2, out, err, sizeof err), 0);
    unlink(skipped);
    regress_record(now, 1.00, "GPU B", WB_RES_PASS);
    ck_assert_int_eq(wb_regress_check(base, one, 1, out, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "GPU B"));
    /* a baseline over two GPUs is refused; so is one with no ratio at all */
    snprintf(p[3], sizeof p[3], "%s/other.tsv", dir);
    regress_record(p[3], 1.0, "GPU B", WB_RES_PASS);
    const char *mixed[2] = { p[0], p[3] };
    ck_assert_int_eq(wb_regress_baseline(base, mixed, 2, err, sizeof err), -1);
    regress_record(p[3], 1.0, "GPU A", WB_RES_FAIL);
    const char *none[1] = { p[3] };
    ck_assert_int_eq(wb_regress_baseline(base, none, 1, err, sizeof err), -1);
    fclose(out);
    for (int i = 0; i < 4; i++) unlink(p[i]);
    unlink(base), unlink(now), rmdir(dir);
}
END_TEST

void regress_tests(TCase *t)
{
    tcase_add_test(t, regress_baseline_and_check);
}
