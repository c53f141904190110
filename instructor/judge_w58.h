/* judge_w58.h — week 58's judge and its runner agree on the exercise
 * numbers and on each call's arguments. */
#ifndef JUDGE_W58_H
#define JUDGE_W58_H

enum { W58_FN_DECODE = 1, W58_FN_PREFILL, W58_FN_DECODE_TIMED, W58_FN_PREFILL_TIMED };

/* W58_FN_DECODE, W58_FN_PREFILL: w4a16_decode / w4a16_prefill on p[0] x,
 * p[1] wq, p[2] scales, p[3] zeros, p[4] y (each NULL where the judge sends
 * none); i64[1] M, i64[2] N, i64[3] K. i64[4] W58_MADE_UP: the five
 * pointers made up by the runner instead (a refusal checked without a GPU,
 * as the test's check_refusals: never dereferenced), each W58_FAKE plus its
 * slot's offset, and i64[5] the byte offset added to one of them, i64[6]
 * which (0 x .. 4 y; -1 none). A call that returned an error has it
 * cleared after it. */
/* W58_FN_DECODE_TIMED, W58_FN_PREFILL_TIMED: the timed protocol's one input
 * and one output: w4a16_decode / w4a16_prefill on p[0] x | wq | scales | zeros (w58_timed_layout
 * below: each part at a 256-byte boundary), p[1] y; i64[1] M,
 * i64[2] N, i64[3] K. (A timed request's i64[0] is the judge's: its output
 * length in 4-byte words.) */
#define W58_MADE_UP 1
#define W58_FAKE    (1ull << 20) /* the test's base: x, scales +4096, zeros +8192, wq +12288, y +16384 */

#include <stddef.h>

/* The byte offsets of the timed input's parts: x (M x K halves), wq (K/8 x
 * N words), scales, zeros (K/128 x N halves each), each at a 256-byte
 * boundary; off[4] the end. */
static inline void w58_timed_layout(size_t M, size_t N, size_t K, size_t off[5])
{
    const size_t sz[4] = { M * K * 2, K / 8 * N * 4, K / 128 * N * 2, K / 128 * N * 2 };
    off[0] = 0;
    for (int i = 0; i < 4; i++) off[i + 1] = (off[i] + sz[i] + 255) & ~(size_t)255;
}

#endif
