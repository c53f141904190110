/* hostregister.h — week 16: pinning memory the program already has
 * (cudaHostRegister). */
#ifndef HOSTREGISTER_H
#define HOSTREGISTER_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Given: the host's page size in bytes (sysconf). */
size_t hostregister_page_size(void);

/* Page-lock [p, p + bytes) where it is (cudaHostRegister, default flags):
 * copies from and to it then go by DMA, as from cudaMallocHost memory. p
 * must start a page: NULL, bytes == 0 or p not page-aligned give
 * cudaErrorInvalidValue without asking the driver. A range registered
 * already gives the driver's refusal (cudaErrorHostMemoryAlreadyRegistered).
 * A refusal leaves no error behind for cudaGetLastError. */
cudaError_t hostregister_pin(void *p, size_t bytes);

/* Undo hostregister_pin(p, ...) (cudaHostUnregister): the pages become pageable
 * again. NULL: cudaErrorInvalidValue; memory not registered: the driver's
 * refusal (cudaErrorHostMemoryNotRegistered), again leaving no error behind
 * for cudaGetLastError. */
cudaError_t hostregister_unpin(void *p);

/* A page-aligned host buffer of `bytes`, rounded up to whole pages, from
 * the C library (posix_memalign), then registered with hostregister_pin.
 * bytes == 0: *p = NULL, cudaSuccess. *p is NULL on an error, with nothing
 * left allocated or registered. */
cudaError_t hostregister_alloc(void **p, size_t bytes);

/* Unregister then free what hostregister_alloc gave (NULL: nothing to do);
 * the memory is freed even when unregistering fails, and that error is
 * returned. */
cudaError_t hostregister_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
