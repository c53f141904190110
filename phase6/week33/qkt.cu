/* qkt.cu — week 33, exercise 1: S = Q K^T / sqrt(D) for B * H heads in one
 * strided-batched GEMM.
 *
 * cuBLAS stores matrices by columns. A row-major r x c matrix with leading
 * dimension ld, read by columns, is its c x r transpose with the same ld. For
 * one head, row-major S (L x L) = Q (L x D) K^T, so column-major
 * S^T = K Q^T (the product's transpose, operands swapped):
 *   - A = K: stored row-major L x D, read by columns it is K^T (D x L, ld D);
 *     we need K itself, so op(A) = CUBLAS_OP_T, lda = D;
 *   - B = Q: read by columns it is Q^T (D x L, ld D), which is what we need,
 *     so op(B) = CUBLAS_OP_N, ldb = D;
 *   - C = S: S^T column-major with ldc = L is S row-major: m = n = L, k = D.
 * Consecutive heads are L * D floats apart in Q and K and L * L in S: the
 * strides of one cublasSgemmStridedBatched call of batch B * H. The scale is
 * the GEMM's alpha, so it costs nothing. */
#include <limits.h>
#include <math.h>
#include "qkt.h"

cublasStatus_t qkt_scores(cublasHandle_t h, const float *Q, const float *K, float *S, int B, int H, int L, int D)
{
    /* TODO: refuse bad sizes (CUBLAS_STATUS_INVALID_VALUE), return early when
     * there is nothing to do, then make one cublasSgemmStridedBatched call.
     * Work out the column-major view first (the comment at the top of this
     * file, and week 14's blas_gemm_strided): which operand goes first, which
     * one is transposed, the leading dimensions and the strides (long long).
     * alpha = 1.0f / sqrtf((float)D), beta = 0. */
    (void)h, (void)Q, (void)K, (void)S, (void)B, (void)H, (void)L, (void)D;
    return CUBLAS_STATUS_NOT_SUPPORTED;
}
