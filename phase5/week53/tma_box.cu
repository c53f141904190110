// tma_box.cu — week 53: the parameters of a 2-D TMA tensor map, and TMA's
// rules checked on the CPU (tma_box.h says what each field means).
#include "tma_box.h"

extern "C" tma_status tma_box_plan(const void *base, size_t rows, size_t cols, size_t ld, size_t elem_bytes,
                                   unsigned box_rows, unsigned box_cols, int swizzle, tma_plan *p)
{
    /* TODO: check TMA's rules in tma_box.h's order (the first broken one is the
     * answer, *p untouched), then fill *p: dimensions and boxes innermost first
     * (cols before rows), the row stride in bytes, box_bytes, smem_align, boxes. */
    (void)base, (void)rows, (void)cols, (void)ld, (void)elem_bytes, (void)box_rows, (void)box_cols, (void)swizzle;
    (void)p;
    return TMA_ERR_ARG;
}
