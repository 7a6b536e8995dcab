/* The MPI tool information interface (MPI_T) of the library the core runs
 * on: `mpimark-core mpit` lists its control variables as JSON (what
 * `mpimark algorithms list` reads), and mpit_write_cvars() records the
 * values of the variables named in MPIMARK_MPIT_CVARS in the run record, so
 * a study can show that a forced collective algorithm was taken
 * (docs/algorithms.md). */
#ifndef MPIMARK_MPIT_H
#define MPIMARK_MPIT_H

#include "util/jsonw.h"

#define MPIT_CVARS_ENV "MPIMARK_MPIT_CVARS"

int mpit_main(int argc, char **argv);

/* Writes "mpit_cvars": {NAME: {"value": ..., "item": ...} | null, ...} into
 * the open object when MPIMARK_MPIT_CVARS names variables; nothing otherwise.
 * Call after MPI_Init; local (no communication). */
void mpit_write_cvars(jw_t *w);

#endif
