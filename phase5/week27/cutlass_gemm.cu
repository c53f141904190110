/* cutlass_gemm.cu — week 27: CUTLASS 2.x's device-level GEMM as a library.
 *
 * cutlass::gemm::device::Gemm is one template with the same parts as your
 * kernel: the element types and layouts of A, B, C; the accumulator type;
 * the operator class (tensor cores) and the architecture whose instructions
 * to use (Sm80: mma.sync + cp.async, which Hopper runs too); the threadblock,
 * warp and instruction tile shapes; the epilogue functor; the tile scheduler
 * (swizzle); and the number of pipeline stages.
 *
 * Its loads and stores are 128-bit: rows of A and B must start on 8-half
 * boundaries, so K and N must be multiples of 8 (and C's rows 4-float
 * aligned), and A, B and C must themselves be 16-byte aligned. Other shapes
 * and pointers are copied into buffers padded to that alignment first. The
 * pointers are checked here, not left to can_implement(): CUTLASS 2.x's
 * TensorRef_aligned tests the byte address against the alignment counted in
 * elements (8 for half, 4 for float), so it passes a C only 4-byte aligned
 * and the kernel would then fault on a misaligned 128-bit store. */
#include <cuda_fp16.h>
#include <cutlass/cutlass.h>
#include <cutlass/gemm/device/gemm.h>
#include "cutlass_gemm.h"

/* TODO: declare `using Gemm = cutlass::gemm::device::Gemm<...>;` with half
 * (cutlass::half_t) row-major A and B, float row-major C, float
 * accumulation, OpClassTensorOp on Sm80, and run it:
 *   Gemm::Arguments args({M, N, K}, {A, lda}, {B, ldb}, {C, ldc}, {C, ldc}, {1.f, 0.f});
 *   Gemm gemm; gemm.can_implement(args); gemm(args);
 * Its 128-bit loads need K and N to be multiples of 8: pad other shapes.
 * They also need A, B and C 16-byte aligned, which can_implement() does not
 * check reliably: test the pointers yourself, and copy through aligned
 * scratch buffers when they are not. */

cudaError_t cutlass_hgemm(const uint16_t *A_, const uint16_t *B_, float *C, int M, int N, int K)
{
    (void)A_, (void)B_, (void)C, (void)M, (void)N, (void)K;
    return cudaSuccess;
}
