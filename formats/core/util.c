/* SPDX-License-Identifier: ISC */
/* util.c: messages, checked allocation, parsing helpers and safe output. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/*
 * Temporary output files that must disappear if a signal ends the run.  A
 * handful at most (a report and its charts), so a fixed table is enough.
 */
#define MAXTMP 16
static char *volatile tmpfiles[MAXTMP];

static void
tmp_cleanup_signal(int sig)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (tmpfiles[i] != NULL)
			unlink(tmpfiles[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * At exit, a temporary file still registered belongs to a run that did
 * not commit it (die(), an out-of-memory exit): remove it.
 */
static void
tmp_cleanup_exit(void)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (tmpfiles[i] != NULL)
			unlink(tmpfiles[i]);
}

static void
tmp_register(char *path)
{
	static int atexit_done;
	int i;

	if (!atexit_done && atexit(tmp_cleanup_exit) == 0)
		atexit_done = 1;
	for (i = 0; i < MAXTMP; i++)
		if (tmpfiles[i] == NULL) {
			tmpfiles[i] = path;
			break;
		}
	signal(SIGINT, tmp_cleanup_signal);
	signal(SIGTERM, tmp_cleanup_signal);
	signal(SIGHUP, tmp_cleanup_signal);
}

static void
tmp_unregister(const char *path)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (tmpfiles[i] == path)
			tmpfiles[i] = NULL;
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

void *
emalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *
ecalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *
erealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		die("out of memory (%zu bytes)", n);
	return q;
}

void *
ereallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		die("out of memory (%zu x %zu bytes)", n, size);
	return erealloc(p, n * size);
}

void *
egrow(void *p, size_t n, size_t size)
{
	if (n != 0 && (n & (n - 1)) != 0)
		return p;	/* the room is the next power of two: some left */
	return ereallocarray(p, n != 0 ? 2 * n : 1, size);
}

char *
estrdup(const char *s)
{
	return estrndup(s, strlen(s));
}

char *
estrndup(const char *s, size_t n)
{
	char *p = emalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

int
parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || n > 20)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9)
			return -1;
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int
parse_u32(const char *s, size_t n, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(s, n, &v) < 0 || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

uint64_t
opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	uint64_t v;

	if (parse_u64(arg, strlen(arg), &v) < 0 || v < min || v > max)
		die("%s: '%s': expected an integer (allowed %llu-%llu)", opt,
		    arg, (unsigned long long)min, (unsigned long long)max);
	return v;
}

static int
idrange_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

int
idset_parse(struct idset *set, const char *s)
{
	const char *p = s;

	for (;;) {
		const char *q = p;
		uint32_t lo, hi;

		while (*q >= '0' && *q <= '9')
			q++;
		if (parse_u32(p, (size_t)(q - p), &lo) < 0)
			return -1;
		hi = lo;
		if (*q == '-') {
			p = ++q;
			while (*q >= '0' && *q <= '9')
				q++;
			if (parse_u32(p, (size_t)(q - p), &hi) < 0 || hi < lo)
				return -1;
		}
		set->r = ereallocarray(set->r, set->n + 1, sizeof(*set->r));
		set->r[set->n].lo = lo;
		set->r[set->n].hi = hi;
		set->n++;
		if (*q == '\0')
			break;
		if (*q != ',')
			return -1;
		p = q + 1;
	}
	qsort(set->r, set->n, sizeof(*set->r), idrange_cmp);
	return 0;
}

int
idset_has(const struct idset *set, uint32_t v)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (v >= set->r[i].lo && v <= set->r[i].hi)
			return 1;
	return 0;
}

void
idset_release(struct idset *set)
{
	free(set->r);
	set->r = NULL;
	set->n = 0;
}

void
sbuf_grow_slow(struct sbuf *sb, size_t extra)
{
	size_t need;

	if (extra > SIZE_MAX - sb->len - 1)
		die("out of memory");
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return;
	if (sb->cap < 64)
		sb->cap = 64;
	while (sb->cap < need)
		sb->cap = sb->cap > SIZE_MAX / 2 ? need : sb->cap * 2;
	sb->buf = erealloc(sb->buf, sb->cap);
}

void
sbuf_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		BUG("vsnprintf failed");
	sbuf_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void
sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf != NULL)
		sb->buf[0] = '\0';
}

void
sbuf_release(struct sbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

int
ewrite_file(FILE *f, const void *p, size_t n)
{
	if (n == 0)
		return 0;
	if (fwrite(p, 1, n, f) == n)
		return 0;
	if (errno == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	return -1;
}

int
close_stdout(void)
{
	int failed = 0;

	if (fflush(stdout) != 0 || ferror(stdout))
		failed = 1;
	if (fclose(stdout) != 0)
		failed = 1;
	if (failed) {
		if (errno == EPIPE) {
			signal(SIGPIPE, SIG_DFL);
			raise(SIGPIPE);
		}
		msg("standard output: write error:");
		return EXIT_TROUBLE;
	}
	return EXIT_OK;
}

/*
 * Give the temporary file fd the mode of the file it will replace (and,
 * when we are root, its owner and group), else the mode of a new file.
 * Done before anything is written: mkstemp made it 0600, so the content
 * of a private file is never readable by others, not even for a moment.
 * The set-id bits are not kept: a report is no program.
 */
static void
keep_mode(int fd, const char *path)
{
	struct stat st;
	mode_t um;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		/* chown first: it may clear mode bits. */
		if (geteuid() == 0)
			(void)fchown(fd, st.st_uid, st.st_gid);
		(void)fchmod(fd, st.st_mode & 0777);
		return;
	}
	um = umask(0);
	umask(um);
	(void)fchmod(fd, 0666 & ~um);
}

int
outfile_open(struct outfile *o, const char *path)
{
	const char *slash;
	int fd;

	memset(o, 0, sizeof(*o));
	if (path == NULL || strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	/*
	 * A device or a pipe (-o /dev/stdout, /dev/full, a fifo) is written
	 * in place: there is nothing to replace, and renaming over it would
	 * destroy it.
	 */
	{
		struct stat st;

		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			o->f = fopen(path, "w");
			if (o->f == NULL) {
				msg("%s: cannot open for writing:", path);
				return -1;
			}
			o->path = estrdup(path);
			return 0;
		}
	}
	o->path = estrdup(path);
	slash = strrchr(path, '/');
	{
		struct sbuf sb = SBUF_INIT;

		if (slash != NULL)
			sbuf_add(&sb, path, (size_t)(slash - path + 1));
		sbuf_printf(&sb, ".%s.tmpXXXXXX",
		    slash != NULL ? slash + 1 : path);
		o->tmp = sb.buf;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		msg("%s: cannot create output:", path);
		free(o->tmp);
		free(o->path);
		o->tmp = o->path = NULL;
		return -1;
	}
	tmp_register(o->tmp);
	keep_mode(fd, path);
	o->f = fdopen(fd, "w");
	if (o->f == NULL) {
		msg("%s:", path);
		close(fd);
		outfile_abort(o);
		return -1;
	}
	return 0;
}

int
outfile_commit(struct outfile *o)
{
	int failed = 0;

	if (o->path == NULL) {
		if (fflush(o->f) != 0 || ferror(o->f)) {
			if (errno == EPIPE) {
				signal(SIGPIPE, SIG_DFL);
				raise(SIGPIPE);
			}
			msg("standard output: write error:");
			return -1;
		}
		return 0;
	}
	if (fflush(o->f) != 0 || ferror(o->f))
		failed = 1;
	if (fclose(o->f) != 0)
		failed = 1;
	o->f = NULL;
	if (failed) {
		msg("%s: write error:", o->path);
		outfile_abort(o);
		return -1;
	}
	if (o->tmp == NULL) {
		/* Written in place (not a regular file). */
		free(o->path);
		o->path = NULL;
		return 0;
	}
	if (rename(o->tmp, o->path) != 0) {
		msg("%s: cannot rename %s into place:", o->path, o->tmp);
		outfile_abort(o);
		return -1;
	}
	tmp_unregister(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void
outfile_abort(struct outfile *o)
{
	if (o->f != NULL && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp != NULL) {
		unlink(o->tmp);
		tmp_unregister(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}

size_t
utf8_seq(const unsigned char *p, size_t n)
{
	uint32_t c;
	size_t len, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		c = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		c = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		c = p[0] & 0x07;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond the last code point. */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return len;
}

/*
 * Whether the character at p (k bytes of valid UTF-8) is a control
 * character: C0, DEL, or C1 (U+0080 to U+009F, which some terminals
 * take as ESC sequences: U+009B is CSI).
 */
static int
is_control(const unsigned char *p, size_t k)
{
	if (k == 1)
		return p[0] < 0x20 || p[0] == 0x7f;
	return k == 2 && p[0] == 0xc2 && p[1] < 0xa0;
}

char *
clean_text(const char *s, size_t maxchars, char *buf, size_t cap)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0, chars = 0, k;

	if (cap < 8)
		BUG("clean_text: cap %zu", cap);
	while (n > 0) {
		k = utf8_seq(p, n);
		if (chars + 1 > maxchars || o + (k ? k : 1) + 4 > cap) {
			/* Cut: the last characters make room for "...". */
			while (chars + 3 > maxchars && o > 0) {
				do
					o--;
				while (o > 0 && (buf[o] & 0xc0) == 0x80);
				chars--;
			}
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (k == 0) {
			buf[o++] = '?';
			k = 1;
		} else if (is_control(p, k))
			buf[o++] = ' ';
		else {
			memcpy(buf + o, p, k);
			o += k;
		}
		p += k;
		n -= k;
		chars++;
	}
	buf[o] = '\0';
	return buf;
}

void
print_version(void)
{
	printf("%s (gpumem) %s\n", progname, GPUMEM_VERSION);
	exit(close_stdout());
}

static const char digits2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* Exactly 8 digits of n (< 10^8): four independent pairs. */
static void
put8(char *p, uint32_t n)
{
	uint32_t a = n / 10000, b = n % 10000;

	memcpy(p, digits2 + 2 * (a / 100), 2);
	memcpy(p + 2, digits2 + 2 * (a % 100), 2);
	memcpy(p + 4, digits2 + 2 * (b / 100), 2);
	memcpy(p + 6, digits2 + 2 * (b % 100), 2);
}

/* Exactly 4 digits of n (< 10^4). */
static inline void
put4(char *p, uint32_t n)
{
	memcpy(p, digits2 + 2 * (n / 100), 2);
	memcpy(p + 2, digits2 + 2 * (n % 100), 2);
}

/* Up to 4 digits of n (< 10^4), no leading zeros; return how many. */
static inline size_t
put_upto4(char *p, uint32_t n)
{
	if (n < 10) {
		p[0] = (char)('0' + n);
		return 1;
	}
	if (n < 100) {
		memcpy(p, digits2 + 2 * n, 2);
		return 2;
	}
	if (n < 1000) {
		p[0] = (char)('0' + n / 100);
		memcpy(p + 1, digits2 + 2 * (n % 100), 2);
		return 3;
	}
	put4(p, n);
	return 4;
}

/*
 * The digits of n (< 10^8), no leading zeros: at most two divisions deep,
 * for the small numbers of every record (GPU, pid, MiB).
 */
static size_t
put_small(char *dst, uint32_t n)
{
	size_t k;

	if (n < 10000)
		return put_upto4(dst, n);
	k = put_upto4(dst, n / 10000);
	put4(dst + k, n % 10000);
	return k + 4;
}

/*
 * The record stream is mostly 19-digit timestamps, and this is the
 * writer's hot loop: split into 8-digit parts with two divisions, then
 * format the parts with independent two-digit lookups (a digit-by-digit
 * loop is a chain of dependent divisions).
 */
size_t
fmt_u64(char *dst, uint64_t v)
{
	size_t n;

	if (v < 100000000ULL)
		n = put_small(dst, (uint32_t)v);
	else if (v < 10000000000000000ULL) {
		n = put_small(dst, (uint32_t)(v / 100000000ULL));
		put8(dst + n, (uint32_t)(v % 100000000ULL));
		n += 8;
	} else {
		uint64_t rest = v % 10000000000000000ULL;

		n = put_small(dst, (uint32_t)(v / 10000000000000000ULL));
		put8(dst + n, (uint32_t)(rest / 100000000ULL));
		put8(dst + n + 8, (uint32_t)(rest % 100000000ULL));
		n += 16;
	}
	dst[n] = '\0';
	return n;
}
