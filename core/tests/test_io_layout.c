/* IMB-IO file layout: rank portions, sections, offsets of the tiled view, file names. */
#include "check.h"
#include "suites/io/layout.h"

#include <string.h>

int main(void) {
  size_t p, l;
  /* X = 16 over 3 ranks in 4-byte units: 2,1,1 units. */
  io_portion(0, 3, 16, 4, &p, &l);
  CHECK_EQ_LONG(p, 0);
  CHECK_EQ_LONG(l, 8);
  io_portion(1, 3, 16, 4, &p, &l);
  CHECK_EQ_LONG(p, 8);
  CHECK_EQ_LONG(l, 4);
  io_portion(2, 3, 16, 4, &p, &l);
  CHECK_EQ_LONG(p, 12);
  CHECK_EQ_LONG(l, 4);
  /* The last portion is cut at X: 6 bytes over 2 ranks are 4 + 2. */
  io_portion(0, 2, 6, 4, &p, &l);
  CHECK_EQ_LONG(l, 4);
  io_portion(1, 2, 6, 4, &p, &l);
  CHECK_EQ_LONG(p, 4);
  CHECK_EQ_LONG(l, 2);
  /* 1 byte over 3 ranks: rank 0 has it, the others nothing (pos1 = X). */
  io_portion(0, 3, 1, 4, &p, &l);
  CHECK_EQ_LONG(l, 1);
  io_portion(2, 3, 1, 4, &p, &l);
  CHECK_EQ_LONG(p, 1);
  CHECK_EQ_LONG(l, 0);
  io_portion(0, 1, 0, 4, &p, &l);
  CHECK_EQ_LONG(l, 0);
  /* One process (S_) gets all of X; 8-byte units for doubles. */
  io_portion(0, 1, 1048576, 4, &p, &l);
  CHECK_EQ_LONG(l, 1048576);
  io_portion(1, 2, 24, 8, &p, &l);
  CHECK_EQ_LONG(p, 16);
  CHECK_EQ_LONG(l, 8);
  /* The portions tile X exactly, whatever X and np. */
  for (size_t X = 0; X < 200; X++)
    for (int np = 1; np <= 7; np++) {
      size_t next = 0;
      for (int r = 0; r < np; r++) {
        io_portion(r, np, X, 4, &p, &l);
        if (l > 0) CHECK_EQ_LONG(p, next);
        next += l;
      }
      CHECK_EQ_LONG(next, X);
    }

  /* Sections: x_sample, capped by volume / X, at least 1. */
  CHECK_EQ_LONG(io_sections(0, 50, 16777216.0), 1);
  CHECK_EQ_LONG(io_sections(1, 50, 16777216.0), 50);
  CHECK_EQ_LONG(io_sections(1048576, 50, 16777216.0), 16);
  CHECK_EQ_LONG(io_sections(1048576, 10, 16777216.0), 10);
  CHECK_EQ_LONG(io_sections(16777216, 50, 16777216.0), 1);
  CHECK_EQ_LONG(io_sections(33554432, 50, 16777216.0), 1);

  /* Offsets: section k of a shared file, of a private file. */
  CHECK_EQ_LONG(io_shared_offset(16, 8, 0), 8);
  CHECK_EQ_LONG(io_shared_offset(16, 8, 3), 56);
  CHECK_EQ_LONG(io_private_offset(4, 3), 12);
  /* The tiled view of rank 1 (4 bytes at 8 of every 16): view byte 0 is file
   * byte 8, view byte 4 starts the next tile at 24, view byte 6 is 26. */
  CHECK_EQ_LONG(io_view_to_file(0, 16, 8, 4), 8);
  CHECK_EQ_LONG(io_view_to_file(3, 16, 8, 4), 11);
  CHECK_EQ_LONG(io_view_to_file(4, 16, 8, 4), 24);
  CHECK_EQ_LONG(io_view_to_file(6, 16, 8, 4), 26);
  /* Sequential writes of len bytes through the view land where the
   * explicit-offset flavour puts section k. */
  for (long k = 0; k < 5; k++) CHECK_EQ_LONG(io_view_to_file((size_t)k * 4, 16, 8, 4), io_shared_offset(16, 8, k));

  /* File names. */
  char b[64];
  CHECK(io_file_name(b, sizeof(b), "", -1, -1) == 0 && strcmp(b, "IMB_out") == 0);
  CHECK(io_file_name(b, sizeof(b), "/scratch/x", -1, -1) == 0 && strcmp(b, "/scratch/x/IMB_out") == 0);
  CHECK(io_file_name(b, sizeof(b), "/scratch/x/", -1, 3) == 0 && strcmp(b, "/scratch/x/IMB_out_3") == 0);
  CHECK(io_file_name(b, sizeof(b), "d", 2, -1) == 0 && strcmp(b, "d/IMB_out_g2") == 0);
  CHECK(io_file_name(b, sizeof(b), "d", 1, 5) == 0 && strcmp(b, "d/IMB_out_g1_5") == 0);
  CHECK(io_file_name(b, 8, "d", -1, -1) == -1);
  CHECK(strcmp(io_posix_path("ufs:/tmp/a"), "/tmp/a") == 0);
  CHECK(strcmp(io_posix_path("lustre:/scratch"), "/scratch") == 0);
  CHECK(strcmp(io_posix_path("/tmp/a:b"), "/tmp/a:b") == 0);
  CHECK(strcmp(io_posix_path("c:dir"), "c:dir") == 0);
  CHECK(strcmp(io_posix_path("dir"), "dir") == 0);
  /* Leftovers of a killed run: ours and the MPI-IO libraries' companions. */
  CHECK(io_is_leftover("IMB_out"));
  CHECK(io_is_leftover("IMB_out_g1"));
  CHECK(io_is_leftover("IMB_out_12"));
  CHECK(io_is_leftover("IMB_out_g0_3"));
  CHECK(io_is_leftover(".IMB_out.shfp.3016785223.7611"));
  CHECK(io_is_leftover(".IMB_out_g2.shfp.1.2"));
  CHECK(io_is_leftover("IMB_out.locktest.0"));
  CHECK(io_is_leftover("IMB_out.probe_4"));
  CHECK(io_is_leftover("IMB_out-77-123.lock"));
  CHECK(!io_is_leftover("IMB_outline.txt"));
  CHECK(!io_is_leftover("IMB_out_x"));
  CHECK(!io_is_leftover("IMB_out_g"));
  CHECK(!io_is_leftover("my_IMB_out"));
  CHECK(!io_is_leftover(".IMB_out"));
  CHECK(!io_is_leftover(".IMB_out_rc"));
  CHECK(!io_is_leftover("results.txt"));
  TEST_MAIN_END();
}
