/* w26_mma.cu — given: the week-26 kernel at its first setting (BK = 32,
 * 4 stages, no fragment double-buffering), renamed hgemm_w26, so week 27 can
 * time the restructured kernel against it in the same run.
 *
 * "hgemm_mma.cu" is found through week.txt's `uses: phase5/week26`: here it
 * is week 26's reference solution; in a student copy (make release) it is the
 * learner's own phase5/week26/hgemm_mma.cu, so the yardstick is the kernel
 * the learner wrote last week. Everything in it but hgemm_mma is static, so
 * this copy and week 26's own hgemm_mma.o (the ladder's) link side by side. */
#define HG_BK 32
#define HG_STAGES 4
#define HG_FRAG_DB 0
#define hgemm_mma hgemm_w26
#include "hgemm_mma.cu"
