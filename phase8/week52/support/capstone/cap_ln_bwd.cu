/* cap_ln_bwd.cu — week 52's capstone: week 42's ln_bwd.cu, compiled alone into the
 * extension of support/capstone/capstone_ext.cu (capstone_ranks.py puts the folder of
 * your file, or of the reference with IMPL=solution, on the include path).
 * Its own torch binding, if it has one, stays out: the capstone binds once. */
#undef WB_TORCH_EXT
#include "ln_bwd.cu"
