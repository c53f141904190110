/* yard_multitensor.cu — the yardstick of w51.replay-speed (see
 * yard_multitensor.h): one kernel for the whole step.
 *
 * The table travels as a kernel argument (about 2 KiB, under the 4 KiB a
 * launch's arguments may take), so the step needs no copy to the device
 * before it. Block b belongs to the tensor t with first[t] <= b < first[t+1];
 * it updates CHUNK consecutive floats of it, ILP of them a thread, all loads
 * issued before any store. */
#include <cuda_runtime.h>
#include "yard_multitensor.h"

enum { YARD_MT_MAXT = 64, YARD_MT_THREADS = 256, YARD_MT_ILP = 4, YARD_MT_CHUNK = YARD_MT_THREADS * YARD_MT_ILP };

typedef struct {
    float       *p[YARD_MT_MAXT];
    const float *g[YARD_MT_MAXT];
    float       *v[YARD_MT_MAXT];
    int          len[YARD_MT_MAXT];
    int          first[YARD_MT_MAXT + 1]; /* the first block of each tensor; first[nt] is the block count */
    int          nt;
} yard_mt_table;

static __global__ void __launch_bounds__(YARD_MT_THREADS) yard_mt_kernel(const yard_mt_table tab, float lr, float mu)
{
    /* the last tensor whose first block is at or before this one: an empty
     * tensor shares its first block with the next, which is then chosen */
    const int b = (int)blockIdx.x;
    int lo = 0, hi = tab.nt - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (tab.first[mid] <= b) lo = mid;
        else hi = mid - 1;
    }
    const int t = lo, n = tab.len[t];
    const int base = (b - tab.first[t]) * YARD_MT_CHUNK + (int)threadIdx.x;
    float *__restrict__ p = tab.p[t];
    const float *__restrict__ g = tab.g[t];
    float *__restrict__ v = tab.v[t];

    float pk[YARD_MT_ILP], gk[YARD_MT_ILP], vk[YARD_MT_ILP];
#pragma unroll
    for (int k = 0; k < YARD_MT_ILP; k++) {
        int i = base + k * YARD_MT_THREADS;
        if (i < n) pk[k] = p[i], gk[k] = g[i], vk[k] = v[i];
    }
#pragma unroll
    for (int k = 0; k < YARD_MT_ILP; k++) {
        int i = base + k * YARD_MT_THREADS;
        if (i < n) {
            float nv = fmaf(mu, vk[k], gk[k]);
            v[i] = nv;
            p[i] = fmaf(-lr, nv, pk[k]);
        }
    }
}

extern "C" cudaError_t yard_multitensor_step(const opt_set *set, float lr, float mu, cudaStream_t s)
{
    for (int t0 = 0; t0 < set->nt; t0 += YARD_MT_MAXT) {
        yard_mt_table tab;
        int blocks = 0;
        tab.nt = 0;
        for (int t = t0; t < set->nt && t < t0 + YARD_MT_MAXT; t++) {
            int n = set->len[t] > 0 ? set->len[t] : 0, k = tab.nt++;
            tab.p[k] = set->p[t], tab.g[k] = set->g[t], tab.v[k] = set->v[t], tab.len[k] = n;
            tab.first[k] = blocks;
            blocks += (n + YARD_MT_CHUNK - 1) / YARD_MT_CHUNK;
        }
        tab.first[tab.nt] = blocks;
        if (blocks == 0) continue;
        yard_mt_kernel<<<blocks, YARD_MT_THREADS, 0, s>>>(tab, lr, mu);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}
