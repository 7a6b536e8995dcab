/* The one-sided programs' windows (OSU 7.4's -w create|allocate|dynamic):
 * opening one per size as OSU does, and writing and reading this rank's part
 * of it. Used by osu_onesided.c only. */
#ifndef MPIMARK_OSU_ONESIDED_WIN_H
#define MPIMARK_OSU_ONESIDED_WIN_H

#include <mpi.h>
#include <stddef.h>
#include "suites/osu/osu.h"

typedef struct {
  MPI_Win win;
  osu_win_t kind;
  char *base;          /* this rank's window memory */
  char *own;           /* the memory we allocated for it (create, dynamic); NULL for allocate */
  size_t bytes;
  MPI_Aint peer_disp;  /* where the peer's window memory starts (unit 1 byte): 0, or its address (dynamic) */
} os_window_t;

/* Collective over comm (two ranks: rank and peer). Opens a window of bytes
 * per rank, written with OSU's 'a', with the window's errors returned, not
 * fatal. Returns MPI_SUCCESS or this rank's failing call's code, with that
 * call named in *failed. The ranks must then agree (one may fail alone) and
 * all close what was opened: os_window_close takes a half-open window. */
int os_window_open(os_window_t *w, osu_win_t kind, size_t bytes, MPI_Comm comm, int rank, int peer,
                   const char **failed);
/* Collective when a window was created. */
void os_window_close(os_window_t *w);

/* Writes this rank's window memory with `fill`'s bytes (`fill_bytes` of them,
 * repeated) inside an exclusive lock of itself: a local store into window
 * memory is only defined inside an epoch (MPI's separate memory model).
 * Not collective. Returns an MPI error code. */
int os_window_write(os_window_t *w, int rank, const void *fill, size_t fill_bytes, size_t n_fills);
/* Copies this rank's window memory [0, bytes) out, inside an exclusive lock
 * of itself, so that what others put there is visible. Returns an MPI error code. */
int os_window_read(os_window_t *w, int rank, void *out, size_t bytes);

#endif
