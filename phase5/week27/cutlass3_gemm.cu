/* cutlass3_gemm.cu — week 27: the same GEMM through CUTLASS 3's Hopper kernel.
 *
 * CUTLASS 3 builds a GEMM from two collectives, each chosen by a builder:
 * the mainloop (how A and B reach the tensor cores: TMA into swizzled shared
 * memory, an mbarrier pipeline of `stages` k-tiles, wgmma reading both
 * operands from shared memory) and the epilogue (how the accumulators reach
 * C: through shared memory and a TMA store). GemmUniversal puts the two into
 * one warp-specialised, persistent kernel (a producer warp issues the TMA
 * loads; consumer warpgroups run wgmma and the epilogue; every CTA loops over
 * output tiles), and GemmUniversalAdapter is its host side: can_implement,
 * workspace, the TMA descriptors, the cluster launch.
 *
 * TMA describes each matrix to the hardware as a tensor whose rows start on
 * 16-byte boundaries: with row-major half A (M x K) and B (K x N), K and N
 * must be multiples of 8; can_implement() says no otherwise, and this file
 * refuses those shapes (cudaErrorInvalidValue) instead of padding them. The
 * base pointers must be 16-byte aligned too, which can_implement() cannot
 * see: unaligned A, B or C go through aligned scratch copies.
 *
 * wgmma and TMA exist only in sm_90a code (week.txt: nvflags), and that code
 * runs only on compute capability 9.0: elsewhere cudaErrorNotSupported. */
/* CUTLASS's device-side asserts are function calls, and a call inside the
 * mainloop makes ptxas serialise every wgmma (warning C7510): off here. */
#ifndef NDEBUG
#define NDEBUG
#endif
#include <cuda_fp16.h>
#include <cutlass/cutlass.h>
#include <cute/tensor.hpp>
#include <cutlass/gemm/dispatch_policy.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/kernel/gemm_universal.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include "cutlass3_gemm.h"

/* TODO: build the Hopper GEMM from CUTLASS 3's builders:
 *   using CollectiveEpilogue = cutlass::epilogue::collective::CollectiveBuilder<Sm90,
 *       OpClassTensorOp, TileShape, ClusterShape, EpilogueTileAuto, float, float,
 *       void, RowMajor, 4, float, RowMajor, 4, EpilogueSchedule>::CollectiveOp;
 *   using CollectiveMainloop = cutlass::gemm::collective::CollectiveBuilder<Sm90,
 *       OpClassTensorOp, half_t, RowMajor, 8, half_t, RowMajor, 8, float,
 *       TileShape, ClusterShape, StageCount..., KernelSchedule>::CollectiveOp;
 *   using Gemm = GemmUniversalAdapter<GemmUniversal<Shape<int,int,int,int>, mainloop, epilogue>>;
 * choosing TileShape, ClusterShape, the kernel and epilogue schedules and
 * the stage count. Then:
 *   shape_ok: Gemm::can_implement() of the Arguments {kGemm, {M, N, K, 1},
 *     {A, strideA, B, strideB}, {{1, 0}, nullptr, strideC, C, strideD}}
 *     (CuTe strides (row, column, batch) with cute::_1 where contiguous:
 *     A (K, _1, M*K), B seen as N x K (_1, N, N*K), C and D (N, _1, M*N));
 *   run_sm90: the same Arguments (hw_info.sm_count = sms), the workspace,
 *     gemm.initialize(args, workspace, 0), gemm.run(0). */
static bool shape_ok(int M, int N, int K)
{
    (void)M, (void)N, (void)K;
    return false;
}

static cudaError_t run_sm90(const __half *A, const __half *B, float *C, int M, int N, int K, int sms)
{
    (void)A, (void)B, (void)C, (void)M, (void)N, (void)K, (void)sms;
    return cudaErrorNotSupported;
}

/* Which code the driver loaded for this file: the sm_90a cubin (wgmma, TMA)
 * or code built for another architecture, in which CUTLASS compiles the
 * kernel body away. */
static __global__ void which_build(int *is_sm90a)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    *is_sm90a = 1;
#else
    *is_sm90a = 0;
#endif
}

/* SMs of the current device when it is a compute capability 9.0 GPU running
 * this file's sm_90a code, else 0 (asked once per device, then remembered). */
static int sm90a_sms(void)
{
    static int known[64], sms[64];
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) return 0;
    if (known[dev]) return sms[dev];
    int major = 0, minor = 0, n = 0, flag = 0, *d = NULL;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev);
    if (major == 9 && minor == 0 && cudaMalloc((void **)&d, sizeof(int)) == cudaSuccess) {
        which_build<<<1, 1>>>(d);
        if (cudaMemcpy(&flag, d, sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) flag = 0;
        cudaFree(d);
    }
    cudaGetLastError(); /* a failed probe is an answer, not an error for the caller */
    sms[dev] = flag ? n : 0, known[dev] = 1;
    return sms[dev];
}

static bool aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

cudaError_t cutlass3_hgemm(const uint16_t *A_, const uint16_t *B_, float *C, int M, int N, int K)
{
    const __half *A = (const __half *)A_, *B = (const __half *)B_;
    if (M < 0 || N < 0 || K < 0 || !shape_ok(M, N, K)) return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    int sms = sm90a_sms();
    if (sms == 0) return cudaErrorNotSupported;
    if (K == 0) return cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float));
    if (aligned16(A) && aligned16(B) && aligned16(C)) return run_sm90(A, B, C, M, N, K, sms);
    /* TMA reads and writes whole 16-byte groups from the base pointers:
     * copy what is not aligned into scratch buffers (cudaMallocAsync's are). */
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    __half *As = NULL, *Bs = NULL;
    float *Cs = NULL;
    cudaError_t e = cudaSuccess;
    if (!aligned16(A) && (e = cudaMallocAsync((void **)&As, na * 2, 0)) == cudaSuccess)
        e = cudaMemcpyAsync(As, A, na * 2, cudaMemcpyDeviceToDevice, 0);
    if (e == cudaSuccess && !aligned16(B) && (e = cudaMallocAsync((void **)&Bs, nb * 2, 0)) == cudaSuccess)
        e = cudaMemcpyAsync(Bs, B, nb * 2, cudaMemcpyDeviceToDevice, 0);
    if (e == cudaSuccess && !aligned16(C)) e = cudaMallocAsync((void **)&Cs, nc * 4, 0);
    if (e == cudaSuccess) e = run_sm90(As ? As : A, Bs ? Bs : B, Cs ? Cs : C, M, N, K, sms);
    if (e == cudaSuccess && Cs) e = cudaMemcpyAsync(C, Cs, nc * 4, cudaMemcpyDeviceToDevice, 0);
    if (As) cudaFreeAsync(As, 0);
    if (Bs) cudaFreeAsync(Bs, 0);
    if (Cs) cudaFreeAsync(Cs, 0);
    return e;
}
