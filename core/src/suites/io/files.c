#include "suites/io/files.h"
#include "engine/finish.h"
#include "suites/io/layout.h"
#include "util/sizes.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define MAX_TRACKED 8
#define PATH_LEN 4096
#define MAX_FD_CLOSED 65536
#define PROBE_BYTES (1 << 20)
#define MAX_SIZES 4096

/* ---- the reaper: removes this rank's names when the rank dies ----
 *
 * A signal handler cannot act on SIGKILL, and launchers use it: hydra when
 * a rank dies, Open MPI and hydra after SIGTERM, Ctrl-C on mpiexec now and
 * then. So every rank forks one small process, in its own session (a
 * launcher's kill of the rank's process group misses it), holding only the
 * read end of a pipe. The rank writes "+name" and "-name" lines as names
 * appear and go; when the pipe reaches end of file, because the rank
 * exited or was killed, the reaper removes what is still listed and exits.
 * After a normal run nothing is listed. Until exit it only calls
 * async-signal-safe functions (the rank may have threads). */

static int reaper_fd = -1;

/* The reaper's table, allocated by the rank before fork (the child may not call malloc: the rank may have
 * threads). On the heap, not static: under SimGrid SMPI every rank holds its own copy of the static data,
 * 64 KiB each for a table only the I/O suite's reaper uses (benchmarks/README.md, the core at scale). */
static char (*reaper_names)[PATH_LEN];
static int *reaper_listed;

static void reaper_loop(int fd) {
  char (*names)[PATH_LEN] = reaper_names;
  int *listed = reaper_listed;
  static char buf[PATH_LEN + 2];
  size_t have = 0;
  for (;;) {
    ssize_t r = read(fd, buf + have, sizeof(buf) - have);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    have += (size_t)r;
    char *line = buf, *nl;
    while ((nl = memchr(line, '\n', (size_t)(buf + have - line))) != NULL) {
      *nl = 0;
      for (int i = 0; i < 2 * MAX_TRACKED; i++) {
        if (line[0] == '-' && listed[i] && strcmp(names[i], line + 1) == 0) listed[i] = 0;
        if (line[0] == '+' && !listed[i]) {
          strcpy(names[i], line + 1);
          listed[i] = 1;
          break;
        }
      }
      line = nl + 1;
    }
    have -= (size_t)(line - buf);
    memmove(buf, line, have);
    if (have == sizeof(buf)) have = 0;  /* a line longer than any path: drop it */
  }
  for (int i = 0; i < 2 * MAX_TRACKED; i++)
    if (listed[i]) unlink(names[i]);
  _exit(0);
}

static void start_reaper(void) {
  int fds[2];
  if (reaper_fd >= 0) return;
  if (!reaper_names) reaper_names = calloc(2 * MAX_TRACKED, PATH_LEN);
  if (!reaper_listed) reaper_listed = calloc(2 * MAX_TRACKED, sizeof(int));
  if (!reaper_names || !reaper_listed || pipe(fds) != 0) return;
  long maxfd = sysconf(_SC_OPEN_MAX);
  if (maxfd < 0 || maxfd > MAX_FD_CLOSED) maxfd = MAX_FD_CLOSED;
  pid_t pid = fork();
  if (pid == 0) {
    setsid();
#ifdef PR_SET_NAME
    prctl(PR_SET_NAME, "mpimark-reaper", 0, 0, 0);  /* what ps shows for it */
#endif
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    /* Hold nothing of the rank's: the launcher waits for its stdout and
     * stderr to close, and open files would keep their space. */
    for (int f = 0; f < maxfd; f++)
      if (f != fds[0]) close(f);
    reaper_loop(fds[0]);
  }
  close(fds[0]);
  if (pid < 0) {
    close(fds[1]);  /* no reaper: the signal handler still works */
    return;
  }
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  reaper_fd = fds[1];
}

static void reaper_send(char op, const char *p) {
  char line[PATH_LEN + 2];
  size_t n = strlen(p), done = 0;
  if (reaper_fd < 0 || n >= PATH_LEN) return;
  line[0] = op;
  memcpy(line + 1, p, n);
  line[n + 1] = '\n';
  while (done < n + 2) {
    ssize_t w = write(reaper_fd, line + done, n + 2 - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    done += (size_t)w;
  }
}

/* ---- names that exist on disk, removed on a signal or a fatal error ---- */

static char (*tracked)[PATH_LEN]; /* MAX_TRACKED names, allocated at the first (heap, as reaper_names) */
static volatile sig_atomic_t in_use[MAX_TRACKED];
static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
#define N_CAUGHT ((int)(sizeof(caught) / sizeof(caught[0])))
static struct sigaction previous[N_CAUGHT];
static int handlers_installed;

static void remove_tracked(void) {
  for (int i = 0; i < MAX_TRACKED; i++)
    if (in_use[i]) unlink(tracked[i]);
}

/* Runs while MPI may be blocked, so it does the cleanup itself instead of
 * setting a flag: unlink, sigaction and raise are async-signal-safe. The
 * previous disposition (normally: terminate) then takes the signal. */
static void on_signal(int sig) {
  remove_tracked();
  for (int i = 0; i < N_CAUGHT; i++)
    if (caught[i] == sig) sigaction(sig, &previous[i], NULL);
  raise(sig);
}

static void install_handlers(void) {
  if (handlers_installed) return;
  handlers_installed = 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < N_CAUGHT; i++) {
    sigaction(caught[i], &sa, &previous[i]);
    /* An ignored signal (nohup) stays ignored. */
    if (previous[i].sa_handler == SIG_IGN) sigaction(caught[i], &previous[i], NULL);
  }
}

static void block_caught(int how) {
  sigset_t set;
  sigemptyset(&set);
  for (int i = 0; i < N_CAUGHT; i++) sigaddset(&set, caught[i]);
  sigprocmask(how, &set, NULL);
}

static void track_one(const char *p) {
  if (strlen(p) >= PATH_LEN) return;
  if (!tracked && !(tracked = calloc(MAX_TRACKED, PATH_LEN))) return;
  block_caught(SIG_BLOCK);
  for (int i = 0; i < MAX_TRACKED; i++)
    if (!in_use[i]) {
      strcpy(tracked[i], p);
      in_use[i] = 1;
      break;
    }
  block_caught(SIG_UNBLOCK);
  reaper_send('+', p);
}

void io_track(const char *path, int comm_rank) {
  install_handlers();
  char side[PATH_LEN + 32];
  const char *p = io_posix_path(path);
  track_one(p);
  /* OMPIO's sharedfp/lockedfile component probes every MPI_File_open with
   * "<name>.locktest.<rank>" for a moment. */
  snprintf(side, sizeof(side), "%s.locktest.%d", p, comm_rank);
  track_one(side);
}

void io_untrack(const char *path) {
  const char *p = io_posix_path(path);
  size_t n = strlen(p);
  for (int i = 0; i < MAX_TRACKED; i++)
    if (in_use[i] && strncmp(tracked[i], p, n) == 0 &&
        (tracked[i][n] == 0 || strncmp(tracked[i] + n, ".locktest.", 10) == 0)) {
      in_use[i] = 0;
      reaper_send('-', tracked[i]);
    }
}

void io_fatal(const char *routine, const char *path, const char *why) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  error_linef("%s on '%s' failed on rank %d: %s; check the free space and permissions of -iodir", routine, path, rank,
              why);
  fflush(stderr);
  remove_tracked();
  MPI_Abort(MPI_COMM_WORLD, 2);
}

/* MPI's text for rc on one line (ROMIO's error stacks span several). */
static void mpi_error(int rc, char *s) {
  int len = 0;
  MPI_Error_string(rc, s, &len);
  for (char *p = s; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
}

void io_check(int rc, const char *routine, const char *path) {
  if (rc == MPI_SUCCESS) return;
  char s[MPI_MAX_ERROR_STRING];
  mpi_error(rc, s);
  io_fatal(routine, path, s);
}

/* ---- opening, stale files, unlink after open ---- */

/* ROMIO keeps a shared file pointer in ".<name>.shfp.<numbers>" next to the
 * file, created on first use and deleted at close. */
/* Companion files the MPI-IO layers keep open beside a data file: ROMIO's
 * shared-pointer file ".<name>.shfp.*" and Open MPI's sharedfp/lockedfile
 * "<name>-<jobid>-<pid>.lock" (made at every MPI_File_open). Every process
 * holds them open by descriptor once the file is open, so their names can go
 * with the data file's; a SIGKILL then leaves nothing behind. */
static int is_companion(const char *entry, const char *name) {
  size_t n = strlen(name), len = strlen(entry);
  if (entry[0] == '.' && strncmp(entry + 1, name, n) == 0 && strncmp(entry + 1 + n, ".shfp.", 6) == 0) return 1;
  return strncmp(entry, name, n) == 0 && entry[n] == '-' && len > n + 5 && strcmp(entry + len - 5, ".lock") == 0;
}

static void remove_companion_files(const char *path) {
  const char *p = io_posix_path(path);
  const char *slash = strrchr(p, '/');
  char dir[PATH_LEN], victim[2 * PATH_LEN + 2];
  if (slash) snprintf(dir, sizeof(dir), "%.*s", (int)(slash - p) + (slash == p), p);
  else snprintf(dir, sizeof(dir), ".");
  const char *name = slash ? slash + 1 : p;
  DIR *d = opendir(dir);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (is_companion(e->d_name, name)) {
      snprintf(victim, sizeof(victim), "%s/%s", dir, e->d_name);
      unlink(victim);
    }
  closedir(d);
}

/* The file of an earlier benchmark or run under the same name (IMB deletes
 * it first too); companions of killed runs went in the precheck. */
void io_delete_stale(MPI_Comm comm, const char *path) {
  int r;
  MPI_Comm_rank(comm, &r);
  if (r == 0) MPI_File_delete(path, MPI_INFO_NULL);  /* usually there is none: errors are expected */
  MPI_Barrier(comm);
}

void io_open(MPI_Comm comm, const char *path, int amode, MPI_File *fh) {
  int r;
  MPI_Comm_rank(comm, &r);
  io_track(path, r);
  io_check(MPI_File_open(comm, path, amode, MPI_INFO_NULL, fh), "MPI_File_open", path);
}

int io_unlink_open(MPI_File fh, MPI_Comm comm, const char *path, int shared_fp) {
  if (shared_fp) {
    /* ROMIO creates its shared-pointer file on rank 0's first shared call
     * and opens it in every other process on that process's first one:
     * touch it everywhere now so that its name can go with the file's. */
    io_check(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET), "MPI_File_seek_shared", path);
    MPI_Offset pos;
    io_check(MPI_File_get_position_shared(fh, &pos), "MPI_File_get_position_shared", path);
  }
  MPI_Barrier(comm);
  int r, gone = 1;
  MPI_Comm_rank(comm, &r);
  if (r == 0) {
    gone = unlink(io_posix_path(path)) == 0 || errno == ENOENT;
    remove_companion_files(path);
  }
  MPI_Bcast(&gone, 1, MPI_INT, 0, comm);
  if (gone) io_untrack(path);
  return gone;
}

void io_remove(MPI_Comm comm, const char *path) {
  int r;
  MPI_Comm_rank(comm, &r);
  MPI_Barrier(comm);
  if (r == 0) MPI_File_delete(path, MPI_INFO_NULL);
  MPI_Barrier(comm);
  io_untrack(path);
}

void io_close(MPI_File *fh, MPI_Comm comm, const char *path, int unlinked) {
  io_check(MPI_File_close(fh), "MPI_File_close", path);
  if (!unlinked) io_remove(comm, path);
}

/* ---- the start-up check of -iodir ---- */

static int check_dir(const char *dir, char *msg, size_t len) {
  const char *p = io_posix_path(dir);
  struct stat sb;
  if (stat(p, &sb) != 0) {
    snprintf(msg, len, "-iodir '%.200s' cannot be used: %s; give an existing directory (mkdir -p it first)", dir, strerror(errno));
    return 1;
  }
  if (!S_ISDIR(sb.st_mode)) {
    snprintf(msg, len, "-iodir '%.200s' is not a directory; give the directory for the benchmark files", dir);
    return 1;
  }
  if (access(p, W_OK | X_OK) != 0) {
    snprintf(msg, len, "-iodir '%.200s' is not writable: %s; give a directory you may write to", dir, strerror(errno));
    return 1;
  }
  return 0;
}

/* A real file through MPI-IO, as the benchmarks will write it: catches
 * read-only mounts, quotas, a full disk and MPI-IO back ends that refuse
 * the directory. */
static int probe_write(const options_t *o, const char *dir, int wrank, char *msg, size_t len) {
  char path[PATH_LEN], base[PATH_LEN], why[MPI_MAX_ERROR_STRING];
  if (io_file_name(base, sizeof(base), o->io_dir, -1, -1) != 0 ||
      snprintf(path, sizeof(path), "%s.probe_%d", base, wrank) >= (int)sizeof(path)) {
    snprintf(msg, len, "-iodir '%.200s' is too long a path; give a shorter one", dir);
    return 1;
  }
  io_track(path, 0);
  MPI_File fh;
  int rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                         MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS) {
    mpi_error(rc, why);
    snprintf(msg, len, "cannot create a file in -iodir '%.200s': %.160s; give a directory you may write to", dir, why);
    io_untrack(path);
    return 1;
  }
  char *buf = calloc(1, PROBE_BYTES);
  MPI_Status st;
  int got = 0;
  rc = buf ? MPI_File_write(fh, buf, PROBE_BYTES, MPI_BYTE, &st) : MPI_ERR_NO_MEM;
  if (rc == MPI_SUCCESS) MPI_Get_count(&st, MPI_BYTE, &got);
  if (rc == MPI_SUCCESS) rc = MPI_File_sync(fh);
  free(buf);
  int rc_close = MPI_File_close(&fh);
  unlink(io_posix_path(path));
  io_untrack(path);
  if (rc == MPI_SUCCESS && got != PROBE_BYTES) rc = MPI_ERR_NO_SPACE;
  if (rc == MPI_SUCCESS) rc = rc_close;
  if (rc != MPI_SUCCESS) {
    mpi_error(rc, why);
    snprintf(msg, len, "cannot write %d bytes to a file in -iodir '%.200s': %.160s; is the disk full? free space or give another -iodir",
             PROBE_BYTES, dir, why);
    return 1;
  }
  return 0;
}

/* The largest file space the run holds at once: per size, the sections a
 * timed loop may fill times X (io_sections; with -iter_policy off every
 * iteration gets its own), times the groups of -multi. */
static double disk_need(const options_t *o, const bench_desc *const *list, int n, int P) {
  int files = 0, single = 0;
  for (int i = 0; i < n; i++) {
    if (list[i]->cls == CLASS_SYNC) continue;  /* Open_Close writes one byte */
    files = 1;
    single |= list[i]->cls == CLASS_SINGLE;
  }
  if (!files) return 0;
  size_t *sizes = malloc(sizeof(size_t) * MAX_SIZES); /* not static: see reaper_names */
  if (!sizes) return 0;
  int ns = sizes_build(o, dtype_size(o->data_type), sizes, MAX_SIZES);
  int by_volume = o->iter_policy == POLICY_DYNAMIC || o->iter_policy == POLICY_AUTO;
  double vol = by_volume ? o->overall_vol_mb * 1048576.0 : INFINITY, most = 0;
  double mem = o->mem_gb * 1073741824.0;
  for (int i = 0; i < ns; i++) {
    if (2.0 * (double)sizes[i] > mem) continue;  /* skipped as out-of-mem (send + receive buffer) */
    double b = (double)io_sections(sizes[i], o->msgspersample, vol) * (double)sizes[i];
    most = b > most ? b : most;
  }
  free(sizes);
  int smallest = single ? 1 : (o->npmin < P ? o->npmin : P);
  return most * (o->multi >= 0 ? P / (smallest > 0 ? smallest : 1) : 1);
}

static int check_space(const options_t *o, const bench_desc *const *list, int n, const char *dir, int P,
                       char *msg, size_t len) {
  struct statvfs v;
  if (statvfs(io_posix_path(dir), &v) != 0) return 0;  /* unknown: the probe passed, go on */
  double avail = (double)v.f_bavail * (double)v.f_frsize, need = disk_need(o, list, n, P);
  if (avail >= need) return 0;
  snprintf(msg, len, "-iodir '%.200s' has %.1f MB free, but the IO benchmarks need up to %.1f MB there at once; "
           "free space, give another -iodir or lower -msglog", dir, avail / 1e6, need / 1e6);
  return 1;
}

/* What killed runs left (names only exist for moments, see files.h, but a
 * SIGKILL can hit one): removed once per host before anything runs.
 * Returns how many. */
static int remove_leftovers(const char *dir) {
  MPI_Comm host;
  int local, removed = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  MPI_Comm_rank(host, &local);
  MPI_Comm_free(&host);
  const char *p = io_posix_path(dir);
  DIR *d = local == 0 ? opendir(p) : NULL;
  char victim[2 * PATH_LEN + 2];
  for (struct dirent *e; d && (e = readdir(d)) != NULL;)
    if (io_is_leftover(e->d_name)) {
      snprintf(victim, sizeof(victim), "%s/%s", p, e->d_name);
      removed += unlink(victim) == 0;
    }
  if (d) closedir(d);
  return removed;
}

int io_precheck(const options_t *o, const bench_desc *const *list, int n, char *err, size_t errlen) {
  int wrank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const char *dir = o->io_dir[0] ? o->io_dir : ".";
  char msg[OPT_ERR_LEN] = "";
  start_reaper();
  int bad = check_dir(dir, msg, sizeof(msg));
  int any_bad = 0, removed = 0, total = 0;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!any_bad) removed = remove_leftovers(dir);
  /* An Allreduce, not a Reduce: no rank may create its probe file while
   * another host-local rank 0 still scans the directory. */
  MPI_Allreduce(&removed, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (wrank == 0 && total > 0)
    fprintf(stderr, "mpimark-core: warning: removed %d file(s) that an interrupted run left in -iodir '%.200s'\n", total, dir);
  bad = bad || probe_write(o, dir, wrank, msg, sizeof(msg));
  /* Every rank's probe file is gone before any rank measures the free space:
   * the others' probes must not count as used (a small tmpfs refused room it had). */
  MPI_Barrier(MPI_COMM_WORLD);
  bad = bad || check_space(o, list, n, dir, P, msg, sizeof(msg));
  if (bad && P > 1) {
    char host[MPI_MAX_PROCESSOR_NAME];
    int hl = 0;
    MPI_Get_processor_name(host, &hl);
    size_t used = strlen(msg);
    snprintf(msg + used, sizeof(msg) - used, " (rank %d on %s)", wrank, host);
  }
  /* Every rank checked its own view of the directory (ranks may sit on
   * different hosts); the lowest failing rank speaks for all. */
  int me = bad ? wrank : INT_MAX, first;
  MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == INT_MAX) return 0;
  MPI_Bcast(msg, (int)sizeof(msg), MPI_CHAR, first, MPI_COMM_WORLD);
  snprintf(err, errlen, "%s", msg);
  return -1;
}
