/* IMB-P2P's arithmetic, free of MPI so CTest can check it: iterations per
 * size, the pseudo-random sequence that picks Unirandom/Birandom's pairs and
 * shuffles Corandom's ring, PingPong/PingPing's partner, and the 2-D and 3-D
 * periodic grids of the stencils with their neighbours (docs/p2p.md). */
#ifndef MPIMARK_P2P_PLAN_H
#define MPIMARK_P2P_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* Timed iterations for a size: round(numerator / size), at most max, at
 * least 1; max for size 0. Warm-up: a tenth of that, at least 1 when the
 * timed count exceeds 1. */
void p2p_iterations(size_t size, size_t numerator, size_t max, size_t *n, size_t *warm_up);

/* The next value of IMB-P2P's linear congruential sequence (seed starts at 0
 * for every timed loop and every warm-up). */
uint32_t p2p_next_random(uint64_t *seed);

/* One transfer step of Unirandom/Birandom: two distinct ranks of nranks
 * (>= 2), r0 the sender (Unirandom) drawn first, then r1 != r0. */
void p2p_random_pair(uint64_t *seed, int nranks, int *r0, int *r1);

/* Corandom's step: shuffles ring (a permutation of 0..nranks-1) in place,
 * one swap per position with a drawn partner; then *from and *to are the
 * ranks before and after `rank` on the ring. */
void p2p_ring_step(uint64_t *seed, int *ring, int nranks, int rank, int *from, int *to);

/* PingPong, PingPing: rank r pairs with r + nranks/2 (mod nranks); valid for
 * an even nranks >= 2. */
int p2p_partner(int rank, int nranks);

/* Stencil2D's grid: lx * ly == nranks with both >= 2, as square as IMB
 * makes it. Returns 0, or -1 when nranks has no such grid (the benchmark is
 * invalid there). */
int p2p_grid2d(int nranks, int *lx, int *ly);
/* The 4 periodic neighbours of rank on that grid: x-1, x+1, y-1, y+1. */
void p2p_neighbours2d(int rank, int lx, int ly, int out[4]);

/* Stencil3D's grid: lx * ly * lz == nranks, each >= 2. 0 or -1. */
int p2p_grid3d(int nranks, int *lx, int *ly, int *lz);
/* The 6 periodic neighbours: x-1, x+1, y-1, y+1, z-1, z+1. */
void p2p_neighbours3d(int rank, int lx, int ly, int lz, int out[6]);

#endif
