/* yard_mempool.h — week 16, given: the yardstick MEMPOOL, the driver's own
 * stream-ordered allocator. cudaMallocAsync and cudaFreeAsync on the
 * device's current pool (its default pool unless a program changed it),
 * with that pool's release threshold raised to UINT64_MAX while the
 * yardstick is open, so that it keeps what it has been given, as yours
 * must. */
#ifndef YARD_MEMPOOL_H
#define YARD_MEMPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cudaMemPool_t pool;      /* the device's current pool */
    uint64_t      threshold; /* its release threshold before yard_mempool_open */
} yard_mempool;

/* Raise the release threshold of `device`'s current pool (remembering the
 * old one); cudaMallocAsync then keeps memory across synchronisations. */
cudaError_t yard_mempool_open(int device, yard_mempool *y);
/* cudaMallocAsync / cudaFreeAsync, ordered on s. */
cudaError_t yard_mempool_alloc(void **p, size_t bytes, cudaStream_t s);
cudaError_t yard_mempool_free(void *p, cudaStream_t s);
/* Synchronise, put the old threshold back and trim the pool to it, so that
 * what runs after sees the pool as it was. */
cudaError_t yard_mempool_close(yard_mempool *y);

#ifdef __cplusplus
}
#endif
#endif
