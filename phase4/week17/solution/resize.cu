/* resize.cu — week 17, exercise 5: bilinear resize.
 *
 * One thread per OUTPUT pixel (a gather): each finds where its centre falls
 * in the input, reads the four pixels around it and blends them. Scattering
 * from input pixels instead would leave holes when enlarging and collide
 * when shrinking. The scale factors iw / ow and ih / oh are computed once on
 * the host; the kernel's float arithmetic loses about 1e-7 of the source
 * coordinate per unit of width, which the test allows for. */
#include "resize.h"

//@solution
static __global__ void resize_kernel(const float *__restrict__ in, int iw, int ih, float *__restrict__ out, int ow,
                                     int oh, float scale_x, float scale_y)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= ow || y >= oh) return;
    float sx = fminf(fmaxf(((float)x + 0.5f) * scale_x - 0.5f, 0.0f), (float)(iw - 1));
    float sy = fminf(fmaxf(((float)y + 0.5f) * scale_y - 0.5f, 0.0f), (float)(ih - 1));
    int x0 = (int)sx, y0 = (int)sy; /* sx, sy >= 0: truncation is floor */
    int x1 = min(x0 + 1, iw - 1), y1 = min(y0 + 1, ih - 1);
    float fx = sx - (float)x0, fy = sy - (float)y0;
    const float *r0 = in + (size_t)y0 * iw, *r1 = in + (size_t)y1 * iw;
    float top = (1.0f - fx) * r0[x0] + fx * r0[x1];
    float bot = (1.0f - fx) * r1[x0] + fx * r1[x1];
    out[(size_t)y * ow + x] = (1.0f - fy) * top + fy * bot;
}
//@starter
//| /* TODO: a kernel with one thread per output pixel: its source coordinate
//|  * (resize.h has the rule), the four neighbours, the blend. */
//@end

cudaError_t resize_bilinear(const float *in, int iw, int ih, float *out, int ow, int oh)
{
    if (ow <= 0 || oh <= 0) return cudaSuccess;
    if (iw <= 0 || ih <= 0) return cudaErrorInvalidValue;
    //@solution
    dim3 block(32, 8), grid((unsigned)((ow + 31) / 32), (unsigned)((oh + 7) / 8));
    if (grid.y > 65535) return cudaErrorInvalidValue;
    resize_kernel<<<grid, block>>>(in, iw, ih, out, ow, oh, (float)iw / (float)ow, (float)ih / (float)oh);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch enough 2D blocks to cover the OUTPUT image. */
    //| (void)in, (void)out;
    //| return cudaSuccess;
    //@end
}
