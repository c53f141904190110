/* judge_w16.h — week 16's judge and its runners agree on the exercise
 * numbers and each call's arguments. A buffer argument the judge leaves out
 * (-1) is NULL.
 *
 * W16_FN_SLAB:  an operation script over one slab the runner keeps between
 *               calls (a case may span several calls). p[0] the range: a
 *               host buffer of the judge's (offset 0: its mapping's start,
 *               page-aligned), filled by the judge and never to be written;
 *               p[1] i64[0] w16_op records, p[2] as many w16_res. Offsets
 *               are bytes from p[0]; the runner only resolves them into
 *               pointers and pointers back into offsets, holding no check.
 * W16_FN_PIN:   p[0] (offset 0), i64[1] bytes, i64[2] 1: cudaHostRegister
 *               with cudaHostRegisterMapped (else default flags), i64[3] 1:
 *               cudaHostUnregister instead; out: an int, the CUDA error (the
 *               runner clears it from cudaGetLastError).
 * W16_FN_ZC:    hm_zc_scale(x, p[1], i64[0] n, f64[0] a, stream 0) where x
 *               is the device address of the judge's host buffer p[0]
 *               (offset 0, registered mapped by W16_FN_PIN;
 *               cudaHostGetDevicePointer) plus i64[1] bytes; p[1] device
 *               memory of the judge's. A failed device-address lookup is
 *               the runner's own failure (a negative status).
 * W16_FN_PIPE:  pipeline_run(p[0] hx, p[1] hy, i64[0] n, p[2] dx, p[3] dy,
 *               i64[1] chunk, i64[2] iters, streams, i64[3] nstreams): hx and
 *               hy host buffers of the judge's (registered by W16_FN_PIN),
 *               dx and dy device memory of the judge's; the streams the
 *               runner's own (cudaStreamCreate, made once, at most
 *               W16_MAX_STREAMS), as the test's are blocking streams.
 *
 * The yard runner (judge_w16_yard_runner.c, no student object): W16_FN_PIN
 * as above and W16_YARD_FN_SERIAL, the given yard_serial with W16_FN_PIPE's
 * arguments (no streams: the legacy default stream). */
#ifndef JUDGE_W16_H
#define JUDGE_W16_H

enum { W16_FN_SLAB = 1, W16_FN_PIN, W16_FN_ZC, W16_FN_PIPE };
enum { W16_YARD_FN_SERIAL = 1 }; /* W16_FN_PIN (2) too */
#define W16_YARD_RUNNER "judge-w16-yard-runner"
#define W16_MAX_STREAMS 4

/* A slab operation. */
enum {
    W16_OP_INIT = 1, /* *s filled with 0x5A, then slab_init(s, base, a[1] bytes, a[2] block, a[3] align), base
                        p[0] + a[0] (a[0] < 0: NULL); res: v the cudaError_t, zero whether *s is all zero after
                        a failure (free_list, used, owned, nblocks) */
    W16_OP_ALLOC,    /* slab_alloc; res: null 1 for NULL, else v its offset from p[0] */
    W16_OP_FREE,     /* slab_free(s, p) with p NULL for a[1] != 0, else p[0] + a[0], plus res[ref].v of this call's
                        ref-th result where ref >= 0 (a block this call handed out); res: v its return */
    W16_OP_DESTROY,  /* slab_destroy of a slab slab_init made (else *s is zeroed: what a failed slab_init left is
                        not freed); res: zero whether *s is all zero after */
};
typedef struct {
    int       code, pad;
    long long ref;
    long long a[4];
} w16_op;
typedef struct {
    long long v;
    long long in_use; /* slab_in_use after the operation (a live slab only; else -1) */
    long long cap;    /* slab_capacity after it (likewise) */
    int       null, zero;
} w16_res;

/* W16_FN_PIN's entry, for the two runners (each defines W16_PIN_ENTRY first). */
#ifdef W16_PIN_ENTRY
static int w16_pin(const jr_args *a)
{
    const cudaError_t e = a->i64[3] ? cudaHostUnregister(a->p[0])
                                    : cudaHostRegister(a->p[0], (size_t)a->i64[1],
                                                       a->i64[2] ? cudaHostRegisterMapped : cudaHostRegisterDefault);
    const int rc = (int)e;
    (void)cudaGetLastError(); /* a refusal leaves nothing behind for the next call's check */
    memcpy(a->out, &rc, sizeof rc);
    *a->out_len = sizeof rc;
    return 0;
}
#endif

#endif
