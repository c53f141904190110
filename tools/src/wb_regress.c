/* wb_regress.c — see wb_regress.h. */
#include "wb_regress.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include "wb_results.h"

static int fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    wb_regress_row row;
    double        *ratios;
    char         (*details)[200];
    int            n, cap;
} group;

/* Every record of every file, in one array; -1 with err on the first bad one. */
static int read_all(const char *const *records, int n, wb_result **out, char *err, size_t errsz)
{
    wb_result *all = NULL;
    int total = 0;
    for (int f = 0; f < n; f++) {
        wb_result *r = NULL;
        int k = wb_results_read(records[f], &r, err, errsz);
        if (k < 0) { free(all); return -1; }
        wb_result *grown = realloc(all, (size_t)(total + k + 1) * sizeof *all);
        if (!grown) { free(r), free(all); return fail(err, errsz, "out of memory"); }
        all = grown;
        memcpy(all + total, r, (size_t)k * sizeof *r);
        total += k;
        free(r);
    }
    *out = all;
    return total;
}

static int usable(const wb_result *r) { return r->status == WB_RES_PASS && isfinite(r->ratio) && r->ratio > 0; }
/* A run that missed its target still measured a ratio: a regression check
 * compares it (a baseline takes passing runs only). */
static int measured(const wb_result *r) { return r->status != WB_RES_SKIP && isfinite(r->ratio) && r->ratio > 0; }

int wb_regress_baseline(const char *out, const char *const *records, int n, char *err, size_t errsz)
{
    wb_result *all;
    int total = read_all(records, n, &all, err, errsz);
    if (total < 0) return -1;
    group *g = NULL;
    int ng = 0;
    const char *gpu = NULL;
    for (int i = 0; i < total; i++) {
        const wb_result *r = &all[i];
        if (!usable(r)) continue;
        if (gpu && strcmp(gpu, r->gpu) != 0) {
            int rc = fail(err, errsz, "records of two GPUs (%s and %s): a baseline is for one", gpu, r->gpu);
            for (int k = 0; k < ng; k++) free(g[k].ratios), free(g[k].details);
            free(g), free(all);
            return rc;
        }
        gpu = r->gpu;
        int k = 0;
        while (k < ng && !(strcmp(g[k].row.week, r->week) == 0 && strcmp(g[k].row.id, r->id) == 0)) k++;
        if (k == ng) {
            group *grown = realloc(g, (size_t)(ng + 1) * sizeof *g);
            if (!grown) break;
            g = grown;
            memset(&g[ng], 0, sizeof g[ng]);
            snprintf(g[ng].row.week, sizeof g[ng].row.week, "%s", r->week);
            snprintf(g[ng].row.id, sizeof g[ng].row.id, "%s", r->id);
            snprintf(g[ng].row.gpu, sizeof g[ng].row.gpu, "%s", r->gpu);
            snprintf(g[ng].row.unit, sizeof g[ng].row.unit, "%s", r->unit);
            snprintf(g[ng].row.yard, sizeof g[ng].row.yard, "%s", r->yard);
            ng++;
        }
        group *q = &g[k];
        if (q->n == q->cap) {
            q->cap = q->cap ? 2 * q->cap : 8;
            q->ratios = realloc(q->ratios, (size_t)q->cap * sizeof *q->ratios);
            q->details = realloc(q->details, (size_t)q->cap * sizeof *q->details);
            if (!q->ratios || !q->details) break;
        }
        q->ratios[q->n] = r->ratio;
        snprintf(q->details[q->n], sizeof q->details[q->n], "%s", r->detail);
        q->n++;
    }
    free(all);
    if (ng == 0) {
        free(g);
        return fail(err, errsz, "no passing checkpoint with a ratio in the records: nothing to take a baseline of");
    }
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return fail(err, errsz, "out of memory");
    fprintf(m, "#wb-regress 1\nweek\tcheckpoint\tgpu\truns\tmedian\tmin\tmax\tband\tunit\tyardstick\tdetail\n");
    for (int k = 0; k < ng; k++) {
        group *q = &g[k];
        double *sorted = malloc((size_t)q->n * sizeof *sorted);
        memcpy(sorted, q->ratios, (size_t)q->n * sizeof *sorted);
        qsort(sorted, (size_t)q->n, sizeof *sorted, cmp_double);
        double med = q->n % 2 ? sorted[q->n / 2] : 0.5 * (sorted[q->n / 2 - 1] + sorted[q->n / 2]);
        double lo = sorted[0], hi = sorted[q->n - 1];
        double band = 1.5 * (hi - lo) / med;
        if (band < WB_REGRESS_MIN_BAND) band = WB_REGRESS_MIN_BAND;
        if (band > WB_REGRESS_MAX_BAND) band = WB_REGRESS_MAX_BAND;
        int mid = 0; /* the run whose ratio is nearest the median, for its detail */
        for (int i = 1; i < q->n; i++)
            if (fabs(q->ratios[i] - med) < fabs(q->ratios[mid] - med)) mid = i;
        fprintf(m, "%s\t%s\t%s\t%d\t%.6g\t%.6g\t%.6g\t%.4g\t%s\t%s\t%s\n", q->row.week, q->row.id, q->row.gpu, q->n,
                med, lo, hi, band, q->row.unit[0] ? q->row.unit : "-", q->row.yard[0] ? q->row.yard : "-",
                q->details[mid][0] ? q->details[mid] : "-");
        free(sorted), free(q->ratios), free(q->details);
    }
    fclose(m);
    free(g);
    /* written whole: a temporary file beside it, renamed over it */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", out, (long)getpid());
    FILE *w = fopen(tmp, "w");
    int ok = w && fwrite(text, 1, len, w) == len;
    if (w && fclose(w) != 0) ok = 0;
    free(text);
    if (!ok || rename(tmp, out) != 0) {
        int rc = fail(err, errsz, "%s: cannot write: %s", out, strerror(errno));
        unlink(tmp);
        return rc;
    }
    return ng;
}

/* Splits a line at TABs into at most max fields (the line is modified). */
static int split(char *line, char **f, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = 0, p = t + 1;
    }
    return n;
}

int wb_regress_read(const char *path, wb_regress_row **rows, char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    if (!f) return fail(err, errsz, "%s: cannot read it (make regress-baseline writes it)", path);
    char line[2048];
    int n = 0, cap = 0, lineno = 0;
    wb_regress_row *v = NULL;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (lineno == 1) {
            if (strncmp(line, "#wb-regress 1", 13) != 0) {
                fclose(f);
                return fail(err, errsz, "%s:1: not a regression baseline (\"#wb-regress 1\" expected)", path);
            }
            continue;
        }
        if (lineno == 2 || line[0] == '\n') continue;
        char *fl[11];
        if (split(line, fl, 11) != 11) {
            fclose(f), free(v);
            return fail(err, errsz, "%s:%d: 11 tab-separated fields expected", path, lineno);
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            wb_regress_row *grown = realloc(v, (size_t)cap * sizeof *v);
            if (!grown) { fclose(f), free(v); return fail(err, errsz, "out of memory"); }
            v = grown;
        }
        wb_regress_row *r = &v[n];
        memset(r, 0, sizeof *r);
        snprintf(r->week, sizeof r->week, "%s", fl[0]);
        snprintf(r->id, sizeof r->id, "%s", fl[1]);
        snprintf(r->gpu, sizeof r->gpu, "%s", fl[2]);
        char *end;
        r->runs = (int)strtol(fl[3], &end, 10);
        r->median = strtod(fl[4], &end);
        r->lo = strtod(fl[5], &end);
        r->hi = strtod(fl[6], &end);
        r->band = strtod(fl[7], &end);
        snprintf(r->unit, sizeof r->unit, "%s", fl[8]);
        snprintf(r->yard, sizeof r->yard, "%s", fl[9]);
        snprintf(r->detail, sizeof r->detail, "%s", fl[10]);
        if (!(r->median > 0) || !(r->band > 0) || r->runs < 1) {
            fclose(f), free(v);
            return fail(err, errsz, "%s:%d: runs, median and band must be positive numbers", path, lineno);
        }
        n++;
    }
    fclose(f);
    *rows = v;
    return n;
}

int wb_regress_check(const char *baseline, const char *const *records, int n, FILE *report, char *err,
                     size_t errsz)
{
    wb_regress_row *b;
    int nb = wb_regress_read(baseline, &b, err, errsz);
    if (nb < 0) return -1;
    wb_result *all;
    int total = read_all(records, n, &all, err, errsz);
    if (total < 0) { free(b); return -1; }
    for (int i = 0; i < total; i++)
        if (all[i].gpu[0] && strcmp(all[i].gpu, "-") != 0 && nb && strcmp(all[i].gpu, b[0].gpu) != 0) {
            int rc = fail(err, errsz, "these records are from %s, the baseline from %s: take a baseline on this GPU "
                                      "(make regress-baseline)", all[i].gpu, b[0].gpu);
            free(b), free(all);
            return rc;
        }
    int bad = 0;
    for (int k = 0; k < nb; k++) {
        const wb_regress_row *r = &b[k];
        /* Each checkpoint runs alone (CK_RUN_CASE), so the records of the
         * other runs of the same week list it as skipped ("not selected"):
         * the record that ran it wins over those, whatever the file order. */
        const wb_result *now = NULL;
        for (int i = 0; i < total; i++)
            if (strcmp(all[i].week, r->week) == 0 && strcmp(all[i].id, r->id) == 0 &&
                (!now || (now->status == WB_RES_SKIP && all[i].status != WB_RES_SKIP)))
                now = &all[i];
        if (!now || !measured(now)) {
            bad++;
            fprintf(report, "REGRESSION  %-16s %-24s no figure this run (%s); baseline %.3f of %s\n", r->week, r->id,
                    !now ? "not run" : now->message[0] && strcmp(now->message, "-") ? now->message : wb_result_status_name(now->status),
                    r->median, r->yard);
            continue;
        }
        double change = now->ratio / r->median - 1;
        const char *verdict = change < -r->band ? "REGRESSION" : change > r->band ? "faster" : "ok";
        bad += change < -r->band;
        fprintf(report, "%-11s %-16s %-24s %.3f of %s, baseline %.3f (%+.1f %%, band %.0f %%%s): %s\n", verdict, r->week,
                r->id, now->ratio, r->yard, r->median, 100 * change, 100 * r->band,
                r->band >= WB_REGRESS_MAX_BAND ? ", noisy" : "", now->detail[0] ? now->detail : "-");
    }
    free(b), free(all);
    return bad;
}
