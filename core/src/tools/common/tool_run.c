#include "tools/common/tool_run.h"
#include "util/timer.h"

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA_VERSION 1

void tool_collect(tool_run_t *t, int argc, char **argv, const char *thread_provided) {
  memset(&t->info, 0, sizeof(t->info));
  MPI_Comm_rank(MPI_COMM_WORLD, &t->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &t->size);
  t->info.argc = argc;
  t->info.argv = argv;
  t->info.thread_requested = "MPI_THREAD_SINGLE";
  t->info.thread_provided = thread_provided ? thread_provided : "MPI_THREAD_SINGLE";
  MPI_Get_version(&t->info.mpi_version, &t->info.mpi_subversion);
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int len;
  MPI_Get_library_version(lib, &len);
  char *nl = strchr(lib, '\n');
  if (nl) *nl = 0;
  snprintf(t->info.mpi_library, sizeof(t->info.mpi_library), "%s", lib);
  t->info.mpi_wtick = MPI_Wtick();
  sysinfo_collect(&t->info, &t->share);
  timer_selftest(100000, &t->info.timer);
  t->t0 = now_ns();
}

int tool_json_open(tool_run_t *t, const char *path, char *err, size_t errlen) {
  t->f = fopen(path, "w");
  if (!t->f) {
    snprintf(err, errlen, "cannot write the -json file '%s': %s; give a writable path", path, strerror(errno));
    return -1;
  }
  jw_init(&t->jw, t->f);
  return 0;
}

jw_t *tool_run_begin(tool_run_t *t, const char *suite) {
  if (!t->f) return NULL;
  const run_info_t *in = &t->info;
  jw_t *w = &t->jw;
  jw_obj_begin(w, NULL);
  jw_str(w, "type", "run");
  jw_int(w, "schema_version", SCHEMA_VERSION);
  jw_obj_begin(w, "tool");
  jw_str(w, "name", "mpimark-core");
  jw_str(w, "version", MPIMARK_VERSION);
  jw_obj_end(w);
  jw_str(w, "suite", suite);
  jw_arr_begin(w, "command_line");
  for (int i = 0; i < in->argc; i++) jw_str(w, NULL, in->argv[i]);
  jw_arr_end(w);
  jw_str(w, "start_utc", in->start_utc);
  jw_obj_begin(w, "mpi");
  jw_str(w, "library_version", in->mpi_library);
  char std[16];
  snprintf(std, sizeof(std), "%d.%d", in->mpi_version, in->mpi_subversion);
  jw_str(w, "standard_version", std);
  jw_str(w, "thread_level_requested", in->thread_requested);
  jw_str(w, "thread_level_provided", in->thread_provided);
  jw_obj_end(w);
  jw_arr_begin(w, "hosts");
  for (int i = 0; i < in->n_hosts; i++) jw_str(w, NULL, in->hosts[i]);
  jw_arr_end(w);
  jw_int(w, "processes", in->processes);
  jw_int(w, "cores_online", in->cores_online);
  jw_bool(w, "oversubscribed", in->oversubscribed);
  sysinfo_write_placement(w, in);
  jw_obj_begin(w, "uname");
  jw_str(w, "sysname", in->sysname);
  jw_str(w, "release", in->release);
  jw_str(w, "version", in->version);
  jw_str(w, "machine", in->machine);
  jw_obj_end(w);
  jw_obj_begin(w, "timer");
  jw_str(w, "source", "clock_gettime(CLOCK_MONOTONIC)");
  jw_num(w, "overhead_ns", in->timer.overhead_ns);
  jw_num(w, "granularity_ns", in->timer.granularity_ns);
  jw_bool(w, "monotonic", in->timer.monotonic);
  jw_num(w, "mpi_wtick_s", in->mpi_wtick);
  jw_obj_end(w);
  jw_arr_begin(w, "load_average_before");
  for (int i = 0; i < 3; i++) jw_num(w, NULL, in->load_before[i] < 0 ? 0 : in->load_before[i]);
  jw_arr_end(w);
  return w;
}

jw_t *tool_result_begin(tool_run_t *t, const char *benchmark, const char *suite, int processes,
                        long long bytes, long long count, const char *datatype, long repetitions,
                        double t_min_usec, double t_max_usec, double t_avg_usec,
                        double mbytes_per_sec, long defects) {
  if (!t->f) return NULL;
  jw_t *w = &t->jw;
  t->results++;
  jw_obj_begin(w, NULL);
  jw_str(w, "type", "result");
  jw_str(w, "benchmark", benchmark);
  jw_str(w, "suite", suite);
  jw_int(w, "processes", processes);
  jw_null(w, "multi");
  jw_int(w, "groups", 1);
  jw_null(w, "group");
  jw_int(w, "bytes", bytes);
  jw_int(w, "count", count);
  jw_str(w, "datatype", datatype);
  jw_str(w, "status", "ok");
  jw_int(w, "repetitions", repetitions);
  jw_num(w, "t_min_usec", t_min_usec);
  jw_num(w, "t_max_usec", t_max_usec);
  jw_num(w, "t_avg_usec", t_avg_usec);
  jw_num(w, "mbytes_per_sec", mbytes_per_sec);
  jw_null(w, "msgs_per_sec");
  if (defects < 0) jw_null(w, "defects"); else jw_int(w, "defects", defects);
  jw_null(w, "distribution");
  jw_null(w, "samples_ns");
  return w;
}

void tool_record_end(tool_run_t *t) {
  if (!t->f) return;
  jw_obj_end(&t->jw);
  jw_end_line(&t->jw);
}

void tool_event(tool_run_t *t, const char *level, const char *kind, const char *message) {
  if (!t->f) return;
  jw_t *w = &t->jw;
  jw_obj_begin(w, NULL);
  jw_str(w, "type", "event");
  jw_str(w, "level", level);
  jw_str(w, "kind", kind);
  jw_str(w, "message", message);
  jw_obj_end(w);
  jw_end_line(w);
}

void tool_run_end(tool_run_t *t, int complete) {
  if (!t->f) return;
  jw_t *w = &t->jw;
  double load[3];
  load_average(load);
  jw_obj_begin(w, NULL);
  jw_str(w, "type", "end");
  jw_str(w, "status", complete ? "complete" : "incomplete");
  jw_num(w, "elapsed_s", (double)(now_ns() - t->t0) * 1e-9);
  jw_int(w, "results", t->results);
  jw_arr_begin(w, "load_average_after");
  for (int i = 0; i < 3; i++) jw_num(w, NULL, load[i] < 0 ? 0 : load[i]);
  jw_arr_end(w);
  jw_obj_end(w);
  jw_end_line(w);
  fclose(t->f);
  t->f = NULL;
}

double mem_total_bytes(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256];
  double kb = -1;
  if (!f) return -1;
  while (fgets(line, sizeof(line), f))
    if (sscanf(line, "MemTotal: %lf kB", &kb) == 1) break;
  fclose(f);
  return kb < 0 ? -1 : kb * 1024.0;
}
