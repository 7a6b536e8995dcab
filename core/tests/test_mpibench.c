/* mpiBench arithmetic: byte strings, size ladder, -m cap, time-limited
 * iterations, -p halving partitions, -d Cartesian split, v-collective counts. */
#include "check.h"
#include "tools/mpibench/mpib_calc.h"

int main(void) {
  size_t v = 99;
  CHECK(mpib_parse_bytes("0", &v) == 0 && v == 0);
  CHECK(mpib_parse_bytes("1024", &v) == 0 && v == 1024);
  CHECK(mpib_parse_bytes("32K", &v) == 0 && v == 32768);
  CHECK(mpib_parse_bytes("32k", &v) == 0 && v == 32768);
  CHECK(mpib_parse_bytes("64M", &v) == 0 && v == 67108864);
  CHECK(mpib_parse_bytes("1G", &v) == 0 && v == 1073741824);
  CHECK(mpib_parse_bytes("2.5kb", &v) == 0 && v == 2560);        /* 2.5 * 1024 */
  CHECK(mpib_parse_bytes(".5GB", &v) == 0 && v == 536870912);    /* half of 2^30 */
  CHECK(mpib_parse_bytes("10KB", &v) == 0 && v == 10240);
  CHECK(mpib_parse_bytes("1.7", &v) == 0 && v == 1);             /* truncated to whole bytes */
  CHECK(mpib_parse_bytes("", &v) == -1);
  CHECK(mpib_parse_bytes("-5", &v) == -1);
  CHECK(mpib_parse_bytes("K", &v) == -1);
  CHECK(mpib_parse_bytes("12Q", &v) == -1);
  CHECK(mpib_parse_bytes("7b", &v) == -1);                       /* b only after a unit */
  CHECK(mpib_parse_bytes("1.2.3", &v) == -1);
  CHECK(mpib_parse_bytes("0x10", &v) == -1);
  CHECK(mpib_parse_bytes("1e3", &v) == -1);
  CHECK(mpib_parse_bytes("4KBx", &v) == -1);

  /* Sizes 0, 1, 2, 4, ... and from any start doubling. */
  CHECK_EQ_LONG(mpib_next_size(0), 1);
  CHECK_EQ_LONG(mpib_next_size(1), 2);
  CHECK_EQ_LONG(mpib_next_size(3), 6);

  /* -m: 256K * 4096 ranks * 2 = 2 GiB > 1 GiB, halved once. */
  CHECK_EQ_LONG(mpib_cap_stop(262144, 4096, 1073741824), 131072);
  CHECK_EQ_LONG(mpib_cap_stop(262144, 2, 1073741824), 262144);
  CHECK_EQ_LONG(mpib_cap_stop(1024, 2, 100), 16);                 /* 16*2*2 = 64 <= 100 */
  CHECK_EQ_LONG(mpib_cap_stop(1024, 2, 0), 0);

  /* -p: halve while >= partsize. */
  int sz[32];
  CHECK_EQ_LONG(mpib_partition_levels(8, 2, sz, 32), 3);
  CHECK_EQ_LONG(sz[0], 8);
  CHECK_EQ_LONG(sz[1], 4);
  CHECK_EQ_LONG(sz[2], 2);
  CHECK_EQ_LONG(mpib_partition_levels(6, 2, sz, 32), 2);          /* 6, 3; 1 < 2 stops */
  CHECK_EQ_LONG(sz[1], 3);
  CHECK_EQ_LONG(mpib_partition_levels(4, 5, sz, 32), 0);
  CHECK_EQ_LONG(mpib_partition_levels(4, 0, sz, 32), 0);
  CHECK_EQ_LONG(mpib_partition_levels(1024, 1, sz, 32), 11);      /* 1024 .. 1 */
  /* 5 ranks, level size 2: groups {0,1} {2,3} {4}. */
  CHECK_EQ_LONG(mpib_partition_color(4, 2), 2);
  CHECK_EQ_LONG(mpib_partition_color(3, 2), 1);
  CHECK_EQ_LONG(mpib_partition_groups(5, 2), 3);
  CHECK_EQ_LONG(mpib_partition_groups(8, 4), 2);

  /* -d: row-major grid. dims 3x2: rank 5 is (2,1). */
  int dims2[2] = {3, 2}, c[3], color, key;
  mpib_cart_coords(5, 2, dims2, c);
  CHECK_EQ_LONG(c[0], 2);
  CHECK_EQ_LONG(c[1], 1);
  mpib_cart_split(5, 2, dims2, 0, &color, &key);   /* along x: ranks 1,3,5 share y = 1 */
  CHECK_EQ_LONG(color, 1);
  CHECK_EQ_LONG(key, 2);
  mpib_cart_split(3, 2, dims2, 0, &color, &key);
  CHECK_EQ_LONG(color, 1);
  CHECK_EQ_LONG(key, 1);
  mpib_cart_split(5, 2, dims2, 1, &color, &key);   /* along y: ranks 4,5 share x = 2 */
  CHECK_EQ_LONG(color, 2);
  CHECK_EQ_LONG(key, 1);
  CHECK_EQ_LONG(mpib_cart_groups(6, dims2, 0), 2);
  CHECK_EQ_LONG(mpib_cart_groups(6, dims2, 1), 3);
  int dims3[3] = {2, 2, 2};
  mpib_cart_coords(6, 3, dims3, c);                 /* 6 = 110b */
  CHECK_EQ_LONG(c[0], 1);
  CHECK_EQ_LONG(c[1], 1);
  CHECK_EQ_LONG(c[2], 0);
  mpib_cart_split(6, 3, dims3, 1, &color, &key);
  CHECK_EQ_LONG(color, 2);                          /* (x=1, z=0) -> 1*2+0 */
  CHECK_EQ_LONG(key, 1);
  /* Every rank of a 4x3x2 grid lands in exactly one line per dimension, keys 0..dims[d]-1. */
  int dims4[3] = {4, 3, 2};
  for (int d = 0; d < 3; d++) {
    int seen[64] = {0};
    for (int r = 0; r < 24; r++) {
      mpib_cart_split(r, 3, dims4, d, &color, &key);
      CHECK(color >= 0 && color < mpib_cart_groups(24, dims4, d));
      CHECK(key >= 0 && key < dims4[d]);
      seen[color * 4 + key]++;
    }
    for (int i = 0; i < 64; i++) CHECK(seen[i] <= 1);
  }

  /* v-collective counts: count 10 over 4 ranks, chunk 2. */
  CHECK_EQ_LONG(mpib_chunk(10, 4), 2);
  CHECK_EQ_LONG(mpib_chunk(1, 4), 1);
  CHECK_EQ_LONG(mpib_chunk(0, 4), 1);
  CHECK_EQ_LONG(mpib_alltoallv_count(3, 2, 2, 10), 10);           /* 10 % 11 */
  CHECK_EQ_LONG(mpib_alltoallv_count(3, 3, 2, 10), 1);            /* 12 % 11 */
  CHECK_EQ_LONG(mpib_alltoallv_count(0, 0, 2, 10), 0);
  CHECK_EQ_LONG(mpib_gatherv_count(3, 2, 10), 6);
  CHECK_EQ_LONG(mpib_gatherv_count(2, 1, 0), 0);                  /* 0-byte size: all 0 */
  for (int i = 0; i < 8; i++)
    for (int r = 0; r < 8; r++) {
      CHECK(mpib_alltoallv_count(i, r, 3, 25) <= 25);
      CHECK_EQ_LONG(mpib_alltoallv_count(i, r, 3, 25), mpib_alltoallv_count(r, i, 3, 25));
    }

  TEST_MAIN_END();
}
