/* SPDX-License-Identifier: ISC */
/*
 * outfile.h: safe output: writes that end quietly on a closed pipe, the
 * end-of-output check, and output files that appear whole or not at all.
 */
#ifndef GPUMEM_OUTFILE_H
#define GPUMEM_OUTFILE_H

#include <stdio.h>

/*
 * Write n bytes to f.  On EPIPE re-raise SIGPIPE (so "| head" ends quietly);
 * on any other error return -1 with errno set.
 */
int outfile_ewrite_file(FILE *f, const void *p, size_t n);

/*
 * Flush and close stdout; on failure print "prog: write error: ..." and
 * return EXIT_TROUBLE, else EXIT_OK.  Call it last in every main().
 */
int outfile_close_stdout(void);

/*
 * Output to a named file is written to a temporary file beside it and
 * renamed into place by outfile_commit(), so a failed run never leaves half
 * a report.  outfile_open("-") is stdout; an existing file that is not a
 * regular file (a device, a fifo) is written in place.  Where the kernel
 * and file system can (Linux O_TMPFILE), the temporary file has no name
 * until outfile_commit() links it for the rename: nothing is left even
 * after SIGKILL.  Elsewhere a named temporary file is removed on
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT/SIGPIPE, at exit() and by outfile_abort().  The new file
 * keeps the mode of the one it replaces (a 0600 file stays 0600; root also
 * keeps its owner and group); a new file gets 0666 less the umask.
 */
struct outfile {
	FILE *f;
	char *path;	/* the final name, NULL for stdout */
	char *tmp;	/* the temporary name, NULL for stdout */
	int anon;	/* the file has no name yet (O_TMPFILE) */
};
/* Return 0, or -1 with a message already printed. */
int outfile_open(struct outfile *o, const char *path);
/* Flush, check, close, rename.  Return 0, or -1 with a message printed. */
int outfile_commit(struct outfile *o);
void outfile_abort(struct outfile *o);

/*
 * Whether the output path would replace one of the n inputs in[]: the
 * same file (st_dev and st_ino: through a link, a hard link, /dev/fd/1
 * redirected to it), or a file a directory among them holds (read takes
 * a directory's files, but for hidden ones).  Return that input's name,
 * else NULL: "-", a missing output, one that is no regular file (written
 * in place, not replaced).
 */
const char *outfile_input(const char *path, char *const *in, int n);

/*
 * A private work directory: mkdtemp(3) under $TMPDIR (else /tmp), for
 * files a run keeps for itself (the reader's merge in passes, runs.h).
 * It and every file named in it are removed by outfile_tmpdir_remove(), at
 * exit() and on SIGINT/SIGTERM/SIGHUP/SIGQUIT/SIGPIPE, as temporary output
 * files are.  One at a time.  outfile_tmpdir_make() returns its path, or
 * NULL with a message printed; outfile_tmpdir_file() puts the name of a new
 * file in it into sb.
 */
struct sbuf;
const char *outfile_tmpdir_make(void);
void outfile_tmpdir_file(struct sbuf *sb);
void outfile_tmpdir_remove(void);

#endif
