/* bugs.h — week 02: five functions with one planted bug each, and an error
 * reporter to write. All pointers are device pointers unless said; every
 * function launches on the default stream without waiting and returns the
 * first CUDA error it saw (cudaSuccess if none). */
#ifndef BUGS_H
#define BUGS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HIST_BINS 16    /* bug_histogram counts keys into this many bins */
#define REVERSE_SEG 1024 /* bug_reverse reverses segments of this many elements */

/* y[i] = s * x[i] for i < n; nothing past y[n-1] may be written. */
cudaError_t bug_scale(const float *x, float *y, size_t n, float s);

/* hist[b] = number of i < n with keys[i] % HIST_BINS == b, for every b
 * (hist is overwritten, whatever it held). Counts in shared memory per block. */
cudaError_t bug_histogram(const unsigned *keys, size_t n, unsigned *hist);

/* Reverse x in segments of REVERSE_SEG elements through shared memory: for the
 * segment starting at base with m elements (m = REVERSE_SEG except the last),
 * y[base + t] = x[base + m - 1 - t]. x and y do not overlap. */
cudaError_t bug_reverse(const float *x, float *y, size_t n);

/* y[i] = x[i] / sum(x) (the sum accumulated in double). `work` is a
 * workspace of one double that the caller provides; its content on entry is
 * undefined (the test fills it with NaN), and it may hold anything on return. */
cudaError_t bug_normalise(const float *x, float *y, size_t n, double *work);

/* y[i] = a * x[i] + b, launched with `block` threads per block and
 * `smem_bytes` of dynamic shared memory (knobs a caller might tune). A
 * configuration the device cannot launch must come back as the launch's
 * error (cudaErrorInvalidConfiguration, cudaErrorInvalidValue, ...), never as
 * cudaSuccess. n == 0 launches nothing and returns cudaSuccess. */
cudaError_t bug_affine(const float *x, float *y, size_t n, float a, float b, int block, size_t smem_bytes);

/* Check the most recent kernel launch(es) without exiting:
 *   - e = cudaGetLastError() (this also clears a launch error);
 *   - if e is cudaSuccess and `sync` is non-zero, e = cudaDeviceSynchronize()
 *     (errors of kernels that launched but failed while running);
 *   - on error write "WHAT: NAME: STRING" into msg (WHAT the caller's label,
 *     NAME = cudaGetErrorName(e), STRING = cudaGetErrorString(e)),
 *     on success write "" (when msg is not NULL and msgsz > 0; truncate to fit);
 *   - return e. */
cudaError_t bug_check_launch(const char *what, int sync, char *msg, size_t msgsz);

#ifdef __cplusplus
}
#endif
#endif
