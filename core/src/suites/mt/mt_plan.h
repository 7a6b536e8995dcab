/* IMB-MT's pairing, free of MPI so CTest can check it (docs/mt.md): with
 * stride s (0: half the processes), rank r belongs to group r / s; even
 * groups pair with the rank s above, odd with the rank s below. The pair
 * benchmarks leave out the ranks of a last, incomplete double group. */
#ifndef MPIMARK_MT_PLAN_H
#define MPIMARK_MT_PLAN_H

/* Whether rank r of size takes part in a pair benchmark; *stride gets the
 * effective stride and *group r's group (also when r does not). */
int mt_pairs(int rank, int size, int stride_option, int *stride, int *group);

/* How many of size ranks take part in a pair benchmark. */
int mt_pair_ranks(int size, int stride_option);

#endif
