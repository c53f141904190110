/* wb_compare.h — comparing a result with its reference.
 *
 * An element passes when |got - ref| <= atol + rtol * |ref|, with these
 * rules for non-finite values:
 *   - ref is NaN:  got must be NaN (the operation is defined to propagate it);
 *   - ref is ±Inf: got must be the same infinity;
 *   - ref finite:  got must be finite (a NaN or Inf result never passes).
 * Outputs are poisoned with NaN before a run (wb_cuda.h), so an element the
 * kernel never wrote fails here. */
#ifndef WB_COMPARE_H
#define WB_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t n;          /* elements compared */
    size_t bad;        /* elements out of tolerance */
    size_t first_bad;  /* index of the first bad element (n if none) */
    double max_err;    /* largest |got - ref| over finite pairs */
    char   msg[512];   /* "3 of 1000 wrong (atol 1e-6, rtol 1e-5); c[17] expected 1.5 got nan; ..." */
} wb_cmp;

/* True when one pair is within tolerance by the rules above. */
int wb_close(double got, double ref, double atol, double rtol);

/* Compare n elements; `name` labels the array in the message ("c").
 * Returns the number of bad elements (also in out->bad). */
size_t wb_compare_f32(const char *name, const float *got, const float *ref, size_t n,
                      double atol, double rtol, wb_cmp *out);
size_t wb_compare_f32_f64(const char *name, const float *got, const double *ref, size_t n,
                          double atol, double rtol, wb_cmp *out);
size_t wb_compare_f64(const char *name, const double *got, const double *ref, size_t n,
                      double atol, double rtol, wb_cmp *out);
/* Exact comparison of integers. */
size_t wb_compare_u32(const char *name, const uint32_t *got, const uint32_t *ref, size_t n,
                      wb_cmp *out);

/* Number of bytes in buf[0..n) that differ from `byte` (guard bands). */
size_t wb_count_not_byte(const void *buf, size_t n, unsigned char byte);

#ifdef __cplusplus
}
#endif
#endif
