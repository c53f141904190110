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

//@solution
using Gemm = cutlass::gemm::device::Gemm<
    cutlass::half_t, cutlass::layout::RowMajor,              /* A */
    cutlass::half_t, cutlass::layout::RowMajor,              /* B */
    float, cutlass::layout::RowMajor,                        /* C */
    float,                                                   /* accumulator */
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,     /* mma.sync + cp.async */
    cutlass::gemm::GemmShape<128, 256, 32>,                  /* threadblock tile */
    cutlass::gemm::GemmShape<64, 64, 32>,                    /* warp tile */
    cutlass::gemm::GemmShape<16, 8, 16>,                     /* instruction */
    cutlass::epilogue::thread::LinearCombination<float, 4, float, float>, /* D = alpha*acc + beta*C, 4 a store */
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;     /* scheduler, stages */

/* dst (rows x cols_p) = src (rows x cols), columns padded with zeros. */
static __global__ void pad_cols(const __half *src, int rows, int cols, __half *dst, int cols_p)
{
    size_t n = (size_t)rows * cols_p, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int r = (int)(i / cols_p), c = (int)(i % cols_p);
        dst[i] = c < cols ? src[(size_t)r * cols + c] : __float2half(0.f);
    }
}

static unsigned grid_for(size_t n) { size_t b = (n + 255) / 256; return (unsigned)(b < 65535u * 16u ? b : 65535u * 16u); }

static cudaError_t run_cutlass(const __half *A, const __half *B, float *C, int M, int N, int K, int ldc)
{
    Gemm::Arguments args({ M, N, K }, { (const cutlass::half_t *)A, K }, { (const cutlass::half_t *)B, N },
                         { C, ldc }, { C, ldc }, { 1.0f, 0.0f });
    Gemm gemm;
    if (gemm.can_implement(args) != cutlass::Status::kSuccess) return cudaErrorInvalidValue;
    cutlass::Status st = gemm(args, nullptr, 0); /* no workspace without split-K; stream 0 */
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    return st == cutlass::Status::kSuccess ? cudaSuccess : cudaErrorInvalidValue;
}
//@starter
//| /* TODO: declare `using Gemm = cutlass::gemm::device::Gemm<...>;` with half
//|  * (cutlass::half_t) row-major A and B, float row-major C, float
//|  * accumulation, OpClassTensorOp on Sm80, and run it:
//|  *   Gemm::Arguments args({M, N, K}, {A, lda}, {B, ldb}, {C, ldc}, {C, ldc}, {1.f, 0.f});
//|  *   Gemm gemm; gemm.can_implement(args); gemm(args);
//|  * Its 128-bit loads need K and N to be multiples of 8: pad other shapes.
//|  * They also need A, B and C 16-byte aligned, which can_implement() does not
//|  * check reliably: test the pointers yourself, and copy through aligned
//|  * scratch buffers when they are not. */
//@end

cudaError_t cutlass_hgemm(const uint16_t *A_, const uint16_t *B_, float *C, int M, int N, int K)
{
    //@solution
    const __half *A = (const __half *)A_, *B = (const __half *)B_;
    if (M < 0 || N < 0 || K < 0) return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    if (K == 0) return cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float));
    /* 16 bytes, every pointer: can_implement() would let a 4-byte aligned C through. */
    bool aligned = (((uintptr_t)A | (uintptr_t)B | (uintptr_t)C) & 15) == 0;
    if (K % 8 == 0 && N % 8 == 0 && aligned) return run_cutlass(A, B, C, M, N, K, N);
    /* Pad K (A's columns, B's rows) and N (B's and C's columns) to multiples of 8. */
    int Kp = (K + 7) / 8 * 8, Np = (N + 7) / 8 * 8;
    __half *Ap = NULL, *Bp = NULL;
    float *Cp = NULL;
    cudaError_t e;
    if ((e = cudaMallocAsync((void **)&Ap, (size_t)M * Kp * 2, 0)) != cudaSuccess) return e;
    if ((e = cudaMallocAsync((void **)&Bp, (size_t)Kp * Np * 2, 0)) != cudaSuccess) return e;
    if ((e = cudaMallocAsync((void **)&Cp, (size_t)M * Np * 4, 0)) != cudaSuccess) return e;
    pad_cols<<<grid_for((size_t)M * Kp), 256>>>(A, M, K, Ap, Kp);
    e = cudaMemsetAsync(Bp, 0, (size_t)Kp * Np * 2);
    if (e == cudaSuccess) pad_cols<<<grid_for((size_t)K * Np), 256>>>(B, K, N, Bp, Np);
    if (e == cudaSuccess) e = cudaGetLastError();
    if (e == cudaSuccess) e = run_cutlass(Ap, Bp, Cp, M, Np, Kp, Np);
    if (e == cudaSuccess) e = cudaMemcpy2DAsync(C, (size_t)N * 4, Cp, (size_t)Np * 4, (size_t)N * 4, M,
                                                cudaMemcpyDeviceToDevice, 0);
    cudaFreeAsync(Ap, 0), cudaFreeAsync(Bp, 0), cudaFreeAsync(Cp, 0);
    return e;
    //@starter
    //| (void)A_, (void)B_, (void)C, (void)M, (void)N, (void)K;
    //| return cudaSuccess;
    //@end
}
