/* wb_compare.c — tolerance comparison with NaN/Inf rules (see wb_compare.h). */
#include "wb_compare.h"
#include "wb_hd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define WB_SHOW 4 /* mismatches spelled out in the message */

int wb_close(double got, double ref, double atol, double rtol) { return wb_close_hd(got, ref, atol, rtol); }

typedef double (*getter)(const void *, size_t);
static double get_f32(const void *p, size_t i) { return ((const float *)p)[i]; }
static double get_f64(const void *p, size_t i) { return ((const double *)p)[i]; }

static size_t compare(const char *name, const void *got, getter gg, const void *ref, getter gr,
                      size_t n, double atol, double rtol, wb_cmp *out)
{
    wb_cmp c = { .n = n, .bad = 0, .first_bad = n, .max_err = 0 };
    char detail[400] = "";
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        double g = gg(got, i), r = gr(ref, i);
        if (isfinite(g) && isfinite(r) && fabs(g - r) > c.max_err) c.max_err = fabs(g - r);
        if (wb_close(g, r, atol, rtol)) continue;
        if (c.bad == 0) c.first_bad = i;
        if (c.bad < WB_SHOW && used < sizeof detail) {
            used += (size_t)snprintf(detail + used, sizeof detail - used, "; %s[%zu] expected %.9g got %.9g",
                                     name, i, r, g);
        }
        c.bad++;
    }
    if (c.bad)
        snprintf(c.msg, sizeof c.msg, "%zu of %zu %s wrong (atol %g, rtol %g)%s%s", c.bad, n,
                 n == 1 ? "element" : "elements", atol, rtol, detail, c.bad > WB_SHOW ? "; ..." : "");
    else
        snprintf(c.msg, sizeof c.msg, "all %zu elements within atol %g, rtol %g (max error %.3g)", n, atol,
                 rtol, c.max_err);
    if (out) *out = c;
    return c.bad;
}

size_t wb_compare_f32(const char *name, const float *got, const float *ref, size_t n, double atol,
                      double rtol, wb_cmp *out)
{
    return compare(name, got, get_f32, ref, get_f32, n, atol, rtol, out);
}

size_t wb_compare_f32_f64(const char *name, const float *got, const double *ref, size_t n, double atol,
                          double rtol, wb_cmp *out)
{
    return compare(name, got, get_f32, ref, get_f64, n, atol, rtol, out);
}

size_t wb_compare_f64(const char *name, const double *got, const double *ref, size_t n, double atol,
                      double rtol, wb_cmp *out)
{
    return compare(name, got, get_f64, ref, get_f64, n, atol, rtol, out);
}

size_t wb_compare_u32(const char *name, const uint32_t *got, const uint32_t *ref, size_t n, wb_cmp *out)
{
    wb_cmp c = { .n = n, .bad = 0, .first_bad = n, .max_err = 0 };
    char detail[400] = "";
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (got[i] == ref[i]) continue;
        if (c.bad == 0) c.first_bad = i;
        if (c.bad < WB_SHOW && used < sizeof detail)
            used += (size_t)snprintf(detail + used, sizeof detail - used, "; %s[%zu] expected %u got %u", name,
                                     i, ref[i], got[i]);
        c.bad++;
    }
    if (c.bad)
        snprintf(c.msg, sizeof c.msg, "%zu of %zu %s wrong%s%s", c.bad, n, n == 1 ? "element" : "elements",
                 detail, c.bad > WB_SHOW ? "; ..." : "");
    else
        snprintf(c.msg, sizeof c.msg, "all %zu elements equal", n);
    if (out) *out = c;
    return c.bad;
}

size_t wb_count_not_byte(const void *buf, size_t n, unsigned char byte)
{
    const unsigned char *b = buf;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += b[i] != byte;
    return k;
}
