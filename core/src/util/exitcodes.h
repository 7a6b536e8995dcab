/* The exit status of mpimark-core, the same for the IMB suites and the tools
 * (README "Exit status"); every rank returns the same one. */
#ifndef MPIMARK_EXITCODES_H
#define MPIMARK_EXITCODES_H

#define EXIT_BAD_INPUT 2     /* one line on stderr says what is wrong and how to fix it */
#define EXIT_SKIPPED 3       /* some sizes did not fit in -mem or in free memory */
#define EXIT_CHECK_FAILED 4  /* -check (or mpibench -c/-C, b_eff's marks) found wrong data */
#define EXIT_NO_MPIT 5       /* mpimark-core mpit: the library has no MPI tool information interface */

#define ERR_LEN 512          /* room for the one-line error message */

#endif
