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


int pgm_decode(const unsigned char *buf, size_t len, pgm_image *img, char *err, size_t errsz)
{
    memset(img, 0, sizeof *img);
    /* TODO: parse the magic ("P5": grey, "P6": colour), then width, height and
     * maxval, each after whitespace that may hold '#' comments (to the end of
     * the line); exactly one whitespace byte after maxval; then the raster,
     * 1 byte a sample (maxval < 256) or 2 bytes, most significant first.
     * Refuse, with a message in err, everything pgm.h says is not allowed. */
    (void)buf, (void)len;
    snprintf(err, errsz, "pgm_decode is not written yet");
    return -1;
}

size_t pgm_encode(const pgm_image *img, const char *comment, unsigned char *buf, size_t cap)
{
    /* TODO: "P5" or "P6", the comment line "# ..." if any, "width height",
     * "maxval", one newline, then the samples (1 or 2 bytes each, most
     * significant first). Return the size; write only when it fits. */
    (void)img, (void)comment, (void)buf, (void)cap;
    return 0;
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
