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

/*
 * fn handles SIGINT, SIGTERM and SIGHUP from now on, without SA_RESTART:
 * a blocked read, write or wait returns EINTR, so the command sees the
 * signal and ends in its own way (record, send; read keeps SA_RESTART
 * and an ignored signal ignored: read.c).
 */
void msg_trap_stops(void (*fn)(int));

/* "prog: msg\n" on stderr.  A format ending in ':' appends strerror(errno). */
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vmsg(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* msg() only when verbosity >= 1 (warnings) or >= 2 (progress). */
void warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* msg() then exit(EXIT_TROUBLE). */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Our own bug: print where it happened and abort. */
#define BUG(...) msg_bug_at(__FILE__, __LINE__, __VA_ARGS__)
void msg_bug_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

/*
 * Colour on a terminal (--color, every command): COLOR_AUTO colours what
 * goes to a terminal unless NO_COLOR is set and not empty or TERM is
 * "dumb"; always and never say it.  Never in a file or a pipe with auto.
 */
enum msg_color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
extern enum msg_color_when msg_color_when;
/* Parse "auto", "always", "never"; -1 when it is none. */
int msg_color_parse(const char *s);
/* Whether what goes to fd (1 or 2) is coloured. */
int msg_color_on(int fd);

/*
 * The size of the terminal on fd in characters: the tty's, else $COLUMNS
 * and $LINES, else 80x24.
 */
void msg_tty_size(int fd, unsigned *cols, unsigned *rows);
#define COLOR_RED	"\033[1;31m"	/* FAIL, TROUBLE, leaked */
#define COLOR_YELLOW	"\033[33m"	/* slow releases */
#define COLOR_GREEN	"\033[32m"	/* PASS */
#define COLOR_OFF	"\033[0m"

/*
 * "prog: WORD: msg\n" on stderr, WORD in colour (one of the COLOR_ above)
 * when stderr is coloured: a verdict.
 */
void msg_word(const char *color, const char *word, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * A progress line for long work: on stderr, only when stderr is a
 * terminal (not "dumb"), not with -q.  msg_progress_due() says whether one is
 * wanted now: at most every 250 ms, so the line changes at most 4 times a
 * second.  msg_progress_show() writes "prog: TEXT" over the previous one
 * ("\r", erase to the end of the line); msg_progress_clear() erases it, and
 * every message above erases it before it is written, so that no message
 * is written over it.
 */
int msg_progress_due(void);
void msg_progress_show(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
void msg_progress_clear(void);

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
void msg_print_version(void) __attribute__((noreturn));

#endif
