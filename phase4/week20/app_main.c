/* app_main.c — week 20: the executable around app_main, installed as
 * PREFIX/bin/wbk-app by `make install` (phase4/week20/week.mk links it against
 * libwbk.so). The week's test calls app_main directly. */
#include <stdio.h>
#include "app.h"

int main(int argc, char **argv) { return app_main(argc, argv, stdout); }
