/* The message sizes of one benchmark: from -msglog, -msglen or -msgsize,
 * rounded to the element unit (4 bytes for MPI_FLOAT reductions). */
#ifndef MPIMARK_SIZES_H
#define MPIMARK_SIZES_H

#include <stddef.h>
#include "util/options.h"

/* Writes the sizes, in bytes, in run order into out[0..max-1]; returns how
 * many. -msglog: 0 (unless -zero_size off), then 2^k rounded up to a multiple
 * of unit for k = min..max, duplicates dropped, never above 2^max rounded down
 * to the unit. Explicit lists as IMB measures them: each entry rounded up to
 * a multiple of unit, in the given order, duplicates kept, 0 kept whatever
 * -zero_size says. */
int sizes_build(const options_t *o, size_t unit, size_t *out, int max);

#endif
