/* test_launch.c — Phase 8's single-host launcher (phase8/common/wb_launch.h)
 * on its own: no GPU, the ranks only report. */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ck_ledger.h"
#include "wb_launch.h"

/* Each rank reports its rank, the three multicast settings it sees and the
 * bytes rank 0 broadcast. */
static int rank_env(wb_rank *r, void *arg, char *msg, size_t n)
{
    (void)arg;
    char id[16] = "";
    if (r->rank == 0) snprintf(id, sizeof id, "id-%d", 4242);
    if (wb_rank_bcast(r, id, sizeof id, 5, msg, n) != 0) return 1;
    const char *a = getenv("NCCL_NVLS_ENABLE"), *b = getenv("TORCH_SYMM_MEM_DISABLE_MULTICAST"),
               *c = getenv("NVSHMEM_DISABLE_NVLS");
    snprintf(msg, n, "%d/%d %s %s %s %s", r->rank, r->nranks, a ? a : "unset", b ? b : "unset", c ? c : "unset", id);
    return 0;
}

START_TEST(launch_env_and_bcast)
{
    setenv("NCCL_NVLS_ENABLE", "1", 1), setenv("TORCH_SYMM_MEM_DISABLE_MULTICAST", "0", 1);
    unsetenv("NVSHMEM_DISABLE_NVLS");
    wb_launch_result res;
    ck_assert_msg(wb_launch(3, 10, rank_env, NULL, &res) == 0, "launch: %s", res.summary);
    for (int q = 0; q < 3; q++) {
        char want[64];
        snprintf(want, sizeof want, "%d/3 0 1 1 id-4242", q);
        ck_assert_msg(res.reported[q] && strcmp(res.msg[q], want) == 0,
                      "rank %d saw \"%s\", expected \"%s\" (multicast off whatever the launcher had; rank 0's id)", q,
                      res.msg[q], want);
    }
    ck_assert_msg(strstr(res.summary, "all 3 ranks reported success") != NULL, "summary: %s", res.summary);
}
END_TEST

/* Rank 1 dies before reporting, rank 2 hangs: both are named, the launch
 * ends at its deadline, rank 0's success is kept. */
static int rank_die_or_hang(wb_rank *r, void *arg, char *msg, size_t n)
{
    (void)arg, (void)msg, (void)n;
    if (r->rank == 1) _exit(3);
    if (r->rank == 2) sleep(60);
    return 0;
}

START_TEST(launch_dead_and_hung_ranks)
{
    wb_launch_result res;
    ck_assert_int_eq(wb_launch(3, 1.5, rank_die_or_hang, NULL, &res), -1);
    ck_assert_msg(!res.ok && res.reported[0] && res.status[0] == 0, "rank 0 did report success: %s", res.summary);
    ck_assert_msg(strstr(res.summary, "rank 1 exited with status 3 before reporting") != NULL, "summary: %s", res.summary);
    ck_assert_msg(strstr(res.summary, "rank 2 did not report within 1.5 s (killed)") != NULL, "summary: %s", res.summary);
    ck_assert_msg(strstr(res.summary, "rank 0") == NULL, "rank 0 succeeded, yet the summary names it: %s", res.summary);
    ck_assert_msg(res.seconds < 3.5, "the launch took %.1f s with a deadline of 1.5 s", res.seconds);
}
END_TEST

/* Rank 0 never sends: rank 1's wb_rank_bcast gives up and names rank 0. */
static int rank_no_bcast(wb_rank *r, void *arg, char *msg, size_t n)
{
    (void)arg;
    char id[8];
    if (r->rank == 0) return 0;
    return wb_rank_bcast(r, id, sizeof id, 0.5, msg, n) != 0;
}

START_TEST(launch_bcast_times_out)
{
    wb_launch_result res;
    ck_assert_int_eq(wb_launch(2, 10, rank_no_bcast, NULL, &res), -1);
    ck_assert_msg(strstr(res.summary, "rank 1: rank 1 of 2: no data from rank 0 within 0.5 s") != NULL, "summary: %s",
                  res.summary);
    ck_assert_msg(res.seconds < 5, "the launch took %.1f s", res.seconds);
}
END_TEST

START_TEST(launch_rank_count_refused)
{
    wb_launch_result res;
    ck_assert_int_eq(wb_launch(0, 1, rank_env, NULL, &res), -1);
    ck_assert_msg(strstr(res.summary, "0 ranks asked for") != NULL, "summary: %s", res.summary);
    ck_assert_int_eq(wb_launch(WB_LAUNCH_MAX_RANKS + 1, 1, rank_env, NULL, &res), -1);
    ck_assert_msg(strstr(res.summary, "65 ranks asked for; 1 to 64") != NULL, "summary: %s", res.summary);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("phase8 common");
    TCase *t = tcase_create("launch");
    tcase_add_test(t, launch_env_and_bcast);
    tcase_add_test(t, launch_dead_and_hung_ranks);
    tcase_add_test(t, launch_bcast_times_out);
    tcase_add_test(t, launch_rank_count_refused);
    suite_add_tcase(s, t);
    return ck_ledger_run(s);
}
