/* softmax.h — week 34: the row softmax of masked attention scores.
 *
 * S holds `rows` rows of L floats, row r at S + r * L (the scores
 * [B, H, L, L] of week 33 are B * H * L such rows). For each row,
 *   P[r][j] = exp(S[r][j] - m) / sum_k exp(S[r][k] - m),  m = max_k S[r][k],
 * with these rules for what a masked score matrix holds:
 *   - -inf is a masked entry: its weight is exactly 0;
 *   - a row of nothing but -inf (every key masked: padding length 0) gives a
 *     row of zeros, not NaN (0/0) and not a uniform 1/L;
 *   - a NaN anywhere in a row makes the whole row NaN.
 * Scores are otherwise finite (+Inf is not a score and is not defined). */
#ifndef W34_SOFTMAX_H
#define W34_SOFTMAX_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* P = softmax of each row of S, on the default stream, without waiting.
 * P == S (in place) is allowed; otherwise they do not overlap. L >= 0
 * (negative: cudaErrorInvalidValue, nothing launched); rows == 0 or L == 0
 * launches nothing. Nothing outside P's rows * L floats is written. Returns
 * the launch's error. */
cudaError_t softmax_scores(const float *S, float *P, size_t rows, int L);

#ifdef __cplusplus
}
#endif
#endif
