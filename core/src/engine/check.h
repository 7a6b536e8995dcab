/* -check: what must have arrived, compared element by element. */
#ifndef MPIMARK_CHECK_H
#define MPIMARK_CHECK_H

#include <stddef.h>
#include "engine/registry.h"

/* Overwrites a receive area with a pattern no sender ever writes. */
void poison(void *buf, size_t bytes);
/* Mismatches between buf and the values rank src owns at positions first... */
long check_block(const bench_ctx *c, const void *buf, int src, size_t first, size_t count);
/* Mismatches between buf and the element-wise sum over ranks[0..nr-1]. */
long check_sum(const bench_ctx *c, const void *buf, const int *ranks, int nr, size_t first, size_t count);
/* check_sum over every rank of the communicator. */
long check_sum_all(const bench_ctx *c, const void *buf, size_t first, size_t count);

#endif
