/* Who talks to whom: the pure arithmetic of IMB's patterns (process-count
 * sweep, -map reordering, -multi groups, root rotation, Reduce_scatter
 * split), kept free of MPI so CTest can check it. */
#ifndef MPIMARK_PATTERNS_H
#define MPIMARK_PATTERNS_H

#include <stddef.h>

/* Process counts of the sweep: npmin, 2*npmin, 4*npmin, ... below P, then P.
 * even: round to even counts (Uniband/Biband pair the processes).
 * Returns how many were written to out (at most max). */
int np_list(int npmin, int P, int even, int *out, int max);

/* The root of iteration iter (counted from 0 in each timed loop):
 * 0 without -root_shift, iter mod np with it. */
int root_of_iteration(long iter, int root_shift, int np);

/* Elements rank i receives when L elements are split over np processes as
 * evenly as possible: r+1 for i < s, r for i >= s, where L = r*np + s. */
size_t split_count(size_t L, int np, int i);
/* Offset, in elements, of rank i's part of that split. */
size_t split_offset(size_t L, int np, int i);

/* The ordering key of world rank w under -map PxQ (IMB: the ranks of a PxQ
 * grid taken column-wise); w itself when P or Q is 1. */
int map_key(int w, int P, int Q);

/* Group of world rank w when groups of np processes are formed from P world
 * ranks. multi: -multi given (several groups run at once); otherwise only
 * group 0 exists. Returns the group index, or -1 when w idles. */
int group_of_rank(int w, int P, int np, int multi, int map_p, int map_q);

/* Number of groups that run at once. */
int group_count(int P, int np, int multi);

#endif
