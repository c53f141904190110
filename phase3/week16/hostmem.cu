/* hostmem.cu — week 16, exercise 2: pinned host memory and zero-copy.
 *
 * The copy engines move data between host and device by DMA, which needs
 * physical pages that stay put. From pageable memory (malloc) the driver
 * first copies through a pinned staging buffer of its own, chunk by chunk,
 * and cudaMemcpyAsync cannot return before the source has been staged: the
 * copy is slower and not asynchronous. Memory from cudaHostAlloc is pinned
 * (page-locked): the DMA reads it directly, at the speed of the link, and
 * an async copy truly overlaps other work.
 *
 * Pinned memory can also be mapped into the device's address space: a
 * kernel then loads host memory itself, over PCIe, with no copy at all
 * (zero-copy). Each load crosses the link, so it pays when the data is
 * read once, in wide coalesced loads, and much is in flight; read twice it
 * costs twice. */
#include <stdint.h>
#include "hostmem.h"

cudaError_t hm_alloc_pinned(void **p, size_t bytes, int mapped)
{
    *p = NULL;
    if (bytes == 0) return cudaSuccess;
    /* TODO: cudaHostAlloc(p, bytes, flags): cudaHostAllocMapped when
     * `mapped`, cudaHostAllocDefault otherwise. */
    (void)mapped;
    return cudaSuccess;
}

cudaError_t hm_free_pinned(void *p) { return p ? cudaFreeHost(p) : cudaSuccess; }

cudaError_t hm_device_ptr(void **dptr, void *host)
{
    *dptr = NULL;
    /* TODO: cudaHostGetDevicePointer(dptr, host, 0). */
    (void)host;
    return cudaSuccess;
}

/* TODO: a kernel that reads x (host memory, through its device address)
 * and writes y = a * x. Every load crosses PCIe: make them wide (float4
 * when x and y are 16-byte aligned) and coalesced. */

cudaError_t hm_zc_scale(const float *x, float *y, size_t n, float a, cudaStream_t s)
{
    /* TODO: launch your kernel on stream s (nothing for n == 0) and return
     * cudaGetLastError(). */
    (void)x, (void)y, (void)n, (void)a, (void)s;
    return cudaSuccess;
}
