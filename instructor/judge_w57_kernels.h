/* judge_w57_kernels.h — week 57's judge's own kernels (judge_w57_kernels.cu),
 * linked into judge-w57 alone: the paged decode attention reference in
 * double on the GPU (one warp a query head of a sequence), its check of
 * every element of a timed output, and its values at the look's positions. */
#ifndef JUDGE_W57_KERNELS_H
#define JUDGE_W57_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A paged decode batch in device memory the runner cannot reach: q (batch x
 * Hq x D bf16), k and v (blocks x kvh x bs x D bf16), tab (batch x maxb
 * int32), lens (batch int32); query head h reads KV head h / (Hq / kvh). */
typedef struct {
    const uint16_t *q, *k, *v;
    const int32_t  *tab, *lens;
    int             batch, Hq, kvh, D, bs, maxb;
    double          scale;
} jd_w57_batch;

/* Every element of out (bf16, batch x Hq x D) against softmax(scale q K^T) V
 * in double over the sequence's gathered rows (zeros for a length 0):
 * |got - ref| <= atol + rtol |ref|, NaN never passing. bad[0]: the wrong
 * elements, bad[1]: the first (set here before the launch). D 64 or 128. */
cudaError_t jd_w57_check(const jd_w57_batch *B, const uint16_t *out, double atol, double rtol, unsigned long long *bad,
                         cudaStream_t st);

/* The reference at npos positions idx[] of the output's 4-byte words (its
 * bf16 pairs): the value of the word's second element (the upper half,
 * which read as a float is that bf16 and a few low bits more); NaN for a
 * word past the output. out[j] for idx[j]. */
cudaError_t jd_w57_at(const jd_w57_batch *B, const unsigned long long *idx, int npos, float *out, cudaStream_t st);

#ifdef __cplusplus
}
#endif
#endif
