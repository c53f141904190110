/* resize.cu — week 17, exercise 5: bilinear resize.
 *
 * One thread per OUTPUT pixel (a gather): each finds where its centre falls
 * in the input, reads the four pixels around it and blends them. Scattering
 * from input pixels instead would leave holes when enlarging and collide
 * when shrinking. The scale factors iw / ow and ih / oh are computed once on
 * the host; the kernel's float arithmetic loses about 1e-7 of the source
 * coordinate per unit of width, which the test allows for. */
#include "resize.h"

/* TODO: a kernel with one thread per output pixel: its source coordinate
 * (resize.h has the rule), the four neighbours, the blend. */

cudaError_t resize_bilinear(const float *in, int iw, int ih, float *out, int ow, int oh)
{
    if (ow <= 0 || oh <= 0) return cudaSuccess;
    if (iw <= 0 || ih <= 0) return cudaErrorInvalidValue;
    /* TODO: launch enough 2D blocks to cover the OUTPUT image. */
    (void)in, (void)out;
    return cudaSuccess;
}
