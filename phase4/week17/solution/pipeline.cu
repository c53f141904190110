/* pipeline.cu — week 17, exercise 7: blur -> Sobel -> equalise, end to end.
 *
 * Five kernels, each memory-bound, on one stream (no synchronisation: the
 * stream orders them):
 *   1. row blur, 8-bit in, float out   (1 + 4 bytes a pixel)
 *   2. column blur, float to float     (4 + 4)
 *   3. Sobel, L1 magnitude, quantised to 8 bits (4 + 1)
 *   4. histogram of the edges (equalize.cu's eq_histogram), the LUT
 *      (eq_lut, one block), and the look-up (eq_apply)  (1, then 1 + 1)
 * About 21 bytes a pixel in all. The weights of the blur are in the code:
 * 1 4 6 4 1 are small integers, so the row pass sums integers and scales
 * once. Every intermediate is exact (pipeline.h says why), so the result
 * matches the CPU's bit for bit. Next steps: fuse the two blur passes
 * through a shared tile, and count the histogram inside the Sobel kernel. */
#include <stdint.h>
#include "equalize.h"
#include "pipeline.h"

static size_t up256(size_t b) { return (b + 255) & ~(size_t)255; }

size_t pipeline_workspace_bytes(int width, int height)
{
    size_t n = (size_t)(width > 0 ? width : 0) * (size_t)(height > 0 ? height : 0);
    return 2 * up256(4 * n) + up256(n) + 2048; /* two float images, one 8-bit image, 256 counters, 256 levels */
}

//@solution
static __global__ void blur_rows_kernel(const uint8_t *__restrict__ in, float *__restrict__ t, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const uint8_t *row = in + (size_t)y * w;
    int v = row[max(x - 2, 0)] + 4 * row[max(x - 1, 0)] + 6 * row[x] + 4 * row[min(x + 1, w - 1)] + row[min(x + 2, w - 1)];
    t[(size_t)y * w + x] = (float)v * 0.0625f;
}

static __global__ void blur_cols_kernel(const float *__restrict__ t, float *__restrict__ s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float v = t[(size_t)max(y - 2, 0) * w + x] + 4.0f * t[(size_t)max(y - 1, 0) * w + x] + 6.0f * t[(size_t)y * w + x] +
              4.0f * t[(size_t)min(y + 1, h - 1) * w + x] + t[(size_t)min(y + 2, h - 1) * w + x];
    s[(size_t)y * w + x] = v * 0.0625f;
}

static __global__ void edges_kernel(const float *__restrict__ s, uint8_t *__restrict__ e, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int xm = max(x - 1, 0), xp = min(x + 1, w - 1);
    const float *rm = s + (size_t)max(y - 1, 0) * w, *r0 = s + (size_t)y * w, *rp = s + (size_t)min(y + 1, h - 1) * w;
    float gx = (rm[xp] + 2.0f * r0[xp] + rp[xp]) - (rm[xm] + 2.0f * r0[xm] + rp[xm]);
    float gy = (rp[xm] + 2.0f * rp[x] + rp[xp]) - (rm[xm] + 2.0f * rm[x] + rm[xp]);
    int q = (int)((fabsf(gx) + fabsf(gy)) * 0.25f);
    e[(size_t)y * w + x] = (uint8_t)min(q, 255);
}
//@starter
//| /* TODO: kernels for the steps of pipeline.h: the row blur (8-bit in, float
//|  * out), the column blur, and the Sobel step that writes 8-bit edges. The
//|  * equalisation can reuse equalize.cu's three calls. */
//@end

cudaError_t pipeline_apply(const uint8_t *in, uint8_t *out, int width, int height, void *work)
{
    if (width <= 0 || height <= 0) return cudaSuccess;
    //@solution
    size_t n = (size_t)width * height;
    unsigned char *wk = (unsigned char *)work;
    float *t = (float *)wk, *s = (float *)(wk + up256(4 * n));
    uint8_t *e = wk + 2 * up256(4 * n);
    unsigned *hist = (unsigned *)(wk + 2 * up256(4 * n) + up256(n));
    uint8_t *lut = (uint8_t *)(hist + EQ_BINS);
    dim3 block(32, 8), grid((unsigned)((width + 31) / 32), (unsigned)((height + 7) / 8));
    if (grid.y > 65535) return cudaErrorInvalidValue;
    cudaError_t err;
    blur_rows_kernel<<<grid, block>>>(in, t, width, height);
    if ((err = cudaGetLastError()) != cudaSuccess) return err;
    blur_cols_kernel<<<grid, block>>>(t, s, width, height);
    if ((err = cudaGetLastError()) != cudaSuccess) return err;
    edges_kernel<<<grid, block>>>(s, e, width, height);
    if ((err = cudaGetLastError()) != cudaSuccess) return err;
    if ((err = eq_histogram(e, n, hist)) != cudaSuccess) return err;
    if ((err = eq_lut(hist, lut)) != cudaSuccess) return err;
    return eq_apply(e, out, n, lut);
    //@starter
    //| /* TODO: carve the workspace (pipeline_workspace_bytes above sized it): two
    //|  * float images t and s, the 8-bit edges e, 256 counters and a 256-byte
    //|  * table, each starting on a 256-byte boundary (up256). Then the three
    //|  * steps of pipeline.h, one kernel after another on the default stream. */
    //| (void)in, (void)out, (void)work;
    //| return cudaSuccess;
    //@end
}
