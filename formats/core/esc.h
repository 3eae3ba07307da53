/* SPDX-License-Identifier: ISC */
/*
 * esc.h: text made safe for what CI systems and tools read: XML (JUnit),
 * JSON, Markdown table cells, Prometheus label values and gnuplot
 * scripts.
 *
 * Process names come from the telemetry as they are: any bytes.  Each
 * function appends s to sb, with every invalid UTF-8 sequence replaced by
 * U+FFFD, so that the output is always valid UTF-8.
 */
#ifndef GPUMEM_ESC_H
#define GPUMEM_ESC_H

#include <stddef.h>
#include <stdio.h>

#include "util.h"

/*
 * For an XML attribute value or text: & < > " ' as entities; tab, line
 * feed and carriage return as character references in attributes (kept
 * in text); other control characters, which XML 1.0 cannot hold, and
 * U+FFFE/U+FFFF as U+FFFD.
 */
void esc_xml(struct sbuf *sb, const char *s, int attr);

/* A JSON string, quotes included. */
void esc_json(struct sbuf *sb, const char *s);

/*
 * A Markdown table cell: characters Markdown would take as markup
 * (| \ ` * _ [ ] < > # ~ & $) backslash-escaped; control characters
 * (line breaks, ESC) as spaces; a ZERO WIDTH SPACE (U+200B) after "@",
 * between the slashes of "://" and before the "." of "www.", so that a
 * name makes no @mention, URL or e-mail link where GitHub renders it
 * (a CI comment).
 */
void esc_md(struct sbuf *sb, const char *s);

/*
 * A label value of the Prometheus text exposition format (and
 * OpenMetrics), quotes included: \\ \" and \n escaped, other control
 * characters as spaces.
 */
void esc_prom(struct sbuf *sb, const char *s);

/*
 * A word of a one-line list of words (the command in gpumem record's
 * meta): as it is when it holds only ASCII letters, digits and
 * _ . / : = , + @ % -, else a JSON string (quotes included: a space, a
 * line break or a quote cannot split the word or end the line).
 */
void esc_word(struct sbuf *sb, const char *s);

/*
 * A path segment of a relative URL (a link to a file beside the page):
 * ASCII letters, digits and - . _ ~ + as they are, every other byte
 * %XX, so a space, '#', '?', '%', '/' or a quote cannot end or split
 * it.  Markup takes it as it is (no & < > " ' left).
 */
void esc_url(struct sbuf *sb, const char *s);

/*
 * The one way a string reaches a gnuplot script.  data 0: a string of
 * the script (titles, labels), single-quoted, '' doubled, a leading '
 * joined on as "'".'...' (a string expression: gnuplot cannot double a
 * leading quote); nothing in it is interpreted (no `command`, no @macro,
 * no backslash escape).  data 1: the string column of an inline data block,
 * double-quoted, a " becomes ', a backslash is doubled.  Either way control characters (line
 * breaks above all: they end a command) become spaces, so the string
 * cannot end its line, and a data block's line, which starts with a
 * number, is never "EOD".  Enhanced-text markup is left as it is: every
 * chart's terminal runs noenhanced.  "]]>" is written with a WORD JOINER
 * (U+2060) before its ">": gnuplot's SVG does not escape ">", and XML
 * text cannot hold "]]>".
 */
void esc_gnuplot(struct sbuf *sb, const char *s, int data);

/*
 * A report being written: text gathered in sb and written to f when it
 * has grown (esc_obuf_flush(o, 0)) and at the end (esc_obuf_flush(o, 1)).  A
 * write error is remembered in failed.
 */
struct obuf {
	FILE *f;
	struct sbuf sb;
	int failed;
};

/* Write sb out when it holds 64 KiB or more, or always with all. */
void esc_obuf_flush(struct obuf *o, int all);
/* Flush everything, release sb; return 0, or -1 after a write error. */
int esc_obuf_end(struct obuf *o);

#endif
