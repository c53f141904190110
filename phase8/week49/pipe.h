/* pipe.h — week 49, exercise 2: copy in, compute, copy out, on three
 * streams that overlap, ordered by events.
 *
 * Each stage of the pipeline has a stream of its own: `in` carries every
 * host-to-device copy, `work` every kernel, `out` every device-to-host copy.
 * On one stream work runs in order; between streams only events order it.
 * Chunk c uses staging slot s = c % nbuf: it is copied from the host into
 * dx + s * chunk, computed into dy + s * chunk, and copied from there back
 * to the host. A slot is used again nbuf chunks later, so the events must
 * also keep a new chunk from overwriting a slot that is still being read. */
#ifndef PIPE_H
#define PIPE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The work, given (support/given.cu): y[i] = v after iters steps of
 * v = fmaf(v, W49_A, x[i]) from v = 0: a dependent chain of FMAs an element,
 * its time set by iters; one thread an element, many short blocks. Enqueued
 * on s; the launch's error. */
#define W49_A 0.5f
cudaError_t w49_work(const float *x, float *y, size_t n, int iters, cudaStream_t s);

/* Given: a kernel on s that keeps s busy for about ms milliseconds (the
 * tests use it to hold back one stream and see what the others do). */
cudaError_t w49_spin(cudaStream_t s, double ms);

typedef struct {
    cudaStream_t in, work, out; /* three streams (created by the caller) */
    size_t       chunk;         /* floats a chunk (the last one may be shorter) */
    int          nbuf;          /* staging slots, >= 1 */
    float       *dx, *dy;       /* device, nbuf * chunk floats each */
    cudaEvent_t *loaded;        /* nbuf events each (created by the caller, */
    cudaEvent_t *computed;      /*   cudaEventDisableTiming): yours to record */
    cudaEvent_t *stored;        /*   and wait on, one of each per slot */
} ovl_pipe;

/* Given (support/yard_serial.cu), the yardstick SERIAL: the same chunks on
 * p->work alone, slot 0: copy in, w49_work, copy out, chunk after chunk.
 * Nothing overlaps. */
cudaError_t yard_pipe_serial(const ovl_pipe *p, const float *hx, float *hy, size_t n, int iters);

/* Yours: hy[i] = work(hx[i]) for i < n, pipelined. hx and hy are pinned
 * host memory. For chunk c (elements c * chunk ... , the last one shorter),
 * slot s = c % nbuf: the copy in on p->in, w49_work on p->work, the copy out
 * on p->out, with the events ordering what must be ordered:
 *   - the kernel reads dx slot s only after chunk c's copy in landed;
 *   - the copy out reads dy slot s only after chunk c's kernel wrote it;
 *   - chunk c's copy in overwrites dx slot s only after the kernel of chunk
 *     c - nbuf has read it; chunk c's kernel overwrites dy slot s only after
 *     the copy out of chunk c - nbuf has read it.
 * Returns once everything is enqueued: the host never waits (the caller
 * synchronises). n == 0: nothing to do; cudaErrorInvalidValue for chunk 0
 * or nbuf < 1 when n > 0; otherwise the first error. */
cudaError_t pipe_overlap(const ovl_pipe *p, const float *hx, float *hy, size_t n, int iters);

#ifdef __cplusplus
}
#endif
#endif
