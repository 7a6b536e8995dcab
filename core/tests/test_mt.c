/* IMB-MT's pairing and command line (suites/mt). */
#include "check.h"
#include "suites/mt/mt_options.h"
#include "suites/mt/mt_plan.h"

#include <string.h>

static void pairs(void) {
  int s, g;
  /* Two processes: stride 1, 0 and 1 pair. */
  CHECK(mt_pairs(0, 2, 0, &s, &g) && s == 1 && g == 0);
  CHECK(mt_pairs(1, 2, 0, &s, &g) && s == 1 && g == 1);
  /* Three: stride 1; rank 2 has no partner and idles. */
  CHECK(mt_pairs(0, 3, 0, &s, &g) && mt_pairs(1, 3, 0, &s, &g));
  CHECK(!mt_pairs(2, 3, 0, &s, &g));
  CHECK_EQ_LONG(mt_pair_ranks(3, 0), 2);
  /* Four, stride 2: 0-2 and 1-3; stride 1: 0-1, 2-3. */
  CHECK(mt_pairs(1, 4, 0, &s, &g) && s == 2 && g == 0);
  CHECK(mt_pairs(3, 4, 0, &s, &g) && g == 1);
  CHECK(mt_pairs(2, 4, 1, &s, &g) && s == 1 && g == 2);
  CHECK_EQ_LONG(mt_pair_ranks(4, 1), 4);
  /* Six with stride 2: groups 0,1 pair; groups 2 (ranks 4, 5) lack their double and idle. */
  CHECK_EQ_LONG(mt_pair_ranks(6, 2), 4);
  CHECK(!mt_pairs(5, 6, 2, &s, &g));
  /* A stride beyond half the processes, and one process: nobody. */
  CHECK_EQ_LONG(mt_pair_ranks(4, 3), 0);
  CHECK_EQ_LONG(mt_pair_ranks(1, 0), 0);
}

static int parse(mt_options_t *o, const char *line, char *err) {
  static char buf[512];
  char *argv[32];
  int argc = 0;
  snprintf(buf, sizeof(buf), "%s", line);
  for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) argv[argc++] = t;
  mt_options_defaults(o);
  return mt_options_parse(o, argc, argv, 2, err, 512);
}

static void options(void) {
  mt_options_t o;
  char err[512];
  CHECK(parse(&o, "core mt", err) == 0);
  CHECK(o.n_counts == 4 && o.counts[3] == 8 && o.repeat == 1000 && o.warmup == 100 && o.window_size == 64);
  CHECK(o.barrier == MT_BARRIER_ON && o.datatype == DT_INT && o.thread_level == THREAD_SINGLE && !o.check);
  CHECK(parse(&o, "core mt -thread_level multiple -count 1,16 -repeat 5 -warmup 0 -barrier special PingPongMT", err) == 0);
  CHECK(o.thread_level == THREAD_MULTIPLE && o.n_counts == 2 && o.counts[1] == 16 && o.repeat == 5 && o.warmup == 0);
  CHECK(o.barrier == MT_BARRIER_SPECIAL && o.n_names == 1);
  CHECK(parse(&o, "core mt -check on -malloc_algo parallel -malloc_align 128 -include BcastMT -exclude ReduceMT", err) == 0);
  CHECK(o.check && o.malloc_algo == MT_MALLOC_PARALLEL && o.malloc_align == 128 && o.n_include == 1 && o.n_exclude == 1);
  CHECK(parse(&o, "core mt -check -noheader -datatype char", err) != 0 && strstr(err, "int"));
  CHECK(parse(&o, "core mt -datatype char -noheader", err) == 0 && o.datatype == DT_CHAR && o.noheader);
  CHECK(parse(&o, "core mt -barrier maybe", err) != 0 && strstr(err, "-barrier"));
  CHECK(parse(&o, "core mt -count 1,x", err) != 0 && strstr(err, "-count"));
  CHECK(parse(&o, "core mt -repeat 0", err) != 0);
  CHECK(parse(&o, "core mt -malloc_align 48", err) != 0 && strstr(err, "power of two"));
  CHECK(parse(&o, "core mt -thread_level many", err) != 0 && strstr(err, "-thread_level"));
  CHECK(parse(&o, "core mt -msglog 3", err) != 0 && strstr(err, "unknown option"));
  /* -input as IMB's imb.cpp: the first word of a line, '#' lines skipped, a blank line repeats
   * the name before it; the file's names come after those on the command line. */
  CHECK(parse(&o, "core mt BarrierMT -input data/input_mt.txt", err) == 0);
  CHECK(o.n_names == 4 && strcmp(o.names[0], "BarrierMT") == 0 && strcmp(o.names[1], "PingPongMT") == 0 &&
        strcmp(o.names[2], "PingPongMT") == 0 && strcmp(o.names[3], "AllReduceMT") == 0);
  CHECK(parse(&o, "core mt -input data/empty.txt", err) != 0 && strstr(err, "names no benchmark"));
  CHECK(parse(&o, "core mt -input data/no-such-file", err) != 0 && strstr(err, "cannot read the -input file"));
}

int main(void) {
  pairs();
  options();
  TEST_MAIN_END();
}
