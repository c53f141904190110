/* sandbox_cli.c — sb-run: one command in the grader's sandbox, by hand.
 *
 *   sb-run --scratch DIR [--ro PATH]... [--hide PATH]... [--env K=V]...
 *          [--wall S] [--cpu S] [--mem BYTES] [--fsize BYTES] [--out BYTES]
 *          [--procs N] [--log FILE] [--gpu] [--cgroup DIR|none] [--bwrap PATH]
 *          [--seccomp deny|allow|log|off] -- COMMAND [ARG]...
 *   sb-run --check [PATH]...   says whether bwrap works here (and its user
 *                              can reach each PATH)
 *
 * Prints one line: exit=N signal=N limit=NAME out=BYTES seconds=S (and, for
 * a command the seccomp filter killed, why); exits 0 when the command ran, 2
 * when the sandbox could not be made. */
#include "sandbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    static const char *ro[64], *hide[64], *env[64];
    int nro = 0, nhide = 0, nenv = 0, i = 1;
    sb_opts o = { 0 };
    for (; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--")) { i++; break; }
        if (!strcmp(a, "--check")) {
            char why[512];
            int ok = sb_available(NULL, why);
            for (int k = i + 1; ok && k < argc; k++) ok = sb_reachable(argv[k], why);
            printf("%s\n", why);
            return ok ? 0 : 2;
        }
        if (!strcmp(a, "--gpu")) { o.gpu = 1; continue; }
        if (!v) break;
        i++;
        if (!strcmp(a, "--scratch")) o.scratch = v;
        else if (!strcmp(a, "--ro") && nro < 63) ro[nro++] = v;
        else if (!strcmp(a, "--hide") && nhide < 63) hide[nhide++] = v;
        else if (!strcmp(a, "--env") && nenv < 63) env[nenv++] = v;
        else if (!strcmp(a, "--wall")) o.wall_s = atof(v);
        else if (!strcmp(a, "--cpu")) o.cpu_s = atof(v);
        else if (!strcmp(a, "--mem")) o.mem_bytes = atoll(v);
        else if (!strcmp(a, "--fsize")) o.file_bytes = atoll(v);
        else if (!strcmp(a, "--out")) o.out_bytes = atoll(v);
        else if (!strcmp(a, "--procs")) o.max_procs = atoi(v);
        else if (!strcmp(a, "--log")) o.log_path = v;
        else if (!strcmp(a, "--cgroup")) o.cgroup = v;
        else if (!strcmp(a, "--bwrap")) o.bwrap = v;
        else if (!strcmp(a, "--seccomp") && sb_seccomp_parse(v) >= 0) o.seccomp = sb_seccomp_parse(v);
        else { fprintf(stderr, "sb-run: unknown option %s\n", a); return 2; }
    }
    if (!o.scratch || i >= argc) {
        fprintf(stderr, "usage: sb-run --scratch DIR [options] -- COMMAND [ARG]...\n");
        return 2;
    }
    o.ro_binds = ro, o.hide = hide, o.env = env;
    sb_result r;
    if (sb_run(&o, argv + i, &r) != 0) {
        fprintf(stderr, "%s\n", r.why);
        return 2;
    }
    printf("exit=%d signal=%d limit=%s out=%lld seconds=%.2f memory=%s%s%s\n", r.exit_code, r.signal,
           sb_limit_name(r.limit), r.out_bytes, r.seconds, r.mem_cgroup ? "cgroup" : "rlimit", r.why[0] ? " why=" : "",
           r.why);
    return 0;
}
