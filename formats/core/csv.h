/* SPDX-License-Identifier: ISC */
/*
 * csv.h: CSV as RFC 4180 writes it, the one module that reads and writes
 * it: our record stream, task tables and usage curves, --tasks files
 * (a spreadsheet's export).  A field holding a comma, a quote or a line
 * break is quoted, its quotes doubled ("train, v2", "say ""hi""");
 * a quoted field may span lines.
 *
 * nvidia-smi's CSV is not RFC 4180 (it never quotes: a process name with
 * commas spans fields), so its parsers split with field_split (field.h).
 */
#ifndef GPUMEM_CSV_H
#define GPUMEM_CSV_H

#include <stddef.h>

/*
 * Append s as one CSV field to dst (quoted when it must be: a comma, a
 * quote, a line break, or a leading UTF-8 byte-order mark, which a
 * reader drops at a line's start); return the bytes written.  dst must
 * have room for 2 * strlen(s) + 3.
 */
size_t csv_field(char *dst, const char *s);

/*
 * CSV for a spreadsheet (the commands' --spreadsheet), from now on: a
 * field that starts with = + - @, a tab or a carriage return, which a
 * spreadsheet takes as a formula (=HYPERLINK(...), =cmd|'...'!A0: a
 * process name is whatever the process called itself), gets a ' before
 * it, which makes it text (OWASP's rule for CSV injection).  Such a
 * field no longer reads back as it was written: not for files gpumem
 * reads again.
 */
void csv_set_spreadsheet(int on);

/*
 * Cut the next field from *pp: a quoted one is unescaped in place, not
 * terminated.  Return its start and set *n; return NULL on a malformed
 * quote (none closing, or text after the closing one).  *pp is left after
 * the separating comma, or at NULL after the last field.  The record
 * stream's reader calls it on every line with a quote: keep it lean.
 */
char *csv_next_field(char **pp, size_t *n);

/*
 * Split the NUL-terminated line into at most max fields, each unescaped
 * and NUL-terminated in place, given as start and length.  With trim,
 * spaces and tabs around a field are dropped (a hand-written file:
 * "a , b"); a quoted field keeps its own.  Return the number of fields,
 * max + 1 when there are more, or -1 on bad quoting.
 */
int csv_split(char *line, char **f, size_t *len, size_t max, int trim);

/*
 * Whether line[0..len) ends inside an open quoted field: the caller joins
 * the next line to it (with the line feed between them).
 */
int csv_line_open(const char *line, size_t len);

#endif
