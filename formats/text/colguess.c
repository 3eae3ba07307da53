/* SPDX-License-Identifier: ISC */
/*
 * colguess.c: the columns of a header-less --query-gpu log, told from
 * their values (colguess.h has the rules).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "colguess.h"
#include "field.h"
#include "gtime.h"
#include "util.h"

#define GMAXCOLS 64
#define GMAXROWS 200
#define MAXINDEX 64		/* an index column holds 0..n-1, n at most this */

enum ctype { T_OTHER, T_TIME, T_UUID, T_BUS, T_NAME, T_MIB, T_INT };

/* What the values of a column can be, and what they are. */
struct gcol {
	int time, uuid, bus, name, mib, uint, any;	/* every value could be */
	enum ctype type;
	const char *as;		/* the field name given, or NULL: colN */
	uint32_t v[GMAXROWS];
	unsigned char has[GMAXROWS];
};

struct guess {
	struct gcol c[GMAXCOLS];
	size_t ncols, nrows;
	const char *f[GMAXROWS][GMAXCOLS];	/* each row's fields */
	size_t len[GMAXROWS][GMAXCOLS];
	int id;			/* the column that names the GPU, or -1 */
};

/* "00000000:3B:00.0": domain, bus, device, function in hex. */
static int
is_busid(const char *s, size_t n)
{
	size_t i, d = 0;

	for (i = 0; i < n && isxdigit((unsigned char)s[i]); i++)
		d++;
	if (d < 4 || d > 8 || n - d != 8)
		return 0;
	s += d;
	return s[0] == ':' && isxdigit((unsigned char)s[1]) &&
	    isxdigit((unsigned char)s[2]) && s[3] == ':' &&
	    isxdigit((unsigned char)s[4]) && isxdigit((unsigned char)s[5]) &&
	    s[6] == '.' && isxdigit((unsigned char)s[7]);
}

/* A product name as nvidia-smi prints it: the brands it starts with. */
static int
is_gpuname(const char *s, size_t n)
{
	static const char *const brand[] = {
		"NVIDIA", "Tesla", "Quadro", "GeForce", "TITAN", "GRID", NULL
	};
	size_t i, bl;

	for (i = 0; brand[i] != NULL; i++) {
		bl = strlen(brand[i]);
		if (n > bl && memcmp(s, brand[i], bl) == 0 && s[bl] == ' ')
			return 1;
	}
	return 0;
}

/* Narrow column c's possible types by the value s[0..n) of row r. */
static void
judge(struct gcol *c, size_t col, size_t r, const char *s, size_t n)
{
	uint64_t t;
	uint32_t v;

	if (field_placeholder(s, n))
		return;
	c->any = 1;
	if (c->time && gtime_nvsmi(s, n, &t) != 0 && (n < 10 || s[4] != '-' ||
	    gtime_iso(s, n, &t) != 0) && (col > 0 || gtime_epoch(s, n, &t) != 0))
		c->time = 0;
	if (c->uuid && !(n > 4 && (memcmp(s, "GPU-", 4) == 0 ||
	    memcmp(s, "MIG-", 4) == 0)))
		c->uuid = 0;
	if (c->bus && !is_busid(s, n))
		c->bus = 0;
	if (c->name && !is_gpuname(s, n))
		c->name = 0;
	if (c->mib && (n < 4 || memcmp(s + n - 3, "MiB", 3) != 0 ||
	    field_mib(s, n, &v) != 1))
		c->mib = 0;
	else if (c->mib)
		c->v[r] = v, c->has[r] = 1;
	if (c->uint && field_uint(s, n, &v) != 1)
		c->uint = 0;
	else if (c->uint)
		c->v[r] = v, c->has[r] = 1;
}

/* Read the sample's rows: those with as many fields as the first. */
static int
load(struct guess *g, char *const *lines, size_t n)
{
	char *f[GMAXCOLS + 1];
	size_t len[GMAXCOLS + 1], i, k, nf;

	for (i = 0; i < n && g->nrows < GMAXROWS; i++) {
		char *l = lines[i];

		if ((unsigned char)l[0] == 0xef && (unsigned char)l[1] == 0xbb &&
		    (unsigned char)l[2] == 0xbf)
			l += 3;	/* a BOM */
		if (strchr(l, ',') == NULL)
			continue;
		nf = field_split(l, ',', f, len, GMAXCOLS);
		if (nf > GMAXCOLS)
			return -1;
		if (g->ncols == 0) {
			g->ncols = nf;
			for (k = 0; k < nf; k++) {
				struct gcol *c = &g->c[k];

				c->time = c->uuid = c->bus = c->name = 1;
				c->mib = c->uint = 1;
			}
		}
		if (nf != g->ncols)
			continue;
		for (k = 0; k < nf; k++) {
			judge(&g->c[k], k, g->nrows, f[k], len[k]);
			g->f[g->nrows][k] = f[k];
			g->len[g->nrows][k] = len[k];
		}
		g->nrows++;
	}
	return g->nrows > 0 ? 0 : -1;
}

/*
 * Whether column a (plus column b, when b >= 0) holds the same value on
 * every row of each GPU.
 */
static int
constant(const struct guess *g, size_t a, int b)
{
	size_t i, j, d = g->id < 0 ? 0 : (size_t)g->id;
	uint64_t vi, vj;

	for (i = 0; i < g->nrows; i++)
		for (j = 0; j < i; j++)
			if (g->id < 0 || (g->len[i][d] == g->len[j][d] &&
			    memcmp(g->f[i][d], g->f[j][d], g->len[i][d]) == 0)) {
				vi = g->c[a].v[i];
				vj = g->c[a].v[j];
				if (b >= 0) {
					vi += g->c[b].v[i];
					vj += g->c[b].v[j];
				}
				if (vi != vj)
					return 0;
				break;
			}
	return 1;
}

/* An index: integers 0..n-1, each of them there. */
static int
is_index(const struct gcol *c, size_t nrows)
{
	unsigned char seen[MAXINDEX] = {0};
	size_t i;
	uint32_t max = 0;

	if (!c->uint || !c->any)
		return 0;
	for (i = 0; i < nrows; i++) {
		if (!c->has[i] || c->v[i] >= MAXINDEX)
			return 0;
		seen[c->v[i]] = 1;
		if (c->v[i] > max)
			max = c->v[i];
	}
	for (i = 0; i <= max; i++)
		if (!seen[i])
			return 0;
	return 1;
}

/*
 * Name the columns that are not memory; return the index column or -1,
 * -2 when several could be (said in why).
 */
static int
name_columns(struct guess *g, struct sbuf *why)
{
	size_t k, nidx = 0;
	int idx = -1, id = -1;

	for (k = 0; k < g->ncols; k++) {
		struct gcol *c = &g->c[k];

		if (!c->any)
			c->type = T_OTHER;
		else if (c->time)
			c->type = T_TIME, c->as = "timestamp";
		else if (c->uuid)
			c->type = T_UUID, c->as = "uuid";
		else if (c->bus)
			c->type = T_BUS, c->as = "pci.bus_id";
		else if (c->name)
			c->type = T_NAME, c->as = "name";
		else if (c->mib)
			c->type = T_MIB;
		else if (c->uint)
			c->type = T_INT;
		if (c->type == T_INT && is_index(c, g->nrows)) {
			nidx++;
			if (idx < 0)
				idx = (int)k;
		}
		if ((c->type == T_BUS || c->type == T_UUID) && id < 0)
			id = (int)k;
	}
	if (nidx > 1 && id < 0) {
		sbuf_adds(why, "which column is the index (several hold "
		    "integers 0..n-1)");
		return -2;
	}
	if (nidx == 1) {
		g->c[idx].as = "index";
		id = idx;
	}
	g->id = id;
	return 0;
}

/* Whether a + b add up to the total t: at most t, and within a 16th. */
static int
sums(uint32_t a, uint32_t b, uint32_t t)
{
	uint64_t s = (uint64_t)a + b;

	return s <= t && s >= t - t / 16;
}

/* Whether columns a and b add up to the total on every row. */
static int
pair(const struct guess *g, size_t a, size_t b, const uint32_t *tot)
{
	size_t i;

	for (i = 0; i < g->nrows; i++)
		if (g->c[a].has[i] && g->c[b].has[i] &&
		    !sums(g->c[a].v[i], g->c[b].v[i], tot[i]))
			return 0;
	return 1;
}

/*
 * The rows of an idle GPU in column k: near 0 (a 16th of the total) is
 * used, near the total is free.  When both are seen (an idle GPU and a
 * full one), used is the column whose least value is at most half the
 * least of the other column (o >= 0), else of the total less it: the
 * memory of an idle driver context is less than what a full GPU leaves
 * free (4 MiB used idle, 666 MiB free full).  Return 'u', 'f', 0 when neither is seen, 'b' when both are and
 * the least values do not tell.
 */
static int
idle_side(const struct guess *g, size_t k, int o, const uint32_t *tot)
{
	size_t i, low = 0, high = 0;
	uint32_t least = UINT32_MAX, rest = UINT32_MAX, v;

	for (i = 0; i < g->nrows; i++) {
		if (!g->c[k].has[i] || (v = g->c[k].v[i]) > tot[i])
			continue;
		if (v <= tot[i] / 16)
			low++;
		else if (v >= tot[i] - tot[i] / 16)
			high++;
		if (v < least)
			least = v;
		if (o < 0 && tot[i] - v < rest)
			rest = tot[i] - v;
		else if (o >= 0 && g->c[o].has[i] && g->c[o].v[i] < rest)
			rest = g->c[o].v[i];
	}
	if (low > 0 && high == 0)
		return 'u';
	if (high > 0 && low == 0)
		return 'f';
	if (low == 0)
		return 0;
	if ((uint64_t)least * 2 <= rest)
		return 'u';
	if ((uint64_t)rest * 2 <= least)
		return 'f';
	return 'b';
}

/*
 * memory.total: the same on every row of a GPU and at least every other
 * memory column.  Return its column, -1 for none, -2 for several.
 */
static int
find_total(const struct guess *g, const size_t *m, size_t nm)
{
	size_t i, j, r;
	int t = -1;

	for (i = 0; i < nm; i++) {
		const struct gcol *c = &g->c[m[i]];
		int ok = constant(g, m[i], -1);

		for (r = 0; ok && r < g->nrows; r++) {
			ok = c->has[r] && c->v[r] > 0;
			for (j = 0; ok && j < nm; j++)
				if (j != i && g->c[m[j]].has[r] &&
				    g->c[m[j]].v[r] >= c->v[r])
					ok = 0;
		}
		if (ok && t >= 0)
			return -2;
		if (ok)
			t = (int)m[i];
	}
	return t;
}

/*
 * Tell the memory columns m[0..nm) apart (units: whether they are MiB).
 * Return COLGUESS_OK, _AMBIGUOUS (why says why) or _NONE.
 */
static enum colguess
memory(struct guess *g, size_t *m, size_t nm, int units, struct sbuf *why)
{
	uint32_t tot[GMAXROWS];
	size_t o[GMAXCOLS], no = 0, i, j, r;
	int t, a = -1, b = -1, side;

	if ((t = find_total(g, m, nm)) == -2) {
		sbuf_adds(why, "which column is memory.total (two could be)");
		return COLGUESS_AMBIGUOUS;
	}
	for (i = 0; i < nm; i++)
		if ((int)m[i] != t)
			o[no++] = m[i];
	if (t >= 0) {
		g->c[t].as = "memory.total";
		for (r = 0; r < g->nrows; r++)
			tot[r] = g->c[t].v[r];
	}
	if (!units && t < 0 && no != 2)
		return COLGUESS_NONE;
	if (!units && t >= 0) {
		/* Integers: only a pair adding up to the total is memory. */
		for (i = 0; i < no; i++)
			for (j = i + 1; j < no; j++)
				if (pair(g, o[i], o[j], tot)) {
					if (a >= 0) {
						sbuf_adds(why, "which columns "
						    "are memory.used and free "
						    "(several pairs add up to "
						    "the total)");
						return COLGUESS_AMBIGUOUS;
					}
					a = (int)o[i];
					b = (int)o[j];
				}
		if (a < 0 && no == 1)
			a = (int)o[0];	/* used or free beside the total */
		else if (a < 0)
			return COLGUESS_NONE;
	} else if (no == 3) {
		/* memory.reserved: the one of the three that stays. */
		for (i = 0, j = no; i < no; i++)
			if (constant(g, o[i], -1))
				j = j == no ? i : no + 1;
		if (j < no) {
			g->c[o[j]].as = "memory.reserved";
			o[j] = o[--no];
		} else {
			sbuf_adds(why, "which of three memory columns beside "
			    "the total is memory.reserved");
			return COLGUESS_AMBIGUOUS;
		}
	}
	if ((units || t < 0) && no == 2) {
		a = (int)o[0];
		b = (int)o[1];
		if (t < 0) {
			/* used + free, no total column: their sum stays. */
			for (r = 0; r < g->nrows; r++)
				tot[r] = g->c[a].v[r] + g->c[b].v[r];
			for (r = 0; r < g->nrows; r++)
				if (!g->c[a].has[r] || !g->c[b].has[r])
					break;
			if (r < g->nrows || !constant(g, (size_t)a, b)) {
				sbuf_adds(why, "which column is memory.total "
				    "(none stays the same on every row of "
				    "a GPU)");
				return COLGUESS_AMBIGUOUS;
			}
		} else if (!pair(g, (size_t)a, (size_t)b, tot)) {
			sbuf_adds(why, "which columns are memory.used and "
			    "memory.free (the two beside the total do not "
			    "add up to it)");
			return COLGUESS_AMBIGUOUS;
		}
	} else if (units && no == 1 && t >= 0)
		a = (int)o[0];
	else if (units) {
		if (no == 0)
			return COLGUESS_NONE;
		sbuf_adds(why, t < 0 ? "which column is memory.total (none "
		    "stays the same on every row of a GPU)" : "what the memory "
		    "columns are (more than total, reserved, used and free)");
		return COLGUESS_AMBIGUOUS;
	}
	side = idle_side(g, (size_t)a, b, tot);
	if (side == 'f') {
		int x = a;

		a = b;
		b = x;
	}
	if (a >= 0)
		g->c[a].as = "memory.used";
	if (b >= 0)
		g->c[b].as = "memory.free";
	if (side != 'u' && side != 'f') {
		sbuf_adds(why, b >= 0 ? "which column is memory.used and "
		    "which memory.free" : "whether the memory column is "
		    "memory.used or memory.free");
		sbuf_adds(why, side == 0 ? " (no rows of an idle GPU: used "
		    "near 0, free near the total)" : " (values near 0 and near "
		    "the total, as close to either end: an idle GPU and a "
		    "full one look alike)");
		return COLGUESS_AMBIGUOUS;
	}
	sbuf_adds(why, "memory.used is the column near 0 while the GPU is idle");
	return COLGUESS_OK;
}

enum colguess
colguess(char *const *lines, size_t n, struct sbuf *fields, struct sbuf *why)
{
	struct guess *g = ecalloc(1, sizeof(*g));
	size_t k, m[GMAXCOLS], nm = 0;
	enum colguess rc = COLGUESS_NONE;
	int units;

	sbuf_set(fields, "", 0);
	sbuf_set(why, "", 0);
	if (load(g, lines, n) < 0)
		goto out;
	if (name_columns(g, why) < 0)
		rc = COLGUESS_AMBIGUOUS;
	for (k = 0; k < g->ncols; k++)
		if (g->c[k].type == T_MIB)
			m[nm++] = k;
	units = nm > 0;
	for (k = 0; !units && k < g->ncols; k++)
		if (g->c[k].type == T_INT && g->c[k].as == NULL)
			m[nm++] = k;
	if (rc == COLGUESS_AMBIGUOUS && nm > 0) {
		/* Name the memory columns for the example all the same. */
		struct sbuf scratch = SBUF_INIT;

		memory(g, m, nm, units, &scratch);
		sbuf_release(&scratch);
	} else if (nm > 0)
		rc = memory(g, m, nm, units, why);
	if (rc == COLGUESS_NONE)
		goto out;
	for (k = 0; k < g->ncols; k++) {
		if (k > 0)
			sbuf_addc(fields, ',');
		if (g->c[k].as != NULL)
			sbuf_adds(fields, g->c[k].as);
		else
			sbuf_printf(fields, "col%zu", k + 1);
	}
out:
	free(g);
	return rc;
}
