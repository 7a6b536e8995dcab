#include "suites/io/kernels_io.h"
#include "engine/check.h"
#include "engine/datatypes.h"
#include "suites/io/files.h"
#include "suites/io/layout.h"
#include "util/patterns.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* indv: individual file pointer (Priv too, in a private file); expl:
 * explicit offsets; shared: the shared file pointer. */
typedef enum { ACC_INDV, ACC_EXPL, ACC_SHARED } access_t;

typedef struct {
  char path[4096];
  MPI_File fh;
  MPI_Comm fcomm;           /* the group, or MPI_COMM_SELF for a private file (S_, Priv) */
  int unlinked;             /* the name is gone (files.h) */
  access_t acc;
  int write, collective, nonblocking, private_file;
  size_t X, pos1, len;      /* this rank's len bytes at pos1 of every X (layout.h) */
  long sections;            /* iteration k uses section k mod sections */
  MPI_Datatype type;        /* len bytes travel as count x type (MPI_BYTE, or one block above INT_MAX) */
  int count;
  MPI_Datatype view;        /* the tiled filetype of P_/C_ indv, else MPI_DATATYPE_NULL */
  char routine[48], iroutine[48];  /* IMB's MPI routines, for error messages */
  char *pending;            /* the buffer of a started split collective */
  MPI_Status status;
  int verifying;            /* in the -check pass, between p_io and v_io */
  MPI_Offset last_off;      /* -check: file offset of the last transfer */
} io_state;

/* ---- the benchmark's name says what it does (IMB_set_bmark) ---- */

/* S_ flavours and Priv use one file per process, on MPI_COMM_SELF. */
static int private_name(const char *name) { return name[0] == 'S' || strcmp(strrchr(name, '_'), "_Priv") == 0; }

static void parse_name(const char *name, io_state *s) {
  const char *kind = strrchr(name, '_') + 1;
  s->collective = name[0] == 'C';
  s->nonblocking = name[2] == 'I';
  s->write = strstr(name, "Write") != NULL;
  s->acc = strcmp(kind, "Expl") == 0 ? ACC_EXPL : strcmp(kind, "Shared") == 0 ? ACC_SHARED : ACC_INDV;
  const char *op = s->write ? "write" : "read";
  const char *where = s->acc == ACC_EXPL ? "_at" : s->acc == ACC_SHARED ? (s->collective ? "_ordered" : "_shared") : "";
  const char *all = s->collective && s->acc != ACC_SHARED ? "_all" : "";
  snprintf(s->routine, sizeof(s->routine), "MPI_File_%s%s%s", op, where, all);
  if (s->collective) snprintf(s->iroutine, sizeof(s->iroutine), "MPI_File_%s%s%s_begin/_end", op, where, all);
  else snprintf(s->iroutine, sizeof(s->iroutine), "MPI_File_i%s%s", op, where);
}

/* ---- where iteration k goes ---- */

static MPI_Offset file_offset(const io_state *s, long slot) {
  return (MPI_Offset)(s->private_file ? io_private_offset(s->len, slot) : io_shared_offset(s->X, s->pos1, slot));
}

/* The same offset in the units of the view: the tiled view shows a rank
 * only its own bytes. */
static MPI_Offset view_offset(const io_state *s, long slot) {
  return s->view != MPI_DATATYPE_NULL ? (MPI_Offset)((size_t)slot * s->len) : file_offset(s, slot);
}

/* Pointer flavours begin every pass over the sections at the start of the
 * file: each timed loop (calibration, warm-up, measurement, -check) starts
 * at iteration 0, so the file never outgrows its sections and a read never
 * runs past the prepared data. Explicit offsets need nothing. */
static void rewind_pointer(io_state *s, long slot) {
  if (slot != 0 || s->acc == ACC_EXPL) return;
  if (s->acc == ACC_SHARED) io_check(MPI_File_seek_shared(s->fh, 0, MPI_SEEK_SET), "MPI_File_seek_shared", s->path);
  else io_check(MPI_File_seek(s->fh, 0, MPI_SEEK_SET), "MPI_File_seek", s->path);
}

/* ---- the MPI-IO calls: [collective ? C_ routine : P_/S_ routine], write or read ---- */

#define PICK(W, R, ...) (s->write ? W(__VA_ARGS__) : R(__VA_ARGS__))

static int transfer(io_state *s, long slot, char *buf) {
  MPI_Offset off = view_offset(s, slot);
  MPI_Status *st = &s->status;
  switch (s->acc) {
    case ACC_EXPL:
      return s->collective ? PICK(MPI_File_write_at_all, MPI_File_read_at_all, s->fh, off, buf, s->count, s->type, st)
                           : PICK(MPI_File_write_at, MPI_File_read_at, s->fh, off, buf, s->count, s->type, st);
    case ACC_SHARED:
      return s->collective ? PICK(MPI_File_write_ordered, MPI_File_read_ordered, s->fh, buf, s->count, s->type, st)
                           : PICK(MPI_File_write_shared, MPI_File_read_shared, s->fh, buf, s->count, s->type, st);
    default:
      return s->collective ? PICK(MPI_File_write_all, MPI_File_read_all, s->fh, buf, s->count, s->type, st)
                           : PICK(MPI_File_write, MPI_File_read, s->fh, buf, s->count, s->type, st);
  }
}

/* Nonblocking: MPI_File_i* with a request; C_ uses IMB's split collectives,
 * which have none (f_io ends them). */
static int begin(io_state *s, long slot, char *buf, MPI_Request *req) {
  MPI_Offset off = view_offset(s, slot);
  *req = MPI_REQUEST_NULL;
  s->pending = buf;
  switch (s->acc) {
    case ACC_EXPL:
      return s->collective ? PICK(MPI_File_write_at_all_begin, MPI_File_read_at_all_begin, s->fh, off, buf, s->count, s->type)
                           : PICK(MPI_File_iwrite_at, MPI_File_iread_at, s->fh, off, buf, s->count, s->type, req);
    case ACC_SHARED:
      return s->collective ? PICK(MPI_File_write_ordered_begin, MPI_File_read_ordered_begin, s->fh, buf, s->count, s->type)
                           : PICK(MPI_File_iwrite_shared, MPI_File_iread_shared, s->fh, buf, s->count, s->type, req);
    default:
      return s->collective ? PICK(MPI_File_write_all_begin, MPI_File_read_all_begin, s->fh, buf, s->count, s->type)
                           : PICK(MPI_File_iwrite, MPI_File_iread, s->fh, buf, s->count, s->type, req);
  }
}

static int end(io_state *s, MPI_Request *req) {
  if (!s->collective) return MPI_Wait(req, &s->status);
  switch (s->acc) {
    case ACC_EXPL: return PICK(MPI_File_write_at_all_end, MPI_File_read_at_all_end, s->fh, s->pending, &s->status);
    case ACC_SHARED: return PICK(MPI_File_write_ordered_end, MPI_File_read_ordered_end, s->fh, s->pending, &s->status);
    default: return PICK(MPI_File_write_all_end, MPI_File_read_all_end, s->fh, s->pending, &s->status);
  }
}

/* Every transfer must move all its bytes: OMPIO reports a full disk as a
 * short count with MPI_SUCCESS, and a short read would time nothing. */
static void expect_all(io_state *s, const char *routine) {
  int got = 0;
  MPI_Get_count(&s->status, s->type, &got);
  size_t bytes = got == MPI_UNDEFINED ? 0 : (size_t)got * (s->type == MPI_BYTE ? 1 : s->len);
  if (bytes == s->len) return;
  char why[128];
  snprintf(why, sizeof(why), "only %zu of %zu bytes were transferred", bytes, s->len);
  io_fatal(routine, s->path, why);
}

/* ---- setup and teardown ---- */

/* Read flavours read what this writes: every rank fills its own part of
 * every section with the writer's values at their file offsets (rank 0's in
 * a shared file, as IMB's file initialisation; the owner's in a private
 * one), so -check knows what each byte must be. */
static void prepare(bench_ctx *c, io_state *s) {
  size_t es = dtype_size(c->dt);
  char *buf = malloc(s->len ? s->len : 1);
  if (!buf) io_fatal("preparing the file", s->path, "out of memory");
  int writer = s->private_file ? c->rank : 0;
  for (long k = 0; k < s->sections && s->len > 0; k++) {
    MPI_Offset off = file_offset(s, k);
    fill_values(buf, c->dt, s->len / es, writer, (size_t)off / es);
    io_check(MPI_File_write_at(s->fh, off, buf, s->count, s->type, &s->status), "MPI_File_write_at", s->path);
    expect_all(s, "MPI_File_write_at");
  }
  free(buf);
  c_io(c);  /* every rank sees every rank's data */
}

/* IMB's views: displacement 0, etype MPI_BYTE, "native"; P_/C_ indv see
 * only their own block of every X bytes (len bytes at pos1, resized to X). */
static void set_view(io_state *s) {
  MPI_Datatype filetype = MPI_BYTE;
  if (s->acc == ACC_INDV && !s->private_file && s->len > 0) {
    int blocklen = s->count;
    MPI_Aint disp = (MPI_Aint)s->pos1;
    MPI_Datatype t = s->type, block;
    MPI_Type_create_struct(1, &blocklen, &disp, &t, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)s->X, &s->view);
    MPI_Type_commit(&s->view);
    MPI_Type_free(&block);
    filetype = s->view;
  }
  io_check(MPI_File_set_view(s->fh, 0, MPI_BYTE, filetype, "native", MPI_INFO_NULL), "MPI_File_set_view", s->path);
}

/* IMB's name in -iodir: IMB_out, _g<group> with -multi, _<world rank> for
 * a private file. */
static io_state *new_state(bench_ctx *c, int private_file) {
  io_state *s = calloc(1, sizeof(*s));
  if (!s) MPI_Abort(MPI_COMM_WORLD, 2);
  const options_t *o = c->opt;
  int wrank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  int group = o->multi >= 0 ? group_of_rank(wrank, P, c->np, 1, o->map_p, o->map_q) : -1;
  if (io_file_name(s->path, sizeof(s->path), o->io_dir, group, private_file ? wrank : -1) != 0)
    io_fatal("naming the file", o->io_dir, "the path is too long");
  s->fh = MPI_FILE_NULL;
  s->view = MPI_DATATYPE_NULL;
  s->type = MPI_BYTE;
  s->fcomm = private_file ? MPI_COMM_SELF : c->comm;
  s->private_file = private_file;
  c->user = s;
  return s;
}

void s_io(bench_ctx *c) {
  const char *name = c->desc->name;
  io_state *s = new_state(c, private_name(name));
  parse_name(name, s);
  const options_t *o = c->opt;
  size_t es = dtype_size(c->dt), unit = es > IO_SPLIT_UNIT ? es : IO_SPLIT_UNIT;
  s->X = c->bytes;
  io_portion(c->rank, c->np, s->X, unit, &s->pos1, &s->len);
  if (s->len > INT_MAX) {
    s->type = block_type(s->len);
    s->count = 1;
  } else {
    s->count = (int)s->len;
  }
  /* Aggregate mode: the engine's disjoint slots, one per iteration of the
   * loop; otherwise IMB's count for the mode, wrapping if a loop is longer. */
  int nonaggr = c->aggregate == 0 || (c->desc->flags & BF_NONAGGR_ITERS);
  if (c->aggregate == 1) s->sections = c->s_slots;
  else s->sections = io_sections(s->X, nonaggr ? o->msgs_nonaggr : o->msgspersample, o->overall_vol_mb * 1048576.0);

  io_delete_stale(s->fcomm, s->path);
  io_open(s->fcomm, s->path, MPI_MODE_CREATE | MPI_MODE_RDWR | (s->private_file ? MPI_MODE_UNIQUE_OPEN : 0), &s->fh);
  /* The name goes first, the handles do the rest: a run killed while the
   * file is prepared leaves nothing either. */
  s->unlinked = io_unlink_open(s->fh, s->fcomm, s->path, s->acc == ACC_SHARED);
  if (!s->write) prepare(c, s);
  set_view(s);
}

void t_io(bench_ctx *c) {
  io_state *s = c->user;
  if (!s) return;
  if (s->fh != MPI_FILE_NULL) io_close(&s->fh, s->fcomm, s->path, s->unlinked);
  if (s->view != MPI_DATATYPE_NULL) MPI_Type_free(&s->view);
  if (s->type != MPI_BYTE) MPI_Type_free(&s->type);
  free(s);
  c->user = NULL;
}

/* ---- the measured pattern ---- */

static char *buffer_of(bench_ctx *c, const io_state *s, long iter) {
  return s->write ? sbuf_at(c, iter) : rbuf_at(c, iter);
}

/* The -check pass (between p_io and v_io): I flavours use their
 * nonblocking routines, so -check proves what the overlap loop times; the
 * P_ shared flavours take turns in rank order, so that each rank knows
 * where the shared pointer put its bytes. */
static void checked_transfer(bench_ctx *c, io_state *s, long iter) {
  long slot = iter % s->sections;
  char *buf = buffer_of(c, s, iter);
  int turns = s->acc == ACC_SHARED && !s->collective;
  rewind_pointer(s, slot);
  for (int t = 0; t < (turns ? c->np : 1); t++) {
    if (!turns || c->rank == t) {
      s->last_off = file_offset(s, slot);
      if (turns) io_check(MPI_File_get_position_shared(s->fh, &s->last_off), "MPI_File_get_position_shared", s->path);
      if (s->nonblocking) {
        MPI_Request req;
        io_check(begin(s, slot, buf, &req), s->iroutine, s->path);
        io_check(end(s, &req), s->iroutine, s->path);
        expect_all(s, s->iroutine);
      } else {
        io_check(transfer(s, slot, buf), s->routine, s->path);
        expect_all(s, s->routine);
      }
    }
    if (turns) MPI_Barrier(s->fcomm);
  }
}

void k_io(bench_ctx *c, long iter) {
  io_state *s = c->user;
  if (s->verifying) {
    checked_transfer(c, s, iter);
    return;
  }
  long slot = iter % s->sections;
  rewind_pointer(s, slot);
  io_check(transfer(s, slot, buffer_of(c, s, iter)), s->routine, s->path);
  expect_all(s, s->routine);
}

void st_io(bench_ctx *c, long iter, MPI_Request *req) {
  io_state *s = c->user;
  long slot = iter % s->sections;
  rewind_pointer(s, slot);
  io_check(begin(s, slot, buffer_of(c, s, iter), req), s->iroutine, s->path);
}

void f_io(bench_ctx *c, long iter, MPI_Request *req) {
  io_state *s = c->user;
  io_check(end(s, req), s->iroutine, s->path);
  expect_all(s, s->iroutine);
}

/* IMB's assured completion of a write (IMB 3.1 fix): every process of the
 * file's communicator has a consistent view afterwards. */
void c_io(bench_ctx *c) {
  io_state *s = c->user;
  io_check(MPI_File_sync(s->fh), "MPI_File_sync", s->path);
  MPI_Barrier(s->fcomm);
  io_check(MPI_File_sync(s->fh), "MPI_File_sync", s->path);
}

/* ---- -check ---- */

void p_io(bench_ctx *c, long iter) {
  io_state *s = c->user;
  if (c->r_len) poison(rbuf_at(c, iter), c->r_len);
  s->verifying = 1;
}

/* Reads: the bytes must be the writer's values at the offset read. Writes:
 * the rank reads its bytes back through its own handle and view and
 * compares them with its send buffer (its values from position 0). */
long v_io(bench_ctx *c, long iter) {
  io_state *s = c->user;
  s->verifying = 0;
  size_t es = dtype_size(c->dt), n = s->len / es;
  char *got = rbuf_at(c, iter);
  if (!s->write) return check_block(c, got, s->private_file ? c->rank : 0, (size_t)s->last_off / es, n);
  int turns = s->acc == ACC_SHARED && !s->collective;
  MPI_Offset at = turns ? s->last_off : view_offset(s, iter % s->sections);
  io_check(MPI_File_read_at(s->fh, at, got, s->count, s->type, &s->status), "MPI_File_read_at", s->path);
  return check_block(c, got, c->rank, 0, n);
}

/* ---- Open_Close ---- */

/* The file is created here; the measured opens leave out MPI_MODE_CREATE
 * (IMB passes it, the file exists by then either way), so when a stopped
 * rank's signal handler removes the name, the other ranks cannot create it
 * again before the launcher stops them too. */
void s_open_close(bench_ctx *c) {
  io_state *s = new_state(c, 0);
  io_delete_stale(s->fcomm, s->path);
  io_open(s->fcomm, s->path, MPI_MODE_CREATE | MPI_MODE_RDWR, &s->fh);  /* tracked while Open_Close runs */
  io_check(MPI_File_close(&s->fh), "MPI_File_close", s->path);
}

/* IMB's pattern: every process opens the same file, writes one byte so the
 * open is not optimised away, and closes it. */
void k_open_close(bench_ctx *c, long iter) {
  io_state *s = c->user;
  MPI_File fh;
  char one = 1;
  int rc = MPI_File_open(s->fcomm, s->path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh), cls = 0;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  if (cls == MPI_ERR_NO_SUCH_FILE) io_fatal("MPI_File_open", s->path, "the file was removed while Open_Close ran (was another rank stopped?)");
  io_check(rc, "MPI_File_open", s->path);
  io_check(MPI_File_write(fh, &one, 1, MPI_BYTE, MPI_STATUS_IGNORE), "MPI_File_write", s->path);
  io_check(MPI_File_close(&fh), "MPI_File_close", s->path);
}

void t_open_close(bench_ctx *c) {
  io_state *s = c->user;
  if (!s) return;
  io_remove(s->fcomm, s->path);
  free(s);
  c->user = NULL;
}
