/* pipe_links.cu — week 50, given: the links of a pipeline across GPUs
 * (pipe.h's pipe_links). Two communicators of two ranks a link, one a
 * direction, each made by ncclCommInitAll over the link's two GPUs (rank 0
 * on stage s's, rank 1 on stage s+1's), and one non-blocking stream for
 * each end of each, on that end's GPU. pipe.h says why one a direction and
 * why streams of their own. */
#include <string.h>
#include "pipe.h"

void pipe_links_destroy(pipe_links *L)
{
    int dev0 = 0;
    cudaGetDevice(&dev0);
    for (int s = 0; s + 1 < L->p; s++)
        for (int e = 0; e < 2; e++) {
            cudaSetDevice(L->dev[s + e]);
            if (L->fwd_st[s][e]) cudaStreamDestroy(L->fwd_st[s][e]);
            if (L->bwd_st[s][e]) cudaStreamDestroy(L->bwd_st[s][e]);
            if (L->fwd[s][e]) ncclCommDestroy(L->fwd[s][e]);
            if (L->bwd[s][e]) ncclCommDestroy(L->bwd[s][e]);
        }
    cudaSetDevice(dev0);
    memset(L, 0, sizeof *L);
}

ncclResult_t pipe_links_create(int p, const int *dev, pipe_links *L)
{
    memset(L, 0, sizeof *L);
    if (p < 1 || p > PIPE_MAX_STAGES || !dev) return ncclInvalidArgument;
    int dev0 = 0; /* the caller's device, current again on return */
    cudaError_t ce = cudaGetDevice(&dev0);
    if (ce != cudaSuccess) return ncclUnhandledCudaError;
    L->p = p;
    memcpy(L->dev, dev, (size_t)p * sizeof *dev);
    ncclResult_t r = ncclSuccess;
    for (int s = 0; s + 1 < p && r == ncclSuccess; s++) {
        int pair[2] = { dev[s], dev[s + 1] };
        ncclComm_t f[2] = { NULL, NULL }, b[2] = { NULL, NULL };
        r = ncclCommInitAll(f, 2, pair);
        if (r == ncclSuccess) memcpy(L->fwd[s], f, sizeof f), r = ncclCommInitAll(b, 2, pair);
        if (r == ncclSuccess) memcpy(L->bwd[s], b, sizeof b);
        for (int e = 0; e < 2 && r == ncclSuccess; e++)
            if (cudaSetDevice(pair[e]) != cudaSuccess ||
                cudaStreamCreateWithFlags(&L->fwd_st[s][e], cudaStreamNonBlocking) != cudaSuccess ||
                cudaStreamCreateWithFlags(&L->bwd_st[s][e], cudaStreamNonBlocking) != cudaSuccess)
                r = ncclUnhandledCudaError;
    }
    cudaSetDevice(dev0);
    if (r != ncclSuccess) pipe_links_destroy(L);
    return r;
}
