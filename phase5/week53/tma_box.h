/* tma_box.h — week 53: the numbers a TMA tensor map is made of.
 *
 * cuTensorMapEncodeTiled describes a global array to the Tensor Memory
 * Accelerator: its rank, the size of each dimension (innermost first), the
 * byte stride of every dimension but the innermost, the box (the tile one
 * copy moves), the element strides inside the box, and a shared-memory
 * swizzle. It refuses (CUDA_ERROR_INVALID_VALUE, with no word of why) any
 * map that breaks TMA's rules; tma_box_plan checks the rules itself, on the
 * CPU, and says which one a shape breaks. */
#ifndef TMA_BOX_H
#define TMA_BOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What tma_box_plan found. TMA_OK: *p is filled. Anything else: *p is left
 * exactly as it was. The rules are checked in this order; the first one
 * broken is the answer. */
typedef enum {
    TMA_OK = 0,
    TMA_ERR_ARG,       /* p is NULL, elem_bytes is not 1, 2, 4 or 8, or swizzle is not 0, 32, 64 or 128 */
    TMA_EMPTY,         /* rows or cols is 0: TMA cannot describe an empty dimension (nothing to copy) */
    TMA_ERR_LD,        /* ld < cols: rows would overlap */
    TMA_ERR_ALIGN,     /* base is not 16-byte aligned */
    TMA_ERR_DIM,       /* rows or cols above 2^32 (a dimension is at most 2^32 elements) */
    TMA_ERR_STRIDE,    /* the row stride ld * elem_bytes is not a multiple of 16 bytes, or not below 2^40 */
    TMA_ERR_BOX,       /* box_rows or box_cols is 0 or above 256 */
    TMA_ERR_BOX_INNER, /* box_cols * elem_bytes is not a multiple of 16 bytes */
    TMA_ERR_SWIZZLE,   /* swizzled: box_cols * elem_bytes is more than the swizzle span (32, 64 or 128 bytes) */
} tma_status;

/* The parameters of a 2-D tiled tensor map over a row-major matrix, in the
 * order and units cuTensorMapEncodeTiled takes them (innermost first). */
typedef struct {
    uint64_t global_dim[2];     /* { cols, rows } in elements */
    uint64_t global_stride[1];  /* { bytes from one row to the next }: the innermost stride is the element size */
    uint32_t box_dim[2];        /* { box_cols, box_rows } */
    uint32_t element_stride[2]; /* { 1, 1 }: every element of the box (no striding) */
    uint32_t box_bytes;         /* bytes one box fills in shared memory: the expect_tx count of one load */
    uint32_t smem_align;        /* the alignment a box's shared-memory buffer needs: 128 bytes unswizzled,
                                   8 x the swizzle span swizzled (256, 512, 1024): the swizzle pattern's repeat */
    uint64_t boxes[2];          /* { boxes across, boxes down } = { ceil(cols / box_cols), ceil(rows / box_rows) } */
} tma_plan;

/* Plan a 2-D tensor map over the rows x cols matrix of elem_bytes-byte
 * elements at `base` (host or device address: only its value is looked at),
 * row-major with ld elements from one row to the next, copied in boxes of
 * box_rows x box_cols elements, with shared-memory swizzle `swizzle` (0 for
 * none, else the span in bytes: 32, 64, 128). No CUDA call. */
tma_status tma_box_plan(const void *base, size_t rows, size_t cols, size_t ld, size_t elem_bytes, unsigned box_rows,
                        unsigned box_cols, int swizzle, tma_plan *p);

#ifdef __cplusplus
}
#endif
#endif
