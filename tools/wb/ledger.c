/* ledger.c — `make test`'s ledger: `wb ledger`, `wb ledger-add`,
 * `wb ledger-results`; and `wb results` and `wb margins`, results records for logs and notes. */

#include <errno.h>
#include <math.h>
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

/* `wb margins RESULTS...`: every checkpoint of one or more results records
 * as a Markdown table (week, checkpoint, result, figure, yardstick, ratio,
 * target, margin), for an acceptance run's notes: the figures are the
 * records', nothing recomputed but the margin, ratio / target - 1. A speed
 * checkpoint judged on a ratio alone (wb_expect_target: the figures of its
 * several shapes are in its detail) shows that detail as its figure, any
 * '|' escaped so that the row stays a row. Last, the
 * GPUs the records name and a line that counts the speed checkpoints:
 * passed by 10 % or more (the workbook asks that of every reference
 * solution), passed by less (named, and "short" in the table), not passed
 * (named). Exit 1 if a record cannot be read. */
#define MARGIN_RULE 1.10 /* AUTHORING.md: every reference solution clears its target by 10 % or more */

static void num_unit(char *buf, size_t n, double v, const char *unit)
{
    if (isnan(v)) snprintf(buf, n, "-");
    else snprintf(buf, n, "%.4g%s%s", v, unit[0] ? " " : "", unit);
}

static void add_name(char *names, size_t sz, const char *id)
{
    size_t used = strlen(names);
    if (used + strlen(id) + 3 < sz) snprintf(names + used, sz - used, "%s%s", used ? ", " : "", id);
}

int cmd_margins(int argc, char **argv)
{
    int speed = 0, good = 0, rc = 0, n_short = 0, n_not = 0;
    char shorts[2000] = "", notpassed[2000] = "";
    char gpus[600] = ""; /* the GPUs the records name, each once */
    printf("| week | checkpoint | result | figure | yardstick | ratio | target | margin |\n"
           "|---|---|---|---|---|---|---|---|\n");
    for (int a = 2; a < argc; a++) {
        wb_result *r = NULL;
        char err[700];
        int n = wb_results_read(argv[a], &r, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "wb margins: %s\n", err);
            rc = 1;
            continue;
        }
        for (int i = 0; i < n; i++) {
            const wb_result *c = &r[i];
            if (c->gpu[0] && strcmp(c->gpu, "-") && !strstr(gpus, c->gpu)) add_name(gpus, sizeof gpus, c->gpu);
            char fig[700], yard[96], ratio[24], target[40], margin[40];
            num_unit(fig, sizeof fig, c->value, c->unit);
            if (isnan(c->value) && c->target > 0 && c->detail[0] && strcmp(c->detail, "-")) {
                size_t k = 0; /* a record's field holds no tab or newline: only '|' would break the row */
                for (const char *d = c->detail; *d && k + 3 < sizeof fig; d++) {
                    if (*d == '|') fig[k++] = '\\';
                    fig[k++] = *d;
                }
                fig[k] = 0;
            }
            if (c->yard[0] && !isnan(c->yard_value)) {
                char yv[64];
                num_unit(yv, sizeof yv, c->yard_value, c->unit);
                snprintf(yard, sizeof yard, "%s %s", c->yard, yv);
            } else snprintf(yard, sizeof yard, "%s", c->yard[0] ? c->yard : "-");
            if (isnan(c->ratio)) snprintf(ratio, sizeof ratio, "-");
            else snprintf(ratio, sizeof ratio, "%.3f", c->ratio);
            wb_result_target(c, target, sizeof target); /* "-" when none */
            snprintf(margin, sizeof margin, "-");
            if (c->target > 0) {
                const int passed = c->status == WB_RES_PASS && !isnan(c->ratio);
                const int is_short = passed && c->ratio < MARGIN_RULE * c->target;
                speed++;
                if (!passed) n_not++, add_name(notpassed, sizeof notpassed, c->id);
                else if (is_short) n_short++, add_name(shorts, sizeof shorts, c->id);
                else good++;
                if (!isnan(c->ratio))
                    snprintf(margin, sizeof margin, "%+.1f %%%s", 100.0 * (c->ratio / c->target - 1.0),
                             is_short ? " short" : "");
            }
            printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", c->week, c->id,
                   c->status == WB_RES_PASS ? "PASS" : c->status == WB_RES_FAIL ? "FAIL" : "SKIP", fig, yard, ratio,
                   target, margin);
        }
        free(r);
    }
    printf("\nGPU: %s\n", gpus[0] ? gpus : "none named in the records");
    printf("%d speed checkpoint%s: %d passed by 10 %% or more; %d passed by less%s%s; %d not passed%s%s\n", speed,
           speed == 1 ? "" : "s", good, n_short, n_short ? ": " : "", n_short ? shorts : "", n_not,
           n_not ? ": " : "", n_not ? notpassed : "");
    return rc;
}
