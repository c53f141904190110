/* judge_sb.h — the runner started in the grader's sandbox (sandbox.h),
 * its socket passed in as the one descriptor sb_run keeps (keep_fd). */
#ifndef JUDGE_SB_H
#define JUDGE_SB_H

#include "judge.h"
#include "sandbox.h"

/* Start argv (the socket's number appended) under *o (keep_fd is set here)
 * from a child process that waits for sb_run; its outcome is written, as
 * "exit N signal N limit NAME", to o->log_path's ".end" beside it when
 * log_path is set. Returns 0 or -1 with why (J->why). */
int jd_start_sandboxed(jd *J, const sb_opts *o, char *const argv[]);

#endif
