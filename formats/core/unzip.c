/* SPDX-License-Identifier: ISC */
/*
 * unzip.c: gzip, zstd, xz and bzip2 through their reference libraries
 * behind one step function (unzip.h).  Each codec says how its library
 * takes one step, where a member starts, and how to start the next.
 *
 * Libraries rather than code of our own or a `zstd -dc` child: every
 * Debian system has all four (dpkg needs them), they are the formats'
 * reference decoders, and in-process the messages keep the file's name
 * and the offset of the damage.
 */
#include <bzlib.h>
#include <limits.h>
#include <lzma.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
/* For ZSTD_getFrameHeader and the sizes its decoder allocates: the header
 * is the format's (RFC 8878), the sizes the library's own arithmetic. */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "unzip.h"
#include "util.h"

struct unzip {
	const struct codec *c;
	z_stream zs;		/* gzip */
	ZSTD_DStream *zstd;	/* zstd */
	lzma_stream xz;		/* xz */
	bz_stream bz;		/* bzip2 */
	int fresh;		/* zstd: a frame starts (its header is next) */
	uint64_t held;		/* bytes of the budget held (zstd, xz) */
	char err[200];
};

struct codec {
	const char *name;
	size_t magiclen;	/* the bytes its magic numbers need */
	size_t pad;		/* zero padding between members: its unit */
	void (*start)(struct unzip *);
	/* unzip_step's contract, on the codec's own state. */
	int (*step)(struct unzip *, const unsigned char *src, size_t *srclen,
	    unsigned char *dst, size_t *dstlen, uint64_t at);
	void (*end)(struct unzip *);
};

/* The budget of all decoders together (unzip_set_budget), and what they
 * hold of it. */
static pthread_mutex_t budget_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t budget = (uint64_t)UNZIP_BUDGET_MIB << 20;
static uint64_t budget_held;

void
unzip_set_budget(uint64_t mib)
{
	pthread_mutex_lock(&budget_lock);
	budget = (mib > 0 ? mib : 1) << 20;
	pthread_mutex_unlock(&budget_lock);
}

static uint64_t
mib_up(uint64_t n)
{
	return (n >> 20) + ((n & ((1U << 20) - 1)) != 0);
}

/*
 * Let z hold need bytes of the budget in all (what it holds already is
 * part of them; it never holds less than before): 0, or -1 with z->err
 * saying what the member at byte at needs and what the budget allows.
 */
static int
budget_hold(struct unzip *z, uint64_t need, uint64_t at)
{
	uint64_t others, cap;
	int ok;

	if (need <= z->held)
		return 0;
	pthread_mutex_lock(&budget_lock);
	others = budget_held - z->held;
	cap = budget;
	ok = need <= cap && others <= cap - need;
	if (ok) {
		budget_held = others + need;
		z->held = need;
	}
	pthread_mutex_unlock(&budget_lock);
	if (ok)
		return 0;
	snprintf(z->err, sizeof(z->err), "%s data near byte %llu needs "
	    "%llu MiB to decompress, over the budget of %llu MiB", z->c->name,
	    (unsigned long long)at, (unsigned long long)mib_up(need),
	    (unsigned long long)(cap >> 20));
	if (others > 0)
		snprintf(z->err + strlen(z->err), sizeof(z->err) -
		    strlen(z->err), " (%llu MiB held by other inputs)",
		    (unsigned long long)mib_up(others));
	snprintf(z->err + strlen(z->err), sizeof(z->err) - strlen(z->err),
	    "; --mem-budget raises it");
	return -1;
}

static void
budget_release(struct unzip *z)
{
	pthread_mutex_lock(&budget_lock);
	budget_held -= z->held;
	pthread_mutex_unlock(&budget_lock);
	z->held = 0;
}

static void
gz_start(struct unzip *z)
{
	if (inflateInit2(&z->zs, 15 + 16) != Z_OK)
		die("zlib: cannot initialise");
}

static int
gz_step(struct unzip *z, const unsigned char *src, size_t *srclen,
    unsigned char *dst, size_t *dstlen, uint64_t at)
{
	int rc;

	z->zs.next_in = (unsigned char *)src;
	z->zs.avail_in = (uInt)(*srclen > UINT_MAX ? UINT_MAX : *srclen);
	z->zs.next_out = dst;
	z->zs.avail_out = (uInt)*dstlen;
	rc = inflate(&z->zs, Z_NO_FLUSH);
	*srclen = (size_t)(z->zs.next_in - src);
	*dstlen -= z->zs.avail_out;
	if (rc == Z_STREAM_END)
		return 1;
	if (rc == Z_OK || rc == Z_BUF_ERROR)	/* BUF: needs more input */
		return 0;
	if (rc == Z_MEM_ERROR)
		die("out of memory (zlib)");
	snprintf(z->err, sizeof(z->err), "corrupt gzip data near byte %llu: "
	    "%s", (unsigned long long)(at + *srclen),
	    z->zs.msg != NULL ? z->zs.msg : "inflate error");
	return -1;
}

static void
gz_end(struct unzip *z)
{
	inflateEnd(&z->zs);
}

/*
 * zstd: the window of any frame the budget allows (the library's own
 * default stops at 2^27 bytes), each frame's header read before the
 * frame, by ZSTD_getFrameHeader, and what the decoder will allocate for
 * it held first: its context, a block, and its window (no more than the
 * frame's content when the header says how long that is).
 */
static void
zstd_start(struct unzip *z)
{
	ZSTD_bounds b = ZSTD_dParam_getBounds(ZSTD_d_windowLogMax);

	if ((z->zstd = ZSTD_createDStream()) == NULL)
		die("out of memory (zstd)");
	if (!ZSTD_isError(b.error))
		ZSTD_DCtx_setParameter(z->zstd, ZSTD_d_windowLogMax,
		    b.upperBound);
	z->fresh = 1;
}

/* Before a frame: hold what it needs.  0 go on, 1 its header is not all
 * in src[0, n), -1 over the budget. */
static int
zstd_frame(struct unzip *z, const unsigned char *src, size_t n, uint64_t at)
{
	ZSTD_frameHeader fh;
	size_t rc, win;

	rc = ZSTD_getFrameHeader(&fh, src, n);
	if (!ZSTD_isError(rc) && rc > 0)
		return 1;
	/* A damaged header (the decoder names it), a skippable frame. */
	if (ZSTD_isError(rc) || fh.frameType != ZSTD_frame ||
	    ZSTD_isError(win = ZSTD_decodingBufferSize_min(fh.windowSize,
	    fh.frameContentSize))) {
		z->fresh = 0;
		return 0;
	}
	if (budget_hold(z, (uint64_t)ZSTD_estimateDCtxSize() +
	    fh.blockSizeMax + win, at) < 0)
		return -1;
	z->fresh = 0;
	return 0;
}

static int
zstd_step(struct unzip *z, const unsigned char *src, size_t *srclen,
    unsigned char *dst, size_t *dstlen, uint64_t at)
{
	ZSTD_inBuffer ib = { src, *srclen, 0 };
	ZSTD_outBuffer ob = { dst, *dstlen, 0 };
	size_t rc;
	int f;

	if (z->fresh && (f = zstd_frame(z, src, *srclen, at)) != 0) {
		*srclen = 0;
		*dstlen = 0;
		return f > 0 ? 0 : -1;
	}
	rc = ZSTD_decompressStream(z->zstd, &ob, &ib);
	*srclen = ib.pos;
	*dstlen = ob.pos;
	if (ZSTD_isError(rc)) {
		snprintf(z->err, sizeof(z->err), "corrupt zstd data near "
		    "byte %llu: %s", (unsigned long long)(at + ib.pos),
		    ZSTD_getErrorName(rc));
		return -1;
	}
	if (rc == 0)		/* a frame decoded and flushed */
		z->fresh = 1;
	return rc == 0;
}

static void
zstd_end(struct unzip *z)
{
	ZSTD_freeDStream(z->zstd);
}

/*
 * xz: one stream at a time, as for gzip, so that bytes after the last one
 * are told from a stream cut short (liblzma's LZMA_CONCATENATED would
 * wait for them to become a stream); the zero padding the format allows
 * between streams is the caller's to pass over (pad).  Its memory limit
 * is what the decoder holds of the budget: a block that needs more stops
 * liblzma with LZMA_MEMLIMIT_ERROR, and once the budget gives it the
 * limit is raised and the block decoded (liblzma's way to go on).
 */
static void
xz_start(struct unzip *z)
{
	lzma_stream init = LZMA_STREAM_INIT;

	z->xz = init;
	if (lzma_stream_decoder(&z->xz, z->held > 0 ? z->held : 1, 0) !=
	    LZMA_OK)
		die("out of memory (xz)");
}

static int
xz_step(struct unzip *z, const unsigned char *src, size_t *srclen,
    unsigned char *dst, size_t *dstlen, uint64_t at)
{
	lzma_ret rc;

	z->xz.next_in = src;
	z->xz.avail_in = *srclen;
	z->xz.next_out = dst;
	z->xz.avail_out = *dstlen;
	while ((rc = lzma_code(&z->xz, LZMA_RUN)) == LZMA_MEMLIMIT_ERROR) {
		uint64_t need = lzma_memusage(&z->xz);

		if (budget_hold(z, need, at + *srclen - z->xz.avail_in) < 0)
			break;
		if (lzma_memlimit_set(&z->xz, z->held) != LZMA_OK)
			BUG("liblzma refused a limit of %llu bytes",
			    (unsigned long long)z->held);
	}
	*srclen -= z->xz.avail_in;
	*dstlen -= z->xz.avail_out;
	switch (rc) {
	case LZMA_STREAM_END:
		return 1;
	case LZMA_OK:
	case LZMA_BUF_ERROR:	/* needs more input */
		return 0;
	case LZMA_MEM_ERROR:
		die("out of memory (xz)");
	case LZMA_MEMLIMIT_ERROR:	/* budget_hold said why */
		return -1;
	default:
		snprintf(z->err, sizeof(z->err), "corrupt xz data near "
		    "byte %llu", (unsigned long long)(at + *srclen));
		return -1;
	}
}

static void
xz_end(struct unzip *z)
{
	lzma_end(&z->xz);
}

static void
bz_start(struct unzip *z)
{
	memset(&z->bz, 0, sizeof(z->bz));
	if (BZ2_bzDecompressInit(&z->bz, 0, 0) != BZ_OK)
		die("out of memory (bzip2)");
}

static int
bz_step(struct unzip *z, const unsigned char *src, size_t *srclen,
    unsigned char *dst, size_t *dstlen, uint64_t at)
{
	int rc;

	z->bz.next_in = (char *)src;
	z->bz.avail_in = (unsigned int)(*srclen > UINT_MAX ? UINT_MAX :
	    *srclen);
	z->bz.next_out = (char *)dst;
	z->bz.avail_out = (unsigned int)*dstlen;
	rc = BZ2_bzDecompress(&z->bz);
	*srclen = (size_t)((const unsigned char *)z->bz.next_in - src);
	*dstlen -= z->bz.avail_out;
	if (rc == BZ_STREAM_END)
		return 1;
	if (rc == BZ_OK)
		return 0;
	if (rc == BZ_MEM_ERROR)
		die("out of memory (bzip2)");
	snprintf(z->err, sizeof(z->err), "corrupt bzip2 data near byte "
	    "%llu", (unsigned long long)(at + *srclen));
	return -1;
}

static void
bz_end(struct unzip *z)
{
	BZ2_bzDecompressEnd(&z->bz);
}

enum { GZ, ZSTD, XZ, BZ };

static const struct codec codecs[] = {
	[GZ] = { "gzip", 2, 0, gz_start, gz_step, gz_end },
	[ZSTD] = { "zstd", 4, 0, zstd_start, zstd_step, zstd_end },
	[XZ] = { "xz", 6, 4, xz_start, xz_step, xz_end },
	[BZ] = { "bzip2", 4, 0, bz_start, bz_step, bz_end },
};

/*
 * The magic numbers, the one place they are spelt: len bytes start a
 * member, the first under a mask (zstd's skippable frames, which pzstd
 * puts before each frame, are 0x50 to 0x5f), then cmp bytes of m, then
 * (bzip2's block size) bytes from lo to hi.
 */
static const struct magic {
	int codec;
	const char *m;
	size_t cmp, len;
	unsigned char mask, lo, hi;
} magics[] = {
	{ GZ, "\x1f\x8b", 2, 2, 0xff, 0, 0 },
	{ ZSTD, "\x28\xb5\x2f\xfd", 4, 4, 0xff, 0, 0 },
	{ ZSTD, "\x50\x2a\x4d\x18", 4, 4, 0xf0, 0, 0 },
	{ XZ, "\xfd\x37\x7a\x58\x5a\x00", 6, 6, 0xff, 0, 0 },
	{ BZ, "BZh", 3, 4, 0xff, '1', '9' },
};

/* How many of p[0..n) agree with g, at most g->len. */
static size_t
magic_agrees(const struct magic *g, const unsigned char *p, size_t n)
{
	size_t i;

	if (n == 0 || (p[0] & g->mask) != (unsigned char)g->m[0])
		return 0;
	for (i = 1; i < n && i < g->len; i++)
		if (i < g->cmp ? p[i] != (unsigned char)g->m[i] :
		    p[i] < g->lo || p[i] > g->hi)
			return i;
	return i;
}

static const struct codec *
codec_of(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (magic_agrees(&magics[i], p, n) == magics[i].len)
			return &codecs[magics[i].codec];
	return NULL;
}

int
unzip_unsure(const unsigned char *p, size_t n)
{
	size_t i;

	if (n == 0)
		return 1;
	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (n < magics[i].len && magic_agrees(&magics[i], p, n) == n)
			return 1;
	return 0;
}

const char *
unzip_sniff(const unsigned char *p, size_t n)
{
	const struct codec *c = codec_of(p, n);

	return c != NULL ? c->name : NULL;
}

struct unzip *
unzip_new(const char *name)
{
	struct unzip *z;
	size_t i;

	z = ecalloc(1, sizeof(*z));
	for (i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++)
		if (strcmp(codecs[i].name, name) == 0)
			z->c = &codecs[i];
	if (z->c == NULL)
		die("unzip: no codec %s", name);
	z->c->start(z);
	return z;
}

void
unzip_free(struct unzip *z)
{
	if (z == NULL)
		return;
	z->c->end(z);
	budget_release(z);
	free(z);
}

const char *
unzip_name(const struct unzip *z)
{
	return z->c->name;
}

int
unzip_step(struct unzip *z, const unsigned char *src, size_t *srclen,
    unsigned char *dst, size_t *dstlen, uint64_t at)
{
	return z->c->step(z, src, srclen, dst, dstlen, at);
}

int
unzip_next(struct unzip *z, const unsigned char *p, size_t n, size_t *skip)
{
	static const unsigned char zeros[8];

	*skip = 0;
	if (z->c->pad > 0 && n >= z->c->pad &&
	    memcmp(p, zeros, z->c->pad) == 0) {
		*skip = z->c->pad;
		return 2;
	}
	if (n < z->c->magiclen)
		return -1;
	if (codec_of(p, n) != z->c)
		return 0;
	/* A new member: the decoder anew (zstd goes on by itself). */
	if (z->c->step != zstd_step) {
		z->c->end(z);
		z->c->start(z);
	}
	return 1;
}

const char *
unzip_error(const struct unzip *z)
{
	return z->err;
}
