/* SPDX-License-Identifier: ISC */
/* rec.c: the record stream's text form, written and parsed by hand for speed. */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "esc.h"
#include "hmap.h"
#include "json.h"
#include "rec.h"

#define RECW_BUFSZ (256U * 1024)
#define RECW_JSON_OUT (64U * 1024)	/* NDJSON goes out by this much */

void
rec_init(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	r->host = "";
	r->name = "";
}

uint32_t
rec_name_pid(const char *name, size_t len)
{
	return REC_NAME_PID_BASE + (uint32_t)(hmap_hash(name, len) %
	    REC_NAME_PID_BASE);
}

void
recw_init(struct recw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->cap = RECW_BUFSZ;
	w->buf = emalloc(w->cap);
}

static int
recw_drain(struct recw *w)
{
	if (w->failed)
		return -1;
	if (outfile_ewrite_file(w->f, w->buf, w->len) < 0) {
		w->failed = 1;
		return -1;
	}
	w->len = 0;
	return 0;
}

/* Append "v," (or "," alone when the value is absent). */
static char *
put_opt(char *p, int has, uint32_t v)
{
	if (has)
		p += num_fmt_u64(p, v);
	*p++ = ',';
	return p;
}

/*
 * The digits of v: one digit (a GPU's index, a device record's pid 0,
 * most of them) without the call, the others by num_fmt_u64.
 */
static char *
put_u32(char *p, uint32_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	return p + num_fmt_u64(p, v);
}

/*
 * Whether every process that reads the pipe at fd is a gpumem tool of our
 * own installation (its program in the directory ours is in), found
 * through /proc: each process whose standard input is this pipe.  Any
 * doubt (no /proc, a shell not yet replaced by the program it starts, a
 * reader whose program we may not see) says no, and the stream stays
 * text.  Only standard input is looked at: a gpumem tool reads records
 * nowhere else.
 */
static int
pipe_to_gpumem(int fd)
{
	struct stat st;
	char want[64], link[64], self[4096], exe[4096], path[64];
	const char *slash;
	struct dirent *d;
	size_t dirlen;
	ssize_t n;
	DIR *dir;
	int found = 0;

	if (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode))
		return 0;
	snprintf(want, sizeof(want), "pipe:[%llu]",
	    (unsigned long long)st.st_ino);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 0;
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) == NULL)
		return 0;
	dirlen = (size_t)(slash - self) + 1;
	if ((dir = opendir("/proc")) == NULL)
		return 0;
	while ((d = readdir(dir)) != NULL) {
		/*
		 * A process's folder: its pid, at most 20 digits, which the
		 * precision of "%.20s" below states to the compiler too.
		 */
		if (d->d_name[0] < '1' || d->d_name[0] > '9' ||
		    strlen(d->d_name) > 20)
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/fd/0", d->d_name);
		/*
		 * A process whose descriptors we may not see (another
		 * user's; even root may not see pid 1's in a container)
		 * is passed over: to share our pipe it would have to be
		 * started from our pipeline under another user, and then
		 * its gpumem tools are hidden from us as well.
		 */
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (strcmp(link, want) != 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/exe", d->d_name);
		n = readlink(path, exe, sizeof(exe) - 1);
		if (n <= 0) {
			found = 0;
			break;
		}
		exe[n] = '\0';
		if ((size_t)n <= dirlen || memcmp(exe, self, dirlen) != 0 ||
		    strchr(exe + dirlen, '/') != NULL ||
		    strncmp(exe + dirlen, "gpumem", 6) != 0 ||
		    (exe[dirlen + 6] != '\0' && exe[dirlen + 6] != '-')) {
			found = 0;
			break;
		}
		found = 1;
	}
	closedir(dir);
	return found;
}

/* Make room for need bytes at the end of the buffer. */
static int
recw_room(struct recw *w, size_t need)
{
	if (w->cap - w->len >= need)
		return 0;
	if (recw_drain(w) < 0)
		return -1;
	if (w->cap < need) {
		w->cap = need;
		w->buf = erealloc(w->buf, w->cap);
	}
	return 0;
}

/* Append the line in w->line to the buffer. */
static int
recw_put_line(struct recw *w)
{
	if (recw_room(w, w->line.len) < 0)
		return -1;
	memcpy(w->buf + w->len, w->line.buf, w->line.len);
	w->len += w->line.len;
	return 0;
}

/* Choose the form and put the header or the magic first. */
static int
recw_start(struct recw *w)
{
	static const char hdr[] = REC_HEADER "\n";
	const char *mode = getenv("GPUMEM_STREAM");

	if (w->json) {
		w->header_done = 1;
		sbuf_reset(&w->line);
		json_stream_head(&w->line, "records");
		return recw_put_line(w);
	}
	if (mode != NULL && strcmp(mode, "binary") == 0)
		w->bin = 1;
	else if (mode != NULL && strcmp(mode, "text") == 0)
		w->bin = 0;
	else
		w->bin = pipe_to_gpumem(fileno(w->f));
#ifdef F_SETPIPE_SZ
	/*
	 * Between two gpumem tools a larger pipe lets both run at once
	 * instead of taking turns every 64 KiB; refused or not a pipe: no
	 * matter.
	 */
	if (w->bin)
		(void)fcntl(fileno(w->f), F_SETPIPE_SZ, (int)RECW_BUFSZ * 4);
#endif
	w->header_done = 1;
	if (w->cap - w->len < sizeof(hdr) && recw_drain(w) < 0)
		return -1;
	if (w->bin) {
		memcpy(w->buf + w->len, REC_BIN_MAGIC, REC_BIN_MAGICLEN);
		w->len += REC_BIN_MAGICLEN;
	} else {
		memcpy(w->buf + w->len, hdr, sizeof(hdr) - 1);
		w->len += sizeof(hdr) - 1;
	}
	return 0;
}

/* One record in the binary form at p (REC_BIN_FIXED + hl + nl + 2 bytes). */
static void
bin_encode(unsigned char *p, const struct rec *r, size_t hl, size_t nl)
{
	if (hl > REC_BIN_MAXSTR || nl > REC_BIN_MAXSTR)
		BUG("a name of %zu bytes reached the writer (readers cut them "
		    "to %u)", hl > nl ? hl : nl, REC_MAXSTR);
	p[0] = 'R';
	p[1] = (unsigned char)r->has;
	p[2] = p[3] = 0;
	put_le32(p + 4, r->gpu);
	put_le32(p + 8, (uint32_t)r->ts);
	put_le32(p + 12, (uint32_t)(r->ts >> 32));
	put_le32(p + 16, r->pid);
	put_le32(p + 20, r->has & REC_USED ? r->used : 0);
	put_le32(p + 24, r->has & REC_FREE ? r->free : 0);
	put_le32(p + 28, r->has & REC_TOTAL ? r->total : 0);
	put_le32(p + 32, (uint32_t)hl);
	put_le32(p + 36, (uint32_t)nl);
	p += REC_BIN_FIXED;
	memcpy(p, r->host, hl + 1);
	memcpy(p + hl + 1, r->name, nl + 1);
}

static int
recw_put_bin(struct recw *w, const struct rec *r, size_t hl, size_t nl)
{
	if (recw_room(w, REC_BIN_FIXED + hl + nl + 2) < 0)
		return -1;
	bin_encode((unsigned char *)w->buf + w->len, r, hl, nl);
	w->len += REC_BIN_FIXED + hl + nl + 2;
	w->count++;
	return 0;
}

void
rec_bin_put(struct sbuf *sb, const struct rec *r)
{
	size_t hl = strlen(r->host), nl = strlen(r->name);

	sbuf_grow(sb, REC_BIN_FIXED + hl + nl + 2);
	bin_encode((unsigned char *)sb->buf + sb->len, r, hl, nl);
	sb->len += REC_BIN_FIXED + hl + nl + 2;
	sb->buf[sb->len] = '\0';
}

/* One record as a line of NDJSON (docs/schema/read.json). */
static int
recw_put_json(struct recw *w, const struct rec *r)
{
	struct sbuf *l = &w->line;

	sbuf_reset(l);
	json_row(l, r->ts, r->host, r->gpu);
	sbuf_printf(l, ", \"process_id\": %u", r->pid);
	json_count(l, "memory_used_mib", r->has & REC_USED, r->used);
	json_count(l, "memory_free_mib", r->has & REC_FREE, r->free);
	json_count(l, "memory_total_mib", r->has & REC_TOTAL, r->total);
	sbuf_adds(l, ", \"process_name\": ");
	esc_json(l, r->name);
	sbuf_adds(l, "}\n");
	if (recw_put_line(w) < 0)
		return -1;
	w->count++;
	return w->len >= RECW_JSON_OUT ? recw_drain(w) : 0;
}

/*
 * host (hl bytes) as a CSV field at p; return the end.  The field of the
 * last host is kept: comparing a host costs less than scanning it
 * (csv_field's form is fixed once the options are read).  Copies of 32
 * bytes fixed, which recw_put's room always holds at a host's place.
 */
static char *
put_host(struct recw *w, char *p, const char *host, size_t hl)
{
	if (hl == 0)
		return p;
	if (hl != w->hostlen || memcmp(host, w->host, hl) != 0) {
		if (hl > RECW_HOSTMAX) {
			w->hostlen = 0;
			return p + csv_field(p, host);
		}
		memcpy(w->host, host, hl);
		w->hostlen = hl;
		w->hostcsvlen = csv_field(w->hostcsv, host);
	}
	if (w->hostcsvlen <= 32)
		memcpy(p, w->hostcsv, 32);
	else
		memcpy(p, w->hostcsv, w->hostcsvlen);
	return p + w->hostcsvlen;
}

/* The memory_total field (digits and comma): a GPU's total is fixed. */
static char *
put_total(struct recw *w, char *p, const struct rec *r)
{
	if (r->has & REC_TOTAL) {
		if (r->total != w->lasttotal || w->totallen == 0) {
			w->totallen = num_fmt_u64(w->totaltext, r->total);
			w->lasttotal = r->total;
		}
		memcpy(p, w->totaltext, sizeof(w->totaltext));
		p += w->totallen;
	}
	*p++ = ',';
	return p;
}

int
recw_put(struct recw *w, const struct rec *r)
{
	size_t need, hl = strlen(r->host);
	size_t nl = r->name[0] != '\0' ? strlen(r->name) : 0;
	char *p;

	if (!w->header_done && recw_start(w) < 0)
		return -1;
	if (w->json)
		return recw_put_json(w, r);
	if (w->bin)
		return recw_put_bin(w, r, hl, nl);
	need = 20 + 5 * 11 + 2 * hl + 2 * nl + 16;
	if (recw_room(w, need) < 0)
		return -1;
	p = w->buf + w->len;
	/* The records of a poll share their time: format it once. */
	if (r->ts != w->lastts || w->tslen == 0) {
		w->tslen = num_fmt_u64(w->tstext, r->ts);
		w->lastts = r->ts;
	}
	memcpy(p, w->tstext, sizeof(w->tstext));
	p += w->tslen;
	*p++ = ',';
	p = put_host(w, p, r->host, hl);
	*p++ = ',';
	p = put_u32(p, r->gpu);
	*p++ = ',';
	p = put_u32(p, r->pid);
	*p++ = ',';
	p = put_opt(p, r->has & REC_USED, r->used);
	p = put_opt(p, r->has & REC_FREE, r->free);
	p = put_total(w, p, r);
	if (nl > 0)
		p += csv_field(p, r->name);
	*p++ = '\n';
	w->len = (size_t)(p - w->buf);
	w->count++;
	return 0;
}

int
recw_flush(struct recw *w)
{
	if (!w->header_done && recw_start(w) < 0)
		return -1;
	if (recw_drain(w) < 0)
		return -1;
	if (fflush(w->f) != 0) {
		w->failed = 1;
		return -1;
	}
	return 0;
}

void
recw_release(struct recw *w)
{
	free(w->buf);
	w->buf = NULL;
	sbuf_release(&w->line);
}

int
rec_bin_sniff(const unsigned char *p, size_t n)
{
	return n >= REC_BIN_MAGICLEN &&
	    memcmp(p, REC_BIN_MAGIC, REC_BIN_MAGICLEN) == 0;
}

int
rec_bin_decode(const unsigned char *p, size_t n, struct rec *r,
    size_t *used, const char **why)
{
	struct bytes b = bytes_of(p, n);
	size_t hl, nl, len;
	unsigned has;

	if (n == 0) {
		*used = 1;
		return 0;
	}
	if (p[0] == (unsigned char)REC_BIN_MAGIC[0]) {
		*used = REC_BIN_MAGICLEN;
		if (memcmp(p, REC_BIN_MAGIC, n < REC_BIN_MAGICLEN ? n :
		    REC_BIN_MAGICLEN) != 0) {
			*why = "a magic that is not gpumem's binary stream, "
			    "version 1";
			return -1;
		}
		return n < REC_BIN_MAGICLEN ? 0 : 2;
	}
	if (p[0] != 'R') {
		*why = "not a record of the binary stream";
		return -1;
	}
	if (n < REC_BIN_FIXED) {
		*used = REC_BIN_FIXED;
		return 0;
	}
	/* From here every fixed field is inside the view. */
	has = get_u8(&b, 1);
	hl = get_le32(&b, 32);
	nl = get_le32(&b, 36);
	if (has > (REC_USED | REC_FREE | REC_TOTAL) || get_u8(&b, 2) != 0 ||
	    get_u8(&b, 3) != 0 || hl > REC_BIN_MAXSTR || nl > REC_BIN_MAXSTR) {
		*why = "a record header of the binary stream out of range";
		return -1;
	}
	len = REC_BIN_FIXED + hl + nl + 2;
	*used = len;
	if (n < len)
		return 0;
	r->host = (const char *)p + REC_BIN_FIXED;
	r->name = r->host + hl + 1;
	if (r->host[hl] != '\0' || r->name[nl] != '\0' ||
	    memchr(r->host, '\0', hl) != NULL ||
	    memchr(r->name, '\0', nl) != NULL) {
		*why = "a host or process name of the wrong length";
		return -2;
	}
	r->has = has;
	r->gpu = get_le32(&b, 4);
	r->ts = (uint64_t)get_le32(&b, 8) | (uint64_t)get_le32(&b, 12) << 32;
	r->pid = get_le32(&b, 16);
	r->used = has & REC_USED ? get_le32(&b, 20) : 0;
	r->free = has & REC_FREE ? get_le32(&b, 24) : 0;
	r->total = has & REC_TOTAL ? get_le32(&b, 28) : 0;
	r->gpukey = NULL;
	r->origin = REC_PLAIN;
	r->src = 0;
	return 1;
}

static int
opt_u32(const char *s, size_t n, uint32_t *v, unsigned *has, unsigned bit)
{
	if (n == 0)
		return 0;
	if (num_parse_u32(s, n, v) < 0)
		return -1;
	*has |= bit;
	return 0;
}

/*
 * The general parser: quoted fields, and every error message.  The fast
 * path below handles lines without quotes and falls back here for
 * anything it does not like.
 */
static int
parse_slow(char *line, size_t len, struct rec *r, const char **why)
{
	static const char *const names[] = {
		"timestamp", "host", "gpu", "process_id", "memory_used",
		"memory_free", "memory_total", "process_name"
	};
	char *f[8], *p = line;
	size_t n[8];
	int i;

	if (len >= 9 && memcmp(line, "timestamp", 9) == 0) {
		if (len == sizeof(REC_HEADER) - 1 &&
		    memcmp(line, REC_HEADER, len) == 0)
			return 0;
		*why = "not the record stream header";
		return -1;
	}
	for (i = 0; i < 8; i++) {
		if (p == NULL) {
			*why = "too few fields (expected 8)";
			return -1;
		}
		f[i] = csv_next_field(&p, &n[i]);
		if (f[i] == NULL) {
			*why = "bad quoting";
			return -1;
		}
	}
	if (p != NULL) {
		*why = "too many fields (expected 8)";
		return -1;
	}
	rec_init(r);
	if (num_parse_u64(f[0], n[0], &r->ts) < 0) {
		*why = "timestamp: expected nanoseconds since the epoch";
		return -1;
	}
	if (num_parse_u32(f[2], n[2], &r->gpu) < 0 ||
	    num_parse_u32(f[3], n[3], &r->pid) < 0 ||
	    opt_u32(f[4], n[4], &r->used, &r->has, REC_USED) < 0 ||
	    opt_u32(f[5], n[5], &r->free, &r->has, REC_FREE) < 0 ||
	    opt_u32(f[6], n[6], &r->total, &r->has, REC_TOTAL) < 0) {
		static _Thread_local char buf[64];	/* readers' workers */

		for (i = 2; i < 7; i++) {
			uint32_t v;

			if (!(i >= 4 && n[i] == 0) &&
			    num_parse_u32(f[i], n[i], &v) < 0)
				break;
		}
		snprintf(buf, sizeof(buf), "%s: expected an integer "
		    "(0-4294967295)", names[i < 7 ? i : 2]);
		*why = buf;
		return -1;
	}
	f[1][n[1]] = '\0';
	f[7][n[7]] = '\0';
	r->host = f[1];
	r->name = f[7];
	return 1;
}

/*
 * Digits at *pp up to a comma: store the value, step past the comma.
 * Return the number of digits (0 when there are none), or -1 when the
 * field is not all digits or does not end in a comma.  Up to 9 digits
 * cannot overflow 32 bits, up to 19 cannot overflow 64.  The line ends in
 * a NUL, so the scan needs no bound.
 */
static inline int
scan_uint(char **pp, uint64_t *v)
{
	char *p = *pp;
	uint64_t x = 0;
	int nd = 0;

	while ((unsigned)(*p - '0') <= 9) {
		x = x * 10 + (uint64_t)(*p - '0');
		p++;
		nd++;
	}
	if (*p != ',' || nd > 19)
		return -1;
	*v = x;
	*pp = p + 1;
	return nd;
}

/* Whether the 8 bytes at s are all ASCII digits (SWAR). */
static inline int
digits8(const char *s)
{
	uint64_t v;

	memcpy(&v, s, 8);
	return ((v & 0xf0f0f0f0f0f0f0f0ULL) |
	    (((v + 0x0606060606060606ULL) & 0xf0f0f0f0f0f0f0f0ULL) >> 4)) ==
	    0x3333333333333333ULL;
}

/* The value of 8 ASCII digits at s, most significant first (SWAR). */
static inline uint64_t
value8(const char *s)
{
	uint64_t v;

	memcpy(&v, s, 8);
	v -= 0x3030303030303030ULL;
	v = v * 10 + (v >> 8);
	v = (((v & 0x000000ff000000ffULL) * 0x000f424000000064ULL) +
	    (((v >> 16) & 0x000000ff000000ffULL) * 0x0000271000000001ULL)) >>
	    32;
	return v;
}

/*
 * A 19-digit timestamp followed by a comma, the usual case, in three
 * multiplications instead of a 19-step dependency chain.
 */
static inline int
scan_ts19(char **pp, const char *end, uint64_t *v)
{
	char *p = *pp;

	if (end - p < 20 || p[19] != ',' || !digits8(p) || !digits8(p + 8) ||
	    (unsigned)(p[16] - '0') > 9 || (unsigned)(p[17] - '0') > 9 ||
	    (unsigned)(p[18] - '0') > 9)
		return 0;
	*v = value8(p) * 100000000000ULL + value8(p + 8) * 1000ULL +
	    (uint64_t)(p[16] - '0') * 100 + (uint64_t)(p[17] - '0') * 10 +
	    (uint64_t)(p[18] - '0');
	*pp = p + 20;
	return 19;
}

int
rec_parse(char *line, size_t len, struct rec *r, const char **why)
{
	if (memchr(line, '"', len) != NULL)
		return parse_slow(line, len, r, why);
	return rec_parse_unquoted(line, len, r, why);
}

int
rec_parse_unquoted(char *line, size_t len, struct rec *r, const char **why)
{
	char *p = line, *end = line + len, *host, *c;
	uint64_t v[6];
	int nd[6], i;

	/* The fast path: every number in range. */
	if (len == 0 || line[0] == 't')
		return parse_slow(line, len, r, why);
	*end = '\0';		/* the sentinel scan_uint() stops at */
	if ((nd[0] = scan_ts19(&p, end, &v[0])) == 0 &&
	    (nd[0] = scan_uint(&p, &v[0])) <= 0)
		return parse_slow(line, len, r, why);
	host = p;
	c = memchr(p, ',', (size_t)(end - p));
	if (c == NULL)
		return parse_slow(line, len, r, why);
	*c = '\0';
	p = c + 1;
	for (i = 1; i < 6; i++) {
		nd[i] = scan_uint(&p, &v[i]);
		if (nd[i] < 0 || nd[i] > 9 || (i < 3 && nd[i] == 0)) {
			*c = ',';
			return parse_slow(line, len, r, why);
		}
	}
	if (memchr(p, ',', (size_t)(end - p)) != NULL) {
		*c = ',';
		return parse_slow(line, len, r, why);
	}
	r->ts = v[0];
	r->host = host;
	r->gpu = (uint32_t)v[1];
	r->pid = (uint32_t)v[2];
	r->has = 0;
	r->used = (uint32_t)v[3];
	r->free = (uint32_t)v[4];
	r->total = (uint32_t)v[5];
	if (nd[3] > 0)
		r->has |= REC_USED;
	if (nd[4] > 0)
		r->has |= REC_FREE;
	if (nd[5] > 0)
		r->has |= REC_TOTAL;
	*end = '\0';
	r->name = p;
	r->gpukey = NULL;
	r->origin = REC_PLAIN;
	r->src = 0;
	return 1;
}
