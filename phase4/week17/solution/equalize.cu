/* equalize.cu — week 17, exercise 4: histogram equalisation.
 *
 * histogram: each block counts into its own 256 counters in shared memory
 *    (shared atomics are cheap), then adds its non-zero counters to the
 *    global ones: a few hundred global atomics a block instead of one a
 *    pixel. A grid of a few blocks per SM loops over the image; the aligned
 *    middle is read four bytes at a time, the ragged ends byte by byte.
 * lut: one block of 256 threads, one per grey level: the CDF, its first
 *    non-zero value and the rounded, stretched level, in 64-bit integers.
 * apply: the 256-byte table goes to shared memory once a block; each pixel
 *    is one table look-up. */
#include <stdint.h>
#include "equalize.h"

//@solution
static int grid_for(size_t work, int threads)
{
    size_t b = (work + threads - 1) / threads;
    if (b < 1) b = 1;
    return (int)(b < 132 * 8 ? b : 132 * 8);
}

/* bytes [0, head) and [tail, n) one at a time; words [head, tail) four at a time */
static __global__ void hist_kernel(const uint8_t *__restrict__ in, size_t head, size_t nwords, size_t tail, size_t n,
                                   unsigned *__restrict__ hist)
{
    __shared__ unsigned s[EQ_BINS];
    for (int i = threadIdx.x; i < EQ_BINS; i += blockDim.x) s[i] = 0;
    __syncthreads();
    size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    const uint32_t *words = (const uint32_t *)(in + head);
    for (size_t i = g; i < nwords; i += stride) {
        uint32_t v = words[i];
        atomicAdd(&s[v & 255], 1u);
        atomicAdd(&s[(v >> 8) & 255], 1u);
        atomicAdd(&s[(v >> 16) & 255], 1u);
        atomicAdd(&s[v >> 24], 1u);
    }
    if (g < head) atomicAdd(&s[in[g]], 1u);
    if (tail + g < n) atomicAdd(&s[in[tail + g]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < EQ_BINS; i += blockDim.x)
        if (s[i]) atomicAdd(&hist[i], s[i]);
}

static __global__ void lut_kernel(const unsigned *__restrict__ hist, uint8_t *__restrict__ lut)
{
    __shared__ unsigned s[EQ_BINS];
    __shared__ int first;
    int t = threadIdx.x;
    s[t] = hist[t];
    if (t == 0) first = EQ_BINS;
    __syncthreads();
    if (s[t] > 0) atomicMin(&first, t);
    unsigned long long cdf = 0, total = 0;
    for (int u = 0; u < EQ_BINS; u++) {
        total += s[u];
        if (u <= t) cdf += s[u];
    }
    __syncthreads();
    unsigned long long cmin = first < EQ_BINS ? s[first] : 0, d = total - cmin;
    unsigned v;
    if (d == 0) v = (unsigned)t;
    else if (cdf <= cmin) v = 0;
    else v = (unsigned)(((cdf - cmin) * 510ull + d) / (2 * d));
    lut[t] = (uint8_t)v;
}

static __global__ void apply_kernel(const uint8_t *in, uint8_t *out, size_t n, const uint8_t *__restrict__ lut,
                                    int by_words)
{
    __shared__ uint8_t s[EQ_BINS];
    for (int i = threadIdx.x; i < EQ_BINS; i += blockDim.x) s[i] = lut[i];
    __syncthreads();
    size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    size_t done = 0;
    if (by_words) {
        size_t nw = n / 4;
        for (size_t i = g; i < nw; i += stride) {
            uint32_t v = ((const uint32_t *)in)[i];
            ((uint32_t *)out)[i] = (uint32_t)s[v & 255] | (uint32_t)s[(v >> 8) & 255] << 8 |
                                   (uint32_t)s[(v >> 16) & 255] << 16 | (uint32_t)s[v >> 24] << 24;
        }
        done = nw * 4;
    }
    for (size_t i = done + g; i < n; i += stride) out[i] = s[in[i]];
}
//@starter
//| /* TODO: three kernels. histogram: 256 counters in __shared__ memory per
//|  * block (atomicAdd there), then added to the global ones. lut: one block
//|  * of 256 threads, one a grey level (equalize.h has the rule; use 64-bit
//|  * integers). apply: out[i] = lut[in[i]], the table in shared memory. */
//@end

cudaError_t eq_histogram(const uint8_t *in, size_t n, unsigned *hist)
{
    //@solution
    cudaError_t e = cudaMemsetAsync(hist, 0, EQ_BINS * sizeof(unsigned), 0);
    if (e != cudaSuccess || n == 0) return e;
    size_t head = (4 - ((uintptr_t)in & 3)) & 3;
    if (head > n) head = n;
    size_t nwords = (n - head) / 4, tail = head + nwords * 4;
    size_t ends = head > n - tail ? head : n - tail; /* at most 3: bytes the first threads count */
    size_t work = nwords > ends ? nwords : ends;
    hist_kernel<<<grid_for(work, 256), 256>>>(in, head, nwords, tail, n, hist);
    return cudaGetLastError();
    //@starter
    //| /* TODO: zero the 256 counters (cudaMemsetAsync), then count. n may be 0,
    //|  * and in may start at any byte address. */
    //| (void)in, (void)n, (void)hist;
    //| return cudaSuccess;
    //@end
}

cudaError_t eq_lut(const unsigned *hist, uint8_t *lut)
{
    //@solution
    lut_kernel<<<1, EQ_BINS>>>(hist, lut);
    return cudaGetLastError();
    //@starter
    //| /* TODO: one block of 256 threads. */
    //| (void)hist, (void)lut;
    //| return cudaSuccess;
    //@end
}

cudaError_t eq_apply(const uint8_t *in, uint8_t *out, size_t n, const uint8_t *lut)
{
    if (n == 0) return cudaSuccess;
    //@solution
    int by_words = (((uintptr_t)in | (uintptr_t)out) & 3) == 0;
    apply_kernel<<<grid_for(by_words ? n / 4 + 1 : n, 256), 256>>>(in, out, n, lut, by_words);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch your look-up kernel over the n pixels. */
    //| (void)in, (void)out, (void)lut;
    //| return cudaSuccess;
    //@end
}
