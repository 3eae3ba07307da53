/* SPDX-License-Identifier: ISC */
/* msg.c: messages, exit codes, the version. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "num.h"
#include "util.h"

const char *progname = "gpumem";
int verbosity = 1;

/* This thread's messages are kept here (msg_capture), or NULL. */
static _Thread_local struct sbuf *sink;

/* A kept message: this header, then len bytes of text. */
struct kept {
	int *said;		/* msg_once's flag, or NULL */
	size_t len;
};

int
exit_worst(int a, int b)
{
	if (a == EXIT_TROUBLE || b == EXIT_TROUBLE)
		return EXIT_TROUBLE;
	if (a == EXIT_NO || b == EXIT_NO)
		return EXIT_NO;
	return EXIT_OK;
}

void
util_init(const char *argv0)
{
	const char *p;

	if (argv0 != NULL && *argv0 != '\0') {
		p = strrchr(argv0, '/');
		progname = p != NULL ? p + 1 : argv0;
	}
	signal(SIGPIPE, SIG_DFL);
	/*
	 * Past a file size limit (ulimit -f) a write fails with EFBIG and we
	 * say so and exit 2; the default SIGXFSZ ends us without a word.
	 */
	signal(SIGXFSZ, SIG_IGN);
}

void
msg_trap_stops(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/*
 * Messages name hosts, processes and files from the input: each is made
 * safe for a terminal (text_clean) so that no escape sequence in a
 * process name reaches the user's screen, and no line break fakes a line
 * of our own.  Fixed buffers: a message must work when memory is out.
 */
static void vmsg_full(int *said, const char *color, const char *word,
    const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

void
vmsg(const char *fmt, va_list ap)
{
	vmsg_full(NULL, NULL, NULL, fmt, ap);
}

/*
 * One message: said counts it (msg_once), word is a verdict (msg_word).
 * In a decode thread it is kept for the merge to say in order.
 */
static void
vmsg_full(int *said, const char *color, const char *word, const char *fmt,
    va_list ap)
{
	char raw[4096], safe[sizeof(raw) + 8];
	int saved = errno, r;
	size_t n = strlen(fmt);

	r = vsnprintf(raw, sizeof(raw), fmt, ap);
	if (r < 0)
		raw[0] = '\0';
	else if ((size_t)r >= sizeof(raw))
		memcpy(raw + sizeof(raw) - 4, "...", 4);
	text_clean(raw, sizeof(raw), safe, sizeof(safe));
	if (sink != NULL) {
		struct kept k;
		size_t at = sink->len;

		k.said = said;
		sbuf_add(sink, &k, sizeof(k));
		sbuf_printf(sink, "%s: ", progname);
		if (word != NULL)
			sbuf_printf(sink, "%s: ", word);
		sbuf_printf(sink, "%s", safe);
		if (n > 0 && fmt[n - 1] == ':')
			sbuf_printf(sink, " %s", strerror(saved));
		sbuf_addc(sink, '\n');
		k.len = sink->len - at - sizeof(k);
		memcpy(sink->buf + at, &k, sizeof(k));
		return;
	}
	if (said != NULL && (*said)++)
		return;
	fflush(stdout);
	msg_progress_clear();
	fprintf(stderr, "%s: ", progname);
	if (word != NULL && msg_color_on(2))
		fprintf(stderr, "%s%s%s: ", color, word, COLOR_OFF);
	else if (word != NULL)
		fprintf(stderr, "%s: ", word);
	fputs(safe, stderr);
	if (n > 0 && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
}

void
msg_word(const char *color, const char *word, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg_full(NULL, color, word, fmt, ap);
	va_end(ap);
}

enum msg_color_when msg_color_when = COLOR_AUTO;

int
msg_color_parse(const char *s)
{
	static const char *const names[] = {"auto", "always", "never"};
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

int
msg_color_on(int fd)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (msg_color_when != COLOR_AUTO)
		return msg_color_when == COLOR_ALWAYS;
	/* https://no-color.org: set and not empty means no colour. */
	if (nc != NULL && nc[0] != '\0')
		return 0;
	return isatty(fd) && (term == NULL || strcmp(term, "dumb") != 0);
}

void
msg_tty_size(int fd, unsigned *cols, unsigned *rows)
{
	struct winsize ws;
	const char *e;
	uint32_t v;

	*cols = 80;
	*rows = 24;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 &&
	    ws.ws_row > 0) {
		*cols = ws.ws_col;
		*rows = ws.ws_row;
		return;
	}
	if ((e = getenv("COLUMNS")) != NULL &&
	    num_parse_u32(e, strlen(e), &v) == 0 && v >= 20 && v <= 1000)
		*cols = v;
	if ((e = getenv("LINES")) != NULL &&
	    num_parse_u32(e, strlen(e), &v) == 0 && v >= 10 && v <= 1000)
		*rows = v;
}

void
msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void
msg_once(int *said, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg_full(said, NULL, NULL, fmt, ap);
	va_end(ap);
}

void
msg_capture(struct sbuf *sb)
{
	sink = sb;
}

void
msg_replay(const struct sbuf *sb, size_t from, size_t to)
{
	struct kept k;

	while (from < to) {
		memcpy(&k, sb->buf + from, sizeof(k));
		from += sizeof(k);
		if (k.said == NULL || (*k.said)++ == 0) {
			fflush(stdout);
			msg_progress_clear();
			fwrite(sb->buf + from, 1, k.len, stderr);
		}
		from += k.len;
	}
}

void
warnmsg(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 1)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void
note(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 2)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	/* The run ends here: said now, even in a decode thread. */
	sink = NULL;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(EXIT_TROUBLE);
}

void
msg_bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: BUG at %s:%d: ", progname, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#define PROGRESS_EVERY_NS 250000000ULL	/* 4 times a second at most */

static int progress_tty = -1;	/* stderr a terminal: -1 not asked yet */
static int progress_shown;	/* a line is on the screen */
static uint64_t progress_last;	/* when, CLOCK_MONOTONIC ns */

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int
msg_progress_due(void)
{
	const char *term;
	uint64_t now;

	if (verbosity < 1)
		return 0;
	if (progress_tty < 0) {
		term = getenv("TERM");
		progress_tty = isatty(STDERR_FILENO) && (term == NULL ||
		    strcmp(term, "dumb") != 0);
		/* The first line after a quarter of a second: short runs show none. */
		progress_last = mono_ns();
	}
	if (!progress_tty)
		return 0;
	now = mono_ns();
	if (now - progress_last < PROGRESS_EVERY_NS)
		return 0;
	progress_last = now;
	return 1;
}

void
msg_progress_show(const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "\r%s: %s\033[K", progname, line);
	fflush(stderr);
	progress_shown = 1;
}

void
msg_progress_clear(void)
{
	if (!progress_shown)
		return;
	progress_shown = 0;
	fputs("\r\033[K", stderr);
	fflush(stderr);
}

void
msg_print_version(void)
{
	printf("%s (gpumem) %s\n", progname, GPUMEM_VERSION);
	exit(outfile_close_stdout());
}
