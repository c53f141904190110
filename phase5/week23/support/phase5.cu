/* phase5.cu — what week 23 reuses from weeks 21-22: the yardsticks (cuBLAS
 * FP32 pedantic, the reference naive kernel) and the reference naive,
 * coalesced and tiled SGEMMs, so the benchmark can print the whole ladder. */
#include "../../week21/support/yard.cu"
#include "../../week21/solution/naive.cu"
#include "../../week21/solution/coalesced.cu"
#include "../../week22/solution/tiled.cu"
