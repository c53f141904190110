/* saxpylib.h — week 04: a small library with a C API (saxpy and dot), and the
 * command-line front end built on it.
 *
 * The API follows the conventions of the libraries it imitates (cuBLAS, CUB):
 * device pointers in, work enqueued on the default stream, no hidden
 * synchronisation, and every function returns a cudaError_t instead of
 * printing or exiting. */
#ifndef SAXPYLIB_H
#define SAXPYLIB_H

#include <stddef.h>
#include <stdio.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = a * x[i] + y[i] for i < n. x and y are device pointers with any
 * float alignment, not overlapping; nothing past y[n-1] is written. */
cudaError_t sl_saxpy(float a, const float *x, float *y, size_t n);

/* *result = sum over i < n of x[i] * y[i], accumulated in float. `result` is
 * a device pointer to one float; it is overwritten (0 when n == 0). x and y
 * are device pointers with any float alignment. Asynchronous: read *result
 * after a synchronisation.
 * Accuracy: |*result - exact| <= 8 * FLT_EPSILON * sqrt(n) * sqrt(sum (x[i] y[i])^2)
 *                                 + 1e-6 * |exact|. */
cudaError_t sl_dot(const float *x, const float *y, size_t n, float *result);

/* The command-line program, as a function: main(argc, argv) of a real
 * executable is one line, `return cli_saxpy(argc, argv, stdout);`
 * (cli_main.c). argv[0] is the program's name; everything is printed to out.
 *
 *   PROG saxpy N A [SEED]   y = A*x + y on N floats, x and y uniform in [-1, 1)
 *                           drawn on the host from SEED (default 1); checks
 *                           every element against a double reference and prints
 *                           "saxpy n=N a=A max_err=E ok" (or FAILED instead of ok)
 *   PROG dot N [SEED]       the dot product of two such vectors; prints
 *                           "dot n=N result=R ref=F ok" (or FAILED), R the GPU's,
 *                           F the double reference, ok when within sl_dot's accuracy
 *   PROG -h | --help        prints the usage line
 *
 * N is printed as a decimal integer, A with %g, E with %.3g, R and F with %.9g.
 * Returns 0 (ok, or help), 1 (a result FAILED or a CUDA error, reported as
 * "error: ..."), 2 (bad arguments). Bad arguments: no command, an unknown
 * command, too few or too many arguments, N or SEED not a decimal integer
 * (digits only, no sign), A not a finite number; they print "error: WHAT"
 * and then the usage line
 *   "usage: PROG saxpy N A [SEED] | PROG dot N [SEED] | PROG --help"
 * and never touch the GPU. */
int cli_saxpy(int argc, char **argv, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
