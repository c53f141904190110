/* mkdigits.c — week 18's model and data, made from nothing: an 8 x 8
 * handwritten-digit-like data set drawn procedurally, and a small MLP trained
 * on it on the CPU. Writes the two files the week ships:
 *
 *   data/mlp_digits.bin   the trained model (layout in ../model_io.h)
 *   data/digits_test.bin  the held-out samples (layout in ../model_io.h)
 *
 * Build and run from the workbook's top folder (C11, no other library):
 *
 *   mkdir -p build
 *   cc -std=c11 -O2 -o build/mkdigits phase4/week18/tools/mkdigits.c -lm
 *   build/mkdigits phase4/week18/data
 *
 * Everything follows from the seeds below: the same compiler and C library
 * give the same bytes (x86-64, gcc, glibc: the committed files). Elsewhere
 * expf and the order of float operations may move a weight by an ulp, and
 * the accuracy the week states may then move by a sample or two.
 *
 * The digits. Each of 0-9 is a few strokes (polylines and arcs) in a unit
 * square. A sample draws one digit with its own random transform: scale
 * 0.7-1.1, horizontal squeeze 0.7-1.15, slant (shear) -0.45..0.45, rotation
 * +-0.25 rad, shift +-0.16 of the box (one pixel is 0.125), stroke half-width
 * 0.04-0.13, and each stroke point jittered by up to 0.06. A pixel is the
 * mean of 3 x 3 sub-samples, each lit by how far it is inside the stroke
 * (a 0.04-wide soft edge). Gaussian noise of sigma 0-0.2 is added, the
 * value clamped to [0, 1] and stored as a byte (0-255).
 *
 * The model. 64 inputs (pixel / 255) -> 128 ReLU -> 64 ReLU -> 10 logits,
 * softmax cross-entropy, He-initialised, trained with Adam (lr 2e-3 decayed
 * by 0.7 each epoch, beta 0.9/0.999) in minibatches of 32 for 8 epochs over
 * 24000 training samples. The 2000 held-out samples come from another seed
 * and are never trained on. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SIDE = 8, NPIX = SIDE * SIDE, CLASSES = 10, N_TRAIN = 24000, N_TEST = 2000, EPOCHS = 8, MB = 32 };
static const uint64_t SEED_TRAIN = 0x18d1615eedULL, SEED_TEST = 0x18d1617e57ULL, SEED_INIT = 0x1817717ULL;
static const int DIMS[] = { NPIX, 128, 64, CLASSES };
#define NL 3

/* ---------------------------------------------------------------- random numbers */
typedef struct { uint64_t s; } rng;
static uint64_t next_u64(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static float uni(rng *r, float lo, float hi) { return lo + (hi - lo) * (float)((next_u64(r) >> 40) * 0x1p-24); }
static float gauss(rng *r)
{
    float u1 = uni(r, 1e-7f, 1.f), u2 = uni(r, 0.f, 1.f);
    return sqrtf(-2.f * logf(u1)) * cosf(6.2831853f * u2);
}

/* ---------------------------------------------------------------- the strokes */
enum { MAXPT = 40, MAXSTROKE = 3 };
typedef struct { int n; float x[MAXPT], y[MAXPT]; } stroke;
typedef struct { int n; stroke s[MAXSTROKE]; } glyph;

static void add_pt(stroke *s, float x, float y)
{
    if (s->n < MAXPT) s->x[s->n] = x, s->y[s->n] = y, s->n++;
}
/* arc of the ellipse (cx, cy, rx, ry) from angle a0 to a1 (radians, y down) */
static void add_arc(stroke *s, float cx, float cy, float rx, float ry, float a0, float a1, int steps)
{
    for (int i = 0; i <= steps; i++) {
        float a = a0 + (a1 - a0) * i / steps;
        add_pt(s, cx + rx * cosf(a), cy + ry * sinf(a));
    }
}

static glyph template_of(int d)
{
    glyph g;
    memset(&g, 0, sizeof g);
    stroke *a = &g.s[0], *b = &g.s[1];
    const float PI = 3.14159265f;
    switch (d) {
    case 0: g.n = 1; add_arc(a, 0.5f, 0.5f, 0.28f, 0.4f, 0, 2 * PI, 20); break;
    case 1: g.n = 2; add_pt(a, 0.52f, 0.1f), add_pt(a, 0.52f, 0.9f); add_pt(b, 0.32f, 0.28f), add_pt(b, 0.52f, 0.1f); break;
    case 2:
        g.n = 1;
        add_arc(a, 0.5f, 0.32f, 0.28f, 0.22f, PI * 1.05f, PI * 2.2f, 10);
        add_pt(a, 0.2f, 0.88f), add_pt(a, 0.82f, 0.88f);
        break;
    case 3:
        g.n = 1;
        add_arc(a, 0.48f, 0.3f, 0.26f, 0.2f, PI * 1.15f, PI * 2.5f, 10);
        add_arc(a, 0.48f, 0.69f, 0.29f, 0.2f, PI * 1.5f, PI * 2.85f, 10);
        break;
    case 4: g.n = 1; add_pt(a, 0.66f, 0.9f), add_pt(a, 0.66f, 0.1f), add_pt(a, 0.16f, 0.64f), add_pt(a, 0.86f, 0.64f); break;
    case 5:
        g.n = 1;
        add_pt(a, 0.8f, 0.12f), add_pt(a, 0.28f, 0.12f), add_pt(a, 0.24f, 0.46f);
        add_arc(a, 0.48f, 0.66f, 0.3f, 0.23f, PI * 1.3f, PI * 2.8f, 10);
        break;
    case 6:
        g.n = 1;
        add_pt(a, 0.74f, 0.1f), add_pt(a, 0.4f, 0.3f);
        add_arc(a, 0.5f, 0.67f, 0.26f, 0.22f, PI * 1.05f, PI * 3.05f, 16);
        break;
    case 7: g.n = 1; add_pt(a, 0.16f, 0.12f), add_pt(a, 0.84f, 0.12f), add_pt(a, 0.42f, 0.9f); break;
    case 8:
        g.n = 2;
        add_arc(a, 0.5f, 0.29f, 0.2f, 0.18f, 0, 2 * PI, 14);
        add_arc(b, 0.5f, 0.69f, 0.25f, 0.21f, 0, 2 * PI, 16);
        break;
    default:
        g.n = 1;
        add_arc(a, 0.48f, 0.33f, 0.24f, 0.21f, 0.1f, 2 * PI + 0.1f, 16);
        add_pt(a, 0.7f, 0.4f), add_pt(a, 0.6f, 0.9f);
        break;
    }
    return g;
}

static float seg_dist(float px, float py, float ax, float ay, float bx, float by)
{
    float dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    float t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0.f;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    float ex = ax + t * dx - px, ey = ay + t * dy - py;
    return sqrtf(ex * ex + ey * ey);
}

/* One random sample of digit d into pix[64]. */
static void draw(rng *r, int d, uint8_t *pix)
{
    glyph g = template_of(d);
    float sc = uni(r, 0.7f, 1.1f), sq = uni(r, 0.7f, 1.15f), shear = uni(r, -0.45f, 0.45f);
    float rot = uni(r, -0.25f, 0.25f), dx = uni(r, -0.16f, 0.16f), dy = uni(r, -0.16f, 0.16f);
    float half = uni(r, 0.04f, 0.13f), sigma = uni(r, 0.f, 0.2f);
    float cr = cosf(rot), sr = sinf(rot);
    for (int k = 0; k < g.n; k++)
        for (int i = 0; i < g.s[k].n; i++) {
            float x = g.s[k].x[i] - 0.5f + uni(r, -0.06f, 0.06f), y = g.s[k].y[i] - 0.5f + uni(r, -0.06f, 0.06f);
            x = (x * sq + shear * y) * sc, y *= sc;
            g.s[k].x[i] = cr * x - sr * y + 0.5f + dx;
            g.s[k].y[i] = sr * x + cr * y + 0.5f + dy;
        }
    for (int py = 0; py < SIDE; py++)
        for (int px = 0; px < SIDE; px++) {
            float lit = 0;
            for (int sy = 0; sy < 3; sy++)
                for (int sx = 0; sx < 3; sx++) {
                    float x = (px + (sx + 0.5f) / 3) / SIDE, y = (py + (sy + 0.5f) / 3) / SIDE, dmin = 1e9f;
                    for (int k = 0; k < g.n; k++)
                        for (int i = 0; i + 1 < g.s[k].n; i++) {
                            float dd = seg_dist(x, y, g.s[k].x[i], g.s[k].y[i], g.s[k].x[i + 1], g.s[k].y[i + 1]);
                            dmin = dd < dmin ? dd : dmin;
                        }
                    float v = (half - dmin) / 0.04f + 0.5f;
                    lit += v < 0 ? 0 : v > 1 ? 1 : v;
                }
            float v = lit / 9 + sigma * gauss(r);
            v = v < 0 ? 0 : v > 1 ? 1 : v;
            pix[py * SIDE + px] = (uint8_t)lrintf(v * 255);
        }
}

static void make_set(uint64_t seed, int n, uint8_t *pix, uint8_t *label)
{
    rng r = { seed };
    for (int i = 0; i < n; i++) {
        label[i] = (uint8_t)(next_u64(&r) % CLASSES);
        draw(&r, label[i], pix + (size_t)i * NPIX);
    }
}

/* ---------------------------------------------------------------- the MLP */
typedef struct { float *W[NL], *b[NL]; } params; /* W[l]: DIMS[l+1] x DIMS[l], row-major */

static void alloc_params(params *p)
{
    for (int l = 0; l < NL; l++) {
        p->W[l] = calloc((size_t)DIMS[l + 1] * DIMS[l], sizeof(float));
        p->b[l] = calloc((size_t)DIMS[l + 1], sizeof(float));
        if (!p->W[l] || !p->b[l]) exit(1);
    }
}

/* Forward one sample; act[l] holds layer l's input (act[0] = x), act[NL] the logits. */
static void forward(const params *p, float *act[NL + 1])
{
    for (int l = 0; l < NL; l++) {
        int in = DIMS[l], out = DIMS[l + 1];
        for (int o = 0; o < out; o++) {
            float s = p->b[l][o];
            const float *w = p->W[l] + (size_t)o * in;
            for (int k = 0; k < in; k++) s += w[k] * act[l][k];
            act[l + 1][o] = (l < NL - 1 && s < 0) ? 0 : s;
        }
    }
}

static int argmax10(const float *v)
{
    int best = 0;
    for (int c = 1; c < CLASSES; c++) best = v[c] > v[best] ? c : best;
    return best;
}

static double accuracy(const params *p, const uint8_t *pix, const uint8_t *label, int n, float *margin_min)
{
    float a0[NPIX], a1[128], a2[64], a3[CLASSES];
    float *act[NL + 1] = { a0, a1, a2, a3 };
    int ok = 0;
    float mm = 1e9f;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < NPIX; k++) a0[k] = pix[(size_t)i * NPIX + k] / 255.0f;
        forward(p, act);
        int c = argmax10(a3);
        ok += c == label[i];
        float second = -1e30f;
        for (int j = 0; j < CLASSES; j++) second = (j != c && a3[j] > second) ? a3[j] : second;
        mm = a3[c] - second < mm ? a3[c] - second : mm;
    }
    if (margin_min) *margin_min = mm;
    return (double)ok / n;
}

static void train(params *p, const uint8_t *pix, const uint8_t *label)
{
    params g, m, v;
    alloc_params(&g), alloc_params(&m), alloc_params(&v);
    rng r = { SEED_INIT };
    for (int l = 0; l < NL; l++) {
        float sd = sqrtf(2.0f / DIMS[l]);
        for (int i = 0; i < DIMS[l + 1] * DIMS[l]; i++) p->W[l][i] = sd * gauss(&r);
    }
    int *order = malloc(N_TRAIN * sizeof(int));
    for (int i = 0; i < N_TRAIN; i++) order[i] = i;
    float a0[NPIX], a1[128], a2[64], a3[CLASSES], d1[128], d2[64], d3[CLASSES];
    float *act[NL + 1] = { a0, a1, a2, a3 }, *delta[NL + 1] = { NULL, d1, d2, d3 };
    const float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
    float lr = 2e-3f;
    long step = 0;
    for (int ep = 0; ep < EPOCHS; ep++, lr *= 0.7f) {
        for (int i = N_TRAIN - 1; i > 0; i--) { /* shuffle */
            int j = (int)(next_u64(&r) % (uint64_t)(i + 1)), t = order[i];
            order[i] = order[j], order[j] = t;
        }
        double loss = 0;
        for (int s0 = 0; s0 + MB <= N_TRAIN; s0 += MB) {
            for (int l = 0; l < NL; l++) {
                memset(g.W[l], 0, sizeof(float) * DIMS[l + 1] * DIMS[l]);
                memset(g.b[l], 0, sizeof(float) * DIMS[l + 1]);
            }
            for (int s = s0; s < s0 + MB; s++) {
                int i = order[s];
                for (int k = 0; k < NPIX; k++) a0[k] = pix[(size_t)i * NPIX + k] / 255.0f;
                forward(p, act);
                float mx = a3[argmax10(a3)], z = 0;
                for (int c = 0; c < CLASSES; c++) z += expf(a3[c] - mx);
                for (int c = 0; c < CLASSES; c++) d3[c] = expf(a3[c] - mx) / z - (c == label[i]);
                loss += -(a3[label[i]] - mx - logf(z));
                for (int l = NL - 1; l >= 0; l--) {
                    int in = DIMS[l], out = DIMS[l + 1];
                    for (int o = 0; o < out; o++) {
                        float dv = delta[l + 1][o];
                        g.b[l][o] += dv;
                        float *gw = g.W[l] + (size_t)o * in;
                        for (int k = 0; k < in; k++) gw[k] += dv * act[l][k];
                    }
                    if (l == 0) break;
                    for (int k = 0; k < in; k++) {
                        float sum = 0;
                        for (int o = 0; o < out; o++) sum += p->W[l][(size_t)o * in + k] * delta[l + 1][o];
                        delta[l][k] = act[l][k] > 0 ? sum : 0; /* ReLU' */
                    }
                }
            }
            step++;
            float c1 = 1 - powf(b1, (float)step), c2 = 1 - powf(b2, (float)step);
            for (int l = 0; l < NL; l++)
                for (int part = 0; part < 2; part++) {
                    int n = part ? DIMS[l + 1] : DIMS[l + 1] * DIMS[l];
                    float *w = part ? p->b[l] : p->W[l], *gg = part ? g.b[l] : g.W[l];
                    float *mm = part ? m.b[l] : m.W[l], *vv = part ? v.b[l] : v.W[l];
                    for (int q = 0; q < n; q++) {
                        float gq = gg[q] / MB;
                        mm[q] = b1 * mm[q] + (1 - b1) * gq;
                        vv[q] = b2 * vv[q] + (1 - b2) * gq * gq;
                        w[q] -= lr * (mm[q] / c1) / (sqrtf(vv[q] / c2) + eps);
                    }
                }
        }
        printf("epoch %d: loss %.4f, training accuracy %.4f\n", ep + 1, loss / N_TRAIN,
               accuracy(p, pix, label, N_TRAIN, NULL));
    }
    free(order);
}

/* ---------------------------------------------------------------- the files */
static void put_u32(FILE *f, uint32_t v)
{
    unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24) };
    fwrite(b, 1, 4, f);
}
static void put_f32s(FILE *f, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        put_u32(f, u);
    }
}
static FILE *open_out(const char *dir, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "phase4/week18/data";
    uint8_t *tp = malloc((size_t)N_TRAIN * NPIX), *tl = malloc(N_TRAIN);
    uint8_t *hp = malloc((size_t)N_TEST * NPIX), *hl = malloc(N_TEST);
    make_set(SEED_TRAIN, N_TRAIN, tp, tl);
    make_set(SEED_TEST, N_TEST, hp, hl);
    params p;
    alloc_params(&p);
    train(&p, tp, tl);
    float margin;
    double acc = accuracy(&p, hp, hl, N_TEST, &margin);
    printf("held-out accuracy %.4f (%d of %d), smallest top-2 logit margin %.5f\n", acc,
           (int)lrint(acc * N_TEST), N_TEST, margin);

    char path[512];
    FILE *f = open_out(dir, "mlp_digits.bin", path, sizeof path);
    fwrite("WB18MLP", 1, 8, f); /* 7 characters and the NUL */
    put_u32(f, 1), put_u32(f, NL);
    for (int l = 0; l <= NL; l++) put_u32(f, (uint32_t)DIMS[l]);
    for (int l = 0; l < NL; l++) {
        put_f32s(f, p.W[l], (size_t)DIMS[l + 1] * DIMS[l]);
        put_f32s(f, p.b[l], (size_t)DIMS[l + 1]);
    }
    if (fclose(f) != 0) return perror(path), 1;
    printf("wrote %s\n", path);

    f = open_out(dir, "digits_test.bin", path, sizeof path);
    fwrite("WB18DIG", 1, 8, f);
    put_u32(f, 1), put_u32(f, N_TEST), put_u32(f, SIDE), put_u32(f, SIDE);
    fwrite(hp, 1, (size_t)N_TEST * NPIX, f);
    fwrite(hl, 1, N_TEST, f);
    if (fclose(f) != 0) return perror(path), 1;
    printf("wrote %s\n", path);
    return 0;
}
