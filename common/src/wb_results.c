/* wb_results.c — the results record's one writer and one reader (format in
 * wb_results.h). */
#include "wb_results.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N_FIELDS 17

static const char *COLUMNS = "week\tcheckpoint\tstatus\treason\tvalue\tunit\tyardstick\tyard_value\tratio\ttarget\t"
                             "seed\tgpu\ttests\tfailed\tskipped\tdetail\tmessage";

/* The format's first line, less its version: a record of another version is
 * named as such, not as no record at all. */
#define MAGIC_STEM "#wb-results "

static const char *const REASONS[] = { "-", "nogpu", "notselected", "env", "code" };

void wb_result_init(wb_result *r)
{
    memset(r, 0, sizeof *r);
    r->status = WB_RES_SKIP;
    r->value = r->yard_value = r->ratio = r->target = NAN;
}

const char *wb_result_status_name(int status)
{
    return status == WB_RES_PASS ? "pass" : status == WB_RES_FAIL ? "fail" : "skip";
}

const char *wb_result_reason_name(int reason)
{
    return reason >= 0 && reason < (int)(sizeof REASONS / sizeof REASONS[0]) ? REASONS[reason] : "?";
}

/* A text field: never empty, no TAB/CR/LF. */
static void put_text(char *out, size_t n, size_t *k, const char *s)
{
    if (!s || !*s) s = "-";
    for (; *s && *k + 1 < n; s++) out[(*k)++] = (*s == '\t' || *s == '\n' || *s == '\r') ? ' ' : *s;
}

static void put_num(char *out, size_t n, size_t *k, double v)
{
    char b[40];
    if (isnan(v)) {
        snprintf(b, sizeof b, "-");
    } else {
        /* the shortest text that reads back as the same double */
        for (int p = 6; p <= 17; p++) {
            snprintf(b, sizeof b, "%.*g", p, v);
            if (strtod(b, NULL) == v) break;
        }
    }
    put_text(out, n, k, b);
}

static void put_tab(char *out, size_t n, size_t *k, char c)
{
    if (*k + 1 < n) out[(*k)++] = c;
}

/* One record as a line (with its newline). Returns the length. */
static size_t format_line(const wb_result *r, char *out, size_t n)
{
    size_t k = 0;
    char b[64];
    put_text(out, n, &k, r->week), put_tab(out, n, &k, '\t');
    put_text(out, n, &k, r->id), put_tab(out, n, &k, '\t');
    put_text(out, n, &k, wb_result_status_name(r->status)), put_tab(out, n, &k, '\t');
    put_text(out, n, &k, wb_result_reason_name(r->reason)), put_tab(out, n, &k, '\t');
    put_num(out, n, &k, r->value), put_tab(out, n, &k, '\t');
    put_text(out, n, &k, r->unit), put_tab(out, n, &k, '\t');
    put_text(out, n, &k, r->yard), put_tab(out, n, &k, '\t');
    put_num(out, n, &k, r->yard_value), put_tab(out, n, &k, '\t');
    put_num(out, n, &k, r->ratio), put_tab(out, n, &k, '\t');
    put_num(out, n, &k, r->target > 0 ? r->target : NAN), put_tab(out, n, &k, '\t');
    snprintf(b, sizeof b, "%llu", r->seed);
    put_text(out, n, &k, b), put_tab(out, n, &k, '\t');
    put_text(out, n, &k, r->gpu), put_tab(out, n, &k, '\t');
    snprintf(b, sizeof b, "%d\t%d\t%d", r->tests, r->failed, r->skipped);
    for (const char *p = b; *p; p++) put_tab(out, n, &k, *p);
    put_tab(out, n, &k, '\t');
    put_text(out, n, &k, r->detail), put_tab(out, n, &k, '\t');
    put_text(out, n, &k, r->message);
    put_tab(out, n, &k, '\n');
    out[k] = 0;
    return k;
}

static int write_all(int fd, const char *s, size_t len)
{
    while (len) {
        ssize_t w = write(fd, s, len);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        s += w, len -= (size_t)w;
    }
    return 0;
}

int wb_results_start(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    char head[512];
    int n = snprintf(head, sizeof head, "%s\n%s\n", WB_RESULTS_MAGIC, COLUMNS);
    int rc = write_all(fd, head, (size_t)n);
    return close(fd) != 0 || rc != 0 ? -1 : 0;
}

int wb_results_append(const char *path, const wb_result *r)
{
    char line[2048];
    size_t len = format_line(r, line, sizeof line);
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t w = write(fd, line, len); /* one write: lines from several processes never interleave */
    close(fd);
    return w == (ssize_t)len ? 0 : -1;
}

int wb_results_write(const char *path, const wb_result *r, int n, char *err, size_t errsz)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errsz, "%s: cannot write: %s", tmp, strerror(errno));
        return -1;
    }
    char head[512], line[2048];
    int hn = snprintf(head, sizeof head, "%s\n%s\n", WB_RESULTS_MAGIC, COLUMNS);
    int bad = write_all(fd, head, (size_t)hn);
    for (int i = 0; i < n && !bad; i++) {
        size_t len = format_line(&r[i], line, sizeof line);
        bad = write_all(fd, line, len);
    }
    if (close(fd) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) {
        snprintf(err, errsz, "%s: cannot write: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* ---- reader ---- */

static int get_num(const char *s, double *v)
{
    if (strcmp(s, "-") == 0) {
        *v = NAN;
        return 0;
    }
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return (*s && !*end && errno == 0) ? 0 : -1;
}

static int get_int(const char *s, int *v)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (!*s || *end || x < 0 || x > 1000000000) return -1;
    *v = (int)x;
    return 0;
}

static void get_text(char *out, size_t n, const char *s)
{
    if (strcmp(s, "-") == 0) s = "";
    snprintf(out, n, "%s", s);
}

static const char *parse_line(char *line, wb_result *r)
{
    char *f[N_FIELDS];
    int nf = 0;
    for (char *p = line;; p++) {
        if (nf == N_FIELDS) return "too many fields (17 TAB-separated fields)";
        f[nf++] = p;
        p = strchr(p, '\t');
        if (!p) break;
        *p = 0;
    }
    if (nf != N_FIELDS) return "too few fields (17 TAB-separated fields)";
    wb_result_init(r);
    get_text(r->week, sizeof r->week, f[0]);
    get_text(r->id, sizeof r->id, f[1]);
    if (!r->id[0]) return "no checkpoint id";
    if (strcmp(f[2], "pass") == 0) r->status = WB_RES_PASS;
    else if (strcmp(f[2], "fail") == 0) r->status = WB_RES_FAIL;
    else if (strcmp(f[2], "skip") == 0) r->status = WB_RES_SKIP;
    else return "status must be pass, fail or skip";
    r->reason = -1;
    for (int i = 0; i < (int)(sizeof REASONS / sizeof REASONS[0]); i++)
        if (strcmp(f[3], REASONS[i]) == 0) r->reason = i;
    if (r->reason < 0) return "reason must be -, nogpu, notselected, env or code";
    if (r->status == WB_RES_PASS && r->reason != WB_WHY_NONE) return "a pass has reason '-'";
    if (r->status == WB_RES_FAIL && r->reason != WB_WHY_CODE) return "a fail has reason 'code'";
    if (r->status == WB_RES_SKIP && (r->reason == WB_WHY_NONE || r->reason == WB_WHY_CODE))
        return "a skip has reason nogpu, notselected or env";
    if (get_num(f[4], &r->value) || get_num(f[7], &r->yard_value) || get_num(f[8], &r->ratio) ||
        get_num(f[9], &r->target))
        return "value, yard_value, ratio and target are numbers or '-'";
    get_text(r->unit, sizeof r->unit, f[5]);
    get_text(r->yard, sizeof r->yard, f[6]);
    char *end;
    r->seed = strtoull(f[10], &end, 10);
    if (*f[10] < '0' || *f[10] > '9' || *end) return "seed must be a decimal number";
    get_text(r->gpu, sizeof r->gpu, f[11]);
    if (get_int(f[12], &r->tests) || get_int(f[13], &r->failed) || get_int(f[14], &r->skipped))
        return "tests, failed and skipped are counts";
    get_text(r->detail, sizeof r->detail, f[15]);
    get_text(r->message, sizeof r->message, f[16]);
    return NULL;
}

int wb_results_read(const char *path, wb_result **out, char *err, size_t errsz)
{
    *out = NULL;
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        return -1;
    }
    int n = 0, cap = 0, lno = 0;
    wb_result *v = NULL;
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    while ((len = getline(&line, &lcap, fp)) >= 0) {
        lno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (lno == 1) {
            if (strcmp(line, WB_RESULTS_MAGIC) == 0) continue;
            if (strncmp(line, MAGIC_STEM, strlen(MAGIC_STEM)) == 0)
                snprintf(err, errsz, "%s:1: a results record of another format ('%s'; this reader takes '%s'): run "
                         "the test again to rewrite it", path, line, WB_RESULTS_MAGIC);
            else snprintf(err, errsz, "%s:1: not a results record (first line must be '%s')", path, WB_RESULTS_MAGIC);
            goto fail;
        }
        if (lno == 2 || len == 0) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            wb_result *nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) abort();
            v = nv;
        }
        const char *why = parse_line(line, &v[n]);
        if (why) {
            snprintf(err, errsz, "%s:%d: %s", path, lno, why);
            goto fail;
        }
        n++;
    }
    if (lno == 0) {
        snprintf(err, errsz, "%s: empty (a results record starts with '%s')", path, WB_RESULTS_MAGIC);
        goto fail;
    }
    free(line);
    fclose(fp);
    *out = v;
    return n;
fail:
    free(line);
    free(v);
    fclose(fp);
    return -1;
}

void wb_result_figure(const wb_result *r, char *buf, size_t n)
{
    if (!isnan(r->ratio) && r->yard[0])
        snprintf(buf, n, "%.3f of %s (%s)", r->ratio, r->yard, r->detail[0] ? r->detail : "-");
    else snprintf(buf, n, "%s", r->detail);
}

void wb_result_target(const wb_result *r, char *buf, size_t n)
{
    if (r->target > 0) snprintf(buf, n, ">= %.2f %s", r->target, r->yard[0] ? r->yard : "");
    else snprintf(buf, n, "-");
}
