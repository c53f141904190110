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

/* TODO: kernels for the steps of pipeline.h: the row blur (8-bit in, float
 * out), the column blur, and the Sobel step that writes 8-bit edges. The
 * equalisation can reuse equalize.cu's three calls. */

cudaError_t pipeline_apply(const uint8_t *in, uint8_t *out, int width, int height, void *work)
{
    if (width <= 0 || height <= 0) return cudaSuccess;
    /* TODO: carve the workspace (pipeline_workspace_bytes above sized it): two
     * float images t and s, the 8-bit edges e, 256 counters and a 256-byte
     * table, each starting on a 256-byte boundary (up256). Then the three
     * steps of pipeline.h, one kernel after another on the default stream. */
    (void)in, (void)out, (void)work;
    return cudaSuccess;
}
