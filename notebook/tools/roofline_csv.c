/* roofline_csv.c — turn the workbook's benchmark CSVs into roofline data.
 *
 *   roofline_csv [-b GBPS] [-p GFLOPS] POINTS.dat ROOF.gp FILE.csv...
 *
 * Reads CSVs written by wb_bench_emit (columns named in its header: week,
 * exercise, variant, bytes, flops, median_ms, value, yardstick,
 * yardstick_value, ...). Writes POINTS.dat, one line per kernel that counted
 * both flops and bytes and has a valid figure (the last row of each week /
 * exercise / variant wins): intensity, GFLOP/s, "label". Writes ROOF.gp with
 * `bw = ...; pk = ...; ridge = ...` for the roof: bandwidth from week 09's "roof / copy"
 * row or else the largest COPY yardstick seen; peak from week 09's
 * "roof / fma peak" row; -b and -p override both. Exits 1 with a message
 * when there is no point or no roof. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXF 40
#define MAXP 512

typedef struct { char label[160]; double ai, gflops; } point;
static point pts[MAXP];
static int npts;

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

int main(int argc, char **argv)
{
    double bw = 0, pk = 0, bw_opt = 0, pk_opt = 0, copy_yard = 0;
    int a = 1;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (strcmp(argv[a], "-b") == 0) bw_opt = atof(argv[a + 1]);
        else if (strcmp(argv[a], "-p") == 0) pk_opt = atof(argv[a + 1]);
        else break;
    }
    if (argc - a < 3) {
        fprintf(stderr, "usage: roofline_csv [-b GBPS] [-p GFLOPS] POINTS.dat ROOF.gp FILE.csv...\n");
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
            cval = col(h, nh, "value"), cy = col(h, nh, "yardstick"), cyv = col(h, nh, "yardstick_value");
        if (cw < 0 || ce < 0 || cv < 0 || cb < 0 || cf < 0 || cm < 0 || cval < 0) {
            fprintf(stderr, "roofline_csv: %s is not a benchmark CSV (columns missing)\n", argv[fi]);
            fclose(f);
            continue;
        }
        while (fgets(line, sizeof line, f)) {
            int n = split(line, v);
            if (n < nh) continue;
            double bytes = atof(v[cb]), flops = atof(v[cf]), ms = atof(v[cm]), value = atof(v[cval]);
            if (strcmp(v[ce], "roof") == 0) {
                if (strncmp(v[cv], "copy", 4) == 0 && value > bw) bw = value;
                if (strncmp(v[cv], "fma peak", 8) == 0 && value > pk) pk = value;
                continue;
            }
            if (cy >= 0 && cyv >= 0 && strcmp(v[cy], "COPY") == 0 && atof(v[cyv]) > copy_yard) copy_yard = atof(v[cyv]);
            if (!(bytes > 0 && flops > 0 && ms > 0) || isnan(value)) continue;
            char label[160];
            const char *w = strrchr(v[cw], '/');
            snprintf(label, sizeof label, "%s %s %s", w ? w + 1 : v[cw], v[ce], v[cv]);
            for (char *p = label; *p; p++)
                if (*p == '"') *p = '\'';
            int j = 0;
            while (j < npts && strcmp(pts[j].label, label) != 0) j++;
            if (j == npts) {
                if (npts == MAXP) continue;
                npts++;
            }
            snprintf(pts[j].label, sizeof pts[j].label, "%s", label);
            pts[j].ai = flops / bytes;
            pts[j].gflops = flops / (ms * 1e-3) / 1e9;
        }
        fclose(f);
    }
    if (bw <= 0) bw = copy_yard;
    if (bw_opt > 0) bw = bw_opt;
    if (pk_opt > 0) pk = pk_opt;
    if (bw <= 0 || pk <= 0) {
        fprintf(stderr, "roofline_csv: no roof in the CSVs (bandwidth %g GB/s, peak %g GFLOP/s): run "
                        "`make phase2/week09 bench IMPL=solution`, or give -b and -p\n", bw, pk);
        return 1;
    }
    if (npts == 0) {
        fprintf(stderr, "roofline_csv: no kernel row counts both flops and bytes\n");
        return 1;
    }
    FILE *o = fopen(out_pts, "w"), *r = fopen(out_roof, "w");
    if (!o || !r) {
        fprintf(stderr, "roofline_csv: cannot write %s or %s\n", out_pts, out_roof);
        return 1;
    }
    fprintf(o, "# intensity_flop_per_byte gflops label\n");
    for (int j = 0; j < npts; j++) fprintf(o, "%.6g %.6g \"%s\"\n", pts[j].ai, pts[j].gflops, pts[j].label);
    /* Floats with an exponent: gnuplot reads "3000" as an integer, and 55000 / 3000 became 18. The ridge is
     * computed here once, for the terminal and the plot. */
    fprintf(r, "bw = %.9e\npk = %.9e\nridge = %.9e\n", bw, pk, pk / bw);
    fclose(o), fclose(r);
    printf("roofline: %d kernels, roof %.0f GB/s and %.0f GFLOP/s (ridge %.1f flop/byte)\n", npts, bw, pk, pk / bw);
    return 0;
}
