/* w05_checks.h — what week 05's checks expect, shared by the week's test
 * program (test_week05.c) and the instructor's judge (instructor/judge_w05.c,
 * which runs the student's code in a separate runner): the sizes and shapes,
 * how each case is drawn from its generator, the references and tolerances,
 * the checks of the views functions (over a table of the three functions, so
 * the judge can pass ones that call the runner) and the check of an overlap
 * timeline. Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases. */
#ifndef W05_CHECKS_H
#define W05_CHECKS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "streams.h"
#include "wb_rand.h"

static inline float w05_relu_ref(float v, float alpha)
{
    v *= alpha;
    return v < 0.f ? 0.f : v;
}

/* ---------------------------------------------------------------- ew_scale_relu */

static const size_t W05_SIZES[] = { 0, 1, 3, 31, 255, 256, 257, 1023, 4097, 65537, 1000003, ((size_t)1 << 24) + 5 };
#define W05_N_SIZES (sizeof W05_SIZES / sizeof W05_SIZES[0])

#define W05_SR_SIZES_TAG     "scale_relu_sizes_fn"
#define W05_SR_OFFSETS_TAG   "scale_relu_offsets_fn"
#define W05_SR_NANINF_TAG    "scale_relu_nan_inf_fn"
#define W05_N_SR_OFFSETS     16
#define W05_N_SR_NANINF      4
#define W05_SR_OFFSET_MAX_N  300000
#define W05_SR_RTOL          1e-7 /* atol 0 */

/* The three kinds of case (i: the test's _i): n, and where x and y start. */
static inline size_t w05_sr_sizes_n(int i, size_t *ox, size_t *oy) { return *ox = *oy = 0, W05_SIZES[i]; }
static inline size_t w05_sr_offsets_n(wb_rng *r, int i, size_t *ox, size_t *oy)
{
    *ox = (size_t)(i & 3), *oy = (size_t)((i >> 2) & 3);
    return (size_t)wb_rng_int(r, 1000, W05_SR_OFFSET_MAX_N);
}
static inline size_t w05_sr_naninf_n(wb_rng *r, int i, size_t *ox, size_t *oy)
{
    *ox = *oy = (size_t)(i & 1);
    return (size_t)wb_rng_int(r, 4, 5000);
}

/* A case's alpha and input (n + ox floats in [-100, 100), into hx; with
 * specials, NaN and both infinities among the n and alpha 1.5), drawn from r
 * after n; ref gets the n expected outputs. */
static inline float w05_sr_draw(wb_rng *r, size_t n, size_t ox, int specials, float *hx, float *ref)
{
    float alpha = (float)wb_rng_unit(r) * 4.f - 1.f;
    wb_fill_uniform_f32(r, hx, n + ox, -100, 100);
    if (specials && n >= 4) {
        hx[ox + 0] = NAN, hx[ox + 1] = INFINITY, hx[ox + 2] = -INFINITY, hx[ox + n - 1] = NAN;
        alpha = 1.5f;
    }
    for (size_t i = 0; i < n; i++) ref[i] = w05_relu_ref(hx[ox + i], alpha);
    return alpha;
}

/* ---------------------------------------------------------------- ew_add2d */

#define W05_ADD2D_TAG  "add2d_shapes_fn"
#define W05_N_ADD2D    8
#define W05_ADD2D_RTOL 1e-7 /* atol 0 */
static const int W05_ADD2D_R[W05_N_ADD2D] = { 1, 1, 7, 33, 257, 1000, 70000, 3 };
static const int W05_ADD2D_C[W05_N_ADD2D] = { 1, 300, 1, 31, 129, 1000, 5, 65537 };
#define W05_ADD2D_MAX_PAD 9 /* ld - cols at most */

/* Case i's shape and leading dimensions (ldc has at least one float of
 * padding), drawn from r first; then w05_add2d_fill. */
static inline void w05_add2d_shape(wb_rng *r, int i, int *rows, int *cols, size_t *lda, size_t *ldb, size_t *ldc)
{
    *rows = W05_ADD2D_R[i], *cols = W05_ADD2D_C[i];
    *lda = (size_t)*cols + (size_t)wb_rng_int(r, 0, W05_ADD2D_MAX_PAD);
    *ldb = (size_t)*cols + (size_t)wb_rng_int(r, 0, W05_ADD2D_MAX_PAD);
    *ldc = (size_t)*cols + (size_t)wb_rng_int(r, 1, W05_ADD2D_MAX_PAD);
}

/* a (lda * rows floats) and b (ldb * rows) in [-10, 10), and ref (rows x cols, packed). */
static inline void w05_add2d_fill(wb_rng *r, int rows, int cols, float *a, size_t lda, float *b, size_t ldb, float *ref)
{
    wb_fill_uniform_f32(r, a, lda * (size_t)rows, -10, 10);
    wb_fill_uniform_f32(r, b, ldb * (size_t)rows, -10, 10);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) ref[(size_t)y * cols + x] = a[y * lda + x] + b[y * ldb + x];
}

/* ---------------------------------------------------------------- ew_tensor3_relu */

#define W05_TENSOR3_TAG   "tensor3_views_fn"
#define W05_N_TENSOR3     10
#define W05_TENSOR3_ALPHA 0.75f
#define W05_TENSOR3_RTOL  1e-7 /* atol 0 */
static const int W05_TENSOR3_SH[W05_N_TENSOR3][3] = { { 1, 1, 1 },      { 0, 5, 7 },     { 3, 1, 33 },   { 5, 70, 3 },
                                                      { 17, 9, 129 },   { 2, 3, 70001 }, { 70000, 2, 3 }, { 4, 66000, 2 },
                                                      { 31, 33, 35 },   { 8, 16, 300 } };

/* A strided view of a random contiguous base tensor, permuted and/or sliced
 * with a step, the way x.permute(...)[::s] would leave it: case i's shape,
 * its strides (elements) and the base's element count, drawn from r first;
 * then w05_tensor3_fill. */
static inline size_t w05_tensor3_view(wb_rng *r, int i, int shape[3], long long st[3])
{
    int perm[3] = { 0, 1, 2 }, step[3];
    long long base_shape[3], base_st[3];
    for (int d = 0; d < 3; d++) shape[d] = W05_TENSOR3_SH[i][d];
    for (int d = 2; d > 0; d--) { /* random permutation */
        int j = (int)wb_rng_int(r, 0, d), t = perm[d];
        perm[d] = perm[j], perm[j] = t;
    }
    for (int d = 0; d < 3; d++) step[d] = (int)wb_rng_int(r, 1, 2);
    /* the view's dimension d is base dimension perm[d], read with step[d] */
    for (int d = 0; d < 3; d++) base_shape[perm[d]] = (long long)shape[d] * step[d] + (shape[d] ? 0 : 1);
    base_st[2] = 1, base_st[1] = base_shape[2], base_st[0] = base_shape[2] * base_shape[1];
    for (int d = 0; d < 3; d++) st[d] = base_st[perm[d]] * step[d];
    return (size_t)(base_shape[0] * base_shape[1] * base_shape[2]);
}

/* The most base elements any case can have (every step 2). */
static inline size_t w05_tensor3_max_base(void)
{
    size_t m = 0;
    for (int i = 0; i < W05_N_TENSOR3; i++) {
        size_t b = 1;
        for (int d = 0; d < 3; d++) b *= (size_t)W05_TENSOR3_SH[i][d] * 2 + (W05_TENSOR3_SH[i][d] ? 0 : 1);
        if (b > m) m = b;
    }
    return m;
}

/* The base (nbase floats in [-5, 5), a NaN in the middle) and ref, the
 * contiguous relu(alpha x) of the view. */
static inline void w05_tensor3_fill(wb_rng *r, float *hx, size_t nbase, const int shape[3], const long long st[3],
                                    float *ref)
{
    wb_fill_uniform_f32(r, hx, nbase, -5, 5);
    if (nbase > 2) hx[nbase / 2] = NAN;
    for (int i = 0; i < shape[0]; i++)
        for (int j = 0; j < shape[1]; j++)
            for (int k = 0; k < shape[2]; k++)
                ref[((size_t)i * shape[1] + j) * shape[2] + k] =
                    w05_relu_ref(hx[i * st[0] + j * st[1] + k * st[2]], W05_TENSOR3_ALPHA);
}

/* ---------------------------------------------------------------- views (CPU) */

#define W05_PERMUTE_TAG    "permute_random_fn"
#define W05_N_PERMUTE      8
#define W05_BRUTE_TAG      "view_brute_force_fn"
#define W05_N_BRUTE        8
#define W05_BRUTE_TRIALS   400

/* The three functions under test: the linked ones (the test) or ones that
 * call the runner (the judge). Arrays are as views.h has them. */
typedef struct {
    void (*contiguous)(void *ctx, int ndim, const long long *shape, long long *strides);
    int (*permute)(void *ctx, int ndim, const long long *shape, const long long *strides, const int *perm,
                   long long *new_shape, long long *new_strides);
    int (*view)(void *ctx, int ndim, const long long *shape, const long long *strides, int new_ndim,
                const long long *new_shape, long long *new_strides);
    void *ctx;
} w05_views_ops;

#define W05_FAIL(...) (snprintf(why, why_n, __VA_ARGS__), 1)

static inline int w05_contiguous_known(const w05_views_ops *o, char *why, size_t why_n)
{
    long long s1[] = { 2, 3, 4 }, e1[] = { 12, 4, 1 }, g[3];
    memset(g, 0x7f, sizeof g);
    o->contiguous(o->ctx, 3, s1, g);
    for (int d = 0; d < 3; d++)
        if (g[d] != e1[d]) return W05_FAIL("shape (2,3,4): stride[%d] = %lld, expected %lld", d, g[d], e1[d]);
    long long s2[] = { 5 }, g2[1] = { 0 };
    o->contiguous(o->ctx, 1, s2, g2);
    if (g2[0] != 1) return W05_FAIL("shape (5): stride %lld, expected 1", g2[0]);
    return 0;
}

static inline int w05_permute_random(const w05_views_ops *o, wb_rng *rng, char *why, size_t why_n)
{
    int nd = (int)wb_rng_int(rng, 1, 5);
    long long shape[8], st[8], nshape[8], nst[8];
    int perm[8], rc;
    for (int d = 0; d < nd; d++) shape[d] = wb_rng_int(rng, 1, 5), perm[d] = d;
    o->contiguous(o->ctx, nd, shape, st);
    for (int d = nd - 1; d > 0; d--) {
        int j = (int)wb_rng_int(rng, 0, d), t = perm[d];
        perm[d] = perm[j], perm[j] = t;
    }
    memset(nshape, 0, sizeof nshape);
    memset(nst, 0, sizeof nst);
    if ((rc = o->permute(o->ctx, nd, shape, st, perm, nshape, nst)) != 0)
        return W05_FAIL("views_permute of a valid permutation returned %d, expected 0", rc);
    for (int d = 0; d < nd; d++) {
        if (nshape[d] != shape[perm[d]])
            return W05_FAIL("permuted shape[%d] = %lld, expected %lld", d, nshape[d], shape[perm[d]]);
        if (nst[d] != st[perm[d]]) return W05_FAIL("permuted stride[%d] = %lld, expected %lld", d, nst[d], st[perm[d]]);
    }
    int bad[3] = { 0, 0, 2 };
    if (nd == 3 && o->permute(o->ctx, 3, shape, st, bad, nshape, nst) != -1) return W05_FAIL("perm (0,0,2) must be refused");
    int out_of_range[1] = { 1 };
    if (o->permute(o->ctx, 1, shape, st, out_of_range, nshape, nst) != -1)
        return W05_FAIL("perm (1) of a 1-D tensor must be refused");
    return 0;
}

/* Known answers (what torch's .view() does). */
static inline int w05_view_known(const w05_views_ops *o, char *why, size_t why_n)
{
    long long ns[8];
    long long s23[] = { 2, 3 }, c23[] = { 3, 1 }, t23[] = { 1, 2 } /* (3,2) transposed to (2,3) */;
    long long s6[] = { 6 }, s32[] = { 3, 2 }, s321[] = { 3, 1, 2 }, s5[] = { 5 };
    if (!(o->view(o->ctx, 2, s23, c23, 1, s6, ns) == 1 && ns[0] == 1)) return W05_FAIL("contiguous (2,3) -> (6): stride 1");
    if (!(o->view(o->ctx, 2, s23, c23, 2, s32, ns) == 1 && ns[0] == 2 && ns[1] == 1))
        return W05_FAIL("contiguous (2,3) -> (3,2)");
    if (o->view(o->ctx, 2, s23, t23, 1, s6, ns) != 0) return W05_FAIL("transposed (2,3) -> (6) needs a copy");
    if (o->view(o->ctx, 2, s23, t23, 3, s321, ns) != 0) return W05_FAIL("transposed (2,3) -> (3,1,2) needs a copy");
    if (o->view(o->ctx, 2, s23, c23, 1, s5, ns) != -1) return W05_FAIL("(2,3) -> (5): element counts differ");
    long long s2x3[] = { 2, 3 }, sl[] = { 6, 1 }; /* x[:, :3] of a (2,6) tensor */
    if (o->view(o->ctx, 2, s2x3, sl, 1, s6, ns) != 0)
        return W05_FAIL("a column slice (2,3) strides (6,1) -> (6) needs a copy");
    long long s4[] = { 4, 2 }, st4[] = { 4, 2 }, s8[] = { 2, 2, 2 }; /* x[:, ::2] of (4,4): rows split fine */
    if (!(o->view(o->ctx, 2, s4, st4, 3, s8, ns) == 1 && ns[0] == 8 && ns[1] == 4 && ns[2] == 2))
        return W05_FAIL("(4,2) strides (4,2) -> (2,2,2) is a view with strides (8,4,2)");
    return 0;
}

static inline long long w05_offset_of(int nd, const long long *shape, const long long *st, long long linear)
{
    long long off = 0;
    for (int d = nd - 1; d >= 0; d--) {
        off += (linear % shape[d]) * st[d];
        linear /= shape[d];
    }
    return off;
}

/* Random tensors (permuted, sliced, broadcast with stride 0, size-1 dims)
 * and random target shapes of the same size: the prediction must match a
 * brute force that asks whether the element offsets, in logical order, are
 * an affine function of the new index. W05_BRUTE_TRIALS of them from rng. */
static inline int w05_view_brute_force(const w05_views_ops *o, wb_rng *rng, char *why, size_t why_n)
{
    for (int trial = 0; trial < W05_BRUTE_TRIALS; trial++) {
        int nd = (int)wb_rng_int(rng, 1, 4), rc;
        long long shape[8], st[8], base[8], bst[8], pshape[8], pst[8];
        int perm[8];
        for (int d = 0; d < nd; d++) base[d] = wb_rng_int(rng, 1, 4), perm[d] = d;
        o->contiguous(o->ctx, nd, base, bst);
        for (int d = nd - 1; d > 0; d--) {
            int j = (int)wb_rng_int(rng, 0, d), t = perm[d];
            perm[d] = perm[j], perm[j] = t;
        }
        if (wb_rng_int(rng, 0, 1)) {
            if ((rc = o->permute(o->ctx, nd, base, bst, perm, pshape, pst)) != 0)
                return W05_FAIL("views_permute of a valid permutation returned %d, expected 0", rc);
        } else memcpy(pshape, base, sizeof base), memcpy(pst, bst, sizeof bst);
        for (int d = 0; d < nd; d++) {
            shape[d] = pshape[d], st[d] = pst[d];
            long long r = wb_rng_int(rng, 0, 9);
            if (r == 0) st[d] = 0;                          /* broadcast */
            else if (r == 1 && shape[d] > 1) shape[d] -= 1; /* slice */
            else if (r == 2) st[d] *= 2;                    /* step */
        }
        long long numel = 1;
        for (int d = 0; d < nd; d++) numel *= shape[d];
        /* a random factorisation of numel into 1..4 dimensions */
        int nn = (int)wb_rng_int(rng, 1, 4);
        long long ns[8], left = numel;
        for (int d = 0; d < nn - 1; d++) {
            long long f = 1;
            for (int tries = 0; tries < 8; tries++) {
                long long c = wb_rng_int(rng, 1, 6);
                if (left % c == 0) { f = c; break; }
            }
            ns[d] = f, left /= f;
        }
        ns[nn - 1] = left;
        long long got[8];
        for (int d = 0; d < 8; d++) got[d] = -12345;
        int r = o->view(o->ctx, nd, shape, st, nn, ns, got);
        /* brute force: candidate strides from unit steps, then check all */
        long long cand[8];
        int affine = 1;
        long long off0 = w05_offset_of(nd, shape, st, 0);
        for (int d = 0; d < nn; d++) {
            long long lin = 1;
            for (int e = d + 1; e < nn; e++) lin *= ns[e];
            cand[d] = ns[d] > 1 ? w05_offset_of(nd, shape, st, lin) - off0 : 0;
        }
        for (long long l = 0; l < numel && affine; l++) {
            long long want = w05_offset_of(nd, shape, st, l), have = 0, rem = l;
            for (int d = nn - 1; d >= 0; d--) have += (rem % ns[d]) * cand[d], rem /= ns[d];
            affine = want == have;
        }
        char desc[256];
        int p = snprintf(desc, sizeof desc, "shape (");
        for (int d = 0; d < nd; d++) p += snprintf(desc + p, sizeof desc - p, "%lld%s", shape[d], d < nd - 1 ? "," : "");
        p += snprintf(desc + p, sizeof desc - p, ") strides (");
        for (int d = 0; d < nd; d++) p += snprintf(desc + p, sizeof desc - p, "%lld%s", st[d], d < nd - 1 ? "," : "");
        p += snprintf(desc + p, sizeof desc - p, ") -> (");
        for (int d = 0; d < nn; d++) p += snprintf(desc + p, sizeof desc - p, "%lld%s", ns[d], d < nn - 1 ? "," : "");
        snprintf(desc + p, sizeof desc - p, ")");
        if (r != (affine ? 1 : 0))
            return W05_FAIL("%s: views_strides says %d, brute force says %s", desc, r, affine ? "a view (1)" : "a copy (0)");
        if (r == 1)
            for (long long l = 0; l < numel; l++) {
                long long have = 0, rem = l;
                for (int d = nn - 1; d >= 0; d--) have += (rem % ns[d]) * got[d], rem /= ns[d];
                if (have != w05_offset_of(nd, shape, st, l))
                    return W05_FAIL("%s: the strides returned read element %lld from the wrong place", desc, l);
            }
    }
    return 0;
}

/* ---------------------------------------------------------------- copy/compute overlap */

#define W05_OVERLAP_TAG "overlap_exact_fn"
#define W05_N_OVERLAP   12
#define W05_HGUARD      64 /* poisoned elements each side of the pinned output */
#define W05_OVERLAP_MAX_N ((size_t)1 << 22 | 1)
#define W05_OVERLAP_MAX_CHUNKS 64

static inline unsigned w05_mix_ref(unsigned v, unsigned rounds)
{
    for (unsigned r = 0; r < rounds; r++) {
        v ^= v >> 15;
        v *= 0x2c1b3c6dU;
        v ^= v >> 12;
        v += r;
    }
    return v;
}

/* Case i: n, chunks and streams (the last two cases drawn), then the mix's
 * rounds, drawn from r; with a timeline when i is odd. Then
 * w05_overlap_fill from the same r. */
static inline int w05_overlap_case(wb_rng *r, int i, size_t *n, int *chunks, int *nstreams, unsigned *rounds)
{
    static const struct { size_t n; int chunks, nstreams; } C[W05_N_OVERLAP] = {
        { 1, 1, 1 },      { 0, 1, 1 },       { 1, 3, 2 },          { 3, 4, 3 },          { 1000, 1, 1 },
        { 1000, 7, 3 },   { 65537, 3, 2 },   { 65537, 64, 8 },     { (1 << 20) + 7, 8, 3 }, { (1 << 22) + 1, 16, 2 },
        { 0, 0, 0 },      { 0, 0, 0 } /* random */,
    };
    *n = C[i].n, *chunks = C[i].chunks, *nstreams = C[i].nstreams;
    if (*chunks == 0) {
        *n = (size_t)wb_rng_int(r, 1, 3000000);
        *chunks = (int)wb_rng_int(r, 1, 20), *nstreams = (int)wb_rng_int(r, 1, 3);
    }
    *rounds = (unsigned)wb_rng_int(r, 1, 8);
    return i & 1;
}

/* hx: n random words; ref: their mix. */
static inline void w05_overlap_fill(wb_rng *r, size_t n, unsigned rounds, unsigned *hx, unsigned *ref)
{
    for (size_t i = 0; i < n; i++) hx[i] = (unsigned)wb_rng_u64(r), ref[i] = w05_mix_ref(hx[i], rounds);
}

/* The timeline must be what stream order makes it: within a chunk copy in,
 * kernel, copy out, each after the one before, all after the origin; a
 * stream's next chunk after its previous one. (Nothing about how chunks of
 * different streams overlap: CUDA does not promise that.) 0, or 1 with why. */
static inline int w05_check_timeline(const w05_chunk_times *tl, int chunks, int nstreams, const char *what, char *why,
                                     size_t why_n)
{
    const float eps = 1e-3f; /* event resolution is about 0.5 us */
    for (int k = 0; k < chunks; k++) {
        const float t[6] = { tl[k].h2d_start, tl[k].h2d_end, tl[k].kern_start, tl[k].kern_end, tl[k].d2h_start,
                             tl[k].d2h_end };
        for (int i = 0; i < 6; i++) {
            if (!(isfinite(t[i]) && t[i] >= -eps))
                return W05_FAIL("%s: chunk %d, time %d of 6 is %g ms (not after the origin)", what, k, i, (double)t[i]);
            if (i && !(t[i] >= t[i - 1] - eps))
                return W05_FAIL("%s: chunk %d, time %d (%g ms) before time %d (%g ms)", what, k, i, (double)t[i], i - 1,
                                (double)t[i - 1]);
        }
        if (k >= nstreams && !(tl[k].h2d_start >= tl[k - nstreams].d2h_end - eps))
            return W05_FAIL("%s: chunk %d started (%g ms) before chunk %d of the same stream ended (%g ms)", what, k,
                            (double)tl[k].h2d_start, k - nstreams, (double)tl[k - nstreams].d2h_end);
    }
    return 0;
}

#undef W05_FAIL
#endif
