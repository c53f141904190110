/* wb_multicast.h — NVLink multicast stays off in every process the
 * workbook starts.
 *
 * On a host with several GPUs, a program that uses NVLink multicast (NCCL's
 * NVLS algorithms, torch's symmetric memory, NVSHMEM) can put the host's
 * GPUs out of service for a long time. The workbook never needs it, so it
 * is switched off everywhere, whatever environment the workbook was given:
 *   - the Makefile exports these settings to every command it runs;
 *   - every test program sets them again first thing (wb_test_main), so a
 *     test run by hand or by another tool has them too;
 *   - the grader puts them in each sandboxed run's environment;
 *   - Phase 7's Python tests and Phase 8's launcher set them before any
 *     library loads.
 * No workbook code calls cuMulticastCreate (make test checks the tree). */
#ifndef WB_MULTICAST_H
#define WB_MULTICAST_H

#ifdef __cplusplus
extern "C" {
#endif

/* "NAME=VALUE" entries, NULL-terminated. */
extern const char *const wb_multicast_off_env[];

/* setenv each of them, overwriting what was there. */
void wb_multicast_off(void);

#ifdef __cplusplus
}
#endif
#endif
