/* OSU 7.4's command line, defaults, table and columns (suites/osu), without
 * MPI: the table is built with OSU_FACTS_ONLY. */
#include "check.h"
#include "suites/osu/osu_columns.h"
#include "suites/osu/osu_options.h"
#include "suites/osu/osu_tail.h"

#include <string.h>

static osu_options_t o;
static char err[512];

/* Parses "osu NAME args..." (words split on blanks) as osu_main does. */
static int parse(const char *name, const char *line) {
  static char buf[512];
  char *argv[64] = {"mpimark-core", "osu", (char *)name};
  int argc = 3;
  snprintf(buf, sizeof(buf), "%s", line);
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) argv[argc++] = w;
  const osu_test_t *t = osu_find(name);
  osu_options_defaults(&o, t);
  err[0] = 0;
  return osu_options_parse(&o, t, argc, argv, 3, err, sizeof(err));
}

static void table(void) {
  CHECK_EQ_LONG(osu_n_tests(), 74);  /* OMB 7.4's 73 MPI programs of peers/osu.json and osu_hello */
  const osu_test_t *t = osu_find("osu_latency");
  CHECK(t && t == osu_find("latency") && t == osu_find("LATENCY"));
  CHECK(osu_find("latencyy") == NULL && osu_find("osu_") == NULL);
  CHECK(!strcmp(osu_bench_of(t)->name, "osu_latency") && osu_test_of(osu_bench_of(t)) == t);
  int not_run = 0;
  for (int i = 0; i < osu_n_tests(); i++) {
    const osu_test_t *x = osu_test_at(i);
    CHECK(osu_test_of(osu_bench_of(x)) == x);
    not_run += x->family == OSU_FAM_NOT_RUN;
  }
  CHECK_EQ_LONG(not_run, 3 + 14 + 9);  /* persistent pt2pt, persistent collectives, neighbourhood */
  CHECK(osu_find("reduce")->rooted && osu_find("reduce")->reduction);
  CHECK(osu_find("bcast")->rooted && !osu_find("bcast")->reduction);
  CHECK(!osu_find("reduce_scatter")->rooted && osu_find("reduce_scatter")->reduction);
  CHECK(!osu_find("allgather")->rooted && osu_find("iscatterv")->rooted);
}

static void defaults(void) {
  CHECK(parse("latency", "") == 0);
  CHECK_EQ_LONG(o.min_size, 0);  /* point-to-point latency starts at 0 (7.4 prints no 0-byte row) */
  CHECK_EQ_LONG(o.max_size, 1 << 22);
  CHECK_EQ_LONG(o.iterations, 10000);
  CHECK_EQ_LONG(o.iterations_large, 1000);
  CHECK_EQ_LONG(o.skip, 100);
  CHECK_EQ_LONG(o.skip_large, 10);
  CHECK_EQ_LONG(o.large_threshold, 8192);
  CHECK_EQ_LONG(o.n_types, 1);
  CHECK_EQ_LONG(o.type_ids[0], OSU_TYPE_CHAR);
  CHECK_EQ_LONG(o.validation_warmup, 5);
  CHECK_EQ_LONG(o.selfcheck, 1);
  CHECK(parse("bw", "") == 0);
  CHECK_EQ_LONG(o.min_size, 1);
  CHECK_EQ_LONG(o.iterations, 100);
  CHECK_EQ_LONG(o.iterations_large, 20);
  CHECK_EQ_LONG(o.skip, 10);
  CHECK_EQ_LONG(o.skip_large, 2);
  CHECK_EQ_LONG(o.window, 64);
  CHECK(parse("allreduce", "") == 0);
  CHECK_EQ_LONG(o.min_size, 1);
  CHECK_EQ_LONG(o.max_size, 1 << 20);
  CHECK_EQ_LONG(o.iterations, 1000);
  CHECK_EQ_LONG(o.iterations_large, 100);
  CHECK_EQ_LONG(o.skip, 100);
  CHECK_EQ_LONG(o.skip_large, 10);
  CHECK_EQ_LONG(o.mem_limit, 512 << 20);
  CHECK_EQ_LONG(o.num_test_calls, 0);
  CHECK(parse("put_bw", "") == 0);
  CHECK_EQ_LONG(o.iterations, 100);  /* one-sided bandwidth: OSU's BW counts */
  CHECK(o.win == OSU_WIN_ALLOCATE && o.sync == OSU_SYNC_FLUSH);
  CHECK(parse("put_latency", "") == 0);
  CHECK_EQ_LONG(o.min_size, 1);
  CHECK_EQ_LONG(o.iterations, 10000);
  CHECK(parse("get_acc_latency", "") == 0);
  CHECK(o.win == OSU_WIN_CREATE && o.sync == OSU_SYNC_LOCK);
  CHECK(parse("put_bibw", "") == 0);
  CHECK(o.sync == OSU_SYNC_PSCW);
  CHECK(parse("latency_mt", "") == 0);
  CHECK_EQ_LONG(o.sender_threads, 1);
  CHECK_EQ_LONG(o.receiver_threads, 2);
}

static void message_sizes(void) {
  CHECK(parse("latency", "-m 128") == 0);
  CHECK_EQ_LONG(o.min_size, 0);
  CHECK_EQ_LONG(o.max_size, 128);
  CHECK(parse("latency", "-m 2:128") == 0);
  CHECK_EQ_LONG(o.min_size, 2);
  CHECK_EQ_LONG(o.max_size, 128);
  CHECK(parse("latency", "-m 4:") == 0);
  CHECK_EQ_LONG(o.min_size, 4);
  CHECK_EQ_LONG(o.max_size, 1 << 22);
  CHECK(parse("latency", "-m :64") == 0);
  CHECK_EQ_LONG(o.max_size, 64);
  CHECK(parse("latency", "-m4:8") == 0);  /* getopt: the value in the same word */
  CHECK_EQ_LONG(o.min_size, 4);
  CHECK(parse("latency", "--message-size 1:16") == 0);
  CHECK_EQ_LONG(o.max_size, 16);
  CHECK(parse("latency", "-m 10:2") == OSU_PARSE_BAD && strstr(err, "MIN 10 is above MAX 2"));
  CHECK(parse("latency", "-m 0:8") == OSU_PARSE_BAD && strstr(err, "above 0"));  /* OSU 7.4 measures no 0-byte size */
  CHECK(parse("latency", "-m abc") == OSU_PARSE_BAD && strstr(err, "-m abc"));
  CHECK(parse("latency", "-m 1:2:3") == OSU_PARSE_BAD);
  CHECK(parse("latency", "-m") == OSU_PARSE_BAD && strstr(err, "needs a value"));
}

static void values(void) {
  CHECK(parse("latency", "-i 0") == OSU_PARSE_BAD && strstr(err, "-i 0"));
  CHECK(parse("latency", "-i 20 -x 3") == 0);
  CHECK_EQ_LONG(o.iterations_large, 20);
  CHECK_EQ_LONG(o.skip_large, 3);
  CHECK(parse("latency", "-x -1") == OSU_PARSE_BAD);
  CHECK(parse("latency", "-i ten") == OSU_PARSE_BAD);
  CHECK(parse("bw", "-W 0") == OSU_PARSE_BAD && strstr(err, "-W 0"));
  CHECK(parse("bw", "-W 16 -t 3") == 0);  /* osu_bw takes -t and ignores it, as OSU */
  CHECK_EQ_LONG(o.window, 16);
  CHECK(parse("latency", "-T all") == 0);
  CHECK_EQ_LONG(o.n_types, 3);
  CHECK(parse("latency", "-T mpi_int -T MPI_FLOAT") == 0);
  CHECK(o.n_types == 2 && o.type_ids[0] == OSU_TYPE_INT && o.type_ids[1] == OSU_TYPE_FLOAT);
  CHECK(parse("latency", "-T mpi_double") == OSU_PARSE_BAD && strstr(err, "mpi_char"));
  CHECK(parse("latency", "-c -z") == 0);
  CHECK(o.validate && o.n_tail == 3 && o.tail[0] == 50 && o.tail[1] == 90 && o.tail[2] == 99);
  CHECK(parse("latency", "-z50,99") == 0);
  CHECK(o.n_tail == 2 && o.tail[1] == 99);
  CHECK(parse("latency", "-z101") == OSU_PARSE_BAD);
  CHECK(parse("latency", "-z1,2,3,4,5,6") == OSU_PARSE_BAD && strstr(err, "at most 5"));
  CHECK(parse("latency", "-u 11") == OSU_PARSE_BAD);
  CHECK(parse("latency", "-b multiple") == 0 && o.buffer_multiple);
  CHECK(parse("latency", "-b many") == OSU_PARSE_BAD);
  CHECK(parse("allreduce", "-fc -M 100") == 0);  /* flags together; -M below 1 MiB is raised, as OSU */
  CHECK(o.full && o.validate && o.mem_limit == OSU_MEM_LIMIT_FLOOR);
  CHECK(parse("reduce", "-k fixed:1") == 0 && !o.root_rotate && o.root_rank == 1);
  CHECK(parse("reduce", "-k rotate") == 0 && o.root_rotate);
  CHECK(parse("reduce", "-k sometimes") == OSU_PARSE_BAD);
  CHECK(parse("iallreduce", "-t 3") == 0 && o.num_test_calls == 3);
  CHECK(parse("latency_mt", "-t 4") == 0 && o.receiver_threads == 4);
  CHECK(parse("latency_mt", "-t 2:3") == 0 && o.sender_threads == 2 && o.receiver_threads == 3);
  CHECK(parse("latency_mt", "-t 0") == OSU_PARSE_BAD);
  CHECK(parse("latency_mt", "-c") == OSU_PARSE_BAD && strstr(err, "as many sender as receiver"));
  CHECK(parse("latency_mt", "-c -t 2:2") == 0);
  CHECK(parse("put_latency", "-w create -s lock") == 0 && o.win == OSU_WIN_CREATE && o.sync == OSU_SYNC_LOCK);
  CHECK(parse("put_bibw", "-s fence") == 0 && o.sync == OSU_SYNC_FENCE);
  CHECK(parse("put_bibw", "-s lock") == OSU_PARSE_BAD && strstr(err, "pscw or fence"));
  CHECK(parse("put_latency", "-w heap") == OSU_PARSE_BAD);
  CHECK(parse("mbw_mr", "-R 2") == OSU_PARSE_BAD);
}

static void refusals(void) {
  CHECK(parse("latency", "-f") == OSU_PARSE_BAD && strstr(err, "osu_latency does not take -f") &&
        strstr(err, "mpimark-core osu latency -h"));
  CHECK(parse("latency", "-W 4") == OSU_PARSE_BAD && strstr(err, "does not take -W"));
  CHECK(parse("put_latency", "-c") == OSU_PARSE_BAD && strstr(err, "does not take -c"));
  CHECK(parse("put_latency", "-check") == OSU_PARSE_BAD && strstr(err, "-check"));
  CHECK(parse("acc_latency", "-check") == 0 && o.validate);
  CHECK(parse("latency", "-d cuda") == OSU_PARSE_BAD && strstr(err, "no device buffers"));
  CHECK(parse("latency", "-I") == OSU_PARSE_BAD && strstr(err, "sessions"));
  CHECK(parse("latency", "-G tty") == OSU_PARSE_BAD && strstr(err, "graphs"));
  CHECK(parse("latency", "-D cont") == OSU_PARSE_BAD && strstr(err, "derived"));
  CHECK(parse("latency", "-P x") == OSU_PARSE_BAD && strstr(err, "PAPI"));
  CHECK(parse("latency", "-c log") == OSU_PARSE_BAD);  /* -c takes its value in the same word only */
  CHECK(parse("latency", "-clog") == OSU_PARSE_BAD && strstr(err, "logs"));
  CHECK(parse("latency", "extra") == OSU_PARSE_BAD && strstr(err, "unexpected argument"));
  CHECK(parse("latency", "-z 50") == OSU_PARSE_BAD && strstr(err, "-z50"));
  CHECK(parse("hello", "-h") == OSU_PARSE_HELP && parse("init", "-v") == OSU_PARSE_VERSION);
  CHECK(parse("latency", "--bogus") == OSU_PARSE_BAD);
  CHECK(parse("init", "-m 4") == OSU_PARSE_BAD && strstr(err, "osu_init does not take -m"));
  CHECK(parse("latency", "-h") == OSU_PARSE_HELP);
  CHECK(parse("latency", "-help") == OSU_PARSE_HELP);
  CHECK(parse("latency", "-v") == OSU_PARSE_VERSION);
}

static void mpimark_options(void) {
  CHECK(parse("latency", "-m 8 -json /tmp/x.jsonl -selfcheck off") == 0);
  CHECK(!strcmp(o.json_path, "/tmp/x.jsonl") && o.selfcheck == 0 && o.max_size == 8);
  CHECK(parse("latency", "-check") == 0 && o.validate);
  CHECK(parse("latency", "-selfcheck maybe") == OSU_PARSE_BAD);
  CHECK(parse("latency", "-json") == OSU_PARSE_BAD && strstr(err, "needs a value"));
}

/* The headers of program name's columns under options line, joined by '|'. */
static const char *headers(const char *name, const char *line, int *sized) {
  static char out[2048];
  osu_column_t cols[OSU_MAX_COLUMNS];
  CHECK(parse(name, line) == 0);
  int n = osu_columns(osu_find(name), &o, cols, sized);
  out[0] = 0;
  for (int i = 0; i < n; i++) snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", i ? "|" : "", cols[i].header);
  return out;
}

static void columns(void) {
  int sized;
  CHECK(!strcmp(headers("latency", "", &sized), "Avg Latency(us)") && sized);
  CHECK(!strcmp(headers("latency", "-c -z", &sized),
                "Avg Latency(us)|Validation|P50 Tail Lat(us)|P90 Tail Lat(us)|P99 Tail Lat(us)"));
  CHECK(!strcmp(headers("allreduce", "-f -c", &sized),
                "Avg Latency(us)|Min Latency(us)|Max Latency(us)|Iterations|Validation"));
  CHECK(!strcmp(headers("barrier", "", &sized), "Avg Latency(us)") && !sized);
  CHECK(!strcmp(headers("iallreduce", "", &sized), "Overall(us)|Compute(us)|Pure Comm.(us)|Overlap(%)"));
  CHECK(!strcmp(headers("iallreduce", "-f", &sized),
                "Overall(us)|Compute(us)|Coll. Init(us)|MPI_Test(us)|MPI_Wait(us)|Pure Comm.(us)|Min Comm.(us)|"
                "Max Comm.(us)|Overlap(%)"));
  CHECK(!strcmp(headers("bw", "-z50", &sized), "Bandwidth (MB/s)|P50 Tail BW(MB/s)"));
  CHECK(!strcmp(headers("mbw_mr", "", &sized), "MB/s|Messages/s"));
  CHECK(!strcmp(headers("mbw_mr", "-R 0", &sized), "MB/s"));
  CHECK(!strcmp(headers("put_latency", "", &sized), "Latency (us)"));
  CHECK(!strcmp(headers("put_bibw", "", &sized), "Bandwidth (MB/s)"));
  /* OSU's -z header arithmetic: one blank less for two digits, so P5 and P50 both fill 18, P100 19. */
  osu_column_t cols[OSU_MAX_COLUMNS];
  CHECK(parse("latency", "-z5,50,100") == 0);
  osu_columns(osu_find("latency"), &o, cols, &sized);
  CHECK_EQ_LONG(cols[1].pad + (long)strlen(cols[1].header), 18);
  CHECK_EQ_LONG(cols[2].pad + (long)strlen(cols[2].header), 18);
  CHECK_EQ_LONG(cols[3].pad + (long)strlen(cols[3].header), 19);
  CHECK(!strcmp(cols[2].field, "p50_tail_lat_us"));
  CHECK(parse("latency_mp", "") == 0);
  osu_columns(osu_find("latency_mp"), &o, cols, &sized);
  CHECK_EQ_LONG(cols[0].width, 10);  /* osu_latency_mp's narrow figure under the usual header */
  CHECK_EQ_LONG(cols[0].pad + (long)strlen(cols[0].header), 18);
}

static void tail(void) {
  double v[10] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, out[OSU_MAX_TAIL];
  CHECK(parse("latency", "-z50,99,5") == 0);
  osu_tail_pick(&o, v, 10, out);
  CHECK_NEAR(out[0], 5, 0);  /* 10*50/100 = 5th value */
  CHECK_NEAR(out[1], 9, 0);  /* 10*99/100 = 9 (whole-number division) */
  CHECK_NEAR(out[2], 1, 0);  /* 10*5/100 = 0: before the first, OSU reads outside; the first here */
}

int main(void) {
  table();
  defaults();
  message_sizes();
  values();
  refusals();
  mpimark_options();
  columns();
  tail();
  TEST_MAIN_END();
}
