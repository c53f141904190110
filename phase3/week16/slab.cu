/* slab.cu — week 16, exercise 3: a slab allocator.
 *
 * Many programs allocate the same few sizes over and over (a node, a page
 * of a KV cache, one request's scratch). A slab allocator takes one large
 * allocation once and cuts it into equal blocks; handing one out or taking
 * it back is a push or a pop on a stack of free block indices: O(1), no
 * driver call, no fragmentation inside the slab (every hole fits every
 * request). The price: one size per slab, and the padding that rounds a
 * block up to its alignment.
 *
 * The blocks here are device memory, so the bookkeeping stays on the host:
 * a stack of free indices, and a byte per block that says whether it is
 * handed out, which lets slab_free refuse a pointer it never gave and a
 * block freed twice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "slab.h"

cudaError_t slab_init(slab *s, void *base, size_t bytes, size_t block_bytes, size_t align)
{
    memset(s, 0, sizeof *s);
    /* TODO: check the arguments; stride = block_bytes rounded up to align;
     * block 0 at base rounded up to align; count the whole strides that fit
     * in what is left of the range; malloc a free list (every index) and
     * a used flag per block, on the host. */
    (void)base, (void)bytes, (void)block_bytes, (void)align;
    return cudaSuccess;
}

cudaError_t slab_create(slab *s, size_t block_bytes, size_t nblocks, size_t align)
{
    memset(s, 0, sizeof *s);
    /* TODO: check the arguments, cudaMalloc nblocks strides plus align - 1
     * bytes, carve it with slab_init, and remember it in s->owned so
     * slab_destroy frees it. */
    (void)block_bytes, (void)nblocks, (void)align;
    return cudaSuccess;
}

void *slab_alloc(slab *s)
{
    /* TODO: pop a free index (NULL when there is none), mark it used,
     * return its address. */
    (void)s;
    return NULL;
}

int slab_free(slab *s, void *p)
{
    /* TODO: find the block index of p; refuse (-1) what is not the start of
     * a block handed out; otherwise clear its flag and push its index. */
    (void)s, (void)p;
    return -1;
}

size_t slab_capacity(const slab *s)
{
    (void)s;
    return 0;
}

size_t slab_in_use(const slab *s)
{
    (void)s;
    return 0;
}

void slab_destroy(slab *s)
{
    free(s->free_list);
    free(s->used);
    if (s->owned) cudaFree(s->owned);
    memset(s, 0, sizeof *s);
}
