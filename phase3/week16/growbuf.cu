/* growbuf.cu — week 16, exercise 7: a buffer that grows without moving.
 *
 * cudaMalloc does two things at once: it finds a range of the device's
 * virtual address space and backs it with physical memory. A buffer made
 * that way cannot grow: the next range is taken by someone else, so growing
 * means a new, larger allocation, a copy of everything, and a free
 * (realloc), and every pointer into the old buffer is now wrong.
 *
 * The driver's virtual memory API separates the two. cuMemAddressReserve
 * takes a range of addresses and nothing else; cuMemCreate makes physical
 * memory with no address; cuMemMap puts physical memory at an address
 * inside a reservation, and cuMemSetAccess lets a device read and write it.
 * Reserve the largest size the buffer may ever reach once (addresses are
 * plentiful: 2^48 bytes and more), then map memory at its end as it grows:
 * the address never changes, and what is in it is never copied.
 *
 * Everything is in units of the allocation granularity
 * (cuMemGetAllocationGranularity, 2 MiB on current GPUs): sizes, offsets
 * and reservations are rounded up to it. Teardown is the mirror image:
 * cuMemUnmap each mapping, cuMemRelease each physical allocation, then
 * cuMemAddressFree the range. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "growbuf.h"
#include "support/vmm.h"

void *growbuf_ptr(const growbuf *g) { return (void *)(uintptr_t)g->base; }


cudaError_t growbuf_create(growbuf *g, int device, size_t max_bytes)
{
    memset(g, 0, sizeof *g);
    if (max_bytes == 0) return cudaErrorInvalidValue;
    cudaError_t e = cudaSuccess;
    const w16_vmm *api = w16_vmm_api(&e);
    if (!api) return e;
    /* TODO: a CUmemAllocationProp (zeroed): type CU_MEM_ALLOCATION_TYPE_PINNED,
     * location CU_MEM_LOCATION_TYPE_DEVICE with id = device. Its granularity:
     * api->granularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM).
     * Round max_bytes up to it (refusing a size that overflows) and reserve
     * that much: api->reserve(&base, bytes, 0, 0, 0). Convert every
     * CUresult with w16_cu_error. Then fill *g. */
    (void)api, (void)device;
    return cudaSuccess;
}

cudaError_t growbuf_resize(growbuf *g, size_t bytes)
{
    if (!g->base) return cudaErrorInvalidValue;
    if (bytes > g->reserved) return cudaErrorInvalidValue;
    cudaError_t e = cudaSuccess;
    const w16_vmm *api = w16_vmm_api(&e);
    if (!api) return e;
    /* TODO: round bytes up to g->gran. Within what is mapped: only the size
     * changes. Otherwise, for the missing part (add bytes at base + mapped):
     * api->create(&h, add, &prop, 0), api->map(at, add, 0, h, 0), and
     * api->set_access(at, add, &desc, 1) with a CUmemAccessDesc for the
     * device, CU_MEM_ACCESS_FLAGS_PROT_READWRITE. Undo what succeeded if a
     * later step fails. Keep h and add in g->handle, g->len (grow the
     * arrays when nchunks reaches cap), then mapped and size. */
    (void)api;
    return cudaSuccess;
}

cudaError_t growbuf_destroy(growbuf *g)
{
    if (!g->base) {
        free(g->handle), free(g->len);
        memset(g, 0, sizeof *g);
        return cudaSuccess;
    }
    cudaError_t e = cudaSuccess;
    const w16_vmm *api = w16_vmm_api(&e);
    if (!api) return e;
    /* TODO: cudaDeviceSynchronize(); then for each chunk, in order from
     * base: api->unmap(its address, its length) and api->release(its
     * handle); then api->address_free(base, reserved). Keep the first error
     * but go on releasing. */
    free(g->handle), free(g->len);
    memset(g, 0, sizeof *g);
    return e;
}
