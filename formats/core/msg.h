/* SPDX-License-Identifier: ISC */
/*
 * msg.h: the version, exit codes and messages of every gpumem binary.
 *
 * Messages follow one shape, "prog: where: what", on stderr.  Data goes to
 * stdout only.
 */
#ifndef GPUMEM_MSG_H
#define GPUMEM_MSG_H

#include <stdarg.h>
#include <stddef.h>

#define GPUMEM_VERSION "0.1.0"

/* The exit status of every gpumem binary (see EXIT STATUS in each man page). */
enum exit_status {
	EXIT_OK = 0,		/* success, warnings allowed */
	EXIT_NO = 1,		/* a check said no: a gate failed */
	EXIT_TROUBLE = 2	/* usage, I/O, bad input under --strict */
};

/* Combine two statuses: trouble wins over "no", "no" over success. */
int exit_worst(int a, int b);

extern const char *progname;	/* "gpumem-read", set by util_init() */
extern int verbosity;		/* 0 with -q, 1 by default, 2 with -v */

/*
 * Set progname from argv[0] (its last path component) and restore the
 * default SIGPIPE action, so that "gpumem-x | head" ends quietly even when
 * a parent ignored SIGPIPE.  SIGXFSZ is ignored: a write past ulimit -f
 * fails with EFBIG ("File too large"), reported like any write error.
 */
void util_init(const char *argv0);

/* "prog: msg\n" on stderr.  A format ending in ':' appends strerror(errno). */
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vmsg(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* msg() only when verbosity >= 1 (warnings) or >= 2 (progress). */
void warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* msg() then exit(EXIT_TROUBLE). */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Our own bug: print where it happened and abort. */
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)
void bug_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));


/*
 * Messages of a reader worker thread (workers.h).  While a thread has a
 * sink, its messages are kept there, not written: the main thread writes
 * them with msg_replay() where a run on one thread would have written
 * them.  Offsets into a sink taken between messages (its len) bound a
 * replay.
 */
struct sbuf;
void msg_capture(struct sbuf *sink);	/* NULL: write again */
void msg_replay(const struct sbuf *sink, size_t from, size_t to);

/*
 * msg() the first time only: *said is the caller's flag, read and set by
 * the thread that writes the message (at replay for a kept one), so that
 * "once a run" is the same run on any number of threads.
 */
void msg_once(int *said, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Print "prog (gpumem) VERSION" to stdout and exit 0. */
void print_version(void) __attribute__((noreturn));

#endif
