/* cli_main.c — week 04: the whole executable around cli_saxpy. The Makefile
 * does not build it (the week's test calls cli_saxpy directly with argument
 * vectors); README.md shows the two commands that link it. */
#include <stdio.h>
#include "saxpylib.h"

int main(int argc, char **argv) { return cli_saxpy(argc, argv, stdout); }
