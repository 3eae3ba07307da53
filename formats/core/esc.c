/* SPDX-License-Identifier: ISC */
/* esc.c: text made safe for XML, JSON and Markdown (esc.h). */
#include <string.h>
#include <strings.h>

#include "esc.h"

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */
#define ZWSP "\xe2\x80\x8b"	/* U+200B ZERO WIDTH SPACE */

/* Whether what sb holds ends with s (ASCII letters in either case). */
static int
ends(const struct sbuf *sb, const char *s)
{
	size_t n = strlen(s);

	return sb->len >= n && strncasecmp(sb->buf + sb->len - n, s, n) == 0;
}

/*
 * Walk s: call each() for every ASCII byte, copy every valid multi-byte
 * sequence, replace every invalid byte.  each() returns 1 when it wrote
 * the byte itself.
 */
static void
walk(struct sbuf *sb, const char *s, int (*each)(struct sbuf *, int, int),
    int arg)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, k;

	while (i < n) {
		if (p[i] < 0x80) {
			if (!each(sb, p[i], arg))
				sbuf_addc(sb, p[i]);
			i++;
			continue;
		}
		k = text_utf8_seq(p + i, n - i);
		if (k == 0) {
			sbuf_adds(sb, replacement);
			i++;
		} else if (k == 3 && p[i] == 0xef && p[i + 1] == 0xbf &&
		    (p[i + 2] == 0xbe || p[i + 2] == 0xbf)) {
			/* U+FFFE and U+FFFF are not XML characters either. */
			sbuf_adds(sb, replacement);
			i += 3;
		} else {
			sbuf_add(sb, p + i, k);
			i += k;
		}
	}
}

static int
xml_char(struct sbuf *sb, int c, int attr)
{
	switch (c) {
	case '&':
		sbuf_adds(sb, "&amp;");
		return 1;
	case '<':
		sbuf_adds(sb, "&lt;");
		return 1;
	case '>':
		sbuf_adds(sb, "&gt;");
		return 1;
	case '"':
		sbuf_adds(sb, "&quot;");
		return 1;
	case '\'':
		sbuf_adds(sb, "&apos;");
		return 1;
	case '\t':
	case '\n':
	case '\r':
		/* An attribute value would have them normalised to spaces. */
		if (attr)
			sbuf_printf(sb, "&#%d;", c);
		return attr;
	}
	if (c < 0x20 || c == 0x7f) {
		sbuf_adds(sb, replacement);
		return 1;
	}
	return 0;
}

void
esc_xml(struct sbuf *sb, const char *s, int attr)
{
	walk(sb, s, xml_char, attr);
}

static int
json_char(struct sbuf *sb, int c, int arg)
{
	(void)arg;
	switch (c) {
	case '"':
		sbuf_adds(sb, "\\\"");
		return 1;
	case '\\':
		sbuf_adds(sb, "\\\\");
		return 1;
	case '\n':
		sbuf_adds(sb, "\\n");
		return 1;
	case '\t':
		sbuf_adds(sb, "\\t");
		return 1;
	}
	if (c < 0x20 || c == 0x7f) {
		sbuf_printf(sb, "\\u%04x", c);
		return 1;
	}
	return 0;
}

void
esc_json(struct sbuf *sb, const char *s)
{
	sbuf_addc(sb, '"');
	walk(sb, s, json_char, 0);
	sbuf_addc(sb, '"');
}

/*
 * GitHub finds @mentions, bare URLs ("scheme://", "www.") and e-mail
 * addresses in the text Markdown has become, after backslash escapes are
 * gone: "\@user" still mentions, and notifies, the user.  A ZERO WIDTH
 * SPACE stays in that text and matches none of them: after "@" (no
 * mention, no address), between the slashes of "://" and before the "."
 * of "www." (no link); it shows nothing.  (Renovate's pull requests break
 * mentions so; a code span would too, but turns the cell to monospace and
 * needs its own escaping of backticks.)
 */
static int
md_char(struct sbuf *sb, int c, int arg)
{
	(void)arg;
	if (c == '@' || (c == '/' && ends(sb, ":/")) ||
	    (c == '.' && ends(sb, "www"))) {
		if (c == '@')
			sbuf_adds(sb, "@" ZWSP);
		else
			sbuf_printf(sb, ZWSP "%c", c);
		return 1;
	}
	/* & starts an entity, $ TeX math on GitHub. */
	if (strchr("|\\`*_[]<>#~&$", c) != NULL) {
		sbuf_addc(sb, '\\');
		sbuf_addc(sb, c);
		return 1;
	}
	if (c < 0x20 || c == 0x7f) {
		sbuf_addc(sb, ' ');
		return 1;
	}
	return 0;
}

void
esc_md(struct sbuf *sb, const char *s)
{
	walk(sb, s, md_char, 0);
}

/*
 * A label value of the Prometheus text format (and OpenMetrics): only a
 * backslash, a double quote and a line feed have escapes there; the other
 * control characters have none, and would reach the dashboards as they
 * are: spaces.
 */
static int
prom_char(struct sbuf *sb, int c, int arg)
{
	(void)arg;
	if (c == '\\' || c == '"') {
		sbuf_addc(sb, '\\');
		sbuf_addc(sb, c);
		return 1;
	}
	if (c == '\n') {
		sbuf_adds(sb, "\\n");
		return 1;
	}
	if (c < 0x20 || c == 0x7f) {
		sbuf_addc(sb, ' ');
		return 1;
	}
	return 0;
}

void
esc_prom(struct sbuf *sb, const char *s)
{
	sbuf_addc(sb, '"');
	walk(sb, s, prom_char, 0);
	sbuf_addc(sb, '"');
}

void
esc_word(struct sbuf *sb, const char *s)
{
	const char *p;

	for (p = s; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("_./:=,+@%-", *p) != NULL))
			break;
	if (*s != '\0' && *p == '\0')
		sbuf_adds(sb, s);
	else
		esc_json(sb, s);
}

void
esc_url(struct sbuf *sb, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~+", *p) != NULL)
			sbuf_addc(sb, *p);
		else
			sbuf_printf(sb, "%%%02X", *p);
}

/*
 * gnuplot reads a script line by line: a line break ends a command
 * wherever it is, so every control character goes (a space).  In a
 * single-quoted string only '' is special: no backslash escapes, no
 * `command` substitution and no @macro expansion happen there.  A data
 * block's string column is double-quoted: it cannot escape a double
 * quote (it becomes a single one), and takes backslash escapes ("\n",
 * "\101"), so a backslash is doubled.
 *
 * gnuplot's SVG terminal writes strings into the SVG's text with & and <
 * escaped, not >: "]]>", which XML forbids in text (the SVG would not
 * parse: browsers show an error instead of the chart), gets a WORD JOINER
 * (U+2060, no width: it reads the same) between "]]" and ">".
 */
static int
gnuplot_char(struct sbuf *sb, int c, int data)
{
	if (c == '>' && ends(sb, "]]")) {
		sbuf_adds(sb, "\xe2\x81\xa0>");	/* U+2060 */
		return 1;
	}
	if (c < 0x20 || c == 0x7f) {
		sbuf_addc(sb, ' ');
		return 1;
	}
	if (!data && c == '\'') {
		sbuf_adds(sb, "''");
		return 1;
	}
	if (data && c == '"') {
		sbuf_addc(sb, '\'');
		return 1;
	}
	if (data && c == '\\') {
		sbuf_adds(sb, "\\\\");
		return 1;
	}
	return 0;
}

void
esc_gnuplot(struct sbuf *sb, const char *s, int data)
{
	if (data) {
		sbuf_addc(sb, '"');
		walk(sb, s, gnuplot_char, 1);
		sbuf_addc(sb, '"');
		return;
	}
	/*
	 * gnuplot reads ''' as an empty string and a quote: a leading quote
	 * cannot be doubled.  It is joined on as a constant instead ("'".),
	 * which every place taking a string takes (a string expression).
	 */
	for (; *s == '\''; s++)
		sbuf_adds(sb, "\"'\".");
	sbuf_addc(sb, '\'');
	walk(sb, s, gnuplot_char, 0);
	sbuf_addc(sb, '\'');
}

void
esc_obuf_flush(struct obuf *o, int all)
{
	if (o->sb.len == 0 || (!all && o->sb.len < 65536))
		return;
	if (!o->failed && outfile_ewrite_file(o->f, o->sb.buf, o->sb.len) < 0)
		o->failed = 1;
	sbuf_reset(&o->sb);
}

int
esc_obuf_end(struct obuf *o)
{
	esc_obuf_flush(o, 1);
	if (fflush(o->f) != 0 || ferror(o->f))
		o->failed = 1;
	sbuf_release(&o->sb);
	return o->failed ? -1 : 0;
}
