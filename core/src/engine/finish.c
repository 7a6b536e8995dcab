#include "engine/finish.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

/* One fprintf, so that the line stays whole among other ranks' output. */
void error_line(const char *msg) { fprintf(stderr, "mpimark-core: error: %s\n", msg); }

void error_linef(const char *fmt, ...) {
  char msg[4096];  /* room for a path and MPI's error string */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  error_line(msg);
}

int finish(int rank, int code, const char *msg) {
  if (rank == 0 && msg && *msg) error_line(msg);
  MPI_Finalize();
  return code;
}
