/* The one way mpimark-core ends, for the IMB suites and the tools alike:
 * world rank 0 says why in one line on stderr (`mpimark-core: error: ...`),
 * every rank leaves through MPI_Finalize and returns the same exit status
 * (util/exitcodes.h). */
#ifndef MPIMARK_FINISH_H
#define MPIMARK_FINISH_H

#include "util/exitcodes.h"

/* Prints `mpimark-core: error: msg` on stderr (the caller decides which rank). */
void error_line(const char *msg);
/* error_line with printf's format, for the paths that end without finish()
 * (mpit before MPI_Init, IMB-IO's abort). */
void error_linef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Rank 0 prints msg (if any) with error_line; every rank calls MPI_Finalize.
 * Returns code, for main's return statement. */
int finish(int rank, int code, const char *msg);

#endif
