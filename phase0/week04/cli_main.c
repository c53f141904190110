/* cli_main.c — week 04: the whole executable around saxpy_cli. The Makefile
 * does not build it (the week's test calls saxpy_cli directly with argument
 * vectors); README.md shows the two commands that link it. */
#include <stdio.h>
#include "saxpylib.h"

int main(int argc, char **argv) { return saxpy_cli(argc, argv, stdout); }
