/* phase5.cu — what week 24 reuses from weeks 21-23: the yardsticks (cuBLAS
 * FP32 pedantic, the reference naive kernel) and the reference naive,
 * coalesced, tiled, 1D- and 2D-register-tiled SGEMMs, so the benchmark can
 * print the whole ladder. */
#include "../../week21/support/yard.cu"
#include "../../week21/solution/naive.cu"
#include "../../week21/solution/coalesced.cu"
#include "../../week22/solution/tiled.cu"
#include "../../week23/solution/tile1d.cu"
#include "../../week23/solution/tile2d.cu"
