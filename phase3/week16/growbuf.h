/* growbuf.h — week 16: a device buffer that grows in place, on the driver's
 * virtual memory API (reserve an address range once, map physical memory
 * into it as the buffer grows). */
#ifndef GROWBUF_H
#define GROWBUF_H

#include <stddef.h>
#include <cuda.h> /* CUdeviceptr, CUmemGenericAllocationHandle: types only */
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    CUdeviceptr base;     /* the reserved range's start: the buffer's address, for its whole life */
    size_t      reserved; /* bytes of address space reserved: the most it can ever hold */
    size_t      gran;     /* the device's allocation granularity (the unit of reserving and mapping) */
    size_t      mapped;   /* bytes from base backed by physical memory (a multiple of gran) */
    size_t      size;     /* bytes the caller asked for last (<= mapped) */
    int         device;
    int         nchunks;  /* physical allocations mapped: chunk k is len[k] bytes, */
    int         cap;      /* after chunks 0..k-1 (room in the two arrays) */
    CUmemGenericAllocationHandle *handle;
    size_t     *len;
} growbuf;

/* An empty buffer on `device` that can grow to max_bytes: the granularity
 * (cuMemGetAllocationGranularity, minimum) and one reservation of max_bytes
 * rounded up to it (cuMemAddressReserve); no physical memory yet. max_bytes
 * == 0, or too large to round: cudaErrorInvalidValue. On an error *g is all
 * zero and nothing is held. */
cudaError_t growbuf_create(growbuf *g, int device, size_t max_bytes);

/* Make the buffer `bytes` long. Growing maps new physical memory (one
 * cuMemCreate of the missing granules, cuMemMap after what is mapped,
 * cuMemSetAccess read-write for the device): the address and everything
 * already in the buffer stay as they were, nothing is copied. Shrinking
 * keeps the memory mapped (a later growth within it maps nothing).
 * bytes > reserved: cudaErrorInvalidValue, the buffer unchanged (the design:
 * a reservation is never moved, so the address never changes). On any
 * error the buffer is as it was. */
cudaError_t growbuf_resize(growbuf *g, size_t bytes);

/* Given: the buffer's address (NULL before growbuf_create). */
void *growbuf_ptr(const growbuf *g);

/* Synchronise the device (work in flight may still use the memory), unmap
 * and release every chunk (cuMemUnmap, cuMemRelease), give the range back
 * (cuMemAddressFree) and zero *g. A zeroed growbuf: nothing to do. Returns
 * the first error, having still released all it could. */
cudaError_t growbuf_destroy(growbuf *g);

#ifdef __cplusplus
}
#endif
#endif
