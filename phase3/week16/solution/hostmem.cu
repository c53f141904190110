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
    //@solution
    return cudaHostAlloc(p, bytes, mapped ? cudaHostAllocMapped : cudaHostAllocDefault);
    //@starter
    //| /* TODO: cudaHostAlloc(p, bytes, flags): cudaHostAllocMapped when
    //|  * `mapped`, cudaHostAllocDefault otherwise. */
    //| (void)mapped;
    //| return cudaSuccess;
    //@end
}

cudaError_t hm_free_pinned(void *p) { return p ? cudaFreeHost(p) : cudaSuccess; }

cudaError_t hm_device_ptr(void **dptr, void *host)
{
    *dptr = NULL;
    //@solution
    return cudaHostGetDevicePointer(dptr, host, 0);
    //@starter
    //| /* TODO: cudaHostGetDevicePointer(dptr, host, 0). */
    //| (void)host;
    //| return cudaSuccess;
    //@end
}

//@solution
/* 16 bytes a load: one PCIe read request carries more payload, and each
 * warp has 512 bytes in flight per load instruction. */
static __global__ void zc_vec4(const float4 *__restrict__ x, float4 *__restrict__ y, size_t n4, float a)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = x[i];
        y[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
    }
}

static __global__ void zc_scalar(const float *__restrict__ x, float *__restrict__ y, size_t n, float a)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = x[i] * a;
}

static unsigned zc_blocks(size_t work)
{
    size_t b = (work + 255) / 256;
    return (unsigned)(b < 65535u * 32u ? b : 65535u * 32u);
}
//@starter
//| /* TODO: a kernel that reads x (host memory, through its device address)
//|  * and writes y = a * x. Every load crosses PCIe: make them wide (float4
//|  * when x and y are 16-byte aligned) and coalesced. */
//@end

cudaError_t hm_zc_scale(const float *x, float *y, size_t n, float a, cudaStream_t s)
{
    //@solution
    if (n == 0) return cudaSuccess;
    size_t done = 0;
    if ((((uintptr_t)x | (uintptr_t)y) & 15) == 0 && n >= 4) {
        size_t n4 = n / 4;
        zc_vec4<<<zc_blocks(n4), 256, 0, s>>>((const float4 *)x, (float4 *)y, n4, a);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        done = n4 * 4;
    }
    if (done < n) zc_scalar<<<zc_blocks(n - done), 256, 0, s>>>(x + done, y + done, n - done, a);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch your kernel on stream s (nothing for n == 0) and return
    //|  * cudaGetLastError(). */
    //| (void)x, (void)y, (void)n, (void)a, (void)s;
    //| return cudaSuccess;
    //@end
}
