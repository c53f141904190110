/* vmm.h — week 16, given: the driver's virtual memory functions, reached
 * through the runtime (cudaGetDriverEntryPointByVersion), so that nothing
 * links libcuda (-lcuda) by name. Prototypes of CUDA 10.2, the version that
 * introduced them (<cudaTypedefs.h>); the types are <cuda.h>'s. */
#ifndef W16_VMM_H
#define W16_VMM_H

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    PFN_cuMemGetAllocationGranularity_v10020 granularity; /* cuMemGetAllocationGranularity */
    PFN_cuMemAddressReserve_v10020           reserve;     /* cuMemAddressReserve */
    PFN_cuMemAddressFree_v10020              address_free;/* cuMemAddressFree */
    PFN_cuMemCreate_v10020                   create;      /* cuMemCreate */
    PFN_cuMemRelease_v10020                  release;     /* cuMemRelease */
    PFN_cuMemMap_v10020                      map;         /* cuMemMap */
    PFN_cuMemUnmap_v10020                    unmap;       /* cuMemUnmap */
    PFN_cuMemSetAccess_v10020                set_access;  /* cuMemSetAccess */
} w16_vmm;

/* The functions, found once (later calls return the same table), with the
 * runtime's context made current on the calling thread first (the driver
 * API acts on the current context). NULL, and *err set, when the runtime or
 * the driver cannot give one of them. */
const w16_vmm *w16_vmm_api(cudaError_t *err);

/* The runtime's error for a driver result: CUDA_SUCCESS is cudaSuccess,
 * CUDA_ERROR_INVALID_VALUE cudaErrorInvalidValue, CUDA_ERROR_OUT_OF_MEMORY
 * cudaErrorMemoryAllocation, and so on; one it does not know is
 * cudaErrorUnknown. */
cudaError_t w16_cu_error(CUresult r);

#ifdef __cplusplus
}
#endif
#endif
