/* SPDX-License-Identifier: ISC */
/*
 * xml.c: nvidia-smi -q -x logs (docs/log-formats.md section 4), read with
 * expat, a streaming parser: each line is fed as it comes, so a log of a
 * thousand documents costs the memory of one.
 *
 *	<nvidia_smi_log>
 *		<timestamp>Thu Jul 20 17:00:50 2023</timestamp>
 *		<attached_gpus>1</attached_gpus>
 *		<gpu id="00000000:01:00.0">
 *			<uuid>GPU-...</uuid>
 *			<fb_memory_usage> total, reserved (R510+), used, free
 *			<processes> <process_info> pid, process_name, used_memory
 *
 * A log written by a loop holds many documents one after another: a new
 * document starts at each "<?xml" (or, after a root element has ended,
 * at the next line that starts with '<'), and the parser is reset there.
 * DTD versions 7 to 13 name the same elements for what gpumem reads; a
 * DTD outside that range, or one that is not nvidia-smi's, gets a warning
 * and is read the same way, but a root element other than nvidia_smi_log
 * is refused.  An inline DTD (--dtd) is parsed and skipped.
 *
 * The GPU index comes from the GPU's position when the document holds
 * every attached GPU, else from its bus id (snapdoc.h says how).
 *
 * MIG: a <mig_device>'s fb_memory_usage is a share of its GPU's, which
 * already counts it (the GPU's used memory is the sum of its instances'),
 * so MIG devices are not GPUs of their own: they are counted for the
 * summary line and their memory is left in their GPU.  Processes of a MIG
 * instance are listed under their GPU and are read as that GPU's.
 *
 * A document cut off (the log ended, or the next one began) keeps the
 * GPUs it completed; an XML error skips the rest of its document.  A
 * document without <timestamp> takes its time from --start and
 * --interval (one document per interval).
 */
#include <expat.h>
#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "gtime.h"
#include "sclock.h"
#include "snapdoc.h"
#include "xml.h"

#define MAXDEPTH 64
#define DTD_MIN 7
#define DTD_MAX 13

/* The elements gpumem reads; everything else is E_OTHER. */
enum el {
	E_OTHER, E_ROOT, E_TIMESTAMP, E_ATTACHED, E_GPU, E_UUID, E_FB,
	E_TOTAL, E_RESERVED, E_USED, E_FREE, E_PROCESSES, E_PROCINFO, E_PID,
	E_PNAME, E_PUSED, E_MIGS, E_MIG
};

/* Where each element is read: its name and its parent's kind. */
static const struct {
	const char *name;
	enum el parent, el;
} elements[] = {
	{"timestamp", E_ROOT, E_TIMESTAMP},
	{"attached_gpus", E_ROOT, E_ATTACHED},
	{"gpu", E_ROOT, E_GPU},
	{"uuid", E_GPU, E_UUID},
	{"fb_memory_usage", E_GPU, E_FB},
	{"total", E_FB, E_TOTAL},
	{"reserved", E_FB, E_RESERVED},
	{"used", E_FB, E_USED},
	{"free", E_FB, E_FREE},
	{"processes", E_GPU, E_PROCESSES},
	{"process_info", E_PROCESSES, E_PROCINFO},
	{"pid", E_PROCINFO, E_PID},
	{"process_name", E_PROCINFO, E_PNAME},
	{"used_memory", E_PROCINFO, E_PUSED},
	{"mig_devices", E_GPU, E_MIGS},
	{"mig_device", E_MIGS, E_MIG},
};

struct xml {
	struct source *s;
	XML_Parser xp;
	int indoc;		/* a document has begun */
	int done;		/* its root element has ended */
	int bad;		/* an error: skip to the next document */
	int refuse;		/* not nvidia-smi's XML: said */
	int lines;		/* a line that is not blank came */
	uint64_t docline;	/* the line it began on */

	enum el stack[MAXDEPTH];
	int depth;
	int collect;		/* gather the text of this leaf */
	struct sbuf text;

	/* The document being read. */
	int have_ts;
	uint64_t ts;
	struct snapdoc doc;
	int dtd;		/* the version its DTD names, 0 none, -1 unknown */

	/* For the summary and the warnings. */
	struct sclock clock;
	uint64_t docs, migs, cut, broken;
	uint64_t nrec;		/* records written (a bundle's section: its own) */
	int dtd_lo, dtd_hi, dtd_said, clock_said;
};

static int
sniff(char *const *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 8; i++)
		if (strstr(lines[i], "<nvidia_smi_log") != NULL ||
		    strstr(lines[i], "DOCTYPE nvidia_smi_log") != NULL)
			return 95;
	/* Some XML: ours to refuse with a reason when nothing else reads it. */
	return n > 0 && strncmp(lines[0], "<?xml", 5) == 0 ? 40 : 0;
}

/* Emit the records of the document read so far (its complete GPUs). */
static void
emit_doc(struct xml *p)
{
	static const struct snapdoc_words words = {"document",
	    "has no <timestamp>", "without <timestamp>",
	    "documents without a time"};
	uint64_t ts;

	p->docs++;
	ts = p->ts;
	if (!p->have_ts && snapdoc_time(p->s, &p->clock, &words, p->docs,
	    p->nrec, &p->clock_said, &ts) < 0)
		return;
	p->nrec += snapdoc_emit(&p->doc, p->s, ts, REC_SNAP_XML);
}

static void
reset_doc(struct xml *p)
{
	snapdoc_reset(&p->doc);
	p->have_ts = 0;
	p->depth = 0;
	p->collect = 0;
	p->dtd = 0;
	p->indoc = p->done = p->bad = p->refuse = 0;
}

/* A leaf's text is complete: store it where it belongs. */
static void
leaf(struct xml *p, enum el e)
{
	struct snapgpu *g = snapdoc_cur(&p->doc);
	struct snapproc *x = NULL;
	const char *t = p->text.buf != NULL ? p->text.buf : "";
	size_t n = p->text.len;
	char *v = (char *)t;
	uint32_t u;
	int rc;
	char q[48];

	v = field_trim(v, &n);
	if (e == E_PID || e == E_PNAME || e == E_PUSED)
		x = snapdoc_curproc(&p->doc);
	switch (e) {
	case E_TIMESTAMP:
		if (gtime_ctime(v, n, &p->ts) == 0)
			p->have_ts = 1;
		else
			source_bad(p->s, "<timestamp>: expected a date like "
			    "'Fri Aug  4 11:44:30 2023', got %s",
			    field_quote(q, sizeof(q), v, n));
		break;
	case E_ATTACHED:
		if (field_uint(v, n, &u) == 1)
			p->doc.attached = u;
		break;
	case E_UUID:
		if (g != NULL && !field_placeholder(v, n)) {
			free(g->uuid);
			g->uuid = estrndup(v, n);
		}
		break;
	case E_TOTAL:
	case E_RESERVED:
	case E_USED:
	case E_FREE:
		if (g == NULL)
			break;
		rc = field_mib(v, n, &u);
		if (rc < 0) {
			source_bad(p->s, "<%s>: expected MiB, got %s",
			    e == E_TOTAL ? "total" : e == E_RESERVED ?
			    "reserved" : e == E_USED ? "used" : "free",
			    field_quote(q, sizeof(q), v, n));
			break;
		}
		if (rc == 0)
			break;
		if (e == E_TOTAL) {
			g->total = u;
			g->has |= REC_TOTAL;
		} else if (e == E_RESERVED) {
			g->reserved = u;
			g->has |= SNAP_RESERVED;
		} else if (e == E_USED) {
			g->used = u;
			g->has |= REC_USED;
		} else {
			g->free = u;
			g->has |= REC_FREE;
		}
		break;
	case E_PID:
		if (x == NULL)
			break;
		if (field_uint(v, n, &u) == 1 && u > 0)
			x->pid = u;
		else
			source_bad(p->s, "<pid>: expected a process id, got "
			    "%s", field_quote(q, sizeof(q), v, n));
		break;
	case E_PNAME:
		if (x != NULL) {
			free(x->name);
			x->name = estrndup(v, n);
		}
		break;
	case E_PUSED:
		if (x == NULL)
			break;
		rc = field_mib(v, n, &u);
		if (rc == 1) {
			x->used = u;
			x->has_used = 1;
		} else if (rc < 0)
			source_bad(p->s, "<used_memory>: expected MiB, got %s",
			    field_quote(q, sizeof(q), v, n));
		break;
	default:
		break;
	}
}

static void XMLCALL
on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
	struct xml *p = ud;
	enum el parent, e = E_OTHER;
	size_t i;

	if (p->bad || p->refuse)
		return;
	if (p->depth == 0) {
		if (strcmp(name, "nvidia_smi_log") != 0) {
			p->refuse = 1;
			if (p->nrec == 0 && p->docs == 0)
				source_refuse(p->s, "not an nvidia-smi -q -x "
				    "document (its root element is <%s>)",
				    name);
			else
				source_bad(p->s, "a document whose root "
				    "element is <%s>, not <nvidia_smi_log>: "
				    "skipped", name);
			XML_StopParser(p->xp, XML_FALSE);
			return;
		}
		e = E_ROOT;
	} else {
		parent = p->stack[p->depth - 1];
		for (i = 0; i < sizeof(elements) / sizeof(elements[0]); i++)
			if (elements[i].parent == parent &&
			    strcmp(elements[i].name, name) == 0) {
				e = elements[i].el;
				break;
			}
	}
	if (p->depth == MAXDEPTH) {
		source_bad(p->s, "elements nested deeper than %d", MAXDEPTH);
		p->bad = 1;
		XML_StopParser(p->xp, XML_FALSE);
		return;
	}
	p->stack[p->depth++] = e;
	p->collect = 0;
	switch (e) {
	case E_GPU: {
		const char *bus = NULL;

		for (i = 0; atts[i] != NULL; i += 2)
			if (strcmp(atts[i], "id") == 0)
				bus = atts[i + 1];
		snapdoc_gpu(&p->doc, bus);
		break;
	}
	case E_PROCINFO:
		snapdoc_proc(&p->doc);
		break;
	case E_MIG:
		p->migs++;
		break;
	case E_TIMESTAMP: case E_ATTACHED: case E_UUID: case E_TOTAL:
	case E_RESERVED: case E_USED: case E_FREE: case E_PID: case E_PNAME:
	case E_PUSED:
		p->collect = 1;
		sbuf_reset(&p->text);
		break;
	default:
		break;
	}
}

static void XMLCALL
on_end(void *ud, const XML_Char *name)
{
	struct xml *p = ud;
	enum el e;

	(void)name;
	if (p->bad || p->refuse || p->depth == 0)
		return;
	e = p->stack[--p->depth];
	if (p->collect) {
		leaf(p, e);
		p->collect = 0;
	}
	if (e == E_GPU)
		snapdoc_cur(&p->doc)->complete = 1;
	else if (e == E_ROOT) {
		p->done = 1;
		emit_doc(p);
	}
}

static void XMLCALL
on_text(void *ud, const XML_Char *s, int len)
{
	struct xml *p = ud;

	if (p->collect && len > 0)
		sbuf_add(&p->text, s, (size_t)len);
}

/* "nvsmi_device_v12.dtd" -> 12; 0 when s names no nvidia-smi DTD. */
static int
dtd_version(const char *s)
{
	const char *v = strstr(s, "nvsmi_device_v");
	char *end;
	long n;

	if (v == NULL)
		return 0;
	n = strtol(v + 14, &end, 10);
	if (end == v + 14 || strncmp(end, ".dtd", 4) != 0 || n <= 0 ||
	    n > 999)
		return 0;
	return (int)n;
}

static void
note_dtd(struct xml *p, int v, const char *what)
{
	p->dtd = v;
	if (v > 0) {
		if (p->dtd_lo == 0 || v < p->dtd_lo)
			p->dtd_lo = v;
		if (v > p->dtd_hi)
			p->dtd_hi = v;
	}
	if (p->dtd_said)
		return;
	if (v < 0) {
		p->dtd_said = 1;
		source_warn(p->s, "unknown DTD '%s' (not nvidia-smi's "
		    "nvsmi_device_vN.dtd): read as nvidia-smi -q -x", what);
	} else if (v > 0 && (v < DTD_MIN || v > DTD_MAX)) {
		p->dtd_said = 1;
		source_warn(p->s, "DTD version %d (%s) is outside the versions "
		    "gpumem knows (%d to %d): read like version %d", v, what,
		    DTD_MIN, DTD_MAX, v < DTD_MIN ? DTD_MIN : DTD_MAX);
	}
}

static void XMLCALL
on_doctype(void *ud, const XML_Char *name, const XML_Char *sysid,
    const XML_Char *pubid, int internal)
{
	struct xml *p = ud;

	(void)name;
	(void)pubid;
	(void)internal;
	/* An inline DTD names its version in a comment: see on_comment. */
	if (sysid != NULL)
		note_dtd(p, dtd_version(sysid) > 0 ? dtd_version(sysid) : -1,
		    sysid);
}

static void XMLCALL
on_comment(void *ud, const XML_Char *data)
{
	struct xml *p = ud;
	int v;

	if (p->depth == 0 && p->dtd == 0 && (v = dtd_version(data)) > 0)
		note_dtd(p, v, "inline");
}

static void
new_parser(struct xml *p)
{
	if (p->xp == NULL) {
		p->xp = XML_ParserCreate(NULL);
		if (p->xp == NULL)
			die("out of memory");
	} else
		XML_ParserReset(p->xp, NULL);
	XML_SetUserData(p->xp, p);
	XML_SetElementHandler(p->xp, on_start, on_end);
	XML_SetCharacterDataHandler(p->xp, on_text);
	XML_SetStartDoctypeDeclHandler(p->xp, on_doctype);
	XML_SetCommentHandler(p->xp, on_comment);
}

static void *
open_fn(struct source *s, const char *hint)
{
	struct xml *p = ecalloc(1, sizeof(*p));

	(void)hint;
	p->s = s;
	snapdoc_init(&p->doc);
	sclock_init(&p->clock);
	new_parser(p);
	return p;
}

/* Where the current element path is, for a cut-off document. */
static const char *
where(const struct xml *p)
{
	int i, gpu = 0, fb = 0;

	if (p->depth == 0)
		return "before its root element";
	for (i = 0; i < p->depth; i++)
		if (p->stack[i] == E_PROCESSES)
			return "inside <processes>";
		else if (p->stack[i] == E_FB)
			fb = 1;
		else if (p->stack[i] == E_GPU)
			gpu = 1;
	return fb ? "inside <fb_memory_usage>" : gpu ? "inside a <gpu>" :
	    "inside <nvidia_smi_log>";
}

/* The document ended without its root's end tag. */
static void
cut_off(struct xml *p)
{
	size_t n;

	if (p->bad || p->refuse || p->done)
		return;
	n = snapdoc_complete(&p->doc);
	p->cut++;
	source_bad(p->s, "document cut off %s (it began on line %llu): "
	    "%zu complete GPU%s kept", where(p),
	    (unsigned long long)p->docline, n, n == 1 ? "" : "s");
	if (p->depth > 0)
		emit_doc(p);
}

static void
begin_doc(struct xml *p)
{
	if (p->indoc) {
		cut_off(p);
		new_parser(p);
	}
	reset_doc(p);
	p->indoc = 1;
	p->docline = source_lineno(p->s);
}

static void
feed(struct xml *p, const char *s, size_t n, int final)
{
	if (p->bad || p->refuse)
		return;
	if (XML_Parse(p->xp, s, (int)n, final) == XML_STATUS_ERROR &&
	    !p->refuse && !p->bad) {
		/* Not the document's fault: stop, as emalloc() would. */
		if (XML_GetErrorCode(p->xp) == XML_ERROR_NO_MEMORY)
			die("out of memory (expat)");
		p->bad = 1;
		p->broken++;
		source_bad(p->s, "XML: %s (column %lu)%s",
		    XML_ErrorString(XML_GetErrorCode(p->xp)),
		    (unsigned long)XML_GetCurrentColumnNumber(p->xp) + 1,
		    p->done ? "" : ": the rest of this document is skipped");
	}
}

/*
 * A piece of a line (the whole line, or the part before the next
 * "<?xml"): start a document there or feed it to the current one.  A
 * whole line (nl) is fed with its newline, for expat's line count.
 */
static void
piece(struct xml *p, char *s, size_t len, int nl)
{
	size_t lead = 0;

	while (lead < len && (s[lead] == ' ' || s[lead] == '\t'))
		lead++;
	if (lead == len) {
		if (nl && p->indoc && !p->done)
			feed(p, "\n", 1, 0);
		return;
	}
	p->lines = 1;
	if ((len - lead >= 5 && strncmp(s + lead, "<?xml", 5) == 0) ||
	    (s[lead] == '<' && (!p->indoc || p->done))) {
		begin_doc(p);
	} else if (!p->indoc || p->done) {
		source_skip(p->s, "lines outside XML documents");
		return;
	} else if (p->bad || p->refuse) {
		source_skip(p->s, "lines of broken documents");
		return;
	}
	if (!nl) {
		feed(p, s, len, 0);
		return;
	}
	/* The line's NUL becomes its newline: one call to expat a line. */
	s[len] = '\n';
	feed(p, s, len + 1, 0);
	s[len] = '\0';
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct xml *p = st;
	char *decl;

	if (source_refused(p->s))
		return;
	/* Documents written without line ends: each "<?xml" begins one. */
	while (len > 5 && (decl = strstr(line + 1, "<?xml")) != NULL) {
		piece(p, line, (size_t)(decl - line), 0);
		if (source_refused(p->s))
			return;
		len -= (size_t)(decl - line);
		line = decl;
	}
	piece(p, line, len, 1);
}

static void
end_fn(void *st)
{
	struct xml *p = st;

	if (source_refused(p->s))
		return;
	if (p->indoc)
		cut_off(p);
	if (p->docs == 0 && source_nbad(p->s) == 0 && !source_refused(p->s) &&
	    p->lines)
		source_refuse(p->s, "no <nvidia_smi_log> document: not "
		    "nvidia-smi -q -x XML");
}

static void
summary(void *st, struct sbuf *sb)
{
	struct xml *p = st;

	sbuf_printf(sb, ", %llu document%s", (unsigned long long)p->docs,
	    p->docs == 1 ? "" : "s");
	if (p->dtd_lo > 0 && p->dtd_lo == p->dtd_hi)
		sbuf_printf(sb, ", DTD v%d", p->dtd_lo);
	else if (p->dtd_lo > 0)
		sbuf_printf(sb, ", DTD v%d to v%d", p->dtd_lo, p->dtd_hi);
	if (p->migs > 0)
		sbuf_printf(sb, ", %llu MIG devices (their memory counted in "
		    "their GPU)", (unsigned long long)p->migs);
	sclock_say(&p->clock, sb);
}

static void
free_fn(void *st)
{
	struct xml *p = st;

	snapdoc_release(&p->doc);
	if (p->xp != NULL)
		XML_ParserFree(p->xp);
	sbuf_release(&p->text);
	free(p);
}

const struct format xml_format = {
	.name = "xml",
	.what = "nvidia-smi -q -x XML",
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
