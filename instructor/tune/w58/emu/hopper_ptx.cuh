/* hopper_ptx.cuh for the CPU emulator: the mbarrier wrappers week 58's
 * variant 4 takes from common/include's hopper_ptx.cuh and tma_ptx.h, the
 * same names and arguments, on emu_rt.cc's emulated mbarriers. */
#pragma once
#include <stdint.h>
static inline uint32_t smem_u32(const void *p) { return emu_smem_addr(p); }
static inline void mbar_init(uint32_t bar, uint32_t count) { emu_mbar_init(bar, count); }
static inline void fence_mbar_init() {}
static inline void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) { emu_mbar_arrive(bar, bytes); }
static inline void mbar_arrive(uint32_t bar) { emu_mbar_arrive(bar, 0); }
static inline void mbar_wait_loop(uint32_t bar, uint32_t parity)
{
    while (!emu_mbar_test(bar, parity)) emu_yield();
}
