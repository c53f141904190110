/* yard_realloc.h — week 16, given: the yardstick REALLOC, a device buffer
 * grown the only way cudaMalloc allows: a new, larger allocation, a copy of
 * what the old one held, and a free of the old one. */
#ifndef YARD_REALLOC_H
#define YARD_REALLOC_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    void  *p;     /* the buffer now (NULL: empty) */
    size_t bytes; /* its size */
} yard_realloc;

/* Make the buffer `bytes` long (larger than now): cudaMalloc, a
 * device-to-device copy of the old contents ordered on the default stream,
 * cudaFree of the old buffer (which waits for the device). The address
 * changes at every growth. On an error the buffer is as it was. */
cudaError_t yard_realloc_grow(yard_realloc *y, size_t bytes);

/* Free the buffer and make it empty. */
cudaError_t yard_realloc_free(yard_realloc *y);

#ifdef __cplusplus
}
#endif
#endif
