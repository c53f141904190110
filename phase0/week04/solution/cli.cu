/* cli.cu — week 04, exercise 2: the command-line front end of the library.
 *
 * A program's main() cannot live in the week's test binary (it has its own),
 * so the CLI is a function, cli_saxpy(argc, argv, out): the test calls it
 * with argument vectors and reads what it prints; cli_main.c wraps it into an
 * executable. The shape is the usual one: validate every argument first
 * (errors: a message, the usage line, exit code 2, no GPU touched), then do
 * the work, then print one result line a script can parse. */
#include <errno.h>
#include <math.h>
#include <float.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "saxpylib.h"
#include "wb_rand.h"

static void usage(FILE *out, const char *prog)
{
    fprintf(out, "usage: %s saxpy N A [SEED] | %s dot N [SEED] | %s --help\n", prog, prog, prog);
}

//@solution
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

/* A decimal integer: digits only (no sign, no spaces), no overflow. */
static int parse_u64(const char *s, unsigned long long *v)
{
    if (!s || !*s) return -1;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9') return -1;
    errno = 0;
    *v = strtoull(s, NULL, 10);
    return errno == ERANGE ? -1 : 0;
}

/* A finite float, the whole string. */
static int parse_float(const char *s, float *v)
{
    if (!s || !*s) return -1;
    char *end = NULL;
    errno = 0;
    *v = strtof(s, &end);
    return (*end || errno == ERANGE || !isfinite(*v)) ? -1 : 0;
}

static int cuda_failed(FILE *out, const char *what, cudaError_t e)
{
    fprintf(out, "error: %s: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
    return 1;
}

#define CK(what, call)                                               \
    do {                                                             \
        cudaError_t e_ = (call);                                     \
        if (e_ != cudaSuccess) { rc = cuda_failed(out, what, e_); goto done; } \
    } while (0)

/* x, y uniform in [-1, 1) from the seed, on the host. */
static void make_inputs(unsigned long long seed, float *x, float *y, size_t n)
{
    wb_rng r;
    wb_rng_seed(&r, seed);
    wb_fill_uniform_f32(&r, x, n, -1, 1);
    wb_fill_uniform_f32(&r, y, n, -1, 1);
}

static int run_saxpy(FILE *out, size_t n, float a, unsigned long long seed)
{
    int rc = 0;
    size_t bytes = (n ? n : 1) * sizeof(float);
    float *x = (float *)malloc(bytes), *y = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    float *dx = NULL, *dy = NULL;
    if (!x || !y || !got) {
        fprintf(out, "error: out of host memory for n=%zu\n", n);
        rc = 1;
        goto done;
    }
    make_inputs(seed, x, y, n);
    CK("cudaMalloc", cudaMalloc((void **)&dx, bytes));
    CK("cudaMalloc", cudaMalloc((void **)&dy, bytes));
    CK("copy to device", cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CK("copy to device", cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
    CK("sl_saxpy", sl_saxpy(a, dx, dy, n));
    CK("synchronise", cudaDeviceSynchronize());
    CK("copy to host", cudaMemcpy(got, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    {
        double max_err = 0;
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            double ref = (double)a * x[i] + y[i], err = fabs(got[i] - ref);
            if (!(err <= 1e-6 + 1e-6 * fabs(ref))) bad++; /* NaN counts as bad */
            if (err > max_err || err != err) max_err = err;
        }
        fprintf(out, "saxpy n=%zu a=%g max_err=%.3g %s\n", n, a, max_err, bad ? "FAILED" : "ok");
        rc = bad ? 1 : 0;
    }
done:
    if (dx) cudaFree(dx);
    if (dy) cudaFree(dy);
    free(x), free(y), free(got);
    return rc;
}

static int run_dot(FILE *out, size_t n, unsigned long long seed)
{
    int rc = 0;
    size_t bytes = (n ? n : 1) * sizeof(float);
    float *x = (float *)malloc(bytes), *y = (float *)malloc(bytes), *dx = NULL, *dy = NULL, *dr = NULL, got = 0;
    if (!x || !y) {
        fprintf(out, "error: out of host memory for n=%zu\n", n);
        rc = 1;
        goto done;
    }
    make_inputs(seed, x, y, n);
    CK("cudaMalloc", cudaMalloc((void **)&dx, bytes));
    CK("cudaMalloc", cudaMalloc((void **)&dy, bytes));
    CK("cudaMalloc", cudaMalloc((void **)&dr, sizeof(float)));
    CK("copy to device", cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CK("copy to device", cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
    CK("sl_dot", sl_dot(dx, dy, n, dr));
    CK("copy to host", cudaMemcpy(&got, dr, sizeof(float), cudaMemcpyDeviceToHost));
    {
        double ref = 0, sq = 0;
        for (size_t i = 0; i < n; i++) {
            double t = (double)x[i] * y[i];
            ref += t;
            sq += t * t;
        }
        double tol = 8 * FLT_EPSILON * sqrt((double)n) * sqrt(sq) + 1e-6 * fabs(ref);
        int ok = fabs(got - ref) <= tol;
        fprintf(out, "dot n=%zu result=%.9g ref=%.9g %s\n", n, got, ref, ok ? "ok" : "FAILED");
        rc = ok ? 0 : 1;
    }
done:
    if (dx) cudaFree(dx);
    if (dy) cudaFree(dy);
    if (dr) cudaFree(dr);
    free(x), free(y);
    return rc;
}
//@starter
//| /* TODO: helpers: an argument error (print "error: ...", the usage line,
//|  * return 2), parsers for N/SEED (digits only) and A (a finite float), and
//|  * the two commands (inputs from the seed with wb_rng_seed and
//|  * wb_fill_uniform_f32, x first then y; the library call; the check against
//|  * a double reference; the result line). */
//@end

int cli_saxpy(int argc, char **argv, FILE *out)
{
    //@solution
    const char *prog = argc > 0 && argv[0] ? argv[0] : "saxpy-cli";
    if (argc < 2) return bad_args(out, prog, "no command");
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
        if (argc != 2) return bad_args(out, prog, "%s takes no arguments", cmd);
        usage(out, prog);
        return 0;
    }
    int is_saxpy = strcmp(cmd, "saxpy") == 0, is_dot = strcmp(cmd, "dot") == 0;
    if (!is_saxpy && !is_dot) return bad_args(out, prog, "unknown command '%s'", cmd);
    int need = is_saxpy ? 4 : 3; /* PROG CMD N [A] */
    if (argc < need) return bad_args(out, prog, "%s: too few arguments", cmd);
    if (argc > need + 1) return bad_args(out, prog, "%s: too many arguments", cmd);
    unsigned long long n = 0, seed = 1;
    float a = 0;
    if (parse_u64(argv[2], &n) || n > ((size_t)1 << 40))
        return bad_args(out, prog, "N must be a non-negative decimal integer (at most 2^40), not '%s'", argv[2]);
    if (is_saxpy && parse_float(argv[3], &a)) return bad_args(out, prog, "A must be a finite number, not '%s'", argv[3]);
    if (argc == need + 1 && parse_u64(argv[need], &seed))
        return bad_args(out, prog, "SEED must be a non-negative decimal integer, not '%s'", argv[need]);
    return is_saxpy ? run_saxpy(out, (size_t)n, a, seed) : run_dot(out, (size_t)n, seed);
    //@starter
    //| /* TODO: see saxpylib.h: validate the arguments, then run the command. */
    //| (void)usage, (void)argc, (void)argv, (void)out;
    //| return 0;
    //@end
}
