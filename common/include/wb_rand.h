/* wb_rand.h — seeded random inputs.
 *
 * Every test draws its inputs from a generator seeded by the base seed, the
 * test's own name and its loop index, so two tests never see the same data
 * and a failure can be replayed. The base seed is fixed (WB_DEFAULT_SEED)
 * unless the environment sets WB_SEED: a number, or "random" for a fresh one
 * drawn from the operating system (graders use this). */
#ifndef WB_RAND_H
#define WB_RAND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WB_DEFAULT_SEED 20261122u

typedef struct { uint64_t s[4]; } wb_rng;

/* The base seed: WB_SEED if set ("random" draws one and remembers it for the
 * life of the process), else WB_DEFAULT_SEED. */
uint64_t wb_base_seed(void);
/* Parse a seed as WB_SEED gives it: decimal digits (no sign, no octal, no
 * trailing text) or "random" (a fresh one from the operating system).
 * Returns 0, or -1 with the reason in err. An invalid WB_SEED makes
 * wb_base_seed print that reason and exit with status 2. */
int      wb_seed_parse(const char *s, uint64_t *out, char *err, size_t errsz);

void     wb_rng_seed(wb_rng *r, uint64_t seed);
/* A generator for one test: base seed mixed with `tag` and `index`;
 * wb_rng_for(tag, i) is wb_rng_for_seed(wb_base_seed(), tag, i). A program
 * that must draw what a test draws for a seed it was given (the grader's
 * judge, which runs the test's cases on a seed of its own) calls
 * wb_rng_for_seed with that seed and the test's tag: a Check test's __func__,
 * the name given to START_TEST with "_fn" after it. */
wb_rng   wb_rng_for(const char *tag, int index);
wb_rng   wb_rng_for_seed(uint64_t base, const char *tag, int index);
uint64_t wb_rng_u64(wb_rng *r);
/* Uniform in [0, 1). */
double   wb_rng_unit(wb_rng *r);
/* Uniform integer in [lo, hi]. */
int64_t  wb_rng_int(wb_rng *r, int64_t lo, int64_t hi);

void wb_fill_uniform_f32(wb_rng *r, float *v, size_t n, float lo, float hi);

/* Plants non-finite values in v[0..n) (n >= 2) for a sum's NaN/Inf test,
 * case k: 0 a NaN at a random place, 1 a +Inf at a random place, 2 +Inf first
 * and -Inf last. Returns the sum it must give (NaN, +Inf, NaN); *what names
 * the case. */
float wb_plant_nonfinite(wb_rng *r, float *v, size_t n, int k, const char **what);
void wb_fill_uniform_f64(wb_rng *r, double *v, size_t n, double lo, double hi);
void wb_fill_u32(wb_rng *r, uint32_t *v, size_t n, uint32_t mod);

#ifdef __cplusplus
}
#endif
#endif
