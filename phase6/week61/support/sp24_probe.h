/* sp24_probe.h — week 61's given probes (no exercise): what the tensor
 * cores do with mma.sp, measured apart from any GEMM. */
#ifndef SP24_PROBE_H
#define SP24_PROBE_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 by one warp,
 * every register given: lane l's A registers are a[4l .. 4l+3], its B
 * registers b[4l .. 4l+3], its metadata register e[l]; sel (0 or 1) is
 * the sparsity selector; C is zero; lane l's four accumulators come back in
 * d[4l .. 4l+3]. Device pointers. The test builds the registers from a
 * matrix by the PTX ISA's fragment layouts and checks D, so that a wrong
 * idea of the metadata layout is found here, apart from any kernel. */
cudaError_t sp24_probe_one(const uint32_t *a, const uint32_t *b, const uint32_t *e, int sel, float *d);

/* The tensor cores' rate for week 26's warp tile (64 x 64: 4 x 8 mma tiles
 * a k-step), with nothing else in the loop: `blocks` blocks of 8 warps,
 * each warp `iters` k-steps of 32 mmas. sparse = 0: mma.sync m16n8k16 (a
 * k-step is 16 k); 1: mma.sp m16n8k32 (32 k, the same 32 instructions).
 * from_smem = 0: the fragments stay in registers; 1: every k-step loads
 * them from shared memory with ldmatrix.x4 as a GEMM's mainloop does
 * (dense: 4 for A, 4 for B; sparse: 4 for A, 8 for B, and one metadata word
 * an m16 tile every other step), conflict-free. Every A and B element is
 * 2^-4, so each accumulator gains 2^-4 a k-step in both forms: thread i of
 * the grid writes out[i] = the sum of its 128, 8 * iters exactly. Default
 * stream, no wait. Needs compute capability 8.0. */
cudaError_t sp24_probe_mma(int sparse, int from_smem, int blocks, int iters, float *out);

#ifdef __cplusplus
}
#endif
#endif
