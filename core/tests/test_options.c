/* IMB's command line: every option's spelling, its value checks, and the
 * one-line errors for bad input. */
#include "check.h"
#include "util/options.h"

#include <string.h>

static int parse(options_t *o, char **argv, int argc, char *err) {
  options_defaults(o, "mpi1");
  return options_parse(o, argc, argv, 0, err, OPT_ERR_LEN);
}

#define ARGS(...) ((char *[]){__VA_ARGS__}), (int)(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *))

int main(void) {
  options_t o;
  char err[OPT_ERR_LEN];

  /* Defaults as IMB's C++ driver has them. */
  options_defaults(&o, "mpi1");
  CHECK_EQ_LONG(o.npmin, 2);
  CHECK_EQ_LONG(o.multi, -1);
  CHECK_EQ_LONG(o.msgspersample, 1000);
  CHECK_EQ_LONG(o.msgs_nonaggr, 100);
  CHECK_NEAR(o.overall_vol_mb, 40, 0);
  CHECK_NEAR(o.time_secs, 10, 0);
  CHECK_NEAR(o.mem_gb, 1, 0);
  CHECK_EQ_LONG(o.msglog_max, 22);
  CHECK_EQ_LONG(o.sync, 1);
  CHECK_EQ_LONG(o.root_shift, 0);
  CHECK_EQ_LONG(o.window_size, 256);
  CHECK_EQ_LONG(o.red_data_type, DT_FLOAT);
  /* IMB-EXT and IMB-RMA loops have no barrier between iterations. */
  options_defaults(&o, "ext");
  CHECK_EQ_LONG(o.sync, 0);
  options_defaults(&o, "rma");
  CHECK_EQ_LONG(o.sync, 0);
  CHECK_EQ_LONG(o.aggregate_mode, AGG_BOTH);

  CHECK(parse(&o, ARGS("PingPong,Allreduce", "Bcast", "-npmin", "3", "-multi", "1", "-iter", "500,80",
                       "-iter_policy", "multiple_np", "-time", "2.5", "-mem", "0.5", "-map", "2x3",
                       "-root_shift", "on", "-sync", "OFF", "-imb_barrier", "yes", "-data_type", "double",
                       "-red_data_type", "int", "-zero_size", "off", "-warm_up", "0", "-window_size", "64",
                       "-msg_pause", "enable", "-thread_level", "multiple", "-off_cache", "-1", "-check",
                       "-json", "out.jsonl", "-include", "Uniband,Biband", "-exclude", "Barrier"), err) == 0);
  CHECK_EQ_LONG(o.n_names, 3);
  CHECK(strcmp(o.names[1], "Allreduce") == 0);
  CHECK_EQ_LONG(o.npmin, 3);
  CHECK_EQ_LONG(o.multi, 1);
  CHECK_EQ_LONG(o.msgspersample, 500);
  CHECK_NEAR(o.overall_vol_mb, 80, 0);
  CHECK_EQ_LONG(o.msgs_nonaggr, 100);
  CHECK_EQ_LONG(o.iter_policy, POLICY_MULTIPLE_NP);
  CHECK_NEAR(o.time_secs, 2.5, 0);
  CHECK_NEAR(o.mem_gb, 0.5, 0);
  CHECK_EQ_LONG(o.map_p, 2);
  CHECK_EQ_LONG(o.map_q, 3);
  CHECK_EQ_LONG(o.root_shift, 1);
  CHECK_EQ_LONG(o.sync, 0);
  CHECK_EQ_LONG(o.imb_barrier, 1);
  CHECK_EQ_LONG(o.data_type, DT_DOUBLE);
  CHECK_EQ_LONG(o.red_data_type, DT_INT);
  CHECK_EQ_LONG(o.zero_size, 0);
  CHECK_EQ_LONG(o.warm_up, 0);
  CHECK_EQ_LONG(o.window_size, 64);
  CHECK_EQ_LONG(o.msg_pause, 1);
  CHECK_EQ_LONG(o.thread_level, THREAD_MULTIPLE);
  CHECK_EQ_LONG(o.off_cache, 1);
  CHECK_NEAR(o.cache_size_mb, -1, 0);
  CHECK_EQ_LONG(o.check, 1);
  CHECK(strcmp(o.json_path, "out.jsonl") == 0);
  CHECK_EQ_LONG(o.n_include, 2);
  CHECK_EQ_LONG(o.n_exclude, 1);

  /* -iter with an empty field keeps that default. */
  CHECK(parse(&o, ARGS("-iter", ",20,7"), err) == 0);
  CHECK_EQ_LONG(o.msgspersample, 1000);
  CHECK_NEAR(o.overall_vol_mb, 20, 0);
  CHECK_EQ_LONG(o.msgs_nonaggr, 7);
  CHECK(parse(&o, ARGS("-off_cache", "16,128"), err) == 0);
  CHECK_NEAR(o.cache_size_mb, 16, 0);
  CHECK_EQ_LONG(o.cache_line, 128);
  CHECK(parse(&o, ARGS("-check", "off"), err) == 0);
  CHECK_EQ_LONG(o.check, 0);

  /* -iter's volume is an integer number of MiB, as IMB reads it; a fraction is refused. */
  CHECK(parse(&o, ARGS("-iter", "1000,1.5"), err) == -1);
  CHECK(strstr(err, "-iter") != NULL);
  /* -imb_compat: today's IMB by default, the user guide on request. */
  CHECK(parse(&o, ARGS("PingPong"), err) == 0 && o.imb_compat == COMPAT_2021);
  CHECK(parse(&o, ARGS("-imb_compat", "guide"), err) == 0 && o.imb_compat == COMPAT_GUIDE);
  CHECK(parse(&o, ARGS("-imb_compat", "2018"), err) == -1);
  CHECK(strstr(err, "2021") != NULL && strstr(err, "guide") != NULL);
  /* -buffer_align: malloc's placement (IMB's) by default, or a power of two. */
  CHECK(parse(&o, ARGS("PingPong"), err) == 0 && o.buffer_align == 0);
  CHECK(parse(&o, ARGS("-buffer_align", "4096"), err) == 0 && o.buffer_align == 4096);
  CHECK(parse(&o, ARGS("-buffer_align", "0"), err) == 0 && o.buffer_align == 0);
  CHECK(parse(&o, ARGS("-buffer_align", "100"), err) == -1 && strstr(err, "power of two") != NULL);
  CHECK(parse(&o, ARGS("-buffer_align", "4"), err) == -1);
  /* -min_samples: one timed loop per row (IMB's) in every suite unless asked for more. */
  CHECK(parse(&o, ARGS("PingPong"), err) == 0 && o.min_samples == 1);
  options_defaults(&o, "rma");
  CHECK_EQ_LONG(o.min_samples, 1);
  CHECK(parse(&o, ARGS("-min_samples", "30"), err) == 0 && o.min_samples == 30);
  CHECK(parse(&o, ARGS("-min_samples", "20000"), err) == 0 && o.min_samples == 20000);
  CHECK(parse(&o, ARGS("-min_samples", "0"), err) == -1 && strstr(err, "-min_samples 30") != NULL);
  CHECK(parse(&o, ARGS("-min_samples", "20001"), err) == -1);
  CHECK(parse(&o, ARGS("-min_samples", "abc"), err) == -1);
  CHECK(parse(&o, ARGS("-min_samples", "2.5"), err) == -1);
  CHECK(parse(&o, ARGS("-min_samples"), err) == -1);
  /* -input as IMB: the first word of a line, '#' lines skipped, a blank line repeats the
   * name before it; the file's names come after the positional ones. */
  CHECK(parse(&o, ARGS("-input", "data/input.txt", "Barrier"), err) == 0);
  CHECK_EQ_LONG(o.n_names, 5);
  CHECK(o.n_names == 5 && strcmp(o.names[0], "Barrier") == 0 && strcmp(o.names[1], "PingPong") == 0 &&
        strcmp(o.names[2], "PingPong") == 0 && strcmp(o.names[3], "Allreduce") == 0 &&
        strcmp(o.names[4], "Allreduce") == 0);
  /* -help OPTION: that option's help. */
  CHECK(parse(&o, ARGS("-help", "npmin"), err) == 0 && o.help && strcmp(o.help_topic, "npmin") == 0);
  CHECK(parse(&o, ARGS("-help", "-json", "f"), err) == 0 && o.help_topic[0] == 0);

  /* -help anywhere on the line, even after bad options. */
  CHECK(parse(&o, ARGS("PingPong", "-bogus", "-help"), err) == 0);
  CHECK(o.help);
  CHECK(parse(&o, ARGS("-h"), err) == 0 && o.help);
  CHECK(parse(&o, ARGS("-list"), err) == 0 && o.list);
  /* -list -json: no FILE, the facts go to stdout; -list -json FILE writes the file. */
  CHECK(parse(&o, ARGS("-list", "-json"), err) == 0 && o.list && o.json_stdout && !o.json_path[0]);
  CHECK(parse(&o, ARGS("-json", "-list"), err) == 0 && o.list && o.json_stdout);
  CHECK(parse(&o, ARGS("-list", "-json", "facts.json"), err) == 0 && !o.json_stdout);
  CHECK(strcmp(o.json_path, "facts.json") == 0);
  CHECK(parse(&o, ARGS("-json"), err) == -1);
  CHECK(strstr(err, "-json needs a FILE") != NULL);

  /* Bad input: one line that names the problem. */
  CHECK(parse(&o, ARGS("-msglog", "0:abc"), err) == -1);
  CHECK(strstr(err, "-msglog") != NULL);
  CHECK(parse(&o, ARGS("-msglog", "9:3"), err) == -1);
  CHECK(parse(&o, ARGS("-msglog", "0:41"), err) == -1);
  CHECK(parse(&o, ARGS("-msglen", "data/no_such_file.txt"), err) == -1);
  CHECK(strstr(err, "no_such_file") != NULL);
  CHECK(parse(&o, ARGS("-msglen", "data/bad_lengths.txt"), err) == -1);
  CHECK(strstr(err, "line 3") != NULL);
  CHECK(parse(&o, ARGS("-npmin"), err) == -1);
  CHECK(strstr(err, "needs a value") != NULL);
  CHECK(parse(&o, ARGS("-npmin", "0"), err) == -1);
  CHECK(parse(&o, ARGS("-multi", "2"), err) == -1);
  CHECK(parse(&o, ARGS("-map", "2by2"), err) == -1);
  CHECK(parse(&o, ARGS("-iter_policy", "fast"), err) == -1);
  CHECK(parse(&o, ARGS("-sync", "maybe"), err) == -1);
  CHECK(parse(&o, ARGS("-time", "-1"), err) == -1);
  CHECK(parse(&o, ARGS("-mem", "0"), err) == -1);
  /* nan would pass every "<= 0" check and turn the memory check and -time off */
  CHECK(parse(&o, ARGS("-time", "nan"), err) == -1);
  CHECK(parse(&o, ARGS("-mem", "nan"), err) == -1);
  CHECK(parse(&o, ARGS("-off_cache", "nan"), err) == -1);
  CHECK(parse(&o, ARGS("-off_cache", "8,nan"), err) == -1);
  CHECK(parse(&o, ARGS("-iter", "100,nan"), err) == -1);
  /* an empty benchmark list is not the whole default set */
  CHECK(parse(&o, ARGS(""), err) == -1);
  CHECK(strstr(err, "names no benchmark") != NULL);
  CHECK(parse(&o, ARGS(","), err) == -1);
  CHECK(parse(&o, ARGS("-input", "data/empty.txt"), err) == -1);
  CHECK(strstr(err, "names no benchmark") != NULL);
  CHECK(parse(&o, ARGS("-data_type", "quad"), err) == -1);
  CHECK(parse(&o, ARGS("-red_data_type", "byte"), err) == -1);
  CHECK(parse(&o, ARGS("-msgsize", "1,x"), err) == -1);
  CHECK(parse(&o, ARGS("-frobnicate", "1"), err) == -1);
  CHECK(strstr(err, "unknown option '-frobnicate'") != NULL);
  CHECK(strchr(err, '\n') == NULL);

  size_t v;
  CHECK(parse_size("4k", &v) == 0 && v == 4096);
  CHECK(parse_size("3M", &v) == 0 && v == 3145728);
  CHECK(parse_size("2g", &v) == 0 && v == 2147483648UL);
  CHECK(parse_size("-1", &v) == -1);
  CHECK(parse_size("1kb", &v) == -1);
  TEST_MAIN_END();
}
