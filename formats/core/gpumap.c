/* SPDX-License-Identifier: ISC */
/* gpumap.c: the GPU identity registry shared by the inputs of one run. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpumap.h"
#include "hmap.h"
#include "util.h"

struct gpu {
	char *host;
	char *bus;		/* normalised, or NULL */
	char *uuid;		/* the first, normalised, or NULL */
	int64_t index;		/* from a log, or -1 */
	int64_t assigned;	/* numbered by us, or -1 */
	int64_t num;		/* read as this, not its logged index, or -1 */
	char *from;		/* the input that logged its index, or NULL */
	enum gpumap_how how;
	size_t order;		/* order of learning */
};

struct gpumap {
	struct hmap keys;	/* "host\0key" -> struct gpu */
	struct hmap used;	/* "host\0" + index -> the struct gpu */
	struct hmap hint;	/* "host" -> lowest index that may be free */
	/* input, "host\0", logged index -> the number it is read as + 1 */
	struct hmap local;
	uint64_t gen;		/* keys moved to another GPU so far */
	struct gpu **all;
	size_t n;
};

struct gpumap *
gpumap_new(void)
{
	return ecalloc(1, sizeof(struct gpumap));
}

void
gpumap_free(struct gpumap *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->n; i++) {
		free(m->all[i]->host);
		free(m->all[i]->bus);
		free(m->all[i]->uuid);
		free(m->all[i]->from);
		free(m->all[i]);
	}
	free(m->all);
	hmap_release(&m->keys, NULL);
	hmap_release(&m->used, NULL);
	hmap_release(&m->hint, NULL);
	hmap_release(&m->local, NULL);
	free(m);
}

int
gpumap_is_bus(const char *s)
{
	size_t i, colons = 0, dots = 0;

	if (*s == '\0')
		return 0;
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == ':')
			colons++;
		else if (s[i] == '.')
			dots++;
		else if (!isxdigit((unsigned char)s[i]))
			return 0;
	}
	return colons == 2 && dots == 1;
}

/*
 * Normalise an identity into sb: bus ids to an 8-digit domain in upper
 * case (nvidia-smi printed 4 digits until about 2018), UUIDs to lower case
 * without the "GPU-" prefix (some exporters drop it).
 */
static void
normalise(struct sbuf *sb, const char *host, const char *id)
{
	size_t hl = strlen(host), il = strlen(id), i;
	char *p;

	sbuf_reset(sb);
	sbuf_grow(sb, hl + 1 + il + 8);
	p = sb->buf;
	memcpy(p, host, hl + 1);
	p += hl + 1;
	if (gpumap_is_bus(id)) {
		size_t dom = (size_t)(strchr(id, ':') - id);

		for (i = dom; i < 8; i++)
			*p++ = '0';
		for (i = 0; i < il; i++)
			*p++ = (char)toupper((unsigned char)id[i]);
	} else {
		if (strncasecmp(id, "GPU-", 4) == 0) {
			id += 4;
			il -= 4;
		}
		for (i = 0; i < il; i++)
			*p++ = (char)tolower((unsigned char)id[i]);
	}
	*p = '\0';
	sb->len = (size_t)(p - sb->buf);
}

static void
used_key(struct sbuf *sb, const char *host, int64_t v)
{
	sbuf_reset(sb);
	sbuf_adds(sb, host);
	sbuf_addc(sb, '\0');
	sbuf_add(sb, &v, sizeof(v));
}

/* Whether a and b are named apart: different bus ids or UUIDs. */
static int
apart(const struct gpu *a, const struct gpu *b)
{
	return (a->bus != NULL && b->bus != NULL && strcmp(a->bus,
	    b->bus) != 0) || (a->uuid != NULL && b->uuid != NULL &&
	    strcmp(a->uuid, b->uuid) != 0);
}

/* The number g is read as: renumbered, logged, or numbered by us. */
static int64_t
number(const struct gpu *g)
{
	if (g->num >= 0)
		return g->num;
	return g->index >= 0 ? g->index : g->assigned;
}

/* The GPU that has number v on host, or NULL. */
static struct gpu *
used_by(struct gpumap *m, const char *host, int64_t v)
{
	struct sbuf k = SBUF_INIT;
	void **p;

	used_key(&k, host, v);
	p = hmap_get(&m->used, k.buf, k.len);
	sbuf_release(&k);
	return p != NULL ? *p : NULL;
}

/* Number v of host is g's. */
static void
mark_used(struct gpumap *m, const char *host, int64_t v, struct gpu *g)
{
	struct sbuf k = SBUF_INIT;

	used_key(&k, host, v);
	*hmap_put(&m->used, k.buf, k.len, NULL) = g;
	sbuf_release(&k);
}

static struct gpu *
lookup(struct gpumap *m, struct sbuf *key)
{
	void **v = hmap_get(&m->keys, key->buf, key->len);

	return v != NULL ? *v : NULL;
}

static struct gpu *
add(struct gpumap *m, const char *host)
{
	struct gpu *g = ecalloc(1, sizeof(*g));

	g->host = estrdup(host);
	g->index = -1;
	g->assigned = -1;
	g->num = -1;
	g->order = m->n;
	m->all = egrow(m->all, m->n, sizeof(*m->all));
	m->all[m->n++] = g;
	return g;
}

/*
 * Name g by key.  A GPU has a UUID and a bus id, but a hostile log may
 * pair one UUID with a new bus id on every row: at most 2 * GPUMAP_MAX
 * names are kept, and a GPU named anew beyond that is still found by the
 * names it had.
 */
static void
bind(struct gpumap *m, struct sbuf *key, struct gpu *g)
{
	void **v;

	if (m->keys.n >= 2 * GPUMAP_MAX) {
		if ((v = hmap_get(&m->keys, key->buf, key->len)) != NULL)
			*v = g;
		return;
	}
	v = hmap_put(&m->keys, key->buf, key->len, NULL);
	if (*v != NULL && *v != g)
		m->gen++;
	*v = g;
}

/* "bus id X" or "UUID GPU-x": what sets a apart from b. */
static void
say_id(struct sbuf *sb, const struct gpu *a, const struct gpu *b)
{
	int bus = a->bus != NULL && (a->uuid == NULL || (b->bus != NULL &&
	    strcmp(a->bus, b->bus) != 0));

	sbuf_printf(sb, bus ? "bus id %s" : "UUID GPU-%s", bus ? a->bus :
	    a->uuid);
}

static int64_t next_free(struct gpumap *m, const char *host, struct gpu *g);

/*
 * Input src reads logged index index of host as g, whose number is not
 * index: remember it for gpumap_local(), and say so into why the first
 * time.
 */
static int
read_as(struct gpumap *m, unsigned src, const char *host, int64_t index,
    struct gpu *g, struct sbuf *why)
{
	struct sbuf k = SBUF_INIT;
	struct gpu *h = used_by(m, host, index);
	void **v;
	int isnew;

	sbuf_add(&k, &src, sizeof(src));
	sbuf_add(&k, host, strlen(host) + 1);
	sbuf_add(&k, &index, sizeof(index));
	v = hmap_put(&m->local, k.buf, k.len, &isnew);
	*v = (void *)(uintptr_t)(number(g) + 1);
	sbuf_release(&k);
	if (!isnew || why == NULL || h == NULL)
		return 0;
	sbuf_printf(why, "GPU %lld%s%s%s (", (long long)index, *host ?
	    " of host '" : "", host, *host ? "'" : "");
	say_id(why, g, h);
	sbuf_printf(why, ") is another GPU than the GPU %lld of %s (",
	    (long long)index, h->from != NULL ? h->from : "an input read "
	    "before");
	say_id(why, h, g);
	sbuf_printf(why, "): read as GPU %lld", (long long)number(g));
	return 1;
}

int
gpumap_learn(struct gpumap *m, unsigned src, const char *name,
    const char *host, const char *uuid, const char *bus, int64_t index,
    struct sbuf *why)
{
	struct sbuf ku = SBUF_INIT, kb = SBUF_INIT;
	struct gpu *g = NULL, *h;
	int hu = uuid != NULL && *uuid != '\0';
	int hb = bus != NULL && *bus != '\0' && gpumap_is_bus(bus);
	int said = 0;

	if (hu) {
		normalise(&ku, host, uuid);
		g = lookup(m, &ku);
	}
	if (hb) {
		normalise(&kb, host, bus);
		/*
		 * Another UUID in a slot (a card swapped; not found by its
		 * UUID, so another), or another index (a log read the new
		 * card as a GPU of its own by its memory.total): a GPU of
		 * its own, that the bus id names from now on.
		 */
		if (g == NULL && (g = lookup(m, &kb)) != NULL &&
		    ((hu && g->uuid != NULL) || (index >= 0 &&
		    g->index >= 0 && g->index != index)))
			g = NULL;
	}
	if (g == NULL && (hu || hb) && m->n < GPUMAP_MAX)
		g = add(m, host);
	if (g != NULL) {
		if (hu) {
			bind(m, &ku, g);
			if (g->uuid == NULL)
				g->uuid = estrdup(ku.buf + strlen(host) + 1);
		}
		if (hb) {
			bind(m, &kb, g);
			if (g->bus == NULL)
				g->bus = estrdup(kb.buf + strlen(host) + 1);
		}
		if (index >= 0 && g->index < 0) {
			g->index = index;
			g->how = GPUMAP_LOGGED;
			if (name != NULL)
				g->from = estrdup(name);
			/*
			 * The index is another GPU's (named apart): two
			 * machines' "GPU 0", or a card swapped.  This one
			 * is a GPU of its own, the first number free.
			 */
			h = used_by(m, host, index);
			if (h != NULL && h != g && h->index >= 0 &&
			    number(h) == index && apart(h, g))
				g->num = next_free(m, host, g);
			else
				mark_used(m, host, index, g);
		}
		if (index >= 0 && number(g) != index)
			said = read_as(m, src, host, index, g, why);
	}
	sbuf_release(&ku);
	sbuf_release(&kb);
	return said;
}

uint32_t
gpumap_local(const struct gpumap *m, unsigned src, const char *host,
    uint32_t gpu)
{
	struct sbuf k = SBUF_INIT;
	int64_t index = gpu;
	void **v;

	if (m->local.n == 0)
		return gpu;
	sbuf_add(&k, &src, sizeof(src));
	sbuf_add(&k, host, strlen(host) + 1);
	sbuf_add(&k, &index, sizeof(index));
	v = hmap_get(&m->local, k.buf, k.len);
	sbuf_release(&k);
	return v != NULL ? (uint32_t)((uintptr_t)*v - 1) : gpu;
}

uint64_t
gpumap_gen(const struct gpumap *m)
{
	return m->gen;
}

/*
 * The lowest index on host that no GPU has, from a per-host hint so that
 * numbering n GPUs costs O(n), not O(n^2).
 */
static int64_t
next_free(struct gpumap *m, const char *host, struct gpu *g)
{
	struct sbuf k = SBUF_INIT;
	void **hint = hmap_put(&m->hint, host, strlen(host), NULL);
	int64_t v = (int64_t)(intptr_t)*hint;

	for (;; v++) {
		used_key(&k, host, v);
		if (hmap_get(&m->used, k.buf, k.len) == NULL)
			break;
	}
	*hint = (void *)(intptr_t)(v + 1);
	sbuf_release(&k);
	mark_used(m, host, v, g);
	return v;
}

static int
by_bus(const void *a, const void *b)
{
	const struct gpu *x = *(struct gpu *const *)a;
	const struct gpu *y = *(struct gpu *const *)b;

	if (x->bus != NULL && y->bus != NULL)
		return strcmp(x->bus, y->bus);
	if (x->bus != NULL || y->bus != NULL)
		return x->bus != NULL ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/*
 * Number the GPUs of host that have no index yet: in bus order (the order
 * nvidia-smi itself uses), the ones without a bus id after them.
 */
static void
number_host(struct gpumap *m, const char *host)
{
	struct gpu **v = NULL;
	size_t n = 0, i;

	/* Only this host's unnumbered GPUs; a scan is fine, it runs once per host. */

	for (i = 0; i < m->n; i++)
		if (m->all[i]->index < 0 && m->all[i]->assigned < 0 &&
		    strcmp(m->all[i]->host, host) == 0) {
			v = egrow(v, n, sizeof(*v));
			v[n++] = m->all[i];
		}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_bus);
	for (i = 0; i < n; i++) {
		v[i]->assigned = next_free(m, host, v[i]);
		v[i]->how = v[i]->bus != NULL ? GPUMAP_BUSORDER :
		    GPUMAP_LOGORDER;
	}
	free(v);
}

uint32_t
gpumap_index(struct gpumap *m, const char *host, const char *key,
    enum gpumap_how *how)
{
	struct sbuf k = SBUF_INIT;
	struct gpu *g;

	normalise(&k, host, key);
	g = lookup(m, &k);
	if (g == NULL && m->n >= GPUMAP_MAX) {
		sbuf_release(&k);
		*how = GPUMAP_FULL;
		return UINT32_MAX;
	}
	if (g == NULL) {
		/* Seen only here: numbered in order of appearance. */
		g = add(m, host);
		if (gpumap_is_bus(key))
			g->bus = estrdup(k.buf + strlen(host) + 1);
		bind(m, &k, g);
		g->assigned = next_free(m, host, g);
		g->how = GPUMAP_APPEARANCE;
	} else if (g->index < 0 && g->assigned < 0) {
		number_host(m, host);
	}
	sbuf_release(&k);
	*how = g->how;
	return (uint32_t)number(g);
}

void
gpumap_set_add(struct gpuset *s, uint32_t gpu)
{
	int isnew;

	if (gpu < GPUSET_LOW) {
		uint64_t bit = (uint64_t)1 << (gpu % 64);

		if (s->low[gpu / 64] & bit)
			return;
		s->low[gpu / 64] |= bit;
	}
	if (s->n >= GPUMAP_MAX) {
		if (!s->more && hmap_get(&s->seen, &gpu, sizeof(gpu)) == NULL)
			s->more = 1;
		return;
	}
	hmap_put(&s->seen, &gpu, sizeof(gpu), &isnew);
	if (isnew)
		s->n++;
}

void
gpumap_set_say(const struct gpuset *s, struct sbuf *sb)
{
	if (s->more)
		sbuf_printf(sb, "more than %u GPUs", s->n);
	else
		sbuf_printf(sb, "%u GPU%s", s->n, s->n == 1 ? "" : "s");
}

void
gpumap_set_say_of(const struct gpuset *s, uint64_t n, const char *what,
    struct sbuf *sb)
{
	sbuf_printf(sb, ", %llu %s%s of ", (unsigned long long)n, what,
	    n == 1 ? "" : "s");
	gpumap_set_say(s, sb);
}

void
gpumap_set_release(struct gpuset *s)
{
	hmap_release(&s->seen, NULL);
	memset(s->low, 0, sizeof(s->low));
	s->n = 0;
	s->more = 0;
}

int
gpumap_hostgpu_cmp(const char *h1, uint32_t g1, const char *h2, uint32_t g2)
{
	int c = strcmp(h1, h2);

	if (c != 0)
		return c;
	return (g1 > g2) - (g1 < g2);
}
