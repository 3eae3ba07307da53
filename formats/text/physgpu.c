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

uint32_t
physgpu_of(struct physgpu *g, struct source *s, const char *host,
    const char *what, const char *id, uint32_t idx)
{
	struct sbuf k = SBUF_INIT;
	void **slot;
	uint32_t n;
	int isnew;

	if (id[0] == '\0' || idx >= PHYSGPU_MAX)
		return idx;
	if (host == NULL)
		host = "";
	key(&k, host, id, strlen(id));
	slot = hmap_put(&g->idnum, k.buf, k.len, &isnew);
	if (!isnew) {
		n = (uint32_t)((uintptr_t)*slot - 1);
		g->cur[idx] = n;
		sbuf_release(&k);
		return n;
	}
	for (n = idx;; n++) {
		key(&k, host, &n, sizeof(n));
		if (hmap_get(&g->used, k.buf, k.len) == NULL)
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
	hmap_put(&g->used, k.buf, k.len, &isnew);
	g->cur[idx] = n;
	sbuf_release(&k);
	return n;
}

uint32_t
physgpu_cur(const struct physgpu *g, uint32_t idx)
{
	return idx < PHYSGPU_MAX && g->cur[idx] != UINT32_MAX ? g->cur[idx] :
	    idx;
}

void
physgpu_release(struct physgpu *g)
{
	hmap_release(&g->used, NULL);
	hmap_release(&g->idnum, NULL);
}
