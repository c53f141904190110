/* test_week17.c — week 17's checkpoints: PGM/PPM files, 2D convolution
 * (naive, tiled), separable filter, histogram equalisation, bilinear
 * resize, Sobel, and the blur -> Sobel -> equalise pipeline against a
 * single-threaded CPU version.
 *
 * Borders: every filter this week CLAMPS (a tap outside the image reads the
 * nearest edge pixel). The CPU references below follow the headers'
 * formulas in double precision (the pipeline and equalisation in exact
 * arithmetic) and share no code with the kernels. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_harness.h"
#include "conv2d.h"
#include "equalize.h"
#include "pgm.h"
#include "pipeline.h"
#include "resize.h"
#include "separable.h"
#include "sobel.h"
#include "support/yard_cudnn_conv.h"

/* ---------------------------------------------------------------- shared helpers */

static int clampc(int v, int n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }

/* pixel (x, y) of a w x h float image, the coordinates clamped */
static double pix(const float *img, int w, int h, int x, int y) { return img[(size_t)clampc(y, h) * w + clampc(x, w)]; }

static const char *week_dir(void)
{
    const char *wk = getenv("WB_WEEK_DIR");
    return wk && *wk ? wk : "phase4/week17";
}

/* Check a guarded 8-bit device output byte for byte against ref. */
static void expect_dout_u8(const wb_dout *o, const uint8_t *ref, size_t n, const char *what)
{
    uint8_t *got = wb_hmalloc(n + 1);
    wb_expect_dout_guards(o, got, what);
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; i++)
        if (got[i] != ref[i]) {
            if (!bad) first = i;
            bad++;
        }
    if (bad) {
        uint8_t g = got[first], r = ref[first];
        free(got);
        ck_abort_msg("%s (seed %llu): %zu of %zu bytes of %s wrong; [%zu] expected %u got %u", what,
                     (unsigned long long)wb_base_seed(), bad, n, o->name, first, r, g);
    }
    free(got);
}

/* A w x h 8-bit test scene: a soft gradient, discs of other levels and a
 * little noise, all inside a narrow band of grey levels (low contrast:
 * something for equalisation to stretch). */
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

/* ---------------------------------------------------------------- the shipped images */

/* The images in images/ are made by the code below, nothing downloaded:
 * the shipped_images test writes what it generates to build/.../images/
 * with your pgm_write and checks that the files in the week folder read
 * back (with your pgm_read) as exactly these pixels. To remake them, run the
 * test with the reference (make phase4/week17 check IMPL=solution) and copy
 * build/phase4/week17/images/ over phase4/week17/images/. */

static uint16_t hash_level(int x, int y)
{
    uint64_t z = (uint64_t)(uint32_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)y * 0xC2B2AE3D27D4EB4Full;
    z ^= z >> 29, z *= 0xBF58476D1CE4E5B9ull, z ^= z >> 32;
    return (uint16_t)(z & 255);
}

/* 5 x 7 glyphs, one row a byte, the leftmost pixel in bit 4 */
static const unsigned char GLYPH_C[7] = { 0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E };
static const unsigned char GLYPH_U[7] = { 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E };
static const unsigned char GLYPH_D[7] = { 0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E };
static const unsigned char GLYPH_A[7] = { 0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11 };
static const unsigned char GLYPH_1[7] = { 0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E };
static const unsigned char GLYPH_7[7] = { 0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 };

static void gen_image(int which, pgm_image *im)
{
    static const int W[] = { 256, 97, 200, 64, 140, 300, 64 }, H[] = { 64, 61, 150, 48, 32, 20, 32 };
    static const int CH[] = { 1, 1, 1, 1, 1, 1, 3 }, MAX[] = { 255, 255, 255, 255, 255, 65535, 255 };
    im->width = W[which], im->height = H[which], im->channels = CH[which], im->maxval = MAX[which];
    size_t n = (size_t)im->width * im->height * im->channels;
    im->data = wb_hmalloc(n * sizeof(uint16_t));
    const unsigned char *text[7] = { GLYPH_C, GLYPH_U, GLYPH_D, GLYPH_A, NULL, GLYPH_1, GLYPH_7 };
    for (int y = 0; y < im->height; y++)
        for (int x = 0; x < im->width; x++) {
            uint16_t *p = im->data + ((size_t)y * im->width + x) * im->channels;
            switch (which) {
            case 0: p[0] = (uint16_t)((x + (y / 16) * 64) & 255); break;                 /* ramps */
            case 1: p[0] = ((x / 8 + y / 8) & 1) ? 230 : 25; break;                      /* checkerboard */
            case 2: {                                                                    /* disc and ring */
                int d1 = (x - 60) * (x - 60) + (y - 75) * (y - 75), d2 = (x - 150) * (x - 150) + (y - 60) * (y - 60);
                p[0] = d1 <= 40 * 40 ? 200 : (d2 >= 30 * 30 && d2 <= 38 * 38) ? 120 : 40;
                break;
            }
            case 3: p[0] = hash_level(x, y); break;                                      /* noise */
            case 4: {                                                                    /* "CUDA 17" */
                int gx = (x - 7) / 3, gy = (y - 5) / 3, ch = gx / 6, col = gx % 6;
                int on = x >= 7 && y >= 5 && gy < 7 && ch < 7 && col < 5 && text[ch] && (text[ch][gy] >> (4 - col) & 1);
                p[0] = on ? 20 : 235;
                break;
            }
            case 5: p[0] = (uint16_t)((long)x * 65535 / (im->width - 1)); break;       /* 16-bit ramp */
            default:                                                                     /* colour bars */
                p[0] = (uint16_t)(x * 4), p[1] = (uint16_t)(y * 8), p[2] = (uint16_t)(((x / 16) & 1) ? 255 : 0);
            }
        }
}

static const char *const SHIPPED[] = { "ramps.pgm", "checker.pgm", "circles.pgm", "noise.pgm",
                                       "text.pgm",  "ramp16.pgm",  "bars.ppm" };

/* ---------------------------------------------------------------- pgm (CPU) */

#define BYTES(s) (const unsigned char *)(s), sizeof(s) - 1

START_TEST(pgm_decode_valid)
{
    pgm_image im;
    char err[200] = "";
    /* the plainest file */
    ck_assert_msg(pgm_decode(BYTES("P5\n2 1\n255\n\x01\x02"), &im, err, sizeof err) == 0, "plain P5 refused: %s", err);
    ck_assert(im.width == 2 && im.height == 1 && im.channels == 1 && im.maxval == 255);
    ck_assert(im.data[0] == 1 && im.data[1] == 2);
    pgm_free(&im);
    ck_assert_ptr_null(im.data);
    /* comments wherever whitespace may be, tabs and CR LF */
    ck_assert_msg(pgm_decode(BYTES("P5# magic\n# a line\n3 # width\r\n\t1\n# before maxval\n200\n\x00\x10\xc8"), &im,
                             err, sizeof err) == 0,
                  "comments, tabs or CR refused: %s", err);
    ck_assert(im.width == 3 && im.height == 1 && im.maxval == 200);
    ck_assert(im.data[0] == 0 && im.data[1] == 16 && im.data[2] == 200);
    pgm_free(&im);
    /* 16-bit samples are big-endian; maxval 256..65535 means two bytes */
    ck_assert_msg(pgm_decode(BYTES("P5 2 1 65535\n\x01\x02\xff\xfe"), &im, err, sizeof err) == 0, "16-bit refused: %s",
                  err);
    ck_assert_msg(im.data[0] == 0x0102 && im.data[1] == 0xfffe, "16-bit samples read as %u %u (big-endian expected)",
                  im.data[0], im.data[1]);
    pgm_free(&im);
    ck_assert_msg(pgm_decode(BYTES("P5 1 1 1000\n\x03\xe8"), &im, err, sizeof err) == 0 && im.data[0] == 1000,
                  "maxval 1000, sample 1000: %s", err);
    pgm_free(&im);
    /* a sample equal to maxval, and bytes after the raster (ignored) */
    ck_assert_msg(pgm_decode(BYTES("P5 2 1 15\n\x0f\x00trailing"), &im, err, sizeof err) == 0 && im.data[0] == 15,
                  "maxval 15 with trailing bytes: %s", err);
    pgm_free(&im);
    /* colour: three samples a pixel, R G B */
    ck_assert_msg(pgm_decode(BYTES("P6\n1 2\n255\n\x01\x02\x03\x04\x05\x06"), &im, err, sizeof err) == 0, "P6: %s", err);
    ck_assert(im.channels == 3 && im.width == 1 && im.height == 2 && im.data[3] == 4 && im.data[5] == 6);
    pgm_free(&im);
}
END_TEST

START_TEST(pgm_decode_refuses)
{
    static const struct { const unsigned char *s; size_t len; const char *why; } BAD[] = {
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
    for (size_t i = 0; i < WB_COUNT(BAD); i++) {
        pgm_image im;
        memset(&im, 0x5A, sizeof im);
        char err[200] = "";
        int r = pgm_decode(BAD[i].s, BAD[i].len, &im, err, sizeof err);
        ck_assert_msg(r == -1, "pgm_decode accepted a bad file (%s): returned %d", BAD[i].why, r);
        ck_assert_msg(err[0] != 0, "pgm_decode refused (%s) but left no message in err", BAD[i].why);
        ck_assert_msg(im.data == NULL && im.width == 0 && im.height == 0, "pgm_decode refused (%s) but left *img set",
                      BAD[i].why);
    }
}
END_TEST

static void random_image(wb_rng *rng, pgm_image *im, int channels, int maxval)
{
    im->width = (int)wb_rng_int(rng, 1, 300), im->height = (int)wb_rng_int(rng, 1, 200);
    if (wb_rng_int(rng, 0, 3) == 0) im->width = im->height = 1;
    im->channels = channels, im->maxval = maxval;
    size_t n = (size_t)im->width * im->height * channels;
    im->data = wb_hmalloc(n * sizeof(uint16_t));
    for (size_t i = 0; i < n; i++) im->data[i] = (uint16_t)wb_rng_int(rng, 0, maxval);
}

static void expect_same_image(const pgm_image *got, const pgm_image *want, const char *what)
{
    ck_assert_msg(got->width == want->width && got->height == want->height && got->channels == want->channels &&
                      got->maxval == want->maxval,
                  "%s: read back %dx%d, %d channels, maxval %d; wrote %dx%d, %d channels, maxval %d", what, got->width,
                  got->height, got->channels, got->maxval, want->width, want->height, want->channels, want->maxval);
    size_t n = (size_t)want->width * want->height * want->channels;
    for (size_t i = 0; i < n; i++)
        if (got->data[i] != want->data[i])
            ck_abort_msg("%s: sample %zu read back as %u, wrote %u", what, i, got->data[i], want->data[i]);
}

/* encode -> decode and write -> read give the same image, for 8- and 16-bit
 * samples, grey and colour. */
START_TEST(pgm_round_trip)
{
    static const int CH[] = { 1, 1, 3, 3, 1, 1 }, MV[] = { 255, 65535, 255, 1000, 1, 256 };
    wb_rng rng = WB_RNG();
    pgm_image im, back;
    random_image(&rng, &im, CH[_i], MV[_i]);
    char what[120], err[300] = "";
    snprintf(what, sizeof what, "%dx%d, %d channel(s), maxval %d", im.width, im.height, im.channels, im.maxval);
    size_t need = pgm_encode(&im, "round trip", NULL, 0);
    size_t raster = (size_t)im.width * im.height * im.channels * (im.maxval < 256 ? 1 : 2);
    ck_assert_msg(need > raster, "%s: pgm_encode asks for %zu bytes, the raster alone is %zu", what, need, raster);
    unsigned char *buf = wb_hmalloc(need + 8);
    ck_assert_msg(pgm_encode(&im, "round trip", buf, need - 1) == need, "%s: a buffer too small must still get the size", what);
    ck_assert_msg(pgm_encode(&im, "round trip", buf, need) == need, "%s: pgm_encode returned another size", what);
    ck_assert_msg(pgm_decode(buf, need, &back, err, sizeof err) == 0, "%s: your own file refused: %s", what, err);
    expect_same_image(&back, &im, what);
    pgm_free(&back);
    /* through a file, with a comment */
    const char *tmp = getenv("TMPDIR");
    char path[300];
    snprintf(path, sizeof path, "%s/w17-round-trip-%d-%d.%s", tmp && *tmp ? tmp : "/tmp", (int)getpid(), _i,
             im.channels == 3 ? "ppm" : "pgm");
    ck_assert_msg(pgm_write(path, &im, "made by test_week17", err, sizeof err) == 0, "%s: pgm_write: %s", what, err);
    int r = pgm_read(path, &back, err, sizeof err);
    remove(path);
    ck_assert_msg(r == 0, "%s: pgm_read of your own file: %s", what, err);
    expect_same_image(&back, &im, what);
    pgm_free(&back);
    /* what cannot be written */
    im.data[0] = (uint16_t)(im.maxval + 1 > 65535 ? 65535 : im.maxval + 1);
    if (im.maxval < 65535) ck_assert_msg(pgm_encode(&im, NULL, buf, need) == 0, "%s: a sample above maxval encoded", what);
    im.channels = 2;
    ck_assert_msg(pgm_encode(&im, NULL, buf, need) == 0, "pgm_encode must refuse 2 channels");
    free(buf);
    pgm_free(&im);
}
END_TEST

START_TEST(shipped_images)
{
    char dir[300], cmd[400];
    snprintf(dir, sizeof dir, "build/%s/images", week_dir());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    ck_assert_msg(system(cmd) == 0, "cannot make %s", dir);
    for (size_t k = 0; k < WB_COUNT(SHIPPED); k++) { /* all written first: a fresh set to copy */
        pgm_image want;
        gen_image((int)k, &want);
        char path[400], err[300] = "";
        snprintf(path, sizeof path, "%s/%s", dir, SHIPPED[k]);
        ck_assert_msg(pgm_write(path, &want, "made by phase4/week17's test (gen_image)", err, sizeof err) == 0,
                      "writing %s: %s", path, err);
        pgm_free(&want);
    }
    for (size_t k = 0; k < WB_COUNT(SHIPPED); k++) {
        pgm_image want, got;
        gen_image((int)k, &want);
        char path[400], err[300] = "";
        snprintf(path, sizeof path, "%s/images/%s", week_dir(), SHIPPED[k]);
        ck_assert_msg(pgm_read(path, &got, err, sizeof err) == 0, "reading the shipped %s: %s", path, err);
        expect_same_image(&got, &want, path);
        pgm_free(&got), pgm_free(&want);
    }
}
END_TEST

/* ---------------------------------------------------------------- conv2d */

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

/* width, height, K */
static const int CONV[][3] = { { 1, 1, 1 },     { 1, 1, 15 },  { 1, 9, 3 },       { 9, 1, 5 },        { 2, 3, 7 },
                               { 31, 17, 5 },   { 32, 32, 3 }, { 33, 9, 15 },     { 100, 37, 9 },     { 257, 129, 11 },
                               { 1000, 3, 13 }, { 3, 1000, 7 }, { 1920, 1080, 5 }, { 4099, 517, 3 }, { 0, 5, 3 },
                               { 5, 0, 3 } };

START_TEST(conv2d_shapes)
{
    wb_rng rng = WB_RNG();
    int w = CONV[_i][0], h = CONV[_i][1], k = CONV[_i][2];
    size_t n = (size_t)w * h;
    float *hin = wb_hmalloc((n + 1) * 4), wt[CONV_MAX_K * CONV_MAX_K];
    double *ref = wb_hmalloc((n + 1) * 8), sumabs = 0;
    wb_fill_uniform_f32(&rng, hin, n + 1, 0, 1);
    wb_fill_uniform_f32(&rng, wt, (size_t)k * k, -1, 1);
    for (int i = 0; i < k * k; i++) sumabs += fabs(wt[i]);
    if (n >= 8 && _i % 3 == 0) { /* NaN and Inf reach every output whose window holds them */
        hin[wb_rng_int(&rng, 0, (int64_t)n - 1)] = NAN;
        hin[wb_rng_int(&rng, 0, (int64_t)n - 1)] = INFINITY;
    }
    conv_ref(hin, w, h, wt, k, ref);
    float *din = wb_dcopy(hin, (n + 1) * 4), *dwt = wb_dcopy(wt, (size_t)k * k * 4);
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "out", n * 4, 0);
    char what[96];
    double atol = 3e-6 * k * sumabs + 1e-6;
    snprintf(what, sizeof what, "conv2d_naive, %dx%d, K=%d", w, h, k);
    WB_CUDA(conv2d_naive(din, dout, w, h, dwt, k));
    wb_expect_dout_f32_f64(&out, ref, n, atol, 1e-5, what);
    wb_dout_poison(&out);
    snprintf(what, sizeof what, "conv2d_tiled, %dx%d, K=%d", w, h, k);
    WB_CUDA(conv2d_set_weights(wt, k));
    for (int i = 0; i < k * k; i++) wt[i] = NAN; /* the copy must be made by now */
    WB_CUDA(conv2d_tiled(din, dout, w, h));
    wb_expect_dout_f32_f64(&out, ref, n, atol, 1e-5, what);
    wb_dfree(din), wb_dfree(dwt), wb_dout_free(&out);
    free(hin), free(ref);
}
END_TEST

START_TEST(conv2d_bad_k)
{
    float wt[CONV_MAX_K * CONV_MAX_K + 2] = { 0 };
    float *d = wb_dmalloc(64 * 4);
    static const int K[] = { 0, -1, 2, 4, 16, 17 };
    for (size_t i = 0; i < WB_COUNT(K); i++) {
        ck_assert_msg(conv2d_set_weights(wt, K[i]) == cudaErrorInvalidValue, "conv2d_set_weights(k=%d) must be refused", K[i]);
        ck_assert_msg(conv2d_naive(d, d + 32, 4, 4, d, K[i]) == cudaErrorInvalidValue, "conv2d_naive(k=%d) must be refused",
                      K[i]);
    }
    wb_dfree(d);
}
END_TEST

/* ---------------------------------------------------------------- separable */

static void sep_ref(const float *in, int w, int h, const float *wt, int r, int cols, double *out)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double s = 0;
            for (int k = -r; k <= r; k++) s += (double)wt[k + r] * (cols ? pix(in, w, h, x, y + k) : pix(in, w, h, x + k, y));
            out[(size_t)y * w + x] = s;
        }
}

/* width, height, radius */
static const int SEP[][3] = { { 1, 1, 0 },    { 1, 1, 16 },    { 1, 7, 2 },     { 7, 1, 3 },        { 31, 17, 5 },
                              { 33, 65, 16 }, { 257, 129, 1 }, { 1000, 3, 4 },  { 3, 1000, 8 },     { 1920, 1080, 7 },
                              { 0, 4, 2 } };

START_TEST(separable_shapes)
{
    wb_rng rng = WB_RNG();
    int w = SEP[_i][0], h = SEP[_i][1], r = SEP[_i][2], taps = 2 * r + 1;
    size_t n = (size_t)w * h;
    float *hin = wb_hmalloc((n + 1) * 4), *hrow = wb_hmalloc((n + 1) * 4), wt[2 * SEP_MAX_R + 1];
    double *rrow = wb_hmalloc((n + 1) * 8), *rcol = wb_hmalloc((n + 1) * 8), *rboth = wb_hmalloc((n + 1) * 8), s = 0;
    wb_fill_uniform_f32(&rng, hin, n + 1, 0, 1);
    wb_fill_uniform_f32(&rng, wt, (size_t)taps, -1, 1);
    for (int i = 0; i < taps; i++) s += fabs(wt[i]);
    if (n >= 8 && _i % 2 == 1) hin[wb_rng_int(&rng, 0, (int64_t)n - 1)] = NAN;
    sep_ref(hin, w, h, wt, r, 0, rrow);
    sep_ref(hin, w, h, wt, r, 1, rcol);
    /* rows then columns is the 2D filter of the outer product: checked with
     * that filter directly where it is cheap, else the two passes in double */
    if ((double)n * taps * taps < 3e7) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double acc = 0;
                for (int i = -r; i <= r; i++)
                    for (int j = -r; j <= r; j++) acc += (double)wt[i + r] * wt[j + r] * pix(hin, w, h, x + j, y + i);
                rboth[(size_t)y * w + x] = acc;
            }
    } else {
        for (size_t i = 0; i < n; i++) hrow[i] = (float)rrow[i];
        sep_ref(hrow, w, h, wt, r, 1, rboth);
    }
    float *din = wb_dcopy(hin, (n + 1) * 4), *dtmp = wb_dmalloc(n * 4 + 4);
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "out", n * 4, 0);
    WB_CUDA(sep_set_weights(wt, r));
    for (int i = 0; i < taps; i++) wt[i] = NAN; /* the copy must be made by now */
    char what[96];
    double atol1 = 3e-6 * taps * s + 1e-6, atol2 = 6e-6 * taps * s * s + 1e-6;
    snprintf(what, sizeof what, "sep_rows, %dx%d, r=%d", w, h, r);
    WB_CUDA(sep_rows(din, dout, w, h));
    wb_expect_dout_f32_f64(&out, rrow, n, atol1, 1e-5, what);
    wb_dout_poison(&out);
    snprintf(what, sizeof what, "sep_cols, %dx%d, r=%d", w, h, r);
    WB_CUDA(sep_cols(din, dout, w, h));
    wb_expect_dout_f32_f64(&out, rcol, n, atol1, 1e-5, what);
    wb_dout_poison(&out);
    snprintf(what, sizeof what, "sep_rows then sep_cols, %dx%d, r=%d", w, h, r);
    WB_CUDA(sep_rows(din, dtmp, w, h));
    WB_CUDA(sep_cols(dtmp, dout, w, h));
    wb_expect_dout_f32_f64(&out, rboth, n, atol2, 1e-5, what);
    ck_assert_msg(sep_set_weights(wt, -1) == cudaErrorInvalidValue && sep_set_weights(wt, SEP_MAX_R + 1) == cudaErrorInvalidValue,
                  "sep_set_weights must refuse a radius < 0 or > SEP_MAX_R");
    wb_dfree(din), wb_dfree(dtmp), wb_dout_free(&out);
    free(hin), free(hrow), free(rrow), free(rcol), free(rboth);
}
END_TEST

/* ---------------------------------------------------------------- equalize */

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
            /* round((below - low) * 255 / (total - low)), half up, exactly */
            uint64_t num = (below - low) * 255, den = total - low, q = num / den;
            lut[v] = (uint8_t)(q + (2 * (num - q * den) >= den));
        }
    }
}

/* n, pattern (0 uniform, 1 low contrast 100..139, 2 one level), byte offset */
static const size_t EQN[][3] = { { 0, 0, 0 },      { 1, 0, 0 },        { 1, 2, 3 },        { 3, 1, 1 },
                                 { 5, 1, 3 },      { 256, 2, 0 },      { 1023, 1, 2 },     { 65537, 0, 3 },
                                 { (1 << 22) + 3, 1, 0 }, { 1 << 24, 0, 0 }, { 1 << 24, 2, 2 } };

START_TEST(equalize_images)
{
    wb_rng rng = WB_RNG();
    size_t n = EQN[_i][0], pattern = EQN[_i][1], off = EQN[_i][2];
    uint8_t *h = wb_hmalloc(n + off + 1), lut[EQ_BINS], *want = wb_hmalloc(n + 1);
    uint32_t hist[EQ_BINS];
    int level = (int)wb_rng_int(&rng, 0, 255);
    for (size_t i = 0; i < n + off; i++)
        h[i] = pattern == 0 ? (uint8_t)wb_rng_int(&rng, 0, 255) : pattern == 1 ? (uint8_t)wb_rng_int(&rng, 100, 139) : (uint8_t)level;
    hist_ref(h + off, n, hist);
    lut_ref(hist, lut);
    for (size_t i = 0; i < n; i++) want[i] = lut[h[off + i]];
    uint8_t *din = wb_dmalloc(n + off + 1);
    wb_h2d(din, h, n + off);
    wb_dout dh, dl, dout;
    unsigned *dhist = wb_dout_alloc(&dh, "hist", EQ_BINS * 4, 0);
    uint8_t *dlut = wb_dout_alloc(&dl, "lut", EQ_BINS, 0);
    uint8_t *dres = wb_dout_alloc(&dout, "out", n, off); /* the output at the input's misalignment */
    char what[96];
    snprintf(what, sizeof what, "n=%zu, %s, input at byte offset %zu", n,
             pattern == 0 ? "uniform levels" : pattern == 1 ? "levels 100..139" : "one level", off);
    WB_CUDA(eq_histogram(din + off, n, dhist));
    wb_expect_dout_u32(&dh, hist, EQ_BINS, what);
    WB_CUDA(eq_lut(dhist, dlut));
    expect_dout_u8(&dl, lut, EQ_BINS, what);
    WB_CUDA(eq_apply(din + off, dres, n, dlut));
    expect_dout_u8(&dout, want, n, what);
    /* in place: out == in */
    if (n) {
        WB_CUDA(eq_apply(din + off, din + off, n, dlut));
        uint8_t *back = wb_hmalloc(n);
        wb_d2h(back, din + off, n);
        ck_assert_msg(memcmp(back, want, n) == 0, "%s: eq_apply in place (out == in) differs", what);
        free(back);
    }
    wb_dfree(din), wb_dout_free(&dh), wb_dout_free(&dl), wb_dout_free(&dout);
    free(h), free(want);
}
END_TEST

/* The LUT alone, from histograms made on the host: empty, one level, two
 * levels, and counts large enough to overflow 32-bit arithmetic. */
START_TEST(equalize_lut_cases)
{
    wb_rng rng = WB_RNG();
    for (int c = 0; c < 5; c++) {
        uint32_t hist[EQ_BINS];
        memset(hist, 0, sizeof hist);
        switch (c) {
        case 0: break;
        case 1: hist[wb_rng_int(&rng, 0, 255)] = (uint32_t)wb_rng_int(&rng, 1, 1 << 30); break;
        case 2: hist[3] = 5, hist[250] = 7; break;
        case 3: for (int v = 0; v < EQ_BINS; v++) hist[v] = (uint32_t)wb_rng_int(&rng, 0, 1 << 23); break;
        default: for (int v = 40; v < 90; v++) hist[v] = (uint32_t)wb_rng_int(&rng, 0, 3); hist[40] = 1; break;
        }
        uint8_t lut[EQ_BINS];
        lut_ref(hist, lut);
        unsigned *dhist = wb_dcopy(hist, sizeof hist);
        wb_dout dl;
        uint8_t *dlut = wb_dout_alloc(&dl, "lut", EQ_BINS, 0);
        WB_CUDA(eq_lut(dhist, dlut));
        char what[64];
        snprintf(what, sizeof what, "eq_lut, histogram case %d", c);
        expect_dout_u8(&dl, lut, EQ_BINS, what);
        wb_dfree(dhist), wb_dout_free(&dl);
    }
}
END_TEST

/* ---------------------------------------------------------------- resize */

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

/* iw, ih, ow, oh */
static const int RS[][4] = { { 1, 1, 1, 1 },      { 1, 1, 5, 3 },      { 7, 9, 2, 2 },          { 31, 17, 64, 34 },
                             { 640, 480, 1280, 960 }, { 1280, 960, 640, 480 }, { 1000, 3, 333, 7 }, { 3, 1000, 7, 333 },
                             { 4096, 16, 1000, 40 }, { 333, 777, 777, 333 }, { 100, 100, 100, 100 }, { 4, 4, 0, 5 } };

START_TEST(resize_shapes)
{
    wb_rng rng = WB_RNG();
    int iw = RS[_i][0], ih = RS[_i][1], ow = RS[_i][2], oh = RS[_i][3];
    size_t ni = (size_t)iw * ih, no = (size_t)ow * oh;
    float *hin = wb_hmalloc(ni * 4);
    double *ref = wb_hmalloc(no * 8 + 8);
    wb_fill_uniform_f32(&rng, hin, ni, 0, 1);
    resize_ref(hin, iw, ih, ref, ow, oh);
    float *din = wb_dcopy(hin, ni * 4);
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "out", no * 4, 0);
    WB_CUDA(resize_bilinear(din, iw, ih, dout, ow, oh));
    char what[96];
    snprintf(what, sizeof what, "%dx%d -> %dx%d", iw, ih, ow, oh);
    wb_expect_dout_f32_f64(&out, ref, no, 2e-6 + 4e-7 * (iw > ih ? iw : ih), 0, what);
    ck_assert_msg(resize_bilinear(din, 0, ih, dout, 3, 3) == cudaErrorInvalidValue,
                  "an empty input with a non-empty output must be cudaErrorInvalidValue");
    wb_dfree(din), wb_dout_free(&out);
    free(hin), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- sobel */

/* width, height */
static const int SOB[][2] = { { 1, 1 }, { 1, 9 }, { 9, 1 }, { 2, 3 }, { 31, 17 }, { 33, 9 }, { 257, 129 }, { 1920, 1080 }, { 0, 5 } };

START_TEST(sobel_shapes)
{
    wb_rng rng = WB_RNG();
    int w = SOB[_i][0], h = SOB[_i][1];
    size_t n = (size_t)w * h;
    float *hin = wb_hmalloc((n + 1) * 4);
    double *ref = wb_hmalloc((n + 1) * 8);
    wb_fill_uniform_f32(&rng, hin, n + 1, 0, 1);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double gx = 0, gy = 0;
            for (int d = -1; d <= 1; d++) {
                double wgt = d == 0 ? 2 : 1;
                gx += wgt * (pix(hin, w, h, x + 1, y + d) - pix(hin, w, h, x - 1, y + d));
                gy += wgt * (pix(hin, w, h, x + d, y + 1) - pix(hin, w, h, x + d, y - 1));
            }
            ref[(size_t)y * w + x] = sqrt(gx * gx + gy * gy);
        }
    float *din = wb_dcopy(hin, (n + 1) * 4);
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "out", n * 4, 0);
    WB_CUDA(sobel(din, dout, w, h));
    char what[64];
    snprintf(what, sizeof what, "sobel, %dx%d", w, h);
    wb_expect_dout_f32_f64(&out, ref, n, 1e-5, 1e-5, what);
    wb_dfree(din), wb_dout_free(&out);
    free(hin), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- pipeline */

/* The CPU version: single-threaded, straightforward, in the order pipeline.h
 * gives. Every value is exact (multiples of 1/256 below 2^16), so the result
 * must match the GPU's bit for bit. tmp and blur hold w*h floats, edge w*h bytes. */
static void cpu_pipeline(const uint8_t *src, uint8_t *dst, int w, int h, float *tmp, float *blur, uint8_t *edge)
{
    static const float B[5] = { 1, 4, 6, 4, 1 };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float acc = 0;
            for (int k = -2; k <= 2; k++) acc += B[k + 2] * src[(size_t)y * w + clampc(x + k, w)];
            tmp[(size_t)y * w + x] = acc / 16;
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float acc = 0;
            for (int k = -2; k <= 2; k++) acc += B[k + 2] * tmp[(size_t)clampc(y + k, h) * w + x];
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

typedef struct { uint8_t *src, *want, *edge; float *tmp, *blur; } cpu_bufs;

static void cpu_bufs_alloc(cpu_bufs *b, size_t n)
{
    b->src = wb_hmalloc(n + 1), b->want = wb_hmalloc(n + 1), b->edge = wb_hmalloc(n + 1);
    b->tmp = wb_hmalloc(n * 4 + 4), b->blur = wb_hmalloc(n * 4 + 4);
}

static void cpu_bufs_free(cpu_bufs *b) { free(b->src), free(b->want), free(b->edge), free(b->tmp), free(b->blur); }

static const int PIPE[][2] = { { 1, 1 },      { 2, 2 },      { 5, 3 },       { 33, 17 },  { 640, 480 },
                               { 1001, 999 }, { 4099, 517 }, { 4000, 3000 }, { 0, 3 } };

START_TEST(pipeline_images)
{
    wb_rng rng = WB_RNG();
    int w = PIPE[_i][0], h = PIPE[_i][1];
    size_t n = (size_t)w * h;
    cpu_bufs b;
    cpu_bufs_alloc(&b, n);
    make_scene(&rng, b.src, w, h);
    cpu_pipeline(b.src, b.want, w, h, b.tmp, b.blur, b.edge);
    uint8_t *din = wb_dcopy(b.src, n);
    size_t wbytes = pipeline_workspace_bytes(w, h);
    void *work = wb_dmalloc(wbytes);
    wb_dpoison(work, wbytes);
    wb_dout out;
    uint8_t *dout = wb_dout_alloc(&out, "out", n, 0);
    WB_CUDA(pipeline_apply(din, dout, w, h, work));
    char what[64];
    snprintf(what, sizeof what, "pipeline, %dx%d", w, h);
    expect_dout_u8(&out, b.want, n, what);
    /* a second run on the same workspace gives the same image */
    wb_dout_poison(&out);
    WB_CUDA(pipeline_apply(din, dout, w, h, work));
    snprintf(what, sizeof what, "pipeline, %dx%d, second run", w, h);
    expect_dout_u8(&out, b.want, n, what);
    wb_dfree(din), wb_dfree(work), wb_dout_free(&out);
    cpu_bufs_free(&b);
}
END_TEST

/* ---------------------------------------------------------------- pipeline speed */

enum { PW = 4000, PH = 3000, CPU_RUNS = 3 };

typedef struct {
    const uint8_t *in;
    uint8_t       *out;
    void          *work;
    cpu_bufs      *b;              /* the timed scene (b->src) and its CPU result (b->want) */
    uint8_t       *src2, *want2;   /* the spot check's scene and its CPU result */
    int            scene, out_scene; /* the scene in `in` now, and the one `out` was computed from (1: src2) */
} pipe_ctx;

static void pipe_work(void *p)
{
    pipe_ctx *c = p;
    WB_CUDA(pipeline_apply(c->in, c->out, PW, PH, c->work));
    c->out_scene = c->scene;
}

/* The timing's spot check (wb_bench_opts): one timed run on another scene
 * with a poisoned output, then that output against the CPU's. salt 0 puts
 * the first scene back (and leaves the output alone: pipe_work records
 * which scene the output last came from, for the check after timing). */
static void pipe_fresh(void *p, unsigned long long salt)
{
    pipe_ctx *c = p;
    size_t n = (size_t)PW * PH;
    if (salt == 0) {
        wb_h2d((void *)c->in, c->b->src, n);
        c->scene = 0;
        return;
    }
    wb_rng rng;
    wb_rng_seed(&rng, 1717 + salt);
    make_scene(&rng, c->src2, PW, PH);
    wb_h2d((void *)c->in, c->src2, n);
    wb_dpoison(c->out, n);
    c->scene = 1;
}

/* Compare the device output with the CPU's result for its scene; 0 if equal. */
static size_t pipe_compare(const pipe_ctx *c, uint8_t *got, const uint8_t *want, char *why, size_t size)
{
    size_t n = (size_t)PW * PH, bad = 0, first = 0;
    wb_d2h(got, c->out, n);
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && !bad++) first = i;
    if (bad) snprintf(why, size, "%zu of %zu pixels differ from the CPU's; [%zu] expected %u got %u", bad, n, first,
                      want[first], got[first]);
    return bad;
}

static int pipe_check(void *p, char *why, size_t size)
{
    pipe_ctx *c = p;
    cpu_pipeline(c->src2, c->want2, PW, PH, c->b->tmp, c->b->blur, c->b->edge);
    uint8_t *got = wb_hmalloc((size_t)PW * PH);
    size_t bad = pipe_compare(c, got, c->want2, why, size);
    free(got);
    return bad != 0;
}

static double now_ms(void) { return wb_seconds() * 1e3; }

/* Your pipeline on a 4000 x 3000 scene, its GPU time in bandwidth terms:
 * 21 bytes a pixel (the five-kernel plan of the README) over the time,
 * against a device-to-device copy (COPY, the checkpoint). The CPU version on
 * the same image, timed in this run (median of CPU_RUNS; the CPU is
 * synchronous, so a host clock times it), is a report row beside it. One
 * timed run, chosen at random, is on another scene (pipe_fresh,
 * pipe_check); the last timed output is checked whole. */
static double bench_pipeline(wb_headline *h)
{
    size_t n = (size_t)PW * PH;
    cpu_bufs b;
    cpu_bufs_alloc(&b, n);
    wb_rng rng;
    wb_rng_seed(&rng, 1717);
    make_scene(&rng, b.src, PW, PH);
    double cpu[CPU_RUNS];
    for (int r = 0; r < CPU_RUNS; r++) {
        double t0 = now_ms();
        cpu_pipeline(b.src, b.want, PW, PH, b.tmp, b.blur, b.edge);
        cpu[r] = now_ms() - t0;
    }
    double cpu_ms = wb_median(cpu, CPU_RUNS);
    pipe_ctx c = { wb_dcopy(b.src, n), wb_dmalloc(n), wb_dmalloc(pipeline_workspace_bytes(PW, PH)), &b, wb_hmalloc(n),
                   wb_hmalloc(n), 0, 0 };
    wb_dpoison(c.out, n);
    wb_bench_row row = { .exercise = "pipeline", .variant = "yours vs CPU (1 thread, same image), a report", .n = n,
                         .bytes = 21.0 * n, .unit = "Mpx/s", .yard_name = "CPU", .yard = n / (cpu_ms * 1e-3) / 1e6 };
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = pipe_fresh, o.check = pipe_check;
    wb_time(pipe_work, &c, &o, &row.t);
    row.value = n / (row.t.median * 1e-3) / 1e6;
    /* the last timed output, against the CPU's result for the scene it came from */
    uint8_t *got = wb_hmalloc(n);
    char why[160] = "";
    size_t bad = pipe_compare(&c, got, c.out_scene ? c.want2 : b.want, why, sizeof why);
    double copy = wb_yard_copy_gbps(wb_bench_bytes());
    wb_bench_row bw = { .exercise = "pipeline", .variant = "21 B/px over the GPU time, vs COPY", .n = n,
                        .bytes = 21.0 * n, .t = row.t, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    bw.value = bw.bytes / (row.t.median * 1e-3) / 1e9;
    if (bad) wb_bench_invalid(&bw, why), wb_bench_invalid(&row, why);
    wb_bench_emit(&row);
    printf("  CPU: %.1f ms a run (median of %d), GPU: %.3f ms\n", cpu_ms, CPU_RUNS, row.t.median);
    wb_dfree((void *)c.in), wb_dfree(c.out), wb_dfree(c.work);
    free(got), free(c.src2), free(c.want2);
    cpu_bufs_free(&b);
    return wb_bench_headline(&bw, h);
}

/* ---------------------------------------------------------------- the convolution ladder (no checkpoint) */

enum { SEED_CV = 171 };
static const float G5[5] = { 1 / 16.f, 4 / 16.f, 6 / 16.f, 4 / 16.f, 1 / 16.f };

typedef struct { const float *in; float *out, *tmp; const float *dw; int w, h, which; } cv_ctx;

static void cv_work(void *p)
{
    cv_ctx *c = p;
    if (c->which == 0) WB_CUDA(conv2d_naive(c->in, c->out, c->w, c->h, c->dw, 5));
    else if (c->which == 1) WB_CUDA(conv2d_tiled(c->in, c->out, c->w, c->h));
    else if (c->which == 2) {
        WB_CUDA(sep_rows(c->in, c->tmp, c->w, c->h));
        WB_CUDA(sep_cols(c->tmp, c->out, c->w, c->h));
    } else WB_CUDA(sobel(c->in, c->out, c->w, c->h));
}

static double cv_in(const cv_ctx *c, int x, int y)
{
    return wb_hash_uniform_f32(SEED_CV, (size_t)clampc(y, c->h) * c->w + clampc(x, c->w), 0, 1);
}

static double cv_expect(size_t i, const void *ctx)
{
    const cv_ctx *c = ctx;
    int x = (int)(i % (size_t)c->w), y = (int)(i / (size_t)c->w);
    if (c->which == 3) {
        double gx = 0, gy = 0;
        for (int d = -1; d <= 1; d++) {
            double wgt = d == 0 ? 2 : 1;
            gx += wgt * (cv_in(c, x + 1, y + d) - cv_in(c, x - 1, y + d));
            gy += wgt * (cv_in(c, x + d, y + 1) - cv_in(c, x + d, y - 1));
        }
        return sqrt(gx * gx + gy * gy);
    }
    double s = 0;
    for (int i2 = -2; i2 <= 2; i2++)
        for (int j = -2; j <= 2; j++) s += (double)G5[i2 + 2] * G5[j + 2] * cv_in(c, x + j, y + i2);
    return s;
}

/* A 5 x 5 Gaussian-like filter (the outer product of 1 4 6 4 1 / 16) on an
 * image of wb_bench_bytes(): naive, tiled, separable (two passes), and Sobel
 * beside them, each against COPY. `make phase4/week17 bench NAME=conv`. */
static double bench_conv(void)
{
    size_t bytes = wb_bench_bytes();
    int side = ((int)sqrt((double)(bytes / 4)) / 32) * 32 - 7; /* not a multiple of the tile */
    size_t n = (size_t)side * side;
    float w2[25];
    for (int i = 0; i < 25; i++) w2[i] = G5[i / 5] * G5[i % 5];
    cv_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(n * 4), wb_dmalloc(n * 4), wb_dcopy(w2, sizeof w2), side, side, 0 };
    wb_dfill_uniform_f32((float *)c.in, n, SEED_CV, 0, 1);
    WB_CUDA(conv2d_set_weights(w2, 5));
    WB_CUDA(sep_set_weights(G5, 2));
    double copy = wb_yard_copy_gbps(n * 4), ratio = NAN;
    static const char *const VAR[4] = { "conv2d naive, K=5", "conv2d tiled, K=5", "separable, r=2 (2 passes)",
                                        "sobel" };
    for (int v = 0; v < 4; v++) {
        c.which = v;
        wb_dpoison(c.out, n * 4);
        wb_bench_row r = { .exercise = v == 3 ? "sobel" : v == 2 ? "separable" : "conv2d", .variant = VAR[v], .n = n,
                           .bytes = (v == 2 ? 16.0 : 8.0) * n, .flops = (v == 2 ? 20.0 : v == 3 ? 14.0 : 50.0) * n,
                           .unit = "GB/s", .yard_name = "COPY", .yard = copy };
        wb_time(cv_work, &c, NULL, &r.t);
        r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
        wb_cmp cmp;
        if (wb_dverify_f32("out", c.out, n, cv_expect, &c, 1 << 12, 1e-5, 1e-5, &cmp)) wb_bench_invalid(&r, cmp.msg);
        wb_bench_emit(&r);
        printf("    %s: %.3f ms, %.1f Gpx/s\n", VAR[v], r.t.median, n / (r.t.median * 1e-3) / 1e9);
        if (v == 1) ratio = wb_bench_ratio(&r);
    }
    wb_dfree((void *)c.in), wb_dfree(c.out), wb_dfree(c.tmp), wb_dfree((void *)c.dw);
    return ratio;
}

/* ---------------------------------------------------------------- w17.conv-bw, w17.conv-speed */

/* The checkpoints' filter: K = 5, the week's own size (the pipeline's blur,
 * the ladder above), where a tiled kernel can still keep pace with the
 * memory system; its weights random in [-1, 1], so a flipped filter
 * (convolution where conv2d.h asks for correlation) cannot pass as right. */
enum { SEED_CS = 1717, CS_K = 5 };

typedef struct {
    const float          *in;
    float                *out;
    int                   w, h, k;
    unsigned long long    salt;     /* the input is hashed from SEED_CS + salt */
    int                   zero_pad; /* the border of the output checked: 0 clamps (conv2d.h), 1 zeros (cuDNN) */
    const float          *wt;       /* the k x k weights, on the host */
    double                sumabs;   /* sum |w| */
    double                atol, rtol;
    const yard_conv_algo *algo;     /* cuDNN's algorithm and its workspace */
    void                 *ws;
} cs_ctx;

static double cs_in(const cs_ctx *c, int x, int y)
{
    if (c->zero_pad && (x < 0 || x >= c->w || y < 0 || y >= c->h)) return 0;
    return wb_hash_uniform_f32(SEED_CS + c->salt, (size_t)clampc(y, c->h) * c->w + clampc(x, c->w), 0, 1);
}

static double cs_expect(size_t i, const void *ctx)
{
    const cs_ctx *c = ctx;
    int x = (int)(i % (size_t)c->w), y = (int)(i / (size_t)c->w), r = c->k / 2;
    double s = 0;
    for (int a = 0; a < c->k; a++)
        for (int b = 0; b < c->k; b++) s += (double)c->wt[a * c->k + b] * cs_in(c, x + b - r, y + a - r);
    return s;
}

static void cs_yours(void *p)
{
    cs_ctx *c = p;
    WB_CUDA(conv2d_tiled(c->in, c->out, c->w, c->h));
}

static char g_cs_err[256];
static int g_cs_failed;
static void cs_cudnn(void *p)
{
    cs_ctx *c = p;
    if (!g_cs_failed && yard_cudnn_conv(c->in, c->out, c->algo, c->ws, g_cs_err, sizeof g_cs_err) != 0)
        g_cs_failed = 1;
}

/* The timing's spot check (wb_bench_opts): another image and a poisoned
 * output for one timed run, then that output verified. */
static void cs_fresh(void *p, unsigned long long salt)
{
    cs_ctx *c = p;
    c->salt = salt;
    wb_dfill_uniform_f32((float *)c->in, (size_t)c->w * c->h, SEED_CS + salt, 0, 1);
    wb_dpoison(c->out, (size_t)c->w * c->h * 4);
}

static int cs_check(void *p, char *why, size_t size)
{
    cs_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("out", c->out, (size_t)c->w * c->h, cs_expect, c, 1 << 12, c->atol, c->rtol, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* A square image past L2, wb_bench_bytes() of floats, its side a multiple
 * of the tile (10240 on an H100); k x k random weights (wt, the caller's)
 * given to conv2d_set_weights; the tolerance of w17.conv2d. */
static void cs_setup(cs_ctx *c, int k, float *wt)
{
    const int side = ((int)sqrt((double)(wb_bench_bytes() / 4)) / 32) * 32;
    const size_t n = (size_t)side * side;
    wb_rng rng;
    wb_rng_seed(&rng, SEED_CS + (uint64_t)k);
    wb_fill_uniform_f32(&rng, wt, (size_t)k * k, -1, 1);
    double sumabs = 0;
    for (int i = 0; i < k * k; i++) sumabs += fabs(wt[i]);
    *c = (cs_ctx){ wb_dmalloc(n * 4), wb_dmalloc(n * 4), side, side, k, 0, 0, wt, sumabs, 3e-6 * k * sumabs + 1e-6,
                   1e-5, NULL, NULL };
    wb_dfill_uniform_f32((float *)c->in, n, SEED_CS, 0, 1);
    WB_CUDA(conv2d_set_weights(wt, k));
}

/* Your conv2d_tiled timed into r (8 bytes a pixel: one read, one write),
 * with the spot check, and its last output checked against conv2d.h. */
static void cs_time_yours(cs_ctx *c, wb_bench_row *r)
{
    const size_t n = (size_t)c->w * c->h;
    static char variant[64];
    snprintf(variant, sizeof variant, "conv2d tiled, K=%d, %dx%d", c->k, c->w, c->h);
    r->exercise = "conv2d", r->variant = variant, r->n = n, r->bytes = 8.0 * n, r->flops = 2.0 * c->k * c->k * n;
    r->unit = "GB/s";
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = cs_fresh, o.check = cs_check;
    c->zero_pad = 0, c->salt = 0;
    wb_dpoison(c->out, n * 4);
    wb_time(cs_yours, c, &o, &r->t);
    r->value = r->bytes / (r->t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("out", c->out, n, cs_expect, c, 1 << 16, c->atol, c->rtol, &cmp)) wb_bench_invalid(r, cmp.msg);
}

/* w17.conv-bw: yours at K = 5 against a device-to-device copy of the image
 * (the same 8 bytes a pixel), the memory system's pace, which no
 * convolution that reads and writes every pixel once can pass by much. */
static double bench_conv_bw(wb_headline *h)
{
    float wt[CONV_MAX_K * CONV_MAX_K];
    cs_ctx c;
    cs_setup(&c, CS_K, wt);
    wb_bench_row r = { .yard_name = "COPY", .yard = wb_yard_copy_gbps((size_t)c.w * c.h * 4) };
    cs_time_yours(&c, &r);
    printf("  yours: %.3f ms, %.1f Gpx/s\n", r.t.median, r.value / 8);
    wb_dfree((void *)c.in), wb_dfree(c.out);
    return wb_bench_headline(&r, h);
}

/* w17.conv-speed: yours and cuDNN on the same image and the same k x k
 * filter, width x height outputs each, 8 bytes a pixel over the time. Yours
 * is timed first and its output checked whatever happens next (a wrong
 * kernel fails here even without cuDNN); then every algorithm that cuDNN's
 * own search (cudnnFindConvolutionForwardAlgorithm) says runs this
 * convolution in FP32 is timed the same way on the same input, its
 * workspace allocated before the timing, its output checked against
 * cuDNN's zero border, and the fastest one whose output is right is the
 * yardstick. *skipped: cuDNN could not be loaded or run this shape (why
 * says so); *head: your row against it. */
static void cs_compare(int k, wb_bench_row *head, int *skipped, char *why, size_t why_n)
{
    float wt[CONV_MAX_K * CONV_MAX_K];
    cs_ctx c;
    cs_setup(&c, k, wt);
    const size_t n = (size_t)c.w * c.h;
    *skipped = 0;
    why[0] = 0;
    *head = (wb_bench_row){ .yard_name = "cuDNN" };
    cs_time_yours(&c, head);
    const double copy = wb_yard_copy_gbps(n * 4);
    printf("  yours: %.3f ms, %.1f Gpx/s, %.3f of COPY (%.0f GB/s)\n", head->t.median, head->value / 8,
           head->value / copy, copy);
    if (head->invalid) {
        snprintf(why, why_n, "your conv2d_tiled is wrong at K=%d on %dx%d: %s", k, c.w, c.h, head->why);
        wb_dfree((void *)c.in), wb_dfree(c.out);
        return;
    }
    yard_conv_algo algos[8];
    int found = 0;
    if (!yard_cudnn_conv_open(why, why_n) ||
        yard_cudnn_conv_plan(c.w, c.h, wt, k, algos, WB_COUNT(algos), &found, why, why_n) != 0) {
        *skipped = 1;
        wb_dfree((void *)c.in), wb_dfree(c.out);
        return;
    }
    /* cuDNN's border is zeros, and its algorithms (FFT, Winograd) round
     * otherwise than a direct sum: a wider tolerance, still far below what a
     * flipped filter or a wrong border gives (of the order of sum |w|) */
    c.zero_pad = 1, c.salt = 0, c.atol = 2e-5 * c.sumabs + 1e-6, c.rtol = 1e-4;
    double best = NAN;
    int best_i = -1, tried = 0;
    char notes[300] = "";
    size_t used = 0;
    static char dv[WB_COUNT(algos)][64];
    /* the planner marks an algorithm too slow when cuDNN's own search timed
     * it at more than 20 times its fastest: it cannot be the fastest, and
     * timing it 23 times (FFT_TILING at K = 15: seconds a run) would only
     * make the bench slow */
    for (int i = 0; i < found; i++) {
        if (algos[i].too_slow) {
            if (used < sizeof notes)
                used += (size_t)snprintf(notes + used, sizeof notes - used, "; %s: not timed (%.1f ms in cuDNN's search)",
                                         algos[i].name, algos[i].find_ms);
            continue;
        }
        snprintf(dv[i], sizeof dv[i], "cudnnConvolutionForward, %s", algos[i].name);
        wb_bench_row d = { .exercise = "cudnn", .variant = dv[i], .n = n, .bytes = 8.0 * n,
                           .flops = 2.0 * k * k * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
        c.algo = &algos[i], c.ws = NULL;
        if (algos[i].workspace && cudaMalloc(&c.ws, algos[i].workspace) != cudaSuccess) {
            (void)cudaGetLastError();
            if (used < sizeof notes)
                used += (size_t)snprintf(notes + used, sizeof notes - used, "; %s: no room for its %.0f MB workspace",
                                         algos[i].name, algos[i].workspace / 1e6);
            continue;
        }
        tried++;
        g_cs_failed = 0;
        wb_dpoison(c.out, n * 4);
        wb_time(cs_cudnn, &c, NULL, &d.t);
        d.value = d.bytes / (d.t.median * 1e-3) / 1e9;
        wb_cmp cmp;
        if (g_cs_failed) wb_bench_invalid(&d, g_cs_err);
        else if (wb_dverify_f32("out", c.out, n, cs_expect, &c, 1 << 16, c.atol, c.rtol, &cmp))
            wb_bench_invalid(&d, cmp.msg);
        wb_bench_emit(&d);
        if (c.ws) WB_CUDA(cudaFree(c.ws));
        if (d.invalid) {
            if (used < sizeof notes)
                used += (size_t)snprintf(notes + used, sizeof notes - used, "; %s: no figure (%.80s)", algos[i].name,
                                         d.why);
            continue;
        }
        if (best_i < 0 || d.value > best) best = d.value, best_i = i;
    }
    wb_dfree((void *)c.in), wb_dfree(c.out);
    if (best_i < 0) {
        *skipped = 1;
        snprintf(why, why_n, "none of the %d algorithms cuDNN offers for this convolution gave a figure%s", found,
                 notes);
        return;
    }
    static char head_variant[96];
    snprintf(head_variant, sizeof head_variant, "%s vs cuDNN %s", head->variant, algos[best_i].name);
    head->variant = head_variant, head->yard = best;
    snprintf(why, why_n, "yours %.0f GB/s, cuDNN's fastest of the %d algorithms timed (%s) %.0f GB/s: yours / cuDNN "
             "= %.3f%s", head->value, tried, algos[best_i].name, best, head->value / best, notes);
}

START_TEST(conv_speed)
{
    int skipped = 0;
    char why[600];
    wb_bench_row head;
    cs_compare(CS_K, &head, &skipped, why, sizeof why);
    if (skipped) wb_skip_test("cuDNN, the yardstick, cannot run here: %s", why);
    printf("  %s\n", why);
    wb_expect_target_row("w17.conv-speed", &head);
}
END_TEST

/* w17.conv-speed's comparison (K = 5), then the same at other K, for the
 * story: where a direct tiled kernel stays ahead of cuDNN and where not.
 * `make phase4/week17 bench NAME=cudnn`. */
static double bench_cudnn(void)
{
    static const int KS[] = { CS_K, 3, 7, 11, 15 };
    double head_ratio = NAN;
    for (size_t i = 0; i < WB_COUNT(KS); i++) {
        int skipped = 0;
        char why[600];
        wb_bench_row head;
        printf("  K = %d%s\n", KS[i], i == 0 ? " (the checkpoint's)" : "");
        cs_compare(KS[i], &head, &skipped, why, sizeof why);
        printf("  %s%s\n", skipped ? "no cuDNN figure: " : "", why);
        if (skipped) return head_ratio;
        wb_bench_emit(&head);
        if (i == 0) head_ratio = wb_bench_ratio(&head);
    }
    return head_ratio;
}

/* ---------------------------------------------------------------- the demo (no checkpoint) */

/* Every shipped image through your pipeline (grey levels: 16-bit samples
 * scaled to 8 bits, colour averaged), written to build/phase4/week17/demo/
 * as NAME-edges.pgm, and a 2x bilinear enlargement as NAME-x2.pgm. Open
 * them in any image viewer. `make phase4/week17 bench NAME=demo`. */
static double bench_demo(void)
{
    char dir[300], cmd[400];
    snprintf(dir, sizeof dir, "build/%s/demo", week_dir());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    if (system(cmd) != 0) return NAN;
    int done = 0;
    for (size_t k = 0; k < WB_COUNT(SHIPPED); k++) {
        char path[400], err[300] = "", stem[64];
        snprintf(path, sizeof path, "%s/images/%s", week_dir(), SHIPPED[k]);
        pgm_image im;
        if (pgm_read(path, &im, err, sizeof err) != 0) {
            printf("  %s\n", err);
            continue;
        }
        int w = im.width, h = im.height;
        size_t n = (size_t)w * h;
        uint8_t *grey = wb_hmalloc(n);
        float *gf = wb_hmalloc(n * 4), *big = wb_hmalloc(n * 16);
        for (size_t i = 0; i < n; i++) {
            unsigned s = 0;
            for (int ch = 0; ch < im.channels; ch++) s += im.data[i * im.channels + ch];
            grey[i] = (uint8_t)((unsigned long)s * 255 / ((unsigned long)im.maxval * im.channels));
            gf[i] = grey[i];
        }
        uint8_t *din = wb_dcopy(grey, n), *dout = wb_dmalloc(n);
        void *work = wb_dmalloc(pipeline_workspace_bytes(w, h));
        float *dgf = wb_dcopy(gf, n * 4), *dbig = wb_dmalloc(n * 16);
        WB_CUDA(pipeline_apply(din, dout, w, h, work));
        WB_CUDA(resize_bilinear(dgf, w, h, dbig, 2 * w, 2 * h));
        wb_d2h(grey, dout, n);
        wb_d2h(big, dbig, n * 16);
        snprintf(stem, sizeof stem, "%.*s", (int)(strchr(SHIPPED[k], '.') - SHIPPED[k]), SHIPPED[k]);
        pgm_image e = { w, h, 1, 255, wb_hmalloc(n * 2) }, x2 = { 2 * w, 2 * h, 1, 255, wb_hmalloc(n * 8) };
        for (size_t i = 0; i < n; i++) e.data[i] = grey[i];
        for (size_t i = 0; i < 4 * n; i++) x2.data[i] = (uint16_t)(big[i] < 0 ? 0 : big[i] > 255 ? 255 : big[i] + 0.5f);
        snprintf(path, sizeof path, "%s/%s-edges.pgm", dir, stem);
        int ok = pgm_write(path, &e, "pipeline: blur, Sobel, equalise", err, sizeof err) == 0;
        snprintf(path, sizeof path, "%s/%s-x2.pgm", dir, stem);
        ok = ok && pgm_write(path, &x2, "bilinear 2x", err, sizeof err) == 0;
        printf("  %s: %dx%d -> %s/%s-edges.pgm, %s-x2.pgm%s%s\n", SHIPPED[k], w, h, dir, stem, stem, ok ? "" : ": ", ok ? "" : err);
        done += ok;
        wb_dfree(din), wb_dfree(dout), wb_dfree(work), wb_dfree(dgf), wb_dfree(dbig);
        free(grey), free(gf), free(big);
        pgm_free(&e), pgm_free(&x2), pgm_free(&im);
    }
    return (double)done / WB_COUNT(SHIPPED);
}

static const wb_test TESTS[] = {
    { "w17.pgm", WB_T(pgm_decode_valid), WB_CPU, 0 },
    { "w17.pgm", WB_T(pgm_decode_refuses), WB_CPU, 0 },
    { "w17.pgm", WB_T(pgm_round_trip), WB_CPU, 6 },
    { "w17.pgm", WB_T(shipped_images), WB_CPU, 0 },
    { "w17.conv2d", WB_T(conv2d_shapes), WB_GPU, WB_COUNT(CONV) },
    { "w17.conv2d", WB_T(conv2d_bad_k), WB_GPU, 0 },
    WB_SPEED("w17.conv-bw", bench_conv_bw),
    { "w17.conv-speed", WB_T(conv_speed), WB_GPU, 0 },
    { "w17.separable", WB_T(separable_shapes), WB_GPU, WB_COUNT(SEP) },
    { "w17.equalize", WB_T(equalize_images), WB_GPU, WB_COUNT(EQN) },
    { "w17.equalize", WB_T(equalize_lut_cases), WB_GPU, 0 },
    { "w17.resize", WB_T(resize_shapes), WB_GPU, WB_COUNT(RS) },
    { "w17.sobel", WB_T(sobel_shapes), WB_GPU, WB_COUNT(SOB) },
    { "w17.pipeline", WB_T(pipeline_images), WB_GPU, WB_COUNT(PIPE) },
    WB_SPEED("w17.pipeline-speed", bench_pipeline),
};

/* Benchmarks that serve no checkpoint; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "conv", bench_conv },
    { "cudnn", bench_cudnn },
    { "demo", bench_demo },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
