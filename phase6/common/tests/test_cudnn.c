/* test_cudnn.c — Phase 6's cuDNN loader (phase6/common/wb_cudnn.h) on its
 * own; it passes with or without a cuDNN on this machine. */

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ck_ledger.h"
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
    } else {
        ck_assert_ptr_nonnull(strstr(why, "no loadable cuDNN 9"));
    }
}
END_TEST


int main(void)
{
    Suite *s = suite_create("phase6 common");
    TCase *t = tcase_create("meta"); /* ledger: "harness meta", the label make test gives it */
    tcase_add_test(t, cudnn_loader);
    suite_add_tcase(s, t);
    return ck_ledger_run(s);
}
