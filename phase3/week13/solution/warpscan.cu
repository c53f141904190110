/* warpscan.cu — week 13, exercise 2: inclusive and exclusive scans of a
 * warp by shuffles (Kogge-Stone in registers).
 *
 * __shfl_up_sync(mask, v, off) gives lane l the v of lane l - off (lanes
 * below off get their own back). Five steps, off = 1, 2, 4, 8, 16, each
 * adding the value from off lanes down when lane >= off, leave every lane
 * with the sum of itself and all lanes below it: the inclusive scan. The
 * exclusive scan is the inclusive one shifted up by one lane, 0 in lane 0
 * (not inclusive - x: that is not exact in floating point).
 *
 * This time the mask comes from a vote, before the lanes past n leave:
 * __ballot_sync(0xffffffff, i < n) is exactly the valid lanes. Every lane of
 * the warp exists (blocks are whole warps) and reaches the ballot. */
#include "warpscan.h"

#define THREADS 256

//@solution
static __global__ void warp_scan_kernel(const float *__restrict__ x, size_t n, float *__restrict__ y, int inclusive)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned mask = __ballot_sync(0xffffffffu, i < n); /* the valid lanes: always the lowest ones */
    if (i >= n) return;
    float v = x[i];
#pragma unroll
    for (unsigned off = 1; off < 32; off <<= 1) {
        float t = __shfl_up_sync(mask, v, off); /* from lane - off: below this lane, so valid */
        if (lane >= off) v += t;
    }
    if (!inclusive) {
        float t = __shfl_up_sync(mask, v, 1);
        v = lane == 0 ? 0.0f : t;
    }
    y[i] = v;
}
//@starter
//| /* TODO: one thread per element, one warp per group of 32 (blocks of THREADS).
//|  * First the mask of valid lanes: __ballot_sync(0xffffffff, i < n), while
//|  * every lane is still here; then lanes past n return. Inclusive scan: for
//|  * off = 1, 2, 4, 8, 16, t = __shfl_up_sync(mask, v, off) and add t when
//|  * lane >= off. Exclusive: the inclusive result of the lane below (one more
//|  * __shfl_up_sync by 1), and 0 in lane 0. */
//| static __global__ void warp_scan_kernel(const float *x, size_t n, float *y, int inclusive)
//| {
//|     (void)x, (void)n, (void)y, (void)inclusive;
//| }
//@end

/* ---- given: the launcher ---- */
cudaError_t warpscan_prefix_sum(const float *x, size_t n, float *y, int inclusive)
{
    if (n == 0) return cudaSuccess;
    warp_scan_kernel<<<(unsigned)((n + THREADS - 1) / THREADS), THREADS>>>(x, n, y, inclusive);
    return cudaGetLastError();
}
