/* roofline_csv.c — turn the workbook's benchmark CSVs into roofline data.
 *
 *   roofline_csv [-b GBPS] [-p GFLOPS] [-t GFLOPS] POINTS.dat ROOF.gp FILE.csv...
 *
 * Reads CSVs written by wb_bench_emit (columns named in its header: week,
 * exercise, variant, bytes, flops, median_ms, value, yardstick,
 * yardstick_value, device, ...). Writes POINTS.dat, one line per kernel that
 * counted both flops and bytes and has a valid figure (the last row of each
 * week / exercise / variant wins): intensity, GFLOP/s, "label", fixture (1
 * for the made-up rows of roofline-data/fixtures/, whose device starts with
 * FIXTURE), and where the label goes (x, y, ends there, leader line; see
 * place_labels). Writes ROOF.gp, loaded by roofline.gp: the numbers (bw, pk,
 * ridge, tc, the axis ranges), the roof lines as datablocks, and every text
 * the plot shows (title, key entries, ridge labels). The terminal gets the
 * same texts, so what it prints is what the plot says.
 *
 * The FP32 roof: bandwidth from week 09's "roof / copy" row or else the
 * largest COPY yardstick seen; peak from week 09's "roof / fma peak" row;
 * -b and -p override both. The FP16/BF16 tensor-core roof (dense, no
 * sparsity): -t, or else NVIDIA's published figure for the device named in
 * the CSVs (table below); none when neither. Exits 1 with a message when there
 * is no point or no FP32 roof. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXF 40
#define MAXP 512

typedef struct {
    char label[160];
    double ai, gflops, lx, ly; /* the point; where its label is anchored */
    int fixture, right, leader; /* a made-up row; label ends (1) or starts (0) at lx; a line to it */
} point;
static point pts[MAXP];
static int npts;

/* Published dense FP16/BF16 tensor-core peaks (NVIDIA datasheets; the
 * "with sparsity" figures are twice these), GFLOP/s. Matched in order on the
 * CSV's device column, so the longer names come first. */
static const struct { const char *match, *name; double gflops; } TENSOR_PEAKS[] = {
    { "H100 NVL", "H100 NVL", 835000 },  { "H100 PCIe", "H100 PCIe", 756000 }, { "H200 NVL", "H200 NVL", 835000 },
    { "GH200", "GH200", 989000 },        { "H100", "H100 SXM", 989000 },       { "H200", "H200 SXM", 989000 },
    { "A100", "A100", 312000 },
};

/* The picture roofline.gp draws, in pixels: W x H, the plot between the
 * margins (fractions of the picture). Written to ROOF.gp, so that both sides
 * use these numbers. Point labels are placed here, where the texts are known
 * (gnuplot would let a label run off the right edge): each label, highest
 * point first, takes the nearest spot beside its point (right of it, then
 * left; just below, then above; then a line further away, with a thin line
 * leading to it) that stays inside the plot and clear of the key, the points
 * and the labels already placed, preferring not to cross a roof line. */
enum { W = 1200, H = 800 };
static const double ML = 0.07, MR = 0.97, MB = 0.08, MT = 0.90;
static const double EM_LABEL = 10.7, EM_KEY = 12, LABEL_H = 11, KEY_LINE_H = 17; /* px: ",8" and ",9" fonts */

/* Width of a text in ems, near enough for DejaVu Sans (cairo's "Sans"), a
 * little generous: a label that runs past the edge is cut off. */
static double text_em(const char *s)
{
    double em = 0;
    for (; *s; s++) {
        if (strchr("ijl'|!.,:;", *s)) em += 0.3;
        else if (strchr("frt ()[]/-", *s)) em += 0.4;
        else if (strchr("mwMW", *s)) em += 0.95;
        else if (strchr("=+<>~%@", *s)) em += 0.84;
        else if (*s >= 'A' && *s <= 'Z') em += 0.72;
        else em += 0.63;
    }
    return em;
}

typedef struct { double xlo, xhi, ylo, yhi; } plot_box;
typedef struct { double x0, x1, y0, y1; } rect; /* pixels, y upwards */

static double px(const plot_box *b, double x) { return W * (ML + (MR - ML) * log10(x / b->xlo) / log10(b->xhi / b->xlo)); }
static double py(const plot_box *b, double y) { return H * (MB + (MT - MB) * log10(y / b->ylo) / log10(b->yhi / b->ylo)); }
static double unpx(const plot_box *b, double p) { return b->xlo * pow(b->xhi / b->xlo, (p / W - ML) / (MR - ML)); }
static double unpy(const plot_box *b, double p) { return b->ylo * pow(b->yhi / b->ylo, (p / H - MB) / (MT - MB)); }
static int overlap(rect a, rect c) { return a.x0 < c.x1 && c.x0 < a.x1 && a.y0 < c.y1 && c.y0 < a.y1; }

/* Does the roof min(bw * x, peak) pass through r? It rises with x, so it
 * does when it is at or below r's top at r's left and at or above r's bottom
 * at r's right. */
static int crosses(const plot_box *b, rect r, double bw, double peak)
{
    double left = py(b, fmin(bw * unpx(b, r.x0), peak)), right = py(b, fmin(bw * unpx(b, r.x1), peak));
    return left <= r.y1 && right >= r.y0;
}

static void place_labels(const plot_box *b, double bw, double pk, double tc, double key_em, int key_lines)
{
    static rect placed[MAXP];
    static int order[MAXP], done[MAXP];
    rect plot = { W * ML, W * MR, H * MB, H * MT };
    rect key = { plot.x0, plot.x0 + key_em * EM_KEY + 60, plot.y1 - key_lines * KEY_LINE_H - 12, plot.y1 };
    for (int j = 0; j < npts; j++) order[j] = j;
    for (int j = 1; j < npts; j++) /* highest points first: a stack of points gets a stack of labels */
        for (int k = j; k > 0 && pts[order[k]].gflops > pts[order[k - 1]].gflops; k--) {
            int t = order[k];
            order[k] = order[k - 1], order[k - 1] = t;
        }
    for (int o = 0; o < npts; o++) {
        int j = order[o];
        double x = px(b, pts[j].ai), y = py(b, pts[j].gflops), w = text_em(pts[j].label) * EM_LABEL;
        double best = INFINITY;
        /* Spots, nearest first: right of the point just below it, then
         * just above, then the same left of it; then a line further away. */
        for (int s = 0; s < 20; s++) {
            int level = s / 4, right = s % 4 >= 2, below = s % 2 == 0;
            double ax = x + (right ? -8 : 8), ay = y + (below ? -7 - 12 * level : 8 + 12 * level);
            rect r = { right ? ax - w : ax, right ? ax : ax + w, ay - LABEL_H / 2, ay + LABEL_H / 2 };
            double cost = s;
            if (r.x0 < plot.x0 || r.x1 > plot.x1 || r.y0 < plot.y0 || r.y1 > plot.y1) cost += 10000;
            if (overlap(r, key)) cost += 1000;
            for (int k = 0; k < npts; k++) {
                double qx = px(b, pts[k].ai), qy = py(b, pts[k].gflops);
                cost += 100 * overlap(r, (rect){ qx - 6, qx + 6, qy - 6, qy + 6 });
                if (done[k]) cost += 100 * overlap(r, placed[k]);
                /* a label that starts nearer another point reads as that one's */
                if (k != j && hypot(ax - qx, ay - qy) < hypot(ax - x, ay - y)) cost += 50;
            }
            cost += 5 * crosses(b, r, bw, pk) + (tc > 0 ? 5 * crosses(b, r, bw, tc) : 0);
            if (cost < best) {
                best = cost, placed[j] = r;
                pts[j].lx = unpx(b, ax), pts[j].ly = unpy(b, ay), pts[j].right = right, pts[j].leader = level > 0;
            }
        }
        done[j] = 1;
    }
}

/* Split one CSV line in place (double quotes may hold commas). */
static int split(char *s, char **f)
{
    int n = 0;
    while (n < MAXF) {
        if (*s == '"') {
            f[n++] = ++s;
            while (*s && *s != '"') s++;
            if (*s) *s++ = 0;
            while (*s && *s != ',') s++;
        } else {
            f[n++] = s;
            while (*s && *s != ',' && *s != '\n' && *s != '\r') s++;
        }
        if (*s != ',') {
            *s = 0;
            break;
        }
        *s++ = 0;
    }
    return n;
}

static int col(char **h, int n, const char *name)
{
    for (int j = 0; j < n; j++)
        if (strcmp(h[j], name) == 0) return j;
    return -1;
}

/* A gnuplot string assignment: name = "text" (quotes and backslashes escaped). */
static void gp_str(FILE *o, const char *name, const char *text)
{
    fprintf(o, "%s = \"", name);
    for (const char *p = text; *p; p++) fprintf(o, "%s%c", *p == '"' || *p == '\\' ? "\\" : "", *p);
    fprintf(o, "\"\n");
}

static double decade_below(double x) { return pow(10, floor(log10(x))); }
static double decade_above(double x) { return pow(10, ceil(log10(x))); }

int main(int argc, char **argv)
{
    double bw = 0, pk = 0, tc = 0, bw_opt = 0, pk_opt = 0, tc_opt = 0, yard_copy = 0;
    int bw_fix = 0, pk_fix = 0, yard_fix = 0; /* the roof row came from a fixture */
    char device[128] = "", fix_device[128] = "";
    int a = 1;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (strcmp(argv[a], "-b") == 0) bw_opt = atof(argv[a + 1]);
        else if (strcmp(argv[a], "-p") == 0) pk_opt = atof(argv[a + 1]);
        else if (strcmp(argv[a], "-t") == 0) tc_opt = atof(argv[a + 1]);
        else break;
    }
    if (argc - a < 3) {
        fprintf(stderr, "usage: roofline_csv [-b GBPS] [-p GFLOPS] [-t GFLOPS] POINTS.dat ROOF.gp FILE.csv...\n");
        return 2;
    }
    const char *out_pts = argv[a], *out_roof = argv[a + 1];
    for (int fi = a + 2; fi < argc; fi++) {
        FILE *f = fopen(argv[fi], "r");
        if (!f) {
            fprintf(stderr, "roofline_csv: cannot read %s\n", argv[fi]);
            continue;
        }
        char hline[2048], line[2048], *h[MAXF], *v[MAXF];
        if (!fgets(hline, sizeof hline, f)) { fclose(f); continue; }
        int nh = split(hline, h);
        int cw = col(h, nh, "week"), ce = col(h, nh, "exercise"), cv = col(h, nh, "variant"),
            cb = col(h, nh, "bytes"), cf = col(h, nh, "flops"), cm = col(h, nh, "median_ms"),
            cval = col(h, nh, "value"), cy = col(h, nh, "yardstick"), cyv = col(h, nh, "yardstick_value"),
            cd = col(h, nh, "device");
        if (cw < 0 || ce < 0 || cv < 0 || cb < 0 || cf < 0 || cm < 0 || cval < 0) {
            fprintf(stderr, "roofline_csv: %s is not a benchmark CSV (columns missing)\n", argv[fi]);
            fclose(f);
            continue;
        }
        while (fgets(line, sizeof line, f)) {
            int n = split(line, v);
            if (n < nh) continue;
            double bytes = atof(v[cb]), flops = atof(v[cf]), ms = atof(v[cm]), value = atof(v[cval]);
            const char *dev = cd >= 0 ? v[cd] : "";
            int fixture = strncmp(dev, "FIXTURE", 7) == 0;
            char *keep = fixture ? fix_device : device;
            if (!keep[0] && dev[0]) snprintf(keep, sizeof device, "%s", dev);
            if (strcmp(v[ce], "roof") == 0) {
                if (strncmp(v[cv], "copy", 4) == 0 && value > bw) bw = value, bw_fix = fixture;
                if (strncmp(v[cv], "fma peak", 8) == 0 && value > pk) pk = value, pk_fix = fixture;
                continue;
            }
            if (cy >= 0 && cyv >= 0 && strcmp(v[cy], "COPY") == 0 && atof(v[cyv]) > yard_copy)
                yard_copy = atof(v[cyv]), yard_fix = fixture;
            if (!(bytes > 0 && flops > 0 && ms > 0) || isnan(value)) continue;
            char label[160];
            const char *w = strrchr(v[cw], '/');
            snprintf(label, sizeof label, "%s %s %s", w ? w + 1 : v[cw], v[ce], v[cv]);
            for (char *p = label; *p; p++)
                if (*p == '"') *p = '\'';
            int j = 0;
            while (j < npts && (strcmp(pts[j].label, label) != 0 || pts[j].fixture != fixture)) j++;
            if (j == npts) {
                if (npts == MAXP) continue;
                npts++;
            }
            snprintf(pts[j].label, sizeof pts[j].label, "%s", label);
            pts[j].ai = flops / bytes;
            pts[j].gflops = flops / (ms * 1e-3) / 1e9;
            pts[j].fixture = fixture;
        }
        fclose(f);
    }

    /* Where each roof comes from, said the same way in the terminal and on the plot. */
    char bw_src[80], pk_src[80], tc_src[120] = "";
    if (bw_opt > 0) bw = bw_opt, snprintf(bw_src, sizeof bw_src, "given with -b, make BW=");
    else if (bw > 0) snprintf(bw_src, sizeof bw_src, "%s: week 09 copy row", bw_fix ? "fixture" : "measured");
    else bw = yard_copy, snprintf(bw_src, sizeof bw_src, "%s: largest COPY yardstick", yard_fix ? "fixture" : "measured");
    if (pk_opt > 0) pk = pk_opt, snprintf(pk_src, sizeof pk_src, "given with -p, make PEAK=");
    else snprintf(pk_src, sizeof pk_src, "%s: week 09 FMA-peak row", pk_fix ? "fixture" : "measured");
    if (bw <= 0 || pk <= 0) {
        fprintf(stderr, "roofline_csv: no roof in the CSVs (bandwidth %g GB/s, peak %g GFLOP/s): run "
                        "`make phase2/week09 bench IMPL=solution`, or give -b and -p\n", bw, pk);
        return 1;
    }
    if (npts == 0) {
        fprintf(stderr, "roofline_csv: no kernel row counts both flops and bytes\n");
        return 1;
    }
    const char *dev = device[0] ? device : fix_device;
    if (tc_opt > 0) tc = tc_opt, snprintf(tc_src, sizeof tc_src, "given with -t, make TC=");
    else
        for (size_t k = 0; k < sizeof TENSOR_PEAKS / sizeof TENSOR_PEAKS[0] && dev[0]; k++)
            if (strstr(dev, TENSOR_PEAKS[k].match)) {
                tc = TENSOR_PEAKS[k].gflops;
                snprintf(tc_src, sizeof tc_src, "published figure for %s, from the device name", TENSOR_PEAKS[k].name);
                break;
            }
    if (tc > 0 && tc <= pk) {
        char was[sizeof tc_src];
        snprintf(was, sizeof was, "%s", tc_src);
        snprintf(tc_src, sizeof tc_src, "%.0f GFLOP/s (%s) is not above the FP32 roof", tc, was);
        tc = 0;
    } else if (tc <= 0)
        snprintf(tc_src, sizeof tc_src, "%s is not in roofline_csv's table; give -t GFLOP/s (make roofline TC=...)",
                 dev[0] ? dev : "the device");

    int nfix = 0, above = 0;
    double ai_lo = INFINITY, ai_hi = 0, g_lo = INFINITY, g_hi = 0;
    for (int j = 0; j < npts; j++) {
        nfix += pts[j].fixture;
        above += pts[j].gflops > pk * 1.05;
        ai_lo = fmin(ai_lo, pts[j].ai), ai_hi = fmax(ai_hi, pts[j].ai);
        g_lo = fmin(g_lo, pts[j].gflops), g_hi = fmax(g_hi, pts[j].gflops);
    }
    for (int j = 0; j < npts && nfix && nfix < npts; j++) /* mixed: say which points are made up */
        if (pts[j].fixture) {
            size_t len = strlen(pts[j].label);
            snprintf(pts[j].label + len, sizeof pts[j].label - len, " [fixture]");
        }
    double ridge = pk / bw, tc_ridge = tc > 0 ? tc / bw : 0;
    plot_box b = { decade_below(fmin(0.01, ai_lo / 3)), decade_above(fmax(fmax(1000, ai_hi * 3), tc_ridge * 3)),
                   decade_below(fmin(1, g_lo / 3)), 5 * fmax(fmax(pk, tc), g_hi) };

    char title[512], fp32_key[512], tc_key[512] = "", pts_key[160], ridge_txt[64], tc_ridge_txt[64] = "";
    if (nfix == npts)
        snprintf(title, sizeof title, "Roofline of FIXTURE data: made-up sample figures, not measurements");
    else if (nfix == 0)
        snprintf(title, sizeof title, "Roofline of %d kernels measured on %s", npts, device[0] ? device : "an unnamed GPU");
    else
        snprintf(title, sizeof title, "Roofline of %d kernels measured on %s and %d FIXTURE points (made-up, not measured)",
                 npts - nfix, device[0] ? device : "an unnamed GPU", nfix);
    snprintf(pts_key, sizeof pts_key, "%s",
             nfix == npts ? "fixture points (made-up sample data)"
                          : nfix ? "kernels (red: measured; grey: fixture, made-up)" : "kernels (measured)");
    snprintf(ridge_txt, sizeof ridge_txt, "ridge %.1f flop/byte", ridge);
    snprintf(fp32_key, sizeof fp32_key, "FP32 roof: %.0f GB/s (%s), %.0f GFLOP/s (%s); %s", bw, bw_src, pk, pk_src,
             ridge_txt);
    if (tc > 0) {
        snprintf(tc_ridge_txt, sizeof tc_ridge_txt, "ridge %.0f flop/byte", tc_ridge);
        snprintf(tc_key, sizeof tc_key, "FP16/BF16 tensor roof, dense: %.0f TFLOP/s (%s); %s", tc / 1000, tc_src,
                 tc_ridge_txt);
    }
    place_labels(&b, bw, pk, tc, fmax(fmax(text_em(fp32_key), text_em(tc_key)), text_em(pts_key)), tc > 0 ? 3 : 2);

    FILE *o = fopen(out_pts, "w"), *r = fopen(out_roof, "w");
    if (!o || !r) {
        fprintf(stderr, "roofline_csv: cannot write %s or %s\n", out_pts, out_roof);
        return 1;
    }
    fprintf(o, "# intensity_flop_per_byte gflops label fixture label_x label_y label_right leader\n");
    for (int j = 0; j < npts; j++)
        fprintf(o, "%.6g %.6g \"%s\" %d %.6g %.6g %d %d\n", pts[j].ai, pts[j].gflops, pts[j].label, pts[j].fixture,
                pts[j].lx, pts[j].ly, pts[j].right, pts[j].leader);
    fprintf(r, "# written by roofline_csv; loaded by roofline.gp\n");
    fprintf(r, "W = %d; H = %d; L = %.9g; R = %.9g; B = %.9g; T = %.9g\n", W, H, ML, MR, MB, MT);
    fprintf(r, "bw = %.9e\npk = %.9e\nridge = %.9e\ntc = %.9e\ntc_ridge = %.9e\n", bw, pk, ridge, tc, tc_ridge);
    fprintf(r, "xlo = %.9e\nxhi = %.9e\nylo = %.9e\nyhi = %.9e\n", b.xlo, b.xhi, b.ylo, b.yhi);
    gp_str(r, "title_txt", title);
    gp_str(r, "pts_key", pts_key);
    gp_str(r, "fp32_key", fp32_key);
    gp_str(r, "ridge_txt", ridge_txt);
    gp_str(r, "tc_key", tc_key);
    gp_str(r, "tc_ridge_txt", tc_ridge_txt);
    fprintf(r, "$fp32_roof << EOD\n%.9e %.9e\n%.9e %.9e\n%.9e %.9e\nEOD\n", b.xlo, bw * b.xlo, ridge, pk, b.xhi, pk);
    if (tc > 0)
        fprintf(r, "$tc_roof << EOD\n%.9e %.9e\n%.9e %.9e\n%.9e %.9e\nEOD\n", ridge, pk, tc_ridge, tc, b.xhi, tc);
    fclose(o), fclose(r);

    printf("%s\n  %d points: %s\n  %s\n", title, npts, pts_key, fp32_key);
    if (tc > 0) printf("  %s\n", tc_key);
    else printf("  no FP16/BF16 tensor roof: %s\n", tc_src);
    if (above && tc <= 0)
        printf("  %d point%s above the FP32 roof (tensor cores?): give the tensor roof with -t\n", above,
               above == 1 ? " is" : "s are");
    return 0;
}
