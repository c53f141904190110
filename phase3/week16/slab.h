/* slab.h — week 16: a fixed-size-block (slab) allocator over one device
 * allocation, with all its bookkeeping on the host. */
#ifndef SLAB_H
#define SLAB_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The allocator's state, as the reference keeps it; slab_destroy (given)
 * frees free_list, used and owned, so keep your host arrays there. The
 * blocks are device memory: the host never reads or writes them, so the
 * free list lives in host arrays, never inside the blocks. */
typedef struct {
    unsigned char *first;       /* address of block 0 */
    void          *owned;       /* the cudaMalloc that slab_create made (NULL after slab_init) */
    size_t         block_bytes; /* the size asked for */
    size_t         stride;      /* block_bytes rounded up to the alignment */
    size_t         nblocks;     /* capacity */
    size_t         nfree;       /* blocks not handed out */
    size_t        *free_list;   /* nfree indices of free blocks, a stack */
    unsigned char *used;        /* used[i] != 0 while block i is handed out */
} slab;

/* Carve the range [base, base + bytes) into blocks of block_bytes. Block 0
 * starts at base rounded up to a multiple of `align` (a power of two); block
 * i starts stride = block_bytes rounded up to a multiple of align bytes
 * later; there are as many blocks as fit entirely inside the range with
 * their padding, whole strides: (bytes - (first - base)) / stride, 0 when
 * not even one stride fits (a last block whose bytes fit but whose padding
 * does not is not counted). Every block starts free. The range is never
 * dereferenced. Returns cudaErrorInvalidValue for base NULL, block_bytes 0,
 * or align 0 or not a power of two; cudaErrorMemoryAllocation when the host
 * bookkeeping cannot be allocated. On an error *s is left empty (all zero:
 * slab_destroy on it is safe). */
cudaError_t slab_init(slab *s, void *base, size_t bytes, size_t block_bytes, size_t align);

/* One cudaMalloc with room for exactly nblocks blocks carved as slab_init
 * does (allocate align - 1 bytes more, then no base address can lose a
 * block), owned by the slab. cudaErrorInvalidValue as slab_init, and for
 * nblocks 0 or a size that overflows. */
cudaError_t slab_create(slab *s, size_t block_bytes, size_t nblocks, size_t align);

/* The address of a free block, now handed out; NULL when every block is. */
void *slab_alloc(slab *s);

/* Give block p back: 0. -1, changing nothing, when p is not the start of a
 * block of this slab that is handed out (NULL, outside the slab, inside a
 * block or in its padding, or already free). */
int slab_free(slab *s, void *p);

size_t slab_capacity(const slab *s); /* blocks in all */
size_t slab_in_use(const slab *s);   /* blocks handed out */

/* Free the bookkeeping and the device memory the slab owns; *s all zero. */
void slab_destroy(slab *s);

#ifdef __cplusplus
}
#endif
#endif
