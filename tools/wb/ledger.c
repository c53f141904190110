/* ledger.c — `make test`'s ledger: `wb ledger`, `wb ledger-add`,
 * `wb ledger-results`; and `wb results`, a results record for logs. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_results.h"
#include "wb_tool.h"

int cmd_ledger(int argc, char **argv)
{
    (void)argc;
    const char *path = argv[2];
    FILE *f = fopen(path, "r");
    int pass = 0, fail = 0, skip = 0;
    char line[4096];
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "PASS\t", 5) == 0) pass++;
            else if (strncmp(line, "SKIP\t", 5) == 0) skip++;
            else if (strncmp(line, "FAIL\t", 5) == 0) {
                fail++;
                line[strcspn(line, "\n")] = 0;
                char *label = line + 5, *detail = strchr(label, '\t');
                if (detail) *detail++ = 0;
                printf("FAILED: %s%s%s\n", label, detail && *detail ? ": " : "", detail ? detail : "");
            }
        }
        fclose(f);
    }
    printf("%d passed, %d failed, %d skipped\n", pass, fail, skip);
    return fail ? 1 : 0;
}

int cmd_ledger_add(int argc, char **argv)
{
    FILE *f = fopen(argv[2], "a");
    if (!f) return 2;
    fprintf(f, "%s\t%s\t%s\n", argv[3], argv[4], argc > 5 ? argv[5] : "");
    fclose(f);
    return 0;
}

static int ledger_line(FILE *f, const char *st, const char *label, const char *detail)
{
    return fprintf(f, "%s\t%s\t%s\n", st, label, detail ? detail : "") < 0;
}

/* `wb ledger-results LEDGER RESULTS LABEL pass|fail`: the `make test`
 * ledger's lines for one run, from its results record. With `fail` (an
 * untouched starter) a checkpoint must fail wherever it could run. */
int cmd_ledger_results(int argc, char **argv)
{
    (void)argc;
    const char *lpath = argv[2], *rpath = argv[3], *label = argv[4];
    int expect_fail = strcmp(argv[5], "fail") == 0;
    FILE *f = fopen(lpath, "a");
    if (!f) {
        fprintf(stderr, "cannot append to %s: %s\n", lpath, strerror(errno));
        return 2;
    }
    wb_result *r = NULL;
    char err[700], l[400];
    int n = wb_results_read(rpath, &r, err, sizeof err);
    if (n <= 0) {
        ledger_line(f, "FAIL", label, n < 0 ? err : "no checkpoints in the results record");
        fclose(f);
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < n; i++) {
        snprintf(l, sizeof l, "%s %s", label, r[i].id);
        if (expect_fail) {
            if (r[i].status == WB_RES_FAIL) ledger_line(f, "PASS", l, "fails on the starter, as it must");
            else if (r[i].status == WB_RES_SKIP) ledger_line(f, "SKIP", l, r[i].message);
            else ledger_line(f, "FAIL", l, "passes on the untouched starter: its tests cannot catch it"), bad = 1;
        } else {
            char fig[400];
            wb_result_figure(&r[i], fig, sizeof fig);
            ledger_line(f, r[i].status == WB_RES_PASS ? "PASS" : r[i].status == WB_RES_FAIL ? "FAIL" : "SKIP", l,
                        r[i].status == WB_RES_PASS ? fig : r[i].message);
            bad |= r[i].status == WB_RES_FAIL;
        }
    }
    free(r);
    fclose(f);
    return bad;
}

/* `wb results RESULTS [PREFIX]`: one short line a checkpoint, for logs. */
int cmd_results(int argc, char **argv)
{
    const char *rpath = argv[2], *prefix = argc > 3 ? argv[3] : "";
    wb_result *r = NULL;
    char err[700];
    int n = wb_results_read(rpath, &r, err, sizeof err);
    if (n < 0) {
        printf("%s%s\n", prefix, err);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        char fig[400], line[600];
        wb_result_figure(&r[i], fig, sizeof fig);
        snprintf(line, sizeof line, "%s%s  %-22s %s", prefix, r[i].status == WB_RES_PASS ? "PASS" :
                 r[i].status == WB_RES_FAIL ? "FAIL" : "SKIP", r[i].id,
                 r[i].status == WB_RES_PASS ? fig : r[i].message);
        printf("%.110s\n", line);
    }
    free(r);
    return 0;
}
