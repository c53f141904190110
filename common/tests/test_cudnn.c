/* test_cudnn.c — the cuDNN loader (common/include/wb_cudnn.h) on its own;
 * it passes with or without a cuDNN on this machine. */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Under the grader's sandbox (WB_SANDBOXED=1) HOME is the submission's
 * scratch tree: a cuDNN folder an earlier run left under HOME's ~/.local,
 * or a nvidia.cudnn package in the current folder (which python3 -c would
 * import), is never a candidate; without the sandbox both are, which shows
 * the planted folders are where the search looks. */
static int collect(const char *dir, void *ctx)
{
    char *all = ctx;
    size_t n = strlen(all);
    snprintf(all + n, 4096 - n, "%s\n", dir);
    return 0;
}

START_TEST(cudnn_sandbox_skips_home)
{
    char t[] = "/tmp/wb-cudnn-XXXXXX", cmd[1024], home[600], cwd[600], all[4096] = "";
    ck_assert_ptr_nonnull(mkdtemp(t));
    snprintf(cmd, sizeof cmd,
             "set -e; cd %s; l=home/.local/lib/python3.0/site-packages/nvidia/cudnn/lib; mkdir -p $l nvidia/cudnn/lib; "
             ": > nvidia/__init__.py; : > nvidia/cudnn/__init__.py",
             t);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(home, sizeof home, "%s/home/.local/lib/python3.0/site-packages/nvidia/cudnn/lib\n", t);
    snprintf(cwd, sizeof cwd, "%s/nvidia/cudnn/lib\n", t);
    snprintf(cmd, sizeof cmd, "%s/home", t);
    setenv("HOME", cmd, 1);
    ck_assert_int_eq(chdir(t), 0);
    setenv("WB_SANDBOXED", "1", 1);
    ck_assert_int_eq(wb_cudnn_sandboxed(), 1);
    ck_assert_int_eq(wb_cudnn_walk(wb_cudnn_sandboxed(), collect, all), 0);
    ck_assert_msg(!strstr(all, t), "sandboxed, a folder under HOME or the current folder is a candidate:\n%s", all);
    unsetenv("WB_SANDBOXED");
    ck_assert_int_eq(wb_cudnn_sandboxed(), 0);
    wb_cudnn_walk(wb_cudnn_sandboxed(), collect, all);
    ck_assert_msg(strstr(all, home), "not sandboxed, HOME's folder is no candidate:\n%s", all);
    if (system("python3 -c '' 2>/dev/null") == 0)
        ck_assert_msg(strstr(all, cwd), "not sandboxed, python3's answer is no candidate:\n%s", all);
    snprintf(cmd, sizeof cmd, "rm -rf %s", t);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

void cudnn_tests(TCase *t)
{
    tcase_add_test(t, cudnn_loader);
    tcase_add_test(t, cudnn_sandbox_skips_home);
}
