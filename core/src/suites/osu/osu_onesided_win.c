#include "suites/osu/osu_onesided_win.h"

#include "suites/osu/osu_buffers.h"

#include <string.h>

/* Dynamic windows are addressed by the target's own addresses: each rank
 * tells the other where its memory is attached. */
static int exchange_address(os_window_t *w, MPI_Comm comm, int peer) {
  MPI_Aint mine;
  int rc = MPI_Get_address(w->base, &mine);
  if (rc != MPI_SUCCESS) return rc;
  return MPI_Sendrecv(&mine, 1, MPI_AINT, peer, 0, &w->peer_disp, 1, MPI_AINT, peer, 0, comm, MPI_STATUS_IGNORE);
}

int os_window_open(os_window_t *w, osu_win_t kind, size_t bytes, MPI_Comm comm, int rank, int peer,
                   const char **failed) {
  memset(w, 0, sizeof(*w));
  w->win = MPI_WIN_NULL;
  w->kind = kind;
  w->bytes = bytes;
  int rc = MPI_SUCCESS;
  if (kind != OSU_WIN_ALLOCATE) {
    w->own = w->base = osu_alloc(bytes, 'a');  /* OSU's fill, written before any timing */
    /* Every rank must reach the collective creation: a rank without memory
     * still calls it with a zero size, and the caller sees the failure. */
    if (!w->own) {
      *failed = "posix_memalign";
      bytes = 0;
    }
  }
  switch (kind) {
    case OSU_WIN_CREATE:
      rc = MPI_Win_create(w->base, (MPI_Aint)bytes, 1, MPI_INFO_NULL, comm, &w->win);
      if (rc != MPI_SUCCESS) *failed = "MPI_Win_create";
      break;
    case OSU_WIN_ALLOCATE:
      rc = MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, comm, &w->base, &w->win);
      if (rc != MPI_SUCCESS) *failed = "MPI_Win_allocate";
      break;
    case OSU_WIN_DYNAMIC:
      rc = MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w->win);
      if (rc != MPI_SUCCESS) *failed = "MPI_Win_create_dynamic";
      else if (w->own && (rc = MPI_Win_attach(w->win, w->base, (MPI_Aint)bytes)) != MPI_SUCCESS)
        *failed = "MPI_Win_attach";
      break;
  }
  if (rc == MPI_SUCCESS) MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS && kind == OSU_WIN_ALLOCATE && w->base) {
    char a = 'a';
    rc = os_window_write(w, rank, &a, 1, bytes);
    if (rc != MPI_SUCCESS) *failed = "MPI_Win_lock (writing the window)";
  }
  if (rc == MPI_SUCCESS && kind == OSU_WIN_DYNAMIC && (rc = exchange_address(w, comm, peer)) != MPI_SUCCESS)
    *failed = "MPI_Sendrecv (the dynamic window's address)";
  if (rc == MPI_SUCCESS && !w->own && kind != OSU_WIN_ALLOCATE) rc = MPI_ERR_NO_MEM;
  return rc;
}

void os_window_close(os_window_t *w) {
  if (w->win != MPI_WIN_NULL) {
    if (w->kind == OSU_WIN_DYNAMIC && w->own) MPI_Win_detach(w->win, w->base);
    MPI_Win_free(&w->win);
  }
  osu_free(w->own);
  w->own = w->base = NULL;
}

int os_window_write(os_window_t *w, int rank, const void *fill, size_t fill_bytes, size_t n_fills) {
  int rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win);
  if (rc != MPI_SUCCESS) return rc;
  if (fill_bytes == 1) memset(w->base, *(const char *)fill, n_fills);
  else
    for (size_t i = 0; i < n_fills; i++) memcpy(w->base + i * fill_bytes, fill, fill_bytes);
  return MPI_Win_unlock(rank, w->win);
}

int os_window_read(os_window_t *w, int rank, void *out, size_t bytes) {
  int rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win);
  if (rc != MPI_SUCCESS) return rc;
  memcpy(out, w->base, bytes);
  return MPI_Win_unlock(rank, w->win);
}
