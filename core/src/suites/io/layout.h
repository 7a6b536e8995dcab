/* Where IMB-IO's transfers land in a file, and what the files are called:
 * pure arithmetic without MPI, so CTest can check it (tests/test_io_layout.c).
 *
 * X bytes per iteration are split among the processes of a file as IMB does
 * (IMB_get_rank_portion): in whole units (IMB's 4-byte assign type), evenly,
 * the first X mod n units one more, the last portion cut at X. Iteration k
 * uses section k of the file: bytes [k*X, (k+1)*X) of a shared file, or
 * [k*len, (k+1)*len) of a private one, so aggregated transfers go to
 * disjoint file sections. */
#ifndef MPIMARK_IO_LAYOUT_H
#define MPIMARK_IO_LAYOUT_H

#include <stddef.h>

#define IO_BASE_NAME "IMB_out"  /* IMB_settings_io.h FILENAME */
#define IO_SPLIT_UNIT 4         /* IMB-IO's assign type: int */

/* This rank's part of X: byte offset pos1 within a section and length len
 * (0 for ranks beyond the data; pos1 is then X). */
void io_portion(int rank, int nprocs, size_t X, size_t unit, size_t *pos1, size_t *len);

/* Sections a size needs: as many as transfers a timed loop may make,
 * x_sample capped by overall_vol / X (IMB's n_sample formula); 1 for X = 0. */
long io_sections(size_t X, long x_sample, double overall_vol);

/* File offset of a rank's transfer in section k: shared file (X, pos1) or
 * private file (len). */
size_t io_shared_offset(size_t X, size_t pos1, long k);
size_t io_private_offset(size_t len, long k);

/* The tiled view of P_/C_ indv (len bytes at pos1 in every X): the file
 * offset of view offset v. */
size_t io_view_to_file(size_t v, size_t X, size_t pos1, size_t len);

/* IMB's file name in dir ("" = current directory): IMB_out, _g<group> with
 * -multi (group >= 0), _<rank> for a private file (rank >= 0). Returns 0,
 * or -1 if it does not fit in n bytes. */
int io_file_name(char *buf, size_t n, const char *dir, int group, int rank);

/* Whether a directory entry is one of this suite's files or an MPI-IO
 * library's companion of one: [.]IMB_out[_g<n>][_<n>], alone or followed
 * by '.' or '-' and anything (ROMIO's ".IMB_out.shfp.*", OMPIO's
 * "IMB_out.locktest.*", lock and data files of its shared-pointer
 * components, our probe files). */
int io_is_leftover(const char *entry);

/* The POSIX path of an MPI-IO file name: ROMIO's "ufs:", "nfs:", "lustre:"
 * ... prefix removed. */
const char *io_posix_path(const char *name);

#endif
