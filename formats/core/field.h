/* SPDX-License-Identifier: ISC */
/*
 * field.h: values as nvidia-smi, DCGM and exporters print them.
 *
 * Memory values come as "841 MiB", "841MiB" or "841" (MB in dmon, pmon and
 * DCGM means MiB).  Missing values come as placeholders, which are values,
 * not errors: "[N/A]", "N/A", "[Not Supported]", "[Insufficient
 * Permissions]", any other "[...]", "-", the empty string, and DCGM's blank
 * sentinels (docs/log-formats.md, "Parser pitfalls" 3 and 4).
 */
#ifndef GPUMEM_FIELD_H
#define GPUMEM_FIELD_H

#include <stddef.h>
#include <stdint.h>

/* Whether s[0..n) is a placeholder for a missing value. */
int field_placeholder(const char *s, size_t n);

/*
 * A MiB value: return 1 and store it, 0 for a placeholder, -1 for anything
 * else.  A unit of MiB or MB (with or without a space) is accepted.
 */
int field_mib(const char *s, size_t n, uint32_t *v);

/* A plain unsigned integer (index, pid): 1, 0 for a placeholder, or -1. */
int field_uint(const char *s, size_t n, uint32_t *v);

/* Trim spaces and tabs from both ends of s[0..*n); return the new start. */
char *field_trim(char *s, size_t *n);

/*
 * Split the NUL-terminated line at sep into at most max fields, each given
 * as start and length, trimmed; the line is not modified, so the text
 * between two fields is still there (a process name with commas spans
 * several fields).  Return the number of fields (max + 1: more than max).
 */
size_t field_split(char *line, int sep, char **f, size_t *len, size_t max);

/*
 * Split the NUL-terminated line into at most max words separated by runs
 * of spaces and tabs (the fixed-width columns of dmon, pmon and dcgmi
 * dmon), each given as start and length; the line is not modified.
 * Return the number of words (max + 1: more than max).
 */
size_t field_words(char *line, char **w, size_t *len, size_t max);

/*
 * A number as exporters print it ("15109", "8.969000", "2.690646016e+09"):
 * return 1 and store it, 0 for a placeholder (including DCGM's blank
 * sentinels and NaN), or -1 for anything else.  Negative values and
 * infinities are -1: no memory quantity is negative.
 */
int field_double(const char *s, size_t n, double *v);

/* Print s[0..n) as a short quoted excerpt for messages into dst[cap]. */
const char *field_quote(char *dst, size_t cap, const char *s, size_t n);

#endif
