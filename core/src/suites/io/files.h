/* The files of the IO suite outside the measured calls: opening, stale-file
 * deletion, the unlink-after-open rule, cleanup on signals and fatal
 * errors, and the start-up check of -iodir.
 *
 * Why unlink after open: once every rank holds the file open, its name is
 * removed; the open handles keep the data, and the space is freed when the
 * last handle closes, whether by MPI_File_close, a crash or SIGKILL. Names
 * still exist for a moment between creation and unlink, and for the whole
 * of Open_Close, which opens by name every iteration. Those names are
 * tracked and removed by a SIGINT/SIGTERM/SIGHUP handler, before
 * MPI_Abort, and by a reaper process per rank that outlives a SIGKILL
 * (files.c); only a kill of every process of the job at once (a batch
 * system's cgroup) can leave one, and the next run removes it before it
 * starts (io_precheck). */
#ifndef MPIMARK_IO_FILES_H
#define MPIMARK_IO_FILES_H

#include <mpi.h>
#include <stddef.h>
#include "engine/registry.h"

/* Remembers a name that exists on disk (and the companion an MPI-IO
 * library may create for this rank of the file's communicator), for the
 * signal handler, io_fatal and the reaper; io_untrack forgets them once
 * gone. */
void io_track(const char *path, int comm_rank);
void io_untrack(const char *path);

/* Ends the run: one line on stderr, tracked names removed, MPI_Abort with
 * exit code 2 (an I/O failure in the middle of a measurement cannot be
 * left to the engine). */
void io_fatal(const char *routine, const char *path, const char *why);
/* io_fatal with the MPI error string of rc, when rc is not MPI_SUCCESS. */
void io_check(int rc, const char *routine, const char *path);

/* Deletes a file left under path by an earlier benchmark or run.
 * Collective over comm. */
void io_delete_stale(MPI_Comm comm, const char *path);

/* Opens path on comm (collective), tracked until io_unlink_open. */
void io_open(MPI_Comm comm, const char *path, int amode, MPI_File *fh);

/* After every rank of comm opened fh: removes the name (and, with
 * shared_fp, ROMIO's shared-pointer file, after making every rank open
 * it). Returns 1 if the name is gone, 0 if the file system refused (the
 * file is then deleted by io_close). Collective over comm. */
int io_unlink_open(MPI_File fh, MPI_Comm comm, const char *path, int shared_fp);

/* Closes fh (collective) and deletes path unless it was unlinked. */
void io_close(MPI_File *fh, MPI_Comm comm, const char *path, int unlinked);
/* Deletes path once every rank of comm is done with it (collective). */
void io_remove(MPI_Comm comm, const char *path);

/* suite_desc.precheck: starts the reaper; -iodir exists and is a writable
 * directory on every rank; leftovers of killed runs are removed; it takes a
 * probe file and has room for the largest file the run needs. */
int io_precheck(const options_t *o, const bench_desc *const *list, int n, char *err, size_t errlen);

#endif
