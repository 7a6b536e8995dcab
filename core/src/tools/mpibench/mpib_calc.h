/* mpiBench's arithmetic, free of MPI so CTest can check it (docs/mpibench.md):
 * byte strings, the size ladder, the buffer cap, the -p halving partitions,
 * the -d Cartesian split and the irregular counts of the v-collectives
 * (the time-limited iteration count is util/iterations.c's). */
#ifndef MPIMARK_MPIB_CALC_H
#define MPIMARK_MPIB_CALC_H

#include <stddef.h>

#define MPIB_MAX_DIMS 16

/* mpiBench's <byte>: a decimal number (fractions allowed: 2.5K, .5G) with an
 * optional k/K, m/M or g/G (base 1024) and an optional b/B after it; the
 * product is truncated to whole bytes. 0 or -1 (negative, empty, garbage). */
int mpib_parse_bytes(const char *s, size_t *out);

/* The next size of the ladder: 0 -> 1, s -> 2s. */
size_t mpib_next_size(size_t s);

/* The -m cap: the stop size halved while stop * nprocs * 2 > mem_limit. */
size_t mpib_cap_stop(size_t stop, int nprocs, size_t mem_limit);

/* -p: number of halving levels while the current size >= partsize, starting
 * at nprocs (0 when partsize <= 0); sizes[i] = nprocs >> i. */
int mpib_partition_levels(int nprocs, int partsize, int *sizes, int max);
/* The group of a rank at a level of size cur: rank / cur. */
int mpib_partition_color(int rank, int cur);
/* Number of groups at that level: ceil(nprocs / cur). */
int mpib_partition_groups(int nprocs, int cur);

/* -d: coordinates of rank in a row-major (last dimension fastest) grid, as
 * MPI_Cart_create without reordering numbers it. */
void mpib_cart_coords(int rank, int ndims, const int *dims, int *coords);
/* The 1-D sub-communicator along dimension d (MPI_Cart_sub keeping only d):
 * color = the row-major index of the other coordinates, key = coords[d]. */
void mpib_cart_split(int rank, int ndims, const int *dims, int d, int *color, int *key);
/* Number of such sub-communicators: nprocs / dims[d]. */
int mpib_cart_groups(int nprocs, const int *dims, int d);

/* v-collectives: chunk = count / nranks (at least 1). Alltoallv: rank sends
 * ((i + rank) * chunk) % (count + 1) elements to rank i and receives as many
 * from it. Allgatherv/Gatherv: rank i contributes (i * chunk) % (count + 1). */
int mpib_chunk(int count, int nranks);
int mpib_alltoallv_count(int i, int rank, int chunk, int count);
int mpib_gatherv_count(int i, int chunk, int count);

#endif
