/* managed.cu — week 16, exercise 5: unified memory.
 *
 * cudaMallocManaged gives one pointer that the host and every device can
 * use. The pages live in one place at a time; when a processor touches a
 * page that is somewhere else, it faults, and the driver migrates the page
 * (or maps it remotely) before the access goes on. That is demand paging:
 * correct with no copy in the program, but each fault stops the warps that
 * need the page for the time of a round trip through the driver.
 *
 * cudaMemPrefetchAsync migrates a range in bulk before the kernel asks for
 * it, ordered on a stream like a copy: the kernel then finds every page at
 * home and runs at the speed of device memory. cudaMemAdvise changes the
 * policy instead of moving anything: where a page would rather live, which
 * processor keeps a mapping wherever it lives, whether readers get copies.
 *
 * Since CUDA 13 both take a cudaMemLocation (a type and an id) where they
 * used to take a device number: { cudaMemLocationTypeDevice, ordinal } or
 * { cudaMemLocationTypeHost, 0 }. */
#include <stdint.h>
#include "managed.h"

cudaError_t managed_alloc(void **p, size_t bytes)
{
    *p = NULL;
    if (bytes == 0) return cudaSuccess;
    /* TODO: cudaMallocManaged(p, bytes, cudaMemAttachGlobal). */
    return cudaSuccess;
}

cudaError_t managed_free(void *p) { return p ? cudaFree(p) : cudaSuccess; }


cudaError_t managed_prefetch(const void *p, size_t bytes, int where, cudaStream_t s)
{
    if (bytes == 0) return cudaSuccess;
    /* TODO: a struct cudaMemLocation: type cudaMemLocationTypeDevice and
     * id = where for a device, cudaMemLocationTypeHost for MANAGED_HOST;
     * then cudaMemPrefetchAsync(p, bytes, location, 0, s) (flags 0). Look
     * its declaration up in the toolkit's cuda_runtime_api.h: CUDA 13 takes
     * the location where CUDA 12 took a device number. */
    (void)p, (void)where, (void)s;
    return cudaSuccess;
}

cudaError_t managed_advise(const void *p, size_t bytes, managed_advice advice, int device, int set)
{
    if (advice != MANAGED_PREFERRED_LOCATION && advice != MANAGED_READ_MOSTLY && advice != MANAGED_ACCESSED_BY)
        return cudaErrorInvalidValue;
    if (bytes == 0) return cudaSuccess;
    /* TODO: pick the cudaMemoryAdvise (cudaMemAdviseSetPreferredLocation,
     * ...SetReadMostly, ...SetAccessedBy, or their Unset... when set == 0)
     * and call cudaMemAdvise(p, bytes, advice, location) with the device's
     * cudaMemLocation (read-mostly ignores it). */
    (void)p, (void)device, (void)set;
    return cudaSuccess;
}

/* TODO: a kernel computing x[i] = a * x[i] + b in place: grid-stride,
 * float4 loads and stores where x is 16-byte aligned, scalar otherwise. */

cudaError_t managed_scale(float *x, size_t n, float a, float b, cudaStream_t s)
{
    /* TODO: launch your kernel on stream s (nothing for n == 0) and return
     * cudaGetLastError(). */
    (void)x, (void)n, (void)a, (void)b, (void)s;
    return cudaSuccess;
}
