/* w25_wmma.cu — given: week 25's WMMA HGEMM for this week's ladder
 * (`make ... bench NAME=ladder`). Here it is week 25's reference solution; in
 * a student copy (make release) the include names the learner's own file. */
#include "../../week25/solution/hgemm_wmma.cu"
