/* mask.h — week 33: the causal and padding masks of attention, applied in
 * place to the scores S [B, H, L, L] that qkt_scores wrote (layout in qkt.h).
 *
 * Entry (b, h, i, j) (query i, key j) is masked when
 *   causal != 0 and j > i          (a query never sees a later key), or
 *   kv_len != NULL and j >= kv_len[b]  (keys past batch b's valid length are padding).
 * A masked entry becomes exactly -INFINITY (bits 0xff800000), whatever it
 * held: softmax then gives it weight exp(-inf) = 0 exactly, where a "large
 * negative" such as -1e9 would leave exp(-1e9 - max) = 0 only by underflow
 * and would turn a row of nothing but masked entries into a uniform one.
 * Every entry not masked is left as it is, bit for bit (NaN and Inf too). */
#ifndef W33_MASK_H
#define W33_MASK_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Apply the masks to S in place, on the default stream, without waiting.
 * kv_len: NULL (no padding mask) or a device array of B ints; a length <= 0
 * masks every key of its batch, a length >= L none. causal == 0 and kv_len
 * == NULL: nothing to do. B, H, L >= 0 (a negative one: cudaErrorInvalidValue,
 * nothing launched); B * H * L == 0 launches nothing. Returns the launch's
 * error (cudaSuccess if none). */
cudaError_t mask_scores(float *S, int B, int H, int L, int causal, const int *kv_len);

#ifdef __cplusplus
}
#endif
#endif
