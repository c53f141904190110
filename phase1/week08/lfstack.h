/* lfstack.h — week 08: a lock-free stack of node indices. */
#ifndef LFSTACK_H
#define LFSTACK_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STACK_EMPTY 0xFFFFFFFFu

/* The stack is *head (STACK_EMPTY when empty) and next[] (next[i] is the
 * node below node i). lfstack_push_all: thread i (i < n) pushes node i,
 * concurrently with all others, with atomicCAS on *head.
 * lfstack_pop_all: m threads each pop one node concurrently and write it to
 * popped[t] (STACK_EMPTY when the stack was empty). Default stream. */
cudaError_t lfstack_push_all(unsigned int *head, unsigned int *next, size_t n);
cudaError_t lfstack_pop_all(unsigned int *head, const unsigned int *next, unsigned int *popped, size_t m);

#ifdef __cplusplus
}
#endif
#endif
