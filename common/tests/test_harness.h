/* test_harness.h — what the harness's tests share: one program,
 * build/common/tests/test_harness, its tests in a file per area
 * (common/tests/test_*.c), each adding its tests to a test case in the
 * order test_harness.c's main gives. */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include <check.h>

/* A fresh folder under /tmp for one test (removed at exit), in tmpdir. */
extern char tmpdir[256];
void make_tmpdir(void);
void write_file(const char *path, const char *text);
char *read_file(const char *path); /* the whole file (free it), or NULL */

void compare_tests(TCase *t);
void stats_tests(TCase *t);
void progress_tests(TCase *t);
void meta_tests(TCase *t);
void regress_tests(TCase *t);
void results_tests(TCase *t);
void bench_tests(TCase *t);
void f16_tests(TCase *t);
void cudnn_tests(TCase *t);

#endif
