/* phase5.cu — what week 22 reuses from week 21: the yardsticks (cuBLAS FP32
 * pedantic, the reference naive kernel) and the reference naive and
 * coalesced SGEMMs, so the benchmark can print the whole ladder. */
#include "../../week21/support/yard.cu"
#include "../../week21/solution/naive.cu"
#include "../../week21/solution/coalesced.cu"
