/* judge_ws.h — a runner's device workspace (weeks 07 and 13: their runners
 * and yard runners): one buffer of the runner's own, grown to the largest size asked
 * and kept between calls, as a test allocates a library's or an exercise's
 * workspace once before timing. */
#ifndef JUDGE_WS_H
#define JUDGE_WS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

/* At least `bytes` of device memory (its contents as the last call left
 * them), or NULL when there is none: then the call gets NULL and fails as
 * it would. */
static inline void *jr_workspace(size_t bytes)
{
    static void *ws;
    static size_t cap;
    if (bytes > cap) {
        if (ws) cudaFree(ws);
        ws = NULL, cap = 0;
        if (cudaMalloc(&ws, bytes) != cudaSuccess) return NULL;
        cap = bytes;
    }
    return ws;
}

#endif
