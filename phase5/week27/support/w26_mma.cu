/* w26_mma.cu — given: the week-26 kernel at its first setting (BK = 32,
 * 4 stages, no fragment double-buffering), renamed hgemm_w26, so week 27 can
 * time the restructured kernel against it in the same run.
 *
 * Here it is week 26's reference solution. In a student copy (make release)
 * the include below names the learner's own phase5/week26/hgemm_mma.cu: the
 * yardstick is then the kernel the learner wrote last week. */
#define HG_BK 32
#define HG_STAGES 4
#define HG_FRAG_DB 0
#define hgemm_mma hgemm_w26
#include "../../week26/solution/hgemm_mma.cu"
