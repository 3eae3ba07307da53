/* SPDX-License-Identifier: ISC */
/* msg.c: messages, exit codes, the version. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *progname = "gpumem";
int verbosity = 1;

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

/*
 * Messages name hosts, processes and files from the input: each is made
 * safe for a terminal (clean_text) so that no escape sequence in a
 * process name reaches the user's screen, and no line break fakes a line
 * of our own.  Fixed buffers: a message must work when memory is out.
 */
void
vmsg(const char *fmt, va_list ap)
{
	char raw[4096], safe[sizeof(raw) + 8];
	int saved = errno, r;
	size_t n = strlen(fmt);

	r = vsnprintf(raw, sizeof(raw), fmt, ap);
	if (r < 0)
		raw[0] = '\0';
	else if ((size_t)r >= sizeof(raw))
		memcpy(raw + sizeof(raw) - 4, "...", 4);
	clean_text(raw, sizeof(raw), safe, sizeof(safe));
	fflush(stdout);
	fprintf(stderr, "%s: %s", progname, safe);
	if (n > 0 && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
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

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(EXIT_TROUBLE);
}

void
bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: BUG at %s:%d: ", progname, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void
print_version(void)
{
	printf("%s (gpumem) %s\n", progname, GPUMEM_VERSION);
	exit(close_stdout());
}
