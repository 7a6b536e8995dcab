/* What a core built against SimGrid SMPI (MPIMARK_SIMULATED, CMake's detection) cannot run, and
 * why: refused in one line (exit 2) before anything is measured, never a hang or a crash. The
 * classification behind it, measured benchmark by benchmark, is docs/core.md's table ("The core
 * under SimGrid SMPI"). In a build against a real MPI nothing is refused. */
#ifndef MPIMARK_SIMULATION_H
#define MPIMARK_SIMULATION_H

#include <stddef.h>

#include "engine/registry.h"

/* The reason benchmark d of suite cannot run under the simulator, or NULL (it can, or the build
 * is not simulated). */
const char *simulation_cannot_run(const suite_desc *suite, const bench_desc *d);

/* 0 when every benchmark of list can run; else -1 with err = "SimGrid SMPI cannot run NAME: WHY"
 * for the first that cannot (and how many others of the list cannot). */
int simulation_check_list(const suite_desc *suite, const bench_desc *const *list, int n, char *err, size_t errlen);

/* The same line for a program of another table (OSU, the tools): -1 and err when why is not NULL. */
int simulation_refuse(const char *name, const char *why, char *err, size_t errlen);

/* Why CPU work timed by the clock (the overlap benchmarks' calibration) cannot run: shared by the tables. */
extern const char SIMULATION_WHY_CPU_TIMED[];
/* Why start-up timing (the startup tool, osu_init) cannot run. */
extern const char SIMULATION_WHY_STARTUP[];

#endif
