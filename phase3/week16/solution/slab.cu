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
    //@solution
    if (!base || block_bytes == 0 || align == 0 || (align & (align - 1)) != 0) return cudaErrorInvalidValue;
    if (block_bytes > SIZE_MAX - (align - 1)) return cudaErrorInvalidValue;
    size_t stride = (block_bytes + align - 1) & ~(align - 1);
    uintptr_t b = (uintptr_t)base, first = (b + align - 1) & ~(uintptr_t)(align - 1);
    size_t lost = (size_t)(first - b), usable = bytes > lost ? bytes - lost : 0;
    size_t n = usable / stride;
    /* only whole strides: the last block's padding must end inside the range too */
    size_t *fl = (size_t *)malloc((n ? n : 1) * sizeof *fl);
    unsigned char *used = (unsigned char *)calloc(n ? n : 1, 1);
    if (!fl || !used) {
        free(fl), free(used);
        return cudaErrorMemoryAllocation;
    }
    /* a stack popped from the end: block 0 is handed out first */
    for (size_t i = 0; i < n; i++) fl[i] = n - 1 - i;
    s->first = (unsigned char *)first;
    s->block_bytes = block_bytes;
    s->stride = stride;
    s->nblocks = n;
    s->nfree = n;
    s->free_list = fl;
    s->used = used;
    return cudaSuccess;
    //@starter
    //| /* TODO: check the arguments; stride = block_bytes rounded up to align;
    //|  * block 0 at base rounded up to align; count the whole strides that fit
    //|  * in what is left of the range; malloc a free list (every index) and
    //|  * a used flag per block, on the host. */
    //| (void)base, (void)bytes, (void)block_bytes, (void)align;
    //| return cudaSuccess;
    //@end
}

cudaError_t slab_create(slab *s, size_t block_bytes, size_t nblocks, size_t align)
{
    memset(s, 0, sizeof *s);
    //@solution
    if (nblocks == 0 || block_bytes == 0 || align == 0 || (align & (align - 1)) != 0) return cudaErrorInvalidValue;
    if (block_bytes > SIZE_MAX - (align - 1)) return cudaErrorInvalidValue;
    size_t stride = (block_bytes + align - 1) & ~(align - 1);
    if (nblocks > (SIZE_MAX - align) / stride) return cudaErrorInvalidValue;
    size_t bytes = nblocks * stride + (align - 1);
    void *d = NULL;
    cudaError_t e = cudaMalloc(&d, bytes);
    if (e != cudaSuccess) return e;
    e = slab_init(s, d, bytes, block_bytes, align);
    if (e != cudaSuccess) {
        cudaFree(d);
        return e;
    }
    s->owned = d;
    return cudaSuccess;
    //@starter
    //| /* TODO: check the arguments, cudaMalloc nblocks strides plus align - 1
    //|  * bytes, carve it with slab_init, and remember it in s->owned so
    //|  * slab_destroy frees it. */
    //| (void)block_bytes, (void)nblocks, (void)align;
    //| return cudaSuccess;
    //@end
}

void *slab_alloc(slab *s)
{
    //@solution
    if (s->nfree == 0) return NULL;
    size_t i = s->free_list[--s->nfree];
    s->used[i] = 1;
    return s->first + i * s->stride;
    //@starter
    //| /* TODO: pop a free index (NULL when there is none), mark it used,
    //|  * return its address. */
    //| (void)s;
    //| return NULL;
    //@end
}

int slab_free(slab *s, void *p)
{
    //@solution
    uintptr_t a = (uintptr_t)p, f = (uintptr_t)s->first;
    if (!p || s->nblocks == 0 || a < f) return -1;
    size_t off = (size_t)(a - f);
    if (off % s->stride != 0) return -1; /* inside a block or its padding */
    size_t i = off / s->stride;
    if (i >= s->nblocks || !s->used[i]) return -1; /* past the end, or free already */
    s->used[i] = 0;
    s->free_list[s->nfree++] = i;
    return 0;
    //@starter
    //| /* TODO: find the block index of p; refuse (-1) what is not the start of
    //|  * a block handed out; otherwise clear its flag and push its index. */
    //| (void)s, (void)p;
    //| return -1;
    //@end
}

size_t slab_capacity(const slab *s)
{
    //@solution
    return s->nblocks;
    //@starter
    //| (void)s;
    //| return 0;
    //@end
}

size_t slab_in_use(const slab *s)
{
    //@solution
    return s->nblocks - s->nfree;
    //@starter
    //| (void)s;
    //| return 0;
    //@end
}

void slab_destroy(slab *s)
{
    free(s->free_list);
    free(s->used);
    if (s->owned) cudaFree(s->owned);
    memset(s, 0, sizeof *s);
}
