/* SPDX-License-Identifier: ISC */
/* fuzz.c: what the fuzz targets share (see fuzz.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "rec.h"
#include "stream.h"
#include "tasktab.h"

volatile uint64_t fuzz_sink;

static int memfd = -1;
static char mempath[64];

const char *
fuzz_file(const uint8_t *data, size_t size)
{
	size_t off = 0;
	ssize_t w;

	if (memfd < 0) {
		memfd = memfd_create("fuzz-input", MFD_CLOEXEC);
		if (memfd < 0)
			fuzz_fail("memfd_create: %s", strerror(errno));
		snprintf(mempath, sizeof(mempath), "/proc/self/fd/%d", memfd);
	}
	if (ftruncate(memfd, 0) < 0)
		fuzz_fail("ftruncate: %s", strerror(errno));
	while (off < size) {
		w = pwrite(memfd, data + off, size - off, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			fuzz_fail("pwrite: %s", strerror(errno));
		off += (size_t)w;
	}
	return mempath;
}

static int
read_opts(const char *fmt, int clocked, const uint8_t *data, size_t size,
    struct sbuf *out)
{
	static FILE *devnull;
	struct readopts opt;
	struct stream *st;
	const struct rec *r;
	struct recw w;
	char *path, *mem = NULL;
	size_t memlen = 0;
	FILE *f;
	int status;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		fuzz_fail("/dev/null: %s", strerror(errno));
	path = (char *)fuzz_file(data, size);
	readopts_init(&opt);
	opt.format = fmt;
	opt.summaries = 1;
	if (clocked) {
		opt.have_start = 1;
		opt.start = 1767225600000000000ULL;	/* 2026-01-01 */
		opt.interval = 1000000000ULL;
	}
	f = devnull;
	if (out != NULL && (f = open_memstream(&mem, &memlen)) == NULL)
		fuzz_fail("open_memstream: %s", strerror(errno));
	st = stream_open(&path, 1, &opt);
	recw_init(&w, f);
	while ((r = stream_next(st)) != NULL)
		if (recw_put(&w, r) < 0)
			fuzz_fail("recw_put: %s", strerror(errno));
	if (recw_flush(&w) < 0)
		fuzz_fail("recw_flush: %s", strerror(errno));
	recw_release(&w);
	status = stream_close(st);
	if (out != NULL) {
		if (fclose(f) != 0)
			fuzz_fail("fclose: %s", strerror(errno));
		sbuf_add(out, mem, memlen);
		free(mem);
	}
	return status;
}

int
fuzz_read(const char *fmt, const uint8_t *data, size_t size,
    struct sbuf *out)
{
	return read_opts(fmt, 0, data, size, out);
}

/* Read with or without a clock; return whether any record came out. */
static int
roundtrip(const char *fmt, int clocked, const uint8_t *data, size_t size)
{
	struct sbuf a = SBUF_INIT, b = SBUF_INIT;
	int any;

	read_opts(fmt, clocked, data, size, &a);
	if (fuzz_read("stream", (const uint8_t *)a.buf, a.len, &b) !=
	    EXIT_OK)
		fuzz_fail("gpumem cannot read its own output:\n%s", a.buf);
	if (a.len != b.len || memcmp(a.buf, b.buf, a.len) != 0)
		fuzz_fail("the stream written does not read back the "
		    "same:\n--- written\n%s--- read back\n%s", a.buf, b.buf);
	/* More than the header line? */
	any = a.len > 0 && memchr(a.buf, '\n', a.len) != a.buf + a.len - 1;
	sbuf_release(&a);
	sbuf_release(&b);
	return any;
}

void
fuzz_read_roundtrip(const char *fmt, const uint8_t *data, size_t size)
{
	roundtrip(fmt, 0, data, size);
}

void
fuzz_read_clocked(const char *fmt, const uint8_t *data, size_t size)
{
	/* A log with times of its own reads the same with a clock given. */
	if (!roundtrip(fmt, 0, data, size))
		roundtrip(fmt, 1, data, size);
}

void
fuzz_tasks_csv(const struct tasklist *l, char **buf, size_t *len)
{
	struct tasktab_w *w;
	FILE *f;
	size_t i;

	if ((f = open_memstream(buf, len)) == NULL)
		fuzz_fail("open_memstream: %s", strerror(errno));
	w = tasktab_open(f, TT_CSV, 1);
	for (i = 0; i < l->n; i++)
		if (tasktab_put(w, &l->t[i]) < 0)
			fuzz_fail("tasktab_put: %s", strerror(errno));
	if (tasktab_close(w) < 0 || fclose(f) != 0)
		fuzz_fail("writing the table: %s", strerror(errno));
}

void
fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

uint8_t
fuzz_u8(struct fuzz_in *f)
{
	return f->off < f->n ? f->p[f->off++] : 0;
}

uint16_t
fuzz_u16(struct fuzz_in *f)
{
	uint16_t v = fuzz_u8(f);

	return (uint16_t)(v << 8 | fuzz_u8(f));
}

uint32_t
fuzz_u32(struct fuzz_in *f)
{
	uint32_t v = fuzz_u16(f);

	return v << 16 | fuzz_u16(f);
}

const uint8_t *
fuzz_bytes(struct fuzz_in *f, size_t n, size_t *got)
{
	const uint8_t *p = f->p + f->off;

	if (n > f->n - f->off)
		n = f->n - f->off;
	f->off += n;
	*got = n;
	return p;
}

int
fuzz_done(const struct fuzz_in *f)
{
	return f->off >= f->n;
}

/* libFuzzer calls this once; so does replay.c. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	progname = "fuzz";
	verbosity = 2;		/* every message's code runs too */
	return 0;
}
