/* pgm.cu — week 17, exercise 1: Netpbm images in and out (host code only).
 *
 * A file format is a contract with strangers: read it strictly (refuse what
 * the format does not allow, with a message that says what was wrong) and
 * write it plainly. Compiled by nvcc like every exercise, but nothing here
 * runs on the GPU. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgm.h"

void pgm_free(pgm_image *img)
{
    free(img->data);
    memset(img, 0, sizeof *img);
}

//@solution
static int fail(char *err, size_t errsz, const char *fmt, ...)
{
    if (err && errsz) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errsz, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

/* Skip whitespace and comments from *pos; return 1 if at least one byte of
 * either was skipped. */
static int skip_blank(const unsigned char *buf, size_t len, size_t *pos)
{
    size_t p = *pos;
    while (p < len) {
        if (is_space(buf[p])) p++;
        else if (buf[p] == '#') {
            while (p < len && buf[p] != '\n' && buf[p] != '\r') p++;
        } else break;
    }
    int moved = p != *pos;
    *pos = p;
    return moved;
}

/* A decimal number at *pos (no sign), at most `max`. */
static int read_number(const unsigned char *buf, size_t len, size_t *pos, long max, long *out)
{
    size_t p = *pos;
    long v = 0;
    if (p >= len || buf[p] < '0' || buf[p] > '9') return -1;
    while (p < len && buf[p] >= '0' && buf[p] <= '9') {
        v = v * 10 + (buf[p] - '0');
        if (v > max) return -2;
        p++;
    }
    *pos = p;
    *out = v;
    return 0;
}
//@end

int pgm_decode(const unsigned char *buf, size_t len, pgm_image *img, char *err, size_t errsz)
{
    memset(img, 0, sizeof *img);
    //@solution
    if (len < 2 || buf[0] != 'P' || (buf[1] != '5' && buf[1] != '6'))
        return fail(err, errsz, "bad magic: not a binary PGM (P5) or PPM (P6) file");
    int channels = buf[1] == '5' ? 1 : 3;
    size_t pos = 2;
    static const char *const FIELD[3] = { "width", "height", "maxval" };
    static const long MAX[3] = { PGM_MAX_SIDE, PGM_MAX_SIDE, 65535 };
    long v[3];
    for (int f = 0; f < 3; f++) {
        if (!skip_blank(buf, len, &pos)) return fail(err, errsz, "no whitespace before %s", FIELD[f]);
        int r = read_number(buf, len, &pos, MAX[f], &v[f]);
        if (r == -1) return fail(err, errsz, "%s missing or not a number", FIELD[f]);
        if (r == -2) return fail(err, errsz, "%s out of range (at most %ld)", FIELD[f], MAX[f]);
    }
    if (v[0] < 1 || v[1] < 1) return fail(err, errsz, "width %ld x height %ld: both must be at least 1", v[0], v[1]);
    if (v[2] < 1) return fail(err, errsz, "maxval 0 out of range (1..65535)");
    if (pos >= len || !is_space(buf[pos])) return fail(err, errsz, "no single whitespace after maxval");
    pos++;
    size_t bps = v[2] < 256 ? 1 : 2;
    size_t samples = (size_t)v[0] * (size_t)v[1] * (size_t)channels, need = samples * bps;
    if (len - pos < need) return fail(err, errsz, "raster truncated: %zu of %zu bytes", len - pos, need);
    uint16_t *data = (uint16_t *)malloc(samples * sizeof(uint16_t));
    if (!data) return fail(err, errsz, "out of memory for %zu samples", samples);
    const unsigned char *r = buf + pos;
    for (size_t i = 0; i < samples; i++) {
        unsigned s = bps == 1 ? r[i] : (unsigned)r[2 * i] << 8 | r[2 * i + 1];
        if (s > (unsigned)v[2]) {
            free(data);
            return fail(err, errsz, "sample %zu is %u, above maxval %ld", i, s, v[2]);
        }
        data[i] = (uint16_t)s;
    }
    img->width = (int)v[0], img->height = (int)v[1], img->channels = channels, img->maxval = (int)v[2];
    img->data = data;
    return 0;
    //@starter
    //| /* TODO: parse the magic ("P5": grey, "P6": colour), then width, height and
    //|  * maxval, each after whitespace that may hold '#' comments (to the end of
    //|  * the line); exactly one whitespace byte after maxval; then the raster,
    //|  * 1 byte a sample (maxval < 256) or 2 bytes, most significant first.
    //|  * Refuse, with a message in err, everything pgm.h says is not allowed. */
    //| (void)buf, (void)len;
    //| snprintf(err, errsz, "pgm_decode is not written yet");
    //| return -1;
    //@end
}

size_t pgm_encode(const pgm_image *img, const char *comment, unsigned char *buf, size_t cap)
{
    //@solution
    if ((img->channels != 1 && img->channels != 3) || img->maxval < 1 || img->maxval > 65535 || img->width < 1 ||
        img->height < 1 || img->width > PGM_MAX_SIDE || img->height > PGM_MAX_SIDE)
        return 0;
    if (comment && strpbrk(comment, "\r\n")) return 0;
    size_t samples = (size_t)img->width * img->height * img->channels, bps = img->maxval < 256 ? 1 : 2;
    for (size_t i = 0; i < samples; i++)
        if (img->data[i] > img->maxval) return 0;
    char head[600];
    int hn = snprintf(head, sizeof head, "P%c\n%s%.500s%s%d %d\n%d\n", img->channels == 1 ? '5' : '6',
                      comment ? "# " : "", comment ? comment : "", comment ? "\n" : "", img->width, img->height,
                      img->maxval);
    size_t total = (size_t)hn + samples * bps;
    if (!buf || cap < total) return total;
    memcpy(buf, head, (size_t)hn);
    unsigned char *o = buf + hn;
    for (size_t i = 0; i < samples; i++) {
        if (bps == 1) o[i] = (unsigned char)img->data[i];
        else o[2 * i] = (unsigned char)(img->data[i] >> 8), o[2 * i + 1] = (unsigned char)(img->data[i] & 255);
    }
    return total;
    //@starter
    //| /* TODO: "P5" or "P6", the comment line "# ..." if any, "width height",
    //|  * "maxval", one newline, then the samples (1 or 2 bytes each, most
    //|  * significant first). Return the size; write only when it fits. */
    //| (void)img, (void)comment, (void)buf, (void)cap;
    //| return 0;
    //@end
}

int pgm_read(const char *path, pgm_image *img, char *err, size_t errsz)
{
    memset(img, 0, sizeof *img);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = (unsigned char *)malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *nb = (unsigned char *)realloc(buf, cap * 2);
            if (!nb) free(buf);
            buf = nb, cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        snprintf(err, errsz, "%s: out of memory", path);
        return -1;
    }
    int r = pgm_decode(buf, len, img, err, errsz);
    free(buf);
    return r;
}

int pgm_write(const char *path, const pgm_image *img, const char *comment, char *err, size_t errsz)
{
    size_t n = pgm_encode(img, comment, NULL, 0);
    if (n == 0) {
        snprintf(err, errsz, "%s: this image cannot be encoded (channels, maxval, size or a sample)", path);
        return -1;
    }
    unsigned char *buf = (unsigned char *)malloc(n);
    if (!buf || pgm_encode(img, comment, buf, n) != n) {
        free(buf);
        snprintf(err, errsz, "%s: encoding failed", path);
        return -1;
    }
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(buf, 1, n, f) == n;
    if (f && fclose(f) != 0) ok = 0;
    free(buf);
    if (!ok) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
