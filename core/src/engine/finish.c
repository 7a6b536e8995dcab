#include "engine/finish.h"

#include <mpi.h>
#include <stdio.h>

void error_line(const char *msg) { fprintf(stderr, "mpimark-core: error: %s\n", msg); }

int finish(int rank, int code, const char *msg) {
  if (rank == 0 && msg && *msg) error_line(msg);
  MPI_Finalize();
  return code;
}
