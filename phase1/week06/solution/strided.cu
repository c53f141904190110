/* strided.cu — week 06, exercise 2: coalesced versus strided reads.
 *
 * A warp's 32 loads are served in 32-byte sectors. With s = 1 they fall in
 * 4 sectors (128 bytes, all used); with s = 2 each sector is half used; with
 * s >= 8 every load needs a sector of its own and uses 4 of its 32 bytes.
 * DRAM, though, is read in larger granules: the H100 sweep in the README
 * fits 64 bytes, so the cost keeps growing up to s = 16 (useful bandwidth
 * about 2 COPY / (1 + min(s, 16))), and slides further past that. The
 * README's "A model of the stride sweep" derives it and shows the fit. */
#include "strided.h"

//@solution
static __global__ void strided_kernel(const float *__restrict__ in, float *__restrict__ out, size_t n, size_t R, int s)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = in[(i % R) * (size_t)s + i / R];
}
//@starter
//| /* TODO: a grid-stride kernel with out[i] = in[(i % R) * s + i / R]. */
//@end

cudaError_t strided_copy(const float *in, float *out, size_t n, int s)
{
    if (s < 1 || n % (size_t)s != 0) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    //@solution
    size_t blocks = (n + 255) / 256;
    strided_kernel<<<(unsigned)(blocks < 132 * 16 ? blocks : 132 * 16), 256>>>(in, out, n, n / (size_t)s, s);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch your kernel with R = n / s; return the launch's error. */
    //| (void)in, (void)out;
    //| return cudaSuccess;
    //@end
}
