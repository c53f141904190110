/* mask.cu — week 33, exercise 2: causal and padding masks, in place.
 *
 * Row (b, h, i) of S keeps its first `keep` entries and sets the rest to
 * -inf, where keep = min(L, i + 1 if causal, kv_len[b] if padded): both masks
 * cut a row at one column, so the masked part of every row is one contiguous
 * tail. The kernel never reads S: a masked entry is -inf whatever it held,
 * and an entry that is kept is not touched. So it writes only the tail, and
 * moves 4 bytes per masked entry (half the matrix for a causal mask) instead
 * of reading and writing all L * L.
 *
 * One warp per row: lanes write consecutive columns (coalesced), the warp
 * strides along the tail; rows are a grid-stride loop, so any B * H * L fits
 * a grid of bounded size. Row and column indices are size_t: B * H * L * L
 * passes 2^31 at B = 4, H = 16, L = 4096. */
#include "mask.h"

//@solution
#define MASK_WARPS 8 /* warps per block */

static __global__ void mask_rows(float *S, size_t rows, int H, int L, int causal, const int *kv_len)
{
    const int lane = threadIdx.x & 31;
    size_t warp = (size_t)blockIdx.x * MASK_WARPS + (threadIdx.x >> 5);
    size_t nwarps = (size_t)gridDim.x * MASK_WARPS;
    for (size_t r = warp; r < rows; r += nwarps) {
        int i = (int)(r % (size_t)L);             /* query */
        size_t b = r / ((size_t)L * (size_t)H);   /* batch */
        int keep = L;
        if (causal && i + 1 < keep) keep = i + 1;
        if (kv_len) {
            int kv = kv_len[b];
            if (kv < keep) keep = kv < 0 ? 0 : kv;
        }
        float *row = S + r * (size_t)L;
        for (int j = keep + lane; j < L; j += 32) row[j] = -INFINITY;
    }
}
//@starter
//| /* TODO: a kernel that sets every masked entry of S to -INFINITY and leaves
//|  * every other entry alone. Suggested shape: one warp per row r of the
//|  * B * H * L rows (r = (b * H + h) * L + i), in a grid-stride loop; work out
//|  * from i, causal and kv_len[b] how many leading entries the row keeps;
//|  * the lanes then write the tail, 32 consecutive columns at a time.
//|  * Use size_t for row offsets: B * H * L * L passes 2^31. */
//@end

cudaError_t mask_scores(float *S, int B, int H, int L, int causal, const int *kv_len)
{
    //@solution
    if (B < 0 || H < 0 || L < 0) return cudaErrorInvalidValue;
    size_t rows = (size_t)B * H * L;
    if (rows == 0 || (!causal && !kv_len)) return cudaSuccess;
    size_t blocks = (rows + MASK_WARPS - 1) / MASK_WARPS;
    if (blocks > (1u << 20)) blocks = 1u << 20; /* the grid-stride loop does the rest */
    mask_rows<<<(unsigned)blocks, 32 * MASK_WARPS>>>(S, rows, H, L, causal, kv_len);
    return cudaGetLastError();
    //@starter
    //| /* TODO: refuse negative sizes, return early when there is nothing to do,
    //|  * launch your kernel and return cudaGetLastError(). */
    //| (void)S, (void)B, (void)H, (void)L, (void)causal, (void)kv_len;
    //| return cudaSuccess;
    //@end
}
