/* judge_w36_kernels.h — week 36's own kernels for its judge (judge_w36.c;
 * the shared ones are judge_kernels.h's): every row's max and sum of a
 * timed call's scores, in double, and the full check of its P.
 *
 * A timed call's scores: S[i] = wb_hash_uniform_f32(seed, i, lo, hi)
 * (wb_dfill_uniform_f32's values), batch x rows x cols, z = scale * S
 * rounded once to float, -Inf past the causal mask (smx.h: query i = r %
 * rows keeps keys j <= i + cols - rows), P = exp(z - M) / sum exp(z - M)
 * in double, zeros for a row with nothing kept: the week's test's
 * reference (test_week36.c, sx_expect). */
#ifndef JUDGE_W36_KERNELS_H
#define JUDGE_W36_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned long long seed;
    float              lo, hi, scale;
    int                batch, rows, cols, causal;
} jd36_scores;

/* Doubles of scratch jd36_row_stats needs for this shape. */
size_t jd36_scratch_doubles(const jd36_scores *in);
/* stats[2r] = M, the max of row r's kept z (-Inf when none), stats[2r + 1]
 * = the sum of exp(z - M) over them (0 when none), in double, through
 * scratch (jd36_scratch_doubles); on stream s, not waited for. */
cudaError_t jd36_row_stats(const jd36_scores *in, double *scratch, double *stats, cudaStream_t s);
/* Every P[i] against exp(z - M) / S of its row (stats: jd36_row_stats's,
 * on the device), 0 past the mask and in a row with nothing kept, within
 * atol + rtol |ref| (wb_close's rule): bad[0] how many differ, bad[1] the
 * first (on stream s, not waited for). */
cudaError_t jd36_check(const float *P, const jd36_scores *in, const double *stats, double atol, double rtol,
                       unsigned long long *bad, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
