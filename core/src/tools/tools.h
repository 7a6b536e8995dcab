/* The stand-alone tools that main() dispatches to by the first argument:
 * mpimark-core beff | mpibench | startup. Each parses its own command line
 * (docs/beff.md, docs/mpibench.md, docs/startup.md); beff and startup keep
 * their own loops and write through tool_run.h, mpibench runs through the
 * engine and its reporters. */
#ifndef MPIMARK_TOOLS_H
#define MPIMARK_TOOLS_H

#include "tools/common/tool_run.h"

#include <stdint.h>

/* CLOCK_REALTIME at the first instruction of main(), for startup_main. */
extern int64_t startup_main_entry_ns;

int beff_main(int argc, char **argv);
int mpibench_main(int argc, char **argv);
int startup_main(int argc, char **argv);

#endif
