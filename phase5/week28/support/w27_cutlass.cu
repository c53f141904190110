/* w27_cutlass.cu — given: week 27's CUTLASS GEMM for this week's ladder
 * (`make ... bench NAME=ladder`). Here it is week 27's reference solution; in
 * a student copy (make release) the learner's own file. */
#include "../../week27/solution/cutlass_gemm.cu"
