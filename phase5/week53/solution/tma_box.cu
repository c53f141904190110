// tma_box.cu — week 53: the parameters of a 2-D TMA tensor map, and TMA's
// rules checked on the CPU (tma_box.h says what each field means).
#include "tma_box.h"

extern "C" tma_status tma_box_plan(const void *base, size_t rows, size_t cols, size_t ld, size_t elem_bytes,
                                   unsigned box_rows, unsigned box_cols, int swizzle, tma_plan *p)
{
    //@solution
    if (!p || (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8) ||
        (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128))
        return TMA_ERR_ARG;
    if (rows == 0 || cols == 0) return TMA_EMPTY;
    if (ld < cols) return TMA_ERR_LD;
    if ((uintptr_t)base % 16 != 0) return TMA_ERR_ALIGN;
    const uint64_t max_dim = (uint64_t)1 << 32, max_stride = (uint64_t)1 << 40;
    if ((uint64_t)rows > max_dim || (uint64_t)cols > max_dim) return TMA_ERR_DIM;
    // ld * elem_bytes below 2^40, asked without overflowing size_t
    if ((uint64_t)ld >= max_stride / elem_bytes || (ld * elem_bytes) % 16 != 0) return TMA_ERR_STRIDE;
    if (box_rows == 0 || box_cols == 0 || box_rows > 256 || box_cols > 256) return TMA_ERR_BOX;
    const uint64_t inner = (uint64_t)box_cols * elem_bytes;
    if (inner % 16 != 0) return TMA_ERR_BOX_INNER;
    if (swizzle != 0 && inner > (uint64_t)swizzle) return TMA_ERR_SWIZZLE;
    tma_plan q;
    q.global_dim[0] = cols;
    q.global_dim[1] = rows;
    q.global_stride[0] = (uint64_t)ld * elem_bytes;
    q.box_dim[0] = box_cols;
    q.box_dim[1] = box_rows;
    q.element_stride[0] = q.element_stride[1] = 1;
    q.box_bytes = (uint32_t)(inner * box_rows);
    q.smem_align = swizzle ? 8u * (uint32_t)swizzle : 128u;
    q.boxes[0] = ((uint64_t)cols + box_cols - 1) / box_cols;
    q.boxes[1] = ((uint64_t)rows + box_rows - 1) / box_rows;
    *p = q;
    return TMA_OK;
    //@starter
    //| /* TODO: check TMA's rules in tma_box.h's order (the first broken one is the
    //|  * answer, *p untouched), then fill *p: dimensions and boxes innermost first
    //|  * (cols before rows), the row stride in bytes, box_bytes, smem_align, boxes. */
    //| (void)base, (void)rows, (void)cols, (void)ld, (void)elem_bytes, (void)box_rows, (void)box_cols, (void)swizzle;
    //| (void)p;
    //| return TMA_ERR_ARG;
    //@end
}
