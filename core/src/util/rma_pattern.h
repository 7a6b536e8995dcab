/* Who accesses whose window in the one-sided suites (IMB-EXT, IMB-RMA), and
 * where iteration i lands in it: pure arithmetic, unit-tested without MPI. */
#ifndef MPIMARK_RMA_PATTERN_H
#define MPIMARK_RMA_PATTERN_H

#include <stddef.h>

typedef enum {
  RP_PAIR,      /* rank 0 -> rank np-1 (Unidir_*, *_local, the atomics) */
  RP_PAIR_REV,  /* rank np-1 -> rank 0 (IMB-EXT Unidir_Get: the second rank gets) */
  RP_BIDIR,     /* rank 0 <-> rank np-1 */
  RP_ONE_ALL,   /* rank 0 -> every other rank (One_*_all, *_all_local) */
  RP_ALL_ALL,   /* every rank -> every other rank (All_*_all) */
  RP_TO_ROOT,   /* every rank, rank 0 included -> rank 0 (IMB-EXT Accumulate) */
  RP_RING       /* every rank -> its left and right neighbours (Exchange_*) */
} rma_pattern_t;

/* The ranks `rank` accesses, each once, in the order it issues them; out
 * holds at least np entries. The *_ALL patterns start at rank+1 and wrap
 * around (IMB: target = (peer + rank) mod np, self skipped), so that the
 * origins do not all hit the same target at once. Returns the count. */
int rp_targets(rma_pattern_t p, int rank, int np, int *out);

/* The ranks whose targets include `rank`, ascending; out holds np entries. */
int rp_senders(rma_pattern_t p, int rank, int np, int *out);

/* Ring neighbours: rank-1 and rank+1 modulo np. */
int rp_left(int rank, int np);
int rp_right(int rank, int np);

/* Target displacement, in units of disp_unit, of iteration iter when the
 * exposed buffer has `slots` slots `stride` bytes apart: slot iter mod slots.
 * One slot (no -off_cache, non-aggregate mode): always 0, as IMB; the
 * disjoint aggregate layout has a slot per iteration. */
long long rp_disp(long iter, long slots, size_t stride, size_t disp_unit);

/* Bytes a window must cover: the last slot's start plus one slot. */
size_t rp_window_bytes(long slots, size_t stride, size_t len);

#endif
