/* SPDX-License-Identifier: ISC */
/*
 * input.c: plain or compressed input (gzip, zstd, xz, bzip2) through one
 * buffer, with a line reader, and a decoding layer between them: UTF-16
 * (LE or BE) is decoded to UTF-8 as it streams, a UTF-8 byte order mark
 * is dropped, and NUL bytes at the start of a line (a file cut while a
 * writer kept appending) are passed over and counted.
 *
 * The decoding layer is inputdec.c's.
 *
 * The decompressors are unzip.h's; unpack() here drives them over the
 * file's bytes: members one after another, trailing garbage, a cut.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "inputint.h"
#include "unzip.h"
#include "util.h"

static void
set_error(struct input *in, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
set_error(struct input *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(in->err, sizeof(in->err), fmt, ap);
	va_end(ap);
	in->failed = 1;
	in->eof = 1;
}

/* The live reader's hook (see input_set_wait_hook). */
static int (*wait_hook)(void *);
static void *wait_arg;
static volatile sig_atomic_t all_ended;

void
input_end_all(void)
{
	all_ended = 1;
}

void
input_set_wait_hook(int (*fn)(void *), void *arg)
{
	wait_hook = fn;
	wait_arg = arg;
}

/*
 * Before a read of in that would wait for data, ask the hook; return
 * whether it says the input ends here.  A regular file never waits, and
 * without a hook there is nothing to ask: no poll(2) then.
 */
static int
hook_stops(struct input *in)
{
	struct pollfd pf;

	if (wait_hook == NULL || in->is_file)
		return 0;
	pf.fd = in->fd;
	pf.events = POLLIN;
	pf.revents = 0;
	if (poll(&pf, 1, 0) != 0)
		return 0;	/* data, the end or an error: read(2) says */
	return wait_hook(wait_arg);
}

/*
 * After input_end_all(): how many of the n bytes wanted may still be read.
 * What had reached us when reading ended (the bytes in the pipe or the
 * socket, counted once, at the first read after the end) is still taken,
 * never more, so a signal ends the input after the data sent before it,
 * however far the reader was behind, and a writer that goes on cannot
 * keep it going.  A regular file ends at once.
 */
static size_t
drain_left(struct input *in, size_t n)
{
	int k;

	if (in->drain < 0)
		in->drain = !in->is_file && ioctl(in->fd, FIONREAD, &k) == 0 &&
		    k > 0 ? k : 0;
	if ((unsigned long long)in->drain < n)
		n = (size_t)in->drain;
	return n;
}

/*
 * Wait until in has data or its end, every signal blocked but while
 * waiting: one that ends the inputs (input_end_all) cannot slip in
 * between the look at the flag and the wait, and the wait ends with it
 * (-1, EINTR) even when the handler was installed with SA_RESTART, as
 * one must be where an interrupted write(2) to the output would be an
 * error.  A read(2) of in then does not wait.
 */
static int
wait_ready(struct input *in)
{
	struct pollfd pf;
	sigset_t all, was;
	int r;

	pf.fd = in->fd;
	pf.events = POLLIN;
	pf.revents = 0;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &was);
	r = all_ended ? -1 : ppoll(&pf, 1, NULL, &was);
	if (r < 0 && !all_ended && errno != EINTR)
		r = 0;		/* cannot wait so: read(2) waits */
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	return r < 0 ? -1 : 0;
}

static ssize_t
raw_read(struct input *in, void *p, size_t n)
{
	ssize_t r;

	for (;;) {
		/* all_ended again: a signal may come while the hook works. */
		if (!all_ended && hook_stops(in) && !all_ended)
			n = 0;
		else if (all_ended)
			n = drain_left(in, n);
		if (n == 0) {
			in->cut = 1;
			return 0;
		}
		/*
		 * Live (a hook is set), never waiting in read(2), where
		 * SA_RESTART would keep us.
		 */
		if (!in->is_file && wait_hook != NULL && !all_ended &&
		    wait_ready(in) < 0)
			continue;
		r = read(in->fd, p, n);
		if (r > 0 && in->drain >= 0)
			in->drain -= r;
		if (r >= 0 || errno != EINTR)
			break;
		/* A signal: the hook may want to stop now. */
	}
	if (r < 0)
		set_error(in, "read error: %s", strerror(errno));
	else
		in->raw += (uint64_t)r;
	return r;
}

/* Read more compressed bytes when none are left; set zeof at the end. */
static void
zfill(struct input *in)
{
	ssize_t r;

	if (in->zavail > 0 || in->zeof)
		return;
	r = raw_read(in, in->zbuf, ZBUFSZ);
	if (r <= 0) {
		in->zeof = 1;
		return;
	}
	in->zin = in->zbuf;
	in->zavail = (size_t)r;
}

/*
 * After a member's end, with fewer compressed bytes left than a magic, or
 * before a member, with fewer than its header: move them to the front and
 * read more behind them (a read may cut the next member's magic, or the
 * header the decoder reads before the member).
 */
static void
zmore(struct input *in)
{
	ssize_t r;

	memmove(in->zbuf, in->zin, in->zavail);
	in->zin = in->zbuf;
	r = raw_read(in, in->zbuf + in->zavail, ZBUFSZ - in->zavail);
	if (r <= 0)
		in->zeof = 1;
	else
		in->zavail += (size_t)r;
}

/* Where in the compressed file the next unread byte is, for messages. */
static unsigned long long
zoffset(const struct input *in)
{
	return (unsigned long long)(in->raw - in->zavail);
}

/*
 * Decompress into dst[0, want); return the bytes made, 0 at the end (or
 * on an error: in->failed).  Whatever was decoded before damage or a cut
 * is delivered first.  After a member's end, more data must start another
 * member (or be padding between members), else it is trailing garbage.
 */
static size_t
unpack(struct input *in, unsigned char *dst, size_t want)
{
	size_t out, used, skip;
	int rc;

	for (;;) {
		zfill(in);
		if (in->failed)
			return 0;
		if (in->zend) {
			if (in->zavail == 0)
				return 0;	/* ended cleanly */
			rc = unzip_next(in->z, in->zin, in->zavail, &skip);
			if (rc < 0 && !in->zeof) {
				zmore(in);	/* a read cut the magic */
				continue;
			}
			if (rc == 2) {
				in->zin += skip;
				in->zavail -= skip;
				continue;
			}
			if (rc <= 0) {
				set_error(in, "trailing garbage after %s data "
				    "at byte %llu", unzip_name(in->z),
				    zoffset(in));
				return 0;
			}
			in->zend = 0;
		}
		out = want;
		used = in->zavail;
		rc = unzip_step(in->z, in->zin, &used, dst, &out,
		    in->raw - in->zavail);
		in->zin += used;
		in->zavail -= used;
		if (rc < 0)
			set_error(in, "%s", unzip_error(in->z));
		if (rc > 0)
			in->zend = 1;
		if (out > 0 || rc < 0)
			return out;
		if (used == 0 && rc == 0 && in->zavail > 0 && !in->zeof) {
			zmore(in);	/* a read cut a member's header */
			continue;
		}
		if (used == 0 && rc == 0 && in->zeof) {
			if (!in->cut)
				set_error(in, "unexpected end of %s data "
				    "(truncated file?) after %llu bytes",
				    unzip_name(in->z),
				    (unsigned long long)in->raw);
			return 0;
		}
	}
}

/* The bytes under the decoding layer: up to want of them into dst. */
size_t
input_low_fill(struct input *in, unsigned char *dst, size_t want)
{
	ssize_t r;

	if (in->z != NULL)
		return unpack(in, dst, want);
	r = raw_read(in, dst, want);
	return r > 0 ? (size_t)r : 0;
}

/* Bytes one read may add after end: READSZ, or what is left of buf. */
size_t
input_room(const struct input *in)
{
	return BUFSZ - in->end > READSZ ? READSZ : BUFSZ - in->end;
}

/*
 * Make room and read more data after end, READSZ bytes at most.  Return
 * the number of new bytes; 0 means the end (or an error, with in->failed
 * set).  The unread bytes move to the front when no more are left than
 * have been read (a line's tail, usually: the move costs at most what
 * was read), or when the buffer is full.
 */
size_t
input_fill(struct input *in)
{
	size_t got;

	if (in->eof)
		return 0;
	if (in->pos > 0 && (in->end >= BUFSZ ||
	    in->end - in->pos <= in->pos)) {
		memmove(in->buf, in->buf + in->pos, in->end - in->pos);
		in->base += in->pos;
		in->end -= in->pos;
		in->pos = 0;
	}
	if (in->end >= BUFSZ)
		return 0;
	if (in->enc != ENC_BYTES) {
		got = input_u16_fill(in);
		if (got == 0)
			in->eof = 1;
		return got;
	}
	got = input_low_fill(in, in->buf + in->end, input_room(in));
	if (got == 0)
		in->eof = 1;
	in->end += got;
	return got;
}

/* Pass over the NUL bytes at pos; return how many there were. */
uint64_t
input_skip_nuls(struct input *in)
{
	uint64_t n = 0;

	for (;;) {
		while (in->pos < in->end && in->buf[in->pos] == '\0') {
			in->pos++;
			n++;
		}
		if (in->pos < in->end || input_fill(in) == 0)
			return n;
	}
}

/* Standard input after input_close(), with what it had read ahead. */
static struct input *stdin_kept;

void
input_keep(struct input *in)
{
	if (!in->is_stdin)
		BUG("input_keep: not standard input");
	input_close(in);
}

int
input_looks(const char *path, size_t n,
    int (*sniff)(const unsigned char *p, size_t n))
{
	struct input *in = input_open(path);
	const unsigned char *p;
	int yes;

	if (in == NULL)
		return 0;
	n = input_peek(in, &p, n);
	yes = sniff(p, n);
	input_close(in);	/* standard input is kept */
	return yes;
}

struct input *
input_open(const char *path)
{
	struct input *in;
	struct stat st;
	const char *zname;
	ssize_t r;

	if (strcmp(path, "-") == 0 && stdin_kept != NULL) {
		in = stdin_kept;
		stdin_kept = NULL;
		return in;
	}
	in = ecalloc(1, sizeof(*in));
	in->drain = -1;
	if (strcmp(path, "-") == 0) {
		in->fd = STDIN_FILENO;
		in->is_stdin = 1;
		in->name = estrdup("<stdin>");
		in->is_file = fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode);
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			free(in);
			return NULL;
		}
		if (fstat(in->fd, &st) < 0)
			st.st_mode = 0;
		if (S_ISDIR(st.st_mode)) {
			close(in->fd);
			free(in);
			errno = EISDIR;
			return NULL;
		}
		in->is_file = S_ISREG(st.st_mode);
		in->name = estrdup(path);
	}
	in->buf = emalloc(BUFSZ + 4);	/* see u16_fill, input_getline */

	/*
	 * Sniff the raw bytes for a compression's magic, reading on only
	 * while they may still be one: a live input that sent "1\n" and
	 * waits is not kept waiting for more.  They are read where plain
	 * data stays; compressed ones move to zbuf.
	 */
	r = 0;
	while (unzip_unsure(in->buf, (size_t)r)) {
		ssize_t k = raw_read(in, in->buf + r, READSZ - (size_t)r);

		if (k <= 0)
			break;
		r += k;
	}
	if (in->failed) {
		errno = EIO;
		input_close(in);
		return NULL;
	}
	if ((zname = unzip_sniff(in->buf, (size_t)r)) != NULL) {
		in->zbuf = emalloc(ZBUFSZ);
		memcpy(in->zbuf, in->buf, (size_t)r);
		in->z = unzip_new(zname);
		in->zin = in->zbuf;
		in->zavail = (size_t)r;
	} else {
		in->end = (size_t)r;
		if (r == 0)
			in->eof = 1;
	}
	input_decode_setup(in);
	return in;
}

void
input_close(struct input *in)
{
	if (in == NULL)
		return;
	if (in->is_stdin && in->cookie == NULL && !in->failed &&
	    (!in->eof || in->pos < in->end) && stdin_kept == NULL) {
		/* Bytes read ahead belong to stdin: keep them for the next. */
		stdin_kept = in;
		return;
	}
	if (in->cookie != NULL)
		fclose(in->cookie);
	unzip_free(in->z);
	if (!in->is_stdin && in->fd >= 0)
		close(in->fd);
	free(in->zbuf);
	free(in->ebuf);
	free(in->buf);
	free(in->name);
	free(in);
}

const char *
input_name(const struct input *in)
{
	return in->name;
}

const char *
input_compression(const struct input *in)
{
	return in->z != NULL ? unzip_name(in->z) : NULL;
}

int
input_is_file(const struct input *in)
{
	return in->is_file;
}

size_t
input_peek(struct input *in, const unsigned char **p, size_t n)
{
	if (n > INPUT_MAXLINE)
		n = INPUT_MAXLINE;
	while (in->end - in->pos < n && input_fill(in) > 0)
		;
	*p = in->buf + in->pos;
	return in->end - in->pos < n ? in->end - in->pos : n;
}

size_t
input_peek_more(struct input *in, const unsigned char **p, size_t have)
{
	size_t n = in->end - in->pos;

	if (n <= have && n < INPUT_MAXLINE)
		input_fill(in);
	n = in->end - in->pos;
	*p = in->buf + in->pos;
	return n < INPUT_MAXLINE ? n : INPUT_MAXLINE;
}

void
input_skip(struct input *in, size_t n)
{
	if (n > in->end - in->pos)
		n = in->end - in->pos;
	in->pos += n;
}

ssize_t
input_read(struct input *in, void *buf, size_t n)
{
	size_t k;

	if (in->pos == in->end && input_fill(in) == 0)
		return in->failed ? -1 : 0;
	k = in->end - in->pos;
	if (k > n)
		k = n;
	memcpy(buf, in->buf + in->pos, k);
	in->pos += k;
	return (ssize_t)k;
}

int
input_getline(struct input *in, char **line, size_t *len)
{
	unsigned char *nl;
	size_t scanned = 0, n;
	int toolong = 0;

	in->nuls = in->pendnul + input_skip_nuls(in);
	in->pendnul = 0;
	for (;;) {
		nl = memchr(in->buf + in->pos + scanned, '\n',
		    in->end - in->pos - scanned);
		if (nl != NULL)
			break;
		scanned = in->end - in->pos;
		if (scanned >= INPUT_MAXLINE) {
			/* Drop what we have and keep looking for the end. */
			if (!toolong) {
				in->lineno++;
				in->lineoff = in->base + in->pos;
			}
			toolong = 1;
			in->pos = in->end;
			scanned = 0;
		}
		if (input_fill(in) == 0) {
			if (toolong) {
				/*
				 * The over-long line ends with the data: its
				 * tail is part of it, not a line of its own.
				 */
				in->pos = in->end;
				return in->failed ? -1 : 2;
			}
			if (in->pos == in->end)
				return in->failed ? -1 : 0;
			/* The last line has no newline. */
			nl = in->buf + in->end;
			break;
		}
		if (toolong)
			scanned = 0;
	}
	n = (size_t)(nl - (in->buf + in->pos));
	if (toolong) {
		in->pos += n + (nl < in->buf + in->end);
		return 2;
	}
	in->unterminated = nl == in->buf + in->end;
	*line = (char *)in->buf + in->pos;
	in->lineno++;
	in->lineoff = in->base + in->pos;
	in->pos += n + (nl < in->buf + in->end);
	*nl = '\0';	/* buf has one spare byte past BUFSZ for this */
	if (n > 0 && (*line)[n - 1] == '\r')
		(*line)[--n] = '\0';
	if (n >= 3 && memcmp(*line, "\xef\xbb\xbf", 3) == 0) {
		*line += 3;	/* files joined with cat: each had its mark */
		n -= 3;
	}
	*len = n;
	return 1;
}

uint64_t
input_line_nuls(const struct input *in)
{
	return in->nuls + in->pendnul;
}

const char *
input_encoding(const struct input *in)
{
	switch (in->enc) {
	case ENC_UTF16LE:
		return "UTF-16LE";
	case ENC_UTF16BE:
		return "UTF-16BE";
	default:
		return NULL;
	}
}

uint64_t
input_lineno(const struct input *in)
{
	return in->lineno;
}

int
input_unterminated(const struct input *in)
{
	return in->unterminated;
}

uint64_t
input_offset(const struct input *in)
{
	return in->lineoff;
}

const char *
input_error(const struct input *in)
{
	return in->failed ? in->err : "no error";
}

int
input_failed(const struct input *in)
{
	return in->failed;
}

uint64_t
input_raw_bytes(const struct input *in)
{
	return in->raw;
}

static ssize_t
cookie_read(void *c, char *buf, size_t n)
{
	ssize_t r = input_read(c, buf, n);

	if (r < 0) {
		errno = EIO;
		return -1;
	}
	return r;
}

FILE *
input_fopen(struct input *in)
{
	cookie_io_functions_t io = { cookie_read, NULL, NULL, NULL };

	if (in->cookie == NULL) {
		in->cookie = fopencookie(in, "r", io);
		if (in->cookie == NULL)
			die("fopencookie:");
	}
	return in->cookie;
}
