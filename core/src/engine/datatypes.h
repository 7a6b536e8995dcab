/* Element types and the data written into buffers. Every buffer is written
 * with real data before it is timed (zero pages make copies look free), and
 * the same value function tells -check what must have arrived. */
#ifndef MPIMARK_DATATYPES_H
#define MPIMARK_DATATYPES_H

#include <mpi.h>
#include <stddef.h>
#include "util/options.h"

/* The MPI datatype of an element type; MPI_DATATYPE_NULL if this MPI lacks it.
 * Reductions on char use MPI_SIGNED_CHAR (MPI_CHAR is not a reduction type). */
MPI_Datatype dtype_mpi(dtype_t t, int reduction);
/* The name printed in headers and JSON ("MPI_BYTE", "MPI_FLOAT", ...). */
const char *dtype_mpi_name(dtype_t t, int reduction);

/* Writes the values rank r owns at element positions first..first+count-1. */
void fill_values(void *buf, dtype_t t, size_t count, int r, size_t first);
/* Writes, element by element, the sum over ranks[0..nr-1] of their values at
 * positions first.., computed in the element type's own arithmetic. */
void fill_sum(void *buf, dtype_t t, size_t count, const int *ranks, int nr, size_t first);
/* Counts elements of got that differ bit for bit from expected. */
long count_mismatches(const void *got, const void *expected, dtype_t t, size_t count);

/* A datatype of exactly `bytes` contiguous bytes, for messages whose element
 * count exceeds INT_MAX when the MPI has no large-count calls for them. */
MPI_Datatype block_type(size_t bytes);

#endif
