/* yard_naive.cu — week 21's NAIVE yardstick for w21.coalesced-speed: the
 * naive kernel built a second time under another name, so the coalesced
 * kernel is always timed against the same reference whatever state your own
 * naive_sgemm is in.
 *
 * make builds support files with this week's reference folder on the
 * include path: "naive.cu" is the reference naive kernel here, and in a student copy
 * (no reference solutions) your own naive.cu — there the yardstick is your own
 * naive kernel. */
#define naive_sgemm yard_naive_sgemm
#define naive_gemm_tflops yard_naive_gemm_tflops
#include "naive.cu"
