/* attention.cu — week 34, exercise 3: naive attention end to end, and the
 * traffic model that says why it is slow.
 *
 * The four steps each make a full pass over the B * H * L * L scores in DRAM
 * (at B 4, H 16, L 4096 that is 4.3 GB a pass), while the inputs and the
 * output are only 4 * B * H * L * D floats (0.54 GB at D 128): the work is
 * O(L^2 D), the traffic O(L^2) where it could be O(L D). */
#include <limits.h>
#include "attention.h"
#include "qkt.h"     /* week 33 */
#include "mask.h"    /* week 33 */
#include "softmax.h"
#include "pv.h"

cublasStatus_t attention(cublasHandle_t h, const float *Q, const float *K, const float *V, float *O, float *work,
                         int B, int H, int L, int D, int causal, const int *kv_len)
{
    /* TODO: refuse bad sizes, then the four steps in order, scores in work:
     * qkt_scores and mask_scores (week 33), softmax_scores in place, pv_output.
     * Return the first failure (a kernel's cudaError_t becomes
     * CUBLAS_STATUS_EXECUTION_FAILED). */
    (void)h, (void)Q, (void)K, (void)V, (void)O, (void)work, (void)B, (void)H, (void)L, (void)D;
    (void)causal, (void)kv_len;
    return CUBLAS_STATUS_NOT_SUPPORTED;
}

double attention_naive_bytes(int B, int H, int L, int D, int causal)
{
    /* TODO: the model in attention.h, step by step, in floats, times 4. Use
     * double throughout: B H L^2 passes 2^31 for real sizes. */
    (void)B, (void)H, (void)L, (void)D, (void)causal;
    return 0.0;
}

double attention_fused_bytes(int B, int H, int L, int D)
{
    /* TODO: read Q, K, V and write O, once each. */
    (void)B, (void)H, (void)L, (void)D;
    return 0.0;
}

double attention_flops(int B, int H, int L, int D)
{
    /* TODO: two GEMMs of 2 L^2 D flops per head. */
    (void)B, (void)H, (void)L, (void)D;
    return 0.0;
}
