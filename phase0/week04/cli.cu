/* cli.cu — week 04, exercise 2: the command-line front end of the library.
 *
 * A program's main() cannot live in the week's test binary (it has its own),
 * so the CLI is a function, cli_saxpy(argc, argv, out): the test calls it
 * with argument vectors and reads what it prints; cli_main.c wraps it into an
 * executable. The shape is the usual one: validate every argument first
 * (errors: a message, the usage line, exit code 2, no GPU touched), then do
 * the work, then print one result line a script can parse. */
#include <errno.h>
#include <math.h>
#include <float.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "saxpylib.h"
#include "wb_rand.h"

static void usage(FILE *out, const char *prog)
{
    fprintf(out, "usage: %s saxpy N A [SEED] | %s dot N [SEED] | %s --help\n", prog, prog, prog);
}

/* TODO: helpers: an argument error (print "error: ...", the usage line,
 * return 2), parsers for N/SEED (digits only) and A (a finite float), and
 * the two commands (inputs from the seed with wb_rng_seed and
 * wb_fill_uniform_f32, x first then y; the library call; the check against
 * a double reference; the result line). */

int cli_saxpy(int argc, char **argv, FILE *out)
{
    /* TODO: see saxpylib.h: validate the arguments, then run the command. */
    (void)usage, (void)argc, (void)argv, (void)out;
    return 0;
}
