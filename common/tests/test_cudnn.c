/* test_cudnn.c — the cuDNN loader (common/include/wb_cudnn.h) on its own;
 * it passes with or without a cuDNN on this machine. */

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"
#include "wb_cudnn.h"

/* wb_cudnn: a path that does not load is refused with its name and nothing
 * else is tried; without it, the search either loads a cuDNN that has its
 * entry points or says why none could be loaded. */
START_TEST(cudnn_loader)
{
    char why[600] = "";
    setenv("WB_CUDNN_LIB", "/nonexistent/libcudnn.so.9", 1);
    ck_assert_int_eq(wb_cudnn_open(why, sizeof why), 0);
    ck_assert_ptr_nonnull(strstr(why, "/nonexistent/libcudnn.so.9"));
    ck_assert_ptr_null(wb_cudnn_sym("cudnnGetVersion"));
    ck_assert_ptr_null(wb_cudnn_path());
    unsetenv("WB_CUDNN_LIB");
    why[0] = 0;
    if (wb_cudnn_open(why, sizeof why)) {
        size_t (*version)(void) = (size_t (*)(void))wb_cudnn_sym("cudnnGetVersion");
        ck_assert_ptr_nonnull(version);
        ck_assert_uint_ge(version(), 90000);
        ck_assert_ptr_nonnull(wb_cudnn_path());
        ck_assert_ptr_nonnull(wb_cudnn_sym("cudnnSoftmaxForward"));
        ck_assert_ptr_nonnull(wb_cudnn_sym("cudnnFindConvolutionForwardAlgorithm"));
    } else {
        ck_assert_ptr_nonnull(strstr(why, "no loadable cuDNN 9"));
    }
}
END_TEST

void cudnn_tests(TCase *t) { tcase_add_test(t, cudnn_loader); }
