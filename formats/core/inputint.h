/* SPDX-License-Identifier: ISC */
/*
 * inputint.h: what input.c (the buffer, the compressed and plain bytes,
 * the line reader) and inputdec.c (the decoding layer: UTF-16 to UTF-8,
 * a byte order mark, NUL bytes at the start) share; private to them.
 */
#ifndef GPUMEM_INPUTINT_H
#define GPUMEM_INPUTINT_H

#include <stdint.h>
#include <stdio.h>

#define BUFSZ (INPUT_MAXLINE + 1)	/* a longest line plus its NUL */
#define ZBUFSZ (256U * 1024)
#define EBUFSZ (64U * 1024)	/* UTF-16 bytes read ahead of decoding */
#define SNIFF16 512		/* bytes looked at for UTF-16 without a BOM */
/*
 * Read ahead at most this much at once, into the front of buf: an input
 * touches about this much of its buffer, not a longest line's worth (a
 * fleet's run reads hundreds of inputs at once).  It is also what
 * input_open reads: what a format's detection looks at (source.c's
 * SNIFF_BYTES), no more; inputs are opened one after the other before
 * -j's workers start, and the rest is read later, by the worker.
 */
#define READSZ (64U * 1024)

enum enc { ENC_BYTES, ENC_UTF16LE, ENC_UTF16BE };

struct input {
	char *name;
	int fd;
	int is_stdin;
	int is_file;		/* a regular file: data never has to wait */
	int cut;		/* input_end_all() ended it */
	long long drain;	/* after input_end_all: bytes still to take, -1 before */

	unsigned char *buf;	/* decompressed data: [pos, end) unread */
	size_t pos, end;
	uint64_t base;		/* stream offset of buf[0] */
	int eof;		/* no more data will come */
	int failed;
	char err[160];

	struct unzip *z;	/* the decompression layer, or NULL */
	unsigned char *zbuf;	/* compressed bytes: [zin, zin + zavail) unread */
	unsigned char *zin;
	size_t zavail;
	int zeof;		/* raw input exhausted */
	int zend;		/* the last member (frame, stream) ended cleanly */
	uint64_t raw;

	int enc;		/* enum enc: the decoding layer */
	unsigned char *ebuf;	/* UTF-16 bytes: [epos, eend) not decoded */
	size_t epos, eend, ebufsz;
	int eeof;		/* no more UTF-16 bytes will come */
	uint64_t nuls;		/* NUL bytes before the line last returned */
	uint64_t pendnul;	/* NUL bytes skipped at the start, for line 1 */

	uint64_t lineno;
	uint64_t lineoff;
	int unterminated;	/* the line last returned ended with the data */
	FILE *cookie;
};

/* input.c: the bytes under the decoding layer, into dst (0: the end). */
size_t input_low_fill(struct input *in, unsigned char *dst, size_t want);
/* input.c: bytes one read may add after end. */
size_t input_room(const struct input *in);
/* input.c: read more after end; the new bytes, 0 at the end. */
size_t input_fill(struct input *in);
/* input.c: pass over the NUL bytes at pos; how many there were. */
uint64_t input_skip_nuls(struct input *in);
/* inputdec.c: decode UTF-16 into buf after end; the bytes made. */
size_t input_u16_fill(struct input *in);
/* inputdec.c: the decoding layer, set up on the first bytes. */
void input_decode_setup(struct input *in);

#endif
