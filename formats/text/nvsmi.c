/* SPDX-License-Identifier: ISC */
/*
 * nvsmi.c: nvidia-smi --query-gpu and --query-compute-apps CSV logs, as
 * docs/log-formats.md sections 1 and 2 describe them.
 *
 * Columns are found by header name (units and aliases allowed), or from
 * --fields when the log has no header.  A log may repeat its header, hold
 * rows of any GPU order, carry placeholders for missing values, CRLF line
 * ends, a BOM, and lines that wrappers added: shell prompts, date(1) lines,
 * Windows "date /T" and "time /T" output.  Date lines are used as the clock
 * of a log that has no timestamp column; so are --start and --interval.
 * A process name may contain commas: it takes every field between the
 * fixed fields on its left and on its right.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "colguess.h"
#include "field.h"
#include "format.h"
#include "gpumap.h"
#include "gtime.h"
#include "hmap.h"
#include "input.h"
#include "nvsmi.h"
#include "nvsmistate.h"
#include "physgpu.h"

#define SNIFF_ROWS 200		/* rows judged for a headerless log's columns */
#define GUESS_BYTES (64U * 1024)

static const struct {
	const char *name;
	enum col col;
	enum kind kind;		/* K_NONE: both */
} colnames[] = {
	{"timestamp", C_TS, K_NONE},
	{"index", C_INDEX, K_GPU},
	{"gpu", C_WGPU, K_GPU},		/* a wrapper's own column */
	{"uuid", C_UUID, K_NONE},
	{"gpu_uuid", C_UUID, K_NONE},
	{"pci.bus_id", C_BUS, K_NONE},
	{"gpu_bus_id", C_BUS, K_NONE},
	{"memory.total", C_TOTAL, K_GPU},
	{"memory.used", C_USED, K_GPU},
	{"memory.free", C_FREE, K_GPU},
	{"memory.reserved", C_RESERVED, K_GPU},
	{"hostname", C_HOST, K_NONE},
	{"name", C_NAME, K_GPU},
	{"gpu_name", C_NAME, K_GPU},
	{"pid", C_PID, K_APPS},
	{"process_name", C_PNAME, K_APPS},
	{"name", C_PNAME, K_APPS},
	{"used_gpu_memory", C_PUSED, K_APPS},
	{"used_memory", C_PUSED, K_APPS},
};

/* Fields of other --query-* lists that have a pid: not ours. */
static const char *const foreign[] = {
	"max_memory_usage", "gpu_utilization", "mem_utilization", "time",
	"retired_pages.address", NULL
};

/*
 * Whether s[0..n) is a field name as a header prints it: a lower-case
 * letter, then letters (a few names have capitals, "...multivGPU"),
 * digits, '_' and '.', then optionally " [unit]".  Store the name's
 * length in *nl.
 */
static int
is_colname(const char *s, size_t n, size_t *nl)
{
	size_t i = 0;

	if (n == 0 || !islower((unsigned char)s[0]))
		return 0;
	while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' ||
	    s[i] == '.'))
		i++;
	*nl = i;
	if (i == n)
		return 1;
	if (n - i >= 3 && s[i] == ' ' && s[i + 1] == '[' && s[n - 1] == ']')
		return memchr(s + i + 2, ']', n - i - 3) == NULL;
	return 0;
}

/*
 * Classify a header line: K_GPU, K_APPS or K_NONE (not a header of ours).
 * With cols != NULL, fill the column map too.
 */
static enum kind
header_kind(char *line, int *cols, size_t *ncols)
{
	char *f[MAXCOLS + 1];
	size_t len[MAXCOLS + 1], nf, i, k, nl;
	int pid = 0, mem = 0, known = 0;
	enum kind kind;

	nf = field_split(line, ',', f, len, MAXCOLS);
	if (nf > MAXCOLS || nf == 0)
		return K_NONE;
	for (i = 0; i < nf; i++) {
		if (!is_colname(f[i], len[i], &nl))
			return K_NONE;
		if (nl == 3 && memcmp(f[i], "pid", 3) == 0)
			pid = 1;
		if (nl > 7 && memcmp(f[i], "memory.", 7) == 0)
			mem = 1;
		for (k = 0; foreign[k] != NULL; k++)
			if (strlen(foreign[k]) == nl &&
			    memcmp(f[i], foreign[k], nl) == 0)
				return K_NONE;
	}
	kind = pid ? K_APPS : mem ? K_GPU : K_NONE;
	if (kind == K_NONE)
		return K_NONE;
	if (cols != NULL)
		for (i = 0; i < NCOL; i++)
			cols[i] = -1;
	for (i = 0; i < nf; i++) {
		is_colname(f[i], len[i], &nl);
		for (k = 0; k < sizeof(colnames) / sizeof(colnames[0]); k++)
			if (strlen(colnames[k].name) == nl &&
			    memcmp(f[i], colnames[k].name, nl) == 0 &&
			    (colnames[k].kind == K_NONE ||
			    colnames[k].kind == kind)) {
				known = 1;
				if (cols != NULL && cols[colnames[k].col] < 0)
					cols[colnames[k].col] = (int)i;
			}
	}
	if (ncols != NULL)
		*ncols = nf;
	return known ? kind : K_NONE;
}

/*
 * A --query-gpu header that names no memory field: utilization, power,
 * temperature or clocks logging (every field a field name, one of them
 * of those families, none a memory.* field).  Store the names, without
 * units, in names when it is not NULL.
 */
static int
nomem_header(char *line, struct sbuf *names)
{
	static const char *const family[] = {
		"utilization.", "power.", "temperature.", "clocks.", "fan.speed",
		"pstate", "enforced.power", "pcie.", NULL
	};
	char *f[MAXCOLS + 1];
	size_t len[MAXCOLS + 1], nf, i, k, nl;
	int ours = 0;

	nf = field_split(line, ',', f, len, MAXCOLS);
	if (nf > MAXCOLS || nf == 0)
		return 0;
	for (i = 0; i < nf; i++) {
		/* utilization.memory is the memory controller's load. */
		if (!is_colname(f[i], len[i], &nl) || (nl > 7 &&
		    memcmp(f[i], "memory.", 7) == 0))
			return 0;
		for (k = 0; family[k] != NULL; k++)
			if (nl >= strlen(family[k]) && memcmp(f[i], family[k],
			    strlen(family[k])) == 0)
				ours = 1;
	}
	if (!ours || names == NULL)
		return ours;
	for (i = 0; i < nf; i++) {
		is_colname(f[i], len[i], &nl);
		if (i > 0)
			sbuf_adds(names, ", ");
		sbuf_add(names, f[i], nl);
	}
	return 1;
}

/* A copy of line without a leading UTF-8 BOM, for header checks. */
static char *
skip_bom(char *line)
{
	if ((unsigned char)line[0] == 0xef && (unsigned char)line[1] == 0xbb &&
	    (unsigned char)line[2] == 0xbf)
		return line + 3;
	return line;
}

/* Header checks: a header starts with a lower-case field name. */
static enum kind
line_header_kind(char *line)
{
	line = skip_bom(line);
	if (!islower((unsigned char)line[0]))
		return K_NONE;
	return header_kind(line, NULL, NULL);
}

/*
 * The length of a word (letters, digits, '.', '-', '_') and ": " at the
 * start of line, or 0.
 */
static size_t
word_colon(const char *line)
{
	size_t i = strspn(line, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_");

	return i > 0 && line[i] == ':' && line[i + 1] == ' ' ? i + 2 : 0;
}

/*
 * The length of a "host: " prefix that pdsh and clush put before each
 * line of a remote command, or 0: a host name (word_colon), then a line
 * of the log: a header, a row (a number or a time first, then a comma)
 * or a date line.  Other programs' messages have the shape too ("nohup:
 * ignoring input", "Warning: ...") and are no prefix: what follows them
 * is no line of the log.
 */
static size_t
host_prefix(const char *line)
{
	size_t n = word_colon(line);
	char *rest = (char *)line + n;
	uint64_t t;

	if (n > 0 && ((isdigit((unsigned char)rest[0]) &&
	    strchr(rest, ',') != NULL) || line_header_kind(rest) != K_NONE ||
	    nomem_header(rest, NULL) ||
	    gtime_ctime(rest, strlen(rest), &t) == 0))
		return n;
	return 0;
}

/*
 * A message of another program or of nvidia-smi itself: a word and ": "
 * ("nohup: ignoring input", "Warning: persistence mode is disabled ..."),
 * which is no host prefix (host_prefix).
 */
static int
message_line(const char *line)
{
	return word_colon(line) > 0 && host_prefix(line) == 0;
}

/*
 * "2024/06/01 11:27:15.361, ..." : a headerless nvidia-smi row; also one
 * with epoch seconds in front, in MiB (echo "$(date +%s),$(nvidia-smi
 * ... --format=csv,noheader)").
 */
static int
is_nvsmi_row(const char *line)
{
	uint64_t t;
	const char *comma;

	line += host_prefix(line);
	comma = strchr(line, ',');
	return comma != NULL && (gtime_nvsmi(line, (size_t)(comma - line),
	    &t) == 0 || (gtime_epoch(line, (size_t)(comma - line), &t) == 0 &&
	    strstr(comma, " MiB") != NULL));
}

static int
sniff(char *const *lines, size_t n, enum kind want)
{
	size_t i;
	int rows = 0;

	for (i = 0; i < n; i++) {
		enum kind k = line_header_kind(lines[i] +
		    host_prefix(lines[i]));

		if (k == want)
			return 90;
		if (k != K_NONE)
			return 0;
		/* Ours, to say what it is (line_fn). */
		if (want == K_GPU && nomem_header(skip_bom(lines[i] +
		    host_prefix(lines[i])), NULL))
			return 30;
		if (is_nvsmi_row(lines[i]))
			rows++;
	}
	/* Headerless rows: probably query-gpu (the usual case); --fields decides. */
	if (rows > 0 && want == K_GPU)
		return 30;
	if (want == K_GPU) {
		/* Rows without a time: query-gpu when their values say so. */
		struct sbuf f = SBUF_INIT, why = SBUF_INIT;

		rows = colguess(lines, n, &f, &why) != COLGUESS_NONE;
		sbuf_release(&f);
		sbuf_release(&why);
		return rows ? 25 : 0;
	}
	return 0;
}

static int
sniff_gpu(char *const *lines, size_t n)
{
	return sniff(lines, n, K_GPU);
}

static int
sniff_apps(char *const *lines, size_t n)
{
	return sniff(lines, n, K_APPS);
}

/* Take a header (or a --fields list) as the column map. */
static int
set_columns(struct nvsmi *p, char *text)
{
	enum kind k;

	k = header_kind(skip_bom(text), p->col, &p->ncols);
	if (k == K_NONE || (p->want != K_NONE && k != p->want))
		return -1;
	p->kind = k;
	p->have_columns = 1;
	p->wide = k == K_APPS ? p->col[C_PNAME] : p->col[C_NAME];
	source_set_device_only(p->s, k == K_GPU);
	source_set_what(p->s, k == K_GPU ? "nvidia-smi --query-gpu CSV" :
	    "nvidia-smi --query-compute-apps CSV");
	return 0;
}

/*
 * The --query-gpu=LIST or --query-compute-apps=LIST of a command line, as
 * a capture bundle records it ("# $ nvidia-smi --query-gpu=... ").
 */
static char *
fields_of_command(const char *cmd)
{
	const char *p = strstr(cmd, "--query-gpu=");
	size_t n;

	if (p == NULL)
		p = strstr(cmd, "--query-compute-apps=");
	if (p == NULL)
		return NULL;
	p = strchr(p, '=') + 1;
	n = strcspn(p, " \t");
	return estrndup(p, n);
}

/*
 * Tell the GPU map the GPUs of the sample's rows at once, when the log
 * names them by bus id or UUID alone: they are numbered in bus order
 * among those known when the first record leaves, and a live input's
 * first record leaves before the rest of its poll is read.
 */
static void
learn_sample(struct nvsmi *p, char *const *lines, size_t n)
{
	size_t i;

	if (p->col[C_INDEX] >= 0 || p->col[C_WGPU] >= 0 ||
	    (p->col[C_BUS] < 0 && p->col[C_UUID] < 0))
		return;
	for (i = 0; i < n; i++) {
		if (field_split(lines[i], ',', p->f, p->len, MAXCOLS) !=
		    p->ncols)
			continue;
		nvsmi_learn(p, source_host(p->s, nvsmi_text_of(p, &p->name,
		    p->col[C_HOST])), nvsmi_text_of(p, &p->uuid,
		    p->col[C_UUID]), nvsmi_text_of(p, &p->bus, p->col[C_BUS]),
		    -1);
	}
}

/*
 * The first lines of the input, before it is read: at most max lines that
 * are not empty, without their line ends, in *copy (the caller frees it).
 * A live input gives what came with its sniffing, not 64 KiB more.
 */
static size_t
peek_lines(struct nvsmi *p, char **copy, char **lines, size_t max)
{
	const unsigned char *b;
	size_t n, nl = 0, i = 0;
	char *c;

	if (source_live(p->s))
		n = input_peek_more(source_input(p->s), &b, 0);
	else
		n = input_peek(source_input(p->s), &b, GUESS_BYTES);
	c = *copy = emalloc(n + 1);
	memcpy(c, b, n);
	c[n] = '\0';
	while (i < n && nl < max) {
		char *e = memchr(c + i, '\n', n - i);
		size_t end = e != NULL ? (size_t)(e - c) : n;

		if (e == NULL && (n >= GUESS_BYTES || source_live(p->s)))
			break;	/* a line cut by the peek */
		c[end] = '\0';
		if (end > i && c[end - 1] == '\r')
			c[end - 1] = '\0';
		if (c[i] != '\0')
			lines[nl++] = c + i;
		i = end + 1;
	}
	return nl;
}

/*
 * Whether the header of a log without a GPU column comes again after a
 * few rows (one-shot calls appended to a log: "nvidia-smi --query-gpu=...
 * --format=csv >> log" in a loop), which makes the rows between two
 * headers the GPUs of one poll; a header that comes once, or again after
 * many rows (a restart), marks no polls: each row is one.
 */
static void
headers_mark_polls(struct nvsmi *p, size_t rows)
{
	p->header_polls = rows < MANY_GPUS;
}

static void
peek_header_polls(struct nvsmi *p)
{
	char *copy, *lines[SNIFF_ROWS];
	size_t nl = peek_lines(p, &copy, lines, SNIFF_ROWS), i, rows = 0;
	int headers = 0;

	for (i = 0; i < nl && headers < 2; i++) {
		if (line_header_kind(lines[i] + host_prefix(lines[i])) ==
		    K_NONE)
			rows += headers > 0;
		else if (headers++ > 0)
			headers_mark_polls(p, rows);
	}
	free(copy);
}

/*
 * A log without a header and without --fields: tell its columns from the
 * first rows (colguess.h), and say what was taken.  When the values do
 * not tell, keep why for the first row.
 */
static void
guess_columns(struct nvsmi *p)
{
	struct sbuf fields = SBUF_INIT, why = SBUF_INIT;
	char *copy, *lines[SNIFF_ROWS];
	size_t nl, i;

	nl = peek_lines(p, &copy, lines, SNIFF_ROWS);
	for (i = 0; i < nl; i++)
		if (line_header_kind(lines[i]) != K_NONE ||
		    nomem_header(skip_bom(lines[i]), NULL))
			goto out;	/* a header comes: no guessing */
	switch (colguess(lines, nl, &fields, &why)) {
	case COLGUESS_OK:
		if (set_columns(p, fields.buf) == 0) {
			source_warn(p->s, "no header line: columns told from "
			    "their values (%s): read as --fields %s; give "
			    "--fields to pin them", why.buf, fields.buf);
			learn_sample(p, lines, nl);
		}
		break;
	case COLGUESS_AMBIGUOUS:
		sbuf_printf(&p->guessed, "no header line, and the values do "
		    "not tell %s: give --fields, e.g. --fields %s", why.buf,
		    fields.buf);
		break;
	case COLGUESS_NONE:
		break;
	}
out:
	free(copy);
	sbuf_release(&fields);
	sbuf_release(&why);
}

static void *
open_common(struct source *s, const char *hint, enum kind want)
{
	struct nvsmi *p = ecalloc(1, sizeof(*p));
	char *fields = NULL;

	p->s = s;
	physgpu_init(&p->phys);
	p->want = want;
	p->wide = -1;
	if (source_opts(s)->fields != NULL)
		fields = estrdup(source_opts(s)->fields);
	else if (hint != NULL)
		fields = fields_of_command(hint);
	if (fields != NULL) {
		if (set_columns(p, fields) < 0) {
			if (source_opts(s)->fields != NULL) {
				source_fail(s, "--fields '%s': not a "
				    "--query-gpu or --query-compute-apps list "
				    "with memory fields", fields);
				free(fields);
				free(p);
				return NULL;
			}
		}
		free(fields);
	} else if (want == K_NONE && !source_in_section(s))
		guess_columns(p);
	if (!source_in_section(s))
		peek_header_polls(p);
	return p;
}

static void *
open_gpu(struct source *s, const char *hint)
{
	return open_common(s, hint, K_NONE);
}

static void *
open_apps(struct source *s, const char *hint)
{
	return open_common(s, hint, K_APPS);
}

/* A copy of field i into sb, "" for a placeholder; return sb's string. */
const char *
nvsmi_text_of(struct nvsmi *p, struct sbuf *sb, int i)
{
	if (i >= 0 && !field_placeholder(p->f[i], p->len[i]))
		sbuf_set(sb, p->f[i], p->len[i]);
	else
		sbuf_set(sb, "", 0);
	return sb->buf;
}

static const char *const weekdays[] = {
	"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", NULL
};

/* Windows "date /T": "Tue 08/18/2020" (US locale, month first). */
static int
windows_date(const char *s, int *y, int *mo, int *d)
{
	size_t n = strlen(s), i;

	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n != 14 || s[3] != ' ' || s[6] != '/' || s[9] != '/')
		return 0;
	for (i = 0; weekdays[i] != NULL; i++)
		if (strncmp(s, weekdays[i], 3) == 0)
			break;
	if (weekdays[i] == NULL)
		return 0;
	for (i = 4; i < 14; i++)
		if (i != 6 && i != 9 && !isdigit((unsigned char)s[i]))
			return 0;
	*mo = (s[4] - '0') * 10 + (s[5] - '0');
	*d = (s[7] - '0') * 10 + (s[8] - '0');
	*y = atoi(s + 10);
	return 1;
}

/* Windows "time /T": "03:44 PM". */
static int
windows_time(const char *s, int *h, int *mi)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n != 8 || s[2] != ':' || s[5] != ' ' || !isdigit((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[1]) || !isdigit((unsigned char)s[3]) ||
	    !isdigit((unsigned char)s[4]) || s[7] != 'M' ||
	    (s[6] != 'A' && s[6] != 'P'))
		return 0;
	*h = (s[0] - '0') * 10 + (s[1] - '0');
	*mi = (s[3] - '0') * 10 + (s[4] - '0');
	if (*h < 1 || *h > 12 || *mi > 59)
		return 0;
	*h %= 12;
	if (s[6] == 'P')
		*h += 12;
	return 1;
}

/*
 * A time of day alone, "13:02:11" (date +%T between blocks): on the day
 * of the clock so far (the last date line or block, else --start), the
 * next day when it is earlier than that clock's time of day.  Without a
 * day it is counted and passed over.  Return whether the line was one.
 */
static int
time_only_line(struct nvsmi *p, const char *line, size_t len)
{
	const struct format_opts *o = source_opts(p->s);
	uint64_t last, frac = 0;
	int64_t secs;
	time_t t;
	struct tm tm;
	size_t i, scale = 100000000;
	int h, mi, sec;

	if (len < 8 || line[2] != ':' || line[5] != ':' ||
	    !isdigit((unsigned char)line[0]) || !isdigit((unsigned char)line[1]) ||
	    !isdigit((unsigned char)line[3]) || !isdigit((unsigned char)line[4]) ||
	    !isdigit((unsigned char)line[6]) || !isdigit((unsigned char)line[7]))
		return 0;
	if (len > 8 && (line[8] != '.' || strspn(line + 9, "0123456789") !=
	    len - 9))
		return 0;
	h = (line[0] - '0') * 10 + (line[1] - '0');
	mi = (line[3] - '0') * 10 + (line[4] - '0');
	sec = (line[6] - '0') * 10 + (line[7] - '0');
	for (i = 9; i < len && scale > 0; i++, scale /= 10)
		frac += (uint64_t)(line[i] - '0') * scale;
	if (p->have_pending)
		last = p->pending;
	else if (p->nblocks > 0)
		last = p->block_ts;
	else if (o->have_start)
		last = o->start;
	else {
		source_skip(p->s, "time lines without a date (give --start)");
		return 1;
	}
	t = (time_t)(last / NS_PER_SEC);
	if (h > 23 || mi > 59 || sec > 60 || localtime_r(&t, &tm) == NULL ||
	    gtime_local(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, h, mi,
	    sec, &secs) < 0)
		return 0;
	if ((uint64_t)secs * NS_PER_SEC + frac < last &&
	    last - ((uint64_t)secs * NS_PER_SEC + frac) > 3600 * NS_PER_SEC)
		secs += 86400;	/* past midnight */
	p->pending = (uint64_t)secs * NS_PER_SEC + frac;
	p->have_pending = 1;
	p->clocklines = 1;
	return 1;
}

/* A date line came: the time of the next block of rows. */
void
nvsmi_clock_line(struct nvsmi *p, uint64_t t)
{
	p->pending = t;
	p->have_pending = 1;
	p->clocklines = 1;
}

/*
 * A line that starts with a date and time and goes on with text: a
 * script's "[2026-01-01 12:00:00] GPU Status:", Python logging's
 * "2026-01-01 12:00:00,123 INFO ..." (a comma before the milliseconds),
 * local time.  A row whose first column is such a time goes on with ", "
 * instead.  Store the time in *t; return whether the line was one.
 */
int
nvsmi_stamp_line(const char *line, size_t len, uint64_t *t)
{
	size_t b = line[0] == '[', e = b + 19;
	char iso[40];

	if (len < e || line[b + 4] != '-' || (line[b + 10] != ' ' &&
	    line[b + 10] != 'T'))
		return 0;
	if (e < len && (line[e] == '.' || line[e] == ','))
		e += 1 + strspn(line + e + 1, "0123456789");
	if (e - b >= sizeof(iso))
		return 0;
	/* Text after the time, not "12:00:00, 0, ..." (a row). */
	if (b ? e >= len || line[e] != ']' : e < len && (line[e] != ' ' ||
	    !(isalpha((unsigned char)line[e + 1]) || line[e + 1] == '-')))
		return 0;
	memcpy(iso, line + b, e - b);
	if (e > b + 19)
		iso[19] = '.';
	return gtime_iso(iso, e - b, t) == 0;
}

/*
 * Lines that wrappers add around nvidia-smi output.  Return 1 when the line
 * was one (used as a clock, or counted and passed over).
 */
int
nvsmi_wrapper_line(struct nvsmi *p, const char *line, size_t len)
{
	uint64_t t;
	int h, mi;

	if (gtime_ctime(line, len, &t) == 0 ||
	    (len >= 10 && line[4] == '-' && gtime_iso(line, len, &t) == 0)) {
		nvsmi_clock_line(p, t);
		return 1;
	}
	if (windows_date(line, &p->wy, &p->wmo, &p->wd)) {
		p->have_wdate = 1;
		return 1;
	}
	if (windows_time(line, &h, &mi)) {
		int64_t secs;

		if (p->have_wdate && gtime_local(p->wy, p->wmo, p->wd, h, mi, 0,
		    &secs) == 0) {
			p->pending = (uint64_t)secs * NS_PER_SEC;
			p->have_pending = 1;
			p->clocklines = 1;
			p->have_wdate = 0;
		} else
			source_skip(p->s, "time lines without a date");
		return 1;
	}
	if (strstr(line, "NVIDIA-SMI has failed") != NULL ||
	    strstr(line, "No devices were found") != NULL ||
	    strstr(line, "Failed to initialize NVML") != NULL ||
	    strstr(line, "Unable to determine the device handle") != NULL) {
		source_skip(p->s, "nvidia-smi error messages");
		return 1;
	}
	if (line[0] == '#') {
		source_skip(p->s, "comment lines");
		return 1;
	}
	if (time_only_line(p, line, len))
		return 1;
	if (line[0] == '|' || (line[0] == '+' && line[1] == '-')) {
		source_skip(p->s, "nvidia-smi table lines (--format table "
		    "reads them)");
		return 1;
	}
	if (len >= 3 && strspn(line, "-=*_~ \t") == len) {
		source_skip(p->s, "separator lines");
		return 1;
	}
	return 0;
}

/*
 * A shell prompt echoed into the log: "C:\Users\x>nvidia-smi ...",
 * "user@host:~$ nvidia-smi ...", "$ nvidia-smi ...".
 */
int
nvsmi_prompt_line(const char *line, size_t len)
{
	return (len > 3 && isalpha((unsigned char)line[0]) && line[1] == ':' &&
	    line[2] == '\\' && strchr(line, '>') != NULL) ||
	    (len > 2 && line[0] == '$' && line[1] == ' ') ||
	    strstr(line, "$ nvidia-smi") != NULL;
}

/* A GPU's key for poll boundaries: FNV-1a of its identity text. */
static uint32_t
gpu_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261U;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619U;
	return h;
}

/* The row's first GPU column with a value (gpu, index, UUID, bus), or -1. */
static int
gpu_field(const struct nvsmi *p)
{
	static const enum col idcols[] = { C_WGPU, C_INDEX, C_UUID, C_BUS };
	size_t i;
	int c;

	for (i = 0; i < sizeof(idcols) / sizeof(idcols[0]); i++)
		if ((c = p->col[idcols[i]]) >= 0 &&
		    !field_placeholder(p->f[c], p->len[c]))
			return c;
	return -1;
}

/*
 * Where a poll of a log without a timestamp column ends and the next one
 * starts, when no date line or header says so: at a row whose GPU (its
 * index, gpu, UUID or bus id column) the block has already had, as
 * nvidia-smi -l prints every GPU once per poll.  Without a GPU column
 * every row is a poll of a one-GPU log (under its one header, or none);
 * rows between date lines or repeated headers stay GPUs in row order, as
 * those mark the polls (one-shot calls appended to a log).
 */
static void
poll_boundary(struct nvsmi *p)
{
	uint32_t key = 0;
	size_t i;
	int c;

	if (p->col[C_TS] >= 0 || p->block_rows == 0 || p->newblock ||
	    p->have_pending)
		return;
	if ((c = gpu_field(p)) < 0) {
		/*
		 * Date lines or headers repeated every few rows mark the
		 * blocks: row order.  One header alone (nvidia-smi -l prints
		 * it once) marks none (headers_mark_polls).
		 */
		if (p->clocklines || p->header_polls)
			return;
		if (!p->onepoll_said) {
			p->onepoll_said = 1;
			source_warn(p->s, "no GPU column and no date lines: "
			    "every row is taken as a poll of one GPU; give "
			    "the index column in --fields for several GPUs");
		}
		p->newblock = 1;
		return;
	}
	key = gpu_hash(p->f[c], p->len[c]);
	for (i = 0; i < p->block_rows && i < POLL_KEYS; i++)
		if (p->pollkey[i] == key) {
			p->newblock = 1;
			return;
		}
}

/* Remember the GPU of the block's row n (see poll_boundary). */
void
nvsmi_poll_note(struct nvsmi *p, size_t n)
{
	int c = gpu_field(p);

	if (n < POLL_KEYS)
		p->pollkey[n] = c < 0 ? 0 : gpu_hash(p->f[c], p->len[c]);
}

/*
 * The time of a row of a log without a timestamp column: the block's date
 * line, else --start plus one --interval per block.  Return 0 or -1.
 */
static int
block_time(struct nvsmi *p, uint64_t *ts)
{
	const struct format_opts *o = source_opts(p->s);

	/*
	 * A block whose rows could not be read (block_rows still 0) is
	 * still the current one: an unreadable row takes no poll's time.
	 */
	if (p->nblocks == 0 || p->newblock || p->have_pending) {
		if (p->have_pending) {
			p->block_ts = p->pending;
			p->have_pending = 0;
		} else if (p->clocklines && p->nblocks > 0 && o->interval > 0) {
			p->block_ts += o->interval;
		} else if (!p->clocklines && (o->interval > 0 ||
		    (o->have_start && p->nblocks == 0))) {
			p->block_ts = (o->have_start ? o->start : 0) +
			    p->nblocks * o->interval;
		} else if (p->clocklines && p->nblocks > 0) {
			source_bad(p->s, "a block of rows without a date line "
			    "before it (give --interval to continue the clock)");
			return -1;
		} else {
			if (!p->noclock_said) {
				p->noclock_said = 1;
				source_fail(p->s, "rows carry no time: no "
				    "timestamp column and no date lines; give "
				    "--interval (and --start)");
			}
			source_skip(p->s, "rows without a time");
			return -1;
		}
		p->nblocks++;
		p->block_rows = 0;
		p->newblock = 0;
	}
	*ts = p->block_ts;
	return 0;
}

/*
 * A timestamp column of seconds since the logger began ("0.5", a
 * home-made logger's time.time() - t0, below 10^8 s): that many after
 * --start, said once.  Return 0, -1 when the field is no such number,
 * -2 when it is one and --start is not given (said once, counted).
 */
static int
elapsed_time(struct nvsmi *p, const char *f, size_t n, uint64_t *ts)
{
	const struct format_opts *o = source_opts(p->s);
	char buf[24], q[48];
	uint64_t v;

	if (n == 0 || n >= sizeof(buf) - 1 || !isdigit((unsigned char)f[0]) ||
	    strspn(f, "0123456789.") < n)
		return -1;
	buf[0] = '@';
	memcpy(buf + 1, f, n);
	buf[n + 1] = '\0';
	if (gtime_parse(buf, &v) != 0 || v >= 100000000ULL * NS_PER_SEC)
		return -1;
	if (!o->have_start) {
		if (!p->elapsed_said) {
			p->elapsed_said = 1;
			source_fail(p->s, "field 'timestamp' holds seconds "
			    "since the log began (%s on its first row), not "
			    "dates: give the time it began with --start",
			    field_quote(q, sizeof(q), f, n));
		}
		source_skip(p->s, "rows timed from the log's start (give "
		    "--start)");
		return -2;
	}
	if (!p->elapsed_said) {
		p->elapsed_said = 1;
		source_warn(p->s, "field 'timestamp' holds seconds since the "
		    "log began (%s on its first row): read as seconds since "
		    "--start", field_quote(q, sizeof(q), f, n));
	}
	*ts = o->start + v;
	return 0;
}

int
nvsmi_row_time(struct nvsmi *p, uint64_t *ts)
{
	const char *tfmt = source_opts(p->s)->time_format;
	int i = p->col[C_TS], rc;
	char q[48];

	if (i < 0 && p->glued) {
		*ts = p->glued_ts;
		return 0;
	}
	if (i < 0) {
		poll_boundary(p);
		return block_time(p, ts);
	}
	if (p->lastlen > 0 && p->len[i] == p->lastlen &&
	    memcmp(p->f[i], p->lastts, p->lastlen) == 0) {
		*ts = p->lastval;
		return 0;
	}
	rc = -1;
	if (tfmt != NULL)
		rc = gtime_strptime(tfmt, p->f[i], p->len[i], ts);
	if (rc == -1 && (rc = gtime_nvsmi(p->f[i], p->len[i], ts)) == -1 &&
	    (rc = gtime_iso(p->f[i], p->len[i], ts)) == -1 &&
	    (rc = gtime_ctime(p->f[i], p->len[i], ts)) == -1)
		rc = gtime_epoch(p->f[i], p->len[i], ts);
	if (rc == 0) {
		if (p->len[i] < sizeof(p->lastts)) {
			memcpy(p->lastts, p->f[i], p->len[i]);
			p->lastlen = p->len[i];
			p->lastval = *ts;
		}
		return 0;
	}
	if (rc == -1 && (rc = elapsed_time(p, p->f[i], p->len[i], ts)) != -1)
		return rc;
	/* The form is right and the date is not: say so. */
	if (rc == GTIME_RANGE)
		source_bad(p->s, "field 'timestamp': date out of range "
		    "(no such date, or outside 1970..2500): %s",
		    field_quote(q, sizeof(q), p->f[i], p->len[i]));
	else if (tfmt != NULL)
		source_bad(p->s, "field 'timestamp': expected the "
		    "--time-format '%s', got %s", tfmt,
		    field_quote(q, sizeof(q), p->f[i], p->len[i]));
	else
		source_bad(p->s, "field 'timestamp': expected YYYY/MM/DD "
		    "HH:MM:SS.mmm (else give --time-format), got %s",
		    field_quote(q, sizeof(q), p->f[i], p->len[i]));
	return -1;
}

/* Read a MiB column; return 1 value, 0 missing, -1 bad (reported). */
static int
mib(struct nvsmi *p, enum col c, const char *what, uint32_t *v)
{
	int i = p->col[c], rc;
	char q[48];

	if (i < 0)
		return 0;
	rc = field_mib(p->f[i], p->len[i], v);
	if (rc < 0)
		source_bad(p->s, "field '%s': expected MiB, got %s", what,
		    field_quote(q, sizeof(q), p->f[i], p->len[i]));
	return rc;
}

/* An integer column (index, gpu, pid); 1, 0 missing, -1 bad (reported). */
static int
uintcol(struct nvsmi *p, enum col c, const char *what, uint32_t *v)
{
	int i = p->col[c], rc;
	char q[48];

	if (i < 0)
		return 0;
	rc = field_uint(p->f[i], p->len[i], v);
	if (rc < 0)
		source_bad(p->s, "field '%s': expected an integer, got %s",
		    what, field_quote(q, sizeof(q), p->f[i], p->len[i]));
	return rc;
}

/*
 * Tell the run's GPU map about a GPU, once per identity: a log repeats the
 * same few GPUs on every row, so the last identity of each small index is
 * remembered and compared; the rest go through a map.
 */
void
nvsmi_learn(struct nvsmi *p, const char *host, const char *uuid,
    const char *bus, int64_t index)
{
	size_t hl = strlen(host), ul = strlen(uuid), bl = strlen(bus);
	int isnew = 1;

	sbuf_reset(&p->lkey);
	sbuf_grow(&p->lkey, hl + ul + bl + 3);
	sbuf_add(&p->lkey, host, hl + 1);
	sbuf_add(&p->lkey, uuid, ul + 1);
	sbuf_add(&p->lkey, bus, bl + 1);
	if (index >= 0 && index < NLAST) {
		struct sbuf *last = &p->last[index];

		if (last->len == p->lkey.len &&
		    memcmp(last->buf, p->lkey.buf, last->len) == 0)
			return;
		sbuf_reset(last);
		sbuf_add(last, p->lkey.buf, p->lkey.len);
	} else if (p->learned.n < GPUMAP_MAX) {
		/* Beyond, the GPU map keeps nothing new: nor do we. */
		sbuf_add(&p->lkey, &index, sizeof(index));
		hmap_put(&p->learned, p->lkey.buf, p->lkey.len, &isnew);
	}
	if (isnew)
		source_learn(p->s, host, uuid, bus, index);
}

/*
 * The GPU of a row: the wrapper's gpu column or index, else a UUID or bus
 * id resolved later, else its position in the block or poll.
 */
static int
row_gpu(struct nvsmi *p, struct rec *r, uint64_t ts)
{
	const char *uuid, *bus;
	uint32_t g, total;
	int rc, i;

	uuid = nvsmi_text_of(p, &p->uuid, p->col[C_UUID]);
	bus = nvsmi_text_of(p, &p->bus, p->col[C_BUS]);
	rc = uintcol(p, C_WGPU, "gpu", &g);
	if (rc == 0)
		rc = uintcol(p, C_INDEX, "index", &g);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		/*
		 * Logs of other GPUs joined, or a card swapped in its slot:
		 * each card a GPU of its own.  The UUID is the card; without
		 * one, its bus id and memory.total (a row whose total does
		 * not read is the card its index had last).
		 */
		i = p->col[C_TOTAL];
		if (*uuid != '\0')
			g = physgpu_of(&p->phys, p->s, r->host, "UUID", uuid,
			    g);
		else if (*bus != '\0' && i < 0)
			g = physgpu_of(&p->phys, p->s, r->host, "bus id", bus,
			    g);
		else if (*bus != '\0' && field_mib(p->f[i], p->len[i],
		    &total) > 0) {
			sbuf_reset(&p->card);
			sbuf_printf(&p->card, "%s, %u MiB", bus, total);
			g = physgpu_of(&p->phys, p->s, r->host,
			    "bus id and memory.total", p->card.buf, g);
		} else if (*bus != '\0')
			g = physgpu_cur(&p->phys, g);
		r->gpu = g;
		nvsmi_learn(p, r->host, uuid, bus, g);
		gpuset_add(&p->gpuset, g);
	} else if (*uuid != '\0' || *bus != '\0') {
		if (p->kind == K_GPU)
			nvsmi_learn(p, r->host, uuid, bus, -1);
		/* Resolved as the record leaves the reader. */
		r->gpukey = *uuid != '\0' ? uuid : bus;
	} else if (p->kind == K_APPS) {
		if (!p->apps_nogpu_said) {
			p->apps_nogpu_said = 1;
			source_warn(p->s, "no gpu_uuid or gpu_bus_id column: "
			    "every process is taken to be on GPU 0");
		}
		r->gpu = 0;
	} else if (p->col[C_TS] < 0 && !p->glued) {
		r->gpu = (uint32_t)p->block_rows;
		gpuset_add(&p->gpuset, r->gpu);
		if (p->block_rows + 1 == MANY_GPUS && !p->many_said) {
			p->many_said = 1;
			source_warn(p->s, "%d rows between two date lines "
			    "taken as %d GPUs of one poll: if each row is a "
			    "poll, give a GPU column in --fields", MANY_GPUS,
			    MANY_GPUS);
		}
	} else {
		if (!p->havepoll || ts < p->poll_ts ||
		    ts - p->poll_ts > POLL_SPREAD || p->newblock) {
			p->havepoll = 1;
			p->poll_ts = ts;
			p->poll_pos = 0;
			p->newblock = 0;
		}
		r->gpu = (uint32_t)p->poll_pos++;
		gpuset_add(&p->gpuset, r->gpu);
	}
	return 0;
}

/*
 * A poll mark saying the poll at ts held a row that could not be read:
 * the process of that row is unknown, not absent, and must not be ended
 * by this poll (rec.h, stream.h).
 */
static void
unread_mark(struct nvsmi *p, uint64_t ts)
{
	struct rec m;

	rec_init(&m);
	m.ts = ts;
	/* The host of the last row read, for the clock of its host. */
	m.host = p->host.buf != NULL ? p->host.buf : source_host(p->s, NULL);
	m.origin = REC_SNAP_APPS;
	m.unread = 1;
	source_emit(p->s, &m);
}

/*
 * A compute-apps row could not be read (reported): mark its poll.  When
 * its own time could not be read either, it belongs to the poll of the
 * row before it or to the next one (rows of a poll share their time):
 * mark both.
 */
void
nvsmi_unread_row(struct nvsmi *p)
{
	if (p->row_timed) {
		unread_mark(p, p->row_ts);
		return;
	}
	if (p->have_prev)
		unread_mark(p, p->prev_ts);
	p->unread_next = 1;
}

/*
 * Send the summed pid 0 rows of the poll on, in the order of their first
 * rows, and empty the list.
 */
void
nvsmi_pid0_flush(struct nvsmi *p)
{
	struct rec r;
	size_t i;

	for (i = 0; i < p->nz; i++) {
		struct pid0 *z = &p->z[i];

		rec_init(&r);
		r.ts = p->zts;
		r.host = z->host;
		r.gpu = z->gpu;
		r.gpukey = z->gpukey;
		r.name = z->name;
		r.pid = rec_name_pid(z->name, strlen(z->name));
		if (!z->unknown && z->used <= UINT32_MAX) {
			r.used = (uint32_t)z->used;
			r.has |= REC_USED;
		}
		r.origin = REC_SNAP_APPS;
		source_emit(p->s, &r);
		p->zrecs++;
		free(z->host);
		free(z->gpukey);
		free(z->name);
	}
	p->nz = 0;
}

/*
 * A row of pid 0: nvidia-smi in a container without the host's pid
 * namespace prints every process so.  Process id 0 is the whole device in
 * the record stream, and the rows cannot be told apart by their ids, so
 * the rows of one poll with the same GPU and name are read as one process
 * holding their sum (several workers of one program are one task), under
 * a process id made from the name.  r holds the row as read.
 */
static void
pid0_add(struct nvsmi *p, const struct rec *r)
{
	struct pid0 *z;
	size_t i;

	if (p->nz > 0 && r->ts != p->zts)
		nvsmi_pid0_flush(p);
	p->zts = r->ts;
	p->zrows++;
	for (i = 0; i < p->nz; i++) {
		z = &p->z[i];
		if (strcmp(z->host, r->host) == 0 &&
		    strcmp(z->name, r->name) == 0 &&
		    (r->gpukey != NULL ? z->gpukey != NULL &&
		    strcmp(z->gpukey, r->gpukey) == 0 :
		    z->gpukey == NULL && z->gpu == r->gpu))
			break;
	}
	if (i == p->nz) {
		struct rec m = *r;

		/*
		 * A poll mark where the first row was: its GPU is named
		 * there, in the order of the log (GPUs known by UUID alone
		 * are numbered in that order), though its sum comes later.
		 */
		m.pid = 0;
		m.has = 0;
		source_emit(p->s, &m);
		p->z = egrow(p->z, p->nz, sizeof(*p->z));
		z = &p->z[p->nz++];
		memset(z, 0, sizeof(*z));
		z->host = estrdup(r->host);
		z->name = estrdup(r->name);
		z->gpu = r->gpu;
		z->gpukey = r->gpukey != NULL ? estrdup(r->gpukey) : NULL;
	}
	if (r->has & REC_USED)
		z->used += r->used;
	else
		z->unknown = 1;
}

/*
 * A last line without a line end may have been cut short by a crash or a
 * full disk, inside its last value ("10240 MiB" cut to "10").  When that
 * value is a memory column, trust it only when it still ends as a whole
 * value does: with its unit, or as a placeholder.  A log without units
 * cannot show it, so its unterminated last row is refused too.  Return
 * whether the row is refused (reported).
 */
static int
cut_short(struct nvsmi *p)
{
	static const enum col mem[] = {
		C_TOTAL, C_USED, C_FREE, C_RESERVED, C_PUSED
	};
	size_t last = p->ncols - 1, i, n;
	const char *f;
	char q[48];

	if (!input_unterminated(source_input(p->s)))
		return 0;
	for (i = 0; i < sizeof(mem) / sizeof(mem[0]); i++)
		if (p->col[mem[i]] == (int)last)
			break;
	if (i == sizeof(mem) / sizeof(mem[0]))
		return 0;
	f = p->f[last];
	n = p->len[last];
	/*
	 * "MiB" or "MB" (a unit cut inside, "Mi", is a bad value anyway), or
	 * a placeholder, but not an empty field: the cut came after a comma.
	 */
	if (n > 0 && (f[n - 1] == 'B' || field_placeholder(f, n)))
		return 0;
	source_bad(p->s, "the last line has no line end and its last value "
	    "%s has no unit: cut short? (skipped)", field_quote(q, sizeof(q), f,
	    n));
	return 1;
}

void
nvsmi_row(struct nvsmi *p, char *line)
{
	struct rec r;
	size_t nf, extra;
	uint32_t used, free_, total, reserved, pid;
	int hu, hf, ht, hr;
	char q[48];

	nf = field_split(line, ',', p->f, p->len, MAXCOLS);
	p->glued = p->col[C_TS] < 0 && nf == p->ncols + 1 &&
	    gtime_epoch(p->f[0], p->len[0], &p->glued_ts) == 0;
	if (p->glued) {
		/* echo "$(date +%s),$(nvidia-smi ... noheader)" */
		memmove(p->f, p->f + 1, --nf * sizeof(p->f[0]));
		memmove(p->len, p->len + 1, nf * sizeof(p->len[0]));
	}
	if (nf < p->ncols) {
		source_bad(p->s, "expected %zu fields, got %zu", p->ncols, nf);
		return;
	}
	extra = nf > MAXCOLS ? 0 : nf - p->ncols;
	if (nf > MAXCOLS || (extra > 0 && p->wide < 0)) {
		source_bad(p->s, "expected %zu fields, got %s%zu", p->ncols,
		    nf > MAXCOLS ? "more than " : "", nf > MAXCOLS ?
		    (size_t)MAXCOLS : nf);
		return;
	}
	if (extra > 0) {
		/* The wide column spans the extra fields: rejoin them. */
		size_t w = (size_t)p->wide, i;

		p->len[w] = (size_t)(p->f[w + extra] + p->len[w + extra] -
		    p->f[w]);
		for (i = w + 1; i + extra < nf; i++) {
			p->f[i] = p->f[i + extra];
			p->len[i] = p->len[i + extra];
		}
	}
	if (cut_short(p))
		return;
	rec_init(&r);
	sbuf_reset(&p->host);
	sbuf_adds(&p->host, source_host(p->s, p->col[C_HOST] < 0 &&
	    p->phost.len > 0 ? p->phost.buf : nvsmi_text_of(p, &p->name,
	    p->col[C_HOST])));
	r.host = p->host.buf;
	if (nvsmi_row_time(p, &r.ts) < 0)
		return;
	p->row_timed = 1;
	p->row_ts = r.ts;
	if (p->unread_next && p->kind == K_APPS) {
		/* The unreadable row before may have been of this poll. */
		p->unread_next = 0;
		if (r.ts != p->prev_ts)
			unread_mark(p, r.ts);
	}
	p->have_prev = 1;
	p->prev_ts = r.ts;
	if (row_gpu(p, &r, r.ts) < 0)
		return;
	if (p->kind == K_APPS) {
		int rc = uintcol(p, C_PID, "pid", &pid);

		if (rc <= 0) {
			if (rc == 0)
				source_bad(p->s, "field 'pid': expected an "
				    "integer, got %s", field_quote(q, sizeof(q),
				    p->f[p->col[C_PID]],
				    p->len[p->col[C_PID]]));
			return;
		}
		if ((hu = mib(p, C_PUSED, "used_gpu_memory", &used)) < 0)
			return;
		r.pid = pid;
		if (hu) {
			r.used = used;
			r.has |= REC_USED;
		} else
			p->nomem++;	/* WDDM: N/A (engine.h) */
		r.name = nvsmi_text_of(p, &p->name, p->col[C_PNAME]);
		r.origin = REC_SNAP_APPS;
		if (p->nz > 0 && r.ts != p->zts)	/* their poll is over */
			nvsmi_pid0_flush(p);
		if (pid == 0) {
			pid0_add(p, &r);
			return;
		}
	} else {
		if ((hu = mib(p, C_USED, "memory.used", &used)) < 0 ||
		    (hf = mib(p, C_FREE, "memory.free", &free_)) < 0 ||
		    (ht = mib(p, C_TOTAL, "memory.total", &total)) < 0 ||
		    (hr = mib(p, C_RESERVED, "memory.reserved",
		    &reserved)) < 0)
			return;
		if (hu) {
			r.used = used;
			r.has |= REC_USED;
		}
		if (hf) {
			r.free = free_;
			r.has |= REC_FREE;
		}
		if (ht) {
			r.total = total;
			r.has |= REC_TOTAL;
		} else if (hu && hf) {
			/* R510+: total = reserved + used + free. */
			uint64_t t = (uint64_t)used + free_ +
			    (hr ? reserved : 0);

			if (t <= UINT32_MAX) {
				r.total = (uint32_t)t;
				r.has |= REC_TOTAL;
			}
		}
	}
	if (p->col[C_TS] < 0)
		nvsmi_poll_note(p, p->block_rows++);
	p->since_header++;
	p->rows++;
	source_emit(p->s, &r);
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct nvsmi *p = st;
	char *l = skip_bom(line);
	enum kind k;
	uint64_t bad, t;
	size_t hl;
	int comma;

	len -= (size_t)(l - line);
	if ((hl = host_prefix(l)) > 0) {
		/* pdsh, clush: "node07: <line>"; the host of its rows. */
		sbuf_set(&p->phost, l, hl - 2);
		l += hl;
		len -= hl;
	}
	if (len == 0 || strspn(l, " \t") == len)
		return;
	comma = strchr(l, ',') != NULL;
	/* A header of one column ("memory.used [MiB]") has no comma. */
	if ((k = line_header_kind(l)) != K_NONE) {
		if (p->want != K_NONE && k != p->want) {
			source_bad(p->s, "a %s header in a %s log",
			    k == K_APPS ? "--query-compute-apps" :
			    "--query-gpu", p->want == K_APPS ?
			    "--query-compute-apps" : "--query-gpu");
			return;
		}
		if (p->have_columns) {
			p->headers++;
			headers_mark_polls(p, p->since_header);
		}
		p->since_header = 0;
		nvsmi_pid0_flush(p);
		set_columns(p, l);
		p->newblock = 1;
		return;
	}
	if ((isdigit((unsigned char)l[0]) || l[0] == '[') &&
	    nvsmi_stamp_line(l, len, &t)) {
		nvsmi_clock_line(p, t);
		return;
	}
	/* Rows start with a digit (a time, an index): the rest may not be. */
	if (!isdigit((unsigned char)l[0]) && nvsmi_prompt_line(l, len)) {
		source_skip(p->s, "shell prompt lines");
		return;
	}
	if (!comma && nvsmi_wrapper_line(p, l, len))
		return;
	if (!p->have_columns && islower((unsigned char)l[0]) &&
	    (sbuf_reset(&p->name), nomem_header(l, &p->name))) {
		source_refuse(p->s, "the header names no memory column (%s): "
		    "a --query-gpu log of utilization, power or temperatures "
		    "only%s; log memory.used (and memory.total) in "
		    "--query-gpu for gpumem", p->name.buf,
		    strstr(p->name.buf, "utilization.memory") != NULL ?
		    " (utilization.memory is the time the memory was busy, "
		    "not memory used)" : "");
		return;
	}
	/*
	 * Other programs' messages ("nohup: ignoring input", "Warning: ...")
	 * anywhere; before the header, any text that cannot be a row (no
	 * comma, no number or placeholder first): a banner, a title.
	 */
	if (!comma && message_line(l)) {
		source_skip(p->s, "messages ('nohup: ...', 'Warning: ...')");
		return;
	}
	if (!p->have_columns && !comma && !isdigit((unsigned char)l[0]) &&
	    l[0] != '[') {
		source_skip(p->s, "lines of text before the header");
		return;
	}
	if (!p->have_columns) {
		int clean = p->rows == 0 && source_nbad(p->s) == 0 &&
		    !source_failed(p->s);

		if (clean && p->guessed.len > 0)
			source_fail(p->s, "%s", p->guessed.buf);
		else if (clean)
			source_fail(p->s, "no header line: give the query's "
			    "field list with --fields (e.g. --fields "
			    "timestamp,index,memory.used,memory.free,"
			    "memory.total)");
		source_skip(p->s, "rows without a header to name columns");
		return;
	}
	bad = source_nbad(p->s);
	p->row_timed = 0;
	nvsmi_row(p, l);
	if (p->kind == K_APPS && source_nbad(p->s) != bad)
		nvsmi_unread_row(p);
}

static void
end_fn(void *st)
{
	nvsmi_pid0_flush(st);
}

static void
summary(void *st, struct sbuf *sb)
{
	struct nvsmi *p = st;

	if (p->kind == K_GPU && p->gpuset.n > 0) {
		sbuf_adds(sb, ", ");
		gpuset_say(&p->gpuset, sb);
	}
	if (p->headers > 0)
		sbuf_printf(sb, ", %llu repeated headers",
		    (unsigned long long)p->headers);
	if (p->zrows > 0)
		sbuf_printf(sb, ", %llu rows of pid 0 read as %llu records: "
		    "one process per GPU and name", (unsigned long long)p->zrows,
		    (unsigned long long)p->zrecs);
	if (p->kind == K_APPS && p->nomem == p->rows && p->rows > 0)
		sbuf_adds(sb, ", memory N/A on every row (Windows WDDM: "
		    "tasks are estimated)");
	else if (p->kind == K_APPS && p->nomem > 0)
		sbuf_printf(sb, ", memory N/A on %llu rows",
		    (unsigned long long)p->nomem);
}

static void
free_fn(void *st)
{
	struct nvsmi *p = st;
	size_t i;

	sbuf_release(&p->host);
	sbuf_release(&p->key);
	sbuf_release(&p->name);
	gpuset_release(&p->gpuset);
	physgpu_release(&p->phys);
	hmap_release(&p->learned, NULL);
	sbuf_release(&p->lkey);
	for (i = 0; i < NLAST; i++)
		sbuf_release(&p->last[i]);
	sbuf_release(&p->uuid);
	sbuf_release(&p->card);
	sbuf_release(&p->bus);
	for (i = 0; i < p->nz; i++) {	/* left by an input that failed */
		free(p->z[i].host);
		free(p->z[i].gpukey);
		free(p->z[i].name);
	}
	free(p->z);
	sbuf_release(&p->phost);
	sbuf_release(&p->guessed);
	free(p);
}

const struct format fmt_query_gpu = {
	.name = "query-gpu",
	.what = "nvidia-smi --query-gpu CSV",
	.device_only = 1,
	.sniff_text = sniff_gpu,
	.open = open_gpu,
	.line = line_fn,
	.summary = summary,
	.free = free_fn,
};

const struct format fmt_compute_apps = {
	.name = "compute-apps",
	.what = "nvidia-smi --query-compute-apps CSV",
	.sniff_text = sniff_apps,
	.open = open_apps,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
