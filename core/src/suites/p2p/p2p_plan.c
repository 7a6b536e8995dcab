#include "suites/p2p/p2p_plan.h"

#include <math.h>

void p2p_iterations(size_t size, size_t numerator, size_t max, size_t *n, size_t *warm_up) {
  size_t k = max;
  if (size > 0) {
    double q = round((double)numerator / (double)size);
    k = q > (double)max ? max : q < 1 ? 1 : (size_t)q;
  }
  size_t w = k / 10;
  if (w == 0 && k > 1) w = 1;
  *n = k;
  *warm_up = w;
}

uint32_t p2p_next_random(uint64_t *seed) {
  *seed = *seed * 7560690468208412377ull + 4343336064253945357ull;
  return (uint32_t)(*seed >> 24);
}

void p2p_random_pair(uint64_t *seed, int nranks, int *r0, int *r1) {
  *r0 = (int)(p2p_next_random(seed) % (uint32_t)nranks);
  do *r1 = (int)(p2p_next_random(seed) % (uint32_t)nranks);
  while (*r1 == *r0);
}

void p2p_ring_step(uint64_t *seed, int *ring, int nranks, int rank, int *from, int *to) {
  for (int i = 0; i < nranks; i++) {
    int j = (int)(p2p_next_random(seed) % (uint32_t)nranks);
    int r = ring[i];
    ring[i] = ring[j];
    ring[j] = r;
  }
  int i = 0;
  while (ring[i] != rank) i++;
  *from = ring[(i + nranks - 1) % nranks];
  *to = ring[(i + 1) % nranks];
}

int p2p_partner(int rank, int nranks) { return (rank + nranks / 2) % nranks; }

/* The most nearly square lx * ly == n with ly the largest divisor of n not
 * above the side of the first square that holds n. */
static void squarest(int n, int *lx, int *ly) {
  int x = 2, y = 2;
  while (x * y < n) x++, y++;
  if (x * y > n) {
    while (y > 1 && n % y) y--;
    x = n / y;
  }
  *lx = x;
  *ly = y;
}

int p2p_grid2d(int nranks, int *lx, int *ly) {
  squarest(nranks, lx, ly);
  return *lx >= 2 && *ly >= 2 && *lx * *ly == nranks ? 0 : -1;
}

static int wrap(int v, int len) { return (v + len) % len; }

void p2p_neighbours2d(int rank, int lx, int ly, int out[4]) {
  int y = rank / lx, x = rank % lx;
  out[0] = lx * y + wrap(x - 1, lx);
  out[1] = lx * y + wrap(x + 1, lx);
  out[2] = lx * wrap(y - 1, ly) + x;
  out[3] = lx * wrap(y + 1, ly) + x;
}

int p2p_grid3d(int nranks, int *lx, int *ly, int *lz) {
  int x = 2, y = 2, z = 2;
  while (x * y * z < nranks) x++, y++, z++;
  /* Lower z to a divisor of nranks, then take the squarest x*y of the rest;
   * keep that plane only while it is not flatter than z. */
  while (x * y * z > nranks) {
    z--;
    while (z > 1 && nranks % z) z--;
    int px, py;
    squarest(nranks / z, &px, &py);
    if (py >= z) x = px, y = py;
  }
  *lx = x;
  *ly = y;
  *lz = z;
  return x >= 2 && y >= 2 && z >= 2 && x * y * z == nranks ? 0 : -1;
}

void p2p_neighbours3d(int rank, int lx, int ly, int lz, int out[6]) {
  int plane = lx * ly;
  int z = rank / plane, y = (rank - plane * z) / lx, x = (rank - plane * z) % lx;
  out[0] = plane * z + lx * y + wrap(x - 1, lx);
  out[1] = plane * z + lx * y + wrap(x + 1, lx);
  out[2] = plane * z + lx * wrap(y - 1, ly) + x;
  out[3] = plane * z + lx * wrap(y + 1, ly) + x;
  out[4] = plane * wrap(z - 1, lz) + lx * y + x;
  out[5] = plane * wrap(z + 1, lz) + lx * y + x;
}
