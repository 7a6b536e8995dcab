#define _GNU_SOURCE /* sched_getcpu, sched_getaffinity */
#include "engine/sysinfo.h"
#include "util/timer.h"

#include <math.h>
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
#if MPIMARK_SIMULATED
  id[0] = 0; /* every simulated host runs on this one kernel: the simulated host is the machine */
#endif
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
static int *place_host;      /* rank 0: per world rank, its host's index in info->hosts */
static int *host_ranks;      /* rank 0: per host of info->hosts, its ranks */
static char env_names[ENV_LEN];
static int n_env_names;
static int64_t collect_start_ns; /* when run_info_collect began: the run record's startup_s */
static int collect_started;      /* collect_start_ns is set (0 is a valid time: SMPI's clock starts at 0) */

int per_rank_listed(int P) {
  const char *asked = getenv("MPIMARK_PER_RANK");
  return P <= PER_RANK_LIST_MAX || (asked && strcmp(asked, "1") == 0);
}

double sysinfo_startup_s(void) { return collect_started ? (double)(now_ns() - collect_start_ns) * 1e-9 : NAN; }

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

static void collect_placement(int rank) {
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
    int P;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    places = malloc(sizeof(rank_place_t) * (size_t)P);
  }
  MPI_Gather(&me, (int)sizeof(me), MPI_BYTE, places, (int)sizeof(me), MPI_BYTE, 0, MPI_COMM_WORLD);
}

/* Past PER_RANK_LIST_MAX ranks: at most SUMMARY_VALUES_MAX distinct values of one per-rank text field, each with
 * how many ranks had it; the ranks with any other value are only counted. */
#define SUMMARY_VALUES_MAX 16
typedef struct {
  const char *value[SUMMARY_VALUES_MAX]; /* NULL: unknown or not set */
  long count[SUMMARY_VALUES_MAX];
  int n;
  long other;
} value_counts_t;

static void count_value(value_counts_t *c, const char *v) {
  for (int i = 0; i < c->n; i++)
    if ((v == NULL) == (c->value[i] == NULL) && (v == NULL || strcmp(v, c->value[i]) == 0)) {
      c->count[i]++;
      return;
    }
  if (c->n == SUMMARY_VALUES_MAX) {
    c->other++;
    return;
  }
  c->value[c->n] = v;
  c->count[c->n++] = 1;
}

static void write_value_counts(jw_t *w, const char *key, const value_counts_t *c) {
  jw_obj_begin(w, key);
  jw_arr_begin(w, "values");
  for (int i = 0; i < c->n; i++) {
    jw_arr_begin(w, NULL);
    jw_str(w, NULL, c->value[i]);
    jw_int(w, NULL, c->count[i]);
    jw_arr_end(w);
  }
  jw_arr_end(w);
  jw_int(w, "other_ranks", c->other);
  jw_obj_end(w);
}

/* The value of the i-th variable of MPIMARK_RECORD_ENV in one rank's place; NULL: not set or cut off. */
static const char *env_value(const rank_place_t *p, int i) {
  const char *value = p->env;
  for (int k = 0; k < i; k++) {
    if (value >= p->env + ENV_LEN) return NULL;
    value += strlen(value) + 1;
  }
  if (value >= p->env + ENV_LEN || strcmp(value, "\1") == 0) return NULL;
  return value;
}

/* Past the bound: ranks per node as [ranks, nodes] pairs, and ranges and counts instead of one entry per rank. */
static void write_placement_summary(jw_t *w, const run_info_t *info) {
  int P = info->processes, most = 0;
  for (int h = 0; h < info->n_hosts; h++)
    if (host_ranks[h] > most) most = host_ranks[h];
  int *nodes_with = calloc((size_t)most + 1, sizeof(int));
  for (int h = 0; h < info->n_hosts; h++) nodes_with[host_ranks[h]]++;
  jw_arr_begin(w, "ranks_per_node_counts");
  for (int k = 1; k <= most; k++) {
    if (!nodes_with[k]) continue;
    jw_arr_begin(w, NULL);
    jw_int(w, NULL, k);
    jw_int(w, NULL, nodes_with[k]);
    jw_arr_end(w);
  }
  jw_arr_end(w);
  free(nodes_with);

  int cpu_min = -1, cpu_max = -1;
  long cpu_unknown = 0;
  value_counts_t cpus = {0}, env[ENV_NAMES_MAX];
  memset(env, 0, sizeof(env));
  for (int r = 0; r < P; r++) {
    const rank_place_t *p = &places[r];
    if (p->cpu < 0) cpu_unknown++;
    else {
      if (cpu_min < 0 || p->cpu < cpu_min) cpu_min = p->cpu;
      if (p->cpu > cpu_max) cpu_max = p->cpu;
    }
    count_value(&cpus, p->cpus[0] ? p->cpus : NULL);
    for (int i = 0; i < n_env_names; i++) count_value(&env[i], env_value(p, i));
  }
  jw_obj_begin(w, "ranks_summary");
  jw_int(w, "ranks", P);
  jw_obj_begin(w, "cpu");
  if (cpu_min >= 0) jw_int(w, "min", cpu_min); else jw_null(w, "min");
  if (cpu_max >= 0) jw_int(w, "max", cpu_max); else jw_null(w, "max");
  jw_int(w, "unknown", cpu_unknown);
  jw_obj_end(w);
  write_value_counts(w, "cpus", &cpus);
  if (n_env_names > 0) {
    jw_obj_begin(w, "env");
    const char *name = env_names;
    for (int i = 0; i < n_env_names; i++, name += strlen(name) + 1) write_value_counts(w, name, &env[i]);
    jw_obj_end(w);
  }
  jw_obj_end(w);
}

void sysinfo_write_hosts(jw_t *w, const run_info_t *info) {
  int listed = per_rank_listed(info->processes);
  int n = listed || info->n_hosts <= PER_RANK_LIST_MAX ? info->n_hosts : PER_RANK_LIST_MAX;
  jw_obj_begin(w, "per_rank");
  jw_int(w, "bound", PER_RANK_LIST_MAX);
  jw_bool(w, "listed", listed);
  jw_obj_end(w);
  jw_arr_begin(w, "hosts");
  for (int i = 0; i < n; i++) jw_str(w, NULL, info->hosts[i]);
  jw_arr_end(w);
  if (n < info->n_hosts) jw_int(w, "hosts_omitted", info->n_hosts - n);
}

void sysinfo_write_placement(jw_t *w, const run_info_t *info) {
  if (!places) return;
  jw_int(w, "nodes", info->n_hosts);
  if (!per_rank_listed(info->processes)) {
    write_placement_summary(w, info);
    return;
  }
  jw_arr_begin(w, "ranks_per_node");
  for (int h = 0; h < info->n_hosts; h++) jw_int(w, NULL, host_ranks[h]);
  jw_arr_end(w);
  jw_arr_begin(w, "ranks");
  for (int r = 0; r < info->processes; r++) {
    const rank_place_t *p = &places[r];
    jw_obj_begin(w, NULL);
    jw_int(w, "rank", r);
    jw_str(w, "host", info->hosts[place_host[r]]);
    if (p->cpu >= 0) jw_int(w, "cpu", p->cpu); else jw_null(w, "cpu");
    jw_str(w, "cpus", p->cpus[0] ? p->cpus : NULL);
    if (n_env_names > 0) {
      jw_obj_begin(w, "env");
      const char *name = env_names;
      for (int i = 0; i < n_env_names; i++, name += strlen(name) + 1) jw_str(w, name, env_value(p, i));
      jw_obj_end(w);
    }
    jw_obj_end(w);
  }
  jw_arr_end(w);
}

/* Which ranks share this rank's machine, without every rank holding every rank's key (P x P bytes in all: 8.7 GB
 * at 4,096 ranks under SMPI, where all ranks live in one process): the ranks whose keys hash alike form a
 * communicator; there the first rank's key is compared with each, and only where two machines' keys share a
 * hash are that communicator's keys gathered. */
static void machine_share(const char *key, int rank, host_share_t *share) {
  uint32_t hash = 2166136261u; /* FNV-1a */
  for (const char *c = key; *c; c++) hash = (hash ^ (unsigned char)*c) * 16777619u;
  MPI_Comm same;
  MPI_Comm_split(MPI_COMM_WORLD, (int)(hash & 0x7fffffff), rank, &same);
  int m, me;
  MPI_Comm_size(same, &m);
  MPI_Comm_rank(same, &me);
  char first[MACHINE_KEY_LEN];
  memcpy(first, key, MACHINE_KEY_LEN);
  MPI_Bcast(first, MACHINE_KEY_LEN, MPI_CHAR, 0, same);
  int alike = strcmp(first, key) == 0, all_alike = 0;
  MPI_Allreduce(&alike, &all_alike, 1, MPI_INT, MPI_LAND, same);
  if (all_alike) {
    share->ranks_on_host = m;
    share->machine_reader = me == 0; /* the lowest world rank of the machine */
  } else {
    char *keys = malloc((size_t)m * MACHINE_KEY_LEN);
    MPI_Allgather(key, MACHINE_KEY_LEN, MPI_CHAR, keys, MACHINE_KEY_LEN, MPI_CHAR, same);
    share->ranks_on_host = 0;
    share->machine_reader = 0;
    for (int i = 0; i < m; i++) {
      if (strcmp(keys + (size_t)i * MACHINE_KEY_LEN, key) != 0) continue;
      if (share->ranks_on_host == 0) share->machine_reader = i == me;
      share->ranks_on_host++;
    }
    free(keys);
  }
  MPI_Comm_free(&same);
}

typedef struct {
  const char *name;
  int rank;
} named_rank_t;

static int by_name_then_rank(const void *a, const void *b) {
  const named_rank_t *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

/* Rank 0: info->hosts (distinct, in the order of their first rank), place_host and host_ranks from every rank's
 * host name, by sorting: comparing each rank with each host found took P x hosts string compares (10^8 at 12,288
 * ranks on as many simulated hosts). */
static void distinct_hosts(run_info_t *info, const char *all, int P) {
  named_rank_t *v = malloc(sizeof(*v) * (size_t)P);
  for (int i = 0; i < P; i++) v[i] = (named_rank_t){all + (size_t)i * MPI_MAX_PROCESSOR_NAME, i};
  qsort(v, (size_t)P, sizeof(*v), by_name_then_rank);
  int *group = malloc(sizeof(int) * (size_t)P), groups = 0;
  for (int i = 0; i < P; i++) {
    if (i == 0 || strcmp(v[i].name, v[i - 1].name) != 0) groups++;
    group[v[i].rank] = groups - 1;
  }
  free(v);
  int *order = malloc(sizeof(int) * (size_t)groups);
  for (int g = 0; g < groups; g++) order[g] = -1;
  info->hosts = malloc(sizeof(char *) * (size_t)groups);
  host_ranks = calloc((size_t)groups, sizeof(int));
  place_host = malloc(sizeof(int) * (size_t)P);
  info->n_hosts = 0;
  for (int r = 0; r < P; r++) {
    int g = group[r];
    if (order[g] < 0) {
      const char *h = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
      order[g] = info->n_hosts;
      info->hosts[info->n_hosts] = malloc(strlen(h) + 1);
      strcpy(info->hosts[info->n_hosts++], h);
    }
    place_host[r] = order[g];
    host_ranks[order[g]]++;
  }
  free(order);
  free(group);
}

void sysinfo_collect(run_info_t *info, host_share_t *share) {
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len;
  MPI_Get_processor_name(name, &len);
  /* Only rank 0 needs the host names: gathered, not allgathered (P x P bytes under SMPI). */
  char *all = rank == 0 ? malloc((size_t)P * MPI_MAX_PROCESSOR_NAME) : NULL;
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  char key[MACHINE_KEY_LEN] = {0};
  machine_key(key, name);
  machine_share(key, rank, share);
  share->mem_available = mem_available_bytes();

  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int over = share->ranks_on_host > cores, any_over = 0;
  MPI_Reduce(&over, &any_over, 1, MPI_INT, MPI_LOR, 0, MPI_COMM_WORLD);
  collect_placement(rank);
  if (rank == 0) {
    distinct_hosts(info, all, P);
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
  collect_start_ns = now_ns();
  collect_started = 1;
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
  /* Under SMPI every clock read is a simulated call (a context switch): 15,000 of them on each of
   * 12,288 ranks were most of a simulation's wall time, and the simulated clock has no resolution
   * or overhead to find. A few reads keep the record's fields filled. */
  timer_selftest(MPIMARK_SIMULATED ? 16 : TIMER_SELFTEST_READS, &info->timer);
}
