/*
 * physgpu: one logged GPU index that is several physical GPUs (physgpu.h).
 */
#include <stdint.h>
#include <string.h>

#include "physgpu.h"
#include "util.h"

void
physgpu_init(struct physgpu *g)
{
	memset(g, 0, sizeof(*g));
	memset(g->cur, 0xff, sizeof(g->cur));	/* UINT32_MAX: none yet */
}

/* host NUL rest: keys of both maps, so hosts never share numbers. */
static void
key(struct sbuf *k, const char *host, const void *rest, size_t n)
{
	sbuf_reset(k);
	sbuf_add(k, host, strlen(host) + 1);
	sbuf_add(k, rest, n);
}

int
physgpu_last(struct physgpu *g, const char *host, const char *id,
    uint32_t idx, uint32_t *n)
{
	const struct sbuf *last;

	if (id[0] == '\0' || idx >= PHYSGPU_MAX)
		return 0;
	if (host == NULL)
		host = "";
	key(&g->k, host, id, strlen(id));
	last = &g->last[idx];
	if (last->len != g->k.len || memcmp(last->buf, g->k.buf, g->k.len) != 0)
		return 0;
	*n = g->cur[idx];	/* idnum's entries never change */
	return 1;
}

uint32_t
physgpu_of(struct physgpu *g, struct source *s, const char *host,
    const char *what, const char *id, uint32_t idx)
{
	struct sbuf *k = &g->k, *last;
	void **slot;
	uint32_t n;
	int isnew;

	if (id[0] == '\0' || idx >= PHYSGPU_MAX)
		return idx;
	if (host == NULL)
		host = "";
	if (physgpu_last(g, host, id, idx, &n))
		return n;
	/* k holds the key physgpu_last made: host NUL id. */
	last = &g->last[idx];
	sbuf_reset(last);
	sbuf_add(last, k->buf, k->len);
	slot = hmap_put(&g->idnum, k->buf, k->len, &isnew);
	if (!isnew) {
		n = (uint32_t)((uintptr_t)*slot - 1);
		g->cur[idx] = n;
		return n;
	}
	for (n = idx;; n++) {
		key(k, host, &n, sizeof(n));
		if (hmap_get(&g->used, k->buf, k->len) == NULL)
			break;
	}
	if (n != idx && !g->said) {
		g->said = 1;
		/* How the records read: said with -q too. */
		msg("%s: line %llu: GPU %u has %s %s, another GPU than the "
		    "GPU %u before it: read as GPU %u (a GPU of its own for "
		    "each %s)", source_name(s),
		    (unsigned long long)source_lineno(s), idx, what, id, idx,
		    n, what);
	}
	*slot = (void *)((uintptr_t)n + 1);
	hmap_put(&g->used, k->buf, k->len, &isnew);
	g->cur[idx] = n;
	return n;
}

uint32_t
physgpu_cur(const struct physgpu *g, uint32_t idx)
{
	return idx < PHYSGPU_MAX && g->cur[idx] != UINT32_MAX ? g->cur[idx] :
	    idx;
}

void
physgpu_copy(struct physgpu *g, const struct physgpu *from)
{
	size_t i;

	physgpu_init(g);
	memcpy(g->cur, from->cur, sizeof(g->cur));
	for (i = 0; i < PHYSGPU_MAX; i++)
		sbuf_copy(&g->last[i], &from->last[i]);
	g->said = from->said;
}

void
physgpu_release(struct physgpu *g)
{
	size_t i;

	hmap_release(&g->used, NULL);
	hmap_release(&g->idnum, NULL);
	for (i = 0; i < PHYSGPU_MAX; i++)
		sbuf_release(&g->last[i]);
	sbuf_release(&g->k);
}
