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
 *
 * This file is the format: headers and the columns they name (or
 * --fields, or the values of a headerless log), sniffing, opening, each
 * line sent where it belongs, the summary.  nvsmiclock.c gives each row
 * its time; nvsmirow.c turns a row into its record.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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
	size_t i = 0;

	/* Not strspn: with this many bytes to accept, it builds a table at
	   each call (a tenth of reading a --query-gpu log). */
	while (isalnum((unsigned char)line[i]) || line[i] == '.' ||
	    line[i] == '-' || line[i] == '_')
		i++;
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

/*
 * A header in a fork: the same header again (a loop that runs nvidia-smi
 * anew at each poll prints it each time) is counted as line_fn counts
 * it; join_fn does the rest.  Another stops the fork.
 */
static void
fork_header(struct nvsmi *p, const char *l)
{
	if (p->head.len == 0 || strcmp(l, p->head.buf) != 0) {
		source_fork_stop(p->s);
		return;
	}
	if (p->headers == 0)
		p->head_rows = p->since_header;
	p->headers++;
	headers_mark_polls(p, p->since_header);
	p->since_header = 0;
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
	if ((hl = host_prefix(l)) > 0 && p->forked) {
		/* Its host is the rows' after it (the GPUs' identities, which
		   hold the host, would stop the fork at its rows too). */
		source_fork_stop(p->s);
		return;
	}
	if (hl > 0) {
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
		if (p->forked) {
			fork_header(p, l);
			return;
		}
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
			/* The loop run anew (rows came since): say so. */
			p->restarted = k == K_APPS && !p->header_polls;
			if (p->restarted)
				p->apps_last = p->apps_iv = 0;
		}
		p->since_header = 0;
		nvsmi_pid0_flush(p);
		set_columns(p, l);
		sbuf_set(&p->head, l, strlen(l));
		p->newblock = 1;
		return;
	}
	if ((isdigit((unsigned char)l[0]) || l[0] == '[') &&
	    nvsmi_stamp_line(l, len, &t)) {
		if (p->forked) {
			source_fork_stop(p->s);
			return;
		}
		nvsmi_clock_line(p, t);
		return;
	}
	/* Rows start with a digit (a time, an index): the rest may not be. */
	if (!isdigit((unsigned char)l[0]) && nvsmi_prompt_line(l, len)) {
		source_skip(p->s, "shell prompt lines");
		return;
	}
	if (!comma && p->forked) {
		/* Date lines and the like: the clock's. */
		source_fork_stop(p->s);
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
	p->row_pid = 0;
	nvsmi_row(p, l);
	if (p->kind == K_APPS && source_nbad(p->s) != bad)
		nvsmi_unread_row(p);
	if (p->kind == K_APPS)
		nvsmi_poll_ahead(p);
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
		gpumap_set_say(&p->gpuset, sb);
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
	else if (p->kind == K_GPU && p->nomem == p->rows && p->rows > 0)
		sbuf_adds(sb, ", memory N/A on every row (a unified-memory "
		    "GPU such as GB10 reports none: no usage, no release can "
		    "be told)");
	else if (p->nomem > 0)
		sbuf_printf(sb, ", memory N/A on %llu row%s",
		    (unsigned long long)p->nomem, p->nomem == 1 ? "" : "s");
}

/*
 * A copy for a chunk of a large --query-gpu log (format.h, chunks.h):
 * once the log has a timestamp and an index column and a GPU came again
 * (the base knows the log's GPUs), its rows are read alone; a fork stops
 * at anything else (a GPU or identity its base did not know last, a
 * header, a date line, a bad time, a host prefix: source_fork_stop),
 * and the reader reads on from there with the parser.  The copy shares
 * nothing: the caches are copied, the maps left empty (a fork only asks
 * the caches), the counts start at 0 (join adds them).
 */
static void *
fork_fn(const void *st, struct source *s)
{
	static const struct sbuf none = SBUF_INIT;
	static const struct hmap nomap = HMAP_INIT;
	const struct nvsmi *p = st;
	struct nvsmi *f;
	size_t i;

	if (p->kind != K_GPU || !p->have_columns || p->col[C_TS] < 0 ||
	    (p->col[C_INDEX] < 0 && p->col[C_WGPU] < 0) || !p->wrapped ||
	    p->nz > 0)
		return NULL;
	f = emalloc(sizeof(*f));
	*f = *p;
	f->s = s;
	f->forked = 1;
	f->rows = f->nomem = f->headers = f->zrows = f->zrecs = 0;
	f->since_header = 0;
	f->z = NULL;
	f->host = f->key = f->name = f->guessed = f->lkey = none;
	f->uuid = f->bus = f->card = none;
	sbuf_copy(&f->phost, &p->phost);
	sbuf_copy(&f->head, &p->head);
	for (i = 0; i < NLAST; i++)
		sbuf_copy(&f->last[i], &p->last[i]);
	f->learned = nomap;
	f->gpuset.seen = nomap;
	physgpu_copy(&f->phys, &p->phys);
	return f;
}

static void
join_fn(void *st, const void *fork)
{
	struct nvsmi *p = st;
	const struct nvsmi *f = fork;

	p->rows += f->rows;
	p->nomem += f->nomem;
	if (f->headers > 0) {
		/* Its first header came after rows it could not count. */
		if (f->headers == 1)
			headers_mark_polls(p, p->since_header + f->head_rows);
		else
			p->header_polls = f->header_polls;
		p->headers += f->headers;
		p->since_header = f->since_header;
		p->newblock = 1;
	} else
		p->since_header += f->since_header;
}

static void
free_fn(void *st)
{
	struct nvsmi *p = st;
	size_t i;

	sbuf_release(&p->host);
	sbuf_release(&p->key);
	sbuf_release(&p->name);
	gpumap_set_release(&p->gpuset);
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
	sbuf_release(&p->head);
	free(p);
}

const struct format nvsmi_query_gpu_format = {
	.name = "query-gpu",
	.what = "nvidia-smi --query-gpu CSV",
	.device_only = 1,
	.sniff_text = sniff_gpu,
	.open = open_gpu,
	.line = line_fn,
	.summary = summary,
	.free = free_fn,
	.fork = fork_fn,
	.join = join_fn,
};

const struct format nvsmi_compute_apps_format = {
	.name = "compute-apps",
	.what = "nvidia-smi --query-compute-apps CSV",
	.sniff_text = sniff_apps,
	.open = open_apps,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
