/* wb_gpus.h — how many GPUs a multi-GPU checkpoint of Phase 8 uses.
 *
 * A checkpoint that needs several GPUs runs on every GPU of the host, from
 * 2 up to WB_MAX_GPUS (8, one HGX board): on a 2-GPU machine it uses 2, on
 * a 4-GPU machine 4. Below 2 it is SKIP with the reason ("needs 2 GPUs,
 * found 1"), never PASS. Its message says how many it used ("4 GPUs"), so a
 * pass on two GPUs is not read as a pass on eight.
 *
 *   START_TEST(thing_all_gpus)
 *   {
 *       int n;
 *       wb_use_gpus(n);              // SKIP below 2; else 2 .. 8
 *       ...
 *       wb_report_gpus(n, "every rank correct");   // "4 GPUs: every rank correct"
 *   }
 *
 * A test whose process must stay free of CUDA (week 47's launcher tests)
 * counts the GPUs in a child and calls wb_use_gpus_found(n, found). Include
 * after wb_harness.h. */
#ifndef WB_GPUS_H
#define WB_GPUS_H

#include <stdio.h>

enum { WB_MAX_GPUS = 8 };

/* found GPUs -> GPUs used: all of them, at most WB_MAX_GPUS. */
static inline int wb_gpus_cap(int found) { return found < WB_MAX_GPUS ? found : WB_MAX_GPUS; }

/* Inside a test: var = the GPUs it uses (2 .. WB_MAX_GPUS), from a count
 * made elsewhere (a child process); SKIP with the reason below 2. */
#define wb_use_gpus_found(var, found)                                                                           \
    do {                                                                                                         \
        int wb_found_ = (found);                                                                                 \
        if (wb_found_ < 2) wb_skip_test("needs 2 GPUs, found %d (it uses every GPU of the host, 2 to %d)",       \
                                        wb_found_, (int)WB_MAX_GPUS);                                            \
        (var) = wb_gpus_cap(wb_found_);                                                                          \
    } while (0)

/* Inside a test: var = the GPUs it uses, counted here (cudaGetDeviceCount). */
#define wb_use_gpus(var) wb_use_gpus_found(var, wb_gpu_count())

/* Inside a test: its checkpoint's message, "N GPUs: what" (wb_report). */
#define wb_report_gpus(n, ...)                                                                                   \
    do {                                                                                                         \
        char wb_what_[300], wb_fig_[360];                                                                        \
        snprintf(wb_what_, sizeof wb_what_, __VA_ARGS__);                                                        \
        snprintf(wb_fig_, sizeof wb_fig_, "%d GPUs: %s", (int)(n), wb_what_);                                    \
        wb_report(wb_fig_);                                                                                      \
    } while (0)

#endif
