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
    //@solution
    cudaError_t e = cudaMallocManaged(p, bytes, cudaMemAttachGlobal);
    if (e != cudaSuccess) *p = NULL;
    return e;
    //@starter
    //| /* TODO: cudaMallocManaged(p, bytes, cudaMemAttachGlobal). */
    //| return cudaSuccess;
    //@end
}

cudaError_t managed_free(void *p) { return p ? cudaFree(p) : cudaSuccess; }

//@solution
static struct cudaMemLocation where_is(int where)
{
    struct cudaMemLocation loc;
    loc.type = where == MANAGED_HOST ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    loc.id = where == MANAGED_HOST ? 0 : where;
    return loc;
}
//@starter
//@end

cudaError_t managed_prefetch(const void *p, size_t bytes, int where, cudaStream_t s)
{
    if (bytes == 0) return cudaSuccess;
    //@solution
    return cudaMemPrefetchAsync(p, bytes, where_is(where), 0, s);
    //@starter
    //| /* TODO: a struct cudaMemLocation: type cudaMemLocationTypeDevice and
    //|  * id = where for a device, cudaMemLocationTypeHost for MANAGED_HOST;
    //|  * then cudaMemPrefetchAsync(p, bytes, location, 0, s) (flags 0). Look
    //|  * its declaration up in the toolkit's cuda_runtime_api.h: CUDA 13 takes
    //|  * the location where CUDA 12 took a device number. */
    //| (void)p, (void)where, (void)s;
    //| return cudaSuccess;
    //@end
}

cudaError_t managed_advise(const void *p, size_t bytes, managed_advice advice, int device, int set)
{
    if (advice != MANAGED_PREFERRED_LOCATION && advice != MANAGED_READ_MOSTLY && advice != MANAGED_ACCESSED_BY)
        return cudaErrorInvalidValue;
    if (bytes == 0) return cudaSuccess;
    //@solution
    enum cudaMemoryAdvise a;
    if (advice == MANAGED_PREFERRED_LOCATION)
        a = set ? cudaMemAdviseSetPreferredLocation : cudaMemAdviseUnsetPreferredLocation;
    else if (advice == MANAGED_READ_MOSTLY)
        a = set ? cudaMemAdviseSetReadMostly : cudaMemAdviseUnsetReadMostly;
    else
        a = set ? cudaMemAdviseSetAccessedBy : cudaMemAdviseUnsetAccessedBy;
    /* read-mostly ignores the location; the other two name the device */
    return cudaMemAdvise(p, bytes, a, where_is(device));
    //@starter
    //| /* TODO: pick the cudaMemoryAdvise (cudaMemAdviseSetPreferredLocation,
    //|  * ...SetReadMostly, ...SetAccessedBy, or their Unset... when set == 0)
    //|  * and call cudaMemAdvise(p, bytes, advice, location) with the device's
    //|  * cudaMemLocation (read-mostly ignores it). */
    //| (void)p, (void)device, (void)set;
    //| return cudaSuccess;
    //@end
}

//@solution
/* 16 bytes a load and a store: a read-modify-write stream at the speed of
 * device memory once the pages are there. */
static __global__ void scale_vec4(float4 *__restrict__ x, size_t n4, float a, float b)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = x[i];
        x[i] = make_float4(a * v.x + b, a * v.y + b, a * v.z + b, a * v.w + b);
    }
}

static __global__ void scale_scalar(float *__restrict__ x, size_t n, float a, float b)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) x[i] = a * x[i] + b;
}

static unsigned scale_blocks(size_t work)
{
    size_t b = (work + 255) / 256;
    return (unsigned)(b < 65535u * 32u ? b : 65535u * 32u);
}
//@starter
//| /* TODO: a kernel computing x[i] = a * x[i] + b in place: grid-stride,
//|  * float4 loads and stores where x is 16-byte aligned, scalar otherwise. */
//@end

cudaError_t managed_scale(float *x, size_t n, float a, float b, cudaStream_t s)
{
    //@solution
    if (n == 0) return cudaSuccess;
    /* scalar up to the first 16-byte boundary, float4 after it, scalar tail */
    size_t head = (size_t)((16 - ((uintptr_t)x & 15)) & 15) / 4;
    if (((uintptr_t)x & 3) != 0 || head > n) head = n;
    if (head) {
        scale_scalar<<<scale_blocks(head), 256, 0, s>>>(x, head, a, b);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || head == n) return e;
    }
    size_t n4 = (n - head) / 4, done = head + 4 * n4;
    if (n4) {
        scale_vec4<<<scale_blocks(n4), 256, 0, s>>>((float4 *)(x + head), n4, a, b);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    if (done < n) scale_scalar<<<scale_blocks(n - done), 256, 0, s>>>(x + done, n - done, a, b);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch your kernel on stream s (nothing for n == 0) and return
    //|  * cudaGetLastError(). */
    //| (void)x, (void)n, (void)a, (void)b, (void)s;
    //| return cudaSuccess;
    //@end
}
