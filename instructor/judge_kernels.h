/* judge_kernels.h — kernels of the GPU judges (judge_kernels.cu). */
#ifndef JUDGE_KERNELS_H
#define JUDGE_KERNELS_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dst[r * n + i] = src[r][idx[i]] for r < reps, i < n: every rep's output at the
 * same positions in one launch (src: a device array of reps device pointers; on
 * stream s, not waited for). */
cudaError_t jd_gather_reps_f32(const float *const *src, int reps, const unsigned long long *idx, int n, float *dst,
                               cudaStream_t s);

/* Every c[i] (i < n) compared bit for bit with
 * wb_hash_uniform_f32(sa, i, lo, hi) + wb_hash_uniform_f32(sb, i, lo, hi):
 * bad[0] = how many differ, bad[1] = the first (bad: 2 device words; on
 * stream s, not waited for). */
cudaError_t jd_sum_check_f32(const float *c, size_t n, unsigned long long sa, unsigned long long sb, float lo, float hi,
                             unsigned long long *bad, cudaStream_t s);

/* Every y[i] (i < n) compared with x = wb_hash_uniform_f32(sx, i, lo, hi)
 * after `iters` steps of x = fmaf(x, a, b) (iters 0: a copy of the input),
 * by wb_close's rule (atol + rtol |ref|; NaN only for NaN): bad[0] = how many
 * differ, bad[1] = the first (bad: 2 device words; on stream s, not waited for). */
cudaError_t jd_fma_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, int iters, float a,
                             float b, double atol, double rtol, unsigned long long *bad, cudaStream_t s);

/* Every y[i] (i < n) against week 05's relu(alpha x) (x =
 * wb_hash_uniform_f32(sx, i, lo, hi), the product in float), by wb_close's
 * rule: bad[0] = how many differ, bad[1] = the first (bad: 2 device words; on
 * stream s, not waited for). */
cudaError_t jd_relu_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, float alpha,
                              double atol, double rtol, unsigned long long *bad, cudaStream_t s);

/* Every y[i] (i < n) against week 12's chain relu(a x + b) s (x =
 * wb_hash_uniform_f32(sx, i, lo, hi); a x + b one fused multiply-add, the
 * product with s rounded once, as w12_chain_ref), by wb_close's rule:
 * bad[0] = how many differ, bad[1] = the first (bad: 2 device words; on
 * stream st, not waited for). */
cudaError_t jd_chain_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, float a, float b,
                               float s, double atol, double rtol, unsigned long long *bad, cudaStream_t st);

/* Every y[i] (i < n) against SAXPY's a x + y0 in double, x =
 * wb_hash_uniform_f32(sx, i, lo, hi) and y0 the same of sy: |y[i] - ref| <=
 * atol + rtol |ref|, y[i] finite (inputs finite): bad[0] = how many differ,
 * bad[1] = the first (bad: 2 device words; on stream s, not waited for). */
cudaError_t jd_saxpy_check_f32(const float *y, size_t n, unsigned long long sx, unsigned long long sy, float lo,
                               float hi, float a, double atol, double rtol, unsigned long long *bad, cudaStream_t s);

/* Every y[i] (i < n) compared bit for bit with wb_hash_uniform_f32(sx, (i % R) * S + i / R, lo, hi): the
 * transpose of a rows = R by cols = S matrix, or week 06's strided copy's gather (R = n / s, S = s).
 * bad[0] = how many differ, bad[1] = the first (bad: 2 device words; on stream st, not waited for). */
cudaError_t jd_perm_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, size_t R, size_t S,
                              unsigned long long *bad, cudaStream_t st);

/* Every out[i] (i < rows x cols) of week 11's polyt: out[c * rows + r]
 * against p(x) in double, x = wb_hash_uniform_f32(sx, r * cols + c, lo, hi)
 * and p's 16 coefficients coef (host floats; Horner's rule in double, as
 * w11_poly_ref): |out[i] - ref| <= atol + rtol |ref|, out[i] finite (inputs
 * finite): bad[0] = how many differ, bad[1] = the first (bad: 2 device
 * words; on stream s, not waited for). */
cudaError_t jd_polyt_check_f32(const float *out, int rows, int cols, unsigned long long sx, float lo, float hi,
                               const float coef[16], double atol, double rtol, unsigned long long *bad,
                               cudaStream_t s);

/* *out (one device double) = the sum over i < n of wb_hash_uniform_f32(seed,
 * i, lo, hi), in double: the sum of what wb_dfill_uniform_f32 wrote (on
 * stream s, not waited for). */
cudaError_t jd_hash_sum_f64(size_t n, unsigned long long seed, float lo, float hi, double *out, cudaStream_t s);

/* Random bytes and keys for inputs that are not floats, from the same hash
 * as wb_hash_uniform_f32 (its 64 bits z of (seed, i)), and what they count
 * to, computed from the seed (on stream s, not waited for):
 *   jd_hash_bytes: d[i] = z >> 56, i < n;
 *   jd_hash_bytes_hist: bins[0..256) (device) = the counts of those bytes;
 *   jd_hash_keys: d[i] = (z >> 16) % nkeys, or, one key in 65536 (z >> 48
 *     == 0), nkeys + (z & 255): out of range;
 *   jd_hash_keys_in_range: *count (one device word) = how many are below nkeys. */
cudaError_t jd_hash_bytes(unsigned char *d, size_t n, unsigned long long seed, cudaStream_t s);
cudaError_t jd_hash_bytes_hist(size_t n, unsigned long long seed, unsigned int *bins, cudaStream_t s);
cudaError_t jd_hash_keys(unsigned *d, size_t n, unsigned long long seed, unsigned nkeys, cudaStream_t s);
cudaError_t jd_hash_keys_in_range(size_t n, unsigned long long seed, unsigned nkeys, unsigned long long *count,
                                  cudaStream_t s);

/* ref[0..n) (device doubles) = the inclusive prefix sums, in double, of
 * wb_hash_uniform_f32(seed, i, lo, hi): what a scan of wb_dfill_uniform_f32's
 * floats must give (on stream s; waited for: a step runs on the host). */
cudaError_t jd_hash_prefix_f64(size_t n, unsigned long long seed, float lo, float hi, double *ref, cudaStream_t s);
/* Every y[i] (i < n) finite and within atol + rtol |ref[i]| of ref[i]:
 * bad[0] = how many are not, bad[1] = the first (bad: 2 device words; on
 * stream s, not waited for). */
cudaError_t jd_prefix_check_f32(const float *y, const double *ref, size_t n, double atol, double rtol,
                                unsigned long long *bad, cudaStream_t s);

/* Week 15's timed outputs, every element against its reference in double
 * from the inputs' seeds (wb_hash_uniform_f32), by wb_close's rule (atol +
 * rtol |ref|; the references are finite, so a NaN or an Inf is wrong):
 * bad[0] = how many differ, bad[1] = the first (bad: 2 device words; on
 * stream st, not waited for).
 *   jd_hash_sumsq_f64: *out (one device double) = the sum of squares of
 *     wb_hash_uniform_f32(seed, i, lo, hi), i < n (the L2 norm's square);
 *   jd_gelu_check_f32: y = r + s gelu(x + bias[i % cols]), x from sx in
 *     [xlo, xhi), bias from sb and r from sr in [lo, hi) (the tanh form);
 *   jd_softmax_check_f32: row softmax of rows x cols x from sx in [lo, hi);
 *   jd_smooth_check_f32: y[i] = 0.25 t[i-1] + 0.5 t[i] + 0.25 t[i+1], t =
 *     exp(-x^2), 0 outside [0, n);
 *   jd_scale_check_f32: y = x / sqrt(*sumsq) (sumsq: one device double);
 *   jd_gemm_check_f32: C = A B (M x K by K x N, row-major, from sa and sb),
 *     or relu(A B + bias[col]) (bias from sbias) when bias_relu. */
cudaError_t jd_hash_sumsq_f64(size_t n, unsigned long long seed, float lo, float hi, double *out, cudaStream_t s);
cudaError_t jd_gelu_check_f32(const float *y, size_t n, int cols, unsigned long long sx, float xlo, float xhi,
                              unsigned long long sb, unsigned long long sr, float lo, float hi, float s, double atol,
                              double rtol, unsigned long long *bad, cudaStream_t st);
cudaError_t jd_softmax_check_f32(const float *y, int rows, int cols, unsigned long long sx, float lo, float hi,
                                 double atol, double rtol, unsigned long long *bad, cudaStream_t st);
cudaError_t jd_smooth_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, double atol,
                                double rtol, unsigned long long *bad, cudaStream_t st);
cudaError_t jd_scale_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, const double *sumsq,
                               double atol, double rtol, unsigned long long *bad, cudaStream_t st);
cudaError_t jd_gemm_check_f32(const float *C, int M, int N, int K, unsigned long long sa, unsigned long long sb,
                              unsigned long long sbias, float lo, float hi, int bias_relu, double atol, double rtol,
                              unsigned long long *bad, cudaStream_t st);
/* Week 13's scan (on stream s; jd_hash_prefix_u32 waits, the others do not):
 *   jd_hash_u32: d[i] = the hash's 64 bits z of (seed, i) >> (64 - bits),
 *     i < n, bits 1 .. 32 (4: values in [0, 16));
 *   jd_hash_prefix_u32: ref[0..n) (device) = the inclusive prefix sums of
 *     those words modulo 2^32 (what an int32 scan of them must give);
 *   jd_u32_check: every y[i] (i < n) against ref[i] bit for bit: bad[0] = how
 *     many differ, bad[1] = the first (bad: 2 device words). */
cudaError_t jd_hash_u32(unsigned *d, size_t n, unsigned long long seed, unsigned bits, cudaStream_t s);
cudaError_t jd_hash_prefix_u32(size_t n, unsigned long long seed, unsigned bits, unsigned *ref, cudaStream_t s);
cudaError_t jd_u32_check(const unsigned *y, const unsigned *ref, size_t n, unsigned long long *bad, cudaStream_t s);

/* Week 13's row sums and GEMV: every y[r] (r < rows) finite and within atol
 * + rtol |ref| of ref, the double sum over c < cols of a =
 * wb_hash_uniform_f32(sa, r * cols + c, lo, hi) (a row-major matrix as
 * wb_dfill_uniform_f32 fills it), each times wb_hash_uniform_f32(sx, c, lo,
 * hi) where has_x (y = A x): bad[0] = how many are not, bad[1] = the first
 * (bad: 2 device words; on stream s, not waited for). */
cudaError_t jd_rowdot_check_f32(const float *y, size_t rows, size_t cols, unsigned long long sa, unsigned long long sx,
                                int has_x, float lo, float hi, double atol, double rtol, unsigned long long *bad,
                                cudaStream_t s);

/* The HGEMM weeks' inputs (weeks 25 and 26): d[i] (i < n) = the half
 * nearest wb_hash_uniform_f32(seed, i, lo, hi), rounded to nearest even (as
 * the tests' fill_half_uniform), stored as `as` says: JD_HALF_BITS its bits
 * (uint16_t), JD_HALF_F32 its value as a float, JD_HALF_F64 as a double (on
 * stream s, not waited for). */
enum { JD_HALF_BITS = 0, JD_HALF_F32 = 1, JD_HALF_F64 = 2 };
cudaError_t jd_hash_half(void *d, int as, size_t n, unsigned long long seed, float lo, float hi, cudaStream_t s);

/* Week 28's epilogue on a reference product (device doubles, M x N
 * row-major, n = M N), in place: ref[i] = act(ref[i] + bias[i % N]) in
 * double, bias[c] = wb_hash_uniform_f32(sbias, c, lo, hi) when has_bias; act
 * 0 none, 1 ReLU (v < 0 ? 0 : v), 2 GELU (tanh form) (on stream s, not
 * waited for). */
cudaError_t jd_bias_act_f64(double *ref, size_t n, size_t N, unsigned long long sbias, int has_bias, float lo, float hi,
                            int act, cudaStream_t s);

/* d[i] = (double)wb_hash_uniform_f32(seed, i, lo, hi), i < n: what
 * wb_dfill_uniform_f32 writes, widened to double (phase 5's SGEMM judges'
 * cublasDgemm reference; on stream s, not waited for). */
cudaError_t jd_hash_fill_f64(double *d, size_t n, unsigned long long seed, float lo, float hi, cudaStream_t s);

/* Week 19's stencil: every y[i] (i < nx ny nz) against one 7-point sweep
 * (boundary copied; interior c0 x + c1 x the six neighbours, in double) of
 * x = wb_hash_uniform_f32(sx, i, lo, hi), by wb_close(atol, rtol) (on
 * stream s, not waited for). */
cudaError_t jd_stencil_check_f32(const float *y, size_t nx, size_t ny, size_t nz, unsigned long long sx, float lo,
                                 float hi, double c0, double c1, double atol, double rtol, unsigned long long *bad,
                                 cudaStream_t s);
/* Week 19's accelerations: acc (3n floats) against the double sums over
 * the n bodies pos (4n floats, x y z m, 16-byte aligned; device), each
 * component within tmul S_i (S_i: the sum of the terms' magnitudes, as
 * test_week19.c's check_acc); bad[0] wrong bodies, bad[1] the first (on
 * stream s, not waited for). */
cudaError_t jd_nbody_check_f32(const float *acc, const float *pos, int n, double eps2, double tmul,
                               unsigned long long *bad, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
