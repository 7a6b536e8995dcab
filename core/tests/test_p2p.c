/* IMB-P2P's arithmetic and command line (suites/p2p): iterations, the
 * random pairs and ring, the partner, the stencils' grids and neighbours. */
#include "check.h"
#include "suites/p2p/p2p_options.h"
#include "suites/p2p/p2p_plan.h"

#include <string.h>

static void iterations(void) {
  size_t n, w;
  p2p_iterations(0, 800u << 20, 100000, &n, &w);
  CHECK_EQ_LONG(n, 100000);
  CHECK_EQ_LONG(w, 10000);
  p2p_iterations(4 << 20, 800u << 20, 100000, &n, &w);   /* 800 MiB / 4 MiB */
  CHECK_EQ_LONG(n, 200);
  CHECK_EQ_LONG(w, 20);
  p2p_iterations(3, 10, 1000, &n, &w);                   /* round(3.33) */
  CHECK_EQ_LONG(n, 3);
  CHECK_EQ_LONG(w, 1);                                   /* a tenth is 0: at least 1 */
  p2p_iterations(1000, 10, 1000, &n, &w);                /* below 1: 1, no warm-up */
  CHECK_EQ_LONG(n, 1);
  CHECK_EQ_LONG(w, 0);
}

static void random_pairs(void) {
  uint64_t seed = 0;
  /* The sequence is IMB-P2P's: the same on every rank, distinct pair members. */
  uint32_t first = p2p_next_random(&seed);
  CHECK_EQ_LONG(first, (uint32_t)(4343336064253945357ull >> 24));
  int seen[4][4] = {{0}};
  seed = 0;
  for (int i = 0; i < 4000; i++) {
    int a, b;
    p2p_random_pair(&seed, 4, &a, &b);
    CHECK(a != b && a >= 0 && a < 4 && b >= 0 && b < 4);
    seen[a][b]++;
  }
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) CHECK(a == b ? seen[a][b] == 0 : seen[a][b] > 100);
}

static void ring(void) {
  int ring[5], from[5], to[5];
  uint64_t seeds[5];
  /* Every rank shuffles the same ring; predecessor and successor agree. */
  for (int r = 0; r < 5; r++) {
    for (int i = 0; i < 5; i++) ring[i] = i;
    seeds[r] = 0;
    p2p_ring_step(&seeds[r], ring, 5, r, &from[r], &to[r]);
  }
  for (int r = 0; r < 5; r++) {
    CHECK(from[r] != r && to[r] != r);
    CHECK_EQ_LONG(from[to[r]], r);
  }
}

static void grids(void) {
  int x, y, z, nb[6];
  CHECK_EQ_LONG(p2p_partner(0, 4), 2);
  CHECK_EQ_LONG(p2p_partner(3, 4), 1);
  CHECK(p2p_grid2d(2, &x, &y) != 0);
  CHECK(p2p_grid2d(3, &x, &y) != 0);
  CHECK(p2p_grid2d(7, &x, &y) != 0);
  CHECK(p2p_grid2d(4, &x, &y) == 0 && x == 2 && y == 2);
  CHECK(p2p_grid2d(6, &x, &y) == 0 && x == 2 && y == 3);
  CHECK(p2p_grid2d(12, &x, &y) == 0 && x == 3 && y == 4);
  CHECK(p2p_grid2d(16, &x, &y) == 0 && x == 4 && y == 4);
  p2p_neighbours2d(0, 4, 3, nb);   /* rank 0 of a 4 x 3 torus: x-1, x+1, y-1, y+1 */
  CHECK(nb[0] == 3 && nb[1] == 1 && nb[2] == 8 && nb[3] == 4);
  p2p_neighbours2d(5, 4, 3, nb);
  CHECK(nb[0] == 4 && nb[1] == 6 && nb[2] == 1 && nb[3] == 9);
  CHECK(p2p_grid3d(4, &x, &y, &z) != 0);
  CHECK(p2p_grid3d(8, &x, &y, &z) == 0 && x == 2 && y == 2 && z == 2);
  CHECK(p2p_grid3d(12, &x, &y, &z) == 0 && x * y * z == 12 && x >= 2 && y >= 2 && z >= 2);
  CHECK(p2p_grid3d(27, &x, &y, &z) == 0 && x == 3 && y == 3 && z == 3);
  p2p_neighbours3d(0, 2, 2, 2, nb);
  CHECK(nb[0] == 1 && nb[1] == 1 && nb[2] == 2 && nb[3] == 2 && nb[4] == 4 && nb[5] == 4);
  p2p_neighbours3d(13, 3, 3, 3, nb);   /* the centre of 3 x 3 x 3 */
  CHECK(nb[0] == 12 && nb[1] == 14 && nb[2] == 10 && nb[3] == 16 && nb[4] == 4 && nb[5] == 22);
}

static int parse(p2p_options_t *o, const char *line, char *err) {
  static char buf[512];
  char *argv[32];
  int argc = 0;
  snprintf(buf, sizeof(buf), "%s", line);
  for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) argv[argc++] = t;
  p2p_options_defaults(o);
  return p2p_options_parse(o, argc, argv, 2, err, 512);
}

static void options(void) {
  p2p_options_t o;
  char err[512];
  CHECK(parse(&o, "core p2p", err) == 0);
  CHECK_EQ_LONG(o.n_sizes, 24);                      /* 0, 1, ..., 4 MiB */
  CHECK_EQ_LONG(o.sizes[23], 4 << 20);
  CHECK(o.iter_max == 100000 && o.numerator == (size_t)800 << 20 && o.pause_usec == 100000);
  CHECK(parse(&o, "core p2p -msglog 3", err) == 0 && o.n_sizes == 5 && o.sizes[0] == 0 && o.sizes[4] == 8);
  CHECK(parse(&o, "core p2p -msglog 2:4", err) == 0 && o.n_sizes == 3 && o.sizes[0] == 4);
  CHECK(parse(&o, "core p2p -msgsz 5k -msgsz 7", err) == 0 && o.n_sizes == 2 && o.sizes[0] == 5120);
  CHECK(parse(&o, "core p2p -iter 10,2 -pause 0 -msgwr off PingPong,Stencil2D Corandom", err) == 0);
  CHECK(o.iter_max == 10 && o.numerator == 2u << 20 && o.pause_usec == 0 && !o.touch_send && o.touch_recv);
  CHECK(o.n_names == 3 && !strcmp(o.names[1], "Stencil2D"));
  CHECK(parse(&o, "core p2p -check -json x.jsonl", err) == 0 && o.check && !strcmp(o.json_path, "x.jsonl"));
  CHECK(parse(&o, "core p2p -help msglog", err) == 0 && o.help && !strcmp(o.help_topic, "msglog"));
  CHECK(parse(&o, "core p2p -msglog 3:2", err) != 0 && strstr(err, "-msglog"));
  CHECK(parse(&o, "core p2p -msglog 48", err) != 0);
  CHECK(parse(&o, "core p2p -iter 0", err) != 0 && strstr(err, "-iter"));
  CHECK(parse(&o, "core p2p -msgrd maybe", err) != 0 && strstr(err, "-msgrd"));
  CHECK(parse(&o, "core p2p -time 1", err) != 0 && strstr(err, "unknown option"));
  CHECK(parse(&o, "core p2p -msglen /nonexistent/file", err) != 0 && strstr(err, "-msglen"));
  CHECK(parse(&o, "core p2p -msgsz", err) != 0 && strstr(err, "needs a value"));
}

int main(void) {
  iterations();
  random_pairs();
  ring();
  grids();
  options();
  TEST_MAIN_END();
}
