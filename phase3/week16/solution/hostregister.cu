/* hostregister.cu — week 16, exercise 6: pin the memory you already have.
 *
 * cudaMallocHost gives new pinned memory; often the data is already in a
 * buffer someone else allocated (a file read into malloc'd memory, a
 * library's array). cudaHostRegister page-locks that buffer where it is:
 * the driver pins its pages and maps them for DMA, and copies from it then
 * run at the pinned speed, with no staging copy. It costs time (every page
 * is looked up and locked), so register a buffer once and reuse it, and
 * unregister it before it is freed.
 *
 * The driver pins whole pages. A range that starts inside a page pins the
 * rest of that page too, bytes that may belong to another allocation; the
 * workbook's rule is to register only ranges that start on a page, which
 * posix_memalign guarantees. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "hostregister.h"

size_t hostregister_page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

cudaError_t hostregister_pin(void *p, size_t bytes)
{
    //@solution
    if (!p || bytes == 0 || (uintptr_t)p % hostregister_page_size() != 0) return cudaErrorInvalidValue;
    cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterDefault);
    if (e != cudaSuccess) (void)cudaGetLastError(); /* the refusal is returned, not left for the next check */
    return e;
    //@starter
    //| /* TODO: refuse NULL, 0 bytes and a p that is not a multiple of
    //|  * hostregister_page_size() (cudaErrorInvalidValue); then
    //|  * cudaHostRegister(p, bytes, cudaHostRegisterDefault). On an error, call
    //|  * cudaGetLastError() once so the refusal is not reported again by the
    //|  * next launch check. */
    //| (void)p, (void)bytes;
    //| return cudaSuccess;
    //@end
}

cudaError_t hostregister_unpin(void *p)
{
    //@solution
    if (!p) return cudaErrorInvalidValue;
    cudaError_t e = cudaHostUnregister(p);
    if (e != cudaSuccess) (void)cudaGetLastError();
    return e;
    //@starter
    //| /* TODO: NULL is cudaErrorInvalidValue; else cudaHostUnregister(p),
    //|  * clearing cudaGetLastError() on an error as hostregister_pin does. */
    //| (void)p;
    //| return cudaSuccess;
    //@end
}

cudaError_t hostregister_alloc(void **p, size_t bytes)
{
    *p = NULL;
    if (bytes == 0) return cudaSuccess;
    //@solution
    size_t page = hostregister_page_size();
    if (bytes > SIZE_MAX - (page - 1)) return cudaErrorMemoryAllocation;
    size_t whole = (bytes + page - 1) / page * page;
    void *q = NULL;
    if (posix_memalign(&q, page, whole) != 0 || !q) return cudaErrorMemoryAllocation;
    cudaError_t e = hostregister_pin(q, whole);
    if (e != cudaSuccess) {
        free(q);
        return e;
    }
    *p = q;
    return cudaSuccess;
    //@starter
    //| /* TODO: round bytes up to whole pages (hostregister_page_size()), take
    //|  * a page-aligned buffer of that size from posix_memalign (its failure
    //|  * is cudaErrorMemoryAllocation), register it with hostregister_pin, and
    //|  * free it again if that fails. */
    //| return cudaSuccess;
    //@end
}

cudaError_t hostregister_free(void *p)
{
    if (!p) return cudaSuccess;
    //@solution
    cudaError_t e = hostregister_unpin(p);
    free(p);
    return e;
    //@starter
    //| /* TODO: unregister first (freeing pinned memory the driver still
    //|  * holds is an error), then free, and return the unregister's error. */
    //| free(p);
    //| return cudaSuccess;
    //@end
}
