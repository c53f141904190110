/* streams.h — week 05: streams and events: ordering, timing, the default
 * stream, and overlapping copies with compute. */
#ifndef STREAMS_H
#define STREAMS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 1. ordering two streams with an event ------------------------------- */

/* Enqueue y[i] = x[i] * x[i] on stream a, then z[i] = y[i] + 1 on stream b,
 * which must not start before a's kernel has finished. `ev` is an event the
 * caller created for you to use. The host must not wait (no synchronise
 * call): the function returns as soon as the work is enqueued. Returns the
 * first error. */
cudaError_t streams_two_chain(const float *x, float *y, float *z, size_t n, cudaStream_t a, cudaStream_t b,
                              cudaEvent_t ev);

/* ---- 2. timing with events ---------------------------------------------- */

/* Work to time: enqueue it on stream s and return (never synchronise). */
typedef cudaError_t (*w05_work_fn)(cudaStream_t s, void *ctx);

/* Time work(s, ctx) on stream s with CUDA events: *ms gets the milliseconds
 * between an event recorded on s before the work and one recorded on s after
 * it (cudaEventElapsedTime). Waits for the stop event only (not the whole
 * device), destroys the events it made, and returns the first error (or
 * work's). s may be a non-blocking stream: the events must be on s. */
cudaError_t streams_time_on(cudaStream_t s, w05_work_fn work, void *ctx, float *ms);

/* ---- 3. the default stream ----------------------------------------------- */

/* Create *s, a stream whose work never waits for the legacy default stream
 * (stream 0, cudaStreamLegacy) and that the legacy default stream never
 * waits for. The caller destroys it with cudaStreamDestroy. */
cudaError_t streams_make_independent(cudaStream_t *s);

/* ---- 4. overlapping copies with compute ---------------------------------- */

/* Event times of one chunk, in milliseconds after the pipeline's origin
 * event (recorded before anything else the pipeline enqueues). */
typedef struct {
    float h2d_start, h2d_end;   /* copy in  (host -> device) */
    float kern_start, kern_end; /* w05_mix on the chunk */
    float d2h_start, d2h_end;   /* copy out (device -> host) */
} w05_chunk_times;

/* hy[i] = mix(hx[i], rounds) for i < n, through the device: split [0, n)
 * into `chunks` pieces, chunk k = [n*k/chunks, n*(k+1)/chunks) (some may be
 * empty), and give chunk k to streams[k % nstreams]: copy it in (hx -> dx),
 * run w05_mix on it, copy it out (dy -> hy), all asynchronous, so that one
 * chunk's copies overlap another's kernel. hx and hy are pinned host arrays
 * (cudaHostAlloc), dx and dy device arrays, all of n elements; chunks >= 1,
 * 1 <= nstreams <= 8.
 *
 * tl == NULL: enqueue and return without waiting for anything (the caller
 * synchronises). tl != NULL: also record, with events, when each chunk's
 * copy in, kernel and copy out started and ended (tl[k], ms after an origin
 * event that every stream waits for), wait for them, and destroy the
 * events: on return the work is done and hy is written. Returns the first
 * error. */
cudaError_t streams_overlap_pipeline(const unsigned *hx, unsigned *hy, unsigned *dx, unsigned *dy, size_t n,
                                     unsigned rounds, int chunks, const cudaStream_t *streams, int nstreams,
                                     w05_chunk_times *tl);

/* ---- given (support/spin.cu) --------------------------------------------- */

/* A kernel on stream s that spins for about `ms` milliseconds (at least
 * that long: it counts cycles of the peak clock), to make a stream busy. */
cudaError_t w05_spin(cudaStream_t s, double ms);

/* y[i] = mix(x[i], rounds) on stream s for i < n (n == 0: nothing, no
 * launch): `rounds` rounds of an integer hash, exact, so the CPU can check
 * it bit for bit; its cost grows with rounds:
 *     for r < rounds: v ^= v >> 15; v *= 0x2c1b3c6dU; v ^= v >> 12; v += r;
 * (unsigned 32-bit arithmetic). */
cudaError_t w05_mix(const unsigned *x, unsigned *y, size_t n, unsigned rounds, cudaStream_t s);

/* A gate kernel (one thread) on stream s, for tests of stream order.
 * flags is mapped pinned host memory (cudaHostAllocMapped), three ints the
 * caller zeroes: the kernel sets flags[1] = 1 when it starts, then spins
 * until the host sets flags[0] != 0 or timeout_ms pass, and ends with
 * flags[2] = 1 (released) or 2 (timed out). Nothing can hang on it. */
cudaError_t w05_gate(cudaStream_t s, volatile int *flags, double timeout_ms);

#ifdef __cplusplus
}
#endif
#endif
