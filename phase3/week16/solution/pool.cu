/* pool.cu — week 16, exercise 1: allocation that costs almost nothing.
 *
 * cudaMalloc asks the driver for fresh pages and maps them; cudaFree waits
 * for the whole device to go idle, then unmaps them. Both cost tens of
 * microseconds and the free stalls every stream: a framework that allocated
 * each temporary this way would spend its time in the allocator.
 *
 * A memory pool keeps memory the program has freed and hands it out again.
 * cudaMallocFromPoolAsync and cudaFreeAsync are ordered on a stream like a
 * kernel: a block freed on stream s can be handed to the next allocation on
 * s at once, because anything that used it on s runs before. By default a
 * pool gives its unused memory back to the driver at every synchronisation
 * (release threshold 0), and the next allocation pays for the mapping again;
 * a release threshold of UINT64_MAX keeps it. */
#include <stdint.h>
#include <string.h>
#include "pool.h"

cudaError_t pool_create(int device, cudaMemPool_t *pool)
{
    *pool = NULL;
    //@solution
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t p = NULL;
    cudaError_t e = cudaMemPoolCreate(&p, &props);
    if (e != cudaSuccess) return e;
    uint64_t keep = UINT64_MAX; /* never release memory the pool holds */
    e = cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep);
    if (e != cudaSuccess) {
        cudaMemPoolDestroy(p);
        return e;
    }
    *pool = p;
    return cudaSuccess;
    //@starter
    //| /* TODO: fill a cudaMemPoolProps (zero it first): allocType
    //|  * cudaMemAllocationTypePinned, location type cudaMemLocationTypeDevice
    //|  * with id = device; cudaMemPoolCreate; then set the pool's
    //|  * cudaMemPoolAttrReleaseThreshold (a uint64_t, passed by address) to
    //|  * UINT64_MAX with cudaMemPoolSetAttribute. */
    //| (void)device;
    //| return cudaSuccess;
    //@end
}

cudaError_t pool_alloc(cudaMemPool_t pool, void **p, size_t bytes, cudaStream_t s)
{
    //@solution
    return cudaMallocFromPoolAsync(p, bytes, pool, s);
    //@starter
    //| /* TODO: allocate from the pool, ordered on s: cudaMallocFromPoolAsync. */
    //| (void)pool, (void)p, (void)bytes, (void)s;
    //| return cudaSuccess;
    //@end
}

cudaError_t pool_free(void *p, cudaStream_t s)
{
    //@solution
    return cudaFreeAsync(p, s);
    //@starter
    //| /* TODO: give p back, ordered on s: cudaFreeAsync. */
    //| (void)p, (void)s;
    //| return cudaSuccess;
    //@end
}

cudaError_t pool_destroy(cudaMemPool_t pool) { return pool ? cudaMemPoolDestroy(pool) : cudaSuccess; }
