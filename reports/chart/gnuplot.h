/* SPDX-License-Identifier: ISC */
/*
 * gnuplot.h: the one place gpumem runs gnuplot.
 *
 * The child's life follows git's run-command: start it from an argv vector
 * (never a shell string, so nothing in a title or a file name is ever
 * interpreted), write the script to its standard input, close it, read
 * what it draws from its standard output, wait, and turn a non-zero status
 * into our exit 2 with gnuplot's own error messages passed through.
 * Writing and reading go on together (poll), so a large script and a
 * large picture cannot deadlock on two full pipes.  SIGPIPE is ignored
 * only while writing to the child: a gnuplot that dies early becomes an
 * error message, not a silent death of ours; a reader of our own output
 * that goes away still ends us quietly.
 */
#ifndef GPUMEM_GNUPLOT_H
#define GPUMEM_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

#include "util.h"

/* The message when gnuplot cannot be found (tests and man pages quote it). */
#define GNUPLOT_MISSING \
	"gnuplot is not installed: install the Debian package gnuplot-nox"

/*
 * Whether an executable gnuplot is on PATH: asked before a long input is
 * read, so that a missing gnuplot is said at once.
 */
int gnuplot_available(void);

/*
 * Run "gnuplot" (found on PATH) on script[0..len).  What it writes to its
 * standard output goes to out (named outname in messages) when out is not
 * NULL, else it is appended to buf.  gnuplot's standard error is passed
 * through to ours after it ends: always when it failed, else unless -q.
 *
 * Return 0 when gnuplot exited with status 0 and all it drew was written.
 * Otherwise return -1 after one message: GNUPLOT_MISSING, "gnuplot failed
 * (exit status N)" or "gnuplot was killed by signal N" after gnuplot's own
 * words, or a write error naming outname.  The caller exits EXIT_TROUBLE
 * and discards the output (outfile_abort).
 */
int gnuplot_run(const char *script, size_t len, FILE *out,
    const char *outname, struct sbuf *buf);

#endif
