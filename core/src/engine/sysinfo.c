#include "engine/sysinfo.h"
#include "util/timer.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

void load_average(double out[3]) {
  out[0] = out[1] = out[2] = -1;
  FILE *f = fopen("/proc/loadavg", "r");
  if (!f) return;
  if (fscanf(f, "%lf %lf %lf", &out[0], &out[1], &out[2]) != 3) out[0] = out[1] = out[2] = -1;
  fclose(f);
}

static double mem_available_bytes(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256];
  double kb = -1;
  if (f) {
    while (fgets(line, sizeof(line), f))
      if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
    fclose(f);
  }
  if (kb < 0) {
    long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 1e18;
  }
  return kb * 1024.0;
}

void sysinfo_collect(run_info_t *info, host_share_t *share) {
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len;
  MPI_Get_processor_name(name, &len);
  char *all = malloc((size_t)P * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
  share->ranks_on_host = 0;
  for (int i = 0; i < P; i++)
    if (strcmp(all + (size_t)i * MPI_MAX_PROCESSOR_NAME, name) == 0) share->ranks_on_host++;
  share->mem_available = mem_available_bytes();

  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int over = share->ranks_on_host > cores, any_over = 0;
  MPI_Reduce(&over, &any_over, 1, MPI_INT, MPI_LOR, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    info->hosts = malloc(sizeof(char *) * (size_t)P);
    info->n_hosts = 0;
    for (int i = 0; i < P; i++) {
      const char *h = all + (size_t)i * MPI_MAX_PROCESSOR_NAME;
      int seen = 0;
      for (int j = 0; j < info->n_hosts; j++) seen |= strcmp(info->hosts[j], h) == 0;
      if (!seen) {
        info->hosts[info->n_hosts] = malloc(strlen(h) + 1);
        strcpy(info->hosts[info->n_hosts++], h);
      }
    }
    info->processes = P;
    info->cores_online = (int)cores;
    info->oversubscribed = any_over;
    struct utsname u;
    if (uname(&u) == 0) {
      snprintf(info->sysname, sizeof(info->sysname), "%s", u.sysname);
      snprintf(info->release, sizeof(info->release), "%s", u.release);
      snprintf(info->version, sizeof(info->version), "%s", u.version);
      snprintf(info->machine, sizeof(info->machine), "%s", u.machine);
    }
    load_average(info->load_before);
    time_t now = time(NULL);
    struct tm tm_utc, tm_local;
    gmtime_r(&now, &tm_utc);
    localtime_r(&now, &tm_local);
    strftime(info->start_utc, sizeof(info->start_utc), "%Y-%m-%dT%H:%M:%SZ", &tm_utc);
    strftime(info->start_local, sizeof(info->start_local), "%a %b %e %H:%M:%S %Y", &tm_local);
  }
  free(all);
}

void run_info_collect(run_info_t *info, host_share_t *share, int argc, char **argv, const char *thread_requested,
                      const char *thread_provided) {
  info->argc = argc;
  info->argv = argv;
  info->thread_requested = thread_requested;
  info->thread_provided = thread_provided;
  MPI_Get_version(&info->mpi_version, &info->mpi_subversion);
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int len;
  MPI_Get_library_version(lib, &len);
  char *nl = strchr(lib, '\n');
  if (nl) *nl = 0;
  snprintf(info->mpi_library, sizeof(info->mpi_library), "%s", lib);
  info->mpi_wtick = MPI_Wtick();
  sysinfo_collect(info, share);
  timer_selftest(100000, &info->timer);
}
