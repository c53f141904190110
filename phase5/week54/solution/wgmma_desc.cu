// wgmma_desc.cu — week 54: wgmma's shared-memory matrix descriptor, encoded
// on the CPU (wgmma_desc.h has the bit layout). The GEMM's host code calls
// wgmma_desc_bf16_sw128 once for a template whose start address is 0; the
// kernel adds each stage's address and each k16 slice's 32 bytes to it.
#include "wgmma_desc.h"

extern "C" int wgmma_desc_make(uint32_t addr, uint32_t lbo, uint32_t sbo, unsigned base_offset, int swizzle,
                               uint64_t *desc)
{
    //@solution
    const uint32_t limit = 1u << 18;  // 14 bits of 16-byte units
    if (!desc || addr % 16 || lbo % 16 || sbo % 16 || addr >= limit || lbo >= limit || sbo >= limit)
        return -1;
    if (base_offset > 7 || swizzle < WGMMA_SWIZZLE_NONE || swizzle > WGMMA_SWIZZLE_32B) return -1;
    *desc = (uint64_t)(addr >> 4) | (uint64_t)(lbo >> 4) << 16 | (uint64_t)(sbo >> 4) << 32 |
            (uint64_t)base_offset << 49 | (uint64_t)swizzle << 62;
    return 0;
    //@starter
    //| /* TODO (README, task 1): check every field fits (multiples of 16 below
    //|  * 2^18, base_offset <= 7, a swizzle code), then put addr >> 4 in bits 0-13,
    //|  * lbo >> 4 in 16-29, sbo >> 4 in 32-45, base_offset in 49-51 and the
    //|  * swizzle code in 62-63. Shift 64-bit values: (uint64_t)x << 62. */
    //| (void)addr, (void)lbo, (void)sbo, (void)base_offset, (void)swizzle, (void)desc;
    //| return -1;
    //@end
}

extern "C" int wgmma_desc_advance(uint64_t desc, uint32_t bytes, uint64_t *out)
{
    //@solution
    const uint64_t start = desc & 0x3fff;  // in 16-byte units
    if (!out || bytes % 16 || start + bytes / 16 > 0x3fff) return -1;
    *out = desc + bytes / 16;  // no carry out of the field: checked above
    return 0;
    //@starter
    //| /* TODO (README, task 1): add bytes / 16 to the start-address field
    //|  * (bits 0-13) and nothing else; refuse what would carry out of it. */
    //| (void)desc, (void)bytes, (void)out;
    //| return -1;
    //@end
}

extern "C" int wgmma_desc_bf16_sw128(uint32_t tile_addr, unsigned kk, uint64_t *desc)
{
    //@solution
    uint64_t d;
    if (tile_addr % 1024 || kk > 3 || wgmma_desc_make(tile_addr, 16, 1024, 0, WGMMA_SWIZZLE_128B, &d) != 0 ||
        wgmma_desc_advance(d, 32 * kk, &d) != 0 || !desc)
        return -1;
    *desc = d;
    return 0;
    //@starter
    //| /* TODO (README, task 1): wgmma_desc_make with LBO 16, SBO 1024 (8 rows of
    //|  * 128 bytes), base offset 0 and the 128B swizzle, then advance 32 bytes
    //|  * (16 BF16 elements) per k16 slice. tile_addr must be 1024-byte aligned. */
    //| (void)tile_addr, (void)kk, (void)desc;
    //| return -1;
    //@end
}
