/* emu_switch.h — the stack switch the kernel emulators (w57/emu, w58/emu)
 * run a block's threads on as coroutines: emu_switch saves the callee-saved
 * registers of x86-64 on the current stack, stores its stack pointer in
 * *save_sp, moves to to_sp and restores that stack's registers. Include it
 * in one translation unit (the emulator's emu_rt.cc). */
#pragma once
extern "C" void emu_switch(void **save_sp, void *to_sp);
asm(R"(
.text
.globl emu_switch
.type emu_switch,@function
emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
)");
