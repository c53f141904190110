/* app.cu — week 20, exercise 2: feature scaling through libwbk (app.h).
 *
 * A client of the library like any other: it includes wbk.h, calls only
 * wbk_* functions, and never sees a device pointer. The pipeline is three
 * library calls deep: transpose (features become rows), standardize each
 * feature, transpose back. Each call copies its data to the devices and
 * back: simple, and the price of a host-to-host API (the README measures
 * it). app_main, the program around it, is given. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"
#include "wb_rand.h"

wbk_status app_standardize_columns(wbk_ctx *ctx, const float *data, int rows, int cols, float *out, double *means,
                                   double *stds)
{
    //@solution
    if (rows < 1 || cols < 1 || !data || !out || !means || !stds) return WBK_ERR_INVALID_ARG;
    const size_t cells = (size_t)rows * cols; /* the table, and its transpose */
    float *t = (float *)malloc(cells * sizeof(float));
    if (!t) return WBK_ERR_OUT_OF_MEMORY;
    /* t (cols x rows): row j is feature j, contiguous. */
    wbk_status s = wbk_transpose(ctx, data, cells, t, cells, rows, cols);
    for (int j = 0; j < cols && s == WBK_OK; j++) {
        wbk_stats st;
        float *f = t + (size_t)j * rows;
        s = wbk_standardize(ctx, f, (size_t)rows, f, (size_t)rows, &st); /* in place */
        if (s == WBK_OK) means[j] = st.mean, stds[j] = st.std;
    }
    if (s == WBK_OK) s = wbk_transpose(ctx, t, cells, out, cells, cols, rows);
    free(t);
    return s;
    //@starter
    //| /* TODO: three steps through the library, nothing else: wbk_transpose
    //|  * the table (rows x cols) into a host buffer of cols x rows, so that
    //|  * feature j is the contiguous row j; wbk_standardize each of those rows
    //|  * (in place is allowed), keeping its mean and std; wbk_transpose back
    //|  * into out (the buffer is cols x rows now). Return the first status
    //|  * that is not WBK_OK. */
    //| (void)ctx, (void)data, (void)rows, (void)cols, (void)out, (void)means, (void)stds;
    //| return WBK_OK;
    //@end
}

/* ---- given: the program ---- */

static void usage(FILE *out, const char *prog) { fprintf(out, "usage: %s ROWS COLS [SEED]\n", prog); }

static int bad_args(FILE *out, const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", out);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    va_end(ap);
    usage(out, prog);
    return 2;
}

/* A decimal integer in [lo, hi]: digits only. */
static int parse_ull(const char *s, unsigned long long lo, unsigned long long hi, unsigned long long *v)
{
    if (!s || !*s) return -1;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9') return -1;
    errno = 0;
    *v = strtoull(s, NULL, 10);
    return (errno == ERANGE || *v < lo || *v > hi) ? -1 : 0;
}

int app_main(int argc, char **argv, FILE *out)
{
    const char *prog = argc > 0 && argv[0] ? argv[0] : "wbk-app";
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) return usage(out, prog), 0;
    if (argc < 3 || argc > 4) return bad_args(out, prog, "expected ROWS COLS [SEED], got %d arguments", argc - 1);
    unsigned long long rows, cols, seed = 1;
    if (parse_ull(argv[1], 1, WBK_MAX_DIM, &rows)) return bad_args(out, prog, "ROWS must be in 1..%d, not '%s'", WBK_MAX_DIM, argv[1]);
    if (parse_ull(argv[2], 1, WBK_MAX_DIM, &cols)) return bad_args(out, prog, "COLS must be in 1..%d, not '%s'", WBK_MAX_DIM, argv[2]);
    if (rows * cols > ((unsigned long long)1 << 28))
        return bad_args(out, prog, "ROWS x COLS = %llu is more than this program's 2^28", rows * cols);
    if (argc == 4 && parse_ull(argv[3], 0, ~0ull, &seed)) return bad_args(out, prog, "SEED must be a decimal integer, not '%s'", argv[3]);

    size_t n = (size_t)(rows * cols);
    int rc = 1, ndev = 0;
    wbk_status s = WBK_OK;
    float *data = (float *)malloc(n * sizeof(float)), *got = (float *)malloc(n * sizeof(float));
    double *means = (double *)malloc(cols * sizeof(double)), *stds = (double *)malloc(cols * sizeof(double));
    wbk_ctx *ctx = NULL;
    if (!data || !got || !means || !stds) {
        fprintf(out, "error: out of host memory for %llu x %llu\n", rows, cols);
        goto done;
    }
    {
        wb_rng r;
        wb_rng_seed(&r, seed);
        for (size_t i = 0; i < n; i++) {
            double j = (double)(i % cols), h = 1 + j / 2;
            data[i] = (float)(j - h + 2 * h * wb_rng_unit(&r));
        }
    }
    s = wbk_create(&ctx, 0);
    if (s == WBK_OK) s = wbk_device_count(ctx, &ndev);
    if (s == WBK_OK) s = app_standardize_columns(ctx, data, (int)rows, (int)cols, got, means, stds);
    if (s != WBK_OK) {
        fprintf(out, "error: %s (%s)\n", wbk_last_error(), wbk_status_name(s));
        goto done;
    }
    if (ndev == 1) fprintf(out, "devices: 1 (one GPU: no split)\n");
    else fprintf(out, "devices: %d (each call splits its data across them)\n", ndev);
    {
        /* The reference: two passes in double, the library's rule for a constant column. */
        double max_err = 0;
        size_t bad = 0;
        for (size_t j = 0; j < cols; j++) {
            double sum = 0, ss = 0;
            for (size_t r = 0; r < rows; r++) sum += data[r * cols + j];
            double mean = sum / (double)rows;
            for (size_t r = 0; r < rows; r++) ss += (data[r * cols + j] - mean) * (data[r * cols + j] - mean);
            double sd = sqrt(ss / (double)rows), scale = sd > 1e-5 * fabs(mean) ? 1 / sd : 1;
            if (!(fabs(means[j] - mean) <= 1e-5 * (1 + fabs(mean))) || !(fabs(stds[j] - sd) <= 1e-5 * (1 + sd))) bad++;
            for (size_t r = 0; r < rows; r++) {
                double ref = (data[r * cols + j] - mean) * scale, err = fabs(got[r * cols + j] - ref);
                if (!(err <= 1e-4 + 1e-4 * fabs(ref))) bad++;
                if (err > max_err || err != err) max_err = err;
            }
            if (j < 4) fprintf(out, "feature %zu: mean=%.6g std=%.6g\n", j, means[j], stds[j]);
        }
        fprintf(out, "scaled %llux%llu max_err=%.3g %s\n", rows, cols, max_err, bad ? "FAILED" : "ok");
        rc = bad ? 1 : 0;
    }
done:
    wbk_destroy(ctx);
    free(data), free(got), free(means), free(stds);
    return rc;
}
