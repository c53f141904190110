/* wgmma_desc.h — week 54: the 64-bit shared-memory matrix descriptor that
 * wgmma reads its A and B operands through.
 *
 * wgmma.mma_async takes no pointer for an operand in shared memory: it takes
 * a descriptor, one 64-bit register that says where the tile starts and how
 * it is laid out (PTX ISA, "Matrix Descriptor Format" under the warpgroup
 * level matrix shared memory layout):
 *
 *   bits  0-13  start address       (shared-memory byte address >> 4)
 *   bits 16-29  leading byte offset (bytes >> 4)
 *   bits 32-45  stride byte offset  (bytes >> 4)
 *   bits 49-51  base offset         (0 when the tile starts on its swizzle pattern's 1024-byte repeat)
 *   bits 62-63  swizzle mode        (0 none, 1 128B, 2 64B, 3 32B)
 *
 * and every other bit 0. Addresses and offsets are in 16-byte units, 14 bits
 * each: the field covers byte addresses 0 .. 2^18 - 16, all of an SM's
 * shared memory. Pure arithmetic: no CUDA call, checked on the CPU. */
#ifndef WGMMA_DESC_H
#define WGMMA_DESC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The swizzle field's codes (not the span in bytes). */
enum { WGMMA_SWIZZLE_NONE = 0, WGMMA_SWIZZLE_128B = 1, WGMMA_SWIZZLE_64B = 2, WGMMA_SWIZZLE_32B = 3 };

/* Encode a descriptor: addr (a shared-memory byte address, the 32-bit
 * shared-window offset __cvta_generic_to_shared gives), lbo and sbo in bytes,
 * base_offset 0..7, swizzle one of the codes above. 0 and *desc filled; -1
 * and *desc untouched when desc is NULL, addr, lbo or sbo is not a multiple
 * of 16 or not below 2^18, base_offset is above 7, or swizzle is not a code. */
int wgmma_desc_make(uint32_t addr, uint32_t lbo, uint32_t sbo, unsigned base_offset, int swizzle, uint64_t *desc);

/* The same layout starting `bytes` further on: only the start-address field
 * changes. 0 and *out filled; -1 and *out untouched when out is NULL, bytes
 * is not a multiple of 16, or the new start is not below 2^18 (the field
 * must not carry into bit 14). */
int wgmma_desc_advance(uint64_t desc, uint32_t bytes, uint64_t *out);

/* The descriptor of k16 slice kk (0..3) of a K-major BF16 tile that TMA
 * stored with the 128B swizzle at tile_addr: rows of 64 elements (128
 * bytes, the swizzle's span), 8-row groups 1024 bytes apart. So: stride byte
 * offset 1024 (from one 8-row group to the next, along M or N); leading byte
 * offset 16 (the hardware does not use it for a swizzled K-major layout whose
 * slice stays inside one 128-byte row, 1 in the field by convention); base
 * offset 0 (the tile starts on a 1024-byte boundary); swizzle 128B; start
 * tile_addr + 32 * kk (16 BF16 elements a slice: the swizzle is applied by
 * the hardware to the address it computes, so a slice starts at the
 * unswizzled offset). 0 and *desc filled; -1 and *desc untouched when desc
 * is NULL, tile_addr is not a multiple of 1024 or not below 2^18, or kk > 3. */
int wgmma_desc_bf16_sw128(uint32_t tile_addr, unsigned kk, uint64_t *desc);

#ifdef __cplusplus
}
#endif
#endif
