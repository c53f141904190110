/* lfstack.cu — week 08, exercise 4: a lock-free stack (Treiber's).
 *
 * No lock: a thread prepares its change (next[i] = the head it saw) and
 * publishes it with one atomicCAS on the head, which succeeds only if the
 * head is still what it saw; otherwise someone else got in first, and it
 * retries with the new head. Some thread always succeeds: lock-free.
 * Pushes and pops run in separate launches here. Mixed, a pop can be fooled
 * when a node is popped and pushed back between its read of head and its CAS
 * (the ABA problem): the usual cure is a version counter beside the index in
 * one 64-bit CAS. */
#include "lfstack.h"

//@solution
static __global__ void push_kernel(unsigned int *head, unsigned int *next, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned old = atomicAdd(head, 0u), seen;
    for (;;) {
        next[i] = old;
        __threadfence(); /* next[i] is visible before node i is */
        seen = atomicCAS(head, old, (unsigned)i);
        if (seen == old) break;
        old = seen;
    }
}

static __global__ void pop_kernel(unsigned int *head, const unsigned int *next, unsigned int *popped, size_t m)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= m) return;
    unsigned old = atomicAdd(head, 0u);
    for (;;) {
        if (old == STACK_EMPTY) break;
        unsigned seen = atomicCAS(head, old, next[old]);
        if (seen == old) break;
        old = seen;
    }
    popped[t] = old;
}
//@starter
//| /* TODO: push: loop { next[i] = old; __threadfence(); CAS head old -> i };
//|  * pop: loop { if empty break; CAS head old -> next[old] }; write popped[t]. */
//| static __global__ void push_kernel(unsigned int *head, unsigned int *next, size_t n)
//| {
//|     (void)head, (void)next, (void)n;
//| }
//| static __global__ void pop_kernel(unsigned int *head, const unsigned int *next, unsigned int *popped, size_t m)
//| {
//|     (void)head, (void)next, (void)popped, (void)m;
//| }
//@end

/* ---- given ---- */
cudaError_t lfstack_push_all(unsigned int *head, unsigned int *next, size_t n)
{
    if (n == 0) return cudaSuccess;
    push_kernel<<<(unsigned)((n + 255) / 256), 256>>>(head, next, n);
    return cudaGetLastError();
}

cudaError_t lfstack_pop_all(unsigned int *head, const unsigned int *next, unsigned int *popped, size_t m)
{
    if (m == 0) return cudaSuccess;
    pop_kernel<<<(unsigned)((m + 255) / 256), 256>>>(head, next, popped, m);
    return cudaGetLastError();
}
