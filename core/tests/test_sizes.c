/* Size lists of -msglog, -msglen and -msgsize, with IMB's rounding to the unit. */
#include "check.h"
#include "util/options.h"
#include "util/sizes.h"

#include <string.h>

static options_t base(void) {
  options_t o;
  options_defaults(&o, "mpi1");
  return o;
}

int main(void) {
  size_t s[64];
  options_t o = base();
  /* Default -msglog 0:22 with MPI_BYTE: 0, 1, 2, ..., 4 MiB (24 sizes). */
  int n = sizes_build(&o, 1, s, 64);
  CHECK_EQ_LONG(n, 24);
  CHECK_EQ_LONG(s[0], 0);
  CHECK_EQ_LONG(s[1], 1);
  CHECK_EQ_LONG(s[23], 4194304);

  /* Reductions with 4-byte floats: 1 and 2 round up to 4 and merge, so 0, 4, 8, ... */
  n = sizes_build(&o, 4, s, 64);
  CHECK_EQ_LONG(n, 22);
  CHECK_EQ_LONG(s[1], 4);
  CHECK_EQ_LONG(s[2], 8);
  CHECK_EQ_LONG(s[21], 4194304);

  /* -msglog 3:5 -zero_size off. */
  o = base();
  char *argv1[] = {"x", "mpi1", "-msglog", "3:5", "-zero_size", "off"};
  char err[OPT_ERR_LEN];
  CHECK(options_parse(&o, 6, argv1, 2, err, sizeof err) == 0);
  n = sizes_build(&o, 1, s, 64);
  CHECK_EQ_LONG(n, 3);
  CHECK_EQ_LONG(s[0], 8);
  CHECK_EQ_LONG(s[2], 32);

  /* -msglog 5 means 0:5. */
  o = base();
  char *argv2[] = {"x", "mpi1", "-msglog", "5"};
  CHECK(options_parse(&o, 4, argv2, 2, err, sizeof err) == 0);
  n = sizes_build(&o, 1, s, 64);
  CHECK_EQ_LONG(n, 7);
  CHECK_EQ_LONG(s[6], 32);

  /* -msgsize keeps the order given, rounds up to the unit and keeps duplicates (as IMB). */
  o = base();
  char *argv3[] = {"x", "mpi1", "-msgsize", "1k,0,3,5,4,1m"};
  CHECK(options_parse(&o, 4, argv3, 2, err, sizeof err) == 0);
  n = sizes_build(&o, 4, s, 64);
  CHECK_EQ_LONG(n, 6);
  CHECK_EQ_LONG(s[0], 1024);
  CHECK_EQ_LONG(s[1], 0);
  CHECK_EQ_LONG(s[2], 4);
  CHECK_EQ_LONG(s[3], 8);
  CHECK_EQ_LONG(s[4], 4);
  CHECK_EQ_LONG(s[5], 1048576);
  n = sizes_build(&o, 1, s, 64);
  CHECK_EQ_LONG(n, 6);
  CHECK_EQ_LONG(s[5], 1048576);
  /* The example: -msgsize 1,2,3,4,5 of a float reduction measures 4,4,4,4,8. */
  o = base();
  char *argv3b[] = {"x", "mpi1", "-msgsize", "1,2,3,4,5"};
  CHECK(options_parse(&o, 4, argv3b, 2, err, sizeof err) == 0);
  n = sizes_build(&o, 4, s, 64);
  CHECK_EQ_LONG(n, 5);
  CHECK_EQ_LONG(s[0] + s[1] + s[2] + s[3], 16);
  CHECK_EQ_LONG(s[4], 8);

  /* -msglen file: comments, blank lines and suffixes. */
  o = base();
  char *argv4[] = {"x", "mpi1", "-msglen", "data/lengths.txt"};
  CHECK(options_parse(&o, 4, argv4, 2, err, sizeof err) == 0);
  n = sizes_build(&o, 1, s, 64);
  CHECK_EQ_LONG(n, 4);
  CHECK_EQ_LONG(s[0], 0);
  CHECK_EQ_LONG(s[1], 100);
  CHECK_EQ_LONG(s[2], 2048);
  CHECK_EQ_LONG(s[3], 3145728);
  /* -zero_size off leaves an explicit 0 of a list in, as IMB. */
  o.zero_size = 0;
  CHECK_EQ_LONG(sizes_build(&o, 1, s, 64), 4);
  CHECK_EQ_LONG(s[0], 0);

  /* Beyond 2^31: -msglog 31:32 gives sizes past INT_MAX. */
  o = base();
  char *argv5[] = {"x", "mpi1", "-msglog", "31:32"};
  CHECK(options_parse(&o, 4, argv5, 2, err, sizeof err) == 0);
  n = sizes_build(&o, 1, s, 64);
  CHECK_EQ_LONG(n, 3);
  CHECK(s[2] == (size_t)1 << 32);
  TEST_MAIN_END();
}
