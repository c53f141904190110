// clip_probe.cu — week 53, given: the minimal reproducer of a TMA store's
// clipping at a tensor's edge. One CTA, one thread: a box of 8 floats
// (1, 2, ..., 8) in shared memory stored by cp.async.bulk.tensor to column
// 0 of a tensor whose inner extent is `extent` floats, over a row of 8
// floats set to -1. Clipped by element, the first `extent` floats change;
// clipped by 16-byte unit, the first extent rounded up to 4 do.
//
// sm_90a code, like the week's exercises.
#include <cuda.h>          // CUtensorMap and its enums: types only
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "tma_ptx.h"
#include "clip_probe.h"

namespace {

__global__ void clip_probe_kernel(const __grid_constant__ CUtensorMap map)
{
    __shared__ alignas(128) float box[CLIP_PROBE_ROW];
    if (threadIdx.x) return;
    for (int i = 0; i < CLIP_PROBE_ROW; ++i) box[i] = (float)(i + 1);
    fence_proxy_async_smem();  // the generic proxy's writes before the async proxy reads them
    tma_store_2d(&map, smem_u32(box), 0, 0);
    bulk_commit();
    bulk_wait<0>();
}

int fail(cudaError_t e, const char *what, char *why)
{
    snprintf(why, 160, "%s: %s", what, cudaGetErrorString(e));
    return (int)e;
}

}  // namespace

extern "C" int clip_probe_run(int extent, float row[CLIP_PROBE_ROW], char why[160])
{
    why[0] = 0;
    if (extent < 1 || extent > CLIP_PROBE_ROW) {
        snprintf(why, 160, "extent %d outside 1..%d", extent, CLIP_PROBE_ROW);
        return (int)cudaErrorInvalidValue;
    }
    cudaError_t e = cudaSuccess;
    PFN_cuTensorMapEncodeTiled_v12000 encode = encode_tiled_fn(&e);
    if (!encode) return fail(e, "cuTensorMapEncodeTiled", why);
    float *d = nullptr;
    if ((e = cudaMalloc(&d, 2 * CLIP_PROBE_ROW * sizeof(float))) != cudaSuccess) return fail(e, "cudaMalloc", why);
    float init[2 * CLIP_PROBE_ROW];
    for (int i = 0; i < 2 * CLIP_PROBE_ROW; ++i) init[i] = -1.0f;
    int rc = 0;
    CUtensorMap map;
    cuuint64_t dims[2] = { (cuuint64_t)extent, 1 };
    cuuint64_t strides[1] = { CLIP_PROBE_ROW * sizeof(float) };  // a row's pitch: 32 bytes, a multiple of 16
    cuuint32_t box[2] = { CLIP_PROBE_ROW, 1 };                    // 32 bytes of inner box: whole 16-byte units
    cuuint32_t estr[2] = { 1, 1 };
    CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d, dims, strides, box, estr,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        snprintf(why, 160, "cuTensorMapEncodeTiled returned %d", (int)r);
        rc = (int)cudaErrorInvalidValue;
    } else if ((e = cudaMemcpy(d, init, sizeof init, cudaMemcpyHostToDevice)) != cudaSuccess) {
        rc = fail(e, "cudaMemcpy to the device", why);
    } else {
        clip_probe_kernel<<<1, 32>>>(map);
        if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess)
            rc = fail(e, "clip_probe_kernel", why);
        else if ((e = cudaMemcpy(init, d, sizeof init, cudaMemcpyDeviceToHost)) != cudaSuccess)
            rc = fail(e, "cudaMemcpy to the host", why);
        else
            for (int i = 0; i < CLIP_PROBE_ROW; ++i) row[i] = init[i];
        // the second row (never in the tensor) must stay -1: a store past it would be a bug of the probe
        for (int i = CLIP_PROBE_ROW; !rc && i < 2 * CLIP_PROBE_ROW; ++i)
            if (init[i] != -1.0f) {
                snprintf(why, 160, "the store wrote past the row (float %d)", i);
                rc = (int)cudaErrorUnknown;
            }
    }
    cudaFree(d);
    return rc;
}
