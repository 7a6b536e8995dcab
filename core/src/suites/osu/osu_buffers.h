/* The message buffers of the OSU families: aligned, written before any
 * timing, and OSU's -c patterns, shared by every family. */
#ifndef MPIMARK_OSU_BUFFERS_H
#define MPIMARK_OSU_BUFFERS_H

#include <mpi.h>
#include <stddef.h>

#define OSU_ALIGNMENT 4096  /* a page: OSU's MESSAGE_ALIGNMENT (64) and mbw_mr's (4096) alike */

/* bytes (at least one) aligned to OSU_ALIGNMENT and written with fill, or
 * NULL when memory ran out (the caller reports it: own_buffers_ok). */
void *osu_alloc(size_t bytes, int fill);
void osu_free(void *p);

/* OSU's -c pattern: element i holds 7*(i+1) + seed in the datatype's way
 * (char: times 7 modulo 256, int: times 10, float: times 2). OSU's point to
 * point tests take seed = bytes + iteration; other families their own. */
void osu_pattern_fill(void *buf, size_t count, MPI_Datatype type, long seed);
/* The elements of buf that differ from the pattern (float: by more than 0.001). */
long osu_pattern_defects(const void *buf, size_t count, MPI_Datatype type, long seed);

/* The Validation column's word for defects found: "Pass"/"Fail", the one-sided tests' "passed"/"failed". */
static inline const char *osu_validation_word(int one_sided, long defects) {
  return one_sided ? (defects > 0 ? "failed" : "passed") : defects > 0 ? "Fail" : "Pass";
}

#endif
