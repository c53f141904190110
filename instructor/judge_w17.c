/* judge_w17.c — build/instructor/judge-w17: week 17's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's pgm.o, conv2d.o, separable.o, equalize.o, resize.o, sobel.o
 * and pipeline.o are linked into the runner (judge_w17_runner.c), which
 * this process starts (or is handed) and asks to call them on buffers it
 * allocated (judge.h). It poisons, fills, times and checks, and writes the
 * results record itself, outside the runner's reach. The command line, the
 * runner's start, the record, the guarded buffers, the timed-call protocol
 * and the COPY yardstick are judge_week.c's:
 *
 *   judge-w17 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases are test_week17.c's, COPIED here (the test has no shared
 * header, and a staged judge leaves the week's test as it is): the same
 * shapes, radii, sizes, offsets, patterns and tolerances, each case drawn
 * from the test's generator for the seed (wb_rng_for_seed with the test's
 * tag, its __func__, and the case's index) in the test's order, the CPU
 * references the test's, in double (the pipeline and the equalisation in
 * exact arithmetic). Every float output sits in a guarded, poisoned buffer
 * (jd_case), every element against the reference within atol + rtol |ref|,
 * NaN where NaN is due (the poison left there counted as not written);
 * every byte or count output in a guarded byte buffer (jd_gbuf), compared
 * exactly, its bands untouched:
 *   w17.pgm        pgm_decode on the test's valid files (comments, tabs,
 *                  CR LF, 16-bit big-endian, a sample equal to maxval,
 *                  trailing bytes, P6) and its 25 malformed ones (-1, a
 *                  message, *img zeroed); the 6 round trips (random images
 *                  8- and 16-bit, grey and colour, maxval 1 to 65535):
 *                  pgm_encode's size (asked with no buffer, a buffer one
 *                  byte short, the exact one), pgm_decode of its bytes, a
 *                  pgm_write then pgm_read through a file of the runner's
 *                  own, the refusals (a sample above maxval, 2 channels);
 *                  and the 7 shipped images (the week folder's images/,
 *                  read by the judge and handed to the student's pgm_read
 *                  through a file of the runner's) equal to the test's
 *                  generator, each generated image also written with
 *                  pgm_write and read back. CPU functions: judged with or
 *                  without a GPU (the runner then opens none). The test
 *                  also leaves its generated set in build/.../images/ for
 *                  remaking the shipped files: the judge checks the same
 *                  pgm_write calls succeed and read back, not that files
 *                  are left behind (nothing of the verdict rests on them);
 *   w17.conv2d     conv2d_naive and conv2d_tiled (weights through
 *                  conv2d_set_weights from a host array the runner sets to
 *                  NaN right after the call) on the test's 16 shapes (1x1
 *                  to 4099x517, K = 1..15, width or height 0), a NaN and an
 *                  Inf in every third image, atol 3e-6 K sum|w| + 1e-6,
 *                  rtol 1e-5; the six bad K (0, -1, 2, 4, 16, 17) refused
 *                  by conv2d_set_weights and conv2d_naive;
 *   w17.separable  sep_rows, sep_cols and the two in a row (through a
 *                  buffer of the runner's) on the test's 11 shapes (radius
 *                  0..16), a NaN in every other image, against the 2D
 *                  filter of the outer product where cheap; a radius of -1
 *                  or 17 refused;
 *   w17.equalize   eq_histogram, eq_lut (on the student's histogram),
 *                  eq_apply and eq_apply in place on the test's 11 images
 *                  (0 to 2^24 bytes, uniform, low-contrast and one-level,
 *                  the input and output at byte offsets 0..3), and eq_lut
 *                  alone on its 5 histograms (empty, one level, two levels,
 *                  counts past 32-bit products, a narrow band), exact;
 *   w17.resize     resize_bilinear on the test's 12 shapes (1x1 up and
 *                  down, each axis on its own, 4096 wide, an empty output),
 *                  atol 2e-6 + 4e-7 max(iw, ih); an empty input with a
 *                  non-empty output refused;
 *   w17.sobel      sobel on the test's 9 shapes, atol = rtol = 1e-5;
 *   w17.pipeline   pipeline_apply on the test's 9 scenes (1x1 to
 *                  4000x3000, width 0), the workspace the student's
 *                  pipeline_workspace_bytes asks for (poisoned; at most
 *                  W17_WS_CAP bytes), bit for bit against the test's
 *                  single-threaded CPU version, then again on the same
 *                  workspace with the output poisoned;
 *   w17.conv-bw    conv2d_tiled with a 5 x 5 filter (weights in [-1, 1]
 *                  drawn from the run's seed, handed to conv2d_set_weights
 *                  before the warm-up: jd_bench.prepare) on the test's
 *                  square image (wb_bench_bytes() of floats, its side a
 *                  multiple of 32), through the timed-call protocol
 *                  (judge_week.h: up to 64 calls a request, each on its own
 *                  input in [0, 1) from the hidden seed and a poisoned
 *                  output, the judge's look right after the reply, every
 *                  timed output checked in full by the judge's kernel
 *                  jd_w17_conv_check_f32 at w17.conv2d's tolerance, the
 *                  input re-derived from its seed; the median of 7
 *                  requests), 8 bytes a pixel, against COPY of the image
 *                  through the same protocol (jd_copy_yard), >= 0.50;
 *   w17.conv-speed the same timed convolution against cuDNN's
 *                  (cudnnConvolutionForward through the week's given
 *                  support/yard_cudnn_conv.cu, cuDNN loaded at run time as
 *                  the test loads it) in the judge's own yard runner
 *                  (judge-w17-yard-runner, no student object): each
 *                  algorithm cuDNN's own search offers for the shape (not
 *                  marked too slow, as the test) planned and its workspace
 *                  allocated before the warm-up, timed through the same
 *                  protocol, every output checked in full against cuDNN's
 *                  zero border at the test's wider tolerance (2e-5 sum|w| +
 *                  1e-6, 1e-4), before the student's runner starts and
 *                  after, the faster kept; the fastest algorithm with a
 *                  figure is the yardstick, >= 1.00. A wrong output of the
 *                  student's FAILs with or without cuDNN; then, where the
 *                  judge cannot load cuDNN or cuDNN cannot plan the shape,
 *                  SKIP with the test's reason; no algorithm with a figure:
 *                  FAIL, as the test's.
 *   w17.pipeline-speed
 *                  pipeline_apply on 4000x3000 scenes through the timed
 *                  protocol (64 calls a request, median of 7): each call's
 *                  scene made on the device from its hidden seed by the
 *                  judge's kernel (a gradient, 7 discs and noise, as the
 *                  test's make_scene draws them), a poisoned output, one
 *                  workspace of pipeline_workspace_bytes the runner
 *                  allocates before the warm-up (the calls run one after
 *                  another on stream 0); the look reads 4-byte words of
 *                  every call's output bit for bit, and every byte of every
 *                  timed output is checked against the judge's own pipeline
 *                  on the GPU (jd_w17_pipe_ref: exact, as the test's CPU
 *                  version), re-made from each call's seed; 21 bytes a
 *                  pixel against COPY of wb_bench_bytes(), >= 0.45. The
 *                  test's CPU version timed beside it is a report row, not
 *                  part of the verdict, and is not timed here.
 * None is left to the linked test.
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASSed the seven correctness
 * checkpoints and w17.conv-speed (4.67 times cuDNN's fastest), and read w17.conv-bw 0.437 and 0.438,
 * w17.pipeline-speed 0.361 and 0.366 of COPY, under the H100 targets 0.50 and 0.45 (at K = 5 the shared
 * loads set the limit, not DRAM): week.txt now has H200 targets of 0.39 and 0.32, and plain again the
 * reference PASSed all ten (0.439, 4.66, 0.364); the starter FAILed all ten each time.
 * Without a GPU the plumbing is tested by
 * instructor/tests/judge_w17.sh (w17.pgm PASS for the reference and FAIL
 * for the starter; every other checkpoint SKIP, never PASS; calibration
 * says the three speed checkpoints were not run). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv2d.h"
#include "equalize.h"
#include "judge.h"
#include "judge_w17.h"
#include "judge_w17_kernels.h"
#include "judge_week.h"
#include "pgm.h"
#include "separable.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cudnn.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

/* The most workspace the judge gives pipeline_apply (pipeline_workspace_bytes, the student's, asks). */
#define W17_WS_CAP ((size_t)4 << 30)

static const char *g_week_dir = "phase4/week17";

static int clampc(int v, int n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }
static double pix(const float *img, int w, int h, int x, int y) { return img[(size_t)clampc(y, h) * w + clampc(x, w)]; }

static const char *status_name(int s) { return s < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)s); }

/* ================================================================ w17.pgm (CPU) */

/* test_week17.c's generator of the shipped images, copied */
static uint16_t hash_level(int x, int y)
{
    uint64_t z = (uint64_t)(uint32_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)y * 0xC2B2AE3D27D4EB4Full;
    z ^= z >> 29, z *= 0xBF58476D1CE4E5B9ull, z ^= z >> 32;
    return (uint16_t)(z & 255);
}

static const unsigned char GLYPH_C[7] = { 0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E };
static const unsigned char GLYPH_U[7] = { 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E };
static const unsigned char GLYPH_D[7] = { 0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E };
static const unsigned char GLYPH_A[7] = { 0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11 };
static const unsigned char GLYPH_1[7] = { 0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E };
static const unsigned char GLYPH_7[7] = { 0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 };

typedef struct {
    int       width, height, channels, maxval;
    uint16_t *data;
} img16;

static int gen_image(int which, img16 *im)
{
    static const int W[] = { 256, 97, 200, 64, 140, 300, 64 }, H[] = { 64, 61, 150, 48, 32, 20, 32 };
    static const int CH[] = { 1, 1, 1, 1, 1, 1, 3 }, MAX[] = { 255, 255, 255, 255, 255, 65535, 255 };
    im->width = W[which], im->height = H[which], im->channels = CH[which], im->maxval = MAX[which];
    size_t n = (size_t)im->width * im->height * im->channels;
    im->data = malloc(n * sizeof(uint16_t));
    if (!im->data) return -1;
    const unsigned char *text[7] = { GLYPH_C, GLYPH_U, GLYPH_D, GLYPH_A, NULL, GLYPH_1, GLYPH_7 };
    for (int y = 0; y < im->height; y++)
        for (int x = 0; x < im->width; x++) {
            uint16_t *p = im->data + ((size_t)y * im->width + x) * im->channels;
            switch (which) {
            case 0: p[0] = (uint16_t)((x + (y / 16) * 64) & 255); break;
            case 1: p[0] = ((x / 8 + y / 8) & 1) ? 230 : 25; break;
            case 2: {
                int d1 = (x - 60) * (x - 60) + (y - 75) * (y - 75), d2 = (x - 150) * (x - 150) + (y - 60) * (y - 60);
                p[0] = d1 <= 40 * 40 ? 200 : (d2 >= 30 * 30 && d2 <= 38 * 38) ? 120 : 40;
                break;
            }
            case 3: p[0] = hash_level(x, y); break;
            case 4: {
                int gx = (x - 7) / 3, gy = (y - 5) / 3, ch = gx / 6, col = gx % 6;
                int on = x >= 7 && y >= 5 && gy < 7 && ch < 7 && col < 5 && text[ch] && (text[ch][gy] >> (4 - col) & 1);
                p[0] = on ? 20 : 235;
                break;
            }
            case 5: p[0] = (uint16_t)((long)x * 65535 / (im->width - 1)); break;
            default: p[0] = (uint16_t)(x * 4), p[1] = (uint16_t)(y * 8), p[2] = (uint16_t)(((x / 16) & 1) ? 255 : 0);
            }
        }
    return 0;
}

static const char *const SHIPPED[] = { "ramps.pgm", "checker.pgm", "circles.pgm", "noise.pgm",
                                       "text.pgm",  "ramp16.pgm",  "bars.ppm" };

enum { PGM_BYTES = 1 << 20, PGM_SAMPLES = 1 << 19 };

/* The host buffers both processes map: a file's bytes, samples in, samples out. */
typedef struct {
    jd            *J;
    int            ib, is, io;
    unsigned char *bytes;
    uint16_t      *in, *out;
} pgm_room;

static int pgm_room_alloc(jd *J, pgm_room *P, jd_tally *t)
{
    memset(P, 0, sizeof *P);
    P->J = J, P->ib = P->is = P->io = -1;
    P->ib = jd_alloc_kind(J, JD_MEM_HOST, PGM_BYTES, (void **)&P->bytes);
    if (P->ib >= 0) P->is = jd_alloc_kind(J, JD_MEM_HOST, PGM_SAMPLES * 2, (void **)&P->in);
    if (P->is >= 0) P->io = jd_alloc_kind(J, JD_MEM_HOST, PGM_SAMPLES * 2, (void **)&P->out);
    if (P->io < 0) return jd_failf(t, "buffers: %s", J->why), -1;
    return 0;
}

static void pgm_room_free(pgm_room *P)
{
    if (P->io >= 0) jd_free(P->J, P->io);
    if (P->is >= 0) jd_free(P->J, P->is);
    if (P->ib >= 0) jd_free(P->J, P->ib);
}

/* pgm_decode (fn W17_FN_DECODE) or pgm_read (W17_FN_READ) of len bytes put in P->bytes; 0 or -1 (t says why). */
static int pgm_parse(pgm_room *P, int fn, size_t len, w17_pgm_rep *r, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, 2);
    rq.arg_buf[0][0] = P->ib, rq.arg_buf[0][1] = P->io;
    rq.i64[1] = (long long)len, rq.i64[2] = PGM_SAMPLES;
    memset(P->out, 0xA5, PGM_SAMPLES * 2);
    if (jd_call(P->J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", fn == W17_FN_READ ? "pgm_read" : "pgm_decode", P->J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *r)
        return jd_failf(t, "%s: no answer from the runner", fn == W17_FN_READ ? "pgm_read" : "pgm_decode"), -1;
    memcpy(r, rp.out, sizeof *r);
    if (r->io_failed) return jd_failf(t, "pgm_read: the runner could not write its file"), -1;
    return 0;
}

/* The image read back (r, P->out) is want; 0, or 1 with t told (what names the case). */
static int same_image(const pgm_room *P, const w17_pgm_rep *r, const img16 *want, const char *what, jd_tally *t)
{
    if (r->width != want->width || r->height != want->height || r->channels != want->channels ||
        r->maxval != want->maxval)
        return jd_failf(t, "%s: read back %dx%d, %d channels, maxval %d; wrote %dx%d, %d channels, maxval %d", what,
                        r->width, r->height, r->channels, r->maxval, want->width, want->height, want->channels,
                        want->maxval),
               1;
    if (!r->copied) return jd_failf(t, "%s: read back with no samples", what), 1;
    size_t n = (size_t)want->width * want->height * want->channels;
    for (size_t i = 0; i < n; i++)
        if (P->out[i] != want->data[i])
            return jd_failf(t, "%s: sample %zu read back as %u, wrote %u", what, i, P->out[i], want->data[i]), 1;
    if (!r->freed_null) return jd_failf(t, "%s: pgm_free left data or the size set", what), 1;
    return 0;
}

#define BYTES(s) (const char *)(s), sizeof(s) - 1

/* test_week17.c's pgm_decode_valid */
static int pgm_valid(pgm_room *P, jd_tally *t)
{
    static const struct {
        const char *s;
        size_t      len;
        int         w, h, ch, maxval, n_check;
        uint16_t    v[6];
        const char *why;
    } OK[] = {
        { BYTES("P5\n2 1\n255\n\x01\x02"), 2, 1, 1, 255, 2, { 1, 2 }, "plain P5" },
        { BYTES("P5# magic\n# a line\n3 # width\r\n\t1\n# before maxval\n200\n\x00\x10\xc8"), 3, 1, 1, 200, 3,
          { 0, 16, 200 }, "comments, tabs and CR" },
        { BYTES("P5 2 1 65535\n\x01\x02\xff\xfe"), 2, 1, 1, 65535, 2, { 0x0102, 0xfffe }, "16-bit, big-endian" },
        { BYTES("P5 1 1 1000\n\x03\xe8"), 1, 1, 1, 1000, 1, { 1000 }, "maxval 1000, sample 1000" },
        { BYTES("P5 2 1 15\n\x0f\x00trailing"), 2, 1, 1, 15, 2, { 15, 0 }, "maxval 15 with trailing bytes" },
        { BYTES("P6\n1 2\n255\n\x01\x02\x03\x04\x05\x06"), 1, 2, 3, 255, 6, { 1, 2, 3, 4, 5, 6 }, "P6" },
    };
    for (int i = 0; i < N_OF(OK) && !P->J->lost; i++) {
        w17_pgm_rep r;
        t->tests++;
        memcpy(P->bytes, OK[i].s, OK[i].len);
        if (pgm_parse(P, W17_FN_DECODE, OK[i].len, &r, t) != 0) return -1;
        if (r.rc != 0) {
            jd_failf(t, "pgm_decode refused a valid file (%s): returned %d", OK[i].why, r.rc);
            continue;
        }
        if (r.width != OK[i].w || r.height != OK[i].h || r.channels != OK[i].ch || r.maxval != OK[i].maxval) {
            jd_failf(t, "pgm_decode (%s): %dx%d, %d channels, maxval %d; expected %dx%d, %d, %d", OK[i].why, r.width,
                     r.height, r.channels, r.maxval, OK[i].w, OK[i].h, OK[i].ch, OK[i].maxval);
            continue;
        }
        int bad = !r.copied;
        for (int k = 0; k < OK[i].n_check && !bad; k++)
            if (P->out[k] != OK[i].v[k]) {
                jd_failf(t, "pgm_decode (%s): sample %d read as %u, expected %u%s", OK[i].why, k, P->out[k], OK[i].v[k],
                         i == 2 ? " (big-endian expected)" : "");
                bad = -1;
            }
        if (bad > 0) jd_failf(t, "pgm_decode (%s): returned 0 with no samples", OK[i].why);
        else if (!bad && !r.freed_null) jd_failf(t, "pgm_free left data or the size set (%s)", OK[i].why);
    }
    return 0;
}

/* test_week17.c's pgm_decode_refuses */
static int pgm_refuses(pgm_room *P, jd_tally *t)
{
    static const struct { const char *s; size_t len; const char *why; } BAD[] = {
        { BYTES(""), "empty" },
        { BYTES("P"), "magic cut short" },
        { BYTES("P2 2 1 255\n1 2\n"), "ASCII PGM (P2) is not read" },
        { BYTES("P3 1 1 255\n1 2 3\n"), "ASCII PPM (P3) is not read" },
        { BYTES("P7 1 1 255\n\x01"), "unknown magic" },
        { BYTES("p5 1 1 255\n\x01"), "lower-case magic" },
        { BYTES("P52 1 255\n\x01\x02"), "no whitespace after the magic" },
        { BYTES("P5 0 1 255\n"), "width 0" },
        { BYTES("P5 2 0 255\n"), "height 0" },
        { BYTES("P5 -2 1 255\n\x01\x02"), "negative width" },
        { BYTES("P5 2 1 0\n\x00\x00"), "maxval 0" },
        { BYTES("P5 1 1 65536\n\x00\x00"), "maxval 65536" },
        { BYTES("P5 99999999999999999999 1 255\n\x01"), "width overflows" },
        { BYTES("P5 70000 1 255\n\x01"), "width past PGM_MAX_SIDE" },
        { BYTES("P5 65536 65536 65535\n\x01\x02"), "an 8 GB raster that is not there" },
        { BYTES("P5 2 1\n"), "maxval missing" },
        { BYTES("P5 2 1 255"), "nothing after maxval" },
        { BYTES("P5 2 1 255x\x01\x02"), "no whitespace after maxval" },
        { BYTES("P5 2 1 2a5\n\x01\x02"), "maxval not a number" },
        { BYTES("P5 # only a comment\n"), "width missing" },
        { BYTES("P5 2 2 255\n\x01\x02\x03"), "raster one byte short" },
        { BYTES("P5 1 1 300\n\x01"), "16-bit raster one byte short" },
        { BYTES("P5 2 1 15\n\x10\x00"), "sample above maxval (8-bit)" },
        { BYTES("P5 1 1 300\n\x01\x2d"), "sample above maxval (16-bit)" },
        { BYTES("P6 1 1 255\n\x01\x02"), "colour raster short" },
    };
    t->tests++;
    for (int i = 0; i < N_OF(BAD) && !P->J->lost; i++) {
        w17_pgm_rep r;
        memcpy(P->bytes, BAD[i].s, BAD[i].len);
        if (pgm_parse(P, W17_FN_DECODE, BAD[i].len, &r, t) != 0) return -1;
        if (r.rc != -1) return jd_failf(t, "pgm_decode accepted a bad file (%s): returned %d", BAD[i].why, r.rc), 0;
        if (!r.err_set) return jd_failf(t, "pgm_decode refused (%s) but left no message in err", BAD[i].why), 0;
        if (!r.data_null || r.width != 0 || r.height != 0)
            return jd_failf(t, "pgm_decode refused (%s) but left *img set", BAD[i].why), 0;
    }
    return 0;
}

/* pgm_encode of im (P->in holds its samples) with cap bytes (buffer P->bytes, or NULL): its return */
static int pgm_enc(pgm_room *P, const img16 *im, int comment, int with_buf, size_t cap, size_t *got, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W17_FN_ENCODE, 1, 2);
    rq.arg_buf[0][0] = P->is, rq.arg_buf[0][1] = with_buf ? P->ib : -1;
    rq.i64[1] = im->width, rq.i64[2] = im->height, rq.i64[3] = im->channels, rq.i64[4] = im->maxval;
    rq.i64[5] = comment, rq.i64[6] = (long long)cap;
    if (jd_call(P->J, &rq, &rp, NULL) != 0) return jd_failf(t, "pgm_encode: %s", P->J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *got) return jd_failf(t, "pgm_encode: no answer from the runner"), -1;
    memcpy(got, rp.out, sizeof *got);
    return 0;
}

/* pgm_write then pgm_read of im (P->in) through a file of the runner's; 0 (t told of a failure) or -1 */
static int pgm_file(pgm_room *P, const img16 *im, const char *what, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    w17_pgm_rep r;
    size_t n = (size_t)im->width * im->height * im->channels;
    memcpy(P->in, im->data, n * 2);
    memset(P->out, 0xA5, PGM_SAMPLES * 2);
    jd_call_setup(&rq, W17_FN_FILE, 1, 2);
    rq.arg_buf[0][0] = P->is, rq.arg_buf[0][1] = P->io;
    rq.i64[1] = im->width, rq.i64[2] = im->height, rq.i64[3] = im->channels, rq.i64[4] = im->maxval;
    rq.i64[6] = PGM_SAMPLES;
    if (jd_call(P->J, &rq, &rp, NULL) != 0) return jd_failf(t, "pgm_write: %s", P->J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof r) return jd_failf(t, "pgm_write: no answer from the runner"), -1;
    memcpy(&r, rp.out, sizeof r);
    if (r.io_failed) return jd_failf(t, "pgm_write: the runner could not make its file"), -1;
    if (r.write_rc != 0) return jd_failf(t, "%s: pgm_write returned %d", what, r.write_rc), 0;
    if (r.rc != 0) return jd_failf(t, "%s: pgm_read of your own file returned %d", what, r.rc), 0;
    same_image(P, &r, im, what, t);
    return 0;
}

/* test_week17.c's random_image */
static int random_image(wb_rng *rng, img16 *im, int channels, int maxval)
{
    im->width = (int)wb_rng_int(rng, 1, 300), im->height = (int)wb_rng_int(rng, 1, 200);
    if (wb_rng_int(rng, 0, 3) == 0) im->width = im->height = 1;
    im->channels = channels, im->maxval = maxval;
    size_t n = (size_t)im->width * im->height * channels;
    im->data = malloc(n * sizeof(uint16_t));
    if (!im->data) return -1;
    for (size_t i = 0; i < n; i++) im->data[i] = (uint16_t)wb_rng_int(rng, 0, maxval);
    return 0;
}

/* test_week17.c's pgm_round_trip, case i */
static int pgm_round_trip(pgm_room *P, int i, jd_tally *t)
{
    static const int CH[] = { 1, 1, 3, 3, 1, 1 }, MV[] = { 255, 65535, 255, 1000, 1, 256 };
    wb_rng rng = wb_rng_for_seed(jd_seed, "pgm_round_trip", i);
    img16 im;
    if (random_image(&rng, &im, CH[i], MV[i]) != 0) return jd_failf(t, "out of memory"), -1;
    char what[120];
    snprintf(what, sizeof what, "%dx%d, %d channel(s), maxval %d", im.width, im.height, im.channels, im.maxval);
    size_t n = (size_t)im.width * im.height * im.channels, need = 0, got = 0;
    size_t raster = n * (im.maxval < 256 ? 1 : 2);
    int rc = -1;
    t->tests++;
    memcpy(P->in, im.data, n * 2);
    if (pgm_enc(P, &im, 1, 0, 0, &need, t) != 0) goto out;
    rc = 0;
    if (need <= raster) {
        jd_failf(t, "%s: pgm_encode asks for %zu bytes, the raster alone is %zu", what, need, raster);
        goto out;
    }
    if (need > PGM_BYTES) {
        jd_failf(t, "%s: pgm_encode asks for %zu bytes, far more than the file needs", what, need);
        goto out;
    }
    rc = -1;
    if (pgm_enc(P, &im, 1, 1, need - 1, &got, t) != 0) goto out;
    rc = 0;
    if (got != need) {
        jd_failf(t, "%s: a buffer too small must still get the size (%zu, got %zu)", what, need, got);
        goto out;
    }
    rc = -1;
    if (pgm_enc(P, &im, 1, 1, need, &got, t) != 0) goto out;
    rc = 0;
    if (got != need) {
        jd_failf(t, "%s: pgm_encode returned another size (%zu, then %zu)", what, need, got);
        goto out;
    }
    w17_pgm_rep r;
    rc = -1;
    if (pgm_parse(P, W17_FN_DECODE, need, &r, t) != 0) goto out;
    rc = 0;
    if (r.rc != 0) {
        jd_failf(t, "%s: your own file refused by pgm_decode", what);
        goto out;
    }
    if (same_image(P, &r, &im, what, t)) goto out;
    rc = pgm_file(P, &im, what, t);
    if (rc != 0 || t->failed) goto out;
    /* what cannot be written */
    if (im.maxval < 65535) {
        P->in[0] = (uint16_t)(im.maxval + 1);
        rc = pgm_enc(P, &im, 0, 1, need, &got, t);
        if (rc == 0 && got != 0) {
            jd_failf(t, "%s: a sample above maxval encoded", what);
            goto out;
        }
    }
    im.channels = 2;
    if (rc == 0) rc = pgm_enc(P, &im, 0, 1, need, &got, t);
    if (rc == 0 && got != 0) jd_failf(t, "pgm_encode must refuse 2 channels");
out:
    free(im.data);
    return rc;
}

/* test_week17.c's shipped_images: the week folder's files through the
 * student's pgm_read; each generated image through pgm_write and back. */
static int pgm_shipped(pgm_room *P, jd_tally *t)
{
    t->tests++;
    for (int k = 0; k < N_OF(SHIPPED) && !P->J->lost; k++) {
        img16 want;
        if (gen_image(k, &want) != 0) return jd_failf(t, "out of memory"), -1;
        char path[600], what[700];
        snprintf(path, sizeof path, "%s/images/%s", g_week_dir, SHIPPED[k]);
        snprintf(what, sizeof what, "the generated %s", SHIPPED[k]);
        int rc = pgm_file(P, &want, what, t);
        if (rc != 0 || t->failed) return free(want.data), rc;
        FILE *f = fopen(path, "rb");
        size_t len = f ? fread(P->bytes, 1, PGM_BYTES, f) : 0;
        if (f) fclose(f);
        if (!f || len == 0 || len == PGM_BYTES) {
            free(want.data);
            return jd_failf(t, "the judge cannot read the shipped %s", path), -1;
        }
        w17_pgm_rep r;
        if (pgm_parse(P, W17_FN_READ, len, &r, t) != 0) return free(want.data), -1;
        snprintf(what, sizeof what, "the shipped %s", SHIPPED[k]);
        if (r.rc != 0) jd_failf(t, "reading the shipped %s: pgm_read returned %d", SHIPPED[k], r.rc);
        else same_image(P, &r, &want, what, t);
        free(want.data);
        if (t->failed) return 0;
    }
    return 0;
}

static void judge_pgm(jd *J, jd_tally *t)
{
    pgm_room P;
    if (pgm_room_alloc(J, &P, t) == 0 && pgm_valid(&P, t) == 0 && pgm_refuses(&P, t) == 0) {
        int rc = 0;
        for (int i = 0; i < 6 && rc == 0 && !J->lost; i++) rc = pgm_round_trip(&P, i, t);
        if (rc == 0 && !J->lost) pgm_shipped(&P, t);
    }
    pgm_room_free(&P);
}

static void judge_pgm_gpu(jd_ck *k) { judge_pgm(k->J, k->t); }

/* ================================================================ w17.conv2d */

static void conv_ref(const float *in, int w, int h, const float *wt, int k, double *out)
{
    int r = k / 2;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double s = 0;
            for (int dy = -r; dy <= r; dy++)
                for (int dx = -r; dx <= r; dx++) s += (double)wt[(dy + r) * k + dx + r] * pix(in, w, h, x + dx, y + dy);
            out[(size_t)y * w + x] = s;
        }
}

/* test_week17.c's CONV: width, height, K */
static const int CONV[][3] = { { 1, 1, 1 },     { 1, 1, 15 },  { 1, 9, 3 },       { 9, 1, 5 },        { 2, 3, 7 },
                               { 31, 17, 5 },   { 32, 32, 3 }, { 33, 9, 15 },     { 100, 37, 9 },     { 257, 129, 11 },
                               { 1000, 3, 13 }, { 3, 1000, 7 }, { 1920, 1080, 5 }, { 4099, 517, 3 }, { 0, 5, 3 },
                               { 5, 0, 3 } };

typedef struct {
    float  *hin;
    double *ref;
} host_room;

static int conv_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    host_room *H = ctx;
    wb_rng rng = wb_rng_for_seed(jd_seed, "conv2d_shapes", i);
    int w = CONV[i][0], h = CONV[i][1], k = CONV[i][2];
    size_t n = (size_t)w * h;
    float wt[CONV_MAX_K * CONV_MAX_K];
    double sumabs = 0;
    wb_fill_uniform_f32(&rng, H->hin, n + 1, 0, 1);
    wb_fill_uniform_f32(&rng, wt, (size_t)k * k, -1, 1);
    for (int j = 0; j < k * k; j++) sumabs += fabs(wt[j]);
    if (n >= 8 && i % 3 == 0) { /* NaN and Inf reach every output whose window holds them */
        H->hin[wb_rng_int(&rng, 0, (int64_t)n - 1)] = NAN;
        H->hin[wb_rng_int(&rng, 0, (int64_t)n - 1)] = INFINITY;
    }
    conv_ref(H->hin, w, h, wt, k, H->ref);
    char what[96];
    jd_case c = { .fn = W17_FN_CONV_NAIVE, .in = { H->hin, wt }, .in_n = { n + 1, (size_t)k * k }, .n = n,
                  .ref64 = H->ref, .atol = 3e-6 * k * sumabs + 1e-6, .rtol = 1e-5, .i64 = { 0, w, h, k },
                  .what = what, .out_name = "out", .fn_name = "conv2d_naive" };
    snprintf(what, sizeof what, "conv2d_naive, %dx%d, K=%d", w, h, k);
    if (jd_case_run(J, B, &c, t) != 0) return -1;
    snprintf(what, sizeof what, "conv2d_tiled, %dx%d, K=%d", w, h, k);
    c.fn = W17_FN_CONV_TILED, c.fn_name = "conv2d_set_weights, conv2d_tiled";
    return jd_case_run(J, B, &c, t);
}

static void conv_bad_k(jd *J, jd_tally *t)
{
    static const int K[W17_N_BAD_K] = W17_BAD_K;
    float *d = NULL;
    int ib = jd_alloc(J, 64 * 4, (void **)&d);
    t->tests++;
    if (ib < 0) {
        jd_failf(t, "buffers: %s", J->why);
        return;
    }
    jd_req rq;
    jd_rep rp;
    int st[2 * W17_N_BAD_K];
    jd_call_setup(&rq, W17_FN_CONV_BAD, 1, 1);
    rq.arg_buf[0][0] = ib;
    if (jd_call(J, &rq, &rp, NULL) != 0) jd_failf(t, "conv2d_set_weights, conv2d_naive: %s", J->why);
    else if (rp.status != 0 || rp.out_len != sizeof st) jd_failf(t, "conv2d_set_weights, conv2d_naive: no answer from the runner");
    else {
        memcpy(st, rp.out, sizeof st);
        for (int i = 0; i < W17_N_BAD_K; i++) {
            if (st[2 * i] != (int)cudaErrorInvalidValue) {
                jd_failf(t, "conv2d_set_weights(k=%d) must be refused (cudaErrorInvalidValue); it returned %s", K[i],
                         status_name(st[2 * i]));
                break;
            }
            if (st[2 * i + 1] != (int)cudaErrorInvalidValue) {
                jd_failf(t, "conv2d_naive(k=%d) must be refused (cudaErrorInvalidValue); it returned %s", K[i],
                         status_name(st[2 * i + 1]));
                break;
            }
        }
    }
    jd_free(J, ib);
}

/* The largest image of a table of shapes (w at [0], h at [1], rows of `stride` ints), in elements. */
static size_t most_of(const int *shapes, int rows, int stride)
{
    size_t m = 0;
    for (int i = 0; i < rows; i++) {
        size_t n = (size_t)shapes[i * stride] * shapes[i * stride + 1];
        if (n > m) m = n;
    }
    return m;
}

static int host_room_alloc(host_room *H, size_t n, jd_tally *t)
{
    H->hin = malloc((n + 4) * sizeof *H->hin), H->ref = malloc((n + 4) * sizeof *H->ref);
    if (!H->hin || !H->ref) return free(H->hin), free(H->ref), jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

static void judge_conv2d(jd_ck *k)
{
    host_room H;
    size_t cap = most_of(&CONV[0][0], N_OF(CONV), 3) + 1;
    if (host_room_alloc(&H, cap, k->t) != 0) return;
    jd_cases(k->J, k->t, 2, cap, cap, N_OF(CONV), conv_one, &H);
    free(H.hin), free(H.ref);
    if (!k->J->lost) conv_bad_k(k->J, k->t);
}

/* ================================================================ w17.separable */

static void sep_ref(const float *in, int w, int h, const float *wt, int r, int cols, double *out)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double s = 0;
            for (int k = -r; k <= r; k++) s += (double)wt[k + r] * (cols ? pix(in, w, h, x, y + k) : pix(in, w, h, x + k, y));
            out[(size_t)y * w + x] = s;
        }
}

/* test_week17.c's SEP: width, height, radius */
static const int SEP[][3] = { { 1, 1, 0 },    { 1, 1, 16 },    { 1, 7, 2 },     { 7, 1, 3 },        { 31, 17, 5 },
                              { 33, 65, 16 }, { 257, 129, 1 }, { 1000, 3, 4 },  { 3, 1000, 8 },     { 1920, 1080, 7 },
                              { 0, 4, 2 } };

typedef struct {
    float  *hin, *hrow;
    double *rrow, *rcol, *rboth;
} sep_room;

static int sep_refuses(jd *J, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    int st[2];
    jd_call_setup(&rq, W17_FN_SEP_BAD, 1, 0);
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "sep_set_weights: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof st) return jd_failf(t, "sep_set_weights: no answer from the runner"), -1;
    memcpy(st, rp.out, sizeof st);
    if (st[0] != (int)cudaErrorInvalidValue || st[1] != (int)cudaErrorInvalidValue)
        jd_failf(t, "sep_set_weights must refuse a radius < 0 or > SEP_MAX_R (cudaErrorInvalidValue): r=-1 gave %s, "
                 "r=%d %s", status_name(st[0]), SEP_MAX_R + 1, status_name(st[1]));
    return 0;
}

static int sep_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    sep_room *S = ctx;
    wb_rng rng = wb_rng_for_seed(jd_seed, "separable_shapes", i);
    int w = SEP[i][0], h = SEP[i][1], r = SEP[i][2], taps = 2 * r + 1;
    size_t n = (size_t)w * h;
    float wt[2 * SEP_MAX_R + 1];
    double s = 0;
    wb_fill_uniform_f32(&rng, S->hin, n + 1, 0, 1);
    wb_fill_uniform_f32(&rng, wt, (size_t)taps, -1, 1);
    for (int j = 0; j < taps; j++) s += fabs(wt[j]);
    if (n >= 8 && i % 2 == 1) S->hin[wb_rng_int(&rng, 0, (int64_t)n - 1)] = NAN;
    sep_ref(S->hin, w, h, wt, r, 0, S->rrow);
    sep_ref(S->hin, w, h, wt, r, 1, S->rcol);
    if ((double)n * taps * taps < 3e7) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double acc = 0;
                for (int a = -r; a <= r; a++)
                    for (int b = -r; b <= r; b++) acc += (double)wt[a + r] * wt[b + r] * pix(S->hin, w, h, x + b, y + a);
                S->rboth[(size_t)y * w + x] = acc;
            }
    } else {
        for (size_t j = 0; j < n; j++) S->hrow[j] = (float)S->rrow[j];
        sep_ref(S->hrow, w, h, wt, r, 1, S->rboth);
    }
    double atol1 = 3e-6 * taps * s + 1e-6, atol2 = 6e-6 * taps * s * s + 1e-6;
    char what[96];
    jd_case c = { .fn = W17_FN_SEP_ROWS, .in = { S->hin, wt }, .in_n = { n + 1, (size_t)taps }, .n = n,
                  .ref64 = S->rrow, .atol = atol1, .rtol = 1e-5, .i64 = { 0, w, h, r }, .what = what,
                  .out_name = "out", .fn_name = "sep_set_weights, sep_rows" };
    snprintf(what, sizeof what, "sep_rows, %dx%d, r=%d", w, h, r);
    if (jd_case_run(J, B, &c, t) != 0) return -1;
    snprintf(what, sizeof what, "sep_cols, %dx%d, r=%d", w, h, r);
    c.fn = W17_FN_SEP_COLS, c.ref64 = S->rcol, c.fn_name = "sep_set_weights, sep_cols";
    if (jd_case_run(J, B, &c, t) != 0) return -1;
    snprintf(what, sizeof what, "sep_rows then sep_cols, %dx%d, r=%d", w, h, r);
    c.fn = W17_FN_SEP_BOTH, c.ref64 = S->rboth, c.atol = atol2, c.fn_name = "sep_set_weights, sep_rows, sep_cols";
    if (jd_case_run(J, B, &c, t) != 0) return -1;
    return sep_refuses(J, t);
}

static void judge_separable(jd_ck *k)
{
    size_t cap = most_of(&SEP[0][0], N_OF(SEP), 3) + 1;
    sep_room S = { malloc((cap + 4) * 4), malloc((cap + 4) * 4), malloc((cap + 4) * 8), malloc((cap + 4) * 8),
                   malloc((cap + 4) * 8) };
    if (!S.hin || !S.hrow || !S.rrow || !S.rcol || !S.rboth) jd_failf(k->t, "buffers: out of memory");
    else jd_cases(k->J, k->t, 2, cap, cap, N_OF(SEP), sep_one, &S);
    free(S.hin), free(S.hrow), free(S.rrow), free(S.rcol), free(S.rboth);
}

/* ================================================================ w17.equalize */

static void hist_ref(const uint8_t *p, size_t n, uint32_t *hist)
{
    memset(hist, 0, EQ_BINS * sizeof *hist);
    for (size_t i = 0; i < n; i++) hist[p[i]]++;
}

static void lut_ref(const uint32_t *hist, uint8_t *lut)
{
    uint64_t total = 0, low = 0;
    for (int v = 0; v < EQ_BINS; v++) total += hist[v];
    for (int v = 0; v < EQ_BINS && !low; v++) low = hist[v];
    uint64_t below = 0;
    for (int v = 0; v < EQ_BINS; v++) {
        below += hist[v];
        if (total == low) lut[v] = (uint8_t)v;
        else if (below <= low) lut[v] = 0;
        else {
            uint64_t num = (below - low) * 255, den = total - low, q = num / den;
            lut[v] = (uint8_t)(q + (2 * (num - q * den) >= den));
        }
    }
}

/* test_week17.c's EQN: n, pattern (0 uniform, 1 low contrast 100..139, 2 one level), byte offset */
static const size_t EQN[][3] = { { 0, 0, 0 },      { 1, 0, 0 },        { 1, 2, 3 },        { 3, 1, 1 },
                                 { 5, 1, 3 },      { 256, 2, 0 },      { 1023, 1, 2 },     { 65537, 0, 3 },
                                 { (1 << 22) + 3, 1, 0 }, { 1 << 24, 0, 0 }, { 1 << 24, 2, 2 } };
#define EQ_CAP (((size_t)1 << 24) + 8)

typedef struct {
    jd_gbuf in, hist, lut, out;
} eq_bufs;

/* Compare fetched bytes with want: 0 or 1 (t told). */
static int bytes_same(const uint8_t *got, const uint8_t *want, size_t n, const char *name, const char *what, jd_tally *t)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && !bad++) first = i;
    if (bad)
        return jd_failf(t, "%s: %zu of %zu bytes of %s wrong; [%zu] expected %u got %u", what, bad, n, name, first,
                        want[first], got[first]),
               1;
    return 0;
}

/* One call on guarded buffers: fn with (a0 + l0, a1 + l1, a2 + l2) (a NULL a2: two arguments), i64[1] n.
 * 0, 1 (it failed: t told), -1 (the runner lost: t told). */
static int gcall(jd *J, int fn, const char *fn_name, const jd_gbuf *a0, size_t l0, const jd_gbuf *a1, size_t l1,
                 const jd_gbuf *a2, size_t l2, long long n, const char *what, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, a2 ? 3 : 2);
    jd_gbuf_arg(&rq, 0, a0, l0);
    jd_gbuf_arg(&rq, 1, a1, l1);
    if (a2) jd_gbuf_arg(&rq, 2, a2, l2);
    rq.i64[1] = n;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0) return jd_failf(t, "%s: %s returned %s", what, fn_name, status_name(rp.status)), 1;
    return 0;
}

static int eq_one(jd *J, eq_bufs *E, int i, uint8_t *h, uint8_t *want, uint8_t *got, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "equalize_images", i);
    size_t n = EQN[i][0], pattern = EQN[i][1], off = EQN[i][2];
    uint8_t lut[EQ_BINS], glut[EQ_BINS];
    uint32_t hist[EQ_BINS], ghist[EQ_BINS];
    int level = (int)wb_rng_int(&rng, 0, 255);
    for (size_t j = 0; j < n + off; j++)
        h[j] = pattern == 0 ? (uint8_t)wb_rng_int(&rng, 0, 255)
               : pattern == 1 ? (uint8_t)wb_rng_int(&rng, 100, 139)
                              : (uint8_t)level;
    hist_ref(h + off, n, hist);
    lut_ref(hist, lut);
    for (size_t j = 0; j < n; j++) want[j] = lut[h[off + j]];
    char what[96];
    snprintf(what, sizeof what, "n=%zu, %s, input at byte offset %zu", n,
             pattern == 0 ? "uniform levels" : pattern == 1 ? "levels 100..139" : "one level", off);
    t->tests++;
    if (jd_gbuf_poison(&E->in, 0, n + off + 1) != 0 || jd_gbuf_put(&E->in, 0, h, n + off) != 0 ||
        jd_gbuf_poison(&E->hist, 0, sizeof hist) != 0 || jd_gbuf_poison(&E->lut, 0, EQ_BINS) != 0 ||
        jd_gbuf_poison(&E->out, 0, n + off) != 0)
        return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    int r = gcall(J, W17_FN_EQ_HIST, "eq_histogram", &E->in, off, &E->hist, 0, NULL, 0, (long long)n, what, t);
    if (r) return r < 0 ? -1 : 0;
    if ((r = jd_gbuf_fetch(&E->hist, 0, sizeof ghist, ghist, "hist", what, t)) != 0) return r < 0 ? -1 : 0;
    for (int v = 0; v < EQ_BINS; v++)
        if (ghist[v] != hist[v]) return jd_failf(t, "%s: hist[%d] expected %u got %u", what, v, hist[v], ghist[v]), 0;
    r = gcall(J, W17_FN_EQ_LUT, "eq_lut", &E->hist, 0, &E->lut, 0, NULL, 0, 0, what, t);
    if (r) return r < 0 ? -1 : 0;
    if ((r = jd_gbuf_fetch(&E->lut, 0, EQ_BINS, glut, "lut", what, t)) != 0) return r < 0 ? -1 : 0;
    if (bytes_same(glut, lut, EQ_BINS, "lut", what, t)) return 0;
    r = gcall(J, W17_FN_EQ_APPLY, "eq_apply", &E->in, off, &E->out, off, &E->lut, 0, (long long)n, what, t);
    if (r) return r < 0 ? -1 : 0;
    if ((r = jd_gbuf_fetch(&E->out, off, n, got, "out", what, t)) != 0) return r < 0 ? -1 : 0;
    if (bytes_same(got, want, n, "out", what, t)) return 0;
    if (!n) return 0;
    /* in place: out == in */
    r = gcall(J, W17_FN_EQ_APPLY, "eq_apply", &E->in, off, &E->in, off, &E->lut, 0, (long long)n, what, t);
    if (r) return r < 0 ? -1 : 0;
    /* the off bytes before the array are input, not band: fetched with it */
    if ((r = jd_gbuf_fetch(&E->in, 0, n + off + 1, got, "in (in place)", what, t)) != 0) return r < 0 ? -1 : 0;
    if (memcmp(got + off, want, n) != 0) jd_failf(t, "%s: eq_apply in place (out == in) differs", what);
    else if (memcmp(got, h, off) != 0 || got[n + off] != 0xff)
        jd_failf(t, "%s: eq_apply in place wrote outside its n bytes", what);
    return 0;
}

/* test_week17.c's equalize_lut_cases: the LUT alone from histograms made on the host */
static int eq_lut_cases(jd *J, eq_bufs *E, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "equalize_lut_cases", 0);
    t->tests++;
    for (int c = 0; c < 5 && !J->lost; c++) {
        uint32_t hist[EQ_BINS];
        memset(hist, 0, sizeof hist);
        switch (c) {
        case 0: break;
        case 1: hist[wb_rng_int(&rng, 0, 255)] = (uint32_t)wb_rng_int(&rng, 1, 1 << 30); break;
        case 2: hist[3] = 5, hist[250] = 7; break;
        case 3: for (int v = 0; v < EQ_BINS; v++) hist[v] = (uint32_t)wb_rng_int(&rng, 0, 1 << 23); break;
        default: for (int v = 40; v < 90; v++) hist[v] = (uint32_t)wb_rng_int(&rng, 0, 3); hist[40] = 1; break;
        }
        uint8_t lut[EQ_BINS], glut[EQ_BINS];
        lut_ref(hist, lut);
        char what[64];
        snprintf(what, sizeof what, "eq_lut, histogram case %d", c);
        if (jd_gbuf_poison(&E->hist, 0, sizeof hist) != 0 || jd_gbuf_put(&E->hist, 0, hist, sizeof hist) != 0 ||
            jd_gbuf_poison(&E->lut, 0, EQ_BINS) != 0)
            return jd_failf(t, "%s: the judge's own copies failed", what), -1;
        int r = gcall(J, W17_FN_EQ_LUT, "eq_lut", &E->hist, 0, &E->lut, 0, NULL, 0, 0, what, t);
        if (r) return r < 0 ? -1 : 0;
        if ((r = jd_gbuf_fetch(&E->lut, 0, EQ_BINS, glut, "lut", what, t)) != 0) return r < 0 ? -1 : 0;
        if (bytes_same(glut, lut, EQ_BINS, "lut", what, t)) return 0;
    }
    return 0;
}

static void judge_equalize(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    eq_bufs E = { { -1, NULL, 0 }, { -1, NULL, 0 }, { -1, NULL, 0 }, { -1, NULL, 0 } };
    uint8_t *h = malloc(EQ_CAP), *want = malloc(EQ_CAP), *got = malloc(EQ_CAP);
    if (!h || !want || !got) jd_failf(t, "buffers: out of memory");
    else if (jd_gbuf_alloc(J, &E.in, EQ_CAP, t) == 0 && jd_gbuf_alloc(J, &E.hist, EQ_BINS * 4, t) == 0 &&
             jd_gbuf_alloc(J, &E.lut, EQ_BINS, t) == 0 && jd_gbuf_alloc(J, &E.out, EQ_CAP, t) == 0) {
        int rc = 0;
        for (int i = 0; i < N_OF(EQN) && rc == 0 && !J->lost; i++) rc = eq_one(J, &E, i, h, want, got, t);
        if (rc == 0 && !J->lost) eq_lut_cases(J, &E, t);
    }
    jd_gbuf_free(J, &E.out), jd_gbuf_free(J, &E.lut), jd_gbuf_free(J, &E.hist), jd_gbuf_free(J, &E.in);
    free(h), free(want), free(got);
}

/* ================================================================ w17.resize */

static void resize_ref(const float *in, int iw, int ih, double *out, int ow, int oh)
{
    for (int y = 0; y < oh; y++) {
        double sy = fmin(fmax((y + 0.5) * ih / oh - 0.5, 0.0), ih - 1.0);
        int y0 = (int)floor(sy), y1 = y0 + 1 < ih ? y0 + 1 : ih - 1;
        double fy = sy - y0;
        for (int x = 0; x < ow; x++) {
            double sx = fmin(fmax((x + 0.5) * iw / ow - 0.5, 0.0), iw - 1.0);
            int x0 = (int)floor(sx), x1 = x0 + 1 < iw ? x0 + 1 : iw - 1;
            double fx = sx - x0;
            double a = in[(size_t)y0 * iw + x0], b = in[(size_t)y0 * iw + x1];
            double c = in[(size_t)y1 * iw + x0], d = in[(size_t)y1 * iw + x1];
            out[(size_t)y * ow + x] = (a + fx * (b - a)) * (1 - fy) + (c + fx * (d - c)) * fy;
        }
    }
}

/* test_week17.c's RS: iw, ih, ow, oh */
static const int RS[][4] = { { 1, 1, 1, 1 },      { 1, 1, 5, 3 },      { 7, 9, 2, 2 },          { 31, 17, 64, 34 },
                             { 640, 480, 1280, 960 }, { 1280, 960, 640, 480 }, { 1000, 3, 333, 7 }, { 3, 1000, 7, 333 },
                             { 4096, 16, 1000, 40 }, { 333, 777, 777, 333 }, { 100, 100, 100, 100 }, { 4, 4, 0, 5 } };

static int resize_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    host_room *H = ctx;
    wb_rng rng = wb_rng_for_seed(jd_seed, "resize_shapes", i);
    int iw = RS[i][0], ih = RS[i][1], ow = RS[i][2], oh = RS[i][3];
    size_t ni = (size_t)iw * ih, no = (size_t)ow * oh;
    wb_fill_uniform_f32(&rng, H->hin, ni, 0, 1);
    resize_ref(H->hin, iw, ih, H->ref, ow, oh);
    char what[96];
    snprintf(what, sizeof what, "%dx%d -> %dx%d", iw, ih, ow, oh);
    jd_case c = { .fn = W17_FN_RESIZE, .in = { H->hin }, .in_n = { ni }, .n = no, .ref64 = H->ref,
                  .atol = 2e-6 + 4e-7 * (iw > ih ? iw : ih), .rtol = 0, .i64 = { 0, iw, ih, ow, oh }, .what = what,
                  .out_name = "out", .fn_name = "resize_bilinear" };
    int failed = t->failed;
    if (jd_case_run(J, B, &c, t) != 0) return -1;
    if (t->failed > failed) return 0;
    jd_req rq;
    jd_rep rp;
    int st;
    jd_call_setup(&rq, W17_FN_RESIZE_BAD, 1, 2);
    rq.arg_buf[0][0] = B->ib[0], rq.arg_buf[0][1] = B->ib[1], rq.arg_off[0][1] = JD_GUARD * 4;
    rq.i64[2] = ih;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof st) return jd_failf(t, "%s: no answer from the runner", what), -1;
    memcpy(&st, rp.out, sizeof st);
    if (st != (int)cudaErrorInvalidValue)
        jd_failf(t, "an empty input with a non-empty output must be cudaErrorInvalidValue; resize_bilinear(in, 0, %d, "
                 "out, 3, 3) returned %s", ih, status_name(st));
    return 0;
}

static void judge_resize(jd_ck *k)
{
    size_t cap = 0;
    for (int i = 0; i < N_OF(RS); i++) {
        size_t a = (size_t)RS[i][0] * RS[i][1], b = (size_t)RS[i][2] * RS[i][3];
        cap = a > cap ? a : cap, cap = b > cap ? b : cap;
    }
    host_room H;
    if (host_room_alloc(&H, cap, k->t) != 0) return;
    jd_cases(k->J, k->t, 1, cap + 1, cap + 1, N_OF(RS), resize_one, &H);
    free(H.hin), free(H.ref);
}

/* ================================================================ w17.sobel */

static const int SOB[][2] = { { 1, 1 }, { 1, 9 }, { 9, 1 }, { 2, 3 }, { 31, 17 }, { 33, 9 }, { 257, 129 }, { 1920, 1080 }, { 0, 5 } };

static int sobel_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    host_room *H = ctx;
    wb_rng rng = wb_rng_for_seed(jd_seed, "sobel_shapes", i);
    int w = SOB[i][0], h = SOB[i][1];
    size_t n = (size_t)w * h;
    wb_fill_uniform_f32(&rng, H->hin, n + 1, 0, 1);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double gx = 0, gy = 0;
            for (int d = -1; d <= 1; d++) {
                double wgt = d == 0 ? 2 : 1;
                gx += wgt * (pix(H->hin, w, h, x + 1, y + d) - pix(H->hin, w, h, x - 1, y + d));
                gy += wgt * (pix(H->hin, w, h, x + d, y + 1) - pix(H->hin, w, h, x + d, y - 1));
            }
            H->ref[(size_t)y * w + x] = sqrt(gx * gx + gy * gy);
        }
    char what[64];
    snprintf(what, sizeof what, "sobel, %dx%d", w, h);
    jd_case c = { .fn = W17_FN_SOBEL, .in = { H->hin }, .in_n = { n + 1 }, .n = n, .ref64 = H->ref, .atol = 1e-5,
                  .rtol = 1e-5, .i64 = { 0, w, h }, .what = what, .out_name = "out", .fn_name = "sobel" };
    return jd_case_run(J, B, &c, t);
}

static void judge_sobel(jd_ck *k)
{
    size_t cap = most_of(&SOB[0][0], N_OF(SOB), 2) + 1;
    host_room H;
    if (host_room_alloc(&H, cap, k->t) != 0) return;
    jd_cases(k->J, k->t, 1, cap, cap, N_OF(SOB), sobel_one, &H);
    free(H.hin), free(H.ref);
}

/* ================================================================ w17.pipeline */

/* test_week17.c's make_scene and cpu_pipeline, copied */
static void make_scene(wb_rng *rng, uint8_t *img, int w, int h)
{
    enum { DISCS = 7 };
    int cx[DISCS], cy[DISCS], rr[DISCS], lv[DISCS];
    for (int d = 0; d < DISCS; d++) {
        cx[d] = (int)wb_rng_int(rng, 0, w > 0 ? w - 1 : 0);
        cy[d] = (int)wb_rng_int(rng, 0, h > 0 ? h - 1 : 0);
        rr[d] = (int)wb_rng_int(rng, 1, 1 + (w < h ? w : h) / 4);
        lv[d] = (int)wb_rng_int(rng, 70, 170);
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = 80 + (int)(50LL * x / (w > 1 ? w : 1)) + (int)(25LL * y / (h > 1 ? h : 1));
            for (int d = 0; d < DISCS; d++) {
                long long dx = x - cx[d], dy = y - cy[d];
                if (dx * dx + dy * dy <= (long long)rr[d] * rr[d]) v = lv[d];
            }
            v += (int)(wb_rng_u64(rng) % 9) - 4;
            img[(size_t)y * w + x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
}

static void cpu_pipeline(const uint8_t *src, uint8_t *dst, int w, int h, float *tmp, float *blur, uint8_t *edge)
{
    static const float Bk[5] = { 1, 4, 6, 4, 1 };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float acc = 0;
            for (int k = -2; k <= 2; k++) acc += Bk[k + 2] * src[(size_t)y * w + clampc(x + k, w)];
            tmp[(size_t)y * w + x] = acc / 16;
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float acc = 0;
            for (int k = -2; k <= 2; k++) acc += Bk[k + 2] * tmp[(size_t)clampc(y + k, h) * w + x];
            blur[(size_t)y * w + x] = acc / 16;
        }
    uint32_t hist[EQ_BINS] = { 0 };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float gx = 0, gy = 0;
            for (int d = -1; d <= 1; d++) {
                float wgt = d == 0 ? 2.0f : 1.0f;
                gx += wgt * ((float)pix(blur, w, h, x + 1, y + d) - (float)pix(blur, w, h, x - 1, y + d));
                gy += wgt * ((float)pix(blur, w, h, x + d, y + 1) - (float)pix(blur, w, h, x + d, y - 1));
            }
            int q = (int)((fabsf(gx) + fabsf(gy)) / 4);
            edge[(size_t)y * w + x] = (uint8_t)(q > 255 ? 255 : q);
            hist[edge[(size_t)y * w + x]]++;
        }
    uint8_t lut[EQ_BINS];
    lut_ref(hist, lut);
    for (size_t i = 0; i < (size_t)w * h; i++) dst[i] = lut[edge[i]];
}

static const int PIPE[][2] = { { 1, 1 },      { 2, 2 },      { 5, 3 },       { 33, 17 },  { 640, 480 },
                               { 1001, 999 }, { 4099, 517 }, { 4000, 3000 }, { 0, 3 } };

typedef struct {
    uint8_t *src, *want, *edge, *got;
    float   *tmp, *blur;
    jd_gbuf  in, out;
} pipe_room;

/* The student's pipeline_workspace_bytes(w, h): 0 and *bytes, or -1 (t told). */
static int pipe_ws(jd *J, int w, int h, size_t *bytes, const char *what, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W17_FN_PIPE_WS, 1, 0);
    rq.i64[1] = w, rq.i64[2] = h;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *bytes) return jd_failf(t, "%s: no answer from the runner", what), -1;
    memcpy(bytes, rp.out, sizeof *bytes);
    return 0;
}

static int pipe_one(jd *J, pipe_room *P, int i, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "pipeline_images", i);
    int w = PIPE[i][0], h = PIPE[i][1];
    size_t n = (size_t)w * h, wbytes = 0;
    make_scene(&rng, P->src, w, h);
    cpu_pipeline(P->src, P->want, w, h, P->tmp, P->blur, P->edge);
    char what[64];
    snprintf(what, sizeof what, "pipeline, %dx%d", w, h);
    t->tests++;
    if (pipe_ws(J, w, h, &wbytes, what, t) != 0) return -1;
    if (wbytes > W17_WS_CAP)
        return jd_failf(t, "%s: pipeline_workspace_bytes asks for %zu bytes, more than the judge gives (%zu)", what,
                        wbytes, W17_WS_CAP),
               0;
    void *work = NULL;
    int iw = wbytes ? jd_alloc(J, wbytes, &work) : -1;
    if (wbytes && iw < 0) return jd_failf(t, "%s: a workspace of %zu bytes: %s", what, wbytes, J->why), -1;
    int rc = 0;
    if ((wbytes && cudaMemset(work, 0xA5, wbytes) != cudaSuccess) || jd_gbuf_poison(&P->in, 0, n + 1) != 0 ||
        jd_gbuf_put(&P->in, 0, P->src, n) != 0) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        rc = -1;
        goto out;
    }
    for (int run = 0; run < 2 && rc == 0; run++) {
        if (run) snprintf(what, sizeof what, "pipeline, %dx%d, second run", w, h);
        if (jd_gbuf_poison(&P->out, 0, n) != 0) {
            jd_failf(t, "%s: the judge's own copies failed", what);
            rc = -1;
            break;
        }
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W17_FN_PIPE, 1, 3);
        jd_gbuf_arg(&rq, 0, &P->in, 0);
        jd_gbuf_arg(&rq, 1, &P->out, 0);
        rq.arg_buf[0][2] = iw;
        rq.i64[1] = w, rq.i64[2] = h;
        if (jd_call(J, &rq, &rp, NULL) != 0) {
            jd_failf(t, "%s: %s", what, J->why);
            rc = -1;
            break;
        }
        if (rp.status != 0) {
            jd_failf(t, "%s: pipeline_apply returned %s", what, status_name(rp.status));
            break;
        }
        int r = jd_gbuf_fetch(&P->out, 0, n, P->got, "out", what, t);
        if (r) {
            rc = r < 0 ? -1 : 0;
            break;
        }
        if (bytes_same(P->got, P->want, n, "out", what, t)) break;
    }
out:
    if (iw >= 0) jd_free(J, iw);
    return rc;
}

static void judge_pipeline(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t cap = most_of(&PIPE[0][0], N_OF(PIPE), 2) + 1;
    pipe_room P = { malloc(cap), malloc(cap), malloc(cap), malloc(cap), malloc(cap * 4), malloc(cap * 4),
                    { -1, NULL, 0 }, { -1, NULL, 0 } };
    if (!P.src || !P.want || !P.edge || !P.got || !P.tmp || !P.blur) jd_failf(t, "buffers: out of memory");
    else if (jd_gbuf_alloc(J, &P.in, cap, t) == 0 && jd_gbuf_alloc(J, &P.out, cap, t) == 0)
        for (int i = 0; i < N_OF(PIPE) && !J->lost; i++)
            if (pipe_one(J, &P, i, t) != 0) break;
    jd_gbuf_free(J, &P.out), jd_gbuf_free(J, &P.in);
    free(P.src), free(P.want), free(P.edge), free(P.got), free(P.tmp), free(P.blur);
}

/* ================================================================ w17.conv-bw, w17.conv-speed */

#define TIMED 7
#define CS_K  5 /* the checkpoints' filter: test_week17.c's CS_K */

/* The timed convolution: conv2d_tiled (or, through the yard runner,
 * cuDNN's) on a square image of wb_bench_bytes() of floats, its side a
 * multiple of 32 (test_week17.c's cs_setup), the input uniform in [0, 1)
 * from the hidden seed, k x k weights in [-1, 1] drawn from the run's seed
 * and handed over before the warm-up (prepare: conv2d_set_weights, or
 * cuDNN's plan); i64[1..2] width and height, i64[4] which of cuDNN's
 * algorithms (the yard's), i64[5] 1: cuDNN's zero border expected. */
static jd_w17_filter g_filter;
static double        g_sumabs;

static void filter_draw(void)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "w17.conv-speed", CS_K);
    g_filter.k = CS_K;
    wb_fill_uniform_f32(&rng, g_filter.w, (size_t)CS_K * CS_K, -1, 1);
    g_sumabs = 0;
    for (int i = 0; i < CS_K * CS_K; i++) g_sumabs += fabs(g_filter.w[i]);
}

static int cs_side(void) { return ((int)sqrt((double)(wb_bench_bytes() / 4)) / 32) * 32; }

static float cs_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    const int w = (int)b->i64[1], h = (int)b->i64[2], zero = (int)b->i64[5], k = g_filter.k, r = k / 2;
    const int x = (int)(i % (size_t)w), y = (int)(i / (size_t)w);
    double s = 0;
    for (int a = 0; a < k; a++)
        for (int c = 0; c < k; c++) {
            int xx = x + c - r, yy = y + a - r;
            double v = zero && (xx < 0 || xx >= w || yy < 0 || yy >= h)
                           ? 0
                           : wb_hash_uniform_f32(seed[0], (size_t)clampc(yy, h) * w + clampc(xx, w), b->lo, b->hi);
            s += (double)g_filter.w[a * k + c] * v;
        }
    return (float)s;
}

static int cs_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                    unsigned long long h[2])
{
    return jd_full_check_done(jd_w17_conv_check_f32(out, (int)b->i64[1], (int)b->i64[2], &g_filter, seed[0], b->lo,
                                                    b->hi, (int)b->i64[5], b->atol, b->rtol, bad, jd_stream),
                              bad, h);
}

/* What the yard runner's plan said (W17_FN_CONV_SET's reply there). */
static w17_yard_plan g_plan;
static int           g_plan_got;

/* The weights to the runner (conv2d_set_weights), or to the yard runner
 * (cuDNN's plan for this image and algorithm i64[4], its workspace). */
static int cs_prepare(jd *J, jd_bench *b, char *why, size_t why_n)
{
    float *hw = NULL;
    int ib = jd_alloc_kind(J, JD_MEM_HOST, sizeof g_filter.w, (void **)&hw);
    if (ib < 0) return snprintf(why, why_n, "buffers: %s", J->why), -1;
    memcpy(hw, g_filter.w, sizeof g_filter.w);
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W17_FN_CONV_SET, 1, 1);
    rq.arg_buf[0][0] = ib;
    rq.i64[1] = g_filter.k, rq.i64[2] = b->i64[1], rq.i64[3] = b->i64[2], rq.i64[4] = b->i64[4];
    int rc = -1;
    g_plan_got = 0;
    if (jd_call(J, &rq, &rp, NULL) != 0) snprintf(why, why_n, "conv2d_set_weights: %s", J->why);
    else if (b->i64[5]) { /* the yard: its plan */
        if (rp.out_len == sizeof g_plan) memcpy(&g_plan, rp.out, sizeof g_plan), g_plan_got = 1;
        if (rp.status != 0 || !g_plan_got)
            snprintf(why, why_n, "cuDNN: %s", g_plan_got && g_plan.why[0] ? g_plan.why : "the yard runner failed");
        else rc = 0;
    } else if (rp.status != 0)
        snprintf(why, why_n, "conv2d_set_weights(w, %d) returned %s", g_filter.k, status_name(rp.status));
    else rc = 0;
    jd_free(J, ib);
    return rc;
}

static void cs_bench(jd_bench *x, int yard, int algo)
{
    const int side = cs_side();
    memset(x, 0, sizeof *x);
    x->fn = W17_FN_CONV_RUN, x->n_in = 1, x->max_k = JD_BENCH_MAX_K, x->n = (size_t)side * side;
    x->lo = 0, x->hi = 1;
    /* w17.conv2d's tolerance; cuDNN's (its FFT and Winograd algorithms round otherwise): the test's wider one */
    x->atol = yard ? 2e-5 * g_sumabs + 1e-6 : 3e-6 * g_filter.k * g_sumabs + 1e-6, x->rtol = yard ? 1e-4 : 1e-5;
    x->i64[1] = side, x->i64[2] = side, x->i64[4] = algo, x->i64[5] = yard;
    x->expect = cs_expect, x->full_check = cs_check, x->prepare = cs_prepare;
    x->fn_name = yard ? "cudnnConvolutionForward" : "conv2d_tiled", x->out_name = "out";
}

static jd_bench g_bench, g_yard_b; /* large: their sample arrays */

static void judge_conv_bw(jd_ck *k)
{
    filter_draw();
    cs_bench(&g_bench, 0, 0);
    jd_bw_checkpoint(k, &g_bench, TIMED, 8.0, "conv2d_tiled, K=5");
}

/* cuDNN: each algorithm its search offers (not marked too slow), timed
 * through the yard runner before the student's runner starts and after,
 * the faster kept; the fastest algorithm whose every timed output is right
 * is the yardstick. */
enum { CS_ALGOS = 8 };
static int    g_have_cudnn = -1;
static char   g_no_cudnn[300];
static double g_cudnn_before[CS_ALGOS];
static char   g_cudnn_before_why[CS_ALGOS][600];
static char   g_algo_name[CS_ALGOS][32];
static int    g_n_algos = -1; /* usable algorithms, as the first plan said (-1: not planned) */

static int have_cudnn(void)
{
    if (g_have_cudnn < 0) g_have_cudnn = wb_cudnn_open(g_no_cudnn, sizeof g_no_cudnn);
    return g_have_cudnn;
}

/* Algorithm a through the yard runner: ms a call or NAN with why; the plan's word on the algorithms kept. */
static double cudnn_ms(int a, char *why, size_t why_n)
{
    double ms = NAN;
    cs_bench(&g_yard_b, 1, a);
    g_plan_got = 0; /* set by this run's plan alone (cs_prepare) */
    if (jd_yard_bench(W17_YARD_RUNNER, &g_yard_b, TIMED, &ms, why, why_n) != 0) ms = NAN;
    if (g_plan_got) {
        if (g_n_algos < 0) g_n_algos = g_plan.usable < CS_ALGOS ? g_plan.usable : CS_ALGOS;
        if (a < CS_ALGOS && g_plan.name[0]) snprintf(g_algo_name[a], sizeof g_algo_name[a], "%s", g_plan.name);
    }
    return ms;
}

static void cudnn_before(void)
{
    filter_draw();
    for (int a = 0; a < CS_ALGOS; a++) {
        g_cudnn_before[a] = NAN;
        snprintf(g_cudnn_before_why[a], sizeof g_cudnn_before_why[a], "cuDNN could not be loaded");
        if (!have_cudnn() || (g_n_algos >= 0 && a >= g_n_algos)) continue;
        g_cudnn_before[a] = cudnn_ms(a, g_cudnn_before_why[a], sizeof g_cudnn_before_why[a]);
        if (g_n_algos < 0) break; /* no plan: no algorithm */
    }
}

static void judge_conv_speed(jd_ck *k)
{
    double ms = NAN, best = NAN;
    int best_a = -1;
    char why[700] = "", detail[300] = "", notes[400] = "";
    size_t used = 0;
    filter_draw();
    cs_bench(&g_bench, 0, 0);
    const size_t n = g_bench.n;
    if (jd_bench_run(k->J, &g_bench, TIMED, &ms, why, sizeof why) != 0) { /* wrong: FAIL, cuDNN or not */
        jd_speed_result(k->R, k->t, k->c, k->gpu, NAN, "GB/s", "cuDNN", NAN, "", why);
        return;
    }
    if (!have_cudnn()) {
        k->t->skipped++;
        snprintf(k->t->msg, sizeof k->t->msg, "cuDNN, the yardstick, cannot run here: %s", g_no_cudnn);
        return;
    }
    char first_why[600] = "";
    for (int a = 0; a < CS_ALGOS && (g_n_algos < 0 || a < g_n_algos); a++) {
        char w[600] = "";
        double after = NAN;
        cs_bench(&g_yard_b, 1, a);
        g_plan_got = 0; /* set by this run's plan alone (cs_prepare) */
        double cms = jd_yard_faster(W17_YARD_RUNNER, &g_yard_b, TIMED, g_cudnn_before[a], g_cudnn_before_why[a],
                                    &after, w, sizeof w);
        if (g_plan_got && g_n_algos < 0) g_n_algos = g_plan.usable < CS_ALGOS ? g_plan.usable : CS_ALGOS;
        if (g_plan_got && g_plan.name[0]) snprintf(g_algo_name[a], sizeof g_algo_name[a], "%s", g_plan.name);
        if (!(cms > 0)) {
            if (!first_why[0]) snprintf(first_why, sizeof first_why, "%s", w);
            if (used < sizeof notes)
                used += (size_t)snprintf(notes + used, sizeof notes - used, "; %s: no figure (%.80s)",
                                         g_algo_name[a][0] ? g_algo_name[a] : "an algorithm", w);
            if (g_n_algos < 0) break; /* no plan at all */
            continue;
        }
        printf("  cuDNN %s: %.4f ms a call (before the runner %.4f, after %.4f), by the judge's clock\n", g_algo_name[a],
               cms, g_cudnn_before[a], after);
        if (best_a < 0 || cms < best) best = cms, best_a = a;
    }
    if (best_a < 0) {
        if (g_n_algos <= 0) { /* cuDNN could not plan this convolution: SKIP, as the test */
            k->t->skipped++;
            snprintf(k->t->msg, sizeof k->t->msg, "cuDNN, the yardstick, cannot run here: %s", first_why);
            return;
        }
        snprintf(why, sizeof why, "none of the %d algorithms cuDNN offers for this convolution gave a figure%s",
                 g_n_algos, notes);
        jd_speed_result(k->R, k->t, k->c, k->gpu, NAN, "GB/s", "cuDNN", NAN, "", why);
        return;
    }
    const double value = 8.0 * (double)n / (ms * 1e-3) / 1e9, yard = 8.0 * (double)n / (best * 1e-3) / 1e9;
    snprintf(detail, sizeof detail, "%.0f GB/s vs cuDNN %s %.0f GB/s (judge's clock, median of %d)%s", value,
             g_algo_name[best_a], yard, TIMED, notes);
    printf("  conv2d_tiled, K=5, %dx%d: %.4f ms a call; %s\n", (int)g_bench.i64[1], (int)g_bench.i64[2], ms, detail);
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GB/s", "cuDNN", yard, detail, "");
}

/* ================================================================ w17.pipeline-speed */

/* test_week17.c's bench_pipeline: 4000 x 3000, 21 bytes a pixel over the
 * call's time against COPY of wb_bench_bytes(). Each timed call gets its
 * own scene made on the device from its hidden seed (jd_w17_scene_u8: a
 * gradient, 7 discs and noise, as make_scene draws), a poisoned output,
 * and the workspace the runner allocated before the warm-up
 * (pipeline_workspace_bytes, the student's). The look reads 4-byte words
 * of the output bit for bit; the expected words and the full check come
 * from the judge's own pipeline on the GPU (jd_w17_pipe_ref, exact as the
 * test's CPU version), re-made from the seed for each call. */
enum { PW = 4000, PH = 3000 };

static struct {
    unsigned char      *in, *edge, *lut;
    float              *tmp, *blur;
    unsigned           *hist, *words_d, words_h[JD_SAMPLES];
    unsigned long long *idx_d, seed, words_seed;
    uint64_t            words_pick;
    int                 have, words_ok, allocated;
} g_pr;

static int pr_alloc(void)
{
    const size_t n = (size_t)PW * PH;
    if (g_pr.allocated) return 0;
    if (cudaMalloc((void **)&g_pr.in, n) != cudaSuccess || cudaMalloc((void **)&g_pr.edge, n) != cudaSuccess ||
        cudaMalloc((void **)&g_pr.lut, 256) != cudaSuccess || cudaMalloc((void **)&g_pr.tmp, n * 4) != cudaSuccess ||
        cudaMalloc((void **)&g_pr.blur, n * 4) != cudaSuccess || cudaMalloc((void **)&g_pr.hist, 1024) != cudaSuccess ||
        cudaMalloc((void **)&g_pr.words_d, sizeof g_pr.words_h) != cudaSuccess ||
        cudaMalloc((void **)&g_pr.idx_d, JD_SAMPLES * sizeof *g_pr.idx_d) != cudaSuccess)
        return -1;
    g_pr.allocated = 1;
    return 0;
}

/* The judge's edges and LUT of the scene of seed (on jd_stream): 0, or -1. */
static int pr_ref(unsigned long long seed)
{
    if (g_pr.have && g_pr.seed == seed) return 0;
    g_pr.have = 0;
    if (pr_alloc() != 0 || jd_w17_scene_u8(g_pr.in, PW, PH, seed, jd_stream) != cudaSuccess ||
        jd_w17_pipe_ref(g_pr.in, PW, PH, g_pr.tmp, g_pr.blur, g_pr.edge, g_pr.hist, g_pr.lut, jd_stream) != cudaSuccess)
        return -1;
    g_pr.seed = seed, g_pr.have = 1;
    return 0;
}

static void pipe_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    (void)b;
    (void)jd_w17_scene_u8((unsigned char *)in, PW, PH, seed, 0); /* a failure: the look finds it */
}

static float pipe_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    if (!g_pr.words_ok || g_pr.words_seed != seed[0] || g_pr.words_pick != b->pick) {
        g_pr.words_ok = 0;
        if (pr_ref(seed[0]) != 0 ||
            cudaMemcpyAsync(g_pr.idx_d, b->idx_h, sizeof b->idx_h, cudaMemcpyHostToDevice, jd_stream) != cudaSuccess ||
            jd_w17_pipe_words(g_pr.edge, g_pr.lut, g_pr.idx_d, JD_SAMPLES, g_pr.words_d, jd_stream) != cudaSuccess ||
            cudaMemcpyAsync(g_pr.words_h, g_pr.words_d, sizeof g_pr.words_h, cudaMemcpyDeviceToHost, jd_stream) !=
                cudaSuccess ||
            cudaStreamSynchronize(jd_stream) != cudaSuccess)
            return NAN; /* the look then fails: no figure from an unchecked run */
        g_pr.words_seed = seed[0], g_pr.words_pick = b->pick, g_pr.words_ok = 1;
    }
    for (int j = 0; j < JD_SAMPLES; j++)
        if (b->idx_h[j] == i) {
            float f;
            memcpy(&f, &g_pr.words_h[j], 4);
            return f;
        }
    return NAN;
}

static int pipe_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    if (pr_ref(seed[0]) != 0) return -1;
    return jd_full_check_done(jd_w17_pipe_check((const unsigned char *)out, g_pr.edge, g_pr.lut, b->n, bad, jd_stream),
                              bad, h);
}

static int pipe_prepare(jd *J, jd_bench *b, char *why, size_t why_n)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W17_FN_PIPE_PREP, 1, 0);
    rq.i64[1] = b->i64[1], rq.i64[2] = b->i64[2];
    if (jd_call(J, &rq, &rp, NULL) != 0) return snprintf(why, why_n, "pipeline_workspace_bytes: %s", J->why), -1;
    if (rp.status != 0)
        return snprintf(why, why_n, "the runner found no room for the workspace pipeline_workspace_bytes(%d, %d) asks",
                        PW, PH),
               -1;
    return 0;
}

static void pipe_release(jd *J, jd_bench *b)
{
    (void)b;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W17_FN_PIPE_FREE, 1, 0);
    (void)jd_call(J, &rq, &rp, NULL);
}

static void judge_pipeline_speed(jd_ck *k)
{
    const size_t n = (size_t)PW * PH;
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = W17_FN_PIPE_RUN, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K, g_bench.n = n;
    g_bench.in_bytes = n, g_bench.out_n = n / 4, g_bench.fill = pipe_fill;
    g_bench.atol = JD_BITWISE, g_bench.rtol = 0;
    g_bench.i64[1] = PW, g_bench.i64[2] = PH;
    g_bench.expect = pipe_expect, g_bench.full_check = pipe_check;
    g_bench.prepare = pipe_prepare, g_bench.release = pipe_release;
    g_bench.fn_name = "pipeline_apply", g_bench.out_name = "out's 4-byte word";
    g_pr.have = 0, g_pr.words_ok = 0;
    jd_bw_checkpoint(k, &g_bench, TIMED, 21.0, "pipeline_apply, 4000x3000");
}

/* ================================================================ the week */

static const jd_checkpoint CPS[] = {
    { "w17.pgm", judge_pgm_gpu, judge_pgm, 1, 0, NULL },
    { "w17.conv2d", judge_conv2d, NULL, 0, 0, NULL },
    { "w17.conv-bw", judge_conv_bw, NULL, 0, 8, NULL },
    { "w17.conv-speed", judge_conv_speed, NULL, 0, 0, cudnn_before },
    { "w17.separable", judge_separable, NULL, 0, 0, NULL },
    { "w17.equalize", judge_equalize, NULL, 0, 0, NULL },
    { "w17.resize", judge_resize, NULL, 0, 0, NULL },
    { "w17.sobel", judge_sobel, NULL, 0, 0, NULL },
    { "w17.pipeline", judge_pipeline, NULL, 0, 0, NULL },
    { "w17.pipeline-speed", judge_pipeline_speed, NULL, 0, 8, NULL },
};

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--week-dir")) g_week_dir = argv[i + 1];
    return jd_week_main(argc, argv, "judge-w17", "phase4/week17", CPS, N_OF(CPS));
}
