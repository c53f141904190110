/* judge_bf16gemm_kernels.h — the BF16 GEMM judges' own kernel
 * (judge_bf16gemm_kernels.cu), linked into judge-w54 and judge-w55 alone. */
#ifndef JUDGE_BF16GEMM_KERNELS_H
#define JUDGE_BF16GEMM_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* d[i] = the value of the BF16 bit pattern h[i], as a double (exact), i < n
 * (on stream s, not waited for). */
cudaError_t jd_bf16_to_f64(const uint16_t *h, double *d, size_t n, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
