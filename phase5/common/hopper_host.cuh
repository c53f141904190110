// hopper_host.cuh — the host side that Phase 5's Hopper GEMMs (weeks 54 and
// 55; phase5/common/, on every phase-5 week's include path) share, given:
//
//   encode_bf16_map   a TMA tensor map over a K-major BF16 matrix, in boxes
//                     of 64 x box_rows with the 128B swizzle
//   zero_c            C = 0, for K == 0 (zero_kernel)
//
// Static functions and a static kernel: every file that includes this
// header gets its own copy, exactly as if it were written in that file
// (week 55's test links week 54's GEMM beside its own, each with its own).
#ifndef PHASE5_HOPPER_HOST_CUH
#define PHASE5_HOPPER_HOST_CUH

#include <cuda.h>          // CUtensorMap and its enums: types only, nothing links libcuda
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

// The box's width along K: 64 BF16 = 128 bytes, the 128B swizzle's span (a
// kernel's BK, which it asserts).
constexpr int BF16_MAP_BOX_K = 64;

// A tensor map over a row-major BF16 matrix of `rows` rows of K elements, in
// boxes of 64 x box_rows with the 128B swizzle and zeros past the edges
// (week 53's rules: base 16-byte aligned, row stride K * 2 a multiple of 16).
// cuTensorMapEncodeTiled comes from the runtime's driver entry point, so
// nothing links -lcuda.
[[maybe_unused]] static cudaError_t encode_bf16_map(CUtensorMap *map, const uint16_t *base, int rows, int K,
                                                    int box_rows)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    if (!encode) {
        void *fn = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found);
        if (e != cudaSuccess) return e;
        if (found != cudaDriverEntryPointSuccess || !fn) return cudaErrorNotSupported;
        encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    }
    const cuuint64_t dims[2] = { (cuuint64_t)K, (cuuint64_t)rows }, strides[1] = { (cuuint64_t)K * 2 };
    const cuuint32_t box[2] = { BF16_MAP_BOX_K, (cuuint32_t)box_rows }, unit[2] = { 1, 1 };
    CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<uint16_t *>(base), dims, strides, box, unit,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// C = 0 where K == 0: rows of N floats, ldc apart.
[[maybe_unused]] static __global__ void zero_kernel(float *C, size_t ldc, int M, int N)
{
    const size_t n = (size_t)M * N;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        C[i / N * ldc + i % N] = 0.f;
}

// zero_kernel on M x N (both > 0), on the default stream; the launch's error.
[[maybe_unused]] static cudaError_t zero_c(float *C, size_t ldc, int M, int N)
{
    const size_t n = (size_t)M * N;
    zero_kernel<<<(unsigned)(n / 256 + 1 < 4096 ? n / 256 + 1 : 4096), 256>>>(C, ldc, M, N);
    return cudaGetLastError();
}

#endif
