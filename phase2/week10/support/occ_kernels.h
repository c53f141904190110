/* occ_kernels.h — week 10, given (support/occ_kernels.cu): kernels to check
 * the occupancy calculator against the CUDA runtime. */
#ifndef W10_OCC_KERNELS_H
#define W10_OCC_KERNELS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

int occk_count(void);
const char *occk_name(int i);
int occk_opted_in(int i);
cudaError_t occk_attr(int i, struct cudaFuncAttributes *a);
cudaError_t occk_opt_in(int i, int max_dynamic);
cudaError_t occk_max_active(int i, int threads, size_t dynamic_smem, int *blocks);

/* The launch sweep's kernel (support/scale.cu): y = a * x, grid-stride, on
 * exactly `blocks` blocks of `threads`. */
cudaError_t scale_launch(const float *x, float *y, size_t n, float a, int threads, int blocks);
cudaError_t scale_attr(struct cudaFuncAttributes *a);

#ifdef __cplusplus
}
#endif
#endif
