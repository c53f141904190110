/* test_results.c — the harness's tests of the results record (wb_results.h),
 * of reading a file whole and of the seed. */

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wb.h"
#include "test_harness.h"

static wb_result sample_result(const char *id, int status)
{
    wb_result r;
    wb_result_init(&r);
    snprintf(r.week, sizeof r.week, "phase0/week01");
    snprintf(r.id, sizeof r.id, "%s", id);
    r.status = status;
    r.reason = status == WB_RES_PASS ? WB_WHY_NONE : status == WB_RES_FAIL ? WB_WHY_CODE : WB_WHY_ENV;
    r.seed = 18446744073709551615ull;
    return r;
}

/* The reason column: each reason written under its own name, in its place
 * (after status), and read back as the same reason. */
static void reason_roundtrip(void)
{
    char path[400], err[600];
    snprintf(path, sizeof path, "%s/why.tsv", tmpdir);
    static const struct { int status, reason; const char *text; } want[] = {
        { WB_RES_PASS, WB_WHY_NONE, "pass\t-\t" },         { WB_RES_FAIL, WB_WHY_CODE, "fail\tcode\t" },
        { WB_RES_SKIP, WB_WHY_NOGPU, "skip\tnogpu\t" },    { WB_RES_SKIP, WB_WHY_NOTSELECTED, "skip\tnotselected\t" },
        { WB_RES_SKIP, WB_WHY_ENV, "skip\tenv\t" },
    };
    enum { N = sizeof want / sizeof want[0] };
    wb_result in[N];
    for (int i = 0; i < N; i++) {
        char id[32];
        snprintf(id, sizeof id, "w01.r%d", i);
        in[i] = sample_result(id, want[i].status);
        in[i].reason = want[i].reason;
    }
    ck_assert_msg(wb_results_write(path, in, N, err, sizeof err) == 0, "%s", err);
    char *text = read_file(path), *line = text;
    ck_assert_ptr_nonnull(text);
    const char *head = "#wb-results 2\nweek\tcheckpoint\tstatus\treason\t";
    ck_assert_msg(strncmp(text, head, strlen(head)) == 0, "%.60s", text);
    for (int i = 0; i < 2; i++) line = strchr(line, '\n') + 1;
    for (int i = 0; i < N; i++, line = strchr(line, '\n') + 1) {
        char start[64];
        snprintf(start, sizeof start, "phase0/week01\tw01.r%d\t%s", i, want[i].text);
        ck_assert_msg(strncmp(line, start, strlen(start)) == 0, "line %d: %.60s", i + 3, line);
    }
    free(text);
    wb_result *out = NULL;
    ck_assert_msg(wb_results_read(path, &out, err, sizeof err) == N, "%s", err);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(out[i].status, want[i].status);
        ck_assert_msg(out[i].reason == want[i].reason, "record %d: reason %s, want %s", i,
                      wb_result_reason_name(out[i].reason), wb_result_reason_name(want[i].reason));
    }
    free(out);
}

START_TEST(results_roundtrip)
{
    make_tmpdir();
    char path[400], err[600];
    snprintf(path, sizeof path, "%s/r.tsv", tmpdir);
    wb_result in[3] = { sample_result("w01.vecadd-bw", WB_RES_PASS), sample_result("w01.vecadd", WB_RES_FAIL),
                        sample_result("w01.devquery", WB_RES_SKIP) };
    in[0].value = 3027.4, in[0].yard_value = 2957.123456789, in[0].ratio = 3027.4 / 2957.123456789, in[0].target = 0.85;
    snprintf(in[0].unit, sizeof in[0].unit, "GB/s");
    snprintf(in[0].yard, sizeof in[0].yard, "COPY");
    snprintf(in[0].gpu, sizeof in[0].gpu, "NVIDIA H100 80GB HBM3");
    snprintf(in[0].detail, sizeof in[0].detail, "3027 GB/s vs COPY 2957 GB/s");
    in[0].tests = 1;
    snprintf(in[1].message, sizeof in[1].message, "test.c:80: n=1\tc[0]\nexpected 1 got nan");
    in[1].tests = 29, in[1].failed = 3;
    in[2].skipped = 2;
    ck_assert_msg(wb_results_write(path, in, 3, err, sizeof err) == 0, "%s", err);
    wb_result *out = NULL;
    int n = wb_results_read(path, &out, err, sizeof err);
    ck_assert_msg(n == 3, "%s", err);
    ck_assert_str_eq(out[0].id, "w01.vecadd-bw");
    ck_assert_int_eq(out[0].status, WB_RES_PASS);
    ck_assert(out[0].value == in[0].value && out[0].yard_value == in[0].yard_value && out[0].ratio == in[0].ratio);
    ck_assert(out[0].target == 0.85);
    ck_assert_str_eq(out[0].gpu, "NVIDIA H100 80GB HBM3");
    ck_assert(out[0].seed == 18446744073709551615ull);
    ck_assert(isnan(out[1].value) && isnan(out[1].ratio) && isnan(out[1].target));
    ck_assert_str_eq(out[1].message, "test.c:80: n=1 c[0] expected 1 got nan"); /* TAB and LF made spaces */
    ck_assert_int_eq(out[1].failed, 3);
    ck_assert_int_eq(out[2].status, WB_RES_SKIP);
    ck_assert_str_eq(out[2].gpu, "");
    char fig[300], tgt[64];
    wb_result_figure(&out[0], fig, sizeof fig);
    wb_result_target(&out[0], tgt, sizeof tgt);
    ck_assert_str_eq(fig, "1.024 of COPY (3027 GB/s vs COPY 2957 GB/s)");
    ck_assert_str_eq(tgt, ">= 0.85 COPY");
    free(out);
    reason_roundtrip();
}
END_TEST

START_TEST(results_malformed_refused)
{
    make_tmpdir();
    char path[400], err[600];
    snprintf(path, sizeof path, "%s/r.tsv", tmpdir);
    wb_result *out = NULL;
    const char *bad[] = {
        "",                                                       /* empty */
        "PASS  w01.vecadd\n",                                     /* printed lines are not a record */
        "#wb-results 2\nhead\nw\tid\tok\t-\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\t0\t-\t-\n", /* status */
        "#wb-results 2\nhead\nw\tid\tpass\t-\tfast\t-\t-\t-\t-\t-\t1\t-\t0\t0\t0\t-\t-\n", /* value */
        "#wb-results 2\nhead\nw\tid\tpass\t-\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\n",            /* fields */
        "#wb-results 2\nhead\nw\tid\tpass\t-\t-\t-\t-\t-\t-\t-\t-1\t-\t0\t0\t0\t-\t-\n", /* seed */
        "#wb-results 2\nhead\nw\tid\tskip\tnone\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\t1\t-\t-\n", /* reason */
        "#wb-results 2\nhead\nw\tid\tpass\tenv\t-\t-\t-\t-\t-\t-\t1\t-\t1\t0\t0\t-\t-\n", /* pass, a reason */
        "#wb-results 2\nhead\nw\tid\tfail\t-\t-\t-\t-\t-\t-\t-\t1\t-\t1\t1\t0\t-\t-\n", /* fail, none */
        "#wb-results 2\nhead\nw\tid\tfail\tnogpu\t-\t-\t-\t-\t-\t-\t1\t-\t1\t1\t0\t-\t-\n", /* fail, not code */
        "#wb-results 2\nhead\nw\tid\tskip\t-\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\t1\t-\t-\n", /* skip, none */
        "#wb-results 2\nhead\nw\tid\tskip\tcode\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\t1\t-\t-\n", /* skip, code */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i]);
        ck_assert_msg(wb_results_read(path, &out, err, sizeof err) == -1, "accepted case %zu", i);
        ck_assert_msg(strstr(err, "r.tsv") != NULL, "%s", err);
        /* each is refused for its own flaw, on its record's line */
        ck_assert_msg(i < 2 || strstr(err, "r.tsv:3: ") != NULL, "case %zu: %s", i, err);
    }
    /* the same records with their flaws mended are read: the cases above
     * fail for the flaw each names, not for anything they share */
    write_file(path, "#wb-results 2\nhead\nw\tid\tskip\tenv\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\t1\t-\t-\n"
                     "w\tid2\tfail\tcode\t-\t-\t-\t-\t-\t-\t1\t-\t1\t1\t0\t-\t-\n"
                     "w\tid3\tpass\t-\t2.5\t-\t-\t-\t-\t-\t1\t-\t1\t0\t0\t-\t-\n");
    ck_assert_msg(wb_results_read(path, &out, err, sizeof err) == 3, "%s", err);
    free(out);
    /* a record of format 1 (no reason) is refused in one line that says so */
    write_file(path, "#wb-results 1\nhead\nw\tid\tpass\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\t0\t-\t-\n");
    ck_assert_int_eq(wb_results_read(path, &out, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "r.tsv:1: a results record of another format ('#wb-results 1'") && !strchr(err, '\n'),
                  "%s", err);
    snprintf(path, sizeof path, "%s/missing.tsv", tmpdir);
    ck_assert_int_eq(wb_results_read(path, &out, err, sizeof err), -1);
}
END_TEST

/* Records appended by several processes at once (Check forks one per
 * test) all arrive whole. */
START_TEST(results_append_from_processes)
{
    make_tmpdir();
    char path[400], err[600];
    snprintf(path, sizeof path, "%s/chan.tsv", tmpdir);
    ck_assert_int_eq(wb_results_start(path), 0);
    enum { PROCS = 4, EACH = 50 };
    for (int p = 0; p < PROCS; p++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (int k = 0; k < EACH; k++) {
                char id[32];
                snprintf(id, sizeof id, "p%d.k%d", p, k);
                wb_result r = sample_result(id, WB_RES_PASS);
                memset(r.message, 'x', 500);
                r.message[500] = 0;
                if (wb_results_append(path, &r) != 0) _exit(1);
            }
            _exit(0);
        }
    }
    for (int p = 0; p < PROCS; p++) {
        int st;
        wait(&st);
        ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    wb_result *out = NULL;
    int n = wb_results_read(path, &out, err, sizeof err);
    ck_assert_msg(n == PROCS * EACH, "%d records: %s", n, err);
    free(out);
}
END_TEST

START_TEST(read_file_whole)
{
    make_tmpdir();
    char p[400];
    snprintf(p, sizeof p, "%s/f.txt", tmpdir);
    char big[10000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    write_file(p, big);
    size_t len = 0;
    char *t = wb_read_file(p, &len);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(len, sizeof big - 1);
    ck_assert_str_eq(t, big);
    free(t);
    errno = 0;
    ck_assert_ptr_null(wb_read_file(tmpdir, NULL)); /* a folder opens, but is no file */
    ck_assert_int_eq(errno, EISDIR);
    snprintf(p, sizeof p, "%s/missing", tmpdir);
    ck_assert_ptr_null(wb_read_file(p, NULL));
}
END_TEST

START_TEST(seed_parse)
{
    uint64_t v;
    char err[200];
    ck_assert_int_eq(wb_seed_parse("20261122", &v, err, sizeof err), 0);
    ck_assert(v == 20261122u);
    ck_assert_int_eq(wb_seed_parse("010", &v, err, sizeof err), 0);
    ck_assert(v == 10); /* decimal, not octal */
    ck_assert_int_eq(wb_seed_parse("18446744073709551615", &v, err, sizeof err), 0);
    const char *bad[] = { "", "notanumber", "-5", "+5", "0x10", "12abc", " 12", "18446744073709551616", "1e3" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(wb_seed_parse(bad[i], &v, err, sizeof err) == -1, "accepted '%s'", bad[i]);
    ck_assert_int_eq(wb_seed_parse("random", &v, err, sizeof err), 0);
}
END_TEST

void results_tests(TCase *t)
{
    tcase_add_test(t, results_roundtrip);
    tcase_add_test(t, results_malformed_refused);
    tcase_add_test(t, results_append_from_processes);
    tcase_add_test(t, seed_parse);
    tcase_add_test(t, read_file_whole);
}
