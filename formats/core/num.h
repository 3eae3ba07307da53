/* SPDX-License-Identifier: ISC */
/* num.h: numbers and id lists, read strictly and written fast. */
#ifndef GPUMEM_NUM_H
#define GPUMEM_NUM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Strict decimal parsing of s[0..n): digits only, no sign, no spaces, in
 * range.  Return 0 and store the value, or -1.
 */
int num_parse_u64(const char *s, size_t n, uint64_t *out);
int num_parse_u32(const char *s, size_t n, uint32_t *out);

/*
 * An option argument that must be an integer in [min, max].  On failure
 * print "prog: OPTION: 'ARG': expected an integer (allowed MIN-MAX)" and
 * exit EXIT_TROUBLE.
 */
uint64_t num_opt_u64(const char *opt, const char *arg, uint64_t min,
    uint64_t max);

/*
 * A set of small unsigned integers given as "0,2,5-7" (for --gpu, --pid).
 * Membership is a sorted list of ranges.
 */
struct idset {
	size_t n;
	struct { uint32_t lo, hi; } *r;
};
/* Parse into *set (which must be zeroed); return 0, or -1 on bad syntax. */
int num_idset_parse(struct idset *set, const char *s);
int num_idset_has(const struct idset *set, uint32_t v);
void num_idset_release(struct idset *set);

/*
 * Units of memory as tools and people write them: B, KiB, MiB, GiB, KB,
 * MB, GB (any case).  num_mem_unit_bytes: the bytes in one unit named
 * s[0..n), 0 for no such unit; num_mem_unit_name: the name of a unit of that
 * many bytes, for messages.
 */
double num_mem_unit_bytes(const char *s, size_t n);
const char *num_mem_unit_name(double bytes);
#define MEM_UNITS "B, KiB, MiB, GiB, KB, MB or GB"

/*
 * A size as people write it in a configuration: an integer of MiB
 * ("512"), or a number with a unit ("512 MiB", "1GiB", "1.5GB"), in MiB,
 * rounded to the nearest.  Return 0 and store it, -1 when s is no such
 * size, -2 when its unit is unknown (*unit, *ulen: where it is), -3 when
 * it does not fit.
 */
int num_parse_mib(const char *s, uint32_t *mib, const char **unit,
    size_t *ulen);

/*
 * MiB for people, as every table and summary says them: "512 MiB" under
 * a GiB, else GiB to a tenth ("11.0 GiB", "-1.5 GiB").  buf holds
 * FMT_MIBSZ bytes; return buf.
 */
#define FMT_MIBSZ 32
char *num_fmt_mib(int64_t mib, char *buf);

/* Number of decimal digits written by num_fmt_u64 (at most 20, plus NUL). */
size_t num_fmt_u64(char *dst, uint64_t v);

#endif
