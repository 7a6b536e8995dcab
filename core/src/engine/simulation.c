#include "engine/simulation.h"

#include <stdio.h>
#include <string.h>

const char SIMULATION_WHY_CPU_TIMED[] =
    "it calibrates CPU work against the clock to overlap it with communication, and simulated time charges "
    "no computation (smpi/simulate-computation off), so the calibration would never end";

const char SIMULATION_WHY_STARTUP[] =
    "it times the start of processes and MPI_Init with CLOCK_REALTIME, which under SMPI reads the real clock "
    "before MPI_Init and the simulated one after it, and the simulated ranks are threads of one process, not "
    "processes being started";

#if MPIMARK_SIMULATED
static const char WHY_IO[] =
    "no IMB-IO benchmark can: SMPI simulates MPI-IO only on platform hosts that have a <disk>, and aborts "
    "the whole simulation at MPI_File_open on any other (mpimark's platforms have none); its disk model is "
    "not a parallel file system";

/* What the benchmark flags cannot say: a whole suite (benchmark NULL), or one benchmark of a suite. */
static const struct {
  const char *suite, *benchmark, *why;
} unsupported[] = {
  {"io", NULL, WHY_IO},
  /* its target computes (cpu_calibrate, suites/rma/kernels_rma.c) while the origin puts */
  {"rma", "Truly_passive_put", SIMULATION_WHY_CPU_TIMED},
};
#endif

const char *simulation_cannot_run(const suite_desc *suite, const bench_desc *d) {
#if MPIMARK_SIMULATED
  /* The overlap protocol times cpu_calibrate's kernel (util/cpu_exploit.c): the clock stays still. */
  if (d->flags & BF_OVERLAP) return SIMULATION_WHY_CPU_TIMED;
  for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
    if (strcmp(suite->name, unsupported[i].suite) == 0 &&
        (!unsupported[i].benchmark || strcmp(d->name, unsupported[i].benchmark) == 0))
      return unsupported[i].why;
#else
  (void)suite;
  (void)d;
#endif
  return NULL;
}

int simulation_refuse(const char *name, const char *why, char *err, size_t errlen) {
  if (!why) return 0;
  snprintf(err, errlen, "SimGrid SMPI cannot run %s: %s", name, why);
  return -1;
}

int simulation_check_list(const suite_desc *suite, const bench_desc *const *list, int n, char *err, size_t errlen) {
  const bench_desc *first = NULL;
  int others = 0;
  for (int i = 0; i < n; i++)
    if (simulation_cannot_run(suite, list[i])) {
      if (first) others++;
      else first = list[i];
    }
  if (!first) return 0;
  int len = snprintf(err, errlen, "SimGrid SMPI cannot run %s: %s", first->name,
                     simulation_cannot_run(suite, first));
  if (len > 0 && (size_t)len < errlen)
    snprintf(err + len, errlen - (size_t)len, others ? "; %d more of the benchmarks asked for cannot either: name "
             "only those it can run (docs/core.md, \"The core under SimGrid SMPI\")" : "; leave it out (docs/core.md, "
             "\"The core under SimGrid SMPI\", lists what runs)", others);
  return -1;
}
