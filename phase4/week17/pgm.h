/* pgm.h — week 17: reading and writing Netpbm images (PGM grey, PPM colour).
 *
 * Binary formats only: "P5" (grey, 1 channel) and "P6" (colour, 3 channels,
 * R G B interleaved). The header is the magic, then width, height and maxval
 * as decimal numbers separated by whitespace (space, tab, CR, LF, VT, FF);
 * a '#' anywhere a whitespace may stand starts a comment that runs to the end
 * of its line. Exactly one whitespace character follows maxval, then the
 * raster: rows top to bottom, samples left to right, one byte per sample
 * when maxval < 256, two bytes (most significant first) when maxval >= 256.
 * maxval is 1..65535; no sample may exceed it. Bytes after the raster are
 * ignored (Netpbm allows several images in one file; this reads the first).
 *
 * Everything here runs on the CPU; the kernels of the week take the pixels
 * from pgm_image.data. */
#ifndef PGM_H
#define PGM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Width and height are each at most PGM_MAX_SIDE; larger headers are refused. */
#define PGM_MAX_SIDE 65536

typedef struct {
    int       width, height;
    int       channels;  /* 1: PGM (P5), 3: PPM (P6) */
    int       maxval;    /* 1..65535 */
    uint16_t *data;      /* width * height * channels samples, malloc'd (NULL when empty) */
} pgm_image;

/* Parse an image held in memory. Returns 0 and fills *img (the caller
 * pgm_free()s it), or -1 with a message in err ("bad magic", "maxval 70000
 * out of range", "raster truncated: 12 of 300 bytes", ...) and *img zeroed. */
int  pgm_decode(const unsigned char *buf, size_t len, pgm_image *img, char *err, size_t errsz);
/* Encode *img as P5 or P6 (by channels), with `comment` (NULL for none; no
 * newline in it) as a '#' line after the magic. Returns the number of bytes
 * the file needs; writes them into buf only when they fit in cap (buf may
 * be NULL with cap 0 to ask the size). Returns 0 for an image it cannot
 * encode (channels not 1 or 3, maxval out of range, a sample > maxval,
 * width or height < 1 or past PGM_MAX_SIDE). */
size_t pgm_encode(const pgm_image *img, const char *comment, unsigned char *buf, size_t cap);
/* The same through a file. Return 0, or -1 with a message in err. */
int  pgm_read(const char *path, pgm_image *img, char *err, size_t errsz);
int  pgm_write(const char *path, const pgm_image *img, const char *comment, char *err, size_t errsz);
/* Free img->data and zero *img. */
void pgm_free(pgm_image *img);

#ifdef __cplusplus
}
#endif
#endif
