/* lowocc_body.h — week 10: the body both versions of lowocc share (device
 * code, included by support/capped.cu and the exercise). */
#ifndef LOWOCC_BODY_H
#define LOWOCC_BODY_H
#include "lowocc.h"

static __device__ __forceinline__ float lowocc_element(float x)
{
    float acc[LOWOCC_ACC];
#pragma unroll
    for (int j = 0; j < LOWOCC_ACC; j++) acc[j] = x * (float)(j + 1) / LOWOCC_ACC;
#pragma unroll 1
    for (int r = 0; r < LOWOCC_STEPS; r++) {
        float c = 0.01f * (r + 1);
#pragma unroll
        for (int j = 0; j < LOWOCC_ACC; j++) acc[j] = fmaf(acc[j], 0.5f, acc[(j + 1) % LOWOCC_ACC] * 0.25f) + c;
    }
    float s = 0;
#pragma unroll
    for (int j = 0; j < LOWOCC_ACC; j++) s += acc[j];
    return s;
}
#endif
