#define _GNU_SOURCE /* sched_getcpu, sched_getaffinity */
#include "engine/sysinfo.h"
#include "util/timer.h"

#include <mpi.h>
#include <sched.h>
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

run_end_t run_end_now(int complete, int64_t t0, long results) {
  run_end_t end = {.complete = complete, .elapsed_s = (double)(now_ns() - t0) * 1e-9, .results = results};
  load_average(end.load_after);
  return end;
}

double host_memory_bytes(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (double)pages * (double)page : -1;
}

/* What tells one machine from another: "boot:" and the kernel's boot id,
 * random at every boot, so two nodes never share it while containers and UTS
 * namespaces of one kernel do. Not /etc/machine-id: nodes cloned from one
 * image often share it. Where the boot id cannot be read, "host:" and the
 * host name. */
#define MACHINE_KEY_LEN (MPI_MAX_PROCESSOR_NAME + 8)
static void machine_key(char *key, const char *host) {
  char id[64] = {0};
  FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
  if (f) {
    if (!fgets(id, sizeof(id), f)) id[0] = 0;
    fclose(f);
  }
  id[strcspn(id, "\n")] = 0;
  if (id[0]) snprintf(key, MACHINE_KEY_LEN, "boot:%s", id);
  else snprintf(key, MACHINE_KEY_LEN, "host:%s", host);
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

/* The CPU model (the first "model name") and the sockets (distinct "physical id"s) of this host, from
 * /proc/cpuinfo; "" and 0 where it does not say (other kernels, some virtual CPUs). */
static void cpu_facts(char *model, size_t size, int *sockets) {
  model[0] = 0;
  *sockets = 0;
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  int ids[256], n = 0;
  while (fgets(line, sizeof(line), f)) {
    char *colon = strchr(line, ':');
    if (!colon) continue;
    const char *value = colon + 1 + strspn(colon + 1, " \t");
    if (strncmp(line, "model name", 10) == 0 && !model[0]) {
      snprintf(model, size, "%s", value);
      model[strcspn(model, "\n")] = 0;
    } else if (strncmp(line, "physical id", 11) == 0) {
      int id = atoi(value), seen = 0;
      for (int i = 0; i < n; i++) seen |= ids[i] == id;
      if (!seen && n < 256) ids[n++] = id;
    }
  }
  fclose(f);
  *sockets = n;
}

/* One rank's placement, gathered to rank 0 as fixed-size bytes. */
#define CPUS_LEN 256      /* "0-63,128-191": longer lists end in "..." */
#define ENV_NAMES_MAX 16  /* of MPIMARK_RECORD_ENV, which is a comma-separated list */
#define ENV_LEN 1024      /* the values, each ending in \0; \1 for a variable not set */
typedef struct {
  int cpu;                /* sched_getcpu() when collected, -1 unknown */
  char cpus[CPUS_LEN];    /* the affinity mask as a list of ranges; "" unknown */
  char env[ENV_LEN];
} rank_place_t;

static rank_place_t *places; /* rank 0: one per world rank */
static char *place_hosts;    /* rank 0: MPI_MAX_PROCESSOR_NAME per world rank */
static char env_names[ENV_LEN];
static int n_env_names;

static void affinity_list(char *out, size_t len) {
  out[0] = 0;
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return;
  size_t used = 0;
  for (int c = 0; c < CPU_SETSIZE; c++) {
    if (!CPU_ISSET(c, &set)) continue;
    int last = c;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) last++;
    char part[32];
    int n = last > c ? snprintf(part, sizeof(part), "%s%d-%d", used ? "," : "", c, last)
                     : snprintf(part, sizeof(part), "%s%d", used ? "," : "", c);
    if (used + (size_t)n + 4 >= len) {
      snprintf(out + used, len - used, ",...");
      return;
    }
    memcpy(out + used, part, (size_t)n + 1);
    used += (size_t)n;
    c = last;
  }
#else
  (void)len;
#endif
}

/* env_names <- the names in MPIMARK_RECORD_ENV, each ending in \0. */
static void read_env_names(void) {
  const char *list = getenv("MPIMARK_RECORD_ENV");
  size_t used = 0;
  n_env_names = 0;
  while (list && *list && n_env_names < ENV_NAMES_MAX) {
    size_t n = strcspn(list, ",");
    if (n > 0 && used + n + 1 < sizeof(env_names)) {
      memcpy(env_names + used, list, n);
      env_names[used + n] = 0;
      used += n + 1;
      n_env_names++;
    }
    list += n;
    if (*list == ',') list++;
  }
}

static void collect_placement(int rank, int P, const char *all_hosts) {
  rank_place_t me;
  memset(&me, 0, sizeof(me));
#ifdef __linux__
  me.cpu = sched_getcpu();
#else
  me.cpu = -1;
#endif
  affinity_list(me.cpus, sizeof(me.cpus));
  read_env_names();
  size_t used = 0;
  const char *name = env_names;
  for (int i = 0; i < n_env_names; i++, name += strlen(name) + 1) {
    const char *v = getenv(name);
    const char *text = v ? v : "\1";
    size_t n = strlen(text);
    if (used + n + 1 > sizeof(me.env)) n = sizeof(me.env) - used - 1; /* cut, still ends in \0 */
    memcpy(me.env + used, text, n);
    me.env[used + n] = 0;
    used += n + 1;
    if (used >= sizeof(me.env)) break;
  }
  if (rank == 0) {
    places = malloc(sizeof(rank_place_t) * (size_t)P);
    place_hosts = malloc((size_t)P * MPI_MAX_PROCESSOR_NAME);
    memcpy(place_hosts, all_hosts, (size_t)P * MPI_MAX_PROCESSOR_NAME);
  }
  MPI_Gather(&me, (int)sizeof(me), MPI_BYTE, places, (int)sizeof(me), MPI_BYTE, 0, MPI_COMM_WORLD);
}

void sysinfo_write_placement(jw_t *w, const run_info_t *info) {
  if (!places) return;
  jw_int(w, "nodes", info->n_hosts);
  jw_arr_begin(w, "ranks_per_node");
  for (int h = 0; h < info->n_hosts; h++) {
    int n = 0;
    for (int r = 0; r < info->processes; r++)
      n += strcmp(place_hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME, info->hosts[h]) == 0;
    jw_int(w, NULL, n);
  }
  jw_arr_end(w);
  jw_arr_begin(w, "ranks");
  for (int r = 0; r < info->processes; r++) {
    const rank_place_t *p = &places[r];
    jw_obj_begin(w, NULL);
    jw_int(w, "rank", r);
    jw_str(w, "host", place_hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME);
    if (p->cpu >= 0) jw_int(w, "cpu", p->cpu); else jw_null(w, "cpu");
    jw_str(w, "cpus", p->cpus[0] ? p->cpus : NULL);
    if (n_env_names > 0) {
      jw_obj_begin(w, "env");
      const char *name = env_names, *value = p->env;
      for (int i = 0; i < n_env_names; i++, name += strlen(name) + 1) {
        if (value >= p->env + ENV_LEN) { /* cut off: the values before it filled the space */
          jw_null(w, name);
          continue;
        }
        jw_str(w, name, strcmp(value, "\1") == 0 ? NULL : value);
        value += strlen(value) + 1;
      }
      jw_obj_end(w);
    }
    jw_obj_end(w);
  }
  jw_arr_end(w);
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
  char key[MACHINE_KEY_LEN] = {0};
  machine_key(key, name);
  char *keys = malloc((size_t)P * MACHINE_KEY_LEN);
  MPI_Allgather(key, MACHINE_KEY_LEN, MPI_CHAR, keys, MACHINE_KEY_LEN, MPI_CHAR, MPI_COMM_WORLD);
  share->ranks_on_host = 0;
  share->machine_reader = 0;
  for (int i = 0; i < P; i++) {
    if (strcmp(keys + (size_t)i * MACHINE_KEY_LEN, key) != 0) continue;
    if (share->ranks_on_host == 0) share->machine_reader = i == rank; /* the first of the machine */
    share->ranks_on_host++;
  }
  free(keys);
  share->mem_available = mem_available_bytes();

  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int over = share->ranks_on_host > cores, any_over = 0;
  MPI_Reduce(&over, &any_over, 1, MPI_INT, MPI_LOR, 0, MPI_COMM_WORLD);
  collect_placement(rank, P, all);
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
    cpu_facts(info->cpu_model, sizeof(info->cpu_model), &info->sockets);
    info->memory_bytes = host_memory_bytes();
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
  timer_selftest(TIMER_SELFTEST_READS, &info->timer);
}
