/* vmm.cu — week 16, given: the driver's virtual memory functions (vmm.h). */
#include <cuda_runtime.h>
#include "support/vmm.h"

static void *entry(const char *name, cudaError_t *err)
{
    void *p = NULL;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    cudaError_t e = cudaGetDriverEntryPointByVersion(name, &p, 10020, cudaEnableDefault, &q);
    if (e == cudaSuccess && (q != cudaDriverEntryPointSuccess || !p)) e = cudaErrorNotSupported;
    if (e != cudaSuccess && *err == cudaSuccess) *err = e;
    return e == cudaSuccess ? p : NULL;
}

extern "C" const w16_vmm *w16_vmm_api(cudaError_t *err)
{
    static w16_vmm api;
    static int loaded;
    static thread_local int current;
    *err = cudaSuccess;
    if (!current) {
        *err = cudaFree(0); /* the runtime's primary context, made current on this thread */
        if (*err != cudaSuccess) return NULL;
        current = 1;
    }
    if (loaded) return &api;
    w16_vmm a;
    a.granularity = (PFN_cuMemGetAllocationGranularity_v10020)entry("cuMemGetAllocationGranularity", err);
    a.reserve = (PFN_cuMemAddressReserve_v10020)entry("cuMemAddressReserve", err);
    a.address_free = (PFN_cuMemAddressFree_v10020)entry("cuMemAddressFree", err);
    a.create = (PFN_cuMemCreate_v10020)entry("cuMemCreate", err);
    a.release = (PFN_cuMemRelease_v10020)entry("cuMemRelease", err);
    a.map = (PFN_cuMemMap_v10020)entry("cuMemMap", err);
    a.unmap = (PFN_cuMemUnmap_v10020)entry("cuMemUnmap", err);
    a.set_access = (PFN_cuMemSetAccess_v10020)entry("cuMemSetAccess", err);
    if (*err != cudaSuccess) return NULL;
    api = a;
    loaded = 1;
    return &api;
}

extern "C" cudaError_t w16_cu_error(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS: return cudaSuccess;
    case CUDA_ERROR_INVALID_VALUE: return cudaErrorInvalidValue;
    case CUDA_ERROR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case CUDA_ERROR_NOT_INITIALIZED: return cudaErrorInitializationError;
    case CUDA_ERROR_INVALID_DEVICE: return cudaErrorInvalidDevice;
    case CUDA_ERROR_INVALID_CONTEXT: return cudaErrorDeviceUninitialized;
    case CUDA_ERROR_NOT_PERMITTED: return cudaErrorNotPermitted;
    case CUDA_ERROR_NOT_SUPPORTED: return cudaErrorNotSupported;
    case CUDA_ERROR_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    default: return cudaErrorUnknown;
    }
}
