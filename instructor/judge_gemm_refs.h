/* judge_gemm_refs.h — what the tensor-core GEMM judges' speed checkpoints
 * share (judge_gemm_refs.c; used by judge_hgemm.c, weeks 25-28, and
 * judge_bf16gemm.c, weeks 54-55): the timed reps' references in double,
 * computed once a rep by the judge's own `make` and cached by the rep's
 * input seeds, the look's expected values and the full check read from
 * them; and the checkpoint's end, the student's function timed through the
 * protocol against a yardstick timed through its yard runner. */
#ifndef JUDGE_GEMM_REFS_H
#define JUDGE_GEMM_REFS_H

#include "judge_week.h"

/* ref (device, b->n doubles) = the output in double of a rep whose inputs
 * were filled from seed[0] and seed[1]: 0, or -1. Waited for. */
typedef int (*jd_ref_make)(const jd_bench *b, const unsigned long long *seed, double *ref);

/* Use `make` for the references from now on; `scratch_free` (or NULL)
 * frees what make keeps between calls, at jd_refs_release. */
void jd_refs_use(jd_ref_make make, void (*scratch_free)(void));
/* Every slot and make's scratch freed (between timed runs). */
void jd_refs_release(void);
/* jd_bench's expect and full_check over the cached references: element i
 * (NAN when the reference failed); every element of a timed output finite
 * and within b->atol + b->rtol |ref| (jd_prefix_check_f32). */
float jd_refs_expect(const jd_bench *b, const unsigned long long *seed, size_t i);
int   jd_refs_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                    unsigned long long h[2]);

/* A GEMM speed checkpoint's end: `mine` (set up, the references' make in
 * use) timed through the protocol, the references released, then `yard`
 * (set up the same way, its exercise the yard runner's) through
 * yard_runner again, the faster of before_ms and this run kept
 * (jd_yard_faster); flops a call, TFLOP/s of each and their ratio the
 * figure against yard_label, the shape (for the detail) and the record's
 * result (jd_speed_result). */
void jd_gemm_speed(jd_ck *k, jd_bench *mine, jd_bench *yard, const char *yard_runner, double before_ms,
                   const char *before_why, double flops, const char *shape, const char *yard_label);


/* Compute capability 9.0, where sm_90a code (wgmma, TMA) loads: 1, or 0
 * with t SKIP and the tests' reason: "WHAT is sm_90a code, which loads
 * only on a compute capability 9.0 GPU (H100, H200); this one is X.Y". */
int jd_on_sm90(jd_tally *t, const char *what);

#endif
