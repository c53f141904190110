/* w04_checks.h — what week 04's checks expect, shared by the week's test
 * program (test_week04.c) and the instructor's judge (instructor/judge_w04.c,
 * which runs the student's code in a separate runner): the sizes, how each
 * saxpy and dot case is drawn from its generator, the dot's tolerance, the
 * CLI's bad argument vectors and their check, the CSV's check, and the
 * SAXPYs (correct and with planted bugs) that mt_check_saxpy is handed.
 * Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below). The
 * judge draws case i from wb_rng_for_seed(seed, TAG, i) through the same
 * functions, so for a seed it gets the test's cases, sizes and inputs alike. */
#ifndef W04_CHECKS_H
#define W04_CHECKS_H

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mytest.h"
#include "wb_rand.h"

static const size_t W04_SIZES[] = { 0, 1, 2, 3, 5, 255, 256, 257, 1023, 4097, 65537, 1000003, ((size_t)1 << 24) + 1 };
#define W04_N_SIZES (sizeof W04_SIZES / sizeof W04_SIZES[0])

/* ---------------------------------------------------------------- saxpy */

#define W04_SAXPY_SIZES_TAG      "saxpy_sizes_fn"
#define W04_SAXPY_OFFSETS_TAG    "saxpy_offsets_fn"
#define W04_SAXPY_NONFINITE_TAG  "saxpy_nonfinite_fn"
#define W04_N_SAXPY_OFFSETS      16
#define W04_N_SAXPY_NONFINITE    4
#define W04_SAXPY_NONFINITE_N    10007
#define W04_SAXPY_OFFSET_MAX_N   200000
#define W04_SAXPY_ATOL           1e-6
#define W04_SAXPY_RTOL           1e-6

/* Offset case i: n drawn first; x starts (i & 3) floats in, y (i >> 2). */
static inline size_t w04_saxpy_offsets_n(wb_rng *r) { return (size_t)wb_rng_int(r, 1000, W04_SAXPY_OFFSET_MAX_N); }

/* A saxpy case: x (n + ox floats, the call's x starting ox in) and y (n)
 * uniform in [-1, 1), then a in [-2, 2); with nonfinite, every fifth x a
 * NaN, +Inf or -Inf in turn; ref = a x + y in double. */
static inline float w04_saxpy_draw(wb_rng *r, size_t n, size_t ox, int nonfinite, float *hx, float *hy, double *ref)
{
    wb_fill_uniform_f32(r, hx, n + ox, -1, 1);
    wb_fill_uniform_f32(r, hy, n, -1, 1);
    float a = (float)(4 * wb_rng_unit(r) - 2);
    if (nonfinite)
        for (size_t i = 0; i < n; i += 5) hx[ox + i] = (i / 5) % 3 == 0 ? NAN : (i / 5) % 3 == 1 ? INFINITY : -INFINITY;
    for (size_t i = 0; i < n; i++) ref[i] = (double)a * hx[ox + i] + hy[i];
    return a;
}

/* ---------------------------------------------------------------- dot */

#define W04_DOT_SIZES_TAG     "dot_sizes_fn"
#define W04_DOT_EXACT_TAG     "dot_exact_fn"
#define W04_DOT_NONFINITE_TAG "dot_nonfinite_fn"
#define W04_N_DOT_EXACT       4
#define W04_N_DOT_NONFINITE   2
#define W04_DOT_EXACT_MAX_N   ((size_t)1 << 20)
#define W04_DOT_NONFINITE_N   3001
#define W04_DOT_PAD           4 /* floats of each input buffer past n (the offsets are at most 3) */

/* Float accumulation error grows with n: the tolerance of saxpylib.h. */
static inline double w04_dot_tolerance(const float *x, const float *y, size_t n, double *ref)
{
    double s = 0, sq = 0;
    for (size_t i = 0; i < n; i++) {
        double t = (double)x[i] * y[i];
        s += t;
        sq += t * t;
    }
    *ref = s;
    return 8 * FLT_EPSILON * sqrt((double)n) * sqrt(sq) + 1e-6 * fabs(s);
}

/* dot_sizes: x then y (n floats each, [-1, 1)), then the offsets (0..3 each). */
static inline void w04_dot_sizes_draw(wb_rng *r, size_t n, float *hx, float *hy, size_t *ox, size_t *oy)
{
    wb_fill_uniform_f32(r, hx, n, -1, 1);
    wb_fill_uniform_f32(r, hy, n, -1, 1);
    *ox = (size_t)wb_rng_int(r, 0, 3), *oy = (size_t)wb_rng_int(r, 0, 3);
}

/* dot_exact case i: n (2^20 for i = 0, else drawn), then x[k], y[k] in turn,
 * integers in [-4, 4]: every partial sum is an integer below 2^24, so any
 * order of float additions is exact. y starts (i & 1) floats in, x at 0. */
static inline size_t w04_dot_exact_n(wb_rng *r, int i)
{
    return i == 0 ? W04_DOT_EXACT_MAX_N : (size_t)wb_rng_int(r, 1, (int64_t)W04_DOT_EXACT_MAX_N);
}
static inline double w04_dot_exact_fill(wb_rng *r, float *hx, float *hy, size_t n)
{
    double ref = 0;
    for (size_t i = 0; i < n; i++) {
        hx[i] = (float)wb_rng_int(r, -4, 4);
        hy[i] = (float)wb_rng_int(r, -4, 4);
        ref += (double)hx[i] * hy[i];
    }
    return ref;
}

/* dot_nonfinite case i (W04_DOT_NONFINITE_N floats each): x in [-1, 1), y in
 * [0.5, 1), one x a NaN (i = 0) or +Inf (i = 1): the dot is NaN or +Inf. */
static inline float w04_dot_nonfinite_draw(wb_rng *r, int i, float *hx, float *hy)
{
    size_t n = W04_DOT_NONFINITE_N;
    wb_fill_uniform_f32(r, hx, n, -1, 1);
    wb_fill_uniform_f32(r, hy, n, 0.5f, 1);
    hx[(size_t)wb_rng_int(r, 0, (int64_t)n - 1)] = i ? INFINITY : NAN;
    return i ? INFINITY : NAN;
}

/* ---------------------------------------------------------------- CLI */

#define W04_CLI_OUT 2048 /* what a CLI call's printed text is read into (at most 2047 characters) */

/* "saxpy-cli ARGS" split at spaces into argv (NULL after the last; at most
 * 15 words) in buf, which the words point into. Returns argc. */
static inline int w04_cli_argv(const char *args, char *buf, size_t bufsz, char *argv[16])
{
    int argc = 0;
    snprintf(buf, bufsz, "saxpy-cli %s", args);
    for (char *tok = strtok(buf, " "); tok && argc < 15; tok = strtok(NULL, " ")) argv[argc++] = tok;
    argv[argc] = NULL;
    return argc;
}

/* The CLI under test: cli_saxpy with the words of args (w04_cli_argv); its
 * exit code, its printed text in out (at most outsz - 1 characters). */
typedef int (*w04_cli_fn)(void *ctx, const char *args, char *out, size_t outsz);

static const char *const W04_CLI_BAD[] = {
    "",                    /* no command */
    "frobnicate 10",       /* unknown command */
    "saxpy",               /* too few */
    "saxpy 10",
    "saxpy 10 2 7 9",      /* too many */
    "saxpy -5 2",          /* a sign */
    "saxpy 12x 2",         /* trailing junk */
    "saxpy 1e3 2",         /* not a decimal integer */
    "saxpy 99999999999999999999999 2", /* overflow */
    "saxpy 10 two",
    "saxpy 10 2.5x",
    "saxpy 10 inf",
    "saxpy 10 nan",
    "saxpy 10 2 seed",
    "dot",
    "dot ten",
    "dot 10 1 2",
    "dot 10 -1",
    "--help extra",
};
#define W04_N_CLI_BAD (sizeof W04_CLI_BAD / sizeof W04_CLI_BAD[0])

/* Each bad vector: exit code 2, "error: ..." then the usage line; -h and
 * --help: exit code 0 and the usage line. 0, or 1 with the first failure in why. */
static inline int w04_cli_bad_args(w04_cli_fn cli, void *ctx, char *why, size_t why_n)
{
    char out[W04_CLI_OUT];
    for (size_t i = 0; i < W04_N_CLI_BAD; i++) {
        const char *bad = W04_CLI_BAD[i];
        int rc = cli(ctx, bad, out, sizeof out);
        char *nl = strchr(out, '\n');
        if (rc != 2)
            snprintf(why, why_n, "`saxpy-cli %s`: exit code %d, expected 2 (bad arguments); printed \"%.200s\"", bad, rc, out);
        else if (strncmp(out, "error: ", 7) != 0)
            snprintf(why, why_n, "`saxpy-cli %s`: the first line must start with \"error: \", got \"%.200s\"", bad, out);
        else if (!(nl && strncmp(nl + 1, "usage: saxpy-cli saxpy N A [SEED]", 33) == 0))
            snprintf(why, why_n, "`saxpy-cli %s`: the second line must be the usage line, got \"%.300s\"", bad, out);
        else
            continue;
        return 1;
    }
    for (int h = 0; h < 2; h++) {
        int rc = cli(ctx, h ? "--help" : "-h", out, sizeof out);
        if (rc != 0)
            return snprintf(why, why_n, "`saxpy-cli %s`: exit code %d, expected 0", h ? "--help" : "-h", rc), 1;
        if (strncmp(out, "usage: saxpy-cli saxpy N A [SEED] | saxpy-cli dot N [SEED] | saxpy-cli --help\n", 79) != 0)
            return snprintf(why, why_n, "`saxpy-cli --help`: expected the usage line, got \"%.200s\"", out), 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- exercise 3: the CSV */

/* What f holds from its start into buf (at most size - 1 characters and a
 * NUL); f is closed. How the test and the runner read what was printed. */
static inline void w04_slurp(FILE *f, char *buf, size_t size)
{
    fflush(f);
    rewind(f);
    size_t k = fread(buf, 1, size - 1, f);
    buf[k] = 0;
    fclose(f);
}

#define W04_MYBENCH_CSV_TAG "mybench_csv_fn"
#define W04_N_MYBENCH_CSV   4
#define W04_CSV_TEXT        1024 /* what the CSV's text is read into (at most 1023 characters) */

/* mybench_csv: n in [1, 2^34], a time from 1 us to 1 s, a name saxpy_vNN. */
static inline void w04_csv_case(wb_rng *r, size_t *n, double *ms, char *name, size_t namesz)
{
    *n = (size_t)wb_rng_int(r, 1, (int64_t)1 << 34);
    *ms = exp(log(1e-3) + wb_rng_unit(r) * log(1e6));
    snprintf(name, namesz, "saxpy_v%d", (int)wb_rng_int(r, 1, 99));
}

/* The CSV of mytest.h in text: the header, then exactly one row for `name`
 * on n elements, with positive finite figures; bytes = 12 n exactly and
 * GB/s = bytes / time to the digits printed. ms > 0: the time must match it
 * too. The row's time in *ms_out, GB/s in *gbps_out. 0, or 1 with why. */
static inline int w04_expect_csv(const char *text, const char *name, size_t n, double ms, double *ms_out,
                                 double *gbps_out, char *why, size_t why_n)
{
    static const char header[] = "name,n,bytes,time_ms,gb_per_s\n";
    if (strncmp(text, header, sizeof header - 1) != 0)
        return snprintf(why, why_n, "the CSV must start with the header \"name,n,bytes,time_ms,gb_per_s\" (units in "
                        "the names), got \"%.200s\"", text), 1;
    const char *row = text + sizeof header - 1;
    const char *end = strchr(row, '\n');
    if (!end || end[1] != 0)
        return snprintf(why, why_n, "after the header, exactly one row ending in a newline; got \"%.300s\"", row), 1;
    char line[512], *field[6];
    size_t len = (size_t)(end - row);
    if (len >= sizeof line) return snprintf(why, why_n, "the row is %zu characters long", len), 1;
    memcpy(line, row, len);
    line[len] = 0;
    int k = 0;
    for (char *p = line, *c; k < 6; p = c + 1) {
        field[k++] = p;
        if (!(c = strchr(p, ','))) break;
        *c = 0;
    }
    if (k != 5) return snprintf(why, why_n, "the row \"%.*s\" has %d fields, the header 5", (int)len, row, k), 1;
    if (strcmp(field[0], name) != 0) return snprintf(why, why_n, "name: \"%s\", expected \"%s\"", field[0], name), 1;
    double v[5];
    for (int f = 1; f < 5; f++) {
        char *stop;
        v[f] = strtod(field[f], &stop);
        if (!(stop != field[f] && *stop == 0 && isfinite(v[f]) && v[f] > 0))
            return snprintf(why, why_n, "field %d of \"%.*s\" (%s) must be a positive finite number, got \"%s\"", f + 1,
                            (int)len, row, f == 1 ? "n" : f == 2 ? "bytes" : f == 3 ? "time_ms" : "gb_per_s", field[f]), 1;
    }
    if (v[1] != (double)n) return snprintf(why, why_n, "n: %s, expected %zu", field[1], n), 1;
    if (v[2] != 12.0 * (double)n)
        return snprintf(why, why_n, "bytes: %s, expected 12 n = %.0f (SAXPY reads x and y and writes y)", field[2],
                        12.0 * (double)n), 1;
    if (ms > 0 && !(fabs(v[3] - ms) <= 1e-5 * ms))
        return snprintf(why, why_n, "time_ms: %s, expected %.9g (print it with %%.6g or more digits)", field[3], ms), 1;
    double gbps = v[2] / (v[3] * 1e-3) / 1e9;
    if (!(fabs(v[4] - gbps) <= 1e-4 * gbps))
        return snprintf(why, why_n, "gb_per_s: %s, but bytes / (time_ms * 1e-3) / 1e9 = %.6g (GB are 1e9 bytes; time "
                        "is in ms)", field[4], gbps), 1;
    *ms_out = v[3], *gbps_out = v[4];
    return 0;
}

/* ---------------------------------------------------------------- exercise 3: the test, tested */

#define W04_MYTEST_CPU_TAG "mytest_cpu_fn"
#define W04_MYTEST_GPU_TAG "mytest_gpu_fn"

/* SAXPYs on host arrays for mt_check_saxpy. The correct ones round in three
 * ways a real SAXPY may; each buggy one is a mistake a real kernel makes. A
 * test passes all the correct ones and fails every buggy one. */
static int w04_saxpy_fused(float a, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = fmaf(a, x[i], y[i]);
    return 0;
}

static int w04_saxpy_unfused(float a, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        volatile float ax = a * x[i]; /* rounded to float before the add: no FMA */
        y[i] = ax + y[i];
    }
    return 0;
}

static int w04_saxpy_in_double(float a, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = (float)((double)a * x[i] + y[i]);
    return 0;
}

static int w04_bug_last(float a, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) y[i] = fmaf(a, x[i], y[i]); /* i < n - 1 */
    return 0;
}

static int w04_bug_tail(float a, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n / 4 * 4; i++) y[i] = fmaf(a, x[i], y[i]); /* float4 only */
    return 0;
}

static int w04_bug_alpha(float a, const float *x, float *y, size_t n)
{
    (void)a;
    for (size_t i = 0; i < n; i++) y[i] = x[i] + y[i];
    return 0;
}

static int w04_bug_nostride(float a, const float *x, float *y, size_t n)
{
    size_t covered = (size_t)4096 * 256; /* 4096 blocks of 256 threads, one element each */
    for (size_t i = 0; i < n && i < covered; i++) y[i] = fmaf(a, x[i], y[i]);
    return 0;
}

static int w04_bug_half(float a, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int e;
        float m = frexpf(a * x[i], &e); /* a*x kept to 11 significant bits, as in half precision */
        y[i] = ldexpf(nearbyintf(m * 2048) / 2048, e) + y[i];
    }
    return 0;
}

static const struct {
    const char *what;
    mt_saxpy_fn fn;
    int correct;
    const char *hint;
} W04_MT_IMPLS[] = {
    { "a correct SAXPY with an FMA (fmaf)", w04_saxpy_fused, 1, NULL },
    { "a correct SAXPY without an FMA (a*x rounded, then the add)", w04_saxpy_unfused, 1, NULL },
    { "a correct SAXPY computed in double, rounded once", w04_saxpy_in_double, 1, NULL },
    { "a SAXPY that never writes y[n-1] (off by one at the end)", w04_bug_last, 0,
      "compare every element, the last one included, for several n >= 1" },
    { "a SAXPY that skips the n % 4 tail (a float4 loop and no scalar one)", w04_bug_tail, 0,
      "test n that are not multiples of 4: 1, 2, 3, 5, 257, ..." },
    { "a SAXPY that ignores a (y = x + y)", w04_bug_alpha, 0, "draw a at random, never 1" },
    { "a SAXPY that stops after 2^20 elements (a grid that does not stride)", w04_bug_nostride, 0,
      "test one n past 2^20 = 1048576" },
    { "a SAXPY that keeps a*x to 11 significant bits (half precision)", w04_bug_half, 0,
      "your tolerance is too loose: a float SAXPY is within 1e-6 + 1e-6 |ref| of the double reference" },
};
#define W04_N_MT_IMPLS (sizeof W04_MT_IMPLS / sizeof W04_MT_IMPLS[0])

/* The verdict on mt_check_saxpy's count for SAXPY i (seed: the one it was
 * given; first: the first line it logged). 0, or 1 with why. */
static inline int w04_mytest_verdict(int i, int failed, unsigned long long seed, const char *first, char *why,
                                     size_t why_n)
{
    if (failed < 0)
        return snprintf(why, why_n, "mt_check_saxpy returned %d: write your checks in mytest.cu (the starter returns -1)",
                        failed), 1;
    if (W04_MT_IMPLS[i].correct && failed != 0)
        return snprintf(why, why_n, "your checks failed %d time(s) on %s (seed %llu); first line logged: \"%s\". "
                        "A correct float SAXPY may differ from the double reference by a few units in the last place: "
                        "compare at atol + rtol |ref|, not with ==",
                        failed, W04_MT_IMPLS[i].what, seed, first), 1;
    if (!W04_MT_IMPLS[i].correct && failed == 0)
        return snprintf(why, why_n, "your checks passed %s (seed %llu): they must catch it. Hint: %s",
                        W04_MT_IMPLS[i].what, seed, W04_MT_IMPLS[i].hint), 1;
    return 0;
}

/* mytest-lib's verdict: mt_check_saxpy's count on the student's sl_saxpy. */
static inline int w04_mytest_lib_verdict(int failed, unsigned long long seed, const char *first, char *why, size_t why_n)
{
    if (failed < 0)
        return snprintf(why, why_n, "mt_check_saxpy returned %d: write your checks in mytest.cu (the starter returns -1)",
                        failed), 1;
    if (failed != 0)
        return snprintf(why, why_n, "your checks failed %d time(s) on your sl_saxpy (seed %llu); first line logged: \"%s\". "
                        "Either sl_saxpy has a bug (w04.saxpy says) or your checks are too strict (w04.mytest says)",
                        failed, seed, first), 1;
    return 0;
}

#endif
